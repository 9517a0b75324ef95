"""Weapons and other equipment (RULES §2.5, §3), read once from ``sim/data/weapons.toml``.

Weapon keys are lower-case English names with hyphens, adjective first ("short-sword",
"light-mace", "heavy-crossbow"); the SRD's table order ("Sword, short", "sword-short") and
spaces ("short sword") are accepted as aliases. A :class:`Weapon` is made for a creature of
``weapon.size`` (Medium unless sized with :meth:`Weapon.sized` or ``weapon(name, size=...)``).

The constricted-space index (RULES §2.5): light = 1, one-handed = 2, two-handed = 3, then a size
shift (+1 per size the wielder is smaller than the weapon's intended wielder, -1 per size
larger; outside 1..3 the weapon cannot be wielded), then the stab shift (-1, melee only).

>>> effective_index(weapon("longsword"), "medium"), effective_index(weapon("dagger"), "medium")
(2, 0)
>>> effective_index(weapon("longsword"), "small")            # a Small wielder's Medium longsword
3
>>> effective_index(weapon("longsword", size="large"), "large"), effective_index(weapon("longsword"), "large")
(2, 1)
>>> effective_index(weapon("greatsword"), "small") is None   # too big to wield
True
>>> effective_index(weapon("dagger"), "medium", ranged=True)  # thrown: no stab shift
1
>>> str(damage_for(weapon("longsword"), "large")), str(damage_for(weapon("longsword"), "small"))
('2d6', '1d6')
>>> weapon("Sword, short").key, weapon("sword-short").key, weapon("short sword").key
('short-sword', 'short-sword', 'short-sword')
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass
from typing import Any

from sim.base.errors import DataError
from sim.rules import _data
from sim.rules.categories import Category, effects
from sim.rules.dice import Dice, scale_damage
from sim.rules.sizes import Size

PROFICIENCIES = ("simple", "martial", "exotic", "improvised", "natural")
CATEGORIES = ("light", "one-handed", "two-handed")
STRENGTH_RULES = ("full", "penalty", "none", "composite")
TYPE_LETTERS = {"B": "bludgeoning", "P": "piercing", "S": "slashing"}

_CRIT_RE = re.compile(r"^\s*(?:(\d+)\s*-\s*20\s*/\s*)?x\s*(\d)\s*$")


THROWN_MAX_INCREMENTS = 5       # RULES §3.1: a thrown weapon (splash weapons too) reaches 5 range increments
PROJECTILE_MAX_INCREMENTS = 10  # ... a projectile weapon 10

@dataclass(frozen=True, slots=True)
class Weapon:
    """One weapon as made for a creature of ``size``. Frozen; derive variants with ``sized``/``replace``."""

    key: str
    book: str
    proficiency: str
    category: str                   # light | one-handed | two-handed, for a wielder of its own size
    ranged: bool                    # a ranged weapon (fired, or thrown-only like the javelin)
    thrown: bool                    # may be thrown (javelin; melee weapons with a range increment)
    damage_s: Dice
    damage_m: Dice
    crit_threat: int                # lowest natural roll that threatens (20, 19, 18)
    crit_multiplier: int
    range_ft: int
    damage_types: tuple[str, ...]   # ("piercing", "slashing")
    types_join: str                 # "and" (both at once) | "or" (wielder's choice) | "single"
    stab: bool
    reach: bool = False
    reach_adjacent: bool = False
    double: bool = False
    crossbow: bool = False
    light_source: bool = False
    finesse: bool = False
    no_two_handed_str: bool = False
    nonlethal: bool = False
    provokes: bool = False
    set_vs_charge: bool = False
    trip: bool = False
    fire_rider: Dice | None = None
    swarm_fire: Dice | None = None
    load_action: str | None = None
    two_hands: bool = False
    one_hand_penalty: int | None = None
    strength: str = "full"
    melee_penalty: int = 0
    natural: bool = False
    size: Size = Size.MEDIUM
    other_end: "Weapon | None" = None

    # -- categories ---------------------------------------------------------------------------
    @property
    def index(self) -> int:
        """1, 2 or 3: light, one-handed, two-handed for a wielder of the weapon's own size."""
        return CATEGORIES.index(self.category) + 1

    @property
    def improvised(self) -> bool:
        return self.proficiency == "improvised"

    @property
    def melee(self) -> bool:
        """Usable in melee without penalty beyond the table (natural and melee weapons)."""
        return not self.ranged

    @property
    def max_increments(self) -> int:
        """Thrown weapons reach 5 range increments, projectile weapons 10 (RULES §3.1)."""
        if not self.range_ft:
            return 0
        return PROJECTILE_MAX_INCREMENTS if (self.ranged and not self.thrown) else THROWN_MAX_INCREMENTS

    def sized(self, size: Size | str) -> "Weapon":
        """The same weapon made for a creature of ``size`` (damage follows RULES §3.6)."""
        s = _size(size)
        other = self.other_end.sized(s) if self.other_end is not None else None
        return dataclasses.replace(self, size=s, other_end=other)

    @property
    def damage(self) -> Dice:
        """Damage of this weapon at its own size."""
        return damage_for(self)


