"""A Universal VTT file (``.dd2vtt``/``.df2vtt``/``.uvtt``) as a cavesim map.

* widths per square from the walls (:mod:`sim.maps.importers.widths`), at the resolution given or
  an automatic one (:func:`~sim.maps.importers.common.auto_resolution`);
* ceilings: ``ceiling_ft`` everywhere, or a grey-scale picture (grey level x 0.25 ft);
* closed portals: walls for the widths and a ``door`` flag (width 0 there); open portals are
  passages;
* walls and closed portals drawn along grid lines: walls and closed doors *between* squares, the
  edge layers (:mod:`sim.maps.importers.gridlines`, docs/rules.md §6.8) -- such a door is a door
  on its edge, not a door square;
* lights: ``[[light]]`` with ``shadowy_ft = range x feet per square`` and ``bright_ft`` half
  of it (every light of RULES §9.1 sheds shadowy light to twice its bright radius), cut to the
  1,000 ft a map light may reach (:data:`sim.maps.layers.MAX_LIGHT_FT`) with a warning;
* the picture (the file's ``image``, or ``--image PICTURE``): kept as it came, PNG, WebP or JPEG,
  byte for byte when it covers the grid exactly (:func:`~sim.maps.importers.uvtt.grid_picture`),
  for the renderer and the editor to draw under the squares.
"""

from __future__ import annotations

import dataclasses
import io
import math
import warnings as warnings_module
from pathlib import Path

import numpy as np
from PIL import Image

from sim.base.errors import DataError
from sim.base.fileio import read_input
from sim.maps.importers import uvtt as fmt
from sim.maps.importers import widths as W
from sim.maps.importers.gridlines import grid_line_edges, on_grid_line
from sim.maps.importers.common import (
    CEILING_IMAGE_FT_PER_LEVEL,
    Imported,
    ImportOptions,
    Progress,
    auto_resolution,
    pixel_budget_error,
)
from sim.maps.layers import MAX_LIGHT_FT
from sim.terrain.grid import CaveGrid, MapLight

MAX_WALL_FT = 250_000   # walls, props and doors in all (feet; 50,000 squares of 5 ft)


def _no_progress(stage: str, done: int, total: int) -> None:
    return None


def import_file(path: str | Path, options: ImportOptions = ImportOptions(), *,
                progress: Progress = _no_progress) -> Imported:
    path = Path(path)
    m = fmt.parse(path, max_bytes=options.max_file_bytes, max_squares=options.max_squares)
    return import_parsed(m, options, progress=progress)


