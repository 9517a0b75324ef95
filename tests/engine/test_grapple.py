"""Grapple, improved grab, constrict, trip and bull rush (docs/rules.md §11), with exact numbers.

Each cave is drawn inline (tests/engine/helpers.py legend: "." open 10 x 12 ft, "c" a crawlway
5 ft wide under a 2.5-ft ceiling; the tests add their own squares). Dice are fixed with
:class:`Fixed`, a stand-in for the fight's generator that returns the listed rolls in order.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.engine.effects import find
from sim.engine import attacks, grapple
from sim.engine.actions import BullRush, Escape, FullAttack, Grapple, Move, MoveGrapple, Pin, Strike, Throw, Trip
from sim.rules.categories import Category, effects
from sim.rules.statblocks import load_template
from tests.engine.helpers import encounter, ready

FIGHTER = "human-fighter-1"


class Fixed:
    """The listed d20s and dice in order; ``random()`` 0.5 (roll-offs of ties go to the actor...)."""

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def integers(self, lo, hi, size=None):
        if size is None:
            return self.rolls.pop(0)
        return np.array([self.rolls.pop(0) for _ in range(size)])

    def random(self):
        return 0.25


def turn_of(enc, cid):
    """Make ``cid`` the creature acting now (a fresh turn)."""
    enc.turn_index = enc.order.index(cid) - 1
    enc.turn = None
    enc.begin_turn()
    assert enc.current().id == cid
    return enc.creatures[cid]


def of_type(enc, kind, mark=0):
    return [e for e in enc.events[mark:] if e.type == kind]


def duo(rows, a_at, b_at, *, a="darkmantle", b=FIGHTER, legend=None, **kw):
    enc = ready(encounter(rows, [{"id": "a", "template": a, "team": "m", "at": a_at},
                                 {"id": "b", "template": b, "team": "p", "at": b_at}], legend=legend, **kw))
    return enc, enc.creatures["a"], enc.creatures["b"]


# -- the grapple check ------------------------------------------------------------------------------------------

def test_grapple_modifier_is_bab_str_size_and_racial():
    """RULES §1.1 grapple column: darkmantle +1 BAB +3 Str -4 Small = +0; choker +2 +3 -4 +4 racial = +5;
    the fighter +1 +2 +0 = +3 (the printed values, checked in tests/rules/test_statblocks.py)."""
    enc, dm, f = duo(["....."], [0, 0], [1, 0])
    assert grapple.grapple_parts(enc, dm) == {"base_attack": 1, "str": 3, "size": -4}
    assert grapple.grapple_parts(enc, f) == {"base_attack": 1, "str": 2, "size": 0}
    enc, ch, _ = duo(["....."], [0, 0], [1, 0], a="choker")
    assert grapple.grapple_parts(enc, ch) == {"base_attack": 2, "str": 3, "size": -4, "racial": 4}
    assert sum(grapple.grapple_parts(enc, ch).values()) == load_template("choker").grapple == 5


def test_darkmantle_improved_grab_and_constrict_on_a_medium_fighter():
    """Slam +5 (1 BAB, 3 Str, 1 size) vs the fighter's AC 17; 1d4+4 (Str x1.5 of a sole natural
    attack); the grab is a free opposed grapple check, +0 against +3, with no attack of opportunity
    and no touch attack; won: they grapple, and the constriction deals 1d4+4 more at once."""
    enc, dm, f = duo(["....."], [0, 0], [1, 0])
    turn_of(enc, "a")
    enc.rng = Fixed([15, 1, 16, 11, 1])    # slam d20 15, 1d4 = 1; grapple d20 16 vs 11; constrict 1d4 = 1
    hp = f.hp
    assert enc.perform(Strike(target="b", attack="slam"))
    atk, = of_type(enc, "attack")
    assert atk.modifiers == {"base_attack": 1, "str": 3, "size": 1} and atk.total == 20
    assert atk.ac == 17 and atk.hit     # 10 + 5 chainmail + 1 Dex + 1 heavy shield... as the fighter's sheet
    hold, = of_type(enc, "opposed")
    assert (hold.purpose, hold.modifiers, hold.total) == ("grapple_hold", {"base_attack": 1, "str": 3, "size": -4}, 16)
    assert (hold.target_modifiers, hold.target_total, hold.success) == ({"base_attack": 1, "str": 2, "size": 0}, 14, True)
    dmg = of_type(enc, "damage")
    assert [(d.cause, d.amount) for d in dmg] == [("weapon", 1 + 4), ("constrict", 1 + 4)]
    assert f.hp == hp - 5 - 5 == 2
    assert dm.grapple_with == ["b"] and f.grapple_with == ["a"]
    assert {"grappled"} <= f.conditions and {"grappled"} <= dm.conditions
    assert not [e for e in enc.events if e.type == "attack" and e.kind == "opportunity"]
    # next round: an opposed grapple check (a standard action) squeezes again
    turn_of(enc, "a")
    enc.rng = Fixed([12, 9, 4])
    hp = f.hp
    assert enc.perform(Grapple(target="b"))
    squeeze = of_type(enc, "opposed")[-1]
    assert (squeeze.purpose, squeeze.total, squeeze.target_total, squeeze.success) == ("grapple_damage", 12, 12, False)
    assert f.hp == hp    # a tie goes to the higher modifier: the fighter's +3 (SRD opposed checks)
    turn_of(enc, "a")
    enc.rng = Fixed([18, 2, 4])
    enc.perform(Grapple(target="b"))
    assert f.hp == hp - (4 + 4)


def test_improved_grab_only_on_a_hit_and_only_up_to_its_size():
    enc, dm, ogre = duo(["......", "......"], [0, 0], [1, 0], b="ogre")
    turn_of(enc, "a")
    enc.rng = Fixed([19, 1, 20, 1, 1])
    enc.perform(Strike(target="b", attack="slam"))
    assert dm.grapple_with == ["b"]                      # Large or smaller: the ogre is Large
    enc, dm, f = duo(["....."], [0, 0], [1, 0])
    turn_of(enc, "a")
    enc.rng = Fixed([2])                                 # a miss: no grab
    enc.perform(Strike(target="b", attack="slam"))
    assert not of_type(enc, "opposed") and not dm.grappling


def test_grab_size_default_is_one_size_smaller():
    dm, f = load_template("darkmantle"), load_template(FIGHTER)
    enc, a, b = duo(["....."], [0, 0], [1, 0])
    assert grapple.grab_size_ok(a, b, None) is False      # Small grabber, Medium target, no max_size
    assert grapple.grab_size_ok(a, b, "large") and dm.size < f.size + 1


def test_what_a_grappled_creature_may_do():
    """Light weapons only, at -4, against the creature in its grapple; no threatened squares (so no
    attacks of opportunity); no Dex to AC against others; no moving, casting or throwing."""
    enc = ready(encounter(["......"], [
        {"id": "a", "template": "darkmantle", "team": "m", "at": [0, 0]},
        {"id": "b", "template": FIGHTER, "team": "p", "at": [1, 0], "weapon": "longsword"},
        {"id": "c", "template": "goblin", "team": "m", "at": [2, 0]}]))
    a, b, c = (enc.creatures[k] for k in "abc")
    grapple.hold(enc, a, b, "test")
    assert attacks.threatens(enc, b) == set() and attacks.threatens(enc, a) == set()
    assert "not a light weapon" in attacks.plan_attack(enc, b, b.attack_named("longsword"), a).reason
    assert "only a creature in its grapple" in attacks.plan_attack(enc, b, b.attack_named("longsword"), c).reason
    dagger = b.attack_named("dagger")
    plan = attacks.plan_attack(enc, b, dagger, a)
    assert plan.modifiers["grappling"] == -4
    _, parts = attacks.target_ac(enc, c, b, ranged=False)
    assert "no_dex:grappling" in parts and "dex" not in parts      # the goblin is outside the grapple
    _, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert "no_dex:grappling" not in parts
    turn_of(enc, "b")
    r = enc.perform(FullAttack(target="a"))
    assert not r and "not a light weapon" in r.reason
    assert "cannot move" in enc.perform(Move(to=(3, 0))).reason
    assert "no throw" in enc.perform(Throw(item="alchemists-fire", target="a")).reason


def test_pin_and_escape_by_grapple():
    enc, dm, f = duo(["....."], [0, 0], [1, 0])
    grapple.hold(enc, dm, f, "test")
    turn_of(enc, "a")
    enc.rng = Fixed([15, 5])
    enc.perform(Pin(target="b"))
    assert f.pinned_by == "a" and "pinned" in f.conditions
    _, parts = attacks.target_ac(enc, dm, f, ranged=False)
    assert "pinned" not in parts                          # the pinner gets no +4
    turn_of(enc, "b")
    assert "pinned: it can only try to escape" in enc.perform(Strike(target="a", attack="dagger")).reason
    enc.rng = Fixed([14, 3])                              # +3 + 14 = 17 vs +0 + 3
    assert enc.perform(Escape())
    esc = of_type(enc, "opposed")[-1]
    assert (esc.purpose, esc.check, esc.total, esc.target_total, esc.success) == ("escape", "grapple", 17, 3, True)
    assert not f.grappling and not dm.grappling and f.pinned_by is None
    assert "pinned" not in f.conditions and "grappled" not in f.conditions


def test_escape_artist_inside_a_crawlway():
    """A halfling rogue held by a darkmantle in a crawlway (5 ft wide, 1.2-ft ceiling): both crawl
    (C < H/2). The darkmantle's grapple check takes the crawlway's light-weapon penalty, -2, and
    prone -4: +0 - 6 = -6 (docs/rules.md §11.1). The rogue's Escape Artist check takes no
    constricted-space penalty: +3 Dex +4 ranks = +7."""
    enc, dm, r = duo(["ll..."], [0, 0], [1, 0], b="halfling-rogue-1", legend={"l": (5, 1.2)})
    assert attacks.standing_category(enc, dm) is Category.CRAWL
    assert attacks.standing_category(enc, r) is Category.CRAWL and r.prone
    assert grapple.grapple_parts(enc, dm) == {"base_attack": 1, "str": 3, "size": -4, "crawl": -2, "prone": -4}
    assert grapple.escape_artist_parts(r) == {"escape_artist": 7}
    grapple.hold(enc, dm, r, "test")
    turn_of(enc, "b")
    enc.rng = Fixed([5, 10])     # Escape Artist 5 + 7 = 12 vs grapple 10 - 6 = 4
    assert enc.perform(Escape(artist=True))
    esc = of_type(enc, "opposed")[-1]
    assert (esc.check, esc.total, esc.target_check, esc.target_total, esc.success) == (
        "escape_artist", 12, "grapple", 4, True)
    assert not r.grappling


def test_a_large_creature_grappling_in_a_5_ft_tunnel():
    """An ogre (Large: space 10 ft, 9.5 ft tall) in a tunnel 5 ft wide under a 5-ft ceiling:
    W = S/2 (narrow, not awkward), H/2 <= C < H (low): Narrow and Low, whose light-weapon penalty
    is -4 (RULES §2.4, §2.5): grapple +12 - 4 = +8. Under a 4-ft ceiling it crawls (C < H/2), and the
    crawlway that is also narrow takes the Narrow-and-Low row, -4, and prone -4 (§7.10): +4."""
    rows = ["#########", "ttttttttt", "#########"]
    enc, ogre, f = duo(rows, [1, 1], [4, 1], a="ogre", legend={"t": (5, 5)})
    assert attacks.standing_category(enc, ogre) is Category.NARROW_AND_LOW
    parts = grapple.grapple_parts(enc, ogre)
    assert parts == {"base_attack": 3, "str": 5, "size": 4, "narrow_and_low": -4}
    assert sum(parts.values()) == 8
    enc, ogre, f = duo(rows, [1, 1], [4, 1], a="ogre", legend={"t": (5, 4)})
    assert attacks.standing_category(enc, ogre) is Category.CRAWL and attacks.crawl_is_narrow(enc, ogre)
    parts = grapple.grapple_parts(enc, ogre)
    assert parts == {"base_attack": 3, "str": 5, "size": 4, "crawl": -4, "prone": -4}
    assert sum(parts.values()) == 4
    # and the same penalty as its attacks with a light (natural) weapon would take there
    assert effects(Category.CRAWL).melee_mod(1, narrow=True) == -4
    off = grapple.constricted_parts(enc, ogre)
    enc.settings["grapple_constricted"] = False
    assert grapple.constricted_parts(enc, ogre) == {} and off == {"crawl": -4, "prone": -4}


def test_starting_a_grapple_provokes_and_a_damaging_aoo_spoils_it():
    enc, f, g = duo(["....."], [0, 0], [1, 0], a=FIGHTER, b="goblin")
    turn_of(enc, "a")
    enc.rng = Fixed([18, 4])          # the goblin's attack of opportunity hits (18) for 1d6 = 4
    assert enc.perform(Grapple(target="b"))
    aoo, = of_type(enc, "attack")
    assert aoo.kind == "opportunity" and aoo.actor == "b" and aoo.hit
    assert not of_type(enc, "opposed") and not f.grappling
    # no damage from the attack of opportunity: the touch attack, then the hold (unarmed 1d3+2 nonlethal)
    enc, f, g = duo(["....."], [0, 0], [1, 0], a=FIGHTER, b="goblin")
    turn_of(enc, "a")
    enc.rng = Fixed([2, 12, 15, 5, 2])   # AoO misses; touch 12 +3 vs touch AC 12; hold 15+3 vs 5-3; 1d3 = 2
    enc.perform(Grapple(target="b"))
    touch = [e for e in of_type(enc, "attack") if e.kind == "touch"][0]
    assert touch.modifiers == {"base_attack": 1, "str": 2, "size": 0} and touch.ac == 12 and touch.hit
    assert f.grapple_with == ["b"]
    dmg, = of_type(enc, "damage")
    assert (dmg.cause, dmg.parts, dmg.nonlethal) == ("grapple", {"bludgeoning": 2 + 2}, True) and g.nonlethal == 4


def test_swarms_cannot_be_grappled_tripped_or_bull_rushed():
    enc, f, s = duo(["....", "...."], [0, 0], [1, 0], a=FIGHTER, b="rat-swarm")
    turn_of(enc, "a")
    for action in (Grapple(target="b"), Trip(target="b"), BullRush(target="b")):
        r = enc.perform(action)
        assert not r and "swarm" in r.reason and "RULES §4.5" in r.reason
    assert not of_type(enc, "attack") and not of_type(enc, "opposed")
    turn_of(enc, "b")
    r = enc.perform(Grapple(target="a"))
    assert not r and "swarm: it cannot grapple" in r.reason


def test_move_a_grapple_at_half_speed():
    enc, f, g = duo([".........."], [3, 0], [4, 0], a=FIGHTER, b="goblin")
    grapple.hold(enc, f, g, "test")
    turn_of(enc, "a")
    enc.rng = Fixed([15, 2])
    assert enc.perform(MoveGrapple(to=(0, 0)))
    moved = [e for e in enc.events if e.type == "moved"]
    assert [e.action for e in moved] == ["move_grapple", "dragged"]
    assert sum(s["feet"] for s in moved[0].path) == 10     # half of 20 ft (in chainmail): 2 squares
    assert f.pos == (1, 0) and g.pos == (2, 0) and f.grapple_with == ["b"]


# -- trip and bull rush -------------------------------------------------------------------------------------------

def test_trip_numbers_and_trip_back():
    """Str check +2 vs the goblin's better of Str +0 / Dex +1 and its size -4 (RULES §1.1)."""
    enc, f, g = duo(["....."], [0, 0], [1, 0], a=FIGHTER, b="goblin")
    turn_of(enc, "a")
    enc.rng = Fixed([1, 12, 10, 10])   # AoO misses (1); touch 12 +3 vs 12; Str 10 + 2 vs Dex 10 + 1 - 4
    assert enc.perform(Trip(target="b"))
    trip = of_type(enc, "opposed")[-1]
    assert (trip.modifiers, trip.target_check, trip.target_modifiers) == ({"str": 2, "size": 0}, "dex",
                                                                          {"dex": 1, "size": -4})
    assert trip.success and g.prone
    enc, f, g = duo(["....."], [0, 0], [1, 0], a=FIGHTER, b="dwarf-fighter-1")
    turn_of(enc, "a")
    enc.rng = Fixed([1, 19, 10, 14, 18, 3])  # trip fails against the dwarf's stability; it trips back
    enc.perform(Trip(target="b"))
    trip, back = of_type(enc, "opposed")[-2:]
    assert trip.target_modifiers["stability"] == 4 and not trip.success
    assert back.purpose == "trip_back" and back.success and f.prone


