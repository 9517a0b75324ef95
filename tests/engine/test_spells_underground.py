"""Fireball, lightning bolt, hold person and cure moderate wounds (RULES §8, areas against swarms
§4.7): areas on the grid with exact squares, save DCs, damage dice and x1.5 on a swarm."""

from __future__ import annotations

from sim.engine.effects import find
from sim.engine import spells
from sim.engine.actions import Cast, Impossible

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 26] * 7
CORRIDOR = ["#" * 26, "." * 26, "#" * 26]            # a 5-ft corridor, rock above and below
ELBOW = ["#" * 12, "......######", "#####.######", "#####.######", "#####.######"]  # east, then south at x=5


def _wizard(rows, at, *others, template="elf-wizard-5"):
    return ready(encounter(rows, [{"id": "w", "template": template, "team": "p", "at": at}, *others]))


# ---- fireball -------------------------------------------------------------------------------------

def test_fireball_in_a_corridor_fills_8_squares_of_its_20_ft_radius():
    enc = _wizard(CORRIDOR, [0, 1])
    w = enc.creatures["w"]
    area = spells.area_of(enc, w, Cast("fireball", at=(10, 1)))
    # 20 ft counted 5-10-5 from the intersection (10, 1): squares x = 6..13 of the corridor, nothing in rock
    assert sorted(area) == [(x, 1) for x in range(6, 14)]


def test_fireball_stops_at_rock_around_a_corner():
    enc = _wizard(ELBOW, [0, 1])
    w = enc.creatures["w"]
    # from (3, 2) the square (5, 2) round the corner is within 20 ft (5-10-5: 3 squares) but the rock
    # at (3, 2)-(4, 2) stops the spread: only the east arm burns
    assert sorted(spells.area_of(enc, w, Cast("fireball", at=(3, 2)))) == [(x, 1) for x in range(0, 6)]
    # centred on the elbow itself it sees down both arms
    assert sorted(spells.area_of(enc, w, Cast("fireball", at=(5, 2)))) == \
        [(x, 1) for x in range(1, 6)] + [(5, 2), (5, 3), (5, 4)]


def test_fireball_5d6_at_5th_level_reflex_dc_15_half():
    enc = _wizard(HALL, [0, 3], {"id": "o", "template": "ogre", "team": "m", "at": [10, 3]})
    w = turn_of(enc, "w")
    assert w.block.spells.save_dc(3) == 16                     # 10 + 3rd level + Int 16 (+3: 15, +1 at 4th level)
    enc.rng = Fixed(4)                                         # every d6 a 4: 5d6 = 20; Reflex d20 4 fails
    n = len(enc.events)
    assert enc.perform(Cast("fireball", at=(11, 4)))   # nobody near: no attack of opportunity
    (sv,) = of_type(enc, "save", n)
    assert (sv.save, sv.dc, sv.cause, sv.success) == ("reflex", 16, "fireball", False)
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.parts == {"fire": 20} and dmg.amount == 20


