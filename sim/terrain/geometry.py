"""Grid geometry for combat: 5-10-5 distances, reach and threatened squares, lines and cover,
flanking, cones and bursts (SRD Combat; RULES §3.1, §6.2, §6.6, §8).

Continuous coordinates are in squares with the origin at the top-left corner of square
``(0, 0)``: square ``(x, y)`` spans ``[x, x+1] x [y, y+1]`` and its centre is ``(x+0.5, y+0.5)``.
Lines are blocked by the *interior* of rock squares (a line along a wall, or through a corner
point, is not blocked), and by walls between squares (``edges``, docs/rules.md §6.8: a line
meeting a walled edge between its end points is blocked; lines between spaces run between their
corners drawn a hair inside each square, so creatures either side of such a wall never see each
other through a corner they share).

>>> distance_ft((0, 0), (3, 2))      # 3 squares, 2 of them diagonal: 5 + 10 + 5
20
>>> sorted(threatened({(5, 5)}, 5))[:3]
[(4, 4), (4, 5), (4, 6)]
>>> import numpy as np
>>> rock = np.zeros((5, 5), bool); rock[2, 2] = True
>>> line_clear(rock, (0.5, 2.5), (4.5, 2.5)), line_clear(rock, (0.5, 0.5), (4.5, 0.5))
(False, True)
"""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from sim.base.coords import Pos
from sim.terrain.edges import EdgeWalls, nudged_corners, segment_clear

EPS = 1e-9


def distance_squares(a: Pos, b: Pos) -> int:
    """Squares between two squares counting diagonals 1, 2, 1, 2... (RULES §6.2)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def distance_squares_grid(dx, dy):
    """:func:`distance_squares` over arrays of x and y offsets (any sign), elementwise: the
    5-10-5 rule once for the vectorised searches (charge ends, attack squares).

    >>> distance_squares_grid(np.array([0, 1, 2, 3]), np.array([0, 1, 2, 1]))
    array([0, 1, 3, 3])
    """
    ax, ay = np.abs(dx), np.abs(dy)
    return np.maximum(ax, ay) + np.minimum(ax, ay) // 2


def distance_ft(a: Pos, b: Pos) -> int:
    return 5 * distance_squares(a, b)


def footprint_distance_ft(a: Iterable[Pos], b: Iterable[Pos]) -> int:
    """Nearest 5-10-5 distance between two sets of squares (the spaces of two creatures)."""
    bs = list(b)
    return min(distance_ft(p, q) for p in a for q in bs)


def threatened(squares: Iterable[Pos], reach_ft: int, *, reach_weapon: bool = False,
               adjacent_too: bool = False) -> set[Pos]:
    """Squares a creature occupying ``squares`` threatens with ``reach_ft`` (SRD: all squares within
    its reach, 5-10-5 counted). A reach weapon threatens at its reach but not adjacent squares,
    unless ``adjacent_too`` (spiked chain, or natural reach). Reach 0 threatens nothing."""
    sq = set(squares)
    if reach_ft <= 0:
        return set()
    r = reach_ft // 5
    out: set[Pos] = set()
    for (x, y) in sq:
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                q = (x + dx, y + dy)
                if q in sq:
                    continue
                d = footprint_distance_ft([q], sq)
                if d > reach_ft:
                    continue
                if reach_weapon and not adjacent_too and d <= 5:
                    continue
                out.add(q)
    return out


def squares_on_segment(p0, p1) -> list[Pos]:
    """Every square whose interior the segment crosses (continuous coordinates), in order.

    The crossings of the grid lines cut the segment into pieces that each lie in one square;
    a piece of zero length (a corner touched) or lying on a grid line (along an edge) crosses
    no interior.

    >>> squares_on_segment((0.5, 0.5), (2.5, 1.5))
    [(0, 0), (1, 0), (1, 1), (2, 1)]
    >>> squares_on_segment((1, 0), (1, 3))   # along an edge: no interior crossed
    []
    """
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    ts = [0.0, 1.0]
    if abs(dx) > EPS:
        lo, hi = sorted((x0, x1))
        ts.extend((k - x0) / dx for k in range(int(math.ceil(lo)), int(math.floor(hi)) + 1))
    if abs(dy) > EPS:
        lo, hi = sorted((y0, y1))
        ts.extend((k - y0) / dy for k in range(int(math.ceil(lo)), int(math.floor(hi)) + 1))
    ts = sorted(t for t in ts if -EPS <= t <= 1 + EPS)
    out: list[Pos] = []
    for a, b in zip(ts, ts[1:]):
        if b - a <= 1e-12:
            continue
        m = (a + b) / 2
        mx, my = x0 + dx * m, y0 + dy * m
        if abs(mx - round(mx)) < 1e-9 or abs(my - round(my)) < 1e-9:
            continue  # running along a grid line
        sq = (int(math.floor(mx)), int(math.floor(my)))
        if not out or out[-1] != sq:
            out.append(sq)
    return out


def line_clear(rock: np.ndarray, p0, p1, *, blockers: set[Pos] | None = None, ignore: set[Pos] | None = None,
               edges: EdgeWalls | None = None) -> bool:
    """True when the segment crosses no rock square (and no square in ``blockers``, ``ignore``
    excepted) and meets no walled edge between its end points (``edges``, docs/rules.md §6.8).
    ``rock`` is ``[row, col]``; off-map squares count as rock."""
    rows, cols = rock.shape
    for (x, y) in squares_on_segment(p0, p1):
        if ignore and (x, y) in ignore:
            continue
        if not (0 <= x < cols and 0 <= y < rows) or rock[y, x]:
            return False
        if blockers and (x, y) in blockers:
            return False
    return not _along_a_seam(rock, p0, p1) and segment_clear(edges, p0, p1)


def _along_a_seam(rock: np.ndarray, p0, p1) -> bool:
    """Whether the segment runs along a grid line between two rock squares somewhere: through
    the inside of a wall, though it crosses no square's interior (a line along the face of a
    wall, rock on one side only, is clear)."""
    (x0, y0), (x1, y1) = p0, p1
    rows, cols = rock.shape

    def solid(x: int, y: int) -> bool:
        return not (0 <= x < cols and 0 <= y < rows) or bool(rock[y, x])

    if abs(y1 - y0) < EPS and abs(y0 - round(y0)) < EPS:  # along the horizontal line y = y0
        y = int(round(y0))
        lo, hi = sorted((x0, x1))
        return any(solid(x, y - 1) and solid(x, y) for x in range(int(math.floor(lo)), int(math.ceil(hi)))
                   if min(hi, x + 1) - max(lo, x) > EPS)
    if abs(x1 - x0) < EPS and abs(x0 - round(x0)) < EPS:  # along the vertical line x = x0
        x = int(round(x0))
        lo, hi = sorted((y0, y1))
        return any(solid(x - 1, y) and solid(x, y) for y in range(int(math.floor(lo)), int(math.ceil(hi)))
                   if min(hi, y + 1) - max(lo, y) > EPS)
    return False


def _corners(squares: Iterable[Pos]) -> set[tuple[float, float]]:
    out = set()
    for x, y in squares:
        out.update({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)})
    return out


def _corner_pairs(squares: Iterable[Pos]) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each corner of each square with its twin drawn a hair inside that square (the lines
    against walls between squares, :func:`sim.terrain.edges.nudged_corners`)."""
    sq = list(squares)
    exact = [(x + dx, y + dy) for x, y in sq for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1))]
    return list(zip(exact, nudged_corners(sq)))