def _size(size: Size | str) -> Size:
    if isinstance(size, Size):
        return size
    try:
        return Size.parse(size)
    except KeyError as exc:
        raise DataError(exc.args[0]) from None


# -- reading the table -----------------------------------------------------------------------------

def parse_crit(text: str) -> tuple[int, int]:
    """ "19-20/x2" -> (19, 2); "x3" -> (20, 3).

    >>> parse_crit("18-20/x2"), parse_crit("x4")
    ((18, 2), (20, 4))
    """
    m = _CRIT_RE.match(str(text))
    if not m:
        raise DataError(f"bad critical {text!r}: write it like \"19-20/x2\" or \"x3\"")
    return (int(m.group(1)) if m.group(1) else 20, int(m.group(2)))


def parse_types(text: str) -> tuple[tuple[str, ...], str]:
    """ "P or S" -> (("piercing", "slashing"), "or"); "B and P" -> (..., "and"); "B" -> (..., "single")."""
    t = str(text).strip()
    for join in (" and ", " or "):
        if join in t:
            parts = [p.strip() for p in t.split(join)]
            return tuple(_type_word(p, text) for p in parts), join.strip()
    return (_type_word(t, text),), "single"


def _type_word(letter: str, text: str) -> str:
    if letter.upper() in TYPE_LETTERS:
        return TYPE_LETTERS[letter.upper()]
    if letter.lower() in TYPE_LETTERS.values():
        return letter.lower()
    raise DataError(f"bad damage type {text!r}: use B, P, S joined by \"and\" or \"or\"")


def _dice_or_none(v: Any) -> Dice | None:
    return None if v is None else Dice.parse(v)


