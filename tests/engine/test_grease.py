"""Grease (SRD Sor/Wiz 1; docs/rules.md §8.1): a 10-ft square for 1 round per level, Reflex or
prone when cast, a DC 10 Balance check to walk on it at half speed, swarms neither fall nor slow."""

from __future__ import annotations

from sim.engine import spells, zones
from sim.engine.actions import Cast, Impossible, Move

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 26] * 7
CORRIDOR = ["#" * 26, "." * 26, "#" * 26]


def _wizard(rows, at, *others):
    enc = ready(encounter(rows, [{"id": "w", "template": "elf-wizard-5", "team": "p", "at": at}, *others]))
    enc.creatures["w"].spells_left[1].append("grease")
    return enc


def test_grease_is_a_10_ft_square_rock_left_out():
    enc = _wizard(HALL, [0, 3])
    w = enc.creatures["w"]
    assert sorted(spells.area_of(enc, w, Cast("grease", at=(4, 2)))) == [(4, 2), (4, 3), (5, 2), (5, 3)]
    enc2 = _wizard(CORRIDOR, [0, 1])
    # the 2x2 from (4, 0): the two rock squares of the north wall are left out
    assert sorted(spells.area_of(enc2, enc2.creatures["w"], Cast("grease", at=(4, 0)))) == [(4, 1), (5, 1)]


def test_grease_close_range_35_ft_at_5th_level_and_refusals():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [25, 3]})
    w = turn_of(enc, "w")
    assert spells.range_ft(w, "close") == 35                     # 25 ft + 5 ft per two levels
    assert spells.area_of(enc, w, Cast("grease", at=(7, 3)))       # nearest square 7 squares away: 35 ft
    r = enc.perform(Cast("grease", at=(8, 3)))
    assert isinstance(r, Impossible) and r.reason == "the square (8, 3) is out of range (35 ft)"
    r = enc.perform(Cast("grease"))
    assert isinstance(r, Impossible) and r.reason == "grease needs a square (at): the north-west square of its 10-ft square"
    assert spells.has_spell(w, "grease") == 1                     # nothing spent


def test_grease_reflex_dc_14_or_prone_and_lasts_5_rounds():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [5, 3]},
                  {"id": "o", "template": "goblin", "team": "m", "at": [6, 3]})
    w = turn_of(enc, "w")
    assert w.block.spells.save_dc(1) == 14                        # 10 + 1st level + Int 16 (+3)
    enc.rng = Fixed(2)                                             # Reflex d20 2: fails
    n = len(enc.events)
    assert enc.perform(Cast("grease", at=(4, 3)))
    (cast,) = of_type(enc, "spell", n)
    assert cast.spell == "grease" and cast.targets == ("g",) and sorted(cast.squares) == [(4, 3), (4, 4), (5, 3), (5, 4)]
    (sv,) = of_type(enc, "save", n)
    assert (sv.target, sv.save, sv.dc, sv.cause, sv.success) == ("g", "reflex", 14, "grease", False)
    assert enc.creatures["g"].prone and not enc.creatures["o"].prone
    (z,) = enc.magic.zones
    assert z.last_round == enc.round + 4                            # 1 round a level: this round and 4 more
    enc.round = z.last_round + 1
    zones.expire(enc)
    assert enc.magic.zones == [] and of_type(enc, "zone_end", n)[0].squares == z.squares