def center(squares: Iterable[Pos]) -> tuple[float, float]:
    sq = list(squares)
    return (sum(x for x, _ in sq) / len(sq) + 0.5, sum(y for _, y in sq) / len(sq) + 0.5)


def cover(rock: np.ndarray, attacker: Iterable[Pos], target: Iterable[Pos], *,
          creatures: set[Pos] | None = None, edges: EdgeWalls | None = None) -> bool:
    """Does the target have cover (+4 AC) against the attacker? SRD: choose a corner of the
    attacker's square; if any line from it to any corner of the target's square is blocked (rock,
    a wall between squares, or a square holding a creature, for ranged attacks), the target has
    cover -- the attacker picks its best corner. Squares of the attacker and target themselves
    never block.

    >>> wall = EdgeWalls.of([[False, True, False]] * 2, None, (2, 3))     # x = 2, both rows
    >>> cover(np.zeros((2, 3), bool), [(0, 0)], [(2, 1)]), cover(np.zeros((2, 3), bool), [(0, 0)], [(2, 1)], edges=wall)
    (False, True)
    """
    a = list(attacker)
    t = list(target)
    own = set(a) | set(t)
    if edges is None:
        tc = _corners(t)
        for ac in _corners(a):
            if all(line_clear(rock, ac, c, blockers=creatures, ignore=own) for c in tc):
                return False
        return True
    cw = edges.corners()
    tp = _corner_pairs(t)
    for ac, an in _corner_pairs(a):
        if all(line_clear(rock, ac, c, blockers=creatures, ignore=own) and segment_clear(edges, an, cn, cw)
               for c, cn in tp):
            return False
    return True


