"""Conditions with exact numbers (RULES §5.1, §5.2, §5.5): hit-point states, dying and stabilising,
disabled strain, nausea's single move action, prone actions, and crawling that provokes."""

from __future__ import annotations

from sim.engine import attacks
from sim.engine import damage
from sim.engine.actions import DropProne, FiveFootStep, Move, StandUp, Strike
from sim.engine.effects import Effect, put

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 8] * 3


def two(a="human-fighter-3", b="goblin", a_at=(1, 1), b_at=(2, 1), rows=HALL, **kw):
    return ready(encounter(rows, [{"id": "a", "template": a, "team": "p", "at": list(a_at)},
                                  {"id": "b", "template": b, "team": "m", "at": list(b_at)}], **kw))


def test_hit_points_disabled_at_0_dying_below_dead_at_minus_10():
    enc = two()
    a = enc.creatures["a"]
    states = []
    for hp in (1, 0, -1, -9, -10):
        a.hp = hp
        damage.update_state(enc, a)
        states.append(sorted(a.conditions & {"disabled", "dying", "dead"}))
    assert states == [[], ["disabled"], ["dying"], ["dying"], ["dead"]]
    assert [e.target for e in of_type(enc, "died")] == ["a"]


def test_dying_loses_1_hp_a_round_or_stabilises_on_10_percent():
    enc = two()
    a = enc.creatures["a"]
    a.hp = -3
    damage.update_state(enc, a)
    enc.rng = Fixed(11)          # d% 11: above the 10% chance
    turn_of(enc, "a")
    assert a.hp == -4 and "dying" in a.conditions and enc.turn.ended
    enc.rng = Fixed(10)          # d% 10: stabilises, no hp lost
    turn_of(enc, "a")
    assert a.hp == -4 and "stable" in a.conditions and "dying" not in a.conditions
    enc.rng = Fixed(1)
    turn_of(enc, "a")
    assert a.hp == -4            # stable: no more loss


def test_disabled_takes_one_action_and_a_standard_action_costs_1_hp():
    enc = two()
    a = enc.creatures["a"]
    a.hp = 0
    damage.update_state(enc, a)
    turn_of(enc, "a")
    r = enc.perform(Move((1, 0), double=True))
    assert not r and r.reason == "A is disabled: a single move or standard action"
    enc.rng = Fixed(2)           # the sword misses; straining costs the hit point anyway
    assert enc.perform(Strike("b", "longsword"))
    assert a.hp == -1 and "dying" in a.conditions
    assert [e.parts for e in of_type(enc, "damage") if e.target == "a"] == [{"strain": 1}]


def test_nauseated_only_a_move_action():
    enc = two(b_at=(5, 1))
    a = enc.creatures["a"]
    turn_of(enc, "a")
    a.set_status("nauseated")
    r = enc.perform(Strike("b", "longsword"))
    assert not r and r.reason == "A is nauseated: only a move action (§5.2)"
    assert enc.perform(Move((2, 1)))
    assert enc.turn.ended        # the move was its one action: no 5-ft step in addition ([PD] §5.2)
    assert not enc.perform(FiveFootStep((3, 1)))


def test_drop_prone_is_free_and_standing_up_is_a_move_action_that_provokes():
    enc = two()
    a = enc.creatures["a"]
    turn_of(enc, "a")
    assert enc.perform(DropProne())
    assert a.prone and enc.turn.standard and enc.turn.move          # free
    enc.rng = Fixed(2)                                               # the goblin's attack misses
    n = len(enc.events)
    assert enc.perform(StandUp())
    assert not a.prone and enc.turn.standard and not enc.turn.move   # a move action ...
    assert [(e.actor, e.target) for e in of_type(enc, "attack", n)] == [("b", "a")]  # ... that provokes


