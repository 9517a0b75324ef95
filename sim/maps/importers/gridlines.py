"""Walls and doors drawn along grid lines become walls between squares (docs/rules.md §6.8).

A virtual tabletop treats a wall drawn on a grid line as a wall between the two squares it
separates; the width measure sees such a wall too, but both squares stay floor, so without this
layer the wall would vanish for movement, sight and the chokepoint analysis. Here each straight
piece of a wall (or a closed door) that lies along a grid line, both ends within
:data:`ON_LINE_SQ` of it **[PD]**, walls every edge of that line it covers for at least
:data:`COVER_SQ` of the edge's length **[PD]**, provided the squares on both sides are floor (an
edge beside rock separates already); a closed door is kept on its edge when either side is floor
(a door out of the mapped floor stays a door, for a later change that opens it).

Coordinates are squares, the map's top-left corner at ``(0, 0)`` (as :mod:`.uvtt` gives them).

>>> floor = np.ones((2, 3), bool)
>>> g = grid_line_edges([np.array([[1.0, 0.0], [1.02, 2.0]])], floor)   # x = 1, both rows
>>> g.wall_e.astype(int).tolist(), int(g.wall_s.sum())
([[1, 0, 0], [1, 0, 0]], 0)
>>> int(grid_line_edges([np.array([[1.3, 0.0], [1.3, 2.0]])], floor).wall_e.sum())   # off the line
0
>>> g = grid_line_edges([np.array([[1.0, 0.0], [1.0, 0.7]]), np.array([[1.0, 1.3], [1.0, 2.0]])], floor)
>>> g.wall_e[:, 0].tolist()             # a doorway across both edges (0.6 wide): the middle one open
[True, False]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

ON_LINE_SQ = 0.1    # both ends of a wall piece within this of a grid line (6 in at 5-ft squares) [PD]
COVER_SQ = 0.5      # an edge is walled when walls and doors cover at least half of it [PD]
GAP_SQ = 0.2        # an opening at least this long (1 ft) in a walled grid line keeps its edge open [PD]


def on_grid_line(a, b, tol: float = ON_LINE_SQ) -> tuple[bool, int, float, float] | None:
    """The grid line a straight piece from ``a`` to ``b`` lies along: ``(vertical, k, lo, hi)``
    (the line ``x = k`` when vertical, else ``y = k``; the piece's extent along it), or None.

    >>> on_grid_line((2.0, 1.0), (2.05, 4.0)), on_grid_line((0.0, 3.0), (2.0, 3.0))
    ((True, 2, 1.0, 4.0), (False, 3, 0.0, 2.0))
    >>> on_grid_line((0.5, 0.5), (2.0, 0.5)) is None
    True
    """
    (x0, y0), (x1, y1) = a, b
    for vertical, u0, u1, v0, v1 in ((True, x0, x1, y0, y1), (False, y0, y1, x0, x1)):
        k = round(u0)
        if abs(u0 - k) <= tol and abs(u1 - k) <= tol and abs(v1 - v0) > tol:
            lo, hi = sorted((float(v0), float(v1)))
            return vertical, int(k), lo, hi
    return None


def _pieces(lines: Iterable[np.ndarray], tol: float):
    """The straight pieces of ``lines`` that lie along a grid line, as ``(vertical, k, lo, hi)``."""
    for pts in lines:
        p = np.asarray(pts, dtype=np.float64)
        for i in range(len(p) - 1):
            line = on_grid_line(p[i], p[i + 1], tol)
            if line is not None:
                yield line


def _uncovered(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The gaps between the covered spans of one grid line (between its first and last)."""
    out = []
    spans = sorted(spans)
    reach = spans[0][1]
    for lo, hi in spans[1:]:
        if lo > reach:
            out.append((reach, lo))
        reach = max(reach, hi)
    return out


@dataclass(frozen=True, slots=True)
class GridLineEdges:
    """The edge layers an import found: walls and closed doors between squares (bool
    ``[row, col]`` each, east and south edges)."""

    wall_e: np.ndarray
    wall_s: np.ndarray
    door_e: np.ndarray
    door_s: np.ndarray

    @property
    def walls(self) -> tuple[np.ndarray, np.ndarray]:
        return self.wall_e, self.wall_s

    @property
    def doors(self) -> tuple[np.ndarray, np.ndarray]:
        return self.door_e, self.door_s


def grid_line_edges(walls: Iterable[np.ndarray], floor: np.ndarray, *, doors: Iterable[np.ndarray] = (),
                    openings: Iterable[np.ndarray] = (), tol: float = ON_LINE_SQ) -> GridLineEdges:
    """The edges between two floor squares that the polylines ``walls`` and the closed
    ``doors`` (each ``(n, 2)`` points ``(x, y)`` in squares) close (module docstring). An edge
    is closed when walls and doors together cover at least :data:`COVER_SQ` of it, and is a
    door when doors cover at least as much of it as walls do. An opening in such a line at
    least :data:`GAP_SQ` long (a gap between its walls, or an open door in it) keeps the edge
    holding its middle open, so a doorway drawn across two edges stays a way through **[PD]**."""
    f = np.asarray(floor, dtype=bool)
    rows, cols = f.shape
    cover: dict[tuple[bool, int], dict[int, list[float]]] = {}
    spans: dict[tuple[bool, int], list[tuple[float, float]]] = {}
    gaps: dict[tuple[bool, int], list[tuple[float, float]]] = {}
    for kind, lines in ((0, walls), (1, doors), (2, openings)):
        for vertical, k, lo, hi in _pieces(lines, tol):
            if not 1 <= k < (cols if vertical else rows):
                continue   # the map's border: no square beyond it
            key = (vertical, k)
            if kind == 2:
                gaps.setdefault(key, []).append((lo, hi))
                continue
            spans.setdefault(key, []).append((lo, hi))
            per_edge = cover.setdefault(key, {})
            for j in range(max(0, int(math.floor(lo))), int(math.ceil(hi))):
                overlap = min(hi, j + 1) - max(lo, j)
                if overlap > 0:
                    per_edge.setdefault(j, [0.0, 0.0])[kind] += overlap
    out = GridLineEdges(*(np.zeros((rows, cols), dtype=bool) for _ in range(4)))
    for key, per_edge in cover.items():
        vertical, k = key
        n_along = rows if vertical else cols
        keep_open = {int(math.floor((lo + hi) / 2)) for lo, hi in _uncovered(spans[key]) + gaps.get(key, [])
                     if hi - lo >= GAP_SQ}
        for j, (wall, door) in per_edge.items():
            if j >= n_along or j in keep_open or wall + door < COVER_SQ - 1e-9:
                continue
            r, c = (j, k - 1) if vertical else (k - 1, j)
            target = (out.door_e if vertical else out.door_s) if door >= wall else (out.wall_e if vertical else out.wall_s)
            target[r, c] = True
    for (e, s), both in ((out.walls, True), (out.doors, False)):
        side = np.logical_and if both else np.logical_or
        e[:, :-1] &= side(f[:, :-1], f[:, 1:])
        e[:, -1] = False
        s[:-1, :] &= side(f[:-1, :], f[1:, :])
        s[-1, :] = False
    return out
