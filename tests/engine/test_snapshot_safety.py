"""A saved game is data (issue 34 items 6 and 13).

Item 6: the decoder built any class reachable by attribute from a loaded ``sim`` module, so a
crafted snapshot could create or zero files (``numpy.memmap``, ``io.FileIO``) and run a shared
library's code (``ctypes.CDLL``). It now builds only the records the schema declares
(``RECORD_TYPES``, ``NAMED_TYPES``, ``ENUM_TYPES`` in ``sim.engine.saved.schema``; for the
files of schemas 2-4, ``OLD_NAMES`` in ``sim.engine.saved.legacy``); each payload of the issue
is refused with exit 2, one line naming the file and the key, and nothing is written, truncated
or run, in a file of today's schema and in one of schema 4 (tests/data/snapshots). The tables are
proven whole: every type the shipped fights write is in them.

Item 13: a snapshot must hold a state the fight can be in (hit points by the dead/dying model,
the engine's conditions, a body's footprint, the round cap, a seed's range, a finished fight
that says why), with every number and count bounded before any work.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import os
import re
import shutil
import subprocess
import sys
import time
import typing
from pathlib import Path

import pytest

from sim.base.errors import DataError
from sim.base.fileio import read_toml
from sim.base.paths import maps_dir
from sim.engine import effects as effects_mod
from sim.engine.ai.decide import default_policy
from sim.engine.encounter import Encounter
from sim.engine.fight import new_encounter
from sim.engine.saved import codec as snapshot_codec
from sim.engine.saved import legacy as snapshot_legacy
from sim.engine.saved import schema as snapshot_schema
from sim.engine.saved import snapshot as S
from sim.engine.saved import state as snapshot_state
from sim.scenario.files import MAX_ROUND_CAP, MAX_SEED, load_encounter
from tests.test_fuzz import run_cli

MAPS = maps_dir()
ROOT = Path(__file__).resolve().parents[2]
OGRE = MAPS / "ogre_tunnel.toml"
ENCOUNTERS = sorted(f.name for f in MAPS.glob("*.toml") if "encounter" in read_toml(f)[0])


# -- a real saved game, mutated -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def save(tmp_path_factory) -> dict:
    """A real saved game, as JSON: maps/ogre_tunnel.toml (the issue's ogre, a Large body on its
    2 x 2 squares, and three dwarves and a halfling) saved in round 2 by ``cavesim fight --save-at 2``."""
    folder = tmp_path_factory.mktemp("save")
    code, err, exc = run_cli(["fight", str(OGRE), "--seed", "3", "--save-at", "2", "--save",
                              str(folder / "s.json"), "--quiet"])
    assert (code, exc) == (0, None), err
    data = json.loads((folder / "s.json").read_text())
    data["encounter"] = str(OGRE)   # absolute: the mutants are written to other folders
    return data


@pytest.fixture(scope="module")
def save4() -> dict:
    """A saved game of schema 4, written by the cavesim of commit 0b2f457^ (maps/ogre_tunnel.toml,
    seed 3, saved in round 2: tests/data/snapshots/schema4.json), as JSON."""
    data = json.loads((ROOT / "tests" / "data" / "snapshots" / "schema4.json").read_text())
    data["encounter"] = str(OGRE)
    return data


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def refused(folder: Path, data: dict | str, key: str, *parts: str, name: str = "S.json") -> str:
    """Write ``data`` to ``folder/name`` and check that ``cavesim fight`` and ``cavesim play --load``
    (and their shared reader, ``read_snapshot``) refuse it: exit 2, one line naming the file and
    ``key`` (and each of ``parts``), no traceback, within the time bound, and nothing in ``folder``
    created, changed or removed (the commands run with ``folder`` as the current folder)."""
    snap = folder / name
    snap.write_text(data if isinstance(data, str) else json.dumps(data))
    before = _files(folder)
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for argv in (["fight", str(snap)], ["play", "--load", str(snap)]):
            t0 = time.monotonic()
            code, err, exc = run_cli(argv)
            assert exc is None, f"{argv[0]}: {exc}"
            assert code == 2, f"{argv[0]}: exit {code}: {err}"
            assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
            assert f"{snap}: {key}" in err or (key == "" and f"{snap}: " in err), err
            for p in parts:
                assert p in err, err
            assert len(err) < 600, err   # a huge value is never echoed in full
            assert time.monotonic() - t0 < 20, f"{argv[0]} took {time.monotonic() - t0:.1f} s"
        with pytest.raises(DataError) as info:
            S.read_snapshot(snap, policy=default_policy, load_spec=load_encounter)
        assert f": {key}" in str(info.value)
    finally:
        os.chdir(cwd)
    assert _files(folder) == before, "a refused snapshot changed the files beside it"
    return err


def _pwn(data: dict, payload: dict) -> str:
    """Put ``payload`` where a saved game holds free-form values: in the AI's notes (schema 5: the
    ``ai_note`` table of the :class:`~sim.engine.notes.AINotes` record; older: the memory table).
    Returns the key a refusal must name."""
    if data["cavesim_snapshot"] >= 5:
        data["state"]["memory"]["fields"]["ai_note"] = {"pwn": payload}
        return "state.memory.ai_note.pwn"
    data["state"]["memory"] = {"pwn": payload}
    return "state.memory.pwn"


def _creature(data: dict, which: str | None = None) -> tuple[str, dict]:
    creatures = data["state"]["creatures"]
    cid = which or next(iter(creatures))
    return cid, creatures[cid]["fields"]


def _ogre(data: dict) -> tuple[str, dict]:
    """The ogre (the issue: 'the ogre acts at -1000 hp')."""
    cid = next(c for c, r in data["state"]["creatures"].items() if r["fields"]["template"] == "ogre")
    return _creature(data, cid)


# -- item 6: nothing but the engine's records is built -------------------------------------------------------------

MEMMAP = {"$named": "sim.engine.saved.snapshot:np.memmap", "items": ["PWNED", "uint8", "w+", 0, 4096]}


@pytest.mark.parametrize("payload, where", [
    (MEMMAP, "state.memory.pwn"),
    ({"$named": "sim.engine.saved.snapshot:np.memmap", "items": ["victim.bin", "uint8", "w+", 0, 16]}, "state.memory.pwn"),
    ({"$named": "sim.engine.saved.snapshot:np.memmap", "items": ["HUGE", "uint8", "w+", 0, [10 ** 12]]},
     "state.memory.pwn"),
    ({"$named": "sim.engine.saved.snapshot:io.FileIO", "items": ["victim.bin", "w"]}, "state.memory.pwn"),
    ({"$named": "sim.base.fileio:io.FileIO", "items": ["PWNED", "w"]}, "state.memory.pwn"),
    ({"$named": "sim.base.fileio:os.fdopen", "items": [1, "w"]}, "state.memory.pwn"),
    ({"$named": "_io:FileIO", "items": ["victim.bin", "w"]}, "state.memory.pwn"),
    ({"$record": "sim.engine.saved.snapshot:np.memmap", "fields": {"filename": "PWNED", "mode": "w+", "shape": 8}},
     "state.memory.pwn"),
    ({"$record": "subprocess:Popen", "fields": {"args": ["touch", "PWNED"]}}, "state.memory.pwn"),
    ({"$record": "sim.engine.saved.snapshot:Path", "fields": {}}, "state.memory.pwn"),
    ({"$enum": "builtins:open", "name": "PWNED"}, "state.memory.pwn"),
    ({"$enum": "sim.engine.saved.snapshot:enum.Enum", "name": "PWNED"}, "state.memory.pwn"),
    ({"$enum": "sim.rules.categories:Category", "name": "WALL"}, "state.memory.pwn"),  # ours, but never saved
    ({"$named": "sim.engine.saved.snapshot:Path", "items": ["PWNED"]}, "state.memory.pwn"),
    ({"$named": "sim.base.coords:Pos", "items": [1, 2, 3]}, "state.memory.pwn"),
    ({"$named": "Pos", "items": [1, 2, 3]}, "state.memory.pwn"),
    ({"$record": "os:system", "fields": {"command": "touch PWNED"}}, "state.memory.pwn"),
    ({"$named": "os:system", "items": ["touch PWNED"]}, "state.memory.pwn"),
    ({"$record": "builtins:eval", "fields": {"source": "open('PWNED', 'w')"}}, "state.memory.pwn"),
    ({"$named": "builtins:eval", "items": ["open('PWNED', 'w')"]}, "state.memory.pwn"),
    ({"$named": "subprocess:Popen", "items": [["touch", "PWNED"]]}, "state.memory.pwn"),
    ({"$record": "numpy:memmap", "fields": {"filename": "PWNED", "mode": "w+", "shape": 8}}, "state.memory.pwn"),
    ({"$record": "io:FileIO", "fields": {"file": "victim.bin", "mode": "w"}}, "state.memory.pwn"),
])
@pytest.mark.parametrize("schema", [snapshot_schema.SCHEMA, 4])
def test_payloads_are_refused_and_write_nothing(tmp_path, save, save4, payload, where, schema):
    """The issue's payloads in ``state.memory``, in a file of today's schema and in one of schema
    4: refused, and no file created or changed (a pre-existing ``victim.bin`` keeps its bytes; no
    ``PWNED``, no ``HUGE``)."""
    (tmp_path / "victim.bin").write_bytes(b"precious data\n")
    data = copy.deepcopy(save if schema == snapshot_schema.SCHEMA else save4)
    assert data["cavesim_snapshot"] == schema
    refused(tmp_path, data, _pwn(data, payload))
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "HUGE").exists()
    assert (tmp_path / "victim.bin").read_bytes() == b"precious data\n"


def test_a_payload_in_a_creature_or_a_record_is_refused(tmp_path, save):
    data = copy.deepcopy(save)
    cid, f = _creature(data)
    f["pos"] = MEMMAP
    refused(tmp_path, data, f"state.creatures.{cid}.pos", "np.memmap", "not a named tuple a snapshot may hold")
    data = copy.deepcopy(save)
    data["state"]["creatures"][cid]["$record"] = "sim.engine.saved.snapshot:np.memmap"
    refused(tmp_path, data, f"state.creatures.{cid}", "not a record type a snapshot may hold")
    assert not (tmp_path / "PWNED").exists()


EVIL_C = r"""
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void pwn(void) {
    const char *at = getenv("CAVESIM_MARKER");
    FILE *f = fopen(at ? at : "MARKER", "w");
    if (f) { fputs("the library ran\n", f); fclose(f); }
}
"""


def test_a_shared_library_beside_the_save_is_never_loaded(tmp_path, save):
    """``{"$named": "sim.terrain.movement.kernel:types.ctypes.CDLL", "items": ["./evil.so"]}``: the library
    (built here with the C compiler) writes a marker file when loaded; the marker never appears.
    The same library loaded by ctypes in another process does write it (the test bites)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler (cc) to build the shared library the payload loads")
    (tmp_path / "evil.c").write_text(EVIL_C)
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(tmp_path / "evil.so"), str(tmp_path / "evil.c")],
                   check=True, capture_output=True, timeout=60)
    for qual in ("sim.terrain.movement.kernel:types.ctypes.CDLL", "sim.engine.saved.snapshot:np.ctypeslib.ctypes.CDLL",
                 "ctypes:CDLL", "ctypes:cdll.LoadLibrary"):
        data = copy.deepcopy(save)
        refused(tmp_path, data, _pwn(data, {"$named": qual, "items": ["./evil.so"]}))
        data = copy.deepcopy(save)
        cid, f = _creature(data)
        f["pending_spell"] = {"$record": qual, "fields": {"name": "./evil.so"}}
        refused(tmp_path, data, f"state.creatures.{cid}.pending_spell")
        assert not (tmp_path / "MARKER").exists(), f"{qual}: the library's code ran"
    proof = tmp_path / "proof" / "ran.txt"
    proof.parent.mkdir()
    subprocess.run([sys.executable, "-c", f"import ctypes; ctypes.CDLL({str(tmp_path / 'evil.so')!r})"],
                   env={**os.environ, "CAVESIM_MARKER": str(proof)}, check=True, timeout=60)
    assert proof.read_text() == "the library ran\n"


