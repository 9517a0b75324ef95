"""Splash weapons and the thrown lantern (RULES §3.5, §7.21-23), with exact numbers: direct hits and
splash, grid intersections against AC 5, the 1d8 deviation of a miss, the lantern's 1d4 to
everyone around where it breaks (allies too), x1.5 against swarms, burning, and refusals."""

from __future__ import annotations

from sim.engine.effects import Effect, put
from sim.engine.actions import Impossible, Throw

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

OPEN = ["." * 12] * 7


def fight(*others, thrower_at=(1, 3), items=None, rows=OPEN, lit=True):
    # lit: the thrower's lanterns burn (only a lit lantern bursts into fire, RULES §3.5)
    cs = [{"id": "t", "template": "human-fighter-3", "team": "p", "at": list(thrower_at), "items": items or {},
           "lit": lit}]
    enc = ready(encounter(rows, cs + list(others)))
    turn_of(enc, "t")
    return enc


def damage_by_target(enc, n):
    return {e.target: e.amount for e in of_type(enc, "damage", n)}


def test_alchemists_fire_direct_hit_1d6_and_1_splash_within_5_ft_then_burns():
    enc = fight({"id": "g", "template": "goblin", "team": "m", "at": [5, 3]},
                {"id": "g2", "template": "goblin", "team": "m", "at": [6, 4]},      # adjacent (diagonal)
                {"id": "ally", "template": "human-fighter-3", "team": "p", "at": [5, 2]},  # adjacent: hit too
                {"id": "far", "template": "goblin", "team": "m", "at": [7, 3]})     # 10 ft away: untouched
    t = enc.creatures["t"]
    assert t.items["alchemists-fire"] == 2
    enc.rng = Fixed(15, 4)  # attack d20 15 (ranged touch), direct 1d6 = 4
    n = len(enc.events)
    assert enc.perform(Throw("alchemists-fire", target="g"))
    (atk,) = of_type(enc, "attack", n)
    assert atk.kind == "ranged_touch" and atk.hit and "improvised" not in atk.modifiers  # no proficiency needed
    assert atk.modifiers == {"base_attack": 3, "dexterity": 1, "size": 0, "range": -2,  # 20 ft: 2nd increment
                             "firing_into_melee": -4}                                    # the ally beside it
    assert atk.total == 15 + 3 + 1 - 2 - 4 and atk.ac == 12                             # touch AC 10 +1 size +1 Dex
    (splash,) = of_type(enc, "splash", n)
    assert splash.direct == "g" and splash.hit and len(splash.squares) == 9
    assert damage_by_target(enc, n) == {"g": 4, "g2": 1, "ally": 1}
    assert "burning" in enc.creatures["g"].conditions and t.items["alchemists-fire"] == 1
    # the next round, at the start of its turn: another 1d6 fire (RULES §3.5)
    enc.rng = Fixed(3)
    n = len(enc.events)
    turn_of(enc, "g")
    burn = [e for e in of_type(enc, "damage", n) if e.cause == "burning"]
    assert [(e.target, e.amount) for e in burn] == [("g", 3)] and "burning" not in enc.creatures["g"].conditions


def test_splash_against_a_swarm_is_x1_5_direct_hit_included():
    enc = fight({"id": "rats", "template": "rat-swarm", "team": "m", "at": [5, 3]})
    rats = enc.creatures["rats"]
    rats.squares = [(5, 3)]
    enc.rng = Fixed(15, 4)
    n = len(enc.events)
    assert enc.perform(Throw("alchemists-fire", target="rats"))
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.amount == 6 and dmg.adjustments["area_x1.5"] == 2   # 4 fire x 1.5 (§7.22)
    assert "burning" not in rats.conditions                       # a swarm does not keep burning


def test_a_thrown_lantern_burns_everyone_around_the_break_once_allies_included():
    enc = fight({"id": "g", "template": "goblin", "team": "m", "at": [4, 3]},
                {"id": "ally", "template": "human-fighter-3", "team": "p", "at": [3, 2]},
                {"id": "bats", "template": "bat-swarm", "team": "m", "at": [4, 4]},
                {"id": "out", "template": "goblin", "team": "m", "at": [6, 3]},
                items={"hooded-lantern": 1})
    bats = enc.creatures["bats"]
    bats.squares = [(4, 4), (5, 4), (4, 5), (5, 5)]   # two of its squares in the area: hit once
    enc.rng = Fixed(15, 3, 2, 4)   # attack; then 1d4 each, in the creatures' order: g 3, ally 2, bats 4
    n = len(enc.events)
    assert enc.perform(Throw("hooded-lantern", target="g"))
    assert damage_by_target(enc, n) == {"g": 3, "ally": 2, "bats": 6}   # bats: 4 x 1.5
    assert enc.creatures["t"].items["hooded-lantern"] == 0              # the lantern is gone


def test_an_intersection_is_ac_5_and_splashes_the_four_squares_around_it():
    enc = fight({"id": "a", "template": "goblin", "team": "m", "at": [4, 2]},
                {"id": "b", "template": "goblin", "team": "m", "at": [5, 3]},
                {"id": "c", "template": "goblin", "team": "m", "at": [6, 3]})
    enc.rng = Fixed(4)     # d20 4: +3 BAB +1 Dex -2 range = 6 >= AC 5
    n = len(enc.events)
    assert enc.perform(Throw("alchemists-fire", at=(5, 3), intersection=True))
    (atk,) = of_type(enc, "attack", n)
    assert atk.ac == 5 and atk.hit
    (splash,) = of_type(enc, "splash", n)
    assert sorted(splash.squares) == [(4, 2), (4, 3), (5, 2), (5, 3)] and splash.direct is None
    assert damage_by_target(enc, n) == {"a": 1, "b": 1}


