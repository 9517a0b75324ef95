"""Short-lived things drawn over the cave (a part owned by :class:`~sim.render.scene.Scene`): burning
ground, floating words, crits, projectiles, torch swings, thrown flasks, spells, heals, deaths,
and the play-mode path and area previews.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pygame

from sim.maps import palette
from sim.render import easing
from sim.render.camera import Camera
from sim.render.draw import Sprites, dashed_ring, flame, square_outline, stable_hash
from sim.render.text import Text
from sim.terrain.grid import CaveGrid
from sim.view import timeline as tl
from sim.view.model import ViewModel

TONE_RGB = {"damage": palette.DAMAGE_TEXT, "swarm": palette.SWARM_TEXT, "fire": (255, 170, 60),
            "heal": palette.HEAL_TEXT, "miss": palette.MISS_TEXT, "good": (170, 235, 170), "bad": (255, 150, 130),
            "magic": palette.MAGIC, "crit": palette.CRIT_TEXT, "": palette.UI_TEXT}

#: The colour of a lasting spell area on the floor (grease: oily amber; web: strand white; stinking
#: cloud: a sickly yellow-green).
ZONE_RGB = {"grease": (205, 170, 60), "web": (225, 225, 215), "stinking-cloud": (150, 185, 60)}


class Effects:
    """The effect animations and previews of a scene: drawn from its view ``model`` and
    ``director`` (the animations), through its ``camera``, with its ``sprites`` and ``text``, on
    ``grid``; ``centre(cid, t)`` is where a creature's token is at time ``t`` (the scene's
    :meth:`~sim.render.scene.Scene.token_centre`: a view may move tokens its own way)."""

    def __init__(self, *, model: ViewModel, director: tl.Director, camera: Camera, sprites: Sprites, text: Text,
                 grid: CaveGrid, centre: Callable[[str, float], tuple[float, float]]):
        self.model = model
        self.director = director
        self.camera = camera
        self.sprites = sprites
        self.text = text
        self.grid = grid
        self.centre = centre

    def _px(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.camera.to_screen(x, y)
        return (int(round(sx)), int(round(sy)))

    def _draw_zones(self, surf) -> None:
        """Lasting spell areas (grease): a translucent sheen on each square with a pattern of its
        own (grease: amber with diagonal oily streaks), and an outline round the area."""
        ts = self.camera.ts
        for (spell, _, _), squares in self.model.zones.items():
            rgb = ZONE_RGB.get(spell, palette.MAGIC)
            tile = pygame.Surface((ts, ts), pygame.SRCALPHA)
            tile.fill((*rgb, 120))
            for k in range(-ts, ts, max(3, ts // 4)):
                pygame.draw.line(tile, (*[min(255, v + 60) for v in rgb], 170), (k, ts), (k + ts, 0), max(1, ts // 12))
            for x, y in squares:
                sx, sy = self.camera.to_screen(x, y)
                surf.blit(tile, (int(round(sx)), int(round(sy))))
            square_outline(surf, squares, self.camera, rgb, max(1, ts // 16))

    def draw_ground(self, surf, anims, t) -> None:
        """What burns on the ground (and the lasting spell areas) under the tokens."""
        ts = self.camera.ts
        if self.model.zones:
            self._draw_zones(surf)
        for a in anims:
            if a.kind == tl.FIRE or (a.kind == tl.SPELL and a.data.get("spell") in ("burning-hands", "fireball")):
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
                        flame(surf, fx, fy, ts * 0.2, t, stable_hash(f'{a.t0:.4f}:{i}:{j}'), strength)

    def draw(self, surf, anims, t) -> None:
        """The effects over the tokens: words, projectiles, swings, spells, heals, deaths."""
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
                    x, y = self.centre(a.target, t)
                    sx, sy = self._px(x, y)
                    rr = ts * (0.4 + 1.2 * p)
                    for i in range(10):
                        ang = i * math.pi / 5 + p
                        pygame.draw.line(surf, palette.CRIT_TEXT, (sx + math.cos(ang) * rr * 0.5, sy + math.sin(ang) * rr * 0.5),
                                         (sx + math.cos(ang) * rr, sy + math.sin(ang) * rr), 2)
            elif k == tl.FOCUS and a.actor in m.creatures and p < 0.75:
                x, y = self.centre(a.actor, t)
                sx, sy = self._px(x, y)
                rr = ts * (0.5 + 0.6 * easing.ease_out_cubic(p)) * m.creatures[a.actor].k
                pygame.draw.circle(surf, palette.UI_ACCENT, (sx, sy), int(rr), max(1, int(3 * (1 - p / 0.75))))
            elif k == tl.PROJECTILE and a.actor in m.creatures and a.target in m.creatures:
                x0, y0 = self.centre(a.actor, t)
                x1, y1 = self.centre(a.target, t)
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
                x, y = self.centre(a.target, t)
                sx, sy = self._px(x, y)
                rnd = np.random.default_rng(int(a.t0 * 1000) & 0xFFFFFF)
                for i in range(6):
                    if rnd.random() < easing.pulse(p):
                        ox, oy = rnd.uniform(-0.35, 0.35, 2) * ts
                        pygame.draw.arc(surf, (230, 40, 40), pygame.Rect(sx + ox - 3, sy + oy - 3, 7, 7), 0.3, 2.8, 2)
            elif k == tl.ENGULF and a.target in m.creatures:
                x, y = self.centre(a.target, t)
                sx, sy = self._px(x, y)
                rr = ts * 0.9 * (1 - 0.5 * easing.ease_out_cubic(p))
                dashed_ring(surf, (60, 20, 20) if p < 0.8 else (30, 10, 10), (sx, sy), rr, width=3, dashes=9,
                            phase=p * 6)
            elif k == tl.HEAL and a.target in m.creatures:
                x, y = self.centre(a.target, t)
                sx, sy = self._px(x, y)
                for i in range(8):
                    ang = i * math.pi / 4 + p * 2
                    rr = ts * 0.45
                    py_ = sy - p * ts * 0.8 + math.sin(ang) * rr * 0.4
                    pygame.draw.circle(surf, palette.HEAL_TEXT, (int(sx + math.cos(ang) * rr), int(py_)), 2)
            elif k == tl.LIGHT and a.actor in m.creatures:
                x, y = self.centre(a.actor, t)
                sx, sy = self._px(x, y)
                rr = int(ts * (0.5 + 2.5 * easing.ease_out_cubic(p)))
                g = self.sprites.glow(rr, (255, 200, 120), 0.9 * (1 - p))
                surf.blit(g, (sx - rr, sy - rr), special_flags=pygame.BLEND_RGB_ADD)
            elif k == tl.DEATH and a.target in m.creatures:
                x, y = self.centre(a.target, t)
                sx, sy = self._px(x, y)
                if p < 0.6:
                    rr = ts * (0.3 + 0.7 * p)
                    pygame.draw.circle(surf, palette.mix((200, 40, 40), (30, 0, 0), p / 0.6), (sx, sy), int(rr), 2)

    def _float_text(self, surf, a, p, big=False, slot: int = 0) -> None:
        t = self.director.time_at(1.0)
        x, y = self.centre(a.target, t)
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
        x, y = self.centre(a.actor, t)
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
        x0, y0 = self.centre(a.actor, t)
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
        x0, y0 = self.centre(a.actor, t)
        if spell == "magic-missile":
            for j, tid in enumerate(a.data.get("targets", [])):
                if tid not in m.creatures:
                    continue
                x1, y1 = self.centre(tid, t)
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
        col = {"sleep": (140, 160, 255), "bless": (255, 220, 120), "cure-light-wounds": palette.HEAL_TEXT,
               "cure-moderate-wounds": palette.HEAL_TEXT, "lightning-bolt": (190, 215, 255),
               "light": (255, 250, 210), "darkness": (90, 60, 130), "glitterdust": (255, 215, 90),
               "grease": ZONE_RGB["grease"], "web": ZONE_RGB["web"],
               "stinking-cloud": ZONE_RGB["stinking-cloud"]}.get(spell, palette.MAGIC)
        pts = [self.centre(tid, t) for tid in targets] + [(x + 0.5, y + 0.5) for x, y in squares]
        if spell in ("burning-hands", "fireball"):
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

    def draw_preview(self, surf, pv, area: list, hover, mode: str) -> None:
        """Play's previews: the squares ``area`` a spell aimed would fill, the square under the
        cursor (``hover``), and ``pv``, the path a click there would take (a ``PathPreview``)."""
        ts = self.camera.ts
        if area and mode == "play":
            tile = pygame.Surface((ts, ts), pygame.SRCALPHA)
            tile.fill((*palette.SPELL_AREA, 90))
            for x, y in area:
                sx, sy = self._px(x, y)
                surf.blit(tile, (sx, sy))
                pygame.draw.rect(surf, palette.SPELL_AREA, pygame.Rect(sx, sy, ts, ts), 1)
        if hover is not None and mode == "play":
            hx, hy = hover
            if self.grid.in_bounds((hx, hy)):
                sx, sy = self._px(hx, hy)
                pygame.draw.rect(surf, (255, 255, 255), pygame.Rect(sx, sy, ts, ts), 1)
        if pv is None or not pv.steps:
            if pv is not None and pv.reason and hover is not None:
                sx, sy = self._px(hover[0] + 1, hover[1])
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
