"""A crawl on screen, without pygame: when each part of the journey plays (the time mapping) and
where every member of the party is drawn at any moment (the motion).

The crawl (:mod:`sim.crawl.run`) gives a timeline in rounds (typed records,
:mod:`sim.crawl.records`) and each member's track (the square it reaches at each moment). The
screen cannot play four minutes of armour-donning at the pace of a crawl through a squeeze, so
crawl time is mapped onto screen time part by part (STYLE habit 11: pure functions of time,
drawn at any moment):

* every part of the timeline gets ``rate x its rounds`` screen seconds, within a floor and a
  ceiling (:data:`RATE`): walking is compressed most (8x faster than life), squeezes least (they
  are what the crawl is about), armour taken off or put on passes in a couple of seconds however
  many minutes it takes;
* a fight is spliced in as the renderer's own fight animation of its events, exactly as long as
  the director plays them (:func:`fight_schedule`), with the crawl clock running through its
  rounds; short moves gather the party into its fighting places before and regroup it after;
* moments with no length that matter (someone left behind, armour kept off) hold for a beat.

:class:`CrawlPlan` is that schedule plus the motion: each member moves along the route at its own
timing (its track), in single file where the way is narrow and two abreast where it is open; a
follower never walks through the one ahead (it queues behind it). Same crawl, same plan, same
positions at every moment.

>>> plan_rate("walk", 3.0), plan_rate("crawl", 2.5), plan_rate("armor_on", 20.0)
(2.25, 4.0, 3.0)
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field

from sim.base.coords import Pos
from sim.crawl.records import CrawlResult, Stretch, Wait
from sim.engine import events as ev
from sim.rules.sizes import Size
from sim.story.crawlwords import CrawlWords
from sim.view.model import ViewModel, labels_for
from sim.view.timeline import Director

STRETCHES = ("walk", "single_file", "crawl", "awkward", "tight", "stand_up")
DRESSING = ("armor_off", "armor_on")
BEATS = ("left_behind", "keep_armor_off")

# Screen seconds per round of crawl time, then the shortest and the longest a part may last on
# screen (at speed 1). A round is 6 s of life: walking plays 8x faster, crawling about 3.7x,
# squeezes 2.5x; a minute of armour passes in 3 s at most.
RATE: dict[str, tuple[float, float, float]] = {
    "walk": (0.75, 0.6, 6.0),
    "single_file": (1.0, 0.8, 7.0),
    "crawl": (1.6, 1.5, 9.0),
    "awkward": (2.4, 2.0, 10.0),
    "tight": (2.4, 2.0, 12.0),
    "armor_off": (0.3, 1.8, 3.0),
    "armor_on": (0.3, 1.8, 3.0),
    "stand_up": (1.6, 0.8, 2.0),   # getting up after crawling out, before dressing
}
INTRO = 3.0      # the title card
BEAT = 1.6       # a moment with no length that the viewer should read
GATHER = 0.8     # the party steps into its places before a fight
REGROUP = 1.0    # and back into file after it
OUTRO = 4.0      # the arrival card
ABREAST = 0.5    # how far (squares) either side of the route two members walk abreast


def plan_rate(what: str, rounds: float) -> float:
    """Screen seconds (at speed 1) for a part of the crawl of ``rounds`` rounds."""
    rate, lo, hi = RATE[what]
    return round(min(hi, max(lo, rate * rounds)), 6)


# =================================================================================================
# The schedule
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Segment:
    """One part of the crawl on screen: crawl time ``t0..t1`` (rounds) plays in screen time
    ``s0..s1`` (seconds), linearly, or through ``knots`` (screen, crawl) for a fight.

    ``kind``: intro, travel (a stretch of the route), dress (armour off or on), beat, gather,
    fight, regroup or outro; ``what``: the timeline's word for it; ``entries``: the timeline
    entries it shows."""

    kind: str
    what: str
    t0: float
    t1: float
    s0: float
    s1: float
    entries: tuple[int, ...] = ()
    fight: int = -1
    knots: tuple = ()

    def crawl_time(self, s: float) -> float:
        if self.knots:
            ss = [k[0] for k in self.knots]
            j = bisect.bisect_right(ss, s) - 1
            if j < 0:
                return self.knots[0][1]
            if j >= len(self.knots) - 1:
                return self.knots[-1][1]
            (a, ta), (b, tb) = self.knots[j], self.knots[j + 1]
            return ta if b <= a else ta + (tb - ta) * (s - a) / (b - a)
        if self.s1 <= self.s0:
            return self.t1
        f = min(1.0, max(0.0, (s - self.s0) / (self.s1 - self.s0)))
        return self.t0 + (self.t1 - self.t0) * f

    def screen_time(self, t: float) -> float:
        """The first screen time in this segment at which the crawl time reaches ``t``."""
        if self.knots:
            for (a, ta), (b, tb) in zip(self.knots, self.knots[1:]):
                if t <= ta:
                    return a
                if t <= tb:
                    return a + (b - a) * (t - ta) / (tb - ta)
            return self.knots[-1][0]
        if self.t1 <= self.t0:
            return self.s0
        f = min(1.0, max(0.0, (t - self.t0) / (self.t1 - self.t0)))
        return self.s0 + (self.s1 - self.s0) * f


@dataclass
class FightShow:
    """A fight of the crawl as the renderer plays it."""

    index: int
    events: list
    starts: list[float]                  # each event's start, seconds after the fight begins
    duration: float                      # until the last event's hold is over
    start_squares: dict[str, list[Pos]]  # where everyone stands when it begins
    end_squares: dict[str, list[Pos]]    # and when it ends
    end_prone: dict[str, bool]
    fallen: set[str]                     # party members out of the fight at its end
    ids: set[str]


def fight_schedule(events: list, *, pace: float = 1.0):
    """When the director starts each event of a fight (seconds from its start, at speed 1), how
    long the whole fight plays, and the view at its end (a :class:`~sim.view.model.ViewModel`).

    This runs the renderer's own director on the events, so the crawl's schedule and the fight
    animation agree to the step."""
    model = ViewModel()
    d = Director(model, pace=pace)
    d.keep_history = False
    starts, total = d.schedule(events)
    return starts, total, model


def split_fights(result: CrawlResult) -> list[list]:
    """The crawl's fight events, one list per fight (each begins with an encounter start)."""
    out: list[list] = []
    for e in result.events:
        if isinstance(e, ev.EncounterStart):
            out.append([])
        if out:
            out[-1].append(e)
    return out


