"""Rapid Shot and Manyshot (SRD feats; the elf ranger's archery combat style, bonus feats at 2nd
and 6th level), with exact numbers: the attacks, their modifiers, the damage, the refusals, and the
AI's choice by expected damage (sim.engine.ai.archery)."""

from __future__ import annotations

import dataclasses

import pytest

from sim.engine import attack_actions
from sim.engine.ai import archery as ai_archery
from sim.engine.actions import FullAttack, Impossible, Manyshot, Strike
from sim.story.log import Narrator
from sim.rules.dice import Dice

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 30] * 5
BOW = "composite-longbow"


def _ranger_and_ogre(level: int, ogre_x: int = 7):
    """An elf ranger (bow in hand) at (2, 2) and an ogre (AC 16, 29 hp; a giant: not yet a favoured
    enemy before 10th level) ``5 * (ogre_x - 2)`` ft away along the hall."""
    enc = ready(encounter(HALL, [{"id": "r", "template": f"elf-ranger-{level}", "team": "p", "at": [2, 2]},
                                 {"id": "o", "template": "ogre", "team": "m", "at": [ogre_x, 2]}]))
    r = turn_of(enc, "r")
    r.wielding = BOW
    return enc, r, enc.creatures["o"]


def test_the_shipped_ranger_bow():
    _, r, o = _ranger_and_ogre(6)
    att = r.block.attack(BOW)
    assert (att.bonuses, str(att.damage), r.block.bab, o.block.ac, o.hp) == ((12, 7), "1d8+2", 6, 16, 29)


def test_rapid_shot_adds_an_attack_at_the_highest_bonus_and_minus_2_on_every_attack():
    enc, r, o = _ranger_and_ogre(6)
    enc.rng = Fixed(10)          # every d20 a 10, every d8 an 8
    n = len(enc.events)
    assert enc.perform(FullAttack("o", BOW, rapid_shot=True))
    shots = of_type(enc, "attack", n)
    assert [e.total for e in shots] == [20, 20, 15]           # +12 -2, +12 -2, +7 -2
    assert all(e.modifiers["rapid_shot"] == -2 for e in shots)
    assert [e.hit for e in shots] == [True, True, False]
    assert [e.amount for e in of_type(enc, "damage", n)] == [10, 10]    # 8 + 2 each
    assert o.hp == 9 and enc.turn.ended


def test_without_rapid_shot_the_full_attack_is_the_iterative_two():
    enc, r, o = _ranger_and_ogre(6)
    enc.rng = Fixed(10)
    n = len(enc.events)
    assert enc.perform(FullAttack("o", BOW))
    assert [e.total for e in of_type(enc, "attack", n)] == [22, 17]


@pytest.mark.parametrize("level, attack, reason", [
    (1, BOW, "R lacks the Rapid Shot feat"),
    (2, "longsword", "Rapid Shot needs a ranged weapon"),
])
def test_rapid_shot_refusals(level, attack, reason):
    enc, r, o = _ranger_and_ogre(level)
    r.wielding = attack
    res = enc.perform(FullAttack("o", attack, rapid_shot=True))
    assert isinstance(res, Impossible) and res.reason == reason


def test_rapid_shot_is_refused_with_a_weapon_loaded_between_shots():
    enc, r, o = _ranger_and_ogre(6)
    xbow = dataclasses.replace(r.block.attack(BOW), name="light-crossbow",
                               weapon=dataclasses.replace(r.block.attack(BOW).weapon, key="light-crossbow",
                                                          crossbow=True, load_action="move"))
    assert attack_actions.rapid_shot_reason(r, xbow) == (
        "Rapid Shot: the light-crossbow must be loaded between shots (SRD: no crossbow without Rapid Reload)")


def test_manyshot_two_arrows_one_roll_at_minus_4_each_arrow_its_own_damage():
    enc, r, o = _ranger_and_ogre(6)          # 25 ft
    enc.rng = Fixed(10)
    n = len(enc.events)
    assert enc.perform(Manyshot("o", BOW))
    shots = of_type(enc, "attack", n)
    assert len(shots) == 1 and shots[0].total == 18 and shots[0].modifiers["manyshot"] == -4 and shots[0].hit
    assert [(e.action, e.item) for e in of_type(enc, "item", n)] == [("manyshot", BOW)]
    assert Narrator({"r": "Soveliss"}).line(of_type(enc, "item", n)[0]) == (
        "Soveliss looses several arrows at once (Manyshot) from the composite longbow")
    assert [e.amount for e in of_type(enc, "damage", n)] == [10, 10]
    assert o.hp == 9
    assert enc.turn.move and not enc.turn.standard         # a standard action: the move is left


