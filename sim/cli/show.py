"""``cavesim show TEMPLATE``: one stat block with every derived number.

Hit points, AC (touch, flat-footed, and what makes it up), initiative, speeds, base attack and
grapple, every attack with its bonus, damage, critical range and constricted-space weapon index
(RULES §2.5), full attacks, saves, abilities, Escape Artist, the body the constricted-space rules
measure (RULES §1.2), senses, defences, swarm facts, spells, gear, and where the printed SRD
numbers were overruled (book values, RULES §7.15-17). ``TEMPLATE`` is a shipped name (see
``cavesim templates``) or the path of a stat-block file; ``--book-values`` uses the printed values.
"""

from __future__ import annotations

import argparse
import json
import sys

from sim.cli._common import plural


def register(sub) -> None:
    p = sub.add_parser("show", help="print one stat block with its derived numbers (hp, AC, attacks, saves, body)",
                       description="Print one stat block with every derived number. TEMPLATE: a shipped name "
                                   "(`cavesim templates` lists them) or the path of a .toml stat block.")
    p.add_argument("template", metavar="TEMPLATE")
    p.add_argument("--book-values", action="store_true",
                   help="use the printed SRD numbers where the rules disagree (RULES §7.15-17)")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.set_defaults(handler=run)


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else f"−{-v}"


def _parts(parts) -> str:
    return ", ".join(f"{_signed(v)} {k}" for k, v in parts if v) or "+0"


def _ft(v: float) -> str:
    """Feet to three significant figures: 5.3333 -> '5.33'."""
    return f"{v:.3g}"


def _index_text(i: int | None) -> str:
    return {None: "cannot be used in constricted squares", 0: "stab-light (0)", 1: "light (1)",
            2: "one-handed (2)", 3: "two-handed (3)"}.get(i, str(i))


def facts(b) -> dict:
    """The stat block as a JSON-ready dict (derived numbers)."""
    attacks = []
    for a in b.attacks:
        attacks.append({"name": a.name, "kind": a.kind, "mode": a.mode, "thrown": a.thrown, "count": a.count,
                        "bonus": a.bonus, "bonuses": list(a.bonuses), "bonus_parts": dict(a.bonus_parts),
                        "damage": str(a.damage), "extra": [f"{d} {t}" for d, t in a.extra_damage],
                        "crit": (f"{a.crit_threat}-20/x{a.crit_multiplier}" if a.crit_threat < 20
                                 else f"x{a.crit_multiplier}"),
                        "types": list(a.damage_types), "range_ft": a.range_ft, "reach_ft": a.reach_ft,
                        "effective_index": a.effective_index, "touch": a.touch, "riders": list(a.riders)})
    out = {"name": b.key, "display_name": b.name, "kind": b.kind, "size": b.size.key, "type": b.type,
           "subtypes": list(b.subtypes), "race": b.race, "cr": getattr(b.source, "cr", None),
           "levels": dict(b.levels), "hit_dice": b.hit_dice_text, "hp": b.hp,
           "ac": b.ac, "touch_ac": b.touch_ac, "flat_footed_ac": b.flat_footed_ac, "ac_parts": dict(b.ac_parts),
           "initiative": b.initiative, "bab": b.bab, "grapple": b.grapple,
           "saves": {"fort": b.saves.fort, "ref": b.saves.ref, "will": b.saves.will},
           "abilities": {k: b.abilities.score(k) for k in ("str", "dex", "con", "int", "wis", "cha")},
           "speed": {"land": b.speed.land, "climb": b.speed.climb, "swim": b.speed.swim, "burrow": b.speed.burrow,
                     "fly": b.speed.fly, "maneuverability": b.speed.maneuverability},
           "escape_artist": b.escape_artist, "armor_check_penalty": b.armor_check_penalty,
           "body": b.body.to_json(), "reach_ft": b.reach_ft,
           "attacks": attacks, "full_attacks": [[a.name for a in fa] for fa in b.full_attacks],
           "feats": [f.key for f in b.feats], "skills": dict(b.skills),
           "senses": {k: getattr(b.senses, k) for k in ("darkvision_ft", "low_light", "scent", "blindsense_ft",
                                                        "blindsight_ft", "tremorsense_ft", "light_sensitivity",
                                                        "light_blindness", "blind")},
           "riders": [{"key": r.key, "kind": r.kind, "save": r.save, "dc": r.dc} for r in b.riders],
           "spell_resistance": b.defenses.spell_resistance, "unmodelled": list(b.source.unmodelled),
           "gear": dict(b.gear), "book_values": sorted(b.book_values),
           "disagreements": [{"field": d.field, "derived": d.derived, "printed": d.printed,
                              "decided_by": d.decided_by} for d in b.disagreements]}
    if b.swarm is not None:
        s = b.swarm
        out["swarm"] = {"component": s.component.key, "flying": s.flying, "count": s.count, "damage": str(s.damage),
                        "weapon_damage": s.weapon_damage, "distraction_dc": s.distraction_dc}
    if b.spells is not None:
        sp = b.spells
        out["spells"] = {"class": sp.cls, "caster_level": sp.caster_level, "slots": list(sp.slots),
                         "domain_slots": list(sp.domain_slots), "prepared": [list(p) for p in sp.prepared]}
    if b.spell_like:
        out["spell_like"] = [{"spell": s.spell, "per_day": s.per_day, "caster_level": s.caster_level, "dc": s.dc,
                              "kind": s.kind, "self_only": s.self_only} for s in b.spell_like]
    return json.loads(json.dumps(out, default=str))


