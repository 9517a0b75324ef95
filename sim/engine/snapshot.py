"""Snapshots of a fight: an encounter's whole state saved to JSON and loaded back (issue 20).

A snapshot holds everything that decides what happens next: the creatures (every field of each,
stat blocks and lasting effects included: ``Creature.effects``, :mod:`sim.engine.effects`), the
round, the turn and what is left of it, the pending effects (sleep falling, poison due, a move
under way), the AI's notes (``World.memory``, :class:`~sim.engine.notes.AINotes`), the events so
far and the random generator's exact state. A file of schema 4 or older held effects in creature
fields and rule keys of the memory: :mod:`sim.engine.snapshot_effects` reads them into effects. Loaded and played on, the fight gives the same events as if
it had never stopped (same seed): ``tests/engine/test_snapshot.py`` checks this after every
action of every shipped encounter.

It is generic, so that state added to the engine later is carried without changing this module:
every attribute of the :class:`~sim.engine.world.World` is saved except the ones in
:data:`DERIVED` (the spec, the grid and the memo tables, rebuilt from the encounter file), and
every value is written through one small table of types (:func:`encode`): plain JSON values,
lists, tuples and named tuples, sets, dicts, enums, numpy arrays and scalars, the random
generator, events, creatures (by id outside ``World.creatures``) and the engine's own dataclass
records, named tuples and enums (by their fields, recursively), each named by the declared tables
:data:`RECORDS`, :data:`NAMED` and :data:`ENUMS`. A value of any other type is refused loudly
(:class:`SnapshotTypeError`), naming the attribute: add its type to a table, or its attribute to
:data:`DERIVED` if it is a cache.

A snapshot is data (issue 34): reading one builds only the types of those tables, never a class
found through a module's attributes, never an import; a numpy array only of the dtypes in
:data:`DTYPES`, its size checked before it is built; every record field of its declared type,
every number bounded. A file naming anything else is refused before any of it is made.

A snapshot names its schema (:data:`SCHEMA`), the encounter file it was played from and the map
it belongs to (its name and a hash of its arrays, :func:`map_identity`). Reading one
(:func:`read_snapshot`) refuses a truncated or corrupt file, a newer schema, another map, a
record that does not fit the code and a state the fight cannot be in (:func:`~sim.engine.snapshot_state.check_state`), each
with one message naming the file and the key (a :class:`~sim.base.errors.DataError`: exit 2).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

import numpy as np

from sim.base.coords import Pos
from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import atomic_write_text, read_input
from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.effects import Effect
from sim.engine.encounter import Encounter
from sim.engine.events import Event, from_json
from sim.engine.notes import AINotes, notes_of_schema4
from sim.engine.snapshot_effects import OLD_FIELDS, effects_of_schema4
from sim.engine.snapshot_state import (
    MAX_CREATURES,
    MAX_EVENTS,
    MAX_FIELD,
    MAX_NAME_CHARS,
    MAX_WHOLE,
    _fits,
    _hints,
    _parent,
    _whole,
    check_state,
)
from sim.engine.zones import Zone
from sim.rules.bodies import Body
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks.types import (
    Abilities,
    Attack,
    Aura,
    AuraSpec,
    Defenses,
    Disagreement,
    Feat,
    NaturalEntry,
    Printed,
    PrintedAttack,
    Rider,
    RiderSpec,
    Saves,
    Senses,
    Source,
    Speeds,
    Spellcasting,
    SpellLike,
    StatBlock,
    SwarmSpec,
    SwarmStats,
    WeaponEntry,
)
from sim.rules.weapons import ArmorPiece, EnergyAbility, GearItem, Weapon
from sim.scenario.specs import EncounterSpec
from sim.terrain.grid import CaveGrid
from sim.terrain.vision.light import Light, LightGrid
from sim.terrain.vision.scene import DroppedLight
from sim.terrain.vision.sight import Sight

#: The snapshot format's version; a file naming another is refused.
SCHEMA = 5  # 2: one lit state for a lantern (Creature.light; lanterns_lit gone); 3: World.zones (grease);
#            4: World.inside and World.gizzard (swallow whole, engulf: docs/rules.md §11.13), and
#               split oozes (Creature.split_round, Defenses.split; halves beyond the encounter's
#               creatures: docs/rules.md §11.14); 5: a creature's lasting effects (Creature.effects,
#               sim.engine.effects) in place of its *_until fields, held, and rule state in memory
#: Older schemas read by adding what they lack: schema 2 had no lasting spell areas, 3 nobody
#: inside; a record of schema 3 or older lacks the fields schema 4 added (they take their
#: defaults: nothing split).
MIGRATIONS = {2: {"zones": []}, 3: {"inside": {}, "gizzard": {}}, 4: {}}
#: Record fields a schema added, filled with their defaults when an older snapshot lacks them
#: (4: split oozes, docs/rules.md §11.14; stat blocks' spell-like abilities, §8.5; the riders'
#: swallow-whole and strand numbers, §11.13, §11.15; energy vulnerability).
ADDED_FIELDS = {4: frozenset({"split_round", "split", "spell_like", "cut_hp", "holds", "count", "vulnerable"}),
                5: frozenset({"effects", "uses"})}
#: The largest snapshot read (bytes), checked before reading.
MAX_BYTES = 64 * 1024 * 1024
#: World attributes not saved: rebuilt from the encounter file (spec, grid), memo tables of pure
#: queries (performance only, never outcomes), who plays the creatures and whose dice are typed
#: (given on loading: the AI policy, the table's dice hand).
DERIVED = frozenset({"spec", "grid", "cache", "_fields", "_cats", "_low", "policy", "dice"})

# -- the only types a snapshot may name (data only) ---------------------------------------------------------------
#
# A snapshot is data: it names types only from these three tables, which map the names written
# (``module:Qualname``, as schemas 2-4 wrote them) to the engine's own record classes, imported
# above. Nothing is ever looked up through a module's attributes or imported by name: a file that
# names anything else (``numpy:memmap``, ``io:FileIO``, ``ctypes:CDLL``, ``os:system``) is refused
# before any of it is built, and the encoder refuses to write a type missing here, so that what is
# written can always be read. tests/engine/test_snapshot_safety.py proves the tables whole (every
# type the shipped fights write, every record type a creature or a world field can hold).

#: Dataclass records (``$record``): a creature, its stat block and what it holds, the turn, spell
#: zones, lights and the sight cache.
RECORDS: dict[str, type] = {
    "sim.engine.creature:Creature": Creature,
    "sim.engine.effects:Effect": Effect,
    "sim.engine.notes:AINotes": AINotes,
    "sim.engine.actions:Turn": Turn,
    "sim.engine.zones:Zone": Zone,
    "sim.rules.bodies:Body": Body,
    "sim.rules.dice:Dice": Dice,
    "sim.rules.statblocks.types:Abilities": Abilities,
    "sim.rules.statblocks.types:Attack": Attack,
    "sim.rules.statblocks.types:Aura": Aura,
    "sim.rules.statblocks.types:AuraSpec": AuraSpec,
    "sim.rules.statblocks.types:Defenses": Defenses,
    "sim.rules.statblocks.types:Disagreement": Disagreement,
    "sim.rules.statblocks.types:Feat": Feat,
    "sim.rules.statblocks.types:NaturalEntry": NaturalEntry,
    "sim.rules.statblocks.types:Printed": Printed,
    "sim.rules.statblocks.types:PrintedAttack": PrintedAttack,
    "sim.rules.statblocks.types:Rider": Rider,
    "sim.rules.statblocks.types:RiderSpec": RiderSpec,
    "sim.rules.statblocks.types:Saves": Saves,
    "sim.rules.statblocks.types:Senses": Senses,
    "sim.rules.statblocks.types:Source": Source,
    "sim.rules.statblocks.types:Speeds": Speeds,
    "sim.rules.statblocks.types:SpellLike": SpellLike,
    "sim.rules.statblocks.types:Spellcasting": Spellcasting,
    "sim.rules.statblocks.types:StatBlock": StatBlock,
    "sim.rules.statblocks.types:SwarmSpec": SwarmSpec,
    "sim.rules.statblocks.types:SwarmStats": SwarmStats,
    "sim.rules.statblocks.types:WeaponEntry": WeaponEntry,
    "sim.rules.weapons:ArmorPiece": ArmorPiece,
    "sim.rules.weapons:EnergyAbility": EnergyAbility,
    "sim.rules.weapons:GearItem": GearItem,
    "sim.rules.weapons:Weapon": Weapon,
    "sim.terrain.vision.light:Light": Light,
    "sim.terrain.vision.light:LightGrid": LightGrid,
    "sim.terrain.vision.scene:DroppedLight": DroppedLight,
    "sim.terrain.vision.sight:Sight": Sight,
}
#: Named tuples (``$named``).
NAMED: dict[str, type] = {"sim.base.coords:Pos": Pos}
#: Enumerations (``$enum``).
ENUMS: dict[str, type] = {"sim.rules.sizes:Size": Size}
#: The name each allowed type is written under (the tables above, reversed).
_NAMES: dict[type, str] = {cls: name for table in (RECORDS, NAMED, ENUMS) for name, cls in table.items()}
#: numpy dtypes an ``$array`` or ``$np`` may have: booleans, integers and floats (never object,
#: string, void or structured dtypes).
DTYPES = frozenset({"|b1", "|i1", "|u1"} | {f"{order}{kind}{size}" for order in "<>" for kind in "iuf" for size in "248"})
#: The most elements one ``$array`` may hold (a 4096 x 4096 map's layer), checked before allocating.
MAX_ARRAY_ITEMS = 4096 * 4096



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


def _written(t: type, table: dict[str, type], path: Any) -> str:
    """The name ``t`` is written under: only a type of :data:`RECORDS`, :data:`NAMED` or
    :data:`ENUMS` (its own table) is saved, so that every snapshot written can be read."""
    name = _NAMES.get(t)
    if name is None or table.get(name) is not t:
        raise SnapshotTypeError(f"{_where(path)}: a {_qualname(t)} cannot be saved in a snapshot; add its type to the "
                                "table in sim.engine.snapshot (RECORDS, NAMED or ENUMS; or the attribute to DERIVED "
                                "if it is a cache)")
    return name


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
            return {"$named": _written(t, NAMED, path), "items": [self.value(x, (path, i)) for i, x in enumerate(v)]}
        if t in (set, frozenset):
            items = [self.value(x, (path, "{}")) for x in v]
            items.sort(key=lambda x: json.dumps(x, sort_keys=True))
            return {"$set" if t is set else "$frozenset": items}
        if t is dict:
            if all(type(k) is str and not k.startswith("$") for k in v):
                return {k: self.value(x, (path, k)) for k, x in v.items()}
            return {"$dict": [[self.value(k, (path, "key")), self.value(x, (path, k))] for k, x in v.items()]}
        if isinstance(v, enum.Enum):
            return {"$enum": _written(t, ENUMS, path), "name": v.name}
        if isinstance(v, np.ndarray):
            if v.dtype.str not in DTYPES:
                raise SnapshotTypeError(f"{_where(path)}: a numpy array of {v.dtype} cannot be saved in a snapshot")
            return {"$array": v.dtype.str, "shape": list(v.shape), "data": v.tolist()}
        if isinstance(v, np.generic):
            if v.dtype.str not in DTYPES:
                raise SnapshotTypeError(f"{_where(path)}: a numpy {v.dtype} cannot be saved in a snapshot")
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
        name = _written(t, RECORDS, path)
        frozen = t.__dataclass_params__.frozen
        if frozen:
            n = self.ids.get(id(v))
            if n is not None:
                return {"$ref": n}
        out: dict[str, Any] = {"$record": name}
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

    def __init__(self, path: str, what: str, *, fix: str = "the file is damaged or from another version"):
        self.path, self.what, self.fix = _where(path), what, fix
        super().__init__(f"{self.path}: {what}")


def _lookup(qual: Any, table: dict[str, type], kind: str, path: str) -> type:
    """The class ``table`` names ``qual`` (one of :data:`RECORDS`, :data:`NAMED`, :data:`ENUMS`):
    nothing else is ever built, imported or looked up."""
    cls = table.get(qual) if isinstance(qual, str) else None
    if cls is None:
        raise _Bad(path, f"{shorten(qual)} is not {kind} a snapshot may hold", fix="a snapshot is data and names "
                   "only the engine's own records: refused, nothing was built (a file that names others was not "
                   "written by cavesim)")
    return cls


def _count(v: Any) -> int:
    """The number of leaves of a nested list (an ``$array``'s data), or -1 if it is not one of
    numbers (bool, int, float) with every list of a level as long."""
    if not isinstance(v, list):
        return -1
    level, n = [v], 1
    while level and isinstance(level[0], list):
        width = len(level[0])
        if any(not isinstance(x, list) or len(x) != width for x in level):
            return -1
        n *= width
        level = [y for x in level for y in x]
        if n > MAX_ARRAY_ITEMS:
            return -1
    if any(type(x) not in (bool, int, float) for x in level):
        return -1
    return n


class _Decoder:
    def __init__(self, creatures: dict[str, Creature], schema: int = SCHEMA):
        self.refs: dict[int, Any] = {}
        self.creatures = creatures
        self.optional = frozenset().union(*(f for s, f in ADDED_FIELDS.items() if s > schema))

    def value(self, v: Any, path: str) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if type(v) is int:
            if not -MAX_WHOLE <= v <= MAX_WHOLE:
                try:
                    digits = f"{len(str(abs(v)))} digits"
                except ValueError:  # past Python's limit for printing a number
                    digits = "thousands of digits"
                raise _Bad(path, f"a whole number of {digits}; no number in a fight is that large (at most "
                                 f"{MAX_WHOLE})")
            return v
        if type(v) is float:
            if v != v or v in (float("inf"), float("-inf")):
                raise _Bad(path, f"{v}: not a number a fight holds")
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
            cls = _lookup(body, NAMED, "a named tuple", path)
            items = self._list(v.get("items"), path)
            if len(items) != len(cls._fields):
                raise _Bad(path, f"{len(items)} values do not fit {body} ({len(cls._fields)})")
            return cls(*(self.value(x, (path, i)) for i, x in enumerate(items)))
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
            cls = _lookup(body, ENUMS, "an enumeration", path)
            name = v.get("name")
            if not isinstance(name, str) or name not in cls.__members__:
                raise _Bad(path, f"{shorten(name)} is not a member of {body}")
            return cls[name]
        if tag == "$array":
            return self.array(v, body, path)
        if tag == "$np":
            x = v.get("value")
            if not isinstance(body, str) or body not in DTYPES or type(x) not in (bool, int, float):
                raise _Bad(path, f"not a numpy number (dtype {shorten(body)}, value {shorten(x)}); a snapshot holds "
                                 f"only {', '.join(sorted(DTYPES))}")
            try:
                return np.dtype(body).type(x)
            except (TypeError, ValueError, OverflowError) as exc:
                raise _Bad(path, f"not a numpy number ({shorten(str(exc), 100)})") from None
        if tag == "$rng":
            return self.rng(body, path)
        if tag == "$event":
            if not isinstance(body, dict):
                raise _Bad(path, "not an event")
            try:
                return from_json(body)
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                raise _Bad(path, f"not an event ({shorten(str(exc), 100)})") from None
        if tag == "$creature":
            c = self.creatures.get(body) if isinstance(body, str) else None
            if c is None:
                raise _Bad(path, f"no creature {shorten(body)} in the snapshot")
            return c
        if tag == "$path":   # data only: a path is never opened here
            if not isinstance(body, str) or len(body) > MAX_NAME_CHARS or "\0" in body:
                raise _Bad(path, f"{shorten(body)} is not a file path")
            return Path(body)
        if tag == "$ref":
            if type(body) is not int or body not in self.refs:
                raise _Bad(path, f"refers to record {shorten(body)}, which comes nowhere before")
            return self.refs[body]
        if tag == "$record":
            return self.record(v, path)
        raise _Bad(path, f"unknown tag {shorten(tag)}")

    @staticmethod
    def array(v: dict, body: Any, path: str) -> np.ndarray:
        """An ``$array``: a dtype of :data:`DTYPES`, a shape of at most :data:`MAX_ARRAY_ITEMS`
        elements, and data of exactly that many numbers, all checked before the array is built."""
        if not isinstance(body, str) or body not in DTYPES:
            raise _Bad(path, f"a numpy array of dtype {shorten(body)}; a snapshot holds only "
                             f"{', '.join(sorted(DTYPES))}")
        shape = v.get("shape")
        if not (isinstance(shape, list) and len(shape) <= 4 and all(_whole(n, 0, MAX_ARRAY_ITEMS) for n in shape)):
            raise _Bad(path, f"shape {shorten(shape)} is not a list of at most 4 sizes")
        size = 1
        for n in shape:
            size *= n
        if size > MAX_ARRAY_ITEMS:
            raise _Bad(path, f"shape {shorten(shape)} holds {size} values, over the limit of {MAX_ARRAY_ITEMS}")
        data = v.get("data")
        n = _count(data) if shape else (1 if type(data) in (bool, int, float) else -1)
        if n != size:
            raise _Bad(path, f"its data are not {size} numbers of shape {shape}")
        try:
            return np.array(data, dtype=np.dtype(body)).reshape(shape)
        except (TypeError, ValueError, OverflowError) as exc:
            raise _Bad(path, f"not a numpy array of {body} ({shorten(str(exc), 100)})") from None

    @staticmethod
    def rng(body: Any, path: str) -> np.random.Generator:
        """A random generator from its state: numpy's PCG64, a 128-bit state and increment."""
        rng = np.random.default_rng()
        kind = type(rng.bit_generator).__name__
        if not isinstance(body, dict) or body.get("bit_generator") != kind:
            got = body.get("bit_generator") if isinstance(body, dict) else body
            raise _Bad(path, f"a {shorten(got)} generator; this cavesim uses {kind}")
        st = body.get("state")
        if not (isinstance(st, dict) and set(st) == {"state", "inc"}
                and all(_whole(st[k], 0, 2 ** 128 - 1) for k in st)
                and _whole(body.get("has_uint32"), 0, 1) and _whole(body.get("uinteger"), 0, 2 ** 32 - 1)
                and set(body) == {"bit_generator", "state", "has_uint32", "uinteger"}):
            raise _Bad(path, f"not a {kind} generator's state (state and inc from 0 to 2^128 - 1, has_uint32 0 or "
                             "1, uinteger from 0 to 2^32 - 1)")
        try:
            rng.bit_generator.state = body
        except (TypeError, ValueError, OverflowError, KeyError) as exc:
            raise _Bad(path, f"not a random generator's state ({shorten(str(exc), 100)})") from None
        return rng

    @staticmethod
    def _list(v: Any, path: str) -> list:
        if not isinstance(v, list):
            raise _Bad(path, "should be a list")
        return v

    def record(self, v: Any, path: str) -> Any:
        if not isinstance(v, dict) or "$record" not in v:
            raise _Bad(path, "should be a record")
        cls = _lookup(v["$record"], RECORDS, "a record type", path)
        fields = v.get("fields")
        if not isinstance(fields, dict):
            raise _Bad(path, "a record without its fields")
        names = [f.name for f in dataclasses.fields(cls)]
        extra = sorted(set(fields) - set(names))
        missing = [n for n in names if n not in fields and n not in self.optional]
        if extra or missing:
            raise _Bad(path, shorten_text(f"does not fit {v['$record']} (" + "; ".join(
                ([f"unknown field(s) {', '.join(extra)}"] if extra else [])
                + ([f"missing field(s) {', '.join(missing)}"] if missing else [])) + ")"))
        kwargs = {n: self.value(fields[n], (path, n)) for n in names if n in fields}
        hints = _hints(cls)
        for n, x in kwargs.items():   # every field of its declared type, its numbers bounded
            if not _fits(x, hints[n]):
                raise _Bad((path, n), f"{shorten(x)} is not a {hints[n]}")
            if type(x) in (int, float) and not -MAX_FIELD <= x <= MAX_FIELD:
                raise _Bad((path, n), f"{shorten(x)}: no {n} of a fight is that large (at most {MAX_FIELD})")
        init = {f.name for f in dataclasses.fields(cls) if f.init}
        try:
            obj = cls(**{k: x for k, x in kwargs.items() if k in init})
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            raise _Bad(path, f"does not fit {v['$record']}: {shorten_text(str(exc), 100)}") from None
        for k, x in kwargs.items():
            if k not in init:
                object.__setattr__(obj, k, x)
        if "$id" in v:
            if type(v["$id"]) is not int or v["$id"] in self.refs:
                raise _Bad(path, f"record number {shorten(v['$id'])} is not a new whole number")
            self.refs[v["$id"]] = obj
        return obj


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
    if schema != SCHEMA and schema not in MIGRATIONS:
        raise DataError(f"{path}: cavesim_snapshot: schema {shorten(schema)} is not one this cavesim reads ({SCHEMA})")
    for key, kind in (("encounter", str), ("map", dict), ("state", dict)):
        if not isinstance(data.get(key), kind):
            raise DataError(f"{path}: {key}: missing or not a {kind.__name__}; the file is damaged, save again")
    if len(data["encounter"]) > MAX_NAME_CHARS or "\0" in data["encounter"]:
        raise DataError(f"{path}: encounter: {shorten(data['encounter'])} is not a file path")
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
        raise DataError(f"{path}: map: the snapshot belongs to the map {shorten(saved.get('name'))} "
                        f"({shorten(saved.get('hash'), 80)}), but {spec.path} is on {ident['name']!r} ({ident['hash']}); "
                        "give the encounter it was saved from")
    w = _restore(path, spec, data["state"], policy, schema=schema)
    return w, enc_file


def _restore(path: Path, spec: EncounterSpec, state: dict, policy: Callable | None,
             shared: dict | None = None, schema: int = SCHEMA) -> Encounter:
    w = Encounter(spec, policy=policy, shared=shared)
    fresh = {n for n in vars(w) if n not in DERIVED}
    unknown = sorted(set(state) - fresh)
    if unknown:
        raise DataError(f"{path}: state.{shorten_text(unknown[0], 60)}: not part of a fight in this cavesim; the snapshot was "
                        "written by another version")
    missing = sorted(fresh - set(state))
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
    bad_event = next((i for i, e in enumerate(events) if not (isinstance(e, dict) and set(e) == {"$event"})), None)
    if bad_event is not None:
        raise DataError(f"{path}: state.events[{bad_event}]: is not an event; the file is damaged")
    halves = [cid for cid in raw if cid not in w.creatures]
    if not set(w.creatures) <= set(raw) or any(_parent(cid, w.creatures) is None for cid in halves):
        raise DataError(f"{path}: state.creatures: " + shorten_text(f"the creatures {sorted(raw)}", 200)
                        + " are not the encounter's " + shorten_text(f"{sorted(w.creatures)}", 200) + "; give the encounter it was saved from")
    creatures: dict[str, Creature] = {}
    dec = _Decoder(creatures, schema)
    old: dict[str, dict[str, Any]] = {}
    try:
        for cid, rec in raw.items():
            if schema < 5 and isinstance(rec, dict) and isinstance(rec.get("fields"), dict):
                rec = {**rec, "fields": {k: x for k, x in rec["fields"].items() if k not in OLD_FIELDS}}
                old[cid] = {k: dec.value(x, f"state.creatures.{cid}.fields.{k}")
                            for k, x in raw[cid]["fields"].items() if k in OLD_FIELDS}
            c = dec.record(rec, f"state.creatures.{cid}")
            if not isinstance(c, Creature):
                raise _Bad(f"state.creatures.{cid}", "is not a creature")
            creatures[cid] = c
        values = {name: dec.value(v, f"state.{name}") for name, v in state.items() if name != "creatures"}
        if schema < 5:
            effects_of_schema4(creatures, old, values.get("memory"))
            if isinstance(values.get("memory"), dict):
                values["memory"] = notes_of_schema4(values["memory"])
    except _Bad as exc:
        raise DataError(f"{path}: {shorten_text(exc.path, 200)}: {exc.what}; {exc.fix}") from None
    except ValueError as exc:   # an old schema's effect that is not what that schema wrote
        raise DataError(f"{path}: {shorten_text(str(exc), 200)}; the file is damaged") from None
    except RecursionError:
        raise DataError(f"{path}: state: nested too deep; not a cavesim snapshot") from None
    for name, v in values.items():
        want = type(getattr(w, name))
        if getattr(w, name) is not None and v is not None and not isinstance(v, want) or (
                want is int and type(v) is bool):
            raise DataError(f"{path}: state.{name}: a {type(v).__name__} where a fight has a {want.__name__}")
        setattr(w, name, v)
    originals = w.creatures
    w.creatures = creatures
    w._vision_key = w._vision = None   # the sight cache: rebuilt from the state (a pure function of it)
    problems = check_state(w, originals)
    if problems:
        key, what = problems[0]
        raise DataError(f"{path}: {shorten_text(key, 200)}: {what}; a snapshot must hold a state the fight can be in")
    return w


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
