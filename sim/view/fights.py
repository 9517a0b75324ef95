"""Where a fight to show comes from (no pygame): one simulated here, one recorded in an events
file (and the map it was played on), or the crawl's cast. The renderer builds its scenes from
what these return; every fact in them is the engine's (its events, its ``encounter_start``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sim.base.errors import DataError
from sim.base.fileio import read_toml
from sim.base.paths import maps_dir
from sim.engine import events as ev
from sim.engine.fight import new_encounter
from sim.engine.opening import opening
from sim.engine.world import World
from sim.maps.limits import Limits
from sim.maps.read import load_map
from sim.scenario.files import load_encounter
from sim.scenario.specs import EncounterSpec


def simulate(spec: EncounterSpec, *, seed: int | None = None):
    """Play the whole fight with the AI; returns (encounter, events)."""
    enc = new_encounter(spec, seed=seed)
    events = enc.run()
    return enc, list(events)


def fight_title(spec: EncounterSpec) -> tuple[str, str]:
    """The title and subtitle a fight's cards show: the encounter's, else its map's."""
    return spec.name or spec.grid.name, spec.description or spec.grid.description


def crawl_start_event(result) -> tuple[ev.EncounterStart, World]:
    """Everyone of the crawl as an ``encounter_start`` event: the party at the start, the
    monsters where the crawl file puts them (what the view model and the shadow world are built
    from). Returns (the event, the engine world it describes: placed, never started)."""
    return opening(crawl_encounter_spec(result))


def crawl_encounter_spec(result) -> EncounterSpec:
    """The crawl's party (at the start) and monsters as one encounter spec."""
    spec = result.spec
    party = tuple(dataclasses.replace(m, at=spec.start, team="party") for m in spec.party)
    return EncounterSpec(name=spec.name, path=spec.path, grid=spec.grid, seed=spec.seed,
                         combatants=party + tuple(spec.monsters), settings=dict(spec.settings))


def load_replay(path: str | Path) -> list[ev.Event]:
    """The events of a recorded fight (``cavesim fight --events FILE``); refused when empty."""
    events = list(ev.read_jsonl(path))
    if not events:
        raise DataError(f"{path}: the fight log is empty; write one with cavesim fight ENCOUNTER --events FILE")
    return events


def find_map_for(events: list[ev.Event], given: str | None, limits: Limits | None = None):
    """The map of a recorded fight: the file given (a map or an encounter), else the shipped map
    with the recorded name; its size must be the recorded one (every square of the log is on
    it). Returns (grid, base_path, title, subtitle)."""
    found = _find_map_for(events, given, limits)
    grid, start = found[0], events[0]
    if (grid.cols, grid.rows) != (start.cols, start.rows):
        raise DataError(f"{found[1]}: its map is {grid.cols}x{grid.rows} squares, but the fight log was played on "
                        f"a {start.cols}x{start.rows} map; give the map or encounter file the fight was played on")
    return found


def _find_map_for(events: list[ev.Event], given: str | None, limits: Limits | None = None):
    limits = limits or Limits()
    start = events[0]
    if given:
        p = Path(given)
        data, _ = read_toml(p)
        if "encounter" in data:
            spec = load_encounter(p, limits=limits, check=False)
            return spec.grid, spec.path, spec.name, spec.description
        grid = load_map(p, limits=limits)
        return grid, str(p), grid.name, grid.description
    name = getattr(start, "map", "")
    for f in sorted(maps_dir().glob("*.toml")):
        try:
            data, _ = read_toml(f)
        except DataError:
            continue
        m = data.get("map")
        if isinstance(m, dict) and m.get("name") == name:
            if "encounter" in data:
                spec = load_encounter(f, limits=limits, check=False)
                return spec.grid, spec.path, spec.name, spec.description
            grid = load_map(f, limits=limits)
            if (grid.cols, grid.rows) == (start.cols, start.rows):
                return grid, str(f), grid.name, grid.description
    raise DataError(f"the fight log was played on the map {name!r}, which is not a shipped map; "
                    "give its map or encounter file: cavesim play --replay EVENTS.jsonl MAP.toml")
