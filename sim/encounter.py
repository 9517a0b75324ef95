"""The turn engine: initiative, actions, attacks of opportunity, victory (RULES §2-§6, §8).

An :class:`Encounter` holds the grid, the creatures and the fight's one random generator
(``numpy.random.Generator``, seeded from the encounter file or the caller: same seed, same
fight). Every step of the fight is an event record (``sim.events``); nothing else leaves it.

Two ways to drive it:

* ``Encounter(spec).run()`` plays the whole fight with the AI (``sim.ai``) and returns the events;
* step by step for interactive play: ``start()``, then ``begin_turn()``, ``perform(action)``
  for each chosen action (a :class:`Done` with the events, or an :class:`Impossible` with the
  reason), ``end_turn()``; ``ai_turn()`` lets the AI play the current creature.

A creature's turn (SRD Combat): a standard action and a move action, or a full-round action;
a 5-ft step when it has not otherwise moved; free actions. Constricted squares forbid running,
charging and the 5-ft step (§2.4, §7.36). Moving out of a threatened square provokes an attack
of opportunity from each enemy threatening it, once per enemy per move (§6.6).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable

import numpy as np

from sim import combat
from sim.classify import classify
from sim.creature import Creature
from sim.events import (Check, Condition, Damage, EncounterEnd, EncounterStart, Event, Healed, Initiative,
                        ItemUsed, Moved, Refused, RoundStart, TurnEnd, TurnStart)
from sim.geometry import distance_squares, footprint_distance_ft, line_clear
from sim.grid import CaveGrid
from sim.specs import CombatantSpec, EncounterSpec
from sim.movement import Mover, find_path, move_field
from sim.movement.field import BLOCKED, MoveField
from sim.rules.bodies import swarm_body
from sim.rules.categories import Category, effects
from sim.rules.sizes import Size
from sim.rules.statblocks import StatBlock, attacks_with, load_template, template_in
from sim.rules.weapons import combat_modifier
from sim.swarms import best_shape, distraction, flow, poison_secondaries, shape_event, swarm_attack

Pos = tuple[int, int]


# =================================================================================================
# Actions and results
# =================================================================================================

@dataclass(frozen=True, slots=True)
class Move:
    """Move toward ``to`` with one move action (``double``: two, counted as one move)."""

    to: Pos
    double: bool = False


@dataclass(frozen=True, slots=True)
class FiveFootStep:
    to: Pos


@dataclass(frozen=True, slots=True)
class Run:
    """Run to ``to`` (RULES §6.5): a full-round action, up to 4 x speed (3 x in heavy armor) in a
    straight line over clear squares that are neither constricted nor difficult; the runner loses
    its Dex bonus to AC until its next turn (unless it has the Run feat)."""

    to: Pos


@dataclass(frozen=True, slots=True)
class Withdraw:
    to: Pos


@dataclass(frozen=True, slots=True)
class Strike:
    """A standard-action attack (melee or ranged) with the named attack (default: in hand)."""

    target: str
    attack: str | None = None


@dataclass(frozen=True, slots=True)
class FullAttack:
    target: str
    attack: str | None = None


@dataclass(frozen=True, slots=True)
class Charge:
    target: str
    attack: str | None = None


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw (or swap to) a weapon: a move action."""

    attack: str


@dataclass(frozen=True, slots=True)
class LightTorch:
    """Light a torch (standard action with a tindertwig, full-round with flint and steel) and take
    it in hand; provokes (§3.5)."""


@dataclass(frozen=True, slots=True)
class DropProne:
    pass


@dataclass(frozen=True, slots=True)
class StandUp:
    pass


@dataclass(frozen=True, slots=True)
class Throw:
    """Throw a splash weapon (alchemist's fire, a lit lantern...) at a creature or at a grid
    intersection (``at`` with ``intersection=True``)."""

    item: str
    target: str | None = None
    at: Pos | None = None
    intersection: bool = False


@dataclass(frozen=True, slots=True)
class Cast:
    """Cast a simulated spell (RULES §8): ``target`` a creature (magic missile, cure light wounds),
    ``at`` a grid intersection (sleep's centre; burning hands' starting corner, see
    :func:`sim.spells.cone_origins`), ``direction`` one of the eight (burning hands)."""

    spell: str
    target: str | None = None
    at: Pos | None = None
    direction: Pos | None = None
    defensive: bool = False


@dataclass(frozen=True, slots=True)
class PrepareFuse:
    """Prepare an oil flask's fuse (RULES §3.5: a full-round action that provokes); then it can be
    thrown like alchemist's fire, catching fire half the time."""

    item: str = "oil-flask"


@dataclass(frozen=True, slots=True)
class Load:
    """Load a fired crossbow or sling (RULES §3.3 handling: a move action, a heavy crossbow a
    full-round action; provokes). ``attack``: which (default: the first that needs it)."""

    attack: str | None = None


@dataclass(frozen=True, slots=True)
class Delay:
    """End the turn now (wait; hold a chokepoint)."""


Action = (Move | FiveFootStep | Withdraw | Run | Strike | FullAttack | Charge | Draw | LightTorch | DropProne | StandUp | Throw
          | Cast | Load | PrepareFuse | Delay)


@dataclass(frozen=True, slots=True)
class Done:
    events: tuple[Event, ...]

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Impossible:
    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass(slots=True)
class Turn:
    """What the current creature has left this turn."""

    actor: str
    standard: bool = True
    move: bool = True
    moved: bool = False        # any movement (forbids the 5-ft step)
    stepped: bool = False      # took a 5-ft step (forbids other movement)
    ended: bool = False

    @property
    def full_round(self) -> bool:
        """A full-round action is still open: neither action used (a 5-ft step allows one, SRD:
        before or after a full attack; the full-round actions that move refuse it themselves)."""
        return self.standard and self.move

    @property
    def full_move(self) -> bool:
        """A full-round action that moves (double move, run, charge, withdraw) is still open: no
        5-ft step taken."""
        return self.standard and self.move and not self.stepped


# =================================================================================================
# Setting up
# =================================================================================================

def _resolve_template(spec: CombatantSpec, base: str) -> StatBlock:
    name = template_in(spec.template, base)  # a path is relative to the encounter file (one rule)
    return load_template(name, book_values=True if spec.book_values else None)


def _weapon_choice(block: StatBlock, name: str | None) -> tuple[StatBlock, str | None]:
    """The attack to hold at the start: ``name`` (an attack on the sheet, or a weapon given to it),
    else the first melee weapon or natural attack."""
    if name:
        for a in block.attacks:
            if a.name == name or (a.weapon is not None and a.weapon.key == name and a.mode == "melee"):
                return block, a.name
        extra = attacks_with(block, name)
        block = _with_extra_attacks(block, extra)
        return block, extra[0].name
    melee = [a for a in block.attacks if a.mode == "melee"]
    if melee:
        return block, melee[0].name
    return block, (block.attacks[0].name if block.attacks else None)


def _with_extra_attacks(block: StatBlock, extra) -> StatBlock:
    import dataclasses

    names = {a.name for a in block.attacks}
    return dataclasses.replace(block, attacks=block.attacks + tuple(a for a in extra if a.name not in names))


