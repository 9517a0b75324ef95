"""Classification of squares into constricted-space categories: RULES §2.3.

``classify(grid, body)`` returns a ``uint8`` array of :class:`~sim.rules.categories.Category`
codes, one per square, vectorised over the whole grid (one compiled pass; one pass for all nine
sizes in :func:`classify_all_sizes`). Rock squares are IMPASSABLE for everyone. A swarm body
(§7.24-25) is CLEAR wherever its component's opening fits (``min(W, C) >= opening``) and
IMPASSABLE elsewhere.

The decision procedure, first match wins (§2.3)::

    min(W, C) < head                        -> IMPASSABLE
    body (shoulders x depth, either way up) does not fit -> TIGHT_SQUEEZE
    W < S/2 or C < H/4                      -> AWKWARD
    C < H/2                                 -> CRAWL
    W < S and C < H                         -> NARROW_AND_LOW
    W < S or C < H                          -> NARROW_OR_LOW
    otherwise                               -> CLEAR

>>> from sim.terrain.grid import CaveGrid
>>> from sim.rules.bodies import body_for
>>> g = CaveGrid.from_arrays([[10, 4, 4], [5, 2, 0.4]], [[10, 10, 4], [2.5, 10, 10]])
>>> [[Category(c).name for c in row] for row in classify(g, body_for("medium"))]
[['CLEAR', 'NARROW_OR_LOW', 'NARROW_AND_LOW'], ['CRAWL', 'AWKWARD', 'IMPASSABLE']]
"""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.rules.bodies import Body, body_for
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.terrain.grid import CaveGrid

_CLEAR = np.uint8(Category.CLEAR)
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


_BLOCK = 4096  # squares per block: the block's inputs stay in L1 while every body is classified


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _classify_block(width, height, rock, S, H, HW, lo, hi, out):  # pragma: no cover - compiled
    """One body over 1-D arrays: the §2.3 procedure, branch-free so that it vectorises. Each row
    that applies overrides the milder ones (the procedure checks the most severe first).
    ``lo`` / ``hi``: the smaller / larger of shoulders and depth; the body fits either way up
    iff ``min(W, C) >= lo`` and ``max(W, C) >= hi``."""
    half_s = S * 0.5
    quarter_h = H * 0.25
    half_h = H * 0.5
    for i in range(width.shape[0]):
        W = width[i]
        C = height[i]
        least = min(W, C)
        most = max(W, C)
        cat = np.uint8(W < S) + np.uint8(C < H)  # Category 0, 1, 2: clear, narrow or low, narrow and low
        cat = _CRAWL if C < half_h else cat
        cat = _AWK if (W < half_s) | (C < quarter_h) else cat
        cat = _TIGHT if (least < lo) | (most < hi) else cat
        no_room = rock[i] | (not (W > 0.0)) | (not (C > 0.0)) | (least < HW)  # NaN: no room
        out[i] = _IMP if no_room else cat


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _classify_kernel(width, height, rock, bodies, out):  # pragma: no cover - compiled
    """Flat ``width``/``height``/``rock`` (n squares) and ``bodies`` rows (S, H, head, shoulders,
    depth) into ``out[body, square]``, block by block: the inputs are read from memory once."""
    n = width.shape[0]
    for start in range(0, n, _BLOCK):
        stop = min(n, start + _BLOCK)
        for j in range(bodies.shape[0]):
            S, H, HW, SW, BD = bodies[j, 0], bodies[j, 1], bodies[j, 2], bodies[j, 3], bodies[j, 4]
            _classify_block(width[start:stop], height[start:stop], rock[start:stop], S, H, HW,
                            min(SW, BD), max(SW, BD), out[j, start:stop])


@numba.njit(cache=True, nogil=True, error_model="numpy")
def _swarm_kernel(width, height, rock, opening, out):  # pragma: no cover - compiled
    for i in range(width.shape[0]):
        W = width[i]
        C = height[i]
        m = W if W < C else C
        out[i] = _IMP if rock[i] or not (m >= opening) or not (m > 0.0) else _CLEAR


def _classify_many(width_ft: np.ndarray, height_ft: np.ndarray, rock: np.ndarray, bodies: list[Body]) -> np.ndarray:
    """Categories of every square for each body: uint8 ``(len(bodies), rows, cols)``, one pass
    over the inputs for all the non-swarm bodies."""
    w = np.ascontiguousarray(width_ft, dtype=np.float64)
    shape = w.shape
    w = w.ravel()
    h = np.ascontiguousarray(height_ft, dtype=np.float64).ravel()
    rk = np.ascontiguousarray(rock, dtype=np.bool_).ravel()
    if h.shape != w.shape or rk.shape != w.shape:
        raise ValueError(f"width, height and rock must have the same shape, got {np.shape(width_ft)}, "
                         f"{np.shape(height_ft)}, {np.shape(rock)}")
    out = np.empty((len(bodies), w.size), dtype=np.uint8)
    solid = [i for i, b in enumerate(bodies) if b.opening is None]
    if solid:
        rows = np.array([[bodies[i].space, bodies[i].height, bodies[i].head, bodies[i].shoulders,
                          bodies[i].depth] for i in solid], dtype=np.float64)
        if len(solid) == len(bodies):
            _classify_kernel(w, h, rk, rows, out)
        else:
            part = np.empty((len(solid), w.size), dtype=np.uint8)
            _classify_kernel(w, h, rk, rows, part)
            out[solid] = part
    for i, b in enumerate(bodies):
        if b.opening is not None:
            _swarm_kernel(w, h, rk, float(b.opening), out[i])
    return out.reshape((len(bodies),) + shape)


def classify_arrays(width_ft: np.ndarray, height_ft: np.ndarray, rock: np.ndarray, body: Body) -> np.ndarray:
    """Classify raw ``[row, col]`` arrays (feet) for ``body``; returns a new uint8 array."""
    return _classify_many(width_ft, height_ft, rock, [body])[0]


def classify(grid: CaveGrid, body: Body) -> np.ndarray:
    """Category code of every square of ``grid`` for ``body`` (uint8, ``[row, col]``)."""
    return classify_arrays(grid.width_ft, grid.height_ft, grid.rock, body)


def classify_all_sizes(grid: CaveGrid, *, form: str = "tall") -> np.ndarray:
    """Categories for the default body of each of the nine sizes: shape ``(9, rows, cols)``,
    classified together in one pass over the grid."""
    return _classify_many(grid.width_ft, grid.height_ft, grid.rock,
                          [body_for(s, form=form) for s in Size])  # type: ignore[arg-type]


def category_counts(categories: np.ndarray) -> dict[Category, int]:
    """How many squares fall in each category (every category listed, zeros included)."""
    counts = np.bincount(categories.ravel(), minlength=len(Category))
    return {cat: int(counts[int(cat)]) for cat in Category}
