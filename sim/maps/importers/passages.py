"""Which passage each square is in: the width a square reads from the measured disks (docs/rules.md
§2.10).

The disk cover (:mod:`sim.maps.importers.widths`) gives, along the floor's medial axis, the largest
disk at every axis pixel. A square's width is the width of the passage a creature standing in it
is in; the axis says where one passage ends and another begins:

1. **Branches**: the axis between its junctions, each walked end to end
   (:func:`~sim.maps.importers.widthkernels.walk_branches`), radius and arc length per pixel.
2. **Steps**: where the radius stays flat on one side (a corridor) and rises on the other (the
   room it opens into). The step's *chord* -- the segment between the two wall points its disk
   touches: a corridor's mouth -- is drawn across the floor as a cut.
3. **Regions**: the floor split by the cuts. A room is one region, a corridor another, so the
   room's disks never reach into the corridor's first square, nor the disks that shrink toward
   the corridor's mouth into the room's own reading.
4. **Per square**: the region holding most of the square's floor; the largest disk *of that
   region* entering the square (a room's corner squares read the room; a room's disk bulging out
   through an exit is cut back to the exit's chord). A region less than
   :data:`JUNCTION_RATIO` times as wide as the widest passage leaving it is a junction or a bend
   of those passages and reads their width (a T of two 5-ft corridors is 5 ft where they meet).
5. **Pinches**: a local least radius along a branch with wider passage on both sides (an
   hourglass) marks the square holding it, both squares when it lies on their border. A step
   from a room into a corridor is not a pinch: the corridor side stays flat.

Pure functions over arrays; the compiled loops are in :mod:`sim.maps.importers.widthkernels`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage
from scipy.spatial import cKDTree

from sim.maps.importers import widthkernels as K

STEP_TOL_FT, STEP_TOL_REL = 0.05, 0.02      # "flat": the radius within this (ft, or x the radius)
FLAT_FT, FLAT_REL = 1.0, 0.5                # ... for this far along the axis (ft, or x the radius)
RISE_FT, RISE_REL = 0.25, 0.1               # "rising": wider by this (ft, or x the radius) ...
REACH_FT, REACH_REL = 2.0, 2.0              # ... within this far along the axis (ft, or x the radius)
JUNCTION_RATIO = 1.5                        # a region narrower than this x its widest exit is a junction


class NearestWall(Protocol):
    """The walls' exact distance (:class:`sim.maps.importers.widths.WallIndex`): per point, the
    distance to the nearest wall and that wall point."""

    def nearest(self, pts: np.ndarray, k: int = 8) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass(frozen=True, slots=True, eq=False)
class Axis:
    """The coarse medial axis: pixels ``rr``/``cc``, which are junctions, and per pixel the two exact
    disks (the 2-D search's ``radius``/``centre``, the normal search's ``radius_n``/``centre_n``)."""

    rr: np.ndarray
    cc: np.ndarray
    junction: np.ndarray
    radius: np.ndarray
    centre: np.ndarray
    radius_n: np.ndarray
    centre_n: np.ndarray


@dataclass(frozen=True, slots=True, eq=False)
class Passages:
    """Per square: ``width_ft`` (0 where no disk reaches) and ``dom``, the region holding most of its
    floor; the floor's ``labels`` (pixels, one region each) and the chords between the regions:
    what the fine re-measure keeps its disks to (:class:`Regions`)."""

    width_ft: np.ndarray
    dom: np.ndarray
    labels: np.ndarray
    chords: np.ndarray = field(default_factory=lambda: np.zeros((0, 6)))     # ax, ay, bx, by, region +, region -
    chord_pts: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # x, y (ft), chord number


@dataclass(frozen=True, slots=True, eq=False)
class Regions:
    """The coarse pass's passages, for the disks the fine re-measure finds: which region a point
    lies in, and ``dom``, the main region of each square of the block being measured."""

    found: Passages
    resolution: float
    dom: np.ndarray
    tree: cKDTree | None

    @classmethod
    def of_passages(cls, found: Passages, resolution: float) -> "Regions":
        tree = cKDTree(found.chord_pts[:, :2]) if len(found.chord_pts) else None
        return cls(found, resolution, found.dom, tree)

    def block(self, r0: int, r1: int, c0: int, c1: int) -> "Regions":
        return Regions(self.found, self.resolution, self.found.dom[r0:r1, c0:c1], self.tree)

    def at(self, pts: np.ndarray) -> np.ndarray:
        """The region holding each point (ft): its coarse pixel's, or, within 1.5 coarse pixels of a
        chord, the region on the point's side of it (the pixels quantise the chord); 0 where the
        coarse floor did not reach."""
        labels = self.found.labels
        r = np.clip(np.floor(pts[:, 1] * self.resolution).astype(np.int64), 0, labels.shape[0] - 1)
        c = np.clip(np.floor(pts[:, 0] * self.resolution).astype(np.int64), 0, labels.shape[1] - 1)
        out = labels[r, c].astype(np.int64)
        if self.tree is None or len(pts) == 0:
            return out
        d, j = self.tree.query(pts, distance_upper_bound=1.5 / self.resolution)
        hit = np.isfinite(d)
        ch = self.found.chords[self.found.chord_pts[j[hit], 2].astype(np.int64)]
        q = pts[hit]
        side = (ch[:, 0] - ch[:, 2]) * (q[:, 1] - ch[:, 1]) - (ch[:, 1] - ch[:, 3]) * (q[:, 0] - ch[:, 0])
        label = np.where(side <= 0, ch[:, 4], ch[:, 5]).astype(np.int64)
        out[hit] = np.where(label > 0, label, out[hit])
        return out


def passage_widths(floor: np.ndarray, axis: Axis, index: NearestWall, *, resolution: float, square_ft: float,
                   rows: int, cols: int, any_disk: np.ndarray) -> Passages:
    """The width per square of the ``rows x cols`` map whose floor raster (pixel (0, 0) at the map's
    corner) is ``floor``; ``any_disk`` is the largest disk of any region per square (the floor's
    squares are those it reaches; a square no disk of its own region reaches keeps it)."""
    pixel_ft = 1.0 / resolution
    n = len(axis.rr)
    ids = np.full(floor.shape, -1, dtype=np.int64)
    ids[axis.rr, axis.cc] = np.arange(n)
    order, starts = K.walk_branches(ids, axis.rr.astype(np.int64), axis.cc.astype(np.int64), axis.junction)
    rad_img = np.zeros(floor.shape)
    rad_img[axis.rr[axis.junction], axis.cc[axis.junction]] = axis.radius_n[axis.junction]
    jr = ndimage.grey_dilation(rad_img, size=(3, 3))
    first, last = order[starts[:-1]], order[starts[1:] - 1]
    end0, end1 = jr[axis.rr[first], axis.cc[first]], jr[axis.rr[last], axis.cc[last]]
    cx, cy = axis.centre_n[:, 0].copy(), axis.centre_n[:, 1].copy()
    cut_k, cut_r, pin_x, pin_y, pin_r = K.branch_marks(
        order, starts, axis.radius_n, cx, cy, end0, end1, pixel_ft, STEP_TOL_FT, STEP_TOL_REL, FLAT_FT, FLAT_REL,
        RISE_FT, RISE_REL, REACH_FT, REACH_REL)
    cuts, sides, chord_pts, segs = _cuts(floor.shape, axis.centre_n[cut_k], axis.radius_n[cut_k], cut_r, index,
                                          resolution)
    labels = _regions(floor, cuts)
    chords = np.array([[*seg, labels[a], labels[b]] for seg, ((a, b), _) in zip(segs, sides)]).reshape(-1, 6)
    region = labels[axis.rr, axis.cc]
    top = int(labels.max()) + 1
    peak = np.zeros(top)
    np.maximum.at(peak, region, axis.radius)
    exit_r = np.zeros(top)
    for (a, b), r in sides:
        exit_r[labels[a]] = max(exit_r[labels[a]], r)
        exit_r[labels[b]] = max(exit_r[labels[b]], r)
    junction = (exit_r > 0) & (peak < JUNCTION_RATIO * exit_r)
    junction[0] = False
    radius = axis.radius
    if len(chord_pts):
        # a room's disk reads no wider than the room: one bulging out through an exit's mouth is
        # cut back to the chord across it (a 10-ft exit lets a 30-ft room's disk grow to 30.8 ft)
        room = ~junction[region]
        d, _ = cKDTree(chord_pts[:, :2]).query(axis.centre[room])
        radius = radius.copy()
        radius[room] = np.minimum(radius[room], d)
    spx = square_ft * resolution
    dom = K.dominant(labels, spx, rows, cols)
    best = np.zeros((rows, cols))
    K.cover_region(axis.centre[:, 0].copy(), axis.centre[:, 1].copy(), radius, region, dom, float(square_ft),
                   rows, cols, 0.5 * pixel_ft, best)
    width = np.where(junction[dom], np.minimum(best, 2.0 * exit_r[dom]), best)
    width = np.where(width > 0, width, any_disk)
    pinches = tuple((float(x), float(y), 2.0 * float(r)) for x, y, r in zip(pin_x, pin_y, pin_r))
    for x, y, w in pinches:
        for row, col in _squares_at(x, y, square_ft, 0.5 * pixel_ft, rows, cols):
            if width[row, col] > 0:
                width[row, col] = min(width[row, col], w)
    return Passages(width_ft=np.where(any_disk > 0, width, 0.0), dom=dom, labels=labels, chords=chords,
                    chord_pts=chord_pts)


def _cuts(shape: tuple[int, int], centres: np.ndarray, radii: np.ndarray, plateau: np.ndarray, index: NearestWall,
          resolution: float) -> tuple[np.ndarray, list, np.ndarray, np.ndarray]:
    """The steps' chords drawn as 1-pixel lines (8-connected, so 4-connected floor cannot leak
    through): from the wall point nearest the disk's centre to the wall point nearest its mirror
    image through the centre, 1.5 pixels past each end. A chord whose second end is not on the
    disk (within 5 % and a pixel) is not drawn: the disk touches no second wall across the way.
    Also, per chord drawn, a pixel (row, col) just either side of its middle with the step's
    ``plateau`` radius (the flat side's) -- the first pixel on the side its normal (-uy, ux) points
    to; points along the chords (x, y ft, half a pixel apart, the chord's number); each chord's ends
    (ax, ay, bx, by ft)."""
    h, w = shape
    img = Image.new("1", (w, h), 0)
    draw = ImageDraw.Draw(img)
    sides: list[tuple[tuple[tuple[int, int], ...], float]] = []
    pts: list[np.ndarray] = []
    segs: list[tuple[float, ...]] = []
    if len(centres):
        _, f1 = index.nearest(centres)
        _, f2 = index.nearest(2.0 * centres - f1)
        px = 1.0 / resolution
        for i, (c, a, b, r) in enumerate(zip(centres, f1, f2, radii)):
            if np.hypot(*(b - c)) > 1.05 * r + px:
                continue
            d = b - a
            length = float(np.hypot(*d))
            if length < 2 * px:
                continue
            u = d / length
            p0, p1 = (a - 1.5 * px * u) * resolution, (b + 1.5 * px * u) * resolution
            draw.line([*np.floor(p0).tolist(), *np.floor(p1).tolist()], fill=1, width=1)
            mid, nrm = (a + b) / 2 * resolution, np.array([-u[1], u[0]])
            ends = [np.floor(mid + s * 2.0 * nrm).astype(int) for s in (1.0, -1.0)]
            pair = tuple((int(np.clip(e[1], 0, h - 1)), int(np.clip(e[0], 0, w - 1))) for e in ends)
            sides.append((pair, float(plateau[i])))
            t = np.linspace(0.0, 1.0, int(length / (0.5 * px)) + 2)[:, None]
            pts.append(np.column_stack([a + t * d, np.full(len(t), len(segs))]))
            segs.append((*a, *b))
    return (np.array(img, dtype=bool), sides, np.concatenate(pts) if pts else np.zeros((0, 3)),
            np.array(segs).reshape(-1, 4))


def _regions(floor: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """The floor's regions between the cuts (4-connected, numbered from 1); a floor pixel on a cut
    joins a neighbouring region (the largest label beside it, twice over), so every floor pixel
    has one."""
    labels, _ = ndimage.label(floor & ~cuts)
    for _ in range(2):
        gap = floor & (labels == 0)
        if not gap.any():
            break
        labels = np.where(gap, ndimage.grey_dilation(labels, size=(3, 3)), labels)
    return labels


def _squares_at(x: float, y: float, side: float, eps: float, rows: int, cols: int) -> list[tuple[int, int]]:
    """The squares (row, col) holding point (x, y) ft: two (or four) when it lies within ``eps``
    of their border.

    >>> _squares_at(12.0, 25.0, 5.0, 0.05, 11, 5)
    [(4, 2), (5, 2)]
    """
    def spans(v: float, n: int) -> list[int]:
        k = int(np.floor(v / side))
        out = {k}
        if v - k * side <= eps:
            out.add(k - 1)
        if (k + 1) * side - v <= eps:
            out.add(k + 1)
        return sorted(i for i in out if 0 <= i < n)
    return [(r, c) for r in spans(y, rows) for c in spans(x, cols)]
