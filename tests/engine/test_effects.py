"""A creature's lasting effects (issue 33 item 1): the record, the declared kinds (their table
checked), the tick at the turn's moments (ends by time and by a save, in the table's order), and
saved games of the old schema turned into effects."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from sim.base.errors import DataError
from sim.base.paths import maps_dir
from sim.engine import conditions
from sim.engine.ai.decide import default_policy
from sim.engine.conditions import add, end, hooks_missing, tick
from sim.engine.damage import DamagePart, deal_damage
from sim.engine.effects import (
    CONDITIONS,
    KINDS,
    MOMENTS,
    STATUSES,
    Effect,
    check_table,
    find,
    make,
    modifiers,
    put,
)
from sim.engine.events import dumps
from sim.engine.notes import AINotes, notes_of_schema4
from sim.engine.saved import snapshot as S
from sim.rules import _data
from sim.scenario.files import load_encounter
from tests.engine.helpers import encounter, ready

ROOT = Path(__file__).resolve().parents[2]
OLD_SAVE = Path(__file__).parent / "data" / "schema4_effects.json"
#: The events of the fight in OLD_SAVE played on to its end by the code that wrote it (commit
#: 0b87e97, before effects): the converted file must play the same.
OLD_SAVE_PLAYED_ON = "f5db4c32e4684c98812bb7b8c513e162e6c9c13697fd703410e3901ea927aa64"
#: A saved file of schema 4 with the rule state the memory held (a web's hold, glitterdust, the
#: spell-like effects and uses, a poison's sleep, a stinking cloud's nausea, grease, a roper's
#: strand and drag, rust), and its events played on by the code that wrote it.
OLD_MEMORY = Path(__file__).parent / "data" / "schema4_rule_memory.json"
OLD_MEMORY_PLAYED_ON = "13d3ea9d2c8de4ad13469b7be02cc73f3c1da02df31ce987852ad03f964414e9"


class Dice:
    """d20s (and any die) in the order given."""

    def __init__(self, *rolls: int):
        self.rolls = list(rolls)

    def integers(self, lo, hi, size=None):
        return self.rolls.pop(0)


def _fight():
    enc = ready(encounter(["." * 12] * 5, [
        {"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 2]},
        {"id": "g", "template": "goblin", "team": "m", "at": [9, 2]}]))
    return enc, enc.creatures["f"], enc.creatures["g"]


def _conditions_since(enc, n):
    return [(e.target, e.condition, e.active, e.cause) for e in enc.events[n:] if e.type == "condition"]


# -- the record -------------------------------------------------------------------------------------------------

def test_an_effect_is_a_frozen_slotted_record_with_its_kinds_data():
    e = make("held", "c", 7, dc=14)
    assert e == Effect("held", "c", 7, (("dc", 14),)) and e.value("dc") == 14
    assert not hasattr(e, "__dict__")
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.until = 9
    with pytest.raises(ValueError, match=r"\[effect.held\] declares the data \['dc'\]"):
        make("held", "c", 7)
    with pytest.raises(KeyError, match="blessed has no data field 'dc'"):
        make("blessed").value("dc")


def test_add_shows_the_condition_once_and_replaces_an_effect_of_its_kind():
    enc, f, _ = _fight()
    n = len(enc.events)
    add(enc, f, "blessed", "c", 5)
    add(enc, f, "blessed", "c", 9)
    assert f.effects == [Effect("blessed", "c", 9)] and "blessed" in f.conditions
    assert _conditions_since(enc, n) == [("f", "blessed", True, "c")]


def test_modifiers_are_the_tables_plain_numbers_while_the_effect_lasts():
    enc, f, _ = _fight()
    assert modifiers(f, "attack", 3) == {}
    put(f, Effect("blessed", None, 3))
    assert modifiers(f, "attack", 3) == {"bless": 1} and modifiers(f, "attack", 4) == {}
    assert dict(KINDS["blessed"].modifiers) == {"attack": 1}


# -- the tick ---------------------------------------------------------------------------------------------------

def test_the_tick_ends_an_effect_after_its_last_round_and_not_before():
    enc, f, _ = _fight()
    add(enc, f, "blessed", "c", 4)
    enc.round = 4
    tick(enc, f, "spells")
    assert "blessed" in f.conditions and find(f, "blessed") is not None
    enc.round = 5
    n = len(enc.events)
    tick(enc, f, "rage")                   # not its moment
    assert find(f, "blessed") is not None
    tick(enc, f, "spells")
    assert find(f, "blessed") is None and _conditions_since(enc, n) == [("f", "blessed", False, "expired")]


def test_an_end_of_turn_effect_ends_in_its_last_round():
    enc, f, _ = _fight()
    enc.rng = Dice(1)                      # a save that fails
    add(enc, f, "glitterdust", "c", 3, dc=30)
    enc.round = 2
    tick(enc, f, "turn_end")
    assert find(f, "glitterdust") is not None and "blinded" in f.conditions
    enc.round = 3
    tick(enc, f, "turn_end")
    assert find(f, "glitterdust") is None and "blinded" not in f.conditions


def test_a_save_each_round_ends_an_effect():
    enc, f, _ = _fight()
    add(enc, f, "held", "c", 10, dc=15)
    enc.round = 2
    enc.rng = Dice(1)                      # failed: still held
    tick(enc, f, "spells")
    assert "paralyzed" in f.conditions
    enc.rng = Dice(20)                     # made: free
    n = len(enc.events)
    tick(enc, f, "spells")
    assert find(f, "held") is None and "paralyzed" not in f.conditions
    assert [e.type for e in enc.events[n:]] == ["save", "condition"] and enc.events[-1].cause == "saved"


def test_effects_of_one_moment_end_in_the_tables_order():
    enc, f, _ = _fight()
    put(f, Effect("blessed", None, 1))     # blessed held first, held after: the table says held, then blessed
    add(enc, f, "held", "c", 1, dc=15)
    enc.round = 2
    n = len(enc.events)
    tick(enc, f, "spells")
    assert [c[1] for c in _conditions_since(enc, n)] == ["paralyzed", "blessed"]
    order = list(KINDS)
    assert order.index("held") < order.index("blessed")


def test_conditions_are_a_read_only_view_of_the_effects_and_the_statuses():
    enc, f, _ = _fight()
    add(enc, f, "blessed", "c", 5)
    f.set_status("dazzled")
    assert f.conditions == {"blessed", "dazzled"} and f.statuses == {"dazzled"}
    with pytest.raises(AttributeError):
        f.conditions.add("asleep")         # a frozenset: nothing writes to it
    with pytest.raises(AttributeError):
        f.conditions = {"asleep"}          # a property with no setter
    for name in ("blessed", "petrified"):  # an effect's condition, and no condition at all
        with pytest.raises(ValueError, match=f"'{name}' is not a status"):
            f.set_status(name)
        with pytest.raises(ValueError, match=f"'{name}' is not a status"):
            f.clear_status(name)
    end(enc, f, "blessed", "dm")
    assert f.conditions == {"dazzled"} and f.effects == []


def test_a_wound_wakes_a_sleeper_and_its_effect_goes_with_its_condition():
    enc, f, _ = _fight()
    add(enc, f, "asleep", "c", 9)
    n = len(enc.events)
    deal_damage(enc, f, [DamagePart(1, "slashing", "weapon")], source=None, cause="test")
    assert find(f, "asleep") is None and "asleep" not in f.conditions
    assert _conditions_since(enc, n) == [("f", "asleep", False, "woken")]


def test_two_sources_of_one_condition_keep_it_while_either_lasts():
    """Hold person's paralysis and a rider's: the first to end leaves the creature paralyzed (no
    event); the condition ends, with its one event, when the last does. Dex 0's paralysis (a
    status) outlasts both; light's glare (a status) and glitterdust (an effect) blind alike."""
    enc, f, _ = _fight()
    n = len(enc.events)
    add(enc, f, "held", "c", 9, dc=15)
    add(enc, f, "paralyzed", "g", 9)
    assert _conditions_since(enc, n) == [("f", "paralyzed", True, "c")]
    end(enc, f, "held", "saved")
    assert "paralyzed" in f.conditions and _conditions_since(enc, n)[1:] == []
    end(enc, f, "paralyzed", "expired")
    assert "paralyzed" not in f.conditions and _conditions_since(enc, n)[1:] == [("f", "paralyzed", False, "expired")]
    conditions.set_status(enc, f, "paralyzed", "dex")          # Dex 0 (sim.engine.afflictions.ability_damage)
    add(enc, f, "paralyzed", "g", 9)
    end(enc, f, "paralyzed", "expired")
    assert f.conditions == {"paralyzed"} and f.effects == []
    n = len(enc.events)
    add(enc, f, "glitterdust", "c", 9, dc=15)
    conditions.set_status(enc, f, "blinded", "bright_light")
    conditions.clear_status(enc, f, "blinded", "expired")
    assert "blinded" in f.conditions and _conditions_since(enc, n) == [("f", "blinded", True, "c")]


