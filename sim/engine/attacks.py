"""Attacks, with every modifier as data (RULES §2.4-2.8, §3, §5.1, §5.4, §6.5-6.6).

An attack is first *planned* (:func:`plan_attack`): every modifier of the roll and of the target's
AC is collected into ordered dicts, or the attack is refused with the reason (:class:`Impossible`:
a two-handed weapon in a narrow space, a bow in a crawlway, anything in a tight squeeze...). A
plan is then *resolved* with the fight's random generator (:func:`resolve_attack`): the attack
event, then the damage through :func:`sim.engine.damage.deal_damage` and the riders of a wound.

Also here: where a creature stands (its worst category), what it threatens, and attacks of
opportunity (:func:`provoke`). The attack actions (strike, full attack, draw, load) are in
:mod:`sim.engine.attack_actions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.engine import innate, specials, strands, zones
from sim.engine.actions import Impossible
from sim.engine.afflictions import apply_riders
from sim.engine.checks import d20, hits, label, roll_dice
from sim.engine.creature import Creature
from sim.engine.damage import DamagePart, Dealt, deal_damage
from sim.engine.effects import modifiers as effect_modifiers
from sim.engine.events import Attack as AttackEvent
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.rules.statblocks import Attack
from sim.rules.weapons import (
    PROJECTILE_MAX_INCREMENTS,
    THROWN_MAX_INCREMENTS,
    combat_modifier,
    handed_index,
)
from sim.terrain.geometry import (
    cover,
    flanking,
    footprint_distance_ft,
    threatened,
)
from sim.terrain.vision.sight import TOTAL_MISS


def _mod(section: str, key: str) -> int:
    return combat_modifier(section, key)


def _label(cat: Category) -> str:
    return cat.name.lower()


def standing_category(w: World, c: Creature) -> Category:
    """The worst category among the squares the creature occupies (RULES §2.7); swarms never
    suffer constricted-space effects (§7.25). Tunnelrunner and Tunnelfighter make Narrow and Low
    count as only one of the two (§2.8)."""
    if c.is_swarm or w.amorphous(c):
        return Category.CLEAR   # amorphous oozes: no constricted-space penalties (RULES §11.12)
    cats = w.categories(c)
    worst = Category(int(max(cats[y, x] for x, y in c.squares)))
    if worst is Category.NARROW_AND_LOW and (c.block.has_feat("tunnelrunner") or c.block.has_feat("tunnelfighter")):
        return Category.NARROW_OR_LOW
    return worst


def crawl_is_narrow(w: World, c: Creature) -> bool:
    """A crawlway that is also narrow uses the Narrow-and-Low weapon row (§2.4, §7.10)."""
    w = min(float(w.grid.width_ft[y, x]) for x, y in c.squares)
    return w < c.block.body.space


def loses_dex(w: World, c: Creature) -> str | None:
    """Why the creature is denied its Dex bonus to AC, or None (§2.4, §5.4, §7.9)."""
    if c.helpless:
        return "helpless"
    if c.flat_footed:
        return "flat_footed"
    if w.blinded(c):
        return "blinded"  # in the dark without darkvision (RULES §5.4, §9.3.4)
    if "running" in c.conditions:
        return "running"  # RULES §5.4, §6.5 (the Run feat keeps it: the condition is not set then)
    cat = standing_category(w, c)
    if effects(cat).loses_dex:
        feats_keep = cat is Category.NARROW_OR_LOW and (c.block.has_feat("tunnelrunner") or c.block.has_feat("tunnelfighter"))
        if not feats_keep:
            return _label(cat)
    return None


def threatens(w: World, c: Creature) -> frozenset[tuple[int, int]] | set[tuple[int, int]]:
    """Squares ``c`` threatens now: melee reach, if it can attack (RULES §6.6). Swarms, Tiny and
    smaller creatures (reach 0), nauseated, helpless and unarmed-without-natural creatures
    threaten nothing."""
    if c.is_swarm or not c.in_fight or c.nauseated or c.reach_ft() <= 0 or c.grappling:
        return set()  # a grappling creature threatens nothing (docs/rules.md §11.4)
    a = melee_in_hand(c)
    if a is None:
        return set()
    reach = int(a.reach_ft or c.reach_ft())
    reach_weapon = bool(a.weapon is not None and a.weapon.reach)
    adjacent_too = bool(a.weapon is not None and a.weapon.reach_adjacent)
    key = (tuple(c.squares), reach, reach_weapon, adjacent_too)  # the same footprint and reach, the same squares
    out = w.terrain.threats.get(key)
    if out is None:
        sq = threatened(c.squares, reach, reach_weapon=reach_weapon, adjacent_too=adjacent_too)
        if w.grid.edges is not None:   # no reach across a wall between squares (docs/rules.md §6.8)
            sq = {q for q in sq if w.line_of_effect(c.squares, [q])}
        out = w.terrain.threats.put(key, frozenset(sq))
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


def first_melee(c: Creature) -> Attack | None:
    opts = [a for a in c.block.attacks if a.mode == "melee"]
    natural = [a for a in opts if a.kind == "natural"]
    return natural[0] if natural else (opts[0] if opts else None)


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
    guessed_at: tuple[int, int] | None = None   # the square guessed (RULES §9.2), if it was a guess

    @property
    def bonus(self) -> int:
        return sum(self.modifiers.values())

    def __bool__(self) -> bool:
        return True


def plan_attack(w: World, attacker: Creature, attack: Attack, target: Creature, *,
                kind: str = "melee", iterative: int = 0, bonus_override: int | None = None) -> AttackPlan | Impossible:
    """Every modifier of one attack roll and of the target's AC, or the reason it is not allowed."""
    if not target.alive:
        return Impossible(f"{target.name} is already out")
    if target.id in w.swallowed.inside:
        return Impossible(f"{target.name} is inside {w.creatures[w.swallowed.inside[target.id]].name}: out of reach (docs/rules.md §11.13)")
    why = _grappling_attack(attacker, attack, target) if attacker.grappling else None
    if why or (why := specials.refuse_attack(w, attacker, attack, target) if attack.kind == "special" else None):
        return Impossible(why)
    if strands.is_strand(attack) and (why := strands.refuse(w, attacker, target)):
        return Impossible(why)
    if w.magic.zones and zones.web_feet(w, attacker.squares, target.squares) >= (thick := zones.web_total_cover_ft()):
        return Impossible(f"{target.name} has total cover: {thick} ft of web between (docs/rules.md §8.3)")
    mods = attacker_modifiers(w, attacker, attack, kind=kind, iterative=iterative, bonus_override=bonus_override)
    if isinstance(mods, Impossible):
        return mods
    ranged = attack.mode == "ranged"
    dist = footprint_distance_ft(attacker.squares, target.squares)
    why = distance_reason(w, attacker, attack, target.squares, target.name, mods, shared=bool(
        set(attacker.squares) & set(target.squares)))
    if why:
        return Impossible(why)
    if ranged:
        if in_melee_with_ally(w, attacker, target) and not attacker.block.has_feat("precise-shot"):
            mods["firing_into_melee"] = _mod("attack", "firing_into_melee")
    else:
        if not target.is_swarm and not attacker.is_swarm and _flanked(w, attacker, target):
            mods["flanking"] = _mod("attack", "flanking")
        if target.helpless:
            mods["helpless_target"] = _mod("attack", "helpless_melee")
    mods.update(effect_modifiers(attacker, "attack", w.round))   # bless (sim/data/effects.toml)
    if attack.kind == "natural" and (drawn := strands.drawn_in_bonus(w, attacker, attack, target)):
        mods["drawn_in"] = drawn        # a roper's bite at a foe its strand drew in (§11.15)
    if attacker.conditions:
        mods.update(specials.attack_modifiers(w, attacker))   # dazzled, entangled (bestiary)
    if attacker.grappling:
        mods["grappling"] = _mod("attack", "grappling")   # -4 against the creature one grapples (§11.4)
    if attacker.conditions and innate.unseen_attacker(w, attacker, target):
        mods["invisible"] = _mod("attack", "invisible_attacker")   # +2 unseen (docs/rules.md §8.5)

    touch = bool(attack.touch)
    ac, ac_mods = target_ac(w, attacker, target, ranged=ranged, touch=touch)
    plan = AttackPlan(attacker, target, attack, kind, mods, ac, ac_mods, touch=touch, distance_ft=dist)
    plan.flanked = "flanking" in mods
    plan.sneak = _sneak_applies(w, attacker, target, ranged, dist, plan.flanked)
    return plan


