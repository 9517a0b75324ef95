"""The AI's side of a mechanic: the :class:`Tactic` and :class:`Detour` records (issue 33 item 2).

A mechanic's rules are one :class:`sim.engine.mechanics.Mechanic` in the engine; how the default
AI plays it is one :class:`Tactic` here (or a :class:`Detour`, for what it does on its way to a
square), registered in :mod:`sim.engine.ai.registry` (the engine never imports the AI: the two
records meet by the mechanic's name only).

A tactic declares the **phase** of the policy at which it is asked
(:func:`sim.engine.ai.decide.default_policy` asks the phases in the order of :data:`PHASES`):

* :data:`IMPOSED` -- first, with every foe in the fight: what a mechanic imposes or the creature
  does before anything else (swallowed: cut out; confused: what the roll says; a roper's strands);
* :data:`PERCEIVED` -- once the creature knows which foes its side perceives (docs/rules.md §9.3)
  and has no hunt for an unseen one, before it closes: a spell-like ability (§8.5);
* :data:`HELD` -- after a swarm's and a nauseated creature's own choices, before the usual ones:
  a grapple (§11.11), which *holds* the creature (its answer is final, None included).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.base.coords import Pos
from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.world import World

#: The usual melee choice of the policy, ``(w, c, turn, targets) -> action or None``: what a
#: tactic falls back on (a confused creature attacking the nearest).
Melee = Callable[[World, Creature, Turn, list[Creature]], object]
#: ``(w, c, turn, foes, melee) -> action or None``.
Choose = Callable[[World, Creature, Turn, list[Creature], Melee], object]
#: ``(w, c, turn, square) -> action or None``: what ``c`` does before it moves toward ``square``.
OnTheWay = Callable[[World, Creature, Turn, Pos], object]

IMPOSED = "imposed"
PERCEIVED = "perceived"
HELD = "held"
#: The phases in the order the policy asks them (see the module docstring).
PHASES = (IMPOSED, PERCEIVED, HELD)


@dataclass(frozen=True, slots=True)
class Tactic:
    """``choose`` returns the action ``mechanic`` imposes or suggests for ``c`` now (swallowed:
    cut out; confused: what the roll says; a roper: its strands), or None: the usual policy goes on.
    It is asked at its ``phase`` (one of :data:`PHASES`). When ``holds`` says the mechanic holds
    ``c`` (a creature in a grapple does only what the grapple allows), the answer is final even
    when it is None: the creature does nothing more this turn."""

    mechanic: str
    choose: Choose
    phase: str = IMPOSED
    holds: Callable[[Creature], bool] | None = None


@dataclass(frozen=True, slots=True)
class Detour:
    """``choose`` returns what ``mechanic`` makes ``c`` do before it moves toward a square (armor
    off before a crawlway, or the walk to the crawlway's mouth), or None: it moves there."""

    mechanic: str
    choose: OnTheWay
