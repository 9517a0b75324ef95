"""Building what the renderer shows: a fight to watch (simulated, then animated), a recorded
fight to replay, or a live fight to play -- and the play controller that turns clicks into
engine actions.

Watching and replaying animate a complete list of events; stepping backwards rebuilds the view
from the events up to a turn boundary. Playing drives the live :class:`~sim.engine.encounter.Encounter`
one action at a time: the controller builds the action (``Move``, ``Strike``...), the engine
performs it or answers ``Impossible(reason)``, which the screen shows.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.engine import events as ev
from sim.view import timeline as tl
from sim.view.model import ViewModel
from sim.view.table import ASKED, TableHand
from sim.view.world import World


def simulate(spec, *, seed: int | None = None):
    """Play the whole fight with the AI; returns (encounter, events)."""
    from sim.engine.fight import new_encounter

    enc = new_encounter(spec, seed=seed)
    events = enc.run()
    return enc, list(events)


def crawl_start_event(result):
    """Everyone of the crawl as an ``encounter_start`` event: the party at the start, the
    monsters where the crawl file puts them (what the view model and the shadow world are built
    from). Returns (the event, the encounter it came from)."""
    from sim.engine.encounter import Encounter

    enc = Encounter(crawl_encounter_spec(result))
    return enc.start()[0], enc


def crawl_encounter_spec(result):
    """The crawl's party (at the start) and monsters as one encounter spec."""
    from sim.scenario.specs import EncounterSpec

    spec = result.spec
    party = tuple(dataclasses.replace(m, at=spec.start, team="party") for m in spec.party)
    return EncounterSpec(name=spec.name, path=spec.path, grid=spec.grid, seed=spec.seed,
                         combatants=party + tuple(spec.monsters), settings=dict(spec.settings))


def starting_lights(spec) -> dict[str, str]:
    """The light (not a torch: the view model follows torches) each combatant holds lit from the
    start, as the engine builds it: ``light = ...``, else for ``lit`` a lantern it carries."""
    from sim.base.errors import DataError
    from sim.engine.setup import build_creature

    out = {}
    for cs in spec.combatants:
        try:
            out[cs.id] = build_creature(cs, spec.path).light
        except DataError:
            out[cs.id] = cs.light
    return out


def fight_title(spec) -> tuple[str, str]:
    return spec.name or spec.grid.name, spec.description or spec.grid.description


def watch_scene(spec, *, seed: int | None = None, size=(1280, 720), speed: float = 1.0, pace: float = 1.0,
                mode: str = "watch", hud: bool = True, legend: bool = True, events: list | None = None,
                view: str = "all"):
    """A scene that animates the whole AI fight of ``spec`` (demo, render, window watch), turn by
    turn in auto-play. ``events``: the fight already simulated. Returns (scene, timeline)."""
    if events is None:
        _, events = simulate(spec, seed=seed)
    title, subtitle = fight_title(spec)
    return scene_from_events(events, spec.grid, base_path=spec.path, title=title, subtitle=subtitle, size=size,
                             speed=speed, pace=pace, mode=mode, hud=hud, legend=legend, autoplay=True, view=view,
                             carried=starting_lights(spec))


def replay_scene(events: list[ev.Event], grid, *, base_path: str = ".", title: str = "", subtitle: str = "",
                 size=(1280, 720), speed: float = 1.0, autoplay: bool = False, hud: bool = True):
    """A scene replaying a recorded fight, stepped by the user (or in auto-play)."""
    return scene_from_events(events, grid, base_path=base_path, title=title, subtitle=subtitle, size=size,
                             speed=speed, mode="replay", hud=hud, autoplay=autoplay)


