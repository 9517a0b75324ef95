"""Ranged attackers and casters (sim.engine.ai.decide): step or withdraw out of reach, then cast
the best offensive spell (area spells, hold, web, cloud, glitterdust, grease, burning hands, sleep,
magic missile) or shoot (loading and drawing first, RULES §3.3); with the move action left, load
again or walk to a firing spot out of every foe's reach."""

from __future__ import annotations

import numpy as np

from sim.base.coords import Pos
from sim.engine import attack_actions, attacks
from sim.engine.actions import Cast, Draw, FiveFootStep, Load, Move, Turn, Withdraw
from sim.engine.ai import archery as ai_archery
from sim.engine.ai.estimates import distance_within, expected_damage
from sim.engine.ai.spells import (
    area_spell,
    cloud_group,
    glitter_group,
    grease_brute,
    hold_target,
    web_choke,
)
from sim.engine.attack_actions import load_action
from sim.engine.casting import has_spell, range_ft, spell_data
from sim.engine.creature import Creature
from sim.engine.damage import swarm_area_factor
from sim.engine.spells import burst_area, cone_origins, cone_squares
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.terrain.geometry import footprint_distance_ft, threatened
from sim.terrain.movement.field import BLOCKED
from sim.terrain.vision import SEES


def keep_at_range(w: World, c: Creature, t: Turn, foes: list[Creature]):
    threatened_by = [f for f in foes if set(c.squares) & attacks.threatens(w, f)]
    ranged = [a for a in c.ranged_options() if not a.thrown]
    if threatened_by:
        if not t.moved and not t.stepped:
            step = _safe_step(w, c, foes)
            if step is not None:
                return FiveFootStep(step)
        if t.full_move:
            spot = _firing_spot(w, c, foes, max_actions=2)
            if spot is not None and spot != c.pos:
                return Withdraw(spot)
        return None  # fall back to melee
    if t.standard:
        spell = _offensive_spell(w, c, foes)
        if spell is not None:
            return spell
        best = None
        for a in ranged:
            for f in foes:
                if f.is_swarm and f.block.swarm and f.block.swarm.weapon_damage == "immune":
                    continue
                v = expected_damage(w, c, a, f)
                if v > 0 and (best is None or v > best[0]):
                    best = (v, a, f)
        if best is not None:
            la = load_action(best[1])
            if best[1].name in c.unloaded:
                # load first (RULES §3.3): a move action, then shoot; a heavy crossbow takes the round
                if la == "move" and (t.move or t.full_round):
                    return Load(best[1].name)
                if la == "full_round" and t.full_round:
                    return Load(best[1].name)
            elif attack_actions.needs_draw(c, best[1]):
                # a crossbow, sling or bow is drawn before it fires (SRD: a move action)
                if t.move:
                    return Draw(best[1].name)
            else:
                return ai_archery.volley(w, c, t, best[1], best[2])  # one shot, a full attack, Rapid Shot, Manyshot
    elif t.move and not t.moved and not t.stepped:
        # shot already: load again with the move action left, ready for the next round
        empty = [a for a in ranged if a.name in c.unloaded and load_action(a) == "move"]
        if empty:
            return Load(empty[0].name)
    if t.move and not t.moved and not t.stepped:
        spot = _firing_spot(w, c, foes, max_actions=1)
        if spot is not None and spot != c.pos:
            return Move(spot)
    return None


