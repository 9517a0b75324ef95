"""Saved games and undo in ``cavesim play`` (issue 20 items 1-2): Ctrl-S, Ctrl-O, Ctrl-Z, Ctrl-Y
driven through the window (dummy video driver); every step back is exactly the fight it was."""

from __future__ import annotations

import pygame

from sim.engine import events as ev
from sim.cli import main
from sim.base.paths import maps_dir
from sim.render.session import play_scene

from .helpers import spec

ROOM = ["##########",
        "#........#",
        "#........#",
        "##########"]


def _ctrl(key) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=pygame.KMOD_CTRL, unicode=""))


def _frames(app, n=3) -> None:
    app.max_frames, app.frames = n, 0
    app.run()


def _until_player(app, ctl, scene) -> None:
    for _ in range(60):
        _frames(app, 2)
        scene.director.skip_queue()
        ctl.pump()
        c = ctl.current()
        if c is not None and c.team == "party" and scene.awaiting_input:
            return
        if c is not None and c.team != "party":
            ctl.request_step()
    raise AssertionError("no turn for the player")


def test_window_save_load_undo_redo(tmp_path):
    from sim.render.app import App

    pygame.display.init()
    try:
        screen = pygame.display.set_mode((800, 400))
        s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                        {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
        save = tmp_path / "s.json"
        scene, ctl = play_scene(s, size=(800, 400), control={"party"}, save_path=save)
        app = App(scene, ctl, screen, max_frames=3, fixed=True)
        _until_player(app, ctl, scene)
        at_start = ev.dumps(ctl.enc.events)
        _ctrl(pygame.K_s)
        _frames(app)
        assert save.exists() and scene.toast_text == f"saved to {save}"

        scene.director.skip_queue()
        ctl.click_square((4, 1))                       # a move
        assert ctl.enc.creatures["bruna"].pos == (4, 1), scene.toast_text
        moved = ev.dumps(ctl.enc.events)
        assert moved != at_start

        _ctrl(pygame.K_z)                              # undo the move
        _frames(app)
        assert ev.dumps(ctl.enc.events) == at_start and ctl.enc.creatures["bruna"].pos == (1, 1)
        assert scene.model.creatures["bruna"].pos == (1, 1)   # the screen shows it too
        _ctrl(pygame.K_y)                              # redo: exactly as it went
        _frames(app)
        assert ev.dumps(ctl.enc.events) == moved and scene.model.creatures["bruna"].pos == (4, 1)

        _ctrl(pygame.K_o)                              # load the save: back to the start
        _frames(app)
        assert ev.dumps(ctl.enc.events) == at_start and scene.toast_text.startswith(f"loaded {save}")
        scene.director.skip_queue()
        ctl.click_square((4, 1))                       # the same move again: the same events
        assert ev.dumps(ctl.enc.events) == moved
        scene.director.skip_queue()
        ctl.end_turn()
        _frames(app, 5)
        scene.director.skip_queue()
        ctl.pump()
        ctl.request_step()                             # the goblin's turn, by the AI
        played = ev.dumps(ctl.enc.events)
        for _ in range(2):
            _ctrl(pygame.K_z)
        _frames(app)
        assert ev.dumps(ctl.enc.events) == moved       # AI turn and end turn undone
        _ctrl(pygame.K_z)                              # the move
        _frames(app)
        assert ev.dumps(ctl.enc.events) == at_start
        _ctrl(pygame.K_z)                              # the load
        _frames(app)
        assert ev.dumps(ctl.enc.events) == moved       # before the load: after the first move
        for _ in range(4):
            _ctrl(pygame.K_y)
        _frames(app)
        assert ev.dumps(ctl.enc.events) == played
        _ctrl(pygame.K_y)
        _frames(app)
        assert scene.toast_text == "nothing to redo"
    finally:
        pygame.display.quit()


def test_undo_at_the_start_says_so():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = play_scene(s, size=(800, 400), control={"party"})
    assert not ctl.undo() and scene.toast_text == "nothing to undo: this is where the fight started"


def test_a_bad_file_is_a_toast_not_a_crash(tmp_path):
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    bad = tmp_path / "bad.json"
    bad.write_text('{"cavesim_snapshot": 1, "enc')
    scene, ctl = play_scene(s, size=(800, 400), control={"party"}, save_path=bad)
    n = len(ctl.enc.events)
    assert not ctl.load_game() and scene.toast_text.startswith("not loaded: ")
    assert "not valid JSON" in scene.toast_text and len(ctl.enc.events) == n and not ctl.undo_stack


def test_cli_play_load(tmp_path, capsys):
    snap = tmp_path / "s.json"
    demo = str(maps_dir() / "ogre_tunnel.toml")
    assert main(["fight", demo, "--save-at", "2", "--save", str(snap), "--quiet"]) == 0
    assert main(["play", "--load", str(snap), "--max-frames", "5", "--size", "640x360"]) == 0
    assert main(["play", demo, "--load", str(snap), "--max-frames", "3", "--size", "640x360"]) == 0
    capsys.readouterr()
    assert main(["play", str(maps_dir() / "bat_gallery.toml"), "--load", str(snap), "--max-frames", "3"]) == 2
    assert "map: the snapshot belongs to the map" in capsys.readouterr().err
    assert main(["play", "--load", str(snap), "--seed", "3", "--max-frames", "3"]) == 2
    assert "leave --seed out" in capsys.readouterr().err


def test_a_loaded_game_draws_the_strands_it_saved(tmp_path):
    """docs/rules.md §11.15: who is stuck to which roper comes back with a saved game (the screen
    replays its events), so the strand is drawn again."""
    from sim.engine import strands

    s = spec(["##########", "#........#", "#........#", "#........#", "##########"],
             [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (7, 2)},
              {"id": "roper", "template": "roper", "team": "monsters", "at": (1, 1)}], seed=4)
    save = tmp_path / "s.json"
    scene, ctl = play_scene(s, size=(800, 400), control={"party"}, save_path=save)
    enc = ctl.enc
    strands.stick(enc, enc.creatures["roper"], enc.creatures["bruna"])
    assert ctl.save_game()
    ctl.undo_stack.clear()
    scene.model.__init__()
    assert ctl.load_game() and ctl.enc is not enc
    assert scene.model.creatures["bruna"].stuck_to == "roper" and "stuck" in scene.model.creatures["bruna"].conditions
