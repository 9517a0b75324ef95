"""Hostile Tiled maps (issue 34, items 8, 10, 11 and 14): special files, huge numbers, NaN, deep
nesting, wrong types, picture and zlib bombs.

Every case runs ``cavesim import`` in this process (``tests.test_fuzz.run_cli``: a time bound,
any exception out of ``main`` reported) and must end with exit 2, one line naming the file and
the key or element, no traceback, within a generous time, and nothing written beside ``--out``.
"""

from __future__ import annotations

import base64
import json
import os
import re
import struct
import time
import zlib
from pathlib import Path

import numpy as np
import pytest

import sim.maps.importers.tiledfile as tiledfile
from sim.base.errors import shorten
from sim.maps.read import load_map
from tests.importers.test_tiled import POINTS, TILE, VALUES, semantic_spec, value_spec
from tests.importers.tiledkit import write
from tests.test_fuzz import run_cli

BOUND_S = 10.0   # each refusal below takes well under a second; a hang is caught by run_cli's 30 s alarm
SUFFIXES = [".tmx", ".tmj"]


def refused(tmp_path: Path, src: Path, *patterns: str, bound: float = BOUND_S, names: Path | None = None) -> str:
    """``cavesim import SRC --out out.toml``: exit 2, one line naming SRC (or the file at fault,
    ``names``) and every pattern."""
    out = tmp_path / "out.toml"
    t0 = time.process_time()
    code, err, crash = run_cli(["import", str(src), "--out", str(out)])
    took = time.process_time() - t0
    assert crash is None, crash
    assert code == 2, (code, err)
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(names or src) in lines[0], err
    for p in patterns:
        assert p in lines[0], f"{p!r} not in {lines[0]!r}"
    assert len(lines[0]) < 600, lines[0]   # no huge value echoed
    assert took < bound, f"took {took:.1f} s"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(("out.", ".out."))]
    return lines[0]


def imported(tmp_path: Path, src: Path) -> Path:
    out = tmp_path / "ok.toml"
    code, err, crash = run_cli(["import", str(src), "--out", str(out)])
    assert crash is None and code == 0, (code, err, crash)
    load_map(out)   # what was written reads back
    return out


def _edit_json(path: Path, change) -> Path:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    return path


def _tile_prop(doc: dict, name: str, value=None) -> dict:
    """The first property ``name`` (of ``value``, when given) of a tile in the map's embedded tileset."""
    for t in doc["tilesets"][0]["tiles"]:
        for p in t.get("properties", []):
            if p["name"] == name and (value is None or p["value"] == value):
                return p
    raise AssertionError(name)


def _sub(path: Path, old: str, new: str, count: int = 1) -> Path:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))
    return path


# -- item 8: special files, through the one bounded reader -----------------------------------------


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_external_tileset_dev_zero_is_refused_not_read(tmp_path, suffix):
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    src = write(spec, tmp_path / f"m{suffix}")
    _sub(src, "terrain-set.tsx", "/dev/zero")
    refused(tmp_path, src, "external tileset '/dev/zero': /dev/zero: not a regular file (a character device)")


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("kind", ["tsx", "tsj"])
def test_external_tileset_fifo_does_not_hang(tmp_path, suffix, kind):
    spec = semantic_spec()
    spec.tilesets[0].external = kind
    src = write(spec, tmp_path / f"m{suffix}")
    fifo = tmp_path / f"terrain-set.{kind}"
    fifo.unlink()
    os.mkfifo(fifo)
    refused(tmp_path, src, f"external tileset 'terrain-set.{kind}'", "not a regular file (a FIFO (named pipe))")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_external_tileset_directory_and_symlink_to_a_device(tmp_path, suffix):
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    src = write(spec, tmp_path / f"m{suffix}")
    (tmp_path / "terrain-set.tsx").unlink()
    (tmp_path / "terrain-set.tsx").mkdir()
    refused(tmp_path, src, "external tileset 'terrain-set.tsx'", "is a directory")
    (tmp_path / "terrain-set.tsx").rmdir()
    (tmp_path / "terrain-set.tsx").symlink_to("/dev/urandom")
    refused(tmp_path, src, "external tileset 'terrain-set.tsx'", "not a regular file (a character device)")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_the_map_itself_as_a_fifo_or_a_device(tmp_path, suffix):
    fifo = tmp_path / f"fifo{suffix}"
    os.mkfifo(fifo)
    refused(tmp_path, fifo, "not a regular file (a FIFO (named pipe))")
    dev = tmp_path / f"zero{suffix}"
    dev.symlink_to("/dev/zero")
    refused(tmp_path, dev, "not a regular file (a character device)")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_picture_fifo_or_device_is_refused(tmp_path, suffix):
    spec = value_spec()
    spec.picture = "floor.png"
    src = write(spec, tmp_path / f"m{suffix}")
    os.mkfifo(tmp_path / "floor.png")
    refused(tmp_path, src, "image layer 'picture'", "floor.png: not a regular file (a FIFO (named pipe))")
    (tmp_path / "floor.png").unlink()
    (tmp_path / "floor.png").symlink_to("/dev/zero")
    refused(tmp_path, src, "image layer 'picture'", "floor.png: not a regular file (a character device)")


