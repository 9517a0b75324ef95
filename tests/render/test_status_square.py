"""The window's status bar shows the square under the cursor: x, y, width, ceiling, and its
category for the body shown (issue 19)."""

from __future__ import annotations

import pygame
import pytest

from sim.scenario.files import load_encounter
from sim.render.app import App, open_window
from sim.render.session import watch_scene

from .helpers import ROOT_MAPS


@pytest.fixture
def screen():
    s = open_window((1024, 600), "test")
    assert s is not None
    yield s
    pygame.display.quit()


def test_status_bar_names_the_square_under_the_cursor(screen):
    spec = load_encounter(ROOT_MAPS / "demo.toml")
    scene, timeline = watch_scene(spec, size=screen.get_size(), speed=4.0)
    app = App(scene, timeline, screen, fixed=True)
    app.max_frames = 5
    app.run()
    g = scene.grid
    ys, xs = (~g.rock).nonzero()
    x, y = int(xs[0]), int(ys[0])
    app.hover(scene.camera.to_screen(x + 0.5, y + 0.5))
    assert scene.hover == (x, y)
    scene.overlays["size"] = 5            # the Large overlay
    text = scene.hudder.square_text()
    assert text.startswith(f"square {x},{y}: width {g.width_ft[y, x]:g} ft, ceiling {g.height_ft[y, x]:g} ft")
    assert text.endswith("for a Large body")
    scene.overlays["size"] = None
    scene.selected = next(iter(scene.model.creatures))   # as Tab selects a creature
    cid = scene.selected_id()
    assert cid is not None and scene.hudder.square_text().endswith(f"for {scene.model.label(cid)}")
    rx, ry = [(int(a), int(b)) for b, a in zip(*g.rock.nonzero())][0]
    scene.hover = (rx, ry)
    assert scene.hudder.square_text() == f"square {rx},{ry}: rock"
    surf = pygame.Surface(screen.get_size())
    scene.hudder.bottombar(surf, scene.r_bottom)     # draws without error with the readout on top
