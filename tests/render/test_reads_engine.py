"""The renderer reads, never re-derives (issue 33 item 6): for every area spell of
``sim/data/spells.toml`` the squares play shows before the cast are the squares the engine's cast
fills, aimed the way the engine says the spell is aimed (``spells.AIMS``); the lights held come
from the ``encounter_start`` event; the scene forgets what it shows through its own methods."""

from __future__ import annotations

import pytest

from sim.engine import events as ev
from sim.engine.casting import SIMULATED, spell_data
from sim.engine.spells import AIMS, AREA_SPELLS, aim_of
from sim.render.session import play_scene, scene_from_events, watch_scene
from sim.view.play import CLICK_FOR

from .helpers import spec, start_events

HALL = ["#" * 24] + ["#" + "." * 22 + "#"] * 5 + ["#" * 24]

#: Where the test clicks for each way of aiming: (the square, the point in squares).
CLICKS = {"point": ((7, 3), (7.8, 3.9)), "square": ((7, 3), (7.5, 3.5)), "cone": ((4, 3), (4.5, 3.2)),
          "self": ((5, 5), (5.5, 5.5))}

AREA_IN_DATA = sorted(name for name, d in spell_data().items() if "area" in d)


def _wizard_turn(spell: str):
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-6", "team": "party", "at": (3, 3)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (20, 1)}], seed=4)
    scene, ctl = play_scene(s, size=(800, 400), control={"party"})
    scene.lighting = None
    for _ in range(40):
        scene.director.skip_queue()
        ctl.pump()
        scene.update(1 / 60)
        c = ctl.current()
        if c is not None and c.id == "ilde" and scene.awaiting_input:
            scene.director.skip_queue()
            scene.update(1 / 60)
            c.spells_left = {int(spell_data()[spell]["level"]): [spell]}
            return scene, ctl, c
        ctl.request_step()
    raise AssertionError("no turn for the wizard")


def test_the_engine_declares_how_every_simulated_spell_is_aimed():
    assert set(AIMS) == set(SIMULATED)
    assert sorted(AREA_SPELLS) == AREA_IN_DATA           # an area in the data is an area the engine fills
    assert {aim_of(s) for s in AREA_SPELLS} <= set(CLICKS)
    assert aim_of("not-a-spell") == "self"


@pytest.mark.parametrize("spell", AREA_IN_DATA)
def test_the_preview_is_the_area_the_cast_fills(spell):
    scene, ctl, c = _wizard_turn(spell)
    scene.spell_choice = spell
    assert "click to aim" in ctl.ready_text()
    sq, point = CLICKS[aim_of(spell)]
    shown = ctl.spell_area(sq, point=point)
    assert shown, f"{spell}: nothing previewed"
    n = len(ctl.enc.events)
    ctl.click_square(sq, point=point)                    # the first click aims: the area stays drawn
    assert scene.aim is not None and scene.area_preview == shown and len(ctl.enc.events) == n
    ctl.click_square(sq, point=point)                    # the second casts it as aimed
    cast = [e for e in ctl.enc.events[n:] if isinstance(e, ev.SpellCast) and e.actor == "ilde"]
    assert cast and not cast[0].lost, f"{spell}: not cast"
    if cast[0].squares or spell != "bless":
        assert sorted(tuple(q) for q in cast[0].squares) == sorted(shown)
    else:   # bless's event names whom it blessed: everyone of the caster's side in the area shown
        side = {o.id for o in ctl.enc.creatures.values() if o.team == c.team and set(o.squares) & set(shown)}
        assert set(cast[0].targets) == side == {"ilde"}


def test_targeted_spells_say_what_a_click_wants():
    scene, ctl, c = _wizard_turn("magic-missile")
    scene.spell_choice = "magic-missile"
    assert ctl.ready_text().endswith(CLICK_FOR["creature"])
    assert ctl.spell_area((20, 1)) == []
    assert ctl.spell_action((20, 1)).target == "gob"
    scene.spell_choice = "darkness"
    assert ctl.ready_text().endswith(CLICK_FOR["square"]) and ctl.spell_action((4, 3)).at == (4, 3)


def test_the_lights_held_are_read_from_the_start_event():
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-3", "team": "party", "at": (3, 3),
                     "items": {"hooded-lantern": 1}, "lit": True},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (20, 1)}])
    events = start_events(s)
    scene, tl = watch_scene(s, events=events)
    tl.step_forward()
    scene.jump(list(scene.director.queue))
    assert scene.model.lights_held == {"ilde": "hooded-lantern", "gob": None}
    assert scene.lighting.carried == {}                  # nothing rebuilt beside the events


def test_reset_view_forgets_what_is_shown_and_show_live_the_turn_s_choices(tmp_path):
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-3", "team": "party", "at": (3, 3)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (20, 1)}])
    scene, tl = scene_from_events(start_events(s), s.grid, size=(400, 240), autoplay=False, mode="replay")
    scene.update(1 / 60)
    assert scene.model.creatures and scene.hp_shown and scene.director.created
    model, particles = scene.model, scene.particles
    scene.reset_view()
    assert scene.model is model and not model.creatures and not scene.hp_shown
    assert not scene.director.created and not scene.director.queue and scene.particles is not particles
    scene2, ctl, _ = _wizard_turn("sleep")
    scene2.spell_choice = "sleep"
    ctl.click_square((7, 3), point=(7.8, 3.9))
    assert scene2.aim is not None and scene2.area_preview
    world = scene2.world
    assert ctl.save_game(tmp_path / "s.json") and ctl.load_game(tmp_path / "s.json")   # Scene.show_live
    assert scene2.world is not world and scene2.aim is None and scene2.area_preview == [] and scene2.spell_choice is None
    assert scene2.model.creatures                        # shown again from the fight's events
