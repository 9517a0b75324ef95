"""The parts of a map file that are not its grid (DESIGN §5, README "Map files"): the ``.npz``
layers (every array's header checked before anything is decompressed: a zip bomb is refused
before one byte is inflated), the fixed ``[[light]]`` tables (RULES §9.1) and the ``[map] image``
floor picture. :mod:`sim.scenario.files` calls these with its ``bad(line, key, message)`` collector, so
every problem names the file, the line and the key.
"""

from __future__ import annotations

import math
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from sim.base.errors import DataError, shorten
from sim.base.fileio import MAX_INPUT_BYTES, TomlLines, check_input_file
from sim.maps.limits import Limits
from sim.rules.weapons import gear_table
from sim.terrain.grid import MapLight

MAX_LENGTH = 1000          # a passage width or ceiling height, in the map's units
_LIGHT_KEYS = {"at", "name", "source", "bright_ft", "shadowy_ft"}
MAX_LIGHT_FT = 1000  # the largest radius a [[light]] may give (feet)
IMAGE_SUFFIXES = (".png", ".webp", ".jpg", ".jpeg")   # kept as imported (PNG, WebP, JPEG)
MAX_LAYER_BYTES = 512 * 1024 * 1024   # one decompressed .npz layer
# the edge layers (docs/rules.md §6.8): bool [row, col], walls east and south of each square, and
# the closed doors standing on those edges (walled while closed); each optional
EDGE_LAYERS = {"edge_e": "a wall on the east edge", "edge_s": "a wall on the south edge",
               "edge_door_e": "a closed door on the east edge", "edge_door_s": "a closed door on the south edge"}


