"""The parts of a fight's state that belong to one mechanic each (issue 33 item 2).

:class:`~sim.engine.world.World` holds the grid, the creatures, the dice, the round and the turn;
what a mechanic adds to the fight lives in one small record declared here, one per mechanic, each
citing its rule section: who is inside whom (:class:`Swallowed`), the grabs still to roll
(:class:`Grabs`), what spells leave on the map (:class:`Magic`), the lights lying on the floor
(:class:`Floor`), the move in progress (:class:`Movement`) and the wounds of a casting
(:class:`Casting`). Each mechanic declares its part in its record
(``Mechanic(part=Part("swallowed", Swallowed))``, :class:`sim.engine.mechanics.Part`): the fight
builds every part its registry declares (:func:`sim.engine.registry.parts`), and the saved game
(:mod:`sim.engine.saved.schema`) writes and reads them by name, in the registry's order. A new
mechanic's state is a record (here, or beside its mechanic) named in its ``Mechanic`` record.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from sim.base.coords import Pos
from sim.engine.creature import Creature
from sim.terrain.vision.light import Light
from sim.terrain.vision.scene import DroppedLight


@dataclass(frozen=True, slots=True)
class Part:
    """The part of a fight's state a mechanic keeps: the world's attribute ``name`` holding a
    ``record`` (a dataclass, built empty with the world; its fields of the types the saved game
    declares, :mod:`sim.engine.saved.schema`)."""

    name: str
    record: type

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or not dataclasses.is_dataclass(self.record):
            raise ValueError(f"part {self.name!r}: a name (an attribute) and a dataclass record, got {self.record!r}")


@dataclass(frozen=True)
class Zone:
    """A lasting spell area on the map (docs/rules.md §8.1 grease, §8.3 web, §8.4 stinking cloud)."""

    spell: str                    # "grease", "web", "stinking-cloud"
    squares: tuple                # ((x, y), ...)
    owner: str                    # the caster's id
    last_round: int               # the last round it lasts
    dc: int                       # its save DC (10 + spell level + ability modifier)


@dataclass(slots=True)
class Swallowed:
    """Swallow whole and engulf (docs/rules.md §11.13): ``inside`` maps a swallowed or engulfed
    creature to its host; ``gizzard`` the damage a swallowed creature has cut into the gizzard."""

    inside: dict[str, str] = field(default_factory=dict)
    gizzard: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class Grabs:
    """Improved grab (docs/rules.md §11.8): the hits that grab, rolled after the attack action
    that hit them, as (grabber, target, rider name)."""

    pending: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(slots=True)
class Magic:
    """What spells leave on the map: ``zones``, the lasting areas (docs/rules.md §8.1-8.4), and
    ``lights``, the magical darkness cast on a square (§9.1)."""

    zones: list[Zone] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)


@dataclass(slots=True)
class Floor:
    """The lights lying on the floor, dropped or thrown, still shining (docs/rules.md §9.3, 5)."""

    lights: list[DroppedLight] = field(default_factory=list)


@dataclass(slots=True)
class Movement:
    """The move being made now (``moves.begin_move`` .. ``finish_move``): ``pending`` is (mover,
    the squares walked and not yet told, the action), flushed before an attack it provokes;
    ``provoked`` is ((round, mover id), the enemies it has provoked already): once per enemy per
    move (docs/rules.md §6.6)."""

    pending: tuple[Creature, list[Pos], str] | None = None
    provoked: tuple[tuple[int, str], set[str]] | None = None


@dataclass(slots=True)
class Casting:
    """A spell being cast while it provokes (docs/rules.md §8, Concentration): ``wounds``, the
    lethal damage the caster has taken from the attacks it provoked, every wound adding up to the
    DC (set to 0 when the casting starts, added to by each wound while it concentrates)."""

    wounds: int = 0


#: The parts of the shipped mechanics, which a world alone (one that plays no turns: the opening
#: event's, :mod:`sim.engine.opening`) builds too and :class:`~sim.engine.world.World` types; each
#: is declared by exactly one mechanic of :data:`sim.engine.registry.REGISTRY`, whose order the
#: encounter and the saved game follow (tests/engine/test_registry.py checks both).
PARTS: tuple[Part, ...] = (Part("magic", Magic), Part("swallowed", Swallowed), Part("grabs", Grabs),
                           Part("casting", Casting), Part("floor", Floor), Part("movement", Movement))
