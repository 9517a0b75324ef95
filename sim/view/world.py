"""What the screen asks the rules: categories, reach, travel times, path previews (no pygame).

The renderer never decides a rule; it asks the engine's own functions. A :class:`World` holds an
:class:`~sim.engine.encounter.Encounter`: the live one during play, or a *shadow* rebuilt from the
fight's first event for a replay, whose creatures are moved to where the view model says they
stand (:meth:`World.sync`) before each question. Answers are cached on the view's version.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from sim.base.coords import Pos
from sim.engine import attacks
from sim.engine.conditions import show
from sim.engine.encounter import Encounter
from sim.engine.moves import movement_plan, turn_spent
from sim.rules.categories import Category
from sim.scenario.specs import CombatantSpec, EncounterSpec
from sim.terrain.classify import classify_all_sizes
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import distance_map, find_path, reach
from sim.terrain.movement.field import BLOCKED


@dataclass(frozen=True, slots=True)
class PathPreview:
    """A path the current creature could take: its steps, how many fit in one move action and in
    a double move this turn (``single``, ``double``), and the totals."""

    start: Pos
    to: Pos
    squares: list[Pos]          # start first
    steps: list                 # sim.terrain.movement.Step, one per square after the start
    single: int                 # steps that fit in one move action now
    double: int                 # steps that fit in a double move now
    feet: int
    rounds: int | None
    reason: str = ""            # why there is no path, if there is none

    @property
    def reachable(self) -> bool:
        return bool(self.steps)


class World:
    """Engine queries for the screen. ``live``: the encounter is the real one (play); otherwise
    it is a shadow kept in step with the view model."""

    def __init__(self, enc, *, live: bool):
        self.enc = enc
        self.live = live
        self.grid: CaveGrid = enc.grid
        self._synced = -1
        self._cache: dict = {}
        self._sizes: np.ndarray | None = None

    # -- building ------------------------------------------------------------------------------------
    @classmethod
    def shadow(cls, start_event, grid: CaveGrid, *, base_path: str | Path = ".", name: str = "") -> "World":
        """A shadow encounter from an ``encounter_start`` event and its map (for replays)."""
        specs = []
        for d in start_event.combatants:
            sq = d["squares"][0] if d["squares"] else [0, 0]
            specs.append(CombatantSpec(id=d["id"], template=d["template"], team=d["team"], at=(int(sq[0]), int(sq[1])),
                                       name=d["name"], explicit_id=True))
        spec = EncounterSpec(name=name or start_event.map, path=str(base_path), grid=grid, seed=int(start_event.seed),
                             combatants=tuple(specs), settings={})
        enc = Encounter(spec, seed=int(start_event.seed))
        return cls(enc, live=False)

    # -- keeping the shadow in step -------------------------------------------------------------------
    def sync(self, model) -> None:
        """Move the shadow's creatures to the view model's state (no-op for a live encounter)."""
        if self.live or self._synced == model.version:
            return
        for cid, v in model.creatures.items():
            c = self.enc.creatures.get(cid) or self._half(cid)
            if c is None:
                continue
            c.squares = list(v.squares)
            c.pos = v.pos if not v.swarm or v.pos in v.squares else (v.squares[0] if v.squares else v.pos)
            c.prone = v.prone
            c.hp = v.hp
            show(c, v.conditions)
            if v.armor_off and not c.armor_off:
                c.take_armor_off(drop_shield=True)
            elif not v.armor_off and c.armor_off:
                c.put_armor_on()
            if v.wielding and c.attack_named(v.wielding) is not None:
                c.wielding = v.wielding
        self._synced = model.version
        self._cache.clear()

    def _half(self, cid: str):
        """A split ooze's new half (``ochre-jelly.a``, docs/rules.md §11.14) joins the shadow as a
        copy of the creature it split off (then moved where the view model says), or None."""
        roots = [o for o in self.enc.creatures if cid.startswith(o + ".")]
        if self.live or not roots:
            return None
        parent = self.enc.creatures[max(roots, key=len)]
        c = replace(parent, id=cid, squares=list(parent.squares), trail=[], statuses=frozenset(), effects=[], kills=[],
                    grapple_with=[], pinned_by=None)
        self.enc.creatures[cid] = c
        return c

    def _cached(self, key, fn):
        if self.live:
            key = key + (len(self.enc.events),)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = fn()
        return self._cache[key]

    # -- questions -------------------------------------------------------------------------------------
    def creature(self, cid: str):
        return self.enc.creatures.get(cid)

    def standing(self, cid: str) -> Category:
        """The category the creature stands in (the engine's ``standing_category``)."""
        c = self.creature(cid)
        if c is None or not c.squares:
            return Category.CLEAR
        return self._cached(("standing", cid, tuple(c.squares)), lambda: attacks.standing_category(self.enc, c))

    def size_categories(self, size_index: int) -> np.ndarray:
        """Per-square categories for the default body of size 0 (Fine) .. 8 (Colossal)."""
        if self._sizes is None:
            self._sizes = classify_all_sizes(self.grid)
        return self._sizes[int(size_index)]

    def creature_categories(self, cid: str) -> np.ndarray:
        """Per-square categories for this creature's body."""
        return self.enc.categories(self.creature(cid))

    def masks(self, cid: str):
        c = self.creature(cid)
        blocked, no_end = self.enc.occupancy_masks(c)
        return blocked, no_end

    def reach(self, cid: str):
        """Squares reachable this turn with one move action and with a double move (``Reach``),
        or None where the creature cannot move."""
        c = self.creature(cid)
        if c is None or not c.in_fight:
            return None
        f = self.enc.field(c)
        if f.mode[c.pos[1], c.pos[0]] == BLOCKED:
            return None

        def run():
            blocked, no_end = self.masks(cid)
            return reach(f, c.pos, blocked=blocked, no_end=no_end, prone=c.prone)

        return self._cached(("reach", cid, c.pos, c.prone), run)

    def travel(self, cid: str):
        """Time from the creature to every square (``DistanceMap``, guaranteed time)."""
        c = self.creature(cid)
        if c is None:
            return None
        f = self.enc.field(c)
        if f.mode[c.pos[1], c.pos[0]] == BLOCKED:
            return None
        return self._cached(("travel", cid, c.pos, c.prone), lambda: distance_map(f, c.pos, prone=c.prone))

    def path_preview(self, cid: str, to: Pos) -> PathPreview:
        """The path the creature would take to ``to`` now, and how much of it fits this turn."""
        c = self.creature(cid)
        none = PathPreview(start=c.pos if c else to, to=to, squares=[], steps=[], single=0, double=0, feet=0,
                           rounds=None)
        if c is None or not self.grid.in_bounds(to):
            return none

        # mid-turn, from what the turn's movement has spent (a second move action goes on with it)
        spent = turn_spent(self.enc, c) if self.live else (0, 0)
        return self._cached(("path", cid, c.pos, c.prone, to, spent), lambda: self._preview(c, to, none, spent))

    def _preview(self, c, to: Pos, none: PathPreview, spent: tuple[int, int]) -> PathPreview:
        f = self.enc.field(c)
        if f.mode[to[1], to[0]] == BLOCKED or f.mode[c.pos[1], c.pos[0]] == BLOCKED:
            return replace(none, reason=f"{c.name} cannot stand there")
        blocked, no_end = self.masks(c.id)
        blocked[c.pos[1], c.pos[0]] = False
        if blocked[to[1], to[0]]:
            return replace(none, reason="held by an enemy")
        path = find_path(f, c.pos, to, blocked=blocked, prone=c.prone, spent=spent)
        if not path.reachable or not path.steps:
            return replace(none, reason="no way there")
        single = double = 0
        if self.live and self.enc.turn is not None and self.enc.turn.actor == c.id:
            single = len(movement_plan(self.enc, c, to, budget=1))
            double = len(movement_plan(self.enc, c, to, budget=2))
        return PathPreview(start=c.pos, to=to, squares=[tuple(s) for s in path.squares], steps=list(path.steps),
                           single=single, double=double, feet=int(path.feet), rounds=path.rounds)
