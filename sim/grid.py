"""CaveGrid: a frozen container of read-only terrain arrays (STYLE habit 2).

Arrays are indexed ``[row, col]`` and hold feet:

* ``width_ft``  -- narrowest horizontal clearance across the way of travel (DESIGN §5);
* ``height_ft`` -- lowest ceiling in the square;
* ``difficult`` -- difficult terrain (rubble);
* ``rock``      -- solid rock (width and height are 0 there);
* ``door``      -- a closed door (imported maps): rock for movement while closed, kept so that a
  later change can open it.

Metadata: named ``points``; fixed ``lights`` (:class:`MapLight`, RULES §9.1); the ``image`` drawn
as the floor (a picture of ``cols * k`` by ``rows * k`` pixels for a whole ``k``).

Behaviour lives in modules (classify, movement, analysis), not here.

>>> g = CaveGrid.from_arrays([[10, 0], [2, 10]], [[12, 0], [8, 3]], name="tiny")
>>> g.shape, g.cols, g.rows
((2, 2), 2, 2)
>>> g.rock.tolist()
[[False, True], [False, False]]
>>> g.in_bounds((1, 1)), g.in_bounds((2, 0))
(True, False)
>>> CaveGrid.from_arrays([[10, 10]], [[12, 12]], door=[[False, True]]).rock.tolist()  # a closed door
[[False, True]]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import numpy as np

from sim.coords import ij


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
    ) -> "CaveGrid":
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
        )
        kw.update(changes)
        w = kw.pop("width_ft")
        h = kw.pop("height_ft")
        return CaveGrid.from_arrays(w, h, **kw)
