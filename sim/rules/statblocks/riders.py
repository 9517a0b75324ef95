"""The ``[[rider]]`` tables of a stat block, read into :class:`~.types.RiderSpec` by one builder.

A rider is something an attack delivers or a special attack built on it: the bestiary's poisons,
diseases, woundings, web, rust and gaze (RULES §4.9), and the grapple's improved grab, constrict,
swallow whole, engulf and paralysis (docs/rules.md "Grapple"). Each kind reads the fields the two
families share (key, kind, save, dc_ability, damage) the same way, then its own fields; a new rider
kind adds its keys here and nowhere else. Parsing only: the DCs are derived in
:mod:`.derive`, the riders played in the engine.
"""

from __future__ import annotations

from typing import Any, Mapping

from sim.base.errors import DataError, shorten
from sim.rules.dice import Dice
from sim.rules.statblocks.check import Check, get_size, get_str
from sim.rules.statblocks.specials import rider_extras, rider_needs
from sim.rules.statblocks.types import (
    ABILITIES,
    GRAPPLE_RIDER_KINDS,
    RIDER_KINDS,
    SAVE_ABILITY,
    RiderSpec,
)

#: grapple rider kind -> the keys it takes besides key and kind
GRAPPLE_RIDER_KEYS: dict[str, tuple[str, ...]] = {
    "improved_grab": ("max_size",),
    "constrict": ("damage",),
    "swallow_whole": ("max_size", "damage", "cut", "holds"),
    "engulf": ("max_size", "damage", "save", "dc_ability", "dc_bonus"),
    "paralysis": ("save", "dc_ability", "duration"),
}
_DAMAGE_REQUIRED = ("constrict", "swallow_whole", "engulf")


def parse_riders(chk: Check, data: Mapping[str, Any]) -> list[RiderSpec]:
    """Every ``[[rider]]`` table of a stat block; the bad ones become messages and are left out."""
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
        spec = rider_spec(chk, r, label)
        if spec is not None:
            out.append(spec)
    return out


def rider_spec(chk: Check, r: Mapping[str, Any], label: str) -> RiderSpec | None:
    """One ``[[rider]]`` table as a :class:`RiderSpec`, or None (with messages) when it is bad."""
    key = get_str(chk, r, "key", f"{label} key", required=True)
    kind = get_str(chk, r, "kind", f"{label} kind", required=True)
    if key is None or kind is None:
        return None
    if kind not in RIDER_KINDS and kind not in GRAPPLE_RIDER_KINDS:
        chk.bad(f"{label} kind", f"must be one of {', '.join(RIDER_KINDS + GRAPPLE_RIDER_KINDS)}, got {shorten(kind)}")
        return None
    fields = _grapple_fields(chk, r, label, kind) if kind in GRAPPLE_RIDER_KINDS else _bestiary_fields(chk, r, label, kind)
    if fields is None:
        return None
    return RiderSpec(key, kind, r.get("save"), r.get("dc_ability"), damage=tuple(_damage_list(r)), **fields)


def _damage_list(r: Mapping[str, Any]) -> Any:
    """``damage = "1d4+4"`` or a list of such; a lone string is a list of one."""
    dmg = r.get("damage", [])
    return [dmg] if isinstance(dmg, str) else dmg


def _check_save(chk: Check, r: Mapping[str, Any], label: str, need_save: bool, need_ability: bool) -> bool:
    """The save and the ability its DC is based on (DC = 10 + HD/2 + mod); False when one is bad."""
    ok = True
    if need_save and r.get("save") not in SAVE_ABILITY:
        chk.bad(f"{label} save", "must be fort, ref or will")
        ok = False
    if need_ability and r.get("dc_ability") not in ABILITIES:
        chk.bad(f"{label} dc_ability", "the ability the DC is based on: con, cha ... (DC = 10 + HD/2 + mod)")
        ok = False
    return ok


