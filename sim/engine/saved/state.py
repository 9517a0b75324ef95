"""What a saved fight may hold: the bounds of a state the fight can be in, and the check of a
loaded state against them (issue 34 item 13). :mod:`sim.engine.saved.snapshot` decodes a file into the
engine's records (only its declared types); this module says whether what it built is a fight
that could have been played: hit points by the dead/dying model, the encounter's own creatures
with their bodies' footprints, a round within the cap, events that begin and end as a fight's do.
Every problem is a (key, what) pair; the reader turns the first into one message.
"""

from __future__ import annotations

import functools
import types
import typing
from typing import Any

from sim.base.coords import Pos
from sim.base.errors import shorten, shorten_text
from sim.engine import split
from sim.engine.actions import Turn
from sim.engine.creature import Creature
from sim.engine.effects import KINDS, STATUSES
from sim.engine.encounter import Encounter
from sim.engine.events import Event
from sim.engine.parts import Zone
from sim.rules.statblocks.types import StatBlock
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import SETTINGS_DEFAULTS
from sim.terrain.grid import CaveGrid
from sim.terrain.vision.light import Light

# -- bounds of a state the fight can be in (checked before any work: issue 34 item 13) --------------------------

#: The largest whole number a snapshot holds outside the random generator's state (a seed's range).
MAX_WHOLE = 2 ** 64 - 1
#: A seed (as :data:`sim.scenario.files.MAX_SEED`).
MAX_SEED = 2 ** 64 - 1
#: The latest round cap (as :data:`sim.scenario.files.MAX_ROUND_CAP`, what an encounter file may set).
MAX_ROUND_CAP = 10_000
#: Hit points: the most a creature may have (and the furthest below 0 a dead one may lie).
MAX_HP = 1_000_000
#: The largest number one field of a record holds (hit points, dice, feet, rounds, counts).
MAX_FIELD = 1_000_000
#: Creatures in a fight (the encounter's, at most 1000, and the halves split oozes make).
MAX_CREATURES = 10_000
#: Events of a fight so far (a 64-MB file holds fewer).
MAX_EVENTS = 2_000_000
#: Squares a swarm covers (sim.terrain.movement.shapes: 4 contiguous squares, or fewer where it is squeezed).
SWARM_SQUARES = 4
#: The characters of a creature id, a team or a path in a snapshot.
MAX_NAME_CHARS = 4096
#: The longest light range (feet) a saved light may have.
MAX_LIGHT_FT = 10_000
#: The declared type of each of the fight's own fields a snapshot restores (the creatures and the
#: world's parts, :func:`sim.engine.registry.parts`, aside), checked on loading, containers included.
FIGHT_FIELDS: dict[str, Any] = {
    "settings": dict[str, Any], "seed": int, "round": int, "order": list[str], "turn_index": int,
    "turn": Turn | None, "winner": str | None, "finished": bool, "end_reason": str, "turn_mark": int}


def _whole(v: Any, low: int, high: int) -> bool:
    """``v`` is a whole number (not a bool) from ``low`` to ``high``."""
    return type(v) is int and low <= v <= high


def _parent(cid: str, originals: dict[str, Creature]) -> Creature | None:
    """The encounter's creature that ``cid`` split off from (``ochre-jelly.a``, ``ochre-jelly.a.b``:
    docs/rules.md §11.14), if it is one that splits; else None."""
    root = split.origin(cid, originals)
    c = originals.get(root) if root is not None and root != cid else None
    return c if c is not None and c.block.defenses.split else None


def _is_square(sq: Any) -> bool:
    return isinstance(sq, tuple) and len(sq) == 2 and all(type(a) is int for a in sq)


def _fits(v: Any, hint: Any) -> bool:
    """``v`` is of the declared type ``hint`` (a field's annotation: ``int``, ``str | None``,
    ``list[Pos]``, ``dict[int, list[str]]``, ``tuple[int, str, str]``...), containers included;
    bool is no int, a square (:class:`~sim.base.coords.Pos`) is two whole numbers."""
    if hint is Any:
        return True
    if hint is Pos:
        return _is_square(v)
    if hint is type(None):
        return v is None
    if hint in (int, bool, str):
        return type(v) is hint
    if hint is float:
        return type(v) in (int, float)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(v, a) for a in args)
    if origin in (list, set, frozenset):
        return type(v) is origin and all(_fits(x, args[0]) for x in v)
    if origin is dict:
        return type(v) is dict and all(_fits(a, args[0]) and _fits(b, args[1]) for a, b in v.items())
    if origin is tuple:
        if not isinstance(v, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(x, args[0]) for x in v)
        return len(v) == len(args) and all(_fits(x, a) for x, a in zip(v, args))
    return isinstance(v, origin or hint)


