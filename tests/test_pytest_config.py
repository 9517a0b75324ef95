"""A plain ``pytest`` (the executable, as many developers type it) collects every test, as
``python -m pytest`` does: the test files import ``tests.*`` helpers, which only the current
folder on ``sys.path`` makes importable (``pythonpath = ["."]`` in pyproject.toml; issue 34
item 18: 24 test files failed "No module named 'tests'")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pytest_exe() -> str | None:
    beside = Path(sys.executable).with_name("pytest")    # the pytest of this interpreter's environment
    return str(beside) if beside.exists() else shutil.which("pytest")


@pytest.mark.skipif(_pytest_exe() is None, reason="no pytest executable beside this Python")
def test_plain_pytest_collects_every_test_file():
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS")}
    r = subprocess.run([_pytest_exe(), "--collect-only", "-q"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600)
    out = r.stdout + r.stderr
    assert "No module named 'tests'" not in out
    assert r.returncode == 0, out[-3000:]
    tail = out.strip().splitlines()[-1]
    assert "tests collected" in tail and "error" not in tail, tail
    # every test file of the suite is among the collected ones (this one too)
    assert "tests/test_pytest_config.py::test_plain_pytest_collects_every_test_file" in out
    assert "tests/render/test_play.py::" in out
