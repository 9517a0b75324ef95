"""``cavesim import FILE --out MAP.toml``: a map drawn in another tool as a cavesim map (DESIGN §6).

The importer is chosen by the file's suffix (:func:`sim.maps.importers.importer_for`): Universal VTT
exports (``.dd2vtt``/``.df2vtt``/``.uvtt``, widths measured from the walls), Tiled maps
(``.tmx``/``.tmj``) and picture maps (``.png``). The result is written by
:func:`sim.maps.write.write_map` (the TOML, its ``.npz`` layers when needed, and the floor picture as
a sibling PNG), every file atomically. Bad input: one located message, exit 2, nothing written.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sim.base.errors import DataError, UsageError
from sim.cli import _choices as C
from sim.cli._common import add_map_limit, plural, print_json

if TYPE_CHECKING:  # annotations only: the command line starts without numpy
    from sim.maps.importers.common import ImportOptions

_XY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_POINT = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*=\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


def register(sub) -> None:
    p = sub.add_parser(
        "import", help="a Universal VTT (.dd2vtt/.df2vtt/.uvtt), Tiled (.tmx/.tmj) or picture (.png) map into a "
                       "cavesim map",
        description="Import a map drawn in another tool into the cavesim map format. Universal VTT exports of "
                    "Dungeondraft, DungeonFog and Arkenforge: the passage width of every square is measured from "
                    "the wall geometry; closed doors, lights and the map picture are kept. Tiled maps use value "
                    "tiles (layers width_ft and height_ft) or semantic tiles (width_ft/height_ft/difficult "
                    "properties); PNG maps are quarter-feet RGBA, a pair of 16-bit grey pictures, or a legend "
                    "image. See the README.")
    p.add_argument("file", metavar="FILE", help="the map to import (.dd2vtt, .df2vtt, .uvtt, .tmx, .tmj or .png)")
    p.add_argument("--out", required=True, metavar="MAP.toml", help="the map file to write; the .npz layers and "
                   "the picture (.png) are written beside it")
    p.add_argument("--point", action="append", default=[], metavar="NAME=X,Y",
                   help="a named point (entrance=3,4) for analyze, crawl and encounters; repeatable")
    p.add_argument("--format", choices=C.MAP_FORMATS, default="auto",
                   help="legend grid, numeric .npz layers, or auto (default; a map with closed doors is always "
                        "written as layers)")
    p.add_argument("--ceiling-image", metavar="PNG", default=None,
                   help="VTT maps: a grey-scale picture aligned with the map, grey level x 0.25 ft is the ceiling "
                        "(0 = rock, 40 = 10 ft, 255 = 63.75 ft; the lowest in each square counts). Picture maps "
                        "with a grey width picture: the ceilings, same size and mode (I;16: hundredths of a foot)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    add_map_limit(p)
    v = p.add_argument_group("Universal VTT maps (.dd2vtt, .df2vtt, .uvtt)")
    v.add_argument("--feet-per-square", type=float, default=C.IMPORT_FEET_PER_SQUARE, metavar="FT",
                   help=f"a grid square's side in feet (the file has no units; default {C.IMPORT_FEET_PER_SQUARE:g})")
    v.add_argument("--ceiling", type=float, default=None, metavar="FT",
                   help=f"ceiling height of every floor square in feet (default {C.IMPORT_CEILING_FT:g}: the file has "
                        "no ceilings; 10 ft is a Medium creature's room to stand and swing, and makes Large and "
                        "bigger Low everywhere, which the summary warns of)")
    v.add_argument("--image", metavar="PICTURE", default=None,
                   help="the map's picture (PNG, WebP or JPEG) when the file holds none, a file name (a Foundry "
                        "export) or a damaged one; kept as it is")
    v.add_argument("--resolution", type=float, default=None, metavar="PX_PER_FT",
                   help="pixels per foot the walls are rasterised at (default: automatic, 10 down to 2 so that "
                        "the raster stays near 16 million pixels)")
    v.add_argument("--floor", action="append", default=[], metavar="X,Y",
                   help="the open space holding square X,Y is floor (when it touches the map's edge); repeatable")
    v.add_argument("--rock", action="append", default=[], metavar="X,Y",
                   help="the open space holding square X,Y is rock (an enclosed space that is not cave); repeatable")
    v.add_argument("--enclosed", choices=("floor", "rock"), default=None,
                   help="every enclosed space not joined to the main floor is floor / rock (default: loops inside "
                        "the floor and small ones in the open -- pillars, pools, crates -- are rock, other sealed "
                        "spaces floor); "
                        "--floor/--rock X,Y decide one space over this; the summary lists them")
    v.add_argument("--name", default=None, help="the map's name (default: the file name)")
    v.add_argument("--max-file-mb", type=float, default=64.0, metavar="MB",
                   help="refuse input files larger than this (default 64)")
    v.add_argument("--max-pixels", type=float, default=float(C.IMPORT_MAX_PIXELS), metavar="N",
                   help=f"refuse rasters larger than this many pixels (default {C.IMPORT_MAX_PIXELS:.0e})")
    g = p.add_argument_group("picture maps (.png)")
    g.add_argument("--px-per-square", type=int, default=None, metavar="K",
                   help="pixels per square: each square is a K x K block of one colour (default 1)")
    g.add_argument("--legend", metavar="LEGEND.toml", default=None,
                   help="a legend image: each exact colour \"#rrggbb\" is an entry of this file's [legend]")
    p.set_defaults(handler=run)


def _squares(values: list[str], flag: str) -> tuple[tuple[int, int], ...]:
    out = []
    for v in values:
        m = _XY.match(v)
        if not m:
            raise UsageError(f"{flag} {v!r}: give a square as X,Y (column, row from the top-left), e.g. {flag} 3,4")
        out.append((int(m.group(1)), int(m.group(2))))
    return tuple(out)


def options_from(args: argparse.Namespace) -> ImportOptions:
    """Check every argument before any work; the options for the importer."""
    from sim.maps.importers.common import ImportOptions

    if not (args.feet_per_square > 0) or args.feet_per_square > 100:
        raise UsageError(f"--feet-per-square {args.feet_per_square:g}: give a square side in feet, > 0 and <= 100 "
                         "(5 for D&D)")
    ceiling = C.IMPORT_CEILING_FT if args.ceiling is None else args.ceiling
    if not (ceiling > 0) or ceiling > 1000:
        raise UsageError(f"--ceiling {ceiling:g}: give a ceiling height in feet, > 0 and <= 1000")
    if args.resolution is not None and not (0 < args.resolution <= 100):
        raise UsageError(f"--resolution {args.resolution:g}: give pixels per foot, > 0 and <= 100 (e.g. 4)")
    if not (args.max_file_mb > 0) or not (args.max_pixels > 0):
        raise UsageError("--max-file-mb and --max-pixels must be > 0")
    points: dict[str, tuple[int, int]] = {}
    for v in args.point:
        m = _POINT.match(v)
        if not m:
            raise UsageError(f"--point {v!r}: give NAME=X,Y, e.g. --point entrance=3,4 (name: letters, digits, _ . -)")
        if m.group(1) in points:
            raise UsageError(f"--point {m.group(1)}: given twice; each point needs its own name")
        points[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    ceiling_image = Path(args.ceiling_image) if args.ceiling_image else None
    image = Path(args.image) if args.image else None
    from sim.base.fileio import check_input_file

    for flag, pic in (("--ceiling-image", ceiling_image), ("--image", image)):
        if pic is not None:
            try:
                check_input_file(pic, what="picture")   # a FIFO, a device, a folder: said, not read
            except DataError as exc:
                raise DataError(f"{flag} {exc}") from None
    out = Path(args.out)
    if out.suffix.lower() != ".toml":
        raise UsageError(f"--out {out}: give the .toml map file to write (e.g. {out.with_suffix('.toml')}); "
                         "its layers and picture are written beside it")
    if not (out.parent if str(out.parent) else Path(".")).is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist; create it first or choose another path")
    if out.is_dir():
        raise UsageError(f"--out {out}: is a folder; give a file name such as {out / 'cave.toml'}")
    return ImportOptions(
        feet_per_square=args.feet_per_square, ceiling_ft=ceiling, resolution=args.resolution,
        floor=_squares(args.floor, "--floor"), rock=_squares(args.rock, "--rock"), enclosed=args.enclosed,
        points=points, ceiling_image=ceiling_image, image=image, name=args.name, max_pixels=int(args.max_pixels),
        max_file_bytes=int(args.max_file_mb * 1024 * 1024),
    )


def run(args: argparse.Namespace) -> int:
    from sim.maps.importers import VTT_SUFFIXES, importer_for
    from sim.maps.write import write_map

    src = Path(args.file)
    if src.suffix.lower() in (".jpg", ".jpeg"):
        raise UsageError(f"{src}: is a JPEG; JPEG is lossy and changes the colours that hold the widths; "
                         "save the map as PNG")
    module = importlib.import_module(importer_for(src))
    if src.suffix.lower() not in VTT_SUFFIXES:
        return _run_tiled_or_picture(args)
    if args.px_per_square is not None or args.legend:
        raise UsageError("--px-per-square and --legend are for .png picture maps, not Universal VTT files")
    options = options_from(args)   # the file itself is checked by the reader (a FIFO, a folder, a device: said)
    with _progress(not args.json) as progress:
        imported = module.import_file(src, options, progress=progress)
    for w in imported.warnings:
        print(f"cavesim: warning: {w}", file=sys.stderr)
    ceilings = (f"from {options.ceiling_image.name}" if options.ceiling_image
                else f"{options.ceiling_ft:g} ft" + (" (the default)" if args.ceiling is None else ""))
    comment = (f"Imported by `cavesim import {src.name}` from a Universal VTT file: widths measured from the\n"
               f"walls at {imported.resolution:g} px/ft, {options.feet_per_square:g}-ft squares, ceilings {ceilings}"
               ".\nClosed doors are the door layer (rock while closed); lights are [[light]] tables.")
    written = write_map(imported.grid, Path(args.out), fmt=args.format, comment=comment, image=imported.image,
                        image_suffix=imported.image_suffix)
    default_ceiling = None if (args.ceiling is not None or options.ceiling_image) else options.ceiling_ft
    _summary(imported, written, args, default_ceiling)
    return 0


class _progress:
    """A rich progress bar on stderr for long imports (a terminal only); a no-op otherwise."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = None
        self.task = None

    def __enter__(self):
        if not self.enabled:
            return lambda stage, done, total: None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("importing: {task.description:<6}"), BarColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        self.task = self.bar.add_task("walls", total=1)

        def update(stage: str, done: int, total: int) -> None:
            self.bar.update(self.task, description=stage, completed=done, total=max(total, 1))

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def _summary(imported, written, args, default_ceiling: float | None) -> None:
    """What was written, and the floor squares per size and category (every size: an imported
    map's ceilings are a guess, and which sizes they squeeze is the first thing to check).
    ``default_ceiling``: the ceiling when it is the default, not one the user gave (None)."""
    from sim.rules.bodies import body_for
    from sim.rules.categories import Category
    from sim.rules.sizes import Size
    from sim.terrain.classify import category_counts, classify_all_sizes

    grid = written.grid
    floor = ~grid.rock
    n = int(floor.sum())
    cats = classify_all_sizes(grid)
    table = {s: category_counts(cats[int(s)][floor]) for s in Size}
    squeezed = low_everywhere(grid, default_ceiling)
    if squeezed:
        s = squeezed[0]
        more = (f" (and {', '.join(x.name.capitalize() for x in squeezed[1:])} worse)" if len(squeezed) > 1
                else "")
        print(f"cavesim: warning: {s.name.capitalize()}: {table[s][Category.CLEAR]} Clear of {n} — the default "
              f"ceiling {default_ceiling:g} ft makes {s.name.capitalize()} ({body_for(s).height:g} ft tall) Low "
              f"everywhere{more}; set --ceiling FT, "
              f"or set the ceilings after importing: `cavesim edit {args.out} --apply OPS.jsonl` with the line "
              '{"op": "ceiling", "value": FT} (docs/import-ceilings-pictures.md)', file=sys.stderr)
    doors = int(grid.door.sum()) if grid.door is not None else 0
    walls = 0 if grid.edges is None else grid.edges.count()
    edge_doors = 0 if grid.edge_doors is None else grid.edge_doors.count()
    files = [str(p) for p in written.files]
    if args.json:
        print_json({
            "map": files[0], "files": files, "format": written.fmt, "name": grid.name,
            "cols": grid.cols, "rows": grid.rows, "floor": n, "doors": doors,
            "edge_walls": walls - edge_doors, "edge_doors": edge_doors,
            "lights": len(grid.lights), "points": {k: list(v) for k, v in grid.points.items()},
            "resolution_px_per_ft": imported.resolution, "fine_squares": imported.fine_squares,
            "image": imported.image is not None, "warnings": list(imported.warnings),
            "medium": {c.name: k for c, k in table[Size.MEDIUM].items()},
            "sizes": {s.key: {c.name: k for c, k in table[s].items()} for s in Size},
            "low_everywhere": [s.key for s in squeezed],
            "enclosed": [{"square": list(e.square), "squares": round(e.squares, 2), "kind": e.kind, "floor": e.floor,
                          "why": e.why} for e in imported.spaces],
        })
        return
    print(f"wrote {', '.join(files)}")
    between = (f"{plural(walls - edge_doors, 'wall')} and {plural(edge_doors, 'closed door')} between squares, "
               if walls else "")
    print(f"{grid.name}: {grid.cols}x{grid.rows} squares, {n} floor, {plural(doors, 'closed-door square')}, "
          f"{between}{plural(len(grid.lights), 'light')}; widths measured at {imported.resolution:g} px/ft "
          f"({plural(imported.fine_squares, 'square')} re-measured finely)")
    for line in size_table(table):
        print(line)
    _spaces_summary(imported.spaces)


