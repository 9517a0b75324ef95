"""Trip and bull rush (SRD Combat, Special Attacks; docs/rules.md §11.9-11.10).

Both are opposed ability checks with the special size modifier (+4 per size category above
Medium, -4 per category below: the grapple column of RULES §1.1) and +4 for a stable defender
(a dwarf's stability, more than two legs: a long-bodied creature here). Swarms can be neither
tripped nor bull rushed (RULES §4.5), nor can legless oozes be tripped.

* Trip: a melee touch attack (provoking from the target without Improved Trip); then Str against
  the defender's Str or Dex, whichever is better; won: the defender is prone; lost: the defender
  may at once try to trip the attacker back.
* Bull rush: provokes from the target (without Improved Bull Rush); opposed Str checks; won: the
  defender is pushed 5 ft., and 5 ft. more for every 5 points won by, straight away from the
  attacker, each square one its body can stand in (the placement test of the encounter files).
"""

from __future__ import annotations

from sim.engine.actions import BullRush, Impossible, Trip, Turn
from sim.engine.creature import Creature
from sim.engine.events import Condition, Moved
from sim.engine.grapple import opposed, provoked_fails, touch_attack, touch_plan
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.categories import Category
from sim.rules.sizes import at_most_one_larger
from sim.rules.statblocks import race_table
from sim.rules.weapons import combat_modifier
from sim.terrain.movement.field import BLOCKED
from sim.terrain.movement.kernel import DIRS


def _stability(c: Creature) -> int:
    race = race_table().get(c.block.race, {}) if c.block.race else {}
    if race.get("stability"):
        return int(race["stability"])
    return combat_modifier("maneuver", "stability") if c.block.source.form == "long" else 0


def check_parts(c: Creature, ability: str, *, defender: bool, feat: str) -> dict[str, int]:
    """An ability check of a trip or bull rush: the modifier (after ability damage), the special
    size modifier, stability for the defender, the Improved feat for the attacker."""
    b = c.block
    delta = c.str_mod_delta() if ability == "str" else c.dex_mod_delta()
    parts = {ability: b.abilities.mod(ability) + delta, "size": int(b.size.grapple)}
    if defender and _stability(c):
        parts["stability"] = _stability(c)
    if not defender and b.has_feat(feat):
        parts[feat.replace("-", "_")] = combat_modifier("maneuver", "improved_feat")
    return parts


def best_of(c: Creature) -> str:
    """The defender's better ability against a trip: Str or Dex."""
    ab = c.block.abilities
    s = ab.mod("str") + c.str_mod_delta() if ab.str is not None else -99
    d = ab.mod("dex") + c.dex_mod_delta() if ab.dex is not None else -99
    return "dex" if d > s else "str"


def _target(w: World, c: Creature, name: str, what: str) -> Impossible | None:
    """The refusals shared by trip and bull rush: no such foe, one already out, a swarm on either
    side (RULES §4.5), a foe more than one size larger (SRD)."""
    target = w.creatures.get(name)
    if target is None or target is c:
        return Impossible(f"no creature {name!r} to {what}")
    if not target.alive:
        return Impossible(f"{target.name} is already out")
    if target.is_swarm:
        return Impossible(f"{target.name} is a swarm: swarms cannot be grappled, tripped or bull rushed (RULES §4.5)")
    if c.is_swarm:
        return Impossible(f"{c.name} is a swarm: it cannot {what} (RULES §4.5)")
    if not at_most_one_larger(target.size, c.size):
        return Impossible(f"{target.name} is too big to {what}: at most one size larger than {c.name} (SRD)")
    return None


def trip_check(w: World, c: Creature, a: Trip) -> Impossible | None:
    """Why ``c`` cannot trip now, before any die: the registered check (:data:`MANEUVERS`), which
    the turn loop asks before :func:`do_trip` and the AI before choosing a trip
    (:func:`sim.engine.registry.check`)."""
    no = _target(w, c, a.target, "trip")
    if no is not None:
        return no
    target = w.creatures[a.target]
    if target.block.type == "ooze":
        return Impossible(f"{target.name} has no legs: an ooze cannot be tripped (SRD)")
    if target.prone:
        return Impossible(f"{target.name} is already prone")
    return None


def bull_rush_check(w: World, c: Creature, a: BullRush) -> Impossible | None:
    """Why ``c`` cannot bull rush now, before any die: the registered check, asked by the turn loop
    before :func:`do_bull_rush` and by the AI (:func:`sim.engine.registry.check`)."""
    no = _target(w, c, a.target, "bull rush")
    if no is not None:
        return no
    target = w.creatures[a.target]
    if target.id in c.grapple_with:
        return Impossible(f"{c.name} is grappling {target.name}: move the grapple instead (§11.7)")
    apart = min(max(abs(x1 - x2), abs(y1 - y2)) for x1, y1 in c.squares for x2, y2 in target.squares)
    if apart > 1:
        return Impossible(f"{target.name} is not next to {c.name}: a bull rush pushes an adjacent foe")
    return None


