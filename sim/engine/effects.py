"""A creature's lasting effects: one typed home (issue 33 item 1), the record and its kinds.

An :class:`Effect` is a record on the creature (``Creature.effects``): its kind, the creature it
came from, its last round (``until``; None: until something ends it) and the data fields its kind
declares (a save's DC...). Each kind is declared once, in ``sim/data/effects.toml`` (read and
checked here at import: :data:`KINDS`): the condition it shows, the moment of the turn it may end
at, whether a save each round ends it, the plain modifiers it gives. A new condition is a table
entry; code only where its end does more than clear its condition (a hook:
:func:`sim.engine.conditions.on_end`).

This module is a leaf (below the creature, which holds the records): the record, the table and
the queries. Starting, ending and the tick at the turn's moments, which emit events and roll
saves, are :mod:`sim.engine.conditions`. :data:`CONDITIONS` lists every condition name the engine
shows on a creature.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Protocol

from sim.base.errors import DataError
from sim.rules import _data

#: The plain statuses: states with no clock and no source of their own, which the rule that
#: decides them sets and clears (``Creature.set_status``, or :func:`sim.engine.conditions.set_status`
#: with its event): the hit points' states (dying, disabled, dead...), a grapple's, being inside a
#: host, a casting under way, light's glare, a stinking cloud's nausea, Dex or Str 0's paralysis.
#: Two are also shown by effects (``blinded``: glitterdust, blindness; ``paralyzed``: a rider, hold
#: person): the creature shows the condition while either lasts.
STATUSES = frozenset({
    "blinded", "burning", "concentrating", "dazzled", "dead", "disabled", "dispersed", "dying", "engulfed",
    "fatigued", "grappled", "hurt_while_casting", "landed", "nauseated", "paralyzed", "pinned", "poison_delayed",
    "running", "stable", "staggered", "swallowed", "unconscious"})

#: The data file the kinds are declared in.
TABLE = "sim/data/effects.toml"
#: Every key an ``[effect.KIND]`` table may have, with the type of its value.
KEYS: dict[str, type | tuple[type, ...]] = {
    "condition": str, "moment": str, "lapses": str, "save": str,
    "save_reason": str, "ends_when_dead": bool, "data": list, "modifiers": dict, "modifier_label": str,
    "miss_chance": int, "hook": bool, "cause": str, "ends": list, "rules": str}
#: What may end an effect (the ``ends`` list).
ENDINGS = frozenset({"time", "save", "damage", "dm", "attack", "spell", "escape", "sever", "source_out", "leaving",
                     "next_turn", "fight_over"})
#: The saves a kind may roll each round.
SAVES = frozenset({"fort", "ref", "will"})
#: The rolls a kind's plain modifiers may add to.
MODIFIED = frozenset({"attack"})


@dataclass(frozen=True, slots=True)
class Effect:
    """One lasting effect on a creature: ``kind`` (a key of :data:`KINDS`), ``source`` (the id of
    the creature it came from, or None), ``until`` (its last round; None: until something ends it)
    and ``data``, the (name, value) pairs of the fields its kind declares."""
    kind: str
    source: str | None = None
    until: int | None = None
    data: tuple[tuple[str, int | str | tuple[str, ...]], ...] = ()

    def value(self, name: str) -> int | str | tuple[str, ...]:
        """The data field ``name`` (one its kind declares)."""
        for key, v in self.data:
            if key == name:
                return v
        raise KeyError(f"{self.kind} has no data field {name!r} (declared: {', '.join(KINDS[self.kind].data)})")


class Bearer(Protocol):
    """What holds effects (a creature)."""
    effects: list[Effect]


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of effect as ``sim/data/effects.toml`` declares it (see the file's header)."""
    name: str
    condition: str | None
    moment: str | None
    lapses: str | None
    save: str | None
    save_reason: str
    ends_when_dead: bool
    data: tuple[str, ...]
    modifiers: tuple[tuple[str, int], ...]
    modifier_label: str
    miss_chance: int
    hook: bool
    cause: str
    ends: tuple[str, ...]


