"""The d20 and what it decides (RULES §0.2): attack rolls, saving throws, skill checks.

One rule lives here once: on an attack roll or a saving throw a natural 20 always succeeds and a
natural 1 always fails (:func:`hits`); skill checks (Escape Artist, Concentration) have no such
rule. Every roll is an event.

Dice typed at the table (``cavesim play --dice manual``): the world's :attr:`~World.dice` is then a
:class:`DiceHand` naming the creatures whose players roll their own dice. Their d20s and damage
dice come from the values typed so far (each recorded as a ``roll`` event with ``entered: true``);
when none is left the engine raises :class:`NeedRoll` with a :class:`RollRequest` (whose roll, what
for, the die, the modifier, the valid range). The caller puts the fight back as it was before the
step (a snapshot), asks the player, and plays the step again with one more value typed: the same
state, the same rolls before it, so the step goes exactly as it would have, up to the typed die.
Everyone else's dice stay with the fight's seeded generator, drawn exactly as without a hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.base.coords import Pos
from sim.engine.creature import Creature
from sim.engine.events import Check, Rolled, Save
from sim.engine.world import World
from sim.rules.dice import Dice

D20 = Dice(1, 20, 0)


@dataclass(frozen=True, slots=True)
class RollRequest:
    """A die the engine wants typed: ``actor`` rolls ``die`` for ``purpose``, ``modifier`` is added."""

    actor: str
    name: str
    purpose: str
    die: str
    modifier: int
    low: int
    high: int

    @property
    def prompt(self) -> str:
        """What the window asks, e.g. "Bruna: attack vs kobold-2, d20 + 7"."""
        mod = f" + {self.modifier}" if self.modifier > 0 else (f" - {-self.modifier}" if self.modifier < 0 else "")
        return f"{self.name}: {self.purpose}, {self.die}{mod}"

    def check(self, text: str) -> "int | str":
        """The value typed, or why it is refused (a value, not an error).

        >>> r = RollRequest("bruna", "Bruna", "attack vs kobold-2", "d20", 7, 1, 20)
        >>> r.prompt, r.check("14"), r.check("21"), r.check(""), r.check("x")
        ('Bruna: attack vs kobold-2, d20 + 7', 14, 'd20 rolls 1 to 20, not 21', 'type the d20 you rolled (1 to 20)', 'd20 rolls 1 to 20, not x')
        """
        t = text.strip()
        if not t:
            return f"type the {self.die} you rolled ({self.low} to {self.high})"
        if not t.isdigit() or not self.low <= int(t) <= self.high:
            return f"{self.die} rolls {self.low} to {self.high}, not {t}"
        return int(t)


class NeedRoll(Exception):
    """Raised by the engine when a die of a creature in the :class:`DiceHand` is to be typed and
    none is left: the step is to be played again, from before it, with the value (see the module
    docstring). Carries the :class:`RollRequest`."""

    def __init__(self, request: RollRequest):
        super().__init__(request.prompt)
        self.request = request


@dataclass(slots=True)
class DiceHand:
    """Who rolls their own dice (creature ids) and the values typed for the step being played,
    used in order."""

    hands: set[str] = field(default_factory=set)
    typed: list[int] = field(default_factory=list)

    def take(self, w: World, who: Creature, dice: Dice, purpose: str, modifier: int) -> int:
        """The next typed value for ``who``'s ``dice`` (recorded as a ``roll`` event), or NeedRoll."""
        low, high = dice.count, dice.count * dice.sides
        die = "d20" if dice == D20 else dice.die
        if not self.typed:
            raise NeedRoll(RollRequest(who.id, who.name, purpose, die, modifier, low, high))
        v = self.typed.pop(0)
        if not low <= v <= high:
            raise ValueError(f"{who.name}: {purpose}: {die} rolls {low} to {high}, not {v}")
        w.emit(Rolled(round=w.round, actor=who.id, purpose=purpose, die=die, modifier=modifier, value=v))
        return v


def label(w: World, c: Creature) -> str:
    """A creature as a roll's purpose names it: its name, or its id when others share the name."""
    same = sum(1 for o in w.creatures.values() if o.name == c.name)
    return c.name if same == 1 else c.id


def _typed(w: World, who: Creature | None) -> bool:
    hand = w.dice
    return hand is not None and who is not None and who.id in hand.hands


def d20(w: World, who: Creature | None = None, purpose: str = "", modifier: int = 0) -> int:
    """One roll of the fight's d20: ``who``'s, typed at the table when its player rolls (see the
    module docstring), else the seeded generator's."""
    if _typed(w, who):
        return w.dice.take(w, who, D20, purpose, modifier)
    return int(w.rng.integers(1, 21))


def roll_dice(w: World, dice: Dice, who: Creature | None = None, purpose: str = "") -> int:
    """``dice`` rolled, bonus included: ``who``'s dice typed at the table (the dice alone; the bonus
    is added here), else the seeded generator's (exactly :meth:`Dice.roll`)."""
    if dice.count and _typed(w, who):
        return w.dice.take(w, who, dice.without_bonus(), purpose, dice.bonus) + dice.bonus
    return dice.roll(w.rng)


def hits(roll: int, total: int, target: int) -> bool:
    """An attack roll or a saving throw: a natural 20 succeeds, a natural 1 fails, else the total
    must reach the target number (RULES §0.2).

    >>> hits(20, 5, 30), hits(1, 40, 10), hits(12, 15, 15), hits(12, 14, 15)
    (True, False, True, False)
    """
    return roll == 20 or (roll != 1 and total >= target)


def roll_save(w: World, c: Creature, save: str, dc: int, cause: str, source: str | None) -> bool:
    """A saving throw (natural 1 fails, natural 20 succeeds), emitted as an event."""
    name = {"fort": "fortitude", "ref": "reflex", "will": "will"}[save]
    mod = c.block.save(save)
    if save == "ref":
        mod += c.dex_mod_delta()
    roll = d20(w, c, f"{name} save DC {dc} ({cause.replace('_', ' ')})", mod)
    total = roll + mod
    ok = hits(roll, total, dc)
    w.emit(Save(round=w.round, target=c.id, save=name, dc=dc, roll=roll, modifier=mod, total=total,
                  success=ok, cause=cause, source=source))
    return ok


def skill_check(w: World, c: Creature, skill: str, dc: int, modifier: int, cause: str, *,
                at: Pos | None = None) -> bool:
    """A skill check, d20 + modifier against the DC (no automatic success or failure), emitted
    as an event."""
    roll = d20(w, c, f"{skill.replace('_', ' ')} check DC {dc}", modifier)
    total = roll + modifier
    ok = total >= dc
    w.emit(Check(round=w.round, actor=c.id, skill=skill, dc=dc, roll=roll, modifier=modifier, total=total,
                 success=ok, cause=cause, at=at))
    return ok


def concentration(w: World, c: Creature, dc: int, cause: str) -> bool:
    """A Concentration check (casting defensively, hurt while casting, inside a swarm: RULES §8)."""
    return skill_check(w, c, "concentration", dc, int(c.block.skill("concentration")), cause)
