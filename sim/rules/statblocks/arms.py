"""Validating the attacks of a stat block table: ``[[weapon]]`` (weapons carried, with grip,
material, enhancement, riders), ``[[natural]]`` (natural attacks with their printed dice and
extra damage) and ``full_attack`` (the routines by name), each into its frozen entry; and that
every rider an attack names has its ``[[rider]]`` table. Part of :func:`.parse.parse_source`."""

from __future__ import annotations

from typing import Any, Mapping

from sim.base.errors import DataError, shorten
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks.check import (
    MAX_LENGTH_FT,
    Check,
    close_names,
    get_dice,
    get_size,
    is_int,
    is_num,
)
from sim.rules.statblocks.types import (
    GRIPS,
    NaturalEntry,
    RiderSpec,
    WeaponEntry,
)
from sim.rules.weapons import (
    EnergyAbility,
    energy_ability,
    natural_kinds,
    parse_crit,
    resolve_weapon_name,
)
from sim.rules.weapons import (
    weapon as weapon_named,
)


def attack_entries(chk: Check, data: Mapping[str, Any], size: Size) -> dict[str, Any]:
    """Weapons carried, natural attacks and the full attack routines: {weapons, naturals, full_attack}."""
    weapons: list[WeaponEntry] = []
    raw_weapons = data.get("weapon", [])
    if not isinstance(raw_weapons, list):
        chk.bad("[[weapon]]", "write each weapon as a [[weapon]] table with name = \"...\"")
        raw_weapons = []
    for i, w in enumerate(raw_weapons):
        weapons_entry = parse_weapon(chk, w, f"[[weapon]] #{i + 1}", size)
        if weapons_entry is not None:
            weapons.append(weapons_entry)
    naturals: list[NaturalEntry] = []
    raw_nat = data.get("natural", [])
    if not isinstance(raw_nat, list):
        chk.bad("[[natural]]", "write each natural attack as a [[natural]] table")
        raw_nat = []
    for i, n in enumerate(raw_nat):
        ne = parse_natural(chk, n, f"[[natural]] #{i + 1}")
        if ne is not None:
            naturals.append(ne)
    full_attack = None
    if "full_attack" in data:
        fa = data["full_attack"]
        if (not isinstance(fa, list) or not all(isinstance(r, list) and r and all(isinstance(x, str) for x in r)
                                                for r in fa)):
            chk.bad("full_attack", "must be a list of routines, each a list of attack names: "
                    "[[\"club\", \"claw\", \"bite\"], [\"javelin\"]]")
        else:
            full_attack = tuple(tuple(r) for r in fa)
    return {"weapons": tuple(weapons), "naturals": tuple(naturals), "full_attack": full_attack}


def check_natural_riders(chk: Check, naturals: tuple[NaturalEntry, ...], riders: list[RiderSpec]) -> None:
    rider_keys = {r.key for r in riders}
    for n in naturals:
        for r in n.riders:
            if r not in rider_keys:
                chk.bad(f"[[natural]] {n.name} riders", f"no [[rider]] with key {shorten(r)}; add one")


def check_weapon_riders(chk: Check, weapons: tuple[WeaponEntry, ...], riders: list[RiderSpec]) -> None:
    rider_keys = {r.key for r in riders}
    for w in weapons:
        for r in w.riders:
            if r not in rider_keys:
                chk.bad(f"[[weapon]] {w.name} riders", f"no [[rider]] with key {shorten(r)}; add one")