def _build(key: str, row: dict[str, Any]) -> Weapon:
    threat, mult = parse_crit(row["crit"])
    types, join = parse_types(row["type"])
    if row["proficiency"] not in PROFICIENCIES or row["category"] not in CATEGORIES:
        raise RuntimeError(f"weapons.toml [weapon.{key}]: bad proficiency or category")
    strength = row.get("strength", "full")
    if strength not in STRENGTH_RULES:
        raise RuntimeError(f"weapons.toml [weapon.{key}]: strength must be one of {STRENGTH_RULES}")
    ranged = bool(row["ranged"])
    other = None
    if "other_end" in row:
        o = row["other_end"]
        o_threat, o_mult = parse_crit(o["crit"])
        o_types, o_join = parse_types(o["type"])
        other = Weapon(
            key=f"{key}#other", book=row["book"], proficiency=row["proficiency"], category="light",
            ranged=False, thrown=False, damage_s=Dice.parse(o["damage_s"]), damage_m=Dice.parse(o["damage_m"]),
            crit_threat=o_threat, crit_multiplier=o_mult, range_ft=0, damage_types=o_types, types_join=o_join,
            stab=False, double=True,
        )
    return Weapon(
        key=key,
        book=row["book"],
        proficiency=row["proficiency"],
        category=row["category"],
        ranged=ranged,
        thrown=bool(row.get("thrown", False)) or (not ranged and int(row.get("range_ft", 0)) > 0),
        damage_s=Dice.parse(row["damage_s"]),
        damage_m=Dice.parse(row["damage_m"]),
        crit_threat=threat,
        crit_multiplier=mult,
        range_ft=int(row.get("range_ft", 0)),
        damage_types=types,
        types_join=join,
        stab=bool(row["stab"]),
        reach=bool(row.get("reach", False)),
        reach_adjacent=bool(row.get("reach_adjacent", False)),
        double=bool(row.get("double", False)),
        crossbow=bool(row.get("crossbow", False)),
        light_source=bool(row.get("light_source", False)),
        finesse=bool(row.get("finesse", False)),
        no_two_handed_str=bool(row.get("no_two_handed_str", False)),
        nonlethal=bool(row.get("nonlethal", False)),
        provokes=bool(row.get("provokes", False)),
        set_vs_charge=bool(row.get("set_vs_charge", False)),
        trip=bool(row.get("trip", False)),
        fire_rider=_dice_or_none(row.get("fire_rider")),
        swarm_fire=_dice_or_none(row.get("swarm_fire")),
        load_action=row.get("load_action"),
        two_hands=bool(row.get("two_hands", False)),
        one_hand_penalty=row.get("one_hand_penalty"),
        strength=strength,
        melee_penalty=int(row.get("melee_penalty", 0)),
        other_end=other,
    )


@functools.cache
def weapon_table() -> dict[str, Weapon]:
    """Every manufactured weapon, keyed by its canonical key, as made for a Medium creature."""
    raw = _data.load("weapons.toml")["weapon"]
    return {key: _build(key, row) for key, row in raw.items()}


@functools.lru_cache(maxsize=4096)
def normalize_name(name: str) -> str:
    """Lower case, hyphens, book order ("Sword, short") turned around, parentheses dropped.
    Remembered (a pure function of the name): fights look the same few weapon names up
    thousands of times (issue 27).

    >>> normalize_name("Sword, short"), normalize_name("Crossbow, repeating light"), normalize_name("light_mace")
    ('short-sword', 'repeating-light-crossbow', 'light-mace')
    """
    t = re.sub(r"\(.*?\)", " ", str(name)).strip().lower().replace("'", "")
    if "," in t:
        head, _, tail = t.partition(",")
        t = f"{tail} {head}"
    t = re.sub(r"[\s_]+", "-", t.strip())
    return re.sub(r"-+", "-", t).strip("-")


@functools.cache
def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for key, w in weapon_table().items():
        out[key] = key
        out[normalize_name(w.book)] = key
        # the book's order with hyphens: "sword-short", "crossbow-repeating-light"
        head, _, tail = w.book.partition(",")
        if tail:
            out[normalize_name(f"{head} {tail}")] = key
    out["torch-lit"] = "torch"
    return out


def resolve_weapon_name(name: str) -> str:
    """The canonical key of ``name``; :class:`DataError` naming close matches if unknown."""
    aliases = _aliases()
    raw = str(name)
    for candidate in (raw.strip().lower(), normalize_name(raw)):
        if candidate in aliases:
            return aliases[candidate]
    close = difflib.get_close_matches(normalize_name(raw), list(weapon_table()), n=4, cutoff=0.5)
    hint = f"did you mean {', '.join(close)}?" if close else "see sim/data/weapons.toml for the list"
    raise DataError(f"unknown weapon {name!r}: {hint}")


def weapon(name: str, *, size: Size | str | None = None) -> Weapon:
    """The weapon called ``name`` (any alias), made for a Medium creature or for ``size``."""
    w = weapon_table()[resolve_weapon_name(name)]
    return w if size is None else w.sized(size)


