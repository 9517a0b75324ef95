"""The exported frames' shrink (sim/render/shrink.py): exact area averaging, and a rectangle
aligned to the ratio's period gives exactly that rectangle of the whole frame (the GIF stores
only the changed rectangle: issue 19's crawl GIF time)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.render import shrink as S


def _reference(px: np.ndarray, p: int, q: int) -> np.ndarray:
    """Area averaging the slow way: each output pixel the mean of the source area it covers,
    in exact fractions, rounded half up."""
    w, h = px.shape
    rgb = np.stack([(px >> 16) & 255, (px >> 8) & 255, px & 255], axis=-1).astype(object)
    out = np.zeros((h * p // q, w * p // q, 3), np.uint8)

    def cover(j):   # [(source index, overlap)] of output pixel j along an axis
        a, b = Fraction(j * q, p), Fraction((j + 1) * q, p)
        return [(i, min(b, i + 1) - max(a, i)) for i in range(int(a), -(-b.numerator // b.denominator))
                if min(b, i + 1) > max(a, i)]

    for r in range(out.shape[0]):
        for c in range(out.shape[1]):
            total = sum(wy * wx * rgb[x, y] for y, wy in cover(r) for x, wx in cover(c))
            mean = total / Fraction(q * q, p * p)
            out[r, c] = [int(v + Fraction(1, 2)) for v in mean]
    return out


@pytest.mark.parametrize("p,q", [(3, 4), (1, 2), (1, 4), (2, 3), (5, 8), (1, 1)])
def test_shrink_is_the_exact_area_mean(p, q):
    rng = np.random.default_rng(p * 10 + q)
    px = rng.integers(0, 1 << 24, size=(2 * q, 3 * q), dtype=np.uint32)   # (x, y)
    assert np.array_equal(S.shrink(px, 0, 0, 2 * q, 3 * q, p, q), _reference(px, p, q))


def test_taps_cover_each_period_once():
    for p, q in [(3, 4), (1, 2), (2, 3), (5, 8), (3, 8), (7, 8)]:
        offs, wts = S.taps(p, q)
        assert wts.sum(axis=1).tolist() == [q] * p          # each output pixel: q/p of a source pixel, in 1/p
        per_source = np.zeros(q, np.int64)
        np.add.at(per_source, offs, wts)
        assert per_source.tolist() == [p] * q               # each source pixel shared out whole


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(3, 4), (1, 2), (1, 4), (2, 3)]), st.integers(0, 9), st.integers(0, 9),
       st.integers(1, 6), st.integers(1, 6), st.integers(0, 2 ** 32 - 1))
def test_an_aligned_rectangle_is_the_same_rectangle_of_the_whole(pq, bx, by, bw, bh, seed):
    p, q = pq
    rng = np.random.default_rng(seed)
    px = rng.integers(0, 1 << 24, size=(16 * q, 16 * q), dtype=np.uint32)
    whole = S.shrink(px, 0, 0, 16 * q, 16 * q, p, q)
    x0, y0 = bx * q, by * q
    x1, y1 = min(16, bx + bw) * q, min(16, by + bh) * q
    part = S.shrink(px, x0, y0, x1, y1, p, q)
    assert np.array_equal(part, whole[y0 // q * p:y1 // q * p, x0 // q * p:x1 // q * p])


def test_a_rectangle_off_the_period_is_refused():
    px = np.zeros((8, 8), np.uint32)
    with pytest.raises(ValueError, match=r"not aligned to 4 pixels"):
        S.shrink(px, 2, 0, 8, 8, 3, 4)


def test_ratio_takes_short_periods_only():
    assert [S.ratio(s) for s in (0.75, 0.5, 0.25, 0.625, 1.0)] == [(3, 4), (1, 2), (1, 4), (5, 8), (1, 1)]
    assert [S.ratio(s) for s in (0.3333, 0.7, 1.5, 2.0)] == [None, None, None, None]


def test_changed_box_finds_the_difference_and_catches_up():
    cur = np.zeros((10, 6), np.uint32)
    prev = cur.copy()
    assert S.changed_box(cur, prev) == (0, 0, 0, 0)
    cur[2, 1] = 5
    cur[7, 4] = 9
    assert S.changed_box(cur, prev) == (2, 1, 8, 5)
    assert np.array_equal(prev, cur)
    assert S.changed_box(cur, prev) == (0, 0, 0, 0)
