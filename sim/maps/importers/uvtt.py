"""Universal VTT (``.dd2vtt``, ``.df2vtt``, ``.uvtt``): read and validate the JSON.

There is no official specification; what is read (the format as Dungeondraft, DungeonFog and
Arkenforge export it, and as Foundry's, MapTool's and Fantasy Grounds' importers read it):

* ``format``: 0.2, 0.3 or 1.0 (number or string), advisory; anything else loads with a warning;
* ``resolution``: ``map_origin`` {x, y}, ``map_size`` {x, y} (squares), ``pixels_per_grid``;
* ``line_of_sight``: wall polylines (lists of {x, y});
* ``objects_line_of_sight`` (0.3 and later; absent in 0.2): sight-blocking props, closed loops;
* ``portals``: doors and windows with ``bounds`` (2 points), ``closed``, ``position``;
* ``lights``: ``position``, ``range`` (squares), ``intensity``, ``color`` ("AARRGGBB");
* ``image``: base64 PNG (sometimes WebP or JPEG, sometimes empty; Foundry's exports may hold a
  file name instead). Optional: a path, damaged base64 or a broken picture is a warning and the
  map is imported with a plain floor (``--image PICTURE`` supplies it); the picture is kept as
  it came (:class:`Picture`, never re-encoded when it covers the grid).

Every coordinate is in squares, absolute in the source map: :func:`parse` subtracts
``map_origin``, so the crop's top-left square is square (0, 0) here. Points repeated within
1e-9 (Dungeondraft writes many) are merged.

Everything is bounded before the work it would cost: numbers are JSON numbers (not strings,
not true/false) within :data:`MAX_COORD` squares; the counts (:data:`MAX_LINES`,
:data:`MAX_POINTS`, :data:`MAX_PORTALS`, :data:`MAX_LIGHTS`) are capped; walls, props and doors
are cut at a margin of the map's own size round it (:func:`_clip`); a wall segment drawn again is
merged (:func:`_merge_segments`), as is a prop drawn again; the picture's declared size is checked
(:data:`MAX_IMAGE_PIXELS`) before it is decoded. The importer (:mod:`sim.maps.importers.vtt`) caps the
total wall length and the points crowded in one place.

Bad input raises :class:`~sim.base.errors.DataError` naming the file and the key path, e.g.
``cave.dd2vtt: line_of_sight[3]: a wall polyline needs at least 2 points, got 1``.

>>> import json, tempfile, pathlib
>>> f = pathlib.Path(tempfile.mkdtemp()) / "t.dd2vtt"
>>> _ = f.write_text(json.dumps({"format": 0.3, "resolution": {"map_origin": {"x": 2, "y": 1},
...     "map_size": {"x": 4, "y": 3}, "pixels_per_grid": 64},
...     "line_of_sight": [[{"x": 3, "y": 2}, {"x": 5, "y": 2}]], "image": ""}))
>>> m = parse(f)
>>> m.cols, m.rows, m.walls[0].tolist(), m.picture
(4, 3, [[1.0, 1.0], [3.0, 1.0]], None)
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import re
import warnings as pywarnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from sim.base.errors import DataError, shorten_text
from sim.base.fileio import check_input_file, read_input
from sim.maps.limits import MAX_PICTURE_PIXELS

SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")
MAX_FILE_BYTES = 64 * 1024 * 1024      # refuse larger files before reading them
MAX_SQUARES = 4096                     # per side (the loader's map limit)
MAX_POINTS = 1_000_000                 # wall and prop points in all
MAX_LINES = 100_000                    # wall polylines and props in all
MAX_PORTALS = 10_000                   # doors and windows
MAX_LIGHTS = 10_000                    # lights
MAX_PIXELS_PER_GRID = 1024             # resolution.pixels_per_grid (Dungeondraft exports 32-256)
MAX_COORD = 10_000_000                 # |coordinate| in squares (any map is far smaller)
MAX_IMAGE_PIXELS = MAX_PICTURE_PIXELS   # the picture's declared width x height (sim.maps.limits)
MAX_POINTS_PER_CELL = 500              # wall (or prop) points in one 2 x 2-ft cell (real maps: under 100)
KNOWN_FORMATS = (0.2, 0.3, 1.0)
MERGE_EPS = 1e-9                       # Dungeondraft repeats points within this
OBJECT_CLOSE_SQ = 0.25                 # an object whose ends are this close (squares) is a solid loop


@dataclass(frozen=True, slots=True)
class Portal:
    """A door or window: its two bounds (squares, cropped) and whether it is closed."""

    a: tuple[float, float]
    b: tuple[float, float]
    closed: bool
    freestanding: bool = False


@dataclass(frozen=True, slots=True)
class Light:
    """A light: position (squares, cropped), range (squares), intensity, colour ``AARRGGBB``."""

    x: float
    y: float
    range: float
    intensity: float = 1.0
    color: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class UvttMap:
    """One parsed file. Coordinates are squares with the crop's top-left corner at (0, 0)."""

    path: Path
    format: str
    cols: int
    rows: int
    pixels_per_grid: float
    walls: tuple[np.ndarray, ...]
    objects: tuple[np.ndarray, ...]
    portals: tuple[Portal, ...]
    lights: tuple[Light, ...]
    picture: Picture | None           # the picture as stored (PNG, WebP or JPEG), or None
    warnings: tuple[str, ...] = field(default_factory=tuple)


