"""Torches (RULES §3.5, §7.19): lighting one is a standard action with a tindertwig, a full-round
action with flint and steel, and provokes; in hand it is an improvised weapon (-4), 1d3 + Str
bludgeoning and 1 fire against a normal target."""

from __future__ import annotations

from sim.engine.actions import LightTorch, Strike

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of


def fighter_and_goblin():
    return ready(encounter(["....."], [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 0]},
                                       {"id": "g", "template": "goblin", "team": "m", "at": [2, 0]}]))


def test_lighting_a_torch_standard_with_a_tindertwig_full_round_with_flint_and_provokes():
    enc = fighter_and_goblin()
    f = turn_of(enc, "f")
    assert (f.items["torch"], f.items["tindertwig"]) == (3, 2)
    enc.rng = Fixed(2)  # the goblin's attack of opportunity misses
    n = len(enc.events)
    assert enc.perform(LightTorch())
    assert f.torch_lit and f.wielding == "torch" and f.items["tindertwig"] == 1
    assert not enc.turn.standard and enc.turn.move                  # a standard action
    assert [e.actor for e in of_type(enc, "attack", n)] == ["g"]   # it provokes
    f.items["tindertwig"] = 0
    turn_of(enc, "f")
    assert enc.perform(Strike("g", "torch"))         # (a miss: the rng still rolls 2s) uses the standard action
    r = enc.perform(LightTorch())
    assert not r and r.reason == "needs a full-round action (nothing else this turn)"  # flint and steel
    turn_of(enc, "f")
    assert enc.perform(LightTorch()) and enc.turn.ended
    f.items["torch"] = 0
    turn_of(enc, "f")
    r = enc.perform(LightTorch())
    assert not r and r.reason == "F has no torch"


def test_a_torch_hits_a_goblin_for_1d3_plus_str_bludgeoning_and_1_fire():
    enc = fighter_and_goblin()
    f = turn_of(enc, "f")
    enc.rng = Fixed(2)
    assert enc.perform(LightTorch())
    turn_of(enc, "f")
    enc.rng = Fixed(15, 3)  # d20 15; 1d3 = 3
    n = len(enc.events)
    assert enc.perform(Strike("g", "torch"))
    (atk,) = of_type(enc, "attack", n)
    assert atk.modifiers["improvised"] == -4 and atk.hit
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.parts == {"bludgeoning": 3 + 2, "fire": 1}
