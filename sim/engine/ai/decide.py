"""Tactics a player would call sensible: policies ``(world, creature, turn) -> action``.

The engine asks the policy for one action at a time until it returns ``None`` (end of turn);
the policy decides from the state only (it never bends a rule: an illegal choice is refused by
the engine like a player's). What the default policy does:

* **melee**: close on the enemy it can reach soonest (travel time, not distance), choosing among
  the squares it could attack from those where it fights without penalty (Clear first); swap to
  a weapon that works where it stands (a dagger in a fissure); charge when the lane is clear;
  full attack when it need not move; hold a clear square at the mouth of a chokepoint and let an
  enemy who must squeeze through it come out, rather than crawl in to meet it, throwing its
  javelins while it waits;
* **ranged and casters**: keep at range (step or withdraw out of reach), shoot or cast, load a
  crossbow with the move action left; magic
  missile the wounded, sleep groups of weak foes, burning hands on clusters and swarms, cure the
  dying, bless the party;
* **against swarms**: light a torch and hit the swarm with it, throw lanterns and alchemist's
  fire where no ally is in the splash, burning hands;
* **swarms**: flow to the squares that cover the most enemies and stay on them.
"""

from __future__ import annotations

import numpy as np

from sim.base.coords import Pos
from sim.engine import attack_actions, attacks, moves
from sim.engine.actions import (
    Cast,
    Charge,
    Delay,
    Draw,
    DropLight,
    FiveFootStep,
    FullAttack,
    Impossible,
    LightTorch,
    Load,
    Move,
    Rage,
    StandUp,
    Strike,
    Throw,
    Turn,
    Withdraw,
)
from sim.engine.ai import archery as ai_archery
from sim.engine.ai import constricted as ai_constricted
from sim.engine.ai import maneuvers as ai_maneuvers
from sim.engine.ai import unseen
from sim.engine.ai.armor import armor_first
from sim.engine.ai.estimates import (
    attack_squares,
    best_against,
    best_melee,
    distance_field,
    expected_damage,
    hit_chance,
    is_ranged,
    needs_both_hands,
    reaches,
    usable_now,
)
from sim.engine.ai.grapple import grapple_tactic
from sim.engine.ai.registry import TACTICS, first_choice
from sim.engine.ai.spell_like import innate_tactic
from sim.engine.ai.spells import (
    area_spell,
    cloud_group,
    delay_poison,
    glitter_group,
    grease_brute,
    hold_target,
    keep_out,
    leave_cloud,
    light_up,
    web_choke,
)
from sim.engine.ai.tactic import Tactic
from sim.engine.attack_actions import load_action
from sim.engine.casting import has_spell, range_ft, spell_data
from sim.engine.creature import Creature
from sim.engine.damage import swarm_area_factor
from sim.engine.effects import lasting
from sim.engine.items import splash_area, splash_modifiers, throwable_items
from sim.engine.rage import can_rage
from sim.engine.spells import burst_area, cone_origins, cone_squares
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.rules.weapons import combat_modifier, gear, gear_table, splash_weapon
from sim.terrain.geometry import footprint_distance_ft, line_of_effect, threatened
from sim.terrain.movement.field import BLOCKED
from sim.terrain.vision import LOCATES, SEES


def default_policy(w: World, c: Creature, t: Turn, tactics: tuple[Tactic, ...] = TACTICS):
    """The default AI's next action for ``c``, or None. The mechanics' ``tactics`` (the AI-side
    registry, :mod:`sim.engine.ai.registry`) are asked first; then the usual policy chooses."""
    if not c.in_fight:
        return None
    foes = [o for o in w.enemies(c) if o.in_fight]
    if not foes:
        return None
    act = first_choice(w, c, t, foes, _melee, tactics)   # swallowed, confused, a roper's strands, webs
    if act is not None:
        return act
    foes, hunt = _perceived(w, c, t, foes)
    if hunt is not None:   # cure, then light when it stands in the dark; a hunt's way (or its wait) weighs armor off
        if not isinstance(hunt, (Move, Delay)):
            return hunt
        safe = t.standard and not any(set(c.squares) & attacks.threatens(w, f) for f in foes)
        return (_support(w, c, t, foes) or (light_up(w, c) if safe else None)
                or _armor_for_hunt(w, c, t, foes, hunt) or keep_out(w, c, hunt))   # not into its side's web (§8.3)
    act = innate_tactic(w, c, t, foes)            # darkness, faerie fire, invisibility, enlarge (§8.5)
    if act is not None:
        return act
    act = unseen.keep_to_the_dark(w, c, t, foes)  # a side that sees in the dark keeps out of the light
    if act is not None:
        return act
    if c.is_swarm:
        return swarm_policy(w, c, t, foes)
    if c.nauseated:
        return _nauseated(w, c, t, foes)
    if c.grappling:   # squeeze, strike the grappler, or escape (sim.engine.ai.grapple)
        return grapple_tactic(w, c, t)
    covering = [f for f in foes if f.is_swarm and set(f.squares) & set(c.squares)]
    if covering and all(_helpless_against(c, f) for f in covering) and t.full_move:
        act = _flee_swarms(w, c, t, foes, budget=2)
        if act is not None:
            return act
    act = (light_up(w, c) if t.standard and not any(set(c.squares) & attacks.threatens(w, f) for f in foes)
           else None) or _support(w, c, t, foes)
    if act is not None:
        return act
    act = _against_swarms(w, c, t, foes)
    if act is not None:
        return act
    if is_ranged(c):
        act = _ranged(w, c, t, foes)
        if act is not None:
            return act
        return keep_out(w, c, _melee(w, c, t, foes))   # not into its own side's web (§8.3)
    return _melee(w, c, t, foes)