def test_every_kind_with_a_hook_has_its_end_registered():
    assert hooks_missing() == []   # the engine loaded (the encounter, through the helpers): every end registered
    assert sorted(k for k, spec in KINDS.items() if spec.hook) == ["enlarged", "raging"]
    with pytest.raises(ValueError, match=r"\[effect.blessed\] does not declare hook = true"):
        conditions.on_end("blessed")


# -- the table --------------------------------------------------------------------------------------------------

def _table() -> dict:
    """The shipped table, a copy to spoil."""
    return copy.deepcopy(_data.load("effects.toml"))


@pytest.mark.parametrize("change, message", [
    (lambda t: t["effect"]["held"].update(colour="red"), r"\[effect.held\] colour: unknown key"),
    (lambda t: t["effect"]["held"].update(moment="lunch"), r"\[effect.held\] moment: 'lunch' is none of the moments"),
    (lambda t: t["effect"]["held"].pop("ends"), r"\[effect.held\]: ends is missing"),
    (lambda t: t["effect"]["held"].pop("moment"), r"\[effect.held\]: moment is missing \(it ends by time or a save"),
    (lambda t: t["effect"]["held"].update(save="luck"), r"\[effect.held\] save: 'luck' needs to be one of"),
    (lambda t: t["effect"]["held"].update(lapses="soon"), r"\[effect.held\] lapses: 'soon' is neither"),
    (lambda t: t["effect"]["held"].update(ends=["boredom"]), r"\[effect.held\] ends: 'boredom' is none of"),
    (lambda t: t["effect"]["blessed"].update(modifiers={"ac": 2}), r"\[effect.blessed\] modifiers.ac"),
    (lambda t: t["effect"]["blessed"].pop("modifier_label"), r"\[effect.blessed\]: modifiers need a modifier_label"),
    (lambda t: t["effect"]["held"].update(condition="Not A Word"), r"\[effect.held\] condition: 'Not A Word'"),
    (lambda t: t["effect"]["held"].update(ends_when_dead="yes"), r"\[effect.held\] ends_when_dead: 'yes' is not a bool"),
    (lambda t: t.pop("moments"), r"moments: a list of the turn's moments"),
])
def test_a_bad_table_is_refused_naming_the_file_and_the_key(change, message):
    table = _table()
    change(table)
    with pytest.raises(DataError, match=r"^sim/data/effects.toml: .*" + message):
        check_table(table)


