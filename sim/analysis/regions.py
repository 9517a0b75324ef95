"""Connected regions: which squares a body can get to from which, by the movement engine's moves.

Two squares are joined when the movement engine lets the creature step from one to the other
(RULES §6.2: the eight neighbours, no diagonal past a rock corner, none across a wall between
squares, docs/rules.md §6.8; for a Large or bigger creature,
its reference squares and their footprints, :mod:`sim.terrain.movement.field`). A square counts when the
creature can stand in it *and* get through it: an Awkward Space or a Tight Squeeze only if its
Escape Artist check can succeed at all (taking 20 out of combat, or some d20 roll; RULES §5.3).

Labels are numbered 1, 2, ... in reading order of each region's first square (top row first);
0 marks squares the creature cannot use.

>>> from sim.terrain.grid import CaveGrid
>>> from sim.terrain.movement import Mover, move_field
>>> from sim.rules.bodies import body_for
>>> g = CaveGrid.from_arrays([[10, 10, 0, 10], [10, 10, 0, 10], [10, 0.4, 0, 10]],
...                          [[10, 10, 0, 10], [10, 10, 0, 10], [10, 10, 0, 10]])
>>> region_labels(move_field(g, Mover(body_for("medium")))).tolist()
[[1, 1, 0, 2], [1, 1, 0, 2], [1, 0, 0, 2]]
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from sim.rules.categories import Category, effects
from sim.terrain.edges import EdgeWalls
from sim.terrain.movement.field import AWKWARD, BLOCKED, CRAWL, TIGHT, WALK, MoveField, edge_masks
from sim.terrain.movement.kernel import DIRS, direction_masks


def usable(field: MoveField) -> np.ndarray:
    """Squares the mover can stand in and pass: walk and crawl squares, and Escape Artist
    squares whose check can succeed (guaranteed by taking 10/20, or on some roll)."""
    mode = field.mode
    out = (mode == WALK) | (mode == CRAWL)
    for m, cat in ((AWKWARD, Category.AWKWARD), (TIGHT, Category.TIGHT_SQUEEZE)):
        t = field.mover.tries(int(effects(cat).escape_dc))
        if t.guaranteed is not None or t.successes > 0:
            out |= mode == m
    return out


def step_edges(dirs: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat ``(from, to)`` index pairs of the allowed one-square steps between ``ok`` squares
    (``dirs``: per-square direction bits in :data:`sim.terrain.movement.kernel.DIRS` order)."""
    rows, cols = ok.shape
    src, dst = [], []
    idx = np.arange(rows * cols).reshape(rows, cols)
    for d, (dr, dc) in enumerate(DIRS):
        allowed = ((dirs >> d) & 1).astype(bool) & ok
        r0, r1 = max(0, -dr), rows - max(0, dr)
        c0, c1 = max(0, -dc), cols - max(0, dc)
        a = allowed[r0:r1, c0:c1] & ok[r0 + dr:r1 + dr, c0 + dc:c1 + dc]
        src.append(idx[r0:r1, c0:c1][a])
        dst.append(idx[r0 + dr:r1 + dr, c0 + dc:c1 + dc][a])
    return np.concatenate(src), np.concatenate(dst)


def component_labels(ok: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """Connected components of the ``ok`` squares under the steps ``dirs`` allows, labelled
    1.. in reading order (0 elsewhere). Steps are symmetric here, so weak = strong components.

    >>> ok = np.array([[True, False, True], [False, True, False]])
    >>> corner = ~ok                      # rock: no diagonal past it
    >>> mode = np.where(ok, 1, 0).astype(np.uint8)
    >>> component_labels(ok, direction_masks(mode, corner)).tolist()
    [[1, 0, 2], [0, 3, 0]]
    """
    ok = np.asarray(ok, dtype=bool)
    n = ok.size
    src, dst = step_edges(dirs, ok)
    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n)).tocsr()
    _, raw = connected_components(graph, directed=False)
    raw = np.where(ok.ravel(), raw + 1, 0)
    return reading_order(raw).reshape(ok.shape)


def geometry_labels(ok: np.ndarray, rock: np.ndarray, edges: EdgeWalls | None = None) -> np.ndarray:
    """Components of the ``ok`` squares with the eight-neighbour steps of RULES §6.2 (no diagonal
    past a rock square), for any body: the geometry, not a creature. ``edges``: the map's walls
    between squares, which separate as rock does (docs/rules.md §6.8).

    >>> ok = np.ones((1, 3), bool)
    >>> geometry_labels(ok, ~ok, EdgeWalls.of([[False, True, False]], None, (1, 3))).tolist()
    [[1, 1, 2]]
    """
    mode = np.where(ok, WALK, BLOCKED).astype(np.uint8)
    dirs = direction_masks(mode, np.asarray(rock, dtype=bool))
    if edges is not None:
        dirs = dirs & edge_masks(edges)
    return component_labels(ok, dirs)


def region_labels(field: MoveField) -> np.ndarray:
    """The regions of one mover (see the module docstring)."""
    return component_labels(usable(field), field.dirs)


def reading_order(labels: np.ndarray) -> np.ndarray:
    """Renumber positive labels 1.. by their first occurrence in the flat (reading) order."""
    flat = labels.ravel()
    pos = flat > 0
    if not pos.any():
        return np.zeros_like(flat, dtype=np.int32)
    uniq, first = np.unique(flat[pos], return_index=True)
    order = np.argsort(first, kind="stable")
    remap = np.zeros(int(uniq.max()) + 1, dtype=np.int32)
    remap[uniq[order]] = np.arange(1, len(uniq) + 1, dtype=np.int32)
    return np.where(pos, remap[flat], 0).astype(np.int32)


def covering_refs(field: MoveField, pos: tuple[int, int]) -> list[tuple[int, int]]:
    """Reference squares (x, y) from which the creature's footprint covers ``pos`` and where it
    can stand: ``pos`` itself first for a one-square creature; for a k x k creature the
    top-left corners of the blocks holding ``pos`` (its own line when squeezed), nearest first."""
    x, y = pos
    rows, cols = field.shape
    out = []
    k = field.k
    for d in range(k):
        for j in range(d + 1):
            for i in range(d + 1):
                if max(i, j) != d:
                    continue
                rx, ry = x - i, y - j
                if 0 <= rx < cols and 0 <= ry < rows and field.mode[ry, rx] != BLOCKED:
                    if (rx, ry) == (x, y) or pos in field.occupied((rx, ry), []):
                        out.append((rx, ry))
    return out
