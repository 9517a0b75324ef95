"""The scene: one frame of the renderer, composed from the view model, the director's
animations, the swarm particles and the engine's answers (through :class:`World`).

``update(dt)`` is one fixed step (director clock, particles, hp bars); ``draw(surface, alpha)``
draws the frame ``alpha`` of the way between the last two steps. Drawing never changes state.
The static cave is painted once per zoom and cached; overlays are baked into a cached copy of
it, rebuilt only when they change, so a frame is one map blit plus the moving things.

The Scene owns its parts, each an object built with what it draws from (no part reaches into
another's state): ``cave`` (:class:`~sim.render.layers.CaveLayers`: cave and overlay caches),
``tokens`` (:class:`~sim.render.tokens.Tokens`: creatures), ``effects``
(:class:`~sim.render.effects.Effects`: animations and previews) and ``hudder``
(:class:`~sim.render.hud.Hud`: the interface and its words). A view built on this one (the
crawl's) changes what the hooks say: :meth:`token_centre`, :meth:`composite`,
:meth:`label_obstacles`, ``_armour_state``, ``_draw_tokens``, ``_frame_points``, ``_caption``,
``_draw_cards`` and :meth:`status_text`.
"""

from __future__ import annotations

import sys
from typing import Iterable

import numpy as np
import pygame

from sim.base.coords import Pos
from sim.engine import events as ev
from sim.render import easing, portray, tablehud
from sim.render.camera import Camera
from sim.render.draw import Sprites, draw_particles
from sim.render.effects import Effects
from sim.render.hud import Hud
from sim.render.layers import CaveLayers, Overlaid
from sim.render.particles import ParticleSystem
from sim.render.text import Text
from sim.render.tokens import Stage, Tokens, armour_state
from sim.view import timeline as tl
from sim.view.model import ViewModel
from sim.view.world import World


