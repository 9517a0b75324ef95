"""Walls between squares stop lines, sight and light (docs/rules.md §6.8)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.terrain.edges import EdgeWalls, centre_line_clear, kernel_edges, segment_clear
from sim.terrain.geometry import cone, cover, line_clear, line_of_effect
from sim.terrain.vision import Light, Viewer, field_of_view, light_levels, level_letters, vision

OPEN = np.zeros((3, 6), bool)


def _wall_x3(rows=3, cols=6, upto=None):
    """A wall along x = 3 (between columns 2 and 3), rows 0..upto-1 (default all)."""
    east = np.zeros((rows, cols), bool)
    east[: rows if upto is None else upto, 2] = True
    return EdgeWalls.of(east, None, (rows, cols))


def test_line_of_effect_between_neighbours_across_a_wall():
    wall = _wall_x3()
    assert line_of_effect(OPEN, [(2, 1)], [(3, 1)])
    assert not line_of_effect(OPEN, [(2, 1)], [(3, 1)], edges=wall)
    assert not line_of_effect(OPEN, [(0, 0)], [(5, 2)], edges=wall)
    assert line_of_effect(OPEN, [(0, 0)], [(2, 2)], edges=wall)      # same side


def test_a_wall_stub_leaves_lines_round_its_end():
    stub = _wall_x3(upto=1)                                           # x = 3, y 0..1 only
    assert not line_of_effect(OPEN, [(2, 0)], [(3, 0)], edges=stub)
    assert line_of_effect(OPEN, [(2, 0)], [(3, 1)], edges=stub)       # below the stub's end
    assert line_of_effect(OPEN, [(2, 1)], [(3, 1)], edges=stub)


def test_cover_behind_a_wall_between_squares():
    wall = _wall_x3(upto=2)                                           # rows 0 and 1; row 2 open
    assert not cover(OPEN, [(0, 2)], [(5, 2)], edges=wall)            # along the open row
    assert cover(OPEN, [(0, 1)], [(5, 2)], edges=wall)                # some lines hit the wall's end


def test_line_clear_and_cone():
    wall = _wall_x3()
    assert not line_clear(OPEN, (0.5, 1.5), (5.5, 1.5), edges=wall)
    assert line_clear(OPEN, (3.0, 1.0), (5.5, 1.5), edges=wall)       # from a point on the wall: its end does not count
    fan = cone((1.0, 1.0), (1, 0), 25, OPEN, edges=wall)
    assert fan and max(x for x, _ in fan) == 2


def test_segment_through_a_corner_the_wall_touches():
    east = np.zeros((2, 2), bool)
    east[0, 0] = True                                                 # x = 1, y 0..1: touches corner (1, 1)
    wall = EdgeWalls.of(east, None, (2, 2))
    assert not segment_clear(wall, (0.5, 0.5), (1.5, 1.5))
    assert segment_clear(wall, (0.5, 1.5), (1.5, 1.5))
    assert not centre_line_clear(*kernel_edges(wall)[1:], 0, 0, 1, 1)


def test_field_of_view_and_light_stop_at_the_wall():
    wall = _wall_x3()
    view = field_of_view(OPEN, (0, 1), edges=wall)
    assert view[:, :3].all() and not view[:, 3:].any()
    torch = Light(at=(1, 1), bright_ft=20, shadowy_ft=40)
    assert level_letters(light_levels(OPEN, [torch]).normal) == ["BBBBBB"] * 3
    assert level_letters(light_levels(OPEN, [torch], edges=wall).normal) == ["BBB...", "BBB...", "BBB..."]


def test_viewers_either_side_of_a_wall_do_not_see_each_other():
    wall = _wall_x3()
    lights = [Light(at=(2, 1), bright_ft=20, shadowy_ft=40), Light(at=(3, 1), bright_ft=20, shadowy_ft=40)]
    a, b = Viewer("a", "party", ((2, 1),)), Viewer("b", "monsters", ((3, 1),))
    _, s = vision(OPEN, lights, [a, b])
    assert s.sees("a", "b")
    _, s = vision(OPEN, lights, [a, b], edges=wall)
    assert not s.sees("a", "b") and not s.sees("b", "a")


@st.composite
def _map(draw):
    rows, cols = draw(st.integers(2, 8)), draw(st.integers(2, 8))
    cells = st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)
    rock = np.array(draw(cells), bool).reshape(rows, cols) & np.array(draw(cells), bool).reshape(rows, cols)
    east = np.array(draw(cells), bool).reshape(rows, cols) & np.array(draw(cells), bool).reshape(rows, cols)
    south = np.array(draw(cells), bool).reshape(rows, cols) & np.array(draw(cells), bool).reshape(rows, cols)
    return rock, EdgeWalls.of(east, south, (rows, cols))


@settings(max_examples=80, deadline=None)
@given(m=_map(), data=st.data())
def test_sight_stays_symmetric_with_walls_between_squares(m, data):
    """Property: between floor squares, a sees b exactly when b sees a (§9.3.7), walls or not;
    and a wall never lets more be seen."""
    rock, edges = m
    floor = [(x, y) for y in range(rock.shape[0]) for x in range(rock.shape[1]) if not rock[y, x]]
    if len(floor) < 2:
        return
    a = data.draw(st.sampled_from(floor))
    b = data.draw(st.sampled_from(floor))
    va = field_of_view(rock, a, edges=edges)
    vb = field_of_view(rock, b, edges=edges)
    assert va[b[1], b[0]] == vb[a[1], a[0]]
    assert not (va & ~field_of_view(rock, a)).any()


def _meets(p0, p1, a, b) -> bool:
    """Whether segment p0-p1 meets the closed segment a-b at a point other than p0 or p1 (exact
    rational arithmetic, brute force: the reference for segment_clear)."""
    from fractions import Fraction as F
    (x0, y0), (x1, y1) = [tuple(map(F, p)) for p in (p0, p1)]
    (ax, ay), (bx, by) = [tuple(map(F, p)) for p in (a, b)]
    dx, dy, ex, ey = x1 - x0, y1 - y0, bx - ax, by - ay
    den = dx * ey - dy * ex
    if den == 0:   # parallel: overlapping collinear pieces inside p0-p1
        if (ax - x0) * dy - (ay - y0) * dx != 0:
            return False
        L = dx * dx + dy * dy
        if L == 0:
            return False
        t0 = ((ax - x0) * dx + (ay - y0) * dy) / L
        t1 = ((bx - x0) * dx + (by - y0) * dy) / L
        lo, hi = max(min(t0, t1), F(0)), min(max(t0, t1), F(1))
        return lo < hi or (lo == hi and 0 < lo < 1)
    t = ((ax - x0) * ey - (ay - y0) * ex) / den
    u = ((ax - x0) * dy - (ay - y0) * dx) / den
    return 0 < t < 1 and 0 <= u <= 1


@settings(max_examples=200, deadline=None)
@given(m=_map(), data=st.data())
def test_segment_clear_equals_brute_force(m, data):
    """Property: segment_clear is exactly "meets no walled edge between its end points", for
    segments between quarter-square points (many run along grid lines or through corners)."""
    _, edges = m
    if edges is None:
        return
    rows, cols = edges.shape
    q = st.integers(0, 4 * cols).map(lambda v: v / 4), st.integers(0, 4 * rows).map(lambda v: v / 4)
    p0 = (data.draw(q[0]), data.draw(q[1]))
    p1 = (data.draw(q[0]), data.draw(q[1]))
    walls = [((c + 1, r), (c + 1, r + 1)) for r, c in np.argwhere(edges.east)]
    walls += [((c, r + 1), (c + 1, r + 1)) for r, c in np.argwhere(edges.south)]
    assert segment_clear(edges, p0, p1) == (not any(_meets(p0, p1, a, b) for a, b in walls))


@settings(max_examples=100, deadline=None)
@given(m=_map(), data=st.data())
def test_compiled_centre_line_equals_segment_clear(m, data):
    _, edges = m
    if edges is None:
        return
    rows, cols = edges.shape
    r0, r1 = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, rows - 1))
    c0, c1 = data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, cols - 1))
    fast = centre_line_clear(*kernel_edges(edges)[1:], r0, c0, r1, c1)
    assert fast == segment_clear(edges, (c0 + 0.5, r0 + 0.5), (c1 + 0.5, r1 + 0.5))
    assert fast == centre_line_clear(*kernel_edges(edges)[1:], r1, c1, r0, c0)
