"""What a crawl gives back, as typed, frozen records (the fight's events are the model:
:mod:`sim.engine.events`): one record kind per timeline entry, the summary of each fight on the
way, a member's track, the reasons a member stays behind or keeps its armour off, and the crawl's
result.

Records carry ids and numbers, never sentences. A reason is a record (:class:`CannotFollow`,
:class:`CannotPass`, :class:`FellInFight`, :class:`FightNear`) that the story says in words
(:func:`sim.story.crawlwords.reason_words`); so each record's declared serializer,
``to_json(say)``, takes the words for reasons from its caller (``say``), and gives exactly the
dict that ``cavesim crawl --json`` prints (:func:`sim.story.crawlwords.crawl_json`).

>>> e = Wait(start=1.5, rounds=0.0, who=("mialee",), at=(13, 2), for_whom="tordek", waited={"mialee": 0.5})
>>> e.what, e.to_json(str)
('wait', {'start_rounds': 1.5, 'rounds': {'mialee': 0.5}, 'minutes': 0.0, 'what': 'wait', 'who': ['mialee'], 'at': [13, 2], 'for': 'tordek'})
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from sim.base.coords import Pos
from sim.engine.events import Event
from sim.rules.categories import Category
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import CrawlSpec

# =================================================================================================
# Reasons: why a member stays behind, why armour stays off (said in words by sim.story)
# =================================================================================================


@dataclass(frozen=True, slots=True)
class CannotFollow:
    """A member the route is too small for (it was planned for the others): it gets as far as
    ``stop``; the next square is ``category`` for its body (``size``: the size's key, ``name``:
    its stat block's name)."""

    stop: Pos
    category: Category
    size: str
    name: str


@dataclass(frozen=True, slots=True)
class CannotPass:
    """A member who cannot get through a stretch of the route (of ``kind``, starting at ``at``):
    no check it could make there succeeds."""

    kind: str
    at: Pos


@dataclass(frozen=True, slots=True)
class FellInFight:
    """A member out of a fight on the way (dead, dying or otherwise down at its end)."""


@dataclass(frozen=True, slots=True)
class FightNear:
    """Armour kept off: a monster the party has not met yet is near (``FIGHT_NEAR_SQUARES``)."""


Why = CannotFollow | CannotPass | FellInFight | FightNear
Say = Callable[[Why], str]   # a reason in words (the story's: sim.story.crawlwords.reason_words)

# =================================================================================================
# Parts of entries
# =================================================================================================


@dataclass(frozen=True, slots=True)
class Check:
    """An Escape Artist check on the way: its square, its DC and how many tries it took."""

    at: Pos
    dc: int
    tries: float

    def to_json(self) -> dict[str, Any]:
        return {"at": list(self.at), "dc": self.dc, "tries": self.tries}


@dataclass(frozen=True, slots=True)
class MonsterNotices:
    """A monster notices the party from ``from_ft`` feet, ``by`` its party's light (``light``) or
    by its senses (``senses``)."""

    monster: str
    from_ft: int
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"monster": self.monster, "from_ft": self.from_ft, "by": self.by}


@dataclass(frozen=True, slots=True)
class PartyNotices:
    """A member of the party perceives a monster from ``from_ft`` feet, ``by`` light
    (``light``: the monster stands in a light the member sees), ``darkvision`` or ``senses``
    (pinpointed, not seen)."""

    member: str
    monster: str
    from_ft: int
    by: str

    def to_json(self) -> dict[str, Any]:
        return {"member": self.member, "monster": self.monster, "from_ft": self.from_ft, "by": self.by}


@dataclass(frozen=True, slots=True)
class FightSummary:
    """A fight on the way: where and when (rounds of crawl time) it began, how many rounds it
    lasted, who won and why it ended (the encounter's ``end_reason``), its seed, who fought, who of
    the party still stands, and whose armour was off."""

    at: Pos
    start_rounds: float
    rounds: int
    winner: str | None
    reason: str
    seed: int
    party: tuple[str, ...]
    monsters: tuple[str, ...]
    party_standing: tuple[str, ...]
    armor_off: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"at": list(self.at), "start_rounds": self.start_rounds, "rounds": self.rounds,
                "winner": self.winner, "reason": self.reason, "seed": self.seed, "party": list(self.party),
                "monsters": list(self.monsters), "party_standing": list(self.party_standing),
                "armor_off": list(self.armor_off)}