def number(value: Any) -> float | None:
    """A TOML number as a float, or None for anything else (true/false included).

    >>> number(3), number(2.5), number(True), number("3"), number(10 ** 400)
    (3.0, 2.5, None, None, inf)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int) and abs(value) > 10 ** 15:
        return math.inf  # too big for a float to hold exactly: out of every range
    return float(value)


def load_layers(path: Path, ref: Any, units: str, line: int | None, limits: Limits, bad):
    """The ``.npz`` layers ``ref`` names (relative to the map file), checked: ``(width, height,
    difficult, rock, door, edges)`` with ``edges`` the keywords :meth:`CaveGrid.from_arrays`
    takes for the edge layers (:data:`EDGE_LAYERS`), or None after reporting the problem."""
    if not isinstance(ref, str):
        bad(line, "[map] layers", f"must be the path of a .npz file, got {shorten(ref)}")
        return None
    npz = path.parent / ref
    if not npz.exists():
        bad(line, "[map] layers", f"file {npz} not found; generate it or fix the path (relative to the map file)")
        return None
    try:
        arrays = read_npz_layers(npz, limits)
    except DataError as exc:
        bad(line, "[map] layers", str(exc))
        return None
    for key in ("width_ft", "height_ft"):
        if key not in arrays:
            bad(line, f"[map] layers ({npz}) {key}", f"{npz} has no array {shorten(key)} (it has {sorted(arrays)}); "
                "layers need width_ft and height_ft")
            return None
    shape = arrays["width_ft"].shape
    for key in ("width_ft", "height_ft", "difficult", "door", *EDGE_LAYERS):
        if key not in arrays:
            continue
        a = arrays[key]
        if a.ndim != 2 or a.shape != shape:
            bad(line, f"[map] layers ({npz}) {key}", f"must be a 2-D array of shape {shape}, got {a.shape}")
            return None
        if key == "door" and a.dtype != np.bool_:
            bad(line, f"[map] layers ({npz}) {key}", f"must be a bool array (true = a closed door), got dtype {a.dtype}")
            return None
        if key in EDGE_LAYERS and a.dtype != np.bool_:
            bad(line, f"[map] layers ({npz}) {key}", f"must be a bool array (true = {EDGE_LAYERS[key]}), "
                f"got dtype {a.dtype}")
            return None
        if key not in ("difficult", "door", *EDGE_LAYERS) and not (np.issubdtype(a.dtype, np.integer)
                                                     or np.issubdtype(a.dtype, np.floating)):
            bad(line, f"[map] layers ({npz}) {key}", f"must be real numbers (float or int), got dtype {a.dtype}")
            return None
        if key == "difficult":
            if not (a.dtype == np.bool_ or np.issubdtype(a.dtype, np.integer)):
                bad(line, f"[map] layers ({npz}) {key}", f"must be true/false (bool, or integers 0 and 1), got dtype {a.dtype}")
                return None
            if a.dtype != np.bool_ and a.size and (a.min() < 0 or a.max() > 1):
                bad(line, f"[map] layers ({npz}) {key}", "must hold only 0 and 1 (or be a bool array)")
                return None
    rows, cols = shape
    if cols > limits.max_cols or rows > limits.max_rows:
        bad(line, "[map] layers", f"{npz} is {cols}x{rows} squares, over the limit of "
            f"{limits.max_cols}x{limits.max_rows}; raise it with --max-map-size")
        return None
    if rows == 0 or cols == 0:
        bad(line, "[map] layers", f"{npz} holds an empty grid")
        return None
    conv = []
    for key in ("width_ft", "height_ft"):
        a = arrays[key].astype(np.float64)
        bad_mask = ~np.isfinite(a)
        if bad_mask.any():
            r, c = np.argwhere(bad_mask)[0]
            n = int(bad_mask.sum())
            bad(line, f"[map] layers ({npz}) {key}", f"{n} square{' is' if n == 1 else 's are'} NaN or infinite, first at "
                f"({int(c)}, {int(r)}); use 0 for rock")
            return None
        big = a > MAX_LENGTH
        if big.any():
            r, c = np.argwhere(big)[0]
            n = int(big.sum())
            bad(line, f"[map] layers ({npz}) {key}", f"{n} square{' is' if n == 1 else 's are'} over {MAX_LENGTH} {units}, first at "
                f"({int(c)}, {int(r)}) = {a[r, c]:g}")
            return None
        neg = a < 0
        if neg.any():
            r, c = np.argwhere(neg)[0]
            n = int(neg.sum())
            bad(line, f"[map] layers ({npz}) {key}", f"{n} square{' is' if n == 1 else 's are'} negative, first at ({int(c)}, {int(r)}) "
                f"= {a[r, c]}; use 0 for rock")
            return None
        if units == "m":
            a = a * 10.0 / 3.0
        conv.append(a)
    w, h = conv
    rock = (w <= 0) | (h <= 0)
    d = arrays.get("difficult")
    d = np.zeros(shape, dtype=bool) if d is None else d.astype(bool)
    door = arrays.get("door")
    if door is not None:
        rock = rock | door
    edges = {"edges": (arrays.get("edge_e"), arrays.get("edge_s")),
             "edge_doors": (arrays.get("edge_door_e"), arrays.get("edge_door_s"))}
    return (w, h, d, rock, door, edges)


_LAYER_DTYPES = "biuf"  # bool, signed and unsigned integers, floats: nothing else is read


def read_npz_layers(npz: Path, limits: Limits) -> dict[str, np.ndarray]:
    """The arrays of a ``.npz`` layers archive, each checked from its header *before* it is
    decompressed: a 2-D shape within ``limits``, a plain numeric or bool dtype, a declared size
    the archive's own sizes agree with (a zip bomb is refused before any byte is inflated).
    Read with ``allow_pickle=False``; a plain ``.npy`` or anything else is refused.
    Raises :class:`DataError` (its message names ``npz``)."""
    check_input_file(npz, what=".npz layers archive", limit=MAX_INPUT_BYTES)
    save = "save it with numpy.savez(width_ft=..., height_ft=...)"
    with open(npz, "rb") as fh:
        magic = fh.read(6)
    if magic == b"\x93NUMPY":
        raise DataError(f"{npz} is a plain .npy array, not an .npz archive of named layers; {save}")
    if not zipfile.is_zipfile(npz):
        raise DataError(f"{npz} is not an .npz archive (not a zip file); {save}")
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(npz) as zf:
            members = zf.infolist()
            if len(members) > 16:
                raise DataError(f"{npz} holds {len(members)} files; a layers archive holds at most 16 arrays")
            for info in members:
                name = info.filename
                if not name.endswith(".npy"):
                    raise DataError(f"{npz}: {shorten(name)} is not a numpy array; {save}")
                key = name[:-4]
                with zf.open(info) as member:
                    version = np.lib.format.read_magic(member)
                    if version == (1, 0):
                        shape, fortran, dtype = np.lib.format.read_array_header_1_0(member, max_header_size=10000)
                    elif version in ((2, 0), (3, 0)):
                        shape, fortran, dtype = np.lib.format.read_array_header_2_0(member, max_header_size=10000)
                    else:
                        raise DataError(f"{npz}: {shorten(key)}: unknown .npy format version {version}")
                    if dtype.hasobject or dtype.kind not in _LAYER_DTYPES or dtype.fields is not None:
                        raise DataError(f"{npz}: {shorten(key)} has dtype {dtype}; layers are float, int or bool arrays")
                    if len(shape) != 2:
                        raise DataError(f"{npz}: {shorten(key)} must be a 2-D array [row, col], its header says "
                                        f"shape {shape}")
                    rows, cols = shape
                    if cols > limits.max_cols or rows > limits.max_rows:
                        raise DataError(f"{npz} is {cols}x{rows} squares ({shorten(key)}), over the limit of "
                                        f"{limits.max_cols}x{limits.max_rows}; raise it with --max-map-size")
                    nbytes = int(rows) * int(cols) * dtype.itemsize
                    if nbytes > MAX_LAYER_BYTES:
                        raise DataError(f"{npz}: {shorten(key)} would take {nbytes:,} bytes, over {MAX_LAYER_BYTES:,}")
                    if info.file_size > nbytes + 65536:
                        raise DataError(f"{npz}: {shorten(key)} inflates to {info.file_size:,} bytes, more than its "
                                        f"header's {rows}x{cols} {dtype} array needs; the archive is damaged")
                    data = member.read(nbytes + 1)
                    if len(data) != nbytes:
                        raise DataError(f"{npz}: {shorten(key)} holds {len(data):,} bytes of data where its header "
                                        f"declares {nbytes:,}; the archive is damaged")
                    a = np.frombuffer(data, dtype=dtype)
                    out[key] = (a.reshape(shape[::-1]).T if fortran else a.reshape(shape)).copy()
    except DataError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, ValueError, OSError, EOFError,
            NotImplementedError, RuntimeError) as exc:
        raise DataError(f"{npz} is not a readable .npz of numeric arrays ({shorten_msg(exc)}); {save}") from None
    return out


def shorten_msg(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200]


def parse_lights(raw: Any, lines: TomlLines, grid_arrays, bad) -> tuple[MapLight, ...]:
    """``[[light]]`` tables: a light fixed in the map (RULES §9.1), at a floor square, either a
    light-giving ``source`` from ``[gear]`` or explicit ``bright_ft`` and ``shadowy_ft``."""
    out: list[MapLight] = []
    first = lines.table("light")
    if not isinstance(raw, list):
        bad(first, "[[light]]", "lights are written as [[light]] tables with at = [x, y] and a source")
        return ()
    sources = {k: g for k, g in gear_table().items() if g.is_light_source}
    light_lines = [i for i, text in enumerate(lines.lines, 1) if re.match(r"^\s*\[\[\s*light\s*\]\]", text)]
    for k, entry in enumerate(raw):
        line = light_lines[k] if k < len(light_lines) else first
        key = f"[[light]] #{k + 1}"
        if not isinstance(entry, dict):
            bad(line, key, "must be a table with at = [x, y] and source (or bright_ft and shadowy_ft)")
            continue
        for name in entry:
            if name not in _LIGHT_KEYS:
                bad(line, f"{key}.{name}", f"unknown key; allowed: {', '.join(sorted(_LIGHT_KEYS))}")
        label = entry.get("name", "")
        if not isinstance(label, str):
            bad(line, f"{key}.name", f"must be a string, got {label!r}")
            label = ""
        at = entry.get("at")
        if (not isinstance(at, list) or len(at) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
            bad(line, f"{key}.at", f"must be [x, y] with whole numbers, got {at!r}")
            continue
        x, y = at
        if grid_arrays is not None:
            rock = grid_arrays[3]
            if not (0 <= y < rock.shape[0] and 0 <= x < rock.shape[1]):
                bad(line, f"{key}.at", f"({x}, {y}) is off the map ({rock.shape[1]}x{rock.shape[0]})")
                continue
            if rock[y, x]:
                bad(line, f"{key}.at", f"({x}, {y}) is solid rock; put the light on a floor square")
                continue
        source = entry.get("source")
        radii = [entry.get("bright_ft"), entry.get("shadowy_ft")]
        if source is not None:
            if not isinstance(source, str) or source not in sources:
                bad(line, f"{key}.source", f"unknown light source {source!r}; use one of {', '.join(sorted(sources))}, "
                    "or give bright_ft and shadowy_ft")
                continue
            if any(r is not None for r in radii):
                bad(line, key, "give either source or bright_ft and shadowy_ft, not both")
                continue
            radii = [sources[source].light_bright_ft, sources[source].light_shadowy_ft]
        elif any(r is None for r in radii):
            bad(line, key, "needs source = \"torch\" (a light-giving [gear] item) or both bright_ft and shadowy_ft")
            continue
        ok = True
        for rk, r in zip(("bright_ft", "shadowy_ft"), radii):
            v = number(r)
            if v is None or not math.isfinite(v) or not 0 <= v <= MAX_LIGHT_FT:
                bad(line, f"{key}.{rk}", f"must be a number of feet from 0 to {MAX_LIGHT_FT}, got {r!r}")
                ok = False
        if not ok:
            continue
        bright, shadowy = float(radii[0]), float(radii[1])
        if shadowy < bright:
            bad(line, f"{key}.shadowy_ft", f"must be at least bright_ft ({bright:g}): shadowy light reaches past bright, "
                f"got {shadowy:g}")
            continue
        out.append(MapLight(at=(x, y), bright_ft=bright, shadowy_ft=shadowy, name=label,
                            source=source if isinstance(source, str) else None))
    return tuple(out)


def check_image(path: Path, ref: Any, line: int | None, grid_arrays, bad) -> Path | None:
    """``[map] image``: the picture drawn as the floor; it must cover the grid exactly
    (``cols * k`` by ``rows * k`` pixels for a whole ``k``)."""
    from PIL import (  # deferred: Pillow only for maps that have a picture
        Image,
        UnidentifiedImageError,
    )

    if not isinstance(ref, str) or not ref:
        bad(line, "[map] image", f"must be the path of a .png, .webp or .jpg file, got {ref!r}")
        return None
    img = (path.parent / ref).resolve()
    if img.suffix.lower() not in IMAGE_SUFFIXES:
        bad(line, "[map] image", f"{ref!r}: use a .png, .webp or .jpg picture")
        return None
    if not img.is_file():
        bad(line, "[map] image", f"file {img} not found; fix the path (relative to the map file) or remove the key")
        return None
    try:
        with Image.open(img) as im:
            iw, ih = im.size
    except (UnidentifiedImageError, OSError) as exc:
        bad(line, "[map] image", f"{img} is not a readable picture ({exc})")
        return None
    if grid_arrays is not None:
        rows, cols = grid_arrays[0].shape
        k = iw // cols if cols else 0
        if k < 1 or iw != cols * k or ih != rows * k:
            bad(line, "[map] image", f"{img} is {iw}x{ih} pixels, not a whole number of pixels per square for "
                f"the {cols}x{rows} grid (e.g. {cols * 50}x{rows * 50}); resize it or crop it to the grid")
            return None
    return img
