"""The compiled search behind distance maps, paths and reach (numba).

State space: (square, posture/parity), three states per square: standing with diagonal parity
0, standing with parity 1, prone. A label is the lexicographic pair (move actions started,
squares used in the current move action), encoded as the integer ``key = n_units * K + f`` with
``K = speed_squares + 1`` and ``n_units`` counting move actions in units of ``1/M`` (M = 1 for
guaranteed times; a common denominator of the expected tries otherwise). Labels only grow along
transitions, so a bucket queue (Dial's algorithm) finds exact minimum labels; with a goal, the
Chebyshev distance is a consistent A* heuristic (every step raises the key by at least one).

Transitions (RULES §6.1-6.3, §2.4, §5.1, §7.30, §7.35):

* walk (standing, into a WALK square): cost ``c`` squares: orthogonal ``m``; a diagonal with
  ``m == 1`` alternates 1, 2 by the parity, counted over the whole move of a turn (the two move
  actions of a double move are one continuous move; the parity resets when a turn starts); a
  diagonal with ``m >= 2`` costs ``1.5 m`` and does not advance the parity (§6.3). It fits in the
  current move action if ``f + c <= speed``; else it starts the next move action; if
  ``c > speed`` only the minimum-movement full-round action (one square at the start of a turn,
  §6.1) can take it.
* crawl (prone, or into a CRAWL square): one square per move action (§5.1), times the square's
  multiplier (half speed applies to crawling too; a crawl square counts 1, or 2 over rubble).
* stand up (prone, on a WALK square): a move action (§5.1).
* Awkward Space: ``awk_units`` for the tries, a move action each; Tight Squeeze: a full-round
  action per try started at the beginning of a turn, ``tight_units`` in all (§7.30). Posture
  afterwards follows the square.
* no diagonal past a corner square (§6.2): encoded in the per-square direction masks.

Dominance (same square, same or lower label): parity 0 is never worse than parity 1, and
standing is never worse than prone (dropping prone is free), so dominated states are skipped.
The test suite checks the result against a plain-Python search without this pruning.
"""

from __future__ import annotations

import numba
import numpy as np

BLOCKED, WALK, CRAWL, AWKWARD, TIGHT = 0, 1, 2, 3, 4
PRONE = 2
UNREACHED = np.iinfo(np.int32).max

# direction d: (drow, dcol); bit d of a square's mask allows the move from it
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))


def direction_masks(mode: np.ndarray, corner: np.ndarray) -> np.ndarray:
    """uint8 ``[row, col]`` masks: bit d set when a move in direction ``DIRS[d]`` stays on the
    map, enters a square that is not BLOCKED and (diagonals) passes no corner square."""
    R, C = mode.shape
    ok = np.pad(mode != BLOCKED, 1, constant_values=False)
    cor = np.pad(corner, 1, constant_values=True)
    out = np.zeros((R, C), dtype=np.uint8)
    for d, (dr, dc) in enumerate(DIRS):
        allowed = ok[1 + dr:R + 1 + dr, 1 + dc:C + 1 + dc].copy()
        if dr and dc:
            allowed &= ~cor[1 + dr:R + 1 + dr, 1:C + 1] & ~cor[1:R + 1, 1 + dc:C + 1 + dc]
        out |= allowed.astype(np.uint8) << d
    return out


@numba.njit(cache=True, nogil=True)
def _grow(pool_state, pool_next):  # pragma: no cover - compiled
    n = pool_state.shape[0]
    ps = np.empty(2 * n, dtype=np.int32)
    pn = np.empty(2 * n, dtype=np.int32)
    ps[:n] = pool_state
    pn[:n] = pool_next
    return ps, pn