def build_creature(spec: CombatantSpec, base_path: str) -> Creature:
    block = _resolve_template(spec, base_path)
    block, wielding = _weapon_choice(block, spec.weapon)
    items = {k: int(v) for k, v in block.gear}
    from sim.rules.weapons import gear

    for k, v in spec.items:
        gear(k)  # an unknown item is refused here, with the names it might have meant
        items[k] = items.get(k, 0) + v
    team = spec.team or ("party" if block.kind == "pc" else "monsters")
    name = spec.name or (spec.id.replace("-", " ").replace("_", " ").title() if spec.explicit_id else block.name)
    c = Creature(id=spec.id, name=name, team=team, template=spec.template, block=block,
                 base_block=block, hp=block.hp, max_hp=block.hp, pos=spec.at, squares=[spec.at],
                 wielding=wielding, items=items)
    if block.spells is not None:
        c.spells_left = {lvl: list(spells) for lvl, spells in enumerate(block.spells.prepared)}
        for lvl, name in enumerate(block.spells.domain_prepared):
            if name:
                c.spells_left.setdefault(lvl, []).append(name)
    if spec.lit and items.get("torch", 0) > 0:
        c.torch_lit = True
    thrown = {a.weapon.key for a in block.attacks if a.thrown and a.weapon is not None}
    c.thrown_left = {e.name: e.count for e in block.source.weapons if e.name in thrown}
    return c


def load_action(att) -> str | None:
    """How a ranged attack's weapon is loaded between shots: "move" or "full_round" (crossbows,
    sling: RULES §3.3), or None (thrown weapons, bows: nothing to load)."""
    if att is None or att.mode != "ranged" or att.weapon is None or att.thrown:
        return None
    la = att.weapon.load_action
    return la if la in ("move", "full_round") else None


def check_placement(spec: EncounterSpec) -> list[str]:
    """Every problem with where the combatants stand: unknown templates or weapons, off the map,
    in rock, where the creature does not fit, or on another creature (DESIGN §5)."""
    from sim.errors import DataError

    problems: list[str] = []
    placed: dict[Pos, str] = {}
    grid = spec.grid
    for cs in spec.combatants:
        try:
            c = build_creature(cs, spec.path)
        except DataError as exc:
            problems.extend(f"{spec.where(cs, 'template/weapon')}: {p}" for p in exc.problems)
            continue
        x, y = cs.at
        if not grid.in_bounds(cs.at):
            problems.append(f"{spec.where(cs, 'at')}: ({x}, {y}) is off the map ({grid.cols}x{grid.rows})")
            continue
        if grid.rock[y, x]:
            problems.append(f"{spec.where(cs, 'at')}: ({x}, {y}) is solid rock; put it on a floor square")
            continue
        f = move_field(grid, _mover(c))
        if f.mode[y, x] == BLOCKED:
            cat = Category(int(f.category[y, x]))
            problems.append(f"{spec.where(cs, 'at')}: a {c.size.key} {c.block.name} does not fit at ({x}, {y}) "
                            f"({cat.label} for its body); place it where it fits")
            continue
        squares = _footprint(f, c, cs.at) if not c.is_swarm else [cs.at]
        sharer = c.is_swarm or c.size <= Size.TINY
        for sq in squares:
            other = placed.get(sq)
            if other and not sharer:
                problems.append(f"{spec.where(cs, 'at')}: ({sq[0]}, {sq[1]}) is already taken by {other!r}; "
                                "two creatures cannot share a square (swarms and Tiny creatures excepted)")
                break
        else:
            if not sharer:
                for sq in squares:
                    placed[sq] = cs.id
    return problems


def _mover(c: Creature, *, in_combat: bool = True) -> Mover:
    b = c.block
    if c.is_swarm:
        body = swarm_body(b.swarm.component)
    else:
        body = b.body
    speed = b.speed.land
    flying = False
    if b.speed.fly and (c.is_swarm or b.speed.fly > speed):
        speed, flying = b.speed.fly, True
    m = Mover(body=body, speed_ft=int(speed) // 5 * 5, escape_artist=int(b.escape_artist),
              flying=flying, tunnelrunner=b.has_feat("tunnelrunner"))
    return m.in_combat() if in_combat else m


def _footprint(f: MoveField, c: Creature, pos: Pos) -> list[Pos]:
    if c.is_swarm:
        return [pos]
    return f.occupied(pos, c.trail)


# =================================================================================================
# The encounter
# =================================================================================================

