"""Stat blocks: derived values vs the printed SRD numbers, PC templates, book values, loadouts (files
with mistakes: test_statblock_files.py)."""

import dataclasses

import pytest

from sim.base.errors import DataError
from sim.rules.bodies import swarm_body
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks import (
    BOOK_FIELDS, bonus_spells, creature_body, list_templates, load_template, swarm_damage,
    after_rage, rage_rounds, raging, with_loadout, without_armor,
)
from sim.rules.weapons import armor

from .bestiary_table import BESTIARY

# -- monsters: the SRD stat blocks ------------------------------------------------------------------
# name: (hit dice, hp, init, speed, AC, touch, flat-footed, BAB, grapple, Fort, Ref, Will)
SRD = {
    "goblin": ("1d8+1", 5, 1, 30, 15, 12, 14, 1, -3, 3, 1, -1),
    "kobold": ("1d8", 4, 1, 30, 15, 12, 14, 1, -4, 2, 1, -1),
    "orc": ("1d8+1", 5, 0, 30, 13, 10, 13, 1, 4, 3, 0, -2),
    "hobgoblin": ("1d8+2", 6, 1, 30, 15, 11, 14, 1, 2, 4, 1, -1),
    "bugbear": ("3d8+3", 16, 1, 30, 17, 11, 16, 2, 4, 2, 4, 1),
    "troglodyte": ("2d8+4", 13, -1, 30, 15, 9, 15, 1, 1, 5, -1, 0),
    "dire-rat": ("1d8+1", 5, 3, 40, 15, 14, 12, 0, -4, 3, 5, 3),
    "grick": ("2d8", 9, 2, 30, 16, 12, 14, 1, 3, 0, 2, 5),
    "ogre": ("4d8+11", 29, -1, 30, 16, 8, 16, 3, 12, 6, 0, 1),
    "troll": ("6d8+36", 63, 2, 30, 16, 11, 14, 4, 14, 11, 4, 3),
    # the grapplers (issue 21): grapple = BAB + Str + size (RULES §1.1) + racial (choker +4)
    "darkmantle": ("1d10+1", 6, 4, 20, 17, 11, 17, 1, 0, 3, 2, 0),
    "choker": ("3d8+3", 16, 6, 20, 17, 13, 15, 2, 5, 2, 5, 4),
    "otyugh": ("6d8+9", 36, 0, 20, 17, 9, 17, 4, 8, 3, 2, 6),
    "roper": ("10d10+30", 85, 5, 10, 24, 10, 23, 10, 18, 10, 8, 8),
    "purple-worm": ("16d10+112", 200, -2, 20, 19, 4, 19, 16, 40, 17, 8, 4),
    "gray-ooze": ("3d10+15", 31, -5, 10, 5, 5, 5, 2, 3, 6, -4, -4),
    "ochre-jelly": ("6d10+36", 69, -5, 10, 4, 4, 4, 4, 10, 8, -3, -3),
    "black-pudding": ("10d10+60", 115, -5, 20, 3, 3, 3, 7, 18, 9, -2, -2),
    "gelatinous-cube": ("4d10+32", 54, -5, 15, 3, 3, 3, 3, 11, 9, -4, -4),
    # swarms (RULES §4.9; "consistent" values where §7 decides: bat touch/ff, rat hp)
    "bat-swarm": ("3d8", 13, 2, 5, 16, 16, 14, 2, None, 3, 7, 3),
    "centipede-swarm": ("9d8-9", 31, 4, 20, 18, 18, 14, 6, None, 5, 7, 3),
    "hellwasp-swarm": ("12d10+27", 93, 10, 5, 20, 20, 14, 12, None, 10, 14, 7),
    "locust-swarm": ("6d8-6", 21, 4, 10, 18, 18, 14, 4, None, 4, 6, 2),
    "rat-swarm": ("4d8", 18, 2, 15, 14, 14, 12, 3, None, 4, 6, 2),
    "spider-swarm": ("2d8", 9, 3, 20, 17, 17, 14, 1, None, 3, 3, 0),
}

# name: [(attack, bonus, damage)] -- the SRD "Attack" line (one attack each)
SRD_ATTACKS = {
    "goblin": [("morningstar", 2, "1d6"), ("javelin", 3, "1d4")],
    "kobold": [("spear", 1, "1d6-1"), ("sling", 3, "1d3-1")],      # SRD prints 1d3: see test below
    "orc": [("falchion", 4, "2d4+4"), ("javelin", 1, "1d6+3")],
    "hobgoblin": [("longsword", 2, "1d8+1"), ("javelin", 2, "1d6+1")],
    "bugbear": [("morningstar", 5, "1d8+2"), ("javelin", 3, "1d6+2")],
    "troglodyte": [("club", 1, "1d6"), ("claw", 1, "1d4"), ("javelin", 1, "1d6")],
    "dire-rat": [("bite", 4, "1d4")],
    "grick": [("tentacle", 3, "1d4+2")],
    "ogre": [("greatclub", 8, "2d8+7"), ("javelin", 1, "1d8+5")],
    "troll": [("claw", 9, "1d6+6")],
    "darkmantle": [("slam", 5, "1d4+4")],
    "choker": [("tentacle", 6, "1d3+3")],
    "otyugh": [("tentacle", 4, "1d6"), ("bite", -2, "1d4")],
    "roper": [("bite", 13, "2d6+6")],
    "purple-worm": [("bite", 25, "2d8+12"), ("sting", 20, "2d6+6")],
    "gray-ooze": [("slam", 3, "1d6+1")],
    "ochre-jelly": [("slam", 5, "2d4+3")],
    "black-pudding": [("slam", 8, "2d6+4")],
    "gelatinous-cube": [("slam", 1, "1d6")],
}

