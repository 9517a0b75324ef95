"""pygame drawing primitives: token sprites (cached per look), badges, glows, flames, and the
swarm particles (written straight into the frame's pixels with numpy)."""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np
import pygame

from sim.maps import palette
from sim.render.portray import SWARM_STYLES, Pose
from sim.render.text import Text


class _LRU(OrderedDict):
    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def put(self, key, value):
        if pygame.display.get_surface() is not None:  # the screen's pixel format blits fastest
            value = value.convert_alpha() if value.get_flags() & pygame.SRCALPHA else value.convert()
        self[key] = value
        if len(self) > self.limit:
            self.popitem(last=False)
        return value

    def take(self, key):
        v = self.get(key)
        if v is not None:
            self.move_to_end(key)
        return v


def _surface(w: int, h: int) -> pygame.Surface:
    return pygame.Surface((max(1, int(w)), max(1, int(h))), pygame.SRCALPHA)


def _ellipse_gradient(surf: pygame.Surface, rect: pygame.Rect, rgb, *, light=0.35, dark=0.42, steps: int = 7):
    """A shaded ellipse: dark rim to a lighter centre up and to the left (a rounded token)."""
    base_dark = palette.shade(rgb, dark)
    base_light = palette.mix(rgb, (255, 255, 255), light)
    pygame.draw.ellipse(surf, base_dark, rect)
    for i in range(1, steps):
        f = i / steps
        w = rect.w * (1 - 0.75 * f)
        h = rect.h * (1 - 0.75 * f)
        cx = rect.centerx - rect.w * 0.12 * f
        cy = rect.centery - rect.h * 0.12 * f
        c = palette.mix(palette.shade(rgb, 0.62), base_light, f)
        pygame.draw.ellipse(surf, c, pygame.Rect(cx - w / 2, cy - h / 2, w, h))


