"""The world a fight happens in (:class:`World`): what every rule function reads and changes.

It holds the grid, the creatures, the fight's one random generator (``numpy.random.Generator``,
seeded from the encounter file or the caller: same seed, same fight), the settings, the events so
far (``emit``), the round and the turn, and the answers to the pure questions the rules ask again
and again (a creature's movement field and categories, the occupancy masks). Those answers are
memoised in a declared :class:`QueryCache`: performance only, never outcomes.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from sim.base.coords import Pos, inner_square
from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.effects import KINDS
from sim.engine.events import Event, Moved
from sim.engine.notes import AINotes
from sim.engine.parts import PARTS, Casting, Floor, Grabs, Magic, Movement, Part, Swallowed
from sim.engine.setup import build_creature, footprint, mover_for
from sim.rules.armor import must_remove, needs_armor_off
from sim.rules.bodies import swarm_body
from sim.rules.sizes import Size
from sim.scenario.specs import EncounterSpec
from sim.terrain.classify import classify
from sim.terrain.geometry import footprint_distance_ft, line_clear, line_of_effect
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import move_field
from sim.terrain.movement.field import BLOCKED, MoveField
from sim.terrain.movement.shapes import best_shape
from sim.terrain.vision import LOCATES, SEES
from sim.terrain.vision.fog import FOG_SPELLS, through_fog
from sim.terrain.vision.scene import look, viewer_of
from sim.terrain.vision.sight import TOTAL_MISS

#: The Escape Artist modifier an amorphous ooze plans its squeezes with: every DC (15, 30) met.
AMORPHOUS_SQUEEZE = 100


#: The conditions of a creature that change what is seen of it (its key in ``World.vision``).
_SEEN_CONDITIONS = frozenset({"invisible", "outlined"})


class Memo(dict):
    """A memo table that forgets everything once it holds more than ``limit`` answers."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def put(self, key, value):
        if len(self) > self.limit:
            self.clear()
        self[key] = value
        return value


class QueryCache:
    """The memo tables of a fight's pure queries, each keyed by everything its answer depends on
    (the creatures' squares and conditions, see :meth:`World.occupancy_signature`; rock is fixed).

    * ``occupancy``: (creature id, occupancy signature) -> the two occupancy masks;
    * ``paths``: (field id, creature id, position, prone, destination, signature) -> a path
      (``moves.search_path``, shared by the moves and the AI);
    * ``distances``: (field id, creature id, position, prone, signature) -> a distance map.

    Answers that depend on the map alone live in :class:`TerrainMemo` (``World.terrain``).
    """

    __slots__ = ("occupancy", "paths", "distances")

    def __init__(self):
        self.occupancy = Memo(256)
        self.paths = Memo(512)
        self.distances = Memo(64)


class TerrainMemo:
    """The memo tables of questions whose answer depends on the map alone (rock, which no fight
    changes), so that every fight on the same grid shares them (a batch worker's fights pass one
    along in ``shared``; a lone fight keeps its own). The AI asks the same spell areas and lines
    of effect again and again, within a turn, a fight and a batch (issue 27).

    * ``lines``: (footprint, footprint) -> line of effect (``World.line_of_effect``);
    * ``bursts``: (point of origin, radius) -> the squares a burst fills (``spells.burst_area``);
    * ``cones``: (origin, direction, length) -> the squares a cone fills (``spells.cone_area``);
    * ``segments``: (point, point) -> whether the segment is clear (``World.clear_segment``);
    * ``cover``: (attacker squares, target squares, creature squares) -> cover or not
      (``attacks._has_cover``: the creatures in the way are part of the key);
    * ``threats``: (squares, reach, reach weapon, adjacent too) -> squares threatened
      (``attacks.threatens``).
    """

    __slots__ = ("bursts", "cones", "cover", "lines", "segments", "threats")

    def __init__(self):
        self.segments = Memo(16384)
        self.cover = Memo(4096)
        self.threats = Memo(1024)
        self.lines = Memo(65536)
        self.bursts = Memo(4096)
        self.cones = Memo(4096)


def blur_miss(attacker: Creature, target: Creature) -> int:
    """Blur's miss chance on an attack of ``attacker`` on ``target``: the ``miss_chance`` of
    ``[effect.blurred]`` in sim/data/effects.toml (20%, SRD *blur*; docs/rules.md §8.5), or 0 when
    the target is not blurred, or is outlined (faerie fire), or the attacker's blindsight reaches it
    (it does not need to see it); a blurred creature it does not see has the greater concealment
    of the unseen."""
    if "blurred" not in target.conditions or "outlined" in target.conditions:
        return 0
    bs = attacker.block.senses.blindsight_ft
    if bs and footprint_distance_ft(attacker.squares, target.squares) <= bs:
        return 0
    return KINDS["blurred"].miss_chance


