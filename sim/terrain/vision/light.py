"""Light levels for the whole grid (RULES §9.1, §9.3.1-2).

A :class:`Light` shines from a space (the bearer's squares, or the square a light lies on). A
square is lit by it when the square is in the field of view from that space (symmetric
shadowcasting, :mod:`sim.terrain.vision.fov`: rock blocks light, low ceilings do not) and within the
radius, counted 5-10-5 from the nearest corner of the space to the far corner of the square, the
way a spell's emanation is counted: a torch (20 ft bright, 40 ft shadowy) carried down a straight
corridor lights 4 squares ahead bright and 4 more shadowy. A square's level is the highest over
all lights (bright > shadowy > dark); magical *darkness* makes the squares it reaches shadowy
whatever shines there, and marks them (20% concealment even against darkvision).

Low-light vision doubles both radii of every light for that viewer (§9.2), so there are two
grids: :attr:`LightGrid.normal` and :attr:`LightGrid.low_light`.

>>> import numpy as np
>>> rock = np.zeros((1, 12), bool); rock[0, 10] = True        # a corridor, rock at x = 10
>>> g = light_levels(rock, [Light(at=(0, 0), bright_ft=20, shadowy_ft=40)])   # a torch
>>> level_letters(g.normal, rock)
['BBBBBSSSS.#.']
>>> level_letters(g.low_light, rock)                            # radii doubled; the rock still blocks
['BBBBBBBBBS#.']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from sim.base.jit import numba
from sim.terrain.edges import EdgeWalls, kernel_edges
from sim.terrain.vision.fov import shadowcast

DARK, SHADOWY, BRIGHT = 0, 1, 2
LEVEL_NAMES = ("dark", "shadowy", "bright")
LEVEL_LETTERS = (".", "S", "B")
COS45 = math.cos(math.radians(45))


@dataclass(frozen=True, slots=True)
class Light:
    """One light: it shines from the ``k`` x ``k`` space whose top-left square is ``at = (x, y)``
    (``squares`` overrides that with any set of squares). ``direction`` makes it a cone (a
    bullseye lantern) pointing that way, one of the eight directions; ``darkness`` makes it the
    *darkness* spell (shadowy within ``shadowy_ft``, capping every light there)."""

    at: tuple[int, int]
    bright_ft: float
    shadowy_ft: float
    k: int = 1
    direction: tuple[int, int] | None = None
    darkness: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if not (0 <= self.bright_ft <= self.shadowy_ft):
            raise ValueError(f"a light needs 0 <= bright_ft <= shadowy_ft, got {self.bright_ft} and {self.shadowy_ft}")
        if self.k < 1:
            raise ValueError(f"a light's space needs k >= 1, got {self.k}")
        if self.direction is not None and (self.direction == (0, 0) or max(map(abs, self.direction)) != 1):
            raise ValueError(f"a cone's direction must be one of the eight unit steps, got {self.direction}")


@dataclass(frozen=True, slots=True, eq=False)
class LightGrid:
    """Light levels ``[row, col]`` (uint8: 0 dark, 1 shadowy, 2 bright) as seen with normal eyes
    and with low-light vision, and where magical darkness lies."""

    normal: np.ndarray
    low_light: np.ndarray
    magic_dark: np.ndarray

    @property
    def shape(self) -> tuple[int, int]:
        return self.normal.shape  # type: ignore[return-value]

    def for_viewer(self, low_light: bool) -> np.ndarray:
        return self.low_light if low_light else self.normal

    def names(self, *, low_light: bool = False) -> list[list[str]]:
        """The levels as ``"dark" | "shadowy" | "bright"``, rows top to bottom."""
        return np.array(LEVEL_NAMES)[self.for_viewer(low_light)].tolist()


def level_letters(levels: np.ndarray, rock: np.ndarray | None = None) -> list[str]:
    """One string per row: ``B`` bright, ``S`` shadowy, ``.`` dark, and ``#`` for rock when a rock
    mask is given."""
    chars = np.array(LEVEL_LETTERS)[levels]
    if rock is not None:
        chars = np.where(rock, "#", chars)
    return ["".join(r) for r in chars]


@numba.njit(cache=True, nogil=True)
def _corner_distance(x0, y0, k, c, r):
    """5-10-5 squares from the nearest corner of the space [x0, x0+k) x [y0, y0+k) to the far
    corner of square (c, r)."""
    best = 1 << 30
    for cx in (x0, x0 + k):
        dx = c + 1 - cx if c >= cx else cx - c
        for cy in (y0, y0 + k):
            dy = r + 1 - cy if r >= cy else cy - r
            d = max(dx, dy) + min(dx, dy) // 2
            if d < best:
                best = d
    return best


@numba.njit(cache=True, nogil=True)
def _light_kernel(opaque, src, radii, normal, low, magic, stamp, cells, token, has_edges, east, south, corners):
    """src: int64 [m, 6] (x0, y0, k, dir_x, dir_y, darkness); radii: float64 [m, 2] (bright and
    shadowy radius in squares). Lights first (max), then darkness (sets shadowy). Stamps with
    tokens after ``token``; returns the last one used."""
    rows, cols = opaque.shape
    for phase in range(2):
        for s in range(src.shape[0]):
            if src[s, 5] != phase:
                continue
            x0, y0, k, ux, uy = src[s, 0], src[s, 1], src[s, 2], src[s, 3], src[s, 4]
            bright, shadowy = radii[s, 0], radii[s, 1]
            reach = shadowy if phase == 1 else 2.0 * shadowy
            depth = int(math.floor(reach)) + k
            token += 1
            n = 0
            for dy in range(k):
                for dx in range(k):
                    r, c = y0 + dy, x0 + dx
                    if 0 <= r < rows and 0 <= c < cols and not opaque[r, c]:
                        n = shadowcast(opaque, r, c, depth, stamp, token, cells, n, has_edges, east, south, corners)
            norm = math.hypot(ux, uy)
            cxm = x0 + k / 2.0
            cym = y0 + k / 2.0
            for i in range(n):
                r, c = cells[i, 0], cells[i, 1]
                if norm > 0 and not (x0 <= c < x0 + k and y0 <= r < y0 + k):
                    vx, vy = c + 0.5 - cxm, r + 0.5 - cym
                    if (vx * ux + vy * uy) < (COS45 - 1e-9) * math.hypot(vx, vy) * norm:
                        continue
                d = _corner_distance(x0, y0, k, c, r)
                if phase == 1:
                    if d <= shadowy + 1e-9:
                        normal[r, c] = SHADOWY
                        low[r, c] = SHADOWY
                        magic[r, c] = True
                    continue
                if d <= bright + 1e-9:
                    lv = BRIGHT
                elif d <= shadowy + 1e-9:
                    lv = SHADOWY
                else:
                    lv = DARK
                if lv > normal[r, c]:
                    normal[r, c] = lv
                if d <= 2.0 * bright + 1e-9:
                    lv = BRIGHT
                elif d <= 2.0 * shadowy + 1e-9:
                    lv = SHADOWY
                else:
                    lv = DARK
                if lv > low[r, c]:
                    low[r, c] = lv
    return token


def pack_lights(lights: Iterable[Light]) -> tuple[np.ndarray, np.ndarray]:
    ls = list(lights)
    src = np.zeros((len(ls), 6), dtype=np.int64)
    radii = np.zeros((len(ls), 2), dtype=np.float64)
    for i, li in enumerate(ls):
        ux, uy = li.direction or (0, 0)
        src[i] = (li.at[0], li.at[1], li.k, ux, uy, int(li.darkness))
        radii[i] = (li.bright_ft / 5.0, li.shadowy_ft / 5.0)
    return src, radii


def light_levels(rock: np.ndarray, lights: Iterable[Light], *, scratch: "Scratch | None" = None,
                 edges: EdgeWalls | None = None) -> LightGrid:
    """The :class:`LightGrid` of ``lights`` on a map whose rock mask is ``rock`` ``[row, col]``
    and whose walls between squares are ``edges`` (they stop light too, docs/rules.md §6.8).

    >>> rock = np.zeros((3, 3), bool)
    >>> level_letters(light_levels(rock, [Light(at=(1, 1), bright_ft=0, shadowy_ft=5)]).normal)  # a candle
    ['SSS', 'SSS', 'SSS']
    >>> level_letters(light_levels(rock, []).normal)
    ['...', '...', '...']
    """
    opaque = np.ascontiguousarray(rock, dtype=np.bool_)
    src, radii = pack_lights(lights)
    normal = np.zeros(opaque.shape, dtype=np.uint8)
    low = np.zeros(opaque.shape, dtype=np.uint8)
    magic = np.zeros(opaque.shape, dtype=np.bool_)
    if len(src):
        sc = scratch if scratch is not None else Scratch.for_shape(opaque.shape)
        sc.token = _light_kernel(opaque, src, radii, normal, low, magic, sc.stamp, sc.cells, sc.token,
                                 *kernel_edges(edges))
    for a in (normal, low, magic):
        a.flags.writeable = False
    return LightGrid(normal=normal, low_light=low, magic_dark=magic)


class Scratch:
    """Work arrays the kernels share within one computation: the stamp array, the buffer of
    visible cells and the last token used. Made per call (never kept in a module)."""

    __slots__ = ("stamp", "cells", "token")

    def __init__(self, stamp: np.ndarray, cells: np.ndarray, token: int = 0):
        self.stamp, self.cells, self.token = stamp, cells, token

    @classmethod
    def for_shape(cls, shape: tuple[int, int]) -> "Scratch":
        return cls(np.zeros(shape, dtype=np.int32), np.empty((shape[0] * shape[1], 2), dtype=np.int32))
