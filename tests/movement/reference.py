"""A slow, plain-Python reference for the movement engine, written from the rules text.

Time is a pair (move actions started, squares of movement used in the current move action),
compared lexicographically: the earlier the better. From a state (square, standing or prone,
diagonal parity) a creature can:

* walk into an adjacent walkable square (standing): an orthogonal step costs m squares (m = 1,
  2 or 4 for Clear / Narrow or Low / Narrow and Low, doubled on difficult terrain); a diagonal
  costs 1 or 2 alternately when m = 1 (the parity counts every diagonal of the turn's move), and
  1.5 m otherwise without advancing the parity (RULES §6.2-6.3). The two move actions of a turn
  are one move of up to twice the speed (a double move, RULES §6.1): a step that does not fit in
  what is left of the turn's first move action goes on into the second, paying the rest of its
  cost there. A step that does not fit what is left of the turn waits for the next turn, where
  the parity restarts and the step fits one move action, or the double move; dearer than twice
  the speed it needs the full-round minimum move: a whole turn, started at a turn boundary.
* crawl (from any posture, as dropping prone is free): one square for a whole move action (as
  many as the square's multiplier: half speed slows crawling too), and lie prone; the only way
  into a crawl square.
* stand up (prone, on a walkable square): a whole move action.
* Escape Artist into an awkward square: ``awk`` move actions (a move action per try);
  into a tight squeeze: a full-round action per try, so 2 actions per try, starting at a turn
  boundary. Lies prone there if the square is low.
* never diagonally past a corner square; never across a wall between squares, nor diagonally
  past a corner one touches (docs/rules.md §6.8).
"""

from __future__ import annotations

import heapq
from fractions import Fraction

WALK, CRAWL, AWKWARD, TIGHT, BLOCKED = "walk", "crawl", "awkward", "tight", "blocked"
MODES = {0: BLOCKED, 1: WALK, 2: CRAWL, 3: AWKWARD, 4: TIGHT}


def _new_action(actions: Fraction) -> tuple[Fraction, bool]:
    """Index of the move action after ``actions`` started ones, and whether it opens a turn."""
    opens_turn = actions.denominator == 1 and actions.numerator % 2 == 0
    return actions + 1, opens_turn