def test_each_external_tileset_is_read_once(tmp_path, monkeypatch):
    """3,000 <tileset source> naming one file read it once, not 3,000 times."""
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    src = write(spec, tmp_path / "m.tmx")
    extra = "".join(f' <tileset firstgid="{100 + 10 * k}" source="terrain-set.tsx"/>\n' for k in range(3000))
    _sub(src, ' <layer id="1"', extra + ' <layer id="1"')
    reads = []
    real = tiledfile.read_input
    monkeypatch.setattr(tiledfile, "read_input", lambda p, **kw: reads.append(Path(p).name) or real(p, **kw))
    imported(tmp_path, src)
    assert sorted(reads) == ["m.tmx", "terrain-set.tsx"]


def test_external_tilesets_are_bounded_in_all(tmp_path, monkeypatch):
    """Each tileset under the file limit, together over it: refused before the next is parsed."""
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    src = write(spec, tmp_path / "m.tmx")
    size = (tmp_path / "terrain-set.tsx").stat().st_size
    for k in range(3):
        (tmp_path / f"copy{k}.tsx").write_bytes((tmp_path / "terrain-set.tsx").read_bytes())
    extra = "".join(f' <tileset firstgid="{100 + 10 * k}" source="copy{k}.tsx"/>\n' for k in range(3))
    _sub(src, ' <layer id="1"', extra + ' <layer id="1"')
    assert src.stat().st_size < 3 * size
    monkeypatch.setattr(tiledfile, "MAX_FILE_BYTES", 3 * size + 10)   # the map and each tileset fit; four do not
    refused(tmp_path, src, "external tileset 'copy2.tsx': the map's external tilesets hold more than")


# -- item 10: huge integers, NaN, deep nesting, a picture bomb -------------------------------------


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("firstgid", [10 ** 400, 0, -1, 2 ** 28], ids=["10**400", "0", "-1", "2**28"])
def test_firstgid_out_of_range(tmp_path, suffix, firstgid):
    spec = semantic_spec()
    spec.tilesets[0].firstgid = firstgid
    line = refused(tmp_path, write(spec, tmp_path / f"m{suffix}"),
                   "a tileset" if suffix == ".tmj" else "a <tileset>",
                   "firstgid must be a whole number from 1 to 268,435,455, got ")
    if firstgid == 10 ** 400:
        assert re.search(r"got '?1000000000\d*… \(40[13] characters\)", line), line


def test_tmj_firstgid_true_or_a_string(tmp_path):
    src = write(semantic_spec(), tmp_path / "m.tmj")
    _sub(src, '"firstgid": 1', '"firstgid": true')
    refused(tmp_path, src, "a tileset: firstgid must be a whole number from 1 to 268,435,455, got True")
    src = write(semantic_spec(), tmp_path / "m.tmj")
    _sub(src, '"firstgid": 1', '"firstgid": "1"')
    refused(tmp_path, src, "a tileset: firstgid must be a whole number from 1 to 268,435,455, got '1'")


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("x", [10 ** 400, float("nan"), float("inf"), -1e308], ids=["10**400", "nan", "inf", "-1e308"])
def test_object_x_huge_or_nan(tmp_path, suffix, x):
    spec = value_spec()
    spec.points = [("lair", x, 16.0)]
    src = write(spec, tmp_path / f"m{suffix}")
    refused(tmp_path, src, "object layer 'points' object 'lair': x must be a finite number of pixels")


