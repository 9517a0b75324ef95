"""The party's spells (RULES §8): slots, ranges, areas on the grid, saves, attacks of opportunity
for casting and the Concentration checks (§8, §4.4), each with exact numbers."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine.effects import find
from sim.engine import attacks, casting, damage, spells
from sim.engine.actions import Cast, Impossible

from .helpers import encounter, ready


class Fixed:
    """An rng that answers every die with the next value given (the last one repeats)."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def _next(self, hi):
        v = self.rolls.pop(0) if len(self.rolls) > 1 else self.rolls[0]
        return min(v, hi - 1)

    def integers(self, lo, hi, size=None):
        if size is None:
            return self._next(hi)
        return np.array([self._next(hi) for _ in range(size)])

    def random(self):
        return 0.5


def turn_of(enc, cid):
    """Make ``cid`` the creature acting now."""
    if enc.turn is not None:
        enc.end_turn()
    enc.turn_index = enc.order.index(cid) - 1
    enc.begin_turn()
    assert enc.turn.actor == cid
    return enc.creatures[cid]


def of_type(enc, kind, n=None):
    return [e for e in enc.events[n or 0:] if e.type == kind]


HALL = ["." * 26] * 7


# ---- magic missile --------------------------------------------------------------------------------

@pytest.mark.parametrize("template,missiles", [("elf-wizard-1", 1), ("elf-wizard-2", 1), ("elf-wizard-3", 2),
                                               ("elf-wizard-4", 2), ("elf-wizard-5", 3)])
def test_magic_missile_one_missile_plus_one_per_two_levels_each_1d4_plus_1(template, missiles):
    enc = ready(encounter(HALL, [{"id": "w", "template": template, "team": "p", "at": [1, 3]},
                                 {"id": "o", "template": "ogre", "team": "m", "at": [12, 3]}]))
    turn_of(enc, "w")
    enc.rng = Fixed(4)  # every d4 a 4: 5 per missile
    n = len(enc.events)
    assert enc.perform(Cast("magic-missile", target="o"))
    assert not of_type(enc, "attack", n)  # never misses: no attack roll
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.target == "o" and dmg.parts == {"force": 5 * missiles}


def test_magic_missile_range_line_of_effect_and_slots():
    rows = ["." * 26, "....#" + "." * 21, "....#" + "." * 21, "....#" + "." * 21]
    enc = ready(encounter(rows, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 0]},
                                 {"id": "far", "template": "goblin", "team": "m", "at": [23, 0]},
                                 {"id": "hid", "template": "goblin", "team": "m", "at": [5, 2]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [21, 0]}]))
    w = turn_of(enc, "w")
    assert casting.range_ft(w, "medium") == 110  # 100 ft + 10 ft per level
    r = enc.perform(Cast("magic-missile", target="far"))  # 23 squares: 115 ft
    assert isinstance(r, Impossible) and r.reason == "Far is out of range (110 ft)"
    w.pos = (3, 2)
    w.squares = [(3, 2)]
    r = enc.perform(Cast("magic-missile", target="hid"))
    assert isinstance(r, Impossible) and r.reason == "no line of effect to Hid"
    w.pos, w.squares = (0, 0), [(0, 0)]
    assert enc.perform(Cast("magic-missile", target="g"))  # 105 ft: in range
    assert casting.has_spell(w, "magic-missile") is None  # the one 1st-level magic missile is spent
    turn_of(enc, "w")
    r = enc.perform(Cast("magic-missile", target="g"))
    assert isinstance(r, Impossible) and r.reason == "W has no magic-missile prepared"


# ---- casting provokes; Concentration --------------------------------------------------------------

