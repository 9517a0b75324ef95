"""Class features of the 6th-10th level party in the engine: evasion and improved evasion (SRD
Rogue) against a Reflex-half area, with exact numbers."""

from __future__ import annotations

from sim.engine.conditions import tick
from sim.engine.effects import Effect, find, put
from sim.engine import attacks, casting, damage
from sim.engine.ai.decide import default_policy
from sim.engine.actions import Cast, Rage

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
    put(r2, Effect("asleep"))                                # helpless: no evasion
    assert damage.evades(r2) is None and damage.reflex_half_damage(r2, 9, True) == 4


# ---- rage (SRD Barbarian) -------------------------------------------------------------------------

def _barbarian_and_ogre(ogre_at):
    enc = ready(encounter(["." * 30] * 5, [{"id": "b", "template": "human-barbarian-10", "team": "p", "at": [2, 2]},
                                           {"id": "o", "template": "ogre", "team": "m", "at": ogre_at}]))
    return enc, enc.creatures["b"]


def test_rage_numbers_and_fatigue_after():
    enc, b = _barbarian_and_ogre([20, 1])
    turn_of(enc, "b")
    assert (b.hp, b.block.ac, b.block.attack("greataxe").bonuses) == (95, 18, (16, 11))
    assert enc.perform(Rage())
    # Str 17 -> 21 (+5): greataxe +18/+13, 1d12 + 7 (x1.5) + 2; Con 14 -> 18: +2 hp per level for 10
    # levels; Will 6 + 2; AC 18 - 2; 3 + 4 (Con 18) = 7 rounds: this one and the next six
    axe = b.block.attack("greataxe")
    assert (axe.bonuses, str(axe.damage)) == ((18, 13), "1d12+9")
    assert (b.hp, b.max_hp, b.block.ac, b.block.saves.will, b.block.grapple) == (115, 115, 16, 8, 15)
    assert "raging" in b.conditions and find(b, "raging").until == enc.round + 6
    r = enc.perform(Rage())
    assert not r and "already raging" in r.reason
    b.hp -= 30                                   # hurt while raging
    enc.round = find(b, "raging").until
    tick(enc, b, "rage")
    assert "raging" in b.conditions             # still its last round
    enc.round += 1
    tick(enc, b, "rage")
    # the 20 hp of the rage go; fatigued: Str 15 (+2), Dex 11 (+0): +15/+10, 1d12+5, AC 17, Ref 5
    assert (b.hp, b.max_hp) == (85 - 20, 95)
    assert {"fatigued"} <= b.conditions and "raging" not in b.conditions
    axe = b.block.attack("greataxe")
    assert (axe.bonuses, str(axe.damage), b.block.ac, b.block.saves.ref) == ((15, 10), "1d12+5", 17, 5)
    r = enc.perform(Rage())
    assert not r and "fatigued" in r.reason


def test_the_end_of_a_rage_can_leave_the_barbarian_dying():
    enc, b = _barbarian_and_ogre([20, 1])
    turn_of(enc, "b")
    assert enc.perform(Rage())
    b.hp = 15                                    # 115 max while raging
    enc.round = find(b, "raging").until + 1
    tick(enc, b, "rage")
    assert b.hp == -5 and "dying" in b.conditions


def test_ai_rages_when_a_melee_is_about_to_start():
    enc, b = _barbarian_and_ogre([12, 1])        # 45 ft away: within a charge (2 x 40 ft)
    turn_of(enc, "b")
    assert default_policy(enc, b, enc.turn) == Rage()
    far, fb = _barbarian_and_ogre([27, 1])       # 115 ft: no rage yet
    turn_of(far, "b")
    assert default_policy(far, fb, far.turn) != Rage()


def test_barbarian_damage_reduction_and_fast_movement():
    from sim.rules.statblocks import load_template

    assert load_template("human-barbarian-1").speed.land == 40          # 30 + 10, light armor
    d7, d10 = load_template("human-barbarian-7").defenses, load_template("human-barbarian-10").defenses
    assert (d7.damage_reduction, d7.dr_bypass, d10.damage_reduction) == (1, "-", 2)
    enc, b = _barbarian_and_ogre([3, 1])
    part = damage.DamagePart(10, "slashing", "weapon", types=("slashing",))
    assert damage.adjust_for_target(b, part, {}) == 8                   # DR 2/-


