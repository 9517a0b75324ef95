"""The mechanics of the fight, in the one order the turn loop runs them (issue 33 item 2).

:data:`REGISTRY` is a tuple of :class:`sim.engine.mechanics.Mechanic` records, each built in its
own rule module. The order is declared here once and is the order of everything the turn loop
does with them: the start-of-turn hooks (the order of their events and random draws: the goldens
freeze it), the refusals asked before an action, the after-action hooks, the end-of-turn hooks,
the settle hooks after those. :data:`HANDLERS` (action type -> handler) is built from it, one
handler per action type.

The parts of the fight's state the mechanics keep (:func:`parts`) come from the same records, in
the same order: the fight builds them and the saved game iterates them.

Adding a mechanic: build its record in its module (with its part, if it keeps state), add it to
:data:`REGISTRY` at the point of the turn its hooks belong (and its AI tactic, if any, to
:data:`sim.engine.ai.registry.TACTICS`).
"""

from __future__ import annotations

import functools
from typing import Callable

from sim.engine import (
    afflictions,
    armor,
    attack_actions,
    basics,
    damage,
    grapple,
    items,
    maneuvers,
    moves,
    rage,
    specials,
    spells,
    swallow,
    swarms,
    zones,
)
from sim.engine.actions import Impossible
from sim.engine.conditions import LASTING
from sim.engine.creature import Creature
from sim.engine.mechanics import Handler, Mechanic
from sim.engine.parts import Part
from sim.engine.strands import actions as strand_actions
from sim.engine.world import World

#: Every mechanic, in the declared order (see the module docstring).
REGISTRY: tuple[Mechanic, ...] = (
    zones.ZONE_EXPIRY,       # grease and webs over (docs/rules.md §8.1)
    swallow.SWALLOW,         # inside a host: cut out or escape (§11.13); its refusal comes first
    grapple.GRAPPLE,         # pins end, grapples that cannot go on end (§11)
    LASTING["paralysis"],   # a rider's paralysis over (sim/data/effects.toml: the moments)
    swallow.INSIDE,          # the gizzard crushes, the cube's acid burns what is inside (§11.13)
    basics.FRESH_TURN,       # flat-footed over, attacks of opportunity back, a run over
    LASTING["sleep"],       # magical sleep over (§8.3)
    zones.STINKING_CLOUD,    # in a stinking cloud, or 1d4+1 rounds after (§8.4)
    rage.RAGE,
    LASTING["rage"],        # a rage whose rounds are spent ends
    LASTING["spells"],      # invisibility, faerie fire, enlarge person, blur over (§8.5); hold person's
    #                          Will save each round; bless over
    damage.DYING,            # stabilise or lose 1 hp: nothing else at the start of its turn
    damage.REGENERATION,
    damage.BLEED,
    afflictions.POISON,
    spells.CASTING,          # a spell with a casting time of a round completes
    items.ITEMS,             # burning
    LASTING["wake"],        # a poison's sleep over
    specials.SPECIALS,       # light blindness, a gaze met, the confusion roll (bestiary)
    strand_actions.STRANDS,  # a roper drags what its strands hold (§11.15)
    swarms.SWARMS,           # distraction; the swarm's damage at the end of its turn
    moves.MOVEMENT,          # squeezing counted; a poor flier lands at the end of its turn
    LASTING["turn_end"],    # glitterdust: a new Will save at the end of the turn (§8.2)
    attack_actions.ATTACKS,
    maneuvers.MANEUVERS,     # trip and bull rush (§11.9-11.10)
    armor.ARMOR,             # armour off: the whole turn while the work lasts (§7.33)
    basics.DELAY,
)


@functools.cache
def handler_table(registry: tuple[Mechanic, ...]) -> dict[type, Handler]:
    """Action type -> handler over ``registry`` (cached: build it once per registry, read it
    only); an action claimed twice is a ValueError."""
    table: dict[type, Handler] = {}
    owner: dict[type, str] = {}
    for m in registry:
        for kind, fn in m.actions.items():
            if kind in table:
                raise ValueError(f"action {kind.__name__} is handled by both {owner[kind]!r} and {m.name!r}")
            table[kind], owner[kind] = fn, m.name
    return table


@functools.cache
def parts(registry: tuple[Mechanic, ...] = REGISTRY) -> tuple[Part, ...]:
    """The parts of the fight's state the mechanics of ``registry`` declare, in its order (the
    world builds them; the saved game writes and reads them in this order); a name declared twice
    is a ValueError."""
    out: dict[str, Part] = {}
    owner: dict[str, str] = {}
    for m in registry:
        if m.part is not None:
            if m.part.name in out:
                raise ValueError(f"the part {m.part.name!r} is declared by both {owner[m.part.name]!r} and {m.name!r}")
            out[m.part.name], owner[m.part.name] = m.part, m.name
    return tuple(out.values())


#: What runs when a creature takes an action: its type -> handler(world, creature, turn, action),
#: which returns True (done) or an :class:`Impossible`.
HANDLERS: dict[type, Handler] = handler_table(REGISTRY)


def start_of_turn(w: World, c: Creature, registry: tuple[Mechanic, ...] = REGISTRY) -> None:
    """Every start-of-turn hook in order, until one settles the turn's start (a dying creature)."""
    for m in registry:
        if m.start_of_turn is not None and m.start_of_turn(w, c):
            return


def occupied(w: World, c: Creature, registry: tuple[Mechanic, ...] = REGISTRY) -> bool:
    """Whether a mechanic takes ``c``'s whole turn (asked once, after the start-of-turn hooks)."""
    busy = False
    for m in registry:
        if m.occupies is not None and m.occupies(w, c):
            busy = True
    return busy


def refusal(w: World, c: Creature, action, registry: tuple[Mechanic, ...] = REGISTRY) -> Impossible | None:
    """The first refusal of ``action`` by a mechanic whose state binds ``c`` (swallowed, grappled,
    stuck to a strand...), or None."""
    for m in registry:
        if m.refusal is not None:
            no = m.refusal(w, c, action)
            if no is not None:
                return no
    return None


def check(w: World, c: Creature, action, registry: tuple[Mechanic, ...] = REGISTRY) -> Impossible | None:
    """Why ``action`` cannot be taken by ``c`` now, as the rules say before any die is rolled:
    the refusals, then the action's own check. The turn loop asks it once before the action's
    handler (which does not check again), the AI before choosing (instead of copying the rules)."""
    no = refusal(w, c, action, registry)
    if no is not None:
        return no
    for m in registry:
        own = m.checks.get(type(action))
        if own is not None:
            return own(w, c, action)
    return None


def after_action(w: World, registry: tuple[Mechanic, ...] = REGISTRY) -> None:
    """After each action: the after-action hooks, then the settle hooks."""
    _each(registry, "after_action", w)
    _each(registry, "settle", w)


def end_of_turn(w: World, c: Creature, registry: tuple[Mechanic, ...] = REGISTRY) -> None:
    """At the end of ``c``'s turn: the end-of-turn hooks, then the settle hooks."""
    for m in registry:
        if m.end_of_turn is not None:
            m.end_of_turn(w, c)
    _each(registry, "settle", w)


def _each(registry: tuple[Mechanic, ...], hook: str, w: World) -> None:
    for m in registry:
        fn: Callable | None = getattr(m, hook)
        if fn is not None:
            fn(w)

