"""A square reads the width of the passage a creature standing in it is in (issue 35, docs/rules.md
§2.10): synthetic caves drawn as wall lists (feet, x right, y down, 5-ft squares) with a truth for
every floor square.

Tolerances: a room square reads the room's narrower dimension within 0.5 ft; a corridor square
its width within 0.1 ft (0.05 ft under 1 ft). No square may fall outside.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.maps.importers.vtt import import_file
from sim.maps.importers.widths import Geometry, measure_widths


def loop(*pts):
    p = np.array(pts, dtype=float)
    return np.vstack([p, p[:1]])


def measure(walls, rows, cols, *, res=10.0, solids=(), enclosed=None):
    return measure_widths(Geometry(walls=tuple(walls), solids=tuple(solids)), rows=rows, cols=cols,
                          feet_per_square=5.0, resolution=res, enclosed=enclosed).width_ft


def corridor_tol(width: float) -> float:
    return 0.05 if width < 1.0 else 0.1


def check(w, truth: dict[tuple[int, int], tuple[float, float]]):
    """Every square in ``truth`` ((x, y) -> (width, tolerance)) is floor within tolerance; no other
    square is floor. Reports every square outside, not just the first."""
    bad = []
    for (x, y), (t, tol) in truth.items():
        if not abs(w[y, x] - t) <= tol:
            bad.append(f"({x},{y}) {w[y, x]:.3f} ft, truth {t:g} +- {tol:g}")
    want = np.zeros(w.shape, dtype=bool)
    for x, y in truth:
        want[y, x] = True
    extra = [(int(x), int(y)) for y, x in zip(*np.nonzero((w > 0) & ~want))]
    assert not bad and not extra, f"{len(bad)} squares out of tolerance: {bad}; floor beyond the truth: {extra}"


# ---------------------------------------------------------------- a 40 x 30-ft room with one exit

ROOM = {(x, y): (30.0, 0.5) for x in range(1, 9) for y in range(1, 7)}   # x 5..45, y 5..35


def room_with_exit(side: str, w: float):
    """The room and a 20-ft corridor ``w`` ft wide leaving it: from the long (bottom) side, the
    short (right) side centred on a square, or the bottom-right corner (along the bottom wall).
    Returns the walls and the corridor's squares."""
    if side == "long":
        a = 22.5 - w / 2 if w <= 5 else 20.0
        walls = loop((5, 5), (45, 5), (45, 35), (a + w, 35), (a + w, 55), (a, 55), (a, 35), (5, 35))
        cols = range(int(a // 5), int(math.ceil((a + w) / 5)))
        squares = [(x, y) for x in cols for y in range(7, 11)]
    elif side == "short":
        a = 17.5 - w / 2 if w <= 5 else 15.0
        walls = loop((5, 5), (45, 5), (45, a), (65, a), (65, a + w), (45, a + w), (45, 35), (5, 35))
        rows = range(int(a // 5), int(math.ceil((a + w) / 5)))
        squares = [(x, y) for x in range(9, 13) for y in rows]
    else:
        walls = loop((5, 5), (45, 5), (45, 35 - w), (65, 35 - w), (65, 35), (5, 35))
        rows = range(int((35 - w) // 5), 7)
        squares = [(x, y) for x in range(9, 13) for y in rows]
    return [walls], squares


@pytest.mark.parametrize("side", ["long", "short", "corner"])
@pytest.mark.parametrize("w", [1.0, 3.0, 5.0, 10.0])
def test_a_room_reads_its_width_beside_an_exit_of_any_width(side, w):
    walls, corridor = room_with_exit(side, w)
    rows, cols = (12, 10) if side == "long" else (8, 14)
    truth = dict(ROOM) | {sq: (w, corridor_tol(w)) for sq in corridor}
    check(measure(walls, rows, cols), truth)


def test_a_20_by_25_ft_hall_with_a_3_ft_exit_reads_20_along_its_wall():
    # the second room (x 5..25, y 5..30), the exit down the middle of its long east wall
    walls = [loop((5, 5), (25, 5), (25, 16), (45, 16), (45, 19), (25, 19), (25, 30), (5, 30))]
    truth = {(x, y): (20.0, 0.5) for x in range(1, 5) for y in range(1, 6)} | {(x, 3): (3.0, 0.1) for x in range(5, 9)}
    check(measure(walls, rows=7, cols=10), truth)


@settings(max_examples=6, deadline=None)
@given(w=st.floats(1.0, 4.8), dx=st.floats(0.0, 1.0), res=st.sampled_from([4.0, 6.0, 10.0]))
def test_any_exit_anywhere_in_its_square_leaves_the_room_its_width(w, dx, res):
    """A corridor ``w`` ft wide leaving the 40 x 30-ft room's long side anywhere inside column 4
    (``dx`` of the spare room in it to its left), at any resolution. (Under 1 ft at 4 px/ft the
    coarse picture closes the corridor beyond its first square: a limit the old measure had too.)"""
    a = 20.0 + dx * (5.0 - w)
    walls = [loop((5, 5), (45, 5), (45, 35), (a + w, 35), (a + w, 55), (a, 55), (a, 35), (5, 35))]
    truth = dict(ROOM) | {(4, y): (w, corridor_tol(w)) for y in range(7, 11)}
    check(measure(walls, rows=12, cols=10, res=res), truth)


# ---------------------------------------------------------------- other shapes

def test_a_round_chamber_with_a_fissure():
    """A 30-ft round chamber (centre 25, 25) and a 2-ft fissure leaving it east at y 21..23 ft:
    every chamber square reads 30 ft (its rim squares too), the fissure 2 ft to its end."""
    c, r = np.array([25.0, 25.0]), 15.0
    t0, t1 = math.asin(-2 / 15), 2 * math.pi + math.asin(-4 / 15)       # y = 23 round to y = 21
    arc = [c + r * np.array([math.cos(t), math.sin(t)]) for t in np.linspace(t0, t1, 120)]
    walls = [np.array([(60.0, 23.0), *arc, (60.0, 21.0), (60.0, 23.0)])]
    w = measure(walls, rows=10, cols=13)
    floor = w > 0
    fissure = {(x, 4) for x in range(8, 12)}
    for y, x in zip(*np.nonzero(floor)):
        t, tol = (2.0, 0.1) if (x, y) in fissure else (30.0, 0.5)
        assert abs(w[y, x] - t) <= tol, ((x, y), w[y, x])
    inside = [(x, y) for x in range(10) for y in range(10)
              if all(np.hypot(x * 5 + dx - 25, y * 5 + dy - 25) < 15 for dx in (0, 5) for dy in (0, 5))]
    assert all(floor[y, x] for x, y in [*inside, *fissure]) and len(inside) == 16


def test_a_t_junction_reads_its_corridors():
    # a 5-ft corridor along row 1 (x 5..45) and a 5-ft stem down column 4 (y 10..35)
    walls = [loop((5, 5), (45, 5), (45, 10), (25, 10), (25, 35), (20, 35), (20, 10), (5, 10))]
    truth = {(x, 1): (5.0, 0.1) for x in range(1, 9)} | {(4, y): (5.0, 0.1) for y in range(2, 7)}
    check(measure(walls, rows=8, cols=10), truth)


def test_a_three_foot_l_bend():
    walls = [loop((5, 6), (24, 6), (24, 30), (21, 30), (21, 9), (5, 9))]
    truth = {(x, 1): (3.0, 0.1) for x in range(1, 5)} | {(4, y): (3.0, 0.1) for y in range(2, 6)}
    check(measure(walls, rows=7, cols=6), truth)


def test_a_pillar_drawn_as_a_wall_loop_is_rock():
    """A 30 x 30-ft room (x 5..35) round a 10 x 10-ft pillar drawn as a wall loop (x 15..25): the
    pillar's squares are rock, and the 10-ft way round it reads 10 ft, corners too."""
    walls = [loop((5, 5), (35, 5), (35, 35), (5, 35)), loop((15, 15), (25, 15), (25, 25), (15, 25))]
    ring = [(x, y) for x in range(1, 7) for y in range(1, 7) if not (3 <= x <= 4 and 3 <= y <= 4)]
    check(measure(walls, rows=8, cols=8), {sq: (10.0, 0.1) for sq in ring})


@pytest.mark.parametrize("width", [10.0, 3.7])
def test_mirror_image_corridors_read_alike_to_the_bit(width):
    """Two corridors, each the other's mirror image across x = 32.5 ft, off the pixel grid: their
    squares read the same widths to the last bit (and a drawn 10-ft corridor is 10.0 exactly)."""
    y0 = 12.3
    left = loop((3.3, y0), (27.1, y0), (27.1, y0 + width), (3.3, y0 + width))
    right = np.column_stack([65.0 - left[:, 0], left[:, 1]])
    w = measure([left, right], rows=6, cols=13, res=4.0, enclosed="floor")   # two spaces drawn apart: both floor
    assert np.array_equal(w[:, :6], w[:, 12:6:-1]), (w[:, :6], w[:, 12:6:-1])
    floor = w[w > 0]
    assert floor.size >= 10 and np.all(np.abs(floor - width) <= 0.1)
    if width == 10.0:
        assert np.all(floor == 10.0)


def test_a_step_into_a_corridor_is_not_a_pinch():
    """A 5-ft corridor (row 3, y 15..20) between two 20-ft rooms (x 5..25 and 45..65, y 5..25): the
    rooms read 20 ft up to the corridor's mouths, the corridor 5 ft from end to end."""
    walls = [loop((5, 5), (25, 5), (25, 15), (45, 15), (45, 5), (65, 5), (65, 25), (45, 25), (45, 20), (25, 20),
                  (25, 25), (5, 25))]
    rooms = {(x, y): (20.0, 0.5) for x in [*range(1, 5), *range(9, 13)] for y in range(1, 5)}
    check(measure(walls, rows=6, cols=14), rooms | {(x, 3): (5.0, 0.1) for x in range(5, 9)})


# ---------------------------------------------------------------- the two shared samples

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "uvtt"


@pytest.mark.slow
def test_the_imagix_sample_reads_two_20_ft_rooms_and_the_way_past_the_pillar():
    """Two 20-ft rooms either side of a partition; a round pillar beside the open doorway leaves
    a 3-ft way (the old measure read the room falling from 20 to 3 ft toward it)."""
    w = import_file(SAMPLES / "imagix-sampleMap.dd2vtt").grid.width_ft
    narrow = {(4, 7): 3.52, (3, 8): 3.0, (4, 8): 3.0, (1, 8): 16.95, (2, 8): 18.18}
    for y, x in zip(*np.nonzero(w > 0)):
        want = narrow.get((int(x), int(y)), 20.0)
        assert abs(w[y, x] - want) <= 0.01, ((x, y), w[y, x])
    assert int((w > 0).sum()) == 64   # the door on the partition is a door between squares (§6.8), not 2 door squares


@pytest.mark.slow
def test_the_oganm_sample_rooms_read_their_rooms_and_its_crate_is_rock():
    got = import_file(SAMPLES / "oganm-test.dd2vtt")
    w = got.grid.width_ft
    # the rocky alcove and the plank room 37 ft throughout (the old measure: 4.9-31 ft in blotches);
    # the stone room 36.6 ft
    assert np.all(np.abs(w[6:13, 1:7] - 36.99) <= 0.05) and np.all(np.abs(w[7:13, 11:18] - 36.65) <= 0.01)
    assert not (w[17:19, 5:7] > 0).any()           # the crate drawn as a wall loop out in the open
    assert [(s.square, s.kind, s.floor) for s in got.spaces] == [((6, 18), "object", False)]
