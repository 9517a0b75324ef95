"""Spellcasting as a resource (RULES §8): the spell table, slots, caster level, ranges, and the
Concentration a wound during sleep's casting time calls for (:func:`disturb_casting`, run by
:func:`sim.engine.damage.deal_damage`). What each spell does is :mod:`sim.engine.spells`.
"""

from __future__ import annotations

import functools

from sim.base.errors import DataError
from sim.engine.checks import concentration
from sim.engine.creature import Creature
from sim.engine.events import SpellCast
from sim.engine.world import World
from sim.rules import _data
from sim.rules.weapons import combat_modifier

SIMULATED = ("magic-missile", "sleep", "burning-hands", "cure-light-wounds", "bless", "fireball", "lightning-bolt",
             "cure-moderate-wounds", "hold-person", "light", "darkness", "grease", "glitterdust",
             "faerie-fire", "invisibility", "enlarge-person", "delay-poison", "web", "stinking-cloud", "blur",
             "blindness-deafness")


#: The keys a ``[spell.NAME]`` table of ``sim/data/spells.toml`` may hold.
SPELL_KEYS = frozenset({
    "level", "range", "targets", "missiles", "damage", "energy", "save", "swarms", "area", "radius_ft", "hit_dice",
    "max_hd_each", "casting_time", "duration_rounds_per_level", "immune_types", "length_ft", "damage_per_level",
    "max_dice", "heal", "per_level", "max_bonus", "stops_bleeding", "bonus", "target_types", "gear", "side_ft",
    "balance_dc", "strength_dc", "escape_dc", "move_over", "burn", "after", "total_cover_ft"})


def check_spells(table: dict, name: str = "sim/data/spells.toml") -> dict:
    """The ``[spell]`` tables of a spells file, checked: every key known, a level and a range of
    ``[range]`` in each; a problem is a :class:`DataError` naming the table and the key."""
    ranges = table.get("range", {})
    spells = table.get("spell")
    if not isinstance(spells, dict):
        raise DataError(f"{name}: no [spell.NAME] tables")
    for spell, d in spells.items():
        unknown = sorted(set(d) - SPELL_KEYS)
        if unknown:
            raise DataError(f"{name}: [spell.{spell}] {unknown[0]}: unknown key; the keys are "
                            f"{', '.join(sorted(SPELL_KEYS))}")
        for key in ("level", "range"):
            if key not in d:
                raise DataError(f"{name}: [spell.{spell}]: {key} is missing")
        if d["range"] not in ranges:
            raise DataError(f"{name}: [spell.{spell}] range: {d['range']!r} is none of {', '.join(ranges)}")
    return spells


@functools.cache
def spell_data() -> dict:
    return check_spells(_data.load("spells.toml"))


def caster_level(c: Creature) -> int:
    return c.block.spells.caster_level if c.block.spells else 0


@functools.cache
def _ranges() -> dict:
    return _data.load("spells.toml")["range"]


def range_ft(c: Creature, rng: str, cl: int | None = None) -> int:
    """A spell range in feet for this caster (``sim/data/spells.toml [range]``): close 25 ft + 5 ft
    per two caster levels, medium 100 ft + 10 ft per level, touch 5 ft, self 0; ``cl`` (a
    spell-like ability's caster level, docs/rules.md §8.5) instead of the caster's own."""
    r = _ranges()[rng]
    level = caster_level(c) if cl is None else cl
    return int(r["base"]) + int(r["per_level"]) * (level // int(r["levels_per_step"]))


def innate_level(c: Creature, spell: str) -> int | None:
    """The caster level of ``c``'s spell-like ability of ``spell`` when no slot holds the spell
    (it is cast from the ability then, docs/rules.md §8.5), else None."""
    if has_spell(c, spell) is not None:
        return None
    return next((s.caster_level for s in c.block.spell_like if s.spell == spell), None)


def has_spell(c: Creature, spell: str) -> int | None:
    """The slot level holding ``spell`` (prepared and unspent), or None."""
    for lvl, spells in sorted(c.spells_left.items()):
        if spell in spells and lvl >= 0:
            return lvl
    return None


def spend_slot(c: Creature, spell: str) -> int:
    lvl = has_spell(c, spell)
    assert lvl is not None
    left = c.spells_left[lvl]
    if c.block.spells is not None and c.block.spells.spontaneous:
        for known in set(left):        # a sorcerer's slot: one copy of every known spell of the level
            left.remove(known)
    else:
        left.remove(spell)
    return lvl


def in_swarm(w: World, c: Creature) -> bool:
    sq = set(c.squares)
    return any(o.is_swarm and o.in_fight and o.team != c.team and sq & set(o.squares) for o in w.creatures.values())


def disturb_casting(w: World, c: Creature, damage: int) -> None:
    """Damage during sleep's casting time (a round, §8): Concentration DC 10 + damage + spell
    level, or the spell is lost."""
    if c.pending_spell is None or damage <= 0:
        return
    spell = c.pending_spell[0]
    dc = combat_modifier("concentration", "damaged_base") + damage + int(spell_data()[spell]["level"])
    if not c.in_fight or not concentration(w, c, dc, "damaged_while_casting"):
        c.pending_spell = None
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(), squares=(), lost=True))
