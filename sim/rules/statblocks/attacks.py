"""Attack options of a stat block (RULES §3.1): the bonus and damage of each weapon carried, of
each natural attack and of a swarm, every modifier kept as a named part for the event log, and
the full attack routines. :func:`weapon_attacks` also serves :func:`~.loadout.attacks_with`.
"""

from __future__ import annotations

import dataclasses
import math
import re

from sim.base.errors import DataError
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks.tables import (
    class_table,
    feat_table,
    feats_with,
    natural_reach,
    race_table,
    stat_rule,
)
from sim.rules.statblocks.types import (
    Abilities,
    Attack,
    NaturalEntry,
    Source,
    SwarmStats,
    WeaponEntry,
)
from sim.rules.weapons import (
    ArmorPiece,
    Weapon,
    combat_modifier,
    damage_for,
    effective_index,
    handed_index,
    natural_weapon,
)


def _proficient(src: Source, w: Weapon) -> bool:
    if w.improvised:
        return False
    if w.natural or src.kind != "pc":
        return True
    allowed: set[str] = set()
    for cls, _ in src.levels:
        allowed |= set(class_table()[cls]["weapon_proficiency"])
    if src.race:
        allowed |= set(race_table()[src.race].get("weapon_proficiency", ()))
    allowed |= feats_with(src, "exotic-weapon-proficiency") | feats_with(src, "martial-weapon-proficiency")
    return w.key in allowed or w.proficiency in allowed


def _armor_proficient(src: Source, piece: ArmorPiece) -> bool:
    if src.kind != "pc":
        return True
    for cls, _ in src.levels:
        c = class_table()[cls]
        if piece.is_shield:
            sp = c["shield_proficiency"]
            if sp == "all" or (sp == "all_but_tower" and piece.key != "tower-shield"):
                return True
        elif piece.kind in c["armor_proficiency"]:
            return True
    return False


def _str_bonus(mod: int, mult: float) -> int:
    """Strength to damage: bonuses are multiplied (x1.5 two-handed, x0.5 off-hand or secondary),
    penalties are not (SRD Combat; printed kobold spear 1d6-1)."""
    if mod <= 0:
        return mod
    return math.floor(mod * mult)


class AttackContext:
    """What attack derivation needs, computed once."""

    def __init__(self, src: Source, ab: Abilities, bab: int):
        self.src = src
        self.ab = ab
        self.bab = bab
        self.str_mod = ab.mod("str")
        self.dex_mod = ab.mod("dex")
        self.size = src.size
        self.finesse = any(f.key == "weapon-finesse" for f in src.feats)
        self.focus = feats_with(src, "weapon-focus")
        self.greater_focus = feats_with(src, "greater-weapon-focus")
        self.spec = feats_with(src, "weapon-specialization")
        self.crit = feats_with(src, "improved-critical")
        multiattack = any(f.key == "multiattack" for f in src.feats)
        self.secondary_natural = (int(feat_table()["multiattack"]["secondary_attack"]) if multiattack
                                  else stat_rule("secondary_natural"))
        self.focus_bonus = int(feat_table()["weapon-focus"]["attack"])
        self.spec_bonus = int(feat_table()["weapon-specialization"]["damage"])
        self.race = race_table()[src.race] if src.race else {}
        self.reach = natural_reach(src)
        self.armor_attack = 0
        for piece in (src.armor, src.shield):
            if piece is not None and not _armor_proficient(src, piece):
                self.armor_attack += piece.effective_check_penalty
        self.shield_acp = src.shield.effective_check_penalty if src.shield is not None else 0
        self.tower = src.shield.attack_penalty if src.shield is not None else 0


