"""Albert Ford's symmetric shadowcasting, transcribed from his article (2021) with exact
fractions: the reference the compiled kernel is checked against."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def reference_fov(rock: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    rows, cols = rock.shape
    out = np.zeros(rock.shape, bool)
    ox, oy = at

    def blocking(x, y):
        return not (0 <= x < cols and 0 <= y < rows) or bool(rock[y, x])

    def mark(x, y):
        if 0 <= x < cols and 0 <= y < rows:
            out[y, x] = True

    mark(ox, oy)
    for quadrant in range(4):
        def transform(row, col, q=quadrant):
            return [(ox + col, oy - row), (ox + col, oy + row), (ox + row, oy + col), (ox - row, oy + col)][q]

        stack = [(1, Fraction(-1), Fraction(1))]
        while stack:
            depth, start, end = stack.pop()
            lo = math.floor(depth * start + Fraction(1, 2))
            hi = math.ceil(depth * end - Fraction(1, 2))
            prev = None
            for col in range(lo, hi + 1):
                x, y = transform(depth, col)
                wall = blocking(x, y)
                if wall or (depth * start <= col <= depth * end):
                    mark(x, y)
                if prev is True and not wall:
                    start = Fraction(2 * col - 1, 2 * depth)
                if prev is False and wall:
                    stack.append((depth + 1, start, Fraction(2 * col - 1, 2 * depth)))
                prev = wall
            if prev is False:
                stack.append((depth + 1, start, end))
    return out
