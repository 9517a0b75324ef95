"""Universal VTT import: the format, bad input, doors, lights, points, the two real samples."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sim.cli import main
from sim.base.errors import DataError
from sim.maps.importers import importer_for
from sim.maps.importers.common import ImportOptions
from sim.maps.importers.vtt import import_file
from sim.maps.read import load_map

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "uvtt"


def png_b64(w, h, colour=(120, 90, 60, 255)) -> str:
    buf = io.BytesIO()
    Image.new("RGBA", (w, h), colour).save(buf, format="PNG")
    return base64.b64encode(buf.getvalue()).decode()


def pt(x, y):
    return {"x": x, "y": y}


def room_doc(origin=(0, 0), *, fmt=0.3, image="", portals=(), lights=(), objects=True, extra_walls=()):
    """A 6 x 4-square map: a 4 x 2-square room (squares 1-4, 1-2) with a wall loop."""
    ox, oy = origin
    loop = [pt(1 + ox, 1 + oy), pt(5 + ox, 1 + oy), pt(5 + ox, 3 + oy), pt(1 + ox, 3 + oy), pt(1 + ox, 1 + oy)]
    doc = {
        "format": fmt,
        "resolution": {"map_origin": pt(ox, oy), "map_size": pt(6, 4), "pixels_per_grid": 16},
        "line_of_sight": [loop, *extra_walls],
        "portals": list(portals),
        "lights": list(lights),
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "image": image,
    }
    if objects:
        doc["objects_line_of_sight"] = []
    return doc


def write(tmp_path, doc, name="m.dd2vtt") -> Path:
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return p


def imported(tmp_path, doc, **opts):
    return import_file(write(tmp_path, doc), ImportOptions(**opts))


# ---------------------------------------------------------------- the format

def test_suffixes_choose_the_vtt_importer():
    for s in ("a.dd2vtt", "a.df2vtt", "a.uvtt", "A.UVTT"):
        assert importer_for(s) == "sim.maps.importers.vtt"
    assert importer_for("cave.tmx") == importer_for("cave.TMJ") == "sim.maps.importers.tiled"
    assert importer_for("cave.png") == "sim.maps.importers.image"
    with pytest.raises(DataError, match=r"cave\.tsx: cavesim cannot import \.tsx files; it reads \.dd2vtt, \.df2vtt, "
                                        r"\.png, \.tmj, \.tmx, \.uvtt"):
        importer_for("cave.tsx")


def test_room_widths_and_units(tmp_path):
    g = imported(tmp_path, room_doc()).grid
    assert (g.cols, g.rows) == (6, 4)
    floor = ~g.rock
    assert floor[1:3, 1:5].all() and floor.sum() == 8
    assert np.allclose(g.width_ft[1:3, 1:5], 10.0, atol=0.1)     # 2 squares of 5 ft across
    assert np.allclose(g.height_ft[floor], 10.0)                  # the stated default ceiling
    g2 = imported(tmp_path, room_doc(), feet_per_square=10.0, ceiling_ft=7.5).grid
    assert np.allclose(g2.width_ft[1:3, 1:5], 20.0, atol=0.1) and np.allclose(g2.height_ft[~g2.rock], 7.5)


def test_origin_shift_puts_walls_in_the_same_squares(tmp_path):
    a = imported(tmp_path, room_doc((0, 0))).grid
    b = imported(tmp_path, room_doc((2, 1))).grid
    assert np.array_equal(a.width_ft, b.width_ft) and np.array_equal(a.rock, b.rock)


def test_format_02_without_objects_and_empty_image_load(tmp_path):
    res = imported(tmp_path, room_doc(fmt="0.2", objects=False, image=""))
    assert res.image is None and res.warnings == ()
    assert (~res.grid.rock).sum() == 8


def test_unknown_format_loads_with_one_warning(tmp_path):
    res = imported(tmp_path, room_doc(fmt=7))
    assert len(res.warnings) == 1 and "format: 7 is not a known Universal VTT version" in res.warnings[0]


def test_image_kept_and_mismatched_size_warns(tmp_path):
    res = imported(tmp_path, room_doc(image=png_b64(96, 64)))    # 6 x 4 squares x 16 px: exact
    assert res.warnings == () and res.image == base64.b64decode(png_b64(96, 64)) and res.image_suffix == ".png"
    res = imported(tmp_path, room_doc(image=png_b64(90, 60)))     # 15 px a square: it covers the grid, kept
    assert res.warnings == () and res.image == base64.b64decode(png_b64(90, 60))
    res = imported(tmp_path, room_doc(image=png_b64(91, 60)))
    assert res.warnings == (
        f"{tmp_path / 'm.dd2vtt'}: image: 91 x 60 pixels, but the map is 6 x 4 squares of 16 pixels (96 x 64); "
        "it is stretched to the grid",)
    with Image.open(io.BytesIO(res.image)) as im:
        assert im.size == (96, 64) and im.format == "PNG"         # stretched to cover the grid exactly


def test_duplicate_points_merge(tmp_path):
    doc = room_doc(extra_walls=[[pt(2, 2), pt(2, 2 + 1e-12), pt(2, 2.0000000001)]])
    res = imported(tmp_path, doc)
    assert any("line_of_sight[1]: all its points are the same point; skipped" in w for w in res.warnings)


def test_closed_door_on_a_grid_line_is_a_door_on_its_edge_open_portal_a_passage(tmp_path):
    # a partition along the grid line x = 3 with a one-square doorway at y 1..2 (docs/rules.md §6.8)
    wall_a = [pt(3, 2), pt(3, 3)]
    closed = {"position": pt(3, 1.5), "bounds": [pt(3, 1), pt(3, 2)], "rotation": 1.57, "closed": True,
              "freestanding": False}
    g = imported(tmp_path, room_doc(extra_walls=[wall_a], portals=[closed])).grid
    assert not g.door.any() and not g.rock[1, 2] and not g.rock[1, 3]
    assert np.argwhere(g.edge_doors.east).tolist() == [[1, 2]]
    assert np.argwhere(g.edges.east).tolist() == [[1, 2], [2, 2]]       # the door edge and the wall below it
    opened = dict(closed, closed=False)
    g = imported(tmp_path, room_doc(extra_walls=[wall_a], portals=[opened])).grid
    assert not g.door.any() and not g.rock[1, 3] and g.edge_doors is None
    assert np.argwhere(g.edges.east).tolist() == [[2, 2]]


def test_closed_door_off_the_grid_lines_is_a_door_square(tmp_path):
    # the same partition half a square east, off the grid lines: the door is a square, as before
    wall_a = [pt(3.5, 2), pt(3.5, 3)]
    closed = {"position": pt(3.5, 1.5), "bounds": [pt(3.5, 1), pt(3.5, 2)], "rotation": 1.57, "closed": True,
              "freestanding": False}
    g = imported(tmp_path, room_doc(extra_walls=[wall_a], portals=[closed])).grid
    assert g.door[1, 3] and g.door.sum() == 1 and g.rock[1, 3] and g.width_ft[1, 3] == 0
    assert g.edges is None


def test_lights_become_map_lights(tmp_path):
    lights = [{"position": pt(2.5, 1.5), "range": 4, "intensity": 1, "color": "ffeccd8b", "shadows": True},
              {"position": pt(10, 10), "range": 2, "intensity": 1, "color": "ff000000"}]
    res = imported(tmp_path, room_doc(lights=lights))
    (light,) = res.grid.lights
    assert light.at == (2, 1) and light.shadowy_ft == 20.0 and light.bright_ft == 10.0   # 4 squares x 5 ft
    assert any("lights[1]: at (10.00, 10.00) squares, not on or beside a floor square; skipped" in w
               for w in res.warnings)


# ---------------------------------------------------------------- bad input: one located message

BAD = [
    ({"resolution": None}, r"m\.dd2vtt: resolution: missing"),
    ({"resolution": {"map_size": pt(6, 4)}}, r"resolution\.pixels_per_grid: missing"),
    ({"resolution": {"map_size": pt(6, 4), "pixels_per_grid": 0}}, r"resolution\.pixels_per_grid: must be > 0, got 0"),
    ({"resolution": {"map_size": pt(6, 4), "pixels_per_grid": -5}}, r"must be > 0, got -5"),
    ({"resolution": {"pixels_per_grid": 16}}, r"resolution\.map_size: missing"),
    ({"resolution": {"map_size": pt(0, 4), "pixels_per_grid": 16}}, r"resolution\.map_size: must be > 0 squares"),
    ({"line_of_sight": [[pt(1, 1)]]}, r"line_of_sight\[0\]: a polyline needs at least 2 points, got 1"),
    ({"line_of_sight": [[pt(1, 1), pt(float("nan"), 2)]]}, r"line_of_sight\[0\]\[1\]\.x: must be a finite number, got nan"),
    ({"line_of_sight": [[pt(1, 1), pt(2, float("inf"))]]}, r"line_of_sight\[0\]\[1\]\.y: must be a finite number, got inf"),
    ({"line_of_sight": [[pt(1, 1), {"x": "a", "y": 1}]]}, r"line_of_sight\[0\]\[1\]\.x: must be a number, got 'a'"),
    ({"line_of_sight": "walls"}, r"line_of_sight: must be a list of polylines"),
    ({"portals": [{"bounds": [pt(1, 1)]}]}, r"portals\[0\]\.bounds: must be a list of 2 points"),
    ({"lights": [{"position": pt(1, 1), "range": -1}]}, r"lights\[0\]\.range: must be >= 0 squares, got -1"),
]


@pytest.mark.parametrize("change, message", BAD)
def test_bad_input_is_located(tmp_path, change, message):
    doc = room_doc()
    doc.update(change)
    if doc.get("resolution") is None:
        del doc["resolution"]
    with pytest.raises(DataError, match=message):
        imported(tmp_path, doc)


def test_not_json_and_truncated(tmp_path):
    with pytest.raises(DataError, match=r"m\.dd2vtt: line 1, column 1: not valid JSON: Expecting value"):
        imported(tmp_path, "<html>")
    text = json.dumps(room_doc())
    with pytest.raises(DataError, match=r"not valid JSON: .*\(the file ends early: is it truncated\?\)"):
        imported(tmp_path, text[: len(text) // 2])
    with pytest.raises(DataError, match=r"one JSON object \{\.\.\.\}, got list"):
        imported(tmp_path, "[1, 2]")


def test_file_size_cap_before_reading(tmp_path):
    p = write(tmp_path, room_doc())
    with pytest.raises(DataError, match=r"MB is over the 0 MB limit for a Universal VTT file"):
        import_file(p, ImportOptions(max_file_bytes=100))


def test_pixel_budget_names_the_resolution_to_use(tmp_path):
    p = write(tmp_path, room_doc())
    with pytest.raises(DataError, match=r"6 x 4 squares of 5 ft at 10 px/ft is 6\.0e\+04 pixels, over the "
                                        r"1\.0e\+04 limit; use --resolution 4 or lower"):
        import_file(p, ImportOptions(max_pixels=10_000, resolution=10))


def test_seed_and_point_checks(tmp_path):
    p = write(tmp_path, room_doc())
    with pytest.raises(DataError, match=r"--floor 9,9: outside the map \(6 x 4 squares"):
        import_file(p, ImportOptions(floor=((9, 9),)))
    with pytest.raises(DataError, match=r"--point lair=0,0: square \(0, 0\) is rock in the imported map"):
        import_file(p, ImportOptions(points={"lair": (0, 0)}))


def test_floor_and_rock_overrides(tmp_path):
    # a room drawn with no wall on its right: its space runs off the map's edge
    open_room = room_doc()
    open_room["line_of_sight"] = [[pt(6, 1), pt(1, 1), pt(1, 3), pt(6, 3)]]
    p = write(tmp_path, open_room)
    with pytest.raises(DataError, match=r"no floor found.*--floor X,Y"):
        import_file(p)
    g = import_file(p, ImportOptions(floor=((2, 1),))).grid
    assert (~g.rock)[1:3, 1:6].all()
    p2 = write(tmp_path, room_doc(), name="r.uvtt")
    with pytest.raises(DataError, match="no floor found"):
        import_file(p2, ImportOptions(rock=((2, 1),)))


# ---------------------------------------------------------------- the command

def test_cli_writes_loadable_map_same_bytes_twice(tmp_path, capsys):
    doc = room_doc(image=png_b64(96, 64), lights=[{"position": pt(3, 2), "range": 6}])
    src = write(tmp_path, doc, name="cave.uvtt")
    out = tmp_path / "out.toml"
    args = ["import", str(src), "--out", str(out), "--point", "entrance=1,1", "--point", "lair=4,2"]
    assert main(args) == 0
    first = {p.name: p.read_bytes() for p in tmp_path.glob("out.*")}
    assert set(first) == {"out.toml", "out.png"}             # no doors: a legend map, and its picture
    assert main(args) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("out.*")} == first
    g = load_map(out)
    assert g.points == {"entrance": (1, 1), "lair": (4, 2)}
    assert g.image == (tmp_path / "out.png").resolve() or g.image.name == "out.png"
    assert g.lights[0].shadowy_ft == 30.0 and g.lights[0].bright_ft == 15.0
    assert "wrote" in capsys.readouterr().out


def test_cli_bad_input_exit_2_nothing_written(tmp_path, capsys):
    src = write(tmp_path, "{\"format\": 0.3, \"resolution\": ", name="t.dd2vtt")
    out = tmp_path / "t.toml"
    assert main(["import", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cavesim: error: ") and "t.dd2vtt: line 1" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [src]
    for bad, msg in ((["--ceiling", "-1"], "--ceiling -1"), (["--resolution", "0"], "--resolution 0"),
                     (["--point", "x"], "--point 'x': give NAME=X,Y"), (["--floor", "a,b"], "--floor 'a,b'")):
        assert main(["import", str(src), "--out", str(out), *bad]) == 2
        assert msg in capsys.readouterr().err
    assert main(["import", str(src), "--out", str(tmp_path / "x.npz")]) == 2
    assert "give the .toml map file" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [src]


def test_ceiling_image(tmp_path):
    grey = Image.new("L", (60, 40), 40)          # 40 x 0.25 = 10 ft ...
    grey.paste(24, (20, 10, 30, 20))             # ... and 6 ft over square (2, 1)
    cpath = tmp_path / "ceil.png"
    grey.save(cpath)
    g = imported(tmp_path, room_doc(), ceiling_image=cpath).grid
    assert g.height_ft[1, 2] == 6.0 and g.height_ft[2, 4] == 10.0
    bad = tmp_path / "wide.png"
    Image.new("L", (100, 10), 40).save(bad)
    with pytest.raises(DataError, match=r"--ceiling-image .*wide\.png: 100 x 10 pixels does not have the map's shape"):
        imported(tmp_path, room_doc(), ceiling_image=bad)


# ---------------------------------------------------------------- the real samples

@pytest.mark.slow
@pytest.mark.parametrize("name, floor_min, walls, doors", [("imagix-sampleMap", 55, 5, 2), ("oganm-test", 180, 3, 5)])
def test_samples_import_validate_classify_analyze(tmp_path, capsys, name, floor_min, walls, doors):
    """Every closed door of both samples lies on a grid line: doors on edges (docs/rules.md §6.8),
    none a door square; imagix's interior partition is 5 walls and 2 door edges between squares."""
    out = tmp_path / f"{name}.toml"
    assert main(["import", str(SAMPLES / f"{name}.dd2vtt"), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["floor"] >= floor_min and summary["doors"] == 0 and summary["image"]
    assert (summary["edge_walls"], summary["edge_doors"]) == (walls, doors)
    g = load_map(out)
    assert g.image is not None and not g.door.any() and len(g.lights) >= 1
    assert g.edges.count() == walls + doors and g.edge_doors.count() == doors
    with Image.open(g.image) as im:
        assert im.size[0] % g.cols == 0 and im.size[0] // g.cols == im.size[1] // g.rows
    assert main(["validate", str(out)]) == 0
    assert capsys.readouterr().out.strip().endswith("ok")
    assert main(["classify", str(out), "--all-sizes", "--json"]) == 0
    sizes = json.loads(capsys.readouterr().out)["sizes"]
    assert len(sizes) == 9 and all(sum(v.values()) == summary["floor"] for v in sizes.values())
    assert main(["analyze", str(out), "--out", str(tmp_path / "report")]) == 0
    assert any((tmp_path / "report").glob("*.png"))


# ---------------------------------------------------------------- the picture under the cave

def test_renderer_floor_is_the_imported_picture(tmp_path):
    from sim.render import art
    from sim.view.options import with_art

    doc = room_doc(image=png_b64(96, 64, colour=(10, 200, 30, 255)))
    src = write(tmp_path, doc, name="green.uvtt")
    out = tmp_path / "green.toml"
    assert main(["import", str(src), "--out", str(out)]) == 0
    g = load_map(out)
    ts = 16
    img = art.paint_floor(g, ts)
    assert img.shape == (g.rows * ts, g.cols * ts, 3)
    # the middle of a floor square is the picture's colour, square for square; rock is darkened
    assert tuple(img[1 * ts + 8, 2 * ts + 8]) == (10, 200, 30)
    rock_px = img[0 * ts + 8, 0 * ts + 8].astype(int)
    assert rock_px[1] < 120 and tuple(rock_px) != (10, 200, 30)
    # --art cave: the painted cave instead
    cave = with_art(g, "cave")
    assert cave.image is None
    assert np.array_equal(art.paint_floor(cave, ts), art.paint_cave(g, ts))
    assert np.array_equal(art.paint_floor(g, ts, art="cave"), art.paint_cave(g, ts))
