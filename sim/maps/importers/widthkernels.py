"""The compiled loops of the width measure (:mod:`sim.maps.importers.widths`): the exact clearance
from a point to the wall pieces, the ridge search that moves an axis pixel onto the centre of the
largest disk there, and the cover that spreads each disk's width over the squares it reaches.
Pure functions over arrays (numba, compiled once per checkout and cached)."""

from __future__ import annotations

import math

import numpy as np

from sim.base.jit import numba

STEPS = np.linspace(0.0, 1.5, 25)[1:]  # offsets along the normal, in pixels
RING_RADII = np.array([0.75, 0.5, 0.25, 0.125, 0.0625, 0.03125])  # pattern-search steps, in pixels
RING_DIRS = np.array([[math.cos(a), math.sin(a)] for a in np.arange(8) * (math.pi / 4)])


@numba.njit(cache=True, nogil=True)
def seg_dist(px, py, lo, hi, cand, ax, ay, bx, by):  # pragma: no cover - compiled
    best = np.inf
    fx = px
    fy = py
    bj = -1
    for k in range(lo, hi):
        j = cand[k]
        dx = bx[j] - ax[j]
        dy = by[j] - ay[j]
        L2 = dx * dx + dy * dy
        t = 0.0
        if L2 > 1e-18:
            t = ((px - ax[j]) * dx + (py - ay[j]) * dy) / L2
            t = min(1.0, max(0.0, t))
        qx = ax[j] + t * dx
        qy = ay[j] + t * dy
        d = math.hypot(px - qx, py - qy)
        # two walls exactly as near: the lower piece decides (whatever order the pieces come in)
        if d < best or (d == best and j < bj):
            best = d
            fx = qx
            fy = qy
            bj = j
    return best, fx, fy


@numba.njit(cache=True, nogil=True, inline="always")
def piece_dist(px, py, j, ax, ay, bx, by):  # pragma: no cover - compiled
    dx = bx[j] - ax[j]
    dy = by[j] - ay[j]
    L2 = dx * dx + dy * dy
    t = 0.0
    if L2 > 1e-18:
        t = ((px - ax[j]) * dx + (py - ay[j]) * dy) / L2
        t = min(1.0, max(0.0, t))
    return math.hypot(px - (ax[j] + t * dx), py - (ay[j] + t * dy))


@numba.njit(cache=True, nogil=True)
def clearer(px, py, lo, hi, cand, ax, ay, bx, by, limit, first):  # pragma: no cover - compiled
    """The clearance at (px, py) and its nearest piece when it is over ``limit``; otherwise some
    clearance at most ``limit`` (the caller only asks whether the sample beats ``limit``, so the
    search stops at the first piece that closer: ``first``, the piece that was nearest to the
    previous sample, is tried before the rest)."""
    if first >= 0:
        d = piece_dist(px, py, first, ax, ay, bx, by)
        if d <= limit:
            return d, first
    best = np.inf
    bj = -1
    for k in range(lo, hi):
        j = cand[k]
        d = piece_dist(px, py, j, ax, ay, bx, by)
        if d <= limit:
            return d, j
        if d < best:
            best = d
            bj = j
    return best, bj


@numba.njit(cache=True, nogil=True)
def gather(x, y, reach, items, start, ox, oy, grows, gcols, gsize, mx, my, out):  # pragma: no cover - compiled
    """The pieces whose midpoint is within ``reach`` of (x, y), into ``out``; returns how many
    (cell by cell, each cell's pieces in index order)."""
    r0 = max(int(math.floor((y - reach - oy) / gsize)), 0)
    r1 = min(int(math.floor((y + reach - oy) / gsize)), grows - 1)
    c0 = max(int(math.floor((x - reach - ox) / gsize)), 0)
    c1 = min(int(math.floor((x + reach - ox) / gsize)), gcols - 1)
    rr = reach * reach
    m = 0
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            k = r * gcols + c
            for q in range(start[k], start[k + 1]):
                j = items[q]
                dx = mx[j] - x
                dy = my[j] - y
                if dx * dx + dy * dy <= rr:
                    out[m] = j
                    m += 1
    return m


@numba.njit(cache=True, nogil=True)
def ridge(cx, cy, reach, items, start, ox, oy, grows, gcols, gsize, mx, my, ax, ay, bx, by, pixel, steps, ring_r,
           dirs):  # pragma: no cover - compiled
    n = cx.size
    out_r = np.empty(n)
    out_c = np.empty((n, 2))
    nrm_r = np.empty(n)
    nrm_c = np.empty((n, 2))
    cand = np.empty(items.size, dtype=np.int64)
    for i in range(n):
        lo = 0
        hi = gather(cx[i], cy[i], reach[i], items, start, ox, oy, grows, gcols, gsize, mx, my, cand)
        d0, fx, fy = seg_dist(cx[i], cy[i], lo, hi, cand, ax, ay, bx, by)
        ux = cx[i] - fx
        uy = cy[i] - fy
        norm = math.hypot(ux, uy)
        if norm > 1e-12:
            ux /= norm
            uy /= norm
        best = d0
        bxp = cx[i]
        byp = cy[i]
        near = -1   # the piece nearest to the last sample (tried first: it usually refutes the next)
        # a sample is taken only inside the clear disk around the best point so far, so the
        # search never jumps through a wall into another space
        tb = 0.0
        for t in steps:
            if (t - tb) * pixel >= best:
                break
            px = cx[i] + t * pixel * ux
            py = cy[i] + t * pixel * uy
            d, near = clearer(px, py, lo, hi, cand, ax, ay, bx, by, best, near)
            if d > best:
                best = d
                bxp = px
                byp = py
                tb = t
        nrm_r[i] = best
        nrm_c[i, 0] = bxp
        nrm_c[i, 1] = byp
        for rr in ring_r:
            if rr * pixel >= best:
                continue
            x0 = bxp
            y0 = byp
            for k in range(dirs.shape[0]):
                px = x0 + rr * pixel * dirs[k, 0]
                py = y0 + rr * pixel * dirs[k, 1]
                d, near = clearer(px, py, lo, hi, cand, ax, ay, bx, by, best, near)
                if d > best:
                    best = d
                    bxp = px
                    byp = py
        out_r[i] = best
        out_c[i, 0] = bxp
        out_c[i, 1] = byp
    return out_r, out_c, nrm_r, nrm_c


@numba.njit(cache=True, nogil=True)
def cover(cx, cy, rad, on_route, side, rows, cols, eps, depth, best, least):  # pragma: no cover - compiled
    for k in range(cx.size):
        x = cx[k]
        y = cy[k]
        # a disk counts for a square it enters by half its radius, or by ``depth`` feet
        reach = rad[k] - max(eps, min(0.5 * rad[k], depth))
        if reach <= 0.0:
            continue
        c0 = max(int(math.floor((x - reach) / side)), 0)
        c1 = min(int(math.floor((x + reach) / side)), cols - 1)
        r0 = max(int(math.floor((y - reach) / side)), 0)
        r1 = min(int(math.floor((y + reach) / side)), rows - 1)
        d = 2.0 * rad[k]
        for row in range(r0, r1 + 1):
            dy = max(row * side - y, 0.0, y - (row + 1) * side)
            for col in range(c0, c1 + 1):
                dx = max(col * side - x, 0.0, x - (col + 1) * side)
                if dx * dx + dy * dy < reach * reach:
                    if d > best[row, col]:
                        best[row, col] = d
                    if on_route[k] and d < least[row, col]:
                        least[row, col] = d
