"""Classification by RULES §2.3, checked against §2.9 and the size table, with property tests."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.terrain.classify import category_counts, classify, classify_all_sizes, classify_arrays, classify_square
from sim.terrain.grid import CaveGrid
from sim.maps.read import load_map
from sim.rules.bodies import body_for, swarm_body
from sim.rules.categories import Category as K
from sim.rules.sizes import Size

from conftest import MAPS

MEDIUM = body_for("medium")  # H 6, S 5, head 0.5, shoulders 1.5, depth 0.75 (§2.9 header)
HALFLING = body_for("small", height=3.1)

# RULES §2.9, every row: (W, C, category)
WORKED_EXAMPLES = [
    (10, 10, K.CLEAR),
    (4, 10, K.NARROW_OR_LOW),
    (10, 4, K.NARROW_OR_LOW),
    (4, 4, K.NARROW_AND_LOW),
    (5, 2.5, K.CRAWL),
    (2, 10, K.AWKWARD),
    (10, 1, K.AWKWARD),
    (1, 10, K.AWKWARD),
    (1, 1, K.TIGHT_SQUEEZE),
    (0.6, 10, K.TIGHT_SQUEEZE),
    (0.4, 10, K.IMPASSABLE),
]

# RULES §2.9, last paragraph: the same passages for a halfling (H = 3.1, S = 5)
HALFLING_EXAMPLES = [
    (4, 10, K.NARROW_OR_LOW),
    (10, 4, K.CLEAR),
    (5, 2.5, K.NARROW_OR_LOW),
    (2, 10, K.AWKWARD),
]


def grid_of(pairs):
    w = np.array([[p[0] for p in pairs]], dtype=float)
    h = np.array([[p[1] for p in pairs]], dtype=float)
    return CaveGrid.from_arrays(w, h)


@pytest.mark.parametrize("W,C,expected", WORKED_EXAMPLES)
def test_worked_examples_medium(W, C, expected):
    assert classify_square(W, C, MEDIUM) is expected
    assert classify(grid_of([(W, C)]), MEDIUM)[0, 0] == expected


@pytest.mark.parametrize("W,C,expected", HALFLING_EXAMPLES)
def test_worked_examples_halfling(W, C, expected):
    assert classify_square(W, C, HALFLING) is expected
    assert classify(grid_of([(W, C)]), HALFLING)[0, 0] == expected


@pytest.mark.parametrize("name", ["gallery.toml", "gallery_m.toml"])
def test_shipped_galleries(name):
    """maps/gallery*.toml hold the §2.9 rows in columns 2, 4, ..., 22 of row 2 (ft and m)."""
    grid = load_map(MAPS / name)
    cats = classify(grid, MEDIUM)
    assert [K(c) for c in cats[2, 2:23:2]] == [e for _, _, e in WORKED_EXAMPLES]
    assert (cats[grid.rock] == K.IMPASSABLE).all()


def test_metre_gallery_is_the_feet_gallery():
    ft, m = load_map(MAPS / "gallery.toml"), load_map(MAPS / "gallery_m.toml")
    assert np.array_equal(ft.width_ft, m.width_ft)
    assert np.array_equal(ft.height_ft, m.height_ft)


def thresholds(size, form="tall"):
    b = body_for(size, form=form)
    return b, b.space, b.height


@pytest.mark.parametrize("size", [s for s in Size if s >= Size.FINE])
@pytest.mark.parametrize("form", ["tall", "long"])
def test_boundaries_every_size(size, form):
    """The half/quarter boundaries of §2.3 are inclusive ("at least half"), for every size."""
    b, S, H = thresholds(size, form)
    big = max(S, H) * 4

    def fits(W, C):  # the body rectangle, either way up (§2.3 row 2)
        return (W >= b.shoulders and C >= b.depth) or (W >= b.depth and C >= b.shoulders)

    cases = [
        (S, H, K.CLEAR),
        (S, H * 0.999, K.NARROW_OR_LOW),
        (S * 0.999, H, K.NARROW_OR_LOW),
        (S / 2, H / 2, K.NARROW_AND_LOW),
        (S, H / 2 * 0.999, K.CRAWL),
        (S, H / 4, K.CRAWL),
        (big, H / 4 * 0.999, K.AWKWARD),
        (S / 2 * 0.999, big, K.AWKWARD),
        (b.head, b.head, K.TIGHT_SQUEEZE),
        (b.head * 0.999, big, K.IMPASSABLE),
        (big, b.head * 0.999, K.IMPASSABLE),
    ]
    for W, C, expected in cases:
        if min(W, C) >= b.head and not fits(W, C):  # rows 1-2 of §2.3 come first
            expected = K.TIGHT_SQUEEZE
        assert classify_square(W, C, b) is expected, (size, form, W, C)
        assert classify(grid_of([(W, C)]), b)[0, 0] == expected, (size, form, W, C)


def test_large_in_ten_and_five_foot_tunnels():
    large = body_for("large")  # S 10, H 12
    assert classify_square(10, 16, large) is K.CLEAR
    assert classify_square(10, 10, large) is K.NARROW_OR_LOW  # low only
    assert classify_square(5, 8, large) is K.NARROW_AND_LOW
    assert classify_square(5, 2.5, large) is K.AWKWARD  # 2.5 < H/4 = 3
    assert classify_square(2, 12, large) is K.AWKWARD  # side-on: 2 >= depth 1.5, 12 >= shoulders 3
    assert classify_square(1.2, 12, large) is K.TIGHT_SQUEEZE
    assert classify_square(0.9, 12, large) is K.IMPASSABLE  # head 1 ft


def test_tall_versus_long_bodies():
    tall, long = body_for("medium"), body_for("medium", form="long")  # H 6 vs 3
    assert classify_square(10, 4, tall) is K.NARROW_OR_LOW
    assert classify_square(10, 4, long) is K.CLEAR
    assert classify_square(10, 1, long) is K.CRAWL  # 0.75 <= 1 < 1.5
    assert classify_square(0.8, 10, tall) is K.AWKWARD  # side-on: 0.8 >= depth 0.75
    assert classify_square(0.8, 10, long) is K.TIGHT_SQUEEZE  # long body is 1 x 1 ft


def test_rock_is_impassable_for_everyone_even_swarms():
    g = CaveGrid.from_arrays([[0, 30]], [[0, 30]])
    for b in [body_for(s) for s in Size] + [swarm_body("fine")]:
        assert classify(g, b)[0, 0] == K.IMPASSABLE
        assert classify(g, b)[0, 1] == K.CLEAR if b.size <= Size.LARGE else True


def test_swarm_is_clear_where_its_component_fits_else_impassable():
    rats = swarm_body("tiny")  # 3 in. = 0.25 ft
    g = grid_of([(0.25, 0.25), (0.24, 10), (10, 0.24), (0.3, 0.5), (4, 4)])
    assert [K(c) for c in classify(g, rats)[0]] == [K.CLEAR, K.IMPASSABLE, K.IMPASSABLE, K.CLEAR, K.CLEAR]
    bats = swarm_body("diminutive")  # 2 in.
    assert classify_square(0.17, 0.17, bats) is K.CLEAR
    assert classify_square(0.16, 1, bats) is K.IMPASSABLE


def test_counts_and_all_sizes():
    grid = load_map(MAPS / "gallery.toml")
    all_cats = classify_all_sizes(grid)
    assert all_cats.shape == (9,) + grid.shape
    assert np.array_equal(all_cats[int(Size.MEDIUM)], classify(grid, MEDIUM))
    counts = category_counts(classify(grid, MEDIUM)[~grid.rock])
    assert counts == {K.CLEAR: 59, K.NARROW_OR_LOW: 2, K.NARROW_AND_LOW: 1, K.CRAWL: 1,
                      K.AWKWARD: 3, K.TIGHT_SQUEEZE: 2, K.IMPASSABLE: 1}


def test_nan_width_in_raw_arrays_is_impassable():
    cats = classify_arrays(np.array([[np.nan, 5.0]]), np.array([[10.0, np.nan]]), np.zeros((1, 2), bool), MEDIUM)
    assert cats.tolist() == [[K.IMPASSABLE, K.IMPASSABLE]]


# ---- properties -------------------------------------------------------------------------

lengths = st.floats(min_value=0.0, max_value=80.0, allow_nan=False, allow_infinity=False)
sizes = st.sampled_from(list(Size))
forms = st.sampled_from(["tall", "long"])


@settings(max_examples=400, deadline=None)
@given(W=lengths, C=lengths, dW=lengths, dC=lengths, size=sizes, form=forms)
def test_wider_or_taller_never_worse(W, C, dW, dC, size, form):
    b = body_for(size, form=form)
    base = classify_square(W, C, b)
    assert classify_square(W + dW, C, b) <= base
    assert classify_square(W, C + dC, b) <= base
    assert classify_square(W + dW, C + dC, b) <= base


@settings(max_examples=400, deadline=None)
@given(W=lengths, C=lengths, a=sizes, b=sizes, form=forms)
def test_larger_body_never_better(W, C, a, b, form):
    small, large = sorted((a, b))
    assert classify_square(W, C, body_for(small, form=form)) <= classify_square(W, C, body_for(large, form=form))


@settings(max_examples=400, deadline=None)
@given(W=lengths, C=lengths, component=st.sampled_from([Size.FINE, Size.DIMINUTIVE, Size.TINY]), form=forms)
def test_swarm_never_worse_than_its_component(W, C, component, form):
    """A swarm is never more restricted than a single component that can move there without an
    Escape Artist check (RULES §7.24-25): where the component walks (tall or long body) or crawls
    (tall body), the swarm is CLEAR. The swarm is only ever CLEAR or IMPASSABLE (no penalties)."""
    swarm = classify_square(W, C, swarm_body(component))
    single = classify_square(W, C, body_for(component, form=form))
    assert swarm in (K.CLEAR, K.IMPASSABLE)
    limit = K.CRAWL if form == "tall" else K.NARROW_AND_LOW
    if single <= limit:
        assert swarm <= single
    if W > 0 and C > 0 and min(W, C) >= swarm_body(component).opening:
        assert swarm is K.CLEAR


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=sizes, form=forms)
def test_compiled_kernel_equals_reference(seed, size, form):
    rng = np.random.default_rng(seed)
    # mix random values with exact boundary values of the body
    b = body_for(size, form=form)
    specials = np.array([0, b.head, b.depth, b.shoulders, b.space / 2, b.space, b.height / 4,
                         b.height / 2, b.height, 0.25, 1e-9])
    w = np.where(rng.random((12, 12)) < 0.5, rng.choice(specials, (12, 12)), rng.random((12, 12)) * b.height * 2)
    h = np.where(rng.random((12, 12)) < 0.5, rng.choice(specials, (12, 12)), rng.random((12, 12)) * b.height * 2)
    grid = CaveGrid.from_arrays(w, h)
    got = classify(grid, b)
    for r in range(12):
        for c in range(12):
            expect = K.IMPASSABLE if grid.rock[r, c] else classify_square(w[r, c], h[r, c], b)
            assert got[r, c] == expect
