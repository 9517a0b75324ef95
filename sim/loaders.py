"""Parsing the user's input files: maps, encounters and crawl files, into the records of
:mod:`sim.specs` (the bytes are read by :func:`sim.fileio.read_toml`).

Everything read here is validated at the boundary (STYLE habit 8). Every problem becomes one
line that names the file, the line or key, and the fix; all problems of a file are collected
before a :class:`~sim.errors.DataError` is raised, so ``cavesim validate`` can list them all.
Nothing in a file is ever executed: TOML is parsed with ``tomllib`` and ``.npz`` layers are
loaded with ``allow_pickle=False``.
"""

from __future__ import annotations

import dataclasses
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from sim.engine.setup import build_creature, check_placement
from sim.errors import DataError, shorten
from sim.fileio import TomlLines, located, read_toml
from sim.grid import CaveGrid, Terrain
from sim.maplayers import MAX_LENGTH, check_image, load_layers, number, parse_lights
from sim.rules.weapons import gear_table
from sim.specs import SETTINGS_DEFAULTS, CombatantSpec, CrawlSpec, EncounterSpec, Limits

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


MAX_SEED = 2 ** 64 - 1     # a seed
MAX_ROUND_CAP = 10_000     # rounds before a fight is called a draw
MAX_ITEMS = 1000           # of one item a combatant carries
MAX_COMBATANTS = 1000      # in one encounter or crawl


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
    w, h, d, rock, door = grid_arrays
    return CaveGrid.from_arrays(
        w, h, difficult=d, rock=rock, name=name, points=points, description=description,
        source=str(path), units=units, glyphs=glyph_idx, legend=legend, door=door, lights=lights, image=image,
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
    return legend, (width, height, diff, rock, None), idx


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

_ENCOUNTER_KEYS = {"map", "seed", "name", "description", "round_cap"}
_COMBATANT_KEYS = {"id", "template", "team", "at", "weapon", "off_hand", "items", "name", "book_values", "lit", "light"}


def load_encounter(path: str | Path, *, limits: Limits = Limits(), check: bool = True) -> EncounterSpec:
    """Load an encounter file: ``[encounter]`` (``map`` = a map file relative to this one, or an
    inline ``[map]``), ``[[combatant]]`` tables and optional ``[settings]``. With ``check`` the
    templates, weapons and items are resolved and every creature is checked to fit where it stands
    (``sim.engine.setup.check_placement``); every problem is reported at once."""
    path = Path(path)
    data, text = read_toml(path)
    lines = TomlLines(text)
    problems: list[str] = []

    def bad(line, key, msg):
        problems.append(f"{located(path, line, key)}: {msg}")

    enc = data.get("encounter")
    if not isinstance(enc, dict):
        raise DataError(f"{path}: missing [encounter] table; add [encounter] with seed (and map = \"file.toml\" "
                        "unless the map is in this file), then [[combatant]] tables")
    enc_line = lines.table("encounter")
    for key in enc:
        if key not in _ENCOUNTER_KEYS:
            bad(lines.key(key, after=enc_line), f"[encounter] {key}",
                f"unknown key; allowed: {', '.join(sorted(_ENCOUNTER_KEYS))}")
    if "map" in enc:
        if "map" in data:
            bad(lines.key("map", after=enc_line), "[encounter] map", "give either map = \"file\" or an inline [map], not both")
            grid = None
        elif not isinstance(enc["map"], str):
            bad(lines.key("map", after=enc_line), "[encounter] map", f"must be a file path string, got {shorten(enc['map'])}")
            grid = None
        else:
            try:
                grid = load_map(path.parent / enc["map"], limits=limits, _chain=(_same_file(path),))
            except DataError as exc:
                problems.extend(exc.problems)
                grid = None
    elif "map" in data:
        try:
            grid = parse_map(data, text, path, limits=limits)
        except DataError as exc:
            problems.extend(exc.problems)
            grid = None
    else:
        bad(enc_line, "[encounter] map", "no map: add map = \"cave.toml\" (relative to this file) or an inline [map]")
        grid = None
    seed = enc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        bad(lines.key("seed", after=enc_line), "[encounter] seed", f"must be a whole number from 0 to 2^64 - 1, got {shorten(seed)}")
        seed = 0
    settings = dict(SETTINGS_DEFAULTS)
    raw_settings = data.get("settings", {})
    if not isinstance(raw_settings, dict):
        bad(lines.table("settings"), "[settings]", "must be a table")
        raw_settings = {}
    if "round_cap" in enc:
        raw_settings = {**raw_settings, "round_cap": enc["round_cap"]}
    for key, value in raw_settings.items():
        if key not in SETTINGS_DEFAULTS:
            bad(lines.key(key, after=lines.table("settings")), f"[settings] {key}",
                f"unknown setting; known: {', '.join(sorted(SETTINGS_DEFAULTS))}")
            continue
        default = SETTINGS_DEFAULTS[key]
        if type(value) is not type(default):
            bad(lines.key(key), f"[settings] {key}", f"must be {type(default).__name__}, got {shorten(value)}")
            continue
        settings[key] = value
    if settings["light_sensitivity"] not in ("daylight", "bright"):
        bad(lines.key("light_sensitivity"), "[settings] light_sensitivity",
            f"must be \"daylight\" or \"bright\", got {shorten(settings['light_sensitivity'])}")
    if settings["swarm_shape"] not in ("any", "square"):
        bad(lines.key("swarm_shape"), "[settings] swarm_shape", f"must be \"any\" or \"square\", got {shorten(settings['swarm_shape'])}")
    if not (isinstance(settings["round_cap"], int) and 1 <= settings["round_cap"] <= MAX_ROUND_CAP):
        bad(lines.key("round_cap"), "round_cap", f"must be a whole number from 1 to {MAX_ROUND_CAP}, "
            f"got {shorten(settings['round_cap'])}")

    combatants = _parse_combatants(data.get("combatant", []), lines, bad)
    if problems or grid is None:
        raise DataError.collect(problems or [f"{path}: the map could not be loaded"])
    spec = EncounterSpec(name=str(enc.get("name", grid.name)), path=str(path), grid=grid, seed=int(seed),
                         combatants=tuple(combatants), settings=settings,
                         description=str(enc.get("description", "")))
    if check:
        problems.extend(check_placement(spec))
        if problems:
            raise DataError.collect(problems)
    return spec


def _combatant_lines(lines: TomlLines) -> list[int]:
    pat = re.compile(r"^\s*\[\[\s*combatant\s*\]\]")
    return [i for i, line in enumerate(lines.lines, 1) if pat.match(line)]


def _parse_combatants(raw: Any, lines: TomlLines, bad) -> list[CombatantSpec]:
    out: list[CombatantSpec] = []
    if not isinstance(raw, list) or not raw:
        bad(lines.table("encounter"), "[[combatant]]", "an encounter needs at least one [[combatant]] "
            "with template, team and at = [x, y]")
        return out
    if len(raw) > MAX_COMBATANTS:
        bad(lines.table("combatant"), "[[combatant]]", f"{len(raw)} combatants, over the limit of {MAX_COMBATANTS}")
        return out
    starts = _combatant_lines(lines)
    counts: dict[str, int] = {}
    seen: set[str] = set()
    for k, c in enumerate(raw):
        line = starts[k] if k < len(starts) else None
        where = f"[[combatant]] #{k + 1}"
        if not isinstance(c, dict):
            bad(line, where, "must be a table")
            continue
        for key in c:
            if key not in _COMBATANT_KEYS:
                bad(line, f"{where} {key}", f"unknown key; allowed: {', '.join(sorted(_COMBATANT_KEYS))}")
        template = c.get("template")
        if not isinstance(template, str) or not template:
            bad(line, f"{where} template", "missing template: a stat block name (e.g. \"goblin\") or a TOML path")
            continue
        base = Path(template).stem if _is_path(template) else template
        cid = c.get("id")
        explicit = cid is not None
        if cid is None:
            counts[base] = counts.get(base, 0) + 1
            cid = f"{base}-{counts[base]}"
        if not isinstance(cid, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", cid):
            bad(line, f"{where} id", f"must be letters, digits, '-', '_' or '.', got {shorten(cid)}")
            continue
        if cid in seen:
            bad(line, f"{where} id", f"duplicate id {shorten(cid)}; ids must be unique")
            continue
        seen.add(cid)
        at = c.get("at")
        if (not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
            bad(line, f"[[combatant]] {shorten(cid)} at", f"must be [x, y] with whole numbers, got {shorten(at)}")
            continue
        if not all(0 <= v < 2 ** 31 for v in at):
            bad(line, f"[[combatant]] {shorten(cid)} at", f"must be a square of the map (x, y >= 0), got {shorten(at)}")
            continue
        team = c.get("team", "")  # "" = by the stat block's kind: "party" for PCs, else "monsters"
        if not isinstance(team, str):
            bad(line, f"[[combatant]] {shorten(cid)} team", f"must be a team name string, got {shorten(team)}")
            continue
        items_raw = c.get("items", {})
        items: list[tuple[str, int]] = []
        if isinstance(items_raw, list):
            items_raw = {str(i): 1 for i in items_raw}
        if not isinstance(items_raw, dict):
            bad(line, f"[[combatant]] {shorten(cid)} items", "must be a list of item names or a table name = count")
        else:
            for name, n in items_raw.items():
                if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_ITEMS:
                    bad(line, f"[[combatant]] {shorten(cid)} items.{shorten(name)}",
                        f"count must be a whole number from 0 to {MAX_ITEMS}, got {shorten(n)}")
                    continue
                items.append((str(name), int(n)))
        for key in ("weapon", "off_hand", "name"):
            if key in c and not isinstance(c[key], str):
                bad(line, f"[[combatant]] {shorten(cid)} {key}", f"must be a string, got {shorten(c[key])}")
        for key in ("book_values", "lit"):
            if key in c and not isinstance(c[key], bool):
                bad(line, f"[[combatant]] {shorten(cid)} {key}", f"must be true or false, got {shorten(c[key])}")
        light = c.get("light")
        if light is not None:
            sources = sorted(k for k, g in gear_table().items() if g.is_light_source)
            if not isinstance(light, str) or light not in sources:
                bad(line, f"[[combatant]] {shorten(cid)} light", f"unknown light source {shorten(light)}; use one of "
                    f"{', '.join(sources)} (a lit torch is lit = true)")
                light = None
        out.append(CombatantSpec(
            id=cid, template=template, team=team, at=(int(at[0]), int(at[1])),
            weapon=c.get("weapon") if isinstance(c.get("weapon"), str) else None,
            off_hand=c.get("off_hand") if isinstance(c.get("off_hand"), str) else None,
            items=tuple(items), name=c.get("name") if isinstance(c.get("name"), str) else None,
            book_values=bool(c.get("book_values", False)), lit=bool(c.get("lit", False)), line=line,
            light=light,
            explicit_id=explicit,
        ))
    return out


# =================================================================================================
# Crawl files (a party's journey, sim.crawl)
# =================================================================================================

def _point(grid: CaveGrid, text: str, what: str, where: str) -> tuple[int, int]:
    if text in grid.points:
        return tuple(grid.points[text])
    m = re.fullmatch(r"\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*", text)
    if m:
        p = (int(m.group(1)), int(m.group(2)))
        if not grid.in_bounds(p) or grid.rock[p[1], p[0]]:
            raise DataError(f"{where}: {what} {shorten(text)} is off the map or in rock")
        return p
    names = ", ".join(grid.points) or "(the map names none)"
    raise DataError(f"{where}: {what} {shorten(text)} is not a named point of {shorten(grid.name)}; use one of {names}, "
                    "or X,Y")


def load_crawl(path: str | Path, *, party: list[str] | None = None, start: str | None = None,
               goal: str | None = None, seed: int | None = None, limits: Limits = Limits()) -> CrawlSpec:
    """A crawl: a crawl file (``[crawl]`` with map, from, to, party, seed; monsters as
    ``[[combatant]]``) or a plain map file plus the party and points given as arguments."""
    path = Path(path)
    data, text = read_toml(path)
    lines = TomlLines(text)
    problems: list[str] = []
    crawl = data.get("crawl", {})
    if not isinstance(crawl, dict):
        raise DataError(f"{path}: [crawl] must be a table")
    if "map" in crawl:
        if not isinstance(crawl["map"], str):
            raise DataError(f"{path}: [crawl] map must be a file path string, got {shorten(crawl['map'])}")
        grid = load_map(path.parent / crawl["map"], limits=limits, _chain=(_same_file(path),))
    elif "map" in data:
        grid = load_map(path, limits=limits)
    elif isinstance(data.get("encounter"), dict):
        grid = load_map(path, limits=limits)
    else:
        raise DataError(f"{path}: no map: give [crawl] map = \"cave.toml\" or a map file")
    party_names = party if party is not None else crawl.get("party")
    if not party_names:
        raise DataError(f"{path}: no party: give --party T1,T2,... or [crawl] party = [\"human-fighter-3\", ...]")
    if not isinstance(party_names, list) or not all(isinstance(p, str) for p in party_names):
        raise DataError(f"{path}: [crawl] party must be a list of template names")
    if len(party_names) > MAX_COMBATANTS:
        raise DataError(f"{path}: a party of {len(party_names)}, over the limit of {MAX_COMBATANTS}")
    start_text = start if start is not None else crawl.get("from")
    goal_text = goal if goal is not None else crawl.get("to")
    where = str(path)
    if not start_text or not goal_text:
        raise DataError(f"{path}: give the start and the goal: --from POINT --to POINT (or [crawl] from/to)")
    s = _point(grid, str(start_text), "--from", where)
    g = _point(grid, str(goal_text), "--to", where)
    members = []
    counts: dict[str, int] = {}
    seen: set[str] = set()
    for name in party_names:
        if ":" in name:  # "bruna:human-fighter-3" names the member
            ident, template = (t.strip() for t in name.split(":", 1))
            if not ident or not template:
                problems.append(f"{path}: party member {shorten(name)}: write NAME:TEMPLATE with both parts "
                                "(e.g. bruna:human-fighter-3)")
                continue
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", ident):
                problems.append(f"{path}: party member {shorten(name)}: the name must be letters, digits, '-', '_' or '.'")
                continue
        elif not name.strip():
            problems.append(f"{path}: an empty party member; give template names separated by commas")
            continue
        else:
            template = name
            base = Path(template).stem if _is_path(template) else template
            counts[base] = counts.get(base, 0) + 1
            ident = base if counts[base] == 1 else f"{base}-{counts[base]}"
        if ident in seen:
            problems.append(f"{path}: party member {shorten(name)}: the name {shorten(ident)} is taken by another "
                            "member; names must be unique")
            continue
        seen.add(ident)
        members.append(CombatantSpec(id=ident, template=template, team="party", at=s, explicit_id=":" in name))
    monsters = []
    if "combatant" in data:
        monsters = [dataclasses.replace(m, team=m.team or "monsters")
                    for m in _parse_combatants(data["combatant"], lines, lambda line, key, msg:
                                               problems.append(f"{path}:{line or '?'}: {key}: {msg}"))]
    raw_seed = seed if seed is not None else crawl.get("seed", 0)
    the_seed = 0
    if isinstance(raw_seed, bool) or not isinstance(raw_seed, int) or not 0 <= raw_seed <= MAX_SEED:
        where_seed = "--seed" if seed is not None else located(path, lines.key("seed", after=lines.table("crawl")),
                                                              "[crawl] seed")
        problems.append(f"{where_seed}: must be a whole number from 0 to 2^64 - 1, got {shorten(raw_seed)}")
    else:
        the_seed = raw_seed
    ids = {m.id for m in members}
    for m in monsters:
        if m.id in ids:
            problems.append(f"{path}: [[combatant]] id {shorten(m.id)} is also a party member's name; ids must be unique")
    if problems:
        raise DataError.collect(problems)
    spec = CrawlSpec(name=str(crawl.get("name", f"{grid.name}: {start_text} to {goal_text}")), path=str(path),
                     grid=grid, party=tuple(members), start=s, goal=g, monsters=tuple(monsters), seed=the_seed,
                     start_name=str(start_text), goal_name=str(goal_text))
    _check_crawl(spec)
    return spec


def _check_crawl(spec: CrawlSpec) -> None:
    """Every party member can be built, and every monster fits where it stands."""
    problems = []
    for m in spec.party:
        try:
            build_creature(m, spec.path)
        except DataError as exc:
            problems.extend(f"{spec.path}: party member {shorten(m.template)}: {p}" for p in exc.problems)
    if spec.monsters:
        enc = EncounterSpec(name=spec.name, path=spec.path, grid=spec.grid, seed=spec.seed,
                            combatants=spec.monsters, settings=dict(spec.settings))
        problems.extend(check_placement(enc))
    if problems:
        raise DataError.collect(problems)
