"""Where a route crosses a passage: its narrowest section (docs/analysis.md §2.2).

A passage (the squares of a chokepoint, :mod:`.chokepoints`) may be long: a tunnel of thirty
squares, a fissure that widens and narrows. A body going from one side to the other must cross
*every* section of it, so the chokepoint is the **narrowest section**: the set of passage squares
that cuts one side from the other (every way from side A to side B by the eight-neighbour steps
of RULES §6.2 enters one of them) and, among such cuts, the one of least total clearance
``min(width, ceiling)`` -- the fewest, narrowest squares. Its location and width are the
chokepoint's. Ties (a uniform tunnel) go to the section farthest from both mouths (the middle),
then to the one nearest side A.

It is a minimum vertex cut, found as a maximum flow (Edmonds-Karp) on the passage's squares,
each split into an entry and an exit joined by its weight.

>>> import numpy as np
>>> passage = np.zeros((3, 7), bool); passage[1, 1:6] = True          # a one-square tunnel
>>> a = np.zeros((3, 7), bool); a[1, 0] = True                        # the west side
>>> b = np.zeros((3, 7), bool); b[1, 6] = True                        # the east side
>>> clear = np.array([[0] * 7, [0, 5, 5, 2, 5, 5, 0], [0] * 7], float)
>>> narrowest_section(passage, a, b, clear, rock=~(passage | a | b))
((3, 1),)
>>> narrowest_section(passage, a, b, np.where(passage, 5.0, 0.0), rock=~(passage | a | b))   # uniform: the middle
((3, 1),)
"""

from __future__ import annotations

from collections import deque

import numpy as np

