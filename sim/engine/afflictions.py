"""What a wound can carry (RULES §4.9): poison (a Fortitude save now and a second one a minute
later, ability damage on a failure), wounding (bleeding a hit point a round), disease (recorded
with its incubation); and ability damage itself (Dex or Str 0 paralyses, Con 0 kills).
"""

from __future__ import annotations

from typing import Iterable

from sim.engine import specials
from sim.engine.checks import roll_save
from sim.engine.conditions import add, end
from sim.engine.creature import Creature
from sim.engine.damage import set_status, update_state
from sim.engine.effects import find
from sim.engine.events import Condition
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.dice import Dice
from sim.rules.weapons import combat_modifier


def rider(block, key: str):
    for r in block.riders:
        if r.key == key:
            return r
    return None


def apply_riders(w: World, source: Creature, target: Creature, keys: Iterable[str]) -> None:
    """Poison (initial now, secondary 10 rounds later), wounding (bleeding 1 hp a round), disease
    (recorded with its incubation): RULES §4.9."""
    for key in keys:
        r = rider(source.block, key)
        if r is None or not target.living or not target.alive:
            continue
        if r.kind == "poison":
            if "poison" in target.block.defenses.immune or "poison_delayed" in target.conditions:
                continue        # immune, or delay poison (docs/rules.md §8.6)
            failed = not roll_save(w, target, r.save or "fort", int(r.dc), "poison", source.id)
            if failed and r.effect == "unconscious":
                specials.knock_out(w, target, specials.KNOCKED_OUT_ROUNDS, source.id)   # drow sleep poison
            elif failed and r.initial:
                ability_damage(w, target, r.initial, cause="poison", source=source)
            target.poison_due.append((w.round + combat_modifier("time", "rounds_per_minute"), r.key, source.id))
        elif r.kind == "wounding":
            if target.bleed < r.bleed:
                target.bleed = r.bleed  # several wounds do not add up
                w.emit(Condition(round=w.round, target=target.id, condition="wounded", active=True,
                                   cause=source.id, detail={"bleed": r.bleed}))
        elif r.kind == "weakness":       # a roper's strand (docs/rules.md §11.15)
            if not roll_save(w, target, r.save or "fort", int(r.dc), "weakness", source.id) and r.initial:
                ability_damage(w, target, r.initial, cause="weakness", source=source)
        elif r.kind == "paralysis":
            paralyse(w, source, target, r)
        elif r.kind == "improved_grab":
            w.grabs.pending.append((source.id, target.id, r.key))  # resolved after the action (sim.engine.grapple)
        elif r.kind == "disease":
            if not roll_save(w, target, r.save or "fort", int(r.dc), "disease", source.id):
                target.diseases.append(r.key)
                w.emit(Condition(round=w.round, target=target.id, condition="diseased", active=True,
                                   cause=source.id, detail={"disease": r.key, "incubation": r.incubation}))


def paralyse(w: World, source: Creature, target: Creature, r) -> None:
    """Paralysis (a gelatinous cube's slime, docs/rules.md §11.8): Fortitude or paralyzed for the
    rider's duration ("3d6 rounds": until the end of that many rounds from now)."""
    if "paralysis" in target.block.defenses.immune or target.block.type == "ooze":
        return
    if roll_save(w, target, r.save or "fort", int(r.dc), "paralysis", source.id):
        return
    rounds = max(1, Dice.parse(r.duration.split()[0]).roll(w.rng))
    had = find(target, "paralyzed")
    add(w, target, "paralyzed", source.id, max(had.until if had is not None else 0, w.round + rounds),
        detail={"rounds": rounds})


def paralysis_over_with_fight(w: World, c: Creature) -> None:
    """At the end of the fight a rider's paralysis is over (its rounds are the fight's own: a
    crawl goes on minutes later); during it, :func:`sim.engine.conditions.tick` ends it at the
    start of its turn after its last round. Dex or Str 0 keeps the creature paralyzed (a status
    of its own, :func:`ability_damage`)."""
    end(w, c, "paralyzed", "expired")


def ability_damage(w: World, c: Creature, spec: str, *, cause: str, source: Creature | None) -> None:
    """"1d4 dex" -> roll and record ability damage (Dex 0 paralyzed, Str 0 helpless, Con 0 dead)."""
    dice_text, ability = spec.split()
    amount = max(1, Dice.parse(dice_text).roll(w.rng))
    c.ability_damage[ability] = c.ability_damage.get(ability, 0) + amount
    w.emit(Condition(round=w.round, target=c.id, condition="ability_damage", active=True, cause=cause,
                       detail={"ability": ability, "amount": amount, "total": c.ability_damage[ability]}))
    score = c.block.abilities.score(ability)
    if score is not None and score - c.ability_damage[ability] <= 0:
        if ability in ("dex", "str"):   # paralyzed for as long as the score is 0: a status, no clock
            set_status(w, c, "paralyzed", cause)
        update_state(w, c, source=source)


def poison_secondaries(w: World, c: Creature) -> None:
    """Secondary poison saves that fall due this round (1 minute after the first, §4.9)."""
    due = [p for p in c.poison_due if p[0] <= w.round]
    c.poison_due = [p for p in c.poison_due if p[0] > w.round]
    for _, key, src_id in due:
        src = w.creatures.get(src_id)
        r = rider(src.block, key) if src is not None else None
        if r is None or not c.alive or "poison_delayed" in c.conditions:
            continue        # delay poison: the secondary damage is not rolled while it lasts (§8.6)
        failed = not roll_save(w, c, r.save or "fort", int(r.dc), "poison_secondary", src_id)
        if r.effect == "unconscious":   # 2d4 hours asleep on a failure: the rest of the fight
            if failed:
                specials.knock_out(w, c, specials.FOR_THE_FIGHT, src_id)
            continue
        if failed and r.secondary:
            ability_damage(w, c, r.secondary, cause="poison", source=src)


def _poison_due(w: World, c: Creature) -> None:
    if c.poison_due:
        poison_secondaries(w, c)


POISON = Mechanic("poison", start_of_turn=_poison_due)
