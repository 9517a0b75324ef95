"""What the AI estimates before it chooses (sim.engine.ai.decide): the chance to hit and the damage an
attack is worth against a target, computed with the engine's own rules (attacks.plan_attack,
damage.adjust_for_target: RULES §4.7), whether a weapon can be used now and reaches, and the
squares from which a creature can attack another (from its distance field, memoised per turn in
the World's query cache, keyed by the state of the fight). Pure questions: nothing here changes the world."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from sim.base.coords import Pos
from sim.engine import attacks, split, zones
from sim.engine.creature import Creature
from sim.engine.damage import swarm_weapon_rule
from sim.engine.world import World
from sim.terrain.geometry import distance_squares_grid, footprint_distance_ft
from sim.terrain.movement import distance_map
from sim.terrain.movement.field import BLOCKED
from sim.terrain.movement.queries import WindowDistance, distance_window

#: [PD] What a hit that splits an ooze is worth to the AI, as a share of its damage: little (any
#: weapon that hurts it is better), not nothing (with no other weapon, it still strikes).
SPLIT_WORTH = 0.1


def needs_both_hands(c: Creature, att) -> bool:
    """Fighting with ``att`` takes both hands: a two-handed weapon, or a weapon and a shield
    (RULES §9.3.5: a light takes a hand)."""
    if att is None or att.kind != "weapon" or att.name == "torch":
        return False
    two = att.weapon is not None and att.weapon.category == "two-handed"
    return two or c.block.shield is not None


def hit_chance(bonus: int, ac: int) -> float:
    need = ac - bonus
    return min(0.95, max(0.05, (21 - need) / 20))


def expected_damage(w: World, c: Creature, att, target: Creature) -> float:
    """Expected damage of one attack from where ``c`` stands (or would stand), or 0 if refused."""
    plan = attacks.plan_attack(w, c, att, target, kind="ranged" if att.mode == "ranged" else "melee")
    if not plan:
        return 0.0
    unlit = attacks.unlit_torch(c, att)  # a plain club: no fire (RULES §3.5)
    avg = att.damage.average + sum(d.average for d, e in att.extra_damage if not (unlit and e == "fire"))
    if target.is_swarm:
        if att.weapon is not None and att.weapon.swarm_fire is not None and not unlit:
            avg = att.weapon.swarm_fire.average
        else:
            rule = swarm_weapon_rule(target, att.damage_types or ("bludgeoning",), att.types_join)  # RULES §4.7
            phys = {"immune": 0.0, "half": att.damage.average / 2, "full": att.damage.average}[rule]
            avg = phys + sum(d.average for d, _ in att.extra_damage)
    if split.splits_with(target, att):
        avg *= SPLIT_WORTH  # it splits the ooze instead of hurting it (docs/rules.md §11.14)
    return hit_chance(plan.bonus, plan.ac) * max(0.0, avg)


def usable_now(w: World, c: Creature, att, target: Creature) -> bool:
    return bool(attacks.plan_attack(w, c, att, target, kind="ranged" if att.mode == "ranged" else "melee"))


def reaches(w: World, c: Creature, target: Creature, att=None) -> bool:
    att = att or c.wielded() or attacks.first_melee(c)
    if att is None:
        return False
    reach = int(att.reach_ft or c.reach_ft())
    if reach <= 0:
        return bool(set(c.squares) & set(target.squares))
    return footprint_distance_ft(c.squares, target.squares) <= reach


def is_ranged(c: Creature) -> bool:
    """A creature that prefers to fight at range: a caster, or one whose best ranged attack beats
    its best melee attack."""
    if c.block.spells is not None and c.block.spells.cls in ("wizard", "sorcerer"):
        return True
    melee = [a.bonus or 0 for a in c.block.attacks if a.mode == "melee"]
    ranged = [a.bonus or 0 for a in c.block.attacks if a.mode == "ranged" and not a.thrown]
    if not ranged:
        return False
    best_m = max((a.damage.average for a in c.block.attacks if a.mode == "melee"), default=0)
    best_r = max((a.damage.average for a in c.block.attacks if a.mode == "ranged" and not a.thrown), default=0)
    return max(ranged) > max(melee, default=-99) + 1 and best_r >= best_m


def distance_field(w: World, c: Creature):
    f = w.field(c)
    avoid = zones.web_avoided(w, c) if w.magic.zones else frozenset()
    key = (id(f), c.id, c.pos, c.prone, w.occupancy_signature(), avoid)  # one search per state of the fight
    d = w.cache.distances.get(key)
    if d is None:
        blocked, _ = w.occupancy_masks(c)
        blocked[c.pos[1], c.pos[0]] = False
        d = distance_map(f, c.pos, expected=True, blocked=blocked, prone=c.prone)
        if avoid:
            d = _round_web(f, c, d, blocked, avoid)
        d = w.cache.distances.put(key, d)
    return d


#: [PD] The largest share of the map a windowed search (:func:`distance_window_for`) may cover;
#: beyond it the whole-map search (:func:`distance_field`, remembered for the state) is as cheap.
WINDOW_SHARE = 0.25


def distance_window_for(w: World, c: Creature, squares: list[Pos]):
    """``c``'s times to ``squares`` searched in a box round them and it, not over the whole map
    (:func:`sim.terrain.movement.queries.distance_window`: exact where it reaches a square in
    fewer move actions than its ``bound``), so that a turn costs what the fight needs, not what
    the map holds (issue 27). The box: the squares and ``c``, widened on every side by twice its
    speed plus its distance to the nearest of them (a way there that winds further out shows as
    a bound it does not beat, and the caller searches the whole map). None when webs bend the
    times (:func:`_round_web`), when there are no squares, or when the box would cover more than
    :data:`WINDOW_SHARE` of the map."""
    if not squares or (w.magic.zones and zones.web_avoided(w, c)):
        return None
    f = w.field(c)
    rows, cols = f.shape
    x, y = c.pos
    near = min(max(abs(px - x), abs(py - y)) for px, py in squares)
    m = 2 * f.mover.speed_squares + near + c.k
    x0 = max(0, min(x, *(px for px, _ in squares)) - m)
    y0 = max(0, min(y, *(py for _, py in squares)) - m)
    x1 = min(cols - 1, max(x, *(px for px, _ in squares)) + m)
    y1 = min(rows - 1, max(y, *(py for _, py in squares)) + m)
    if (x1 - x0 + 1) * (y1 - y0 + 1) > WINDOW_SHARE * rows * cols:
        return None
    blocked, _ = w.occupancy_masks(c)
    return distance_window(f, c.pos, (x0, y0, x1, y1), expected=True, blocked=blocked, prone=c.prone)


def distance_within(w: World, c: Creature, max_actions: float) -> WindowDistance:
    """``c``'s times (:func:`distance_field`) to the squares it reaches in at most ``max_actions``
    move actions, searched in a box round it (``max_actions`` x its speed in squares, plus its
    side: no move action covers more squares than its speed): those squares, and only those, have
    times of at most ``max_actions`` in the answer, the whole map's times. The whole map's search
    (``origin`` (0, 0), no bound) when webs bend the times, when the box would cover more than
    :data:`WINDOW_SHARE` of the map, or when its bound does not exceed ``max_actions``."""
    f = w.field(c)
    rows, cols = f.shape
    m = math.ceil(max_actions) * f.mover.speed_squares + c.k + 1
    x, y = c.pos
    box = (max(0, x - m), max(0, y - m), min(cols - 1, x + m), min(rows - 1, y + m))
    if not (w.magic.zones and zones.web_avoided(w, c)) and \
            (box[2] - box[0] + 1) * (box[3] - box[1] + 1) <= WINDOW_SHARE * rows * cols:
        blocked, _ = w.occupancy_masks(c)
        win = distance_window(f, c.pos, box, expected=True, blocked=blocked, prone=c.prone)
        if win.bound > max_actions:
            return win
    return WindowDistance(origin=(0, 0), times=distance_field(w, c), bound=math.inf)


def _round_web(f, c: Creature, d, blocked: np.ndarray, avoid: frozenset):
    """The times round the webs where a way round exists, through them elsewhere (the move's own
    path, :func:`sim.engine.moves.round_web`; docs/rules.md §8.3's AI)."""
    rows, cols = blocked.shape
    round_it = blocked.copy()
    for x, y in avoid:
        if 0 <= x < cols and 0 <= y < rows:
            round_it[y, x] = True
    r = distance_map(f, c.pos, expected=True, blocked=round_it, prone=c.prone)
    ok = r.reachable()
    # through a web only: a round more (WEB_ROUND) than the walk, so a square clear of it is chosen first
    late = ~ok & d.reachable()
    actions = np.where(ok, r.actions, d.actions + 2 * WEB_ROUND)
    feet = np.where(ok, r.feet, np.where(late, d.feet + 2 * WEB_ROUND * c.speed_ft_value(), d.feet))
    rounds = np.where(ok, r.rounds, np.where(late, d.rounds + WEB_ROUND, d.rounds))
    return dataclasses.replace(d, actions=actions, feet=feet.astype(d.feet.dtype), rounds=rounds.astype(d.rounds.dtype))


WEB_ROUND = 1   # [PD] a square reached only through a web counts a round (two move actions) further


def attack_squares(w: World, c: Creature, target: Creature, reach: int) -> list[Pos]:
    """Reference squares from which ``c`` could attack ``target`` (free, where it can stand)."""
    f = w.field(c)
    blocked, no_end = w.occupancy_masks(c)
    rows, cols = w.grid.shape
    r = max(1, reach // 5) + c.k
    xs = [x for x, _ in target.squares]
    ys = [y for _, y in target.squares]
    if c.k == 1 and reach == 5 and len(target.squares) == 1:  # the common case: the 3 x 3 block around it
        tx, ty = target.squares[0]
        mode = f.mode
        return [(x, y) for y in range(max(0, ty - 1), min(rows, ty + 2)) for x in range(max(0, tx - 1), min(cols, tx + 2))
                if mode[y, x] != BLOCKED and (not (blocked[y, x] or no_end[y, x]) or (x, y) == c.pos)]
    if c.k == 1:  # one square: the same test for the whole window at once
        return attack_squares_1(f, c, target, reach, blocked | no_end, (max(0, min(ys) - r), min(rows, max(ys) + r + 1),
                                                                         max(0, min(xs) - r), min(cols, max(xs) + r + 1)))
    out = []
    for y in range(max(0, min(ys) - r), min(rows, max(ys) + r + 1)):
        for x in range(max(0, min(xs) - r), min(cols, max(xs) + r + 1)):
            if f.mode[y, x] == BLOCKED or ((blocked[y, x] or no_end[y, x]) and (x, y) != c.pos):
                continue
            sq = f.occupied((x, y), [])
            d = footprint_distance_ft(sq, target.squares)
            if reach <= 0:
                if not set(sq) & set(target.squares):
                    continue
            elif d > reach:
                continue
            out.append((x, y))
    return out


def attack_squares_1(f, c: Creature, target: Creature, reach: int, taken: np.ndarray, box) -> list[Pos]:
    """:func:`attack_squares` for a one-square creature, vectorised over the window ``box``
    (rows y0:y1, columns x0:x1); the same squares in the same (row-major) order."""
    y0, y1, x0, x1 = box
    if y0 >= y1 or x0 >= x1:
        return []
    yy, xx = np.arange(y0, y1)[:, None], np.arange(x0, x1)[None, :]
    ok = (f.mode[y0:y1, x0:x1] != BLOCKED) & (~taken[y0:y1, x0:x1] | ((xx == c.pos[0]) & (yy == c.pos[1])))
    if reach <= 0:
        on = np.zeros(ok.shape, dtype=bool)
        for tx, ty in target.squares:
            on |= (xx == tx) & (yy == ty)
        ok &= on
    else:
        dist = None
        for tx, ty in target.squares:
            dd = 5 * distance_squares_grid(xx - tx, yy - ty)
            dist = dd if dist is None else np.minimum(dist, dd)
        ok &= dist <= reach
    ys, xs = np.nonzero(ok)
    return list(zip((xs + x0).tolist(), (ys + y0).tolist()))


def best_against(w: World, c: Creature, options, foes: list[Creature]):
    """(expected damage, attack, target) of the pair among ``options`` x ``foes`` that hurts most
    (the first of equals, attacks before targets), or None when none has a chance to hurt."""
    best = None
    for a in options:
        for f in foes:
            v = expected_damage(w, c, a, f)
            if v > 0 and (best is None or v > best[0]):
                best = (v, a, f)
    return best


def best_melee(w: World, c: Creature, target: Creature):
    """The carried melee attack with the best expected damage from where ``c`` stands."""
    best, best_v = None, -1.0
    for a in c.melee_options():
        v = expected_damage(w, c, a, target)
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best, best_v
