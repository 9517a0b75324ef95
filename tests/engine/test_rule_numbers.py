"""SRD numbers the engine used to type in code, now read from the data tables (issue 33 item 2):
blur's 20% (sim/data/effects.toml [effect.blurred] miss_chance), a DM's bless 10 rounds
(spells.toml [spell.bless]), the web's 20 ft of total cover (spells.toml [spell.web]), the roper's
10-ft drag (combat.toml [strand]), dazzled -1 and entangled -2 (combat.toml [attack], [ac]), an
ooze's 10 hit points below which it no longer splits (combat.toml [split]).
Each test changes the table and sees the rule change with it: the table, not a constant, decides.
"""

from __future__ import annotations

import dataclasses

import pytest

from sim.base.errors import DataError
from sim.engine import dm, effects, specials, split, zones
from sim.engine.casting import spell_data
from sim.engine.conditions import add
from sim.engine.effects import KINDS, check_table, find
from sim.engine.world import blur_miss
from sim.rules import _data

from .helpers import encounter, ready
from .test_roper import roper_and, stuck_earlier
from .test_spells import of_type, turn_of

ROOM = ["." * 8] * 3


def _pair():
    enc = ready(encounter(ROOM, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [2, 1]}]))
    return enc, enc.creatures["f"], enc.creatures["g"]


def test_blurs_miss_chance_is_the_effects_tables(monkeypatch):
    enc, f, g = _pair()
    assert KINDS["blurred"].miss_chance == 20
    assert blur_miss(f, g) == 0 and enc.miss_chance(f, g) == 0
    add(enc, g, "blurred", "g", enc.round + 10)
    assert blur_miss(f, g) == 20 and enc.miss_chance(f, g) == 20
    monkeypatch.setitem(effects.KINDS, "blurred", dataclasses.replace(KINDS["blurred"], miss_chance=35))
    assert blur_miss(f, g) == 35 and enc.miss_chance(f, g) == 35   # the table, not a constant


@pytest.mark.parametrize("value,message", [
    (0, "miss_chance: 0 is not a percent from 1 to 100"),
    (120, "miss_chance: 120 is not a percent from 1 to 100"),
    ("20", "miss_chance: '20' is not a int"),
])
def test_a_bad_miss_chance_names_the_file_and_the_key(value, message):
    table = _data.load("effects.toml")
    bad = {**table, "effect": {**table["effect"], "blurred": {**table["effect"]["blurred"], "miss_chance": value}}}
    with pytest.raises(DataError, match=rf"effects.toml: \[effect.blurred\] {message}"):
        check_table(bad)


def test_a_dms_bless_lasts_the_spells_rounds_per_level(monkeypatch):
    enc, _, g = _pair()
    assert dm.bless_rounds() == spell_data()["bless"]["duration_rounds_per_level"] == 10
    monkeypatch.setitem(spell_data()["bless"], "duration_rounds_per_level", 7)
    dm.set_condition(enc, "g", "blessed", True)
    assert find(g, "blessed").until == enc.round + 7


def test_the_webs_total_cover_is_the_spells_tables(monkeypatch):
    assert zones.web_total_cover_ft() == spell_data()["web"]["total_cover_ft"] == 20
    monkeypatch.setitem(spell_data()["web"], "total_cover_ft", 10)
    assert zones.web_total_cover_ft() == 10


def test_the_ropers_drag_is_the_combat_tables(monkeypatch):
    assert _data.load("combat.toml")["strand"]["drag_ft"] == 10
    monkeypatch.setitem(_data.load("combat.toml")["strand"], "drag_ft", 5)
    enc = roper_and(at=(9, 1))
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert enc.creatures["a"].pos == (8, 1)          # 5 ft, not 10 (test_roper: 30 ft -> 20 ft)
    (moved,) = [e for e in of_type(enc, "moved") if e.actor == "a"]
    assert [s["feet"] for s in moved.path] == [5]


def test_dazzled_and_entangled_are_the_combat_tables(monkeypatch):
    enc, f, _ = _pair()
    f.set_status("dazzled")
    effects.put(f, effects.make("entangled", "g", None, escape_dc=12, break_dc=16))
    assert specials.attack_modifiers(enc, f) == {"dazzled": -1, "entangled": -2}
    assert specials.ac_modifiers(enc, f) == {"entangled": -2}
    table = _data.load("combat.toml")
    monkeypatch.setitem(table["attack"], "dazzled", -3)
    monkeypatch.setitem(table["attack"], "entangled", -5)
    monkeypatch.setitem(table["ac"], "entangled", -6)
    assert specials.attack_modifiers(enc, f) == {"dazzled": -3, "entangled": -5}
    assert specials.ac_modifiers(enc, f) == {"entangled": -6}


def test_the_oozes_unsplit_hit_points_are_the_combat_tables(monkeypatch):
    enc = ready(encounter(ROOM, [{"id": "p", "template": "black-pudding", "team": "m", "at": [1, 0]},
                                 {"id": "f", "template": "human-fighter-3", "team": "p", "at": [4, 1]}]))
    pudding, sword = enc.creatures["p"], enc.creatures["f"].wielded()   # a longsword: slashing
    assert split.unsplit_hp() == 10
    pudding.hp = 11
    assert split.splits_with(pudding, sword)
    monkeypatch.setitem(_data.load("combat.toml")["split"], "unsplit_hp", 11)
    assert not split.splits_with(pudding, sword)                   # 11 hit points: no longer splits