class TrackPoint(NamedTuple):
    """A member reaches square ``at`` at ``t`` (rounds of crawl time), lying prone or not."""

    t: float
    at: Pos
    prone: bool


# =================================================================================================
# Timeline entries: one record kind per ``what``
# =================================================================================================


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One line of the timeline: at ``start`` rounds, ``what`` happens to ``who`` for
    ``rounds``, at square ``at``. A kind's own fields follow the entry's in its JSON
    (:meth:`fields`); where a kind's field has the name of an entry's, the kind's value is the
    one written, in the entry's place."""

    what: ClassVar[str]   # each kind's: walk, single_file, crawl, awkward, tight, stand_up, armor_off, ...
    start: float
    rounds: float
    who: tuple[str, ...]
    at: Pos

    def fields(self, say: Say) -> dict[str, Any]:
        """The kind's own fields, as JSON."""
        return {}

    def to_json(self, say: Say) -> dict[str, Any]:
        return {"start_rounds": self.start, "rounds": self.rounds,
                "minutes": round(self.rounds / combat_modifier("time", "rounds_per_minute"), 3),
                "what": self.what, "who": list(self.who), "at": list(self.at), **self.fields(say)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Stretch(Entry):
    """A stretch of the route of one kind: its length in squares, each member's own time
    (rounds), the slowest (whom the others wait for), and the categories each member met there."""

    squares: int
    member_rounds: dict[str, float]
    slowest: str
    categories: dict[str, tuple[Category, ...]]   # each member's, sorted by name

    def fields(self, say: Say) -> dict[str, Any]:
        return {"squares": self.squares, "member_rounds": dict(self.member_rounds), "slowest": self.slowest,
                "categories": {k: [c.name for c in v] for k, v in self.categories.items()}}


@dataclass(frozen=True, slots=True, kw_only=True)
class Walk(Stretch):
    what: ClassVar[str] = "walk"


@dataclass(frozen=True, slots=True, kw_only=True)
class SingleFile(Stretch):
    what: ClassVar[str] = "single_file"


@dataclass(frozen=True, slots=True, kw_only=True)
class Crawlway(Stretch):
    what: ClassVar[str] = "crawl"


@dataclass(frozen=True, slots=True, kw_only=True)
class Squeeze(Stretch):
    """A stretch where members squeeze: with each member's Escape Artist checks."""

    checks: dict[str, tuple[Check, ...]]

    def fields(self, say: Say) -> dict[str, Any]:
        return {**Stretch.fields(self, say),
                "checks": {k: [c.to_json() for c in v] for k, v in self.checks.items()}}


@dataclass(frozen=True, slots=True, kw_only=True)
class Awkward(Squeeze):
    what: ClassVar[str] = "awkward"


@dataclass(frozen=True, slots=True, kw_only=True)
class Tight(Squeeze):
    what: ClassVar[str] = "tight"


STRETCH_KINDS: dict[str, type[Stretch]] = {   # a stretch's kind (sim.crawl.route.KINDS) -> its entry
    "open": Walk, "single_file": SingleFile, "crawl": Crawlway, "awkward": Awkward, "tight": Tight}


@dataclass(frozen=True, slots=True, kw_only=True)
class StandUp(Entry):
    what: ClassVar[str] = "stand_up"


@dataclass(frozen=True, slots=True, kw_only=True)
class Dressing(Entry):
    """Armour taken off or put on: which armour (its key), whether an ally helped, the minutes."""

    armor: str
    helped: bool
    minutes: float

    def fields(self, say: Say) -> dict[str, Any]:
        return {"armor": self.armor, "helped": self.helped, "minutes": self.minutes}


@dataclass(frozen=True, slots=True, kw_only=True)
class ArmorOff(Dressing):
    what: ClassVar[str] = "armor_off"


@dataclass(frozen=True, slots=True, kw_only=True)
class ArmorOn(Dressing):
    what: ClassVar[str] = "armor_on"


@dataclass(frozen=True, slots=True, kw_only=True)
class KeepArmorOff(Entry):
    what: ClassVar[str] = "keep_armor_off"
    why: Why

    def fields(self, say: Say) -> dict[str, Any]:
        return {"reason": say(self.why)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Wait(Entry):
    """Those through a stretch wait for ``for_whom``, each for its own ``waited`` rounds."""

    what: ClassVar[str] = "wait"
    for_whom: str
    waited: dict[str, float]

    def fields(self, say: Say) -> dict[str, Any]:
        return {"for": self.for_whom, "rounds": dict(self.waited)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Noticed(Entry):
    """Who noticed whom first (``first``: ``monsters``, ``party`` or ``both``), and how."""

    what: ClassVar[str] = "noticed"
    first: str
    monsters_noticed: tuple[MonsterNotices, ...]
    party_noticed: tuple[PartyNotices, ...]

    def fields(self, say: Say) -> dict[str, Any]:
        return {"first": self.first, "monsters_noticed": [m.to_json() for m in self.monsters_noticed],
                "party_noticed": [p.to_json() for p in self.party_noticed]}


@dataclass(frozen=True, slots=True, kw_only=True)
class Fight(Entry):
    """A fight on the way (its summary's fields follow the entry's; its whole rounds replace the
    entry's)."""

    what: ClassVar[str] = "encounter"
    summary: FightSummary

    def fields(self, say: Say) -> dict[str, Any]:
        return self.summary.to_json()


@dataclass(frozen=True, slots=True, kw_only=True)
class LeftBehind(Entry):
    what: ClassVar[str] = "left_behind"
    why: Why

    def fields(self, say: Say) -> dict[str, Any]:
        return {"reason": say(self.why)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Arrive(Entry):
    what: ClassVar[str] = "arrive"


@dataclass(frozen=True, slots=True, kw_only=True)
class Light(Entry):
    """The party's light lit (``burns_minutes``: None for a light that never burns out) or, after a
    fight, ``picked_up`` still burning; ``carried_by`` bears it."""

    what: ClassVar[str] = "light"
    item: str
    carried_by: str
    burns_minutes: float | None = None
    picked_up: bool = False

    def fields(self, say: Say) -> dict[str, Any]:
        if self.picked_up:
            return {"item": self.item, "carried_by": self.carried_by, "picked_up": True}
        return {"item": self.item, "carried_by": self.carried_by, "burns_minutes": self.burns_minutes}


@dataclass(frozen=True, slots=True, kw_only=True)
class LightOut(Entry):
    what: ClassVar[str] = "light_out"
    item: str

    def fields(self, say: Say) -> dict[str, Any]:
        return {"item": self.item}


# =================================================================================================
# The crawl
# =================================================================================================


@dataclass(frozen=True, slots=True)
class CrawlResult:
    """The crawl of ``spec``: its route, timeline, each member's track, who was left behind and
    why, who arrived, how long it took (rounds), its fights and their events."""

    spec: CrawlSpec
    route: tuple[Pos, ...]
    timeline: tuple[Entry, ...]
    tracks: dict[str, tuple[TrackPoint, ...]]
    left_behind: dict[str, Why]
    arrived: tuple[str, ...]
    total_rounds: float
    fights: tuple[FightSummary, ...]
    events: tuple[Event, ...]

    @property
    def minutes(self) -> float:
        return self.total_rounds / combat_modifier("time", "rounds_per_minute")

    def to_json(self, say: Say) -> dict[str, Any]:
        return {
            "name": self.spec.name, "map": self.spec.grid.name, "seed": self.spec.seed,
            "from": {"name": self.spec.start_name, "at": list(self.spec.start)},
            "to": {"name": self.spec.goal_name, "at": list(self.spec.goal)},
            "party": [m.id for m in self.spec.party],
            "route": [list(p) for p in self.route],
            "timeline": [e.to_json(say) for e in self.timeline],
            "left_behind": {k: say(v) for k, v in self.left_behind.items()}, "arrived": list(self.arrived),
            "total_rounds": self.total_rounds, "total_minutes": round(self.minutes, 3),
            "fights": [f.to_json() for f in self.fights],
        }
