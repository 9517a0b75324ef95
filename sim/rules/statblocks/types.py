"""The stat block records: validated source facts (:class:`Source`), the derived :class:`StatBlock`
and its parts (:class:`Attack`, :class:`Saves`, :class:`SwarmStats`...), and the schema's words.
Frozen values only; :mod:`.parse` builds a Source, :mod:`.derive` a StatBlock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.base.errors import shorten
from sim.rules.bodies import Body
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks.tables import ability_mod, skill_total
from sim.rules.weapons import ArmorPiece, EnergyAbility, GearItem, Weapon

SCHEMA_VERSION = 1
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
SAVE_ABILITY = {"fort": "con", "ref": "dex", "will": "wis"}
KINDS = ("pc", "monster")
MANEUVERABILITY = ("perfect", "good", "average", "poor", "clumsy")
WEAPON_DAMAGE_RULES = ("immune", "half_slashing_piercing", "normal")
RIDER_KINDS = (
    "poison", "disease", "wounding",
    "web", "rust", "gaze",              # bestiary specials (sim/engine/specials.py)
    "strand", "weakness",               # the roper (sim/engine/strands.py, docs/rules.md §11.15)
)
# Special attacks built on the grapple (SRD Combat, Special Attacks; docs/rules.md "Grapple").
GRAPPLE_RIDER_KINDS = ("improved_grab", "constrict", "swallow_whole", "engulf", "paralysis")
GRIPS = ("one-hand", "two-hands", "off-hand")
# Printed values that may replace the derived ones ("book values").
BOOK_FIELDS = ("hit_dice", "hp", "initiative", "speed", "ac", "touch", "flat_footed", "bab", "grapple",
               "fort", "ref", "will", "distraction_dc", "weapon_damage", "rider_dc", "aura_dc")


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
    light_blindness: bool = False       # drow: blinded a round by bright light, then dazzled
    blind: bool = False                 # no sight at all (grimlocks, oozes): blindsight and the other senses only


@dataclass(frozen=True, slots=True)
class Defenses:
    damage_reduction: int = 0
    dr_bypass: str | None = None
    resist: tuple[tuple[str, int], ...] = ()
    regeneration: int = 0
    regeneration_bypassed_by: tuple[str, ...] = ()
    immune: tuple[str, ...] = ()
    spell_resistance: int = 0
    split: tuple[str, ...] = ()         # what splits it instead of hurting it (docs/rules.md §11.14): slashing, piercing, electricity
    vulnerable: tuple[str, ...] = ()    # energy types that deal half again as much (roper: fire)


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
    dc_fixed: int | None = None         # a DC printed as a constant (drow sleep poison: 13)
    dc_bonus: int = 0                   # a racial bonus in the DC (rust: +4)
    uses_per_day: int = 0               # web: 8
    range_ft: int = 0                   # web: 50 ft (increment 10 ft); gaze: 30 ft
    effect: str | None = None           # poison: "unconscious"; gaze: "confusion"
    duration_rounds: int = 0            # gaze: 8 (confusion at caster level 8)
    break_bonus: int = 0                # web: the Strength check DC is the escape DC + 4
    max_size: str | None = None        # improved grab, swallow whole, engulf: largest size it works on
    duration: str | None = None        # paralysis: "3d6 rounds"
    cut_hp: int = 0                    # swallow whole: the damage that cuts a way out (purple worm: 25)
    holds: tuple = ()                  # swallow whole: (size, how many of it the interior holds) pairs
    count: int = 0                     # strand: how many at once (the roper's six)


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
    uses_per_day: int = 0
    range_ft: int = 0
    effect: str | None = None
    duration_rounds: int = 0
    break_bonus: int = 0
    max_size: str | None = None
    duration: str | None = None
    cut_hp: int = 0
    holds: tuple = ()
    count: int = 0


#: the fields a derived :class:`Rider` takes over from its :class:`RiderSpec` as they are (all but
#: the DC, which is derived from dc_ability, dc_fixed and dc_bonus)
RIDER_COPIED_FIELDS = tuple(f for f in Rider.__dataclass_fields__ if f != "dc")


def rider_from_spec(spec: RiderSpec, dc: int | None) -> Rider:
    """The rider a stat block's creature carries: the spec's fields, with its derived save DC."""
    return Rider(dc=dc, **{f: getattr(spec, f) for f in RIDER_COPIED_FIELDS})


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
    riders: tuple[str, ...] = ()    # [[rider]] keys its hits carry (drow poison on hand crossbow bolts)


@dataclass(frozen=True, slots=True)
class NaturalEntry:
    name: str
    kind: str
    damage: Dice
    count: int = 1
    primary: bool = True
    riders: tuple[str, ...] = ()
    crit: str = "x2"
    extra: tuple = ()                  # ((Dice, "acid"), ...): energy added to every hit
    reach: float | None = None         # its own reach (the otyugh's 15-ft tentacles), else the creature's


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
    spontaneous: bool = False          # a sorcerer: ``prepared`` holds the spells known

    def save_dc(self, spell_level: int) -> int:
        """10 + spell level + casting ability modifier (RULES §8)."""
        return 10 + spell_level + self.ability_mod

    @property
    def max_level(self) -> int:
        return len(self.slots) - 1


@dataclass(frozen=True, slots=True)
class SpellLike:
    """One spell-like (Sp) or supernatural (Su) ability that works as a spell (docs/rules.md §8.5):
    the spell, uses per day, caster level, the spell's level, and (derived) the save DC
    10 + spell level + Cha modifier; ``self_only``: it affects only its user (duergar)."""

    spell: str
    per_day: int
    caster_level: int
    level: int
    kind: str = "sp"                   # "sp" (spell-like) or "su" (supernatural: no AoO, no SR)
    self_only: bool = False
    dc: int = 0                        # derived (StatBlock): 10 + level + Cha modifier


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
    unmodelled: tuple[str, ...] = ()    # abilities of the SRD block the engine does not play (checked keys)
    save_bonus: int = 0                 # a racial bonus on every save (svirfneblin +2)
    dodge_bonus: int = 0                # a racial dodge bonus to AC (svirfneblin +4)
    hd_fraction: str | None = None      # "1/4" or "1/2": less than one Hit Die (Tiny vermin)
    grapple_bonus: int = 0             # racial bonus on grapple checks (the choker's +4)
    amorphous: bool = False            # an ooze without a fixed shape (RULES §11.12, setting ooze_squeeze)
    resistance: int = 0
    favored_enemies: tuple[str, ...] = ()
    spells_known: bool = False             # [spells.known] instead of [spells.prepared]
    spell_like: tuple[SpellLike, ...] = ()  # [[spell_like]] (docs/rules.md §8.5); dc filled by derive


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
    favored_enemy: tuple[tuple[str, int], ...] = ()   # ranger: (creature type, damage bonus)
    spell_like: tuple[SpellLike, ...] = ()            # spell-like abilities with their DCs (§8.5)

    # -- conveniences -------------------------------------------------------------------------
    def favored_bonus(self, creature_type: str) -> int:
        """The ranger's favored enemy bonus on weapon damage against ``creature_type`` (0 if none)."""
        return max((b for t, b in self.favored_enemy if t == creature_type), default=0)

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
        return skill_total(self.source, self.abilities, name, self.armor_check_penalty)

    def attack(self, name: str) -> Attack:
        for a in self.attacks:
            if a.name == name:
                return a
        names = ", ".join(a.name for a in self.attacks)
        raise KeyError(f"{self.key} has no attack {shorten(name)}; it has {names}")
