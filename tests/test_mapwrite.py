"""The one map writer (sim.maps.write) and the map schema it shares with the loader: ``[[light]]``,
``[map] image`` and the ``door`` layer (README "Map files")."""

import io
import textwrap

import numpy as np
import pytest
from PIL import Image

from sim.base.errors import DataError
from sim.terrain.grid import CaveGrid, MapLight
from sim.maps.read import load_map
from sim.maps.write import GLYPHS, legend_grid, write_map


def _grid(**kw):
    w = np.array([[0, 10, 10, 2.5], [0, 10, 3, 0]], dtype=float)
    h = np.array([[0, 12, 12, 8], [0, 12, 2.5, 0]], dtype=float)
    return CaveGrid.from_arrays(w, h, name="t", points={"a": (1, 0)}, **kw)


def _png(w, h):
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (90, 80, 70)).save(buf, "PNG")
    return buf.getvalue()


def _same(a: CaveGrid, b: CaveGrid):
    for k in ("width_ft", "height_ft", "difficult", "rock", "door"):
        assert np.array_equal(getattr(a, k), getattr(b, k)), k
    assert dict(a.points) == dict(b.points)
    assert a.lights == b.lights


@pytest.mark.parametrize("fmt", ["legend", "layers"])
def test_round_trip_keeps_every_array_points_and_lights(tmp_path, fmt):
    g = _grid(lights=[MapLight(at=(1, 1), bright_ft=20, shadowy_ft=40, name="brazier", source="torch"),
                      MapLight(at=(2, 0), bright_ft=7.5, shadowy_ft=15)])
    w = write_map(g, tmp_path / "m.toml", fmt=fmt)
    assert w.fmt == fmt
    _same(g, load_map(tmp_path / "m.toml"))


