"""The crawl gives ids and numbers, never sentences (issue 33 item 6): every sentence a user reads
about a crawl is made in the story (sim.story.crawlwords).

Stated crisply: in the modules of ``sim/crawl``, no string -- a literal, or the literal text of an
f-string -- holds two words in a row (letters, a space, letters), apart from docstrings (they
explain the code) and the message of an exception raised (a refused input is reported where it is
found, as ``DataError`` is everywhere: a crawl file with no route is an error, not the crawl's
output). Ids (``single_file``, ``armor_off``) and keys pass; ``"fell in the fight"`` does not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CRAWL = Path(__file__).resolve().parents[2] / "sim" / "crawl"
TWO_WORDS = re.compile(r"[A-Za-z]+ [A-Za-z]+")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (a module's, a class's, a function's)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def sentences(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string in ``source`` that holds two words in a row, docstrings and
    raised messages apart."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise):
            skip |= {id(n) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if TWO_WORDS.search(node.value):
            out.append((node.lineno, node.value))
    return out


def test_the_scanner_finds_a_sentence_and_lets_ids_docstrings_and_errors_pass():
    code = '''
"""A module docstring with words."""
KIND = "single_file"
def f(who, spec):
    """Words explaining f."""
    if not who:
        raise ValueError(f"{spec}: no route for this party")
    return {"what": "left_behind", "reason": f"{who} fell in the fight"}
'''
    assert sentences(code) == [(8, " fell in the fight")]


@pytest.mark.parametrize("path", sorted(CRAWL.glob("*.py")), ids=lambda p: p.name)
def test_the_crawl_makes_no_sentence(path):
    found = sentences(path.read_text())
    assert not found, f"{path.name}: sentences belong in sim.story.crawlwords: {found}"