def test_casting_defensively_is_concentration_dc_15_plus_level_and_does_not_provoke():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [1, 3]},
                                 {"id": "o", "template": "orc", "team": "m", "at": [2, 3]}]))
    turn_of(enc, "w")
    enc.rng = Fixed(10)
    n = len(enc.events)
    assert enc.perform(Cast("magic-missile", target="o", defensive=True))
    (chk,) = of_type(enc, "check", n)
    assert (chk.skill, chk.dc, chk.cause) == ("concentration", 16, "cast_defensively")
    assert chk.total == 10 + 7 and chk.success  # Concentration +7 at 3rd level
    assert not of_type(enc, "attack", n)  # no attack of opportunity
    cast = of_type(enc, "spell", n)[0]
    assert not cast.lost and cast.defensive


def test_casting_provokes_and_a_wound_forces_concentration_dc_10_plus_damage_plus_level():
    seen_lost = seen_kept = False
    for seed in range(60):
        enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [1, 3]},
                                     {"id": "o", "template": "orc", "team": "m", "at": [2, 3]}], seed=seed))
        turn_of(enc, "w")
        n = len(enc.events)
        assert enc.perform(Cast("magic-missile", target="o"))
        aoo = [e for e in of_type(enc, "attack", n) if e.actor == "o"]
        assert len(aoo) == 1  # casting provokes
        hits = [e for e in of_type(enc, "damage", n) if e.target == "w"]
        checks = of_type(enc, "check", n)
        cast = of_type(enc, "spell", n)[-1]
        if not hits:
            assert not checks and not cast.lost
            continue
        if not enc.creatures["w"].in_fight:
            assert cast.lost
            continue
        (chk,) = checks
        assert chk.cause == "damaged_while_casting" and chk.dc == 10 + hits[0].amount + 1
        assert cast.lost == (not chk.success)
        seen_lost |= cast.lost
        seen_kept |= not cast.lost
    assert seen_lost and seen_kept


def test_casting_inside_a_swarm_is_concentration_dc_20_plus_level():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [1, 3]},
                                 {"id": "s", "template": "bat-swarm", "team": "m", "at": [1, 3]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [8, 3]}]))
    turn_of(enc, "w")
    enc.creatures["w"].clear_status("nauseated")
    enc.rng = Fixed(13)
    n = len(enc.events)
    assert enc.perform(Cast("magic-missile", target="g", defensive=True))
    swarm_chk = [e for e in of_type(enc, "check", n) if e.cause == "inside_swarm"]
    assert swarm_chk and swarm_chk[0].dc == 21 and swarm_chk[0].total == 20 and not swarm_chk[0].success
    assert of_type(enc, "spell", n)[-1].lost


def test_no_spells_while_nauseated_or_in_a_tight_squeeze():
    enc = ready(encounter(["....", ".t..", "...."], [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [0, 0]},
                                                     {"id": "g", "template": "goblin", "team": "m", "at": [3, 2]}]))
    w = turn_of(enc, "w")
    w.set_status("nauseated")
    r = enc.perform(Cast("magic-missile", target="g"))
    assert isinstance(r, Impossible) and r.reason == "W is nauseated: only a move action (§5.2)"
    w.clear_status("nauseated")
    w.pos, w.squares = (1, 1), [(1, 1)]  # a 1-ft crack, 1 ft high: a tight squeeze for a Medium elf
    r = enc.perform(Cast("magic-missile", target="g"))
    assert isinstance(r, Impossible) and r.reason == "no spellcasting in a tight squeeze"
    assert casting.has_spell(w, "magic-missile") == 1  # nothing spent


# ---- burning hands --------------------------------------------------------------------------------

