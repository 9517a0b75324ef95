"""Saved games: a fight's whole state written to JSON and read back (issue 20; schemas 5-6: issue 33).

A saved game holds everything that decides what happens next: the fight's settings, round, turn
and initiative order, the random generator's exact state, the creatures (every field of each,
stat blocks included), each part of the fight's state its mechanics declare, in the registry's
order (:func:`sim.engine.registry.parts`: the spells' zones and darkness, who is inside whom, the
grabs to roll, a casting's wounds, the lights on the floor, a move under way), the events so far and the AI's notes (``World.memory``). Loaded and
played on, the fight gives the same events as if it had never stopped (same seed):
``tests/engine/test_snapshot.py`` checks this after every action of every shipped encounter.

What a file holds is declared, not found: :mod:`sim.engine.saved.schema` lists its sections
(:data:`~sim.engine.saved.schema.STATE`) with their types and the records a value may be
(:data:`~sim.engine.saved.schema.RECORD_TYPES`); **a new record type is one line there** (see
that module's docstring), a new part of the fight's state its mechanic's record (no line here). The
writer (:func:`encode_state`) writes those sections and refuses a world attribute the schema does
not declare (:data:`DERIVED` lists the ones rebuilt on loading); the reader builds only the
declared records through the tagged encoding of :mod:`sim.engine.saved.codec` -- never a
class found through a module's attributes, never an import; every record field of its declared
type, every number bounded. A file naming anything else is refused before any of it is made.

Files of schemas 2 to 4 (``vars(world)`` with module paths) are read by one reader each
(:mod:`sim.engine.saved.legacy`) into the same sections; schema 5 stored each creature's
conditions, which schema 6 derives (:func:`read_schema_5`, :mod:`sim.engine.saved.legacy_conditions`).

A saved game names its schema (:data:`SCHEMA`), the encounter file it was played from and the
map it belongs to (its name and a hash of its arrays, :func:`map_identity`). Reading one
(:func:`read_snapshot`) refuses a truncated or corrupt file, a newer schema, another map, a
record that does not fit the code and a state the fight cannot be in
(:func:`~sim.engine.saved.state.check_state`), each with one message naming the file and the
key (a :class:`~sim.base.errors.DataError`: exit 2).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import atomic_write_text, read_input
from sim.engine.creature import Creature
from sim.engine.encounter import Encounter
from sim.engine.events import from_json
from sim.engine.notes import AINotes
from sim.engine.parts import Part
from sim.engine.saved.codec import Bad, Decoder, Encoder, SnapshotTypeError, qualname
from sim.engine.saved.legacy import LAYOUTS
from sim.engine.saved.legacy import READERS as OLD_READERS
from sim.engine.saved.legacy_conditions import statuses_of_conditions, take_conditions
from sim.engine.saved.schema import NAMES, SCHEMA, RngState, optional_fields, part_fields, sections
from sim.engine.saved.state import FIGHT_FIELDS, MAX_CREATURES, MAX_EVENTS, MAX_NAME_CHARS, _parent, check_state
from sim.scenario.specs import EncounterSpec
from sim.terrain.grid import CaveGrid

#: The largest snapshot read (bytes), checked before reading.
MAX_BYTES = 64 * 1024 * 1024
#: World attributes not saved: rebuilt from the encounter file (spec, grid), memo tables of pure
#: queries and the sight cache (performance only, never outcomes), who plays the creatures and
#: whose dice are typed (given on loading: the AI policy, the table's dice hand).
DERIVED = frozenset({"spec", "grid", "cache", "terrain", "_fields", "_cats", "_low", "_vision_key", "_vision", "policy",
                     "dice"})


# -- the map's identity --------------------------------------------------------------------------------------------

def map_identity(grid: CaveGrid) -> dict[str, str]:
    """The map's name and a SHA-256 of its arrays (every numpy field of the grid: dtype, shape
    and bytes), so that a snapshot is never loaded onto another cave, or an edited one."""
    h = hashlib.sha256()
    for f in dataclasses.fields(grid):
        v = getattr(grid, f.name)
        if isinstance(v, np.ndarray):
            a = np.ascontiguousarray(v)
            h.update(f"{f.name}:{a.dtype.str}:{a.shape};".encode())
            h.update(a.tobytes())
    return {"name": grid.name, "hash": "sha256:" + h.hexdigest()}


# -- writing -------------------------------------------------------------------------------------------------------

def encode_state(w: Encounter) -> dict[str, Any]:
    """The fight's state as JSON-ready values, section by section of the schema
    (:func:`~sim.engine.saved.schema.sections` of the parts its mechanics declare, in their
    registry's order). A world attribute neither in the schema nor :data:`DERIVED` is refused
    (:class:`SnapshotTypeError`): state the saved game would lose."""
    state_types = sections(type(w).PARTS)
    parts = {p.name for p in type(w).PARTS}
    stray = sorted(set(vars(w)) - set(state_types) - DERIVED)
    if stray:
        v = getattr(w, stray[0])
        raise SnapshotTypeError(f"{stray[0]}: a {qualname(type(v))} cannot be saved in a snapshot: the world's "
                                f"{stray[0]} is not in the schema (a mechanic's part, sim.engine.mechanics.Mechanic, "
                                "or DERIVED in sim.engine.saved.snapshot if it is a cache)")
    enc = Encoder(NAMES)
    state: dict[str, Any] = {}
    for name, kind in state_types.items():
        if kind is RngState:
            state[name] = w.rng.bit_generator.state
        elif name == "creatures":
            state[name] = {cid: enc.record(c, f"creatures.{cid}") for cid, c in w.creatures.items()}
        elif name == "events":
            state[name] = [e.to_json() for e in w.events]
        elif name in parts:
            part = getattr(w, name)
            state[name] = {f: enc.value(getattr(part, f), (name, f)) for f in part_fields(kind)}
        else:   # the fight's own fields, the AI's notes
            state[name] = enc.value(getattr(w, name), name)
    return state


def snapshot(w: Encounter, *, encounter_file: str | Path, base: str | Path | None = None) -> dict[str, Any]:
    """The whole snapshot of ``w`` (played from ``encounter_file``): schema, encounter, map and
    state. ``base``: the folder the encounter's path is written relative to (the snapshot's)."""
    enc_path = Path(encounter_file).resolve()
    if base is not None:
        try:
            enc_path_text = os.path.relpath(enc_path, Path(base).resolve())
        except ValueError:  # another drive (Windows)
            enc_path_text = str(enc_path)
    else:
        enc_path_text = str(enc_path)
    return {"cavesim_snapshot": SCHEMA, "encounter": enc_path_text.replace(os.sep, "/"),
            "map": map_identity(w.grid), "state": encode_state(w)}


def dumps(w: Encounter, *, encounter_file: str | Path, base: str | Path | None = None) -> str:
    return json.dumps(snapshot(w, encounter_file=encounter_file, base=base), separators=(",", ":")) + "\n"


def save(w: Encounter, path: str | Path, *, encounter_file: str | Path) -> None:
    """Write the snapshot of ``w`` to ``path`` (a temporary file renamed: never half-written)."""
    path = Path(path)
    atomic_write_text(path, dumps(w, encounter_file=encounter_file, base=path.parent))


# -- reading -------------------------------------------------------------------------------------------------------

def read_snapshot(path: str | Path, *, policy: Callable | None,
                  load_spec: Callable[[Path], EncounterSpec] | None = None,
                  encounter_file: str | Path | None = None,
                  spec: EncounterSpec | None = None) -> tuple[Encounter, Path]:
    """Load a snapshot: the fight rebuilt from its encounter file (or ``encounter_file``), read
    by ``load_spec`` (the caller's encounter loader: the engine sits below the loaders), with the
    saved state over it, played by ``policy``. ``spec``: that encounter already loaded (the
    window's, with its art). Returns (encounter, encounter file). Every problem is a
    :class:`DataError` naming the file and the key."""
    path = Path(path)
    raw = read_input(path, what="snapshot", limit=MAX_BYTES)   # a regular file only, bounded: never a FIFO
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}); not a cavesim snapshot") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}:{exc.lineno}: not valid JSON at column {exc.colno} ({exc.msg}): truncated or "
                        "corrupt; save the fight again") from None
    except RecursionError:
        raise DataError(f"{path}: nested too deep; not a cavesim snapshot") from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise DataError(f"{path}: holds a number too long to read ({shorten_text(str(exc).split(':')[0], 60)}); "
                        "not a cavesim snapshot") from None
    if not isinstance(data, dict) or "cavesim_snapshot" not in data:
        raise DataError(f"{path}: not a cavesim snapshot (no cavesim_snapshot key); write one with "
                        "cavesim fight ENCOUNTER --save-at ROUND --save FILE or Ctrl-S in cavesim play")
    schema = data["cavesim_snapshot"]
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise DataError(f"{path}: cavesim_snapshot: {shorten(schema)} is not a schema version")
    if schema > SCHEMA:
        raise DataError(f"{path}: cavesim_snapshot: schema {shorten(schema)} is newer than this cavesim reads ({SCHEMA}); "
                        "update cavesim to load it")
    if schema not in SCHEMAS:
        raise DataError(f"{path}: cavesim_snapshot: schema {shorten(schema)} is not one this cavesim reads ({SCHEMA})")
    for key, kind in (("encounter", str), ("map", dict), ("state", dict)):
        if not isinstance(data.get(key), kind):
            raise DataError(f"{path}: {key}: missing or not a {kind.__name__}; the file is damaged, save again")
    if len(data["encounter"]) > MAX_NAME_CHARS or "\0" in data["encounter"]:
        raise DataError(f"{path}: encounter: {shorten(data['encounter'])} is not a file path")
    enc_file = Path(encounter_file) if encounter_file is not None else path.parent / data["encounter"]
    if spec is None and not enc_file.exists():
        raise DataError(f"{path}: encounter: {enc_file} does not exist; the snapshot needs the encounter file "
                        "it was played from")
    if spec is None:
        if load_spec is None:
            raise ValueError("read_snapshot needs the encounter (spec) or a way to load it (load_spec)")
        spec = load_spec(enc_file)
    ident = map_identity(spec.grid)
    saved = data["map"]
    if saved.get("hash") != ident["hash"]:
        raise DataError(f"{path}: map: the snapshot belongs to the map {shorten(saved.get('name'))} "
                        f"({shorten(saved.get('hash'), 80)}), but {spec.path} is on {ident['name']!r} ({ident['hash']}); "
                        "give the encounter it was saved from")
    w = _restore(path, spec, data["state"], policy, schema=schema)
    return w, enc_file


def read_schema_6(state: dict, parts: tuple[Part, ...] = Encounter.PARTS) -> dict[str, Any]:
    """A schema-6 state, section by section of :func:`~sim.engine.saved.schema.sections` of
    ``parts`` (the fight's registry's; its sections checked by the caller): the values each
    declares, building only declared records; a :class:`Bad` for the first that does not fit."""
    return _read(state, parts, 6)


def read_schema_5(state: dict, parts: tuple[Part, ...] = Encounter.PARTS) -> dict[str, Any]:
    """A schema-5 state: schema 6's sections, its creatures with their conditions stored
    (turned into statuses: :mod:`sim.engine.saved.legacy_conditions`)."""
    return _read(state, parts, 5)


def _read(state: dict, parts: tuple[Part, ...], schema: int) -> dict[str, Any]:
    creatures: dict[str, Creature] = {}
    dec = Decoder(NAMES, creatures, optional_fields(schema))
    shown: dict[str, set[str]] = {}
    names = {p.name for p in parts}
    out: dict[str, Any] = {}
    for name, kind in sections(parts).items():
        raw, key = state[name], f"state.{name}"
        if kind is RngState:
            out[name] = Decoder.rng(raw, key)
        elif name == "creatures":
            for cid, rec in raw.items():
                if schema < 6:
                    rec, stored = take_conditions(rec, dec, f"{key}.{cid}.fields")
                    if stored is not None:
                        shown[cid] = stored
                c = dec.record(rec, f"{key}.{cid}")
                if not isinstance(c, Creature):
                    raise Bad(f"{key}.{cid}", "is not a creature")
                creatures[cid] = c
            out[name] = creatures
        elif name == "events":
            out[name] = [_event(e, (key, i)) for i, e in enumerate(raw)]
        elif name in names:
            out[name] = _part(dec, kind, raw, key)
        elif kind is AINotes:
            out[name] = dec.record(raw, key)
            if not isinstance(out[name], AINotes):
                raise Bad(key, "is not the AI's notes")
        else:
            out[name] = dec.value(raw, key)
    for cid, stored in shown.items():
        statuses_of_conditions(creatures[cid], stored, f"{key}.{cid}.fields")
    return out


def _event(raw: Any, path: Any) -> Any:
    """One event as the event log writes it."""
    if not isinstance(raw, dict):
        raise Bad(path, "is not an event")
    try:
        return from_json(raw)
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        raise Bad(path, f"is not an event ({shorten(str(exc), 100)})") from None


def _part(dec: Decoder, cls: type, raw: Any, key: str) -> Any:
    """One part of the world: a table of exactly its record's fields (their types are checked
    with the rest of the state, :func:`~sim.engine.saved.state.check_state`)."""
    names = list(part_fields(cls))
    if not isinstance(raw, dict) or set(raw) != set(names):
        got = sorted(raw) if isinstance(raw, dict) else raw
        raise Bad(key, shorten_text(f"{shorten(got)} is not the fields of the world's {key[6:]} ({', '.join(names)})"))
    return cls(**{n: dec.value(raw[n], (key, n)) for n in names})


#: The reader of each schema of today's sections (the fight's registry's parts), and of each
#: older one (:mod:`sim.engine.saved.legacy`: the shipped parts, built from the loose attributes).
PART_READERS: dict[int, Callable[[dict, tuple[Part, ...]], dict[str, Any]]] = {5: read_schema_5, SCHEMA: read_schema_6}
#: Every schema this cavesim reads.
SCHEMAS: frozenset[int] = frozenset(OLD_READERS) | frozenset(PART_READERS)


def _restore(path: Path, spec: EncounterSpec, state: dict, policy: Callable | None,
             shared: dict | None = None, schema: int = SCHEMA, kind: type[Encounter] = Encounter) -> Encounter:
    w = kind(spec, policy=policy, shared=shared)
    layout = LAYOUTS[schema] if schema in LAYOUTS else frozenset(sections(kind.PARTS))
    _check_sections(path, state, layout, w.creatures)
    try:
        values = OLD_READERS[schema](state) if schema in OLD_READERS else PART_READERS[schema](state, kind.PARTS)
    except Bad as exc:
        raise DataError(f"{path}: {shorten_text(exc.path, 200)}: {exc.what}; {exc.fix}") from None
    except RecursionError:
        raise DataError(f"{path}: state: nested too deep; not a cavesim snapshot") from None
    for name in FIGHT_FIELDS:   # each of the fight's fields of the kind the fight has
        v, want = values[name], type(getattr(w, name))
        if getattr(w, name) is not None and v is not None and not isinstance(v, want) or (
                want is int and type(v) is bool):
            raise DataError(f"{path}: state.{name}: a {type(v).__name__} where a fight has a {want.__name__}")
        setattr(w, name, v)
    for name in ("rng", "events", "memory"):
        want = type(getattr(w, name))
        if not isinstance(values[name], want):
            raise DataError(f"{path}: state.{name}: a {type(values[name]).__name__} where a fight has a "
                            f"{want.__name__}")
        setattr(w, name, values[name])
    for p in kind.PARTS:   # an old file's parts are the shipped ones; a part it lacks stays empty
        if p.name in values:
            setattr(w, p.name, values[p.name])
    originals = w.creatures
    w.creatures = values["creatures"]
    w._vision_key = w._vision = None   # the sight cache: rebuilt from the state (a pure function of it)
    problems = check_state(w, originals)
    if problems:
        key, what = problems[0]
        raise DataError(f"{path}: {shorten_text(key, 200)}: {what}; a snapshot must hold a state the fight can be in")
    return w


def _check_sections(path: Path, state: dict, sections: frozenset[str], originals: dict[str, Creature]) -> None:
    """The state holds its schema's sections, no more, no less; the creatures are the
    encounter's (and the halves of its split oozes), the events a list, both within bounds."""
    unknown = sorted(set(state) - sections)
    if unknown:
        raise DataError(f"{path}: state.{shorten_text(unknown[0], 60)}: not part of a fight in this cavesim; the "
                        "snapshot was written by another version")
    missing = sorted(sections - set(state))
    if missing:
        raise DataError(f"{path}: state.{missing[0]}: missing; the file is damaged or from another version")
    raw = state["creatures"]
    if not isinstance(raw, dict):
        raise DataError(f"{path}: state.creatures: should be a table of creatures")
    if len(raw) > MAX_CREATURES:
        raise DataError(f"{path}: state.creatures: {len(raw)} creatures, over the limit of {MAX_CREATURES}")
    events = state["events"]
    if not isinstance(events, list) or len(events) > MAX_EVENTS:
        raise DataError(f"{path}: state.events: " + (f"{len(events)} events, over the limit of {MAX_EVENTS}"
                                                      if isinstance(events, list) else "should be a list of events"))
    halves = [cid for cid in raw if cid not in originals]
    if not set(originals) <= set(raw) or any(_parent(cid, originals) is None for cid in halves):
        raise DataError(f"{path}: state.creatures: " + shorten_text(f"the creatures {sorted(raw)}", 200)
                        + " are not the encounter's " + shorten_text(f"{sorted(originals)}", 200)
                        + "; give the encounter it was saved from")


def load_text(text: str, spec: EncounterSpec, *, policy: Callable | None, name: str = "<snapshot>",
              shared: dict | None = None, kind: type[Encounter] = Encounter) -> Encounter:
    """A snapshot already in memory (undo in ``cavesim play``, tests) onto ``spec``'s fight.
    ``shared``: terrain answers to reuse (see :class:`~sim.engine.world.World`); ``kind``: the
    fight's class (a variant with other mechanics reads the parts they declare)."""
    data = json.loads(text)
    if map_identity(spec.grid)["hash"] != data["map"]["hash"]:
        raise DataError(f"{name}: map: the snapshot belongs to another map")
    schema = data.get("cavesim_snapshot", SCHEMA)
    if schema not in SCHEMAS:
        raise DataError(f"{name}: cavesim_snapshot: schema {shorten(schema)} is not one this cavesim reads ({SCHEMA})")
    return _restore(Path(name), spec, data["state"], policy, shared, schema=schema, kind=kind)