def parse(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, max_squares: int = MAX_SQUARES) -> UvttMap:
    """Read and validate a Universal VTT file (see the module docstring)."""
    path = Path(path)
    check_input_file(path, what="Universal VTT file", limit=2**62)  # a FIFO, a device, a folder: said
    size = path.stat().st_size
    if size > max_bytes:
        raise DataError(f"{path}: {size / 2**20:.1f} MB is over the {max_bytes / 2**20:.0f} MB limit for a "
                        f"Universal VTT file; export it smaller (a lower pixels per grid) or raise --max-file-mb")
    raw = read_input(path, what="Universal VTT file", limit=max_bytes)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a text (UTF-8) file (byte {exc.start}); is this a Universal VTT export?") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        hint = " (the file ends early: is it truncated?)" if exc.pos >= len(text.rstrip()) else ""
        raise DataError(f"{path}: line {exc.lineno}, column {exc.colno}: not valid JSON: {exc.msg}{hint}") from None
    except RecursionError:
        raise DataError(f"{path}: the JSON is nested too deeply to be a Universal VTT file (which needs 4 "
                        "levels); is this a Universal VTT export?") from None
    except ValueError as exc:  # an integer of over 4,300 digits
        raise DataError(f"{path}: not valid JSON: {shorten_text(str(exc), 80)}; write numbers of at most 15 "
                        "digits") from None
    return parse_data(data, path, max_squares=max_squares)


