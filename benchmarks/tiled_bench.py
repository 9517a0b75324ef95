"""Issue 17: Tiled import of a 1024 x 1024 map (the GID lookup-table path) against the bare parse
any reader must do (XML or JSON, base64, zlib), and the overlay PNG's pixels against a plain
``np.repeat`` upscale of the category colours."""

from __future__ import annotations

import base64
import json
import tempfile
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import numpy as np


def bench_tiled(repeat: int, _median_times) -> dict:
    from sim.terrain.classify import classify
    from sim.maps.exporters.overlay import overlay_rgba
    from sim.maps.exporters.tiled import export_tiled
    from sim.maps.generate import generate_cave, quantise
    from sim.maps.importers.tiled import read_tiled_grid
    from sim.rules.bodies import body_for

    grid = quantise(generate_cave(1, 1024, 1024))
    tmp = Path(tempfile.mkdtemp())
    tmx = export_tiled(grid, tmp / "big.tmx")[0]
    tmj = export_tiled(grid, tmp / "big.tmj")[0]
    # a base64 + zlib TMJ, as Tiled saves with that layer format
    doc = json.loads(tmj.read_text())
    for lay in doc["layers"]:
        if lay["type"] == "tilelayer":
            raw = np.array(lay.pop("data"), dtype="<u4").tobytes()
            lay.update(encoding="base64", compression="zlib", data=base64.b64encode(zlib.compress(raw)).decode())
    tmjz = tmp / "bigz.tmj"
    tmjz.write_text(json.dumps(doc))

    def parse_tmx():  # the reference: XML parse + every CSV layer to integers
        root = ET.fromstring(tmx.read_bytes())
        return [np.fromstring(d.text, dtype=np.int64, sep=",") for d in root.iter("data")]

    def parse_tmjz():
        d = json.loads(tmjz.read_bytes())
        return [np.frombuffer(zlib.decompress(base64.b64decode(lay["data"])), "<u4")
                for lay in d["layers"] if lay["type"] == "tilelayer"]

    out = []
    for path, ref, what in ((tmx, parse_tmx, "TMX CSV"), (tmjz, parse_tmjz, "TMJ base64 zlib")):
        t_ours, t_ref = _median_times([lambda p=path: read_tiled_grid(p), ref], repeat)
        out.append({"name": f"Tiled import 1024x1024, {what}", "seconds": t_ours,
                    "reference": f"bare parse ({'XML + CSV ints' if 'TMX' in what else 'JSON + base64 + zlib'})",
                    "reference_seconds": t_ref, "ratio": t_ours / t_ref, "target": "<= 2" if "TMX" in what else "<= 4"})
    cats = classify(grid.replace(width_ft=grid.width_ft[:128, :128], height_ft=grid.height_ft[:128, :128],
                                 difficult=grid.difficult[:128, :128], rock=grid.rock[:128, :128], door=None,
                                 points={}), body_for("large"))
    rock = grid.rock[:128, :128]
    lut = np.zeros((7, 4), np.uint8)

    def plain():
        return lut[cats].repeat(32, 0).repeat(32, 1)

    t_ov, t_plain = _median_times([lambda: overlay_rgba(cats, rock, 32), plain], repeat)
    out.append({"name": "overlay pixels 128x128 squares at 32 px", "seconds": t_ov,
                "reference": "np.repeat upscale of a colour lookup", "reference_seconds": t_plain,
                "ratio": t_ov / t_plain, "target": "<= 4"})
    main, rest = out[0], out[1:]
    main["note"] = "; ".join(f"{r['name']}: {r['seconds'] * 1e3:.1f} ms = {r['ratio']:.2f}x {r['reference']} "
                             f"({r['reference_seconds'] * 1e3:.1f} ms), target {r['target']}" for r in rest)
    main["others"] = rest
    return main
