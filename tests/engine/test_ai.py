"""The default tactics (issue: "tactics a player would call sensible"), each in a small cave where
the sensible choice is plain: what the policy asks the engine to do next."""

from __future__ import annotations

from sim.engine.ai import decide as ai
from sim.engine.ai import estimates
from sim.engine.actions import Cast, Delay, Draw, FiveFootStep, LightTorch, Move, Strike

from .helpers import encounter, ready
from .test_spells import Fixed, turn_of


def next_action(enc, cid):
    c = turn_of(enc, cid)
    return ai.default_policy(enc, c, enc.turn)


def test_closes_on_the_enemy_it_reaches_soonest_not_the_nearest():
    rows = ["............",
            "##########..",
            "............"]
    enc = ready(encounter(rows, [{"id": "g", "template": "goblin", "team": "m", "at": [1, 0]},
                                 {"id": "near", "template": "human-fighter-3", "team": "p", "at": [1, 2]},
                                 {"id": "far", "template": "human-fighter-3", "team": "p", "at": [7, 0]}]))
    # "near" is 10 ft away through the rock, 19 squares around it; "far" 30 ft down a clear lane
    assert next_action(enc, "g") == Move((6, 0))   # beside "far", in one move action


def test_swaps_to_a_light_weapon_in_a_narrow_crawlway():
    # "q": 4 ft wide, 2.5 ft high: a narrow crawlway for a Medium fighter (the Narrow and Low row:
    # light -4, one-handed -8; prone -4; Tunnelfighter does not help in a crawlway, RULES §2.8)
    enc = ready(encounter(["..q..", "....."], [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 0]},
                                               {"id": "g", "template": "goblin", "team": "m", "at": [3, 0]}],
                          legend={"q": (4, 2.5)}))
    f, g = enc.creatures["f"], enc.creatures["g"]
    assert f.wielding == "longsword" and f.prone
    sword, dagger = f.attack_named("longsword"), f.attack_named("dagger")
    # longsword +3 +2 Str +1 focus -8 -4 prone = -6: a 20 to hit AC 15 (5%) x 6.5; the dagger stabs
    # (the stab-light column, no penalty, §2.5): +3 +2 -4 prone = +1: 14 or better (35%) x 4.5
    assert round(estimates.expected_damage(enc, f, sword, g), 3) == 0.325
    assert round(estimates.expected_damage(enc, f, dagger, g), 3) == 1.575
    assert next_action(enc, "f") == Draw("dagger")
    assert enc.perform(Draw("dagger"))
    a = ai.default_policy(enc, f, enc.turn)
    assert isinstance(a, Strike) and a.target == "g" and a.attack == "dagger"


def test_waits_at_the_mouth_of_a_crawlway_for_an_enemy_who_must_crawl_out():
    # "c": 5 ft wide, 2.5 ft high: a crawlway for both Medium creatures
    enc = ready(encounter(["..ccc.."], [{"id": "h", "template": "hobgoblin", "team": "m", "at": [1, 0]},
                                        {"id": "f", "template": "human-fighter-3", "team": "p", "at": [6, 0]}]))
    # it holds the clear square at the mouth for three rounds (its patience), throwing its three
    # javelins while it waits, then goes in
    h = enc.creatures["h"]
    enc.rng = Fixed(2)  # every throw misses: the fight goes on
    for rnd in (1, 2, 3):
        assert enc.round == rnd and next_action(enc, "h") == Strike("f", "javelin")
        assert enc.perform(Strike("f", "javelin"))
        assert ai.default_policy(enc, h, enc.turn) == Delay()
        enc.round += 1
    assert h.thrown_left == {"javelin": 0} and h.wielding == "longsword"
    assert next_action(enc, "h") == Move((5, 0), double=True)


def test_a_caster_steps_out_of_reach_and_shoots_from_range():
    enc = ready(encounter(["......", "......", "......"],
                          [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [2, 1]},
                           {"id": "g", "template": "goblin", "team": "m", "at": [3, 1]}]))
    w = enc.creatures["w"]
    a = next_action(enc, "w")
    assert a == FiveFootStep((1, 0))                       # threatened: a 5-ft step out of reach first
    assert enc.perform(a)
    assert ai.default_policy(enc, w, enc.turn) == Cast("magic-missile", target="g")
    w.spells_left = {}                                     # no spells left: its crossbow,
    assert w.wielding != "light-crossbow"
    a = ai.default_policy(enc, w, enc.turn)
    assert a == Draw("light-crossbow")                     # drawn first (a move action; issue 13 item 6)
    assert enc.perform(a)
    a = ai.default_policy(enc, w, enc.turn)
    assert isinstance(a, Strike) and a.target == "g" and a.attack == "light-crossbow"


