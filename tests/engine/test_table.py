"""At the table (issue 20 items 3-4): dice typed by the players, and the DM's hand.

A typed die comes from the values given, in order, and is recorded (a ``roll`` event with
``entered: true``); when none is left the engine asks (NeedRoll) with whose roll, what for, the
die and the modifier. Everyone else's dice stay seeded: a fight whose typed dice are the ones the
seed would have rolled is the same fight. The DM's edits are ``dm`` events and obey the rules of
placement (RULES §5.5 for hit points)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine import dm
from sim.engine import events as ev
from sim.engine.actions import Strike
from sim.engine.checks import DiceHand, NeedRoll, RollRequest
from sim.engine.effects import find
from sim.engine.saved import snapshot

from .helpers import encounter, ready

ROOM = ["########",
        "#......#",
        "#......#",
        "########"]
DUEL = [{"id": "bruna", "name": "Bruna", "template": "human-fighter-3", "team": "party", "at": (2, 1)},
        {"id": "gob", "template": "goblin", "team": "monsters", "at": (3, 1)}]


def _bruna_up(seed=3):
    """A fight started, with Bruna (typed dice) to act, beside the goblin."""
    enc = encounter(ROOM, DUEL, seed=seed)
    enc.dice = DiceHand(hands={"bruna"})
    with pytest.raises(NeedRoll) as need:
        enc.start()
    assert need.value.request.purpose == "initiative"
    enc = encounter(ROOM, DUEL, seed=seed)
    enc.dice = DiceHand(hands={"bruna"}, typed=[20])
    ready(enc)
    enc.begin_turn()
    assert enc.current().id == "bruna"
    return enc


def test_typed_attack_asks_with_purpose_die_and_modifier_then_uses_the_value():
    enc = _bruna_up()
    before = snapshot.dumps(enc, encounter_file="test.toml")
    with pytest.raises(NeedRoll) as need:
        enc.perform(Strike("gob"))
    r = need.value.request
    assert (r.actor, r.die, r.low, r.high) == ("bruna", "d20", 1, 20)
    assert r.purpose.endswith("attack vs Gob") and r.prompt.startswith("Bruna: ")
    assert f"d20 + {r.modifier}" in r.prompt and r.modifier > 0
    # played again from before, with a natural 1 typed: a miss (RULES §0.2), the roll recorded
    enc = snapshot.load_text(before, enc.spec, policy=enc.policy)
    enc.dice = DiceHand(hands={"bruna"}, typed=[1])
    mark = len(enc.events)
    assert enc.perform(Strike("gob"))
    new = enc.events[mark:]
    rolled = [e for e in new if isinstance(e, ev.Rolled)]
    att = next(e for e in new if isinstance(e, ev.Attack))
    assert [(e.value, e.entered, e.die) for e in rolled] == [(1, True, "d20")]
    assert att.roll == 1 and not att.hit and new.index(rolled[0]) < new.index(att)
    assert rolled[0].to_json()["entered"] is True


def test_typed_damage_dice_add_the_bonus_and_the_goblin_rolls_its_own():
    enc = _bruna_up()
    before = snapshot.dumps(enc, encounter_file="test.toml")
    enc.dice.typed = [15]            # 15 + 6 hits the goblin's AC 15 (no threat: a longsword threatens on 19-20)
    with pytest.raises(NeedRoll) as need:
        enc.perform(Strike("gob"))
    r = need.value.request
    assert (r.purpose, r.die, r.low, r.high) == ("longsword damage vs Gob", "1d8", 1, 8)
    enc = snapshot.load_text(before, enc.spec, policy=enc.policy)
    enc.dice = DiceHand(hands={"bruna"}, typed=[15, r.low])
    mark = len(enc.events)
    enc.perform(Strike("gob"))
    dmg = next(e for e in enc.events[mark:] if isinstance(e, ev.Damage))
    assert sum(dmg.parts.values()) == max(1, r.low + r.modifier)   # the dice typed + the bonus (Str)


def test_a_typed_value_out_of_range_is_refused_in_the_prompt_and_in_the_core():
    r = RollRequest("bruna", "Bruna", "longsword damage vs Gob", "1d8", 3, 1, 8)
    assert r.prompt == "Bruna: longsword damage vs Gob, 1d8 + 3"
    assert r.check("9") == "1d8 rolls 1 to 8, not 9"
    assert r.check("0") == "1d8 rolls 1 to 8, not 0"
    assert r.check("-2") == "1d8 rolls 1 to 8, not -2"
    assert r.check(" 8 ") == 8
    enc = _bruna_up()
    enc.dice.typed = [21]
    with pytest.raises(ValueError, match="d20 rolls 1 to 20, not 21"):
        enc.perform(Strike("gob"))


def test_typed_initiative_is_used_and_the_others_stay_seeded():
    """The goblin's player types its initiative; Bruna's stays the seed's, drawn exactly as in the
    fight with no typed dice (her roll is the generator's first draw in both)."""
    plain = encounter(ROOM, DUEL, seed=5)
    plain.start()
    seeded = {o["id"]: o for e in plain.events if isinstance(e, ev.Initiative) for o in e.order}
    typed = encounter(ROOM, DUEL, seed=5)
    typed.dice = DiceHand(hands={"gob"}, typed=[1])
    typed.start()
    got = {o["id"]: o for e in typed.events if isinstance(e, ev.Initiative) for o in e.order}
    assert got["gob"]["roll"] == 1 and got["gob"]["total"] == 1 + got["gob"]["modifier"]
    assert got["bruna"]["roll"] == seeded["bruna"]["roll"]
    rolled = [e for e in typed.events if isinstance(e, ev.Rolled)]
    assert [(e.actor, e.purpose, e.die, e.value, e.entered) for e in rolled] == [("gob", "initiative", "d20", 1, True)]
    assert typed.dice.typed == []              # every typed value used


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=-30, max_value=60))
def test_property_a_typed_value_is_taken_exactly_when_the_die_can_roll_it(v):
    for die, low, high in (("d20", 1, 20), ("1d8", 1, 8), ("2d6", 2, 12)):
        r = RollRequest("bruna", "Bruna", "x", die, 0, low, high)
        got = r.check(str(v))
        assert got == v if low <= v <= high else got == f"{die} rolls {low} to {high}, not {v}"


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=-14, max_value=9))
def test_property_dm_hit_points_give_the_state_the_hit_point_rules_give(hp):
    """Any total the DM sets from -10 to the maximum: that total, one dm event first, and the state
    of RULES §5.5; any other refused with the range."""
    enc = encounter(ROOM, DUEL, seed=3)
    ready(enc)
    gob = enc.creatures["gob"]
    if not -10 <= hp <= gob.max_hp:
        assert dm.set_hp(enc, "gob", hp).reason == f"Gob's hit points go from -10 to {gob.max_hp}, not {hp}"
        assert not any(e.type == "dm" for e in enc.events)
        return
    if hp == gob.hp:
        assert dm.set_hp(enc, "gob", hp).reason == f"Gob has {hp} hit points already"
        return
    done = dm.set_hp(enc, "gob", hp)
    assert gob.hp == hp and done.events[0].type == "dm" and done.events[0].after == {"hp": hp}
    state = "dead" if hp <= -10 else "dying" if hp < 0 else "disabled" if hp == 0 else None
    for cond in ("dead", "dying", "disabled"):
        assert (cond in gob.conditions) == (cond == state), (hp, gob.conditions)


