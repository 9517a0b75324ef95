"""Reading the fields of a stat block table while collecting every problem (``Check``): each
reader checks the type and range of one key, records a complete message naming the key and
the fix, and returns a default so parsing goes on to report the other problems too.

>>> chk = Check("ogre.toml")
>>> get_int(chk, {"racial_hd": "four"}, "racial_hd", "racial_hd", default=0)
0
>>> chk.problems
["ogre.toml: racial_hd: must be a whole number, got 'four'"]
"""

from __future__ import annotations

import difflib
import math
import re
from typing import Any, Iterable, Mapping

from sim.base.errors import DataError, shorten
from sim.rules.dice import Dice
from sim.rules.sizes import Size


class Check:
    """Collects problems as complete lines: "<file>: <key>: <problem and fix>"."""

    def __init__(self, where: str):
        self.where = where
        self.problems: list[str] = []

    def bad(self, key: str, msg: str) -> None:
        self.problems.append(f"{self.where}: {key}: {msg}")

    def raise_if_any(self) -> None:
        if self.problems:
            raise DataError.collect(self.problems)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Ranges of the numbers a stat block gives (refused outside them, before any arithmetic).
MAX_WHOLE = 10_000          # any whole number without a range of its own (hit dice, bonuses, counts)
MAX_ABILITY = 100           # an ability score
MAX_LEVEL = 40              # a class level
MAX_RANKS = 100             # skill ranks
MAX_LENGTH_FT = 1000        # a body length, a speed (feet)


def is_num(v: Any, limit: float = MAX_WHOLE) -> bool:
    """A finite number of magnitude at most ``limit`` (a huge whole number is refused without
    being turned into a float, which would overflow).

    >>> is_num(2.5), is_num(10 ** 400), is_num(float("nan")), is_num(True)
    (True, False, False, False)
    """
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    if isinstance(v, int):
        return abs(v) <= limit
    return math.isfinite(v) and abs(v) <= limit


def get_int(chk: Check, table: Mapping[str, Any], key: str, label: str, *, default: int | None = None,
            minimum: int | None = None, maximum: int = MAX_WHOLE) -> int | None:
    if key not in table:
        if default is None:
            chk.bad(label, f"missing; add {key} = <whole number>")
        return default
    v = table[key]
    if not is_int(v):
        chk.bad(label, f"must be a whole number, got {shorten(v)}")
        return default
    if minimum is not None and v < minimum:
        chk.bad(label, f"must be >= {minimum}, got {shorten(v)}")
        return default
    if v > maximum:
        chk.bad(label, f"must be at most {maximum}, got {shorten(v)}")
        return default
    return v


def get_str(chk: Check, table: Mapping[str, Any], key: str, label: str, *, default: str | None = None,
         required: bool = False) -> str | None:
    if key not in table:
        if required:
            chk.bad(label, f"missing; add {key} = \"...\"")
        return default
    v = table[key]
    if not isinstance(v, str) or not v.strip():
        chk.bad(label, f"must be a non-empty string, got {shorten(v)}")
        return default
    return v.strip()


def get_bool(chk: Check, table: Mapping[str, Any], key: str, label: str, default: bool = False) -> bool:
    v = table.get(key, default)
    if not isinstance(v, bool):
        chk.bad(label, f"must be true or false, got {shorten(v)}")
        return default
    return v


def get_str_list(chk: Check, table: Mapping[str, Any], key: str, label: str) -> tuple[str, ...]:
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        chk.bad(label, f"must be a list of strings, got {shorten(v)}")
        return ()
    return tuple(x.strip() for x in v)


def get_table(chk: Check, data: Mapping[str, Any], key: str, label: str) -> dict[str, Any]:
    v = data.get(key, {})
    if not isinstance(v, dict):
        chk.bad(label, f"must be a table ([{key}]), got {shorten(v)}")
        return {}
    return v


def get_dice(chk: Check, value: Any, label: str) -> Dice | None:
    try:
        return Dice.parse(value)
    except (DataError, ValueError) as exc:
        chk.bad(label, str(exc))
        return None


def get_size(chk: Check, value: Any, label: str) -> Size | None:
    if not isinstance(value, str):
        chk.bad(label, f"must be a size name, got {shorten(value)}")
        return None
    try:
        return Size.parse(value)
    except KeyError as exc:
        chk.bad(label, exc.args[0])
        return None


def snake_key(text: str) -> str:
    """Lower case with underscores: "magical beast" -> "magical_beast"."""
    return re.sub(r"[\s-]+", "_", str(text).strip().lower())


def close_names(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.5)
    return f"did you mean {', '.join(close)}?" if close else f"use one of {', '.join(choices)}"
