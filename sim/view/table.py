"""At the table in ``cavesim play`` (issue 20 items 3-4): the dice the players type, and the DM's
hand -- the window's side of :mod:`sim.engine.checks` (typed dice) and :mod:`sim.engine.dm`.

A :class:`Prompt` is a small modal box over the map that takes what is typed (digits, or a
condition's name), Enter to give it, Backspace, Esc to cancel; a bad answer is refused in the box
with the reason (the valid range of a die). :class:`TableHand` is a component of the play
controller (its ``table``) that asks for typed dice (when the engine raises NeedRoll, the fight
goes back to before the step and the step is played again with the value) and carries out the
DM's edits, each undoable. What it uses of the scene and of the controller is declared by the
protocols :class:`TableScreen` and :class:`TableFight` (issue 33 item 6: no shared ``self``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Protocol

from sim.base.coords import Pos
from sim.engine import attacks, dm
from sim.engine.actions import Impossible
from sim.engine.ai.estimates import expected_damage, hit_chance
from sim.engine.checks import DiceHand, NeedRoll
from sim.engine.saved import snapshot
from sim.story.log import ac_words, mod_words, thing

if TYPE_CHECKING:   # type names only: none of these is imported when the program runs
    from sim.engine import events as ev
    from sim.engine.encounter import Encounter
    from sim.view.timeline import Director

DIGITS = "0123456789"


@dataclass
class Prompt:
    """What the window asks: ``title`` (e.g. "Bruna: attack vs kobold-2, d20 + 7"), a ``hint``, the
    characters it takes, and ``submit(text)`` -> None when done, else the refusal to show."""

    title: str
    hint: str
    submit: Callable[[str], "str | None"]
    allowed: str = DIGITS
    kind: str = "dice"                 # dice | hp | condition | dm
    instant: bool = False              # a menu: each key is an answer (no Enter)
    text: str = ""
    error: str = ""
    options: tuple = field(default_factory=tuple)

    def key(self, char: str, *, enter: bool = False, backspace: bool = False) -> bool:
        """One key; True when the prompt is done (answered)."""
        if backspace:
            self.text = self.text[:-1]
            self.error = ""
            return False
        if enter:
            return self._give()
        if char and char.lower() in self.allowed and len(self.text) < 24:
            self.text += char.lower()
            self.error = ""
            if self.instant:
                return self._give()
        return False

    def _give(self) -> bool:
        refusal = self.submit(self.text)
        if refusal:
            self.error = refusal
            if self.instant:
                self.text = ""
            return False
        return True


@dataclass
class PendingRoll:
    """A die asked for: the request, and the step to play again once it is typed."""

    request: object
    retry: Callable[[], object]


class TableScreen(Protocol):
    """What the table uses of the play window's scene (:class:`~sim.render.scene.Scene`): the
    question over the map, the pause, the director (is the screen idle?), the selection, the
    toasts and the feed of events to animate."""

    prompt: Prompt | None
    paused: bool
    director: Director

    def selected_id(self) -> str | None: ...

    def toast(self, text: str, seconds: float = 2.5, kind: str = "info") -> None: ...

    def feed(self, events: Iterable[ev.Event]) -> None: ...


class TableFight(Protocol):
    """What the table uses of the controller that owns it (:class:`~sim.view.play.PlayController`):
    the fight being played, its snapshot, the undo checkpoint, putting a fight back on screen
    unchanged, and closing the acting creature's turn."""

    enc: Encounter

    def snapshot_text(self) -> str: ...

    def checkpoint(self, text: str | None = None) -> None: ...

    def put_back(self, enc: Encounter) -> None: ...

    def close_turn(self) -> None: ...


