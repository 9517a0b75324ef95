"""A party travelling through the cave out of combat (RULES §2.4 equipment, §5.3, §6, §7.30, §7.33).

The party follows one route from a named point to another, in marching order. The route is the
fastest way for the party as a whole (every member must be able to take it: it is planned for the
most restrictive body in the party, with take 10 / take 20 on Escape Artist); a member who cannot
pass at all (too big, or no check it could make succeeds) is left behind where it stops, and the
plan says so ("the ogre cannot follow past (22, 20)").

Time model (each number is exact for this model, and tested):

* The route is cut into *stretches* of one kind: open (everyone walks side by side), single file
  (the passage is narrower than two of the party's widest creatures), crawl, awkward, tight -- the
  kind is the worst category any member has there.
* Every member times each stretch with its own categories and costs (the movement engine on the
  route's squares: 5-10-5 diagonals, x2 / x4 squares, a move action a crawl square, a move action
  per Escape Artist try in Awkward Space (DC 15) and a full-round action per try in a Tight Squeeze
  (DC 30), taking 10 -- or 20, twenty times as long -- where that is what succeeds). An ally
  beside it aids its Escape Artist check (+2, RULES: aid another, DC 10 with take 10).
* The party moves at the pace of its slowest member and waits for it: abreast, a stretch takes the
  longest member's time; in single file each member enters once the one ahead has cleared the
  first square, and the stretch ends when the last one is through.
* Before a crawlway, awkward space or tight squeeze, each member in medium or heavy armor takes it
  off (RULES §2.4: 1 minute; half-plate and full plate 1d4+1 minutes; halved when an ally helps),
  unstraps its shield with it, and drags them and its pack behind; its speed, AC and Escape Artist modifier change accordingly.
  When the way opens up again it puts the armor back on (SRD donning times: 1 or 4 minutes,
  halved with help) -- unless a fight is near, in which case it keeps it off.
* The party's light (RULES §9.1, §9.3.5-6): at the start the brightest light anyone carries is lit
  and borne by the first member with a hand free for it (a torch by the halfling, not by the
  fighter with sword and shield); the crawl burns it down (a torch 1 hour, a lantern or sunrod 6)
  and lights the next one from the party's gear; a light dropped in a fight is picked up after it.
  The timeline says who carries which light, and when it goes out.
* Monsters placed in the map start a fight when they notice the party: by their senses (darkvision,
  blindsense or tremorsense, at least 60 ft, with a line of effect), or by the party's light, which
  they see from any distance along a clear line (a torch is seen far beyond its own radius, RULES
  §9.3.4), unless they are blind (grimlocks, oozes: their senses only). The party notices monsters only by its own light and senses (RULES §9.3: a monster
  in the party's light, or in a light of its own or of the map, which the party sees from any
  distance along a clear line; a dwarf's darkvision; a member's blindsense or scent), every
  member counted at the leader's square; so the monsters usually notice first. The fight starts
  where either side notices the other, and the timeline's ``noticed`` entry says who noticed
  whom first, how (light, senses, darkvision) and from how far. The fight is played by the encounter engine from the positions and equipment the party has at that
  moment (armor off in a crawlway included); the crawl goes on with the survivors if the party wins.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.engine import zones
from sim.engine.creature import Creature
from sim.engine.fight import new_encounter
from sim.engine.setup import build_creature, carry_over, mover_for, wielded_torches
from sim.rules.armor import must_remove, removal_minutes
from sim.rules.bodies import Body
from sim.rules.categories import Category
from sim.rules.dice import Dice
from sim.rules.statblocks import load_template, template_in, without_armor
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import CombatantSpec, CrawlSpec, EncounterSpec
from sim.terrain.geometry import distance_squares, line_of_effect
from sim.terrain.grid import CaveGrid, effective_width_ft
from sim.terrain.movement import Mover, distance_map, find_path, move_field
from sim.terrain.movement.field import AWKWARD, BLOCKED, CRAWL, TIGHT, WALK, MoveField
from sim.terrain.vision import DARK, LOCATES, SEES, Viewer, vision
from sim.terrain.vision.fov import field_of_view
from sim.terrain.vision.scene import (
    burn_minutes,
    gear_light,
    map_lights,
    party_light_bearer,
)

KINDS = ("open", "single_file", "crawl", "awkward", "tight")
_MODE_KIND = {WALK: "open", CRAWL: "crawl", AWKWARD: "awkward", TIGHT: "tight"}
FIGHT_NEAR_SQUARES = 15  # a monster this close (75 ft): keep the armor off


# =================================================================================================
# Output
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the timeline: at ``start`` rounds, ``what`` happens to ``who`` for ``rounds``."""

    start: float
    rounds: float
    what: str           # walk | single_file | crawl | awkward | tight | armor_off | stand_up | armor_on |
                        # keep_armor_off | wait | noticed | encounter | left_behind | arrive | light | light_out
    who: tuple[str, ...]
    at: Pos
    detail: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"start_rounds": self.start, "rounds": self.rounds, "minutes": round(self.rounds / combat_modifier("time", "rounds_per_minute"), 3),
                "what": self.what, "who": list(self.who), "at": list(self.at), **self.detail}


