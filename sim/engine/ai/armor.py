"""The AI's choice before a crawlway in armor (RULES §2.4, §7.33; the rule: :mod:`sim.engine.armor`).

An armored creature whose best way to where it wants to go leads through squares it may not
enter armored weighs the time (in move actions, two a round):

* **through**: the way as it is, plus the mean time of taking the armor off (10 rounds for a
  minute's work, 35 for 1d4+1 minutes; half with a helper beside it);
* **around**: the best way over squares it may enter armored, if there is one.

Around wins ties; then its move simply goes around (the move itself keeps to such squares,
``armor.keep_armored``). Otherwise it walks to the last square before the first such square
(the mouth; beside it when an ally stands in it), and there takes the armor off -- with the help of an adjacent ally who has no armor
of its own to change and no enemy at hand -- unless an enemy threatens it, in which case it waits
(and fights what comes).
"""

from __future__ import annotations

import math

from sim.base.coords import Pos
from sim.engine import armor, attacks, moves
from sim.engine.actions import Delay, Move, RemoveArmor, Turn
from sim.engine.ai.tactic import Detour
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.terrain.geometry import distance_squares


def _cost(path) -> float:
    v = path.expected_move_actions
    return math.inf if v is None else float(v)


def helper(w: World, c: Creature) -> Creature | None:
    """An ally beside ``c`` free to help it out of its armor: able to act, no armor of its own to
    change, not busy, and not threatened by an enemy (the first by id)."""
    foes = [o for o in w.enemies(c) if o.in_fight]
    for o in sorted(w.allies(c), key=lambda o: o.id):
        h = armor.helper_for(w, c, o.id)
        if h is None or not isinstance(h, Creature):
            continue
        if any(set(o.squares) & attacks.threatens(w, f) for f in foes):
            continue
        return o
    return None


def armor_first(w: World, c: Creature, t: Turn, p: Pos):
    """What ``c`` does about its armor on its way to ``p``: None (nothing to do: go on, or go
    around), a move to the mouth, taking the armor off there, or waiting."""
    if not armor.armored(c):
        return None
    f = w.field(c)
    blocked, _ = w.occupancy_masks(c)
    blocked[c.pos[1], c.pos[0]] = False
    path = moves.search_path(w, c, f, p, blocked)
    if not path.reachable:
        return None
    first = next((i for i, s in enumerate(path.steps) if armor.step_refused(c, s)), None)
    if first is None:
        return None
    ally = helper(w, c)
    through = _cost(path) + 2 * armor.removal_estimate_rounds(c, helped=ally is not None)
    around = armor.armored_path(w, c, f, p, blocked)
    if around.reachable and _cost(around) <= through:
        return None
    mouth = tuple(path.steps[first - 1].at) if first > 0 else tuple(c.pos)
    if mouth != tuple(c.pos):
        for budget in ((2, 1) if t.full_move else (1,)):
            if moves.movement_plan(w, c, mouth, budget=budget):
                return Move(mouth, double=budget == 2)
        if distance_squares(c.pos, mouth) > 2:
            return None  # the mouth is taken (an ally in it): closer, as far as the move goes
        # beside the mouth an ally stands in: the armor comes off here (the same time anywhere)
    foes = [o for o in w.enemies(c) if o.in_fight]
    if not t.full_round or any(set(c.squares) & attacks.threatens(w, o) for o in foes):
        return Delay()  # next turn, or once no enemy is at hand
    return RemoveArmor(ally.id if ally is not None else None)


ARMOR_OFF = Detour("armour removal", armor_first)   # §2.4, §7.33
