"""Tiled files (mapeditor.org) as they are: TMX (XML) and TMJ (JSON) read into a :class:`TiledDoc`
(tilesets, tile layers as arrays of global tile ids, named objects, image layers), before
:mod:`sim.maps.importers.tiled` gives the tiles their cavesim meaning.

Read with the standard library (``xml.etree`` and ``json``): pytmx reads TMX only and is LGPL;
pytiled-parser reads both but builds one Python object per tile. Bounded before any work (file
sizes, JSON depth, nested groups, every number range-checked); every problem is a
:class:`~sim.base.errors.DataError` naming the file and the layer, tile or key.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import re
import warnings
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import read_input
from sim.maps.layers import number
from sim.maps.limits import DEFAULT_MAX_SIZE

FLIP_BITS = 0xF0000000  # H flip, V flip, diagonal flip, hex 120 degree rotation
GID_MASK = 0x0FFFFFFF
MAX_FILE_BYTES = 64 * 1024 * 1024      # the map, an external tileset, the picture (and all tilesets together)
MAX_JSON_DEPTH = 100                   # arrays and objects nested in a TMJ / TSJ file
MAX_GROUP_DEPTH = 32                   # group layers nested in group layers
MAX_TILE_PX = 10_000                   # a tile's side in pixels
MAX_OBJECT_PX = 1e9                    # an object's x, y, width or height, either way (pixels)
MAX_TILESETS = 10_000                  # tilesets in one map (embedded or external)


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
