"""Typed, frozen event records: the only output of the encounter engine (DESIGN §3).

The renderer animates them, the analysis counts them, and a fight log is them, written as JSON
lines. Events carry ids and numbers, never colours or prose. Positions are ``(x, y)``.

>>> e = Attack(round=1, actor="bruna", target="gob1", weapon="longsword", roll=14,
...            modifiers={"base_attack": 3, "strength": 3, "narrow_or_low": -4}, total=16, ac=15,
...            ac_modifiers={"base": 10, "armor": 4, "dexterity": 1}, hit=True, critical=False)
>>> e.to_json()["type"], e.to_json()["total"]
('attack', 16)
>>> from_json(e.to_json()) == e
True
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Iterable, Iterator

from sim.coords import Pos

_REGISTRY: dict[str, type["Event"]] = {}


def _freeze(v: Any) -> Any:
    """Lists -> tuples, dicts stay dicts (events are never mutated after creation)."""
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, tuple):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    if isinstance(v, dict):
        return {k: _thaw(x) for k, x in v.items()}
    return v


def _event(cls):
    """Class decorator: a frozen event record, registered by its ``type`` for :func:`from_json`."""
    cls = dataclass(frozen=True, slots=True, kw_only=True)(cls)
    _REGISTRY[cls.type] = cls
    return cls


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    type: ClassVar[str] = "event"
    round: int

    def to_json(self) -> dict[str, Any]:
        d = {"type": self.type}
        for f in dataclasses.fields(self):
            d[f.name] = _thaw(getattr(self, f.name))
        return d


def from_json(d: dict[str, Any]) -> Event:
    """Rebuild an event from its JSON form (for replays)."""
    d = dict(d)
    kind = d.pop("type")
    cls = _REGISTRY.get(kind)
    if cls is None:
        raise ValueError(f"unknown event type {kind!r}")
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: _freeze(v) for k, v in d.items() if k in names})


# -- encounter and turns -----------------------------------------------------------------------

@_event
class EncounterStart(Event):
    type: ClassVar[str] = "encounter_start"
    map: str
    seed: int
    cols: int
    rows: int
    combatants: tuple  # of dicts: id, name, template, team, size, squares, hp, max_hp, swarm, speed, sex


@_event
class Initiative(Event):
    type: ClassVar[str] = "initiative"
    order: tuple  # of dicts: id, roll, modifier, total


@_event
class RoundStart(Event):
    type: ClassVar[str] = "round_start"


@_event
class TurnStart(Event):
    type: ClassVar[str] = "turn_start"
    actor: str


@_event
class TurnEnd(Event):
    type: ClassVar[str] = "turn_end"
    actor: str


@_event
class EncounterEnd(Event):
    type: ClassVar[str] = "encounter_end"
    winner: str | None
    reason: str          # victory | round_cap
    survivors: tuple     # of dicts: id, team, hp, max_hp


# -- movement ------------------------------------------------------------------------------------

@_event
class Moved(Event):
    """A movement: each step with the square entered, its category, the kind of move
    (walk, crawl, escape_artist, squeeze, stand, step, charge, run, withdraw, fly) and its cost;
    ``squares`` is what the creature covers at the end."""

    type: ClassVar[str] = "moved"
    actor: str
    path: tuple          # of dicts: at, category, kind, feet
    squares: tuple
    prone: bool
    action: str          # move | double_move | five_foot_step | charge | withdraw | full_round
    partial: bool = False  # the move so far, cut here by an attack of opportunity (more follows)


@_event
class SwarmShape(Event):
    """A swarm's squares after one step of its move (it reshapes as it flows)."""

    type: ClassVar[str] = "swarm_shape"
    actor: str
    squares: tuple


@_event
class Check(Event):
    """A skill check (escape_artist, concentration, heal...)."""

    type: ClassVar[str] = "check"
    actor: str
    skill: str
    dc: int
    roll: int            # d20, or 10/20 when taking 10/20
    modifier: int
    total: int
    success: bool
    cause: str = ""
    at: Pos | None = None


# -- attacks, damage, conditions -------------------------------------------------------------------

