"""Light and fog of war on screen (issue 16 item 6; RULES §9).

The core decides what is lit and who sees what (:mod:`sim.terrain.vision`); this module only paints it.
Once per change of the fight (the view model's version) it asks the core for the light grid and
the sight of the creatures as shown, and folds light and fog into one small image, one pixel per
square (:func:`light_image`):

* ``all`` view: every square at its light level (bright, shadowy, dark), as human eyes see it;
* a side's view (``party``, ``monsters``): the squares that side sees now at the light level its
  best eyes give (low-light vision doubles the radii), squares seen only by darkvision in grey
  (black and white vision: the cave picture there is desaturated), squares seen before dimmed,
  never-seen squares black; creatures the side cannot perceive are not drawn.

Each frame that image is cropped to the squares on screen, given its flicker (torches and
candles only, and only in the picture: a per-light wobble of its own squares), smooth-scaled to
the screen and multiply-blended over the map, tokens and swarms: one pass, the fog included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pygame

from sim.terrain.vision import (
    BRIGHT,
    DARK,
    SHADOWY,
    Light,
    explore,
    light_levels,
    vision,
)
from sim.terrain.vision.scene import (
    DroppedLight,
    darkness_light,
    map_lights,
    scene_lights,
    viewer_of,
)

VIEWS = ("all", "party", "monsters")
FLICKERING = ("torch", "candle")    # open flames flicker; lanterns, sunrods and spells do not
FLICKER_HZ = 15                      # how often a flame's brightness changes (a frame in between reuses it)

# multipliers per light level (RGB, 255 = unchanged): warm bright light, dimmer shadowy light,
# a cold dark that still shows the cave's shape
LEVEL_RGB = np.array([(72, 76, 98), (176, 158, 138), (255, 246, 226)], dtype=np.float32)
DARKVISION_RGB = np.array((150, 150, 150), dtype=np.float32)   # seen in the dark: grey, not warm
EXPLORED_RGB = np.array((40, 42, 54), dtype=np.float32)        # seen before, not now
UNSEEN_RGB = np.array((0, 0, 0), dtype=np.float32)             # never seen


@dataclass(frozen=True, slots=True)
class _Looker:
    """A creature as the core's scene functions read it."""

    id: str
    team: str
    squares: list
    k: int
    block: object
    pos: tuple
    torch_lit: bool = False
    light: str | None = None
    trail: list = field(default_factory=list)
    alive: bool = True


def side_of(team: str) -> str:
    """The view a team's members share: ``party``, or ``monsters`` for every other team.

    >>> side_of("party"), side_of("kobolds")
    ('party', 'monsters')
    """
    return "party" if team == "party" else "monsters"


def _held_light(cid: str, cv, held: dict, thrown: dict, carried: dict) -> str | None:
    """The light (not a torch) a creature holds lit as shown: from its file or lit in the fight,
    until it is doused, dropped or thrown (a lit lantern), or its bearer falls."""
    if cv.down:
        return None
    item = held.get(cid, carried.get(cid))
    return None if item in thrown.get(cid, ()) else item


def light_image(levels: np.ndarray, *, seen: np.ndarray | None = None, explored: np.ndarray | None = None,
                darkvision: np.ndarray | None = None) -> np.ndarray:
    """The multiply image ``[row, col, rgb]`` (float32, 0..255) of one view: ``levels`` are the
    light levels as that view's eyes see them; ``seen``/``explored``/``darkvision`` are None for
    the ``all`` view, else the side's masks.

    >>> lv = np.array([[DARK, SHADOWY, BRIGHT]], np.uint8)
    >>> light_image(lv)[0, :, 0].tolist()
    [72.0, 176.0, 255.0]
    >>> seen = np.array([[True, True, False]]); ex = np.array([[True, True, True]])
    >>> light_image(lv, seen=seen, explored=ex, darkvision=np.array([[True, False, False]]))[0, :, 0].tolist()
    [150.0, 176.0, 40.0]
    """
    img = LEVEL_RGB[levels]
    if seen is None:
        return img
    dv = darkvision if darkvision is not None else np.zeros_like(seen)
    out = np.where(explored[..., None], EXPLORED_RGB, UNSEEN_RGB).astype(np.float32)
    out = np.where((seen & (levels == DARK) & dv)[..., None], DARKVISION_RGB, out)
    out = np.where((seen & (levels > DARK))[..., None], img, out)
    return out