def test_manyshot_misses_with_its_one_roll():
    enc, r, o = _ranger_and_ogre(6)
    enc.rng = Fixed(5)                       # 5 + 12 - 4 = 13 < 16
    n = len(enc.events)
    assert enc.perform(Manyshot("o", BOW))
    assert [e.hit for e in of_type(enc, "attack", n)] == [False]
    assert of_type(enc, "damage", n) == [] and o.hp == 29


def test_manyshot_arrows_and_penalty_by_base_attack_bonus():
    _, r, _ = _ranger_and_ogre(6)
    got = []
    for bab in (6, 10, 11, 15, 16, 20):
        r.block = dataclasses.replace(r.block, bab=bab)
        n = attack_actions.manyshot_arrows(r)
        got.append((n, attack_actions.manyshot_penalty(n)))
    assert got == [(2, -4), (2, -4), (3, -6), (3, -6), (4, -8), (4, -8)]


@pytest.mark.parametrize("level, ogre_x, attack, reason", [
    (6, 9, BOW, "O is 35 ft away: Manyshot reaches 30 ft"),
    (5, 7, BOW, "R lacks the Manyshot feat"),
    (6, 7, "longsword", "Manyshot fires arrows: it needs a bow"),
])
def test_manyshot_refusals(level, ogre_x, attack, reason):
    enc, r, o = _ranger_and_ogre(level, ogre_x)
    r.wielding = attack
    res = enc.perform(Manyshot("o", attack))
    assert isinstance(res, Impossible) and res.reason == reason


def test_the_ai_shoots_by_expected_damage():
    # per hit 1d8+2 = 6.5; against AC 16: +12 hits 85%, +7 60%, +10 75%, +5 50%, +8 (Manyshot) 65%
    enc, r, o = _ranger_and_ogre(6)
    values = ai_archery.volley_values(enc, r, r.block.attack(BOW), o, enc.turn)
    assert {k: round(v, 3) for k, v in values.items()} == {
        "strike": 5.525, "full": 9.425, "rapid_shot": 13.0, "manyshot": 8.45}
    assert ai_archery.volley(enc, r, enc.turn, r.block.attack(BOW), o) == FullAttack("o", BOW, rapid_shot=True)
    enc.turn.spend("move", r)                 # moved: no full round; Manyshot is a standard action
    assert ai_archery.volley(enc, r, enc.turn, r.block.attack(BOW), o) == Manyshot("o", BOW)


def test_the_ai_shoots_once_beyond_manyshot_range_after_a_move():
    enc, r, o = _ranger_and_ogre(6, ogre_x=9)
    enc.turn.spend("move", r)
    assert ai_archery.volley(enc, r, enc.turn, r.block.attack(BOW), o) == Strike("o", BOW)


@pytest.mark.parametrize("action", [FullAttack("o", BOW, rapid_shot=True), Manyshot("o", BOW)])
def test_no_volley_from_a_narrow_space_where_a_bow_cannot_be_fired(action):
    # RULES §2.4: a bow is not fired in a Narrow-or-Low space; no arrow of a volley either
    enc = ready(encounter(["nnn" + "." * 27] * 5, [{"id": "r", "template": "elf-ranger-6", "team": "p", "at": [2, 2]},
                                                   {"id": "o", "template": "ogre", "team": "m", "at": [7, 2]}]))
    turn_of(enc, "r").wielding = BOW
    res = enc.perform(action)
    assert isinstance(res, Impossible) and res.reason == "composite-longbow cannot be fired in a Narrow or Low"
    assert ai_archery.volley_values(enc, enc.creatures["r"], enc.creatures["r"].block.attack(BOW),
                                    enc.creatures["o"], enc.turn) == {"strike": 0.0}


def test_manyshot_precision_damage_goes_to_the_first_arrow_only():
    enc, r, o = _ranger_and_ogre(6)
    r.block = dataclasses.replace(r.block, sneak_attack=Dice.parse("2d6"))   # a rogue's, for the test
    o.flat_footed = True                     # it has not acted yet: no Dex to AC, open to a sneak attack
    enc.rng = Fixed(10)                      # every d6 a 6, every d8 an 8
    n = len(enc.events)
    assert enc.perform(Manyshot("o", BOW))
    (shot,) = of_type(enc, "attack", n)
    assert "no_dex:flat_footed" in shot.ac_modifiers
    assert [e.amount for e in of_type(enc, "damage", n)] == [22, 10]   # 8 + 2 + 12 sneak, then 8 + 2
    assert o.hp == -3
