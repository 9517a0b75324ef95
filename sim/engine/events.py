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

from sim.base.coords import Pos
from sim.base.errors import DataError, shorten
from sim.base.fileio import atomic_write_text, read_input
from sim.rules.sizes import Size

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
class Decided(Event):
    """Why the AI chose what it did, when its first choice does not work (issue 31 item 5): a
    weapon it cannot use where it stands (``weapon``, ``category`` the space's name as in
    :class:`sim.rules.categories.Category`) and what it does instead (``choice``: ``backs_out``,
    ``throws``, ``other_weapon``, ``waits``); or, with ``choice`` = ``idle``, a turn in which it
    took no action, with its ``reason`` (``no_usable_attack``, ``holds_ground``,
    ``holds_chokepoint``, ``in_place``, ``blocked``, ``nothing_to_do``, ``waits_where_it_works``)."""

    type: ClassVar[str] = "decided"
    actor: str
    choice: str
    reason: str = ""
    weapon: str | None = None
    category: str | None = None


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
    action: str          # move | double_move | five_foot_step | charge | withdraw | full_round; also
    #                      engulf (a cube's), swallowed | engulfed | came_out (in or out of a host), pushed
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
    concealment: str = "none"         # none | concealment (20%) | total (50%): RULES §9.2
    miss_chance: int = 0              # percent rolled after a hit
    miss_roll: int | None = None      # d100; the hit is lost when it is at most miss_chance
    guessed: bool = False             # aimed at a square guessed (a foe not perceived, RULES §9.2) ...
    at: Pos | None = None             # ... this square; target "" when nobody was there (a miss)


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


@_event
class Split(Event):
    """An ooze split in two instead of being hurt (docs/rules.md §11.14): ``target`` keeps its id
    with ``hp``, the new ooze ``new`` (described in ``creature`` as ``encounter_start`` lists a
    combatant: squares, hp...) has as many; ``hp_before`` was the original's."""

    type: ClassVar[str] = "split"
    target: str
    new: str
    source: str | None
    hp_before: int
    hp: int
    creature: dict


# -- grapple, trip, bull rush (docs/rules.md §11) ----------------------------------------------------

@_event
class Opposed(Event):
    """An opposed check (docs/rules.md §11): a grapple check (to start, hold, damage, pin, escape
    or move a grapple), an Escape Artist check against a grapple, the Strength (or Dexterity)
    checks of a trip or a bull rush. ``success``: the actor won (ties: the higher modifier, then
    a roll-off, SRD "Opposed Checks")."""

    type: ClassVar[str] = "opposed"
    actor: str
    target: str
    purpose: str             # grapple_hold | grapple_damage | pin | escape | move_grapple | trip | trip_back | bull_rush
    check: str               # grapple | escape_artist | str | dex: the actor's check
    roll: int
    modifiers: dict
    total: int
    target_check: str        # the opponent's check
    target_roll: int
    target_modifiers: dict
    target_total: int
    success: bool


# -- swarms ----------------------------------------------------------------------------------------

@_event
class Engulf(Event):
    """A swarm covers these creatures at the end of its turn (its damage follows)."""

    type: ClassVar[str] = "engulf"
    actor: str
    targets: tuple
    squares: tuple


# -- swallow whole and engulf (docs/rules.md §11.13) -------------------------------------------------

@_event
class Swallowed(Event):
    """``actor`` swallowed ``target`` whole (a won grapple check): it is inside, at ``squares``."""

    type: ClassVar[str] = "swallowed"
    actor: str
    target: str
    squares: tuple


@_event
class Engulfed(Event):
    """A gelatinous cube moved over creatures: ``targets`` engulfed (inside it), ``avoided`` pushed
    aside (their Reflex save made); ``squares``: the cube's squares at the end."""

    type: ClassVar[str] = "engulfed"
    actor: str
    targets: tuple
    avoided: tuple
    squares: tuple