def _fight_knots(show: FightShow, s0: float, t0: float, rounds: float) -> tuple:
    """(screen, crawl) knots through a fight: a round of crawl time from each round's start to
    the next, turn by turn inside it."""
    marks: list[tuple[float, float]] = [(s0, t0)]
    events = show.events
    rnd, turns, turn = 0, 0, 0
    for i, e in enumerate(events):
        s = s0 + show.starts[i]
        if isinstance(e, ev.RoundStart):
            rnd, turn = e.round, 0
            turns = 0
            for later in events[i + 1:]:
                if isinstance(later, (ev.RoundStart, ev.EncounterEnd)):
                    break
                turns += isinstance(later, ev.TurnStart)
            marks.append((s, t0 + rnd - 1))
        elif isinstance(e, ev.TurnStart) and rnd and turns:
            marks.append((s, t0 + rnd - 1 + turn / turns))
            turn += 1
        elif isinstance(e, ev.EncounterEnd):
            marks.append((s, t0 + rounds))
    marks.append((s0 + show.duration, t0 + rounds))
    out = []
    hi = t0
    for s, t in marks:
        hi = min(t0 + rounds, max(hi, t))
        out.append((s, hi))
    return tuple(out)


# =================================================================================================
# Where members are
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Place:
    """Where a member is drawn: the centre of its token (squares, fractional), the square it is
    in, the way it faces, whether it lies prone, moves, or waits for the others."""

    x: float
    y: float
    square: Pos
    facing: tuple[int, int]
    prone: bool
    moving: bool
    waiting: bool


@dataclass
class _Track:
    times: list[float] = field(default_factory=list)
    progress: list[float] = field(default_factory=list)
    prone: list[bool] = field(default_factory=list)


