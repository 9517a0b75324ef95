"""The scene: one frame of the renderer, composed from the view model, the director's
animations, the swarm particles and the engine's answers (through :class:`World`).

``update(dt)`` is one fixed step (director clock, particles, hp bars); ``draw(surface, alpha)``
draws the frame ``alpha`` of the way between the last two steps. Drawing never changes state.
The static cave is painted once per zoom and cached; overlays are baked into a cached copy of
it, rebuilt only when they change, so a frame is one map blit plus the moving things.
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np
import pygame

from sim import events as ev
from sim.render import art, easing, palette, portray
from sim.render import timeline as tl
from sim.render.camera import Camera
from sim.render.draw import Sprites, dashed_ring, draw_particles, flame
from sim.render.hud import SIZE_NAMES, Hud, hp_bar
from sim.render.model import ViewModel
from sim.render.particles import ParticleSystem
from sim.render.text import Text
from sim.render.world import World
from sim.rules.categories import Category

Pos = tuple[int, int]
TONE_RGB = {"damage": palette.DAMAGE_TEXT, "swarm": palette.SWARM_TEXT, "fire": (255, 170, 60),
            "heal": palette.HEAL_TEXT, "miss": palette.MISS_TEXT, "good": (170, 235, 170), "bad": (255, 150, 130),
            "magic": palette.MAGIC, "crit": palette.CRIT_TEXT, "": palette.UI_TEXT}


class Scene:
    """Everything on screen. ``mode`` is watch (demo, render), replay or play."""

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
        self.particles = ParticleSystem(seed=self.seed, rock=self.grid.rock, band=self.passage_band)
        self.camera = Camera()
        self.overlays: dict = {"size": None, "creature": False, "reach": False, "contours": False}
        self.selected: str | None = None
        self.weapon_choice: str | None = None
        self.spell_choice: str | None = None   # play: the spell a click casts (X), None for weapons
        self.area_preview: list[Pos] = []      # play: the squares the chosen spell would fill
        self.hover: Pos | None = None
        self.preview = None
        self.toast_text = ""
        self.toast_until = -1.0
        self.clock = 0.0                 # real time (steps), for ambient motion
        self.hp_shown: dict[str, float] = {}
        self.autoplay = True
        self.awaiting_input = False      # play: the acting creature waits for the user
        self.resume_speed = 1.0          # the speed to go back to after a pause
        self._snap = True
        self._dispersed: set[str] = set()
        self._maps: dict[int, pygame.Surface] = {}
        self._painted: dict[int, pygame.Surface] = {}
        self._base_ts = None
        self.fit_ts = 0
        self.auto_camera = mode == "watch"
        self.crisp_map = False           # paint the cave at every zoom instead of resizing one painting
        self.camera_glide = 0.9          # seconds a camera move takes (0: cut; exports cut, it keeps GIFs small)
        self._cam_target = None
        self._zoom_f = None
        self._comp: pygame.Surface | None = None
        self._comp_key = None
        self._ov_cache: dict = {}
        self.frames = 0
        self._looks: dict = {}
        self._labels: list = []
        self._hazes: dict = {}
        self.bars: dict = {}             # hp bar images
        self._haze_origin: dict = {}
        self._index_key = None
        self._index: dict = {}
        self.lighting = None             # a render.lighting.Lighting: light and fog of war (issue 16)
        self.resize(size)

    # -- layout -------------------------------------------------------------------------------------------
    def resize(self, size) -> None:
        w, h = int(size[0]), int(size[1])
        self.size = (w, h)
        if self.show_hud:
            panel_w = max(280, min(380, int(w * 0.27)))
            top, bottom = 34, (42 if self.mode == "play" else 24)  # play: two lines of key help
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
        """Zoom to show every open square of the cave."""
        g = self.grid
        ys, xs = np.nonzero(~g.rock)
        box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1) if len(xs) else None
        self.camera.fit(cols=g.cols, rows=g.rows, margin=0.6, box=box)
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
        move = getattr(self, "_cam_move", None)
        if move is not None:
            (x0, y0, z0), (x1, y1, z1), t0 = move
            q = easing.ease_in_out_cubic((self.clock - t0) / self.camera_glide) if self.camera_glide > 0 else 1.0
            cam.cx, cam.cy = x0 + (x1 - x0) * q, y0 + (y1 - y0) * q
            self._zoom_f = z0 + (z1 - z0) * q
            cam.ts = int(round(self._zoom_f))
            if q >= 1.0:
                self._cam_move = None

    # -- feeding ---------------------------------------------------------------------------------------------
    def feed(self, events: Iterable[ev.Event]) -> None:
        self.director.feed(events)

    def jump(self, events: Iterable[ev.Event]) -> None:
        """Apply events with no animation (replay stepping); particles snap into place."""
        self.director.apply_instant(events)
        self._snap = True

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

    # -- stepping -----------------------------------------------------------------------------------------------
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

    # -- questions the HUD asks -------------------------------------------------------------------------------------
    def selected_id(self) -> str | None:
        if self.selected and self.selected in self.model.creatures:
            return self.selected
        return self.model.current

    def turn_key(self):
        enc = self.world.enc
        t = getattr(enc, "turn", None) if self.world.live else None
        return (t.actor, t.standard, t.move, t.moved) if t is not None else None

    def status_text(self) -> str:
        d = self.director
        if self.model.finished and d.idle():
            state = "finished"
        elif d.speed == 0:
            state = "paused"
        elif self.mode == "play" and not self.autoplay:
            state = "your move" if self.awaiting_input else ("Space: AI turn" if d.idle() else "playing")
        else:
            state = "auto" if self.autoplay else "stepping"
        return f"{state}  ·  {self.speed_label()}"

    def speed_label(self) -> str:
        s = self.director.speed or self.resume_speed
        return f"{s:g}x"

    def creature_summary(self, cid: str) -> dict:
        cv = self.model.get(cid)
        self.world.sync(self.model)
        c = self.world.creature(cid)
        out: dict = {"lines": []}
        if cv is None:
            return out
        size = cv.size.title()
        if cv.swarm:
            out["what"] = f"{size} swarm  ·  {cv.team}"
        else:
            out["what"] = f"{size} {cv.template.replace('-', ' ')}  ·  {cv.team}"
        lines = []
        if c is not None:
            b = c.block
            lines.append(f"AC {b.ac} (touch {b.touch_ac}, flat-footed {b.flat_footed_ac})  ·  speed {cv.speed} ft"
                         + (f"  ·  init {cv.initiative}" if cv.initiative is not None else ""))
            if cv.swarm and b.swarm is not None:
                lines.append(f"{b.swarm.count:,} {b.swarm.component.key} creatures; shares squares; "
                             "pours through any crack one of them fits")
            else:
                weapon = self.weapon_choice if (self.mode == "play" and self.weapon_choice and cid == self.model.current) \
                    else cv.wielding
                w = f"In hand: {cv.wielding or '-'}" + ("  (torch lit)" if cv.torch_lit and cv.wielding != "torch" else "")
                if self.mode == "play" and weapon != cv.wielding:
                    w += f"  ·  chosen (W): {weapon}"
                if self.mode == "play" and self.spell_choice and cid == self.model.current:
                    w += f"  ·  casting (X): {self.spell_choice.replace('-', ' ')}"
                lines.append(w)
                if self.mode == "play":  # the live creature: what is loaded, what is left to throw
                    gear = [f"{k.replace('-', ' ')} empty (O loads)" for k in sorted(getattr(c, "unloaded", ()))]
                    gear += [f"{n} {k.replace('-', ' ')}{'s' if n != 1 else ''} to throw"
                             for k, n in sorted(getattr(c, "thrown_left", {}).items())]
                    if gear:
                        lines.append("  ·  ".join(gear))
        conds = [portray.BADGE_NAMES.get(k, k) for k in sorted(cv.conditions) if k not in ("flat_footed",)]
        if cv.prone and "prone" not in cv.conditions:
            conds.append("prone")
        if conds:
            lines.append("Conditions: " + ", ".join(conds))
        t = self.turn_key()
        if t is not None and t[0] == cid:
            left = [n for n, ok in (("standard", t[1]), ("move", t[2])) if ok]
            lines.append("Actions left: " + (", ".join(left) if left else "none"))
        out["lines"] = lines
        if c is not None and c.squares and cv.alive:
            if cv.swarm:
                out["category"] = int(Category.CLEAR)
                out["category_words"] = "Clear: a swarm never suffers constricted-space penalties (§7.25)"
            else:
                out["category"] = int(self.world.standing(cid))
        return out

    def teams_summary(self) -> list[tuple[str, str]]:
        out = []
        for team in self.model.teams:
            members = [cv for cv in self.model.creatures.values() if cv.team == team]
            counts: dict[str, list] = {}
            for cv in members:
                counts.setdefault(cv.name, []).append(cv)
            parts = []
            for name, group in counts.items():
                if len(group) == 1:
                    cv = group[0]
                    what = "swarm" if cv.swarm else cv.template.replace("-", " ")
                    parts.append(f"{cv.label} ({what})" if cv.label.lower() != what else cv.label)
                else:
                    parts.append(f"{len(group)} {name.lower()}s")
            out.append((team, ", ".join(parts)))
        return out

    def category_overlay_name(self) -> str | None:
        if self.overlays.get("size") is not None:
            return SIZE_NAMES[self.overlays["size"]]
        if self.overlays.get("creature") and self.selected_id():
            return self.model.label(self.selected_id())
        return None

    def toast(self, text: str, seconds: float = 2.5) -> None:
        self.toast_text = text
        self.toast_until = self.clock + seconds

    # -- the map layer and overlays ------------------------------------------------------------------------------------
    def map_layer(self, ts: int) -> pygame.Surface:
        """The painted cave at ``ts`` pixels per square: painted exactly at the fitted zoom, else
        scaled from one high-resolution painting (so zooming costs a resize, not a repaint)."""
        s = self._maps.get(ts)
        if s is not None:
            return s
        g = self.grid
        if self._base_ts is None:
            budget = 12_000_000
            self._base_ts = max(4, min(40, int(math.sqrt(budget / max(1, g.cols * g.rows)))))
        if ts == self.fit_ts or ts == self._base_ts or ts <= 8 or self.crisp_map:
            s = self._paint(ts)
        else:
            base = self._painted.get(self._base_ts) or self._paint(self._base_ts)
            s = pygame.transform.smoothscale(base, (g.cols * ts, g.rows * ts))
        if len(self._maps) > 8:
            for k in list(self._maps):
                if k not in (ts, self._base_ts, self.fit_ts):
                    del self._maps[k]
                    break
        self._maps[ts] = s
        return s

    def _paint(self, ts: int) -> pygame.Surface:
        s = self._painted.get(ts)
        if s is None:
            img = art.paint_cave(self.grid, ts)
            s = pygame.image.frombuffer(np.ascontiguousarray(img).tobytes(), (img.shape[1], img.shape[0]), "RGB")
            if pygame.display.get_surface() is not None:
                s = s.convert()
            self._painted[ts] = s
        return s

    def _overlay_key(self):
        ov = self.overlays
        cid = self.selected_id()
        parts = [("size", ov["size"])] if ov.get("size") is not None else []
        cv = self.model.get(cid)
        if cv is not None and cv.alive:
            version = len(self.world.enc.events) if self.world.live else self.model.version
            if ov.get("creature") and ov.get("size") is None:
                parts.append(("creature", cv.template, cv.swarm, cv.armor_off))
            if ov.get("reach"):
                parts.append(("reach", cid, cv.pos, cv.prone, version))
            if ov.get("contours"):
                parts.append(("contours", cid, cv.pos, cv.prone, version))
        return tuple(parts)

    def composite(self) -> pygame.Surface:
        ts = self.camera.ts
        key = (ts, self._overlay_key())
        if self._comp is not None and key == self._comp_key:
            return self._comp
        base = self.map_layer(ts)
        if not key[1]:
            self._comp, self._comp_key = base, key
            return base
        comp = base.copy()
        self.world.sync(self.model)
        for part in key[1]:
            s = self._overlay_surface(part, ts)
            if s is not None:
                comp.blit(s, (0, 0))
        self._comp, self._comp_key = comp, key
        return comp

    def _overlay_surface(self, part, ts: int) -> pygame.Surface | None:
        kind = part[0]
        g = self.grid
        if kind in ("size", "creature"):
            ck = (part, ts)
            s = self._ov_cache.get(ck)
            if s is None:
                cats = (self.world.size_categories(part[1]) if kind == "size"
                        else self.world.creature_categories(self.selected_id()))
                img = art.category_rgba(cats, g.rock, ts)
                s = _rgba_surface(img)
                if len(self._ov_cache) > 24:
                    self._ov_cache.clear()
                self._ov_cache[ck] = s
            return s
        cid = part[1]
        if kind == "reach":
            r = self.world.reach(cid)
            if r is None:
                return None
            rgba = np.zeros((g.rows, g.cols, 4), dtype=np.uint8)
            for rows, rgb, a in ((r.double, palette.REACH_DOUBLE, 44), (r.single, palette.REACH_SINGLE, 96)):
                if len(rows):
                    rgba[rows[:, 1], rows[:, 0]] = (*rgb, a)
            img = np.kron(rgba, np.ones((ts, ts, 1), dtype=np.uint8))
            for rows, rgb in ((r.double, palette.REACH_DOUBLE), (r.single, palette.REACH_SINGLE)):
                m = np.zeros((g.rows, g.cols), dtype=bool)
                if len(rows):
                    m[rows[:, 1], rows[:, 0]] = True
                _outline(img, m, ts, (*rgb, 230), 2)
            s = _rgba_surface(img)
            for x, y, dc, p in r.checks:
                t = self.text.render(f"DC{dc}", max(10, ts // 2), (255, 255, 255), outline=(0, 0, 0))
                s.blit(t, (x * ts + ts // 2 - t.get_width() // 2, y * ts + ts // 2 - t.get_height() // 2))
            return s
        if kind == "contours":
            d = self.world.travel(cid)
            if d is None:
                return None
            rounds = np.where(d.rounds >= 0, d.rounds, -1)
            img = np.zeros((g.rows * ts, g.cols * ts, 4), dtype=np.uint8)
            levels = sorted(set(int(v) for v in np.unique(rounds) if v >= 1))
            for lv in levels[:40]:
                m = (rounds >= 0) & (rounds <= lv)
                _outline(img, m, ts, (*palette.CONTOUR, 150 if lv % 5 else 230), 1 if lv % 5 else 2)
            s = _rgba_surface(img)
            placed: list[tuple[int, int]] = []
            for lv in levels[:40]:
                ys, xs = np.nonzero(rounds == lv)
                for x, y in zip(xs.tolist(), ys.tolist()):
                    if all(abs(x - a) + abs(y - b) > 7 for a, b in placed):
                        placed.append((x, y))
                        t = self.text.render(str(lv), max(10, int(ts * 0.6)), (255, 255, 255), outline=(0, 0, 0))
                        s.blit(t, (x * ts + ts // 2 - t.get_width() // 2, y * ts + ts // 2 - t.get_height() // 2))
                        break
            return s
        return None

    # -- where things are drawn -------------------------------------------------------------------------------------------------
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

    def token_centre(self, cid: str, t: float) -> tuple[float, float]:
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

    # -- drawing --------------------------------------------------------------------------------------------------------------
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
            self._draw_lights(surf, t)
        else:
            self.lighting.underlay(surf, self)
        self._draw_ground_effects(surf, anims, t)
        self._draw_swarm_hazes(surf)
        self._draw_tokens(surf, anims, t)
        draw_particles(surf, self.particles.render_lists(alpha), cam, view)
        if self.lighting is not None:
            self.lighting.draw(surf, self, t)
        self._draw_swarm_labels(surf)
        self._draw_effects(surf, anims, t)
        self._draw_preview(surf)
        if self.show_legend:
            self.hudder.legend(surf, view)
        self._draw_cards(surf, anims, t)
        surf.set_clip(None)
        if self.show_hud:
            self.hudder.topbar(surf, self.r_top)
            self.hudder.panel(surf, self.r_panel)
            self.hudder.bottombar(surf, self.r_bottom)

    def _px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.camera.to_screen(x, y)
        return (int(round(sx)), int(round(sy)))

    def _draw_lights(self, surf, t) -> None:
        ts = self.camera.ts
        for cid, cv in self.model.creatures.items():
            if not cv.torch_lit or not cv.alive or cv.down:
                continue
            x, y = self.token_centre(cid, t)
            r = int(ts * 3.2)   # a steady pool of light (the flame flickers)
            g = self.sprites.glow(r, palette.TORCH_LIGHT, 0.2)
            sx, sy = self._px(x, y)
            surf.blit(g, (sx - r, sy - r), special_flags=pygame.BLEND_RGB_ADD)

    def _draw_swarm_hazes(self, surf) -> None:
        """The shadow under each swarm cloud and the outline of its squares: one cached image per
        swarm shape."""
        ts = self.camera.ts
        for cl in self.particles.clouds.values():
            if cl.scatter_t >= 0:
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
                _square_outline(img, cl.squares, local, rgb)
                if pygame.display.get_surface() is not None:
                    img = img.convert_alpha()
                if len(self._hazes) > 200:
                    self._hazes.clear()
                self._hazes[key] = img
                self._haze_origin[key] = (x0, y0)
            x0, y0 = self._haze_origin[key]
            surf.blit(img, self._px(x0, y0))

    def _pose(self, cv):
        g = self.grid
        if cv.swarm:
            return None, portray.Pose("upright")
        self.world.sync(self.model)
        cat = self.world.standing(cv.id) if cv.alive else Category.CLEAR
        x, y = cv.pos
        if not g.in_bounds((x, y)):
            x, y = cv.squares[0]
        c = self.world.creature(cv.id)
        body = c.block.body if c is not None else None
        widths = [float(g.width_ft[sy, sx]) for sx, sy in cv.squares if g.in_bounds((sx, sy))] or [30.0]
        heights = [float(g.height_ft[sy, sx]) for sx, sy in cv.squares if g.in_bounds((sx, sy))] or [30.0]
        pose = portray.pose_for(cv, category=cat, rock=g.rock, width_ft=min(widths), height_ft=min(heights),
                                body_height=body.height if body else 6.0, space_ft=body.space if body else 5.0)
        return cat, pose

    def _look(self, cv):
        """What a token looks like now (cached until the view changes): category, pose, sprite,
        radius, badges, label."""
        key = (self.camera.ts, tuple(cv.squares), cv.pos, cv.prone, frozenset(cv.conditions), cv.facing, cv.team)
        cached = self._looks.get(cv.id)
        look = cached[1] if cached is not None and cached[0] == key else None
        if look is None:
            ts = self.camera.ts
            cat, pose = self._pose(cv)
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

    def _draw_tokens(self, surf, anims, t) -> None:
        ts = self.camera.ts
        m = self.model
        order = sorted((cv for cv in m.creatures.values() if not cv.swarm),
                       key=lambda cv: (cv.alive and not cv.down, cv.squares[0][1] if cv.squares else 0))
        dying = {a.target: a for a in anims if a.kind == tl.DEATH}
        flashes = {a.target: a for a in anims if a.kind == tl.FLASH}
        badge_pop = {(a.target, a.data.get("condition")): a for a in anims if a.kind == tl.BADGE}
        moving = {a.actor for a in anims if a.kind == tl.MOVE and a.t0 <= t < a.end}
        current = m.current if not m.finished else None
        sel = self.selected_id() if self.selected else None
        self._labels: list = []
        for cv in order:
            if "dead" in cv.conditions and cv.id not in dying and not cv.squares:
                continue
            if self.lighting is not None and not self.lighting.shows(cv.id):
                continue
            look = self._look(cv)
            pose, r, spr = look["pose"], look["r"], look["sprite"]
            if cv.id in moving and pose.kind in ("squeezed", "line"):
                # in transit: a line creature moves as a disc; a squeezed one keeps pressing on
                if pose.kind == "line":
                    pose = portray.Pose("upright")
                    r = portray.token_radius(cv) * ts
                    spr = self.sprites.token(rgb=look["rgb"], glyph=look["glyph"], radius=r, pose=pose)
            x, y = self.token_centre(cv.id, t)
            sx, sy = self._px(x, y)
            if cv.id == current:
                pulse = 0.5 + 0.5 * math.sin(self.clock * 5)
                pygame.draw.circle(surf, palette.UI_ACCENT, (sx, sy), int(r + 3 + 2 * pulse), 2)
            if sel == cv.id and cv.id != current:
                dashed_ring(surf, (255, 255, 255), (sx, sy), r + 4, width=2, phase=self.clock)
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
            if cv.alive:
                self._draw_token_info(surf, cv, look, (sx, sy), badge_pop, t)
            if cv.torch_lit and cv.alive and not cv.down:
                fx, fy = sx + int(r * 0.75), sy - int(r * 0.35)
                flame(surf, fx, fy, max(2.5, ts * 0.14), self.clock, _stable_hash(cv.id))

    def _draw_token_info(self, surf, cv, look, centre, badge_pop, t) -> None:
        sx, sy = centre
        ts = self.camera.ts
        half = look["half"]
        bw = int(max(ts * 0.8, 2 * half))
        hp_bar(surf, pygame.Rect(sx - bw // 2, sy - int(half) - 8, bw, max(3, ts // 8)), cv.hp_fraction,
               shown=self.hp_shown.get(cv.id), cache=self.bars)
        lab = look["label"]
        if lab is not None:
            rect = lab.get_rect(midtop=(sx, sy + int(half) + 1))
            important = cv.id in (self.model.current, self.selected)
            if important or rect.collidelist(self._labels) < 0:
                surf.blit(lab, rect.topleft)
                self._labels.append(rect)
        if look["badges"]:
            br = look["br"]
            bx = sx + int(half) - br
            by = sy - int(half) - 2
            for i, (b, spr) in enumerate(look["badges"]):
                pop = badge_pop.get((cv.id, b.key))
                if pop is not None:
                    spr = self.sprites.badge(b.text, b.rgb, int(br * (1.0 + 0.6 * easing.pulse(pop.progress(t)))))
                surf.blit(spr, (bx + i * (2 * br - 1) - spr.get_width() // 2 + br, by - spr.get_height() // 2 + br // 2))

    def _draw_swarm_labels(self, surf) -> None:
        ts = self.camera.ts
        for cid, cv in self.model.creatures.items():
            if not cv.swarm or not cv.alive or cid not in self.particles.clouds:
                continue
            xs = [x for x, _ in cv.squares]
            ys = [y for _, y in cv.squares]
            cx = (min(xs) + max(xs) + 1) / 2
            top = min(ys)
            sx, sy = self._px(cx, top)
            bw = int(ts * 1.1)
            hp_bar(surf, pygame.Rect(sx - bw // 2, sy - 6, bw, max(3, ts // 8)), cv.hp_fraction,
                   shown=self.hp_shown.get(cid), cache=self.bars)
            if ts >= 14:
                lab = self.text.render(cv.label, 16, portray.team_rgb(cv), outline=(0, 0, 0))
                surf.blit(lab, (sx - lab.get_width() // 2, sy - 8 - lab.get_height()))
            if cid == self.model.current and not self.model.finished:
                _square_outline(surf, cv.squares, self.camera, palette.UI_ACCENT, width=2)

    def _draw_ground_effects(self, surf, anims, t) -> None:
        ts = self.camera.ts
        for a in anims:
            if a.kind == tl.FIRE or (a.kind == tl.SPELL and a.data.get("spell") == "burning-hands"):
                p = a.progress(t)
                strength = (1 - p) ** 0.7 if a.kind == tl.FIRE else easing.pulse(p)
                for i, (x, y) in enumerate(a.data.get("squares", [])):
                    sx, sy = self._px(x + 0.5, y + 0.5)
                    g = self.sprites.glow(int(ts * 0.9), (255, 120, 30), 0.8)
                    gg = g.copy()
                    gg.set_alpha(int(255 * strength))
                    surf.blit(gg, (sx - g.get_width() // 2, sy - g.get_height() // 2), special_flags=pygame.BLEND_RGB_ADD)
                    for j in range(3):
                        fx = sx + int((j - 1) * ts * 0.25)
                        fy = sy + int(ts * 0.2) - (j % 2) * int(ts * 0.15)
                        flame(surf, fx, fy, ts * 0.2, t, _stable_hash(f'{a.t0:.4f}:{i}:{j}'), strength)

    def _draw_effects(self, surf, anims, t) -> None:
        ts = self.camera.ts
        m = self.model
        # words floating over the same creature at the same time stack instead of overlapping
        slots: dict[int, int] = {}
        stacks: dict[str, int] = {}
        for a in sorted((a for a in anims if a.kind in (tl.FLOAT, tl.MISS, tl.CRIT) and a.t0 <= t),
                        key=lambda a: a.t0):
            slots[id(a)] = stacks.get(a.target, 0)
            stacks[a.target] = slots[id(a)] + 1
        for a in anims:
            p = a.progress(t)
            k = a.kind
            if k == tl.FLOAT and a.target in m.creatures:
                self._float_text(surf, a, p, slot=slots.get(id(a), 0))
            elif k in (tl.MISS, tl.CRIT) and a.target in m.creatures and a.t0 <= t:
                self._float_text(surf, a, p, big=k == tl.CRIT, slot=slots.get(id(a), 0))
                if k == tl.CRIT and p < 0.5:
                    x, y = self.token_centre(a.target, t)
                    sx, sy = self._px(x, y)
                    rr = ts * (0.4 + 1.2 * p)
                    for i in range(10):
                        ang = i * math.pi / 5 + p
                        pygame.draw.line(surf, palette.CRIT_TEXT, (sx + math.cos(ang) * rr * 0.5, sy + math.sin(ang) * rr * 0.5),
                                         (sx + math.cos(ang) * rr, sy + math.sin(ang) * rr), 2)
            elif k == tl.FOCUS and a.actor in m.creatures and p < 0.75:
                x, y = self.token_centre(a.actor, t)
                sx, sy = self._px(x, y)
                rr = ts * (0.5 + 0.6 * easing.ease_out_cubic(p)) * m.creatures[a.actor].k
                pygame.draw.circle(surf, palette.UI_ACCENT, (sx, sy), int(rr), max(1, int(3 * (1 - p / 0.75))))
            elif k == tl.PROJECTILE and a.actor in m.creatures and a.target in m.creatures:
                x0, y0 = self.token_centre(a.actor, t)
                x1, y1 = self.token_centre(a.target, t)
                q = easing.ease_in_cubic(p) * 0.4 + p * 0.6
                hx, hy = x0 + (x1 - x0) * q, y0 + (y1 - y0) * q
                tx, ty = x0 + (x1 - x0) * max(0, q - 0.15), y0 + (y1 - y0) * max(0, q - 0.15)
                pygame.draw.line(surf, (250, 240, 210), self._px(tx, ty), self._px(hx, hy), 2)
            elif k == tl.TORCH_SWING and a.actor in m.creatures:
                self._torch_swing(surf, a, t, p)
            elif k == tl.ARC and a.actor in m.creatures:
                self._arc(surf, a, t, p)
            elif k == tl.SPELL and a.actor in m.creatures:
                self._spell(surf, a, t, p)
            elif k == tl.SWARM_TICK and a.target in m.creatures:
                x, y = self.token_centre(a.target, t)
                sx, sy = self._px(x, y)
                rnd = np.random.default_rng(int(a.t0 * 1000) & 0xFFFFFF)
                for i in range(6):
                    if rnd.random() < easing.pulse(p):
                        ox, oy = rnd.uniform(-0.35, 0.35, 2) * ts
                        pygame.draw.arc(surf, (230, 40, 40), pygame.Rect(sx + ox - 3, sy + oy - 3, 7, 7), 0.3, 2.8, 2)
            elif k == tl.ENGULF and a.target in m.creatures:
                x, y = self.token_centre(a.target, t)
                sx, sy = self._px(x, y)
                rr = ts * 0.9 * (1 - 0.5 * easing.ease_out_cubic(p))
                dashed_ring(surf, (60, 20, 20) if p < 0.8 else (30, 10, 10), (sx, sy), rr, width=3, dashes=9,
                            phase=p * 6)
            elif k == tl.HEAL and a.target in m.creatures:
                x, y = self.token_centre(a.target, t)
                sx, sy = self._px(x, y)
                for i in range(8):
                    ang = i * math.pi / 4 + p * 2
                    rr = ts * 0.45
                    py_ = sy - p * ts * 0.8 + math.sin(ang) * rr * 0.4
                    pygame.draw.circle(surf, palette.HEAL_TEXT, (int(sx + math.cos(ang) * rr), int(py_)), 2)
            elif k == tl.LIGHT and a.actor in m.creatures:
                x, y = self.token_centre(a.actor, t)
                sx, sy = self._px(x, y)
                rr = int(ts * (0.5 + 2.5 * easing.ease_out_cubic(p)))
                g = self.sprites.glow(rr, (255, 200, 120), 0.9 * (1 - p))
                surf.blit(g, (sx - rr, sy - rr), special_flags=pygame.BLEND_RGB_ADD)
            elif k == tl.DEATH and a.target in m.creatures:
                x, y = self.token_centre(a.target, t)
                sx, sy = self._px(x, y)
                if p < 0.6:
                    rr = ts * (0.3 + 0.7 * p)
                    pygame.draw.circle(surf, palette.mix((200, 40, 40), (30, 0, 0), p / 0.6), (sx, sy), int(rr), 2)

    def _float_text(self, surf, a, p, big=False, slot: int = 0) -> None:
        t = self.director.time_at(1.0)
        x, y = self.token_centre(a.target, t)
        ts = self.camera.ts
        tone = a.data.get("tone", "")
        if a.kind == tl.MISS:
            tone = "miss"
        if a.kind == tl.CRIT:
            tone = "crit"
        rgb = TONE_RGB.get(tone, palette.UI_TEXT)
        size = 18 if a.data.get("small") else (30 if big or a.data.get("big") else 24)
        if ts < 16:
            size = int(size * 0.8)
        s = self.text.render(a.data.get("text", ""), size, rgb, outline=(0, 0, 0))
        rise = easing.ease_out_cubic(p) * ts * (0.45 if a.data.get("small") else 0.9)
        alpha = easing.fade(p, 0.08, 0.3)
        s2 = s.copy()
        s2.set_alpha(int(255 * alpha))
        sx, sy = self._px(x, y)
        off = -ts * 0.55 if not a.data.get("small") else -ts * 0.8
        if a.kind == tl.CRIT:
            off -= ts * 0.5
        scale_in = 1.0 + 0.4 * (1 - easing.ease_out_back(min(1.0, p * 5))) if not a.data.get("small") else 1.0
        if scale_in != 1.0:
            s2 = pygame.transform.smoothscale(s2, (max(1, int(s.get_width() * scale_in)), max(1, int(s.get_height() * scale_in))))
        off -= slot * s.get_height() * 0.95
        surf.blit(s2, (sx - s2.get_width() // 2, int(sy + off - rise - s2.get_height() // 2)))

    def _torch_swing(self, surf, a, t, p) -> None:
        ts = self.camera.ts
        x, y = self.token_centre(a.actor, t)
        tgt = self.model.creatures.get(a.target) if a.target else None
        if tgt is not None:
            tx, ty = tl.centre_of(tgt.squares)
            base = math.atan2(ty - y, tx - x)
        else:
            base = 0.0
        sx, sy = self._px(x, y)
        for i in range(7):
            q = p - i * 0.04
            if q < 0 or q > 1:
                continue
            ang = base - 1.1 + 2.2 * easing.ease_in_out_cubic(q)
            rr = ts * 0.7
            fx, fy = sx + math.cos(ang) * rr, sy + math.sin(ang) * rr
            flame(surf, fx, fy, ts * 0.16 * (1 - i / 8), t + i, i + int(a.t0 * 100), 1.0 - i / 8)

    def _arc(self, surf, a, t, p) -> None:
        ts = self.camera.ts
        x0, y0 = self.token_centre(a.actor, t)
        x1, y1 = a.data["to"]
        q = easing.smoothstep(p)
        gx, gy = x0 + (x1 - x0) * q, y0 + (y1 - y0) * q
        dist = math.hypot(x1 - x0, y1 - y0)
        h = 4 * q * (1 - q) * max(0.8, dist * 0.35)
        sxg, syg = self._px(gx, gy)
        pygame.draw.ellipse(surf, (0, 0, 0), pygame.Rect(sxg - 4, syg - 2, 8, 4))
        sx, sy = self._px(gx, gy - h)
        lantern = "lantern" in str(a.data.get("item", ""))
        body = (250, 200, 90) if lantern else (255, 120, 40)
        pygame.draw.circle(surf, (40, 30, 20), (sx, sy), max(3, ts // 6) + 1)
        pygame.draw.circle(surf, body, (sx, sy), max(3, ts // 6))
        pygame.draw.circle(surf, (255, 255, 220), (sx - 1, sy - 1), max(1, ts // 14))
        for i in range(1, 5):
            qq = max(0.0, q - i * 0.05)
            bx, by = x0 + (x1 - x0) * qq, y0 + (y1 - y0) * qq
            bh = 4 * qq * (1 - qq) * max(0.8, dist * 0.35)
            px_, py_ = self._px(bx, by - bh)
            pygame.draw.circle(surf, palette.FIRE[min(3, i - 1)], (px_, py_), max(1, 3 - i // 2))

    def _spell(self, surf, a, t, p) -> None:
        ts = self.camera.ts
        m = self.model
        spell = a.data.get("spell", "")
        x0, y0 = self.token_centre(a.actor, t)
        if spell == "magic-missile":
            for j, tid in enumerate(a.data.get("targets", [])):
                if tid not in m.creatures:
                    continue
                x1, y1 = self.token_centre(tid, t)
                for k in range(3):
                    q = min(1.0, max(0.0, p * 1.4 - k * 0.12))
                    if q <= 0 or q >= 1:
                        continue
                    wob = math.sin(q * math.pi) * 0.6 * (k - 1)
                    nx, ny = -(y1 - y0), (x1 - x0)
                    n = math.hypot(nx, ny) or 1
                    hx = x0 + (x1 - x0) * q + nx / n * wob
                    hy = y0 + (y1 - y0) * q + ny / n * wob
                    g = self.sprites.glow(max(3, ts // 3), palette.MAGIC, 1.0)
                    sx, sy = self._px(hx, hy)
                    surf.blit(g, (sx - g.get_width() // 2, sy - g.get_height() // 2), special_flags=pygame.BLEND_RGB_ADD)
                    pygame.draw.circle(surf, (240, 230, 255), (sx, sy), max(2, ts // 10))
            return
        targets = [tid for tid in a.data.get("targets", []) if tid in m.creatures]
        squares = a.data.get("squares", [])
        col = {"sleep": (140, 160, 255), "bless": (255, 220, 120), "cure-light-wounds": palette.HEAL_TEXT}.get(
            spell, palette.MAGIC)
        pts = [self.token_centre(tid, t) for tid in targets] + [(x + 0.5, y + 0.5) for x, y in squares]
        if spell == "burning-hands":
            return  # drawn with the ground effects
        for i, (x, y) in enumerate(pts):
            sx, sy = self._px(x, y)
            if spell == "sleep":
                z = self.text.render("z", int(ts * 0.6) + 8, col, outline=(0, 0, 0))
                surf.blit(z, (sx + int(ts * 0.2 * math.sin(p * 6 + i)), sy - int(p * ts) - z.get_height()))
            else:
                rr = ts * (0.3 + 0.4 * easing.ease_out_cubic(p))
                for j in range(6):
                    ang = j * math.pi / 3 + p * 3
                    pygame.draw.circle(surf, col, (int(sx + math.cos(ang) * rr), int(sy + math.sin(ang) * rr - p * ts * 0.4)),
                                       max(1, ts // 12))
        sx0, sy0 = self._px(x0, y0)
        g = self.sprites.glow(int(ts * 0.9), col, 0.7 * (1 - p))
        surf.blit(g, (sx0 - g.get_width() // 2, sy0 - g.get_height() // 2), special_flags=pygame.BLEND_RGB_ADD)

    def _draw_preview(self, surf) -> None:
        pv = self.preview
        ts = self.camera.ts
        if self.area_preview and self.mode == "play":
            tile = pygame.Surface((ts, ts), pygame.SRCALPHA)
            tile.fill((*palette.SPELL_AREA, 90))
            for x, y in self.area_preview:
                sx, sy = self._px(x, y)
                surf.blit(tile, (sx, sy))
                pygame.draw.rect(surf, palette.SPELL_AREA, pygame.Rect(sx, sy, ts, ts), 1)
        if self.hover is not None and self.mode == "play":
            hx, hy = self.hover
            if self.grid.in_bounds((hx, hy)):
                sx, sy = self._px(hx, hy)
                pygame.draw.rect(surf, (255, 255, 255), pygame.Rect(sx, sy, ts, ts), 1)
        if pv is None or not pv.steps:
            if pv is not None and pv.reason and self.hover is not None:
                sx, sy = self._px(self.hover[0] + 1, self.hover[1])
                s = self.text.render(pv.reason, 16, palette.UI_BAD, outline=(0, 0, 0))
                surf.blit(s, (sx + 4, sy))
            return
        pts = [self._px(x + 0.5, y + 0.5) for x, y in pv.squares]
        total = 0
        for i, step in enumerate(pv.steps):
            a, b = pts[i], pts[i + 1]
            if i < pv.single:
                col = palette.REACH_SINGLE
            elif i < pv.double:
                col = palette.REACH_DOUBLE
            else:
                col = (150, 150, 150)
            pygame.draw.line(surf, (0, 0, 0), a, b, 5)
            pygame.draw.line(surf, col, a, b, 3)
            pygame.draw.circle(surf, col, b, 4)
            total += step.feet
            if ts >= 18:
                lab = {"crawl": "crawl", "escape_artist": f"EA{step.dc}", "squeeze": f"EA{step.dc}", "stand": "stand"}.get(
                    step.kind, str(step.feet))
                s = self.text.render(lab, 15, col, outline=(0, 0, 0))
                surf.blit(s, (b[0] + 4, b[1] - s.get_height()))
        end = pts[-1]
        if pv.double and len(pv.steps) <= pv.single:
            what = "move action"
        elif pv.double and len(pv.steps) <= pv.double:
            what = "double move"
        elif pv.rounds is not None:
            what = f"{pv.rounds} round{'s' if pv.rounds != 1 else ''}"
        else:
            what = "with Escape Artist rolls"
        s = self.text.render(f"{pv.feet} ft  ·  {len(pv.steps)} squares  ·  {what}", 19, (255, 255, 255),
                             outline=(0, 0, 0))
        surf.blit(s, (end[0] + 10, end[1] + 8))

    def _draw_cards(self, surf, anims, t) -> None:
        view = self.r_view
        for a in anims:
            p = a.progress(t)
            if a.kind == tl.BANNER:
                self.hudder.banner(surf, view, a.data.get("text", ""), p)
        ended = [a for a in anims if a.kind == tl.END]
        if ended:
            a = ended[-1]
            self.hudder.end_card(surf, view, a, a.progress(t))
        else:
            cap = self._caption()
            if cap:
                self.hudder.caption(surf, view, cap)
        for a in anims:
            if a.kind == tl.TITLE:
                self.hudder.title_card(surf, view, a, a.progress(t))
        if self.toast_text and self.clock < self.toast_until:
            left = self.toast_until - self.clock
            self.hudder.toast(surf, view, self.toast_text, min(1.0, left / 0.4))

    def _caption(self) -> str:
        for line in reversed(self.model.log[-12:]):
            if line.kind in ("moved", "attack", "engulf", "spell", "item", "splash", "check") and not line.text.startswith("  "):
                return line.text.strip()
        return ""


def _stable_hash(text: str) -> int:
    """A seed from a string that is the same in every process (``hash`` of a str is not)."""
    import zlib

    return zlib.crc32(text.encode()) & 0xFFFF


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


def _rgba_surface(img: np.ndarray) -> pygame.Surface:
    h, w = img.shape[:2]
    s = pygame.image.frombuffer(np.ascontiguousarray(img).tobytes(), (w, h), "RGBA")
    if pygame.display.get_surface() is not None:
        s = s.convert_alpha()
    return s


def _outline(img: np.ndarray, mask: np.ndarray, ts: int, rgba, width: int) -> None:
    """Draw the boundary of a square mask into an RGBA pixel image."""
    m = np.kron(mask, np.ones((ts, ts), dtype=bool))
    inner = m.copy()
    for _ in range(width):
        e = inner.copy()
        e[1:, :] &= inner[:-1, :]
        e[:-1, :] &= inner[1:, :]
        e[:, 1:] &= inner[:, :-1]
        e[:, :-1] &= inner[:, 1:]
        inner = e
    edge = m & ~inner
    img[edge] = rgba


def _square_outline(surf, squares, cam, rgb, width: int = 1) -> None:
    sq = set(map(tuple, squares))
    ts = cam.ts
    for x, y in sq:
        sx, sy = cam.to_screen(x, y)
        sx, sy = int(round(sx)), int(round(sy))
        if (x, y - 1) not in sq:
            pygame.draw.line(surf, rgb, (sx, sy), (sx + ts, sy), width)
        if (x, y + 1) not in sq:
            pygame.draw.line(surf, rgb, (sx, sy + ts), (sx + ts, sy + ts), width)
        if (x - 1, y) not in sq:
            pygame.draw.line(surf, rgb, (sx, sy), (sx, sy + ts), width)
        if (x + 1, y) not in sq:
            pygame.draw.line(surf, rgb, (sx + ts, sy), (sx + ts, sy + ts), width)