def test_a_miss_lands_1d8_directions_times_range_increments_away():
    enc = fight({"id": "g", "template": "goblin", "team": "m", "at": [5, 3]},
                {"id": "near", "template": "goblin", "team": "m", "at": [2, 4]})
    enc.rng = Fixed(2, 1)   # d20 2 misses; 1d8 = 1: back toward the thrower, 2 increments -> (3, 3)
    n = len(enc.events)
    assert enc.perform(Throw("alchemists-fire", target="g"))
    (splash,) = of_type(enc, "splash", n)
    assert not splash.hit and tuple(splash.at) == (3, 3) and splash.direct is None
    assert damage_by_target(enc, n) == {"near": 1}   # splash only, where it landed


def test_throws_refused_with_the_reason():
    rows = ["............", "....#.......", "....#.......", "....#.......", "c..........."]
    enc = fight({"id": "g", "template": "goblin", "team": "m", "at": [11, 0]},
                {"id": "hid", "template": "goblin", "team": "m", "at": [5, 2]},
                thrower_at=(0, 2), items={"oil-flask": 1}, rows=rows)
    t = enc.creatures["t"]

    def why(action):
        r = enc.perform(action)
        assert isinstance(r, Impossible), r
        return r.reason

    assert why(Throw("oil-flask", target="hid")) == ("a oil-flask needs a fuse prepared first (a full-round action; "
                                                     "O in cavesim play)")
    assert why(Throw("hooded-lantern", target="hid")) == "T carries no hooded-lantern"
    assert why(Throw("alchemists-fire")) == "throw at a creature or at a square / intersection"
    assert why(Throw("alchemists-fire", target="hid")) == "no line of effect"       # the wall between
    t.pos, t.squares = (0, 0), [(0, 0)]
    assert why(Throw("alchemists-fire", target="g")) == "out of range (55 ft; 10-ft increments, 5 at most)"
    t.pos, t.squares = (0, 4), [(0, 4)]                  # a 2.5-ft crawlway: crossbows only (§2.4)
    assert why(Throw("alchemists-fire", at=(2, 4))) == "cannot throw in a Crawl-Navigable"
    t.pos, t.squares = (1, 0), [(1, 0)]
    t.prone = True
    assert why(Throw("alchemists-fire", at=(2, 0))) == "prone: cannot throw"
    assert t.items["alchemists-fire"] == 2 and t.items["oil-flask"] == 1   # nothing spent


def test_splash_reaches_everything_within_5_ft_of_a_large_target_and_bless_counts():
    enc = fight({"id": "o", "template": "ogre", "team": "m", "at": [5, 2]},           # covers (5..6, 2..3)
                {"id": "left", "template": "goblin", "team": "m", "at": [4, 3]},
                {"id": "right", "template": "goblin", "team": "m", "at": [7, 3]},
                {"id": "far", "template": "goblin", "team": "m", "at": [8, 3]})
    t = enc.creatures["t"]
    put(t, Effect("blessed", None, enc.round))
    enc.rng = Fixed(15, 4)
    n = len(enc.events)
    assert enc.perform(Throw("alchemists-fire", target="o"))
    (atk,) = of_type(enc, "attack", n)
    assert atk.modifiers["bless"] == 1
    assert damage_by_target(enc, n) == {"o": 4, "left": 1, "right": 1}   # both sides of the ogre, not 10 ft


def test_an_oil_flask_needs_a_fuse_then_catches_fire_half_the_time():
    from sim.engine.actions import PrepareFuse

    enc = fight({"id": "g", "template": "goblin", "team": "m", "at": [5, 3]}, items={"oil-flask": 2})
    t = enc.creatures["t"]
    r = enc.perform(Throw("oil-flask", target="g"))
    assert not r and r.reason == "a oil-flask needs a fuse prepared first (a full-round action; O in cavesim play)"
    assert enc.perform(PrepareFuse())                     # the whole round
    assert t.fused == {"oil-flask": 1} and enc.turn.ended
    turn_of(enc, "t")
    enc.rng = Fixed(15, 4)                                # hits; rng.random() 0.5: >= 50%, no fire
    n = len(enc.events)
    assert enc.perform(Throw("oil-flask", target="g"))
    assert [(e.action, e.item) for e in of_type(enc, "item", n)] == [("fizzle", "oil-flask")]
    assert not of_type(enc, "damage", n) and t.items["oil-flask"] == 1 and t.fused == {"oil-flask": 0}
    class Lit(Fixed):
        def random(self):
            return 0.2                                    # below 50%: it catches fire
    turn_of(enc, "t")
    assert enc.perform(PrepareFuse("oil-flask"))
    turn_of(enc, "t")
    enc.rng = Lit(15, 4)
    n = len(enc.events)
    assert enc.perform(Throw("oil-flask", target="g"))
    assert damage_by_target(enc, n) == {"g": 4} and t.items["oil-flask"] == 0
