"""Build small encounters inline: each test shows its own cave."""

from __future__ import annotations

from sim.engine.encounter import Encounter
from sim.engine.ai.decide import default_policy
from sim.engine.fight import new_encounter
from sim.terrain.grid import CaveGrid
from sim.scenario.specs import SETTINGS_DEFAULTS, CombatantSpec, EncounterSpec

OPEN = (10, 12)
LEGEND = {"#": (0, 0), ".": OPEN, "n": (4, 12), "N": (4, 4), "c": (5, 2.5), "a": (2, 12), "t": (1, 1),
          "l": (10, 1), "~": (10, 12, True), "w": (30, 20), "k": (0.3, 0.5)}


def grid(rows: list[str], legend: dict | None = None) -> CaveGrid:
    lg = {**LEGEND, **(legend or {})}
    w = [[lg[ch][0] for ch in row] for row in rows]
    h = [[lg[ch][1] for ch in row] for row in rows]
    d = [[len(lg[ch]) > 2 and lg[ch][2] for ch in row] for row in rows]
    return CaveGrid.from_arrays(w, h, difficult=d, name="test cave")


def spec(rows: list[str], combatants: list[dict], *, legend=None, seed=1, **settings) -> EncounterSpec:
    """An encounter on an inline cave. These caves have no lights: the tests of the other rules
    fight in full view (setting ``vision`` off) unless they ask for ``vision=True``
    (tests/engine/test_vision.py: light and sight, RULES §9)."""
    settings = {"vision": False, **settings}
    cs = []
    for i, c in enumerate(combatants):
        cs.append(CombatantSpec(id=c.get("id", f"c{i}"), template=c["template"], team=c.get("team", ""),
                                at=tuple(c["at"]), weapon=c.get("weapon"), items=tuple(c.get("items", {}).items()),
                                explicit_id="id" in c, lit=c.get("lit", False)))
    return EncounterSpec(name="test", path="test.toml", grid=grid(rows, legend), seed=seed, combatants=tuple(cs),
                         settings={**SETTINGS_DEFAULTS, **settings})


def encounter(rows, combatants, *, policy=default_policy, **kw) -> Encounter:
    """An encounter on an inline cave, played by ``policy`` (the default AI unless given)."""
    return new_encounter(spec(rows, combatants, **kw), policy=policy)


def ready(enc: Encounter) -> Encounter:
    """Start the fight and make everyone not flat-footed (as after the first round)."""
    enc.start()
    for c in enc.creatures.values():
        c.flat_footed = False
    return enc
