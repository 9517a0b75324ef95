"""The one place where positions and array indices meet (STYLE habit 4).

Everywhere at a boundary (files, CLI, JSON, events) a position is ``(x, y)`` = (column, row),
origin top-left. numpy arrays are indexed ``[row, col]``. Convert only with these helpers.

>>> ij((3, 1))
(1, 3)
>>> xy((1, 3))
(3, 1)
"""

from __future__ import annotations

from typing import NamedTuple

from sim.errors import UsageError


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
    """
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.lstrip("-").isdigit() for p in parts):
        raise UsageError(f"{what} {text!r} is not a square: write it as X,Y with whole numbers, e.g. 3,4")
    return (int(parts[0]), int(parts[1]))