class TableHand:
    """The play controller's table: typed dice and the DM's hand. ``scene`` shows the questions
    and what the edits did; ``fight`` is the controller (the fight, undo, the turn's end);
    ``dice_for``: the creature ids whose players type their dice."""

    def __init__(self, scene: TableScreen, fight: TableFight, dice_for: "set[str] | None" = None):
        self.scene = scene
        self.fight = fight
        self.hands: set[str] = set(dice_for or ())   # creature ids whose players type their dice
        self.typed: list[int] = []                    # values typed for the step being played
        self.pending_roll: PendingRoll | None = None
        self.dm_move: str | None = None               # a token to put down with the next click

    @property
    def enc(self) -> Encounter:
        """The fight being played (the controller's: undo and load replace it)."""
        return self.fight.enc

    def forget(self) -> None:
        """Another fight on screen (loaded, undone): no die asked for, nothing typed, no token
        to put down; the engine gets the dice hand for the next step."""
        self.pending_roll = None
        self.typed = []
        self.dm_move = None
        self.arm()

    # -- typed dice --------------------------------------------------------------------------------------------------
    def arm(self) -> None:
        """Give the engine the dice hand for the next step (the values typed so far for it)."""
        self.enc.dice = DiceHand(hands=set(self.hands), typed=list(self.typed)) if self.hands else None

    def step(self, fn: Callable[[], object], retry: Callable[[], object]):
        """Run one step of the engine. When it needs a typed die: the fight goes back to how it
        was before the step (its snapshot), the window asks, and ``retry`` plays the step again
        once the value is typed. Returns what ``fn`` returned, or :data:`ASKED`."""
        before = self.fight.snapshot_text() if self.hands else None
        self.arm()
        try:
            out = fn()
        except NeedRoll as need:
            enc = snapshot.load_text(before, self.enc.spec, policy=self.enc.policy)
            self.fight.put_back(enc)   # nothing shown changed: no event of the step was shown
            self.arm()
            self.ask_roll(need.request, retry)
            return ASKED
        self.typed = []
        return out

    def ask_roll(self, request, retry) -> None:
        self.pending_roll = PendingRoll(request, retry)

        def give(text: str) -> str | None:
            v = request.check(text)
            if isinstance(v, str):
                return v
            self.scene.prompt = None
            self.pending_roll = None
            self.typed.append(v)
            retry()
            return None

        self.scene.prompt = Prompt(title=request.prompt, hint=f"type the {request.die} rolled ({request.low} to "
                                   f"{request.high}), Enter  ·  Backspace  ·  Esc: not now", submit=give)

    def cancel_prompt(self) -> bool:
        """Esc: the question is dropped (a die asked for: the step is not taken, and the turns
        nobody controls pause, so that theirs is not asked again at once; Space goes on)."""
        if self.scene.prompt is None and self.dm_move is None:
            return False
        if self.pending_roll is not None:
            self.scene.paused = True    # else a turn nobody controls would ask again at once
        self.scene.prompt = None
        self.pending_roll = None
        self.typed = []
        self.dm_move = None
        self.scene.toast("cancelled", 1.0)
        return True

    def toggle_dice(self, *, side: bool = False) -> None:
        """Shift-D: the selected creature's dice typed at the table, or rolled by the seed again
        (Ctrl-Shift-D: its whole side)."""
        cid = self.scene.selected_id()
        c = self.enc.creatures.get(cid) if cid else None
        if c is None:
            self.scene.toast("select a creature first (click it, or Tab)", kind="error")
            return
        ids = {o.id for o in self.enc.creatures.values() if o.team == c.team} if side else {c.id}
        if ids <= self.hands:
            self.hands -= ids
            word = "rolled by the seed"
        else:
            self.hands |= ids
            word = "typed at the table"
        who = f"the {c.team} side's" if side else f"{c.name}'s"
        self.scene.toast(f"{who} dice: {word}", 2.0)

    # -- the DM's hand ---------------------------------------------------------------------------------------------------
    def _dm(self, fn: Callable[[], object], *, quiet: bool = False) -> "str | None":
        """One DM edit: undoable, its events shown; returns its refusal (toasted unless ``quiet``)."""
        before = self.fight.snapshot_text()
        result = fn()
        if isinstance(result, Impossible):
            if not quiet:
                self.scene.toast(f"DM: {result.reason}", 3.0, kind="error")
            return result.reason
        self.fight.checkpoint(before)
        self.scene.feed(result.events)
        return None

    def dm_menu(self) -> None:
        """G: the DM's hand for the selected creature (or the one acting)."""
        cid = self.scene.selected_id()
        c = self.enc.creatures.get(cid) if cid else None
        if c is None:
            self.scene.toast("select a creature first (click it, or Tab)", kind="error")
            return

        def choose(text: str) -> str | None:
            if text == "1":
                self._ask_hp(c.id)
            elif text == "2":
                self._ask_condition(c.id)
            elif text == "3":
                self.scene.prompt = None
                self.dm_move = c.id
                self.scene.toast(f"DM: click the square to put {c.name} on (Esc: cancel)", 4.0)
            elif text == "4":
                self.scene.prompt = None
                self.dm_pass()
            else:
                return "1, 2, 3 or 4 (Esc: close)"
            return None

        self.scene.prompt = Prompt(title=f"DM's hand: {c.name}", kind="dm", instant=True, allowed="1234",
                                   hint="1 hit points  ·  2 add/clear a condition  ·  3 move the token  ·  "
                                        "4 pass the acting creature's turn  ·  Esc", submit=choose)

    def _ask_hp(self, cid: str) -> None:
        c = self.enc.creatures[cid]

        def give(text: str) -> str | None:
            try:
                hp = int(text)
            except ValueError:
                return "type a whole number (a minus sign first for below 0)"
            refusal = self._dm(lambda: dm.set_hp(self.enc, cid, hp), quiet=True)
            if refusal:
                return refusal
            self.scene.prompt = None
            return None

        self.scene.prompt = Prompt(title=f"DM: {c.name}'s hit points (now {c.hp} of {c.max_hp})", kind="hp",
                                   allowed=DIGITS + "-", hint="type the new total, Enter  ·  Esc", submit=give)

    def _ask_condition(self, cid: str) -> None:
        c = self.enc.creatures[cid]
        names = sorted(dm.DM_CONDITIONS)

        def give(text: str) -> str | None:
            hits = [n for n in names if n.startswith(text.strip().replace(" ", "_"))] if text.strip() else []
            if len(hits) != 1:
                return f"one of {', '.join(names)}" if not hits else f"{text}: {' or '.join(hits)}?"
            name = hits[0]
            has = c.prone if name == "prone" else (c.flat_footed if name == "flat_footed" else name in c.conditions)
            refusal = self._dm(lambda: dm.set_condition(self.enc, cid, name, not has), quiet=True)
            if refusal:
                return refusal
            self.scene.prompt = None
            return None

        self.scene.prompt = Prompt(title=f"DM: a condition to add or clear on {c.name}", kind="condition",
                                   allowed="abcdefghijklmnopqrstuvwxyz_ ", options=tuple(names),
                                   hint=", ".join(names) + "  ·  Enter  ·  Esc", submit=give)

    def dm_place(self, sq: Pos) -> bool:
        """The click after G 3: the token put down there (a legal square), no action spent."""
        cid, self.dm_move = self.dm_move, None
        return self._dm(lambda: dm.move_token(self.enc, cid, sq)) is None

    def dm_pass(self) -> bool:
        """G 4: the acting creature's turn passed (a dm event), and the next one begins."""
        if not self.scene.director.idle() or self.enc.turn is None:
            self.scene.toast("DM: no turn to pass now", kind="error")
            return False
        if self._dm(lambda: dm.pass_turn(self.enc)) is not None:
            return False
        self.fight.close_turn()
        return True