# where the rules (RULES §7, or the SRD's own rules) decide against the printed value
DECIDED = {
    "bat-swarm": {"touch", "flat_footed", "weapon_damage"},     # §7.15
    "rat-swarm": {"hp"},                                        # §7.16
    "hellwasp-swarm": {"rider_dc"},                             # §7.17
    "kobold": {"attack:sling"},                                 # SRD sling rule (Str applies)
}

MONSTERS = list(SRD)


def test_shipped_templates():
    assert set(list_templates("monster")) == set(MONSTERS) | set(BESTIARY)   # bestiary: tests/rules/test_bestiary.py
    pcs = {f"{r}-{c}-{l}" for r, c in [("human", "fighter"), ("dwarf", "fighter"), ("halfling", "rogue"),
                                         ("elf", "wizard"), ("human", "cleric"), ("human", "barbarian"),
                                         ("elf", "ranger"), ("human", "sorcerer")]
           for l in range(1, 11)}
    assert set(list_templates("pc")) == pcs
    assert len(list_templates()) == len(set(MONSTERS) | set(BESTIARY)) + len(pcs)


@pytest.mark.parametrize("name", MONSTERS)
def test_monster_derived_equals_srd(name):
    b = load_template(name)
    hd, hp, init, speed, ac, touch, ff, bab, grapple, fort, ref, will = SRD[name]
    assert b.hit_dice_text == hd
    assert b.hp == hp
    assert b.initiative == init
    assert b.speed.land == speed
    assert (b.ac, b.touch_ac, b.flat_footed_ac) == (ac, touch, ff)
    assert (b.bab, b.grapple) == (bab, grapple)
    assert (b.saves.fort, b.saves.ref, b.saves.will) == (fort, ref, will)


@pytest.mark.parametrize("name", list(SRD_ATTACKS))
def test_monster_attacks(name):
    b = load_template(name)
    for attack, bonus, damage in SRD_ATTACKS[name]:
        a = b.attack(attack)
        assert (a.bonus, str(a.damage)) == (bonus, damage), attack


@pytest.mark.parametrize("name", MONSTERS)
def test_only_documented_disagreements_with_the_print(name):
    """Every printed value (in the file's [printed]) is derived, except the documented decisions."""
    b = load_template(name)
    assert {d.field for d in b.disagreements} == DECIDED.get(name, set())
    assert all(d.decided_by for d in b.disagreements)


def test_kobold_sling_strength():
    """SRD Equipment: the Str modifier applies to sling damage; the SRD kobold omits its -1."""
    b = load_template("kobold")
    (d,) = b.disagreements
    assert (d.field, d.derived, d.printed) == ("attack:sling", (3, "1d3-1"), (3, "1d3"))
    assert "Sling" in d.decided_by


def test_full_attacks():
    trog = load_template("troglodyte")
    routines = [[(a.name, a.count, a.bonus, str(a.damage)) for a in r] for r in trog.full_attacks]
    assert routines == [
        [("club", 1, 1, "1d6"), ("claw", 1, -1, "1d4"), ("bite", 1, -1, "1d4")],   # claw secondary with a club
        [("claw", 2, 1, "1d4"), ("bite", 1, -1, "1d4")],                           # Multiattack: -2
        [("javelin", 1, 1, "1d6")],
    ]
    grick = load_template("grick")
    assert [(a.name, a.count, a.bonus, str(a.damage)) for a in grick.full_attacks[0]] == [
        ("tentacle", 4, 3, "1d4+2"), ("bite", 1, -2, "1d3+1")]                   # -5, half Str
    troll = load_template("troll")
    assert [(a.name, a.count, a.bonus, str(a.damage)) for a in troll.full_attacks[0]] == [
        ("claw", 2, 9, "1d6+6"), ("bite", 1, 4, "1d6+3")]
    ogre = load_template("ogre")
    assert [[a.name for a in r] for r in ogre.full_attacks] == [["greatclub"], ["javelin"]]


def test_attack_breakdown_and_indexes():
    ogre = load_template("ogre")
    club = ogre.attack("greatclub")
    assert dict(club.bonus_parts) == {"base attack": 3, "str": 5, "size": -1, "weapon focus": 1}
    assert dict(club.damage_parts) == {"str": 7}            # 1.5 x Str 5, two-handed
    assert club.effective_index == 3 and club.reach_ft == 10
    assert ogre.attack("javelin").range_ft == 30 and ogre.attack("javelin").mode == "ranged"
    goblin = load_template("goblin")
    assert goblin.attack("morningstar").weapon.size is Size.SMALL
    assert goblin.attack("morningstar").damage_types == ("bludgeoning", "piercing")
    kobold = load_template("kobold")
    assert kobold.attack("spear").effective_index == 2      # Small spear, two-handed, stab shift
    assert kobold.attack("spear").crit_multiplier == 3
    assert kobold.attack("spear (thrown)").effective_index == 3
    rat = load_template("dire-rat")
    assert rat.attack("bite").effective_index == 1 and rat.attack("bite").riders == ("filth-fever",)
    assert dict(rat.attack("bite").bonus_parts)["dex (weapon finesse)"] == 3


def test_monster_specials():
    troll = load_template("troll")
    assert (troll.defenses.regeneration, troll.defenses.regeneration_bypassed_by) == (5, ("fire", "acid"))
    assert (troll.senses.darkvision_ft, troll.senses.low_light, troll.senses.scent) == (90, True, True)
    assert troll.reach_ft == 10 and troll.body.height == 9.0 and troll.body.space == 10
    trog = load_template("troglodyte")
    (stench,) = trog.auras
    assert (stench.key, stench.dc, stench.radius_ft, stench.effect, stench.duration_rounds) == (
        "stench", 13, 30, "sickened", 10)
    grick = load_template("grick")
    assert (grick.defenses.damage_reduction, grick.defenses.dr_bypass) == (10, "magic")
    assert grick.speed.climb == 20 and grick.body.form == "long"
    rat = load_template("dire-rat")
    (fever,) = rat.riders
    assert (fever.kind, fever.dc, fever.incubation, fever.damage) == ("disease", 11, "1d3 days", ("1d3 dex", "1d3 con"))
    assert load_template("kobold").senses.light_sensitivity and load_template("orc").senses.light_sensitivity
    ogre = load_template("ogre")
    assert (ogre.base_land_speed, ogre.speed.land) == (40, 30)   # hide armor (RULES §6.1)
    assert ogre.armor.key == "hide" and ogre.escape_artist == -1 - 3


