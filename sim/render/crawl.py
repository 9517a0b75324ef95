"""The crawl view: a party's journey through the cave (:mod:`sim.crawl.run`), animated.

The cave is drawn as every view draws it, with the route faintly over it; the party moves along
its tracks at the pace of :class:`~sim.view.crawlplan.CrawlPlan` (walking compressed, squeezes
slowed down, each member on its own timing, single file where the way is narrow), lying prone
where it crawls, dragging its armour (a bundle behind the token) where it had to take it off,
idle ("...") while it waits for the others; the monsters stand where the crawl file puts them.
A fight is played by the renderer's own fight animation from the fight's events, then the crawl
goes on. A clock shows the crawl's elapsed time (minutes:seconds and rounds) with a strip of the
whole journey; the caption says what is happening.

Everything drawn is a function of the director's clock (screen seconds), so the same crawl gives
the same frames: :func:`crawl_scene` builds a (scene, driver) pair that the window
(:class:`~sim.render.app.App`) and the headless export (:func:`~sim.render.export.export`) run
like any fight.
"""

from __future__ import annotations

import pygame

from sim.crawl.records import CrawlResult, Light, LightOut
from sim.maps import palette
from sim.render.hud import Hud, panel_box
from sim.render.lighting import Lighting
from sim.render.scene import Scene
from sim.story.crawlwords import clock
from sim.view import timeline as tl
from sim.view.crawlplan import INTRO, CrawlPlan
from sim.view.fights import crawl_start_event
from sim.view.model import LogLine, ViewModel
from sim.view.world import World

# the strip of the journey and the activity word: one colour per kind of going
KIND_RGB = {
    "walk": (118, 190, 108), "single_file": (228, 208, 80), "crawl": (240, 150, 50), "awkward": (200, 80, 160),
    "tight": (140, 96, 220), "armor_off": (130, 160, 205), "armor_on": (130, 160, 205), "encounter": (235, 60, 60),
}
KIND_WORD = {
    "walk": "walking", "single_file": "single file", "crawl": "crawling", "awkward": "squeezing",
    "tight": "tight squeeze", "armor_off": "armour off", "armor_on": "armour on", "encounter": "FIGHT",
    "left_behind": "left behind", "keep_armor_off": "armour stays off", "arrive": "arrived", "light": "light",
    "light_out": "light out", "noticed": "noticed", "": "on the way",
}
HELP = ("Space pause  ·  +/- speed  ·  → next part  ·  ← back  ·  Home restart  ·  1-9 categories per size  ·  "
        "L legend  ·  H interface  ·  drag pan, wheel zoom  ·  Esc quit")
ROUTE_RGBA = (255, 236, 190, 60)


def crawl_scene(result: CrawlResult, *, size=(1280, 720), speed: float = 1.0, pace: float = 1.0, hud: bool = True,
                legend: bool = True):
    """The crawl ``result`` (:func:`sim.crawl.run.run_crawl`) as a (scene, driver) pair."""
    scene = CrawlScene(result, size=size, speed=speed, pace=pace, hud=hud, legend=legend)
    return scene, CrawlPlayer(scene)


class CrawlPlayer:
    """The driver of a crawl scene (what :class:`~sim.render.app.App` and the export call):
    the scene plays itself; → and ← jump a part of the journey, Home restarts."""

    def __init__(self, scene: "CrawlScene"):
        self.scene = scene
        self.bounds = [0]

    def pump(self) -> None:
        pass

    @property
    def done(self) -> bool:
        return self.scene.finished

    def step_forward(self) -> bool:
        return self.scene.skip(+1)

    def step_back(self) -> bool:
        return self.scene.skip(-1)

    def restart(self, *, upto: int = 0) -> None:
        self.scene.reset(0.0)


