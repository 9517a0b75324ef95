"""The light a party needs (issue 16 item 7; RULES §9.1, §9.3): for each entrance and each
chokepoint, how much of the chokepoint a torch-bearing party of Medium humans leaves dark.

The party walks in from the entrance (the way a Medium body moves: :mod:`sim.terrain.movement`); its torch
bearer stands at the chokepoint's nearest square along the way. The torch (20 ft bright, 40 ft
shadowy, 5-10-5 from the bearer's corner, rock blocks it) lights what it lights: the chokepoint's
squares still dark are where a monster waits unseen by human eyes. ``needs`` names the weakest
single light carried there that leaves none of them dark (candle, lamp, torch, hooded lantern or
sunrod), or says that one light is not enough (a long or winding passage: light it from two places).

>>> from sim.terrain.grid import CaveGrid
>>> from sim.analysis.chokepoints import find_chokepoints
>>> rows = 3 * [[30] * 6 + [3] * 14 + [30] * 6]
>>> g = CaveGrid.from_arrays(rows, [[12] * 26] * 3, points={"entrance": (0, 1)})
>>> lay = find_chokepoints(g, min_area=6)
>>> [(e["chokepoint"], e["squares"], e["dark_to_torch"], e["needs"]) for e in light_needs(g, lay)["entrance"]]
[('C1', 42, 16, 'more than one light')]
"""

from __future__ import annotations

import numpy as np

from sim.analysis.chokepoints import Layout
from sim.rules.bodies import body_for
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, distance_map, move_field
from sim.terrain.vision import DARK, SHADOWY, light_levels
from sim.terrain.vision.scene import gear_light, light_sources

PARTY_LIGHT = "torch"
COMMON = ("candle", "lamp", "torch", "hooded-lantern")   # named first when another light has the same radii
PARTY_SPEED_FT = 30


def light_ladder() -> list[str]:
    """The single carried lights from weakest to strongest (by shadowy, then bright radius; cones
    left out: they light one way only).

    >>> light_ladder()
    ['candle', 'lamp', 'torch', 'hooded-lantern']
    """
    src = [(g.light_shadowy_ft, g.light_bright_ft, k not in COMMON, k) for k, g in light_sources().items()
           if getattr(g, "light_shape", "radius") != "cone"]
    seen: dict[tuple, str] = {}
    for sh, br, _, k in sorted(src):
        seen.setdefault((sh, br), k)  # one name per pair of radii: the common one (a torch, not the spell)
    return list(seen.values())


def light_needs(grid: CaveGrid, layout: Layout, entrances: list[str] | None = None, *,
                field=None) -> dict[str, list[dict]]:
    """``{entrance: [{"chokepoint", "from", "squares", "dark_to_torch", "shadowy_to_torch", "needs"}]}``
    (``from``: where the torch bearer stands, None when a Medium human cannot get there).
    ``field``: a Medium body's movement field on ``grid``, if one is at hand."""
    names = entrances if entrances is not None else [n for n in grid.points if "entrance" in n.lower()] \
        or list(grid.points)[:1]
    if field is None:
        field = move_field(grid, Mover(body_for("medium"), speed_ft=PARTY_SPEED_FT))
    ladder = light_ladder()
    out: dict[str, list[dict]] = {}
    for name in names:
        start = tuple(grid.points[name])
        rows = []
        reach = distance_map(field, start).actions if not grid.rock[start[1], start[0]] else None
        for c in layout.chokepoints:
            sq = [tuple(q) for q in c.squares if not grid.rock[q[1], q[0]]]
            if reach is None:
                times = []
            else:
                times = [(float(reach[y, x]), (x, y)) for x, y in sq if np.isfinite(reach[y, x])]
            if not times:
                rows.append({"chokepoint": c.id, "from": None, "squares": len(sq), "dark_to_torch": None,
                             "shadowy_to_torch": None, "needs": None})
                continue
            at = min(times)[1]
            xs = np.array([x for x, _ in sq])
            ys = np.array([y for _, y in sq])

            def dark_with(item: str) -> int:
                lv = light_levels(grid.rock, [gear_light(item, at=at)], edges=grid.edges).normal
                return int((lv[ys, xs] == DARK).sum())

            lv = light_levels(grid.rock, [gear_light(PARTY_LIGHT, at=at)], edges=grid.edges).normal[ys, xs]
            needs = next((item for item in ladder if dark_with(item) == 0), "more than one light")
            rows.append({"chokepoint": c.id, "from": list(at), "squares": len(sq),
                         "dark_to_torch": int((lv == DARK).sum()), "shadowy_to_torch": int((lv == SHADOWY).sum()),
                         "needs": needs})
        out[name] = rows
    return out
