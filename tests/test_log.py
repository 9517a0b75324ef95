"""The narrator's dispatch table: every event with a line has its method, and every method is in
the table (a method missing from it would never run)."""

from __future__ import annotations

import inspect

from sim import events as ev
from sim.log import LINES, Narrator


def test_every_narrator_method_is_in_the_table_under_its_event_type():
    methods = {n for n, _ in inspect.getmembers(Narrator, inspect.isfunction) if n.startswith("_") and not n.startswith("__")}
    assert {m.__name__ for m in LINES.values()} == methods
    for cls, m in LINES.items():
        assert issubclass(cls, ev.Event) and cls is not ev.Event
        assert m.__name__ in (f"_{cls.type}",), (cls, m.__name__)


def test_an_event_without_a_line_gets_none_and_one_with_a_line_gets_it():
    n = Narrator({"k": "Kobold"})
    assert n.line(ev.TurnStart(round=1, actor="k")) is None
    assert n.line(ev.RoundStart(round=2)) == "— Round 2 —"
    assert n.line(ev.Refused(round=1, actor="k", action="Charge", reason="no lane")) == "Kobold cannot charge: no lane"
