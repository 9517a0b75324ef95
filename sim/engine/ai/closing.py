"""Movement toward the foes (sim.engine.ai.decide): close on the enemy it can reach soonest, to a
square where it fights without penalty (Clear first, RULES §2.5); charge when the lane is clear;
hold a clear square at the mouth of a chokepoint or where the enemy must fight constricted, and
throw what it can while it waits; armor off before a crawlway (:mod:`sim.engine.ai.armor`)."""

from __future__ import annotations

import math

import numpy as np

from sim.base.coords import Pos
from sim.engine import attacks, moves
from sim.engine.actions import Charge, Delay, Impossible, Move, Strike, Turn
from sim.engine.ai import constricted as ai_constricted
from sim.engine.ai.estimates import (
    attack_squares,
    best_against,
    distance_field,
    distance_window_for,
    is_ranged,
)
from sim.engine.ai.registry import detour
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.terrain.vision import LOCATES


def reposition(w: World, c: Creature, t: Turn, targets: list[Creature]):
    """Close on the enemy it can reach soonest, to a square where it fights without penalty."""
    if t.stepped or not (t.move or t.standard):
        return None
    att = reachiest(c)
    reach = int((att.reach_ft if att else 0) or c.reach_ft())
    f = w.field(c)
    options = [(target, p) for target in targets for p in attack_squares(w, c, target, reach)]
    # a search in a box round the options first: its best is the whole map's when it beats the
    # box's bound (a way out of the box takes at least that long: no option it missed does better)
    win = distance_window_for(w, c, [p for _, p in options])
    best = None if win is None else _best_option(c, att, f, options, win.actions_at, win.bound)
    if best is None:
        d = distance_field(w, c)
        best = _best_option(c, att, f, options, lambda p: float(d.actions[p[1], p[0]]), math.inf)
        if best is None:
            return approach(w, c, t, targets, d)
    _, target, p, actions = best
    if p == c.pos:
        ai_constricted.note(w, c, choice="idle", reason="in_place")
        return None  # already where it wants to be (its attack is spent, or it waits)
    if (c.id in w.memory.backed_out and att is not None and att.mode == "melee"
            and _penalty_at(c, att, Category(int(f.category[p[1], p[0]]))) >= 6.0
            and ai_constricted.works_in(att, attacks.standing_category(w, c))):
        # it backed out of a space where its weapon does not work, and every square it could attack
        # from is such a space (the foe stays in the tunnel): it does not walk back in, it waits
        # where its weapon works, throwing what it can (issue 31 item 5)
        ai_constricted.note(w, c, choice="idle", reason="waits_where_it_works")
        return _throw_while_waiting(w, c, t, targets) or Delay()
    if not t.full_round and actions > 1 and not (t.move or t.standard):
        return None
    wait = _hold_chokepoint(w, c, t, target, p)
    if wait is not None:
        return wait
    if (t.full_move and actions > 1 and att is not None and att.mode == "melee" and att.name == (c.wielding or att.name)
            and "entangled" not in c.conditions):   # no charging entangled (a web, §8.3)
        ch = moves.charge_square(w, c, target, att)
        if not isinstance(ch, Impossible):
            return Charge(target.id, att.name)
    return _move_or_wait(w, c, t, p, actions)


def _best_option(c: Creature, att, f, options: list, actions_at, bound: float):
    """The (key, target, square, move actions) of the (target, square) option quickest to fight
    from (move actions plus the square's penalty, then the smaller penalty, the weaker target, the
    square), among those ``actions_at`` reaches (not NaN) in fewer move actions than ``bound``;
    None when there is none, or when the best's move actions plus penalty are not below
    ``bound`` (an option past the bound could beat it)."""
    best = None
    for target, p in options:
        actions = actions_at(p)
        if not actions < bound:   # NaN (not reached) or past the bound
            continue
        penalty = _penalty_at(c, att, Category(int(f.category[p[1], p[0]])))
        key = (actions + penalty, penalty, target.hp, p)
        if best is None or key < best[0]:
            best = (key, target, p, actions)
    return best if best is not None and best[0][0] < bound else None


def _move_or_wait(w: World, c: Creature, t: Turn, p: Pos, actions: float):
    """Move toward ``p`` (one move action if that gets there, else a double move), or wait if the
    way is blocked this turn (an ally in the only square to stop in). Armor that must come off
    before a crawlway on the way: the registered detours (:data:`sim.engine.ai.registry.DETOURS`,
    :mod:`sim.engine.ai.armor`) weigh it."""
    act = detour(w, c, t, p)
    if act is not None:
        return act
    double = t.full_move and actions > 1
    if not moves.movement_plan(w, c, p, budget=2 if double else 1):
        ai_constricted.note(w, c, choice="idle", reason="blocked")
        return Delay()
    return Move(p, double=double)


def _penalty_at(c: Creature, att, cat: Category) -> float:
    """How bad fighting in ``cat`` is, in 'move actions' of preference (Clear best)."""
    if att is None or cat is Category.CLEAR:
        return 0.0
    eff = effects(cat)
    idx = att.effective_index if att.kind != "natural" else 1
    mod = eff.melee_mod(idx if idx is not None else 3) if eff.attacks else None
    if mod is None:
        return 6.0
    return 0.5 + abs(mod) / 4 + (0.5 if eff.loses_dex else 0)


