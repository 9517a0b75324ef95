"""When the default AI trips (docs/rules.md §11.11; sim.engine.ai.decide): a creature with Improved Trip,
or one fighting with a trip weapon (spiked chain, scythe, gnome hooked hammer), trips the foe it
was about to attack when that pays by expected damage (sim.engine.ai.estimates):

* the chance: the melee touch attack hits (bonus against touch AC), times the chance to win the
  opposed check (Str against the defender's better of Str and Dex, size, stability, Improved Trip:
  sim.engine.maneuvers), times -- without Improved Trip -- the chance the defender's attack of
  opportunity misses (a damaging one spoils the attempt, SRD);
* the gain, once prone: standing up is a move action that provokes from every enemy threatening it
  (one attack each from the tripper's side), and its side gets +4 on melee attacks against it
  until then (the tripper's next attack);
* the cost: the attack it gives up (one strike, or the full attack it would have made), and
  without Improved Trip the defender's attack of opportunity.

It trips when chance x gain > cost, gain and cost each counted up to the target's hit points left
(damage beyond what drops it pays nothing: a goblin one hit drops is struck, not tripped).

It bull rushes (docs/rules.md §11.11 [PD]) the foe it was about to attack, instead of that attack,
to push it off a wounded ally: when the push risks no attack of opportunity (Improved Bull Rush,
or the foe does not threaten it), it wins the opposed check at least half the time, the foe
threatens an ally at half its hit points or fewer, even the least push (5 ft straight away, into
a square the foe fits) takes that ally out of the foe's reach, and the attack it gives up would
not be expected to drop the foe. Pure questions: nothing here changes the world.
"""

from __future__ import annotations

from sim.engine import attacks, registry
from sim.engine.actions import BullRush, Trip, Turn
from sim.engine.ai.estimates import expected_damage, hit_chance
from sim.engine.creature import Creature
from sim.engine.grapple import touch_plan
from sim.engine.maneuvers import best_of, can_stand, check_parts, push_direction
from sim.engine.world import World
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft


def opposed_chance(mine: int, theirs: int) -> float:
    """The chance that d20 + ``mine`` beats d20 + ``theirs`` (SRD opposed checks: a tie goes to
    the higher modifier, equal modifiers roll off)."""
    wins = 0.0
    for a in range(1, 21):
        for b in range(1, 21):
            ta, tb = a + mine, b + theirs
            if ta > tb or (ta == tb and mine > theirs):
                wins += 1
            elif ta == tb and mine == theirs:
                wins += 0.5
    return wins / 400


def trippable(w: World, c: Creature, target: Creature) -> bool:
    """The target is in the fight and the engine's check of a :class:`Trip` lets ``c`` try now
    (:func:`sim.engine.registry.check`: the rules are asked, not copied)."""
    return target.in_fight and registry.check(w, c, Trip(target.id)) is None


def wants_to_trip(c: Creature) -> bool:
    """Improved Trip, or a trip weapon in hand."""
    held = c.wielded()
    return c.block.has_feat("improved-trip") or (held is not None and held.weapon is not None and held.weapon.trip)


