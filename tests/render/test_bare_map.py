"""play, render and demo open a bare map (no encounter) as a view of the cave (issue 18, item 6)."""

from PIL import Image

from sim.cli import main
from sim.cli._common import bare_map
from sim.render.session import map_scene
from sim.maps.limits import Limits

from conftest import MAPS

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
'''
GRID = '''
########
#......#
#......#
########
'''


def test_bare_map_is_told_from_an_encounter(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    assert bare_map(m, Limits()).cols == 8
    assert bare_map(MAPS / "demo.toml", Limits()) is None          # an encounter
    assert bare_map(tmp_path / "fight.jsonl", Limits()) is None     # a fight log


def test_map_scene_has_no_one_and_nothing_to_play(write_map):
    from sim.maps.read import load_map

    scene, timeline = map_scene(load_map(write_map(GRID, LEGEND)), size=(640, 400))
    assert scene.model.creatures == {} and scene.model.finished
    for _ in range(400):
        timeline.pump()
        scene.update(1 / 60)
    assert timeline.done


def test_render_a_bare_map_to_png(write_map, tmp_path, capsys):
    m = write_map(GRID, LEGEND)
    out = tmp_path / "cave.png"
    assert main(["render", str(m), "--out", str(out), "--size", "640x400"]) == 0
    img = Image.open(out)
    assert img.size == (480, 300)                                   # --scale 0.75
    assert "wrote" in capsys.readouterr().out


def test_play_and_demo_open_a_bare_map(write_map, tmp_path, capsys):
    m = write_map(GRID, LEGEND)
    assert main(["play", str(m), "--max-frames", "3", "--size", "640x400"]) == 0
    assert main(["demo", str(m), "--headless", "--out", str(tmp_path / "d"), "--size", "640x400",
                 "--max-frames", "4"]) == 0
    assert (tmp_path / "d" / "demo.png").exists()
    assert "drawing the cave off-screen" in capsys.readouterr().out


def test_demo_bad_map_is_refused(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "none.toml"), "--headless", "--out", str(tmp_path / "d")]) == 2
    assert "no such file" in capsys.readouterr().err


UNEVEN = '''
########################
########################
###...................##
###...................##
###...................##
###...................##
###...................##
###...................##
########################
########################
'''


def test_render_of_a_bare_map_draws_all_of_it_from_column_0(write_map, tmp_path):
    """Issue 34 item 17: ``render`` of a bare map cropped its left edge. The camera framed the
    floor's bounding box, centred on the floor: a map with more rock on its left than on its
    right (3 columns against 2 here, as the Warrens' 2 against 1) lost its first columns. A bare
    map is framed whole; the light's multiply no longer paints a black square round the map."""
    from sim.maps.read import load_map

    m = write_map(UNEVEN, LEGEND)
    out = tmp_path / "cave.png"
    assert main(["render", str(m), "--out", str(out), "--size", "640x400", "--scale", "1"]) == 0
    img = Image.open(out).convert("RGB")
    scene, _ = map_scene(load_map(m), size=(640, 400))       # the camera the render used (a bare map's does not move)
    cam, view = scene.camera, scene.r_view
    (x0, y0), (x1, y1) = cam.to_screen(0, 0), cam.to_screen(24, 10)
    assert view.left <= x0 and x1 <= view.right and view.top <= y0 and y1 <= view.bottom   # every square in the view
    fill = (8, 8, 10)                                          # the view's background, off the map
    ts = cam.ts
    mid_y = int((y0 + y1) / 2)
    for col in (0, 23):                                        # the first and the last column are drawn
        cx = int(x0 + (col + 0.5) * ts)
        drawn = [img.getpixel((cx, int(y0 + (r + 0.5) * ts))) for r in range(10)]
        assert fill not in drawn, (col, drawn)
    for row in (0, 9):
        assert img.getpixel((int((x0 + x1) / 2), int(y0 + (row + 0.5) * ts))) != fill
    # off the map, just outside each edge: the background, not a band of black
    assert img.getpixel((int(x0) - 2, mid_y)) == fill
    assert img.getpixel((int(x1) + 2, mid_y)) == fill
    assert img.getpixel((int((x0 + x1) / 2), int(y0) - 2)) == fill
    assert img.getpixel((int((x0 + x1) / 2), int(y1) + 2)) == fill
