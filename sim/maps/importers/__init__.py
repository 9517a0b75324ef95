"""Importers: other tools' maps into cavesim's map format (``cavesim import FILE --out MAP.toml``).

:func:`importer_for` names the module that reads a file, by its suffix:

* ``.dd2vtt`` / ``.df2vtt`` / ``.uvtt`` -- Universal VTT exports of Dungeondraft, DungeonFog,
  Arkenforge (:mod:`sim.maps.importers.vtt`: ``import_file(path, options) -> Imported``, widths
  measured from the walls);
* ``.tmx`` / ``.tmj`` -- Tiled maps (:mod:`sim.maps.importers.tiled`);
* ``.png`` -- picture maps (:mod:`sim.maps.importers.image`).

:data:`IMPORTERS` maps the Tiled and picture suffixes to ``function(path, out, args) -> Written``:
read ``path``, write the map TOML ``out`` (and its siblings) with :func:`sim.maps.write.write_map`.

>>> importer_for("cave.DD2VTT"), importer_for("cave.tmj")
('sim.maps.importers.vtt', 'sim.maps.importers.tiled')
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Callable

from sim.base.errors import DataError, UsageError
from sim.maps.importers.image import read_image_grid
from sim.maps.importers.tiled import read_tiled_grid
from sim.maps.limits import Limits
from sim.maps.write import Written, write_map
from sim.terrain.grid import CaveGrid

_POINT = re.compile(r"\s*([^=\s][^=]*?)\s*=\s*(-?\d+)\s*,\s*(-?\d+)\s*")


def _limits(args: argparse.Namespace) -> tuple[int, int]:
    text = getattr(args, "max_map_size", None)
    lim = Limits.parse(text) if text else Limits()
    return (lim.max_cols, lim.max_rows)


def with_points(grid: CaveGrid, specs: list[str] | None) -> CaveGrid:
    """``--point NAME=X,Y`` options added to the grid's named points (each on a floor square).

    >>> g = CaveGrid.from_arrays([[10, 10]], [[8, 8]])
    >>> dict(with_points(g, ["lair=1,0"]).points)
    {'lair': (1, 0)}
    """
    if not specs:
        return grid
    points = dict(grid.points)
    for spec in specs:
        m = _POINT.fullmatch(spec)
        if not m:
            raise UsageError(f"--point {spec!r}: write it NAME=X,Y, e.g. --point entrance=3,4")
        name, x, y = m.group(1), int(m.group(2)), int(m.group(3))
        if not grid.in_bounds((x, y)):
            raise UsageError(f"--point {spec!r}: ({x}, {y}) is off the {grid.cols}x{grid.rows} map")
        if grid.rock[y, x]:
            raise UsageError(f"--point {spec!r}: ({x}, {y}) is rock; give a floor square")
        points[name] = (x, y)
    return grid.replace(points=points)


def _write(grid: CaveGrid, path: Path, out: Path, args: argparse.Namespace, what: str) -> Written:
    grid = with_points(grid, getattr(args, "point", None))
    comment = f"Imported by `cavesim import` from {path.name} ({what})."
    return write_map(grid, out, fmt=getattr(args, "format", None) or "auto", comment=comment)


def import_tiled(path: Path, out: Path, args: argparse.Namespace) -> Written:
    """A Tiled ``.tmx`` / ``.tmj`` map (value or semantic tiles)."""
    grid = read_tiled_grid(path, max_size=_limits(args))
    return _write(grid, path, out, args, "a Tiled map")


def import_image(path: Path, out: Path, args: argparse.Namespace) -> Written:
    """A picture map: quarter-feet RGBA, a pair of grey pictures, or a legend image."""
    grid, warnings = read_image_grid(
        path, k=getattr(args, "px_per_square", None) or 1, ceiling_image=getattr(args, "ceiling_image", None),
        legend=getattr(args, "legend", None), max_size=_limits(args))
    for w in warnings:
        print(f"cavesim: warning: {w}", file=sys.stderr)
    return _write(grid, path, out, args, "a picture map")


IMPORTERS: dict[str, Callable[[Path, Path, argparse.Namespace], Written]] = {
    ".tmx": import_tiled,
    ".tmj": import_tiled,
    ".png": import_image,
}


VTT_SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")
_MODULES = {**{s: "sim.maps.importers.vtt" for s in VTT_SUFFIXES}, ".tmx": "sim.maps.importers.tiled",
            ".tmj": "sim.maps.importers.tiled", ".png": "sim.maps.importers.image"}


def importer_for(path: str | Path) -> str:
    """The module that imports ``path``, chosen by its suffix (case-insensitive)."""
    suffix = Path(path).suffix.lower()
    if suffix not in _MODULES:
        known = ", ".join(sorted(_MODULES))
        raise DataError(f"{path}: cavesim cannot import {suffix or 'a file without a suffix'} files; "
                        f"it reads {known}")
    return _MODULES[suffix]
