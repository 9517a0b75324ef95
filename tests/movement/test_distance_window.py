"""The distance map searched in a box (issue 27): below its bound it is the whole map's, and the
AI that uses it plays the same fights as with the whole-map search."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.maps.generate import generate_cave
from sim.rules.bodies import body_for
from sim.terrain.movement import Mover, distance_map, move_field
from sim.terrain.movement.queries import distance_window


@pytest.fixture(scope="module")
def cave():
    return generate_cave(2, 96, 96)


@pytest.mark.parametrize("size,speed", [("medium", 30), ("large", 40), ("small", 20)])
def test_below_the_bound_the_whole_maps_times(cave, size, speed):
    """Random starts, boxes and blocked squares: every square the box's search reaches in fewer
    move actions than its bound has the whole map's actions, feet and rounds; no square is
    reached sooner than on the whole map; an unbounded box misses nothing the map reaches."""
    f = move_field(cave, Mover(body_for(size), speed_ft=speed))
    rng = np.random.default_rng(7)
    ys, xs = np.nonzero(f.mode == 1)
    exact = 0
    for _ in range(12):
        i = rng.integers(len(ys))
        start = (int(xs[i]), int(ys[i]))
        blocked = rng.random(f.shape) < 0.05
        r = int(rng.integers(2, 24))
        box = tuple(int(v) for v in (start[0] - rng.integers(0, r), start[1] - rng.integers(0, r),
                                     start[0] + rng.integers(0, r), start[1] + rng.integers(0, r)))
        for expected in (False, True):
            for blk in (None, blocked):
                full = distance_map(f, start, expected=expected, blocked=blk)
                win = distance_window(f, start, box, expected=expected, blocked=blk)
                (ox, oy), t = win.origin, win.times
                h, w = t.actions.shape
                cut = (slice(oy, oy + h), slice(ox, ox + w))
                ok = (t.feet >= 0) & (np.nan_to_num(t.actions, nan=np.inf) < win.bound)
                exact += int(ok.sum())
                assert np.array_equal(full.actions[cut][ok], t.actions[ok])
                assert np.array_equal(full.feet[cut][ok], t.feet[ok])
                assert np.array_equal(full.rounds[cut][ok], t.rounds[ok])
                reached = t.feet >= 0
                assert (full.feet[cut][reached] >= 0).all()
                assert (t.actions[reached] >= full.actions[cut][reached]).all()
                if win.bound == math.inf:
                    assert int(full.reachable().sum()) == int(reached.sum())
    assert exact > 200   # the property was tested on many squares


def test_a_box_round_the_start_only():
    f = move_field(generate_cave(2, 64, 64), Mover(body_for("medium")))
    ys, xs = np.nonzero(f.mode == 1)
    start = (int(xs[0]), int(ys[0]))
    with pytest.raises(ValueError, match="outside the box"):
        distance_window(f, start, (start[0] + 3, start[1], start[0] + 6, start[1] + 3))


def test_the_same_fight_with_the_whole_map_search(monkeypatch):
    """The scaling benchmark's fight on a 256 x 256 cave, played with the boxes and with the
    whole-map search only (WINDOW_SHARE 0): the same events; and the boxes were used."""
    from benchmarks.scaling import encounter
    from sim.engine.ai import estimates
    from sim.engine.fight import new_encounter

    spec = encounter(256, 8)
    calls = []
    real = estimates.distance_window

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(estimates, "distance_window", counting)
    boxed = [repr(e) for e in new_encounter(spec, seed=3).run(max_rounds=6)]
    assert calls
    monkeypatch.setattr(estimates, "WINDOW_SHARE", 0.0)
    n = len(calls)
    whole = [repr(e) for e in new_encounter(spec, seed=3).run(max_rounds=6)]
    assert len(calls) == n
    assert boxed == whole