#: Builtin names an annotation means even where a record has a field of that name (Abilities.int).
_BUILTINS = {"int": int, "str": str, "float": float, "bool": bool, "dict": dict, "list": list, "set": set,
             "tuple": tuple, "frozenset": frozenset}


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """The declared type of each field of the record class ``cls`` (one of the tables')."""
    return typing.get_type_hints(cls, localns=_BUILTINS)


def _misfit(obj: Any, cls: type) -> tuple[str, Any] | None:
    """The first field of the record ``obj`` whose value is not of its declared type, and that value."""
    for name, hint in _hints(cls).items():
        v = getattr(obj, name, None)
        if not _fits(v, hint):
            return name, v
    return None


def check_state(w: Encounter, originals: dict[str, Creature] | None = None) -> list[tuple[str, str]]:
    """(key, problem) for each thing in a loaded fight it cannot be in (``originals``: the
    encounter's own creatures, fresh, that the saved ones must be).

    The hit points follow the engine's dead/dying model (RULES §5.5, :func:`sim.engine.damage.
    update_state`): a creature at -10 hit points or fewer is dead; below 0 it is dying or stable;
    a swarm at 0 or fewer is dispersed. So a creature that is neither dead nor dispersed must have
    more than -10 hit points (a swarm more than 0), and, below 0, be dying or stable; a dead one
    may lie at any total down to -:data:`MAX_HP` (the blow that killed it may have gone far
    below -10). Hit points never exceed ``max_hp``, nor ``max_hp`` the stat block's (a rage
    raises both). Each creature is the encounter's (same id, team, template and name; a split
    ooze's half is its parent's), its statuses and effects are the engine's
    (:data:`~sim.engine.effects.STATUSES`, ``sim/data/effects.toml``), its squares are its body's
    footprint (a k x k block at ``pos``, or fewer when squeezed into a line; a swarm 1 to 4 squares). The round is within the round cap, a finished
    fight says why it ended and its events end with ``encounter_end``, an unfinished one does not."""
    originals = originals or {}
    for name, hint in FIGHT_FIELDS.items():
        if not _fits(getattr(w, name), hint):
            return [(f"state.{name}", f"{shorten(getattr(w, name))} is not a {hint}")]
    for p in type(w).PARTS:
        name, cls = p.name, p.record
        part = getattr(w, name)
        if type(part) is not cls:
            return [(f"state.{name}", f"is not the world's {name} part")]
        misfit = _misfit(part, cls)
        if misfit is not None:
            return [(f"state.{name}.{misfit[0]}", f"{shorten(misfit[1])} is not a {_hints(cls)[misfit[0]]}")]
    bad, fatal = _check_settings(w)
    if fatal:
        return bad
    dead_at = int(combat_modifier("hit_points", "dead"))
    for cid, c in w.creatures.items():
        bad += _check_creature(w, cid, c, originals, dead_at)
    return bad + _check_world(w) + _check_events(w) + _check_rest(w)


def _check_settings(w: Encounter) -> tuple[list[tuple[str, str]], bool]:
    """The fight's settings and seed: (problems, whether nothing after them can be checked)."""
    bad: list[tuple[str, str]] = []
    settings = w.settings
    if not isinstance(settings, dict) or set(settings) != set(SETTINGS_DEFAULTS):
        extra = sorted(set(settings) ^ set(SETTINGS_DEFAULTS)) if isinstance(settings, dict) else ["settings"]
        return [("state.settings", f"{shorten(extra[0])}: not the settings of a fight "
                                   f"({', '.join(sorted(SETTINGS_DEFAULTS))})")], True
    for key, default in SETTINGS_DEFAULTS.items():
        if type(settings[key]) is not type(default):
            bad.append((f"state.settings.{key}", f"{shorten(settings[key])} is not a {type(default).__name__}"))
    if bad:
        return bad, True
    if not _whole(settings["round_cap"], 0, MAX_ROUND_CAP):
        bad.append(("state.settings.round_cap", f"{shorten(settings['round_cap'])}: a round cap is a whole number "
                                                f"from 0 to {MAX_ROUND_CAP}"))
    for key, allowed in (("light_sensitivity", ("daylight", "bright")), ("swarm_shape", ("any", "square"))):
        if settings[key] not in allowed:
            bad.append((f"state.settings.{key}", f"{shorten(settings[key])} is not one of {', '.join(allowed)}"))
    if not _whole(w.seed, 0, MAX_SEED):
        bad.append(("state.seed", f"{shorten(w.seed)}: a seed is a whole number from 0 to 2^64 - 1"))
    return bad, False