def trip_values(w: World, c: Creature, target: Creature, given_up: float) -> dict[str, float]:
    """The numbers of the choice: ``chance`` (the trip succeeds), ``gain`` (expected damage it
    brings), ``cost`` (``given_up``, the attack it replaces, plus the defender's attack of
    opportunity without Improved Trip)."""
    plan = touch_plan(w, c, target, "trip")
    if not plan:
        return {"chance": 0.0, "gain": 0.0, "cost": given_up}
    mine = sum(check_parts(c, "str", defender=False, feat="improved-trip").values())
    theirs = sum(check_parts(target, best_of(target), defender=True, feat="improved-trip").values())
    chance = hit_chance(plan.bonus, plan.ac) * opposed_chance(mine, theirs)
    cost = given_up
    if not c.block.has_feat("improved-trip") and set(c.squares) & attacks.threatens(w, target):
        aoo = attacks.melee_in_hand(target)
        if aoo is not None:
            p_aoo = _chance(w, target, aoo, c)
            chance *= 1 - p_aoo
            cost += expected_damage(w, target, aoo, c)
    gain = 0.0
    bonus = combat_modifier("attack", "helpless_melee") / 20   # +4 prone (as helpless in melee): +20%
    for o in w.creatures.values():
        if o.team != c.team or not o.in_fight or not (set(target.squares) & attacks.threatens(w, o)):
            continue
        att = attacks.melee_in_hand(o)
        if att is None:
            continue
        one = expected_damage(w, o, att, target)
        gain += one                                      # its attack of opportunity as the target stands
        if o is c and one > 0:
            gain += bonus * one / max(0.05, _chance(w, o, att, target))   # +4 on the next attack
    left = float(max(1, target.hp))
    return {"chance": chance, "gain": min(gain, left), "cost": min(cost, left)}


def _chance(w: World, c: Creature, att, target: Creature) -> float:
    plan = attacks.plan_attack(w, c, att, target, kind="melee")
    return hit_chance(plan.bonus, plan.ac) if plan else 0.0


def trip_if_it_pays(w: World, c: Creature, t: Turn, target: Creature, given_up: float):
    """A :class:`Trip` of ``target`` when it pays, else None (``given_up``: the expected damage
    of the attack the trip would replace)."""
    if not t.standard or not wants_to_trip(c) or not trippable(w, c, target):
        return None
    v = trip_values(w, c, target, given_up)
    return Trip(target.id) if v["chance"] * v["gain"] > v["cost"] else None


RUSH_MIN_CHANCE = 0.5


def rushable(w: World, c: Creature, target: Creature) -> bool:
    """The engine's check of a :class:`BullRush` lets ``c`` try now (a swarm, a foe two sizes
    larger, one in its grapple, one not adjacent: :func:`sim.engine.registry.check`)."""
    return registry.check(w, c, BullRush(target.id)) is None


def rescued(w: World, c: Creature, target: Creature) -> list[Creature]:
    """The wounded allies (hp at most half) the least push of ``target`` takes out of its reach."""
    dx, dy = push_direction(c, target)
    nxt = (target.pos[0] + dx, target.pos[1] + dy)
    if (dx, dy) == (0, 0) or not can_stand(w, target, nxt):
        return []
    after = w.field(target).occupied(nxt)
    reach = max(5, target.reach_ft())
    out = []
    for o in w.creatures.values():
        if o is c or o.team != c.team or not o.in_fight or o.hp * 2 > o.max_hp:
            continue
        if footprint_distance_ft(target.squares, o.squares) <= reach < footprint_distance_ft(after, o.squares):
            out.append(o)
    return out


def rush_chance(c: Creature, target: Creature) -> float:
    mine = sum(check_parts(c, "str", defender=False, feat="improved-bull-rush").values())
    theirs = sum(check_parts(target, "str", defender=True, feat="improved-bull-rush").values())
    return opposed_chance(mine, theirs)


def bull_rush_if_it_pays(w: World, c: Creature, t: Turn, target: Creature, given_up: float):
    """A :class:`BullRush` of ``target`` when it pushes the foe off a wounded ally (see above), else None."""
    if not t.standard or not target.in_fight or not rushable(w, c, target) or given_up >= target.hp:
        return None
    if not c.block.has_feat("improved-bull-rush") and set(c.squares) & attacks.threatens(w, target):
        return None
    if rush_chance(c, target) < RUSH_MIN_CHANCE or not rescued(w, c, target):
        return None
    return BullRush(target.id)


def maneuver_if_it_pays(w: World, c: Creature, t: Turn, target: Creature, given_up: float):
    """A trip, else a bull rush, when it pays (the attack it replaces: ``given_up``), else None."""
    return trip_if_it_pays(w, c, t, target, given_up) or bull_rush_if_it_pays(w, c, t, target, given_up)
