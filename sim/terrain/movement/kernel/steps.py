"""The rules of one step, shared by every search (compiled inline into each): the moves open
from a square (:func:`open_moves`), the A* priority (:func:`eta`), the prone label a standing one covers, the next turn boundary, a walking step
within the turn (:func:`walk_step`) and one taken from the next turn (:func:`fresh_step`).
RULES §6.1-6.3, §5.1."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.lowlevel import load


@numba.njit(cache=True, nogil=True, inline="always")
def open_moves(words, cell):  # pragma: no cover - compiled
    """The directions a step may take out of square ``cell``: bit d set for a move in direction
    ``DIRS[d]`` that stays on the map, enters a square that is not BLOCKED and (diagonals) passes
    no corner square (§6.2; :func:`~.layout.direction_masks`). Every search asks this for every
    move it makes (forwards from ``cell``, or :func:`~.search.squares_to_goal` backwards into a
    square), so a rule that closes a move between two squares belongs here. Walls between squares
    (docs/rules.md §6.8) are such a rule, already folded into these bits when the squares are
    packed (:func:`sim.terrain.movement.field.edge_masks`: no step across a walled edge, no
    diagonal past a corner one touches), so the searches pay nothing for them."""
    return np.int64(load(words, cell)) & 255


@numba.njit(cache=True, nogil=True, inline="always")
def eta(k, dist, sp, kb, M, inv_sp):  # pragma: no cover - compiled
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
def prone_covered(key, nb, k, M, kb):  # pragma: no cover - compiled
    """Whether a prone label ``k`` on the square whose standing pair is at ``key[nb:nb + 2]``
    can bring nothing: every move from it (crawling, Escape Artist) is open to a standing state
    as early, and standing up leads to parity 0 one move action later."""
    return key[nb] <= k or (key[nb + 1] <= k and key[nb] <= k + (M << kb))


@numba.njit(cache=True, nogil=True, inline="always")
def turn_boundary(n_units, turn_start, M):  # pragma: no cover - compiled
    """The first turn boundary (in units) at or after ``n_units``."""
    if turn_start:
        return n_units
    return (n_units // (2 * M) + 1) * 2 * M


@numba.njit(cache=True, nogil=True, inline="always")
def walk_step(m, diag, st, k, room, turn_start, nxt, sp):  # pragma: no cover - compiled
    """Walking from a standing state (parity ``st``, label ``k``, ``room`` squares left in its
    move action, ``nxt`` the label at which its next move action starts) into a WALK square of
    multiplier ``m``, within what is left of the turn: (label, parity after, squares paid).

    The two move actions of a turn are one move of up to twice the speed (a double move, RULES
    §6.1): a step that does not fit in the first action's room goes on into the second, paying
    the rest there (label ``nxt + c - room``). At a turn boundary (``turn_start``: the next
    action starts a turn) the count restarts: the step fits one action (``c <= sp``) or the
    double move (``c <= 2 sp``: label ``2 nxt - k - room + c``, i.e. action two with ``c - sp``
    used). The label is -1 when the step does not fit what is left of this turn: then
    :func:`fresh_step` times it from the next turn (or only the minimum move can take it)."""
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
def fresh_step(n_units, turn_start, M, kb, sp, cost):  # pragma: no cover - compiled
    """The label of a walking step of ``cost`` squares (costed at parity 0) taken at the start
    of the next turn: in its first move action, in its double move, or, dearer than twice the
    speed, by the minimum movement (a full-round action, one square, §6.1)."""
    t = turn_boundary(n_units, turn_start, M)
    if cost <= sp:
        return ((t + M) << kb) + cost
    if cost <= 2 * sp:
        return ((t + 2 * M) << kb) + cost - sp
    return ((t + 2 * M) << kb) + sp
