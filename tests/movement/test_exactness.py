"""The compiled search against the plain-Python reference beyond the small caves of
test_movement: caves where pruning a state for a "better" one of the same square goes wrong,
faster creatures, larger caves, and the paths' and reach's own results."""

import types
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.terrain.movement import Mover, find_path, move_field, reach
from sim.terrain.movement.field import BLOCKED
from sim.terrain.movement.queries import _plan
from sim.rules.bodies import body_for

from .reference import reference_labels
from .test_movement import GLYPHS, cave, engine_labels


def _units(plan):
    awk = Fraction(plan.awk_units, plan.M) if plan.awk_units else None
    tight = Fraction(plan.tight_units, 2 * plan.M) if plan.tight_units else None
    return awk, tight


def _agree(field, start, *, expected):
    plan = _plan(field, expected=expected)
    awk, tight = _units(plan)
    ref = reference_labels(field, start, awk=awk, tight=tight)
    assert engine_labels(field, start, plan) == ref
    return ref


def test_a_later_parity_one_walker_can_finish_first():
    # Speed 40 (8 squares an action). Two ways reach (4, 6) at the same time (3 move actions,
    # 1 square), one at diagonal parity 0, one at parity 1. Further on, the 1, 2 pattern lines
    # up with the end of the move action so that the parity-1 way starts the next action a
    # square ahead: it reaches (7, 1) at (4 actions, 1 square), the parity-0 way at (4, 2).
    # A search that drops the parity-1 state (as "no better") reports (4, 2).
    g = cave(["n#~~llctN", "nc#.cfc.n", "n.f#Nf.~.", "l..nt#.cl",
              "ltn#ct.l.", "ln.fcNlnl", "n.lf.~ltn", "fllNfc~tf"], GLYPHS)
    f = move_field(g, Mover(body_for("small"), speed_ft=40, escape_artist=7))
    ref = _agree(f, (1, 5), expected=False)
    assert ref[(7, 1)] == (Fraction(4), 1)


def test_fractional_move_actions_prune_nothing():
    # Expected tries of 20/11 move actions: a label just before such an action's end is not
    # better than one just after it, whatever the parities
    g = cave(["NNNNN", "NNN.N", "NNtNN", "NNN.N"], GLYPHS)
    f = move_field(g, Mover(body_for("small"), speed_ft=15, escape_artist=5).in_combat())
    ref = _agree(f, (0, 0), expected=True)
    assert ref[(4, 3)] == (Fraction(42, 11), 3)


@st.composite
def caves(draw, max_side=10):
    rows = draw(st.integers(2, max_side))
    cols = draw(st.integers(2, max_side))
    alphabet = draw(st.sampled_from([".#", ".#n~", "".join(GLYPHS)]))
    return [draw(st.text(alphabet=alphabet, min_size=cols, max_size=cols)) for _ in range(rows)]


def _mover(data, speeds=(5, 10, 15, 20, 30, 40, 60)):
    return Mover(body_for(data.draw(st.sampled_from(["small", "medium", "large"]))),
                 speed_ft=data.draw(st.sampled_from(speeds)), escape_artist=data.draw(st.integers(-2, 14)),
                 take10=data.draw(st.booleans()), take20=data.draw(st.booleans()))


def _squares(field):
    return [(c, r) for r in range(field.shape[0]) for c in range(field.shape[1]) if field.mode[r, c] != BLOCKED]


@settings(max_examples=60, deadline=None)
@given(grid=caves(), expected=st.booleans(), data=st.data())
def test_labels_equal_reference_larger_caves_and_speeds(grid, expected, data):
    f = move_field(cave(grid, GLYPHS), _mover(data))
    if _squares(f):
        _agree(f, data.draw(st.sampled_from(_squares(f))), expected=expected)


@settings(max_examples=40, deadline=None)
@given(grid=caves(), data=st.data())
def test_path_totals_equal_reference(grid, data):
    """The path's time is the least the reference finds; the other model's time is the
    reference's over the path's squares alone."""
    f = move_field(cave(grid, GLYPHS), _mover(data))
    squares = _squares(f)
    if len(squares) < 2:
        return
    a, b = data.draw(st.sampled_from(squares)), data.draw(st.sampled_from(squares))
    p = find_path(f, a, b)
    by_model = {}
    for expected in (False, True):
        awk, tight = _units(_plan(f, expected=expected))
        by_model[expected] = reference_labels(f, a, awk=awk, tight=tight).get(b)
    if not p.reachable:
        assert by_model[False] is None and by_model[True] is None
        return
    main_expected = p.move_actions is None
    main = p.expected_move_actions if main_expected else p.move_actions
    assert main == pytest.approx(float(by_model[main_expected][0]))
    confined = f.mode.copy()
    on_path = np.zeros(f.shape, dtype=bool)
    for x, y in p.squares:
        on_path[y, x] = True
    confined[~on_path] = BLOCKED
    view = types.SimpleNamespace(mode=confined, mult=f.mult, prone=f.prone, corner=f.corner, mover=f.mover)
    awk, tight = _units(_plan(f, expected=not main_expected))
    other = reference_labels(view, a, awk=awk, tight=tight).get(b)
    got = p.move_actions if main_expected else p.expected_move_actions
    if other is None:
        assert got is None
    else:
        assert got == pytest.approx(float(other[0]))


@settings(max_examples=40, deadline=None)
@given(grid=caves(max_side=12), data=st.data())
def test_reach_equals_reference(grid, data):
    """Squares within one / two move actions (one try per Escape Artist action), with enemies
    (not entered) and allies (crossed, not ended in)."""
    g = cave(grid, GLYPHS)
    f = move_field(g, _mover(data))
    squares = _squares(f)
    if not squares:
        return
    start = data.draw(st.sampled_from(squares))
    mask = st.lists(st.booleans(), min_size=g.rows * g.cols, max_size=g.rows * g.cols)
    blocked = np.array(data.draw(mask)).reshape(g.shape) & (np.arange(g.rows * g.cols).reshape(g.shape) % 5 == 0)
    no_end = np.array(data.draw(mask)).reshape(g.shape)
    r = reach(f, start, blocked=blocked, no_end=no_end)
    mode = f.mode.copy()
    enemies = blocked.copy()
    enemies[start[1], start[0]] = False
    mode[enemies] = BLOCKED
    view = types.SimpleNamespace(mode=mode, mult=f.mult, prone=f.prone, corner=f.corner, mover=f.mover)
    labels = reference_labels(view, start, awk=Fraction(1), tight=Fraction(1), max_actions=2)
    ends = sorted((x, y) for x, y in labels if (x, y) != tuple(start) and not no_end[y, x])
    assert [(x, y) for x, y, _ in r.double.tolist()] == ends
    assert [(x, y) for x, y, _ in r.single.tolist()] == [sq for sq in ends if labels[sq][0] <= 1]
