"""Validating a stat block table (parsed TOML) into a :class:`~.types.Source`: every key is
checked, unknown keys and bad values become messages naming the file, the key and the fix, and
all of a file's problems are raised together (STYLE habit 8). No numbers are derived here.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Mapping

from sim.base.errors import DataError, shorten
from sim.rules.sizes import Size
from sim.rules.statblocks.check import (
    MAX_ABILITY,
    MAX_LENGTH_FT,
    MAX_LEVEL,
    MAX_RANKS,
    Check,
    close_names,
    get_bool,
    get_int,
    get_size,
    get_str,
    get_str_list,
    get_table,
    is_int,
    is_num,
    snake_key,
)
from sim.rules.statblocks.arms import attack_entries, check_natural_riders, check_weapon_riders
from sim.rules.statblocks.printed import parse_printed
from sim.rules.statblocks.riders import parse_riders
from sim.rules.statblocks.specials import (
    parse_hd_fraction,
    parse_save_bonus,
    parse_spell_like,
    parse_unmodelled,
)
from sim.rules.statblocks.tables import (
    class_table,
    domain_table,
    feat_table,
    race_table,
    skill_table,
    spell_table,
    type_table,
)
from sim.rules.statblocks.types import (
    ABILITIES,
    BOOK_FIELDS,
    KINDS,
    MANEUVERABILITY,
    SAVE_ABILITY,
    SCHEMA_VERSION,
    WEAPON_DAMAGE_RULES,
    Abilities,
    AuraSpec,
    Defenses,
    Feat,
    Senses,
    Source,
    Speeds,
    SwarmSpec,
)
from sim.rules.weapons import (
    ArmorPiece,
    natural_kinds,
    normalize_name,
    resolve_weapon_name,
)
from sim.rules.weapons import (
    armor as armor_piece,
)
from sim.rules.weapons import (
    gear as gear_item,
)
from sim.rules.weapons import (
    shield as shield_piece,
)

_TOP_KEYS = {
    "schema_version", "name", "kind", "size", "type", "subtypes", "race", "sex", "alignment", "cr",
    "racial_hd", "good_saves", "levels", "abilities", "ability_increases", "natural_armor", "deflection",
    "resistance", "favored_enemies",
    "armor", "shield", "feats", "skills", "weapon", "natural", "full_attack", "body", "speed", "senses",
    "defenses", "rider", "aura", "swarm", "gear", "spells", "book_values", "printed", "decided",
    "description", "hp_rule", "special_attacks",
    "unmodelled", "save_bonus", "dodge_bonus",     # bestiary (statblocks/specials.py)
    "grapple_bonus", "amorphous",                  # grapple
    "spell_like",                                  # spell-like abilities (docs/rules.md §8.5)
}

#: What a [defenses] split list may name (docs/rules.md §11.14): weapons of these damage types, or the energy.
SPLIT_BY = ("slashing", "piercing", "electricity")

_FEAT_RE = re.compile(r"^\s*([^()]+?)\s*(?:\((.*)\))?\s*$")


#: special attacks a Weapon Focus may name besides weapons and natural attacks (the roper's strand)
SPECIAL_FOCUS = ("strand",)


def parse_feat(text: str) -> Feat:
    """ "Weapon Focus (greatclub)" -> Feat("weapon-focus", "greatclub").

    >>> parse_feat("Weapon Focus (Longsword)"), parse_feat("Improved Initiative")
    (Feat(key='weapon-focus', param='longsword'), Feat(key='improved-initiative', param=None))
    """
    m = _FEAT_RE.match(str(text))
    if not m:
        raise DataError(f"bad feat {shorten(text)}: write it as \"Name\" or \"Name (parameter)\"")
    key = normalize_name(m.group(1))
    param = m.group(2).strip().lower() if m.group(2) else None
    return Feat(key, param or None)


def _parse_piece(chk: Check, value: Any, label: str, shield: bool) -> ArmorPiece | None:
    if value is None:
        return None
    lookup = shield_piece if shield else armor_piece
    if isinstance(value, str):
        name, mw, enh = value, False, 0
    elif isinstance(value, dict):
        name = value.get("name")
        mw = value.get("masterwork", False)
        enh = value.get("enhancement", 0)
        for k in value:
            if k not in ("name", "masterwork", "enhancement"):
                chk.bad(f"{label}.{k}", "unknown key; allowed: name, masterwork, enhancement")
        if not isinstance(name, str):
            chk.bad(label, "needs name = \"...\" (a key of weapons.toml)")
            return None
        if not isinstance(mw, bool) or not is_int(enh) or enh < 0:
            chk.bad(label, "masterwork must be true/false and enhancement a whole number >= 0")
            return None
    else:
        chk.bad(label, f"must be a name or {{ name = ..., masterwork = ..., enhancement = ... }}, got {shorten(value)}")
        return None
    try:
        return lookup(name, masterwork=mw, enhancement=enh)
    except DataError as exc:
        chk.bad(label, str(exc))
        return None


def parse_source(data: Mapping[str, Any], *, where: str, key: str) -> Source:
    """Validate a parsed stat block; every problem is collected into one :class:`DataError`.

    The sections below run in file order (the order the problems are listed in); each returns
    the :class:`Source` fields it owns.
    """
    chk = Check(where)
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: a stat block is a TOML table")
    name, kind = _header(chk, data, key)
    race_row, identity = _identity(chk, data, kind)
    hit_dice = _hit_dice(chk, data, kind)
    abilities = _abilities(chk, data, kind, hit_dice["levels"], race_row)
    armor = _armor(chk, data)
    feats = _feats(chk, data)
    _feat_prerequisites(chk, feats, abilities["abilities"])
    skills = _skills(chk, data)
    attacks = attack_entries(chk, data, identity["size"])
    body = _body(chk, data)
    speed = _parse_speed(chk, data, kind, race_row)
    senses = _parse_senses(chk, data, race_row)
    defenses = _parse_defenses(chk, data, race_row)
    riders = parse_riders(chk, data)
    auras = _parse_auras(chk, data)
    swarm = _parse_swarm(chk, data, identity["size"], identity["subtypes"], {r.key for r in riders})
    check_natural_riders(chk, attacks["naturals"], riders)
    check_weapon_riders(chk, attacks["weapons"], riders)
    gear = _gear(chk, data)
    domains, prepared, domain_prepared, known = _parse_spells(chk, data)
    book = _book_values(chk, data)
    printed = parse_printed(chk, data.get("printed", {}))
    decided = _decided(chk, data)
    hp_rule = _hp_rule(chk, data, kind)
    special_attacks = get_str_list(chk, data, "special_attacks", "special_attacks")
    unmodelled = parse_unmodelled(chk, data)
    spell_like = parse_spell_like(chk, data)
    save_bonus = parse_save_bonus(chk, data)
    dodge_bonus = get_int(chk, data, "dodge_bonus", "dodge_bonus", default=0, minimum=0, maximum=10) or 0
    grapple_bonus = get_int(chk, data, "grapple_bonus", "grapple_bonus", minimum=-20) if "grapple_bonus" in data else 0
    amorphous = get_bool(chk, data, "amorphous", "amorphous") if "amorphous" in data else False
    favored = get_str_list(chk, data, "favored_enemies", "favored_enemies")
    for f in favored:
        if f not in type_table():
            chk.bad("favored_enemies", f"unknown creature type {shorten(f)}; use one of {', '.join(sorted(type_table()))}")
    chk.raise_if_any()
    return Source(
        key=key, path=where, name=name, kind=kind, **identity, **hit_dice, **abilities, **armor,
        feats=feats, skills=skills, **attacks, **body, speed=speed, senses=senses, defenses=defenses,
        riders=tuple(riders), auras=tuple(auras), swarm=swarm, gear=gear, domains=domains, prepared=prepared,
        domain_prepared=domain_prepared, book_values=book, printed=printed, decided=decided, hp_rule=hp_rule,
        alignment=data.get("alignment"), cr=str(data["cr"]) if "cr" in data else None,
        special_attacks=special_attacks, unmodelled=unmodelled, save_bonus=save_bonus,
        dodge_bonus=dodge_bonus,
        grapple_bonus=int(grapple_bonus or 0), amorphous=bool(amorphous),
        favored_enemies=favored, spells_known=known, spell_like=spell_like,
    )


def _header(chk: Check, data: Mapping[str, Any], key: str) -> tuple[str, str]:
    """Unknown top-level keys, schema_version, name and kind."""
    for k in data:
        if k not in _TOP_KEYS:
            chk.bad(k, f"unknown key; a stat block has {', '.join(sorted(_TOP_KEYS))}")
    sv = data.get("schema_version")
    if sv is None:
        chk.bad("schema_version", f"missing; add schema_version = {SCHEMA_VERSION}")
    elif sv != SCHEMA_VERSION:
        chk.bad("schema_version", f"{shorten(sv)} is not supported; this cavesim reads schema_version = {SCHEMA_VERSION}")
    name = get_str(chk, data, "name", "name", required=True) or key
    kind = get_str(chk, data, "kind", "kind", required=True) or "monster"
    if kind not in KINDS:
        chk.bad("kind", f"must be \"pc\" or \"monster\", got {shorten(kind)}")
        kind = "monster"
    return name, kind


def _identity(chk: Check, data: Mapping[str, Any], kind: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the race's row of races.toml, {race, sex, size, type, subtypes}): a PC's from its race, a
    monster's from size and type."""
    race = sex = None
    race_row: dict[str, Any] = {}
    size: Size | None = None
    ctype = "humanoid"
    subtypes = get_str_list(chk, data, "subtypes", "subtypes")
    if kind == "pc":
        race = get_str(chk, data, "race", "race", required=True)
        if race is not None:
            races = race_table()
            rk = normalize_name(race)
            if rk not in races:
                chk.bad("race", f"unknown race {shorten(race)}: {close_names(rk, races)}")
                race = None
            else:
                race = rk
                race_row = races[rk]
                size = Size.parse(race_row["size"])
                ctype = race_row.get("type", "humanoid")
                subtypes = subtypes or tuple(race_row.get("subtypes", ()))
        sex = get_str(chk, data, "sex", "sex", default="male")
        if sex not in ("male", "female"):
            chk.bad("sex", f"must be \"male\" or \"female\", got {shorten(sex)}")
            sex = "male"
        if "size" in data:
            chk.bad("size", "a PC's size comes from its race; remove size")
    else:
        if "size" not in data:
            chk.bad("size", "missing; add size = \"medium\" (fine..colossal)")
        else:
            size = get_size(chk, data["size"], "size")
        t = get_str(chk, data, "type", "type", required=True)
        if t is not None:
            tk = snake_key(t)
            if tk not in type_table():
                chk.bad("type", f"unknown creature type {shorten(t)}: {close_names(tk, type_table())}")
            else:
                ctype = tk
    return race_row, {"race": race, "sex": sex, "size": Size.MEDIUM if size is None else size, "type": ctype,
                      "subtypes": tuple(subtypes)}


