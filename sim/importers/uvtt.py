"""Universal VTT (``.dd2vtt``, ``.df2vtt``, ``.uvtt``): read and validate the JSON.

There is no official specification; what is read (the format as Dungeondraft, DungeonFog and
Arkenforge export it, and as Foundry's, MapTool's and Fantasy Grounds' importers read it):

* ``format``: 0.2, 0.3 or 1.0 (number or string), advisory; anything else loads with a warning;
* ``resolution``: ``map_origin`` {x, y}, ``map_size`` {x, y} (squares), ``pixels_per_grid``;
* ``line_of_sight``: wall polylines (lists of {x, y});
* ``objects_line_of_sight`` (0.3 and later; absent in 0.2): sight-blocking props, closed loops;
* ``portals``: doors and windows with ``bounds`` (2 points), ``closed``, ``position``;
* ``lights``: ``position``, ``range`` (squares), ``intensity``, ``color`` ("AARRGGBB");
* ``image``: base64 PNG (sometimes WebP or JPEG, sometimes empty).

Every coordinate is in squares, absolute in the source map: :func:`parse` subtracts
``map_origin``, so the crop's top-left square is square (0, 0) here. Points repeated within
1e-9 (Dungeondraft writes many) are merged.

Bad input raises :class:`~sim.errors.DataError` naming the file and the key path, e.g.
``cave.dd2vtt: line_of_sight[3]: a wall polyline needs at least 2 points, got 1``.

>>> import json, tempfile, pathlib
>>> f = pathlib.Path(tempfile.mkdtemp()) / "t.dd2vtt"
>>> _ = f.write_text(json.dumps({"format": 0.3, "resolution": {"map_origin": {"x": 2, "y": 1},
...     "map_size": {"x": 4, "y": 3}, "pixels_per_grid": 64},
...     "line_of_sight": [[{"x": 3, "y": 2}, {"x": 5, "y": 2}]], "image": ""}))
>>> m = parse(f)
>>> m.cols, m.rows, m.walls[0].tolist(), m.image
(4, 3, [[1.0, 1.0], [3.0, 1.0]], None)
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from sim.errors import DataError

SUFFIXES = (".dd2vtt", ".df2vtt", ".uvtt")
MAX_FILE_BYTES = 64 * 1024 * 1024      # refuse larger files before reading them
MAX_SQUARES = 4096                     # per side (the loader's map limit)
MAX_POINTS = 5_000_000                 # wall points in all
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
    image: bytes | None               # the encoded picture as stored (PNG, WebP or JPEG)
    image_size: tuple[int, int] | None
    warnings: tuple[str, ...] = field(default_factory=tuple)


def parse(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, max_squares: int = MAX_SQUARES) -> UvttMap:
    """Read and validate a Universal VTT file (see the module docstring)."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    if path.is_dir():
        raise DataError(f"{path}: is a directory; give a .dd2vtt, .df2vtt or .uvtt file")
    if size > max_bytes:
        raise DataError(f"{path}: {size / 2**20:.1f} MB is over the {max_bytes / 2**20:.0f} MB limit for a "
                        f"Universal VTT file; export it smaller (a lower pixels per grid) or raise --max-file-mb")
    raw = path.read_bytes()
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
        raise DataError(f"{path}: the JSON is nested too deeply to be a Universal VTT file") from None
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
    fmt_text = "" if fmt is None else str(fmt)
    try:
        known = fmt is not None and float(fmt) in KNOWN_FORMATS and not isinstance(fmt, bool)
    except (TypeError, ValueError):
        known = False
    if not known:
        warnings.append(f"{where}: format: {fmt!r} is not a known Universal VTT version (0.2, 0.3, 1.0); "
                        "reading it as 0.3")

    res = data.get("resolution")
    if not isinstance(res, dict):
        raise bad("resolution", "missing; a Universal VTT file needs resolution {map_origin, map_size, "
                                "pixels_per_grid}" if res is None else f"must be an object, got {type(res).__name__}")
    if "pixels_per_grid" not in res:
        raise bad("resolution.pixels_per_grid", "missing; it gives the picture's pixels per square")
    ppg = _finite(res["pixels_per_grid"], "resolution.pixels_per_grid", bad)
    if ppg <= 0:
        raise bad("resolution.pixels_per_grid", f"must be > 0, got {ppg:g}")
    ox, oy = _xy(res.get("map_origin", {"x": 0, "y": 0}), "resolution.map_origin", bad)
    if "map_size" not in res:
        raise bad("resolution.map_size", "missing; it gives the map's size in squares {x, y}")
    sx, sy = _xy(res["map_size"], "resolution.map_size", bad)
    if sx <= 0 or sy <= 0:
        raise bad("resolution.map_size", f"must be > 0 squares each way, got {sx:g} x {sy:g}")
    cols, rows = int(math.ceil(sx - 1e-6)), int(math.ceil(sy - 1e-6))
    if cols != sx or rows != sy:
        warnings.append(f"{where}: resolution.map_size: {sx:g} x {sy:g} is not whole squares; "
                        f"the map is {cols} x {rows} squares")
    if cols > max_squares or rows > max_squares:
        raise bad("resolution.map_size", f"{cols} x {rows} squares is larger than the limit "
                                         f"{max_squares} x {max_squares}; raise --max-map-size if this is intended")
    origin = np.array([ox, oy])

    budget = [MAX_POINTS]
    walls = _polylines(data.get("line_of_sight", []), "line_of_sight", origin, bad, budget, warnings, where)
    objects = _polylines(data.get("objects_line_of_sight", []), "objects_line_of_sight", origin, bad, budget,
                         warnings, where)
    portals = _portals(data.get("portals", []), origin, bad)
    lights = _lights(data.get("lights", []), origin, bad)
    image, image_size = _image(data.get("image", ""), bad)
    if image_size is not None:
        want = (round(sx * ppg), round(sy * ppg))
        if image_size != want:
            warnings.append(f"{where}: image: {image_size[0]} x {image_size[1]} pixels, but map_size x "
                            f"pixels_per_grid is {want[0]} x {want[1]}; it is stretched to the grid")
    return UvttMap(path=path, format=fmt_text, cols=cols, rows=rows, pixels_per_grid=float(ppg),
                   walls=walls, objects=objects, portals=portals, lights=lights, image=image,
                   image_size=image_size, warnings=tuple(warnings))


