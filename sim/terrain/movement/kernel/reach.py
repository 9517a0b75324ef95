"""The squares a creature reaches this turn (:func:`reach`): a tracking search in a window
around it, sorted into what one move action and what the double move reach."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.layout import (AWKWARD, EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT, EDGE_TOP, TIGHT,
                                                UNREACHED, key_bits, ring_size)
from sim.terrain.movement.kernel.search import search


@numba.njit(cache=True, nogil=True, error_model="numpy")
def reach(words, R, C, x, y, start_prone, sp, plan, blocked, no_end):  # pragma: no cover - compiled
    """Squares reachable this turn from ``(x, y)`` by ``plan`` (M, awk_units, tight_units),
    searched in the window of radius ``2 * sp`` around it (the whole turn: no move action goes
    further than ``sp`` squares). ``blocked`` / ``no_end``: flat bool arrays over the map, or empty.
    Returns (rows, n1, n2): rows (x, y, feet) sorted by x then y of the ``n1`` squares within one
    move action, then of the ``n2`` within two, then (x, y, mode) of the Escape Artist squares
    among the latter."""
    kb = key_bits(sp)
    rad = 2 * sp
    r0 = max(0, y - rad)
    r1 = min(R, y + rad + 1)
    c0 = max(0, x - rad)
    c1 = min(C, x + rad + 1)
    WR = r1 - r0
    WC = c1 - c0
    WN = WR * WC
    start = (y - r0) * WC + (x - c0)
    ww = np.empty(WN, dtype=np.uint16)
    for r in range(WR):
        ww[r * WC:(r + 1) * WC] = words[(r + r0) * C + c0:(r + r0) * C + c1]
    for c in range(WC):  # no move leaves the window
        ww[c] &= ~EDGE_TOP
        ww[WN - WC + c] &= ~EDGE_BOTTOM
    for r in range(WR):
        ww[r * WC] &= ~EDGE_LEFT
        ww[r * WC + WC - 1] &= ~EDGE_RIGHT
    if blocked.shape[0] > 0:
        for r in range(WR):
            for c in range(WC):
                if blocked[(r + r0) * C + c + c0] and r * WC + c != start:
                    ww[r * WC + c] &= ~(7 << 8)  # an enemy's square: as if BLOCKED, corners unchanged
    work = np.empty(9 * WN, dtype=np.int32)
    key = work[:3 * WN]
    key[:] = UNREACHED
    pred = work[3 * WN:6 * WN]
    walked = work[6 * WN:]
    done = np.zeros(3 * WN, dtype=np.uint8)
    M, awk, tight = plan
    search(ww, WC, start, start_prone, sp, 0, sp, kb, M, awk, tight, ((2 * M + 1) << kb) - 1, -1, pred, 0,
           ring_size(sp, kb, M, awk, tight), key, pred, walked, done, True)
    rows = np.empty((WN, 3), dtype=np.int64)  # the double-move squares, then the checks
    first = np.empty(WN, dtype=np.bool_)  # within one move action
    n1 = 0
    n2 = 0
    n3 = 0
    has_no_end = no_end.shape[0] > 0
    for c in range(WC):
        for r in range(WR):
            i = r * WC + c
            b = 2 * i  # the state with the least label (parity 0, parity 1, prone on ties)
            if key[2 * i + 1] < key[b]:
                b = 2 * i + 1
            if key[2 * WN + i] < key[b]:
                b = 2 * WN + i
            if key[b] == UNREACHED or i == start:
                continue
            if has_no_end and no_end[(r + r0) * C + c + c0]:
                continue
            rows[n2, 0] = c + c0
            rows[n2, 1] = r + r0
            rows[n2, 2] = walked[b]
            first[n2] = key[b] >> kb <= M
            n1 += first[n2]
            n2 += 1
            mode = (np.int64(ww[i]) >> 8) & 7
            if mode == AWKWARD or mode == TIGHT:
                n3 += 1
    out = np.empty((n1 + n2 + n3, 3), dtype=np.int64)
    j1 = 0
    j3 = n1 + n2
    for i in range(n2):
        out[n1 + i] = rows[i]
        if first[i]:
            out[j1] = rows[i]
            j1 += 1
        x_, y_ = rows[i, 0], rows[i, 1]
        mode = (np.int64(ww[(y_ - r0) * WC + x_ - c0]) >> 8) & 7
        if mode == AWKWARD or mode == TIGHT:
            out[j3, 0] = x_
            out[j3, 1] = y_
            out[j3, 2] = mode
            j3 += 1
    return out, n1, n2
