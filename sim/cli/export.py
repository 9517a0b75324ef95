"""``cavesim export MAP --to tiled|overlay|uvtt OUT``: a map, or the rules' answers, back out.

* ``--to tiled OUT.tmx|OUT.tmj`` -- value-tile layers and a tileset (:mod:`sim.maps.exporters.tiled`),
  so a designer keeps painting in Tiled; importing the file again gives the same arrays;
* ``--to overlay --size S OUT.png`` -- a transparent PNG of the categories for one body, at the
  pixel scale of the map's own image (:mod:`sim.maps.exporters.overlay`);
* ``--to uvtt --size S OUT.dd2vtt`` -- a Universal VTT file whose walls are where that body
  cannot go (Impassable; with ``--include tight`` also Tight Squeeze) (:mod:`sim.maps.exporters.uvtt`).

Every file is written atomically; bad arguments are refused before any work (exit 2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.base.errors import UsageError
from sim.cli._common import (
    add_body_args,
    add_map_limit,
    body_from,
    load_map_arg,
    print_json,
)

TARGETS = ("tiled", "overlay", "uvtt")
SUFFIXES = {"tiled": (".tmx", ".tmj"), "overlay": (".png",), "uvtt": (".dd2vtt", ".df2vtt", ".uvtt")}
MAX_PX = 1024


def register(sub) -> None:
    p = sub.add_parser(
        "export", help="a map out to Tiled, or one body's categories as a VTT overlay PNG or UVTT walls",
        description="Export a map: --to tiled writes value-tile layers and a tileset for Tiled; --to overlay "
                    "writes a transparent PNG of one body's categories at the scale of the map's image; --to uvtt "
                    "writes a Universal VTT file with walls where that body cannot go.")
    p.add_argument("map", help="map or encounter file (TOML)")
    p.add_argument("out", help="the file to write (.tmx/.tmj, .png, or .dd2vtt/.df2vtt/.uvtt)")
    p.add_argument("--to", required=True, choices=TARGETS, help="what to write")
    add_body_args(p)
    p.add_argument("--include", choices=("tight",), default=None,
                   help="uvtt: wall off Tight Squeeze squares too (default: Impassable only)")
    p.add_argument("--round", action="store_true",
                   help="tiled: round widths and ceilings down to the palette first (maps with many values)")
    p.add_argument("--px-per-square", type=int, default=None, metavar="K",
                   help="overlay and uvtt: pixels per square (default: the map image's scale, else 50)")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    add_map_limit(p)
    p.set_defaults(handler=run)


def check_args(args: argparse.Namespace) -> Path:
    out = Path(args.out)
    if out.suffix.lower() not in SUFFIXES[args.to]:
        raise UsageError(f"{out}: --to {args.to} writes {' or '.join(SUFFIXES[args.to])}; "
                         f"name the output e.g. {out.with_suffix(SUFFIXES[args.to][0])}")
    if not out.parent.is_dir():
        raise UsageError(f"{out}: folder {out.parent} does not exist; create it first or choose another path")
    if out.is_dir():
        raise UsageError(f"{out}: is a folder; give a file name")
    if args.to == "tiled":
        if args.size or args.creature or args.swarm:
            raise UsageError("--to tiled writes the map itself; it takes no --size or --creature")
        if args.include or args.px_per_square is not None:
            raise UsageError("--to tiled takes no --include or --px-per-square (Tiled tiles are 32 px)")
    elif args.round:
        raise UsageError("--round is for --to tiled (the overlay and the walls use the exact values)")
    elif args.include and args.to != "uvtt":
        raise UsageError("--include tight is for --to uvtt (walls); the overlay shows every category")
    if args.px_per_square is not None and not (1 <= args.px_per_square <= MAX_PX):
        raise UsageError(f"--px-per-square {args.px_per_square}: give a whole number from 1 to {MAX_PX}")
    return out


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from sim.maps.exporters.overlay import export_overlay, map_px
    from sim.maps.exporters.tiled import export_tiled, round_down
    from sim.maps.exporters.uvtt import blocked_mask, export_uvtt
    from sim.rules.categories import Category
    from sim.terrain.classify import category_counts, classify

    out = check_args(args)
    if args.to != "tiled":
        label, body = body_from(args)   # refuse a missing or bad body before loading the map
    grid = load_map_arg(args)
    if args.to == "tiled":
        files = export_tiled(round_down(grid) if args.round else grid, out)
        _report(args, files, {"to": "tiled", "cols": grid.cols, "rows": grid.rows, "rounded": args.round})
        return 0
    cats = classify(grid, body)
    k = map_px(grid, args.px_per_square)
    info = {"to": args.to, "body": label, "cols": grid.cols, "rows": grid.rows, "px_per_square": k,
            "image": str(grid.image) if grid.image else None}
    if args.to == "overlay":
        files = export_overlay(grid, cats, out, k=k)
        counts = category_counts(np.where(grid.rock, np.uint8(Category.IMPASSABLE), cats)[~grid.rock])
        info["floor"] = {c.name: n for c, n in counts.items()}
    else:
        files = export_uvtt(grid, cats, out, k=k, include_tight=args.include == "tight")
        blocked = blocked_mask(grid, cats, include_tight=args.include == "tight")
        info["walled_floor_squares"] = int((blocked & ~grid.rock).sum())
        info["include_tight"] = args.include == "tight"
    _report(args, files, info)
    return 0


def _report(args: argparse.Namespace, files: list[Path], info: dict) -> None:
    from sim.rules.categories import Category

    if args.json:
        print_json({"files": [str(f) for f in files], **info})
        return
    for f in files:
        print(f"wrote {f}")
    if info["to"] == "overlay":
        print(f"{info['cols']}x{info['rows']} squares at {info['px_per_square']} px per square for a {info['body']} "
              f"body" + (f" (the scale of {info['image']})" if info["image"] else " (no map image: the default scale)"))
        print("floor squares: " + ", ".join(f"{Category[k].label} {n}" for k, n in info["floor"].items() if n))
    elif info["to"] == "uvtt":
        what = "Impassable and Tight Squeeze" if info["include_tight"] else "Impassable"
        print(f"walls around rock and the {info['walled_floor_squares']} floor squares that are {what} for a "
              f"{info['body']} body; {info['px_per_square']} px per square")