def _finite(v: Any, key: str, bad) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise bad(key, f"must be a number, got {json.dumps(v)[:40]}")
    try:
        f = float(v)
    except ValueError:
        raise bad(key, f"must be a number, got {v!r}") from None
    if not math.isfinite(f):
        raise bad(key, f"must be a finite number, got {v!r}")
    return f


def _xy(v: Any, key: str, bad) -> tuple[float, float]:
    if not isinstance(v, dict) or "x" not in v or "y" not in v:
        raise bad(key, f"must be a point {{\"x\": ..., \"y\": ...}}, got {json.dumps(v)[:60]}")
    return _finite(v["x"], f"{key}.x", bad), _finite(v["y"], f"{key}.y", bad)


def _polylines(raw: Any, key: str, origin: np.ndarray, bad, budget: list[int], warnings, where) -> tuple[np.ndarray, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad(key, f"must be a list of polylines, got {type(raw).__name__}")
    out = []
    for i, line in enumerate(raw):
        k = f"{key}[{i}]"
        if not isinstance(line, list):
            raise bad(k, f"a polyline is a list of points {{x, y}}, got {type(line).__name__}")
        if len(line) < 2:
            raise bad(k, f"a polyline needs at least 2 points, got {len(line)}; remove it or add a point")
        budget[0] -= len(line)
        if budget[0] < 0:
            raise bad(key, f"more than {MAX_POINTS} wall points in all; this is not a map cavesim can import")
        pts = np.array([_xy(p, f"{k}[{j}]", bad) for j, p in enumerate(line)]) - origin
        keep = np.ones(len(pts), dtype=bool)
        keep[1:] = np.any(np.abs(np.diff(pts, axis=0)) > MERGE_EPS, axis=1)
        pts = pts[keep]
        if len(pts) < 2:
            warnings.append(f"{where}: {k}: all its points are the same point; skipped")
            continue
        out.append(pts)
    return tuple(out)


def _portals(raw: Any, origin: np.ndarray, bad) -> tuple[Portal, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad("portals", f"must be a list, got {type(raw).__name__}")
    out = []
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
            raise bad(f"{k}.closed", f"must be true or false, got {json.dumps(closed)[:20]}")
        out.append(Portal(a=(float(a0[0]), float(a0[1])), b=(float(a1[0]), float(a1[1])), closed=closed,
                          freestanding=bool(p.get("freestanding", False))))
    return tuple(out)


def _lights(raw: Any, origin: np.ndarray, bad) -> tuple[Light, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise bad("lights", f"must be a list, got {type(raw).__name__}")
    out = []
    for i, li in enumerate(raw):
        k = f"lights[{i}]"
        if not isinstance(li, dict):
            raise bad(k, f"must be an object, got {type(li).__name__}")
        x, y = _xy(li.get("position"), f"{k}.position", bad)
        rng = _finite(li.get("range", 0), f"{k}.range", bad)
        if rng < 0:
            raise bad(f"{k}.range", f"must be >= 0 squares, got {rng:g}")
        inten = _finite(li.get("intensity", 1), f"{k}.intensity", bad)
        color = li.get("color", "")
        out.append(Light(x=x - origin[0], y=y - origin[1], range=rng, intensity=inten,
                         color=color if isinstance(color, str) else ""))
    return tuple(out)


def _image(raw: Any, bad) -> tuple[bytes | None, tuple[int, int] | None]:
    if raw is None or raw == "":
        return None, None
    if not isinstance(raw, str):
        raise bad("image", f"must be a base64 string, got {type(raw).__name__}")
    text = raw.split(",", 1)[1] if raw.startswith("data:") else raw  # a data: URL prefix is tolerated
    try:
        blob = base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise bad("image", f"not valid base64 ({exc}); re-export the map, or remove the image") from None
    try:
        with Image.open(io.BytesIO(blob)) as im:
            im.verify()
        with Image.open(io.BytesIO(blob)) as im:
            fmt, size = im.format, im.size
    except Exception as exc:  # Pillow raises many types for a broken picture
        raise bad("image", f"the base64 data is not a picture Pillow can read ({exc.__class__.__name__}); "
                           "re-export the map, or remove the image") from None
    if fmt not in ("PNG", "WEBP", "JPEG"):
        raise bad("image", f"a {fmt} picture; a Universal VTT image is PNG, WebP or JPEG")
    return blob, size


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


def door_squares(m: UvttMap, floor: np.ndarray) -> np.ndarray:
    """Closed doors as squares ``[row, col]``: along each closed portal, the floor square on one
    side of it (right of / below a door lying on a grid line; the other side when that one is
    rock)."""
    door = np.zeros(floor.shape, dtype=bool)
    rows, cols = floor.shape
    for p in m.portals:
        if not p.closed:
            continue
        a, b = np.array(p.a), np.array(p.b)
        d = b - a
        length = float(np.hypot(*d))
        if length == 0:
            continue
        n = np.array([-d[1], d[0]]) / length
        n = n if (n[0] + n[1]) >= 0 else -n      # the +x / +y side first
        for t in np.linspace(0.1, 0.9, max(2, int(math.ceil(length * 4)))):
            q = a + t * d
            for side in (n, -n):
                x, y = (q + 1e-6 * side).astype(float)
                c, r = int(math.floor(x)), int(math.floor(y))
                if 0 <= r < rows and 0 <= c < cols and floor[r, c]:
                    door[r, c] = True
                    break
    return door


def picture_png(m: UvttMap, *, max_side: int = 8192) -> tuple[bytes | None, str | None]:
    """The map's picture as PNG bytes covering the grid exactly (``cols*k x rows*k`` pixels for a
    whole ``k``), or None. Returns (bytes, warning or None). The stored PNG is kept byte for byte
    when it already fits."""
    if m.image is None:
        return None, None
    k = max(1, min(int(round(m.pixels_per_grid)), max_side // max(m.cols, m.rows)))
    want = (m.cols * k, m.rows * k)
    with Image.open(io.BytesIO(m.image)) as im:
        if im.format == "PNG" and im.size == want:
            return m.image, None
        pic = im.convert("RGBA" if im.mode in ("RGBA", "LA", "P") else "RGB")
    note = None
    if pic.size != want:
        pic = pic.resize(want, Image.Resampling.LANCZOS)
        if k != m.pixels_per_grid:
            note = f"{m.path}: image: scaled to {k} pixels per square ({want[0]} x {want[1]})"
    buf = io.BytesIO()
    pic.save(buf, format="PNG", optimize=False)
    return buf.getvalue(), note
