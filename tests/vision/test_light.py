"""Light levels (RULES §9.1, §9.3.1-2): known answers and properties on generated caves."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.maps.generate import generate_cave
from sim.terrain.vision import BRIGHT, DARK, SHADOWY, Light, field_of_view, level_letters, light_levels
from tests.vision.ford_reference import reference_fov


def ascii_rock(text: str) -> np.ndarray:
    rows = [r for r in text.strip("\n").splitlines()]
    return np.array([[ch == "#" for ch in r] for r in rows], bool)


TORCH = dict(bright_ft=20, shadowy_ft=40)


@functools.lru_cache(maxsize=None)
def cave(seed: int):
    return generate_cave(seed, 64, 64)


def floor_squares(grid, rng, n):
    ys, xs = np.nonzero(~grid.rock)
    idx = rng.choice(len(xs), n, replace=False)
    return [(int(xs[i]), int(ys[i])) for i in idx]


# -- known answers ------------------------------------------------------------------------------


def test_torch_in_a_straight_corridor_is_bright_to_20_ft_and_shadowy_to_40_ft():
    # RULES §3.5/§9.1: torch 20 ft bright, 40 ft shadowy; §9.3.1: counted from the bearer's corner
    rock = np.zeros((1, 15), bool)
    g = light_levels(rock, [Light(at=(2, 0), **TORCH)])
    row = g.normal[0]
    # squares east of the bearer at x=2: x=3..6 are 5, 10, 15, 20 ft from its east corner
    assert row[2:7].tolist() == [BRIGHT] * 5
    assert row[7:11].tolist() == [SHADOWY] * 4      # 25..40 ft
    assert row[11:].tolist() == [DARK] * 4           # 45 ft and beyond
    assert row[:2].tolist() == [BRIGHT, BRIGHT]      # and west


def test_torch_radius_counts_diagonals_5_10_5():
    rock = np.zeros((12, 12), bool)
    g = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    # 3 squares diagonally from the bearer's far corner is 5+10+5 = 20 ft: bright; 4 is 30 ft
    assert g.normal[3, 3] == BRIGHT
    assert g.normal[4, 4] == SHADOWY
    # 5 diagonal squares: 5 + 10 + 5 + 10 + 5 = 35 ft: shadowy; 6 is 45 ft: dark
    assert g.normal[5, 5] == SHADOWY
    assert g.normal[6, 6] == DARK
    # a knight's-move square 4 east 2 south: 4 + 2 // 2 = 5 squares = 25 ft: shadowy
    assert g.normal[2, 4] == SHADOWY
    assert g.normal[1, 4] == BRIGHT  # 4 + 1 // 2 = 4 squares = 20 ft


def test_low_light_vision_doubles_both_radii():
    rock = np.zeros((1, 24), bool)
    g = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    row = g.low_light[0]
    assert row[:9].tolist() == [BRIGHT] * 9       # own square + 8 squares = 40 ft bright
    assert row[9:17].tolist() == [SHADOWY] * 8    # to 80 ft
    assert row[17:].tolist() == [DARK] * 7


def test_a_wall_blocks_light():
    rock = ascii_rock("""
.......
...#...
.......
""")
    g = light_levels(rock, [Light(at=(1, 1), **TORCH)])
    assert level_letters(g.normal, rock) == ["BBBBBB.", "BBB#...", "BBBBBB."]  # its shadow widens


def test_light_does_not_turn_corners():
    rock = ascii_rock("""