def _iteratives(first: int, bab: int) -> tuple[int, ...]:
    """+BAB, +BAB-5, ... for BAB 6+ (max 4 attacks)."""
    n = min(4, 1 + max(0, bab - 1) // 5)
    return tuple(first - 5 * k for k in range(n))


def weapon_attacks(ctx: AttackContext, entry: WeaponEntry) -> list[Attack]:
    w = entry.weapon
    src = ctx.src
    handed = handed_index(w, ctx.size)
    if handed is None:
        raise DataError(f"{src.path}: [[weapon]] {entry.name}: a {ctx.size.key} creature cannot wield a "
                        f"{w.size.key} {w.key} (RULES §2.5 step 2); remove it or give size = \"{ctx.size.key}\"")
    if not Size.TINY <= w.size <= Size.LARGE:
        raise DataError(f"{src.path}: [[weapon]] {entry.name}: a {w.size.key} {w.key} has no damage in the rules "
                        "(RULES §3.6 scales weapons for Tiny to Large creatures only); remove it or use "
                        "[[natural]] attacks")
    modes: list[tuple[str, bool]] = []
    if w.ranged:
        modes.append(("ranged", w.thrown))
    else:
        modes.append(("melee", False))
        if w.thrown:
            modes.append(("ranged", True))
    out = []
    for mode, thrown in modes:
        parts: list[tuple[str, int]] = [("base attack", ctx.bab)]
        dmg_parts: list[tuple[str, int]] = []
        if mode == "melee":
            use_dex = (ctx.finesse and (handed == 1 or (w.finesse and w.size == ctx.size))
                       and ctx.dex_mod > ctx.str_mod)
            if use_dex:
                parts.append(("dex (weapon finesse)", ctx.dex_mod))
                if ctx.shield_acp:
                    parts.append(("shield check penalty (finesse)", ctx.shield_acp))
            else:
                parts.append(("str", ctx.str_mod))
        else:
            parts.append(("dex", ctx.dex_mod))
        parts.append(("size", ctx.size.modifier))
        if w.key in ctx.focus:
            parts.append(("weapon focus", ctx.focus_bonus))
        if w.key in ctx.greater_focus:
            parts.append(("greater weapon focus", int(feat_table()["greater-weapon-focus"]["attack"])))
        if entry.enhancement:
            parts.append(("enhancement", entry.enhancement))
        elif entry.masterwork:
            parts.append(("masterwork", 1))
        proficient = entry.proficient if entry.proficient is not None else _proficient(src, w)
        if w.improvised:      # improvised weapons count as nonproficient (RULES §3.1)
            parts.append(("improvised", combat_modifier("attack", "nonproficient")))
        elif not proficient:
            parts.append(("nonproficient", combat_modifier("attack", "nonproficient")))
        steps = abs(int(w.size) - int(ctx.size))
        if steps:
            parts.append(("inappropriate size", stat_rule("inappropriate_size") * steps))
        if mode == "ranged" and thrown:
            racial = int(ctx.race.get("attack_with", {}).get("thrown", 0))
            if racial:
                parts.append(("racial (thrown)", racial))
        if w.key == "sling":
            racial = int(ctx.race.get("attack_with", {}).get("sling", 0))
            if racial:
                parts.append(("racial (sling)", racial))
        if ctx.armor_attack:
            parts.append(("armor nonproficiency", ctx.armor_attack))
        if ctx.tower:
            parts.append(("tower shield", ctx.tower))
        bonus = sum(v for _, v in parts)

        # damage (RULES §3.1)
        if mode == "melee":
            if entry.grip == "off-hand":
                mult = 0.5
            elif handed == 3 or (entry.grip == "two-hands" and handed == 2 and not w.no_two_handed_str):
                mult = 1.5
            else:
                mult = 1.0
            s = _str_bonus(ctx.str_mod, mult)
        elif thrown or w.strength == "full":
            s = ctx.str_mod
        elif w.strength == "penalty":
            s = min(0, ctx.str_mod)
        elif w.strength == "composite":
            s = min(ctx.str_mod, entry.composite_rating) if ctx.str_mod > 0 else ctx.str_mod
        else:
            s = 0
        if s:
            dmg_parts.append(("str", s))
        if mode == "melee" and w.key in ctx.spec:
            dmg_parts.append(("weapon specialization", ctx.spec_bonus))
        if entry.enhancement:
            dmg_parts.append(("enhancement", entry.enhancement))
        base = damage_for(w)
        damage = base.plus(sum(v for _, v in dmg_parts))
        extra: list[tuple[Dice, str]] = [(e.dice, e.energy) for e in entry.abilities]
        if w.fire_rider is not None:       # lit torch: +1 fire however it is used (RULES §3.5)
            extra.append((w.fire_rider, "fire"))
        threat = w.crit_threat
        if w.improvised:
            threat = combat_modifier("critical", "improvised_threat")
        elif w.key in ctx.crit:
            threat = 21 - 2 * (21 - threat)
        name = f"{w.key} (thrown)" if (thrown and not w.ranged) else w.key
        reach = 0.0
        if mode == "melee":
            reach = ctx.reach * (2 if w.reach else 1)
        out.append(Attack(
            name=name, kind="weapon", mode=mode, thrown=thrown, weapon=w, count=1, primary=True,
            bonus=bonus, bonuses=_iteratives(bonus, ctx.bab), bonus_parts=tuple(parts), damage=damage,
            damage_parts=tuple(dmg_parts),
            extra_damage=tuple(extra), crit_threat=threat, crit_multiplier=w.crit_multiplier,
            damage_types=w.damage_types, types_join=w.types_join,
            range_ft=(10 if (thrown and w.improvised) else w.range_ft) if mode == "ranged" else 0,
            reach_ft=reach, effective_index=effective_index(w, ctx.size, ranged=(mode == "ranged")),
            crossbow=w.crossbow, nonlethal=w.nonlethal, riders=entry.riders,
        ))
    return out


def _natural_attack(ctx: AttackContext, n: NaturalEntry, *, primary: bool, sole: bool) -> Attack:
    w = natural_weapon(n.kind, n.damage, size=ctx.size, crit=n.crit)
    parts: list[tuple[str, int]] = [("base attack", ctx.bab)]
    if ctx.finesse and ctx.dex_mod > ctx.str_mod:
        parts.append(("dex (weapon finesse)", ctx.dex_mod))
    else:
        parts.append(("str", ctx.str_mod))
    parts.append(("size", ctx.size.modifier))
    if n.kind in ctx.focus or n.name in ctx.focus:
        parts.append(("weapon focus", ctx.focus_bonus))
    if not primary:
        parts.append(("secondary natural attack", ctx.secondary_natural))
    bonus = sum(v for _, v in parts)
    mult = 0.5 if not primary else (1.5 if sole else 1.0)
    s = _str_bonus(ctx.str_mod, mult)
    dmg_parts = (("str", s),) if s else ()
    threat = w.crit_threat
    if n.kind in ctx.crit:
        threat = 21 - 2 * (21 - threat)
    return Attack(
        name=n.name, kind="natural", mode="melee", thrown=False, weapon=w, count=n.count, primary=primary,
        bonus=bonus, bonuses=(bonus,) * n.count, bonus_parts=tuple(parts), damage=n.damage.plus(s),
        damage_parts=dmg_parts, crit_threat=threat, crit_multiplier=w.crit_multiplier,
        damage_types=w.damage_types, types_join=w.types_join, effective_index=1,
        reach_ft=ctx.reach if n.reach is None else n.reach, extra_damage=tuple(n.extra),
        riders=n.riders, touch=n.kind == "touch",      # a touch natural attack (rust monster antennae)
    )


def web_attack(ctx: AttackContext, range_ft: int) -> Attack:
    """A monstrous spider's thrown web (SRD Vermin, Web): a ranged touch attack like a net (BAB +
    Dex + size), range increment 10 ft up to 50 ft; no damage, it entangles (sim.engine.specials)."""
    parts = (("base attack", ctx.bab), ("dex", ctx.dex_mod), ("size", ctx.size.modifier))
    bonus = sum(v for _, v in parts)
    return Attack(name="web", kind="special", mode="ranged", thrown=True, weapon=None, count=1, primary=True,
                  bonus=bonus, bonuses=(bonus,), bonus_parts=parts, damage=Dice(0, 0, 0), damage_parts=(),
                  range_ft=10 if range_ft >= 10 else range_ft, effective_index=1, riders=("web",), touch=True)


def strand_attack(ctx: AttackContext, range_ft: int) -> Attack:
    """A roper's strand (SRD Roper, Strands): a ranged touch attack (BAB + Dex + size, + Weapon
    Focus (strand)) that strikes up to ``range_ft`` away with no range increment; no damage, it
    sticks (sim.engine.strands) and saps Strength (the weakness rider)."""
    parts = [("base attack", ctx.bab), ("dex", ctx.dex_mod), ("size", ctx.size.modifier)]
    if "strand" in ctx.focus:
        parts.append(("weapon focus", ctx.focus_bonus))
    bonus = sum(v for _, v in parts)
    riders = tuple(r.key for r in ctx.src.riders if r.kind == "weakness")
    return Attack(name="strand", kind="special", mode="ranged", thrown=False, weapon=None, count=1, primary=True,
                  bonus=bonus, bonuses=(bonus,), bonus_parts=tuple(parts), damage=Dice(0, 0, 0), damage_parts=(),
                  range_ft=range_ft, effective_index=1, riders=("strand",) + riders, touch=True)


def attacks_of(src: Source, ab: Abilities, bab: int, swarm: SwarmStats | None):
    """Every single attack option and the full attack routines (the file's ``full_attack`` or
    one routine per weapon, then all natural attacks, then the swarm)."""
    ctx = AttackContext(src, ab, bab)
    single: list[Attack] = []
    by_name: dict[str, Attack] = {}
    for entry in src.weapons:
        for a in weapon_attacks(ctx, entry):
            if a.name not in by_name:
                single.append(a)
                by_name[a.name] = a
    sole = len(src.naturals) == 1 and src.naturals[0].count == 1
    naturals_by_name = {n.name: n for n in src.naturals}
    for n in src.naturals:
        a = _natural_attack(ctx, n, primary=n.primary, sole=sole)
        single.append(a)
        by_name[n.name] = a
    web = next((r for r in src.riders if r.kind == "web"), None)
    if web is not None:
        a = web_attack(ctx, web.range_ft)
        single.append(a)
        by_name[a.name] = a
    strand = next((r for r in src.riders if r.kind == "strand"), None)
    if strand is not None:
        a = strand_attack(ctx, strand.range_ft)
        single.append(a)
        by_name[a.name] = a
    if swarm is not None:
        a = Attack(name="swarm", kind="swarm", mode="swarm", thrown=False, weapon=None, count=1, primary=True,
                   bonus=None, bonuses=(), bonus_parts=(), damage=swarm.damage, damage_parts=(),
                   reach_ft=0.0, effective_index=None, riders=swarm.riders)
        single.append(a)
        by_name["swarm"] = a

    # full attack routines
    if src.full_attack is not None:
        routines_ids = src.full_attack
    else:
        routines_ids = tuple((a.name,) for a in single if a.kind == "weapon")
        if src.naturals:
            routines_ids += (tuple(n.name for n in src.naturals),)
        if swarm is not None:
            routines_ids += (("swarm",),)
    routines: list[tuple[Attack, ...]] = []
    for r_i, raw_ids in enumerate(routines_ids):
        ids: list[tuple[str, int | None]] = []
        for rid in raw_ids:
            m = _ROUTINE_ID.match(rid)
            ids.append((m.group(1), int(m.group(2)) if m.group(2) else None))
        unknown = [i for i, _ in ids if i not in by_name]
        if unknown:
            raise DataError(f"{src.path}: full_attack routine {r_i + 1}: unknown attack(s) {unknown}; "
                            f"the attacks are {', '.join(by_name)}")
        with_weapon = any(by_name[i].kind == "weapon" and by_name[i].mode == "melee" for i, _ in ids)
        routine = []
        for i, count in ids:
            a = by_name[i]
            if a.kind == "natural":
                n = naturals_by_name[i]
                if count is not None:
                    n = dataclasses.replace(n, count=count)
                # natural attacks made alongside a manufactured weapon are secondary (SRD Combat)
                primary = n.primary and not with_weapon
                routine.append(_natural_attack(ctx, n, primary=primary, sole=sole and not with_weapon))
            else:
                routine.append(a)
        routines.append(tuple(routine))
    return tuple(single), tuple(routines)


_ROUTINE_ID = re.compile(r"^\s*(.*?)(?:\s+x(\d+))?\s*$")