class Sprites:
    """Cached sprites. Sizes are in pixels; angles in degrees (0 = along x, y down)."""

    def __init__(self, text: Text):
        self.text = text
        self._cache = _LRU(600)

    # -- tokens ---------------------------------------------------------------------------------------------
    def token(self, *, rgb, glyph: str, radius: float, pose: Pose, line_px: float = 0.0) -> pygame.Surface:
        """A creature token, centred in the returned surface."""
        r = max(3, int(round(radius)))
        ang = int(round(pose.angle)) % 360
        key = ("tok", rgb, glyph, r, pose.kind, ang, round(pose.squeeze, 2), int(line_px))
        s = self._cache.take(key)
        if s is None:
            s = self._cache.put(key, self._make_token(rgb, glyph, r, pose, ang, line_px))
        return s

    def _make_token(self, rgb, glyph, r, pose: Pose, ang, line_px) -> pygame.Surface:
        kind = pose.kind
        if kind in ("prone", "down", "dead"):
            length, width = 2.3 * r, 1.15 * r
        elif kind == "squeezed":
            length, width = 2 * r * 1.08, 2 * r * pose.squeeze
        elif kind == "crouched":
            length = width = 2 * r * pose.squeeze
        elif kind == "line":
            length, width = line_px + 2 * r * 0.9, 2 * r * max(0.5, min(0.9, pose.squeeze * 1.4))
        else:
            length = width = 2 * r
        pad = 6
        body = _surface(length + 2 * pad, width + 2 * pad)
        rect = pygame.Rect(pad, pad, int(length), int(width))
        col = rgb
        if kind == "down":
            col = palette.mix(rgb, (120, 110, 110), 0.55)
        elif kind == "dead":
            col = palette.mix(rgb, (70, 66, 66), 0.75)
        # shadow
        sh = rect.move(2, 3)
        pygame.draw.ellipse(body, (0, 0, 0, 110), sh.inflate(2, 2))
        if kind == "line":
            _capsule(body, rect, palette.shade(col, 0.45))
            inner = rect.inflate(-max(2, r // 4), -max(2, r // 4))
            _capsule(body, inner, palette.shade(col, 0.72))
            _capsule_outline(body, rect, col, max(2, r // 7))
        else:
            _ellipse_gradient(body, rect, col)
            ring = max(2, r // 7) if kind != "dead" else 1
            pygame.draw.ellipse(body, col if kind != "dead" else (40, 36, 36), rect, ring)
            pygame.draw.ellipse(body, palette.shade(col, 0.3), rect.inflate(-2 * ring, -2 * ring), 1)
        if kind in ("prone", "down", "dead"):
            # a head at the front end, so a lying figure reads as one
            hr = max(2, int(r * 0.36))
            hx = rect.right - hr - max(1, r // 6)
            hy = rect.centery
            head_col = palette.mix(col, (230, 200, 170), 0.45) if kind != "dead" else (90, 84, 80)
            pygame.draw.circle(body, palette.shade(head_col, 0.6), (hx, hy), hr + 1)
            pygame.draw.circle(body, head_col, (hx, hy), hr)
        if kind == "dead":
            c = (150, 40, 40)
            w = max(2, r // 5)
            cx, cy = rect.centerx - r // 4, rect.centery
            d = int(r * 0.5)
            pygame.draw.line(body, c, (cx - d, cy - d // 1.6), (cx + d, cy + d // 1.6), w)
            pygame.draw.line(body, c, (cx - d, cy + d // 1.6), (cx + d, cy - d // 1.6), w)
        if ang:
            body = pygame.transform.rotate(body, -ang)
        if kind != "dead" and glyph:
            size = int(r * (1.25 if len(glyph) == 1 else 0.95))
            if kind in ("squeezed", "prone", "down", "line"):
                size = int(size * 0.85)
            size = max(10, size)
            g = self.text.render(glyph, size, (255, 255, 255), outline=(0, 0, 0))
            bw, bh = body.get_size()
            body.blit(g, ((bw - g.get_width()) // 2, (bh - g.get_height()) // 2 + 1))
        return body

    def badge(self, text: str, rgb, r: int) -> pygame.Surface:
        key = ("badge", text, rgb, r)
        s = self._cache.take(key)
        if s is None:
            s = _surface(2 * r + 2, 2 * r + 2)
            pygame.draw.circle(s, (10, 10, 12), (r + 1, r + 1), r + 1)
            pygame.draw.circle(s, rgb, (r + 1, r + 1), r)
            lum = 0.3 * rgb[0] + 0.59 * rgb[1] + 0.11 * rgb[2]
            tc = (20, 20, 20) if lum > 140 else (255, 255, 255)
            g = self.text.render(text, max(10, int(r * 1.9)), tc)
            s.blit(g, (r + 1 - g.get_width() // 2, r + 2 - g.get_height() // 2))
            self._cache.put(key, s)
        return s

    # -- light and effects ---------------------------------------------------------------------------------------
    def glow(self, radius: int, rgb, strength: float = 1.0) -> pygame.Surface:
        """A radial glow (for additive blending): ``rgb`` at the centre fading to black."""
        radius = max(2, int(radius))
        key = ("glow", radius, rgb, round(strength, 2))
        s = self._cache.take(key)
        if s is None:
            d = 2 * radius
            yy, xx = np.mgrid[0:d, 0:d]
            dist = np.hypot(xx + 0.5 - radius, yy + 0.5 - radius) / radius
            f = np.clip(1 - dist, 0, 1) ** 1.8 * strength
            arr = (np.array(rgb)[None, None, :] * f[..., None]).astype(np.uint8)
            s = pygame.surfarray.make_surface(arr.transpose(1, 0, 2))
            self._cache.put(key, s)
        return s

    def soft(self, radius: int, rgba, *, flat: bool = False) -> pygame.Surface:
        """A soft disc with alpha fading to the edge (hazes, shadows, flashes); ``flat``: solid
        to half the radius, then fading."""
        radius = max(2, int(radius))
        key = ("soft", radius, rgba, flat)
        s = self._cache.take(key)
        if s is None:
            d = 2 * radius
            yy, xx = np.mgrid[0:d, 0:d]
            dist = np.hypot(xx + 0.5 - radius, yy + 0.5 - radius) / radius
            f = np.clip((1 - dist) / 0.5, 0, 1) if flat else np.clip(1 - dist, 0, 1) ** 1.2
            a = (f * rgba[3]).astype(np.uint8)
            s = _surface(d, d)
            pygame.surfarray.pixels3d(s)[...] = rgba[:3]
            pygame.surfarray.pixels_alpha(s)[...] = a.T
            self._cache.put(key, s)
        return s

    def disc(self, radius: int, rgba) -> pygame.Surface:
        radius = max(1, int(radius))
        key = ("disc", radius, rgba)
        s = self._cache.take(key)
        if s is None:
            s = _surface(2 * radius + 1, 2 * radius + 1)
            pygame.draw.circle(s, rgba, (radius, radius), radius)
            self._cache.put(key, s)
        return s


def _capsule(surf, rect: pygame.Rect, rgb) -> None:
    r = rect.h // 2
    pygame.draw.rect(surf, rgb, rect, border_radius=r)


def _capsule_outline(surf, rect: pygame.Rect, rgb, w: int) -> None:
    r = rect.h // 2
    pygame.draw.rect(surf, rgb, rect, width=w, border_radius=r)


def flame(surf: pygame.Surface, x: float, y: float, size: float, t: float, seed: int, strength: float = 1.0) -> None:
    """A flickering flame (a few stacked, jittered circles in fire colours) at screen (x, y)."""
    if strength <= 0.02 or size < 1:
        return
    rng = np.random.default_rng((seed * 7919 + int(t * 24)) & 0xFFFFFFFF)
    n = 4
    for i in range(n):
        f = i / n
        c = palette.FIRE[min(len(palette.FIRE) - 1, 3 - i)]
        rr = size * (1.0 - 0.7 * f) * (0.8 + 0.4 * rng.random()) * strength
        ox = (rng.random() - 0.5) * size * 0.5
        oy = -size * 0.9 * f - rng.random() * size * 0.3
        if rr >= 1:
            pygame.draw.circle(surf, c, (int(x + ox), int(y + oy)), int(rr))


def draw_particles(surf: pygame.Surface, lists, cam, clip: pygame.Rect) -> int:
    """Write every visible swarm particle into ``surf``'s pixels (all clouds of a kind in one
    batch of numpy writes). Returns how many were drawn."""
    if not lists:
        return 0
    ts = cam.ts
    scale = max(1, int(round(ts / 22)))
    ox, oy = cam.to_screen(0, 0)
    x0, y0, x1, y1 = clip.left + 3 * scale, clip.top + 3 * scale, clip.right - 3 * scale, clip.bottom - 3 * scale
    by_kind: dict[str, list] = {}
    for cl, pos, colour, vel, phase in lists:
        by_kind.setdefault(cl.kind, []).append((pos, colour, vel, phase))
    total = 0
    try:
        px = pygame.surfarray.pixels2d(surf)
    except (ValueError, pygame.error):
        return 0
    try:
        for kind, parts in by_kind.items():
            style = SWARM_STYLES[kind]
            cols = np.array([surf.map_rgb(c) for c in style.colours], dtype=px.dtype)
            pos = np.concatenate([p[0] for p in parts]) if len(parts) > 1 else parts[0][0]
            colour = np.concatenate([p[1] for p in parts]) if len(parts) > 1 else parts[0][1]
            vel = np.concatenate([p[2] for p in parts]) if len(parts) > 1 else parts[0][2]
            phase = np.concatenate([p[3] for p in parts]) if len(parts) > 1 else parts[0][3]
            sx = (ox + pos[:, 0] * ts).astype(np.int64)
            sy = (oy + pos[:, 1] * ts).astype(np.int64)
            ok = (sx >= x0) & (sx < x1) & (sy >= y0) & (sy < y1)
            if not ok.all():
                sx, sy, colour, vel, phase = sx[ok], sy[ok], colour[ok], vel[ok], phase[ok]
            if len(sx) == 0:
                continue
            c = cols[colour]
            total += len(sx)
            for dx, dy, mask, fixed in _stamps(kind, vel, phase, small=ts < 18):
                bx = sx + np.asarray(dx) * scale
                by = sy + np.asarray(dy) * scale
                cc = c if fixed is None else surf.map_rgb(fixed)
                if mask is not None:
                    bx, by = bx[mask], by[mask]
                    if fixed is None:
                        cc = c[mask]
                if scale == 1:
                    px[bx, by] = cc
                else:
                    for ix in range(scale):
                        for iy in range(scale):
                            px[bx + ix, by + iy] = cc
    finally:
        del px
    return total


def _stamps(kind: str, vel: np.ndarray, phase: np.ndarray, *, small: bool = False):
    """Pixel offsets (dx, dy, mask or None, fixed colour or None) drawing one particle; ``small``:
    the three or four pixels that still read at a far zoom."""
    if small:
        if kind == "bat":
            up = np.sin(phase) > 0
            return [(0, 0, None, None), (-1, -1, up, None), (1, -1, up, None), (-1, 1, ~up, None), (1, 1, ~up, None)]
        if kind == "rat":
            ang = np.arctan2(vel[:, 1], vel[:, 0])
            dx = np.rint(np.cos(ang)).astype(np.int64)
            dy = np.rint(np.sin(ang)).astype(np.int64)
            return [(0, 0, None, None), (-dx, -dy, None, None), (dx, dy, None, (140, 118, 102))]
        if kind == "wasp":
            return [(0, 0, None, None), (1, 0, None, (30, 24, 8))]
        return [(0, 0, None, None), (1, 0, None, None), (0, 1, None, None)]
    if kind == "bat":
        up = np.sin(phase) > 0
        down = ~up
        return [(0, 0, None, None),
                (-1, -1, up, None), (1, -1, up, None), (-2, -1, up, None), (2, -1, up, None),
                (-1, 0, down, None), (1, 0, down, None), (-2, 1, down, None), (2, 1, down, None)]
    if kind == "rat":
        ang = np.arctan2(vel[:, 1], vel[:, 0])
        dx = np.rint(np.cos(ang)).astype(np.int64)
        dy = np.rint(np.sin(ang)).astype(np.int64)
        return [(1, 1, None, (30, 22, 18)), (dx + 1, dy + 1, None, (30, 22, 18)),           # shadow
                (-2 * dx, -2 * dy, None, (112, 90, 84)), (-3 * dx - dy, -3 * dy + dx, None, (112, 90, 84)),  # tail
                (0, 0, None, None), (-dx, -dy, None, None), (dx, dy, None, None),          # body
                (2 * dx, 2 * dy, None, (140, 118, 102))]                                   # head
    if kind == "wasp":
        flick = np.sin(phase * 1.7) > 0
        return [(0, 0, None, None), (1, 0, None, (30, 24, 8)), (-1, 0, None, None), (0, -1, flick, (150, 158, 180))]
    # crawler
    legs = np.sin(phase) > 0
    return [(0, 0, None, None), (1, 0, None, None), (0, 1, None, None), (1, 1, None, None),
            (-1, -1, legs, None), (2, 2, legs, None), (2, -1, ~legs, None), (-1, 2, ~legs, None)]


def dashed_ring(surf, rgb, centre, radius: float, *, width: int = 2, dashes: int = 14, phase: float = 0.0) -> None:
    cx, cy = centre
    for i in range(dashes):
        a0 = phase + 2 * math.pi * i / dashes
        a1 = a0 + math.pi / dashes
        pygame.draw.arc(surf, rgb, pygame.Rect(cx - radius, cy - radius, 2 * radius, 2 * radius), -a1, -a0, width)


def stable_hash(text: str) -> int:
    """A seed from a string that is the same in every process (``hash`` of a str is not)."""
    import zlib

    return zlib.crc32(text.encode()) & 0xFFFF


def square_outline(surf, squares, cam, rgb, width: int = 1) -> None:
    """Outline the edge of a set of squares (on screen through ``cam``)."""
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
