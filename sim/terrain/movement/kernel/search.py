"""The search behind paths and reach: every state settled at its least label, with a goal an
A* search (:func:`squares_to_goal` is its estimate), optionally tracking predecessors and the
feet walked (the package docstring sets out the states, labels and transitions). One expansion
of the loop (:func:`_search_loop`) is a few helpers numba inlines into it (``inline="always"``):
the walking steps out of the square (:func:`_walks`, along :func:`open_moves`; the neighbour
step a new kind of move extends), the steps they leave (:func:`_other`), then :func:`_queue`
(:func:`_improves`, :func:`_push`). They are handed raw pointers to the loop's arrays
(:func:`~.lowlevel.pointer`): numba counts references on every array an inlined call is given,
and a first split that passed the arrays ran paths and reach 1.5x slower; over pointers the
split runs as fast as the whole loop did (docs/architecture.md gives the figures)."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.layout import (AWKWARD, BLOCKED, CRAWL, CRAWLED_IN, MAX_MULT, PRONE, TIGHT, WALK,
                                                pow2_above)
from sim.terrain.movement.kernel.lowlevel import pointer, prefetch
from sim.terrain.movement.kernel.steps import eta, fresh_step, open_moves, prone_covered, turn_boundary, walk_step

_CANDIDATES = 32  # per expansion: 2 states x 8 directions x (a step + crawling instead)


@numba.njit(cache=True, nogil=True, inline="always")
def _pop(key, pool, head, slot, e, free):  # pragma: no cover - compiled
    """Take entry ``e``, the first of bucket ``slot``, off its list and onto the free list
    (``free`` its old head); prefetch the label of the state queued after it. Returns its state."""
    nx = pool[2 * e + 1]
    head[slot] = nx
    s = pool[2 * e]
    pool[2 * e + 1] = free
    if nx >= 0:
        prefetch(key, pool[2 * nx])
    return s


@numba.njit(cache=True, nogil=True, inline="always")
def _add(cand_s, cand_k, cand_ft, cand_src, nc, ns, nk, ft, src):  # pragma: no cover - compiled
    """Note candidate ``nc`` of an expansion: state ``ns`` at label ``nk``, ``ft`` feet walked by
    the step, from state ``src``. Returns the new count."""
    cand_s[nc] = ns
    cand_k[nc] = nk
    cand_ft[nc] = ft
    cand_src[nc] = src
    return nc + 1


@numba.njit(cache=True, nogil=True, inline="always")
def _walks(words, key, off, cell, mask, src, src_k, src_room, src_ts, src_nxt, nsrc, lim, tie, sp, kb, M,
           cand_s, cand_k, cand_ft, cand_src):  # pragma: no cover - compiled
    """The neighbour step of an expansion: the walking steps from the standing sources
    ``src[:nsrc]`` (a state and the other parity expanded beside it) out of ``cell`` along the
    open moves ``mask`` (:func:`open_moves`) into WALK squares, within what is left of the turn
    (:func:`walk_step`), each with the crawl in and stand up it allows. A neighbour standing by
    then at both parities (labels at most ``lim``) cannot be improved and is passed over. The
    candidates go to ``cand_*``. Returns (their count, the (direction, source) pairs left to
    :func:`_other`: bit d + 8 j)."""
    nc = 0
    slow = 0
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
                nc = _add(cand_s, cand_k, cand_ft, cand_src, nc, ns, nk, 5 * cost, sj)
            if par == 1:
                # or drop prone (free), crawl in and stand up: parity 0, one move action
                # after crawling; the prone state between brings nothing else (it is
                # covered by this walk), so it is skipped (the pred keeps a note of it)
                ck = (((src_k[j] >> kb) + M * m + M) << kb) + sp
                if ck - tie < key[nb]:
                    nc = _add(cand_s, cand_k, cand_ft, cand_src, nc, nb, ck, 5, sj | CRAWLED_IN)
    return nc, slow


@numba.njit(cache=True, nogil=True, inline="always")
def _other(words, key, ncell, d, sj, n_units, ts, lim, N2, sp, kb, M, awk_units, tight_units,
           cand_s, cand_k, cand_ft, cand_src, nc):  # pragma: no cover - compiled
    """A step into ``ncell`` (direction ``d``) that :func:`_walks` leaves, from state ``sj`` of
    ``n_units`` (``ts``: its next move action starts a turn): a walk timed from the next turn,
    crawling (prone, or into a CRAWL square), Escape Artist. Appends to ``cand_*`` after the
    ``nc`` written; returns the new count."""
    sst = PRONE if sj >= N2 else sj & 1
    nb = 2 * ncell
    if key[nb] <= lim and key[nb + 1] <= lim:
        return nc
    nw = np.int64(words[ncell])
    mq = (nw >> 8) & 7
    m = nw >> 12
    if mq == BLOCKED:
        return nc
    if mq == WALK and sst != PRONE:
        # a step that does not fit what is left of the turn: from the next turn (the
        # count restarts), by the minimum movement if dearer than a double move ...
        diag1 = d >= 4 and m == 1
        cost = (1 if diag1 else (3 * m) >> 1) if d >= 4 else m
        nc = _add(cand_s, cand_k, cand_ft, cand_src, nc, nb + (1 if diag1 else 0),
                  fresh_step(n_units, ts, M, kb, sp, cost), 5 * cost, sj)
        # ... or drop prone (free) and crawl
        return _add(cand_s, cand_k, cand_ft, cand_src, nc, N2 + ncell, ((n_units + M * m) << kb) + sp, 5, sj)
    if mq == WALK or mq == CRAWL:  # crawl: a square per move action (x multiplier)
        return _add(cand_s, cand_k, cand_ft, cand_src, nc, N2 + ncell, ((n_units + M * m) << kb) + sp, 5, sj)
    # Escape Artist
    if mq == AWKWARD:
        if awk_units <= 0:
            return nc
        nk = ((n_units + awk_units) << kb) + sp
    else:
        if tight_units <= 0:
            return nc
        nk = ((turn_boundary(n_units, ts, M) + tight_units) << kb) + sp
    return _add(cand_s, cand_k, cand_ft, cand_src, nc, N2 + ncell if (nw >> 11) & 1 else nb, nk, 5, sj)


@numba.njit(cache=True, nogil=True, inline="always")
def _improves(key, pred, walked, done, ns, nk, ft, src, track):  # pragma: no cover - compiled
    """Whether candidate state ``ns`` at label ``nk`` (``ft`` feet from state ``src``) improves
    it: a lower label (stored), or, when tracking, as early with less movement (its pred and
    feet replaced; queued again only if it was expanded already). Returns whether to queue it."""
    if nk >= key[ns]:
        if not (track and nk == key[ns] and walked[src & ~CRAWLED_IN] + ft < walked[ns]):
            return False
        pred[ns] = src  # as early, with less movement: prefer it ...
        walked[ns] = walked[src & ~CRAWLED_IN] + ft
        if done[ns] == 0:
            return False  # ... it is still queued
        done[ns] = 0  # ... and pass it on: expand it again
        return True
    key[ns] = nk
    if track:
        pred[ns] = src
        walked[ns] = walked[src & ~CRAWLED_IN] + ft
    return True


@numba.njit(cache=True, nogil=True, inline="always")
def _push(words, key, done, pool, head, free, n_pool, ns, nb, prio, bmask, C):  # pragma: no cover - compiled
    """Queue state ``ns`` (its square's standing pair at ``nb``) at priority ``prio``: at the head
    of its bucket's list, in a freed entry first; prefetch what its expansion will read.
    Returns (free, n_pool)."""
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
    return free, n_pool


@numba.njit(cache=True, nogil=True, inline="always")
def _queue(words, key, pred, walked, done, togo, pool, head, cand_s, cand_k, cand_ft, cand_src, nc, free, n_pool,
           max_key, N2, M, kb, sp, inv_sp, C, togo_cap, cur, nbuckets, use_goal, track):  # pragma: no cover
    """Queue the ``nc`` candidates of one expansion that improve their state (:func:`_improves`)
    and keep within ``max_key``, skipping prone ones a standing label covers, at their label or,
    with a goal, their A* priority (:func:`eta`). ``pool`` has room for all. Returns (free,
    n_pool, entries queued)."""
    queued = 0
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
        if not _improves(key, pred, walked, done, ns, nk, cand_ft[i], cand_src[i], track):
            continue
        prio = nk
        if use_goal:
            prio = eta(nk, min(togo[nb >> 1], togo_cap), sp, kb, M, inv_sp)
            if prio - cur >= nbuckets:
                raise ValueError("bucket ring too small for this search")
        free, n_pool = _push(words, key, done, pool, head, free, n_pool, ns, nb, prio, nbuckets - 1, C)
        queued += 1
    return free, n_pool, queued


@numba.njit(cache=True, nogil=True, inline="always")
def _source(key, src, src_k, src_room, src_ts, src_nxt, j, s, sp, kb, M):  # pragma: no cover - compiled
    """Note state ``s`` as source ``j`` of an expansion, with what its walking steps need: its
    label, the room left in its move action, whether its next move action starts a turn, the
    label at which that action starts."""
    kj = key[s]
    nj = kj >> kb
    src[j] = s
    src_k[j] = kj
    src_room[j] = sp - (kj & ((1 << kb) - 1))
    src_ts[j] = (nj & 1) == 0 if M == 1 else nj % (2 * M) == 0  # the next action starts a turn
    src_nxt[j] = (nj + M) << kb


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
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    head = np.full(nbuckets, -1, dtype=np.int32)
    # the states one expansion may improve: state, label, feet walked by the step, from which
    cand = np.empty((4, _CANDIDATES), dtype=np.int64)
    # the states expanded together: a standing state and the other parity's when its label is
    # final too (at most one more than the bucket's), with what their walking steps need
    # (state, label, room, next action starts a turn, the label at which it starts)
    srcs = np.empty((5, 2), dtype=np.int64)
    return _search_loop(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key,
                        goal, togo, togo_cap, nbuckets, key, pred, walked, done, off, head, cand, srcs, track)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _search_loop(words_a, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key, goal,
                 togo_a, togo_cap, nbuckets, key_a, pred_a, walked_a, done_a, off_a, head_a, cand, srcs,
                 track):  # pragma: no cover - compiled
    """The loop of :func:`search` (``off_a``, ``head_a``, ``cand``, ``srcs``: its work arrays),
    over raw pointers to its arrays (:func:`~.lowlevel.pointer`: no reference counting in the
    helpers it inlines). Returns what :func:`search` does."""
    numba.literally(track)
    words, key, pred, walked, done = (pointer(words_a), pointer(key_a), pointer(pred_a), pointer(walked_a),
                                      pointer(done_a))
    togo, off, head = pointer(togo_a), pointer(off_a), pointer(head_a)
    cand_s, cand_k, cand_ft, cand_src = pointer(cand[0]), pointer(cand[1]), pointer(cand[2]), pointer(cand[3])
    src, src_k, src_room = pointer(srcs[0]), pointer(srcs[1]), pointer(srcs[2])
    src_ts, src_nxt = pointer(srcs[3]), pointer(srcs[4])
    N2 = 2 * words_a.shape[0]
    bmask = nbuckets - 1
    cap = 256
    pool_a = np.empty(2 * cap, dtype=np.int32)  # entries (state, next); popped ones are recycled
    pool = pointer(pool_a)
    free = -1
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
        s = _pop(key, pool, head, cur & bmask, e, free)
        free = e
        pending -= 1
        k0 = key[s]
        cell, st = (s >> 1, s & 1) if s < N2 else (s - N2, PRONE)
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
        mask = open_moves(words, cell)
        nsrc = 1
        _source(key, src, src_k, src_room, src_ts, src_nxt, 0, s, sp, kb, M)
        if pair and st != PRONE and key[s ^ 1] <= cur + 1 and done[s ^ 1] == 0:
            # nothing can lower it any more: expand it now, sharing the loads
            _source(key, src, src_k, src_room, src_ts, src_nxt, 1, s ^ 1, sp, kb, M)
            done[s ^ 1] = 1
            nsrc = 2
            settled += 1
        # a neighbour standing by then at both parities cannot be improved from here (every
        # step adds at least 1, and standing beats prone as early; when tracking, an equal
        # label may still bring a shorter walk)
        lim = k0 + 1 - tie
        if st != PRONE:
            nc, slow = _walks(words, key, off, cell, mask, src, src_k, src_room, src_ts, src_nxt, nsrc, lim, tie, sp,
                              kb, M, cand_s, cand_k, cand_ft, cand_src)
        else:
            slow = mask
            nc = 0
            if (np.int64(words[cell]) >> 8) & 7 == WALK:  # stand up in place: a move action
                nc = _add(cand_s, cand_k, cand_ft, cand_src, 0, 2 * cell, src_nxt[0] + sp, 0, s)
        for b in range(16):
            if (slow >> b) & 1:
                j = b >> 3
                nc = _other(words, key, cell + off[b & 7], b & 7, src[j], src_k[j] >> kb, src_ts[j], lim, N2, sp, kb,
                            M, awk_units, tight_units, cand_s, cand_k, cand_ft, cand_src, nc)
        if n_pool + nc > cap:
            grown = np.empty(4 * cap, dtype=np.int32)
            grown[:2 * cap] = pool_a
            pool_a = grown
            pool = pointer(pool_a)
            cap *= 2
        free, n_pool, queued = _queue(words, key, pred, walked, done, togo, pool, head, cand_s, cand_k, cand_ft,
                                      cand_src, nc, free, n_pool, max_key, N2, M, kb, sp, inv_sp, C, togo_cap, cur,
                                      nbuckets, use_goal, track)
        pending += queued
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
            if u < 0 or u >= N or not (open_moves(words, u) >> d) & 1:
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