def test_a_made_save_stays_up():
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [5, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(19)
    n = len(enc.events)
    assert enc.perform(Cast("grease", at=(4, 3)))
    assert [e.success for e in of_type(enc, "save", n)] == [True] and not enc.creatures["g"].prone


def _greased_goblin(roll):
    enc = _wizard(CORRIDOR, [0, 1], {"id": "g", "template": "goblin", "team": "m", "at": [12, 1]})
    enc.magic.zones = [zones.Zone(spell="grease", squares=((9, 1), (10, 1)), owner="w", last_round=99, dc=14)]
    turn_of(enc, "g")
    enc.rng = Fixed(roll)
    return enc, enc.creatures["g"]


def test_walking_onto_grease_balance_dc_10_half_speed():
    enc, g = _greased_goblin(15)          # Balance d20 15 + goblin's modifier: made
    mod = g.block.skill("balance")
    n = len(enc.events)
    assert enc.perform(Move(to=(5, 1)))
    (chk,) = of_type(enc, "check", n)
    assert (chk.skill, chk.dc, chk.modifier, chk.success, chk.cause) == ("balance", 10, mod, True, "grease")
    # speed 30 ft: (11,1) 5 ft, (10,1) and (9,1) greased 10 ft each, (8,1) 5 ft: 30 ft, no farther
    assert g.pos == (8, 1) and not g.prone


def test_a_failed_balance_check_stops_it_there_and_reflex_or_fall():
    enc, g = _greased_goblin(7)           # Balance 7 + mod: fails by less than 5; Reflex d20 7: fails
    mod = g.block.skill("balance")
    assert 5 < 7 + mod < 10               # failed by less than 5 (not outright prone)
    n = len(enc.events)
    enc.perform(Move(to=(5, 1)))
    assert g.pos == (10, 1) and g.prone
    assert [e.cause for e in of_type(enc, "save", n)] == ["grease"]
    assert zones.stuck(enc, g)


def test_failing_balance_by_5_falls_without_a_save():
    enc, g = _greased_goblin(1)
    mod = g.block.skill("balance")
    assert 1 + mod <= 5
    n = len(enc.events)
    enc.perform(Move(to=(5, 1)))
    assert g.pos == (10, 1) and g.prone and not of_type(enc, "save", n)


def test_a_swarm_neither_falls_nor_slows():
    enc = _wizard(HALL, [0, 3], {"id": "s", "template": "rat-swarm", "team": "m", "at": [5, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(1)
    n = len(enc.events)
    assert enc.perform(Cast("grease", at=(4, 3)))
    (cast,) = of_type(enc, "spell", n)
    assert not cast.lost and "s" in cast.targets and enc.magic.zones
    assert not enc.creatures["s"].prone and not [e for e in of_type(enc, "save", n) if e.cause == "grease"]


# ---- snapshots -------------------------------------------------------------------------------------

def test_a_greased_fight_goes_round_a_snapshot_and_plays_on_the_same(tmp_path):
    from sim.base.paths import maps_dir
    from sim.engine.events import dumps
    from sim.engine.saved import snapshot as S
    from sim.scenario.files import load_encounter
    enc_file = maps_dir() / "demo.toml"
    spec = load_encounter(enc_file)
    w = __import__("sim.engine.fight", fromlist=["new_encounter"]).new_encounter(spec, seed=3)
    w.start()
    c = next(iter(w.creatures.values()))
    x, y = c.pos
    w.magic.zones = [zones.Zone(spell="grease", squares=((x, y), (x + 1, y)), owner=c.id, last_round=3, dc=14)]
    back = S.load_text(S.dumps(w, encounter_file=enc_file), spec, policy=w.policy)
    assert back.magic.zones == w.magic.zones
    w.run()
    back.run()
    assert dumps(back.events) == dumps(w.events)


def test_a_schema_2_snapshot_reads_with_no_zones_and_a_bad_zone_is_refused(tmp_path, capsys):
    import json
    from pathlib import Path

    from sim.base.paths import maps_dir
    from sim.cli import main
    snap = tmp_path / "s.json"
    assert main(["fight", str(maps_dir() / "bat_gallery.toml"), "--seed", "1", "--save-at", "2", "--save", str(snap),
                 "--quiet"]) == 0
    data = json.loads(snap.read_text())
    old = json.loads((Path(__file__).resolve().parents[1] / "data" / "snapshots" / "schema2.json").read_text())
    assert old["cavesim_snapshot"] == 2 and "zones" not in old["state"]   # written by the cavesim of c69d860^
    old["encounter"] = str(maps_dir() / "ogre_tunnel.toml")
    (tmp_path / "old.json").write_text(json.dumps(old))
    capsys.readouterr()
    assert main(["fight", str(tmp_path / "old.json"), "--quiet"]) == 0
    cid = next(iter(data["state"]["creatures"]))
    data["state"]["magic"]["zones"] = [{"$record": "Zone", "$id": 9999, "fields": {
        "spell": "grease", "squares": {"$tuple": [{"$tuple": [999, 0]}]}, "owner": cid, "last_round": 5, "dc": 14}}]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["fight", str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert "state.magic.zones[0].squares: (999, 0) is not a square of the map" in err and "Traceback" not in err


# ---- the AI ----------------------------------------------------------------------------------------

def test_the_ai_greases_the_ogre_coming_for_it():
    enc = _wizard(HALL, [0, 3], {"id": "o", "template": "ogre", "team": "m", "at": [6, 3]})
    w = turn_of(enc, "w")
    for lvl in (2, 3):
        w.spells_left[lvl] = []          # no fireball, web or the like: the 1st-level slots only
    w.spells_left[1] = ["grease"]
    n = len(enc.events)
    enc.ai_turn()
    casts = of_type(enc, "spell", n)
    assert [c.spell for c in casts] == ["grease"]
    assert sorted(casts[0].squares) == [(6, 3), (6, 4), (7, 3), (7, 4)]       # the ogre's 2x2 space
    assert len(enc.magic.zones) == 1


def test_the_ai_does_not_grease_a_swarm_or_its_friends():
    from sim.engine.ai.spells import grease_brute
    enc = _wizard(HALL, [0, 3], {"id": "s", "template": "rat-swarm", "team": "m", "at": [10, 3]},
                  {"id": "f", "template": "human-fighter-1", "team": "p", "at": [7, 4]},
                  {"id": "b", "template": "human-barbarian-5", "team": "m", "at": [6, 3]})
    w = turn_of(enc, "w")
    assert grease_brute(enc, w, enc.enemies(w)) is None   # the fighter stands in the barbarian's 10-ft square
    enc.place(enc.creatures["f"], (9, 6))
    assert grease_brute(enc, w, enc.enemies(w)) == Cast("grease", at=(6, 3))   # the barbarian, never the swarm


def test_a_bad_spells_toml_key_is_named():
    import pytest

    from sim.base.errors import DataError
    from sim.engine import casting
    from sim.rules import _data
    table = _data.load("spells.toml")
    assert casting.check_spells(table)["grease"]["side_ft"] == 10
    bad = {**table, "spell": {**table["spell"], "grease": {**table["spell"]["grease"], "sidee_ft": 10}}}
    with pytest.raises(DataError, match=r"spells.toml: \[spell.grease\] sidee_ft: unknown key; the keys are "):
        casting.check_spells(bad)
    bad = {**table, "spell": {"grease": {"level": 1, "range": "near"}}}
    with pytest.raises(DataError, match=r"\[spell.grease\] range: 'near' is none of close, medium, long, touch, self"):
        casting.check_spells(bad)
    with pytest.raises(DataError, match=r"\[spell.grease\]: level is missing"):
        casting.check_spells({**table, "spell": {"grease": {"range": "close"}}})


def test_the_log_tells_the_grease_and_its_end():
    from sim.engine.events import ZoneEnded
    from sim.story.log import Narrator
    line = Narrator().line(ZoneEnded(round=6, spell="grease", owner="w", squares=((6, 3), (7, 3), (6, 4), (7, 4))))
    assert line == "  w's grease at (6, 3) is gone"


def test_the_view_model_keeps_the_grease_until_its_end():
    from sim.engine.events import SpellCast, ZoneEnded
    from sim.view.model import ViewModel
    m = ViewModel()
    sq = ((6, 3), (7, 3), (6, 4), (7, 4))
    m.apply(SpellCast(round=1, actor="w", spell="grease", targets=(), squares=sq))
    assert list(m.zones.values()) == [sq]
    m.apply(SpellCast(round=1, actor="w", spell="grease", targets=(), squares=sq, lost=True))
    assert len(m.zones) == 1
    m.apply(ZoneEnded(round=6, spell="grease", owner="w", squares=sq))
    assert m.zones == {}
