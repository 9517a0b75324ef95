"""CaveGrid: a frozen container of read-only terrain arrays (STYLE habit 2).

Arrays are indexed ``[row, col]`` and hold feet:

* ``width_ft``  -- narrowest horizontal clearance across the way of travel (DESIGN §5);
* ``height_ft`` -- lowest ceiling in the square;
* ``difficult`` -- difficult terrain (rubble);
* ``rock``      -- solid rock (width and height are 0 there);
* ``door``      -- a closed door (imported maps): rock for movement while closed, kept so that a
  later change can open it;
* ``edges``     -- walls between squares (:class:`~sim.terrain.edges.EdgeWalls`, docs/rules.md
  §6.8), or None when the map has none; ``edge_doors`` -- the closed doors standing on edges (a
  subset of ``edges``: walled while closed, kept so that a later change can open them).

Metadata: named ``points``; fixed ``lights`` (:class:`MapLight`, RULES §9.1); the ``image`` drawn
as the floor (a picture of ``cols * k`` by ``rows * k`` pixels for a whole ``k``).

Behaviour lives in modules (classify, movement, analysis), not here; the one terrain fact kept
beside the grid is the width the rock allows (:func:`effective_width_ft`, DESIGN §5).

>>> g = CaveGrid.from_arrays([[10, 0], [2, 10]], [[12, 0], [8, 3]], name="tiny")
>>> g.shape, g.cols, g.rows
((2, 2), 2, 2)
>>> g.rock.tolist()
[[False, True], [False, False]]
>>> g.in_bounds((1, 1)), g.in_bounds((2, 0))
(True, False)
>>> CaveGrid.from_arrays([[10, 10]], [[12, 12]], door=[[False, True]]).rock.tolist()  # a closed door
[[False, True]]
>>> g = CaveGrid.from_arrays([[10, 10]], [[12, 12]], edge_doors=([[True, False]], None))  # a door on an edge
>>> g.edges.between((0, 0), (1, 0)), g.edge_doors.count()
(True, 1)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import numpy as np

from sim.base.coords import ij
from sim.terrain.edges import EdgeWalls

SQUARE_FT = 5.0  # one square of the grid is 5 ft across


def _frozen(a, dtype) -> np.ndarray:
    arr = np.array(a, dtype=dtype, copy=True, order="C")
    arr.flags.writeable = False
    return arr


@dataclass(frozen=True, slots=True)
class Terrain:
    """What one legend glyph stands for (feet)."""

    width: float
    height: float
    difficult: bool = False
    rock: bool = False


@dataclass(frozen=True, slots=True)
class MapLight:
    """A light fixed in the map (a brazier, a glowing fungus, an imported VTT light): RULES §9.1.
    ``source`` names a light-giving ``[gear]`` item when the map gave one; the radii are feet,
    counted 5-10-5 from the square's nearest corner (RULES §9.3)."""

    at: tuple[int, int]
    bright_ft: float
    shadowy_ft: float
    name: str = ""
    source: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class CaveGrid:
    name: str
    width_ft: np.ndarray
    height_ft: np.ndarray
    difficult: np.ndarray
    rock: np.ndarray
    points: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    description: str = ""
    source: str = ""
    units: str = "ft"
    glyphs: np.ndarray | None = None  # uint8 index into ``legend`` keys, or None for layer maps
    legend: Mapping[str, Terrain] = field(default_factory=dict)
    door: np.ndarray | None = None  # bool [row, col]; from_arrays always sets it
    lights: tuple[MapLight, ...] = ()
    image: Path | None = None
    edges: EdgeWalls | None = None       # walled edges, closed edge doors included; None: none
    edge_doors: EdgeWalls | None = None  # the closed doors among them; None: none

    @classmethod
    def from_arrays(
        cls,
        width_ft,
        height_ft,
        *,
        difficult=None,
        rock=None,
        name: str = "",
        points: Mapping[str, tuple[int, int]] | None = None,
        description: str = "",
        source: str = "",
        units: str = "ft",
        glyphs=None,
        legend: Mapping[str, Terrain] | None = None,
        door=None,
        lights=(),
        image: str | Path | None = None,
        edges=None,
        edge_doors=None,
    ) -> "CaveGrid":
        """The grid from plain arrays (``[row, col]``, feet). ``edges`` and ``edge_doors``:
        an :class:`EdgeWalls`, an ``(east, south)`` pair of bool arrays (either None), or None;
        a closed edge door walls its edge (as a closed door square is rock)."""
        w = np.asarray(width_ft, dtype=np.float64)
        h = np.asarray(height_ft, dtype=np.float64)
        if w.ndim != 2 or w.shape != h.shape:
            raise ValueError(f"width and height must be 2-D arrays of one shape, got {w.shape} and {h.shape}")
        r = (w <= 0) | (h <= 0) if rock is None else (np.asarray(rock, dtype=bool) | (w <= 0) | (h <= 0))
        d = np.zeros(w.shape, dtype=bool) if difficult is None else np.asarray(difficult, dtype=bool)
        if d.shape != w.shape:
            raise ValueError(f"difficult must have shape {w.shape}, got {d.shape}")
        dr = np.zeros(w.shape, dtype=bool) if door is None else np.asarray(door, dtype=bool)
        if dr.shape != w.shape:
            raise ValueError(f"door must have shape {w.shape}, got {dr.shape}")
        r = r | dr
        ed = _edge_layer(edge_doors, w.shape)
        eg = _edge_layer(edges, w.shape)
        if ed is not None:
            eg = ed if eg is None else EdgeWalls.of(eg.east | ed.east, eg.south | ed.south, w.shape)
        w = np.where(r, 0.0, w)
        h = np.where(r, 0.0, h)
        return cls(
            name=name,
            width_ft=_frozen(w, np.float64),
            height_ft=_frozen(h, np.float64),
            difficult=_frozen(d & ~r, bool),
            rock=_frozen(r, bool),
            points=MappingProxyType(dict(points or {})),
            description=description,
            source=source,
            units=units,
            glyphs=None if glyphs is None else _frozen(glyphs, np.uint8),
            legend=MappingProxyType(dict(legend or {})),
            door=_frozen(dr, bool),
            lights=tuple(lights),
            image=None if image is None else Path(image),
            edges=eg,
            edge_doors=ed,
        )

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return self.width_ft.shape  # type: ignore[return-value]

    @property
    def rows(self) -> int:
        return self.width_ft.shape[0]

    @property
    def cols(self) -> int:
        return self.width_ft.shape[1]

    def in_bounds(self, pos: tuple[int, int]) -> bool:
        r, c = ij(pos)
        return 0 <= r < self.rows and 0 <= c < self.cols

    def square(self, pos: tuple[int, int]) -> Terrain:
        """The terrain at ``(x, y)``."""
        r, c = ij(pos)
        return Terrain(
            width=float(self.width_ft[r, c]),
            height=float(self.height_ft[r, c]),
            difficult=bool(self.difficult[r, c]),
            rock=bool(self.rock[r, c]),
        )

    def replace(self, **changes) -> "CaveGrid":
        """A copy with some arrays or metadata replaced (arrays are re-frozen)."""
        kw = dict(
            width_ft=self.width_ft, height_ft=self.height_ft, difficult=self.difficult, rock=self.rock,
            name=self.name, points=self.points, description=self.description, source=self.source,
            units=self.units, glyphs=self.glyphs, legend=self.legend,
            door=self.door, lights=self.lights, image=self.image,
            edges=self.edges, edge_doors=self.edge_doors,
        )
        kw.update(changes)
        w = kw.pop("width_ft")
        h = kw.pop("height_ft")
        return CaveGrid.from_arrays(w, h, **kw)


