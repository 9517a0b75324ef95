"""The compiled search behind distance maps, paths and reach (numba).

State space: (square, posture/parity), three states per square: standing with diagonal parity
0, standing with parity 1, prone. A label is the lexicographic pair (move actions started,
squares used in the current move action), encoded as the integer ``key = n_units << kb | f``
with ``2**kb > speed_squares`` (see :func:`key_bits`) and ``n_units`` counting move actions in
units of ``1/M`` (M = 1 for guaranteed times; a common denominator of the expected tries
otherwise). Integer order is the label order. Labels only grow along transitions, so a bucket
queue (Dial's algorithm) finds exact minimum labels. With a goal it is an A* search: a cheap
backward search (:func:`squares_to_goal`) bounds the squares' worth of movement still to go
from every square, and :func:`_eta` turns that into a consistent estimate of the arrival label.

Transitions (RULES §6.1-6.3, §2.4, §5.1, §7.30, §7.35):

* walk (standing, into a WALK square): cost ``c`` squares: orthogonal ``m``; a diagonal with
  ``m == 1`` alternates 1, 2 by the parity, counted over the whole move of a turn (the two move
  actions of a double move are one continuous move; the parity resets when a turn starts); a
  diagonal with ``m >= 2`` costs ``1.5 m`` and does not advance the parity (§6.3). It fits in the
  current move action if ``f + c <= speed``; else, in a turn's first move action, it goes on
  into the second, which pays the rest (``f + c - speed``): the two move actions of a turn are
  one move of up to twice the speed (a double move, §6.1). A step that does not fit what is
  left of the turn waits for the next one (the count restarts: one move action, or the double
  move when ``c > speed``); dearer than twice the speed, only the minimum-movement full-round
  action (one square at the start of a turn, §6.1) can take it, or dropping prone (free) and
  crawling.
* crawl (prone, or into a CRAWL square): one square per move action (§5.1), times the square's
  multiplier (half speed applies to crawling too; a crawl square counts 1, or 2 over rubble).
* stand up (prone, on a WALK square): a move action (§5.1).
* Awkward Space: ``awk_units`` for the tries, a move action each; Tight Squeeze: a full-round
  action per try started at the beginning of a turn, ``tight_units`` in all (§7.30). Posture
  afterwards follows the square.
* no diagonal past a corner square (§6.2): encoded in the per-square direction masks.

Exactness: every state is settled at its own least label, as the plain-Python reference search
of the tests does; no state is dropped because another state of its square looks better. (An
earlier parity 0 label is *not* always better than a later parity 1 one: the 1, 2 pattern can
line up with the end of a move action so that the parity-1 walker ends the next action a square
ahead; the same goes for fractional move actions, whatever the parity.) Only what provably
brings nothing is skipped: a prone label when a standing state of the square is as early (it
can do everything prone does; standing up only leads to parity 0 one action later, checked
too), and a neighbour whose two standing labels are already at most ``key + 1``, the least any
step adds. A standing state whose other parity is final too (its label at most one more than
the bucket's) is expanded with it, sharing the loads.

Memory layout, chosen so that a relaxation touches few cache lines:

* ``words`` (uint16, one per square, :func:`cell_words`): direction mask, mode, prone flag and
  multiplier of the square, packed.
* ``key`` (int32, ``3 N``): the two standing states of square ``i`` side by side at ``2 i``
  (parity 0) and ``2 i + 1`` (parity 1); the prone states, rarely touched, after them at
  ``2 N + i``. ``pred`` / ``walked`` / ``done`` use the same state index.
* the bucket queue is a ring of singly linked lists over a small recycled pool (its entries are
  freed as they are popped, so it stays the size of the frontier and in cache); the rows around
  a newly queued square are prefetched while it waits for its turn.
* the work arrays of a map are kept between calls (:class:`Scratch`, held by the MoveField):
  fresh memory costs page faults on every call.

Each query is one compiled call (:func:`distance`, :func:`path`, :func:`reach`). A distance map
needs neither a goal nor predecessors nor the feet walked: its search (:func:`distance_search`)
is compiled apart, with the same states, transitions and pruning, and a loop tuned for what costs
there (see its docstring): on a cave most of the time went to mispredicted branches (walls and 2x
squares make the labels irregular), not to memory.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.base.jit import numba

BLOCKED, WALK, CRAWL, AWKWARD, TIGHT = 0, 1, 2, 3, 4
PRONE = 2
UNREACHED = np.iinfo(np.int32).max
MAX_MULT = 15  # the multiplier field of a cell word has 4 bits

# direction d: (drow, dcol); bit d of a square's mask allows the move from it
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
# bits of the direction mask that leave a window through each side (DIRS order)
EDGE_TOP, EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT = 0b00110001, 0b11000010, 0b01010100, 0b10101000

# step kinds reported along a path (queries.Step.kind)
KIND_WALK, KIND_CRAWL, KIND_STAND, KIND_ESCAPE, KIND_SQUEEZE = 0, 1, 2, 3, 4

CRAWLED_IN = 1 << 30  # flag on a pred: crawled into the square, then stood up there (two steps)
_CANDIDATES = 32  # per expansion: 2 states x 8 directions x (a step + crawling instead)


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


def cell_words(mode: np.ndarray, mult: np.ndarray, prone: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """One uint16 per square: bits 0-7 the direction mask, 8-10 the mode, 11 lies prone there,
    12-15 the cost multiplier.

    >>> w = cell_words(np.array([[WALK, CRAWL]]), np.array([[2, 1]]), np.array([[False, True]]),
    ...                np.array([[0b1000, 0b0100]]))
    >>> [hex(int(v)) for v in w.ravel()]
    ['0x2108', '0x1a04']
    """
    if mult.size and int(mult.max()) > MAX_MULT:
        raise ValueError(f"cost multiplier must be at most {MAX_MULT}, got {int(mult.max())}")
    words = (dirs.astype(np.uint16) | (mode.astype(np.uint16) << 8) | (prone.astype(np.uint16) << 11)
             | (mult.astype(np.uint16) << 12))
    return np.ascontiguousarray(words)


@numba.njit(cache=True, nogil=True)
def _pow2_above(n):  # pragma: no cover - compiled
    """The least power of two above ``n`` (16 at least)."""
    p = 16
    while p <= n:
        p *= 2
    return p


@numba.njit(cache=True, nogil=True)
def key_bits(speed_squares):  # pragma: no cover - compiled
    """Bits of the in-action part of a key: the smallest ``kb`` with ``2**kb > speed``.

    >>> key_bits(6), key_bits(8)
    (3, 4)
    """
    kb = 1
    while (1 << kb) <= speed_squares:
        kb += 1
    return kb


@numba.njit(cache=True, nogil=True)
def ring_size(sp, kb, M, awk_units, tight_units):  # pragma: no cover - compiled
    """Buckets of the queue ring: a power of two above the largest rise of a queue priority over
    one transition. A key rises by at most ``units << kb`` plus a full action of squares, where
    ``units`` is the dearest transition (a full-round move from the far end of a turn, a crawl
    over the largest multiplier, the tries); with a goal, the estimate of the rest of the way
    (:func:`squares_to_goal`) may grow by at most one such transition too, and :func:`_eta`
    rounds each up to two more actions. (:func:`search` checks it.)"""
    units = max(4 * M, MAX_MULT * M, awk_units, 2 * M + tight_units)
    return _pow2_above(((2 * units + 4 * M + 2) << kb) + 2 * sp + 2)


class Work:
    """One set of work arrays for searches over ``n`` squares, made on first use."""

    def __init__(self, n: int):
        self.n = n
        self._arrays: dict[str, np.ndarray] = {}

    def _get(self, name: str, size: int, dtype) -> np.ndarray:
        a = self._arrays.get(name)
        if a is None:
            a = self._arrays[name] = np.empty(size, dtype=dtype)
        return a

    @property
    def key(self) -> np.ndarray:
        return self._get("key", 3 * self.n, np.int32)

    @property
    def pred(self) -> np.ndarray:
        return self._get("pred", 3 * self.n, np.int32)

    @property
    def walked(self) -> np.ndarray:
        return self._get("walked", 3 * self.n, np.int32)

    @property
    def done(self) -> np.ndarray:
        return self._get("done", 3 * self.n, np.uint8)

    @property
    def togo(self) -> np.ndarray:
        return self._get("togo", self.n, np.int32)

    @property
    def words(self) -> np.ndarray:
        return self._get("words", self.n, np.uint16)

    @property
    def pool(self) -> np.ndarray:
        """Queue entries of :func:`distance` (it returns a larger array when it needs one)."""
        return self._get("pool", 2 * max(4096, self.n // 32), np.int32)

    @pool.setter
    def pool(self, a: np.ndarray) -> None:
        self._arrays["pool"] = a


class Scratch:
    """Work arrays kept between the searches on one map: on a small map, fresh memory for them
    (the OS maps and zeroes every page on first touch) costs more than the search itself. The
    searches overwrite whatever they hold. Re-entrant: each call takes a set of its own (a new
    one when all are in use, e.g. by other threads) and gives it back; one set is kept."""

    def __init__(self, n: int):
        self.n = n
        self._lock = threading.Lock()
        self._free: list[Work] = []

    @contextmanager
    def take(self):
        with self._lock:
            work = self._free.pop() if self._free else None
        if work is None:
            work = Work(self.n)
        try:
            yield work
        finally:
            with self._lock:
                if not self._free:
                    self._free.append(work)


@intrinsic
def _prefetch(typingctx, arr, idx):  # pragma: no cover - compiled
    """Hint the CPU to fetch ``arr[idx]`` into cache (no fault if ``idx`` is off the array)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]),
                                            "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])  # read, keep, data
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _ld(typingctx, arr, idx):  # pragma: no cover - compiled
    """``arr[idx]`` for an ``idx`` known to be on the array: no negative-index wraparound."""
    sig = arr.dtype(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        return builder.load(cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False))

    return sig, codegen


