"""Snapshots of a fight: an encounter's whole state saved to JSON and loaded back (issue 20).

A snapshot holds everything that decides what happens next: the creatures (every field of each,
stat blocks included), the round, the turn and what is left of it, the pending effects (sleep
falling, poison due, a move under way), the AI's notes (``World.memory``), the events so far and
the random generator's exact state. Loaded and played on, the fight gives the same events as if
it had never stopped (same seed): ``tests/engine/test_snapshot.py`` checks this after every
action of every shipped encounter.

It is generic, so that state added to the engine later is carried without changing this module:
every attribute of the :class:`~sim.engine.world.World` is saved except the ones in
:data:`DERIVED` (the spec, the grid and the memo tables, rebuilt from the encounter file), and
every value is written through one small table of types (:func:`encode`): plain JSON values,
lists, tuples and named tuples, sets, dicts, enums, numpy arrays and scalars, the random
generator, events, creatures (by id outside ``World.creatures``) and dataclass records (by their
fields, recursively). A value of any other type is refused loudly (:class:`SnapshotTypeError`),
naming the attribute: add its type to the table, or its attribute to :data:`DERIVED` if it is a
cache.

A snapshot names its schema (:data:`SCHEMA`), the encounter file it was played from and the map
it belongs to (its name and a hash of its arrays, :func:`map_identity`). Reading one
(:func:`read_snapshot`) refuses a truncated or corrupt file, a newer schema, another map, a
record that does not fit the code and a state the fight cannot be in, each with one message
naming the file and the key (a :class:`~sim.errors.DataError`: exit 2).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.engine import split
from sim.engine.creature import Creature
from sim.engine.encounter import Encounter
from sim.errors import DataError
from sim.events import Event, from_json
from sim.fileio import atomic_write_text
from sim.grid import CaveGrid
from sim.specs import EncounterSpec

#: The snapshot format's version; a file naming another is refused.
SCHEMA = 4  # 2: one lit state for a lantern (Creature.light; lanterns_lit gone); 3: World.zones (grease);
#            4: World.inside and World.gizzard (swallow whole, engulf: docs/rules.md §11.13), and
#               split oozes (Creature.split_round, Defenses.split; halves beyond the encounter's
#               creatures: docs/rules.md §11.14)
#: Older schemas read by adding what they lack: schema 2 had no lasting spell areas, 3 nobody
#: inside; a record of schema 3 or older lacks the fields schema 4 added (they take their
#: defaults: nothing split).
MIGRATIONS = {2: {"zones": []}, 3: {"inside": {}, "gizzard": {}}}
#: Record fields a schema added, filled with their defaults when an older snapshot lacks them
#: (4: split oozes, docs/rules.md §11.14; stat blocks' spell-like abilities, §8.5; the riders'
#: swallow-whole and strand numbers, §11.13, §11.15; energy vulnerability).
ADDED_FIELDS = {4: frozenset({"split_round", "split", "spell_like", "cut_hp", "holds", "count", "vulnerable"})}
#: The largest snapshot read (bytes), checked before reading.
MAX_BYTES = 64 * 1024 * 1024
#: World attributes not saved: rebuilt from the encounter file (spec, grid), memo tables of pure
#: queries (performance only, never outcomes), who plays the creatures and whose dice are typed
#: (given on loading: the AI policy, the table's dice hand).
DERIVED = frozenset({"spec", "grid", "cache", "_fields", "_cats", "_low", "policy", "dice"})


class SnapshotTypeError(TypeError):
    """A value in the fight's state whose type the snapshot table does not know (a bug to fix in
    the code, not bad input)."""


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


# -- encoding ------------------------------------------------------------------------------------------------------

def _qualname(obj_type: type) -> str:
    return f"{obj_type.__module__}:{obj_type.__qualname__}"


def _where(path: Any) -> str:
    """A key path kept as nested (parent, key) pairs, written out (only for a message)."""
    keys = []
    while isinstance(path, tuple):
        path, key = path
        keys.append(key)
    out = str(path)
    for key in reversed(keys):
        out += f"[{key}]" if isinstance(key, int) else ("" if key == "{}" else f".{key}")
    return out


class _Encoder:
    def __init__(self):
        self.ids: dict[int, int] = {}     # id() of a frozen record written already -> its number
        self.keep: list = []              # the records numbered (so their id() stays theirs)

    def value(self, v: Any, path: str) -> Any:
        t = type(v)
        if v is None or t in (bool, int, str):
            return v
        if t is float:
            return v
        if t is list:
            return [self.value(x, (path, i)) for i, x in enumerate(v)]
        if t is tuple:
            return {"$tuple": [self.value(x, (path, i)) for i, x in enumerate(v)]}
        if isinstance(v, tuple) and hasattr(t, "_fields"):  # a named tuple (Pos)
            return {"$named": _qualname(t), "items": [self.value(x, (path, i)) for i, x in enumerate(v)]}
        if t in (set, frozenset):
            items = [self.value(x, (path, "{}")) for x in v]
            items.sort(key=lambda x: json.dumps(x, sort_keys=True))
            return {"$set" if t is set else "$frozenset": items}
        if t is dict:
            if all(type(k) is str and not k.startswith("$") for k in v):
                return {k: self.value(x, (path, k)) for k, x in v.items()}
            return {"$dict": [[self.value(k, (path, "key")), self.value(x, (path, k))] for k, x in v.items()]}
        if isinstance(v, enum.Enum):
            return {"$enum": _qualname(t), "name": v.name}
        if isinstance(v, np.ndarray):
            if v.dtype.kind not in "biuf":
                raise SnapshotTypeError(f"{_where(path)}: a numpy array of {v.dtype} cannot be saved in a snapshot")
            return {"$array": v.dtype.str, "shape": list(v.shape), "data": v.tolist()}
        if isinstance(v, np.generic):
            return {"$np": v.dtype.str, "value": v.item()}
        if isinstance(v, np.random.Generator):
            return {"$rng": v.bit_generator.state}
        if isinstance(v, Event):
            return {"$event": v.to_json()}
        if isinstance(v, Creature):
            return {"$creature": v.id}
        if isinstance(v, Path):
            return {"$path": str(v)}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return self.record(v, path)
        raise SnapshotTypeError(f"{_where(path)}: a {_qualname(t)} cannot be saved in a snapshot; add its type to the "
                                "table in sim.engine.snapshot (or the attribute to DERIVED if it is a cache)")

    def record(self, v: Any, path: str) -> dict:
        t = type(v)
        frozen = t.__dataclass_params__.frozen
        if frozen:
            n = self.ids.get(id(v))
            if n is not None:
                return {"$ref": n}
        out: dict[str, Any] = {"$record": _qualname(t)}
        if frozen:
            out["$id"] = self.ids[id(v)] = len(self.ids)
            self.keep.append(v)
        out["fields"] = {f.name: self.value(getattr(v, f.name), (path, f.name)) for f in dataclasses.fields(v)}
        return out


def encode_world(w: Encounter) -> dict[str, Any]:
    """The fight's state as JSON-ready values: every attribute but :data:`DERIVED`."""
    enc = _Encoder()
    state = {}
    for name, v in vars(w).items():
        if name in DERIVED:
            continue
        if name == "creatures":
            state[name] = {cid: enc.record(c, f"creatures.{cid}") for cid, c in v.items()}
        else:
            state[name] = enc.value(v, name)
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
            "map": map_identity(w.grid), "state": encode_world(w)}