@dataclass(slots=True)
class CrawlResult:
    spec: CrawlSpec
    route: list[Pos]
    timeline: list[Entry]
    tracks: dict[str, list[tuple[float, Pos, bool]]]   # member -> (time in rounds, square, prone)
    left_behind: dict[str, str]
    arrived: list[str]
    total_rounds: float
    fights: list[dict]
    events: list = field(default_factory=list)          # the events of the fights

    @property
    def minutes(self) -> float:
        return self.total_rounds / combat_modifier("time", "rounds_per_minute")

    def to_json(self) -> dict:
        return {
            "name": self.spec.name, "map": self.spec.grid.name, "seed": self.spec.seed,
            "from": {"name": self.spec.start_name, "at": list(self.spec.start)},
            "to": {"name": self.spec.goal_name, "at": list(self.spec.goal)},
            "party": [m.id for m in self.spec.party],
            "route": [list(p) for p in self.route],
            "timeline": [e.to_json() for e in self.timeline],
            "left_behind": self.left_behind, "arrived": self.arrived,
            "total_rounds": self.total_rounds, "total_minutes": round(self.minutes, 3),
            "fights": self.fights,
        }


# =================================================================================================
# Planning
# =================================================================================================

def travel_mover(c: Creature, *, aid: int = 0) -> Mover:
    """The creature out of combat: take 10 / take 20 allowed (RULES §2.4), its current armor,
    ``aid`` added to Escape Artist (an ally's aid another, +2)."""
    m = mover_for(c, in_combat=False)
    return dataclasses.replace(m, escape_artist=m.escape_artist + aid)


def _composite(members: list[Creature]) -> Mover:
    """The most restrictive member, for choosing the route all must take: the largest body (in
    space, then height), the slowest speed, the lowest Escape Artist without armor."""
    bodies: list[Body] = []
    for c in members:
        bodies.append(travel_mover(c).body)
    body = max(bodies, key=lambda b: (b.opening is None, b.space, b.height, b.shoulders))
    speed = min(travel_mover(c).speed_ft for c in members)
    ea = min(_unarmored(c).escape_artist for c in members)
    return Mover(body=body, speed_ft=speed, escape_artist=int(ea) + (2 if len(members) > 1 else 0))


def _unarmored(c: Creature):
    return without_armor(c.base_block, drop_shield=True) if _needs_armor_off(c) else c.base_block


def _needs_armor_off(c: Creature) -> bool:
    return must_remove(c.base_block)  # the one rule (sim.rules.armor), as in fights and paths


def _minutes(text: str | None, rng) -> float:
    """ "1 minute", "4 minutes" -> minutes (donning; removal is sim.rules.armor's)."""
    if not text:
        return 0.0
    n = text.split()[0]
    return float(Dice.parse(n).roll(rng)) if "d" in n else float(n)


def _route(grid: CaveGrid, members: list[Creature], start: Pos, goal: Pos):
    mover = _composite(members)
    f = move_field(grid, mover)
    if f.mode[start[1], start[0]] == BLOCKED or f.mode[goal[1], goal[0]] == BLOCKED:
        return None
    p = find_path(f, start, goal)
    return p if p.reachable else None


def _route_mover(c: Creature, aid: int) -> Mover:
    """The creature as it meets the tight places: medium or heavy armor off, ``aid`` added to
    Escape Artist."""
    was = c.armor_off
    if _needs_armor_off(c) and not was:
        c.take_armor_off(drop_shield=True)
    m = travel_mover(c, aid=aid)
    if _needs_armor_off(c) and not was:
        c.put_armor_on()
    return m


def _best_route(grid: CaveGrid, members: list[Creature], start: Pos, goal: Pos):
    """When no route suits the composite of the party (its largest body with its lowest Escape
    Artist, who may be two different members), the route planned for one member that the most
    members can follow, the fastest on ties. Returns (path, the members who can follow it), or
    (None, []) when no member can reach the goal at all."""
    aid = combat_modifier("skills", "aid_another") if len(members) > 1 else 0
    best = None
    for c in members:
        f = move_field(grid, _route_mover(c, aid))
        if f.mode[start[1], start[0]] == BLOCKED or f.mode[goal[1], goal[0]] == BLOCKED:
            continue
        p = find_path(f, start, goal)
        if not p.reachable:
            continue
        route = list(p.squares)
        followers = [m for m in members
                     if _stops_at(move_field(grid, _route_mover(m, aid)), route, grid) == len(route) - 1]
        key = (-len(followers), float(p.move_actions if p.move_actions is not None else math.inf))
        if best is None or key < best[0]:
            best = (key, p, followers)
    return (best[1], best[2]) if best is not None else (None, [])


def _stops_at(f: MoveField, route: list[Pos], grid: CaveGrid) -> int:
    """Index of the last route square a creature can get to along the route from its start,
    with take 10 / take 20 (a squeeze whose check it cannot make stops it)."""
    confine = np.ones(grid.shape, dtype=bool)
    for x, y in route:
        confine[y, x] = False
    x0, y0 = route[0]
    if f.mode[y0, x0] == BLOCKED:
        return 0
    d = distance_map(f, route[0], blocked=confine)
    ok = d.reachable()
    last = 0
    for i, (x, y) in enumerate(route):
        if not ok[y, x]:
            break
        last = i
    return last