def hit_lines(enc, c, weapon: str | None, target, name: str = "") -> list[str]:
    """What hovering ``target`` shows: the chance that ``c`` hits it with ``weapon`` from where it
    stands (d20 + the modifiers against its AC, a natural 1 missing and a 20 hitting: RULES §0.2),
    the expected damage, the modifiers of both, the miss chance of concealment; or why it cannot.
    ``name``: the target as the screen labels it (default: its name)."""
    att = c.attack_named(weapon) if weapon else None
    att = att or c.wielded() or (c.block.attacks[0] if c.block.attacks else None)
    if att is None:
        return []
    name = name or target.name
    kind = "ranged" if att.mode == "ranged" else "melee"
    plan = attacks.plan_attack(enc, c, att, target, kind=kind)
    if not plan:
        return [f"{thing(att.name)} vs {name}: {plan.reason}"]
    chance = hit_chance(plan.bonus, plan.ac)
    miss = enc.miss_chance(c, target)
    lines = [f"{thing(att.name)} vs {name}: {chance:.0%} to hit  ·  about {expected_damage(enc, c, att, target):.1f} "
             f"damage ({att.damage})",
             f"d20 {mod_words(plan.modifiers)} = d20 + {plan.bonus} vs AC {plan.ac}"]
    acw = ac_words(plan.ac_modifiers)
    if acw:
        lines.append(f"AC {plan.ac}: {acw}")
    if miss:
        lines.append(f"then {miss}% miss chance ({'darkness' if miss >= 50 else 'shadows'})")
    return lines


#: What :meth:`TableHand.step` returns when the step waits for a typed die.
ASKED = object()