def test_cone_starts_at_a_corner_of_the_casters_space():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [5, 3]},
                                 {"id": "o", "template": "ogre", "team": "m", "at": [10, 2]}]))
    w, ogre = enc.creatures["w"], enc.creatures["o"]
    assert spells.cone_origins(w, (1, 0)) == [(6, 3), (6, 4)]   # either end of the east edge
    assert spells.cone_origins(w, (-1, -1)) == [(5, 3)]         # the facing corner
    assert spells.cone_origins(w, (0, 1)) == [(5, 4), (6, 4)]
    assert ogre.k == 2 and spells.cone_origins(ogre, (-1, 0)) == [(10, 3)]  # the middle of a Large edge
    east = spells.cone_squares(enc, w, (1, 0), (6, 4))
    assert sorted(east) == [(6, 3), (6, 4), (7, 2), (7, 3), (7, 4), (7, 5), (8, 3), (8, 4)]  # the 15-ft template
    assert len(spells.cone_squares(enc, w, (1, 1))) == 6


def test_burning_hands_1d4_per_level_reflex_half_and_stops_at_rock():
    rows = ["........", "........", ".....#..", "........", "........"]
    enc = ready(encounter(rows, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [2, 2]},
                                 {"id": "a", "template": "goblin", "team": "m", "at": [3, 2]},
                                 {"id": "b", "template": "goblin", "team": "m", "at": [4, 1]},
                                 {"id": "hid", "template": "goblin", "team": "m", "at": [6, 2]}]))
    turn_of(enc, "w")
    r = enc.perform(Cast("burning-hands", direction=(1, 0), at=(2, 2)))
    assert isinstance(r, Impossible) and "starts at a corner of the caster's space facing it: (3, 2) or (3, 3)" in r.reason
    # Concentration 20 (cast defensively beside a goblin); a: 3d4 = 12, Reflex 1 fails; b: 3d4 =
    # 12, Reflex 20 saves: 6. Behind the rock: untouched.
    enc.rng = Fixed(20, 4, 4, 4, 1, 4, 4, 4, 20)
    n = len(enc.events)
    assert enc.perform(Cast("burning-hands", direction=(1, 0), at=(3, 2), defensive=True))
    cast = of_type(enc, "spell", n)[-1]
    assert set(cast.targets) == {"a", "b"} and (6, 2) not in cast.squares and (5, 2) not in cast.squares
    saves = {e.target: e for e in of_type(enc, "save", n)}
    assert saves["a"].dc == 13 and saves["a"].save == "reflex" and not saves["a"].success and saves["b"].success
    dmg = {e.target: e.parts for e in of_type(enc, "damage", n)}
    assert dmg == {"a": {"fire": 12}, "b": {"fire": 6}}


# ---- sleep ----------------------------------------------------------------------------------------

def test_sleep_takes_effect_next_turn_on_4_hd_fewest_first_nearest_the_centre():
    combatants = [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 3]},
                  {"id": "g2", "template": "goblin", "team": "m", "at": [10, 3]},
                  {"id": "g3", "template": "goblin", "team": "m", "at": [11, 3]},
                  {"id": "g4", "template": "goblin", "team": "m", "at": [10, 4]},
                  {"id": "bb", "template": "bugbear", "team": "m", "at": [11, 4]},
                  {"id": "g1", "template": "goblin", "team": "m", "at": [11, 2]},
                  {"id": "g5", "template": "goblin", "team": "m", "at": [9, 4]}]
    enc = ready(encounter(HALL, combatants))
    turn_of(enc, "w")
    n = len(enc.events)
    assert enc.perform(Cast("sleep", at=(11, 4)))
    cast = of_type(enc, "spell", n)[-1]
    assert len(cast.squares) == 12  # a 10-ft-radius burst
    assert not of_type(enc, "save", n)  # casting time 1 round: nothing yet
    enc.rng = Fixed(1)  # every Will save a natural 1
    turn_of(enc, "w")
    saves = [e.target for e in of_type(enc, "save", n) if e.cause == "sleep"]
    # 1-HD goblins first, nearest the centre (11, 4) first: g2, g3, g4 (0.71 squares), then g1 and
    # g5 (1.58 squares: by id); 4 HD in all: g5 and the 3-HD bugbear are left (too few HD remain)
    assert saves == ["g2", "g3", "g4", "g1"]
    asleep = {c.id for c in enc.creatures.values() if "asleep" in c.conditions}
    assert asleep == {"g1", "g2", "g3", "g4"}
    assert saves[0] and of_type(enc, "save", n)[0].dc == 13 and of_type(enc, "save", n)[0].save == "will"