def _kind_at(fields: dict[str, MoveField], grid: CaveGrid, members: list[Creature], sq: Pos) -> str:
    x, y = sq
    worst = WALK
    for c in members:
        m = int(fields[c.id].mode[y, x])
        if m > worst:
            worst = m
    kind = _MODE_KIND.get(worst, "open")
    if kind == "open":
        widest = max(c.block.body.space for c in members)
        if effective_width_ft(grid)[y, x] < 2 * widest and len(members) > 1:
            kind = "single_file"
    return kind


def _member_time(c: Creature, f: MoveField, squares: list[Pos], grid: CaveGrid) -> tuple[float, list]:
    """Move actions for ``c`` along exactly these squares, with its steps (guaranteed model)."""
    if len(squares) < 2:
        return 0.0, []
    confine = np.ones(grid.shape, dtype=bool)
    for x, y in squares:
        confine[y, x] = False
    p = find_path(f, squares[0], squares[-1], blocked=confine, prone=c.prone)
    if not p.reachable or p.move_actions is None:
        return math.inf, []
    if p.steps:  # the posture it ends in: prone after crawling (or lying in a low squeeze)
        last = p.steps[-1]
        c.prone = last.kind == "crawl" or bool(f.prone[last.at[1], last.at[0]])
    return float(p.move_actions), p.steps


# =================================================================================================
# The crawl
# =================================================================================================

@dataclass(slots=True, eq=False)
class CrawlState:
    """What a crawl carries from stretch to stretch: the clock (rounds), who is still travelling
    and their movement fields, whose armor is off, the monsters not yet met, and the records being
    written (timeline, tracks, who was left behind and why)."""

    grid: CaveGrid
    route: list[Pos]
    rng: np.random.Generator
    fields_now: Callable[[], dict]      # () -> {id: MoveField} for the travellers as they are now
    travellers: list[Creature]
    monsters_left: list[CombatantSpec]
    t: float = 0.0
    fields: dict[str, MoveField] = field(default_factory=dict)
    armor_off: set[str] = field(default_factory=set)
    timeline: list[Entry] = field(default_factory=list)
    tracks: dict[str, list[tuple[float, Pos, bool]]] = field(default_factory=dict)
    left_behind: dict[str, str] = field(default_factory=dict)


