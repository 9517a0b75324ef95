"""The turn engine: initiative, actions, attacks of opportunity, victory (RULES §2-§6, §8).

An :class:`Encounter` holds the grid, the creatures and the fight's one random generator
(``numpy.random.Generator``, seeded from the encounter file or the caller: same seed, same
fight). Every step of the fight is an event record (``sim.engine.events``); nothing else leaves it.

The state lives in :class:`sim.engine.world.World`; this module is the turn loop: initiative,
the start-of-turn effects, :meth:`Encounter.perform` (one action, through the handler table of
action type -> handler), the end of the turn, victory. What each rule adds to the turn -- its
actions, its start- and end-of-turn hooks, its refusals, what runs after each action -- is one
:class:`sim.engine.mechanics.Mechanic` record, run in the order of :data:`sim.engine.registry.REGISTRY`.

Two ways to drive it:

* ``new_encounter(spec).run()`` (:mod:`sim.engine.fight`) plays the whole fight with the AI and
  returns the events;
* step by step for interactive play: ``start()``, then ``begin_turn()``, ``perform(action)``
  for each chosen action (a :class:`Done` with the events, or an :class:`Impossible` with the
  reason), ``end_turn()``; ``ai_turn()`` lets the policy play the current creature.

A creature's turn (SRD Combat): a standard action and a move action, or a full-round action;
a 5-ft step when it has not otherwise moved; free actions. Constricted squares forbid running,
charging and the 5-ft step (§2.4, §7.36). Moving out of a threatened square provokes an attack
of opportunity from each enemy threatening it, once per enemy per move (§6.6).
"""

from __future__ import annotations

from typing import Callable, ClassVar

from sim.engine import damage, grapple, registry, swallow
from sim.engine.actions import (
    Action,
    Cast,
    Delay,
    Done,
    Impossible,
    LightTorch,
    Strike,
    Throw,
    Turn,
)
from sim.engine.afflictions import paralysis_over_with_fight
from sim.engine.checks import d20
from sim.engine.creature import Creature
from sim.engine.events import (
    Decided,
    EncounterEnd,
    EncounterStart,
    Event,
    Initiative,
    Refused,
    RoundStart,
    TurnEnd,
    TurnStart,
)
from sim.engine.mechanics import Mechanic
from sim.engine.opening import start_event
from sim.engine.parts import Part
from sim.engine.world import World
from sim.scenario.specs import SETTINGS_DEFAULTS, EncounterSpec


