"""Saved games of schema 4 and older into effects (issue 33 item 1): those files held a creature's
lasting effects in its own fields (``blessed_until``, ``rage_until``, ``asleep_until``, ``held``,
``paralyzed_until``) and in the fight's memory under rule keys (``("confused_until", id)``,
``("knocked_out", id)``, ``"glitter:ID"``); :func:`effects_of_schema4` turns each into the
:class:`~sim.engine.effects.Effect` the engine holds now, so that the fight plays on exactly as
the code that saved it would have (tests/engine/test_snapshot_effects.py: a saved file of
schema 4, played on to the same events).
"""

from __future__ import annotations

from typing import Any

from sim.base.errors import shorten
from sim.engine.creature import Creature
from sim.engine.effects import Effect, put
from sim.engine.snapshot_state import MAX_FIELD, _whole

#: The creature fields of schema 4 and older that are effects now (read, then left out).
OLD_FIELDS = frozenset({"blessed_until", "rage_until", "asleep_until", "held", "paralyzed_until"})
#: Each old "last round" field and the kind of effect it was (0: none).
_UNTIL_FIELDS = (("blessed_until", "blessed"), ("rage_until", "raging"), ("asleep_until", "asleep"),
                 ("paralyzed_until", "paralyzed"))


def _round(v: Any, key: str) -> int:
    """A round of an old field or memory key (refused: anything else)."""
    if not _whole(v, 0, MAX_FIELD):
        raise ValueError(f"{key}: {shorten(v)} is not a round")
    return v


def effects_of_schema4(creatures: dict[str, Creature], old: dict[str, dict[str, Any]], memory: Any) -> None:
    """Put on each creature the effects its old fields (``old``: creature id -> field -> value)
    and the memory's old rule keys held; those keys leave the memory. A value that is not what
    that schema wrote is a ValueError naming its key."""
    for cid, fields in old.items():
        c = creatures[cid]
        for name, kind in _UNTIL_FIELDS:
            if name in fields and _round(fields[name], f"state.creatures.{cid}.{name}"):
                put(c, Effect(kind, cid if kind == "raging" else None, fields[name]))
        held = fields.get("held")
        if held is not None:
            if not (isinstance(held, tuple) and len(held) == 2):
                raise ValueError(f"state.creatures.{cid}.held: {shorten(held)} is not (last round, DC)")
            put(c, Effect("held", None, _round(held[0], f"state.creatures.{cid}.held"),
                          (("dc", _round(held[1], f"state.creatures.{cid}.held")),)))
    if not isinstance(memory, dict):
        return
    for cid, c in creatures.items():
        confused = memory.pop(("confused_until", cid), None)
        if confused is not None:
            if not (isinstance(confused, tuple) and len(confused) == 2 and isinstance(confused[1], str)):
                raise ValueError(f"state.memory.confused_until.{cid}: {shorten(confused)} is not (last round, gazer)")
            put(c, Effect("confused", confused[1], _round(confused[0], f"state.memory.confused_until.{cid}")))
        out = memory.pop(("knocked_out", cid), None)
        if out is not None:
            put(c, Effect("knocked_out", None, _round(out, f"state.memory.knocked_out.{cid}")))
        glitter = memory.pop(f"glitter:{cid}", None)
        if glitter is not None:
            if not (isinstance(glitter, list) and len(glitter) == 2):
                raise ValueError(f"state.memory.glitter:{cid}: {shorten(glitter)} is not [last round, DC]")
            put(c, Effect("glitterdust", None, _round(glitter[0], f"state.memory.glitter:{cid}"),
                          (("dc", _round(glitter[1], f"state.memory.glitter:{cid}")),)))
