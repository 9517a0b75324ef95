"""Saved games of schema 4 and older into effects (issue 33 item 1): those files held a creature's
lasting effects in its own fields (``blessed_until``, ``rage_until``, ``asleep_until``, ``held``,
``paralyzed_until``) and in the fight's memory under rule keys (``("confused_until", id)``,
``("knocked_out", id)``, ``"glitter:ID"``, a roper's strands, a web's hold, the spell-like
effects and uses, grease, web and cloud notes); :func:`effects_of_schema4` turns each into the
:class:`~sim.engine.effects.Effect` (or the use counter, ``Creature.uses``) the engine holds now,
so that the fight plays on exactly as the code that saved it would have
(tests/engine/test_effects.py: saved files of schema 4, played on to the same events).
"""

from __future__ import annotations

from typing import Any

from sim.base.errors import shorten
from sim.engine.creature import Creature
from sim.engine.effects import Effect, put
from sim.engine.saved.state import MAX_FIELD, _whole

#: The creature fields of schema 4 and older that are effects now (read, then left out).
OLD_FIELDS = frozenset({"blessed_until", "rage_until", "asleep_until", "held", "paralyzed_until"})
#: Each old "last round" field and the kind of effect it was (0: none).
_UNTIL_FIELDS = (("blessed_until", "blessed"), ("rage_until", "raging"), ("asleep_until", "asleep"),
                 ("paralyzed_until", "paralyzed"))
#: The spell-like effects' memory keys (``KIND:ID`` -> the last round).
_GLAMERS = ("invisible", "outlined", "enlarged", "blurred")


def _whole_at(v: Any, key: str) -> int:
    """A round, a DC, a count or feet of an old field or memory key (refused: anything else)."""
    if not _whole(v, 0, MAX_FIELD):
        raise ValueError(f"{key}: {shorten(v)} is not a whole number of a fight")
    return v


def _pair(v: Any, key: str, what: str) -> tuple:
    """An old two-item record (a tuple or a list)."""
    if not (isinstance(v, (tuple, list)) and len(v) == 2):
        raise ValueError(f"{key}: {shorten(v)} is not {what}")
    return tuple(v)


