"""What a creature can do, and what the engine answers (STYLE habit 6).

The action records (:class:`Move` ... :class:`Delay`) are what a policy or a player chooses; the
engine answers :class:`Done` with the events, or :class:`Impossible` with the reason (a refusal is
a value, shown to the player and handled by the AI; ``Impossible`` is falsy). :class:`Turn` is
what the acting creature has left this turn; the handlers ask it :meth:`Turn.needs` before they
act and :meth:`Turn.spend` what they used. This module sits at the bottom of the engine: the
turn loop, the rule modules, the AI and the renderer all import it, and it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.base.coords import Pos
from sim.engine.creature import Creature
from sim.engine.events import Event


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
    """A standard-action attack (melee or ranged) with the named attack (default: in hand), on a
    creature its side perceives (``target``), or on a square it guesses (``at``: RULES §9.2, a
    foe it cannot perceive has total concealment and must be guessed at; nobody there, a miss)."""

    target: str = ""
    attack: str | None = None
    at: Pos | None = None


@dataclass(frozen=True, slots=True)
class FullAttack:
    """A full attack on ``target``, or on the guessed square ``at`` (as :class:`Strike`);
    ``rapid_shot``: one more ranged attack at the highest bonus, every attack -2 (SRD Rapid Shot)."""

    target: str = ""
    attack: str | None = None
    at: Pos | None = None
    rapid_shot: bool = False


@dataclass(frozen=True, slots=True)
class Manyshot:
    """SRD Manyshot: a standard action, two arrows (three at BAB +11, four at +16) at one foe within
    30 ft, one attack roll at -4 (-2 more per arrow after the second)."""

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
    it in hand; provokes (§3.5). ``item`` a lantern ("hooded-lantern"): light it the same way and
    hold it (``Creature.light``: it sheds light, and only a lit lantern bursts into fire when
    thrown); one such light in hand at a time, besides the torch."""

    item: str = "torch"


@dataclass(frozen=True, slots=True)
class DropLight:
    """Drop the lit light in hand (a torch, a lantern...) on the floor: a free action; it keeps
    lighting its square's surroundings (RULES §9.3.5)."""


@dataclass(frozen=True, slots=True)
class Douse:
    """Put out the light it holds (a lantern's hood shut, a torch smothered): a move action (our
    choice: RULES §9 gives none); the item stays in its pack, unlit, and can be lit again."""


@dataclass(frozen=True, slots=True)
class DropProne:
    pass


@dataclass(frozen=True, slots=True)
class StandUp:
    pass


@dataclass(frozen=True, slots=True)
class Rage:
    """The barbarian's rage: a free action on its own turn (SRD Barbarian)."""


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
    :func:`sim.engine.spells.cone_origins`), ``direction`` one of the eight (burning hands)."""

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
class RemoveArmor:
    """Take medium or heavy armor (and the shield) off before a crawlway, awkward space or tight
    squeeze (RULES §2.4, §7.33): a full-round action that begins the work; the work then takes
    the creature's whole turns until done (1 minute = 10 rounds; half-plate and full plate 1d4+1
    minutes). ``helper``: the id of an adjacent ally with no armor of its own to change, who
    helps (the time halves) and spends the same turns helping."""

    helper: str | None = None


@dataclass(frozen=True, slots=True)
class Grapple:
    """Start a grapple with ``target`` (docs/rules.md §11.2): a melee touch attack that provokes
    from the target (unless Improved Grapple), then an opposed grapple check; a standard action.
    Already grappling it: an opposed grapple check to damage it (constrict, or unarmed damage)."""

    target: str


@dataclass(frozen=True, slots=True)
class Pin:
    """Pin the creature one is grappling (opposed grapple check, a standard action, §11.5)."""

    target: str


@dataclass(frozen=True, slots=True)
class Escape:
    """Break free of a grapple (§11.6): an opposed grapple check, or an Escape Artist check against
    each grappler's grapple check (``artist=True``); a standard action."""

    artist: bool = False


@dataclass(frozen=True, slots=True)
class Swallow:
    """Swallow whole (docs/rules.md §11.13): a grapple check to swallow ``target``, a foe held
    since the start of the turn; a standard action."""

    target: str