def test_the_shipped_table_declares_each_kind_once_with_its_moment():
    moments, kinds = check_table(_table())
    assert moments == MOMENTS and kinds == KINDS
    assert {k.moment for k in KINDS.values() if k.moment} <= set(MOMENTS)
    assert all(k.moment and k.lapses for k in KINDS.values() if {"time", "save"} & set(k.ends))
    assert CONDITIONS == STATUSES | {k.condition for k in KINDS.values() if k.condition}


# -- saved games ------------------------------------------------------------------------------------------------

def test_a_saved_game_of_schema_4_loads_its_effects_and_plays_on_as_it_would_have():
    """The file (written by the code before effects) holds a blessed, raging, sleeping, held and
    confused creature in the old homes: fields and memory keys."""
    w, _ = S.read_snapshot(OLD_SAVE, policy=default_policy, load_spec=load_encounter)
    cs = w.creatures
    assert find(cs["bruna"], "blessed") == Effect("blessed", None, 100)
    assert find(cs["korv"], "raging") == Effect("raging", "korv", 7)
    assert find(cs["ogre-2"], "asleep") == Effect("asleep", None, 11)
    assert find(cs["ogre-1"], "held") == Effect("held", None, 3, (("dc", 14),))
    assert find(cs["troll-1"], "confused") == Effect("confused", "jozan", 4)
    assert isinstance(w.memory, AINotes) and set(w.memory.last_seen) == {"party", "monsters"}
    w.run()
    assert hashlib.sha256(dumps(w.events).encode()).hexdigest() == OLD_SAVE_PLAYED_ON


def test_a_saved_game_of_schema_4_with_rule_state_in_memory_loads_it_as_effects():
    w, _ = S.read_snapshot(OLD_MEMORY, policy=default_policy, load_spec=load_encounter)
    cs = w.creatures
    assert find(cs["bruna"], "entangled") == Effect("entangled", "mialee", None, (("escape_dc", 25), ("break_dc", 20)))
    assert find(cs["bruna"], "web_slowed").value("speed") == 20 and find(cs["bruna"], "web_stuck") is not None
    assert find(cs["lidda"], "glitterdust") == Effect("glitterdust", None, 4, (("dc", 14),))
    assert find(cs["jozan"], "invisible").until == 6 and find(cs["ogre-2"], "blindness").value("dc") == 14
    assert find(cs["ogre-1"], "knocked_out").until == 3 and find(cs["ogre-1"], "drawing_in").value("drawn") == ("troll-1",)
    assert find(cs["troll-1"], "stuck") == Effect("stuck", "ogre-1", None, (("hp", 7), ("round", 1)))
    assert find(cs["mialee"], "cloud_sick").data == (("rolled", 1), ("left", 2)) and cs["korv"].uses == {"sla:darkness": 1}
    assert find(cs["korv"], "rusted_weapons").value("weapons") == ("dagger",)
    assert w.memory == AINotes(last_seen=w.memory.last_seen, held_ground={"ogre-2": set(), "korv": set()})
    w.run()
    assert hashlib.sha256(dumps(w.events).encode()).hexdigest() == OLD_MEMORY_PLAYED_ON


