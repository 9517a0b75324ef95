"""Tactics a player would call sensible: policies ``(world, creature, turn) -> action``.

The engine asks the policy for one action at a time until it returns ``None`` (end of turn);
the policy decides from the state only (it never bends a rule: an illegal choice is refused by
the engine like a player's). This module is the policy's entry and its order of questions; each
concern has its module in :mod:`sim.engine.ai`:

* **the mechanics' tactics** (:mod:`sim.engine.ai.registry`): swallowed, confused, a roper's
  strands, webs first; spell-like abilities and keeping to the dark once it knows which foes it
  perceives; a grapple before the usual choice;
* **melee** (:mod:`.melee`, :mod:`.closing`): close on the enemy it can reach soonest (travel
  time, not distance), choosing among the squares it could attack from those where it fights
  without penalty (Clear first); swap to a weapon that works where it stands (a dagger in a
  fissure); charge when the lane is clear; full attack when it need not move; hold a clear square
  at the mouth of a chokepoint and let an enemy who must squeeze through it come out, rather than
  crawl in to meet it, throwing its javelins while it waits;
* **ranged and casters** (:mod:`.ranged`, :mod:`.support`): keep at range (step or withdraw out
  of reach), shoot or cast, load a crossbow with the move action left; magic missile the wounded,
  sleep groups of weak foes, burning hands on clusters and swarms, cure the dying, bless the party;
* **against swarms** (:mod:`.swarms`): light a torch and hit the swarm with it, throw lanterns and
  alchemist's fire where no ally is in the splash, burning hands;
* **swarms** (:mod:`.swarms`): flow to the squares that cover the most enemies and stay on them.
"""

from __future__ import annotations

from sim.engine import attacks, moves
from sim.engine.actions import Delay, Move, Turn
from sim.engine.ai import unseen
from sim.engine.ai.estimates import is_ranged
from sim.engine.ai.melee import melee
from sim.engine.ai.ranged import keep_at_range
from sim.engine.ai.registry import TACTICS, choice, detour
from sim.engine.ai.spells import keep_out, light_up
from sim.engine.ai.stepping import as_step
from sim.engine.ai.support import support
from sim.engine.ai.swarms import (
    against_swarms,
    flee_swarms,
    helpless_against,
    nauseated,
    swarm_policy,
)
from sim.engine.ai.tactic import HELD, IMPOSED, PERCEIVED, Tactic
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision import LOCATES


def default_policy(w: World, c: Creature, t: Turn, tactics: tuple[Tactic, ...] = TACTICS):
    """The default AI's next action for ``c``, or None (:func:`choose`); a one-square move that a
    5-ft step makes without provoking becomes that step (:func:`sim.engine.ai.stepping.as_step`)."""
    return as_step(w, c, t, choose(w, c, t, tactics))


def choose(w: World, c: Creature, t: Turn, tactics: tuple[Tactic, ...] = TACTICS):
    """The default AI's choice for ``c``, or None. The mechanics' ``tactics`` (the AI-side
    registry, :mod:`sim.engine.ai.registry`) are asked phase by phase at their slots: the imposed
    ones first; the perceived ones once its side knows which foes it perceives and has no hunt;
    the held ones (a grapple) after a swarm's and a nauseated creature's choices; then the usual
    policy chooses."""
    if not c.in_fight:
        return None
    foes = [o for o in w.enemies(c) if o.in_fight]
    if not foes:
        return None
    found = choice(w, c, t, foes, melee, tactics, IMPOSED)   # swallowed, confused, a roper's strands, webs
    if found is not None:
        return found.action
    foes, hunt = _perceived(w, c, t, foes)
    if hunt is not None:   # cure, then light when it stands in the dark; a hunt's way (or its wait) weighs armor off
        if not isinstance(hunt, (Move, Delay)):
            return hunt
        safe = t.standard and not any(set(c.squares) & attacks.threatens(w, f) for f in foes)
        return (support(w, c, t, foes) or (light_up(w, c) if safe else None)
                or _detour_for_hunt(w, c, t, foes, hunt) or keep_out(w, c, hunt))   # not into its side's web (§8.3)
    found = choice(w, c, t, foes, melee, tactics, PERCEIVED)   # darkness, faerie fire, invisibility, enlarge (§8.5)
    if found is not None:
        return found.action
    act = unseen.keep_to_the_dark(w, c, t, foes)  # a side that sees in the dark keeps out of the light
    if act is not None:
        return act
    if c.is_swarm:
        return swarm_policy(w, c, t, foes)
    if c.nauseated:
        return nauseated(w, c, t, foes)
    found = choice(w, c, t, foes, melee, tactics, HELD)   # in a grapple: squeeze, strike the grappler, or escape
    if found is not None:
        return found.action
    covering = [f for f in foes if f.is_swarm and set(f.squares) & set(c.squares)]
    if covering and all(helpless_against(c, f) for f in covering) and t.full_move:
        act = flee_swarms(w, c, t, foes, budget=2)
        if act is not None:
            return act
    act = (light_up(w, c) if t.standard and not any(set(c.squares) & attacks.threatens(w, f) for f in foes)
           else None) or support(w, c, t, foes)
    if act is not None:
        return act
    act = against_swarms(w, c, t, foes)
    if act is not None:
        return act
    if is_ranged(c):
        act = keep_at_range(w, c, t, foes)
        if act is not None:
            return act
        return keep_out(w, c, melee(w, c, t, foes))   # not into its own side's web (§8.3)
    return melee(w, c, t, foes)


def _detour_for_hunt(w: World, c: Creature, t: Turn, foes: list[Creature], hunt):
    """The registered detours (armor off, or the walk to the crawlway's mouth, RULES §2.4) on a hunt
    for an unseen foe: toward the hunt's square, or, when it would wait, toward the nearest foe's
    noise."""
    if isinstance(hunt, Move):
        return detour(w, c, t, hunt.to)
    if not isinstance(hunt, Delay):
        return None
    f = min(foes, key=lambda o: (footprint_distance_ft(c.squares, o.squares), o.id))
    near = [(f.pos[0] + dx, f.pos[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    for q in sorted(near, key=lambda q: (footprint_distance_ft(c.squares, [q]), q)):
        if w.grid.in_bounds(q) and not w.grid.rock[q[1], q[0]]:
            act = detour(w, c, t, q)
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
    known = [f for f, level in zip(foes, w.side_perceives_each(c.team, foes)) if level >= LOCATES]
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
    return foes, support(w, c, t, foes) or unseen.toward_noise(w, c, t, foes)  # cure the dying, even in the dark
