"""Each rule number and procedure has one home, and the AI estimates with the engine's own
(issue 12; RULES §3.1, §3.5, §4.7, §7.23, §8)."""

from __future__ import annotations

import dataclasses

import pytest

from sim.engine import attacks
from sim.engine.ai import estimates
from sim.engine.casting import range_ft
from sim.engine.damage import DamagePart, adjust_for_target, halve, swarm_weapon_rule
from sim.engine.items import splash_modifiers

from .helpers import encounter, ready

ROOM = ["." * 12] * 5


def _fight(*others):
    return ready(encounter(ROOM, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 2]},
                                  {"id": "rats", "template": "rat-swarm", "team": "m", "at": [4, 1]},
                                  {"id": "bats", "template": "bat-swarm", "team": "m", "at": [8, 1]}, *others]))


@pytest.mark.parametrize("types,join,rule", [
    (("piercing", "slashing"), "and", "full"),       # §4.7 row 3: an "X and Y" weapon does full damage
    (("piercing", "slashing"), "or", "half"),
    (("slashing",), "single", "half"),
    (("bludgeoning",), "single", "full"),
    (("bludgeoning", "piercing"), "and", "full"),
])
def test_the_swarm_damage_matrix_against_a_tiny_swarm(types, join, rule):
    enc = _fight()
    assert swarm_weapon_rule(enc.creatures["rats"], types, join) == rule
    assert swarm_weapon_rule(enc.creatures["bats"], types, join) == "immune"  # Diminutive: weapons do nothing


def test_the_engine_and_the_ai_read_the_same_matrix_for_a_claw():
    """The AI used to value a piercing-and-slashing claw at half against a Tiny swarm; the
    engine deals it in full, and so does the estimate now."""
    enc = _fight()
    f, rats = enc.creatures["f"], enc.creatures["rats"]
    claw = dataclasses.replace(f.wielded(), damage_types=("piercing", "slashing"), types_join="and")
    assert adjust_for_target(rats, DamagePart(7, "piercing", "weapon", types=claw.damage_types, join="and"), {}) == 7
    enc.place(f, (3, 1))  # in reach of the rats
    plan = attacks.plan_attack(enc, f, claw, rats)
    expected = estimates.hit_chance(plan.bonus, plan.ac) * (claw.damage.average + sum(d.average for d, _ in claw.extra_damage))
    assert estimates.expected_damage(enc, f, claw, rats) == pytest.approx(expected)
    sword = f.wielded()  # a longsword (slashing): half
    plan = attacks.plan_attack(enc, f, sword, rats)
    assert estimates.expected_damage(enc, f, sword, rats) == pytest.approx(
        estimates.hit_chance(plan.bonus, plan.ac) * sword.damage.average / 2)


def test_halving_rounds_down_but_leaves_at_least_one():
    assert [halve(n) for n in (1, 2, 3, 9)] == [1, 1, 1, 4]


@pytest.mark.parametrize("template,close,medium", [("elf-wizard-1", 25, 110), ("elf-wizard-3", 30, 130),
                                                   ("elf-wizard-5", 35, 150)])
def test_spell_ranges_come_from_the_spell_table(template, close, medium):
    enc = ready(encounter(ROOM, [{"id": "w", "template": template, "team": "p", "at": [1, 1]}]))
    w = enc.creatures["w"]
    assert (range_ft(w, "close"), range_ft(w, "medium"), range_ft(w, "touch"), range_ft(w, "self")) == \
        (close, medium, 5, 0)


def test_the_splash_bonus_counts_firing_into_melee_for_the_throw_and_the_estimate():
    enc = _fight({"id": "r", "template": "halfling-rogue-3", "team": "p", "at": [1, 4]})
    f, r, rats = enc.creatures["f"], enc.creatures["r"], enc.creatures["rats"]
    enc.place(f, (3, 1))  # the fighter is in melee with the rats
    mods = splash_modifiers(enc, r, 2, rats)
    assert mods["firing_into_melee"] == -4 and mods["range"] == -2
    assert "firing_into_melee" not in splash_modifiers(enc, r, 1)  # at an intersection: no creature aimed at


def test_run_max_rounds_and_the_round_cap_are_one_test():
    enc = _fight()
    enc.run(max_rounds=2)
    end = enc.events[-1]
    assert end.type == "encounter_end"
    assert end.reason == "round_cap" or end.round <= 2
    assert enc.round_cap == 2 and max(e.round for e in enc.events) <= 3


def test_armor_removal_has_one_home():
    """RULES §2.4, §7.33: which armor comes off, before which squares and how long it takes is
    sim/rules/armor.py's alone; the crawl, the fight and cavesim path read it from there."""
    import re
    from pathlib import Path

    import sim
    from sim.rules import armor as rule

    root = Path(sim.__file__).parent
    readers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                     if re.search(r"\.remove\b(?!\()", p.read_text()) and p.name != "armor.py")
    assert readers == [], readers   # nobody else reads the armor's removal time
    users = {str(p.relative_to(root)) for p in root.rglob("*.py") if "sim.rules.armor import" in p.read_text()}
    assert {"crawl/route.py", "crawl/gear.py", "engine/armor.py", "terrain/movement/armored.py", "cli/move.py"} <= users
    assert rule.ARMOR_OFF_CATEGORIES == tuple(c for c in rule.Category if rule.needs_armor_off(c))