# -- swarms (RULES §4.9) ----------------------------------------------------------------------------

# name: (component, flying, count, damage, weapon rule (decided), distraction DC)
SWARMS = {
    "bat-swarm": ("diminutive", True, 5000, "1d6", "immune", 11),
    "centipede-swarm": ("diminutive", False, 1500, "2d6", "immune", 13),
    "hellwasp-swarm": ("diminutive", True, 5000, "3d6", "immune", 18),
    "locust-swarm": ("diminutive", True, 5000, "2d6", "immune", 12),
    "rat-swarm": ("tiny", False, 300, "1d6", "half_slashing_piercing", 12),
    "spider-swarm": ("diminutive", False, 1500, "1d6", "immune", 11),
}


@pytest.mark.parametrize("name", list(SWARMS))
def test_swarm_facts(name):
    b = load_template(name)
    comp, flying, count, dmg, rule, dc = SWARMS[name]
    s = b.swarm
    assert (s.component.key, s.flying, s.count, str(s.damage), s.weapon_damage, s.distraction_dc) == (
        comp, flying, count, dmg, rule, dc)
    assert str(s.damage) == str(swarm_damage(b.hit_dice))
    # distraction DC = 10 + HD/2 + Con modifier (RULES §4.4)
    assert s.distraction_dc == 10 + b.hit_dice // 2 + b.abilities.mod("con")
    assert b.body == swarm_body(comp) and b.body.space == 10.0 and b.reach_ft == 0
    assert b.grapple is None
    (atk,) = b.attacks
    assert (atk.kind, atk.bonus, str(atk.damage), atk.reach_ft) == ("swarm", None, dmg, 0)


def test_swarm_riders():
    assert [(r.key, r.kind, r.dc, r.initial) for r in load_template("centipede-swarm").riders] == [
        ("centipede-poison", "poison", 13, "1d4 dex")]
    assert [(r.key, r.dc, r.initial) for r in load_template("spider-swarm").riders] == [
        ("spider-poison", 11, "1d3 str")]
    assert [(r.key, r.dc, r.incubation) for r in load_template("rat-swarm").riders] == [
        ("filth-fever", 12, "1d3 days")]
    (w,) = load_template("bat-swarm").riders
    assert (w.kind, w.bleed, w.dc) == ("wounding", 1, None)
    hw = load_template("hellwasp-swarm")
    assert [(r.kind, r.dc, r.initial) for r in hw.riders] == [("poison", 20, "1d6 dex")]   # §7.17
    assert hw.swarm.aligned == ("evil", "magic") and hw.swarm.hive_mind
    assert hw.speed.fly == 40 and hw.speed.maneuverability == "good"                    # §7.18
    assert (hw.defenses.damage_reduction, dict(hw.defenses.resist)) == (10, {"fire": 10})
    assert load_template("locust-swarm").speed.maneuverability == "poor"
    assert load_template("bat-swarm").senses.blindsense_ft == 20
    assert load_template("spider-swarm").senses.tremorsense_ft == 30
    assert load_template("centipede-swarm").abilities.int is None


def test_book_values_all_and_per_field():
    """RULES §7.15-17: decided values by default, printed ones as book values."""
    rat, rat_book = load_template("rat-swarm"), load_template("rat-swarm", book_values=True)
    assert (rat.hp, rat_book.hp) == (18, 13)
    assert rat_book.book_values == {"hp"} | (set(BOOK_FIELDS) & {k for k, _ in rat.printed.values})
    bat_book = load_template("bat-swarm", book_values=True)
    assert (bat_book.ac, bat_book.touch_ac, bat_book.flat_footed_ac) == (16, 14, 12)
    assert bat_book.swarm.weapon_damage == "half_slashing_piercing"
    bat_touch = load_template("bat-swarm", book_values=["touch"])
    assert (bat_touch.touch_ac, bat_touch.flat_footed_ac, bat_touch.swarm.weapon_damage) == (14, 14, "immune")
    hw_book = load_template("hellwasp-swarm", book_values=["rider_dc"])
    assert hw_book.riders[0].dc == 18 and hw_book.swarm.distraction_dc == 18
    # book values change nothing where the print agrees with the rules
    goblin_book = load_template("goblin", book_values=True)
    assert (goblin_book.hp, goblin_book.ac) == (5, 15)
    with pytest.raises(ValueError, match="book_values"):
        load_template("rat-swarm", book_values=["colour"])


def test_book_values_flag_in_a_user_file(tmp_path):
    from sim.rules import _data

    text = _data.data_dir().joinpath("monsters", "animal", "rat-swarm.toml").read_text()
    p = tmp_path / "rats.toml"
    p.write_text(text.replace("racial_hd = 4\n", "racial_hd = 4\nbook_values = true\n"))
    assert load_template(p).hp == 13
    p.write_text(text.replace("racial_hd = 4\n", "racial_hd = 4\nbook_values = [\"hp\"]\n"))
    assert load_template(p).hp == 13
    assert load_template(p, book_values=False).hp == 18


