"""The narrator's dispatch table: every event with a line has its method, and every method is in
the table (a method missing from it would never run)."""

from __future__ import annotations

import inspect

from sim.engine import events as ev
from sim.story.log import LINES, Narrator


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


# ---- grammar (issue 13 item 9) -------------------------------------------------------------------

def test_plural_names_and_teams_agree_with_their_verbs_and_pronouns_follow_sex():
    from sim.engine import events as ev
    from sim.story.log import article, plural_verb
    n = Narrator()
    n.line(ev.EncounterStart(round=0, map="m", seed=0, cols=4, rows=4, combatants=(
        {"id": "bruna", "name": "Bruna", "team": "party", "swarm": False, "sex": "female"},
        {"id": "tordek", "name": "Tordek", "team": "party", "swarm": False, "sex": "male"},
        {"id": "og", "name": "Ogre", "team": "monsters", "swarm": False, "sex": None},
        {"id": "rats", "name": "Rats", "team": "monsters", "swarm": True, "sex": None},
        {"id": "sp", "name": "Spider swarm", "team": "monsters", "swarm": True, "sex": None})))
    assert n.line(ev.Engulf(round=1, actor="rats", targets=("bruna",), squares=())) == "Rats engulf Bruna"
    assert n.line(ev.Engulf(round=1, actor="sp", targets=("bruna",), squares=())) == "Spider swarm engulfs Bruna"
    assert n.line(ev.Died(round=1, target="rats", at=())) == "  Rats die"
    assert n.line(ev.Moved(round=1, actor="rats", action="double_move", path=({"at": [2, 1], "category": "CLEAR",
                                                                             "kind": "walk", "feet": 5},),
                           squares=(), prone=False)).startswith("Rats move (double) 1 square to (2, 1)")
    assert n.line(ev.ActionTaken(round=1, actor="bruna", action="last_thrown", item="dagger")) == \
        "Bruna has thrown her last dagger"
    assert n.line(ev.ActionTaken(round=1, actor="tordek", action="last_thrown", item="dagger")) == \
        "Tordek has thrown his last dagger"
    assert n.line(ev.ActionTaken(round=1, actor="og", action="last_thrown", item="javelin")) == \
        "Ogre has thrown its last javelin"
    assert n.line(ev.ActionTaken(round=1, actor="bruna", action="light", item="hooded-lantern")) == \
        "Bruna lights a hooded lantern"
    assert n.line(ev.ActionTaken(round=1, actor="bruna", action="fuse", item="oil")) == "Bruna prepares the fuse of an oil"
    assert n.line(ev.EncounterEnd(round=3, winner="monsters", reason="", survivors=())).startswith(
        "== monsters win after 3 rounds")
    assert n.line(ev.EncounterEnd(round=3, winner="party", reason="", survivors=())).startswith(
        "== party wins after 3 rounds")
    assert (article("Ogre"), article("goblin"), article("elf")) == ("an", "a", "an")
    assert [plural_verb(v) for v in ("engulfs", "does", "has", "is", "dies", "disperses", "crosses")] == [
        "engulf", "do", "have", "are", "die", "disperse", "cross"]


def test_grapple_lines():
    """docs/rules.md §11: an opposed check names both sides' modifiers; the grappled condition
    names who holds whom."""
    n = Narrator({"dm": "darkmantle", "b": "Bruna"})
    e = ev.Opposed(round=1, actor="dm", target="b", purpose="grapple_hold", check="grapple", roll=16,
                   modifiers={"base_attack": 1, "str": 3, "size": -4}, total=16, target_check="grapple",
                   target_roll=11, target_modifiers={"base_attack": 1, "str": 2, "size": 0}, target_total=14, success=True)
    assert n.line(e) == ("darkmantle grapples Bruna: grapple d20 16 +1 BAB +3 Str −4 size = 16 vs "
                         "grapple d20 11 +1 BAB +2 Str = 14: wins")
    esc = ev.Opposed(round=2, actor="b", target="dm", purpose="escape", check="escape_artist", roll=5,
                     modifiers={"escape_artist": 7}, total=12, target_check="grapple", target_roll=10,
                     target_modifiers={"base_attack": 1, "str": 3, "size": -4, "crawl": -2, "prone": -4},
                     target_total=4, success=True)
    assert n.line(esc) == ("Bruna tries to break free of darkmantle: Escape Artist d20 5 +7 skill = 12 vs "
                           "grapple d20 10 +1 BAB +3 Str −4 size −2 crawl −4 prone = 4: wins")
    held = ev.Condition(round=1, target="b", condition="grappled", active=True, detail={"with": ("dm",)})
    assert n.line(held) == "  Bruna is grappled (with darkmantle)"
    free = ev.Condition(round=2, target="b", condition="grappled", active=False, detail={"with": ()})
    assert n.line(free) == "  Bruna is no longer grappled"