def approach(w: World, c: Creature, t: Turn, targets: list[Creature], d):
    """No attack square is reachable: go to the free reachable square nearest the nearest enemy
    (or wait, if nothing gets it closer)."""
    _, no_end = w.occupancy_masks(c)
    reach_mask = d.reachable() & ~no_end
    if not reach_mask.any():
        return None
    ys, xs = np.nonzero(reach_mask)
    best = None
    here = min(max(abs(c.pos[0] - t_.pos[0]), abs(c.pos[1] - t_.pos[1])) for t_ in targets)
    for target in targets:
        tx, ty = target.pos
        dist = np.maximum(np.abs(xs - tx), np.abs(ys - ty))
        i = int(np.argmin(dist + d.actions[ys, xs] * 0.01))
        cand = (int(dist[i]), (int(xs[i]), int(ys[i])))
        if best is None or cand < best:
            best = cand
    if best is None or best[1] == c.pos or best[0] >= here:
        return None
    return _move_or_wait(w, c, t, best[1], float(d.actions[best[1][1], best[1][0]]))


def _hold_chokepoint(w: World, c: Creature, t: Turn, target: Creature, dest: Pos):
    """Wait at the mouth of a chokepoint for an enemy that must squeeze through it (issue: 'wait at
    a chokepoint'): if reaching ``dest`` needs crawling or Escape Artist (for us), and the enemy is
    a walker coming our way, hold a clear square instead of crawling in to meet it."""
    if target.is_swarm or c.is_swarm:
        return None
    here = attacks.standing_category(w, c)
    if here is not Category.CLEAR:
        return None
    blocked, _ = w.occupancy_masks(c)
    blocked[c.pos[1], c.pos[0]] = False
    path = moves.search_path(w, c, w.field(c), dest, blocked)  # the search the move itself will ask for
    if not path.reachable:
        return None
    hard = [s for s in path.steps if Category[s.category] >= Category.CRAWL]
    if not hard:
        return None
    held = w.memory.held_rounds.setdefault(c.id, set())
    if len(held) >= 3 and w.round not in held:  # patience: after three rounds of waiting, go in
        return None
    held.add(w.round)
    # step to the last clear square before the chokepoint, if not there yet
    first_hard = path.steps.index(hard[0])
    mouth = path.steps[first_hard - 1].at if first_hard > 0 else c.pos
    mouth = tuple(mouth)
    if mouth != c.pos and (t.move or t.standard) and moves.movement_plan(w, c, mouth, budget=1):
        return Move(mouth)
    ai_constricted.note(w, c, choice="idle", reason="holds_chokepoint")
    return _throw_while_waiting(w, c, t, [o for o in w.enemies(c) if o.in_fight
                                          and w.side_perceives(c.team, o) >= LOCATES]) or Delay()


def hold_ground(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """Fight where the ground favours you: if ``c`` stands where it fights without penalty and every
    square from which the nearest walking enemy could reach it is constricted for that enemy
    (a kobold in a lair where humans must crawl), wait for the enemy to come in (patience:
    ten rounds, so a fight cannot stall forever)."""
    if c.is_swarm or t.moved or attacks.standing_category(w, c) is not Category.CLEAR:
        return None
    walkers = [f for f in foes if not f.is_swarm and f.in_fight and not is_ranged(f)]
    if not walkers:
        return None
    held = w.memory.held_ground.setdefault(c.id, set())
    if len(held) >= 10 and w.round not in held:
        return None
    rows, cols = w.grid.shape
    for f in walkers:
        cats = w.categories(f)
        reach = max(5, f.reach_ft())
        ring = [(x + dx, y + dy) for (x, y) in c.squares for dx in range(-1, 2) for dy in range(-1, 2)
                if reach <= 5]
        ring = [q for q in ring if 0 <= q[0] < cols and 0 <= q[1] < rows and not w.grid.rock[q[1], q[0]]
                and q not in c.squares]
        if not ring:
            continue
        if all(Category(int(cats[y, x])) >= Category.NARROW_OR_LOW for x, y in ring):
            held.add(w.round)
            ai_constricted.note(w, c, choice="idle", reason="holds_ground")
            return _throw_while_waiting(w, c, t, foes) or Delay()
    return None


def _throw_while_waiting(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """Holding ground is no reason to stand idle: throw a javelin (or a dagger it keeps another
    weapon for) at the enemy it expects to hurt most, if any is in range and not threatening it
    (a ranged attack there would provoke). The weapon in hand stays in hand."""
    if not t.standard or c.is_swarm:
        return None
    if any(set(c.squares) & attacks.threatens(w, f) for f in foes):
        return None
    options = []
    for a in c.block.attacks:
        if not (a.thrown and a.mode == "ranged") or a.weapon is None or a.name == c.wielding:
            continue
        if c.wielding is not None and c.wielded() is not None and c.wielded().weapon is not None \
                and c.wielded().weapon.key == a.weapon.key:
            continue  # never throw the weapon it fights with
        if not _keep_for_the_crawlway(w, c, a, foes):
            options.append(a)
    best = best_against(w, c, options, foes)
    if best is None:
        return None
    return Strike(best[2].id, best[1].name)


def _keep_for_the_crawlway(w: World, c: Creature, a, foes: list[Creature]) -> bool:
    """Keep the last light weapon (a dagger) when the enemy waits where ``c`` would fight
    constricted (narrow or low, a crawlway, awkward space): there a light weapon beats a
    longsword (RULES §2.5 weapon rows: a dagger -4 where a longsword is -8 in a crawlway)."""
    if a.weapon is None or a.weapon.category != "light" or c.thrown_left.get(a.weapon.key, 0) > 1:
        return False
    cats = w.categories(c)
    return any(Category.NARROW_OR_LOW <= Category(int(cats[y, x])) <= Category.AWKWARD
               for f in foes if not f.is_swarm for x, y in f.squares)


def reachiest(c: Creature):
    return c.wielded() if (c.wielded() and c.wielded().mode == "melee") else attacks.first_melee(c)
