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


@numba.njit(cache=True, nogil=True)
def walk_branches(ids, rr, cc, junction):  # pragma: no cover - compiled
    """The skeleton's branches as ordered runs of pixels: ``ids`` is the pixel-index image (-1 off
    the skeleton), ``rr``/``cc`` the pixels, ``junction`` which are junctions (left out). Each walk
    starts at an end (a pixel with at most one branch neighbour; then, for loops, anywhere) and
    steps to an unvisited neighbour, a side neighbour before a diagonal one. Returns ``order`` (the
    pixels branch by branch) and ``starts`` (branch b is ``order[starts[b]:starts[b + 1]]``)."""
    n = rr.size
    h, w = ids.shape
    count = np.zeros(n, dtype=np.int64)
    for k in range(n):
        if junction[k]:
            continue
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                r = rr[k] + dr
                c = cc[k] + dc
                if (dr != 0 or dc != 0) and 0 <= r < h and 0 <= c < w:
                    j = ids[r, c]
                    if j >= 0 and not junction[j]:
                        count[k] += 1
    visited = np.zeros(n, dtype=np.bool_)
    order = np.empty(n, dtype=np.int64)
    starts = np.empty(n + 1, dtype=np.int64)
    nb = 0
    m = 0
    for phase in range(2):
        for k0 in range(n):
            if junction[k0] or visited[k0] or (phase == 0 and count[k0] > 1):
                continue
            starts[nb] = m
            nb += 1
            k = k0
            while k >= 0:
                visited[k] = True
                order[m] = k
                m += 1
                nxt = -1
                for diagonal in range(2):
                    for dr in range(-1, 2):
                        for dc in range(-1, 2):
                            if nxt >= 0 or (dr == 0 and dc == 0) or ((dr != 0 and dc != 0) != (diagonal == 1)):
                                continue
                            r = rr[k] + dr
                            c = cc[k] + dc
                            if 0 <= r < h and 0 <= c < w:
                                j = ids[r, c]
                                if j >= 0 and not junction[j] and not visited[j]:
                                    nxt = j
                k = nxt
    starts[nb] = m
    return order[:m], starts[:nb + 1]


@numba.njit(cache=True, nogil=True)
def _side(rad, s, lo, hi, i, step, end_r, flat_len, tol, rise_len):  # pragma: no cover - compiled
    """Walk from branch position ``i`` in direction ``step`` (+1 / -1) within ``lo..hi - 1``:
    (flat: the radius stays within ``tol`` of ``rad[i]`` for ``flat_len`` ft; the largest radius
    within ``rise_len`` ft, the junction's ``end_r`` counted when the walk reaches the branch end;
    the smallest radius within ``rise_len``)."""
    flat = True
    beyond = False      # the walk went past ``flat_len`` (the flat run is long enough)
    top = 0.0
    least = np.inf
    j = i + step
    while lo <= j < hi:
        d = abs(s[j] - s[i])
        if d > rise_len:
            break
        if d <= flat_len:
            flat = flat and abs(rad[j] - rad[i]) <= tol
        else:
            beyond = True
        top = max(top, rad[j])
        least = min(least, rad[j])
        j += step
    if not lo <= j < hi:
        top = max(top, end_r)
    return flat and beyond, top, least


