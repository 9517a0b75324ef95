"""The tagged encoding of a saved game's values (issue 20, issue 34 item 6): how one value of a
fight's state is written to JSON and read back.

Plain JSON values stand for themselves; the rest is a one-key table naming its kind: ``$tuple``,
``$set``, ``$frozenset``, ``$dict`` (keys that are not plain strings), ``$named`` (a named tuple),
``$enum``, ``$record`` (a dataclass record, by its fields; a frozen one met again is a ``$ref``),
``$array`` and ``$np`` (numpy, only the dtypes of :data:`DTYPES`), ``$rng``, ``$event``,
``$creature`` (a creature by id) and ``$path``. The names a file may give a ``$named``, ``$enum``
or ``$record`` come from a declared table (:class:`Names`: the schema's, or an old schema's):
reading builds only those types, never a class found through a module's attributes, never an
import; every record field is checked against its declared type and bounded. A value of any
other type is refused when written (:class:`SnapshotTypeError`) and when read (:class:`Bad`).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from sim.base.errors import shorten, shorten_text
from sim.engine.creature import Creature
from sim.engine.events import Event, from_json
from sim.engine.saved.state import MAX_FIELD, MAX_NAME_CHARS, MAX_WHOLE, _fits, _hints, _whole

#: numpy dtypes an ``$array`` or ``$np`` may have: booleans, integers and floats (never object,
#: string, void or structured dtypes).
DTYPES = frozenset({"|b1", "|i1", "|u1"} | {f"{order}{kind}{size}" for order in "<>" for kind in "iuf" for size in "248"})
#: The most elements one ``$array`` may hold (a 4096 x 4096 map's layer), checked before allocating.
MAX_ARRAY_ITEMS = 4096 * 4096


class SnapshotTypeError(TypeError):
    """A value in the fight's state whose type the snapshot table does not know (a bug to fix in
    the code, not bad input)."""


def qualname(obj_type: type) -> str:
    """``module:Qualname`` of a type (only for a message)."""
    return f"{obj_type.__module__}:{obj_type.__qualname__}"


@dataclass(frozen=True)
class Names:
    """The types a saved game may name, one table per tag (name written -> type): ``records``
    for ``$record``, ``named`` for ``$named``, ``enums`` for ``$enum``. Nothing else is built."""

    records: Mapping[str, type]
    named: Mapping[str, type]
    enums: Mapping[str, type]

    def written(self) -> dict[tuple[str, type], str]:
        """(table, type) -> the name the type is written under there (the first it has)."""
        return {(table, cls): name for table in ("records", "named", "enums")
                for name, cls in reversed(getattr(self, table).items())}



def where(path: Any) -> str:
    """A key path kept as nested (parent, key) pairs, written out (only for a message)."""
    keys = []
    while isinstance(path, tuple):
        path, key = path
        keys.append(key)
    out = str(path)
    for key in reversed(keys):
        out += f"[{key}]" if isinstance(key, int) else ("" if key == "{}" else f".{key}")
    return out


# -- encoding ------------------------------------------------------------------------------------------------------

class Encoder:
    """Writes a value through the tagged encoding, naming its records by ``names``; a frozen
    record met twice is written once and referred to (``$ref``) after."""

    def __init__(self, names: Names):
        self.written = names.written()
        self.ids: dict[int, int] = {}     # id() of a frozen record written already -> its number
        self.keep: list = []              # the records numbered (so their id() stays theirs)

    def name_of(self, t: type, table: str, path: Any) -> str:
        """The name ``t`` is written under in its own table (``records``, ``named`` or
        ``enums``), so that every value written can be read."""
        found = self.written.get((table, t))
        if found is None:
            raise SnapshotTypeError(f"{where(path)}: a {qualname(t)} cannot be saved in a snapshot; add its type to the "
                                    "schema (sim.engine.saved.schema.RECORD_TYPES)")
        return found

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
            return {"$named": self.name_of(t, "named", path),
                    "items": [self.value(x, (path, i)) for i, x in enumerate(v)]}
        if t in (set, frozenset):
            items = [self.value(x, (path, "{}")) for x in v]
            items.sort(key=lambda x: json.dumps(x, sort_keys=True))
            return {"$set" if t is set else "$frozenset": items}
        if t is dict:
            if all(type(k) is str and not k.startswith("$") for k in v):
                return {k: self.value(x, (path, k)) for k, x in v.items()}
            return {"$dict": [[self.value(k, (path, "key")), self.value(x, (path, k))] for k, x in v.items()]}
        if isinstance(v, enum.Enum):
            return {"$enum": self.name_of(t, "enums", path), "name": v.name}
        if isinstance(v, np.ndarray):
            if v.dtype.str not in DTYPES:
                raise SnapshotTypeError(f"{where(path)}: a numpy array of {v.dtype} cannot be saved in a snapshot")
            return {"$array": v.dtype.str, "shape": list(v.shape), "data": v.tolist()}
        if isinstance(v, np.generic):
            if v.dtype.str not in DTYPES:
                raise SnapshotTypeError(f"{where(path)}: a numpy {v.dtype} cannot be saved in a snapshot")
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
        raise SnapshotTypeError(f"{where(path)}: a {qualname(t)} cannot be saved in a snapshot; add its type to the "
                                "schema (sim.engine.saved.schema)")

    def record(self, v: Any, path: str) -> dict:
        t = type(v)
        name = self.name_of(t, "records", path)
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


# -- decoding ------------------------------------------------------------------------------------------------------

class Bad(Exception):
    """A snapshot value that does not fit (key path, what is wrong)."""

    def __init__(self, path: str, what: str, *, fix: str = "the file is damaged or from another version"):
        self.path, self.what, self.fix = where(path), what, fix
        super().__init__(f"{self.path}: {what}")


def _lookup(qual: Any, table: dict[str, type], kind: str, path: str) -> type:
    """The class ``table`` (one of a :class:`Names`' tables) names ``qual``: nothing else is ever
    built, imported or looked up."""
    cls = table.get(qual) if isinstance(qual, str) else None
    if cls is None:
        raise Bad(path, f"{shorten(qual)} is not {kind} a snapshot may hold", fix="a snapshot is data and names "
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


class Decoder:
    """Reads a value of the tagged encoding, building only the types ``names`` declares;
    ``creatures``: the creatures read so far (a ``$creature`` is one of them by id);
    ``optional``: record fields a file may lack (they take their defaults: fields an older
    schema did not have)."""

    def __init__(self, names: Names, creatures: dict[str, Creature], optional: frozenset[str] = frozenset()):
        self.names = names
        self.refs: dict[int, Any] = {}
        self.creatures = creatures
        self.optional = optional

    def value(self, v: Any, path: str) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if type(v) is int:
            if not -MAX_WHOLE <= v <= MAX_WHOLE:
                try:
                    digits = f"{len(str(abs(v)))} digits"
                except ValueError:  # past Python's limit for printing a number
                    digits = "thousands of digits"
                raise Bad(path, f"a whole number of {digits}; no number in a fight is that large (at most "
                                 f"{MAX_WHOLE})")
            return v
        if type(v) is float:
            if v != v or v in (float("inf"), float("-inf")):
                raise Bad(path, f"{v}: not a number a fight holds")
            return v
        if isinstance(v, list):
            return [self.value(x, (path, i)) for i, x in enumerate(v)]
        if not isinstance(v, dict):
            raise Bad(path, f"unexpected {type(v).__name__}")
        tag = next(iter(v), None)
        if not (isinstance(tag, str) and tag.startswith("$")):
            return {k: self.value(x, (path, k)) for k, x in v.items()}
        body = v[tag]
        if tag == "$tuple":
            return tuple(self.value(x, (path, i)) for i, x in enumerate(self._list(body, path)))
        if tag == "$named":
            cls = _lookup(body, self.names.named, "a named tuple", path)
            items = self._list(v.get("items"), path)
            if len(items) != len(cls._fields):
                raise Bad(path, f"{len(items)} values do not fit {body} ({len(cls._fields)})")
            return cls(*(self.value(x, (path, i)) for i, x in enumerate(items)))
        if tag in ("$set", "$frozenset"):
            items = [self.value(x, (path, "{}")) for x in self._list(body, path)]
            try:
                return set(items) if tag == "$set" else frozenset(items)
            except TypeError:
                raise Bad(path, "a set of values that cannot be in a set") from None
        if tag == "$dict":
            out = {}
            for i, pair in enumerate(self._list(body, path)):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise Bad((path, i), "not a [key, value] pair")
                try:
                    out[self.value(pair[0], ((path, i), "key"))] = self.value(pair[1], (path, i))
                except TypeError:
                    raise Bad((path, i), "a key that cannot be a dict key") from None
            return out
        if tag == "$enum":
            cls = _lookup(body, self.names.enums, "an enumeration", path)
            name = v.get("name")
            if not isinstance(name, str) or name not in cls.__members__:
                raise Bad(path, f"{shorten(name)} is not a member of {body}")
            return cls[name]
        if tag == "$array":
            return self.array(v, body, path)
        if tag == "$np":
            x = v.get("value")
            if not isinstance(body, str) or body not in DTYPES or type(x) not in (bool, int, float):
                raise Bad(path, f"not a numpy number (dtype {shorten(body)}, value {shorten(x)}); a snapshot holds "
                                 f"only {', '.join(sorted(DTYPES))}")
            try:
                return np.dtype(body).type(x)
            except (TypeError, ValueError, OverflowError) as exc:
                raise Bad(path, f"not a numpy number ({shorten(str(exc), 100)})") from None
        if tag == "$rng":
            return self.rng(body, path)
        if tag == "$event":
            if not isinstance(body, dict):
                raise Bad(path, "not an event")
            try:
                return from_json(body)
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                raise Bad(path, f"not an event ({shorten(str(exc), 100)})") from None
        if tag == "$creature":
            c = self.creatures.get(body) if isinstance(body, str) else None
            if c is None:
                raise Bad(path, f"no creature {shorten(body)} in the snapshot")
            return c
        if tag == "$path":   # data only: a path is never opened here
            if not isinstance(body, str) or len(body) > MAX_NAME_CHARS or "\0" in body:
                raise Bad(path, f"{shorten(body)} is not a file path")
            return Path(body)
        if tag == "$ref":
            if type(body) is not int or body not in self.refs:
                raise Bad(path, f"refers to record {shorten(body)}, which comes nowhere before")
            return self.refs[body]
        if tag == "$record":
            return self.record(v, path)
        raise Bad(path, f"unknown tag {shorten(tag)}")

    @staticmethod
    def array(v: dict, body: Any, path: str) -> np.ndarray:
        """An ``$array``: a dtype of :data:`DTYPES`, a shape of at most :data:`MAX_ARRAY_ITEMS`
        elements, and data of exactly that many numbers, all checked before the array is built."""
        if not isinstance(body, str) or body not in DTYPES:
            raise Bad(path, f"a numpy array of dtype {shorten(body)}; a snapshot holds only "
                             f"{', '.join(sorted(DTYPES))}")
        shape = v.get("shape")
        if not (isinstance(shape, list) and len(shape) <= 4 and all(_whole(n, 0, MAX_ARRAY_ITEMS) for n in shape)):
            raise Bad(path, f"shape {shorten(shape)} is not a list of at most 4 sizes")
        size = 1
        for n in shape:
            size *= n
        if size > MAX_ARRAY_ITEMS:
            raise Bad(path, f"shape {shorten(shape)} holds {size} values, over the limit of {MAX_ARRAY_ITEMS}")
        data = v.get("data")
        n = _count(data) if shape else (1 if type(data) in (bool, int, float) else -1)
        if n != size:
            raise Bad(path, f"its data are not {size} numbers of shape {shape}")
        try:
            return np.array(data, dtype=np.dtype(body)).reshape(shape)
        except (TypeError, ValueError, OverflowError) as exc:
            raise Bad(path, f"not a numpy array of {body} ({shorten(str(exc), 100)})") from None

    @staticmethod
    def rng(body: Any, path: str) -> np.random.Generator:
        """A random generator from its state: numpy's PCG64, a 128-bit state and increment."""
        rng = np.random.default_rng()
        kind = type(rng.bit_generator).__name__
        if not isinstance(body, dict) or body.get("bit_generator") != kind:
            got = body.get("bit_generator") if isinstance(body, dict) else body
            raise Bad(path, f"a {shorten(got)} generator; this cavesim uses {kind}")
        st = body.get("state")
        if not (isinstance(st, dict) and set(st) == {"state", "inc"}
                and all(_whole(st[k], 0, 2 ** 128 - 1) for k in st)
                and _whole(body.get("has_uint32"), 0, 1) and _whole(body.get("uinteger"), 0, 2 ** 32 - 1)
                and set(body) == {"bit_generator", "state", "has_uint32", "uinteger"}):
            raise Bad(path, f"not a {kind} generator's state (state and inc from 0 to 2^128 - 1, has_uint32 0 or "
                             "1, uinteger from 0 to 2^32 - 1)")
        try:
            rng.bit_generator.state = body
        except (TypeError, ValueError, OverflowError, KeyError) as exc:
            raise Bad(path, f"not a random generator's state ({shorten(str(exc), 100)})") from None
        return rng

    @staticmethod
    def _list(v: Any, path: str) -> list:
        if not isinstance(v, list):
            raise Bad(path, "should be a list")
        return v

    def record(self, v: Any, path: str) -> Any:
        if not isinstance(v, dict) or "$record" not in v:
            raise Bad(path, "should be a record")
        cls = _lookup(v["$record"], self.names.records, "a record type", path)
        fields = v.get("fields")
        if not isinstance(fields, dict):
            raise Bad(path, "a record without its fields")
        names = [f.name for f in dataclasses.fields(cls)]
        extra = sorted(set(fields) - set(names))
        missing = [n for n in names if n not in fields and n not in self.optional]
        if extra or missing:
            raise Bad(path, shorten_text(f"does not fit {v['$record']} (" + "; ".join(
                ([f"unknown field(s) {', '.join(extra)}"] if extra else [])
                + ([f"missing field(s) {', '.join(missing)}"] if missing else [])) + ")"))
        kwargs = {n: self.value(fields[n], (path, n)) for n in names if n in fields}
        hints = _hints(cls)
        for n, x in kwargs.items():   # every field of its declared type, its numbers bounded
            if not _fits(x, hints[n]):
                raise Bad((path, n), f"{shorten(x)} is not a {hints[n]}")
            if type(x) in (int, float) and not -MAX_FIELD <= x <= MAX_FIELD:
                raise Bad((path, n), f"{shorten(x)}: no {n} of a fight is that large (at most {MAX_FIELD})")
        init = {f.name for f in dataclasses.fields(cls) if f.init}
        try:
            obj = cls(**{k: x for k, x in kwargs.items() if k in init})
        except (TypeError, ValueError, KeyError, AttributeError, ArithmeticError) as exc:
            raise Bad(path, f"does not fit {v['$record']}: {shorten_text(str(exc), 100)}") from None
        for k, x in kwargs.items():
            if k not in init:
                object.__setattr__(obj, k, x)
        if "$id" in v:
            if type(v["$id"]) is not int or v["$id"] in self.refs:
                raise Bad(path, f"record number {shorten(v['$id'])} is not a new whole number")
            self.refs[v["$id"]] = obj
        return obj

