"""The rules' answers back out: the category overlay PNG and per-size UVTT walls.

The UVTT sample (tests/data/uvtt/oganm-test.dd2vtt, MIT, licence beside it) gives a real VTT
map image and its scale: 20 x 20 squares at 64 px per square, with the grid drawn on it.
"""

from __future__ import annotations

import base64
import io
import json
from collections import deque
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from sim.terrain.classify import classify
from sim.cli import main
from sim.maps.exporters.overlay import ALPHA, ALPHA_BLOCKED, overlay_rgba
from sim.maps.exporters.uvtt import blocked_mask, uvtt_obj, wall_segments
from sim.terrain.grid import CaveGrid
from sim.maps.read import load_map
from sim.maps.write import write_map
from sim.maps.palette import category_rgb
from sim.rules.bodies import body_for
from sim.rules.categories import Category

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "uvtt" / "oganm-test.dd2vtt"


def sample():
    doc = json.loads(SAMPLE.read_text())
    return doc, base64.b64decode(doc["image"])


def varied_grid(cols: int, rows: int) -> CaveGrid:
    """Every category for a Large body somewhere: widths 0.5..20 ft, ceilings 3..16 ft; a rock rim
    and a rock pillar."""
    x, y = np.meshgrid(np.arange(cols), np.arange(rows))
    widths = np.array([20, 9, 5, 3, 2, 1.5, 1, 0.5])[(x // 2) % 8]
    heights = np.array([16, 12, 7, 5, 3])[(y // 3) % 5]
    rock = (x == 0) | (y == 0) | (x == cols - 1) | (y == rows - 1)
    rock[rows // 2, cols // 2] = True
    return CaveGrid.from_arrays(widths, heights, rock=rock, name="varied")


@pytest.fixture
def sample_map(tmp_path) -> Path:
    """A map with the sample's picture as its floor image, written by the one map writer."""
    doc, png = sample()
    res = doc["resolution"]
    g = varied_grid(res["map_size"]["x"], res["map_size"]["y"])
    write_map(g, tmp_path / "sample.toml", image=png)
    return tmp_path / "sample.toml"


def test_overlay_lines_up_with_the_sample_image_square_for_square(tmp_path, sample_map):
    doc, png = sample()
    k = doc["resolution"]["pixels_per_grid"]
    out = tmp_path / "large.png"
    assert main(["export", str(sample_map), "--to", "overlay", "--size", "large", str(out)]) == 0
    ov = np.asarray(Image.open(out))
    pic = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=np.float64)
    assert ov.shape[:2] == pic.shape == (20 * k, 20 * k)
    grid = load_map(sample_map)
    cats = classify(grid, body_for("large"))
    seen = set()
    for r in range(grid.rows):
        for c in range(grid.cols):
            px = ov[r * k + k // 2, c * k + k // 2]   # the centre pixel of square (c, r)
            cat = Category(int(cats[r, c]))
            if grid.rock[r, c] or cat == Category.CLEAR:
                assert px[3] == 0, (c, r)
            else:
                assert tuple(px[:3]) == category_rgb(cat), (c, r, cat)
                assert px[3] == (ALPHA_BLOCKED if cat == Category.IMPASSABLE else ALPHA)
                seen.add(cat)
    assert seen == set(Category) - {Category.CLEAR}   # the test map shows every category
    # the picture's own grid lines (the darkest pixel columns and rows, on average) fall on the
    # overlay's square boundaries: phase 0 or k - 1 of every k pixels
    for axis in (0, 1):
        profile = pic.mean(axis=axis)
        phase = np.array([profile[p::k].mean() for p in range(k)])
        assert int(np.argmin(phase)) in (0, k - 1)
    # and the overlay's colour changes sit exactly on those boundaries
    # (colour, not alpha: the rim inside each square changes only the alpha)
    row = ov[3 * k + k // 2, :, :3]
    changes = np.flatnonzero(np.any(row[1:] != row[:-1], axis=1)) + 1
    assert len(changes) >= 5 and all(x % k == 0 for x in changes)


def test_overlay_without_an_image_uses_the_stated_default(tmp_path, capsys):
    src = Path(__file__).resolve().parents[2] / "maps" / "warrens.toml"
    out = tmp_path / "o.png"
    assert main(["export", str(src), "--to", "overlay", "--size", "medium", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    g = load_map(src)
    assert info["px_per_square"] == 50 and Image.open(out).size == (g.cols * 50, g.rows * 50)
    assert main(["export", str(src), "--to", "overlay", "--size", "medium", str(out), "--px-per-square", "7"]) == 0
    assert Image.open(out).size == (g.cols * 7, g.rows * 7)


def test_overlay_rgba_exact_pixels():
    cats = np.array([[0, 1, 5, 6]], np.uint8)
    rock = np.array([[False, False, False, True]])
    img = overlay_rgba(cats, rock, 10)
    assert img.shape == (10, 40, 4)
    assert img[5, 5, 3] == 0                                    # Clear: transparent
    assert tuple(img[5, 15]) == category_rgb(1) + (ALPHA,)      # Narrow or Low
    assert tuple(img[5, 25]) == category_rgb(5) + (ALPHA,)      # Tight Squeeze
    assert img[5, 35, 3] == 0                                   # rock: transparent
    assert img[1, 15, 3] > ALPHA and img[0, 15, 3] == ALPHA     # the rim, one pixel in


# -- UVTT walls ----------------------------------------------------------------------------------

def read_rock(doc: dict) -> np.ndarray:
    """A small UVTT reader for grid-aligned walls: a square is rock when it is reached from outside
    the map without crossing a wall, or lies inside the object loops (even-odd)."""
    cols, rows = doc["resolution"]["map_size"]["x"], doc["resolution"]["map_size"]["y"]
    hw = np.zeros((rows + 1, cols), bool)   # edge above row r, column c
    vw = np.zeros((rows, cols + 1), bool)   # edge left of column c, row r
    polys = doc["line_of_sight"] + doc["objects_line_of_sight"]
    for poly in polys:
        for p, q in zip(poly, poly[1:]):
            (x0, y0), (x1, y1) = (p["x"], p["y"]), (q["x"], q["y"])
            assert all(float(v).is_integer() for v in (x0, y0, x1, y1)) and (x0 == x1 or y0 == y1)
            if y0 == y1:
                hw[int(y0), int(min(x0, x1)):int(max(x0, x1))] = True
            else:
                vw[int(min(y0, y1)):int(max(y0, y1)), int(x0)] = True
    outside = np.zeros((rows, cols), bool)
    q = deque()
    for c in range(cols):
        for r, edge in ((0, hw[0, c]), (rows - 1, hw[rows, c])):
            if not edge and not outside[r, c]:
                outside[r, c] = True
                q.append((r, c))
    for r in range(rows):
        for c, edge in ((0, vw[r, 0]), (cols - 1, vw[r, cols])):
            if not edge and not outside[r, c]:
                outside[r, c] = True
                q.append((r, c))
    while q:
        r, c = q.popleft()
        for dr, dc, wall in ((-1, 0, hw[r, c]), (1, 0, hw[r + 1, c]), (0, -1, vw[r, c]), (0, 1, vw[r, c + 1])):
            rr, cc = r + dr, c + dc
            if not wall and 0 <= rr < rows and 0 <= cc < cols and not outside[rr, cc]:
                outside[rr, cc] = True
                q.append((rr, cc))
    # object loops: crossings of their vertical edges left of each square's centre
    ov = np.zeros((rows, cols + 1), np.int64)
    for poly in doc["objects_line_of_sight"]:
        assert poly[0] == poly[-1]  # closed
        for p, q2 in zip(poly, poly[1:]):
            if p["x"] == q2["x"]:
                ov[int(min(p["y"], q2["y"])):int(max(p["y"], q2["y"])), int(p["x"])] += 1
    inside = (np.cumsum(ov, axis=1)[:, :cols] % 2) == 1
    return outside | inside


def test_uvtt_export_reimports_with_the_blocked_squares_as_rock(tmp_path, sample_map, capsys):
    doc, png = sample()
    grid = load_map(sample_map)
    cats = classify(grid, body_for("large"))
    for extra, tight in (([], False), (["--include", "tight"], True)):
        out = tmp_path / "large.dd2vtt"
        assert main(["export", str(sample_map), "--to", "uvtt", "--size", "large", str(out), *extra]) == 0
        got = json.loads(out.read_text())
        assert got["resolution"] == {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 20, "y": 20},
                                     "pixels_per_grid": doc["resolution"]["pixels_per_grid"]}
        assert base64.b64decode(got["image"]) == png     # the map's own picture, unchanged
        assert {"format", "line_of_sight", "objects_line_of_sight", "portals", "lights", "environment"} <= set(got)
        want = grid.rock | (cats == Category.IMPASSABLE) | ((cats == Category.TIGHT_SQUEEZE) if tight else False)
        assert np.array_equal(read_rock(got), want)
        assert (want & ~grid.rock).sum() > 0      # some floor really is walled off for a Large body
        assert got["objects_line_of_sight"]       # the rock pillar is an island loop


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(1, 8), st.data())
def test_wall_outline_of_any_blocked_mask_reads_back(cols, rows, data):
    bits = data.draw(st.lists(st.booleans(), min_size=cols * rows, max_size=cols * rows))
    blocked = np.array(bits).reshape(rows, cols)
    grid = CaveGrid.from_arrays(np.full((rows, cols), 10.0), np.full((rows, cols), 10.0), rock=blocked)
    doc = uvtt_obj(grid, blocked, k=4, image_png=b"")
    assert np.array_equal(read_rock(doc), blocked)
    walls, loops = wall_segments(blocked)
    # merged: no two wall segments on one line touch end to end
    ends = {}
    for a, b in walls:
        kind = "h" if a[1] == b[1] else "v"
        for p in (a, b):
            ends.setdefault((kind, p), 0)
            ends[(kind, p)] += 1
    assert all(n == 1 for n in ends.values())


def test_uvtt_keeps_map_lights_and_walls_closed_doors(tmp_path):
    from sim.terrain.grid import MapLight

    g = CaveGrid.from_arrays(np.full((3, 4), 10.0), np.full((3, 4), 10.0),
                             door=np.array([[0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]], bool),
                             lights=(MapLight(at=(1, 1), bright_ft=20, shadowy_ft=40, name="brazier"),))
    cats = classify(g, body_for("medium"))
    blocked = blocked_mask(g, cats)
    assert blocked[1, 2] and blocked.sum() == 1
    doc = uvtt_obj(g, blocked, k=10, image_png=b"")
    assert doc["lights"] == [{"position": {"x": 1.5, "y": 1.5}, "range": 8.0, "intensity": 1,
                              "color": "ffeccd8b", "shadows": True}]
    assert np.array_equal(read_rock(doc), blocked)


# -- bad arguments -------------------------------------------------------------------------------

MAP = str(Path(__file__).resolve().parents[2] / "maps" / "warrens.toml")


@pytest.mark.parametrize("argv,pattern", [
    (["--to", "overlay", "o.jpg", "--size", "large"], "--to overlay writes .png"),
    (["--to", "uvtt", "o.json", "--size", "large"], "--to uvtt writes .dd2vtt or .df2vtt or .uvtt"),
    (["--to", "tiled", "o.toml"], "--to tiled writes .tmx or .tmj"),
    (["--to", "overlay", "o.png"], "give --size SIZE"),
    (["--to", "overlay", "o.png", "--size", "enormous"], "--size: unknown size"),
    (["--to", "overlay", "o.png", "--size", "large", "--include", "tight"], "--include tight is for --to uvtt"),
    (["--to", "tiled", "o.tmx", "--size", "large"], "--to tiled writes the map itself"),
    (["--to", "overlay", "o.png", "--size", "large", "--px-per-square", "0"], "--px-per-square 0: give a whole number"),
    (["--to", "overlay", "o.png", "--size", "large", "--px-per-square", "1000"], "over the 64 million pixel limit; "
     "give --px-per-square 204 or less"),
])
def test_export_refusals(tmp_path, capsys, argv, pattern):
    argv = [str(tmp_path / a) if a.startswith("o.") else a for a in argv]
    assert main(["export", MAP, *argv]) == 2
    err = capsys.readouterr().err
    assert pattern in err and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())   # nothing written, not even a temporary file


def test_map_image_of_the_wrong_scale(tmp_path, capsys):
    g = varied_grid(6, 4)
    buf = io.BytesIO()
    Image.new("RGB", (6 * 10 + 3, 4 * 10)).save(buf, format="PNG")
    write_map(g, tmp_path / "m.toml", image=buf.getvalue())
    out = tmp_path / "o.png"
    code = main(["export", str(tmp_path / "m.toml"), "--to", "overlay", "--size", "large", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and not out.exists()
    assert "[map] image" in err and "is 63x40 pixels, not a whole number of pixels per square" in err, err