def test_fireball_half_on_a_save_and_x1_5_on_a_swarm():
    enc = _wizard(HALL, [0, 3], {"id": "s", "template": "rat-swarm", "team": "m", "at": [10, 3]},
                  {"id": "o", "template": "ogre", "team": "m", "at": [12, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(20)      # every d20 a 20 (concentration, saves made), every d6 a 6: 5d6 = 30
    n = len(enc.events)
    assert enc.perform(Cast("fireball", at=(12, 4), defensive=True))
    by = {e.target: e for e in of_type(enc, "damage", n)}
    assert by["o"].amount == 15                                  # 30 halved
    assert by["s"].amount == 22                                  # 15 x 1.5, rounded down (§4.7)


def test_fireball_range_and_line_of_effect():
    enc = _wizard(CORRIDOR, [0, 1])
    assert spells.range_ft(enc.creatures["w"], "long") == 600    # 400 ft + 40 ft per level
    enc2 = _wizard(ELBOW, [0, 1], {"id": "g", "template": "goblin", "team": "m", "at": [5, 4]})
    turn_of(enc2, "w")
    r = enc2.perform(Cast("fireball", at=(6, 5)))
    assert isinstance(r, Impossible) and r.reason == "no line of effect to the point (6, 5)"
    r = enc2.perform(Cast("fireball"))
    assert isinstance(r, Impossible) and r.reason == "fireball needs a point (a grid intersection)"
    assert spells.has_spell(enc2.creatures["w"], "fireball") == 3   # nothing spent


# ---- lightning bolt -------------------------------------------------------------------------------

def test_lightning_bolt_is_a_120_ft_line_in_a_corridor():
    enc = _wizard(CORRIDOR, [1, 1])
    w = enc.creatures["w"]
    area = spells.area_of(enc, w, Cast("lightning-bolt", at=(10, 1)))
    assert area == [(x, 1) for x in range(2, 26)]                # 24 squares: 120 ft from the caster's edge


def test_lightning_bolt_stops_at_rock_and_does_not_bounce():
    rows = ["#" * 26, "." * 12 + "#" + "." * 13, "#" * 26]
    enc = _wizard(rows, [1, 1])
    area = spells.area_of(enc, enc.creatures["w"], Cast("lightning-bolt", at=(5, 1)))
    assert area == [(x, 1) for x in range(2, 12)]
    enc2 = _wizard(ELBOW, [0, 1])                                 # aimed down the corridor: stops at the turn's rock
    assert spells.area_of(enc2, enc2.creatures["w"], Cast("lightning-bolt", at=(3, 1))) == [(x, 1) for x in range(1, 6)]


def _bolt(w):
    w.spells_left[3].append("lightning-bolt")   # the shipped 5th-level wizard prepares fireball and haste


def test_lightning_bolt_5d6_electricity_reflex_half_x1_5_on_a_swarm():
    enc = _wizard(HALL, [0, 3], {"id": "o", "template": "ogre", "team": "m", "at": [5, 3]},
                  {"id": "s", "template": "rat-swarm", "team": "m", "at": [9, 3]})
    _bolt(turn_of(enc, "w"))
    enc.rng = Fixed(20, 2)   # concentration 20; every d6 2: 5d6 = 10; every Reflex save d20 2 fails
    n = len(enc.events)
    assert enc.perform(Cast("lightning-bolt", at=(12, 3), defensive=True))
    by = {e.target: e for e in of_type(enc, "damage", n)}
    assert by["o"].parts == {"electricity": 10} and by["o"].amount == 10
    assert by["s"].amount == 15                                  # x1.5 (§4.7)
    assert {e.dc for e in of_type(enc, "save", n)} == {16}


def test_lightning_bolt_needs_a_square_to_aim_at():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [20, 3]})
    _bolt(turn_of(enc, "w"))
    r = enc.perform(Cast("lightning-bolt"))
    assert isinstance(r, Impossible) and r.reason == "lightning bolt needs a square to aim at (outside the caster's space)"


# ---- hold person ----------------------------------------------------------------------------------

def _cleric(*others):
    return ready(encounter(HALL, [{"id": "c", "template": "human-cleric-3", "team": "p", "at": [0, 3]}, *others]))


def test_hold_person_will_dc_14_paralyses_for_a_round_per_level_with_a_save_each_round():
    enc = _cleric({"id": "o", "template": "orc", "team": "m", "at": [8, 3]})
    c = turn_of(enc, "c")
    enc.rng = Fixed(2)
    n = len(enc.events)
    assert enc.perform(Cast("hold-person", target="o"))
    (sv,) = of_type(enc, "save", n)
    assert (sv.save, sv.dc, sv.success) == ("will", 14, False)   # 10 + 2nd level + Wis 15 (+2)
    o = enc.creatures["o"]
    assert "paralyzed" in o.conditions and find(o, "held").until == enc.round + 3 - 1 and find(o, "held").value("dc") == 14 and not o.in_fight
    assert c.block.spells.save_dc(2) == 14
    enc.rng = Fixed(2)                                         # its turn: a new save, failed: still held
    turn_of(enc, "o")
    assert "paralyzed" in o.conditions
    enc.rng = Fixed(20)                                        # next round's save made: free
    enc.round += 1
    n = len(enc.events)
    turn_of(enc, "o")
    assert "paralyzed" not in o.conditions and find(o, "held") is None
    assert [e.cause for e in of_type(enc, "condition", n)] == ["saved"]


def test_hold_person_ends_after_its_duration():
    enc = _cleric({"id": "o", "template": "orc", "team": "m", "at": [8, 3]})
    turn_of(enc, "c")
    enc.rng = Fixed(2)
    assert enc.perform(Cast("hold-person", target="o"))
    o = enc.creatures["o"]
    enc.round = find(o, "held").until + 1
    n = len(enc.events)
    turn_of(enc, "o")
    assert "paralyzed" not in o.conditions and not of_type(enc, "save", n)


def test_hold_person_refuses_a_non_humanoid_and_a_swarm():
    enc = _cleric({"id": "g", "template": "ogre", "team": "m", "at": [8, 3]},
                  {"id": "s", "template": "rat-swarm", "team": "m", "at": [4, 3]})
    turn_of(enc, "c")
    r = enc.perform(Cast("hold-person", target="g"))
    assert isinstance(r, Impossible) and r.reason == "hold person holds a humanoid: G is giant"
    r = enc.perform(Cast("hold-person", target="s"))
    assert isinstance(r, Impossible) and r.reason == "hold person holds a humanoid: S is a swarm"
    assert spells.has_spell(enc.creatures["c"], "hold-person") == 2  # nothing spent


# ---- cure moderate wounds -------------------------------------------------------------------------

def test_cure_moderate_wounds_heals_2d8_plus_caster_level():
    enc = _cleric({"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]},
                  {"id": "g", "template": "goblin", "team": "m", "at": [20, 3]})
    turn_of(enc, "c")
    f = enc.creatures["f"]
    f.hp = 2
    enc.rng = Fixed(5)                                         # 2d8 = 10, + 3 (caster level 3; max +10)
    assert enc.perform(Cast("cure-moderate-wounds", target="f"))
    assert f.hp == 2 + 10 + 3


# ---- the AI casts them when they pay --------------------------------------------------------------

def _next(enc, cid):
    from sim.engine.ai import decide as ai
    c = turn_of(enc, cid)
    return ai.default_policy(enc, c, enc.turn)


def test_the_ai_fireballs_a_swarm_and_never_its_friends():
    enc = _wizard(HALL, [0, 3], {"id": "s", "template": "rat-swarm", "team": "m", "at": [14, 3]},
                  {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]})
    a = _next(enc, "w")
    assert isinstance(a, Cast) and a.spell == "fireball"
    area = set(spells.area_of(enc, enc.creatures["w"], a))
    assert set(enc.creatures["s"].squares) & area and not area & {(0, 3), (1, 3)}


def test_the_ai_holds_the_biggest_humanoid():
    enc = _cleric({"id": "g", "template": "goblin", "team": "m", "at": [12, 3]},
                  {"id": "b", "template": "bugbear", "team": "m", "at": [14, 1]},
                  {"id": "o", "template": "ogre", "team": "m", "at": [16, 4]})
    enc.creatures["c"].spells_left = {2: ["hold-person"]}
    b, g = enc.creatures["b"], enc.creatures["g"]
    assert (b.block.hit_dice, g.block.hit_dice) == (3, 1)
    assert _next(enc, "c") == Cast("hold-person", target="b")   # the bugbear; the ogre is no humanoid


def test_the_ai_cures_with_cure_moderate_first():
    enc = _cleric({"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]},
                  {"id": "g", "template": "goblin", "team": "m", "at": [20, 3]})
    enc.creatures["f"].hp = 3
    a = _next(enc, "c")
    assert a == Cast("cure-moderate-wounds", target="f")


# ---- light and darkness (RULES §9.1) --------------------------------------------------------------

def _dark(*others, template="human-cleric-3"):
    import dataclasses

    from sim.engine.fight import new_encounter

    from .helpers import spec
    s = spec(["#" * 20, "#" + "." * 18 + "#", "#" + "." * 18 + "#", "#" * 20],
             [{"id": "c", "template": template, "team": "p", "at": [1, 1]}, *others], vision=True)
    return ready(new_encounter(dataclasses.replace(s, grid=s.grid.replace(lights=()))))


def test_light_on_the_casters_gear_lights_20_ft_bright_and_the_human_sees_again():
    from sim.terrain.vision import BRIGHT, SHADOWY
    enc = _dark({"id": "g", "template": "goblin", "team": "m", "at": [6, 1]})
    c = turn_of(enc, "c")
    assert enc.vision()[1].is_blinded("c")                 # a human in an unlit cave
    assert spells.has_spell(c, "light") == 0                # a cantrip (0-level slot)
    assert enc.perform(Cast("light", target="c"))
    assert c.light == "light-spell" and spells.has_spell(c, "light") is None
    lg, sight = enc.vision()
    assert not sight.is_blinded("c") and sight.sees("c", "g")
    # 20 ft bright, 40 ft shadowy, counted 5-10-5 from the cleric's square (§9.3.1)
    assert lg.normal[1, 5] == BRIGHT and lg.normal[1, 6] == SHADOWY


def test_light_on_a_square_stays_there_and_needs_a_touch():
    enc = _dark({"id": "g", "template": "goblin", "team": "m", "at": [14, 1]})
    turn_of(enc, "c")
    r = enc.perform(Cast("light", at=(4, 1)))
    assert isinstance(r, Impossible) and r.reason == "the square (4, 1) is out of reach: light is a touch spell"
    assert enc.perform(Cast("light", at=(2, 1)))
    assert [(d.item, d.at) for d in enc.floor.lights] == [("light-spell", (2, 1))]


def test_the_ai_casts_light_in_the_dark():
    enc = _dark({"id": "g", "template": "goblin", "team": "m", "at": [14, 2]})
    assert _next(enc, "c") == Cast("light", target="c")


def test_darkness_caps_light_at_shadowy_and_conceals_even_from_darkvision():
    from sim.terrain.vision import SHADOWY
    enc = _dark({"id": "g", "template": "goblin", "team": "m", "at": [3, 1]})
    c = turn_of(enc, "c")
    c.spells_left[2].append("darkness")
    c.light = "sunrod"                                      # 30 ft bright
    assert enc.vision()[0].normal[1, 3] > SHADOWY
    assert enc.perform(Cast("darkness", at=(2, 1)))
    lg, sight = enc.vision()
    assert lg.normal[1, 3] == SHADOWY and lg.magic_dark[1, 3]
    assert sight.miss_chance("g", "c") == 20                # the goblin's darkvision does not pierce it
    assert [e.spell for e in of_type(enc, "spell")][-1] == "darkness"
    r = enc.perform(Cast("darkness", target="g"))
    assert isinstance(r, Impossible)


def test_the_log_says_where_darkness_was_cast_and_who_carries_light():
    from sim.story.log import Narrator
    enc = _dark({"id": "g", "template": "goblin", "team": "m", "at": [14, 1]})
    c = turn_of(enc, "c")
    c.spells_left[2].append("darkness")
    n = len(enc.events)
    assert enc.perform(Cast("darkness", at=(2, 1)))
    (e,) = of_type(enc, "spell", n)
    assert Narrator().line(e) == "c casts darkness at (2, 1)"   # a Narrator without labels names by id
    turn_of(enc, "c")
    n = len(enc.events)
    assert enc.perform(Cast("light", target="c"))
    assert Narrator().line(of_type(enc, "spell", n)[0]) == "c casts light on c"


# ---- invariants of the areas ----------------------------------------------------------------------

CAVE = ["############", "#....#.....#", "#.##.#.###.#", "#.#......#.#", "#.#.####.#.#", "#..........#",
        "############"]


def test_areas_never_hold_rock_nor_the_casters_own_line_square_and_stay_in_reach():
    from hypothesis import given, settings, strategies as st

    from sim.terrain.geometry import footprint_distance_ft
    enc = _wizard(CAVE, [1, 1])
    w = enc.creatures["w"]
    open_sq = [(x, y) for y, row in enumerate(CAVE) for x, ch in enumerate(row) if ch == "."]

    @settings(max_examples=60, deadline=None)
    @given(st.sampled_from(open_sq), st.integers(0, 12), st.integers(0, 7))
    def check(at, px, py):
        w.pos, w.squares = at, [at]
        bolt = spells.area_of(enc, w, Cast("lightning-bolt", at=(px % 12, py % 7)))
        assert at not in bolt and len(bolt) == len(set(bolt))
        for x, y in bolt:
            assert not enc.grid.rock[y, x] and footprint_distance_ft([at], [(x, y)]) <= 120
        ball = spells.area_of(enc, w, Cast("fireball", at=(px, py)))
        for x, y in ball:
            assert not enc.grid.rock[y, x]
            dx = max(x + 1 - px, px - x)
            dy = max(y + 1 - py, py - y)
            assert max(dx, dy) + min(dx, dy) // 2 <= 4          # 20 ft, 5-10-5 from the point
    check()