def test_unnamed_decoration_with_nan_is_refused_too(tmp_path):
    src = write(value_spec(), tmp_path / "m.tmx")
    _sub(src, '<objectgroup id="8" name="points">', '<objectgroup id="8" name="points"><object id="99" y="nan"/>')
    refused(tmp_path, src, "object layer 'points' object '': y must be a finite number of pixels",
            "got 'nan'")


@pytest.mark.parametrize("depth", [100_000, 150])
def test_tmj_nested_deep(tmp_path, depth):
    """100,000 deep overflows the JSON parser's stack (RecursionError); 150 parses but is refused."""
    src = write(value_spec(), tmp_path / "m.tmj")
    _sub(src, '"type": "map"', '"deep": ' + "[" * depth + "]" * depth + ', "type": "map"')
    refused(tmp_path, src, "JSON arrays or objects nested more than 100 deep")


def test_tmj_groups_nested_deep(tmp_path):
    doc = json.loads(write(value_spec(), tmp_path / "m.tmj").read_text())
    layers = doc["layers"]
    for k in range(40):
        layers = [{"type": "group", "name": f"g{k}", "layers": layers}]
    doc["layers"] = layers
    (tmp_path / "m.tmj").write_text(json.dumps(doc))
    refused(tmp_path, tmp_path / "m.tmj", "group layer 'g7': group layers nested more than 32 deep")


def test_tmx_groups_nested_100000_deep(tmp_path):
    src = write(value_spec(), tmp_path / "m.tmx")
    _sub(src, "</map>", "<group>" * 100_000 + "</group>" * 100_000 + "</map>")
    refused(tmp_path, src, "<group> '': group layers nested more than 32 deep")


def test_groups_within_the_limit_still_read(tmp_path):
    src = write(value_spec(), tmp_path / "m.tmx")
    text = src.read_text()
    start = text.index(' <layer id="1"')
    end = text.index('<objectgroup')
    src.write_text(text[:start] + "<group>" * 30 + text[start:end] + "</group>" * 30 + text[end:])
    imported(tmp_path, src)


def _png_header(w: int, h: int) -> bytes:
    """A PNG that declares w x h pixels and holds no pixel data (a picture bomb's header)."""
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = lambda tag, body: struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_picture_declaring_100000_squared_is_refused_before_decoding(tmp_path, suffix):
    """A PNG header that declares 100,000 x 100,000 px (Pillow: DecompressionBombError): refused
    by the size it declares, before Pillow opens it, with the limit and the fix."""
    (tmp_path / "floor.png").write_bytes(_png_header(100_000, 100_000))
    src = tmp_path / f"m{suffix}"
    spec = value_spec()
    spec.picture = "floor.png"
    write(spec, src)
    refused(tmp_path, src, "image layer 'picture'", "declares 100,000x100,000 px, over the 64 million pixel limit",
            "scale it down")


def test_picture_under_the_limit_but_not_a_picture(tmp_path):
    (tmp_path / "floor.png").write_bytes(b"GIF89a" + bytes(100))
    spec = value_spec()
    spec.picture = "floor.png"
    refused(tmp_path, write(spec, tmp_path / "m.tmx"), "image layer 'picture'", "is not a PNG, WebP or JPEG picture")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_huge_gid_in_layer_data(tmp_path, suffix):
    spec = value_spec(encoding="xml" if suffix == ".tmx" else "csv")
    src = write(spec, tmp_path / f"m{suffix}")
    if suffix == ".tmx":
        _sub(src, '<tile gid="0"/>', f'<tile gid="{10 ** 400}"/>')
    else:
        doc = json.loads(src.read_text())
        doc["layers"][0]["data"][0] = 10 ** 400
        src.write_text(json.dumps(doc))
    refused(tmp_path, src, "layer 'width_ft': layer data holds a GID outside 0..4294967295")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_huge_int_feet_per_square(tmp_path, suffix):
    spec = value_spec()
    spec.props["feet_per_square"] = 10 ** 400
    refused(tmp_path, write(spec, tmp_path / f"m{suffix}"), "map property 'feet_per_square' = ",
            "must be a number (5 ft or 1.5 m)")


