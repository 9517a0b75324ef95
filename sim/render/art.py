"""Procedural art: the cave itself, painted from the map's widths and ceilings with numpy.

The cave is drawn as a cave, not as a table of squares:

* rock is textured stone, lighter where the cave light reaches it, with a lit rim at the edge;
* chamber outlines are organic (the open squares, smoothed and roughened with seeded noise);
* passages narrower than 5 ft are drawn *to scale* as channels through the rock (a 2-ft fissure
  is two fifths of a square wide, a 3-inch crack a hairline);
* the floor is shaded by ceiling height (light under high vaults, dark where it is low) and
  darkened near walls (ambient occlusion), with rubble stones on difficult ground;
* a faint square grid on the floor keeps it a tactical map.

Everything is seeded (the map's name), so the same map always looks the same.
"""

from __future__ import annotations

import zlib

import numpy as np
from scipy import ndimage

from sim.grid import CaveGrid
from sim.render import palette


def _seed_of(grid: CaveGrid, extra: int = 0) -> int:
    return (zlib.crc32(f"{grid.name}|{grid.cols}x{grid.rows}".encode()) + extra) & 0x7FFFFFFF


def _weights(n_out: int, n_in: int, step: float, offset: float, cubic: bool) -> np.ndarray:
    """``(n_out, n_in)`` interpolation matrix sampling a lattice at ``i * step + offset``: cubic
    B-spline weights (smooth, no overshoot) or linear ones; edges clamp."""
    u = np.arange(n_out) * step + offset
    i0 = np.floor(u).astype(np.int64)
    f = u - i0
    m = np.zeros((n_out, n_in))
    rows = np.arange(n_out)
    if cubic:
        w = (((1 - f) ** 3) / 6, (3 * f ** 3 - 6 * f ** 2 + 4) / 6, (-3 * f ** 3 + 3 * f ** 2 + 3 * f + 1) / 6, f ** 3 / 6)
        offs = (-1, 0, 1, 2)
    else:
        w = (1 - f, f)
        offs = (0, 1)
    for o, wt in zip(offs, w):
        np.add.at(m, (rows, np.clip(i0 + o, 0, n_in - 1)), wt)
    return m


