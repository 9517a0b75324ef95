"""Movement by the 3.5 rules in constricted caves (RULES §2.4, §2.6-2.7, §5.1, §5.3, §6, §7.30-37).

Public API (pure functions over arrays, usable from Python and the CLI):

* :class:`Mover` -- who moves: body, speed, Escape Artist modifier, take 10/20, flying...
* :func:`move_field` -- per-square movement modes and multipliers for one mover on one grid
* :func:`distance_map` -- time from a start to every square (move actions, rounds, feet)
* :func:`find_path` -- the best path to a goal with per-step categories and costs
* :func:`reach` -- squares reachable this turn with one move action and with a double move (one
  move of up to twice the speed)
"""

from sim.terrain.movement.costs import Mover, escape_tries
from sim.terrain.movement.field import MoveField, move_field
from sim.terrain.movement.queries import (
    DistanceMap,
    Path,
    Reach,
    Step,
    distance_map,
    find_path,
    reach,
)

__all__ = [
    "Mover", "escape_tries", "MoveField", "move_field", "DistanceMap", "Path", "Reach", "Step",
    "distance_map", "find_path", "reach",
]