def dumps(w: Encounter, *, encounter_file: str | Path, base: str | Path | None = None) -> str:
    return json.dumps(snapshot(w, encounter_file=encounter_file, base=base), separators=(",", ":")) + "\n"


def save(w: Encounter, path: str | Path, *, encounter_file: str | Path) -> None:
    """Write the snapshot of ``w`` to ``path`` (a temporary file renamed: never half-written)."""
    path = Path(path)
    atomic_write_text(path, dumps(w, encounter_file=encounter_file, base=path.parent))


# -- decoding ------------------------------------------------------------------------------------------------------

class _Bad(Exception):
    """A snapshot value that does not fit (key path, what is wrong)."""

    def __init__(self, path: str, what: str):
        self.path, self.what = _where(path), what
        super().__init__(f"{self.path}: {what}")


def _lookup(qual: Any, path: str) -> type:
    """A class named ``module:Qual`` of an already loaded ``sim`` module (nothing is imported)."""
    if not isinstance(qual, str) or ":" not in qual:
        raise _Bad(path, f"{qual!r} is not a type name")
    mod_name, _, name = qual.partition(":")
    mod = sys.modules.get(mod_name)
    if not mod_name.startswith("sim.") or mod is None:
        raise _Bad(path, f"{qual!r} is not a type of this cavesim")
    obj: Any = mod
    for part in name.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise _Bad(path, f"{qual!r} is not a type of this cavesim")
    if not isinstance(obj, type):
        raise _Bad(path, f"{qual!r} is not a type")
    return obj


