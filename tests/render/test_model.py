"""The view model is rebuilt from events alone; a prefix of the events gives the state then."""

from __future__ import annotations

from sim.view.model import ViewModel, labels_for
from sim.view.fights import simulate

from .helpers import spec

CAVE = ["##########",
        "#........#",
        "#........#",
        "#........#",
        "##########"]


def fight():
    s = spec(CAVE, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 2)},
                    {"template": "goblin", "team": "monsters", "at": (7, 1)},
                    {"template": "goblin", "team": "monsters", "at": (7, 3)}], seed=3)
    enc, events = simulate(s)
    return enc, events


def test_model_matches_the_engine_at_the_end():
    enc, events = fight()
    m = ViewModel()
    for e in events:
        m.apply(e)
    assert m.finished and m.winner == enc.winner
    for cid, c in enc.creatures.items():
        v = m.creatures[cid]
        assert v.hp == c.hp, cid
        assert set(v.squares) == set(c.squares), cid
        assert ("dead" in v.conditions) == ("dead" in c.conditions), cid
    assert m.order == enc.order
    assert len(m.log) > 5 and m.log[-1].tone == "end"


def test_labels_tell_apart_creatures_of_one_name():
    assert labels_for([{"id": "goblin-1", "name": "Goblin"}, {"id": "goblin-2", "name": "Goblin"}]) == \
        {"goblin-1": "Goblin 1", "goblin-2": "Goblin 2"}


def test_replay_steps_back_to_the_same_state_as_a_prefix():
    from .helpers import scene_for

    enc, events = fight()
    scene, timeline = scene_for(enc.spec, events=events[:1] + [])
    # a fresh timeline over the whole fight, stepped turn by turn
    from sim.render.session import Timeline

    tl = Timeline(scene, events)
    tl.restart(upto=tl.bounds[0])
    for _ in range(4):
        tl.step_forward()
        scene.jump(list(scene.director.queue))
        scene.director.queue.clear()
    shown = tl.shown
    assert tl.step_back()
    ref = ViewModel()
    for e in events[:tl.shown]:
        ref.apply(e)
    assert tl.shown < shown
    for cid, v in ref.creatures.items():
        w = scene.model.creatures[cid]
        assert (w.hp, w.squares, w.conditions) == (v.hp, v.squares, v.conditions)
    assert events[tl.shown].type == "turn_start"


def test_light_and_darkness_spells_reach_the_pictures_lights():
    from sim.engine.events import SpellCast
    m = ViewModel()
    m.apply(SpellCast(round=1, actor="c", spell="light", targets=("c",), squares=()))
    m.apply(SpellCast(round=1, actor="c", spell="light", targets=(), squares=((2, 1),)))
    m.apply(SpellCast(round=1, actor="c", spell="darkness", targets=(), squares=((5, 1),)))
    m.apply(SpellCast(round=1, actor="c", spell="darkness", targets=(), squares=((7, 1),), lost=True))
    assert m.spell_lit == {"c": "light-spell"}
    assert m.dropped_lights == [("light-spell", (2, 1))] and m.darkness == [(5, 1)]
