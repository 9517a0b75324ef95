"""Tiled maps (mapeditor.org) into cavesim: TMX (XML) and TMJ (JSON), DESIGN §6 ``cavesim import``.

Read with the standard library (``xml.etree`` and ``json``) and a numpy lookup table from global
tile ids (GIDs) to values: a whole layer becomes an array of feet with one fancy index
(STYLE habit 3), so a 4096 x 4096 layer takes well under a second. pytmx reads TMX only and is
LGPL; pytiled-parser reads both but builds one Python object per tile; we need neither.

Two styles of map are understood (both documented in the README, with examples in ``maps/``):

* **value tiles** -- tile layers named ``width_ft`` and ``height_ft``; each tile carries a float
  property ``ft`` (a palette at the rule thresholds, see :data:`PALETTE_FT`); an optional layer
  ``difficult`` marks difficult ground (any tile there, unless the tile says ``difficult = false``);
* **semantic tiles** -- one tile layer (or, among several, the one named ``terrain``) whose tiles
  carry ``width_ft``, ``height_ft`` and optional ``difficult`` (the TOML legend's twin, e.g. a
  "crawlway" tile with width 6 and height 2.5); a tile with ``rock = true`` is solid rock.

Common to both: empty cells (GID 0) are rock; the flip bits (H, V, diagonal, hex-120) are ignored;
the map properties ``units`` ("ft" or "m": the unit of every length property) and
``feet_per_square`` (5 ft, i.e. 1.5 m: the only scale the rules use, RULES §5) are read; point
objects (and the centres of rectangles) with a name become named points; an optional layer
``door`` marks closed doors; an image layer named ``picture`` is the map's floor picture.

Every problem is a :class:`~sim.base.errors.DataError` naming the file and the layer, tile or key.

>>> import json, pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> ts = {"firstgid": 1, "name": "t", "tilecount": 2, "tilewidth": 32, "tileheight": 32,
...       "tiles": [{"id": 0, "properties": [{"name": "width_ft", "type": "float", "value": 10},
...                                           {"name": "height_ft", "type": "float", "value": 8}]},
...                 {"id": 1, "properties": [{"name": "width_ft", "type": "float", "value": 2},
...                                           {"name": "height_ft", "type": "float", "value": 8}]}]}
>>> doc = {"width": 3, "height": 1, "tilewidth": 32, "tileheight": 32, "orientation": "orthogonal",
...        "infinite": False, "tilesets": [ts], "layers": [
...        {"type": "tilelayer", "name": "terrain", "width": 3, "height": 1, "data": [1, 2, 0]}]}
>>> _ = (d / "m.tmj").write_text(json.dumps(doc))
>>> g = read_tiled_grid(d / "m.tmj")
>>> g.width_ft.tolist(), g.rock.tolist()
([[10.0, 2.0, 0.0]], [[False, False, True]])
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import os
import re
import struct
import warnings
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from PIL import Image

from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import MAX_STRING_CHARS, read_input
from sim.maps.layers import MAX_LENGTH, number
from sim.maps.limits import DEFAULT_MAX_SIZE
from sim.maps.read import UNITS, to_feet
from sim.terrain.grid import CaveGrid

# The width and ceiling thresholds of the rules (RULES §2.3 for the sizes' space, height, head,
# shoulders and depth, rounded to the values a designer paints with): the value-tile palette.
PALETTE_FT: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 60.0)

FLIP_BITS = 0xF0000000  # H flip, V flip, diagonal flip, hex 120 degree rotation
GID_MASK = 0x0FFFFFFF
MAX_FILE_BYTES = 64 * 1024 * 1024      # the map, an external tileset, the picture (and all tilesets together)
MAX_JSON_DEPTH = 100                   # arrays and objects nested in a TMJ / TSJ file
MAX_GROUP_DEPTH = 32                   # group layers nested in group layers
MAX_TILE_PX = 10_000                   # a tile's side in pixels
MAX_OBJECT_PX = 1e9                    # an object's x, y, width or height, either way (pixels)
MAX_PICTURE_PIXELS = 64_000_000        # the floor picture (an image layer named "picture"): 8000 x 8000
MAX_NAME_CHARS = 100                   # a point's or the map's name
MAX_TILESETS = 10_000                  # tilesets in one map (embedded or external)
SQUARE_FT = 5.0
VALUE_LAYERS = ("width_ft", "height_ft")
DIFFICULT_LAYER = "difficult"
DOOR_LAYER = "door"
SEMANTIC_LAYER = "terrain"
PICTURE_LAYER = "picture"


@dataclass(frozen=True, slots=True)
class Tileset:
    """One tileset: its first GID, how many local ids it holds and each tile's properties."""

    firstgid: int
    name: str
    tilecount: int
    tiles: Mapping[int, Mapping[str, Any]]   # local id -> {property: value}
    where: str                               # for messages: the file (and external tileset)

    def has(self, local: int) -> bool:
        return 0 <= local < self.tilecount or local in self.tiles


@dataclass(frozen=True, slots=True)
class TileLayer:
    name: str
    gids: np.ndarray   # uint32 [row, col], flip bits still set


@dataclass(frozen=True, slots=True)
class MapObject:
    name: str
    x: float           # pixels
    y: float
    layer: str


@dataclass(frozen=True, slots=True)
class TiledDoc:
    """A Tiled map as read from TMX or TMJ, before any cavesim meaning is given to it."""

    path: Path
    cols: int
    rows: int
    tilewidth: int
    tileheight: int
    properties: Mapping[str, Any]
    tilesets: tuple[Tileset, ...]
    layers: tuple[TileLayer, ...]
    objects: tuple[MapObject, ...] = field(default=())
    pictures: tuple[tuple[str, str], ...] = field(default=())   # image layers: (name, image file)


# =================================================================================================
# Reading TMX / TMJ into a TiledDoc
# =================================================================================================