class CrawlPlan:
    """The crawl on screen: the schedule (crawl time <-> screen time), who is where, what the
    caption says. ``start``: the crawl's opening ``encounter_start`` event (every creature's id,
    name, size and square, from :func:`sim.view.fights.crawl_start_event`); ``pace`` scales the fights' holds
    as for a watched fight. Its ``words`` (:class:`~sim.story.crawlwords.CrawlWords`) say it."""

    def __init__(self, result: CrawlResult, start: ev.EncounterStart, *, pace: float = 1.0):
        self.result = result
        self.spec = result.spec
        self.grid = result.spec.grid
        self.route: list[Pos] = [tuple(p) for p in result.route]
        self.timeline = list(result.timeline)
        self.total = float(result.total_rounds)
        self.pace = pace
        self.labels = labels_for(start.combatants)
        self.words = CrawlWords(result, self.labels, segment_at=self.segment_at, waiting_for=self.waiting_for)
        self.k = {d["id"]: (1 if d.get("swarm") else _squares_of(d["size"])) for d in start.combatants}
        self.party = [m.id for m in self.spec.party]
        self._index = {sq: i for i, sq in enumerate(self.route)}
        self.fights: list[FightShow] = []
        for i, events in enumerate(split_fights(result)):
            starts, dur, model = fight_schedule(events, pace=pace)
            first = events[0]
            summary = result.fights[i] if i < len(result.fights) else None
            self.fights.append(FightShow(
                index=i, events=events, starts=starts, duration=dur,
                start_squares={d["id"]: [tuple(s) for s in d["squares"]] for d in first.combatants},
                end_squares={cid: list(cv.squares) for cid, cv in model.creatures.items()},
                end_prone={cid: cv.prone for cid, cv in model.creatures.items()},
                fallen=set(summary.party) - set(summary.party_standing) if summary is not None else set(),
                ids={d["id"] for d in first.combatants}))
        self.segments: list[Segment] = []
        self.entry_s: dict[int, float] = {}
        self._build()
        self.duration = self.segments[-1].s1
        self._s0 = [g.s0 for g in self.segments]
        self._tracks = {cid: self._track(cid) for cid in self.party}
        self._left_at: dict[str, float] = {}
        for e in self.timeline:
            if e.what == "left_behind":
                for cid in e.who:
                    self._left_at.setdefault(cid, e.start)
        self._fallen_at: dict[str, float] = {}
        for i, f in enumerate(self.fights):
            for cid in f.fallen:
                self._fallen_at.setdefault(cid, float(result.fights[i].start_rounds))
        self._open = self._openness()
        self._behind = self._room_behind()
        self._placed: tuple | None = None   # (t, segment, placements): the last answer, asked again

    # -- the schedule ---------------------------------------------------------------------------------
    def _build(self) -> None:
        segs = self.segments
        segs.append(Segment("intro", "", 0.0, 0.0, 0.0, INTRO))
        s = INTRO
        cursor = 0.0
        tl = self.timeline
        fight_no = 0
        i = 0
        while i < len(tl):
            e = tl[i]
            if e.what == "encounter":
                show = self.fights[fight_no] if fight_no < len(self.fights) else None
                t0, t1 = e.start, e.start + e.rounds
                segs.append(Segment("gather", "encounter", t0, t0, s, s + GATHER, (i,), fight_no))
                self.entry_s[i] = s
                s += GATHER
                if show is not None:
                    knots = _fight_knots(show, s, t0, e.rounds)
                    segs.append(Segment("fight", "encounter", t0, t1, s, s + show.duration, (i,), fight_no, knots))
                    s += show.duration
                segs.append(Segment("regroup", "encounter", t1, t1, s, s + REGROUP, (i,), fight_no))
                s += REGROUP
                cursor = t1
                fight_no += 1
                i += 1
                continue
            if e.what in RATE and e.rounds > 0:
                group = [i]
                j = i + 1
                while j < len(tl) and tl[j].what == e.what and abs(tl[j].start - e.start) < 1e-9:
                    group.append(j)
                    j += 1
                t0 = e.start
                t1 = max(tl[g].start + tl[g].rounds for g in group)
                if t0 > cursor + 1e-9:   # time the timeline does not account for: pass it as a walk
                    dur = plan_rate("walk", t0 - cursor)
                    segs.append(Segment("travel", "", cursor, t0, s, s + dur))
                    s += dur
                dur = plan_rate(e.what, t1 - t0)
                kind = "dress" if e.what in DRESSING else "travel"
                segs.append(Segment(kind, e.what, t0, t1, s, s + dur, tuple(group)))
                for g in group:
                    self.entry_s[g] = s
                s += dur
                cursor = max(cursor, t1)
                i = j
                continue
            if e.what in BEATS:
                group = [i]
                j = i + 1
                while j < len(tl) and tl[j].what == e.what and abs(tl[j].start - e.start) < 1e-9:
                    group.append(j)
                    j += 1
                segs.append(Segment("beat", e.what, e.start, e.start, s, s + BEAT, tuple(group)))
                for g in group:
                    self.entry_s[g] = s
                s += BEAT
                i = j
                continue
            i += 1
        if self.total > cursor + 1e-9:
            dur = plan_rate("walk", self.total - cursor)
            segs.append(Segment("travel", "", cursor, self.total, s, s + dur))
            s += dur
        arrive = [i for i, e in enumerate(tl) if e.what == "arrive"]
        segs.append(Segment("outro", "arrive", self.total, self.total, s, s + OUTRO, tuple(arrive)))
        for i in arrive:
            self.entry_s[i] = s
        # the moments with no length of their own: a wait is logged when the stretch before it ends
        for i, e in enumerate(tl):
            if i not in self.entry_s:
                self.entry_s[i] = self.screen_time(e.start)

    def caption(self, s: float) -> str:
        """What the caption says at screen time ``s`` (:meth:`~sim.story.crawlwords.CrawlWords.caption`)."""
        return self.words.caption(s)

    def entry_text(self, i: int) -> str:
        """Timeline entry ``i`` in words, for the caption and the log
        (:meth:`~sim.story.crawlwords.CrawlWords.entry_text`)."""
        return self.words.entry_text(i)

    def segment_at(self, s: float) -> Segment:
        j = bisect.bisect_right(self._s0, s) - 1
        return self.segments[max(0, min(len(self.segments) - 1, j))]

    def crawl_time(self, s: float) -> float:
        """Crawl time (rounds) shown at screen time ``s`` (seconds at speed 1): never decreasing."""
        if s >= self.duration:
            return self.total
        return self.segment_at(s).crawl_time(s)

    def screen_time(self, t: float) -> float:
        """The first screen time at which the crawl time reaches ``t`` rounds."""
        for g in self.segments:
            if g.t1 > g.t0 and g.t0 <= t <= g.t1:
                return g.screen_time(t)
            if g.t0 >= t:
                return g.s0
        return self.duration

    def log_lines(self) -> list[tuple[float, int]]:
        """(screen time, timeline index) of each entry, in timeline order."""
        return sorted(((self.entry_s[i], i) for i in range(len(self.timeline))), key=lambda p: (p[0], p[1]))

    # -- armour ---------------------------------------------------------------------------------------
    def armour(self, cid: str, t: float) -> tuple[str, float]:
        """("on" | "off" | "taking_off" | "putting_on", progress 0..1) at crawl time ``t``."""
        state = ("on", 1.0)
        for e in self.timeline:
            if cid not in e.who or e.what not in DRESSING or e.start > t:
                continue
            done = e.rounds <= 0 or t >= e.start + e.rounds
            p = 1.0 if done else (t - e.start) / e.rounds
            if e.what == "armor_off":
                state = ("off", 1.0) if done else ("taking_off", p)
            else:
                state = ("on", 1.0) if done else ("putting_on", p)
        return state

    # -- motion -----------------------------------------------------------------------------------------
    def _route_index(self, sq: Pos, hint: float) -> float:
        i = self._index.get(tuple(sq))
        if i is not None:
            return float(i)
        best = min(range(len(self.route)), key=lambda j: (max(abs(self.route[j][0] - sq[0]),
                                                              abs(self.route[j][1] - sq[1])), abs(j - hint)))
        return float(best)

    def _track(self, cid: str) -> _Track:
        """Progress along the route (a route index) against crawl time, from the member's track:
        each stretch it sets off once its own time allows (``member_rounds`` before it is
        through), and the squares of one move action are spread over that move action."""
        tr = _Track()
        pts = list(self.result.tracks.get(cid, []))
        if not pts:
            return tr
        t0, sq0, pr0 = pts[0]
        tr.times.append(float(t0))
        tr.progress.append(self._route_index(sq0, 0))
        tr.prone.append(bool(pr0))
        rest = pts[1:]
        k = 0
        for e in self.timeline:
            if e.what not in STRETCHES or cid not in e.who:
                continue
            end = e.start + e.rounds + 1e-9
            mine = []
            while k < len(rest) and rest[k].t <= end:
                mine.append(rest[k])
                k += 1
            if not mine:
                continue
            own = e.member_rounds.get(cid) if isinstance(e, Stretch) else None
            last = float(mine[-1].t)
            begin = max(e.start, last - own) if own is not None else e.start
            begin = max(begin, tr.times[-1])
            tr.times.append(begin)
            tr.progress.append(tr.progress[-1])
            tr.prone.append(tr.prone[-1])
            prev = begin
            j = 0
            while j < len(mine):
                g = j
                while g < len(mine) and mine[g].t == mine[j].t:
                    g += 1
                group = mine[j:g]
                tg = max(prev, float(group[0].t))
                for n, (_, sq, pr) in enumerate(group):
                    tr.times.append(prev + (n + 1) / len(group) * (tg - prev))
                    tr.progress.append(self._route_index(sq, tr.progress[-1]))
                    tr.prone.append(bool(pr))
                prev = tg
                j = g
        for tt, sq, pr in rest[k:]:       # anything the timeline does not cover: where it says
            tr.times.append(max(float(tt), tr.times[-1]))
            tr.progress.append(self._route_index(sq, tr.progress[-1]))
            tr.prone.append(bool(pr))
        return tr

    def progress(self, cid: str, t: float) -> float:
        """The member's own place along the route (route index, fractional) at crawl time ``t``."""
        tr = self._tracks[cid]
        j = bisect.bisect_right(tr.times, t) - 1
        if j < 0:
            return tr.progress[0]
        if j >= len(tr.times) - 1:
            return tr.progress[-1]
        a, b = tr.times[j], tr.times[j + 1]
        if b <= a:
            return tr.progress[j + 1]
        return tr.progress[j] + (tr.progress[j + 1] - tr.progress[j]) * (t - a) / (b - a)

    def _state(self, cid: str, t: float) -> tuple[bool, bool]:
        """(moving, prone) at crawl time ``t``."""
        tr = self._tracks[cid]
        j = bisect.bisect_right(tr.times, t) - 1
        if j < 0:
            return False, tr.prone[0]
        if j < len(tr.times) - 1 and tr.progress[j + 1] != tr.progress[j] and tr.times[j + 1] > t:
            return True, tr.prone[j + 1]
        return False, tr.prone[j]

    def square(self, cid: str, t: float) -> Pos:
        """The square the member's track has it in at crawl time ``t`` (the plan, before drawing)."""
        pts = self.result.tracks[cid]
        times = [p.t for p in pts]
        j = bisect.bisect_right(times, t + 1e-9) - 1
        return tuple(pts[max(0, j)].at)

    def _openness(self) -> list[float]:
        """Per route square, 0..1: room for two abreast (smoothed along the route)."""
        kmax = max([self.k.get(c, 1) for c in self.party] or [1])
        g = self.grid
        raw = [1.0 if float(g.width_ft[y, x]) >= 10.0 * kmax and float(g.height_ft[y, x]) >= 5.0 else 0.0
               for x, y in self.route]
        n = len(raw)
        return [sum(raw[max(0, i - 2):min(n, i + 3)]) / (min(n, i + 3) - max(0, i - 2)) for i in range(n)]

    def _room_behind(self) -> float:
        """Open squares behind the start, straight back from the first step (where followers
        stand before setting off)."""
        if len(self.route) < 2:
            return 0.0
        (x0, y0), (x1, y1) = self.route[0], self.route[1]
        dx, dy = x0 - x1, y0 - y1
        n = 0
        for d in (1, 2, 3):
            x, y = x0 + dx * d, y0 + dy * d
            if not self.grid.in_bounds((x, y)) or self.grid.rock[y, x]:
                break
            n = d
        return float(n)

    def _point(self, p: float, k: int) -> tuple[float, float]:
        r = self.route
        n = len(r)
        if p < 0 and n > 1:
            (x0, y0), (x1, y1) = r[0], r[1]
            return (x0 + (x0 - x1) * -p + k / 2, y0 + (y0 - y1) * -p + k / 2)
        p = min(max(p, 0.0), n - 1.0)
        i = int(math.floor(p))
        j = min(n - 1, i + 1)
        f = p - i
        (xa, ya), (xb, yb) = r[i], r[j]
        return (xa + (xb - xa) * f + k / 2, ya + (yb - ya) * f + k / 2)

    def _direction(self, p: float) -> tuple[float, float]:
        r = self.route
        n = len(r)
        if n < 2:
            return (1.0, 0.0)
        i = int(round(min(max(p, 0.0), n - 1.0)))
        a, b = r[max(0, i - 1)], r[min(n - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        d = math.hypot(dx, dy) or 1.0
        return (dx / d, dy / d)

    def _open_at(self, p: float) -> float:
        n = len(self._open)
        if n == 0:
            return 0.0
        p = min(max(p, 0.0), n - 1.0)
        i = int(math.floor(p))
        j = min(n - 1, i + 1)
        return self._open[i] + (self._open[j] - self._open[i]) * (p - i)

    def _square_at(self, p: float) -> Pos:
        if p < 0 and len(self.route) > 1:
            (x0, y0), (x1, y1) = self.route[0], self.route[1]
            d = int(round(-p))
            return (x0 + (x0 - x1) * d, y0 + (y0 - y1) * d)
        return self.route[int(round(min(max(p, 0.0), len(self.route) - 1.0)))]

    def placements(self, t: float, segment: Segment | None = None) -> dict[str, Place]:
        """Where each member of the party who is still travelling (or left behind on the way) is
        drawn at crawl time ``t``: at its own progress, but never through the one ahead of it
        (single file), two abreast where the way is open. Members who fell in a fight are not
        here: they lie where the fight left them. A frame asks this three times for the same
        moment (positions, camera, waiting marks): the last answer is kept."""
        last = self._placed
        if last is not None and last[0] == t and last[1] is segment:
            return dict(last[2])
        out = self._placements(t, segment)
        self._placed = (t, segment, out)
        return dict(out)

    def _placements(self, t: float, segment: Segment | None) -> dict[str, Place]:
        g = segment if segment is not None else self.segment_at(self.screen_time(t))
        have = [c for c in self.party if c in self._tracks and self._tracks[c].times
                and self._fallen_at.get(c, math.inf) >= t]
        travelling = [c for c in have if self._left_at.get(c, math.inf) > t]
        behind = [c for c in have if c not in travelling]
        states = {c: self._state(c, t) for c in have}
        anyone_moving = any(states[c][0] for c in travelling)
        out: dict[str, Place] = {}
        prev_p = None
        prev_k = 1
        prev_moving = False
        lo = -self._behind
        pair = len(travelling) > 1
        for j, cid in enumerate(travelling + behind):
            k = self.k.get(cid, 1)
            own = self.progress(cid, t)
            moving, prone = states[cid]
            in_file = j < len(travelling)
            if prev_p is None:
                p = own
                a = self._open_at(p) if pair else 0.0
                lat = -ABREAST * a
            else:
                a = self._open_at(prev_p)
                spacing = (prev_k + k) / 2.0
                if in_file and j % 2 == 1:   # beside the one ahead: the pair stays a token apart
                    gap, lat = spacing * math.sqrt(max(0.0, 1 - a * a)), ABREAST * a
                else:
                    gap = spacing
                    lat = -ABREAST * a if (in_file and j + 1 < len(travelling)) else 0.0
                p = max(min(own, prev_p - gap), min(own, lo))
            held = p < own - 1e-6
            shown_moving = prev_moving if held else moving
            x, y = self._point(p, k)
            dx, dy = self._direction(p)
            if lat:
                px, py = -dy * lat, dx * lat
                for f in (1.0, 0.5, 0.0):
                    qx, qy = x + px * f, y + py * f
                    sx, sy = int(math.floor(qx - k / 2 + 0.5)), int(math.floor(qy - k / 2 + 0.5))
                    if f == 0.0 or (self.grid.in_bounds((sx, sy)) and not self.grid.rock[sy, sx]):
                        x, y = qx, qy
                        break
            facing = (int(round(dx)), int(round(dy)))
            if facing == (0, 0):
                facing = (1, 0)
            if g.kind == "dress":
                waiting = in_file and not any(cid in self.timeline[i].who and
                                              self.timeline[i].start + self.timeline[i].rounds > t for i in g.entries)
            else:
                waiting = in_file and g.kind == "travel" and not shown_moving and anyone_moving
            out[cid] = Place(x=x, y=y, square=self._square_at(p), facing=facing, prone=prone,
                             moving=shown_moving, waiting=waiting)
            prev_p, prev_k, prev_moving = p, k, shown_moving
        return out

    def waiting_for(self, s: float) -> tuple[list[str], str] | None:
        """At the end of a stretch, those through already who wait for the slowest (the
        timeline's ``wait``): (who, for whom), or None."""
        g = self.segment_at(s)
        if g.kind != "travel" or not g.entries:
            return None
        t = self.crawl_time(s)
        for i, e in enumerate(self.timeline):
            if isinstance(e, Wait) and abs(e.start - g.t1) < 1e-9 and i > g.entries[-1]:
                done = [c for c in e.who if c in self._tracks and self.progress(c, t) >= self.progress(c, g.t1) - 1e-6]
                if done:
                    return done, e.for_whom
                return None
        return None

    def where(self, s: float) -> dict[str, tuple[float, float, Pos, bool]] | None:
        """Token centres drawn at screen time ``s`` for the party: (x, y, square, prone); None
        during a fight (the fight animation places everyone)."""
        g = self.segment_at(s)
        if g.kind == "fight":
            return None
        t = self.crawl_time(s)
        if g.kind in ("gather", "regroup") and 0 <= g.fight < len(self.fights):
            f = self.fights[g.fight]
            u = 0.0 if g.s1 <= g.s0 else min(1.0, max(0.0, (s - g.s0) / (g.s1 - g.s0)))
            u = u * u * (3 - 2 * u)
            places = self.placements(t, g)
            out = {}
            for cid in self.party:
                if g.kind == "gather":
                    pl = places.get(cid)
                    sq = f.start_squares.get(cid)
                    if pl is None:
                        continue
                    if sq is None:
                        out[cid] = (pl.x, pl.y, pl.square, pl.prone)
                        continue
                    tx, ty = _centre(sq)
                    x, y = pl.x + (tx - pl.x) * u, pl.y + (ty - pl.y) * u
                    out[cid] = (x, y, pl.square if u < 0.5 else tuple(sq[0]), pl.prone)
                else:
                    sq = f.end_squares.get(cid)
                    if cid in f.fallen or cid not in places:
                        continue
                    pl = places[cid]
                    if sq is None:
                        out[cid] = (pl.x, pl.y, pl.square, pl.prone)
                        continue
                    fx, fy = _centre(sq)
                    x, y = fx + (pl.x - fx) * u, fy + (pl.y - fy) * u
                    prone = f.end_prone.get(cid, False) if u < 0.5 else pl.prone
                    out[cid] = (x, y, tuple(sq[0]) if u < 0.5 else pl.square, prone)
            return out
        return {cid: (pl.x, pl.y, pl.square, pl.prone) for cid, pl in self.placements(t, g).items()}


def _centre(squares) -> tuple[float, float]:
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    return ((min(xs) + max(xs) + 1) / 2.0, (min(ys) + max(ys) + 1) / 2.0)


def _squares_of(size: str) -> int:
    return Size.parse(size).squares