def test_no_type_is_looked_up_through_a_module():
    """The decoder has no way to a class but the tables: no getattr walk, no sys.modules, no import.
    Today's schema names each record by its class's name; the old schemas' table holds the
    module paths those files wrote (today's, and the ones before the layout of commit 0b2f457)."""
    modules = sorted((ROOT / "sim" / "engine" / "saved").glob("*.py"))
    assert len(modules) == 8   # the package and its seven modules (sim/engine/saved/__init__.py)
    for path in modules:
        src = path.read_text()
        assert "sys.modules" not in src and "importlib" not in src and "__import__" not in src, path.name
    new = snapshot_schema.NAMES
    old = snapshot_legacy.OLD_NAMES
    for table in (new.records, new.named, new.enums):
        for name, cls in table.items():
            assert isinstance(cls, type) and name == cls.__qualname__, name
    for table in (old.records, old.named, old.enums):
        for name, cls in table.items():
            module, qual = name.split(":")
            assert isinstance(cls, type) and qual == cls.__qualname__ and module.startswith("sim."), name
    for names in (new, old):
        assert all(dataclasses.is_dataclass(c) for c in names.records.values())
        assert all(issubclass(c, tuple) and hasattr(c, "_fields") for c in names.named.values())
        assert all(issubclass(c, enum.Enum) for c in names.enums.values())
    assert set(new.records.values()) <= set(old.records.values())