@dataclass(frozen=True, slots=True)
class CutOut:
    """A swallowed creature cuts at the gizzard with a light slashing or piercing weapon (the named
    attack, default: the one in hand): an attack on the interior's AC; a standard action (§11.13)."""

    attack: str | None = None


@dataclass(frozen=True, slots=True)
class EngulfMove:
    """Engulf (§11.13): the cube moves in a straight line to ``to`` (up to its speed) over the
    creatures in its way; a standard action."""

    to: Pos


@dataclass(frozen=True, slots=True)
class MoveGrapple:
    """Move the grapple up to half speed toward ``to``, dragging the others (opposed grapple check
    beating them all; a standard action, §11.7)."""

    to: Pos


@dataclass(frozen=True, slots=True)
class Trip:
    """Trip ``target`` (§11.9): a melee touch attack (provokes without Improved Trip), then Str
    against its Str or Dex; a standard action."""

    target: str


@dataclass(frozen=True, slots=True)
class BullRush:
    """Push ``target`` back (§11.10): opposed Str checks; 5 ft, and 5 ft more per 5 points won by;
    provokes from the target (without Improved Bull Rush); a standard action."""

    target: str


@dataclass(frozen=True, slots=True)
class Delay:
    """End the turn now (wait; hold a chokepoint)."""


Action = (Move | FiveFootStep | Withdraw | Run | Strike | FullAttack | Manyshot | Charge | Draw | LightTorch | DropLight | Douse
          | DropProne
          | StandUp | Rage | Throw
          | Cast | Load | PrepareFuse | RemoveArmor | Delay
          | Grapple | Pin | Escape | MoveGrapple | Trip | BullRush)


@dataclass(frozen=True, slots=True)
class Done:
    """The action happened; ``events`` are the ones it produced."""

    events: tuple[Event, ...]

    def __bool__(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Impossible:
    """The rules do not allow it now, and why (an action or an attack refused; falsy)."""

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
    ai_asked: int = 0          # times the policy was asked for an action this turn (at most 8)
    ai_passed: bool = False    # the policy passed, or its action was refused: it acts no more this turn
    # the turn's walking so far, for a second move action that goes on with the first (a double
    # move is one move of up to 2 x speed, RULES §6.1): feet of that budget spent (the time its
    # steps took, 5-10-5 and x2 / x4 squares counted), the 5-10-5 diagonal parity it left, and
    # the feet walked (a blinded creature pays each twice, §9.2); all 0 until it walks
    move_ft: int = 0
    move_parity: int = 0
    walked_ft: int = 0

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

    def needs(self, c: Creature, *, standard: bool = False, move: bool = False, full: bool = False) -> str | None:
        """Why ``c`` cannot take an action of this kind now (a standard action, a move action, a
        full-round action), or None. Disabled and staggered creatures have a single action, a
        nauseated one only a move action (RULES §5.2, §5.5)."""
        if c.single_action and full:
            return f"{c.name} is {'disabled' if c.disabled else 'staggered'}: a single move or standard action"
        if full and not self.full_round:
            return "needs a full-round action (nothing else this turn)"
        if c.nauseated and (standard or full):
            return f"{c.name} is nauseated: only a move action (§5.2)"
        if standard and not self.standard:
            return "no standard action left"
        if move and not (self.move or self.standard):
            return "no move action left"
        return None

    def spend(self, action: str, c: Creature | None = None) -> None:
        """Use up an action: ``"standard"``, ``"full"`` (both actions) or ``"move"`` (the move
        action, else the standard action taken as a move action; ``c`` is needed: a creature with
        a single action, or nauseated, has nothing left after it)."""
        if action == "full":
            self.standard = self.move = False
        elif action == "standard":
            self.standard = False
        elif action == "move":
            if c is None:
                raise ValueError("spending a move action needs the creature")
            if self.move:
                self.move = False
            else:
                self.standard = False  # a standard action can be taken as a move action
            if c.single_action or c.nauseated:
                self.standard = False
                self.move = False
        else:
            raise ValueError(f"unknown action kind {action!r} (standard, move or full)")
