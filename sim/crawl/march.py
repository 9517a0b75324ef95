"""The party's march along one stretch of the route (RULES §2.4, §6, §7.30, §7.33).

* Every member times the stretch with its own categories and costs (the movement engine on the
  route's squares: 5-10-5 diagonals, x2 / x4 squares, a move action a crawl square, a move action
  per Escape Artist try in Awkward Space (DC 15) and a full-round action per try in a Tight Squeeze
  (DC 30), taking 10 -- or 20, twenty times as long -- where that is what succeeds).
* The party moves at the pace of its slowest member and waits for it: abreast, a stretch takes the
  longest member's time; in single file each member enters once the one ahead has cleared the
  first square, and the stretch ends when the last one is through.
* Armour comes off before a tight stretch and goes back on once out of it, after whoever crawled
  out stands up (:mod:`sim.crawl.gear`).
"""

from __future__ import annotations

import math

from sim.base.coords import Pos
from sim.crawl.gear import dress, fight_near, take_off
from sim.crawl.records import (
    STRETCH_KINDS,
    CannotPass,
    Check,
    LeftBehind,
    StandUp,
    TrackPoint,
    Wait,
)
from sim.crawl.route import member_time
from sim.crawl.state import CrawlState
from sim.engine.creature import Creature
from sim.rules.categories import Category

OPEN = ("open", "single_file")
CONSTRICTED = ("crawl", "awkward", "tight")
SQUEEZES = ("awkward", "tight")   # stretches with Escape Artist checks
STAND_UP_ROUNDS = 0.5             # a move action (RULES §2.4)


def stretch(state: CrawlState, kind: str, a: int, b: int, *, dress_here: bool = True, split: bool = True) -> None:
    """One stretch of the route (``state.route[a..b]``): armor off before tight places (or back on
    after them), then every member's own time and the party's (waiting for the slowest; single
    file where narrow). Moves ``state`` on: its clock, fields and travellers."""
    if split and dress_here and kind in OPEN and state.armor_off and b > a:
        _out_of_the_tight_place(state, kind, a, b)
        return
    squares = state.route[a:b + 1]
    if kind in CONSTRICTED:
        take_off(state, squares)
    elif state.armor_off and kind in OPEN and dress_here:
        dress(state, squares[0])
    times, steps = _member_times(state, kind, squares)
    if not state.travellers:
        return
    offsets, ends = _file_timing(state, kind, times, steps)
    _record(state, kind, squares, times, steps, offsets, ends)


def _out_of_the_tight_place(state: CrawlState, kind: str, a: int, b: int) -> None:
    """Out of the tight place first (the first square of open ground), stand up there, then dress
    and go on."""
    stretch(state, kind, a, a + 1, dress_here=False)
    _stand_up(state, state.route[a + 1])
    if b > a + 1:
        stretch(state, kind, a + 1, b, split=False)
        return
    dress(state, state.route[b])


def _stand_up(state: CrawlState, at: Pos) -> None:
    """Whoever crawled out with its armour off stands up (a move action) before dressing, where
    the ceiling allows and no fight is near."""
    risers = [c for c in state.travellers if c.prone and c.id in state.armor_off
              and not state.fields[c.id].prone[at[1], at[0]]
              and not fight_near(state.grid, at, state.monsters_left)]
    if not risers:
        return
    for c in risers:
        c.prone = False
        state.tracks[c.id].append(TrackPoint(state.t + STAND_UP_ROUNDS, at, False))
    state.timeline.append(StandUp(start=state.t, rounds=STAND_UP_ROUNDS, who=tuple(c.id for c in risers), at=at))
    state.t += STAND_UP_ROUNDS


def _member_times(state: CrawlState, kind: str, squares: list[Pos]) -> tuple[dict[str, float], dict[str, list]]:
    """Each traveller's own time for the stretch (rounds) and its steps; a traveller who cannot get
    through at all (no check it could make succeeds) is left behind."""
    times: dict[str, float] = {}
    steps: dict[str, list] = {}
    for c in state.travellers:
        mt, st = member_time(c, state.fields[c.id], squares, state.grid)
        times[c.id] = mt / 2.0  # rounds
        steps[c.id] = st
    stuck = [cid for cid, v in times.items() if math.isinf(v)]
    if not stuck:
        return times, steps
    for cid in stuck:
        why = CannotPass(kind=kind, at=squares[0])
        state.left_behind[cid] = why
        state.timeline.append(LeftBehind(start=state.t, rounds=0.0, who=(cid,), at=squares[0], why=why))
    state.travellers = [c for c in state.travellers if c.id not in stuck]
    return {k: v for k, v in times.items() if k not in stuck}, steps


