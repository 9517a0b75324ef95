"""Passage width per square from wall geometry: rasterise, find the floor, cover it with disks.

The input is vector geometry in feet (origin at the map's top-left corner, x right, y down):
wall polylines (closed doors included) and solid props (closed loops, filled). The output is
one width per square (DESIGN §5: the narrowest horizontal clearance across the way of travel
through the square; 0 for rock).

How (the "disk cover"; measured the best of several candidates on synthetic shapes):

1. **Rasterise** the walls at ``resolution`` pixels per foot with Pillow's ``ImageDraw``
   (8-connected lines, so 4-connected free space cannot leak through them).
2. **Floor**: the free space not 4-connected to the image border (the outside of the drawn
   walls), less the loops lying inside the floor (pillars, crates, pools: :mod:`sim.maps.importers.spaces`),
   adjusted by ``--enclosed`` and the user's ``--floor X,Y`` / ``--rock X,Y`` seeds.
3. **Disks**: the medial axis of the floor (``skimage.morphology.medial_axis``); each axis
   pixel is the centre of a maximal inscribed disk. Its radius is re-measured against the
   exact wall segments (not the pixels) and moved onto the true ridge (:func:`_refine`), so a
   3-ft corridor reads 3.00 ft whatever the pixel grid.
4. **Route**: the axis minus its *spurs*: a branch from a junction to an end point whose
   smallest radius is under half the junction's (corner spurs, side cracks).
5. **Per square**: the width of the passage the square is in
   (:mod:`sim.maps.importers.passages`): steps where a corridor opens into a wider space cut the
   floor into regions; a square reads the largest disk of the region holding most of its floor
   (a junction region reads the passages meeting there), and a pinch -- a local least disk with
   wider passage on both sides -- marks the square holding it (both squares when it lies on their
   border).
6. **Fine re-measure**: squares narrower than :data:`FINE_BELOW_FT`, and squares where two wall
   pieces face each other closer than that (a crack that may have closed at the coarse
   resolution), are measured again in a local window at the resolution that puts
   :data:`FINE_PIXELS_ACROSS` pixels across the gap (at most :data:`FINE_RESOLUTION`), unless
   the first pass already had that many. A window's own skeleton is cut at its edges, so its
   route comes from the whole floor's (the nearest whole-floor axis pixel decides), and each disk
   counts only for squares of its own passage (the coarse regions). The fine widths replace the
   coarse ones where those are narrow, or where no coarse disk reached.
7. **Snap** (:mod:`sim.maps.importers.snap`): a width within 1 % of a rule threshold or a grid
   multiple is that value; any other is rounded to a millionth of a foot.

Pure functions over arrays; the only state is the :class:`WallIndex` built once per import.

>>> walls = (np.array([[0.0, 5.0], [15.0, 5.0]]), np.array([[0.0, 8.0], [15.0, 8.0]]),
...          np.array([[0.0, 5.0], [0.0, 8.0]]), np.array([[15.0, 5.0], [15.0, 8.0]]))
>>> w = measure_widths(Geometry(walls=walls), rows=3, cols=3, feet_per_square=5.0, resolution=10)
>>> w.width_ft.round(1).tolist()
[[0.0, 0.0, 0.0], [3.0, 3.0, 3.0], [0.0, 0.0, 0.0]]
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.spatial import cKDTree
from skimage.morphology import medial_axis

from sim.maps.importers import passages as P
from sim.maps.importers import widthkernels as K
from sim.maps.importers.snap import snap_widths
from sim.maps.importers.spaces import Space, find_floor

FINE_BELOW_FT = 2.0      # widths under this are re-measured finely (swarm cracks are 1-3 in.)
FINE_RESOLUTION = 40.0   # px/ft at most for the fine re-measure (a 3-in. crack is 10 px across)
FINE_PIXELS_ACROSS = 8   # a fine window's resolution puts its narrowest gap this many pixels across
FINE_MARGIN_FT = 1.5     # context around a re-measured block of squares
FINE_BLOCK = 4           # squares per side of one fine window (before the margin)
OVERLAP_FT = 0.5         # a disk counts for a square it enters this deep (or by half its radius)
SPUR_RATIO = 0.5         # a spur whose smallest radius is under this x the junction's is dropped
MAX_PAIRS_PER_SAMPLE = 32    # bound on wall samples' close pairs, per sample (real walls: about 7)
PIECE_FT = 2.0           # wall segments are cut into pieces at most this long for the nearest-wall index

Progress = Callable[[str, int, int], None]


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Geometry:
    """Walls in feet: polylines (``(n, 2)`` arrays of x, y) and solid closed loops; ``doors``, the
    closed doors among the walls (a space behind one is joined to the floor, not sealed)."""

    walls: tuple[np.ndarray, ...] = ()
    solids: tuple[np.ndarray, ...] = ()
    doors: tuple[np.ndarray, ...] = ()


@dataclass(frozen=True, slots=True)
class Widths:
    """The result: ``width_ft`` per square ``[row, col]`` (0 = rock) and how it was measured."""

    width_ft: np.ndarray
    floor_px: np.ndarray        # the coarse floor mask (for pictures and tests)
    resolution: float           # px/ft of the coarse pass
    fine_squares: int = 0       # squares whose width the fine re-measure set
    spaces: tuple[Space, ...] = ()  # the enclosed spaces not joined to the main floor, and what they became
    notes: tuple[str, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------- exact distance to the walls

@dataclass(frozen=True, slots=True, eq=False)
class WallIndex:
    """Wall segments cut into short pieces, with a KD-tree on their midpoints."""

    a: np.ndarray      # (n, 2) piece starts
    b: np.ndarray      # (n, 2) piece ends
    tree: cKDTree
    # the same midpoints in a grid of PIECE_FT cells, for the compiled ridge search: the pieces
    # of cell k are ``cell_items[cell_start[k]:cell_start[k + 1]]`` (cells row by row from
    # ``cell_origin``; ``cell_shape`` = (rows, cols))
    cell_items: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    cell_start: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    cell_origin: tuple[float, float] = (0.0, 0.0)
    cell_shape: tuple[int, int] = (0, 0)

    @classmethod
    def build(cls, geometry: Geometry, extra: tuple[np.ndarray, ...] = ()) -> "WallIndex":
        starts, ends = [], []
        for line in (*geometry.walls, *(_closed(s) for s in geometry.solids), *extra):
            p = np.asarray(line, dtype=np.float64)
            if len(p) < 2:
                continue
            a, b = p[:-1], p[1:]
            seg = np.hypot(*(b - a).T)
            n = np.maximum(1, np.ceil(seg / PIECE_FT)).astype(np.int64)
            rep_a = np.repeat(a, n, axis=0)
            rep_d = np.repeat((b - a) / n[:, None], n, axis=0)
            k = np.concatenate([np.arange(m) for m in n])[:, None]
            starts.append(rep_a + k * rep_d)
            ends.append(rep_a + (k + 1) * rep_d)
        if not starts:
            a = b = np.zeros((1, 2)) + 1e9
        else:
            a, b = np.concatenate(starts), np.concatenate(ends)
        mid = (a + b) / 2
        lo = mid.min(axis=0)
        cell = np.floor((mid - lo) / PIECE_FT).astype(np.int64)
        shape = (int(cell[:, 1].max()) + 1, int(cell[:, 0].max()) + 1)
        flat = cell[:, 1] * shape[1] + cell[:, 0]
        items = np.argsort(flat, kind="stable")
        start = np.zeros(shape[0] * shape[1] + 1, dtype=np.int64)
        np.cumsum(np.bincount(flat, minlength=shape[0] * shape[1]), out=start[1:])
        return cls(a=a, b=b, tree=cKDTree(mid), cell_items=items.astype(np.int64), cell_start=start,
                   cell_origin=(float(lo[0]), float(lo[1])), cell_shape=shape)

    def nearest(self, pts: np.ndarray, k: int = 8) -> tuple[np.ndarray, np.ndarray]:
        """Distance (ft) from each point to the walls and the nearest wall point."""
        pts = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        k = min(k, len(self.a))
        _, idx = self.tree.query(pts, k=k)
        idx = idx.reshape(len(pts), k)
        a, b = self.a[idx], self.b[idx]                         # (m, k, 2)
        ab = b - a
        L2 = np.maximum((ab * ab).sum(-1), 1e-18)
        t = np.clip(((pts[:, None, :] - a) * ab).sum(-1) / L2, 0.0, 1.0)
        foot = a + t[..., None] * ab
        d = np.hypot(*(pts[:, None, :] - foot).transpose(2, 0, 1))
        j = np.argmin(d, axis=1)
        rows = np.arange(len(pts))
        return d[rows, j], foot[rows, j]


def _closed(loop: np.ndarray) -> np.ndarray:
    loop = np.asarray(loop, dtype=np.float64)
    if len(loop) >= 2 and not np.allclose(loop[0], loop[-1]):
        loop = np.vstack([loop, loop[:1]])
    return loop


# ---------------------------------------------------------------- rasterising and the floor

def rasterise(geometry: Geometry, *, shape_px: tuple[int, int], resolution: float,
              offset_ft: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """Wall mask ``[row, col]`` (True = wall or solid) of ``shape_px`` pixels; pixel ``(i, j)``
    covers x in ``[offset + j/res, offset + (j+1)/res)`` ft.

    >>> m = rasterise(Geometry(walls=(np.array([[0.0, 0.5], [1.0, 0.5]]),)), shape_px=(4, 4), resolution=4)
    >>> m.astype(int).tolist()
    [[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0]]
    """
    h, w = shape_px
    img = Image.new("1", (w, h), 0)
    draw = ImageDraw.Draw(img)
    origin = np.array(offset_ft, dtype=np.float64)

    def px(line: np.ndarray) -> np.ndarray:
        # Pillow puts integer coordinates on pixel centres' top-left; floor() picks the pixel
        # that contains the point, so a wall at x ft lands in the pixel covering x.
        return np.floor((np.asarray(line, dtype=np.float64) - origin) * resolution)

    def near(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        # a piece whose box misses the picture (with a pixel to spare) draws nothing in it
        return (hi[..., 0] >= -2) & (lo[..., 0] <= w + 1) & (hi[..., 1] >= -2) & (lo[..., 1] <= h + 1)

    # solids are filled on a canvas one margin wider on every side, then cropped: Pillow's fill
    # rounds a span that the picture's edge cuts differently, so a window drawn on its own would
    # not be the crop of the whole picture (found by the property test in
    # tests/importers/test_width_speed.py: a triangle's edge at x = -0.5 px)
    pad = 2
    solid_img = None
    for solid in geometry.solids:
        q = px(solid)
        if len(q) >= 3 and near(q.min(0), q.max(0)):
            if solid_img is None:
                solid_img = Image.new("1", (w + 2 * pad, h + 2 * pad), 0)
                solid_draw = ImageDraw.Draw(solid_img)
            solid_draw.polygon((q + pad).ravel().tolist(), fill=1, outline=1)
    joints = []
    for line in geometry.walls:
        q = px(line)
        if len(q) < 2:
            continue
        # Pillow draws a 1-px polyline segment by segment, so only the segments near the picture
        # are drawn (a fine window of a large map holds a few of its walls' segments)
        keep = near(np.minimum(q[:-1], q[1:]), np.maximum(q[:-1], q[1:]))
        if not keep.any():
            continue
        edges = np.flatnonzero(np.diff(np.concatenate([[0], keep.astype(np.int8), [0]])))
        for s0, s1 in zip(edges[::2], edges[1::2]):   # runs of kept segments s0..s1-1
            draw.line(q[s0:s1 + 1].ravel().tolist(), fill=1, width=1)
            joints.append(q[s0:s1 + 1])
    out = np.array(img, dtype=bool)
    if solid_img is not None:
        out |= np.array(solid_img, dtype=bool)[pad:pad + h, pad:pad + w]
    if joints:   # joints: Pillow's thin lines may skip a shared end pixel
        j = np.concatenate(joints).astype(np.int64)
        j = j[(j[:, 0] >= 0) & (j[:, 0] < w) & (j[:, 1] >= 0) & (j[:, 1] < h)]
        out[j[:, 1], j[:, 0]] = True
    return out


def seed_pixel(wall: np.ndarray, square: tuple[int, int], spx: float) -> tuple[int, int] | None:
    """The free pixel ``(row, col)`` nearest the centre of square ``(x, y)``, or None."""
    x, y = square
    r0, r1 = int(round(y * spx)), int(round((y + 1) * spx))
    c0, c1 = int(round(x * spx)), int(round((x + 1) * spx))
    block = ~wall[r0:r1, c0:c1]
    if not block.any():
        return None
    rr, cc = np.nonzero(block)
    k = np.argmin((rr - (r1 - r0) / 2) ** 2 + (cc - (c1 - c0) / 2) ** 2)
    return int(r0 + rr[k]), int(c0 + cc[k])


# ---------------------------------------------------------------- the disk cover

_RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


@functools.lru_cache(maxsize=1)
def _medial_tables() -> tuple[np.ndarray, np.ndarray]:
    """scikit-image's two 512-entry neighbourhood tables for the medial axis (constants; its
    ``medial_axis`` rebuilds them on every call, 0.1-0.3 s, which the fine windows cannot pay)."""
    from skimage.morphology._skeletonize import _pattern_of

    eight = np.ones((3, 3), dtype=bool)
    centre = (np.arange(512) & 2 ** 4).astype(bool)
    table = centre & (
        np.array([ndimage.label(_pattern_of(i), eight)[1] != ndimage.label(_pattern_of(i & ~(2 ** 4)), eight)[1]
                  for i in range(512)])
        | np.array([np.sum(_pattern_of(i)) < 3 for i in range(512)]))
    corner = np.array([9 - np.sum(_pattern_of(i)) for i in range(512)])
    return np.ascontiguousarray(table, dtype=np.uint8), corner


def _medial_axis(floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``skimage.morphology.medial_axis(floor, rng=0, return_distance=True)``, with its lookup
    tables built once. Falls back to the public function if scikit-image's internals move."""
    try:
        from skimage.morphology._skeletonize import _skeletonize_loop, _table_lookup
        table, corner_table = _medial_tables()
    except (ImportError, AttributeError):  # pragma: no cover - another scikit-image layout
        return medial_axis(floor, rng=0, return_distance=True)
    img = floor.astype(bool)
    distance = ndimage.distance_transform_edt(img)
    corner_score = _table_lookup(img, corner_table)
    i, j = np.nonzero(img)
    result = np.ascontiguousarray(img, np.uint8)
    tiebreaker = np.random.default_rng(0).permutation(np.arange(len(i)))  # seeded, as rng=0
    order = np.ascontiguousarray(_order(distance[img], corner_score[img], tiebreaker), dtype=np.int32)
    _skeletonize_loop(result, np.ascontiguousarray(i, dtype=np.intp), np.ascontiguousarray(j, dtype=np.intp),
                      order, table)
    return result.astype(bool), distance


