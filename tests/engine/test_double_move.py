"""The engine's double move is one move of up to twice the speed (RULES §6.1): a Move with
``double=True``, or a move action and then another in the same turn, the second going on with
the first one's budget and 5-10-5 count (§6.2); a single move action stays at the speed. The
engine agrees with the distance map on seeded small caves."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.engine.actions import Move, StandUp, Turn
from sim.engine.ai.decide import default_policy
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot as S
from sim.story.log import Narrator
from sim.terrain.movement import distance_map
from sim.terrain.movement.field import BLOCKED

from .helpers import ready, spec

WIZARD = "elf-wizard-1"  # Medium, speed 30, no armor


def _spec(rows, at, template=WIZARD):
    """``a`` at ``at`` on ``rows``; its foe walled off beyond a column of rock (no attacks of
    opportunity, and the fight goes on)."""
    w = len(rows[0])
    cave = [r + "#" + ("." if i == 0 else "#") for i, r in enumerate(rows)]
    return spec(cave, [{"id": "a", "template": template, "team": "x", "at": list(at)},
                       {"id": "b", "template": WIZARD, "team": "y", "at": [w + 1, 0]}])


def _alone(rows, at, *, template=WIZARD):
    """The fight of :func:`_spec`, ``a`` to act."""
    enc = ready(new_encounter(_spec(rows, at, template), policy=default_policy))
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    assert enc.current().id == "a"
    return enc, enc.creatures["a"]


def _moves(enc):
    return [e for e in enc.events if e.type == "moved"]


def test_rules_6_1_double_move_three_narrow_and_low_squares_single_move_one():
    rows = ["NNNNNN"]  # Narrow and Low for a Medium creature: x4, 20 ft a square
    enc, a = _alone(rows, (0, 0))
    assert enc.perform(Move((5, 0), double=True))
    assert a.pos == (3, 0)  # 3 x 20 = 60 ft = 2 x 30
    assert [s["feet"] for s in _moves(enc)[-1].path] == [20, 20, 20]
    enc2, a2 = _alone(rows, (0, 0))
    assert enc2.perform(Move((5, 0)))
    assert a2.pos == (1, 0)  # a move action: 30 ft, one square of 20
    t = enc2.turn
    assert (t.move_ft, t.move_parity, t.walked_ft) == (20, 0, 20)
    # ... and a second move action goes on with the first: 40 ft left, two more squares
    assert enc2.perform(Move((5, 0)))
    assert a2.pos == (3, 0)
    assert (t.move_ft, t.walked_ft, t.move, t.standard) == (60, 60, False, False)


def test_rules_6_2_five_ten_five_across_the_two_move_actions():
    rows = ["." * 10] * 10
    enc, a = _alone(rows, (0, 0))
    # first move action: three diagonals, 5 + 10 + 5 = 20 ft (the count stands at 1)
    assert enc.perform(Move((3, 3)))
    assert (a.pos, enc.turn.move_ft, enc.turn.move_parity) == ((3, 3), 20, 1)
    # second: the count goes on (10, 5, 10, 5, 10 ft = 40 ft): five more diagonals, 60 ft in all
    assert enc.perform(Move((9, 9)))
    assert a.pos == (8, 8)
    second = _moves(enc)[-1]
    assert [s["feet"] for s in second.path] == [10, 5, 10, 5, 10]
    # each move action apart (the old count) would have stopped at (7, 7)


def test_a_move_action_after_another_action_is_a_single_move():
    rows = ["......"]  # open ground: 6 squares a move action
    enc, a = _alone(rows, (0, 0))
    a.prone = True
    assert enc.perform(StandUp())  # the move action spent standing up
    assert enc.perform(Move((5, 0)))
    assert a.pos == (5, 0)
    enc, a = _alone(["NNNNNN"], (0, 0))
    a.prone = True
    assert enc.perform(StandUp())
    assert enc.perform(Move((5, 0)))
    assert a.pos == (1, 0)  # its own 30 ft: one square of 20
    assert _moves(enc)[-1].action == "move"


def test_the_log_names_the_double_move_once():
    rows = ["NNNNNN"]
    enc, a = _alone(rows, (0, 0))
    assert enc.perform(Move((5, 0)))
    assert enc.perform(Move((5, 0)))
    n = Narrator()
    lines = [n.line(e) for e in enc.events if e.type in ("turn_start", "moved")]
    moved = [x for x in lines if x]
    assert [m.split(" 1 square")[0].split(" 2 squares")[0] for m in moved] == ["a moves", "a moves (double)"]
    assert "2 squares to (3, 0) (40 ft)" in moved[-1]
    assert sum(" moves (double) " in x for x in moved) == 1


def test_snapshot_round_trips_a_half_spent_double_move():
    rows = ["NNNNNN"]
    enc, a = _alone(rows, (0, 0))
    assert enc.perform(Move((5, 0)))
    text = S.dumps(enc, encounter_file="test.toml")
    assert '"move_ft":20' in text.replace(" ", "")
    again = S.load_text(text, _spec(rows, (0, 0)), policy=default_policy)
    t = again.turn
    assert (t.move_ft, t.move_parity, t.walked_ft) == (20, 0, 20)
    assert again.perform(Move((5, 0)))
    assert again.creatures["a"].pos == (3, 0)


GLYPHS = ".#nN~c"  # open, rock, x2, x4, rubble, crawl: no Escape Artist rolls


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), template=st.sampled_from([WIZARD, "dwarf-fighter-1", "halfling-rogue-1"]))
def test_rules_6_1_engine_double_move_reaches_what_the_distance_map_says(seed, template):
    """On a seeded small cave, a double move toward each square arrives exactly where the
    distance map's time is at most two move actions (2 x speed)."""
    rng = np.random.default_rng(seed)
    R, C = int(rng.integers(3, 9)), int(rng.integers(6, 14))
    weights = np.array([6, 2, 2, 1, 1, 1], dtype=float)
    rows = ["".join(rng.choice(list(GLYPHS), size=C, p=weights / weights.sum())) for _ in range(R)]
    # the start: an open square
    opens = [(x, y) for y in range(R) for x in range(C) if rows[y][x] == "."]
    if not opens:
        return
    start = opens[int(rng.integers(len(opens)))]
    enc, a = _alone(rows, start, template=template)
    f = enc.field(a)
    blocked, _ = enc.occupancy_masks(a)
    blocked[a.pos[1], a.pos[0]] = False
    d = distance_map(f, start, blocked=blocked, prone=a.prone)
    for y in range(R):
        for x in range(C):
            if (x, y) == start or f.mode[y, x] == BLOCKED:
                continue
            for double in (True, False):  # a double move: within 2 move actions; a move action: 1
                a.pos, a.squares, a.prone, a.trail = start, [start], False, []
                enc.turn = Turn(actor="a")
                r = enc.perform(Move((x, y), double=double))
                within = bool(d.reachable()[y, x]) and float(d.actions[y, x]) <= (2 if double else 1)
                arrived = bool(r) and a.pos == (x, y)
                assert arrived == within, (rows, start, (x, y), double, float(d.actions[y, x]), a.pos, r)