def test_a_crossbow_is_drawn_before_it_fires():
    # SRD Combat: drawing a weapon is a move action, a ranged weapon like a melee one; the engine
    # refuses a shot with the short sword still in hand; drawn, it fires; the log says so
    from sim.story.log import Narrator
    enc = ready(encounter(["." * 12], [{"id": "r", "template": "halfling-rogue-1", "team": "p", "at": [1, 0]},
                                       {"id": "g", "template": "goblin", "team": "m", "at": [9, 0]}]))
    r = enc.creatures["r"]
    enc.turn_index = enc.order.index("r") - 1
    enc.begin_turn()
    assert r.wielding == "short-sword"
    refused = enc.perform(Strike("g", "light-crossbow"))
    assert not refused and refused.reason == "light-crossbow is not in hand: draw it first (a move action)"
    n = len(enc.events)
    assert enc.perform(Draw("light-crossbow")) and r.wielding == "light-crossbow" and not enc.turn.move
    assert enc.perform(Strike("g", "light-crossbow"))  # (the AI's own draw: the wizard's test above)
    kinds = [(e.type, getattr(e, "action", getattr(e, "weapon", ""))) for e in enc.events[n:]][:2]
    assert kinds == [("item", "draw"), ("attack", "light-crossbow")]
    assert Narrator({"r": "Lidda"}).line(enc.events[n]) == "Lidda draws light crossbow"


def test_a_swarm_goes_for_the_squares_that_cover_the_most_enemies():
    enc = ready(encounter(["........", "........", "........", "........"],
                          [{"id": "rats", "template": "rat-swarm", "team": "m", "at": [3, 1]},
                           {"id": "lone", "template": "human-fighter-3", "team": "p", "at": [1, 0]},
                           {"id": "a", "template": "human-fighter-3", "team": "p", "at": [6, 2]},
                           {"id": "b", "template": "human-fighter-3", "team": "p", "at": [7, 3]}]))
    rats = enc.creatures["rats"]
    assert (1, 0) in rats.squares                    # its first shape already covers the lone fighter ...
    assert next_action(enc, "rats") == Move((6, 2))  # ... but it leaves him for the pair


def test_against_a_weapon_immune_swarm_a_fighter_lights_a_torch():
    enc = ready(encounter(["......", "......", "......"],
                          [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                           {"id": "ally", "template": "human-fighter-3", "team": "p", "at": [2, 1]},
                           {"id": "bats", "template": "bat-swarm", "team": "m", "at": [2, 0]}]))
    f = enc.creatures["f"]
    f.items["alchemists-fire"] = 0  # nothing to throw: the torch is its weapon (RULES §3.5, §7.19)
    a = next_action(enc, "f")
    assert isinstance(a, LightTorch), a


def test_the_last_dagger_is_kept_for_the_crawlway_it_is_about_to_fight_in():
    # issue 13 item 8 (README, kobold_warren.toml): in the kobolds' 2.5-ft lair a human crawls, and
    # there a dagger beats a longsword (RULES §2.5 crawlway row: the longsword is -4 more); Bruna
    # throws one of her two daggers while she waits, keeps the last, draws it and fights with it
    # -- once her scale mail is off (issue 13 item 1, RULES §2.4: seed 0, where she crawls in)
    from sim.scenario.files import load_encounter
    from sim.engine.fight import new_encounter
    from sim.base.paths import maps_dir
    enc = new_encounter(load_encounter(maps_dir() / "kobold_warren.toml"), seed=0)
    events = enc.run()
    off = next(e.round for e in events if e.type == "armor" and e.actor == "bruna" and e.stage == "done")
    assert all(e.round > off for e in events if e.type == "attack" and e.actor == "bruna" and e.kind != "ranged")
    assert all("armor" not in e.ac_modifiers for e in events if e.type == "attack" and e.target == "bruna"
               and e.round > off)
    thrown = [e for e in events if e.type == "attack" and e.actor == "bruna" and e.kind == "ranged"]
    melee = [e for e in events if e.type == "attack" and e.actor == "bruna" and e.kind != "ranged"]
    assert [e.weapon for e in thrown] == ["dagger (thrown)"]
    assert not [e for e in events if e.type == "item" and e.action == "last_thrown" and e.actor == "bruna"]
    assert ("bruna", "draw", "dagger") in [(e.actor, e.action, e.item) for e in events if e.type == "item"]
    assert melee and {e.weapon for e in melee} == {"dagger"}
    assert all("crawl" not in e.modifiers for e in melee) and all(e.modifiers.get("prone") == -4 for e in melee)
