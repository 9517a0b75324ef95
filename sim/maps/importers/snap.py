"""Measured widths snapped to what a map can mean (docs/rules.md §2.10, a [PD] decision).

A width measured from drawn walls carries float noise (two mirror-image 10-ft corridors read
9.999999999999972 and 10.0 ft) and drawing slop (a corridor drawn 10 ft wide reads 9.996 ft). Either
side of a rule threshold that is a different category, so a width within :data:`SNAP_REL` of the
target (at most :data:`SNAP_MAX_FT`) becomes the target:

* the rule thresholds of every size's default body (space, half-space, shoulders, head: the
  widths at which a category changes, :func:`sim.terrain.thresholds.thresholds`);
* whole multiples of the grid square (5, 10, 15 ft ... for 5-ft squares).

Any other width is rounded to :data:`QUANTUM_FT` (a millionth of a foot: the noise of the exact
distances is far below it, the measure's own precision far above it), so mirror images read alike
to the bit. A snapped or rounded width never crosses a threshold: a width that close to one is
snapped onto it.

>>> snap_widths(np.array([[9.999999999999972, 10.0, 4.97, 4.94, 0.0, 7.3333333333]]), 5.0).tolist()
[[10.0, 10.0, 5.0, 4.94, 0.0, 7.333333]]
"""

from __future__ import annotations

import functools

import numpy as np

from sim.rules.bodies import body_for
from sim.rules.sizes import Size
from sim.terrain.thresholds import thresholds

SNAP_REL = 0.01          # a width within 1 % of a target is the target ...
SNAP_MAX_FT = 0.1        # ... but never more than 0.1 ft (1.2 in.) away
QUANTUM_FT = 1e-6        # any other width is rounded to this (np.round(w, 6))


@functools.lru_cache(maxsize=1)
def rule_widths() -> tuple[float, ...]:
    """Every width at which some size's default body changes category (sorted, distinct).

    >>> 2.5 in rule_widths() and 10.0 in rule_widths() and 0.25 in rule_widths()
    True
    """
    out = {w for size in Size for w in thresholds(body_for(size.name.lower())).width.values()}
    return tuple(sorted(out))


def snap_widths(width: np.ndarray, feet_per_square: float) -> np.ndarray:
    """``width`` (ft, 0 = rock) with each width snapped to the nearest rule threshold or grid
    multiple within tolerance, every other rounded to :data:`QUANTUM_FT`."""
    w = np.asarray(width, dtype=np.float64)
    top = float(w.max()) if w.size else 0.0
    grid = feet_per_square * np.arange(1, int(top // feet_per_square) + 3)
    targets = np.unique(np.concatenate([np.array(rule_widths()), grid]))
    i = np.clip(np.searchsorted(targets, w), 1, len(targets) - 1)
    lo, hi = targets[i - 1], targets[i]
    near = np.where(np.abs(w - lo) <= np.abs(hi - w), lo, hi)
    snap = np.abs(w - near) <= np.minimum(SNAP_MAX_FT, SNAP_REL * near)
    out = np.where(snap, near, np.round(w, 6))
    return np.where(w > 0, out, 0.0)
