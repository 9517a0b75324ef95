"""Who can get where, and how long it takes: per body, between the map's named points.

Every time here *is* the movement engine's (:func:`sim.terrain.movement.distance_map` and
:func:`sim.terrain.movement.find_path`, RULES §6): guaranteed times let a creature take 10 or take 20 on
Escape Artist (out of combat), expected times roll. A Large or bigger creature "is at" a point
when its footprint covers it; it starts from the covering reference square nearest the point
(the point itself first) and arrives by whichever covering square it reaches first.

>>> from sim.terrain.grid import CaveGrid
>>> g = CaveGrid.from_arrays([[10] * 6], [[10] * 6], points={"a": (0, 0), "b": (5, 0)})
>>> from sim.terrain.movement import Mover
>>> from sim.rules.bodies import body_for
>>> t = travel_between(g, Mover(body_for("medium"), speed_ft=30), "a", "b")
>>> t.reachable, t.rounds, t.move_actions, t.expected_rounds
(True, 1, 1.0, 0.5)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import field as dc_field

import numpy as np

from sim.analysis.regions import covering_refs, region_labels, usable
from sim.base.coords import Pos
from sim.rules.categories import Category
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import DistanceMap, Mover, distance_map, find_path, move_field
from sim.terrain.movement.field import MoveField
from sim.terrain.movement.queries import expected_rounds, whole_rounds


@dataclass(frozen=True, slots=True)
class Trip:
    """One body from one named point to another. Times: move actions (two a round); ``rounds``
    is ``ceil(move actions / 2)`` (the engine's distance-map rounds), ``expected_rounds`` the
    expected move actions / 2. ``squares``: the reference squares of the fastest path, with
    ``categories`` the category of each (for a big creature, of its footprint there)."""

    start: str
    goal: str
    reachable: bool
    move_actions: float | None = None
    expected_move_actions: float | None = None
    squares: tuple[Pos, ...] = ()
    categories: tuple[str, ...] = ()
    why: str = ""

    @property
    def rounds(self) -> int | None:
        return whole_rounds(self.move_actions)

    @property
    def expected_rounds(self) -> float | None:
        return expected_rounds(self.expected_move_actions)


@dataclass(slots=True, eq=False)
class Traveller:
    """One body on one grid: its movement field, regions and the distance maps from the named
    points (computed when first asked for)."""

    grid: CaveGrid
    mover: Mover
    field: MoveField = dc_field(init=False)
    regions: np.ndarray = dc_field(init=False)
    ok: np.ndarray = dc_field(init=False)
    _maps: dict = dc_field(default_factory=dict, init=False)

    def __post_init__(self):
        self.field = move_field(self.grid, self.mover)
        self.ok = usable(self.field)
        self.regions = region_labels(self.field)

    def refs(self, name: str) -> list[Pos]:
        """Usable reference squares covering the named point, nearest first."""
        return [p for p in covering_refs(self.field, self.grid.points[name]) if self.ok[p[1], p[0]]]

    def region_of(self, name: str) -> int | None:
        refs = self.refs(name)
        return int(self.regions[refs[0][1], refs[0][0]]) if refs else None

    def distance(self, name: str, *, expected: bool) -> DistanceMap | None:
        """The engine's distance map from the named point (None when the body cannot stand there)."""
        key = (name, expected)
        if key not in self._maps:
            refs = self.refs(name)
            self._maps[key] = distance_map(self.field, refs[0], expected=expected) if refs else None
        return self._maps[key]

    def trip(self, start: str, goal: str) -> Trip:
        if not self.refs(start):
            return Trip(start, goal, False, why=f"cannot stand at {start}")
        goals = self.refs(goal)
        if not goals:
            return Trip(start, goal, False, why=f"cannot stand at {goal}")
        g = self.distance(start, expected=False)
        e = self.distance(start, expected=True)
        assert g is not None and e is not None
        best_g = _best(g, goals)
        best_e = _best(e, goals)
        if best_g is None and best_e is None:
            return Trip(start, goal, False, why=f"no way from {start} to {goal}")
        target = (best_g or best_e)[1]
        s0 = self.refs(start)[0]
        path = find_path(self.field, s0, target)
        squares = tuple(tuple(q) for q in path.squares)
        cats = tuple(Category(int(self.field.category[y, x])).name for x, y in squares)
        return Trip(start, goal, True, move_actions=None if best_g is None else best_g[0],
                    expected_move_actions=None if best_e is None else best_e[0], squares=squares, categories=cats)


def _best(d: DistanceMap, goals: list[Pos]) -> tuple[float, Pos] | None:
    best = None
    for x, y in goals:
        a = float(d.actions[y, x])
        if math.isnan(a):
            continue
        if best is None or a < best[0]:
            best = (a, (x, y))
    return best


def travel_between(grid: CaveGrid, mover: Mover, start: str, goal: str) -> Trip:
    """One trip (see :class:`Traveller` for many)."""
    return Traveller(grid, mover).trip(start, goal)
