"""A move of one square that a 5-ft step makes without provoking (issue 31 item 2: the blunder
``needless_aoo``, docs/rules.md §13).

The AI's choices sometimes end a turn with a move action of a single square out of a foe's reach
(a rogue stepping back after her blow). When the turn's standard action is spent, no movement
came before, and the square is one a 5-ft step may enter (RULES §6.1, §7.36: not into or inside
constricted squares or difficult terrain, not prone, not nauseated, speed over 5 ft), the step goes
to the same square without drawing the attacks of opportunity the move draws: the AI takes it.
"""

from __future__ import annotations

from sim.engine import attacks, moves
from sim.engine.actions import FiveFootStep, Impossible, Move, Turn
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.terrain.geometry import distance_squares


def as_step(w: World, c: Creature, t: Turn, action):
    """``action``, or a 5-ft step to the same square when that is the same move without the
    attacks of opportunity (see the module docstring); after such a step, no other movement this
    turn (RULES §6.1): a move the choices still ask for ends the turn instead."""
    if t.stepped and isinstance(action, Move):
        return None
    if (not isinstance(action, Move) or action.double or t.standard or t.moved or t.stepped or c.nauseated
            or c.prone or c.speed_ft_value() <= 5 or distance_squares(c.pos, action.to) != 1):
        return action
    if not any(set(c.squares) & attacks.threatens(w, f) for f in w.enemies(c) if f.in_fight):
        return action   # nobody would take the attack: the move is as good
    f = w.field(c)
    x, y = action.to
    if not w.grid.in_bounds(action.to) or f.mult[y, x] != 1:
        return action
    there = Category(int(f.category[y, x]))
    if not effects(attacks.standing_category(w, c)).five_foot_step or not effects(there).five_foot_step:
        return action
    path = moves.path_to(w, c, action.to)
    if isinstance(path, Impossible) or len(path.steps) != 1:
        return action
    return FiveFootStep(action.to)