def _order(distance: np.ndarray, corner: np.ndarray, tiebreaker: np.ndarray) -> np.ndarray:
    """``np.lexsort((tiebreaker, corner, distance))`` for a Euclidean distance transform (every
    distance the root of a whole number), a corner score 0-9 and a permutation tiebreaker: one
    sort of a packed whole-number key (the three keys in their order of rank; the key holds the
    tiebreaker, so each is unique and the pixel comes back from the inverse permutation). Several
    times faster than the three-key sort on a large map.

    >>> d = np.sqrt(np.array([4.0, 1.0, 4.0, 2.0])); c = np.array([3, 0, 1, 0]); t = np.array([2, 0, 3, 1])
    >>> _order(d, c, t).tolist() == np.lexsort((t, c, d)).tolist()
    True
    """
    n = len(tiebreaker)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    d2 = np.rint(distance * distance).astype(np.int64)
    if int(d2.max()) >= (2 ** 62) // (10 * n):   # pragma: no cover - beyond any raster the pixel cap allows
        return np.lexsort((tiebreaker, corner, distance))
    key = np.sort((d2 * 10 + corner.astype(np.int64)) * n + tiebreaker)
    inverse = np.empty(n, dtype=np.int64)
    inverse[tiebreaker] = np.arange(n)
    return inverse[key % n]