# -- natural weapons -------------------------------------------------------------------------------

@functools.cache
def natural_kinds() -> dict[str, tuple[tuple[str, ...], str]]:
    raw = _data.load("weapons.toml")["natural"]
    return {k: parse_types(v["type"]) for k, v in raw.items()}


def natural_weapon(kind: str, damage: Dice | str, *, size: Size | str, crit: str = "x2") -> Weapon:
    """A natural weapon (claw, bite...) with the creature's printed damage. Light (§7.38), no stab shift.

    >>> w = natural_weapon("claw", "1d6", size="large")
    >>> (w.index, w.natural, effective_index(w, "large"), str(w.damage))
    (1, True, 1, '1d6')
    """
    kinds = natural_kinds()
    if kind not in kinds:
        close = difflib.get_close_matches(kind, list(kinds), n=3)
        hint = f"did you mean {', '.join(close)}?" if close else f"use one of {', '.join(kinds)}"
        raise DataError(f"unknown natural weapon {kind!r}: {hint}")
    types, join = kinds[kind]
    threat, mult = parse_crit(crit)
    d = Dice.parse(damage)
    s = _size(size)
    return Weapon(
        key=kind, book=kind, proficiency="natural", category="light", ranged=False, thrown=False,
        damage_s=d, damage_m=d, crit_threat=threat, crit_multiplier=mult, range_ft=0,
        damage_types=types, types_join=join, stab=False, natural=True, size=s,
    )


# -- the constricted-space index (RULES §2.5) ------------------------------------------------------

def handed_index(weapon: Weapon, wielder_size: Size | str) -> int | None:
    """Light (1), one-handed (2) or two-handed (3) *for this wielder*: base category plus the size
    shift, without the stab shift. None when the wielder cannot wield it (RULES §2.5 step 2)."""
    if weapon.natural:
        return 1
    shifted = weapon.index + (int(weapon.size) - int(_size(wielder_size)))
    return shifted if 1 <= shifted <= 3 else None


def effective_index(weapon: Weapon, wielder_size: Size | str, *, ranged: bool | None = None) -> int | None:
    """RULES §2.5 steps 1-3: the index (0..3) used for constricted-space penalties, or None when the
    wielder cannot wield the weapon at all. ``ranged`` says whether it is fired or thrown (default:
    the weapon's own mode); the stab shift applies to melee attacks only.
    """
    idx = handed_index(weapon, wielder_size)
    if idx is None:
        return None
    is_ranged = weapon.ranged if ranged is None else ranged
    if weapon.stab and not is_ranged:
        idx -= 1
    return idx


def constricted_modifier(weapon: Weapon, wielder_size: Size | str, category: Category | int, *,
                         ranged: bool | None = None, narrow: bool = False) -> int | None:
    """Total constricted-space attack modifier for this weapon in ``category`` (RULES §2.4-2.5),
    including the -4 for attacking prone in a crawlway with a melee weapon; None = not usable.
    ``narrow`` says a crawlway is also narrow (then its Narrow-and-Low weapon row applies, §7.10).

    >>> from sim.rules.categories import Category
    >>> [constricted_modifier(weapon("dagger"), "medium", c) for c in (1, 2, 3, 4)]
    [0, 0, -4, -8]
    >>> [constricted_modifier(weapon("heavy-crossbow"), "medium", c) for c in (1, 2, 3, 4)]
    [-4, -8, -4, -8]
    """
    idx = effective_index(weapon, wielder_size, ranged=ranged)
    if idx is None:
        return None
    eff = effects(category)
    is_ranged = weapon.ranged if ranged is None else ranged
    if is_ranged:
        return eff.ranged_mod_for(idx, crossbow=weapon.crossbow)
    mod = eff.melee_mod(idx, narrow=narrow)
    if mod is None:
        return None
    if eff.posture == "prone" and eff.prone_melee_penalty_applies:
        mod += combat_modifier("attack", "prone_melee")   # RULES §5.1: -4 attacking prone in melee
    return mod