@numba.njit(cache=True, nogil=True)
def branch_marks(order, starts, rad, px, py, end0, end1, pixel_ft, tol_abs, tol_rel, flat_abs, flat_rel, rise_abs,
                 rise_rel, reach_abs, reach_rel):  # pragma: no cover - compiled
    """Steps and pinches along each branch (``order``/``starts`` of :func:`walk_branches`; ``rad``
    per pixel, ``px``/``py`` its centre in ft; ``end0``/``end1`` the junction radius at each end of
    each branch, 0 at a dead end). Per pixel, in a window of ``reach`` ft each way:

    * a *step*: the radius flat (within ``tol``) for ``flat`` ft on one side and rising by ``rise``
      on the other -- where a passage opens into a wider space; per run of step pixels the one
      nearest the wider side is kept, with the flat side's radius;
    * a *pinch*: the least radius of its window, rising by ``rise`` on both sides; per run of
      pinch pixels the middle (between the run's first and last centres) is kept.

    Returns (step pixel, step radius, pinch x, pinch y, pinch radius) arrays."""
    n = order.size
    cut_k = np.empty(n, dtype=np.int64)
    cut_r = np.empty(n)
    pin_x = np.empty(n)
    pin_y = np.empty(n)
    pin_r = np.empty(n)
    nc = 0
    npn = 0
    for b in range(starts.size - 1):
        lo = starts[b]
        hi = starts[b + 1]
        m = hi - lo
        s = np.zeros(m)
        r = np.empty(m)
        for i in range(m):
            r[i] = rad[order[lo + i]]
            if i > 0:
                s[i] = s[i - 1] + math.hypot(px[order[lo + i]] - px[order[lo + i - 1]],
                                             py[order[lo + i]] - py[order[lo + i - 1]])
        kind = np.zeros(m, dtype=np.int64)      # +1: flat ahead, rising behind; -1: the reverse
        flat_r = np.zeros(m)
        pinch = np.zeros(m, dtype=np.bool_)
        for i in range(m):
            tol = max(tol_abs, tol_rel * r[i])
            flat_len = max(flat_abs, flat_rel * r[i])
            rise = max(rise_abs, rise_rel * r[i])
            reach = max(reach_abs, reach_rel * r[i])
            f_fwd, top_fwd, low_fwd = _side(r, s, 0, m, i, 1, end1[b], flat_len, tol, reach)
            f_bwd, top_bwd, low_bwd = _side(r, s, 0, m, i, -1, end0[b], flat_len, tol, reach)
            if f_fwd and top_bwd >= r[i] + rise:
                kind[i] = 1
            elif f_bwd and top_fwd >= r[i] + rise:
                kind[i] = -1
            if kind[i] != 0:
                flat_r[i] = min(r[i], low_fwd if kind[i] == 1 else low_bwd)
            pinch[i] = (r[i] <= min(low_fwd, low_bwd) + 1e-9 * (1.0 + r[i]) and top_fwd >= r[i] + rise
                        and top_bwd >= r[i] + rise)
        i = 0
        while i < m:
            j = i
            if kind[i] != 0:
                while j + 1 < m and kind[j + 1] == kind[i]:
                    j += 1
                at = i if kind[i] == 1 else j
                cut_k[nc] = order[lo + at]
                cut_r[nc] = flat_r[at]
                nc += 1
            i = j + 1
        i = 0
        while i < m:
            j = i
            if pinch[i]:
                while j + 1 < m and pinch[j + 1]:
                    j += 1
                pin_x[npn] = 0.5 * (px[order[lo + i]] + px[order[lo + j]])
                pin_y[npn] = 0.5 * (py[order[lo + i]] + py[order[lo + j]])
                low = np.inf
                for q in range(i, j + 1):
                    low = min(low, r[q])
                pin_r[npn] = low
                npn += 1
            i = j + 1
    return cut_k[:nc], cut_r[:nc], pin_x[:npn], pin_y[:npn], pin_r[:npn]


@numba.njit(cache=True, nogil=True)
def dominant(labels, spx, rows, cols):  # pragma: no cover - compiled
    """Per square (``spx`` pixels a side), the region label holding most of its floor pixels (0: none;
    a tie goes to the lower label)."""
    out = np.zeros((rows, cols), dtype=np.int64)
    buf = np.empty(int(math.ceil(spx) + 1) ** 2, dtype=np.int64)
    for row in range(rows):
        r0 = int(round(row * spx))
        r1 = min(int(round((row + 1) * spx)), labels.shape[0])
        for col in range(cols):
            c0 = int(round(col * spx))
            c1 = min(int(round((col + 1) * spx)), labels.shape[1])
            m = 0
            for i in range(r0, r1):
                for j in range(c0, c1):
                    if labels[i, j] > 0:
                        buf[m] = labels[i, j]
                        m += 1
            if m == 0:
                continue
            v = np.sort(buf[:m])
            best = v[0]
            run = 1
            top = 1
            for q in range(1, m):
                run = run + 1 if v[q] == v[q - 1] else 1
                if run > top:
                    top = run
                    best = v[q]
            out[row, col] = best
    return out


@numba.njit(cache=True, nogil=True)
def cover_region(cx, cy, rad, region, dom, side, rows, cols, eps, best):  # pragma: no cover - compiled
    """Each disk's width (2 x ``rad``) for the squares it enters deeper than ``eps`` whose main region
    (``dom``) is the disk's own ``region`` (any square for region 0: a disk where the regions were
    not drawn, in a crack only the fine re-measure sees): the largest such disk per square into
    ``best``."""
    for k in range(cx.size):
        reach = rad[k] - eps
        if reach <= 0.0:
            continue
        x = cx[k]
        y = cy[k]
        c0 = max(int(math.floor((x - reach) / side)), 0)
        c1 = min(int(math.floor((x + reach) / side)), cols - 1)
        r0 = max(int(math.floor((y - reach) / side)), 0)
        r1 = min(int(math.floor((y + reach) / side)), rows - 1)
        d = 2.0 * rad[k]
        for row in range(r0, r1 + 1):
            dy = max(row * side - y, 0.0, y - (row + 1) * side)
            for col in range(c0, c1 + 1):
                if region[k] > 0 and dom[row, col] != region[k]:
                    continue
                dx = max(col * side - x, 0.0, x - (col + 1) * side)
                if dx * dx + dy * dy < reach * reach and d > best[row, col]:
                    best[row, col] = d
