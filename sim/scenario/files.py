"""Reading the user's encounter and crawl files into the records of :mod:`sim.scenario.specs`
(the bytes are read by :func:`sim.base.fileio.read_toml`; the map they name by :mod:`sim.maps.read`).

Everything read here is validated at the boundary (STYLE habit 8). Every problem becomes one
line that names the file, the line or key, and the fix; all problems of a file are collected
before a :class:`~sim.base.errors.DataError` is raised, so ``cavesim validate`` can list them all.
Nothing in a file is ever executed: TOML is parsed with ``tomllib``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from sim.base.errors import DataError, shorten
from sim.base.fileio import TomlLines, located, read_toml
from sim.engine.setup import build_creature, check_placement
from sim.maps.limits import Limits
from sim.maps.read import _is_path, _same_file, load_map, parse_map
from sim.rules.weapons import gear_table
from sim.scenario.specs import (
    MAX_COMBATANTS,
    MAX_ITEMS,
    MAX_ROUND_CAP,
    MAX_SEED,
    SETTINGS_DEFAULTS,
    CombatantSpec,
    CrawlSpec,
    EncounterSpec,
)
from sim.terrain.grid import CaveGrid

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
# Crawl files (a party's journey, sim.crawl.run)
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
