"""The search behind paths and reach: every state settled at its least label, with a goal an
A* search (:func:`squares_to_goal` is its estimate), optionally tracking predecessors and the
feet walked (the package docstring sets out the states, labels and transitions). The loop of
:func:`search` is one function on purpose: numba's inlining of a helper that takes arrays adds
reference counting at every call (a first split of one expansion into inlined helpers ran paths
and reach 1.5x slower)."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.layout import (AWKWARD, BLOCKED, CRAWL, CRAWLED_IN, MAX_MULT, PRONE, TIGHT, WALK,
                                                pow2_above)
from sim.terrain.movement.kernel.lowlevel import prefetch
from sim.terrain.movement.kernel.steps import eta, fresh_step, prone_covered, turn_boundary, walk_step

_CANDIDATES = 32  # per expansion: 2 states x 8 directions x (a step + crawling instead)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def search(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key, goal, togo, togo_cap,
           nbuckets, key, pred, walked, done, track):  # pragma: no cover - compiled
    """Exact-rule search from square ``start`` over flat ``words`` (``R*C`` squares, C columns).

    ``key`` (3 N, preset to UNREACHED) receives the labels; ``done`` (3 N, zeroed) marks the
    states expanded. When ``track``, ``pred`` / ``walked`` (3 N) receive the state each was
    reached from and the feet walked on the way: the least movement among the equally early
    ways (a state that learns of a shorter walk after its expansion is expanded again). Labels
    above ``max_key`` are not kept. ``goal`` >= 0 stops at that square (A*, estimating the rest
    of the way by :func:`eta` over ``min(togo, togo_cap)`` from :func:`squares_to_goal`; when
    tracking, once no equally early way to it is left). ``nbuckets``: see :func:`ring_size`.
    ``start_key`` / ``start_par``: the label and diagonal parity the search starts from (``sp``
    and 0 at the start of a turn; later in a turn, what the turn's movement has used so far:
    a second move action goes on with the first one's budget and parity). ``track`` must be a constant where this is called (numba.literally: each value is compiled
    apart, without the other's branches; :func:`run` dispatches from a runtime value). Returns
    (the goal state reached first or -1, states expanded)."""
    numba.literally(track)
    N = words.shape[0]
    N2 = 2 * N
    kmask = (1 << kb) - 1
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    bmask = nbuckets - 1
    head = np.full(nbuckets, -1, dtype=np.int32)
    cap = 256
    pool = np.empty(2 * cap, dtype=np.int32)  # entries (state, next); popped ones are recycled
    free = -1
    # the states one expansion may improve: state, label, feet walked by the step, from which
    cand_s = np.empty(_CANDIDATES, dtype=np.int64)
    cand_k = np.empty(_CANDIDATES, dtype=np.int64)
    cand_ft = np.empty(_CANDIDATES, dtype=np.int64)
    cand_src = np.empty(_CANDIDATES, dtype=np.int64)
    # the states expanded together: a standing state and the other parity's when its label is
    # final too (at most one more than the bucket's), with what their walking steps need
    src = np.empty(2, dtype=np.int64)
    src_k = np.empty(2, dtype=np.int64)
    src_room = np.empty(2, dtype=np.int64)
    src_ts = np.empty(2, dtype=np.bool_)
    src_nxt = np.empty(2, dtype=np.int64)
    use_goal = goal >= 0
    pair = not use_goal  # labels are final one bucket ahead only in plain Dijkstra order
    inv_sp = 1.0 / sp
    tie = 1 if track else 0  # when tracking, an equal label may still bring a shorter walk

    s0 = N2 + start if start_prone else 2 * start + start_par
    key[s0] = start_key  # (sp at a turn's start: no move action in progress, the next step starts action 1)
    if track:
        pred[s0] = -1
        walked[s0] = 0
    cur = start_key
    if use_goal:
        cur = eta(start_key, min(togo[start], togo_cap), sp, kb, M, inv_sp)
    pool[0] = s0
    pool[1] = -1
    n_pool = 1
    head[cur & bmask] = 0
    pending = 1
    settled = 0
    found = -1
    while pending > 0:
        e = head[cur & bmask]
        if e < 0:
            if found >= 0:
                break  # the goal's bucket is empty: no equally early way to it is left
            cur += 1
            continue
        nx = pool[2 * e + 1]
        head[cur & bmask] = nx
        s = pool[2 * e]
        pool[2 * e + 1] = free
        free = e
        pending -= 1
        if nx >= 0:
            prefetch(key, pool[2 * nx])
        k0 = key[s]
        if s < N2:
            cell = s >> 1
            st = s & 1
        else:
            cell = s - N2
            st = PRONE
        if use_goal:
            if eta(k0, min(togo[cell], togo_cap), sp, kb, M, inv_sp) != cur:
                continue  # stale: improved since it was queued
        elif k0 != cur:
            continue
        if done[s]:
            continue  # expanded already, beside the other parity
        done[s] = 1
        if st == PRONE and prone_covered(key, 2 * cell, k0, M, kb):
            continue
        settled += 1
        if cell == goal:
            if not track:
                return s, settled
            if found < 0:
                found = s
            continue

        w = np.int64(words[cell])
        mask = w & 255
        nsrc = 1
        src[0] = s
        if pair and st != PRONE and key[s ^ 1] <= cur + 1 and done[s ^ 1] == 0:
            src[1] = s ^ 1  # nothing can lower it any more: expand it now, sharing the loads
            done[s ^ 1] = 1
            nsrc = 2
            settled += 1
        for j in range(nsrc):
            kj = key[src[j]]
            nj = kj >> kb
            src_k[j] = kj
            src_room[j] = sp - (kj & kmask)
            src_ts[j] = (nj & 1) == 0 if M == 1 else nj % (2 * M) == 0  # the next action starts a turn
            src_nxt[j] = (nj + M) << kb
        # a neighbour standing by then at both parities cannot be improved from here (every
        # step adds at least 1, and standing beats prone as early; when tracking, an equal
        # label may still bring a shorter walk)
        lim = k0 + 1 - tie
        nc = 0
        slow = 0  # (direction, source) pairs left to the general code below: bit d + 8 j
        if st != PRONE:
            for d in range(8):
                if not (mask >> d) & 1:
                    continue
                ncell = cell + off[d]
                nb = 2 * ncell
                if key[nb] <= lim and key[nb + 1] <= lim:
                    continue
                nw = np.int64(words[ncell])
                if (nw >> 8) & 7 != WALK:
                    slow |= (1 << d) | ((1 << (d + 8)) if nsrc == 2 else 0)
                    continue
                m = nw >> 12
                for j in range(nsrc):
                    sj = src[j]
                    nk, par, cost = walk_step(m, d >= 4, sj & 1, src_k[j], src_room[j], src_ts[j], src_nxt[j], sp)
                    if nk < 0:
                        slow |= 1 << (d + 8 * j)
                        continue
                    ns = nb + par
                    if nk - tie < key[ns]:
                        cand_s[nc] = ns
                        cand_k[nc] = nk
                        cand_ft[nc] = 5 * cost
                        cand_src[nc] = sj
                        nc += 1
                    if par == 1:
                        # or drop prone (free), crawl in and stand up: parity 0, one move action
                        # after crawling; the prone state between brings nothing else (it is
                        # covered by this walk), so it is skipped (the pred keeps a note of it)
                        ck = (((src_k[j] >> kb) + M * m + M) << kb) + sp
                        if ck - tie < key[nb]:
                            cand_s[nc] = nb
                            cand_k[nc] = ck
                            cand_ft[nc] = 5
                            cand_src[nc] = sj | CRAWLED_IN
                            nc += 1
        else:
            slow = mask
            if (w >> 8) & 7 == WALK:  # stand up in place: a move action
                cand_s[nc] = 2 * cell
                cand_k[nc] = src_nxt[0] + sp
                cand_ft[nc] = 0
                cand_src[nc] = s
                nc += 1
        if slow:
            for b in range(16):
                if not (slow >> b) & 1:
                    continue
                d = b & 7
                j = b >> 3
                sj = src[j]
                sst = PRONE if sj >= N2 else sj & 1
                n_units = src_k[j] >> kb
                ncell = cell + off[d]
                nb = 2 * ncell
                if key[nb] <= lim and key[nb + 1] <= lim:
                    continue
                nw = np.int64(words[ncell])
                mq = (nw >> 8) & 7
                m = nw >> 12
                if mq == BLOCKED:
                    continue
                if mq == WALK and sst != PRONE:
                    # a step that does not fit what is left of the turn: from the next turn (the
                    # count restarts), by the minimum movement if dearer than a double move ...
                    diag1 = d >= 4 and m == 1
                    cost = (1 if diag1 else (3 * m) >> 1) if d >= 4 else m
                    cand_s[nc] = nb + (1 if diag1 else 0)
                    cand_k[nc] = fresh_step(n_units, src_ts[j], M, kb, sp, cost)
                    cand_ft[nc] = 5 * cost
                    cand_src[nc] = sj
                    nc += 1
                    # ... or drop prone (free) and crawl
                    cand_s[nc] = N2 + ncell
                    cand_k[nc] = ((n_units + M * m) << kb) + sp
                    cand_ft[nc] = 5
                    cand_src[nc] = sj
                    nc += 1
                elif mq == WALK or mq == CRAWL:  # crawl: a square per move action (x multiplier)
                    cand_s[nc] = N2 + ncell
                    cand_k[nc] = ((n_units + M * m) << kb) + sp
                    cand_ft[nc] = 5
                    cand_src[nc] = sj
                    nc += 1
                else:  # Escape Artist
                    if mq == AWKWARD:
                        if awk_units <= 0:
                            continue
                        nk = ((n_units + awk_units) << kb) + sp
                    else:
                        if tight_units <= 0:
                            continue
                        nk = ((turn_boundary(n_units, src_ts[j], M) + tight_units) << kb) + sp
                    cand_s[nc] = N2 + ncell if (nw >> 11) & 1 else nb
                    cand_k[nc] = nk
                    cand_ft[nc] = 5
                    cand_src[nc] = sj
                    nc += 1

        if n_pool + nc > cap:
            grown = np.empty(4 * cap, dtype=np.int32)
            grown[:2 * cap] = pool
            pool = grown
            cap *= 2
        for i in range(nc):
            ns = cand_s[i]
            nk = cand_k[i]
            if nk > max_key:
                continue
            if ns < N2:
                nb = ns - (ns & 1)
            else:
                nb = 2 * (ns - N2)
                if prone_covered(key, nb, nk, M, kb):
                    continue
            if nk >= key[ns]:
                if not (track and nk == key[ns] and walked[cand_src[i] & ~CRAWLED_IN] + cand_ft[i] < walked[ns]):
                    continue
                pred[ns] = cand_src[i]  # as early, with less movement: prefer it ...
                walked[ns] = walked[cand_src[i] & ~CRAWLED_IN] + cand_ft[i]
                if done[ns] == 0:
                    continue  # ... it is still queued
                done[ns] = 0  # ... and pass it on: expand it again
            else:
                key[ns] = nk
                if track:
                    pred[ns] = cand_src[i]
                    walked[ns] = walked[cand_src[i] & ~CRAWLED_IN] + cand_ft[i]
            prio = nk
            if use_goal:
                prio = eta(nk, min(togo[nb >> 1], togo_cap), sp, kb, M, inv_sp)
                if prio - cur >= nbuckets:
                    raise ValueError("bucket ring too small for this search")
            prefetch(key, nb - 2 * C)  # what it will look at when its turn comes
            prefetch(key, nb + 2 * C)
            prefetch(words, (nb >> 1) - C)
            prefetch(words, (nb >> 1) + C)
            prefetch(done, ns)
            if free >= 0:
                ne = free
                free = pool[2 * ne + 1]
            else:
                ne = n_pool
                n_pool += 1
            pool[2 * ne] = ns
            pool[2 * ne + 1] = head[prio & bmask]
            head[prio & bmask] = ne
            pending += 1
    return found, settled


@numba.njit(cache=True, nogil=True)
def run(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key, goal, togo,
        togo_cap, nbuckets, key, pred, walked, done, track):  # pragma: no cover - compiled
    """:func:`search` with ``track`` a runtime value."""
    if track:
        return search(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units,
                      max_key, goal, togo, togo_cap, nbuckets, key, pred, walked, done, True)
    return search(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key,
                  goal, togo, togo_cap, nbuckets, key, pred, walked, done, False)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def squares_to_goal(words, C, goal, start, sp, M, awk_units, tight_units, togo):  # pragma: no cover - compiled
    """The A* estimate of :func:`search`: per square, a lower bound of the squares' worth of
    movement from it to ``goal`` (a square = one unit of a move action's budget: a move action
    holds ``sp``). A single-state search backwards over the same moves, each costed at the least
    any posture, parity or point of the turn can make it: walking ``m`` (diagonals 1, or
    ``1.5 m``), but no more than the full-round minimum move (2 actions) or crawling (``m``
    actions); crawling ``m`` actions; Escape Artist its whole actions of tries. A step then
    raises a label at least as much as that many single squares would, so :func:`eta` over it
    is consistent. It stops once ``start`` is settled at ``cap``: squares not settled by then
    are at least ``cap`` away, and ``min(togo, cap)`` is the estimate. Fills ``togo`` (N int32,
    preset to UNREACHED where the search may go) and returns ``cap``, or -1 when ``start``
    cannot reach the goal at all."""
    N = words.shape[0]
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    awk = (awk_units // M) * sp if awk_units > 0 else -1
    tight = (tight_units // M) * sp if tight_units > 0 else -1
    nbuckets = pow2_above(max(2 * sp, MAX_MULT * sp, awk, tight))
    bmask = nbuckets - 1
    head = np.full(nbuckets, -1, dtype=np.int32)
    cap = 1024
    pool = np.empty(2 * cap, dtype=np.int32)  # (square, next), recycled as in search
    free = -1
    togo[goal] = 0
    pool[0] = goal
    pool[1] = -1
    n_pool = 1
    head[0] = 0
    pending = 1
    cur = 0
    while pending > 0:
        e = head[cur & bmask]
        if e < 0:
            cur += 1
            continue
        head[cur & bmask] = pool[2 * e + 1]
        v = pool[2 * e]
        pool[2 * e + 1] = free
        free = e
        pending -= 1
        if togo[v] != cur:
            continue
        if v == start:
            return cur
        w = np.int64(words[v])
        mode = (w >> 8) & 7
        m = w >> 12
        if mode == WALK:  # the least of walking, the minimum move and crawling into v
            orth = min(m, 2 * sp, m * sp)
            diag = min(1 if m == 1 else (3 * m) >> 1, 2 * sp, m * sp)
        elif mode == CRAWL:
            orth = diag = m * sp
        elif mode == AWKWARD and awk >= 0:
            orth = diag = awk
        elif mode == TIGHT and tight >= 0:
            orth = diag = tight
        else:
            continue  # nothing enters v
        if n_pool + 8 > cap:
            grown = np.empty(4 * cap, dtype=np.int32)
            grown[:2 * cap] = pool
            pool = grown
            cap *= 2
        for d in range(8):
            u = v - off[d]  # the square that enters v by a move in direction d
            if u < 0 or u >= N or not (np.int64(words[u]) >> d) & 1:
                continue
            nd = cur + (orth if d < 4 else diag)
            if nd < togo[u]:
                togo[u] = nd
                if free >= 0:
                    ne = free
                    free = pool[2 * ne + 1]
                else:
                    ne = n_pool
                    n_pool += 1
                pool[2 * ne] = u
                pool[2 * ne + 1] = head[nd & bmask]
                head[nd & bmask] = ne
                pending += 1
    return -1
