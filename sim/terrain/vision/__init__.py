"""Light and sight in the headless core (RULES §9): pure functions over arrays.

* :mod:`sim.terrain.vision.fov` -- symmetric shadowcasting (the field of view behind both);
* :mod:`sim.terrain.vision.light` -- :class:`Light` sources -> a per-square :class:`LightGrid`;
* :mod:`sim.terrain.vision.sight` -- :class:`Viewer` s -> :class:`Sight`: who sees, locates or cannot
  perceive whom, miss chances, who is effectively blinded, what each side sees.

:func:`vision` does both in one call, sharing the work arrays.

>>> import numpy as np
>>> rock = np.zeros((3, 9), bool)
>>> lg, s = vision(rock, [Light(at=(0, 1), bright_ft=20, shadowy_ft=40)],
...                [Viewer("a", "party", ((0, 1),)), Viewer("b", "monsters", ((8, 1),))])
>>> s.sees("a", "b"), s.miss_chance("a", "b")         # 8 squares away: shadowy light, 20%
(True, 20)
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from sim.terrain.edges import EdgeWalls
from sim.terrain.vision.fov import field_of_view
from sim.terrain.vision.light import (
    BRIGHT,
    DARK,
    LEVEL_NAMES,
    SHADOWY,
    Light,
    LightGrid,
    Scratch,
    level_letters,
    light_levels,
)
from sim.terrain.vision.sight import (
    DETECTS,
    LOCATES,
    NONE,
    PERCEPTION_NAMES,
    SEES,
    Sight,
    Viewer,
    explore,
    sight,
)

__all__ = [
    "BRIGHT", "DARK", "SHADOWY", "LEVEL_NAMES", "Light", "LightGrid", "level_letters", "light_levels",
    "DETECTS", "LOCATES", "NONE", "SEES", "PERCEPTION_NAMES", "Sight", "Viewer", "explore", "sight",
    "field_of_view", "vision",
]


def vision(rock: np.ndarray, lights: Iterable[Light], viewers: Sequence[Viewer], *,
           edges: EdgeWalls | None = None) -> tuple[LightGrid, Sight]:
    """The light grid of ``lights`` and the sight among ``viewers``, in one pass of work arrays
    (``edges``: the map's walls between squares, docs/rules.md §6.8)."""
    sc = Scratch.for_shape(np.shape(rock))
    lg = light_levels(rock, lights, scratch=sc, edges=edges)
    return lg, sight(rock, lg, viewers, scratch=sc, edges=edges)