def import_parsed(m: fmt.UvttMap, options: ImportOptions = ImportOptions(), *,
                  progress: Progress = _no_progress) -> Imported:
    where = str(m.path)
    fps = float(options.feet_per_square)
    res = options.resolution if options.resolution is not None else auto_resolution(m.cols, m.rows, fps)
    msg = pixel_budget_error(where, m.cols, m.rows, fps, res, options.max_pixels)
    if msg:
        raise DataError(msg)
    warnings = list(m.warnings)
    if options.image is not None:   # --image: the picture the file names (or a better one) instead of its own
        m = dataclasses.replace(m, picture=fmt.read_picture(options.image, limit=options.max_file_bytes))
        warnings = [w for w in warnings if not w.startswith(f"{where}: image: ")]
    if m.picture is not None:
        note = fmt.size_warning(m, m.picture, f"--image {options.image}" if options.image else f"{where}: image")
        warnings += [note] if note else []
    for flag, squares in (("--floor", options.floor), ("--rock", options.rock)):
        for x, y in squares:
            if not (0 <= x < m.cols and 0 <= y < m.rows):
                raise DataError(f"{flag} {x},{y}: outside the map ({m.cols} x {m.rows} squares; x 0-{m.cols - 1}, "
                                f"y 0-{m.rows - 1})")
    for name, (x, y) in options.points.items():
        if not (0 <= x < m.cols and 0 <= y < m.rows):
            raise DataError(f"--point {name}={x},{y}: outside the map ({m.cols} x {m.rows} squares)")
    ceiling = _ceiling(options, m)

    length_ft = fmt.wall_length(m) * fps
    if length_ft > MAX_WALL_FT:
        raise DataError(f"{where}: line_of_sight: {length_ft:,.0f} ft of walls, props and doors in all (within "
                        f"{max(m.cols, m.rows)} squares of the map), over the limit of {MAX_WALL_FT:,} ft; export a "
                        "smaller part of the map, or remove the walls drawn far outside it")
    for key, lines in (("line_of_sight", m.walls), ("objects_line_of_sight", m.objects)):
        n, (x, y) = fmt.crowded_cell(lines, W.PIECE_FT / fps)
        if n > fmt.MAX_POINTS_PER_CELL:
            raise DataError(f"{where}: {key}: {n:,} points within {W.PIECE_FT:g} ft of one another around square "
                            f"({int(x)}, {int(y)}), over the limit of {fmt.MAX_POINTS_PER_CELL}; simplify the walls "
                            "there (fewer points)")
    walls, solids = fmt.geometry_ft(m, fps)
    # the closed doors once each (they join sealed spaces to the floor; a door drawn again joins nothing more)
    doors = tuple(np.array(ab) * fps for ab in dict.fromkeys((p.a, p.b) for p in m.portals if p.closed))
    geometry = W.Geometry(walls=walls, solids=solids, doors=doors)
    spx = fps * res
    wall_px = W.rasterise(geometry, shape_px=(int(round(m.rows * spx)) + 1, int(round(m.cols * spx)) + 1),
                          resolution=res)
    for flag, squares in (("--floor", options.floor), ("--rock", options.rock)):
        for x, y in squares:
            if W.seed_pixel(wall_px, (x, y), spx) is None:
                raise DataError(f"{flag} {x},{y}: that square is all wall at {res:g} px/ft; pick a square with "
                                "open space in it")
    del wall_px
    try:
        measured = W.measure_widths(geometry, rows=m.rows, cols=m.cols, feet_per_square=fps, resolution=res,
                                    floor_squares=options.floor, rock_squares=options.rock, enclosed=options.enclosed,
                                    fine=options.fine,
                                    progress=progress)
    except W.WallsTooDense as exc:
        x, y = exc.square
        raise DataError(f"{where}: line_of_sight, portals: around square ({x}, {y}) walls (or closed doors) are "
                        "drawn over one another "
                        f"({exc.pairs:,} pairs of wall points within {W.FINE_BELOW_FT:g} ft, over the limit of "
                        f"{exc.limit:,}); remove the repeated walls there") from None
    width = measured.width_ft
    floor = width > 0
    if not floor.any():
        raise DataError(f"{where}: no floor found: the walls enclose no space (or every enclosed space touches "
                        "the map's edge); name a floor square with --floor X,Y")
    closed = tuple(p for p in m.portals if p.closed)
    on_line = tuple(p for p in closed if on_grid_line(p.a, p.b) is not None)
    door = fmt.door_squares(m, floor, tuple(p for p in closed if p not in on_line))
    lined = grid_line_edges(m.walls, floor & ~door, doors=[np.array([p.a, p.b]) for p in on_line],
                            openings=[np.array([p.a, p.b]) for p in m.portals if not p.closed])
    height = np.where(floor, ceiling, 0.0)
    width = np.where(door, 0.0, width)   # a closed door is rock for movement (the flag keeps it a door)
    lights = _lights(m, floor & ~door, fps, warnings)
    for name, (x, y) in options.points.items():
        if not floor[y, x] or door[y, x] or height[y, x] <= 0:
            raise DataError(f"--point {name}={x},{y}: square ({x}, {y}) is rock in the imported map; "
                            "choose a floor square")
    picture, note = fmt.grid_picture(m)
    if note:
        warnings.append(note)
    grid = CaveGrid.from_arrays(
        width, height,
        name=options.name or m.path.stem, points=dict(options.points),
        description=f"Imported from {m.path.name} (Universal VTT {m.format or '?'}): {fps:g} ft squares, "
                    f"widths measured from the walls at {res:g} px/ft",
        source=str(m.path), door=door, lights=lights, edges=lined.walls, edge_doors=lined.doors,
    )
    return Imported(grid=grid, image=picture.data if picture else None,
                    image_suffix=picture.suffix if picture else ".png", warnings=tuple(warnings), resolution=res,
                    fine_squares=measured.fine_squares, spaces=measured.spaces)


