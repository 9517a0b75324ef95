"""Chokepoints on generated caves are narrow passages, never chambers (issue 19).

On the seed-11 96x64 cave (as `cavesim generate` writes it) the watershed used to split the
great chamber around a slightly higher patch of its ceiling and report the chamber itself as a
192-square "chokepoint" holding the point `great_chamber`. A chokepoint is a passage between
areas: no square of it is wider (effective width: the map's, capped by the rock around it) than
the passage where its two areas meet (a mouth a little wider), so it is no wider than the areas
it joins, and
a named point lies in one only when the point itself stands in a passage (at most two squares
across), never in a chamber."""

import numpy as np
import pytest
from scipy import ndimage

from sim.analysis.chokepoints import NECK_SLACK, find_chokepoints, geometry
from sim.maps.generate import ascii_grid, generate_cave

CAVES = [(11, 96, 64)] + [(seed, 64, 48) for seed in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12)]


def _as_written(seed, cols, rows):
    g = generate_cave(seed, cols, rows)
    a = ascii_grid(g)
    return a if a is not None else g


@pytest.mark.parametrize("seed,cols,rows", CAVES)
def test_no_chokepoint_is_a_chamber(seed, cols, rows):
    g = _as_written(seed, cols, rows)
    lay = find_chokepoints(g)
    width = geometry(g).width_eff                       # feet: the map's width capped by the rock
    radius = ndimage.distance_transform_edt(np.pad(~g.rock, 1))[1:-1, 1:-1]   # squares to rock
    points = {tuple(p): name for name, p in g.points.items()}
    assert lay.chokepoints, "a generated cave has passages"
    for c in lay.chokepoints:
        sq = np.array(c.squares)
        r = width[sq[:, 1], sq[:, 0]]
        # a named point may stand in a passage (an entrance down a crawlway), never in a chamber
        held = [points[s] for s in c.squares if s in points and radius[s[1], s[0]] > 1.5]
        assert not held, f"seed {seed}: {c.id} at {c.at} holds the chamber of {held}"
        for a in c.joins:
            core = lay.cores == a
            if core.sum() == 1 and any(core[y, x] for x, y in g.points.values()):
                continue   # a named point's own pocket (docs/analysis.md §1.3): the way there may be wider
            area_r = width[(lay.area == a) & (lay.neck == 0)]
            if area_r.size:
                assert r.max() <= area_r.max() + NECK_SLACK, (
                    f"seed {seed}: {c.id} at {c.at} ({len(c.squares)} squares) is wider than area A{a}")


def test_the_seed_11_great_chamber_is_an_area_not_a_chokepoint():
    g = _as_written(11, 96, 64)
    lay = find_chokepoints(g)
    x, y = g.points["great_chamber"]
    assert lay.neck[y, x] == 0 and lay.area[y, x] > 0
    assert max(len(c.squares) for c in lay.chokepoints) < 100