def scene_from_events(events: list[ev.Event], grid, *, base_path: str = ".", title: str = "", subtitle: str = "",
                      size=(1280, 720), speed: float = 1.0, pace: float = 1.0, mode: str = "watch", hud: bool = True,
                      legend: bool = True, autoplay: bool = True, view: str = "all",
                      carried: dict[str, str] | None = None):
    from sim.render.lighting import Lighting
    from sim.render.scene import Scene

    if not events or not isinstance(events[0], ev.EncounterStart):
        raise DataError("the fight log must start with an encounter_start event (write it with cavesim fight --events)")
    start = events[0]
    if (start.cols, start.rows) != (grid.cols, grid.rows):
        raise DataError(f"the fight log is for a {start.cols}x{start.rows} map ({start.map!r}), but the map given is "
                        f"{grid.cols}x{grid.rows}; give the map or encounter the fight was played on")
    title = title or start.map
    world = World.shadow(start, grid, base_path=base_path, name=title)
    model = ViewModel()
    director = tl.Director(model, speed=speed, pace=pace, title=title, subtitle=subtitle)
    scene = Scene(world=world, model=model, director=director, size=size, title=title, subtitle=subtitle,
                  mode=mode, seed=start.seed, hud=hud, legend=legend)
    scene.autoplay = autoplay
    scene.lighting = Lighting(grid, view=view, carried=carried)
    scene.lighting.follow_actor = mode == "replay"   # a replay shows the acting side's view (V: choose one)
    timeline = Timeline(scene, events)
    if not autoplay:
        timeline.step_forward()
    return scene, timeline


def map_scene(grid, *, size=(1280, 720), hud: bool = True, legend: bool = True, base_path: str = "."):
    """A view of a bare map, with no one on it (``cavesim play``, ``render`` and ``demo`` given a
    map without an encounter): the cave, its overlays (1-9, L legend), pan and zoom. Returns
    (scene, timeline); the timeline has nothing to play."""
    start = ev.EncounterStart(map=grid.name or Path(grid.source).stem, seed=0, cols=grid.cols, rows=grid.rows,
                              combatants=(), round=0)
    scene, timeline = scene_from_events([start], grid, base_path=base_path, title=grid.name, subtitle=grid.description,
                                        size=size, mode="replay", hud=hud, legend=legend, autoplay=False)
    scene.model.finished = True   # nothing to play: exports end after the title card
    scene.fit_whole_map = True     # the map is what is looked at: all of it, from column 0 (not only its floor)
    scene.fit()
    return scene, timeline


def play_scene(spec, *, seed: int | None = None, size=(1280, 720), control: set[str] | None = None,
               speed: float = 1.0, load: str | Path | None = None, save_path: str | Path | None = None,
               dice_for: set[str] | None = None):
    """A scene on a live encounter, and the controller that plays it. Returns (scene, controller).
    ``load``: a snapshot of a fight of ``spec`` to go on with; ``save_path``: where Ctrl-S saves
    and Ctrl-O loads (default: ``load``, else ENCOUNTER-save.json in the current folder);
    ``dice_for``: the creatures (ids) whose dice are typed at the table (``--dice manual``)."""
    from sim.engine import snapshot
    from sim.engine.fight import new_encounter
    from sim.render.lighting import Lighting
    from sim.render.scene import Scene

    if load is not None:
        from sim.engine.ai.decide import default_policy

        enc, _ = snapshot.read_snapshot(Path(load), policy=default_policy, spec=spec)
    else:
        enc = new_encounter(spec, seed=seed)
    title, subtitle = fight_title(spec)
    world = World(enc, live=True)
    model = ViewModel()
    director = tl.Director(model, speed=speed, title=title, subtitle=subtitle)
    scene = Scene(world=world, model=model, director=director, size=size, title=title, subtitle=subtitle,
                  mode="play", seed=enc.seed)
    scene.lighting = Lighting(spec.grid, carried=starting_lights(spec))
    scene.lighting.follow_actor = True   # play shows the acting side's view (V: choose one)
    if save_path is None:
        save_path = load if load is not None else f"{Path(spec.path).stem}-save.json"
    ctl = PlayController(scene, enc, control=control, save_path=save_path, dice_for=dice_for)
    return scene, ctl


