"""Healing and buffs (sim.engine.ai.decide): cure the worst-hurt ally (walking to it when one
move gets there), hold person or delay poison when no foe threatens the caster, bless the party
before the melee (RULES §8)."""

from __future__ import annotations

from sim.engine import attacks
from sim.engine.actions import Cast, Move, Turn
from sim.engine.ai.estimates import attack_squares, distance_within
from sim.engine.ai.spells import delay_poison, hold_target
from sim.engine.casting import has_spell, spell_data
from sim.engine.creature import Creature
from sim.engine.effects import lasting
from sim.engine.world import World
from sim.terrain.geometry import footprint_distance_ft


def support(w: World, c: Creature, t: Turn, foes: list[Creature]):
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
            near = distance_within(w, c, 1)   # only the squares one move action away count
            dest = [(a, p) for p in attack_squares(w, c, hurt[0], 5) if (a := near.actions_at(p)) <= 1]
            if dest:
                return Move(min(dest, key=lambda ap: ap[0])[1])
    if not any(set(c.squares) & attacks.threatens(w, f) for f in foes):  # casting provokes
        hold = hold_target(w, c, foes) or delay_poison(w, c, foes)   # §8; delay poison §8.6
        if hold is not None:
            return hold
    if has_spell(c, "bless") is not None and not lasting(c, "blessed", w.round):
        near = [a for a in w.allies(c) if footprint_distance_ft(c.squares, a.squares) <= int(spell_data()["bless"]["radius_ft"])]
        if len(near) >= 2 and all(footprint_distance_ft(c.squares, f.squares) > 10 for f in foes):
            return Cast("bless")
    return None
