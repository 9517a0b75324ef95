"""``cavesim import FILE --out MAP.toml``: another tool's map into cavesim's format (DESIGN §6).

The file's suffix picks the importer (:data:`sim.importers.IMPORTERS`): Tiled ``.tmx``/``.tmj``
and picture ``.png`` maps. The map TOML (a legend grid when its values fit few glyphs, else
exact ``.npz`` layers) is written atomically; bad input is refused with one located message and
exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli._common import add_map_limit, print_json
from sim.errors import UsageError
from sim.importers import IMPORTERS
from sim.mapwrite import FORMATS


def register(sub) -> None:
    p = sub.add_parser(
        "import", help="a Tiled (.tmx/.tmj) or picture (.png) map into cavesim's map format",
        description="Import a map into cavesim's TOML map format. Tiled maps use value tiles (layers width_ft "
                    "and height_ft) or semantic tiles (width_ft/height_ft/difficult properties); PNG maps are "
                    "quarter-feet RGBA, a pair of 16-bit grey pictures, or a legend image. See the README.")
    p.add_argument("file", help="the map to import: " + ", ".join(sorted(IMPORTERS)))
    p.add_argument("--out", required=True, metavar="MAP.toml", help="the cavesim map to write")
    p.add_argument("--point", action="append", metavar="NAME=X,Y", help="a named point (repeatable)")
    p.add_argument("--format", choices=FORMATS, default="auto",
                   help="legend grid or exact .npz layers (default auto: a legend when the values fit)")
    g = p.add_argument_group("picture maps (.png)")
    g.add_argument("--px-per-square", type=int, default=None, metavar="K",
                   help="pixels per square: each square is a K x K block of one colour (default 1)")
    g.add_argument("--ceiling-image", metavar="PNG", default=None,
                   help="with a grey width picture: the ceilings, same size and mode (I;16: hundredths of a foot)")
    g.add_argument("--legend", metavar="LEGEND.toml", default=None,
                   help="a legend image: each exact colour \"#rrggbb\" is an entry of this file's [legend]")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")
    add_map_limit(p)
    p.set_defaults(handler=run)


def check_args(args: argparse.Namespace) -> tuple[Path, Path]:
    path, out = Path(args.file), Path(args.out)
    suffix = path.suffix.lower()
    if suffix in (".jpg", ".jpeg"):
        raise UsageError(f"{path}: is a JPEG; JPEG is lossy and changes the colours that hold the widths; "
                         "save the map as PNG")
    if suffix not in IMPORTERS:
        raise UsageError(f"{path}: cavesim imports {', '.join(sorted(IMPORTERS))} files; "
                         f"{suffix or 'a file without a suffix'} is not one of them")
    if out.suffix.lower() != ".toml":
        raise UsageError(f"--out {out}: give the .toml map file to write (e.g. {out.with_suffix('.toml')})")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist; create it first or choose another path")
    if out.is_dir():
        raise UsageError(f"--out {out}: is a folder; give a file name")
    if suffix != ".png" and (args.px_per_square is not None or args.ceiling_image or args.legend):
        raise UsageError("--px-per-square, --ceiling-image and --legend are for .png picture maps")
    if args.px_per_square is not None and args.px_per_square < 1:
        raise UsageError(f"--px-per-square {args.px_per_square}: give a whole number >= 1")
    return path, out


def run(args: argparse.Namespace) -> int:
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
