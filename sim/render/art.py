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

from sim.base.jit import numba
from sim.maps import palette
from sim.terrain.grid import CaveGrid


def _seed_of(grid: CaveGrid, extra: int = 0) -> int:
    return (zlib.crc32(f"{grid.name}|{grid.cols}x{grid.rows}".encode()) + extra) & 0x7FFFFFFF


def _taps(n_out: int, n_in: int, step: float, offset: float, cubic: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """Interpolation taps sampling a lattice of ``n_in`` points at ``i * step + offset`` for
    ``i < n_out``: a list of (lattice index, weight) arrays, one per tap, of cubic B-spline
    weights (smooth, no overshoot) or linear ones; edges clamp (a clamped index repeats, so its
    weights add up)."""
    u = np.arange(n_out) * step + offset
    i0 = np.floor(u).astype(np.int64)
    f = u - i0
    if cubic:
        w = (((1 - f) ** 3) / 6, (3 * f ** 3 - 6 * f ** 2 + 4) / 6, (-3 * f ** 3 + 3 * f ** 2 + 3 * f + 1) / 6, f ** 3 / 6)
        offs = (-1, 0, 1, 2)
    else:
        w = (1 - f, f)
        offs = (0, 1)
    return [(np.clip(i0 + o, 0, n_in - 1), wt.astype(np.float32)) for o, wt in zip(offs, w)]


def _resample(a: np.ndarray, ty, tx, out: np.ndarray | None = None, amp: float = 1.0) -> np.ndarray:
    """A small 2-D array interpolated to full size with separable taps: along the columns on
    the small array first, then whole rows mixed (compiled, one pass) for the full one; a few
    multiply-adds per pixel, never a dense interpolation matrix. With ``out``, ``amp`` times the
    result is added to it."""
    a = a.astype(np.float32)
    cols = sum(a[:, i] * w[None, :] for i, w in tx).astype(np.float32)
    idx = np.stack([i for i, _ in ty])
    wts = np.stack([w for _, w in ty]).astype(np.float32)
    if out is None:
        out = np.zeros((len(ty[0][0]), cols.shape[1]), dtype=np.float32)
    _mix_rows(cols, idx, wts, out, np.float32(amp))
    return out


@numba.njit(cache=True, nogil=True)
def _mix_rows(cols, idx, wts, out, amp) -> None:  # pragma: no cover - compiled
    """``out[y] += amp * sum_k wts[k, y] * cols[idx[k, y]]``."""
    taps, h = idx.shape
    w = cols.shape[1]
    for y in range(h):
        for k in range(taps):
            r = idx[k, y]
            c = wts[k, y] * amp
            for x in range(w):
                out[y, x] += c * cols[r, x]


def value_noise(shape: tuple[int, int], cell: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise with features about ``cell`` pixels across (a random lattice, B-spline
    interpolated), float32."""
    h, w = shape
    gh, gw = int(h / cell) + 4, int(w / cell) + 4
    lattice = rng.random((gh, gw))
    return _resample(lattice, _taps(h, gh, 1.0 / cell, 1.0, True), _taps(w, gw, 1.0 / cell, 1.0, True))


def fbm(shape: tuple[int, int], cell: float, rng: np.random.Generator, octaves: int = 4) -> np.ndarray:
    """Fractal noise: octaves of :func:`value_noise`, normalised to [0, 1] (float32)."""
    total = np.zeros(shape, dtype=np.float32)
    amp, norm = 1.0, 0.0
    h, w = shape
    for i in range(octaves):
        c = max(1.5, cell / (2 ** i))
        gh, gw = int(h / c) + 4, int(w / c) + 4
        lattice = rng.random((gh, gw))   # as value_noise(shape, c, rng), added into the total
        _resample(lattice, _taps(h, gh, 1.0 / c, 1.0, True), _taps(w, gw, 1.0 / c, 1.0, True), total, amp)
        norm += amp
        amp *= 0.5
    lo, hi = float(total.min()), float(total.max())
    total -= np.float32(lo)
    total *= np.float32(1.0 / (hi - lo + 1e-9))
    return total


def _upsample(a: np.ndarray, ts: int, order: int = 1) -> np.ndarray:
    """Grid array -> pixel array (float32), interpolating (linearly) between square centres."""
    rows, cols = a.shape
    return _resample(a, _taps(rows * ts, rows, 1.0 / ts, 0.5 / ts - 0.5, False),
                     _taps(cols * ts, cols, 1.0 / ts, 0.5 / ts - 0.5, False))


@numba.njit(cache=True, nogil=True)
def _edt_kernel(mask: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Exact Euclidean distance from every True pixel to the nearest False one (0 on False
    pixels), as ``scipy.ndimage.distance_transform_edt`` gives it: squared distances along the
    columns, then the lower envelope of parabolas along each row (Felzenszwalb and Huttenlocher,
    "Distance transforms of sampled functions", 2012)."""
    h, w = mask.shape
    inf = 1e20
    g = np.empty((h, w), dtype=np.float64)
    for y in range(h):   # 1-D distance along each column: down (row by row, in memory order)...
        for x in range(w):
            if not mask[y, x]:
                g[y, x] = 0.0
            else:
                g[y, x] = g[y - 1, x] + 1.0 if y > 0 else inf
    for y in range(h - 2, -1, -1):   # ... then back up
        for x in range(w):
            d = g[y + 1, x] + 1.0
            if d < g[y, x]:
                g[y, x] = d
    out = np.empty((h, w), dtype=np.float32)
    v = np.empty(w, dtype=np.int64)
    z = np.empty(w + 1, dtype=np.float64)
    f = np.empty(w, dtype=np.float64)
    for y in range(h):
        for x in range(w):
            gx = g[y, x]
            f[x] = gx * gx if gx < inf else inf
        k = 0
        v[0] = 0
        z[0] = -inf
        z[1] = inf
        for q in range(1, w):
            if f[q] >= inf:
                continue
            if f[v[0]] >= inf and k == 0:   # no real parabola yet: this one starts the envelope
                v[0] = q
                continue
            s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2.0 * q - 2.0 * v[k])
            while s <= z[k]:
                k -= 1
                s = ((f[q] + q * q) - (f[v[k]] + v[k] * v[k])) / (2.0 * q - 2.0 * v[k])
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = inf
        if f[v[0]] >= inf:   # no background pixel anywhere in reach of this row
            for x in range(w):
                out[y, x] = np.float32(inf)
            continue
        k = 0
        for x in range(w):
            while z[k + 1] < x:
                k += 1
            dx = x - v[k]
            out[y, x] = np.float32(np.sqrt(dx * dx + f[v[k]]))
    return out


def distance_to_edge(mask: np.ndarray) -> np.ndarray:
    """Float32 distance (pixels) from each True pixel to the nearest False pixel, 0 on False ones
    (a compiled exact Euclidean transform: the painting's occlusion and rock shading)."""
    return _edt_kernel(np.ascontiguousarray(mask, dtype=np.bool_))


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
    from sim.terrain.corners import corner_links

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
    """The cave as an RGB image, ``(rows * ts, cols * ts, 3)`` uint8: the noise, the mask and
    the two distance maps as arrays, the colour of each pixel from them in one compiled pass
    (:func:`_shade_kernel`), then the rubble and the grid lines."""
    f32 = np.float32
    rng = np.random.default_rng(_seed_of(grid))
    H, W = grid.rows * ts, grid.cols * ts
    floor = floor_mask(grid, ts, rng)
    tex_big = fbm((H, W), ts * 2.5, rng, octaves=4)
    tex_fine = fbm((H, W), max(2.0, ts * 0.35), rng, octaves=3)
    # the ceiling height at each pixel: smooth across open squares; narrow channels take their
    # own square's ceiling (no smoothing across the rock)
    open_ = (~grid.rock).astype(np.float64)
    hgt = np.where(grid.rock, 0.0, np.minimum(grid.height_ft, 20.0))
    num = _upsample(hgt * open_, ts)
    den = _upsample(open_, ts)
    h_px = np.where(den > 1e-3, num / np.maximum(den, f32(1e-3)), f32(8.0))
    narrow_sq = (~grid.rock) & (grid.width_ft < 5.0)
    narrow_px = np.kron(narrow_sq, np.ones((ts, ts), dtype=bool))
    h_sq = np.where(grid.rock, 8.0, grid.height_ft).astype(np.float32)
    h_px[narrow_px] = np.kron(h_sq, np.ones((ts, ts), dtype=np.float32))[narrow_px]
    dist_in = distance_to_edge(floor)
    dist_out = distance_to_edge(~floor)
    colours = np.array([palette.FLOOR_LOW, palette.FLOOR_HIGH, palette.ROCK_DARK, palette.ROCK_LIGHT,
                        palette.ROCK_RIM], dtype=np.float32)
    hatch_period = max(4, ts // 4)
    img = np.empty((H, W, 3), dtype=np.float32)
    _shade_kernel(floor, narrow_px, tex_big, tex_fine, np.ascontiguousarray(h_px, dtype=np.float32), dist_in,
                  dist_out, colours, f32(ts), max(2, ts // 7), hatch_period, max(1, hatch_period // 4), img)
    # rubble: stones on difficult squares
    if grid.difficult.any():
        _rubble(img, grid, ts, rng, floor)
    if grid_lines and ts >= 8:
        on = (np.arange(W) % ts) == 0
        gl = np.logical_or.outer((np.arange(H) % ts) == 0, on) & floor
        img[gl] *= f32(0.8)
    np.clip(img, 0, 255, out=img)
    return img.astype(np.uint8)


@numba.njit(cache=True, nogil=True)
def _smooth1(t):  # pragma: no cover - compiled
    t = min(max(t, 0.0), 1.0)
    return t * t * (3.0 - 2.0 * t)


@numba.njit(cache=True, nogil=True)
def _shade_kernel(floor, narrow, tex_big, tex_fine, h_px, dist_in, dist_out, colours, ts, shadow_px, hatch_period,
                  hatch_on, img) -> None:  # pragma: no cover - compiled
    """Each pixel's colour. Floor: the ceiling height picks a colour between low and high,
    brightened by the noise, darkened near the walls (occlusion; channels stay readable), by a
    faint hatching under low ceilings (< 6 ft) and by the rock's drop shadow (light from the
    top-left). Rock: the stone colour by the coarse noise, lighter near the cave, fine grain,
    dark ridges, a lit rim at the edge."""
    H, W = floor.shape
    rim_px = max(1.5, ts / 12.0)
    for y in range(H):
        for x in range(W):
            tb = tex_big[y, x]
            tf = tex_fine[y, x]
            if floor[y, x]:
                h = h_px[y, x]
                t = ((min(max(h, 2.0), 16.0) - 2.0) / 14.0) ** 0.7
                lit = 0.84 + 0.24 * tf + 0.22 * (tb - 0.5)
                ao = 0.42 + 0.58 * _smooth1(dist_in[y, x] / (0.55 * ts))
                if narrow[y, x]:
                    ao = max(ao, 0.85)
                lit *= ao
                if (x + y) % hatch_period < hatch_on:
                    lit *= 1.0 - 0.22 * min(max((6.0 - h) / 4.0, 0.0), 1.0)
                if y >= shadow_px and x >= shadow_px and not floor[y - shadow_px, x - shadow_px] and not narrow[y, x]:
                    lit *= 0.72
                for c in range(3):
                    lo = colours[0, c]
                    img[y, x, c] = (lo + (colours[1, c] - lo) * t) * lit
            else:
                d = dist_out[y, x]
                if d <= rim_px:
                    for c in range(3):
                        img[y, x, c] = colours[4, c] * (0.85 + 0.3 * tf)
                    continue
                near = 1.0 - _smooth1(d / (0.9 * ts))
                shade = (0.62 + 0.5 * near) * (0.7 + 0.5 * tf)
                if abs(tb - 0.5) < 0.01:
                    shade *= 0.55
                for c in range(3):
                    rd = colours[2, c]
                    img[y, x, c] = (rd + (colours[3, c] - rd) * (0.25 + 0.75 * tb)) * shade


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


def paint_floor(grid: CaveGrid, ts: int, *, art: str = "image") -> np.ndarray:
    """What the renderer draws under everything: the map's picture when it has one and ``art`` is
    ``"image"``, else the procedural cave (:func:`paint_cave`); ``art`` is one of
    :data:`sim.view.options.ARTS`."""
    if art == "image":
        pic = picture_floor(grid, ts)
        if pic is not None:
            return paint_edges(pic, grid, ts)
    return paint_edges(paint_cave(grid, ts), grid, ts)


def paint_edges(img: np.ndarray, grid: CaveGrid, ts: int) -> np.ndarray:
    """Walls between squares (docs/rules.md §6.8) drawn into ``img`` (RGB, ``ts`` pixels a
    square) as thick lines on their grid lines, closed doors on edges in door brown; ``img``
    unchanged when the map has none."""
    if grid.edges is None:
        return img
    out = np.array(img, copy=True)
    t = max(2, ts // 5)
    lo, hi = t // 2, t - t // 2
    doors = grid.edge_doors
    for east in (True, False):
        mask = grid.edges.east if east else grid.edges.south
        door = None if doors is None else (doors.east if east else doors.south)
        for r, c in zip(*np.nonzero(mask)):
            if east:
                x0, x1 = (c + 1) * ts - lo, (c + 1) * ts + hi
                y0, y1 = r * ts - lo, (r + 1) * ts + hi
            else:
                x0, x1 = c * ts - lo, (c + 1) * ts + hi
                y0, y1 = (r + 1) * ts - lo, (r + 1) * ts + hi
            is_door = door is not None and door[r, c]
            out[max(0, y0):y1, max(0, x0):x1] = palette.EDGE_DOOR if is_door else palette.EDGE_WALL
    return out