def run_crawl(spec: CrawlSpec) -> CrawlResult:
    rng = np.random.default_rng(np.random.SeedSequence(spec.seed).spawn(1)[0])
    members = [build_creature(m, spec.path) for m in spec.party]
    monsters_left = list(spec.monsters)
    timeline: list[Entry] = []
    tracks: dict[str, list[tuple[float, Pos, bool]]] = {c.id: [(0.0, spec.start, False)] for c in members}
    left_behind: dict[str, str] = {}
    fights: list[dict] = []
    all_events: list = []
    grid = spec.grid
    t = 0.0
    light = _PartyLight()
    vision_on = bool(spec.settings.get("vision", True))
    if vision_on:  # RULES §9 (setting vision off: no light is carried or seen, the party notices nothing first)
        light.relight(members, timeline, t, tracks)

    # 1. the route, and who cannot take it
    travellers = list(members)
    path = _route(grid, travellers, spec.start, spec.goal)
    if path is None:  # planned for one member, the most of the others following (see _best_route)
        path, travellers = _best_route(grid, members, spec.start, spec.goal)
    if path is None:
        raise DataError(f"{spec.path}: no route from {spec.start_name or spec.start} to {spec.goal_name or spec.goal} "
                        "for this party")
    route = list(path.squares)
    for c in members:
        if c in travellers:
            continue
        f = move_field(grid, _route_mover(c, 2 if len(members) > 1 else 0))
        i = _stops_at(f, route, grid)
        stop = route[i]
        nx, ny = route[min(i + 1, len(route) - 1)]
        left_behind[c.id] = (f"cannot follow past {stop}: {Category(int(f.category[ny, nx])).label} for a "
                             f"{c.size.key} {c.name}")
        timeline.append(Entry(t, 0.0, "left_behind", (c.id,), stop, {"reason": left_behind[c.id]}))

    # 2. stretches
    def fields_now() -> dict[str, MoveField]:
        out = {}
        for c in s.travellers:
            aid = combat_modifier("skills", "aid_another") \
                if any(o is not c and travel_mover(o).escape_artist >= 0 for o in s.travellers) else 0
            out[c.id] = move_field(grid, travel_mover(c, aid=aid))
        return out

    s = CrawlState(grid=grid, route=route, rng=rng, fields_now=fields_now, travellers=travellers,
                   monsters_left=monsters_left, t=t, timeline=timeline, tracks=tracks, left_behind=left_behind)
    s.fields = fields_now()
    pos = 0
    while pos < len(route) - 1 and s.travellers:
        travellers, monsters_left = s.travellers, s.monsters_left
        # the next square where monsters notice the party ends this leg (RULES: senses, §3 of the
        # module docstring); the leg is cut into stretches of one kind
        trig = _trigger(grid, route[pos + 1:], monsters_left, travellers if vision_on else [], base=spec.path,
                        lit=light.lit(),
                        item=light.item if light.lit() else None)
        end_at = pos + 1 + trig[0] if trig is not None else len(route) - 1
        kinds = [_kind_at(fields_unarmored(grid, travellers), grid, travellers, sq) for sq in route]
        stretches: list[tuple[str, int, int]] = []  # (kind, first index, last index)
        i = pos
        while i < end_at:
            k = kinds[i + 1]
            j = i + 1
            while j < end_at and kinds[j + 1] == k:
                j += 1
            stretches.append((k, i, j))
            i = j
        for kind, a, b in stretches:
            _stretch(s, kind, a, b)
            light.burn(s.travellers, s.timeline, s.t, s.tracks)
            if not s.travellers:
                break
        travellers, t = s.travellers, s.t
        pos = end_at
        if trig is None or not travellers:
            break
        group, noticed = trig[1], trig[2]
        who = [d["monster"] for d in noticed["monsters_noticed"]] or [d["member"] for d in noticed["party_noticed"]]
        timeline.append(Entry(t, 0.0, "noticed", tuple(dict.fromkeys(who)), route[pos], noticed))
        fight = _fight(spec, grid, route[pos], route[:pos + 1], travellers, group, len(fights), t)
        fights.append(fight["summary"])
        all_events.extend(fight["events"])
        timeline.append(Entry(t, float(fight["summary"]["rounds"]), "encounter", tuple(fight["summary"]["party"]),
                              route[pos], fight["summary"]))
        t += float(fight["summary"]["rounds"])
        s.t = t
        s.monsters_left = [m for m in monsters_left if m.id not in {g.id for g in group}]
        survivors = set(fight["summary"]["party_standing"])
        for c in travellers:
            if c.id not in survivors:
                left_behind[c.id] = "fell in the fight"
        s.travellers = [c for c in travellers if c.id in survivors]
        # armor taken off in the fight (before a crawlway there, RULES §2.4) is off for the crawl too
        s.armor_off |= {c.id for c in s.travellers if c.armor_off}
        if fight["summary"]["winner"] != "party":
            s.travellers = []
            break
        light.after_fight(s.travellers, s.timeline, s.t, s.tracks)
        light.burn(s.travellers, s.timeline, s.t, s.tracks)
        s.fields = fields_now()
    travellers, t = s.travellers, s.t
    arrived = [c.id for c in travellers] if travellers else []
    if arrived and (not fights or fights[-1]["winner"] == "party"):
        timeline.append(Entry(t, 0.0, "arrive", tuple(arrived), route[-1], {}))
    else:
        arrived = []
    return CrawlResult(spec=spec, route=route, timeline=timeline, tracks=tracks, left_behind=left_behind,
                       arrived=arrived, total_rounds=round(t, 6), fights=fights, events=all_events)