def _ring_lut() -> tuple[np.ndarray, np.ndarray]:
    """For each 8-neighbour pattern: the neighbour count and the number of 0->1 transitions
    around the ring (3 or more = a junction, whatever the staircase)."""
    count = np.zeros(256, dtype=np.uint8)
    cross = np.zeros(256, dtype=np.uint8)
    for code in range(256):
        bits = [(code >> i) & 1 for i in range(8)]
        count[code] = sum(bits)
        cross[code] = sum(1 for i in range(8) if bits[i] == 0 and bits[(i + 1) % 8] == 1)
    return count, cross


def _neighbour_code(skel: np.ndarray) -> np.ndarray:
    code = np.zeros(skel.shape, dtype=np.int32)
    pad = np.pad(skel, 1)
    h, w = skel.shape
    for i, (dr, dc) in enumerate(_RING):
        code |= pad[1 + dr:1 + dr + h, 1 + dc:1 + dc + w].astype(np.int32) << i
    return code


def junctions(skel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The skeleton's junctions (3 or more skeleton neighbours, or 3 or more runs of them round the
    ring: a staircase pixel may count too, which only cuts a branch in two, and a piece between
    two junctions is never a spur) and each pixel's neighbour count."""
    count_lut, cross_lut = _ring_lut()
    code = _neighbour_code(skel)
    count = count_lut[code]
    return skel & ((cross_lut[code] >= 3) | (count >= 3)), count


