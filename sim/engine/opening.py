"""The ``encounter_start`` event: a fight's map and everyone on it as they stand before
initiative, built in one place for the fight itself (:meth:`Encounter.start
<sim.engine.encounter.Encounter.start>`) and for whoever shows a fight not played here (the
crawl's view: its party and monsters together, never started).

Nothing here rolls a die: building the world places the creatures (docs/rules.md §2.4), and the
event describes each with :func:`sim.engine.setup.describe` (its light and lit torch included,
what the renderer's lighting reads).
"""

from __future__ import annotations

from sim.engine.events import EncounterStart
from sim.engine.setup import describe
from sim.engine.world import World
from sim.scenario.specs import EncounterSpec


def start_event(w: World) -> EncounterStart:
    """The ``encounter_start`` event of ``w`` as it stands: the map, the seed and every creature."""
    return EncounterStart(round=0, map=w.grid.name, seed=w.seed, cols=w.grid.cols, rows=w.grid.rows,
                          combatants=tuple(describe(c) for c in w.creatures.values()))


def opening(spec: EncounterSpec) -> tuple[EncounterStart, World]:
    """The ``encounter_start`` event of a fight of ``spec``, and the world it describes (its
    creatures placed, no turn begun, nothing rolled)."""
    w = World(spec)
    return start_event(w), w
