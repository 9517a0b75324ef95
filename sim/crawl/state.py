"""What a crawl carries from stretch to stretch (:class:`CrawlState`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.base.coords import Pos
from sim.crawl.records import Entry, TrackPoint, Why
from sim.crawl.route import travel_mover
from sim.engine.creature import Creature
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import CombatantSpec
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import move_field
from sim.terrain.movement.field import MoveField


@dataclass(slots=True, eq=False)
class CrawlState:
    """The clock (rounds), who is still travelling and their movement fields, whose armor is off,
    the monsters not yet met, and the records being written (timeline, tracks, who was left behind
    and why)."""

    grid: CaveGrid
    route: list[Pos]
    rng: np.random.Generator
    travellers: list[Creature]
    monsters_left: list[CombatantSpec]
    t: float = 0.0
    fields: dict[str, MoveField] = field(default_factory=dict)
    armor_off: set[str] = field(default_factory=set)
    timeline: list[Entry] = field(default_factory=list)
    tracks: dict[str, list[TrackPoint]] = field(default_factory=dict)
    left_behind: dict[str, Why] = field(default_factory=dict)

    def fields_now(self) -> dict[str, MoveField]:
        """The travellers' movement fields as they are now (armour on or off), each with an ally's
        aid on Escape Artist when another traveller can give it (RULES: aid another, +2)."""
        out = {}
        for c in self.travellers:
            aid = combat_modifier("skills", "aid_another") \
                if any(o is not c and travel_mover(o).escape_artist >= 0 for o in self.travellers) else 0
            out[c.id] = move_field(self.grid, travel_mover(c, aid=aid))
        return out