def route_mask(skel: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """The through-route: the skeleton's branches minus its spurs (junction-to-end branches whose
    smallest radius is under :data:`SPUR_RATIO` of the junction's). Junction pixels themselves
    are left out: their disks are never the narrow point of a route, and where a short spur
    meets a junction the crowded pixels there belong to the spur as much as to the route.

    >>> sk = np.zeros((7, 9), bool); sk[3, 1:8] = True; sk[0:3, 4] = True   # a T with a short stem
    >>> r = np.where(sk, 4.0, 0.0); r[0, 4] = 1.0                           # the stem thins to 1
    >>> route_mask(sk, r)[0:2, 4].tolist(), route_mask(sk, r)[3, 1:8].astype(int).tolist()
    ([False, False], [1, 1, 0, 0, 0, 1, 1])
    """
    junction, count = junctions(skel)
    endpoint = skel & (count <= 1)
    branches = skel & ~junction
    labels, n = ndimage.label(branches, structure=np.ones((3, 3)))
    if n == 0:
        return skel.copy()
    jr = ndimage.grey_dilation(np.where(junction, radius, 0.0), size=(3, 3))
    sel = labels > 0
    lab = labels[sel]
    has_end = np.bincount(lab, weights=endpoint[sel], minlength=n + 1) > 0
    touch_r = np.zeros(n + 1)
    np.maximum.at(touch_r, lab, jr[sel])
    min_r = np.full(n + 1, np.inf)
    np.minimum.at(min_r, lab, radius[sel])
    drop = has_end & (touch_r > 0) & (min_r < SPUR_RATIO * touch_r)
    drop[0] = False
    return branches & ~drop[labels]


def _refine(centres: np.ndarray, index: WallIndex, pixel_ft: float,
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exact radius and centre of the maximal disk near each axis pixel centre, twice:
    ``(radius, centre)`` searched in 2-D, and ``(radius_n, centre_n)`` along the normal only.

    The clearance is measured to the exact wall segments (not pixels). The true ridge lies
    within about a pixel of the axis pixel: the clearance is sampled along the normal from the
    nearest wall point (two facing walls: the ridge is on it); then a shrinking ring around the
    best point so far climbs to where walls meet (a junction's disk touches three walls, off
    every normal). The ring would also climb *along* a ridge away from a pinch, so the route's
    smallest disks use the normal-only search. Every sample is a real clearance, so a disk is
    never larger than the space it stands in."""
    n = len(centres)
    if n == 0:
        return np.zeros(0), np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2))
    r1, _ = index.nearest(centres)
    # every piece that can be nearest to a sample within 1.5 px of the centre: those whose
    # midpoint is within this reach (gathered from the cell grid inside the compiled search)
    reach = r1 + 3.0 * pixel_ft + 0.5 * PIECE_FT
    mid = (index.a + index.b) / 2
    return K.ridge(centres[:, 0].copy(), centres[:, 1].copy(), reach, index.cell_items, index.cell_start,
                  index.cell_origin[0], index.cell_origin[1], index.cell_shape[0], index.cell_shape[1], PIECE_FT,
                  mid[:, 0].copy(), mid[:, 1].copy(), index.a[:, 0].copy(), index.a[:, 1].copy(),
                  index.b[:, 0].copy(), index.b[:, 1].copy(), pixel_ft, K.STEPS, K.RING_RADII, K.RING_DIRS)


@dataclass(frozen=True, slots=True, eq=False)
class Disks:
    """The disks of one disk cover: per axis pixel its centre (ft), whether it is on the route,
    and the two exact disks measured there (:func:`_refine`: the 2-D search's and the normal's)."""

    pixel: np.ndarray          # (n, 2) axis pixel centres
    route: np.ndarray          # (n,) bool
    centre: np.ndarray         # (n, 2), with ``radius`` (n,): the largest disk near the pixel
    radius: np.ndarray
    centre_n: np.ndarray       # (n, 2), with ``radius_n``: the disk across the way (normal search)
    radius_n: np.ndarray

    def take(self, keep: np.ndarray) -> "Disks":
        return Disks(self.pixel[keep], self.route[keep], self.centre[keep], self.radius[keep], self.centre_n[keep],
                     self.radius_n[keep])


def _no_disks() -> Disks:
    z = np.zeros((0, 2))
    return Disks(z, np.zeros(0, dtype=bool), z, np.zeros(0), z, np.zeros(0))


def disk_cover(floor: np.ndarray, *, resolution: float, square_ft: float, rows: int, cols: int,
               index: WallIndex, offset_ft: tuple[float, float] = (0.0, 0.0),
               offset_sq: tuple[int, int] = (0, 0),
               route_hint: Callable[[np.ndarray], np.ndarray] | None = None,
               targets: np.ndarray | None = None, below_ft: float = math.inf,
               extra: tuple[np.ndarray, np.ndarray] | None = None, regions: P.Regions | None = None,
               ) -> tuple[np.ndarray, Disks]:
    """Width per square of the ``rows x cols`` block starting at square ``offset_sq`` (col, row),
    from the floor mask whose pixel (0, 0) sits at ``offset_ft``; 0 where no disk reaches. Also
    the disks measured.

    For a window cut out of a larger floor (the fine re-measure): ``route_hint`` maps disk
    centres (ft) to True where they lie on the whole floor's route (the window's own skeleton is
    broken at its edges); ``targets`` (a ``rows x cols`` mask) are the only squares whose widths
    are wanted, so only the disks that can reach one are measured exactly (:func:`_reaching`;
    the other squares' widths are then incomplete); only the disks narrower than ``below_ft``
    across are measured, and ``extra`` = (largest, smallest route disk) per square of the block,
    from disks measured before (the wider ones), is where the cover starts; ``regions`` (the whole
    floor's passages and the block's main region per square) keeps each disk to the squares of its
    own passage."""
    pixel_ft = 1.0 / resolution
    best = np.zeros((rows, cols)) if extra is None else extra[0].copy()
    least = np.full((rows, cols), np.inf) if extra is None else extra[1].copy()
    ox, oy = offset_sq[0] * square_ft, offset_sq[1] * square_ft
    disks = _no_disks()
    if floor.any():
        skel, dist_px = _medial_axis(floor)
        rr, cc = np.nonzero(skel)
        centres = np.column_stack([(cc + 0.5) * pixel_ft + offset_ft[0], (rr + 0.5) * pixel_ft + offset_ft[1]])
        rad_img = np.zeros(floor.shape)
        if targets is None and not math.isfinite(below_ft):
            keep = np.ones(len(rr), dtype=bool)
        else:
            # the pixel distance stands in for the exact one on the axis far from the targets (it
            # only decides which branches are spurs there); 8 px of slack: the exact search moves
            # a centre and its radius by about 3 px at most
            approx = dist_px[rr, cc] * pixel_ft
            keep = 2.0 * approx < below_ft + 8.0 * pixel_ft
            if targets is not None:
                keep &= _reaching(centres, approx, targets, origin=(ox, oy), side=square_ft, slack=8.0 * pixel_ft)
            rad_img[rr, cc] = approx
        radius, centre, radius_n, centre_n = _refine(centres[keep], index, pixel_ft)
        rad_img[rr[keep], cc[keep]] = radius_n
        route = route_mask(skel, rad_img)[rr[keep], cc[keep]]
        if route_hint is not None:
            route &= route_hint(centres[keep])
        disks = Disks(centres[keep], route, centre, radius, centre_n, radius_n)
    _cover_all(disks, pixel_ft=pixel_ft, origin=(ox, oy), side=square_ft, best=best, least=least, regions=regions)
    return np.where(best > 0, np.minimum(best, least), 0.0), disks


def passage_cover(floor: np.ndarray, *, resolution: float, square_ft: float, rows: int, cols: int,
                  index: WallIndex) -> tuple[np.ndarray, Disks, P.Passages | None]:
    """Width per square of the whole map (the coarse pass): every axis pixel's exact disks, then
    which passage each square is in (:func:`sim.maps.importers.passages.passage_widths`: a room's
    squares read the room, a corridor's the corridor, a pinch the squares it lies in). Also the
    disks measured and the passages found (the fine re-measure starts from them)."""
    pixel_ft = 1.0 / resolution
    if not floor.any():
        return np.zeros((rows, cols)), _no_disks(), None
    skel, _ = _medial_axis(floor)
    rr, cc = np.nonzero(skel)
    centres = np.column_stack([(cc + 0.5) * pixel_ft, (rr + 0.5) * pixel_ft])
    radius, centre, radius_n, centre_n = _refine(centres, index, pixel_ft)
    rad_img = np.zeros(floor.shape)
    rad_img[rr, cc] = radius_n
    disks = Disks(centres, route_mask(skel, rad_img)[rr, cc], centre, radius, centre_n, radius_n)
    # the floor's squares: those a disk of any passage enters (as deep as :data:`OVERLAP_FT`)
    any_disk, unused = np.zeros((rows, cols)), np.full((rows, cols), np.inf)
    K.cover(centre[:, 0], centre[:, 1], radius, np.zeros(len(radius), dtype=np.bool_), float(square_ft), rows, cols,
            0.5 * pixel_ft, OVERLAP_FT, any_disk, unused)
    axis = P.Axis(rr, cc, junctions(skel)[0][rr, cc], radius, centre, radius_n, centre_n)
    found = P.passage_widths(floor, axis, index, resolution=resolution, square_ft=square_ft, rows=rows, cols=cols,
                             any_disk=any_disk)
    return found.width_ft, disks, found


def _cover_all(d: Disks, *, pixel_ft: float, origin: tuple[float, float], side: float, best: np.ndarray,
               least: np.ndarray, regions: P.Regions | None = None) -> None:
    """Spread the disks ``d`` over the squares of ``best`` / ``least`` (squares of ``side`` ft
    from ``origin``): the largest disk reaching each square (of its own passage, with
    ``regions``), and the smallest route disk."""
    ox, oy = origin
    rows, cols = best.shape
    eps = 0.5 * pixel_ft
    # the largest disks (2-D search) ...
    if regions is None:
        K.cover(d.centre[:, 0] - ox, d.centre[:, 1] - oy, d.radius, np.zeros(len(d.radius), dtype=np.bool_),
                float(side), rows, cols, eps, OVERLAP_FT, best, least)
    else:
        K.cover_region(d.centre[:, 0] - ox, d.centre[:, 1] - oy, d.radius, regions.at(d.centre), regions.dom,
                       float(side), rows, cols, eps, best)
    # ... and the route's smallest (normal search; its disks widen only a square of their own passage)
    K.cover(d.centre_n[:, 0] - ox, d.centre_n[:, 1] - oy, d.radius_n, d.route, float(side), rows, cols, eps,
            OVERLAP_FT, best if regions is None else np.zeros_like(best), least)


def _reaching(centres: np.ndarray, radius: np.ndarray, targets: np.ndarray, *, origin: tuple[float, float],
              side: float, slack: float) -> np.ndarray:
    """Which disks (centres in ft, approximate radii) may reach a ``targets`` square (squares of
    ``side`` ft from ``origin``): the centre is nearer the square than its radius plus ``slack``
    (the exact refinement moves a centre about 3 pixels at most and its radius as much).

    >>> t = np.array([[False, True]])
    >>> _reaching(np.array([[2.5, 2.5], [6.0, 2.5], [2.5, 9.0]]), np.array([1.0, 1.0, 1.0]), t, origin=(0.0, 0.0),
    ...           side=5.0, slack=0.5).tolist()
    [False, True, False]
    """
    tr, tc = np.nonzero(targets)
    x0 = origin[0] + tc * side
    y0 = origin[1] + tr * side
    dx = np.maximum(np.maximum(x0[None, :] - centres[:, :1], 0.0), centres[:, :1] - (x0[None, :] + side))
    dy = np.maximum(np.maximum(y0[None, :] - centres[:, 1:], 0.0), centres[:, 1:] - (y0[None, :] + side))
    near = np.hypot(dx, dy).min(axis=1) if len(tr) else np.full(len(centres), np.inf)
    return near < radius + slack


# ---------------------------------------------------------------- fine re-measure candidates

def facing_squares(geometry: Geometry, *, rows: int, cols: int, square_ft: float,
                   closer_than: float = FINE_BELOW_FT) -> np.ndarray:
    """Squares holding the midpoint of two wall samples closer than ``closer_than`` that face
    each other (different polylines, or far apart along one polyline): where a crack may be.
    (:func:`facing_gaps` gives the gap itself.)

    >>> crack = (np.array([[0.0, 5.0], [5.0, 5.0], [5.0, 5.2], [0.0, 5.2]]),)
    >>> facing_squares(Geometry(walls=crack), rows=2, cols=2, square_ft=5.0).astype(int).tolist()
    [[0, 0], [1, 0]]
    """
    return np.isfinite(facing_gaps(geometry, rows=rows, cols=cols, square_ft=square_ft, closer_than=closer_than))


def facing_gaps(geometry: Geometry, *, rows: int, cols: int, square_ft: float,
                closer_than: float = FINE_BELOW_FT) -> np.ndarray:
    """Per square, the smallest gap (ft) between facing wall samples whose midpoint lies in it
    (inf where none): see :func:`facing_squares`."""
    step = max(closer_than / 4.0, 0.05)
    pts, line_id, arc, length = [], [], [], []
    for i, line in enumerate((*geometry.walls, *(_closed(s) for s in geometry.solids))):
        p = np.asarray(line, dtype=np.float64)
        if len(p) < 2:
            continue
        seg = np.hypot(*(p[1:] - p[:-1]).T)
        cum = np.concatenate([[0.0], np.cumsum(seg)])
        total = cum[-1]
        s = np.arange(0.0, total + 1e-9, step) if total > 0 else np.zeros(1)
        xs = np.interp(s, cum, p[:, 0])
        ys = np.interp(s, cum, p[:, 1])
        pts.append(np.column_stack([xs, ys]))
        line_id.append(np.full(len(s), i))
        arc.append(s)
        closed = len(p) > 2 and np.allclose(p[0], p[-1])
        length.append(np.full(len(s), total if closed else np.inf))
    out = np.full((rows, cols), np.inf)
    if not pts:
        return out
    P = np.concatenate(pts)
    lid, s, L = np.concatenate(line_id), np.concatenate(arc), np.concatenate(length)
    _check_density(P, closer_than, square_ft)
    pairs = cKDTree(P).query_pairs(closer_than, output_type="ndarray")
    if len(pairs) == 0:
        return out
    i, j = pairs[:, 0], pairs[:, 1]
    dist = np.hypot(*(P[i] - P[j]).T)
    along = np.abs(s[i] - s[j])
    along = np.minimum(along, np.where(np.isfinite(L[i]), L[i] - along, np.inf))
    facing = (lid[i] != lid[j]) | (along > 2.0 * dist + 2.0 * step)
    mid = (P[i[facing]] + P[j[facing]]) / 2.0
    c = np.clip((mid[:, 0] // square_ft).astype(int), 0, cols - 1)
    r = np.clip((mid[:, 1] // square_ft).astype(int), 0, rows - 1)
    np.minimum.at(out, (r, c), dist[facing])
    return out


class WallsTooDense(ValueError):
    """Walls drawn over one another so densely that pairing their samples would not be linear:
    ``pairs`` (an upper bound) over ``limit`` around ``square`` (x, y)."""

    def __init__(self, square: tuple[int, int], pairs: int, limit: int):
        super().__init__(f"walls drawn over one another around square {square}: {pairs} sample pairs, limit {limit}")
        self.square, self.pairs, self.limit = square, pairs, limit


def _check_density(P: np.ndarray, radius: float, square_ft: float) -> None:
    """Refuse (:class:`WallsTooDense`) samples ``P`` whose pairs closer than ``radius`` could
    number more than ``MAX_PAIRS_PER_SAMPLE`` per sample: a bound counted, in linear time, over cells
    of ``radius`` (each sample against the samples of its 3 x 3 cells). The two real maps of
    tests/data/uvtt give about 7 per sample; 300 copies of one room about 2,000."""
    limit = MAX_PAIRS_PER_SAMPLE * len(P) + 1_000_000
    cell = np.floor(P / radius).astype(np.int64)
    cell -= cell.min(axis=0)
    width = int(cell[:, 0].max()) + 3
    key = (cell[:, 1] + 1) * width + (cell[:, 0] + 1)
    keys, counts = np.unique(key, return_counts=True)
    near = np.zeros(len(keys), dtype=np.int64)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            k = keys + dy * width + dx
            at = np.minimum(np.searchsorted(keys, k), len(keys) - 1)
            near += np.where(keys[at] == k, counts[at], 0)
    bound = int((counts * near).sum() // 2)
    if bound > limit:
        worst = keys[np.argmax(counts)]
        i = int(np.flatnonzero(key == worst)[0])
        x, y = P[i]
        raise WallsTooDense((int(x // square_ft), int(y // square_ft)), bound, limit)


# ---------------------------------------------------------------- the whole measure

def measure_widths(geometry: Geometry, *, rows: int, cols: int, feet_per_square: float,
                   resolution: float, floor_squares: tuple[tuple[int, int], ...] = (),
                   rock_squares: tuple[tuple[int, int], ...] = (), enclosed: str | None = None,
                   fine: bool = True, progress: Progress = _no_progress) -> Widths:
    """Width per square ``[row, col]`` of a ``cols x rows`` map of ``feet_per_square`` squares.

    ``floor_squares`` / ``rock_squares`` are ``(x, y)`` squares whose free region is forced to
    floor / rock; ``enclosed`` ("floor", "rock" or None) decides the enclosed spaces not joined to
    the main floor (:func:`sim.maps.importers.spaces.find_floor`). A seed square with no free
    pixel is skipped (the importer refuses it first, with a located message)."""
    spx = feet_per_square * resolution
    h, w = int(round(rows * spx)), int(round(cols * spx))
    progress("walls", 0, 4)
    border = (np.array([[0.0, 0.0], [cols * feet_per_square, 0.0], [cols * feet_per_square, rows * feet_per_square],
                        [0.0, rows * feet_per_square], [0.0, 0.0]]),)
    index = WallIndex.build(geometry, extra=border)
    # one extra pixel right and below, so a wall on the map's far edge is drawn inside the image
    wall = rasterise(geometry, shape_px=(h + 1, w + 1), resolution=resolution)
    seeds = [(seed_pixel(wall, sq, spx), f"--{flag} {sq[0]},{sq[1]}")
             for flag, squares in (("floor", floor_squares), ("rock", rock_squares)) for sq in squares]
    fs = tuple(p for p, name in seeds[:len(floor_squares)] if p is not None)
    rs = tuple(p for p, name in seeds[len(floor_squares):] if p is not None)
    doors = rasterise(Geometry(walls=geometry.doors), shape_px=wall.shape, resolution=resolution) \
        if geometry.doors else None
    progress("floor", 1, 4)
    # (h + 1, w + 1): its last row/col is rock; sealed pockets under one square's area are rock
    floor, spaces = find_floor(wall, floor_seeds=fs, rock_seeds=rs, min_pixels=int(spx * spx), enclosed=enclosed,
                               doors=doors, seed_names=tuple(name for p, name in seeds if p is not None), spx=spx)
    progress("disks", 2, 4)
    width, disks, found = passage_cover(floor, resolution=resolution, square_ft=feet_per_square, rows=rows,
                                        cols=cols, index=index)
    progress("fine", 3, 4)
    n_fine = 0
    if fine and resolution < FINE_RESOLUTION:
        gaps = facing_gaps(geometry, rows=rows, cols=cols, square_ft=feet_per_square)
        narrow = (width > 0) & (width < FINE_BELOW_FT)
        # how narrow each candidate may be: what the fine resolution must resolve
        need = np.minimum(np.where(narrow, width, np.inf), gaps)
        # where the first pass already had FINE_PIXELS_ACROSS pixels across the gap, its exact
        # distances stand
        need = np.where(need * resolution < FINE_PIXELS_ACROSS, need, np.inf)
        width, n_fine = _fine_pass(geometry, index, floor, disks, width, need, resolution=resolution,
                                   feet_per_square=feet_per_square, progress=progress, found=found)
    progress("done", 4, 4)
    return Widths(width_ft=snap_widths(width, feet_per_square), floor_px=floor[:h, :w], resolution=resolution,
                  fine_squares=n_fine, spaces=spaces)


def fine_windows(candidates: np.ndarray, block: int = FINE_BLOCK) -> list[tuple[int, int, int, int, np.ndarray]]:
    """The fine re-measure's windows: the candidate squares of each ``block`` x ``block`` tile of
    the map, as ``(r0, r1, c0, c1, targets)`` (their bounding box, exclusive ends, and which of its
    squares are candidates).

    >>> c = np.zeros((3, 9), bool); c[1, 0:2] = True; c[0, 6] = c[1, 7] = True
    >>> [(r0, r1, c0, c1, t.astype(int).tolist()) for r0, r1, c0, c1, t in fine_windows(c)]
    [(1, 2, 0, 2, [[1, 1]]), (0, 2, 6, 8, [[1, 0], [0, 1]])]
    """
    out = []
    for br, bc in sorted({(int(r) // block, int(c) // block) for r, c in zip(*np.nonzero(candidates))}):
        sel = candidates[br * block:(br + 1) * block, bc * block:(bc + 1) * block]
        rr, cc = np.nonzero(sel)
        r0, r1 = br * block + int(rr.min()), br * block + int(rr.max()) + 1
        c0, c1 = bc * block + int(cc.min()), bc * block + int(cc.max()) + 1
        out.append((r0, r1, c0, c1, candidates[r0:r1, c0:c1]))
    return out


def _fine_pass(geometry, index, floor, disks, width, need, *, resolution, feet_per_square, progress, found):
    """Re-measure the squares with a finite ``need`` (the narrowest gap that may be there, ft) in
    windows (:func:`fine_windows`), each at the resolution its narrowest gap needs
    (:data:`FINE_PIXELS_ACROSS` pixels across it, at most :data:`FINE_RESOLUTION`). Only the
    disks narrower than the coarse pass could resolve (FINE_PIXELS_ACROSS coarse pixels across)
    are measured again; the wider ones are the coarse pass's own (``disks``). Each disk counts only
    for the squares of its own passage (the coarse pass's regions, ``found``)."""
    candidates = np.isfinite(need)
    rows, cols = width.shape
    out = width.copy()
    windows = fine_windows(candidates)
    # coarse floor pixels well inside the floor: anchors that tell the fine pass which free
    # regions are floor
    deep = ndimage.binary_erosion(floor, structure=np.ones((3, 3)), iterations=1)
    # a window's own skeleton is cut at its edges (a corner spur running off the window looks
    # like a through-route): a fine axis pixel is on the route only where the nearest axis pixel
    # of the whole floor is
    tree = cKDTree(disks.pixel) if len(disks.pixel) else None

    def hint(centres: np.ndarray) -> np.ndarray:
        if tree is None or len(centres) == 0:
            return np.zeros(len(centres), dtype=bool)
        d, j = tree.query(centres)
        return disks.route[j] & (d <= 2.0 / resolution)
    resolved = FINE_PIXELS_ACROSS / resolution      # the narrowest disk the coarse pass measured well (ft across)
    # the wider disks' share of every square, once for the whole map: a window starts from it
    wide2 = 2.0 * disks.radius >= resolved
    widen = 2.0 * disks.radius_n >= resolved
    wide = Disks(disks.pixel[widen], disks.route[widen], disks.centre[wide2], disks.radius[wide2],
                 disks.centre_n[widen], disks.radius_n[widen])
    wide_best, wide_least = np.zeros((rows, cols)), np.full((rows, cols), np.inf)
    passages = None if found is None else P.Regions.of_passages(found, resolution)

    def regions(r0: int, r1: int, c0: int, c1: int) -> P.Regions | None:
        return None if passages is None else passages.block(r0, r1, c0, c1)
    _cover_all(wide, pixel_ft=1.0 / resolution, origin=(0.0, 0.0), side=feet_per_square, best=wide_best,
               least=wide_least, regions=regions(0, rows, 0, cols))
    n = 0
    for k, (r0, r1, c0, c1, mask) in enumerate(windows):
        progress("fine", k, len(windows))
        x0 = max(c0 * feet_per_square - FINE_MARGIN_FT, 0.0)
        y0 = max(r0 * feet_per_square - FINE_MARGIN_FT, 0.0)
        x1 = min(c1 * feet_per_square + FINE_MARGIN_FT, cols * feet_per_square)
        y1 = min(r1 * feet_per_square + FINE_MARGIN_FT, rows * feet_per_square)
        gap = float(need[r0:r1, c0:c1][mask].min())
        fres = float(min(FINE_RESOLUTION, max(2.0 * resolution, math.ceil(FINE_PIXELS_ACROSS / max(gap, 1e-3)))))
        shape = (int(math.ceil((y1 - y0) * fres)), int(math.ceil((x1 - x0) * fres)))
        fwall = rasterise(geometry, shape_px=(shape[0] + 1, shape[1] + 1), resolution=fres,
                          offset_ft=(x0, y0))[:shape[0], :shape[1]]
        labels, nl = ndimage.label(~fwall)
        # map each fine pixel to its coarse pixel and keep the free regions anchored on deep floor
        fy = ((np.arange(shape[0]) + 0.5) / fres + y0) * resolution
        fx = ((np.arange(shape[1]) + 0.5) / fres + x0) * resolution
        iy = np.clip(fy.astype(int), 0, floor.shape[0] - 1)
        ix = np.clip(fx.astype(int), 0, floor.shape[1] - 1)
        anchored = deep[np.ix_(iy, ix)]
        keep = np.zeros(nl + 1, dtype=bool)
        keep[np.unique(labels[anchored & (labels > 0)])] = True
        keep[0] = False
        ffloor = keep[labels]
        # the map's own edge is rock at the fine resolution too
        if y0 == 0.0:
            ffloor[0, :] = False
        if x0 == 0.0:
            ffloor[:, 0] = False
        if y1 >= rows * feet_per_square:
            ffloor[-1, :] = False
        if x1 >= cols * feet_per_square:
            ffloor[:, -1] = False
        fw, _ = disk_cover(ffloor, resolution=fres, square_ft=feet_per_square, rows=r1 - r0,
                           cols=c1 - c0, index=index, offset_ft=(x0, y0), offset_sq=(c0, r0), route_hint=hint,
                           targets=mask, below_ft=resolved,
                           extra=(wide_best[r0:r1, c0:c1], wide_least[r0:r1, c0:c1]),
                           regions=regions(r0, r1, c0, c1))
        coarse = out[r0:r1, c0:c1]
        narrow_c = (coarse > 0) & (coarse < FINE_BELOW_FT)
        narrow_f = (fw > 0) & (fw < FINE_BELOW_FT)
        # the fine pass speaks for the narrow squares the coarse one found, and for the cracks it
        # missed (no coarse disk); a room beside a narrow crack keeps the room's width
        take = mask & (narrow_c | ((coarse == 0) & narrow_f))
        coarse[take] = fw[take]
        n += int(take.sum())
    return out, n
