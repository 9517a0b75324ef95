"""The crawl in words: every sentence about a crawl (:mod:`sim.crawl` gives ids and numbers
only). Why a member stays behind or keeps its armour off, the party's light, who noticed whom;
the crawl as the JSON ``cavesim crawl --json`` prints (:func:`crawl_json`: the records' own
serializers, with the reasons in these words); and, as part of
:class:`~sim.view.crawlplan.CrawlPlan`, the caption at any moment, each timeline entry as a
sentence for the journey log, the outcome, names of members and groups, and crawl time as a
clock.

>>> clock(42), join_names(["Bruna", "Lidda"])
('4:12', 'Bruna and Lidda')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from sim.crawl.records import (
    ArmorOff,
    ArmorOn,
    Arrive,
    Awkward,
    CannotFollow,
    CannotPass,
    CrawlResult,
    Crawlway,
    FellInFight,
    Fight,
    FightNear,
    KeepArmorOff,
    LeftBehind,
    Light,
    LightOut,
    Noticed,
    Squeeze,
    StandUp,
    Stretch,
    Tight,
    Wait,
    Why,
)
from sim.rules.categories import Category, effects


def reason_words(why: Why) -> str:
    """Why a member stays behind or keeps its armour off, in words.

    >>> print(reason_words(CannotFollow(stop=(4, 1), category=Category.TIGHT_SQUEEZE, size="large", name="Ogre")))
    cannot follow past (4, 1): Tight Squeeze for a large Ogre
    >>> print(reason_words(CannotPass(kind="crawl", at=(7, 2))))
    cannot get through the crawl stretch at (7, 2) (no check it could make succeeds)
    >>> print(reason_words(FellInFight()), "/", reason_words(FightNear()))
    fell in the fight / a fight is near
    """
    if isinstance(why, CannotFollow):
        return f"cannot follow past {why.stop}: {why.category.label} for a {why.size} {why.name}"
    if isinstance(why, CannotPass):
        return f"cannot get through the {why.kind} stretch at {why.at} (no check it could make succeeds)"
    if isinstance(why, FellInFight):
        return "fell in the fight"
    if isinstance(why, FightNear):
        return "a fight is near"
    raise TypeError(f"not a crawl reason: {why!r}")


def crawl_json(result: CrawlResult) -> dict[str, Any]:
    """The crawl as ``cavesim crawl --json`` prints it (and the crawl golden hashes it): every
    record's own serializer, the reasons in words."""
    return result.to_json(reason_words)


def light_words(who: str, e: Light | LightOut) -> str:
    """A light entry of the timeline in words.

    >>> print(light_words("lidda", Light(start=0.0, rounds=0.0, who=("lidda",), at=(3, 4), item="torch",
    ...                                  carried_by="lidda", burns_minutes=60.0)))
    lidda lights a torch and carries the party's light (it burns 60 min)
    >>> print(light_words("lidda", LightOut(start=600.0, rounds=0.0, who=("lidda",), at=(9, 4), item="torch")))
    lidda's torch burns out
    """
    item = e.item.replace("-", " ")
    if isinstance(e, LightOut):
        return f"{who}'s {item} burns out"
    if e.picked_up:
        return f"{who} picks up the burning {item} and carries the party's light"
    m = e.burns_minutes
    return f"{who} lights a {item} and carries the party's light" + (f" (it burns {m:g} min)" if m else "")


_HOW_MONSTER = {"light": "sees the party's light", "senses": "notices the party by its senses"}
_HOW_MEMBER = {"light": "sees {} in the light", "darkvision": "sees {} by darkvision", "senses": "pinpoints {} by its senses"}
_FIRST = {"monsters": "The monsters notice first", "party": "The party notices first",
          "both": "Both sides notice each other"}