def read_tiled(path: str | Path, *, max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> TiledDoc:
    """Read a ``.tmx`` or ``.tmj`` (``.json``) file; every problem is one located DataError.

    Bounded before any work: every file (the map, its external tilesets, its picture) is read by
    :func:`sim.base.fileio.read_input` (a regular file, at most :data:`MAX_FILE_BYTES`), external
    tilesets are read once each and at most :data:`MAX_FILE_BYTES` in all, JSON is nested at most
    :data:`MAX_JSON_DEPTH` deep and group layers at most :data:`MAX_GROUP_DEPTH`, every number is
    range-checked before it is used."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".tmx", ".tmj", ".json"):
        raise DataError(f"{path}: not a Tiled map; save it from Tiled as .tmx or .tmj")
    raw = read_input(path, what="Tiled map", limit=MAX_FILE_BYTES)
    ext = _Externals(path)
    if suffix == ".tmx":
        return _TmxReader(path, max_size, ext).read(raw)
    return _TmjReader(path, max_size, ext).read(raw)


class _Externals:
    """The external tilesets of one map: each file read once (by :func:`read_input`), and at most
    :data:`MAX_FILE_BYTES` of them in all, however many ``<tileset source>`` name them."""

    def __init__(self, map_path: Path):
        self.map_path = map_path
        self.cache: dict[str, tuple[str, int, Mapping[int, Mapping[str, Any]]]] = {}
        self.total = 0

    def tileset(self, source: Any, firstgid: int, max_size: tuple[int, int]) -> Tileset:
        where = f"{self.map_path}: external tileset {shorten(source)}"
        if not isinstance(source, str):
            raise DataError(f"{where}: the source must be a file name (a string)")
        ext = self.map_path.parent / source
        if not os.path.exists(ext):  # False for a name the system cannot hold (too long, a NUL) as well
            raise DataError(f"{self.map_path}: external tileset {shorten(source)} not found (looked for "
                            f"{shorten_text(str(ext))}); put the tileset file beside the map or embed it "
                            "(Tiled: Embed Tileset)")
        key = os.path.realpath(ext)
        if key not in self.cache:
            try:
                raw = read_input(ext, what="Tiled tileset", limit=MAX_FILE_BYTES)
            except DataError as exc:
                raise DataError(f"{where}: {exc}") from None
            self.total += len(raw)
            if self.total > MAX_FILE_BYTES:
                raise DataError(f"{where}: the map's external tilesets hold more than {MAX_FILE_BYTES // 2**20} MB "
                                "in all; embed or trim them")
            label = f"{self.map_path} ({shorten_text(source, 100)})"
            if ext.suffix.lower() in (".tsj", ".json"):
                ts = _TmjReader(self.map_path, max_size, self).tileset_obj(_json(raw, ext), firstgid, label)
            else:
                tr = _TmxReader(self.map_path, max_size, self)
                tel = tr.parse(raw, ext, "TSX tileset")
                if tel.tag != "tileset":
                    raise DataError(f"{ext}: the root element is <{shorten_text(tel.tag, 60)}>, not <tileset>")
                ts = tr.tileset_el(tel, firstgid, label)
            self.cache[key] = (ts.name, ts.tilecount, ts.tiles)
            return ts
        name, count, tiles = self.cache[key]
        return Tileset(firstgid, name, count, tiles, f"{self.map_path} ({shorten_text(source, 100)})")


_XML_INT = re.compile(r"\s*[+-]?[0-9]{1,4000}\s*")
_XML_FLOAT = re.compile(r"\s*[+-]?([0-9]{1,400}(\.[0-9]{0,400})?|\.[0-9]{1,400})([eE][+-]?[0-9]{1,5})?\s*")


def _whole(value: Any, *, json_value: bool) -> int | None:
    """A whole number: a TMJ (JSON) integer (not true/false, not 24.0, not "24") or a TMX attribute
    of decimal digits; None for anything else.

    >>> _whole(24, json_value=True), _whole("24", json_value=True), _whole(True, json_value=True)
    (24, None, None)
    >>> _whole("24", json_value=False), _whole("2_4", json_value=False), _whole("24.0", json_value=False)
    (24, None, None)
    """
    if json_value:
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and _XML_INT.fullmatch(value):
        return int(value)
    return None


def _real(value: Any, *, json_value: bool) -> float | None:
    """A finite real number from a TMJ number or a TMX decimal attribute; None for anything else
    (true/false, strings in JSON, NaN, infinities, a number too large for a float).

    >>> _real(10 ** 400, json_value=True), _real(float("nan"), json_value=True), _real("2.5", json_value=False)
    (None, None, 2.5)
    >>> _real("nan", json_value=False), _real("1e400", json_value=False), _real("1_0", json_value=False)
    (None, None, None)
    """
    if json_value:
        v = number(value)
    elif isinstance(value, str) and _XML_FLOAT.fullmatch(value):
        v = float(value)
    else:
        v = None
    return v if v is not None and math.isfinite(v) else None


def _int_in(value: Any, lo: int, hi: int, where: str, what: str, *, json_value: bool) -> int:
    v = _whole(value, json_value=json_value)
    if v is None or not lo <= v <= hi:
        raise DataError(f"{where}: {what} must be a whole number from {lo} to {hi:,}, got {shorten(value)}; "
                        "re-save the map in Tiled")
    return v


def _prop_value(kind: Any, value: Any, where: str, *, json_value: bool) -> Any:
    """A Tiled custom property in Python: int, float, bool; strings, colours, files, objects and
    classes are kept as they are. In a TMJ file the value must have the JSON type of its kind (an
    int property holds an integer, not ``"3"`` or ``true``); in a TMX file the attribute must read
    as that kind (``3``, ``2.5``, ``true``)."""
    kind = kind or "string"
    if kind == "int":
        v = _whole(value, json_value=json_value)
    elif kind == "float":
        v = _real(value, json_value=json_value)
    elif kind == "bool":
        if json_value:
            v = value if isinstance(value, bool) else None
        else:
            v = {"true": True, "false": False}.get(value) if isinstance(value, str) else None
    else:
        return value
    if v is None:
        want = {"int": "whole number", "float": "finite number", "bool": "true or false"}[kind]
        raise DataError(f"{where}: {kind} property value {shorten(value)} is not a valid {kind} (a {want}); "
                        "fix it in Tiled")
    return v


def _decode_gids(data: bytes, encoding: str, compression: Any, n: int, where: str) -> np.ndarray:
    """Base64 (optionally zlib/gzip) layer data -> ``n`` little-endian uint32 GIDs. The
    decompression stops one byte past what the layer needs: a zlib bomb costs no more than the
    layer itself.

    >>> import zlib, base64
    >>> bomb = base64.b64encode(zlib.compress(bytes(10 ** 6)))
    >>> _decode_gids(bomb, "base64", "zlib", 12, "m.tmx: layer 'w'")
    Traceback (most recent call last):
    ...
    sim.base.errors.DataError: m.tmx: layer 'w': layer data decompresses to more than 48 bytes; the layer needs 12 tiles (48 bytes); re-save the map in Tiled
    """
    try:
        packed = base64.b64decode(b"".join(data.split()), validate=True)  # wrapped lines are fine
    except (binascii.Error, ValueError):
        raise DataError(f"{where}: layer data is not valid base64; re-save the map in Tiled") from None
    want = 4 * n
    if compression in ("zlib", "gzip"):
        d = zlib.decompressobj(wbits=15 if compression == "zlib" else 31)
        try:
            out = d.decompress(packed, want + 1)
        except zlib.error as exc:
            raise DataError(f"{where}: layer data is not valid {compression} ({exc}); re-save the map in Tiled") from None
        if len(out) > want:
            raise DataError(f"{where}: layer data decompresses to more than {want:,} bytes; the layer needs {n:,} "
                            f"tiles ({want:,} bytes); re-save the map in Tiled")
        if not d.eof:
            raise DataError(f"{where}: layer data is a cut-off {compression} stream ({len(out) // 4:,} tiles of "
                            f"{n:,}); re-save the map in Tiled")
        packed = out
    elif compression == "zstd":
        raise DataError(f"{where}: zstd-compressed layer data is not supported (no zstd library is installed); "
                        "in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and save again")
    elif compression:
        raise DataError(f"{where}: unknown compression {shorten(compression)}; use CSV, base64, base64 zlib or "
                        "base64 gzip")
    if len(packed) != want:
        raise DataError(f"{where}: layer data holds {len(packed) / 4:g} tiles, the layer needs {n:,}; re-save the map")
    return np.frombuffer(packed, dtype="<u4").astype(np.uint32)


def _csv_ints(text: str, n: int) -> np.ndarray | None:
    """``n`` comma-separated whole numbers (numpy's C parser), or None when one is not a number."""
    if n == 0:
        return np.zeros(0, np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns (newer: raises) when it stops before the end
        try:
            arr = np.fromstring(text, dtype=np.int64, sep=",")
        except (ValueError, DeprecationWarning):
            return None
    return arr if arr.size == n else None


def _check_gids(arr: np.ndarray, where: str) -> np.ndarray:
    """int64 GIDs (a number too large for int64 reads as its largest value) as uint32."""
    if arr.size and (arr.min() < 0 or arr.max() > 0xFFFFFFFF):
        raise DataError(f"{where}: layer data holds a GID outside 0..4294967295 (a whole number); re-save the map")
    return arr.astype(np.uint32)


def _check_map_header(path: Path, orientation: Any, infinite: Any, cols: Any, rows: Any, tw: Any, th: Any,
                      max_size: tuple[int, int], *, json_value: bool) -> tuple[int, int, int, int]:
    if orientation != "orthogonal":
        raise DataError(f"{path}: map orientation is {shorten(orientation)}; cavesim squares need an orthogonal map "
                        "(Tiled: Map > Map Properties > Orientation: Orthogonal)")
    finite_values = (False, 0) if json_value else ("0",)
    if infinite is True or infinite == (1 if json_value else "1"):
        raise DataError(f"{path}: the map is infinite (its layers are stored in chunks); uncheck Map > Map "
                        "Properties > Infinite in Tiled, which crops it to a fixed size, and save again")
    if not (infinite in finite_values and (json_value or isinstance(infinite, str))):
        raise DataError(f"{path}: map 'infinite' must be {'false or true' if json_value else '0 or 1'}, got "
                        f"{shorten(infinite)}; re-save the map in Tiled")
    got = [_whole(v, json_value=json_value) for v in (cols, rows, tw, th)]
    for (key, raw), v in zip((("width", cols), ("height", rows), ("tilewidth", tw), ("tileheight", th)), got):
        if v is None:
            raise DataError(f"{path}: map {key} must be a whole number, got {shorten(raw)}"
                            + ("" if not isinstance(raw, str) or not json_value else " (a string; write the number "
                               "without quotes)"))
    cols, rows, tw, th = got
    if cols < 1 or rows < 1 or tw < 1 or th < 1:
        raise DataError(f"{path}: map size {shorten(cols)}x{shorten(rows)} tiles of {shorten(tw)}x{shorten(th)} px: "
                        "every number must be >= 1")
    if cols > max_size[0] or rows > max_size[1]:
        raise DataError(f"{path}: map is {shorten(cols)}x{shorten(rows)} squares, over the limit of "
                        f"{max_size[0]}x{max_size[1]}; split the map or raise the limit with --max-map-size")
    if tw > MAX_TILE_PX or th > MAX_TILE_PX:
        raise DataError(f"{path}: tiles of {shorten(tw)}x{shorten(th)} px, over the limit of {MAX_TILE_PX:,} px a "
                        "side; set a smaller tile size in Tiled (Map > Map Properties)")
    return cols, rows, tw, th


def _object_xywh(values: tuple[Any, ...], where: str, *, json_value: bool) -> tuple[float, float, float, float]:
    """An object's x, y, width, height in pixels: finite numbers of at most :data:`MAX_OBJECT_PX`."""
    out = []
    for key, v in zip(("x", "y", "width", "height"), values):
        f = _real(v, json_value=json_value)
        if f is None or abs(f) > MAX_OBJECT_PX:
            raise DataError(f"{where}: {key} must be a finite number of pixels (at most {MAX_OBJECT_PX:,.0f} "
                            f"either way), got {shorten(v)}")
        out.append(f)
    return out[0], out[1], out[2], out[3]


class _TmxReader:
    def __init__(self, path: Path, max_size: tuple[int, int], ext: _Externals):
        self.path = path
        self.max_size = max_size
        self.ext = ext

    def parse(self, raw: bytes, path: Path, what: str) -> ET.Element:
        """XML text into elements; expat refuses entity expansion bombs ("billion laughs") and
        never fetches external entities."""
        try:
            return ET.fromstring(raw)
        except ET.ParseError as exc:
            raise DataError(f"{path}: not a valid {what} XML file ({shorten_text(str(exc))}); re-save it from "
                            "Tiled") from None

    def int_attr(self, el: ET.Element, key: str, lo: int, hi: int, where: str, default: str | None = None) -> int:
        return _int_in(el.get(key, default), lo, hi, where, key, json_value=False)

    def props(self, el: ET.Element, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in el.findall("./properties/property"):
            name = p.get("name", "")
            value = p.get("value")
            if value is None:
                value = p.text or ""
            out[name] = _prop_value(p.get("type", "string"), value, f"{where} property {shorten(name)}",
                                    json_value=False)
        return out

    def read(self, raw: bytes) -> TiledDoc:
        root = self.parse(raw, self.path, "TMX")
        if root.tag != "map":
            raise DataError(f"{self.path}: the root element is <{shorten_text(root.tag, 60)}>, not <map>; is this a "
                            "Tiled map?")
        cols, rows, tw, th = _check_map_header(
            self.path, root.get("orientation"), root.get("infinite", "0"), root.get("width"), root.get("height"),
            root.get("tilewidth"), root.get("tileheight"), self.max_size, json_value=False)
        self.cols, self.rows = cols, rows
        found = root.findall("tileset")
        if len(found) > MAX_TILESETS:
            raise DataError(f"{self.path}: {len(found):,} <tileset> elements, over the limit of {MAX_TILESETS:,}; "
                            "merge tilesets in Tiled")
        tilesets = tuple(self.tileset(ts) for ts in found)
        layers: list[TileLayer] = []
        objects: list[MapObject] = []
        self.pictures: list[tuple[str, str]] = []
        self.walk(root, layers, objects, 0)
        return TiledDoc(self.path, cols, rows, tw, th, self.props(root, f"{self.path}: map"), tilesets,
                        tuple(layers), tuple(objects), tuple(self.pictures))

    def walk(self, el: ET.Element, layers: list, objects: list, depth: int) -> None:
        for child in el:
            if child.tag == "layer":
                layers.append(self.layer(child))
            elif child.tag == "objectgroup":
                objects.extend(self.objects(child))
            elif child.tag == "imagelayer":
                img = child.find("image")
                if img is not None and img.get("source"):
                    self.pictures.append((child.get("name", ""), img.get("source")))
            elif child.tag == "group":
                if depth >= MAX_GROUP_DEPTH:
                    raise DataError(f"{self.path}: <group> {shorten(child.get('name', ''))}: group layers nested "
                                    f"more than {MAX_GROUP_DEPTH} deep; flatten the groups in Tiled")
                self.walk(child, layers, objects, depth + 1)

    def tileset(self, el: ET.Element) -> Tileset:
        firstgid = self.int_attr(el, "firstgid", 1, GID_MASK, f"{self.path}: a <tileset>")
        source = el.get("source")
        if source:
            return self.ext.tileset(source, firstgid, self.max_size)
        return self.tileset_el(el, firstgid, str(self.path))

    def tileset_el(self, el: ET.Element, firstgid: int, where: str) -> Tileset:
        name = el.get("name", "")
        tiles: dict[int, dict[str, Any]] = {}
        for t in el.findall("tile"):
            tid = self.int_attr(t, "id", 0, GID_MASK, f"{where}: tileset {shorten(name)}: a <tile>", "")
            tiles[tid] = self.props(t, f"{where}: tileset {shorten(name)} tile {tid}")
        count = self.int_attr(el, "tilecount", 0, GID_MASK, f"{where}: tileset {shorten(name)}", "0")
        return Tileset(firstgid, name, count, tiles, where)

    def layer(self, el: ET.Element) -> TileLayer:
        name = el.get("name", "")
        where = f"{self.path}: layer {shorten(name)}"
        w = _whole(el.get("width", ""), json_value=False)
        h = _whole(el.get("height", ""), json_value=False)
        if w is None or h is None:
            raise DataError(f"{where}: width and height must be whole numbers, got {shorten(el.get('width'))} and "
                            f"{shorten(el.get('height'))}")
        if (w, h) != (self.cols, self.rows):
            raise DataError(f"{where}: is {shorten(w)}x{shorten(h)} tiles but the map is {self.cols}x{self.rows}; "
                            "resize the layer to the map (Tiled: Map > Resize Map)")
        data = el.find("data")
        n = w * h
        if data is None:
            return TileLayer(name, np.zeros((h, w), dtype=np.uint32))
        if data.find("chunk") is not None:
            raise DataError(f"{where}: layer data is stored in chunks (an infinite map); uncheck Map > Map "
                            "Properties > Infinite in Tiled and save again")
        enc = data.get("encoding", "")
        comp = data.get("compression", "")
        if enc == "csv":
            if comp:
                raise DataError(f"{where}: CSV data cannot be compressed ({shorten(comp)}); re-save the map")
            text = (data.text or "").strip().rstrip(",")
            count = text.count(",") + 1 if text else 0
            if count != n:
                raise DataError(f"{where}: CSV layer data holds {count:,} tiles, the layer needs {n:,}")
            arr = _csv_ints(text, n)
            if arr is None:
                raise DataError(f"{where}: CSV layer data holds a value that is not a whole number")
            gids = _check_gids(arr, where)
        elif enc == "base64":
            gids = _decode_gids((data.text or "").encode("ascii", "replace"), enc, comp, n, where)
        elif enc == "":
            tiles = data.findall("tile")
            if len(tiles) != n:
                raise DataError(f"{where}: XML layer data holds {len(tiles):,} tiles, the layer needs {n:,}")
            arr = _csv_ints(",".join(t.get("gid", "0") for t in tiles), n)
            if arr is None:
                raise DataError(f"{where}: a <tile gid> is not a whole number")
            gids = _check_gids(arr, where)
        else:
            raise DataError(f"{where}: unknown layer encoding {shorten(enc)}; use CSV or base64")
        return TileLayer(name, gids.reshape(h, w))

    def objects(self, el: ET.Element) -> list[MapObject]:
        group = el.get("name", "")
        out = []
        for o in el.findall("object"):
            name = o.get("name", "")
            where = f"{self.path}: object layer {shorten(group)} object {shorten(name)}"
            x, y, w, h = _object_xywh(tuple(o.get(k, "0") for k in ("x", "y", "width", "height")), where,
                                      json_value=False)
            if not name or o.get("gid") is not None or o.find("polygon") is not None or o.find("polyline") is not None:
                continue  # unnamed objects, tile objects and shapes are decoration, not points
            if o.find("point") is None:
                x, y = x + w / 2, y + h / 2
            out.append(MapObject(name, x, y, group))
        return out


def _json(raw: bytes, path: Path, flat: dict[int, set] | None = None) -> Any:
    """JSON text into Python, nested at most :data:`MAX_JSON_DEPTH` deep (deeper is refused
    before anything walks it). ``flat``, when given, gets the types held by each list that holds
    no list or object (keyed by ``id``: a layer's data is then type-checked without a second pass)."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text; re-save it from Tiled") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                        "re-save it from Tiled") from None
    except RecursionError:
        raise DataError(f"{path}: JSON arrays or objects nested more than {MAX_JSON_DEPTH} deep; "
                        "re-save it from Tiled") from None
    except ValueError as exc:  # an integer of more than 4300 digits
        raise DataError(f"{path}: not valid JSON ({shorten_text(str(exc), 120)}); re-save it from Tiled") from None
    stack = [(doc, 1)] if isinstance(doc, (list, dict)) else []
    while stack:
        v, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise DataError(f"{path}: JSON arrays or objects nested more than {MAX_JSON_DEPTH} deep; "
                            "re-save it from Tiled")
        items = list(v.values()) if isinstance(v, dict) else v
        types = set(map(type, items))   # one pass in C: a layer's data of a million GIDs costs ~20 ms
        if {list, dict} & types:
            stack.extend((c, depth + 1) for c in items if isinstance(c, (list, dict)))
        elif flat is not None and items is v:
            flat[id(v)] = types
    return doc


def _list(value: Any, where: str, what: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise DataError(f"{where}: {what} must be a JSON array, got {shorten(value)}")
    return value


def _str(value: Any, where: str, what: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: {what} must be a string, got {shorten(value)}")
    return value


class _TmjReader:
    def __init__(self, path: Path, max_size: tuple[int, int], ext: _Externals):
        self.path = path
        self.max_size = max_size
        self.ext = ext
        self.flat: dict[int, set] = {}   # id(list) -> the types it holds (a flat list), from _json

    def props(self, obj: Mapping[str, Any], where: str) -> dict[str, Any]:
        raw = obj.get("properties", [])
        if not isinstance(raw, list):
            raise DataError(f"{where}: properties must be a list of {{name, type, value}}")
        out: dict[str, Any] = {}
        for p in raw:
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise DataError(f"{where}: a property has no name")
            out[p["name"]] = _prop_value(p.get("type", "string"), p.get("value"),
                                         f"{where} property {shorten(p['name'])}", json_value=True)
        return out

    def read(self, raw: bytes) -> TiledDoc:
        doc = _json(raw, self.path, self.flat)
        if not isinstance(doc, dict) or "layers" not in doc:
            raise DataError(f"{self.path}: not a Tiled JSON map (no \"layers\"); export it from Tiled as JSON")
        cols, rows, tw, th = _check_map_header(
            self.path, doc.get("orientation"), doc.get("infinite", False), doc.get("width"), doc.get("height"),
            doc.get("tilewidth"), doc.get("tileheight"), self.max_size, json_value=True)
        self.cols, self.rows = cols, rows
        tilesets = []
        found = _list(doc.get("tilesets"), str(self.path), "\"tilesets\"")
        if len(found) > MAX_TILESETS:
            raise DataError(f"{self.path}: {len(found):,} tilesets, over the limit of {MAX_TILESETS:,}; merge tilesets "
                            "in Tiled")
        for ts in found:
            if not isinstance(ts, dict):
                raise DataError(f"{self.path}: a tileset must be a JSON object, got {shorten(ts)}")
            firstgid = _int_in(ts.get("firstgid"), 1, GID_MASK, f"{self.path}: a tileset", "firstgid", json_value=True)
            src = ts.get("source")
            if src:
                tilesets.append(self.ext.tileset(src, firstgid, self.max_size))
            else:
                tilesets.append(self.tileset_obj(ts, firstgid, str(self.path)))
        layers: list[TileLayer] = []
        objects: list[MapObject] = []
        self.pictures: list[tuple[str, str]] = []
        self.walk(_list(doc.get("layers"), str(self.path), "\"layers\""), layers, objects, 0)
        return TiledDoc(self.path, cols, rows, tw, th, self.props(doc, f"{self.path}: map"), tuple(tilesets),
                        tuple(layers), tuple(objects), tuple(self.pictures))

    def tileset_obj(self, ts: Any, firstgid: int, where: str) -> Tileset:
        if not isinstance(ts, dict):
            raise DataError(f"{where}: a tileset must be a JSON object")
        name = _str(ts.get("name"), where, "tileset name")
        tiles: dict[int, dict[str, Any]] = {}
        for t in _list(ts.get("tiles"), f"{where}: tileset {shorten(name)}", "\"tiles\""):
            if not isinstance(t, dict):
                raise DataError(f"{where}: tileset {shorten(name)}: a tile must be a JSON object, got {shorten(t)}")
            tid = _int_in(t.get("id"), 0, GID_MASK, f"{where}: tileset {shorten(name)}: a tile", "id", json_value=True)
            tiles[tid] = self.props(t, f"{where}: tileset {shorten(name)} tile {tid}")
        count = _int_in(ts.get("tilecount", 0), 0, GID_MASK, f"{where}: tileset {shorten(name)}", "tilecount",
                        json_value=True)
        return Tileset(firstgid, name, count, tiles, where)

    def walk(self, items: list, layers: list, objects: list, depth: int) -> None:
        for lay in items:
            if not isinstance(lay, dict):
                raise DataError(f"{self.path}: a layer must be a JSON object, got {shorten(lay)}")
            kind = lay.get("type")
            if kind == "tilelayer":
                layers.append(self.layer(lay))
            elif kind == "objectgroup":
                objects.extend(self.objects(lay))
            elif kind == "imagelayer":
                if isinstance(lay.get("image"), str) and lay["image"]:
                    self.pictures.append((_str(lay.get("name"), str(self.path), "an image layer's name"),
                                          lay["image"]))
            elif kind == "group":
                where = f"{self.path}: group layer {shorten(lay.get('name', ''))}"
                if depth >= MAX_GROUP_DEPTH:
                    raise DataError(f"{where}: group layers nested more than {MAX_GROUP_DEPTH} deep; flatten the "
                                    "groups in Tiled")
                self.walk(_list(lay.get("layers"), where, "\"layers\""), layers, objects, depth + 1)

    def layer(self, lay: dict) -> TileLayer:
        name = _str(lay.get("name"), str(self.path), "a layer's name")
        where = f"{self.path}: layer {shorten(name)}"
        if "chunks" in lay:
            raise DataError(f"{where}: layer data is stored in chunks (an infinite map); uncheck Map > Map "
                            "Properties > Infinite in Tiled and save again")
        w, h = _whole(lay.get("width"), json_value=True), _whole(lay.get("height"), json_value=True)
        if w is None or h is None:
            raise DataError(f"{where}: width and height must be whole numbers, got {shorten(lay.get('width'))} and "
                            f"{shorten(lay.get('height'))}")
        if (w, h) != (self.cols, self.rows):
            raise DataError(f"{where}: is {shorten(w)}x{shorten(h)} tiles but the map is {self.cols}x{self.rows}; "
                            "resize the layer to the map (Tiled: Map > Resize Map)")
        n = w * h
        data = lay.get("data")
        enc = lay.get("encoding", "csv") or "csv"
        comp = lay.get("compression", "") or ""
        if enc == "base64":
            if not isinstance(data, str):
                raise DataError(f"{where}: base64 layer data must be a string")
            gids = _decode_gids(data.encode("ascii", "replace"), enc, comp, n, where)
        elif enc == "csv":
            if not isinstance(data, list) or len(data) != n:
                got = f"{len(data):,}" if isinstance(data, list) else type(data).__name__
                raise DataError(f"{where}: layer data must be a list of {n:,} GIDs, got {got}")
            types = self.flat.get(id(data))
            if not (set(map(type, data)) if types is None else types) <= {int}:  # not true/false, 1.0 or "1"
                raise DataError(f"{where}: layer data holds a value that is not a GID (a whole number 0..4294967295)")
            try:
                arr = np.array(data, dtype=np.int64)
            except OverflowError:
                raise DataError(f"{where}: layer data holds a GID outside 0..4294967295; re-save the map") from None
            gids = _check_gids(arr, where)
        else:
            raise DataError(f"{where}: unknown layer encoding {shorten(enc)}; use CSV or base64")
        return TileLayer(name, gids.reshape(h, w))

    def objects(self, lay: dict) -> list[MapObject]:
        group = _str(lay.get("name"), str(self.path), "an object layer's name")
        out = []
        for o in _list(lay.get("objects"), f"{self.path}: object layer {shorten(group)}", "\"objects\""):
            if not isinstance(o, dict):
                continue
            name = _str(o.get("name"), f"{self.path}: object layer {shorten(group)}", "an object's name")
            where = f"{self.path}: object layer {shorten(group)} object {shorten(name)}"
            x, y, w, h = _object_xywh(tuple(o.get(k, 0) for k in ("x", "y", "width", "height")), where,
                                      json_value=True)
            if not name or "gid" in o or "polygon" in o or "polyline" in o:
                continue
            if not o.get("point"):
                x, y = x + w / 2, y + h / 2
            out.append(MapObject(name, x, y, group))
        return out


# =================================================================================================
# Giving the tiles their cavesim meaning
# =================================================================================================


@dataclass(frozen=True, slots=True)
class TileLut:
    """The distinct tiles of a layer: ``gids[inverse]`` is the layer with its flip bits cleared;
    ``gids[k]`` is tile ``local[k]`` of tileset ``order[owner[k]]`` (``owner[k] = -1``: the empty
    GID 0). ``gids`` is sorted, so ``owner`` is too: each tileset's tiles are one slice."""

    inverse: np.ndarray
    gids: np.ndarray
    order: tuple[Tileset, ...]
    owner: np.ndarray
    local: np.ndarray

    def slices(self, mask: np.ndarray) -> list[tuple[int, int, int]]:
        """``(tileset index, start, stop)`` of every tileset that holds a tile where ``mask``."""
        owners = np.unique(self.owner[mask & (self.owner >= 0)]).tolist()
        bounds = np.searchsorted(self.owner, np.array(owners + [o + 1 for o in owners], dtype=np.int64))
        m = len(owners)
        return [(o, int(bounds[i]), int(bounds[m + i])) for i, o in enumerate(owners)]


def _sorted_ids(ids: list[int]) -> np.ndarray:
    return np.sort(np.array(ids, dtype=np.int64)) if ids else np.zeros(0, np.int64)


def _lookup(ids: np.ndarray, local: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hit, pos)``: ``hit[i]`` when ``local[i]`` is in the sorted ``ids``, at ``ids[pos[i]]``."""
    if not len(ids):
        return np.zeros(len(local), bool), np.zeros(len(local), np.intp)
    pos = np.minimum(np.searchsorted(ids, local), len(ids) - 1)
    return ids[pos] == local, pos


def tile_lut(doc: TiledDoc, layer: TileLayer) -> TileLut:
    """The distinct tiles of a layer (:class:`TileLut`), in numpy: a layer of 16 million
    different GIDs costs a sort, not 16 million Python steps. A GID that belongs to no tileset is
    refused."""
    clean = layer.gids & np.uint32(GID_MASK)
    top = int(clean.max(initial=0))
    if top < (1 << 22):  # the usual case: a dense remap table, O(n) (np.unique sorts)
        gids = np.flatnonzero(np.bincount(clean.ravel(), minlength=1)).astype(np.uint32)
        remap = np.zeros(top + 1, dtype=np.intp)
        remap[gids] = np.arange(len(gids))
        inverse = remap[clean]
    else:
        gids, inverse = np.unique(clean, return_inverse=True)
        inverse = inverse.reshape(clean.shape)
    order = tuple(sorted(doc.tilesets, key=lambda t: t.firstgid))
    firsts = np.array([t.firstgid for t in order] or [GID_MASK + 1], dtype=np.int64)
    counts = np.array([t.tilecount for t in order] or [0], dtype=np.int64)
    g = gids.astype(np.int64)
    owner = np.searchsorted(firsts, g, side="right") - 1
    owner[g == 0] = -1
    safe = np.maximum(owner, 0)
    local = g - firsts[safe]
    held = (g == 0) | ((owner >= 0) & (local < counts[safe]))
    lut = TileLut(inverse, gids, order, owner, local)
    beyond = ~held & (owner >= 0)   # past the tileset's tilecount: held only where the tileset lists the tile
    listed: dict[int, np.ndarray] = {}
    for o, i, j in lut.slices(beyond):
        tiles = order[o].tiles
        ids = listed.setdefault(id(tiles), _sorted_ids(list(tiles)))
        hit, _ = _lookup(ids, local[i:j])
        held[i:j] |= hit & beyond[i:j]
    if not held.all():
        k = int(np.flatnonzero(~held)[0])
        bad = int(g[k])
        r, c = np.argwhere(clean == bad)[0]
        starts = shorten_text(", ".join(str(t.firstgid) for t in order) or "none", 100)
        raise DataError(f"{doc.path}: layer {shorten(layer.name)} square ({int(c)}, {int(r)}): GID {bad} belongs to "
                        f"no tileset (the map's tilesets start at {starts}); a tileset was removed or shortened; "
                        "re-add it or erase those tiles")
    return lut


def _first_square(inverse: np.ndarray, k: int) -> tuple[int, int]:
    r, c = np.argwhere(inverse == k)[0]
    return int(c), int(r)


def _tile_name(ts: Tileset, local: int) -> str:
    return f"tile {local} of tileset {shorten(ts.name)}"


def _float_check(key: str, units: str):
    """A tile's length property ``key`` -> feet: a number from 0 (rock) to :data:`MAX_LENGTH` in
    the map's units, the bounds of a TOML map's widths and ceilings."""
    def check(ts: Tileset, local: int, v: Any) -> float:
        f = number(v)
        if f is None:
            raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {shorten(v)} must be a float "
                            f"(in {units})")
        if not math.isfinite(f) or not 0 <= f <= MAX_LENGTH:
            raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {shorten(v)} must be a number "
                            f"from 0 (rock) to {MAX_LENGTH} {units}, the widths and ceilings a map allows")
        return to_feet(f, units)
    return check


def _bool_check(key: str):
    def check(ts: Tileset, local: int, v: Any) -> float:
        if not isinstance(v, bool):
            raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {shorten(v)} must be a bool "
                            "(true/false)")
        return 1.0 if v else 0.0
    return check


def _prop_table(lut: TileLut, key: str, check, need: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(present, value)`` per distinct tile: whether the tile carries property ``key``, and
    ``check(tileset, local, raw)`` of it -- for the tiles where ``need``; the first bad value among
    them is refused. Work: the tiles a tileset lists (once per tileset file) and a sorted
    search per tileset, however many GIDs the layer holds."""
    n = len(lut.gids)
    present, value = np.zeros(n, bool), np.zeros(n, np.float64)
    prepared: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    for o, i, j in lut.slices(need):
        ts = lut.order[o]
        prep = prepared.get(id(ts.tiles))
        if prep is None:
            rows = []
            for tid, props in ts.tiles.items():
                if key in props:
                    try:
                        rows.append((tid, check(ts, tid, props[key]), True))
                    except DataError:
                        rows.append((tid, 0.0, False))
            rows.sort()
            prep = (np.array([r[0] for r in rows], dtype=np.int64), np.array([r[1] for r in rows], dtype=np.float64),
                    np.array([r[2] for r in rows], dtype=bool))
            prepared[id(ts.tiles)] = prep
        ids, vals, ok = prep
        hit, pos = _lookup(ids, lut.local[i:j])
        hit &= need[i:j]
        bad = hit & ~ok[pos] if len(ids) else hit
        if bad.any():
            local = int(lut.local[i + int(np.flatnonzero(bad)[0])])
            check(ts, local, ts.tiles[local][key])   # raises the located message
        present[i:j] = hit
        if len(ids):
            value[i:j] = np.where(hit, vals[pos], 0.0)
    return present, value


def _required(doc: TiledDoc, layer: TileLayer, lut: TileLut, key: str, units: str, need: np.ndarray) -> np.ndarray:
    """The float property ``key`` (feet) of every tile where ``need``; a tile without it is refused
    at its first square."""
    present, value = _prop_table(lut, key, _float_check(key, units), need)
    missing = need & ~present
    if missing.any():
        k = int(np.flatnonzero(missing)[0])
        ts, local = lut.order[int(lut.owner[k])], int(lut.local[k])
        x, y = _first_square(lut.inverse, k)
        raise DataError(f"{ts.where}: layer {shorten(layer.name)} square ({x}, {y}): {_tile_name(ts, local)} has no "
                        f"property {key!r}; give the tile a float property {key!r} (in {units}) in Tiled's "
                        "tileset editor")
    return value


def _map_units(doc: TiledDoc) -> str:
    units = doc.properties.get("units", "ft")
    if not isinstance(units, str) or units not in UNITS:
        raise DataError(f"{doc.path}: map property 'units' = {shorten(units)}; use \"ft\" or \"m\" (a string property)")
    fps = doc.properties.get("feet_per_square")
    if fps is not None:
        f = number(fps)
        if f is None or not math.isfinite(f):
            raise DataError(f"{doc.path}: map property 'feet_per_square' = {shorten(fps)} must be a number (5 ft or "
                            "1.5 m)")
        if abs(to_feet(f, units) - SQUARE_FT) > 1e-9:
            raise DataError(f"{doc.path}: map property 'feet_per_square' = {shorten(fps)} ({units}): cavesim squares are "
                            f"5 ft (1.5 m), the squares of the rules; draw the map on a 5-ft grid")
    return units


def _layers_by_name(doc: TiledDoc) -> dict[str, TileLayer]:
    out: dict[str, TileLayer] = {}
    for lay in doc.layers:
        if lay.name in out:
            raise DataError(f"{doc.path}: two tile layers are named {shorten(lay.name)}; rename one")
        out[lay.name] = lay
    return out


def _value_layer(doc: TiledDoc, layer: TileLayer, units: str) -> np.ndarray:
    lut = tile_lut(doc, layer)
    return _required(doc, layer, lut, "ft", units, lut.owner >= 0)[lut.inverse]


def _flag_layer(doc: TiledDoc, layer: TileLayer, key: str) -> np.ndarray:
    """Any tile marks the square, unless the tile says ``key = false``."""
    lut = tile_lut(doc, layer)
    used = lut.owner >= 0
    present, value = _prop_table(lut, key, _bool_check(key), used)
    return (used & (~present | (value > 0)))[lut.inverse]


def tiled_arrays(doc: TiledDoc) -> dict[str, np.ndarray]:
    """``width_ft``, ``height_ft``, ``difficult``, ``rock``, ``door`` arrays of a Tiled map (feet)."""
    units = _map_units(doc)
    by_name = _layers_by_name(doc)
    shape = (doc.rows, doc.cols)
    if all(n in by_name for n in VALUE_LAYERS):
        w = _value_layer(doc, by_name["width_ft"], units)
        h = _value_layer(doc, by_name["height_ft"], units)
        empty = ((by_name["width_ft"].gids & np.uint32(GID_MASK)) == 0) | ((by_name["height_ft"].gids & np.uint32(GID_MASK)) == 0)
        d = _flag_layer(doc, by_name[DIFFICULT_LAYER], "difficult") if DIFFICULT_LAYER in by_name else np.zeros(shape, bool)
    else:
        if any(n in by_name for n in VALUE_LAYERS):
            have = next(n for n in VALUE_LAYERS if n in by_name)
            miss = next(n for n in VALUE_LAYERS if n not in by_name)
            raise DataError(f"{doc.path}: has a tile layer {have!r} but no layer {miss!r}; value-tile maps need both")
        candidates = [lay for lay in doc.layers if lay.name not in (DOOR_LAYER,)]
        if not candidates:
            raise DataError(f"{doc.path}: no tile layers; add layers width_ft and height_ft (value tiles) or one "
                            "layer of terrain tiles (semantic tiles); see the README, Tiled maps")
        if len(candidates) > 1:
            if SEMANTIC_LAYER not in by_name:
                raise DataError(f"{doc.path}: tile layers {shorten_text(', '.join(shorten(l.name, 30) for l in candidates), 200)}: name the "
                                f"terrain layer {SEMANTIC_LAYER!r}, or use layers width_ft and height_ft (value tiles)")
            layer = by_name[SEMANTIC_LAYER]
        else:
            layer = candidates[0]
        lut = tile_lut(doc, layer)
        used = lut.owner >= 0
        rock_p, rock_v = _prop_table(lut, "rock", _bool_check("rock"), used)
        floor = used & ~(rock_p & (rock_v > 0))   # a rock tile needs no width or height
        lw = np.where(floor, _required(doc, layer, lut, "width_ft", units, floor), 0.0)
        lh = np.where(floor, _required(doc, layer, lut, "height_ft", units, floor), 0.0)
        diff_p, diff_v = _prop_table(lut, "difficult", _bool_check("difficult"), floor)
        ld, lr, inverse = floor & diff_p & (diff_v > 0), ~floor, lut.inverse
        w, h, d, empty = lw[inverse], lh[inverse], ld[inverse], lr[inverse]
    door = _flag_layer(doc, by_name[DOOR_LAYER], "door") if DOOR_LAYER in by_name else np.zeros(shape, bool)
    rock = empty | (w <= 0) | (h <= 0) | door   # a closed door is rock for movement (SCHEMA: door)
    w = np.where(rock, 0.0, w)
    h = np.where(rock, 0.0, h)
    return {"width_ft": w, "height_ft": h, "difficult": d & ~rock, "rock": rock, "door": door}


_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")       # not in a TOML string (a name)
_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")  # tab and newline are fine in a description


def _check_text(value: str, limit: int, pattern: re.Pattern, where: str) -> str:
    """A name or description the map file can hold: at most ``limit`` characters, no control
    characters (a TOML string cannot hold them) and no lone surrogates (not UTF-8)."""
    if len(value) > limit:
        raise DataError(f"{where}: {len(value):,} characters ({shorten(value, 30)}); at most {limit:,}; shorten it "
                        "in Tiled")
    m = pattern.search(value)
    if m:
        raise DataError(f"{where}: {shorten(value)} holds the control character {m.group()!r} at {m.start()}; "
                        "remove it in Tiled")
    return value


def tiled_points(doc: TiledDoc, rock: np.ndarray) -> dict[str, tuple[int, int]]:
    """Named point objects -> ``{name: (x, y)}`` squares; each must be on a floor square."""
    points: dict[str, tuple[int, int]] = {}
    for o in doc.objects:
        x, y = math.floor(o.x / doc.tilewidth), math.floor(o.y / doc.tileheight)
        where = f"{doc.path}: object layer {shorten(o.layer)} point {shorten(o.name)}"
        _check_text(o.name, MAX_NAME_CHARS, _CONTROL, f"{where}: the name")
        if not (0 <= x < doc.cols and 0 <= y < doc.rows):
            raise DataError(f"{where}: at pixel ({o.x:g}, {o.y:g}) = square ({x}, {y}), off the "
                            f"{doc.cols}x{doc.rows} map; move it onto the map")
        if rock[y, x]:
            raise DataError(f"{where}: square ({x}, {y}) is rock (an empty or rock tile); move it onto a floor square")
        if o.name in points:
            raise DataError(f"{where}: two points are named {shorten(o.name)}; names must be unique")
        points[o.name] = (x, y)
    return points


def _declared_size(raw: bytes) -> tuple[int, int] | None:
    r"""The width and height a PNG or WebP file declares in its header, read without Pillow (so
    nothing is decoded before the size is checked); None when the header is neither.

    >>> _declared_size(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (100000).to_bytes(4, "big") * 2)
    (100000, 100000)
    """
    if raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR" and len(raw) >= 24:
        return struct.unpack(">II", raw[16:24])
    if raw[:4] == b"RIFF" and raw[8:12] == b"WEBP" and len(raw) >= 30:
        chunk = raw[12:16]
        if chunk == b"VP8X":   # extended: 24-bit canvas width - 1, height - 1
            return int.from_bytes(raw[24:27], "little") + 1, int.from_bytes(raw[27:30], "little") + 1
        if chunk == b"VP8L" and raw[20] == 0x2F:   # lossless: 14-bit width - 1, height - 1
            bits = int.from_bytes(raw[21:25], "little")
            return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8 " and raw[23:26] == b"\x9d\x01\x2a":   # lossy key frame: 14-bit width, height
            w, h = struct.unpack("<HH", raw[26:30])
            return w & 0x3FFF, h & 0x3FFF
    return None


def tiled_picture(doc: TiledDoc) -> Path | None:
    """The image layer named ``picture``: the map's floor picture (PNG or WebP covering the map
    exactly, square for square, of at most :data:`MAX_PICTURE_PIXELS`), or None when there is
    none. Read by :func:`read_input` (a regular file of at most :data:`MAX_FILE_BYTES`); the size
    its header declares is checked before Pillow opens it."""
    named = [src for name, src in doc.pictures if name == PICTURE_LAYER]
    if not named:
        return None
    where = f"{doc.path}: image layer {PICTURE_LAYER!r}"
    if "\x00" in named[0]:
        raise DataError(f"{where}: {shorten(named[0])} is not a usable file name (it holds a NUL); fix the image "
                        "path in Tiled")
    img = Path(os.path.abspath(doc.path.parent / named[0]))
    if img.suffix.lower() not in (".png", ".webp"):
        raise DataError(f"{where}: {shorten(named[0])} is not a PNG or WebP picture; convert it, or rename the layer "
                        "to keep it out of the import")
    try:
        raw = read_input(img, what="picture", limit=MAX_FILE_BYTES)
    except DataError as exc:
        raise DataError(f"{where}: {exc}; put the picture beside the map or rename the layer") from None
    size = _declared_size(raw)
    if size is None:
        raise DataError(f"{where}: {img} is not a PNG or WebP picture (its header is neither); save it as PNG, or "
                        "rename the layer to keep it out of the import")
    w, h = size
    if w * h > MAX_PICTURE_PIXELS:
        raise DataError(f"{where}: {img} declares {w:,}x{h:,} px, over the {MAX_PICTURE_PIXELS // 10**6} million "
                        "pixel limit of a floor picture; scale it down (and the map's tile size with it), or rename "
                        "the layer to keep it out of the import")
    try:
        with Image.open(io.BytesIO(raw), formats=("PNG", "WEBP")) as im:
            w, h = im.size
    except (OSError, ValueError, SyntaxError, EOFError, struct.error, Image.DecompressionBombError) as exc:
        raise DataError(f"{where}: {img} cannot be read ({shorten_text(str(exc), 120)})") from None
    want = (doc.cols * doc.tilewidth, doc.rows * doc.tileheight)
    if doc.tilewidth != doc.tileheight or (w, h) != want:
        raise DataError(f"{where}: the picture is {w}x{h} px but the map's squares cover {want[0]}x{want[1]} px; "
                        "scale the picture to the map, or rename the layer to keep it out of the import")
    return img


def tiled_grid(doc: TiledDoc) -> CaveGrid:
    """A :class:`CaveGrid` from a read Tiled map (lengths in feet)."""
    a = tiled_arrays(doc)
    points = tiled_points(doc, a["rock"])
    image = tiled_picture(doc)
    name = doc.properties.get("name")
    name = name if isinstance(name, str) and name else doc.path.stem
    _check_text(name, MAX_NAME_CHARS, _CONTROL, f"{doc.path}: map property 'name'")
    description = doc.properties.get("description", "")
    if not isinstance(description, str):
        raise DataError(f"{doc.path}: map property 'description' = {shorten(description)} must be a string")
    _check_text(description, MAX_STRING_CHARS, _CONTROL_TEXT, f"{doc.path}: map property 'description'")
    return CaveGrid.from_arrays(
        a["width_ft"], a["height_ft"], difficult=a["difficult"], rock=a["rock"], door=a["door"],
        name=name, points=points, description=description, source=str(doc.path), image=image)


def read_tiled_grid(path: str | Path, *, max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> CaveGrid:
    """Read a ``.tmx`` / ``.tmj`` file into a :class:`CaveGrid`."""
    return tiled_grid(read_tiled(path, max_size=max_size))