#########
#...#...#
#...#...#
#.......#
#########
""")
    g = light_levels(rock, [Light(at=(1, 1), **TORCH)])
    # behind the dividing rock, the far room's top corner squares stay dark
    assert g.normal[1, 5] == DARK and g.normal[1, 6] == DARK
    assert g.normal[3, 4] == BRIGHT       # under the dividing rock, in view
    assert g.normal[3, 6] == DARK         # 30 ft away (shadowy range) but round the rock
    assert g.normal[0, 3] == BRIGHT       # the rock face catches the light


def test_candle_gives_shadowy_light_only():
    rock = np.zeros((5, 5), bool)
    g = light_levels(rock, [Light(at=(2, 2), bright_ft=0, shadowy_ft=5)])
    assert level_letters(g.normal) == [".....", ".SSS.", ".SSS.", ".SSS.", "....."]


def test_a_large_bearer_lights_from_the_nearest_corner_of_its_space():
    rock = np.zeros((2, 14), bool)
    g = light_levels(rock, [Light(at=(0, 0), k=2, **TORCH)])
    # the 2x2 space covers x = 0, 1: 20 ft from its east corner is x = 5, 40 ft is x = 9
    assert g.normal[0, :6].tolist() == [BRIGHT] * 6
    assert g.normal[0, 6:10].tolist() == [SHADOWY] * 4
    assert g.normal[0, 10] == DARK
    assert (g.normal[1] == g.normal[0]).all()


def test_the_brightest_light_wins():
    rock = np.zeros((1, 20), bool)
    one = light_levels(rock, [Light(at=(0, 0), **TORCH)])
    two = light_levels(rock, [Light(at=(0, 0), **TORCH), Light(at=(19, 0), bright_ft=30, shadowy_ft=60)])
    assert one.normal[0, 12] == DARK
    assert two.normal[0, 12] == SHADOWY  # 7 squares (35 ft) from the lantern: past its 30 ft bright
    assert two.normal[0, 13] == BRIGHT   # 30 ft
    assert (two.normal >= one.normal).all()


def test_lantern_bright_30_shadowy_60():
    rock = np.zeros((1, 20), bool)
    g = light_levels(rock, [Light(at=(19, 0), bright_ft=30, shadowy_ft=60)])
    # x = 13 is 6 squares (30 ft) west of its west corner... counted to the far corner: 19 - 13 = 6
    assert g.normal[0, 13] == BRIGHT
    assert g.normal[0, 12] == SHADOWY
    assert g.normal[0, 7] == SHADOWY and g.normal[0, 6] == DARK


def test_magical_darkness_makes_its_area_shadowy_and_caps_a_torch():
    rock = np.zeros((1, 30), bool)
    g = light_levels(rock, [Light(at=(0, 0), **TORCH), Light(at=(2, 0), bright_ft=0, shadowy_ft=20, darkness=True)])
    # darkness 20 ft around x = 2 covers x = 0..6: shadowy (bright capped, dark raised)
    assert g.normal[0, :7].tolist() == [SHADOWY] * 7
    assert g.magic_dark[0, :7].all() and not g.magic_dark[0, 7:].any()
    assert g.normal[0, 7] == SHADOWY     # the torch's shadowy ring beyond the darkness
    assert g.low_light[0, 0] == SHADOWY  # caps low-light vision too


def test_bullseye_lantern_is_a_cone():
    rock = np.zeros((21, 21), bool)
    g = light_levels(rock, [Light(at=(10, 10), bright_ft=60, shadowy_ft=120, direction=(1, 0))])
    assert g.normal[10, 20] == BRIGHT      # straight ahead, 10 squares
    assert g.normal[10, 5] == DARK         # behind
    assert g.normal[2, 12] == DARK         # outside 45 degrees
    assert g.normal[7, 14] == BRIGHT       # inside


def test_a_light_may_not_have_shadowy_less_than_bright():
    with pytest.raises(ValueError, match="bright_ft <= shadowy_ft"):
        Light(at=(0, 0), bright_ft=30, shadowy_ft=20)
    with pytest.raises(ValueError, match="bright_ft <= shadowy_ft"):
        Light(at=(0, 0), bright_ft=-5, shadowy_ft=20)


# -- the field of view ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_field_of_view_matches_the_fraction_reference(seed):
    grid = cave(seed)
    rng = np.random.default_rng(seed)
    for at in floor_squares(grid, rng, 25):
        assert (field_of_view(grid.rock, at) == reference_fov(grid.rock, at)).all(), at


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 6), pick=st.integers(0, 2**31))
def test_field_of_view_is_symmetric(seed, pick):
    grid = cave(seed)
    rng = np.random.default_rng(pick)
    pts = floor_squares(grid, rng, 12)
    views = [field_of_view(grid.rock, p) for p in pts]
    for a, va in zip(pts, views):
        for b, vb in zip(pts, views):
            assert va[b[1], b[0]] == vb[a[1], a[0]], (a, b)


# -- properties of light -------------------------------------------------------------------------


def random_lights(grid, rng, n):
    out = []
    kinds = [(20, 40), (30, 60), (0, 5), (15, 30)]
    for at in floor_squares(grid, rng, n):
        b, s = kinds[int(rng.integers(len(kinds)))]
        out.append(Light(at=at, bright_ft=b, shadowy_ft=s))
    return out


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(1, 6), pick=st.integers(0, 2**31), n=st.integers(0, 8))
def test_adding_a_light_never_lowers_a_level(seed, pick, n):
    grid = cave(seed)
    rng = np.random.default_rng(pick)
    lights = random_lights(grid, rng, n + 1)
    before = light_levels(grid.rock, lights[:-1])
    after = light_levels(grid.rock, lights)
    assert (after.normal >= before.normal).all()
    assert (after.low_light >= before.low_light).all()
    assert (after.low_light >= after.normal).all()   # low-light vision never sees less


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(1, 6), pick=st.integers(0, 2**31))
def test_a_lit_floor_square_is_in_view_of_its_light_and_within_its_radius(seed, pick):
    grid = cave(seed)
    rng = np.random.default_rng(pick)
    (light,) = random_lights(grid, rng, 1)
    g = light_levels(grid.rock, [light])
    view = field_of_view(grid.rock, light.at)
    lit = (g.normal > DARK) & ~grid.rock
    assert (view[lit]).all()
    ys, xs = np.nonzero(lit)
    x0, y0 = light.at
    for x, y in zip(xs, ys):
        d = min(max(a, b) + min(a, b) // 2
                for a in ((x + 1 - cx) if x >= cx else (cx - x) for cx in (x0, x0 + 1))
                for b in ((y + 1 - cy) if y >= cy else (cy - y) for cy in (y0, y0 + 1)))
        assert 5 * d <= light.shadowy_ft
