"""Readers of the old saved-game schemas, 2 to 4 (issue 33 item 3): one per schema.

Those files hold ``vars(world)`` as it was then: every attribute of the fight but the derived
ones, each value in the tagged encoding of :mod:`sim.engine.saved.codec` with its records
named by module path (``sim.engine.creature:Creature``; before the layout of commit 0b2f457,
``sim.vision.light:Light`` and ``sim.coords:Pos``). Each reader checks that the file holds its
schema's attributes and no others, decodes them with :data:`OLD_NAMES` (the types those files
could name, and nothing else), and returns the sections of today's schema
(:data:`sim.engine.saved.schema.STATE`): the fight's fields, the generator, the creatures, the
world's parts (built from the loose attributes they replace), the events and the AI's notes.
The sight cache they saved (``_vision``) and the last hit's damage (``last_damage``, a return
value since) are decoded, so a damaged file is refused all the same, and dropped.

Schema 2 had one lit state for a lantern (``Creature.light``); 3 added ``zones`` (grease);
4 added ``inside`` and ``gizzard`` (swallow whole, engulf) and split oozes' fields. All of them
stored a creature's conditions, which the engine derives now
(:mod:`sim.engine.saved.legacy_conditions`).
"""

from __future__ import annotations

from typing import Any, Callable

from sim.base.errors import shorten
from sim.engine.creature import Creature
from sim.engine.notes import notes_of_schema4
from sim.engine.parts import Casting, Floor, Grabs, Magic, Movement, Swallowed
from sim.engine.saved.codec import Bad, Decoder, Names
from sim.engine.saved.legacy_conditions import statuses_of_conditions, take_conditions
from sim.engine.saved.legacy_effects import OLD_FIELDS, effects_of_schema4
from sim.engine.saved.schema import ENUM_TYPES, NAMED_TYPES, RECORD_TYPES, optional_fields
from sim.engine.saved.state import FIGHT_FIELDS
from sim.terrain.vision.light import LightGrid
from sim.terrain.vision.sight import Sight

#: The modules the old files name the records of today's schema by (by record name), and the
#: two records only they hold (the sight cache).
_MODULES = {
    "Creature": "sim.engine.creature", "Turn": "sim.engine.actions", "Zone": "sim.engine.zones",
    "Light": "sim.terrain.vision.light", "DroppedLight": "sim.terrain.vision.scene",
    "Body": "sim.rules.bodies", "Dice": "sim.rules.dice", "ArmorPiece": "sim.rules.weapons",
    "EnergyAbility": "sim.rules.weapons", "GearItem": "sim.rules.weapons", "Weapon": "sim.rules.weapons",
}
_MOVED = {"sim.terrain.vision.": "sim.vision."}   # the layout before commit 0b2f457


def _old_records() -> dict[str, type]:
    """Every name an old file may give a record: today's records by their module path, the
    sight cache's two, each also under its path before the layout of commit 0b2f457."""
    by_path = {f"{_MODULES.get(name, 'sim.rules.statblocks.types')}:{name}": cls for name, cls in RECORD_TYPES.items()}
    by_path["sim.terrain.vision.light:LightGrid"] = LightGrid
    by_path["sim.terrain.vision.sight:Sight"] = Sight
    out = dict(by_path)
    for qual, cls in by_path.items():
        for new, old in _MOVED.items():
            if qual.startswith(new):
                out[old + qual[len(new):]] = cls
    return out


#: The types a schema 2-4 file may name, by the names those files wrote.
OLD_NAMES = Names(
    records=_old_records(),
    named={"sim.base.coords:Pos": NAMED_TYPES["Pos"], "sim.coords:Pos": NAMED_TYPES["Pos"]},
    enums={"sim.rules.sizes:Size": ENUM_TYPES["Size"]},
)

#: The attributes a schema-2 file holds (the world's then, derived ones aside).
SCHEMA_2_STATE = frozenset(FIGHT_FIELDS) | {
    "rng", "creatures", "events", "memory", "damage_while_casting", "last_damage", "pending_move", "moved_this",
    "dropped_lights", "pending_grabs", "spell_lights", "_vision_key", "_vision"}
#: Schema 3: the lasting spell areas too.
SCHEMA_3_STATE = SCHEMA_2_STATE | {"zones"}
#: Schema 4: who is inside whom too.
SCHEMA_4_STATE = SCHEMA_3_STATE | {"inside", "gizzard"}