def _rider_text(r) -> str:
    """``fort DC 12, initial 1d4 str, ...``; a web's escape and break DCs; a gaze's range."""
    if r.kind == "web":
        return f"escape DC {r.dc}, break DC {r.dc + r.break_bonus}, {r.uses_per_day} a day, up to {r.range_ft} ft"
    if r.kind == "strand":
        return (f"{r.count} at once, up to {r.range_ft} ft, Strength DC {r.dc}, Escape Artist DC "
                f"{r.dc + r.break_bonus}, 10 hp each")
    text = f"{r.save} DC {r.dc}" if r.dc else "no save"
    if r.kind == "gaze":
        return text + f", {r.range_ft} ft, {r.effect} {plural(r.duration_rounds, 'round')}"
    return (text + (f", initial {r.initial}" if r.initial else "") + (f", secondary {r.secondary}" if r.secondary else "")
            + (f", {r.effect}" if r.effect else ""))


def lines(b) -> list[str]:
    """The stat block for people, one fact a line."""
    from sim.cli.templates import level_text, senses_text, speed_text, type_text

    f = facts(b)
    body = b.body
    out = [f"{b.name} ({b.key}): {b.size.name.title()} {type_text(b)}, {level_text(b)}",
           f"  Hit Dice {b.hit_dice_text}; hp {b.hp}",
           f"  AC {b.ac} ({_parts(b.ac_parts)}), touch {b.touch_ac}, flat-footed {b.flat_footed_ac}",
           f"  Initiative {_signed(b.initiative)}; speed {speed_text(b.speed)}",
           f"  Base attack {_signed(b.bab)}; grapple " + ("–" if b.grapple is None else _signed(b.grapple))]
    for a in b.attacks:
        if a.bonus is None:
            out.append(f"  Attack {a.name}: no attack roll (swarm), {a.damage}"
                       + (f" + {', '.join(a.riders)}" if a.riders else ""))
            continue
        bon = "/".join(_signed(x) for x in a.bonuses) if a.bonuses else _signed(a.bonus)
        count = f"{a.count} " if a.count > 1 else ""
        extra = "".join(f" + {d} {t}" for d, t in a.extra_damage)
        where = f", range {a.range_ft} ft" if a.range_ft else ""
        out.append(f"  Attack {count}{a.name} ({a.mode}{', thrown' if a.thrown else ''}): {bon} "
                   f"({_parts(a.bonus_parts)}), {a.damage}{extra} {'/'.join(a.damage_types)}, "
                   f"crit {f['attacks'][b.attacks.index(a)]['crit']}{where}; in constricted squares: "
                   f"{_index_text(a.effective_index)}")
    if b.full_attacks:
        out.append("  Full attack: " + " | ".join(", ".join(a.name for a in fa) for fa in b.full_attacks))
    out.append(f"  Saves Fort {_signed(b.saves.fort)}, Ref {_signed(b.saves.ref)}, Will {_signed(b.saves.will)}")
    out.append("  Abilities " + ", ".join(f"{k.title()} {'–' if v is None else v}" for k, v in f["abilities"].items()))
    out.append(f"  Escape Artist {_signed(b.escape_artist)} (armour check penalty {b.armor_check_penalty})")
    if body.opening is not None:
        out.append(f"  Body (RULES §1.2): a swarm of {b.swarm.component.key} creatures; passes any opening of "
                   f"{body.opening * 12:.3g} in. or more; space 10 ft")
    else:
        out.append(f"  Body (RULES §1.2): {body.form}, space {_ft(body.space)} ft, height {_ft(body.height)} ft, "
                   f"head {_ft(body.head)} ft, shoulders {_ft(body.shoulders)} ft, depth {_ft(body.depth)} ft; "
                   f"reach {_ft(b.reach_ft)} ft")
    out.append(f"  Senses {senses_text(b.senses)}")
    d = b.defenses
    defs = []
    if d.damage_reduction:
        defs.append(f"DR {d.damage_reduction}/{d.dr_bypass or '–'}")
    defs += [f"resist {k} {v}" for k, v in d.resist]
    if d.regeneration:
        defs.append(f"regeneration {d.regeneration}")
    defs += [f"immune {x}" for x in d.immune]
    if d.spell_resistance:
        defs.append(f"spell resistance {d.spell_resistance}")
    if d.split:
        defs.append(f"split by {' and '.join(d.split)} (docs/rules.md §11.14)")
    defs += [f"vulnerable to {x}" for x in d.vulnerable]
    if defs:
        out.append("  Defences " + ", ".join(defs))
    if b.swarm is not None:
        s = b.swarm
        out.append(f"  Swarm: {plural(s.count, s.component.key + ' creature')}{' (flying)' if s.flying else ''}; damage {s.damage}; "
                   f"weapons: {s.weapon_damage.replace('_', ' ')}; distraction Fort DC {s.distraction_dc}")
    for r in b.riders:
        out.append(f"  Rider {r.key} ({r.kind}): " + _rider_text(r))
    if b.source.unmodelled:
        out.append("  Not simulated: " + ", ".join(b.source.unmodelled) + " (sim/data/abilities.toml)")
    if b.feats:
        out.append("  Feats " + ", ".join(ft.key for ft in b.feats))
    if b.features:
        feats = list(dict.fromkeys(b.features))
        out.append("  Class features " + ", ".join(feats)
                   + (f"; sneak attack {b.sneak_attack}" if b.sneak_attack else "")
                   + ("; favored enemies " + ", ".join(f"{t} +{v}" for t, v in b.favored_enemy) if b.favored_enemy else ""))
    if b.spells is not None:
        sp = b.spells
        out.append(f"  Spells ({sp.cls} {sp.caster_level}): slots " + " / ".join(str(x) for x in sp.slots)
                   + "; prepared " + " | ".join(", ".join(p) for p in sp.prepared if p))
    if b.spell_like:   # docs/rules.md §8.5
        out.append("  Spell-like " + "; ".join(
            f"{s.spell.replace('-', ' ')} {s.per_day}/day (CL {s.caster_level}, DC {s.dc}"
            + (", Su" if s.kind == "su" else "") + (", self only" if s.self_only else "") + ")" for s in b.spell_like))
    if b.gear:
        out.append("  Gear " + ", ".join(f"{k} ×{v}" if v > 1 else k for k, v in b.gear))
    for dg in b.disagreements:
        used = "printed" if dg.field in b.book_values else "rules"
        out.append(f"  Printed {dg.field} {dg.printed} vs rules {dg.derived} ({dg.decided_by or 'undocumented'}); "
                   f"using the {used} value" + ("" if used == "printed" else " (--book-values for the printed one)"))
    return out


def run(args: argparse.Namespace) -> int:
    from sim.rules.statblocks import load_template

    b = load_template(args.template, book_values=True if args.book_values else None)
    if args.json:
        sys.stdout.write(json.dumps(facts(b), indent=1) + "\n")
    else:
        print("\n".join(lines(b)))
    return 0
