"""The fastest path between two squares (:func:`path`): a goal search by one plan of the tries
(or the other when it cannot get there), the steps along it, and the same squares timed by the
other plan."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.layout import (AWKWARD, CRAWLED_IN, KIND_CRAWL, KIND_ESCAPE, KIND_SQUEEZE,
                                                KIND_STAND, KIND_WALK, PRONE, TIGHT, UNREACHED)
from sim.terrain.movement.kernel.search import run, squares_to_goal


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _path_steps(states, key, walked, words, category, N, C, kb):  # pragma: no cover - compiled
    """Per state along a path: x, y, category, step kind, feet walked by the step, units, squares
    used in the move action under way, diagonal parity (2: prone)."""
    n = states.shape[0]
    out = np.empty((n, 8), dtype=np.int64)
    prev_cell = -1
    for i in range(n):
        s = states[i]
        cell = s >> 1 if s < 2 * N else s - 2 * N
        y = cell // C
        mode = (np.int64(words[cell]) >> 8) & 7
        if cell == prev_cell:
            kind = KIND_STAND
        elif mode == AWKWARD:
            kind = KIND_ESCAPE
        elif mode == TIGHT:
            kind = KIND_SQUEEZE
        elif s >= 2 * N:
            kind = KIND_CRAWL
        else:
            kind = KIND_WALK
        out[i, 0] = cell - y * C
        out[i, 1] = y
        out[i, 2] = category[cell]
        out[i, 3] = kind
        out[i, 4] = walked[s] - walked[states[i - 1]] if i else 0
        out[i, 5] = key[s] >> kb
        out[i, 6] = key[s] & ((1 << kb) - 1)
        out[i, 7] = s & 1 if s < 2 * N else PRONE
        prev_cell = cell
    return out


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _seek(words, C, start, goal, start_prone, begin, sp, kb, plan, nbuckets, togo, key, pred, walked, done, track,
          cells):  # pragma: no cover - compiled
    """One goal search by ``plan`` (M, awk_units, tight_units) from ``begin`` (move actions
    used, squares used in the last, diagonal parity: see :func:`path`): the goal state, or -1. The work
    arrays are reset first: wholly, or only at ``cells`` when the search cannot leave them
    (``words`` is BLOCKED, without moves, everywhere else)."""
    M, awk, tight = plan
    if cells.shape[0] == 0:
        togo[:] = UNREACHED
        key[:] = UNREACHED
        done[:] = 0
    else:
        N = words.shape[0]
        for c in cells:
            togo[c] = UNREACHED
            for st in (2 * c, 2 * c + 1, 2 * N + c):
                key[st] = UNREACHED
                done[st] = 0
    togo_cap = squares_to_goal(words, C, goal, start, sp, M, awk, tight, togo)
    if togo_cap < 0:
        return -1  # not even the most lenient costing leads there
    gs, _ = run(words, C, start, start_prone, ((begin[0] * M) << kb) + begin[1], begin[2], sp, kb, M, awk, tight,
                UNREACHED - 1, goal, togo, togo_cap, nbuckets, key, pred, walked, done, track)
    return gs


@numba.njit(cache=True, nogil=True, error_model="numpy")
def path(words, category, C, start, goal, start_prone, begin, sp, kb, plan_a, plan_b, nb_a, nb_b,
         togo, key, pred, walked, done, confined):  # pragma: no cover - compiled
    """The fastest path from ``begin`` (whole move actions the turn has used, squares used in
    the last of them, diagonal parity: ``(0, sp, 0)`` at a turn's start) by ``plan_a`` (M,
    awk_units, tight_units), or by ``plan_b`` when plan A
    cannot reach the goal; then the same squares timed by the other plan (a search confined to
    the path's squares). Work arrays (any content): ``togo`` (N int32), ``key`` / ``pred`` /
    ``walked`` (3 N int32), ``done`` (3 N uint8), ``confined`` (N uint16). Returns (which plan
    found it: 0 / 1 / -1 for none, per-state rows of :func:`_path_steps`, feet walked, label
    units of the other plan or -1)."""
    N = words.shape[0]
    used = 0
    everywhere = np.empty(0, dtype=np.int64)
    gs = _seek(words, C, start, goal, start_prone, begin, sp, kb, plan_a, nb_a, togo, key, pred, walked, done, True,
               everywhere)
    if gs < 0:
        used = 1
        gs = _seek(words, C, start, goal, start_prone, begin, sp, kb, plan_b, nb_b, togo, key, pred, walked, done, True,
                   everywhere)
        if gs < 0:
            return -1, np.empty((0, 8), dtype=np.int64), 0, -1
    # among the goal's states with the same label, the least movement (the first on ties)
    best = -1
    for b in (2 * goal, 2 * goal + 1, 2 * N + goal):
        if key[b] == key[gs] and (best < 0 or walked[b] < walked[best]):
            best = b
    gs = best
    # the states back to the start; a crawl in and stand up becomes its two steps again
    M = plan_b[0] if used else plan_a[0]
    n = 0
    s = gs
    while s >= 0:
        p = pred[s]
        if p >= 0 and p & CRAWLED_IN:
            v = 2 * N + (s >> 1)  # the prone state between
            key[v] = key[s] - (M << kb)
            walked[v] = walked[s]
            pred[v] = p & ~CRAWLED_IN
            pred[s] = v
            p = v
        n += 1
        s = p
    states = np.empty(n, dtype=np.int64)
    s = gs
    for i in range(n - 1, -1, -1):
        states[i] = s
        s = pred[s]
    steps = _path_steps(states, key, walked, words, category, N, C, kb)
    feet = walked[gs]
    # the other plan over the same squares: every other square blocked
    cells = steps[:, 1] * C + steps[:, 0]
    confined[:] = 0
    confined[cells] = words[cells]
    ogs = _seek(confined, C, start, goal, start_prone, begin, sp, kb, plan_b if used == 0 else plan_a,
                nb_b if used == 0 else nb_a, togo, key, pred, walked, done, False, cells)
    return used, steps, feet, (key[ogs] >> kb) if ogs >= 0 else -1
