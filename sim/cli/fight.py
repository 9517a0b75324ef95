"""``cavesim fight ENCOUNTER [--seed S] [--events FILE]``: play one fight and print its log."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.cli import fight_batch
from sim.cli._common import add_map_limit, limits_from
from sim.errors import UsageError


def register(sub) -> None:
    p = sub.add_parser("fight", help="play a fight and print a round-by-round log with every modifier",
                       description="Play the encounter with the AI and print a readable log: every roll with its "
                                   "modifier breakdown, then the outcome.")
    p.add_argument("encounter", help="encounter file (TOML)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the file's seed)")
    p.add_argument("--events", metavar="FILE", help="also write the events as JSON lines")
    p.add_argument("--json", action="store_true", help="print the events as JSON lines instead of the log")
    p.add_argument("--quiet", action="store_true", help="only the outcome")
    add_map_limit(p)
    fight_batch.add_options(p)  # --runs N and the batch options (issue 7)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "runs", None) is not None:
        return fight_batch.run(args)
    fight_batch.check_single(args)
    from sim.engine.fight import new_encounter
    from sim.events import dumps, write_jsonl
    from sim.loaders import load_encounter
    from sim.log import Narrator, display_names

    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    if args.events:
        out = Path(args.events)
        if not out.parent.exists() and str(out.parent):
            raise UsageError(f"--events {out}: folder {out.parent} does not exist")
    spec = load_encounter(Path(args.encounter), limits=limits_from(args))
    enc = new_encounter(spec, seed=args.seed)
    events = enc.run()
    if args.events:
        write_jsonl(args.events, events)
    if args.json:
        sys.stdout.write(dumps(events))
        return 0
    narrator = Narrator(display_names(enc.creatures.values()))
    lines = narrator.lines(events)
    if args.quiet:
        lines = lines[-1:]
    for line in lines:
        print(line)
    return 0
