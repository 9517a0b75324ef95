"""The nine creature sizes (RULES §1.1), read from ``sim/data/sizes.toml``.

>>> Size.parse("Large").space_ft
10.0
>>> Size.MEDIUM.modifier, Size.LARGE.squares
(0, 2)
>>> Size.TINY.squares, Size.TINY.shares_squares
(1, True)
"""

from __future__ import annotations

import enum
import functools
import math
from dataclasses import dataclass

from sim.rules import _data


@dataclass(frozen=True, slots=True)
class SizeFacts:
    name: str
    modifier: int
    grapple: int
    hide: int
    space_ft: float
    reach_tall_ft: float
    reach_long_ft: float
    per_square: int
    height_tall_ft: float
    component_opening_ft: float | None


class Size(enum.IntEnum):
    """Ordered smallest to largest, so ``Size.SMALL < Size.LARGE``."""

    FINE = 0
    DIMINUTIVE = 1
    TINY = 2
    SMALL = 3
    MEDIUM = 4
    LARGE = 5
    HUGE = 6
    GARGANTUAN = 7
    COLOSSAL = 8

    @classmethod
    def parse(cls, text: str) -> "Size":
        """A size from its name, any case. Raises ``KeyError`` naming the choices."""
        key = str(text).strip().upper()
        try:
            return cls[key]
        except KeyError:
            names = ", ".join(s.key for s in cls)
            raise KeyError(f"unknown size {text!r}: use one of {names}") from None

    @property
    def key(self) -> str:
        return self.name.lower()

    @property
    def facts(self) -> SizeFacts:
        return size_table()[self]

    @property
    def modifier(self) -> int:
        """Size modifier to attack rolls and AC (RULES §1.1)."""
        return self.facts.modifier

    @property
    def grapple(self) -> int:
        return self.facts.grapple

    @property
    def space_ft(self) -> float:
        return self.facts.space_ft

    @property
    def squares(self) -> int:
        """Side of the block of squares the creature covers (1 for Medium and smaller)."""
        return max(1, math.ceil(self.facts.space_ft / 5))

    @property
    def shares_squares(self) -> bool:
        """Fine, Diminutive and Tiny creatures may share squares (RULES §1.1 notes)."""
        return self.facts.per_square > 1


def at_most_one_larger(size: Size, than: Size) -> bool:
    """Whether a creature of ``size`` is at most one size category larger than one of ``than``:
    the SRD's limit on who can be tripped, bull rushed or held by a monstrous spider's web
    (the one place the rule is written).

    >>> at_most_one_larger(Size.LARGE, Size.MEDIUM), at_most_one_larger(Size.HUGE, Size.MEDIUM)
    (True, False)
    """
    return int(size) <= int(than) + 1


@functools.cache
def size_table() -> dict[Size, SizeFacts]:
    raw = _data.load("sizes.toml")
    out: dict[Size, SizeFacts] = {}
    for row in raw["size"]:
        size = Size.parse(row["name"])
        opening = row.get("component_opening_in")
        out[size] = SizeFacts(
            name=row["name"],
            modifier=int(row["modifier"]),
            grapple=int(row["grapple"]),
            hide=int(row["hide"]),
            space_ft=float(row["space_ft"]),
            reach_tall_ft=float(row["reach_tall_ft"]),
            reach_long_ft=float(row["reach_long_ft"]),
            per_square=int(row["per_square"]),
            height_tall_ft=float(row["height_tall_in"]) / 12.0,
            component_opening_ft=None if opening is None else float(opening) / 12.0,
        )
    if set(out) != set(Size):
        raise RuntimeError("sim/data/sizes.toml must list all nine sizes")
    return out