def _bestiary_fields(chk: Check, r: Mapping[str, Any], label: str, kind: str) -> dict[str, Any]:
    """A poison, disease, wounding, web, rust or gaze: its stages and the kind's extra fields
    (a bad one is reported and the rider kept, as the stat block is refused as a whole)."""
    needs_save, needs_ability = rider_needs(kind)
    _check_save(chk, r, label, needs_save, needs_ability and "dc" not in r)
    extras = rider_extras(chk, r, label, kind)
    return dict(initial=r.get("initial"), secondary=r.get("secondary"), incubation=r.get("incubation"),
                bleed=int(r.get("bleed", 0)), **extras)


def _grapple_fields(chk: Check, r: Mapping[str, Any], label: str, kind: str) -> dict[str, Any] | None:
    """A special attack built on the grapple: improved grab (max_size, default one size smaller
    than the creature), constrict (damage "1d4+4"), swallow whole (max_size, damage "2d8+12
    bludgeoning" and "8 acid"), engulf (max_size, damage, save), paralysis (save, dc_ability,
    duration "3d6 rounds"). None when a field is bad."""
    allowed = set(GRAPPLE_RIDER_KEYS[kind]) | {"key", "kind"}
    ok = True
    for k in r:
        if k not in allowed:
            chk.bad(f"{label} {k}", f"unknown key for a {kind} rider; allowed: {', '.join(sorted(allowed))}")
            ok = False
    max_size = r.get("max_size")
    if max_size is not None and get_size(chk, max_size, f"{label} max_size") is None:
        ok = False
    ok = _check_grapple_damage(chk, _damage_list(r), label, kind) and ok
    if kind == "paralysis" or r.get("save") is not None or r.get("dc_ability") is not None:
        ok = _check_save(chk, r, label, True, True) and ok
    duration = r.get("duration")
    if kind == "paralysis":
        ok = _check_duration(chk, duration, label) and ok
    cut, holds = r.get("cut", 0), r.get("holds", {})
    if not isinstance(cut, int) or isinstance(cut, bool) or cut < 0:
        chk.bad(f"{label} cut", "the damage that cuts a way out of the gizzard: a whole number, e.g. cut = 25")
        ok = False
    if not isinstance(holds, dict) or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0
                                               for n in holds.values()):
        chk.bad(f"{label} holds", "how many of each size the interior holds: holds = { large = 2, medium = 8 }")
        ok = False
    elif any(get_size(chk, k, f"{label} holds") is None for k in holds):
        ok = False
    bonus = r.get("dc_bonus", 0)
    if not isinstance(bonus, int) or isinstance(bonus, bool):
        chk.bad(f"{label} dc_bonus", "a racial bonus in the DC: a whole number, e.g. dc_bonus = 1")
        ok = False
    if not ok:
        return None
    return dict(max_size=max_size, duration=duration, cut_hp=cut, holds=tuple(sorted(holds.items())), dc_bonus=bonus)


def _check_grapple_damage(chk: Check, dmg: Any, label: str, kind: str) -> bool:
    if not isinstance(dmg, list) or not all(isinstance(d, str) for d in dmg):
        chk.bad(f"{label} damage", "must be dice such as \"1d4+4\" (or a list: [\"2d8+12\", \"8 acid\"])")
        _check_grapple_damage(chk, [], label, kind)      # and still say when the damage is required
        return False
    ok = True
    for d in dmg:
        try:
            Dice.parse(d.split()[0])
        except (DataError, ValueError):
            chk.bad(f"{label} damage", f"{shorten(d)} is not dice such as \"1d4+4\" or \"8 acid\"")
            ok = False
    if kind in _DAMAGE_REQUIRED and not dmg:
        chk.bad(f"{label} damage", f"a {kind} rider needs its damage, e.g. damage = \"1d4+4\"")
        ok = False
    return ok


def _check_duration(chk: Check, duration: Any, label: str) -> bool:
    if not isinstance(duration, str) or not duration.endswith(" rounds"):
        chk.bad(f"{label} duration", "write it as \"3d6 rounds\" or \"6 rounds\"")
        return False
    try:
        Dice.parse(duration.split()[0])
    except (DataError, ValueError):
        chk.bad(f"{label} duration", f"{shorten(duration)}: write it as \"3d6 rounds\"")
        return False
    return True