def test_tmj_int_property_of_infinity(tmp_path):
    src = _edit_json(write(value_spec(), tmp_path / "m.tmj"),
                     lambda d: d["properties"].append({"name": "n", "type": "int", "value": float("inf")}))
    assert "Infinity" in src.read_text()
    refused(tmp_path, src, "map property 'n': int property value inf is not a valid int")


# -- item 11: wrong types, booleans, negative and zero sizes, a width of 1e308 -----------------------


@pytest.mark.parametrize("key, value, pattern", [
    ("width", '"9"', "map width must be a whole number, got '9' (a string; write the number without quotes)"),
    ("height", "true", "map height must be a whole number, got True"),
    ("tilewidth", "32.0", "map tilewidth must be a whole number, got 32.0"),
    ("width", "0", "map size 0x4 tiles of 32x32 px: every number must be >= 1"),
    ("tileheight", "-32", "map size 9x4 tiles of 32x-32 px: every number must be >= 1"),
    ("tilewidth", "100000", "tiles of 100000x32 px, over the limit of 10,000 px a side"),
    ("infinite", '"false"', "map 'infinite' must be false or true, got 'false'"),
])
def test_tmj_header_wrong_types(tmp_path, key, value, pattern):
    src = write(value_spec(), tmp_path / "m.tmj")
    doc = src.read_text()
    src.write_text(re.sub(rf'\n "{key}": [^,]+,', f'\n "{key}": {value},', doc, count=1))
    assert src.read_text() != doc
    refused(tmp_path, src, pattern)


@pytest.mark.parametrize("key, value, pattern", [
    ("width", "2_4", "map width must be a whole number, got '2_4'"),
    ("height", "4.0", "map height must be a whole number, got '4.0'"),
    ("tilewidth", "-1", "every number must be >= 1"),
    ("infinite", "yes", "map 'infinite' must be 0 or 1, got 'yes'"),
])
def test_tmx_header_wrong_types(tmp_path, key, value, pattern):
    src = write(value_spec(), tmp_path / "m.tmx")
    doc = src.read_text()
    src.write_text(re.sub(rf' {key}="[^"]*"', f' {key}="{value}"', doc, count=1))
    refused(tmp_path, src, pattern)


def test_tmj_layer_width_a_string_or_true(tmp_path):
    src = write(value_spec(), tmp_path / "m.tmj")
    doc = json.loads(src.read_text())
    doc["layers"][1]["width"] = "9"
    src.write_text(json.dumps(doc))
    refused(tmp_path, src, "layer 'height_ft': width and height must be whole numbers, got '9' and 4")
    doc["layers"][1]["width"] = True
    src.write_text(json.dumps(doc))
    refused(tmp_path, src, "layer 'height_ft': width and height must be whole numbers, got True and 4")


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("units, value, shown", [("ft", 1e308, "1e+308"), ("ft", 1001.0, "1001.0"),
                                                 ("m", 1000.5, "1000.5"), ("ft", -0.5, "-0.5")])
def test_ft_property_bounded_as_a_toml_map(tmp_path, suffix, units, value, shown):
    """A value tile's ``ft``, like a TOML legend's width, is 0 (rock) to 1000 in the map's units
    (sim.maps.layers.MAX_LENGTH)."""
    spec = value_spec(units=units)
    ten = VALUES.index(10.0)
    spec.tilesets[0].tiles[ten] = {"ft": value}
    refused(tmp_path, write(spec, tmp_path / f"m{suffix}"),
            f"tile {ten} of tileset 'values' property 'ft' = {shown} must be a number from 0 (rock) to 1000 {units}")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_ft_of_exactly_1000_is_a_width(tmp_path, suffix):
    spec = value_spec()
    ten = VALUES.index(10.0)
    spec.tilesets[0].tiles[ten] = {"ft": 1000.0}
    g = load_map(imported(tmp_path, write(spec, tmp_path / f"m{suffix}")))
    assert g.width_ft[1, 1] == 1000.0 and g.height_ft[1, 1] == 12.0   # the 10-ft tile now says 1000; ceiling 12


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_semantic_width_of_1e308(tmp_path, suffix):
    spec = semantic_spec()
    spec.tilesets[0].tiles[0]["width_ft"] = 1e308
    refused(tmp_path, write(spec, tmp_path / f"m{suffix}"),
            "tile 0 of tileset 'terrain-set' property 'width_ft' = 1e+308 must be a number from 0 (rock) to 1000 ft")