def attacker_modifiers(w: World, attacker: Creature, attack: Attack, *, kind: str = "melee", iterative: int = 0,
                       bonus_override: int | None = None) -> dict[str, int] | Impossible:
    """The attack roll's modifiers that depend on the attacker alone (its attack, the space it
    stands in, its posture), or the reason it cannot attack with it now."""
    ranged = attack.mode == "ranged"
    if attack.kind == "swarm":
        return Impossible("a swarm does not make attack rolls; it damages what it covers at the end of its turn")
    if not attacker.in_fight:
        return Impossible(f"{attacker.name} cannot act")
    if attacker.nauseated:
        return Impossible(f"{attacker.name} is nauseated: no attacks (§5.2)")
    cat = standing_category(w, attacker)
    eff = effects(cat)
    if not eff.attacks:
        return Impossible(f"no attacks are possible in a {eff.label} (§2.4)")

    mods: dict[str, int] = {}
    for name, value in attack.bonus_parts:
        mods[name.replace(" ", "_")] = int(value)
    if bonus_override is not None:
        mods = {"base_attack": int(bonus_override)}
    if iterative:
        mods["iterative"] = _mod("attack", "iterative") * iterative
    if not ranged and attacker.str_mod_delta():
        mods["strength_damage"] = attacker.str_mod_delta()
    if ranged and attacker.dex_mod_delta():
        mods["dexterity_damage"] = attacker.dex_mod_delta()

    # constricted space (§2.4-2.5, §2.8, §7.10, §7.38)
    if cat is not Category.CLEAR:
        index = attack.effective_index if attack.kind != "natural" else 1
        if index is None:
            return Impossible(f"{attack.name} cannot be wielded by a {attacker.size.key} creature")
        if ranged:
            crossbow = bool(attack.crossbow)
            cmod = eff.ranged_mod_for(index, crossbow=crossbow,
                                      narrow=cat is Category.CRAWL and crawl_is_narrow(w, attacker))
            if cmod is None:
                return Impossible(f"{attack.name} cannot be fired in a {eff.label}"
                               + (" (crossbows only)" if eff.ranged == "crossbows" else ""))
        else:
            narrow = cat is Category.CRAWL and crawl_is_narrow(w, attacker)
            if cat is Category.CRAWL and not w.settings.get("crawl_weapon_rows", True):
                cmod = 0 if index < 3 else None
            else:
                cmod = eff.melee_mod(index, narrow=narrow)
            if (attacker.block.has_feat("tunnelfighter") and cat is Category.NARROW_OR_LOW):
                cmod = 0 if index <= 2 else _mod("attack", "tunnelfighter_two_handed")  # §2.8: light/one-handed no penalty
            if cmod is None:
                return Impossible(f"{attack.name} ({_hand_words(index)}) cannot be used in a {eff.label} (§2.5)")
        if cmod:
            mods[_label(cat)] = int(cmod)
    # prone (§5.1): -4 in melee (an awkward-space posture is covered by its -8, §7.31); ranged:
    # crossbows only, without penalty
    prone_now = attacker.prone or eff.posture == "prone"
    if prone_now:
        if ranged and not attack.crossbow:
            return Impossible(f"{attacker.name} is prone: only crossbows can be fired (§5.1)")
        if not ranged and eff.prone_melee_penalty_applies:
            mods["prone"] = _mod("attack", "prone_melee")
    if kind == "charge" and not ranged:
        mods["charge"] = _mod("attack", "charge")
    return mods


