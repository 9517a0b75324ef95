"""The AI's notes between turns (``World.memory``, issue 33 item 1): what the policy remembers
and the rule state it reads back, each note a declared field. Rule state proper lives on the
creature (its effects, :mod:`sim.engine.effects`, and its use counters); what stays here is what
a player at the table would keep in mind: where a foe was last seen, the rounds spent holding a
chokepoint, who attacked a confused creature, the confusion roll it acts on this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class AINotes:
    """The policy's memory of the fight, saved with it (sim.engine.saved.snapshot)."""
    #: team -> foe id -> the square where that side last saw it (sim.engine.ai.unseen).
    last_seen: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    #: creature id -> the rounds it held its ground waiting for a walker (at most ten).
    held_ground: dict[str, set[int]] = field(default_factory=dict)
    #: creature id -> the rounds it waited before a chokepoint (patience: three).
    held_rounds: dict[str, set[int]] = field(default_factory=dict)
    #: creature id -> the rounds it kept to the dark to strike from it (sim.engine.ai.unseen).
    kept_dark: dict[str, set[int]] = field(default_factory=dict)
    #: the creatures that backed out of a space where their weapon does not work (no walking back in).
    backed_out: set[str] = field(default_factory=set)
    #: creature id -> the policy's why for its next action, logged as a ``decided`` event.
    ai_note: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: a confused creature's id -> the one that attacked it since its last turn (it strikes back).
    attacked_by: dict[str, str] = field(default_factory=dict)
    #: a confused creature's id -> (round, behaviour, the creature it concerns) of this turn's roll.
    confused_act: dict[str, tuple[int, str, str | None]] = field(default_factory=dict)
    #: creature id -> it stood in bright light at its last turn (light blindness strikes on the change).
    was_bright: dict[str, bool] = field(default_factory=dict)


def notes_of_schema4(memory: dict) -> AINotes:
    """The notes of a saved game of schema 4 or older (the memory a dict under tuple and text
    keys, its rule keys already taken out: sim.engine.saved.legacy_effects). A key that is no note is
    a ValueError naming it."""
    notes = AINotes()
    for key, v in memory.items():
        name, who = (key if isinstance(key, tuple) and len(key) == 2 else (key, None))
        box = getattr(notes, name, None) if isinstance(name, str) and name in AINotes.__dataclass_fields__ else None
        if box is None:
            raise ValueError(f"state.memory.{key}: not a note of the AI's")
        if who is None:
            if type(v) is not type(box):
                raise ValueError(f"state.memory.{name}: {type(v).__name__} where a {type(box).__name__} is kept")
            box.update(v)
        else:
            box[who] = v
    return notes
