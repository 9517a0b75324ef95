"""Mechanics as registered units (issue 33 item 2): sim.engine.mechanics, sim.engine.registry,
sim.engine.ai.tactic and sim.engine.ai.registry.

* every action the AI or the play window can ask for has exactly one handler, and the handler
  table is the registry's;
* the turn hooks run in the declared order, which is the order of the calls before the registry
  (the goldens, tests/engine/test_goldens.py, prove the draws and events unchanged);
* the AI asks the engine's checks of trip and bull rush (no copy of the rules left);
* a made-up mechanic (an action, a turn hook, its AI tactic) plugs in with one record in one new
  module (and its tactic in one new AI module) plus one line in each registry;
* the parts of the fight's state are declared by the mechanics (each by one), and a made-up
  mechanic's part goes round the saved game with no line in the saved game's code.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import importlib
import inspect
import json
import re
import sys
import textwrap
import typing
from pathlib import Path

import pytest

from sim.base.errors import DataError
from sim.engine import actions, registry, specials, strands
from sim.engine import parts as parts_mod
from sim.engine.actions import BullRush, Impossible, Strike, Trip
from sim.engine.ai import maneuvers as ai_maneuvers
from sim.engine.ai.decide import default_policy
from sim.engine.ai.registry import TACTICS, first_choice
from sim.engine.damage import swarm_area_factor
from sim.engine.encounter import Encounter
from sim.engine.events import dumps
from sim.engine.mechanics import Mechanic
from sim.engine.parts import PARTS, Part
from sim.engine.saved import snapshot as S
from sim.engine.strands import actions as strand_actions
from sim.engine.world import World
from sim.rules import _data
from sim.rules.sizes import Size, at_most_one_larger
from tests.engine.helpers import encounter, ready, spec
from tests.engine.test_spells import turn_of

ROOT = Path(__file__).resolve().parents[2]
ACTION_MODULES = {"sim.engine.actions": actions, "sim.engine.strands.actions": strand_actions,
                  "sim.engine.specials": specials}
NOT_ACTIONS = {"Done", "Impossible", "Turn"}


def _is_action(obj) -> bool:
    return (isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ in ACTION_MODULES
            and obj.__name__ not in NOT_ACTIONS)


def _asked_actions() -> set[type]:
    """Every action record the AI (sim/engine/ai), the play window (sim/render) or the view state
    (sim/view) imports or names: what they can ask the engine for."""
    found: set[type] = set()
    files = [p for d in ("sim/engine/ai", "sim/render", "sim/view") for p in (ROOT / d).rglob("*.py")]
    for path in files:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ACTION_MODULES:
                mod = ACTION_MODULES[node.module]
                found |= {getattr(mod, a.name) for a in node.names if _is_action(getattr(mod, a.name, None))}
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "specials":
                obj = getattr(specials, node.attr, None)
                if _is_action(obj):
                    found.add(obj)
    return found


def test_every_action_the_ai_or_the_window_asks_for_has_exactly_one_handler():
    asked = _asked_actions()
    assert {"Move", "Strike", "Trip", "Cast", "Swallow", "CutOut", "BreakStrand", "SeverStrand", "BreakFree",
            "StrandVolley", "RemoveArmor", "Delay"} <= {a.__name__ for a in asked}
    for kind in asked:
        owners = [m.name for m in registry.REGISTRY if kind in m.actions]
        assert len(owners) == 1, (kind.__name__, owners)
    declared = {getattr(actions, n) for n in dir(actions) if _is_action(getattr(actions, n))}
    assert declared <= set(registry.HANDLERS), declared - set(registry.HANDLERS)
    assert registry.HANDLERS is registry.handler_table(registry.REGISTRY)
    assert Encounter.mechanics is registry.REGISTRY


def test_an_action_claimed_twice_is_refused():
    twice = Mechanic("twice", actions={Strike: lambda w, c, t, a: True})
    with pytest.raises(ValueError, match="Strike is handled by both 'attacks' and 'twice'"):
        registry.handler_table(registry.REGISTRY + (twice,))


def test_a_mechanic_record_is_checked():
    with pytest.raises(ValueError, match="needs a name"):
        Mechanic("")
    with pytest.raises(ValueError, match="action types"):
        Mechanic("x", actions={"Strike": print})
    with pytest.raises(ValueError, match="checks for actions it does not handle"):
        Mechanic("x", checks={Trip: print})
    m = Mechanic("x", actions={Trip: print})
    with pytest.raises(TypeError):
        m.actions[BullRush] = print   # read-only


def _names(hook: str) -> list[str]:
    return [m.name for m in registry.REGISTRY if getattr(m, hook) is not None]


def test_the_turn_hooks_run_in_the_order_of_the_calls_they_replaced():
    # the order of sim.engine.encounter's _start_of_turn, end_turn and perform before the registry
    assert _names("start_of_turn") == [
        "zones", "grapple", "lasting: paralysis", "inside a host", "fresh turn", "lasting: sleep", "stinking cloud",
        "lasting: rage", "lasting: spells", "dying", "regeneration", "bleeding", "poison", "spells", "items",
        "lasting: wake", "specials", "strands", "swarms", "movement"]
    assert _names("refusal") == ["swallow", "grapple", "strands"]
    assert _names("after_action") == ["grapple"]
    assert _names("end_of_turn") == ["swarms", "movement", "lasting: turn_end"]
    assert _names("settle") == ["inside a host"]
    assert _names("occupies") == ["armour removal"]


def test_a_hook_that_settles_the_turn_start_stops_the_later_hooks():
    calls = []
    first = Mechanic("first", start_of_turn=lambda w, c: calls.append("first"))
    stop = Mechanic("stop", start_of_turn=lambda w, c: calls.append("stop") or True)
    later = Mechanic("later", start_of_turn=lambda w, c: calls.append("later"))
    registry.start_of_turn(None, None, (first, stop, later))
    assert calls == ["first", "stop"]


def test_a_dying_creature_gets_no_other_start_of_turn_effect():
    enc = ready(encounter(["." * 6] * 3, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                         {"id": "g", "template": "goblin", "team": "m", "at": [4, 1]}]))
    f = enc.creatures["f"]
    f.hp, f.bleed = -3, 2
    f.set_status("dying")
    registry.start_of_turn(enc, f)
    assert f.hp in (-3, -4)       # stabilised, or 1 hp lost to dying; the bleed waits
    assert not any(e.type == "damage" and e.cause == "bleed" for e in enc.events)


def test_the_ai_asks_the_engines_check_of_a_trip_and_a_bull_rush():
    src = (ROOT / "sim/engine/ai/maneuvers.py").read_text()
    assert "size) + 1" not in src and "is_swarm" not in src and '"ooze"' not in src
    enc = ready(encounter(["." * 10] * 5, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 2]},
                                           {"id": "g", "template": "goblin", "team": "m", "at": [3, 2]}]))
    f, g = enc.creatures["f"], enc.creatures["g"]
    assert registry.check(enc, f, Trip("g")) is None and ai_maneuvers.trippable(enc, f, g)
    g.prone = True
    no = registry.check(enc, f, Trip("g"))
    assert isinstance(no, Impossible) and "already prone" in no.reason
    assert not ai_maneuvers.trippable(enc, f, g)
    assert registry.check(enc, f, BullRush("g")) is None and ai_maneuvers.rushable(enc, f, g)
    enc.place(g, (6, 2))
    assert "not next to" in registry.check(enc, f, BullRush("g")).reason
    assert not ai_maneuvers.rushable(enc, f, g)


def test_the_turn_loop_asks_an_actions_registered_check_once_and_its_handler_does_not_again():
    """Trip, bull rush and swallow: the rule of when each may be tried is its registered check,
    asked by the turn loop before the handler (and by the AI): no handler asks it again."""
    checked = [(m.actions[kind], check) for m in registry.REGISTRY for kind, check in m.checks.items()]
    assert {h.__name__ for h, _ in checked} >= {"do_trip", "do_bull_rush", "do_swallow"}
    for handler, check in checked:
        assert f"{check.__name__}(" not in inspect.getsource(handler), handler.__name__
    enc = ready(encounter(["." * 10] * 5, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 2]},
                                           {"id": "g", "template": "goblin", "team": "m", "at": [3, 2]}]))
    turn_of(enc, "f")
    enc.creatures["g"].prone = True
    n = len(enc.events)
    done = enc.perform(Trip("g"))
    assert isinstance(done, Impossible) and done.reason == "G is already prone" and len(enc.events) == n
    assert enc.turn.standard   # nothing spent


def test_at_most_one_size_larger_is_written_once():
    assert at_most_one_larger(Size.LARGE, Size.MEDIUM) and not at_most_one_larger(Size.HUGE, Size.MEDIUM)
    copy = re.compile(r"int\([\w.]*size\)\s*>\s*int\([\w.]*size\)\s*\+\s*1")
    assert [p for p in (ROOT / "sim").rglob("*.py") if copy.search(p.read_text())] == []


# -- a made-up mechanic, plugged in ----------------------------------------------------------------------------------

#: The new engine module of a made-up mechanic: its action, its handler, a turn hook, one record.
HOWL_MODULE = '''
"""A made-up mechanic: a creature howls (a standard action); each of its turns counts."""
from dataclasses import dataclass

from sim.engine.actions import Impossible
from sim.engine.damage import swarm_area_factor
from sim.engine.events import dumps
from sim.engine.mechanics import Mechanic
from sim.engine.parts import PARTS, Part
from sim.engine.saved import snapshot as S
from sim.engine.strands import actions as strand_actions

TURNS: list[str] = []
HOWLS: list[str] = []


@dataclass(frozen=True, slots=True)
class Howl:
    """Howl: a standard action."""


def do_howl(w, c, t, a):
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    t.spend("standard")
    HOWLS.append(c.id)
    return True


def count_turn(w, c):
    TURNS.append(c.id)


HOWL = Mechanic("howl", actions={Howl: do_howl}, start_of_turn=count_turn)
'''

#: Its AI module: one tactic record (it lives on the AI's side: the engine never imports it).
HOWL_TACTIC_MODULE = '''
"""The default AI's howl: once a fight, first thing."""
from sim.engine.ai.tactic import Tactic
from howl_mechanic import HOWLS, Howl


