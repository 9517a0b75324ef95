"""A cavesim map out to Tiled (``cavesim export MAP --to tiled OUT.tmx|OUT.tmj``).

Written in the *value tiles* style that :mod:`sim.maps.importers.tiled` reads, so a designer can keep
painting in Tiled and import the map again with exactly the same arrays:

* tile layers ``width_ft`` and ``height_ft`` (GID 0 = rock), ``difficult`` and, when the map has
  closed doors, ``door``; when it has walls between squares (docs/rules.md §6.8), ``edge_e`` and
  ``edge_s`` (a tile marks a wall on the square's east or south edge) and ``edge_door_e`` and
  ``edge_door_s`` for the closed doors on edges (drawn with the door tile); an object layer ``points`` with one point object per named point;
* when the map has a floor picture (``[map] image``), a copy ``OUT-picture.png`` under the tiles
  as an image layer ``picture``, the tiles at the picture's scale so they lie on its squares;
* one embedded tileset ``cavesim-values``: a tile per value (the palette at the rule thresholds,
  :data:`~sim.maps.importers.tiled.PALETTE_FT`, plus every other value the map holds), each with the
  float property ``ft``, then a ``difficult`` tile and a ``door`` tile. Its picture, a sibling
  ``OUT-tiles.png``, shows each value as a number on a colour from dark (tight) to light (wide).

Lengths are written in feet (map property ``units = "ft"``, ``feet_per_square = 5``); a float is
written with Python's shortest round-trip repr, so it reads back bit for bit. The TMX layers are
CSV, the TMJ layers plain arrays: both diff well in version control.
"""

from __future__ import annotations

import io
import json
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from sim.base.errors import DataError
from sim.base.fileio import atomic_path
from sim.maps.importers.tiled import EDGE_DOOR_LAYERS, EDGE_WALL_LAYERS, PALETTE_FT, PICTURE_LAYER
from sim.terrain.grid import CaveGrid

TILE_PX = 32
MIN_TILE, MAX_TILE = 8, 256   # a floor picture's scale the tiles may take
MAX_VALUES = 4096
TILESET_NAME = "cavesim-values"
TILES_COLUMNS = 16


@dataclass(frozen=True, slots=True)
class TilesetPlan:
    """Which tile stands for what: ``values[k]`` is local id ``k``; then difficult, then door."""

    values: tuple[float, ...]

    @property
    def difficult_id(self) -> int:
        return len(self.values)

    @property
    def door_id(self) -> int:
        return len(self.values) + 1

    @property
    def count(self) -> int:
        return len(self.values) + 2


def plan_tileset(grid: CaveGrid) -> TilesetPlan:
    """The palette plus every other floor value of ``grid``, sorted."""
    floor = ~grid.rock
    present = np.unique(np.concatenate([grid.width_ft[floor], grid.height_ft[floor]]))
    values = sorted(set(PALETTE_FT) | {float(v) for v in present.tolist() if v > 0})
    if len(values) > MAX_VALUES:
        raise DataError(f"{grid.source or grid.name}: the map holds {len(values)} different widths and ceilings, "
                        f"over the {MAX_VALUES} tiles a Tiled export makes; give --round to round them down to the "
                        "palette (no square becomes wider or higher)")
    return TilesetPlan(tuple(values))


