"""Floor squares that touch only at a corner between two rock squares (RULES §6.2).

No diagonal move passes a rock corner, so two such squares are *not* joined for anyone, though
a map drawn by hand easily looks as if they were. ``cavesim validate`` warns about them (with
the fix: open one of the two orthogonal squares), ``cavesim analyze`` lists them and the
renderer draws no passage through the corner.

>>> import numpy as np
>>> rock = np.array([[True, True, True, True],
...                  [True, False, True, True],
...                  [True, True, False, True],
...                  [True, True, True, True]])
>>> corner_links(rock)
[((1, 1), (2, 2))]
"""

from __future__ import annotations

import numpy as np


def corner_links(rock: np.ndarray) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of floor squares ``((x, y), (x', y'))`` that meet only diagonally, with both squares
    between them rock; the upper square first, in reading order."""
    rock = np.asarray(rock, dtype=bool)
    floor = ~rock
    out = []
    if rock.shape[0] < 2 or rock.shape[1] < 2:
        return out
    a, b = floor[:-1, :-1], floor[1:, 1:]       # "\" diagonal: (x, y) and (x+1, y+1)
    c, d = floor[:-1, 1:], floor[1:, :-1]       # "/" diagonal: (x+1, y) and (x, y+1)
    down = a & b & ~c & ~d
    up = c & d & ~a & ~b
    for y, x in zip(*np.nonzero(down)):
        out.append(((int(x), int(y)), (int(x) + 1, int(y) + 1)))
    for y, x in zip(*np.nonzero(up)):
        out.append(((int(x) + 1, int(y)), (int(x), int(y) + 1)))
    out.sort(key=lambda p: (p[0][1], p[0][0], p[1][1], p[1][0]))
    return out


def corner_warning(where: str, links) -> str:
    """One line for ``cavesim validate``: the squares and the fix."""
    pairs = ", ".join(f"({a[0]},{a[1]})-({b[0]},{b[1]})" for a, b in links[:8])
    more = f" and {len(links) - 8} more" if len(links) > 8 else ""
    (ax, ay), (bx, by) = links[0]
    return (f"{where}: warning: {len(links)} pair(s) of floor squares touch only at a corner between two "
            f"rock squares: {pairs}{more}; no one passes a rock corner (RULES §6.2), so they are not "
            f"joined; to join them open one of the two squares between them, e.g. ({bx},{ay}) or ({ax},{by})")
