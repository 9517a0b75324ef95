"""Stat blocks: source facts (TOML) -> validated :class:`Source` -> derived :class:`StatBlock`.

The package, one concern a module (callers import from ``sim.rules.statblocks`` itself):

* ``tables``    -- the rules tables (classes.toml, races.toml) and the SRD formulas over them;
* ``types``     -- the frozen records (``Source``, ``StatBlock``, ``Attack``...) and the schema's words;
* ``check``     -- typed field readers that collect every problem of a file;
* ``parse``     -- a stat block table -> ``Source`` (validation only), one function per section;
* ``arms``      -- its weapons, natural attacks and full attack routines (validation only);
* ``printed``   -- the SRD's printed values: read, and compared with the derived ones;
* ``attacks``   -- attack options and full attack routines (RULES §3.1);
* ``derive``    -- ``Source`` -> ``StatBlock``, one function per section;
* ``templates`` -- finding and loading the shipped templates and user files;
* ``loadout``   -- the same creature with other armor or another weapon.

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
resistance             resistance bonus on saves (a cloak of resistance +1..+5)
favored_enemies        ranger: creature types, in order (["aberration", "vermin"]; classes.toml)
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
                       tremorsense_ft, light_sensitivity, light_blindness, blind (no sight at
                       all: it perceives by blindsight and its other senses only)
[defenses]             damage_reduction = { amount, bypass }, resist = { fire = 10 },
                       regeneration = { amount, bypassed_by = ["fire", "acid"] }, immune = [...],
                       split = ["slashing", "piercing", "electricity"] (docs/rules.md §11.14)
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


from sim.rules.statblocks.attacks import AttackContext, attacks_of, weapon_attacks
from sim.rules.statblocks.derive import derive
from sim.rules.statblocks.loadout import after_rage, attacks_with, rage_rounds, raging, with_loadout, without_armor
from sim.rules.statblocks.parse import parse_feat, parse_source
from sim.rules.statblocks.tables import (
    ability_mod, base_attack, base_save, bonus_spells, class_table, domain_table, feat_table, race_table,
    skill_table, spell_table, swarm_count, swarm_damage, swarm_rules, type_table,
)
from sim.rules.statblocks.templates import creature_body, list_templates, load_template, template_in, template_path
from sim.rules.statblocks.types import (
    ABILITIES, BOOK_FIELDS, Abilities, Attack, Aura, Defenses, Disagreement, Feat, NaturalEntry, Printed, Rider,
    Saves, Senses, Source, Speeds, Spellcasting, SpellLike, StatBlock, SwarmStats, WeaponEntry,
)

__all__ = [
    "ABILITIES", "BOOK_FIELDS", "Abilities", "Attack", "AttackContext", "Aura", "Defenses", "Disagreement", "Feat",
    "NaturalEntry", "Printed", "Rider", "Saves", "Senses", "Source", "Speeds", "Spellcasting", "SpellLike", "StatBlock",
    "SwarmStats", "WeaponEntry", "ability_mod", "attacks_of", "attacks_with", "base_attack", "base_save",
    "bonus_spells", "class_table", "creature_body", "derive", "domain_table", "feat_table", "list_templates",
    "load_template", "template_in", "parse_feat", "parse_source", "race_table", "skill_table", "spell_table", "swarm_count",
    "swarm_damage", "swarm_rules", "template_path", "type_table", "weapon_attacks", "with_loadout",
    "without_armor", "raging", "after_rage", "rage_rounds",
]
