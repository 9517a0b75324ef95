"""What the default AI does with the bestiary's abilities (README "The bestiary"): a confused
creature follows its d% roll (:func:`sim.engine.specials.confusion_behaviour`), an entangled one
breaks free, a web-spinner throws its web at the nearest foe it can hold before it bites.

:data:`SPECIALS` and :data:`WEB_THROW` are tactics (:mod:`sim.engine.ai.tactic`), asked first by
:func:`sim.engine.ai.decide.default_policy` in the order of :data:`sim.engine.ai.registry.TACTICS`;
the policy's melee routine is passed in (``melee``), so this module does not import the policy.
"""

from __future__ import annotations

from sim.engine import attacks, moves, specials
from sim.engine.actions import Delay, Move, Strike, Turn
from sim.engine.ai.tactic import Melee, Tactic
from sim.engine.creature import Creature
from sim.engine.effects import find
from sim.engine.world import World
from sim.terrain.geometry import footprint_distance_ft

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def imposed(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee):
    """The action confusion or a web imposes now, or None (the usual policy)."""
    conf = specials.confusion_of(w, c)
    if conf is not None:
        behaviour, caster = conf
        if behaviour != "act_normally":
            return confused_action(w, c, t, behaviour, caster, melee)
    if specials.entangled(w, c) is not None and t.standard:
        in_web = find(c, "in_web")   # the web spell: a stuck creature breaks loose in a full
        if not in_web or (find(c, "web_stuck") and t.full_round):   # round; a loose one walks
            return specials.BreakFree()
    return None


def confused_action(w: World, c: Creature, t: Turn, behaviour: str, caster: Creature | None, melee: Melee):
    """The confusion table's behaviour as an action: attack the caster (close with it), babble
    (nothing), flee from the caster, attack the nearest creature (friend or foe); attack the one
    that attacked it. One that cannot do what the roll says babbles (SRD confusion)."""
    if behaviour == "babble":
        return Delay()
    if behaviour in ("attack_caster", "attack_attacker"):
        if caster is None or not caster.in_fight:
            return Delay()
        return melee(w, c, t, [caster]) or Delay()
    if behaviour == "attack_nearest":
        others = [o for o in w.creatures.values() if o is not c and o.in_fight]
        if not others:
            return Delay()
        near = min(others, key=lambda o: (footprint_distance_ft(c.squares, o.squares), o.id))
        return melee(w, c, t, [near]) or Delay()
    if behaviour == "flee":
        return flee_from(w, c, t, caster) or Delay()
    return Delay()


def flee_from(w: World, c: Creature, t: Turn, away: Creature | None):
    """A move (double when it can) to the reachable square farthest from ``away``."""
    if away is None or not t.move:
        return None
    budget = 2 if t.full_move else 1
    reach = max(1, c.speed_ft_value() * budget // 5)
    best = None
    for dx, dy in _DIRECTIONS:
        for n in range(reach, 0, -max(1, reach // 3)):
            q = (c.pos[0] + dx * n, c.pos[1] + dy * n)
            if not w.grid.in_bounds(q) or w.grid.rock[q[1], q[0]]:
                continue
            if not moves.movement_plan(w, c, q, budget=budget):
                continue
            d = footprint_distance_ft([q], away.squares)
            if best is None or d > best[0]:
                best = (d, q)
            break
    if best is None or best[0] <= footprint_distance_ft(c.squares, away.squares):
        return None
    return Move(best[1], double=budget == 2)


def web_throw(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """A web-spinner with webs left throws one at the nearest foe it can hold (not entangled, at
    most one size larger), when no foe threatens it (a ranged attack would provoke)."""
    if not t.standard or not c.block.riders or specials.webs_left(w, c) <= 0:
        return None
    web = c.attack_named("web")
    if web is None or any(set(c.squares) & attacks.threatens(w, f) for f in foes):
        return None
    for f in sorted(foes, key=lambda f: (footprint_distance_ft(c.squares, f.squares), f.id)):
        if "entangled" in f.conditions:
            continue
        if attacks.plan_attack(w, c, web, f, kind="ranged"):   # the web's own refusals: a swarm, a foe too big
            return Strike(f.id, "web")
    return None


def _web_throw(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee):
    return web_throw(w, c, t, foes)


SPECIALS = Tactic("specials", imposed)     # confusion, a web holding it (bestiary)
WEB_THROW = Tactic("specials", _web_throw)   # a monstrous spider's web (bestiary)