# -- the tables are whole: what is written can be read ------------------------------------------------------------

def _written_names(v, out: set) -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("$named", "$enum", "$record", "$array", "$np"):
                out.add((k, x))
            _written_names(x, out)
    elif isinstance(v, list):
        for x in v:
            _written_names(x, out)


def test_every_type_the_shipped_fights_write_is_in_the_tables():
    """Every shipped encounter, saved at every 10th step of a whole fight (seed 0) and at its end:
    every type name written is in the table of its tag, every dtype in DTYPES, and every condition
    a creature holds is one of ``CONDITIONS``. A new record type in the fight's state fails here
    (and in the encoder, SnapshotTypeError) instead of breaking saved games."""
    names: set = set()
    conditions: set = set()
    for name in ENCOUNTERS:
        spec = load_encounter(MAPS / name)
        w = new_encounter(spec, seed=0)
        w.start()
        step = 0
        while True:
            for c in w.creatures.values():
                conditions |= c.conditions
            if step % 10 == 0:
                _written_names(S.snapshot(w, encounter_file=MAPS / name), names)
            step += 1
            if not w.advance():
                break
        _written_names(S.snapshot(w, encounter_file=MAPS / name), names)
    new = snapshot_schema.NAMES
    tables = {"$record": new.records, "$named": new.named, "$enum": new.enums}
    missing = sorted((tag, n) for tag, n in names if tag in tables and n not in tables[tag])
    assert not missing, f"types written but not in sim.engine.saved.schema's tables: {missing}"
    assert {n for tag, n in names if tag in ("$array", "$np")} <= snapshot_codec.DTYPES
    assert {n for tag, n in names if tag == "$record"} >= {"Creature", "StatBlock"}
    assert conditions <= effects_mod.CONDITIONS, sorted(conditions - effects_mod.CONDITIONS)
    assert {"dead", "dying"} <= conditions