def _edge_layer(layer, shape: tuple[int, int]) -> EdgeWalls | None:
    """An edge layer given as :class:`EdgeWalls`, an ``(east, south)`` pair, or None."""
    if layer is None:
        return None
    if isinstance(layer, EdgeWalls):
        return EdgeWalls.of(layer.east, layer.south, shape)
    east, south = layer
    return EdgeWalls.of(east, south, shape)


# =================================================================================================
# The width the rock allows (DESIGN §5 "narrowest horizontal clearance")
# =================================================================================================

def open_runs(floor: np.ndarray, edges: EdgeWalls | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Length (squares) of the horizontal and the vertical run of open squares through each
    square; 0 on rock. A wall between squares (``edges``, docs/rules.md §6.8) ends a run as
    rock does.

    >>> floor = np.array([[0, 0, 0, 0, 0],
    ...                   [0, 1, 1, 1, 0],
    ...                   [0, 0, 1, 0, 0],
    ...                   [0, 0, 1, 0, 0],
    ...                   [0, 0, 0, 0, 0]], dtype=bool)
    >>> h, v = open_runs(floor)
    >>> h[1].tolist(), v[:, 2].tolist()
    ([0, 3, 3, 3, 0], [0, 3, 3, 3, 0])
    """
    floor = np.asarray(floor, dtype=bool)
    if edges is None:
        return _row_runs(floor), _row_runs(floor.T).T
    return _cut_runs(floor, edges.east), _cut_runs(floor.T, edges.south.T).T


def _cut_runs(floor: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """:func:`_row_runs` with the runs cut where ``walls[r, c]`` walls the edge after cell
    ``(r, c)``: the row is spread out with a gap cell between neighbours (open unless walled),
    so a run of n squares is 2n - 1 cells long."""
    rows, cols = floor.shape
    wide = np.zeros((rows, 2 * cols - 1), dtype=bool)
    wide[:, 0::2] = floor
    wide[:, 1::2] = floor[:, :-1] & floor[:, 1:] & ~walls[:, :-1]
    return (_row_runs(wide)[:, 0::2] + 1) // 2


def width_allowance_ft(floor: np.ndarray, *, cap_ft: float | None = None, edges: EdgeWalls | None = None) -> np.ndarray:
    """The widest passage width (feet) the rock layout allows at each square (DESIGN §5):
    ``5 ft x min(horizontal run, vertical run)`` of open squares through it, optionally capped
    (open chambers); 0 on rock. A one-square corridor allows 5 ft, a two-square one 10 ft,
    whichever way it runs. The rule is conservative along straight passages; at a junction, or
    on a diagonal staircase, a square may be allowed 10 ft (its shortest run is two squares).

    >>> floor = np.array([[0, 0, 0, 0, 0],
    ...                   [0, 1, 1, 1, 0],
    ...                   [0, 0, 1, 0, 0],
    ...                   [0, 0, 0, 0, 0]], dtype=bool)
    >>> width_allowance_ft(floor)[1:3, 1:4].tolist()
    [[5.0, 10.0, 5.0], [0.0, 5.0, 0.0]]
    """
    h, v = open_runs(floor, edges)
    allow = SQUARE_FT * np.minimum(h, v).astype(np.float64)
    if cap_ft is not None:
        np.minimum(allow, cap_ft, out=allow)
    return allow


def _row_runs(floor: np.ndarray) -> np.ndarray:
    """Length of the run of True cells along its row through each cell, 0 on False cells (plain
    numpy: this module needs no scipy, so loading a map does not import it)."""
    rows, cols = floor.shape
    out = np.zeros((rows, cols), dtype=np.int64)
    if floor.size == 0:
        return out
    pad = np.zeros((rows, cols + 2), dtype=np.int8)
    pad[:, 1:-1] = floor
    step = np.diff(pad, axis=1)                  # +1 where a run starts, -1 just past its end
    r0, c0 = np.nonzero(step == 1)
    _, c1 = np.nonzero(step == -1)               # same row order, one end per start
    length = c1 - c0
    run_id = np.cumsum(step == 1, axis=1)[:, :cols]   # runs started so far on the row
    first = np.searchsorted(r0, np.arange(rows))       # index of each row's first run
    idx = first[:, None] + run_id - 1
    out[floor] = length[idx[floor]]
    return out


@functools.lru_cache(maxsize=8)
def effective_width_ft(grid: CaveGrid) -> np.ndarray:
    """The map's width capped by the rock around each square (read-only, cached per grid): a
    one-square corridor drawn with a chamber glyph is still 5 ft wide, and so is one between two
    walls between squares (docs/rules.md §6.8). The crawl's single-file test and the chokepoint
    analysis read passages with it; 0 on rock.

    >>> g = CaveGrid.from_arrays([[0, 0, 0], [30, 30, 30], [0, 0, 0]], [[0, 0, 0], [10, 10, 10], [0, 0, 0]])
    >>> effective_width_ft(g)[1].tolist()
    [5.0, 5.0, 5.0]
    """
    return _frozen(np.minimum(grid.width_ft, width_allowance_ft(~grid.rock, edges=grid.edges)), np.float64)
