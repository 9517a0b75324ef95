"""Width per square from wall geometry: synthetic shapes with known widths (issue 15 checks).

Each cave is drawn inline as wall polylines in feet (x right, y down, 5-ft squares). The
truths: a 3-ft corridor is 3 ft in every square it crosses, a 5-ft L-bend is 5 ft round the
bend, a 1-ft hourglass pinch on a square border marks both squares 1 ft, a 3-in. crack beside
a room is 0.25 ft and the room beside it 15 ft. Tolerance: 0.1 ft (0.05 ft under 1 ft).
A disk counts for a square it enters by half its radius (or 0.5 ft): the room's disks do not
reach into the crack's first square through its mouth.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.maps.importers.widths import Geometry, facing_squares, measure_widths, route_mask


def loop(*pts):
    p = np.array(pts, dtype=float)
    return np.vstack([p, p[:1]])


def widths(walls, rows, cols, *, res=10.0, fine=True, solids=()):
    return measure_widths(Geometry(walls=tuple(walls), solids=tuple(solids)), rows=rows, cols=cols,
                          feet_per_square=5.0, resolution=res, fine=fine).width_ft


def tol(truth):
    return 0.05 if truth < 1.0 else 0.1


def assert_floor(w, truth: dict[tuple[int, int], float]):
    """Exactly the squares in ``truth`` are floor, each within tolerance of its width."""
    want = np.zeros(w.shape, dtype=bool)
    for (x, y), t in truth.items():
        want[y, x] = True
        assert abs(w[y, x] - t) <= tol(t), f"square ({x}, {y}): {w[y, x]:.3f} ft, truth {t} ft"
    assert ((w > 0) == want).all(), f"floor squares differ:\n{(w > 0).astype(int)}\nwant\n{want.astype(int)}"


def test_three_foot_corridor():
    # x 2..28 ft, y 6..9 ft: inside row 1, across all six columns
    w = widths([loop((2, 6), (28, 6), (28, 9), (2, 9))], rows=3, cols=6)
    assert_floor(w, {(x, 1): 3.0 for x in range(6)})


@settings(max_examples=8, deadline=None)
@given(width=st.floats(2.2, 4.6), y0=st.floats(5.05, 5.35), res=st.sampled_from([4.0, 6.0, 10.0]))
def test_corridor_width_whatever_the_pixel_grid(width, y0, res):
    """Exact wall distances: the width does not depend on where the walls fall in the pixels."""
    w = widths([loop((1, y0), (24, y0), (24, y0 + width), (1, y0 + width))], rows=3, cols=5, res=res)
    row = w[1]
    assert (w[0] == 0).all() and (w[2] == 0).all()
    assert np.all(np.abs(row - width) <= 0.1), (width, y0, res, row)


def test_diagonal_corridor_is_its_perpendicular_width():
    # a 4-ft corridor at 45 degrees: width measured across, not along the grid
    d = 4.0 / np.sqrt(2)
    w = widths([loop((5, 5 + d), (5 + d, 5), (35, 35 - d), (35 - d, 35))], rows=8, cols=8)
    floor = w > 0
    assert floor[2, 2] and floor[5, 5]
    inner = w[1:7, 1:7][floor[1:7, 1:7]]
    assert np.all(np.abs(np.sort(inner)[len(inner) // 4:] - 4.0) <= 0.1), inner  # ends taper only at the tips


def test_five_foot_l_bend():
    # the horizontal arm along row 1 (y 5..10), the vertical arm down column 3 (x 15..20)
    w = widths([loop((2, 5), (20, 5), (20, 28), (15, 28), (15, 10), (2, 10))], rows=6, cols=5)
    truth = {(x, 1): 5.0 for x in range(4)} | {(3, y): 5.0 for y in range(1, 6)}
    assert_floor(w, truth)


def hourglass_hall():
    """A 15 x 45-ft hall (x 5..20, y 5..50) with a thin spike from each side wall meeting 1 ft
    apart at y = 25 ft: the border between rows 4 and 5."""
    left = np.array([(5, 5), (5, 23), (12, 25), (5, 27), (5, 50)], float)
    right = np.array([(20, 5), (20, 23), (13, 25), (20, 27), (20, 50)], float)
    ends = [np.array([(5, 5), (20, 5)], float), np.array([(5, 50), (20, 50)], float)]
    return [left, right, *ends]


def test_hourglass_pinch_on_a_border_marks_both_rows():
    w = widths(hourglass_hall(), rows=11, cols=5)
    assert abs(w[4, 2] - 1.0) <= 0.05 and abs(w[5, 2] - 1.0) <= 0.05, w[3:7, 2]
    # far from the pinch the hall is its full 15 ft
    for y in (1, 8, 9):
        for x in (1, 2, 3):
            assert abs(w[y, x] - 15.0) <= 0.1, (x, y, w[y, x])
    floor = w > 0
    assert floor[1:10, 1:4].all() and not floor[0].any() and not floor[10].any()
    assert not floor[:, 0].any() and not floor[:, 4].any()
    # nothing in the hall is narrower than the pinch or wider than the hall
    assert w[floor].min() >= 1.0 - 0.05 and w[floor].max() <= 15.1


def crack_room(crack_ft):
    """A 15 x 15-ft room (x 5..20, y 5..20) with a side crack going right from y = 12.4 ft
    into the rock as far as x = 33 ft."""
    y0, y1 = 12.4, 12.4 + crack_ft
    return [loop((5, 5), (20, 5), (20, y0), (33, y0), (33, y1), (20, y1), (20, 20), (5, 20))]


def test_three_inch_side_crack_beside_a_room():
    w = widths(crack_room(0.25), rows=5, cols=8)
    truth = {(x, y): 15.0 for x in (1, 2, 3) for y in (1, 2, 3)} | {(x, 2): 0.25 for x in (4, 5, 6)}
    assert_floor(w, truth)


def test_a_crack_closed_at_the_coarse_resolution_is_found_finely():
    # 0.1 ft (1.2 in.) is under one pixel at 4 px/ft: the coarse raster closes it; the fine
    # re-measure (facing walls) finds it again
    coarse = widths(crack_room(0.1), rows=5, cols=8, res=4.0, fine=False)
    assert (coarse[2, 4:7] == 0).all()
    w = widths(crack_room(0.1), rows=5, cols=8, res=4.0)
    assert np.all(np.abs(w[2, 4:7] - 0.1) <= 0.05), w[2]
    assert np.all(np.abs(w[1:4, 1:4] - 15.0) <= 0.1)


def test_solid_prop_narrows_the_way_past_it():
    # a 4 x 4-ft pillar in a 15-ft-wide hall, 2 ft from the top wall
    hall = loop((5, 5), (30, 5), (30, 20), (5, 20))
    pillar = np.array([(16, 7), (20, 7), (20, 11), (16, 11)], float)
    w = widths([hall], rows=5, cols=7, solids=[pillar])
    # the 2-ft gap above the pillar is the route's narrowest point in the squares it crosses
    assert abs(w[1, 3] - 2.0) <= 0.1, w
    floor = w > 0
    assert floor[1:4, 1:6].all() and w[floor].min() >= 2.0 - 0.1 and w[floor].max() <= 15.1


def test_walls_enclosing_nothing_give_no_floor():
    w = widths([np.array([(0, 7), (30, 7)], float)], rows=3, cols=6)
    assert not (w > 0).any()


def test_facing_squares_flag_a_crack_not_a_corner():
    flags = facing_squares(Geometry(walls=tuple(crack_room(0.25))), rows=5, cols=8, square_ft=5.0)
    assert flags[2, 4:7].all()
    assert not flags[1, 1] and not flags[3, 3] and not flags[0, 0]  # room corners are not cracks


def test_route_mask_drops_a_thin_spur_keeps_a_wide_one():
    sk = np.zeros((9, 11), bool)
    sk[4, 1:10] = True          # the main line
    sk[0:4, 3] = True           # a spur thinning to 0.5 (a crack): dropped
    sk[5:9, 7] = True           # a spur staying 3 (a side passage): kept
    r = np.where(sk, 4.0, 0.0)
    r[0, 3] = 0.5
    r[5:9, 7] = 3.0
    route = route_mask(sk, r)
    assert not route[0:3, 3].any()
    assert route[6:9, 7].all()
    assert route[4, 1:2].all() and route[4, 5] and route[4, 9]   # the line, less its junctions
    assert not route[4, 3] and not route[4, 7]


@pytest.mark.parametrize("res", [4.0, 10.0])
def test_same_walls_same_widths(res):
    a = widths(hourglass_hall(), rows=11, cols=5, res=res)
    b = widths(hourglass_hall(), rows=11, cols=5, res=res)
    assert np.array_equal(a, b)