def test_every_record_type_a_creature_or_the_world_can_hold_is_in_the_tables():
    """The record types reachable from the declared field types of a creature, the turn and the
    world's parts (dataclass fields, recursively): all in the schema's tables (the parts are
    its sections)."""
    new = snapshot_schema.NAMES
    parts = {p.record for p in Encounter.PARTS}
    allowed = set(new.records.values()) | set(new.named.values()) | set(new.enums.values()) | parts
    todo = [new.records["Creature"], new.records["Turn"], *parts]
    seen: set = set()

    def types_in(hint) -> list:
        out = [hint] if isinstance(hint, type) else []
        for a in typing.get_args(hint):
            out += types_in(a)
        return out

    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if not dataclasses.is_dataclass(cls):
            continue
        ns = vars(sys.modules[cls.__module__])
        for f in dataclasses.fields(cls):
            hint = f.type
            if isinstance(hint, str):   # a field named like a builtin (Abilities.int): evaluate alone
                hint = eval(hint, {**ns, "int": int, "str": str})  # noqa: S307 - our own annotations
            todo += [t for t in types_in(hint) if t.__module__.startswith("sim")]
    assert seen - {object} <= allowed, sorted(t.__qualname__ for t in seen - allowed)


def test_every_condition_the_engine_sets_is_known():
    """Every status the engine's code sets or clears (``set_status(w, c, "x")``,
    ``c.set_status("x")``) is a declared status (``STATUSES``; an unknown one is a ValueError when
    it runs, this finds it before), and every effect it starts (``add(w, c, "kind")``) is a
    declared kind; with the conditions those kinds show they are ``CONDITIONS``."""
    found: set = set()
    for path in (ROOT / "sim").rglob("*.py"):
        if "render" in path.parts:
            continue
        text = path.read_text()
        statuses = set(re.findall(r"(?:set|clear)_status\([^,()]+,\s*[^,()]+,\s*\"([a-z_]+)\"", text))
        statuses |= set(re.findall(r"\.(?:set|clear)_status\(\"([a-z_]+)\"\)", text))
        assert statuses <= effects_mod.STATUSES, f"{path}: not statuses {sorted(statuses - effects_mod.STATUSES)}"
        kinds = set(re.findall(r"\badd\(w, [^,()]+,\s*\"([a-z_]+)\"", text))
        assert kinds <= set(effects_mod.KINDS), f"{path}: effects of no declared kind {sorted(kinds - set(effects_mod.KINDS))}"
        found |= statuses | {effects_mod.KINDS[k].condition for k in kinds}
    found |= {"swallowed", "engulfed"}   # swallow whole's two, set by name (sim.engine.swallow.how_inside)
    assert found >= {"dead", "dying", "paralyzed", "nauseated", "grappled", "stuck", "concentrating", "pinned"}
    assert found <= effects_mod.CONDITIONS, sorted(found - effects_mod.CONDITIONS)
    from sim.engine import dm
    assert dm.DM_CONDITIONS - {"prone", "flat_footed"} <= effects_mod.CONDITIONS