class CrawlScene(Scene):
    """A :class:`~sim.render.scene.Scene` whose party follows the crawl's plan between fights."""

    def __init__(self, result: CrawlResult, *, size=(1280, 720), speed: float = 1.0, pace: float = 1.0, hud: bool = True,
                 legend: bool = True):
        spec = result.spec
        start, enc = crawl_start_event(result)
        self.result = result
        self.start_event = start
        self.plan = CrawlPlan(result, start, pace=pace)
        model = ViewModel()
        director = tl.Director(model, speed=speed, pace=pace, title=spec.name)
        super().__init__(world=World(enc, live=False), model=model, director=director, size=size, title=spec.name,
                         subtitle=self.plan.caption(0.0), mode="watch", seed=spec.seed, hud=hud, legend=legend)
        self.hudder = CrawlHud(self)
        self.finished = False
        self.crawl_t = 0.0
        self._route = (None, -1, None)
        self._where_key = None
        self._where = None
        if spec.settings.get("vision", True):  # drawn lit: dark beyond the party's light, fog (RULES §9)
            self.lighting = Lighting(spec.grid, view="party")
        self.reset(0.0)

    # -- time ---------------------------------------------------------------------------------------------
    def reset(self, s: float = 0.0) -> None:
        """Show the crawl as it is at screen time ``s``: the fights before it applied at once."""
        self.restart_view(s)
        m = self.model
        m.apply(self.start_event)
        m.log.clear()
        m.round = 0
        d = self.director
        self._fed: set[int] = set()
        self._extras: dict = {}
        self._fighting = -1
        self._logged = 0
        self._log_plan = self.plan.log_lines()
        self.finished = False
        self._where_key = None
        if self.lighting is not None:   # what the party has seen is seen again from here on
            self.lighting.forget_explored()
        spec = self.result.spec
        m.log.append(LogLine(text=f"{spec.name}: {self.plan.caption(0.0)}", kind="crawl", round=0, tone="round"))
        for g in self.plan.segments:
            if g.kind == "fight" and g.s1 <= s:
                self._log_upto(g.s0)
                self._feed(g, instant=True)
        if s < INTRO:
            d.anims.append(tl.Anim(tl.TITLE, 0.0, INTRO + 0.6, data={
                "title": spec.name, "subtitle": self.plan.caption(0.0), "seed": spec.seed}))
        self._sync(float(s))

    def skip(self, direction: int) -> bool:
        """Jump to the next part of the journey (a fight: to its end), or back to the start of
        this one (or the one before)."""
        plan = self.plan
        s = self.director.t
        cur = plan.segment_at(s)
        segs = plan.segments
        i = segs.index(cur)
        if direction > 0:
            if i >= len(segs) - 1:
                return False
            target = cur.s1
        else:
            if s - cur.s0 > 0.6 or i == 0:
                target = cur.s0
            else:
                target = segs[i - 1].s0
            if plan.segment_at(target).kind == "fight":
                target = plan.segment_at(target).s0
        self.reset(target)
        return True

    def _feed(self, g, *, instant: bool = False) -> None:
        """Hand a fight to the director: it plays the fight's events from the segment's start."""
        f = self.plan.fights[g.fight]
        m = self.model
        d = self.director
        self._extras = {cid: cv for cid, cv in m.creatures.items() if cid not in f.ids}
        d.title = "FIGHT!"
        d.subtitle = self.plan.entry_text(g.entries[0]) if g.entries else ""
        if d.subtitle.startswith("FIGHT! "):
            d.subtitle = d.subtitle[len("FIGHT! "):]
        self._fed.add(g.fight)
        if instant:
            d.apply_instant(f.events)
            self._restore_extras()
            self._leave_fight()
            return
        d.feed(f.events)
        d.next_at = g.s0           # the fight's first event starts exactly where the plan put it

    def _leave_fight(self) -> None:
        """After a fight: its end card goes, the marching order comes back."""
        m = self.model
        d = self.director
        d.anims = [a for a in d.anims if a.kind != tl.END]
        m.finished = False
        m.current = None
        m.acting = False
        m.round = 0
        party = [c for c in self.plan.party if c in m.creatures]
        m.order = party + [c for c in m.creatures if c not in party]
        for cv in m.creatures.values():
            cv.initiative = None
        self._fighting = -1

    def _restore_extras(self) -> bool:
        """Creatures not in the fight (other monsters, members left behind) stay on the map."""
        changed = False
        for cid, cv in self._extras.items():
            if cid not in self.model.creatures:
                self.model.creatures[cid] = cv
                changed = True
        return changed

    def update(self, dt: float) -> None:
        d = self.director
        upto = d.t + dt * d.speed
        for g in self.plan.segments:
            if g.kind == "fight" and g.fight not in self._fed and g.s0 <= upto:
                self._feed(g)
        super().update(dt)
        self._sync(d.t)

    def _sync(self, s: float) -> None:
        """Bring the view model to screen time ``s``: positions, postures, armour, log, the end."""
        plan = self.plan
        m = self.model
        g = plan.segment_at(s)
        changed = self._restore_extras()
        if g.kind == "fight":
            self._fighting = g.fight
        else:
            if self._fighting >= 0:          # the fight is over: back to the crawl
                self._leave_fight()
                changed = True
            if m.round:
                m.round = 0
            where = plan.where(s) or {}
            for cid, (x, y, sq, prone) in where.items():
                cv = m.creatures.get(cid)
                if cv is None:
                    continue
                sq = tuple(sq)
                if not self.grid.in_bounds(sq) or self.grid.rock[sq[1], sq[0]]:
                    continue
                squares = [(sq[0] + i, sq[1] + j) for j in range(cv.k) for i in range(cv.k)]
                if cv.squares != squares or cv.prone != prone:
                    if cv.squares and squares[0] != cv.squares[0]:
                        fx, fy = squares[0][0] - cv.squares[0][0], squares[0][1] - cv.squares[0][1]
                        cv.facing = ((fx > 0) - (fx < 0), (fy > 0) - (fy < 0))
                    cv.squares, cv.pos, cv.prone = squares, sq, bool(prone)
                    changed = True
        t = plan.crawl_time(s)
        self.crawl_t = t
        if g.kind != "fight":
            changed = self._carry_light(t) or changed
        for cid in plan.party:
            cv = m.creatures.get(cid)
            if cv is None:
                continue
            off = plan.armour(cid, t)[0] in ("off", "putting_on")
            if cv.armor_off != off:
                cv.armor_off = off
                changed = True
        changed = self._log_upto(s) or changed
        if s >= plan.duration and not self.finished:
            self.finished = True
            m.finished = True
            changed = True
        if changed:
            m.version += 1

    def _carry_light(self, t: float) -> bool:
        """Between fights, the party's light as the timeline has it at crawl time ``t`` (rounds):
        who carries which light (``light`` entries) until it burns out (``light_out``)."""
        bearer = item = None
        for e in self.plan.timeline:
            if e.start > t + 1e-9:
                continue
            if isinstance(e, Light):
                bearer, item = e.carried_by, e.item
            elif isinstance(e, LightOut):
                bearer = item = None
        m = self.model
        changed = False
        for cid in self.plan.party:
            cv = m.creatures.get(cid)
            if cv is None:
                continue
            torch = cid == bearer and item == "torch"
            other = item if cid == bearer and item != "torch" else None
            if cv.torch_lit != torch or m.lights_held.get(cid) != other:
                cv.torch_lit = torch
                m.lights_held[cid] = other
                changed = True
        return changed

    def _log_upto(self, s: float) -> bool:
        """The journey's log: each timeline entry once its part of the crawl begins."""
        plan = self.plan
        m = self.model
        n = self._logged
        while self._logged < len(self._log_plan) and self._log_plan[self._logged][0] <= s + 1e-9:
            i = self._log_plan[self._logged][1]
            e = plan.timeline[i]
            tone = {"encounter": "round", "left_behind": "bad", "arrive": "good", "keep_armor_off": "bad"}.get(e.what, "")
            m.log.append(LogLine(text=f"{clock(e.start)}  {plan.entry_text(i)}", kind="crawl", round=m.round,
                                 tone=tone))
            self._logged += 1
        return self._logged > n

    # -- where things are drawn -------------------------------------------------------------------------
    def _where_at(self, t: float):
        if self._where_key != t:
            self._where_key = t
            self._where = self.plan.where(t)
        return self._where

    def token_centre(self, cid: str, t: float) -> tuple[float, float]:
        w = self._where_at(t)
        if w is not None and cid in w:
            return (w[cid][0], w[cid][1])
        return super().token_centre(cid, t)

    def composite(self) -> pygame.Surface:
        """The cave (and any overlay) with the route drawn faintly over it."""
        base = super().composite()
        ts = self.camera.ts
        if self._route[0] is base and self._route[1] == ts:
            return self._route[2]
        comp = base.copy()
        over = pygame.Surface(comp.get_size(), pygame.SRCALPHA)
        pts = [((x + 0.5) * ts, (y + 0.5) * ts) for x, y in self.plan.route]
        if len(pts) > 1:
            pygame.draw.lines(over, ROUTE_RGBA, False, pts, max(2, ts // 6))
        dot = max(1, ts // 10)
        for p in pts:
            pygame.draw.circle(over, (255, 240, 200, 90), (int(p[0]), int(p[1])), dot)
        comp.blit(over, (0, 0))
        for (x, y), name, rgb in ((self.plan.route[0], self.result.spec.start_name or "start", (140, 210, 140)),
                                  (self.plan.route[-1], self.result.spec.goal_name or "goal", palette.UI_ACCENT)):
            cx, cy = int((x + 0.5) * ts), int((y + 0.5) * ts)
            r = max(4, int(ts * 0.55))
            pygame.draw.circle(comp, (0, 0, 0), (cx, cy), r + 1, 3)
            pygame.draw.circle(comp, rgb, (cx, cy), r, 2)
            if ts >= 10:
                lab = self.text.render(name, max(14, min(20, ts)), rgb, outline=(0, 0, 0))
                comp.blit(lab, (cx - lab.get_width() // 2, cy - r - lab.get_height() - 1))
        self._route = (base, ts, comp)
        return comp

    def export_seconds(self) -> float:
        """The animation's length in seconds (at the speed it is drawn): an export's palette
        pass spreads its sample frames over it."""
        return self.plan.duration / (self.director.speed or 1.0)

    def export_hold(self) -> int:
        """Frames an export holds each picture for now: two on a walk (the party strolls at 8x;
        every other in-between frame is left out, halving a long walk's share of the GIF), else
        one. The window draws every frame."""
        g = self.plan.segment_at(self.director.t)
        return 2 if g.kind == "travel" and g.what in ("walk", "") else 1

    def label_obstacles(self) -> list:
        """The start's and the goal's names, painted on the map: token labels keep off them."""
        ts = self.camera.ts
        if ts < 10:
            return []
        ox, oy = self.camera.origin()
        out = []
        for (x, y), name in ((self.plan.route[0], self.result.spec.start_name or "start"),
                             (self.plan.route[-1], self.result.spec.goal_name or "goal")):
            w, h = self.text.size(name, max(14, min(20, ts)))
            cx, cy = int((x + 0.5) * ts) + int(ox), int((y + 0.5) * ts) + int(oy)
            r = max(4, int(ts * 0.55))
            out.append((cx - w // 2, cy - r - h - 1, w, h))
        return out

    def _armour_state(self, cv, t: float) -> tuple[str, float]:
        """The crawl's plan says where each member's armour is (:meth:`CrawlPlan.armour`)."""
        if cv.id not in self.plan.party:
            return super()._armour_state(cv, t)
        return self.plan.armour(cv.id, self.plan.crawl_time(t))

    def _draw_tokens(self, surf, anims, t) -> None:
        plan = self.plan
        tc = plan.crawl_time(t)
        g = plan.segment_at(t)
        super()._draw_tokens(surf, anims, t)
        if g.kind in ("travel", "dress"):
            places = plan.placements(tc, g)
            for cid, pl in places.items():
                cv = self.model.creatures.get(cid)
                if pl.waiting and cv is not None and cv.alive:
                    x, y = self.token_centre(cid, t)
                    self._waiting_dots(surf, x, y, cv)

    def _waiting_dots(self, surf, x: float, y: float, cv) -> None:
        """Idle: a small bubble with three dots at the token's upper left."""
        ts = self.camera.ts
        sx, sy = self._px(x, y)
        r = max(0.5 * cv.k * ts * 0.9, ts * 0.36)
        w = max(13, int(ts * 0.56))
        h = max(7, int(ts * 0.28))
        box = pygame.Rect(0, 0, w, h)
        box.bottomright = (int(sx - r * 0.55), int(sy - r * 0.45))
        pygame.draw.rect(surf, (0, 0, 0), box.inflate(2, 2), border_radius=h // 2)
        pygame.draw.rect(surf, (232, 232, 238), box, border_radius=h // 2)
        phase = int(self.clock * 3) % 3
        for i in range(3):
            c = (50, 50, 60) if i == phase else (140, 140, 150)
            pygame.draw.circle(surf, c, (box.x + w * (i + 1) // 4, box.centery), max(1, h // 5))

    def _frame_points(self) -> list | None:
        """The camera: the party and the way ahead of it while it travels (the fight's own
        framing in a fight, the whole cave for the title and the arrival)."""
        d = self.director
        plan = self.plan
        g = plan.segment_at(d.t)
        if g.kind == "fight":
            return super()._frame_points()
        if g.kind in ("intro", "outro") or any(a.kind in (tl.TITLE, tl.END) for a in d.anims):
            return None
        m = self.model
        pts = [sq for cid in plan.party if (cv := m.creatures.get(cid)) is not None and cv.alive and not cv.down
               for sq in cv.squares]
        if g.kind == "gather" and 0 <= g.fight < len(plan.fights):
            f = plan.fights[g.fight]
            pts += [sq for sqs in f.start_squares.values() for sq in sqs]
        else:
            t = plan.crawl_time(d.t)
            moving = [plan.progress(c, t) for c in plan.party if c in plan.placements(t, g)]
            if moving:
                lead = int(max(moving))
                pts += plan.route[lead:lead + 9]
        return pts or None

    def _caption(self) -> str:
        s = self.director.t
        g = self.plan.segment_at(s)
        if g.kind == "fight":
            return super()._caption()
        if g.kind in ("outro", "intro"):
            return ""
        return self.plan.caption(s)

    def _draw_cards(self, surf, anims, t) -> None:
        super()._draw_cards(surf, anims, t)
        g = self.plan.segment_at(t)
        if g.kind == "outro":
            self.hudder.arrival_card(surf, self.r_view, min(1.0, (t - g.s0) / 0.6))
        self.hudder.clock_panel(surf, self.r_view, self.shown_clock(t))

    def shown_clock(self, s: float) -> float:
        """The screen time the clocks show at screen time ``s``: ``s``, or in an export
        (``steady_clock``) the last whole screen second (then the end): clocks that change every
        frame widen every frame of a GIF."""
        if not self.steady_clock or s >= self.plan.duration:
            return s
        return float(int(s))

    def status_text(self) -> str:
        d = self.director
        g = self.plan.segment_at(d.t)
        if d.speed == 0:
            state = "paused"
        elif self.finished or g.kind == "outro":
            state = "arrived" if self.result.arrived else "over"
        elif g.kind == "fight":
            state = f"fight, round {max(1, self.model.round)}"
        else:
            state = "crawl"
        return f"{state}  ·  {self.speed_label()}"


class CrawlHud(Hud):
    """The interface for a crawl: the clock and the journey strip, the marching order, the log."""

    def _header(self, surf, x, y, w, text) -> int:
        sc = self.scene
        if text == "Initiative" and sc.plan.segment_at(sc.director.t).kind != "fight":
            text = "Marching order"
        elif text == "Combat log":
            text = "Journey"
        return super()._header(surf, x, y, w, text)

    def topbar(self, surf, rect: pygame.Rect) -> None:
        sc = self.scene
        t = self.text
        pygame.draw.rect(surf, palette.UI_BG, rect)
        pygame.draw.line(surf, palette.UI_EDGE, rect.bottomleft, (rect.right, rect.bottom), 1)
        x = rect.x + 12
        title = t.render(sc.title, 22, palette.UI_ACCENT)
        surf.blit(title, (x, rect.centery - title.get_height() // 2))
        x += title.get_width() + 14
        spec = sc.result.spec
        sub = t.render(f"{spec.grid.name}  ·  {sc.plan.words.origin()} » {sc.plan.words.goal()}  ·  seed {spec.seed}", 17,
                       palette.UI_DIM)
        surf.blit(sub, (x, rect.centery - sub.get_height() // 2 + 1))
        right = rect.right - 12
        ms = t.render(sc.status_text(), 18, palette.UI_TEXT)
        right -= ms.get_width()
        surf.blit(ms, (right, rect.centery - ms.get_height() // 2))
        right -= 18
        ct = sc.plan.crawl_time(sc.shown_clock(sc.director.t))
        ck = t.render(f"{clock(ct)}  ({ct:.1f} rounds)", 22, palette.UI_TEXT)
        right -= ck.get_width()
        surf.blit(ck, (right, rect.centery - ck.get_height() // 2))

    def bottombar(self, surf, rect: pygame.Rect) -> None:
        pygame.draw.rect(surf, palette.UI_BG, rect)
        pygame.draw.line(surf, palette.UI_EDGE, rect.topleft, (rect.right, rect.top), 1)
        s = self.text.render(HELP, 16, palette.UI_DIM)
        surf.blit(s, (rect.x + 10, rect.centery - s.get_height() // 2 + 1))

    def legend(self, surf, view: pygame.Rect) -> None:
        if view.w >= 240 and view.h >= 140:      # no room for it in a very small frame
            super().legend(surf, view)

    def caption(self, surf, view: pygame.Rect, text: str, alpha: float = 1.0) -> None:
        """The caption at the bottom of the map, beside the legend, up to three lines."""
        if not text or alpha <= 0.02:
            return
        on_map = self.scene.show_legend and not (self.scene.show_hud and self.legend_in_panel)
        left = view.x + (232 if on_map and view.w >= 240 else 10)
        avail = max(160, view.right - 10 - left)
        key = (text, avail)
        lines = self._wrapped.get(key)
        if lines is None:
            lines = self._wrapped[key] = self.text.wrap(text, 19, avail - 24)[:3]
        lh = self.text.line_height(19) + 2
        h = lh * len(lines) + 10
        w = min(avail, max(self.text.size(s, 19)[0] for s in lines) + 24)
        box = pygame.Rect(0, 0, w, h)
        box.midbottom = (left + avail // 2, view.bottom - 10)
        panel_box(surf, box, fill=(10, 10, 14), alpha=int(200 * alpha), edge=None)
        y = box.y + 6
        for line in lines:
            r = self.text.render(line, 19, palette.UI_TEXT)
            surf.blit(r, (box.centerx - r.get_width() // 2, y))
            y += lh

    def clock_panel(self, surf, view: pygame.Rect, s: float) -> None:
        """The elapsed crawl time (minutes:seconds and rounds), what the party is doing, how much
        faster than life it plays, and the strip of the whole journey with where it is now."""
        sc = self.scene
        plan = sc.plan
        t = plan.crawl_time(s)
        g = plan.segment_at(s)
        txt = self.text
        w = min(360, view.w - 20)
        box = pygame.Rect(view.x + 10, view.y + 10, w, 62)
        panel_box(surf, box, fill=(12, 12, 16), alpha=215, radius=8)
        big = txt.render(clock(t), 34, (255, 255, 255))
        surf.blit(big, (box.x + 12, box.y + 6))
        x = box.x + 12 + big.get_width() + 10
        rounds = f"{t:.1f}".rstrip("0").rstrip(".")
        small = txt.render(f"{rounds} round{'s' if t != 1 else ''}", 18, palette.UI_DIM)
        surf.blit(small, (x, box.y + 8))
        what = g.what if g.kind not in ("intro", "outro") else ("" if g.kind == "intro" else "arrive")
        word = "setting out" if g.kind == "intro" else KIND_WORD.get(what, what)
        if g.kind == "outro" and not sc.result.arrived:
            word = "stopped"
        if g.kind == "fight":
            word = f"FIGHT, round {max(1, sc.model.round)}"
        rgb = KIND_RGB.get(what, palette.UI_TEXT)
        ws = txt.render(word, 18, rgb)
        surf.blit(ws, (x, box.y + 8 + small.get_height()))
        if g.kind in ("travel", "dress") and g.s1 > g.s0 and g.t1 > g.t0:
            fast = (g.t1 - g.t0) * 6.0 / (g.s1 - g.s0) * (sc.director.speed or sc.resume_speed)
            fs = txt.render(f"time x{fast:.0f}" if fast >= 2 else f"time x{fast:.1f}", 16, palette.UI_DIM)
            surf.blit(fs, (box.right - fs.get_width() - 10, box.y + 8))
        end = txt.render(f"of {clock(plan.total)}", 16, palette.UI_DIM)
        surf.blit(end, (box.right - end.get_width() - 10, box.y + 8 + small.get_height()))
        # the strip: the whole journey in crawl time
        strip = pygame.Rect(box.x + 12, box.bottom - 14, box.w - 24, 7)
        pygame.draw.rect(surf, (50, 52, 60), strip)
        total = plan.total or 1.0
        for seg in plan.segments:
            if seg.t1 <= seg.t0:
                continue
            x0 = strip.x + int(strip.w * seg.t0 / total)
            x1 = strip.x + int(strip.w * seg.t1 / total)
            pygame.draw.rect(surf, KIND_RGB.get(seg.what, (118, 190, 108)),
                             pygame.Rect(x0, strip.y, max(1, x1 - x0), strip.h))
        pygame.draw.rect(surf, (0, 0, 0), strip, 1)
        hx = strip.x + int(strip.w * min(1.0, t / total))
        pygame.draw.line(surf, (255, 255, 255), (hx, strip.y - 4), (hx, strip.bottom + 2), 2)
        pygame.draw.polygon(surf, (255, 255, 255), [(hx - 4, strip.y - 6), (hx + 4, strip.y - 6), (hx, strip.y - 1)])

    def arrival_card(self, surf, view: pygame.Rect, p: float) -> None:
        sc = self.scene
        plan = sc.plan
        r = sc.result
        a = max(0.0, min(1.0, p))
        t = self.text
        m = sc.model
        if r.arrived:
            head = f"At {plan.words.goal()}"
            rgb = palette.UI_ACCENT
        else:
            head = f"Short of {plan.words.goal()}"
            rgb = palette.UI_BAD
        body = [(head, 48, rgb),
                (f"{clock(plan.total)} on the way  ·  {plan.total:g} rounds", 24, palette.UI_TEXT)]
        if r.arrived:
            here = ", ".join(f"{m.label(c)} {m.creatures[c].hp}/{m.creatures[c].max_hp}" if c in m.creatures
                             else m.label(c) for c in r.arrived)
            for part in t.wrap(f"Arrived: {here}", 19, int(view.w * 0.6)):
                body.append((part, 19, palette.UI_DIM))
        for cid, why in r.left_behind.items():
            for part in t.wrap(f"{m.label(cid)}: {why}", 18, int(view.w * 0.6)):
                body.append((part, 18, palette.UI_BAD))
        self.card(surf, view, body, a)

