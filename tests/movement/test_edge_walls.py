"""Walls between squares in movement and connectivity (docs/rules.md §6.8): no step across a
walled edge, no diagonal past a corner one touches, no body standing across one; the compiled
search agrees with the plain-Python reference (which reads the edge arrays itself)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.analysis.regions import geometry_labels, region_labels
from sim.rules.bodies import body_for
from sim.terrain.edges import EdgeWalls
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, distance_map, find_path, move_field
from sim.terrain.movement.field import BLOCKED

from .test_exactness import _agree, _mover, _squares, caves
from .test_movement import GLYPHS, cave


def _open(cols, rows, *, east=None, south=None, doors=None):
    w = np.full((rows, cols), 10.0)
    return CaveGrid.from_arrays(w, np.full((rows, cols), 12.0), edges=(east, south), edge_doors=doors)


def _medium(speed=30):
    return Mover(body_for("medium"), speed_ft=speed)


def test_no_orthogonal_step_across_a_wall():
    east = np.zeros((3, 6), bool)
    east[:, 2] = True                      # a wall along x = 3, the whole height
    f = move_field(_open(6, 3, east=east), _medium())
    d = distance_map(f, (0, 1))
    assert d.feet[:, :3].min() >= 0 and (d.feet[:, 3:] == -1).all()
    assert not find_path(f, (2, 1), (3, 1)).reachable


def test_diagonal_corner_rule_at_the_end_of_a_wall():
    """A wall along x = 3 from y = 0 to y = 2: the way round its end at corner (3, 2) is orthogonal."""
    east = np.zeros((4, 6), bool)
    east[0:2, 2] = True
    f = move_field(_open(6, 4, east=east), _medium())
    d = distance_map(f, (2, 1))
    # (2, 1) -> (3, 2) would pass corner (3, 2), which the wall touches: 5 + 5 ft round it, not 5
    assert d.feet[2, 3] == 10
    assert d.feet[2, 2] == 5 and d.feet[3, 3] == 10   # (2, 1) -> (2, 2) -> (3, 3) diagonally: 5 + 5
    p = find_path(f, (2, 1), (3, 2))
    assert p.squares == [(2, 1), (2, 2), (3, 2)]


def test_partition_joined_only_through_its_door_edge_when_open():
    """A partition along x = 3 with a door on one edge: while the door is closed the halves are
    apart (a closed door walls its edge, as a closed door square is rock); with the door gone
    (open) they are joined through that edge only."""
    east = np.zeros((5, 6), bool)
    east[:, 2] = True
    door = np.zeros((5, 6), bool)
    door[2, 2] = True
    closed = _open(6, 5, east=east & ~door, doors=(door, None))
    assert closed.edges.count() == 5 and closed.edge_doors.count() == 1
    f = move_field(closed, _medium())
    assert region_labels(f).tolist() == [[1, 1, 1, 2, 2, 2]] * 5     # two halves
    opened = _open(6, 5, east=east & ~door)
    f = move_field(opened, _medium())
    assert region_labels(f).max() == 1
    p = find_path(f, (0, 0), (5, 0))
    crossings = [(a, b) for a, b in zip(p.squares, p.squares[1:]) if (a[0] < 3) != (b[0] < 3)]
    assert crossings == [((2, 2), (3, 2))]
    assert p.feet == 35        # diagonals 5 + 10 to the door, 5 through it, 5 + 10 beyond


def test_geometry_labels_see_walls_between_squares():
    ok = np.ones((2, 4), bool)
    wall = EdgeWalls.of([[False, True, False, False]] * 2, None, (2, 4))
    assert geometry_labels(ok, ~ok).max() == 1
    assert geometry_labels(ok, ~ok, wall).tolist() == [[1, 1, 2, 2], [1, 1, 2, 2]]


def test_a_large_body_never_stands_across_a_wall():
    """A Large body (2 x 2) in a 6 x 4 room split by a wall along x = 3 for the top two rows:
    no reference square whose block holds the wall; it walks round the wall's end."""
    east = np.zeros((4, 6), bool)
    east[0:2, 2] = True
    g = _open(6, 4, east=east)
    f = move_field(g, Mover(body_for("large"), speed_ft=30))
    straddling = [(x, y) for y in range(3) for x in range(5) if (x == 2 and y <= 1)]
    for x, y in straddling:
        assert f.mode[y, x] == BLOCKED or f.squeezed[y, x]
    assert not f.squeezed[2, 2] and f.mode[2, 2] != BLOCKED      # below the wall's end: the block fits
    p = find_path(f, (0, 0), (4, 0))
    assert p.reachable and max(y for _, y in p.squares) == 2      # round the end of the wall
    for (x, y) in p.squares:
        if not f.squeezed[y, x]:
            assert not g.edges.straddled(2)[y, x]


def test_no_edges_no_change():
    """A map without walls between squares has no edge layer, and the same field as before."""
    g = cave(["....", ".#..", "...."])
    assert g.edges is None and g.edge_doors is None
    a = move_field(g, _medium())
    b = move_field(CaveGrid.from_arrays(g.width_ft, g.height_ft, edges=(np.zeros(g.shape, bool), None)), _medium())
    assert b.grid.edges is None and (a.words == b.words).all()


@st.composite
def _edges(draw, shape):
    rows, cols = shape
    bits = st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols)
    east = np.array(draw(bits), bool).reshape(shape)
    south = np.array(draw(bits), bool).reshape(shape)
    return east & np.array(draw(bits), bool).reshape(shape), south & np.array(draw(bits), bool).reshape(shape)


@settings(max_examples=60, deadline=None)
@given(grid=caves(), expected=st.booleans(), data=st.data())
def test_labels_equal_reference_with_walls_between_squares(grid, expected, data):
    g = cave(grid, GLYPHS)
    g = g.replace(edges=data.draw(_edges(g.shape)))
    f = move_field(g, _mover(data))
    if _squares(f):
        _agree(f, data.draw(st.sampled_from(_squares(f))), expected=expected)


@settings(max_examples=60, deadline=None)
@given(grid=caves(), data=st.data())
def test_steps_never_cross_a_walled_edge(grid, data):
    """Property: every allowed step of the direction masks crosses no walled edge, and each
    allowed step is allowed back (walls are the same from both sides)."""
    g = cave(grid, GLYPHS)
    g = g.replace(edges=data.draw(_edges(g.shape)))
    f = move_field(g, _medium())
    rows, cols = f.shape
    from sim.terrain.movement.kernel import DIRS
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in enumerate(DIRS):
                if not (f.dirs[r, c] >> d) & 1:
                    continue
                nr, nc = r + dr, c + dc
                if g.edges is not None and not (dr and dc):
                    assert not g.edges.between((c, r), (nc, nr))
                back = DIRS.index((-dr, -dc))
                assert (f.dirs[nr, nc] >> back) & 1 or f.mode[r, c] == BLOCKED


def test_effective_width_between_two_partitions():
    """A corridor one square wide between two walls between squares reads 5 ft wide, as one
    between rock does (the crawl's single file and the chokepoints read it)."""
    from sim.terrain.grid import effective_width_ft
    east = np.zeros((4, 5), bool)
    east[:, 1] = east[:, 2] = True            # walls along x = 2 and x = 3
    g = _open(5, 4, east=east)
    assert effective_width_ft(g)[:, 2].tolist() == [5.0] * 4
    assert effective_width_ft(g)[:, 0].tolist() == [10.0] * 4      # two squares west of the first wall
    assert effective_width_ft(_open(5, 4))[:, 2].tolist() == [10.0] * 4