@pytest.mark.parametrize("value, shown", [(True, "True"), ("10", "'10'"), ([10], "[10]")])
def test_tmj_float_property_of_another_json_type(tmp_path, value, shown):
    src = _edit_json(write(value_spec(), tmp_path / "m.tmj"), lambda d: _tile_prop(d, "ft", 10.0).update(value=value))
    refused(tmp_path, src, f"property 'ft': float property value {shown} is not a valid float (a finite number)")


def test_tmj_bool_property_as_a_string_and_tmx_float_as_nan(tmp_path):
    spec = semantic_spec()
    src = _edit_json(write(spec, tmp_path / "m.tmj"), lambda d: _tile_prop(d, "difficult").update(value="true"))
    refused(tmp_path, src, "property 'difficult': bool property value 'true' is not a valid bool")
    src = write(value_spec(), tmp_path / "m.tmx")
    _sub(src, 'type="float" value="10.0"', 'type="float" value="nan"')
    refused(tmp_path, src, "property 'ft': float property value 'nan' is not a valid float")


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_tile_id_and_tilecount_out_of_range(tmp_path, suffix):
    spec = semantic_spec()
    src = write(spec, tmp_path / f"m{suffix}")
    if suffix == ".tmx":
        _sub(src, '<tile id="0">', '<tile id="-1">')
    else:
        _sub(src, '"id": 0,', '"id": -1,')
    refused(tmp_path, src, "tileset 'terrain-set': a " + ("<tile>" if suffix == ".tmx" else "tile"),
            "id must be a whole number from 0 to 268,435,455, got ")
    src = write(spec, tmp_path / f"m{suffix}")
    if suffix == ".tmx":
        _sub(src, 'tilecount="5"', 'tilecount="five"')
    else:
        _sub(src, '"tilecount": 5', '"tilecount": "5"')
    refused(tmp_path, src, "tileset 'terrain-set'", "tilecount must be a whole number from 0 to 268,435,455, got ")


def test_tmj_lists_of_the_wrong_type(tmp_path):
    for key, value, pattern in [("layers", "7", '"layers" must be a JSON array, got 7'),
                                ("tilesets", '{"a": 1}', '"tilesets" must be a JSON array, got {\'a\': 1}')]:
        src = write(value_spec(), tmp_path / "m.tmj")
        doc = json.loads(src.read_text())
        doc[key] = json.loads(value)
        src.write_text(json.dumps(doc))
        refused(tmp_path, src, pattern)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_point_names_the_map_file_cannot_hold(tmp_path, suffix):
    spec = value_spec()
    spec.points = [("a\x01\n[map]", 1.5 * TILE, 1.5 * TILE)] if suffix == ".tmj" else [("x" * 5000, 48.0, 48.0)]
    pattern = ("holds the control character '\\x01'" if suffix == ".tmj" else
               f"the name: 5,000 characters ({shorten('x' * 5000, 30)}); at most 100")
    refused(tmp_path, write(spec, tmp_path / f"m{suffix}"), "object layer 'points' point ", pattern)


def test_description_with_a_carriage_return_refused_with_a_tab_kept(tmp_path):
    spec = value_spec()
    spec.props["description"] = "wet\rcave"
    refused(tmp_path, write(spec, tmp_path / "m.tmj"), "map property 'description'",
            "holds the control character '\\r' at 3")
    spec.props["description"] = "wet\tcave\nsecond line"
    g = load_map(imported(tmp_path, write(spec, tmp_path / "m.tmj")))
    assert g.description == "wet\tcave\nsecond line"
    assert dict(g.points) == POINTS


# -- item 14: a zlib bomb, refused fast and truthfully ---------------------------------------------


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """1 GiB of zeros (268,435,456 tiles) in 4.7 MB of zlib, base64-encoded."""
    c = zlib.compressobj(1)
    zeros = bytes(16 << 20)
    return base64.b64encode(b"".join(c.compress(zeros) for _ in range(64)) + c.flush())


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_zlib_bomb_refused_fast_with_a_true_message(tmp_path, suffix, bomb):
    src = write(value_spec(encoding="base64", compression="zlib"), tmp_path / f"m{suffix}")
    text = src.read_text()
    src.write_text(re.sub(r"eJ[A-Za-z0-9+/=]+", bomb.decode(), text, count=1))
    refused(tmp_path, src, "layer 'width_ft': layer data decompresses to more than 144 bytes; the layer needs 36 "
            "tiles (144 bytes)", bound=5.0)


