"""``--art image|cave`` for ``cavesim demo`` and ``cavesim crawl`` (issue 15 item 4): a map with a
picture (``[map] image``, e.g. imported from a Universal VTT file) is drawn with the picture as
the floor, square for square, the rules' overlays on top; ``--art cave`` draws the painted cave;
``--art image`` on a map without a picture draws the painted cave with one warning."""

from __future__ import annotations

import base64
import dataclasses
import io
import json

import pytest
from PIL import Image

from sim.cli import main
from sim.crawl.run import run_crawl
from sim.maps.read import load_map
from sim.scenario.files import load_crawl
from sim.view.options import with_art

from .helpers import ROOT_MAPS

GREEN = (10, 200, 30)


def _pt(x, y):
    return {"x": x, "y": y}


@pytest.fixture(scope="module")
def pictured(tmp_path_factory):
    """An imported 10 x 5-square map: an 8 x 3-square room (squares 1-8, rows 1-3) and a plain
    green picture, 16 px a square."""
    d = tmp_path_factory.mktemp("pictured")
    buf = io.BytesIO()
    Image.new("RGBA", (160, 80), (*GREEN, 255)).save(buf, format="PNG")
    doc = {"format": 1.0, "resolution": {"map_origin": _pt(0, 0), "map_size": _pt(10, 5), "pixels_per_grid": 16},
           "line_of_sight": [[_pt(1, 1), _pt(9, 1), _pt(9, 4), _pt(1, 4), _pt(1, 1)]], "objects_line_of_sight": [],
           "portals": [], "lights": [], "image": base64.b64encode(buf.getvalue()).decode()}
    src = d / "green.dd2vtt"
    src.write_text(json.dumps(doc))
    out = d / "green.toml"
    assert main(["import", str(src), "--out", str(out), "--point", "entrance=1,1", "--point", "lair=8,1"]) == 0
    return out


def _pixel(scene, x: float, y: float) -> tuple[int, int, int]:
    import pygame

    surf = pygame.Surface(scene.size)
    scene.draw(surf, 1.0)
    sx, sy = scene.camera.to_screen(x, y)
    return tuple(surf.get_at((int(sx), int(sy))))[:3]


def _play(scene, player, seconds: float) -> None:
    """Past the title card's fade: the map in full."""
    while scene.director.t < seconds:
        player.pump()
        scene.update(1 / 60)


def _crawl(path, art):
    spec = load_crawl(path, party=["human-fighter-3"], start="entrance", goal="lair", seed=0)
    # full light (the party's torch would tint the floor it lights; RULES §9 is not what is tested here)
    spec = dataclasses.replace(spec, settings={**spec.settings, "vision": False})
    return run_crawl(with_art(spec, art))


@pytest.mark.parametrize("art", [None, "image"])
def test_the_crawl_draws_the_picture_as_the_floor(pictured, art):
    from sim.render.crawl import crawl_scene

    scene, player = crawl_scene(_crawl(pictured, art), size=(640, 360), hud=False)
    _play(scene, player, 4.0)
    # square (5, 3): floor, off the party's route (row 1), no mark on it
    assert _pixel(scene, 5.5, 3.5) == GREEN
    assert _pixel(scene, 4.5, 3.5) == GREEN


def test_the_crawl_with_art_cave_paints_the_cave(pictured):
    from sim.render.crawl import crawl_scene

    scene, player = crawl_scene(_crawl(pictured, "cave"), size=(640, 360), hud=False)
    _play(scene, player, 4.0)
    assert scene.grid.image is None
    px = _pixel(scene, 5.5, 3.5)
    assert px != GREEN and abs(px[1] - px[0]) < 120   # the painted cave's stone, not the green picture


def test_the_bare_map_view_draws_the_picture_and_art_cave_does_not(pictured):
    from sim.render.session import map_scene

    g = load_map(pictured)
    for grid, want in ((g, True), (with_art(g, "cave"), False)):
        scene, _ = map_scene(grid, size=(640, 360), hud=False)
        scene.lighting = None   # full light: the map has no lights, its dark is not what is tested
        while scene.director.t < 4.0:   # past the title card
            scene.update(1 / 60)
        assert (_pixel(scene, 5.5, 2.5) == GREEN) is want


# -- the command lines ------------------------------------------------------------------------------------------

@pytest.fixture()
def captured(monkeypatch):
    """The grids the demo's and the crawl's scenes are built on (no drawing)."""
    import sim.render.crawl as crawl_mod
    import sim.render.session as session

    seen = []

    class Stop(Exception):
        pass

    def grab(obj, *a, **k):
        seen.append(obj.spec.grid if hasattr(obj, "spec") else getattr(obj, "grid", obj))
        raise Stop

    monkeypatch.setattr(crawl_mod, "crawl_scene", grab)
    monkeypatch.setattr(session, "map_scene", grab)
    monkeypatch.setattr(session, "watch_scene", grab)
    return seen, Stop


@pytest.mark.parametrize("art, drawn", [([], True), (["--art", "image"], True), (["--art", "cave"], False)])
def test_crawl_and_demo_pass_the_art_on(pictured, tmp_path, captured, capsys, art, drawn):
    seen, Stop = captured
    with pytest.raises(Stop):
        main(["crawl", str(pictured), "--party", "human-fighter-3", "--from", "entrance", "--to", "lair",
              "--out", str(tmp_path / "c.png"), *art])
    with pytest.raises(Stop):
        main(["demo", str(pictured), "--headless", "--out", str(tmp_path / "demo"), *art])
    assert [g.image is not None for g in seen] == [drawn, drawn]
    assert "warning" not in capsys.readouterr().err


def test_art_image_on_a_map_without_a_picture_warns_and_paints_the_cave(tmp_path, captured, capsys):
    seen, Stop = captured
    warrens = str(ROOT_MAPS / "warrens.toml")
    crawl = ["crawl", warrens, "--party", "human-fighter-3", "--from", "entrance", "--to", "hall"]
    with pytest.raises(Stop):
        main(["demo", warrens, "--headless", "--out", str(tmp_path / "demo"), "--art", "image"])
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "cavesim: warning: --art image: map 'The Warrens' has no picture ([map] image); drawing the painted cave" in err
    with pytest.raises(Stop):
        main([*crawl, "--art", "image", "--out", str(tmp_path / "c.png")])
    assert "has no picture ([map] image)" in capsys.readouterr().err
    # the default (no --art) says nothing: the painted cave is what a map without a picture has
    with pytest.raises(Stop):
        main(["demo", warrens, "--headless", "--out", str(tmp_path / "demo")])
    assert capsys.readouterr().err == ""
    assert all(g.image is None for g in seen)
    # the plan alone (--json) draws nothing, so it does not warn
    assert main([*crawl, "--art", "image", "--json"]) == 0
    assert "warning" not in capsys.readouterr().err


@pytest.mark.parametrize("cmd", [["demo"], ["crawl", "x.toml"]])
def test_a_bad_art_is_refused_by_the_parser(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main([*cmd, "--art", "photo"])
    assert e.value.code == 2
    assert "--art: invalid choice: 'photo' (choose from 'image', 'cave')" in capsys.readouterr().err
