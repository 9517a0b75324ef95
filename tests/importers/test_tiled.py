"""Tiled import (TMX and TMJ, value and semantic tiles) and export round trips."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.base.errors import DataError
from sim.maps.exporters.tiled import export_tiled
from sim.terrain.grid import CaveGrid
from sim.maps.importers.tiled import PALETTE_FT, read_tiled_grid
from sim.maps.read import load_map
from tests.importers.tiledkit import TILE, Spec, TilesetSpec, write

ROOT = Path(__file__).resolve().parents[2]

CAVE = """\
#########
#..ff~cc#
#..ff~cc#
#########
"""
LEGEND = """\
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
"~" = { width = 10, height = 8, difficult = true }
"c" = { width = 6, height = 2.5 }
"""
POINTS = {"entrance": (1, 1), "lair": (7, 2)}
TERRAIN = {".": (10.0, 12.0, False), "f": (2.0, 8.0, False), "~": (10.0, 8.0, True), "c": (6.0, 2.5, False)}
METRES = {10.0: 3.0, 12.0: 3.6, 2.0: 0.6, 8.0: 2.4, 6.0: 1.8, 2.5: 0.75}
VALUES = sorted(set(PALETTE_FT) | {6.0, 8.0, 12.0})  # the test tileset: the palette and the cave's own values
ARRAYS = ("width_ft", "height_ft", "difficult", "rock", "door")


@pytest.fixture
def reference(tmp_path) -> CaveGrid:
    p = tmp_path / "ref.toml"
    pts = "".join(f'\n[[point]]\nname = "{n}"\nat = [{x}, {y}]\n' for n, (x, y) in POINTS.items())
    p.write_text('[map]\nname = "ref"\nunits = "ft"\ngrid = """\n' + CAVE + '"""\n\n[legend]\n' + LEGEND + pts)
    return load_map(p)


def _rows():
    return CAVE.strip().splitlines()


def _points_px():
    return [(n, (x + 0.5) * TILE, (y + 0.25) * TILE) for n, (x, y) in POINTS.items()]


def value_spec(*, units="ft", **kw) -> Spec:
    """The reference cave as value tiles: a palette tileset (plus 6, 8, 12 ft), a difficult tile."""
    values = VALUES
    # in a metre map every length is in metres: 3 m = 10 ft, 0.6 m = 2 ft (DESIGN §4)
    tiles = [{"ft": float(METRES.get(v, v * 0.3)) if units == "m" else float(v)} for v in values] + [{}]
    diff_gid = len(values) + 1
    rows = _rows()
    w = np.zeros((len(rows), len(rows[0])), np.uint32)
    h = np.zeros_like(w)
    d = np.zeros_like(w)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                continue
            tw, th, td = TERRAIN[ch]
            w[r, c] = values.index(tw) + 1
            h[r, c] = values.index(th) + 1
            d[r, c] = diff_gid if td else 0
    props = {"units": units, "feet_per_square": 1.5 if units == "m" else 5.0, "name": "ref"}
    return Spec(cols=w.shape[1], rows=w.shape[0], tilesets=[TilesetSpec(tiles, name="values")],
                layers=[("width_ft", w), ("height_ft", h), ("difficult", d)], props=props, points=_points_px(), **kw)


def semantic_spec(**kw) -> Spec:
    kinds = list(TERRAIN)
    tiles = [{"width_ft": TERRAIN[k][0], "height_ft": TERRAIN[k][1], **({"difficult": True} if TERRAIN[k][2] else {})}
             for k in kinds] + [{"rock": True}]
    rows = _rows()
    g = np.zeros((len(rows), len(rows[0])), np.uint32)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            # rock: alternately empty cells and an explicit rock tile (both are rock)
            g[r, c] = (len(kinds) + 1 if (r + c) % 2 else 0) if ch == "#" else kinds.index(ch) + 1
    return Spec(cols=g.shape[1], rows=g.shape[0], tilesets=[TilesetSpec(tiles, name="terrain-set", firstgid=1)],
                layers=[("terrain", g)], props={"name": "ref"}, points=_points_px(), **kw)


def assert_same(a: CaveGrid, b: CaveGrid, *, points=True):
    for k in ARRAYS:
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
    if points:
        assert dict(a.points) == dict(b.points)


# -- both styles, both formats, every encoding ---------------------------------------------------

@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
@pytest.mark.parametrize("style", ["value", "value-m", "semantic"])
def test_styles_give_the_toml_maps_arrays(tmp_path, reference, suffix, style):
    spec = {"value": value_spec, "value-m": lambda: value_spec(units="m"), "semantic": semantic_spec}[style]()
    g = read_tiled_grid(write(spec, tmp_path / f"m{suffix}"))
    assert_same(g, reference)
    assert g.width_ft[1, 3] == 2.0 and g.height_ft[1, 6] == 2.5 and g.difficult[1, 5]


@pytest.mark.parametrize("suffix,encoding,compression", [
    (".tmx", "csv", ""), (".tmx", "xml", ""), (".tmx", "base64", ""), (".tmx", "base64", "zlib"),
    (".tmx", "base64", "gzip"), (".tmj", "csv", ""), (".tmj", "base64", ""), (".tmj", "base64", "zlib"),
    (".tmj", "base64", "gzip")])
def test_every_layer_encoding_reads_the_same(tmp_path, reference, suffix, encoding, compression):
    for spec in (value_spec(encoding=encoding, compression=compression),
                 semantic_spec(encoding=encoding, compression=compression)):
        assert_same(read_tiled_grid(write(spec, tmp_path / f"m{suffix}")), reference)


def test_base64_wrapped_over_lines(tmp_path, reference):
    p = write(value_spec(encoding="base64", compression="zlib"), tmp_path / "m.tmx")
    import re
    text = re.sub(r"(eJ[A-Za-z0-9+/=]+)", lambda m: "\n   ".join(m.group(1)[i:i + 20] for i in range(0, len(m.group(1)), 20)),
                  p.read_text())
    p.write_text(text)
    assert_same(read_tiled_grid(p), reference)


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
@pytest.mark.parametrize("ext", ["tsx", "tsj"])
def test_external_tilesets(tmp_path, reference, suffix, ext):
    spec = semantic_spec()
    spec.tilesets[0].external = ext
    assert_same(read_tiled_grid(write(spec, tmp_path / f"m{suffix}")), reference)


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_flip_bits_are_ignored_and_a_gid_finds_its_tileset(tmp_path, reference, suffix):
    spec = semantic_spec()
    g = spec.layers[0][1]
    flips = np.array([0x80000000, 0x40000000, 0x20000000, 0x10000000, 0xE0000000], dtype=np.uint32)
    nz = g != 0
    g[nz] |= flips[np.arange(nz.sum()) % len(flips)]
    # a second tileset before the terrain: GIDs shift by its size; largest firstgid <= GID wins
    spec.tilesets[0].firstgid = 11
    spec.tilesets.insert(0, TilesetSpec([{"width_ft": 99.0, "height_ft": 99.0}] * 10, firstgid=1, name="decor"))
    base = g & np.uint32(0x0FFFFFFF)
    g[:] = np.where(base > 0, (base + 10) | (g & np.uint32(0xF0000000)), 0)
    assert_same(read_tiled_grid(write(spec, tmp_path / f"m{suffix}")), reference)


def test_semantic_layer_named_terrain_among_several(tmp_path, reference):
    spec = semantic_spec()
    spec.layers.append(("decoration", np.ones_like(spec.layers[0][1])))
    assert_same(read_tiled_grid(write(spec, tmp_path / "m.tmx")), reference)
    spec.layers[0] = ("ground", spec.layers[0][1])
    with pytest.raises(DataError, match=r"name the terrain layer 'terrain'"):
        read_tiled_grid(write(spec, tmp_path / "n.tmx"))


def test_door_layer_marks_closed_doors(tmp_path):
    spec = value_spec()
    door = np.zeros_like(spec.layers[0][1])
    door[1, 3] = len(spec.tilesets[0].tiles)  # any tile
    spec.layers.append(("door", door))
    g = read_tiled_grid(write(spec, tmp_path / "m.tmj"))
    assert g.door.sum() == 1 and g.door[1, 3] and g.rock[1, 3]


# -- the shipped examples ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tiled_values.tmx", "tiled_semantic.tmj"])
def test_shipped_examples_match_their_toml_twin(name):
    twin = load_map(ROOT / "maps" / "tiled_twin.toml")
    g = read_tiled_grid(ROOT / "maps" / name)
    assert_same(g, twin)
    assert g.points  # the examples carry named points


# -- export -> import ----------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
@pytest.mark.parametrize("name", ["warrens.toml", "gallery_m.toml", "rat_crack.toml", "fissure_hold.toml"])
def test_export_then_import_is_exact(tmp_path, suffix, name):
    g = load_map(ROOT / "maps" / name)
    files = export_tiled(g, tmp_path / f"x{suffix}")
    assert files[1].name == "x-tiles.png" and files[1].exists()
    back = read_tiled_grid(files[0])
    assert_same(back, g)
    assert back.name == g.name


def test_many_values_refused_unless_rounded_down(tmp_path, capsys):
    from sim.maps.generate import generate_cave
    from sim.maps.write import write_map

    g = generate_cave(3, 128, 128)   # thousands of distinct float widths and ceilings
    write_map(g, tmp_path / "gen.toml", fmt="layers")
    out = tmp_path / "gen.tmx"
    assert main(["export", str(tmp_path / "gen.toml"), "--to", "tiled", str(out)]) == 2
    err = capsys.readouterr().err
    assert "different widths and ceilings, over the 4096 tiles" in err and "give --round" in err
    assert not out.exists()
    assert main(["export", str(tmp_path / "gen.toml"), "--to", "tiled", str(out), "--round"]) == 0
    back = read_tiled_grid(out)
    src = load_map(tmp_path / "gen.toml")
    assert np.array_equal(back.rock, src.rock)
    assert (back.width_ft <= src.width_ft).all() and (back.height_ft <= src.height_ft).all()
    assert set(np.unique(back.width_ft[~back.rock])) <= set(PALETTE_FT) | set(np.unique(src.width_ft[src.width_ft < 0.25]))


grids = st.integers(2, 9).flatmap(lambda c: st.integers(1, 7).flatmap(lambda r: st.tuples(
    st.lists(st.lists(st.sampled_from([0.0, 0.25, 1.0, 2.3, 5.0, 7.123456789, 10.0, 1 / 3]), min_size=c, max_size=c),
             min_size=r, max_size=r),
    st.lists(st.lists(st.floats(0.5, 80.0, allow_nan=False), min_size=c, max_size=c), min_size=r, max_size=r),
    st.lists(st.lists(st.booleans(), min_size=c, max_size=c), min_size=r, max_size=r),
    st.lists(st.lists(st.integers(0, 9), min_size=c, max_size=c), min_size=r, max_size=r))))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(grids, st.sampled_from([".tmx", ".tmj"]))
def test_export_import_round_trip_property(tmp_path, data, suffix):
    w, h, d, door = (np.array(a) for a in data)
    g = CaveGrid.from_arrays(w, h, difficult=d, door=door == 0, name="p")
    floor = np.argwhere(~g.rock)
    pts = {f"p{i}": (int(c), int(r)) for i, (r, c) in enumerate(floor[:3])}
    g = g.replace(points=pts)
    back = read_tiled_grid(export_tiled(g, tmp_path / f"x{suffix}")[0])
    assert_same(back, g)


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_floor_picture_goes_out_as_an_image_layer_and_comes_back(tmp_path, suffix, capsys):
    import io

    from PIL import Image

    from sim.maps.write import write_map

    g = load_map(ROOT / "maps" / "gallery.toml")
    buf = io.BytesIO()
    Image.new("RGB", (g.cols * 40, g.rows * 40), (90, 80, 70)).save(buf, format="PNG")
    write_map(g, tmp_path / "pic.toml", image=buf.getvalue())
    src = load_map(tmp_path / "pic.toml")
    files = export_tiled(src, tmp_path / f"x{suffix}")
    assert [f.name for f in files] == [f"x{suffix}", "x-tiles.png", "x-picture.png"]
    assert Image.open(files[1]).size[1] % 40 == 0            # the tiles take the picture's 40 px scale
    back = read_tiled_grid(files[0])
    assert_same(back, src)
    assert back.image == files[2].resolve() and files[2].read_bytes() == buf.getvalue()
    out = tmp_path / "again.toml"
    assert main(["import", str(files[0]), "--out", str(out)]) == 0
    again = load_map(out)
    assert again.image is not None and again.image.read_bytes() == buf.getvalue()
    # a picture layer that does not cover the map is refused, naming the layer
    Image.new("RGB", (10, 10)).save(files[2])
    with pytest.raises(DataError, match=r"image layer 'picture': the picture is 10x10 px but the map's squares "
                                        r"cover 1000x200 px"):
        read_tiled_grid(files[0])


# -- the real program ----------------------------------------------------------------------------

TILED = shutil.which("tiled")


@pytest.mark.skipif(TILED is None, reason="the `tiled` program is not installed (apt-get install tiled); "
                    "the round trip through Tiled's own --export-map is not checked")
@pytest.mark.parametrize("name", ["warrens.toml", "gallery_m.toml"])
def test_round_trip_through_tiled_export_map(tmp_path, name):
    g = load_map(ROOT / "maps" / name)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": str(tmp_path)}
    tmx = export_tiled(g, tmp_path / "x.tmx")[0]
    subprocess.run([TILED, "--export-map", "json", str(tmx), str(tmp_path / "y.tmj")], env=env, check=True,
                   timeout=120, capture_output=True)
    subprocess.run([TILED, "--export-map", "tmx", str(tmp_path / "y.tmj"), str(tmp_path / "z.tmx")], env=env,
                   check=True, timeout=120, capture_output=True)
    for f in ("y.tmj", "z.tmx"):
        assert_same(read_tiled_grid(tmp_path / f), g)
    # Tiled keeps 15 significant digits of a float property: computed values come back that close
    w = np.where(g.rock, 0, g.width_ft + np.where(g.rock, 0, 1 / 3))
    long = g.replace(width_ft=w)
    export_tiled(long, tmp_path / "l.tmx")
    subprocess.run([TILED, "--export-map", "json", str(tmp_path / "l.tmx"), str(tmp_path / "l.tmj")], env=env,
                   check=True, timeout=120, capture_output=True)
    back = read_tiled_grid(tmp_path / "l.tmj")
    assert np.allclose(back.width_ft, long.width_ft, rtol=1e-14, atol=0)
    assert np.array_equal(back.rock, long.rock)
    # the shipped examples too
    for ex in ("tiled_values.tmx", "tiled_semantic.tmj"):
        out = tmp_path / ("e.tmj" if ex.endswith(".tmx") else "e.tmx")
        fmt = "json" if out.suffix == ".tmj" else "tmx"
        subprocess.run([TILED, "--export-map", fmt, str(ROOT / "maps" / ex), str(out)], env=env, check=True,
                       timeout=120, capture_output=True)
        assert_same(read_tiled_grid(out), read_tiled_grid(ROOT / "maps" / ex))


# -- the command line, and bad input -------------------------------------------------------------

def test_cli_import_writes_a_map_that_loads(tmp_path, capsys, reference):
    src = write(value_spec(), tmp_path / "m.tmx")
    out = tmp_path / "cave.toml"
    assert main(["import", str(src), "--out", str(out), "--point", "mid=2,2"]) == 0
    g = load_map(out)
    assert_same(g, reference, points=False)
    assert g.points == {**POINTS, "mid": (2, 2)}
    assert "wrote" in capsys.readouterr().out
    first = out.read_bytes()
    assert main(["import", str(src), "--out", str(out), "--point", "mid=2,2"]) == 0
    assert out.read_bytes() == first  # same input, same bytes


def _bad(tmp_path, capsys, src, pattern):
    out = tmp_path / "out.toml"
    assert main(["import", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert pattern in err, err
    assert "Traceback" not in err
    assert not out.exists() and not list(tmp_path.glob(".out.toml*"))


def _mutate(spec_fn, **changes):
    spec = spec_fn()
    for k, v in changes.items():
        setattr(spec, k, v)
    return spec


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_infinite_map_refused(tmp_path, capsys, suffix):
    _bad(tmp_path, capsys, write(_mutate(value_spec, infinite=True), tmp_path / f"m{suffix}"),
         "the map is infinite")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_chunked_layer_refused(tmp_path, capsys, suffix):
    p = write(_mutate(value_spec, infinite=True), tmp_path / f"m{suffix}")
    p.write_text(p.read_text().replace('infinite="1"', 'infinite="0"').replace('"infinite": true', '"infinite": false'))
    _bad(tmp_path, capsys, p, "layer 'width_ft': layer data is stored in chunks")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
@pytest.mark.parametrize("orientation", ["isometric", "hexagonal", "staggered"])
def test_non_orthogonal_refused(tmp_path, capsys, suffix, orientation):
    _bad(tmp_path, capsys, write(_mutate(value_spec, orientation=orientation), tmp_path / f"m{suffix}"),
         f"map orientation is '{orientation}'")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_zstd_refused_with_the_fix(tmp_path, capsys, suffix):
    _bad(tmp_path, capsys, write(_mutate(value_spec, encoding="base64", compression="zstd"), tmp_path / f"m{suffix}"),
         "layer 'width_ft': zstd-compressed layer data is not supported")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_unknown_compression_refused(tmp_path, capsys, suffix):
    _bad(tmp_path, capsys, write(_mutate(value_spec, encoding="base64", compression="lzma"), tmp_path / f"m{suffix}"),
         "layer 'width_ft': unknown compression 'lzma'")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_bad_base64_and_bad_zlib(tmp_path, capsys, suffix):
    p = write(_mutate(value_spec, encoding="base64", compression="zlib"), tmp_path / f"m{suffix}")
    text = p.read_text()
    import base64
    import re
    import zlib
    one_tile = base64.b64encode(zlib.compress(b"\x01\x00\x00\x00")).decode()
    p.write_text(re.sub(r"eJ[A-Za-z0-9+/=]+", one_tile, text, count=1))  # valid zlib, wrong length
    _bad(tmp_path, capsys, p, "layer 'width_ft': layer data holds 1 tiles, the layer needs 36")
    p.write_text(re.sub(r"eJ[A-Za-z0-9+/=]+", "!!notbase64!!", text, count=1))
    _bad(tmp_path, capsys, p, "layer 'width_ft': layer data is not valid base64")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_missing_external_tileset(tmp_path, capsys, suffix):
    spec = semantic_spec()
    spec.tilesets[0].external = "tsx"
    p = write(spec, tmp_path / f"m{suffix}")
    (tmp_path / "terrain-set.tsx").unlink()
    _bad(tmp_path, capsys, p, "external tileset 'terrain-set.tsx' not found")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_layer_size_not_the_maps(tmp_path, capsys, suffix):
    spec = value_spec()
    spec.layer_size = {"height_ft": (8, 4)}
    spec.layers[1] = ("height_ft", spec.layers[1][1][:, :8])
    _bad(tmp_path, capsys, write(spec, tmp_path / f"m{suffix}"),
         "layer 'height_ft': is 8x4 tiles but the map is 9x4")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_tile_without_the_property(tmp_path, capsys, suffix):
    spec = value_spec()
    ten = VALUES.index(10.0)
    spec.tilesets[0].tiles[ten] = {"width": 10.0}   # the 10-ft tile lost its ft
    _bad(tmp_path, capsys, write(spec, tmp_path / f"m{suffix}"),
         f"layer 'width_ft' square (1, 1): tile {ten} of tileset 'values' has no property 'ft'")
    spec = semantic_spec()
    spec.tilesets[0].tiles[1] = {"width_ft": 2.0}
    _bad(tmp_path, capsys, write(spec, tmp_path / f"s{suffix}"),
         "layer 'terrain' square (3, 1): tile 1 of tileset 'terrain-set' has no property 'height_ft'")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_tile_property_of_the_wrong_type(tmp_path, capsys, suffix):
    spec = value_spec()
    ten = VALUES.index(10.0)
    spec.tilesets[0].tiles[ten] = {"ft": "ten"}
    _bad(tmp_path, capsys, write(spec, tmp_path / f"m{suffix}"), f"tile {ten} of tileset 'values' property 'ft' = "
         "'ten' must be a float")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_gid_with_no_tileset(tmp_path, capsys, suffix):
    spec = semantic_spec()
    spec.layers[0][1][2, 4] = 77
    _bad(tmp_path, capsys, write(spec, tmp_path / f"m{suffix}"), "layer 'terrain' square (4, 2): GID 77 belongs to no "
         "tileset")
    spec = semantic_spec()
    spec.tilesets[0].firstgid = 3   # GIDs 1 and 2 now fall before the first tileset
    _bad(tmp_path, capsys, write(spec, tmp_path / f"n{suffix}"), "GID 1 belongs to no tileset")


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_bad_map_properties(tmp_path, capsys, suffix):
    spec = value_spec()
    spec.props["units"] = "yards"
    _bad(tmp_path, capsys, write(spec, tmp_path / f"m{suffix}"), "map property 'units' = 'yards'")
    spec = value_spec()
    spec.props["feet_per_square"] = 10.0
    _bad(tmp_path, capsys, write(spec, tmp_path / f"n{suffix}"), "map property 'feet_per_square' = 10.0 (ft): "
         "cavesim squares are 5 ft")


def test_point_on_rock_or_off_the_map(tmp_path, capsys):
    spec = value_spec()
    spec.points = [("bad", 0.5 * TILE, 0.5 * TILE)]
    _bad(tmp_path, capsys, write(spec, tmp_path / "m.tmx"), "point 'bad': square (0, 0) is rock")
    spec.points = [("far", 40.0 * TILE, 0.5 * TILE)]
    _bad(tmp_path, capsys, write(spec, tmp_path / "n.tmj"), "point 'far': at pixel (1280, 16) = square (40, 0), off")


def test_not_xml_not_json_and_a_missing_value_layer(tmp_path, capsys):
    (tmp_path / "a.tmx").write_text("<map orientation=")
    _bad(tmp_path, capsys, tmp_path / "a.tmx", "not a valid TMX XML file")
    (tmp_path / "a.tmj").write_text("{\"layers\": [")
    _bad(tmp_path, capsys, tmp_path / "a.tmj", "not valid JSON (line 1")
    spec = value_spec()
    spec.layers = spec.layers[:1]
    _bad(tmp_path, capsys, write(spec, tmp_path / "b.tmx"), "has a tile layer 'width_ft' but no layer 'height_ft'")


def test_xml_entity_bomb_is_refused_not_expanded(tmp_path, capsys):
    src = ROOT / "tests" / "data" / "entity_bomb.tmx"   # "billion laughs": 10^9 characters if expanded
    _bad(tmp_path, capsys, src, "not a valid TMX XML file (limit on input amplification factor")


def test_unknown_suffix_and_jpeg_refused(tmp_path, capsys):
    (tmp_path / "m.tsx").write_text("x")
    _bad(tmp_path, capsys, tmp_path / "m.tsx", "cavesim cannot import .tsx files; it reads .dd2vtt, .df2vtt, .png, .tmj, .tmx, .uvtt")
    (tmp_path / "m.jpg").write_bytes(b"\xff\xd8\xff")
    _bad(tmp_path, capsys, tmp_path / "m.jpg", "is a JPEG; JPEG is lossy")


def test_oversized_map_refused_before_work(tmp_path, capsys):
    spec = value_spec()
    out = tmp_path / "o.toml"
    src = write(spec, tmp_path / "m.tmx")
    assert main(["import", str(src), "--out", str(out), "--max-map-size", "8x8"]) == 2
    assert "is 9x4 squares, over the limit of 8x8" in capsys.readouterr().err