@_event
class GizzardCut(Event):
    """A swallowed ``actor`` hurt the gizzard of ``target``: ``amount`` now, ``cut`` so far, of the
    ``needed`` that opens a way out."""

    type: ClassVar[str] = "gizzard_cut"
    actor: str
    target: str
    amount: int
    cut: int
    needed: int


@_event
class CameOut(Event):
    """``actor`` is out of ``target`` (its swallower or engulfer), standing on ``squares``:
    ``cause`` cut (its way out), escaped, host_dead or fight_over."""

    type: ClassVar[str] = "came_out"
    actor: str
    target: str
    cause: str
    squares: tuple


# -- items and spells ------------------------------------------------------------------------------

@_event
class ActionTaken(Event):
    """A creature did something that is neither a move nor an attack, with the ``item`` it used if
    any: draw, sheathe, light (a torch or a lantern), drop, armor_off, armor_on, stand_up, drop_prone, delay, load
    (a crossbow or sling), fuse (an oil flask), fizzle (oil that did not catch fire), last_thrown
    (its last javelin, dagger...: that weapon is gone), manyshot (the bow of a Manyshot: one
    attack event follows, then a damage event per arrow). Its ``type`` on the wire stays ``"item"``
    (the name of old, when every such action used an item), so event files keep reading."""

    type: ClassVar[str] = "item"
    actor: str
    action: str
    item: str = ""


@_event
class ArmorWork(Event):
    """Taking medium or heavy armor off in a fight, before a crawlway, awkward space or tight
    squeeze (RULES §2.4, §7.33): ``stage`` start (the work begins: ``rounds`` in all), work (one
    more round of it: ``left`` to go), help (a round an ally spends helping), done (the armor and
    shield are off, dragged behind), stopped (the wearer fell: the work is lost).
    ``helper``: the ally who helps (the time halves), or None; on a ``help`` event ``actor`` is
    the helper and ``helper`` the wearer it helps."""

    type: ClassVar[str] = "armor"
    actor: str
    stage: str           # start | work | help | done | stopped
    armor: str
    rounds: int          # rounds of work in all
    left: int            # rounds still to go after this one
    helper: str | None = None


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
class ZoneEnded(Event):
    """A lasting spell area (grease) is over: its squares are clear again (docs/rules.md §8.1)."""

    type: ClassVar[str] = "zone_end"
    spell: str
    owner: str
    squares: tuple


@_event
class Refused(Event):
    """An action the rules do not allow here, with the reason (a value, not an error)."""

    type: ClassVar[str] = "refused"
    actor: str
    action: str
    reason: str


# -- the table: typed dice and the DM's hand (cavesim play) ----------------------------------------------------------------

@_event
class Rolled(Event):
    """A die the player rolled at the table and typed in (``cavesim play --dice manual``): whose roll,
    what it was for ("attack vs kobold-2"), the die ("d20", "1d8"), the modifier added to it and the
    value typed (the dice alone, before the modifier). It comes just before the event that used it."""

    type: ClassVar[str] = "roll"
    actor: str
    purpose: str
    die: str
    modifier: int
    value: int
    entered: bool = True


@_event
class DmEdit(Event):
    """The DM's hand: a change made outside the rules (``change``: hp, condition, move, pass), with the
    values it changed, ``before`` and ``after`` (e.g. {"hp": 7} -> {"hp": 3}; {"squares": [...]})."""

    type: ClassVar[str] = "dm"
    target: str
    change: str
    before: dict = field(default_factory=dict)
    after: dict = field(default_factory=dict)


# -- JSON lines ----------------------------------------------------------------------------------------

def dumps(events: Iterable[Event]) -> str:
    return "".join(json.dumps(e.to_json(), separators=(",", ":")) + "\n" for e in events)


def write_jsonl(path: str | Path, events: Iterable[Event]) -> None:
    atomic_write_text(path, dumps(events))


