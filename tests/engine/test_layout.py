"""The engine stays a house a newcomer can find their way in: no engine module over 800 lines,
no engine function over 120 (README "How the code is laid out")."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "sim" / "engine"


def test_no_engine_module_over_800_lines():
    long = {p.name: n for p in ENGINE.glob("*.py") if (n := len(p.read_text().splitlines())) > 800}
    assert not long, long


def test_no_engine_function_over_120_lines():
    long = []
    for p in ENGINE.glob("*.py"):
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > 120:
                long.append(f"{p.name}:{n.lineno} {n.name} ({n.end_lineno - n.lineno + 1} lines)")
    assert not long, long


def test_the_engine_package_file_imports_nothing():
    """Importing one rule module must not load the turn loop (sim/engine/__init__.py is a docstring)."""
    tree = ast.parse((ENGINE / "__init__.py").read_text())
    assert all(isinstance(n, ast.Expr) for n in tree.body)
