"""The AI bull rushes a foe off a wounded ally (sim.engine.ai.maneuvers; docs/rules.md §11.11
[PD]): a scripted scene where it does (with the push played out), and scenes where it does not
(the ally is not wounded, no Improved Bull Rush, a push that leaves the ally in reach)."""

from __future__ import annotations

import dataclasses

from sim.engine.ai import maneuvers as ai_maneuvers
from sim.engine.actions import BullRush
from sim.engine.ai.decide import default_policy
from sim.rules.statblocks.types import Feat

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of


def _scene(*, wounded: bool = True, improved: bool = True, ally_at=(2, 3)):
    """A human fighter 3 (Str 15; Improved Bull Rush added) beside a troglodyte (13 hp), which is
    beside a dwarf fighter 3 of the fighter's side (cut to half its hit points)."""
    enc = ready(encounter(["." * 10] * 6, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 2]},
                                           {"id": "a", "template": "dwarf-fighter-3", "team": "p", "at": list(ally_at)},
                                           {"id": "t", "template": "troglodyte", "team": "m", "at": [3, 2]}]))
    f = turn_of(enc, "f")
    if improved:
        f.block = dataclasses.replace(f.block, feats=f.block.feats + (Feat("improved-bull-rush"),))
    a = enc.creatures["a"]
    if wounded:
        a.hp = a.max_hp // 2
    return enc, f, enc.creatures["t"]


def test_the_ai_bull_rushes_a_foe_off_a_wounded_ally():
    enc, f, trog = _scene()
    # Str +2, +4 Improved Bull Rush against the troglodyte's Str +0: 77.25% (a tie to the higher modifier)
    assert round(ai_maneuvers.rush_chance(f, trog), 4) == 0.7725
    assert [o.id for o in ai_maneuvers.rescued(enc, f, trog)] == ["a"]   # pushed to (4, 2): 10 ft from the dwarf
    act = default_policy(enc, f, enc.turn)
    assert act == BullRush("t")
    enc.rng = Fixed(12, 5)                          # 12 + 6 = 18 against 5 + 0: won by 13, 5 ft + 10 ft
    assert enc.perform(act)
    assert trog.pos == (6, 2) and not [e for e in of_type(enc, "attack") if e.actor == "t"]


def test_no_bull_rush_when_the_ally_is_not_wounded():
    enc, f, trog = _scene(wounded=False)
    assert not isinstance(default_policy(enc, f, enc.turn), BullRush)


def test_no_bull_rush_without_improved_bull_rush_against_a_foe_that_threatens_it():
    enc, f, trog = _scene(improved=False)
    assert ai_maneuvers.rescued(enc, f, trog)
    assert not isinstance(default_policy(enc, f, enc.turn), BullRush)


def test_no_bull_rush_when_the_least_push_leaves_the_ally_in_reach():
    enc, f, trog = _scene(ally_at=(4, 3))           # beside (3, 2) and beside (4, 2) too
    assert ai_maneuvers.rescued(enc, f, trog) == []
    assert not isinstance(default_policy(enc, f, enc.turn), BullRush)
