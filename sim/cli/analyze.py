"""``cavesim analyze MAP``: the designer report -- regions, chokepoints and travel times per size."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.base.argtypes import whole
from sim.base.errors import UsageError
from sim.cli._common import add_map_limit, load_map_arg
from sim.view.options import ARTS


def register(sub) -> None:
    p = sub.add_parser("analyze", help="designer report: regions, chokepoints and travel times for every size",
                       description="For every size (and any creature templates given): the regions it can reach, "
                                   "the chokepoints with what each costs or whether it stops it, and travel times "
                                   "between named points; writes report.html, analysis.json and PNG maps.")
    p.add_argument("map", help="map or encounter file (TOML)")
    p.add_argument("--creature", action="append", default=[], metavar="TEMPLATE",
                   help="also analyse a creature template (its own body, speed, Escape Artist); repeatable")
    p.add_argument("--sizes", metavar="S1,S2", help="only these sizes (default all nine; 'none' for templates only)")
    p.add_argument("--speed", type=whole(-10 ** 9, 1000), metavar="FT", help="speed of the size bodies (default 30; Small 20)")
    p.add_argument("--escape-artist", type=whole(-100, 100), default=0, metavar="MOD",
                   help="Escape Artist modifier of the size bodies (default 0)")
    p.add_argument("--entrance", action="append", default=[], metavar="POINT",
                   help="named point to draw travel-time maps from; repeatable (default: points named "
                        "entrance..., else the first point)")
    p.add_argument("--min-area", type=whole(-10 ** 9, 1_000_000), default=6, metavar="N",
                   help="squares an area needs at least (default 6)")
    p.add_argument("--out", metavar="FOLDER", help="report folder (default: <map file stem>-report in the current folder)")
    p.add_argument("--no-files", action="store_true", help="write no files, only print")
    p.add_argument("--art", choices=ARTS, default="image",
                   help="pictures over the map's own floor picture when it has one (image, default) or "
                        "the shaded squares only (cave)")
    p.add_argument("--json", action="store_true", help="print the facts as JSON instead of the summary")
    add_map_limit(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from sim.analysis import report as R
    from sim.analysis.mapfacts import analyze_map, size_subjects, template_subject
    from sim.analysis.mapreport import html, pictures, sheets, terminal
    from sim.base.errors import DataError
    from sim.rules.sizes import Size

    if args.speed is not None and (args.speed < 0 or args.speed % 5):
        raise UsageError(f"--speed must be a non-negative multiple of 5 ft, got {args.speed}")
    if args.min_area < 1:
        raise UsageError(f"--min-area must be at least 1, got {args.min_area}")
    sizes = None
    if args.sizes:
        if args.sizes.strip().lower() == "none":
            sizes = []
        else:
            try:
                sizes = [Size.parse(s) for s in args.sizes.split(",") if s.strip()]
            except KeyError as exc:
                raise UsageError(f"--sizes: {exc.args[0]}") from None
    if sizes == [] and not args.creature:
        raise UsageError("--sizes none leaves nothing to analyse; add --creature TEMPLATE")
    out_dir = None
    if not args.no_files:
        out_dir = Path(args.out) if args.out else Path(f"{Path(args.map).stem}-report")
    grid = load_map_arg(args)
    for name in args.entrance:
        if name not in grid.points:
            have = ", ".join(grid.points) or "none; add [[point]] tables with name and at = [x, y]"
            raise UsageError(f"--entrance {name}: no point {name!r} in {args.map}; its points: {have}")
    subjects = size_subjects(sizes, speed_ft=args.speed, escape_artist=args.escape_artist) if sizes != [] else []
    for name in args.creature:
        try:
            subjects.append(template_subject(name))
        except DataError as exc:
            raise UsageError(f"--creature {name}: " + "; ".join(exc.problems)) from None
    keys = [s.key for s in subjects]
    if len(set(keys)) != len(keys):
        raise UsageError("the same body is asked for twice; give each --creature once")
    folder = R.prepare_dir(out_dir) if out_dir is not None else None
    m = analyze_map(grid, subjects=subjects, min_area=args.min_area, entrances=args.entrance or None)
    files: list[str] = []
    if folder is not None:
        pics = {**pictures(m, art=args.art), **sheets(m)}
        m.facts["files"] = ["report.html", "analysis.json", *pics]
        files = R.write_files(folder, {"report.html": html(m, pics), "analysis.json": R.dumps_json(m.facts), **pics})
    if args.json:
        sys.stdout.write(R.dumps_json(m.facts))
        return 0
    terminal(m, Console(highlight=False, width=None if sys.stdout.isatty() else 160), files)
    return 0
