"""How the kernel sees a map and a label: the square modes and step kinds, the packed square
words (:func:`cell_words`: direction mask, mode, prone flag, multiplier), the key's bit split
(:func:`key_bits`) and the size of the bucket ring (:func:`ring_size`). The package docstring
(:mod:`sim.terrain.movement.kernel`) sets out the states and labels."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba

BLOCKED, WALK, CRAWL, AWKWARD, TIGHT = 0, 1, 2, 3, 4
PRONE = 2
UNREACHED = np.iinfo(np.int32).max
MAX_MULT = 15  # the multiplier field of a cell word has 4 bits

# direction d: (drow, dcol); bit d of a square's mask allows the move from it
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (-1, 1), (1, -1), (1, 1))
# bits of the direction mask that leave a window through each side (DIRS order)
EDGE_TOP, EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT = 0b00110001, 0b11000010, 0b01010100, 0b10101000

# step kinds reported along a path (queries.Step.kind)
KIND_WALK, KIND_CRAWL, KIND_STAND, KIND_ESCAPE, KIND_SQUEEZE = 0, 1, 2, 3, 4

CRAWLED_IN = 1 << 30  # flag on a pred: crawled into the square, then stood up there (two steps)


def direction_masks(mode: np.ndarray, corner: np.ndarray) -> np.ndarray:
    """uint8 ``[row, col]`` masks: bit d set when a move in direction ``DIRS[d]`` stays on the
    map, enters a square that is not BLOCKED and (diagonals) passes no corner square."""
    R, C = mode.shape
    ok = np.pad(mode != BLOCKED, 1, constant_values=False)
    cor = np.pad(corner, 1, constant_values=True)
    out = np.zeros((R, C), dtype=np.uint8)
    for d, (dr, dc) in enumerate(DIRS):
        allowed = ok[1 + dr:R + 1 + dr, 1 + dc:C + 1 + dc].copy()
        if dr and dc:
            allowed &= ~cor[1 + dr:R + 1 + dr, 1:C + 1] & ~cor[1:R + 1, 1 + dc:C + 1 + dc]
        out |= allowed.astype(np.uint8) << d
    return out


def cell_words(mode: np.ndarray, mult: np.ndarray, prone: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """One uint16 per square: bits 0-7 the direction mask, 8-10 the mode, 11 lies prone there,
    12-15 the cost multiplier.

    >>> w = cell_words(np.array([[WALK, CRAWL]]), np.array([[2, 1]]), np.array([[False, True]]),
    ...                np.array([[0b1000, 0b0100]]))
    >>> [hex(int(v)) for v in w.ravel()]
    ['0x2108', '0x1a04']
    """
    if mult.size and int(mult.max()) > MAX_MULT:
        raise ValueError(f"cost multiplier must be at most {MAX_MULT}, got {int(mult.max())}")
    words = (dirs.astype(np.uint16) | (mode.astype(np.uint16) << 8) | (prone.astype(np.uint16) << 11)
             | (mult.astype(np.uint16) << 12))
    return np.ascontiguousarray(words)


@numba.njit(cache=True, nogil=True)
def pow2_above(n):  # pragma: no cover - compiled
    """The least power of two above ``n`` (16 at least)."""
    p = 16
    while p <= n:
        p *= 2
    return p


@numba.njit(cache=True, nogil=True)
def key_bits(speed_squares):  # pragma: no cover - compiled
    """Bits of the in-action part of a key: the smallest ``kb`` with ``2**kb > speed``.

    >>> key_bits(6), key_bits(8)
    (3, 4)
    """
    kb = 1
    while (1 << kb) <= speed_squares:
        kb += 1
    return kb


@numba.njit(cache=True, nogil=True)
def ring_size(sp, kb, M, awk_units, tight_units):  # pragma: no cover - compiled
    """Buckets of the queue ring: a power of two above the largest rise of a queue priority over
    one transition. A key rises by at most ``units << kb`` plus a full action of squares, where
    ``units`` is the dearest transition (a full-round move from the far end of a turn, a crawl
    over the largest multiplier, the tries); with a goal, the estimate of the rest of the way
    (:func:`squares_to_goal`) may grow by at most one such transition too, and :func:`eta`
    rounds each up to two more actions. (:func:`search` checks it.)"""
    units = max(4 * M, MAX_MULT * M, awk_units, 2 * M + tight_units)
    return pow2_above(((2 * units + 4 * M + 2) << kb) + 2 * sp + 2)
