"""sim.base.jit readies numba without its BLAS check (scipy.linalg: a quarter of a second of every
command's start), and leaves numba alone when scipy.linalg is there already."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def test_a_compiled_call_does_not_import_scipy_linalg():
    out = _python(
        "import sys\n"
        "from sim.terrain.grid import CaveGrid\n"
        "from sim.terrain.classify import classify\n"
        "from sim.rules.bodies import body_for\n"
        "g = CaveGrid.from_arrays([[10, 4], [5, 2]], [[10, 10], [2.5, 10]])\n"
        "print(classify(g, body_for('medium')).tolist(), 'scipy.linalg' in sys.modules,\n"
        "      'scipy.linalg.cython_blas' in sys.modules)\n")
    assert out == "[[0, 1], [3, 4]] False False"


def test_scipy_linalg_imports_normally_afterwards():
    out = _python(
        "import sim.base.jit, scipy.linalg, numpy as np\n"
        "print(scipy.linalg.det(np.eye(2)))\n")
    assert out == "1.0"


def test_blas_in_a_kernel_still_compiles():
    out = _python(
        "import sys, numpy as np\n"
        "from sim.base.jit import numba\n"
        "f = numba.njit(lambda a: np.dot(a, a))\n"
        "g = numba.njit(lambda a, b: np.convolve(a, b))\n"
        "print(f(np.ones(3)), g(np.ones(3), np.ones(2)).tolist(), sys.modules['numba.np.arraymath']._HAVE_BLAS)\n")
    assert out == "3.0 [1.0, 2.0, 2.0, 1.0] False"


def test_numba_is_left_alone_when_scipy_linalg_came_first():
    out = _python(
        "import numpy as np, scipy.linalg\n"
        "from sim.base.jit import numba\n"
        "f = numba.njit(lambda a: np.dot(a, a))\n"
        "print(f(np.ones(3)))\n")
    assert out == "3.0"
