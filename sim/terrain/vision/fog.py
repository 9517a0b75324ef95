"""Fog on the grid (docs/rules.md §8.4: stinking cloud's vapours, "a bank of fog like that created by
fog cloud"): fog obscures all sight, darkvision included, beyond 5 ft. When a fog square lies
between a viewer and a target (a square of either space, or one the line between the centres of
their spaces crosses), a target 5 ft away has concealment (20%) and one farther away total
concealment (50%): sight no longer finds it, only the other senses do (blindsight sees through
fog; blindsense and tremorsense within range, and scent within 5 ft, locate; scent within 30 ft
detects). Pure functions over a :class:`~sim.terrain.vision.sight.Sight`.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Sequence

import numpy as np

from sim.terrain.vision.sight import (
    DETECTS,
    LOCATES,
    NONE,
    SCENT_DETECT_FT,
    SCENT_PINPOINT_FT,
    SEES,
    SHADOW_MISS,
    TOTAL_MISS,
    Sight,
    Viewer,
)

#: the spells whose zones are fog (the engine's zone names)
FOG_SPELLS = ("stinking-cloud",)


def _feet(a, b) -> int:
    """5-10-5 distance in feet between the nearest squares of two spaces."""
    best = None
    for x0, y0 in a:
        for x1, y1 in b:
            dx, dy = abs(x0 - x1), abs(y0 - y1)
            d = max(dx, dy) + min(dx, dy) // 2
            best = d if best is None or d < best else best
    return 5 * int(best or 0)


def _centre(sq) -> tuple[float, float]:
    return (sum(x for x, _ in sq) / len(sq) + 0.5, sum(y for _, y in sq) / len(sq) + 0.5)


def crosses(fog: frozenset, a, b) -> bool:
    """A fog square in either space, or crossed by the line between their centres (sampled every
    tenth of a square)."""
    if fog.intersection(a) or fog.intersection(b):
        return True
    (x0, y0), (x1, y1) = _centre(a), _centre(b)
    n = max(1, int(math.ceil(10 * max(abs(x1 - x0), abs(y1 - y0)))))
    return any((int(math.floor(x0 + (x1 - x0) * k / n)), int(math.floor(y0 + (y1 - y0) * k / n))) in fog
               for k in range(n + 1))


def through_fog(s: Sight, viewers: Sequence[Viewer], fog: frozenset) -> Sight:
    """``s`` with the fog's concealment: see the module notes."""
    if not fog:
        return s
    level, miss = s.level.copy(), s.miss.copy()
    for i, v in enumerate(viewers):
        for j, t in enumerate(viewers):
            if i == j or level[i, j] != SEES or not crosses(fog, v.squares, t.squares):
                continue
            ft = _feet(v.squares, t.squares)
            if v.blindsight_ft and ft <= v.blindsight_ft:
                continue
            if ft <= 5:
                miss[i, j] = max(int(miss[i, j]), SHADOW_MISS)
                continue
            if (v.blindsense_ft and ft <= v.blindsense_ft) or (v.tremorsense_ft and ft <= v.tremorsense_ft
                                                               and t.grounded) or (v.scent and ft <= SCENT_PINPOINT_FT):
                level[i, j] = LOCATES
            elif v.scent and ft <= SCENT_DETECT_FT:
                level[i, j] = DETECTS
            else:
                level[i, j] = NONE
            miss[i, j] = TOTAL_MISS
    for a in (level, miss):
        a.flags.writeable = False
    return dataclasses.replace(s, level=np.asarray(level), miss=np.asarray(miss))
