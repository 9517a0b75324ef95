"""``cavesim crawl MAP --party T1,T2,... --from P --to Q``: a party travelling through the cave."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.cli._common import add_map_limit, limits_from
from sim.errors import UsageError


def register(sub) -> None:
    p = sub.add_parser("crawl", help="a party travelling through the cave: single file, squeezes, armour off, encounters",
                       description="Plan and play a party's journey between two points of a map (or a crawl file): "
                                   "the route, single file, crawling and squeezing, armour off and on, waits for the "
                                   "slowest, fights with the monsters on the way; a timeline in minutes and rounds.")
    p.add_argument("map", help="a map file, or a crawl file with [crawl] (map, from, to, party, seed) and monsters")
    p.add_argument("--party", metavar="T1,T2,...",
                   help="marching order: stat block names (NAME:TEMPLATE to name a member)")
    p.add_argument("--from", dest="start", metavar="POINT", help="a named point of the map, or X,Y")
    p.add_argument("--to", dest="goal", metavar="POINT", help="a named point of the map, or X,Y")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the crawl file's, else 0)")
    p.add_argument("--json", action="store_true", help="the plan and timeline as JSON")
    p.add_argument("--events", metavar="FILE", help="write the events of the fights as JSON lines")
    add_map_limit(p)
    p.set_defaults(handler=run)


def _clock(rounds: float) -> str:
    seconds = int(round(rounds * 6))
    return f"{seconds // 60:d}:{seconds % 60:02d}"


WORDS = {
    "walk": "walks", "single_file": "goes single file", "crawl": "crawls", "awkward": "squeezes (awkward space)",
    "tight": "squeezes (tight squeeze)", "armor_off": "takes off", "armor_on": "puts on",
    "keep_armor_off": "keeps the armour off", "wait": "waits", "encounter": "FIGHT", "left_behind": "is left behind",
    "arrive": "arrives",
}


def run(args: argparse.Namespace) -> int:
    from sim.crawl import load_crawl, run_crawl

    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    party = [p.strip() for p in args.party.split(",") if p.strip()] if args.party else None
    if args.party is not None and not party:
        raise UsageError("--party needs at least one stat block name, e.g. --party human-fighter-3,halfling-rogue-3")
    spec = load_crawl(Path(args.map), party=party, start=args.start, goal=args.goal, seed=args.seed,
                      limits=limits_from(args))
    result = run_crawl(spec)
    if args.events:
        from sim.events import write_jsonl

        write_jsonl(args.events, result.events)
    if args.json:
        json.dump(result.to_json(), sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
        return 0
    _print_text(result)
    return 0


def _print_text(result) -> None:
    spec = result.spec
    print(f"{spec.name} (seed {spec.seed}): {' > '.join(m.id for m in spec.party)}")
    print(f"route: {len(result.route) - 1} squares from {spec.start_name or spec.start} to "
          f"{spec.goal_name or spec.goal}")
    for cid, why in result.left_behind.items():
        print(f"  ! {cid} {why}")
    print()
    print(f"  {'time':>6} {'rounds':>7}  what")
    for e in result.timeline:
        who = ", ".join(e.who)
        d = e.detail
        if e.what in ("walk", "single_file", "crawl", "awkward", "tight"):
            per = ", ".join(f"{k} {v:g}" for k, v in d.get("member_rounds", {}).items())
            line = f"{who} {WORDS[e.what]} {d.get('squares')} squares from {e.at} ({e.rounds:g} rounds: {per})"
            checks = d.get("checks")
            if checks:
                line += "; Escape Artist: " + "; ".join(
                    f"{k} {sum(c['tries'] for c in v):g} tries" for k, v in checks.items() if v)
        elif e.what in ("armor_off", "armor_on"):
            line = f"{who} {WORDS[e.what]} the {d['armor']} ({d['minutes']:g} min{', helped' if d['helped'] else ''})"
        elif e.what == "wait":
            line = f"{who} wait for {d['for']}"
        elif e.what == "encounter":
            line = (f"FIGHT at {e.at} with {', '.join(d['monsters'])}: {d['winner'] or 'no one'} wins after "
                    f"{d['rounds']} rounds (seed {d['seed']})" + (f"; armour off: {', '.join(d['armor_off'])}" if d['armor_off'] else ""))
        elif e.what == "left_behind":
            line = f"{who} {d['reason']}"
        elif e.what == "keep_armor_off":
            line = f"{who} keeps the armour off: {d['reason']}"
        else:
            line = f"{who} {WORDS.get(e.what, e.what)} at {e.at}"
        print(f"  {_clock(e.start):>6} {e.start:>7g}  {line}")
    print()
    print(f"total: {result.total_rounds:g} rounds = {_clock(result.total_rounds)} (min:sec); "
          f"arrived: {', '.join(result.arrived) or 'no one'}")
