"""Swarm clouds on screen: after settling, the particles' pixels lie on the swarm's squares and
cover every one of them, over the creatures the swarm engulfs."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from sim.engine import events as ev

from .helpers import scene_for, settle, spec

ROOM = ["############",
        "#..........#",
        "#..........#",
        "#..........#",
        "#..........#",
        "############"]


def particle_pixels(scene):
    """Pixels the particles change: the frame with them against the frame without them."""
    with_ = pygame.Surface(scene.size)
    scene.draw(with_, 1.0)
    real = scene.particles.render_lists
    scene.particles.render_lists = lambda alpha=1.0, hidden=(): []   # the same frame, particles left out
    without = pygame.Surface(scene.size)
    scene.draw(without, 1.0)
    scene.particles.render_lists = real
    a = pygame.surfarray.array3d(with_).astype(int)
    b = pygame.surfarray.array3d(without).astype(int)
    return np.abs(a - b).max(axis=2) > 0   # [x, y]


@pytest.mark.parametrize("template,kind", [("rat-swarm", "rat"), ("bat-swarm", "bat"), ("hellwasp-swarm", "wasp")])
def test_settled_swarm_covers_exactly_its_squares(template, kind):
    s = spec(ROOM, [{"id": "s", "template": template, "team": "monsters", "at": (4, 2)},
                    {"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (9, 3)}])
    scene, _ = scene_for(s, size=(900, 500))
    settle(scene, 3.0)
    squares = scene.model.creatures["s"].squares
    assert len(squares) == 4
    changed = particle_pixels(scene)
    ts = scene.camera.ts
    pad = 3 * max(1, round(ts / 22))      # a particle's few pixels round its point
    inside = np.zeros_like(changed)
    for x, y in squares:
        x0, y0 = scene.camera.to_screen(x, y)
        inside[int(x0) - pad:int(x0) + ts + pad, int(y0) - pad:int(y0) + ts + pad] = True
        core = changed[int(x0):int(x0) + ts, int(y0):int(y0) + ts]
        assert core.mean() > 0.08, (x, y)        # every square is covered
    assert changed.sum() > 400
    assert not (changed & ~inside).any()         # and nothing outside them


def test_swarm_flows_to_its_new_squares_and_covers_the_creature_it_engulfs():
    s = spec(ROOM, [{"id": "rats", "template": "rat-swarm", "team": "monsters", "at": (2, 2)},
                    {"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (8, 2)}])
    scene, _ = scene_for(s, size=(900, 500))
    settle(scene, 1.0)
    path = [((3, 2), (4, 2), (3, 3), (4, 3)), ((5, 2), (6, 2), (5, 3), (6, 3)), ((7, 2), (8, 2), (7, 3), (8, 3))]
    scene.feed([ev.SwarmShape(round=1, actor="rats", squares=sq) for sq in path] +
               [ev.Engulf(round=1, actor="rats", targets=("bruna",), squares=path[-1])])
    settle(scene, 4.0)
    ps = scene.particles
    assert set(ps.clouds["rats"].squares) == set(path[-1])
    assert ps.inside_fraction("rats") == 1.0
    cov = ps.coverage("rats")
    assert cov[(8, 2)] > 20                      # on Bruna's square: the cloud covers her
    changed = particle_pixels(scene)
    x0, y0 = scene.camera.to_screen(8, 2)
    ts = scene.camera.ts
    assert changed[int(x0):int(x0) + ts, int(y0):int(y0) + ts].mean() > 0.08


def test_swarm_thins_as_it_loses_hit_points_and_scatters():
    s = spec(ROOM, [{"id": "bats", "template": "bat-swarm", "team": "monsters", "at": (4, 2)}])
    scene, _ = scene_for(s, size=(900, 500))
    settle(scene, 1.0)
    full = particle_pixels(scene).sum()
    hp = scene.model.creatures["bats"].max_hp
    scene.feed([ev.Damage(round=1, target="bats", amount=hp - 3, parts={"fire": hp - 3}, source=None, cause="splash",
                          hp_before=hp, hp_after=3)])
    settle(scene, 2.0)
    thin = particle_pixels(scene).sum()
    assert thin < 0.6 * full
    scene.feed([ev.Damage(round=1, target="bats", amount=3, parts={"fire": 3}, source=None, cause="splash",
                          hp_before=3, hp_after=0),
                ev.Dispersed(round=1, target="bats", at=tuple(scene.model.creatures["bats"].squares))])
    settle(scene, 4.0)
    assert "bats" not in scene.particles.clouds
