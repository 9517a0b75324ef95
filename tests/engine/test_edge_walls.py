"""A fight by a wall between squares (docs/rules.md §6.8): no melee, no threat, no step across it."""

import dataclasses

import numpy as np

from sim.engine.ai.decide import default_policy
from sim.engine.attacks import distance_reason, first_melee, threatens
from sim.engine.fight import new_encounter

from .helpers import ready, spec

ROWS = ["....",
        "...."]
SIDES = [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 0]},
         {"id": "g", "template": "goblin", "team": "m", "at": [2, 0]}]


def _fight(walled: bool):
    s = spec(ROWS, SIDES)
    if walled:   # a wall between columns 1 and 2, every row
        east = np.zeros(s.grid.shape, bool)
        east[:, 1] = True
        s = dataclasses.replace(s, grid=s.grid.replace(edges=(east, None)))
    return ready(new_encounter(s, policy=default_policy))


def test_no_melee_and_no_threat_across_a_wall():
    for walled in (False, True):
        w = _fight(walled)
        f, g = w.creatures["f"], w.creatures["g"]
        why = distance_reason(w, f, first_melee(f), g.squares, g.name, {})
        t = threatens(w, f)
        if not walled:
            assert why is None and (2, 0) in t
        else:
            assert why == f"a wall stands between {f.name} and {g.name}"
            assert (2, 0) not in t and (2, 1) not in t and (0, 1) in t and (1, 1) in t


def test_the_walled_fight_is_reachable_only_round_the_wall():
    """With the wall along the whole height the two sides cannot meet: no one steps across it."""
    enc = _fight(True)
    enc.run(max_rounds=5)
    f, g = enc.creatures["f"], enc.creatures["g"]
    assert f.pos[0] <= 1 and g.pos[0] >= 2
    assert f.hp == f.max_hp and g.hp == g.max_hp
