"""issue 19 item 6: the painting's compiled parts give the same numbers as the scipy functions
they replace (so `render --at` got faster without the cave changing), and the map loader needs
no scipy."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import ndimage

from sim.terrain.grid import open_runs
from sim.render import art

from .helpers import ROOT_MAPS

masks = arrays(np.bool_, st.tuples(st.integers(1, 24), st.integers(1, 24)))


@settings(max_examples=200, deadline=None)
@given(masks)
def test_distance_to_edge_is_scipys_euclidean_transform(m):
    if m.all():
        m = m.copy()
        m[0, 0] = False   # scipy has no answer without a background pixel
    assert np.allclose(art.distance_to_edge(m), ndimage.distance_transform_edt(m), atol=1e-4)


def test_distance_to_edge_without_background_is_far():
    assert (art.distance_to_edge(np.ones((3, 4), dtype=bool)) > 1e6).all()
    assert (art.distance_to_edge(np.zeros((3, 4), dtype=bool)) == 0).all()


def _label_runs(floor, structure):
    labels, n = ndimage.label(floor, structure=structure)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    sizes[0] = 0
    return sizes[labels]


@settings(max_examples=200, deadline=None)
@given(masks)
def test_open_runs_equal_the_labelled_runs(m):
    h, v = open_runs(m)
    assert np.array_equal(h, _label_runs(m, np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]])))
    assert np.array_equal(v, _label_runs(m, np.array([[0, 1, 0], [0, 1, 0], [0, 1, 0]])))


def test_separable_noise_equals_the_dense_interpolation():
    """The noise mixed tap by tap is the lattice times the two interpolation matrices."""
    rng = np.random.default_rng(4)
    lat = rng.random((9, 13))
    ty, tx = art._taps(40, 9, 1 / 6, 1.0, True), art._taps(70, 13, 1 / 6, 1.0, True)

    def dense(taps, n_in):
        m = np.zeros((len(taps[0][0]), n_in))
        for i, w in taps:
            np.add.at(m, (np.arange(len(i)), i), w)
        return m

    want = dense(ty, 9) @ lat @ dense(tx, 13).T
    assert np.allclose(art._resample(lat, ty, tx), want, atol=1e-5)


def test_loading_a_map_imports_no_scipy_ndimage():
    code = "import sys; from sim.scenario.files import load_encounter; load_encounter('maps/demo.toml'); " \
           "print('scipy.ndimage' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT_MAPS.parent)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"
