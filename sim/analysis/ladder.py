"""The Dungeon Master's Guide's encounter ladder (docs/rules.md §14): Encounter Levels from
Challenge Ratings, the groups that make a rung, and the DMG's expected cost of a rung.

* **CR.** A stat block's ``cr`` string: a whole number or ``1/2``, ``1/3``, ``1/4``, ``1/6``, ``1/8``
  (:func:`parse_cr`).
* **EL of a group** (:func:`encounter_level`). One creature: its CR. Several: by their summed
  experience value. In the DMG's experience table the award for a creature doubles every two
  CRs, so a creature is worth ``2 ** (CR / 2)`` units and a group's EL is ``2 log2`` of the sum:
  two of one CR are CR + 2, four CR + 4, three CR + 3 (3.17 rounded), six CR + 5 (5.17). A CR
  below 1 is worth that fraction of a CR 1 creature (two CR 1/2 make EL 1). The EL of a group is
  rounded to the nearest whole number [PD].
* **The DMG's line** (:func:`dmg_cost`): an encounter of EL = party level costs the party about
  20% of its resources; a rung's cost doubles with every two ELs (its experience value does),
  capped at 100% [PD: the DMG gives 20% at EL = level and words above it, not a curve].

>>> [round(encounter_level([3] * n), 2) for n in (1, 2, 3, 4, 6, 8)]
[3.0, 5.0, 6.17, 7.0, 8.17, 9.0]
>>> rung_of([parse_cr("1/2")] * 2), rung_of([parse_cr("1/3")] * 3), group_size(parse_cr("1/2"), 3)
(1, 1, 4)
"""

from __future__ import annotations

import math
from fractions import Fraction

from sim.base.errors import UsageError

MAX_GROUP = 8   # the most creatures of one kind a rung is built from [PD]: a room holds them


def parse_cr(text: str) -> Fraction:
    """A Challenge Rating as written in a stat block: ``"3"``, ``"1/2"``.

    >>> parse_cr("1/3"), parse_cr("12")
    (Fraction(1, 3), Fraction(12, 1))
    >>> parse_cr("x")
    Traceback (most recent call last):
    ...
    sim.base.errors.UsageError: CR 'x' is not a Challenge Rating (a whole number or a fraction such as 1/2)
    """
    t = str(text).strip()
    try:
        v = Fraction(t)
    except (ValueError, ZeroDivisionError):
        v = Fraction(-1)
    if v <= 0 or (v < 1 and v.numerator != 1) or (v >= 1 and v.denominator != 1) or v > 30:
        raise UsageError(f"CR {text!r} is not a Challenge Rating (a whole number or a fraction such as 1/2)")
    return v


def xp_units(cr: Fraction) -> float:
    """A creature's experience value in units of a CR 0 creature's share: ``2 ** (CR / 2)``;
    below CR 1 that fraction of a CR 1 creature's."""
    return 2 ** (float(cr) / 2) if cr >= 1 else float(cr) * math.sqrt(2)


def encounter_level(crs: list[Fraction]) -> float:
    """The EL of a group of creatures before rounding (one creature: its CR)."""
    if not crs:
        raise ValueError("an encounter needs at least one creature")
    if len(crs) == 1:
        return float(crs[0])
    return 2 * math.log2(sum(xp_units(c) for c in crs))


def rung_of(crs: list[Fraction]) -> int:
    """The EL a group is counted at: :func:`encounter_level` rounded to the nearest whole (halves up)."""
    return int(math.floor(encounter_level(crs) + 0.5))


def group_size(cr: Fraction, el: int, max_n: int = MAX_GROUP) -> int | None:
    """The fewest creatures of CR ``cr`` that make EL ``el``, or None (more than ``max_n``, or a
    single creature already above it).

    >>> group_size(Fraction(3), 3), group_size(Fraction(3), 6), group_size(Fraction(3), 2), group_size(Fraction(1), 9)
    (1, 3, None, None)
    """
    for n in range(1, max_n + 1):
        got = float(cr) if n == 1 else rung_of([cr] * n)
        if got == el:
            return n
        if got > el:
            return None
    return None


def dmg_cost(el: int, level: int) -> float:
    """The DMG's expected share of a party's resources an encounter of EL ``el`` costs a party of
    ``level``: 20% at EL = level, doubling every two ELs, at most 1.

    >>> dmg_cost(6, 6), dmg_cost(8, 6), dmg_cost(4, 6), dmg_cost(14, 6)
    (0.2, 0.4, 0.1, 1.0)
    """
    return min(1.0, 0.2 * 2 ** ((el - level) / 2))


def difficulty(el: int, level: int) -> str:
    """The DMG's word for a rung: easy below the party's level, challenging at it, very difficult
    from one to four above, overpowering from five above."""
    d = el - level
    if d < 0:
        return "easy"
    if d == 0:
        return "challenging"
    if d <= 4:
        return "very difficult"
    return "overpowering"