def _hit_dice(chk: Check, data: Mapping[str, Any], kind: str) -> dict[str, Any]:
    """Racial Hit Dice (with their good saves) and class levels: {racial_hd, good_saves, levels};
    less than one Hit Die ("1/4", "1/2") gives hd_fraction."""
    frac_hd, hd_fraction = parse_hd_fraction(chk, data)
    if frac_hd is not None:
        racial_hd = frac_hd
    else:
        racial_hd = get_int(chk, data, "racial_hd", "racial_hd", default=0, minimum=0) or 0
    good_saves = None
    if "good_saves" in data:
        gs = get_str_list(chk, data, "good_saves", "good_saves")
        bad_saves = [s for s in gs if s not in SAVE_ABILITY]
        if bad_saves:
            chk.bad("good_saves", f"unknown saves {bad_saves}; use fort, ref, will")
        good_saves = tuple(s for s in gs if s in SAVE_ABILITY)
    levels: list[tuple[str, int]] = []
    for cls, lvl in get_table(chk, data, "levels", "[levels]").items():
        ck = normalize_name(cls)
        if ck not in class_table():
            chk.bad(f"[levels] {cls}", f"unknown class: {close_names(ck, class_table())}")
            continue
        if not is_int(lvl) or not 1 <= lvl <= MAX_LEVEL:
            chk.bad(f"[levels] {cls}", f"must be a level from 1 to {MAX_LEVEL}, got {shorten(lvl)}")
            continue
        levels.append((ck, lvl))
    if racial_hd == 0 and not levels and hd_fraction is None:
        chk.bad("racial_hd", "no Hit Dice: give racial_hd = N (monsters) or [levels] class = N")
    if kind == "pc" and not levels:
        chk.bad("[levels]", "a PC needs class levels, e.g. [levels] fighter = 1")
    return {"racial_hd": racial_hd, "good_saves": good_saves, "levels": tuple(levels), "hd_fraction": hd_fraction}


