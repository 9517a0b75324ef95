"""Attack and damage resolution, with every modifier as data (RULES §2.4-2.8, §3, §4.5-4.7, §5).

An attack is first *planned* (:func:`plan_attack`): every modifier of the roll and of the target's
AC is collected into ordered dicts, or the attack is *refused* with the reason (a two-handed
weapon in a narrow space, a bow in a crawlway, anything in a tight squeeze...). Refusals are
values (STYLE habit 6). A plan is then *resolved* with the fight's random generator
(:func:`resolve_attack`), producing events; damage goes through :func:`deal_damage`, which applies
the swarm damage matrix (§4.7), damage reduction, energy resistance and regeneration, and moves
the target through disabled / dying / dead (or dispersed, for a swarm).

The functions take the encounter as their world (``enc``): its grid, its creatures and their
movement fields, its settings, its random generator, and ``enc.emit`` for events.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from sim.creature import Creature
from sim.events import Attack as AttackEvent
from sim.events import Condition, Damage, Died, Dispersed
from sim.geometry import cover, flanking, footprint_distance_ft, line_of_effect, threatened
from sim.rules.categories import Category, effects
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks import Attack
from sim.rules.weapons import combat_modifier

if TYPE_CHECKING:  # pragma: no cover
    from sim.encounter import Encounter

PHYSICAL = ("bludgeoning", "piercing", "slashing")


def _mod(section: str, key: str) -> int:
    return combat_modifier(section, key)


def _label(cat: Category) -> str:
    return cat.name.lower()


# =================================================================================================
# Where a creature stands
# =================================================================================================

def standing_category(enc: "Encounter", c: Creature) -> Category:
    """The worst category among the squares the creature occupies (RULES §2.7); swarms never
    suffer constricted-space effects (§7.25). Tunnelrunner and Tunnelfighter make Narrow and Low
    count as only one of the two (§2.8)."""
    if c.is_swarm:
        return Category.CLEAR
    cats = enc.categories(c)
    worst = Category(int(max(cats[y, x] for x, y in c.squares)))
    if worst is Category.NARROW_AND_LOW and (c.block.has_feat("tunnelrunner") or c.block.has_feat("tunnelfighter")):
        return Category.NARROW_OR_LOW
    return worst


def crawl_is_narrow(enc: "Encounter", c: Creature) -> bool:
    """A crawlway that is also narrow uses the Narrow-and-Low weapon row (§2.4, §7.10)."""
    w = min(float(enc.grid.width_ft[y, x]) for x, y in c.squares)
    return w < c.block.body.space


def loses_dex(enc: "Encounter", c: Creature) -> str | None:
    """Why the creature is denied its Dex bonus to AC, or None (§2.4, §5.4, §7.9)."""
    if c.helpless:
        return "helpless"
    if c.flat_footed:
        return "flat_footed"
    if "running" in c.conditions:
        return "running"  # RULES §5.4, §6.5 (the Run feat keeps it: the condition is not set then)
    cat = standing_category(enc, c)
    if effects(cat).loses_dex:
        feats_keep = cat is Category.NARROW_OR_LOW and (c.block.has_feat("tunnelrunner") or c.block.has_feat("tunnelfighter"))
        if not feats_keep:
            return _label(cat)
    return None


def threatens(enc: "Encounter", c: Creature) -> frozenset[tuple[int, int]] | set[tuple[int, int]]:
    """Squares ``c`` threatens now: melee reach, if it can attack (RULES §6.6). Swarms, Tiny and
    smaller creatures (reach 0), nauseated, helpless and unarmed-without-natural creatures
    threaten nothing."""
    if c.is_swarm or not c.in_fight or c.nauseated or c.reach_ft() <= 0:
        return set()
    a = melee_in_hand(c)
    if a is None:
        return set()
    reach = int(a.reach_ft or c.reach_ft())
    reach_weapon = bool(a.weapon is not None and a.weapon.reach)
    adjacent_too = bool(a.weapon is not None and a.weapon.reach_adjacent)
    memo = getattr(enc, "_threat_memo", None)  # the same footprint and reach, the same squares
    if memo is None:
        return threatened(c.squares, reach, reach_weapon=reach_weapon, adjacent_too=adjacent_too)
    key = (tuple(c.squares), reach, reach_weapon, adjacent_too)
    out = memo.get(key)
    if out is None:
        if len(memo) > 1024:
            memo.clear()
        out = memo[key] = frozenset(threatened(c.squares, reach, reach_weapon=reach_weapon,
                                               adjacent_too=adjacent_too))
    return out


def melee_in_hand(c: Creature) -> Attack | None:
    """The melee attack ``c`` can make right now, without drawing anything (what it threatens
    and makes attacks of opportunity with, RULES §6.6): the melee weapon in hand, else a natural
    attack; None with a bow or crossbow in hand (and nothing natural), or with empty hands. An
    unarmed strike threatens only with Improved Unarmed Strike."""
    w = c.wielded()
    if w is not None and w.mode == "melee":
        if w.weapon is not None and w.weapon.key == "unarmed-strike" and not c.block.has_feat("improved-unarmed-strike"):
            return None
        return w
    natural = [a for a in c.block.attacks if a.mode == "melee" and a.kind == "natural"]
    return natural[0] if natural else None


def _first_melee(c: Creature) -> Attack | None:
    opts = [a for a in c.block.attacks if a.mode == "melee"]
    natural = [a for a in opts if a.kind == "natural"]
    return natural[0] if natural else (opts[0] if opts else None)


# =================================================================================================
# Planning an attack
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Refusal:
    """An attack the rules do not allow, and why."""

    reason: str

    def __bool__(self) -> bool:  # a refusal is falsy, a plan truthy
        return False


@dataclass(slots=True)
class AttackPlan:
    attacker: Creature
    target: Creature
    attack: Attack
    kind: str                          # melee | ranged | opportunity | charge
    modifiers: dict[str, int]
    ac: int
    ac_modifiers: dict[str, int]
    touch: bool = False
    distance_ft: int = 0
    sneak: bool = False
    flanked: bool = False

    @property
    def bonus(self) -> int:
        return sum(self.modifiers.values())

    def __bool__(self) -> bool:
        return True


def plan_attack(enc: "Encounter", attacker: Creature, attack: Attack, target: Creature, *,
                kind: str = "melee", iterative: int = 0, bonus_override: int | None = None) -> AttackPlan | Refusal:
    """Every modifier of one attack roll and of the target's AC, or the reason it is not allowed."""
    ranged = attack.mode == "ranged"
    if attack.kind == "swarm":
        return Refusal("a swarm does not make attack rolls; it damages what it covers at the end of its turn")
    if not attacker.in_fight:
        return Refusal(f"{attacker.name} cannot act")
    if attacker.nauseated:
        return Refusal(f"{attacker.name} is nauseated: no attacks (§5.2)")
    if not target.alive:
        return Refusal(f"{target.name} is already out")
    cat = standing_category(enc, attacker)
    eff = effects(cat)
    if not eff.attacks:
        return Refusal(f"no attacks are possible in a {eff.label} (§2.4)")

    mods: dict[str, int] = {}
    for name, value in attack.bonus_parts:
        mods[name.replace(" ", "_")] = int(value)
    if bonus_override is not None:
        mods = {"base_attack": int(bonus_override)}
    if iterative:
        mods["iterative"] = -5 * iterative
    if not ranged and attacker.str_mod_delta():
        mods["strength_damage"] = attacker.str_mod_delta()
    if ranged and attacker.dex_mod_delta():
        mods["dexterity_damage"] = attacker.dex_mod_delta()

    # constricted space (§2.4-2.5, §2.8, §7.10, §7.38)
    if cat is not Category.CLEAR:
        index = attack.effective_index if attack.kind != "natural" else 1
        if index is None:
            return Refusal(f"{attack.name} cannot be wielded by a {attacker.size.key} creature")
        if ranged:
            crossbow = bool(attack.crossbow)
            cmod = eff.ranged_mod_for(index, crossbow=crossbow,
                                      narrow=cat is Category.CRAWL and crawl_is_narrow(enc, attacker))
            if cmod is None:
                return Refusal(f"{attack.name} cannot be fired in a {eff.label}"
                               + (" (crossbows only)" if eff.ranged == "crossbows" else ""))
        else:
            narrow = cat is Category.CRAWL and crawl_is_narrow(enc, attacker)
            if cat is Category.CRAWL and not enc.settings.get("crawl_weapon_rows", True):
                cmod = 0 if index < 3 else None
            else:
                cmod = eff.melee_mod(index, narrow=narrow)
            if (attacker.block.has_feat("tunnelfighter") and cat is Category.NARROW_OR_LOW):
                cmod = 0 if index <= 2 else -4  # §2.8: light/one-handed no penalty, two-handed at -4
            if cmod is None:
                return Refusal(f"{attack.name} ({_hand_words(index)}) cannot be used in a {eff.label} (§2.5)")
        if cmod:
            mods[_label(cat)] = int(cmod)
    # prone (§5.1): -4 in melee (an awkward-space posture is covered by its -8, §7.31); ranged:
    # crossbows only, without penalty
    prone_now = attacker.prone or eff.posture == "prone"
    if prone_now:
        if ranged and not attack.crossbow:
            return Refusal(f"{attacker.name} is prone: only crossbows can be fired (§5.1)")
        if not ranged and eff.prone_melee_penalty_applies:
            mods["prone"] = _mod("attack", "prone_melee")

    dist = footprint_distance_ft(attacker.squares, target.squares)
    if ranged:
        if not attack.range_ft:
            return Refusal(f"{attack.name} has no range")
        max_inc = (5 if attack.thrown else 10)
        increments = max(1, -(-dist // attack.range_ft))
        if increments > max_inc:
            return Refusal(f"{target.name} is {dist} ft away, beyond {attack.name}'s {max_inc} range increments")
        if increments > 1:
            mods["range"] = _mod("attack", "range_increment") * (increments - 1)
        if not line_of_effect(enc.grid.rock, attacker.squares, target.squares):
            return Refusal(f"no line of effect to {target.name}")
        if _in_melee_with_ally(enc, attacker, target) and not attacker.block.has_feat("precise-shot"):
            mods["firing_into_melee"] = _mod("attack", "firing_into_melee")
    else:
        reach = int(attack.reach_ft or attacker.reach_ft())
        if target.is_swarm or target.size <= Size.TINY or attacker.reach_ft() <= 0:
            # reach 0 attackers must share the target's square; anyone may attack into its own square
            pass
        if attacker.reach_ft() <= 0:
            if not set(attacker.squares) & set(target.squares):
                return Refusal(f"{attacker.name} has no reach: it must be in {target.name}'s square")
        elif dist > reach and not set(attacker.squares) & set(target.squares):
            return Refusal(f"{target.name} is {dist} ft away, beyond reach ({reach} ft)")
        elif attack.weapon is not None and attack.weapon.reach and not attack.weapon.reach_adjacent and dist <= 5:
            return Refusal(f"{attack.name} is a reach weapon: it cannot hit an adjacent foe")
        if kind == "charge":
            mods["charge"] = _mod("attack", "charge")
        flanked = False
        if not target.is_swarm and not attacker.is_swarm and _flanked(enc, attacker, target):
            mods["flanking"] = _mod("attack", "flanking")
            flanked = True
        if target.helpless:
            mods["helpless_target"] = _mod("attack", "helpless_melee")
    if attacker.blessed_until >= enc.round:
        mods["bless"] = _mod("attack", "bless")

    touch = bool(attack.touch)
    ac, ac_mods = target_ac(enc, attacker, target, ranged=ranged, touch=touch)
    plan = AttackPlan(attacker, target, attack, kind, mods, ac, ac_mods, touch=touch, distance_ft=dist)
    plan.flanked = "flanking" in mods
    plan.sneak = _sneak_applies(enc, attacker, target, ranged, dist, plan.flanked)
    return plan


def _hand_words(index: int) -> str:
    return ("stab-shifted light", "light", "one-handed", "two-handed")[max(0, min(3, index))]


def _in_melee_with_ally(enc: "Encounter", attacker: Creature, target: Creature) -> bool:
    for other in enc.creatures.values():
        if other is attacker or other.team != attacker.team or not other.in_fight or other.is_swarm:
            continue
        if footprint_distance_ft(other.squares, target.squares) <= 5:
            return True
    return False


def _flanked(enc: "Encounter", attacker: Creature, target: Creature) -> bool:
    """An ally threatening the target from the opposite side (RULES §6.6; a swarm cannot flank)."""
    if not threatens_target(enc, attacker, target):
        return False
    for ally in enc.creatures.values():
        if ally is attacker or ally.team != attacker.team or not ally.in_fight or ally.is_swarm:
            continue
        if not threatens_target(enc, ally, target):
            continue
        if flanking(attacker.squares, ally.squares, target.squares):
            return True
    return False


def threatens_target(enc: "Encounter", c: Creature, target: Creature) -> bool:
    t = threatens(enc, c)
    return any(sq in t for sq in target.squares)


def _sneak_applies(enc, attacker: Creature, target: Creature, ranged: bool, dist: int, flanked: bool) -> bool:
    """Sneak attack: target denied its Dex bonus or flanked; ranged only within 30 ft; never
    against swarms (immune to critical hits, §4.5)."""
    if attacker.block.sneak_attack is None or target.is_swarm:
        return False
    if ranged and dist > 30:
        return False
    return flanked or loses_dex(enc, target) is not None


def target_ac(enc: "Encounter", attacker: Creature, target: Creature, *, ranged: bool,
              touch: bool = False) -> tuple[int, dict[str, int]]:
    """The target's AC against this attack, with every part (RULES §2.4, §5.1, §5.4, §6.5)."""
    parts: dict[str, int] = {}
    denied = loses_dex(enc, target)
    for name, value in target.block.ac_parts:
        key = name.replace(" ", "_")
        if touch and key in ("armor", "shield", "natural", "natural_armor"):
            continue
        if key in ("dex", "dexterity"):
            value = int(value) + target.dex_mod_delta()
            if denied == "helpless":
                value = _mod("ac", "helpless_dex")
            elif denied and value > 0:
                continue
        if key == "dodge" and denied:
            continue
        parts[key] = int(value)
    if denied and denied != "helpless":
        parts[f"no_dex:{denied}"] = 0
    if denied == "helpless" and "dex" not in parts and "dexterity" not in parts:
        parts["dex"] = _mod("ac", "helpless_dex")  # Dex treated as 0: -5, whatever its score (§5.4)
    cat = standing_category(enc, target)
    eff = effects(cat)
    if eff.ac_modifier:
        parts[_label(cat)] = eff.ac_modifier
    prone = target.prone or eff.posture == "prone" or (eff.posture == "prone_if_low" and enc.is_low(target))
    if prone:  # (helpless alone is not prone: its melee +4 is an attack modifier, §5.4)
        parts["prone"] = _mod("ac", "prone_vs_ranged") if ranged else _mod("ac", "prone_vs_melee")
    if target.charged:
        parts["charged"] = _mod("ac", "charge")
    if _has_cover(enc, attacker, target, ranged):
        parts["cover"] = _mod("ac", "cover")
    return sum(parts.values()), parts


def _has_cover(enc: "Encounter", attacker: Creature, target: Creature, ranged: bool) -> bool:
    if target.is_swarm and not ranged:
        return False
    creatures = None
    if ranged:
        creatures = {sq for c in enc.creatures.values()
                     if c is not attacker and c is not target and c.alive and not c.is_swarm
                     for sq in c.squares}
    memo = getattr(enc, "_cover_memo", None)  # rock is fixed: the same squares, the same answer
    if memo is None:
        return cover(enc.grid.rock, attacker.squares, target.squares, creatures=creatures)
    key = (tuple(attacker.squares), tuple(target.squares), frozenset(creatures) if creatures else None)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > 4096:
            memo.clear()
        hit = memo[key] = cover(enc.grid.rock, attacker.squares, target.squares, creatures=creatures)
    return hit


# =================================================================================================
# Rolling
# =================================================================================================

def d20(enc: "Encounter") -> int:
    return int(enc.rng.integers(1, 21))


def resolve_attack(enc: "Encounter", plan: AttackPlan) -> bool:
    """Roll the attack (and the confirmation of a threat), emit the attack event and the damage.
    Returns True on a hit."""
    a, t, att = plan.attacker, plan.target, plan.attack
    roll = d20(enc)
    total = roll + plan.bonus
    hit = roll == 20 or (roll != 1 and total >= plan.ac)
    improvised = att.weapon is not None and att.weapon.improvised
    threat_at = _mod("critical", "improvised_threat") if improvised else att.crit_threat
    multiplier = _mod("critical", "improvised_multiplier") if improvised else att.crit_multiplier
    threat = hit and roll >= threat_at and not t.is_swarm and t.block.type not in ("undead", "construct")
    critical = False
    confirm_roll = confirm_total = None
    if threat:
        confirm_roll = d20(enc)
        confirm_total = confirm_roll + plan.bonus
        critical = confirm_roll == 20 or (confirm_roll != 1 and confirm_total >= plan.ac)
    kind = {"melee": "melee", "ranged": "ranged", "opportunity": "opportunity", "charge": "charge"}[plan.kind]
    if plan.touch:
        kind = "ranged_touch" if att.mode == "ranged" else "touch"
    enc.emit(AttackEvent(round=enc.round, actor=a.id, target=t.id, weapon=att.name, roll=roll,
                         modifiers=dict(plan.modifiers), total=total, ac=plan.ac,
                         ac_modifiers=dict(plan.ac_modifiers), hit=hit, critical=critical, kind=kind,
                         threat=threat, confirm_roll=confirm_roll, confirm_total=confirm_total))
    if hit:
        weapon_damage(enc, plan, critical=critical, multiplier=multiplier)
    return hit


def weapon_damage(enc: "Encounter", plan: AttackPlan, *, critical: bool, multiplier: int) -> None:
    """Damage of a weapon or natural hit: the dice (rolled again for each critical multiple, energy
    dice not), Str modifiers, sneak attack; against a swarm the matrix of §4.7 (a lit torch deals
    1d3 fire instead, §7.19)."""
    a, t, att = plan.attacker, plan.target, plan.attack
    rng = enc.rng
    parts: list[DamagePart] = []
    if t.is_swarm and att.weapon is not None and att.weapon.swarm_fire is not None:
        parts.append(DamagePart(att.weapon.swarm_fire.roll(rng), "fire", "energy"))
    else:
        dice = att.damage.plus(a.str_mod_delta() if att.mode == "melee" else 0)
        times = multiplier if critical else 1
        amount = sum(dice.roll(rng) for _ in range(times))
        amount = max(1, amount)  # RULES §0.2: a hit deals at least 1
        types = att.damage_types or ("bludgeoning",)
        parts.append(DamagePart(amount, types[0], "weapon", types=tuple(types), join=att.types_join,
                                magic=_is_magic(att), nonlethal=att.nonlethal))
        for dice_x, energy in att.extra_damage:
            parts.append(DamagePart(max(0, dice_x.roll(rng)), energy, "energy"))
        if plan.sneak and a.block.sneak_attack is not None:
            parts.append(DamagePart(a.block.sneak_attack.roll(rng), types[0], "sneak", types=tuple(types),
                                    join=att.types_join, magic=_is_magic(att)))
    deal_damage(enc, t, parts, source=a, cause="weapon")
    if att.riders and not t.is_swarm and enc.last_damage > 0:  # a rider needs a wound (§4.9)
        from sim.swarms import apply_riders

        apply_riders(enc, a, t, att.riders)


def _is_magic(att: Attack) -> bool:
    return any(name == "enhancement" and v > 0 for name, v in att.bonus_parts)


# =================================================================================================
# Damage
# =================================================================================================

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


def _physical(part: DamagePart) -> bool:
    return part.kind in ("weapon", "sneak", "swarm") or part.type in PHYSICAL


def adjust_for_target(target: Creature, part: DamagePart, adjustments: dict[str, int],
                      dr_left: list[int] | None = None) -> int:
    """RULES §4.7 for swarms (order: immunity or halving, x1.5 for area effects, then resistance
    and damage reduction), DR and energy resistance for everyone. Returns what is left.
    ``dr_left``: the damage reduction still to apply to this attack (one-item list, used up part
    by part: DR stops so much of a whole hit, SRD), or None for the whole of it."""
    amount = part.amount
    key = part.kind if part.kind != "weapon" else "weapon"
    if target.is_swarm:
        sw = target.block.swarm
        if part.kind in ("weapon", "sneak"):
            if part.kind == "sneak":
                adjustments["swarm_no_sneak"] = adjustments.get("swarm_no_sneak", 0) - amount
                return 0
            rule = sw.weapon_damage if sw is not None else "immune"
            types = set(part.types or (part.type,))
            if rule == "immune":
                adjustments["swarm_immune"] = adjustments.get("swarm_immune", 0) - amount
                return 0
            halve = (part.join == "or" and bool(types & {"piercing", "slashing"})) or \
                    (part.join == "single" and bool(types & {"piercing", "slashing"}))
            if part.join == "and" and "bludgeoning" in types:
                halve = False  # must resist both types (§4.7 "and" row)
            if halve:
                new = max(1, amount // 2)  # §7.23: halve, round down, minimum 1
                adjustments["swarm_half"] = adjustments.get("swarm_half", 0) + (new - amount)
                amount = new
        if part.area:
            new = amount + amount // 2
            adjustments["area_x1.5"] = adjustments.get("area_x1.5", 0) + (new - amount)
            amount = new
    # energy resistance (per attack, after the other adjustments) and damage reduction (physical only)
    d = target.block.defenses
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


def deal_damage(enc: "Encounter", target: Creature, parts: list[DamagePart], *, source: Creature | None,
                cause: str) -> int:
    """Apply a hit's parts to ``target``; emit the damage event and any change of state.
    Returns the hit points lost (lethal damage); ``enc.last_damage`` holds all the damage that
    got through, nonlethal included (riders need some, RULES §4.9)."""
    enc.last_damage = 0
    if not target.alive:
        return 0
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
    enc.last_damage = lethal + nonlethal
    if enc.last_damage and "asleep" in target.conditions:
        _unset(enc, target, "asleep", "woken")  # a wound wakes a magically sleeping creature (§8)
    enc.emit(Damage(round=enc.round, target=target.id, amount=lethal, parts=raw, source=source.id if source else None,
                    cause=cause, hp_before=before, hp_after=target.hp, adjustments=adjustments,
                    nonlethal=bool(nonlethal and not lethal)))
    if lethal and "concentrating" in target.conditions:
        target.conditions.add("hurt_while_casting")  # every wound of the casting adds up (§8)
        enc.damage_while_casting += lethal
    update_state(enc, target, source=source)
    if target.pending_spell is not None and enc.last_damage:
        from sim.spells import disturb_casting

        disturb_casting(enc, target, enc.last_damage)
    return lethal


def update_state(enc: "Encounter", c: Creature, *, source: Creature | None = None) -> None:
    """Hit points to condition (RULES §5.5): swarm dispersed at 0; disabled at 0; dying below;
    dead at -10; unconscious when nonlethal damage reaches the hit points."""
    dead_at = _mod("hit_points", "dead")
    if not c.alive:
        return
    if c.is_swarm:
        if c.hp <= 0 or (c.nonlethal and c.nonlethal > c.hp):  # killed or knocked out: it disperses (§4.5)
            _set(enc, c, "dispersed")
            c.fell_at = c.pos
            enc.emit(Dispersed(round=enc.round, target=c.id, at=tuple(c.squares)))
            if source is not None:
                _credit(source, c)
        return
    con = c.block.abilities.con
    con_left = None if con is None else con - c.ability_damage.get("con", 0)
    if c.hp <= dead_at or (con_left is not None and con_left <= 0):
        for cond in ("dying", "disabled", "unconscious", "stable"):
            _unset(enc, c, cond)
        _set(enc, c, "dead")
        c.fell_at = c.pos
        enc.emit(Died(round=enc.round, target=c.id, at=tuple(c.squares)))
        if source is not None and source is not c:
            _credit(source, c)
        return
    if c.hp < 0:
        _unset(enc, c, "disabled")
        if "dying" not in c.conditions and "stable" not in c.conditions:
            _set(enc, c, "dying")
            c.fell_at = c.fell_at or c.pos
            if source is not None and source is not c:
                _credit(source, c)
        return
    if c.hp == 0:
        _set(enc, c, "disabled")
    elif "disabled" in c.conditions:
        _unset(enc, c, "disabled")
    # nonlethal damage (RULES §5.5): equal to the current hit points staggers, more knocks out
    if c.nonlethal and c.nonlethal > c.hp and c.hp > 0:
        _unset(enc, c, "staggered")
        if "unconscious" not in c.conditions:
            _set(enc, c, "unconscious")
            c.fell_at = c.fell_at or c.pos
            if source is not None and source is not c:
                _credit(source, c)
        return
    if "unconscious" in c.conditions and c.nonlethal <= c.hp:
        _unset(enc, c, "unconscious")
    if c.nonlethal and c.nonlethal == c.hp and c.hp > 0:
        _set(enc, c, "staggered")
    else:
        _unset(enc, c, "staggered")


def _credit(source: Creature, victim: Creature) -> None:
    """The creature that took ``victim`` out of the fight (counted once, when it goes down)."""
    if victim.id not in source.kills:
        source.kills.append(victim.id)


def _set(enc: "Encounter", c: Creature, cond: str, cause: str = "") -> None:
    if cond not in c.conditions:
        c.conditions.add(cond)
        enc.emit(Condition(round=enc.round, target=c.id, condition=cond, active=True, cause=cause))


def _unset(enc: "Encounter", c: Creature, cond: str, cause: str = "") -> None:
    if cond in c.conditions:
        c.conditions.discard(cond)
        enc.emit(Condition(round=enc.round, target=c.id, condition=cond, active=False, cause=cause))


set_condition = _set
clear_condition = _unset
