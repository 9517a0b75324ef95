"""Saved games as the old cavesims wrote them, for the tests of the old schemas' readers.

:func:`old_file` turns a file of today's schema into the layout a schema 2, 3 or 4 cavesim wrote
(``vars(world)`` with the loose attributes the world's parts replaced, its records named by
module path), so a test can give the readers of sim.engine.saved.legacy any fight; files
those cavesims really wrote are in tests/data/snapshots (tests/engine/test_snapshot_schemas.py
checks both load the same).
"""

from __future__ import annotations

from typing import Any

from sim.engine.saved.legacy import OLD_NAMES
from sim.engine.saved.schema import NAMES
from sim.engine.saved.state import FIGHT_FIELDS

_TAGS = {"$record": "records", "$named": "named", "$enum": "enums"}


def _old_name(tag: str, name: str) -> str:
    """The module path an old file wrote for today's ``name`` (the first OLD_NAMES has)."""
    cls = getattr(NAMES, _TAGS[tag])[name]
    return next(old for old, c in getattr(OLD_NAMES, _TAGS[tag]).items() if c is cls)


def _renamed(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: (_old_name(k, x) if k in _TAGS else _renamed(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [_renamed(x) for x in v]
    return v


_EMPTY = ({}, {"$set": []}, {"$dict": []})


def _old_memory(notes: dict) -> dict:
    """The AI's notes (today an ``AINotes`` record) as the memory table of the old files: one
    entry per note kept, under the note's name (sim.engine.notes.notes_of_schema4 reads it back)."""
    return {name: v for name, v in notes["fields"].items() if v not in _EMPTY}


def _old_creature(rec: dict) -> dict:
    """A creature record without the fields schema 5 added (its effects and use counters, which
    the old files kept in fields and memory keys: only a creature without any is converted)."""
    fields = dict(rec["fields"])
    for name in ("effects", "uses"):
        assert fields.pop(name) in ([], {}, {"$dict": []}), f"old_file converts no {name}: {fields['id']}"
    return {**rec, "fields": fields}


def old_file(data: dict, schema: int) -> dict:
    """``data``, a saved game of today's schema, as the cavesim of ``schema`` (2-4) wrote it."""
    s = data["state"]
    old = {name: s[name] for name in FIGHT_FIELDS}
    old.update(rng={"$rng": s["rng"]}, creatures={cid: _old_creature(r) for cid, r in s["creatures"].items()},
               events=[{"$event": e} for e in s["events"]], memory=_old_memory(s["memory"]), damage_while_casting=s["casting"]["wounds"], last_damage=0,
               pending_move=s["movement"]["pending"], moved_this=s["movement"]["provoked"],
               dropped_lights=s["floor"]["lights"], pending_grabs=s["grabs"]["pending"],
               spell_lights=s["magic"]["lights"], _vision_key=None, _vision=None)
    if schema >= 3:
        old["zones"] = s["magic"]["zones"]
    if schema >= 4:
        old["inside"], old["gizzard"] = s["swallowed"]["inside"], s["swallowed"]["gizzard"]
    return {**data, "cavesim_snapshot": schema, "state": _renamed(old)}
