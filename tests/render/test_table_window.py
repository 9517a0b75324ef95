"""At the table in the window (issue 20 items 3-5), driven by keys and clicks (dummy video
driver): dice typed (and bad ones refused in the prompt), save, undo, load, the DM's hand, an area
spell aimed then confirmed, the chance to hit under the cursor, Left and Home after the end."""

from __future__ import annotations

import pygame
import pytest

from sim.engine import events as ev
from sim.render.app import App
from sim.render.session import play_scene

from .helpers import spec

ROOM = ["##########",
        "#........#",
        "#........#",
        "#........#",
        "##########"]
DUEL = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 1)},
        {"id": "gob", "template": "goblin", "team": "monsters", "at": (3, 1)}]


@pytest.fixture
def screen():
    pygame.display.init()
    yield pygame.display.set_mode((1000, 560))
    pygame.display.quit()


def _key(key, char="", mod=0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=char))


def _type(text: str) -> None:
    for ch in text:
        _key(getattr(pygame, f"K_{ch}") if ch.isdigit() else pygame.K_MINUS, ch)


def _enter() -> None:
    _key(pygame.K_RETURN)


def _frames(app, n=3) -> None:
    app.max_frames, app.frames = n, 0
    app.run()


def _until(app, scene, cond, what: str, n=200) -> None:
    for _ in range(n):
        _frames(app, 2)
        scene.director.skip_queue()
        if cond():
            return
    raise AssertionError(f"never: {what} (toast: {scene.toast_text!r})")