class Timeline:
    """Steps through a known list of events: play them all, or turn by turn, forward and back."""

    def __init__(self, scene, events: list[ev.Event]):
        self.scene = scene
        self.events = list(events)
        self.fed = 0                          # events handed to the director so far
        self.bounds = [i for i, e in enumerate(self.events) if isinstance(e, ev.TurnStart)] + [len(self.events)]

    def pump(self) -> None:
        """Called every frame: in auto-play, keep the director fed."""
        if self.scene.autoplay and self.fed < len(self.events) and self.scene.director.idle():
            self.step_forward()

    def step_forward(self) -> bool:
        """Animate the events up to the next turn's start (the current turn, in full)."""
        if self.fed >= len(self.events):
            return False
        d = self.scene.director
        if d.queue:  # still animating: finish it at once first
            self.scene.jump(list(d.queue))
            d.queue.clear()
        nxt = next((b for b in self.bounds if b > self.fed), len(self.events))
        self.scene.feed(self.events[self.fed:nxt])
        self.fed = nxt
        return True

    @property
    def shown(self) -> int:
        """Events applied to the view so far."""
        return self.fed - len(self.scene.director.queue)

    @property
    def done(self) -> bool:
        return self.fed >= len(self.events) and self.scene.director.idle()

    def step_back(self) -> bool:
        """Rebuild the view just before the turn before the one shown (no animation); the next
        step forward animates that turn."""
        shown = self.shown
        starts = [b for b in self.bounds if b < shown]
        cur = starts[-1] if starts else 0
        before = [b for b in self.bounds if b < cur]
        target = before[-1] if before else min(self.bounds[0], shown)
        if target >= shown and shown > 0 and not before and cur == target:
            return False
        self.restart(upto=target)
        return True

    def restart(self, *, upto: int = 0) -> None:
        from sim.render.particles import ParticleSystem

        sc = self.scene
        sc.model.__init__()
        d = sc.director
        d.queue.clear()
        d.anims.clear()
        d.created.clear()
        sc.particles = ParticleSystem(seed=sc.seed, rock=sc.grid.rock, band=sc.passage_band)
        sc._dispersed.clear()
        sc.hp_shown.clear()
        sc.jump(self.events[:upto])
        self.fed = upto


@dataclass
class PlayState:
    controlled: set[str] = field(default_factory=set)     # teams the user plays


#: Spells with an area: a click aims, a second click (or Enter) casts.
AREA_SPELLS = ("sleep", "burning-hands", "bless")


