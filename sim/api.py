"""cavesim from Python: the calls a notebook makes, each a thin wrapper over the module the
command line uses, so a notebook and ``cavesim`` give the same answers for the same inputs.

Import it as ``import sim.api as cs`` (``import sim`` alone stays light, for the command line's
fast start; this module loads numpy, numba and scipy)::

    import sim.api as cs

    grid = cs.load_map("maps/warrens.toml")                 # or cs.import_map("cave.dd2vtt")
    cats = cs.classify(grid, cs.body("large"))               # a Category per square
    route = cs.path(grid, (2, 2), (20, 8), creature="ogre")  # steps, feet, rounds
    spec = cs.load_encounter("maps/demo.toml")
    fight = cs.play(spec, seed=1)                            # fight.events, fight.winner
    table = cs.batch(spec, runs=20, vary=["party.size=2,3"])      # a DataFrame with pandas, else dicts
    odds = cs.odds(spec, table)                              # win rates with 95% intervals
    chokes = cs.chokepoints(grid)                            # width, ceiling, the areas joined
    trip = cs.crawl("maps/crawl_warrens.toml")               # the crawl's route, timeline, fights

Bad input raises :class:`~sim.base.errors.DataError` (a file's problems, each with its line) or
:class:`~sim.base.errors.UsageError` (an argument), the messages the command line prints.
Positions are ``(x, y)``: column, row from the top left, as everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import numpy as np

from sim.analysis import batch as _batch
from sim.analysis import summary as _summary
from sim.analysis.chokepoints import Chokepoint, find_chokepoints
from sim.analysis.mapfacts import MapAnalysis, analyze_map, size_subjects, template_subject
from sim.analysis.sweep import parse_vary, variants
from sim.base.errors import DataError, UsageError
from sim.crawl.records import CrawlResult
from sim.crawl.run import run_crawl
from sim.engine.encounter import Encounter
from sim.engine.events import Event
from sim.engine.fight import run_fight
from sim.maps.importers import VTT_SUFFIXES, importer_for
from sim.maps.importers.common import DEFAULT_CEILING_FT, DEFAULT_FEET_PER_SQUARE, ImportOptions
from sim.maps.importers.image import read_image_grid
from sim.maps.importers.tiled import read_tiled_grid
from sim.maps.importers.vtt import import_file
from sim.maps.limits import Limits
from sim.maps.read import load_map as _load_map
from sim.maps.write import Written, write_map
from sim.rules.armor import must_remove
from sim.rules.bodies import Body, body_for, swarm_body
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.rules.statblocks import StatBlock, load_template, without_armor
from sim.scenario.files import load_crawl
from sim.scenario.files import load_encounter as _load_encounter
from sim.scenario.specs import EncounterSpec
from sim.story.log import Narrator, display_names
from sim.terrain.classify import category_counts
from sim.terrain.classify import classify as _classify
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, Path as MovePath, Reach, find_path, move_field
from sim.terrain.movement import reach as _reach
from sim.terrain.movement.armored import ArmoredRoute, armored_route, shed_squares

__all__ = [
    "CaveGrid", "Category", "Body", "EncounterSpec", "Encounter", "Event", "CrawlResult", "Chokepoint",
    "MapAnalysis", "DataError", "UsageError",
    "load_map", "import_map", "save_map", "body", "classify", "counts", "mover", "path", "reach",
    "load_encounter", "play", "narrate", "batch", "odds", "analyze", "chokepoints", "crawl",
]

SMALL_SPEED_FT = 20
DEFAULT_SPEED_FT = 30


def load_map(path: str | Path, *, max_size: str | None = None) -> CaveGrid:
    """A cavesim map file (TOML, legend or layers; an encounter file gives its map).

    >>> grid = load_map("maps/warrens.toml")
    >>> grid.cols, grid.rows, grid.name
    (48, 32, 'The Warrens')

    ``max_size``: refuse maps larger than ``"COLSxROWS"`` (default 4096x4096), as ``--max-map-size``.
    """
    return _load_map(Path(path), limits=Limits.parse(max_size) if max_size else Limits())


def import_map(path: str | Path, *, feet_per_square: float = DEFAULT_FEET_PER_SQUARE,
               ceiling_ft: float = DEFAULT_CEILING_FT, points: dict[str, tuple[int, int]] | None = None,
               px_per_square: int = 1) -> CaveGrid:
    """Another tool's map as a grid, as ``cavesim import`` reads it (no file is written; see
    :func:`save_map`): a Universal VTT export (``.dd2vtt``, ``.df2vtt``, ``.uvtt``: widths measured
    from the walls, ``ceiling_ft`` everywhere), a Tiled map (``.tmx``, ``.tmj``) or a picture map
    (``.png``, ``px_per_square`` pixels a square). ``points``: named squares to add.

    >>> grid = import_map("tests/data/uvtt/oganm-test.dd2vtt", points={"entrance": (3, 3)})
    >>> grid.cols, grid.rows, grid.points["entrance"]
    (20, 20, (3, 3))
    """
    path = Path(path)
    module = importer_for(path)   # an unknown suffix: a DataError naming those it reads
    if path.suffix.lower() in VTT_SUFFIXES:
        grid = import_file(path, ImportOptions(feet_per_square=feet_per_square, ceiling_ft=ceiling_ft,
                                               points=dict(points or {}))).grid
    elif module.endswith("tiled"):
        grid = read_tiled_grid(path)
    else:
        grid = read_image_grid(path, k=px_per_square)[0]
    if points and path.suffix.lower() not in VTT_SUFFIXES:
        for name, (x, y) in points.items():
            if not grid.in_bounds((x, y)) or grid.rock[y, x]:
                raise UsageError(f"point {name}: ({x}, {y}) is off the map or rock; give a floor square")
        grid = grid.replace(points={**grid.points, **points})
    return grid


def save_map(grid: CaveGrid, out: str | Path, *, fmt: str = "auto") -> Written:
    """Write ``grid`` as a cavesim map (``fmt``: ``"legend"``, ``"layers"`` or ``"auto"``), with
    its ``.npz`` layers and picture beside it when it has them, as ``cavesim import`` does."""
    return write_map(grid, Path(out), fmt=fmt, comment="Written by sim.api.save_map.")


def body(size: str | None = None, *, creature: str | None = None, swarm: bool = False,
         form: str = "tall", height: float | None = None) -> Body:
    """The body the rules measure (RULES §2): a size's (``"large"``), a swarm of ``size``
    components (``swarm=True``), or a stat block's (``creature="ogre"``).

    >>> body("large").space, body(creature="ogre").size.key, body("tiny", swarm=True).opening is not None
    (10.0, 'large', True)
    """
    if (size is None) == (creature is None):
        raise UsageError("give a size (e.g. 'medium') or creature= a stat block name, not both")
    if creature is not None:
        block = load_template(creature)
        return swarm_body(block.swarm.component) if block.is_swarm else block.body
    try:
        s = Size.parse(size)
    except KeyError as exc:
        raise UsageError(f"size: {exc.args[0]}") from None
    if swarm:
        if s > Size.TINY:
            raise UsageError(f"a swarm needs components of fine, diminutive or tiny size, not {s.key}")
        return swarm_body(s)
    return body_for(s, form=form, height=height)


def classify(grid: CaveGrid, body: Body) -> np.ndarray:
    """Every square's constricted-space category for ``body`` (RULES §3): an array of
    :class:`Category` values, rows by columns (rock squares are ``IMPASSABLE``).

    >>> g = load_map("maps/warrens.toml")
    >>> cats = classify(g, body("medium"))
    >>> cats.shape == (g.rows, g.cols), Category(cats[g.points["entrance"][::-1]]).name
    (True, 'CLEAR')
    """
    return np.where(grid.rock, np.uint8(Category.IMPASSABLE), _classify(grid, body))


def counts(grid: CaveGrid, body: Body) -> dict[Category, int]:
    """Floor squares per category for ``body`` (what ``cavesim classify`` counts)."""
    return category_counts(classify(grid, body)[~grid.rock])


def mover(size: str | None = None, *, creature: str | None = None, speed: int | None = None,
          escape_artist: int | None = None, in_combat: bool = False, fly: bool = False) -> Mover:
    """Who moves (RULES §6): a size's default body (speed 30 ft, 20 for Small) or a stat block's
    body, speed and Escape Artist; ``in_combat`` rolls Escape Artist (no take 10 or 20).

    >>> mover(creature="ogre").speed_ft, mover("small").speed_ft
    (30, 20)
    """
    return _mover(_block(creature), size, speed=speed, escape_artist=escape_artist, in_combat=in_combat, fly=fly)


def _block(creature: str | None) -> StatBlock | None:
    return load_template(creature) if creature is not None else None


def _mover(block: StatBlock | None, size: str | None, *, speed: int | None, escape_artist: int | None,
           in_combat: bool, fly: bool) -> Mover:
    """As ``cavesim path`` builds its mover (sim/cli/move.py), from a stat block or a size."""
    if block is not None:
        if size is not None:
            raise UsageError("give a size or creature=, not both")
        sp = block.speed
        flying = bool(sp.fly) and (block.is_swarm or sp.fly > sp.land)
        default_speed, default_ea = (sp.fly if flying else sp.land), block.escape_artist
        b = swarm_body(block.swarm.component) if block.is_swarm else block.body
    else:
        b = body(size)
        flying = False
        default_speed = SMALL_SPEED_FT if b.size is Size.SMALL else DEFAULT_SPEED_FT
        default_ea = 0
    ft = int(default_speed) if speed is None else speed
    if ft < 0 or ft % 5:
        raise UsageError(f"speed must be a non-negative multiple of 5 ft, got {ft}")
    ea = int(default_ea) if escape_artist is None else escape_artist
    m = Mover(b, speed_ft=ft, escape_artist=ea, flying=fly or flying,
              tunnelrunner=bool(block is not None and block.has_feat("tunnelrunner")))
    return m.in_combat() if in_combat else m


def _armour(block: StatBlock | None, size: str | None, **how: Any):
    """(armour, the mover once it is off) for a stat block whose medium or heavy armour must come
    off before a crawlway, awkward space or tight squeeze (RULES §2.4), else None."""
    if block is None or block.is_swarm or not must_remove(block):
        return None
    return block.armor, _mover(without_armor(block, drop_shield=True), size, **{**how, "speed": None,
                                                                                  "escape_artist": None})


def _square(grid: CaveGrid, pos: tuple[int, int], what: str) -> tuple[int, int]:
    x, y = int(pos[0]), int(pos[1])
    if not grid.in_bounds((x, y)):
        raise UsageError(f"{what} {x},{y} is off the map ({grid.cols}x{grid.rows} squares)")
    if grid.rock[y, x]:
        raise UsageError(f"{what} {x},{y} is solid rock; choose a floor square")
    return (x, y)


def path(grid: CaveGrid, start: tuple[int, int], goal: tuple[int, int], size: str | None = None, *,
         creature: str | None = None, speed: int | None = None, escape_artist: int | None = None,
         in_combat: bool = False, fly: bool = False) -> MovePath | ArmoredRoute:
    """The fastest path (RULES §6), as ``cavesim path``: ``.reachable``, ``.squares``, ``.steps``
    (category, kind, feet, move action), ``.rounds``, ``.expected_rounds``, ``.to_json()``. A
    ``creature`` in medium or heavy armour takes it off before the tight places (an ``armor_off``
    step) or goes round.

    >>> g = load_map("maps/warrens.toml")
    >>> p = path(g, g.points["entrance"], g.points["lair"], "medium")
    >>> p.reachable, p.feet > 0
    (True, True)
    """
    block = _block(creature)
    how = dict(speed=speed, escape_artist=escape_artist, in_combat=in_combat, fly=fly)
    a, b = _square(grid, start, "start"), _square(grid, goal, "goal")
    m = _mover(block, size, **how)
    armour = _armour(block, size, **how)
    if armour is not None:
        return armored_route(grid, m, armour[1], armour[0], a, b)
    return find_path(move_field(grid, m), a, b)


def reach(grid: CaveGrid, start: tuple[int, int], size: str | None = None, *, creature: str | None = None,
          speed: int | None = None, escape_artist: int | None = None, in_combat: bool = False,
          fly: bool = False) -> Reach:
    """The squares reachable this turn (RULES §6.3), as ``cavesim reach``: ``.single`` (one move
    action) and ``.double`` (a double move), ``.to_json()``. A ``creature`` in medium or heavy
    armour reaches no square that needs it off (that takes 10 rounds or more).

    >>> g = load_map("maps/warrens.toml")
    >>> r = reach(g, g.points["entrance"], "medium")
    >>> len(r.to_json()["single"]) < len(r.to_json()["double"])
    True
    """
    block = _block(creature)
    how = dict(speed=speed, escape_artist=escape_artist, in_combat=in_combat, fly=fly)
    a = _square(grid, start, "start")
    field = move_field(grid, _mover(block, size, **how))
    if _armour(block, size, **how) is not None:
        return _reach(field, a, blocked=shed_squares(field))
    return _reach(field, a)


def load_encounter(path: str | Path) -> EncounterSpec:
    """An encounter file (its map, combatants, seed, settings), checked as ``cavesim validate``
    checks it.

    >>> spec = load_encounter("maps/demo.toml")
    >>> sorted({c.team for c in spec.combatants})
    ['monsters', 'party']
    """
    return _load_encounter(Path(path))


def play(encounter: EncounterSpec | str | Path, *, seed: int | None = None) -> Encounter:
    """Play one fight with the AI to its end, as ``cavesim fight``: the fight's ``.events`` (typed
    records, ``.to_json()`` each), ``.winner`` (a team, or None for a draw), ``.round`` and
    ``.creatures``. Same encounter, same seed: the same fight.

    >>> fight = play("maps/demo.toml", seed=3)
    >>> fight.winner in ("party", "monsters", None), fight.events[0].type
    (True, 'encounter_start')
    """
    spec = encounter if isinstance(encounter, EncounterSpec) else load_encounter(encounter)
    if seed is not None and seed < 0:
        raise UsageError(f"seed must be a whole number >= 0, got {seed}")
    return run_fight(spec, seed=seed)


def narrate(fight: Encounter, events: Iterable[Event] | None = None) -> list[str]:
    """The fight's log as ``cavesim fight`` prints it, one line a list item (every roll with its
    modifiers); ``events``: some of them only (default all)."""
    return Narrator(display_names(fight.creatures.values())).lines(fight.events if events is None else events)


def _variants(spec: EncounterSpec, vary: Iterable[str]) -> list[tuple[str, EncounterSpec]]:
    return variants(spec, [parse_vary(v) for v in vary])


def batch(encounter: EncounterSpec | str | Path, runs: int, *, seed: int | None = None,
          vary: Iterable[str] = (), workers: int = 1, frame: bool = True) -> Any:
    """A Monte Carlo batch, as ``cavesim fight --runs N [--vary KEY=V1,V2]``: one record per fight
    (its variant, index, seed, winner, rounds, each team's and creature's end), in the order of
    the records file. A pandas ``DataFrame`` when pandas is installed (and ``frame``), else a list
    of dicts. The same seed gives the same records, whatever ``workers``.

    >>> rows = batch("maps/demo.toml", runs=2, seed=1, frame=False)
    >>> [r["index"] for r in rows], sorted(rows[0])[:3]
    ([0, 1], ['alive.monsters', 'alive.party', 'at.bruna'])
    """
    spec = encounter if isinstance(encounter, EncounterSpec) else load_encounter(encounter)
    if runs < 1:
        raise UsageError(f"runs must be at least 1, got {runs}")
    var = _variants(spec, vary)
    labels = [label for label, _ in var]
    jobs = _batch.plan(labels, runs, spec.seed if seed is None else seed)
    records = _batch.run_batch(var, jobs, workers=max(1, workers))
    records.sort(key=_batch.sort_key({label: i for i, label in enumerate(labels)}))
    if not frame:
        return records
    try:
        import pandas
    except ImportError:
        return records
    return pandas.DataFrame.from_records(records, columns=_batch.columns([s for _, s in var]))


def odds(encounter: EncounterSpec | str | Path, records: Any, *, vary: Iterable[str] = ()) -> list[dict]:
    """The summary ``cavesim fight --runs`` prints, one dict per variant (as its ``--json``): fights,
    win rates of each team with 95% Wilson intervals, rounds, each creature's survival, the
    party's odds. ``records``: what :func:`batch` returned; ``vary``: the same as given to it.

    >>> spec = load_encounter("maps/demo.toml")
    >>> (row,) = odds(spec, batch(spec, runs=3, seed=1))
    >>> row["fights"], sorted(row["wins"])
    (3, ['monsters', 'party'])
    """
    spec = encounter if isinstance(encounter, EncounterSpec) else load_encounter(encounter)
    rows = records.to_dict("records") if hasattr(records, "to_dict") else list(records)
    rows = [{k: v for k, v in r.items() if not (isinstance(v, float) and v != v)} for r in rows]
    var = _variants(spec, vary)
    specs = [s for _, s in var]
    sums = _summary.summarize(rows, [label for label, _ in var], _batch.columns(specs), spec.grid.shape,
                              members=_batch.members(specs), encounter=str(spec.path))
    return [s.to_json() for s in sums]


def analyze(grid: CaveGrid, *, sizes: Iterable[str] | None = None, creatures: Iterable[str] = (),
            entrances: Iterable[str] | None = None, min_area: int = 6) -> MapAnalysis:
    """The designer's report, as ``cavesim analyze`` (no files written): ``.facts`` (regions,
    chokepoints with what each costs and whom it stops, travel times between named points; the
    JSON of ``--json``) for every size (or ``sizes``) and each stat block in ``creatures``.

    >>> m = analyze(load_map("maps/warrens.toml"), sizes=["medium", "large"])
    >>> [s["key"] for s in m.facts["subjects"]]
    ['medium', 'large']
    """
    subjects = size_subjects(list(sizes)) if sizes is None or list(sizes) else []
    subjects += [template_subject(name) for name in creatures]
    if not subjects:
        raise UsageError("nothing to analyse: give sizes or creatures")
    return analyze_map(grid, subjects=subjects, min_area=min_area,
                       entrances=list(entrances) if entrances is not None else None)


def chokepoints(grid: CaveGrid, *, min_area: int = 6) -> tuple[Chokepoint, ...]:
    """The chokepoints of a map, each the narrowest crossing of a passage (docs/analysis.md): each
    one's ``.id``, ``.at``, ``.squares``, ``.width_ft``, ``.ceiling_ft`` and ``.joins`` (the areas
    it joins).

    >>> c = chokepoints(load_map("maps/warrens.toml"))[0]
    >>> c.id, len(c.joins)
    ('C1', 2)
    """
    if min_area < 1:
        raise UsageError(f"min_area must be at least 1, got {min_area}")
    return find_chokepoints(grid, min_area=min_area).chokepoints


def crawl(path: str | Path, *, party: list[str] | None = None, start: str | None = None,
          goal: str | None = None, seed: int | None = None) -> CrawlResult:
    """A party's journey through the cave, as ``cavesim crawl``: a crawl file, or a map with the
    ``party`` (stat block names) and the named points ``start`` and ``goal``. The result's
    ``.route``, ``.timeline``, ``.arrived``, ``.left_behind``, ``.minutes``, ``.fights`` and
    ``.events``.

    >>> trip = crawl("maps/warrens.toml", party=["human-fighter-3"], start="entrance", goal="lair", seed=1)
    >>> trip.arrived, trip.minutes > 0
    (('human-fighter-3',), True)
    """
    return run_crawl(load_crawl(Path(path), party=party, start=start, goal=goal, seed=seed))