def low_everywhere(grid, ceiling: float | None) -> list:
    """The sizes a uniform ``ceiling`` (the default one; None: the user chose, no warning) makes
    Low on every floor square: their default body stands taller than it (``C < H``, docs/rules.md §2.3)."""
    from sim.rules.bodies import body_for
    from sim.rules.sizes import Size

    if ceiling is None or not (~grid.rock).any():
        return []
    return [s for s in Size if body_for(s).height > ceiling]


def size_table(table) -> list[str]:
    """The floor squares per size (a line each, with the body's space and height) and category."""
    from sim.rules.bodies import body_for
    from sim.rules.categories import Category

    heads = [c.label.replace("Crawl-Navigable", "Crawl").replace("Tight Squeeze", "Tight")
             .replace("Awkward Space", "Awkward") for c in Category]
    widths = [max(7, len(h)) for h in heads]
    out = ["floor squares per size (space x height of its body) and category:",
           f"  {'size':<25}" + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths))]
    for s, counts in table.items():
        b = body_for(s)
        label = f"{s.key} ({b.space:g} x {b.height:.3g} ft)"
        out.append(f"  {label:<25}" + " ".join(f"{counts[c]:>{w}}" for c, w in zip(Category, widths)))
    return out


def _spaces_summary(spaces) -> None:
    """The enclosed spaces not joined to the main floor, each with what was decided (docs/rules.md §2.10)."""
    if not spaces:
        return
    print(f"{plural(len(spaces), 'enclosed space')} not joined to the main floor (object loops are rock, "
          "others floor; --enclosed floor|rock, --floor/--rock X,Y decide):")
    for e in spaces:
        what = "an object loop" if e.kind == "object" else "a separate space"
        print(f"  at {e.square[0]},{e.square[1]}: {e.squares:.1f} squares, {what} -> {'floor' if e.floor else 'rock'} "
              f"({e.why})")


