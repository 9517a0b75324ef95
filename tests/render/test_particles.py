"""Swarm clouds: hundreds of particles that fill exactly the swarm's squares, flow to new ones
without crossing rock, thin with hit points, scatter when dispersed, and repeat with the seed."""

from __future__ import annotations

import numpy as np
import pytest

from sim.render.particles import KINDS, ParticleSystem
from sim.render.portray import SWARM_STYLES

from .helpers import grid

STEP = 1 / 60


def run(ps: ParticleSystem, seconds: float) -> None:
    for _ in range(int(seconds / STEP)):
        ps.step(STEP)


@pytest.mark.parametrize("kind", KINDS)
def test_settled_cloud_is_inside_its_squares_and_covers_each(kind):
    squares = [(2, 2), (3, 2), (3, 3), (4, 3)]  # an S tetromino
    ps = ParticleSystem(seed=5)
    ps.add("s", kind, squares)
    assert ps.clouds["s"].count == SWARM_STYLES[kind].count >= 200
    run(ps, 3.0)
    assert ps.inside_fraction("s") == 1.0
    cov = ps.coverage("s")
    assert all(n >= 40 for n in cov.values()), cov


def test_reshape_flows_through_a_bend_without_crossing_rock():
    # a crack that turns a corner: the swarm moves from the top arm to the right arm
    rows = ["#######",
            "#k#####",
            "#k#####",
            "#kkkkk#",
            "#######"]
    g = grid(rows)
    ps = ParticleSystem(seed=2, rock=g.rock)
    ps.add("r", "rat", [(1, 1), (1, 2), (1, 3), (2, 3)])
    run(ps, 2.0)
    ps.set_shape("r", [(1, 3), (2, 3), (3, 3), (4, 3)])
    worst_rock = 0
    for _ in range(int(3.0 / STEP)):
        ps.step(STEP)
        fl = np.floor(ps.drawn("r")).astype(int)
        worst_rock = max(worst_rock, int(g.rock[fl[:, 1], fl[:, 0]].sum()))
    assert worst_rock == 0
    assert ps.inside_fraction("r") == 1.0
    assert all(n > 0 for n in ps.coverage("r").values())


def test_particles_keep_to_the_channel_of_a_crack():
    band = lambda sq: (0.0, 0.06) if sq[1] == 1 else None  # noqa: E731  (a horizontal hairline in row 1)
    ps = ParticleSystem(seed=3, band=band)
    ps.add("r", "rat", [(1, 1), (2, 1), (3, 1), (4, 1)])
    run(ps, 3.0)
    y = ps.drawn("r")[:, 1]
    assert ps.inside_fraction("r") == 1.0
    assert y.min() >= 1.5 - 0.07 and y.max() <= 1.5 + 0.07


def test_cloud_thins_with_hit_points_and_scatters_when_dispersed():
    ps = ParticleSystem(seed=1)
    ps.add("b", "bat", [(1, 1), (2, 1), (1, 2), (2, 2)])
    full = len(ps.drawn("b"))
    ps.set_strength("b", 0.4)
    run(ps, 2.0)
    assert len(ps.drawn("b")) == pytest.approx(0.4 * full, abs=3)
    centre = ps.drawn("b").mean(axis=0)
    ps.disperse("b")
    run(ps, 0.5)
    spread = np.hypot(*(ps.drawn("b") - centre).T).mean()
    assert spread > 1.5                      # flying outward
    run(ps, 2.5)
    assert "b" not in ps.clouds              # gone


def test_same_seed_same_motion():
    def positions(seed):
        ps = ParticleSystem(seed=seed)
        ps.add("w", "wasp", [(1, 1), (2, 1), (1, 2), (2, 2)])
        run(ps, 0.5)
        ps.set_shape("w", [(2, 1), (3, 1), (2, 2), (3, 2)])
        run(ps, 0.5)
        return ps.pos.copy()

    assert np.array_equal(positions(9), positions(9))
    assert not np.array_equal(positions(9), positions(10))