def check_table(table: dict[str, Any], name: str = TABLE) -> tuple[tuple[str, ...], dict[str, Kind]]:
    """The moments and kinds of an effects table, checked: every key known and of its type, every
    condition a name (lower case, one word), every moment declared; a problem is
    a :class:`DataError` naming the file and the key."""
    moments = table.get("moments")
    if not (isinstance(moments, list) and moments and all(isinstance(m, str) for m in moments)):
        raise DataError(f"{name}: moments: a list of the turn's moments (names) is missing")
    kinds = table.get("effect")
    if not isinstance(kinds, dict) or not kinds:
        raise DataError(f"{name}: no [effect.KIND] tables")
    unknown_top = sorted(set(table) - {"moments", "effect"})
    if unknown_top:
        raise DataError(f"{name}: {unknown_top[0]}: unknown key; the keys are moments and [effect.KIND]")
    return tuple(moments), {kind: _kind(kind, d, moments, name) for kind, d in kinds.items()}


def _kind(kind: str, d: Any, moments: list[str], name: str) -> Kind:
    """One ``[effect.KIND]`` table, checked."""
    where = f"{name}: [effect.{kind}]"
    if not isinstance(d, dict):
        raise DataError(f"{where}: not a table")
    for key, v in d.items():
        want = KEYS.get(key)
        if want is None:
            raise DataError(f"{where} {key}: unknown key; the keys are {', '.join(KEYS)}")
        if type(v) is not want:
            raise DataError(f"{where} {key}: {v!r} is not a {want.__name__}")
    if "ends" not in d:
        raise DataError(f"{where}: ends is missing")
    bad = [e for e in d["ends"] if e not in ENDINGS]
    if bad:
        raise DataError(f"{where} ends: {bad[0]!r} is none of {', '.join(sorted(ENDINGS))}")
    ticked = bool({"time", "save"} & set(d["ends"]))
    for key in ("moment", "lapses") if ticked else ():
        if key not in d:
            raise DataError(f"{where}: {key} is missing (it ends by time or a save: the tick needs it)")
    if "condition" in d and (not d["condition"].isidentifier() or not d["condition"].islower()):
        raise DataError(f"{where} condition: {d['condition']!r} is not a condition name (lower case, a word "
                        "with underscores)")
    if "moment" in d and d["moment"] not in moments:
        raise DataError(f"{where} moment: {d['moment']!r} is none of the moments {', '.join(moments)}")
    if "lapses" in d and d["lapses"] not in ("after", "during"):
        raise DataError(f"{where} lapses: {d['lapses']!r} is neither after nor during")
    if "save" in d and (d["save"] not in SAVES or "save_reason" not in d or "dc" not in d.get("data", [])):
        raise DataError(f"{where} save: {d['save']!r} needs to be one of {', '.join(sorted(SAVES))}, with a "
                        "save_reason and a data field dc (the DC)")
    mods = d.get("modifiers", {})
    for roll, n in mods.items():
        if roll not in MODIFIED or type(n) is not int:
            raise DataError(f"{where} modifiers.{roll}: {n!r}: a whole number on one of {', '.join(sorted(MODIFIED))}")
    if mods and "modifier_label" not in d:
        raise DataError(f"{where}: modifiers need a modifier_label (how an attack's modifiers name them)")
    if "miss_chance" in d and not 1 <= d["miss_chance"] <= 100:
        raise DataError(f"{where} miss_chance: {d['miss_chance']!r} is not a percent from 1 to 100")
    fields = d.get("data", [])
    if not all(isinstance(f, str) for f in fields):
        raise DataError(f"{where} data: a list of field names")
    return Kind(name=kind, condition=d.get("condition"), moment=d.get("moment"), lapses=d.get("lapses"),
                save=d.get("save"),
                save_reason=d.get("save_reason", ""), ends_when_dead=d.get("ends_when_dead", False),
                data=tuple(fields), modifiers=tuple(sorted(mods.items())),
                modifier_label=d.get("modifier_label", ""), miss_chance=d.get("miss_chance", 0),
                hook=d.get("hook", False),
                cause=d.get("cause", "expired"), ends=tuple(d["ends"]))