def _id(v: Any, key: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{key}: {shorten(v)} is not a creature id")
    return v


def effects_of_schema4(creatures: dict[str, Creature], old: dict[str, dict[str, Any]], memory: Any) -> None:
    """Put on each creature the effects its old fields (``old``: creature id -> field -> value)
    and the memory's old rule keys held; those keys leave the memory. A value that is not what
    that schema wrote is a ValueError naming its key."""
    for cid, fields in old.items():
        c = creatures[cid]
        for name, kind in _UNTIL_FIELDS:
            if name in fields and _whole_at(fields[name], f"state.creatures.{cid}.{name}"):
                put(c, Effect(kind, cid if kind == "raging" else None, fields[name]))
        if fields.get("held") is not None:
            key = f"state.creatures.{cid}.held"
            last, dc = _pair(fields["held"], key, "(last round, DC)")
            put(c, Effect("held", None, _whole_at(last, key), (("dc", _whole_at(dc, key)),)))
    if isinstance(memory, dict):
        for cid, c in creatures.items():
            _tuple_keys(c, cid, memory)
            _text_keys(c, cid, memory)


def _tuple_keys(c: Creature, cid: str, memory: dict) -> None:
    """The ``(NAME, id)`` keys: confusion, a poison's sleep, strands, a web's hold, rust, webs thrown."""
    at = f"state.memory.{{}}.{cid}"
    v = memory.pop(("confused_until", cid), None)
    if v is not None:
        last, gazer = _pair(v, at.format("confused_until"), "(last round, gazer)")
        put(c, Effect("confused", _id(gazer, at.format("confused_until")), _whole_at(last, at.format("confused_until"))))
    v = memory.pop(("knocked_out", cid), None)
    if v is not None:
        put(c, Effect("knocked_out", None, _whole_at(v, at.format("knocked_out"))))
    v = memory.pop(("stuck", cid), None)
    if v is not None:
        if not (isinstance(v, tuple) and len(v) == 3):
            raise ValueError(f"{at.format('stuck')}: {shorten(v)} is not (roper, strand hp, round)")
        put(c, Effect("stuck", _id(v[0], at.format("stuck")), None,
                      (("hp", _whole_at(v[1], at.format("stuck"))), ("round", _whole_at(v[2], at.format("stuck"))))))
    v = memory.pop(("drawn_in", cid), None)
    if v is not None:
        rnd, drawn = _pair(v, at.format("drawn_in"), "(round, drawn ids)")
        ids = tuple(_id(x, at.format("drawn_in")) for x in (drawn if isinstance(drawn, (tuple, list)) else [None]))
        put(c, Effect("drawing_in", None, _whole_at(rnd, at.format("drawn_in")), (("drawn", ids),)))
    v = memory.pop(("entangled", cid), None)
    if v is not None:
        if not (isinstance(v, tuple) and len(v) == 3):
            raise ValueError(f"{at.format('entangled')}: {shorten(v)} is not (escape DC, break DC, source)")
        put(c, Effect("entangled", _id(v[2], at.format("entangled")), None,
                      (("escape_dc", _whole_at(v[0], at.format("entangled"))),
                       ("break_dc", _whole_at(v[1], at.format("entangled"))))))
    v = memory.pop(("entangled_speed", cid), None)
    if v is not None:
        put(c, Effect("web_slowed", None, None, (("speed", _whole_at(v, at.format("entangled_speed"))),)))
    v = memory.pop(("rusted_weapons", cid), None)
    if v is not None:
        keys = tuple(sorted(_id(k, at.format("rusted_weapons")) for k in (v if isinstance(v, (set, list)) else [None])))
        put(c, Effect("rusted_weapons", None, None, (("weapons", keys),)))
    v = memory.pop(("webs_left", cid), None)
    if v is not None:
        web = next((r for r in c.block.riders if r.kind == "web"), None)
        if web is not None:
            c.uses["web"] = int(web.uses_per_day) - _whole_at(v, at.format("webs_left"))


def _text_keys(c: Creature, cid: str, memory: dict) -> None:
    """The ``NAME:ID`` keys: glitterdust, the spell-like effects and uses, web, grease and cloud."""
    v = memory.pop(f"glitter:{cid}", None)
    if v is not None:
        last, dc = _pair(v, f"state.memory.glitter:{cid}", "[last round, DC]")
        put(c, Effect("glitterdust", None, _whole_at(last, f"state.memory.glitter:{cid}"),
                      (("dc", _whole_at(dc, f"state.memory.glitter:{cid}")),)))
    for kind in _GLAMERS:
        v = memory.pop(f"{kind}:{cid}", None)
        if v is not None:
            put(c, Effect(kind, None, _whole_at(v, f"state.memory.{kind}:{cid}")))
    v = memory.pop(f"blind:{cid}", None)
    if v is not None:
        put(c, Effect("blindness", None, None, (("dc", _whole_at(v, f"state.memory.blind:{cid}")),)))
    for key in [k for k in memory if isinstance(k, str) and k.startswith(f"sla:{cid}:")]:
        c.uses["sla:" + key[len(f"sla:{cid}:"):]] = _whole_at(memory.pop(key), f"state.memory.{key}")
    for key, kind in ((f"inweb:{cid}", "in_web"), (f"webstuck:{cid}", "web_stuck")):
        if memory.pop(key, None):
            put(c, Effect(kind))
    v = memory.pop(f"webmove:{cid}", None)
    if v is not None:
        rnd, feet = _pair(v, f"state.memory.webmove:{cid}", "[round, feet]")
        put(c, Effect("web_moving", None, _whole_at(rnd, f"state.memory.webmove:{cid}"),
                      (("feet", _whole_at(feet, f"state.memory.webmove:{cid}")),)))
    v = memory.pop(f"grease:{cid}", None)
    if v is not None:
        rnd, ok = _pair(v, f"state.memory.grease:{cid}", "[round, passed]")
        put(c, Effect("grease_checked", None, _whole_at(rnd, f"state.memory.grease:{cid}"), (("ok", int(bool(ok))),)))
    if f"cloudsick:{cid}" in memory:
        v = memory.pop(f"cloudsick:{cid}")
        left = 0 if v is None else _whole_at(v, f"state.memory.cloudsick:{cid}")
        put(c, Effect("cloud_sick", None, None, (("rolled", int(v is not None)), ("left", left))))
