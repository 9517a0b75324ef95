"""Armor comes off before the tight places (RULES §2.4 Equipment and "Further details", §7.33).

Table 7-3 of the Underdark rules: a creature must take off medium and heavy armor (and backpacks
and bulky items, which it drags behind it) to crawl; the project extends this to Awkward Space and
Tight Squeeze (RULES §7.33). Taking armor off takes time (SRD Table 7-7, RULES §2.4): 1 minute
for every medium armor and for light armor, 1d4+1 minutes for half-plate and full plate, half of
that when an ally helps. A minute is 10 rounds (RULES §0).

This is the one home of the rule: the crawl (:mod:`sim.crawl.run`), the fight (:mod:`sim.engine.armor`)
and ``cavesim path`` / ``reach`` all ask it. Pure functions; the dice are rolled with the caller's
generator.

>>> from sim.rules.statblocks import load_template
>>> fighter = load_template("human-fighter-1")
>>> must_remove(fighter), removal_text(fighter.armor), removal_rounds_range(fighter.armor)
(True, '1 minute', (10, 10))
>>> removal_rounds_range(fighter.armor, helped=True)
(5, 5)
>>> needs_armor_off(Category.CRAWL), needs_armor_off(Category.NARROW_AND_LOW), needs_armor_off(Category.TIGHT_SQUEEZE)
(True, False, True)
"""

from __future__ import annotations

import math

from sim.rules.categories import Category
from sim.rules.dice import Dice
from sim.rules.weapons import ArmorPiece, combat_modifier

#: The armor that must come off (RULES §2.4 Equipment: "medium and heavy armor").
REMOVED_KINDS = ("medium", "heavy")
#: The categories that cannot be entered in such armor: crawl (Table 7-3), and by our decision
#: awkward space and tight squeeze (RULES §7.33).
ARMOR_OFF_CATEGORIES = (Category.CRAWL, Category.AWKWARD, Category.TIGHT_SQUEEZE)


def needs_armor_off(category: Category | int) -> bool:
    """Whether a square of this category may only be entered with medium and heavy armor off."""
    return Category.CRAWL <= int(category) < Category.IMPASSABLE


def must_remove(block) -> bool:
    """Whether a stat block (its current armor) has to take it off before such squares."""
    a = getattr(block, "armor", None)
    return a is not None and a.kind in REMOVED_KINDS


def rounds_per_minute() -> int:
    return int(combat_modifier("time", "rounds_per_minute"))


def removal_dice(armor: ArmorPiece) -> Dice:
    """Minutes to take ``armor`` off, as dice (a flat "1 minute" is ``Dice(0, 0, 1)``)."""
    text = armor.remove or "1 minute"
    return Dice.parse(text.split()[0])


def removal_text(armor: ArmorPiece) -> str:
    return armor.remove or "1 minute"


def removal_minutes(armor: ArmorPiece, rng, *, helped: bool = False) -> float:
    """Minutes to take ``armor`` off (the dice rolled with ``rng``), halved when helped."""
    return float(removal_dice(armor).roll(rng)) / (2 if helped else 1)


def minutes_to_rounds(minutes: float) -> int:
    """Whole rounds of work (a fraction of a round is a round of work)."""
    return max(1, int(math.ceil(minutes * rounds_per_minute() - 1e-9)))


def removal_rounds_range(armor: ArmorPiece, *, helped: bool = False) -> tuple[int, int]:
    """(fewest, most) rounds to take ``armor`` off: (10, 10) for 1 minute, (20, 50) for
    1d4+1 minutes; halved when helped ((5, 5), (10, 25))."""
    d = removal_dice(armor)
    div = 2 if helped else 1
    return minutes_to_rounds(d.minimum / div), minutes_to_rounds(d.maximum / div)


def removal_rounds_expected(armor: ArmorPiece, *, helped: bool = False) -> float:
    """The mean rounds to take ``armor`` off (35 for 1d4+1 minutes alone): what the AI weighs."""
    return removal_dice(armor).average * rounds_per_minute() / (2 if helped else 1)
