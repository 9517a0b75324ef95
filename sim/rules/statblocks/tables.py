"""The rules tables a stat block is derived from (``sim/data/classes.toml``, ``races.toml``) and the
small SRD formulas over them. Read once and cached; nothing happens at import.

>>> ability_mod(15), base_attack("three_quarters", 6), base_save(True, 4)
(2, 4, 4)
"""

from __future__ import annotations

import functools
import math
from typing import Any

from sim.base.errors import shorten
from sim.rules import _data
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.weapons import combat_modifier

# ``Source`` and ``Abilities`` in the annotations below are sim.rules.statblocks.types' records; they
# are not imported here (types imports this module: the annotations stay strings).


@functools.cache
def _classes_data() -> dict[str, Any]:
    return _data.load("classes.toml")


def class_table() -> dict[str, Any]:
    return _classes_data()["class"]


def type_table() -> dict[str, Any]:
    return _classes_data()["type"]


def feat_table() -> dict[str, Any]:
    return _classes_data()["feat"]


def skill_table() -> dict[str, Any]:
    return _classes_data()["skill"]


def spell_table() -> dict[str, Any]:
    return _classes_data()["spell"]


def domain_table() -> dict[str, Any]:
    return _classes_data()["domain"]


def swarm_rules() -> dict[str, Any]:
    return _classes_data()["subtype"]["swarm"]


def race_table() -> dict[str, Any]:
    return _data.load("races.toml")["race"]


def ability_mod(score: int | None) -> int:
    """(score - 10) / 2 rounded down; a nonability ("-") counts as 0 here.

    >>> ability_mod(15), ability_mod(8), ability_mod(1), ability_mod(None)
    (2, -1, -5, 0)
    """
    return 0 if score is None else (int(score) - 10) // 2


def base_attack(rule: str, hd: int) -> int:
    """SRD base attack progressions: full = HD, three quarters and half rounded down.

    >>> base_attack("full", 4), base_attack("three_quarters", 6), base_attack("half", 3)
    (4, 4, 1)
    """
    if rule == "full":
        return hd
    if rule == "three_quarters":
        return hd * 3 // 4
    if rule == "half":
        return hd // 2
    raise ValueError(f"unknown base attack progression {shorten(rule)}")


def base_save(good: bool, hd: int) -> int:
    """Good: 2 + HD/2; poor: HD/3 (rounded down).

    >>> base_save(True, 1), base_save(True, 4), base_save(False, 5), base_save(False, 0)
    (2, 4, 1, 0)
    """
    if hd <= 0:
        return 0
    return 2 + hd // 2 if good else hd // 3


def bonus_spells(mod: int, spell_level: int) -> int:
    """Bonus spells per day from a high casting ability (SRD Table: Ability Modifiers and Bonus
    Spells; RULES §8): (mod - level) / 4 + 1 when mod >= level, none for 0-level spells.

    >>> [bonus_spells(2, l) for l in range(4)], [bonus_spells(3, l) for l in range(4)]
    ([0, 1, 1, 0], [0, 1, 1, 1])
    """
    if spell_level <= 0 or mod < spell_level:
        return 0
    return (mod - spell_level) // 4 + 1


def swarm_damage(hd: int) -> Dice:
    """Swarm attack damage by Hit Dice (RULES §4.3).

    >>> [str(swarm_damage(h)) for h in (2, 6, 12, 16, 21)]
    ['1d6', '2d6', '3d6', '4d6', '5d6']
    """
    for max_hd, dice in swarm_rules()["damage_by_hd"]:
        if hd <= int(max_hd):
            return Dice.parse(dice)
    raise ValueError(f"no swarm damage for {hd} HD")


def swarm_count(component: Size, flying: bool) -> int:
    """Creatures in one swarm (RULES §4.1)."""
    row = swarm_rules()["composition"][component.key]
    return int(row[1] if flying else row[0])



def stat_rule(key: str) -> int:
    """A number of ``sim/data/combat.toml [stat_block]`` (the derivation's own rule numbers), e.g.
    ``stat_rule("secondary_natural")`` -> -5.

    >>> stat_rule("ability_dc_base"), stat_rule("inappropriate_size"), stat_rule("secondary_natural")
    (10, -2, -5)
    """
    return combat_modifier("stat_block", key)


def skill_total(src: Any, ab: Any, skill: str, acp: int) -> int:
    """A skill modifier of ``src`` (a :class:`~sim.rules.statblocks.types.Source`) with abilities ``ab``
    (its :class:`~sim.rules.statblocks.types.Abilities`; the types module imports this one): ability modifier + whole ranks + armor check penalty (where it applies)
    + size (Hide) + racial and feat bonuses (RULES §2.4 for Escape Artist)."""
    row = skill_table()[skill]
    total = ab.mod(row["ability"])
    ranks = dict(src.skills).get(skill, 0.0)
    total += math.floor(ranks)
    if row.get("armor_check"):
        total += acp * int(row.get("armor_check_multiplier", 1))
    if row.get("size_modifier"):
        total += src.size.facts.hide
    if src.race:
        total += int(race_table()[src.race].get("skills", {}).get(skill, 0))
    for f in src.feats:
        total += int(feat_table()[f.key].get("skills", {}).get(skill, 0))
    return total


def feats_with(src: Any, key: str) -> set[str]:
    """The parameters of every feat ``key`` the creature has ("weapon-focus" -> {"longsword"})."""
    return {f.param for f in src.feats if f.key == key and f.param}


def natural_reach(src) -> float:
    """A creature's natural reach in feet: ``[body] reach`` when its entry prints one (the Small
    choker's 10 ft.), else its size's reach for its form (RULES §1.1)."""
    over = dict(src.body_overrides)
    if "reach" in over:
        return float(over["reach"])
    return src.size.facts.reach_long_ft if src.form == "long" else src.size.facts.reach_tall_ft