class PlayController(TableHand):
    """Drives a live encounter for ``cavesim play``: AI turns for the other teams (played by
    themselves unless paused; every turn in auto-play), user actions for the controlled teams;
    typed dice and the DM's hand (:class:`~sim.view.table.TableHand`)."""

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
        self._init_table(dice_for)
        scene.autoplay = False
        scene.paused = False              # Space: the turns of the creatures nobody controls wait
        if enc.events:  # a saved fight: shown as it stands
            self._show(enc)
        else:
            self._start()

    def _start(self) -> None:
        """Encounter start and initiative (typed initiative dice asked for first: meanwhile the
        creatures are shown where they stand, and the screen is rebuilt once the fight starts)."""
        events = self._engine(self.enc.start, retry=lambda: None)
        if events is ASKED:
            if not self.scene.model.creatures:
                self.scene.jump([self.enc.start_event()])
            return
        if self.scene.model.creatures:   # shown while initiative was asked for: shown again, properly
            self._show(self.enc)
        else:
            self.scene.feed(events)

    # -- saved games and undo (built on snapshots: nothing is recomputed differently) --------------------------------
    def _snapshot(self) -> str:
        from sim.engine import snapshot

        return snapshot.dumps(self.enc, encounter_file=self.enc.spec.path)

    def _checkpoint(self, text: str | None = None) -> None:
        """Remember the fight as it is now, before a step (undo goes back to it)."""
        self.undo_stack.append(text if text is not None else self._snapshot())
        del self.undo_stack[:-self.UNDO_DEPTH]
        self.redo_stack.clear()

    def _restore(self, text: str) -> None:
        from sim.engine import snapshot

        self._show(snapshot.load_text(text, self.enc.spec, policy=self.enc.policy))

    def _show(self, enc) -> None:
        """Put ``enc`` on the screen as it stands (no animation): a loaded or undone fight."""
        from sim.render.particles import ParticleSystem

        self.enc = enc
        sc = self.scene
        sc.world = World(enc, live=True)
        sc.model.__init__()
        d = sc.director
        d.queue.clear()
        d.anims.clear()
        d.created.clear()
        sc.particles = ParticleSystem(seed=sc.seed, rock=sc.grid.rock, band=sc.passage_band)
        sc._dispersed.clear()
        sc.hp_shown.clear()
        sc._comp = None
        sc.preview = None
        sc.area_preview = []
        sc.spell_choice = None
        sc.aim = None
        sc.prompt = None
        self.pending_roll = None
        self.typed = []
        self.dm_move = None
        self._choice_for = None
        self._arm()
        sc.jump(enc.events)

    def undo(self) -> bool:
        """Ctrl-Z: back to before the last step (an action, an AI turn, a turn ended, a load)."""
        if not self.undo_stack:
            self.scene.toast("nothing to undo: this is where the fight started", kind="error")
            return False
        self.redo_stack.append(self._snapshot())
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
        self.undo_stack.append(self._snapshot())
        self._restore(self.redo_stack.pop())
        self.scene.toast(f"redone: round {self.enc.round}", 1.2)
        return True

    def save_game(self, path: str | Path | None = None) -> bool:
        """Ctrl-S: the fight to a snapshot file (``cavesim play --load FILE`` or ``cavesim fight FILE``)."""
        from sim.engine import snapshot

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
        from sim.engine import snapshot

        path = Path(path) if path is not None else self.save_path
        try:
            enc, _ = snapshot.read_snapshot(path, policy=self.enc.policy, spec=self.enc.spec)
        except DataError as exc:
            self.scene.toast(f"not loaded: {str(exc).splitlines()[0]}", 4.0, kind="error")
            return False
        self._checkpoint()
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
            self._end_turn()           # a turn whose end waited for a typed die
            return
        if self.enc.turn is None and not self._begin():
            return
        c = self.current()
        if self.controls(c) and not sc.autoplay:
            sc.awaiting_input = True
            turn = (c.id, self.enc.round)
            if getattr(self, "_choice_for", None) != turn:  # a new turn: the weapon in hand
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
        if self._engine(self.enc.begin_turn, retry=lambda: None) is ASKED:
            return False
        self.scene.feed(self.enc.events[mark:])
        t = self.enc.turn
        if t is None:
            return False
        if t.ended:
            self._end_turn()
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
        before = self._snapshot()
        mark = len(self.enc.events)

        def step():
            if not self.enc.turn.ended:
                self.enc.ai_turn()

        if self._engine(step, retry=self.ai_turn) is ASKED:
            return
        self._checkpoint(before)
        self.scene.feed(self.enc.events[mark:])
        self._end_turn()

    def _end_turn(self) -> None:
        mark = len(self.enc.events)
        if self._engine(self.enc.end_turn, retry=lambda: None) is ASKED:
            return
        self.scene.feed(self.enc.events[mark:])
        self.scene.preview = None

    # -- user actions ------------------------------------------------------------------------------------------------
    def perform(self, action) -> bool:
        """Ask the engine; show its refusal, or animate what happened."""
        from sim.engine.actions import Impossible

        if not self.scene.director.idle():
            return False
        c = self.current()
        if not self.controls(c):
            self.scene.toast("not your creature's turn: Space lets the AI play it", kind="error")
            return False
        before = self._snapshot()
        result = self._engine(lambda: self.enc.perform(action), retry=lambda: self.perform(action))
        if result is ASKED:
            return False
        if isinstance(result, Impossible):
            self.scene.toast(f"{c.name} cannot: {result.reason}", kind="error")
            return False
        self._checkpoint(before)
        self.scene.feed(result.events)
        self.scene.preview = None
        self.scene.hit_lines = []   # the odds changed (or the turn): the next move of the mouse says anew
        if self.enc.turn is not None and self.enc.turn.ended:
            self._end_turn()
        return True

    def end_turn(self) -> None:
        from sim.engine.actions import Delay

        if self.scene.director.idle() and self.controls(self.current()) and self.enc.turn is not None:
            self._checkpoint()
            self.enc.perform(Delay())
            self._end_turn()

    def click_square(self, sq: Pos, *, shift: bool = False, ctrl: bool = False, alt: bool = False,
                     point: tuple[float, float] | None = None) -> None:
        """A click on the map: with a spell chosen, cast it there (:meth:`cast_at`); else a creature
        (enemy: attack; other: select) or a square (move; ``alt`` a 5-ft step, ``shift`` withdraw,
        ``shift`` and ``ctrl`` run).
        ``point``: where in the map the click fell, in squares (for a spell's grid intersection)."""
        from sim.engine.actions import (
            Charge,
            Draw,
            FiveFootStep,
            FullAttack,
            Manyshot,
            Move,
            Strike,
            Throw,
            Withdraw,
        )
        from sim.engine.attack_actions import needs_draw, rapid_shot_reason
        from sim.terrain.vision import LOCATES

        sc = self.scene
        c = self.current()
        if self.dm_move is not None:
            self.dm_place(sq)
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
            from sim.engine.actions import Run

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
        from sim.engine.items import throwable_items

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
        from sim.engine.actions import CutOut, Escape
        from sim.engine.attacks import melee_in_hand
        from sim.engine.strands.actions import BreakStrand
        from sim.engine.strands import stuck_to
        from sim.engine.swallow import cutting, how_inside

        c = self.current()
        if (not artist and c is not None and c.id in self.enc.inside and how_inside(self.enc, c) == "swallowed"
                and cutting(c, melee_in_hand(c))):
            return self.perform(CutOut())
        if c is not None and not c.grappling and stuck_to(self.enc, c) is not None:
            return self.perform(BreakStrand("escape_artist" if artist else None))
        return self.perform(Escape(artist=artist))

    # -- spells and the other actions of a turn ------------------------------------------------------------------
    def spell_options(self, c=None) -> list[str]:
        """The simulated spells the acting creature has a slot for (RULES §8)."""
        from sim.engine.casting import SIMULATED, has_spell

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
        """The :class:`~sim.engine.actions.Cast` that a click on ``sq`` means for the chosen spell, or a
        reason why it means none: a creature for magic missile and cure light wounds, the grid
        intersection nearest the click for sleep, the direction from the caster for burning
        hands' cone (from the corner of its space nearest the click), the caster itself for bless."""
        from sim.engine.actions import Cast

        sc = self.scene
        c = self.current()
        spell = sc.spell_choice
        if spell in ("magic-missile", "cure-light-wounds", "cure-moderate-wounds", "hold-person"):
            here = [cv for cv in sc.model.at(sq) if cv.alive]
            if not here:
                return "click a creature to target"
            return Cast(spell, target=here[0].id, defensive=defensive)
        if spell in ("lightning-bolt", "grease"):   # grease: the clicked square is its north-west square
            return Cast(spell, at=sq, defensive=defensive)
        if spell in ("light", "darkness"):   # light on a creature's gear, else on the clicked square
            here = [cv for cv in sc.model.at(sq) if cv.alive] if spell == "light" else []
            if here:
                return Cast(spell, target=here[0].id, defensive=defensive)
            return Cast(spell, at=sq, defensive=defensive)   # aimed through the clicked square's centre
        if spell in ("sleep", "fireball", "glitterdust", "web", "stinking-cloud"):
            px, py = point if point is not None else (sq[0] + 0.5, sq[1] + 0.5)
            return Cast(spell, at=(int(round(px)), int(round(py))), defensive=defensive)
        if spell == "burning-hands":
            xs = [x for x, _ in c.squares]
            ys = [y for _, y in c.squares]
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
            dx, dy = sq[0] - cx, sq[1] - cy
            if abs(dx) < 1 and abs(dy) < 1:
                return "click a square beside the caster to aim the cone"
            # the nearest of the eight directions
            sx = (dx > 0) - (dx < 0) if abs(dx) >= abs(dy) / 2.414 else 0
            sy = (dy > 0) - (dy < 0) if abs(dy) >= abs(dx) / 2.414 else 0
            # from the corner of the caster's space nearest the click (SRD: any corner)
            from sim.engine.spells import cone_origins

            px, py = point if point is not None else (sq[0] + 0.5, sq[1] + 0.5)
            origin = min(cone_origins(c, (sx, sy)), key=lambda o: (o[0] - px) ** 2 + (o[1] - py) ** 2)
            return Cast(spell, direction=(sx, sy), at=origin, defensive=defensive)
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
        from sim.story.log import thing

        sc = self.scene
        c = self.current()
        if self.dm_move is not None:
            who = self.enc.creatures.get(self.dm_move)
            return f"DM: click the square to put {who.name if who else self.dm_move} on  ·  Esc cancels"
        if c is None or not self.controls(c) or not sc.awaiting_input:
            return "paused: Space goes on" if sc.paused and not self.enc.finished else ""
        if sc.spell_choice:
            name = sc.spell_choice.replace("-", " ")
            if sc.aim is not None:
                return f"{c.name}: {name} aimed  ·  click it again or Enter to cast  ·  Esc cancels"
            return f"{c.name}: casting {name} (X: next)  ·  " + (
                "click to aim" if sc.spell_choice in AREA_SPELLS else "click a creature")
        weapon = sc.weapon_choice or c.wielding
        return f"{c.name}: {thing(weapon) if weapon else 'no weapon'} (W: next)  ·  click an enemy to attack"

    def hover_enemy(self, sq: Pos) -> None:
        """The chance to hit the enemy under the cursor with the chosen weapon (or nothing there)."""
        from sim.view.table import hit_lines

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
        self.redo_stack.append(self._snapshot())
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
        from sim.engine.spells import area_of

        a = self.spell_action(sq, point=point)
        c = self.current()
        if isinstance(a, str) or c is None:
            return []
        return area_of(self.enc, c, a)

    def toggle_prone(self) -> bool:
        """D: drop prone, or stand up (a move action that provokes)."""
        from sim.engine.actions import DropProne, StandUp

        c = self.current()
        if c is None:
            return False
        return self.perform(StandUp() if c.prone else DropProne())

    def load(self) -> bool:
        """O: load the crossbow or sling chosen with W, or the first one that needs it (RULES §3.3);
        with an oil flask chosen, prepare its fuse (§3.5)."""
        from sim.engine.actions import Load, PrepareFuse
        from sim.engine.attack_actions import load_action

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
        from sim.engine.actions import RemoveArmor
        from sim.engine.ai.armor import helper

        c = self.current()
        if c is None:
            return False
        ally = helper(self.enc, c)
        return self.perform(RemoveArmor(ally.id if ally is not None else None))

    def light_torch(self) -> bool:
        """I: light a torch and take it in hand (§3.5)."""
        from sim.engine.actions import LightTorch

        return self.perform(LightTorch())


