"""The AI's side of a mechanic: the :class:`Tactic` record (issue 33 item 2).

A mechanic's rules are one :class:`sim.engine.mechanics.Mechanic` in the engine; how the default
AI plays it is one :class:`Tactic` here, registered in :data:`sim.engine.ai.registry.TACTICS`
(the engine never imports the AI: the two records meet by the mechanic's name only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.world import World

#: The usual melee choice of the policy, ``(w, c, turn, targets) -> action or None``: what a
#: tactic falls back on (a confused creature attacking the nearest).
Melee = Callable[[World, Creature, Turn, list[Creature]], object]
#: ``(w, c, turn, foes, melee) -> action or None``.
Choose = Callable[[World, Creature, Turn, list[Creature], Melee], object]


@dataclass(frozen=True, slots=True)
class Tactic:
    """``choose`` returns the action ``mechanic`` imposes or suggests for ``c`` now (swallowed:
    cut out; confused: what the roll says; a roper: its strands), or None: the usual policy goes on."""

    mechanic: str
    choose: Choose
