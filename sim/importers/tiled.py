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

Every problem is a :class:`~sim.errors.DataError` naming the file and the layer, tile or key.

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
import json
import math
import warnings
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np
from PIL import Image

from sim.errors import DataError
from sim.grid import CaveGrid
from sim.loaders import UNITS, to_feet
from sim.specs import DEFAULT_MAX_SIZE

# The width and ceiling thresholds of the rules (RULES §2.3 for the sizes' space, height, head,
# shoulders and depth, rounded to the values a designer paints with): the value-tile palette.
PALETTE_FT: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 60.0)

FLIP_BITS = 0xF0000000  # H flip, V flip, diagonal flip, hex 120 degree rotation
GID_MASK = 0x0FFFFFFF
MAX_FILE_BYTES = 64 * 1024 * 1024
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
    """Read a ``.tmx`` or ``.tmj`` (``.json``) file; every problem is one located DataError."""
    path = Path(path)
    raw = _read_bytes(path, "map")
    suffix = path.suffix.lower()
    if suffix == ".tmx":
        return _TmxReader(path, max_size).read(raw)
    if suffix in (".tmj", ".json"):
        return _TmjReader(path, max_size).read(raw)
    raise DataError(f"{path}: not a Tiled map; save it from Tiled as .tmx or .tmj")