def combat_modifier(section: str, key: str) -> int:
    """A number of ``sim/data/combat.toml`` (the combat modifiers kept as data), e.g.
    ``combat_modifier("attack", "nonproficient")`` -> -4.

    >>> combat_modifier("attack", "prone_melee"), combat_modifier("critical", "improvised_threat")
    (-4, 20)
    """
    return int(_data.load("combat.toml")[section][key])


def damage_for(weapon: Weapon, size: Size | str | None = None) -> Dice:
    """Damage dice of ``weapon`` made for a creature of ``size`` (default: the size it is made for,
    ``weapon.size``; weapons are normally made for their wielder, so pass the wielder's size for
    "a goblin's morningstar"). Small uses the table's S column, Tiny/Large RULES §3.6.
    Natural weapons keep their printed damage.
    """
    s = weapon.size if size is None else _size(size)
    if weapon.natural:
        return weapon.damage_m
    if s is Size.MEDIUM:
        return weapon.damage_m
    if s is Size.SMALL:
        return weapon.damage_s
    return scale_damage(weapon.damage_m, s)


# -- energy abilities, armor, shields, splash weapons, gear -----------------------------------------

@dataclass(frozen=True, slots=True)
class EnergyAbility:
    name: str
    dice: Dice
    energy: str
    min_enhancement: int


@functools.cache
def energy_abilities() -> dict[str, EnergyAbility]:
    raw = _data.load("weapons.toml")["energy"]
    return {k: EnergyAbility(k, Dice.parse(v["dice"]), v["type"], int(v["min_enhancement"])) for k, v in raw.items()}


def energy_ability(name: str) -> EnergyAbility:
    """Flaming, frost, shock: +1d6 of the energy per hit (RULES §3.4)."""
    table = energy_abilities()
    key = normalize_name(name)
    if key not in table:
        raise DataError(f"unknown weapon special ability {name!r}: use one of {', '.join(table)}")
    return table[key]


@dataclass(frozen=True, slots=True)
class ArmorPiece:
    """A suit of armor or a shield. ``kind`` is light/medium/heavy for armor, "shield" for shields."""

    key: str
    kind: str
    bonus: int
    max_dex: int | None
    check_penalty: int
    spell_failure: int
    attack_penalty: int = 0
    remove: str | None = None
    don: str | None = None
    masterwork: bool = False
    enhancement: int = 0

    @property
    def is_shield(self) -> bool:
        return self.kind == "shield"

    @property
    def total_bonus(self) -> int:
        return self.bonus + self.enhancement

    @property
    def effective_check_penalty(self) -> int:
        """Masterwork (and all magic) armor: check penalty 1 less severe, never above 0."""
        if self.masterwork or self.enhancement:
            return min(0, self.check_penalty + 1)
        return self.check_penalty


@functools.cache
def _armor_tables() -> tuple[dict[str, ArmorPiece], dict[str, ArmorPiece]]:
    raw = _data.load("weapons.toml")
    armors = {
        k: ArmorPiece(k, v["type"], int(v["bonus"]), v.get("max_dex"), int(v["check_penalty"]),
                      int(v["spell_failure"]), remove=v.get("remove"), don=v.get("don"))
        for k, v in raw["armor"].items()
    }
    shields = {
        k: ArmorPiece(k, "shield", int(v["bonus"]), v.get("max_dex"), int(v["check_penalty"]),
                      int(v["spell_failure"]), attack_penalty=int(v.get("attack_penalty", 0)))
        for k, v in raw["shield"].items()
    }
    return armors, shields


def _lookup(table: dict[str, ArmorPiece], name: str, what: str) -> ArmorPiece:
    key = normalize_name(name)
    if key in table:
        return table[key]
    # "light wooden" -> "light-wooden-shield"
    for k in (f"{key}-shield", key.replace("-mail", "") + "-mail"):
        if k in table:
            return table[k]
    close = difflib.get_close_matches(key, list(table), n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(close)}?" if close else f"use one of {', '.join(table)}"
    raise DataError(f"unknown {what} {name!r}: {hint}")