def test_bull_rush_pushes_5_ft_per_5_points_until_rock():
    enc, f, g = duo(["......#"], [0, 0], [1, 0], a=FIGHTER, b="goblin")
    turn_of(enc, "a")
    enc.rng = Fixed([1, 20, 2])    # AoO misses; Str 20 + 2 = 22 vs 2 + 0 - 4 = -2: won by 24 -> 5 squares
    enc.perform(BullRush(target="b"))
    push = of_type(enc, "opposed")[-1]
    assert (push.total, push.target_total, push.target_modifiers) == (22, -2, {"str": 0, "size": -4})
    pushed = [e for e in enc.events if e.type == "moved" and e.action == "pushed"][0]
    assert len(pushed.path) == 4 and g.pos == (5, 0)   # 5 squares earned; the rock at x = 6 stops it after 4


def test_ooze_and_too_big_cannot_be_tripped():
    enc, g, ogre = duo(["......", "......"], [0, 0], [1, 0], a="goblin", b="ogre")
    turn_of(enc, "a")
    assert "too big" in enc.perform(Trip(target="b")).reason    # Large vs Small: two sizes up


# -- invariants --------------------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(width=st.sampled_from([10, 4, 2, 5, 1]), ceiling=st.sampled_from([12, 4, 2.5, 1, 0.9]))
def test_grapple_penalty_is_the_light_weapon_penalty(width, ceiling):
    """docs/rules.md §11.1: wherever a creature stands, its grapple check's constricted-space parts
    are exactly those of its attack with a light (natural) weapon there."""
    enc, a, b = duo(["x.."], [0, 0], [1, 0], a="grick", b="grick", legend={"x": (width, ceiling)})
    cat = attacks.standing_category(enc, a)
    if cat >= Category.TIGHT_SQUEEZE:
        return
    plan = attacks.plan_attack(enc, a, a.attack_named("tentacle"), b)
    light = {k: v for k, v in plan.modifiers.items() if k in (cat.name.lower(), "prone")}
    assert grapple.constricted_parts(enc, a) == light


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_grapples_are_mutual_and_end_with_the_fight(seed):
    """Whoever grapples whom, it is both ways; nobody out of the fight is still held."""
    enc = encounter(["........", "........"], [
        {"id": "d", "template": "darkmantle", "team": "m", "at": [0, 0]},
        {"id": "c", "template": "choker", "team": "m", "at": [0, 1]},
        {"id": "f", "template": FIGHTER, "team": "p", "at": [2, 0]},
        {"id": "r", "template": "halfling-rogue-1", "team": "p", "at": [2, 1]}], seed=seed)
    enc.start()
    while enc.advance():
        for c in enc.creatures.values():
            for o in c.grapple_with:
                assert c.id in enc.creatures[o].grapple_with
            if not c.in_fight:
                assert not c.grapple_with
    assert enc.finished