#: The turn's moments and the declared kinds (read at import: a bad table stops the program with
#: one message naming the file and the key).
MOMENTS, KINDS = check_table(_data.load("effects.toml"))
#: The condition each kind shows (None: it shows none), read by ``Creature.conditions``.
SHOWS: dict[str, str | None] = {name: k.condition for name, k in KINDS.items()}
#: Every condition name the engine shows on a creature (``Creature.conditions``): the statuses and
#: the conditions the effect kinds show. tests/engine/test_snapshot_safety.py proves the list whole
#: (every name the engine's code sets, every name shipped fights reach).
CONDITIONS = STATUSES | {k.condition for k in KINDS.values() if k.condition}
# -- effects on a creature ---------------------------------------------------------------------------------------

def find(c: Bearer, kind: str) -> Effect | None:
    """``c``'s effect of ``kind``, or None."""
    return next((e for e in c.effects if e.kind == kind), None)


def lasting(c: Bearer, kind: str, rnd: int) -> bool:
    """``c`` has an effect of ``kind`` whose last round is not past at round ``rnd``."""
    e = find(c, kind)
    return e is not None and (e.until is None or rnd <= e.until)


def make(kind: str, source: str | None = None, until: int | None = None,
         **data: int | str | tuple[str, ...]) -> Effect:
    """An effect of ``kind`` with exactly the data fields its kind declares."""
    spec = KINDS[kind]
    if set(data) != set(spec.data):
        raise ValueError(f"{TABLE}: [effect.{kind}] declares the data {list(spec.data)}, given {sorted(data)}")
    return Effect(kind, source, until, tuple((f, data[f]) for f in spec.data))


def put(c: Bearer, e: Effect) -> None:
    """Hold ``e`` on ``c`` in place of any effect of its kind (no event)."""
    c.effects[:] = [x for x in c.effects if x.kind != e.kind] + [e]


def drop(c: Bearer, kind: str) -> Effect | None:
    """Take ``c``'s effect of ``kind`` off (no event); the effect, or None."""
    e = find(c, kind)
    if e is not None:
        c.effects.remove(e)
    return e


def modifiers(c: Bearer, roll: str, rnd: int) -> dict[str, int]:
    """The plain modifiers ``c``'s lasting effects add to ``roll`` at round ``rnd`` (label -> number)."""
    out: dict[str, int] = {}
    for e in c.effects:
        spec = KINDS[e.kind]
        if spec.modifiers and (e.until is None or rnd <= e.until):
            for r, n in spec.modifiers:
                if r == roll:
                    out[spec.modifier_label] = n
    return out


def changed(e: Effect, **fields: Any) -> Effect:
    """``e`` with other values (its until, its source)."""
    return dataclasses.replace(e, **fields)


#: What ends an effect bound to the fight it began in (its places, its creatures, its next turn):
#: such an effect never goes on into a crawl's next fight.
FIGHT_BOUND = frozenset({"next_turn", "fight_over", "leaving", "escape", "sever", "source_out"})


def carried_over(e: Effect) -> Effect | None:
    """``e`` as a crawl carries it into the next fight (:func:`sim.engine.setup.carry_over`), or
    None: an effect bound to its fight (:data:`FIGHT_BOUND`) stays behind; one with a clock keeps
    no clock of the last fight (its rounds were that fight's: it ends at the next fight's first
    tick of its moment, a rage leaving the barbarian fatigued); one with no clock (blindness, rust)
    goes on as it is."""
    if FIGHT_BOUND & set(KINDS[e.kind].ends):
        return None
    return e if e.until is None else changed(e, until=0)


def shown(condition: str) -> Effect:
    """A record of the first kind that shows ``condition``, with no source, no clock and its data
    at 0: how a replay's shadow fight (:mod:`sim.view.world`), which knows its creatures'
    conditions by name only, shows one no status gives."""
    kind = next(k for k in KINDS.values() if k.condition == condition)
    return Effect(kind.name, None, None, tuple((f, 0) for f in kind.data))
