"""Every view runs a few hundred frames on the dummy video driver: watching the demo fight,
playing an encounter by mouse and keys, and replaying a fight log forward and back."""

from __future__ import annotations

import pygame
import pytest

from sim.engine import events as ev
from sim.scenario.files import load_encounter
from sim.render.app import App, open_window
from sim.render.session import play_scene, replay_scene, watch_scene
from sim.view.fights import simulate

from .helpers import ROOT_MAPS


@pytest.fixture
def screen():
    s = open_window((1024, 600), "test")
    assert s is not None
    yield s
    pygame.display.quit()


def post_key(key, mod=0, unicode=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode))


def post_click(pos, button=1):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def run(app: App, frames: int) -> None:
    app.max_frames = app.frames + frames
    app.run()


def test_watch_view_plays_the_demo_fight(screen):
    spec = load_encounter(ROOT_MAPS / "demo.toml")
    scene, timeline = watch_scene(spec, size=screen.get_size(), speed=4.0)
    app = App(scene, timeline, screen, fixed=True)
    run(app, 200)
    assert scene.model.round >= 1 and scene.model.log
    for key in (pygame.K_4, pygame.K_c, pygame.K_r, pygame.K_t, pygame.K_l, pygame.K_TAB, pygame.K_PLUS,
                pygame.K_MINUS, pygame.K_SPACE):
        post_key(key)
    run(app, 100)
    assert scene.director.speed == 0          # Space paused it
    post_key(pygame.K_SPACE)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    run(app, 100)
    assert scene.director.speed > 0 and not scene.auto_camera   # zooming took the camera over
    assert app.frames == 400


def test_play_view_moves_attacks_and_lets_the_ai_play(screen):
    spec = load_encounter(ROOT_MAPS / "rat_crack.toml")
    scene, ctl = play_scene(spec, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, fixed=True)
    run(app, 240)                              # title card, then the first creature's turn
    for _ in range(20):
        c = ctl.current()
        if c is not None and c.team == "party" and scene.awaiting_input:
            break
        post_key(pygame.K_PERIOD)              # the AI plays whoever acts (Space pauses)
        run(app, 90)
    c = ctl.current()
    assert c.team == "party" and scene.awaiting_input
    start = c.pos
    to = (start[0] + 1, start[1])
    sx, sy = scene.camera.to_screen(to[0] + 0.5, to[1] + 0.5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(sx), int(sy)), rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert scene.preview is not None and scene.preview.squares[-1] == to and scene.preview.feet == 5
    post_click((int(sx), int(sy)))
    run(app, 60)
    assert c.pos == to                         # the engine moved it
    moved = [e for e in ctl.enc.events if isinstance(e, ev.Moved) and e.actor == c.id]
    assert moved and tuple(moved[-1].path[-1]["at"]) == to
    # a square it cannot reach: the refusal is shown, nothing happens
    n = len(ctl.enc.events)
    g = spec.grid
    rock = next((x, y) for y in range(1, g.rows - 1) for x in range(1, g.cols - 1)
                if g.rock[y, x] and scene.r_view.collidepoint(scene.camera.to_screen(x + 0.5, y + 0.5)))
    post_click(tuple(int(v) for v in scene.camera.to_screen(rock[0] + 0.5, rock[1] + 0.5)))
    run(app, 5)
    assert len(ctl.enc.events) == n and "cannot" in scene.toast_text
    post_key(pygame.K_w)                       # choose another weapon
    run(app, 2)
    post_key(pygame.K_e)                       # end the turn
    run(app, 30)
    assert ctl.current() is None or ctl.current().id != c.id or ctl.enc.round > 1
    post_key(pygame.K_p)                       # auto-play to the end
    run(app, 200)
    assert app.frames > 300


def test_replay_view_steps_forward_and_back(screen, tmp_path):
    spec = load_encounter(ROOT_MAPS / "bat_gallery.toml")
    _, events = simulate(spec)
    scene, tl = replay_scene(events, spec.grid, title=spec.name, size=screen.get_size())
    app = App(scene, tl, screen, fixed=True)
    run(app, 150)
    for _ in range(5):
        post_key(pygame.K_RIGHT)
        run(app, 40)
    ahead = tl.shown
    post_key(pygame.K_LEFT)
    run(app, 5)
    assert tl.shown < ahead
    post_key(pygame.K_HOME)
    run(app, 5)
    post_key(pygame.K_p)
    run(app, 150)
    assert app.frames >= 350 and scene.model.round >= 1


def test_window_resizes(screen):
    spec = load_encounter(ROOT_MAPS / "ogre_tunnel.toml")
    scene, tl = watch_scene(spec, size=screen.get_size())
    app = App(scene, tl, screen, fixed=True)
    run(app, 20)
    scene.resize((800, 500))
    run(app, 20)
    assert scene.r_view.w < 800 and scene.camera.ts > 0


def test_play_view_keys_cast_a_spell_with_its_area_under_the_cursor_and_drop_prone(screen):
    from .helpers import spec as small_spec

    hall = ["############",
            "#..........#",
            "#..........#",
            "#..........#",
            "#..........#",
            "############"]
    s = small_spec(hall, [{"id": "ilde", "template": "elf-wizard-3", "team": "party", "at": (2, 2)},
                          {"id": "gob", "template": "goblin", "team": "monsters", "at": (7, 2)}], seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, fixed=True)
    run(app, 240)
    for _ in range(10):
        if ctl.current() is not None and ctl.current().id == "ilde" and scene.awaiting_input:
            break
        post_key(pygame.K_PERIOD)
        run(app, 90)
    assert ctl.current().id == "ilde" and scene.awaiting_input
    for _ in range(3):                          # magic missile, sleep, burning hands
        post_key(pygame.K_x)
        run(app, 2)
    assert scene.spell_choice == "burning-hands"
    # east of the caster, low in the row: the cone starts at the caster's south-east corner (3, 3)
    sx, sy = scene.camera.to_screen(4.5, 2.9)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(sx), int(sy)), rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert sorted(scene.area_preview) == [(3, 2), (3, 3), (4, 1), (4, 2), (4, 3), (4, 4), (5, 2), (5, 3)]
    sx, sy = scene.camera.to_screen(4.5, 2.1)   # high in the row: from the north-east corner (3, 2)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(sx), int(sy)), rel=(0, 0), buttons=(0, 0, 0)))
    run(app, 2)
    assert sorted(scene.area_preview) == [(3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2)]  # row 0 is rock
    post_key(pygame.K_x)                        # light (a touch spell on gear or a square: no area)
    run(app, 2)
    assert scene.spell_choice == "light"
    post_key(pygame.K_x)                        # web (docs/rules.md §8.3)
    run(app, 2)
    assert scene.spell_choice == "web"
    post_key(pygame.K_x)                        # back to weapons: no area any more
    run(app, 2)
    assert scene.spell_choice is None and scene.area_preview == []
    n = len(ctl.enc.events)
    post_key(pygame.K_d)
    run(app, 30)
    assert ctl.enc.creatures["ilde"].prone
    assert any(isinstance(e, ev.Condition) and e.condition == "prone" and e.active for e in ctl.enc.events[n:])