def test_sleep_never_affects_five_hit_dice_or_mindless_swarms():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 3]},
                                 {"id": "t", "template": "troll", "team": "m", "at": [10, 3]},
                                 {"id": "s", "template": "centipede-swarm", "team": "m", "at": [12, 3]}]))
    turn_of(enc, "w")
    n = len(enc.events)
    assert enc.perform(Cast("sleep", at=(12, 4)))
    enc.rng = Fixed(1)
    turn_of(enc, "w")
    assert not [e for e in of_type(enc, "save", n) if e.cause == "sleep"]
    assert not any("asleep" in c.conditions for c in enc.creatures.values())


# ---- cure light wounds and bless ------------------------------------------------------------------

@pytest.mark.parametrize("template,bonus", [("human-cleric-1", 1), ("human-cleric-5", 5)])
def test_cure_light_wounds_heals_1d8_plus_level_max_5_by_touch_and_stops_bleeding(template, bonus):
    enc = ready(encounter(HALL, [{"id": "c", "template": template, "team": "p", "at": [1, 3]},
                                 {"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 3]},
                                 {"id": "far", "template": "human-fighter-3", "team": "p", "at": [4, 3]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [20, 3]}]))
    f = enc.creatures["f"]
    f.hp = 2
    f.bleed = 1
    turn_of(enc, "c")
    r = enc.perform(Cast("cure-light-wounds", target="far"))
    assert isinstance(r, Impossible) and r.reason == "Far is out of range (5 ft)"
    enc.rng = Fixed(5)
    assert enc.perform(Cast("cure-light-wounds", target="f"))
    assert f.hp == 2 + 5 + bonus and f.bleed == 0 and "wounded" not in f.conditions


def test_bless_gives_allies_in_50_ft_plus_1_to_hit_for_a_minute_per_level():
    enc = ready(encounter(["." * 14], [{"id": "c", "template": "human-cleric-1", "team": "p", "at": [0, 0]},
                                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [9, 0]},
                                       {"id": "far", "template": "human-fighter-3", "team": "p", "at": [11, 0]},
                                       {"id": "g", "template": "goblin", "team": "m", "at": [10, 0]}]))
    turn_of(enc, "c")
    n = len(enc.events)
    assert enc.perform(Cast("bless"))
    assert set(of_type(enc, "spell", n)[-1].targets) == {"c", "f"}  # 10 squares out: 50 ft; 11 is beyond
    f, g, far = enc.creatures["f"], enc.creatures["g"], enc.creatures["far"]
    assert find(f, "blessed").until == enc.round + 10 - 1 and find(far, "blessed") is None
    assert attacks.plan_attack(enc, f, f.wielded(), g).modifiers["bless"] == 1
    assert "bless" not in attacks.plan_attack(enc, far, far.wielded(), g).modifiers


def test_burning_hands_halved_is_at_least_1():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [2, 3]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [3, 3]}]))
    turn_of(enc, "w")
    enc.rng = Fixed(20, 1, 1, 1, 20)   # concentration 20 (cast defensively); 3d4 = 3; Reflex 20: half
    n = len(enc.events)
    assert enc.perform(Cast("burning-hands", direction=(1, 0), at=(3, 3), defensive=True))
    assert [e.amount for e in of_type(enc, "damage", n)] == [1]   # 3 // 2 = 1 (and never 0, §7.23)


