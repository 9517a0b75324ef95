"""``cavesim templates [--json] [WORD]``: the shipped stat blocks at a glance.

One line per stat block: name, size, type, CR (monsters) or class levels (PCs), speeds and
senses; ``WORD`` keeps those whose name, type, race, class or size contain it (``swarm``,
``fighter``, ``large``). ``cavesim show NAME`` prints one in full. Nothing heavy is imported
until the command runs.
"""

from __future__ import annotations

import argparse
import json
import sys

from sim.cli._common import plural


def register(sub) -> None:
    p = sub.add_parser("templates", help="list the shipped stat blocks (name, size, type, CR or level, speed, senses)",
                       description="List the shipped stat blocks: PC templates, then monsters. "
                                   "`cavesim show NAME` prints one with every derived number.")
    p.add_argument("word", nargs="?", metavar="WORD",
                   help="only stat blocks whose name, type, race, class or size contain WORD (e.g. swarm, fighter, large)")
    p.add_argument("--json", action="store_true", help="print a JSON list instead of the table")
    p.set_defaults(handler=run)


def speed_text(sp) -> str:
    """``30 ft, climb 20 ft, fly 40 ft (good)`` from a stat block's speeds.

    >>> from sim.rules.statblocks import Speeds
    >>> speed_text(Speeds(land=5, fly=40, maneuverability="good"))
    '5 ft, fly 40 ft (good)'
    """
    parts = [f"{sp.land} ft"]
    for mode in ("climb", "swim", "burrow", "fly"):
        v = getattr(sp, mode)
        if v:
            parts.append(f"{mode} {v} ft" + (f" ({sp.maneuverability})" if mode == "fly" and sp.maneuverability else ""))
    return ", ".join(parts)


def senses_text(se) -> str:
    """``darkvision 60 ft, low-light, scent`` (or ``normal``)."""
    parts = ["blind"] if getattr(se, "blind", False) else []
    if se.darkvision_ft:
        parts.append(f"darkvision {se.darkvision_ft} ft")
    if se.low_light:
        parts.append("low-light")
    if se.scent:
        parts.append("scent")
    for name in ("blindsense", "blindsight", "tremorsense"):
        v = getattr(se, f"{name}_ft")
        if v:
            parts.append(f"{name} {v} ft")
    if se.light_sensitivity:
        parts.append("light sensitivity")
    if se.light_blindness:
        parts.append("light blindness")
    return ", ".join(parts) or "normal"


def level_text(b) -> str:
    """``CR 1/3`` for a monster, ``fighter 3`` for a PC."""
    if b.kind == "pc":
        return " / ".join(f"{c} {n}" for c, n in b.levels) or "-"
    cr = getattr(b.source, "cr", None)
    return f"CR {cr}" if cr not in (None, "") else "CR -"


def type_text(b) -> str:
    sub = f" ({', '.join(b.subtypes)})" if b.subtypes else ""
    kind = b.type.replace("_", " ")
    race = f"{b.race} " if b.race else ""
    return f"{kind}{sub}" if b.kind != "pc" else f"{race.strip() or kind}"


def entries() -> list[dict]:
    """Every shipped stat block as a JSON-ready row."""
    from sim.rules import statblocks as sb

    out = []
    for name in sb.list_templates():
        b = sb.load_template(name)
        out.append({"name": name, "display_name": b.name, "kind": b.kind, "size": b.size.key,
                    "type": b.type, "subtypes": list(b.subtypes), "race": b.race,
                    "cr": getattr(b.source, "cr", None), "levels": {c: n for c, n in b.levels},
                    "level": level_text(b), "swarm": b.is_swarm,
                    "speed": {"land": b.speed.land, "climb": b.speed.climb, "swim": b.speed.swim,
                              "burrow": b.speed.burrow, "fly": b.speed.fly,
                              "maneuverability": b.speed.maneuverability},
                    "speed_text": speed_text(b.speed), "senses": senses_text(b.senses),
                    "type_text": type_text(b)})
    return out


def matches(row: dict, word: str) -> bool:
    w = word.lower()
    hay = [row["name"], row["display_name"], row["type"], row["race"] or "", row["size"], row["kind"],
           *row["subtypes"], *row["levels"]] + (["swarm"] if row["swarm"] else [])
    return any(w in str(h).lower() for h in hay)


def run(args: argparse.Namespace) -> int:
    from sim.base.errors import UsageError

    rows = entries()
    if args.word:
        rows = [r for r in rows if matches(r, args.word)]
        if not rows:
            raise UsageError(f"no shipped stat block matches {args.word!r}; run `cavesim templates` for the list")
    if args.json:
        sys.stdout.write(json.dumps(rows, indent=1) + "\n")
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(box=None, pad_edge=False, title_justify="left",
              title=f"{plural(len(rows), 'shipped stat block')} (`cavesim show NAME` prints one in full)")
    for h in ("name", "size", "type", "CR / level", "speed", "senses"):
        t.add_column(h, no_wrap=h in ("name", "size", "CR / level"))
    for r in rows:
        t.add_row(r["name"], r["size"], r["type_text"], r["level"], r["speed_text"], r["senses"])
    Console(highlight=False, width=None if sys.stdout.isatty() else 140).print(t)
    return 0
