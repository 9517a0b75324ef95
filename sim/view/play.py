"""Playing a live fight in ``cavesim play`` (no pygame): the controller that turns keys and
clicks into the engine's actions (``Move``, ``Strike``, ``Cast``...), lets the AI play the turns
of the teams nobody controls, and keeps saved games and undo.

The engine performs each action or answers ``Impossible(reason)``, which the screen shows; the
controller decides no rule. How a click aims a spell is the engine's :data:`~sim.engine.spells.AIMS`
(a creature, a square, a grid intersection, a cone's direction, the caster), and the area shown
before the cast is :func:`~sim.engine.spells.area_of`, the squares the cast itself fills.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.engine.actions import (
    BullRush,
    Cast,
    Charge,
    CutOut,
    Delay,
    Draw,
    DropProne,
    Escape,
    FiveFootStep,
    FullAttack,
    Grapple,
    Impossible,
    LightTorch,
    Load,
    Manyshot,
    Move,
    Pin,
    PrepareFuse,
    RemoveArmor,
    Run,
    StandUp,
    Strike,
    Swallow,
    Throw,
    Trip,
    Withdraw,
)
from sim.engine.ai.armor import helper
from sim.engine.attack_actions import load_action, needs_draw, rapid_shot_reason
from sim.engine.attacks import melee_in_hand
from sim.engine.casting import SIMULATED, has_spell
from sim.engine.items import throwable_items
from sim.engine.saved import snapshot
from sim.engine.spells import AREA_SPELLS, aim_of, area_of, cone_origins
from sim.engine.strands import stuck_to
from sim.engine.strands.actions import BreakStrand, SeverStrand
from sim.engine.swallow import cutting, how_inside
from sim.story.log import thing
from sim.terrain.vision import LOCATES
from sim.view.table import ASKED, TableHand, hit_lines
from sim.view.world import World


@dataclass
class PlayState:
    controlled: set[str] = field(default_factory=set)     # teams the user plays


#: What a click does with a spell chosen, by how the engine aims it (an area spell: the first
#: click aims, showing its squares; a second click or Enter casts).
CLICK_FOR = {"area": "click to aim", "creature": "click a creature", "carried": "click a creature or a square",
             "square": "click a square"}


class PlayController:
    """Drives a live encounter for ``cavesim play``: AI turns for the other teams (played by
    themselves unless paused; every turn in auto-play), user actions for the controlled teams;
    typed dice and the DM's hand (its ``table``, a :class:`~sim.view.table.TableHand` given the
    scene and this controller as what it declares it needs)."""

    #: How many steps back Ctrl-Z can go (each a snapshot in memory).
    UNDO_DEPTH = 400

    def __init__(self, scene, enc, *, control: set[str] | None = None, save_path: str | Path | None = None,
                 dice_for: set[str] | None = None):
        self.scene = scene
        self.enc = enc
        self.state = PlayState(controlled=set(control or ()))
        self.save_path = Path(save_path) if save_path is not None else None
        self.undo_stack: list[str] = []   # snapshots before each step taken (Ctrl-Z), the last on top
        self.redo_stack: list[str] = []   # snapshots undone (Ctrl-Y)
        self._choice_for: tuple[str, int] | None = None   # the turn whose weapon choice was set
        self.table = TableHand(scene, self, dice_for)
        scene.autoplay = False
        scene.paused = False              # Space: the turns of the creatures nobody controls wait
        if enc.events:  # a saved fight: shown as it stands
            self._show(enc)
        else:
            self._start()

    def _start(self) -> None:
        """Encounter start and initiative (typed initiative dice asked for first: meanwhile the
        creatures are shown where they stand, and the screen is rebuilt once the fight starts)."""
        events = self.table.step(self.enc.start, retry=lambda: None)
        if events is ASKED:
            if not self.scene.model.creatures:
                self.scene.jump([self.enc.start_event()])
            return
        if self.scene.model.creatures:   # shown while initiative was asked for: shown again, properly
            self._show(self.enc)
        else:
            self.scene.feed(events)

    # -- saved games and undo (built on snapshots: nothing is recomputed differently) --------------------------------
    @property
    def hands(self) -> set[str]:
        """The creature ids whose players type their dice (Shift-D; :attr:`TableHand.hands`)."""
        return self.table.hands

    def snapshot_text(self) -> str:
        """The fight as it stands, as the text of a saved game (undo keeps these)."""
        return snapshot.dumps(self.enc, encounter_file=self.enc.spec.path)

    def checkpoint(self, text: str | None = None) -> None:
        """Remember the fight as it is now, before a step (undo goes back to it)."""
        self.undo_stack.append(text if text is not None else self.snapshot_text())
        del self.undo_stack[:-self.UNDO_DEPTH]
        self.redo_stack.clear()

    def _restore(self, text: str) -> None:
        self._show(snapshot.load_text(text, self.enc.spec, policy=self.enc.policy))

    def _show(self, enc) -> None:
        """Put ``enc`` on the screen as it stands (no animation): a loaded or undone fight."""
        self.enc = enc
        self.scene.show_live(World(enc, live=True))
        self._choice_for = None
        self.table.forget()
        self.scene.jump(enc.events)

    def put_back(self, enc) -> None:
        """The fight put back to ``enc`` (a step undone before any of its events was shown: a
        die to type) with nothing shown changed."""
        self.enc = enc
        self.scene.world = World(enc, live=True)

    def undo(self) -> bool:
        """Ctrl-Z: back to before the last step (an action, an AI turn, a turn ended, a load)."""
        if not self.undo_stack:
            self.scene.toast("nothing to undo: this is where the fight started", kind="error")
            return False
        self.redo_stack.append(self.snapshot_text())
        self._restore(self.undo_stack.pop())
        self.scene.autoplay = False  # else the AI would play the undone turn again at once
        self.scene.paused = True
        self.scene.toast(f"undone: round {self.enc.round} (paused: Space goes on)", 1.6)
        return True

    def redo(self) -> bool:
        """Ctrl-Y: the step undone last, again (exactly as it went)."""
        if not self.redo_stack:
            self.scene.toast("nothing to redo", kind="error")
            return False
        self.undo_stack.append(self.snapshot_text())
        self._restore(self.redo_stack.pop())
        self.scene.toast(f"redone: round {self.enc.round}", 1.2)
        return True

    def save_game(self, path: str | Path | None = None) -> bool:
        """Ctrl-S: the fight to a snapshot file (``cavesim play --load FILE`` or ``cavesim fight FILE``)."""
        path = Path(path) if path is not None else self.save_path
        try:
            snapshot.save(self.enc, path, encounter_file=self.enc.spec.path)
        except (DataError, OSError) as exc:
            self.scene.toast(f"not saved: {str(exc).splitlines()[0]}", 4.0, kind="error")
            return False
        self.scene.toast(f"saved to {path}", 2.0)
        return True

    def load_game(self, path: str | Path | None = None) -> bool:
        """Ctrl-O: the fight saved in the snapshot file (Ctrl-Z goes back to before loading)."""
        path = Path(path) if path is not None else self.save_path
        try:
            enc, _ = snapshot.read_snapshot(path, policy=self.enc.policy, spec=self.enc.spec)
        except DataError as exc:
            self.scene.toast(f"not loaded: {str(exc).splitlines()[0]}", 4.0, kind="error")
            return False
        self.checkpoint()
        self._show(enc)
        self.scene.toast(f"loaded {path}: round {enc.round}", 2.0)
        return True

    # -- the turn loop -------------------------------------------------------------------------------------------
    def current(self):
        return self.enc.current()

    def controls(self, c) -> bool:
        return c is not None and c.team in self.state.controlled

    def pump(self) -> None:
        """Called every frame: advance the fight when the screen has caught up."""
        sc = self.scene
        sc.ready_text = self.ready_text()
        if sc.prompt is not None:      # a die or a DM's question waits for an answer
            return
        if not self.enc.events:
            self._start()
            return
        if not sc.director.idle() or self.enc.finished:
            sc.awaiting_input = False
            return
        if self.enc.turn is not None and self.enc.turn.ended:
            self.close_turn()           # a turn whose end waited for a typed die
            return
        if self.enc.turn is None and not self._begin():
            return
        c = self.current()
        if self.controls(c) and not sc.autoplay:
            sc.awaiting_input = True
            turn = (c.id, self.enc.round)
            if self._choice_for != turn:  # a new turn: the weapon in hand
                self._choice_for = turn
                sc.weapon_choice = c.wielding
                sc.hit_lines = []
            return
        sc.awaiting_input = False
        sc.hit_lines = []
        if sc.autoplay or not sc.paused:   # nobody's creature plays itself, at the chosen speed
            self.ai_turn()

    def _begin(self) -> bool:
        """Start the next creature's turn; False if there is none to play now."""
        mark = len(self.enc.events)
        if self.table.step(self.enc.begin_turn, retry=lambda: None) is ASKED:
            return False
        self.scene.feed(self.enc.events[mark:])
        t = self.enc.turn
        if t is None:
            return False
        if t.ended:
            self.close_turn()
            return False
        return True

    def request_step(self) -> None:
        """Space: let the AI play the current turn (whoever it is)."""
        if not self.scene.director.idle() or self.enc.finished:
            return
        if self.enc.turn is None and not self._begin():
            return
        self.scene.awaiting_input = False
        self.ai_turn()

    def ai_turn(self) -> None:
        if self.enc.turn is None or self.enc.finished:
            return
        before = self.snapshot_text()
        mark = len(self.enc.events)

        def step():
            if not self.enc.turn.ended:
                self.enc.ai_turn()

        if self.table.step(step, retry=self.ai_turn) is ASKED:
            return
        self.checkpoint(before)
        self.scene.feed(self.enc.events[mark:])
        self.close_turn()

    def close_turn(self) -> None:
        """The acting creature's turn ends (its end-of-turn events shown)."""
        mark = len(self.enc.events)
        if self.table.step(self.enc.end_turn, retry=lambda: None) is ASKED:
            return
        self.scene.feed(self.enc.events[mark:])
        self.scene.preview = None

    # -- user actions ------------------------------------------------------------------------------------------------
    def perform(self, action) -> bool:
        """Ask the engine; show its refusal, or animate what happened."""
        if not self.scene.director.idle():
            return False
        c = self.current()
        if not self.controls(c):
            self.scene.toast("not your creature's turn: Space lets the AI play it", kind="error")
            return False
        before = self.snapshot_text()
        result = self.table.step(lambda: self.enc.perform(action), retry=lambda: self.perform(action))
        if result is ASKED:
            return False
        if isinstance(result, Impossible):
            self.scene.toast(f"{c.name} cannot: {result.reason}", kind="error")
            return False
        self.checkpoint(before)
        self.scene.feed(result.events)
        self.scene.preview = None
        self.scene.hit_lines = []   # the odds changed (or the turn): the next move of the mouse says anew
        if self.enc.turn is not None and self.enc.turn.ended:
            self.close_turn()
        return True

    def end_turn(self) -> None:
        if self.scene.director.idle() and self.controls(self.current()) and self.enc.turn is not None:
            self.checkpoint()
            self.enc.perform(Delay())
            self.close_turn()

    def click_square(self, sq: Pos, *, shift: bool = False, ctrl: bool = False, alt: bool = False,
                     point: tuple[float, float] | None = None) -> None:
        """A click on the map: with a spell chosen, cast it there (:meth:`cast_at`); else a creature
        (enemy: attack; other: select) or a square (move; ``alt`` a 5-ft step, ``shift`` withdraw,
        ``shift`` and ``ctrl`` run).
        ``point``: where in the map the click fell, in squares (for a spell's grid intersection)."""
        sc = self.scene
        c = self.current()
        if self.table.dm_move is not None:
            self.table.dm_place(sq)
            return
        if sc.spell_choice and c is not None and self.controls(c):
            if sc.spell_choice in AREA_SPELLS:
                self.aim_at(sq, point=point, defensive=ctrl)
            else:
                self.cast_at(sq, point=point, defensive=ctrl)
            return
        here = [cv for cv in sc.model.at(sq) if cv.alive]
        if here:
            target = here[0]
            if c is not None and self.controls(c) and target.team != c.team and sc.maneuver_choice:
                self.perform(maneuver_action(sc.maneuver_choice, target.id, actor=c.id))
                return
            if c is not None and self.controls(c) and target.team != c.team:
                choice = sc.weapon_choice or c.wielding
                att = c.attack_named(choice) if choice else None
                if att is not None and needs_draw(c, att):
                    # the weapon chosen with W is drawn first (a move action); click again to attack
                    if self.perform(Draw(att.name)):
                        sc.toast(f"{c.name} draws the {att.name}: click again to attack", 1.5)
                    return
                if choice in c.items and c.attack_named(choice) is None:
                    self.perform(Throw(choice, target=target.id))
                elif ctrl and shift and att is not None and c.block.has_feat("manyshot"):
                    self.perform(Manyshot(target.id, attack=choice))   # SRD Manyshot: Ctrl+Shift+click
                elif ctrl:
                    self.perform(Charge(target.id, attack=choice))
                else:
                    # a foe the side does not perceive: the square clicked is a guess (RULES §9.2)
                    unseen = (foe := self.enc.creatures.get(target.id)) is not None \
                        and self.enc.side_perceives(c.team, foe) < LOCATES
                    name, at = ("", tuple(sq)) if unseen else (target.id, None)
                    if shift:  # a full attack, with Rapid Shot when the archer has it (SRD Rapid Shot)
                        rapid = att is not None and rapid_shot_reason(c, att) is None
                        self.perform(FullAttack(name, attack=choice, at=at, rapid_shot=rapid))
                    else:
                        self.perform(Strike(name, attack=choice, at=at))
                return
            sc.selected = target.id
            return
        if c is None or not self.controls(c):
            sc.selected = None
            return
        if alt:
            self.perform(FiveFootStep(sq))
            return
        if shift and ctrl:
            self.perform(Run(sq))
            return
        if shift:
            self.perform(Withdraw(sq))
            return
        pv = sc.world.path_preview(c.id, sq)
        if not pv.steps:
            sc.toast(f"{c.name} cannot go there: {pv.reason or 'no way'}", kind="error")
            return
        t = self.enc.turn  # a double move at the turn's start; later, a move action goes on with the first
        double = pv.single < len(pv.steps) and t is not None and t.full_move
        self.perform(Move(sq, double=double))

    def cycle_weapon(self) -> None:
        c = self.current()
        if c is None:
            return
        options = [a.name for a in c.block.attacks] + [i for i in throwable_items(c, unprepared=True)
                                                       if c.attack_named(i) is None]
        if not options:
            return
        cur = self.scene.weapon_choice or c.wielding
        i = options.index(cur) if cur in options else -1
        self.scene.weapon_choice = options[(i + 1) % len(options)]
        self.scene.hit_lines = []


    def cycle_maneuver(self) -> None:
        """G: a click on an enemy grapples it (or squeezes the one held), trips it, bull rushes it
        or pins it (docs/rules.md §11); then back to weapons."""
        c = self.current()
        if c is None or not self.controls(c):
            return
        cur = self.scene.maneuver_choice
        options = MANEUVERS + (("swallow",) if any(r.kind == "swallow_whole" for r in c.block.riders) else ())
        i = options.index(cur) if cur in options else -1
        self.scene.maneuver_choice = options[i + 1] if i + 1 < len(options) else None
        self.scene.toast(f"{(self.scene.maneuver_choice or 'weapon').replace('_', ' ')}: click an enemy"
                         if self.scene.maneuver_choice else f"weapon: {self.scene.weapon_choice or c.wielding}", 1.4)

    def break_free(self, *, artist: bool = False) -> bool:
        """B: try to escape a grapple (Shift+B: by Escape Artist), a standard action (§11.6);
        swallowed with a light slashing or piercing weapon in hand, B cuts at the gizzard instead
        (Shift+B still escapes, §11.13); stuck to a roper's strand (and in no grapple), break free
        of it (by the better of Escape Artist and Strength; Shift+B: by Escape Artist), §11.15."""
        c = self.current()
        if (not artist and c is not None and c.id in self.enc.swallowed.inside and how_inside(self.enc, c) == "swallowed"
                and cutting(c, melee_in_hand(c))):
            return self.perform(CutOut())
        if c is not None and not c.grappling and stuck_to(self.enc, c) is not None:
            return self.perform(BreakStrand("escape_artist" if artist else None))
        return self.perform(Escape(artist=artist))

    # -- spells and the other actions of a turn ------------------------------------------------------------------
    def spell_options(self, c=None) -> list[str]:
        """The simulated spells the acting creature has a slot for (RULES §8)."""
        c = c or self.current()
        if c is None:
            return []
        return [s for s in SIMULATED if has_spell(c, s) is not None]

    def cycle_spell(self) -> None:
        """X: the next spell to cast, then back to weapons."""
        c = self.current()
        if c is None or not self.controls(c):
            return
        options = self.spell_options(c)
        if not options:
            self.scene.spell_choice = None
            self.scene.toast(f"{c.name} has no spell left to cast", 1.5, kind="error")
            return
        cur = self.scene.spell_choice
        i = options.index(cur) if cur in options else -1
        self.scene.spell_choice = options[i + 1] if i + 1 < len(options) else None
        self.scene.area_preview = []
        self.scene.aim = None

    def spell_action(self, sq: Pos, *, point: tuple[float, float] | None = None, defensive: bool = False):
        """The :class:`~sim.engine.actions.Cast` that a click on ``sq`` means for the chosen spell,
        or a reason why it means none, by how the engine aims it (:func:`~sim.engine.spells.aim_of`):
        a creature (``creature``; ``carried``: a creature's gear, else the square), the square
        clicked (``square``), the grid intersection nearest the click (``point``), the direction from
        the caster for a cone (from the corner of its space nearest the click), or nothing (``self``)."""
        spell = self.scene.spell_choice
        aim = aim_of(spell)
        if aim in ("creature", "carried"):
            here = [cv for cv in self.scene.model.at(sq) if cv.alive]
            if here:
                return Cast(spell, target=here[0].id, defensive=defensive)
            if aim == "creature":
                return "click a creature to target"
        if aim in ("carried", "square"):   # grease: the clicked square is its north-west square
            return Cast(spell, at=sq, defensive=defensive)
        px, py = point if point is not None else (sq[0] + 0.5, sq[1] + 0.5)
        if aim == "point":
            return Cast(spell, at=(int(round(px)), int(round(py))), defensive=defensive)
        if aim == "cone":
            return cone_cast(self.current(), spell, sq, (px, py), defensive=defensive)
        return Cast(spell, defensive=defensive)

    def cast_at(self, sq: Pos, *, point: tuple[float, float] | None = None, defensive: bool = False) -> bool:
        """Cast the chosen spell at what was clicked (Ctrl: defensively); the engine decides."""
        a = self.spell_action(sq, point=point, defensive=defensive)
        if isinstance(a, str):
            self.scene.toast(a, kind="error")
            return False
        done = self.perform(a)
        if done:
            self.scene.spell_choice = None
            self.scene.area_preview = []
        return done

    def aim_at(self, sq: Pos, *, point: tuple[float, float] | None = None, defensive: bool = False) -> bool:
        """A click with an area spell chosen: the first aims it (its area stays drawn), a second
        click on the same aim (or Enter, :meth:`confirm_aim`) casts it; Esc cancels."""
        sc = self.scene
        a = self.spell_action(sq, point=point, defensive=defensive)
        if isinstance(a, str):
            sc.toast(a, kind="error")
            return False
        if sc.aim is not None and sc.aim[0] == a:
            return self.confirm_aim()
        sc.aim = (a, sq, point)
        sc.area_preview = self.spell_area(sq, point=point)
        return False

    def confirm_aim(self) -> bool:
        """Enter (or the second click): cast the area spell as aimed."""
        sc = self.scene
        if sc.aim is None:
            return False
        a, sq, point = sc.aim
        sc.aim = None
        done = self.perform(a)
        if done:
            sc.spell_choice = None
        sc.area_preview = []
        return done

    def ready_text(self) -> str:
        """What a click does now (the line over the map): the weapon or spell chosen, the aim, the DM's move."""
        sc = self.scene
        c = self.current()
        moving = self.table.dm_move
        if moving is not None:
            who = self.enc.creatures.get(moving)
            return f"DM: click the square to put {who.name if who else moving} on  ·  Esc cancels"
        if c is None or not self.controls(c) or not sc.awaiting_input:
            return "paused: Space goes on" if sc.paused and not self.enc.finished else ""
        if sc.spell_choice:
            name = sc.spell_choice.replace("-", " ")
            if sc.aim is not None:
                return f"{c.name}: {name} aimed  ·  click it again or Enter to cast  ·  Esc cancels"
            return f"{c.name}: casting {name} (X: next)  ·  " + CLICK_FOR.get(
                "area" if sc.spell_choice in AREA_SPELLS else aim_of(sc.spell_choice), "click to cast")
        weapon = sc.weapon_choice or c.wielding
        return f"{c.name}: {thing(weapon) if weapon else 'no weapon'} (W: next)  ·  click an enemy to attack"

    def hover_enemy(self, sq: Pos) -> None:
        """The chance to hit the enemy under the cursor with the chosen weapon (or nothing there)."""
        sc = self.scene
        c = self.current()
        sc.hit_lines = []
        if c is None or not self.controls(c) or not sc.awaiting_input or sc.spell_choice:
            return
        here = [cv for cv in sc.model.at(sq) if cv.alive and cv.team != c.team]
        target = self.enc.creatures.get(here[0].id) if here else None
        if target is not None:
            sc.hit_lines = hit_lines(self.enc, c, sc.weapon_choice or c.wielding, target, here[0].label)

    def back_to_start(self) -> bool:
        """Home (after the end card): the fight as it began (Ctrl-Y steps forward again)."""
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.snapshot_text())
        self.redo_stack.extend(reversed(self.undo_stack[1:]))
        first = self.undo_stack[0]
        self.undo_stack.clear()
        self._restore(first)
        self.scene.autoplay = False
        self.scene.paused = True
        self.scene.toast("back to the start of the fight (Ctrl-Y: forward again)", 2.0)
        return True

    def spell_area(self, sq: Pos, *, point: tuple[float, float] | None = None) -> list[Pos]:
        """The squares the chosen spell would fill if cast at ``sq`` (empty for targeted spells)."""
        a = self.spell_action(sq, point=point)
        c = self.current()
        if isinstance(a, str) or c is None:
            return []
        return area_of(self.enc, c, a)

    def toggle_prone(self) -> bool:
        """D: drop prone, or stand up (a move action that provokes)."""
        c = self.current()
        if c is None:
            return False
        return self.perform(StandUp() if c.prone else DropProne())

    def load(self) -> bool:
        """O: load the crossbow or sling chosen with W, or the first one that needs it (RULES §3.3);
        with an oil flask chosen, prepare its fuse (§3.5)."""
        c = self.current()
        if c is None:
            return False
        choice = self.scene.weapon_choice
        if choice and choice in c.items and c.attack_named(choice) is None:
            return self.perform(PrepareFuse(choice))
        att = c.attack_named(choice) if choice else None
        return self.perform(Load(att.name if att is not None and load_action(att) else None))

    def remove_armor(self) -> bool:
        """A: take medium or heavy armor off before a crawlway (RULES §2.4, §7.33), with the help
        of an adjacent ally free to give it (the time halves), as the AI would choose one."""
        c = self.current()
        if c is None:
            return False
        ally = helper(self.enc, c)
        return self.perform(RemoveArmor(ally.id if ally is not None else None))

    def light_torch(self) -> bool:
        """I: light a torch and take it in hand (§3.5)."""
        return self.perform(LightTorch())


