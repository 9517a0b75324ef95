"""The saved game's declared schema (schema 6, issue 33 item 3): what a file holds, part by part.

A saved fight's ``state`` is a table of the sections of :data:`STATE`, in its order, each of a
declared type, and nothing else:

* the fight's own fields (:data:`~sim.engine.saved.state.FIGHT_FIELDS`): ``settings``,
  ``seed``, ``round``, ``order``, ``turn_index``, ``turn``, ``winner``, ``finished``,
  ``end_reason``, ``turn_mark``;
* ``rng``: the random generator's state (numpy's PCG64: :class:`RngState`);
* ``creatures``: id -> a ``Creature`` record (every field, its stat block included);
* one section per part of the fight's state, as its mechanics declare them, in the registry's
  order (:func:`sim.engine.registry.parts`: ``magic``, ``swallowed``, ``grabs``, ``casting``,
  ``floor``, ``movement``), a table of that part's fields, each of the type its record declares;
* ``events``: the events so far, each as the event log writes it (:mod:`sim.engine.events`);
* ``memory``: the AI's notes (:class:`~sim.engine.notes.AINotes`), in the tagged encoding of
  :mod:`sim.engine.saved.codec`.

A value inside a section is written in that tagged encoding; the records it may name are
:data:`RECORD_TYPES` (by a short name, not a module path), the named tuples :data:`NAMED_TYPES`,
the enumerations :data:`ENUM_TYPES`. The reader (:mod:`sim.engine.saved.snapshot`) builds only these:
a file naming any other type, or a section or field not declared here, is refused.

**Adding a record type** (a creature's new field holding a record, as ``Effect`` was) is one
line in :data:`RECORD_TYPES` (``"Effect": Effect,``); a new part of the fight's state is its
mechanic's ``part`` (``Mechanic(part=Part("name", Record))``), which this schema reads from the
registry: no line here. Old files keep loading: a record's
field added later takes its default (list it in :data:`ADDED_FIELDS` under the new schema).
"""

from __future__ import annotations

import functools
import typing
from typing import Any

from sim.base.coords import Pos
from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.effects import Effect
from sim.engine.events import Event
from sim.engine.notes import AINotes
from sim.engine.parts import Part, Zone
from sim.engine.registry import REGISTRY, parts
from sim.engine.saved.codec import Names
from sim.engine.saved.state import FIGHT_FIELDS
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
from sim.terrain.vision.light import Light
from sim.terrain.vision.scene import DroppedLight

#: The saved-game format this cavesim writes; older ones are read by :mod:`sim.engine.saved.legacy`
#: (2-4) and :func:`sim.engine.saved.snapshot.read_schema_5`. 6: a creature's conditions are
#: derived (its effects' and its statuses', ``Creature.statuses``), no longer stored.
SCHEMA = 6

#: The records a schema-6 file may hold (``$record``), by the name written: a creature, its
#: stat block and what it holds, the turn, the spell zones and the lights.
RECORD_TYPES: dict[str, type] = {
    "Creature": Creature,
    "Effect": Effect,
    "AINotes": AINotes,
    "Turn": Turn,
    "Zone": Zone,
    "Light": Light,
    "DroppedLight": DroppedLight,
    "Body": Body,
    "Dice": Dice,
    "StatBlock": StatBlock,
    "Abilities": Abilities,
    "Attack": Attack,
    "Aura": Aura,
    "AuraSpec": AuraSpec,
    "Defenses": Defenses,
    "Disagreement": Disagreement,
    "Feat": Feat,
    "NaturalEntry": NaturalEntry,
    "Printed": Printed,
    "PrintedAttack": PrintedAttack,
    "Rider": Rider,
    "RiderSpec": RiderSpec,
    "Saves": Saves,
    "Senses": Senses,
    "Source": Source,
    "Speeds": Speeds,
    "SpellLike": SpellLike,
    "Spellcasting": Spellcasting,
    "SwarmSpec": SwarmSpec,
    "SwarmStats": SwarmStats,
    "WeaponEntry": WeaponEntry,
    "ArmorPiece": ArmorPiece,
    "EnergyAbility": EnergyAbility,
    "GearItem": GearItem,
    "Weapon": Weapon,
}
#: The named tuples a schema-6 file may hold (``$named``).
NAMED_TYPES: dict[str, type] = {"Pos": Pos}
#: The enumerations a schema-6 file may hold (``$enum``).
ENUM_TYPES: dict[str, type] = {"Size": Size}
#: The three tables, as the codec reads them.
NAMES = Names(RECORD_TYPES, NAMED_TYPES, ENUM_TYPES)

#: Record fields a schema added, by schema: a file of an older schema may lack them (they take
#: their defaults). 5: the fields added while schema 4 was written, by the branches merged into
#: it (a schema-4 file may lack any of them): split oozes (``Creature.split_round``,
#: ``Defenses.split``: docs/rules.md §11.14), stat blocks' spell-like abilities (§8.5), the
#: riders' swallow-whole and strand numbers (§11.13, §11.15), energy vulnerability, and a blind
#: creature's ``Senses.blind``.
ADDED_FIELDS: dict[int, frozenset[str]] = {
    5: frozenset({"split_round", "split", "spell_like", "cut_hp", "holds", "count", "vulnerable", "blind",
                  "effects", "uses"}),
    6: frozenset({"statuses"}),
}


class RngState:
    """The declared type of the ``rng`` section: the bit generator's state, a plain table."""


def sections(parts: tuple[Part, ...]) -> dict[str, Any]:
    """Every section of a state of a fight whose mechanics declare ``parts``, in the order
    written and read, with its declared type: the fight's fields, the generator, the creatures,
    each part in the registry's order (:func:`sim.engine.registry.parts`), the events, the notes."""
    return {
        **FIGHT_FIELDS,
        "rng": RngState,
        "creatures": dict[str, Creature],
        **{p.name: p.record for p in parts},
        "events": list[Event],
        "memory": AINotes,
    }


#: The sections of a shipped fight's state (its registry's parts).
STATE: dict[str, Any] = sections(parts(REGISTRY))


@functools.cache
def part_fields(cls: type) -> dict[str, Any]:
    """A part's fields and their declared types (its record's own annotations)."""
    return typing.get_type_hints(cls)


def optional_fields(schema: int) -> frozenset[str]:
    """The record fields a file of ``schema`` may lack: those added by a later schema."""
    return frozenset().union(*(f for s, f in ADDED_FIELDS.items() if s > schema))
