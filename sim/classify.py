"""Classification of squares into constricted-space categories: RULES §2.3.

``classify(grid, body)`` returns a ``uint8`` array of :class:`~sim.rules.categories.Category`
codes, one per square, vectorised over the whole grid (one compiled pass). Rock squares are
IMPASSABLE for everyone. A swarm body (§7.24-25) is CLEAR wherever its component's opening fits
(``min(W, C) >= opening``) and IMPASSABLE elsewhere.

The decision procedure, first match wins (§2.3)::

    min(W, C) < head                        -> IMPASSABLE
    body (shoulders x depth, either way up) does not fit -> TIGHT_SQUEEZE
    W < S/2 or C < H/4                      -> AWKWARD
    C < H/2                                 -> CRAWL
    W < S and C < H                         -> NARROW_AND_LOW
    W < S or C < H                          -> NARROW_OR_LOW
    otherwise                               -> CLEAR

>>> from sim.grid import CaveGrid
>>> from sim.rules.bodies import body_for
>>> g = CaveGrid.from_arrays([[10, 4, 4], [5, 2, 0.4]], [[10, 10, 4], [2.5, 10, 10]])
>>> [[Category(c).name for c in row] for row in classify(g, body_for("medium"))]
[['CLEAR', 'NARROW_OR_LOW', 'NARROW_AND_LOW'], ['CRAWL', 'AWKWARD', 'IMPASSABLE']]
"""

from __future__ import annotations

import numba
import numpy as np

from sim.grid import CaveGrid
from sim.rules.bodies import Body, body_for
from sim.rules.categories import Category
from sim.rules.sizes import Size

_CLEAR = np.uint8(Category.CLEAR)
_NOL = np.uint8(Category.NARROW_OR_LOW)
_NAL = np.uint8(Category.NARROW_AND_LOW)
_CRAWL = np.uint8(Category.CRAWL)
_AWK = np.uint8(Category.AWKWARD)
_TIGHT = np.uint8(Category.TIGHT_SQUEEZE)
_IMP = np.uint8(Category.IMPASSABLE)


def classify_square(W: float, C: float, body: Body) -> Category:
    """One square, written exactly as the procedure of RULES §2.3 (plain Python).

    >>> classify_square(1, 10, body_for("medium")).name    # side-on through a 1-ft crevice
    'AWKWARD'
    """
    if body.opening is not None:  # swarm, §7.24-25
        return Category.CLEAR if min(W, C) >= body.opening else Category.IMPASSABLE
    if W <= 0 or C <= 0:
        return Category.IMPASSABLE
    if min(W, C) < body.head:
        return Category.IMPASSABLE
    body_fits = (W >= body.shoulders and C >= body.depth) or (W >= body.depth and C >= body.shoulders)
    if not body_fits:
        return Category.TIGHT_SQUEEZE
    if W < body.space / 2 or C < body.height / 4:
        return Category.AWKWARD
    if C < body.height / 2:
        return Category.CRAWL
    narrow = W < body.space
    low = C < body.height
    if narrow and low:
        return Category.NARROW_AND_LOW
    if narrow or low:
        return Category.NARROW_OR_LOW
    return Category.CLEAR


@numba.njit(cache=True, nogil=True)
def _classify_kernel(width, height, rock, S, H, HW, SW, BD, out):  # pragma: no cover - compiled
    rows, cols = width.shape
    half_s = S * 0.5
    quarter_h = H * 0.25
    half_h = H * 0.5
    for r in range(rows):
        for c in range(cols):
            W = width[r, c]
            C = height[r, c]
            if rock[r, c] or not (W > 0.0) or not (C > 0.0):
                out[r, c] = _IMP
                continue
            m = W if W < C else C
            if m < HW:
                out[r, c] = _IMP
            elif not ((W >= SW and C >= BD) or (W >= BD and C >= SW)):
                out[r, c] = _TIGHT
            elif W < half_s or C < quarter_h:
                out[r, c] = _AWK
            elif C < half_h:
                out[r, c] = _CRAWL
            elif W < S:
                out[r, c] = _NAL if C < H else _NOL
            elif C < H:
                out[r, c] = _NOL
            else:
                out[r, c] = _CLEAR


@numba.njit(cache=True, nogil=True)
def _swarm_kernel(width, height, rock, opening, out):  # pragma: no cover - compiled
    rows, cols = width.shape
    for r in range(rows):
        for c in range(cols):
            W = width[r, c]
            C = height[r, c]
            m = W if W < C else C
            if rock[r, c] or not (m >= opening) or not (m > 0.0):
                out[r, c] = _IMP
            else:
                out[r, c] = _CLEAR


def classify_arrays(width_ft: np.ndarray, height_ft: np.ndarray, rock: np.ndarray, body: Body) -> np.ndarray:
    """Classify raw ``[row, col]`` arrays (feet) for ``body``; returns a new uint8 array."""
    w = np.ascontiguousarray(width_ft, dtype=np.float64)
    h = np.ascontiguousarray(height_ft, dtype=np.float64)
    rk = np.ascontiguousarray(rock, dtype=np.bool_)
    out = np.empty(w.shape, dtype=np.uint8)
    if body.opening is not None:
        _swarm_kernel(w, h, rk, float(body.opening), out)
    else:
        _classify_kernel(w, h, rk, float(body.space), float(body.height), float(body.head),
                         float(body.shoulders), float(body.depth), out)
    return out


def classify(grid: CaveGrid, body: Body) -> np.ndarray:
    """Category code of every square of ``grid`` for ``body`` (uint8, ``[row, col]``)."""
    return classify_arrays(grid.width_ft, grid.height_ft, grid.rock, body)


def classify_all_sizes(grid: CaveGrid, *, form: str = "tall") -> np.ndarray:
    """Categories for the default body of each of the nine sizes: shape ``(9, rows, cols)``."""
    out = np.empty((len(Size),) + grid.shape, dtype=np.uint8)
    for s in Size:
        out[int(s)] = classify(grid, body_for(s, form=form))  # type: ignore[arg-type]
    return out


def category_counts(categories: np.ndarray) -> dict[Category, int]:
    """How many squares fall in each category (every category listed, zeros included)."""
    counts = np.bincount(categories.ravel(), minlength=len(Category))
    return {cat: int(counts[int(cat)]) for cat in Category}
