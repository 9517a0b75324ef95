"""The AI-side registry: the mechanics' tactics, in the order the default AI asks them.

:data:`TACTICS` lists :class:`sim.engine.ai.tactic.Tactic` records, each built in the AI module of
its mechanic (the engine's records are in :mod:`sim.engine.registry`; the engine never imports
this). :func:`sim.engine.ai.decide.default_policy` asks them phase by phase
(:data:`sim.engine.ai.tactic.PHASES`), each phase's in this order: the first action one returns
is the creature's (or its None, when the tactic holds the creature); when none does, the usual
policy goes on. :data:`DETOURS` are asked, in order, before the policy moves toward a square.

Adding a mechanic's tactic: build its record in its AI module (its phase declared), add it here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.base.coords import Pos
from sim.engine.actions import Turn
from sim.engine.ai import armor as ai_armor
from sim.engine.ai import grapple as ai_grapple
from sim.engine.ai import specials as ai_specials
from sim.engine.ai import spell_like as ai_spell_like
from sim.engine.ai import strands as ai_strands
from sim.engine.ai import swallow as ai_swallow
from sim.engine.ai.tactic import IMPOSED, Detour, Melee, Tactic
from sim.engine.creature import Creature
from sim.engine.world import World

#: The tactics in the declared order (see the module docstring); each phase's are asked together.
TACTICS: tuple[Tactic, ...] = (
    ai_swallow.SWALLOW,        # imposed: inside: cut out or escape; swallow, engulf (§11.13)
    ai_specials.SPECIALS,      # imposed: confusion, a web holding it (bestiary)
    ai_strands.STRANDS,        # imposed: a roper's strands, a stuck creature (§11.15)
    ai_specials.WEB_THROW,     # imposed: a monstrous spider's web (bestiary)
    ai_spell_like.SPELL_LIKE,  # perceived: darkness, faerie fire, invisibility, enlarge, blur (§8.5)
    ai_grapple.GRAPPLE,        # held: squeeze, strike the grappler, or escape (§11.11)
)

#: What a mechanic makes a creature do on its way to a square, in order.
DETOURS: tuple[Detour, ...] = (
    ai_armor.ARMOR_OFF,        # armor off before a crawlway, or around it (§2.4, §7.33)
)


@dataclass(frozen=True, slots=True)
class Choice:
    """A tactic's answer that settles this step of the policy: ``action`` is the creature's (None:
    it does nothing more this turn, when ``mechanic`` holds it)."""

    mechanic: str
    action: object


def choice(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee,
           tactics: tuple[Tactic, ...] = TACTICS, phase: str = IMPOSED) -> Choice | None:
    """The answer of the first tactic of ``phase`` that settles ``c``'s step now, or None."""
    for tactic in tactics:
        if tactic.phase != phase:
            continue
        act = tactic.choose(w, c, t, foes, melee)
        if act is not None or (tactic.holds is not None and tactic.holds(c)):
            return Choice(tactic.mechanic, act)
    return None


def first_choice(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee,
                 tactics: tuple[Tactic, ...] = TACTICS, phase: str = IMPOSED):
    """The first action a tactic of ``phase`` returns for ``c`` now, or None."""
    found = choice(w, c, t, foes, melee, tactics, phase)
    return None if found is None else found.action


def detour(w: World, c: Creature, t: Turn, p: Pos, detours: tuple[Detour, ...] | None = None):
    """The first action a mechanic makes ``c`` take before it moves toward ``p``, or None
    (``detours``: :data:`DETOURS` as it stands when asked)."""
    for d in DETOURS if detours is None else detours:
        act = d.choose(w, c, t, p)
        if act is not None:
            return act
    return None