class World:
    """The state of one fight: the grid, the creatures, the random generator, the settings, the
    events so far, whose turn it is, the AI's notes, the query caches, and what each mechanic
    adds, one declared part each (:attr:`PARTS`: ``swallowed``, ``grabs``, ``magic``, ``floor``,
    ``movement``, ``casting``, the records of :mod:`sim.engine.parts`). Every rule function takes
    it as ``w``; :class:`sim.engine.encounter.Encounter` adds the turn loop.

    The attributes below are the shipped mechanics' parts, typed for the reader of the code;
    tests/engine/test_registry.py checks that each is declared by exactly one mechanic."""

    #: The parts this world builds, empty: the shipped mechanics' (:data:`sim.engine.parts.PARTS`;
    #: an encounter's are its registry's, :func:`sim.engine.registry.parts`).
    PARTS: ClassVar[tuple[Part, ...]] = PARTS
    swallowed: Swallowed
    grabs: Grabs
    magic: Magic
    floor: Floor
    movement: Movement
    casting: Casting

    def __init__(self, spec: EncounterSpec, *, seed: int | None = None,
                 settings: dict | None = None, shared: dict | None = None):
        """``shared``: a dict that fights on the same grid may pass along to reuse its movement
        fields and categories (a batch worker's fights); it holds derived terrain only, and is
        emptied when a fight on another grid is given it."""
        self.spec = spec
        self.grid: CaveGrid = spec.grid
        self.settings = dict(spec.settings)
        if settings:
            self.settings.update(settings)
        self.seed = spec.seed if seed is None else int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.events: list[Event] = []
        self.round = 0
        self.order: list[str] = []
        self.turn_index = -1
        self.turn: Turn | None = None
        self.winner: str | None = None
        self.finished = False
        self.end_reason = ""
        self.dice = None  # checks.DiceHand: whose dice are typed at the table (cavesim play), not saved
        self.memory = AINotes()  # the AI's notes between turns (e.g. rounds spent holding a chokepoint)
        if shared is not None and shared.get("grid") is not spec.grid:
            shared.clear()
            shared["grid"] = spec.grid
        self._fields: dict = {} if shared is None else shared.setdefault("fields", {})
        self._cats: dict = {} if shared is None else shared.setdefault("categories", {})
        self._low: dict = {}
        self.terrain: TerrainMemo = TerrainMemo() if shared is None else shared.setdefault("terrain", TerrainMemo())
        # memos of pure queries (performance only, never outcomes), declared in one place
        self.cache = QueryCache()
        self.turn_mark = 0  # where the current turn's events start
        for part in type(self).PARTS:   # what each mechanic adds to the fight, empty
            setattr(self, part.name, part.record())
        self._vision_key = None
        self._vision = None
        self.creatures: dict[str, Creature] = {}
        for cs in spec.combatants:
            c = build_creature(cs, spec.path)
            self.creatures[c.id] = c
        for c in self.creatures.values():
            self.place(c, c.pos)
            if not c.is_swarm and not c.prone and self.field(c).prone[c.pos[1], c.pos[0]]:
                c.prone = True  # placed where it can only crawl: it lies there (RULES §2.4 Crawl-Navigable)
            if not c.is_swarm and must_remove(c.block) and needs_armor_off(self.field(c).category[c.pos[1], c.pos[0]]):
                c.take_armor_off(drop_shield=True)  # and got there with its armor off (RULES §2.4, §7.33)
                self.place(c, c.pos)

    def emit(self, e: Event) -> None:
        self.events.append(e)

    # -- light and sight (RULES §9) ---------------------------------------------------------------
    @property
    def vision_on(self) -> bool:
        return bool(self.settings.get("vision", True))

    def vision(self):
        """(LightGrid, Sight) of the fight as it stands: recomputed when a creature moves, falls,
        or lights, drops or picks up a light ("recomputed each turn", and within one)."""
        live = [c for c in self.creatures.values() if c.alive and c.id not in self.swallowed.inside]
        fog = frozenset(q for z in self.magic.zones if z.spell in FOG_SPELLS for q in z.squares)
        key = (tuple((c.id, tuple(c.squares), c.torch_lit, c.light, c.conditions & _SEEN_CONDITIONS) for c in live),
               tuple(self.floor.lights), tuple(self.magic.lights), fog)
        if key != self._vision_key:
            self._vision = look(self.grid, live, self.floor.lights, self.magic.lights)
            if fog:   # a stinking cloud's fog: concealment through it (docs/rules.md §8.4)
                light, seen = self._vision
                self._vision = (light, through_fog(seen, [viewer_of(c) for c in live], fog))
            self._vision_key = key
        return self._vision

    def perception(self, viewer: Creature, target: Creature) -> int:
        """What ``viewer`` has of ``target``: sim.terrain.vision NONE / DETECTS / LOCATES / SEES."""
        if not self.vision_on or viewer is target:
            return SEES
        s = self.vision()[1]
        if viewer.id not in s.ids or target.id not in s.ids:
            return SEES if target.alive else 0
        return s.level_of(viewer.id, target.id)

    def side_perceives(self, team: str, target: Creature) -> int:
        """The best any living member of ``team`` has of ``target`` (a side shares what it sees)."""
        if not self.vision_on:
            return SEES
        s = self.vision()[1]
        return s.team_level(team, target.id) if target.id in s.ids else SEES

    def side_perceives_each(self, team: str, targets: list[Creature]) -> list[int]:
        """:meth:`side_perceives` of each of ``targets``, the fight's sight looked up once (its key
        costs a pass over the creatures: a pass per target made a round grow as N^3)."""
        if not self.vision_on:
            return [SEES] * len(targets)
        s = self.vision()[1]
        return [s.team_level(team, t.id) if t.id in s.ids else SEES for t in targets]

    def miss_chance(self, attacker: Creature, target: Creature) -> int:
        """Concealment miss chance (0, 20 or 50 percent) of an attack by ``attacker`` on ``target``."""
        if attacker is target:
            return 0
        if "blinded" in attacker.conditions:
            return TOTAL_MISS   # blinded by light (drow light blindness): every foe totally concealed
        blur = blur_miss(attacker, target)
        if not self.vision_on:
            return blur
        s = self.vision()[1]
        if attacker.id not in s.ids or target.id not in s.ids:
            return blur
        return max(blur, s.miss_chance(attacker.id, target.id))    # concealments do not stack

    def blinded(self, c: Creature) -> bool:
        """Effectively blinded: its own squares are dark to it, no darkvision (§9.3.4)."""
        if c.alive and "blinded" in c.conditions:
            return True         # blinded by light (drow light blindness, a round)
        if not self.vision_on or not c.alive:
            return False
        s = self.vision()[1]
        return c.id in s.ids and s.is_blinded(c.id)

    def line_of_effect(self, a, b) -> bool:
        """:func:`sim.terrain.geometry.line_of_effect` between the footprints ``a`` and ``b`` on
        this map (walls between squares included, docs/rules.md §6.8), remembered for every fight on it (:class:`TerrainMemo`: rock is fixed)."""
        key = (tuple(a), tuple(b))
        hit = self.terrain.lines.get(key)
        if hit is None:
            hit = self.terrain.lines.put(key, line_of_effect(self.grid.rock, key[0], key[1], edges=self.grid.edges))
        return hit

    def clear_segment(self, p0, p1) -> bool:
        """:func:`sim.terrain.geometry.line_clear` from the point ``p0`` to ``p1`` on this map (no
        creature blocks), remembered for every fight on it (:class:`TerrainMemo`: rock is fixed)."""
        key = (tuple(p0), tuple(p1))
        hit = self.terrain.segments.get(key)
        if hit is None:
            hit = self.terrain.segments.put(key, line_clear(self.grid.rock, key[0], key[1], edges=self.grid.edges))
        return hit

    def locates(self, viewer: Creature, target: Creature) -> bool:
        return self.perception(viewer, target) >= LOCATES

    def field(self, c: Creature) -> MoveField:
        amorphous = self.amorphous(c)
        key = (c.template, c.armor_off, c.block.speed.land, c.block.escape_artist, c.is_swarm, amorphous, c.size)
        f = self._fields.get(key)
        if f is None:
            mover = mover_for(c)
            if amorphous:  # RULES §11.12: its squeezes always succeed (the path search plans one try each)
                mover = dataclasses.replace(mover, escape_artist=AMORPHOUS_SQUEEZE)
            f = move_field(self.grid, mover)
            self._fields[key] = f
        return f

    def amorphous(self, c: Creature) -> bool:
        """An amorphous ooze that flows through squeezes (RULES §11.12; setting ``ooze_squeeze``):
        no Escape Artist check for an Awkward or Tight square (the square still takes its action),
        and no constricted-space penalties where it stands."""
        return c.block.source.amorphous and bool(self.settings.get("ooze_squeeze", True))

    def categories(self, c: Creature) -> np.ndarray:
        """Category of every square for this creature's body (per square, not per footprint)."""
        key = (c.template, c.is_swarm, c.size)   # an enlarged creature is classified at its new size
        cats = self._cats.get(key)
        if cats is None:
            body = swarm_body(c.block.swarm.component) if c.is_swarm else c.block.body
            cats = classify(self.grid, body)
            self._cats[key] = cats
        return cats

    def is_low(self, c: Creature) -> bool:
        """Ceiling below half the creature's height in one of its squares (§7.31)."""
        h = c.block.body.height
        return any(float(self.grid.height_ft[y, x]) < h / 2 for x, y in c.squares)

    def enemies(self, c: Creature) -> list[Creature]:
        """Its living foes, but for those inside a swallower or engulfer (out of reach, §11.13)."""
        return [o for o in self.creatures.values() if o.team != c.team and o.alive and o.id not in self.swallowed.inside]

    def allies(self, c: Creature) -> list[Creature]:
        return [o for o in self.creatures.values() if o.team == c.team and o is not c and o.alive
                and o.id not in self.swallowed.inside]

    def current(self) -> Creature | None:
        if self.turn is None:
            return None
        return self.creatures[self.turn.actor]

    def decided(self) -> bool:
        """At most one team still has a creature able to fight."""
        return len({c.team for c in self.creatures.values() if c.in_fight}) <= 1

    def occupancy_signature(self) -> tuple:
        """Everything the occupancy masks depend on besides the mover: each creature's squares
        and conditions (alive, helpless; ids, teams and sizes do not change)."""
        return tuple((tuple(o.squares), o.conditions) for o in self.creatures.values())

    def occupancy_masks(self, c: Creature) -> tuple[np.ndarray, np.ndarray]:
        """(blocked, no_end) reference-square masks for ``c``'s movement (RULES §6.4): opponents
        block (unless helpless, or 3+ size categories apart, or ``c`` is a swarm or Tiny and
        smaller); nobody ends in another creature's space (swarms and Tiny creatures may).
        Fresh arrays each call (callers edit them); computed once per state of the fight."""
        key = (c.id, self.occupancy_signature())
        hit = self.cache.occupancy.get(key)
        if hit is None:
            if len(self.cache.occupancy) > 256:
                self.cache.occupancy.clear()
            hit = self._occupancy_masks(c)
            self.cache.occupancy[key] = hit
        return hit[0].copy(), hit[1].copy()

    def _occupancy_masks(self, c: Creature) -> tuple[np.ndarray, np.ndarray]:
        rows, cols = self.grid.shape
        blocked = np.zeros((rows, cols), dtype=bool)
        no_end = np.zeros((rows, cols), dtype=bool)
        sharer = c.is_swarm
        tiny = c.size <= Size.TINY
        for o in self.creatures.values():
            if o is c or not o.alive or o.is_swarm or o.id in self.swallowed.inside:
                continue
            far_apart = abs(int(o.size) - int(c.size)) >= 3
            for x, y in o.squares:
                if o.team != c.team and not o.helpless and not far_apart and not sharer and not tiny:
                    blocked[y, x] = True
                if not sharer and not tiny and not (o.size <= Size.TINY) and not o.helpless:
                    no_end[y, x] = True  # a helpless creature's square may be ended in (§6.4)
        k = c.k
        if k > 1:  # a reference square is blocked if the block below-right of it touches one
            pad_b = np.pad(blocked, ((0, k - 1), (0, k - 1)))
            pad_n = np.pad(no_end, ((0, k - 1), (0, k - 1)))
            blocked = sliding_window_view(pad_b, (k, k)).any(axis=(2, 3))
            no_end = sliding_window_view(pad_n, (k, k)).any(axis=(2, 3))
        return blocked, no_end

    def place(self, c: Creature, pos: Pos, *, trail_step: bool = False) -> None:
        if trail_step:
            c.trail.append(c.pos)
            c.trail = c.trail[-6:]
        c.pos = pos
        if c.is_swarm:
            if not trail_step:
                f = self.field(c)
                passable = f.mode != BLOCKED
                c.squares = best_shape(passable, pos, mode=self.settings.get("swarm_shape", "any"),
                                       score=self.swarm_score(c))
            return
        c.squares = footprint(self.field(c), c, pos)
        for vid, hid in self.swallowed.inside.items():   # what it swallowed or engulfed moves with it (§11.13)
            if hid == c.id:
                v = self.creatures[vid]
                v.pos = inner_square(c.squares)
                v.squares = [v.pos]

    def swarm_score(self, swarm: Creature):
        targets = [o for o in self.enemies(swarm) if o.in_fight or o.alive]
        occ = {}
        for o in targets:
            for sq in o.squares:
                occ.setdefault(sq, set()).add(o.id)

        def score(shape) -> int:
            hit = set()
            for sq in shape:
                hit |= occ.get(sq, set())
            return len(hit)

        return score

    def flush_move(self) -> None:
        pending = self.movement.pending
        if pending and pending[1]:
            c, steps, action = pending
            self.emit(Moved(round=self.round, actor=c.id, path=tuple(steps), squares=tuple(c.squares),
                            prone=c.prone, action=action, partial=True))
            steps.clear()

