"""The unchecked array access of the movement kernel's loops (sim/terrain/movement/kernel/lowlevel.py):
a raw pointer reads and writes the array's own items, through ``p[i]`` and through ``load`` / ``store``,
and an inlined helper handed pointers changes the caller's arrays; the moves open from a square are
the low byte of its word (steps.open_moves)."""

from __future__ import annotations

import numpy as np

from sim.base.jit import numba
from sim.terrain.movement.kernel.lowlevel import load, lowest_bit, pointer, store
from sim.terrain.movement.kernel.steps import open_moves


@numba.njit(inline="always")
def _reverse_and_clear(p, q, n):
    """Through pointers: q[i] = p[n - 1 - i] + 1, then p[i] = 0."""
    for i in range(n):
        store(q, i, load(p, n - 1 - i) + 1)
    for i in range(n):
        p[i] = 0


@numba.njit
def _through_pointers(a, b):
    _reverse_and_clear(pointer(a), pointer(b), a.shape[0])
    return pointer(b)[0], load(b, a.shape[0] - 1)


def test_a_pointer_reads_and_writes_the_arrays_items():
    a = np.array([3, 5, 7, 11], dtype=np.int32)
    b = np.zeros(4, dtype=np.int64)
    assert _through_pointers(a, b) == (12, 4)
    assert b.tolist() == [12, 8, 6, 4]
    assert a.tolist() == [0, 0, 0, 0]


@numba.njit
def _moves_and_bits(words, cell):
    m = open_moves(pointer(words), cell)
    return m, lowest_bit(m)


def test_open_moves_are_the_low_byte_of_a_square_word():
    words = np.array([0x2108, 0x1AF0], dtype=np.uint16)
    assert _moves_and_bits(words, 0) == (0x08, 3)
    assert _moves_and_bits(words, 1) == (0xF0, 4)