def line_of_effect(rock: np.ndarray, a: Iterable[Pos], b: Iterable[Pos], *, edges: EdgeWalls | None = None) -> bool:
    """A clear line from some corner of ``a`` to some corner of ``b`` (spells, sight); with
    ``edges``, one that meets no wall between squares either (docs/rules.md §6.8).

    >>> wall = EdgeWalls.of([[True, False]], None, (1, 2))               # between (0, 0) and (1, 0)
    >>> line_of_effect(np.zeros((1, 2), bool), [(0, 0)], [(1, 0)], edges=wall)
    False
    """
    own = set(a) | set(b)
    if edges is None:
        tc = _corners(b)
        return any(line_clear(rock, ac, c, ignore=own) for ac in _corners(a) for c in tc)
    cw = edges.corners()
    bp = _corner_pairs(b)
    return any(line_clear(rock, ac, c, ignore=own) and segment_clear(edges, an, cn, cw)
               for ac, an in _corner_pairs(a) for c, cn in bp)


def flanking(attacker: Iterable[Pos], ally: Iterable[Pos], target: Iterable[Pos]) -> bool:
    """SRD flanking: the line between the centres of the attacker's and the ally's spaces passes
    through opposite borders (or opposite corners) of the target's space."""
    t = list(target)
    x0 = min(x for x, _ in t)
    x1 = max(x for x, _ in t) + 1
    y0 = min(y for _, y in t)
    y1 = max(y for _, y in t) + 1
    (px, py), (qx, qy) = center(attacker), center(ally)
    dx, dy = qx - px, qy - py
    t0, t1 = 0.0, 1.0
    for p_, q_ in ((-dx, px - x0), (dx, x1 - px), (-dy, py - y0), (dy, y1 - py)):
        if abs(p_) < 1e-15:
            if q_ < 0:
                return False
            continue
        r = q_ / p_
        if p_ < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
    if t1 - t0 <= EPS:
        return False

    def borders(tt: float) -> set[str]:
        x, y = px + dx * tt, py + dy * tt
        out = set()
        if abs(x - x0) < 1e-6:
            out.add("left")
        if abs(x - x1) < 1e-6:
            out.add("right")
        if abs(y - y0) < 1e-6:
            out.add("top")
        if abs(y - y1) < 1e-6:
            out.add("bottom")
        return out

    a, b = borders(t0), borders(t1)
    return ("left" in a and "right" in b) or ("right" in a and "left" in b) or \
        ("top" in a and "bottom" in b) or ("bottom" in a and "top" in b)


def burst(center_point: tuple[float, float], radius_ft: int, shape: tuple[int, int]) -> list[Pos]:
    """Squares whose centre lies within ``radius_ft`` of a grid intersection, 5-10-5 counted from
    the intersection (a 10-ft-radius burst covers a 4 x 4 block with the corners rounded)."""
    cx, cy = center_point
    rows, cols = shape
    r = radius_ft / 5
    out = []
    for y in range(max(0, int(cy - r) - 1), min(rows, int(cy + r) + 1)):
        for x in range(max(0, int(cx - r) - 1), min(cols, int(cx + r) + 1)):
            d = _d5105(abs(x + 0.5 - cx) + 0.5, abs(y + 0.5 - cy) + 0.5)
            if d <= r + EPS:
                out.append((x, y))
    return out


def _d5105(dx: float, dy: float) -> float:
    """5-10-5 distance in squares between an intersection and the far corner of a square."""
    a, b = int(round(dx)), int(round(dy))
    return max(a, b) + min(a, b) // 2


def cone(origin: tuple[float, float], direction: tuple[int, int], length_ft: int, rock: np.ndarray, *,
         edges: EdgeWalls | None = None) -> list[Pos]:
    """Squares of a cone (a quarter circle) from a grid intersection ``origin`` towards one of the
    eight directions, ``length_ft`` long (5-10-5 counted), stopped by rock: a square is in the cone
    if its centre is within 45 degrees of the direction, within reach, and has line of effect from
    the origin (RULES §8: a cone stops at rock, and at walls between squares, §6.8)."""
    rows, cols = rock.shape
    ox, oy = origin
    ddx, ddy = direction
    norm = math.hypot(ddx, ddy)
    ux, uy = ddx / norm, ddy / norm
    n = length_ft // 5
    out = []
    for y in range(max(0, int(oy) - n - 1), min(rows, int(oy) + n + 1)):
        for x in range(max(0, int(ox) - n - 1), min(cols, int(ox) + n + 1)):
            if rock[y, x]:
                continue
            vx, vy = x + 0.5 - ox, y + 0.5 - oy
            dist = math.hypot(vx, vy)
            if dist < EPS:
                continue
            cosang = (vx * ux + vy * uy) / dist
            if cosang < math.cos(math.radians(45)) - 1e-9:
                continue
            if _d5105(abs(vx) + 0.5, abs(vy) + 0.5) > n:
                continue
            if not line_clear(rock, (ox, oy), (x + 0.5, y + 0.5), ignore={(x, y)}, edges=edges):
                continue
            out.append((x, y))
    return out