def test_gzip_bomb_and_cut_off_stream(tmp_path):
    import gzip
    src = write(value_spec(encoding="base64", compression="gzip"), tmp_path / "m.tmj")
    doc = json.loads(src.read_text())
    doc["layers"][0]["data"] = base64.b64encode(gzip.compress(bytes(1 << 24), compresslevel=1)).decode()
    src.write_text(json.dumps(doc))
    refused(tmp_path, src, "layer 'width_ft': layer data decompresses to more than 144 bytes")
    doc["layers"][0]["data"] = base64.b64encode(gzip.compress(np.ones(36, "<u4").tobytes())[:-12]).decode()
    src.write_text(json.dumps(doc))
    refused(tmp_path, src, "layer 'width_ft': layer data is a cut-off gzip stream")


# -- the XML side: entity bombs stay refused, in the map and in an external tileset ------------------


def test_entity_bomb_in_an_external_tileset(tmp_path):
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    src = write(spec, tmp_path / "m.tmj")
    ents = ['<!ENTITY a0 "lol">'] + [f'<!ENTITY a{k} "{("&a" + str(k - 1) + ";") * 10}">' for k in range(1, 10)]
    tsx = tmp_path / "terrain-set.tsx"
    tsx.write_text('<?xml version="1.0"?>\n<!DOCTYPE tileset [' + "".join(ents) + ']>\n'
                   + tsx.read_text().replace('name="terrain-set"', 'name="&a9;"', 1))
    refused(tmp_path, src, "terrain-set.tsx: not a valid TSX tileset XML file (limit on input amplification factor",
            names=tsx)


def test_shipped_entity_bomb_still_refused(tmp_path):
    src = Path(__file__).resolve().parents[1] / "data" / "entity_bomb.tmx"
    refused(tmp_path, src, "not a valid TMX XML file (limit on input amplification factor")


# -- work bounded by the file, not by the number of different tiles ----------------------------------


def test_a_door_layer_of_4_million_different_tiles_is_one_sort(tmp_path):
    """2048 x 2048 squares, every door tile a different GID of one 2^27-tile tileset (an 8-MB
    file): the tiles are looked up with numpy (about a second), not one Python step each (13 s)."""
    import sim.maps.importers.tiled as t
    n = 2048
    b64 = lambda a: base64.b64encode(zlib.compress(np.ascontiguousarray(a, "<u4").tobytes(), 1)).decode()
    ones = np.ones((n, n), np.uint32)
    door = (np.arange(n * n, dtype=np.uint32) + 10).reshape(n, n)
    door[0, 0] = 0
    ft = {"id": 0, "properties": [{"name": "ft", "type": "float", "value": 10.0}]}
    shut = {"id": 5, "properties": [{"name": "door", "type": "bool", "value": False}]}   # GID 15 stays open
    lay = lambda name, a: {"type": "tilelayer", "name": name, "width": n, "height": n, "encoding": "base64",
                           "compression": "zlib", "data": b64(a)}
    doc = {"width": n, "height": n, "tilewidth": 32, "tileheight": 32, "orientation": "orthogonal", "infinite": False,
           "tilesets": [{"firstgid": 1, "name": "v", "tilecount": 2, "tiles": [ft]},
                        {"firstgid": 10, "name": "d", "tilecount": 2 ** 27, "tiles": [shut]}],
           "layers": [lay("width_ft", ones), lay("height_ft", ones), lay("door", door)]}
    src = tmp_path / "m.tmj"
    src.write_text(json.dumps(doc))
    t0 = time.process_time()
    g = t.read_tiled_grid(src)
    took = time.process_time() - t0
    assert int(g.door.sum()) == n * n - 2 and not g.door[0, 0] and not g.door[0, 5]
    assert took < 6.0, f"{took:.1f} s"


def test_too_many_tilesets(tmp_path):
    src = write(semantic_spec(), tmp_path / "m.tmx")
    extra = "".join(f' <tileset firstgid="{100 + k}" name="e{k}" tilecount="1"/>\n' for k in range(10_000))
    _sub(src, ' <layer id="1"', extra + ' <layer id="1"')
    refused(tmp_path, src, "10,001 <tileset> elements, over the limit of 10,000")
