"""The AI-side registry: the mechanics' tactics, in the order the default AI asks them.

:data:`TACTICS` lists :class:`sim.engine.ai.tactic.Tactic` records, each built in the AI module of
its mechanic (the engine's records are in :mod:`sim.engine.registry`; the engine never imports
this). :func:`sim.engine.ai.decide.default_policy` asks them first, in this order: the first
action one returns is the creature's; when none does, the usual policy chooses.

Adding a mechanic's tactic: build its record in its AI module, add it here.
"""

from __future__ import annotations

from sim.engine.actions import Turn
from sim.engine.ai import specials as ai_specials
from sim.engine.ai import strands as ai_strands
from sim.engine.ai import swallow as ai_swallow
from sim.engine.ai.tactic import Melee, Tactic
from sim.engine.creature import Creature
from sim.engine.world import World

#: The tactics in the declared order (see the module docstring).
TACTICS: tuple[Tactic, ...] = (
    ai_swallow.SWALLOW,       # inside: cut out or escape; swallow, engulf (§11.13)
    ai_specials.SPECIALS,     # confusion, a web holding it (bestiary)
    ai_strands.STRANDS,       # a roper's strands, a stuck creature (§11.15)
    ai_specials.WEB_THROW,    # a monstrous spider's web (bestiary)
)


def first_choice(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee,
                 tactics: tuple[Tactic, ...] = TACTICS):
    """The first action a tactic returns for ``c`` now, or None."""
    for tactic in tactics:
        act = tactic.choose(w, c, t, foes, melee)
        if act is not None:
            return act
    return None
