"""The input records: what an encounter or a crawl file says, once it has been validated.

These are frozen records and nothing else: :mod:`sim.scenario.files` reads and checks the files and
builds them, the fight engine and the crawl read them. No file is opened here.

>>> SETTINGS_DEFAULTS["round_cap"]
30
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.base.coords import Pos
from sim.base.fileio import located
from sim.terrain.grid import CaveGrid

#: Bounds of what an encounter or crawl file may ask for (checked before any work).
MAX_SEED = 2 ** 64 - 1     # a seed
MAX_ROUND_CAP = 10_000     # rounds before a fight is called a draw
MAX_ITEMS = 1000           # of one item a combatant carries
MAX_COMBATANTS = 1000      # in one encounter or crawl

SETTINGS_DEFAULTS: dict[str, Any] = {
    "round_cap": 30,            # rounds before a fight is called a draw
    "swarm_shape": "any",       # "any": any 4 contiguous squares; "square": 2x2 unless squeezed (§4.2)
    "crawl_weapon_rows": True,  # §7.10: crawlways add the Narrow-or-Low weapon row (False: prone -4 only)
    "stab_below_light": True,   # §7.11: a stab-shifted light weapon counts as index 0
    "vision": True,             # RULES §9: light and sight decide attacks, movement and the AI (False: all see all)
    "light_sensitivity": "daylight",  # bestiary: "daylight" (SRD: never in caves) or "bright" (any bright light)
    "grapple_constricted": True,  # RULES §11.1: grapple checks take a light weapon's constricted-space penalty
    "ooze_squeeze": True,       # RULES §11.12: amorphous oozes squeeze without checks or penalties
}


@dataclass(frozen=True, slots=True)
class CombatantSpec:
    """One ``[[combatant]]`` of an encounter file, validated for form (the encounter engine checks
    that the creature fits where it is placed)."""

    id: str
    template: str
    team: str
    at: tuple[int, int]
    weapon: str | None = None
    off_hand: str | None = None
    items: tuple[tuple[str, int], ...] = ()
    name: str | None = None
    book_values: bool = False
    lit: bool = False
    light: str | None = None     # a lit light it carries from the start (RULES §9.1): "hooded-lantern", "sunrod"...
    line: int | None = None
    explicit_id: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class EncounterSpec:
    """An encounter file: the map, the combatants, the seed and the ``[settings]``."""

    name: str
    path: str
    grid: CaveGrid
    seed: int
    combatants: tuple[CombatantSpec, ...]
    settings: dict[str, Any]
    description: str = ""

    def where(self, spec: CombatantSpec, key: str) -> str:
        return located(Path(self.path), spec.line, f"[[combatant]] {spec.id!r} {key}")


@dataclass(frozen=True, slots=True, eq=False)
class CrawlSpec:
    """A crawl: the party (in marching order) going from ``start`` to ``goal``, and the monsters
    placed in the map."""

    name: str
    path: str
    grid: CaveGrid
    party: tuple[CombatantSpec, ...]
    start: Pos
    goal: Pos
    monsters: tuple[CombatantSpec, ...] = ()
    seed: int = 0
    settings: dict = field(default_factory=lambda: dict(SETTINGS_DEFAULTS))
    start_name: str = ""
    goal_name: str = ""
