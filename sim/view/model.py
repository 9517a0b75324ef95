"""The renderer's view state, rebuilt from events alone (no pygame, no engine objects).

The engine's events are the renderer's only input (DESIGN §3). :class:`ViewModel` applies them
one by one and keeps what the screen shows: every creature's squares, posture, hit points and
conditions, the initiative order and the acting creature, the round, the outcome, and the
combat log as readable lines (``sim.story.log.Narrator``). Applying a prefix of a fight's events gives
the state at that moment, which is how a replay steps backwards.

>>> from sim.engine import events as ev
>>> m = ViewModel()
>>> m.apply(ev.EncounterStart(round=0, map="m", seed=1, cols=4, rows=3, combatants=(
...     {"id": "a", "name": "Ann", "template": "human-fighter-1", "team": "party", "size": "medium",
...      "squares": [[0, 0]], "hp": 10, "max_hp": 10, "swarm": False, "speed": 30},)))
>>> m.apply(ev.Moved(round=1, actor="a", path=({"at": [1, 1], "category": "CLEAR", "kind": "walk", "feet": 5},),
...                  squares=((1, 1),), prone=False, action="move"))
>>> m.creatures["a"].squares, m.creatures["a"].pos, m.creatures["a"].facing
([(1, 1)], (1, 1), (1, 1))
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sim.base.coords import Pos, inner_square
from sim.engine import events as ev
from sim.rules.sizes import Size
from sim.story.log import Narrator

#: The spells that leave a lasting area on the floor until its zone_end (docs/rules.md §8.1, §8.3, §8.4).
ZONE_SPELLS = ("grease", "web", "stinking-cloud")


def _pos(p) -> Pos:
    return (int(p[0]), int(p[1]))


@dataclass(slots=True)
class CreatureView:
    """What the screen knows about one combatant."""

    id: str
    name: str
    label: str                     # the name shown (unique among the combatants)
    team: str
    template: str
    size: str
    k: int                         # side of its block of squares (1 for swarms)
    swarm: bool
    component: str | None
    kind: str
    type: str
    speed: int
    squares: list[Pos]
    pos: Pos                       # reference square (swarms: the lead)
    hp: int
    max_hp: int
    prone: bool = False
    conditions: set[str] = field(default_factory=set)
    wielding: str | None = None
    torch_lit: bool = False
    armor_off: bool = False
    armor_progress: float = 0.0    # 0..1 while it takes its armor off (RULES §2.4), else 0
    facing: tuple[int, int] = (1, 0)
    step_category: str | None = None   # the category of the square of its last step (engine's word)
    initiative: int | None = None
    team_index: int = 0
    grapple_with: tuple = ()       # the creatures it is grappling with (the renderer's tether)
    inside: str | None = None      # swallowed or engulfed by this creature (docs/rules.md §11.13)
    stuck_to: str | None = None    # the roper whose strand holds it (docs/rules.md §11.15: the strand drawn)

    @property
    def alive(self) -> bool:
        return not ({"dead", "dispersed"} & self.conditions)

    @property
    def down(self) -> bool:
        """Out of the fight but not dead (dying, unconscious, stable, asleep...)."""
        return self.alive and bool({"dying", "unconscious", "stable", "asleep", "paralyzed"} & self.conditions)

    @property
    def hp_fraction(self) -> float:
        return max(0.0, min(1.0, self.hp / self.max_hp)) if self.max_hp > 0 else 0.0


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str          # the event type it came from
    round: int
    tone: str = ""     # hit | miss | crit | damage | heal | good | bad | round | turn | end | ""


def labels_for(combatants) -> dict[str, str]:
    """id -> the name to show: the name when unique, else the name and the id's number
    ("Goblin 2"), else the id.

    >>> labels_for([{"id": "goblin-1", "name": "Goblin"}, {"id": "goblin-2", "name": "Goblin"},
    ...             {"id": "bruna", "name": "Bruna"}])
    {'goblin-1': 'Goblin 1', 'goblin-2': 'Goblin 2', 'bruna': 'Bruna'}
    """
    rows = [(c["id"], c["name"]) for c in combatants]
    counts: dict[str, int] = {}
    for _, name in rows:
        counts[name] = counts.get(name, 0) + 1
    out = {}
    for cid, name in rows:
        if counts[name] == 1:
            out[cid] = name
        else:
            m = re.search(r"(\d+)$", cid)
            out[cid] = f"{name} {m.group(1)}" if m else cid
    return out


class ViewModel:
    """State of the fight as shown; :meth:`apply` one event at a time."""

    def __init__(self) -> None:
        self.creatures: dict[str, CreatureView] = {}
        self.order: list[str] = []
        self.round = 0
        self.current: str | None = None
        self.acting = False
        self.finished = False
        self.winner: str | None = None
        self.end_reason = ""
        self.map_name = ""
        self.seed = 0
        self.cols = 0
        self.rows = 0
        self.teams: list[str] = []
        self.log: list[LogLine] = []
        self.applied = 0              # events applied so far
        self.version = 0              # bumps on every change (caches key on it)
        self.dropped_lights: list = []  # (item, square) of lights dropped lit (RULES §9.3.5)
        self.lights_dropped_by: set[str] = set()
        self.lights_held: dict[str, str | None] = {}  # a lantern or sunrod lit, doused or dropped in the fight
        self.lights_thrown: dict[str, set[str]] = {}  # lit lanterns thrown (their light leaves the hand)
        self.spell_lit: dict[str, str] = {}   # creature id -> the light spell's gear it carries (RULES §9.1)
        self.darkness: list = []              # squares where a darkness spell was cast
        self.zones: dict = {}                 # (spell, owner, squares) of lasting areas (grease) -> their squares
        self.narrator = Narrator()

    def reset(self) -> None:
        """Back to an empty view, the same object (the director and the scene hold it)."""
        self.__init__()

    # -- queries ---------------------------------------------------------------------------------
    def get(self, cid: str | None) -> CreatureView | None:
        return self.creatures.get(cid) if cid else None

    def label(self, cid: str | None) -> str:
        c = self.get(cid)
        return c.label if c else (cid or "")

    def at(self, square: Pos) -> list[CreatureView]:
        """Creatures covering a square, the living first and non-swarms before swarms."""
        out = [c for c in self.creatures.values() if square in c.squares]
        return sorted(out, key=lambda c: (not c.alive, c.swarm))

    # -- applying events ---------------------------------------------------------------------------
    def apply(self, e: ev.Event) -> None:
        handler = getattr(self, f"_on_{e.type}", None)
        if handler is not None:
            handler(e)
        text = self.narrator.line(e)
        if text is not None:
            self.log.append(LogLine(text=text, kind=e.type, round=e.round, tone=_tone(e)))
        self.applied += 1
        self.version += 1

    def _on_encounter_start(self, e: ev.EncounterStart) -> None:
        self.map_name, self.seed, self.cols, self.rows = e.map, e.seed, e.cols, e.rows
        labels = labels_for(e.combatants)
        self.narrator = Narrator(labels)
        self.creatures.clear()
        self.teams = []
        for d in e.combatants:
            team = d["team"]
            if team not in self.teams:
                self.teams.append(team)
            size = Size.parse(d["size"])
            swarm = bool(d.get("swarm"))
            squares = [_pos(s) for s in d["squares"]]
            self.creatures[d["id"]] = CreatureView(
                id=d["id"], name=d["name"], label=labels[d["id"]], team=team, template=d.get("template", ""),
                size=size.key, k=1 if swarm else size.squares, swarm=swarm, component=d.get("component"),
                kind=d.get("kind", ""), type=d.get("type", ""), speed=int(d.get("speed", 0)),
                squares=squares, pos=squares[0] if squares else (0, 0), hp=int(d["hp"]), max_hp=int(d["max_hp"]),
                prone=bool(d.get("prone", False)), wielding=d.get("wielding"), torch_lit=bool(d.get("torch_lit")),
                team_index=self.teams.index(team))
            if "light" in d:  # the lit lantern or sunrod it holds from the start (older logs: Lighting.carried)
                self.lights_held[d["id"]] = d["light"]
        self.order = list(self.creatures)

    def _on_initiative(self, e: ev.Initiative) -> None:
        self.order = [o["id"] for o in e.order if o["id"] in self.creatures]
        for o in e.order:
            c = self.creatures.get(o["id"])
            if c is not None:
                c.initiative = int(o["total"])

    def _on_round_start(self, e: ev.RoundStart) -> None:
        self.round = e.round

    def _on_turn_start(self, e: ev.TurnStart) -> None:
        self.current = e.actor
        self.acting = True
        self.round = max(self.round, e.round)

    def _on_turn_end(self, e: ev.TurnEnd) -> None:
        self.acting = False

    def _on_moved(self, e: ev.Moved) -> None:
        c = self.creatures.get(e.actor)
        if c is None:
            return
        start = c.pos
        if e.squares:
            c.squares = [_pos(s) for s in e.squares]
        if e.path:
            last = _pos(e.path[-1]["at"])
            prev = _pos(e.path[-2]["at"]) if len(e.path) > 1 else start
            if last != prev:
                c.facing = (_sign(last[0] - prev[0]), _sign(last[1] - prev[1]))
            c.pos = last
            c.step_category = e.path[-1]["category"]
        elif c.squares and not c.swarm:
            c.pos = c.squares[0]
        c.prone = bool(e.prone)
        for v in self.creatures.values():   # what it swallowed or engulfed moves with it (§11.13)
            if v.inside == c.id and c.squares:
                v.squares = [inner_square(c.squares)]
                v.pos = v.squares[0]

    def _on_swallowed(self, e: ev.Swallowed) -> None:
        c = self.creatures.get(e.target)
        if c is not None:
            c.inside = e.actor

    def _on_engulfed(self, e: ev.Engulfed) -> None:
        for tid in e.targets:
            c = self.creatures.get(tid)
            if c is not None:
                c.inside = e.actor

    def _on_came_out(self, e: ev.CameOut) -> None:
        c = self.creatures.get(e.actor)
        if c is not None:
            c.inside = None
            if e.squares:
                c.squares = [_pos(s) for s in e.squares]
                c.pos = c.squares[0]

    def _on_swarm_shape(self, e: ev.SwarmShape) -> None:
        c = self.creatures.get(e.actor)
        if c is not None and e.squares:
            c.squares = [_pos(s) for s in e.squares]

    def _on_damage(self, e: ev.Damage) -> None:
        c = self.creatures.get(e.target)
        if c is not None and not e.nonlethal:
            c.hp = int(e.hp_after)

    def _on_healed(self, e: ev.Healed) -> None:
        c = self.creatures.get(e.target)
        if c is not None:
            c.hp = int(e.hp_after)

    def _on_dm(self, e: ev.DmEdit) -> None:
        """The DM's hand: hit points set, a token put down elsewhere (conditions come as their own events)."""
        c = self.creatures.get(e.target)
        if c is None:
            return
        if e.change == "hp" and "hp" in e.after:
            c.hp = int(e.after["hp"])
        elif e.change == "move" and e.after.get("squares"):
            c.squares = [_pos(s) for s in e.after["squares"]]
            c.pos = _pos(e.after["at"])

    def _on_spell(self, e: ev.SpellCast) -> None:
        """Light and darkness change the picture's light (RULES §9.1); grease, a web, a stinking
        cloud lie on the floor until their ``zone_end`` (docs/rules.md §8.1, §8.3, §8.4)."""
        if not e.lost and e.spell in ZONE_SPELLS:
            sq = tuple(_pos(q) for q in e.squares)
            self.zones[(e.spell, e.actor, sq)] = sq
        if e.lost or e.spell not in ("light", "darkness"):
            return
        if e.spell == "light":
            for t in e.targets:
                self.spell_lit[t] = "light-spell"
            self.dropped_lights.extend(("light-spell", tuple(sq)) for sq in e.squares)
        else:
            self.darkness.extend(tuple(sq) for sq in e.squares)

    def _on_condition(self, e: ev.Condition) -> None:
        c = self.creatures.get(e.target)
        if c is None:
            return
        if e.active:
            c.conditions.add(e.condition)
        else:
            c.conditions.discard(e.condition)
        if e.condition == "prone":
            c.prone = bool(e.active)
        if e.condition == "enlarged" and e.detail.get("squares"):   # enlarge person: its new space (§8.5)
            c.squares = [_pos(q) for q in e.detail["squares"]]
            c.size = str(e.detail.get("size", c.size))
            c.k = Size.parse(c.size).squares
        if e.condition == "grappled":   # detail "with": everyone it grapples now (docs/rules.md §11)
            c.grapple_with = tuple(e.detail.get("with", ())) if e.active else ()
        if e.condition == "stuck" and "strand_damage" not in e.detail:   # a roper's strand (§11.15): its cause
            c.stuck_to = e.cause if e.active else None   # is the roper (a cut that leaves it names the cutter)

    def _on_died(self, e: ev.Died) -> None:
        c = self.creatures.get(e.target)
        if c is not None:
            c.conditions.add("dead")
            c.conditions.discard("dying")

    def _on_dispersed(self, e: ev.Dispersed) -> None:
        c = self.creatures.get(e.target)
        if c is not None:
            c.conditions.add("dispersed")

    def _on_split(self, e: ev.Split) -> None:
        """An ooze split in two (docs/rules.md §11.14): the original's hit points halve and a new
        token joins, labelled after it ("Ochre jelly (a)"), right after it in the order."""
        c = self.creatures.get(e.target)
        d = e.creature
        if c is None or e.new in self.creatures:
            return
        c.hp = int(e.hp)
        c.max_hp = int(d["max_hp"])
        squares = [_pos(s) for s in d["squares"]]
        suffix = e.new[len(e.target) + 1:] if e.new.startswith(e.target + ".") else e.new
        label = f"{c.label} ({suffix})"
        self.creatures[e.new] = CreatureView(
            id=e.new, name=d["name"], label=label, team=c.team, template=c.template, size=c.size, k=c.k,
            swarm=c.swarm, component=c.component, kind=c.kind, type=c.type, speed=int(d.get("speed", c.speed)),
            squares=squares, pos=squares[0] if squares else c.pos, hp=int(d["hp"]), max_hp=int(d["max_hp"]),
            prone=bool(d.get("prone", False)), wielding=d.get("wielding"), conditions=set(c.conditions) - {"grappled", "pinned"},
            initiative=c.initiative, team_index=c.team_index)
        self.narrator.names[e.new] = label
        i = self.order.index(e.target) + 1 if e.target in self.order else len(self.order)
        self.order.insert(i, e.new)

    def _on_zone_end(self, e: ev.ZoneEnded) -> None:
        self.zones.pop((e.spell, e.owner, tuple(_pos(q) for q in e.squares)), None)

    def _on_splash(self, e: ev.Splash) -> None:
        if "lantern" in e.item:
            self.lights_thrown.setdefault(e.actor, set()).add(e.item)

    def _on_item(self, e: ev.ActionTaken) -> None:
        c = self.creatures.get(e.actor)
        if c is None:
            return
        if e.action == "fizzle" and "lantern" in e.item:  # it was not lit: the light it holds stays
            self.lights_thrown.get(e.actor, set()).discard(e.item)
        if e.action == "light" and e.item == "torch":  # a lit lantern is not taken in hand as a weapon
            c.torch_lit = True
            c.wielding = "torch"
        elif e.action == "light":
            self.lights_held[c.id] = e.item  # it sheds light (RULES §9.1)
        elif e.action == "douse":
            if e.item == "torch":
                c.torch_lit = False
            else:
                self.lights_held[c.id] = None
        elif e.action == "drop_light":
            if e.item == "torch" and c.torch_lit:
                c.torch_lit = False
                if c.wielding == "torch":
                    c.wielding = None
            self.dropped_lights.append((e.item, tuple(c.pos)))
            if e.item != "torch":
                self.lights_held[c.id] = None
                self.lights_dropped_by.add(c.id)  # its lantern or sunrod from the file is on the floor
        elif e.action == "draw":
            c.wielding = e.item
        elif e.action == "last_thrown":
            if c.wielding is not None and (c.wielding == e.item or c.wielding.startswith(e.item + " (")):
                c.wielding = None  # the last one left its hand
        elif e.action == "drop_prone":
            c.prone = True
        elif e.action == "stand_up":
            c.prone = False
        elif e.action == "armor_off":
            c.armor_off = True
        elif e.action == "armor_on":
            c.armor_off = False

    def _on_armor(self, e: ev.ArmorWork) -> None:
        c = self.creatures.get(e.actor)
        if c is None or e.stage == "help":
            return
        if e.stage == "done":
            c.armor_off, c.armor_progress = True, 0.0
        elif e.stage == "stopped":
            c.armor_progress = 0.0
        else:
            c.armor_progress = max(0.01, (e.rounds - e.left) / max(1, e.rounds))

    def _on_encounter_end(self, e: ev.EncounterEnd) -> None:
        self.finished = True
        self.winner = e.winner
        self.end_reason = e.reason
        self.acting = False


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _tone(e: ev.Event) -> str:
    t = e.type
    if t == "attack":
        return "crit" if e.critical else ("hit" if e.hit else "miss")
    if t == "damage":
        return "damage" if e.amount > 0 else "miss"
    if t == "healed":
        return "heal"
    if t in ("save", "check"):
        return "good" if e.success else "bad"
    if t in ("died", "dispersed"):
        return "bad"
    if t == "split":
        return "bad"
    if t == "round_start":
        return "round"
    if t == "encounter_end":
        return "end"
    if t == "refused":
        return "miss"
    return ""