def test_the_encoder_refuses_a_type_the_decoder_would_refuse():
    @dataclasses.dataclass
    class Stranger:
        x: int = 1

    class Mood(enum.Enum):
        GLUM = 1

    from sim.rules.categories import Category
    spec = load_encounter(MAPS / "bat_gallery.toml")
    for value, what in ((Stranger(), "Stranger"), (Mood.GLUM, "Mood"), (Category(0), "Category"),
                        (os.stat_result(range(10)), "stat_result")):
        w = new_encounter(spec, seed=1)
        w.start()
        w.memory.ai_note["odd"] = value
        with pytest.raises(S.SnapshotTypeError, match=rf"memory\.ai_note\.odd: a [\w.]+:[\w.<>]*{what} cannot be saved"):
            S.dumps(w, encounter_file=MAPS / "bat_gallery.toml")


def test_the_bounds_are_the_loaders():
    assert snapshot_state.MAX_ROUND_CAP == MAX_ROUND_CAP and snapshot_state.MAX_SEED == MAX_SEED


# -- item 6: arrays, numpy values, the random generator, paths ------------------------------------------------------

def _vision_array(data: dict) -> dict:
    """The first ``$array`` of the saved state (the sight cache's light levels)."""
    found = []

    def walk(v):
        if isinstance(v, dict):
            if "$array" in v:
                found.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data["state"]["_vision"])
    return found[0]


def test_todays_schema_saves_no_array():
    """The sight cache is rebuilt on loading, not saved: a file of today's schema holds no array
    (the ``$array`` checks below guard the files of schemas 2-4, which saved it)."""
    spec = load_encounter(OGRE)
    w = new_encounter(spec, seed=3)
    w.start()
    for _ in range(30):
        w.advance()
    assert w.vision() is not None and '"$array"' not in S.dumps(w, encounter_file=OGRE)