def _abilities(chk: Check, data: Mapping[str, Any], kind: str, levels: tuple[tuple[str, int], ...],
               race_row: Mapping[str, Any]) -> dict[str, Any]:
    """Ability scores: {abilities, base_abilities, ability_increases}. A PC's file gives them before
    the racial adjustments and the level increases (one at 4th, 8th...), which are added here."""
    ab_raw = get_table(chk, data, "abilities", "[abilities]")
    if "abilities" not in data:
        chk.bad("[abilities]", "missing; add [abilities] with str, dex, con, int, wis, cha")
    scores: dict[str, int | None] = {}
    for a in ABILITIES:
        v = ab_raw.get(a)
        if a not in ab_raw:
            if "abilities" in data:
                chk.bad(f"[abilities] {a}", f"missing; add {a} = <score> (or \"-\" for none)")
            scores[a] = 10
        elif v == "-":
            scores[a] = None
        elif not is_int(v) or not 0 <= v <= MAX_ABILITY:
            chk.bad(f"[abilities] {a}", f"must be a score from 0 to {MAX_ABILITY} or \"-\", got {shorten(v)}")
            scores[a] = 10
        else:
            scores[a] = v
    for a in ab_raw:
        if a not in ABILITIES:
            chk.bad(f"[abilities] {a}", f"unknown ability; use {', '.join(ABILITIES)}")
    increases = get_str_list(chk, data, "ability_increases", "ability_increases")
    for inc in increases:
        if inc not in ABILITIES:
            chk.bad("ability_increases", f"unknown ability {shorten(inc)}; use {', '.join(ABILITIES)}")
    increases = tuple(i for i in increases if i in ABILITIES)
    base_abilities = Abilities(**scores)
    if kind != "pc":
        return {"abilities": base_abilities, "base_abilities": None, "ability_increases": increases}
    total_level = sum(l for _, l in levels)
    if len(increases) != total_level // 4:
        chk.bad("ability_increases", f"a level-{total_level} character raises {total_level // 4} "
                f"ability score(s) (one at 4th, 8th...), the file lists {len(increases)}")
    final = dict(scores)
    for a, adj in race_row.get("abilities", {}).items():
        if final[a] is not None:
            final[a] += int(adj)
    for a in increases:
        if final[a] is not None:
            final[a] += 1
    return {"abilities": Abilities(**final), "base_abilities": base_abilities, "ability_increases": increases}