def _check_creature(w: Encounter, cid: str, c: Creature, originals: dict[str, Creature],
                    dead_at: int) -> list[tuple[str, str]]:
    """One creature: its record, hit points and conditions, then its squares, then its grapples."""
    bad: list[tuple[str, str]] = []
    k = f"state.creatures.{cid}"
    if _creature_record(cid, c, k, originals, dead_at, bad):
        alive = not c.conditions & {"dead", "dispersed"}
        if _creature_squares(w.grid, c, k, alive, bad):
            _creature_grapples(w, cid, c, k, bad)
    return bad


def _creature_record(cid: str, c: Creature, k: str, originals: dict[str, Creature], dead_at: int,
                     bad: list[tuple[str, str]]) -> bool:
    """The creature is the encounter's, with possible hit points and known conditions (problems
    added to ``bad``); False when the rest of it cannot be checked."""
    if len(cid) > MAX_NAME_CHARS:
        bad.append((k, f"a creature id of more than {MAX_NAME_CHARS} characters"))
        return False
    misfit = _misfit(c, Creature)
    if misfit is not None:
        bad.append((f"{k}.{misfit[0]}", f"{shorten(misfit[1])} is not a {_hints(Creature)[misfit[0]]}"))
        return False
    if c.id != cid:
        bad.append((f"{k}.id", f"{shorten(c.id)} under the id {shorten(cid)}"))
        return False
    model = originals.get(cid) or _parent(cid, originals)
    for name in ("team", "template", "name"):
        if model is not None and getattr(c, name) != getattr(model, name):
            bad.append((f"{k}.{name}", f"{shorten(getattr(c, name))}, but the encounter has "
                                       f"{shorten(getattr(model, name))}"))
    if not isinstance(c.block, StatBlock) or not isinstance(c.base_block, StatBlock):
        bad.append((f"{k}.block", "is not a stat block"))
        return False
    if not _whole(c.max_hp, 1, MAX_HP):
        bad.append((f"{k}.max_hp", f"{shorten(c.max_hp)}: a creature has from 1 to {MAX_HP} hit points"))
        return False
    if not _whole(c.hp, -MAX_HP, MAX_HP):
        bad.append((f"{k}.hp", f"{shorten(c.hp)}: hit points are a whole number from -{MAX_HP} to {MAX_HP}"))
        return False
    if type(c.block.hp) is int and c.max_hp > max(c.block.hp, 1):
        bad.append((f"{k}.max_hp", f"{c.max_hp} is more than its stat block's {c.block.hp}"))
    if c.hp > c.max_hp:
        bad.append((f"{k}.hp", f"{c.hp} is more than its max_hp {c.max_hp}"))
    if not _whole(c.nonlethal, 0, MAX_HP):
        bad.append((f"{k}.nonlethal", f"{shorten(c.nonlethal)}: nonlethal damage is a whole number from 0 to "
                                      f"{MAX_HP}"))
    unknown = sorted(c.statuses - STATUSES)
    if unknown:
        bad.append((f"{k}.statuses", f"{shorten(unknown[0])} is not a status of this cavesim (the "
                                     "engine's are listed in sim.engine.effects.STATUSES)"))
        return False
    for i, e in enumerate(c.effects):
        if e.kind not in KINDS or [n for n, _ in e.data] != list(KINDS[e.kind].data):
            bad.append((f"{k}.effects[{i}]", f"{shorten(e.kind)} is not an effect of this cavesim with its data "
                                             "(the kinds are declared in sim/data/effects.toml)"))
            return False
    conditions = c.conditions
    alive = not conditions & {"dead", "dispersed"}
    if alive and c.is_swarm and c.hp <= 0:
        bad.append((f"{k}.hp", f"{c.hp}: a swarm at 0 hit points or fewer is dispersed (RULES §4.5), but it is not"))
    elif alive and not c.is_swarm and c.hp <= dead_at:
        bad.append((f"{k}.hp", f"{c.hp}: a creature at {dead_at} hit points or fewer is dead (RULES §5.5), "
                               "but it is not"))
    elif alive and not c.is_swarm and c.hp < 0 and not conditions & {"dying", "stable"}:
        bad.append((f"{k}.hp", f"{c.hp}: a creature below 0 hit points is dying or stable (RULES §5.5), "
                               "but it is neither"))
    return True