@_event
class Attack(Event):
    type: ClassVar[str] = "attack"
    actor: str
    target: str
    weapon: str
    roll: int
    modifiers: dict
    total: int
    ac: int
    ac_modifiers: dict
    hit: bool
    critical: bool
    kind: str = "melee"       # melee | ranged | touch | ranged_touch | opportunity | charge
    threat: bool = False
    confirm_roll: int | None = None
    confirm_total: int | None = None


@_event
class Damage(Event):
    type: ClassVar[str] = "damage"
    target: str
    amount: int               # hit points lost (after every adjustment)
    parts: dict               # damage type -> amount before adjustments (e.g. {"slashing": 7})
    source: str | None        # the creature that dealt it, if any
    cause: str                # weapon | swarm | splash | spell | bleed | poison | fall
    hp_before: int
    hp_after: int
    adjustments: dict = field(default_factory=dict)  # e.g. {"swarm_half": -3, "area_x1.5": 2}
    nonlethal: bool = False


@_event
class Healed(Event):
    type: ClassVar[str] = "healed"
    target: str
    amount: int
    source: str | None
    hp_after: int


@_event
class Save(Event):
    type: ClassVar[str] = "save"
    target: str
    save: str                 # fortitude | reflex | will
    dc: int
    roll: int
    modifier: int
    total: int
    success: bool
    cause: str                # distraction | poison | burning_hands | sleep | ...
    source: str | None = None


@_event
class Condition(Event):
    """A condition starts (``active``) or ends: prone, nauseated, disabled, dying, stable,
    unconscious, asleep, blessed, wounded (bleeding), poisoned, diseased, flat_footed,
    armor_off, burning."""

    type: ClassVar[str] = "condition"
    target: str
    condition: str
    active: bool
    cause: str = ""
    detail: dict = field(default_factory=dict)


@_event
class Died(Event):
    type: ClassVar[str] = "died"
    target: str
    at: tuple                 # the squares it covered


@_event
class Dispersed(Event):
    """A swarm broken up at 0 hp."""

    type: ClassVar[str] = "dispersed"
    target: str
    at: tuple


# -- swarms ----------------------------------------------------------------------------------------

@_event
class Engulf(Event):
    """A swarm covers these creatures at the end of its turn (its damage follows)."""

    type: ClassVar[str] = "engulf"
    actor: str
    targets: tuple
    squares: tuple


# -- items and spells ------------------------------------------------------------------------------

@_event
class ItemUsed(Event):
    """draw, sheathe, light (a torch or a lantern), drop, armor_off, armor_on, stand_up, drop_prone, delay, load
    (a crossbow or sling), last_thrown (its last javelin, dagger...: that weapon is gone)."""

    type: ClassVar[str] = "item"
    actor: str
    action: str
    item: str = ""


@_event
class Splash(Event):
    """A splash weapon (flask, thrown lantern) lands: where, and the squares its fire covers."""

    type: ClassVar[str] = "splash"
    actor: str
    item: str
    at: tuple                 # the square (x, y) or grid intersection (x, y) it broke at
    intersection: bool
    squares: tuple
    direct: str | None        # the creature hit directly, if any
    hit: bool


@_event
class SpellCast(Event):
    type: ClassVar[str] = "spell"
    actor: str
    spell: str
    targets: tuple
    squares: tuple            # the area, if any
    defensive: bool = False
    lost: bool = False


@_event
class Refused(Event):
    """An action the rules do not allow here, with the reason (a value, not an error)."""

    type: ClassVar[str] = "refused"
    actor: str
    action: str
    reason: str


# -- JSON lines ----------------------------------------------------------------------------------------

def dumps(events: Iterable[Event]) -> str:
    return "".join(json.dumps(e.to_json(), separators=(",", ":")) + "\n" for e in events)


def write_jsonl(path: str | Path, events: Iterable[Event]) -> None:
    from sim.fileio import atomic_write_text

    atomic_write_text(path, dumps(events))


def read_jsonl(path: str | Path) -> Iterator[Event]:
    from sim.errors import DataError

    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DataError(f"{p}: no such file; give a fight log written with --events") from None
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield from_json(json.loads(line))
        except (ValueError, TypeError, KeyError) as exc:
            raise DataError(f"{p}:{i}: not a cavesim event ({exc}); the file must hold events written "
                            "by cavesim fight --events") from None
