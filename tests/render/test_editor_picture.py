"""The editor shows the map's picture under the squares (issue 35, item 7): ``T`` cycles its
opacity 0, 35, 70, 100%; a map without a picture says so; the keys list says it."""

from __future__ import annotations

import base64
import io
import json

import numpy as np
import pygame
import pytest
from PIL import Image

from sim.cli import main
from sim.editor.model import Document
from sim.maps.read import load_map
from sim.render.editor_draw import HELP_LINES, layer_rgb

PICTURE_RGB = (200, 30, 160)


@pytest.fixture
def screen():
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((1100, 700))
    pygame.display.quit()


@pytest.fixture
def pictured(tmp_path):
    """An imported 6 x 4-square map whose JPEG picture is one colour."""
    buf = io.BytesIO()
    Image.new("RGB", (96, 64), PICTURE_RGB).save(buf, format="JPEG", quality=100)
    loop = [{"x": x, "y": y} for x, y in ((1, 1), (5, 1), (5, 3), (1, 3), (1, 1))]
    doc = {"format": 1.0, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": 6, "y": 4},
                                         "pixels_per_grid": 16},
           "line_of_sight": [loop], "portals": [], "lights": [], "image": base64.b64encode(buf.getvalue()).decode()}
    src = tmp_path / "p.dd2vtt"
    src.write_text(json.dumps(doc))
    out = tmp_path / "p.toml"
    assert main(["import", str(src), "--out", str(out), "--ceiling", "12"]) == 0
    return out


def view_of(path):
    from sim.render.editor import EditorView

    return EditorView(Document.from_grid(load_map(path)), path, size=(1100, 700), chokepoints=False, worker="thread")


def sample(v, screen, x, y) -> np.ndarray:
    """The drawn colour inside square (x, y), away from its values and grid lines."""
    v.draw(screen)
    sx, sy = v.camera.to_screen(x + 0.3, y + 0.6)
    return np.array(screen.get_at((int(sx), int(sy)))[:3], dtype=float)


def test_t_cycles_the_pictures_opacity_under_the_squares(screen, pictured):
    v = view_of(pictured)
    try:
        assert v.drawing.picture is not None and v.picture_opacity == 35
        square = layer_rgb(v.doc, "width", (1, 2, 2, 3))[0, 0].astype(float)   # floor square (2, 1)
        pic = np.array(PICTURE_RGB, dtype=float)
        seen = {}
        for want in (70, 100, 0, 35):
            v.key(pygame.K_t, 0)
            assert v.picture_opacity == want
            seen[want] = sample(v, screen, 2, 1)
        assert np.abs(seen[0] - square).max() <= 1                 # 0%: the squares alone
        assert np.abs(seen[100] - pic).max() <= 3                  # 100%: the picture alone
        for p in (35, 70):                                         # between: the blend
            assert np.abs(seen[p] - (square * (1 - p / 100) + pic * p / 100)).max() <= 4, (p, seen[p])
        assert any("T picture 0/35/70/100%" in line for line in HELP_LINES)
    finally:
        v.close()


def test_a_map_without_a_picture_says_so(screen, tmp_path):
    m = tmp_path / "bare.toml"
    m.write_text('[map]\nname = "bare"\ngrid = """\n####\n#..#\n####\n"""\n[legend]\n"#" = "wall"\n'
                 '"." = { width = 10, height = 12 }\n')
    v = view_of(m)
    try:
        before = sample(v, screen, 1, 1)
        v.key(pygame.K_t, 0)
        assert v.drawing.picture is None and v.picture_opacity == 0
        assert "this map has no picture" in v.message[0]
        assert np.array_equal(sample(v, screen, 1, 1), before)
    finally:
        v.close()