def _creature_squares(grid: CaveGrid, c: Creature, k: str, alive: bool, bad: list[tuple[str, str]]) -> bool:
    """Its counts, and its squares: on the map, off the rock while alive, its body's footprint
    (problems added to ``bad``); False when its grapples cannot be checked."""
    for name in ("items", "thrown_left", "fused"):
        for item, n in getattr(c, name).items():
            if not _whole(n, 0, MAX_WHOLE):
                bad.append((f"{k}.{name}.{item}", f"{shorten(n)}: a count is a whole number >= 0"))
    squares = c.squares
    most = SWARM_SQUARES if c.is_swarm else c.k * c.k
    if not 1 <= len(squares) <= most:
        bad.append((f"{k}.squares", f"{len(squares)} squares; its body covers 1 to {most}"))
        return False
    placed = True
    for key, sq in [("pos", c.pos)] + [(f"squares[{i}]", s) for i, s in enumerate(squares)]:
        if not grid.in_bounds(sq):
            bad.append((f"{k}.{key}", f"{tuple(sq)} is off the map ({grid.cols}x{grid.rows})"))
            placed = False
        elif alive and grid.rock[sq[1], sq[0]]:
            bad.append((f"{k}.{key}", f"{tuple(sq)} is solid rock"))
    if not placed:
        return False
    if len(set(squares)) != len(squares):
        bad.append((f"{k}.squares", "names a square twice"))
    elif not c.is_swarm:
        x, y = c.pos
        block = {(x + i, y + j) for j in range(c.k) for i in range(c.k)}
        reach = max(max(abs(sx - x), abs(sy - y)) for sx, sy in squares)
        if c.pos not in squares or reach >= c.k or (len(squares) == c.k * c.k and set(squares) != block):
            bad.append((f"{k}.squares", f"{shorten(squares)} is not the footprint of a {c.size.key} body at "
                                        f"{tuple(c.pos)}"))
    return True


def _creature_grapples(w: Encounter, cid: str, c: Creature, k: str, bad: list[tuple[str, str]]) -> None:
    """A grapple is both ways, and a pin is a grapple's (problems added to ``bad``)."""
    for i, oid in enumerate(c.grapple_with):   # a grapple is both ways (docs/rules.md §11)
        o = w.creatures.get(oid) if isinstance(oid, str) else None
        if o is None or o is c:
            bad.append((f"{k}.grapple_with[{i}]", f"{shorten(oid)} is no other creature of this fight"))
        elif cid not in o.grapple_with and w.swallowed.inside.get(cid) != oid:
            bad.append((f"{k}.grapple_with[{i}]", f"{oid!r} is not grappling {cid!r} back"))
    if c.pinned_by is not None and c.pinned_by not in c.grapple_with:
        bad.append((f"{k}.pinned_by", f"{shorten(c.pinned_by)} pins it but is not grappling it"))


def _check_world(w: Encounter) -> list[tuple[str, str]]:
    """Who is inside whom, the initiative order, the round and the turn, the zones."""
    bad: list[tuple[str, str]] = []
    grid = w.grid
    ids = set(w.creatures)
    settings = w.settings
    for vid, hid in w.swallowed.inside.items():   # swallowed or engulfed (docs/rules.md §11.13)
        if vid not in ids or hid not in ids or vid == hid:
            bad.append((f"state.swallowed.inside.{vid}", f"{shorten(vid)} inside {shorten(hid)}: both must be creatures of "
                                               "this fight"))
    for vid, n in w.swallowed.gizzard.items():
        if vid not in w.swallowed.inside or not _whole(n, 0, MAX_HP):
            bad.append((f"state.swallowed.gizzard.{vid}", f"{shorten(n)}: damage cut into a gizzard by a creature inside it"))
    if w.order and sorted(w.order) != sorted(ids):
        bad.append(("state.order", shorten_text(f"the initiative order {w.order} does not name each creature once")))
    if not _whole(w.round, 0, MAX_ROUND_CAP + 1):
        bad.append(("state.round", f"{shorten(w.round)}: the round is a whole number from 0 to {MAX_ROUND_CAP + 1}"))
    elif _whole(settings["round_cap"], 0, MAX_ROUND_CAP) and w.round > settings["round_cap"] + (1 if w.finished else 0):
        bad.append(("state.round", f"{w.round} is past the round cap ({settings['round_cap']}), and the fight "
                                   f"{'ended then' if w.finished else 'is not over'}"))
    if not _whole(w.turn_index, -1, max(len(w.order) - 1, -1)):
        bad.append(("state.turn_index", f"{shorten(w.turn_index)} is not a place in the initiative order"))
    elif w.turn is not None:
        if not isinstance(w.turn, Turn) or _misfit(w.turn, Turn) is not None or w.turn.actor not in ids:
            bad.append(("state.turn", "is not the turn of a creature of this fight"))
        elif not (0 <= w.turn_index < len(w.order)):
            bad.append(("state.turn_index", f"{w.turn_index} is not a place in the initiative order"))
        elif w.order[w.turn_index] != w.turn.actor:
            bad.append(("state.turn.actor", f"{w.turn.actor!r} acts, but the initiative order has "
                                            f"{w.order[w.turn_index]!r} there"))
    for i, z in enumerate(w.magic.zones):
        sqs = getattr(z, "squares", None)
        if not isinstance(z, Zone) or _misfit(z, Zone) is not None:
            bad.append((f"state.magic.zones[{i}]", "is not a spell's zone"))
        elif z.owner not in ids:
            bad.append((f"state.magic.zones[{i}].owner", f"{shorten(z.owner)} is no creature of this fight"))
        else:
            off = [q for q in sqs if not (_is_square(q) and grid.in_bounds(q))]
            if off:
                bad.append((f"state.magic.zones[{i}].squares", f"{shorten(off[0])} is not a square of the map"))
    return bad