def _stretch(state: CrawlState, kind: str, a: int, b: int, *, dress: bool = True, split: bool = True) -> None:
    """One stretch of the route (``state.route[a..b]``): armor off before tight places (or back on
    after them), then every member's own time and the party's (waiting for the slowest; single
    file where narrow). Moves ``state`` on: its clock, fields and travellers."""
    grid, route, armor_off, monsters_left, timeline = state.grid, state.route, state.armor_off, state.monsters_left, state.timeline
    tracks, left_behind, rng, fields_now = state.tracks, state.left_behind, state.rng, state.fields_now
    t, fields, travellers = state.t, state.fields, state.travellers

    def done() -> None:
        state.t, state.fields, state.travellers = t, fields, travellers
    if split and dress and kind in ("open", "single_file") and armor_off and b > a:
        # out of the tight place first (the first square of open ground), then dress there
        _stretch(state, kind, a, a + 1, dress=False)
        t, fields, travellers = state.t, state.fields, state.travellers
        # whoever crawled out stands up (a move action) before dressing, where the ceiling allows
        risers = [c for c in travellers if c.prone and c.id in armor_off
                  and not fields[c.id].prone[route[a + 1][1], route[a + 1][0]]
                  and not _fight_near(grid, route[a + 1], monsters_left)]
        if risers:
            for c in risers:
                c.prone = False
                tracks[c.id].append((t + 0.5, route[a + 1], False))
            timeline.append(Entry(t, 0.5, "stand_up", tuple(c.id for c in risers), route[a + 1], {}))
            t += 0.5
        done()
        if b > a + 1:
            return _stretch(state, kind, a + 1, b, split=False)
        _dress(state, route[b])
        return
    squares = route[a:b + 1]
    constricted = kind in ("crawl", "awkward", "tight")
    # armor off before the tight places (RULES §2.4, §7.33); an ally with nothing of its own to
    # take off helps (the time halves): two creatures busy with their own armor help nobody
    if constricted:
        need = [c for c in travellers if _needs_armor_off(c) and c.id not in armor_off
                and _constricted_for(c, grid, squares[1:])]
        if need:
            helped = len(travellers) > len(need)
            times = {}
            for c in need:
                mins = removal_minutes(c.base_block.armor, rng, helped=helped)
                times[c.id] = mins * combat_modifier("time", "rounds_per_minute")
                c.take_armor_off(drop_shield=True)
                armor_off.add(c.id)
                timeline.append(Entry(t, times[c.id], "armor_off", (c.id,), squares[0],
                                      {"armor": c.base_block.armor.key, "helped": helped,
                                       "minutes": mins}))
            t += max(times.values())
            fields = fields_now()
    elif armor_off and kind in ("open", "single_file") and dress:
        done()
        _dress(state, squares[0])
        t, fields = state.t, state.fields
    # each member's own time for the stretch; the party waits for the slowest
    times: dict[str, float] = {}
    steps: dict[str, list] = {}
    for c in travellers:
        mt, st = _member_time(c, fields[c.id], squares, grid)
        times[c.id] = mt / 2.0  # rounds
        steps[c.id] = st
    if any(math.isinf(v) for v in times.values()):
        stuck = [cid for cid, v in times.items() if math.isinf(v)]
        for cid in stuck:
            left_behind[cid] = f"cannot get through the {kind} stretch at {squares[0]} (no check it could make succeeds)"
            timeline.append(Entry(t, 0.0, "left_behind", (cid,), squares[0], {"reason": left_behind[cid]}))
        travellers = [c for c in travellers if c.id not in stuck]
        if not travellers:
            return done()
        times = {k: v for k, v in times.items() if k not in stuck}
    offsets = {c.id: 0.0 for c in travellers}
    ends = {c.id: times[c.id] for c in travellers}
    if kind != "open" and len(travellers) > 1:
        # single file: each enters once the one ahead has cleared the first square, and cannot
        # come out before the one ahead is out (plus its own last square)
        off = 0.0
        prev_end = 0.0
        for c in travellers:
            offsets[c.id] = off
            st = steps[c.id]
            # the next one follows once this one has cleared the first square: the part of a
            # move action that square takes (its feet of movement over the speed), not a whole one
            speed = max(5, fields[c.id].mover.speed_ft)

            def square_time(i: int) -> float:
                """Rounds for step ``i`` alone: in a single-file walk its feet over the speed (a
                square is a sixth of a 30-ft move action); in a crawlway or squeeze its whole
                actions (a crawl square, an Escape Artist try)."""
                if kind == "single_file" and st[i].kind not in ("crawl", "escape_artist", "squeeze"):
                    return min(1.0, st[i].feet / speed) / 2.0
                return (st[i].move_action - (st[i - 1].move_action if i > 0 else 0.0)) / 2.0

            first = square_time(0) if st else 0.0
            last = square_time(len(st) - 1) if st else 0.0
            ends[c.id] = max(off + times[c.id], prev_end + last)
            prev_end = ends[c.id]
            off += first
    finish = max(ends.values())
    # the last out (in single file, pushed back behind the ones ahead) is the one the others wait for
    slowest = max(travellers, key=lambda c: (ends[c.id], -travellers.index(c)))
    for c in travellers:
        for s in steps[c.id]:
            tracks[c.id].append((t + offsets[c.id] + s.move_action / 2.0, tuple(s.at),
                                 s.kind in ("crawl",) or bool(fields[c.id].prone[s.at[1], s.at[0]])))
    detail = {"squares": len(squares) - 1, "member_rounds": {k: round(v, 3) for k, v in times.items()},
              "slowest": slowest.id}
    cats = {c.id: sorted({Category(int(fields[c.id].category[y, x])).name for x, y in squares[1:]}) for c in travellers}
    detail["categories"] = cats
    if kind in ("awkward", "tight"):
        detail["checks"] = {c.id: [{"at": list(s.at), "dc": s.dc, "tries": s.tries} for s in steps[c.id] if s.dc]
                            for c in travellers}
    timeline.append(Entry(t, finish, "walk" if kind == "open" else kind, tuple(c.id for c in travellers),
                          squares[0], detail))
    waits = [c.id for c in travellers if ends[c.id] < finish - 1e-9]
    if waits and finish > 0:
        timeline.append(Entry(t + finish, 0.0, "wait", tuple(waits), squares[-1],
                              {"for": slowest.id, "rounds": {cid: round(finish - ends[cid], 3) for cid in waits}}))
    t += finish
    done()


def _dress(state: CrawlState, at: Pos) -> None:
    """Armor back on where the way has opened (RULES §2.4 donning times, halved when an ally with
    no armor of its own to put on helps), unless a fight is near. Moves ``state``'s clock on."""
    travellers, armor_off, timeline, rng = state.travellers, state.armor_off, state.timeline, state.rng
    near = _fight_near(state.grid, at, state.monsters_left)
    dressing = [c for c in travellers if c.id in armor_off]
    helped = len(travellers) > len(dressing)
    don_times = []
    for c in dressing:
        if near:
            timeline.append(Entry(state.t, 0.0, "keep_armor_off", (c.id,), at, {"reason": "a fight is near"}))
            continue
        mins = _minutes(c.base_block.armor.don, rng) / (2 if helped else 1)
        c.put_armor_on()
        armor_off.discard(c.id)
        timeline.append(Entry(state.t, mins * combat_modifier("time", "rounds_per_minute"), "armor_on", (c.id,), at,
                              {"armor": c.base_block.armor.key, "helped": helped, "minutes": mins}))
        don_times.append(mins * combat_modifier("time", "rounds_per_minute"))
    if don_times:
        state.t += max(don_times)  # the party waits while they dress
        state.fields = state.fields_now()


