"""Symmetric shadowcasting: the field of view behind light and sight (RULES §9.3.1, §9.3.7).

Albert Ford's *symmetric shadowcasting* (2021): the grid is scanned in four quadrants, row by
row outwards; a floor square is visible when its centre lies inside the unobstructed slopes, and
a rock square is visible (lit, seen) when any part of it is. The algorithm is exactly symmetric
for floor squares: ``b`` is in the view from ``a`` if and only if ``a`` is in the view from
``b``. That is what makes sight by light symmetric (§9.3.7) and light a field of view from the
source (§9.3.1). Slopes are kept as integer fractions, so there is no rounding.

The compiled kernel writes into a *stamp* array instead of a fresh mask: a visible square gets
the caller's token, and the squares newly stamped are appended to ``cells``. A caller that views
from many squares (a Large creature, forty creatures) reuses one stamp array, one token per
view, and never clears it.

>>> import numpy as np
>>> rock = np.array([[0, 0, 0, 0, 0],
...                  [0, 0, 1, 0, 0],
...                  [0, 0, 0, 0, 0]], bool)
>>> view = field_of_view(rock, (0, 1))
>>> view.astype(int)
array([[1, 1, 1, 1, 1],
       [1, 1, 1, 0, 0],
       [1, 1, 1, 1, 1]])
>>> bool(field_of_view(rock, (4, 0))[1, 0])      # symmetric: (0, 1) sees (4, 0), so back again
True
>>> bool(view[1, 4]), bool(field_of_view(rock, (4, 1))[1, 0])   # the rock hides (4, 1) both ways
(False, False)
"""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.edges import EdgeWalls, centre_line_clear, kernel_edges

FLOOR, WALL, NONE = 2, 1, 0


@numba.njit(cache=True, nogil=True, inline="always")
def _ties_up(depth, num, den):
    """round-half-up of depth * num / den (den > 0)."""
    return (2 * depth * num + den) // (2 * den)


@numba.njit(cache=True, nogil=True, inline="always")
def _ties_down(depth, num, den):
    """round-half-down of depth * num / den (den > 0)."""
    return -((den - 2 * depth * num) // (2 * den))


@numba.njit(cache=True, nogil=True)
def shadowcast(opaque, oy, ox, max_depth, stamp, token, cells, n, has_edges, east, south, corners):
    """Stamp every square visible from ``[oy, ox]`` within Chebyshev ``max_depth`` with
    ``token``; append the squares not stamped with it before to ``cells`` (from index ``n``);
    return the new count. Off-map squares are opaque and never stamped. ``has_edges``: the map
    has walls between squares (``east``, ``south``, ``corners`` from
    :func:`sim.terrain.edges.kernel_edges`); a square the line between the two centres cannot
    reach past them is not stamped (docs/rules.md §6.8; the line is the same both ways, so the
    view stays symmetric)."""
    rows, cols = opaque.shape
    if stamp[oy, ox] != token:
        stamp[oy, ox] = token
        cells[n, 0] = oy
        cells[n, 1] = ox
        n += 1
    cap = 64
    st = np.empty((cap, 5), dtype=np.int64)
    for q in range(4):
        top = 0
        st[0, 0] = 1
        st[0, 1] = -1
        st[0, 2] = 1
        st[0, 3] = 1
        st[0, 4] = 1
        top = 1
        while top > 0:
            top -= 1
            depth = st[top, 0]
            sn = st[top, 1]
            sd = st[top, 2]
            en = st[top, 3]
            ed = st[top, 4]
            if depth > max_depth:
                continue
            lo = _ties_up(depth, sn, sd)
            hi = _ties_down(depth, en, ed)
            prev = NONE
            for col in range(lo, hi + 1):
                if q == 0:      # north
                    r = oy - depth
                    c = ox + col
                elif q == 1:    # south
                    r = oy + depth
                    c = ox + col
                elif q == 2:    # east
                    r = oy + col
                    c = ox + depth
                else:           # west
                    r = oy + col
                    c = ox - depth
                inside = 0 <= r < rows and 0 <= c < cols
                wall = (not inside) or opaque[r, c]
                if inside and (wall or (col * sd >= depth * sn and col * ed <= depth * en)):
                    if stamp[r, c] != token and (not has_edges
                                                 or centre_line_clear(east, south, corners, oy, ox, r, c)):
                        stamp[r, c] = token
                        cells[n, 0] = r
                        cells[n, 1] = c
                        n += 1
                if prev == WALL and not wall:
                    sn = 2 * col - 1
                    sd = 2 * depth
                if prev == FLOOR and wall:
                    if top + 1 >= cap:
                        bigger = np.empty((cap * 2, 5), dtype=np.int64)
                        bigger[:cap] = st
                        st = bigger
                        cap *= 2
                    st[top, 0] = depth + 1
                    st[top, 1] = sn
                    st[top, 2] = sd
                    st[top, 3] = 2 * col - 1
                    st[top, 4] = 2 * depth
                    top += 1
                prev = WALL if wall else FLOOR
            if prev == FLOOR:
                if top + 1 >= cap:
                    bigger = np.empty((cap * 2, 5), dtype=np.int64)
                    bigger[:cap] = st
                    st = bigger
                    cap *= 2
                st[top, 0] = depth + 1
                st[top, 1] = sn
                st[top, 2] = sd
                st[top, 3] = en
                st[top, 4] = ed
                top += 1
    return n


def field_of_view(rock: np.ndarray, at: tuple[int, int], *, max_depth: int | None = None,
                  edges: EdgeWalls | None = None) -> np.ndarray:
    """Bool mask ``[row, col]`` of the squares visible from square ``at = (x, y)`` (rock squares
    bordering the view included). ``max_depth`` bounds the Chebyshev distance (default: no bound).
    ``edges``: the map's walls between squares (docs/rules.md §6.8).

    >>> wall = EdgeWalls.of([[False, True, False, False, False]] * 3, None, (3, 5))   # x = 2
    >>> field_of_view(np.zeros((3, 5), bool), (0, 1), edges=wall).astype(int)
    array([[1, 1, 0, 0, 0],
           [1, 1, 0, 0, 0],
           [1, 1, 0, 0, 0]])
    """
    rock = np.ascontiguousarray(rock, dtype=np.bool_)
    x, y = at
    stamp = np.zeros(rock.shape, dtype=np.int32)
    cells = np.empty((rock.size, 2), dtype=np.int32)
    depth = rock.shape[0] + rock.shape[1] if max_depth is None else int(max_depth)
    shadowcast(rock, int(y), int(x), depth, stamp, 1, cells, 0, *kernel_edges(edges))
    return stamp == 1