#: What G cycles through in play (docs/rules.md §11; a swallower also "swallow", §11.13), and the
#: action a click on an enemy means. "cut_strand": a click on the roper cuts the strand holding the
#: one acting (docs/rules.md §11.15).
MANEUVERS = ("grapple", "trip", "bull_rush", "pin", "cut_strand")


def maneuver_action(name: str, target: str, *, actor: str = ""):
    from sim.engine.actions import BullRush, Grapple, Pin, Swallow, Trip
    from sim.engine.strands.actions import SeverStrand

    if name == "cut_strand":
        return SeverStrand(actor)
    return {"grapple": Grapple, "trip": Trip, "bull_rush": BullRush, "pin": Pin, "swallow": Swallow}[name](target)


def load_replay(path: str | Path) -> list[ev.Event]:
    events = list(ev.read_jsonl(path))
    if not events:
        raise DataError(f"{path}: the fight log is empty; write one with cavesim fight ENCOUNTER --events FILE")
    return events


def find_map_for(events: list[ev.Event], given: str | None, limits=None):
    """The map of a recorded fight: the file given (a map or an encounter), else the shipped map
    with the recorded name; its size must be the recorded one (every square of the log is on
    it). Returns (grid, base_path, title, subtitle)."""
    found = _find_map_for(events, given, limits)
    grid, start = found[0], events[0]
    if (grid.cols, grid.rows) != (start.cols, start.rows):
        raise DataError(f"{found[1]}: its map is {grid.cols}x{grid.rows} squares, but the fight log was played on "
                        f"a {start.cols}x{start.rows} map; give the map or encounter file the fight was played on")
    return found