def _square_time(kind: str, st: list, i: int, speed: float) -> float:
    """Rounds for step ``i`` alone: in a single-file walk its feet over the speed (a square is a
    sixth of a 30-ft move action); in a crawlway or squeeze its whole actions (a crawl square, an
    Escape Artist try)."""
    if kind == "single_file" and st[i].kind not in ("crawl", "escape_artist", "squeeze"):
        return min(1.0, st[i].feet / speed) / 2.0
    return (st[i].move_action - (st[i - 1].move_action if i > 0 else 0.0)) / 2.0


def _file_timing(state: CrawlState, kind: str, times: dict[str, float],
                 steps: dict[str, list]) -> tuple[dict[str, float], dict[str, float]]:
    """When each traveller sets off into the stretch and when it is through (rounds from the
    stretch's start). Abreast, all at once; in single file each enters once the one ahead has
    cleared the first square, and cannot come out before the one ahead is out (plus its own last
    square)."""
    travellers = state.travellers
    offsets = {c.id: 0.0 for c in travellers}
    ends = {c.id: times[c.id] for c in travellers}
    if kind == "open" or len(travellers) < 2:
        return offsets, ends
    off = 0.0
    prev_end = 0.0
    for c in travellers:
        offsets[c.id] = off
        st = steps[c.id]
        # the next one follows once this one has cleared the first square: the part of a move
        # action that square takes (its feet of movement over the speed), not a whole one
        speed = max(5, state.fields[c.id].mover.speed_ft)
        first = _square_time(kind, st, 0, speed) if st else 0.0
        last = _square_time(kind, st, len(st) - 1, speed) if st else 0.0
        ends[c.id] = max(off + times[c.id], prev_end + last)
        prev_end = ends[c.id]
        off += first
    return offsets, ends


def _record(state: CrawlState, kind: str, squares: list[Pos], times: dict[str, float], steps: dict[str, list],
            offsets: dict[str, float], ends: dict[str, float]) -> None:
    """Write the stretch: each member's track, the stretch's entry, the wait for the slowest; and
    move the clock on to when the last one is through."""
    travellers, t, fields = state.travellers, state.t, state.fields
    finish = max(ends.values())
    # the last out (in single file, pushed back behind the ones ahead) is the one the others wait for
    slowest = max(travellers, key=lambda c: (ends[c.id], -travellers.index(c)))
    for c in travellers:
        for s in steps[c.id]:
            state.tracks[c.id].append(TrackPoint(t + offsets[c.id] + s.move_action / 2.0, tuple(s.at),
                                                 s.kind in ("crawl",) or bool(fields[c.id].prone[s.at[1], s.at[0]])))
    base = {"start": t, "rounds": finish, "who": tuple(c.id for c in travellers), "at": squares[0],
            "squares": len(squares) - 1, "member_rounds": {k: round(v, 3) for k, v in times.items()},
            "slowest": slowest.id, "categories": {c.id: _categories(c, state, squares[1:]) for c in travellers}}
    if kind in SQUEEZES:
        base["checks"] = {c.id: tuple(Check(at=tuple(s.at), dc=s.dc, tries=s.tries) for s in steps[c.id] if s.dc)
                          for c in travellers}
    state.timeline.append(STRETCH_KINDS[kind](**base))
    waits = [c.id for c in travellers if ends[c.id] < finish - 1e-9]
    if waits and finish > 0:
        state.timeline.append(Wait(start=t + finish, rounds=0.0, who=tuple(waits), at=squares[-1],
                                   for_whom=slowest.id, waited={cid: round(finish - ends[cid], 3) for cid in waits}))
    state.t = t + finish


def _categories(c: Creature, state: CrawlState, squares: list[Pos]) -> tuple[Category, ...]:
    """The categories ``c`` meets on these squares, sorted by name."""
    f = state.fields[c.id]
    return tuple(sorted({Category(int(f.category[y, x])) for x, y in squares}, key=lambda k: k.name))