_STEP_QUARTERS = 4          # clearance in quarter feet
_CLEAR_CAP_FT = 40.0        # wider than this is all the same for a section
_TIE_SPAN = 64              # tie-break units under one quarter foot of clearance
_N8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _steps(mask_from: np.ndarray, mask_to: np.ndarray, rock: np.ndarray):
    """Flat ``(from, to)`` pairs of the eight-neighbour steps from ``mask_from`` squares to
    ``mask_to`` squares, no diagonal past a rock corner (RULES §6.2)."""
    rows, cols = mask_from.shape
    idx = np.arange(rows * cols).reshape(rows, cols)
    src, dst = [], []
    for dr, dc in _N8:
        r0, r1 = max(0, -dr), rows - max(0, dr)
        c0, c1 = max(0, -dc), cols - max(0, dc)
        ok = mask_from[r0:r1, c0:c1] & mask_to[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        if dr and dc:   # both squares beside the diagonal must be open
            ok = ok & ~rock[r0 + dr:r1 + dr, c0:c1] & ~rock[r0:r1, c0 + dc:c1 + dc]
        src.append(idx[r0:r1, c0:c1][ok])
        dst.append(idx[r0 + dr:r1 + dr, c0 + dc:c1 + dc][ok])
    return np.concatenate(src), np.concatenate(dst)


def _distances(n: int, starts, inner: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Steps from the passage squares beside a side (``starts``, passage numbers) to each of the
    ``n`` passage squares along the ``inner`` steps (breadth first; a passage is tens of squares,
    so plain Python beats building a graph); ``n`` where none leads."""
    dist = np.full(n, -1, dtype=np.int64)
    frontier = sorted(set(starts))
    dist[frontier] = 0
    nbrs: dict[int, list[int]] = {}
    for u, v in zip(*(x.tolist() for x in inner)):
        nbrs.setdefault(u, []).append(v)
    d = 0
    while frontier:
        d += 1
        nxt = []
        for u in frontier:
            for v in nbrs.get(u, ()):
                if dist[v] < 0:
                    dist[v] = d
                    nxt.append(v)
        frontier = nxt
    return np.where(dist >= 0, dist, n).astype(float)


def narrowest_section(passage: np.ndarray, side_a: np.ndarray, side_b: np.ndarray, clearance: np.ndarray,
                      *, rock: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The squares ``(x, y)`` of the narrowest section of ``passage`` between ``side_a`` and
    ``side_b`` (boolean arrays ``[row, col]``; ``clearance`` in feet), in reading order; empty
    when no way from one side to the other runs through the passage (see the module docstring)."""
    cells = np.flatnonzero(passage.ravel())
    n = len(cells)
    if n == 0:
        return ()
    cols = passage.shape[1]
    pos = np.full(passage.size, -1, dtype=np.int64)
    pos[cells] = np.arange(n)
    both = passage | side_a | side_b
    s, t = _steps(both, both, rock)
    in_p, in_a, in_b = passage.ravel(), side_a.ravel(), side_b.ravel()
    inner = (pos[s[in_p[s] & in_p[t]]], pos[t[in_p[s] & in_p[t]]])
    from_a = pos[t[in_a[s] & in_p[t]]]          # passage squares a step from side A
    to_b = pos[s[in_p[s] & in_b[t]]]            # passage squares a step from side B
    if len(from_a) == 0 or len(to_b) == 0:
        return ()
    if n == 1:
        return ((int(cells[0] % cols), int(cells[0] // cols)),)
    # weights: clearance first (quarter feet), then closeness to the middle (a tie-break)
    off_middle = np.minimum(np.abs(_distances(n, from_a.tolist(), inner) - _distances(n, to_b.tolist(), inner)),
                            _TIE_SPAN - 1).astype(np.int64)
    q = np.round(np.minimum(clearance.ravel()[cells], _CLEAR_CAP_FT) * _STEP_QUARTERS).astype(np.int64)
    w = (q + 1) * _TIE_SPAN + off_middle
    inf = int(w.sum()) + 1
    # nodes: square i -> entry 2i, exit 2i+1; source 2n, sink 2n+1
    edges = [(2 * i, 2 * i + 1, int(w[i])) for i in range(n)]
    edges += [(2 * u + 1, 2 * v, inf) for u, v in zip(*(x.tolist() for x in inner))]
    edges += [(2 * n, 2 * v, inf) for v in np.unique(from_a).tolist()]
    edges += [(2 * u + 1, 2 * n + 1, inf) for u in np.unique(to_b).tolist()]
    reached = _source_side(2 * n + 2, edges, 2 * n, 2 * n + 1)
    cut = [i for i in range(n) if reached[2 * i] and not reached[2 * i + 1]]
    return tuple(sorted(((int(cells[i] % cols), int(cells[i] // cols)) for i in cut), key=lambda p: (p[1], p[0])))


def _source_side(m: int, edges: list[tuple[int, int, int]], source: int, sink: int) -> list[bool]:
    """The nodes still reachable from ``source`` in the residual graph of a maximum flow
    (Edmonds-Karp: shortest augmenting paths, breadth first); the edges leaving them are a
    minimum cut. Plain Python: a passage's graph has tens of nodes."""
    cap: dict[tuple[int, int], int] = {}
    nbrs: list[list[int]] = [[] for _ in range(m)]
    for u, v, c in edges:
        if (u, v) not in cap:
            nbrs[u].append(v)
            nbrs[v].append(u)
            cap[(u, v)] = 0
            cap.setdefault((v, u), 0)
        cap[(u, v)] += c
    while True:
        prev = [-1] * m
        prev[source] = source
        queue = deque([source])
        while queue and prev[sink] < 0:
            u = queue.popleft()
            for v in nbrs[u]:
                if prev[v] < 0 and cap[(u, v)] > 0:
                    prev[v] = u
                    queue.append(v)
        if prev[sink] < 0:
            return [p >= 0 for p in prev]
        push, v = None, sink
        while v != source:
            c = cap[(prev[v], v)]
            push = c if push is None or c < push else push
            v = prev[v]
        v = sink
        while v != source:
            cap[(prev[v], v)] -= push
            cap[(v, prev[v])] += push
            v = prev[v]
