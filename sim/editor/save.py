"""Safe saves for the map editor (issue 18, item 4): validate, keep a ``.bak``, write atomically
and durably, read the file back; and the autosave sidecar that is offered back after a crash.

* :func:`save` refuses a map the loader would refuse (every problem named), copies the file it
  replaces to ``NAME.toml.bak`` (and a layers map's ``NAME.npz`` to ``NAME.npz.bak``), writes
  every file through :func:`sim.maps.write.write_map` into a hidden temporary folder beside it
  (fsync), loads what it wrote there and compares it with the document, and only then renames
  the files into place, the TOML last (:func:`_stage`). If anything fails part-way, every file
  already renamed is put back as it was or removed, so the old map is intact and a new ``--out``
  leaves nothing behind.
* A legend map stays a legend map when the painted values fit its glyphs (glyphs it had keep
  their meaning; new values get new glyphs), otherwise it is saved with ``.npz`` layers; a layers
  map stays a layers map; a new map is a legend map when it fits.
* :class:`Autosaver` writes ``NAME.toml.autosave.npz`` (the four layers and the points) every
  two minutes while there are unsaved edits; :func:`find_autosave` finds it when the map is next
  opened, and :func:`restore_patch` turns it into one undoable change.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from sim.base.errors import DataError
from sim.base.fileio import atomic_path, clean_stale, fsync_dir
from sim.editor.model import CELL, MAX_FT, Document, Patch, plan_points
from sim.maps.limits import DEFAULT_MAX_SIZE
from sim.maps.read import load_map
from sim.maps.write import Written, legend_grid, save_npz, write_map

AUTOSAVE_SECONDS = 120.0
AUTOSAVE_SUFFIX = ".autosave.npz"
FORMATS = ("keep", "auto", "legend", "layers")


def autosave_path(path: str | Path) -> Path:
    """``cave.toml`` -> ``cave.toml.autosave.npz`` (beside the map)."""
    p = Path(path)
    return p.with_name(p.name + AUTOSAVE_SUFFIX)


def backup_path(path: str | Path) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".bak")


# =================================================================================================
# Validation: what the loader would refuse, found before anything is written
# =================================================================================================

def validate(doc: Document) -> list[str]:
    """Every reason the map cannot be saved, one line each (empty: it can)."""
    problems = []
    rows, cols = doc.shape
    if cols > DEFAULT_MAX_SIZE[0] or rows > DEFAULT_MAX_SIZE[1]:
        problems.append(f"the map is {cols}x{rows} squares, over the limit of {DEFAULT_MAX_SIZE[0]}x"
                        f"{DEFAULT_MAX_SIZE[1]}")
    floor = ~doc.rock
    if not floor.any():
        problems.append("the map is solid rock; paint a width or a ceiling somewhere to carve the cave")
    for layer, a in (("width", doc.width), ("ceiling", doc.ceiling)):
        bad = ~np.isfinite(a) | (a < 0) | (a > MAX_FT)
        if bad.any():
            r, c = np.argwhere(bad)[0]
            problems.append(f"{layer} at ({c}, {r}) is {a[r, c]}; give 0 to {MAX_FT:g} ft")
    for name, (x, y) in doc.points.items():
        if not doc.in_bounds((x, y)):
            problems.append(f"point {name!r} at ({x}, {y}) is off the map; move or delete it")
        elif doc.rock[y, x]:
            problems.append(f"point {name!r} at ({x}, {y}) is on solid rock; move it to a floor square or delete it")
    for light in doc.lights:
        x, y = light.at
        label = light.name or f"at ({x}, {y})"
        if not doc.in_bounds((x, y)) or doc.rock[y, x]:
            problems.append(f"light {label!r} at ({x}, {y}) is on solid rock; open that square again")
    return problems


# =================================================================================================
# Saving
# =================================================================================================

def _format_for(doc: Document, fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    if fmt != "keep":
        return fmt
    if doc.legend:
        return "legend"     # write_map falls back to layers below when the glyphs run out
    if doc.source and doc.glyphs is None and Path(doc.source).exists():
        return "layers"     # a layers map stays one
    return "auto"


def _copy_durable(src: Path, dest: Path) -> None:
    with atomic_path(dest, durable=True) as tmp:
        shutil.copyfile(src, tmp)


def _differences(doc: Document, back) -> int:
    return int((back.width_ft != doc.width).sum() + (back.height_ft != doc.ceiling).sum()
               + (back.difficult != doc.difficult).sum() + (back.rock != doc.rock).sum())


def save(doc: Document, out: str | Path, *, fmt: str = "keep", comment: str = "",
         write: Callable[..., Written] = write_map) -> Written:
    """Validate and write the document to ``out`` (see the module docstring); returns what was
    written. ``write`` is the writer (tests inject one that fails part-way)."""
    out = Path(out)
    problems = validate(doc)
    if problems:
        raise DataError.collect([f"{out}: cannot save: {p}" for p in problems])
    form = _format_for(doc, fmt)
    comment = comment or _comment(doc.source)      # read before anything is replaced
    grid = doc.to_grid()
    if form == "legend" and fmt == "keep":   # an explicit --format legend is refused by the writer instead
        if legend_grid(grid) is None or (doc.door is not None and doc.door.any()) or grid.edges is not None:
            form = "layers"
    # back up what will be replaced
    npz = out.with_suffix(".npz")
    for path in (out, npz):
        if path.exists() and path.is_file():
            _copy_durable(path, backup_path(path))
    staged = _stage(grid, out, form=form, comment=comment, write=write,
                    check=lambda back: _check_back(doc, back, out))
    written = Written(grid=staged.grid, files=tuple(out.parent / f.name for f in staged.files), fmt=staged.fmt)
    doc.saved_version = doc.version
    doc.source = str(out)
    doc.legend = written.grid.legend          # the next save keeps the glyphs given now
    doc.glyphs = written.grid.glyphs
    autosave_path(out).unlink(missing_ok=True)
    return written


def _check_back(doc: Document, back, out: Path) -> None:
    n = _differences(doc, back)
    if n or dict(back.points) != doc.points:
        raise DataError(f"{out}: the saved file does not read back as the map ({n} values differ); "
                        "the old file was put back")


def _stage(grid, out: Path, *, form: str, comment: str, write: Callable[..., Written], check) -> Written:
    """Write every file of the map (the TOML and its ``.npz`` and picture beside it) into a hidden
    temporary folder beside ``out``, read the TOML back there (``check``), and only then rename
    the files into place, the TOML last. If anything fails, no file of ``out`` is changed: a file
    already renamed into place is put back as it was (or removed if it was new), and the
    temporary folder goes (issue 34, item 9). Returns what was written, as paths in the folder."""
    parent = out.parent if str(out.parent) else Path(".")
    clean_stale(out)
    try:
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.cavesim-{os.getpid()}.", suffix=".dir", dir=parent))
    except OSError as exc:
        raise DataError(f"{out}: cannot be written ({exc.strerror}); choose another place") from None
    placed: list[tuple[Path, Path | None]] = []       # (file put in place, the old file moved aside)
    try:
        os.chmod(stage, 0o700)
        staged = write(grid, stage / out.name, fmt=form, comment=comment, durable=True)
        check(load_map(stage / out.name))
        files = [f for f in staged.files if f.name != out.name] + [stage / out.name]   # the TOML last
        for f in files:
            dest = parent / f.name
            aside = None
            if dest.is_file():
                aside = stage / (f.name + ".old")
                try:
                    os.link(dest, aside)            # the old file, kept to put back
                except OSError:
                    shutil.copy2(dest, aside)
            placed.append((dest, aside))
            os.replace(f, dest)
        fsync_dir(parent)
    except BaseException:
        for dest, aside in reversed(placed):
            with contextlib.suppress(OSError):
                if aside is None:
                    dest.unlink()
                else:
                    os.replace(aside, dest)
        raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return staged


def _comment(source: str = "") -> str:
    """The comment block at the top of the map file being replaced (the designer's notes are
    kept; the writer's own "Format:" line is written again by the writer), or a line saying
    who wrote the file."""
    kept: list[str] = []
    try:
        with open(source, encoding="utf-8") as fh:
            for line in fh:
                if not line.startswith("#"):
                    break
                text = line[1:].rstrip("\n")
                text = text[1:] if text.startswith(" ") else text
                if not text.startswith("Format: "):
                    kept.append(text)
    except (OSError, UnicodeDecodeError):
        pass
    return "\n".join(kept) if kept else "Saved by `cavesim edit`."


# =================================================================================================
# Autosave and crash recovery
# =================================================================================================

@dataclass(frozen=True, slots=True, eq=False)
class Autosave:
    path: Path
    saved_at: float                     # seconds since the epoch
    width: np.ndarray
    ceiling: np.ndarray
    difficult: np.ndarray
    rock: np.ndarray
    points: dict
    edge_e: np.ndarray                  # walls between squares (east and south edges)
    edge_s: np.ndarray

    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.saved_at))


def write_autosave(doc: Document, map_path: str | Path, *, now: float | None = None) -> Path:
    """Write the document's layers and points to the sidecar beside ``map_path`` (atomically)."""
    dest = autosave_path(map_path)
    meta = {"points": {k: list(v) for k, v in doc.points.items()}, "saved_at": time.time() if now is None else now,
            "units": doc.units, "shape": list(doc.shape)}
    arrays = {"width_ft": doc.width, "height_ft": doc.ceiling, "difficult": doc.difficult, "rock": doc.rock,
              "edge_e": doc.edge_e, "edge_s": doc.edge_s,
              "meta": np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)}
    with atomic_path(dest, durable=True) as tmp:
        save_npz(tmp, arrays)
    return dest


