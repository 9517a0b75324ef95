"""Positions and array indices (STYLE habit 4): :class:`Pos`, the one position type the modules
annotate with, and the conversions.

Everywhere at a boundary (files, CLI, JSON, events) a position is ``(x, y)`` = (column, row),
origin top-left. numpy arrays are indexed ``[row, col]``. Convert with these helpers; much of
the fight engine and the crawl still index ``grid[y, x]`` inline, which is the same swap.

>>> ij((3, 1))
(1, 3)
>>> xy((1, 3))
(3, 1)
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sim.base.errors import UsageError


class Pos(NamedTuple):
    """A square position ``(x, y)``: x is the column, y the row."""

    x: int
    y: int

    @property
    def ij(self) -> tuple[int, int]:
        """The ``[row, col]`` index of this square."""
        return (self.y, self.x)


def ij(pos: tuple[int, int]) -> tuple[int, int]:
    """``(x, y)`` -> ``(row, col)``."""
    x, y = pos
    return (int(y), int(x))


def xy(index: tuple[int, int]) -> tuple[int, int]:
    """``(row, col)`` -> ``(x, y)``."""
    r, c = index
    return (int(c), int(r))


def parse_xy(text: str, *, what: str = "position") -> tuple[int, int]:
    """Parse ``"X,Y"`` from the command line.

    >>> parse_xy("4,7")
    (4, 7)
    >>> parse_xy("²,1")
    Traceback (most recent call last):
    ...
    sim.base.errors.UsageError: position '²,1' is not a square: write it as X,Y with whole numbers, e.g. 3,4
    """
    m = re.fullmatch(r"\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*", text)
    if not m:
        shown = repr(text) if len(text) <= 40 else repr(text[:37]) + "..."
        raise UsageError(f"{what} {shown} is not a square: write it as X,Y with whole numbers, e.g. 3,4")
    return (int(m.group(1)), int(m.group(2)))


def inner_square(squares) -> Pos:
    """The square of a body where what it swallowed or engulfed is drawn: the one nearest its
    middle (docs/rules.md §11.13)."""
    mx = sum(q[0] for q in squares) / len(squares)
    my = sum(q[1] for q in squares) / len(squares)
    return min(squares, key=lambda q: ((q[0] - mx) ** 2 + (q[1] - my) ** 2, q[1], q[0]))
