"""play, render and demo open a bare map (no encounter) as a view of the cave (issue 18, item 6)."""

from PIL import Image

from sim.cli import main
from sim.cli._common import bare_map
from sim.render.session import map_scene
from sim.specs import Limits

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
    from sim.loaders import load_map

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
