"""Deriving a :class:`~.types.StatBlock` from a :class:`~.types.Source` (pure): hit points, saves,
AC, initiative, grapple, speed in armor, skills, swarm facts, rider DCs, spellcasting, the PC
checks, and the comparison with the printed values (book values replace derived ones on request).
Attacks are in :mod:`.attacks`.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any, Mapping

from sim.base.errors import DataError
from sim.rules.bodies import body_for, swarm_body
from sim.rules.dice import Dice
from sim.rules.statblocks.attacks import attacks_of
from sim.rules.statblocks.printed import disagreements
from sim.rules.statblocks.specials import HD_FRACTIONS
from sim.rules.statblocks.tables import (
    ability_mod,
    base_attack,
    base_save,
    bonus_spells,
    class_table,
    domain_table,
    feat_table,
    feats_with,
    natural_reach,
    race_table,
    skill_total,
    spell_table,
    stat_rule,
    swarm_count,
    swarm_damage,
    swarm_rules,
    type_table,
)
from sim.rules.statblocks.types import (
    SAVE_ABILITY,
    Abilities,
    Aura,
    Saves,
    Source,
    Spellcasting,
    StatBlock,
    SwarmStats,
    rider_from_spec,
)
from sim.rules.weapons import combat_modifier, reduced_speed
from sim.rules.weapons import gear as gear_item


def _progressions(src: Source) -> list[tuple[int, str, tuple[str, ...], int, str]]:
    """(hit die, BAB rule, good saves, HD, label) for racial HD and each class."""
    out = []
    racial = HD_FRACTIONS[src.hd_fraction] if src.hd_fraction else src.racial_hd
    if racial:
        t = type_table()[src.type]
        good = src.good_saves if src.good_saves is not None else tuple(t["good_saves"])
        out.append((int(t["hit_die"]), t["bab"], good, racial, src.type))
    for cls, lvl in src.levels:
        c = class_table()[cls]
        out.append((int(c["hit_die"]), c["bab"], tuple(c["good_saves"]), lvl, cls))
    return out


def _feat_count(src: Source, key: str) -> int:
    return sum(1 for f in src.feats if f.key == key)


def _hit_points(src: Source, progs, con_mod: int) -> tuple[int, str]:
    hd = sum(p[3] for p in progs)
    toughness = _feat_count(src, "toughness") * int(feat_table()["toughness"]["hp"])
    if src.hp_rule == "pc":
        total = 0
        first = True
        for die, _, _, n, _ in progs:
            for _ in range(n):
                roll = die if first else die // 2 + 1
                first = False
                total += max(1, roll + con_mod)
        hp = total + toughness
    else:
        half = (lambda die: Fraction(die + 1, 2)) if src.hd_fraction else (lambda die: (die + 1) / 2)
        avg = sum(n * half(die) for die, _, _, n, _ in progs)     # exact for "1/4" and "1/2" HD
        hp = max(max(1, math.floor(hd)), math.floor(avg + con_mod * hd + toughness))
    bonus = math.floor(con_mod * hd) + toughness
    dice_parts = [f"{n}d{die}" for die, _, _, n, _ in progs]   # "1/2d8": less than one Hit Die
    text = " plus ".join(dice_parts)
    if bonus > 0:
        text += f"+{bonus}"
    elif bonus < 0:
        text += f"-{-bonus}"
    return hp, text


def _armor_check_penalty(src: Source) -> int:
    return sum(p.effective_check_penalty for p in (src.armor, src.shield) if p is not None)


def _rider_dc(src: Source, ab: Abilities, hd: int, key: str, kind: str, dc_ability: str | None,
              *, fixed: int | None = None, bonus: int = 0) -> int | None:
    if fixed is not None:
        return fixed        # printed as a constant (drow sleep poison)
    if dc_ability is None:
        return None
    dc = stat_rule("ability_dc_base") + int(hd // 2) + ab.mod(dc_ability) + bonus
    focus = feats_with(src, "ability-focus")
    if key in focus or kind in focus:
        dc += int(feat_table()["ability-focus"]["dc"])
    return dc


def _spellcasting(src: Source, ab: Abilities) -> Spellcasting | None:
    casters = [(c, l) for c, l in src.levels if "casting" in class_table()[c]]
    if not casters:
        return None
    cls, lvl = casters[0]
    row = class_table()[cls]
    table = row["spells_per_day"]
    if lvl > len(table):
        raise DataError(f"{src.path}: [levels] {cls}: spells per day are tabulated for levels 1-{len(table)} "
                        "(RULES §8)")
    base = [int(x) for x in table[lvl - 1]]
    if not base:
        return None         # a ranger below 4th level casts no spells (SRD Ranger)
    mod = ab.mod(row["casting"])
    slots = tuple(n + bonus_spells(mod, l) for l, n in enumerate(base))
    domain_slots: tuple[int, ...] = tuple(0 if l == 0 else 1 for l in range(len(base))) if row.get("domains") else ()
    return Spellcasting(
        cls=cls, ability=row["casting"], caster_level=lvl // 2 if row.get("caster_level") == "half" else lvl,
        slots=slots, domain_slots=domain_slots,
        prepared=tuple(dict(src.prepared).get(l, ()) for l in range(len(base))),
        domain_prepared=tuple(dict(src.domain_prepared).get(l) for l in range(len(base))) if domain_slots else (),
        domains=src.domains, ability_mod=mod, spontaneous=bool(row.get("spontaneous", False)),
    )


def _check_pc(src: Source, ab: Abilities, spells: Spellcasting | None, problems: list[str]) -> None:
    """PC-only checks: feat count, skill ranks and points, prepared spells (all problems collected)."""
    where = src.path
    total = sum(l for _, l in src.levels)
    race = race_table()[src.race] if src.race else {}
    # feats: 1 at 1st level and every 3 levels, + race bonus feat, + class bonus feats
    allowed = 1 + total // 3 + int(race.get("bonus_feat", 0))
    for cls, lvl in src.levels:
        allowed += sum(1 for x in class_table()[cls]["bonus_feat_levels"] if x <= lvl)
    if len(src.feats) != allowed:
        problems.append(f"{where}: feats: lists {len(src.feats)} feats, a level-{total} {src.race} "
                        f"{'/'.join(c for c, _ in src.levels)} has {allowed}; add or remove feats")
    # skill ranks: max ranks, and points spent <= points available
    class_skills: set[str] = set()
    for cls, _ in src.levels:
        class_skills |= set(class_table()[cls]["class_skills"])
    spent = 0.0
    for skill, ranks in src.skills:
        cap = total + 3 if skill in class_skills else (total + 3) / 2
        if ranks > cap:
            kind = "class" if skill in class_skills else "cross-class"
            problems.append(f"{where}: [skills] {skill}: {ranks:g} ranks is over the maximum of {cap:g} for a "
                            f"{kind} skill at level {total}")
        spent += ranks if skill in class_skills else ranks * 2
    # skill points level by level with the Int of that level (increases at 4, 8, ...)
    available = 0
    base_int = (src.base_abilities.int if src.base_abilities else ab.int) or 10
    int_adj = int(race.get("abilities", {}).get("int", 0))
    level_no = 0
    for cls, lvl in src.levels:
        per = int(class_table()[cls]["skill_points"])
        for _ in range(lvl):
            level_no += 1
            raised = sum(1 for i, a in enumerate(src.ability_increases) if a == "int" and 4 * (i + 1) <= level_no)
            pts = max(1, per + ability_mod(base_int + int_adj + raised)) + int(race.get("bonus_skill_points", 0))
            available += pts * (4 if level_no == 1 else 1)
    if spent > available:
        problems.append(f"{where}: [skills]: spends {spent:g} skill points, a level-{total} character "
                        f"has {available}; lower some ranks (cross-class ranks cost 2 points)")
    if spells is not None:
        _check_spells(src, spells, problems)
    elif src.prepared or src.domain_prepared:
        problems.append(f"{where}: [spells]: this character casts no spells; remove [spells]")


def _check_spells(src: Source, sp: Spellcasting, problems: list[str]) -> None:
    where = src.path
    spells = spell_table()
    row = class_table()[sp.cls]
    if sp.spontaneous != src.spells_known:
        want, other = ("known", "prepared") if sp.spontaneous else ("prepared", "known")
        problems.append(f"{where}: [spells.{other}]: a {sp.cls} lists its spells as [spells.{want}]")
        return
    list_cls = row.get("spell_list", sp.cls)
    caps = row["spells_known"][sp.caster_level - 1] if sp.spontaneous else None
    for lvl, names in src.prepared:
        if caps is not None:
            if lvl >= len(caps):
                problems.append(f"{where}: [spells.known] {lvl}: a level-{sp.caster_level} {sp.cls} knows spells "
                                f"up to level {len(caps) - 1}")
                continue
            if len(names) > caps[lvl] or len(set(names)) != len(names):
                problems.append(f"{where}: [spells.known] {lvl}: {len(names)} spells listed, a level-"
                                f"{sp.caster_level} {sp.cls} knows {caps[lvl]} different ones (SRD Sorcerer)")
            for n in names:
                spell_lvl = spells[n]["levels"].get(list_cls)
                if spell_lvl is None or spell_lvl != lvl:
                    problems.append(f"{where}: [spells.known] {lvl}: {n} is not a level-{lvl} {sp.cls} spell")
            continue
        if lvl > sp.max_level:
            problems.append(f"{where}: [spells.prepared] {lvl}: a level-{sp.caster_level} {sp.cls} casts spells "
                            f"up to level {sp.max_level}")
            continue
        if len(names) > sp.slots[lvl]:
            problems.append(f"{where}: [spells.prepared] {lvl}: {len(names)} spells prepared, "
                            f"{sp.slots[lvl]} slots (RULES §8 with bonus spells); remove some")
        for n in names:
            spell_lvl = spells[n]["levels"].get(sp.cls)
            if spell_lvl is None:
                problems.append(f"{where}: [spells.prepared] {lvl}: {n} is not a {sp.cls} spell")
            elif spell_lvl > lvl:
                problems.append(f"{where}: [spells.prepared] {lvl}: {n} is a level-{spell_lvl} {sp.cls} spell")
    if sp.domain_slots:
        want = class_table()[sp.cls]["domains"]
        if len(src.domains) != want:
            problems.append(f"{where}: [spells] domains: a {sp.cls} has {want} domains, the file lists "
                            f"{len(src.domains)}")
        for lvl, n in src.domain_prepared:
            if lvl < 1 or lvl > sp.max_level:
                problems.append(f"{where}: [spells.domain] {lvl}: no domain slot of that level")
                continue
            ok = any(n in domain_table()[d]["spells"][:lvl] for d in src.domains if d in domain_table())
            if not ok:
                problems.append(f"{where}: [spells.domain] {lvl}: {n} is not a domain spell of level <= {lvl} "
                                f"of {', '.join(src.domains)}")


def derive(source: Source, *, book_values: frozenset[str] | None = None) -> StatBlock:
    """Compute every derived statistic of ``source`` (pure; RULES sections cited inline).

    ``book_values`` (a set of :data:`BOOK_FIELDS`; None = the file's own ``book_values``) replaces
    those derived fields by the printed ones, where the file prints them. The sections below each
    return the :class:`StatBlock` fields they own; a file's problems are raised together.
    """
    src = source
    book = src.book_values if book_values is None else book_values
    ab = src.abilities
    progs = _progressions(src)
    hd = sum(p[3] for p in progs)
    race = race_table()[src.race] if src.race else {}
    problems: list[str] = []
    hp, hd_text = _hit_points(src, progs, ab.mod("con"))
    bab = int(sum(base_attack(rule, n) for _, rule, _, n, _ in progs))
    hd = max(1, int(hd)) if src.hd_fraction else int(hd)    # less than one HD counts as 1 HD in play
    b: dict[str, Any] = {"hit_dice": hd, "hit_dice_text": hd_text, "hp": hp, "bab": bab,
                         "saves": _saves(src, progs, race), "features": _features(src)}
    b.update(_armor_class(src, b["features"]))
    b.update(_movement_and_skills(src, bab, race))
    b["swarm"] = _swarm_stats(src, hd)
    try:
        b["attacks"], b["full_attacks"] = attacks_of(src, ab, bab, b["swarm"])
    except DataError as exc:
        problems.extend(exc.problems)
        b["attacks"], b["full_attacks"] = (), ()
    b.update(_riders_and_auras(src, hd))
    b.update(_body_and_reach(src, b["swarm"], race))
    b.update(_class_features(src, problems))
    if problems:
        raise DataError.collect(problems)
    gear_items = tuple(gear_item(k) for k, n in src.gear if n > 0)
    b["light_sources"] = tuple(g for g in gear_items if g.is_light_source)
    b["disagreements"] = tuple(disagreements(src.printed, _derived_scalars(b), b["attacks"], b["full_attacks"],
                                             dict(src.decided)))
    applied = frozenset(k for k in book if k in src.printed)
    if applied:
        _apply_book_values(b, dict(src.printed.values), applied)
    return StatBlock(
        key=src.key, name=src.name, kind=src.kind, size=src.size, type=src.type, subtypes=src.subtypes,
        race=src.race, levels=src.levels, abilities=ab, armor=src.armor, shield=src.shield, feats=src.feats,
        senses=src.senses, defenses=_class_dr(src), gear=src.gear, conditional=_conditional(race),
        special_attacks=src.special_attacks, book_values=applied, printed=src.printed, source=src,
        spell_like=tuple(dataclasses.replace(s, dc=10 + s.level + ab.mod("cha")) for s in src.spell_like), **b,
    )


def _saves(src: Source, progs, race: Mapping[str, Any]) -> Saves:
    """Base saves of each progression + ability modifier + feats + race."""
    save_vals = {}
    for s, abil in SAVE_ABILITY.items():
        v = sum(base_save(s in good, n) for _, _, good, n, _ in progs) + src.abilities.mod(abil)
        for f in src.feats:
            v += int(feat_table()[f.key].get(s, 0))
        v += int(race.get("saves", 0)) + src.save_bonus
        v += src.resistance       # a cloak of resistance: resistance bonus on all saves (SRD Magic Items)
        save_vals[s] = int(v)
    return Saves(**save_vals)


def _armor_class(src: Source, features: tuple[str, ...]) -> dict[str, Any]:
    """SRD Combat: 10 + armor + shield + Dex (capped by the armor) + size + natural + deflection +
    dodge; touch without armor, shield and natural; flat-footed without Dex (if positive) and dodge,
    unless uncanny dodge. {ac, touch_ac, flat_footed_ac, ac_parts, max_dex_bonus}."""
    base = combat_modifier("ac", "base")
    dex = src.abilities.mod("dex")
    caps = [p.max_dex for p in (src.armor, src.shield) if p is not None and p.max_dex is not None]
    max_dex = min(caps) if caps else None
    dex_ac = min(dex, max_dex) if max_dex is not None else dex
    dodge = sum(int(feat_table()[f.key].get("dodge_ac", 0)) for f in src.feats) + src.dodge_bonus
    parts: list[tuple[str, int]] = [("base", base)]
    if src.size.modifier:
        parts.append(("size", src.size.modifier))
    if dex_ac:
        parts.append(("dex", dex_ac))
    if src.armor is not None:
        parts.append(("armor", src.armor.total_bonus))
    if src.shield is not None:
        parts.append(("shield", src.shield.total_bonus))
    if src.natural_armor:
        parts.append(("natural", src.natural_armor))
    if src.deflection:
        parts.append(("deflection", src.deflection))
    if dodge:
        parts.append(("dodge", dodge))
    ac = sum(v for _, v in parts)
    touch = base + src.size.modifier + dex_ac + src.deflection + dodge
    flat = ac if "uncanny-dodge" in features else ac - max(dex_ac, 0) - dodge
    return {"ac": ac, "touch_ac": touch, "flat_footed_ac": flat, "ac_parts": tuple(parts), "max_dex_bonus": max_dex}


def _movement_and_skills(src: Source, bab: int, race: Mapping[str, Any]) -> dict[str, Any]:
    """Initiative, grapple, speed in armor (RULES §6.1), armor check penalty, Escape Artist and the
    other skills."""
    ab = src.abilities
    initiative = ab.mod("dex") + sum(int(feat_table()[f.key].get("initiative", 0)) for f in src.feats)
    # grapple modifier: BAB + Str + the size's grapple modifier (RULES §1.1), + Improved Grapple's +4 and a
    # racial bonus (the choker's +4, ``grapple_bonus``); swarms cannot grapple (§4.5)
    grapple = None if src.swarm is not None else (
        bab + ab.mod("str") + src.size.grapple + src.grapple_bonus
        + sum(int(feat_table()[f.key].get("grapple", 0)) for f in src.feats))
    land = src.speed.land
    fast = max((int(class_table()[c].get("fast_movement_ft", 0)) for c, _ in src.levels), default=0)
    if fast and not (src.armor is not None and src.armor.kind == "heavy"):
        land += fast                           # barbarian fast movement, before armor (SRD Barbarian)
    heavy = src.armor is not None and src.armor.kind in ("medium", "heavy")
    dwarf = "dwarf" in src.subtypes     # dwarf traits (duergar too): armor never slows them
    if heavy and not race.get("armor_speed_unaffected", False) and not dwarf:
        land = reduced_speed(src.speed.land)   # RULES §6.1 (dwarves unaffected)
    acp = _armor_check_penalty(src)
    escape = skill_total(src, ab, "escape_artist", acp)   # RULES §2.4: Dex + ranks + ACP (+2 Agile)
    skill_names = [s for s, _ in src.skills]
    if "escape_artist" not in skill_names:
        skill_names.append("escape_artist")
    return {
        "initiative": initiative, "grapple": grapple, "speed": dataclasses.replace(src.speed, land=land),
        "base_land_speed": src.speed.land + fast, "armor_check_penalty": acp, "escape_artist": escape,
        "skills": tuple((s, skill_total(src, ab, s, acp)) for s in skill_names),
    }


def _swarm_stats(src: Source, hd: int) -> SwarmStats | None:
    """RULES §4.1-4.5: count, damage by HD, weapon damage rule, distraction DC."""
    if src.swarm is None:
        return None
    sw = src.swarm
    rule = sw.weapon_damage or swarm_rules()["weapon_damage"][sw.component.key]
    return SwarmStats(
        component=sw.component, flying=sw.flying, count=swarm_count(sw.component, sw.flying),
        damage=swarm_damage(hd), weapon_damage=rule,
        distraction_dc=int(swarm_rules()["distraction_base"]) + hd // 2 + src.abilities.mod("con"),
        riders=sw.riders, aligned=sw.aligned, hive_mind=sw.hive_mind,
    )


def _riders_and_auras(src: Source, hd: int) -> dict[str, Any]:
    """Poisons, diseases, woundings (RULES §4.9) and auras, with their save DCs."""
    ab = src.abilities
    riders = tuple(
        rider_from_spec(r, _rider_dc(src, ab, hd, r.key, r.kind, r.dc_ability, fixed=r.dc_fixed, bonus=r.dc_bonus))
        for r in src.riders
    )
    auras = tuple(Aura(a.key, a.save, _rider_dc(src, ab, hd, a.key, "aura", a.dc_ability) or 0, a.radius_ft,
                       a.effect, a.duration_rounds) for a in src.auras)
    return {"riders": riders, "auras": auras}


def _body_and_reach(src: Source, swarm: SwarmStats | None, race: Mapping[str, Any]) -> dict[str, Any]:
    """The body (RULES §1.2; a PC's height from its race and sex; swarms §7.24) and natural reach."""
    over = dict(src.body_overrides)
    if swarm is not None:
        body = swarm_body(swarm.component)
    else:
        if "height" not in over and src.race and src.sex:
            over["height"] = race["height_in"][src.sex] / 12.0
        over.pop("reach", None)
        body = body_for(src.size, form=src.form, **over)
    reach = 0.0 if swarm is not None else natural_reach(src)
    return {"body": body, "reach_ft": reach}


def _class_features(src: Source, problems: list[str]) -> dict[str, Any]:
    """Sneak attack dice, spellcasting, and the PC-only checks (their problems into ``problems``)."""
    sneak_dice = sum(int(class_table()[c]["sneak_attack_dice"][l - 1]) for c, l in src.levels
                     if "sneak_attack_dice" in class_table()[c])     # rogue: +1d6 per odd level
    try:
        spells = _spellcasting(src, src.abilities)
    except DataError as exc:
        problems.extend(exc.problems)
        spells = None
    if src.kind == "pc":
        _check_pc(src, src.abilities, spells, problems)
    return {"sneak_attack": Dice(sneak_dice, 6) if sneak_dice else None, "spells": spells,
            "favored_enemy": _favored_enemy(src, problems)}


def _favored_enemy(src: Source, problems: list[str]) -> tuple[tuple[str, int], ...]:
    """SRD Ranger: a favored enemy at 1st, 5th, 10th...; +2 damage each, and each new one raises one
    bonus by 2 (the first listed, for the templates): (type, bonus) in the order listed."""
    count = sum(1 for c, l in src.levels for x in class_table()[c].get("favored_enemies_at", ()) if x <= l)
    if len(src.favored_enemies) != count:
        problems.append(f"{src.path}: favored_enemies: lists {len(src.favored_enemies)}, a level-"
                        f"{sum(l for _, l in src.levels)} character has {count}; list exactly {count} creature types")
        return ()
    return tuple((t, 2 + (2 * (count - 1) if i == 0 else 0)) for i, t in enumerate(src.favored_enemies))


def _derived_scalars(b: Mapping[str, Any]) -> dict[str, Any]:
    """The derived values under the names of ``[printed]``, for the comparison."""
    saves, swarm = b["saves"], b["swarm"]
    out: dict[str, Any] = {
        "hit_dice": b["hit_dice_text"], "hp": b["hp"], "initiative": b["initiative"], "speed": b["speed"].land,
        "ac": b["ac"], "touch": b["touch_ac"], "flat_footed": b["flat_footed_ac"], "bab": b["bab"],
        "grapple": b["grapple"], "fort": saves.fort, "ref": saves.ref, "will": saves.will,
    }
    if swarm is not None:
        out["distraction_dc"] = swarm.distraction_dc
        out["weapon_damage"] = swarm.weapon_damage
    if b["riders"]:
        out["rider_dc"] = tuple(sorted((r.key, r.dc) for r in b["riders"] if r.dc is not None))
    if b["auras"]:
        out["aura_dc"] = tuple(sorted((a.key, a.dc) for a in b["auras"]))
    return out


_BOOK_SCALARS = {"hp": "hp", "hit_dice": "hit_dice_text", "initiative": "initiative", "ac": "ac",
                 "touch": "touch_ac", "flat_footed": "flat_footed_ac", "bab": "bab", "grapple": "grapple"}


def _apply_book_values(b: dict[str, Any], pv: Mapping[str, Any], applied: frozenset[str]) -> None:
    """Replace the derived fields in ``b`` by the printed values ``pv`` of the ``applied`` fields."""
    for printed_key, field_name in _BOOK_SCALARS.items():
        if printed_key in applied:
            b[field_name] = pv[printed_key]
    if applied & {"fort", "ref", "will"}:
        b["saves"] = Saves(*(pv[s] if s in applied else getattr(b["saves"], s) for s in ("fort", "ref", "will")))
    if "speed" in applied:
        b["speed"] = dataclasses.replace(b["speed"], land=pv["speed"])
    swarm = b["swarm"]
    if swarm is not None and applied & {"distraction_dc", "weapon_damage"}:
        b["swarm"] = dataclasses.replace(
            swarm,
            distraction_dc=pv["distraction_dc"] if "distraction_dc" in applied else swarm.distraction_dc,
            weapon_damage=pv["weapon_damage"] if "weapon_damage" in applied else swarm.weapon_damage,
        )
    if "rider_dc" in applied:
        book_dc = dict(pv["rider_dc"])
        b["riders"] = tuple(dataclasses.replace(r, dc=book_dc.get(r.key, r.dc)) for r in b["riders"])
    if "aura_dc" in applied:
        book_dc = dict(pv["aura_dc"])
        b["auras"] = tuple(dataclasses.replace(a, dc=book_dc.get(a.key, a.dc)) for a in b["auras"])


def _conditional(race: Mapping[str, Any]) -> tuple[tuple[str, str, int], ...]:
    """Racial modifiers that apply only in some situations, for the combat engine:
    ("attack_vs", "orc", 1), ("dodge_vs", "giant", 4), ("save_vs", "poison", 2)..."""
    out = []
    for kind in ("attack_vs", "dodge_vs", "save_vs"):
        for target, value in race.get(kind, {}).items():
            out.append((kind, target, int(value)))
    if race.get("stability"):
        out.append(("stability", "bull_rush_trip", int(race["stability"])))
    return tuple(out)


def _class_dr(src: Source):
    """The stat block's defenses with a class's damage reduction x/- (barbarian 7th: 1/-, 10th: 2/-)
    where it is higher than the creature's own."""
    d = src.defenses
    amount = max((int(class_table()[c].get("damage_reduction", [0] * 20)[l - 1]) for c, l in src.levels), default=0)
    if amount <= d.damage_reduction:
        return d
    return dataclasses.replace(d, damage_reduction=amount, dr_bypass="-")


def _features(src: Source) -> tuple[str, ...]:
    out: list[str] = []
    for cls, lvl in src.levels:
        feats_by_level = class_table()[cls].get("features", {})
        for l in range(1, lvl + 1):
            out.extend(feats_by_level.get(str(l), ()))
    return tuple(out)