def _read_bytes(path: Path, what: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DataError(f"{path}: the {what} file is {size / 2**20:.0f} MB, over the "
                            f"{MAX_FILE_BYTES // 2**20} MB limit; split the map")
        return path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a Tiled {what} file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None


def _prop_value(kind: str, value: Any, where: str) -> Any:
    """A Tiled custom property in Python: int, float, bool; strings, colours, files, objects and
    classes are kept as they are."""
    kind = kind or "string"
    try:
        if kind == "int":
            return int(value)
        if kind == "float":
            v = float(value)
            if not math.isfinite(v):
                raise ValueError
            return v
        if kind == "bool":
            if isinstance(value, bool):
                return value
            if str(value) in ("true", "false"):
                return str(value) == "true"
            raise ValueError
    except (TypeError, ValueError):
        raise DataError(f"{where}: {kind} property value {value!r} is not a valid {kind}; fix it in Tiled") from None
    return value


def _decode_gids(data: bytes, encoding: str, compression: str, n: int, where: str) -> np.ndarray:
    """Base64 (optionally zlib/gzip) layer data -> ``n`` little-endian uint32 GIDs."""
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
        packed = out
    elif compression == "zstd":
        raise DataError(f"{where}: zstd-compressed layer data is not supported (no zstd library is installed); "
                        "in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and save again")
    elif compression:
        raise DataError(f"{where}: unknown compression {compression!r}; use CSV, base64, base64 zlib or base64 gzip")
    if len(packed) != want:
        raise DataError(f"{where}: layer data holds {len(packed) // 4} tiles, the layer needs {n}; re-save the map")
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


def _check_map_header(path: Path, orientation: Any, infinite: Any, cols: Any, rows: Any, tw: Any, th: Any,
                      max_size: tuple[int, int]) -> tuple[int, int, int, int]:
    if orientation != "orthogonal":
        raise DataError(f"{path}: map orientation is {orientation!r}; cavesim squares need an orthogonal map "
                        "(Tiled: Map > Map Properties > Orientation: Orthogonal)")
    if infinite in (True, 1, "1"):
        raise DataError(f"{path}: the map is infinite (its layers are stored in chunks); uncheck Map > Map "
                        "Properties > Infinite in Tiled, which crops it to a fixed size, and save again")
    try:
        cols, rows, tw, th = int(cols), int(rows), int(tw), int(th)
    except (TypeError, ValueError):
        raise DataError(f"{path}: map width, height, tilewidth and tileheight must be whole numbers") from None
    if cols < 1 or rows < 1 or tw < 1 or th < 1:
        raise DataError(f"{path}: map size {cols}x{rows} tiles of {tw}x{th} px: every number must be >= 1")
    if cols > max_size[0] or rows > max_size[1]:
        raise DataError(f"{path}: map is {cols}x{rows} squares, over the limit of {max_size[0]}x{max_size[1]}; "
                        "split the map or raise the limit with --max-map-size")
    return cols, rows, tw, th


class _TmxReader:
    def __init__(self, path: Path, max_size: tuple[int, int]):
        self.path = path
        self.max_size = max_size

    def _parse(self, raw: bytes, path: Path, what: str) -> ET.Element:
        try:
            return ET.fromstring(raw)
        except ET.ParseError as exc:
            raise DataError(f"{path}: not a valid {what} XML file ({exc}); re-save it from Tiled") from None

    def props(self, el: ET.Element, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in el.findall("./properties/property"):
            name = p.get("name", "")
            value = p.get("value")
            if value is None:
                value = p.text or ""
            out[name] = _prop_value(p.get("type", "string"), value, f"{where} property {name!r}")
        return out

    def read(self, raw: bytes) -> TiledDoc:
        root = self._parse(raw, self.path, "TMX")
        if root.tag != "map":
            raise DataError(f"{self.path}: the root element is <{root.tag}>, not <map>; is this a Tiled map?")
        cols, rows, tw, th = _check_map_header(
            self.path, root.get("orientation"), root.get("infinite", "0"), root.get("width"), root.get("height"),
            root.get("tilewidth"), root.get("tileheight"), self.max_size)
        self.cols, self.rows = cols, rows
        tilesets = tuple(self.tileset(ts) for ts in root.findall("tileset"))
        layers: list[TileLayer] = []
        objects: list[MapObject] = []
        self.pictures: list[tuple[str, str]] = []
        self.walk(root, layers, objects)
        return TiledDoc(self.path, cols, rows, tw, th, self.props(root, f"{self.path}: map"), tilesets,
                        tuple(layers), tuple(objects), tuple(self.pictures))

    def walk(self, el: ET.Element, layers: list, objects: list) -> None:
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
                self.walk(child, layers, objects)

    def tileset(self, el: ET.Element) -> Tileset:
        try:
            firstgid = int(el.get("firstgid", ""))
        except ValueError:
            raise DataError(f"{self.path}: a <tileset> has no whole-number firstgid; re-save the map") from None
        source = el.get("source")
        if source:
            ext = self.path.parent / source
            if not ext.exists():
                raise DataError(f"{self.path}: external tileset {source!r} not found (looked for {ext}); "
                                "put the tileset file beside the map or embed it (Tiled: Embed Tileset)")
            raw = _read_bytes(ext, "tileset")
            if ext.suffix.lower() in (".tsj", ".json"):
                return _TmjReader(self.path, self.max_size).tileset_obj(_json(raw, ext), firstgid, f"{self.path} ({source})")
            tel = self._parse(raw, ext, "TSX tileset")
            if tel.tag != "tileset":
                raise DataError(f"{ext}: the root element is <{tel.tag}>, not <tileset>")
            return self.tileset_el(tel, firstgid, f"{self.path} ({source})")
        return self.tileset_el(el, firstgid, str(self.path))

    def tileset_el(self, el: ET.Element, firstgid: int, where: str) -> Tileset:
        name = el.get("name", "")
        tiles: dict[int, dict[str, Any]] = {}
        for t in el.findall("tile"):
            try:
                tid = int(t.get("id", ""))
            except ValueError:
                raise DataError(f"{where}: tileset {name!r} has a <tile> without a whole-number id") from None
            tiles[tid] = self.props(t, f"{where}: tileset {name!r} tile {tid}")
        try:
            count = int(el.get("tilecount", "0"))
        except ValueError:
            count = 0
        return Tileset(firstgid, name, count, tiles, where)

    def layer(self, el: ET.Element) -> TileLayer:
        name = el.get("name", "")
        where = f"{self.path}: layer {name!r}"
        try:
            w, h = int(el.get("width", "")), int(el.get("height", ""))
        except ValueError:
            raise DataError(f"{where}: width and height must be whole numbers") from None
        if (w, h) != (self.cols, self.rows):
            raise DataError(f"{where}: is {w}x{h} tiles but the map is {self.cols}x{self.rows}; "
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
                raise DataError(f"{where}: CSV data cannot be compressed ({comp!r}); re-save the map")
            text = (data.text or "").strip().rstrip(",")
            count = text.count(",") + 1 if text else 0
            if count != n:
                raise DataError(f"{where}: CSV layer data holds {count} tiles, the layer needs {n}")
            arr = _csv_ints(text, n)
            if arr is None:
                raise DataError(f"{where}: CSV layer data holds a value that is not a whole number")
            if (arr < 0).any() or (arr > 0xFFFFFFFF).any():
                raise DataError(f"{where}: CSV layer data holds a GID outside 0..4294967295")
            gids = arr.astype(np.uint32)
        elif enc == "base64":
            gids = _decode_gids((data.text or "").encode("ascii", "replace"), enc, comp, n, where)
        elif enc == "":
            tiles = data.findall("tile")
            if len(tiles) != n:
                raise DataError(f"{where}: XML layer data holds {len(tiles)} tiles, the layer needs {n}")
            try:
                gids = np.array([int(t.get("gid", "0")) for t in tiles], dtype=np.int64).astype(np.uint32)
            except ValueError:
                raise DataError(f"{where}: a <tile gid> is not a whole number") from None
        else:
            raise DataError(f"{where}: unknown layer encoding {enc!r}; use CSV or base64")
        return TileLayer(name, gids.reshape(h, w))

    def objects(self, el: ET.Element) -> list[MapObject]:
        group = el.get("name", "")
        out = []
        for o in el.findall("object"):
            name = o.get("name", "")
            try:
                x, y = float(o.get("x", "0")), float(o.get("y", "0"))
                w, h = float(o.get("width", "0")), float(o.get("height", "0"))
            except ValueError:
                raise DataError(f"{self.path}: object layer {group!r} object {name!r}: x, y, width, height "
                                "must be numbers") from None
            if not name or o.get("gid") is not None or o.find("polygon") is not None or o.find("polyline") is not None:
                continue  # unnamed objects, tile objects and shapes are decoration, not points
            if o.find("point") is None:
                x, y = x + w / 2, y + h / 2
            out.append(MapObject(name, x, y, group))
        return out


def _json(raw: bytes, path: Path) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(f"{path}: not UTF-8 text; re-save it from Tiled") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); "
                        "re-save it from Tiled") from None


class _TmjReader:
    def __init__(self, path: Path, max_size: tuple[int, int]):
        self.path = path
        self.max_size = max_size

    def props(self, obj: Mapping[str, Any], where: str) -> dict[str, Any]:
        raw = obj.get("properties", [])
        if not isinstance(raw, list):
            raise DataError(f"{where}: properties must be a list of {{name, type, value}}")
        out: dict[str, Any] = {}
        for p in raw:
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise DataError(f"{where}: a property has no name")
            out[p["name"]] = _prop_value(p.get("type", "string"), p.get("value"), f"{where} property {p['name']!r}")
        return out

    def read(self, raw: bytes) -> TiledDoc:
        doc = _json(raw, self.path)
        if not isinstance(doc, dict) or "layers" not in doc:
            raise DataError(f"{self.path}: not a Tiled JSON map (no \"layers\"); export it from Tiled as JSON")
        cols, rows, tw, th = _check_map_header(
            self.path, doc.get("orientation"), doc.get("infinite", False), doc.get("width"), doc.get("height"),
            doc.get("tilewidth"), doc.get("tileheight"), self.max_size)
        self.cols, self.rows = cols, rows
        tilesets = []
        for ts in doc.get("tilesets", []) or []:
            if not isinstance(ts, dict) or not isinstance(ts.get("firstgid"), int):
                raise DataError(f"{self.path}: a tileset has no whole-number firstgid; re-save the map")
            src = ts.get("source")
            if src:
                ext = self.path.parent / src
                if not ext.exists():
                    raise DataError(f"{self.path}: external tileset {src!r} not found (looked for {ext}); "
                                    "put the tileset file beside the map or embed it (Tiled: Embed Tileset)")
                raw_ts = _read_bytes(ext, "tileset")
                where = f"{self.path} ({src})"
                if ext.suffix.lower() == ".tsx":
                    tr = _TmxReader(self.path, self.max_size)
                    tel = tr._parse(raw_ts, ext, "TSX tileset")
                    tilesets.append(tr.tileset_el(tel, ts["firstgid"], where))
                else:
                    tilesets.append(self.tileset_obj(_json(raw_ts, ext), ts["firstgid"], where))
            else:
                tilesets.append(self.tileset_obj(ts, ts["firstgid"], str(self.path)))
        layers: list[TileLayer] = []
        objects: list[MapObject] = []
        self.pictures: list[tuple[str, str]] = []
        self.walk(doc.get("layers") or [], layers, objects)
        return TiledDoc(self.path, cols, rows, tw, th, self.props(doc, f"{self.path}: map"), tuple(tilesets),
                        tuple(layers), tuple(objects), tuple(self.pictures))

    def tileset_obj(self, ts: Any, firstgid: int, where: str) -> Tileset:
        if not isinstance(ts, dict):
            raise DataError(f"{where}: a tileset must be a JSON object")
        name = str(ts.get("name", ""))
        tiles: dict[int, dict[str, Any]] = {}
        for t in ts.get("tiles", []) or []:
            if not isinstance(t, dict) or not isinstance(t.get("id"), int):
                raise DataError(f"{where}: tileset {name!r} has a tile without a whole-number id")
            tiles[t["id"]] = self.props(t, f"{where}: tileset {name!r} tile {t['id']}")
        count = ts.get("tilecount", 0)
        return Tileset(firstgid, name, count if isinstance(count, int) else 0, tiles, where)

    def walk(self, items: list, layers: list, objects: list) -> None:
        for lay in items:
            if not isinstance(lay, dict):
                raise DataError(f"{self.path}: a layer must be a JSON object")
            kind = lay.get("type")
            if kind == "tilelayer":
                layers.append(self.layer(lay))
            elif kind == "objectgroup":
                objects.extend(self.objects(lay))
            elif kind == "imagelayer":
                if isinstance(lay.get("image"), str) and lay["image"]:
                    self.pictures.append((str(lay.get("name", "")), lay["image"]))
            elif kind == "group":
                self.walk(lay.get("layers") or [], layers, objects)

    def layer(self, lay: dict) -> TileLayer:
        name = str(lay.get("name", ""))
        where = f"{self.path}: layer {name!r}"
        if "chunks" in lay:
            raise DataError(f"{where}: layer data is stored in chunks (an infinite map); uncheck Map > Map "
                            "Properties > Infinite in Tiled and save again")
        w, h = lay.get("width"), lay.get("height")
        if (w, h) != (self.cols, self.rows):
            raise DataError(f"{where}: is {w}x{h} tiles but the map is {self.cols}x{self.rows}; "
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
                got = len(data) if isinstance(data, list) else type(data).__name__
                raise DataError(f"{where}: layer data must be a list of {n} GIDs, got {got}")
            try:
                arr = np.array(data)
            except (ValueError, TypeError):
                arr = np.array([], dtype=object)
            if arr.shape != (n,) or arr.dtype.kind not in "iu" or (n and (arr.min() < 0 or arr.max() > 0xFFFFFFFF)):
                raise DataError(f"{where}: layer data holds a value that is not a GID (a whole number 0..4294967295)")
            gids = arr.astype(np.uint32)
        else:
            raise DataError(f"{where}: unknown layer encoding {enc!r}; use CSV or base64")
        return TileLayer(name, gids.reshape(h, w))

    def objects(self, lay: dict) -> list[MapObject]:
        group = str(lay.get("name", ""))
        out = []
        for o in lay.get("objects", []) or []:
            if not isinstance(o, dict):
                continue
            name = o.get("name") or ""
            if not name or "gid" in o or "polygon" in o or "polyline" in o:
                continue
            x, y, w, h = (o.get(k, 0) for k in ("x", "y", "width", "height"))
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y, w, h)):
                raise DataError(f"{self.path}: object layer {group!r} object {name!r}: x, y, width, height "
                                "must be numbers")
            if not o.get("point"):
                x, y = x + w / 2, y + h / 2
            out.append(MapObject(str(name), float(x), float(y), group))
        return out