def _lights(m: fmt.UvttMap, floor: np.ndarray, fps: float, warnings: list[str]) -> tuple[MapLight, ...]:
    out = []
    rows, cols = floor.shape
    for i, li in enumerate(m.lights):
        c, r = int(math.floor(li.x)), int(math.floor(li.y))
        best = None
        for dr in (0, -1, 1):
            for dc in (0, -1, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and floor[rr, cc]:
                    d = (rr + 0.5 - li.y) ** 2 + (cc + 0.5 - li.x) ** 2
                    if best is None or d < best[0]:
                        best = (d, cc, rr)
        if best is None:
            warnings.append(f"{m.path}: lights[{i}]: at ({li.x:.2f}, {li.y:.2f}) squares, not on or beside a floor "
                            "square; skipped")
            continue
        shadowy = round(li.range * fps, 3) if li.range * fps <= MAX_LIGHT_FT else float(MAX_LIGHT_FT)
        if li.range * fps > MAX_LIGHT_FT:
            warnings.append(f"{m.path}: lights[{i}].range: {li.range:g} squares is {li.range * fps:g} ft, over the "
                            f"{MAX_LIGHT_FT} ft a map light may reach; imported as {MAX_LIGHT_FT} ft")
        out.append(MapLight(at=(best[1], best[2]), bright_ft=round(shadowy / 2, 3), shadowy_ft=shadowy,
                            name=f"light {i + 1}"))
    return tuple(out)


def _ceiling(options: ImportOptions, m: fmt.UvttMap) -> np.ndarray | float:
    """The ceiling per square: ``--ceiling`` or the lowest grey level in each square of
    ``--ceiling-image`` (x 0.25 ft). The picture may be any size of the map's shape."""
    if options.ceiling_image is None:
        return float(options.ceiling_ft)
    p = Path(options.ceiling_image)
    raw = read_input(p, what="ceiling picture")
    try:
        with warnings_module.catch_warnings():
            warnings_module.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw)) as im:
                if im.size[0] * im.size[1] > fmt.MAX_IMAGE_PIXELS:
                    raise DataError(f"--ceiling-image {p}: {im.size[0]} x {im.size[1]} pixels is over the "
                                    f"{fmt.MAX_IMAGE_PIXELS // 10**6} million pixel limit; scale it down")
                im.load()
                grey = im.convert("L")
    except DataError:
        raise
    except Image.DecompressionBombError:
        raise DataError(f"--ceiling-image {p}: over the {fmt.MAX_IMAGE_PIXELS // 10**6} million pixel limit; "
                        "scale it down") from None
    except Exception as exc:
        raise DataError(f"--ceiling-image {p}: not a picture Pillow can read ({exc.__class__.__name__})") from None
    w, h = grey.size
    if abs(w / h - m.cols / m.rows) > 0.02 * (m.cols / m.rows):
        raise DataError(f"--ceiling-image {p}: {w} x {h} pixels does not have the map's shape "
                        f"({m.cols} x {m.rows} squares); export it aligned with the map")
    k = 8
    small = np.asarray(grey.resize((m.cols * k, m.rows * k), Image.Resampling.NEAREST), dtype=np.float64)
    lowest = small.reshape(m.rows, k, m.cols, k).min(axis=(1, 3))
    return lowest * CEILING_IMAGE_FT_PER_LEVEL