MAX_LOG_EVENTS = 200_000     # events in one fight log
MAX_LOG_LINE = 1 << 20       # bytes of one event (a line)
MAX_LOG_TEXT = 200           # characters of a text field (an id, a weapon, a reason)
MAX_LOG_LIST = 100_000       # items of one list field
MAX_LOG_NUMBER = 10 ** 9     # magnitude of any number
MAX_LOG_SIDE = 65_536        # columns or rows of the recorded map
_ID_FIELDS = ("actor", "target", "source", "direct", "helper")


class _Bad(Exception):
    """One problem of an event (a message without the place)."""


def _text(v: Any, what: str) -> str:
    if not isinstance(v, str):
        raise _Bad(f"{what} must be text, got {_short(v)}")
    if len(v) > MAX_LOG_TEXT:
        raise _Bad(f"{what} is {len(v):,} characters long (at most {MAX_LOG_TEXT})")
    return v


def _whole(v: Any, what: str, lo: int = -MAX_LOG_NUMBER, hi: int = MAX_LOG_NUMBER) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(f"{what} must be a whole number, got {_short(v)}")
    if not lo <= v <= hi:
        raise _Bad(f"{what} must be from {lo} to {hi}, got {_short(v)}")
    return v


def _short(v: Any) -> str:
    return shorten(v, 40)


def _scalar(v: Any, what: str) -> None:
    """A number, text, true/false or null (what a modifier table or a detail holds)."""
    if v is None or isinstance(v, bool):
        return
    if isinstance(v, int):
        _whole(v, what)
    elif isinstance(v, float):
        if not (abs(v) <= MAX_LOG_NUMBER):  # NaN fails this too
            raise _Bad(f"{what} must be a finite number, got {_short(v)}")
    elif isinstance(v, str):
        _text(v, what)
    else:
        raise _Bad(f"{what} must be a number or text, got {_short(v)}")


def _flat(v: Any, what: str) -> None:
    """A scalar, or a short list or table of scalars (one level)."""
    if isinstance(v, list):
        if len(v) > MAX_LOG_LIST:
            raise _Bad(f"{what} has {len(v):,} items (at most {MAX_LOG_LIST:,})")
        for k, x in enumerate(v):
            if isinstance(x, dict):
                _table(x, f"{what}[{k}]")
            elif isinstance(x, list) and what.count("[") < 2:
                _flat(x, f"{what}[{k}]")
            else:
                _scalar(x, f"{what}[{k}]")
    elif isinstance(v, dict):
        _table(v, what)
    else:
        _scalar(v, what)


def _table(v: Any, what: str) -> None:
    if not isinstance(v, dict):
        raise _Bad(f"{what} must be a table, got {_short(v)}")
    if len(v) > 1000:
        raise _Bad(f"{what} has {len(v):,} entries (at most 1000)")
    for k, x in v.items():
        _text(k, f"{what} key")
        if isinstance(x, (list, dict)) and what.count(".") < 2:
            _flat(x, f"{what}.{k}")
        else:
            _scalar(x, f"{what}.{k}")


class _Map:
    """What the log's encounter_start says: the map's size and the creatures' ids."""

    def __init__(self, cols: int, rows: int, ids: set[str]):
        self.cols, self.rows, self.ids = cols, rows, ids

    def square(self, v: Any, what: str, *, corner: bool = False) -> None:
        if not (isinstance(v, list) and len(v) == 2):
            raise _Bad(f"{what} must be a square [x, y], got {_short(v)}")
        x = _whole(v[0], f"{what} x")
        y = _whole(v[1], f"{what} y")
        extra = 1 if corner else 0   # a grid intersection may lie on the far edge
        if not (0 <= x < self.cols + extra and 0 <= y < self.rows + extra):
            raise _Bad(f"{what} ({x}, {y}) is off the {self.cols}x{self.rows} map")

    def squares(self, v: Any, what: str) -> None:
        if not isinstance(v, list) or len(v) > MAX_LOG_LIST:
            raise _Bad(f"{what} must be a list of squares [[x, y], ...], got {_short(v)}")
        for k, sq in enumerate(v):
            self.square(sq, f"{what}[{k}]")

    def ident(self, v: Any, what: str, *, none: bool = False) -> None:
        if v is None and none:
            return
        _text(v, what)
        if v and v not in self.ids:  # "" is no creature (a flask thrown at a grid intersection)
            raise _Bad(f"{what} {_short(v)} is not a creature of this fight")


