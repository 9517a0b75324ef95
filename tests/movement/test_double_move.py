"""A double move is one move of up to twice the speed (RULES §6.1, SRD Combat "double move"):
what the first move action leaves goes on into the second, and the 5-10-5 count (§6.2) runs over
both. Exact figures through reach, path and the distance map, which must agree."""

import numpy as np
import pytest

from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, distance_map, find_path, move_field, reach
from sim.rules.bodies import body_for


def _narrow_and_low(n: int):
    """A straight passage of ``n`` squares 4 ft wide and 4 ft high: Narrow and Low for a Medium
    creature (x4, RULES §6.3, §7.35)."""
    return CaveGrid.from_arrays([[4] * n], [[4] * n])


def _medium(speed_ft: int):
    return Mover(body_for("medium"), speed_ft=speed_ft)


def test_rules_6_1_double_move_covers_three_narrow_and_low_squares_at_speed_30():
    f = move_field(_narrow_and_low(6), _medium(30))
    assert f.mult[0].tolist() == [4] * 6
    # a move action: 30 ft = one square of 20 ft (the second would need 40)
    r = reach(f, (0, 0))
    assert [tuple(x) for x in r.single.tolist()] == [(1, 0, 20)]
    # a double move: 60 ft = three squares (3 x 20 ft), not two
    assert [tuple(x) for x in r.double.tolist()] == [(1, 0, 20), (2, 0, 40), (3, 0, 60)]
    d = distance_map(f, (0, 0))
    assert d.feet[0].tolist() == [0, 20, 40, 60, 80, 100]
    assert d.actions[0].tolist() == [0, 1, 2, 2, 3, 4]
    assert d.rounds[0].tolist() == [0, 1, 1, 1, 2, 2]
    p = find_path(f, (0, 0), (3, 0))
    assert (p.feet, p.move_actions, p.rounds, p.last_turn_move_actions) == (60, 2.0, 1, 2)
    assert [s.move_action for s in p.steps] == [1, 2, 2]
    assert [s.clock_ft for s in p.steps] == [20, 40, 60]
    j = p.to_json()
    assert (j["rounds"], j["last_turn_move_actions"]) == (1, 2)
    # five squares: one whole turn (a double move of three) and one move action of the next
    p5 = find_path(f, (0, 0), (5, 0))
    assert (p5.move_actions, p5.rounds, p5.last_turn_move_actions) == (4.0, 2, 2)
    p4 = find_path(f, (0, 0), (4, 0))
    assert (p4.move_actions, p4.rounds, p4.last_turn_move_actions) == (3.0, 2, 1)


def test_rules_6_1_narrow_squares_at_speed_15_fit_the_double_move():
    # x2 squares (Narrow, 4 ft wide, full height) at 15 ft: 10 ft each; a move action holds one
    # (the next would need 20 of its 15); the double move's 30 ft holds three
    f = move_field(CaveGrid.from_arrays([[4] * 5], [[12] * 5]), _medium(15))
    assert f.mult[0].tolist() == [2] * 5
    r = reach(f, (0, 0))
    assert len(r.single) == 1 and [tuple(x) for x in r.double.tolist()][-1] == (3, 0, 30)


def test_rules_6_2_five_ten_five_runs_across_the_two_move_actions():
    # Speed 25 (5 squares): diagonals cost 1, 2, 1, 2, ... The first move action holds three
    # (1 + 2 + 1 = 4 squares, 20 ft); the fourth (10 ft) straddles the two actions (1 square of
    # the first's room, 1 of the second's); the double move holds seven: 5+10+5+10+5+10+5 =
    # 50 ft = 2 x 25. Counting each action apart would give six (3 + 3: 1+2+1, then 2+1+2).
    g = CaveGrid.from_arrays([[10] * 10] * 10, [[12] * 10] * 10)
    f = move_field(g, _medium(25))
    p = find_path(f, (0, 0), (7, 7))
    assert [s.feet for s in p.steps] == [5, 10, 5, 10, 5, 10, 5]
    assert [s.clock_ft for s in p.steps] == [5, 15, 20, 30, 35, 45, 50]
    assert [s.move_action for s in p.steps] == [1, 1, 1, 2, 2, 2, 2]
    assert (p.feet, p.move_actions, p.rounds) == (50, 2.0, 1)
    r = reach(f, (0, 0))
    single = {(x, y) for x, y, _ in r.single.tolist()}
    double = {(x, y): ft for x, y, ft in r.double.tolist()}
    assert (3, 3) in single and (4, 4) not in single
    assert double[(7, 7)] == 50 and (8, 8) not in double
    d = distance_map(f, (0, 0))
    assert int(d.feet[7, 7]) == 50 and float(d.actions[7, 7]) == 2 and float(d.actions[8, 8]) == 3


