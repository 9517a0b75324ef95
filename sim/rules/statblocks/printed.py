"""The SRD's printed numbers of a monster (``[printed]``): read them, and list where the derived
statistics differ (``StatBlock.disagreements``, each with the RULES item of ``[decided]``).
"""

from __future__ import annotations

from typing import Any

from sim.base.errors import shorten
from sim.rules.dice import Dice
from sim.rules.statblocks.check import Check, get_dice, is_int, snake_key
from sim.rules.statblocks.types import (
    BOOK_FIELDS,
    WEAPON_DAMAGE_RULES,
    Attack,
    Disagreement,
    Printed,
    PrintedAttack,
)

_INT_PRINTED = ("hp", "initiative", "speed", "ac", "touch", "flat_footed", "bab", "fort", "ref", "will",
                "distraction_dc")


def disagreements(printed: Printed, derived: dict[str, Any], attacks: tuple[Attack, ...], routines,
                  decided: dict[str, str]) -> list[Disagreement]:
    """Every printed value (scalars, then attacks, then full attacks) the derived one differs from."""
    return _compare_scalars(printed, derived, decided) + _compare_attacks(printed, attacks, routines, decided)


def _printed_attack(chk: Check, a: Any, label: str) -> PrintedAttack | None:
    if not isinstance(a, dict) or not isinstance(a.get("name"), str) or "damage" not in a:
        chk.bad(label, "needs name = \"...\", damage = \"1d6\" and bonus = N (omit bonus for a swarm)")
        return None
    bonus = a.get("bonus")
    if bonus is not None and not is_int(bonus):
        chk.bad(f"{label} bonus", f"must be a whole number, got {shorten(bonus)}")
        bonus = None
    if get_dice(chk, a["damage"], f"{label} damage") is None:
        return None
    count = a.get("count", 1)
    return PrintedAttack(a["name"], bonus, str(a["damage"]), int(count) if is_int(count) else 1)


def parse_printed(chk: Check, raw: Any) -> Printed:
    if not isinstance(raw, dict):
        chk.bad("[printed]", "must be a table")
        return Printed()
    values: list[tuple[str, Any]] = []
    attacks: list[PrintedAttack] = []
    routines: list[tuple[PrintedAttack, ...]] = []
    skills: list[tuple[str, int]] = []
    for k, v in raw.items():
        if k in _INT_PRINTED:
            if not is_int(v):
                chk.bad(f"[printed] {k}", f"must be a whole number, got {shorten(v)}")
                continue
            values.append((k, v))
        elif k == "grapple":
            if not (is_int(v) or v == "-"):
                chk.bad("[printed] grapple", f"must be a whole number or \"-\", got {shorten(v)}")
                continue
            values.append((k, None if v == "-" else v))
        elif k == "hit_dice":
            if get_dice(chk, v, "[printed] hit_dice") is not None:
                values.append((k, str(Dice.parse(v))))
        elif k == "weapon_damage":
            if v not in WEAPON_DAMAGE_RULES:
                chk.bad("[printed] weapon_damage", f"must be one of {', '.join(WEAPON_DAMAGE_RULES)}")
                continue
            values.append((k, v))
        elif k in ("rider_dc", "aura_dc"):
            if not isinstance(v, dict) or not all(is_int(x) for x in v.values()):
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
                skills.extend((snake_key(s), int(x)) for s, x in v.items() if is_int(x))
        elif k in ("cr", "notes"):
            values.append((k, v))
        else:
            chk.bad(f"[printed] {k}", "unknown key; allowed: " + ", ".join(
                BOOK_FIELDS + ("attack", "full_attack", "skills", "cr", "notes")))
    return Printed(tuple(values), tuple(attacks), tuple(routines), tuple(skills))


def _compare_scalars(printed: Printed, derived: dict[str, Any], decided: dict[str, str]) -> list[Disagreement]:
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