@pytest.mark.parametrize("change, what", [
    ({"$array": "|O"}, "dtype '|O'"),
    ({"$array": "|V16"}, "dtype '|V16'"),
    ({"$array": "[('a', '<i4')]"}, "dtype"),
    ({"$array": "<U8"}, "dtype '<U8'"),
    ({"shape": [10 ** 6, 10 ** 6]}, "shape [1000000, 1000000] holds 1000000000000 values"),
    ({"shape": [10 ** 12]}, "is not a list of at most 4 sizes"),
    ({"shape": [1] * 40}, "is not a list of at most 4 sizes"),
    ({"shape": [-1]}, "is not a list of at most 4 sizes"),
    ({"data": [[True, "x"]]}, "its data are not"),
    ({"data": 7}, "its data are not"),
])
def test_bad_arrays_are_refused_before_allocating(tmp_path, save4, change, what):
    data = copy.deepcopy(save4)
    _vision_array(data).update(change)
    refused(tmp_path, data, "state._vision", what)


def test_numpy_values_and_paths_are_data_only(tmp_path, save):
    for payload, what in (({"$np": "|O", "value": 1}, "not a numpy number"),
                          ({"$np": "<i4", "value": "1"}, "not a numpy number"),
                          ({"$np": "|u1", "value": 300}, "not a numpy number"),
                          ({"$path": ["PWNED"]}, "is not a file path"),
                          ({"$path": "x" * 10_000}, "is not a file path"),
                          ({"$tag": 1}, "unknown tag '$tag'")):
        data = copy.deepcopy(save)
        refused(tmp_path, data, _pwn(data, payload), what)
    data = copy.deepcopy(save)   # a path is a value: kept, never opened
    data["state"]["memory"]["fields"]["ai_note"] = {"x": {"note": {"$path": str(tmp_path / "fifo-or-anything")}}}
    snap = tmp_path / "ok.json"
    snap.write_text(json.dumps(data))
    w, _ = S.read_snapshot(snap, policy=default_policy, load_spec=load_encounter)
    assert w.memory.ai_note["x"]["note"] == tmp_path / "fifo-or-anything" and not (tmp_path / "fifo-or-anything").exists()


@pytest.mark.parametrize("state", [-1, None, "x", [], {"state": -1, "inc": 1}, {"state": 2 ** 128, "inc": 1},
                                   {"state": 1, "inc": 1, "more": 2}, {"state": True, "inc": 1}])
def test_bad_random_generator_states_are_refused(tmp_path, save, state):
    data = copy.deepcopy(save)
    data["state"]["rng"]["state"] = state
    refused(tmp_path, data, "state.rng", "not a PCG64 generator's state")


def test_another_generator_is_refused(tmp_path, save):
    data = copy.deepcopy(save)
    data["state"]["rng"]["bit_generator"] = "MT19937"
    refused(tmp_path, data, "state.rng", "a 'MT19937' generator; this cavesim uses PCG64")


# -- item 13: a state the fight can be in ---------------------------------------------------------------------------

def _set(path: list, value):
    """A mutation: ``data[...path...] = value`` (a creature's field by ``("ogre", field)``)."""
    def apply(data):
        if path[0] == "ogre":
            _, f = _ogre(data)
            target, keys = f, path[1:]
        else:
            target, keys = data["state"], path
        for k in keys[:-1]:
            target = target[k]
        target[keys[-1]] = value
    return apply


def _ogre_key(data) -> str:
    return f"state.creatures.{_ogre(data)[0]}"