# -- PC templates -----------------------------------------------------------------------------------
# name: (hp, AC, touch, flat-footed, BAB, Fort, Ref, Will, initiative, speed, Escape Artist)
# hp rule: max HD at 1st level, average rounded up later, + Con per level, + 3 per Toughness.
PCS = {
    # human fighter, Con 14 (+2), d10: 12, +8/level; scale mail + heavy steel shield -> breastplate (L3)
    "human-fighter-1": (12, 17, 11, 16, 1, 4, 1, 1, 1, 20, 1 + 2 - 4 - 2),
    "human-fighter-2": (20, 17, 11, 16, 2, 5, 1, 1, 5, 20, 1 + 2 - 4 - 2),
    "human-fighter-3": (28, 19, 12, 17, 3, 5, 2, 2, 5, 20, 1 + 3 - 4 - 2),
    "human-fighter-4": (36, 19, 12, 17, 4, 6, 2, 2, 5, 20, 1 + 3 - 4 - 2),
    "human-fighter-5": (44, 19, 12, 17, 5, 6, 2, 2, 5, 20, 1 + 4 - 3 - 1),   # masterwork: -1 each
    # 6th-10th: +1/+2 breastplate and shield, ring of protection (deflection), cloak of resistance
    # (all saves), Iron Will at 6th; Str 17 at 8th (still +3)
    "human-fighter-6": (52, 20, 12, 18, 6, 8, 4, 6, 5, 20, 1 + 4 - 3 - 1),
    "human-fighter-7": (60, 22, 13, 20, 7, 8, 4, 6, 5, 20, 1 + 5 - 3 - 1),
    "human-fighter-8": (68, 22, 13, 20, 8, 9, 4, 6, 5, 20, 1 + 5 - 3 - 1),
    "human-fighter-9": (76, 23, 13, 21, 9, 10, 6, 8, 5, 20, 1 + 6 - 3 - 1),
    "human-fighter-10": (84, 24, 13, 22, 10, 11, 6, 8, 5, 20, 1 + 6 - 3 - 1),
    # dwarf fighter, Con 16 (+3): 13, +9/level, Toughness at 3; speed 20 in any armor
    "dwarf-fighter-1": (13, 17, 11, 16, 1, 5, 1, 1, 1, 20, 1 + 2 - 4 - 2),
    "dwarf-fighter-2": (22, 17, 11, 16, 2, 6, 1, 1, 1, 20, 1 + 2 - 4 - 2),
    "dwarf-fighter-3": (34, 18, 11, 17, 3, 6, 2, 2, 1, 20, 1 + 3 - 5 - 2),
    "dwarf-fighter-4": (43, 18, 11, 17, 4, 7, 2, 2, 1, 20, 1 + 3 - 5 - 2),
    "dwarf-fighter-5": (52, 21, 11, 20, 5, 7, 2, 2, 1, 20, 1 + 4 - 6 - 2),   # full plate: max Dex +1
    "dwarf-fighter-6": (61, 22, 11, 21, 6, 9, 4, 6, 1, 20, 1 + 4 - 6 - 1),   # +1 shield (masterwork)
    "dwarf-fighter-7": (70, 23, 11, 22, 7, 9, 4, 6, 1, 20, 1 + 5 - 5 - 1),   # +1 full plate
    "dwarf-fighter-8": (79, 24, 12, 23, 8, 10, 4, 6, 1, 20, 1 + 5 - 5 - 1),
    "dwarf-fighter-9": (88, 25, 12, 24, 9, 11, 6, 8, 1, 20, 1 + 6 - 5 - 1),
    "dwarf-fighter-10": (97, 26, 12, 25, 10, 12, 6, 8, 1, 20, 1 + 6 - 5 - 1),
    # halfling rogue, Dex 17 -> 18 at 4th, Small (+1), +1 all saves; uncanny dodge at 4th
    "halfling-rogue-1": (8, 16, 14, 13, 0, 3, 6, 1, 3, 20, 3 + 4),
    "halfling-rogue-2": (14, 16, 14, 13, 1, 3, 7, 1, 3, 20, 3 + 5),
    "halfling-rogue-3": (20, 17, 14, 14, 2, 4, 7, 2, 3, 20, 3 + 6 + 2 - 1),   # Agile, studded leather
    "halfling-rogue-4": (26, 18, 15, 18, 3, 4, 9, 2, 4, 20, 4 + 7 + 2 - 1),
    "halfling-rogue-5": (32, 18, 15, 18, 3, 4, 9, 2, 4, 20, 4 + 8 + 2 + 0),
    "halfling-rogue-6": (38, 20, 16, 20, 4, 6, 11, 4, 4, 20, 4 + 9 + 2 + 0),   # Dodge; FF keeps it (uncanny)
    "halfling-rogue-7": (44, 21, 17, 21, 5, 6, 11, 4, 4, 20, 4 + 10 + 2 + 0),
    "halfling-rogue-8": (50, 21, 17, 21, 6, 7, 13, 5, 4, 20, 4 + 11 + 2 + 0),
    "halfling-rogue-9": (56, 22, 17, 22, 6, 8, 13, 6, 4, 20, 4 + 12 + 2 + 0),
    "halfling-rogue-10": (62, 22, 17, 22, 7, 8, 14, 6, 4, 20, 4 + 13 + 2 + 0),
    # elf wizard, Con 12 (+1), d4: 5, +4/level, Toughness at 3; Dex 15
    "elf-wizard-1": (5, 12, 12, 10, 0, 1, 2, 3, 6, 30, 2),
    "elf-wizard-2": (9, 12, 12, 10, 1, 1, 2, 4, 6, 30, 2),
    "elf-wizard-3": (16, 12, 12, 10, 1, 2, 3, 4, 6, 30, 2),
    "elf-wizard-4": (20, 12, 12, 10, 2, 2, 3, 5, 6, 30, 2),
    "elf-wizard-5": (24, 12, 12, 10, 2, 2, 3, 5, 6, 30, 2),
    "elf-wizard-6": (28, 13, 13, 11, 3, 4, 5, 7, 6, 30, 2),
    "elf-wizard-7": (32, 13, 13, 11, 3, 4, 5, 7, 6, 30, 2),
    "elf-wizard-8": (36, 13, 13, 11, 4, 5, 6, 9, 6, 30, 2),
    "elf-wizard-9": (40, 14, 14, 12, 4, 6, 7, 9, 6, 30, 2),
    "elf-wizard-10": (44, 14, 14, 12, 5, 6, 7, 10, 6, 30, 2),
    # human cleric, Con 14, d8: 10, +7/level, Toughness at 3; Wis 15 -> 16
    "human-cleric-1": (10, 16, 10, 16, 0, 4, 0, 4, 4, 20, 0 - 4 - 2),
    "human-cleric-2": (17, 16, 10, 16, 1, 5, 0, 5, 4, 20, 0 - 4 - 2),
    "human-cleric-3": (27, 17, 10, 17, 2, 5, 1, 5, 4, 20, 0 - 4 - 2),
    "human-cleric-4": (34, 17, 10, 17, 3, 6, 1, 7, 4, 20, 0 - 4 - 2),
    "human-cleric-5": (41, 18, 10, 18, 3, 6, 1, 7, 4, 20, 0 - 3 - 2),        # +1 breastplate
    "human-cleric-6": (48, 18, 10, 18, 4, 8, 3, 9, 4, 20, 0 - 3 - 1),        # masterwork shield
    "human-cleric-7": (55, 19, 11, 19, 5, 8, 3, 9, 4, 20, 0 - 3 - 1),
    "human-cleric-8": (62, 21, 11, 21, 6, 9, 3, 10, 4, 20, 0 - 3 - 1),       # +2 breastplate, +1 shield
    "human-cleric-9": (69, 21, 11, 21, 6, 10, 5, 13, 4, 20, 0 - 3 - 1),
    "human-cleric-10": (76, 22, 12, 22, 7, 11, 5, 14, 4, 20, 0 - 3 - 1),
    # human barbarian, Con 14, d12: 14, +9/level; fast movement 40 ft in light armor; uncanny dodge 2nd
    "human-barbarian-1": (14, 14, 11, 13, 1, 4, 1, 1, 1, 40, 1 - 1),          # studded leather
    "human-barbarian-2": (23, 14, 11, 14, 2, 5, 1, 1, 1, 40, 1 - 1),
    "human-barbarian-3": (32, 15, 11, 15, 3, 5, 2, 2, 1, 40, 1 - 1),          # masterwork chain shirt
    "human-barbarian-4": (41, 15, 11, 15, 4, 6, 2, 2, 1, 40, 1 - 1),
    "human-barbarian-5": (50, 15, 11, 15, 5, 6, 2, 2, 1, 40, 1 - 1),
    "human-barbarian-6": (59, 16, 11, 16, 6, 8, 4, 4, 5, 40, 1 - 1),          # Improved Initiative, cloak +1
    "human-barbarian-7": (68, 17, 12, 17, 7, 8, 4, 4, 5, 40, 1 - 1),
    "human-barbarian-8": (77, 17, 12, 17, 8, 9, 4, 4, 5, 40, 1 - 1),
    "human-barbarian-9": (86, 18, 12, 18, 9, 10, 6, 6, 5, 40, 1 - 1),
    "human-barbarian-10": (95, 18, 12, 18, 10, 11, 6, 6, 5, 40, 1 - 1),
    # elf ranger, Con 12 (+1), d8: 9, +6/level; Dex 17 -> 18 (4th) -> 19 (8th); chain shirt caps Dex at +4
    "elf-ranger-1": (9, 16, 13, 13, 1, 3, 5, 1, 3, 30, 3 - 1),
    "elf-ranger-2": (15, 16, 13, 13, 2, 4, 6, 1, 3, 30, 3 - 1),
    "elf-ranger-3": (21, 17, 13, 14, 3, 4, 6, 2, 3, 30, 3 - 1),
    "elf-ranger-4": (27, 18, 14, 14, 4, 5, 8, 2, 4, 30, 4 - 1),
    "elf-ranger-5": (33, 18, 14, 14, 5, 5, 8, 2, 4, 30, 4 - 1),
    "elf-ranger-6": (39, 19, 14, 15, 6, 7, 10, 4, 4, 30, 4 - 1),
    "elf-ranger-7": (45, 20, 15, 16, 7, 7, 10, 4, 4, 30, 4 - 1),
    "elf-ranger-8": (51, 20, 15, 16, 8, 8, 11, 4, 4, 30, 4 - 1),
    "elf-ranger-9": (57, 21, 15, 17, 9, 9, 12, 6, 8, 30, 4 - 1),
    "elf-ranger-10": (63, 21, 15, 17, 10, 10, 13, 6, 8, 30, 4 - 1),
    # human sorcerer, Con 14, d4: 6, +5/level, Toughness; Dex 13, Wis 8; ring of protection from 5th
    "human-sorcerer-1": (9, 11, 11, 10, 0, 2, 1, 1, 5, 30, 1),
    "human-sorcerer-5": (29, 12, 12, 11, 2, 3, 2, 3, 5, 30, 1),
    "human-sorcerer-10": (54, 13, 13, 12, 5, 7, 6, 8, 5, 30, 1),
}