@intrinsic
def _st(typingctx, arr, idx, val):  # pragma: no cover - compiled
    """``arr[idx] = val`` for an ``idx`` known to be on the array (``val`` cast to its type)."""
    sig = types.void(arr, idx, val)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        builder.store(context.cast(builder, args[2], signature.args[2], aryty.dtype), ptr)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _lowest_bit(typingctx, x):  # pragma: no cover - compiled
    """The index of the lowest set bit of ``x`` (``x`` != 0): one instruction (tzcnt)."""
    sig = x(x)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@numba.njit(cache=True, nogil=True, inline="always")
def _eta(k, dist, sp, kb, M, inv_sp):  # pragma: no cover - compiled
    """A* priority of label ``k`` with at least ``dist`` squares' worth of movement to go.

    Whole move actions (M = 1): the label after ``dist`` more squares at one square each, a
    lower bound of the arrival label (every step is at least that dear), and consistent:
    squares at one apiece keep the label order. Fractional move actions do not keep it (a label
    just before a fractional action's end can pass one just after it), so there the estimate is
    the plain sum ``k + dist``: a step raises the key by at least its squares, a move action
    being worth more than ``sp`` of them. ``inv_sp``: ``1 / sp`` (a division is slow)."""
    if M != 1:
        return k + dist
    room = sp - (k & ((1 << kb) - 1))
    if dist <= room:
        return k + dist
    rest = dist - room
    full = int((rest - 0.5) * inv_sp)  # (rest - 1) // sp, exactly
    return (((k >> kb) + (full + 1) * M) << kb) + rest - full * sp