# =================================================================================================
# Helpers
# =================================================================================================


def _armor_for_hunt(w: World, c: Creature, t: Turn, foes: list[Creature], hunt):
    """Armor off (or the walk to the crawlway's mouth) on a hunt for an unseen foe: toward the
    hunt's square, or, when it would wait, toward the nearest foe's noise (RULES §2.4)."""
    if isinstance(hunt, Move):
        return armor_first(w, c, t, hunt.to)
    if not isinstance(hunt, Delay):
        return None
    f = min(foes, key=lambda o: (footprint_distance_ft(c.squares, o.squares), o.id))
    near = [(f.pos[0] + dx, f.pos[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    for q in sorted(near, key=lambda q: (footprint_distance_ft(c.squares, [q]), q)):
        if w.grid.in_bounds(q) and not w.grid.rock[q[1], q[0]]:
            act = armor_first(w, c, t, q)
            if act is not None:
                return act
    return None


def _perceived(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """The foes ``c``'s side perceives (sees or pinpoints, RULES §9.3), and where the side last saw
    each (kept in the fight's memory). When it perceives none (:mod:`sim.engine.ai.unseen`): attack a
    square it has a clue to (the last seen square, where an attack came from), else go to the
    square where one was last seen (and forget it there), else toward the noise of the fight
    (Listen checks are not modelled; a swarm flows at the foes all the same). Returns (foes, an
    action or None)."""
    if not w.vision_on:
        return foes, None
    memory = w.memory.last_seen.setdefault(c.team, {})
    known = [f for f in foes if w.side_perceives(c.team, f) >= LOCATES]
    for f in known:
        memory[f.id] = tuple(f.pos)
    if known or c.is_swarm or c.nauseated:
        return (known or foes), None
    act = unseen.guess(w, c, t, foes)
    if act is not None:
        return foes, act
    ids = {f.id for f in foes}
    here = set(c.squares)
    for fid, p in list(memory.items()):
        if p in here:
            del memory[fid]  # it is not where it was seen
    spots = [(p, fid) for fid, p in memory.items() if fid in ids]
    if spots and t.move:
        p = min(spots, key=lambda s: footprint_distance_ft(c.squares, [s[0]]))[0]
        near = sorted(((p[0] + dx, p[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)),
                      key=lambda q: (q != p, footprint_distance_ft(c.squares, [q])))
        budget = 2 if t.full_move and t.needs(c, full=True) is None else 1
        for q in near:
            if w.grid.in_bounds(q) and not w.grid.rock[q[1], q[0]] and moves.movement_plan(w, c, q, budget=budget):
                return foes, Move(q, double=budget == 2)
    return foes, _support(w, c, t, foes) or unseen.toward_noise(w, c, t, foes)  # cure the dying, even in the dark


# =================================================================================================
# Melee
# =================================================================================================


def _melee(w: World, c: Creature, t: Turn, foes: list[Creature]):
    if c.prone and t.move and not w.field(c).prone[c.pos[1], c.pos[0]] and not t.moved:
        return StandUp()
    targets = [f for f in foes if not (f.is_swarm and _immune_to_me(c, f))] or foes
    if can_rage(c) is None and any(footprint_distance_ft(c.squares, f.squares) <= 2 * c.speed_ft_value() + c.reach_ft()
                                   for f in targets):
        return Rage()      # a melee is about to start: rage first (a free action, SRD Barbarian)
    # attack from here if something is in reach
    in_reach = [f for f in targets if reaches(w, c, f, _reachiest(c))]
    if in_reach and t.standard:
        target = min(in_reach, key=lambda f: (f.hp, f.id))
        best, value = best_melee(w, c, target)
        cur = c.wielded()
        if best is not None and cur is not None and best.name != cur.name and best.kind == "weapon":
            cur_v = expected_damage(w, c, cur, target) if cur.mode == "melee" else 0.0
            if value > cur_v + 0.25 and t.move:
                return Draw(best.name)
        if best is None or value <= 0:
            if cur is not None and cur.mode == "melee" and usable_now(w, c, cur, target):
                best = cur
            else:
                weapon = cur if (cur is not None and cur.mode == "melee") else attacks.first_melee(c)
                if weapon is not None and not ai_constricted.works_in(weapon, attacks.standing_category(w, c)):
                    # its weapon does not work here (a greatclub in a low tunnel): throw, back out or wait
                    return ai_constricted.instead(w, c, t, targets, weapon, target)
                return _reposition(w, c, t, targets)
        if best.kind == "weapon" and best.name != c.wielding:
            if t.move:
                return Draw(best.name)
            return None
        if (c.torch_lit or (c.light and gear(c.light).hands)) and needs_both_hands(c, best):
            return DropLight()  # a free action: the light keeps shining from the floor
        full = t.full_round and _full_attack_worth(c, best)
        trip = ai_maneuvers.maneuver_if_it_pays(w, c, t, target, value * (len(best.bonuses) if full else 1))
        if trip is not None:  # a trip or a bull rush, when it pays (sim.engine.ai.maneuvers)
            return trip
        return FullAttack(target.id, best.name) if full else Strike(target.id, best.name)
    if not t.standard and not t.move:
        return None
    hold = _hold_ground(w, c, t, targets)
    if hold is not None:
        return hold
    return _reposition(w, c, t, targets)


def _hold_ground(w: World, c: Creature, t: Turn, foes: list[Creature]):
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


def _keep_for_the_crawlway(w: World, c: Creature, a, foes: list[Creature]) -> bool:
    """Keep the last light weapon (a dagger) when the enemy waits where ``c`` would fight
    constricted (narrow or low, a crawlway, awkward space): there a light weapon beats a
    longsword (RULES §2.5 weapon rows: a dagger -4 where a longsword is -8 in a crawlway)."""
    if a.weapon is None or a.weapon.category != "light" or c.thrown_left.get(a.weapon.key, 0) > 1:
        return False
    cats = w.categories(c)
    return any(Category.NARROW_OR_LOW <= Category(int(cats[y, x])) <= Category.AWKWARD
               for f in foes if not f.is_swarm for x, y in f.squares)


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


def _reachiest(c: Creature):
    return c.wielded() if (c.wielded() and c.wielded().mode == "melee") else attacks.first_melee(c)


def _immune_to_me(c: Creature, swarm: Creature) -> bool:
    """A Fine/Diminutive swarm shrugs off weapons: only fire, energy or area effects hurt it."""
    if swarm.block.swarm is None or swarm.block.swarm.weapon_damage != "immune":
        return False
    return not (c.torch_lit or c.items.get("torch", 0) > 0)


def _full_attack_worth(c: Creature, att) -> bool:
    if att.kind == "natural":
        return len(c.block.full_attacks) > 0 and sum(len(r) for r in c.block.full_attacks) > 1
    return len(att.bonuses) > 1


def _reposition(w: World, c: Creature, t: Turn, targets: list[Creature]):
    """Close on the enemy it can reach soonest, to a square where it fights without penalty."""
    if t.stepped or not (t.move or t.standard):
        return None
    d = distance_field(w, c)
    att = _reachiest(c)
    reach = int((att.reach_ft if att else 0) or c.reach_ft())
    f = w.field(c)
    best = None
    reachable = d.reachable()
    for target in targets:
        for p in attack_squares(w, c, target, reach):
            if not reachable[p[1], p[0]]:
                continue
            actions = float(d.actions[p[1], p[0]])
            cat = Category(int(f.category[p[1], p[0]]))
            penalty = _penalty_at(c, att, cat)
            key = (actions + penalty, penalty, target.hp, p)
            if best is None or key < best[0]:
                best = (key, target, p, actions)
    if best is None:
        return _approach(w, c, t, targets, d)
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


def _move_or_wait(w: World, c: Creature, t: Turn, p: Pos, actions: float):
    """Move toward ``p`` (one move action if that gets there, else a double move), or wait if the
    way is blocked this turn (an ally in the only square to stop in). Armor that must come off
    before a crawlway on the way: :func:`sim.engine.ai.armor.armor_first` weighs it."""
    act = armor_first(w, c, t, p)
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


def _approach(w: World, c: Creature, t: Turn, targets: list[Creature], d):
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


# =================================================================================================
# Ranged and casters
# =================================================================================================


def _ranged(w: World, c: Creature, t: Turn, foes: list[Creature]):
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


def _line_of_effect(w: World, sq: Pos, squares) -> bool:
    """``line_of_effect`` from one square to a footprint, remembered for the fight (rock is fixed)."""
    key = (sq, tuple(squares))
    hit = w.cache.lines.get(key)
    if hit is None:
        hit = w.cache.lines.put(key, line_of_effect(w.grid.rock, [sq], squares))
    return hit


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
    d = distance_field(w, c)
    ok = d.reachable() & (d.actions <= max_actions)
    ys, xs = np.nonzero(ok)
    threat = set()
    for o in foes:
        threat |= threatened(o.squares, max(5, o.reach_ft()) + 5)
    best = None
    _, no_end = w.occupancy_masks(c)
    # the squares by time to get there (row-major within one time): once a square qualifies, the
    # slower ones cannot beat it, so their lines of effect are never traced
    order = sorted(zip(d.actions[ys, xs].tolist(), xs.tolist(), ys.tolist()), key=lambda t: t[0])
    for actions, x, y in order:
        if best is not None and actions > best[0][0]:
            break
        if (x, y) in threat or no_end[y, x]:
            continue
        if Category(int(w.field(c).category[y, x])) is not Category.CLEAR:
            continue
        seen = [o for o in foes if footprint_distance_ft([(x, y)], o.squares) <= 60
                and _line_of_effect(w, (x, y), o.squares)]
        if not seen:
            continue
        key = (float(d.actions[y, x]), min(footprint_distance_ft([(x, y)], o.squares) for o in seen))
        if best is None or key < best[0]:
            best = (key, (x, y))
    return best[1] if best else None


_EIGHT = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


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
        for d in _EIGHT:
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
        cands = [f for f in foes if not f.is_swarm and line_of_effect(w.grid.rock, c.squares, f.squares)
                 and footprint_distance_ft(c.squares, f.squares) <= range_ft(c, spell_data()["magic-missile"]["range"])
                 and w.perception(c, f) >= SEES]  # it must see its target (RULES §8)
        if cands:
            target = min(cands, key=lambda f: (f.hp, f.id))
            return Cast("magic-missile", target=target.id)
    return None


def _support(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """Healing and buffs (clerics)."""
    if c.block.spells is None or not t.standard:
        return None
    cure = next((s for s in ("cure-moderate-wounds", "cure-light-wounds") if has_spell(c, s) is not None), None)
    if cure is not None:
        hurt = [a for a in w.allies(c) + [c] if a.alive and a.hp < a.max_hp * 0.4 and not a.is_swarm]
        hurt.sort(key=lambda a: (a.hp, a.id))
        for a in hurt:
            if footprint_distance_ft(c.squares, a.squares) <= 5:
                return Cast(cure, target=a.id)
        hurt = [a for a in hurt if a is not c]
        if hurt and t.move and not t.moved and not t.stepped:
            d = distance_field(w, c)
            dest = attack_squares(w, c, hurt[0], 5)
            dest = [p for p in dest if d.reachable()[p[1], p[0]] and d.actions[p[1], p[0]] <= 1]
            if dest:
                return Move(min(dest, key=lambda p: float(d.actions[p[1], p[0]])))
    if not any(set(c.squares) & attacks.threatens(w, f) for f in foes):  # casting provokes
        hold = hold_target(w, c, foes) or delay_poison(w, c, foes)   # §8; delay poison §8.6
        if hold is not None:
            return hold
    if has_spell(c, "bless") is not None and not lasting(c, "blessed", w.round):
        near = [a for a in w.allies(c) if footprint_distance_ft(c.squares, a.squares) <= int(spell_data()["bless"]["radius_ft"])]
        if len(near) >= 2 and all(footprint_distance_ft(c.squares, f.squares) > 10 for f in foes):
            return Cast("bless")
    return None


# =================================================================================================
# Against swarms
# =================================================================================================


def _against_swarms(w: World, c: Creature, t: Turn, foes: list[Creature]):
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
        for d in _EIGHT:
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
            if inc > 3 or not line_of_effect(w.grid.rock, c.squares, s.squares):
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
                    if not (four & set(s.squares)) or not line_of_effect(w.grid.rock, c.squares, sorted(four)):
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


# =================================================================================================
# Nauseated, swarms
# =================================================================================================


def _nauseated(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """One move action: get out of the swarm, or the stinking cloud, if it can (RULES §5.2)."""
    if not (t.move or t.standard) or t.moved or t.stepped:
        return None
    return _flee_swarms(w, c, t, foes, budget=1) or leave_cloud(w, c)   # out of a stinking cloud (§8.4)


def _flee_swarms(w: World, c: Creature, t: Turn, foes: list[Creature], *, budget: int):
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


def _helpless_against(c: Creature, swarm: Creature) -> bool:
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
        act = _approach(w, c, t, targets, d)
        return act
    if len(covered) >= -best[0][0] and covered:
        return None  # already covering as many as it could: stay
    dest = best[1]
    if dest == c.pos:
        return None
    if float(d.actions[dest[1], dest[0]]) <= 1:
        return Move(dest)
    return Move(dest, double=t.full_move)
