"""The parts of a fight's state that belong to one mechanic each (issue 33 item 2).

:class:`~sim.engine.world.World` holds the grid, the creatures, the dice, the round and the turn;
what a mechanic adds to the fight lives in one small record declared here, one per mechanic, each
citing its rule section: who is inside whom (:class:`Swallowed`), the grabs still to roll
(:class:`Grabs`), what spells leave on the map (:class:`Magic`), the lights lying on the floor
(:class:`Floor`), the move in progress (:class:`Movement`) and the wounds of a casting
(:class:`Casting`). :data:`PARTS` lists them in one place, by the attribute name the world gives
each: the world builds them from it, and the saved game (:mod:`sim.engine.saved.schema`)
writes and reads each part by that name. A new mechanic's state is a new record here and one
line in :data:`PARTS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.base.coords import Pos
from sim.engine.creature import Creature
from sim.terrain.vision.light import Light
from sim.terrain.vision.scene import DroppedLight


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


#: The parts of a fight's state, by the attribute the world holds each under, in the order the
#: saved game writes them.
PARTS: tuple[tuple[str, type], ...] = (
    ("swallowed", Swallowed),
    ("grabs", Grabs),
    ("magic", Magic),
    ("floor", Floor),
    ("movement", Movement),
    ("casting", Casting),
)