def distance_reason(w: World, attacker: Creature, attack: Attack, squares, name: str, mods: dict[str, int], *,
                    shared: bool = False) -> str | None:
    """Why ``attack`` cannot reach ``squares`` (a creature's, or a guessed square) from where the
    attacker stands, or None; a ranged attack's range penalty goes into ``mods``. ``shared``: the
    attacker shares a square with them (a reach-0 creature must)."""
    dist = footprint_distance_ft(attacker.squares, squares)
    if attack.mode == "ranged":
        if not attack.range_ft:
            return f"{attack.name} has no range"
        max_inc = max_increments(attack)
        increments = max(1, -(-dist // attack.range_ft))
        if increments > max_inc:
            return f"{name} is {dist} ft away, beyond {attack.name}'s {max_inc} range increments"
        if increments > 1:
            mods["range"] = _mod("attack", "range_increment") * (increments - 1)
        if not w.line_of_effect(attacker.squares, squares):
            return f"no line of effect to {name}"
        return None
    reach = int(attack.reach_ft or attacker.reach_ft())
    if attacker.reach_ft() <= 0:  # reach 0: it must share the target's square (RULES §4.2)
        if not shared:
            return f"{attacker.name} has no reach: it must be in {name}'s square"
    elif dist > reach and not shared:
        return f"{name} is {dist} ft away, beyond reach ({reach} ft)"
    elif attack.weapon is not None and attack.weapon.reach and not attack.weapon.reach_adjacent and dist <= 5:
        return f"{attack.name} is a reach weapon: it cannot hit an adjacent foe"
    elif w.grid.edges is not None and not shared and not w.line_of_effect(attacker.squares, squares):
        return f"a wall stands between {attacker.name} and {name}"
    return None


def _grappling_attack(attacker: Creature, attack: Attack, target: Creature) -> str | None:
    """What a grappling creature may attack with (docs/rules.md §11.4): only a creature in its
    grapple, with a natural weapon, an unarmed strike or a light weapon; pinned, nothing."""
    if attacker.pinned_by:
        return f"{attacker.name} is pinned: it can only try to escape (§11.5)"
    if target.id not in attacker.grapple_with:
        return f"{attacker.name} is grappling: it can attack only a creature in its grapple (§11.4)"
    if attack.mode != "melee" or attack.touch:
        return f"{attacker.name} is grappling: no {attack.name} in a grapple (light weapons only, §11.4)"
    if attack.kind != "natural":
        idx = handed_index(attack.weapon, attacker.size) if attack.weapon is not None else None
        if idx is None or idx > 1:
            return f"{attack.name} is not a light weapon: in a grapple only light weapons (§11.4)"
    return None


def max_increments(attack: Attack) -> int:
    """How many range increments a ranged attack reaches (RULES §3.1): its weapon's
    (``Weapon.max_increments``: thrown 5, projectile 10); a natural ranged attack by its kind."""
    if attack.weapon is not None and attack.weapon.max_increments:
        return attack.weapon.max_increments
    if strands.is_strand(attack):
        return 1                        # "up to 50 feet away (no range increment)"
    return THROWN_MAX_INCREMENTS if attack.thrown else PROJECTILE_MAX_INCREMENTS


def _hand_words(index: int) -> str:
    return ("stab-shifted light", "light", "one-handed", "two-handed")[max(0, min(3, index))]


def in_melee_with_ally(w: World, attacker: Creature, target: Creature) -> bool:
    for other in w.creatures.values():
        if other is attacker or other.team != attacker.team or not other.in_fight or other.is_swarm:
            continue
        if footprint_distance_ft(other.squares, target.squares) <= 5:
            return True
    return False


def _flanked(w: World, attacker: Creature, target: Creature) -> bool:
    """An ally threatening the target from the opposite side (RULES §6.6; a swarm cannot flank)."""
    if not threatens_target(w, attacker, target):
        return False
    for ally in w.creatures.values():
        if ally is attacker or ally.team != attacker.team or not ally.in_fight or ally.is_swarm:
            continue
        if not threatens_target(w, ally, target):
            continue
        if flanking(attacker.squares, ally.squares, target.squares):
            return True
    return False


def threatens_target(w: World, c: Creature, target: Creature) -> bool:
    t = threatens(w, c)
    return any(sq in t for sq in target.squares)


def _sneak_applies(w, attacker: Creature, target: Creature, ranged: bool, dist: int, flanked: bool) -> bool:
    """Sneak attack: target denied its Dex bonus or flanked; ranged only within 30 ft; never
    against swarms (immune to critical hits, §4.5)."""
    if attacker.block.sneak_attack is None or target.is_swarm or target.block.type == "ooze":
        return False   # swarms and oozes are immune to critical hits, so to sneak attacks (§4.5; SRD ooze traits)
    if ranged and dist > _mod("attack", "sneak_attack_range_ft"):
        return False
    if w.miss_chance(attacker, target):
        return False  # never through concealment (RULES §5.4)
    return flanked or loses_dex(w, target) is not None or _grapple_denies_dex(attacker, target) is not None


def _grapple_denies_dex(attacker: Creature, target: Creature) -> str | None:
    """A grappling creature has no Dex bonus to AC against creatures outside its grapple; a pinned
    one against everyone (docs/rules.md §11.4-11.5)."""
    if target.pinned_by:
        return "pinned"
    if target.grappling and attacker.id not in target.grapple_with:
        return "grappling"
    return None


def target_ac(w: World, attacker: Creature, target: Creature, *, ranged: bool,
              touch: bool = False) -> tuple[int, dict[str, int]]:
    """The target's AC against this attack, with every part (RULES §2.4, §5.1, §5.4, §6.5)."""
    parts: dict[str, int] = {}
    denied = loses_dex(w, target) or _grapple_denies_dex(attacker, target) or (
        "invisible_attacker" if attacker.conditions and innate.unseen_attacker(w, attacker, target) else None)
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
    cat = standing_category(w, target)
    eff = effects(cat)
    if eff.ac_modifier:
        parts[_label(cat)] = eff.ac_modifier
    prone = target.prone or eff.posture == "prone" or (eff.posture == "prone_if_low" and w.is_low(target))
    if prone:  # (helpless alone is not prone: its melee +4 is an attack modifier, §5.4)
        parts["prone"] = _mod("ac", "prone_vs_ranged") if ranged else _mod("ac", "prone_vs_melee")
    if target.pinned_by and target.pinned_by != attacker.id:
        parts["pinned"] = _mod("ac", "pinned")   # others get +4 against a pinned creature (§11.5)
    if target.charged:
        parts["charged"] = _mod("ac", "charge")
    if denied == "blinded" or w.blinded(target):
        # -2 (RULES §5.4; SRD Blinded: "takes a -2 penalty to Armor Class, loses his Dexterity
        # bonus to AC"), whatever else also takes its Dex: flat-footed, helpless, running...
        parts["blinded"] = _mod("ac", "blinded")
    if _has_cover(w, attacker, target, ranged):
        parts["cover"] = _mod("ac", "cover")
    if target.conditions:
        parts.update(specials.ac_modifiers(w, target))   # entangled (bestiary)
    return sum(parts.values()), parts


def _has_cover(w: World, attacker: Creature, target: Creature, ranged: bool) -> bool:
    if w.magic.zones and zones.web_feet(w, attacker.squares, target.squares) >= 5:
        return True   # 5 ft of web strands between: cover (docs/rules.md §8.3)
    if target.is_swarm and not ranged:
        return False
    creatures = None
    if ranged:
        creatures = {sq for c in w.creatures.values()
                     if c is not attacker and c is not target and c.alive and not c.is_swarm
                     for sq in c.squares}
    key = (tuple(attacker.squares), tuple(target.squares), frozenset(creatures) if creatures else None)
    hit = w.terrain.cover.get(key)  # rock is fixed: the same squares, the same answer (every fight on the map)
    if hit is None:
        hit = w.terrain.cover.put(key, cover(w.grid.rock, attacker.squares, target.squares, creatures=creatures,
                                             edges=w.grid.edges))
    return hit


def resolve_attack(w: World, plan: AttackPlan) -> bool:
    """Roll the attack (and the confirmation of a threat), emit the attack event and the damage.
    Returns True on a hit."""
    a, t, att = plan.attacker, plan.target, plan.attack
    specials.attack_made(w, plan)
    vs = f"vs {label(w, t)}"
    roll = d20(w, a, f"{att.name} attack {vs}", plan.bonus)
    total = roll + plan.bonus
    hit = hits(roll, total, plan.ac)
    # concealment: rolled after a hit (RULES §9.2); concealments do not stack
    chance = max(w.miss_chance(a, t), TOTAL_MISS) if plan.guessed_at is not None else w.miss_chance(a, t)
    concealment = "total" if chance >= TOTAL_MISS else ("concealment" if chance else "none")
    miss_roll = None
    if hit and chance:
        miss_roll = int(w.rng.integers(1, 101))
        if miss_roll <= chance:
            hit = False
    improvised = att.weapon is not None and att.weapon.improvised
    threat_at = _mod("critical", "improvised_threat") if improvised else att.crit_threat
    multiplier = _mod("critical", "improvised_multiplier") if improvised else att.crit_multiplier
    threat = hit and roll >= threat_at and not t.is_swarm and t.block.type not in ("undead", "construct", "ooze")
    critical = False
    confirm_roll = confirm_total = None
    if threat:
        confirm_roll = d20(w, a, f"confirm a critical {vs}", plan.bonus)
        confirm_total = confirm_roll + plan.bonus
        critical = hits(confirm_roll, confirm_total, plan.ac)
    kind = {"melee": "melee", "ranged": "ranged", "opportunity": "opportunity", "charge": "charge"}[plan.kind]
    if plan.touch:
        kind = "ranged_touch" if att.mode == "ranged" else "touch"
    w.emit(AttackEvent(round=w.round, actor=a.id, target=t.id, weapon=att.name, roll=roll,
                         modifiers=dict(plan.modifiers), total=total, ac=plan.ac,
                         ac_modifiers=dict(plan.ac_modifiers), hit=hit, critical=critical, kind=kind,
                         threat=threat, confirm_roll=confirm_roll, confirm_total=confirm_total,
                         concealment=concealment, miss_chance=chance, miss_roll=miss_roll,
                         guessed=plan.guessed_at is not None, at=plan.guessed_at))
    if hit and strands.is_strand(att):          # a strand sticks and saps Strength: no damage (§11.15)
        strands.stick(w, a, t)
        apply_riders(w, a, t, att.riders)
    elif hit and not specials.on_hit(w, plan):   # a web entangles, antennae rust: no damage
        dealt = weapon_damage(w, plan, critical=critical, multiplier=multiplier)
        specials.after_damage(w, plan, dealt)          # a metal weapon that hurts a rust monster corrodes
    innate.attacked(w, a)                       # invisibility ends with the attack (docs/rules.md §8.5)
    return hit


def weapon_damage(w: World, plan: AttackPlan, *, critical: bool, multiplier: int) -> Dealt:
    """Damage of a weapon or natural hit: the dice (rolled again for each critical multiple, energy
    dice not), Str modifiers, sneak attack; against a swarm the matrix of §4.7 (a lit torch deals
    1d3 fire instead, §7.19). Returns what got through (the riders have followed a wound, §4.9)."""
    a, t, att = plan.attacker, plan.target, plan.attack
    parts: list[DamagePart] = []
    what = f"{att.name} damage vs {label(w, t)}"
    unlit = unlit_torch(a, att)
    if t.is_swarm and att.weapon is not None and att.weapon.swarm_fire is not None and not unlit:
        parts.append(DamagePart(roll_dice(w, att.weapon.swarm_fire, a, f"{what} (fire)"), "fire", "energy"))
    else:
        dice = att.damage.plus((a.str_mod_delta() if att.mode == "melee" else 0) + a.block.favored_bonus(t.block.type))
        times = multiplier if critical else 1
        amount = sum(roll_dice(w, dice, a, what if times == 1 else f"{what} (critical, roll {i + 1} of {times})")
                     for i in range(times))
        amount = max(1, amount)  # RULES §0.2: a hit deals at least 1
        types = att.damage_types or ("bludgeoning",)
        parts.append(DamagePart(amount, types[0], "weapon", types=tuple(types), join=att.types_join,
                                magic=_is_magic(att), nonlethal=att.nonlethal))
        for dice_x, energy in att.extra_damage:
            if unlit and energy == "fire":
                continue  # an unlit torch is a plain improvised club (RULES §3.5)
            parts.append(DamagePart(max(0, roll_dice(w, dice_x, a, f"{what} ({energy})")), energy, "energy"))
        if plan.sneak and a.block.sneak_attack is not None:
            parts.append(DamagePart(roll_dice(w, a.block.sneak_attack, a, f"sneak attack vs {label(w, t)}"), types[0], "sneak", types=tuple(types),
                                    join=att.types_join, magic=_is_magic(att)))
    dealt = deal_damage(w, t, parts, source=a, cause="weapon")
    if att.riders and not t.is_swarm and dealt.total > 0:  # a rider needs a wound (§4.9)
        apply_riders(w, a, t, att.riders)
    return dealt


def unlit_torch(c: Creature, att: Attack) -> bool:
    """A torch swung while it is not lit: no +1 fire, no 1d3 fire against a swarm (RULES §3.5, §4.6)."""
    return att.weapon is not None and att.weapon.light_source and att.weapon.fire_rider is not None and not c.torch_lit


def _is_magic(att: Attack) -> bool:
    return any(name == "enhancement" and v > 0 for name, v in att.bonus_parts)


def provoke(w: World, c: Creature, why: str) -> None:
    """An action that provokes (casting, ranged attack, standing up, lighting a torch...):
    every enemy threatening ``c`` may make an attack of opportunity."""
    for o in list(w.creatures.values()):
        if o.team == c.team or not o.in_fight:
            continue
        if set(c.squares) & threatens(w, o):
            attack_of_opportunity(w, o, c, why)
            if not c.in_fight:
                return


def attack_of_opportunity(w: World, o: Creature, target: Creature, why: str) -> bool:
    """One melee attack at full bonus, if ``o`` can make one now (§6.6): not flat-footed, not
    nauseated, not a swarm, within its allowance (Combat Reflexes), target without cover."""
    if o.is_swarm or o.flat_footed or o.nauseated or not o.in_fight or o.grappling:
        return False
    allowance = 1 + (max(0, o.block.abilities.mod("dex")) if o.block.has_feat("combat-reflexes") else 0)
    if o.aoo_used >= allowance:
        return False
    att = melee_in_hand(o)
    if att is None:
        return False
    if w.miss_chance(o, target) >= TOTAL_MISS:
        return False  # no attack of opportunity against total concealment (RULES §6.6, §9.2)
    plan = plan_attack(w, o, att, target, kind="opportunity")
    if not plan or "cover" in plan.ac_modifiers:
        return False
    o.aoo_used += 1
    w.flush_move()  # the movement so far comes before the attack it provoked
    resolve_attack(w, plan)
    return True