class _Decoder:
    def __init__(self, creatures: dict[str, Creature], schema: int = SCHEMA):
        self.refs: dict[int, Any] = {}
        self.creatures = creatures
        self.optional = frozenset().union(*(f for s, f in ADDED_FIELDS.items() if s > schema))

    def value(self, v: Any, path: str) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, list):
            return [self.value(x, (path, i)) for i, x in enumerate(v)]
        if not isinstance(v, dict):
            raise _Bad(path, f"unexpected {type(v).__name__}")
        tag = next(iter(v), None)
        if not (isinstance(tag, str) and tag.startswith("$")):
            return {k: self.value(x, (path, k)) for k, x in v.items()}
        body = v[tag]
        if tag == "$tuple":
            return tuple(self.value(x, (path, i)) for i, x in enumerate(self._list(body, path)))
        if tag == "$named":
            cls = _lookup(body, path)
            items = [self.value(x, (path, i)) for i, x in enumerate(self._list(v.get("items"), path))]
            try:
                return cls(*items)
            except TypeError as exc:
                raise _Bad(path, f"does not fit {body}: {exc}") from None
        if tag in ("$set", "$frozenset"):
            items = [self.value(x, (path, "{}")) for x in self._list(body, path)]
            try:
                return set(items) if tag == "$set" else frozenset(items)
            except TypeError:
                raise _Bad(path, "a set of values that cannot be in a set") from None
        if tag == "$dict":
            out = {}
            for i, pair in enumerate(self._list(body, path)):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise _Bad((path, i), "not a [key, value] pair")
                try:
                    out[self.value(pair[0], ((path, i), "key"))] = self.value(pair[1], (path, i))
                except TypeError:
                    raise _Bad((path, i), "a key that cannot be a dict key") from None
            return out
        if tag == "$enum":
            cls = _lookup(body, path)
            if not issubclass(cls, enum.Enum) or v.get("name") not in cls.__members__:
                raise _Bad(path, f"{v.get('name')!r} is not a member of {body}")
            return cls[v["name"]]
        if tag == "$array":
            try:
                return np.array(v["data"], dtype=np.dtype(body)).reshape(v["shape"])
            except (KeyError, TypeError, ValueError) as exc:
                raise _Bad(path, f"not a numpy array ({exc})") from None
        if tag == "$np":
            try:
                return np.dtype(body).type(v["value"])
            except (KeyError, TypeError, ValueError) as exc:
                raise _Bad(path, f"not a numpy value ({exc})") from None
        if tag == "$rng":
            try:
                rng = np.random.default_rng()
                if body.get("bit_generator") != type(rng.bit_generator).__name__:
                    raise _Bad(path, f"a {body.get('bit_generator')!r} generator; this cavesim uses "
                                     f"{type(rng.bit_generator).__name__}")
                rng.bit_generator.state = body
                return rng
            except (AttributeError, KeyError, TypeError, ValueError) as exc:
                raise _Bad(path, f"not a random generator's state ({exc})") from None
        if tag == "$event":
            try:
                return from_json(body)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise _Bad(path, f"not an event ({exc})") from None
        if tag == "$creature":
            c = self.creatures.get(body)
            if c is None:
                raise _Bad(path, f"no creature {body!r} in the snapshot")
            return c
        if tag == "$path":
            return Path(str(body))
        if tag == "$ref":
            if body not in self.refs:
                raise _Bad(path, f"refers to record {body!r}, which comes nowhere before")
            return self.refs[body]
        if tag == "$record":
            return self.record(v, path)
        raise _Bad(path, f"unknown tag {tag!r}")

    @staticmethod
    def _list(v: Any, path: str) -> list:
        if not isinstance(v, list):
            raise _Bad(path, "should be a list")
        return v

    def record(self, v: Any, path: str) -> Any:
        if not isinstance(v, dict) or "$record" not in v:
            raise _Bad(path, "should be a record")
        cls = _lookup(v["$record"], path)
        if not dataclasses.is_dataclass(cls):
            raise _Bad(path, f"{v['$record']} is not a record type")
        fields = v.get("fields")
        if not isinstance(fields, dict):
            raise _Bad(path, "a record without its fields")
        names = [f.name for f in dataclasses.fields(cls)]
        extra = sorted(set(fields) - set(names))
        missing = [n for n in names if n not in fields and n not in self.optional]
        if extra or missing:
            raise _Bad(path, f"does not fit {v['$record']} (" + "; ".join(
                ([f"unknown field(s) {', '.join(extra)}"] if extra else [])
                + ([f"missing field(s) {', '.join(missing)}"] if missing else [])) + ")")
        kwargs = {n: self.value(fields[n], (path, n)) for n in names if n in fields}
        init = {f.name for f in dataclasses.fields(cls) if f.init}
        try:
            obj = cls(**{k: x for k, x in kwargs.items() if k in init})
        except (TypeError, ValueError) as exc:
            raise _Bad(path, f"does not fit {v['$record']}: {exc}") from None
        for k, x in kwargs.items():
            if k not in init:
                object.__setattr__(obj, k, x)
        if "$id" in v:
            self.refs[v["$id"]] = obj
        return obj


