"""From a cave and the creatures in it to light and sight (RULES §9.1, §9.3.5).

Where the lights are: fixed in the map (``[[light]]``, :attr:`CaveGrid.lights`), carried by a
creature (one hand each, from the nearest corner of its space), or lying where they were dropped
(a dropped light keeps lighting its square's surroundings, §9.3.5). The light-giving items are the
``[gear]`` rows with light radii (torch, everburning torch, candle, lamp, hooded and bullseye
lanterns, sunrod, an object under the *light* spell). A bullseye lantern is a cone, pointed the
way its bearer last stepped (east when it has not moved).

The creatures are read by attribute only (``id``, ``team``, ``squares``, ``k``, ``block.senses``,
``block.speed.fly``, ``alive``, the light it carries: ``light`` or a lit torch ``torch_lit``), so
this module serves the fight engine, the crawl and the command line alike without importing them.

>>> from sim.terrain.grid import CaveGrid, MapLight
>>> g = CaveGrid.from_arrays([[10] * 6], [[10] * 6], lights=(MapLight(at=(0, 0), bright_ft=5, shadowy_ft=10),))
>>> [(l.at, l.bright_ft, l.shadowy_ft) for l in map_lights(g)]
[((0, 0), 5.0, 10.0)]
>>> gear_light("sunrod", at=(2, 0)).shadowy_ft
60.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from sim.base.errors import DataError
from sim.rules.weapons import gear_table
from sim.terrain.grid import CaveGrid
from sim.terrain.vision import Light, LightGrid, Sight, Viewer, vision
from sim.terrain.vision.magic import glamers


@dataclass(frozen=True, slots=True)
class DroppedLight:
    """A light lying on the floor: the gear item and its square ``(x, y)``."""

    item: str
    at: tuple[int, int]


def light_sources() -> dict[str, object]:
    """The light-giving gear rows, by key."""
    return {k: g for k, g in gear_table().items() if g.is_light_source}


def gear_light(item: str, *, at: tuple[int, int], k: int = 1, direction: tuple[int, int] | None = None,
               name: str = "") -> Light:
    """The :class:`Light` of a light-giving gear item shining from the ``k`` x ``k`` space at ``at``."""
    table = light_sources()
    if item not in table:
        raise DataError(f"unknown light source {item!r}; use one of {', '.join(sorted(table))}")
    g = table[item]
    cone = getattr(g, "light_shape", None) == "cone"
    return Light(at=at, bright_ft=float(g.light_bright_ft), shadowy_ft=float(g.light_shadowy_ft), k=k,
                 direction=(direction or (1, 0)) if cone else None, name=name or item)


def map_lights(grid: CaveGrid) -> tuple[Light, ...]:
    """The lights fixed in the map."""
    return tuple(Light(at=tuple(ml.at), bright_ft=float(ml.bright_ft), shadowy_ft=float(ml.shadowy_ft),
                       name=ml.name or (ml.source or "light")) for ml in getattr(grid, "lights", ()))


def carried_light(c) -> str | None:
    """The lit light a creature holds (``light``, else a lit torch), or None."""
    item = getattr(c, "light", None)
    if item:
        return item
    return "torch" if getattr(c, "torch_lit", False) else None


def _facing(c) -> tuple[int, int]:
    trail = list(getattr(c, "trail", ()) or ())
    if trail:
        (px, py), (x, y) = trail[-1], c.pos
        dx, dy = int(np.sign(x - px)), int(np.sign(y - py))
        if (dx, dy) != (0, 0):
            return (dx, dy)
    return (1, 0)


def creature_lights(creatures: Iterable) -> list[Light]:
    """The lights carried by living creatures, each from its bearer's space."""
    out = []
    for c in creatures:
        item = carried_light(c)
        if not item or not getattr(c, "alive", True):
            continue
        xs = [x for x, _ in c.squares]
        ys = [y for _, y in c.squares]
        out.append(gear_light(item, at=(min(xs), min(ys)), k=int(getattr(c, "k", 1)), direction=_facing(c),
                              name=f"{item} ({c.id})"))
    return out


def viewer_of(c) -> Viewer:
    """A creature's :class:`Viewer`: its space and the senses of its stat block (a flier is off
    the ground: tremorsense misses it)."""
    block = c.block
    return Viewer.from_senses(c.id, c.team, c.squares, block.senses, grounded=not (block.speed.fly > 0))


def scene_lights(grid: CaveGrid, creatures: Sequence, dropped: Iterable[DroppedLight] = ()) -> list[Light]:
    """Every light of the scene: fixed, carried and dropped."""
    return [*map_lights(grid), *creature_lights(creatures),
            *(gear_light(d.item, at=d.at, name=f"{d.item} (dropped)") for d in dropped)]


def party_light_bearer(party: Sequence) -> tuple[object, str] | None:
    """Who carries a party's light, and which (RULES §9.3.5): the brightest light-giving item
    anyone carries, borne by the first member (in marching order) with a hand free for it (no
    shield, or a light that needs no hand), else by the first who has it; None when nobody has one."""
    table = light_sources()
    best = None
    for rank, c in enumerate(party):
        for key, n in sorted(c.items.items()):
            g = table.get(key)
            if g is None or n <= 0:
                continue
            free = c.block.shield is None or getattr(g, "hands", 1) == 0
            key = (g.light_shadowy_ft, free, -rank)
            if best is None or key > best[0]:
                best = (key, c, g.key)
    return (best[1], best[2]) if best else None


def burn_minutes(item: str) -> float:
    """How long one light burns (RULES §9.1, §9.3.6): a torch 60 minutes, a lantern 360 (a pint
    of oil), a sunrod 360, an everburning torch for ever; the *light* spell 10 minutes (a
    1st-level caster's: the crawl knows no caster level).

    >>> burn_minutes("torch"), burn_minutes("hooded-lantern"), burn_minutes("everburning-torch")
    (60.0, 360.0, inf)
    """
    text = (light_sources()[item].duration or "").lower()
    if "permanent" in text or not text:
        return math.inf
    n = float(text.split()[0])
    return n * 60.0 if "hour" in text.split()[1] else n


def darkness_light(at: tuple[int, int], radius_ft: float = 20.0) -> Light:
    """The *darkness* spell cast on an object lying at ``at`` (RULES §9.1): shadowy at most within
    ``radius_ft``, capping every light there, concealing even from darkvision."""
    return Light(at=tuple(at), bright_ft=0.0, shadowy_ft=float(radius_ft), darkness=True, name="darkness")


def look(grid: CaveGrid, creatures: Sequence, dropped: Iterable[DroppedLight] = (),
         extra: Iterable[Light] = ()) -> tuple[LightGrid, Sight]:
    """Light and sight for the living ``creatures`` on ``grid`` (``extra``: lights of spells, such
    as :func:`darkness_light`)."""
    alive = [c for c in creatures if getattr(c, "alive", True)]
    glowing = [gear_light("candle", at=(min(x for x, _ in c.squares), min(y for _, y in c.squares)),
                          k=int(getattr(c, "k", 1)), name=f"faerie fire ({c.id})")
               for c in alive if "outlined" in getattr(c, "conditions", ())]   # docs/rules.md §8.5
    lg, s = vision(grid.rock, [*scene_lights(grid, alive, dropped), *extra, *glowing], [viewer_of(c) for c in alive], edges=grid.edges)
    return lg, glamers(s, lg, alive) if any(getattr(c, "conditions", None) for c in alive) else s
