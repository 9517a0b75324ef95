"""Seeded fuzz test of the Universal VTT reader and the picture importer (issue 34).

Mutants of a small Universal VTT file (a 10 x 10-square map: a room, a door, a light, an embedded
picture) -- values replaced by extremes of every type (null, true, -1, 1e308, a 400-digit integer,
NaN, a number as a string, a 20,000-character string, lists, objects), keys dropped, coordinates
moved far off the map, arrays lengthened a thousandfold, the picture's bytes flipped, the text cut
short -- and of a small quarter-feet PNG (bytes flipped, the header's width and height changed,
with and without a matching checksum, the file cut short or lengthened) go through
``cavesim import FILE --out MAP.toml`` in this process (``tests.test_fuzz.run_cli``, under a time
bound). Every run must end with exit 0 or 2, no exception out of ``main`` and no traceback; a
refusal is one line naming the file, and leaves no map behind; an accepted map must pass
``cavesim validate``. The Tiled reader has its own fuzz test; the whole of this one takes about 15 s.
"""

from __future__ import annotations

import base64
import copy
import io
import json
import random
import struct
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image

from tests.test_fuzz import run_cli

SEED = 34
UVTT_CASES = 120
PNG_CASES = 60
RUN_BOUND_S = 15.0      # one import of these small files takes 0.05-0.5 s
EXTREMES = [None, True, False, -1, 0, 1.5, 1e308, -1e308, 10 ** 400, float("nan"), float("inf"), "3", "",
            "x" * 20_000, [], {}, [[1, 2]], {"x": 1}, {"x": "1", "y": 2}, [{"x": 1, "y": 1}], 10 ** 6, -10 ** 6]


def pt(x, y):
    return {"x": x, "y": y}


def png_bytes(w: int, h: int, colour=(40, 40, 1, 255)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGBA", (w, h), colour).save(buf, format="PNG")
    return buf.getvalue()


def base_doc() -> dict:
    room = [pt(2, 2), pt(8, 2), pt(8, 8), pt(2, 8), pt(2, 2)]
    return {
        "format": 0.3,
        "resolution": {"map_origin": pt(0, 0), "map_size": pt(10, 10), "pixels_per_grid": 4},
        "line_of_sight": [room, [pt(5, 2), pt(5, 4)]],
        "objects_line_of_sight": [[pt(6, 6), pt(7, 6), pt(7, 7), pt(6, 7), pt(6.01, 6)]],
        "portals": [{"position": pt(5, 5), "bounds": [pt(5, 4), pt(5, 5)], "rotation": 0, "closed": True,
                     "freestanding": False}],
        "lights": [{"position": pt(4, 4), "range": 4, "intensity": 1, "color": "ffeccd8b", "shadows": True}],
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "image": base64.b64encode(png_bytes(40, 40, (90, 80, 70, 255))).decode(),
    }


def _paths(v, at=()):
    """Every (path, value) in a JSON value, containers included."""
    yield at, v
    if isinstance(v, dict):
        for k, item in v.items():
            yield from _paths(item, at + (k,))
    elif isinstance(v, list):
        for i, item in enumerate(v):
            yield from _paths(item, at + (i,))


def _parent(doc, path):
    for k in path[:-1]:
        doc = doc[k]
    return doc


def mutate_uvtt(rng: random.Random) -> bytes:
    doc = base_doc()
    for _ in range(rng.choice((1, 1, 2))):
        paths = [p for p, _ in _paths(doc) if p and p != ("image",)]
        path = rng.choice(paths)
        parent, key = _parent(doc, path), path[-1]
        op = rng.randrange(7)
        if op <= 1:                                   # a value replaced by an extreme
            parent[key] = copy.deepcopy(rng.choice(EXTREMES))
        elif op == 2:                                 # a key dropped (or a list item)
            del parent[key]
        elif op == 3:                                 # a coordinate far off the map
            points = [p for p, v in _paths(doc) if isinstance(v, dict) and set(v) >= {"x", "y"}]
            if points:
                p = _parent(doc, rng.choice(points) + ("x",))
                p[rng.choice("xy")] = rng.choice([1e6, -1e6, 9_999_999, 1e7 + 1, 1e-300, 2 ** 53])
        elif op == 4:                                 # an array lengthened
            lists = [p for p, v in _paths(doc) if isinstance(v, list) and v]
            if lists:
                lst = _parent(doc, rng.choice(lists) + (0,))
                lst.extend(copy.deepcopy(lst[:1]) * rng.choice([10, 1000, 20_000]))
        elif op == 5:                                 # the picture's bytes flipped
            blob = bytearray(base64.b64decode(doc["image"]))
            for _ in range(rng.randint(1, 4)):
                blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
            doc["image"] = base64.b64encode(bytes(blob)).decode()
        else:                                         # the picture's header: another size
            doc["image"] = base64.b64encode(_resized_header(base64.b64decode(doc["image"]), rng)).decode()
    text = json.dumps(doc)
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text))]       # cut short
    return text.encode()