def value_noise(shape: tuple[int, int], cell: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise with features about ``cell`` pixels across (a random lattice, B-spline
    interpolated by two small matrix products)."""
    h, w = shape
    gh, gw = int(h / cell) + 4, int(w / cell) + 4
    lattice = rng.random((gh, gw))
    wy = _weights(h, gh, 1.0 / cell, 1.0, True)
    wx = _weights(w, gw, 1.0 / cell, 1.0, True)
    return wy @ lattice @ wx.T


def fbm(shape: tuple[int, int], cell: float, rng: np.random.Generator, octaves: int = 4) -> np.ndarray:
    """Fractal noise: octaves of :func:`value_noise`, normalised to [0, 1]."""
    total = np.zeros(shape)
    amp, norm = 1.0, 0.0
    for i in range(octaves):
        c = max(1.5, cell / (2 ** i))
        total += amp * value_noise(shape, c, rng)
        norm += amp
        amp *= 0.5
    total /= norm
    lo, hi = total.min(), total.max()
    return (total - lo) / (hi - lo + 1e-9)


def _upsample(a: np.ndarray, ts: int, order: int = 1) -> np.ndarray:
    """Grid array -> pixel array, interpolating (linearly) between square centres."""
    rows, cols = a.shape
    wy = _weights(rows * ts, rows, 1.0 / ts, 0.5 / ts - 0.5, False)
    wx = _weights(cols * ts, cols, 1.0 / ts, 0.5 / ts - 0.5, False)
    return wy @ a.astype(np.float64) @ wx.T


def _smooth(t: np.ndarray) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)
    return t * t * (3 - 2 * t)


def floor_mask(grid: CaveGrid, ts: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """Pixel mask of open floor (``[py, px]``): organic outlines round the wide squares, to-scale
    channels through the narrow ones."""
    rng = rng or np.random.default_rng(_seed_of(grid))
    rock = grid.rock
    width = grid.width_ft
    wide = (~rock) & (width >= 5.0)
    H, W = grid.rows * ts, grid.cols * ts
    field = _upsample(wide.astype(np.float64), ts, order=1)
    wobble = fbm((H, W), ts * 0.9, rng, octaves=3) - 0.5
    mask = field + wobble * 0.42 > 0.5
    # keep the middle of every wide square open, and the middle of every rock square closed
    core = np.kron(wide, np.ones((ts, ts), dtype=bool))
    inner = _inner_box(grid.rows, grid.cols, ts, 0.22)
    mask |= core & inner
    mask &= ~(np.kron(rock, np.ones((ts, ts), dtype=bool)) & inner)
    # narrow passages: channels from square centre to the centres of open neighbours
    narrow = (~rock) & (width < 5.0)
    if narrow.any():
        mask |= _channels(grid, ts, narrow, rng)
    _close_corners(mask, rock, ts)
    return mask


def _close_corners(mask: np.ndarray, rock: np.ndarray, ts: int) -> None:
    """Rock where two floor squares touch only at a corner between two rock squares: no one
    passes there (RULES §6.2), so the picture shows no opening (the organic outline would
    otherwise often join them)."""
    from sim.corners import corner_links

    r = max(2.0, 0.36 * ts)
    for (ax, ay), (bx, by) in corner_links(rock):
        cx, cy = max(ax, bx) * ts, max(ay, by) * ts   # the shared corner, in pixels
        ya, yb = int(max(0, cy - r - 1)), int(min(mask.shape[0], cy + r + 1))
        xa, xb = int(max(0, cx - r - 1)), int(min(mask.shape[1], cx + r + 1))
        py, px = np.mgrid[ya:yb, xa:xb]
        mask[ya:yb, xa:xb] &= (px + 0.5 - cx) ** 2 + (py + 0.5 - cy) ** 2 > r * r


def _inner_box(rows: int, cols: int, ts: int, margin: float) -> np.ndarray:
    """Pixels more than ``margin`` of a square from its edges."""
    p = (np.arange(ts) + 0.5) / ts
    inner1 = (p > margin) & (p < 1 - margin)
    box = np.outer(inner1, inner1)
    return np.tile(box, (rows, cols))


def _channels(grid: CaveGrid, ts: int, narrow: np.ndarray, rng) -> np.ndarray:
    H, W = grid.rows * ts, grid.cols * ts
    out = np.zeros((H, W), dtype=bool)
    open_ = ~grid.rock
    rows, cols = grid.shape
    ys, xs = np.nonzero(narrow)
    jitter = rng.uniform(-0.12, 0.12, (rows, cols, 2)) * ts
    for y, x in zip(ys.tolist(), xs.tolist()):
        hw = max(1.0, 0.5 * ts * float(grid.width_ft[y, x]) / 5.0)
        cx, cy = (x + 0.5) * ts + jitter[y, x, 0] * 0.5, (y + 0.5) * ts + jitter[y, x, 1] * 0.5
        links = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            qx, qy = x + dx, y + dy
            if not (0 <= qx < cols and 0 <= qy < rows) or not open_[qy, qx]:
                continue
            if dx and dy:
                # open side squares join them orthogonally; two rock side squares block the
                # diagonal for everyone (RULES §6.2): no channel through a rock corner either way
                continue
            jx = jitter[qy, qx, 0] * 0.5 if narrow[qy, qx] else 0.0
            jy = jitter[qy, qx, 1] * 0.5 if narrow[qy, qx] else 0.0
            links.append(((qx + 0.5) * ts + jx, (qy + 0.5) * ts + jy,
                          max(1.0, 0.5 * ts * min(5.0, float(grid.width_ft[qy, qx])) / 5.0)))
        if not links:
            links.append((cx, cy, hw))
        for bx, by, hw2 in links:
            # the half of the segment near this square uses its own width, the far half the neighbour's
            mx, my = (cx + bx) / 2, (cy + by) / 2
            _capsule(out, cx, cy, mx, my, hw)
            _capsule(out, mx, my, bx, by, min(hw2, hw * 1.6) if narrow[int(by // ts), int(bx // ts)] else hw)
    return out


def _capsule(out: np.ndarray, x0, y0, x1, y1, r) -> None:
    H, W = out.shape
    pad = r + 1
    xa, xb = int(max(0, min(x0, x1) - pad)), int(min(W, max(x0, x1) + pad + 1))
    ya, yb = int(max(0, min(y0, y1) - pad)), int(min(H, max(y0, y1) + pad + 1))
    if xa >= xb or ya >= yb:
        return
    py, px = np.mgrid[ya:yb, xa:xb]
    px = px + 0.5
    py = py + 0.5
    dx, dy = x1 - x0, y1 - y0
    L2 = dx * dx + dy * dy
    if L2 <= 1e-9:
        t = np.zeros_like(px)
    else:
        t = np.clip(((px - x0) * dx + (py - y0) * dy) / L2, 0.0, 1.0)
    qx, qy = x0 + t * dx, y0 + t * dy
    d2 = (px - qx) ** 2 + (py - qy) ** 2
    out[ya:yb, xa:xb] |= d2 <= r * r


def paint_cave(grid: CaveGrid, ts: int, *, grid_lines: bool = True) -> np.ndarray:
    """The cave as an RGB image, ``(rows * ts, cols * ts, 3)`` uint8."""
    rng = np.random.default_rng(_seed_of(grid))
    H, W = grid.rows * ts, grid.cols * ts
    floor = floor_mask(grid, ts, rng)
    tex_big = fbm((H, W), ts * 2.5, rng, octaves=4)
    tex_fine = fbm((H, W), max(2.0, ts * 0.35), rng, octaves=3)

    # -- floor: ceiling height -> colour, texture, occlusion ------------------------------------------
    open_ = (~grid.rock).astype(np.float64)
    hgt = np.where(grid.rock, 0.0, np.minimum(grid.height_ft, 20.0))
    num = _upsample(hgt * open_, ts)
    den = _upsample(open_, ts)
    h_px = np.where(den > 1e-3, num / np.maximum(den, 1e-3), 8.0)
    # narrow channels take their own square's ceiling (no smoothing across the rock)
    h_sq = np.kron(np.where(grid.rock, 8.0, grid.height_ft), np.ones((ts, ts)))
    narrow_px = np.kron((~grid.rock) & (grid.width_ft < 5.0), np.ones((ts, ts), dtype=bool))
    h_px = np.where(narrow_px, h_sq, h_px)
    t = (np.clip(h_px, 2.0, 16.0) - 2.0) / 14.0
    t = t ** 0.7
    lo = np.array(palette.FLOOR_LOW, dtype=np.float64)
    hi = np.array(palette.FLOOR_HIGH, dtype=np.float64)
    col_floor = lo[None, None, :] + (hi - lo)[None, None, :] * t[..., None]
    col_floor *= (0.84 + 0.24 * tex_fine + 0.22 * (tex_big - 0.5))[..., None]
    dist_in = ndimage.distance_transform_edt(floor)
    ao = 0.42 + 0.58 * _smooth(dist_in / (0.55 * ts))
    ao = np.where(narrow_px, np.maximum(ao, 0.85), ao)   # a channel is narrow by design: keep it readable
    col_floor *= ao[..., None]
    # low ceilings (under 6 ft): faint hatching, stronger the lower it is
    yy, xx = np.mgrid[0:H, 0:W]
    hatch_period = max(4, ts // 4)
    hatch = ((xx + yy) % hatch_period) < max(1, hatch_period // 4)
    low = np.clip((6.0 - h_px) / 4.0, 0.0, 1.0)
    col_floor *= (1.0 - 0.22 * (hatch * low))[..., None]
    # drop shadow from the rock (light from the top-left)
    s = max(2, ts // 7)
    rock_px = ~floor
    shadow = np.zeros_like(floor)
    shadow[s:, s:] = rock_px[:-s, :-s]
    col_floor *= np.where(shadow & floor & ~narrow_px, 0.72, 1.0)[..., None]
    # rubble: stones on difficult squares
    if grid.difficult.any():
        _rubble(col_floor, grid, ts, rng, floor)

    # -- rock -----------------------------------------------------------------------------------------------
    dist_out = ndimage.distance_transform_edt(rock_px)
    rd = np.array(palette.ROCK_DARK, dtype=np.float64)
    rl = np.array(palette.ROCK_LIGHT, dtype=np.float64)
    base = rd[None, None, :] + (rl - rd)[None, None, :] * (0.25 + 0.75 * tex_big)[..., None]
    near = 1.0 - _smooth(dist_out / (0.9 * ts))
    col_rock = base * (0.62 + 0.5 * near)[..., None]
    col_rock *= (0.7 + 0.5 * tex_fine)[..., None]
    ridges = np.abs(tex_big - 0.5) < 0.01
    col_rock *= np.where(ridges, 0.55, 1.0)[..., None]
    rim = (dist_out > 0) & (dist_out <= max(1.5, ts / 12))
    rimc = np.array(palette.ROCK_RIM, dtype=np.float64)
    col_rock = np.where(rim[..., None], rimc * (0.85 + 0.3 * tex_fine[..., None]), col_rock)

    img = np.where(floor[..., None], col_floor, col_rock)
    if grid_lines and ts >= 8:
        gl = ((xx % ts) == 0) | ((yy % ts) == 0)
        img *= np.where(gl & floor, 0.8, 1.0)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _rubble(col: np.ndarray, grid: CaveGrid, ts: int, rng, floor: np.ndarray) -> None:
    ys, xs = np.nonzero(grid.difficult)
    H, W = floor.shape
    for y, x in zip(ys.tolist(), xs.tolist()):
        n = 5 + ts // 8
        for _ in range(n):
            r = rng.uniform(0.06, 0.16) * ts
            cx = (x + rng.uniform(0.1, 0.9)) * ts
            cy = (y + rng.uniform(0.1, 0.9)) * ts
            xa, xb = int(max(0, cx - r - 1)), int(min(W, cx + r + 2))
            ya, yb = int(max(0, cy - r - 1)), int(min(H, cy + r + 2))
            py, px = np.mgrid[ya:yb, xa:xb]
            d = np.hypot(px + 0.5 - cx, (py + 0.5 - cy) * 1.25) / r
            stone = (d < 1.0) & floor[ya:yb, xa:xb]
            light = np.clip(1.15 - 0.45 * d - 0.25 * ((px - cx + py - cy) / (r + 1e-6)), 0.5, 1.3)
            c = np.array(palette.RUBBLE, dtype=np.float64) * rng.uniform(0.85, 1.2)
            patch = col[ya:yb, xa:xb]
            patch[stone] = (c[None, :] * light[stone][:, None])
            edge = (d >= 1.0) & (d < 1.25) & floor[ya:yb, xa:xb]
            patch[edge] *= 0.75


def category_rgba(cats: np.ndarray, rock: np.ndarray, ts: int, *, alpha: int = 118) -> np.ndarray:
    """A category overlay as an RGBA image: each floor square in its category's colour, inset by
    one pixel so the squares read; Impassable floor hatched."""
    lut = np.array([palette.category_rgb(i) for i in range(7)], dtype=np.uint8)
    rows, cols = cats.shape
    rgb = lut[np.minimum(cats, 6)]
    img = np.zeros((rows * ts, cols * ts, 4), dtype=np.uint8)
    img[..., :3] = np.kron(rgb, np.ones((ts, ts, 1), dtype=np.uint8))
    a = np.where(rock, 0, alpha).astype(np.uint8)
    img[..., 3] = np.kron(a, np.ones((ts, ts), dtype=np.uint8))
    if ts >= 6:
        p = np.arange(ts)
        edge1 = (p == 0) | (p == ts - 1)
        edge = np.logical_or.outer(edge1, edge1)
        e = np.tile(edge, (rows, cols))
        img[..., 3][e] = (img[..., 3][e] * 0.35).astype(np.uint8)
        imp = np.kron((cats >= 6) & ~rock, np.ones((ts, ts), dtype=bool))
        yy, xx = np.mgrid[0:rows * ts, 0:cols * ts]
        stripe = ((xx - yy) % max(4, ts // 3)) < 2
        img[..., :3][imp & stripe] = (200, 60, 60)
        img[..., 3][imp & stripe] = 200
    return img


def picture_floor(grid: CaveGrid, ts: int) -> np.ndarray | None:
    """The map's own floor picture (``[map] image``, e.g. an imported Dungeondraft map) scaled to
    ``ts`` pixels per square, ``(rows * ts, cols * ts, 3)`` uint8; rock squares are darkened
    so the rules' walls read on it, and a faint grid is drawn. None when the map has no picture
    (or it cannot be read any more)."""
    if grid.image is None:
        return None
    from PIL import Image

    try:
        with Image.open(grid.image) as im:
            pic = im.convert("RGB").resize((grid.cols * ts, grid.rows * ts), Image.Resampling.LANCZOS)
    except OSError:
        return None
    img = np.asarray(pic, dtype=np.float64)
    rock = np.kron(grid.rock, np.ones((ts, ts), dtype=bool))
    dark = np.array(palette.ROCK_DARK, dtype=np.float64)
    img = np.where(rock[..., None], 0.45 * img + 0.55 * dark, img)
    if ts >= 8:
        H, W = img.shape[:2]
        yy, xx = np.mgrid[0:H, 0:W]
        gl = ((xx % ts) == 0) | ((yy % ts) == 0)
        img *= np.where(gl & ~rock, 0.85, 1.0)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


ARTS = ("image", "cave")  # what the floor can be: the map's own picture, or the painted cave


def paint_floor(grid: CaveGrid, ts: int, *, art: str = "image") -> np.ndarray:
    """What the renderer draws under everything: the map's picture when it has one and ``art`` is
    ``"image"``, else the procedural cave (:func:`paint_cave`)."""
    if art == "image":
        pic = picture_floor(grid, ts)
        if pic is not None:
            return pic
    return paint_cave(grid, ts)