def _offensive_spell(w: World, c: Creature, foes: list[Creature]):
    if c.block.spells is None:
        return None
    allies = w.allies(c)
    ally_sq = {s for a in allies for s in a.squares}
    big = (area_spell(w, c, foes) or hold_target(w, c, foes) or web_choke(w, c, foes)  # §8; web §8.3
           or cloud_group(w, c, foes) or glitter_group(w, c, foes) or grease_brute(w, c, foes))  # §8.4, §8.2, §8.1
    if big is not None:
        return big
    if has_spell(c, "burning-hands") is not None:
        best = None
        for d in EIGHT:
            for o in cone_origins(c, d):
                area = set(cone_squares(w, c, d, o))
                if area & ally_sq:
                    continue
                hits = [f for f in foes if set(f.squares) & area]
                score = sum(swarm_area_factor() if f.is_swarm else 1.0 for f in hits)
                if hits and (best is None or score > best[0]):
                    best = (score, d, o)
        if best is not None and (best[0] >= 1.5 or any(f.is_swarm for f in foes)):
            return Cast("burning-hands", direction=best[1], at=best[2])
    if has_spell(c, "sleep") is not None:
        sleep = spell_data()["sleep"]
        cands = [f for f in foes if f.block.hit_dice <= int(sleep["max_hd_each"]) and not (f.is_swarm and f.mindless)
                 and f.block.type not in sleep["immune_types"]]
        if len(cands) >= 2:
            best = None
            for f in cands:
                corner = (f.pos[0], f.pos[1])
                area = set(burst_area(w, corner, int(sleep["radius_ft"])))  # the area the spell fills (rock stops it)
                if area & ally_sq or area & set(c.squares):
                    continue
                if footprint_distance_ft(c.squares, f.squares) > range_ft(c, sleep["range"]):
                    continue
                n = sum(1 for g in cands if set(g.squares) & area)
                if n >= 2 and (best is None or n > best[0]):
                    best = (n, corner)
            if best is not None:
                return Cast("sleep", at=best[1])
    if has_spell(c, "magic-missile") is not None:
        cands = [f for f in foes if not f.is_swarm and w.line_of_effect(c.squares, f.squares)
                 and footprint_distance_ft(c.squares, f.squares) <= range_ft(c, spell_data()["magic-missile"]["range"])
                 and w.perception(c, f) >= SEES]  # it must see its target (RULES §8)
        if cands:
            target = min(cands, key=lambda f: (f.hp, f.id))
            return Cast("magic-missile", target=target.id)
    return None


EIGHT = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _safe_step(w: World, c: Creature, foes: list[Creature]) -> Pos | None:
    f = w.field(c)
    _, no_end = w.occupancy_masks(c)
    threat = set()
    for o in foes:
        threat |= attacks.threatens(w, o)
    here = attacks.standing_category(w, c)
    if not effects(here).five_foot_step:
        return None
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            p = (c.pos[0] + dx, c.pos[1] + dy)
            if p == c.pos or not w.grid.in_bounds(p) or f.mode[p[1], p[0]] == BLOCKED or no_end[p[1], p[0]]:
                continue
            if f.mult[p[1], p[0]] != 1 or f.category[p[1], p[0]] != Category.CLEAR:
                continue
            if p in threat:
                continue
            if dx and dy and (f.corner[c.pos[1], p[0]] or f.corner[p[1], c.pos[0]]):
                continue
            return p
    return None


def _firing_spot(w: World, c: Creature, foes: list[Creature], *, max_actions: int) -> Pos | None:
    """A reachable square with line of effect to a foe, out of every foe's reach, near."""
    win = distance_within(w, c, max_actions)   # only the squares within max_actions count
    d, (ox, oy) = win.times, win.origin
    ok = d.reachable() & (d.actions <= max_actions)
    ys, xs = np.nonzero(ok)
    threat = set()
    for o in foes:
        threat |= threatened(o.squares, max(5, o.reach_ft()) + 5)
    best = None
    _, no_end = w.occupancy_masks(c)
    # the squares by time to get there (row-major within one time): once a square qualifies, the
    # slower ones cannot beat it, so their lines of effect are never traced
    order = sorted(zip(d.actions[ys, xs].tolist(), (xs + ox).tolist(), (ys + oy).tolist()), key=lambda t: t[0])
    for actions, x, y in order:
        if best is not None and actions > best[0][0]:
            break
        if (x, y) in threat or no_end[y, x]:
            continue
        if Category(int(w.field(c).category[y, x])) is not Category.CLEAR:
            continue
        seen = [o for o in foes if footprint_distance_ft([(x, y)], o.squares) <= 60
                and w.line_of_effect([(x, y)], o.squares)]
        if not seen:
            continue
        key = (actions, min(footprint_distance_ft([(x, y)], o.squares) for o in seen))
        if best is None or key < best[0]:
            best = (key, (x, y))
    return best[1] if best else None


