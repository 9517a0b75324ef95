"""Seeded fuzz test of the Tiled reader (issue 34): mutants of small TMX and TMJ maps built with
``tiledkit`` (value and semantic tiles, every layer encoding, embedded and external tilesets, a
floor picture) go through ``cavesim import`` in this process, each run under a time bound
(``tests.test_fuzz.run_cli``).

Every run must end with exit 0 or 2, no traceback and no exception out of ``main``; a refusal is
one line naming the map (or the external tileset at fault); an import that succeeds must have
written a map that loads again (``sim.maps.read.load_map``). The mutants are drawn by
``random.Random(SEED)`` from the edits a person, a script or a disk makes: an attribute or JSON
value replaced by an extreme (a 400-digit integer, NaN, infinity, 1e308, -1, 0, a string, an
empty string, true, null, a list, a 5,000-character name, a device path), an element or key
dropped or duplicated, layer data corrupted (cut, a stray character, flipped base64), nesting
deepened (group layers, JSON arrays thousands deep), the file cut off or given stray bytes, and
the same edits to an external tileset. About 400 runs, a few seconds in all.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from PIL import Image

from sim.maps.read import load_map
from tests.importers.test_tiled import semantic_spec, value_spec
from tests.importers.tiledkit import TILE, write
from tests.test_fuzz import run_cli

SEED = 34
CASES = 400                 # mutants (one import each)
WHOLE_TEST_BOUND_S = 60.0   # the test takes a few seconds; 30 s per run is run_cli's own alarm

XML_EXTREMES = ["9" * 400, "-" + "9" * 400, "nan", "NaN", "inf", "-inf", "1e308", "-1e308", "-1", "0", "", "1.5",
                "abc", "true", "24 ", "2_4", "4294967296", "268435456", "x" * 5000, "/dev/zero", "..", "m.tmx",
                "zstd", "gzip", "base64", "csv", "isometric", "1"]
JSON_EXTREMES = [10 ** 400, -10 ** 400, float("nan"), float("inf"), float("-inf"), 1e308, -1e308, -1, 0, 1.5, "",
                 "abc", "24", True, False, None, [], {}, [[1, 2]], {"a": 1}, "x" * 5000, 2 ** 32, 2 ** 28,
                 "/dev/zero", "\u0000", "a\nb", "\ud800", "zlib", "base64", "tilelayer", "group", "imagelayer"]


# -- the base maps ------------------------------------------------------------------------------------

def bases(root: Path) -> list[Path]:
    """Small maps in every form Tiled saves: each in its own folder with its tilesets and picture."""
    out = []
    forms = [("value", "csv", "", None), ("value", "base64", "zlib", None), ("semantic", "base64", "gzip", "tsx"),
             ("semantic", "csv", "", "tsj"), ("value", "xml", "", None), ("semantic", "base64", "", None)]
    for k, (style, enc, comp, ext) in enumerate(forms):
        for suffix in (".tmx", ".tmj"):
            if enc == "xml" and suffix == ".tmj":
                continue
            d = root / f"base{k}{suffix[1:]}"
            d.mkdir()
            spec = (value_spec if style == "value" else semantic_spec)(encoding=enc, compression=comp)
            if ext:
                spec.tilesets[0].external = ext
            if k % 2 == 0:
                spec.picture = "floor.png"
                Image.new("RGB", (spec.cols * TILE, spec.rows * TILE), (90, 80, 70)).save(d / "floor.png")
            src = write(spec, d / f"m{suffix}")
            code, err, crash = run_cli(["import", str(src), "--out", str(d / "check.toml")])
            assert (code, crash) == (0, None), err   # the base map itself is good
            (d / "check.toml").unlink()
            for f in d.glob("check.*"):
                f.unlink()
            out.append(src)
    return out


# -- XML mutations ------------------------------------------------------------------------------------

def _elements(root: ET.Element) -> list[tuple[ET.Element | None, ET.Element]]:
    out: list[tuple[ET.Element | None, ET.Element]] = [(None, root)]
    for parent in root.iter():
        out.extend((parent, child) for child in parent)
    return out


def mutate_xml(text: str, rng: random.Random) -> bytes:
    op = rng.randrange(10)
    if op == 8:                                   # cut off, or stray bytes
        raw = text.encode()
        if rng.random() < 0.5:
            return raw[: rng.randrange(1, len(raw))]
        at = rng.randrange(len(raw))
        return raw[:at] + rng.choice([b"\x00", b"\xff\xfe", b"<", b"&", b"]]>", b'"', b"<!ENTITY x 'y'>"]) + raw[at:]
    root = ET.fromstring(text)
    pairs = _elements(root)
    if op <= 3:                                   # an attribute replaced by an extreme (the most common edit)
        cands = [(el, key) for _, el in pairs for key in el.attrib]
        el, key = rng.choice(cands)
        el.set(key, rng.choice(XML_EXTREMES))
    elif op == 4:                                 # an element dropped
        parent, el = rng.choice(pairs[1:])
        parent.remove(el)
    elif op == 5:                                 # an element duplicated
        parent, el = rng.choice(pairs[1:])
        parent.insert(list(parent).index(el), copy.deepcopy(el))
    elif op == 6:                                 # layer data corrupted
        datas = [el for _, el in pairs if el.tag == "data" and el.text]
        if datas:
            d = rng.choice(datas)
            t = d.text
            k = rng.randrange(len(t))
            d.text = rng.choice([t[:k], t[:k] + rng.choice(["x", ",", ",,", "-1", "9" * 30, "=", "!", " "]) + t[k:],
                                 t[:k] + chr(ord(t[k]) ^ 1) + t[k + 1:], t + t])
    elif op == 7:                                 # nesting deepened: a child of the map wrapped in groups
        children = list(root)
        el = rng.choice(children)
        depth = rng.choice([3, 31, 33, 5000, 100_000])
        inner = ET.tostring(el, encoding="unicode")
        root.insert(children.index(el), ET.Element("DEEP"))
        root.remove(el)
        out = ET.tostring(root, encoding="unicode")   # (ElementTree writes deep trees by recursion: not here)
        return out.replace("<DEEP />", '<group name="g">' * depth + inner + "</group>" * depth, 1).encode()
    else:                                         # an attribute or element added where none is expected
        _, el = rng.choice(pairs)
        if rng.random() < 0.5:
            el.set(rng.choice(["firstgid", "source", "width", "encoding", "compression", "infinite", "name"]),
                   rng.choice(XML_EXTREMES))
        else:
            el.append(ET.Element(rng.choice(["tileset", "layer", "data", "group", "imagelayer", "objectgroup",
                                             "properties", "chunk", "object", "point", "image"]),
                                 {rng.choice(["source", "name", "width", "id"]): rng.choice(XML_EXTREMES)}))
    out = ET.tostring(root, encoding="unicode")
    return out.encode()


# -- JSON mutations ------------------------------------------------------------------------------------

def _paths(v, at=()) -> list[tuple]:
    out = [at]
    if isinstance(v, dict):
        for k, c in v.items():
            out.extend(_paths(c, at + (k,)))
    elif isinstance(v, list) and not (v and all(isinstance(c, int) for c in v)):   # not into a layer's data
        for i, c in enumerate(v):
            out.extend(_paths(c, at + (i,)))
    return out


def _get(doc, at):
    for k in at:
        doc = doc[k]
    return doc


def mutate_json(text: str, rng: random.Random) -> bytes:
    op = rng.randrange(10)
    if op == 8:                                   # cut off, stray bytes, or a value nested thousands deep
        raw = text.encode()
        r = rng.random()
        if r < 0.35:
            return raw[: rng.randrange(1, len(raw))]
        if r < 0.7:
            at = rng.randrange(len(raw))
            return raw[:at] + rng.choice([b"\x00", b"\xff", b"NaN", b"{", b"]", b'"', b"Infinity,"]) + raw[at:]
        depth = rng.choice([101, 5000, 100_000])
        return raw.replace(b'"type": "map"', b'"deep": ' + b"[" * depth + b"]" * depth + b', "type": "map"', 1)
    doc = json.loads(text)
    paths = [p for p in _paths(doc) if p]
    if op <= 3:                                   # a value replaced by an extreme
        at = rng.choice(paths)
        _get(doc, at[:-1])[at[-1]] = rng.choice(JSON_EXTREMES)
    elif op == 4:                                 # a key or element dropped
        at = rng.choice(paths)
        del _get(doc, at[:-1])[at[-1]]
    elif op == 5:                                 # an element duplicated, or a key copied under another name
        at = rng.choice(paths)
        parent = _get(doc, at[:-1])
        if isinstance(parent, list):
            parent.insert(at[-1], copy.deepcopy(parent[at[-1]]))
        else:
            parent[rng.choice(["source", "firstgid", "encoding", "compression", "chunks", "image", "layers",
                               "properties", "point", "gid"])] = copy.deepcopy(parent[at[-1]])
    elif op == 6:                                 # layer data corrupted
        layers = [lay for lay in doc.get("layers", []) if isinstance(lay, dict) and "data" in lay]
        if layers:
            lay = rng.choice(layers)
            d = lay["data"]
            if isinstance(d, str):
                k = rng.randrange(len(d))
                lay["data"] = rng.choice([d[:k], d[:k] + "!" + d[k:], d[:k] + chr(ord(d[k]) ^ 1) + d[k + 1:], d + d])
            else:
                k = rng.randrange(len(d))
                d[k] = rng.choice([-1, 2 ** 32, 10 ** 400, 1.0, True, "1", None, [1], 0x80000001])
    elif op == 7:                                 # nesting deepened: the layers wrapped in group layers
        layers = doc.get("layers", [])
        for k in range(rng.choice([3, 31, 33, 60])):
            layers = [{"type": "group", "name": f"g{k}", "layers": layers}]
        doc["layers"] = layers
    else:                                         # a property of another type
        props = [p for p in _paths(doc) if p and p[-1] == "type" and isinstance(_get(doc, p), str)
                 and _get(doc, p) in ("float", "bool", "int", "string")]
        if props:
            at = rng.choice(props)
            _get(doc, at[:-1])["type"] = rng.choice(["int", "float", "bool", "string", "class", "color", 7, None])
    return json.dumps(doc).encode()


# -- the cases ------------------------------------------------------------------------------------------

def cases(root: Path):
    rng = random.Random(SEED)
    maps = bases(root)
    for n in range(CASES):
        base = rng.choice(maps)
        d = root / f"case{n}"
        shutil.copytree(base.parent, d)
        src = d / base.name
        tilesets = sorted(d.glob("*.ts[xj]"))
        target = rng.choice(tilesets) if tilesets and rng.random() < 0.3 else src
        text = target.read_text()
        mutant = mutate_xml(text, rng) if target.suffix in (".tmx", ".tsx") else mutate_json(text, rng)
        target.write_bytes(mutant)
        yield src, target


def test_fuzzed_tiled_maps_are_refused_cleanly(tmp_path):
    findings = []
    runs = refusals = 0
    t0 = time.process_time()
    slowest = (0.0, "")
    for src, target in cases(tmp_path):
        out = src.parent / "out.toml"
        argv = ["import", str(src), "--out", str(out)]
        t = time.process_time()
        code, err, crash = run_cli(argv)
        slowest = max(slowest, (time.process_time() - t, f"{target}"))
        runs += 1
        where = f"{target.parent.name}/{target.name}"
        if crash:
            findings.append(f"{where}: {crash}")
            continue
        if "Traceback" in err:
            findings.append(f"{where}: a traceback on stderr")
        if code not in (0, 2):
            findings.append(f"{where}: exit {code}: {err[:300]}")
        elif code == 2:
            refusals += 1
            lines = err.strip().splitlines()
            if len(lines) != 1:
                findings.append(f"{where}: a refusal of {len(lines)} lines: {err[:300]}")
            elif src.name not in lines[0] and target.name not in lines[0]:
                findings.append(f"{where}: a refusal that names neither {src.name} nor {target.name}: {lines[0][:300]}")
            elif len(lines[0]) > 1000:
                findings.append(f"{where}: a refusal of {len(lines[0])} characters")
            if out.exists() or any(p.name.startswith(".out.") for p in src.parent.iterdir()):
                findings.append(f"{where}: refused, but something was written")
        else:
            try:
                load_map(out)
            except Exception as exc:  # noqa: BLE001 - an import that writes an unreadable map is a finding
                findings.append(f"{where}: imported, but the map written does not load: {str(exc)[:300]}")
    took = time.process_time() - t0
    assert not findings, f"{len(findings)} of {runs} runs broke the promise:\n" + "\n".join(findings[:40])
    assert runs == CASES and CASES // 3 < refusals < CASES, refusals   # the mutants bite, and some stay good maps
    assert took < WHOLE_TEST_BOUND_S, f"{took:.1f} s; slowest {slowest[0]:.1f} s: {slowest[1]}"
