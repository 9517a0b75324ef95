"""``cavesim validate FILE...``: check maps, encounters, crawls, stat blocks and fight logs
(``.jsonl``); list every problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.cli._common import add_map_limit, limits_from
from sim.errors import DataError


def register(sub) -> None:
    p = sub.add_parser("validate", help="check map, encounter, crawl, stat-block and fight-log files; list every problem",
                       description="Check files and report every problem in every file (exit 2 if any).")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_map_limit(p)
    p.set_defaults(handler=run)


def validate_file(path: Path, args: argparse.Namespace) -> list[str]:
    """All problems of one file (empty when it is fine): a map, an encounter (its map, templates,
    weapons and placements included) or a stat block, told apart by their tables."""
    from sim.fileio import read_toml
    from sim.loaders import load_crawl, load_encounter, load_map

    try:
        if path.suffix.lower() in (".jsonl", ".ndjson"):
            from sim.events import read_jsonl

            for _ in read_jsonl(path):
                pass
            return []
        data, _ = read_toml(path)
        if "crawl" in data:
            load_crawl(path, limits=limits_from(args))
        elif "encounter" in data:
            load_encounter(path, limits=limits_from(args))
        elif "map" in data:
            load_map(path, limits=limits_from(args))
        elif "abilities" in data or "kind" in data or "levels" in data:
            from sim.rules.statblocks import load_template

            load_template(path)
        else:
            return [f"{path}: not a map ([map]), an encounter ([encounter]), a crawl ([crawl]) or a stat block "
                    "([abilities]); nothing to check"]
    except DataError as exc:
        return exc.problems
    return []


def run(args: argparse.Namespace) -> int:
    failed = 0
    for name in args.files:
        problems = validate_file(Path(name), args)
        if problems:
            failed += 1
            for p in problems:
                print(f"cavesim: error: {p}", file=sys.stderr)
        else:
            print(f"{name}: ok")
    if failed:
        print(f"cavesim: {failed} of {len(args.files)} files have problems", file=sys.stderr)
        return 2
    return 0