def _find_map_for(events: list[ev.Event], given: str | None, limits=None):
    from sim.base.fileio import read_toml
    from sim.base.paths import maps_dir
    from sim.maps.limits import Limits
    from sim.maps.read import load_map
    from sim.scenario.files import load_encounter

    limits = limits or Limits()
    start = events[0]
    if given:
        p = Path(given)
        data, _ = read_toml(p)
        if "encounter" in data:
            spec = load_encounter(p, limits=limits, check=False)
            return spec.grid, spec.path, spec.name, spec.description
        grid = load_map(p, limits=limits)
        return grid, str(p), grid.name, grid.description
    name = getattr(start, "map", "")
    for f in sorted(maps_dir().glob("*.toml")):
        try:
            data, _ = read_toml(f)
        except DataError:
            continue
        m = data.get("map")
        if isinstance(m, dict) and m.get("name") == name:
            if "encounter" in data:
                spec = load_encounter(f, limits=limits, check=False)
                return spec.grid, spec.path, spec.name, spec.description
            grid = load_map(f, limits=limits)
            if (grid.cols, grid.rows) == (start.cols, start.rows):
                return grid, str(f), grid.name, grid.description
    raise DataError(f"the fight log was played on the map {name!r}, which is not a shipped map; "
                    "give its map or encounter file: cavesim play --replay EVENTS.jsonl MAP.toml")