def _armor(chk: Check, data: Mapping[str, Any]) -> dict[str, Any]:
    """{natural_armor, deflection, armor, shield, resistance (a cloak of resistance: +n on saves)}."""
    natural_armor = get_int(chk, data, "natural_armor", "natural_armor", default=0, minimum=0) or 0
    deflection = get_int(chk, data, "deflection", "deflection", default=0, minimum=0) or 0
    resistance = get_int(chk, data, "resistance", "resistance", default=0, minimum=0, maximum=5) or 0
    armor = _parse_piece(chk, data.get("armor"), "armor", shield=False)
    shield = _parse_piece(chk, data.get("shield"), "shield", shield=True)
    if armor is not None and armor.is_shield:
        chk.bad("armor", "is a shield; put it under shield")
    return {"natural_armor": natural_armor, "deflection": deflection, "armor": armor, "shield": shield,
            "resistance": resistance}


def _feats(chk: Check, data: Mapping[str, Any]) -> tuple[Feat, ...]:
    """The feats of classes.toml [feat], with their parameters (a weapon's canonical name)."""
    feats: list[Feat] = []
    for i, text in enumerate(get_str_list(chk, data, "feats", "feats")):
        try:
            f = parse_feat(text)
        except DataError as exc:
            chk.bad(f"feats[{i}]", str(exc))
            continue
        ftable = feat_table()
        if f.key not in ftable:
            chk.bad(f"feats[{i}]", f"unknown feat {shorten(text)}: {close_names(f.key, ftable)}")
            continue
        row = ftable[f.key]
        if row.get("parameter") and f.param is None:
            chk.bad(f"feats[{i}]", f"{shorten(text)} needs a parameter, e.g. \"{text} (longsword)\"")
            continue
        if row.get("parameter") == "weapon" and f.param is not None:
            if f.param not in natural_kinds() and f.param not in SPECIAL_FOCUS:
                try:
                    f = Feat(f.key, resolve_weapon_name(f.param))
                except DataError as exc:
                    chk.bad(f"feats[{i}]", str(exc))
                    continue
        if not row.get("repeatable") and f in feats:
            chk.bad(f"feats[{i}]", f"{shorten(text)} is listed twice and cannot be taken twice")
            continue
        feats.append(f)
    return tuple(feats)


