"""Loading crossbows and slings, and running out of things to throw (RULES §3.3 handling column):
a light crossbow or sling is loaded with a move action, a heavy crossbow with a full-round action,
both provoking; a thrown javelin is gone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.ai import decide as ai
from sim.engine.actions import Draw, FullAttack, Impossible, Load, Strike

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 14] * 3


def test_a_light_crossbow_shoots_then_loads_with_a_move_action():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 1]},
                                 {"id": "g", "template": "ogre", "team": "m", "at": [8, 1]}]))
    w = turn_of(enc, "w")
    w.wielding = "light-crossbow"   # in hand already (drawing it: test_ai.test_a_crossbow_is_drawn_before_it_fires)
    assert enc.perform(Strike("g", "light-crossbow"))
    assert w.unloaded == {"light-crossbow"}
    r = enc.perform(Load("heavy-crossbow"))
    assert isinstance(r, Impossible) and r.reason == "W has no attack 'heavy-crossbow'"
    turn_of(enc, "w")
    r = enc.perform(Strike("g", "light-crossbow"))
    assert isinstance(r, Impossible)
    assert r.reason == "the light-crossbow is not loaded: load it first (a move action, provokes; O in cavesim play)"
    n = len(enc.events)
    assert enc.perform(Load())                      # the move action ...
    assert not w.unloaded and enc.turn.standard and not enc.turn.move
    assert [(e.action, e.item) for e in of_type(enc, "item", n)] == [("load", "light-crossbow")]
    assert enc.perform(Strike("g", "light-crossbow"))   # ... and the standard action shoots
    r = enc.perform(Load())
    assert isinstance(r, Impossible)                 # the turn is spent


def test_a_heavy_crossbow_loads_with_a_full_round_action_and_loading_provokes():
    enc = ready(encounter(HALL, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [0, 1]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [1, 1]},
                                 {"id": "far", "template": "goblin", "team": "m", "at": [9, 1]}]))
    f = turn_of(enc, "f")
    f.unloaded.add("heavy-crossbow")
    enc.rng = Fixed(2)   # every d20 a 2: every attack misses, nobody falls
    assert enc.perform(Strike("g", "longsword"))
    r = enc.perform(Load("heavy-crossbow"))
    assert isinstance(r, Impossible) and r.reason == "needs a full-round action (nothing else this turn)"
    turn_of(enc, "f")
    n = len(enc.events)
    assert enc.perform(Load("heavy-crossbow"))
    aoo = [e for e in of_type(enc, "attack", n) if e.actor == "g"]
    assert len(aoo) == 1                            # the goblin beside it attacks as it loads
    assert "heavy-crossbow" not in f.unloaded and enc.turn.ended


def test_a_full_attack_with_a_crossbow_is_one_shot():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 1]},
                                 {"id": "g", "template": "goblin", "team": "m", "at": [8, 1]}]))
    turn_of(enc, "w").wielding = "light-crossbow"
    n = len(enc.events)
    assert enc.perform(FullAttack("g", "light-crossbow"))
    assert len(of_type(enc, "attack", n)) == 1


def test_javelins_run_out_and_take_their_attack_with_them():
    enc = ready(encounter(HALL, [{"id": "h", "template": "hobgoblin", "team": "m", "at": [0, 1]},
                                 {"id": "f", "template": "human-fighter-3", "team": "p", "at": [5, 1]}]))
    h = enc.creatures["h"]
    assert h.thrown_left == {"javelin": 3}
    enc.rng = Fixed(2)  # misses: the fighter stays up
    for left in (2, 1, 0):
        turn_of(enc, "h")
        assert enc.perform(Strike("f", "javelin"))
        assert h.thrown_left["javelin"] == left
    assert h.attack_named("javelin") is None and h.wielding == "longsword"
    assert [e.item for e in of_type(enc, "item") if e.action == "last_thrown"] == ["javelin"]
    turn_of(enc, "h")
    r = enc.perform(Strike("f", "javelin"))
    assert isinstance(r, Impossible) and r.reason == "H has no attack 'javelin'"


def test_the_ai_loads_with_the_move_action_it_has_left():
    enc = ready(encounter(HALL, [{"id": "w", "template": "elf-wizard-1", "team": "p", "at": [0, 1]},
                                 {"id": "g", "template": "ogre", "team": "m", "at": [10, 1]}]))
    w = turn_of(enc, "w")
    w.spells_left = {}
    a = ai.default_policy(enc, w, enc.turn)
    assert a == Draw("light-crossbow")            # drawn first (a move action, issue 13 item 6) ...
    assert enc.perform(a)
    turn_of(enc, "w")                             # ... next turn: shoot, then load with the move left
    a = ai.default_policy(enc, w, enc.turn)
    assert a == Strike("g", "light-crossbow")
    assert enc.perform(a)
    assert ai.default_policy(enc, w, enc.turn) == Load("light-crossbow")
    w.unloaded.add("light-crossbow")
    turn_of(enc, "w")
    assert ai.default_policy(enc, w, enc.turn) == Load("light-crossbow")  # empty at the start: load, then shoot


def _shots_follow_loads(enc):
    """Replaying the events: no crossbow or sling shoots twice without a load between."""
    from sim.engine.attack_actions import load_action

    for cid, c in enc.creatures.items():
        loaded: dict[str, bool] = {}
        for e in enc.events:
            if getattr(e, "actor", None) != cid:
                continue
            if e.type == "item" and e.action == "load":
                loaded[e.item] = True
            if e.type == "attack" and e.kind == "ranged":
                att = next((a for a in c.base_block.attacks if a.name == e.weapon), None)
                if att is not None and load_action(att):
                    assert loaded.get(e.weapon, True), (cid, e)
                    loaded[e.weapon] = False
    return sum(1 for e in enc.events if e.type == "item" and e.action == "load")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_ai_fights_never_shoot_unloaded_nor_throw_what_they_lack(seed):
    rows = ["..........cc......", "..........cc......", ".................."]
    enc = encounter(rows, [{"id": "w1", "template": "elf-wizard-1", "team": "p", "at": [16, 0]},
                           {"id": "w2", "template": "elf-wizard-1", "team": "p", "at": [17, 2]},
                           {"id": "f", "template": "human-fighter-3", "team": "p", "at": [15, 1]},
                           {"id": "h1", "template": "hobgoblin", "team": "m", "at": [1, 0]},
                           {"id": "h2", "template": "hobgoblin", "team": "m", "at": [2, 2]},
                           {"id": "o", "template": "ogre", "team": "m", "at": [4, 1]}], seed=seed)
    for c in ("w1", "w2"):
        enc.creatures[c].spells_left = {}  # crossbows only
    enc.run(max_rounds=12)
    loads = _shots_follow_loads(enc)
    shots = sum(1 for e in enc.events if e.type == "attack" and e.weapon == "light-crossbow")
    assert shots == 0 or loads >= shots - 2     # every shot after each wizard's first needed a load
    for c in enc.creatures.values():
        assert all(n >= 0 for n in c.thrown_left.values())
    javelins = sum(1 for e in enc.events if e.type == "attack" and e.weapon == "javelin")
    assert javelins <= 6                        # two hobgoblins, three javelins each
