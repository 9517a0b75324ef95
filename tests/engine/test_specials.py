"""The bestiary's abilities in a fight, with exact numbers (README "The bestiary"): the thrown web
(its DCs, entangled, breaking free), rust (a longsword gone, chainmail gone and the AC with it),
the umber hulk's confusing gaze (its DC and the d% table the AI follows), light blindness and
sensitivity, spell resistance, and the spiders' and drow's poisons."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from sim.engine.effects import Effect, find, put
from sim.engine import attacks, specials
from sim.engine.actions import Charge, Delay, Impossible, Run, Strike
from sim.engine.ai.decide import default_policy
from sim.engine.fight import new_encounter
from sim.terrain.grid import MapLight

from .helpers import encounter, ready, spec
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 16] * 5


def fight(combatants, rows=HALL, **kw):
    return ready(encounter(rows, [{"id": i, "template": t, "team": team, "at": list(at)}
                                  for i, t, team, at in combatants], **kw))


def strike(enc, who, target, attack, *rolls):
    """``who`` makes a standard-action attack with ``attack`` on its turn, the dice fixed."""
    turn_of(enc, who)
    enc.rng = Fixed(*rolls)
    mark = len(enc.events)
    result = enc.perform(Strike(target, attack))
    return result, enc.events[mark:]


# ---- web -------------------------------------------------------------------------------------------

def test_a_web_entangles_with_the_printed_dcs_and_halves_speed():
    enc = fight([("s", "monstrous-spider-medium", "m", (4, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    speed = a.block.speed.land
    result, events = strike(enc, "s", "a", "web", 20)
    assert result
    (atk,) = [e for e in events if e.type == "attack"]
    assert atk.kind == "ranged_touch" and atk.hit and atk.modifiers == {"base_attack": 1, "dex": 3, "size": 0}
    assert atk.ac == a.block.touch_ac                     # a touch attack
    assert "entangled" in a.conditions
    assert specials.entangled(enc, a) == (12, 16, "s")    # escape DC 12, break DC 16 (SRD web table, Medium)
    assert a.block.speed.land == speed // 2
    assert specials.webs_left(enc, enc.creatures["s"]) == 7
    (cond,) = [e for e in events if e.type == "condition" and e.condition == "entangled" and e.detail]
    assert cond.detail == {"escape_dc": 12, "break_dc": 16, "speed": speed // 2}


def test_entangled_attacks_at_minus_2_and_loses_2_ac_and_cannot_run_or_charge():
    enc = fight([("s", "monstrous-spider-medium", "m", (3, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a, s = enc.creatures["a"], enc.creatures["s"]
    specials.entangle(enc, s, a)
    plan = attacks.plan_attack(enc, a, a.attack_named("longsword"), s)
    assert plan.modifiers["entangled"] == -2
    ac, parts = attacks.target_ac(enc, s, a, ranged=False)
    assert parts["entangled"] == -2 and ac == a.block.ac - 2
    turn_of(enc, "a")
    assert "entangled" in enc.perform(Run((10, 2))).reason
    assert "entangled" in enc.perform(Charge("s")).reason


def test_breaking_free_by_strength_against_the_break_dc():
    enc = fight([("s", "monstrous-spider-medium", "m", (6, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    specials.entangle(enc, enc.creatures["s"], a)
    str_mod = a.block.abilities.mod("str")
    # Str +2 against DC 16 or Escape Artist -2 (Dex +1, armor check -6) against DC 12: even odds
    assert (str_mod, a.block.escape_artist) == (2, -2)
    assert specials.break_free_odds(a, 12, 16) == ("escape_artist", -14)
    turn_of(enc, "a")
    enc.rng = Fixed(16 - str_mod - 1)                     # one short
    assert enc.perform(specials.BreakFree(how="strength"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.modifier, check.success) == ("strength", 16, str_mod, False)
    assert "entangled" in a.conditions and not enc.turn.standard
    turn_of(enc, "a")
    enc.rng = Fixed(16 - str_mod)
    assert enc.perform(specials.BreakFree(how="strength"))
    assert "entangled" not in a.conditions and a.block.speed.land == a.base_block.speed.land


def test_escape_artist_against_the_escape_dc():
    enc = fight([("s", "monstrous-spider-large", "m", (6, 2)), ("a", "halfling-rogue-3", "p", (2, 2))])
    a = enc.creatures["a"]
    specials.entangle(enc, enc.creatures["s"], a)
    assert specials.entangled(enc, a)[:2] == (13, 17)    # Large: 13 / 17
    turn_of(enc, "a")
    enc.rng = Fixed(13 - a.block.escape_artist)
    assert enc.perform(specials.BreakFree(how="escape_artist"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.modifier, check.success) == ("escape_artist", 13, a.block.escape_artist, True)
    assert "entangled" not in a.conditions


def test_a_web_holds_at_most_one_size_larger_and_eight_a_day():
    enc = fight([("s", "monstrous-spider-tiny", "m", (4, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    result, _ = strike(enc, "s", "a", "web", 20)
    assert isinstance(result, Impossible) and "one size larger" in result.reason
    enc = fight([("s", "monstrous-spider-small", "m", (4, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    enc.creatures["s"].uses["web"] = 8                     # all eight thrown
    result, _ = strike(enc, "s", "a", "web", 20)
    assert isinstance(result, Impossible) and "no web left" in result.reason


def test_the_ai_throws_a_web_then_the_victim_breaks_free():
    enc = fight([("s", "monstrous-spider-medium", "m", (6, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    s, a = enc.creatures["s"], enc.creatures["a"]
    turn_of(enc, "s")
    assert default_policy(enc, s, enc.turn) == Strike("a", "web")
    specials.entangle(enc, s, a)
    turn_of(enc, "a")
    assert default_policy(enc, a, enc.turn) == specials.BreakFree()


# ---- rust ------------------------------------------------------------------------------------------

def test_a_longsword_that_hurts_a_rust_monster_is_destroyed():
    enc = fight([("a", "human-fighter-3", "p", (2, 2)), ("r", "rust-monster", "m", (3, 2))])
    a = enc.creatures["a"]
    assert a.wielding == "longsword"
    result, events = strike(enc, "a", "r", "longsword", 19, 1)
    assert result and any(e.type == "damage" and e.target == "r" for e in events)
    (rusted,) = [e for e in events if e.type == "condition" and e.condition == "rusted"]
    assert rusted.detail == {"item": "longsword", "slot": "weapon"}
    assert a.attack_named("longsword") is None and a.wielding != "longsword"
    assert any(x.mode == "melee" for x in a.block.attacks)          # it still has something to fight with


def test_a_wooden_greatclub_does_not_rust():
    enc = fight([("o", "ogre", "p", (2, 2)), ("r", "rust-monster", "m", (4, 2))])
    result, events = strike(enc, "o", "r", "greatclub", 19, 1)
    assert result and not [e for e in events if e.type == "condition" and e.condition == "rusted"]
    assert enc.creatures["o"].attack_named("greatclub") is not None


def test_the_antennae_corrode_armor_then_shield_then_the_weapon():
    enc = fight([("r", "rust-monster", "m", (3, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    ac, hp = a.block.ac, a.hp
    assert a.block.armor.key == "breastplate"
    result, events = strike(enc, "r", "a", "antennae", 19)
    (atk,) = [e for e in events if e.type == "attack"]
    assert atk.kind == "touch" and atk.ac == a.base_block.touch_ac and atk.hit
    assert a.hp == hp and not [e for e in events if e.type == "damage"]     # no hit point damage
    assert a.block.armor is None and a.block.ac == ac - 5                   # breastplate +5 gone
    result, _ = strike(enc, "r", "a", "antennae", 19)
    assert a.block.shield is None and a.block.ac == ac - 5 - 2              # heavy steel shield +2 gone
    result, _ = strike(enc, "r", "a", "antennae", 19)
    assert a.attack_named("longsword") is None
    a.put_armor_on()                                                         # nothing to put back on
    assert a.block.armor is None


# ---- confusing gaze --------------------------------------------------------------------------------

def test_the_gaze_save_dc_15_and_eight_rounds_of_confusion():
    enc = fight([("u", "umber-hulk", "m", (6, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    enc.rng = Fixed(1, 30)                      # the Will save fails; d% 30: babble
    turn_of(enc, "a")
    save = [e for e in of_type(enc, "save") if e.cause == "confusing_gaze"][-1]
    assert (save.dc, save.save, save.success) == (15, "will", False)
    assert "confused" in a.conditions
    assert find(enc.creatures["a"], "confused") == Effect("confused", "u", enc.round + 7)       # 8 rounds
    assert specials.confusion_of(enc, a) == ("babble", enc.creatures["u"])
    assert default_policy(enc, a, enc.turn) == Delay()


@pytest.mark.parametrize("roll,behaviour", [(1, "attack_caster"), (10, "attack_caster"), (11, "act_normally"),
                                            (20, "act_normally"), (21, "babble"), (50, "babble"), (51, "flee"),
                                            (70, "flee"), (71, "attack_nearest"), (100, "attack_nearest")])
def test_the_confusion_table(roll, behaviour):
    assert specials.confusion_behaviour(roll) == behaviour


def test_confused_creatures_attack_the_nearest_even_a_friend_or_flee():
    enc = fight([("u", "umber-hulk", "m", (10, 2)), ("a", "human-fighter-3", "p", (2, 2)),
                 ("b", "human-fighter-3", "p", (3, 2))])
    a = enc.creatures["a"]
    put(enc.creatures["a"], Effect("confused", "u", enc.round + 5))
    enc.rng = Fixed(80)                         # already confused: no gaze save; d% 80: attack the nearest
    turn_of(enc, "a")
    act = default_policy(enc, a, enc.turn)
    assert isinstance(act, Strike) and act.target == "b"
    enc.memory.confused_act["a"] = (enc.round, "flee", None)
    act = default_policy(enc, a, enc.turn)
    assert act.to[0] < a.pos[0] or act.to[0] == a.pos[0]           # away from the hulk on the right
    assert act.double


def test_no_gaze_for_the_blind_the_mindless_or_the_far():
    enc = fight([("u", "umber-hulk", "m", (6, 2)), ("g", "grimlock", "p", (2, 2)),
                 ("s", "monstrous-spider-medium", "p", (2, 4)), ("f", "human-fighter-3", "p", (14, 4))])
    for who in ("g", "s", "f"):
        enc.rng = Fixed(1, 30)
        turn_of(enc, who)
    assert not [e for e in of_type(enc, "save") if e.cause == "confusing_gaze"]
    assert not {"confused"} & (enc.creatures["g"].conditions | enc.creatures["s"].conditions
                               | enc.creatures["f"].conditions)


def test_confusion_ends_after_its_rounds():
    enc = fight([("u", "umber-hulk", "m", (14, 4)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    put(a, Effect("confused", "u", enc.round - 1))
    turn_of(enc, "a")
    assert "confused" not in a.conditions


# ---- light blindness and sensitivity ----------------------------------------------------------------

def lit_fight(combatants, **settings):
    s = spec(HALL, [{"id": i, "template": t, "team": team, "at": list(at)} for i, t, team, at in combatants],
             vision=True, **settings)
    s = dataclasses.replace(s, grid=s.grid.replace(lights=(MapLight(at=(4, 2), bright_ft=20, shadowy_ft=40),)))
    return ready(new_encounter(s))


def test_drow_blinded_a_round_then_dazzled_in_bright_light():
    enc = lit_fight([("d", "drow-warrior", "m", (5, 2)), ("a", "human-fighter-3", "p", (4, 2))],
                    light_sensitivity="bright")
    d, a = enc.creatures["d"], enc.creatures["a"]
    turn_of(enc, "d")
    assert {"blinded", "dazzled"} <= d.conditions
    assert enc.miss_chance(d, a) == 50 and enc.blinded(d)
    plan = attacks.plan_attack(enc, d, d.attack_named("rapier"), a)
    assert plan.modifiers["dazzled"] == -1
    turn_of(enc, "d")
    assert "blinded" not in d.conditions and "dazzled" in d.conditions


def test_duergar_dazzled_only_in_bright_light_and_never_by_default():
    enc = lit_fight([("g", "duergar-warrior", "m", (5, 2)), ("x", "duergar-warrior", "m", (15, 4)),
                     ("a", "human-fighter-3", "p", (3, 2))], light_sensitivity="bright")
    turn_of(enc, "g")
    turn_of(enc, "x")
    assert enc.creatures["g"].conditions >= {"dazzled"} and "blinded" not in enc.creatures["g"].conditions
    assert "dazzled" not in enc.creatures["x"].conditions      # 50 ft from the light: dark
    enc = lit_fight([("g", "duergar-warrior", "m", (5, 2)), ("a", "human-fighter-3", "p", (3, 2))])
    turn_of(enc, "g")
    assert "dazzled" not in enc.creatures["g"].conditions      # "daylight": the SRD's sunlight only


# ---- spell resistance and poisons -----------------------------------------------------------------

def test_spell_resistance_12_against_a_3rd_level_wizard():
    from sim.engine.actions import Cast
    enc = fight([("w", "elf-wizard-3", "p", (2, 2)), ("d", "drow-warrior", "m", (8, 2))])
    d = enc.creatures["d"]
    hp = d.hp
    turn_of(enc, "w")
    enc.rng = Fixed(8)                                  # 8 + caster level 3 = 11 < SR 12
    assert enc.perform(Cast("magic-missile", target="d"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.modifier, check.success) == ("caster_level", 12, 3, False)
    assert d.hp == hp
    enc.creatures["w"].spells_left = {1: ["magic-missile"]}   # a second one
    turn_of(enc, "w")
    enc.rng = Fixed(9)                                  # 9 + 3 = 12: through
    assert enc.perform(Cast("magic-missile", target="d"))
    assert of_type(enc, "check")[-1].success and d.hp < hp


def test_a_medium_spiders_bite_poison_dc_12():
    enc = fight([("s", "monstrous-spider-medium", "m", (3, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    result, events = strike(enc, "s", "a", "bite", 19, 1)
    (save,) = [e for e in events if e.type == "save"]
    assert (save.dc, save.save, save.cause, save.success) == (12, "fortitude", "poison", False)
    damage = [e for e in events if e.type == "condition" and e.condition == "ability_damage"]
    assert damage[0].detail["ability"] == "str" and damage[0].detail["amount"] == 1     # 1d4 Str, the die fixed at 1


def test_drow_sleep_poison_knocks_out_for_a_minute_then_for_the_fight():
    enc = fight([("d", "drow-warrior", "m", (6, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    enc.creatures["d"].wielding = "hand-crossbow"
    result, events = strike(enc, "d", "a", "hand-crossbow", 19, 1)
    (save,) = [e for e in events if e.type == "save"]
    assert (save.dc, save.success) == (13, False)
    assert "poison_unconscious" in a.conditions and not a.in_fight and a.helpless
    assert find(enc.creatures["a"], "knocked_out").until == enc.round + 10


@pytest.mark.parametrize("secondary,asleep_after", [(20, False), (1, True)])
def test_drow_sleep_poison_secondary_save_a_minute_later(secondary, asleep_after):
    enc = fight([("d", "drow-warrior", "m", (6, 2)), ("a", "human-fighter-3", "p", (2, 2))])
    a = enc.creatures["a"]
    enc.creatures["d"].wielding = "hand-crossbow"
    strike(enc, "d", "a", "hand-crossbow", 19, 1)
    start = enc.round
    assert a.poison_due == [(start + 10, "drow-poison", "d")]
    enc.round = start + 10
    enc.rng = Fixed(secondary)
    turn_of(enc, "a")
    save = [e for e in of_type(enc, "save") if e.cause == "poison_secondary"][-1]
    assert (save.dc, save.success) == (13, secondary == 20)
    assert "poison_unconscious" in a.conditions                 # the first minute is not over yet
    enc.round = start + 11
    turn_of(enc, "a")
    assert ("poison_unconscious" in a.conditions) is asleep_after   # 2d4 hours: the rest of the fight


def test_a_confused_creature_that_is_attacked_attacks_its_attacker_next_turn():
    enc = fight([("u", "umber-hulk", "m", (10, 2)), ("a", "human-fighter-3", "p", (2, 2)),
                 ("b", "human-fighter-3", "p", (3, 2)), ("c", "human-fighter-3", "p", (2, 3))])
    a = enc.creatures["a"]
    put(enc.creatures["a"], Effect("confused", "u", enc.round + 5))
    strike(enc, "c", "a", "longsword", 2)                    # a miss still counts as an attack
    mark = len(enc.events)
    enc.rng = Fixed(30)                                      # would be "babble": no roll is made
    turn_of(enc, "a")
    assert specials.confusion_of(enc, a) == ("attack_attacker", enc.creatures["c"])
    assert not [e for e in enc.events[mark:] if e.type == "condition" and e.cause == "confusion_roll"]
    assert default_policy(enc, a, enc.turn) == Strike("c", "longsword")


def test_a_bad_light_sensitivity_setting_is_refused_with_its_line(tmp_path):
    from sim.base.errors import DataError
    from sim.scenario.files import load_encounter
    text = (Path(__file__).resolve().parents[2] / "maps" / "drow_patrol.toml").read_text(encoding="utf-8")
    p = tmp_path / "patrol.toml"
    p.write_text(text.replace('light_sensitivity = "bright"', 'light_sensitivity = "sunlight"'))
    with pytest.raises(DataError, match=r'patrol\.toml:\d+: \[settings\] light_sensitivity: must be "daylight" or '
                                        r'"bright", got \'sunlight\''):
        load_encounter(p)