def check_args(args: argparse.Namespace) -> tuple[Path, Path]:
    path, out = Path(args.file), Path(args.out)
    suffix = path.suffix.lower()
    if out.suffix.lower() != ".toml":
        raise UsageError(f"--out {out}: give the .toml map file to write (e.g. {out.with_suffix('.toml')})")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist; create it first or choose another path")
    if out.is_dir():
        raise UsageError(f"--out {out}: is a folder; give a file name")
    if suffix != ".png" and (args.px_per_square is not None or args.ceiling_image or args.legend):
        raise UsageError("--px-per-square, --ceiling-image and --legend are for .png picture maps")
    if args.enclosed:
        raise UsageError("--enclosed is for Universal VTT maps (.dd2vtt, .df2vtt, .uvtt), whose walls enclose spaces; "
                         "a Tiled or picture map says what each square is")
    if args.px_per_square is not None and args.px_per_square < 1:
        raise UsageError(f"--px-per-square {args.px_per_square}: give a whole number >= 1")
    return path, out


def _run_tiled_or_picture(args: argparse.Namespace) -> int:
    from sim.maps.importers import IMPORTERS

    path, out = check_args(args)
    written = IMPORTERS[path.suffix.lower()](path, out, args)
    g = written.grid
    if args.json:
        print_json({"map": str(written.files[0]), "files": [str(f) for f in written.files], "format": written.fmt,
                    "name": g.name, "cols": g.cols, "rows": g.rows, "floor": int((~g.rock).sum()),
                    "rock": int(g.rock.sum()), "doors": int(g.door.sum()),
                    "points": {k: list(v) for k, v in g.points.items()}})
        return 0
    for f in written.files:
        print(f"wrote {f}")
    print(f"{g.name}: {g.cols}x{g.rows} squares, {int((~g.rock).sum())} floor, {int(g.rock.sum())} rock"
          + (f", {int(g.door.sum())} closed doors" if g.door.any() else "")
          + (", points: " + ", ".join(f"{k} {v}" for k, v in g.points.items()) if g.points else ""))
    return 0
