"""Dice expressions ("2d6+3") and weapon damage by size (RULES §3.6).

A :class:`Dice` is a frozen value: ``count`` dice of ``sides`` sides plus ``bonus``. A flat
number ("1", "0") has no dice. Rolling takes the one ``numpy.random.Generator`` of the fight
(DESIGN §3), so the same seed gives the same numbers everywhere.

>>> d = Dice.parse("2d6+3")
>>> (d.count, d.sides, d.bonus), str(d), d.average, d.minimum, d.maximum
((2, 6, 3), '2d6+3', 10.0, 5, 15)
>>> str(Dice.parse("1d3-1")), str(Dice.parse("1")), str(Dice.parse("0")), str(Dice.parse("d6"))
('1d3-1', '1', '0', '1d6')
>>> import numpy as np
>>> Dice.parse("1d4+1").roll(np.random.default_rng(7)) in range(2, 6)
True
>>> str(scale_damage("1d8", "large")), str(scale_damage("2d6", "tiny")), str(scale_damage("1d6", "small"))
('2d6', '1d8', '1d4')

Weapon damage for Tiny and Large weapons follows the SRD table of §3.6; the Small column of a
weapon is the "Dmg S" column of the weapon tables (§3.2, §3.3). For a bare die without a weapon,
``scale_damage(..., "small")`` uses the Small row of ``sim/data/weapons.toml``
``[damage_by_size]``, which reproduces every "Dmg S" entry of those tables (a test checks it).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from sim.base.errors import DataError
from sim.rules import _data
from sim.rules.sizes import Size

_DICE_RE = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(\d+))?\s*(?:([+-])\s*(\d+))?\s*$")
_FLAT_RE = re.compile(r"^\s*([+-]?\d+)\s*$")


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` d ``sides`` + ``bonus``. ``count == 0`` is a flat number (``sides`` is 0 then)."""

    count: int = 0
    sides: int = 0
    bonus: int = 0

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError(f"dice count must be >= 0, got {self.count}")
        if self.count and self.sides < 1:
            raise ValueError(f"dice need at least 1 side, got d{self.sides}")
        if not self.count and self.sides:
            raise ValueError(f"{self.sides}-sided dice need a count >= 1")

    @classmethod
    def parse(cls, text: "str | int | Dice") -> "Dice":
        """Parse "XdY", "XdY+Z", "XdY-Z", "dY" (one die) or a whole number ("1", "0", "-1").

        A malformed expression raises :class:`~sim.base.errors.DataError` (a ``ValueError``) naming it.
        """
        if isinstance(text, Dice):
            return text
        if isinstance(text, bool):
            raise DataError(f"not a dice expression: {text!r}; write e.g. \"1d8\", \"2d6+3\" or \"1\"")
        if isinstance(text, int):
            return cls(0, 0, text)
        if not isinstance(text, str):
            raise DataError(f"not a dice expression: {text!r}; write e.g. \"1d8\", \"2d6+3\" or \"1\"")
        flat = _FLAT_RE.match(text)
        if flat:
            return cls(0, 0, int(flat.group(1)))
        m = _DICE_RE.match(text)
        if not m or m.group(2) is None:
            raise DataError(f"not a dice expression: {text!r}; write e.g. \"1d8\", \"2d6+3\", \"1d3-1\" or \"1\"")
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        if count < 1 or sides < 1:
            raise DataError(f"bad dice {text!r}: need at least one die of at least one side (e.g. \"1d4\")")
        bonus = int(m.group(4)) if m.group(4) else 0
        if m.group(3) == "-":
            bonus = -bonus
        return cls(count, sides, bonus)

    # -- values -------------------------------------------------------------------------------
    @property
    def average(self) -> float:
        """Mean of a roll: count x (sides + 1) / 2 + bonus."""
        return self.count * (self.sides + 1) / 2 + self.bonus

    @property
    def minimum(self) -> int:
        return self.count + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    def roll(self, rng) -> int:
        """One roll with ``rng`` (a ``numpy.random.Generator``). No minimum is applied here:
        the combat engine applies "damage is at least 1" (RULES §0.2) where the rules say so."""
        if self.count == 0:
            return self.bonus
        return int(rng.integers(1, self.sides + 1, size=self.count).sum()) + self.bonus

    # -- arithmetic ---------------------------------------------------------------------------
    def plus(self, bonus: int) -> "Dice":
        """The same dice with ``bonus`` added to the flat part."""
        return Dice(self.count, self.sides, self.bonus + int(bonus))

    def without_bonus(self) -> "Dice":
        return Dice(self.count, self.sides, 0)

    @property
    def die(self) -> str:
        """The dice part only, e.g. "2d6" (or the flat number)."""
        return str(self.without_bonus()) if self.count else str(self.bonus)

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        s = f"{self.count}d{self.sides}"
        if self.bonus > 0:
            s += f"+{self.bonus}"
        elif self.bonus < 0:
            s += f"-{-self.bonus}"
        return s


# -- size scaling (RULES §3.6) -------------------------------------------------------------------

@functools.cache
def damage_by_size() -> dict[Size, dict[str, Dice]]:
    """``{size: {medium die text: die for that size}}`` from ``weapons.toml [damage_by_size]``."""
    raw = _data.load("weapons.toml")["damage_by_size"]
    medium = [Dice.parse(t) for t in raw["medium"]]
    out: dict[Size, dict[str, Dice]] = {Size.MEDIUM: {str(d): d for d in medium}}
    for name in ("tiny", "small", "large"):
        row = [Dice.parse(t) for t in raw[name]]
        if len(row) != len(medium):
            raise RuntimeError(f"weapons.toml [damage_by_size] {name} needs {len(medium)} entries")
        out[Size.parse(name)] = {str(m): d for m, d in zip(medium, row)}
    return out


def scale_damage(medium_dice: "Dice | str", to_size: "Size | str", *, small: "Dice | str | None" = None) -> Dice:
    """The damage of a weapon that does ``medium_dice`` when made for a Medium creature, when it
    is made for a ``to_size`` creature instead (RULES §3.6). Tiny, Small, Medium and Large only.

    ``small`` is the weapon table's "Dmg S" entry; when given it is the Small answer. A flat
    bonus on ``medium_dice`` is kept. Raises ``ValueError`` for a die or size not in the table.

    >>> str(scale_damage("1d10", "large")), str(scale_damage("1d3", "tiny")), str(scale_damage("2d4", "small"))
    ('2d8', '1', '1d6')
    """
    d = Dice.parse(medium_dice)
    size = to_size if isinstance(to_size, Size) else Size.parse(to_size)
    if size is Size.MEDIUM:
        return d
    if size is Size.SMALL and small is not None:
        return Dice.parse(small).plus(d.bonus)
    table = damage_by_size()
    if size not in table:
        raise ValueError(f"weapon damage is tabulated for tiny, small, medium and large weapons, not {size.key}")
    key = d.die
    if key not in table[size]:
        raise ValueError(f"no {size.key} damage for a Medium weapon die of {key}; RULES §3.6 lists "
                         f"{', '.join(table[Size.MEDIUM])}")
    return table[size][key].plus(d.bonus)
