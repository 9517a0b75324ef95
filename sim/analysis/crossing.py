"""Where a route crosses a passage: its narrowest section (docs/analysis.md §2.2).

A passage (the squares of a chokepoint, :mod:`.chokepoints`) may be long: a tunnel of thirty
squares, a fissure that widens and narrows. A body going from one side to the other must cross
*every* section of it, so the chokepoint is the **narrowest section**: the set of passage squares
that cuts one side from the other (every way from side A to side B by the eight-neighbour steps
of RULES §6.2 enters one of them) and, among such cuts, the one of least total clearance
``min(width, ceiling)`` -- the fewest, narrowest squares. Its location and width are the
chokepoint's. Ties (a uniform tunnel) go to the section farthest from both mouths (the middle),
then the first in reading order.

It is a minimum vertex cut, found as a maximum flow (``scipy.sparse.csgraph.maximum_flow``) on the
passage's squares, each split into an entry and an exit joined by its weight.

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

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, maximum_flow, shortest_path

_STEP_QUARTERS = 4          # clearance in quarter feet
_CLEAR_CAP_FT = 40.0        # wider than this is all the same for a section
_TIE_SPAN = 64              # tie-break units under one quarter foot of clearance
_INT_CAP = 2 ** 30          # scipy's maximum flow counts in 32-bit integers
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


def _distances(passage: np.ndarray, side: np.ndarray, rock: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Steps from ``side`` to each passage square (``at``: flat indices), walking in the passage."""
    both = passage | side
    src, dst = _steps(both, both, rock)
    n = passage.size
    g = csr_matrix((np.ones(len(src)), (src, dst)), shape=(n + 1, n + 1)).tolil()
    g[n, np.flatnonzero(side.ravel())] = 1     # one source before every side square
    d = shortest_path(g.tocsr(), indices=n, unweighted=True)
    out = d[at] - 1
    return np.where(np.isfinite(out), out, float(n))


def narrowest_section(passage: np.ndarray, side_a: np.ndarray, side_b: np.ndarray, clearance: np.ndarray,
                      *, rock: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The squares ``(x, y)`` of the narrowest section of ``passage`` between ``side_a`` and
    ``side_b`` (boolean arrays ``[row, col]``; ``clearance`` in feet), in reading order; empty
    when no way from one side to the other runs through the passage (see the module docstring)."""
    cells = np.flatnonzero(passage.ravel())
    n = len(cells)
    if n == 0:
        return ()
    pos = np.full(passage.size, -1, dtype=np.int64)
    pos[cells] = np.arange(n)
    # weights: clearance first (quarter feet), then closeness to the middle (a tie-break)
    da = _distances(passage, side_a, rock, cells)
    db = _distances(passage, side_b, rock, cells)
    off_middle = np.minimum(np.abs(da - db), _TIE_SPAN - 1).astype(np.int64)
    q = np.round(np.minimum(clearance.ravel()[cells], _CLEAR_CAP_FT) * _STEP_QUARTERS).astype(np.int64)
    w = (q + 1) * _TIE_SPAN + off_middle
    total = int(w.sum())
    if total >= _INT_CAP:                       # a huge passage: coarser weights, same order
        w = w // (total // _INT_CAP + 1) + 1
        total = int(w.sum())
    inf = total + 1
    # nodes: square i -> entry 2i, exit 2i+1; source 2n, sink 2n+1
    src, dst, cap = [2 * np.arange(n)], [2 * np.arange(n) + 1], [w]
    s, t = _steps(passage, passage, rock)
    src.append(2 * pos[s] + 1)
    dst.append(2 * pos[t])
    cap.append(np.full(len(s), inf))
    s, t = _steps(side_a, passage, rock)
    src.append(np.full(len(t), 2 * n))
    dst.append(2 * pos[t])
    cap.append(np.full(len(t), inf))
    s, t = _steps(passage, side_b, rock)
    src.append(2 * pos[s] + 1)
    dst.append(np.full(len(s), 2 * n + 1))
    cap.append(np.full(len(s), inf))
    src, dst, cap = np.concatenate(src), np.concatenate(dst), np.concatenate(cap)
    # one edge per ordered pair (a square may touch several side squares)
    key = src * (2 * n + 2) + dst
    key, first = np.unique(key, return_index=True)
    src, dst, cap = src[first], dst[first], cap[first]
    m = 2 * n + 2
    graph = csr_matrix((cap.astype(np.int32), (src, dst)), shape=(m, m))
    flow = maximum_flow(graph, 2 * n, 2 * n + 1)
    if flow.flow_value == 0:
        return ()
    residual = (graph - flow.flow).tocsr()     # forward capacity left; a reverse edge where flow ran
    residual.data = np.where(residual.data > 0, 1, 0)
    residual.eliminate_zeros()
    reached = np.zeros(m, dtype=bool)
    reached[breadth_first_order(residual, 2 * n, directed=True, return_predecessors=False)] = True
    cut = np.flatnonzero(reached[0:2 * n:2] & ~reached[1:2 * n:2])
    cols = passage.shape[1]
    return tuple(sorted(((int(cells[i] % cols), int(cells[i] // cols)) for i in cut), key=lambda p: (p[1], p[0])))