@pytest.mark.parametrize("name", ["darkmantle", "choker"])
def test_grapplers_fight_to_an_end(name):
    enc = encounter(["......", "......"], [
        {"id": "m", "template": name, "team": "m", "at": [0, 0]},
        {"id": "f", "template": FIGHTER, "team": "p", "at": [2, 0]}], seed=3)
    enc.run()
    assert enc.finished and enc.end_reason == "victory"


# -- amorphous oozes (RULES §11.12) ------------------------------------------------------------------------------

def test_an_amorphous_ooze_flows_through_a_squeeze():
    """A Huge black pudding (15-ft space, 2 ft thick) in a tunnel 5 ft wide: W < S/2, an Awkward
    square for its body. With ooze_squeeze (the default) it needs no Escape Artist check (its Dex 1
    gives -5) and fights there without penalty; the square still costs its move action."""
    rows = ["###########", "...t.......", "...t.......", "...t.......", "###########"]
    legend = {"t": (5, 12)}
    enc, pud, f = duo(rows, [0, 1], [8, 2], a="black-pudding", legend=legend)
    assert attacks.standing_category(enc, pud) is Category.CLEAR
    assert effects(Category(int(enc.field(pud).category[1, 3]))).label == "Awkward Space"
    turn_of(enc, "a")
    assert enc.perform(Move(to=(3, 1), double=True))
    assert not [e for e in enc.events if e.type == "check" and e.skill == "escape_artist"]
    moved = [e for e in enc.events if e.type == "moved"][-1]
    assert "escape_artist" in {s["kind"] for s in moved.path} and pud.pos != (0, 1)
    assert attacks.standing_category(enc, pud) is Category.CLEAR
    assert grapple.constricted_parts(enc, pud) == {}
    # the strict reading: a body like any other; its Escape Artist is -5 (Dex 1) against DC 15, so
    # the path search squeezes it into a line instead (RULES §2.6) and it fights constricted there
    enc, pud, f = duo(rows, [0, 1], [8, 2], a="black-pudding", legend=legend, ooze_squeeze=False)
    assert enc.field(pud).mover.escape_artist == -5
    turn_of(enc, "a")
    enc.perform(Move(to=(3, 1), double=True))
    assert attacks.standing_category(enc, pud) is Category.NARROW_OR_LOW
    assert grapple.constricted_parts(enc, pud) == {"narrow_or_low": -2}


