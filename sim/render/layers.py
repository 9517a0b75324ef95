"""The cave under everything (a part owned by :class:`~sim.render.scene.Scene`): the painted cave,
cached per zoom (painted once at a high resolution and resized for other zooms), and the
overlays baked into a cached copy of it (category colours for a size or a creature, reach,
travel-time contours), rebuilt only when what they show changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pygame

from sim.maps import palette
from sim.render import art
from sim.render.text import Text
from sim.terrain.grid import CaveGrid
from sim.view.model import ViewModel
from sim.view.world import World


@dataclass(frozen=True)
class Overlaid:
    """What the overlays of a frame show: the overlay switches (``Scene.overlays``), the creature
    they are about, and the view and engine world they are read from."""

    overlays: dict
    selected: str | None
    model: ViewModel
    world: World


class CaveLayers:
    """The map layer and overlay caches of a scene on ``grid`` (labels drawn with ``text``).
    ``maps`` and ``painted`` (zoom -> surface) may be shared between scenes on the same grid
    (an export's frames)."""

    def __init__(self, grid: CaveGrid, text: Text):
        self.grid = grid
        self.text = text
        self.maps: dict[int, pygame.Surface] = {}      # the cave at each zoom shown
        self.painted: dict[int, pygame.Surface] = {}   # the cave painted exactly at a zoom
        self._base_ts: int | None = None
        self._comp: pygame.Surface | None = None
        self._comp_key = None
        self._ov_cache: dict = {}

    def forget_composite(self) -> None:
        """Build the composite anew at the next frame (another engine world behind the view)."""
        self._comp = None

    def map_layer(self, ts: int, *, fit_ts: int, crisp: bool) -> pygame.Surface:
        """The painted cave at ``ts`` pixels per square: painted exactly at the fitted zoom
        ``fit_ts`` (or at every zoom: ``crisp``), else scaled from one high-resolution painting
        (so zooming costs a resize, not a repaint)."""
        s = self.maps.get(ts)
        if s is not None:
            return s
        g = self.grid
        if self._base_ts is None:
            budget = 12_000_000
            self._base_ts = max(4, min(40, int(math.sqrt(budget / max(1, g.cols * g.rows)))))
        if ts == fit_ts or ts == self._base_ts or ts <= 8 or crisp:
            s = self._paint(ts)
        else:
            base = self.painted.get(self._base_ts) or self._paint(self._base_ts)
            s = pygame.transform.smoothscale(base, (g.cols * ts, g.rows * ts))
        if len(self.maps) > 8:
            for k in list(self.maps):
                if k not in (ts, self._base_ts, fit_ts):
                    del self.maps[k]
                    break
        self.maps[ts] = s
        return s

    def _paint(self, ts: int) -> pygame.Surface:
        s = self.painted.get(ts)
        if s is None:
            img = art.paint_floor(self.grid, ts)
            s = pygame.image.frombuffer(np.ascontiguousarray(img).tobytes(), (img.shape[1], img.shape[0]), "RGB")
            if pygame.display.get_surface() is not None:
                s = s.convert()
            self.painted[ts] = s
        return s

    @staticmethod
    def _overlay_key(on: Overlaid):
        ov = on.overlays
        cid = on.selected
        parts = [("size", ov["size"])] if ov.get("size") is not None else []
        cv = on.model.get(cid)
        if cv is not None and cv.alive:
            version = len(on.world.enc.events) if on.world.live else on.model.version
            if ov.get("creature") and ov.get("size") is None:
                parts.append(("creature", cv.template, cv.swarm, cv.armor_off))
            if ov.get("reach"):
                parts.append(("reach", cid, cv.pos, cv.prone, version))
            if ov.get("contours"):
                parts.append(("contours", cid, cv.pos, cv.prone, version))
        return tuple(parts)

    def composite(self, ts: int, on: Overlaid, *, fit_ts: int, crisp: bool) -> pygame.Surface:
        """The cave at ``ts`` with the overlays ``on`` asks for baked in (cached until they change)."""
        key = (ts, self._overlay_key(on))
        if self._comp is not None and key == self._comp_key:
            return self._comp
        base = self.map_layer(ts, fit_ts=fit_ts, crisp=crisp)
        if not key[1]:
            self._comp, self._comp_key = base, key
            return base
        comp = base.copy()
        on.world.sync(on.model)
        for part in key[1]:
            s = self._overlay_surface(part, ts, on)
            if s is not None:
                comp.blit(s, (0, 0))
        self._comp, self._comp_key = comp, key
        return comp

    def _overlay_surface(self, part, ts: int, on: Overlaid) -> pygame.Surface | None:
        kind = part[0]
        g = self.grid
        if kind in ("size", "creature"):
            ck = (part, ts)
            s = self._ov_cache.get(ck)
            if s is None:
                cats = (on.world.size_categories(part[1]) if kind == "size"
                        else on.world.creature_categories(on.selected))
                img = art.category_rgba(cats, g.rock, ts)
                s = _rgba_surface(img)
                if len(self._ov_cache) > 24:
                    self._ov_cache.clear()
                self._ov_cache[ck] = s
            return s
        cid = part[1]
        if kind == "reach":
            r = on.world.reach(cid)
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
            d = on.world.travel(cid)
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
