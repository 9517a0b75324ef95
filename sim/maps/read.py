"""Reading a map file (DESIGN §5, README "Map files"): an ASCII grid with its ``[legend]``, or
``.npz`` layers, into a :class:`~sim.terrain.grid.CaveGrid`, with its named points and lights.

Everything read here is validated at the boundary (STYLE habit 8). Every problem becomes one
line that names the file, the line or key, and the fix; all problems of a file are collected
before a :class:`~sim.base.errors.DataError` is raised, so ``cavesim validate`` can list them all.
Nothing in a file is ever executed: TOML is parsed with ``tomllib`` and ``.npz`` layers are
loaded with ``allow_pickle=False``.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from sim.base.errors import DataError, shorten
from sim.base.fileio import TomlLines, located, read_toml
from sim.maps.layers import MAX_LENGTH, check_image, load_layers, number, parse_lights
from sim.maps.limits import Limits
from sim.terrain.grid import CaveGrid, Terrain

UNITS = ("ft", "m")
WALL_WORDS = ("wall", "rock")
_MAP_KEYS = {"name", "units", "description", "grid", "layers", "image"}
_LEGEND_KEYS = {"width", "height", "difficult"}
_TOP_KEYS = {"map", "legend", "point", "light", "encounter", "combatant", "schema_version", "crawl", "settings"}


def to_feet(value: float, units: str) -> float:
    """A length in the map's units, in feet. 1.5 m = 5 ft exactly (DESIGN §4).

    >>> to_feet(0.6, "m"), to_feet(1.5, "m"), to_feet(7, "ft")
    (2.0, 5.0, 7.0)
    """
    if units == "ft":
        return float(value)
    return float(Fraction(str(value)) * 10 / 3)



def _length(value: Any, what: str, units: str) -> tuple[float | None, str | None]:
    """Validate a width/height value; returns (feet, problem).

    >>> _length(10 ** 400, "width", "ft")[1][:40], _length(10 ** 400, "width", "ft")[1][-16:]
    ('width must be at most 1000 ft, got 10000', '(401 characters)')
    >>> _length(1e308, "height", "m")[1]
    'height must be at most 1000 m, got 1e+308'
    """
    v = number(value)
    if v is None:
        return None, f"{what} must be a number of {units}, got {shorten(value)}"
    if math.isnan(v) or (math.isinf(v) and not isinstance(value, int)):
        return None, f"{what} must be a finite number of {units}, got {shorten(value)}"
    if v <= 0:
        return None, f"{what} must be > 0 (use \"wall\" for solid rock), got {shorten(value)}"
    if v > MAX_LENGTH:
        return None, f"{what} must be at most {MAX_LENGTH} {units}, got {shorten(value)}"
    return to_feet(v, units), None


def _is_path(template: str) -> bool:
    """A template named by its file (``.toml``, or a ``/`` in it) rather than a shipped name."""
    return template.endswith(".toml") or "/" in template or "\\" in template


def _same_file(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def load_map(path: str | Path, *, limits: Limits = Limits(), _chain: tuple[Path, ...] = ()) -> CaveGrid:
    """Load a map file (DESIGN §5). An encounter (or crawl) file whose ``map`` names another
    file loads that map; a chain of such files that comes back to one of its own (``a`` names
    ``a``, or ``a`` -> ``b`` -> ``a``) is refused. Raises :class:`DataError` listing every problem."""
    path = Path(path)
    me = _same_file(path)
    if me in _chain:
        start = _chain.index(me)
        loop = " -> ".join(p.name for p in _chain[start:]) + f" -> {path.name}"
        raise DataError(f"{_chain[-1]}: map refers to itself ({loop}); name a map file (one with [map])")
    data, text = read_toml(path)
    ref = None
    for table in ("encounter", "crawl"):
        if "map" not in data and isinstance(data.get(table), dict) and "map" in data[table]:
            ref = data[table]["map"]
            if not isinstance(ref, str):
                raise DataError(f"{path}: [{table}] map must be a file path string, got {shorten(ref)}")
            break
    if ref is not None:
        return load_map(path.parent / ref, limits=limits, _chain=_chain + (me,))
    return parse_map(data, text, path, limits=limits)


def parse_map(data: dict[str, Any], text: str, path: Path, *, limits: Limits = Limits()) -> CaveGrid:
    lines = TomlLines(text)
    problems: list[str] = []

    def bad(line: int | None, key: str, msg: str) -> None:
        problems.append(f"{located(path, line, key)}: {msg}")

    for key in data:
        if key not in _TOP_KEYS:
            bad(lines.table(key) or lines.key(key), key,
                f"unknown table or key; a map file has {', '.join('[' + k + ']' for k in ('map', 'legend', 'point', 'light'))}")

    m = data.get("map")
    if not isinstance(m, dict):
        raise DataError(f"{path}: missing [map] table; add [map] with name, units and grid (see README, map format)")
    map_line = lines.table("map")
    for key in m:
        if key not in _MAP_KEYS:
            bad(lines.key(key, after=map_line), f"[map] {key}", f"unknown key; allowed: {', '.join(sorted(_MAP_KEYS))}")

    name = m.get("name", path.stem)
    if not isinstance(name, str):
        bad(lines.key("name", after=map_line), "[map] name", f"must be a string, got {shorten(name)}")
        name = path.stem
    description = m.get("description", "")
    if not isinstance(description, str):
        bad(lines.key("description", after=map_line), "[map] description", "must be a string")
        description = ""
    units = m.get("units", "ft")
    if units not in UNITS:
        bad(lines.key("units", after=map_line), "[map] units", f"unknown units {shorten(units)}; use \"ft\" or \"m\"")
        units = "ft"

    has_grid = "grid" in m
    has_layers = "layers" in m
    grid_arrays = None
    glyph_idx = None
    legend: dict[str, Terrain] = {}
    if has_grid and has_layers:
        bad(lines.key("layers", after=map_line), "[map] layers", "give either grid (with [legend]) or layers, not both")
    elif not has_grid and not has_layers:
        bad(map_line, "[map]", "no grid: add grid = \"\"\"...\"\"\" with a [legend], or layers = \"file.npz\"")
    elif has_layers:
        grid_arrays = load_layers(path, m["layers"], units, lines.key("layers", after=map_line), limits, bad)
    else:
        legend, grid_arrays, glyph_idx = _parse_ascii(path, data, m, units, lines, limits, bad)

    points = _parse_points(data.get("point", []), lines, grid_arrays, bad)
    lights = parse_lights(data.get("light", []), lines, grid_arrays, bad)
    image = None
    if "image" in m:
        image = check_image(path, m["image"], lines.key("image", after=map_line), grid_arrays, bad)

    if problems:
        raise DataError.collect(problems)
    assert grid_arrays is not None
    w, h, d, rock, door, edges = grid_arrays
    return CaveGrid.from_arrays(
        w, h, difficult=d, rock=rock, name=name, points=points, description=description,
        source=str(path), units=units, glyphs=glyph_idx, legend=legend, door=door, lights=lights, image=image,
        **edges,
    )


def _parse_ascii(path, data, m, units, lines, limits, bad):
    grid_text = m["grid"]
    grid_line = lines.grid_first_row()
    if not isinstance(grid_text, str):
        bad(lines.key("grid"), "[map] grid", "must be a multi-line string of glyphs (grid = \"\"\"...\"\"\")")
        return {}, None, None
    rows = [r.rstrip("\r") for r in grid_text.split("\n")]
    while rows and rows[-1].strip() == "":
        rows.pop()
    while rows and rows[0].strip() == "":
        rows.pop(0)
        grid_line = grid_line + 1 if grid_line else None
    if not rows:
        bad(grid_line, "[map] grid", "is empty; draw the cave one row per line")
        return {}, None, None

    legend_raw = data.get("legend")
    legend_line = lines.table("legend")
    legend: dict[str, Terrain] = {}
    if not isinstance(legend_raw, dict) or not legend_raw:
        bad(legend_line, "[legend]", "missing legend; add [legend] mapping each glyph to \"wall\" or "
            "{ width = FT, height = FT }")
        legend_raw = {}
    for glyph, spec in legend_raw.items():
        key = f"[legend] {shorten(glyph)}"
        gl = lines.key(glyph, after=legend_line)
        if len(glyph) != 1:
            bad(gl, key, "a glyph must be exactly one character")
            continue
        if isinstance(spec, str):
            if spec.lower() in WALL_WORDS:
                legend[glyph] = Terrain(0.0, 0.0, rock=True)
            else:
                bad(gl, key, f"unknown terrain {shorten(spec)}; use \"wall\" or {{ width = FT, height = FT }}")
            continue
        if not isinstance(spec, dict):
            bad(gl, key, f"must be \"wall\" or {{ width = FT, height = FT, difficult = false }}, got {shorten(spec)}")
            continue
        ok = True
        for k in spec:
            if k not in _LEGEND_KEYS:
                bad(gl, f"{key}.{k}", f"unknown key; allowed: {', '.join(sorted(_LEGEND_KEYS))}")
                ok = False
        vals = {}
        for k in ("width", "height"):
            if k not in spec:
                bad(gl, key, f"missing {k} (in {units})")
                ok = False
                continue
            ft, err = _length(spec[k], f"{k}", units)
            if err:
                bad(gl, f"{key}.{k}", err)
                ok = False
            vals[k] = ft
        diff = spec.get("difficult", False)
        if not isinstance(diff, bool):
            bad(gl, f"{key}.difficult", f"must be true or false, got {shorten(diff)}")
            ok = False
        if ok:
            legend[glyph] = Terrain(vals["width"], vals["height"], difficult=diff)

    ncols = len(rows[0])
    nrows = len(rows)
    if ncols > limits.max_cols or nrows > limits.max_rows:
        bad(grid_line, "[map] grid", f"is {ncols}x{nrows} squares, over the limit of "
            f"{limits.max_cols}x{limits.max_rows}; split the map or raise the limit with --max-map-size")
        return legend, None, None
    ragged = False
    unknown: dict[str, tuple[int, int, int | None]] = {}
    for i, row in enumerate(rows):
        line = grid_line + i if grid_line else None
        if len(row) != ncols:
            bad(line, f"[map] grid row {i}", f"has {len(row)} squares but the first row has {ncols}; "
                "every row must be the same length")
            ragged = True
        for j, ch in enumerate(row):
            if ch not in legend and ch not in legend_raw and ch not in unknown:
                unknown[ch] = (j, i, line)
    for ch, (x, y, line) in unknown.items():
        bad(line, f"[map] grid ({x}, {y})", f"unknown glyph {shorten(ch)}; add it to [legend] or use one of "
            f"{''.join(sorted(legend_raw)) or '(none)'}")
    if ragged or unknown or len(legend) != len(legend_raw):
        return legend, None, None

    glyphs = list(legend)
    index = {g: k for k, g in enumerate(glyphs)}
    idx = np.array([[index[ch] for ch in row] for row in rows], dtype=np.uint8)
    width = np.array([legend[g].width for g in glyphs])[idx]
    height = np.array([legend[g].height for g in glyphs])[idx]
    diff = np.array([legend[g].difficult for g in glyphs])[idx]
    rock = np.array([legend[g].rock for g in glyphs])[idx]
    return legend, (width, height, diff, rock, None, {}), idx


def _parse_points(raw: Any, lines: TomlLines, grid_arrays, bad) -> dict[str, tuple[int, int]]:
    points: dict[str, tuple[int, int]] = {}
    if not isinstance(raw, list):
        bad(lines.table("point"), "[[point]]", "points are written as [[point]] tables with name and at = [x, y]")
        return points
    for k, p in enumerate(raw):
        key = f"[[point]] #{k + 1}"
        line = None
        if not isinstance(p, dict):
            bad(line, key, "must be a table with name and at")
            continue
        name = p.get("name")
        if isinstance(name, str):
            line = lines.key("name", after=None) and _find_point_line(lines, name)
            key = f"[[point]] {shorten(name)}"
        else:
            bad(line, key, f"needs a name string, got {shorten(name)}")
            continue
        at = p.get("at")
        if (not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
            bad(line, f"{key}.at", f"must be [x, y] with whole numbers, got {shorten(at)}")
            continue
        if name in points:
            bad(line, key, "duplicate point name; names must be unique")
            continue
        if grid_arrays is not None:
            rock = grid_arrays[3]
            x, y = at
            if not (0 <= y < rock.shape[0] and 0 <= x < rock.shape[1]):
                bad(line, f"{key}.at", f"({x}, {y}) is off the map ({rock.shape[1]}x{rock.shape[0]})")
                continue
            if rock[y, x]:
                bad(line, f"{key}.at", f"({x}, {y}) is solid rock; put the point on a floor square")
                continue
        points[name] = (int(at[0]), int(at[1]))
    return points


def _find_point_line(lines: TomlLines, name: str) -> int | None:
    pat = re.compile(r"^\s*name\s*=\s*[\"']" + re.escape(name) + r"[\"']")
    for i, line in enumerate(lines.lines, 1):
        if pat.match(line):
            return i
    return None


# =================================================================================================
# Encounters (DESIGN §5)
# =================================================================================================

