"""Play input becomes engine actions; the engine decides, the screen shows what it said."""

from __future__ import annotations

from sim import events as ev
from sim.render.session import play_scene

from .helpers import spec

ROOM = ["##########",
        "#........#",
        "#........#",
        "##########"]


def ready(s, control=("party",)):
    scene, ctl = play_scene(s, size=(800, 400), control=set(control))
    scene.director.skip_queue()
    for _ in range(40):
        ctl.pump()
        scene.director.skip_queue()
        scene.update(1 / 60)
        c = ctl.current()
        if c is not None and c.team in control and scene.awaiting_input:
            return scene, ctl
        ctl.request_step()
    raise AssertionError("no turn for the player")


def test_click_on_an_adjacent_enemy_attacks_with_the_chosen_weapon():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (3, 1)}], seed=4)
    scene, ctl = ready(s)
    assert ctl.current().id == "bruna"
    n = len(ctl.enc.events)
    ctl.click_square((3, 1))
    attacks = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Attack)]
    assert attacks and attacks[0].actor == "bruna" and attacks[0].target == "gob"
    assert attacks[0].weapon == scene.weapon_choice


def test_refusal_is_shown_not_decided():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = ready(s)
    n = len(ctl.enc.events)
    ctl.click_square((8, 2))                 # too far for a sword: the engine says why
    assert len(ctl.enc.events) == n
    assert scene.toast_text.startswith("Bruna cannot:")
    ctl.click_square((4, 1))                 # a move it can make
    assert ctl.enc.creatures["bruna"].pos == (4, 1)
    pv = scene.world.path_preview("bruna", (7, 1))
    assert pv.steps and pv.feet == 15 and pv.single == 3   # the engine: 15 ft fit in one move action


def test_space_lets_the_ai_play_and_e_ends_the_turn():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = ready(s)
    ctl.end_turn()
    assert any(isinstance(e, ev.TurnEnd) and e.actor == "bruna" for e in ctl.enc.events)
    scene.director.skip_queue()
    ctl.pump()
    scene.director.skip_queue()
    ctl.request_step()                        # the goblin's turn, by the AI
    assert any(isinstance(e, ev.TurnEnd) and e.actor == "gob" for e in ctl.enc.events)
