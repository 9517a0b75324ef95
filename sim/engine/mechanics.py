"""A mechanic as one registered unit: the :class:`Mechanic` record (issue 33 item 2).

A mechanic (grapple, swallow, a roper's strands, a stinking cloud, rage...) is what the turn loop
needs to know of one rule: the actions it adds (action type -> handler), the moments of the turn
it acts in (the start of a creature's turn, the end of it, after each action, the settling after
either), the actions it refuses while its state lasts, the checks of its own actions that the AI
asks before choosing one, and the part of the fight's state it keeps (:class:`~sim.engine.parts.Part`:
the world's attribute and its record type), which the world builds and the saved
game writes and reads in the registry's order. Each rule module builds its record beside the
functions it names; :mod:`sim.engine.registry` lists the records in the one declared order the
turn loop runs them in.

The AI's side of a mechanic (its tactic) is registered apart, in :mod:`sim.engine.ai.tactics`:
the engine never imports the AI.

Signatures (``w`` the world, ``c`` the creature concerned):

* a handler ``(w, c, turn, action) -> True | Impossible`` (the engine's answer, STYLE habit 6);
* a start-of-turn hook ``(w, c) -> bool | None``: True when it settles the creature's turn start
  (a dying creature rolls to stabilise and nothing else happens to it, docs/rules.md §5.5): the
  hooks after it do not run;
* an end-of-turn hook ``(w, c) -> None``; an after-action and a settle hook ``(w) -> None``;
* a refusal ``(w, c, action) -> Impossible | None`` (asked of every action, before its handler);
  a check ``(w, c, action) -> Impossible | None`` (asked of its own action type only);
* an occupying hook ``(w, c) -> bool``: True when the mechanic takes the creature's whole turn
  (armour being taken off, docs/rules.md §7.33).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping

from sim.engine.actions import Impossible, Turn
from sim.engine.creature import Creature
from sim.engine.parts import Part
from sim.engine.world import World

Handler = Callable[[World, Creature, Turn, object], "bool | Impossible"]
StartHook = Callable[[World, Creature], "bool | None"]
CreatureHook = Callable[[World, Creature], None]
WorldHook = Callable[[World], None]
Check = Callable[[World, Creature, object], "Impossible | None"]
Occupies = Callable[[World, Creature], bool]


def _frozen(m: Mapping | None) -> Mapping:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True, slots=True, eq=False)
class Mechanic:
    """One rule's record: see the module docstring. Every part but ``name`` is optional. Two
    records are the same mechanic only if they are the same object (hashable by identity: a
    tuple of them keys the cached handler table)."""

    name: str
    actions: Mapping[type, Handler] = field(default_factory=dict)
    start_of_turn: StartHook | None = None
    end_of_turn: CreatureHook | None = None
    after_action: WorldHook | None = None
    settle: WorldHook | None = None
    refusal: Check | None = None
    checks: Mapping[type, Check] = field(default_factory=dict)
    occupies: Occupies | None = None
    part: Part | None = None

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a mechanic needs a name")
        for what in ("actions", "checks"):
            table = getattr(self, what)
            bad = [k for k in table if not isinstance(k, type)]
            if bad:
                raise ValueError(f"mechanic {self.name!r}: {what} keys must be action types, got {bad!r}")
            object.__setattr__(self, what, _frozen(table))
        missing = [k.__name__ for k in self.checks if k not in self.actions]
        if missing:
            raise ValueError(f"mechanic {self.name!r}: checks for actions it does not handle: {missing}")