def _check_start(d: dict) -> _Map:

    cols = _whole(d.get("cols"), "cols", 1, MAX_LOG_SIDE)
    rows = _whole(d.get("rows"), "rows", 1, MAX_LOG_SIDE)
    _text(d.get("map"), "map")
    _whole(d.get("seed"), "seed", 0, 2 ** 64 - 1)
    combatants = d.get("combatants")
    if not isinstance(combatants, list) or not combatants or len(combatants) > 1000:
        raise _Bad("combatants must be a list of 1 to 1000 creatures")
    m = _Map(cols, rows, set())
    for k, c in enumerate(combatants):
        _check_combatant(m, c, f"combatants[{k}]")
    return m


def _check_combatant(m: _Map, c: Any, what: str) -> None:
    """One creature as ``encounter_start`` lists it (or a ``split`` event its new half); its id
    joins the fight's."""
    if not isinstance(c, dict):
        raise _Bad(f"{what} must be a table, got {_short(c)}")
    cid = _text(c.get("id"), f"{what}.id")
    if cid in m.ids:
        raise _Bad(f"{what}.id {_short(cid)} is given twice")
    m.ids.add(cid)
    for key in ("name", "team", "template"):
        _text(c.get(key, ""), f"{what}.{key}")
    size = c.get("size")
    try:
        Size.parse(_text(size, f"{what}.size"))
    except KeyError:
        raise _Bad(f"{what}.size {_short(size)} is not a size (fine, diminutive, tiny, small, medium, large, "
                   "huge, gargantuan, colossal)") from None
    m.squares(c.get("squares"), f"{what}.squares")
    if not c.get("squares"):
        raise _Bad(f"{what}.squares is empty")
    _whole(c.get("max_hp"), f"{what}.max_hp", 1, 1_000_000)
    _whole(c.get("hp"), f"{what}.hp", -1_000_000, 1_000_000)
    if not isinstance(c.get("swarm", False), bool):
        raise _Bad(f"{what}.swarm must be true or false")
    for key, x in c.items():
        if key not in ("squares",):
            _flat(x, f"{what}.{key}")


