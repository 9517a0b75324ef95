"""Creatures on screen (a part owned by :class:`~sim.render.scene.Scene`): where each token is at a moment
of the animation (moves, lunges, shakes), how it looks (pose in its category, sprite, badges,
label; cached until it changes), torch light, and the swarms' hazes, outlines and labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pygame

from sim.maps import palette
from sim.render import easing, portray
from sim.render.camera import Camera
from sim.render.draw import Sprites, dashed_ring, flame, square_outline, stable_hash
from sim.render.hud import hp_bar
from sim.render.lighting import Lighting
from sim.render.particles import ParticleSystem
from sim.render.placement import label_candidates, place
from sim.render.text import Text
from sim.rules.categories import Category
from sim.terrain.grid import CaveGrid
from sim.view import timeline as tl
from sim.view.model import CreatureView, ViewModel
from sim.view.world import World

ARMOUR_RGB = (168, 178, 192)   # armour taken off and dragged behind (RULES §2.4)


@dataclass(frozen=True)
class Stage:
    """What a frame's tokens are drawn against, beside the tokens' own state: the engine world
    asked for poses, the lighting (None: everything in full light), the swarms' particles, the
    scene's clock (ambient motion), the creature selected (``ring``: the one ringed, the acting
    one when the selection is gone) and the map's view on screen."""

    world: World
    lighting: Lighting | None
    particles: ParticleSystem
    clock: float
    selected: str | None
    ring: str | None
    view: pygame.Rect


def armour_state(cv: CreatureView) -> tuple[str, float]:
    """Where ``cv``'s armour is: ("on" | "taking_off" | "off" | "putting_on", progress 0..1)
    -- in a fight, from the armour events (RULES §2.4: off before a crawlway)."""
    if cv.armor_off:
        return "off", 1.0
    if cv.armor_progress > 0:
        return "taking_off", cv.armor_progress
    return "on", 0.0


