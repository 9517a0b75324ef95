"""Finding and loading stat blocks: the shipped templates under ``sim/data/pcs`` and
``sim/data/monsters/<type>`` (by name, cached), or a user's stat block file (by path, read through
:func:`sim.base.fileio.read_toml`).
"""

from __future__ import annotations

import difflib
import functools
from pathlib import Path
from typing import Iterable

from sim.base.errors import DataError, shorten
from sim.base.fileio import read_toml
from sim.rules import _data
from sim.rules.bodies import Body
from sim.rules.statblocks.derive import derive
from sim.rules.statblocks.parse import parse_source
from sim.rules.statblocks.types import BOOK_FIELDS, StatBlock


@functools.cache
def _template_index() -> dict[str, str]:
    """Template name -> path inside sim/data ("pcs/human-fighter-3.toml")."""
    root = _data.data_dir()
    out: dict[str, str] = {}
    pcs = root.joinpath("pcs")
    if pcs.is_dir():
        for f in sorted(pcs.iterdir(), key=lambda t: t.name):
            if f.name.endswith(".toml"):
                out[f.name[:-5]] = f"pcs/{f.name}"
    monsters = root.joinpath("monsters")
    if monsters.is_dir():
        for d in sorted(monsters.iterdir(), key=lambda t: t.name):
            if not d.is_dir():
                continue
            for f in sorted(d.iterdir(), key=lambda t: t.name):
                if f.name.endswith(".toml"):
                    stem = f.name[:-5]
                    if stem in out:
                        raise RuntimeError(f"two shipped stat blocks are called {shorten(stem)}")
                    out[stem] = f"monsters/{d.name}/{f.name}"
    return out


def list_templates(kind: str | None = None) -> tuple[str, ...]:
    """Names of the shipped stat blocks (PC templates, then monsters), optionally of one kind."""
    idx = _template_index()
    if kind is None:
        return tuple(idx)
    if kind == "pc":
        return tuple(k for k, p in idx.items() if p.startswith("pcs/"))
    if kind == "monster":
        return tuple(k for k, p in idx.items() if p.startswith("monsters/"))
    raise ValueError(f"kind must be 'pc' or 'monster', got {shorten(kind)}")


def template_path(name: str) -> str:
    """The data path of a shipped template; DataError listing close names if unknown."""
    idx = _template_index()
    if name in idx:
        return idx[name]
    close = difflib.get_close_matches(str(name), list(idx), n=5, cutoff=0.4)
    hint = f"did you mean {', '.join(close)}?" if close else f"shipped templates: {', '.join(idx)}"
    raise DataError(f"unknown template {shorten(name)}: {hint} (or give the path of a .toml stat block)")


def _looks_like_path(name: str | Path) -> bool:
    if isinstance(name, Path):
        return True
    s = str(name)
    return s.endswith(".toml") or "/" in s or "\\" in s


def template_in(name: str, named_in: str | Path) -> str:
    """The template a file names, found by one rule: a path (a name ending in ``.toml`` or holding
    a ``/``) is relative to the folder of the file that names it (``named_in``), an absolute path
    is itself, and anything else is a shipped stat block's name.

    >>> template_in("goblin", "maps/x.toml"), template_in("mine.toml", "maps/x.toml"), template_in("pcs/a", "maps/x.toml")
    ('goblin', 'maps/mine.toml', 'maps/pcs/a')
    """
    if _looks_like_path(name) and not Path(name).is_absolute():
        return str(Path(named_in).parent / name)
    return name


def _normalize_book(book_values: bool | Iterable[str] | None) -> frozenset[str] | None:
    if book_values is None:
        return None
    if book_values is True:
        return frozenset(BOOK_FIELDS)
    if book_values is False:
        return frozenset()
    if isinstance(book_values, str):
        book_values = [book_values]
    chosen = frozenset(book_values)
    unknown = chosen - set(BOOK_FIELDS)
    if unknown:
        raise ValueError(f"book_values: unknown fields {sorted(unknown)}; use {', '.join(BOOK_FIELDS)}")
    return chosen


def load_template(name_or_path: str | Path, *, book_values: bool | Iterable[str] | None = None) -> StatBlock:
    """The derived stat block of a shipped template ("goblin", "human-fighter-3") or of a user TOML
    file (a path). ``book_values`` overrides the file's own choice (True = every printed value
    the rules disagree with; a list = those fields). Every problem of the file is collected into
    one :class:`DataError` naming the file, the key and the fix.
    """
    book = _normalize_book(book_values)
    if _looks_like_path(name_or_path):
        path = Path(name_or_path)
        data, _text = read_toml(path)
        source = parse_source(data, where=str(path), key=path.stem)
        return derive(source, book_values=book)
    return _load_shipped(template_path(str(name_or_path)), book)


@functools.lru_cache(maxsize=256)
def _load_shipped(rel: str, book: frozenset[str] | None) -> StatBlock:
    data = _data.load(rel)
    key = rel.rsplit("/", 1)[-1][:-5]
    source = parse_source(data, where=f"sim/data/{rel}", key=key)
    return derive(source, book_values=book)


def creature_body(name_or_path: str | Path) -> tuple[str, Body]:
    """(display name, body) of a template or stat block file, for the movement tools."""
    block = load_template(name_or_path)
    return block.name, block.body