def _turn_start(actions: Fraction) -> Fraction:
    """The first boundary at or after ``actions`` where a new turn begins."""
    whole = actions.numerator // actions.denominator
    if actions.denominator == 1 and whole % 2 == 0:
        return actions
    return Fraction(whole // 2 * 2 + 2)


def _walled(edges, r, c, dr, dc):
    """A wall between squares in the way of the step (docs/rules.md §6.8), read straight from the
    edge arrays: the edge crossed, or (a diagonal) any edge meeting the corner passed."""
    if edges is None:
        return False
    east, south = edges.east, edges.south
    if not (dr and dc):
        return bool(east[r, min(c, c + dc)]) if dc else bool(south[min(r, r + dr), c])
    X, Y = c + (dc > 0), r + (dr > 0)
    rows, cols = east.shape
    touching = ((Y - 1, X - 1, east), (Y, X - 1, east), (Y - 1, X - 1, south), (Y - 1, X, south))
    return any(0 <= rr < rows and 0 <= cc < cols and bool(a[rr, cc]) for rr, cc, a in touching)


def moves(field, square, standing, parity, label, *, awk, tight, speed):
    """Every (square, standing, parity, label) reachable in one step (the rules above)."""
    r, c = square
    actions, used = label
    rows, cols = field.mode.shape
    if not standing and MODES[int(field.mode[r, c])] == WALK:
        yield (r, c), True, 0, (actions + 1, speed)  # stand up
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            nr, nc = r + dr, c + dc
            if not (0 <= nr < rows and 0 <= nc < cols):
                continue
            diag = dr != 0 and dc != 0
            if diag and (field.corner[nr, c] or field.corner[r, nc]):
                continue
            # (the tests' cropped views carry no grid, and so no walls between squares)
            if _walled(getattr(getattr(field, "grid", None), "edges", None), r, c, dr, dc):
                continue
            mode = MODES[int(field.mode[nr, nc])]
            if mode == BLOCKED:
                continue
            low = bool(field.prone[nr, nc])
            if mode in (WALK, CRAWL):  # drop prone (a free action) and crawl, from any posture
                yield (nr, nc), False, 0, (actions + int(field.mult[nr, nc]), speed)
            if mode == WALK and standing:
                m = int(field.mult[nr, nc])

                def cost_at(p):
                    if not diag:
                        return m, p
                    if m == 1:
                        return 1 + p, 1 - p
                    return 3 * m // 2, p

                cost, np_ = cost_at(parity)
                if used + cost <= speed:  # in the move action under way
                    yield (nr, nc), True, np_, (actions, used + cost)
                    continue
                nxt, opens = _new_action(actions)
                if not opens and used + cost <= 2 * speed:  # on into the turn's second move action
                    yield (nr, nc), True, np_, (nxt, used + cost - speed)
                    continue
                start = _turn_start(actions)  # the next turn: the count restarts
                cost, np_ = cost_at(0)
                if cost <= speed:
                    yield (nr, nc), True, np_, (start + 1, cost)
                elif cost <= 2 * speed:
                    yield (nr, nc), True, np_, (start + 2, cost - speed)
                else:
                    yield (nr, nc), True, np_, (start + 2, speed)
            elif mode == AWKWARD:
                if awk is not None:
                    yield (nr, nc), not low, 0, (actions + awk, speed)
            elif mode == TIGHT:
                if tight is not None:
                    yield (nr, nc), not low, 0, (_turn_start(actions) + 2 * tight, speed)


def reference_labels(field, start, *, awk, tight, start_prone=None, max_actions=None):
    """Best label of every square ``(x, y)`` reachable from ``start``: plain Dijkstra over
    (square, standing, parity) with lexicographic labels and no pruning."""
    speed = field.mover.speed_squares
    r0, c0 = start[1], start[0]
    standing = not (field.prone[r0, c0] if start_prone is None else start_prone)
    first = ((r0, c0), standing, 0)
    best = {first: (Fraction(0), speed)}
    heap = [((Fraction(0), speed), 0, first)]
    tick = 0
    while heap:
        label, _, state = heapq.heappop(heap)
        if best.get(state) != label:
            continue
        square, st, par = state
        for nsq, nst, npar, nlabel in moves(field, square, st, par, label, awk=awk, tight=tight, speed=speed):
            if max_actions is not None and nlabel[0] > max_actions:
                continue
            key = (nsq, nst, npar)
            if key not in best or nlabel < best[key]:
                best[key] = nlabel
                tick += 1
                heapq.heappush(heap, (nlabel, tick, key))
    out: dict[tuple[int, int], tuple[Fraction, int]] = {}
    for (sq, _, _), label in best.items():
        xy = (sq[1], sq[0])
        if xy not in out or label < out[xy]:
            out[xy] = label
    return out


def exhaustive_labels(field, start, *, awk, tight, depth):
    """Best label per square over EVERY move sequence of up to ``depth`` steps (no Dijkstra,
    no dominance): checks that the label order really is the order of 'sooner'."""
    speed = field.mover.speed_squares
    r0, c0 = start[1], start[0]
    standing = not field.prone[r0, c0]
    out: dict[tuple[int, int], tuple[Fraction, int]] = {}
    frontier = [(((r0, c0), standing, 0), (Fraction(0), speed))]
    for _ in range(depth + 1):
        nxt = []
        seen: dict = {}
        for (sq, st, par), label in frontier:
            xy = (sq[1], sq[0])
            if xy not in out or label < out[xy]:
                out[xy] = label
            for nsq, nst, npar, nlabel in moves(field, sq, st, par, label, awk=awk, tight=tight, speed=speed):
                k = (nsq, nst, npar, nlabel)
                if k not in seen:
                    seen[k] = True
                    nxt.append(((nsq, nst, npar), nlabel))
        frontier = nxt
    return out
