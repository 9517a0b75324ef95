"""Seeded natural-cave generator behind ``cavesim generate`` (DESIGN §6), writing the map format
of DESIGN §5 (an ASCII grid with a ``[legend]``, or numeric ``.npz`` layers for large maps).

Same ``(seed, cols, rows, params)``, same cave, on any machine: every random draw comes from one
``numpy.random.SeedSequence(seed)``, spawned into an independent stream per stage (layout,
widths, ceilings, rubble), so a change in one stage never reshuffles the others. There is no
global RNG and no work at import. All stages are vectorised numpy / ``scipy.ndimage``; a
1024 x 1024 cave takes well under a second or two.

The stages:

1. **Rock layout** (:func:`cave_layout`). Chambers are the top ``open_share`` of a smooth
   two-scale noise field, roughened by a few steps of the classic 4-5 cellular automaton (a square
   becomes rock when at least 5 of the 9 squares of its 3 x 3 block are rock). Pockets smaller
   than ``min_pocket`` squares are filled in; the others are joined along a minimum spanning tree
   of neighbouring chambers, plus a few extra links for circuits, by winding tunnels (random
   4-connected staircases through a displaced midpoint) one or two squares wide. The floor is
   one 4-connected component; the border is rock.
2. **Width** (:func:`sim.terrain.grid.width_allowance_ft`, DESIGN §5 "narrowest horizontal clearance"). The width
   of a square may never exceed what its rock allows: ``5 ft x min(horizontal run, vertical run)``
   of open squares through it. A corridor one square wide therefore never claims more than 5 ft,
   a two-square corridor never more than 10 ft. Open chambers are capped at ``chamber_cap_ft``.
   A smooth roughness factor (``roughness``) narrows the walls a little, and some one-square
   passages become **fissures** of 1-4 ft (some below 2.5 ft, Awkward Space for a Medium body;
   a few below 1.5 ft). Widths only ever go *down* from the allowance, so the rule holds.
3. **Ceiling**. A gaussian-filtered noise field mapped to ``ceiling_ft`` (4-20 ft) and scaled by
   how open the neighbourhood is (chambers higher than passages), so ceilings vary smoothly from
   square to square. Deliberate features break the smoothness: **crawlways** (1.5-2.5 ft) and
   **low tunnels** (3-5 ft) in some narrow passages, each with a ramp of ``ramp_ft`` per square
   around it, so the roof comes down towards a crawlway instead of stepping.
4. **Rubble**: a few patches of difficult terrain, away from fissures and crawlways.

>>> g = generate_cave(7, 24, 16)
>>> g.shape, bool(g.rock[0].all() and g.rock[:, -1].all())
((16, 24), True)
>>> bool((g.width_ft[~g.rock] <= width_allowance_ft(~g.rock)[~g.rock]).all())
True
>>> bool(np.array_equal(generate_cave(7, 24, 16).height_ft, g.height_ft))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra, minimum_spanning_tree
from scipy.spatial import cKDTree
from scipy.special import ndtr

from sim import __version__
from sim.base.coords import xy
from sim.maps.write import GLYPHS, WALL_GLYPH
from sim.rules.bodies import body_for
from sim.terrain.grid import SQUARE_FT, CaveGrid, Terrain, width_allowance_ft

MIN_SIZE = 8  # smallest cave side, in squares (a 6 x 6 interior inside the rock border)

# Quantisation classes of the ASCII format (feet). Values are rounded *down* to a class, so a
# quantised width still never exceeds what the rock allows, and a ceiling never grows.
WIDTH_CLASSES: tuple[float, ...] = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 40.0)
HEIGHT_CLASSES: tuple[float, ...] = (1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0)



@dataclass(frozen=True, slots=True)
class CaveParams:
    """Knobs of :func:`generate_cave`. Lengths in feet, distances in squares."""

    open_share: float = 0.30           # share of the map that starts as chamber floor
    chamber_sigma: float = 2.5         # scale (squares) of the chamber noise: chamber size
    ca_steps: int = 2                  # cellular-automaton roughening steps
    min_pocket: int = 6                # smaller pockets are filled in; larger ones are chambers
    loops: float = 0.05                # share of extra neighbour links beyond the spanning tree
    wide_tunnels: float = 0.35         # share of connecting tunnels two squares wide
    chamber_cap_ft: float = 40.0       # widest width claimed in an open chamber
    roughness: tuple[float, float] = (0.75, 1.25)  # smooth factor on the allowance, clipped at 1
    fissures: float = 0.30             # share of one-square passages that are fissures
    fissure_widths: tuple[float, ...] = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0)
    fissure_odds: tuple[float, ...] = (0.07, 0.18, 0.25, 0.15, 0.15, 0.20)
    crawlways: float = 0.15            # share of narrow passages (<= 2 squares) that are crawlways
    crawl_heights: tuple[float, ...] = (1.5, 2.0, 2.5)
    low_tunnels: float = 0.15          # share that are low tunnels
    low_heights: tuple[float, ...] = (3.0, 4.0, 5.0)
    ceiling_ft: tuple[float, float] = (4.0, 20.0)
    ceiling_sigma: float = 5.0         # smoothness of the ceiling (squares)
    ramp_ft: float = 2.5               # ceiling rise per square away from a crawlway / low tunnel
    rubble: float = 0.04               # share of open floor that is rubble (difficult)
    rubble_sigma: float = 1.5

    def __post_init__(self) -> None:
        if not 0.0 < self.open_share < 1.0:
            raise ValueError(f"open_share must be between 0 and 1, got {self.open_share}")
        if len(self.fissure_widths) != len(self.fissure_odds):
            raise ValueError("fissure_widths and fissure_odds must have the same length")
        if not 0 < self.roughness[0] <= min(1.0, self.roughness[1]):
            raise ValueError(f"roughness must satisfy 0 < low <= high and low <= 1, got {self.roughness}")
        if not 0 < self.ceiling_ft[0] <= self.ceiling_ft[1]:
            raise ValueError(f"ceiling_ft must satisfy 0 < low <= high, got {self.ceiling_ft}")


@dataclass(frozen=True, slots=True)
class Features:
    """Where the deliberate features of a generated cave are (bool arrays, ``[row, col]``)."""

    fissure: np.ndarray
    crawlway: np.ndarray
    low_tunnel: np.ndarray
    tunnels: np.ndarray = field(repr=False)  # squares carved by connecting tunnels


# --------------------------------------------------------------------------- public API


def generate_cave(seed: int, cols: int, rows: int, *, params: CaveParams = CaveParams(),
                  name: str | None = None) -> CaveGrid:
    """A seeded natural cave of ``cols`` x ``rows`` squares (see the module docstring).

    The returned grid holds exact float widths and ceilings (feet), ``difficult`` rubble, and
    the named points of :func:`named_points` (``entrance``, ``far_end``, ``great_chamber``).
    Raises ``ValueError`` for a negative seed or a side below :data:`MIN_SIZE`.
    """
    grid, _ = generate_cave_with_features(seed, cols, rows, params=params, name=name)
    return grid


def generate_cave_with_features(seed: int, cols: int, rows: int, *, params: CaveParams = CaveParams(),
                                name: str | None = None) -> tuple[CaveGrid, Features]:
    """:func:`generate_cave`, also returning where its fissures, crawlways and low tunnels are."""
    _check_request(seed, cols, rows)
    layout_rng, width_rng, ceiling_rng, rubble_rng = (
        np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(4))
    floor, tunnels = cave_layout(layout_rng, cols=cols, rows=rows, params=params)
    allowance = width_allowance_ft(floor)
    width, fissure = _widths(width_rng, floor=floor, allowance=allowance, params=params)
    height, crawl, low = _ceilings(ceiling_rng, floor=floor, allowance=allowance, fissure=fissure,
                                   params=params)
    difficult = _rubble(rubble_rng, floor=floor, allowance=allowance,
                        keep_clear=fissure | crawl | low, params=params)
    grid = CaveGrid.from_arrays(
        np.where(floor, width, 0.0), np.where(floor, height, 0.0), difficult=difficult, rock=~floor,
        name=name if name is not None else f"Generated cave {seed}",
        points=named_points(floor),
        description=(f"Natural cave generated by cavesim {__version__} from seed {seed} "
                     f"({cols}x{rows} squares)."),
    )
    return grid, Features(fissure=_readonly(fissure), crawlway=_readonly(crawl), low_tunnel=_readonly(low),
                          tunnels=_readonly(tunnels))


def cave_layout(rng: np.random.Generator, *, cols: int, rows: int,
                params: CaveParams = CaveParams()) -> tuple[np.ndarray, np.ndarray]:
    """The floor (True = open) of a cave and the squares its tunnels carved.

    Chambers are the highest ``open_share`` of a smooth two-scale noise field, roughened by
    ``ca_steps`` of the 4-5 cellular automaton; pockets under ``min_pocket`` squares are filled
    in. The chambers are then joined along a minimum spanning tree of their nearest neighbours
    (plus a share ``loops`` of extra links, so the cave has circuits) by winding tunnels one or
    two squares wide. The floor is one 4-connected component; the border is rock.
    """
    shape = (rows, cols)
    field_ = (_unit_noise(rng, shape, params.chamber_sigma)
              + 0.35 * _unit_noise(rng, shape, params.chamber_sigma / 3)
              + 0.25 * rng.standard_normal(shape))
    floor = field_ > np.quantile(field_, 1.0 - params.open_share)
    ones = np.ones((3, 3), dtype=np.uint8)
    for _ in range(params.ca_steps):
        floor = ndimage.convolve((~floor).astype(np.uint8), ones, mode="constant", cval=1) < 5
    _set_border(floor, False)
    labels, n = ndimage.label(floor)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    sizes[0] = 0
    floor = sizes[labels] >= params.min_pocket
    tunnels = np.zeros(shape, dtype=bool)
    if not floor.any():
        # Nothing survived (tiny maps): dig one winding tunnel from the west part to the east.
        third = max(1, (cols - 2) // 3)
        a = (int(rng.integers(1, rows - 1)), 1 + int(rng.integers(0, third)))
        b = (int(rng.integers(1, rows - 1)), cols - 2 - int(rng.integers(0, third)))
        _carve(tunnels, a, b, rng, wide=False)
        return tunnels.copy(), tunnels

    labels, n = ndimage.label(floor)
    if n > 1:
        centres = _deepest_squares(floor, labels, n)
        for a, b in _links(centres, rng, loops=params.loops):
            _carve(tunnels, tuple(centres[a]), tuple(centres[b]), rng,
                   wide=bool(rng.random() < params.wide_tunnels))
        tunnels &= ~floor
        floor |= tunnels
        _set_border(floor, False)
    # Safety net: keep the largest 4-connected component (the links join every chamber).
    labels, n = ndimage.label(floor)
    if n > 1:
        sizes = np.bincount(labels.ravel(), minlength=n + 1)
        sizes[0] = 0
        floor = labels == int(np.argmax(sizes))
    return floor, tunnels & floor


def named_points(floor: np.ndarray) -> dict[str, tuple[int, int]]:
    """Named floor squares for the designer tools, as ``(x, y)``: ``entrance``, the floor square
    nearest the middle of the west edge; ``far_end``, the square farthest from it by walking
    (4-connected steps); ``great_chamber``, the square farthest from rock. Empty without floor.

    >>> floor = np.zeros((5, 7), dtype=bool); floor[2, 1:6] = True; floor[1:4, 3] = True
    >>> named_points(floor)
    {'entrance': (1, 2), 'far_end': (5, 2), 'great_chamber': (3, 2)}
    """
    floor = np.asarray(floor, dtype=bool)
    if not floor.any():
        return {}
    rows = floor.shape[0]
    dist_to_rock = ndimage.distance_transform_edt(np.pad(floor, 1))[1:-1, 1:-1]
    chamber = np.unravel_index(int(np.argmax(dist_to_rock)), floor.shape)
    graph, cells = _floor_graph(floor)
    entrance = int(np.argmin(cells[:, 1] * 2 * rows + np.abs(2 * cells[:, 0] - (rows - 1))))
    far = _farthest(graph, entrance)
    return {
        "entrance": xy(tuple(cells[entrance])),
        "far_end": xy(tuple(cells[far])),
        "great_chamber": xy(chamber),
    }


def quantise(grid: CaveGrid) -> CaveGrid:
    """The grid with widths and ceilings rounded *down* to :data:`WIDTH_CLASSES` and
    :data:`HEIGHT_CLASSES` (values below the smallest class take the smallest class), as the
    ASCII map format stores them. Rounding down keeps the width rule: a quantised width never
    exceeds the rock allowance.

    >>> g = CaveGrid.from_arrays([[4.9, 0], [12.3, 1.2]], [[2.9, 0], [25, 7]])
    >>> q = quantise(g)
    >>> q.width_ft.tolist(), q.height_ft.tolist()
    ([[4.0, 0.0], [10.0, 1.0]], [[2.5, 0.0], [20.0, 6.0]])
    """
    w = _floor_to(grid.width_ft, WIDTH_CLASSES)
    h = _floor_to(grid.height_ft, HEIGHT_CLASSES)
    return grid.replace(width_ft=np.where(grid.rock, 0.0, w), height_ft=np.where(grid.rock, 0.0, h),
                        glyphs=None, legend={})


def ascii_grid(grid: CaveGrid, *, max_classes: int | None = None) -> CaveGrid | None:
    """The grid as the ASCII format stores it: :func:`quantise` (rounded down), with one glyph per distinct
    ``(width, height, difficult)`` class (``glyphs``/``legend`` set as :func:`sim.maps.read.load_map`
    sets them: index 0 is the wall ``#``, then the commonest class ``.`` and so on).

    When there are more classes than ``max_classes`` (default: the size of :data:`GLYPHS`), the
    rarest classes are merged into the nearest class that is no wider and no higher (with the same
    rubble flag), so the width rule still holds; ``None`` when that cannot bring them under.

    >>> g = CaveGrid.from_arrays([[0, 5, 5], [0, 2, 5]], [[0, 8, 8], [0, 8, 8]])
    >>> a = ascii_grid(g)
    >>> ["".join(list(a.legend)[i] for i in row) for row in a.glyphs]
    ['#..', '#,.']
    >>> a.legend[","]
    Terrain(width=2.0, height=8.0, difficult=False, rock=False)
    >>> ascii_grid(g, max_classes=1).width_ft.tolist()     # 5 ft merged down into 2 ft
    [[0.0, 2.0, 2.0], [0.0, 2.0, 2.0]]
    """
    limit = len(GLYPHS) if max_classes is None else min(max_classes, len(GLYPHS))
    q = quantise(grid)
    floor = ~q.rock
    keys = np.stack([q.width_ft[floor], q.height_ft[floor], q.difficult[floor].astype(np.float64)], 1)
    classes, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    target = _merge_classes(classes, counts, limit)
    if target is None:
        return None
    inverse = target[np.asarray(inverse).ravel()]
    used, inverse = np.unique(inverse, return_inverse=True)
    classes = classes[used]
    counts = np.bincount(inverse, minlength=len(used))
    order = np.lexsort((classes[:, 2], classes[:, 1], classes[:, 0], -counts))  # commonest first
    rank = np.empty(len(classes), dtype=np.intp)
    rank[order] = np.arange(len(classes))
    legend: dict[str, Terrain] = {WALL_GLYPH: Terrain(0.0, 0.0, rock=True)}
    for k in order:
        w, h, d = classes[k]
        legend[GLYPHS[rank[k]]] = Terrain(float(w), float(h), difficult=bool(d))
    idx = np.zeros(q.shape, dtype=np.uint8)  # 0 = the wall glyph
    idx[floor] = rank[inverse] + 1
    terrain = list(legend.values())
    return q.replace(
        width_ft=np.array([t.width for t in terrain])[idx],
        height_ft=np.array([t.height for t in terrain])[idx],
        difficult=np.array([t.difficult for t in terrain])[idx],
        glyphs=idx, legend=legend,
    )


# --------------------------------------------------------------------------- stages


def _check_request(seed: int, cols: int, rows: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    for what, n in (("cols", cols), ("rows", rows)):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < MIN_SIZE:
            raise ValueError(f"{what} must be a whole number >= {MIN_SIZE}, got {n!r}")


def _widths(rng: np.random.Generator, *, floor: np.ndarray, allowance: np.ndarray,
            params: CaveParams) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = params.roughness
    rough = np.minimum(1.0, lo + (hi - lo) * ndtr(_unit_noise(rng, floor.shape, 2.0)))
    width = np.minimum(allowance, params.chamber_cap_ft) * rough
    # Fissures: some one-square passages (runs of at least two such squares).
    narrow = floor & (allowance <= SQUARE_FT)
    seg, n = _segments(narrow, min_size=2)
    chosen = rng.random(n) < params.fissures
    seg_w = rng.choice(np.asarray(params.fissure_widths), size=n, p=_odds(params.fissure_odds))
    if n and not chosen.any():
        chosen[int(rng.integers(n))] = True
    # At least one fissure is Awkward Space for a Medium body (width < S/2, RULES §2.3).
    awkward_below = body_for("medium").space / 2
    awkward = np.asarray(params.fissure_widths) < awkward_below
    if n and awkward.any() and not (seg_w[chosen] < awkward_below).any():
        k = int(rng.choice(np.flatnonzero(chosen)))
        seg_w[k] = rng.choice(np.asarray(params.fissure_widths)[awkward])
    fis_w = np.concatenate([[np.inf], np.where(chosen, seg_w, np.inf)])[seg]
    fissure = np.isfinite(fis_w)
    width = np.where(fissure, np.minimum(width, fis_w), width)
    return width, fissure


def _ceilings(rng: np.random.Generator, *, floor: np.ndarray, allowance: np.ndarray, fissure: np.ndarray,
              params: CaveParams) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    lo, hi = params.ceiling_ft
    u = ndtr(_unit_noise(rng, floor.shape, params.ceiling_sigma))
    openness = ndimage.gaussian_filter(floor.astype(np.float64), 3.0)
    base = lo + (hi - lo) * u * np.clip(0.25 + 1.1 * openness, 0.0, 1.0)
    # Crawlways and low tunnels: some passages at most two squares wide (not fissures).
    passage = floor & (allowance <= 2 * SQUARE_FT) & ~ndimage.binary_dilation(fissure)
    seg, n = _segments(passage, min_size=2)
    pick = rng.random(n)
    crawl_seg = pick < params.crawlways
    low_seg = (pick >= params.crawlways) & (pick < params.crawlways + params.low_tunnels)
    if n and not crawl_seg.any():
        k = int(rng.integers(n))
        crawl_seg[k], low_seg[k] = True, False
    seg_h = np.where(crawl_seg, rng.choice(np.asarray(params.crawl_heights), size=n),
                     np.where(low_seg, rng.choice(np.asarray(params.low_heights), size=n), np.inf))
    feat_h = np.concatenate([[np.inf], seg_h])[seg]
    crawl = np.concatenate([[False], crawl_seg])[seg]
    low = np.concatenate([[False], low_seg])[seg]
    height = base
    if np.isfinite(feat_h).any():
        dist, (nr, nc) = ndimage.distance_transform_edt(~np.isfinite(feat_h), return_indices=True)
        height = np.minimum(base, feat_h[nr, nc] + params.ramp_ft * dist)
    return height, crawl, low


def _rubble(rng: np.random.Generator, *, floor: np.ndarray, allowance: np.ndarray, keep_clear: np.ndarray,
            params: CaveParams) -> np.ndarray:
    noise = _unit_noise(rng, floor.shape, params.rubble_sigma)
    open_floor = floor & (allowance >= 2 * SQUARE_FT) & ~ndimage.binary_dilation(keep_clear)
    if params.rubble <= 0 or not open_floor.any():
        return np.zeros(floor.shape, dtype=bool)
    cut = np.quantile(noise[open_floor], 1.0 - params.rubble)
    return open_floor & (noise > cut)


# --------------------------------------------------------------------------- helpers


def _unit_noise(rng: np.random.Generator, shape: tuple[int, int], sigma: float) -> np.ndarray:
    """Gaussian-filtered white noise rescaled to unit standard deviation (smooth at ``sigma``)."""
    noise = ndimage.gaussian_filter(rng.standard_normal(shape), sigma, mode="reflect")
    sd = float(noise.std())
    return noise / sd if sd > 0 else noise


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=bool)
    a.flags.writeable = False
    return a


def _set_border(a: np.ndarray, value: bool) -> None:
    a[0, :] = a[-1, :] = value
    a[:, 0] = a[:, -1] = value


def _segments(mask: np.ndarray, *, min_size: int) -> tuple[np.ndarray, int]:
    """4-connected components of ``mask`` with at least ``min_size`` squares, relabelled 1..n."""
    labels, n = ndimage.label(mask)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    keep = sizes >= min_size
    keep[0] = False
    new = np.zeros(n + 1, dtype=np.int64)
    new[keep] = np.arange(1, int(keep.sum()) + 1)
    return new[labels], int(keep.sum())


def _odds(p: tuple[float, ...]) -> np.ndarray:
    a = np.asarray(p, dtype=np.float64)
    return a / a.sum()


def _staircase(a: tuple[int, int], b: tuple[int, int], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random 4-connected monotone path from ``a`` to ``b`` (both ``[row, col]``): the row and
    column steps in shuffled order, which wanders about the straight line like a Brownian bridge."""
    dr, dc = b[0] - a[0], b[1] - a[1]
    steps = np.zeros(abs(dr) + abs(dc) + 1, dtype=bool)  # True = a column step
    steps[1 + abs(dr):] = True
    rng.shuffle(steps[1:])
    rr = np.where(steps, 0, 1 if dr > 0 else -1)
    cc = np.where(steps, 1 if dc > 0 else -1, 0)
    rr[0] = cc[0] = 0
    return a[0] + np.cumsum(rr), a[1] + np.cumsum(cc)


def _carve(out: np.ndarray, a: tuple[int, int], b: tuple[int, int], rng: np.random.Generator, *,
           wide: bool) -> None:
    """Dig a winding tunnel from ``a`` to ``b`` into ``out`` through a displaced midpoint."""
    rows, cols = out.shape
    length = abs(b[0] - a[0]) + abs(b[1] - a[1])
    off_r, off_c = rng.normal(0.0, 0.25 * length, size=2).tolist() if length > 3 else (0.0, 0.0)
    mid = (min(max(round((a[0] + b[0]) / 2 + off_r), 1), rows - 2),
           min(max(round((a[1] + b[1]) / 2 + off_c), 1), cols - 2))
    r1, c1 = _staircase(a, mid, rng)
    r2, c2 = _staircase(mid, b, rng)
    rr, cc = np.concatenate([r1, r2]), np.concatenate([c1, c2])
    out[rr, cc] = True
    if wide:  # a 2 x 2 brush: two squares wide whichever way the tunnel runs
        r_hi = np.minimum(rr + 1, rows - 2)
        c_hi = np.minimum(cc + 1, cols - 2)
        out[r_hi, cc] = out[rr, c_hi] = out[r_hi, c_hi] = True


def _deepest_squares(floor: np.ndarray, labels: np.ndarray, n: int) -> np.ndarray:
    """``[row, col]`` of the square farthest from rock in each labelled pocket 1..n (the first
    in row-major order on ties); faster than ``ndimage.maximum_position``, which sorts."""
    depth = ndimage.distance_transform_edt(floor)
    best = np.zeros(n + 1)
    np.maximum.at(best, labels[floor], depth[floor])
    flat = np.flatnonzero(floor.ravel() & (depth.ravel() == best[labels.ravel()]))
    _, first = np.unique(labels.ravel()[flat], return_index=True)
    return np.column_stack(np.unravel_index(flat[first], floor.shape))


def _links(centres: np.ndarray, rng: np.random.Generator, *, loops: float) -> list[tuple[int, int]]:
    """Pairs of chambers to join: the minimum spanning tree of each chamber's nearest
    neighbours (by the distance between their centres), plus a share ``loops`` of the other
    neighbour pairs. A chamber left out of the tree (a disconnected neighbour graph) is joined
    to its nearest neighbour."""
    n = len(centres)
    k = min(6, n)
    dist, nbr = cKDTree(centres).query(centres, k=k)
    i = np.repeat(np.arange(n), k - 1)
    j = nbr[:, 1:].ravel()
    d = dist[:, 1:].ravel() + 1e-9
    tree = minimum_spanning_tree(coo_matrix((d, (i, j)), shape=(n, n)).tocsr()).tocoo()
    pairs = {(min(a, b), max(a, b)) for a, b in zip(tree.row.tolist(), tree.col.tolist())}
    extra = rng.random(len(i)) < loops
    pairs |= {(min(a, b), max(a, b)) for a, b in zip(i[extra].tolist(), j[extra].tolist()) if a != b}
    return sorted(pairs)


def _floor_graph(floor: np.ndarray):
    """Sparse 4-neighbour graph of the floor squares, and the ``[row, col]`` of each node."""
    rows, cols = floor.shape
    node = np.full(floor.shape, -1, dtype=np.int64)
    cells = np.argwhere(floor)
    node[floor] = np.arange(len(cells))
    right = floor[:, :-1] & floor[:, 1:]
    down = floor[:-1, :] & floor[1:, :]
    src = np.concatenate([node[:, :-1][right], node[:-1, :][down]])
    dst = np.concatenate([node[:, 1:][right], node[1:, :][down]])
    graph = coo_matrix((np.ones(len(src)), (src, dst)), shape=(len(cells), len(cells))).tocsr()
    return graph, cells


def _farthest(graph, start: int) -> int:
    dist = dijkstra(graph, directed=False, indices=start, unweighted=True)
    dist[~np.isfinite(dist)] = -1
    return int(np.argmax(dist))


def _floor_to(values: np.ndarray, classes: tuple[float, ...]) -> np.ndarray:
    c = np.asarray(classes, dtype=np.float64)
    i = np.searchsorted(c, values, side="right") - 1
    return c[np.clip(i, 0, len(c) - 1)]


def _merge_classes(classes: np.ndarray, counts: np.ndarray, limit: int) -> np.ndarray | None:
    """For each row of ``classes`` (width, height, difficult), the class it is written as, so
    that at most ``limit`` remain: the rarest class goes into the nearest class no wider, no
    higher and with the same flag (nearest by log-ratio), until few enough. None if stuck."""
    m = len(classes)
    target = np.arange(m)
    active = np.ones(m, dtype=bool)
    counts = counts.astype(np.int64).copy()
    logs = np.log(np.maximum(classes[:, :2], 1e-9))
    while int(active.sum()) > limit:
        for k in sorted(np.flatnonzero(active), key=lambda i: (counts[i], -i)):
            below = (active & (classes[:, 0] <= classes[k, 0]) & (classes[:, 1] <= classes[k, 1])
                     & (classes[:, 2] == classes[k, 2]))
            below[k] = False
            if below.any():
                cand = np.flatnonzero(below)
                loss = (logs[k] - logs[cand]).sum(axis=1)
                j = int(cand[np.lexsort((-counts[cand], loss))[0]])
                target[target == k] = j
                counts[j] += counts[k]
                active[k] = False
                break
        else:
            return None
    return target
