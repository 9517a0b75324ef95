"""A split ooze on screen (docs/rules.md §11.14): replaying a fight where the ochre jelly splits,
the new half gets a token, a place in the initiative list and a creature in the shadow world the
screen asks the rules through; TAB selects it."""

from __future__ import annotations

import pygame
import pytest

from sim.render.app import App, open_window
from sim.render.session import replay_scene
from sim.view.fights import simulate

from .helpers import spec


@pytest.fixture
def screen():
    s = open_window((1024, 600), "test")
    assert s is not None
    yield s
    pygame.display.quit()


def test_the_new_half_is_on_the_board_and_in_the_shadow_world(screen):
    room = ["##########", "#........#", "#........#", "#........#", "#........#", "##########"]
    s = spec(room, [{"id": "bruna", "template": "human-fighter-5", "team": "party", "at": (4, 2)},
                    {"id": "jelly", "template": "ochre-jelly", "team": "oozes", "at": (6, 2)}], seed=4)
    _, events = simulate(s)
    assert any(e.type == "split" for e in events)
    scene, tl = replay_scene(events, s.grid, title="jelly", size=screen.get_size())
    app = App(scene, tl, screen, fixed=True)
    first = next(i for i, e in enumerate(events) if e.type == "split")
    tl.restart(upto=first)                        # just before the first split: one jelly
    assert not [cid for cid in scene.model.creatures if "." in cid]
    tl.restart(upto=len(events) - 1)              # the whole fight, then drawn
    app.max_frames = app.frames + 30
    app.run()
    m = scene.model
    halves = [cid for cid in m.creatures if cid.startswith("jelly.")]
    assert halves and all(h in m.order for h in halves)
    assert m.creatures[halves[0]].label == "Jelly (a)"
    scene.world.sync(m)
    half = scene.world.creature(halves[0])
    assert half is not None and half.squares == m.creatures[halves[0]].squares
    for _ in range(len(m.order)):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_TAB, mod=0, unicode="\t"))
        app.max_frames = app.frames + 3
        app.run()
    assert app.frames >= 30
