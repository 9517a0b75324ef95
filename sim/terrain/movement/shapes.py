"""Swarm shapes over a passable array (RULES §4.2, §7.26): a swarm covers any 4 contiguous
(edge-connected) squares its components pass, and reshapes as it moves; where fewer squares are
free (a dead-end crack) it compresses into 1-3. Pure functions over arrays, no fight state.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from sim.base.coords import Pos

_N4 = ((1, 0), (-1, 0), (0, 1), (0, -1))


def connected_sets(passable: np.ndarray, lead: Pos, size: int, *, radius: int = 3) -> list[frozenset[Pos]]:
    """Every edge-connected set of ``size`` passable squares that contains ``lead``, within
    ``radius`` squares of it (polyomino growth; at most 76 tetrominoes contain a square).

    >>> p = np.ones((9, 9), bool)
    >>> len(connected_sets(p, (4, 4), 4))
    76
    """
    rows, cols = passable.shape
    lx, ly = lead

    def ok(q: Pos) -> bool:
        x, y = q
        return 0 <= x < cols and 0 <= y < rows and passable[y, x] and abs(x - lx) <= radius and abs(y - ly) <= radius

    if not ok(lead):
        return []
    frontier = {frozenset([lead])}
    for _ in range(size - 1):
        nxt = set()
        for s in frontier:
            for (x, y) in s:
                for dx, dy in _N4:
                    q = (x + dx, y + dy)
                    if q not in s and ok(q):
                        nxt.add(s | {q})
        frontier = nxt
    return sorted(frontier, key=lambda s: sorted(s))


def is_contiguous(squares: Iterable[Pos]) -> bool:
    """Edge-connected (a swarm's squares, §4.2)."""
    sq = set(squares)
    return bool(sq) and set(_component(list(sq), next(iter(sq)))) == sq


def _perimeter(s: frozenset[Pos]) -> int:
    return sum(1 for (x, y) in s for dx, dy in _N4 if (x + dx, y + dy) not in s)


def best_shape(passable: np.ndarray, lead: Pos, *, mode: str = "any", score=None,
               size: int = 4) -> list[Pos]:
    """The shape the swarm settles into around ``lead``: the candidate with the highest ``score``
    (e.g. enemies covered), then the most compact; fewer than 4 squares where the passage does not
    hold 4 (§7.26). ``mode="square"`` prefers a 2 x 2 block whenever one exists."""
    for n in range(size, 0, -1):
        cands = connected_sets(passable, lead, n)
        if not cands:
            continue
        if mode == "square" and n == 4:
            squares = [c for c in cands if _is_block(c)]
            if squares:
                cands = squares
        key = (lambda s: (-(score(s) if score else 0), _perimeter(s), sorted(s)))
        return sorted(min(cands, key=key))
    return [lead]


def _is_block(s: frozenset[Pos]) -> bool:
    xs = {x for x, _ in s}
    ys = {y for _, y in s}
    return len(xs) == 2 and len(ys) == 2


def flow(shape: list[Pos], path: list[Pos], passable: np.ndarray, size: int = 4) -> list[list[Pos]]:
    """The swarm's squares after each step of its lead along ``path``: the body follows the lead
    (the most recent squares it passed), filling the orthogonal corner of a diagonal step so it
    stays edge-connected."""
    trail: list[Pos] = list(shape)
    shapes: list[list[Pos]] = []
    cur = path[0] if path else (shape[0] if shape else None)
    for nxt in path[1:]:
        if cur is not None and nxt[0] != cur[0] and nxt[1] != cur[1]:
            for mid in ((nxt[0], cur[1]), (cur[0], nxt[1])):
                if passable[mid[1], mid[0]]:
                    trail.append(mid)
                    break
        trail.append(nxt)
        cur = nxt
        body: list[Pos] = []
        for sq in reversed(trail):
            if sq not in body:
                body.append(sq)
            if len(body) == size:
                break
        if not is_contiguous(body):  # keep only the part connected to the lead
            body = _component(body, nxt)
        shapes.append(sorted(body))
    return shapes


def _component(squares: list[Pos], lead: Pos) -> list[Pos]:
    sq = set(squares)
    seen = {lead}
    stack = [lead]
    while stack:
        x, y = stack.pop()
        for dx, dy in _N4:
            q = (x + dx, y + dy)
            if q in sq and q not in seen:
                seen.add(q)
                stack.append(q)
    return sorted(seen)