# =================================================================================================
# Giving the tiles their cavesim meaning
# =================================================================================================


def tile_lut(doc: TiledDoc, layer: TileLayer) -> tuple[np.ndarray, np.ndarray, list[tuple[Tileset | None, int]]]:
    """The distinct tiles of a layer: ``(inverse, gids, tiles)`` where ``gids[inverse]`` is the
    layer with its flip bits cleared, and ``tiles[k]`` is (tileset, local id) of ``gids[k]``
    (``(None, 0)`` for the empty GID 0). A GID that belongs to no tileset is refused."""
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
    order = sorted(doc.tilesets, key=lambda t: t.firstgid)
    firsts = np.array([t.firstgid for t in order], dtype=np.int64)
    tiles: list[tuple[Tileset | None, int]] = []
    for g in gids.tolist():
        if g == 0:
            tiles.append((None, 0))
            continue
        k = int(np.searchsorted(firsts, g, side="right")) - 1
        ts = order[k] if k >= 0 else None
        if ts is None or not ts.has(g - ts.firstgid):
            r, c = np.argwhere(clean == g)[0]
            raise DataError(f"{doc.path}: layer {layer.name!r} square ({int(c)}, {int(r)}): GID {g} belongs to no "
                            f"tileset (the map's tilesets start at {', '.join(str(t.firstgid) for t in order) or 'none'}); "
                            "a tileset was removed or shortened; re-add it or erase those tiles")
        tiles.append((ts, g - ts.firstgid))
    return inverse, gids, tiles


