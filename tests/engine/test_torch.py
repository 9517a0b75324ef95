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
    turn_of(enc, "f")
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


# ---- lit or not (issue 13 item 3): RULES §3.5, §4.6 -------------------------------------------------

def test_an_unlit_torch_is_a_plain_improvised_club():
    # RULES §3.5: the +1 fire is the flame's; unlit, the torch is 1d3 + Str bludgeoning at -4
    enc = ready(encounter(["....."], [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 0],
                                       "weapon": "torch"},
                                      {"id": "g", "template": "goblin", "team": "m", "at": [2, 0]}]))
    f = turn_of(enc, "f")
    assert not f.torch_lit and f.wielding == "torch"
    enc.rng = Fixed(15, 3)
    n = len(enc.events)
    assert enc.perform(Strike("g", "torch"))
    (atk,) = of_type(enc, "attack", n)
    assert atk.modifiers["improvised"] == -4 and atk.hit
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.parts == {"bludgeoning": 3 + 2}


def test_an_unlit_torch_deals_no_fire_to_a_swarm():
    # RULES §4.6: only a LIT torch deals 1d3 fire a hit; unlit, a bat swarm (weapon-immune, §7.15) takes 0
    from sim.engine import attacks
    for lit, expect in ((True, {"fire"}), (False, set())):
        enc = ready(encounter(["......"], [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 0],
                                            "weapon": "torch", "lit": lit},
                                           {"id": "s", "template": "bat-swarm", "team": "m", "at": [2, 0]}]))
        f, s = enc.creatures["f"], enc.creatures["s"]
        plan = attacks.plan_attack(enc, f, f.attack_named("torch"), s)
        enc.rng = Fixed(3)
        n = len(enc.events)
        hp = s.hp
        attacks.weapon_damage(enc, plan, critical=False, multiplier=2)
        (dmg,) = of_type(enc, "damage", n) or [None]
        if lit:
            assert set(dmg.parts) == expect and dmg.parts["fire"] == 3 and s.hp == hp - 3
        else:
            assert s.hp == hp and (dmg is None or dmg.amount == 0 and "fire" not in dmg.parts)


def _lantern_fight(lit):
    return ready(encounter(["........"], [
        {"id": "l", "template": "halfling-rogue-3", "team": "p", "at": [1, 0], "items": {"hooded-lantern": 1},
         "lit": lit},
        {"id": "s", "template": "rat-swarm", "team": "m", "at": [3, 0]}]))


def test_lanterns_carry_a_lit_state_and_only_a_lit_lantern_burns():
    from sim.engine.actions import Throw
    from sim.engine.items import throwable_items
    # encounter lit = true: the lantern burns from the start and bursts into fire (RULES §3.5, §4.6)
    enc = _lantern_fight(True)
    c = turn_of(enc, "l")
    assert c.light == "hooded-lantern" and "hooded-lantern" in throwable_items(c)
    enc.rng = Fixed(19, 4)  # d20 19 hits the swarm's touch AC; 1d4 = 4
    n = len(enc.events)
    assert enc.perform(Throw("hooded-lantern", target="s"))
    fire = [e for e in of_type(enc, "damage", n) if e.target == "s"]
    assert fire and (fire[0].parts, fire[0].amount) == ({"fire": 4}, 6)  # 4 x 1.5 against a swarm (RULES §7.22)
    assert c.light is None and c.items["hooded-lantern"] == 0   # its light left the hand with it
    # unlit: not offered to the AI, and thrown anyway it breaks without fire
    enc = _lantern_fight(False)
    c = turn_of(enc, "l")
    assert c.light is None and "hooded-lantern" not in throwable_items(c)
    assert "hooded-lantern" in throwable_items(c, unprepared=True)
    enc.rng = Fixed(19, 4)
    n = len(enc.events)
    hp = enc.creatures["s"].hp
    assert enc.perform(Throw("hooded-lantern", target="s"))
    assert not of_type(enc, "damage", n) and enc.creatures["s"].hp == hp
    assert [(e.action, e.item) for e in of_type(enc, "item", n)] == [("fizzle", "hooded-lantern")]


def test_lighting_a_lantern_is_the_torch_action():
    # RULES §3.5: a standard action with a tindertwig, full-round with flint and steel; provokes
    enc = _lantern_fight(False)
    c = turn_of(enc, "l")
    c.items["tindertwig"] = 1
    assert enc.perform(LightTorch("hooded-lantern"))
    assert c.light == "hooded-lantern" and c.items["tindertwig"] == 0
    assert not enc.turn.standard and enc.turn.move and c.wielding != "torch"
    assert [(e.action, e.item) for e in of_type(enc, "item")][-1] == ("light", "hooded-lantern")
    turn_of(enc, "l")
    r = enc.perform(LightTorch("hooded-lantern"))
    assert not r and r.reason == "its hooded-lantern is lit already"
    c.light = None                  # put out: no tindertwig left, flint and steel take the whole turn
    assert enc.perform(LightTorch("hooded-lantern")) and enc.turn.ended
    assert c.light == "hooded-lantern"
    turn_of(enc, "l")
    c.light = "sunrod"              # one such light in hand at a time (the other hand holds the torch)
    r = enc.perform(LightTorch("hooded-lantern"))
    assert not r and r.reason == "L holds a lit sunrod already: douse or drop it first"
    c.light = "hooded-lantern"
    turn_of(enc, "l")
    r = enc.perform(LightTorch("sunrod"))
    assert not r and r.reason == "a sunrod is not a torch or a lantern"