# ---- favored enemy (SRD Ranger) -------------------------------------------------------------------

def test_favored_enemy_adds_to_weapon_damage_against_its_type():
    # an elf ranger 10 (+6 against aberrations, +2 against vermin and giants) shoots an ogre (giant)
    # and a goblin (humanoid): composite longbow 1d8+3, every die a 5
    enc = ready(encounter(["." * 12] * 5, [{"id": "r", "template": "elf-ranger-10", "team": "p", "at": [1, 2]},
                                           {"id": "o", "template": "ogre", "team": "m", "at": [6, 1]},
                                           {"id": "g", "template": "goblin", "team": "m", "at": [6, 4]}]))
    r, ogre, gob = enc.creatures["r"], enc.creatures["o"], enc.creatures["g"]
    assert r.block.favored_bonus(ogre.block.type) == 2 and r.block.favored_bonus(gob.block.type) == 0
    plan_o = attacks.plan_attack(enc, r, r.block.attack("composite-longbow"), ogre)
    plan_g = attacks.plan_attack(enc, r, r.block.attack("composite-longbow"), gob)
    enc.rng = Fixed(5)
    n = len(enc.events)
    attacks.weapon_damage(enc, plan_o, critical=False, multiplier=3)
    attacks.weapon_damage(enc, plan_g, critical=False, multiplier=3)
    dmg = {e.target: e.amount for e in of_type(enc, "damage", n)}
    assert dmg == {"o": 5 + 3 + 2, "g": 5 + 3}


# ---- the sorcerer's spontaneous casting (SRD Sorcerer) --------------------------------------------

def test_sorcerer_casts_any_known_spell_from_its_slots():
    # a human sorcerer 1, Cha 15: 3 + 1 first-level slots; knows magic missile and sleep
    enc = ready(encounter(["." * 12] * 5, [{"id": "s", "template": "human-sorcerer-1", "team": "p", "at": [1, 2]},
                                           {"id": "g", "template": "goblin", "team": "m", "at": [9, 2]}]))
    s = enc.creatures["s"]
    assert sorted(set(s.spells_left[1])) == ["magic-missile", "sleep"] and len(s.spells_left[1]) == 2 * 4
    for left in (3, 2, 1):
        assert casting.spend_slot(s, "magic-missile") == 1
        assert s.spells_left[1].count("sleep") == s.spells_left[1].count("magic-missile") == left
    assert casting.spend_slot(s, "sleep") == 1
    assert casting.has_spell(s, "magic-missile") is None and casting.has_spell(s, "sleep") is None


def test_the_ai_casts_a_sorcerers_magic_missile_from_one_slot():
    # a human sorcerer 5 (Cha 16: 6 + 1 first-level slots, four 1st-level spells known) keeps its
    # distance like a wizard and opens with magic missile: one slot gone, 6 x 4 entries left
    enc = encounter(["." * 20] * 6, [{"id": "s", "template": "human-sorcerer-5", "team": "p", "at": [1, 2], "lit": True},
                                     {"id": "f", "template": "human-fighter-5", "team": "p", "at": [3, 2], "lit": True},
                                     {"id": "g1", "template": "goblin", "team": "m", "at": [12, 1]},
                                     {"id": "g2", "template": "goblin", "team": "m", "at": [12, 4]},
                                     {"id": "o", "template": "orc", "team": "m", "at": [13, 2]}])
    s = enc.creatures["s"]
    assert len(s.spells_left[1]) == 7 * 4
    s.spells_left[2] = []     # no web (docs/rules.md §8.3): this test is about the 1st-level slots
    enc.run()
    casts = [e for e in enc.events if e.type == "spell" and e.actor == "s"]
    assert casts and casts[0].spell == "magic-missile"
    first = {"magic-missile", "sleep", "burning-hands", "grease"}
    assert len(s.spells_left[1]) == (7 - sum(1 for e in casts if e.spell in first)) * 4


def test_no_evasion_in_medium_armor():
    from sim.rules.statblocks import with_loadout

    enc = _cone_at_rogues()
    r10 = enc.creatures["r10"]
    r10.block = with_loadout(r10.block, armor="breastplate")
    assert damage.evades(r10) is None and damage.reflex_half_damage(r10, 9, True) == 4