def _first_square(inverse: np.ndarray, k: int) -> tuple[int, int]:
    r, c = np.argwhere(inverse == k)[0]
    return int(c), int(r)


def _tile_name(ts: Tileset, local: int) -> str:
    return f"tile {local} of tileset {ts.name!r}"


def _float_prop(doc, layer, inverse, k, ts, local, key, units, *, required=True) -> float | None:
    props = ts.tiles.get(local, {})
    if key not in props:
        if not required:
            return None
        x, y = _first_square(inverse, k)
        raise DataError(f"{ts.where}: layer {layer.name!r} square ({x}, {y}): {_tile_name(ts, local)} has no "
                        f"property {key!r}; give the tile a float property {key!r} (in {units}) in Tiled's "
                        "tileset editor")
    v = props[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {v!r} must be a float (in {units})")
    if not math.isfinite(v) or v < 0:
        raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {v!r} must be a finite number "
                        f">= 0 (0 = rock)")
    return to_feet(v, units)


def _bool_prop(ts: Tileset, local: int, key: str) -> bool | None:
    v = ts.tiles.get(local, {}).get(key)
    if v is None:
        return None
    if not isinstance(v, bool):
        raise DataError(f"{ts.where}: {_tile_name(ts, local)} property {key!r} = {v!r} must be a bool (true/false)")
    return v


