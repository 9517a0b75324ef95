"""Which enclosed spaces of a wall drawing are floor (docs/rules.md §2.10, issue 35).

Walls drawn in a map tool enclose spaces: the cave itself, and also the inside of every loop drawn
*within* it -- a pillar, a crate, a pool, the rock between two tunnels. Only the drawing's author
knows which are floor, so each enclosed space not joined to the main floor is listed with what was
decided:

* the **main floor** is the largest enclosed space, with every space joined to it through a
  closed door (a door is a way through, not a wall);
* an **object loop** -- a loop lying inside the floor (its walls ringed by the floor and nothing
  else: a pillar, a pool, the rock between two tunnels), or a loop under
  :data:`OPEN_OBJECT_SQUARES` squares out in the open (a crate, a well beside the building) -- is
  rock;
* any other **separate space** (a room drawn apart, a room without a door between others) is
  floor;
* ``--enclosed floor`` / ``--enclosed rock`` decide for every listed space at once, and
  ``--floor X,Y`` / ``--rock X,Y`` for the space holding that square, over all the rest;
* free space touching the map's edge is outside (rock unless ``--floor`` names it), and spaces
  smaller than one square (slivers between strokes drawn twice) are rock and not listed.

>>> wall = np.ones((9, 9), bool); wall[1:8, 1:8] = False; wall[3:6, 3:6] = True; wall[4, 4] = False
>>> wall = np.pad(wall, 1)
>>> floor, spaces = find_floor(wall, min_pixels=1)
>>> bool(floor[5, 5]), int(floor.sum()), [(s.kind, s.floor, s.squares, s.square) for s in spaces]
(False, 40, [('object', False, 1.0, (5, 5))])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

ENCLOSED = ("floor", "rock")     # --enclosed: every listed space is floor / rock
OPEN_OBJECT_SQUARES = 9.0        # a loop out in the open under this many squares is an object (a crate, a well)


@dataclass(frozen=True, slots=True)
class Space:
    """An enclosed space not joined to the main floor: a square ``(x, y)`` in it (the one holding the
    pixel nearest its middle), its size in squares, ``kind`` ("object": a loop inside the floor;
    "separate"), whether it is floor, and why (``"default"``, ``"--enclosed floor"``, ``"--rock
    X,Y"`` ...)."""

    square: tuple[int, int]
    squares: float
    kind: str
    floor: bool
    why: str


def find_floor(wall: np.ndarray, *, floor_seeds: tuple[tuple[int, int], ...] = (),
               rock_seeds: tuple[tuple[int, int], ...] = (), min_pixels: int = 0, enclosed: str | None = None,
               doors: np.ndarray | None = None, seed_names: tuple[str, ...] = (), spx: float = 1.0,
               ) -> tuple[np.ndarray, tuple[Space, ...]]:
    """Floor pixels of the wall mask ``wall`` and the enclosed spaces not joined to the main floor
    (see the module docstring). ``floor_seeds`` / ``rock_seeds`` are pixels ``(row, col)`` whose
    free space is forced to floor / rock, named in ``seed_names`` (floor seeds first) for the
    record; ``doors`` (a mask like ``wall``) the closed doors' pixels; ``enclosed`` None (object
    loops rock, separate spaces floor), "floor" or "rock"; ``spx`` the pixels per square side (the
    spaces are listed in squares)."""
    free = ~wall
    labels, n = ndimage.label(free)  # 4-connectivity (the default structure)
    sizes = np.bincount(labels.ravel(), minlength=n + 1)
    outside = np.zeros(n + 1, dtype=bool)
    outside[np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))] = True
    outside[0] = False
    forced: dict[int, tuple[bool, str]] = {}
    names = list(seed_names) or [""] * (len(floor_seeds) + len(rock_seeds))
    for (r, c), name in zip((*floor_seeds, *rock_seeds), names):
        if labels[r, c]:
            forced[int(labels[r, c])] = ((r, c) in floor_seeds, name)
    space = ~outside & (sizes >= max(min_pixels, 1))
    space[0] = False
    is_floor = space.copy()
    listed: list[Space] = []
    cand = np.flatnonzero(space)
    if len(cand):
        main = int(cand[np.argmax(sizes[cand])])
        joined = _joined(labels, n, main, doors) & space
        boxes = ndimage.find_objects(labels)
        for k in cand:
            if joined[k]:
                continue
            ring = _ringed(labels, int(k), boxes[k - 1])
            small = sizes[k] < OPEN_OBJECT_SQUARES * spx * spx
            kind = "object" if ring and (not outside[ring] or small) else "separate"
            floor_k, why = kind == "separate", "default"
            if enclosed in ENCLOSED:
                floor_k, why = enclosed == "floor", f"--enclosed {enclosed}"
            if int(k) in forced:
                floor_k, why = forced[int(k)]
            is_floor[k] = floor_k
            r, c = _middle(labels, int(k), boxes[k - 1])
            listed.append(Space((int(c // spx), int(r // spx)), float(sizes[k]) / spx ** 2, kind, floor_k, why))
    for k, (f, _) in forced.items():   # the outside and slivers too, when a seed names them
        is_floor[k] = f
    is_floor[0] = False
    floor = is_floor[labels]
    floor[0, :] = floor[-1, :] = floor[:, 0] = floor[:, -1] = False  # the map's edge is rock
    return floor, tuple(sorted(listed, key=lambda s: (-s.squares, s.square)))


def _joined(labels: np.ndarray, n: int, main: int, doors: np.ndarray | None) -> np.ndarray:
    """Which spaces reach ``main`` through closed doors (each door's pixels, 2 pixels round, touch
    the spaces it joins)."""
    joined = np.zeros(n + 1, dtype=bool)
    joined[main] = True
    if doors is None or not doors.any():
        return joined
    near, m = ndimage.label(ndimage.binary_dilation(doors, iterations=2), structure=np.ones((3, 3)))
    groups = [set(np.unique(labels[near == i])) - {0} for i in range(1, m + 1)]
    changed = True
    while changed:
        changed = False
        for g in groups:
            if any(joined[k] for k in g) and not all(joined[k] for k in g):
                joined[list(g)] = True
                changed = True
    return joined


def _ringed(labels: np.ndarray, k: int, box: tuple[slice, slice]) -> int:
    """The one other open space (the floor, or the outside) ringing space ``k``'s walls -- the free
    pixels within 3 pixels of it, across its wall, all belong to it -- or 0 when there are several."""
    r0, r1 = max(box[0].start - 4, 0), min(box[0].stop + 4, labels.shape[0])
    c0, c1 = max(box[1].start - 4, 0), min(box[1].stop + 4, labels.shape[1])
    sub = labels[r0:r1, c0:c1]
    mine = sub == k
    ring = ndimage.binary_dilation(mine, structure=np.ones((3, 3)), iterations=3) & ~mine
    if r0 == 0 or c0 == 0 or r1 == labels.shape[0] or c1 == labels.shape[1]:
        return False
    around = set(np.unique(sub[ring])) - {0}
    return next(iter(around)) if len(around) == 1 else 0


def _middle(labels: np.ndarray, k: int, box: tuple[slice, slice]) -> tuple[int, int]:
    """The pixel (row, col) of space ``k`` nearest its centroid."""
    rr, cc = np.nonzero(labels[box] == k)
    i = int(np.argmin((rr - rr.mean()) ** 2 + (cc - cc.mean()) ** 2))
    return int(rr[i] + box[0].start), int(cc[i] + box[1].start)
