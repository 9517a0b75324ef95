"""Swarms, and fighting them (sim.engine.ai.decide; RULES §4.2-4.7, §5.2): area spells, splash
weapons and torches against a swarm; leaving a swarm (or a stinking cloud) when nauseated or
helpless against it; a swarm's own policy: flow onto the squares covering the most foes."""

from __future__ import annotations

import numpy as np

from sim.base.coords import Pos
from sim.engine import moves
from sim.engine.actions import Cast, Draw, LightTorch, Move, Strike, Throw, Turn
from sim.engine.ai.closing import approach
from sim.engine.ai.estimates import distance_field, hit_chance, usable_now
from sim.engine.ai.ranged import EIGHT
from sim.engine.ai.spells import area_spell, leave_cloud
from sim.engine.casting import has_spell
from sim.engine.creature import Creature
from sim.engine.damage import swarm_area_factor
from sim.engine.items import splash_area, splash_modifiers, throwable_items
from sim.engine.spells import cone_origins, cone_squares
from sim.engine.world import World
from sim.rules.weapons import combat_modifier, gear, gear_table, splash_weapon
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement.field import BLOCKED


def swarm_policy(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """Flow to the squares covering the most enemies and stay there (§4.2-4.3)."""
    if t.moved or not (t.move or t.standard):
        return None
    covered = {f.id for f in foes if set(f.squares) & set(c.squares) and not f.is_swarm}
    targets = [f for f in foes if not f.is_swarm]
    if not targets:
        return None
    d = distance_field(w, c)
    budget = 2 if t.full_move else 1
    ok = d.reachable() & (d.actions <= budget)
    occ: dict[Pos, set[str]] = {}
    for f in targets:
        for sq in f.squares:
            occ.setdefault(sq, set()).add(f.id)
    best = None
    for sq, ids in occ.items():
        x, y = sq
        if not ok[y, x]:
            continue
        # the swarm's shape around this lead square covers this creature and maybe others
        n = len(ids | {i for dx in (-1, 0, 1) for dy in (-1, 0, 1) for i in occ.get((x + dx, y + dy), ())})
        key = (-n, float(d.actions[y, x]), sq)
        if best is None or key < best[0]:
            best = (key, sq)
    if best is None:
        act = approach(w, c, t, targets, d)
        return act
    if len(covered) >= -best[0][0] and covered:
        return None  # already covering as many as it could: stay
    dest = best[1]
    if dest == c.pos:
        return None
    if float(d.actions[dest[1], dest[0]]) <= 1:
        return Move(dest)
    return Move(dest, double=t.full_move)


def against_swarms(w: World, c: Creature, t: Turn, foes: list[Creature]):
    swarms = [f for f in foes if f.is_swarm]
    if not swarms or not t.standard:
        return None
    allies = w.allies(c)
    ally_sq = {s for a in allies for s in a.squares} | set(c.squares)
    # 0. fireball or lightning bolt, then burning hands, on a swarm, when the area misses every ally
    #    (x1.5 against a swarm, §4.7)
    big = area_spell(w, c, swarms)
    if big is not None:
        return big
    if c.block.spells is not None and has_spell(c, "burning-hands") is not None:
        for d in EIGHT:
            for o in cone_origins(c, d):
                area = set(cone_squares(w, c, d, o))
                if area & (ally_sq - set(c.squares)):
                    continue
                if any(set(s.squares) & area for s in swarms):
                    return Cast("burning-hands", direction=d, at=o)
    # 1. throw a lantern or a flask: weigh the fire on the swarm (x1.5, §4.7) against what the
    #    splash does to allies in it (RULES §7.21: the thrower and allies are hit too)
    best = None
    for item in throwable_items(c):
        sw = splash_weapon(gear(item).splash)
        everyone = sw.area == "square_and_adjacent"
        for s in swarms:
            dist = footprint_distance_ft(c.squares, s.squares)
            inc = max(1, -(-dist // sw.range_ft))
            if inc > 3 or not w.line_of_effect(c.squares, s.squares):
                continue
            on_swarm = (sw.splash.average if everyone else sw.direct.average) * swarm_area_factor()
            area = set(splash_area(w, s.pos, intersection=False)) | set(s.squares)
            harm = len(area & ally_sq) * max(1.0, sw.splash.average) * swarm_area_factor()
            value = hit_chance(sum(splash_modifiers(w, c, inc, s).values()), s.block.touch_ac) * on_swarm - harm
            if best is None or value > best[0]:
                best = (value, Throw(item, target=s.id))
            for sq in s.squares:  # or aim at a grid intersection (AC 5) whose 4 squares avoid allies
                for corner in (sq, (sq[0] + 1, sq[1]), (sq[0], sq[1] + 1), (sq[0] + 1, sq[1] + 1)):
                    four = set(splash_area(w, corner, intersection=True))
                    if not (four & set(s.squares)) or not w.line_of_effect(c.squares, sorted(four)):
                        continue
                    harm4 = len(four & ally_sq) * max(1.0, sw.splash.average) * swarm_area_factor()
                    v4 = hit_chance(sum(splash_modifiers(w, c, inc).values()), combat_modifier("ac", "splash_intersection")) \
                        * sw.splash.average * swarm_area_factor() - harm4
                    if best is None or v4 > best[0]:
                        best = (v4, Throw(item, at=corner, intersection=True))
    if best is not None and best[0] > 0.5:
        return best[1]
    # 2. a swarm on me or next to me: fight it with a lit torch
    near = [s for s in swarms if footprint_distance_ft(c.squares, s.squares) <= 5 or set(c.squares) & set(s.squares)]
    if near and not c.is_swarm:
        torch = c.attack_named("torch")
        if c.torch_lit and torch is not None:
            if c.wielding != "torch" and t.move:
                return Draw("torch")
            target = near[0]
            if c.wielding == "torch" and usable_now(w, c, torch, target):
                return Strike(target.id, "torch")
        elif c.items.get("torch", 0) > 0 and (c.items.get("tindertwig", 0) > 0 or t.full_round):
            return LightTorch()
    # 3. an unlit lantern and a swarm within throwing range: light it (the torch's action, §3.5)
    unlit = [i for i in throwable_items(c, unprepared=True) if gear(i).is_lantern and c.light != i]
    if unlit and c.light is None and not throwable_items(c) and (c.items.get("tindertwig", 0) > 0 or t.full_round) and any(
            footprint_distance_ft(c.squares, s.squares) <= 30 for s in swarms):
        return LightTorch(unlit[0])
    return None


def nauseated(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """One move action: get out of the swarm, or the stinking cloud, if it can (RULES §5.2)."""
    if not (t.move or t.standard) or t.moved or t.stepped:
        return None
    return flee_swarms(w, c, t, foes, budget=1) or leave_cloud(w, c)   # out of a stinking cloud (§8.4)


def flee_swarms(w: World, c: Creature, t: Turn, foes: list[Creature], *, budget: int):
    """Leave the swarms covering ``c``: to a square no swarm can follow into (a squeeze its
    components cannot pass) when one is in reach, else to the nearest square outside them."""
    swarms = [f for f in foes if f.is_swarm]
    swarm_sq = {s for f in swarms for s in f.squares}
    if not (set(c.squares) & swarm_sq):
        return None
    d = distance_field(w, c)
    ok = d.reachable() & (d.actions <= budget)
    ys, xs = np.nonzero(ok)
    _, no_end = w.occupancy_masks(c)
    shut = np.ones(w.grid.shape, dtype=bool)
    for f in swarms:
        shut &= w.field(f).mode == BLOCKED
    cands = [(0 if shut[y, x] else 1, float(d.actions[y, x]), (x, y)) for x, y in zip(xs.tolist(), ys.tolist())
             if (x, y) not in swarm_sq and not no_end[y, x]]
    # the best candidate the creature can actually move to (checked best first: a plan is a search)
    dest = next((k[2] for k in sorted(cands) if moves.movement_plan(w, c, k[2], budget=budget)), None)
    if dest is None:
        return None
    return Move(dest, double=budget > 1)


def helpless_against(c: Creature, swarm: Creature) -> bool:
    """Nothing ``c`` carries can hurt this swarm (weapon-immune, and no torch, splash or spell)."""
    if swarm.block.swarm is None or swarm.block.swarm.weapon_damage != "immune":
        return False
    if c.torch_lit or c.items.get("torch", 0) > 0 or throwable_items(c):
        return False
    if any(n > 0 and gear(i).is_lantern for i, n in c.items.items() if i in gear_table()):
        return False  # an unlit lantern: it can be lit and thrown (RULES §3.5)
    if any(a.extra_damage for a in c.block.attacks):
        return False
    if c.block.spells is not None:
        if has_spell(c, "burning-hands") is not None:
            return False
    return True
