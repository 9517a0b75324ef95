"""Building what the renderer shows: a fight to watch (simulated, then animated), a recorded
fight to replay, a bare map, or a live fight to play (with :class:`~sim.view.play.PlayController`).

Watching and replaying animate a complete list of events (:class:`Timeline`); stepping backwards
rebuilds the view from the events up to a turn boundary. Where the fights come from (simulated,
read from a file, the crawl's cast) is :mod:`sim.view.fights`; everything drawn comes from the
engine's events, its ``encounter_start`` first (the creatures, their lights).
"""

from __future__ import annotations

from pathlib import Path

from sim.base.errors import DataError
from sim.engine import events as ev
from sim.engine.ai.decide import default_policy
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot
from sim.render.lighting import Lighting
from sim.render.scene import Scene
from sim.view import timeline as tl
from sim.view.fights import fight_title, simulate
from sim.view.model import ViewModel
from sim.view.play import PlayController
from sim.view.world import World


def watch_scene(spec, *, seed: int | None = None, size=(1280, 720), speed: float = 1.0, pace: float = 1.0,
                mode: str = "watch", hud: bool = True, legend: bool = True, events: list | None = None,
                view: str = "all"):
    """A scene that animates the whole AI fight of ``spec`` (demo, render, window watch), turn by
    turn in auto-play. ``events``: the fight already simulated. Returns (scene, timeline)."""
    if events is None:
        _, events = simulate(spec, seed=seed)
    title, subtitle = fight_title(spec)
    return scene_from_events(events, spec.grid, base_path=spec.path, title=title, subtitle=subtitle, size=size,
                             speed=speed, pace=pace, mode=mode, hud=hud, legend=legend, autoplay=True, view=view)


def replay_scene(events: list[ev.Event], grid, *, base_path: str = ".", title: str = "", subtitle: str = "",
                 size=(1280, 720), speed: float = 1.0, autoplay: bool = False, hud: bool = True):
    """A scene replaying a recorded fight, stepped by the user (or in auto-play)."""
    return scene_from_events(events, grid, base_path=base_path, title=title, subtitle=subtitle, size=size,
                             speed=speed, mode="replay", hud=hud, autoplay=autoplay)


def scene_from_events(events: list[ev.Event], grid, *, base_path: str = ".", title: str = "", subtitle: str = "",
                      size=(1280, 720), speed: float = 1.0, pace: float = 1.0, mode: str = "watch", hud: bool = True,
                      legend: bool = True, autoplay: bool = True, view: str = "all"):
    """A scene showing ``events`` (a fight's, its ``encounter_start`` first) on ``grid``, and the
    :class:`Timeline` that plays them. The lights everyone holds come from that first event."""
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
    scene.lighting = Lighting(grid, view=view)
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
    if load is not None:
        enc, _ = snapshot.read_snapshot(Path(load), policy=default_policy, spec=spec)
    else:
        enc = new_encounter(spec, seed=seed)
    title, subtitle = fight_title(spec)
    world = World(enc, live=True)
    model = ViewModel()
    director = tl.Director(model, speed=speed, title=title, subtitle=subtitle)
    scene = Scene(world=world, model=model, director=director, size=size, title=title, subtitle=subtitle,
                  mode="play", seed=enc.seed)
    # the lights held come from the events (encounter_start lists them); a saved game older than
    # that (schema 1) lists none: the engine's own record of each creature's light stands in
    scene.lighting = Lighting(spec.grid, carried={c.id: c.light for c in enc.creatures.values()})
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
        """Show the fight as it stands after the first ``upto`` events (no animation)."""
        self.scene.reset_view()
        self.scene.jump(self.events[:upto])
        self.fed = upto
