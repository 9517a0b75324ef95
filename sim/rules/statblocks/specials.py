"""The bestiary's additions to a stat block: the ``unmodelled`` list (checked against
``sim/data/abilities.toml``), the extra fields of the web, rust and gaze riders and of fixed-DC
poisons, less than one Hit Die ("1/4", "1/2"), and a racial bonus on every save. Parsing only;
the engine plays the riders in :mod:`sim.engine.specials`.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Mapping

from sim.base.errors import shorten
from sim.rules import _data
from sim.rules.statblocks.check import Check, close_names, get_str_list, is_int
from sim.rules.statblocks.tables import spell_table
from sim.rules.statblocks.types import SpellLike

HD_FRACTIONS = {"1/4": Fraction(1, 4), "1/2": Fraction(1, 2)}
POISON_EFFECTS = ("unconscious",)        # a poison whose damage is a condition, not ability damage
GAZE_EFFECTS = ("confusion",)
#: rider kind -> (needs a save, needs dc_ability, the extra keys it takes)
SPECIAL_RIDERS: dict[str, tuple[bool, bool, tuple[str, ...]]] = {
    "web": (False, True, ("uses_per_day", "range_ft", "break_bonus")),
    "rust": (True, True, ("dc_bonus",)),
    "gaze": (True, True, ("range_ft", "effect", "duration_rounds")),
    # the roper's strands: the DC (Str-based) is the Strength check's, Escape Artist's is + break_bonus
    "strand": (False, True, ("count", "range_ft", "break_bonus")),
    "weakness": (True, True, ()),
}
_INT_KEYS = ("dc", "dc_bonus", "uses_per_day", "range_ft", "duration_rounds", "break_bonus", "count")


@functools.cache
def ability_table() -> dict[str, str]:
    """The unmodelled-ability vocabulary: key -> what is not played."""
    return dict(_data.load("abilities.toml")["ability"])


def parse_unmodelled(chk: Check, data: Mapping[str, Any]) -> tuple[str, ...]:
    """``unmodelled = ["sheet-web", ...]``: every key must be one of ``abilities.toml``."""
    keys = get_str_list(chk, data, "unmodelled", "unmodelled")
    table = ability_table()
    for k in keys:
        if k not in table:
            chk.bad("unmodelled", f"unknown ability {shorten(k)}: {close_names(k, table)} "
                    "(the keys of sim/data/abilities.toml)")
    return tuple(k for k in keys if k in table)


def parse_hd_fraction(chk: Check, data: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """``racial_hd = "1/2"``: (0, "1/2"); a whole number is left to the usual check (None, None)."""
    v = data.get("racial_hd")
    if not isinstance(v, str):
        return None, None
    if v not in HD_FRACTIONS:
        chk.bad("racial_hd", f"must be a whole number or \"1/4\" or \"1/2\", got {shorten(v)}")
        return 0, None
    return 0, v


def parse_save_bonus(chk: Check, data: Mapping[str, Any]) -> int:
    v = data.get("save_bonus", 0)
    if not is_int(v) or not 0 <= v <= 10:
        chk.bad("save_bonus", f"a racial bonus on every save, 0 to 10, got {shorten(v)}")
        return 0
    return int(v)


def rider_needs(kind: str) -> tuple[bool, bool]:
    """(needs save, needs dc_ability) for a rider kind."""
    if kind == "wounding":
        return False, False
    need = SPECIAL_RIDERS.get(kind)
    return (need[0], need[1]) if need else (True, True)


def rider_extras(chk: Check, r: Mapping[str, Any], label: str, kind: str) -> dict[str, Any]:
    """The bestiary fields of one ``[[rider]]``, checked: dc (a constant), dc_bonus, uses_per_day,
    range_ft, effect, duration_rounds, break_bonus."""
    out: dict[str, Any] = {}
    for k in _INT_KEYS:
        if k in r:
            if not is_int(r[k]) or r[k] < 0 or r[k] > 1000:
                chk.bad(f"{label} {k}", f"must be a whole number 0..1000, got {shorten(r[k])}")
                continue
            out["dc_fixed" if k == "dc" else k] = int(r[k])
    if "effect" in r:
        allowed = GAZE_EFFECTS if kind == "gaze" else POISON_EFFECTS
        if r["effect"] not in allowed:
            chk.bad(f"{label} effect", f"must be one of {', '.join(allowed)}, got {shorten(r['effect'])}")
        else:
            out["effect"] = r["effect"]
    if kind == "web":
        out.setdefault("uses_per_day", 8)
        out.setdefault("range_ft", 50)
        out.setdefault("break_bonus", 4)
    if kind == "strand":
        out.setdefault("count", 6)
        out.setdefault("range_ft", 50)
        out.setdefault("break_bonus", 4)
    if kind == "gaze" and "effect" not in out:
        chk.bad(f"{label} effect", "a gaze needs effect = \"confusion\"")
    if kind == "gaze" and not out.get("range_ft"):
        chk.bad(f"{label} range_ft", "a gaze needs range_ft = 30")
    return out


RIDER_KEYS = ("key", "kind", "save", "dc_ability", "initial", "secondary", "incubation", "damage", "bleed",
              "effect") + _INT_KEYS


SPELL_LIKE_KEYS = ("spell", "per_day", "caster_level", "kind", "self_only")
SPELL_LIKE_KINDS = ("sp", "su")


def spell_level(spell: str) -> int:
    """A spell-like ability's spell level (for its DC, docs/rules.md §8.5 [PD]): the spell's
    Sor/Wiz level in ``classes.toml``, else the lowest level it has on any list."""
    levels = spell_table()[spell]["levels"]
    return int(levels["wizard"]) if "wizard" in levels else min(int(v) for v in levels.values())


def parse_spell_like(chk: Check, data: Mapping[str, Any]) -> tuple[SpellLike, ...]:
    """``[[spell_like]]`` entries: spell (a spell of ``sim/data/classes.toml``), per_day (1..10),
    caster_level (1..40), kind ("sp" or "su"), self_only. The DC is derived."""
    raw = data.get("spell_like", [])
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        chk.bad("spell_like", "must be [[spell_like]] tables: spell, per_day, caster_level")
        return ()
    out: list[SpellLike] = []
    spells = spell_table()
    for i, e in enumerate(raw):
        label = f"[[spell_like]] {i + 1}"
        for k in e:
            if k not in SPELL_LIKE_KEYS:
                chk.bad(f"{label} {k}", f"unknown key; allowed: {', '.join(SPELL_LIKE_KEYS)}")
        name = e.get("spell")
        if not isinstance(name, str):
            chk.bad(f"{label} spell", "missing; add spell = \"darkness\"")
            continue
        key = name.strip().lower().replace(" ", "-").replace("/", "-")
        if key not in spells:
            chk.bad(f"{label} spell", f"unknown spell {shorten(name)}: {close_names(key, spells)}")
            continue
        per_day, cl = e.get("per_day"), e.get("caster_level")
        if not is_int(per_day) or not 1 <= per_day <= 10:
            chk.bad(f"{label} per_day", f"uses per day, 1 to 10, got {shorten(per_day)}")
            continue
        if not is_int(cl) or not 1 <= cl <= 40:
            chk.bad(f"{label} caster_level", f"a caster level, 1 to 40, got {shorten(cl)}")
            continue
        kind = e.get("kind", "sp")
        if kind not in SPELL_LIKE_KINDS:
            chk.bad(f"{label} kind", f"must be \"sp\" (spell-like) or \"su\" (supernatural), got {shorten(kind)}")
            continue
        self_only = e.get("self_only", False)
        if not isinstance(self_only, bool):
            chk.bad(f"{label} self_only", f"must be true or false, got {shorten(self_only)}")
            continue
        out.append(SpellLike(spell=key, per_day=int(per_day), caster_level=int(cl), level=spell_level(key),
                             kind=kind, self_only=self_only))
    return tuple(out)