def find_autosave(map_path: str | Path, shape: tuple[int, int]) -> Autosave | None:
    """The sidecar of ``map_path`` if there is a readable one of the map's shape, else None."""
    src = autosave_path(map_path)
    if not src.is_file():
        return None
    try:
        with np.load(src, allow_pickle=False) as z:
            meta = json.loads(bytes(z["meta"]).decode("utf-8"))
            arrays = [np.array(z[k]) for k in ("width_ft", "height_ft", "difficult", "rock")]
            arrays += [np.array(z[k]) if k in z.files else np.zeros(shape, bool) for k in ("edge_e", "edge_s")]
        if any(a.shape != tuple(shape) for a in arrays):
            return None
        points = {str(k): (int(v[0]), int(v[1])) for k, v in meta.get("points", {}).items()}
        return Autosave(src, float(meta.get("saved_at", src.stat().st_mtime)), arrays[0].astype(np.float64),
                        arrays[1].astype(np.float64), arrays[2].astype(bool), arrays[3].astype(bool), points,
                        arrays[4].astype(bool), arrays[5].astype(bool))
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None


def restore_patch(doc: Document, auto: Autosave) -> Patch:
    """One undoable patch that turns the document into the autosaved map."""
    new = np.empty(doc.width.size, dtype=CELL)
    new["width"], new["ceiling"] = auto.width.ravel(), auto.ceiling.ravel()
    new["difficult"], new["rock"] = auto.difficult.ravel(), auto.rock.ravel()
    new["edge_e"], new["edge_s"] = auto.edge_e.ravel(), auto.edge_s.ravel()
    old = np.empty(doc.width.size, dtype=CELL)
    old["width"], old["ceiling"] = doc.width.ravel(), doc.ceiling.ravel()
    old["difficult"], old["rock"] = doc.difficult.ravel(), doc.rock.ravel()
    old["edge_e"], old["edge_s"] = doc.edge_e.ravel(), doc.edge_s.ravel()
    idx = np.flatnonzero(old != new)
    pts = plan_points(doc, auto.points)
    return Patch(index=idx, old=old[idx], new=new[idx], label="restore the autosave",
                 points_old=pts.points_old, points_new=pts.points_new)


class Autosaver:
    """Writes the sidecar every ``every`` seconds while the document has edits not yet autosaved
    or saved. ``clock`` is injectable for tests."""

    def __init__(self, doc: Document, map_path: str | Path, *, every: float = AUTOSAVE_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        self.doc = doc
        self.path = Path(map_path)
        self.every = every
        self.clock = clock
        self.last = clock()
        self.version = doc.version
        self.written: Path | None = None

    def tick(self) -> Path | None:
        """Autosave if it is time and there is something new; returns the sidecar written."""
        now = self.clock()
        if now - self.last < self.every:
            return None
        self.last = now
        if self.doc.version == self.version or not self.doc.dirty:
            return None
        self.version = self.doc.version
        self.written = write_autosave(self.doc, self.path)
        return self.written

    def discard(self) -> None:
        """Forget the sidecar (the user saved or chose to quit without saving)."""
        autosave_path(self.path).unlink(missing_ok=True)
        self.version = self.doc.version