def howl_once(w, c, t, foes, melee):
    return Howl() if t.standard and c.id not in HOWLS else None


HOWL_TACTIC = Tactic("howl", howl_once)
'''

#: The files a new mechanic takes: its module, its AI module, one line in each registry.
FILES_FOR_A_NEW_MECHANIC = ("sim/engine/howl.py", "sim/engine/ai/howl.py", "sim/engine/registry.py",
                            "sim/engine/ai/registry.py")


def test_a_made_up_mechanic_plugs_in_with_one_record_and_one_registry_line(tmp_path, monkeypatch):
    (tmp_path / "howl_mechanic.py").write_text(textwrap.dedent(HOWL_MODULE))
    (tmp_path / "howl_tactic.py").write_text(textwrap.dedent(HOWL_TACTIC_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("howl_mechanic", "howl_tactic"):
        sys.modules.pop(name, None)
    howl = importlib.import_module("howl_mechanic")
    tactic = importlib.import_module("howl_tactic")
    assert "sim.engine.ai" not in (tmp_path / "howl_mechanic.py").read_text()   # the engine side stays AI-free

    class HowlingEncounter(Encounter):
        mechanics = registry.REGISTRY + (howl.HOWL,)   # the one line in sim/engine/registry.py

    policy = functools.partial(default_policy, tactics=TACTICS + (tactic.HOWL_TACTIC,))   # the one AI line
    enc = HowlingEncounter(spec(["." * 8] * 3, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                                {"id": "g", "template": "goblin", "team": "m",
                                                 "at": [5, 1]}]), policy=policy)
    enc.run(max_rounds=3)
    assert set(howl.HOWLS) == {"f", "g"} and len(howl.HOWLS) == 2          # each howled once, its AI's choice
    assert howl.TURNS[:2] == [enc.order[0], enc.order[1]]                  # the hook ran at each turn's start
    assert not any(e.type == "refused" for e in enc.events)
    assert first_choice(enc, enc.creatures["f"], actions.Turn("f"), [], None, (tactic.HOWL_TACTIC,)) is None
    # the count: two new modules (written here), one line in each of the two registries
    assert len(list(tmp_path.glob("*.py"))) + 2 == len(FILES_FOR_A_NEW_MECHANIC) == 4



# -- the parts of the fight's state: declared by the mechanics, iterated by the saved game --------------------------

def test_every_world_part_is_declared_by_exactly_one_mechanic():
    """The world's parts (its typed attributes, the records of sim.engine.parts) are the parts
    the registry's mechanics declare, each by one mechanic; the encounter builds them in the
    registry's order, and a name declared twice is refused."""
    declared = [(m.name, m.part) for m in registry.REGISTRY if m.part is not None]
    names = [p.name for _, p in declared]
    assert len(names) == len(set(names))
    assert set(PARTS) == {p for _, p in declared} == set(Encounter.PARTS)
    assert Encounter.PARTS == registry.parts() == tuple(p for _, p in declared)
    hints = typing.get_type_hints(World)
    part_types = {cls for cls in vars(parts_mod).values() if isinstance(cls, type) and cls.__module__ == parts_mod.__name__
                  and cls not in (Part, parts_mod.Zone)}
    assert {(n, t) for n, t in hints.items() if t in part_types} == {(p.name, p.record) for p in PARTS}
    again = Mechanic("again", part=Part("grabs", parts_mod.Grabs))
    with pytest.raises(ValueError, match="the part 'grabs' is declared by both 'grapple' and 'again'"):
        registry.parts(registry.REGISTRY + (again,))
    with pytest.raises(ValueError, match="a name .* and a dataclass record"):
        Part("echoes", int)


@dataclasses.dataclass
class Echoes:
    """A made-up mechanic's state: the turns counted, the last creature heard, who was heard."""

    count: int = 0
    last: str | None = None
    heard: list[str] = dataclasses.field(default_factory=list)


def _echo(w, c) -> None:
    w.echoes.count += 1
    w.echoes.last = c.id
    w.echoes.heard.append(c.id)


ECHO = Mechanic("echo", start_of_turn=_echo, part=Part("echoes", Echoes))


class EchoEncounter(Encounter):
    mechanics = registry.REGISTRY + (ECHO,)


def test_a_made_up_mechanic_with_a_state_part_goes_round_the_saved_game():
    """One record (its part declared in it) and the fight builds its state, the saved game writes
    it as a section after the shipped parts (the registry's order) and reads it back: no line in
    the saved game's code. A fight without that mechanic refuses the section."""
    the_spec = spec(["." * 8] * 3, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                   {"id": "g", "template": "goblin", "team": "m", "at": [5, 1]}])
    w = EchoEncounter(the_spec, seed=2, policy=default_policy)
    assert EchoEncounter.PARTS == Encounter.PARTS + (Part("echoes", Echoes),)
    w.start()
    for _ in range(5):
        w.advance()
    assert w.echoes.count >= 2
    text = S.dumps(w, encounter_file="x.toml")
    sections = list(json.loads(text)["state"])
    assert sections[sections.index("movement") + 1:] == ["echoes", "events", "memory"]
    back = S.load_text(text, the_spec, policy=default_policy, kind=EchoEncounter)
    assert type(back.echoes) is Echoes and back.echoes == w.echoes and back.echoes.heard is not w.echoes.heard
    w.run()
    back.run()
    assert dumps(back.events) == dumps(w.events) and back.echoes == w.echoes
    with pytest.raises(DataError, match="state.echoes: not part of a fight in this cavesim"):
        S.load_text(text, the_spec, policy=default_policy)
    plain = Encounter(the_spec, seed=2)
    plain.echoes = Echoes()
    with pytest.raises(S.SnapshotTypeError, match="echoes: a .*Echoes cannot be saved"):
        S.dumps(plain, encounter_file="x.toml")


def test_the_srd_numbers_the_mechanics_use_are_read_from_combat_toml(monkeypatch):
    table = _data.load("combat.toml")
    assert (table["maneuver"]["stability"], table["maneuver"]["improved_feat"]) == (4, 4)
    assert (table["strand"]["hit_points"], table["strand"]["drawn_in_bite"], table["strand"]["attached_sunder"]) \
        == (10, 4, -4)
    assert table["swarm"]["area_damage_percent"] == 150 and swarm_area_factor() == 1.5
    enc = ready(encounter(["." * 8] * 4, [{"id": "roper", "template": "roper", "team": "m", "at": [1, 1]},
                                          {"id": "f", "template": "human-fighter-3", "team": "p", "at": [5, 1]}]))
    monkeypatch.setitem(table["strand"], "hit_points", 12)   # the table, not a constant, says how strong
    strands.stick(enc, enc.creatures["roper"], enc.creatures["f"])
    assert enc.events[-1].detail["strand_hp"] == 12


def test_every_moment_of_the_lasting_effects_is_played():
    """Each moment sim/data/effects.toml declares is ticked exactly once a turn: as a registered
    mechanic (sim.engine.conditions.LASTING), save "confusion", ticked inside the specials' start
    of turn (after light blindness, as the confusion roll needs)."""
    import inspect

    from sim.engine import conditions, specials
    registered = [m for m in registry.REGISTRY if m in conditions.LASTING.values()]
    assert {m.name for m in registered} == {f"lasting: {k}" for k in conditions.LASTING if k != "confusion"}
    assert len(registered) == len(conditions.LASTING) - 1
    assert 'tick(w, c, "confusion")' in inspect.getsource(specials.start_of_turn)
