"""The import's fast paths give what the plain ones give (issue 15 benchmark): walls drawn only
near a window, the medial axis's packed sort, the axis itself; the fine pass's windows and its
progress reports."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from skimage.morphology import medial_axis

from sim.maps.importers.widths import Geometry, _medial_axis, _order, fine_windows, measure_widths, rasterise


def _walls(seed: int, n: int = 12) -> Geometry:
    rng = np.random.default_rng(seed)
    lines = tuple(np.cumsum(rng.normal(0, 3, (rng.integers(2, 30), 2)), axis=0) + rng.uniform(0, 60, 2)
                  for _ in range(n))
    solids = (np.array([[20.0, 20.0], [26.0, 21.0], [23.0, 27.0]]),)
    return Geometry(walls=lines, solids=solids)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10 ** 6), i=st.integers(-20, 200), j=st.integers(-20, 200),
       h=st.integers(1, 90), w=st.integers(1, 90))
@example(seed=0, i=0, j=103, h=88, w=1)   # a solid's edge at x = -0.5 px of the window (fixed: padded canvas)
def test_a_window_is_the_crop_of_the_whole_picture(seed, i, j, h, w):
    """Walls far from a window are skipped: what is left is exactly that part of the whole
    picture (offsets on the pixel grid, 4 px/ft, exact in binary)."""
    g = _walls(seed)
    whole = rasterise(g, shape_px=(400, 400), resolution=4.0, offset_ft=(-10.0, -10.0))  # (r, c): row r - 40
    win = rasterise(g, shape_px=(h, w), resolution=4.0, offset_ft=(j / 4.0, i / 4.0))
    assert np.array_equal(win, whole[i + 40:i + 40 + h, j + 40:j + 40 + w])


@settings(max_examples=40, deadline=None)
@given(d2=st.lists(st.integers(0, 5000), min_size=1, max_size=300), seed=st.integers(0, 1000))
def test_the_packed_sort_is_the_three_key_sort(d2, seed):
    rng = np.random.default_rng(seed)
    distance = np.sqrt(np.array(d2, dtype=np.float64))
    corner = rng.integers(0, 10, len(d2))
    tie = rng.permutation(len(d2))
    assert _order(distance, corner, tie).tolist() == np.lexsort((tie, corner, distance)).tolist()


def test_the_medial_axis_is_scikit_images():
    g = _walls(3)
    floor = ~rasterise(g, shape_px=(200, 200), resolution=3.0)
    floor[0] = floor[-1] = floor[:, 0] = floor[:, -1] = False
    skel, dist = _medial_axis(floor)
    want, want_dist = medial_axis(floor, rng=0, return_distance=True)
    assert skel.sum() > 100 and np.array_equal(skel, want) and np.array_equal(dist, want_dist)


def test_fine_windows_cover_every_candidate_once():
    rng = np.random.default_rng(7)
    c = rng.random((23, 31)) < 0.15
    seen = np.zeros(c.shape, dtype=int)
    for r0, r1, c0, c1, t in fine_windows(c):
        assert r1 - r0 <= 4 and c1 - c0 <= 4 and t.shape == (r1 - r0, c1 - c0)
        assert t.any() and np.array_equal(t, c[r0:r1, c0:c1])
        seen[r0:r1, c0:c1] += t
    assert np.array_equal(seen, c.astype(int))


def test_the_progress_reports_each_fine_window():
    # the crack beside a room (tests/importers/test_widths.py) at 4 px/ft: its squares are re-measured
    y0, y1 = 12.4, 12.5
    room = np.array([(5, 5), (20, 5), (20, y0), (33, y0), (33, y1), (20, y1), (20, 20), (5, 20), (5, 5)], float)
    calls = []
    w = measure_widths(Geometry(walls=(room,)), rows=5, cols=8, feet_per_square=5.0, resolution=4.0,
                       progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert w.fine_squares >= 3
    stages = [s for s, _, _ in calls]
    assert stages[:4] == ["walls", "floor", "disks", "fine"] and calls[-1] == ("done", 4, 4)
    windows = [(d, t) for s, d, t in calls[4:-1]]
    assert windows and all(s == "fine" for s, _, _ in calls[4:-1])
    assert [d for d, _ in windows] == list(range(windows[0][1])) and len({t for _, t in windows}) == 1
