"""Blinded and flat-footed together (issue 34 item 2): the -2 applies in both states.

SRD, Blinded: "The character cannot see. He takes a -2 penalty to Armor Class, loses his
Dexterity bonus to AC (if any), moves at half speed ... All opponents are considered to have total
concealment (50% miss chance) to the blinded character."
SRD, Flat-Footed: "A flat-footed character loses his Dexterity bonus to AC (if any) and cannot
make attacks of opportunity."

Bruna (human-fighter-3): AC 19 = 10 + Dex 1 + breastplate 5 + heavy shield 2 + dodge 1. In the
dark, without darkvision, she is blinded (RULES §9.2): 10 + 5 + 2 - 2 = 15, flat-footed or not;
lit and flat-footed: 10 + 5 + 2 = 17; lit and ready: 19. Asleep (helpless, Dex as 0: -5) in the
dark: 10 - 5 + 5 + 2 - 2 = 10."""

from __future__ import annotations

import pytest

from sim.engine import attacks
from sim.engine.effects import Effect, put
from sim.terrain.grid import MapLight
from tests.engine.test_vision import GOBLIN, HUMAN, fight, sure_hit

TORCH = MapLight(at=(2, 1), bright_ft=20, shadowy_ft=40)


@pytest.mark.parametrize("lit, flat_footed, ac", [(False, True, 15), (False, False, 15), (True, True, 17),
                                                   (True, False, 19)])
def test_bruna_ac_blinded_and_or_flat_footed(lit, flat_footed, ac):
    enc = fight([HUMAN, GOBLIN], lights=[TORCH] if lit else [])
    bruna, gob = enc.creatures["bruna"], enc.creatures["gob"]
    bruna.flat_footed = flat_footed
    assert enc.blinded(bruna) == (not lit)
    got, parts = attacks.target_ac(enc, gob, bruna, ranged=False)
    assert got == ac
    assert ("blinded" in parts) == (not lit)
    if not lit:
        assert parts["blinded"] == -2 and "dex" not in parts and "dodge" not in parts
        assert f"no_dex:{'flat_footed' if flat_footed else 'blinded'}" in parts


def test_the_attack_event_shows_ac_15_before_her_first_turn():
    """The examiner's case: before her first turn (flat-footed) in the dark the goblin's attack
    showed AC 17 with the -2 dropped (no Dex, but no blinded); it is 15."""
    enc = fight([HUMAN, GOBLIN])
    enc.creatures["bruna"].flat_footed = True
    e = sure_hit(enc, enc.creatures["gob"], enc.creatures["bruna"])
    assert e.ac == 15 and e.ac_modifiers == {"base": 10, "armor": 5, "shield": 2, "no_dex:flat_footed": 0,
                                             "blinded": -2}


def test_helpless_in_the_dark_takes_the_minus_2_too():
    enc = fight([HUMAN, GOBLIN])
    bruna = enc.creatures["bruna"]
    put(bruna, Effect("asleep"))
    got, parts = attacks.target_ac(enc, enc.creatures["gob"], bruna, ranged=False)
    assert (got, parts["dex"], parts["blinded"]) == (10, -5, -2)