#: What G cycles through in play (docs/rules.md §11; a swallower also "swallow", §11.13), and the
#: action a click on an enemy means. "cut_strand": a click on the roper cuts the strand holding the
#: one acting (docs/rules.md §11.15).
MANEUVERS = ("grapple", "trip", "bull_rush", "pin", "cut_strand")


def maneuver_action(name: str, target: str, *, actor: str = ""):
    if name == "cut_strand":
        return SeverStrand(actor)
    return {"grapple": Grapple, "trip": Trip, "bull_rush": BullRush, "pin": Pin, "swallow": Swallow}[name](target)


def cone_cast(c, spell: str, sq: Pos, point: tuple[float, float], *, defensive: bool = False) -> Cast | str:
    """A cone cast towards a click at ``point`` (in squares; ``sq`` the square under it): the
    nearest of the eight directions from the centre of the caster's space, from the corner of
    that space nearest the click (SRD: any corner; :func:`~sim.engine.spells.cone_origins`)."""
    xs = [x for x, _ in c.squares]
    ys = [y for _, y in c.squares]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    dx, dy = sq[0] - cx, sq[1] - cy
    if abs(dx) < 1 and abs(dy) < 1:
        return "click a square beside the caster to aim the cone"
    sx = (dx > 0) - (dx < 0) if abs(dx) >= abs(dy) / 2.414 else 0
    sy = (dy > 0) - (dy < 0) if abs(dy) >= abs(dx) / 2.414 else 0
    px, py = point
    origin = min(cone_origins(c, (sx, sy)), key=lambda o: (o[0] - px) ** 2 + (o[1] - py) ** 2)
    return Cast(spell, direction=(sx, sy), at=origin, defensive=defensive)
