"""The saved game's declared schema (issue 33 item 3) and the readers of the old ones.

Today's files (schema 6) list the fight's sections (``sim.engine.saved.schema.STATE``): the
fight's fields, the generator, the creatures, each part its mechanics declare by name in the
registry's order, the events, the AI's notes. Files of schemas 2 to 5 still load, one reader
each (``sim.engine.saved.legacy``, ``snapshot.read_schema_5``), each tested with a file its own
cavesim wrote: tests/data/snapshots/schemaN.json is ``cavesim fight maps/ogre_tunnel.toml --seed
3 --save-at 2`` run by the cavesim of commit c69d860^ (schema 2), c69d860 (schema 3), 0b2f457^
(schema 4, the last before the layout moved the modules), 1da287d (``schema4_early``: the first
schema 4, before the fields the merged branches added to it) and d5aa479 (schema 5, the last that
stored a creature's conditions).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import typing
from pathlib import Path

import pytest

from sim.base.paths import maps_dir
from sim.engine.ai.decide import default_policy
from sim.engine.events import dumps
from sim.engine.fight import new_encounter
from sim.engine.encounter import Encounter
from sim.engine.parts import Casting, Floor, Grabs, Magic, Movement, Swallowed
from sim.engine.saved import schema as snapshot_schema
from sim.engine.saved import snapshot as S
from sim.engine.saved.legacy import LAYOUTS, READERS
from sim.engine.saved.state import FIGHT_FIELDS
from sim.scenario.files import load_encounter
from tests.engine.snapshot_files import old_file
from tests.test_fuzz import run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "snapshots"
OGRE = maps_dir() / "ogre_tunnel.toml"
OLD = {"schema2.json": 2, "schema3.json": 3, "schema4.json": 4, "schema4_early.json": 4, "schema5.json": 5}


@dataclasses.dataclass(frozen=True)
class Mark:
    """A made-up record type (what an ``Effect`` will be): one line in RECORD_TYPES saves it."""

    rounds: int
    source: str


def _straight(seed: int = 3, encounter: str = "ogre_tunnel") -> str:
    w = new_encounter(load_encounter(maps_dir() / f"{encounter}.toml"), seed=seed)
    w.run()
    return dumps(w.events)


def test_the_schema_lists_the_fights_sections_in_order():
    parts = Encounter.PARTS
    assert list(snapshot_schema.STATE) == [*FIGHT_FIELDS, "rng", "creatures", *(p.name for p in parts), "events",
                                           "memory"]
    assert [(p.name, p.record) for p in parts] == [("magic", Magic), ("swallowed", Swallowed), ("grabs", Grabs),
                                                   ("casting", Casting), ("floor", Floor), ("movement", Movement)]
    w = new_encounter(load_encounter(OGRE), seed=3)
    assert all(type(getattr(w, p.name)) is p.record for p in parts) and type(w).PARTS is parts
    assert typing.get_type_hints(type(w), include_extras=False).items() >= {(p.name, p.record) for p in parts}
    data = json.loads(S.dumps(w, encounter_file=OGRE))
    assert data["cavesim_snapshot"] == S.SCHEMA == 6 and list(data["state"]) == list(snapshot_schema.STATE)
    assert data["state"]["swallowed"] == {"inside": {}, "gizzard": {}} and data["state"]["casting"] == {"wounds": 0}
    assert set(data["state"]["rng"]) == {"bit_generator", "state", "has_uint32", "uinteger"}


@pytest.mark.parametrize("name", sorted(OLD))
def test_an_old_saved_game_loads_and_plays_on(tmp_path, name):
    """Each old file loads (its creatures as saved, the parts it lacked empty) and plays to the
    end through ``cavesim fight``; saved again it is a schema-6 file of the same fight."""
    path = DATA / name
    data = json.loads(path.read_text())
    assert data["cavesim_snapshot"] == OLD[name] and set(data["state"]) == LAYOUTS.get(OLD[name], set(snapshot_schema.STATE))
    w, enc_file = S.read_snapshot(path, policy=default_policy, load_spec=load_encounter)
    assert enc_file.resolve() == OGRE.resolve() and w.round == 2
    assert {cid: c.hp for cid, c in w.creatures.items()} == {
        cid: rec["fields"]["hp"] for cid, rec in data["state"]["creatures"].items()}
    assert w.magic.zones == [] and w.swallowed.inside == {} and w.grabs.pending == []
    assert len(w.events) == len(data["state"]["events"])
    again = S.load_text(S.dumps(w, encounter_file=OGRE), load_encounter(OGRE), policy=default_policy)
    w.run()
    again.run()
    assert dumps(again.events) == dumps(w.events)
    code, err, exc = run_cli(["fight", str(path), "--quiet"])
    assert (code, exc) == (0, None), err


@pytest.mark.parametrize("name, encounter, seed", [
    ("../engine/data/schema5_ooze_cellar.json", "ooze_cellar", 1),
    ("../engine/data/schema5_drow_patrol.json", "drow_patrol", 3),
    ("../engine/data/schema5_otyugh_midden.json", "otyugh_midden", 0)])
def test_a_schema_5_file_plays_on_as_the_fight_never_saved(name, encounter, seed):
    """The schema-5 files of d5aa479 (their creatures' conditions stored: grappled, engulfed,
    paralyzed, stuck, entangled, blinded, invisible, enlarged, blessed...) load with those
    conditions shown again, from statuses and effects, and play on to the straight fight's events."""
    path = DATA.parent / name
    stored = {cid: set(rec["fields"]["conditions"]["$set"])
              for cid, rec in json.loads(path.read_text())["state"]["creatures"].items()}
    w, _ = S.read_snapshot(path, policy=default_policy, load_spec=load_encounter)
    assert {cid: set(c.conditions) for cid, c in w.creatures.items()} == stored
    assert any(c.statuses for c in w.creatures.values()) and any(c.effects for c in w.creatures.values())
    w.run()
    assert dumps(w.events) == _straight(seed, encounter)


