"""The party's route and how each member moves along it (RULES §2.4, §6, §7.30, §7.33): the
fastest way for the party as a whole, planned for its most restrictive member (or, when no route
suits that composite, for the member the most others can follow); who cannot follow and where it
stops; the kind of each square (open, single file, crawl, awkward, tight); each member's own time
along a stretch, out of combat (take 10 / take 20 on Escape Artist, an ally's aid).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from sim.base.coords import Pos
from sim.crawl.records import CannotFollow
from sim.engine.creature import Creature
from sim.engine.setup import mover_for
from sim.rules.armor import must_remove
from sim.rules.bodies import Body
from sim.rules.categories import Category
from sim.rules.statblocks import without_armor
from sim.rules.weapons import combat_modifier
from sim.terrain.grid import CaveGrid, effective_width_ft
from sim.terrain.movement import Mover, Path, distance_map, find_path, move_field
from sim.terrain.movement.field import AWKWARD, BLOCKED, CRAWL, TIGHT, WALK, MoveField

KINDS = ("open", "single_file", "crawl", "awkward", "tight")
_MODE_KIND = {WALK: "open", CRAWL: "crawl", AWKWARD: "awkward", TIGHT: "tight"}


def travel_mover(c: Creature, *, aid: int = 0) -> Mover:
    """The creature out of combat: take 10 / take 20 allowed (RULES §2.4), its current armor,
    ``aid`` added to Escape Artist (an ally's aid another, +2)."""
    m = mover_for(c, in_combat=False)
    return dataclasses.replace(m, escape_artist=m.escape_artist + aid)


def needs_armor_off(c: Creature) -> bool:
    """Medium or heavy armour comes off before tight places: the one rule (sim.rules.armor), as in
    fights and paths."""
    return must_remove(c.base_block)


def _unarmored(c: Creature):
    return without_armor(c.base_block, drop_shield=True) if needs_armor_off(c) else c.base_block


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


def _route(grid: CaveGrid, members: list[Creature], start: Pos, goal: Pos) -> Path | None:
    mover = _composite(members)
    f = move_field(grid, mover)
    if f.mode[start[1], start[0]] == BLOCKED or f.mode[goal[1], goal[0]] == BLOCKED:
        return None
    p = find_path(f, start, goal)
    return p if p.reachable else None


def route_mover(c: Creature, aid: int) -> Mover:
    """The creature as it meets the tight places: medium or heavy armor off, ``aid`` added to
    Escape Artist."""
    was = c.armor_off
    if needs_armor_off(c) and not was:
        c.take_armor_off(drop_shield=True)
    m = travel_mover(c, aid=aid)
    if needs_armor_off(c) and not was:
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
        f = move_field(grid, route_mover(c, aid))
        if f.mode[start[1], start[0]] == BLOCKED or f.mode[goal[1], goal[0]] == BLOCKED:
            continue
        p = find_path(f, start, goal)
        if not p.reachable:
            continue
        route = list(p.squares)
        followers = [m for m in members
                     if stops_at(move_field(grid, route_mover(m, aid)), route, grid) == len(route) - 1]
        key = (-len(followers), float(p.move_actions if p.move_actions is not None else math.inf))
        if best is None or key < best[0]:
            best = (key, p, followers)
    return (best[1], best[2]) if best is not None else (None, [])


def plan_route(grid: CaveGrid, members: list[Creature], start: Pos, goal: Pos) -> tuple[Path | None, list[Creature]]:
    """The route the party takes and the members who travel it: planned for the whole party's
    composite, else for one member, the most of the others following (see :func:`_best_route`).
    The path is None when no member can reach the goal."""
    path = _route(grid, list(members), start, goal)
    if path is not None:
        return path, list(members)
    return _best_route(grid, members, start, goal)


def cannot_follow(grid: CaveGrid, c: Creature, route: list[Pos], *, aid: int) -> CannotFollow:
    """Where a member the route was not planned for stops, and what stops it there: the next
    square's category for its body."""
    f = move_field(grid, route_mover(c, aid))
    i = stops_at(f, route, grid)
    nx, ny = route[min(i + 1, len(route) - 1)]
    return CannotFollow(stop=route[i], category=Category(int(f.category[ny, nx])), size=c.size.key, name=c.name)


def stops_at(f: MoveField, route: list[Pos], grid: CaveGrid) -> int:
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


def kind_at(fields: dict[str, MoveField], grid: CaveGrid, members: list[Creature], sq: Pos) -> str:
    """The kind of a route square (one of :data:`KINDS`): the worst way any member moves there;
    open ground narrower than two of the widest members is single file."""
    x, y = sq
    worst = WALK
    for c in members:
        worst = max(worst, int(fields[c.id].mode[y, x]))
    kind = _MODE_KIND.get(worst, "open")
    if kind == "open":
        widest = max(c.block.body.space for c in members)
        if effective_width_ft(grid)[y, x] < 2 * widest and len(members) > 1:
            kind = "single_file"
    return kind


def member_time(c: Creature, f: MoveField, squares: list[Pos], grid: CaveGrid) -> tuple[float, list]:
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


def fields_unarmored(grid: CaveGrid, members: list[Creature]) -> dict[str, MoveField]:
    """Fields with medium/heavy armor off (as it will be in tight places): to classify the route."""
    out = {}
    for c in members:
        was = c.armor_off
        if needs_armor_off(c):
            c.take_armor_off(drop_shield=True)
        out[c.id] = move_field(grid, travel_mover(c))
        if not was:
            c.put_armor_on()
    return out


def constricted_for(c: Creature, grid: CaveGrid, squares: list[Pos]) -> bool:
    """Whether ``c`` as it is now must crawl or squeeze on any of these squares."""
    f = move_field(grid, travel_mover(c))
    return any(int(f.mode[y, x]) in (CRAWL, AWKWARD, TIGHT) for x, y in squares)
