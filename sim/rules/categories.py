"""Constricted-space categories (RULES §2.1) and their effects (§2.4), read from
``sim/data/categories.toml`` -- the one place those numbers are written.

Categories are ordered by severity, so the worst of several squares is ``max``:

>>> Category.CRAWL > Category.NARROW_AND_LOW
True
>>> effects(Category.NARROW_AND_LOW).melee_mod(2)
-8
>>> effects(Category.NARROW_OR_LOW).melee_mod(3) is None    # two-handed: cannot be used
True
>>> describe(Category.NARROW_AND_LOW)
'Narrow and Low: ¼ speed, no Dex to AC, light weapons −4, one-handed −8, two-handed unusable'
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

import numpy as np

from sim.rules import _data


class Category(enum.IntEnum):
    CLEAR = 0
    NARROW_OR_LOW = 1
    NARROW_AND_LOW = 2
    CRAWL = 3
    AWKWARD = 4
    TIGHT_SQUEEZE = 5
    IMPASSABLE = 6

    @classmethod
    def parse(cls, text: str) -> "Category":
        key = str(text).strip().upper().replace("-", "_").replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            raise KeyError(f"unknown category {text!r}: use one of {', '.join(c.name for c in cls)}") from None

    @property
    def label(self) -> str:
        return effects(self).label

    @property
    def letter(self) -> str:
        return effects(self).letter

    @property
    def constricted(self) -> bool:
        """Categories 1-5 of the table (§2.1); Impassable is not a place one stands in."""
        return Category.CLEAR < self < Category.IMPASSABLE


WeaponRow = tuple[int | None, int | None, int | None, int | None]


@dataclass(frozen=True, slots=True)
class Effects:
    category: Category
    label: str
    letter: str
    speed: str
    cost_multiplier: int
    movement: str
    escape_dc: int | None
    try_action: str | None
    run_charge: bool
    five_foot_step: bool
    loses_dex: bool
    ac_modifier: int
    posture: str
    melee: WeaponRow
    melee_if_narrow: WeaponRow | None
    prone_melee_penalty_applies: bool
    ranged: str
    ranged_mod: WeaponRow
    ranged_mod_if_narrow: WeaponRow | None
    crossbow_mod: int | None
    remove_gear: bool
    attacks: bool

    def melee_mod(self, index: int, *, narrow: bool = False) -> int | None:
        """Attack modifier for a melee weapon of effective index 0..3 (§2.5); None = unusable."""
        row = self.melee_if_narrow if (narrow and self.melee_if_narrow is not None) else self.melee
        return row[_clamp_index(index)]

    def ranged_mod_for(self, index: int, *, crossbow: bool, narrow: bool = False) -> int | None:
        """Ranged attack modifier (§2.4 ranged row, table 3.3; in a crawlway that is also narrow the
        Narrow and Low row, §2.4 further details); None = this weapon cannot fire here."""
        if self.ranged == "none" or (self.ranged == "crossbows" and not crossbow):
            return None
        if crossbow and self.crossbow_mod is not None:
            return self.crossbow_mod
        row = self.ranged_mod_if_narrow if (narrow and self.ranged_mod_if_narrow is not None) else self.ranged_mod
        return row[_clamp_index(index)]


def _clamp_index(index: int) -> int:
    if index < 0:
        return 0
    if index > 3:
        raise ValueError(f"weapon index must be 0..3, got {index}")
    return index


def _row(values) -> WeaponRow:
    out = tuple(None if v == "x" else int(v) for v in values)
    if len(out) != 4:
        raise RuntimeError("weapon rows in categories.toml need 4 entries")
    return out  # type: ignore[return-value]


@functools.cache
def effects_table() -> dict[Category, Effects]:
    raw = _data.load("categories.toml")["category"]
    table: dict[Category, Effects] = {}
    for name, row in raw.items():
        cat = Category[name]
        if int(row["code"]) != int(cat):
            raise RuntimeError(f"categories.toml: {name} has code {row['code']}, expected {int(cat)}")
        table[cat] = Effects(
            category=cat,
            label=row["label"],
            letter=row["letter"],
            speed=row["speed"],
            cost_multiplier=int(row["cost_multiplier"]),
            movement=row["movement"],
            escape_dc=row.get("escape_dc"),
            try_action=row.get("try_action"),
            run_charge=bool(row["run_charge"]),
            five_foot_step=bool(row["five_foot_step"]),
            loses_dex=bool(row["loses_dex"]),
            ac_modifier=int(row["ac_modifier"]),
            posture=row["posture"],
            melee=_row(row["melee"]),
            melee_if_narrow=_row(row["melee_if_narrow"]) if "melee_if_narrow" in row else None,
            prone_melee_penalty_applies=bool(row["prone_melee_penalty_applies"]),
            ranged=row["ranged"],
            ranged_mod=_row(row["ranged_mod"]),
            ranged_mod_if_narrow=_row(row["ranged_mod_if_narrow"]) if "ranged_mod_if_narrow" in row else None,
            crossbow_mod=row.get("crossbow_mod"),
            remove_gear=bool(row["remove_gear"]),
            attacks=bool(row["attacks"]),
        )
    if set(table) != set(Category):
        raise RuntimeError("categories.toml must describe every category")
    return table


def effects(cat: Category | int) -> Effects:
    return effects_table()[Category(cat)]


@functools.cache
def cost_multiplier_lut() -> np.ndarray:
    """``COST[category]`` -> walking cost multiplier (0 where the square is not walked)."""
    lut = np.zeros(len(Category), dtype=np.int16)
    for cat, eff in effects_table().items():
        lut[int(cat)] = eff.cost_multiplier
    lut.flags.writeable = False
    return lut


_SPEED_WORDS = {"full": "full speed", "half": "½ speed", "quarter": "¼ speed"}
_INDEX_WORDS = ("stabbing light", "light weapons", "one-handed", "two-handed")


def _signed(v: int) -> str:
    return f"−{-v}" if v < 0 else (f"+{v}" if v > 0 else "±0")


def describe(cat: Category | int) -> str:
    """The category's effects in plain words, for the HUD and the CLI legend."""
    e = effects(cat)
    c = Category(cat)
    if c is Category.IMPASSABLE:
        return "Impassable: the head does not fit; no passage"
    parts = [_SPEED_WORDS.get(e.speed, e.speed)]
    if e.movement == "crawl":
        parts = ["prone (−4 melee, on top of the weapon penalty), crawl 1 square per move action"]
    if e.loses_dex:
        parts.append("no Dex to AC")
    if e.ac_modifier:
        parts.append(f"AC {_signed(e.ac_modifier)}")
    if not e.attacks:
        parts.append("no attacks")
    else:
        weapons = []
        for i in (1, 2, 3):
            v = e.melee[i]
            name = _INDEX_WORDS[i]
            weapons.append(f"{name} unusable" if v is None else f"{name} {_signed(v)}")
        if c is not Category.CLEAR:
            parts.extend(weapons)
        if e.ranged == "crossbows":
            parts.append("crossbows only")
        if e.remove_gear:
            parts.append("medium/heavy armor and packs off")
    if c is Category.CLEAR:
        return "Clear: no penalties"
    return f"{e.label}: " + ", ".join(parts)