def test_oozes_are_immune_to_critical_hits_and_sneak_attacks():
    enc, r, ooze = duo(["....."], [0, 0], [1, 0], a="halfling-rogue-3", b="gray-ooze")
    ooze.flat_footed = True
    plan = attacks.plan_attack(enc, r, r.attack_named("short-sword"), ooze)
    assert not plan.sneak
    enc.rng = Fixed([20, 20, 3, 2])
    attacks.resolve_attack(enc, plan)
    atk = of_type(enc, "attack")[-1]
    assert atk.hit and not atk.threat and not atk.critical


def test_gelatinous_cube_paralyses():
    """Slam +1 (1d6 + 1d6 acid); Fort DC 20 (10 + 4/2 + Con 8) or paralyzed 3d6 rounds."""
    enc, cube, f = duo(["wwwwww", "wwwwww", "wwwwww", "wwwwww"], [0, 0], [3, 1], a="gelatinous-cube")
    assert attacks.standing_category(enc, cube) is Category.CLEAR   # 30 ft wide, 20 ft high: room for a 15-ft cube
    turn_of(enc, "a")
    enc.rng = Fixed([19, 2, 3, 4, 2, 2, 2])   # hit; 1d6 = 2 and acid 3; Fort d20 4 (fails); 3d6 = 6
    assert enc.perform(Strike(target="b", attack="slam"))
    save = [e for e in enc.events if e.type == "save"][-1]
    assert (save.cause, save.dc, save.success) == ("paralysis", 20, False)
    assert "paralyzed" in f.conditions and find(f, "paralyzed").until == enc.round + 6
    dmg = of_type(enc, "damage")[-1]
    assert dmg.parts == {"bludgeoning": 2, "acid": 3}
    enc.round += 7
    turn_of(enc, "b")
    assert "paralyzed" not in f.conditions
