"""Glamers over sight (docs/rules.md §8.5): what *invisibility* and *faerie fire* change in a
:class:`~sim.terrain.vision.sight.Sight` computed from light alone.

* An **invisible** creature (condition ``invisible``) is seen by no viewer but one whose
  blindsight reaches it; a viewer that saw it now locates it by blindsense (in range),
  tremorsense (in range, the target on the ground) or scent (5 ft), detects it by scent (30 ft),
  or has nothing. Against it: total concealment (50%).
* An **outlined** creature (``outlined``, faerie fire) sheds a candle's light (the caller adds
  it) and cannot be invisible; it keeps no concealment from shadows, only from magical darkness
  (a 2nd-level darkness "functions normally", SRD *faerie fire*).

Creatures are read by attribute (``id``, ``squares``, ``conditions``, ``block.senses``,
``block.speed.fly``), as :mod:`sim.terrain.vision.scene` reads them.

>>> import numpy as np
>>> from types import SimpleNamespace as NS
>>> from sim.terrain.vision import Light, Viewer, vision
>>> rock = np.zeros((1, 6), bool)
>>> lg, s = vision(rock, [Light(at=(0, 0), bright_ft=30, shadowy_ft=60)],
...                [Viewer("a", "party", ((0, 0),)), Viewer("b", "monsters", ((3, 0),))])
>>> senses = NS(blindsight_ft=0, blindsense_ft=0, tremorsense_ft=0, scent=False)
>>> b = NS(id="b", squares=[(3, 0)], conditions={"invisible"}, block=NS(senses=senses, speed=NS(fly=0)))
>>> a = NS(id="a", squares=[(0, 0)], conditions=set(), block=NS(senses=senses, speed=NS(fly=0)))
>>> t = glamers(s, lg, [a, b])
>>> t.level_of("a", "b"), t.miss_chance("a", "b"), t.level_of("b", "a")
(0, 50, 3)
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from sim.terrain.vision.light import LightGrid
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
)


def _feet(a, b) -> int:
    """5-10-5 distance between the nearest squares of two spaces."""
    best = 1 << 30
    for x0, y0 in a:
        for x1, y1 in b:
            dx, dy = abs(x0 - x1), abs(y0 - y1)
            best = min(best, max(dx, dy) + min(dx, dy) // 2)
    return 5 * best


def _unseen_level(viewer, target, ft: int) -> int:
    """What a viewer that cannot see ``target`` has of it by its other senses."""
    s = viewer.block.senses
    grounded = not (getattr(target.block.speed, "fly", 0) > 0)
    if (s.blindsense_ft and ft <= s.blindsense_ft) or (s.tremorsense_ft and ft <= s.tremorsense_ft and grounded) \
            or (s.scent and ft <= SCENT_PINPOINT_FT):
        return LOCATES
    if s.scent and ft <= SCENT_DETECT_FT:
        return DETECTS
    return NONE


def glamers(sight: Sight, light: LightGrid, creatures: Sequence) -> Sight:
    """``sight`` with invisibility and faerie fire applied (unchanged when nobody has either)."""
    marked = [c for c in creatures if c.conditions & {"invisible", "outlined"} and c.id in sight.ids]
    if not marked:
        return sight
    level, miss = sight.level.copy(), sight.miss.copy()
    by_id = {c.id: c for c in creatures}
    for t in marked:
        j = sight.index(t.id)
        outlined = "outlined" in t.conditions
        all_magic = all(bool(light.magic_dark[y, x]) for x, y in t.squares)
        for i, vid in enumerate(sight.ids):
            v = by_id.get(vid)
            if i == j or v is None or level[i, j] != SEES:
                continue
            if outlined:
                if miss[i, j] == SHADOW_MISS and not all_magic:
                    miss[i, j] = 0
                continue
            ft = _feet(v.squares, t.squares)
            bs = v.block.senses.blindsight_ft
            if bs and ft <= bs:
                continue
            level[i, j] = _unseen_level(v, t, ft)
            miss[i, j] = TOTAL_MISS
    for arr in (level, miss):
        arr.flags.writeable = False
    return dataclasses.replace(sight, level=np.asarray(level), miss=np.asarray(miss))
