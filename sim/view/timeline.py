"""The director: events in, scheduled animations out, on the renderer's own clock (no pygame).

Events are consumed one at a time, each when the previous one's *hold* has passed; starting an
event applies it to the view model and schedules its animations (:class:`Anim`: a kind, a start
time, a duration, who and what it concerns). Animations are pure functions of time, so drawing
interpolates between two fixed steps (STYLE habit 11): :meth:`Director.update` advances the
clock by a fixed step, :meth:`Director.time_at` gives the time to draw at.

>>> from sim.engine import events as ev
>>> from sim.view.model import ViewModel
>>> d = Director(ViewModel())
>>> d.feed([ev.RoundStart(round=1)])
>>> d.update(0.01)
>>> [a.kind for a in d.created]
['banner']
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Iterable

from sim.engine import events as ev
from sim.view.model import ViewModel

# Animation kinds
TITLE, BANNER, FOCUS, END = "title", "banner", "focus", "end"
MOVE, STUCK, RESHAPE = "move", "stuck", "reshape"
LUNGE, PROJECTILE, TORCH_SWING, FLASH, MISS, CRIT = "lunge", "projectile", "torch_swing", "flash", "miss", "crit"
FLOAT, SWARM_TICK, ENGULF, HEAL = "float", "swarm_tick", "engulf", "heal"
ARC, FIRE, SPELL, LIGHT, POSE, BADGE = "arc", "fire", "spell", "light", "pose", "badge"
DEATH, SCATTER = "death", "scatter"

# Seconds each step of a movement takes (at speed 1), by the kind of step
STEP_TIME = {"walk": 0.13, "crawl": 0.42, "escape_artist": 0.6, "squeeze": 0.8, "stand": 0.3, "step": 0.2,
             "charge": 0.08, "run": 0.08, "withdraw": 0.13, "fly": 0.11}
NOTABLE_CONDITIONS = {"nauseated", "dying", "prone", "asleep", "paralyzed", "disabled", "stable", "unconscious",
                      "wounded", "blessed", "poisoned", "diseased", "burning", "pinned"}
SAVE_NAMES = {"fortitude": "Fort", "reflex": "Ref", "will": "Will"}
OPPOSED_WORDS = {"grapple_hold": "grab", "grapple_damage": "squeeze", "pin": "pin", "escape": "break free",
                 "move_grapple": "drag", "swallow": "swallow", "trip": "trip", "trip_back": "trip back", "bull_rush": "bull rush"}


@dataclass(slots=True)
class Anim:
    kind: str
    t0: float
    duration: float
    actor: str | None = None
    target: str | None = None
    data: dict = field(default_factory=dict)

    @property
    def end(self) -> float:
        return self.t0 + self.duration

    def progress(self, t: float) -> float:
        if self.duration <= 0:
            return 1.0
        return min(1.0, max(0.0, (t - self.t0) / self.duration))

    def active(self, t: float) -> bool:
        return self.t0 <= t < self.end


def step_time(step: dict) -> float:
    """Seconds for one step of a path: slower where it costs more (narrow squares, rubble)."""
    base = STEP_TIME.get(step.get("kind", "walk"), 0.13)
    if step.get("kind") in ("walk", "withdraw", "charge", "run", "fly", "step"):
        base *= min(3.0, max(1.0, step.get("feet", 5) / 5.0)) ** 0.6
    return base


class Director:
    """Schedules the animations of a stream of events. ``speed`` scales the clock (0 = paused);
    ``pace`` scales every hold (lower plays the fight faster without hurrying each animation)."""

    def __init__(self, model: ViewModel, *, speed: float = 1.0, pace: float = 1.0, title: str = "",
                 subtitle: str = ""):
        self.model = model
        self.speed = speed
        self.pace = pace
        self.title = title
        self.subtitle = subtitle
        self.queue: deque[ev.Event] = deque()
        self.t = 0.0
        self.t_prev = 0.0
        self.next_at = 0.0
        self.anims: list[Anim] = []
        self.created: list[Anim] = []      # every animation ever scheduled (tests, debugging)
        self.started: list[Anim] = []      # scheduled since the scene last drained them
        self.last_event: ev.Event | None = None
        self.keep_history = True

    # -- feeding and stepping --------------------------------------------------------------------------
    def feed(self, events: Iterable[ev.Event]) -> None:
        if not self.queue and self.next_at < self.t:
            self.next_at = self.t  # nothing was waiting: the first new event starts now, not in the past
        self.queue.extend(events)

    def forget(self) -> None:
        """Drop every event waiting and every animation (the view is rebuilt from events at once);
        the clock runs on."""
        self.queue.clear()
        self.anims.clear()
        self.created.clear()

    def rewind(self, t: float) -> None:
        """Start again at screen time ``t`` (a crawl shown from a point of its journey): nothing
        waiting, no animation (none scheduled either), the clock and the next event's start at ``t``."""
        self.forget()
        self.started.clear()
        self.t = self.t_prev = self.next_at = float(t)

    def idle(self) -> bool:
        """No event waiting and the last one's hold is over (input may be taken)."""
        return not self.queue and self.t >= self.next_at

    def update(self, dt: float) -> None:
        """Advance the clock by ``dt`` seconds (times ``speed``) and start every event due."""
        self.t_prev = self.t
        self.t += dt * self.speed
        while self.queue and self.next_at <= self.t:
            e = self.queue.popleft()
            start = self.next_at
            hold = self._start(e, start)
            self.next_at = start + hold * self.pace
        self.anims = [a for a in self.anims if a.end > self.t or a.kind == END]

    def time_at(self, alpha: float) -> float:
        """The time to draw at, ``alpha`` of the way from the previous step to the current one."""
        return self.t_prev + (self.t - self.t_prev) * alpha

    def active(self, t: float) -> list[Anim]:
        return [a for a in self.anims if a.t0 <= t < a.end or (a.kind == END and a.t0 <= t)]

    def drain_started(self) -> list[Anim]:
        out, self.started = self.started, []
        return out

    def apply_instant(self, events: Iterable[ev.Event]) -> None:
        """Apply events to the model with no animation (jumping through a replay)."""
        for e in events:
            self.model.apply(e)
            self.last_event = e
        self.next_at = self.t

    def schedule(self, events: Iterable[ev.Event]) -> tuple[list[float], float]:
        """Start ``events`` back to back, at once, as :meth:`update` would start them (each when the
        previous one's hold is over, holds times ``pace``), from time 0: each event's start and the
        end of the last hold, in seconds at speed 1. The model is left as after the events; no
        animation is kept. For a director of its own (the crawl times its fights with it)."""
        self.queue.extend(events)
        t = 0.0
        starts: list[float] = []
        while self.queue:   # popped one by one: a handler may look at the next event
            e = self.queue.popleft()
            starts.append(t)
            t += self._start(e, t) * self.pace
            self.anims.clear()
            self.started.clear()
        return starts, t

    def skip_queue(self) -> None:
        """Apply every waiting event at once."""
        self.apply_instant(list(self.queue))
        self.queue.clear()
        self.anims = [a for a in self.anims if a.kind == END]

    # -- scheduling ----------------------------------------------------------------------------------------
    def _add(self, kind: str, t0: float, duration: float, *, actor=None, target=None, **data) -> Anim:
        a = Anim(kind, t0, duration, actor, target, data)
        self.anims.append(a)
        self.started.append(a)
        if self.keep_history:
            self.created.append(a)
        return a

    def _start(self, e: ev.Event, t: float) -> float:
        """Apply the event and schedule its animations; returns its hold (seconds)."""
        before = self._snapshot(e)
        self.model.apply(e)
        self.last_event = e
        handler = self.HANDLERS.get(type(e))
        return handler(self, e, t, before) if handler else 0.0

    def _snapshot(self, e: ev.Event) -> dict:
        """What the animation needs from before the event (where a mover started, hp before)."""
        actor = getattr(e, "actor", None) or getattr(e, "target", None)
        c = self.model.get(actor) if isinstance(actor, str) else None
        if c is None:
            return {}
        return {"squares": list(c.squares), "pos": c.pos, "prone": c.prone}

    def _peek(self) -> ev.Event | None:
        return self.queue[0] if self.queue else None

    # -- one handler per event type ----------------------------------------------------------------------------
    def _on_encounter_start(self, e, t, before):
        self._add(TITLE, t, 3.6, title=self.title or e.map, subtitle=self.subtitle, seed=e.seed)
        return 3.3

    def _on_initiative(self, e, t, before):
        return 0.3

    def _on_round_start(self, e, t, before):
        self._add(BANNER, t, 1.1, text=f"Round {e.round}")
        return 0.55

    def _on_turn_start(self, e, t, before):
        self._add(FOCUS, t, 0.55, actor=e.actor)
        return 0.16

    def _on_turn_end(self, e, t, before):
        return 0.04

    def _on_moved(self, e: ev.Moved, t, before):
        c = self.model.get(e.actor)
        if c is None:
            return 0.0
        if c.swarm:
            return 0.08
        if not e.path:
            self._add(STUCK, t, 0.4, actor=e.actor)
            return 0.3
        start_squares = before.get("squares") or c.squares
        k = c.k
        points = [_centre(start_squares)]
        times = [0.0]
        for i, s in enumerate(e.path):
            at = (int(s["at"][0]), int(s["at"][1]))
            last = i == len(e.path) - 1
            points.append(_centre(c.squares) if last else (at[0] + k / 2.0, at[1] + k / 2.0))
            kind = "step" if e.action == "five_foot_step" else s.get("kind", "walk")
            times.append(times[-1] + step_time(dict(s, kind=kind)))
        kinds = [s.get("kind", "walk") for s in e.path]
        total = times[-1]
        self._add(MOVE, t, total, actor=e.actor, points=points, times=times, kinds=kinds,
                  prone=[bool(before.get("prone"))] + [k_ == "crawl" for k_ in kinds], action=e.action)
        return total

    def _on_swarm_shape(self, e, t, before):
        self._add(RESHAPE, t, 0.3, actor=e.actor, squares=[tuple(s) for s in e.squares],
                  before=before.get("squares", []))
        return 0.11

    def _on_check(self, e: ev.Check, t, before):
        name = e.skill.replace("_", " ").title()
        text = f"{name} {e.total} vs DC {e.dc}: {'through' if e.success else 'stuck'}"
        self._add(FLOAT, t, 1.3, target=e.actor, text=text, tone="good" if e.success else "bad", small=True)
        if not e.success:
            self._add(STUCK, t, 0.5, actor=e.actor)
        return 0.5

    def _on_opposed(self, e: ev.Opposed, t, before):
        """A grapple, trip or bull rush check (docs/rules.md §11): both totals over the actor; the
        loser of a grapple struggles (a shake)."""
        word = OPPOSED_WORDS.get(e.purpose, e.purpose.replace("_", " "))
        text = f"{word} {e.total} vs {e.target_total}: {'wins' if e.success else 'fails'}"
        self._add(FLOAT, t, 1.3, target=e.actor, text=text, tone="good" if e.success else "bad", small=True)
        self._add(STUCK, t, 0.45, actor=e.target if e.success else e.actor)
        return 0.45

    def _on_attack(self, e: ev.Attack, t, before):
        nxt = self._peek()
        splash_next = isinstance(nxt, ev.Splash) and nxt.actor == e.actor
        ranged = e.kind in ("ranged", "ranged_touch")
        target = e.target or None
        hit_at = t + 0.15
        if ranged:
            if not splash_next and target:
                self._add(PROJECTILE, t, 0.28, actor=e.actor, target=target, weapon=e.weapon)
                hit_at = t + 0.28
        else:
            self._add(LUNGE, t, 0.42, actor=e.actor, target=target, weapon=e.weapon, attack_kind=e.kind)
            if e.weapon == "torch":
                self._add(TORCH_SWING, t, 0.5, actor=e.actor, target=target)
        if splash_next:
            return 0.12
        if target:
            if e.hit:
                self._add(FLASH, hit_at, 0.28, target=target, critical=e.critical)
                if e.critical:
                    self._add(CRIT, hit_at, 1.2, target=target, text="CRITICAL!")
            else:
                self._add(MISS, hit_at, 1.0, target=target, text="miss", roll=e.total, ac=e.ac)
        return 0.34 if e.hit else 0.42

    def _on_damage(self, e: ev.Damage, t, before):
        tone = "swarm" if e.cause == "swarm" else ("fire" if "fire" in e.parts else "damage")
        text = str(e.amount) if e.amount > 0 else ("immune" if e.parts else "0")
        if e.nonlethal:
            text += " nl"
        self._add(FLOAT, t, 1.25, target=e.target, text=text, tone=tone if e.amount > 0 else "miss",
                  big=e.amount >= 8)
        if e.cause == "swarm":
            self._add(SWARM_TICK, t, 0.5, actor=e.source, target=e.target)
            return 0.3
        if e.cause in ("bleed", "dying", "poison", "strain"):
            return 0.22
        return 0.24

    def _on_healed(self, e: ev.Healed, t, before):
        self._add(FLOAT, t, 1.2, target=e.target, text=f"+{e.amount}", tone="heal")
        self._add(HEAL, t, 0.8, target=e.target)
        return 0.3

    def _on_save(self, e: ev.Save, t, before):
        text = f"{SAVE_NAMES.get(e.save, e.save)} {e.total} vs {e.dc}: {'saved' if e.success else 'failed'}"
        self._add(FLOAT, t, 1.1, target=e.target, text=text, tone="good" if e.success else "bad", small=True)
        return 0.2

    def _on_condition(self, e: ev.Condition, t, before):
        if e.condition in ("flat_footed", "dead", "ability_damage"):
            if e.condition == "ability_damage":
                d = e.detail
                self._add(FLOAT, t, 1.1, target=e.target, small=True, tone="bad",
                          text=f"-{d.get('amount')} {str(d.get('ability', '')).title()}")
                return 0.2
            return 0.0
        self._add(BADGE, t, 0.5, target=e.target, condition=e.condition, active=e.active)
        if e.condition in NOTABLE_CONDITIONS:
            word = e.condition.replace("_", " ") if e.active else f"no longer {e.condition.replace('_', ' ')}"
            self._add(FLOAT, t, 1.2, target=e.target, text=word, tone="bad" if e.active else "good", small=True)
            if e.condition == "prone":
                self._add(POSE, t, 0.35, actor=e.target, prone=e.active)
            return 0.28
        return 0.1

    def _on_died(self, e: ev.Died, t, before):
        self._add(DEATH, t, 0.9, target=e.target, squares=[tuple(s) for s in e.at])
        return 0.6

    def _on_dispersed(self, e: ev.Dispersed, t, before):
        self._add(SCATTER, t, 1.8, target=e.target, squares=[tuple(s) for s in e.at])
        self._add(FLOAT, t, 1.4, target=e.target, text="dispersed", tone="good")
        return 0.9

    def _on_split(self, e: ev.Split, t, before):
        """An ooze splits (docs/rules.md §11.14): the model has put the new token down already; a
        word over each half."""
        self._add(FLOAT, t, 1.4, target=e.target, text="splits in two", tone="bad")
        self._add(FLOAT, t + 0.15, 1.2, target=e.new, text=f"{e.hp} hp", tone="bad", small=True)
        return 0.6

    def _on_engulf(self, e: ev.Engulf, t, before):
        for tid in e.targets:
            self._add(ENGULF, t, 0.7, actor=e.actor, target=tid)
        return 0.4

    def _on_item(self, e: ev.ActionTaken, t, before):
        if e.action == "light":
            self._add(LIGHT, t, 0.8, actor=e.actor)
            self._add(FLOAT, t, 1.1, target=e.actor, text="lights a torch", tone="fire", small=True)
            return 0.45
        if e.action in ("drop_prone", "stand_up"):
            self._add(POSE, t, 0.35, actor=e.actor, prone=e.action == "drop_prone")
            return 0.3
        words = {"draw": f"draws {e.item}", "armor_off": "armor off", "armor_on": "armor on", "delay": "waits"}
        self._add(FLOAT, t, 1.0, target=e.actor, text=words.get(e.action, f"{e.action} {e.item}".strip()),
                  tone="", small=True)
        return 0.3

    def _on_armor(self, e: ev.ArmorWork, t, before):
        """Armor off before a crawlway (RULES §2.4): a word when the work begins and ends; the
        rounds between pass quickly (the ring round the token fills)."""
        text = {"start": f"armor off: {e.rounds} rounds", "done": "armor off", "stopped": "armor stays on",
                "help": "helps"}.get(e.stage)
        if text is None:
            return 0.12
        self._add(FLOAT, t, 1.1, target=e.actor, text=text, tone="", small=True)
        return 0.35

    def _on_splash(self, e: ev.Splash, t, before):
        at = (float(e.at[0]), float(e.at[1])) if e.intersection else (e.at[0] + 0.5, e.at[1] + 0.5)
        flight = 0.5
        self._add(ARC, t, flight, actor=e.actor, to=at, item=e.item)
        self._add(FIRE, t + flight, 1.5, actor=e.actor, squares=[tuple(s) for s in e.squares], at=at, item=e.item)
        return flight + 0.12

    def _on_spell(self, e: ev.SpellCast, t, before):
        if e.lost:
            self._add(FLOAT, t, 1.0, target=e.actor, text=f"{e.spell.replace('-', ' ')} lost", tone="bad", small=True)
            return 0.3
        self._add(SPELL, t, 0.9, actor=e.actor, spell=e.spell, targets=list(e.targets),
                  squares=[tuple(s) for s in e.squares])
        self._add(FLOAT, t, 1.2, target=e.actor, text=e.spell.replace("-", " "), tone="magic", small=True)
        return 0.6

    def _on_refused(self, e: ev.Refused, t, before):
        self._add(FLOAT, t, 1.4, target=e.actor, text=f"cannot: {e.reason}", tone="miss", small=True)
        return 0.35

    def _on_decided(self, e: ev.Decided, t, before):
        """Why the AI chose what it did (issue 31): the log's line says it; no animation, no beat."""
        return 0.0

    def _on_encounter_end(self, e: ev.EncounterEnd, t, before):
        self._add(END, t, 4.5, winner=e.winner, reason=e.reason, round=e.round)
        return 4.0

    def _on_roll(self, e: ev.Rolled, t, before):
        self._add(FLOAT, t, 1.2, target=e.actor, text=f"rolled {e.value}", tone="", small=True)
        return 0.25

    def _on_dm(self, e: ev.DmEdit, t, before):
        words = {"hp": f"DM: {e.after.get('hp')} hp", "move": "DM: moved", "pass": "DM: turn passed"}
        text = words.get(e.change) or "DM: " + ", ".join(
            f"{'+' if on else '-'}{name.replace('_', ' ')}" for name, on in e.after.items())
        self._add(FLOAT, t, 1.4, target=e.target, text=text, tone="magic", small=True)
        return 0.35

    def _on_swallowed(self, e: ev.Swallowed, t, before):
        """Swallowed whole (docs/rules.md §11.13): its token shrinks into the worm's middle."""
        self._add(ENGULF, t, 0.7, actor=e.actor, target=e.target)
        self._add(FLOAT, t, 1.4, target=e.target, text="swallowed whole", tone="bad")
        return 0.6

    def _on_engulfed(self, e: ev.Engulfed, t, before):
        for tid in e.targets:
            self._add(ENGULF, t, 0.7, actor=e.actor, target=tid)
            self._add(FLOAT, t, 1.2, target=tid, text="engulfed", tone="bad", small=True)
        for tid in e.avoided:
            self._add(FLOAT, t, 1.0, target=tid, text="dodges aside", tone="good", small=True)
        return 0.5 if e.targets or e.avoided else 0.2

    def _on_gizzard_cut(self, e: ev.GizzardCut, t, before):
        self._add(FLOAT, t, 1.1, target=e.actor, text=f"cuts {e.cut}/{e.needed}", tone="", small=True)
        return 0.3

    def _on_came_out(self, e: ev.CameOut, t, before):
        words = {"cut": "cuts free", "escaped": "escapes", "host_dead": "out", "fight_over": "out"}
        self._add(FLOAT, t, 1.2, target=e.actor, text=words.get(e.cause, "out"), tone="good", small=True)
        return 0.4

    def _on_zone_end(self, e: ev.ZoneEnded, t, before):
        """A grease is gone: the model drops its sheen; a short beat, no animation of its own."""
        return 0.1

    # -- the dispatch table: event class -> its handler (an event not listed has no animation) ----------
    HANDLERS: ClassVar[dict[type, Callable]] = {
        ev.EncounterStart: _on_encounter_start, ev.Initiative: _on_initiative, ev.RoundStart: _on_round_start,
        ev.TurnStart: _on_turn_start, ev.TurnEnd: _on_turn_end, ev.Moved: _on_moved,
        ev.SwarmShape: _on_swarm_shape, ev.Check: _on_check, ev.Attack: _on_attack, ev.Damage: _on_damage,
        ev.Healed: _on_healed, ev.Save: _on_save, ev.Condition: _on_condition, ev.Died: _on_died,
        ev.Dispersed: _on_dispersed, ev.Engulf: _on_engulf, ev.ActionTaken: _on_item, ev.Splash: _on_splash,
        ev.SpellCast: _on_spell, ev.Refused: _on_refused, ev.EncounterEnd: _on_encounter_end,
        ev.Rolled: _on_roll, ev.DmEdit: _on_dm,
        ev.ArmorWork: _on_armor,
        ev.Opposed: _on_opposed, ev.ZoneEnded: _on_zone_end, ev.Split: _on_split,
        ev.Swallowed: _on_swallowed, ev.Engulfed: _on_engulfed, ev.GizzardCut: _on_gizzard_cut, ev.CameOut: _on_came_out,
        ev.Decided: _on_decided,
    }


def _centre(squares) -> tuple[float, float]:
    if not squares:
        return (0.5, 0.5)
    xs = [s[0] for s in squares]
    ys = [s[1] for s in squares]
    return ((min(xs) + max(xs) + 1) / 2.0, (min(ys) + max(ys) + 1) / 2.0)


def centre_of(squares) -> tuple[float, float]:
    """Centre (in squares) of the box around some squares.

    >>> centre_of([(2, 3)]), centre_of([(2, 3), (3, 3), (2, 4), (3, 4)])
    ((2.5, 3.5), (3.0, 4.0))
    """
    return _centre(squares)