def test_no_hand_no_roll_events_and_the_hand_is_not_saved():
    enc = _bruna_up()
    text = snapshot.dumps(enc, encounter_file="test.toml")
    assert "dice" not in json.loads(text)["state"] and "DiceHand" not in text
    again = snapshot.load_text(text, enc.spec, policy=enc.policy)
    assert again.dice is None


# -- the DM's hand --------------------------------------------------------------------------------------------------

def test_dm_hit_points_follow_the_rules_of_hit_points():
    enc = _bruna_up()
    gob = enc.creatures["gob"]
    done = dm.set_hp(enc, "gob", 0)
    kinds = [e.type for e in done.events]
    assert kinds[0] == "dm" and done.events[0].before == {"hp": gob.max_hp} and done.events[0].after == {"hp": 0}
    assert "disabled" in gob.conditions        # 0 hp: disabled (RULES §5.5)
    done = dm.set_hp(enc, "gob", -10)
    assert "dead" in gob.conditions and any(isinstance(e, ev.Died) for e in done.events)
    assert dm.set_hp(enc, "gob", 3).reason == "Gob is dead: the DM's hand moves the living"
    bruna = enc.creatures["bruna"]
    assert dm.set_hp(enc, "bruna", bruna.max_hp + 1).reason == f"Bruna's hit points go from -10 to {bruna.max_hp}, not {bruna.max_hp + 1}"
    dm.set_hp(enc, "bruna", -3)
    assert "dying" in bruna.conditions
    dm.set_hp(enc, "bruna", 5)
    assert not ({"dying", "disabled"} & bruna.conditions) and bruna.hp == 5