def test_old_notes_are_read_into_the_typed_record_and_rule_keys_left_over_are_refused():
    notes = notes_of_schema4({("last_seen", "party"): {"g": (1, 2)}, "backed_out": {"o"}, ("ai_note", "g"): {"x": 1},
                              ("confused_act", "a"): (3, "babble", None), "held_ground": {"k": {2}}})
    assert notes == AINotes(last_seen={"party": {"g": (1, 2)}}, backed_out={"o"}, ai_note={"g": {"x": 1}},
                            confused_act={"a": (3, "babble", None)}, held_ground={"k": {2}})
    for bad, message in (({"nonsense": 1}, "state.memory.nonsense: not a note"),
                         ({("grudge", "a"): 1}, r"state.memory.\('grudge', 'a'\): not a note"),
                         ({"backed_out": ["o"]}, "state.memory.backed_out: list where a set is kept")):
        with pytest.raises(ValueError, match=message):
            notes_of_schema4(bad)


def test_a_fight_saved_mid_effect_goes_round(tmp_path):
    w, _ = S.read_snapshot(OLD_SAVE, policy=default_policy, load_spec=load_encounter)
    S.save(w, tmp_path / "s.json", encounter_file=maps_dir() / "troll_hall.toml")
    back, _ = S.read_snapshot(tmp_path / "s.json", policy=default_policy, load_spec=load_encounter)
    assert {c.id: c.effects for c in back.creatures.values()} == {c.id: c.effects for c in w.creatures.values()}
    w.run()
    back.run()
    assert dumps(back.events) == dumps(w.events)


def test_a_bad_old_effect_is_refused_naming_its_key(tmp_path):
    text = OLD_SAVE.read_text().replace('"held":{"$tuple":[3,14]}', '"held":{"$tuple":[3]}')
    assert text != OLD_SAVE.read_text()
    bad = OLD_SAVE.parent / "_bad_schema4.json"
    try:
        bad.write_text(text)
        with pytest.raises(DataError, match=r"state.creatures.ogre-1.held: .* is not \(last round, DC\)"):
            S.read_snapshot(bad, policy=default_policy, load_spec=load_encounter)
    finally:
        bad.unlink()


# -- a new condition: the data table only -----------------------------------------------------------------------

MADE_UP = """
[effect.giddy]
condition = "giddy"
moment = "spells"
lapses = "after"
modifiers = { attack = -1 }
modifier_label = "giddy"
ends = ["time"]
rules = "a made-up condition (tests/engine/test_effects.py)"
"""

PROGRAM = """
import tomllib
from pathlib import Path
from sim.rules import _data
real = _data.load
shipped = (Path({root!r}) / "sim/data/effects.toml").read_text()
_data.load = lambda name: tomllib.loads(shipped + {made_up!r}) if name == "effects.toml" else real(name)

from sim.base.paths import maps_dir
from sim.engine.saved import snapshot as S
from sim.engine.ai.decide import default_policy
from sim.engine.conditions import add, tick
from sim.engine.effects import CONDITIONS, find, modifiers
from sim.engine.fight import new_encounter
from sim.scenario.files import load_encounter
from sim.story.log import Narrator

assert "giddy" in CONDITIONS
spec = load_encounter(maps_dir() / "demo.toml")
w = new_encounter(spec, seed=4)
w.start()
c = w.creatures["bruna"]
n = len(w.events)
add(w, c, "giddy", "mialee", w.round + 1)
assert modifiers(c, "attack", w.round) == {{"giddy": -1}}
text = S.dumps(w, encounter_file=maps_dir() / "demo.toml")          # saved mid-effect
back = S.load_text(text, spec, policy=default_policy)
assert find(back.creatures["bruna"], "giddy") == find(c, "giddy") and "giddy" in back.creatures["bruna"].conditions
w.round += 2
tick(w, c, "spells")
assert find(c, "giddy") is None and "giddy" not in c.conditions
print("\\n".join(Narrator({{"bruna": "Bruna"}}).lines(w.events[n:])))
"""


def test_a_made_up_condition_needs_only_its_table_entry():
    """A condition nobody wrote code for, end to end: its entry in sim/data/effects.toml (the
    engine reading that table and nothing else changed) -> an effect -> its modifier -> a saved
    game mid-effect -> the tick ends it -> the log tells it. One file."""
    program = PROGRAM.format(root=str(ROOT), made_up=MADE_UP)
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["  Bruna is giddy", "  Bruna is no longer giddy"], out.stdout
    assert "giddy" not in CONDITIONS   # this process kept the shipped table