class Encounter:
    """One fight on one grid. See the module docstring."""

    def __init__(self, spec: EncounterSpec, *, seed: int | None = None, policy: Callable | None = None,
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
        self.damage_while_casting = 0
        self.last_damage = 0  # what the last deal_damage let through (combat.deal_damage)
        self.memory: dict = {}  # the AI's notes between turns (e.g. rounds spent holding a chokepoint)
        if shared is not None and shared.get("grid") is not spec.grid:
            shared.clear()
            shared["grid"] = spec.grid
        self._fields: dict = {} if shared is None else shared.setdefault("fields", {})
        self._cats: dict = {} if shared is None else shared.setdefault("categories", {})
        self._low: dict = {}
        # memos of pure queries (performance only, never outcomes): occupancy masks and paths by
        # the creatures' positions and states, threatened squares by footprint and reach, lines
        # of effect over the fixed rock (see occupancy_signature)
        self._occ_memo: dict = {}
        self._path_memo: dict = {}
        self._threat_memo: dict = {}
        self._loe_memo: dict = {}
        self._dmap_memo: dict = {}
        self._cover_memo: dict = {}
        self.creatures: dict[str, Creature] = {}
        for cs in spec.combatants:
            c = build_creature(cs, spec.path)
            self.creatures[c.id] = c
        for c in self.creatures.values():
            self._place(c, c.pos)
            if not c.is_swarm and not c.prone and self.field(c).prone[c.pos[1], c.pos[0]]:
                c.prone = True  # placed where it can only crawl: it lies there (RULES §2.4 Crawl-Navigable)
        if policy is None:
            from sim.ai import default_policy

            policy = default_policy
        self.policy = policy

    # -- events -----------------------------------------------------------------------------------------
    def emit(self, e: Event) -> None:
        self.events.append(e)

    # -- world queries ------------------------------------------------------------------------------------
    def field(self, c: Creature) -> MoveField:
        key = (c.template, c.armor_off, c.block.speed.land, c.block.escape_artist, c.is_swarm)
        f = self._fields.get(key)
        if f is None:
            f = move_field(self.grid, _mover(c))
            self._fields[key] = f
        return f

    def categories(self, c: Creature) -> np.ndarray:
        """Category of every square for this creature's body (per square, not per footprint)."""
        key = (c.template, c.is_swarm)
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
        return [o for o in self.creatures.values() if o.team != c.team and o.alive]

    def allies(self, c: Creature) -> list[Creature]:
        return [o for o in self.creatures.values() if o.team == c.team and o is not c and o.alive]

    def occupancy_signature(self) -> tuple:
        """Everything the occupancy masks depend on besides the mover: each creature's squares
        and conditions (alive, helpless; ids, teams and sizes do not change)."""
        return tuple((tuple(o.squares), tuple(o.conditions)) for o in self.creatures.values())

    def occupancy_masks(self, c: Creature) -> tuple[np.ndarray, np.ndarray]:
        """(blocked, no_end) reference-square masks for ``c``'s movement (RULES §6.4): opponents
        block (unless helpless, or 3+ size categories apart, or ``c`` is a swarm or Tiny and
        smaller); nobody ends in another creature's space (swarms and Tiny creatures may).
        Fresh arrays each call (callers edit them); computed once per state of the fight."""
        key = (c.id, self.occupancy_signature())
        hit = self._occ_memo.get(key)
        if hit is None:
            if len(self._occ_memo) > 256:
                self._occ_memo.clear()
            hit = self._occupancy_masks(c)
            self._occ_memo[key] = hit
        return hit[0].copy(), hit[1].copy()

    def _occupancy_masks(self, c: Creature) -> tuple[np.ndarray, np.ndarray]:
        rows, cols = self.grid.shape
        blocked = np.zeros((rows, cols), dtype=bool)
        no_end = np.zeros((rows, cols), dtype=bool)
        sharer = c.is_swarm
        tiny = c.size <= Size.TINY
        for o in self.creatures.values():
            if o is c or not o.alive or o.is_swarm:
                continue
            far_apart = abs(int(o.size) - int(c.size)) >= 3
            for x, y in o.squares:
                if o.team != c.team and not o.helpless and not far_apart and not sharer and not tiny:
                    blocked[y, x] = True
                if not sharer and not tiny and not (o.size <= Size.TINY) and not o.helpless:
                    no_end[y, x] = True  # a helpless creature's square may be ended in (§6.4)
        k = c.k
        if k > 1:  # a reference square is blocked if the block below-right of it touches one
            from numpy.lib.stride_tricks import sliding_window_view

            pad_b = np.pad(blocked, ((0, k - 1), (0, k - 1)))
            pad_n = np.pad(no_end, ((0, k - 1), (0, k - 1)))
            blocked = sliding_window_view(pad_b, (k, k)).any(axis=(2, 3))
            no_end = sliding_window_view(pad_n, (k, k)).any(axis=(2, 3))
        return blocked, no_end

    def _place(self, c: Creature, pos: Pos, *, trail_step: bool = False) -> None:
        if trail_step:
            c.trail.append(c.pos)
            c.trail = c.trail[-6:]
        c.pos = pos
        if c.is_swarm:
            if not trail_step:
                f = self.field(c)
                passable = f.mode != BLOCKED
                c.squares = best_shape(passable, pos, mode=self.settings.get("swarm_shape", "any"),
                                       score=self._swarm_score(c))
            return
        c.squares = _footprint(self.field(c), c, pos)

    def _swarm_score(self, swarm: Creature):
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

    # -- the fight ------------------------------------------------------------------------------------------
    def start(self) -> list[Event]:
        """Encounter start and initiative (d20 + modifier; ties: higher modifier, then a roll-off)."""
        mark = len(self.events)
        self.emit(EncounterStart(round=0, map=self.grid.name, seed=self.seed, cols=self.grid.cols,
                                 rows=self.grid.rows, combatants=tuple(self._describe(c) for c in self.creatures.values())))
        rolls = []
        for c in self.creatures.values():
            roll = int(self.rng.integers(1, 21))
            mod = int(c.block.initiative)
            tie = float(self.rng.random())
            c.initiative = roll + mod
            c.init_modifier = mod
            rolls.append((c.initiative, mod, tie, c.id, roll))
        rolls.sort(key=lambda t: (-t[0], -t[1], -t[2]))
        self.order = [t[3] for t in rolls]
        self.emit(Initiative(round=0, order=tuple({"id": t[3], "roll": t[4], "modifier": t[1], "total": t[0]}
                                                  for t in rolls)))
        self.round = 1
        self.turn_index = -1
        self.emit(RoundStart(round=1))
        return self.events[mark:]

    def _describe(self, c: Creature) -> dict:
        return {"id": c.id, "name": c.name, "template": c.template, "team": c.team, "size": c.size.key,
                "squares": [list(s) for s in c.squares], "hp": c.hp, "max_hp": c.max_hp, "swarm": c.is_swarm,
                "component": c.block.swarm.component.key if c.is_swarm else None,
                "speed": _mover(c).speed_ft, "prone": c.prone, "wielding": c.wielding, "kind": c.block.kind,
                "type": c.block.type}

    def current(self) -> Creature | None:
        if self.turn is None:
            return None
        return self.creatures[self.turn.actor]

    def run(self, *, max_rounds: int | None = None) -> list[Event]:
        """Play the whole fight with the AI; returns all events."""
        if not self.events:
            self.start()
        cap = max_rounds or int(self.settings.get("round_cap", 30))
        while not self.finished:
            self.begin_turn()
            if self.finished:
                break
            if self.turn is not None and not self.turn.ended:
                self.ai_turn()
            self.end_turn()
            if self.round > cap and not self.finished:
                self._finish(None, "round_cap")
        return self.events

    def begin_turn(self) -> Creature | None:
        """Advance to the next creature able to act and apply start-of-turn effects."""
        while True:
            self.turn_index += 1
            if self.turn_index >= len(self.order):
                self.turn_index = 0
                self.round += 1
                self.emit(RoundStart(round=self.round))
                if self.round > int(self.settings.get("round_cap", 30)):
                    self._finish(None, "round_cap")
                    return None
            c = self.creatures[self.order[self.turn_index]]
            if not c.alive:
                continue
            self.turn = Turn(actor=c.id)
            self._turn_mark = len(self.events)
            self.emit(TurnStart(round=self.round, actor=c.id))
            self._start_of_turn(c)
            if c.single_action:  # disabled or staggered: one move or standard action (§5.5), never a full round
                self.turn.move = False
            if not c.in_fight or self.decided():
                self.turn.ended = True
            return c

    def _start_of_turn(self, c: Creature) -> None:
        c.flat_footed = False
        c.aoo_used = 0
        c.charged = False
        if "running" in c.conditions:
            combat.clear_condition(self, c, "running", "expired")
        if "asleep" in c.conditions and c.asleep_until and self.round > c.asleep_until:
            combat.clear_condition(self, c, "asleep", "expired")
        if c.nauseated:
            combat.clear_condition(self, c, "nauseated", "expired")
        if c.blessed_until and c.blessed_until < self.round:
            c.blessed_until = 0
            combat.clear_condition(self, c, "blessed", "expired")
        if "dying" in c.conditions:
            if int(self.rng.integers(1, 101)) <= combat_modifier("hit_points", "stabilize_chance"):
                combat.clear_condition(self, c, "dying", "stabilized")
                combat.set_condition(self, c, "stable", "stabilized")
            else:
                self._lose_hp(c, 1, "dying")
            return
        regen = c.block.defenses.regeneration
        if regen and c.alive and c.nonlethal:
            healed = min(regen, c.nonlethal)
            c.nonlethal -= healed
            self.emit(Healed(round=self.round, target=c.id, amount=healed, source=c.id, hp_after=c.hp))
            combat.update_state(self, c)
        if c.bleed and c.alive and c.in_fight:
            combat.deal_damage(self, c, [combat.DamagePart(c.bleed, "bleed", "bleed")], source=None, cause="bleed")
        if c.poison_due:
            poison_secondaries(self, c)
        if c.pending_spell is not None and c.in_fight:
            from sim.spells import complete_pending

            complete_pending(self, c)
        if "burning" in c.conditions and c.alive:
            from sim.items import burn_tick

            burn_tick(self, c)
        if c.in_fight:
            distraction(self, c)
        if c.nauseated:
            pass
        if not c.is_swarm and c.in_fight and c.squares and self._squeezing(c):
            c.squeezing_rounds += 1

    def _squeezing(self, c: Creature) -> bool:
        cat = combat.standing_category(self, c)
        return cat >= Category.CRAWL and cat < Category.IMPASSABLE

    def ai_turn(self) -> None:
        """Let the policy play the current creature's turn."""
        c = self.current()
        if c is None or self.turn is None:
            return
        for _ in range(8):
            if self.turn.ended or self.finished or not c.in_fight:
                break
            action = self.policy(self, c, self.turn)
            if action is None or isinstance(action, Delay):
                break
            result = self.perform(action)
            if not result:
                self.emit(Refused(round=self.round, actor=c.id, action=type(action).__name__, reason=result.reason))
                break

    def end_turn(self) -> None:
        c = self.current()
        if c is None or self.turn is None:
            return
        if c.is_swarm and c.in_fight:
            swarm_attack(self, c)
        self._poor_flier(c)
        self.emit(TurnEnd(round=self.round, actor=c.id))
        self.turn = None
        self._check_victory()

    def _poor_flier(self, c: Creature) -> None:
        """A poor or clumsy flier that moved less than half its fly speed this turn must land
        (RULES §6.7: the locust swarm); it takes off again when it next moves far enough."""
        sp = c.block.speed
        if not c.alive or not sp.fly or sp.maneuverability not in ("poor", "clumsy"):
            return
        feet = sum(st["feet"] for e in self.events[getattr(self, "_turn_mark", 0):]
                   if e.type == "moved" and e.actor == c.id for st in e.path)
        if feet * 2 < sp.fly:
            combat.set_condition(self, c, "landed", "slow_flight")
        else:
            combat.clear_condition(self, c, "landed", "took_off")

    def decided(self) -> bool:
        """At most one team still has a creature able to fight."""
        return len({c.team for c in self.creatures.values() if c.in_fight}) <= 1

    def _check_victory(self) -> bool:
        if self.finished:
            return True
        teams = {c.team for c in self.creatures.values() if c.in_fight}
        if len(teams) <= 1:
            self._finish(next(iter(teams)) if teams else None, "victory")
            return True
        return False

    def _finish(self, winner: str | None, reason: str) -> None:
        if self.finished:
            return
        self.finished = True
        self.winner = winner
        self.end_reason = reason
        self.emit(EncounterEnd(round=self.round, winner=winner, reason=reason,
                               survivors=tuple({"id": c.id, "team": c.team, "hp": c.hp, "max_hp": c.max_hp}
                                               for c in self.creatures.values() if c.alive)))

    # -- performing actions -------------------------------------------------------------------------------
    def perform(self, action: Action) -> Done | Impossible:
        """Carry out one action of the current creature, or say why it cannot."""
        c = self.current()
        t = self.turn
        if c is None or t is None:
            return Impossible("no creature is acting")
        if t.ended:
            return Impossible(f"{c.name}'s turn is over")
        if not c.in_fight:
            return Impossible(f"{c.name} cannot act")
        mark = len(self.events)
        was_disabled = c.disabled
        handler = getattr(self, f"_do_{type(action).__name__}")
        result = handler(c, t, action)
        if isinstance(result, Impossible):
            return result
        if (c.single_action or was_disabled) and not (t.standard and t.move):  # one action a turn (§5.5)
            if was_disabled and isinstance(action, (Strike, Throw, Cast, LightTorch)) and c.disabled:
                self._strain(c)  # a standard action costs a disabled creature 1 hp
            t.standard = t.move = False
        if self.decided():
            t.ended = True  # the fight is decided: the turn ends, then the encounter (end_turn)
        if not t.standard and not t.move:
            t.ended = True
        return Done(tuple(self.events[mark:]))

    # movement ------------------------------------------------------------------------------------------
    def _needs(self, c: Creature, t: Turn, *, standard: bool = False, move: bool = False, full: bool = False) -> str | None:
        if c.single_action and full:
            return f"{c.name} is {'disabled' if c.disabled else 'staggered'}: a single move or standard action"
        if full and not t.full_round:
            return "needs a full-round action (nothing else this turn)"
        if c.nauseated and (standard or full):
            return f"{c.name} is nauseated: only a move action (§5.2)"
        if standard and not t.standard:
            return "no standard action left"
        if move and not (t.move or t.standard):
            return "no move action left"
        return None

    def _spend_move(self, c: Creature, t: Turn) -> None:
        if t.move:
            t.move = False
        else:
            t.standard = False  # a standard action can be taken as a move action
        if c.single_action or c.nauseated:
            t.standard = False
            t.move = False

    def _do_Move(self, c: Creature, t: Turn, a: Move):
        if a.double:
            why = self._needs(c, t, full=True)
            if why:
                return Impossible(why)
            budget = 2
        else:
            why = self._needs(c, t, move=True)
            if why:
                return Impossible(why)
            budget = 1
        if t.stepped:
            return Impossible("took a 5-ft step: no other movement this round")
        return self._travel(c, t, a.to, budget=budget, action="double_move" if a.double else "move")

    def _path_to(self, c: Creature, to: Pos):
        f = self.field(c)
        if not self.grid.in_bounds(to):
            return Impossible(f"({to[0]}, {to[1]}) is off the map")
        if f.mode[to[1], to[0]] == BLOCKED:
            return Impossible(f"{c.name} cannot stand at {to}")
        blocked, no_end = self.occupancy_masks(c)
        if no_end[to[1], to[0]] and to != c.pos:
            return Impossible(f"{to} is occupied")
        blocked[c.pos[1], c.pos[0]] = False
        blocked[to[1], to[0]] = False if not blocked[to[1], to[0]] else True
        if blocked[to[1], to[0]]:
            return Impossible(f"{to} is held by an enemy")
        key = (id(f), c.id, c.pos, c.prone, tuple(to), self.occupancy_signature())
        path = self._path_memo.get(key)
        if path is None:
            if len(self._path_memo) > 512:
                self._path_memo.clear()
            path = find_path(f, c.pos, to, blocked=blocked, prone=c.prone)
            self._path_memo[key] = path
        if not path.reachable:
            return Impossible(f"no way to {to} for {c.name}")
        return path

    def _travel(self, c: Creature, t: Turn, to: Pos, *, budget: int, action: str, withdraw: bool = False):
        path = self._path_to(c, to)
        if isinstance(path, Impossible):
            return path
        plan = self._steps_within(c, path.steps, budget)
        if not plan:
            return Impossible(f"{c.name} cannot move toward {to} with the movement left")
        steps = self._begin_move(c, action)
        moved_any = False
        used = 0  # move actions started
        for step in plan:
            if step.kind in ("escape_artist", "squeeze"):
                used += 1 if step.kind == "escape_artist" else 2
                if not self._escape_artist(c, step):
                    break
                if self._step(c, step, steps, withdraw=withdraw and not moved_any):
                    moved_any = True
                break  # an Escape Artist move takes the whole action: re-plan afterwards
            used = max(used, int(math.ceil(step.move_action)))
            if not self._step(c, step, steps, withdraw=withdraw and not moved_any):
                break
            moved_any = True
        self._finish_move(c, steps, action)
        for _ in range(max(used, 1) if action != "double_move" else 2):
            self._spend_move(c, t)
        if action == "withdraw":
            t.standard = t.move = False
        t.moved = True
        return True

    def movement_plan(self, c: Creature, to: Pos, *, budget: int) -> list:
        """The steps a move toward ``to`` would take now with ``budget`` move actions (empty when it
        cannot get anywhere): lets a policy check a move before choosing it."""
        path = self._path_to(c, to)
        if isinstance(path, Impossible):
            return []
        return self._steps_within(c, path.steps, budget)

    def _steps_within(self, c: Creature, path_steps, budget: int) -> list:
        """The steps this movement can take (RULES §6.1): walking and crawling steps whose move
        action fits the budget, then at most one Escape Artist attempt (its own move action, or a
        full-round action for a tight squeeze), never stopping in another creature's square
        (§6.4) -- not even where a failed check would leave it."""
        out = []
        used = 0
        for step in path_steps:
            if step.kind in ("escape_artist", "squeeze"):
                need = 1 if step.kind == "escape_artist" else 2
                if step.kind == "squeeze" and (used > 0 or c.nauseated):
                    break
                if used + need <= budget:
                    out.append(step)
                break
            act = int(math.ceil(step.move_action))
            if act > budget:
                break
            used = max(used, act)
            out.append(step)
        _, no_end = self.occupancy_masks(c)

        def free(p) -> bool:
            return tuple(p) == tuple(c.pos) or not no_end[p[1], p[0]]

        while out:
            last = out[-1]
            if last.kind in ("escape_artist", "squeeze"):
                before = out[-2].at if len(out) > 1 else c.pos
                if free(last.at) and free(before):
                    break
            elif free(last.at):
                break
            out.pop()
        return out

    def _escape_artist(self, c: Creature, step) -> bool:
        dc = int(step.dc)
        mod = int(c.block.escape_artist)
        roll = int(self.rng.integers(1, 21))
        total = roll + mod
        ok = total >= dc
        self.emit(Check(round=self.round, actor=c.id, skill="escape_artist", dc=dc, roll=roll, modifier=mod,
                        total=total, success=ok, cause=step.category.lower(), at=tuple(step.at)))
        return ok

    def _step(self, c: Creature, step, done_steps: list, *, withdraw: bool = False, five_ft: bool = False) -> bool:
        """Take one step, resolving attacks of opportunity for leaving threatened squares first.
        Returns False if the creature can no longer move (it fell)."""
        if step.kind != "stand":
            if not five_ft and not withdraw:
                self._provoke_for_leaving(c, step.at)
            if not c.in_fight:
                return False
        else:
            self.provoke(c, "stand_up")
            if not c.in_fight:
                return False
        old_squares = list(c.squares)
        if step.kind == "stand":
            c.prone = False
        else:
            self._place(c, tuple(step.at), trail_step=True)
            if step.kind in ("crawl",) or self.field(c).prone[step.at[1], step.at[0]]:
                c.prone = True
            if c.is_swarm:
                self._swarm_flow(c, old_squares)
        done_steps.append({"at": list(step.at), "category": step.category, "kind": step.kind, "feet": int(step.feet)})
        if step.kind == "crawl" and not c.is_swarm:
            # crawling provokes from every creature threatening the crawler at any point of the
            # crawl (RULES §5.1): arriving in a threatened square too, once per enemy per move
            self._provoke_for_leaving(c, step.at, why="crawling")
            if not c.in_fight:
                return False
        return True

    def _swarm_flow(self, c: Creature, old_squares: list[Pos]) -> None:
        f = self.field(c)
        passable = f.mode != BLOCKED
        lead = c.pos
        shapes = flow(old_squares[-4:] if old_squares else [lead], [c.trail[-1] if c.trail else lead, lead],
                      passable, size=4)
        c.squares = shapes[-1] if shapes else [lead]
        self._provoke_for_entering(c, old_squares)
        shape_event(self, c)

    def _begin_move(self, c: Creature, action: str) -> list:
        steps: list = []
        self._pending_move = (c, steps, action)
        return steps

    def _finish_move(self, c: Creature, steps: list, action: str) -> None:
        if c.is_swarm and c.in_fight:
            f = self.field(c)
            c.squares = best_shape(f.mode != BLOCKED, c.pos, mode=self.settings.get("swarm_shape", "any"),
                                   score=self._swarm_score(c))
            shape_event(self, c)
        if steps or not getattr(self, "_pending_move", None) or self._pending_move[0] is not c:
            self.emit(Moved(round=self.round, actor=c.id, path=tuple(steps), squares=tuple(c.squares),
                            prone=c.prone, action=action))
        self._pending_move = None
        self._moved_this = None

    def _provoke_for_leaving(self, c: Creature, to: Pos, *, why: str = "leaving") -> None:
        """Leaving a threatened square provokes, once per enemy per move (RULES §6.6, §7.27); so
        does being threatened anywhere along a crawl (``why="crawling"``, §5.1)."""
        already = getattr(self, "_moved_this", None)
        if already is None or already[0] != (self.round, c.id):
            self._moved_this = ((self.round, c.id), set())
        seen = self._moved_this[1]
        cur = set(c.squares)
        for o in list(self.creatures.values()):
            if o.team == c.team or o.id in seen or not o.in_fight:
                continue
            t = combat.threatens(self, o)
            if cur & t:
                seen.add(o.id)
                self._attack_of_opportunity(o, c, why)
                if not c.in_fight:
                    return

    def _provoke_for_entering(self, swarm: Creature, old_squares: list[Pos]) -> None:
        """A swarm entering an opponent's space provokes (§4.2), once per opponent per move (§7.27)."""
        already = getattr(self, "_moved_this", None)
        if already is None or already[0] != (self.round, swarm.id):
            self._moved_this = ((self.round, swarm.id), set())
        seen = self._moved_this[1]
        new = set(swarm.squares) - set(old_squares)
        for o in list(self.creatures.values()):
            if o.team == swarm.team or o.id in seen or not o.in_fight or o.is_swarm:
                continue
            if new & set(o.squares) and not (set(old_squares) & set(o.squares)):
                seen.add(o.id)
                self._attack_of_opportunity(o, swarm, "entering")
                if not swarm.in_fight:
                    return

    def provoke(self, c: Creature, why: str) -> None:
        """An action that provokes (casting, ranged attack, standing up, lighting a torch...):
        every enemy threatening ``c`` may make an attack of opportunity."""
        for o in list(self.creatures.values()):
            if o.team == c.team or not o.in_fight:
                continue
            if set(c.squares) & combat.threatens(self, o):
                self._attack_of_opportunity(o, c, why)
                if not c.in_fight:
                    return

    def _attack_of_opportunity(self, o: Creature, target: Creature, why: str) -> bool:
        """One melee attack at full bonus, if ``o`` can make one now (§6.6): not flat-footed, not
        nauseated, not a swarm, within its allowance (Combat Reflexes), target without cover."""
        if o.is_swarm or o.flat_footed or o.nauseated or not o.in_fight:
            return False
        allowance = 1 + (max(0, o.block.abilities.mod("dex")) if o.block.has_feat("combat-reflexes") else 0)
        if o.aoo_used >= allowance:
            return False
        att = combat.melee_in_hand(o)
        if att is None:
            return False
        plan = combat.plan_attack(self, o, att, target, kind="opportunity")
        if not plan or "cover" in plan.ac_modifiers:
            return False
        o.aoo_used += 1
        self._flush_move()  # the movement so far comes before the attack it provoked
        combat.resolve_attack(self, plan)
        return True

    def _flush_move(self) -> None:
        pending = getattr(self, "_pending_move", None)
        if pending and pending[1]:
            c, steps, action = pending
            self.emit(Moved(round=self.round, actor=c.id, path=tuple(steps), squares=tuple(c.squares),
                            prone=c.prone, action=action, partial=True))
            steps.clear()

    def _do_FiveFootStep(self, c: Creature, t: Turn, a: FiveFootStep):
        if t.moved or t.stepped:
            return Impossible("already moved this round: no 5-ft step")
        if c.nauseated:
            return Impossible(f"{c.name} is nauseated: a move action only, no 5-ft step ([PD] §5.2)")
        if c.speed_ft_value() <= 5:
            return Impossible("a creature of speed 5 ft or less cannot take a 5-ft step")
        if distance_squares(c.pos, a.to) != 1:
            return Impossible("a 5-ft step goes to an adjacent square")
        f = self.field(c)
        here = combat.standing_category(self, c)
        there = Category(int(f.category[a.to[1], a.to[0]])) if self.grid.in_bounds(a.to) else Category.IMPASSABLE
        if not effects(here).five_foot_step or not effects(there).five_foot_step or f.mult[a.to[1], a.to[0]] != 1:
            return Impossible("no 5-ft step into or inside constricted squares or difficult terrain (§7.36)")
        if c.prone:
            return Impossible("prone: stand up first")
        path = self._path_to(c, a.to)
        if isinstance(path, Impossible):
            return path
        if len(path.steps) != 1:
            return Impossible("that square is not one step away")
        steps = self._begin_move(c, "five_foot_step")
        self._step(c, path.steps[0], steps, five_ft=True)
        steps[:] = [dict(s, kind="step") for s in steps]
        self._finish_move(c, steps, "five_foot_step")
        t.stepped = True
        return True

    def _do_Withdraw(self, c: Creature, t: Turn, a: Withdraw):
        why = self._needs(c, t, full=True)
        if why:
            return Impossible(why)
        if t.stepped:
            return Impossible("took a 5-ft step: no other movement this round")
        return self._travel(c, t, a.to, budget=2, action="withdraw", withdraw=True)

    # attacks ------------------------------------------------------------------------------------------------
    def _attack_for(self, c: Creature, name: str | None):
        att = c.attack_named(name) if name else (c.wielded() or combat._first_melee(c))
        if att is None:
            return Impossible(f"{c.name} has no attack {name!r}")
        if att.kind == "weapon" and att.mode == "melee" and att.name != c.wielding:
            return Impossible(f"{att.name} is not in hand: draw it first (a move action)")
        return att

    def _do_Strike(self, c: Creature, t: Turn, a: Strike):
        why = self._needs(c, t, standard=True)
        if why:
            return Impossible(why)
        target = self.creatures.get(a.target)
        if target is None:
            return Impossible(f"no creature {a.target!r}")
        att = self._attack_for(c, a.attack)
        if isinstance(att, Impossible):
            return att
        why = self._unloaded(c, att)
        if why:
            return Impossible(why)
        plan = combat.plan_attack(self, c, att, target, kind="ranged" if att.mode == "ranged" else "melee")
        if not plan:
            return Impossible(plan.reason)
        if att.mode == "ranged":
            self.provoke(c, "ranged_attack")
            if not c.in_fight:
                t.standard = False
                return True
            plan = combat.plan_attack(self, c, att, target, kind="ranged")
            if not plan:
                t.standard = False
                return True
        combat.resolve_attack(self, plan)
        self._after_shot(c, att)
        t.standard = False
        return True

    def _strain(self, c: Creature) -> None:
        """A disabled creature taking a standard action loses 1 hp (and is dying, §5.5)."""
        self._lose_hp(c, 1, "strain")

    def _lose_hp(self, c: Creature, amount: int, cause: str) -> None:
        """Hit points lost to no attack (dying, straining while disabled): an event all the same."""
        before = c.hp
        c.hp -= amount
        self.emit(Damage(round=self.round, target=c.id, amount=amount, parts={cause: amount}, source=None,
                         cause=cause, hp_before=before, hp_after=c.hp))
        combat.update_state(self, c)

    def _do_FullAttack(self, c: Creature, t: Turn, a: FullAttack):
        why = self._needs(c, t, full=True)
        if why:
            return Impossible(why)
        target = self.creatures.get(a.target)
        if target is None:
            return Impossible(f"no creature {a.target!r}")
        routine = self._routine(c, a.attack)
        if isinstance(routine, Impossible):
            return routine
        if routine and load_action(routine[0][0]) is not None:
            why = self._unloaded(c, routine[0][0])
            if why:
                return Impossible(why)
            routine = routine[:1]  # one shot: loading again takes an action of its own (RULES §3.3)
        kind = lambda att: "melee" if att.mode == "melee" else "ranged"  # noqa: E731
        plans = [combat.plan_attack(self, c, att, target, kind=kind(att), iterative=it) for att, it, _ in routine]
        if not any(plans):
            return Impossible(next(p.reason for p in plans if not p))
        t.standard = t.move = False
        for att, iterative, _ in routine:
            if not target.alive or not c.in_fight:
                break
            plan = combat.plan_attack(self, c, att, target, kind=kind(att), iterative=iterative)
            if not plan:
                continue  # e.g. the club of a claw-claw-club routine in an awkward space
            if att.thrown and c.thrown_left.get(att.weapon.key, 1) <= 0:
                break  # nothing left to throw
            if att.mode == "ranged":
                self.provoke(c, "ranged_attack")
                if not c.in_fight:
                    break
            combat.resolve_attack(self, plan)
            self._after_shot(c, att)
        return True

    def _unloaded(self, c: Creature, att) -> str | None:
        """Why this crossbow or sling cannot shoot now: it was fired and not loaded again."""
        la = load_action(att)
        if la is None or att.name not in c.unloaded:
            return None
        how = "a move action" if la == "move" else "a full-round action"
        return f"the {att.name} is not loaded: load it first ({how}, provokes; O in cavesim play)"

    def _after_shot(self, c: Creature, att) -> None:
        """A crossbow or sling is empty after a shot; a thrown weapon is gone (the last one thrown
        takes that weapon's attacks with it, and empties the hand that held it)."""
        if load_action(att) is not None:
            c.unloaded.add(att.name)
        if not att.thrown or att.weapon is None or att.weapon.key not in c.thrown_left:
            return
        key = att.weapon.key
        c.thrown_left[key] -= 1
        if c.thrown_left[key] > 0:
            return
        import dataclasses

        gone = {x.name for x in c.block.attacks if x.weapon is not None and x.weapon.key == key}
        c.block = dataclasses.replace(c.block, attacks=tuple(x for x in c.block.attacks if x.name not in gone))
        c.base_block = dataclasses.replace(c.base_block,
                                           attacks=tuple(x for x in c.base_block.attacks if x.name not in gone))
        if c.wielding in gone:
            c.wielding = None
        self.emit(ItemUsed(round=self.round, actor=c.id, action="last_thrown", item=key))

    def _do_Load(self, c: Creature, t: Turn, a: Load):
        if a.attack is not None:
            att = c.attack_named(a.attack)
            if att is None:
                return Impossible(f"{c.name} has no attack {a.attack!r}")
            if load_action(att) is None:
                return Impossible(f"a {att.name} needs no loading")
            if att.name not in c.unloaded:
                return Impossible(f"the {att.name} is already loaded")
        else:
            att = next((x for x in c.block.attacks if x.name in c.unloaded and load_action(x)), None)
            if att is None:
                return Impossible("nothing to load: every crossbow and sling is loaded")
        full = load_action(att) == "full_round"
        why = self._needs(c, t, full=full, move=not full)
        if why:
            return Impossible(why)
        self.provoke(c, "load")
        if full:
            t.standard = t.move = False
        else:
            self._spend_move(c, t)
        if c.in_fight:
            c.unloaded.discard(att.name)
            self.emit(ItemUsed(round=self.round, actor=c.id, action="load", item=att.name))
        return True

    def _routine(self, c: Creature, name: str | None):
        """The attacks of a full attack: iterative attacks with one weapon (BAB 6+), or a monster's
        full-attack routine of natural attacks."""
        att = self._attack_for(c, name)
        if isinstance(att, Impossible):
            return att
        if att.kind == "natural" or (c.block.full_attacks and att.kind != "weapon"):
            for routine in c.block.full_attacks:
                if any(x.name == att.name for x in routine):
                    out = []
                    for x in routine:
                        for _ in range(max(1, x.count)):
                            out.append((x, 0, None))
                    return out
        return [(att, i, None) for i in range(len(att.bonuses) or 1)]

    def _do_Charge(self, c: Creature, t: Turn, a: Charge):
        why = self._needs(c, t, full=True)
        if why:
            return Impossible(why)
        if t.stepped:
            return Impossible("took a 5-ft step: no other movement this round")
        target = self.creatures.get(a.target)
        if target is None:
            return Impossible(f"no creature {a.target!r}")
        att = self._attack_for(c, a.attack)
        if isinstance(att, Impossible) or att.mode != "melee":
            return Impossible("a charge needs a melee weapon in hand")
        dest = self.charge_square(c, target, att)
        if isinstance(dest, Impossible):
            return dest
        path = self._path_to(c, dest)
        if isinstance(path, Impossible):
            return path
        steps = self._begin_move(c, "charge")
        for step in path.steps:
            if not self._step(c, step, steps):
                break
        steps[:] = [dict(s, kind="charge") for s in steps]
        self._finish_move(c, steps, "charge")
        t.standard = t.move = False
        t.moved = True
        if c.in_fight and target.alive:
            plan = combat.plan_attack(self, c, att, target, kind="charge")
            if plan:
                combat.resolve_attack(self, plan)
        c.charged = True
        return True

    def _do_Run(self, c: Creature, t: Turn, a: Run):
        why = self._needs(c, t, full=True)
        if why:
            return Impossible(why)
        if t.stepped:
            return Impossible("took a 5-ft step: no other movement this round")
        lane = self.run_lane(c, tuple(a.to))
        if isinstance(lane, Impossible):
            return lane
        steps = self._begin_move(c, "run")
        for step in lane.steps:
            if not self._step(c, step, steps):
                break
        steps[:] = [dict(s, kind="run") for s in steps]
        self._finish_move(c, steps, "run")
        t.standard = t.move = False
        t.moved = True
        if c.in_fight and not c.block.has_feat("run"):
            combat.set_condition(self, c, "running", "run")  # no Dex to AC until its next turn
        return True

    def run_lane(self, c: Creature, to: Pos):
        """The path of a run to ``to`` (§6.5), or why there is none: a straight line from square
        centre to square centre, every square on it open and Clear for this creature and not
        difficult, no enemy on it, ``to`` free; at most 4 x speed (3 x in heavy armor), 5-10-5."""
        from sim.geometry import squares_on_segment

        f = self.field(c)
        if c.prone:
            return Impossible("prone: stand up before running")
        if not effects(combat.standing_category(self, c)).run_charge:
            return Impossible("no running in a constricted space (§2.4)")
        if not self.grid.in_bounds(to) or to == c.pos:
            return Impossible("run to another square on the map")
        heavy = c.block.armor is not None and c.block.armor.kind == "heavy" and not c.armor_off
        times = combat_modifier("movement", "run_heavy" if heavy else "run")
        if distance_squares(c.pos, to) * 5 > times * c.speed_ft_value():
            return Impossible(f"too far to run: {distance_squares(c.pos, to) * 5} ft, at most {times} x speed "
                              f"= {times * c.speed_ft_value()} ft")
        blocked, no_end = self.occupancy_masks(c)
        if no_end[to[1], to[0]] or blocked[to[1], to[0]]:
            return Impossible(f"{to} is occupied")
        line = [c.pos] + [q for q in squares_on_segment((c.pos[0] + 0.5, c.pos[1] + 0.5), (to[0] + 0.5, to[1] + 0.5))
                          if q != c.pos]
        for (x, y) in line[1:]:
            if not self.grid.in_bounds((x, y)) or f.mode[y, x] != 1 or f.category[y, x] != Category.CLEAR \
                    or f.mult[y, x] != 1:
                return Impossible("the run is not a straight line over clear ground (constricted, difficult or "
                                  "blocked squares on the way)")
            if blocked[y, x]:
                return Impossible("an enemy stands in the way")
        off_line = np.ones(self.grid.shape, dtype=bool)
        for (x, y) in line:
            off_line[y, x] = False
        path = find_path(f, c.pos, to, blocked=off_line | blocked, prone=False)
        if not path.reachable:
            return Impossible("the run is not a straight line over clear ground")
        return path

    def charge_square(self, c: Creature, target: Creature, att) -> Pos | Impossible:
        """The charge rules (§6.5): at least 10 ft, at most double speed, straight at the target,
        ending in the nearest square from which it can attack; every square on the way clear
        (no constricted or difficult squares, no creatures); not from or into constricted squares."""
        f = self.field(c)
        speed_sq = c.speed_ft_value() // 5
        if not effects(combat.standing_category(self, c)).run_charge:
            return Impossible("no charging in a constricted space (§2.4)")
        if c.prone:
            return Impossible("prone: no charge")
        reach = int(att.reach_ft or c.reach_ft())
        blocked, no_end = self.occupancy_masks(c)
        best = None
        tcx, tcy = _center(target.squares)
        if c.k == 1:  # one square: every candidate at once, the same choice (nearest, then row-major first)
            best = _charge_end_1(f, c.pos, speed_sq, no_end, target.squares, reach)
        for dy in range(-speed_sq * 2, speed_sq * 2 + 1) if c.k > 1 else ():
            for dx in range(-speed_sq * 2, speed_sq * 2 + 1):
                p = (c.pos[0] + dx, c.pos[1] + dy)
                d = distance_squares(c.pos, p)  # the cheap tests first (a square not nearer than the best loses)
                if d < 2 or d > 2 * speed_sq or (best is not None and d >= best[0]):
                    continue
                if not self.grid.in_bounds(p) or f.mode[p[1], p[0]] == BLOCKED or no_end[p[1], p[0]]:
                    continue
                sq = f.occupied(p, [])
                if footprint_distance_ft(sq, target.squares) > reach:
                    continue
                best = (d, p)
        if best is None:
            return Impossible(f"no square to charge {target.name} from")
        p = best[1]
        # the line from start to end must be clear: open, not constricted, not difficult, no creatures
        x0, y0 = c.pos[0] + 0.5, c.pos[1] + 0.5
        x1, y1 = p[0] + 0.5, p[1] + 0.5
        from sim.geometry import squares_on_segment

        for (x, y) in squares_on_segment((x0, y0), (x1, y1)):
            if (x, y) == c.pos:
                continue
            if not self.grid.in_bounds((x, y)) or f.mode[y, x] != 1 or f.category[y, x] != Category.CLEAR:
                return Impossible("the charge lane is not clear (constricted, difficult or blocked)")
            if f.mult[y, x] != 1 or blocked[y, x] or (no_end[y, x] and (x, y) != p):
                return Impossible("the charge lane is not clear")
        return p

    # other actions -------------------------------------------------------------------------------------
    def _do_Draw(self, c: Creature, t: Turn, a: Draw):
        why = self._needs(c, t, move=True)
        if why:
            return Impossible(why)
        att = c.attack_named(a.attack)
        if att is None:
            return Impossible(f"{c.name} carries no {a.attack!r}")
        if att.name == c.wielding:
            return Impossible(f"{att.name} is already in hand")
        c.wielding = att.name
        self.emit(ItemUsed(round=self.round, actor=c.id, action="draw", item=att.name))
        self._spend_move(c, t)
        return True

    def _do_LightTorch(self, c: Creature, t: Turn, a: LightTorch):
        if c.items.get("torch", 0) <= 0:
            return Impossible(f"{c.name} has no torch")
        if c.items.get("tindertwig", 0) > 0:
            why = self._needs(c, t, standard=True)
            if why:
                return Impossible(why)
            c.items["tindertwig"] -= 1
            t.standard = False
        else:
            why = self._needs(c, t, full=True)
            if why:
                return Impossible(why)
            t.standard = t.move = False
        self.provoke(c, "light_torch")
        if not c.in_fight:
            return True
        c.torch_lit = True
        if c.attack_named("torch") is None:
            c.block = _with_extra_attacks(c.block, attacks_with(c.block, "torch"))
            if not c.armor_off:
                c.base_block = c.block
        c.wielding = "torch"
        self.emit(ItemUsed(round=self.round, actor=c.id, action="light", item="torch"))
        return True

    def _do_DropProne(self, c: Creature, t: Turn, a: DropProne):
        if c.prone:
            return Impossible("already prone")
        c.prone = True
        self.emit(ItemUsed(round=self.round, actor=c.id, action="drop_prone"))
        self.emit(Condition(round=self.round, target=c.id, condition="prone", active=True))
        return True

    def _do_StandUp(self, c: Creature, t: Turn, a: StandUp):
        why = self._needs(c, t, move=True)
        if why:
            return Impossible(why)
        if not c.prone:
            return Impossible("not prone")
        if self.field(c).prone[c.pos[1], c.pos[0]]:
            return Impossible("the ceiling is too low to stand up here")
        self.provoke(c, "stand_up")
        self._spend_move(c, t)
        if c.in_fight:
            c.prone = False
            self.emit(ItemUsed(round=self.round, actor=c.id, action="stand_up"))
            self.emit(Condition(round=self.round, target=c.id, condition="prone", active=False))
        return True

    def _do_Throw(self, c: Creature, t: Turn, a: Throw):
        from sim.items import throw_splash

        why = self._needs(c, t, standard=True)
        if why:
            return Impossible(why)
        return throw_splash(self, c, t, a)

    def _do_PrepareFuse(self, c: Creature, t: Turn, a: PrepareFuse):
        from sim.items import prepare_fuse

        return prepare_fuse(self, c, t, a.item)

    def _do_Cast(self, c: Creature, t: Turn, a: Cast):
        from sim.spells import cast

        why = self._needs(c, t, standard=True)
        if why:
            return Impossible(why)
        return cast(self, c, t, a)

    def _do_Delay(self, c: Creature, t: Turn, a: Delay):
        t.ended = True
        return True


def _charge_end_1(f: MoveField, pos: Pos, speed_sq: int, no_end: np.ndarray, target_squares, reach: int):
    """The end square of a one-square creature's charge, as ``(d, (x, y))`` or None: the nearest
    (5-10-5 squares from ``pos``, at least 2 and at most double speed) free square where it can
    stand within ``reach`` ft of the target; ties go to the first in row-major order."""
    rows, cols = f.mode.shape
    r = 2 * speed_sq
    y0, y1 = max(0, pos[1] - r), min(rows, pos[1] + r + 1)
    x0, x1 = max(0, pos[0] - r), min(cols, pos[0] + r + 1)
    if y0 >= y1 or x0 >= x1:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    ax, ay = np.abs(xx - pos[0]), np.abs(yy - pos[1])
    d = np.maximum(ax, ay) + np.minimum(ax, ay) // 2
    ok = (d >= 2) & (d <= r) & (f.mode[y0:y1, x0:x1] != BLOCKED) & ~no_end[y0:y1, x0:x1]
    near = np.zeros(ok.shape, dtype=bool)
    for tx, ty in target_squares:
        bx, by = np.abs(xx - tx), np.abs(yy - ty)
        near |= 5 * (np.maximum(bx, by) + np.minimum(bx, by) // 2) <= reach
    ok &= near
    if not ok.any():
        return None
    i = int(np.argmin(np.where(ok, d, np.iinfo(np.int64).max)))
    return int(d.flat[i]), (int(xx.flat[i]), int(yy.flat[i]))


def _center(squares: Iterable[Pos]) -> tuple[float, float]:
    sq = list(squares)
    return (sum(x for x, _ in sq) / len(sq), sum(y for _, y in sq) / len(sq))


def run_fight(spec: EncounterSpec, *, seed: int | None = None, policy=None) -> Encounter:
    """Play a whole fight; the encounter (events, creatures, winner) is returned."""
    enc = Encounter(spec, seed=seed, policy=policy)
    enc.run()
    return enc