def read_schema_2(state: dict) -> dict[str, Any]:
    """A schema-2 file's state: no lasting spell areas, nobody inside, no split oozes' fields."""
    return _read_old(state, 2)


def read_schema_3(state: dict) -> dict[str, Any]:
    """A schema-3 file's state: nobody inside, no split oozes' fields."""
    return _read_old(state, 3)


def read_schema_4(state: dict) -> dict[str, Any]:
    """A schema-4 file's state."""
    return _read_old(state, 4)


#: The attributes a file of each old schema holds, no more, no less.
LAYOUTS: dict[int, frozenset[str]] = {2: SCHEMA_2_STATE, 3: SCHEMA_3_STATE, 4: SCHEMA_4_STATE}
#: The reader of each old schema.
READERS: dict[int, Callable[[dict], dict[str, Any]]] = {2: read_schema_2, 3: read_schema_3, 4: read_schema_4}


def _read_old(state: dict, schema: int) -> dict[str, Any]:
    """The sections of today's schema from an old file's attributes (those of :data:`LAYOUTS`,
    checked by the caller); a :class:`Bad` for the first that does not fit."""
    events = state["events"]
    bad_event = next((i for i, e in enumerate(events) if not (isinstance(e, dict) and set(e) == {"$event"})), None)
    if bad_event is not None:
        raise Bad(f"state.events[{bad_event}]", "is not an event")
    creatures: dict[str, Creature] = {}
    dec = Decoder(OLD_NAMES, creatures, optional_fields(schema))
    old: dict[str, dict[str, Any]] = {}   # the lasting effects' old fields, by creature (schema 5 made them effects)
    shown: dict[str, set[str]] = {}       # the stored conditions, by creature (schema 6 derives them)
    for cid, rec in state["creatures"].items():
        rec, names = take_conditions(rec, dec, f"state.creatures.{cid}.fields")
        if names is not None:
            shown[cid] = names
        if isinstance(rec, dict) and isinstance(rec.get("fields"), dict):
            old[cid] = {k: dec.value(x, f"state.creatures.{cid}.fields.{k}")
                        for k, x in rec["fields"].items() if k in OLD_FIELDS}
            rec = {**rec, "fields": {k: x for k, x in rec["fields"].items() if k not in OLD_FIELDS}}
        c = dec.record(rec, f"state.creatures.{cid}")
        if not isinstance(c, Creature):
            raise Bad(f"state.creatures.{cid}", "is not a creature")
        creatures[cid] = c
    v = {name: dec.value(x, f"state.{name}") for name, x in state.items() if name != "creatures"}
    if not isinstance(v["memory"], dict):
        raise Bad("state.memory", f"{shorten(v['memory'])}: the AI's notes are a table")
    try:   # the effects kept in creature fields and in the memory's rule keys, then the AI's notes
        effects_of_schema4(creatures, old, v["memory"])
        v["memory"] = notes_of_schema4(v["memory"])
    except ValueError as exc:   # an old schema's value that is not what that schema wrote
        raise Bad("state", str(exc)) from None
    for cid, names in shown.items():
        statuses_of_conditions(creatures[cid], names, f"state.creatures.{cid}.fields")
    for name in ("pending_grabs", "spell_lights", "dropped_lights", "zones"):
        if name in v and not isinstance(v[name], list):
            raise Bad(f"state.{name}", f"{shorten(v[name])}: should be a list")
    for name in ("inside", "gizzard"):
        if name in v and not isinstance(v[name], dict):
            raise Bad(f"state.{name}", f"{shorten(v[name])}: should be a table")
    return {
        **{name: v[name] for name in FIGHT_FIELDS},
        "rng": v["rng"],
        "creatures": creatures,
        "swallowed": Swallowed(v.get("inside", {}), v.get("gizzard", {})),
        "grabs": Grabs(v["pending_grabs"]),
        "magic": Magic(v.get("zones", []), v["spell_lights"]),
        "floor": Floor(v["dropped_lights"]),
        "movement": Movement(v["pending_move"], v["moved_this"]),
        "casting": Casting(v["damage_while_casting"]),
        "events": v["events"],
        "memory": v["memory"],
    }
