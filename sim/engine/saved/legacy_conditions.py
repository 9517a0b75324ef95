"""Saved games of schema 5 and older into statuses (issue 33 item 1): those files held a
creature's conditions as a stored set of names (``Creature.conditions``), which the engine now
derives from its lasting effects and its plain statuses (``Creature.statuses``). A reader takes
the stored set out of the creature's record before it is built (:func:`take_conditions`) and,
once its effects are known, turns the set into statuses (:func:`statuses_of_conditions`), so the
fight plays on as the code that saved it would have (tests/engine/test_snapshot_schemas.py:
saved files of schema 5, played on to the same events).
"""

from __future__ import annotations

from typing import Any

from sim.base.errors import shorten
from sim.engine.creature import Creature
from sim.engine.effects import CONDITIONS, KINDS, SHOWS, STATUSES, Effect
from sim.engine.saved.codec import Bad, Decoder

#: The creature field of schema 5 and older that the engine derives now.
FIELD = "conditions"


def take_conditions(rec: Any, dec: Decoder, path: str) -> tuple[Any, set[str] | None]:
    """A creature's raw record without its stored conditions, and those conditions (None: the
    record has none, or is no record: the decoder refuses it). A set that is not of condition
    names is a :class:`Bad` naming its key."""
    if not (isinstance(rec, dict) and isinstance(rec.get("fields"), dict) and FIELD in rec["fields"]):
        return rec, None
    key = f"{path}.{FIELD}"
    names = dec.value(rec["fields"][FIELD], key)
    if not (isinstance(names, (set, frozenset)) and all(isinstance(n, str) for n in names)):
        raise Bad(key, f"{shorten(names)} is not a set of condition names")
    unknown = sorted(names - CONDITIONS)
    if unknown:
        raise Bad(key, f"{shorten(unknown[0])} is not a condition of this cavesim (sim.engine.effects.CONDITIONS)")
    return {**rec, "fields": {k: x for k, x in rec["fields"].items() if k != FIELD}}, set(names)


def statuses_of_conditions(c: Creature, names: set[str], path: str) -> None:
    """Make ``c`` (its effects read already) show what the old file stored, ``names``:

    * an effect whose condition the file did not show had been spent (a sleeper woken, a rider's
      paralysis outlasted by hold person's end): it goes;
    * a name no effect shows is a status (Dex or Str 0 keeps a creature paralyzed: a status too,
      beside a rider's paralysis, as the old end of that paralysis checked);
    * a name only effects show, with none on the creature (a condition carried from a crawl's last
      fight without its clock), is an effect of the first kind that shows it, ended at that kind's
      first tick (a kind with no moment lasts until its rule ends it); one whose kind needs data
      the file does not have is a :class:`Bad`.
    """
    c.effects[:] = [e for e in c.effects if SHOWS[e.kind] is None or SHOWS[e.kind] in names]
    shown = {SHOWS[e.kind] for e in c.effects}
    statuses = {n for n in names if n in STATUSES and n not in shown}
    score = c.block.abilities
    if "paralyzed" in names and any(score.score(a) is not None and score.score(a) - c.ability_damage.get(a, 0) <= 0
                                    for a in ("dex", "str")):
        statuses.add("paralyzed")
    c.statuses = frozenset(statuses)
    for n in sorted(names - STATUSES - shown):
        kind = next(k for k in KINDS.values() if k.condition == n)
        if kind.data:
            raise Bad(f"{path}.{FIELD}", f"{n} is shown with no {kind.name} effect to hold its numbers "
                                         f"({', '.join(kind.data)})")
        c.effects.append(Effect(kind.name, None, 0 if kind.moment is not None else None))