def do_trip(w: World, c: Creature, t: Turn, a: Trip):
    """A trip (its check, :func:`trip_check`, passed: the turn loop asked it)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures[a.target]
    plan = touch_plan(w, c, target, "trip")
    if not plan:
        return Impossible(plan.reason)
    t.spend("standard")
    if not c.block.has_feat("improved-trip") and provoked_fails(w, c, target, "trip"):
        return True
    hit = touch_attack(w, c, target, "trip")
    if isinstance(hit, Impossible) or not hit or not c.in_fight:
        return True
    if opposed(w, c, target, "trip", "str", check_parts(c, "str", defender=False, feat="improved-trip"),
               best_of(target), check_parts(target, best_of(target), defender=True, feat="improved-trip")):
        _fall(w, target, "tripped")
    elif target.in_fight and not c.prone:
        if opposed(w, target, c, "trip_back", "str", check_parts(target, "str", defender=False, feat="improved-trip"),
                   best_of(c), check_parts(c, best_of(c), defender=True, feat="improved-trip")):
            _fall(w, c, "tripped")
    return True


def _fall(w: World, c: Creature, cause: str) -> None:
    c.prone = True
    w.emit(Condition(round=w.round, target=c.id, condition="prone", active=True, cause=cause))


def push_direction(c: Creature, target: Creature) -> tuple[int, int]:
    """Straight away from the attacker: the sign of the offset between the two centres."""
    ax = sum(x for x, _ in c.squares) / len(c.squares)
    ay = sum(y for _, y in c.squares) / len(c.squares)
    tx = sum(x for x, _ in target.squares) / len(target.squares)
    ty = sum(y for _, y in target.squares) / len(target.squares)
    dx, dy = tx - ax, ty - ay
    sx = (dx > 0) - (dx < 0) if abs(dx) * 2 >= abs(dy) else 0
    sy = (dy > 0) - (dy < 0) if abs(dy) * 2 >= abs(dx) else 0
    return sx, sy


def can_stand(w: World, c: Creature, at) -> bool:
    """Whether ``c``'s body fits with its top-left square at ``at`` and nobody else stands there
    (the placement test of the encounter files, ``sim.engine.setup.check_placement``)."""
    if not w.grid.in_bounds(at) or w.field(c).mode[at[1], at[0]] == BLOCKED:
        return False
    taken = {sq for o in w.creatures.values() if o is not c and o.alive and not o.is_swarm and not o.helpless
             for sq in o.squares}
    return not any((at[0] + dx, at[1] + dy) in taken for dx in range(c.k) for dy in range(c.k))


def do_bull_rush(w: World, c: Creature, t: Turn, a: BullRush):
    """A bull rush (its check, :func:`bull_rush_check`, passed: the turn loop asked it)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures[a.target]
    t.spend("standard")
    if not c.block.has_feat("improved-bull-rush") and provoked_fails(w, c, target, "bull_rush"):
        return True
    mine = check_parts(c, "str", defender=False, feat="improved-bull-rush")
    theirs = check_parts(target, "str", defender=True, feat="improved-bull-rush")
    mark = len(w.events)
    if not opposed(w, c, target, "bull_rush", "str", mine, "str", theirs):
        return True
    e = w.events[mark]
    squares = 1 + max(0, (e.total - e.target_total) // 5)
    dx, dy = push_direction(c, target)
    path = []
    for _ in range(squares):
        nxt = (target.pos[0] + dx, target.pos[1] + dy)
        if (dx, dy) == (0, 0) or not can_stand(w, target, nxt):
            break
        if w.grid.edges is not None and not (w.field(target).dirs[target.pos[1], target.pos[0]] >> DIRS.index((dy, dx))) & 1:
            break   # no push across a wall between squares (docs/rules.md §6.8)
        w.place(target, nxt, trail_step=True)
        cat = Category(int(w.field(target).category[nxt[1], nxt[0]])).name
        path.append({"at": list(nxt), "category": cat, "kind": "pushed", "feet": 5})
    w.emit(Moved(round=w.round, actor=target.id, path=tuple(path), squares=tuple(target.squares),
                 prone=target.prone, action="pushed"))
    return True


MANEUVERS = Mechanic("maneuvers", actions={Trip: do_trip, BullRush: do_bull_rush},
                     checks={Trip: trip_check, BullRush: bull_rush_check})
