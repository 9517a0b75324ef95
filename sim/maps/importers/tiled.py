"""Tiled maps (mapeditor.org) into cavesim: TMX (XML) and TMJ (JSON), DESIGN §6 ``cavesim import``.

The file is read by :mod:`sim.maps.importers.tiledfile` (TMX or TMJ -> :class:`TiledDoc`); here
the tiles get their meaning through a numpy lookup table from global tile ids (GIDs) to values:
a whole layer becomes an array of feet with one fancy index (STYLE habit 3), so a 4096 x 4096
layer takes well under a second.

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
``door`` marks closed doors; optional layers ``edge_e`` and ``edge_s`` mark walls between squares
(on each marked square's east or south edge, docs/rules.md §6.8), ``edge_door_e`` and
``edge_door_s`` closed doors on edges; an image layer named ``picture`` is the map's floor picture.

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

import io
import math
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import MAX_STRING_CHARS, read_input
from sim.maps.importers.tiledfile import (GID_MASK, MAX_FILE_BYTES, TiledDoc, TileLayer, Tileset,
                                          read_tiled)
from sim.maps.layers import MAX_LENGTH, number
from sim.maps.limits import DEFAULT_MAX_SIZE
from sim.maps.read import UNITS, to_feet
from sim.terrain.grid import CaveGrid

# The width and ceiling thresholds of the rules (RULES §2.3 for the sizes' space, height, head,
# shoulders and depth, rounded to the values a designer paints with): the value-tile palette.
PALETTE_FT: tuple[float, ...] = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 60.0)

MAX_PICTURE_PIXELS = 64_000_000        # the floor picture (an image layer named "picture"): 8000 x 8000
MAX_NAME_CHARS = 100                   # a point's or the map's name
SQUARE_FT = 5.0
VALUE_LAYERS = ("width_ft", "height_ft")
DIFFICULT_LAYER = "difficult"
DOOR_LAYER = "door"
EDGE_WALL_LAYERS = ("edge_e", "edge_s")            # walls on each square's east / south edge (§6.8)
EDGE_DOOR_LAYERS = ("edge_door_e", "edge_door_s")  # closed doors on those edges
FLAG_LAYERS = (DOOR_LAYER, *EDGE_WALL_LAYERS, *EDGE_DOOR_LAYERS)
SEMANTIC_LAYER = "terrain"
PICTURE_LAYER = "picture"


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
    """``width_ft``, ``height_ft``, ``difficult``, ``rock``, ``door`` arrays of a Tiled map (feet),
    and the edge layers (:data:`EDGE_WALL_LAYERS`, :data:`EDGE_DOOR_LAYERS`; None when absent)."""
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
        candidates = [lay for lay in doc.layers if lay.name not in FLAG_LAYERS]
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
    out = {"width_ft": w, "height_ft": h, "difficult": d & ~rock, "rock": rock, "door": door}
    for name in (*EDGE_WALL_LAYERS, *EDGE_DOOR_LAYERS):
        out[name] = _flag_layer(doc, by_name[name], name) if name in by_name else None
    return out


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
    r"""The width and height a PNG, WebP or JPEG file declares in its header, read without Pillow
    (so nothing is decoded before the size is checked); None when the header is none of them.

    >>> _declared_size(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (100000).to_bytes(4, "big") * 2)
    (100000, 100000)
    >>> _declared_size(b"\xff\xd8\xff\xe0\x00\x04ab\xff\xc0\x00\x11\x08\x0d\x80\x18\x00")
    (6144, 3456)
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
    if raw[:2] == b"\xff\xd8":
        return _jpeg_size(raw)
    return None


def _jpeg_size(raw: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's first frame header (SOF0-SOF15 but DHT, JPG and DAC), found by walking
    the marker segments (a bounded walk: each step moves forward); None if there is none."""
    i = 2
    while i + 4 <= len(raw) and raw[i] == 0xFF:
        marker = raw[i + 1]
        if marker == 0xFF:            # fill byte
            i += 1
            continue
        if 0xD0 <= marker <= 0xD9 or marker == 0x01:   # no length
            i += 2
            continue
        length = struct.unpack(">H", raw[i + 2:i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(raw):
                return None
            h, w = struct.unpack(">HH", raw[i + 5:i + 9])
            return w, h
        if length < 2:
            return None
        i += 2 + length
    return None


def tiled_picture(doc: TiledDoc) -> Path | None:
    """The image layer named ``picture``: the map's floor picture (PNG, WebP or JPEG covering the map
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
    if img.suffix.lower() not in (".png", ".webp", ".jpg", ".jpeg"):
        raise DataError(f"{where}: {shorten(named[0])} is not a PNG, WebP or JPEG picture; convert it, or rename the "
                        "layer to keep it out of the import")
    try:
        raw = read_input(img, what="picture", limit=MAX_FILE_BYTES)
    except DataError as exc:
        raise DataError(f"{where}: {exc}; put the picture beside the map or rename the layer") from None
    size = _declared_size(raw)
    if size is None:
        raise DataError(f"{where}: {img} is not a PNG, WebP or JPEG picture (its header is none of them); save it as "
                        "PNG, or rename the layer to keep it out of the import")
    w, h = size
    if w * h > MAX_PICTURE_PIXELS:
        raise DataError(f"{where}: {img} declares {w:,}x{h:,} px, over the {MAX_PICTURE_PIXELS // 10**6} million "
                        "pixel limit of a floor picture; scale it down (and the map's tile size with it), or rename "
                        "the layer to keep it out of the import")
    try:
        with Image.open(io.BytesIO(raw), formats=("PNG", "WEBP", "JPEG")) as im:
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
        edges=tuple(a[n] for n in EDGE_WALL_LAYERS), edge_doors=tuple(a[n] for n in EDGE_DOOR_LAYERS), name=name, points=points, description=description, source=str(doc.path), image=image)


def read_tiled_grid(path: str | Path, *, max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> CaveGrid:
    """Read a ``.tmx`` / ``.tmj`` file into a :class:`CaveGrid`."""
    return tiled_grid(read_tiled(path, max_size=max_size))
