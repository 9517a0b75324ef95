"""``cavesim validate FILE...``: check maps (and later encounters and stat blocks); list every problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.cli._common import add_map_limit, limits_from
from sim.errors import DataError


def register(sub) -> None:
    p = sub.add_parser("validate", help="check map, encounter and stat-block files; list every problem",
                       description="Check files and report every problem in every file (exit 2 if any).")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_map_limit(p)
    p.set_defaults(handler=run)


def validate_file(path: Path, args: argparse.Namespace) -> list[str]:
    """All problems of one file (empty when it is fine)."""
    from sim.loaders import load_map

    try:
        load_map(path, limits=limits_from(args))
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
