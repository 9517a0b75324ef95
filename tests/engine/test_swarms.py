"""Swarms (RULES §4, §6.4, §6.6, §7.15-29): damage matrix, shapes, occupancy, attack, distraction,
riders, dispersal; and property tests on real fights."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine import attacks
from sim.engine import damage
from sim.engine.damage import DamagePart, adjust_for_target, deal_damage
from sim.engine.actions import Move
from sim.engine.fight import new_encounter
from sim.terrain.movement.field import BLOCKED
from sim.rules.sizes import Size
from sim.engine.swarms import distraction, engulfed, swarm_attack
from sim.terrain.movement.shapes import best_shape, is_contiguous

from .helpers import encounter, ready, spec


def one_swarm(template, *, rows=None, at=(2, 1), others=(), **kw):
    rows = rows or ["......", "......", "......"]
    enc = ready(encounter(rows, [{"id": "s", "template": template, "team": "m", "at": list(at)}] + list(others), **kw))
    return enc, enc.creatures["s"]


# ---- §4.9: the six swarms -------------------------------------------------------------------------

@pytest.mark.parametrize("name,hp,dice,dc,rule,component", [
    ("bat-swarm", 13, "1d6", 11, "immune", Size.DIMINUTIVE),
    ("centipede-swarm", 31, "2d6", 13, "immune", Size.DIMINUTIVE),
    ("hellwasp-swarm", 93, "3d6", 18, "immune", Size.DIMINUTIVE),
    ("locust-swarm", 21, "2d6", 12, "immune", Size.DIMINUTIVE),
    ("rat-swarm", 18, "1d6", 12, "half_slashing_piercing", Size.TINY),
    ("spider-swarm", 9, "1d6", 11, "immune", Size.DIMINUTIVE),
])
def test_six_swarms(name, hp, dice, dc, rule, component):
    enc, s = one_swarm(name)
    sw = s.block.swarm
    assert (s.hp, str(sw.damage), sw.distraction_dc, sw.weapon_damage, sw.component) == (hp, dice, dc, rule, component)
    assert s.reach_ft() == 0 and attacks.threatens(enc, s) == set()


# ---- §4.7 damage matrix ---------------------------------------------------------------------------

def part(amount, kind="weapon", types=("slashing",), join="single", **kw):
    return DamagePart(amount, types[0], kind, types=types, join=join, **kw)


def test_matrix_weapons():
    _, bats = one_swarm("bat-swarm")     # Diminutive
    _, rats = one_swarm("rat-swarm")     # Tiny
    adj: dict = {}
    assert adjust_for_target(bats, part(9), adj) == 0 and adj["swarm_immune"] == -9
    assert adjust_for_target(bats, part(9, types=("bludgeoning",)), {}) == 0
    assert adjust_for_target(rats, part(9), {}) == 4                       # slashing: half, round down
    assert adjust_for_target(rats, part(1, types=("piercing",)), {}) == 1  # minimum 1 (§7.23)
    assert adjust_for_target(rats, part(9, types=("bludgeoning",)), {}) == 9
    assert adjust_for_target(rats, part(9, types=("bludgeoning", "piercing"), join="and"), {}) == 9  # morningstar
    assert adjust_for_target(rats, part(9, types=("piercing", "slashing"), join="or"), {}) == 4      # dagger
    assert adjust_for_target(rats, part(5, kind="sneak"), {}) == 0          # no sneak attack


def test_matrix_energy_splash_area_resistance_dr():
    _, bats = one_swarm("bat-swarm")
    _, wasps = one_swarm("hellwasp-swarm")   # DR 10/magic, fire resistance 10
    assert adjust_for_target(bats, DamagePart(5, "fire", "energy"), {}) == 5          # energy: full
    assert adjust_for_target(bats, DamagePart(5, "fire", "splash", area=True), {}) == 7   # x1.5
    assert adjust_for_target(bats, DamagePart(3, "fire", "energy", area=True), {}) == 4
    assert adjust_for_target(wasps, DamagePart(14, "fire", "energy", area=True), {}) == 11  # 21 - 10
    assert adjust_for_target(wasps, DamagePart(6, "fire", "energy"), {}) == 0
    # DR applies to physical damage only (and the weapon is immune anyway)
    assert adjust_for_target(wasps, DamagePart(20, "cold", "energy"), {}) == 20


def test_torch_hit_deals_1d3_fire_instead():
    enc, s = one_swarm("bat-swarm", others=[{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1],
                                              "weapon": "torch", "lit": True}])
    f = enc.creatures["f"]
    torch = f.attack_named("torch")
    plan = attacks.plan_attack(enc, f, torch, s)
    assert plan and plan.modifiers["improvised"] == -4
    for _ in range(20):
        attacks.weapon_damage(enc, plan, critical=False, multiplier=2)
    dmg = [e for e in enc.events if e.type == "damage"]
    assert all(set(e.parts) == {"fire"} and 1 <= e.parts["fire"] <= 3 and e.amount == e.parts["fire"] for e in dmg)


def test_no_critical_hits_or_flanking_against_swarms():
    enc, s = one_swarm("rat-swarm", others=[
        {"id": "a", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
        {"id": "b", "template": "human-fighter-3", "team": "p", "at": [3, 1]}])
    s.squares = [(2, 1)]
    a = enc.creatures["a"]
    plan = attacks.plan_attack(enc, a, a.wielded(), s)
    assert "flanking" not in plan.modifiers and not plan.sneak
    enc.rng = np.random.default_rng(0)
    for _ in range(200):
        attacks.resolve_attack(enc, plan)
    assert not any(e.type == "attack" and (e.critical or e.threat) for e in enc.events)


def test_magic_missile_has_no_effect_burning_hands_x1_5():
    enc, s = one_swarm("bat-swarm", at=(3, 1), others=[{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [1, 1]}])
    from sim.engine.actions import Cast
    s.squares = [(3, 1)]
    enc.turn_index = enc.order.index("w") - 1
    enc.begin_turn()
    hp = s.hp
    assert enc.perform(Cast("magic-missile", target="s"))
    assert s.hp == hp and not [e for e in enc.events if e.type == "damage"]
    enc.end_turn()
    enc.turn_index = enc.order.index("w") - 1
    enc.begin_turn()
    assert enc.perform(Cast("burning-hands", direction=(1, 0)))
    dmg = [e for e in enc.events if e.type == "damage" and e.target == "s"][-1]
    after_save = dmg.parts["fire"]  # 3d4 for a 3rd-level caster, halved on a Reflex save
    assert 1 <= after_save <= 12 and dmg.adjustments["area_x1.5"] == after_save // 2
    assert dmg.amount == after_save + after_save // 2  # x1.5 for an area, after the save (§4.7)


def test_locust_swarm_lands_when_slow():
    enc, s = one_swarm("locust-swarm", others=[{"id": "f", "template": "human-fighter-1", "team": "p", "at": [5, 2]}])
    enc.turn_index = enc.order.index("s") - 1
    enc.begin_turn()
    enc.end_turn()  # did not move: less than half its 30-ft fly speed (poor, §6.7)
    assert "landed" in s.conditions


def test_dispersal_at_zero():
    enc, s = one_swarm("rat-swarm")
    deal_damage(enc, s, [DamagePart(18, "fire", "energy")], source=None, cause="spell")
    assert "dispersed" in s.conditions and not s.alive and enc.events[-1].type == "dispersed"
    assert "dying" not in s.conditions  # never dying or staggered


# ---- shapes (§4.2, §7.26) -------------------------------------------------------------------------

def test_shape_in_a_corridor_is_a_line():
    p = np.zeros((3, 9), bool)
    p[1, :] = True
    assert best_shape(p, (4, 1)) == [(2, 1), (3, 1), (4, 1), (5, 1)] or len(best_shape(p, (4, 1))) == 4
    assert all(y == 1 for _, y in best_shape(p, (4, 1)))


def test_shape_l_bend_dead_end_and_crack():
    p = np.zeros((5, 5), bool)
    p[1, 1:4] = True   # L bend: three across, then down
    p[2:4, 3] = True
    sh = best_shape(p, (3, 1))
    assert len(sh) == 4 and is_contiguous(sh) and all(p[y, x] for x, y in sh)
    dead = np.zeros((4, 4), bool)
    dead[1, 1:3] = True  # a dead-end crack of 2 squares
    assert best_shape(dead, (1, 1)) == [(1, 1), (2, 1)]  # compresses into 2 (§7.26)


def test_square_setting_prefers_2x2():
    p = np.ones((6, 6), bool)
    sq = best_shape(p, (2, 2), mode="square")
    xs, ys = {x for x, _ in sq}, {y for _, y in sq}
    assert len(sq) == 4 and len(xs) == 2 and len(ys) == 2


def test_swarm_pours_through_a_crack_and_engulfs_once():
    rows = ["########",
            "#..k...#",
            "########"]
    enc, s = one_swarm("rat-swarm", rows=rows, at=(6, 1), legend={"k": (0.3, 0.5)},
                       others=[{"id": "ogre", "template": "ogre", "team": "p", "at": [1, 1]}])
    f = enc.field(s)
    assert f.mode[1, 3] != BLOCKED  # the 3.6-in crack is open floor for a rat swarm
    ogre = enc.creatures["ogre"]
    s.squares = [(1, 1), (2, 1)]
    ogre.squares = [(1, 1), (2, 1)]
    enc.rng = np.random.default_rng(3)
    swarm_attack(enc, s)
    dmg = [e for e in enc.events if e.type == "damage" and e.target == "ogre"]
    assert len(dmg) == 1  # once per creature, though the swarm covers two of its squares (§7.28)


def test_aoo_once_per_opponent_when_entering_and_leaving():
    rows = ["........"]
    enc = ready(encounter(rows, [{"id": "s", "template": "rat-swarm", "team": "m", "at": [0, 0]},
                                 {"id": "f", "template": "human-fighter-3", "team": "p", "at": [3, 0]}]))
    s = enc.creatures["s"]
    s.squares = [(0, 0)]
    enc.turn_index = enc.order.index("s") - 1
    enc.begin_turn()
    assert enc.perform(Move((6, 0), double=True))
    aoos = [e for e in enc.events if e.type == "attack" and e.kind == "opportunity"]
    assert len(aoos) == 1 and aoos[0].actor == "f"  # enters its space and leaves threatened squares: one
    assert all(e.actor != "s" for e in enc.events if e.type == "attack")  # swarms never make AoOs


def test_distraction_save_nauseates_and_living_only():
    enc, s = one_swarm("rat-swarm", others=[{"id": "f", "template": "human-fighter-1", "team": "p", "at": [2, 1]}])
    f = enc.creatures["f"]
    s.squares = [(2, 1)]
    saves = []
    for seed in range(40):
        enc.rng = np.random.default_rng(seed)
        f.clear_status("nauseated")
        distraction(enc, f)
        ev = [e for e in enc.events if e.type == "save" and e.cause == "distraction"][-1]
        assert ev.dc == 12 and ev.modifier == f.block.save("fort")
        assert ("nauseated" in f.conditions) == (not ev.success)
        saves.append(ev.success)
    assert any(saves) and not all(saves)


def test_poison_initial_and_secondary_ten_rounds_later_and_wounding():
    enc, s = one_swarm("centipede-swarm", others=[{"id": "f", "template": "human-fighter-1", "team": "p", "at": [2, 1]}])
    f = enc.creatures["f"]
    from sim.engine.afflictions import apply_riders, poison_secondaries
    apply_riders(enc, s, f, ["centipede-poison"])
    save = [e for e in enc.events if e.type == "save"][-1]
    assert save.dc == 13 and save.cause == "poison"
    assert f.poison_due == [(enc.round + 10, "centipede-poison", "s")]
    enc.round += 10
    poison_secondaries(enc, f)
    assert [e for e in enc.events if e.type == "save"][-1].cause == "poison_secondary" and not f.poison_due
    enc2, bats = one_swarm("bat-swarm", others=[{"id": "f", "template": "human-fighter-1", "team": "p", "at": [2, 1]}])
    g = enc2.creatures["f"]
    apply_riders(enc2, bats, g, ["wounding"])
    apply_riders(enc2, bats, g, ["wounding"])
    assert g.bleed == 1  # wounds do not add up


# ---- property: swarm squares in real fights --------------------------------------------------------

ARENA = ["################",
         "#......#.......#",
         "#......k.......#",
         "#......#....a..#",
         "#..........##..#",
         "################"]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 5000), template=st.sampled_from(["rat-swarm", "bat-swarm", "spider-swarm"]),
       shape=st.sampled_from(["any", "square"]))
def test_swarm_squares_always_valid(seed, template, shape):
    sides = [{"id": "s", "template": template, "team": "m", "at": [12, 1]},
             {"id": "a", "template": "human-fighter-2", "team": "p", "at": [2, 2]},
             {"id": "b", "template": "human-cleric-2", "team": "p", "at": [3, 4]}]
    enc = new_encounter(spec(ARENA, sides, legend={"k": (0.3, 0.5), "a": (2, 12)}, seed=seed, swarm_shape=shape))
    enc.run()
    s = enc.creatures["s"]
    passable = enc.field(s).mode != BLOCKED
    for e in enc.events:
        if e.type == "swarm_shape" or (e.type == "moved" and e.actor == "s"):
            sq = [tuple(x) for x in e.squares]
            assert 1 <= len(sq) <= 4 and is_contiguous(sq)
            assert all(not enc.grid.rock[y, x] and passable[y, x] for x, y in sq)


def test_no_distraction_for_a_creature_the_swarm_cannot_hurt():
    # a grick's DR 10/magic stops every rat bite (1d6): nothing to be distracted by (§4.4, §7.29)
    enc, s = one_swarm("rat-swarm", at=(1, 1), others=[{"id": "g", "template": "grick", "team": "p", "at": [1, 1]},
                                                       {"id": "f", "template": "human-fighter-3", "team": "p",
                                                        "at": [2, 1]}])
    s.squares = [(1, 1), (2, 1)]
    from sim.engine.swarms import distraction

    enc.rng = np.random.default_rng(0)
    n = len(enc.events)
    distraction(enc, enc.creatures["g"])
    distraction(enc, enc.creatures["f"])
    saves = [e.target for e in enc.events[n:] if e.type == "save"]
    assert saves == ["f"]


def test_nonlethal_beyond_its_hit_points_disperses_a_swarm():
    enc, s = one_swarm("rat-swarm")
    s.nonlethal = s.hp + 1
    damage.update_state(enc, s)
    assert "dispersed" in s.conditions and not s.in_fight


def test_an_ally_in_the_swarm_rolls_its_fortitude_save():
    # RULES §4.4, §7.29: any living creature that begins its turn in the swarm's squares saves or is
    # nauseated; the swarm's damage (§4.3, §7.28) already hits its allies, so distraction must too
    enc, s = one_swarm("rat-swarm", others=[{"id": "k", "template": "kobold", "team": "m", "at": [2, 1]}])
    k = enc.creatures["k"]
    s.squares = [(2, 1)]
    assert k.team == s.team and engulfed(enc, s) == [k]
    n = len(enc.events)
    enc.rng = np.random.default_rng(0)
    distraction(enc, k)
    (ev,) = [e for e in enc.events[n:] if e.type == "save"]
    # rat swarm: DC 12 (10 + 4 HD/2 + Con 0); kobold Fort +2 (SRD)
    assert (ev.target, ev.cause, ev.dc, ev.modifier) == ("k", "distraction", 12, 2)
    assert ("nauseated" in k.conditions) == (not ev.success)