class Tokens:
    """Token positions and drawing of a scene: from its view ``model`` and ``director`` (the
    animations), through its ``camera``, with its ``sprites`` and ``text``, on ``grid``; the hp
    bars shown (``hp_shown``, eased by the scene) and their image cache (``bars``). Three hooks of
    the scene, which a view built on it may change: ``centre(cid, t)`` (where a token is drawn),
    ``armour(cv, t)`` (where a creature's armour is) and ``obstacles()`` (what labels keep off)."""

    def __init__(self, *, model: ViewModel, director: tl.Director, camera: Camera, sprites: Sprites, text: Text,
                 grid: CaveGrid, hp_shown: dict[str, float], bars: dict,
                 centre: Callable[[str, float], tuple[float, float]],
                 armour: Callable[[CreatureView, float], tuple[str, float]], obstacles: Callable[[], list]):
        self.model = model
        self.director = director
        self.camera = camera
        self.sprites = sprites
        self.text = text
        self.grid = grid
        self.hp_shown = hp_shown
        self.bars = bars
        self.centre = centre
        self.armour = armour
        self.obstacles = obstacles
        self.labels: list = []          # the labels drawn this frame (pygame Rects, screen pixels)
        self.rects: list = []           # the tokens drawn (disc and hp bar): what labels try not to cover
        self._label_queue: list = []    # (important, label, centre, half): placed after the tokens
        self._looks: dict = {}
        self._hazes: dict = {}
        self._haze_origin: dict = {}
        self._index_key = None
        self._index: dict = {}

    def _px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.camera.to_screen(x, y)
        return (int(round(sx)), int(round(sy)))

    def _anim_index(self, t: float) -> dict:
        """The animations that move tokens, by creature (built once per drawn frame)."""
        key = (t, len(self.director.anims), self.director.t)
        if self._index_key == key:
            return self._index
        moves: dict = {}
        shifts: dict = {}
        for a in self.director.anims:
            k = a.kind
            if k == tl.MOVE:
                moves.setdefault(a.actor, []).append(a)
            elif k in (tl.LUNGE, tl.STUCK) and a.t0 <= t < a.end:
                shifts.setdefault(a.actor, []).append(a)
            elif k == tl.MISS and a.t0 <= t < a.end:
                shifts.setdefault(a.target, []).append(a)
        self._index = {"moves": moves, "shifts": shifts}
        self._index_key = key
        return self._index

    def centre_at(self, cid: str, t: float) -> tuple[float, float]:
        """Centre of a creature's token in squares at time ``t`` (movement, lunges, shakes)."""
        cv = self.model.creatures[cid]
        idx = self._anim_index(t)
        base = tl.centre_of(cv.squares)
        pending = None
        for a in idx["moves"].get(cid, ()):
            if a.t0 <= t < a.end:
                base = _along(a, t)
                pending = None
                break
            if t < a.t0 and (pending is None or a.t0 < pending.t0):
                pending = a
        if pending is not None:
            base = pending.data["points"][0]
        x, y = base
        for a in idx["shifts"].get(cid, ()):
            if a.kind == tl.LUNGE and a.actor == cid and a.target in self.model.creatures:
                tx, ty = tl.centre_of(self.model.creatures[a.target].squares)
                dx, dy = tx - x, ty - y
                n = math.hypot(dx, dy) or 1.0
                amp = 0.32 * easing.lunge(a.progress(t))
                x, y = x + dx / n * amp, y + dy / n * amp
            elif a.kind == tl.STUCK and a.actor == cid:
                p = a.progress(t)
                x += 0.08 * math.sin(p * 40) * (1 - p)
            elif a.kind == tl.MISS and a.target == cid:
                p = a.progress(t)
                if p < 0.4:
                    x += 0.1 * math.sin(p / 0.4 * math.pi)
        return (x, y)

    def draw_lights(self, surf, t) -> None:
        """The pools of torch light, drawn when the scene has no lighting."""
        ts = self.camera.ts
        for cid, cv in self.model.creatures.items():
            if not cv.torch_lit or not cv.alive or cv.down:
                continue
            x, y = self.centre(cid, t)
            r = int(ts * 3.2)   # a steady pool of light (the flame flickers)
            g = self.sprites.glow(r, palette.TORCH_LIGHT, 0.2)
            sx, sy = self._px(x, y)
            surf.blit(g, (sx - r, sy - r), special_flags=pygame.BLEND_RGB_ADD)

    def draw_hazes(self, surf, stage: Stage) -> None:
        """The shadow under each swarm cloud and the outline of its squares: one cached image per
        swarm shape."""
        ts = self.camera.ts
        for cl in stage.particles.clouds.values():
            if cl.scatter_t >= 0 or (stage.lighting is not None and not stage.lighting.shows(cl.id)):
                continue
            cv = self.model.get(cl.id)
            rgb = palette.shade(portray.team_rgb(cv), 0.9) if cv is not None else (200, 200, 200)
            key = (tuple(sorted(cl.squares)), ts, cl.kind, rgb)
            img = self._hazes.get(key)
            if img is None:
                xs = [x for x, _ in cl.squares]
                ys = [y for _, y in cl.squares]
                x0, y0 = min(xs) - 1, min(ys) - 1
                w, h = (max(xs) - x0 + 2) * ts, (max(ys) - y0 + 2) * ts
                img = pygame.Surface((w, h), pygame.SRCALPHA)
                haze = self.sprites.soft(int(ts * 0.78), portray.SWARM_STYLES[cl.kind].haze, flat=True)
                for x, y in cl.squares:
                    cx, cy = (x - x0 + 0.5) * ts, (y - y0 + 0.5) * ts
                    img.blit(haze, (int(cx) - haze.get_width() // 2, int(cy) - haze.get_height() // 2))
                local = Camera(view=(0, 0, w, h), ts=ts, cx=x0 + w / ts / 2, cy=y0 + h / ts / 2)
                square_outline(img, cl.squares, local, rgb)
                if pygame.display.get_surface() is not None:
                    img = img.convert_alpha()
                if len(self._hazes) > 200:
                    self._hazes.clear()
                self._hazes[key] = img
                self._haze_origin[key] = (x0, y0)
            x0, y0 = self._haze_origin[key]
            surf.blit(img, self._px(x0, y0))

    def _pose(self, cv, world: World):
        g = self.grid
        if cv.swarm:
            return None, portray.Pose("upright")
        world.sync(self.model)
        cat = world.standing(cv.id) if cv.alive else Category.CLEAR
        x, y = cv.pos
        if not g.in_bounds((x, y)):
            x, y = cv.squares[0]
        c = world.creature(cv.id)
        body = c.block.body if c is not None else None
        widths = [float(g.width_ft[sy, sx]) for sx, sy in cv.squares if g.in_bounds((sx, sy))] or [30.0]
        heights = [float(g.height_ft[sy, sx]) for sx, sy in cv.squares if g.in_bounds((sx, sy))] or [30.0]
        pose = portray.pose_for(cv, category=cat, rock=g.rock, width_ft=min(widths), height_ft=min(heights),
                                body_height=body.height if body else 6.0, space_ft=body.space if body else 5.0)
        return cat, pose

    def look(self, cv, world: World):
        """What a token looks like now (cached until the view changes): category, pose, sprite,
        radius, badges, label."""
        key = (self.camera.ts, tuple(cv.squares), cv.pos, cv.prone, frozenset(cv.conditions), cv.facing, cv.team)
        cached = self._looks.get(cv.id)
        look = cached[1] if cached is not None and cached[0] == key else None
        if look is None:
            ts = self.camera.ts
            cat, pose = self._pose(cv, world)
            r = portray.token_radius(cv) * ts
            line_px = 0.0
            if pose.kind == "line" and len(cv.squares) > 1:
                (x0, y0), (x1, y1) = cv.squares[0], cv.squares[-1]
                line_px = math.hypot(x1 - x0, y1 - y0) * ts
                r = 0.45 * ts
            rgb = portray.team_rgb(cv)
            glyph = portray.glyph(cv.label)
            spr = self.sprites.token(rgb=rgb, glyph=glyph, radius=r, pose=pose, line_px=line_px)
            half = max(r, ts * 0.36)
            if pose.kind == "line":
                half = max(half, ts * 0.5)
            br = max(4, ts // 6)
            badges = [(b, self.sprites.badge(b.text, b.rgb, br)) for b in portray.badges(cv, cat)[:4]]
            label = None
            if ts >= 14:
                size = 15 if ts < 24 else (16 if ts < 32 else 18)
                label = self.text.render(cv.label, size, (240, 240, 240), outline=(0, 0, 0))
            look = dict(cat=cat, pose=pose, r=r, line_px=line_px, rgb=rgb, glyph=glyph, sprite=spr, half=half, br=br,
                        badges=badges, label=label)
            self._looks[cv.id] = (key, look)
        return look

    def _armour_under(self, surf, t) -> dict:
        """The cords of dragged armour, under the tokens; returns what :meth:`_armour_over` draws."""
        kit = {}
        for cv in self.model.creatures.values():
            if cv.swarm or not cv.alive:
                continue
            state, p = self.armour(cv, t)
            if state == "on":
                continue
            x, y = self.centre(cv.id, t)
            kit[cv.id] = (x, y, state, p)
            if state == "off":
                self._armour_bundle(surf, cv, x, y, 1.0, cord_only=True)
        return kit

    def _armour_over(self, surf, kit: dict) -> None:
        """The dragged armour over the tokens, and a progress ring while it comes off or goes on."""
        ts = self.camera.ts
        for cid, (x, y, state, p) in kit.items():
            cv = self.model.creatures[cid]
            if state in ("off", "putting_on"):
                self._armour_bundle(surf, cv, x, y, 1.0 if state == "off" else 1.0 - p)
            if state in ("taking_off", "putting_on"):
                sx, sy = self._px(x, y)
                r = int(0.5 * cv.k * ts) + 4
                rect = pygame.Rect(sx - r, sy - r, 2 * r, 2 * r)
                pygame.draw.circle(surf, (0, 0, 0), (sx, sy), r, 4)
                if p > 0.01:
                    for d in (0, 1, 2):
                        pygame.draw.arc(surf, palette.UI_ACCENT, rect.inflate(-2 * d, -2 * d),
                                        math.pi / 2 - 2 * math.pi * p, math.pi / 2, 2)
                if state == "taking_off":
                    self._armour_bundle(surf, cv, x, y, p, beside=True)

    def _armour_bundle(self, surf, cv, x: float, y: float, strength: float, *, beside: bool = False,
                       cord_only: bool = False) -> None:
        """The armour, off: a strapped breastplate dragged on a cord behind the token (beside it
        while it comes off); ``strength`` 0..1 its size while it comes off or goes back on. The
        cord is drawn under the tokens (``cord_only``), the plate over them."""
        if strength <= 0.05:
            return
        ts = self.camera.ts
        fx, fy = cv.facing
        n = math.hypot(fx, fy) or 1.0
        fx, fy = fx / n, fy / n
        back = 0.5 * cv.k * (1.15 if cv.prone else 0.9) + 0.12
        if beside:
            bx, by = x - fy * back, y + fx * back
        else:
            bx, by = x - fx * back, y - fy * back
        sx, sy = self._px(x, y)
        px, py = self._px(bx, by)
        w = max(8, int(ts * 0.5 * (0.5 + 0.5 * strength)))
        h = max(7, int(w * 0.9))
        if cord_only:
            pygame.draw.line(surf, (30, 22, 14), (sx, sy), (px, py), max(2, ts // 12))
            pygame.draw.line(surf, (190, 150, 100), (sx, sy), (px, py), 1)
            return
        # a breastplate: a shield-like plate, rounded at the top, pointed at the bottom
        top, bottom = py - h // 2, py + h // 2
        pts = [(px - w // 2, top + h // 5), (px - w // 3, top), (px + w // 3, top), (px + w // 2, top + h // 5),
               (px + w // 2, top + h * 3 // 5), (px, bottom), (px - w // 2, top + h * 3 // 5)]
        pygame.draw.polygon(surf, (0, 0, 0), [(a + (1 if a > px else -1), b + (1 if b > py else -1)) for a, b in pts])
        pygame.draw.polygon(surf, ARMOUR_RGB, pts)
        pygame.draw.polygon(surf, palette.shade(ARMOUR_RGB, 0.5), pts, 1)
        pygame.draw.line(surf, palette.shade(ARMOUR_RGB, 0.6), (px, top + 2), (px, bottom - 2), 1)
        pygame.draw.line(surf, (120, 84, 50), (px - w // 2 + 1, top + h * 2 // 5), (px + w // 2 - 1, top + h * 2 // 5),
                         max(1, h // 6))

    def draw(self, surf, anims, t, stage: Stage) -> None:
        """The creatures' tokens (not the swarms'), their armour, grapples and strands, labels."""
        kit = self._armour_under(surf, t)
        self._draw_token_bodies(surf, anims, t, stage)
        self._armour_over(surf, kit)
        self._draw_grapple_tethers(surf, t, stage)   # over the tokens: adjacent grapplers' rope would hide under them
        self._draw_strands(surf, t, stage)

    def _draw_strands(self, surf, t, stage: Stage) -> None:
        """A roper's strand (docs/rules.md §11.15) from the roper to each creature it holds, from the
        "stuck" conditions of the events: a thin pale cord sagging a little, swaying, with a blob
        where it sticks; it goes when the creature breaks free, the strand is cut or the roper is out."""
        ts = self.camera.ts
        for cv in self.model.creatures.values():
            roper = self.model.get(cv.stuck_to) if cv.stuck_to else None
            if roper is None or not (cv.alive and roper.alive) or cv.inside is not None:
                continue
            if stage.lighting is not None and not (stage.lighting.shows(cv.id) or stage.lighting.shows(roper.id)):
                continue
            pa = self._px(*self.centre(roper.id, t))
            pb = self._px(*self.centre(cv.id, t))
            length = math.hypot(pb[0] - pa[0], pb[1] - pa[1]) or 1.0
            ux, uy = (pb[0] - pa[0]) / length, (pb[1] - pa[1]) / length
            ra, rb = ts * 0.42 * roper.k, ts * 0.38 * cv.k    # from the edge of one token to the other's
            if length > ra + rb + 2:
                pa = (pa[0] + ux * ra, pa[1] + uy * ra)
                pb = (pb[0] - ux * rb, pb[1] - uy * rb)
            dx, dy = pb[0] - pa[0], pb[1] - pa[1]
            length = math.hypot(dx, dy) or 1.0
            n = max(8, int(length / 5))
            sag = min(ts * 0.5, length * 0.08) * (0.8 + 0.2 * math.sin(stage.clock * 2 + stable_hash(cv.id) % 5))
            nx, ny = -dy / length, dx / length
            if ny < 0:
                nx, ny = -nx, -ny         # it sags downwards on the screen
            pts = [(pa[0] + dx * i / n + nx * sag * math.sin(math.pi * i / n),
                    pa[1] + dy * i / n + ny * sag * math.sin(math.pi * i / n)) for i in range(n + 1)]
            width = max(2, int(ts * 0.06))
            pygame.draw.lines(surf, (34, 32, 20), False, pts, width + 2)
            pygame.draw.lines(surf, palette.ROPER_STRAND, False, pts, width)
            bx, by = int(pb[0]), int(pb[1])
            pygame.draw.circle(surf, (34, 32, 20), (bx, by), width * 2 + 1)
            pygame.draw.circle(surf, palette.ROPER_STRAND, (bx, by), width * 2)

    def _draw_grapple_tethers(self, surf, t, stage: Stage) -> None:
        """A knotted rope binding each pair of grappling creatures (docs/rules.md §11), drawn over
        their tokens from centre to centre, following them as they move; it writhes while they
        struggle."""
        ts = self.camera.ts
        drawn = set()
        for cv in self.model.creatures.values():
            for oid in cv.grapple_with:
                pair = tuple(sorted((cv.id, oid)))
                other = self.model.get(oid)
                if pair in drawn or other is None or not (cv.alive and other.alive):
                    continue
                if cv.inside == oid or other.inside == cv.id:
                    continue   # swallowed or engulfed: its badge says it, no rope (docs/rules.md §11.13)
                drawn.add(pair)
                if stage.lighting is not None and not (stage.lighting.shows(cv.id) or stage.lighting.shows(oid)):
                    continue
                (ax, ay), (bx, by) = self.centre(cv.id, t), self.centre(oid, t)
                pa, pb = self._px(ax, ay), self._px(bx, by)
                n = max(6, int(math.hypot(pb[0] - pa[0], pb[1] - pa[1]) / 6))
                wave = ts * 0.06 * (0.6 + 0.4 * math.sin(stage.clock * 6 + stable_hash(pair[0]) % 7))
                dx, dy = pb[0] - pa[0], pb[1] - pa[1]
                length = math.hypot(dx, dy) or 1.0
                nx, ny = -dy / length, dx / length
                pts = [(pa[0] + dx * i / n + nx * wave * math.sin(i * math.pi * 3 / n),
                        pa[1] + dy * i / n + ny * wave * math.sin(i * math.pi * 3 / n)) for i in range(n + 1)]
                width = max(2, int(ts * 0.09))
                pygame.draw.lines(surf, (40, 26, 14), False, pts, width + 2)
                pygame.draw.lines(surf, palette.GRAPPLE_ROPE, False, pts, width)
                mx, my = pts[n // 2]
                pygame.draw.circle(surf, (40, 26, 14), (int(mx), int(my)), width + 2)
                pygame.draw.circle(surf, palette.GRAPPLE_ROPE, (int(mx), int(my)), width)

    def _draw_token_bodies(self, surf, anims, t, stage: Stage) -> None:
        ts = self.camera.ts
        m = self.model
        order = sorted((cv for cv in m.creatures.values() if not cv.swarm),
                       key=lambda cv: (cv.alive and not cv.down, cv.squares[0][1] if cv.squares else 0))
        dying = {a.target: a for a in anims if a.kind == tl.DEATH}
        flashes = {a.target: a for a in anims if a.kind == tl.FLASH}
        badge_pop = {(a.target, a.data.get("condition")): a for a in anims if a.kind == tl.BADGE}
        moving = {a.actor for a in anims if a.kind == tl.MOVE and a.t0 <= t < a.end}
        current = m.current if not m.finished else None
        sel = stage.ring
        self.labels = []
        self._label_queue = []
        self.rects = []
        for cv in order:
            if "dead" in cv.conditions and cv.id not in dying and not cv.squares:
                continue
            if stage.lighting is not None and not stage.lighting.shows(cv.id):
                continue
            look = self.look(cv, stage.world)
            pose, r, spr = look["pose"], look["r"], look["sprite"]
            if cv.id in moving and pose.kind in ("squeezed", "line"):
                # in transit: a line creature moves as a disc; a squeezed one keeps pressing on
                if pose.kind == "line":
                    pose = portray.Pose("upright")
                    r = portray.token_radius(cv) * ts
                    spr = self.sprites.token(rgb=look["rgb"], glyph=look["glyph"], radius=r, pose=pose)
            x, y = self.centre(cv.id, t)
            sx, sy = self._px(x, y)
            if cv.id == current:
                pulse = 0.5 + 0.5 * math.sin(stage.clock * 5)
                pygame.draw.circle(surf, palette.UI_ACCENT, (sx, sy), int(r + 3 + 2 * pulse), 2)
            if sel == cv.id and cv.id != current:
                dashed_ring(surf, (255, 255, 255), (sx, sy), r + 4, width=2, phase=stage.clock)
            death = dying.get(cv.id)
            if death is not None:
                p = death.progress(t)
                before = self.sprites.token(rgb=look["rgb"], glyph=look["glyph"], radius=r,
                                            pose=portray.Pose("down", angle=pose.angle))
                b = before.copy()
                b.set_alpha(int(255 * (1 - p)))
                surf.blit(b, (sx - b.get_width() // 2, sy - b.get_height() // 2))
                s2 = spr.copy()
                s2.set_alpha(int(255 * p))
                surf.blit(s2, (sx - s2.get_width() // 2, sy - s2.get_height() // 2))
            else:
                surf.blit(spr, (sx - spr.get_width() // 2, sy - spr.get_height() // 2))
            fl = flashes.get(cv.id)
            if fl is not None and fl.t0 <= t:
                a = easing.pulse(fl.progress(t))
                col = (255, 240, 200) if not fl.data.get("critical") else (255, 220, 80)
                disc = self.sprites.soft(int(r * 1.25), (*col, 235))
                d2 = disc.copy()
                d2.set_alpha(int(255 * a))
                surf.blit(d2, (sx - disc.get_width() // 2, sy - disc.get_height() // 2))
            half = int(look["half"])
            self.rects.append((sx - half, sy - half - 8, 2 * half, 2 * half + 8))
            if cv.alive:
                self._draw_token_info(surf, cv, look, (sx, sy), badge_pop, t, stage)
            if cv.torch_lit and cv.alive and not cv.down:
                fx, fy = sx + int(r * 0.75), sy - int(r * 0.35)
                flame(surf, fx, fy, max(2.5, ts * 0.14), stage.clock, stable_hash(cv.id))
        self._place_labels(surf, stage)

    def _place_labels(self, surf, stage: Stage) -> None:
        """The token labels, placed greedily so that none covers another (the acting and the
        selected creature's first): each takes the first free place round its token -- below,
        above, right, left... -- that covers no other token (the acting and the selected
        creature's may, when nothing else is free); a label with no free place is left out (the
        token's glyph and the side panel still name it)."""
        view = tuple(stage.view)
        obstacles = self.rects + [tuple(r) for r in self.obstacles()]
        taken = [tuple(r) for r in self.labels]
        for important, lab, (sx, sy), half in sorted(self._label_queue, key=lambda q: not q[0]):
            w, h = lab.get_size()
            own = (sx - half, sy - half - 8, 2 * half, 2 * half + 8)
            spot = place(label_candidates(sx, sy, half, w, h), taken, [o for o in obstacles if o != own], area=view,
                         over_obstacles=important)
            if spot is None:
                continue
            surf.blit(lab, spot[:2])
            taken.append(spot)
            self.labels.append(pygame.Rect(spot))

    def _draw_token_info(self, surf, cv, look, centre, badge_pop, t, stage: Stage) -> None:
        sx, sy = centre
        ts = self.camera.ts
        half = look["half"]
        bw = int(max(ts * 0.8, 2 * half))
        hp_bar(surf, pygame.Rect(sx - bw // 2, sy - int(half) - 8, bw, max(3, ts // 8)), cv.hp_fraction,
               shown=self.hp_shown.get(cv.id), cache=self.bars)
        lab = look["label"]
        if lab is not None:
            important = cv.id in (self.model.current, stage.selected)
            self._label_queue.append((important, lab, (sx, sy), int(half)))
        if look["badges"]:
            br = look["br"]
            bx = sx + int(half) - br
            by = sy - int(half) - 2
            for i, (b, spr) in enumerate(look["badges"]):
                pop = badge_pop.get((cv.id, b.key))
                if pop is not None:
                    spr = self.sprites.badge(b.text, b.rgb, int(br * (1.0 + 0.6 * easing.pulse(pop.progress(t)))))
                surf.blit(spr, (bx + i * (2 * br - 1) - spr.get_width() // 2 + br, by - spr.get_height() // 2 + br // 2))

    def draw_swarm_labels(self, surf, stage: Stage) -> None:
        """Each swarm's hp bar, its label (kept off the tokens' labels) and, when it acts, its outline."""
        ts = self.camera.ts
        for cid, cv in self.model.creatures.items():
            if not cv.swarm or not cv.alive or cid not in stage.particles.clouds:
                continue
            if stage.lighting is not None and not stage.lighting.shows(cid):
                continue
            xs = [x for x, _ in cv.squares]
            ys = [y for _, y in cv.squares]
            cx = (min(xs) + max(xs) + 1) / 2
            top = min(ys)
            sx, sy = self._px(cx, top)
            bw = int(ts * 1.1)
            hp_bar(surf, pygame.Rect(sx - bw // 2, sy - 6, bw, max(3, ts // 8)), cv.hp_fraction,
                   shown=self.hp_shown.get(cid), cache=self.bars)
            if ts >= 14:   # above the swarm, else below or beside it: never over a token's label
                lab = self.text.render(cv.label, 16, portray.team_rgb(cv), outline=(0, 0, 0))
                w, h = lab.get_size()
                bx, by = self._px(cx, max(ys) + 1)
                lx0, _ = self._px(min(xs), top)
                lx1, _ = self._px(max(xs) + 1, top)
                cands = [(sx - w // 2, sy - 8 - h, w, h), (bx - w // 2, by + 2, w, h),
                         (lx1 + 3, sy, w, h), (lx0 - 3 - w, sy, w, h)]
                spot = place(cands, [tuple(r) for r in self.labels], area=tuple(stage.view))
                if spot is not None:
                    surf.blit(lab, spot[:2])
                    self.labels.append(pygame.Rect(spot))
            if cid == self.model.current and not self.model.finished:
                square_outline(surf, cv.squares, self.camera, palette.UI_ACCENT, width=2)


def _along(a, t: float) -> tuple[float, float]:
    """Position of a MOVE animation at time ``t``: square by square along its points, easing in
    on the first step and out on the last."""
    times = a.data["times"]
    pts = a.data["points"]
    u = t - a.t0
    n = len(times) - 1
    i = 0
    while i < n - 1 and u >= times[i + 1]:
        i += 1
    seg = times[i + 1] - times[i]
    f = 0.0 if seg <= 0 else min(1.0, max(0.0, (u - times[i]) / seg))
    if n == 1:
        f = easing.ease_in_out_cubic(f)
    elif i == 0:
        f = easing.ease_in_cubic(f) * 0.5 + f * 0.5
    elif i == n - 1:
        f = easing.ease_out_cubic(f)
    (x0, y0), (x1, y1) = pts[i], pts[i + 1]
    return (x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