@pytest.mark.parametrize("name", list(PCS))
def test_pc_template(name):
    b = load_template(name)
    hp, ac, touch, ff, bab, fort, ref, will, init, speed, ea = PCS[name]
    assert b.kind == "pc"
    assert b.hp == hp
    assert (b.ac, b.touch_ac, b.flat_footed_ac) == (ac, touch, ff)
    assert b.bab == bab
    assert (b.saves.fort, b.saves.ref, b.saves.will) == (fort, ref, will)
    assert b.initiative == init
    assert b.speed.land == speed
    assert b.escape_artist == ea
    assert b.disagreements == ()


def test_pc_heights_are_race_averages():
    """RULES §1.3 average heights (inches / 12) as the body height."""
    assert load_template("human-fighter-1").body.height == pytest.approx(64 / 12)      # female 5'4"
    assert load_template("human-cleric-1").body.height == pytest.approx(69 / 12)       # male 5'9"
    assert load_template("dwarf-fighter-1").body.height == pytest.approx(50 / 12)      # 4'2"
    assert load_template("elf-wizard-1").body.height == pytest.approx(60 / 12)         # 5'0"
    rogue = load_template("halfling-rogue-1")
    assert rogue.body.height == pytest.approx(37 / 12) and rogue.size is Size.SMALL    # 3'1"
    assert rogue.body.shoulders == pytest.approx(37 / 12 / 4)


