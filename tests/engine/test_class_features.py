"""Class features of the 6th-10th level party in the engine: evasion and improved evasion (SRD
Rogue) against a Reflex-half area, with exact numbers."""

from __future__ import annotations

from sim.engine import damage
from sim.engine.actions import Cast

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 12] * 7


def _cone_at_rogues():
    """An elf wizard 3 (burning hands 3d4, Reflex DC 13) and three halfling rogues in its cone:
    1st level (no evasion), 2nd (evasion), 10th (improved evasion)."""
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [2, 3]},
                                 {"id": "r1", "template": "halfling-rogue-1", "team": "m", "at": [3, 3]},
                                 {"id": "r2", "template": "halfling-rogue-2", "team": "m", "at": [4, 2]},
                                 {"id": "r10", "template": "halfling-rogue-10", "team": "m", "at": [4, 4]}]))
    turn_of(enc, "w")
    return enc


def test_evasion_takes_no_damage_on_a_saved_reflex_half_area():
    enc = _cone_at_rogues()
    # Concentration 20 (defensive, beside r1); then for each rogue 3d4 = 12 and a Reflex 20 (saved)
    enc.rng = Fixed(20, 4, 4, 4, 20, 4, 4, 4, 20, 4, 4, 4, 20)
    n = len(enc.events)
    assert enc.perform(Cast("burning-hands", direction=(1, 0), at=(3, 4), defensive=True))
    assert set(of_type(enc, "spell", n)[-1].targets) == {"r1", "r2", "r10"}
    assert all(e.success for e in of_type(enc, "save", n))
    dmg = {e.target: e.parts for e in of_type(enc, "damage", n)}
    assert dmg == {"r1": {"fire": 6}}            # half of 12; evasion and improved evasion: none


def test_improved_evasion_halves_on_a_failed_save():
    enc = _cone_at_rogues()
    enc.rng = Fixed(20, 4, 4, 4, 1, 4, 4, 4, 1, 4, 4, 4, 1)   # every Reflex save a natural 1
    n = len(enc.events)
    assert enc.perform(Cast("burning-hands", direction=(1, 0), at=(3, 4), defensive=True))
    assert not any(e.success for e in of_type(enc, "save", n))
    dmg = {e.target: e.parts for e in of_type(enc, "damage", n)}
    assert dmg == {"r1": {"fire": 12}, "r2": {"fire": 12}, "r10": {"fire": 6}}


def test_evasion_needs_light_armor_and_a_creature_not_helpless():
    enc = _cone_at_rogues()
    r2, r10 = enc.creatures["r2"], enc.creatures["r10"]
    assert (damage.evades(r2), damage.evades(r10)) == ("evasion", "improved")
    assert damage.evades(enc.creatures["r1"]) is None
    assert [damage.reflex_half_damage(r10, 9, s) for s in (True, False)] == [0, 4]
    assert [damage.reflex_half_damage(r2, 9, s) for s in (True, False)] == [0, 9]
    r2.conditions.add("asleep")                                # helpless: no evasion
    assert damage.evades(r2) is None and damage.reflex_half_damage(r2, 9, True) == 4