def parse_weapon(chk: Check, w: Any, label: str, size: Size) -> WeaponEntry | None:
    if not isinstance(w, dict):
        chk.bad(label, "must be a table with name = \"...\"")
        return None
    allowed = {"name", "count", "size", "masterwork", "enhancement", "abilities", "grip",
               "composite_rating", "proficient", "riders"}
    for k in w:
        if k not in allowed:
            chk.bad(f"{label}.{k}", f"unknown key; allowed: {', '.join(sorted(allowed))}")
    name = w.get("name")
    if not isinstance(name, str):
        chk.bad(label, "missing name = \"...\" (a weapon of sim/data/weapons.toml)")
        return None
    try:
        key = resolve_weapon_name(name)
    except DataError as exc:
        chk.bad(f"{label} name", str(exc))
        return None
    wsize = size
    if "size" in w:
        wsize = get_size(chk, w["size"], f"{label} size")
        wsize = size if wsize is None else wsize
    weapon = weapon_named(key, size=wsize)
    count = w.get("count", 1)
    if not is_int(count) or count < 1:
        chk.bad(f"{label} count", f"must be a whole number >= 1, got {shorten(count)}")
        count = 1
    enh = w.get("enhancement", 0)
    if not is_int(enh) or not 0 <= enh <= 5:
        chk.bad(f"{label} enhancement", f"must be 0..5, got {shorten(enh)}")
        enh = 0
    mw = w.get("masterwork", enh > 0)
    if not isinstance(mw, bool):
        chk.bad(f"{label} masterwork", f"must be true or false, got {shorten(mw)}")
        mw = False
    abilities: list[EnergyAbility] = []
    raw_ab = w.get("abilities", [])
    if not isinstance(raw_ab, list):
        chk.bad(f"{label} abilities", "must be a list such as [\"flaming\"]")
        raw_ab = []
    for ab in raw_ab:
        try:
            e = energy_ability(ab)
        except DataError as exc:
            chk.bad(f"{label} abilities", str(exc))
            continue
        if enh < e.min_enhancement:
            chk.bad(f"{label} abilities", f"{e.name} needs at least a +{e.min_enhancement} enhancement bonus "
                    "(RULES §3.4); add enhancement = 1")
        abilities.append(e)
    grip = w.get("grip", "one-hand")
    if grip not in GRIPS:
        chk.bad(f"{label} grip", f"must be one of {', '.join(GRIPS)}, got {shorten(grip)}")
        grip = "one-hand"
    rating = w.get("composite_rating", 0)
    if not is_int(rating) or rating < 0:
        chk.bad(f"{label} composite_rating", f"must be a whole number >= 0, got {shorten(rating)}")
        rating = 0
    proficient = w.get("proficient")
    if proficient is not None and not isinstance(proficient, bool):
        chk.bad(f"{label} proficient", "must be true or false")
        proficient = None
    riders = w.get("riders", [])
    if not isinstance(riders, list) or not all(isinstance(r, str) for r in riders):
        chk.bad(f"{label} riders", "must be a list of [[rider]] keys")
        riders = []
    return WeaponEntry(key, weapon, count, mw, enh, tuple(abilities), grip, rating, proficient, tuple(riders))


def parse_natural(chk: Check, n: Any, label: str) -> NaturalEntry | None:
    if not isinstance(n, dict):
        chk.bad(label, "must be a table with name and damage")
        return None
    allowed = {"name", "kind", "damage", "count", "primary", "riders", "crit", "extra", "reach"}
    for k in n:
        if k not in allowed:
            chk.bad(f"{label}.{k}", f"unknown key; allowed: {', '.join(sorted(allowed))}")
    name = n.get("name")
    if not isinstance(name, str):
        chk.bad(label, "missing name = \"claw\" (or bite, gore, slam, sting, tentacle...)")
        return None
    kind = n.get("kind", name)
    if kind not in natural_kinds():
        chk.bad(f"{label} name", f"unknown natural weapon {shorten(kind)}: {close_names(str(kind), natural_kinds())}")
        return None
    if "damage" not in n:
        chk.bad(f"{label} damage", "missing; add damage = \"1d4\" (the printed die)")
        return None
    dmg = get_dice(chk, n["damage"], f"{label} damage")
    if dmg is None:
        return None
    count = n.get("count", 1)
    if not is_int(count) or count < 1:
        chk.bad(f"{label} count", f"must be a whole number >= 1, got {shorten(count)}")
        count = 1
    crit = str(n.get("crit", "x2"))
    try:
        parse_crit(crit)
    except DataError as exc:
        chk.bad(f"{label} crit", str(exc))
        crit = "x2"
    primary = n.get("primary", True)
    if not isinstance(primary, bool):
        chk.bad(f"{label} primary", "must be true or false")
        primary = True
    riders = n.get("riders", [])
    if not isinstance(riders, list) or not all(isinstance(r, str) for r in riders):
        chk.bad(f"{label} riders", "must be a list of [[rider]] keys")
        riders = []
    extra = _natural_extra(chk, n.get("extra", ()), label)
    reach = n.get("reach")
    if reach is not None and (not is_num(reach, MAX_LENGTH_FT) or reach < 0):
        chk.bad(f"{label} reach", f"must be a reach in feet (the otyugh's tentacles: 15), got {shorten(reach)}")
        reach = None
    return NaturalEntry(name, kind, dmg, count, primary, tuple(riders), crit, extra,
                        None if reach is None else float(reach))


def _natural_extra(chk: Check, raw: Any, label: str) -> tuple[tuple[Dice, str], ...]:
    """``extra = "1d6 acid"`` (or a list): energy dice added to every hit (an ooze's acid)."""
    items = [raw] if isinstance(raw, str) else raw
    out = []
    if not isinstance(items, (list, tuple)):
        chk.bad(f"{label} extra", "write it as \"1d6 acid\" or a list of those")
        return ()
    for item in items:
        words = str(item).split()
        if len(words) != 2 or words[1] not in ("acid", "fire", "cold", "electricity", "sonic"):
            chk.bad(f"{label} extra", f"{shorten(item)}: write dice and an energy, e.g. \"1d6 acid\"")
            continue
        dice = get_dice(chk, words[0], f"{label} extra")
        if dice is not None:
            out.append((dice, words[1]))
    return tuple(out)