def _click(scene, sq, mod=0) -> None:
    x, y = scene.camera.to_screen(sq[0] + 0.5, sq[1] + 0.5)
    pos = (int(x), int(y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def _bruna_to_act(app, scene, ctl):
    _until(app, scene, lambda: ctl.current() is not None and ctl.current().id == "bruna" and scene.awaiting_input,
           "Bruna's turn")


def test_typed_dice_save_undo_load_in_the_window(screen, tmp_path):
    save = tmp_path / "night.json"
    s = spec(ROOM, DUEL, seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"}, save_path=save, dice_for={"bruna"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    # the fight opens with Bruna's initiative, asked for
    assert scene.prompt is not None and scene.prompt.title.startswith("Bruna: initiative, d20")
    assert not ctl.enc.events                         # nothing rolled yet
    _type("25")
    _enter()
    _frames(app)
    assert scene.prompt.error == "d20 rolls 1 to 20, not 25" and not ctl.enc.events   # refused in the prompt
    _key(pygame.K_BACKSPACE)
    _key(pygame.K_BACKSPACE)
    _type("20")
    _enter()
    _frames(app)
    assert scene.prompt is None
    rolled = [e for e in ctl.enc.events if isinstance(e, ev.Rolled)]
    assert [(e.actor, e.purpose, e.value, e.entered) for e in rolled] == [("bruna", "initiative", 20, True)]
    scene.director.skip_queue()
    assert any(line.text.startswith("  Bruna rolls d20 at the table (initiative): 20 +") for line in scene.model.log)
    init = next(e for e in ctl.enc.events if isinstance(e, ev.Initiative))
    assert next(o["roll"] for o in init.order if o["id"] == "bruna") == 20
    _bruna_to_act(app, scene, ctl)

    _key(pygame.K_s, mod=pygame.KMOD_CTRL)           # save before the attack
    _frames(app)
    assert save.exists()
    before_attack = ev.dumps(ctl.enc.events)

    _click(scene, (3, 1))                            # attack the goblin: the d20 is asked for
    _frames(app)
    assert scene.prompt is not None
    title = scene.prompt.title
    assert title.startswith("Bruna: longsword attack vs Gob, d20 + ")
    assert ev.dumps(ctl.enc.events) == before_attack  # nothing happened yet
    _type("15")
    _enter()
    _frames(app)
    str_mod = ctl.enc.creatures["bruna"].block.abilities.str // 2 - 5
    assert scene.prompt.title == f"Bruna: longsword damage vs Gob, 1d8 + {str_mod}"
    _type("9")
    _enter()
    _frames(app)
    assert scene.prompt.error == "1d8 rolls 1 to 8, not 9"
    _key(pygame.K_BACKSPACE)
    _type("4")
    _enter()
    _frames(app)
    assert scene.prompt is None
    new = ctl.enc.events[len(before_attack.splitlines()):]
    rolls = [(e.die, e.value) for e in new if isinstance(e, ev.Rolled)]
    assert rolls == [("d20", 15), ("1d8", 4)]
    att = next(e for e in new if isinstance(e, ev.Attack))
    dmg = next(e for e in new if isinstance(e, ev.Damage))
    assert att.roll == 15 and att.hit and dmg.parts["slashing"] == 4 + str_mod
    after_attack = ev.dumps(ctl.enc.events)

    _key(pygame.K_z, mod=pygame.KMOD_CTRL)           # undo: back to before the attack
    _frames(app)
    assert ev.dumps(ctl.enc.events) == before_attack and scene.paused
    _key(pygame.K_y, mod=pygame.KMOD_CTRL)           # redo: the typed dice as they were
    _frames(app)
    assert ev.dumps(ctl.enc.events) == after_attack
    _key(pygame.K_o, mod=pygame.KMOD_CTRL)           # load the save: before the attack again
    _frames(app)
    assert ev.dumps(ctl.enc.events) == before_attack
    _click(scene, (3, 1))                            # the same dice typed: the same events
    _frames(app)
    _type("15")
    _enter()
    _frames(app)
    _type("4")
    _enter()
    _frames(app)
    assert ev.dumps(ctl.enc.events) == after_attack


def test_shift_d_types_a_creatures_dice_and_esc_drops_the_question(screen):
    s = spec(ROOM, DUEL, seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    _bruna_to_act(app, scene, ctl)
    scene.selected = "bruna"
    _key(pygame.K_d, "D", mod=pygame.KMOD_SHIFT)
    _frames(app)
    assert ctl.hands == {"bruna"} and scene.toast_text == "Bruna's dice: typed at the table"
    n = len(ctl.enc.events)
    _click(scene, (3, 1))
    _frames(app)
    assert scene.prompt is not None and "attack vs Gob" in scene.prompt.title
    _key(pygame.K_ESCAPE)                            # not now: no attack, the window still open
    _frames(app)
    assert scene.prompt is None and len(ctl.enc.events) == n and app.running
    _key(pygame.K_d, "D", mod=pygame.KMOD_SHIFT | pygame.KMOD_CTRL)   # Ctrl: the whole side... already typed: off
    _frames(app)
    assert ctl.hands == set()


def test_dm_hand_hit_points_condition_move_and_pass_are_dm_events_undone_by_ctrl_z(screen):
    s = spec(ROOM, DUEL, seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    _bruna_to_act(app, scene, ctl)
    _key(pygame.K_SPACE, " ")                        # paused: the goblin's turn will wait
    _frames(app)
    assert scene.paused
    start = ev.dumps(ctl.enc.events)
    scene.selected = "gob"
    _key(pygame.K_g, "g")
    _frames(app)
    assert scene.prompt.title == "DM's hand: Gob"
    _type("1")                                       # hit points
    _frames(app)
    assert scene.prompt.kind == "hp"
    _type("99")
    _enter()
    _frames(app)
    gob = ctl.enc.creatures["gob"]
    assert scene.prompt.error == f"Gob's hit points go from -10 to {gob.max_hp}, not 99"
    _key(pygame.K_BACKSPACE)
    _key(pygame.K_BACKSPACE)
    _type("1")
    _enter()
    _frames(app)
    assert scene.prompt is None and ctl.enc.creatures["gob"].hp == 1 and scene.model.creatures["gob"].hp == 1
    edit = [e for e in ctl.enc.events if isinstance(e, ev.DmEdit)]
    assert [(e.target, e.change, e.before, e.after) for e in edit] == [("gob", "hp", {"hp": gob.max_hp}, {"hp": 1})]
    assert scene.model.log[-1].text == f"DM: Gob's hit points {gob.max_hp} -> 1"

    _key(pygame.K_g, "g")                            # a condition, by name
    _type("2")
    _frames(app)
    for ch in "pro":
        _key(getattr(pygame, f"K_{ch}"), ch)
    _enter()
    _frames(app)
    scene.director.skip_queue()
    assert ctl.enc.creatures["gob"].prone and scene.model.creatures["gob"].prone

    _key(pygame.K_g, "g")                            # move the token: a rock square refused, then a floor one
    _type("3")
    _frames(app)
    _click(scene, (0, 0))
    _frames(app)
    assert scene.toast_text == "DM: Gob cannot be put there: (0, 0) is solid rock; put it on a floor square"
    _key(pygame.K_g, "g")
    _type("3")
    _frames(app)
    _click(scene, (7, 3))
    _frames(app)
    scene.director.skip_queue()
    assert ctl.enc.creatures["gob"].pos == (7, 3) and scene.model.creatures["gob"].pos == (7, 3)
    assert ctl.enc.turn is not None and ctl.enc.turn.standard   # Bruna spent nothing

    _key(pygame.K_g, "g")                            # pass Bruna's turn
    _type("4")
    _frames(app)
    passed = [e for e in ctl.enc.events if isinstance(e, ev.DmEdit) and e.change == "pass"]
    assert [e.target for e in passed] == ["bruna"]
    assert [e.change for e in ctl.enc.events if isinstance(e, ev.DmEdit)] == ["hp", "condition", "move", "pass"]
    _frames(app, 20)
    scene.director.skip_queue()
    _frames(app, 5)
    assert ctl.current().id == "gob" and not any(e.type == "attack" for e in ctl.enc.events)   # paused: it waits

    for _ in range(4):                               # every edit undone, one Ctrl-Z each
        _key(pygame.K_z, mod=pygame.KMOD_CTRL)
        _frames(app)
    assert ev.dumps(ctl.enc.events) == start and ctl.enc.creatures["gob"].hp == gob.max_hp


def test_area_spell_needs_a_second_click_or_enter_and_esc_cancels(screen):
    hall = ["############",
            "#..........#",
            "#..........#",
            "#..........#",
            "############"]
    s = spec(hall, [{"id": "ilde", "template": "elf-wizard-3", "team": "party", "at": (2, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    _until(app, scene, lambda: ctl.current() is not None and ctl.current().id == "ilde" and scene.awaiting_input,
           "Ilde's turn")
    _key(pygame.K_x)
    _key(pygame.K_x)                                 # sleep
    _frames(app)
    assert scene.spell_choice == "sleep" and "casting sleep" in scene.ready_text
    n = len(ctl.enc.events)
    _click(scene, (8, 2))                            # the first click aims
    _frames(app)
    assert scene.aim is not None and len(ctl.enc.events) == n and scene.area_preview
    aimed = list(scene.area_preview)
    assert "aimed" in scene.ready_text
    _key(pygame.K_ESCAPE)                            # cancel: no cast, the window stays
    _frames(app)
    assert scene.aim is None and app.running and len(ctl.enc.events) == n and scene.spell_choice == "sleep"
    _click(scene, (8, 2))
    _frames(app)
    assert scene.area_preview == aimed
    _enter()                                         # Enter casts it as aimed
    _frames(app)
    cast = [e for e in ctl.enc.events[n:] if isinstance(e, ev.SpellCast)]
    assert [c.spell for c in cast] == ["sleep"] and scene.spell_choice is None


def test_hovering_an_enemy_shows_the_chance_to_hit_and_the_end_card_keys(screen):
    s = spec(ROOM, DUEL, seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    _bruna_to_act(app, scene, ctl)
    x, y = scene.camera.to_screen(3.5, 1.5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(int(x), int(y)), rel=(0, 0), buttons=(0, 0, 0)))
    _frames(app)
    lines = scene.hit_lines
    assert lines and lines[0].startswith(f"longsword vs {scene.model.creatures['gob'].label}: ") and "% to hit" in lines[0] and "damage (1d8" in lines[0]
    from sim.engine.attacks import plan_attack
    from sim.engine.ai.estimates import hit_chance
    from sim.story.log import mod_words

    c, gob = ctl.enc.creatures["bruna"], ctl.enc.creatures["gob"]
    plan = plan_attack(ctl.enc, c, c.attack_named("longsword"), gob)
    assert f"{hit_chance(plan.bonus, plan.ac):.0%} to hit" in lines[0]
    assert lines[1] == f"d20 {mod_words(plan.modifiers)} = d20 + {plan.bonus} vs AC {plan.ac}"
    assert "longsword" in scene.ready_text           # the weapon chosen, over the map until changed
    # to the end (auto-play), then Left steps back and Home goes back to the start
    _key(pygame.K_p)
    _until(app, scene, lambda: ctl.enc.finished, "the end", n=400)
    end = ev.dumps(ctl.enc.events)
    _key(pygame.K_LEFT)
    _frames(app)
    assert not ctl.enc.finished and ev.dumps(ctl.enc.events) != end
    _key(pygame.K_HOME)
    _frames(app)
    assert ctl.enc.round == 1 and not ctl.undo_stack
    assert not any(isinstance(e, (ev.Attack, ev.Moved)) for e in ctl.enc.events)


def test_play_dice_options_from_the_command_line(capsys):
    from sim.cli import main
    from sim.base.paths import maps_dir

    demo = str(maps_dir() / "demo.toml")
    assert main(["play", demo, "--dice", "manual", "--max-frames", "3", "--size", "640x360"]) == 0
    capsys.readouterr()
    assert main(["play", demo, "--dice-for", "party", "--max-frames", "3"]) == 2
    assert "--dice-for names whose dice are typed: give it with --dice manual" in capsys.readouterr().err
    assert main(["play", demo, "--dice", "manual", "--dice-for", "party,dragons", "--max-frames", "3"]) == 2
    err = capsys.readouterr().err
    assert "--dice-for: no team or creature 'dragons' in this encounter; teams: " in err and "Traceback" not in err
    with pytest.raises(SystemExit) as exit_:
        main(["play", demo, "--dice", "loaded", "--max-frames", "3"])
    assert exit_.value.code == 2 and "invalid choice: 'loaded'" in capsys.readouterr().err


def test_a_monsters_dice_typed_during_its_ai_turn(screen):
    """--dice-for monsters: the goblin's turn plays itself and stops at each of its dice; the same
    turn goes on with the value typed (its initiative first, at the start)."""
    s = spec(ROOM, DUEL, seed=4)
    scene, ctl = play_scene(s, size=screen.get_size(), control={"party"}, dice_for={"gob"})
    app = App(scene, ctl, screen, max_frames=3, fixed=True)
    assert scene.prompt.title.startswith("Gob: initiative, d20")
    _type("20")
    _enter()
    _frames(app)
    asked = []
    for _ in range(300):                             # the goblin acts: each of its dice is asked for
        _frames(app, 2)
        scene.director.skip_queue()
        if scene.prompt is not None:
            asked.append(scene.prompt.title)
            lo, _, hi = scene.prompt.hint.partition("(")[2].partition(")")[0].partition(" to ")
            _type(str(int(hi)))                      # the highest the die rolls
            _enter()
            _frames(app)
        if any(isinstance(e, ev.Attack) and e.actor == "gob" for e in ctl.enc.events):
            break
    att = next(e for e in ctl.enc.events if isinstance(e, ev.Attack) and e.actor == "gob")
    assert att.roll == 20 and att.target == "bruna"
    assert any(t.startswith("Gob: ") and "attack vs Bruna, d20" in t for t in asked), asked
    rolled = [e for e in ctl.enc.events if isinstance(e, ev.Rolled)]
    assert all(e.actor == "gob" and e.entered for e in rolled) and len(rolled) >= 2