@numba.njit(cache=True, nogil=True, inline="always")
def _prone_covered(key, nb, k, M, kb):  # pragma: no cover - compiled
    """Whether a prone label ``k`` on the square whose standing pair is at ``key[nb:nb + 2]``
    can bring nothing: every move from it (crawling, Escape Artist) is open to a standing state
    as early, and standing up leads to parity 0 one move action later."""
    return key[nb] <= k or (key[nb + 1] <= k and key[nb] <= k + (M << kb))


@numba.njit(cache=True, nogil=True, inline="always")
def _turn_boundary(n_units, turn_start, M):  # pragma: no cover - compiled
    """The first turn boundary (in units) at or after ``n_units``."""
    if turn_start:
        return n_units
    return (n_units // (2 * M) + 1) * 2 * M


@numba.njit(cache=True, nogil=True, inline="always")
def _walk(m, diag, st, k, room, turn_start, nxt, sp):  # pragma: no cover - compiled
    """Walking from a standing state (parity ``st``, label ``k``, ``room`` squares left in its
    move action, ``nxt`` the label at which its next move action starts) into a WALK square of
    multiplier ``m``, within what is left of the turn: (label, parity after, squares paid).

    The two move actions of a turn are one move of up to twice the speed (a double move, RULES
    §6.1): a step that does not fit in the first action's room goes on into the second, paying
    the rest there (label ``nxt + c - room``). At a turn boundary (``turn_start``: the next
    action starts a turn) the count restarts: the step fits one action (``c <= sp``) or the
    double move (``c <= 2 sp``: label ``2 nxt - k - room + c``, i.e. action two with ``c - sp``
    used). The label is -1 when the step does not fit what is left of this turn: then
    :func:`_fresh` times it from the next turn (or only the minimum move can take it)."""
    if diag and m == 1:  # alternating diagonal: 1, 2, 1, ...
        cost = 1 + st
        if cost <= room:
            return k + cost, 1 - st, cost
        if turn_start:  # the next move action starts a new turn: the count restarts
            return nxt + 1, 1, 1
        if cost <= room + sp:
            return nxt + cost - room, 1 - st, cost
        return -1, 0, cost
    cost = (3 * m) >> 1 if diag else m
    if cost <= room:
        return k + cost, st, cost
    # on into the next move action: with the room left in this turn's first one, or none when
    # the next action starts a turn (which resets the parity too); one test for both, as the
    # turn boundary falls every other action (a branch on it would be mispredicted half the time)
    r = room * (1 - turn_start)
    if cost <= r + sp:
        return nxt + cost - r, st * (1 - turn_start), cost
    if turn_start and cost <= 2 * sp:  # a new turn's double move
        return 2 * nxt - k - room + cost, 0, cost
    return -1, 0, cost


@numba.njit(cache=True, nogil=True, inline="always")
def _fresh(n_units, turn_start, M, kb, sp, cost):  # pragma: no cover - compiled
    """The label of a walking step of ``cost`` squares (costed at parity 0) taken at the start
    of the next turn: in its first move action, in its double move, or, dearer than twice the
    speed, by the minimum movement (a full-round action, one square, §6.1)."""
    t = _turn_boundary(n_units, turn_start, M)
    if cost <= sp:
        return ((t + M) << kb) + cost
    if cost <= 2 * sp:
        return ((t + 2 * M) << kb) + cost - sp
    return ((t + 2 * M) << kb) + sp


@numba.njit(cache=True, nogil=True, error_model="numpy")
def search(words, C, start, start_prone, start_key, start_par, sp, kb, M, awk_units, tight_units, max_key, goal, togo, togo_cap,
           nbuckets, key, pred, walked, done, track):  # pragma: no cover - compiled
    """Exact-rule search from square ``start`` over flat ``words`` (``R*C`` squares, C columns).

    ``key`` (3 N, preset to UNREACHED) receives the labels; ``done`` (3 N, zeroed) marks the
    states expanded. When ``track``, ``pred`` / ``walked`` (3 N) receive the state each was
    reached from and the feet walked on the way: the least movement among the equally early
    ways (a state that learns of a shorter walk after its expansion is expanded again). Labels
    above ``max_key`` are not kept. ``goal`` >= 0 stops at that square (A*, estimating the rest
    of the way by :func:`_eta` over ``min(togo, togo_cap)`` from :func:`squares_to_goal`; when
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
        cur = _eta(start_key, min(togo[start], togo_cap), sp, kb, M, inv_sp)
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
            _prefetch(key, pool[2 * nx])
        k0 = key[s]
        if s < N2:
            cell = s >> 1
            st = s & 1
        else:
            cell = s - N2
            st = PRONE
        if use_goal:
            if _eta(k0, min(togo[cell], togo_cap), sp, kb, M, inv_sp) != cur:
                continue  # stale: improved since it was queued
        elif k0 != cur:
            continue
        if done[s]:
            continue  # expanded already, beside the other parity
        done[s] = 1
        if st == PRONE and _prone_covered(key, 2 * cell, k0, M, kb):
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
                    nk, par, cost = _walk(m, d >= 4, sj & 1, src_k[j], src_room[j], src_ts[j], src_nxt[j], sp)
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
                    cand_k[nc] = _fresh(n_units, src_ts[j], M, kb, sp, cost)
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
                        nk = ((_turn_boundary(n_units, src_ts[j], M) + tight_units) << kb) + sp
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
                if _prone_covered(key, nb, nk, M, kb):
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
                prio = _eta(nk, min(togo[nb >> 1], togo_cap), sp, kb, M, inv_sp)
                if prio - cur >= nbuckets:
                    raise ValueError("bucket ring too small for this search")
            _prefetch(key, nb - 2 * C)  # what it will look at when its turn comes
            _prefetch(key, nb + 2 * C)
            _prefetch(words, (nb >> 1) - C)
            _prefetch(words, (nb >> 1) + C)
            _prefetch(done, ns)
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
    raises a label at least as much as that many single squares would, so :func:`_eta` over it
    is consistent. It stops once ``start`` is settled at ``cap``: squares not settled by then
    are at least ``cap`` away, and ``min(togo, cap)`` is the estimate. Fills ``togo`` (N int32,
    preset to UNREACHED where the search may go) and returns ``cap``, or -1 when ``start``
    cannot reach the goal at all."""
    N = words.shape[0]
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    awk = (awk_units // M) * sp if awk_units > 0 else -1
    tight = (tight_units // M) * sp if tight_units > 0 else -1
    nbuckets = _pow2_above(max(2 * sp, MAX_MULT * sp, awk, tight))
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


EXPANDED = 1 << 31  # subtracted from an expanded state's key in :func:`distance_search`: the sign bit


@numba.njit(cache=True, nogil=True, inline="always")
def _dpush(key, words, pool, head, free, n_pool, bmask, ns, nk, nb, C):  # pragma: no cover - compiled
    """Store label ``nk`` of state ``ns`` (its square's standing pair at ``nb``) and queue it at
    the head of its bucket's list (a freed entry first); prefetch what its expansion will read.
    Returns (free, n_pool)."""
    _st(key, ns, nk)
    _prefetch(key, nb - 2 * C)
    _prefetch(key, nb + 2 * C)
    _prefetch(words, (nb >> 1) - C)
    _prefetch(words, (nb >> 1) + C)
    if free >= 0:
        ne = free
        free = _ld(pool, 2 * ne + 1)
    else:
        ne = n_pool
        n_pool += 1
    _st(pool, 2 * ne, ns)
    _st(pool, 2 * ne + 1, _ld(head, nk & bmask))
    _st(head, nk & bmask, ne)
    return free, n_pool


@numba.njit(cache=True, nogil=True, inline="always")
def _drelax(key, words, pool, head, free, n_pool, pending, bmask, ns, nk, C, N2, M, kb):  # pragma: no cover
    """Label ``nk`` for state ``ns`` unless it brings nothing (no better than its label; a prone
    label a standing state of its square covers). Returns (free, n_pool, pending)."""
    if ns < N2:
        nb = ns - (ns & 1)
    else:
        nb = 2 * (ns - N2)
        if _prone_covered(key, nb, nk, M, kb):
            return free, n_pool, pending
    if nk >= _ld(key, ns):
        return free, n_pool, pending
    free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, ns, nk, nb, C)
    return free, n_pool, pending + 1


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
    N = words.shape[0]
    N2 = 2 * N
    kmask = (1 << kb) - 1
    off = np.array([-C, C, -1, 1, -C - 1, -C + 1, C - 1, C + 1])
    bmask = nbuckets - 1
    head[:] = -1
    cap = pool.shape[0] // 2
    free = -1
    s0 = N2 + start if start_prone else 2 * start
    _st(key, s0, sp)  # no move action in progress: the next step starts action 1
    cur = sp
    _st(pool, 0, s0)
    _st(pool, 1, -1)
    n_pool = 1
    _st(head, cur & bmask, 0)
    pending = 1
    settled = 0
    while pending > 0:
        e = _ld(head, cur & bmask)
        if e < 0:
            cur += 1
            continue
        nx = _ld(pool, 2 * e + 1)
        _st(head, cur & bmask, nx)
        s = np.int64(_ld(pool, 2 * e))
        _st(pool, 2 * e + 1, free)
        free = e
        pending -= 1
        if nx >= 0:
            _prefetch(key, _ld(pool, 2 * nx))
        k0 = np.int64(_ld(key, s))
        if k0 != cur:
            continue  # stale (improved since), or expanded already beside the other parity
        _st(key, s, k0 - EXPANDED)
        if s < N2:
            cell = s >> 1
            st = s & 1
        else:
            cell = s - N2
            st = PRONE
            if _prone_covered(key, 2 * cell, k0, M, kb):
                continue
        settled += 1
        if n_pool + 40 > cap:
            return -1  # an expansion queues at most 2 x 8 x 2 + 1 entries
        w = np.int64(_ld(words, cell))
        mask = w & 255
        lim = k0 + 1
        n0 = k0 >> kb
        ts0 = (n0 & 1) == 0 if M == 1 else n0 % (2 * M) == 0  # the next move action starts a turn
        # the other parity, expanded now too when its label is final (at most one above)
        k1 = np.int64(-1)
        n1 = np.int64(0)
        ts1 = False
        if st != PRONE:
            kp = np.int64(_ld(key, s ^ 1))
            if (kp >= 0) & (kp <= cur + 1):
                _st(key, s ^ 1, kp - EXPANDED)
                settled += 1
                k1 = kp
                n1 = k1 >> kb
                ts1 = (n1 & 1) == 0 if M == 1 else n1 % (2 * M) == 0
        slow = 0  # (direction, source) pairs left to the general code below: bit d + 8 j
        if st != PRONE:
            # the directions whose square cannot be improved: both standing labels at most
            # key + 1 (every step adds at least 1, and standing beats prone as early)
            skip = 0
            for d in range(8):
                nb = 2 * (cell + ((mask >> d) & 1) * _ld(off, d))  # a closed direction reads this square
                skip |= np.int64((_ld(key, nb) <= lim) & (_ld(key, nb + 1) <= lim)) << d
            todo = mask & ~skip
            while todo:
                d = _lowest_bit(todo)
                todo &= todo - 1
                ncell = cell + _ld(off, d)
                nb = 2 * ncell
                nw = np.int64(_ld(words, ncell))
                if (nw >> 8) & 7 != WALK:
                    slow |= (1 << d) | ((1 << (d + 8)) if k1 >= 0 else 0)
                    continue
                m = nw >> 12
                diag = d >= 4
                nk, par, _ = _walk(m, diag, st, k0, sp - (k0 & kmask), ts0, (n0 + M) << kb, sp)
                if nk < 0:
                    slow |= 1 << d
                else:
                    if nk < _ld(key, nb + par):
                        free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb + par, nk, nb, C)
                        pending += 1
                    # or drop prone (free), crawl in and stand up: parity 0, one move action after
                    # crawling (the prone state between is covered by the walk, so it is skipped)
                    ck = ((n0 + M * m + M) << kb) + sp
                    if (par == 1) & (ck < _ld(key, nb)):
                        free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb, ck, nb, C)
                        pending += 1
                if k1 >= 0:
                    nk, par, _ = _walk(m, diag, st ^ 1, k1, sp - (k1 & kmask), ts1, (n1 + M) << kb, sp)
                    if nk < 0:
                        slow |= 1 << (d + 8)
                    else:
                        if nk < _ld(key, nb + par):
                            free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb + par, nk, nb, C)
                            pending += 1
                        ck = ((n1 + M * m + M) << kb) + sp
                        if (par == 1) & (ck < _ld(key, nb)):
                            free, n_pool = _dpush(key, words, pool, head, free, n_pool, bmask, nb, ck, nb, C)
                            pending += 1
        else:
            slow = mask
            if (w >> 8) & 7 == WALK:  # stand up in place: a move action
                free, n_pool, pending = _drelax(key, words, pool, head, free, n_pool, pending, bmask, 2 * cell,
                                                ((n0 + M) << kb) + sp, C, N2, M, kb)
        while slow:
            b = _lowest_bit(slow)
            slow &= slow - 1
            d = b & 7
            if b < 8:
                n_units, ts, sst = n0, ts0, st
            else:
                n_units, ts, sst = n1, ts1, st ^ 1
            ncell = cell + _ld(off, d)
            nb = 2 * ncell
            if (_ld(key, nb) <= lim) & (_ld(key, nb + 1) <= lim):
                continue
            nw = np.int64(_ld(words, ncell))
            mq = (nw >> 8) & 7
            m = nw >> 12
            if mq == BLOCKED:
                continue
            if mq == WALK and sst != PRONE:
                # a step that does not fit what is left of the turn: from the next turn, by the
                # minimum movement if dearer than a double move (§6.1) ...
                diag1 = d >= 4 and m == 1
                free, n_pool, pending = _drelax(key, words, pool, head, free, n_pool, pending, bmask,
                                                nb + (1 if diag1 else 0),
                                                _fresh(n_units, ts, M, kb, sp,
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
                        continue
                    nk = ((n_units + awk_units) << kb) + sp
                else:
                    if tight_units <= 0:
                        continue
                    nk = ((_turn_boundary(n_units, ts, M) + tight_units) << kb) + sp
                ns = N2 + ncell if (nw >> 11) & 1 else nb
            free, n_pool, pending = _drelax(key, words, pool, head, free, n_pool, pending, bmask, ns, nk, C, N2,
                                            M, kb)
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
            best = min(_ld(key, 2 * i) & 0x7FFFFFFF, _ld(key, 2 * i + 1) & 0x7FFFFFFF, _ld(key, 2 * N + i) & 0x7FFFFFFF)
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