def check_event(d: Any, m: _Map | None) -> _Map | None:
    """Check one decoded event against its type's fields (types, ranges, squares on the map,
    creatures of the fight); returns the map facts (from ``encounter_start``). Raises _Bad."""
    if not isinstance(d, dict):
        raise _Bad(f"an event is a JSON object, got {_short(d)}")
    kind = d.get("type")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise _Bad(f"unknown event type {_short(kind)}")
    if m is None:
        if kind != "encounter_start":
            raise _Bad(f"the log must begin with encounter_start, not {_short(kind)}")
        m = _check_start(d)
    elif kind == "encounter_start":
        raise _Bad("a second encounter_start: a log holds one fight")
    elif kind == "split":   # a new creature joins the fight (docs/rules.md §11.14)
        c = d.get("creature")
        if not isinstance(c, dict) or c.get("id") != d.get("new"):
            raise _Bad(f"creature must describe the new creature {_short(d.get('new'))}, got {_short(c)}")
        _check_combatant(m, c, "creature")
    for f in dataclasses.fields(cls):
        name, ann = f.name, str(f.type)
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if name not in d:
            if required:
                raise _Bad(f"{kind} has no {name}")
            continue
        v = d[name]
        if kind == "encounter_start" and name == "combatants":
            continue
        if name in _ID_FIELDS:
            m.ident(v, name, none="None" in ann)
        elif name == "targets":
            if not isinstance(v, list) or len(v) > 1000:
                raise _Bad(f"targets must be a list of creature ids, got {_short(v)}")
            for k, t in enumerate(v):
                if isinstance(t, dict):
                    _table(t, f"targets[{k}]")
                else:
                    m.ident(t, f"targets[{k}]")
        elif name == "squares" or (name == "at" and kind in ("died", "dispersed")):
            m.squares(v, name)
        elif name == "at":
            if v is None and "None" in ann:
                continue
            m.square(v, name, corner=kind == "splash")
        elif name == "path":
            if not isinstance(v, list) or len(v) > MAX_LOG_LIST:
                raise _Bad(f"path must be a list of steps, got {_short(v)}")
            for k, st in enumerate(v):
                if not isinstance(st, dict):
                    raise _Bad(f"path[{k}] must be a table, got {_short(st)}")
                m.square(st.get("at"), f"path[{k}].at")
                _table({a: b for a, b in st.items() if a != "at"}, f"path[{k}]")
        elif name in ("order", "survivors"):
            if not isinstance(v, list) or len(v) > 1000:
                raise _Bad(f"{name} must be a list of creatures, got {_short(v)}")
            for k, c in enumerate(v):
                if not isinstance(c, dict):
                    raise _Bad(f"{name}[{k}] must be a table, got {_short(c)}")
                m.ident(c.get("id"), f"{name}[{k}].id")
                _table(c, f"{name}[{k}]")
        elif ann == "int":
            _whole(v, name)
        elif ann == "int | None":
            if v is not None:
                _whole(v, name)
        elif ann == "bool":
            if not isinstance(v, bool):
                raise _Bad(f"{name} must be true or false, got {_short(v)}")
        elif ann == "str":
            _text(v, name)
        elif ann == "str | None":
            if v is not None:
                _text(v, name)
        elif ann == "dict":
            _table(v, name)
        else:
            _flat(v, name)
        if name in ("hp_before", "hp_after", "amount") and isinstance(v, int) and abs(v) > 1_000_000:
            raise _Bad(f"{name} must be from -1000000 to 1000000, got {v}")
    return m


def read_jsonl(path: str | Path) -> Iterator[Event]:
    """The events of a fight log (``cavesim fight --events``), every field checked on reading:
    only a regular file of at most 64 MiB, UTF-8 JSON lines of at most 1 MiB, at most
    :data:`MAX_LOG_EVENTS` events, the first an ``encounter_start``; each event's fields of the
    right types and ranges, its squares on the recorded map and its creatures in the fight. A
    problem is a :class:`~sim.base.errors.DataError` naming the file and the line."""
    p = Path(path)
    raw = read_input(p, what="fight log")
    hint = "the file must hold events written by cavesim fight --events"
    m = None
    count = 0
    for i, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        count += 1
        if count > MAX_LOG_EVENTS:
            raise DataError(f"{p}:{i}: more than {MAX_LOG_EVENTS:,} events; a fight log holds at most that many")
        if len(line) > MAX_LOG_LINE:
            raise DataError(f"{p}:{i}: a line of {len(line):,} bytes (at most {MAX_LOG_LINE:,}); {hint}")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"{p}:{i}: not UTF-8 text (byte {exc.start}); {hint}") from None
        try:
            d = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise DataError(f"{p}:{i}: not a cavesim event (nested too deep); {hint}") from None
        except ValueError as exc:
            raise DataError(f"{p}:{i}: not a cavesim event ({_short_msg(exc)}); {hint}") from None
        try:
            m = check_event(d, m)
            event = from_json(d)
        except _Bad as exc:
            raise DataError(f"{p}:{i}: {exc}; {hint}") from None
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            raise DataError(f"{p}:{i}: not a cavesim event ({_short_msg(exc)}); {hint}") from None
        yield event


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a fight log holds")


def _short_msg(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]
