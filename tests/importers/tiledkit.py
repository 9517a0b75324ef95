"""Build Tiled TMX / TMJ files in tests (each test shows its own map).

A map is described once (:class:`Spec`) and written as TMX or TMJ with any layer encoding, so the
same cave can be checked in every form Tiled saves.
"""

from __future__ import annotations

import base64
import gzip
import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

import numpy as np

TILE = 32


def _ptype(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    return "string"


def _pval(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


@dataclass
class TilesetSpec:
    tiles: list[dict]                   # local id -> properties (float values as float!)
    firstgid: int = 1
    name: str = "ts"
    external: str | None = None         # None, "tsx" or "tsj"
    tilecount: int | None = None


@dataclass
class Spec:
    cols: int
    rows: int
    tilesets: list[TilesetSpec]
    layers: list[tuple[str, np.ndarray]]             # (name, gids [row, col])
    props: dict = field(default_factory=dict)
    points: list[tuple[str, float, float]] = field(default_factory=list)   # (name, x px, y px)
    orientation: str = "orthogonal"
    infinite: bool = False
    encoding: str = "csv"              # csv | base64 | xml (TMX only)
    compression: str = ""              # "" | zlib | gzip | zstd | other
    layer_size: dict = field(default_factory=dict)   # name -> (w, h) override
    picture: str | None = None         # an image layer named "picture" with this image file


def _b64(gids: np.ndarray, compression: str) -> str:
    raw = np.ascontiguousarray(gids, dtype="<u4").tobytes()
    if compression == "zlib":
        raw = zlib.compress(raw)
    elif compression == "gzip":
        raw = gzip.compress(raw, mtime=0)
    elif compression:
        raw = b"\x28\xb5\x2f\xfd" + raw   # not really compressed: the reader must refuse it first
    return base64.b64encode(raw).decode()


def _tsx_body(ts: TilesetSpec) -> str:
    count = ts.tilecount if ts.tilecount is not None else len(ts.tiles)
    out = [f'<tileset version="1.8" tiledversion="1.8.2" name={quoteattr(ts.name)} tilewidth="{TILE}" '
           f'tileheight="{TILE}" tilecount="{count}" columns="0">',
           ' <grid orientation="orthogonal" width="1" height="1"/>']
    for i, props in enumerate(ts.tiles):
        out.append(f' <tile id="{i}">')
        if props:
            out.append('  <properties>')
            for k, v in props.items():
                out.append(f'   <property name={quoteattr(k)} type="{_ptype(v)}" value={quoteattr(_pval(v))}/>')
            out.append('  </properties>')
        out.append(f'  <image width="{TILE}" height="{TILE}" source="t{i}.png"/>')
        out.append(' </tile>')
    out.append('</tileset>')
    return "\n".join(out)


def _tsj_obj(ts: TilesetSpec) -> dict:
    count = ts.tilecount if ts.tilecount is not None else len(ts.tiles)
    return {"name": ts.name, "tilewidth": TILE, "tileheight": TILE, "tilecount": count, "columns": 0,
            "type": "tileset", "version": "1.8",
            "tiles": [{"id": i, "image": f"t{i}.png", "imagewidth": TILE, "imageheight": TILE,
                       **({"properties": [{"name": k, "type": _ptype(v), "value": v} for k, v in p.items()]} if p else {})}
                      for i, p in enumerate(ts.tiles)]}


def write_tmx(spec: Spec, path: Path) -> Path:
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.8" tiledversion="1.8.2" orientation="{spec.orientation}" renderorder="right-down" '
           f'width="{spec.cols}" height="{spec.rows}" tilewidth="{TILE}" tileheight="{TILE}" '
           f'infinite="{1 if spec.infinite else 0}" nextlayerid="9" nextobjectid="9">']
    if spec.props:
        out.append(' <properties>')
        for k, v in spec.props.items():
            out.append(f'  <property name={quoteattr(k)} type="{_ptype(v)}" value={quoteattr(_pval(v))}/>')
        out.append(' </properties>')
    for ts in spec.tilesets:
        if ts.external == "tsx":
            (path.parent / f"{ts.name}.tsx").write_text(_tsx_body(ts))
            out.append(f' <tileset firstgid="{ts.firstgid}" source="{ts.name}.tsx"/>')
        elif ts.external == "tsj":
            (path.parent / f"{ts.name}.tsj").write_text(json.dumps(_tsj_obj(ts)))
            out.append(f' <tileset firstgid="{ts.firstgid}" source="{ts.name}.tsj"/>')
        else:
            body = _tsx_body(ts).split("\n")
            body[0] = body[0].replace("<tileset ", f'<tileset firstgid="{ts.firstgid}" ')
            out.extend(" " + b for b in body)
    for lid, (name, gids) in enumerate(spec.layers, 1):
        w, h = spec.layer_size.get(name, (spec.cols, spec.rows))
        out.append(f' <layer id="{lid}" name={quoteattr(name)} width="{w}" height="{h}">')
        if spec.infinite:
            out.append(f'  <data encoding="csv"><chunk x="0" y="0" width="{w}" height="{h}">'
                       + ",".join(str(int(v)) for v in gids.ravel()) + '</chunk></data>')
        elif spec.encoding == "csv":
            out.append('  <data encoding="csv">\n' + ",\n".join(",".join(str(int(v)) for v in row) for row in gids)
                       + '\n</data>')
        elif spec.encoding == "xml":
            out.append('  <data>' + "".join(f'<tile gid="{int(v)}"/>' for v in gids.ravel()) + '</data>')
        else:
            comp = f' compression="{spec.compression}"' if spec.compression else ""
            out.append(f'  <data encoding="base64"{comp}>\n   {_b64(gids, spec.compression)}\n  </data>')
        out.append(' </layer>')
    if spec.points:
        out.append(' <objectgroup id="8" name="points">')
        for i, (name, x, y) in enumerate(spec.points, 1):
            out.append(f'  <object id="{i}" name={quoteattr(name)} x="{x}" y="{y}"><point/></object>')
        out.append(' </objectgroup>')
    if spec.picture is not None:
        out.append(f' <imagelayer id="7" name="picture"><image source={quoteattr(spec.picture)}/></imagelayer>')
    out.append('</map>')
    path.write_text("\n".join(out) + "\n")
    return path


def write_tmj(spec: Spec, path: Path) -> Path:
    tilesets = []
    for ts in spec.tilesets:
        if ts.external == "tsx":
            (path.parent / f"{ts.name}.tsx").write_text(_tsx_body(ts))
            tilesets.append({"firstgid": ts.firstgid, "source": f"{ts.name}.tsx"})
        elif ts.external == "tsj":
            (path.parent / f"{ts.name}.tsj").write_text(json.dumps(_tsj_obj(ts)))
            tilesets.append({"firstgid": ts.firstgid, "source": f"{ts.name}.tsj"})
        else:
            tilesets.append({"firstgid": ts.firstgid, **_tsj_obj(ts)})
    layers = []
    for lid, (name, gids) in enumerate(spec.layers, 1):
        w, h = spec.layer_size.get(name, (spec.cols, spec.rows))
        lay = {"id": lid, "name": name, "type": "tilelayer", "width": w, "height": h, "x": 0, "y": 0,
               "opacity": 1, "visible": True}
        if spec.infinite:
            lay["chunks"] = [{"x": 0, "y": 0, "width": w, "height": h, "data": [int(v) for v in gids.ravel()]}]
        elif spec.encoding == "base64":
            lay.update(encoding="base64", compression=spec.compression, data=_b64(gids, spec.compression))
        else:
            lay["data"] = [int(v) for v in gids.ravel()]
        layers.append(lay)
    if spec.points:
        layers.append({"id": 8, "name": "points", "type": "objectgroup", "objects": [
            {"id": i, "name": n, "x": x, "y": y, "point": True, "width": 0, "height": 0}
            for i, (n, x, y) in enumerate(spec.points, 1)]})
    if spec.picture is not None:
        layers.append({"id": 7, "name": "picture", "type": "imagelayer", "image": spec.picture})
    doc = {"type": "map", "version": "1.8", "orientation": spec.orientation, "renderorder": "right-down",
           "width": spec.cols, "height": spec.rows, "tilewidth": TILE, "tileheight": TILE,
           "infinite": spec.infinite, "tilesets": tilesets, "layers": layers,
           "properties": [{"name": k, "type": _ptype(v), "value": v} for k, v in spec.props.items()]}
    path.write_text(json.dumps(doc, indent=1))
    return path


def write(spec: Spec, path: Path) -> Path:
    return write_tmx(spec, path) if path.suffix == ".tmx" else write_tmj(spec, path)