def _resized_header(png: bytes, rng: random.Random) -> bytes:
    """``png`` with another width and height in IHDR (its checksum fixed, or not)."""
    w, h = rng.choice([(0, 10), (10, 0), (2 ** 31 - 1, 1), (9400, 9400), (100_000, 100_000), (41, 40), (1, 1)])
    ihdr = bytearray(png[16:29])
    ihdr[0:8] = struct.pack(">II", w, h)
    crc = struct.pack(">I", zlib.crc32(b"IHDR" + bytes(ihdr)))
    if rng.random() < 0.3:
        crc = b"\0\0\0\0"
    return png[:16] + bytes(ihdr) + crc + png[33:]


def mutate_png(rng: random.Random) -> bytes:
    png = png_bytes(8, 6)
    op = rng.randrange(4)
    if op == 0:
        blob = bytearray(png)
        for _ in range(rng.randint(1, 6)):
            blob[rng.randrange(len(blob))] ^= 1 << rng.randrange(8)
        return bytes(blob)
    if op == 1:
        return _resized_header(png, rng)
    if op == 2:
        return png[: rng.randrange(len(png))]
    return png + bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 5000])))


def _check(tmp_path: Path, name: str, data: bytes, case: int) -> int:
    src = tmp_path / name
    out = tmp_path / f"out{case}.toml"
    src.write_bytes(data)
    t0 = time.process_time()      # CPU time: a hang guard that a loaded machine cannot trip
    code, err, exc = run_cli(["import", str(src), "--out", str(out)])
    took = time.process_time() - t0
    where = f"case {case} ({name}): {err.strip()[:300]}"
    assert exc is None, f"{where}: {exc}"
    assert took < RUN_BOUND_S, f"{where}: took {took:.1f} s"
    assert "Traceback" not in err, where
    assert code in (0, 2), f"{where}: exit {code}"
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cavesim: error: ") and str(src) in lines[0], where
        assert not out.exists(), where
    else:
        code, verr, exc = run_cli(["validate", str(out)])
        assert (code, exc) == (0, None), f"{where}: the imported map does not validate: {verr.strip()[:300]}"
    return code


@pytest.mark.parametrize("kind", ["uvtt", "png"])
def test_fuzz_importers(tmp_path, kind):
    rng = random.Random(f"{SEED}-{kind}")
    codes = []
    t0 = time.process_time()
    for case in range(UVTT_CASES if kind == "uvtt" else PNG_CASES):
        data = mutate_uvtt(rng) if kind == "uvtt" else mutate_png(rng)
        codes.append(_check(tmp_path, "m.dd2vtt" if kind == "uvtt" else "m.png", data, case))
    # the mutants reach both outcomes (a harness that only ever refuses would prove little)
    assert codes.count(0) >= 3 and codes.count(2) >= 10, codes
    assert time.process_time() - t0 < 60, "the whole fuzz run took over a minute of CPU"