def test_pc_attacks():
    f1 = load_template("human-fighter-1")
    assert [(a.name, a.bonus, str(a.damage), a.effective_index) for a in f1.attacks] == [
        ("longsword", 4, "1d8+2", 2), ("dagger", 3, "1d4+2", 0), ("dagger (thrown)", 2, "1d4+2", 1),
        ("heavy-crossbow", 2, "1d10", 2)]
    f5 = load_template("human-fighter-5")
    sword = f5.attack("longsword")
    assert (sword.bonus, str(sword.damage)) == (10, "1d8+6")     # +1 sword, WF, WS, Str 16
    assert dict(sword.damage_parts) == {"str": 3, "weapon specialization": 2, "enhancement": 1}
    r1 = load_template("halfling-rogue-1")
    assert [(a.name, a.bonus, str(a.damage)) for a in r1.attacks] == [
        ("short-sword", 4, "1d4"), ("light-crossbow", 4, "1d6"), ("dagger", 4, "1d3"),
        ("dagger (thrown)", 5, "1d3")]                           # finesse, Small, halfling +1 thrown
    assert r1.sneak_attack == Dice(1, 6)
    assert load_template("halfling-rogue-3").sneak_attack == Dice(2, 6)
    assert load_template("halfling-rogue-5").sneak_attack == Dice(3, 6)
    assert "uncanny-dodge" in load_template("halfling-rogue-4").features
    assert load_template("elf-wizard-1").attack("dagger").bonus == 0
    assert load_template("human-cleric-1").attack("heavy-mace").bonus == 1


def test_pc_feats_for_the_tunnels():
    assert load_template("human-fighter-1").has_feat("tunnelfighter")
    assert load_template("dwarf-fighter-1").has_feat("tunnelrunner")
    assert load_template("halfling-rogue-3").has_feat("agile")


def test_pc_spells():
    w1 = load_template("elf-wizard-1").spells
    assert (w1.slots, w1.save_dc(1), w1.prepared[1]) == ((3, 2), 13, ("magic-missile", "sleep"))
    assert load_template("elf-wizard-3").spells.slots == (4, 3, 2)
    w5 = load_template("elf-wizard-5").spells
    assert (w5.slots, w5.save_dc(3), w5.caster_level) == ((4, 4, 3, 2), 16, 5)   # Int 16 at 4th
    c1 = load_template("human-cleric-1").spells
    assert (c1.slots, c1.domain_slots, c1.domain_prepared) == ((3, 2), (0, 1), (None, "sanctuary"))
    c5 = load_template("human-cleric-5").spells
    assert (c5.slots, c5.domain_slots) == ((5, 4, 3, 2), (0, 1, 1, 1))
    assert c5.domains == ("healing", "protection")
    assert load_template("dwarf-fighter-3").spells is None