def notice_words(e: Noticed, name: Callable[[str], str] = str) -> str:
    """A ``noticed`` entry of the timeline in words (the first three noticings).

    >>> from sim.crawl.records import MonsterNotices, PartyNotices
    >>> print(notice_words(Noticed(start=0.5, rounds=0.0, who=("kobold-2",), at=(5, 14), first="monsters",
    ...                            monsters_noticed=(MonsterNotices("kobold-2", 200, "light"),), party_noticed=())))
    The monsters notice first: kobold-2 sees the party's light from 200 ft; the party has noticed nothing
    >>> print(notice_words(Noticed(start=0.0, rounds=0.0, who=("tordek",), at=(1, 1), first="party",
    ...                            monsters_noticed=(), party_noticed=(PartyNotices("tordek", "ogre", 60, "darkvision"),))))
    The party notices first: tordek sees ogre by darkvision from 60 ft
    """
    parts = [f"{name(x.monster)} {_HOW_MONSTER.get(x.by, 'notices the party')} from {x.from_ft} ft"
             for x in e.monsters_noticed]
    parts += [f"{name(x.member)} {_HOW_MEMBER.get(x.by, 'notices {}').format(name(x.monster))} from {x.from_ft} ft"
              for x in e.party_noticed]
    more = f" and {len(parts) - 3} more" if len(parts) > 3 else ""
    head = _FIRST.get(e.first, "Noticed")
    tail = "" if e.party_noticed else "; the party has noticed nothing"
    return f"{head}: {'; '.join(parts[:3])}{more}{tail}"


def clock(rounds: float) -> str:
    """Crawl time as minutes:seconds (a round is 6 seconds).

    >>> clock(0), clock(10.5), clock(42)
    ('0:00', '1:03', '4:12')
    """
    seconds = int(round(max(0.0, rounds) * 6))
    return f"{seconds // 60:d}:{seconds % 60:02d}"


def join_names(names: list[str]) -> str:
    """
    >>> join_names(["Bruna"]), join_names(["Bruna", "Lidda"]), join_names(["A", "B", "C"])
    ('Bruna', 'Bruna and Lidda', 'A, B and C')
    """
    names = [n for n in names if n]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class Moment(Protocol):
    """A part of the crawl on screen as its words need it (a
    :class:`~sim.view.crawlplan.Segment`): its kind, the timeline entries it shows, its fight."""

    @property
    def kind(self) -> str: ...

    @property
    def entries(self) -> tuple[int, ...]: ...

    @property
    def fight(self) -> int: ...