def _check_events(w: Encounter) -> list[tuple[str, str]]:
    """The events: each an event, the first encounter_start, a finished fight's last encounter_end."""
    bad: list[tuple[str, str]] = []
    events = w.events
    wrong = next((i for i, e in enumerate(events) if not isinstance(e, Event)), None)
    if wrong is not None:
        bad.append((f"state.events[{wrong}]", "is not an event"))
    elif events and events[0].type != "encounter_start":
        bad.append(("state.events[0]", "the events must start with encounter_start"))
    elif not _whole(w.turn_mark, 0, len(events)):
        bad.append(("state.turn_mark", f"{shorten(w.turn_mark)} is not a place in the events"))
    else:
        ended = bool(events) and events[-1].type == "encounter_end"
        if w.finished is not ended or (w.end_reason in ("victory", "round_cap")) is not w.finished:
            bad.append(("state.finished", f"{w.finished}, but the fight's end ({shorten(w.end_reason)}) and its last "
                                          "event say otherwise: a finished fight ends with encounter_end and says why"))
    return bad


def _check_rest(w: Encounter) -> list[tuple[str, str]]:
    """Damage notes, lights on the map, a move under way, grabs pending, the winner."""
    bad: list[tuple[str, str]] = []
    grid = w.grid
    ids = set(w.creatures)
    if not _whole(w.casting.wounds, 0, MAX_WHOLE):
        bad.append(("state.casting.wounds", f"{shorten(w.casting.wounds)}: a whole number >= 0"))
    for i, light in enumerate(w.floor.lights + w.magic.lights):
        key = f"state.floor.lights[{i}]" if i < len(w.floor.lights) else \
            f"state.magic.lights[{i - len(w.floor.lights)}]"
        misfit = _misfit(light, type(light))
        if misfit is not None:
            bad.append((f"{key}.{misfit[0]}", f"{shorten(misfit[1])} is not a {_hints(type(light))[misfit[0]]}"))
        elif not grid.in_bounds(light.at):
            bad.append((f"{key}.at", f"{light.at} is off the map ({grid.cols}x{grid.rows})"))
        elif isinstance(light, Light) and not (1 <= light.k <= 8 and 0 <= light.bright_ft <= MAX_LIGHT_FT
                                               and 0 <= light.shadowy_ft <= MAX_LIGHT_FT):
            bad.append((key, f"not a light a fight has (k from 1 to 8, ranges from 0 to {MAX_LIGHT_FT} ft)"))
    pending = w.movement.pending
    if pending is not None and w.creatures.get(pending[0].id) is not pending[0]:
        bad.append(("state.movement.pending", "is not a move under way (mover, squares, action)"))
    for i, grab in enumerate(w.grabs.pending):
        if grab[0] not in ids or grab[1] not in ids:
            bad.append((f"state.grabs.pending[{i}]", f"{shorten(grab)}: a grab of creatures of this fight"))
    if w.winner is not None and w.winner not in {c.team for c in w.creatures.values()}:
        bad.append(("state.winner", f"{shorten(w.winner)} is no team of this fight"))
    return bad