# -- 10th level, by hand (SRD Table: Base Save and Base Attack Bonuses; the class tables; Combat) --
def test_tenth_level_fighters_by_hand():
    f = load_template("human-fighter-10")      # Str 15+1+1 = 17 (+3), Dex 13 (+1), Con 14 (+2), Wis 12 (+1)
    assert f.hp == 12 + 9 * (6 + 2)               # d10: 10+2 at 1st, then 6 (average rounded up) + 2
    assert f.ac == 10 + 1 + (5 + 2) + (2 + 2) + 1 + 1   # Dex, +2 breastplate, +2 heavy shield, ring +1, Dodge
    assert (f.touch_ac, f.flat_footed_ac) == (10 + 1 + 1 + 1, 24 - 1 - 1)
    assert (f.saves.fort, f.saves.ref, f.saves.will) == (2 + 10 // 2 + 2 + 2, 10 // 3 + 1 + 2, 10 // 3 + 1 + 2 + 2)
    sword = f.attack("longsword")                 # BAB 10 + Str 3 + WF 1 + Greater WF 1 + enhancement 2
    assert (sword.bonuses, str(sword.damage)) == ((17, 12), "1d8+7")   # Str 3 + Specialization 2 + 2
    assert dict(sword.bonus_parts)["greater weapon focus"] == 1
    assert f.grapple == 10 + 3
    d = load_template("dwarf-fighter-10")      # Con 14+2 = 16 (+3), Toughness; full plate caps Dex at +1
    assert d.hp == 13 + 9 * (6 + 3) + 3
    assert d.ac == 10 + 1 + (8 + 2) + (2 + 2) + 1
    assert (d.saves.fort, d.saves.ref, d.saves.will) == (7 + 3 + 2, 3 + 1 + 2, 3 + 1 + 2 + 2)
    assert d.attack("battleaxe").bonuses == (17, 12) and d.speed.land == 20


def test_tenth_level_rogue_by_hand():
    r = load_template("halfling-rogue-10")     # Small; Dex 15+2+1+1 = 19 (+4), Con 14 (+2)
    assert r.hp == 8 + 9 * (4 + 2)                # d6
    assert r.bab == 10 * 3 // 4
    assert r.ac == 10 + 1 + 4 + (3 + 2) + 1 + 1   # size, Dex, +2 studded leather, ring +1, Dodge
    assert r.flat_footed_ac == r.ac               # uncanny dodge keeps Dex and dodge
    assert (r.saves.fort, r.saves.ref, r.saves.will) == (3 + 2 + 1 + 2, 7 + 4 + 1 + 2, 3 + 0 + 1 + 2)
    assert r.sneak_attack == Dice(5, 6)           # +1d6 at 1st and every odd level
    assert {"evasion", "improved-evasion", "uncanny-dodge", "improved-uncanny-dodge"} <= set(r.features)
    assert r.features.count("trap-sense") == 3    # +1 at 3rd, +2 at 6th, +3 at 9th
    assert r.attack("short-sword").bonuses == (7 + 4 + 1 + 2, 7 + 4 + 1 + 2 - 5)   # finesse
    assert r.grapple == 7 + 0 - 4


def test_tenth_level_casters_by_hand():
    w = load_template("elf-wizard-10")         # Int 15+1+1 = 17 (+3), Con 14-2 = 12 (+1), Dex 15 (+2)
    assert w.hp == 5 + 9 * (3 + 1) + 3
    assert (w.ac, w.saves.will) == (10 + 2 + 2, 7 + 1 + 2)
    # SRD Table: The Wizard, 10th: 4 4 4 3 3 2, + bonus spells of Int +3 for 1st-3rd
    assert w.spells.slots == (4, 4 + 1, 4 + 1, 3 + 1, 3, 2)
    assert (w.spells.max_level, w.spells.save_dc(5)) == (5, 10 + 5 + 3)
    c = load_template("human-cleric-10")       # Wis 15+1+1 = 17 (+3), Con 14 (+2), Toughness
    assert c.hp == 10 + 9 * (5 + 2) + 3
    assert c.ac == 10 + (5 + 2) + (2 + 1) + 2
    assert (c.saves.fort, c.saves.ref, c.saves.will) == (7 + 2 + 2, 3 + 0 + 2, 7 + 3 + 2 + 2)   # Iron Will
    # SRD Table: The Cleric, 10th: 6 4 4 3 3 2, + Wis +3 bonus spells, + one domain slot per level
    assert (c.spells.slots, c.spells.domain_slots) == ((6, 5, 5, 4, 3, 2), (0, 1, 1, 1, 1, 1))
    assert c.spells.domain_prepared[5] == "mass-cure-light-wounds"


def test_tenth_level_barbarian_by_hand_raging_and_fatigued():
    b = load_template("human-barbarian-10")    # Str 15+1+1 = 17 (+3), Dex 13 (+1), Con 14 (+2)
    assert b.hp == 14 + 9 * (7 + 2)               # d12
    assert b.ac == b.flat_footed_ac == 10 + 1 + (4 + 2) + 1   # +2 chain shirt, ring +1; uncanny dodge
    assert (b.saves.fort, b.saves.ref, b.saves.will) == (7 + 2 + 2, 3 + 1 + 2, 3 + 1 + 2)
    axe = b.attack("greataxe")                    # BAB 10 + 3 + WF 1 + 2; two-handed: 3 x 1.5 = 4 + 2
    assert (axe.bonuses, str(axe.damage)) == ((16, 11), "1d12+6")
    assert (b.speed.land, b.defenses.damage_reduction, b.defenses.dr_bypass) == (30 + 10, 2, "-")
    r = raging(b)                                 # Str 21 (+5), Con 18 (+4), +2 Will, -2 AC
    assert (r.hp, r.ac, r.touch_ac, r.saves.will, r.grapple) == (95 + 2 * 10, 16, 10, 6 + 2, 10 + 5)
    assert (r.attack("greataxe").bonuses, str(r.attack("greataxe").damage)) == ((18, 13), "1d12+9")
    assert rage_rounds(r) == 3 + 4
    f = after_rage(r)                             # fatigued: Str 15 (+2), Dex 11 (+0)
    assert (f.hp, f.ac, f.saves.ref, str(f.attack("greataxe").damage)) == (95, 17, 5, "1d12+5")
    assert load_template("human-barbarian-8").speed.land == 40
    heavy = with_loadout(b, armor="full-plate")   # no fast movement in heavy armor: 30 -> 20
    assert heavy.speed.land == 20


def test_tenth_level_ranger_by_hand():
    r = load_template("elf-ranger-10")         # Dex 15+2+1+1 = 19 (+4), Con 14-2 = 12 (+1), Str 13 (+1)
    assert r.hp == 9 + 9 * (5 + 1)                # d8
    assert r.ac == 10 + 4 + (4 + 2) + 1           # +2 chain shirt (max Dex +4), ring +1
    assert (r.saves.fort, r.saves.ref, r.saves.will) == (7 + 1 + 2, 7 + 4 + 2, 3 + 1 + 2)
    bow = r.attack("composite-longbow")           # BAB 10 + Dex 4 + WF 1 + 2; Str 1 (rating 1) + 2
    assert (bow.bonuses, str(bow.damage)) == ((17, 12), "1d8+3")
    # favored enemies at 1st, 5th, 10th: +2 each, the first raised by 2 at 5th and at 10th
    assert r.favored_enemy == (("aberration", 6), ("vermin", 2), ("giant", 2))
    assert (r.favored_bonus("giant"), r.favored_bonus("humanoid")) == (2, 0)
    assert load_template("elf-ranger-5").favored_enemy == (("aberration", 4), ("vermin", 2))
    assert "evasion" in r.features and "evasion" not in load_template("elf-ranger-8").features


def test_favored_enemies_must_match_the_level(tmp_path):
    from sim.rules import _data

    text = _data.data_dir().joinpath("pcs", "elf-ranger-5.toml").read_text()
    p = tmp_path / "r.toml"
    p.write_text(text.replace('favored_enemies = ["aberration", "vermin"]', 'favored_enemies = ["aberration"]'))
    with pytest.raises(DataError, match=r"r\.toml: favored_enemies: lists 1, a level-5 character has 2; list exactly 2"):
        load_template(p)
    p.write_text(text.replace('"vermin"]', '"drow"]'))
    with pytest.raises(DataError, match=r"favored_enemies: unknown creature type 'drow'; use one of aberration"):
        load_template(p)


def test_tenth_level_sorcerer_by_hand():
    s = load_template("human-sorcerer-10")     # Cha 15+1+1 = 17 (+3), Con 14 (+2), Toughness
    assert s.hp == 6 + 9 * (3 + 2) + 3
    assert (s.ac, s.saves.fort, s.saves.ref, s.saves.will) == (10 + 1 + 2, 3 + 2 + 2, 3 + 1 + 2, 7 - 1 + 2)
    sp = s.spells                                 # SRD Table: The Sorcerer, 10th: 6 6 6 6 5 3 + Cha +3
    assert (sp.slots, sp.spontaneous, sp.save_dc(5)) == ((6, 6 + 1, 6 + 1, 6 + 1, 5, 3), True, 10 + 5 + 3)
    assert [len(k) for k in sp.prepared] == [9, 5, 4, 3, 2, 1]   # SRD Table: Sorcerer Spells Known
    assert sp.prepared[5] == ("cone-of-cold",)


def test_sorcerer_spells_known_are_checked(tmp_path):
    from sim.rules import _data

    text = _data.data_dir().joinpath("pcs", "human-sorcerer-1.toml").read_text()
    p = tmp_path / "s.toml"
    p.write_text(text.replace('"1" = ["magic-missile", "sleep"]', '"1" = ["magic-missile", "sleep", "shield"]'))
    with pytest.raises(DataError, match=r"s\.toml: \[spells.known\] 1: 3 spells listed, a level-1 sorcerer knows 2"):
        load_template(p)
    p.write_text(text.replace('"1" = ["magic-missile", "sleep"]', '"1" = ["magic-missile", "web"]'))
    with pytest.raises(DataError, match=r"\[spells.known\] 1: web is not a level-1 sorcerer spell"):
        load_template(p)
    p.write_text(text.replace("[spells.known]", "[spells.prepared]"))
    with pytest.raises(DataError, match=r"\[spells.prepared\]: a sorcerer lists its spells as \[spells.known\]"):
        load_template(p)


def test_cloak_of_resistance_is_a_save_bonus(tmp_path):
    from sim.rules import _data

    text = _data.data_dir().joinpath("pcs", "human-fighter-10.toml").read_text()
    p = tmp_path / "f.toml"
    p.write_text(text.replace("resistance = 2", "resistance = 5"))
    b = load_template(p)
    assert (b.saves.fort, b.saves.ref, b.saves.will) == (11 + 3, 6 + 3, 8 + 3)
    p.write_text(text.replace("resistance = 2", "resistance = 6"))
    with pytest.raises(DataError, match="resistance"):
        load_template(p)


def test_bonus_spells_table():
    assert [bonus_spells(1, l) for l in range(5)] == [0, 1, 0, 0, 0]
    assert [bonus_spells(4, l) for l in range(6)] == [0, 1, 1, 1, 1, 0]
    assert [bonus_spells(5, l) for l in range(6)] == [0, 2, 1, 1, 1, 1]


def test_gear_and_light_sources():
    c = load_template("human-cleric-1")
    assert dict(c.gear)["hooded-lantern"] == 1 and dict(c.gear)["oil-flask"] == 3
    assert {g.key for g in c.light_sources} == {"hooded-lantern"}
    f = load_template("human-fighter-2")
    assert dict(f.gear)["torch"] == 3 and dict(f.gear)["alchemists-fire"] == 2 and dict(f.gear)["tindertwig"] == 2


# -- loadouts: armor off in a crawlway (RULES §2.4, §7.33) --------------------------------------------

def test_without_armor():
    f = load_template("human-fighter-3")            # breastplate + heavy steel shield, Dex 13
    bare = without_armor(f)
    assert (bare.ac, bare.touch_ac, bare.flat_footed_ac) == (19 - 5, 12, 17 - 5)
    assert (bare.speed.land, bare.escape_artist) == (30, 1 + 3 - 2)
    naked = without_armor(f, drop_shield=True)
    assert (naked.ac, naked.speed.land, naked.escape_artist) == (12, 30, 4)
    assert f.ac == 19 and f.armor is not None       # the original is unchanged
    d = without_armor(load_template("dwarf-fighter-5"), drop_shield=True)
    assert (d.ac, d.speed.land, d.escape_artist, d.max_dex_bonus) == (11, 20, 1 + 4, None)
    r = without_armor(load_template("halfling-rogue-3"))
    assert (r.ac, r.escape_artist) == (17 - 3, 3 + 6 + 2)
    ogre = without_armor(load_template("ogre"))
    assert (ogre.ac, ogre.speed.land) == (13, 40)
    worn = with_loadout(load_template("elf-wizard-1"), armor=armor("chain-shirt"))
    assert (worn.ac, worn.escape_artist, worn.attack("dagger").bonus) == (16, 0, -2)   # nonproficient


def test_stat_blocks_are_immutable_and_hashable():
    b = load_template("goblin")
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.hp = 99
    assert hash(b) == hash(load_template("goblin"))
    assert load_template("goblin") is load_template("goblin")     # shipped blocks are cached


def test_creature_body():
    name, body = creature_body("goblin")
    assert (name, body.size, body.height) == ("Goblin", Size.SMALL, 3.25)
    name, body = creature_body("rat-swarm")
    assert body.is_swarm and body.opening == pytest.approx(0.25)
    assert creature_body("ogre")[1].height == 9.5 and creature_body("ogre")[1].space == 10