# -- reading -------------------------------------------------------------------------------------------------------

def _check_state(w: Encounter) -> list[tuple[str, str]]:
    """(key, problem) for each thing in a loaded fight it cannot be in."""
    bad: list[tuple[str, str]] = []
    grid = w.grid
    ids = set(w.creatures)
    for cid, c in w.creatures.items():
        k = f"state.creatures.{cid}"
        if c.id != cid:
            bad.append((f"{k}.id", f"{c.id!r} under the id {cid!r}"))
        if not isinstance(c.hp, int) or not isinstance(c.max_hp, int):
            bad.append((f"{k}.hp", "hit points must be whole numbers"))
            continue
        if c.max_hp < 1:
            bad.append((f"{k}.max_hp", f"{c.max_hp}: a creature has at least 1 hit point"))
        if c.hp > c.max_hp:
            bad.append((f"{k}.hp", f"{c.hp} is more than its max_hp {c.max_hp}"))
        if not isinstance(c.nonlethal, int) or c.nonlethal < 0:
            bad.append((f"{k}.nonlethal", f"{c.nonlethal!r}: nonlethal damage is a whole number >= 0"))
        for name in ("items", "thrown_left", "fused"):
            for item, n in getattr(c, name).items():
                if not isinstance(n, int) or n < 0:
                    bad.append((f"{k}.{name}.{item}", f"{n!r}: a count is a whole number >= 0"))
        for key, sq in [("pos", c.pos)] + [(f"squares[{i}]", s) for i, s in enumerate(c.squares)]:
            if not (isinstance(sq, tuple) and len(sq) == 2 and all(isinstance(a, int) for a in sq)):
                bad.append((f"{k}.{key}", f"{sq!r} is not a square (x, y)"))
            elif not grid.in_bounds(sq):
                bad.append((f"{k}.{key}", f"{tuple(sq)} is off the map ({grid.cols}x{grid.rows})"))
            elif c.alive and grid.rock[sq[1], sq[0]]:
                bad.append((f"{k}.{key}", f"{tuple(sq)} is solid rock"))
        if not isinstance(c.conditions, set) or not all(isinstance(x, str) for x in c.conditions):
            bad.append((f"{k}.conditions", "should be a set of condition names"))
        for i, oid in enumerate(c.grapple_with):   # a grapple is both ways (docs/rules.md §11)
            o = w.creatures.get(oid)
            if o is None or o is c:
                bad.append((f"{k}.grapple_with[{i}]", f"{oid!r} is no other creature of this fight"))
            elif cid not in o.grapple_with and w.inside.get(cid) != oid:
                bad.append((f"{k}.grapple_with[{i}]", f"{oid!r} is not grappling {cid!r} back"))
        if c.pinned_by is not None and c.pinned_by not in c.grapple_with:
            bad.append((f"{k}.pinned_by", f"{c.pinned_by!r} pins it but is not grappling it"))
    for vid, hid in w.inside.items():   # swallowed or engulfed (docs/rules.md §11.13)
        if vid not in ids or hid not in ids or vid == hid:
            bad.append((f"state.inside.{vid}", f"{vid!r} inside {hid!r}: both must be creatures of this fight"))
    if sorted(w.order) != sorted(ids) and w.order:
        bad.append(("state.order", f"the initiative order {w.order} does not name each creature once"))
    if not isinstance(w.round, int) or w.round < 0:
        bad.append(("state.round", f"{w.round!r}: the round is a whole number >= 0"))
    if w.turn is not None:
        if not (0 <= w.turn_index < len(w.order)):
            bad.append(("state.turn_index", f"{w.turn_index} is not a place in the initiative order"))
        elif w.order[w.turn_index] != w.turn.actor:
            bad.append(("state.turn.actor", f"{w.turn.actor!r} acts, but the initiative order has "
                                            f"{w.order[w.turn_index]!r} there"))
    for i, z in enumerate(w.zones):
        sqs = getattr(z, "squares", None)
        if type(z).__name__ != "Zone" or not isinstance(sqs, tuple):
            bad.append((f"state.zones[{i}]", "is not a spell's zone"))
        elif z.owner not in ids:
            bad.append((f"state.zones[{i}].owner", f"{z.owner!r} is no creature of this fight"))
        else:
            off = [q for q in sqs if not (isinstance(q, tuple) and len(q) == 2 and grid.in_bounds(q))]
            if off:
                bad.append((f"state.zones[{i}].squares", f"{off[0]!r} is not a square of the map"))
    if w.events and w.events[0].type != "encounter_start":
        bad.append(("state.events[0]", "the events must start with encounter_start"))
    if w.finished and w.winner is not None and w.winner not in {c.team for c in w.creatures.values()}:
        bad.append(("state.winner", f"{w.winner!r} is no team of this fight"))
    return bad


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
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; check the path") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    if size > MAX_BYTES:
        raise DataError(f"{path}: {size} bytes is more than a snapshot can be ({MAX_BYTES}); is it a snapshot?")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}); not a cavesim snapshot") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}:{exc.lineno}: not valid JSON at column {exc.colno} ({exc.msg}): truncated or "
                        "corrupt; save the fight again") from None
    except RecursionError:
        raise DataError(f"{path}: nested too deep; not a cavesim snapshot") from None
    if not isinstance(data, dict) or "cavesim_snapshot" not in data:
        raise DataError(f"{path}: not a cavesim snapshot (no cavesim_snapshot key); write one with "
                        "cavesim fight ENCOUNTER --save-at ROUND --save FILE or Ctrl-S in cavesim play")
    schema = data["cavesim_snapshot"]
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise DataError(f"{path}: cavesim_snapshot: {schema!r} is not a schema version")
    if schema > SCHEMA:
        raise DataError(f"{path}: cavesim_snapshot: schema {schema} is newer than this cavesim reads ({SCHEMA}); "
                        "update cavesim to load it")
    if schema != SCHEMA and schema not in MIGRATIONS:
        raise DataError(f"{path}: cavesim_snapshot: schema {schema} is not one this cavesim reads ({SCHEMA})")
    for key, kind in (("encounter", str), ("map", dict), ("state", dict)):
        if not isinstance(data.get(key), kind):
            raise DataError(f"{path}: {key}: missing or not a {kind.__name__}; the file is damaged, save again")
    for old in range(schema, SCHEMA):   # an older file: what later schemas added, empty
        for k, v in MIGRATIONS[old].items():
            data["state"].setdefault(k, v)
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
        raise DataError(f"{path}: map: the snapshot belongs to the map {saved.get('name')!r} "
                        f"({saved.get('hash')}), but {spec.path} is on {ident['name']!r} ({ident['hash']}); "
                        "give the encounter it was saved from")
    w = _restore(path, spec, data["state"], policy, schema=schema)
    return w, enc_file


