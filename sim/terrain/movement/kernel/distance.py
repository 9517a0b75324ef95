"""The search of a distance map: the least label of every state from one square, no goal, no
predecessors, no feet walked (:func:`distance_search`), and the map's move actions, feet and
rounds from it (:func:`distance`). Compiled apart from :mod:`.search` with a loop tuned for what
costs there (see :func:`distance_search`). One expansion is a few helpers numba inlines into the
loop (``inline="always"``): :func:`_dwalks` (the walking steps, each :func:`_dwalk`), then
:func:`_dother` for each step they leave; :func:`_dpush` / :func:`_drelax` queue a label. Each
helper is handed raw pointers to the loop's arrays (:func:`~.lowlevel.pointer`, in
:func:`_dloop`): numba counts references on every array an inlined call is given (a first split
that passed the arrays ran the distance map 1.2-1.9x slower); over pointers the split runs as
fast as the whole loop did (docs/architecture.md gives the figures)."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.layout import AWKWARD, BLOCKED, CRAWL, PRONE, UNREACHED, WALK
from sim.terrain.movement.kernel.lowlevel import load, lowest_bit, pointer, prefetch, store
from sim.terrain.movement.kernel.steps import fresh_step, open_moves, prone_covered, turn_boundary, walk_step


EXPANDED = 1 << 31  # subtracted from an expanded state's key in :func:`distance_search`: the sign bit


@numba.njit(cache=True, nogil=True, inline="always")
def _dpush(key, words, pool, head, free, n_pool, bmask, ns, nk, nb, C):  # pragma: no cover - compiled
    """Store label ``nk`` of state ``ns`` (its square's standing pair at ``nb``) and queue it at
    the head of its bucket's list (a freed entry first); prefetch what its expansion will read.
    Returns (free, n_pool)."""
    store(key, ns, nk)
    prefetch(key, nb - 2 * C)
    prefetch(key, nb + 2 * C)
    prefetch(words, (nb >> 1) - C)
    prefetch(words, (nb >> 1) + C)
    if free >= 0:
        ne = free
        free = load(pool, 2 * ne + 1)
    else:
        ne = n_pool
        n_pool += 1
    store(pool, 2 * ne, ns)
    store(pool, 2 * ne + 1, load(head, nk & bmask))
    store(head, nk & bmask, ne)
    return free, n_pool


@numba.njit(cache=True, nogil=True, inline="always")
def _drelax(key, words, pool, head, free, n_pool, pending, bmask, ns, nk, C, N2, M, kb):  # pragma: no cover
    """Label ``nk`` for state ``ns`` unless it brings nothing (no better than its label; a prone
    label a standing state of its square covers). Returns (free, n_pool, pending)."""
    if ns < N2:
        nb = ns - (ns & 1)
    else:
        nb = 2 * (ns - N2)
        if prone_covered(key, nb, nk, M, kb):
            return free, n_pool, pending
    if nk >= load(key, ns):
        return free, n_pool, pending
    free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, ns, nk, nb, C)
    return free, n_pool, pending + 1


@numba.njit(cache=True, nogil=True, inline="always")
def _dpop(key, pool, head, slot, e, free):  # pragma: no cover - compiled
    """Take entry ``e``, the first of bucket ``slot``, off its list and onto the free list
    (``free`` its old head); prefetch the label of the state queued after it. Returns its state."""
    nx = load(pool, 2 * e + 1)
    store(head, slot, nx)
    s = np.int64(load(pool, 2 * e))
    store(pool, 2 * e + 1, free)
    if nx >= 0:
        prefetch(key, load(pool, 2 * nx))
    return s


@numba.njit(cache=True, nogil=True, inline="always")
def _dwalk(key, words, pool, head, free, n_pool, pending, bmask, C, nb, m, diag, st, k, n, ts, sp, kb, kmask,
           M):  # pragma: no cover - compiled
    """The walking step of one standing source (parity ``st``, label ``k``, ``n`` its units,
    ``ts`` whether its next move action starts a turn) into the WALK square of multiplier ``m``
    whose standing pair is at ``nb`` (:func:`walk_step`), within what is left of the turn, and
    the crawl in and stand up it allows. Returns (free, n_pool, pending, whether the step did not
    fit the turn: then it is left to :func:`_dother`)."""
    nk, par, _ = walk_step(m, diag, st, k, sp - (k & kmask), ts, (n + M) << kb, sp)
    if nk < 0:
        return free, n_pool, pending, True
    if nk < load(key, nb + par):
        free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb + par, nk, nb, C)
        pending += 1
    # or drop prone (free), crawl in and stand up: parity 0, one move action after crawling
    # (the prone state between is covered by the walk, so it is skipped)
    ck = ((n + M * m + M) << kb) + sp
    if (par == 1) & (ck < load(key, nb)):
        free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb, ck, nb, C)
        pending += 1
    return free, n_pool, pending, False


@numba.njit(cache=True, nogil=True, inline="always")
def _dwalks(key, words, pool, head, off, free, n_pool, pending, bmask, C, cell, mask, st, k0, n0, ts0, k1, n1, ts1,
            sp, kb, kmask, M):  # pragma: no cover - compiled
    """The walking steps from the standing state of label ``k0`` at ``cell`` (parity ``st``)
    and, when ``k1 >= 0``, its other parity expanded beside it, along the open moves ``mask``
    (:func:`open_moves`). The neighbours that cannot be improved (both standing labels at most
    ``k0 + 1``: every step adds at least 1, and standing beats prone as early) are found for all
    eight directions at once, without a branch per direction (mispredicted wherever walls or 2x
    squares make the labels irregular), and the others visited by their set bits. Returns (free,
    n_pool, pending, the (direction, source) pairs left to :func:`_dother`: bit d + 8 j)."""
    lim = k0 + 1
    skip = 0
    for d in range(8):
        nb = 2 * (cell + ((mask >> d) & 1) * load(off, d))  # a closed direction reads this square
        skip |= np.int64((load(key, nb) <= lim) & (load(key, nb + 1) <= lim)) << d
    todo = mask & ~skip
    slow = 0
    while todo:
        d = lowest_bit(todo)
        todo &= todo - 1
        ncell = cell + load(off, d)
        nb = 2 * ncell
        nw = np.int64(load(words, ncell))
        if (nw >> 8) & 7 != WALK:
            slow |= (1 << d) | ((1 << (d + 8)) if k1 >= 0 else 0)
            continue
        m = nw >> 12
        free, n_pool, pending, late = _dwalk(key, words, pool, head, free, n_pool, pending, bmask, C, nb, m, d >= 4,
                                             st, k0, n0, ts0, sp, kb, kmask, M)
        if late:
            slow |= 1 << d
        if k1 >= 0:
            free, n_pool, pending, late = _dwalk(key, words, pool, head, free, n_pool, pending, bmask, C, nb, m,
                                                 d >= 4, st ^ 1, k1, n1, ts1, sp, kb, kmask, M)
            if late:
                slow |= 1 << (d + 8)
    return free, n_pool, pending, slow


@numba.njit(cache=True, nogil=True, inline="always")
def _dother(key, words, pool, head, free, n_pool, pending, bmask, C, N2, ncell, d, lim, n_units, ts, sst, sp, kb, M,
            awk_units, tight_units):  # pragma: no cover - compiled
    """The steps into ``ncell`` (direction ``d``) that :func:`_dwalks` leaves, from a source of
    ``n_units`` (posture ``sst``; ``ts``: its next move action starts a turn): a walk timed from
    the next turn, crawling (prone, or into a CRAWL square), Escape Artist. Returns (free,
    n_pool, pending)."""
    nb = 2 * ncell
    if (load(key, nb) <= lim) & (load(key, nb + 1) <= lim):
        return free, n_pool, pending
    nw = np.int64(load(words, ncell))
    mq = (nw >> 8) & 7
    m = nw >> 12
    if mq == BLOCKED:
        return free, n_pool, pending
    if mq == WALK and sst != PRONE:
        # a step that does not fit what is left of the turn: from the next turn, by the
        # minimum movement if dearer than a double move (§6.1) ...
        diag1 = d >= 4 and m == 1
        free, n_pool, pending = _drelax(key, words, pool, head, free, n_pool, pending, bmask,
                                        nb + (1 if diag1 else 0),
                                        fresh_step(n_units, ts, M, kb, sp,
                                                   (1 if diag1 else (3 * m) >> 1) if d >= 4 else m),
                                        C, N2, M, kb)
        # ... or drop prone (free) and crawl
        nk = ((n_units + M * m) << kb) + sp
        ns = N2 + ncell
    elif mq == WALK or mq == CRAWL:  # crawl: a square per move action (x multiplier)
        nk = ((n_units + M * m) << kb) + sp
        ns = N2 + ncell
    else:  # Escape Artist
        if mq == AWKWARD:
            if awk_units <= 0:
                return free, n_pool, pending
            nk = ((n_units + awk_units) << kb) + sp
        else:
            if tight_units <= 0:
                return free, n_pool, pending
            nk = ((turn_boundary(n_units, ts, M) + tight_units) << kb) + sp
        ns = N2 + ncell if (nw >> 11) & 1 else nb
    return _drelax(key, words, pool, head, free, n_pool, pending, bmask, ns, nk, C, N2, M, kb)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def distance_search(words, C, start, start_prone, sp, kb, M, awk_units, tight_units, nbuckets, key, pool,
                    head):  # pragma: no cover - compiled
    """The search of :func:`distance`: no goal, no predecessors, no feet walked, only the least
    label of every state (what a distance map needs), compiled apart from :func:`search` so that
    its loop holds nothing else. Same states, transitions, labels and pruning as :func:`search`
    with ``track=False`` and no goal, so every square's least label is the same (a state left
    unexpanded, e.g. a covered prone one, may keep another label, as relaxations come in another
    order; tests/movement/test_distance_kernel.py); only the work differs:

    * an expanded state is marked by :data:`EXPANDED` subtracted from its key (the sign bit) in
      place of a ``done`` array: a marked key is below every label, and an expanded state's
      label is final and at most one above the bucket's (the other parity expanded beside it),
      so every comparison that can meet one (``<= lim``, ``<`` a candidate, the prone cover
      test of a candidate, all against labels above the bucket's) answers as with the label
      itself. The prone cover test at a prone state's expansion compares with the bucket's own
      label ``cur``: a standing label ``cur + 1`` would answer differently, but there is none
      (a prone label is ``(n << kb) + sp``; the next integer has ``f = sp + 1``, or ``f = 0``
      when ``2**kb = sp + 1``, and every label has ``1 <= f <= sp``), so it too answers as
      before. Callers read ``key & 0x7FFFFFFF``.
    * the neighbours that cannot be improved (both standing labels at most ``key + 1``) are
      found for all eight directions at once, without a branch per direction, and the loop
      visits the others only, by their set bits (the branch per direction was mispredicted
      wherever walls or 2x squares make the labels irregular).
    * array accesses without the negative-index wraparound, the queue entries in a fixed
      ``pool`` (a growing one inside the loop costs reference counting on every pop).

    ``key`` (3 N, preset to UNREACHED) receives the labels; ``pool`` (2 x entries, int32) and
    ``head`` (``nbuckets`` int32) are work arrays. Returns the states expanded, or -1 when
    ``pool`` is too small (the caller retries with a larger one, from fresh labels)."""
    head[:] = -1
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    return _dloop(words, C, start, start_prone, sp, kb, M, awk_units, tight_units, nbuckets, key, pool, head, off)


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _dloop(words_a, C, start, start_prone, sp, kb, M, awk_units, tight_units, nbuckets, key_a, pool_a, head_a,
           off_a):  # pragma: no cover - compiled
    """The loop of :func:`distance_search` (``off_a``: the square offsets of the directions),
    over raw pointers to its arrays (:func:`~.lowlevel.pointer`: no reference counting in the
    helpers it inlines). Returns what :func:`distance_search` does."""
    words, key, pool, head, off = pointer(words_a), pointer(key_a), pointer(pool_a), pointer(head_a), pointer(off_a)
    N = words_a.shape[0]
    N2 = 2 * N
    kmask = (1 << kb) - 1
    bmask = nbuckets - 1
    cap = pool_a.shape[0] // 2
    free = -1
    s0 = N2 + start if start_prone else 2 * start
    store(key, s0, sp)  # no move action in progress: the next step starts action 1
    cur = sp
    store(pool, 0, s0)
    store(pool, 1, -1)
    n_pool = 1
    store(head, cur & bmask, 0)
    pending = 1
    settled = 0
    while pending > 0:
        e = load(head, cur & bmask)
        if e < 0:
            cur += 1
            continue
        s = _dpop(key, pool, head, cur & bmask, e, free)
        free = e
        pending -= 1
        k0 = np.int64(load(key, s))
        if k0 != cur:
            continue  # stale (improved since), or expanded already beside the other parity
        store(key, s, k0 - EXPANDED)
        if s < N2:
            cell = s >> 1
            st = s & 1
        else:
            cell = s - N2
            st = PRONE
            if prone_covered(key, 2 * cell, k0, M, kb):
                continue
        settled += 1
        if n_pool + 40 > cap:
            return -1  # an expansion queues at most 2 x 8 x 2 + 1 entries
        mask = open_moves(words, cell)
        n0 = k0 >> kb
        ts0 = (n0 & 1) == 0 if M == 1 else n0 % (2 * M) == 0  # the next move action starts a turn
        # the other parity, expanded now too when its label is final (at most one above)
        k1 = np.int64(-1)
        n1 = np.int64(0)
        ts1 = False
        if st != PRONE:
            kp = np.int64(load(key, s ^ 1))
            if (kp >= 0) & (kp <= cur + 1):
                store(key, s ^ 1, kp - EXPANDED)
                settled += 1
                k1 = kp
                n1 = k1 >> kb
                ts1 = (n1 & 1) == 0 if M == 1 else n1 % (2 * M) == 0
            free, n_pool, pending, slow = _dwalks(key, words, pool, head, off, free, n_pool, pending, bmask, C, cell,
                                                  mask, st, k0, n0, ts0, k1, n1, ts1, sp, kb, kmask, M)
        else:
            slow = mask
            if (np.int64(load(words, cell)) >> 8) & 7 == WALK:  # stand up in place: a move action
                free, n_pool, pending = _drelax(key, words, pool, head, free, n_pool, pending, bmask, 2 * cell,
                                                ((n0 + M) << kb) + sp, C, N2, M, kb)
        while slow:
            b = lowest_bit(slow)
            slow &= slow - 1
            if b < 8:
                n_units, ts, sst = n0, ts0, st
            else:
                n_units, ts, sst = n1, ts1, st ^ 1
            free, n_pool, pending = _dother(key, words, pool, head, free, n_pool, pending, bmask, C, N2,
                                            cell + load(off, b & 7), b & 7, k0 + 1, n_units, ts, sst, sp, kb, M,
                                            awk_units, tight_units)
    return settled


@numba.njit(cache=True, nogil=True, error_model="numpy")
def distance(words, C, start, start_prone, sp, kb, M, awk_units, tight_units, nbuckets,
             key, pool, actions, feet, rounds):  # pragma: no cover - compiled
    """A whole distance map in one call: the search (:func:`distance_search`), then per square
    from its best state the move actions used (``n_units / M``), the time in feet of movement (a
    move action counts as the whole speed: ``5 * ((actions - 1) * sp + f)``) and rounds
    (``ceil(actions / 2)``); NaN / -1 where unreached. Outputs are flat ``R*C`` arrays; ``key``
    (3 N int32) and ``pool`` (int32) work arrays. Returns the pool, a larger one when the search
    needed it (keep it for the next call)."""
    N = words.shape[0]
    head = np.empty(nbuckets, dtype=np.int32)
    while True:
        key[:] = UNREACHED
        if distance_search(words, C, start, start_prone, sp, kb, M, awk_units, tight_units, nbuckets, key, pool,
                           head) >= 0:
            break
        pool = np.empty(2 * pool.shape[0], dtype=np.int32)
    kmask = (1 << kb) - 1
    if M == 1:  # whole move actions: integers throughout (the same values as below)
        for i in range(N):
            best = min(load(key, 2 * i) & 0x7FFFFFFF, load(key, 2 * i + 1) & 0x7FFFFFFF, load(key, 2 * N + i) & 0x7FFFFFFF)
            units = best >> kb
            if best == UNREACHED:
                actions[i] = np.nan
                feet[i] = -1
                rounds[i] = -1
            else:
                actions[i] = units
                feet[i] = 5 * ((units - 1) * sp + (best & kmask)) if units else 0
                rounds[i] = (units + 1) >> 1
        return pool
    for i in range(N):
        best = min(key[2 * i] & 0x7FFFFFFF, key[2 * i + 1] & 0x7FFFFFFF, key[2 * N + i] & 0x7FFFFFFF)
        if best == UNREACHED:
            actions[i] = np.nan
            feet[i] = -1
            rounds[i] = -1
            continue
        units = best >> kb
        a = units / M
        actions[i] = a
        feet[i] = 0 if units == 0 else int(round(5 * ((a - 1) * sp + (best & kmask))))
        rounds[i] = int(np.ceil(a / 2))
    return pool