def armor(name: str, *, masterwork: bool = False, enhancement: int = 0) -> ArmorPiece:
    a = _lookup(_armor_tables()[0], name, "armor")
    return dataclasses.replace(a, masterwork=masterwork, enhancement=enhancement)


def shield(name: str, *, masterwork: bool = False, enhancement: int = 0) -> ArmorPiece:
    s = _lookup(_armor_tables()[1], name, "shield")
    return dataclasses.replace(s, masterwork=masterwork, enhancement=enhancement)


@functools.cache
def _armor_speed() -> dict[int, int]:
    return {int(k): int(v) for k, v in _data.load("weapons.toml")["armor_speed"].items()}


def reduced_speed(base: int) -> int:
    """Land speed in medium or heavy armor (SRD table; RULES §6.1).

    Speeds not in the table ([PD]): two thirds, rounded to the nearest 5 ft.

    >>> reduced_speed(30), reduced_speed(20), reduced_speed(40)
    (20, 15, 30)
    """
    table = _armor_speed()
    if base in table:
        return table[base]
    return max(5, int(5 * round(base * 2 / 3 / 5)))


@dataclass(frozen=True, slots=True)
class SplashWeapon:
    key: str
    range_ft: int
    direct: Dice
    splash: Dice
    energy: str
    area: str = "adjacent"
    prepare_action: str | None = None
    ignite_chance: float = 1.0
    burn: Dice | None = None
    burn_save_dc: int | None = None
    destroyed: bool = True


@functools.cache
def splash_weapons() -> dict[str, SplashWeapon]:
    raw = _data.load("weapons.toml")["splash"]
    return {
        k: SplashWeapon(k, int(v["range_ft"]), Dice.parse(v["direct"]), Dice.parse(v["splash"]), v["energy"],
                        area=v.get("area", "adjacent"), prepare_action=v.get("prepare_action"),
                        ignite_chance=float(v.get("ignite_chance", 1.0)), burn=_dice_or_none(v.get("burn")),
                        burn_save_dc=v.get("burn_save_dc"))
        for k, v in raw.items()
    }


def splash_weapon(name: str) -> SplashWeapon:
    table = splash_weapons()
    key = normalize_name(name)
    if key not in table:
        raise DataError(f"unknown splash weapon {name!r}: use one of {', '.join(table)}")
    return table[key]


@dataclass(frozen=True, slots=True)
class GearItem:
    key: str
    light_bright_ft: int = 0
    light_shadowy_ft: int = 0
    light_shape: str | None = None
    duration: str | None = None
    bulky: bool = False
    weapon: str | None = None
    splash: str | None = None
    lights: str | None = None
    hands: int = 1

    @property
    def is_light_source(self) -> bool:
        return self.light_shadowy_ft > 0  # a candle sheds shadowy light only (RULES §9.1)

    @property
    def is_lantern(self) -> bool:
        """A light that is also a splash weapon (the lanterns): it bursts into fire when thrown
        only if it is lit (RULES §3.5, §4.6)."""
        return self.is_light_source and self.splash is not None


def is_lantern(name: str) -> bool:
    """Whether a carried item is a lantern (False for anything not in ``[gear]``)."""
    try:
        return gear(name).is_lantern
    except DataError:
        return False


@functools.cache
def gear_table() -> dict[str, GearItem]:
    raw = _data.load("weapons.toml")["gear"]
    return {k: GearItem(k, **v) for k, v in raw.items()}


def gear(name: str) -> GearItem:
    table = gear_table()
    key = normalize_name(name)
    if key not in table:
        close = difflib.get_close_matches(key, list(table), n=3, cutoff=0.5)
        hint = f"did you mean {', '.join(close)}?" if close else "see [gear] in sim/data/weapons.toml"
        raise DataError(f"unknown gear item {name!r}: {hint}")
    return table[key]