def test_crawling_provokes_from_every_enemy_it_passes_even_arriving():
    # "c": a crawlway (5 ft wide, 2.5 ft high) in the rock. The fighter crawls from (1, 1) to (3, 1)
    # (a square per move action), beside the goblin at (4, 1): arriving there provokes (SRD: crawling provokes from every
    # creature threatening the crawler at any point of the crawl); a walker arriving would not.
    enc = two(a_at=(1, 1), b_at=(4, 1), rows=["########", "cccc....", "########"])
    a = enc.creatures["a"]
    assert a.prone                              # placed in a crawlway: lying down
    a.take_armor_off(drop_shield=True)          # and its breastplate off to crawl on (RULES §2.4, issue 13 item 1)
    turn_of(enc, "a")
    enc.rng = Fixed(2)
    n = len(enc.events)
    assert enc.perform(Move((3, 1), double=True))
    aoo = [e for e in of_type(enc, "attack", n) if e.actor == "b"]
    assert a.pos == (3, 1) and len(aoo) == 1
    walk = two(a_at=(1, 1), b_at=(4, 1), rows=["########", "........", "########"])
    turn_of(walk, "a")
    n = len(walk.events)
    assert walk.perform(Move((3, 1)))
    assert walk.creatures["a"].pos == (3, 1)
    assert not [e for e in of_type(walk, "attack", n) if e.actor == "b"]


def test_a_5_ft_step_then_a_full_attack_but_no_other_movement():
    from sim.engine.actions import FullAttack, Run, Withdraw

    enc = two(b_at=(3, 1))
    turn_of(enc, "a")
    enc.rng = Fixed(2)
    assert enc.perform(FiveFootStep((2, 1)))
    assert enc.perform(FullAttack("b", "longsword"))      # SRD: a 5-ft step and a full-round action
    enc = two(b_at=(3, 1))
    turn_of(enc, "a")
    assert enc.perform(FiveFootStep((2, 1)))
    for action in (Move((0, 0), double=True), Withdraw((0, 0)), Run((0, 0))):
        r = enc.perform(action)
        assert not r and r.reason == "took a 5-ft step: no other movement this round"


def test_a_nauseated_creature_takes_no_5_ft_step():
    enc = two(b_at=(5, 1))
    a = enc.creatures["a"]
    turn_of(enc, "a")
    a.set_status("nauseated")
    r = enc.perform(FiveFootStep((2, 1)))
    assert not r and r.reason == "A is nauseated: a move action only, no 5-ft step ([PD] §5.2)"


def test_helpless_dex_counts_as_0_and_melee_gets_4_no_ranged_bonus():
    enc = two(b="orc", b_at=(2, 1))
    a, b = enc.creatures["a"], enc.creatures["b"]
    put(b, Effect("asleep"))
    ac, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert parts["dex"] == -5 and "prone" not in parts         # an orc's Dex 11 counts as 0
    assert ac == 10 + 3 - 5 == 8                                # studded leather +3, Dex -5
    assert attacks.target_ac(enc, a, b, ranged=True)[0] == ac    # no bonus against ranged attacks
    plan = attacks.plan_attack(enc, a, a.wielded(), b)
    assert plan.modifiers["helpless_target"] == 4


def test_nonlethal_equal_to_hp_staggers_more_knocks_out():
    enc = two()
    a = enc.creatures["a"]
    a.nonlethal = a.hp
    damage.update_state(enc, a)
    assert "staggered" in a.conditions and a.in_fight
    turn_of(enc, "a")
    r = enc.perform(Move((1, 0), double=True))
    assert not r and r.reason == "A is staggered: a single move or standard action"
    assert enc.perform(Move((1, 0))) and enc.turn.ended          # one action, then the turn is over
    a.nonlethal += 1
    damage.update_state(enc, a)
    assert "unconscious" in a.conditions and "staggered" not in a.conditions


def test_a_disabled_caster_strains_on_a_spell_and_gets_one_action():
    from sim.engine.actions import Cast

    enc = two(a="elf-wizard-1", b="ogre", b_at=(7, 1))
    w = enc.creatures["a"]
    w.hp = 0
    damage.update_state(enc, w)
    turn_of(enc, "a")
    assert enc.perform(Cast("magic-missile", target="b"))
    assert w.hp == -1 and "dying" in w.conditions and enc.turn.ended


def test_with_a_crossbow_in_hand_nothing_is_threatened():
    from sim.engine.actions import Draw

    enc = two(b_at=(2, 1))
    a, b = enc.creatures["a"], enc.creatures["b"]
    assert (2, 1) in attacks.threatens(enc, a)
    turn_of(enc, "a")
    assert enc.perform(Draw("heavy-crossbow"))
    assert not attacks.threatens(enc, a) and attacks.melee_in_hand(a) is None
    assert (1, 1) in attacks.threatens(enc, b)                  # the goblin's morningstar still does
