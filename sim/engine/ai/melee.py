"""The default AI's melee choice (sim.engine.ai.decide): rage when a melee is about to start,
stand up, strike or full-attack the weakest foe in reach with the weapon it expects to do most
(drawing it first), trip or bull rush when it pays; nothing in reach: hold ground or close in
(:mod:`sim.engine.ai.closing`)."""

from __future__ import annotations

from sim.engine import attacks
from sim.engine.actions import Draw, DropLight, FullAttack, Rage, StandUp, Strike, Turn
from sim.engine.ai import constricted as ai_constricted
from sim.engine.ai import maneuvers as ai_maneuvers
from sim.engine.ai.closing import hold_ground, reachiest, reposition
from sim.engine.ai.estimates import (
    best_melee,
    expected_damage,
    needs_both_hands,
    reaches,
    usable_now,
)
from sim.engine.creature import Creature
from sim.engine.rage import can_rage
from sim.engine.world import World
from sim.rules.weapons import gear
from sim.terrain.geometry import footprint_distance_ft


def melee(w: World, c: Creature, t: Turn, foes: list[Creature]):
    if c.prone and t.move and not w.field(c).prone[c.pos[1], c.pos[0]] and not t.moved:
        return StandUp()
    targets = [f for f in foes if not (f.is_swarm and _immune_to_me(c, f))] or foes
    if can_rage(c) is None and any(footprint_distance_ft(c.squares, f.squares) <= 2 * c.speed_ft_value() + c.reach_ft()
                                   for f in targets):
        return Rage()      # a melee is about to start: rage first (a free action, SRD Barbarian)
    # attack from here if something is in reach
    in_reach = [f for f in targets if reaches(w, c, f, reachiest(c))]
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
                return reposition(w, c, t, targets)
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
    hold = hold_ground(w, c, t, targets)
    if hold is not None:
        return hold
    return reposition(w, c, t, targets)


def _immune_to_me(c: Creature, swarm: Creature) -> bool:
    """A Fine/Diminutive swarm shrugs off weapons: only fire, energy or area effects hurt it."""
    if swarm.block.swarm is None or swarm.block.swarm.weapon_damage != "immune":
        return False
    return not (c.torch_lit or c.items.get("torch", 0) > 0)


def _full_attack_worth(c: Creature, att) -> bool:
    if att.kind == "natural":
        return len(c.block.full_attacks) > 0 and sum(len(r) for r in c.block.full_attacks) > 1
    return len(att.bonuses) > 1