def test_rules_6_1_a_second_move_action_goes_on_from_what_the_first_spent():
    # after a move action that walked three diagonals (1 + 2 + 1 squares = 20 ft, parity 1),
    # a second one has 40 ft of the double move's 60 left, and the next diagonal costs 10 ft
    g = CaveGrid.from_arrays([[10] * 12] * 12, [[12] * 12] * 12)
    f = move_field(g, _medium(30))
    p = find_path(f, (3, 3), (8, 8), spent=(20, 1))
    assert [s.feet for s in p.steps] == [10, 5, 10, 5, 10]
    assert [s.clock_ft for s in p.steps] == [30, 35, 45, 50, 60]
    assert [s.move_action for s in p.steps] == [1, 2, 2, 2, 2]
    assert (p.move_actions, p.rounds, p.last_turn_move_actions) == (2.0, 1, 2)
    # the same with the parity the other way: the first diagonal costs 5 ft
    p0 = find_path(f, (3, 3), (8, 8), spent=(20, 0))
    assert [s.feet for s in p0.steps] == [5, 10, 5, 10, 5]
    # narrow and low: a move action that walked one square (20 ft) leaves room for two more
    n = move_field(_narrow_and_low(6), _medium(30))
    q = find_path(n, (1, 0), (3, 0), spent=(20, 0))
    assert [s.clock_ft for s in q.steps] == [40, 60] and q.move_actions == 2.0


@pytest.mark.parametrize("spent, why", [((-5, 0), "feet >= 0"), ((12, 0), "5-ft units"), ((10, 2), "parity 0 or 1")])
def test_spent_movement_is_checked(spent, why):
    f = move_field(_narrow_and_low(3), _medium(30))
    with pytest.raises(ValueError, match=why):
        find_path(f, (0, 0), (2, 0), spent=spent)


def test_a_move_action_that_did_not_walk_leaves_a_fresh_move_action():
    # a whole move action spent (a weapon drawn, standing up): the second one is a single move
    # of the speed, its own 5-10-5 count, as at speed 30 from scratch
    g = CaveGrid.from_arrays([[10] * 12] * 12, [[12] * 12] * 12)
    f = move_field(g, _medium(30))
    p = find_path(f, (0, 0), (6, 6), spent=(30, 0))
    assert p.steps[0].feet == 5 and p.steps[0].clock_ft == 35  # a diagonal: the count starts at 5 ft
    assert sum(s.feet for s in p.steps if s.move_action == 2) == 30  # the second move action: 30 ft
    assert (p.move_actions, p.rounds, p.last_turn_move_actions) == (3.0, 2, 1)


def test_a_step_dearer_than_the_speed_fits_a_double_move():
    # speed 15 (3 squares) into Narrow and Low (x4: 20 ft): more than a move action holds, but
    # a double move's 30 ft takes it; then the minimum move is not needed
    f = move_field(_narrow_and_low(4), _medium(15))
    d = distance_map(f, (0, 0))
    assert d.actions[0].tolist() == [0, 2, 4, 6]
    assert d.feet[0].tolist() == [0, 20, 50, 80]  # time in feet: each turn starts at a multiple of 30
    r = reach(f, (0, 0))
    assert len(r.single) == 0 and [tuple(x) for x in r.double.tolist()] == [(1, 0, 20)]
    # speed 5: 20 ft is more than a double move: the full-round minimum move, a square a turn
    f5 = move_field(_narrow_and_low(3), _medium(5))
    assert distance_map(f5, (0, 0)).actions[0].tolist() == [0, 2, 4]
    assert np.array_equal(distance_map(f5, (0, 0)).rounds[0], [0, 1, 2])