def _map_units(doc: TiledDoc) -> str:
    units = doc.properties.get("units", "ft")
    if units not in UNITS:
        raise DataError(f"{doc.path}: map property 'units' = {units!r}; use \"ft\" or \"m\" (a string property)")
    fps = doc.properties.get("feet_per_square")
    if fps is not None:
        if isinstance(fps, bool) or not isinstance(fps, (int, float)):
            raise DataError(f"{doc.path}: map property 'feet_per_square' = {fps!r} must be a number")
        if abs(to_feet(fps, units) - SQUARE_FT) > 1e-9:
            raise DataError(f"{doc.path}: map property 'feet_per_square' = {fps!r} ({units}): cavesim squares are "
                            f"5 ft (1.5 m), the squares of the rules; draw the map on a 5-ft grid")
    return units


def _layers_by_name(doc: TiledDoc) -> dict[str, TileLayer]:
    out: dict[str, TileLayer] = {}
    for lay in doc.layers:
        if lay.name in out:
            raise DataError(f"{doc.path}: two tile layers are named {lay.name!r}; rename one")
        out[lay.name] = lay
    return out


def _value_layer(doc: TiledDoc, layer: TileLayer, units: str) -> np.ndarray:
    inverse, gids, tiles = tile_lut(doc, layer)
    lut = np.zeros(len(gids), dtype=np.float64)
    for k, (ts, local) in enumerate(tiles):
        if ts is not None:
            lut[k] = _float_prop(doc, layer, inverse, k, ts, local, "ft", units)
    return lut[inverse]