@pytest.mark.parametrize("mutate, key, what", [
    (_set(["ogre", "hp"], -1000), "ogre.hp", "-1000: a creature at -10 hit points or fewer is dead"),
    (_set(["ogre", "hp"], -12), "ogre.hp", "-12: a creature at -10 hit points or fewer is dead (RULES §5.5)"),
    (_set(["ogre", "hp"], -3), "ogre.hp", "-3: a creature below 0 hit points is dying or stable"),
    (_set(["ogre", "hp"], 10 ** 400), "ogre.hp", "a whole number of 401 digits"),
    (_set(["ogre", "max_hp"], 10 ** 400), "ogre.max_hp", "a whole number of 401 digits"),
    (_set(["ogre", "max_hp"], 500), "ogre.max_hp", "500 is more than its stat block's 29"),
    (_set(["ogre", "team"], None), "ogre.team", "None is not a <class 'str'>"),
    (_set(["ogre", "team"], "goblins"), "ogre.team", "'goblins', but the encounter has"),
    (_set(["ogre", "template"], "troll"), "ogre.template", "'troll', but the encounter has 'ogre'"),
    (_set(["ogre", "statuses"], {"$frozenset": ["petrified"]}), "ogre.statuses", "'petrified' is not a status"),
    (_set(["ogre", "statuses"], {"$frozenset": ["blessed"]}), "ogre.statuses", "'blessed' is not a status"),
    (_set(["ogre", "statuses"], {"$frozenset": [3]}), "ogre.statuses", "is not a frozenset[str]"),
    (_set(["ogre", "statuses"], {"$set": ["dead"]}), "ogre.statuses", "is not a frozenset[str]"),
    (_set(["ogre", "conditions"], {"$set": ["dead"]}), "", "does not fit Creature (unknown field(s) conditions)"),
    (_set(["ogre", "effects"], [{"$record": "Effect", "fields": {"kind": "petrified", "source": None, "until": None,
                                                                  "data": {"$tuple": []}}}]),
     "ogre.effects[0]", "'petrified' is not an effect of this cavesim"),
    (_set(["ogre", "effects"], [{"$record": "Effect", "fields": {"kind": "held", "source": None, "until": 3,
                                                                  "data": {"$tuple": []}}}]),
     "ogre.effects[0]", "'held' is not an effect of this cavesim with its data"),
    (_set(["ogre", "squares"], [{"$tuple": [x, y]} for x in range(400) for y in range(250)]), "ogre.squares",
     "100000 squares; its body covers 1 to 4"),
    (_set(["ogre", "squares"], [{"$tuple": [1, 1]}]), "ogre.squares", "is not the footprint of a large body"),
    (_set(["ogre", "pos"], [True, False]), "ogre.pos", "[True, False] is not a <class 'sim.base.coords.Pos'>"),
    (_set(["ogre", "pos"], {"$tuple": [True, False]}), "ogre.pos", "(True, False) is not a"),
    (_set(["ogre", "items"], []), "ogre.items", "[] is not a dict[str, int]"),
    (_set(["ogre", "spells_left"], {"$dict": [["1", ["sleep"]]]}), "ogre.spells_left", "dict[int, list[str]]"),
    (_set(["round"], 10 ** 400), "state.round", "a whole number of 401 digits"),
    (_set(["round"], 31), "state.round", "31 is past the round cap (30), and the fight is not over"),
    (_set(["round"], True), "state.round", "a bool where a fight has a int"),
    (_set(["seed"], 10 ** 4000), "state.seed", "a whole number of 4001 digits"),
    (_set(["seed"], -1), "state.seed", "-1: a seed is a whole number from 0 to 2^64 - 1"),
    (_set(["finished"], True), "state.finished", "a finished fight ends with encounter_end and says why"),
    (_set(["end_reason"], "victory"), "state.finished", "False, but the fight's end ('victory')"),
    (_set(["settings", "round_cap"], 10 ** 18), "state.settings.round_cap", "from 0 to 10000"),
    (_set(["settings", "round_cap"], 10 ** 400), "state.settings", "a whole number of 401 digits"),
    (_set(["settings", "swarm_shape"], "blob"), "state.settings.swarm_shape", "'blob' is not one of any, square"),
    (_set(["settings", "wings"], 2), "state.settings", "'wings': not the settings of a fight"),
    (_set(["winner"], ["x"]), "state.winner", "['x'] is not a str | None"),
    (_set(["turn_index"], 10 ** 6), "state.turn_index", "1000000 is not a place in the initiative order"),
    (_set(["turn_mark"], -5), "state.turn_mark", "-5 is not a place in the events"),
    (_set(["grabs", "pending"], [{"$tuple": ["nobody", "x", "y"]}]), "state.grabs.pending[0]", "a grab of creatures"),
    (_set(["movement", "pending"], {"$tuple": [1, 2, 3]}), "state.movement.pending", "(1, 2, 3) is not a tuple["),
    (_set(["swallowed", "inside"], {"nobody": "nobody-else"}), "state.swallowed.inside.nobody", "both must be creatures"),
    (_set(["swallowed", "gizzard"], {"nobody": 5}), "state.swallowed.gizzard.nobody", "damage cut into a gizzard"),
    (_set(["swallowed"], {"inside": {}}), "state.swallowed", "is not the fields of the world's swallowed"),
    (_set(["casting", "wounds"], -4), "state.casting.wounds", "-4: a whole number >= 0"),
    (_set(["magic", "zones"], [{"$record": "Light", "fields": {}}]), "state.magic.zones[0]", "does not fit Light"),
    (_set(["floor"], {"lights": [{"$record": "subprocess:Popen", "fields": {}}]}), "state.floor.lights[0]",
     "'subprocess:Popen' is not a record type a snapshot may hold"),
    (_set(["events"], [{"$tuple": []}] * 10 ** 6), "state.events[0]", "is not an event"),
    (_set(["events"], [{"type": "round_start", "round": 1}]), "state.events[0]",
     "must start with encounter_start"),
    (_set(["events"], "many"), "state.events", "should be a list of events"),
    (_set(["magic", "lights"], [{"$record": "Light", "fields": {
        "at": {"$tuple": [10 ** 6, 0]}, "bright_ft": 0.0, "shadowy_ft": 0.0, "k": 1, "direction": None,
        "darkness": True, "name": "darkness"}}]), "state.magic.lights[0].at", "(1000000, 0) is off the map"),
    (_set(["magic", "lights"], [{"$record": "Light", "fields": {
        "at": {"$tuple": [5, 5]}, "bright_ft": 1e308, "shadowy_ft": float("nan"), "k": 1, "direction": None,
        "darkness": True, "name": "darkness"}}]), "state.magic.lights", "nan: not a number a fight holds"),
])
def test_impossible_states_are_refused(tmp_path, save, mutate, key, what):
    """Each key of the issue's list, mutated in a real save of maps/ogre_tunnel.toml: exit 2, one line
    naming the file and the key, no traceback, nothing written. The hit points follow RULES §5.5:
    "-1 to -9: dying ... -10 or lower: dead" (a swarm disperses at 0); the round stays within
    the round cap (an encounter's: 1 to 10,000), a seed within 0 to 2^64 - 1."""
    data = copy.deepcopy(save)
    key = key.replace("ogre.", _ogre_key(data) + ".")
    mutate(data)
    refused(tmp_path, data, key, what)