def parse_data(data: Any, path: Path, *, max_squares: int = MAX_SQUARES) -> UvttMap:
    """Validate decoded JSON ``data`` read from ``path`` (named in every message)."""
    where = str(path)
    warnings: list[str] = []

    def bad(key: str, msg: str) -> DataError:
        return DataError(f"{where}: {key}: {msg}")

    if not isinstance(data, dict):
        raise DataError(f"{where}: a Universal VTT file is one JSON object {{...}}, got {type(data).__name__}")

    fmt = data.get("format")
    fmt_text = shorten_text(str(fmt), 20) if isinstance(fmt, (str, int, float)) and not isinstance(fmt, bool) else ""
    try:
        known = fmt is not None and float(fmt) in KNOWN_FORMATS and not isinstance(fmt, bool)
    except (TypeError, ValueError, OverflowError):
        known = False
    if not known:
        warnings.append(f"{where}: format: {_show(fmt)} is not a known Universal VTT version (0.2, 0.3, 1.0); "
                        "reading it as 0.3")

    res = data.get("resolution")
    if not isinstance(res, dict):
        raise bad("resolution", "missing; a Universal VTT file needs resolution {map_origin, map_size, "
                                "pixels_per_grid}" if res is None else f"must be an object, got {type(res).__name__}")
    if "pixels_per_grid" not in res:
        raise bad("resolution.pixels_per_grid", "missing; it gives the picture's pixels per square")
    ppg = _finite(res["pixels_per_grid"], "resolution.pixels_per_grid", bad, limit=1e308)
    if ppg <= 0:
        raise bad("resolution.pixels_per_grid", f"must be > 0, got {ppg:g}")
    if ppg > MAX_PIXELS_PER_GRID:
        raise bad("resolution.pixels_per_grid", f"{ppg:g} pixels per square is over the limit of "
                                                f"{MAX_PIXELS_PER_GRID}; export the map with fewer pixels per grid "
                                                "(Dungeondraft offers 32 to 256)")
    ox, oy = _xy(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin", bad, limit=MAX_COORD)
    if "map_size" not in res:
        raise bad("resolution.map_size", "missing; it gives the map's size in squares {x, y}")
    sx, sy = _xy(res["map_size"], "resolution.map_size", bad, limit=MAX_COORD)
    if sx <= 0 or sy <= 0:
        raise bad("resolution.map_size", f"must be > 0 squares each way, got {sx:g} x {sy:g}")
    cols, rows = int(math.ceil(sx - 1e-6)), int(math.ceil(sy - 1e-6))
    if cols > max_squares or rows > max_squares:
        raise bad("resolution.map_size", f"{cols} x {rows} squares is larger than the limit "
                                         f"{max_squares} x {max_squares}; raise --max-map-size if this is intended")
    if cols != sx or rows != sy:
        warnings.append(f"{where}: resolution.map_size: {sx:g} x {sy:g} is not whole squares; "
                        f"the map is {cols} x {rows} squares")
    origin = np.array([ox, oy])
    margin = max(cols, rows)
    box = (-margin, -margin, cols + margin, rows + margin)

    counts = {"lines": 0, "points": 0}
    walls = _polylines(data.get("line_of_sight", []), "line_of_sight", origin, box, bad, counts, warnings, where)
    walls, merged = _merge_segments(walls)
    if merged:
        warnings.append(f"{where}: line_of_sight: {merged} wall segment{'s' if merged > 1 else ''} drawn again over "
                        "another; merged")
    objects = _polylines(data.get("objects_line_of_sight", []), "objects_line_of_sight", origin, box, bad, counts,
                         warnings, where)
    objects, merged = _merge_objects(objects)
    if merged:
        warnings.append(f"{where}: objects_line_of_sight: {merged} prop{'s' if merged > 1 else ''} drawn again over "
                        "another; merged")
    portals = _portals(data.get("portals", []), origin, box, bad, warnings, where)
    lights = _lights(data.get("lights", []), origin, bad)
    picture = _image(data.get("image", ""), where, warnings)
    return UvttMap(path=path, format=fmt_text, cols=cols, rows=rows, pixels_per_grid=float(ppg),
                   walls=walls, objects=objects, portals=portals, lights=lights, picture=picture,
                   warnings=tuple(warnings))


def _show(v: Any) -> str:
    """A short account of a JSON value for a message (never the whole of a large one).

    >>> _show("16"), _show({"x": 1}), _show([1, 2]), _show(10**400), _show(True)
    ("'16'", 'an object {...}', 'a list of 2 items', 'a number of 401 digits', 'true')
    """
    if isinstance(v, dict):
        return "an object {...}"
    if isinstance(v, list):
        return f"a list of {len(v)} item{'' if len(v) == 1 else 's'}"
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    if isinstance(v, int) and abs(v) >= 10**15:
        return f"a number of {len(str(abs(v)))} digits"
    return shorten_text(repr(v), 40)


def _finite(v: Any, key: str, bad, *, limit: float = 1e15) -> float:
    """``v`` as a float: a JSON number (not a string, not true/false), finite, at most ``limit``
    either side of 0."""
    if isinstance(v, str):
        try:
            float(v)
            hint = "; write it without quotes"
        except ValueError:
            hint = ""
        raise bad(key, f"must be a number, got {_show(v)}{hint}")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise bad(key, f"must be a number, got {_show(v)}")
    if isinstance(v, float) and not math.isfinite(v):
        raise bad(key, f"must be a finite number, got {v!r}")
    if not -limit <= v <= limit:
        raise bad(key, f"must be a number from {-limit:g} to {limit:g}, got {_show(v)}")
    return float(v)


def _xy(v: Any, key: str, bad, *, limit: float = MAX_COORD) -> tuple[float, float]:
    if not isinstance(v, dict) or "x" not in v or "y" not in v:
        raise bad(key, f"must be a point {{\"x\": ..., \"y\": ...}}, got {_show(v)}")
    return _finite(v["x"], f"{key}.x", bad, limit=limit), _finite(v["y"], f"{key}.y", bad, limit=limit)


def _points(line: list, key: str, bad) -> np.ndarray:
    """The points of one polyline as an ``(n, 2)`` array: at once when every x and y is a JSON
    number within :data:`MAX_COORD`, else point by point (to name the first bad one)."""
    try:
        vals = [(p["x"], p["y"]) for p in line]
        if {type(v) for xy in vals for v in xy} <= {int, float}:
            pts = np.array(vals, dtype=np.float64)
            if np.all(np.abs(pts) <= MAX_COORD):   # NaN fails this too
                return pts
    except (TypeError, KeyError, IndexError, OverflowError):
        pass
    return np.array([_xy(p, f"{key}[{j}]", bad) for j, p in enumerate(line)])


def _clip(pts: np.ndarray, box: tuple[float, float, float, float]) -> list[np.ndarray]:
    """The parts of polyline ``pts`` inside ``box`` (x0, y0, x1, y1), cut where it leaves it
    (Liang-Barsky, every segment at once); ``[pts]`` itself when it lies inside.

    >>> [p.tolist() for p in _clip(np.array([[1.0, 1.0], [1.0, 19.0], [9.0, 1.0]]), (0, 0, 10, 10))]
    [[[1.0, 1.0], [1.0, 10.0]], [[5.0, 10.0], [9.0, 1.0]]]
    """
    lo, hi = np.array(box[:2], dtype=np.float64), np.array(box[2:], dtype=np.float64)
    if np.all((pts >= lo) & (pts <= hi)):
        return [pts]
    a, b = pts[:-1], pts[1:]
    d = b - a
    t0, t1 = np.zeros(len(a)), np.ones(len(a))
    ok = np.ones(len(a), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in (0, 1):
            for p, q in ((-d[:, k], a[:, k] - lo[k]), (d[:, k], hi[k] - a[:, k])):   # p t <= q
                ok &= ~((p == 0) & (q < 0))
                r = q / p
                t0 = np.where(p < 0, np.maximum(t0, r), t0)
                t1 = np.where(p > 0, np.minimum(t1, r), t1)
    ok &= t0 < t1
    idx = np.flatnonzero(ok)
    if not len(idx):
        return []
    ca = np.where((t0 == 0)[:, None], a, a + t0[:, None] * d)
    cb = np.where((t1 == 1)[:, None], b, a + t1[:, None] * d)
    joined = (idx[1:] == idx[:-1] + 1) & (t1[idx[:-1]] == 1) & (t0[idx[1:]] == 0)
    starts = np.concatenate([[0], np.flatnonzero(~joined) + 1, [len(idx)]])
    return [np.vstack([ca[idx[s]][None], cb[idx[s:e]]]) for s, e in zip(starts[:-1], starts[1:])]


def _polylines(raw: Any, key: str, origin: np.ndarray, box, bad, counts: dict[str, int], warnings,
               where) -> tuple[np.ndarray, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad(key, f"must be a list of polylines, got {type(raw).__name__}")
    counts["lines"] += len(raw)
    if counts["lines"] > MAX_LINES:
        raise bad(key, f"{counts['lines']:,} wall polylines and props; at most {MAX_LINES:,} are imported: join the "
                       "walls into longer polylines or export a smaller part of the map")
    out = []
    cut = 0
    for i, line in enumerate(raw):
        k = f"{key}[{i}]"
        if not isinstance(line, list):
            raise bad(k, f"a polyline is a list of points {{x, y}}, got {type(line).__name__}")
        if len(line) < 2:
            raise bad(k, f"a polyline needs at least 2 points, got {len(line)}; remove it or add a point")
        counts["points"] += len(line)
        if counts["points"] > MAX_POINTS:
            raise bad(key, f"more than {MAX_POINTS:,} wall and prop points in all; simplify the walls or export a "
                           "smaller part of the map")
        pts = _points(line, k, bad) - origin
        keep = np.ones(len(pts), dtype=bool)
        keep[1:] = np.any(np.abs(np.diff(pts, axis=0)) > MERGE_EPS, axis=1)
        pts = pts[keep]
        if len(pts) < 2:
            warnings.append(f"{where}: {k}: all its points are the same point; skipped")
            continue
        parts = _clip(pts, box)
        if len(parts) != 1 or parts[0] is not pts:
            cut += 1
        out.extend(parts)
    if cut:
        warnings.append(f"{where}: {key}: {cut} polyline{'s reach' if cut > 1 else ' reaches'} more than {int(-box[0])} "
                        "squares outside the map; cut there")
    return tuple(out)


def _merge_segments(lines: tuple[np.ndarray, ...]) -> tuple[tuple[np.ndarray, ...], int]:
    """``lines`` without the segments drawn a second time (either way round, to 1e-9 squares): a
    polyline loses those, and is cut where they were. Returns (lines, segments dropped); the
    same tuple when nothing repeats.

    >>> sq = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    >>> lines, n = _merge_segments((sq, sq[::-1].copy(), np.array([[1.0, 1.0], [2.0, 2.0]])))
    >>> n, [p.tolist() for p in lines]
    (2, [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], [[1.0, 1.0], [2.0, 2.0]]])
    """
    if not lines:
        return lines, 0
    a = np.round(np.concatenate([p[:-1] for p in lines]), 9) + 0.0
    b = np.round(np.concatenate([p[1:] for p in lines]), 9) + 0.0
    swap = (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (a[:, 1] > b[:, 1]))
    key = np.where(swap[:, None], np.hstack([b, a]), np.hstack([a, b]))
    _, first = np.unique(key, axis=0, return_index=True)
    keep = np.zeros(len(key), dtype=bool)
    keep[first] = True
    if keep.all():
        return lines, 0
    out, pos = [], 0
    for p in lines:
        k = keep[pos:pos + len(p) - 1]
        pos += len(p) - 1
        if k.all():
            out.append(p)
            continue
        idx = np.flatnonzero(k)
        if len(idx):
            for run in np.split(idx, np.flatnonzero(np.diff(idx) != 1) + 1):
                out.append(p[run[0]:run[-1] + 2])
    return tuple(out), int((~keep).sum())


def _merge_objects(objects: tuple[np.ndarray, ...]) -> tuple[tuple[np.ndarray, ...], int]:
    """``objects`` without exact repeats of an earlier prop (to 1e-9 squares)."""
    seen: set[bytes] = set()
    out = []
    for o in objects:
        k = (np.round(o, 9) + 0.0).tobytes()
        if k not in seen:
            seen.add(k)
            out.append(o)
    return (objects, 0) if len(out) == len(objects) else (tuple(out), len(objects) - len(out))


def _portals(raw: Any, origin: np.ndarray, box, bad, warnings, where) -> tuple[Portal, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad("portals", f"must be a list, got {type(raw).__name__}")
    if len(raw) > MAX_PORTALS:
        raise bad("portals", f"{len(raw):,} doors and windows; at most {MAX_PORTALS:,} are imported: export a smaller "
                             "part of the map")
    out = []
    far = 0
    for i, p in enumerate(raw):
        k = f"portals[{i}]"
        if not isinstance(p, dict):
            raise bad(k, f"must be an object, got {type(p).__name__}")
        b = p.get("bounds")
        if not isinstance(b, list) or len(b) != 2:
            raise bad(f"{k}.bounds", "must be a list of 2 points (the door's two ends)")
        a0 = np.array(_xy(b[0], f"{k}.bounds[0]", bad)) - origin
        a1 = np.array(_xy(b[1], f"{k}.bounds[1]", bad)) - origin
        closed = p.get("closed", True)
        if not isinstance(closed, bool):
            raise bad(f"{k}.closed", f"must be true or false, got {_show(closed)}")
        ends = np.array([a0, a1])
        parts = _clip(ends, box)
        if not parts or parts[0] is not ends:
            far += 1
            if not parts:
                continue
            a0, a1 = parts[0][0], parts[0][-1]
        out.append(Portal(a=(float(a0[0]), float(a0[1])), b=(float(a1[0]), float(a1[1])), closed=closed,
                          freestanding=bool(p.get("freestanding", False))))
    if far:
        warnings.append(f"{where}: portals: {far} door{'s' if far > 1 else ''} or window{'s reach' if far > 1 else ' reaches'} "
                        f"more than {int(-box[0])} squares outside the map; cut there (or dropped)")
    return tuple(out)


def _lights(raw: Any, origin: np.ndarray, bad) -> tuple[Light, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad("lights", f"must be a list, got {type(raw).__name__}")
    if len(raw) > MAX_LIGHTS:
        raise bad("lights", f"{len(raw):,} lights; at most {MAX_LIGHTS:,} are imported: export a smaller part of "
                            "the map")
    out = []
    for i, li in enumerate(raw):
        k = f"lights[{i}]"
        if not isinstance(li, dict):
            raise bad(k, f"must be an object, got {type(li).__name__}")
        x, y = _xy(li.get("position"), f"{k}.position", bad)
        rng = _finite(li.get("range", 0), f"{k}.range", bad, limit=1e308)   # cut to a map light's reach on import
        if rng < 0:
            raise bad(f"{k}.range", f"must be >= 0 squares, got {rng:g}")
        inten = _finite(li.get("intensity", 1), f"{k}.intensity", bad)
        color = li.get("color", "")
        out.append(Light(x=x - origin[0], y=y - origin[1], range=rng, intensity=inten,
                         color=color if isinstance(color, str) and len(color) <= 16 else ""))
    return tuple(out)


PICTURE_FORMATS = {"PNG": ".png", "WEBP": ".webp", "JPEG": ".jpg"}   # what a map's picture may be, and its suffix
_PATH_LIKE = re.compile(r"(?is)(?:[a-z][a-z0-9+.-]*://|file:).*|[^\n]{0,1024}\.(?:png|webp|jpe?g|gif|bmp|avif|tiff?)")


class BadPicture(ValueError):
    """A picture that cannot be the map's floor (the message says why and what to do)."""


@dataclass(frozen=True, slots=True)
class Picture:
    """The map's picture as it came: its encoded bytes, format (a key of :data:`PICTURE_FORMATS`)
    and size in pixels."""

    data: bytes
    format: str
    size: tuple[int, int]

    @property
    def suffix(self) -> str:
        return PICTURE_FORMATS[self.format]


def check_picture(blob: bytes) -> Picture:
    """``blob`` as a :class:`Picture`: PNG, WebP or JPEG of at most :data:`MAX_IMAGE_PIXELS`
    (checked from the header, before any decoding), whose data decodes (PNG: every chunk's
    checksum; JPEG: decoded at an eighth of its size; WebP: decoded). :class:`BadPicture` if not.
    Nothing is re-encoded: the bytes are kept as they came."""
    too_big = f"over the {MAX_IMAGE_PIXELS // 10**6} million pixel limit for the map's picture"
    try:
        with pywarnings.catch_warnings():
            pywarnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(blob)) as im:   # reads the header only: the size before any decoding
                fmt, size = im.format, im.size
                if size[0] * size[1] > MAX_IMAGE_PIXELS:
                    raise BadPicture(f"{size[0]} x {size[1]} pixels is {too_big}")
                if fmt not in PICTURE_FORMATS:
                    raise BadPicture(f"a {fmt} picture; the map's picture is PNG, WebP or JPEG")
                if fmt == "PNG":
                    im.verify()
                else:
                    if fmt == "JPEG":
                        im.draft("RGB", (max(1, size[0] // 8), max(1, size[1] // 8)))
                    im.load()
    except BadPicture:
        raise
    except Image.DecompressionBombError:
        raise BadPicture(f"the picture is {too_big}") from None
    except Exception as exc:  # Pillow raises many types for a broken picture
        raise BadPicture(f"not a picture Pillow can read ({exc.__class__.__name__})") from None
    if min(size) < 1:
        raise BadPicture(f"{size[0]} x {size[1]} pixels is an empty picture")
    return Picture(data=blob, format=fmt, size=size)


def _image(raw: Any, where: str, warnings: list[str]) -> Picture | None:
    """The embedded picture, or None. The picture is optional: any problem with it is a warning
    (the map is imported with a plain floor, and ``--image`` can give the picture), never a
    refusal of the walls."""
    if raw is None or raw == "":
        return None
    fix = "imported with a plain floor; give the picture with --image PICTURE"
    if not isinstance(raw, str):
        warnings.append(f"{where}: image: must be a base64 string, got {_show(raw)}; {fix}")
        return None
    if len(raw) <= 4096 and _PATH_LIKE.fullmatch(raw.strip()):
        warnings.append(f"{where}: image: {shorten_text(repr(raw.strip()), 80)} is a file name, not the picture's "
                        f"base64 data; {fix} (that file)")
        return None
    text = raw.split(",", 1)[1] if raw.startswith("data:") else raw  # a data: URL prefix is tolerated
    try:
        blob = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        warnings.append(f"{where}: image: not valid base64 ({shorten_text(str(exc), 60)}); {fix}, or re-export "
                        "the map")
        return None
    try:
        return check_picture(blob)
    except BadPicture as exc:
        warnings.append(f"{where}: image: {exc}; {fix}, or re-export the map")
        return None


def read_picture(path: str | Path, *, limit: int = MAX_FILE_BYTES) -> Picture:
    """``--image PICTURE``: the map's picture from a file (PNG, WebP or JPEG, checked as an
    embedded one is by :func:`check_picture`); DataError naming the file if it cannot be."""
    path = Path(path)
    blob = read_input(path, what="picture (--image)", limit=limit)
    try:
        return check_picture(blob)
    except BadPicture as exc:
        raise DataError(f"--image {path}: {exc}; give a PNG, WebP or JPEG picture of the map") from None


def covers_grid(size: tuple[int, int], cols: int, rows: int) -> bool:
    """Whether a picture of ``size`` pixels covers ``cols`` x ``rows`` squares exactly, a whole
    number of pixels a square (what ``[map] image`` needs).

    >>> covers_grid((6144, 3456), 48, 27), covers_grid((6144, 3455), 48, 27)
    (True, False)
    """
    w, h = size
    return w >= cols and w % cols == 0 and h % rows == 0 and w // cols == h // rows


def size_warning(m: UvttMap, pic: Picture, key: str) -> str | None:
    """The warning for a picture that does not cover the map's grid exactly (it is stretched)."""
    if covers_grid(pic.size, m.cols, m.rows):
        return None
    want = (round(m.cols * m.pixels_per_grid), round(m.rows * m.pixels_per_grid))
    return (f"{key}: {pic.size[0]} x {pic.size[1]} pixels, but the map is {m.cols} x {m.rows} squares of "
            f"{m.pixels_per_grid:g} pixels ({want[0]} x {want[1]}); it is stretched to the grid")


def crowded_cell(lines: tuple[np.ndarray, ...], cell: float) -> tuple[int, tuple[float, float]]:
    """The most points of ``lines`` in one ``cell`` x ``cell`` square cell, and that cell's corner.

    >>> crowded_cell((np.array([[0.1, 0.1], [0.2, 0.2], [3.0, 3.0]]),), 1.0)
    (2, (0.0, 0.0))
    """
    if not lines:
        return 0, (0.0, 0.0)
    c = np.floor(np.concatenate(lines) / cell).astype(np.int64)
    keys, counts = np.unique(c, axis=0, return_counts=True)
    i = int(np.argmax(counts))
    return int(counts[i]), (float(keys[i, 0] * cell), float(keys[i, 1] * cell))


def wall_length(m: UvttMap) -> float:
    """The length (squares) of every wall, prop and portal of ``m``, as kept (cut at the margin)."""
    total = sum(float(np.hypot(*np.diff(p, axis=0).T).sum()) for p in (*m.walls, *m.objects))
    return total + sum(math.hypot(p.b[0] - p.a[0], p.b[1] - p.a[1]) for p in m.portals)


# ---------------------------------------------------------------- to a cavesim map

def geometry_ft(m: UvttMap, feet_per_square: float):
    """The walls (closed portals included) and solid props of ``m`` in feet."""
    from_sq = float(feet_per_square)
    walls = [w * from_sq for w in m.walls]
    walls += [np.array([p.a, p.b]) * from_sq for p in m.portals if p.closed]
    solids, open_objects = [], []
    for o in m.objects:
        # props are drawn as loops whose last point stops just short of the first
        closed = len(o) >= 3 and float(np.hypot(*(o[0] - o[-1]))) <= OBJECT_CLOSE_SQ
        (solids if closed else open_objects).append(o * from_sq)
    return tuple(walls + open_objects), tuple(solids)


def door_squares(m: UvttMap, floor: np.ndarray, portals: tuple[Portal, ...] | None = None) -> np.ndarray:
    """Closed doors as squares ``[row, col]``: along each closed portal (of ``portals``, default
    all of ``m``'s), the floor square on one side of it (right of / below; the other side when
    that one is rock). The importer passes only the doors that do not lie on a grid line: those
    are doors between squares (:mod:`sim.maps.importers.gridlines`)."""
    door = np.zeros(floor.shape, dtype=bool)
    rows, cols = floor.shape
    for p in (m.portals if portals is None else portals):
        if not p.closed:
            continue
        a, b = np.array(p.a), np.array(p.b)
        d = b - a
        length = float(np.hypot(*d))
        if length == 0:
            continue
        n = np.array([-d[1], d[0]]) / length
        n = n if (n[0] + n[1]) >= 0 else -n      # the +x / +y side first
        t = np.linspace(0.1, 0.9, max(2, int(math.ceil(length * 4))))
        q = a + t[:, None] * d
        taken = np.zeros(len(t), dtype=bool)
        for side in (n, -n):     # the first side whose square is floor, at each point along the door
            xy = q + 1e-6 * side
            c, r = np.floor(xy[:, 0]).astype(np.int64), np.floor(xy[:, 1]).astype(np.int64)
            ok = ~taken & (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
            ok[ok] = floor[r[ok], c[ok]]
            door[r[ok], c[ok]] = True
            taken |= ok
    return door


def grid_picture(m: UvttMap, *, max_side: int = 8192) -> tuple[Picture | None, str | None]:
    """The map's picture to save beside it, and a note (or None). A picture that covers the grid
    exactly (:func:`covers_grid`) is kept as it came, byte for byte, in its own format (a WebP
    stays WebP, a JPEG stays JPEG: no re-encoding); only one that does not is scaled to
    ``cols*k x rows*k`` (``k``: the pixels per grid, at most ``max_side`` pixels a side) and
    saved in its own format again."""
    pic = m.picture
    if pic is None or covers_grid(pic.size, m.cols, m.rows):
        return pic, None
    k = max(1, min(int(round(m.pixels_per_grid)), max_side // max(m.cols, m.rows)))
    want = (m.cols * k, m.rows * k)
    with Image.open(io.BytesIO(pic.data)) as im:
        scaled = im.convert("RGBA" if im.mode in ("RGBA", "LA", "P") and pic.format != "JPEG" else "RGB")
    scaled = scaled.resize(want, Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    scaled.save(buf, format=pic.format, **({} if pic.format == "PNG" else {"quality": 90}))
    note = f"{m.path}: image: scaled to {k} pixels per square ({want[0]} x {want[1]})" if k != m.pixels_per_grid else None
    return Picture(data=buf.getvalue(), format=pic.format, size=want), note