def test_a_schema_4_file_plays_on_as_the_fight_never_saved():
    """The schema-4 file of 0b2f457^ was saved in round 2 of the same fight today's engine plays:
    loaded and played on, its events are the straight fight's."""
    w, _ = S.read_snapshot(DATA / "schema4.json", policy=default_policy, load_spec=load_encounter)
    w.run()
    assert dumps(w.events) == _straight()


@pytest.mark.parametrize("schema", [2, 3, 4])
def test_the_old_layout_of_the_tests_is_the_old_cavesims(schema):
    """tests/engine/snapshot_files.old_file writes what the old cavesims wrote: the real schema-4
    file, loaded, saved today and turned back into schema ``schema``, loads to the same fight, and
    has the keys and type names of the real file of that schema."""
    spec = load_encounter(OGRE)
    w, _ = S.read_snapshot(DATA / "schema4.json", policy=default_policy, load_spec=load_encounter)
    data = old_file(json.loads(S.dumps(w, encounter_file=OGRE)), schema)
    real = json.loads((DATA / f"schema{schema}.json").read_text())
    assert set(data["state"]) == set(real["state"]) == LAYOUTS[schema]
    assert data["state"]["creatures"]["ogre"]["$record"] == real["state"]["creatures"]["ogre"]["$record"]
    back = S.load_text(json.dumps(data), spec, policy=default_policy)
    w.run()
    back.run()
    assert dumps(back.events) == dumps(w.events) == _straight()


def test_one_reader_per_old_schema():
    assert sorted(READERS) == [2, 3, 4] and sorted(S.SCHEMAS) == [2, 3, 4, 5, 6]
    assert LAYOUTS[3] - LAYOUTS[2] == {"zones"} and LAYOUTS[4] - LAYOUTS[3] == {"inside", "gizzard"}