def test_a_dead_creature_may_lie_far_below_minus_ten(tmp_path, save):
    """The blow that kills may take a creature far below -10: a dead ogre at -40 loads (and the
    fight plays on without it); the same ogre at -40 and alive is refused."""
    data = copy.deepcopy(save)
    cid, f = _ogre(data)
    f["hp"] = -40
    f["statuses"] = {"$frozenset": ["dead"]}
    snap = tmp_path / "dead.json"
    snap.write_text(json.dumps(data))
    w, _ = S.read_snapshot(snap, policy=default_policy, load_spec=load_encounter)
    assert w.creatures[cid].hp == -40 and not w.creatures[cid].alive
    code, err, exc = run_cli(["fight", str(snap), "--quiet"])
    assert (code, exc) == (0, None), err


def test_a_400_digit_hit_point_total_is_not_echoed(tmp_path, save):
    data = copy.deepcopy(save)
    _, f = _ogre(data)
    f["hp"] = int("9" * 400)
    err = refused(tmp_path, data, _ogre_key(data) + ".hp", "a whole number of 400 digits")
    assert "9999999999" not in err


def test_special_files_and_numbers_too_long_to_parse(tmp_path, save):
    """A FIFO is refused without waiting on it; a number of 5,000 digits (past Python's 4,300-digit
    limit) is a one-line refusal, not a traceback."""
    text = json.dumps(save).replace('"round": 2', '"round": ' + "7" * 5000)
    assert "7" * 5000 in text
    refused(tmp_path, text, "", "holds a number too long to read", "not a cavesim snapshot")
    for name in ("pipe.json", "pipe"):   # named as a snapshot or not (cavesim fight sniffs the first bytes)
        fifo = tmp_path / name
        os.mkfifo(fifo)
        for argv in (["fight", str(fifo)], ["play", "--load", str(fifo)]):
            code, err, exc = run_cli(argv)
            assert (code, exc) == (2, None) and f"{fifo}: not a regular file (a FIFO (named pipe))" in err, err