_ABILITY_NAMES = {"str": "Str", "dex": "Dex", "con": "Con", "int": "Int", "wis": "Wis", "cha": "Cha"}


def _prerequisite_met(req: str, feat: Feat, feats: tuple[Feat, ...], abilities: Abilities | None) -> bool:
    """One prerequisite of classes.toml ``requires``: "dex 13", "dodge" or "weapon-focus (same)"."""
    head, _, rest = req.partition(" ")
    if head in _ABILITY_NAMES and rest.strip().isdigit():
        score = abilities.score(head) if abilities is not None else None
        return score is not None and score >= int(rest)
    if rest.strip() == "(same)":
        return Feat(head, feat.param) in feats
    return any(f.key == req for f in feats)


def _prerequisite_words(req: str, feat: Feat) -> str:
    head, _, rest = req.partition(" ")
    if head in _ABILITY_NAMES and rest.strip().isdigit():
        return f"{_ABILITY_NAMES[head]} {rest.strip()}"
    name = head.replace("-", " ").title()
    return f"{name} ({feat.param})" if rest.strip() == "(same)" else name


def _feat_prerequisites(chk: Check, feats: tuple[Feat, ...], abilities: Abilities | None) -> None:
    """Each feat's prerequisites (classes.toml ``requires`` / ``requires_any``; RULES §2.8 for
    Tunnelfighter: Dex 13 or Tunnelrunner). Ability scores are the final ones (race and level
    increases included)."""
    table = feat_table()
    for i, f in enumerate(feats):
        row = table.get(f.key, {})
        label = f"feats[{i}]"
        name = f.key.replace("-", " ").title() + (f" ({f.param})" if f.param else "")
        missing = [r for r in row.get("requires", ()) if not _prerequisite_met(r, f, feats, abilities)]
        if missing:
            need = " and ".join(_prerequisite_words(r, f) for r in missing)
            chk.bad(label, f"{name} needs {need} (its prerequisite); raise the score, add the feat, or drop {name}")
        anyof = row.get("requires_any", ())
        if anyof and not any(_prerequisite_met(r, f, feats, abilities) for r in anyof):
            need = " or ".join(_prerequisite_words(r, f) for r in anyof)
            chk.bad(label, f"{name} needs {need} (its prerequisite); raise the score, add the feat, or drop {name}")


