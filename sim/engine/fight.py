"""The one place that picks the default AI: build a fight ready to run, or run one.

The turn loop (:mod:`sim.engine.encounter`) never imports the AI (:mod:`sim.engine.ai.decide`), which
imports the engine's rules; this module sits above both.
"""

from __future__ import annotations

from typing import Callable

from sim.engine.ai.decide import default_policy
from sim.engine.encounter import Encounter
from sim.scenario.specs import EncounterSpec


def new_encounter(spec: EncounterSpec, *, seed: int | None = None, policy: Callable | None = default_policy,
                  settings: dict | None = None, shared: dict | None = None) -> Encounter:
    """An :class:`Encounter` of ``spec`` played by ``policy`` (the default AI unless given; None
    for a fight driven action by action)."""
    return Encounter(spec, seed=seed, policy=policy, settings=settings, shared=shared)


def run_fight(spec: EncounterSpec, *, seed: int | None = None, policy: Callable | None = default_policy) -> Encounter:
    """Play a whole fight; the encounter (events, creatures, winner) is returned."""
    enc = new_encounter(spec, seed=seed, policy=policy)
    enc.run()
    return enc