def test_dm_conditions_added_and_cleared():
    enc = _bruna_up()
    done = dm.set_condition(enc, "gob", "prone", True)
    assert enc.creatures["gob"].prone and done.events[0].after == {"prone": True}
    assert [e.type for e in done.events] == ["dm", "condition"]
    assert dm.set_condition(enc, "gob", "prone", True).reason == "Gob is already prone"
    assert not dm.set_condition(enc, "gob", "dying", True)
    assert "follow the hit points" in dm.set_condition(enc, "gob", "dying", True).reason
    dm.set_condition(enc, "gob", "blessed", True)
    assert find(enc.creatures["gob"], "blessed").until == enc.round + dm.bless_rounds() == enc.round + 10
    dm.set_condition(enc, "gob", "blessed", False)
    assert "blessed" not in enc.creatures["gob"].conditions and find(enc.creatures["gob"], "blessed") is None


def test_dm_move_only_to_a_legal_square_and_no_action_spent():
    enc = _bruna_up()
    t = enc.turn
    assert dm.move_token(enc, "bruna", (3, 1)).reason == ("Bruna cannot be put there: (3, 1) is already taken by "
                                                           "'gob'; two creatures cannot share a square (swarms and "
                                                           "Tiny creatures excepted)")
    assert dm.move_token(enc, "bruna", (0, 0)).reason == "Bruna cannot be put there: (0, 0) is solid rock; put it on a floor square"
    assert "off the map" in dm.move_token(enc, "bruna", (40, 1)).reason
    done = dm.move_token(enc, "bruna", (6, 2))
    assert enc.creatures["bruna"].pos == (6, 2) and done.events[0].after["at"] == [6, 2]
    assert t.standard and t.move and not any(e.type == "moved" for e in done.events)   # no action, no AoO


def test_dm_pass_turn_then_undo_by_snapshot():
    enc = _bruna_up()
    before = snapshot.dumps(enc, encounter_file="test.toml")
    done = dm.pass_turn(enc)
    assert done.events[0].change == "pass" and enc.turn.ended
    enc.end_turn()
    assert enc.current() is None or enc.turn is None
    back = snapshot.load_text(before, enc.spec, policy=enc.policy)
    assert back.turn is not None and not back.turn.ended and back.current().id == "bruna"


def test_dm_events_read_back_from_a_fight_log(tmp_path):
    enc = _bruna_up()
    dm.set_hp(enc, "gob", 2)
    dm.move_token(enc, "gob", (5, 2))
    p = tmp_path / "log.jsonl"
    ev.write_jsonl(p, enc.events)
    back = list(ev.read_jsonl(p))
    assert [e for e in back if e.type == "dm"] == [e for e in enc.events if e.type == "dm"]