class Encounter(World):
    """One fight on one grid. See the module docstring.

    ``mechanics``: the rules it plays, in their order (a class attribute, not state: the saved
    game does not hold it); a variant of the game is a subclass with another tuple. ``PARTS``:
    the parts of the fight's state they declare (:func:`sim.engine.registry.parts`), which the
    world builds and the saved game writes and reads; a subclass gets its own from its tuple."""

    mechanics: ClassVar[tuple[Mechanic, ...]] = registry.REGISTRY
    PARTS: ClassVar[tuple[Part, ...]] = registry.parts(registry.REGISTRY)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.PARTS = registry.parts(cls.mechanics)

    def __init__(self, spec: EncounterSpec, *, seed: int | None = None, policy: Callable | None = None,
                 settings: dict | None = None, shared: dict | None = None):
        """``policy``: who plays the creatures in :meth:`run` and :meth:`ai_turn`, a function
        ``(encounter, creature, turn) -> action or None``; None for a fight driven action by
        action (:func:`sim.engine.fight.new_encounter` gives the default AI). ``shared``: see
        :class:`World`."""
        super().__init__(spec, seed=seed, settings=settings, shared=shared)
        self.policy = policy

    def start(self) -> list[Event]:
        """Encounter start and initiative (d20 + modifier; ties: higher modifier, then a roll-off)."""
        mark = len(self.events)
        self.emit(self.start_event())
        rolls = []
        for c in self.creatures.values():
            mod = int(c.block.initiative)
            roll = d20(self, c, "initiative", mod)
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

    def start_event(self) -> EncounterStart:
        """The ``encounter_start`` event: the map and everyone as they stand before initiative."""
        return start_event(self)

    @property
    def round_cap(self) -> int:
        """The last round played; then the fight is called (settings ``round_cap``)."""
        return int(self.settings.get("round_cap", SETTINGS_DEFAULTS["round_cap"]))

    def run(self, *, max_rounds: int | None = None) -> list[Event]:
        """Play the whole fight with the AI; returns all events. A fight already under way (one
        loaded from a snapshot, :mod:`sim.engine.saved.snapshot`) goes on from where it stands."""
        if not self.events:
            self.start()
        if max_rounds is not None:  # 0 is a cap too
            self.settings["round_cap"] = int(max_rounds)
        while self.advance():
            pass
        return self.events

    def advance(self) -> bool:
        """One step of the AI-played fight: begin the next turn, or one action of the policy, or
        end the turn. Everything between two steps is in the world (a snapshot taken there and
        resumed plays on the same). False once the fight is over."""
        if self.finished:
            return False
        if self.turn is None:
            self.begin_turn()
            return not self.finished
        if not self.turn.ended and self.ai_action():
            return True
        self.end_turn()  # the round cap is tested where a round begins (begin_turn)
        return not self.finished

    def begin_turn(self) -> Creature | None:
        """Advance to the next creature able to act and apply start-of-turn effects."""
        while True:
            self.turn_index += 1
            if self.turn_index >= len(self.order):
                self.turn_index = 0
                self.round += 1
                self.emit(RoundStart(round=self.round))
                if self.round > self.round_cap:
                    self._finish(None, "round_cap")
                    return None
            c = self.creatures[self.order[self.turn_index]]
            if not c.alive or c.split_round == self.round:  # a new half acts from the next round (§11.14)
                continue
            self.turn = Turn(actor=c.id)
            self.turn_mark = len(self.events)
            self.emit(TurnStart(round=self.round, actor=c.id))
            registry.start_of_turn(self, c, self.mechanics)   # every start-of-turn hook, in the registry's order
            if registry.occupied(self, c, self.mechanics):    # busy with armor (its own or an ally's): the whole turn
                self.turn.ended = True
            if c.single_action:  # disabled or staggered: one move or standard action (§5.5), never a full round
                self.turn.move = False
            if not c.in_fight or self.decided():
                self.turn.ended = True
            return c

    def ai_turn(self) -> None:
        """Let the policy play the current creature's turn."""
        c = self.current()
        if c is None or self.turn is None:
            return
        if self.policy is None:
            raise ValueError("this encounter has no policy: give one, or build it with "
                             "sim.engine.fight.new_encounter (the default AI)")
        while self.ai_action():
            pass

    def ai_action(self) -> bool:
        """Ask the policy for one action of the current creature and perform it (at most eight a
        turn); False when it acts no more this turn (it passed, was refused, or cannot act)."""
        c = self.current()
        t = self.turn
        if c is None or t is None:
            return False
        if self.policy is None:
            raise ValueError("this encounter has no policy: give one, or build it with "
                             "sim.engine.fight.new_encounter (the default AI)")
        if t.ai_passed or t.ai_asked >= 8 or t.ended or self.finished or not c.in_fight:
            return False
        action = self.policy(self, c, t)
        note = self.memory.ai_note.pop(c.id, None)   # the policy's why (sim.engine.ai.constricted.note)
        t.ai_asked += 1
        if note is not None and note.get("weapon"):
            self.emit(Decided(round=self.round, actor=c.id, **note))
        if action is None or isinstance(action, Delay):
            t.ai_passed = True
            if t.standard and t.move and not t.moved and not t.stepped and not (note and note.get("weapon")):
                reason = (note or {}).get("reason") or ("waits" if action is not None else "nothing_to_do")
                self.emit(Decided(round=self.round, actor=c.id, choice="idle", reason=reason))   # issue 31 item 5
            return False
        result = self.perform(action)
        if not result:
            self.emit(Refused(round=self.round, actor=c.id, action=type(action).__name__, reason=result.reason))
            t.ai_passed = True
            return False
        return True

    def end_turn(self) -> None:
        c = self.current()
        if c is None or self.turn is None:
            return
        registry.end_of_turn(self, c, self.mechanics)    # the swarm's damage, a poor flier lands, glitterdust; then settle
        self.emit(TurnEnd(round=self.round, actor=c.id))
        self.turn = None
        self._check_victory()

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
        grapple.end_all(self)   # the fight is over: nobody is held into the next one (a crawl's)
        swallow.end_all(self)   # nor kept inside a worm or a cube (docs/rules.md §11.13)
        for c in self.creatures.values():
            paralysis_over_with_fight(self, c)
        self.emit(EncounterEnd(round=self.round, winner=winner, reason=reason,
                               survivors=tuple({"id": c.id, "team": c.team, "hp": c.hp, "max_hp": c.max_hp}
                                               for c in self.creatures.values() if c.alive)))

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
        handler = registry.handler_table(self.mechanics).get(type(action))
        if handler is None:
            raise ValueError(f"not an action: {action!r}")
        refused = registry.check(self, c, action, self.mechanics)   # swallowed, grappled, stuck...; the action's own check
        if refused is not None:
            return refused
        result = handler(self, c, t, action)
        if isinstance(result, Impossible):
            return result
        if (c.single_action or was_disabled) and not (t.standard and t.move):  # one action a turn (§5.5)
            if was_disabled and isinstance(action, (Strike, Throw, Cast, LightTorch)) and c.disabled:
                self._strain(c)  # a standard action costs a disabled creature 1 hp
            t.spend("full")
        registry.after_action(self, self.mechanics)   # improved grabs of the action's hits, grapples that ended; then settle
        if self.decided():
            t.ended = True  # the fight is decided: the turn ends, then the encounter (end_turn)
        if not t.standard and not t.move:
            t.ended = True
        return Done(tuple(self.events[mark:]))

    def _strain(self, c: Creature) -> None:
        """A disabled creature taking a standard action loses 1 hp (and is dying, §5.5)."""
        damage.lose_hp(self, c, 1, "strain")