class CrawlWords:
    """Captions and sentences of a crawl on screen, a component of
    :class:`~sim.view.crawlplan.CrawlPlan` (its ``words``). ``result``: the crawl; ``labels``:
    each creature's name on screen; ``segment_at(s)``: the part shown at screen time ``s``;
    ``waiting_for(s)``: who waits for whom then (None: nobody)."""

    def __init__(self, result: CrawlResult, labels: dict[str, str], *, segment_at: Callable[[float], Moment],
                 waiting_for: Callable[[float], "tuple[list[str], str] | None"]):
        self.result = result
        self.spec = result.spec
        self.grid = result.spec.grid
        self.total = float(result.total_rounds)
        self.party = [m.id for m in result.spec.party]
        self.labels = labels
        self.segment_at = segment_at
        self.waiting_for = waiting_for

    def name(self, cid: str) -> str:
        return self.labels.get(cid, cid)

    def names(self, ids) -> str:
        ids = list(ids)
        if set(ids) >= set(self.party) and len(self.party) > 1:
            return "The party"
        return join_names([self.name(c) for c in ids])

    def goal(self) -> str:
        """The goal in words: 'the lair' for a named point, else its square."""
        name = self.spec.goal_name
        return f"the {name}" if name and name in self.grid.points else str(tuple(self.spec.goal))

    def origin(self) -> str:
        name = self.spec.start_name
        return f"the {name}" if name and name in self.grid.points else str(tuple(self.spec.start))

    def group_names(self, ids) -> str:
        """'4 kobolds', or the names."""
        ids = list(ids)
        base = {self.labels.get(c, c).rstrip("0123456789 ") for c in ids}
        if len(ids) > 1 and len(base) == 1:
            return f"{len(ids)} {next(iter(base)).lower()}s"
        return join_names([self.name(c) for c in ids])

    def entry_text(self, i: int) -> str:
        """A timeline entry in words, for the caption and the log."""
        e = self.result.timeline[i]
        who = self.names(e.who)
        many = len(e.who) > 1 and who != "The party"
        if isinstance(e, Stretch):
            return self._stretch_text(e, who, many)
        if isinstance(e, (Light, LightOut)):
            return light_words(who, e)
        if isinstance(e, Noticed):
            return notice_words(e, self.name)
        if isinstance(e, ArmorOff):
            return f"{who} takes off the {e.armor} ({e.minutes:g} min{', helped' if e.helped else ''})"
        if isinstance(e, ArmorOn):
            return f"{who} puts the {e.armor} back on ({e.minutes:g} min{', helped' if e.helped else ''})"
        if isinstance(e, KeepArmorOff):
            return f"{who} keep{'' if many else 's'} the armour off: {reason_words(e.why)}"
        if isinstance(e, Wait):
            return f"{who} wait{'' if many else 's'} for {self.name(e.for_whom)}"
        if isinstance(e, LeftBehind):
            return f"{who} {'are' if many else 'is'} left behind: {reason_words(e.why)}"
        if isinstance(e, Fight):
            monsters = e.summary.monsters
            head = (f"FIGHT! {self.group_names(monsters)} notice{'' if len(monsters) > 1 else 's'} the party at "
                    f"{tuple(e.at)}")
            if e.summary.armor_off:
                head += f"; armour off: {join_names([self.name(c) for c in e.summary.armor_off])}"
            return head
        if isinstance(e, Arrive):
            return f"{who} arrive{'' if many else 's'} at {self.goal()}"
        if isinstance(e, StandUp):
            return f"{who} stand{'' if many else 's'} up"
        raise TypeError(f"not a crawl timeline entry: {e!r}")

    def _stretch_text(self, e: Stretch, who: str, many: bool) -> str:
        """A stretch of the route in words: its length and time, who crawls, the Escape Artist tries."""
        rounds = f"{e.rounds:g} round{'s' if e.rounds != 1 else ''}"
        squares = f"{e.squares} square{'s' if e.squares != 1 else ''}"
        if e.what == "walk":
            return f"{who} walk{'' if many else 's'} {squares} ({rounds})"
        if e.what == "single_file":
            return f"Single file through the passage: {squares}, {rounds}"
        place = {Crawlway: "the crawlway",
                 Awkward: f"the squeeze (awkward space, Escape Artist DC {effects(Category.AWKWARD).escape_dc})",
                 Tight: f"the tight squeeze (Escape Artist DC {effects(Category.TIGHT_SQUEEZE).escape_dc})"}[type(e)]
        text = f"{'Single file through' if many else 'Through'} {place}: {squares}, {rounds}"
        crawlers = [c for c, cats in e.categories.items() if Category.CRAWL in cats]
        if isinstance(e, Crawlway) and crawlers and len(crawlers) < len(e.who):
            text += f"; {join_names([self.name(c) for c in crawlers])} crawl{'s' if len(crawlers) == 1 else ''}"
        checks = e.checks if isinstance(e, Squeeze) else {}
        tries = {c: sum(x.tries for x in v) for c, v in checks.items() if v}
        if tries:
            text += "; " + ", ".join(f"{self.name(c)} {n:g} tr{'y' if n == 1 else 'ies'}" for c, n in tries.items())
        return text

    def caption(self, s: float) -> str:
        """What the caption says at screen time ``s`` (fights: the renderer's own)."""
        g = self.segment_at(s)
        if g.kind == "intro":
            sq = len(self.result.route) - 1
            return (f"From {self.origin()} to {self.goal()}: {sq} squares ({sq * 5} ft); marching order "
                    f"{', '.join(self.name(c) for c in self.party)}")
        if g.kind == "outro":
            return self.outcome()
        if g.kind == "regroup" and 0 <= g.fight < len(self.result.fights):
            f = self.result.fights[g.fight]
            if f.winner == "party":
                return f"The party wins after {f.rounds} rounds and goes on towards {self.goal()}"
            return f"The party loses after {f.rounds} rounds"
        if not g.entries:
            return "On the way"
        parts = [self.entry_text(i) for i in g.entries[:1]]
        if len(g.entries) > 1 and g.kind == "dress":
            parts = ["; ".join(self.entry_text(i) for i in g.entries)]
        w = self.waiting_for(s)
        if w is not None:
            who, whom = w
            parts.append(f"{join_names([self.name(c) for c in who])} wait{'' if len(who) > 1 else 's'} for {self.name(whom)}")
        return "  ·  ".join(parts)

    def outcome(self) -> str:
        r = self.result
        if r.arrived:
            who = self.names(r.arrived)
            return f"{who} reach{'' if len(r.arrived) > 1 and who != 'The party' else 'es'} {self.goal()} after " \
                   f"{clock(self.total)} ({self.total:g} rounds)"
        return f"No one reaches {self.goal()}"
