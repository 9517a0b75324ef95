"""The AI-side registry's phases (issue 33 item 2): every mechanic's tactic is a record in
:mod:`sim.engine.ai.registry`, asked by the default policy at the slot its phase declares -- the
imposed ones first, the spell-like abilities once the side knows which foes it perceives, a grapple
after a swarm's and a nauseated creature's choices -- and armor removal as a detour before a move.
"""

from __future__ import annotations

import functools

from sim.engine.actions import Delay, Move, Turn
from sim.engine.ai import armor as ai_armor
from sim.engine.ai import decide, registry
from sim.engine.ai import grapple as ai_grapple
from sim.engine.ai import spell_like as ai_spell_like
from sim.engine.ai.registry import DETOURS, TACTICS, choice, detour
from sim.engine.ai.tactic import HELD, IMPOSED, PERCEIVED, PHASES, Detour, Tactic

from .helpers import encounter, ready
from .test_spell_like import HALL, fight
from .test_spells import turn_of

ROOM = ["." * 10] * 4


def _fight(*others, **kw):
    return ready(encounter(ROOM, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                  *others], **kw))


def test_the_tactics_in_their_declared_order_and_phases():
    assert [(t.mechanic, t.phase) for t in TACTICS] == [
        ("swallow", IMPOSED), ("specials", IMPOSED), ("strands", IMPOSED), ("specials", IMPOSED),
        ("spells", PERCEIVED), ("grapple", HELD)]
    assert ai_spell_like.SPELL_LIKE in TACTICS and ai_grapple.GRAPPLE in TACTICS
    assert all(t.phase in PHASES for t in TACTICS)
    assert [t.mechanic for t in TACTICS if t.holds is not None] == ["grapple"]   # only a grapple holds
    assert DETOURS == (ai_armor.ARMOR_OFF,) and ai_armor.ARMOR_OFF.mechanic == "armour removal"


def _spies(log: list[str]) -> tuple[Tactic, ...]:
    """Each registered tactic in its phase, writing down that it was asked and passing."""
    def spy(tactic, w, c, t, foes, melee):
        log.append(f"{tactic.phase}:{tactic.mechanic}")
    return tuple(Tactic(t.mechanic, functools.partial(spy, t), phase=t.phase) for t in TACTICS)


def test_each_phase_is_asked_at_its_slot_in_the_order_of_the_registry():
    enc = _fight({"id": "g", "template": "goblin", "team": "m", "at": [7, 2]})
    log: list[str] = []
    act = decide.default_policy(enc, turn_of(enc, "f"), enc.turn, tactics=_spies(log))
    assert log == ["imposed:swallow", "imposed:specials", "imposed:strands", "imposed:specials",
                   "perceived:spells", "held:grapple"]
    assert act == decide.default_policy(enc, enc.creatures["f"], enc.turn)   # passing, the usual choice


def test_a_swarm_chooses_before_the_held_phase():
    """A swarm's own policy answers after the perceived phase, so a grapple is never asked."""
    enc = _fight({"id": "rats", "template": "rat-swarm", "team": "m", "at": [6, 1]})
    log: list[str] = []
    decide.default_policy(enc, turn_of(enc, "rats"), enc.turn, tactics=_spies(log))
    assert log[-1] == "perceived:spells" and not any(e.startswith("held") for e in log)


def test_an_imposed_answer_ends_the_asking():
    enc = _fight({"id": "g", "template": "goblin", "team": "m", "at": [7, 2]})
    log: list[str] = []
    first = Tactic("first", lambda w, c, t, foes, melee: Delay())
    assert decide.default_policy(enc, turn_of(enc, "f"), enc.turn, tactics=(first, *_spies(log))) == Delay()
    assert log == []


def test_a_grapple_holds_the_creature_even_when_it_has_nothing_to_do():
    """In a grapple with its standard action spent, the grapple's tactic says nothing -- and the
    creature does nothing more (the old ``if c.grappling: return grapple_tactic(...)``); out of
    it, the usual policy walks on."""
    enc = _fight({"id": "g", "template": "goblin", "team": "m", "at": [7, 2]})
    f, g = turn_of(enc, "f"), enc.creatures["g"]
    enc.turn.spend("standard")
    assert isinstance(decide.default_policy(enc, f, enc.turn), Move)   # free: its move on the goblin
    f.grapple_with, g.grapple_with = ["g"], ["f"]   # the grapple's state, set by hand
    assert ai_grapple.grapple_tactic(enc, f, enc.turn) is None
    assert choice(enc, f, enc.turn, [g], decide.melee, TACTICS, HELD) == registry.Choice("grapple", None)
    assert decide.default_policy(enc, f, enc.turn) is None


def test_the_spell_like_tactic_answers_at_the_perceived_slot():
    """A drow darkens the torch-bearer's square (tests/engine/test_spell_like.py): the answer is the
    spells' tactic's, and without it in the registry the drow does something else."""
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [10, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [5, 3], "lit": True,
                        "items": {"torch": 1}, "weapon": "torch"}])
    d = turn_of(enc, "d")
    foes = [enc.creatures["f"]]
    found = choice(enc, d, enc.turn, foes, decide.melee, TACTICS, PERCEIVED)
    assert found.mechanic == "spells" and found.action == decide.default_policy(enc, d, enc.turn)
    assert choice(enc, d, enc.turn, foes, decide.melee, TACTICS, IMPOSED) is None
    without = tuple(t for t in TACTICS if t is not ai_spell_like.SPELL_LIKE)
    assert decide.default_policy(enc, d, enc.turn, tactics=without) != found.action


def test_the_detours_are_asked_before_a_move(monkeypatch):
    """The policy's way to a square asks the registered detours (armor off before a crawlway):
    a made-up one in the registry is asked with the square and its answer taken."""
    enc = _fight({"id": "g", "template": "goblin", "team": "m", "at": [8, 2]})
    f = turn_of(enc, "f")
    enc.turn.spend("standard")                                         # no charge: a move it is
    assert isinstance(decide.default_policy(enc, f, enc.turn), Move)   # open room: armor stays on, it walks
    asked = []

    def wait_first(w, c, t, p):
        asked.append((c.id, p))
        return Delay()
    monkeypatch.setattr(registry, "DETOURS", (Detour("made up", wait_first),))
    assert decide.default_policy(enc, f, enc.turn) == Delay()
    assert asked and asked[0][0] == "f"
    assert detour(enc, f, Turn("f"), (5, 1), ()) is None
