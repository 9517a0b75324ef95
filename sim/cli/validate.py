"""``cavesim validate FILE...``: check maps, encounters, crawls, stat blocks and fight logs
(``.jsonl``); list every problem.

Problems fail the file (exit 2); warnings (floor squares that touch only at a rock corner, RULES
§6.2: not joined, though they look it) are printed and do not."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.base.errors import DataError
from sim.cli._common import add_map_limit, limits_from, plural


def register(sub) -> None:
    p = sub.add_parser("validate", help="check map, encounter, crawl, stat-block and fight-log files; list every problem",
                       description="Check files and report every problem in every file (exit 2 if any).")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_map_limit(p)
    p.set_defaults(handler=run)


def validate_file(path: Path, args: argparse.Namespace) -> list[str]:
    """All problems of one file (empty when it is fine): a map, an encounter (its map, templates,
    weapons and placements included) or a stat block, told apart by their tables."""
    return check_file(path, args)[0]


def check_file(path: Path, args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """``(problems, warnings)`` of one file. Warnings do not fail the file: squares that touch
    only at a rock corner (RULES §6.2)."""
    from sim.base.fileio import read_toml
    from sim.maps.read import load_map
    from sim.scenario.files import load_crawl, load_encounter

    grid = None
    try:
        if path.suffix.lower() in (".jsonl", ".ndjson"):
            from sim.engine.events import read_jsonl

            for _ in read_jsonl(path):
                pass
            return [], []
        data, _ = read_toml(path)
        if "crawl" in data:
            crawl = load_crawl(path, limits=limits_from(args))
            grid = getattr(crawl, "grid", None)
        elif "encounter" in data:
            grid = load_encounter(path, limits=limits_from(args)).grid
        elif "map" in data:
            grid = load_map(path, limits=limits_from(args))
        elif "abilities" in data or "kind" in data or "levels" in data:
            from sim.rules.statblocks import load_template

            load_template(path)
        else:
            return [f"{path}: not a map ([map]), an encounter ([encounter]), a crawl ([crawl]) or a stat block "
                    "([abilities]); nothing to check"], []
    except DataError as exc:
        return exc.problems, []
    warnings = []
    if grid is not None:
        from sim.terrain.corners import corner_links, corner_warning

        links = corner_links(grid.rock)
        if links:
            warnings.append(corner_warning(str(path), links))
    return [], warnings


def run(args: argparse.Namespace) -> int:
    failed = 0
    for name in args.files:
        problems, warnings = check_file(Path(name), args)
        for w in warnings:
            print(f"cavesim: {w}", file=sys.stderr)
        if problems:
            failed += 1
            for p in problems:
                print(f"cavesim: error: {p}", file=sys.stderr)
        else:
            print(f"{name}: ok")
    if failed:
        print(f"cavesim: {failed} of {plural(len(args.files), 'file')} {'has' if failed == 1 else 'have'} problems",
              file=sys.stderr)
        return 2
    return 0
