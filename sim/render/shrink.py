"""Exported frames made smaller by exact area averaging, one rectangle at a time.

An export draws each frame at the scene's size and stores it at ``--scale`` (0.75 by default).
A GIF frame stores only the pixels that changed since the frame before, a fifth of the picture on
average for the shipped crawl; so the picture is compared at full size, and only the changed
rectangle is made smaller, read and quantised (issue 19: the GIF's CPU time). That needs a
shrink whose result for a rectangle is exactly that rectangle of the whole frame's, which
pygame's ``smoothscale`` is not (its fixed-point steps run along each row: a crop from x = 400
differs from the whole by up to 6 levels). Here a scale is a ratio ``p / q`` of small integers
(3/4, 1/2, 1/4, 2/5, ...): every ``q`` source pixels become ``p`` output pixels, each output
pixel the mean of the source area it covers, with integer weights (the overlaps in ``1/p`` of a
pixel), rounded once. A rectangle aligned to ``q`` pixels gives the same bytes as the whole
frame, by construction (tests/render/test_shrink.py). Area averaging is what smoothscale does
when it shrinks, so the picture is the same to the eye.

>>> ratio(0.75), ratio(0.5), ratio(1.0), ratio(0.3333), ratio(1.5)
((3, 4), (1, 2), (1, 1), None, None)
>>> import numpy as np
>>> src = np.zeros((4, 4), np.uint32); src[:, :2] = 0xFF0000         # the top two rows red (x, y)
>>> src[0, 3] = 0x0000FF                                             # one blue pixel at x 0, y 3
>>> shrink(src, 0, 0, 4, 4, 1, 2).tolist()                           # at 1/2: (row, column, rgb)
[[[255, 0, 0], [255, 0, 0]], [[0, 0, 64], [0, 0, 0]]]
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from sim.base.jit import numba

MAX_DENOMINATOR = 8   # 3/4, 1/2, 2/3, 5/8 ...: scales with a larger period use smoothscale
MASKS = (0xFF0000, 0x00FF00, 0x0000FF, 0)   # the pixel layout read: a 32-bit surface's, red high


def ratio(scale: float) -> tuple[int, int] | None:
    """``(p, q)`` with ``p / q == scale`` for a shrink with a short period (``(1, 1)`` for the
    full size), else None (an enlargement, or a scale like 0.3333 that no small ratio equals)."""
    f = Fraction(scale).limit_denominator(MAX_DENOMINATOR)
    if f > 1 or f <= 0 or abs(float(f) - scale) > 1e-9:
        return None
    return f.numerator, f.denominator


def taps(p: int, q: int) -> tuple[np.ndarray, np.ndarray]:
    """Per axis, for each of the ``p`` output pixels of a period: the source offsets (0..q-1)
    it reads and their integer weights (overlaps in 1/p of a pixel), which sum to ``q``.

    >>> o, w = taps(3, 4)
    >>> o.tolist(), w.tolist()
    ([[0, 1], [1, 2], [2, 3]], [[3, 1], [2, 2], [1, 3]])
    """
    n = (q + p - 1) // p + 1
    offs = np.zeros((p, n), np.int64)
    wts = np.zeros((p, n), np.int64)
    for j in range(p):
        a, b = j * q, (j + 1) * q            # the output pixel, in 1/p of a source pixel
        k = 0
        for i in range(q):
            w = min(b, (i + 1) * p) - max(a, i * p)
            if w > 0:
                offs[j, k], wts[j, k] = i, w
                k += 1
    used = int((wts > 0).sum(axis=1).max())
    return offs[:, :used], wts[:, :used]


def shrink(src: np.ndarray, x0: int, y0: int, x1: int, y1: int, p: int, q: int) -> np.ndarray:
    """The rectangle ``[x0, x1) x [y0, y1)`` of ``src`` at ``p / q``: a C-ordered (row, column,
    rgb) uint8 array. ``src`` is an (x, y) array of 0xRRGGBB pixels, as
    ``pygame.surfarray.pixels2d`` gives a 32-bit surface's (see :data:`MASKS`). The corners must
    lie on multiples of ``q``."""
    if x0 % q or y0 % q or x1 % q or y1 % q:
        raise ValueError(f"the rectangle ({x0}, {y0})-({x1}, {y1}) is not aligned to {q} pixels")
    offs, wts = taps(p, q)
    out = np.empty(((y1 - y0) // q * p, (x1 - x0) // q * p, 3), np.uint8)
    _shrink(src.T, x0, y0, p, q, offs, wts, out)   # (y, x): rows in memory order
    return out


@numba.njit(cache=True, nogil=True)
def _shrink(src, x0, y0, p, q, offs, wts, out) -> None:  # pragma: no cover - compiled
    """Separable: each source row summed along x (``q``-weighted, per channel), then ``q`` of
    those rows into each output row, divided by ``q * q`` once, rounded half up (a table: a
    division per value would be most of the time)."""
    h, w = out.shape[0], out.shape[1]
    n = offs.shape[1]
    blocks = w // p
    norm = q * q
    lut = np.empty(255 * norm + 1, np.uint8)
    for a in range(lut.shape[0]):
        lut[a] = (a + norm // 2) // norm
    chan = np.empty((3, blocks * q), np.int32)   # one source row, unpacked
    rows = np.zeros((q, 3, w), np.int32)       # one period of source rows, summed along x
    acc = np.empty((3, w), np.int32)
    for band in range(h // p):
        for i in range(q):
            y = y0 + band * q + i
            for x in range(blocks * q):
                v = src[y, x0 + x]
                chan[0, x] = (v >> 16) & 255
                chan[1, x] = (v >> 8) & 255
                chan[2, x] = v & 255
            r = rows[i]
            r[:] = 0
            for j in range(p):
                for k in range(n):
                    wt = wts[j, k]
                    o = offs[j, k]
                    if wt == 0:
                        continue
                    for ch in range(3):
                        for m in range(blocks):
                            r[ch, m * p + j] += wt * chan[ch, m * q + o]
        for j in range(p):
            acc[:] = 0
            for k in range(n):
                wt = wts[j, k]
                if wt == 0:
                    continue
                src_row = rows[offs[j, k]]
                for ch in range(3):
                    for c in range(w):
                        acc[ch, c] += wt * src_row[ch, c]
            orow = out[band * p + j]
            for c in range(w):
                orow[c, 0] = lut[acc[0, c]]
                orow[c, 1] = lut[acc[1, c]]
                orow[c, 2] = lut[acc[2, c]]


@numba.njit(cache=True, nogil=True)
def changed_box(cur, prev) -> tuple:  # pragma: no cover - compiled
    """The bounding box ``(x0, y0, x1, y1)`` of the pixels where two (x, y) arrays differ, and
    ``prev`` brought up to ``cur`` inside it; ``(0, 0, 0, 0)`` when none differ."""
    w, h = cur.shape[0], cur.shape[1]
    x0, y0, x1, y1 = w, h, 0, 0
    for y in range(h):
        row = False
        for x in range(w):
            if cur[x, y] != prev[x, y]:
                row = True
                if x < x0:
                    x0 = x
                if x >= x1:
                    x1 = x + 1
        if row:
            if y < y0:
                y0 = y
            y1 = y + 1
    if x1 == 0:
        return 0, 0, 0, 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            prev[x, y] = cur[x, y]
    return x0, y0, x1, y1