@pytest.mark.parametrize("schema, change, key, what", [
    (6, lambda s: s.update(wings=1), "state.wings", "not part of a fight in this cavesim"),
    (6, lambda s: s.pop("magic"), "state.magic", "missing"),
    (6, lambda s: s.update(zones=[]), "state.zones", "not part of a fight in this cavesim"),
    (6, lambda s: s["movement"].update(steps=[]), "state.movement", "is not the fields of the world's movement"),
    (6, lambda s: s.update(memory=[1]), "state.memory", "should be a record"),
    (6, lambda s: s.update(memory={"$record": "Turn", "fields": {}}), "state.memory", "does not fit Turn"),
    (6, lambda s: s.update(rng={"$rng": s["rng"]}), "state.rng", "generator"),
    (5, lambda s: s.pop("grabs"), "state.grabs", "missing"),
    (5, lambda s: s["creatures"]["ogre"]["fields"].update(conditions={"$set": ["petrified"]}),
     "state.creatures.ogre.fields.conditions", "'petrified' is not a condition of this cavesim"),
    (5, lambda s: s["creatures"]["ogre"]["fields"].update(conditions=[3]),
     "state.creatures.ogre.fields.conditions", "is not a set of condition names"),
    (4, lambda s: s.pop("inside"), "state.inside", "missing"),
    (4, lambda s: s.update(magic={}), "state.magic", "not part of a fight in this cavesim"),
    (4, lambda s: s.update(rng=5), "state.rng", "a int where a fight has a Generator"),
    (4, lambda s: s.update(zones={}), "state.zones", "should be a list"),
    (3, lambda s: s.update(inside={}), "state.inside", "not part of a fight in this cavesim"),
    (2, lambda s: s.update(zones=[]), "state.zones", "not part of a fight in this cavesim"),
])
def test_sections_outside_the_schema_are_refused(tmp_path, schema, change, key, what):
    """A section its schema does not declare, or one it declares missing, or of the wrong kind:
    exit 2 through ``cavesim fight`` and ``cavesim play --load``, one line, nothing written."""
    if schema == 6:
        code, err, exc = run_cli(["fight", str(OGRE), "--seed", "3", "--save-at", "2", "--save",
                                  str(tmp_path / "s.json"), "--quiet"])
        assert (code, exc) == (0, None), err
        data = json.loads((tmp_path / "s.json").read_text())
        (tmp_path / "s.json").unlink()
    else:
        data = json.loads((DATA / f"schema{schema}.json").read_text())
    data = copy.deepcopy(data)
    data["encounter"] = str(OGRE)
    change(data["state"])
    snap = tmp_path / "bad.json"
    snap.write_text(json.dumps(data))
    before = sorted(p.name for p in tmp_path.iterdir())
    for argv in (["fight", str(snap)], ["play", "--load", str(snap)]):
        code, err, exc = run_cli(argv)
        assert (code, exc) == (2, None), err
        assert len(err.strip().splitlines()) == 1 and f"{snap}: {key}" in err and what in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_new_record_type_is_one_line_in_the_schema(monkeypatch):
    """A record the schema does not list is refused when written; one line in RECORD_TYPES and it
    goes round (the docstring of sim.engine.saved.schema says so)."""
    spec = load_encounter(OGRE)
    w = new_encounter(spec, seed=3)
    w.start()
    w.memory.ai_note["ogre"] = {"mark": Mark(3, "ogre")}
    with pytest.raises(S.SnapshotTypeError, match=r"memory\.ai_note\.ogre\.mark: a .*Mark cannot be saved"):
        S.dumps(w, encounter_file=OGRE)
    monkeypatch.setitem(snapshot_schema.RECORD_TYPES, "Mark", Mark)
    back = S.load_text(S.dumps(w, encounter_file=OGRE), spec, policy=default_policy)
    assert back.memory.ai_note["ogre"]["mark"] == Mark(3, "ogre")
    assert "``\"Effect\": Effect,``" in snapshot_schema.__doc__


def test_a_move_under_way_and_its_provoked_enemies_go_round():
    """The movement part holds the mover itself (saved by id) and the enemies it has provoked."""
    spec = load_encounter(OGRE)
    w = new_encounter(spec, seed=3)
    w.start()
    c = next(iter(w.creatures.values()))
    w.movement.pending = (c, [c.pos], "move")
    w.movement.provoked = ((w.round, c.id), {"x"})
    back = S.load_text(S.dumps(w, encounter_file=OGRE), spec, policy=default_policy)
    assert back.movement.pending[0] is back.creatures[c.id] and back.movement.pending[1:] == ([c.pos], "move")
    assert back.movement.provoked == w.movement.provoked
