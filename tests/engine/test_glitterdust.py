"""Glitterdust (SRD Sor/Wiz 2; docs/rules.md §8.2): a 10-ft-radius spread in medium range, Will or
blinded 1 round per level with a new save at the end of each turn; swarms blinded like anyone."""

from __future__ import annotations

from sim.engine.effects import Effect, changed, find, put
from sim.engine import spells
from sim.engine.actions import Cast, Impossible
from sim.engine.ai.spells import glitter_group

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 26] * 7
CORRIDOR = ["#" * 26, "." * 26, "#" * 26]


def _wizard(rows, at, *others):
    return ready(encounter(rows, [{"id": "w", "template": "elf-wizard-5", "team": "p", "at": at}, *others]))


def test_glitterdust_spread_is_10_ft_and_stops_at_rock():
    enc = _wizard(CORRIDOR, [0, 1])
    # 10 ft counted 5-10-5 from the intersection (10, 1): squares x = 8..11 of the corridor
    assert sorted(spells.area_of(enc, enc.creatures["w"], Cast("glitterdust", at=(10, 1)))) == [(x, 1) for x in range(8, 12)]
    enc2 = _wizard(HALL, [0, 3])
    area = spells.area_of(enc2, enc2.creatures["w"], Cast("glitterdust", at=(10, 3)))
    assert len(area) == 12 and (10, 3) in area and (8, 3) in area and (7, 3) not in area


def test_glitterdust_will_dc_15_blinds_for_5_rounds_and_a_made_save_ends_it():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [10, 3]},
                  {"id": "h", "template": "goblin", "team": "m", "at": [20, 3]})
    w = turn_of(enc, "w")
    assert w.block.spells.save_dc(2) == 15                       # 10 + 2nd level + Int 16 (+3)
    enc.rng = Fixed(2)
    n = len(enc.events)
    assert enc.perform(Cast("glitterdust", at=(10, 3)))
    (cast,) = of_type(enc, "spell", n)
    assert cast.targets == ("g",)
    (sv,) = of_type(enc, "save", n)
    assert (sv.target, sv.save, sv.dc, sv.cause, sv.success) == ("g", "will", 15, "glitterdust", False)
    g = enc.creatures["g"]
    assert "blinded" in g.conditions and find(g, "glitterdust") == Effect("glitterdust", "w", enc.round + 4, (("dc", 15),))
    assert enc.miss_chance(g, w) == 50 and enc.blinded(g)          # every foe totally concealed to it
    # at the end of its turn: a new Will save; a 2 fails, a 20 ends it
    turn_of(enc, "g")
    enc.rng = Fixed(2)
    enc.end_turn()
    assert "blinded" in g.conditions
    turn_of(enc, "g")
    enc.rng = Fixed(20)
    enc.end_turn()
    assert "blinded" not in g.conditions and find(g, "glitterdust") is None


def test_glitterdust_wears_off_after_its_last_round():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [10, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(2)
    assert enc.perform(Cast("glitterdust", at=(10, 3)))
    g = enc.creatures["g"]
    put(g, changed(find(g, "glitterdust"), until=enc.round))          # its last round is this one
    turn_of(enc, "g")
    enc.rng = Fixed(1)                              # the save would fail: it ends all the same
    n = len(enc.events)
    enc.end_turn()
    assert "blinded" not in g.conditions and not of_type(enc, "save", n)


def test_a_swarm_is_blinded_too_and_there_is_no_damage_to_multiply():
    enc = _wizard(HALL, [0, 3], {"id": "s", "template": "bat-swarm", "team": "m", "at": [10, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(2)
    n = len(enc.events)
    assert enc.perform(Cast("glitterdust", at=(10, 3)))
    assert "blinded" in enc.creatures["s"].conditions and not of_type(enc, "damage", n)


def test_glitterdust_range_and_line_of_effect():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [25, 3]})
    w = turn_of(enc, "w")
    assert spells.range_ft(w, "medium") == 150
    r = enc.perform(Cast("glitterdust"))
    assert isinstance(r, Impossible) and r.reason == "glitterdust needs a point (a grid intersection)"


def test_the_ai_glitterdusts_two_foes_not_its_friends():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [10, 3]},
                  {"id": "h", "template": "goblin", "team": "m", "at": [11, 4]},
                  {"id": "f", "template": "human-fighter-1", "team": "p", "at": [1, 0]})
    w = turn_of(enc, "w")
    cast = glitter_group(enc, w, enc.enemies(w))
    area = set(spells.area_of(enc, w, cast))
    assert cast.spell == "glitterdust" and {(10, 3), (11, 4)} <= area
    enc.place(enc.creatures["f"], (12, 5))                          # the fighter next to them: no glitterdust
    cast = glitter_group(enc, w, enc.enemies(w))
    assert cast is None or not ({(12, 5)} & set(spells.area_of(enc, w, cast)))