def _restore(path: Path, spec: EncounterSpec, state: dict, policy: Callable | None,
             shared: dict | None = None, schema: int = SCHEMA) -> Encounter:
    w = Encounter(spec, policy=policy, shared=shared)
    fresh = {n for n in vars(w) if n not in DERIVED}
    unknown = sorted(set(state) - fresh)
    if unknown:
        raise DataError(f"{path}: state.{unknown[0]}: not part of a fight in this cavesim; the snapshot was "
                        "written by another version")
    missing = sorted(fresh - set(state))
    if missing:
        raise DataError(f"{path}: state.{missing[0]}: missing; the file is damaged or from another version")
    raw = state["creatures"]
    if not isinstance(raw, dict):
        raise DataError(f"{path}: state.creatures: should be a table of creatures")
    halves = [cid for cid in raw if cid not in w.creatures]
    if not set(w.creatures) <= set(raw) or any(_parent(cid, w.creatures) is None for cid in halves):
        raise DataError(f"{path}: state.creatures: the creatures {sorted(raw)} are not the encounter's "
                        f"{sorted(w.creatures)}; give the encounter it was saved from")
    creatures: dict[str, Creature] = {}
    dec = _Decoder(creatures, schema)
    try:
        for cid, rec in raw.items():
            c = dec.record(rec, f"state.creatures.{cid}")
            if not isinstance(c, Creature):
                raise _Bad(f"state.creatures.{cid}", "is not a creature")
            creatures[cid] = c
        values = {name: dec.value(v, f"state.{name}") for name, v in state.items() if name != "creatures"}
    except _Bad as exc:
        raise DataError(f"{path}: {exc.path}: {exc.what}; the file is damaged or from another version") from None
    except RecursionError:
        raise DataError(f"{path}: state: nested too deep; not a cavesim snapshot") from None
    for name, v in values.items():
        want = type(getattr(w, name))
        if getattr(w, name) is not None and v is not None and not isinstance(v, want):
            raise DataError(f"{path}: state.{name}: a {type(v).__name__} where a fight has a {want.__name__}")
        setattr(w, name, v)
    w.creatures = creatures
    problems = _check_state(w)
    if problems:
        key, what = problems[0]
        raise DataError(f"{path}: {key}: {what}; a snapshot must hold a state the fight can be in")
    return w


def _parent(cid: str, originals: dict[str, Creature]) -> Creature | None:
    """The encounter's creature that ``cid`` split off from (``ochre-jelly.a``, ``ochre-jelly.a.b``:
    docs/rules.md §11.14), if it is one that splits; else None."""
    root = split.origin(cid, originals)
    c = originals.get(root) if root is not None and root != cid else None
    return c if c is not None and c.block.defenses.split else None


def load_text(text: str, spec: EncounterSpec, *, policy: Callable | None, name: str = "<snapshot>",
              shared: dict | None = None) -> Encounter:
    """A snapshot already in memory (undo in ``cavesim play``, tests) onto ``spec``'s fight.
    ``shared``: terrain answers to reuse (see :class:`~sim.engine.world.World`)."""
    data = json.loads(text)
    if map_identity(spec.grid)["hash"] != data["map"]["hash"]:
        raise DataError(f"{name}: map: the snapshot belongs to another map")
    schema = data.get("cavesim_snapshot", SCHEMA)
    for old in range(schema, SCHEMA):   # an older text: what later schemas added, empty
        for k, v in MIGRATIONS[old].items():
            data["state"].setdefault(k, v)
    return _restore(Path(name), spec, data["state"], policy, shared, schema=schema)
