"""``cavesim edit MAP``: the map editor (issue 18).

* ``cavesim edit MAP`` opens the map in a window: paint widths, ceilings, difficult ground and
  rock with the rules live under the brush (``sim.render.editor``);
* ``cavesim edit MAP --new COLSxROWS [--units ft|m]`` starts a new map of solid rock;
* ``cavesim edit MAP --apply OPS.jsonl [--out NEW.toml]`` runs scripted operations (one JSON
  object a line, ``sim.editor.ops``) and saves the result; a bad operation is refused with its
  line number (exit 2) and nothing is written.

Saving is safe in both (``sim.editor.save``): validated, ``NAME.toml.bak``, temporary file and
rename, read back.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sim.base.errors import DataError, UsageError
from sim.base.fileio import read_toml
from sim.cli import _choices as C
from sim.cli._common import add_map_limit, limits_from, plural, print_json

if TYPE_CHECKING:  # annotations only: the command line starts without numpy
    from sim.editor.model import Document


def register(sub) -> None:
    p = sub.add_parser(
        "edit", help="the map editor: paint widths, ceilings, difficult ground, rock; or apply scripted edits",
        description="Open a map in the editor window (or start a new one with --new), or apply scripted "
                    "operations from a JSONL file with --apply. Saves keep NAME.toml.bak and never leave a "
                    "half-written map.")
    p.add_argument("map", metavar="MAP", help="the map file (TOML, legend or .npz layers); with --new, the file to create")
    p.add_argument("--new", metavar="COLSxROWS", default=None, help="start a new map of solid rock this size, e.g. 60x40")
    p.add_argument("--units", choices=C.UNITS, default=None, help="units of a --new map (default ft)")
    p.add_argument("--name", default=None, help="the name of a --new map (default: the file name)")
    p.add_argument("--apply", metavar="OPS.jsonl", default=None,
                   help="run these operations (one JSON object a line) without a window, then save")
    p.add_argument("--out", metavar="NEW.toml", default=None, help="save to this file (default: MAP itself)")
    p.add_argument("--format", choices=C.EDIT_FORMATS, default="keep",
                   help="how to save: keep (a legend map stays one while its values fit the glyphs, a layers "
                        "map stays layers), auto, legend or layers (default keep)")
    p.add_argument("--record", metavar="OPS.jsonl", default=None,
                   help="window: write what you did as operations (the --apply format) when the window closes")
    p.add_argument("--json", action="store_true", help="--apply: print the summary as JSON")
    p.add_argument("--window", default="1280x800", metavar="WxH", help="window size in pixels (default 1280x800)")
    p.add_argument("--max-frames", type=int, default=None, metavar="N",
                   help="stop after N frames (tests; also allows the dummy video driver)")
    add_map_limit(p)
    p.set_defaults(handler=run)


def parse_new(text: str, limits) -> tuple[int, int]:
    """``--new COLSxROWS`` -> (cols, rows), bounded by the map size limit.

    >>> from sim.maps.limits import Limits
    >>> parse_new("60x40", Limits())
    (60, 40)
    """
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise UsageError(f"--new {text!r}: write the size as COLSxROWS in squares, e.g. --new 60x40")
    cols, rows = int(m.group(1)), int(m.group(2))
    if cols > limits.max_cols or rows > limits.max_rows:
        raise UsageError(f"--new {text}: {cols}x{rows} squares is over the map size limit of "
                         f"{limits.max_cols}x{limits.max_rows}; make it smaller or raise --max-map-size")
    return cols, rows


def open_document(args: argparse.Namespace) -> tuple[Document, Path]:
    """The document to edit and the file it saves to (bad arguments refused before any work).
    Sets ``args.encounter_note``: for an encounter file saved with ``--out``, what the encounter
    still uses (None otherwise)."""
    from sim.editor.model import Document
    from sim.maps.read import load_map

    path = Path(args.map)
    limits = limits_from(args)
    if args.new is None:
        if args.units is not None or args.name is not None:
            raise UsageError("--units and --name are for a --new map; a map file says its own")
        data, _ = read_toml(path)
        out = Path(args.out) if args.out else path
        if "encounter" in data:
            enc = data["encounter"]
            ref = enc.get("map") if isinstance(enc, dict) else None
            if not isinstance(ref, str):
                if not args.out:
                    raise UsageError(f"{path}: is an encounter with its map inline; give --out MAP.toml to save the "
                                     "edited map as a map file of its own")
                args.encounter_note = (
                    f"{path} is an encounter: only the edited map was written, to {out}; {path} is unchanged and "
                    f"still fights on its own inline map; to fight on the edited one, replace its [map] and "
                    f"[legend] with [encounter] map = {_toml_path(out, path)}")
            elif not args.out:
                out = path.parent / ref          # an encounter naming its map: edit that map
            elif _same_file(out, path.parent / ref):
                args.encounter_note = None       # --out is the map the encounter names: it fights on the edit
            else:
                args.encounter_note = (
                    f"{path} is an encounter: only the edited map was written, to {out}; {path} is unchanged and "
                    f"still fights on {path.parent / ref}; to fight on the edited map, set [encounter] map = "
                    f"{_toml_path(out, path)} in {path}")
        grid = load_map(path, limits=limits)
        return Document.from_grid(grid), out
    cols, rows = parse_new(args.new, limits)
    if args.name is not None:
        from sim.editor.model import check_name
        try:
            check_name(args.name, "--name")
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if path.exists():
        raise UsageError(f"{path}: already exists; open it without --new, or give another file name")
    if path.suffix.lower() != ".toml":
        raise UsageError(f"{path}: a new map is a .toml file, e.g. {path.with_suffix('.toml')}")
    if not path.parent.is_dir():
        raise UsageError(f"{path}: folder {path.parent} does not exist; create it first")
    doc = Document.blank(cols, rows, units=args.units or "ft", name=args.name or path.stem)
    return doc, (Path(args.out) if args.out else path)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _toml_path(out: Path, enc: Path) -> str:
    """``out`` as an encounter file ``enc`` would name it (relative to its folder when it can be)."""
    try:
        rel = os.path.relpath(out.resolve(), enc.resolve().parent)
    except (OSError, ValueError):
        rel = str(out.resolve())
    return '"' + rel.replace("\\", "/") + '"'


def _check_out(out: Path) -> None:
    if out.suffix.lower() != ".toml":
        raise UsageError(f"--out {out}: give the .toml map file (e.g. {out.with_suffix('.toml')}); "
                         "an .npz of layers is written beside it when needed")
    if not out.parent.is_dir():
        raise UsageError(f"--out {out}: folder {out.parent} does not exist; create it first or choose another path")
    if out.is_dir():
        raise UsageError(f"--out {out}: is a folder; give a file name")


def run(args: argparse.Namespace) -> int:
    if args.record and args.apply:
        raise UsageError("--record is for the window; with --apply the operations are already in a file")
    args.encounter_note = None
    doc, out = open_document(args)
    _check_out(out)
    if args.apply:
        return _apply(args, doc, out)
    return _window(args, doc, out)


def _apply(args: argparse.Namespace, doc: Document, out: Path) -> int:
    from sim.editor.ops import apply_ops, read_ops
    from sim.editor.save import find_autosave, save

    ops = read_ops(args.apply)                         # every bad line at once, before any change
    done = apply_ops(doc, ops, args.apply)
    if find_autosave(out, doc.shape) is not None:
        print(f"cavesim: note: {out.name} has an autosave from an editor window that did not close; open the map "
              "in the editor to recover it", file=sys.stderr)
    try:
        written = save(doc, out, fmt=args.format)
    except OSError as exc:              # a full disk, a folder made read-only meanwhile: save put the old files back
        raise DataError(f"{out}: cannot be written ({exc.strerror or exc}); the map's files are as they were") from None
    summary = {"map": str(written.files[0]), "files": [str(f) for f in written.files], "format": written.fmt,
               "operations": len(ops), "squares_changed": sum(d.changed for d in done),
               "glyphs": len(written.grid.legend) if written.fmt == "legend" else None,
               "backup": str(out.with_name(out.name + ".bak")) if out.with_name(out.name + ".bak").exists() else None,
               "cols": doc.cols, "rows": doc.rows, "points": {k: list(v) for k, v in doc.points.items()},
               "note": args.encounter_note}
    if args.json:
        print_json(summary)
    else:
        sidecars = [f.name for f in written.files[1:]]
        npz = [n for n in sidecars if n.lower().endswith(".npz")]
        how = (f"legend grid, {summary['glyphs']} glyphs" if written.fmt == "legend"
               else f"numeric layers in {npz[0] if npz else out.with_suffix('.npz').name}")
        pics = [n for n in sidecars if n not in npz]
        if pics:
            how += f"; the floor picture copied to {', '.join(pics)}"
        print(f"applied {plural(len(ops), 'operation')} ({plural(summary['squares_changed'], 'square change')}); "
              f"wrote {out} ({how})")
        if summary["backup"]:
            print(f"the previous file is kept as {summary['backup']}")
    if args.encounter_note:
        print(f"cavesim: note: {args.encounter_note}", file=sys.stderr)
    return 0


def _window(args: argparse.Namespace, doc: Document, out: Path) -> int:
    from sim.view.options import parse_size

    size = parse_size(args.window)
    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames must be at least 1, got {args.max_frames}")
    if args.record:
        rec = Path(args.record)
        if not rec.parent.is_dir():
            raise UsageError(f"--record {rec}: folder {rec.parent} does not exist")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sim.render.app import has_display, no_display_reason, test_driver

    if not (has_display() or (test_driver() and args.max_frames is not None)):
        raise UsageError(f"cavesim edit needs a display and none was found ({no_display_reason()}); "
                         "to edit without one, write the operations in a file and use --apply OPS.jsonl")
    from sim.render.editor import run_editor

    return run_editor(doc, out, size=size, fmt=args.format, record=Path(args.record) if args.record else None,
                      max_frames=args.max_frames)
