"""Areas and chokepoints from the geometry, for all nine sizes at once (issue 7).

BWEM and BWTA find an RTS map's chokepoints from a clearance field for one unit size: areas grow
from the field's high ground, and where two areas meet, the narrowest passage between them is a
chokepoint. We do the same with a field that already speaks for every D&D size:

1. **Effective width** of a square: the map's width, capped by what the rock around it allows
   (``sim.terrain.grid.effective_width_ft``: 5 ft x the shorter open run through it), so a corridor
   drawn with chamber glyphs still reads as a corridor.
2. **Roominess** ``room``: classify every square for the default body of each of the nine sizes
   (RULES §2.3) and add up ``IMPASSABLE - category`` (0..54): a square is roomier than another
   exactly when it is milder for some size. Ties are broken by the clearance ``min(width,
   ceiling)`` in feet (the narrowest part of a fissure of uniform category is where it is
   narrowest). ``depth`` orders squares from roomy to narrow by (room, clearance).
3. **Areas** (the high ground): going down the room levels, a connected set of squares at least
   as roomy as the level, holding no area yet and at least ``min_area`` squares, becomes an area.
   An area therefore always has a passage *milder for some size* than everything that joins it
   to another area; a wide low hall hanging off a chamber is part of that chamber. Then every
   place still holding no area that is roomier than all around it becomes one too, however
   small: a **pocket** (docs/analysis.md §1.3); so is a named point standing in a passage.
4. **Flooding**: every square is given to the area that reaches it along the roomiest way (the
   image-foresting transform with the path cost ``max depth``; ties: first come, so two areas
   meet in the middle of a uniform passage).
   3b. **Merging**: a watershed splits a hall around any roomier patch in it (a higher stretch
   of ceiling); two areas that meet across ground about as wide as the narrower of them
   (``OPEN_SHARE``, measured as squares to the nearest rock) are one area, since no passage joins
   them (on the seed-11 96x64 cave this kept the great chamber from being reported as a
   192-square "chokepoint").
   3c. **Pockets that are no places**: one with two or more ways out is a widening of the
   passage through it, one whose crossing has as many squares as it has outside its passage a
   bump in a wall; both go back to their neighbours and steps 4-6 run again (docs/analysis.md §1.4).
5. **Passages**: where two areas meet, the best crossing sets the saddle depth; the
   passage is the connected set of squares at least that narrow around the meeting line
   (the whole uniform fissure; only the pinch of a passage that narrows at one spot), and no
   wider than the passage where the areas meet (``NECK_SLACK`` more for a mouth): it never
   spreads into a chamber that is as low as the passage. One set of squares is one passage,
   whatever pairs of areas it joins.
6. **Crossings**: the chokepoint proper is the narrowest section of its passage between the
   areas it joins (:mod:`.crossing`): its location ``at``, width and ceiling are the crossing's,
   not the passage's (docs/analysis.md §2).

Then each chokepoint is *evaluated* per body with the movement engine on a window around it
(:func:`evaluate`): the category met on the fastest way through, whether the body is stopped,
the extra time compared with the same passage at the roominess of its two sides (guaranteed
with take 10 / take 20, and expected with rolls), the Escape Artist DC, the crossing squares the
way covers, whether the body's category changes there, and whether it leads anywhere the body
can stand (docs/analysis.md §3).

>>> from sim.terrain.grid import CaveGrid, effective_width_ft
>>> rows = ["#########",
...         "#...#...#",
...         "#...f...#",
...         "#...#...#",
...         "#########"]
>>> w = [[{"#": 0, ".": 30, "f": 2}[c] for c in r] for r in rows]
>>> h = [[{"#": 0, ".": 12, "f": 12}[c] for c in r] for r in rows]
>>> lay = find_chokepoints(CaveGrid.from_arrays(w, h), min_area=4)
>>> [(c.at, c.crossing, c.width_ft, c.joins) for c in lay.chokepoints]
[((4, 2), ((4, 2),), 2.0, (1, 2))]
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from sim.analysis.crossing import narrowest_section
from sim.analysis.regions import geometry_labels, reading_order, usable
from sim.base.jit import numba
from sim.rules.bodies import body_for
from sim.rules.categories import Category, effects
from sim.rules.sizes import Size
from sim.terrain.classify import classify_arrays
from sim.terrain.grid import CaveGrid, effective_width_ft
from sim.terrain.movement import Mover, find_path, move_field
from sim.terrain.movement.field import MoveField

ROOM_MAX = int(Category.IMPASSABLE) * len(Size)   # 54: clear for all nine sizes
_CLEAR_STEPS = 8                                   # clearance resolution: 1/8 ft
_CLEAR_SPAN = 1 << 15
_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)   # 4-neighbour labelling
_N4 = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """Per-square fields (``[row, col]``): effective width (ft), roominess 0..54 (-1: rock or no
    room for any size), clearance ``min(width, ceiling)`` (ft), and the flooding order ``depth``."""

    width_eff: np.ndarray
    room: np.ndarray
    clearance: np.ndarray
    depth: np.ndarray
    open4: np.ndarray | None = None   # uint8: bit k set when the step _N4[k] crosses no wall between
    #                                   squares (docs/rules.md §6.8); None on a map without such walls

    @property
    def floor(self) -> np.ndarray:
        return self.room > 0


def geometry(grid: CaveGrid) -> Geometry:
    """The roominess field of a grid (steps 1-2 of the module docstring).

    >>> g = CaveGrid.from_arrays([[30, 2, 30]], [[16, 12, 16]])
    >>> geometry(g).room.tolist()   # one row: the rock allows 5 ft; a 2-ft fissure in the middle
    [[38, 24, 38]]
    """
    floor = ~grid.rock
    w_eff = effective_width_ft(grid)
    room = np.zeros(grid.shape, dtype=np.int32)
    for s in Size:
        cats = classify_arrays(w_eff, grid.height_ft, grid.rock, body_for(s))
        room += int(Category.IMPASSABLE) - cats.astype(np.int32)
    room[room == 0] = -1
    room[~floor] = -1
    clearance = np.where(room > 0, np.minimum(w_eff, grid.height_ft), 0.0)
    q = np.minimum(np.round(clearance * _CLEAR_STEPS), _CLEAR_SPAN - 1).astype(np.int64)
    depth = (ROOM_MAX - room.astype(np.int64)) * _CLEAR_SPAN + (_CLEAR_SPAN - 1 - q)
    depth[room <= 0] = np.iinfo(np.int64).max
    open4 = None
    if grid.edges is not None:
        open4 = np.zeros(grid.shape, dtype=np.uint8)
        for k, (dr, dc) in enumerate(_N4):
            open4 |= grid.edges.step_open(dr, dc).astype(np.uint8) << k
    for a in (w_eff, room, clearance, depth) + (() if open4 is None else (open4,)):
        a.flags.writeable = False
    return Geometry(width_eff=w_eff, room=room, clearance=clearance, depth=depth, open4=open4)


def _label4(mask: np.ndarray, open4: np.ndarray | None) -> tuple[np.ndarray, int]:
    """4-neighbour components of ``mask`` (as ``ndimage.label`` with a cross), joined only across
    edges ``open4`` leaves open: a wall between squares separates as rock does (§6.8)."""
    if open4 is None:
        return ndimage.label(mask, structure=_CROSS)
    rows, cols = mask.shape
    idx = np.arange(mask.size).reshape(mask.shape)
    east = mask[:, :-1] & mask[:, 1:] & ((open4[:, :-1] >> 3) & 1).astype(bool)
    south = mask[:-1, :] & mask[1:, :] & ((open4[:-1, :] >> 1) & 1).astype(bool)
    src = np.concatenate([idx[:, :-1][east], idx[:-1, :][south]])
    dst = np.concatenate([idx[:, 1:][east], idx[1:, :][south]])
    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(mask.size, mask.size))
    _, raw = connected_components(graph, directed=False)
    lab = reading_order(np.where(mask.ravel(), raw + 1, 0)).reshape(rows, cols)
    return lab, int(lab.max())


def area_seeds(room: np.ndarray, *, min_area: int, open4: np.ndarray | None = None) -> np.ndarray:
    """Area cores (step 3): int32 labels 1.. in reading order, 0 elsewhere. First the areas of
    at least ``min_area`` squares; then the **pockets**: every place still holding no core that
    is roomier than all around it (a connected set at least as roomy as some level, all squares
    beside it less roomy) is a core too, however small -- the 4-square end of a tunnel is a place
    to get to, not part of the tunnel (docs/analysis.md §1.3). ``open4``: the walls between
    squares (:class:`Geometry`), which part places as rock does.

    >>> room = np.array([[9, 9, 2, 9, 9], [9, 9, 2, 9, 9]])
    >>> area_seeds(room, min_area=4).tolist()
    [[1, 1, 0, 2, 2], [1, 1, 0, 2, 2]]
    >>> area_seeds(np.array([[9, 9, 9, 2, 2, 5]]), min_area=3).tolist()   # a 1-square pocket
    [[1, 1, 1, 0, 0, 2]]
    """
    seeds = np.zeros(room.shape, dtype=np.int32)
    n_seeds = 0
    levels = sorted({int(v) for v in np.unique(room) if v > 0}, reverse=True)
    for pockets in (False, True):
        for level in levels:
            lab, n = _label4(room >= level, open4)
            if n == 0:
                continue
            size = np.bincount(lab.ravel(), minlength=n + 1)
            has = np.bincount(lab[seeds > 0], minlength=n + 1) > 0
            new = ~has if pockets else (~has) & (size >= min_area)
            new[0] = False
            if not new.any():
                continue
            ids = np.zeros(n + 1, dtype=np.int32)
            ids[new] = np.arange(n_seeds + 1, n_seeds + 1 + int(new.sum()), dtype=np.int32)
            n_seeds += int(new.sum())
            seeds = np.where(ids[lab] > 0, ids[lab], seeds)
    return reading_order(seeds).reshape(room.shape)


@numba.njit(cache=True)
def _flood(depth, labels, floor, open4, rows, cols):  # pragma: no cover - compiled
    """Image-foresting transform, path cost = max depth, ties first come (step 4); a step k
    is taken only where bit k of ``open4`` is set (no wall between the squares)."""
    n = rows * cols
    best = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    heap = [(np.int64(0), np.int64(0), np.int64(0))]
    heap.pop()
    seq = 0
    for i in range(n):
        if labels[i] > 0:
            best[i] = depth[i]
            heapq.heappush(heap, (depth[i], np.int64(seq), np.int64(i)))
            seq += 1
    while len(heap) > 0:
        p, _, i = heapq.heappop(heap)
        if done[i]:
            continue
        done[i] = True
        r = i // cols
        c = i - r * cols
        for k in range(4):
            if not (open4[i] >> k) & 1:
                continue
            rr = r + (-1, 1, 0, 0)[k]
            cc = c + (0, 0, -1, 1)[k]
            if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                continue
            j = rr * cols + cc
            if done[j] or not floor[j]:
                continue
            np_ = depth[j] if depth[j] > p else p
            if np_ < best[j]:
                best[j] = np_
                labels[j] = labels[i]
                heapq.heappush(heap, (np_, np.int64(seq), np.int64(j)))
                seq += 1
    return labels


def flood(geo: Geometry, seeds: np.ndarray) -> np.ndarray:
    """Every floor square reachable from an area core, labelled with its area (step 4)."""
    rows, cols = seeds.shape
    labels = seeds.astype(np.int32).ravel().copy()
    open4 = np.full(rows * cols, 15, np.uint8) if geo.open4 is None else geo.open4.ravel()
    _flood(geo.depth.ravel(), labels, geo.floor.ravel(), open4, rows, cols)
    return labels.reshape(rows, cols)


def _meetings(area: np.ndarray, depth: np.ndarray,
              open4: np.ndarray | None = None) -> dict[tuple[int, int], list[tuple[int, int, int]]]:
    """Meeting pairs of 4-neighbours from different areas, with their crossing depth, by pair of
    areas: ``{(la, lb): [(square, square, depth), ...]}`` (flat indices). Two squares with a wall
    between them (``open4``, §6.8) do not meet."""
    rows, cols = area.shape
    pieces: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for dr, dc, bit in ((0, 1, 3), (1, 0, 1)):
        a = area[: rows - dr, : cols - dc]
        b = area[dr:, dc:]
        meet = (a > 0) & (b > 0) & (a != b)
        if open4 is not None:
            meet &= ((open4[: rows - dr, : cols - dc] >> bit) & 1).astype(bool)
        for r, c in zip(*np.nonzero(meet)):
            r, c = int(r), int(c)
            la, lb = int(a[r, c]), int(b[r, c])
            cross = max(int(depth[r, c]), int(depth[r + dr, c + dc]))
            key = (min(la, lb), max(la, lb))
            pieces.setdefault(key, []).append((r * cols + c, (r + dr) * cols + c + dc, cross))
    return pieces


# Two areas whose meeting is about as wide as the narrower of them (its effective width at least
# this share of that area's widest square) are one area (step 3b): a chokepoint is a narrow passage.
OPEN_SHARE = 0.75
# A neck square may be this much wider (feet) than the passage where its areas meet: a mouth.
NECK_SLACK = 2.5


def _merge_open_meetings(cores, area, pieces, geo: Geometry, radius: np.ndarray, apart: set[int]):
    """Step 3b: a watershed splits a chamber around any roomier patch in it (a higher part of
    its ceiling); where two areas meet across ground about as wide as the narrower of them, no
    passage joins them, only a change of ceiling or width in one hall: they are one area. Returns the renumbered ``(cores, area)``
    (``area`` None when nothing merged and the caller's labels stand)."""
    n = int(cores.max()) if cores.size else 0
    if n < 2 or not pieces:
        return cores, None
    flat_area = area.ravel()
    flat_rad = radius.ravel()
    widest = ndimage.maximum(radius, labels=area, index=np.arange(n + 1))
    parent = list(range(n + 1))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    merged = False
    for (la, lb), pairs in sorted(pieces.items()):
        if la in apart or lb in apart:   # a named point's pocket: a place to get to, however narrow
            continue
        across = max(min(flat_rad[p], flat_rad[q]) for p, q, _ in pairs)
        narrow = min(widest[la], widest[lb])
        if across >= OPEN_SHARE * narrow:
            ra, rb = root(la), root(lb)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
                merged = True
    if not merged:
        return cores, None
    remap = np.array([root(i) for i in range(n + 1)], dtype=np.int32)
    shape = cores.shape
    new_area = reading_order(remap[flat_area].reshape(shape)).reshape(shape)
    # cores take their area's new number
    new_cores = np.where(cores > 0, new_area, 0).astype(np.int32)
    return new_cores, new_area.astype(np.int32)


@dataclass(frozen=True, slots=True)
class Chokepoint:
    """A chokepoint: a crossing between areas (docs/analysis.md §2). ``crossing``: the squares
    ``(x, y)`` of the narrowest section of its passage (:mod:`.crossing`), which every way from one
    of the areas it joins to another enters; ``at``: the narrowest of them, nearest their middle;
    ``width_ft`` and ``ceiling_ft``: the narrowest width (effective, step 1) and lowest ceiling
    there. ``squares``: the whole passage the crossing lies in (a tunnel's length), over which
    each body is timed; ``joins``: the areas it joins (area numbers)."""

    index: int
    at: tuple[int, int]
    squares: tuple[tuple[int, int], ...]
    width_ft: float
    ceiling_ft: float
    joins: tuple[int, ...]
    crossing: tuple[tuple[int, int], ...]

    @property
    def id(self) -> str:
        return f"C{self.index}"


@dataclass(frozen=True, slots=True, eq=False)
class Layout:
    """Areas (``area``: int labels 1.. per square, 0 = rock or unclaimed; ``cores``: the area
    cores) and chokepoints of a grid."""

    geo: Geometry
    cores: np.ndarray
    area: np.ndarray
    chokepoints: tuple[Chokepoint, ...]
    neck: np.ndarray = field(repr=False)   # int32: chokepoint index per square (0: none)

    @property
    def n_areas(self) -> int:
        return int(self.cores.max()) if self.cores.size else 0


def _crossing(idx: np.ndarray, joins: tuple[int, ...], area: np.ndarray, geo: Geometry,
              rock: np.ndarray, known: dict) -> tuple[tuple[int, int], ...]:
    """The crossing of the passage ``idx`` (flat indices) between the areas it joins (step 6):
    the narrowest section between each pair of them, together; the passage's narrowest squares
    when no section separates them (a passage whose sides do not touch it). ``known``: sections
    already found, by passage and sides (the layout is redone when pockets go, step 3c)."""
    rows, cols = area.shape
    rr, cc = idx // cols, idx % cols
    r0, r1 = max(0, int(rr.min()) - 1), min(rows, int(rr.max()) + 2)
    c0, c1 = max(0, int(cc.min()) - 1), min(cols, int(cc.max()) + 2)
    passage = np.zeros((r1 - r0, c1 - c0), dtype=bool)
    passage[rr - r0, cc - c0] = True
    box = area[r0:r1, c0:c1]
    clear = geo.clearance[r0:r1, c0:c1]
    out: set[tuple[int, int]] = set()
    for i, a in enumerate(joins):
        for b in joins[i + 1:]:
            side_a, side_b = (box == a) & ~passage, (box == b) & ~passage
            key = (r0, c0, passage.tobytes(), side_a.tobytes(), side_b.tobytes(), passage.shape)
            if key not in known:
                known[key] = narrowest_section(passage, side_a, side_b, clear, rock=rock[r0:r1, c0:c1])
            sec = known[key]
            out.update((x + c0, y + r0) for x, y in sec)
    if not out:
        d = geo.depth.ravel()[idx]
        out = {(int(c), int(r)) for r, c in zip(rr[d == d.max()], cc[d == d.max()])}
    return tuple(sorted(out, key=lambda p: (p[1], p[0])))


def find_chokepoints(grid: CaveGrid, *, min_area: int = 6) -> Layout:
    """Areas and chokepoints of ``grid`` (the whole procedure of the module docstring)."""
    if min_area < 1:
        raise ValueError(f"min_area must be >= 1, got {min_area}")
    geo = geometry(grid)
    cores = area_seeds(geo.room, min_area=min_area, open4=geo.open4)
    held = _point_seeds(grid, geo, cores)
    known: dict = {}
    lay = _layout(grid, geo, cores, known, held)
    for _ in range(4):   # dropping a pocket may turn another into a place with two ways out
        drop = _not_pockets(lay, min_area, held)
        if not drop:
            break
        cores = reading_order(np.where(np.isin(lay.cores, drop), 0, lay.cores)).reshape(grid.shape)
        lay = _layout(grid, geo, cores, known, held)
    return lay


# A named point standing in a passage narrower than this (effective width, feet) is a place to
# get to: the passage on the only way there is reported (docs/analysis.md §1.3).
POINT_PASSAGE_FT = 15.0


def _point_seeds(grid: CaveGrid, geo: Geometry, cores: np.ndarray) -> list[tuple[int, int]]:
    """Step 3 for named points (modifies ``cores``): a named point in no area core that stands
    in a passage (narrower than ``POINT_PASSAGE_FT``: the end of a crack, a crawlway) is the
    core of a pocket of its own. Returns the squares ``(row, col)`` of those points."""
    held = []
    n = int(cores.max()) if cores.size else 0
    for x, y in grid.points.values():
        if 0 <= y < cores.shape[0] and 0 <= x < cores.shape[1] and geo.room[y, x] > 0 and cores[y, x] == 0 \
                and geo.width_eff[y, x] < POINT_PASSAGE_FT:
            n += 1
            cores[y, x] = n
            held.append((y, x))
    cores[:] = reading_order(cores).reshape(cores.shape)
    return held


def _not_pockets(lay: Layout, min_area: int, held: list[tuple[int, int]]) -> list[int]:
    """The pockets (areas whose core is under ``min_area``) that are no places to get to (step
    3c): one with two or more ways out is a widening of the passage through it, and one whose
    only crossing has as many squares as the pocket has outside its passage is a bump in the
    wall of a wider space (on an imported map, often the width measure's noise) -- unless a
    named point (``held``: squares ``(row, col)``) is in it: a place to get to."""
    out = []
    named = {int(lay.area[r, c]) for r, c in held}
    for a in range(1, lay.n_areas + 1):
        if int((lay.cores == a).sum()) >= min_area:
            continue
        ways = [c for c in lay.chokepoints if a in c.joins]
        own = int(((lay.area == a) & (lay.neck == 0)).sum())
        if len(ways) >= 2 or (len(ways) == 1 and len(ways[0].crossing) >= own and a not in named):
            out.append(a)
    return out


def _layout(grid: CaveGrid, geo: Geometry, cores: np.ndarray, known: dict, held: list) -> Layout:
    """Steps 4-6 from the area cores: flooding, merging, chokepoints and their crossings
    (``known``: the crossings found so far, see :func:`_crossing`; ``held``: the squares of the
    named points that are pockets of their own, which step 3b never merges)."""
    area = flood(geo, cores)
    floor = geo.floor
    depth = geo.depth
    rows, cols = grid.shape
    # how open the ground is at every square: its effective width in feet (the map's width capped
    # by the rock around it, step 1), for steps 3b and 5
    radius = np.where(floor, geo.width_eff, 0.0).astype(np.float64)
    pieces = _meetings(area, depth, geo.open4)
    cores, area = _merge_open_meetings(cores, area, pieces, geo, radius, {int(cores[r, c]) for r, c in held} - {0})
    if area is not None:
        pieces = _meetings(area, depth, geo.open4)
    else:
        area = flood(geo, cores)
    necks: dict[frozenset, set[int]] = {}
    free = np.ones(grid.shape, dtype=bool)   # a named point's own pocket square is never passage
    for r, c in held:
        free[r, c] = False
    flat_area = area.ravel()
    for (la, lb), pairs in sorted(pieces.items()):
        # the two areas' ground, in its bounding box: a neck never reaches into a third area
        ours = (area == la) | (area == lb)
        rr, cc = np.nonzero(ours)
        r0, r1, c0, c1 = int(rr.min()), int(rr.max()) + 1, int(cc.min()), int(cc.max()) + 1
        box_ours = ours[r0:r1, c0:c1]
        box_depth = depth[r0:r1, c0:c1]
        labels_at: dict[tuple, np.ndarray] = {}
        # split the meeting line into connected pieces (8-neighbour squares)
        line = np.zeros(rows * cols, dtype=bool)
        for i, j, _ in pairs:
            line[i] = line[j] = True
        lab, n = ndimage.label(line.reshape(rows, cols), structure=np.ones((3, 3), bool))
        lab = lab.ravel()
        for piece in range(1, n + 1):
            mine = [(i, j, x) for i, j, x in pairs if lab[i] == piece]
            saddle = min(x for _, _, x in mine)
            # the neck is no wider than the passage where the two areas meet (step 5): it never
            # spreads into a chamber as narrow, or as low, as the passage but wider than it
            across = max(min(radius.flat[i], radius.flat[j]) for i, j, _ in mine)
            key = (saddle, across)
            nlab = labels_at.get(key)
            if nlab is None:
                nlab = labels_at[key] = ndimage.label(
                    box_ours & (box_depth >= saddle) & (radius[r0:r1, c0:c1] <= across + NECK_SLACK)
                    & free[r0:r1, c0:c1],
                    structure=_CROSS)[0]
            ids = set()
            for i, j, _ in mine:
                for sq in (i, j):
                    r, c = divmod(sq, cols)
                    v = int(nlab[r - r0, c - c0])
                    if v > 0 and flat_area[sq] in (la, lb):
                        ids.add(v)
            for nid in ids:
                br, bc = np.nonzero(nlab == nid)
                sq = frozenset(((br + r0) * cols + (bc + c0)).tolist())
                necks.setdefault(sq, set()).update((la, lb))
    # a square belongs to the smallest neck holding it (necks of different saddles may nest)
    taken: set[int] = set()
    kept: dict[frozenset, set[int]] = {}
    for sq, joins in sorted(necks.items(), key=lambda t: (len(t[0]), min(t[0]))):
        rest = frozenset(sq - taken)
        if rest:
            kept.setdefault(rest, set()).update(joins)
            taken |= rest
    necks = kept
    found = []
    for sq, joins in necks.items():
        idx = np.array(sorted(sq))
        rr, cc = idx // cols, idx % cols
        cross = _crossing(idx, tuple(sorted(joins)), area, geo, grid.rock, known)
        xr = np.array([r for _, r in cross])
        xc = np.array([c for c, _ in cross])
        d = depth[xr, xc]
        nr, nc = xr[d == d.max()], xc[d == d.max()]
        mr, mc = nr.mean(), nc.mean()
        k = int(np.lexsort((nc, nr, (nr - mr) ** 2 + (nc - mc) ** 2))[0])
        at = (int(nc[k]), int(nr[k]))
        squares = tuple(sorted(((int(c), int(r)) for r, c in zip(rr, cc)), key=lambda p: (p[1], p[0])))
        found.append((at, squares, cross, float(geo.width_eff[xr, xc].min()), float(grid.height_ft[xr, xc].min()),
                      tuple(sorted(joins))))
    found.sort(key=lambda t: (t[0][1], t[0][0], t[1]))
    chokes = tuple(Chokepoint(i + 1, at, sq, w, h, j, cr) for i, (at, sq, cr, w, h, j) in enumerate(found))
    neck = np.zeros(grid.shape, dtype=np.int32)
    for c in chokes:
        for x, y in c.squares:
            neck[y, x] = c.index
    for a in (cores, area, neck):
        a.flags.writeable = False
    return Layout(geo=geo, cores=cores, area=area, chokepoints=chokes, neck=neck)


# =================================================================================================
# Evaluation per body
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Passage:
    """What one chokepoint means for one body, between two of the areas it joins.

    ``status``: ``open`` (it gets through), ``stopped`` (it stands on both sides but cannot get
    through), ``dead_end`` (it can stand on one side only: the passage leads nowhere it can go,
    so it is no chokepoint for it), ``no_access`` (it cannot stand on either side).
    ``category``: the worst category on the fastest way through (when stopped: the mildest
    category a way through would need, square by square, and the ``reason``, see
    :func:`_bottleneck`); ``side_category``: the body's mildest category on each of the two
    sides (beside the passage), so the passage *changes* the body's category when ``category``
    is worse than on one of them (docs/analysis.md §3.3). Times in
    move actions (a round is two): the way through, and the extra over the same passage as roomy
    as its sides (guaranteed: take 10 / take 20 allowed; None when no time is guaranteed).
    ``crossed``: the squares of the chokepoint's crossing the way covers (the body's footprint
    on them; the whole crossing when no way runs through)."""

    side_a: int
    side_b: int
    status: str
    category: str | None = None
    move_actions: float | None = None
    expected_move_actions: float | None = None
    extra_move_actions: float | None = None
    expected_extra_move_actions: float | None = None
    escape_dc: int | None = None
    reason: str | None = None      # when stopped: no_room | escape_artist | footprint
    ends: tuple = ()               # the two squares (x, y) the way through was timed between
    side_category: tuple = ()
    crossed: tuple = ()

    @property
    def changes_category(self) -> bool:
        """The way through meets a worse category than one of its sides (or none gets through)."""
        if self.status == "stopped":
            return True
        if self.status != "open" or self.category is None or not self.side_category:
            return False
        return Category[self.category] > min(Category[c] for c in self.side_category)

    @property
    def extra_rounds(self) -> float | None:
        return None if self.extra_move_actions is None else self.extra_move_actions / 2

    @property
    def expected_extra_rounds(self) -> float | None:
        return None if self.expected_extra_move_actions is None else self.expected_extra_move_actions / 2

    def to_json(self) -> dict:
        return {"between": [f"A{self.side_a}", f"A{self.side_b}"], "ends": [list(e) for e in self.ends],
                "status": self.status, "category": self.category,
                "move_actions": _r(self.move_actions), "expected_move_actions": _r(self.expected_move_actions),
                "extra_move_actions": _r(self.extra_move_actions), "extra_rounds": _r(self.extra_rounds),
                "expected_extra_move_actions": _r(self.expected_extra_move_actions),
                "expected_extra_rounds": _r(self.expected_extra_rounds), "escape_dc": self.escape_dc,
                "reason": self.reason, "side_category": list(self.side_category),
                "changes_category": self.changes_category, "crossed": [list(q) for q in self.crossed]}


def _r(v: float | None) -> float | None:
    return None if v is None else round(float(v), 4)


def evaluate(grid: CaveGrid, layout: Layout, choke: Chokepoint, mover: Mover) -> list[Passage]:
    """The chokepoint for one body, for each pair of areas it joins (see :class:`Passage`)."""
    out = []
    joins = choke.joins
    for i in range(len(joins)):
        for j in range(i + 1, len(joins)):
            out.append(_evaluate_pair(grid, layout, choke, mover, joins[i], joins[j]))
    return out


def _window(grid: CaveGrid, layout: Layout, choke: Chokepoint, a: int, b: int, k: int):
    xs = [x for x, _ in choke.squares]
    ys = [y for _, y in choke.squares]
    m = max(3, 2 * k + 1)
    rows, cols = grid.shape
    r0, r1 = max(0, min(ys) - m), min(rows, max(ys) + m + 1)
    c0, c1 = max(0, min(xs) - m), min(cols, max(xs) + m + 1)
    area = layout.area[r0:r1, c0:c1]
    necks = layout.neck[r0:r1, c0:c1]
    neck = necks == choke.index
    # the two areas' ground (other chokepoints on it included: they may lie on the way), but no
    # other chokepoint between the same two areas (a way around this one)
    parallel = [c.index for c in layout.chokepoints if c.index != choke.index and a in c.joins and b in c.joins]
    keep = neck | (((area == a) | (area == b)) & ~np.isin(necks, parallel))
    cross = np.zeros(neck.shape, dtype=bool)
    for x, y in choke.crossing:
        if r0 <= y < r1 and c0 <= x < c1:
            cross[y - r0, x - c0] = True
    return (r0, c0), keep, neck, area, cross


def _sub_grid(grid: CaveGrid, origin, keep: np.ndarray, neck: np.ndarray, *, relaxed: bool) -> CaveGrid:
    r0, c0 = origin
    r1, c1 = r0 + keep.shape[0], c0 + keep.shape[1]
    w = np.where(keep, grid.width_ft[r0:r1, c0:c1], 0.0)
    h = np.where(keep, grid.height_ft[r0:r1, c0:c1], 0.0)
    d = grid.difficult[r0:r1, c0:c1] & keep
    if relaxed:
        sides = keep & ~neck
        if sides.any():
            w = np.where(neck, max(float(w[sides].max()), float(w[neck].max())), w)
            h = np.where(neck, max(float(h[sides].max()), float(h[neck].max())), h)
        d = d & ~neck
    e = grid.edges
    edges = None if e is None else (e.east[r0:r1, c0:c1], e.south[r0:r1, c0:c1])
    return CaveGrid.from_arrays(w, h, difficult=d, name=grid.name, edges=edges)


def _anchor(field: MoveField, ok: np.ndarray, side: np.ndarray, neck: np.ndarray, at: tuple[int, int]):
    """A reference square on ``side`` whose footprint stays off the chokepoint, nearest to it
    (then nearest its representative square ``at``, then first in reading order)."""
    ys, xs = np.nonzero(ok & side)
    if len(ys) == 0:
        return None
    ny, nx = np.nonzero(neck)
    best = None
    for x, y in zip(xs.tolist(), ys.tolist()):
        if field.k > 1 and any(neck[q[1], q[0]] for q in field.occupied((x, y), [])
                               if 0 <= q[1] < neck.shape[0] and 0 <= q[0] < neck.shape[1]):
            continue
        d = int(np.min(np.maximum(np.abs(nx - x), np.abs(ny - y))))
        key = (d, (x - at[0]) ** 2 + (y - at[1]) ** 2, y, x)
        if best is None or key < best[0]:
            best = (key, (x, y))
    return None if best is None else best[1]


def _beyond(f: MoveField, ok: np.ndarray, keep: np.ndarray, side: np.ndarray, cross: np.ndarray):
    """When a body cannot stand beside the passage on a side (a pocket too small for it), a
    square of the passage on that side of the crossing where it can stand, its footprint off the
    crossing: the one farthest from the crossing (then first in reading order); None if none."""
    part = ndimage.label(keep & ~cross, structure=np.ones((3, 3), bool))[0]
    ids = set(np.unique(part[side])) - {0}
    if not ids:
        return None
    mine = np.isin(part, list(ids)) & ok
    cy, cx = np.nonzero(cross)
    best = None
    for y, x in zip(*np.nonzero(mine)):
        x, y = int(x), int(y)
        foot = f.occupied((x, y), []) if f.k > 1 else [(x, y)]
        if any(0 <= q[1] < cross.shape[0] and 0 <= q[0] < cross.shape[1] and cross[q[1], q[0]] for q in foot):
            continue
        d = int(np.min(np.maximum(np.abs(cx - x), np.abs(cy - y)))) if len(cx) else 0
        key = (-d, y, x)
        if best is None or key < best[0]:
            best = (key, (x, y))
    return None if best is None else best[1]


def _mildest(f: MoveField, ok: np.ndarray, side: np.ndarray, keep: np.ndarray, cross: np.ndarray, end) -> str:
    """The body's mildest category on a side of the passage: beside it, else (a pocket it
    cannot stand in) on the passage's part on that side of the crossing, else where it ends."""
    for mask in (side & ok, ok & keep & ~cross & ndimage.binary_dilation(side, np.ones((3, 3), bool))):
        if mask.any():
            return Category(int(f.category[mask].min())).name
    return Category(int(f.category[end[1], end[0]])).name


def _evaluate_pair(grid, layout, choke, mover, a, b) -> Passage:
    k = 1 if mover.is_swarm else mover.body.size.squares
    origin, keep, neck, area, cross = _window(grid, layout, choke, a, b, k)
    sub = _sub_grid(grid, origin, keep, neck, relaxed=False)
    f = move_field(sub, mover)
    ok = usable(f)
    side_a = (area == a) & keep & ~neck
    side_b = (area == b) & keep & ~neck
    at = (choke.at[0] - origin[1], choke.at[1] - origin[0])
    pa = _anchor(f, ok, side_a, neck, at) or _beyond(f, ok, keep, (area == a) & keep & ~cross, cross)
    pb = _anchor(f, ok, side_b, neck, at) or _beyond(f, ok, keep, (area == b) & keep & ~cross, cross)

    def world(p):
        return (p[0] + origin[1], p[1] + origin[0])

    if pa is None or pb is None:
        return Passage(a, b, "no_access" if pa is None and pb is None else "dead_end", crossed=choke.crossing)
    ends = (world(pa), world(pb))
    side_cat = tuple(_mildest(f, ok, side, keep, cross, p) for side, p in ((side_a, pa), (side_b, pb)))
    path = find_path(f, pa, pb)
    if not path.reachable:
        cat, reason = _bottleneck(f, pa, pb)
        return Passage(a, b, "stopped", category=cat.name, reason=reason, ends=ends, side_category=side_cat,
                       crossed=choke.crossing)
    rel = find_path(move_field(_sub_grid(grid, origin, keep, neck, relaxed=True), mover), pa, pb)

    def covers(s, mask):
        foot = f.occupied(tuple(s.at), []) if f.k > 1 else [tuple(s.at)]
        return [q for q in foot if 0 <= q[1] < mask.shape[0] and 0 <= q[0] < mask.shape[1] and mask[q[1], q[0]]]

    inside = [s for s in path.steps if covers(s, neck)]
    crossed = sorted({world(q) for s in path.steps for q in covers(s, cross)}, key=lambda p: (p[1], p[0]))
    cat = max((Category[s.category] for s in inside), default=Category.CLEAR)
    dcs = [s.dc for s in path.steps if s.dc]
    extra = None
    if path.move_actions is not None and rel.reachable and rel.move_actions is not None:
        extra = max(0.0, path.move_actions - rel.move_actions)
    eextra = None
    if path.expected_move_actions is not None and rel.reachable and rel.expected_move_actions is not None:
        eextra = max(0.0, path.expected_move_actions - rel.expected_move_actions)
    return Passage(a, b, "open", ends=ends, category=cat.name, move_actions=path.move_actions,
                   expected_move_actions=path.expected_move_actions, extra_move_actions=extra,
                   expected_extra_move_actions=eextra, escape_dc=max(dcs) if dcs else None,
                   side_category=side_cat, crossed=tuple(crossed) or choke.crossing)


def _bottleneck(f: MoveField, pa, pb) -> tuple[Category, str]:
    """For a body that cannot get through: the mildest category, square by square, that a way
    from ``pa`` to ``pb`` would have to cross, and why it stops the body: ``no_room`` (its head
    does not fit, RULES §2.3), ``escape_artist`` (an Escape Artist check it cannot make, §5.3)
    or ``footprint`` (every square would do, but its space cannot get through, §2.6-2.7)."""
    rock = f.grid.rock
    cats = classify_arrays(f.grid.width_ft, f.grid.height_ft, rock, f.mover.body)
    found = Category.IMPASSABLE
    for cat in Category:
        ok = (cats <= cat) & ~rock
        ok[pa[1], pa[0]] = ok[pb[1], pb[0]] = True
        lab = geometry_labels(ok, rock, f.grid.edges)
        if lab[pa[1], pa[0]] and lab[pa[1], pa[0]] == lab[pb[1], pb[0]]:
            found = cat
            break
    if found is Category.IMPASSABLE:
        return found, "no_room"
    dc = effects(found).escape_dc
    if dc is not None:
        t = f.mover.tries(int(dc))
        if t.guaranteed is None and t.successes == 0:
            return found, "escape_artist"
    return found, "footprint"


def passage_words(category: str | None) -> str:
    """How a body gets through a chokepoint of this category, in plain words.

    >>> passage_words("CRAWL"), passage_words("AWKWARD")
    ('crawling through', 'squeezing (Escape Artist DC 15) through')
    """
    if category is None:
        return "through"
    cat = Category[category]
    if cat is Category.CLEAR:
        return "crossing"
    if cat in (Category.NARROW_OR_LOW, Category.NARROW_AND_LOW):
        return f"edging ({effects(cat).speed} speed) through"
    if cat is Category.CRAWL:
        return "crawling through"
    dc = effects(cat).escape_dc
    return f"squeezing (Escape Artist DC {dc}) through"


def rounds_text(move_actions: float | None) -> str:
    """``+1.5 rounds`` style text for a time in move actions.

    >>> rounds_text(3), rounds_text(2), rounds_text(None)
    ('+1.5 rounds', '+1 round', 'no guaranteed time')
    """
    if move_actions is None:
        return "no guaranteed time"
    r = move_actions / 2
    txt = f"{r:.2f}".rstrip("0").rstrip(".")
    return f"+{txt} round" + ("" if math.isclose(r, 1.0) else "s")
