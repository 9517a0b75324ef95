"""Sight (RULES §9.2-9.3): who sees, locates or cannot perceive whom; the sides' masks."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.maps.generate import generate_cave
from sim.terrain.vision import (DARK, DETECTS, LOCATES, NONE, SEES, Light, Viewer, explore, field_of_view, light_levels,
                        sight, vision)

TORCH = dict(bright_ft=20, shadowy_ft=40)


def corridor(n: int = 30, rows: int = 1) -> np.ndarray:
    return np.zeros((rows, n), bool)


@functools.lru_cache(maxsize=None)
def cave(seed: int):
    return generate_cave(seed, 64, 64)


def test_darkvision_60_sees_a_dark_target_12_squares_away_but_not_13():
    rock = corridor()
    dwarf = Viewer("dwarf", "party", ((0, 0),), darkvision_ft=60)
    near = Viewer("near", "monsters", ((12, 0),))
    far = Viewer("far", "monsters", ((13, 0),))
    s = sight(rock, light_levels(rock, []), [dwarf, near, far])
    assert s.sees("dwarf", "near") and s.miss_chance("dwarf", "near") == 0   # no concealment vs darkvision
    assert s.level_of("dwarf", "far") == NONE and s.miss_chance("dwarf", "far") == 50


def test_darkvision_counts_diagonals_5_10_5():
    rock = np.zeros((12, 12), bool)
    a = Viewer("a", "p", ((0, 0),), darkvision_ft=60)
    b = Viewer("b", "m", ((8, 8),))   # 8 + 4 = 12 squares
    c = Viewer("c", "m", ((9, 8),))   # 9 + 4 = 13
    s = sight(rock, light_levels(rock, []), [a, b, c])
    assert s.sees("a", "b") and not s.sees("a", "c")


def test_miss_chance_is_20_in_shadow_and_50_in_darkness():
    rock = corridor()
    torch = Light(at=(0, 0), **TORCH)
    bruna = Viewer("bruna", "party", ((0, 0),))
    lit = Viewer("lit", "monsters", ((4, 0),))       # 20 ft: bright
    shadow = Viewer("shadow", "monsters", ((7, 0),))  # 35 ft: shadowy
    dark = Viewer("dark", "monsters", ((10, 0),))     # 50 ft: dark
    s = sight(rock, light_levels(rock, [torch]), [bruna, lit, shadow, dark])
    assert (s.miss_chance("bruna", "lit"), s.miss_chance("bruna", "shadow"), s.miss_chance("bruna", "dark")) == (0, 20, 50)
    assert s.sees("bruna", "shadow") and not s.locates("bruna", "dark")


def test_low_light_vision_sees_farther_by_the_same_torch():
    rock = corridor()
    torch = Light(at=(0, 0), **TORCH)
    elf = Viewer("elf", "party", ((1, 0),), low_light=True)
    human = Viewer("human", "party", ((1, 0),))
    target = Viewer("t", "monsters", ((12, 0),))      # 60 ft from the torch: dark to humans, shadowy to elves
    s = sight(rock, light_levels(rock, [torch]), [elf, human, target])
    assert s.sees("elf", "t") and s.miss_chance("elf", "t") == 20
    assert not s.sees("human", "t")


def test_the_unlit_kobold_watches_the_torch_bearer_who_cannot_see_it():
    # RULES §9.3.7: an unlit creature with darkvision can watch a torch bearer who cannot see it
    rock = corridor(40)
    torch = Light(at=(0, 0), **TORCH)
    bruna = Viewer("bruna", "party", ((0, 0),))
    kobold = Viewer("kobold", "monsters", ((20, 0),), darkvision_ft=60)   # 100 ft off: beyond its darkvision
    s = sight(rock, light_levels(rock, [torch]), [bruna, kobold])
    assert s.sees("kobold", "bruna")                # the lit square is seen far beyond the radius (§9.3.4)
    assert s.level_of("bruna", "kobold") == NONE


def test_a_wall_hides_both_ways():
    rock = corridor(10, rows=3)
    rock[:, 5] = True
    lg = light_levels(rock, [Light(at=(0, 1), **TORCH), Light(at=(9, 1), **TORCH)])
    a = Viewer("a", "p", ((0, 1),), darkvision_ft=60)
    b = Viewer("b", "m", ((9, 1),), darkvision_ft=60)
    s = sight(rock, lg, [a, b])
    assert s.level_of("a", "b") == NONE and s.level_of("b", "a") == NONE


def test_effectively_blinded_when_the_own_square_is_dark():
    rock = corridor()
    lg = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    in_light = Viewer("in", "p", ((3, 0),))
    in_dark = Viewer("out", "p", ((15, 0),))
    elf = Viewer("elf", "p", ((12, 0),), low_light=True)     # dark to humans, shadowy to the elf
    dwarf = Viewer("dwarf", "p", ((20, 0),), darkvision_ft=60)
    s = sight(rock, lg, [in_light, in_dark, elf, dwarf])
    assert s.blinded.tolist() == [False, True, False, False]
    assert s.sees("out", "in")   # but the lit square far away is still seen (§9.3.4)


def test_blindsense_locates_in_the_dark_without_seeing():
    rock = corridor()
    bats = Viewer("bats", "m", ((0, 0),), blindsense_ft=20, low_light=True, grounded=False)
    near = Viewer("near", "p", ((4, 0),))
    far = Viewer("far", "p", ((5, 0),))
    s = sight(rock, light_levels(rock, []), [bats, near, far])
    assert s.level_of("bats", "near") == LOCATES and s.miss_chance("bats", "near") == 50
    assert s.level_of("bats", "far") == NONE
    assert s.to_json()["bats"] == {"sees": [], "locates": ["near"]}


def test_blindsense_needs_a_line_but_tremorsense_does_not_and_misses_fliers():
    rock = corridor(10, rows=3)
    rock[:, 2] = True
    bs = Viewer("bs", "m", ((0, 1),), blindsense_ft=30)
    tr = Viewer("tr", "m", ((1, 1),), tremorsense_ft=30)
    walker = Viewer("walker", "p", ((4, 1),))
    flier = Viewer("flier", "p", ((4, 0),), grounded=False)
    s = sight(rock, light_levels(rock, []), [bs, tr, walker, flier])
    assert s.level_of("bs", "walker") == NONE
    assert s.level_of("tr", "walker") == LOCATES
    assert s.level_of("tr", "flier") == NONE


def test_scent_pinpoints_within_5_ft_and_detects_within_30_ft():
    rock = corridor(12, rows=3)
    rock[:, 3] = True     # scent goes round rock (no line needed)
    rats = Viewer("rats", "m", ((2, 1),), scent=True)
    adj = Viewer("adj", "p", ((1, 1),))
    near = Viewer("near", "p", ((8, 1),))     # 6 squares = 30 ft
    far = Viewer("far", "p", ((9, 1),))       # 35 ft
    s = sight(rock, light_levels(rock, []), [rats, adj, near, far])
    assert [s.level_of("rats", t) for t in ("adj", "near", "far")] == [LOCATES, DETECTS, NONE]


def test_blindsight_sees_in_the_dark():
    rock = corridor()
    grick = Viewer("g", "m", ((0, 0),), blindsight_ft=30)
    t = Viewer("t", "p", ((6, 0),))
    s = sight(rock, light_levels(rock, []), [grick, t])
    assert s.sees("g", "t") and s.miss_chance("g", "t") == 0 and not s.blinded[0]


def test_magical_darkness_conceals_even_from_darkvision():
    rock = corridor()
    lg = light_levels(rock, [Light(at=(10, 0), bright_ft=0, shadowy_ft=20, darkness=True)])
    dwarf = Viewer("dwarf", "p", ((0, 0),), darkvision_ft=60)
    t = Viewer("t", "m", ((10, 0),))
    s = sight(rock, lg, [dwarf, t])
    assert s.sees("dwarf", "t") and s.miss_chance("dwarf", "t") == 20


def test_a_large_target_is_seen_by_its_best_lit_square():
    rock = corridor(20, rows=2)
    lg = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    v = Viewer("v", "p", ((0, 0),))
    ogre = Viewer("ogre", "m", ((4, 0), (5, 0), (4, 1), (5, 1)))   # x = 4 bright, x = 5 shadowy
    s = sight(rock, lg, [v, ogre])
    assert s.miss_chance("v", "ogre") == 0


def test_seen_masks_and_explored():
    rock = corridor(30)
    lg = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    party = Viewer("a", "party", ((0, 0),))
    kobold = Viewer("k", "monsters", ((25, 0),), darkvision_ft=60)
    s = sight(rock, lg, [party, kobold])
    assert s.seen_by("party")[0].tolist() == [True] * 9 + [False] * 21          # what the torch lights
    assert s.seen_by("monsters")[0, 13:].all() and s.seen_by("monsters")[0, :9].all()
    assert not s.seen_by("monsters")[0, 9:13].any()   # dark, and beyond 60 ft of darkvision
    assert not s.seen_by("nobody").any()
    ex = explore(None, s.seen_by("party"))
    lg2 = light_levels(rock, [Light(at=(10, 0), **TORCH)])
    s2 = sight(rock, lg2, [Viewer("a", "party", ((10, 0),))])
    ex2 = explore(ex, s2.seen_by("party"))
    assert ex2[0].tolist() == [True] * 19 + [False] * 11


def test_team_level_is_the_best_of_the_side():
    rock = corridor()
    a = Viewer("a", "p", ((0, 0),))
    b = Viewer("b", "p", ((1, 0),), darkvision_ft=60)
    t = Viewer("t", "m", ((8, 0),))
    s = sight(rock, light_levels(rock, []), [a, b, t])
    assert s.team_level("p", "t") == SEES and s.level_of("a", "t") == NONE


def test_bad_viewers_are_refused():
    with pytest.raises(ValueError, match="darkvision_ft must be >= 0"):
        Viewer("x", "p", ((0, 0),), darkvision_ft=-5)
    with pytest.raises(ValueError, match="no squares"):
        Viewer("x", "p", ())
    with pytest.raises(ValueError, match="off the 3x1 map"):
        sight(np.zeros((1, 3), bool), light_levels(np.zeros((1, 3), bool), []), [Viewer("x", "p", ((5, 0),))])


# -- properties on generated caves ---------------------------------------------------------------


def _random_scene(seed: int, pick: int, n: int, lights: int):
    grid = cave(seed)
    rng = np.random.default_rng(pick)
    ys, xs = np.nonzero(~grid.rock)
    idx = rng.choice(len(xs), n + lights, replace=False)
    pts = [(int(xs[i]), int(ys[i])) for i in idx]
    ls = [Light(at=p, **TORCH) for p in pts[n:]]
    return grid, pts[:n], ls


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 6), pick=st.integers(0, 2**31), lights=st.integers(0, 6))
def test_sight_by_light_is_symmetric(seed, pick, lights):
    """RULES §9.3.7: the line is the same both ways; so for two viewers with the same eyes (no
    darkvision), A sees B by light exactly when B sees A, whenever both stand in light."""
    grid, pts, ls = _random_scene(seed, pick, 14, lights)
    vs = [Viewer(f"v{i}", "t", (p,), low_light=(i % 3 == 0)) for i, p in enumerate(pts)]
    lg, s = vision(grid.rock, ls, vs)
    view = {p: field_of_view(grid.rock, p) for p in pts}
    for i, a in enumerate(vs):
        for j, b in enumerate(vs):
            if i == j:
                continue
            pa, pb = a.squares[0], b.squares[0]
            line = bool(view[pa][pb[1], pb[0]])
            assert line == bool(view[pb][pa[1], pa[0]])
            lit_b_for_a = lg.for_viewer(a.low_light)[pb[1], pb[0]] > DARK
            assert s.sees(a.id, b.id) == (line and lit_b_for_a)
            if a.low_light == b.low_light and lit_b_for_a and lg.for_viewer(b.low_light)[pa[1], pa[0]] > DARK:
                assert s.sees(a.id, b.id) == s.sees(b.id, a.id)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(1, 6), pick=st.integers(0, 2**31), lights=st.integers(0, 5))
def test_adding_a_light_never_takes_sight_away(seed, pick, lights):
    grid, pts, ls = _random_scene(seed, pick, 10, lights + 1)
    vs = [Viewer(f"v{i}", "t" if i % 2 else "u", (p,), darkvision_ft=60 * (i % 4 == 0)) for i, p in enumerate(pts)]
    _, before = vision(grid.rock, ls[:-1], vs)
    _, after = vision(grid.rock, ls, vs)
    assert (after.level >= before.level).all()
    assert (after.seen >= before.seen).all()
    assert (after.blinded <= before.blinded).all()