def _skills(chk: Check, data: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    """Skill ranks (half ranks allowed: cross-class skills)."""
    skills: list[tuple[str, float]] = []
    for sk, ranks in get_table(chk, data, "skills", "[skills]").items():
        skk = snake_key(sk)
        if skk not in skill_table():
            chk.bad(f"[skills] {sk}", f"unknown skill: {close_names(skk, skill_table())}")
            continue
        if not is_num(ranks, MAX_RANKS) or ranks < 0 or (ranks * 2) != int(ranks * 2):
            chk.bad(f"[skills] {sk}", f"must be ranks from 0 to {MAX_RANKS} in steps of 0.5, got {shorten(ranks)}")
            continue
        skills.append((skk, float(ranks)))
    return tuple(skills)


def _body(chk: Check, data: Mapping[str, Any]) -> dict[str, Any]:
    """[body]: {form, body_overrides} (the lengths that replace the size's defaults, RULES §1.2)."""
    body_raw = get_table(chk, data, "body", "[body]")
    form = body_raw.get("form", "tall")
    if form not in ("tall", "long"):
        chk.bad("[body] form", f"must be \"tall\" or \"long\", got {shorten(form)}")
        form = "tall"
    overrides: list[tuple[str, float]] = []
    for k, v in body_raw.items():
        if k == "form":
            continue
        if k not in ("height", "head", "shoulders", "depth", "space", "reach"):
            chk.bad(f"[body] {k}", "unknown key; allowed: form, height, head, shoulders, depth, space, reach")
            continue
        if not is_num(v, MAX_LENGTH_FT) or v <= 0:
            chk.bad(f"[body] {k}", f"must be a length in feet > 0 and at most {MAX_LENGTH_FT}, got {shorten(v)}")
            continue
        overrides.append((k, float(v)))
    return {"form": form, "body_overrides": tuple(overrides)}


def _gear(chk: Check, data: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """[gear]: item = count, items of weapons.toml [gear]."""
    gear: list[tuple[str, int]] = []
    for item, count in get_table(chk, data, "gear", "[gear]").items():
        try:
            g = gear_item(item)
        except DataError as exc:
            chk.bad(f"[gear] {item}", str(exc))
            continue
        if not is_int(count) or count < 0:
            chk.bad(f"[gear] {item}", f"must be a count >= 0, got {shorten(count)}")
            continue
        gear.append((g.key, count))
    return tuple(gear)


def _book_values(chk: Check, data: Mapping[str, Any]) -> frozenset[str]:
    """book_values: true (every printed value), false, or a list of :data:`BOOK_FIELDS`."""
    bv = data.get("book_values", False)
    if bv is True:
        return frozenset(BOOK_FIELDS)
    if isinstance(bv, list) and all(isinstance(x, str) for x in bv):
        unknown = [x for x in bv if x not in BOOK_FIELDS]
        if unknown:
            chk.bad("book_values", f"unknown fields {unknown}; use true or a list of {', '.join(BOOK_FIELDS)}")
        return frozenset(x for x in bv if x in BOOK_FIELDS)
    if bv is not False:
        chk.bad("book_values", f"must be true, false or a list of field names, got {shorten(bv)}")
    return frozenset()


def _decided(chk: Check, data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """[decided]: field = the RULES item that decides against the printed value."""
    decided = []
    for k, v in get_table(chk, data, "decided", "[decided]").items():
        if not isinstance(v, str):
            chk.bad(f"[decided] {k}", "must be a string citing the RULES item")
            continue
        decided.append((k, v))
    return tuple(decided)


def _hp_rule(chk: Check, data: Mapping[str, Any], kind: str) -> str:
    hp_rule = data.get("hp_rule", "pc" if kind == "pc" else "average")
    if hp_rule not in ("pc", "average"):
        chk.bad("hp_rule", f"must be \"pc\" (max at 1st level, then average rounded up) or \"average\", got {shorten(hp_rule)}")
        hp_rule = "average"
    return hp_rule


def _parse_speed(chk: Check, data: Mapping[str, Any], kind: str, race_row: Mapping[str, Any]) -> Speeds:
    raw = get_table(chk, data, "speed", "[speed]")
    if kind == "pc" and "land" not in raw:
        land = int(race_row.get("speed", 30))
    else:
        land = get_int(chk, raw, "land", "[speed] land", default=None if kind == "monster" else 30, minimum=0,
                       maximum=MAX_LENGTH_FT)
        land = land if land is not None else 0
    vals = {}
    for k in ("climb", "swim", "burrow", "fly"):
        vals[k] = get_int(chk, raw, k, f"[speed] {k}", default=0, minimum=0, maximum=MAX_LENGTH_FT) or 0
    man = raw.get("maneuverability")
    if man is not None and man not in MANEUVERABILITY:
        chk.bad("[speed] maneuverability", f"must be one of {', '.join(MANEUVERABILITY)}, got {shorten(man)}")
        man = None
    if vals["fly"] and man is None:
        chk.bad("[speed] maneuverability", "a flier needs maneuverability = \"good\" (perfect, good, average, poor, clumsy)")
    for k in raw:
        if k not in ("land", "climb", "swim", "burrow", "fly", "maneuverability"):
            chk.bad(f"[speed] {k}", "unknown key; allowed: land, climb, swim, burrow, fly, maneuverability")
    return Speeds(land=land, maneuverability=man, **vals)


def _parse_senses(chk: Check, data: Mapping[str, Any], race_row: Mapping[str, Any]) -> Senses:
    raw = dict(race_row.get("senses", {}))
    raw.update(get_table(chk, data, "senses", "[senses]"))
    kw: dict[str, Any] = {}
    for f in dataclasses.fields(Senses):
        if f.name not in raw:
            continue
        v = raw[f.name]
        if f.type in ("bool", bool):
            if not isinstance(v, bool):
                chk.bad(f"[senses] {f.name}", f"must be true or false, got {shorten(v)}")
                continue
        elif not is_int(v) or v < 0:
            chk.bad(f"[senses] {f.name}", f"must be a range in feet >= 0, got {shorten(v)}")
            continue
        kw[f.name] = v
    for k in raw:
        if k not in {f.name for f in dataclasses.fields(Senses)}:
            chk.bad(f"[senses] {k}", "unknown sense; allowed: " + ", ".join(f.name for f in dataclasses.fields(Senses)))
    if kw.get("blind"):   # no sight at all: no eyes to see in the dark or dim light with, or to be dazzled
        for k in ("darkvision_ft", "low_light", "light_sensitivity", "light_blindness"):
            if kw.get(k):
                chk.bad(f"[senses] {k}", f"a blind creature (blind = true) sees nothing, so it has no {k}; "
                        "remove one of the two")
                kw.pop(k)
    return Senses(**kw)


def _parse_defenses(chk: Check, data: Mapping[str, Any], race_row: Mapping[str, Any]) -> Defenses:
    raw = get_table(chk, data, "defenses", "[defenses]")
    dr = raw.get("damage_reduction", {})
    amount, bypass = 0, None
    if dr:
        if not isinstance(dr, dict) or not is_int(dr.get("amount")) or not isinstance(dr.get("bypass"), str):
            chk.bad("[defenses] damage_reduction", "must be { amount = 10, bypass = \"magic\" }")
        else:
            amount, bypass = dr["amount"], dr["bypass"]
    resist = raw.get("resist", {})
    if not isinstance(resist, dict) or not all(is_int(v) and v > 0 for v in resist.values()):
        chk.bad("[defenses] resist", "must be a table such as { fire = 10 }")
        resist = {}
    regen = raw.get("regeneration", {})
    r_amount, r_by = 0, ()
    if regen:
        if not isinstance(regen, dict) or not is_int(regen.get("amount")):
            chk.bad("[defenses] regeneration", "must be { amount = 5, bypassed_by = [\"fire\", \"acid\"] }")
        else:
            r_amount = regen["amount"]
            r_by = tuple(regen.get("bypassed_by", ()))
    immune = list(race_row.get("immune", ()))
    immune += list(get_str_list(chk, raw, "immune", "[defenses] immune"))
    sr = get_int(chk, raw, "spell_resistance", "[defenses] spell_resistance", default=0, minimum=0, maximum=100) or 0
    split = tuple(get_str_list(chk, raw, "split", "[defenses] split"))
    for s in split:
        if s not in SPLIT_BY:
            chk.bad("[defenses] split", f"{s!r} cannot split a creature; allowed: {', '.join(SPLIT_BY)}")
    vulnerable = get_str_list(chk, raw, "vulnerable", "[defenses] vulnerable")
    for v in vulnerable:
        if v not in ("acid", "fire", "cold", "electricity", "sonic"):
            chk.bad("[defenses] vulnerable", f"an energy type (acid, fire, cold, electricity, sonic), got {shorten(v)}")
    for k in raw:
        if k not in ("damage_reduction", "resist", "regeneration", "immune", "spell_resistance", "split", "vulnerable"):
            chk.bad(f"[defenses] {k}", "unknown key; allowed: damage_reduction, resist, regeneration, immune, "
                    "spell_resistance, split, vulnerable")
    return Defenses(amount, bypass, tuple(sorted(resist.items())), r_amount, r_by, tuple(immune), sr,
                    tuple(s for s in split if s in SPLIT_BY), tuple(vulnerable))


def _parse_auras(chk: Check, data: Mapping[str, Any]) -> list[AuraSpec]:
    out: list[AuraSpec] = []
    raw = data.get("aura", [])
    if not isinstance(raw, list):
        chk.bad("[[aura]]", "write each aura as an [[aura]] table")
        return out
    for i, a in enumerate(raw):
        label = f"[[aura]] #{i + 1}"
        if not isinstance(a, dict):
            chk.bad(label, "must be a table")
            continue
        key = get_str(chk, a, "key", f"{label} key", required=True)
        save = a.get("save")
        dc_ab = a.get("dc_ability")
        if save not in SAVE_ABILITY or dc_ab not in ABILITIES:
            chk.bad(label, "needs save = \"fort\" and dc_ability = \"con\" (DC = 10 + HD/2 + mod)")
            continue
        radius = get_int(chk, a, "radius_ft", f"{label} radius_ft", minimum=0)
        rounds = get_int(chk, a, "duration_rounds", f"{label} duration_rounds", minimum=0)
        effect = get_str(chk, a, "effect", f"{label} effect", required=True)
        if key and radius is not None and rounds is not None and effect:
            out.append(AuraSpec(key, save, dc_ab, radius, effect, rounds))
    return out


def _parse_swarm(chk: Check, data: Mapping[str, Any], size: Size, subtypes: tuple[str, ...],
                 rider_keys: set[str]) -> SwarmSpec | None:
    if "swarm" not in data:
        if "swarm" in subtypes:
            chk.bad("[swarm]", "a creature of the swarm subtype needs [swarm] with component and flying")
        return None
    raw = get_table(chk, data, "swarm", "[swarm]")
    comp = get_size(chk, raw.get("component"), "[swarm] component") if "component" in raw else None
    if comp is None:
        if "component" not in raw:
            chk.bad("[swarm] component", "missing; add component = \"tiny\" (fine, diminutive or tiny)")
        return None
    if comp > Size.TINY:
        chk.bad("[swarm] component", f"swarms are made of Fine, Diminutive or Tiny creatures, not {comp.key}")
        return None
    if comp != size:
        chk.bad("size", f"a swarm's size is its component size ({comp.key}), got {size.key}")
    if "flying" not in raw:
        chk.bad("[swarm] flying", "missing; add flying = true or false (RULES §4.1)")
    flying = get_bool(chk, raw, "flying", "[swarm] flying")
    riders = get_str_list(chk, raw, "riders", "[swarm] riders")
    for r in riders:
        if r not in rider_keys:
            chk.bad("[swarm] riders", f"no [[rider]] with key {shorten(r)}; add one")
    wd = raw.get("weapon_damage")
    if wd is not None and wd not in WEAPON_DAMAGE_RULES:
        chk.bad("[swarm] weapon_damage", f"must be one of {', '.join(WEAPON_DAMAGE_RULES)}, got {shorten(wd)}")
        wd = None
    for k in raw:
        if k not in ("component", "flying", "riders", "weapon_damage", "aligned", "hive_mind"):
            chk.bad(f"[swarm] {k}", "unknown key; allowed: component, flying, riders, weapon_damage, aligned, hive_mind")
    return SwarmSpec(comp, flying, riders, wd, get_str_list(chk, raw, "aligned", "[swarm] aligned"),
                     get_bool(chk, raw, "hive_mind", "[swarm] hive_mind"))


def _parse_spells(chk: Check, data: Mapping[str, Any]):
    raw = get_table(chk, data, "spells", "[spells]")
    domains = get_str_list(chk, raw, "domains", "[spells] domains")
    for d in domains:
        if d not in domain_table():
            chk.bad("[spells] domains", f"unknown domain {shorten(d)}: {close_names(d, domain_table())}")
    prepared: list[tuple[int, tuple[str, ...]]] = []
    key = "known" if "known" in raw else "prepared"     # a spontaneous caster lists its spells known
    if "known" in raw and "prepared" in raw:
        chk.bad("[spells]", "give [spells.known] (a sorcerer) or [spells.prepared], not both")
    prep_raw = raw.get(key, {})
    if not isinstance(prep_raw, dict):
        chk.bad("[spells] prepared", "must be a table: \"0\" = [...], \"1\" = [...]")
        prep_raw = {}
    spells = spell_table()
    for lvl, names in prep_raw.items():
        label = f"[spells.{key}] {lvl}"
        if not str(lvl).isdigit():
            chk.bad(label, "keys are spell levels: \"0\", \"1\", \"2\"...")
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            chk.bad(label, "must be a list of spell names")
            continue
        for n in names:
            if normalize_name(n) not in spells:
                chk.bad(label, f"unknown spell {shorten(n)}: {close_names(normalize_name(n), spells)}")
        prepared.append((int(lvl), tuple(normalize_name(n) for n in names)))
    dom_prep: list[tuple[int, str]] = []
    dp_raw = raw.get("domain", {})
    if not isinstance(dp_raw, dict):
        chk.bad("[spells] domain", "must be a table: \"1\" = \"sanctuary\"")
        dp_raw = {}
    for lvl, n in dp_raw.items():
        if not str(lvl).isdigit() or not isinstance(n, str):
            chk.bad(f"[spells.domain] {lvl}", "write \"1\" = \"spell-name\"")
            continue
        dom_prep.append((int(lvl), normalize_name(n)))
    for k in raw:
        if k not in ("domains", "prepared", "domain", "known"):
            chk.bad(f"[spells] {k}", "unknown key; allowed: domains, prepared, known, domain")
    return tuple(domains), tuple(sorted(prepared)), tuple(sorted(dom_prep)), key == "known"