def fields_unarmored(grid: CaveGrid, members: list[Creature]) -> dict[str, MoveField]:
    """Fields with medium/heavy armor off (as it will be in tight places): to classify the route."""
    out = {}
    for c in members:
        was = c.armor_off
        if _needs_armor_off(c):
            c.take_armor_off(drop_shield=True)
        out[c.id] = move_field(grid, travel_mover(c))
        if not was:
            c.put_armor_on()
    return out


def _constricted_for(c: Creature, grid: CaveGrid, squares: list[Pos]) -> bool:
    f = move_field(grid, travel_mover(c))
    return any(int(f.mode[y, x]) in (CRAWL, AWKWARD, TIGHT) for x, y in squares)


def _fight_near(grid: CaveGrid, at: Pos, monsters: list[CombatantSpec]) -> bool:
    return any(distance_squares(m.at, at) <= FIGHT_NEAR_SQUARES for m in monsters)  # 5-10-5 (§6.2)


def _monster_block(template: str, base: str = "."):
    """A monster's stat block; a template given as a file is found beside the crawl file, as in
    an encounter. None if it cannot be read (the encounter reports that, with the reason)."""
    try:
        return load_template(template_in(template, base))
    except DataError:
        return None


def _sense_range_ft(template: str, base: str = ".") -> int:
    """How far a monster notices the party: its darkvision, blindsense or tremorsense, at least 60 ft."""
    b = _monster_block(template, base)
    if b is None:
        return 60
    s = b.senses
    return max(60, s.darkvision_ft, s.blindsense_ft, s.tremorsense_ft)


def _monster_blind(m: CombatantSpec, base: str = ".") -> bool:
    """The monster is blind by nature (``[senses] blind``): it sees no light."""
    b = _monster_block(m.template, base)
    return b is not None and bool(b.senses.blind)


