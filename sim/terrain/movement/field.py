"""The movement field: what every square means for one mover (computed once, then queried).

A creature's position is its *reference square*: the top-left square of its space. A creature
whose space is k x k squares (Large: 2, Huge: 3, ...) stands on the k x k block below and right
of it when that block is open (RULES §2.7: it moves and fights by the worst category among the
squares it occupies). In a passage narrower than its space it squeezes into a line along the
passage (PHB placement, §2.6): it then occupies the reference square and the squares it came
through, and the width it gets is no more than the passage's squares allow (a Large creature in a
one-square passage has at most 5 ft, so at best Narrow).

Modes of a reference square: WALK (Clear / Narrow or Low / Narrow and Low: cost multiplier 1, 2
or 4, x2 again on difficult terrain, §6.3, §7.35), CRAWL (one square per move action, prone,
§2.4; crawling anywhere takes as many move actions per square as the square's multiplier), AWKWARD (Escape Artist DC 15, a move action per try), TIGHT (DC 30, a full-round action
per try, §7.30), BLOCKED.

>>> from sim.terrain.grid import CaveGrid
>>> from sim.rules.bodies import body_for
>>> from sim.terrain.movement.costs import Mover
>>> g = CaveGrid.from_arrays([[0, 0, 0, 0], [0, 10, 4, 0], [0, 5, 2, 0], [0, 0, 0, 0]],
...                          [[0, 0, 0, 0], [0, 10, 10, 0], [0, 2.5, 10, 0], [0, 0, 0, 0]])
>>> f = move_field(g, Mover(body_for("medium")))
>>> f.mode[1:3, 1:3].tolist(), f.mult[1:3, 1:3].tolist()
([[1, 1], [2, 3]], [[1, 2], [1, 0]])
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from sim.rules.categories import Category, cost_multiplier_lut
from sim.terrain.classify import classify_arrays
from sim.terrain.edges import EdgeWalls
from sim.terrain.grid import CaveGrid
from sim.terrain.movement.costs import Mover
from sim.terrain.movement.kernel import DIRS, Scratch, cell_words, direction_masks

BLOCKED, WALK, CRAWL, AWKWARD, TIGHT = 0, 1, 2, 3, 4
MODE_NAMES = ("blocked", "walk", "crawl", "awkward", "tight")

_MODE_OF_CATEGORY = np.array([WALK, WALK, WALK, CRAWL, AWKWARD, TIGHT, BLOCKED], dtype=np.uint8)


@dataclass(frozen=True, slots=True, eq=False)
class MoveField:
    """Read-only per-reference-square arrays for one mover on one grid (``[row, col]``)."""

    grid: CaveGrid
    mover: Mover
    k: int                    # side of the creature's block in squares
    category: np.ndarray      # uint8: worst category of the squares occupied at this reference
    mode: np.ndarray          # uint8: BLOCKED / WALK / CRAWL / AWKWARD / TIGHT
    mult: np.ndarray          # uint8: cost multiplier (WALK and CRAWL squares), 0 elsewhere
    prone: np.ndarray         # bool: the creature lies prone here (crawl; awkward/tight when low)
    corner: np.ndarray        # bool: blocks a diagonal move past it (rock; invalid spot for k > 1)
    squeezed: np.ndarray      # bool: a k > 1 creature stands here squeezed into a line
    difficult: np.ndarray     # bool: difficult terrain under the footprint (ignored by fliers)
    dirs: np.ndarray          # uint8: bit d = the move in kernel.DIRS[d] is allowed from here
    words: np.ndarray         # uint16, flat (R*C): the above packed for the search (kernel.cell_words)
    scratch: Scratch = field(init=False, repr=False)  # work arrays the searches reuse (kernel.Scratch)

    def __post_init__(self):
        object.__setattr__(self, "scratch", Scratch(self.mode.size))

    @property
    def shape(self) -> tuple[int, int]:
        return self.mode.shape  # type: ignore[return-value]

    def can_stand(self, pos: tuple[int, int]) -> bool:
        x, y = pos
        return 0 <= y < self.shape[0] and 0 <= x < self.shape[1] and self.mode[y, x] != BLOCKED

    def occupied(self, pos: tuple[int, int], trail: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        """Squares ``(x, y)`` a creature at reference ``pos`` covers. Squeezed into a line, it
        covers ``pos`` and up to k-1 squares of ``trail`` (the squares it came through, most
        recent last); without a trail, the open neighbours along the passage."""
        x, y = pos
        if self.k == 1:
            return [pos]
        if not self.squeezed[y, x]:
            return [(x + i, y + j) for j in range(self.k) for i in range(self.k)]
        out = [pos]
        for sq in reversed(trail or []):
            if len(out) == self.k:
                break
            if sq not in out and max(abs(sq[0] - out[-1][0]), abs(sq[1] - out[-1][1])) == 1:
                out.append(sq)
        open_ = self.grid_open
        while len(out) < self.k:
            px, py = out[-1]
            for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                q = (px + dx, py + dy)
                if (q not in out and 0 <= q[1] < open_.shape[0] and 0 <= q[0] < open_.shape[1]
                        and open_[q[1], q[0]]):
                    out.append(q)
                    break
            else:
                break
        return out

    @property
    def grid_open(self) -> np.ndarray:
        return ~self.grid.rock


def _window(a: np.ndarray, k: int, fill) -> np.ndarray:
    """``(rows, cols, k, k)`` view of the k x k block whose top-left is each square."""
    pad = np.pad(a, ((0, k - 1), (0, k - 1)), constant_values=fill)
    return sliding_window_view(pad, (k, k))


def _contained(fit: np.ndarray, j: int) -> np.ndarray:
    """Squares covered by at least one j x j block whose top-left is marked in ``fit``."""
    pad = np.pad(fit, ((j - 1, 0), (j - 1, 0)), constant_values=False)
    return sliding_window_view(pad, (j, j)).any(axis=(2, 3))


def _freeze(**arrays) -> dict:
    for a in arrays.values():
        a.flags.writeable = False
    return arrays


def edge_masks(edges: EdgeWalls) -> np.ndarray:
    """uint8 ``[row, col]``: bit d set when the step in ``DIRS[d]`` from the square crosses no
    walled edge, nor (diagonals) passes a corner one touches (§6.2, §6.8). The searches read
    it in the direction masks, so a map without edge walls pays nothing."""
    out = np.zeros(edges.shape, dtype=np.uint8)
    for d, (dr, dc) in enumerate(DIRS):
        out |= edges.step_open(dr, dc).astype(np.uint8) << d
    return out


def move_field(grid: CaveGrid, mover: Mover) -> MoveField:
    body = mover.body
    cats = classify_arrays(grid.width_ft, grid.height_ft, grid.rock, body)
    open_ = cats < Category.IMPASSABLE
    k = 1 if mover.is_swarm else body.size.squares
    squeezed = np.zeros(grid.shape, dtype=bool)
    difficult = grid.difficult.copy()
    low_ceiling = grid.height_ft < body.height / 2
    edges = grid.edges
    if k == 1:
        fcat = cats
        corner = grid.rock.copy()
    else:
        fit = _window(open_, k, False).all(axis=(2, 3))
        if edges is not None:   # §6.8: a body never stands across a wall between squares
            fit &= ~edges.straddled(k)
        block_cat = _window(cats, k, Category.IMPASSABLE).max(axis=(2, 3))
        block_diff = _window(grid.difficult, k, False).any(axis=(2, 3))
        block_low = _window(low_ceiling, k, False).any(axis=(2, 3))
        # largest j < k such that a j x j open block covers the square (the passage's width in squares)
        jmax = np.zeros(grid.shape, dtype=np.int64)
        for j in range(1, k):
            fj = _window(open_, j, False).all(axis=(2, 3))
            if edges is not None:
                fj &= ~edges.straddled(j)
            jmax[_contained(fj, j)] = j
        in_k_block = _contained(fit, k)
        jmax[in_k_block] = k
        # wherever its block does not fit, it may squeeze into a line (PHB placement, §2.6) -- also
        # beside open ground, so it can step from the open into the mouth of a narrow passage
        squeezed = open_ & ~fit
        w_eff = np.where(squeezed, np.minimum(grid.width_ft, 5.0 * jmax), grid.width_ft)
        cat_sq = classify_arrays(w_eff, grid.height_ft, grid.rock, body)
        fcat = np.where(fit, block_cat, np.where(squeezed, cat_sq, np.uint8(Category.IMPASSABLE))).astype(np.uint8)
        difficult = np.where(fit, block_diff, grid.difficult & squeezed)
        low_ceiling = np.where(fit, block_low, low_ceiling)
        corner = fcat >= Category.IMPASSABLE
    mode = _MODE_OF_CATEGORY[fcat]
    if mover.is_swarm:  # §7.25: swarms never pay constricted costs; only the opening limits them
        mode = np.where(fcat == Category.CLEAR, np.uint8(WALK), np.uint8(BLOCKED)).astype(np.uint8)
    lut = cost_multiplier_lut().astype(np.uint8).copy()
    if mover.tunnelrunner:  # §2.8: no slowdown in narrow-or-low; narrow-and-low counts as one of the two
        lut[Category.NARROW_OR_LOW] = 1
        lut[Category.NARROW_AND_LOW] = 2
    # walking multiplier (WALK squares); crawling costs that many move actions per square, and a
    # crawl square 1 (2 over rubble): half speed applies to any movement (§2.4, §6.3)
    mult = np.where(mode == WALK, lut[fcat], np.where(mode == CRAWL, 1, 0)).astype(np.uint8)
    if not mover.flying:
        mult = np.where(((mode == WALK) | (mode == CRAWL)) & difficult, mult * 2, mult).astype(np.uint8)
    prone = (mode == CRAWL) | (((mode == AWKWARD) | (mode == TIGHT)) & low_ceiling)
    dirs = direction_masks(mode, corner)
    if edges is not None:
        dirs = dirs & edge_masks(edges)
    arrays = _freeze(category=np.ascontiguousarray(fcat, dtype=np.uint8), mode=np.ascontiguousarray(mode),
                     mult=np.ascontiguousarray(mult), prone=np.ascontiguousarray(prone),
                     corner=np.ascontiguousarray(corner), squeezed=np.ascontiguousarray(squeezed),
                     difficult=np.ascontiguousarray(difficult & ~mover.flying),
                     dirs=dirs, words=cell_words(mode, mult, prone, dirs).ravel())
    return MoveField(grid=grid, mover=mover, k=k, **arrays)