@numba.njit(cache=True, nogil=True, error_model="numpy")
def search(mode, mult, prone_sq, dirs, blocked, has_blocked, R, C,
           s_cell, start_prone, sp, M, awk_units, tight_units, max_key, goal_cell, nbuckets,
           key, pred, walked, track):  # pragma: no cover - compiled
    """Flat arrays over ``R*C`` squares (``key``/``pred``/``walked`` over ``3*R*C`` states,
    ``key`` preset to UNREACHED; ``pred``/``walked`` filled only when ``track``; ``max_key`` is
    the largest label to keep; ``nbuckets`` a power of two above the largest label increase).
    Returns (goal state or -1, states settled)."""
    K = sp + 1
    nstates = R * C * 3
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    bmask = nbuckets - 1
    head = np.full(nbuckets, -1, dtype=np.int32)
    tail = np.full(nbuckets, -1, dtype=np.int32)
    cap = max(1024, (R * C) // 2)
    pool_state = np.empty(cap, dtype=np.int32)  # FIFO entries per bucket; stale ones are skipped
    # (a state is queued again only with a strictly smaller label, so each label pops once)
    pool_next = np.empty(cap, dtype=np.int32)
    done = np.zeros(nstates if track else 1, dtype=np.uint8)
    use_goal = goal_cell >= 0
    gr = goal_cell // C if use_goal else 0
    gc = goal_cell % C if use_goal else 0
    s0 = s_cell * 3 + (PRONE if start_prone else 0)
    key[s0] = sp  # no move action in progress: the next step starts action 1
    if track:
        pred[s0] = -1
        walked[s0] = 0
    h0 = max(abs(s_cell // C - gr), abs(s_cell % C - gc)) if use_goal else 0
    cur = sp + h0
    pool_state[0] = s0
    pool_next[0] = -1
    head[cur & bmask] = 0
    tail[cur & bmask] = 0
    n_pool = 1
    pending = 1
    settled = 0
    goal_state = -1
    while pending > 0:
        b = cur & bmask
        e = head[b]
        if e < 0:
            cur += 1
            continue
        head[b] = pool_next[e]
        if pool_next[e] < 0:
            tail[b] = -1
        pending -= 1
        s = pool_state[e]
        k0 = key[s]
        cell = s // 3
        st = s - cell * 3
        if use_goal:
            if k0 + max(abs(cell // C - gr), abs(cell % C - gc)) != cur:
                continue  # stale: improved since it was queued
        elif k0 != cur:
            continue
        if track:
            done[s] = 1
        base = cell * 3
        # dominance on the same square: parity 0 beats parity 1, standing beats prone
        if st == 1 and key[base] <= k0:
            continue
        if st == PRONE and (key[base] <= k0 or key[base + 1] <= k0):
            continue
        settled += 1
        if cell == goal_cell:
            goal_state = s
            break
        n_units = k0 // K
        f = k0 - n_units * K
        a = n_units // M
        turn_start = (n_units - a * M == 0) and (a % 2 == 0)
        if turn_start:
            align = n_units
        else:
            align = ((a // 2) + 1) * 2 * M
        mask = dirs[cell]
        for d in range(9 if st == PRONE else 8):
            alt_crawl = False
            if d == 8:
                # stand up in place: a move action, only from prone on a square where it can stand
                if st != PRONE or mode[cell] != WALK:
                    continue
                ncell = cell
                nk = (n_units + M) * K + sp
                nst = 0
                step_ft = 0
            else:
                if not (mask >> d) & 1:
                    continue
                ncell = cell + off[d]
                if has_blocked and blocked[ncell]:
                    continue
                mq = mode[ncell]
                step_ft = 5
                alt_crawl = False
                if mq == WALK and st != PRONE:
                    m = mult[ncell]
                    if d >= 4:
                        if m == 1:
                            cost = 1 + st
                            np_ = 1 - st
                        else:
                            cost = (3 * m) >> 1
                            np_ = st
                    else:
                        cost = m
                        np_ = st
                    if f + cost <= sp:
                        nk = k0 + cost
                        nst = np_
                    else:
                        if turn_start:  # the next move action starts a new turn: parity resets
                            if d >= 4 and m == 1:
                                cost = 1
                                np_ = 1
                            else:
                                np_ = 0
                        if cost <= sp:
                            nk = (n_units + M) * K + cost
                            nst = np_
                        else:  # minimum movement: a full-round action at the start of a turn
                            nk = (align + 2 * M) * K + sp
                            nst = 1 if (d >= 4 and m == 1) else 0
                            alt_crawl = True
                    step_ft = 5 * cost
                elif mq == WALK or mq == CRAWL:  # crawl: a square per move action (x multiplier)
                    nk = (n_units + M * mult[ncell]) * K + sp
                    nst = PRONE
                elif mq == AWKWARD:
                    if awk_units <= 0:
                        continue
                    nk = (n_units + awk_units) * K + sp
                    nst = PRONE if prone_sq[ncell] else 0
                else:  # TIGHT
                    if tight_units <= 0:
                        continue
                    nk = (align + tight_units) * K + sp
                    nst = PRONE if prone_sq[ncell] else 0
            for variant in range(2):
                if variant == 1:
                    # a standing creature may drop prone (free) and crawl instead: better than the
                    # full-round minimum move when a square costs more than its whole speed
                    if not alt_crawl:
                        break
                    nk = (n_units + M * mult[ncell]) * K + sp
                    nst = PRONE
                    step_ft = 5
                if nk > max_key:
                    continue
                nbase = ncell * 3
                ns = nbase + nst
                if nk >= key[ns]:
                    if track and nk == key[ns] and done[ns] == 0 and walked[s] + step_ft < walked[ns]:
                        pred[ns] = s  # same time, less movement spent: prefer it (not yet expanded)
                        walked[ns] = walked[s] + step_ft
                    continue
                if nst == 1 and key[nbase] <= nk:
                    continue
                if nst == PRONE and (key[nbase] <= nk or key[nbase + 1] <= nk):
                    continue
                key[ns] = nk
                if track:
                    pred[ns] = s
                    walked[ns] = walked[s] + step_ft
                h = 0
                if use_goal:
                    nr = ncell // C
                    h = max(abs(nr - gr), abs(ncell - nr * C - gc))
                if n_pool >= pool_state.shape[0]:
                    pool_state, pool_next = _grow(pool_state, pool_next)
                nb = (nk + h) & bmask
                pool_state[n_pool] = ns
                pool_next[n_pool] = -1
                if tail[nb] >= 0:
                    pool_next[tail[nb]] = n_pool
                else:
                    head[nb] = n_pool
                tail[nb] = n_pool
                n_pool += 1
                pending += 1
    return goal_state, settled


@numba.njit(cache=True, nogil=True)
def collapse(key, K, M, sp, out_actions, out_feet, out_rounds):  # pragma: no cover - compiled
    """Per square, from the best of its three states: move actions used (``n_units / M``),
    time in feet of movement (a move action counts as the whole speed: ``5 * ((n - 1) * sp + f)``)
    and rounds (``ceil(actions / 2)``); NaN / -1 where unreached."""
    n = out_actions.shape[0]
    for i in range(n):
        b = i * 3
        best = min(key[b], key[b + 1], key[b + 2])
        if best == UNREACHED:
            out_actions[i] = np.nan
            out_feet[i] = -1
            out_rounds[i] = -1
            continue
        units = best // K
        f = best - units * K
        actions = units / M
        out_actions[i] = actions
        if units == 0:
            out_feet[i] = 0
        else:
            out_feet[i] = int(round(5 * ((actions - 1) * sp + f)))
        out_rounds[i] = int(np.ceil(actions / 2))
