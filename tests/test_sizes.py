"""Sizes a reader can hold in mind (issue 33 item 5): every Python module of the project at most
800 lines and every function or method at most 120, everywhere -- ``sim/``, ``tests/``,
``benchmarks/`` and ``docs/*.py``. A module over the limit is split by concern (a module per
query, per format, per section), not cut at line 800.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 120


def project_files() -> list[Path]:
    files = [p for d in ("sim", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")]
    return sorted(files + list((ROOT / "docs").glob("*.py")))


def oversize(path: Path, root: Path = ROOT) -> list[str]:
    """Every limit one file breaks, each as ``file[:line]: what (n lines, at most m)``."""
    source = path.read_text()
    rel = path.relative_to(root).as_posix()
    out = []
    n = len(source.splitlines())
    if n > MAX_MODULE_LINES:
        out.append(f"{rel}: module of {n} lines (at most {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(source, filename=rel)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                out.append(f"{rel}:{node.lineno}: function {node.name} of {length} lines "
                           f"(at most {MAX_FUNCTION_LINES})")
    return out


def test_every_module_and_function_is_within_the_size_limits():
    bad = [msg for p in project_files() for msg in oversize(p)]
    assert not bad, "split these by concern (a module per query, format or section):\n" + "\n".join(bad)


def test_the_size_check_counts_lines_of_modules_and_functions(tmp_path):
    """The checker itself: a 121-line function and an 801-line module are caught, a 120-line one is not."""
    body = "    x = 0\n" * 119
    ok = tmp_path / "ok.py"
    ok.write_text("def f():\n" + body)
    long_fn = tmp_path / "long_fn.py"
    long_fn.write_text("def f():\n" + body + "    return x\n")
    long_mod = tmp_path / "long_mod.py"
    long_mod.write_text("x = 0\n" * 801)
    assert oversize(ok, tmp_path) == []
    assert oversize(long_fn, tmp_path) == ["long_fn.py:1: function f of 121 lines (at most 120)"]
    assert oversize(long_mod, tmp_path) == ["long_mod.py: module of 801 lines (at most 800)"]