def test_same_grid_same_bytes(tmp_path):
    g = _grid(door=[[False, False, False, True], [False, False, False, False]])
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    write_map(g, a / "m.toml", image=_png(8, 4))
    write_map(g, b / "m.toml", image=_png(8, 4))
    for name in ("m.toml", "m.npz", "m.png"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_doors_are_layers_and_rock_while_closed(tmp_path):
    door = np.zeros((2, 4), dtype=bool)
    door[0, 2] = True
    g = _grid(door=door)
    assert g.rock[0, 2] and g.width_ft[0, 2] == 0
    w = write_map(g, tmp_path / "m.toml")
    assert w.fmt == "layers"
    back = load_map(tmp_path / "m.toml")
    assert back.door.tolist() == door.tolist() and back.rock[0, 2]
    with pytest.raises(DataError, match="closed doors is written with numeric layers"):
        write_map(g, tmp_path / "n.toml", fmt="legend")


def test_image_is_written_beside_and_named(tmp_path):
    write_map(_grid(), tmp_path / "m.toml", image=_png(40, 20))
    assert 'image = "m.png"' in (tmp_path / "m.toml").read_text()
    back = load_map(tmp_path / "m.toml")
    assert back.image == (tmp_path / "m.png").resolve()
    # saved again elsewhere, the picture comes along
    (tmp_path / "copy").mkdir()
    write_map(back, tmp_path / "copy" / "n.toml")
    assert (tmp_path / "copy" / "n.png").read_bytes() == (tmp_path / "m.png").read_bytes()


def test_legend_grid_keeps_existing_glyphs_and_adds_new_ones():
    g = _grid()
    first = legend_grid(g)
    painted = first.replace(width_ft=np.where(np.arange(4) == 1, [[0, 7, 10, 2.5], [0, 10, 3, 0]], first.width_ft))
    painted = painted.replace(glyphs=first.glyphs, legend=first.legend)
    again = legend_grid(painted)
    for glyph, t in first.legend.items():
        if glyph in again.legend:
            assert again.legend[glyph] == t
    assert any(t.width == 7 for t in again.legend.values())


def test_too_many_classes_for_a_legend(tmp_path):
    n = len(GLYPHS) + 1
    w = np.linspace(1, 30, n).reshape(1, n)
    g = CaveGrid.from_arrays(w, np.full((1, n), 10.0))
    assert legend_grid(g) is None
    with pytest.raises(DataError, match="more terrain classes than the 90 glyphs"):
        write_map(g, tmp_path / "m.toml", fmt="legend")
    assert write_map(g, tmp_path / "m.toml").fmt == "layers"


MAP = '''
[map]
name = "lit"
grid = """
####
#..#
####
"""
[legend]
"#" = "wall"
"." = { width = 10, height = 10 }
'''


def _map(tmp_path, extra):
    p = tmp_path / "m.toml"
    p.write_text(MAP + textwrap.dedent(extra))
    return p


@pytest.mark.parametrize("extra, message", [
    ('[[light]]\nat = [1, 1]\nsource = "glowworm"\n', r"m.toml:\d+: \[\[light\]\] #1.source: unknown light source 'glowworm'; use one of"),
    ('[[light]]\nat = [0, 0]\nsource = "torch"\n', r"\[\[light\]\] #1.at: \(0, 0\) is solid rock; put the light on a floor square"),
    ('[[light]]\nat = [9, 1]\nsource = "torch"\n', r"\[\[light\]\] #1.at: \(9, 1\) is off the map \(4x3\)"),
    ('[[light]]\nat = [1, 1]\nbright_ft = -5\nshadowy_ft = 10\n', r"#1.bright_ft: must be a number of feet from 0 to 1000, got -5"),
    ('[[light]]\nat = [1, 1]\nbright_ft = 30\nshadowy_ft = 10\n', r"#1.shadowy_ft: must be at least bright_ft \(30\)"),
    ('[[light]]\nat = [1, 1]\n', r"#1: needs source = \"torch\""),
    ('[[light]]\nat = [1, 1]\nsource = "torch"\nbright_ft = 5\n', r"give either source or bright_ft and shadowy_ft, not both"),
    ('[[light]]\nat = [1, 1]\nsource = "torch"\ncolour = "red"\n', r"#1.colour: unknown key; allowed: at, bright_ft, name, shadowy_ft, source"),
    ('[[light]]\nat = [1, 1]\nsource = "torch"\n[[light]]\nat = "x"\n', r"m.toml:\d+: \[\[light\]\] #2.at: must be \[x, y\]"),
])
def test_bad_lights_are_refused_with_their_place(tmp_path, extra, message):
    with pytest.raises(DataError, match=message):
        load_map(_map(tmp_path, extra))


def test_a_light_source_gives_its_gear_radii(tmp_path):
    g = load_map(_map(tmp_path, '[[light]]\nname = "wick"\nat = [2, 1]\nsource = "candle"\n'))
    assert g.lights == (MapLight(at=(2, 1), bright_ft=0.0, shadowy_ft=5.0, name="wick", source="candle"),)


@pytest.mark.parametrize("size, message", [
    ((10, 7), r"is 10x7 pixels, not a whole number of pixels per square for the 4x3 grid"),
    (None, r"file .*nope.png not found"),
])
def test_bad_image_is_refused(tmp_path, size, message):
    if size:
        (tmp_path / "nope.png").write_bytes(_png(*size))
    text = MAP.replace('name = "lit"', 'name = "lit"\nimage = "nope.png"')
    p = tmp_path / "m.toml"
    p.write_text(text)
    with pytest.raises(DataError, match=message):
        load_map(p)


def test_door_layer_must_be_bool(tmp_path):
    np.savez(tmp_path / "l.npz", width_ft=np.full((2, 2), 10.0), height_ft=np.full((2, 2), 10.0),
             door=np.zeros((2, 2)))
    p = tmp_path / "m.toml"
    p.write_text('[map]\nname = "x"\nlayers = "l.npz"\n')
    with pytest.raises(DataError, match=r"\[map\] layers \(.*l.npz\) door: must be a bool array"):
        load_map(p)


def test_metric_grid_is_written_in_metres_and_reads_back_the_same(tmp_path):
    from sim.maps.read import to_feet

    w = np.array([[0, to_feet(3, "m"), to_feet(0.6, "m"), to_feet(0.7, "m")]])
    h = np.array([[0, to_feet(3.6, "m"), to_feet(2.4, "m"), to_feet(1.1, "m")]])
    g = CaveGrid.from_arrays(w, h, units="m", name="metric")
    for fmt in ("legend", "layers"):
        write_map(g, tmp_path / f"{fmt}.toml", fmt=fmt)
        text = (tmp_path / f"{fmt}.toml").read_text()
        assert 'units = "m"' in text
        back = load_map(tmp_path / f"{fmt}.toml")
        assert np.array_equal(back.width_ft, g.width_ft) and np.array_equal(back.height_ft, g.height_ft), fmt
    assert "width = 0.6, height = 2.4" in (tmp_path / "legend.toml").read_text()


def test_durable_writes_fsync_each_file(tmp_path, monkeypatch):
    import os

    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    write_map(_grid(), tmp_path / "m.toml", fmt="layers")
    assert calls == []
    write_map(_grid(), tmp_path / "m.toml", fmt="layers", durable=True)
    assert len(calls) == 4      # the .npz and the .toml, each file and then its folder
