"""Walls between squares: the edge-wall layer of a map (docs/rules.md §6.8 [PD]).

A wall drawn along a grid line (an interior partition, a hall's wall with a portcullis in it) is
a wall *between* two squares, both of them floor. :class:`EdgeWalls` holds such walls as two
bool arrays ``[row, col]``: ``east[r, c]`` walls the edge between square ``(c, r)`` and
``(c + 1, r)``, ``south[r, c]`` the edge between ``(c, r)`` and ``(c, r + 1)``. A map without
any has ``None`` (nothing is stored, nothing is checked: maps without edge walls cost nothing).

What a walled edge does (§6.8):

* **movement**: no step crosses it; a diagonal step is blocked when a walled edge meets the grid
  corner it passes (the corner rule of §6.2, with an edge wall in place of a rock square); a
  k x k body never stands across one (:meth:`EdgeWalls.straddled`);
* **lines** (line of effect, cover, sight, light): a line is blocked where it meets a walled edge
  (crossing it, running along it, or through a grid corner a walled edge touches); its own end
  points do not count, so a point of origin on a wall reaches both sides
  (:func:`segment_clear`); fields of view drop what the line between square centres cannot reach
  (:func:`centre_line_clear`, symmetric, so sight by light stays mutual).

Grid corners ``(X, Y)`` are points: square ``(x, y)`` spans ``[x, x+1] x [y, y+1]``.

>>> e = EdgeWalls.of([[True, False], [False, False]], None, (2, 2))   # a wall east of (0, 0)
>>> e.between((0, 0), (1, 0)), e.between((0, 1), (1, 1)), e.count()
(True, False, 1)
>>> segment_clear(e, (0.5, 0.5), (1.5, 0.5)), segment_clear(e, (0.5, 1.5), (1.5, 1.5))
(False, True)
>>> EdgeWalls.of(np.zeros((2, 2), bool), None, (2, 2)) is None     # nothing walled: no layer
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from sim.base.jit import numba

EPS = 1e-9


def _frozen_bool(a: np.ndarray) -> np.ndarray:
    out = np.array(a, dtype=bool, copy=True, order="C")
    out.flags.writeable = False
    return out


@dataclass(frozen=True, slots=True, eq=False)
class EdgeWalls:
    """Walled edges between squares (read-only bool arrays ``[row, col]``, the grid's shape)."""

    east: np.ndarray    # the edge between (c, r) and (c + 1, r); the last column's is always False
    south: np.ndarray   # the edge between (c, r) and (c, r + 1); the last row's is always False

    @classmethod
    def of(cls, east, south, shape: tuple[int, int]) -> "EdgeWalls | None":
        """The layer from two arrays (either may be None: no wall that way), or None when no
        edge is walled. Edges on the map's border (east of the last column, south of the last
        row) lead off the map and are dropped."""
        e = np.zeros(shape, dtype=bool) if east is None else np.asarray(east, dtype=bool)
        s = np.zeros(shape, dtype=bool) if south is None else np.asarray(south, dtype=bool)
        for name, a in (("east", e), ("south", s)):
            if a.shape != tuple(shape):
                raise ValueError(f"edge walls {name} must have shape {tuple(shape)}, got {a.shape}")
        e = e.copy()
        s = s.copy()
        if e.size:
            e[:, -1] = False
            s[-1, :] = False
        if not (e.any() or s.any()):
            return None
        return cls(east=_frozen_bool(e), south=_frozen_bool(s))

    @property
    def shape(self) -> tuple[int, int]:
        return self.east.shape  # type: ignore[return-value]

    def count(self) -> int:
        """How many edges are walled."""
        return int(self.east.sum() + self.south.sum())

    def between(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        """Whether a wall stands between two orthogonally adjacent squares ``(x, y)``."""
        (xa, ya), (xb, yb) = a, b
        if ya == yb and abs(xa - xb) == 1:
            return bool(self.east[ya, min(xa, xb)])
        if xa == xb and abs(ya - yb) == 1:
            return bool(self.south[min(ya, yb), xa])
        raise ValueError(f"squares {a} and {b} are not orthogonal neighbours")

    def corners(self) -> np.ndarray:
        """bool ``[rows + 1, cols + 1]``: a walled edge meets grid corner ``(X, Y)`` (index
        ``[Y, X]``)."""
        rows, cols = self.shape
        out = np.zeros((rows + 1, cols + 1), dtype=bool)
        out[:-1, 1:] |= self.east     # the east edge of (c, r) runs from corner (c+1, r) ...
        out[1:, 1:] |= self.east      # ... to corner (c+1, r+1)
        out[1:, :-1] |= self.south    # the south edge of (c, r) runs from corner (c, r+1) ...
        out[1:, 1:] |= self.south     # ... to corner (c+1, r+1)
        return out

    def step_open(self, dr: int, dc: int) -> np.ndarray:
        """bool ``[row, col]``: the step from each square by ``(dr, dc)`` (one of the eight
        unit steps) crosses no walled edge; a diagonal needs every edge at the corner it passes
        unwalled (§6.2, §6.8). Steps off the map are reported open (the caller bounds them)."""
        rows, cols = self.shape
        ok = np.ones((rows, cols), dtype=bool)
        if dr and dc:
            cw = self.corners()
            y0 = 1 if dr > 0 else 0
            x0 = 1 if dc > 0 else 0
            ok &= ~cw[y0:y0 + rows, x0:x0 + cols]
        elif dc:
            if dc > 0:
                ok &= ~self.east
            else:
                ok[:, 1:] &= ~self.east[:, :-1]
        else:
            if dr > 0:
                ok &= ~self.south
            else:
                ok[1:, :] &= ~self.south[:-1, :]
        return ok

    def straddled(self, k: int) -> np.ndarray:
        """bool ``[row, col]``: the k x k block whose top-left square is there has a walled
        edge inside it (a body of that size may not stand there, §6.8). All False for k = 1."""
        rows, cols = self.shape
        if k <= 1:
            return np.zeros((rows, cols), dtype=bool)
        e = np.pad(self.east, ((0, k - 1), (0, k - 1)), constant_values=False)
        s = np.pad(self.south, ((0, k - 1), (0, k - 1)), constant_values=False)
        inner_e = sliding_window_view(e, (k, k - 1))[:rows, :cols].any(axis=(2, 3))
        inner_s = sliding_window_view(s, (k - 1, k))[:rows, :cols].any(axis=(2, 3))
        return inner_e | inner_s

    def separates(self, floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The walled edges with floor on both sides (the others stand beside rock, which
        separates already): ``(east, south)``."""
        f = np.asarray(floor, dtype=bool)
        e = self.east.copy()
        s = self.south.copy()
        e[:, :-1] &= f[:, :-1] & f[:, 1:]
        s[:-1, :] &= f[:-1, :] & f[1:, :]
        return e, s

    def packed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(east, south, corners)`` as contiguous arrays for the compiled kernels."""
        return (np.ascontiguousarray(self.east), np.ascontiguousarray(self.south),
                np.ascontiguousarray(self.corners()))


NO_EDGES = (np.zeros((1, 1), dtype=np.bool_), np.zeros((1, 1), dtype=np.bool_), np.zeros((2, 2), dtype=np.bool_))


def kernel_edges(edges: "EdgeWalls | None") -> tuple[bool, np.ndarray, np.ndarray, np.ndarray]:
    """``(has_edges, east, south, corners)`` for :func:`centre_line_clear` and the vision
    kernels: tiny dummies when the map has no edge walls (never read then)."""
    if edges is None:
        return (False,) + NO_EDGES
    return (True,) + edges.packed()


def _walled_at(edges: EdgeWalls, cw: np.ndarray, vertical: bool, k: int, u: float) -> bool:
    """Whether grid line ``k`` (``x = k`` when ``vertical``, else ``y = k``) is walled at
    coordinate ``u`` along it (a grid corner when ``u`` is whole)."""
    rows, cols = edges.shape
    if abs(u - round(u)) < EPS:
        U = int(round(u))
        Y, X = (U, k) if vertical else (k, U)
        return 0 <= Y <= rows and 0 <= X <= cols and bool(cw[Y, X])
    j = int(math.floor(u))
    if vertical:
        return 0 <= j < rows and 1 <= k < cols and bool(edges.east[j, k - 1])
    return 0 <= j < cols and 1 <= k < rows and bool(edges.south[k - 1, j])


def segment_clear(edges: "EdgeWalls | None", p0, p1, cw: np.ndarray | None = None) -> bool:
    """Whether the segment from ``p0`` to ``p1`` (continuous ``(x, y)``) meets no walled edge
    between its end points (§6.8): crossing one, running along one, or passing through a grid
    corner one touches all block; touching one at an end point does not. ``cw``: the layer's
    :meth:`EdgeWalls.corners`, when the caller tests many lines.

    >>> e = EdgeWalls.of(None, [[True, False], [False, False]], (2, 2))   # a wall south of (0, 0)
    >>> segment_clear(e, (0.5, 0.5), (0.5, 1.5)), segment_clear(e, (0.5, 0.5), (1.5, 1.5))
    (False, False)
    >>> segment_clear(e, (1.5, 0.5), (1.5, 1.5)), segment_clear(e, (0.2, 1.0), (0.8, 1.0))
    (True, False)
    """
    if edges is None:
        return True
    if cw is None:
        cw = edges.corners()
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    for vertical, a0, da, b0, db in ((True, x0, dx, y0, dy), (False, y0, dy, x0, dx)):
        if abs(da) <= EPS:
            if abs(a0 - round(a0)) < EPS and abs(db) > EPS and not _along_clear(edges, cw, vertical, int(round(a0)), b0, b0 + db):
                return False
            continue
        lo, hi = sorted((a0, a0 + da))
        for k in range(int(math.ceil(lo - EPS)), int(math.floor(hi + EPS)) + 1):
            t = (k - a0) / da
            if t <= EPS or t >= 1 - EPS:
                continue
            if _walled_at(edges, cw, vertical, k, b0 + t * db):
                return False
    return True


def _along_clear(edges: EdgeWalls, cw: np.ndarray, vertical: bool, k: int, u0: float, u1: float) -> bool:
    """A segment lying on grid line ``k`` from ``u0`` to ``u1``: clear unless it runs along a
    walled edge or passes a grid corner one touches (its end points excepted)."""
    lo, hi = sorted((u0, u1))
    for U in range(int(math.ceil(lo + EPS)), int(math.floor(hi - EPS)) + 1):
        if _walled_at(edges, cw, vertical, k, float(U)):
            return False
    j = int(math.floor(lo))
    while j < hi - EPS:
        mid = max(lo, j) + (min(hi, j + 1) - max(lo, j)) / 2
        if min(hi, j + 1) - max(lo, j) > EPS and _walled_at(edges, cw, vertical, k, mid):
            return False
        j += 1
    return True


def nudged_corners(squares) -> list[tuple[float, float]]:
    """The corners of each square drawn a hair inside it (one per square and corner): lines of
    effect between spaces start and end *inside* their squares, so two creatures either side of
    an edge wall never join through a corner they share (§6.8)."""
    h = 1e-6
    out = []
    for x, y in squares:
        out.extend(((x + h, y + h), (x + 1 - h, y + h), (x + h, y + 1 - h), (x + 1 - h, y + 1 - h)))
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _line_walled(east, south, cw, vertical, k, num, den):
    """Grid line ``k`` crossed at coordinate ``num / (2 den)`` along it (den > 0, doubled
    coordinates): walled there (an edge, or a corner a walled edge touches)?"""
    rows, cols = east.shape
    if num % (2 * den) == 0:
        U = num // (2 * den)
        if vertical:
            return 0 <= U <= rows and cw[U, k]
        return 0 <= U <= cols and cw[k, U]
    j = num // (2 * den)
    if vertical:
        return 0 <= j < rows and 1 <= k < cols and east[j, k - 1]
    return 0 <= j < cols and 1 <= k < rows and south[k - 1, j]


@numba.njit(cache=True, nogil=True)
def centre_line_clear(east, south, cw, r0, c0, r1, c1):
    """Whether the line between the centres of squares ``(c0, r0)`` and ``(c1, r1)`` meets no
    walled edge (exact integer arithmetic on doubled coordinates; the same both ways)."""
    X0, Y0, X1, Y1 = 2 * c0 + 1, 2 * r0 + 1, 2 * c1 + 1, 2 * r1 + 1
    if X1 < X0:
        X0, Y0, X1, Y1 = X1, Y1, X0, Y0
    DX, DY = X1 - X0, Y1 - Y0
    if DX > 0:
        for k in range((X0 + 1) // 2, X1 // 2 + 1):     # vertical lines x = k, doubled 2k
            if _line_walled(east, south, cw, True, k, Y0 * DX + (2 * k - X0) * DY, DX):
                return False
    if Y1 < Y0:
        X0, Y0, X1, Y1 = X1, Y1, X0, Y0
    DX, DY = X1 - X0, Y1 - Y0
    if DY > 0:
        for k in range((Y0 + 1) // 2, Y1 // 2 + 1):     # horizontal lines y = k
            if _line_walled(east, south, cw, False, k, X0 * DY + (2 * k - Y0) * DX, DY):
                return False
    return True
