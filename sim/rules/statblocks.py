"""Stat blocks: source facts (TOML) -> validated :class:`Source` -> derived :class:`StatBlock`.

A stat block file holds *source facts* only (STYLE habit 12): size, type, Hit Dice, ability
scores, armor worn, weapons carried, natural attacks with their printed dice, feats, skill ranks,
senses, special qualities. Everything else -- hit points, AC, touch and flat-footed AC,
initiative, base attack, attack bonuses and damage per weapon, grapple, saves, speed in armor,
Escape Artist, spell slots, swarm damage and distraction DC -- is computed here from the rules
tables in ``sim/data`` (classes.toml, races.toml, weapons.toml, sizes.toml).

Monster files also carry the SRD's *printed* numbers in ``[printed]``; :func:`derive` compares
them with the derived ones and lists every difference in ``StatBlock.disagreements``, each with
the RULES item that decides it (``[decided]`` in the file). Where RULES §7 decides against the
print (bat swarm AC §7.15, rat swarm hp §7.16, hellwasp poison DC §7.17) the decided value is the
default and the printed one is a *book value*: ``book_values = true`` in the file (or
``load_template(name, book_values=True)``) uses every printed value; a list such as
``book_values = ["hp"]`` picks single fields.

PC hit points (a project rule, [PD]): the maximum of the Hit Die at 1st level, then the average
rounded up (d4 3, d6 4, d8 5, d10 6, d12 7) at each later level, plus the Con modifier per level
(at least 1 hp per level), plus 3 per Toughness. Monsters use the average of their Hit Dice,
rounded down, as the Monster Manual does (4d8+4 -> 22).

Stat block TOML (schema_version 1); [PD] marks choices made for this project:

=====================  =========================================================================
key                    meaning
=====================  =========================================================================
schema_version         1
name                   display name
kind                   "pc" or "monster"
size                   monster: fine..colossal (a swarm: its component size); PCs: from the race
type, subtypes         monster: creature type ("humanoid", "magical beast"...), subtypes list
race, sex              PC: races.toml key; "male"/"female" (average height, RULES §1.3)
alignment, cr          recorded
racial_hd              monster Hit Dice from the type (die, BAB, saves from classes.toml [type])
good_saves             overrides the type's good saves for racial HD (bugbear: ["ref"])
[levels]               class levels: fighter = 3, warrior = 1 ...
[abilities]            str..cha; PCs: scores *before* racial adjustments; "-" = no score
ability_increases      PC: the ability raised at 4th, 8th... level, in order (["str"])
natural_armor          natural armor bonus;  deflection: deflection bonus
armor, shield          a key of weapons.toml [armor]/[shield], or { name, masterwork, enhancement }
feats                  ["Weapon Focus (longsword)", "Toughness", "Toughness"]
[skills]               skill ranks (PCs; half ranks allowed for cross-class skills)
[[weapon]]             name, count, size (default: made for the creature), masterwork,
                       enhancement, abilities = ["flaming"], grip = "two-hands" | "off-hand",
                       composite_rating
[[natural]]            name (claw, bite...), damage ("1d4"), count, primary (default true),
                       riders = ["filth-fever"], crit ("x2")
full_attack            routines of attack ids: [["club", "claw", "bite"], ["claw", "bite"]]
[body]                 form ("tall"/"long"), height, head, shoulders, depth (feet)
[speed]                land, climb, swim, burrow, fly, maneuverability (monsters; PCs: race)
[senses]               darkvision_ft, low_light, scent, blindsense_ft, blindsight_ft,
                       tremorsense_ft, light_sensitivity
[defenses]             damage_reduction = { amount, bypass }, resist = { fire = 10 },
                       regeneration = { amount, bypassed_by = ["fire", "acid"] }, immune = [...]
[[rider]]              key, kind (poison | disease | wounding), save, dc_ability (DC = 10 + HD/2 +
                       mod), initial, secondary, incubation, damage, bleed
[[aura]]               key (stench), save, dc_ability, radius_ft, effect, duration_rounds
[swarm]                component, flying, riders, weapon_damage (override), aligned, hive_mind
[gear]                 item = count (weapons.toml [gear])
[spells]               domains = [...]; [spells.prepared] "0" = [...], "1" = [...];
                       [spells.domain] "1" = "sanctuary"
special_attacks        recorded special attacks the engine may implement (["rend 2d6+9"])
book_values            true, false or a list of field names (see above)
[printed]              printed SRD values: hit_dice, hp, initiative, speed, ac, touch,
                       flat_footed, bab, grapple ("-" for none), fort, ref, will, distraction_dc,
                       weapon_damage, rider_dc = { key = DC }, aura_dc = { key = DC },
                       [[printed.attack]] name/count/bonus/damage,
                       [[printed.full_attack]] attacks = [...], skills = { ... }
[decided]              field = "RULES §7.16 ..." for every printed value the rules disagree with
=====================  =========================================================================

>>> g = load_template("goblin")
>>> (g.hp, g.ac, g.touch_ac, g.flat_footed_ac, g.initiative, g.bab, g.grapple)
(5, 15, 12, 14, 1, 1, -3)
>>> a = g.attack("morningstar"); (a.bonus, str(a.damage), a.effective_index)
(2, '1d6', 2)
>>> load_template("rat-swarm").hp, load_template("rat-swarm", book_values=True).hp
(18, 13)
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from sim.errors import DataError, shorten
from sim.fileio import read_toml
from sim.rules import _data
from sim.rules.bodies import Body, body_for, swarm_body
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.weapons import (
    ArmorPiece, EnergyAbility, GearItem, Weapon, armor as armor_piece, damage_for, effective_index,
    combat_modifier, energy_ability, gear as gear_item, handed_index, natural_kinds, natural_weapon,
    normalize_name, parse_crit, reduced_speed, resolve_weapon_name, shield as shield_piece, weapon as weapon_named,
)

SCHEMA_VERSION = 1
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
SAVE_ABILITY = {"fort": "con", "ref": "dex", "will": "wis"}
KINDS = ("pc", "monster")
MANEUVERABILITY = ("perfect", "good", "average", "poor", "clumsy")
WEAPON_DAMAGE_RULES = ("immune", "half_slashing_piercing", "normal")
RIDER_KINDS = ("poison", "disease", "wounding")
GRIPS = ("one-hand", "two-hands", "off-hand")
# Printed values that may replace the derived ones ("book values").
BOOK_FIELDS = ("hit_dice", "hp", "initiative", "speed", "ac", "touch", "flat_footed", "bab", "grapple",
               "fort", "ref", "will", "distraction_dc", "weapon_damage", "rider_dc", "aura_dc")
_INT_PRINTED = ("hp", "initiative", "speed", "ac", "touch", "flat_footed", "bab", "fort", "ref", "will",
                "distraction_dc")

_TOP_KEYS = {
    "schema_version", "name", "kind", "size", "type", "subtypes", "race", "sex", "alignment", "cr",
    "racial_hd", "good_saves", "levels", "abilities", "ability_increases", "natural_armor", "deflection",
    "armor", "shield", "feats", "skills", "weapon", "natural", "full_attack", "body", "speed", "senses",
    "defenses", "rider", "aura", "swarm", "gear", "spells", "book_values", "printed", "decided",
    "description", "hp_rule", "special_attacks",
}


# =================================================================================================
# Rules tables (read once, cached; nothing happens at import)
# =================================================================================================

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


# =================================================================================================
# Value objects
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Abilities:
    str: int | None
    dex: int | None
    con: int | None
    int: int | None
    wis: int | None
    cha: int | None

    def score(self, name: str) -> int | None:
        return getattr(self, name)

    def mod(self, name: str) -> int:
        return ability_mod(getattr(self, name))


@dataclass(frozen=True, slots=True)
class Saves:
    fort: int
    ref: int
    will: int


@dataclass(frozen=True, slots=True)
class Speeds:
    """Feet per round. ``land`` is after armor (RULES §6.1); 0 = no such movement mode."""

    land: int
    climb: int = 0
    swim: int = 0
    burrow: int = 0
    fly: int = 0
    maneuverability: str | None = None


@dataclass(frozen=True, slots=True)
class Senses:
    darkvision_ft: int = 0
    low_light: bool = False
    scent: bool = False
    blindsense_ft: int = 0
    blindsight_ft: int = 0
    tremorsense_ft: int = 0
    light_sensitivity: bool = False


@dataclass(frozen=True, slots=True)
class Defenses:
    damage_reduction: int = 0
    dr_bypass: str | None = None
    resist: tuple[tuple[str, int], ...] = ()
    regeneration: int = 0
    regeneration_bypassed_by: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RiderSpec:
    key: str
    kind: str
    save: str | None
    dc_ability: str | None
    initial: str | None = None
    secondary: str | None = None
    incubation: str | None = None
    damage: tuple[str, ...] = ()
    bleed: int = 0


@dataclass(frozen=True, slots=True)
class Rider:
    """A poison, disease or wounding delivered by an attack (RULES §4.9), with its derived DC."""

    key: str
    kind: str
    save: str | None
    dc: int | None
    initial: str | None = None
    secondary: str | None = None
    incubation: str | None = None
    damage: tuple[str, ...] = ()
    bleed: int = 0


@dataclass(frozen=True, slots=True)
class AuraSpec:
    key: str
    save: str
    dc_ability: str
    radius_ft: int
    effect: str
    duration_rounds: int


@dataclass(frozen=True, slots=True)
class Aura:
    key: str
    save: str
    dc: int
    radius_ft: int
    effect: str
    duration_rounds: int


@dataclass(frozen=True, slots=True)
class SwarmSpec:
    component: Size
    flying: bool
    riders: tuple[str, ...] = ()
    weapon_damage: str | None = None
    aligned: tuple[str, ...] = ()
    hive_mind: bool = False


@dataclass(frozen=True, slots=True)
class SwarmStats:
    """RULES §4.1-4.5: the swarm facts the engine needs."""

    component: Size
    flying: bool
    count: int
    damage: Dice
    weapon_damage: str              # "immune" | "half_slashing_piercing"
    distraction_dc: int
    riders: tuple[str, ...]
    aligned: tuple[str, ...] = ()
    hive_mind: bool = False


@dataclass(frozen=True, slots=True)
class WeaponEntry:
    name: str                       # canonical weapon key
    weapon: Weapon                  # sized
    count: int = 1
    masterwork: bool = False
    enhancement: int = 0
    abilities: tuple[EnergyAbility, ...] = ()
    grip: str = "one-hand"
    composite_rating: int = 0
    proficient: bool | None = None  # None = decide from class/race (PCs) or assume yes (monsters)


@dataclass(frozen=True, slots=True)
class NaturalEntry:
    name: str
    kind: str
    damage: Dice
    count: int = 1
    primary: bool = True
    riders: tuple[str, ...] = ()
    crit: str = "x2"


@dataclass(frozen=True, slots=True)
class Feat:
    key: str
    param: str | None = None

    def __str__(self) -> str:
        return self.key if self.param is None else f"{self.key} ({self.param})"


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack option, with every modifier as data (for the event log's breakdown).

    ``bonus`` is the first attack's bonus (None for a swarm, which needs no roll); ``bonuses``
    lists every attack of a full attack with it (iteratives at BAB 6+; ``count`` natural attacks
    repeat the same bonus). ``effective_index`` is the RULES §2.5 index for constricted-space
    penalties (None = cannot be wielded there by this creature).
    """

    name: str
    kind: str                               # "weapon" | "natural" | "swarm"
    mode: str                               # "melee" | "ranged" | "swarm"
    thrown: bool
    weapon: Weapon | None
    count: int
    primary: bool
    bonus: int | None
    bonuses: tuple[int, ...]
    bonus_parts: tuple[tuple[str, int], ...]
    damage: Dice
    damage_parts: tuple[tuple[str, int], ...]
    extra_damage: tuple[tuple[Dice, str], ...] = ()
    crit_threat: int = 20
    crit_multiplier: int = 2
    damage_types: tuple[str, ...] = ()
    types_join: str = "single"
    range_ft: int = 0
    reach_ft: float = 0.0
    effective_index: int | None = 1
    crossbow: bool = False
    riders: tuple[str, ...] = ()
    touch: bool = False
    nonlethal: bool = False


