"""numba, readied for cavesim's kernels: every module with compiled code imports it from here
(``from sim.base.jit import numba``), so this runs before numba's first compile or cache load.

Readying numba's CPU target, on the first compiled call of a process, imports its numpy
implementations, and one of them (``numba.np.arraymath``) checks for BLAS by importing
``scipy.linalg``: a quarter of a second of every command's start (a tenth of ``cavesim render
--at``'s whole run). The check's only use is the inner product of ``np.convolve`` and
``np.correlate`` inside compiled code (BLAS when found, else a plain loop: the same sums; no
kernel of ours calls either); ``np.dot`` and ``np.linalg`` look for BLAS themselves when a kernel
using them is compiled. So we import that module first with the check failing fast, and nothing
else changes (the same machine code, the same cache). When scipy.linalg is already imported the
check costs nothing and is left alone. tests/test_jit.py holds these facts.
"""

from __future__ import annotations

import importlib
import sys

import numba

__all__ = ["numba"]

_BLAS = "scipy.linalg.cython_blas"


def _ready_without_blas() -> None:
    if "numba.np.arraymath" in sys.modules or _BLAS in sys.modules:
        return   # numba's target is readied already, or the check is free
    sys.modules[_BLAS] = None   # an import of a None entry raises ImportError
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        del sys.modules[_BLAS]


_ready_without_blas()