def _block_squares(at: Pos, space_ft: float, swarm: bool = False) -> set[Pos]:
    """The squares a creature of this space covers from ``at`` (its top-left square)."""
    k = 1 if swarm else max(1, int(space_ft // 5))
    return {(at[0] + i, at[1] + j) for i in range(k) for j in range(k)}


def _trigger(grid: CaveGrid, squares: list[Pos], monsters: list[CombatantSpec], party: list[Creature], *,
             base: str = ".", lit: bool = False, item: str | None = None):
    """The first square of the stretch where a monster notices the party or the party notices a
    monster (see the module notes). A monster notices by its senses, or, when the party carries a
    light (``lit``), by seeing it along a clear line from any distance. The party, standing on the
    square with its light (``item``), notices what its own eyes and senses give it there
    (:func:`_party_notices`). Returns (index, the monsters that join the fight: those within 60 ft
    of one noticed or noticing, the "noticed" entry's detail). Distances count diagonals 5-10-5
    (§6.2)."""
    if not monsters:
        return None
    # a blind monster (grimlocks, oozes) sees no light: only its senses notice the party
    views = {m.id: field_of_view(grid.rock, m.at) for m in monsters if lit and not _monster_blind(m, base)}
    fixed = [*map_lights(grid), *(gear_light(it, at=m.at) for m in monsters if (it := _monster_light(m, base)))]
    for i, sq in enumerate(squares):
        seen = []
        for m in monsters:
            r = _sense_range_ft(m.template, base) // 5
            if m.id in views and views[m.id][sq[1], sq[0]]:
                seen.append((m, "light"))  # the party's light, seen down the tunnel (RULES §9.3.4)
            elif distance_squares(m.at, sq) <= r and line_of_effect(grid.rock, [sq], [m.at]):
                seen.append((m, "senses"))
        spotted = _party_notices(grid, sq, party, item, monsters, fixed, base) if party else []
        if seen or spotted:
            first = [m for m, _ in seen] + [m for m in monsters if any(d["monster"] == m.id for d in spotted)]
            # everyone within 60 ft of the first to notice (or be noticed) joins
            group = [m for m in monsters if any(distance_squares(m.at, s.at) <= 12 for s in first)]
            detail = {"first": "both" if seen and spotted else ("monsters" if seen else "party"),
                      "monsters_noticed": [{"monster": m.id, "from_ft": 5 * distance_squares(m.at, sq), "by": how}
                                           for m, how in seen],
                      "party_noticed": spotted}
            return i, group, detail
    return None


def _monster_light(m: CombatantSpec, base: str) -> str | None:
    """The light a monster of the crawl holds lit: ``light = ...``, or for ``lit`` a torch it carries."""
    if m.light:
        return m.light
    if not m.lit:
        return None
    b = _monster_block(m.template, base)
    carried = dict(b.gear) if b is not None else {}
    wielded = wielded_torches(b) if b is not None else 0   # a torch among its [[weapon]]s
    return "torch" if carried.get("torch", 0) + wielded + dict(m.items).get("torch", 0) > 0 else None


def _party_notices(grid: CaveGrid, sq: Pos, party: list[Creature], item: str | None, monsters: list[CombatantSpec],
                   fixed: list, base: str) -> list[dict]:
    """Which monsters the party perceives (sees or pinpoints, RULES §9.3) from ``sq``, its light
    (``item``) shining from there, every member counted at that square: ``{"member", "monster",
    "from_ft", "by"}``, ``by`` being ``light`` (lit by any light in the member's view: a lit
    square is seen from any distance along a clear line), ``darkvision`` or ``senses``."""
    lights = list(fixed) + ([gear_light(item, at=sq)] if item else [])
    rows, cols = grid.shape
    viewers = [Viewer.from_senses(c.id, "party", [sq], c.block.senses) for c in party]
    for m in monsters:
        b = _monster_block(m.template, base)
        if b is None:
            continue
        squares = sorted(q for q in _block_squares(m.at, b.body.space, b.is_swarm) if 0 <= q[0] < cols and 0 <= q[1] < rows)
        viewers.append(Viewer.from_senses(m.id, "monsters", squares, b.senses, grounded=not b.speed.fly))
    lg, s = vision(grid.rock, lights, viewers)
    out = []
    for c in party:
        for v in viewers[len(party):]:
            level = s.level_of(c.id, v.id)
            if level < LOCATES:
                continue
            ft = 5 * min(distance_squares(sq, q) for q in v.squares)
            levels = lg.for_viewer(bool(c.block.senses.low_light))
            by = "senses" if level < SEES else (
                "light" if any(levels[y, x] != DARK for x, y in v.squares) else "darkvision")
            out.append({"member": c.id, "monster": v.id, "from_ft": ft, "by": by})
    return out


def _fight(spec: CrawlSpec, grid: CaveGrid, at: Pos, behind: list[Pos], party: list[Creature],
           group: list[CombatantSpec], number: int, t: float) -> dict:
    """Play the fight from where the party stands (single file back along the route) with the
    equipment it has now."""
    seed = int(np.random.SeedSequence(spec.seed).spawn(number + 2)[number + 1].generate_state(1)[0])
    taken: set[Pos] = set()
    for m in group:  # the monsters' whole footprints (a Large ogre covers four squares)
        b = _monster_block(m.template, spec.path)
        taken |= _block_squares(m.at, b.body.space if b is not None else 5.0, b is not None and b.is_swarm)
    places = _file_positions(grid, party, list(reversed(behind)), taken)
    combatants = [dataclasses.replace(m, at=places[c.id], team="party", id=c.id) for c, m in
                  zip(party, [next(s for s in spec.party if s.id == c.id) for c in party])]
    enc_spec = EncounterSpec(name=f"{spec.name}: fight {number + 1}", path=spec.path, grid=grid, seed=seed,
                             combatants=tuple(combatants) + tuple(group), settings=dict(spec.settings))
    enc = new_encounter(enc_spec)
    for c in party:  # carry over what happened on the way (setup.CARRIED: the same fields both ways)
        e = enc.creatures[c.id]
        carry_over(c, e)
        e.prone = e.prone or bool(enc.field(e).prone[e.pos[1], e.pos[0]])  # placed where it can only crawl
        enc.place(e, e.pos)
    enc.run()
    zones.fight_over(enc)   # webs and clouds stay behind: nobody walks on entangled (docs/rules.md §8.3)
    standing = []
    for c in party:  # and back: what the fight spent stays spent for the next one
        e = enc.creatures[c.id]
        carry_over(e, c)
        if e.in_fight:
            standing.append(c.id)
    return {"events": enc.events,
            "summary": {"at": list(at), "start_rounds": t, "rounds": enc.round, "winner": enc.winner,
                        "reason": enc.end_reason, "seed": seed, "party": [c.id for c in party],
                        "monsters": [m.id for m in group], "party_standing": standing,
                        "armor_off": [c.id for c in party if c.armor_off]}}


def light_words(who: str, what: str, d: dict) -> str:
    """A light entry of the timeline in words.

    >>> print(light_words("lidda", "light", {"item": "torch", "burns_minutes": 60.0}))
    lidda lights a torch and carries the party's light (it burns 60 min)
    >>> print(light_words("lidda", "light_out", {"item": "torch"}))
    lidda's torch burns out
    """
    item = d.get("item", "light").replace("-", " ")
    if what == "light_out":
        return f"{who}'s {item} burns out"
    if d.get("picked_up"):
        return f"{who} picks up the burning {item} and carries the party's light"
    m = d.get("burns_minutes")
    return f"{who} lights a {item} and carries the party's light" + (f" (it burns {m:g} min)" if m else "")



def notice_words(d: dict, name: Callable[[str], str] = str) -> str:
    """A ``noticed`` entry of the timeline in words (the first three noticings).

    >>> print(notice_words({"first": "monsters", "party_noticed": [],
    ...                     "monsters_noticed": [{"monster": "kobold-2", "from_ft": 200, "by": "light"}]}))
    The monsters notice first: kobold-2 sees the party's light from 200 ft; the party has noticed nothing
    >>> print(notice_words({"first": "party", "monsters_noticed": [],
    ...                     "party_noticed": [{"member": "tordek", "monster": "ogre", "from_ft": 60, "by": "darkvision"}]}))
    The party notices first: tordek sees ogre by darkvision from 60 ft
    """
    how_m = {"light": "sees the party's light", "senses": "notices the party by its senses"}
    how_p = {"light": "sees {} in the light", "darkvision": "sees {} by darkvision", "senses": "pinpoints {} by its senses"}
    parts = [f"{name(x['monster'])} {how_m.get(x['by'], 'notices the party')} from {x['from_ft']} ft"
             for x in d.get("monsters_noticed", [])]
    parts += [f"{name(x['member'])} {how_p.get(x['by'], 'notices {}').format(name(x['monster']))} from {x['from_ft']} ft"
              for x in d.get("party_noticed", [])]
    more = f" and {len(parts) - 3} more" if len(parts) > 3 else ""
    head = {"monsters": "The monsters notice first", "party": "The party notices first",
            "both": "Both sides notice each other"}.get(d.get("first"), "Noticed")
    tail = "" if d.get("party_noticed") else "; the party has noticed nothing"
    return f"{head}: {'; '.join(parts[:3])}{more}{tail}"


@dataclass(slots=True)
class _PartyLight:
    """The light the party carries: who, which item, and when it burns out (in rounds)."""

    bearer: Creature | None = None
    item: str | None = None
    out_at: float = math.inf

    def lit(self) -> bool:
        return self.bearer is not None and self.item is not None

    def _hold(self, c: Creature, item: str) -> None:
        if item == "torch":
            c.torch_lit = True
        else:
            c.light = item

    def _drop(self, c: Creature) -> None:
        if self.item == "torch":
            c.torch_lit = False
            if c.wielding == "torch":
                c.wielding = None
        elif c.light == self.item:
            c.light = None

    def relight(self, party: list[Creature], timeline: list, t: float, tracks: dict) -> None:
        """Light the brightest light the party has left (RULES §9.3.5)."""
        pick = party_light_bearer([c for c in party if c.in_fight])
        if pick is None:
            self.bearer = self.item = None
            return
        c, item = pick
        self.bearer, self.item = c, item
        self._hold(c, item)
        minutes = burn_minutes(item)
        self.out_at = t + minutes * combat_modifier("time", "rounds_per_minute")
        timeline.append(Entry(t, 0.0, "light", (c.id,), tracks[c.id][-1][1],
                              {"item": item, "carried_by": c.id,
                               "burns_minutes": None if math.isinf(minutes) else minutes}))

    def burn(self, party: list[Creature], timeline: list, t: float, tracks: dict) -> None:
        """Burn time (RULES §9.3.6): each light that has burnt out by ``t`` is used up, and the
        next one is lit from the party's gear at that moment."""
        while self.lit() and t >= self.out_at:
            c, item, when = self.bearer, self.item, self.out_at
            self._drop(c)
            c.items[item] = max(0, c.items.get(item, 0) - 1)
            timeline.append(Entry(when, 0.0, "light_out", (c.id,), tracks[c.id][-1][1], {"item": item}))
            self.relight(party, timeline, when, tracks)

    def after_fight(self, party: list[Creature], timeline: list, t: float, tracks: dict) -> None:
        """A light dropped in the fight (or by a bearer who fell) is picked up, still burning."""
        if not self.lit():
            return
        holds = self.bearer in party and ((self.item == "torch" and self.bearer.torch_lit)
                                          or self.bearer.light == self.item)
        if holds:
            return
        if self.bearer not in party:
            pick = [c for c in party if c.in_fight and c.block.shield is None] or [c for c in party if c.in_fight]
            if not pick:
                return
            self.bearer = pick[0]
            self.bearer.items[self.item] = self.bearer.items.get(self.item, 0) + 1
        self._hold(self.bearer, self.item)
        timeline.append(Entry(t, 0.0, "light", (self.bearer.id,), tracks[self.bearer.id][-1][1],
                              {"item": self.item, "carried_by": self.bearer.id, "picked_up": True}))


def _file_positions(grid: CaveGrid, party: list[Creature], back: list[Pos], taken: set[Pos]) -> dict[str, Pos]:
    """Single file back along the route: the leader at the newest square, each next member on the
    next free square behind where it fits."""
    out: dict[str, Pos] = {}
    used = set(taken)
    k = 0
    for c in party:
        f = move_field(grid, travel_mover(c))
        while k < len(back) and (_block_squares(back[k], c.block.body.space) & used
                                 or f.mode[back[k][1], back[k][0]] == BLOCKED):
            k += 1
        sq = back[k] if k < len(back) else back[-1]
        out[c.id] = sq
        used |= _block_squares(sq, c.block.body.space)
        k += 1
    return out