@dataclass(frozen=True, slots=True)
class PrintedAttack:
    name: str
    bonus: int | None
    damage: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class Printed:
    """The SRD's printed numbers (monsters), for tests and for book values."""

    values: tuple[tuple[str, Any], ...] = ()
    attacks: tuple[PrintedAttack, ...] = ()
    full_attacks: tuple[tuple[PrintedAttack, ...], ...] = ()
    skills: tuple[tuple[str, int], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.values:
            if k == key:
                return v
        return default

    def __contains__(self, key: str) -> bool:
        return any(k == key for k, _ in self.values)


@dataclass(frozen=True, slots=True)
class Disagreement:
    field: str
    derived: Any
    printed: Any
    decided_by: str | None          # the RULES item (from the file's [decided]), None = undocumented


@dataclass(frozen=True, slots=True)
class Spellcasting:
    """Spell slots per spell level (index = level), domain slots, prepared spells, save DCs."""

    cls: str
    ability: str
    caster_level: int
    slots: tuple[int, ...]
    domain_slots: tuple[int, ...]
    prepared: tuple[tuple[str, ...], ...]
    domain_prepared: tuple[str | None, ...]
    domains: tuple[str, ...]
    ability_mod: int

    def save_dc(self, spell_level: int) -> int:
        """10 + spell level + casting ability modifier (RULES §8)."""
        return 10 + spell_level + self.ability_mod

    @property
    def max_level(self) -> int:
        return len(self.slots) - 1


@dataclass(frozen=True, slots=True)
class Source:
    """Validated source facts of one stat block (no derived numbers)."""

    key: str
    path: str
    name: str
    kind: str
    size: Size
    type: str
    subtypes: tuple[str, ...]
    race: str | None
    sex: str | None
    racial_hd: int
    good_saves: tuple[str, ...] | None
    levels: tuple[tuple[str, int], ...]
    abilities: Abilities
    natural_armor: int
    deflection: int
    armor: ArmorPiece | None
    shield: ArmorPiece | None
    feats: tuple[Feat, ...]
    skills: tuple[tuple[str, float], ...]
    weapons: tuple[WeaponEntry, ...]
    naturals: tuple[NaturalEntry, ...]
    full_attack: tuple[tuple[str, ...], ...] | None
    form: str
    body_overrides: tuple[tuple[str, float], ...]
    speed: Speeds
    senses: Senses
    defenses: Defenses
    riders: tuple[RiderSpec, ...]
    auras: tuple[AuraSpec, ...]
    swarm: SwarmSpec | None
    gear: tuple[tuple[str, int], ...]
    domains: tuple[str, ...]
    prepared: tuple[tuple[int, tuple[str, ...]], ...]
    domain_prepared: tuple[tuple[int, str], ...]
    book_values: frozenset[str]
    printed: Printed
    decided: tuple[tuple[str, str], ...]
    hp_rule: str
    alignment: str | None = None
    cr: str | None = None
    base_abilities: Abilities | None = None
    ability_increases: tuple[str, ...] = ()
    special_attacks: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StatBlock:
    """Derived statistics of one creature (immutable; recompute with :func:`derive`)."""

    key: str
    name: str
    kind: str
    size: Size
    type: str
    subtypes: tuple[str, ...]
    race: str | None
    levels: tuple[tuple[str, int], ...]
    hit_dice: int
    hit_dice_text: str
    abilities: Abilities
    hp: int
    ac: int
    touch_ac: int
    flat_footed_ac: int
    ac_parts: tuple[tuple[str, int], ...]
    initiative: int
    bab: int
    grapple: int | None
    saves: Saves
    speed: Speeds
    base_land_speed: int
    escape_artist: int
    skills: tuple[tuple[str, int], ...]
    armor: ArmorPiece | None
    shield: ArmorPiece | None
    armor_check_penalty: int
    max_dex_bonus: int | None
    attacks: tuple[Attack, ...]
    full_attacks: tuple[tuple[Attack, ...], ...]
    feats: tuple[Feat, ...]
    senses: Senses
    body: Body
    reach_ft: float
    defenses: Defenses
    riders: tuple[Rider, ...]
    auras: tuple[Aura, ...]
    swarm: SwarmStats | None
    sneak_attack: Dice | None
    features: tuple[str, ...]
    spells: Spellcasting | None
    gear: tuple[tuple[str, int], ...]
    light_sources: tuple[GearItem, ...]
    conditional: tuple[tuple[str, str, int], ...]
    special_attacks: tuple[str, ...]
    book_values: frozenset[str]
    disagreements: tuple[Disagreement, ...]
    printed: Printed
    source: Source

    # -- conveniences -------------------------------------------------------------------------
    @property
    def is_swarm(self) -> bool:
        return self.swarm is not None

    @property
    def space_ft(self) -> float:
        return self.body.space

    def has_feat(self, key: str) -> bool:
        return any(f.key == key for f in self.feats)

    def save(self, name: str) -> int:
        return getattr(self.saves, name)

    def skill(self, name: str) -> int:
        for k, v in self.skills:
            if k == name:
                return v
        return _skill_total(self.source, self.abilities, name, self.armor_check_penalty)

    def attack(self, name: str) -> Attack:
        for a in self.attacks:
            if a.name == name:
                return a
        names = ", ".join(a.name for a in self.attacks)
        raise KeyError(f"{self.key} has no attack {shorten(name)}; it has {names}")


# =================================================================================================
# Finding templates
# =================================================================================================

@functools.cache
def _template_index() -> dict[str, str]:
    """Template name -> path inside sim/data ("pcs/human-fighter-3.toml")."""
    root = _data.data_dir()
    out: dict[str, str] = {}
    pcs = root.joinpath("pcs")
    if pcs.is_dir():
        for f in sorted(pcs.iterdir(), key=lambda t: t.name):
            if f.name.endswith(".toml"):
                out[f.name[:-5]] = f"pcs/{f.name}"
    monsters = root.joinpath("monsters")
    if monsters.is_dir():
        for d in sorted(monsters.iterdir(), key=lambda t: t.name):
            if not d.is_dir():
                continue
            for f in sorted(d.iterdir(), key=lambda t: t.name):
                if f.name.endswith(".toml"):
                    stem = f.name[:-5]
                    if stem in out:
                        raise RuntimeError(f"two shipped stat blocks are called {shorten(stem)}")
                    out[stem] = f"monsters/{d.name}/{f.name}"
    return out


def list_templates(kind: str | None = None) -> tuple[str, ...]:
    """Names of the shipped stat blocks (PC templates, then monsters), optionally of one kind."""
    idx = _template_index()
    if kind is None:
        return tuple(idx)
    if kind == "pc":
        return tuple(k for k, p in idx.items() if p.startswith("pcs/"))
    if kind == "monster":
        return tuple(k for k, p in idx.items() if p.startswith("monsters/"))
    raise ValueError(f"kind must be 'pc' or 'monster', got {shorten(kind)}")


def template_path(name: str) -> str:
    """The data path of a shipped template; DataError listing close names if unknown."""
    idx = _template_index()
    if name in idx:
        return idx[name]
    close = difflib.get_close_matches(str(name), list(idx), n=5, cutoff=0.4)
    hint = f"did you mean {', '.join(close)}?" if close else f"shipped templates: {', '.join(idx)}"
    raise DataError(f"unknown template {shorten(name)}: {hint} (or give the path of a .toml stat block)")


def _looks_like_path(name: str | Path) -> bool:
    if isinstance(name, Path):
        return True
    s = str(name)
    return s.endswith(".toml") or "/" in s or "\\" in s


def template_in(name: str, named_in: str | Path) -> str:
    """The template a file names, found by one rule: a path (a name ending in ``.toml`` or holding
    a ``/``) is relative to the folder of the file that names it (``named_in``), an absolute path
    is itself, and anything else is a shipped stat block's name.

    >>> template_in("goblin", "maps/x.toml"), template_in("mine.toml", "maps/x.toml"), template_in("pcs/a", "maps/x.toml")
    ('goblin', 'maps/mine.toml', 'maps/pcs/a')
    """
    if _looks_like_path(name) and not Path(name).is_absolute():
        return str(Path(named_in).parent / name)
    return name


def _normalize_book(book_values: bool | Iterable[str] | None) -> frozenset[str] | None:
    if book_values is None:
        return None
    if book_values is True:
        return frozenset(BOOK_FIELDS)
    if book_values is False:
        return frozenset()
    if isinstance(book_values, str):
        book_values = [book_values]
    chosen = frozenset(book_values)
    unknown = chosen - set(BOOK_FIELDS)
    if unknown:
        raise ValueError(f"book_values: unknown fields {sorted(unknown)}; use {', '.join(BOOK_FIELDS)}")
    return chosen


def load_template(name_or_path: str | Path, *, book_values: bool | Iterable[str] | None = None) -> StatBlock:
    """The derived stat block of a shipped template ("goblin", "human-fighter-3") or of a user TOML
    file (a path). ``book_values`` overrides the file's own choice (True = every printed value
    the rules disagree with; a list = those fields). Every problem of the file is collected into
    one :class:`DataError` naming the file, the key and the fix.
    """
    book = _normalize_book(book_values)
    if _looks_like_path(name_or_path):
        path = Path(name_or_path)
        data, _text = read_toml(path)
        source = parse_source(data, where=str(path), key=path.stem)
        return derive(source, book_values=book)
    return _load_shipped(template_path(str(name_or_path)), book)


@functools.lru_cache(maxsize=256)
def _load_shipped(rel: str, book: frozenset[str] | None) -> StatBlock:
    data = _data.load(rel)
    key = rel.rsplit("/", 1)[-1][:-5]
    source = parse_source(data, where=f"sim/data/{rel}", key=key)
    return derive(source, book_values=book)


def creature_body(name_or_path: str | Path) -> tuple[str, Body]:
    """(display name, body) of a template or stat block file, for the movement tools."""
    block = load_template(name_or_path)
    return block.name, block.body


# =================================================================================================
# Parsing and validation
# =================================================================================================

class _Check:
    """Collects problems as complete lines: "<file>: <key>: <problem and fix>"."""

    def __init__(self, where: str):
        self.where = where
        self.problems: list[str] = []

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{self.where}: {key}: {msg}")

    def raise_if_any(self) -> None:
        if self.problems:
            raise DataError.collect(self.problems)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Ranges of the numbers a stat block gives (refused outside them, before any arithmetic).
MAX_WHOLE = 10_000          # any whole number without a range of its own (hit dice, bonuses, counts)
MAX_ABILITY = 100           # an ability score
MAX_LEVEL = 40              # a class level
MAX_RANKS = 100             # skill ranks
MAX_LENGTH_FT = 1000        # a body length, a speed (feet)


def _is_num(v: Any, limit: float = MAX_WHOLE) -> bool:
    """A finite number of magnitude at most ``limit`` (a huge whole number is refused without
    being turned into a float, which would overflow).

    >>> _is_num(2.5), _is_num(10 ** 400), _is_num(float("nan")), _is_num(True)
    (True, False, False, False)
    """
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if isinstance(v, int):
        return abs(v) <= limit
    return math.isfinite(v) and abs(v) <= limit


def _int(chk: _Check, table: Mapping[str, Any], key: str, label: str, *, default: int | None = None,
         minimum: int | None = None, maximum: int = MAX_WHOLE) -> int | None:
    if key not in table:
        if default is None:
            chk.bad(label, f"missing; add {key} = <whole number>")
        return default
    v = table[key]
    if not _is_int(v):
        chk.bad(label, f"must be a whole number, got {shorten(v)}")
        return default
    if minimum is not None and v < minimum:
        chk.bad(label, f"must be >= {minimum}, got {shorten(v)}")
        return default
    if v > maximum:
        chk.bad(label, f"must be at most {maximum}, got {shorten(v)}")
        return default
    return v


def _str(chk: _Check, table: Mapping[str, Any], key: str, label: str, *, default: str | None = None,
         required: bool = False) -> str | None:
    if key not in table:
        if required:
            chk.bad(label, f"missing; add {key} = \"...\"")
        return default
    v = table[key]
    if not isinstance(v, str) or not v.strip():
        chk.bad(label, f"must be a non-empty string, got {shorten(v)}")
        return default
    return v.strip()


def _bool(chk: _Check, table: Mapping[str, Any], key: str, label: str, default: bool = False) -> bool:
    v = table.get(key, default)
    if not isinstance(v, bool):
        chk.bad(label, f"must be true or false, got {shorten(v)}")
        return default
    return v


def _str_list(chk: _Check, table: Mapping[str, Any], key: str, label: str) -> tuple[str, ...]:
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        chk.bad(label, f"must be a list of strings, got {shorten(v)}")
        return ()
    return tuple(x.strip() for x in v)


def _table(chk: _Check, data: Mapping[str, Any], key: str, label: str) -> dict[str, Any]:
    v = data.get(key, {})
    if not isinstance(v, dict):
        chk.bad(label, f"must be a table ([{key}]), got {shorten(v)}")
        return {}
    return v


def _dice(chk: _Check, value: Any, label: str) -> Dice | None:
    try:
        return Dice.parse(value)
    except (DataError, ValueError) as exc:
        chk.bad(label, str(exc))
        return None


def _size_of(chk: _Check, value: Any, label: str) -> Size | None:
    if not isinstance(value, str):
        chk.bad(label, f"must be a size name, got {shorten(value)}")
        return None
    try:
        return Size.parse(value)
    except KeyError as exc:
        chk.bad(label, exc.args[0])
        return None


def _key(text: str) -> str:
    """Lower case with underscores: "magical beast" -> "magical_beast"."""
    return re.sub(r"[\s-]+", "_", str(text).strip().lower())


def _close(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.5)
    return f"did you mean {', '.join(close)}?" if close else f"use one of {', '.join(choices)}"


_FEAT_RE = re.compile(r"^\s*([^()]+?)\s*(?:\((.*)\))?\s*$")


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


def _parse_piece(chk: _Check, value: Any, label: str, shield: bool) -> ArmorPiece | None:
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
        if not isinstance(mw, bool) or not _is_int(enh) or enh < 0:
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
    """Validate a parsed stat block; every problem is collected into one :class:`DataError`."""
    chk = _Check(where)
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: a stat block is a TOML table")
    for k in data:
        if k not in _TOP_KEYS:
            chk.bad(k, f"unknown key; a stat block has {', '.join(sorted(_TOP_KEYS))}")

    sv = data.get("schema_version")
    if sv is None:
        chk.bad("schema_version", f"missing; add schema_version = {SCHEMA_VERSION}")
    elif sv != SCHEMA_VERSION:
        chk.bad("schema_version", f"{shorten(sv)} is not supported; this cavesim reads schema_version = {SCHEMA_VERSION}")

    name = _str(chk, data, "name", "name", required=True) or key
    kind = _str(chk, data, "kind", "kind", required=True) or "monster"
    if kind not in KINDS:
        chk.bad("kind", f"must be \"pc\" or \"monster\", got {shorten(kind)}")
        kind = "monster"

    # -- race / size / type ------------------------------------------------------------------
    race = sex = None
    race_row: dict[str, Any] = {}
    size: Size | None = None
    ctype = "humanoid"
    subtypes = _str_list(chk, data, "subtypes", "subtypes")
    if kind == "pc":
        race = _str(chk, data, "race", "race", required=True)
        if race is not None:
            races = race_table()
            rk = normalize_name(race)
            if rk not in races:
                chk.bad("race", f"unknown race {shorten(race)}: {_close(rk, races)}")
                race = None
            else:
                race = rk
                race_row = races[rk]
                size = Size.parse(race_row["size"])
                ctype = race_row.get("type", "humanoid")
                subtypes = subtypes or tuple(race_row.get("subtypes", ()))
        sex = _str(chk, data, "sex", "sex", default="male")
        if sex not in ("male", "female"):
            chk.bad("sex", f"must be \"male\" or \"female\", got {shorten(sex)}")
            sex = "male"
        if "size" in data:
            chk.bad("size", "a PC's size comes from its race; remove size")
    else:
        if "size" not in data:
            chk.bad("size", "missing; add size = \"medium\" (fine..colossal)")
        else:
            size = _size_of(chk, data["size"], "size")
        t = _str(chk, data, "type", "type", required=True)
        if t is not None:
            tk = _key(t)
            if tk not in type_table():
                chk.bad("type", f"unknown creature type {shorten(t)}: {_close(tk, type_table())}")
            else:
                ctype = tk
    size = size or Size.MEDIUM

    # -- Hit Dice: racial and class levels ---------------------------------------------------
    racial_hd = _int(chk, data, "racial_hd", "racial_hd", default=0, minimum=0) or 0
    good_saves = None
    if "good_saves" in data:
        gs = _str_list(chk, data, "good_saves", "good_saves")
        bad_saves = [s for s in gs if s not in SAVE_ABILITY]
        if bad_saves:
            chk.bad("good_saves", f"unknown saves {bad_saves}; use fort, ref, will")
        good_saves = tuple(s for s in gs if s in SAVE_ABILITY)
    levels: list[tuple[str, int]] = []
    for cls, lvl in _table(chk, data, "levels", "[levels]").items():
        ck = normalize_name(cls)
        if ck not in class_table():
            chk.bad(f"[levels] {cls}", f"unknown class: {_close(ck, class_table())}")
            continue
        if not _is_int(lvl) or not 1 <= lvl <= MAX_LEVEL:
            chk.bad(f"[levels] {cls}", f"must be a level from 1 to {MAX_LEVEL}, got {shorten(lvl)}")
            continue
        levels.append((ck, lvl))
    if racial_hd == 0 and not levels:
        chk.bad("racial_hd", "no Hit Dice: give racial_hd = N (monsters) or [levels] class = N")
    if kind == "pc" and not levels:
        chk.bad("[levels]", "a PC needs class levels, e.g. [levels] fighter = 1")

    # -- abilities -----------------------------------------------------------------------------
    ab_raw = _table(chk, data, "abilities", "[abilities]")
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
        elif not _is_int(v) or not 0 <= v <= MAX_ABILITY:
            chk.bad(f"[abilities] {a}", f"must be a score from 0 to {MAX_ABILITY} or \"-\", got {shorten(v)}")
            scores[a] = 10
        else:
            scores[a] = v
    for a in ab_raw:
        if a not in ABILITIES:
            chk.bad(f"[abilities] {a}", f"unknown ability; use {', '.join(ABILITIES)}")
    increases = _str_list(chk, data, "ability_increases", "ability_increases")
    for inc in increases:
        if inc not in ABILITIES:
            chk.bad("ability_increases", f"unknown ability {shorten(inc)}; use {', '.join(ABILITIES)}")
    increases = tuple(i for i in increases if i in ABILITIES)
    base_abilities = Abilities(**scores)
    if kind == "pc":
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
        abilities = Abilities(**final)
    else:
        abilities = base_abilities

    # -- armor, feats, skills ------------------------------------------------------------------
    natural_armor = _int(chk, data, "natural_armor", "natural_armor", default=0, minimum=0) or 0
    deflection = _int(chk, data, "deflection", "deflection", default=0, minimum=0) or 0
    armor = _parse_piece(chk, data.get("armor"), "armor", shield=False)
    shield = _parse_piece(chk, data.get("shield"), "shield", shield=True)
    if armor is not None and armor.is_shield:
        chk.bad("armor", "is a shield; put it under shield")

    feats: list[Feat] = []
    for i, text in enumerate(_str_list(chk, data, "feats", "feats")):
        try:
            f = parse_feat(text)
        except DataError as exc:
            chk.bad(f"feats[{i}]", str(exc))
            continue
        ftable = feat_table()
        if f.key not in ftable:
            chk.bad(f"feats[{i}]", f"unknown feat {shorten(text)}: {_close(f.key, ftable)}")
            continue
        row = ftable[f.key]
        if row.get("parameter") and f.param is None:
            chk.bad(f"feats[{i}]", f"{shorten(text)} needs a parameter, e.g. \"{text} (longsword)\"")
            continue
        if row.get("parameter") == "weapon" and f.param is not None:
            if f.param not in natural_kinds():
                try:
                    f = Feat(f.key, resolve_weapon_name(f.param))
                except DataError as exc:
                    chk.bad(f"feats[{i}]", str(exc))
                    continue
        if not row.get("repeatable") and f in feats:
            chk.bad(f"feats[{i}]", f"{shorten(text)} is listed twice and cannot be taken twice")
            continue
        feats.append(f)

    skills: list[tuple[str, float]] = []
    for sk, ranks in _table(chk, data, "skills", "[skills]").items():
        skk = _key(sk)
        if skk not in skill_table():
            chk.bad(f"[skills] {sk}", f"unknown skill: {_close(skk, skill_table())}")
            continue
        if not _is_num(ranks, MAX_RANKS) or ranks < 0 or (ranks * 2) != int(ranks * 2):
            chk.bad(f"[skills] {sk}", f"must be ranks from 0 to {MAX_RANKS} in steps of 0.5, got {shorten(ranks)}")
            continue
        skills.append((skk, float(ranks)))

    # -- weapons and natural attacks -------------------------------------------------------------
    weapons: list[WeaponEntry] = []
    raw_weapons = data.get("weapon", [])
    if not isinstance(raw_weapons, list):
        chk.bad("[[weapon]]", "write each weapon as a [[weapon]] table with name = \"...\"")
        raw_weapons = []
    for i, w in enumerate(raw_weapons):
        weapons_entry = _parse_weapon(chk, w, f"[[weapon]] #{i + 1}", size)
        if weapons_entry is not None:
            weapons.append(weapons_entry)
    naturals: list[NaturalEntry] = []
    raw_nat = data.get("natural", [])
    if not isinstance(raw_nat, list):
        chk.bad("[[natural]]", "write each natural attack as a [[natural]] table")
        raw_nat = []
    for i, n in enumerate(raw_nat):
        ne = _parse_natural(chk, n, f"[[natural]] #{i + 1}")
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

    # -- body, speed, senses, defenses ---------------------------------------------------------------
    body_raw = _table(chk, data, "body", "[body]")
    form = body_raw.get("form", "tall")
    if form not in ("tall", "long"):
        chk.bad("[body] form", f"must be \"tall\" or \"long\", got {shorten(form)}")
        form = "tall"
    overrides: list[tuple[str, float]] = []
    for k, v in body_raw.items():
        if k == "form":
            continue
        if k not in ("height", "head", "shoulders", "depth", "space"):
            chk.bad(f"[body] {k}", "unknown key; allowed: form, height, head, shoulders, depth, space")
            continue
        if not _is_num(v, MAX_LENGTH_FT) or v <= 0:
            chk.bad(f"[body] {k}", f"must be a length in feet > 0 and at most {MAX_LENGTH_FT}, got {shorten(v)}")
            continue
        overrides.append((k, float(v)))

    speed = _parse_speed(chk, data, kind, race_row)
    senses = _parse_senses(chk, data, race_row)
    defenses = _parse_defenses(chk, data, race_row)
    riders = _parse_riders(chk, data)
    auras = _parse_auras(chk, data)
    swarm = _parse_swarm(chk, data, size, subtypes, {r.key for r in riders})
    rider_keys = {r.key for r in riders}
    for n in naturals:
        for r in n.riders:
            if r not in rider_keys:
                chk.bad(f"[[natural]] {n.name} riders", f"no [[rider]] with key {shorten(r)}; add one")

    gear: list[tuple[str, int]] = []
    for item, count in _table(chk, data, "gear", "[gear]").items():
        try:
            g = gear_item(item)
        except DataError as exc:
            chk.bad(f"[gear] {item}", str(exc))
            continue
        if not _is_int(count) or count < 0:
            chk.bad(f"[gear] {item}", f"must be a count >= 0, got {shorten(count)}")
            continue
        gear.append((g.key, count))

    domains, prepared, domain_prepared = _parse_spells(chk, data)

    # -- book values, printed, decided --------------------------------------------------------------
    bv = data.get("book_values", False)
    book: frozenset[str] = frozenset()
    if bv is True:
        book = frozenset(BOOK_FIELDS)
    elif isinstance(bv, list) and all(isinstance(x, str) for x in bv):
        unknown = [x for x in bv if x not in BOOK_FIELDS]
        if unknown:
            chk.bad("book_values", f"unknown fields {unknown}; use true or a list of {', '.join(BOOK_FIELDS)}")
        book = frozenset(x for x in bv if x in BOOK_FIELDS)
    elif bv is not False:
        chk.bad("book_values", f"must be true, false or a list of field names, got {shorten(bv)}")
    printed = _parse_printed(chk, data.get("printed", {}))
    decided_raw = _table(chk, data, "decided", "[decided]")
    decided = []
    for k, v in decided_raw.items():
        if not isinstance(v, str):
            chk.bad(f"[decided] {k}", "must be a string citing the RULES item")
            continue
        decided.append((k, v))

    hp_rule = data.get("hp_rule", "pc" if kind == "pc" else "average")
    if hp_rule not in ("pc", "average"):
        chk.bad("hp_rule", f"must be \"pc\" (max at 1st level, then average rounded up) or \"average\", got {shorten(hp_rule)}")
        hp_rule = "average"

    chk.raise_if_any()
    return Source(
        key=key, path=where, name=name, kind=kind, size=size, type=ctype, subtypes=tuple(subtypes),
        race=race, sex=sex, racial_hd=racial_hd, good_saves=good_saves, levels=tuple(levels),
        abilities=abilities, natural_armor=natural_armor, deflection=deflection, armor=armor,
        shield=shield, feats=tuple(feats), skills=tuple(skills), weapons=tuple(weapons),
        naturals=tuple(naturals), full_attack=full_attack, form=form, body_overrides=tuple(overrides),
        speed=speed, senses=senses, defenses=defenses, riders=tuple(riders), auras=tuple(auras),
        swarm=swarm, gear=tuple(gear), domains=domains, prepared=prepared,
        domain_prepared=domain_prepared, book_values=book, printed=printed, decided=tuple(decided),
        hp_rule=hp_rule, alignment=data.get("alignment"), cr=str(data["cr"]) if "cr" in data else None,
        base_abilities=base_abilities if kind == "pc" else None, ability_increases=increases,
        special_attacks=_str_list(chk, data, "special_attacks", "special_attacks"),
    )


def _parse_weapon(chk: _Check, w: Any, label: str, size: Size) -> WeaponEntry | None:
    if not isinstance(w, dict):
        chk.bad(label, "must be a table with name = \"...\"")
        return None
    allowed = {"name", "count", "size", "masterwork", "enhancement", "abilities", "grip",
               "composite_rating", "proficient"}
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
        wsize = _size_of(chk, w["size"], f"{label} size") or size
    weapon = weapon_named(key, size=wsize)
    count = w.get("count", 1)
    if not _is_int(count) or count < 1:
        chk.bad(f"{label} count", f"must be a whole number >= 1, got {shorten(count)}")
        count = 1
    enh = w.get("enhancement", 0)
    if not _is_int(enh) or not 0 <= enh <= 5:
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
    if not _is_int(rating) or rating < 0:
        chk.bad(f"{label} composite_rating", f"must be a whole number >= 0, got {shorten(rating)}")
        rating = 0
    proficient = w.get("proficient")
    if proficient is not None and not isinstance(proficient, bool):
        chk.bad(f"{label} proficient", "must be true or false")
        proficient = None
    return WeaponEntry(key, weapon, count, mw, enh, tuple(abilities), grip, rating, proficient)


def _parse_natural(chk: _Check, n: Any, label: str) -> NaturalEntry | None:
    if not isinstance(n, dict):
        chk.bad(label, "must be a table with name and damage")
        return None
    allowed = {"name", "kind", "damage", "count", "primary", "riders", "crit"}
    for k in n:
        if k not in allowed:
            chk.bad(f"{label}.{k}", f"unknown key; allowed: {', '.join(sorted(allowed))}")
    name = n.get("name")
    if not isinstance(name, str):
        chk.bad(label, "missing name = \"claw\" (or bite, gore, slam, sting, tentacle...)")
        return None
    kind = n.get("kind", name)
    if kind not in natural_kinds():
        chk.bad(f"{label} name", f"unknown natural weapon {shorten(kind)}: {_close(str(kind), natural_kinds())}")
        return None
    if "damage" not in n:
        chk.bad(f"{label} damage", "missing; add damage = \"1d4\" (the printed die)")
        return None
    dmg = _dice(chk, n["damage"], f"{label} damage")
    if dmg is None:
        return None
    count = n.get("count", 1)
    if not _is_int(count) or count < 1:
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
    return NaturalEntry(name, kind, dmg, count, primary, tuple(riders), crit)


def _parse_speed(chk: _Check, data: Mapping[str, Any], kind: str, race_row: Mapping[str, Any]) -> Speeds:
    raw = _table(chk, data, "speed", "[speed]")
    if kind == "pc" and "land" not in raw:
        land = int(race_row.get("speed", 30))
    else:
        land = _int(chk, raw, "land", "[speed] land", default=None if kind == "monster" else 30, minimum=0,
                    maximum=MAX_LENGTH_FT)
        land = land if land is not None else 0
    vals = {}
    for k in ("climb", "swim", "burrow", "fly"):
        vals[k] = _int(chk, raw, k, f"[speed] {k}", default=0, minimum=0, maximum=MAX_LENGTH_FT) or 0
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


def _parse_senses(chk: _Check, data: Mapping[str, Any], race_row: Mapping[str, Any]) -> Senses:
    raw = dict(race_row.get("senses", {}))
    raw.update(_table(chk, data, "senses", "[senses]"))
    kw: dict[str, Any] = {}
    for f in dataclasses.fields(Senses):
        if f.name not in raw:
            continue
        v = raw[f.name]
        if f.type in ("bool", bool):
            if not isinstance(v, bool):
                chk.bad(f"[senses] {f.name}", f"must be true or false, got {shorten(v)}")
                continue
        elif not _is_int(v) or v < 0:
            chk.bad(f"[senses] {f.name}", f"must be a range in feet >= 0, got {shorten(v)}")
            continue
        kw[f.name] = v
    for k in raw:
        if k not in {f.name for f in dataclasses.fields(Senses)}:
            chk.bad(f"[senses] {k}", "unknown sense; allowed: " + ", ".join(f.name for f in dataclasses.fields(Senses)))
    return Senses(**kw)


def _parse_defenses(chk: _Check, data: Mapping[str, Any], race_row: Mapping[str, Any]) -> Defenses:
    raw = _table(chk, data, "defenses", "[defenses]")
    dr = raw.get("damage_reduction", {})
    amount, bypass = 0, None
    if dr:
        if not isinstance(dr, dict) or not _is_int(dr.get("amount")) or not isinstance(dr.get("bypass"), str):
            chk.bad("[defenses] damage_reduction", "must be { amount = 10, bypass = \"magic\" }")
        else:
            amount, bypass = dr["amount"], dr["bypass"]
    resist = raw.get("resist", {})
    if not isinstance(resist, dict) or not all(_is_int(v) and v > 0 for v in resist.values()):
        chk.bad("[defenses] resist", "must be a table such as { fire = 10 }")
        resist = {}
    regen = raw.get("regeneration", {})
    r_amount, r_by = 0, ()
    if regen:
        if not isinstance(regen, dict) or not _is_int(regen.get("amount")):
            chk.bad("[defenses] regeneration", "must be { amount = 5, bypassed_by = [\"fire\", \"acid\"] }")
        else:
            r_amount = regen["amount"]
            r_by = tuple(regen.get("bypassed_by", ()))
    immune = list(race_row.get("immune", ()))
    immune += list(_str_list(chk, raw, "immune", "[defenses] immune"))
    for k in raw:
        if k not in ("damage_reduction", "resist", "regeneration", "immune"):
            chk.bad(f"[defenses] {k}", "unknown key; allowed: damage_reduction, resist, regeneration, immune")
    return Defenses(amount, bypass, tuple(sorted(resist.items())), r_amount, r_by, tuple(immune))


def _parse_riders(chk: _Check, data: Mapping[str, Any]) -> list[RiderSpec]:
    out: list[RiderSpec] = []
    raw = data.get("rider", [])
    if not isinstance(raw, list):
        chk.bad("[[rider]]", "write each rider as a [[rider]] table")
        return out
    for i, r in enumerate(raw):
        label = f"[[rider]] #{i + 1}"
        if not isinstance(r, dict):
            chk.bad(label, "must be a table")
            continue
        key = _str(chk, r, "key", f"{label} key", required=True)
        kind = _str(chk, r, "kind", f"{label} kind", required=True)
        if key is None or kind is None:
            continue
        if kind not in RIDER_KINDS:
            chk.bad(f"{label} kind", f"must be one of {', '.join(RIDER_KINDS)}, got {shorten(kind)}")
            continue
        save = r.get("save")
        dc_ab = r.get("dc_ability")
        if kind != "wounding":
            if save not in SAVE_ABILITY:
                chk.bad(f"{label} save", "must be fort, ref or will")
            if dc_ab not in ABILITIES:
                chk.bad(f"{label} dc_ability", "the ability the DC is based on: con, cha ... (DC = 10 + HD/2 + mod)")
        dmg = r.get("damage", [])
        if isinstance(dmg, str):
            dmg = [dmg]
        out.append(RiderSpec(key, kind, save, dc_ab, r.get("initial"), r.get("secondary"),
                             r.get("incubation"), tuple(dmg), int(r.get("bleed", 0))))
    return out


def _parse_auras(chk: _Check, data: Mapping[str, Any]) -> list[AuraSpec]:
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
        key = _str(chk, a, "key", f"{label} key", required=True)
        save = a.get("save")
        dc_ab = a.get("dc_ability")
        if save not in SAVE_ABILITY or dc_ab not in ABILITIES:
            chk.bad(label, "needs save = \"fort\" and dc_ability = \"con\" (DC = 10 + HD/2 + mod)")
            continue
        radius = _int(chk, a, "radius_ft", f"{label} radius_ft", minimum=0)
        rounds = _int(chk, a, "duration_rounds", f"{label} duration_rounds", minimum=0)
        effect = _str(chk, a, "effect", f"{label} effect", required=True)
        if key and radius is not None and rounds is not None and effect:
            out.append(AuraSpec(key, save, dc_ab, radius, effect, rounds))
    return out


def _parse_swarm(chk: _Check, data: Mapping[str, Any], size: Size, subtypes: tuple[str, ...],
                 rider_keys: set[str]) -> SwarmSpec | None:
    if "swarm" not in data:
        if "swarm" in subtypes:
            chk.bad("[swarm]", "a creature of the swarm subtype needs [swarm] with component and flying")
        return None
    raw = _table(chk, data, "swarm", "[swarm]")
    comp = _size_of(chk, raw.get("component"), "[swarm] component") if "component" in raw else None
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
    flying = _bool(chk, raw, "flying", "[swarm] flying")
    riders = _str_list(chk, raw, "riders", "[swarm] riders")
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
    return SwarmSpec(comp, flying, riders, wd, _str_list(chk, raw, "aligned", "[swarm] aligned"),
                     _bool(chk, raw, "hive_mind", "[swarm] hive_mind"))


def _parse_spells(chk: _Check, data: Mapping[str, Any]):
    raw = _table(chk, data, "spells", "[spells]")
    domains = _str_list(chk, raw, "domains", "[spells] domains")
    for d in domains:
        if d not in domain_table():
            chk.bad("[spells] domains", f"unknown domain {shorten(d)}: {_close(d, domain_table())}")
    prepared: list[tuple[int, tuple[str, ...]]] = []
    prep_raw = raw.get("prepared", {})
    if not isinstance(prep_raw, dict):
        chk.bad("[spells] prepared", "must be a table: \"0\" = [...], \"1\" = [...]")
        prep_raw = {}
    spells = spell_table()
    for lvl, names in prep_raw.items():
        label = f"[spells.prepared] {lvl}"
        if not str(lvl).isdigit():
            chk.bad(label, "keys are spell levels: \"0\", \"1\", \"2\"...")
            continue
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            chk.bad(label, "must be a list of spell names")
            continue
        for n in names:
            if normalize_name(n) not in spells:
                chk.bad(label, f"unknown spell {shorten(n)}: {_close(normalize_name(n), spells)}")
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
        if k not in ("domains", "prepared", "domain"):
            chk.bad(f"[spells] {k}", "unknown key; allowed: domains, prepared, domain")
    return tuple(domains), tuple(sorted(prepared)), tuple(sorted(dom_prep))


def _printed_attack(chk: _Check, a: Any, label: str) -> PrintedAttack | None:
    if not isinstance(a, dict) or not isinstance(a.get("name"), str) or "damage" not in a:
        chk.bad(label, "needs name = \"...\", damage = \"1d6\" and bonus = N (omit bonus for a swarm)")
        return None
    bonus = a.get("bonus")
    if bonus is not None and not _is_int(bonus):
        chk.bad(f"{label} bonus", f"must be a whole number, got {shorten(bonus)}")
        bonus = None
    if _dice(chk, a["damage"], f"{label} damage") is None:
        return None
    count = a.get("count", 1)
    return PrintedAttack(a["name"], bonus, str(a["damage"]), int(count) if _is_int(count) else 1)


def _parse_printed(chk: _Check, raw: Any) -> Printed:
    if not isinstance(raw, dict):
        chk.bad("[printed]", "must be a table")
        return Printed()
    values: list[tuple[str, Any]] = []
    attacks: list[PrintedAttack] = []
    routines: list[tuple[PrintedAttack, ...]] = []
    skills: list[tuple[str, int]] = []
    for k, v in raw.items():
        if k in _INT_PRINTED:
            if not _is_int(v):
                chk.bad(f"[printed] {k}", f"must be a whole number, got {shorten(v)}")
                continue
            values.append((k, v))
        elif k == "grapple":
            if not (_is_int(v) or v == "-"):
                chk.bad("[printed] grapple", f"must be a whole number or \"-\", got {shorten(v)}")
                continue
            values.append((k, None if v == "-" else v))
        elif k == "hit_dice":
            if _dice(chk, v, "[printed] hit_dice") is not None:
                values.append((k, str(Dice.parse(v))))
        elif k == "weapon_damage":
            if v not in WEAPON_DAMAGE_RULES:
                chk.bad("[printed] weapon_damage", f"must be one of {', '.join(WEAPON_DAMAGE_RULES)}")
                continue
            values.append((k, v))
        elif k in ("rider_dc", "aura_dc"):
            if not isinstance(v, dict) or not all(_is_int(x) for x in v.values()):
                chk.bad(f"[printed] {k}", "must be a table { key = DC }")
                continue
            values.append((k, tuple(sorted(v.items()))))
        elif k == "attack":
            for i, a in enumerate(v if isinstance(v, list) else []):
                pa = _printed_attack(chk, a, f"[[printed.attack]] #{i + 1}")
                if pa:
                    attacks.append(pa)
        elif k == "full_attack":
            for i, r in enumerate(v if isinstance(v, list) else []):
                items = r.get("attacks", []) if isinstance(r, dict) else []
                routine = [_printed_attack(chk, a, f"[[printed.full_attack]] #{i + 1}") for a in items]
                routines.append(tuple(p for p in routine if p))
        elif k == "skills":
            if isinstance(v, dict):
                skills.extend((_key(s), int(x)) for s, x in v.items() if _is_int(x))
        elif k in ("cr", "notes"):
            values.append((k, v))
        else:
            chk.bad(f"[printed] {k}", "unknown key; allowed: " + ", ".join(
                BOOK_FIELDS + ("attack", "full_attack", "skills", "cr", "notes")))
    return Printed(tuple(values), tuple(attacks), tuple(routines), tuple(skills))


# =================================================================================================
# Derivation
# =================================================================================================

def _progressions(src: Source) -> list[tuple[int, str, tuple[str, ...], int, str]]:
    """(hit die, BAB rule, good saves, HD, label) for racial HD and each class."""
    out = []
    if src.racial_hd:
        t = type_table()[src.type]
        good = src.good_saves if src.good_saves is not None else tuple(t["good_saves"])
        out.append((int(t["hit_die"]), t["bab"], good, src.racial_hd, src.type))
    for cls, lvl in src.levels:
        c = class_table()[cls]
        out.append((int(c["hit_die"]), c["bab"], tuple(c["good_saves"]), lvl, cls))
    return out


def _feat_count(src: Source, key: str) -> int:
    return sum(1 for f in src.feats if f.key == key)


def _feats_with(src: Source, key: str) -> set[str]:
    return {f.param for f in src.feats if f.key == key and f.param}


def _hit_points(src: Source, progs, con_mod: int) -> tuple[int, str]:
    hd = sum(p[3] for p in progs)
    toughness = _feat_count(src, "toughness") * int(feat_table()["toughness"]["hp"])
    if src.hp_rule == "pc":
        total = 0
        first = True
        for die, _, _, n, _ in progs:
            for _ in range(n):
                roll = die if first else die // 2 + 1
                first = False
                total += max(1, roll + con_mod)
        hp = total + toughness
    else:
        avg = sum(n * (die + 1) / 2 for die, _, _, n, _ in progs)
        hp = max(hd, math.floor(avg + con_mod * hd + toughness))
    bonus = con_mod * hd + toughness
    dice_parts = [f"{n}d{die}" for die, _, _, n, _ in progs]
    text = " plus ".join(dice_parts)
    if bonus > 0:
        text += f"+{bonus}"
    elif bonus < 0:
        text += f"-{-bonus}"
    return hp, text


def _armor_check_penalty(src: Source) -> int:
    return sum(p.effective_check_penalty for p in (src.armor, src.shield) if p is not None)


def _skill_total(src: Source, ab: Abilities, skill: str, acp: int) -> int:
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


def _proficient(src: Source, w: Weapon) -> bool:
    if w.improvised:
        return False
    if w.natural or src.kind != "pc":
        return True
    allowed: set[str] = set()
    for cls, _ in src.levels:
        allowed |= set(class_table()[cls]["weapon_proficiency"])
    if src.race:
        allowed |= set(race_table()[src.race].get("weapon_proficiency", ()))
    allowed |= _feats_with(src, "exotic-weapon-proficiency") | _feats_with(src, "martial-weapon-proficiency")
    return w.key in allowed or w.proficiency in allowed


def _armor_proficient(src: Source, piece: ArmorPiece) -> bool:
    if src.kind != "pc":
        return True
    for cls, _ in src.levels:
        c = class_table()[cls]
        if piece.is_shield:
            sp = c["shield_proficiency"]
            if sp == "all" or (sp == "all_but_tower" and piece.key != "tower-shield"):
                return True
        elif piece.kind in c["armor_proficiency"]:
            return True
    return False


def _str_bonus(mod: int, mult: float) -> int:
    """Strength to damage: bonuses are multiplied (x1.5 two-handed, x0.5 off-hand or secondary),
    penalties are not (SRD Combat; printed kobold spear 1d6-1)."""
    if mod <= 0:
        return mod
    return math.floor(mod * mult)


class _Ctx:
    """What attack derivation needs, computed once."""

    def __init__(self, src: Source, ab: Abilities, bab: int):
        self.src = src
        self.ab = ab
        self.bab = bab
        self.str_mod = ab.mod("str")
        self.dex_mod = ab.mod("dex")
        self.size = src.size
        self.finesse = any(f.key == "weapon-finesse" for f in src.feats)
        self.focus = _feats_with(src, "weapon-focus")
        self.spec = _feats_with(src, "weapon-specialization")
        self.crit = _feats_with(src, "improved-critical")
        self.multiattack = any(f.key == "multiattack" for f in src.feats)
        self.race = race_table()[src.race] if src.race else {}
        self.reach = src.size.facts.reach_long_ft if src.form == "long" else src.size.facts.reach_tall_ft
        self.armor_attack = 0
        for piece in (src.armor, src.shield):
            if piece is not None and not _armor_proficient(src, piece):
                self.armor_attack += piece.effective_check_penalty
        self.shield_acp = src.shield.effective_check_penalty if src.shield is not None else 0
        self.tower = src.shield.attack_penalty if src.shield is not None else 0


def _iteratives(first: int, bab: int) -> tuple[int, ...]:
    """+BAB, +BAB-5, ... for BAB 6+ (max 4 attacks)."""
    n = min(4, 1 + max(0, bab - 1) // 5)
    return tuple(first - 5 * k for k in range(n))


def _weapon_attacks(ctx: _Ctx, entry: WeaponEntry) -> list[Attack]:
    w = entry.weapon
    src = ctx.src
    handed = handed_index(w, ctx.size)
    if handed is None:
        raise DataError(f"{src.path}: [[weapon]] {entry.name}: a {ctx.size.key} creature cannot wield a "
                        f"{w.size.key} {w.key} (RULES §2.5 step 2); remove it or give size = \"{ctx.size.key}\"")
    modes: list[tuple[str, bool]] = []
    if w.ranged:
        modes.append(("ranged", w.thrown))
    else:
        modes.append(("melee", False))
        if w.thrown:
            modes.append(("ranged", True))
    out = []
    for mode, thrown in modes:
        parts: list[tuple[str, int]] = [("base attack", ctx.bab)]
        dmg_parts: list[tuple[str, int]] = []
        if mode == "melee":
            use_dex = (ctx.finesse and (handed == 1 or (w.finesse and w.size == ctx.size))
                       and ctx.dex_mod > ctx.str_mod)
            if use_dex:
                parts.append(("dex (weapon finesse)", ctx.dex_mod))
                if ctx.shield_acp:
                    parts.append(("shield check penalty (finesse)", ctx.shield_acp))
            else:
                parts.append(("str", ctx.str_mod))
        else:
            parts.append(("dex", ctx.dex_mod))
        parts.append(("size", ctx.size.modifier))
        if w.key in ctx.focus:
            parts.append(("weapon focus", 1))
        if entry.enhancement:
            parts.append(("enhancement", entry.enhancement))
        elif entry.masterwork:
            parts.append(("masterwork", 1))
        proficient = entry.proficient if entry.proficient is not None else _proficient(src, w)
        if w.improvised:      # improvised weapons count as nonproficient (RULES §3.1)
            parts.append(("improvised", combat_modifier("attack", "nonproficient")))
        elif not proficient:
            parts.append(("nonproficient", combat_modifier("attack", "nonproficient")))
        steps = abs(int(w.size) - int(ctx.size))
        if steps:
            parts.append(("inappropriate size", -2 * steps))
        if mode == "ranged" and thrown:
            racial = int(ctx.race.get("attack_with", {}).get("thrown", 0))
            if racial:
                parts.append(("racial (thrown)", racial))
        if w.key == "sling":
            racial = int(ctx.race.get("attack_with", {}).get("sling", 0))
            if racial:
                parts.append(("racial (sling)", racial))
        if ctx.armor_attack:
            parts.append(("armor nonproficiency", ctx.armor_attack))
        if ctx.tower:
            parts.append(("tower shield", ctx.tower))
        bonus = sum(v for _, v in parts)

        # damage (RULES §3.1)
        if mode == "melee":
            if entry.grip == "off-hand":
                mult = 0.5
            elif handed == 3 or (entry.grip == "two-hands" and handed == 2 and not w.no_two_handed_str):
                mult = 1.5
            else:
                mult = 1.0
            s = _str_bonus(ctx.str_mod, mult)
        elif thrown or w.strength == "full":
            s = ctx.str_mod
        elif w.strength == "penalty":
            s = min(0, ctx.str_mod)
        elif w.strength == "composite":
            s = min(ctx.str_mod, entry.composite_rating) if ctx.str_mod > 0 else ctx.str_mod
        else:
            s = 0
        if s:
            dmg_parts.append(("str", s))
        if mode == "melee" and w.key in ctx.spec:
            dmg_parts.append(("weapon specialization", 2))
        if entry.enhancement:
            dmg_parts.append(("enhancement", entry.enhancement))
        base = damage_for(w)
        damage = base.plus(sum(v for _, v in dmg_parts))
        extra: list[tuple[Dice, str]] = [(e.dice, e.energy) for e in entry.abilities]
        if w.fire_rider is not None:       # lit torch: +1 fire however it is used (RULES §3.5)
            extra.append((w.fire_rider, "fire"))
        threat = w.crit_threat
        if w.improvised:
            threat = combat_modifier("critical", "improvised_threat")
        elif w.key in ctx.crit:
            threat = 21 - 2 * (21 - threat)
        name = f"{w.key} (thrown)" if (thrown and not w.ranged) else w.key
        reach = 0.0
        if mode == "melee":
            reach = ctx.reach * (2 if w.reach else 1)
        out.append(Attack(
            name=name, kind="weapon", mode=mode, thrown=thrown, weapon=w, count=1, primary=True,
            bonus=bonus, bonuses=_iteratives(bonus, ctx.bab), bonus_parts=tuple(parts), damage=damage,
            damage_parts=tuple(dmg_parts),
            extra_damage=tuple(extra), crit_threat=threat, crit_multiplier=w.crit_multiplier,
            damage_types=w.damage_types, types_join=w.types_join,
            range_ft=(10 if (thrown and w.improvised) else w.range_ft) if mode == "ranged" else 0,
            reach_ft=reach, effective_index=effective_index(w, ctx.size, ranged=(mode == "ranged")),
            crossbow=w.crossbow, nonlethal=w.nonlethal,
        ))
    return out


def _natural_attack(ctx: _Ctx, n: NaturalEntry, *, primary: bool, sole: bool) -> Attack:
    w = natural_weapon(n.kind, n.damage, size=ctx.size, crit=n.crit)
    parts: list[tuple[str, int]] = [("base attack", ctx.bab)]
    if ctx.finesse and ctx.dex_mod > ctx.str_mod:
        parts.append(("dex (weapon finesse)", ctx.dex_mod))
    else:
        parts.append(("str", ctx.str_mod))
    parts.append(("size", ctx.size.modifier))
    if n.kind in ctx.focus or n.name in ctx.focus:
        parts.append(("weapon focus", 1))
    if not primary:
        parts.append(("secondary natural attack", -2 if ctx.multiattack else -5))
    bonus = sum(v for _, v in parts)
    mult = 0.5 if not primary else (1.5 if sole else 1.0)
    s = _str_bonus(ctx.str_mod, mult)
    dmg_parts = (("str", s),) if s else ()
    threat = w.crit_threat
    if n.kind in ctx.crit:
        threat = 21 - 2 * (21 - threat)
    return Attack(
        name=n.name, kind="natural", mode="melee", thrown=False, weapon=w, count=n.count, primary=primary,
        bonus=bonus, bonuses=(bonus,) * n.count, bonus_parts=tuple(parts), damage=n.damage.plus(s),
        damage_parts=dmg_parts, crit_threat=threat, crit_multiplier=w.crit_multiplier,
        damage_types=w.damage_types, types_join=w.types_join, reach_ft=ctx.reach, effective_index=1,
        riders=n.riders,
    )


def _attacks(src: Source, ab: Abilities, bab: int, swarm: SwarmStats | None):
    ctx = _Ctx(src, ab, bab)
    single: list[Attack] = []
    by_name: dict[str, Attack] = {}
    for entry in src.weapons:
        for a in _weapon_attacks(ctx, entry):
            if a.name not in by_name:
                single.append(a)
                by_name[a.name] = a
    sole = len(src.naturals) == 1 and src.naturals[0].count == 1
    naturals_by_name = {n.name: n for n in src.naturals}
    for n in src.naturals:
        a = _natural_attack(ctx, n, primary=n.primary, sole=sole)
        single.append(a)
        by_name[n.name] = a
    if swarm is not None:
        a = Attack(name="swarm", kind="swarm", mode="swarm", thrown=False, weapon=None, count=1, primary=True,
                   bonus=None, bonuses=(), bonus_parts=(), damage=swarm.damage, damage_parts=(),
                   reach_ft=0.0, effective_index=None, riders=swarm.riders)
        single.append(a)
        by_name["swarm"] = a

    # full attack routines
    if src.full_attack is not None:
        routines_ids = src.full_attack
    else:
        routines_ids = tuple((a.name,) for a in single if a.kind == "weapon")
        if src.naturals:
            routines_ids += (tuple(n.name for n in src.naturals),)
        if swarm is not None:
            routines_ids += (("swarm",),)
    routines: list[tuple[Attack, ...]] = []
    for r_i, raw_ids in enumerate(routines_ids):
        ids: list[tuple[str, int | None]] = []
        for rid in raw_ids:
            m = _ROUTINE_ID.match(rid)
            ids.append((m.group(1), int(m.group(2)) if m.group(2) else None))
        unknown = [i for i, _ in ids if i not in by_name]
        if unknown:
            raise DataError(f"{src.path}: full_attack routine {r_i + 1}: unknown attack(s) {unknown}; "
                            f"the attacks are {', '.join(by_name)}")
        with_weapon = any(by_name[i].kind == "weapon" and by_name[i].mode == "melee" for i, _ in ids)
        routine = []
        for i, count in ids:
            a = by_name[i]
            if a.kind == "natural":
                n = naturals_by_name[i]
                if count is not None:
                    n = dataclasses.replace(n, count=count)
                # natural attacks made alongside a manufactured weapon are secondary (SRD Combat)
                primary = n.primary and not with_weapon
                routine.append(_natural_attack(ctx, n, primary=primary, sole=sole and not with_weapon))
            else:
                routine.append(a)
        routines.append(tuple(routine))
    return tuple(single), tuple(routines)


_ROUTINE_ID = re.compile(r"^\s*(.*?)(?:\s+x(\d+))?\s*$")


def _rider_dc(src: Source, ab: Abilities, hd: int, key: str, kind: str, dc_ability: str | None) -> int | None:
    if dc_ability is None:
        return None
    dc = 10 + hd // 2 + ab.mod(dc_ability)
    focus = _feats_with(src, "ability-focus")
    if key in focus or kind in focus:
        dc += int(feat_table()["ability-focus"]["dc"])
    return dc


def _spellcasting(src: Source, ab: Abilities) -> Spellcasting | None:
    casters = [(c, l) for c, l in src.levels if "casting" in class_table()[c]]
    if not casters:
        return None
    cls, lvl = casters[0]
    row = class_table()[cls]
    table = row["spells_per_day"]
    if lvl > len(table):
        raise DataError(f"{src.path}: [levels] {cls}: spells per day are tabulated for levels 1-{len(table)} "
                        "(RULES §8)")
    base = [int(x) for x in table[lvl - 1]]
    mod = ab.mod(row["casting"])
    slots = tuple(n + bonus_spells(mod, l) for l, n in enumerate(base))
    domain_slots: tuple[int, ...] = tuple(0 if l == 0 else 1 for l in range(len(base))) if row.get("domains") else ()
    return Spellcasting(
        cls=cls, ability=row["casting"], caster_level=lvl, slots=slots, domain_slots=domain_slots,
        prepared=tuple(dict(src.prepared).get(l, ()) for l in range(len(base))),
        domain_prepared=tuple(dict(src.domain_prepared).get(l) for l in range(len(base))) if domain_slots else (),
        domains=src.domains, ability_mod=mod,
    )


def _check_pc(src: Source, ab: Abilities, spells: Spellcasting | None, problems: list[str]) -> None:
    """PC-only checks: feat count, skill ranks and points, prepared spells (all problems collected)."""
    where = src.path
    total = sum(l for _, l in src.levels)
    race = race_table()[src.race] if src.race else {}
    # feats: 1 at 1st level and every 3 levels, + race bonus feat, + class bonus feats
    allowed = 1 + total // 3 + int(race.get("bonus_feat", 0))
    for cls, lvl in src.levels:
        allowed += sum(1 for x in class_table()[cls]["bonus_feat_levels"] if x <= lvl)
    if len(src.feats) != allowed:
        problems.append(f"{where}: feats: lists {len(src.feats)} feats, a level-{total} {src.race} "
                        f"{'/'.join(c for c, _ in src.levels)} has {allowed}; add or remove feats")
    # skill ranks: max ranks, and points spent <= points available
    class_skills: set[str] = set()
    for cls, _ in src.levels:
        class_skills |= set(class_table()[cls]["class_skills"])
    spent = 0.0
    for skill, ranks in src.skills:
        cap = total + 3 if skill in class_skills else (total + 3) / 2
        if ranks > cap:
            kind = "class" if skill in class_skills else "cross-class"
            problems.append(f"{where}: [skills] {skill}: {ranks:g} ranks is over the maximum of {cap:g} for a "
                            f"{kind} skill at level {total}")
        spent += ranks if skill in class_skills else ranks * 2
    # skill points level by level with the Int of that level (increases at 4, 8, ...)
    available = 0
    base_int = (src.base_abilities.int if src.base_abilities else ab.int) or 10
    int_adj = int(race.get("abilities", {}).get("int", 0))
    level_no = 0
    for cls, lvl in src.levels:
        per = int(class_table()[cls]["skill_points"])
        for _ in range(lvl):
            level_no += 1
            raised = sum(1 for i, a in enumerate(src.ability_increases) if a == "int" and 4 * (i + 1) <= level_no)
            pts = max(1, per + ability_mod(base_int + int_adj + raised)) + int(race.get("bonus_skill_points", 0))
            available += pts * (4 if level_no == 1 else 1)
    if spent > available:
        problems.append(f"{where}: [skills]: spends {spent:g} skill points, a level-{total} character "
                        f"has {available}; lower some ranks (cross-class ranks cost 2 points)")
    if spells is not None:
        _check_spells(src, spells, problems)
    elif src.prepared or src.domain_prepared:
        problems.append(f"{where}: [spells]: this character casts no spells; remove [spells]")


def _check_spells(src: Source, sp: Spellcasting, problems: list[str]) -> None:
    where = src.path
    spells = spell_table()
    for lvl, names in src.prepared:
        if lvl > sp.max_level:
            problems.append(f"{where}: [spells.prepared] {lvl}: a level-{sp.caster_level} {sp.cls} casts spells "
                            f"up to level {sp.max_level}")
            continue
        if len(names) > sp.slots[lvl]:
            problems.append(f"{where}: [spells.prepared] {lvl}: {len(names)} spells prepared, "
                            f"{sp.slots[lvl]} slots (RULES §8 with bonus spells); remove some")
        for n in names:
            spell_lvl = spells[n]["levels"].get(sp.cls)
            if spell_lvl is None:
                problems.append(f"{where}: [spells.prepared] {lvl}: {n} is not a {sp.cls} spell")
            elif spell_lvl > lvl:
                problems.append(f"{where}: [spells.prepared] {lvl}: {n} is a level-{spell_lvl} {sp.cls} spell")
    if sp.domain_slots:
        want = class_table()[sp.cls]["domains"]
        if len(src.domains) != want:
            problems.append(f"{where}: [spells] domains: a {sp.cls} has {want} domains, the file lists "
                            f"{len(src.domains)}")
        for lvl, n in src.domain_prepared:
            if lvl < 1 or lvl > sp.max_level:
                problems.append(f"{where}: [spells.domain] {lvl}: no domain slot of that level")
                continue
            ok = any(n in domain_table()[d]["spells"][:lvl] for d in src.domains if d in domain_table())
            if not ok:
                problems.append(f"{where}: [spells.domain] {lvl}: {n} is not a domain spell of level <= {lvl} "
                                f"of {', '.join(src.domains)}")


def _compare(printed: Printed, derived: dict[str, Any], decided: dict[str, str]) -> list[Disagreement]:
    out = []
    for k, v in printed.values:
        if k not in derived:
            continue
        if derived[k] != v:
            out.append(Disagreement(k, derived[k], v, decided.get(k)))
    return out


def _compare_attacks(printed: Printed, attacks: tuple[Attack, ...], routines, decided) -> list[Disagreement]:
    out = []
    by_name = {a.name: a for a in attacks}
    for pa in printed.attacks:
        field = f"attack:{pa.name}"
        a = by_name.get(pa.name)
        got = None if a is None else (a.bonus, str(a.damage))
        if got != (pa.bonus, str(Dice.parse(pa.damage))):
            out.append(Disagreement(field, got, (pa.bonus, pa.damage), decided.get(field)))
    for i, proutine in enumerate(printed.full_attacks):
        field = f"full_attack:{i + 1}"
        want = tuple((p.name, p.count, p.bonus, str(Dice.parse(p.damage))) for p in proutine)
        got = None
        if i < len(routines):
            got = tuple((a.name, a.count, a.bonus, str(a.damage)) for a in routines[i])
        if got != want:
            out.append(Disagreement(field, got, want, decided.get(field)))
    return out


def derive(source: Source, *, book_values: frozenset[str] | None = None) -> StatBlock:
    """Compute every derived statistic of ``source`` (pure; RULES sections cited inline).

    ``book_values`` (a set of :data:`BOOK_FIELDS`; None = the file's own ``book_values``) replaces
    those derived fields by the printed ones, where the file prints them.
    """
    src = source
    book = src.book_values if book_values is None else book_values
    ab = src.abilities
    progs = _progressions(src)
    hd = sum(p[3] for p in progs)
    problems: list[str] = []

    # Hit points, BAB, saves ----------------------------------------------------------------------
    con_mod = ab.mod("con")
    hp, hd_text = _hit_points(src, progs, con_mod)
    bab = sum(base_attack(rule, n) for _, rule, _, n, _ in progs)
    race = race_table()[src.race] if src.race else {}
    save_vals = {}
    for s, abil in SAVE_ABILITY.items():
        v = sum(base_save(s in good, n) for _, _, good, n, _ in progs) + ab.mod(abil)
        for f in src.feats:
            v += int(feat_table()[f.key].get(s, 0))
        v += int(race.get("saves", 0))
        save_vals[s] = v
    saves = Saves(**save_vals)

    # Armor class (SRD Combat: 10 + armor + shield + Dex (capped) + size + natural + deflection + dodge)
    dex = ab.mod("dex")
    caps = [p.max_dex for p in (src.armor, src.shield) if p is not None and p.max_dex is not None]
    max_dex = min(caps) if caps else None
    dex_ac = min(dex, max_dex) if max_dex is not None else dex
    dodge = sum(int(feat_table()[f.key].get("dodge_ac", 0)) for f in src.feats)
    parts: list[tuple[str, int]] = [("base", 10)]
    if src.size.modifier:
        parts.append(("size", src.size.modifier))
    if dex_ac:
        parts.append(("dex", dex_ac))
    if src.armor is not None:
        parts.append(("armor", src.armor.total_bonus))
    if src.shield is not None:
        parts.append(("shield", src.shield.total_bonus))
    if src.natural_armor:
        parts.append(("natural", src.natural_armor))
    if src.deflection:
        parts.append(("deflection", src.deflection))
    if dodge:
        parts.append(("dodge", dodge))
    ac = sum(v for _, v in parts)
    touch = 10 + src.size.modifier + dex_ac + src.deflection + dodge
    features = _features(src)
    uncanny = "uncanny-dodge" in features
    flat = ac if uncanny else ac - max(dex_ac, 0) - dodge

    # Initiative, grapple, speed, skills -----------------------------------------------------------
    initiative = dex + sum(int(feat_table()[f.key].get("initiative", 0)) for f in src.feats)
    grapple = None if src.swarm is not None else bab + ab.mod("str") + src.size.grapple
    base_land = src.speed.land
    land = base_land
    heavy = src.armor is not None and src.armor.kind in ("medium", "heavy")
    if heavy and not race.get("armor_speed_unaffected", False):
        land = reduced_speed(base_land)   # RULES §6.1 (dwarves unaffected)
    speed = dataclasses.replace(src.speed, land=land)
    acp = _armor_check_penalty(src)
    escape = _skill_total(src, ab, "escape_artist", acp)   # RULES §2.4: Dex + ranks + ACP (+2 Agile)
    skill_names = [s for s, _ in src.skills]
    if "escape_artist" not in skill_names:
        skill_names.append("escape_artist")
    skills = tuple((s, _skill_total(src, ab, s, acp)) for s in skill_names)

    # Swarm (RULES §4.1-4.5) --------------------------------------------------------------------------
    swarm = None
    if src.swarm is not None:
        sw = src.swarm
        rule = sw.weapon_damage or swarm_rules()["weapon_damage"][sw.component.key]
        swarm = SwarmStats(
            component=sw.component, flying=sw.flying, count=swarm_count(sw.component, sw.flying),
            damage=swarm_damage(hd), weapon_damage=rule,
            distraction_dc=int(swarm_rules()["distraction_base"]) + hd // 2 + con_mod,
            riders=sw.riders, aligned=sw.aligned, hive_mind=sw.hive_mind,
        )

    # Attacks --------------------------------------------------------------------------------------
    try:
        attacks, routines = _attacks(src, ab, bab, swarm)
    except DataError as exc:
        problems.extend(exc.problems)
        attacks, routines = (), ()

    riders = tuple(
        Rider(r.key, r.kind, r.save, _rider_dc(src, ab, hd, r.key, r.kind, r.dc_ability), r.initial,
              r.secondary, r.incubation, r.damage, r.bleed)
        for r in src.riders
    )
    auras = tuple(Aura(a.key, a.save, _rider_dc(src, ab, hd, a.key, "aura", a.dc_ability) or 0, a.radius_ft,
                       a.effect, a.duration_rounds) for a in src.auras)

    # Body (RULES §1.2; swarms §7.24) --------------------------------------------------------------------
    over = dict(src.body_overrides)
    if swarm is not None:
        body = swarm_body(swarm.component)
    else:
        if "height" not in over and src.race and src.sex:
            over["height"] = race["height_in"][src.sex] / 12.0
        body = body_for(src.size, form=src.form, **over)
    reach = 0.0 if swarm is not None else (
        src.size.facts.reach_long_ft if src.form == "long" else src.size.facts.reach_tall_ft)

    # Class features, spells -----------------------------------------------------------------------
    sneak_dice = sum(int(class_table()[c]["sneak_attack_dice"][l - 1]) for c, l in src.levels
                     if "sneak_attack_dice" in class_table()[c])     # rogue: +1d6 per odd level
    sneak = Dice(sneak_dice, 6) if sneak_dice else None
    try:
        spells = _spellcasting(src, ab)
    except DataError as exc:
        problems.extend(exc.problems)
        spells = None
    if src.kind == "pc":
        _check_pc(src, ab, spells, problems)
    if problems:
        raise DataError.collect(problems)

    gear_items = tuple(gear_item(k) for k, n in src.gear if n > 0)
    lights = tuple(g for g in gear_items if g.is_light_source)

    # Printed values: disagreements and book values ---------------------------------------------------
    derived_scalars: dict[str, Any] = {
        "hit_dice": hd_text, "hp": hp, "initiative": initiative, "speed": land, "ac": ac, "touch": touch,
        "flat_footed": flat, "bab": bab, "grapple": grapple, "fort": saves.fort, "ref": saves.ref,
        "will": saves.will,
    }
    if swarm is not None:
        derived_scalars["distraction_dc"] = swarm.distraction_dc
        derived_scalars["weapon_damage"] = swarm.weapon_damage
    if riders:
        derived_scalars["rider_dc"] = tuple(sorted((r.key, r.dc) for r in riders if r.dc is not None))
    if auras:
        derived_scalars["aura_dc"] = tuple(sorted((a.key, a.dc) for a in auras))
    decided = dict(src.decided)
    disagreements = _compare(src.printed, derived_scalars, decided)
    disagreements += _compare_attacks(src.printed, attacks, routines, decided)

    applied = frozenset(k for k in book if k in src.printed)
    if applied:
        pv = dict(src.printed.values)
        hp = pv.get("hp", hp) if "hp" in applied else hp
        hd_text = pv.get("hit_dice", hd_text) if "hit_dice" in applied else hd_text
        initiative = pv["initiative"] if "initiative" in applied else initiative
        ac = pv["ac"] if "ac" in applied else ac
        touch = pv["touch"] if "touch" in applied else touch
        flat = pv["flat_footed"] if "flat_footed" in applied else flat
        bab = pv["bab"] if "bab" in applied else bab
        grapple = pv["grapple"] if "grapple" in applied else grapple
        if applied & {"fort", "ref", "will"}:
            saves = Saves(*(pv[s] if s in applied else getattr(saves, s) for s in ("fort", "ref", "will")))
        if "speed" in applied:
            speed = dataclasses.replace(speed, land=pv["speed"])
        if swarm is not None and applied & {"distraction_dc", "weapon_damage"}:
            swarm = dataclasses.replace(
                swarm,
                distraction_dc=pv["distraction_dc"] if "distraction_dc" in applied else swarm.distraction_dc,
                weapon_damage=pv["weapon_damage"] if "weapon_damage" in applied else swarm.weapon_damage,
            )
        if "rider_dc" in applied:
            book_dc = dict(pv["rider_dc"])
            riders = tuple(dataclasses.replace(r, dc=book_dc.get(r.key, r.dc)) for r in riders)
        if "aura_dc" in applied:
            book_dc = dict(pv["aura_dc"])
            auras = tuple(dataclasses.replace(a, dc=book_dc.get(a.key, a.dc)) for a in auras)

    return StatBlock(
        key=src.key, name=src.name, kind=src.kind, size=src.size, type=src.type, subtypes=src.subtypes,
        race=src.race, levels=src.levels, hit_dice=hd, hit_dice_text=hd_text, abilities=ab, hp=hp,
        ac=ac, touch_ac=touch, flat_footed_ac=flat, ac_parts=tuple(parts), initiative=initiative, bab=bab,
        grapple=grapple, saves=saves, speed=speed, base_land_speed=base_land, escape_artist=escape,
        skills=skills, armor=src.armor, shield=src.shield, armor_check_penalty=acp, max_dex_bonus=max_dex,
        attacks=attacks, full_attacks=routines, feats=src.feats, senses=src.senses, body=body,
        reach_ft=reach, defenses=src.defenses, riders=riders, auras=auras, swarm=swarm,
        sneak_attack=sneak, features=features, spells=spells, gear=src.gear, light_sources=lights,
        conditional=_conditional(race), special_attacks=src.special_attacks, book_values=applied, disagreements=tuple(disagreements), printed=src.printed, source=src,
    )


def _conditional(race: Mapping[str, Any]) -> tuple[tuple[str, str, int], ...]:
    """Racial modifiers that apply only in some situations, for the combat engine:
    ("attack_vs", "orc", 1), ("dodge_vs", "giant", 4), ("save_vs", "poison", 2)..."""
    out = []
    for kind in ("attack_vs", "dodge_vs", "save_vs"):
        for target, value in race.get(kind, {}).items():
            out.append((kind, target, int(value)))
    if race.get("stability"):
        out.append(("stability", "bull_rush_trip", int(race["stability"])))
    return tuple(out)


def _features(src: Source) -> tuple[str, ...]:
    out: list[str] = []
    for cls, lvl in src.levels:
        feats_by_level = class_table()[cls].get("features", {})
        for l in range(1, lvl + 1):
            out.extend(feats_by_level.get(str(l), ()))
    return tuple(out)


# =================================================================================================
# Loadouts: pure recomputations
# =================================================================================================

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


def attacks_with(block: StatBlock, weapon: Weapon | str, *, grip: str = "one-hand", enhancement: int = 0,
                 masterwork: bool = False, abilities: Iterable[str] = ()) -> tuple[Attack, ...]:
    """The attack options of ``block`` with a weapon that is not on its sheet (a lit torch taken
    in hand, a weapon picked up): melee, and thrown when the weapon can be thrown. A weapon given
    by name is made for the creature's size. Pure; raises :class:`DataError` if it cannot be wielded.

    >>> [(a.name, a.bonus, str(a.damage), a.extra_damage[0][1]) for a in attacks_with(load_template("goblin"), "torch")]
    [('torch', -2, '1d2', 'fire'), ('torch (thrown)', -1, '1d2', 'fire')]
    """
    w = weapon_named(weapon, size=block.size) if isinstance(weapon, str) else weapon
    if grip not in GRIPS:
        raise ValueError(f"grip must be one of {GRIPS}, got {shorten(grip)}")
    entry = WeaponEntry(w.key, w, 1, masterwork or enhancement > 0, enhancement,
                        tuple(energy_ability(a) for a in abilities), grip)
    return tuple(_weapon_attacks(_Ctx(block.source, block.abilities, block.bab), entry))