def _flag_layer(doc: TiledDoc, layer: TileLayer, key: str) -> np.ndarray:
    inverse, gids, tiles = tile_lut(doc, layer)
    lut = np.zeros(len(gids), dtype=bool)
    for k, (ts, local) in enumerate(tiles):
        if ts is not None:
            v = _bool_prop(ts, local, key)
            lut[k] = True if v is None else v
    return lut[inverse]


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
                raise DataError(f"{doc.path}: tile layers {', '.join(repr(l.name) for l in candidates)}: name the "
                                f"terrain layer {SEMANTIC_LAYER!r}, or use layers width_ft and height_ft (value tiles)")
            layer = by_name[SEMANTIC_LAYER]
        else:
            layer = candidates[0]
        inverse, gids, tiles = tile_lut(doc, layer)
        n = len(gids)
        lw, lh, ld, lr = np.zeros(n), np.zeros(n), np.zeros(n, bool), np.ones(n, bool)
        for k, (ts, local) in enumerate(tiles):
            if ts is None:
                continue
            if _bool_prop(ts, local, "rock"):
                continue
            lw[k] = _float_prop(doc, layer, inverse, k, ts, local, "width_ft", units)
            lh[k] = _float_prop(doc, layer, inverse, k, ts, local, "height_ft", units)
            ld[k] = bool(_bool_prop(ts, local, "difficult"))
            lr[k] = False
        w, h, d, empty = lw[inverse], lh[inverse], ld[inverse], lr[inverse]
    door = _flag_layer(doc, by_name[DOOR_LAYER], "door") if DOOR_LAYER in by_name else np.zeros(shape, bool)
    rock = empty | (w <= 0) | (h <= 0) | door   # a closed door is rock for movement (SCHEMA: door)
    w = np.where(rock, 0.0, w)
    h = np.where(rock, 0.0, h)
    return {"width_ft": w, "height_ft": h, "difficult": d & ~rock, "rock": rock, "door": door}


def tiled_points(doc: TiledDoc, rock: np.ndarray) -> dict[str, tuple[int, int]]:
    """Named point objects -> ``{name: (x, y)}`` squares; each must be on a floor square."""
    points: dict[str, tuple[int, int]] = {}
    for o in doc.objects:
        x, y = math.floor(o.x / doc.tilewidth), math.floor(o.y / doc.tileheight)
        where = f"{doc.path}: object layer {o.layer!r} point {o.name!r}"
        if not (0 <= x < doc.cols and 0 <= y < doc.rows):
            raise DataError(f"{where}: at pixel ({o.x:g}, {o.y:g}) = square ({x}, {y}), off the "
                            f"{doc.cols}x{doc.rows} map; move it onto the map")
        if rock[y, x]:
            raise DataError(f"{where}: square ({x}, {y}) is rock (an empty or rock tile); move it onto a floor square")
        if o.name in points:
            raise DataError(f"{where}: two points are named {o.name!r}; names must be unique")
        points[o.name] = (x, y)
    return points


def tiled_picture(doc: TiledDoc) -> Path | None:
    """The image layer named ``picture``: the map's floor picture (PNG or WebP covering the map
    exactly, square for square), or None when there is none."""
    named = [src for name, src in doc.pictures if name == PICTURE_LAYER]
    if not named:
        return None
    where = f"{doc.path}: image layer {PICTURE_LAYER!r}"
    img = (doc.path.parent / named[0]).resolve()
    if img.suffix.lower() not in (".png", ".webp"):
        raise DataError(f"{where}: {named[0]!r} is not a PNG or WebP picture; convert it, or rename the layer "
                        "to keep it out of the import")
    if not img.is_file():
        raise DataError(f"{where}: {img} not found; put the picture beside the map or rename the layer")
    try:
        with Image.open(img) as im:
            w, h = im.size
    except (OSError, ValueError) as exc:
        raise DataError(f"{where}: {img} cannot be read ({exc})") from None
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
    return CaveGrid.from_arrays(
        a["width_ft"], a["height_ft"], difficult=a["difficult"], rock=a["rock"], door=a["door"],
        name=name if isinstance(name, str) and name else doc.path.stem,
        points=points, description=str(doc.properties.get("description", "")), source=str(doc.path), image=image)


def read_tiled_grid(path: str | Path, *, max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> CaveGrid:
    """Read a ``.tmx`` / ``.tmj`` file into a :class:`CaveGrid`."""
    return tiled_grid(read_tiled(path, max_size=max_size))
