"""Placing things on the screen so they do not cover each other (no pygame: rectangles are
``(x, y, w, h)`` tuples of pixels).

The labels of the tokens, and the cards over the map, are placed greedily: each in turn takes
the first of its candidate places that overlaps nothing already placed (nor, if it can, the
obstacles: the tokens themselves), inside the area given.
"""

from __future__ import annotations

from typing import Iterable, Sequence

Rect = tuple[int, int, int, int]


def overlaps(a: Rect, b: Rect) -> bool:
    """True when two rectangles share any pixel.

    >>> overlaps((0, 0, 10, 10), (9, 9, 5, 5)), overlaps((0, 0, 10, 10), (10, 0, 5, 5))
    (True, False)
    """
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def inside(a: Rect, area: Rect) -> bool:
    """True when ``a`` lies wholly in ``area``."""
    return a[0] >= area[0] and a[1] >= area[1] and a[0] + a[2] <= area[0] + area[2] and a[1] + a[3] <= area[1] + area[3]


def label_candidates(cx: int, cy: int, half: int, w: int, h: int) -> list[Rect]:
    """Where the label (``w`` x ``h``) of a token centred at ``(cx, cy)`` with radius ``half``
    may go, best first: below it, above its hp bar, right, left, below right and left, and a
    line further below or above.

    >>> label_candidates(100, 100, 10, 40, 12)[0]
    (80, 111, 40, 12)
    """
    below, above = cy + half + 1, cy - half - 10 - h
    return [
        (cx - w // 2, below, w, h),
        (cx - w // 2, above, w, h),
        (cx + half + 3, cy - h // 2, w, h),
        (cx - half - 3 - w, cy - h // 2, w, h),
        (cx + half // 2, below, w, h),
        (cx - half // 2 - w, below, w, h),
        (cx - w // 2, below + h, w, h),
        (cx - w // 2, above - h, w, h),
    ]


def place(candidates: Sequence[Rect], taken: Iterable[Rect], obstacles: Iterable[Rect] = (),
          area: Rect | None = None, *, over_obstacles: bool = True) -> Rect | None:
    """The first candidate inside ``area`` that overlaps nothing ``taken`` and no obstacle; else
    (with ``over_obstacles``) the first that overlaps nothing taken; else None.

    >>> place([(0, 0, 10, 10), (20, 0, 10, 10)], taken=[(5, 5, 2, 2)])
    (20, 0, 10, 10)
    >>> place([(0, 0, 10, 10)], taken=[(5, 5, 2, 2)]) is None
    True
    """
    taken = list(taken)
    obstacles = list(obstacles)
    ok = [c for c in candidates if (area is None or inside(c, area)) and not any(overlaps(c, t) for t in taken)]
    for c in ok:
        if not any(overlaps(c, o) for o in obstacles):
            return c
    return ok[0] if ok and over_obstacles else None
