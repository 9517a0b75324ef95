"""The director dispatches events through one table (no method names built from strings)."""

import inspect

import pytest

from sim.engine import events as ev
from sim.view.model import ViewModel
from sim.view.timeline import Director


def test_every_event_type_has_its_handler_in_the_table():
    handlers = {name for name, _ in inspect.getmembers(Director, inspect.isfunction) if name.startswith("_on_")}
    table = Director.HANDLERS
    assert set(table) == set(ev._REGISTRY.values()) - {ev.Event}
    assert {f.__name__ for f in table.values()} == handlers
    for cls, f in table.items():
        assert f.__name__ == f"_on_{cls.type}", (cls, f)


def test_schedule_starts_each_event_when_the_last_hold_ends():
    events = [ev.RoundStart(round=1), ev.TurnStart(round=1, actor="a"), ev.TurnEnd(round=1, actor="a")]
    d = Director(ViewModel(), pace=0.5)
    starts, total = d.schedule(events)
    # holds: round banner 0.55 s, turn start 0.16 s, turn end 0.04 s; pace 0.5 halves them
    assert starts == pytest.approx([0.0, 0.275, 0.355]) and total == pytest.approx(0.375)
    assert d.anims == [] and not d.queue and d.model.round == 1
