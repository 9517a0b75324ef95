"""The AI trips when it pays (sim.engine.ai.maneuvers; docs/rules.md §11.11): a scripted scene with
exact numbers, the goblin one hit drops (struck, not tripped), and the opposed-check chance."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from sim.engine.ai import maneuvers as ai_maneuvers
from sim.engine.actions import Strike, Trip
from sim.engine.ai.decide import default_policy
from sim.engine.ai.estimates import best_melee
from sim.rules.statblocks.types import Feat

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of


def _scene(foe: str, *, improved: bool = True):
    """A human fighter 3 (Str 15, BAB +3; Improved Trip added) beside ``foe``, a dwarf fighter 3
    beside it too."""
    enc = ready(encounter(["." * 10] * 5, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 2]},
                                           {"id": "a", "template": "dwarf-fighter-3", "team": "p", "at": [4, 1]},
                                           {"id": "t", "template": foe, "team": "m", "at": [3, 2]}]))
    f = turn_of(enc, "f")
    if improved:
        f.block = dataclasses.replace(f.block, feats=f.block.feats + (Feat("improved-trip"),))
    return enc, f, enc.creatures["t"]


def test_the_ai_trips_a_troglodyte_with_improved_trip():
    enc, f, trog = _scene("troglodyte")
    _, strike = best_melee(enc, f, trog)
    assert round(strike, 3) == 3.9          # longsword +6 against AC 15: 60% of 1d8+2 = 6.5
    v = ai_maneuvers.trip_values(enc, f, trog, strike)
    # touch +5 against touch AC 9: 85%; Str +2 +4 Improved Trip against the troglodyte's Str +0
    # (its better of Str and Dex): 77.25% (a tie goes to the higher modifier); gain 9.1: the two
    # fighters' attacks of opportunity when it stands, and +4 on the tripper's next attack
    assert round(v["chance"], 6) == round(0.85 * 0.7725, 6) and round(v["gain"], 3) == 9.1 and v["cost"] == strike
    act = default_policy(enc, f, enc.turn)
    assert act == Trip("t")
    enc.rng = Fixed(12)
    n = len(enc.events)
    assert enc.perform(act)
    (touch,) = of_type(enc, "attack", n)
    assert (touch.weapon, touch.kind, touch.total, touch.ac, touch.hit) == ("trip", "touch", 17, 9, True)
    (check,) = of_type(enc, "opposed", n)
    assert (check.total, check.target_total, check.success) == (18, 12, True)
    assert check.modifiers == {"str": 2, "size": 0, "improved_trip": 4}
    assert trog.prone
    assert not of_type(enc, "attack", n)[1:]   # Improved Trip: no attack of opportunity


def test_a_foe_one_hit_drops_is_struck_not_tripped():
    enc, f, gob = _scene("goblin")
    v = ai_maneuvers.trip_values(enc, f, gob, 0.0)
    assert v["gain"] == 5.0                    # counted up to its 5 hit points
    assert isinstance(default_policy(enc, f, enc.turn), Strike)


def test_without_improved_trip_or_a_trip_weapon_the_ai_never_trips():
    enc, f, trog = _scene("troglodyte", improved=False)
    assert not ai_maneuvers.wants_to_trip(f)
    assert not isinstance(default_policy(enc, f, enc.turn), Trip)


def test_a_prone_foe_is_not_tripped_again():
    enc, f, trog = _scene("troglodyte")
    trog.prone = True
    assert not ai_maneuvers.trippable(enc, f, trog)
    assert not isinstance(default_policy(enc, f, enc.turn), Trip)


def test_opposed_chance_exact():
    assert [ai_maneuvers.opposed_chance(m, t) for m, t in ((6, 0), (0, 0), (1, 0), (0, 1), (25, 0))] == [
        0.7725, 0.5, 0.5725, 0.4275, 1.0]


@given(st.integers(-20, 20), st.integers(-20, 20))
def test_opposed_chances_of_the_two_sides_add_to_one(m, t):
    assert abs(ai_maneuvers.opposed_chance(m, t) + ai_maneuvers.opposed_chance(t, m) - 1.0) < 1e-12