def round_down(grid: CaveGrid) -> CaveGrid:
    """Widths and ceilings rounded *down* to the palette (:data:`PALETTE_FT`); below its
    smallest value they stay as they are, above its largest they go down to a multiple of 10 ft.
    Rounding down never makes a square wider or higher, so no category gets milder (RULES §2.3).

    >>> g = CaveGrid.from_arrays([[0.1, 2.4, 7.4, 75.0]], [[12.9, 3.9, 8.0, 100.0]])
    >>> r = round_down(g)
    >>> r.width_ft.tolist(), r.height_ft.tolist()
    ([[0.1, 2.0, 5.0, 70.0]], [[10.0, 3.0, 7.5, 100.0]])
    """
    pal = np.array(PALETTE_FT)

    def down(a: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(pal, a, side="right") - 1
        out = np.where(idx >= 0, pal[np.maximum(idx, 0)], a)
        return np.where(a > pal[-1], np.floor(a / 10.0) * 10.0, out)

    return grid.replace(width_ft=np.where(grid.rock, 0.0, down(grid.width_ft)),
                        height_ft=np.where(grid.rock, 0.0, down(grid.height_ft)), glyphs=None, legend={})


def layer_gids(grid: CaveGrid, plan: TilesetPlan, *, firstgid: int = 1) -> dict[str, np.ndarray]:
    """The GID arrays [row, col] of every layer (a sorted-value lookup, vectorised)."""
    vals = np.array(plan.values)
    out = {}
    for name, arr in (("width_ft", grid.width_ft), ("height_ft", grid.height_ft)):
        idx = np.searchsorted(vals, arr)
        idx = np.minimum(idx, len(vals) - 1)
        gids = (idx + firstgid).astype(np.uint32)
        assert np.all((vals[idx] == arr) | grid.rock), "every floor value is in the tileset"
        out[name] = np.where(grid.rock, np.uint32(0), gids)
    out["difficult"] = np.where(grid.difficult & ~grid.rock, np.uint32(plan.difficult_id + firstgid), np.uint32(0))
    if grid.door is not None and grid.door.any():
        out["door"] = np.where(grid.door, np.uint32(plan.door_id + firstgid), np.uint32(0))
    door_gid = np.uint32(plan.door_id + firstgid)
    for (east, south), layer in ((EDGE_WALL_LAYERS, grid.edges), (EDGE_DOOR_LAYERS, grid.edge_doors)):
        if layer is not None:   # walls between squares (docs/rules.md §6.8): any tile marks the edge
            out[east] = np.where(layer.east, door_gid, np.uint32(0))
            out[south] = np.where(layer.south, door_gid, np.uint32(0))
    return out


def _value_colour(v: float) -> tuple[int, int, int]:
    """Dark red-brown for a tight value, pale sand for a wide one (log scale, 0.25..60 ft)."""
    t = (math.log(max(v, 0.25)) - math.log(0.25)) / (math.log(60) - math.log(0.25))
    t = min(max(t, 0.0), 1.0)
    lo, hi = np.array((90, 30, 40)), np.array((230, 214, 170))
    c = lo + (hi - lo) * t
    return int(c[0]), int(c[1]), int(c[2])


def tile_labels(values: tuple[float, ...]) -> list[str]:
    """The number written on each value tile: 3 significant digits, more where two values would
    otherwise read the same (4.99 and 5 are "4.99" and "5", not "5" twice).

    >>> tile_labels((2.5, 4.994, 5.0, 12.3456))
    ['2.5', '4.99', '5', '12.3']
    """
    out = []
    for i, v in enumerate(values):
        for digits in range(3, 8):
            text = f"{v:.{digits}g}"
            near = [values[j] for j in (i - 1, i + 1) if 0 <= j < len(values)]
            if all(f"{u:.{digits}g}" != text for u in near):
                break
        out.append(text)
    return out


def tileset_png(plan: TilesetPlan, tile: int = TILE_PX) -> bytes:
    """The tileset picture: one ``tile`` x ``tile`` tile per value with the value written on it,
    then a hatched difficult tile and a door tile."""
    n = plan.count
    cols = min(TILES_COLUMNS, n)
    rows = math.ceil(n / cols)
    img = Image.new("RGBA", (cols * tile, rows * tile), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=max(9, tile // 3))
    labels = tile_labels(plan.values)
    for k in range(n):
        x0, y0 = (k % cols) * tile, (k // cols) * tile
        box = (x0, y0, x0 + tile - 1, y0 + tile - 1)
        if k < len(plan.values):
            v = plan.values[k]
            c = _value_colour(v)
            draw.rectangle(box, fill=c + (255,), outline=(20, 18, 18, 255))
            ink = (0, 0, 0, 255) if sum(c) > 380 else (255, 255, 255, 255)
            text = labels[k]
            small = font if draw.textlength(text, font=font) <= tile - 2 else ImageFont.load_default(size=max(8, tile // 4))
            tw = draw.textlength(text, font=small)
            draw.text((x0 + (tile - tw) / 2, y0 + tile * 0.3), text, fill=ink, font=small)
        elif k == plan.difficult_id:
            for d in range(-tile, tile, max(6, tile // 5)):
                draw.line((x0 + d, y0 + tile - 1, x0 + d + tile - 1, y0), fill=(150, 110, 60, 220), width=2)
            draw.rectangle(box, outline=(150, 110, 60, 255))
        else:
            u = tile / 32
            draw.rectangle((x0 + 4 * u, y0 + 2 * u, x0 + tile - 5 * u, y0 + tile - 3 * u), fill=(120, 72, 36, 255),
                           outline=(60, 36, 18, 255), width=max(1, round(2 * u)))
            draw.ellipse((x0 + tile - 12 * u, y0 + 14 * u, x0 + tile - 8 * u, y0 + 18 * u), fill=(230, 200, 90, 255))
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def _num(v: float) -> str:
    return repr(float(v))


def _tile_props(plan: TilesetPlan) -> list[tuple[int, str, str, str]]:
    """(local id, property, type, value) for every tile of the tileset."""
    out = [(k, "ft", "float", _num(v)) for k, v in enumerate(plan.values)]
    out.append((plan.difficult_id, "difficult", "bool", "true"))
    out.append((plan.door_id, "door", "bool", "true"))
    return out


def _map_props(grid: CaveGrid) -> list[tuple[str, str, str]]:
    props = [("feet_per_square", "float", "5.0"), ("units", "string", "ft")]
    if grid.name:
        props.append(("name", "string", grid.name))
    if grid.description:
        props.append(("description", "string", grid.description))
    return sorted(props)


def tmx_text(grid: CaveGrid, plan: TilesetPlan, image_name: str, *, tile: int = TILE_PX,
             picture: tuple[str, int, int] | None = None) -> str:
    """The TMX document (XML, CSV layers); ``picture``: (file, width, height) of the map's floor
    picture, drawn under the tiles as an image layer named ``picture``."""
    gids = layer_gids(grid, plan)
    n = plan.count
    cols = min(TILES_COLUMNS, n)
    rows = math.ceil(n / cols)
    root = ET.Element("map", {
        "version": "1.8", "tiledversion": "1.8.2", "orientation": "orthogonal", "renderorder": "right-down",
        "width": str(grid.cols), "height": str(grid.rows), "tilewidth": str(tile), "tileheight": str(tile),
        "infinite": "0", "nextlayerid": str(len(gids) + 3), "nextobjectid": str(len(grid.points) + 1)})
    mp = ET.SubElement(root, "properties")
    for name, kind, value in _map_props(grid):
        ET.SubElement(mp, "property", {"name": name, **({"type": kind} if kind != "string" else {}), "value": value})
    ts = ET.SubElement(root, "tileset", {
        "firstgid": "1", "name": TILESET_NAME, "tilewidth": str(tile), "tileheight": str(tile),
        "tilecount": str(n), "columns": str(cols)})
    ET.SubElement(ts, "image", {"source": image_name, "width": str(cols * tile), "height": str(rows * tile)})
    for local, name, kind, value in _tile_props(plan):
        t = ET.SubElement(ts, "tile", {"id": str(local)})
        tp = ET.SubElement(t, "properties")
        ET.SubElement(tp, "property", {"name": name, "type": kind, "value": value})
    if picture is not None:
        il = ET.SubElement(root, "imagelayer", {"id": str(len(gids) + 2), "name": PICTURE_LAYER, "locked": "1"})
        ET.SubElement(il, "image", {"source": picture[0], "width": str(picture[1]), "height": str(picture[2])})
    for lid, (name, arr) in enumerate(gids.items(), 1):
        attrs = {"id": str(lid), "name": name, "width": str(grid.cols), "height": str(grid.rows)}
        if name == "height_ft":
            attrs["visible"] = "0"
        if name == "difficult" or (picture is not None and name == "width_ft"):
            attrs["opacity"] = "0.6"
        lay = ET.SubElement(root, "layer", attrs)
        data = ET.SubElement(lay, "data", {"encoding": "csv"})
        data.text = "\n" + ",\n".join(",".join(str(v) for v in row) for row in arr.tolist()) + "\n"
    og = ET.SubElement(root, "objectgroup", {"id": str(len(gids) + 1), "name": "points"})
    for oid, (pname, (x, y)) in enumerate(grid.points.items(), 1):
        o = ET.SubElement(og, "object", {"id": str(oid), "name": pname,
                                         "x": _num((x + 0.5) * tile), "y": _num((y + 0.5) * tile)})
        ET.SubElement(o, "point")
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def tmj_obj(grid: CaveGrid, plan: TilesetPlan, image_name: str, *, tile: int = TILE_PX,
            picture: tuple[str, int, int] | None = None) -> dict:
    """The TMJ document (JSON, array layers); ``picture`` as for :func:`tmx_text`."""
    gids = layer_gids(grid, plan)
    n = plan.count
    cols = min(TILES_COLUMNS, n)
    rows = math.ceil(n / cols)

    def prop(name, kind, value):
        v = float(value) if kind == "float" else (value == "true" if kind == "bool" else value)
        return {"name": name, "type": kind, "value": v}

    layers = []
    if picture is not None:
        layers.append({"id": len(gids) + 2, "name": PICTURE_LAYER, "type": "imagelayer", "x": 0, "y": 0,
                       "opacity": 1, "visible": True, "locked": True, "image": picture[0]})
    for lid, (name, arr) in enumerate(gids.items(), 1):
        faint = name == "difficult" or (picture is not None and name == "width_ft")
        layers.append({"id": lid, "name": name, "type": "tilelayer", "x": 0, "y": 0,
                       "width": grid.cols, "height": grid.rows, "opacity": 0.6 if faint else 1,
                       "visible": name != "height_ft", "data": arr.reshape(-1).tolist()})
    layers.append({"id": len(gids) + 1, "name": "points", "type": "objectgroup", "x": 0, "y": 0, "opacity": 1,
                   "visible": True, "draworder": "topdown",
                   "objects": [{"id": oid, "name": pname, "type": "", "point": True, "rotation": 0, "visible": True,
                                "x": (x + 0.5) * tile, "y": (y + 0.5) * tile, "width": 0, "height": 0}
                               for oid, (pname, (x, y)) in enumerate(grid.points.items(), 1)]})
    return {
        "type": "map", "version": "1.8", "tiledversion": "1.8.2", "orientation": "orthogonal",
        "renderorder": "right-down", "infinite": False, "width": grid.cols, "height": grid.rows,
        "tilewidth": tile, "tileheight": tile, "compressionlevel": -1,
        "nextlayerid": len(gids) + 3, "nextobjectid": len(grid.points) + 1,
        "properties": [prop(*p) for p in _map_props(grid)],
        "tilesets": [{"firstgid": 1, "name": TILESET_NAME, "tilewidth": tile, "tileheight": tile,
                      "tilecount": n, "columns": cols, "margin": 0, "spacing": 0, "image": image_name,
                      "imagewidth": cols * tile, "imageheight": rows * tile,
                      "tiles": [{"id": local, "properties": [prop(name, kind, value)]}
                                for local, name, kind, value in _tile_props(plan)]}],
        "layers": layers,
    }


def tiles_path(out: Path) -> Path:
    return out.with_name(out.stem + "-tiles.png")


def picture_path(out: Path, image: Path) -> Path:
    return out.with_name(out.stem + "-picture" + image.suffix.lower())


def picture_scale(grid: CaveGrid) -> tuple[int, int, int] | None:
    """``(k, width, height)`` of the map's floor picture (k pixels per square), or None."""
    if grid.image is None:
        return None
    try:
        with Image.open(grid.image) as im:
            w, h = im.size
    except (OSError, ValueError) as exc:
        raise DataError(f"{grid.image}: the map's picture cannot be read ({exc}); fix [map] image") from None
    if w % grid.cols or h % grid.rows or w // grid.cols != h // grid.rows:
        raise DataError(f"{grid.image}: the map's picture is {w}x{h} px, not a whole number of pixels per square "
                        f"for {grid.cols}x{grid.rows} squares")
    return w // grid.cols, w, h


def export_tiled(grid: CaveGrid, out: str | Path) -> list[Path]:
    """Write ``out`` (``.tmx`` or ``.tmj``), its tileset picture and, when the map has a floor
    picture, a copy of it beside (an image layer ``picture`` under the tiles; the tiles then take
    the picture's scale, from :data:`MIN_TILE` to :data:`MAX_TILE` px, so they lie on its
    squares). Returns the files written."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in (".tmx", ".tmj", ".json"):
        raise DataError(f"{out}: a Tiled export is a .tmx (XML) or .tmj (JSON) file; give one of those names")
    plan = plan_tileset(grid)
    png = tiles_path(out)
    scale = picture_scale(grid)
    tile, picture, pic_path = TILE_PX, None, None
    if scale is not None and MIN_TILE <= scale[0] <= MAX_TILE:
        tile = scale[0]
        pic_path = picture_path(out, grid.image)
        picture = (pic_path.name, scale[1], scale[2])
    if suffix == ".tmx":
        text = tmx_text(grid, plan, png.name, tile=tile, picture=picture)
    else:
        text = json.dumps(tmj_obj(grid, plan, png.name, tile=tile, picture=picture), indent=1) + "\n"
    written = [out, png]
    with atomic_path(png) as tmp:
        tmp.write_bytes(tileset_png(plan, tile))
    if pic_path is not None:
        with atomic_path(pic_path) as tmp:
            tmp.write_bytes(grid.image.read_bytes())
        written.append(pic_path)
    with atomic_path(out) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return written