class Scene:
    """Everything on screen. ``mode`` is watch (demo, render), replay or play.

    The scene holds the state shown (the choices of play too), the layout, the director's camera,
    feeding and stepping, and the draw order; its parts draw (see the module's docstring)."""

    def __init__(self, *, world: World, model: ViewModel | None = None, director: tl.Director | None = None,
                 size=(1280, 720), title: str = "", subtitle: str = "", mode: str = "watch", seed: int = 0,
                 hud: bool = True, legend: bool = True):
        self.world = world
        self.grid = world.grid
        self.model = model or ViewModel()
        self.director = director or tl.Director(self.model, title=title, subtitle=subtitle)
        self.title = title
        self.subtitle = subtitle
        self.mode = mode
        self.seed = int(seed)
        self.show_hud = hud
        self.show_legend = legend
        self.text = Text()
        self.sprites = Sprites(self.text)
        self.hudder = Hud(self)
        self.cave = CaveLayers(self.grid, self.text)
        self.particles = ParticleSystem(seed=self.seed, rock=self.grid.rock, band=self.passage_band)
        self.camera = Camera()
        self.overlays: dict = {"size": None, "creature": False, "reach": False, "contours": False}
        self.selected: str | None = None
        self.weapon_choice: str | None = None
        self.spell_choice: str | None = None   # play: the spell a click casts (X), None for weapons
        self.maneuver_choice: str | None = None   # play: grapple, trip, bull rush or pin on a click (G)
        self.area_preview: list[Pos] = []      # play: the squares the chosen spell would fill
        self.hover: Pos | None = None
        self.preview = None
        self.toast_text = ""
        self.toast_until = -1.0
        self.toast_kind = "info"         # "info" (neutral) or "error" (a refusal, a failure: drawn in red)
        self._draw_failures: set[str] = set()   # messages that could not be drawn, reported once each
        self.clock = 0.0                 # real time (steps), for ambient motion
        self.hp_shown: dict[str, float] = {}
        self.autoplay = True
        self.awaiting_input = False      # play: the acting creature waits for the user
        self.prompt = None               # play: a question over the map (view.table.Prompt): a die, the DM's hand
        self.aim = None                  # play: an area spell aimed, waiting for a second click or Enter
        self.paused = False              # play: Space; the turns of creatures nobody controls wait
        self.hit_lines: list[str] = []   # play: the chance to hit the enemy under the cursor (render.tablehud)
        self.ready_text = ""             # play: what a click does now (the weapon or spell chosen, an aim)
        self.resume_speed = 1.0          # the speed to go back to after a pause
        self._snap = True
        self._dispersed: set[str] = set()
        self.fit_ts = 0
        self.auto_camera = mode == "watch"
        self.fit_whole_map = False       # fit() frames the floor (a fight); True: every square of the map (a bare map)
        self.crisp_map = False           # paint the cave at every zoom instead of resizing one painting
        self.camera_glide = 0.9          # seconds a camera move takes (0: cut; exports cut, it keeps GIFs small)
        self.cut_fades = False           # cards fade in and out (True: they cut; exports cut, as for the camera)
        self.steady_flames = False       # torches flicker (True: they burn steady; a GIF export's flicker rewrote the lit area every frame)
        self.steady_clock = False        # clocks run every frame (True: they tick once a screen second, as in a GIF export)
        self.steady_log = False          # the log starts below the acting card (True: no higher than before; a GIF export's log shifted at every turn)
        self._cam_target = None
        self._cam_move = None            # the camera's glide under way: (from, to, start clock)
        self._zoom_f = None
        self.frames = 0
        self.bars: dict = {}             # hp bar images
        self.lighting = None             # a render.lighting.Lighting: light and fog of war (issue 16)
        self.tokens = Tokens(model=self.model, director=self.director, camera=self.camera, sprites=self.sprites,
                             text=self.text, grid=self.grid, hp_shown=self.hp_shown, bars=self.bars,
                             centre=self.token_centre, armour=self._armour_state, obstacles=self.label_obstacles)
        self.effects = Effects(model=self.model, director=self.director, camera=self.camera, sprites=self.sprites,
                               text=self.text, grid=self.grid, centre=self.token_centre)
        self.resize(size)

    def resize(self, size) -> None:
        w, h = int(size[0]), int(size[1])
        self.size = (w, h)
        if self.show_hud:
            panel_w = max(280, min(380, int(w * 0.27)))
            top, bottom = 34, self.hudder.bar_height(self.mode, w)   # play: its key help and the square readout
            self.r_top = pygame.Rect(0, 0, w, top)
            self.r_panel = pygame.Rect(w - panel_w, top, panel_w, h - top - bottom)
            self.r_bottom = pygame.Rect(0, h - bottom, w, bottom)
            self.r_view = pygame.Rect(0, top, w - panel_w, h - top - bottom)
        else:
            self.r_top = self.r_panel = self.r_bottom = pygame.Rect(0, 0, 0, 0)
            self.r_view = pygame.Rect(0, 0, w, h)
        self.camera.view = tuple(self.r_view)
        self.fit()

    def fit(self) -> None:
        """Zoom to show every open square of the cave, centred on them (a fight: the rock around
        the floor may fall outside the view); with ``fit_whole_map`` (a bare map, where the map
        itself is what is looked at) every square of the map, its rock border too, centred on it."""
        g = self.grid
        ys, xs = np.nonzero(~g.rock)
        box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1) if len(xs) else None
        self.camera.fit(cols=g.cols, rows=g.rows, margin=0.6, box=None if self.fit_whole_map else box)
        self.fit_ts = self.camera.ts
        self._floor_box = box or (0, 0, g.cols, g.rows)
        self._cam_target = None
        self._zoom_f = float(self.camera.ts)

    def _frame_points(self) -> list | None:
        """The squares the director's camera keeps in view: the creatures still fighting; None
        for the whole cave (the cards, before the first round). Views built on this one (the
        crawl) frame other things."""
        m = self.model
        if any(a.kind in (tl.TITLE, tl.END) for a in self.director.anims) or not m.round:
            return None
        return [sq for cv in m.creatures.values() if cv.alive and not cv.down for sq in cv.squares] or None

    def _auto_frame(self, dt: float) -> None:
        """The director's camera (watch mode): frame the creatures still fighting, easing, with a
        dead zone so the view moves only when the action leaves it; the whole cave for the cards."""
        cam = self.camera
        pts = self._frame_points()
        vx, vy, vw, vh = cam.view
        if pts is None:
            fx0, fy0, fx1, fy1 = self._floor_box
            target = ((fx0 + fx1) / 2, (fy0 + fy1) / 2, float(self.fit_ts))
        else:
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            pad = 3.5
            x0, x1, y0, y1 = min(xs) - pad, max(xs) + 1 + pad, min(ys) - pad, max(ys) + 1 + pad
            w = max(x1 - x0, 24.0)
            h = max(y1 - y0, 24.0 * vh / vw)
            ts = max(float(self.fit_ts), min(2.0 * self.fit_ts, 44.0, vw / w, vh / h))
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            last = self._cam_target
            if self.camera_glide <= 0 and last is not None and abs(ts - last[2]) < 1.0:
                # a cut (exports): lead the way the action goes, so the next cut comes later
                # (every cut rewrites the whole frame of a GIF)
                lx, ly = cx + (cx - last[0]), cy + (cy - last[1])
                hw, hh = vw / ts / 2 - 1.0, vh / ts / 2 - 1.0
                if min(xs) >= lx - hw and max(xs) + 1 <= lx + hw and min(ys) >= ly - hh and max(ys) + 1 <= ly + hh:
                    cx, cy = lx, ly   # only while everyone framed stays in the view
            # keep the view over the cave where it can
            fx0, fy0, fx1, fy1 = self._floor_box
            half_w, half_h = vw / ts / 2, vh / ts / 2
            cx = min(max(cx, fx0 - 0.5 + half_w), fx1 + 0.5 - half_w) if fx1 - fx0 + 1 > 2 * half_w else (fx0 + fx1) / 2
            cy = min(max(cy, fy0 - 0.5 + half_h), fy1 + 0.5 - half_h) if fy1 - fy0 + 1 > 2 * half_h else (fy0 + fy1) / 2
            target = (cx, cy, ts)
            cur = self._cam_target
            if cur is not None:
                # dead zone: keep the current framing while everyone is well inside it
                chw, chh = vw / cur[2] / 2 - 1.5, vh / cur[2] / 2 - 1.5
                inside = (min(xs) >= cur[0] - chw and max(xs) + 1 <= cur[0] + chw and min(ys) >= cur[1] - chh
                          and max(ys) + 1 <= cur[1] + chh)
                if inside and target[2] <= cur[2] + 3:
                    target = cur
        if self._zoom_f is None:
            self._zoom_f = float(cam.ts)
        if target != self._cam_target:
            # a new framing: one smooth move there (a fixed time, so the view is still most of the time)
            self._cam_move = ((cam.cx, cam.cy, self._zoom_f), target, self.clock)
            self._cam_target = target
        move = self._cam_move
        if move is not None:
            (x0, y0, z0), (x1, y1, z1), t0 = move
            q = easing.ease_in_out_cubic((self.clock - t0) / self.camera_glide) if self.camera_glide > 0 else 1.0
            cam.cx, cam.cy = x0 + (x1 - x0) * q, y0 + (y1 - y0) * q
            self._zoom_f = z0 + (z1 - z0) * q
            cam.ts = int(round(self._zoom_f))
            if q >= 1.0:
                self._cam_move = None

    def feed(self, events: Iterable[ev.Event]) -> None:
        self.director.feed(events)

    def jump(self, events: Iterable[ev.Event]) -> None:
        """Apply events with no animation (replay stepping); particles snap into place."""
        self.director.apply_instant(events)
        self._snap = True

    def reset_view(self) -> None:
        """Forget everything shown (the view model, the animations, the swarms' particles, the hp
        bars), to apply the events again from the first (a replay stepped back, an undo)."""
        self.model.reset()
        self.director.forget()
        self.particles = ParticleSystem(seed=self.seed, rock=self.grid.rock, band=self.passage_band)
        self._dispersed.clear()
        self.hp_shown.clear()

    def restart_view(self, t: float) -> None:
        """Forget everything shown and start the director again at screen time ``t`` (a crawl
        shown from a point of its journey): the view model empty, no animation, new particles,
        the hp bars forgotten, the swarms snapping into place and the camera choosing anew."""
        self.model.reset()
        self.director.rewind(t)
        self.particles = ParticleSystem(seed=self.seed, rock=self.grid.rock, band=self.passage_band)
        self._dispersed.clear()
        self.hp_shown.clear()
        self._snap = True
        self._cam_target = None

    def show_live(self, world: World) -> None:
        """Put another live fight behind the view (a saved game loaded, a step undone): what is
        shown is forgotten (:meth:`reset_view`), the map composite is built anew and the choices
        of the turn under way (a preview, a spell aimed, a question asked) are dropped."""
        self.world = world
        self.reset_view()
        self.cave.forget_composite()
        self.preview = None
        self.area_preview = []
        self.spell_choice = None
        self.aim = None
        self.prompt = None

    def map_layer(self, ts: int) -> pygame.Surface:
        """The painted cave at ``ts`` pixels per square (:meth:`CaveLayers.map_layer`)."""
        return self.cave.map_layer(ts, fit_ts=self.fit_ts, crisp=self.crisp_map)

    def composite(self) -> pygame.Surface:
        """The cave at the camera's zoom with the overlays switched on baked in (views built on
        this one draw their own marks over it)."""
        on = Overlaid(overlays=self.overlays, selected=self.selected_id(), model=self.model, world=self.world)
        return self.cave.composite(self.camera.ts, on, fit_ts=self.fit_ts, crisp=self.crisp_map)

    def passage_band(self, square: Pos):
        """For a passage narrower than a square: (axis in degrees, its width as a fraction of the
        square), so swarm particles keep to the channel drawn there; else None."""
        x, y = square
        g = self.grid
        if not g.in_bounds(square) or g.rock[y, x]:
            return None
        w = float(g.width_ft[y, x])
        if w >= 5.0:
            return None
        return (portray.passage_angle(g.rock, square), w / 5.0)

    def update(self, dt: float) -> None:
        self.clock += dt
        self.director.update(dt)
        self.director.drain_started()
        self._sync_particles()
        self.particles.step(dt)
        if self.auto_camera:
            self._auto_frame(dt)
        for cid, cv in self.model.creatures.items():
            cur = self.hp_shown.get(cid)
            f = cv.hp_fraction
            if cur is None or self._snap:
                self.hp_shown[cid] = f
            elif abs(cur - f) > 1e-3:
                self.hp_shown[cid] = cur + (f - cur) * min(1.0, 4.0 * dt) if cur > f else f
            else:
                self.hp_shown[cid] = f
        self._snap = False
        self.frames += 1

    def _sync_particles(self) -> None:
        ps = self.particles
        for cid, cv in self.model.creatures.items():
            if not cv.swarm:
                continue
            if cid not in ps.clouds:
                if cv.alive and cid not in self._dispersed and cv.squares:
                    kind = portray.swarm_kind(cv.template, cv.component)
                    ps.add(cid, kind, cv.squares)
                continue
            if not cv.alive:
                if cid not in self._dispersed:
                    self._dispersed.add(cid)
                    if self._snap:
                        ps.remove(cid)
                    else:
                        ps.disperse(cid)
                continue
            cl = ps.clouds[cid]
            if list(cl.squares) != list(cv.squares):
                ps.set_shape(cid, cv.squares, snap=self._snap)
            ps.set_strength(cid, cv.hp_fraction)
            if self._snap:
                cl.visible = cl.strength

    # -- what the scene says of itself (the HUD, the window, the table) ---------------------------------------
    def selected_id(self) -> str | None:
        """The creature the panel is about: the one selected, else the one acting."""
        if self.selected and self.selected in self.model.creatures:
            return self.selected
        return self.model.current

    def status_text(self) -> str:
        """The top bar's state: finished, paused, whose move, auto-play or stepping; the speed."""
        d = self.director
        if self.model.finished and d.idle():
            state = "finished"
        elif d.speed == 0:
            state = "paused"
        elif self.mode == "play" and not self.autoplay:
            state = ("a die to type" if getattr(self, "prompt", None) is not None and self.prompt.kind == "dice"
                     else "your move" if self.awaiting_input else "paused (Space)" if getattr(self, "paused", False)
                     else "playing")
        else:
            state = "auto" if self.autoplay else "stepping"
        return f"{state}  ·  {self.speed_label()}"

    def speed_label(self) -> str:
        """The speed the fight plays at (the one to go back to, when paused)."""
        s = self.director.speed or self.resume_speed
        return f"{s:g}x"

    def toast(self, text: str, seconds: float = 2.5, kind: str = "info") -> None:
        """A short message over the map for ``seconds``: ``kind`` "info" (what happened, what a key
        chose) is drawn in the interface's neutral colours, "error" (a refusal, a failure) in red."""
        if kind not in ("info", "error"):
            raise ValueError(f"toast kind {kind!r}: give 'info' or 'error'")
        self.toast_text = text
        self.toast_until = self.clock + seconds
        self.toast_kind = kind

    def _message(self, draw, *args) -> bool:
        """Draw a message (a toast, a caption, a card) with ``draw(*args)``; a failure to draw it
        (a font gone, a surface pygame refuses) is reported once on stderr and the frame goes on
        without it: a message never ends the window, and the unsaved fight with it. False if it
        failed."""
        try:
            draw(*args)
            return True
        except Exception as exc:  # noqa: BLE001 -- any failure: the window (and the fight) matters more
            what = f"{type(exc).__name__}: {exc}"
            if what not in self._draw_failures and len(self._draw_failures) < 100:
                self._draw_failures.add(what)
                print(f"cavesim: warning: a message could not be drawn ({what}); the window goes on without it",
                      file=sys.stderr)
            return False

    def draw(self, surf: pygame.Surface, alpha: float = 1.0) -> None:
        t = self.director.time_at(alpha)
        view = self.r_view
        surf.fill((8, 8, 10), view)
        cam = self.camera
        comp = self.composite()
        ox, oy = cam.origin()
        surf.set_clip(view)
        surf.blit(comp, (ox, oy))
        anims = self.director.active(t)
        if self.lighting is None:
            self.tokens.draw_lights(surf, t)
        else:
            self.lighting.underlay(surf, self)
            hidden = self.lighting.hidden  # what the shown side does not perceive makes no show either
            if hidden:
                anims = [a for a in anims if (a.actor or a.target) not in hidden]
        self.effects.draw_ground(surf, anims, t)
        stage = self._stage()
        self.tokens.draw_hazes(surf, stage)
        self._draw_tokens(surf, anims, t)
        hidden = self.lighting.hidden if self.lighting is not None else ()
        draw_particles(surf, self.particles.render_lists(alpha, hidden), cam, view)
        if self.lighting is not None:
            self.lighting.draw(surf, self, t)
        self.tokens.draw_swarm_labels(surf, stage)
        self.effects.draw(surf, anims, t)
        self.effects.draw_preview(surf, self.preview, self.area_preview, self.hover, self.mode)
        if self.show_legend and not (self.show_hud and self.hudder.legend_in_panel):   # with a panel, it holds the legend
            self.hudder.legend(surf, view)
        self._draw_cards(surf, anims, t)
        surf.set_clip(None)
        if self.show_hud:
            self.hudder.topbar(surf, self.r_top)
            self.hudder.panel(surf, self.r_panel)
            self.hudder.bottombar(surf, self.r_bottom)

    def _stage(self) -> Stage:
        return Stage(world=self.world, lighting=self.lighting, particles=self.particles, clock=self.clock,
                     selected=self.selected, ring=self.selected_id() if self.selected else None, view=self.r_view)

    # -- what a view built on this one may change (the crawl's) --------------------------------------------
    def token_centre(self, cid: str, t: float) -> tuple[float, float]:
        """Centre of a creature's token in squares at time ``t`` (movement, lunges, shakes)."""
        return self.tokens.centre_at(cid, t)

    def _armour_state(self, cv, t: float) -> tuple[str, float]:
        """Where ``cv``'s armour is at time ``t`` (in a fight: from the armour events)."""
        return armour_state(cv)

    def label_obstacles(self) -> list:
        """Screen rectangles that token labels keep off besides the tokens (a view's own marks)."""
        return []

    def _draw_tokens(self, surf, anims, t) -> None:
        """The creatures' tokens (:meth:`Tokens.draw`)."""
        self.tokens.draw(surf, anims, t, self._stage())

    def _px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.camera.to_screen(x, y)
        return (int(round(sx)), int(round(sy)))

    def _draw_cards(self, surf, anims, t) -> None:
        view = self.r_view
        for a in anims:
            p = a.progress(t)
            if a.kind == tl.BANNER:
                self._message(self.hudder.banner, surf, view, a.data.get("text", ""), p)
        ended = [a for a in anims if a.kind == tl.END]
        if ended:
            a = ended[-1]
            self._message(self.hudder.end_card, surf, view, a, a.progress(t))
        else:
            cap = self._caption()
            if cap:
                self._message(self.hudder.caption, surf, view, cap)
        for a in anims:
            if a.kind == tl.TITLE:
                self._message(self.hudder.title_card, surf, view, a, a.progress(t))
        if self.toast_text and self.clock < self.toast_until:
            left = self.toast_until - self.clock
            if not self._message(self.hudder.toast, surf, view, self.toast_text, min(1.0, left / 0.4), self.toast_kind):
                self.toast_text = ""     # dropped: not tried again at every frame
        tablehud.overlay(self, surf, view)

    def _caption(self) -> str:
        for line in reversed(self.model.log[-12:]):
            if line.kind in ("moved", "attack", "engulf", "spell", "item", "splash", "check") and not line.text.startswith("  "):
                return line.text.strip()
        return ""
