"""A route for a creature in medium or heavy armor (RULES §2.4, §7.33; the rule: :mod:`sim.rules.armor`).

Such armor must come off before a crawlway, awkward space or tight squeeze. :func:`armored_route`
plans the way for ``cavesim path``:

* **through**: the best way with the armor off (the creature's body is the same; its speed and
  Escape Artist are those without armor), cut at the last square before the first square that
  needs the armor off (the *mouth*): walked there armored, then the removal as a step of its own
  (``"kind": "armor_off"``: 1 minute = 10 rounds, 1d4+1 minutes for half-plate and full plate:
  20 to 50 rounds), then the rest unarmored;
* **around**: the best way over squares it may enter armored, if there is one.

The faster of the two by expected time wins (around on ties). Time: the guaranteed figure counts
the removal at its longest (50 rounds for 1d4+1 minutes), the expected one at its mean (35); a
removal takes whole rounds of its own (a full-round action, then every turn until done).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.rules.armor import (
    needs_armor_off,
    removal_rounds_expected,
    removal_rounds_range,
    removal_text,
)
from sim.rules.categories import Category
from sim.rules.weapons import ArmorPiece
from sim.terrain.movement.costs import Mover
from sim.terrain.movement.field import BLOCKED, MoveField, move_field
from sim.terrain.movement.queries import Path, find_path, whole_rounds


def shed_squares(field: MoveField) -> np.ndarray:
    """The squares the mover may not enter in medium or heavy armor (crawl, awkward, tight)."""
    cat = field.category
    return (cat >= int(Category.CRAWL)) & (cat < int(Category.IMPASSABLE)) & (field.mode != BLOCKED)


@dataclass(frozen=True, slots=True)
class ArmoredRoute:
    """``before`` (armored; the whole way when there is no removal), then the removal at
    ``before``'s last square and ``after`` (unarmored), when ``after`` is not None."""

    before: Path
    after: Path | None = None
    armor: ArmorPiece | None = None
    removal_rounds: tuple[int, int] = (0, 0)    # fewest, most
    removal_expected: float = 0.0

    @property
    def reachable(self) -> bool:
        return self.before.reachable and (self.after is None or self.after.reachable)

    @property
    def squares(self) -> list:
        return list(self.before.squares) + (list(self.after.squares[1:]) if self.after is not None else [])

    @property
    def feet(self) -> int:
        return self.before.feet + (self.after.feet if self.after is not None else 0)

    def _sum(self, a: float | None, b: float | None, removal: float) -> float | None:
        if a is None or b is None:
            return None
        return a + b + 2 * removal

    @property
    def move_actions(self) -> float | None:
        """Guaranteed move actions, the removal at its longest (two move actions a round)."""
        if self.after is None:
            return self.before.move_actions
        return self._sum(self.before.move_actions, self.after.move_actions, self.removal_rounds[1])

    @property
    def expected_move_actions(self) -> float | None:
        if self.after is None:
            return self.before.expected_move_actions
        return self._sum(self.before.expected_move_actions, self.after.expected_move_actions, self.removal_expected)

    @property
    def rounds(self) -> int | None:
        """Guaranteed rounds: the walk to the mouth, the removal (whole rounds of its own), the rest."""
        if self.after is None:
            return self.before.rounds
        if self.before.move_actions is None or self.after.move_actions is None:
            return None
        return whole_rounds(self.before.move_actions) + self.removal_rounds[1] + whole_rounds(self.after.move_actions)

    @property
    def expected_rounds(self) -> float | None:
        """Expected rounds: the walk to the mouth in whole rounds (the removal starts a turn of
        its own), the mean removal, the rest's expected move actions over two."""
        if self.after is None:
            return self.before.expected_rounds
        b, a = self.before.expected_move_actions, self.after.expected_move_actions
        if a is None or b is None:
            return None
        return math.ceil(b / 2) + self.removal_expected + a / 2

    @property
    def last_turn_move_actions(self) -> int | None:
        """What the last turn uses (RULES §6.1): the unarmored rest's, or the whole way's without a removal."""
        return (self.before if self.after is None else self.after).last_turn_move_actions

    def armor_step(self) -> dict | None:
        if self.after is None or self.armor is None:
            return None
        lo, hi = self.removal_rounds
        at = self.before.squares[-1] if self.before.squares else self.after.squares[0]
        return {"at": list(at), "kind": "armor_off", "armor": self.armor.key, "removal": removal_text(self.armor),
                "rounds": lo if lo == hi else [lo, hi], "expected_rounds": self.removal_expected,
                "move_action": 0, "feet": 0, "category": None}

    def to_json(self) -> dict:
        steps = [s.to_json() for s in self.before.steps]
        if self.after is not None:
            steps.append(self.armor_step())
            steps += [s.to_json() for s in self.after.steps]
        return {"reachable": self.reachable, "squares": [list(s) for s in self.squares], "steps": steps,
                "feet": self.feet, "move_actions": self.move_actions, "rounds": self.rounds,
                "expected_move_actions": self.expected_move_actions, "expected_rounds": self.expected_rounds,
                "last_turn_move_actions": self.last_turn_move_actions}


def _cost(p) -> float:
    v = p.expected_move_actions
    return float("inf") if v is None or not p.reachable else float(v)


def armored_route(grid, armored: Mover, unarmored: Mover, armor: ArmorPiece, start, goal) -> ArmoredRoute:
    """The route from ``start`` to ``goal`` of a creature that wears ``armor`` (medium or heavy)
    as ``armored`` and moves as ``unarmored`` once it is off (see the module docstring)."""
    fa = move_field(grid, armored)
    fu = move_field(grid, unarmored)
    shed = shed_squares(fa) | shed_squares(fu)
    keep = shed.copy()
    keep[start[1], start[0]] = False
    around = find_path(fa, start, goal, blocked=keep) if not shed[goal[1], goal[0]] else None
    full = find_path(fu, start, goal)
    first = next((i for i, s in enumerate(full.steps) if needs_armor_off(Category[s.category])), None) \
        if full.reachable else None
    if first is None and not (full.reachable and shed[start[1], start[0]]):
        armored_only = around if around is not None and around.reachable else find_path(fa, start, goal)
        return ArmoredRoute(armored_only)
    mouth = tuple(full.steps[first - 1].at) if first else tuple(start)
    before = find_path(fa, start, mouth, blocked=keep) if mouth != tuple(start) else find_path(fa, start, start)
    if not before.reachable:
        before = find_path(fa, start, mouth)
    after = find_path(fu, mouth, goal)
    through = ArmoredRoute(before, after, armor, removal_rounds_range(armor), removal_rounds_expected(armor))
    if around is not None and around.reachable and _cost(around) <= _cost(through):
        return ArmoredRoute(around)
    return through
