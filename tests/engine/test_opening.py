"""The ``encounter_start`` event built in one place (sim/engine/opening.py, issue 33 item 6): the
fight emits it, and the views that show a fight not played here (the crawl's) build it the same
way, without an Encounter of their own and without a die rolled."""

from __future__ import annotations

from sim.engine.events import EncounterStart
from sim.engine.fight import new_encounter
from sim.engine.opening import opening, start_event

from .helpers import spec

HALL = ["#" * 12] + ["#" + "." * 10 + "#"] * 3 + ["#" * 12]
PEOPLE = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 2), "lit": True},
          {"id": "mia", "template": "elf-wizard-3", "team": "party", "at": (3, 2), "items": {"hooded-lantern": 1},
           "lit": True},
          {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}]


def test_the_fight_emits_the_event_opening_builds():
    s = spec(HALL, PEOPLE, seed=5)
    enc = new_encounter(s)
    first = enc.start()[0]
    built, w = opening(s)
    assert isinstance(first, EncounterStart) and first == built == start_event(w)
    assert w.round == 0 and w.turn is None and not w.events     # placed, never started
    assert [int(x) for x in w.rng.integers(0, 1000, 3)] == [int(x) for x in new_encounter(s).rng.integers(0, 1000, 3)]


def test_the_event_lists_each_creature_s_light():
    start, _ = opening(spec(HALL, PEOPLE))
    lights = {d["id"]: (d["torch_lit"], d["light"]) for d in start.combatants}
    assert lights == {"bruna": (True, None), "mia": (True, "hooded-lantern"), "gob": (False, None)}
