"""Loadouts: the same creature with other armor, no armor, or a weapon that is not on its sheet
(pure recomputations through :func:`~.derive.derive`)."""

from __future__ import annotations

import dataclasses
from typing import Iterable

from sim.base.errors import shorten
from sim.rules.statblocks.attacks import AttackContext, weapon_attacks
from sim.rules.statblocks.derive import derive
from sim.rules.statblocks.tables import class_table
from sim.rules.statblocks.types import GRIPS, Attack, StatBlock, WeaponEntry
from sim.rules.weapons import (
    ArmorPiece,
    Weapon,
    energy_ability,
)
from sim.rules.weapons import (
    armor as armor_piece,
)
from sim.rules.weapons import (
    shield as shield_piece,
)
from sim.rules.weapons import (
    weapon as weapon_named,
)


def with_loadout(block: StatBlock, *, armor: ArmorPiece | None | str = "keep",
                 shield: ArmorPiece | None | str = "keep") -> StatBlock:
    """The same creature with other armor or shield (a piece, a name of weapons.toml, ``None`` =
    taken off, ``"keep"`` = as is):
    AC, touch/flat-footed, speed, Escape Artist, skills and attack modifiers are recomputed."""
    src = block.source
    if isinstance(armor, str) and armor != "keep":
        armor = armor_piece(armor)
    if isinstance(shield, str) and shield != "keep":
        shield = shield_piece(shield)
    new_armor = src.armor if armor == "keep" else armor
    new_shield = src.shield if shield == "keep" else shield
    return derive(dataclasses.replace(src, armor=new_armor, shield=new_shield), book_values=block.book_values)


def without_armor(block: StatBlock, *, drop_shield: bool = False) -> StatBlock:
    """The creature after taking its armor off (medium/heavy armor comes off before crawlways and
    tighter spaces, RULES §2.4, §7.33); with ``drop_shield`` the shield too."""
    return with_loadout(block, armor=None, shield=None if drop_shield else "keep")


def raging(block: StatBlock) -> StatBlock:
    """The barbarian in a rage (SRD Barbarian; classes.toml [class.barbarian] rage): +4 Str and Con
    (attacks, damage, grapple, hit points +2 per Hit Die), +2 Will, -2 AC (touch and flat-footed too)."""
    r = _class_row(block, "rage")
    src = block.source
    ab = dataclasses.replace(src.abilities, str=src.abilities.str + int(r["str"]), con=src.abilities.con + int(r["con"]))
    b = derive(dataclasses.replace(src, abilities=ab), book_values=block.book_values)
    return dataclasses.replace(
        b, saves=dataclasses.replace(b.saves, will=b.saves.will + int(r["will"])),
        ac=b.ac + int(r["ac"]), touch_ac=b.touch_ac + int(r["ac"]), flat_footed_ac=b.flat_footed_ac + int(r["ac"]),
        ac_parts=b.ac_parts + (("rage", int(r["ac"])),))


def after_rage(raged: StatBlock) -> StatBlock:
    """The barbarian once the rage ends: its own scores, fatigued (-2 Str, -2 Dex; SRD Barbarian)."""
    r, f = _class_row(raged, "rage"), _class_row(raged, "fatigue")
    src = raged.source
    a = src.abilities
    ab = dataclasses.replace(a, str=a.str - int(r["str"]) + int(f["str"]), con=a.con - int(r["con"]),
                             dex=a.dex + int(f["dex"]))
    return derive(dataclasses.replace(src, abilities=ab), book_values=raged.book_values)


def rage_rounds(raged: StatBlock) -> int:
    """3 + the raging Con modifier (SRD Barbarian)."""
    return int(_class_row(raged, "rage")["rounds_base"]) + raged.abilities.mod("con")


def _class_row(block: StatBlock, key: str) -> dict:
    for cls, _ in block.levels:
        row = class_table()[cls]
        if key in row:
            return row[key]
    raise ValueError(f"{block.name} has no class with {key}")


def attacks_with(block: StatBlock, weapon: Weapon | str, *, grip: str = "one-hand", enhancement: int = 0,
                 masterwork: bool = False, abilities: Iterable[str] = ()) -> tuple[Attack, ...]:
    """The attack options of ``block`` with a weapon that is not on its sheet (a lit torch taken
    in hand, a weapon picked up): melee, and thrown when the weapon can be thrown. A weapon given
    by name is made for the creature's size. Pure; raises :class:`DataError` if it cannot be wielded.

    >>> from sim.rules.statblocks import load_template
    >>> [(a.name, a.bonus, str(a.damage), a.extra_damage[0][1]) for a in attacks_with(load_template("goblin"), "torch")]
    [('torch', -2, '1d2', 'fire'), ('torch (thrown)', -1, '1d2', 'fire')]
    """
    w = weapon_named(weapon, size=block.size) if isinstance(weapon, str) else weapon
    if grip not in GRIPS:
        raise ValueError(f"grip must be one of {GRIPS}, got {shorten(grip)}")
    entry = WeaponEntry(w.key, w, 1, masterwork or enhancement > 0, enhancement,
                        tuple(energy_ability(a) for a in abilities), grip)
    return tuple(weapon_attacks(AttackContext(block.source, block.abilities, block.bab), entry))