def test_sleep_needs_its_point_in_range():
    rows = ["." * 30] * 3
    enc = ready(encounter(rows, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 1]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [29, 1]}]))
    turn_of(enc, "w")
    r = enc.perform(Cast("sleep", at=(24, 1)))      # 23 squares beyond the caster's edge: 115 ft
    assert not r and r.reason == "the point (24, 1) is out of range (110 ft)"
    assert enc.perform(Cast("sleep", at=(23, 1)))   # 110 ft


def test_sleep_lasts_a_minute_a_level_and_a_wound_wakes():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 3]},
                                 {"id": "g1", "template": "goblin", "team": "m", "at": [10, 3]},
                                 {"id": "g2", "template": "goblin", "team": "m", "at": [11, 3]}]))
    turn_of(enc, "w")
    assert enc.perform(Cast("sleep", at=(11, 4)))
    enc.rng = Fixed(1)
    turn_of(enc, "w")
    g1, g2 = enc.creatures["g1"], enc.creatures["g2"]
    assert "asleep" in g1.conditions and find(g1, "asleep").until == enc.round + 10   # 1 min at caster level 1
    damage.deal_damage(enc, g1, [damage.DamagePart(1, "slashing", "weapon")], source=None, cause="weapon")
    assert "asleep" not in g1.conditions                                  # the wound wakes it
    enc.round = find(g2, "asleep").until + 1
    turn_of(enc, "g2")
    assert "asleep" not in g2.conditions                                  # the minute is over


def test_damage_during_sleeps_casting_time_needs_concentration():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 3]},
                                 {"id": "g1", "template": "goblin", "team": "m", "at": [10, 3]}]))
    w = turn_of(enc, "w")
    assert enc.perform(Cast("sleep", at=(11, 4)))
    assert w.pending_spell is not None
    enc.rng = Fixed(3)  # Concentration d20 3 + 5 = 8 < DC 10 + 2 damage + 1
    n = len(enc.events)
    damage.deal_damage(enc, w, [damage.DamagePart(2, "piercing", "weapon")], source=None, cause="weapon")
    (chk,) = of_type(enc, "check", n)
    assert chk.dc == 13 and chk.cause == "damaged_while_casting" and not chk.success
    assert w.pending_spell is None and of_type(enc, "spell", n)[-1].lost


def test_a_burst_stops_at_rock():
    # sleep centred beside a wall: the goblin behind the wall (no line of effect) is not in it
    rows = ["..........", ".....#....", ".....#....", ".....#....", ".........."]
    enc = ready(encounter(rows, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 2]},
                                 {"id": "near", "template": "goblin", "team": "m", "at": [4, 2]},
                                 {"id": "behind", "template": "goblin", "team": "m", "at": [6, 2]}]))
    turn_of(enc, "w")
    n = len(enc.events)
    assert enc.perform(Cast("sleep", at=(5, 3)))
    squares = {tuple(q) for q in of_type(enc, "spell", n)[-1].squares}
    assert (4, 2) in squares and (6, 2) not in squares and (5, 2) not in squares


def test_every_wound_taken_while_casting_adds_to_the_concentration_dc():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-3", "team": "p", "at": [1, 3]},
                                 {"id": "o1", "template": "orc", "team": "m", "at": [2, 3]},
                                 {"id": "o2", "template": "orc", "team": "m", "at": [0, 3]},
                                 {"id": "far", "template": "ogre", "team": "m", "at": [20, 3]}]))
    w = turn_of(enc, "w")
    w.hp = w.max_hp = 100               # (it must survive both blows to make the check)
    enc.rng = Fixed(15, 2, 2, 15, 3, 3, 5)  # each orc hits: falchion 2d4 = 4, then 6; Concentration 5
    n = len(enc.events)
    assert enc.perform(Cast("magic-missile", target="far"))
    hurt = [e.amount for e in of_type(enc, "damage", n) if e.target == "w"]
    assert len(hurt) == 2
    (chk,) = of_type(enc, "check", n)
    assert chk.dc == 10 + sum(hurt) + 1 and of_type(enc, "spell", n)[-1].lost