def flicker(t: float, seed: int) -> float:
    """A flame's brightness wobble at time ``t`` (seconds): a few percent, never periodic-looking.

    >>> abs(flicker(1.0, 3)) < 0.12
    True
    """
    a = 0.045 * math.sin(t * 9.1 + seed * 1.7) + 0.03 * math.sin(t * 15.3 + seed * 0.9) \
        + 0.02 * math.sin(t * 23.9 + seed * 2.3)
    return a


class Lighting:
    """Per-scene lighting state: the view shown, the sides' explored squares, the cached image."""

    def __init__(self, grid, *, view: str = "all", carried: dict[str, str] | None = None):
        """``carried``: the light each creature holds lit when the fight starts (from its
        encounter file: ``lit = true`` is a torch, ``light = "sunrod"``...); later torches come
        from the events."""
        if view not in VIEWS:
            raise ValueError(f"view must be one of {', '.join(VIEWS)}, got {view!r}")
        self.grid = grid
        self.view = view
        self.carried = {k: v for k, v in (carried or {}).items() if v}
        self.follow_actor = False      # play and replay: show the acting side's view
        self.explored: dict[str, np.ndarray] = {}
        self._key = None
        self.image: np.ndarray | None = None          # [rows, cols, 3] float32
        self.flames: list[tuple[int, np.ndarray]] = []  # (seed, bool mask) of flickering lights
        self.hidden: set[str] = set()
        self.grey: np.ndarray | None = None            # squares shown in black and white
        self.sight = None
        self.light = None
        self._grey_surf = None
        self._grey_key = None
        self._lum = None               # (map layer, its luminance [x, y]): the darkvision grey's source
        self._seen_now: dict[str, np.ndarray] = {}
        self._dest = None
        self._dest_key = None
        self._image_id = 0

    # -- state -------------------------------------------------------------------------------------
    def forget_explored(self) -> None:
        """No side has explored anything yet (a crawl shown again from an earlier point): the
        image is worked out anew at the next refresh."""
        self.explored.clear()
        self._key = None

    def cycle_view(self) -> str:
        self.view = VIEWS[(VIEWS.index(self.view) + 1) % len(VIEWS)]
        self.follow_actor = False
        self._key = None
        return self.view

    def shown_view(self, model) -> str:
        if self.follow_actor and model.current:
            cv = model.get(model.current)
            if cv is not None:
                return side_of(cv.team)
        return self.view

    def shows(self, cid: str) -> bool:
        """Is this creature drawn in the current view?"""
        return cid not in self.hidden

    def refresh(self, scene) -> None:
        model = scene.model
        view = self.shown_view(model)
        dropped = tuple(getattr(model, "dropped_lights", ()))
        held = dict(getattr(model, "lights_held", {}))
        thrown = {cid: frozenset(v) for cid, v in getattr(model, "lights_thrown", {}).items() if v}
        spell_lit, dark = dict(getattr(model, "spell_lit", {})), tuple(getattr(model, "darkness", ()))
        key = (view, dropped, tuple(sorted(held.items())), tuple(sorted(thrown.items())), tuple(spell_lit.items()), dark,
               tuple((cid, tuple(cv.squares), cv.torch_lit, cv.alive, cv.down, cv.facing)
                                    for cid, cv in model.creatures.items()))
        if key == self._key:
            return
        self._key = key
        lookers = []
        for cid, cv in model.creatures.items():
            c = scene.world.creature(cid)
            if c is None or not cv.alive or not cv.squares:
                continue
            lookers.append(_Looker(id=cid, team=cv.team, squares=list(cv.squares), k=cv.k, block=c.block,
                                   pos=cv.pos, torch_lit=bool(cv.torch_lit and not cv.down),
                                   light=spell_lit.get(cid) or _held_light(cid, cv, held, thrown, self.carried),
                                   trail=[(cv.pos[0] - cv.facing[0], cv.pos[1] - cv.facing[1])]))
        lights = scene_lights(self.grid, lookers, [DroppedLight(item, at) for item, at in dropped])
        lights += [darkness_light(at) for at in dark]
        lg, s = vision(self.grid.rock, lights, [viewer_of(lk) for lk in lookers], edges=self.grid.edges)
        self.light, self.sight = lg, s
        for side in VIEWS[1:]:
            teams = [t for t in s.teams if side_of(t) == side]
            now = np.zeros(self.grid.shape, dtype=bool)
            for t in teams:
                now |= s.seen_by(t)
            self.explored[side] = explore(self.explored.get(side), now)
            self._seen_now[side] = now
        if view == "all":
            levels = lg.normal
            self.image = light_image(levels)
            self.hidden = set()
            self.grey = None
        else:
            members = [lk for lk in lookers if side_of(lk.team) == view]
            ll = any(bool(lk.block.senses.low_light) for lk in members)
            levels = lg.low_light if ll else lg.normal
            seen = self._seen_now[view]
            explored = self.explored[view]
            dv = seen & (levels == DARK)
            self.image = light_image(levels, seen=seen, explored=explored, darkvision=dv)
            self.grey = dv if dv.any() else None
            teams = {lk.team for lk in members}
            perceive = {lk.id for lk in lookers
                        if side_of(lk.team) == view or any(s.team_level(t, lk.id) >= 2 for t in teams)}
            self.hidden = {cid for cid in model.creatures if cid not in perceive}
        self._image_id += 1
        self.flames = []
        for i, li in enumerate(lights):
            item = li.name.split(" (")[0]
            if item in FLICKERING:
                m = _lit_by(self.grid, li)
                self.flames.append((i, m))

    # -- drawing -----------------------------------------------------------------------------------
    def _window(self, scene):
        cam = scene.camera
        view = scene.r_view
        g = self.grid
        x0w, y0w = cam.to_world(view.left, view.top)
        x1w, y1w = cam.to_world(view.right, view.bottom)
        c0, r0 = max(0, int(math.floor(x0w)) - 1), max(0, int(math.floor(y0w)) - 1)
        c1, r1 = min(g.cols, int(math.ceil(x1w)) + 1), min(g.rows, int(math.ceil(y1w)) + 1)
        return c0, r0, c1, r1

    def underlay(self, surf: pygame.Surface, scene) -> None:
        """Before the tokens: the squares seen only by darkvision, in black and white."""
        self.refresh(scene)
        if self.grey is None:
            return
        c0, r0, c1, r1 = self._window(scene)
        if c1 > c0 and r1 > r0:
            self._draw_grey(surf, scene, c0, r0, c1, r1)

    def draw(self, surf: pygame.Surface, scene, t: float) -> None:
        """Multiply the light and fog over what is drawn in the scene's view."""
        self.refresh(scene)
        if self.image is None:
            return
        cam = scene.camera
        ts = cam.ts
        c0, r0, c1, r1 = self._window(scene)
        if c1 <= c0 or r1 <= r0:
            return
        size = ((c1 - c0 + 2) * ts, (r1 - r0 + 2) * ts)
        sx, sy = cam.to_screen(c0 - 1, r0 - 1)
        # flames flicker at FLICKER_HZ: between two changes the scaled light is reused as it is
        flames = self.flames if not getattr(scene, "steady_flames", False) else []   # an export: steady
        beat = int(t * FLICKER_HZ) if flames else 0
        key = (c0, r0, c1, r1, ts, self._key, self._image_id, beat)
        # the padding square around the window is only for the smooth scale: the multiply covers
        # the window's squares and no more (it painted a one-square black frame round the map)
        at, inner = (int(round(sx)) + ts, int(round(sy)) + ts), pygame.Rect(ts, ts, (c1 - c0) * ts, (r1 - r0) * ts)
        if key == self._dest_key and self._dest is not None:
            surf.blit(self._dest, at, inner, special_flags=pygame.BLEND_RGB_MULT)
            return
        win = self.image[r0:r1, c0:c1]
        if flames:
            win = win.copy()
            for seed, m in flames:
                mw = m[r0:r1, c0:c1]
                if mw.any():
                    win[mw] *= 1.0 + flicker(beat / FLICKER_HZ, seed)
        # one pixel per square, padded by one square of the edge value so the smooth scale does
        # not fade at the border; 32-bit surfaces throughout and a kept destination: a fresh big
        # surface per frame costs more than the scaling itself, and a 24-bit multiply blit ten times more
        small = np.full((r1 - r0 + 2, c1 - c0 + 2, 4), 255, dtype=np.uint8)
        small[1:-1, 1:-1, :3] = np.clip(win, 0, 255)
        small[0, :, :3], small[-1, :, :3] = small[1, :, :3], small[-2, :, :3]
        small[:, 0, :3], small[:, -1, :3] = small[:, 1, :3], small[:, -2, :3]
        src = pygame.image.frombuffer(small.tobytes(), (small.shape[1], small.shape[0]), "RGBX")
        if self._dest is None or self._dest.get_size() != size:
            shown = pygame.display.get_surface() is not None
            self._dest = pygame.Surface(size).convert() if shown else pygame.Surface(size, 0, src)
        if src.get_bitsize() != self._dest.get_bitsize() or src.get_masks() != self._dest.get_masks():
            src = src.convert(self._dest)
        pygame.transform.smoothscale(src, size, self._dest)
        self._dest_key = key
        surf.blit(self._dest, at, inner, special_flags=pygame.BLEND_RGB_MULT)

    def _draw_grey(self, surf, scene, c0, r0, c1, r1) -> None:
        """Squares seen only by darkvision: the cave picture there in black and white."""
        ts = scene.camera.ts
        key = (ts, self._key, c0, r0, c1, r1)
        if key != self._grey_key:
            layer = scene.map_layer(ts)
            if self._lum is None or self._lum[0] is not layer:   # the whole picture in grey, once per layer
                rgb = pygame.surfarray.array3d(layer).astype(np.float32)        # [x, y, 3]
                self._lum = (layer, (rgb @ np.array([0.3, 0.59, 0.11], np.float32)).astype(np.uint8))
            sub = layer.subsurface(pygame.Rect(c0 * ts, r0 * ts, (c1 - c0) * ts, (r1 - r0) * ts))
            lum = self._lum[1][c0 * ts:c1 * ts, r0 * ts:r1 * ts]
            mask = np.repeat(np.repeat(self.grey[r0:r1, c0:c1].T, ts, axis=0), ts, axis=1)
            out = pygame.Surface(sub.get_size(), pygame.SRCALPHA)
            pygame.surfarray.pixels3d(out)[...] = lum[..., None]
            pygame.surfarray.pixels_alpha(out)[...] = np.where(mask, 255, 0).astype(np.uint8)
            self._grey_surf, self._grey_key = out, key
        sx, sy = scene.camera.to_screen(c0, r0)
        surf.blit(self._grey_surf, (int(round(sx)), int(round(sy))))


def _lit_by(grid, light: Light) -> np.ndarray:
    return light_levels(grid.rock, [light], edges=grid.edges).normal > DARK


__all__ = ["Lighting", "VIEWS", "light_image", "flicker", "BRIGHT", "SHADOWY", "map_lights"]
