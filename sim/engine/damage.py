"""Damage and what hit points mean (RULES §4.5-4.7, §5.5).

:func:`deal_damage` applies a hit's parts (:class:`DamagePart`) to a creature: the swarm damage
matrix, area x1.5, energy resistance and damage reduction (:func:`adjust_for_target`, the one
copy of §4.7 that the AI's estimates use too), regeneration's nonlethal damage; it emits the
damage event, wakes a sleeper, breaks a caster's concentration, and moves the target through
disabled / dying / dead, or dispersed for a swarm (:func:`update_state`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.engine import split
from sim.engine.casting import disturb_casting
from sim.engine.conditions import clear_status, end, set_status
from sim.engine.creature import Creature
from sim.engine.events import Damage, Died, Dispersed, Healed
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.weapons import combat_modifier

PHYSICAL = ("bludgeoning", "piercing", "slashing")



def _mod(section: str, key: str) -> int:
    return combat_modifier(section, key)


@dataclass(frozen=True, slots=True)
class DamagePart:
    """One part of a hit. ``kind``: weapon (physical, with ``types`` joined by and/or), sneak,
    energy (fire, cold, electricity, acid, force), swarm (a swarm's attack), splash, spell, bleed."""

    amount: int
    type: str
    kind: str
    types: tuple[str, ...] = ()
    join: str = "single"
    magic: bool = False
    area: bool = False
    nonlethal: bool = False


@dataclass(frozen=True, slots=True)
class Dealt:
    """What one :func:`deal_damage` let through to the creature (RULES §4.5-4.7): its ``lethal``
    hit points lost and its ``nonlethal`` damage. A rider needs a wound of either kind (§4.9),
    a swarm's riders a lethal one; a metal weapon corrodes on any (SRD Rust)."""

    lethal: int = 0
    nonlethal: int = 0

    @property
    def total(self) -> int:
        """All the damage that got through, nonlethal included."""
        return self.lethal + self.nonlethal


NOTHING = Dealt()   # no damage got through: the target was already down, or it split instead


def _physical(part: DamagePart) -> bool:
    return part.kind in ("weapon", "sneak", "swarm") or part.type in PHYSICAL


def halve(amount: int) -> int:
    """Half, rounded down, at least 1 (RULES §7.23: a swarm's half damage, a successful save).

    >>> halve(7), halve(1), halve(0)
    (3, 1, 1)
    """
    return max(1, amount // 2)


def evades(c: Creature) -> str | None:
    """The creature's evasion against a Reflex-half area, if it can use it: ``"improved"``,
    ``"evasion"`` or None (SRD Rogue: only in light or no armor, and not while helpless)."""
    feats = c.block.features
    kind = "improved" if "improved-evasion" in feats else "evasion" if "evasion" in feats else None
    armor = c.block.armor
    if kind is None or c.helpless or (armor is not None and armor.kind in ("medium", "heavy")):
        return None
    return kind


def reflex_half_damage(c: Creature, amount: int, saved: bool) -> int:
    """Damage of a "Reflex half" area effect after the save: half on a success (RULES §7.23);
    with evasion none on a success; with improved evasion none on a success, half on a failure.

    Call it with the rolled damage and the save's result; 0 means no damage is dealt.
    """
    kind = evades(c)
    if saved:
        return 0 if kind else halve(amount)
    return halve(amount) if kind == "improved" else amount


def swarm_weapon_rule(target: Creature, types, join: str) -> str:
    """What a weapon (of damage ``types`` joined by ``join``: single, and, or) does to a swarm,
    by the damage matrix (RULES §4.7): ``"immune"`` (Fine and Diminutive swarms), ``"half"``
    (piercing or slashing against a Tiny swarm, unless an "and" weapon is bludgeoning too) or
    ``"full"``. The AI's estimates read the same rule."""
    sw = target.block.swarm
    rule = sw.weapon_damage if sw is not None else "immune"
    if rule == "immune":
        return "immune"
    types = set(types)
    halve_it = (join in ("or", "single")) and bool(types & {"piercing", "slashing"})
    if join == "and" and "bludgeoning" in types:
        halve_it = False  # must resist both types (§4.7 "and" row)
    return "half" if halve_it else "full"


def swarm_area_factor() -> float:
    """How much more an area effect deals to a swarm (RULES §4.7: x1.5), as the AI weighs it."""
    return combat_modifier("swarm", "area_damage_percent") / 100


def adjust_for_target(target: Creature, part: DamagePart, adjustments: dict[str, int],
                      dr_left: list[int] | None = None) -> int:
    """RULES §4.7 for swarms (order: immunity or halving, x1.5 for area effects, then resistance
    and damage reduction), DR and energy resistance for everyone. Returns what is left.
    ``dr_left``: the damage reduction still to apply to this attack (one-item list, used up part
    by part: DR stops so much of a whole hit, SRD), or None for the whole of it."""
    amount = part.amount
    if target.is_swarm:
        if part.kind in ("weapon", "sneak"):
            if part.kind == "sneak":
                adjustments["swarm_no_sneak"] = adjustments.get("swarm_no_sneak", 0) - amount
                return 0
            rule = swarm_weapon_rule(target, part.types or (part.type,), part.join)
            if rule == "immune":
                adjustments["swarm_immune"] = adjustments.get("swarm_immune", 0) - amount
                return 0
            if rule == "half":
                new = halve(amount)  # §7.23: halve, round down, minimum 1
                adjustments["swarm_half"] = adjustments.get("swarm_half", 0) + (new - amount)
                amount = new
        if part.area:
            new = amount * combat_modifier("swarm", "area_damage_percent") // 100  # half again, rounded down
            adjustments["area_x1.5"] = adjustments.get("area_x1.5", 0) + (new - amount)
            amount = new
    # energy resistance (per attack, after the other adjustments) and damage reduction (physical only)
    d = target.block.defenses
    if d.vulnerable and part.type in d.vulnerable and not _physical(part):
        new = amount * combat_modifier("damage", "vulnerability_percent") // 100   # half again, rounded down (§11.15)
        adjustments[f"vulnerable_{part.type}"] = adjustments.get(f"vulnerable_{part.type}", 0) + (new - amount)
        amount = new
    for etype, value in d.resist:
        if part.type == etype and not _physical(part):
            cut = min(amount, int(value))
            if cut:
                adjustments[f"resist_{etype}"] = adjustments.get(f"resist_{etype}", 0) - cut
            amount -= cut
    if d.damage_reduction and _physical(part):
        bypass = d.dr_bypass
        bypassed = (bypass == "magic" and part.magic) or (bypass in (part.types or (part.type,)))
        if not bypassed:
            cut = min(amount, int(d.damage_reduction) if dr_left is None else dr_left[0])
            if dr_left is not None:
                dr_left[0] -= cut
            if cut:
                adjustments[f"dr_{d.damage_reduction}/{bypass}"] = adjustments.get(f"dr_{d.damage_reduction}/{bypass}", 0) - cut
            amount -= cut
    return max(0, amount)


def deal_damage(w: World, target: Creature, parts: list[DamagePart], *, source: Creature | None,
                cause: str) -> Dealt:
    """Apply a hit's parts to ``target``; emit the damage event and any change of state.
    Returns what got through (:class:`Dealt`: the lethal hit points lost and the nonlethal
    damage; riders need some, RULES §4.9)."""
    if not target.alive:
        return NOTHING
    if split.split_by(target, parts) and split.divide(w, target, parts, source=source):
        return NOTHING  # it splits in two instead (docs/rules.md §11.14)
    adjustments: dict[str, int] = {}
    raw: dict[str, int] = {}
    lethal = 0
    nonlethal = 0
    regen = target.block.defenses.regeneration
    bypass = set(target.block.defenses.regeneration_bypassed_by)
    dr_left = [int(target.block.defenses.damage_reduction or 0)]  # once per hit, across its parts
    for p in parts:
        raw[p.type] = raw.get(p.type, 0) + p.amount
        left = adjust_for_target(target, p, adjustments, dr_left)
        if p.nonlethal or (regen and p.type not in bypass and not target.is_swarm):
            nonlethal += left  # regeneration: only fire and acid (for a troll) deal lethal damage
            if regen and not p.nonlethal and left:
                adjustments["regeneration_nonlethal"] = adjustments.get("regeneration_nonlethal", 0) + left
        else:
            lethal += left
    before = target.hp
    target.hp -= lethal
    target.nonlethal += nonlethal
    dealt = Dealt(lethal, nonlethal)
    if dealt.total and "asleep" in target.conditions:
        end(w, target, "asleep", "woken")  # a wound wakes a magically sleeping creature (§8)
    w.emit(Damage(round=w.round, target=target.id, amount=lethal, parts=raw, source=source.id if source else None,
                    cause=cause, hp_before=before, hp_after=target.hp, adjustments=adjustments,
                    nonlethal=bool(nonlethal and not lethal)))
    if lethal and "concentrating" in target.conditions:
        target.set_status("hurt_while_casting")  # every wound of the casting adds up (§8)
        w.casting.wounds += lethal
    update_state(w, target, source=source)
    if target.pending_spell is not None and dealt.total:
        disturb_casting(w, target, dealt.total)
    return dealt


def update_state(w: World, c: Creature, *, source: Creature | None = None) -> None:
    """Hit points to condition (RULES §5.5): swarm dispersed at 0; disabled at 0; dying below;
    dead at -10; unconscious when nonlethal damage reaches the hit points."""
    dead_at = _mod("hit_points", "dead")
    if not c.alive:
        return
    if c.is_swarm:
        if c.hp <= 0 or (c.nonlethal and c.nonlethal > c.hp):  # killed or knocked out: it disperses (§4.5)
            set_status(w, c, "dispersed")
            c.fell_at = c.pos
            w.emit(Dispersed(round=w.round, target=c.id, at=tuple(c.squares)))
            if source is not None:
                _credit(source, c)
        return
    con = c.block.abilities.con
    con_left = None if con is None else con - c.ability_damage.get("con", 0)
    if c.hp <= dead_at or (con_left is not None and con_left <= 0) or (c.hp <= 0 and split.dies_at_zero(c)):
        for cond in ("dying", "disabled", "unconscious", "stable"):
            clear_status(w, c, cond)
        set_status(w, c, "dead")
        c.fell_at = c.pos
        w.emit(Died(round=w.round, target=c.id, at=tuple(c.squares)))
        if source is not None and source is not c:
            _credit(source, c)
        return
    if c.hp < 0:
        clear_status(w, c, "disabled")
        if "dying" not in c.conditions and "stable" not in c.conditions:
            set_status(w, c, "dying")
            c.fell_at = c.fell_at or c.pos
            if source is not None and source is not c:
                _credit(source, c)
        return
    if c.hp == 0:
        set_status(w, c, "disabled")
    elif "disabled" in c.conditions:
        clear_status(w, c, "disabled")
    # nonlethal damage (RULES §5.5): equal to the current hit points staggers, more knocks out
    if c.nonlethal and c.nonlethal > c.hp and c.hp > 0:
        clear_status(w, c, "staggered")
        if "unconscious" not in c.conditions:
            set_status(w, c, "unconscious")
            c.fell_at = c.fell_at or c.pos
            if source is not None and source is not c:
                _credit(source, c)
        return
    if "unconscious" in c.conditions and c.nonlethal <= c.hp:
        clear_status(w, c, "unconscious")
    if c.nonlethal and c.nonlethal == c.hp and c.hp > 0:
        set_status(w, c, "staggered")
    else:
        clear_status(w, c, "staggered")


def _credit(source: Creature, victim: Creature) -> None:
    """The creature that took ``victim`` out of the fight (counted once, when it goes down)."""
    if victim.id not in source.kills:
        source.kills.append(victim.id)


def lose_hp(w: World, c: Creature, amount: int, cause: str) -> None:
    """Hit points lost to no attack (dying, straining while disabled): an event all the same."""
    before = c.hp
    c.hp -= amount
    w.emit(Damage(round=w.round, target=c.id, amount=amount, parts={cause: amount}, source=None,
                     cause=cause, hp_before=before, hp_after=c.hp))
    update_state(w, c)


def heal(w: World, target: Creature, amount: int, *, source: Creature | None) -> None:
    target.hp = min(target.max_hp, target.hp + amount)
    w.emit(Healed(round=w.round, target=target.id, amount=amount, source=source.id if source else None,
                    hp_after=target.hp))
    for cond in ("dying", "stable", "disabled"):
        if cond in target.conditions and target.hp > 0:
            clear_status(w, target, cond, "healed")
    if "dying" in target.conditions and target.hp >= 0:
        clear_status(w, target, "dying", "healed")
    update_state(w, target)


def _dying(w: World, c: Creature) -> bool:
    """A dying creature rolls to become stable, else loses 1 hp; nothing else happens at the start
    of its turn (True ends the start-of-turn hooks, :mod:`sim.engine.registry`)."""
    if "dying" not in c.conditions:
        return False
    if int(w.rng.integers(1, 101)) <= combat_modifier("hit_points", "stabilize_chance"):
        clear_status(w, c, "dying", "stabilized")
        set_status(w, c, "stable", "stabilized")
    else:
        lose_hp(w, c, 1, "dying")
    return True


def _regenerate(w: World, c: Creature) -> None:
    """Regeneration turns nonlethal damage back into nothing, its rate a round."""
    regen = c.block.defenses.regeneration
    if regen and c.alive and c.nonlethal:
        healed = min(regen, c.nonlethal)
        c.nonlethal -= healed
        w.emit(Healed(round=w.round, target=c.id, amount=healed, source=c.id, hp_after=c.hp))
        update_state(w, c)


def _bleed(w: World, c: Creature) -> None:
    if c.bleed and c.alive and c.in_fight:
        deal_damage(w, c, [DamagePart(c.bleed, "bleed", "bleed")], source=None, cause="bleed")


DYING = Mechanic("dying", start_of_turn=_dying)
REGENERATION = Mechanic("regeneration", start_of_turn=_regenerate)
BLEED = Mechanic("bleeding", start_of_turn=_bleed)
