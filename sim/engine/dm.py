"""The DM's hand: changes made outside the rules in ``cavesim play`` (issue 20 item 4).

A DM running a game fixes what the table says happened: a hit point total, a condition added or
cleared, a token moved to another square without spending an action, a creature's turn passed.
Each is one function of the world that changes it and emits a ``dm`` event
(:class:`~sim.engine.events.DmEdit`: which creature, what changed, ``before`` and ``after``), followed by
the events the change brings with it by the rules (a creature set to -10 hit points dies, one
set to 0 is disabled; RULES §5.5). A refusal is a value, :class:`~sim.engine.actions.Impossible`,
with the reason.

"Legal square" is what an encounter file may place a creature on
(:func:`sim.engine.setup.placement_problem`, the rule of ``check_placement``): on the map, not
rock, where its body fits, not on another creature (swarms and Tiny creatures excepted).

>>> sorted(DM_CONDITIONS)[:3]
['asleep', 'blessed', 'burning']
"""

from __future__ import annotations

from sim.base.coords import Pos
from sim.engine import damage
from sim.engine.actions import Done, Impossible
from sim.engine.casting import spell_data
from sim.engine.conditions import add, end
from sim.engine.creature import Creature
from sim.engine.events import Condition, DmEdit
from sim.engine.setup import placement_problem
from sim.engine.world import World
from sim.rules.sizes import Size
from sim.rules.weapons import combat_modifier

#: The conditions the DM may add or clear by hand (the others follow hit points: disabled, dying,
#: stable, dead, unconscious, dispersed; set the hit points instead).
DM_CONDITIONS = frozenset({"prone", "nauseated", "asleep", "blessed", "burning", "staggered", "flat_footed"})


def bless_rounds() -> int:
    """Rounds of a bless the DM adds by hand: a caster of level 1's (1 minute, RULES §8), the
    ``duration_rounds_per_level`` of ``[spell.bless]`` in sim/data/spells.toml."""
    return int(spell_data()["bless"]["duration_rounds_per_level"])


def _creature(w: World, cid: str) -> Creature | Impossible:
    c = w.creatures.get(cid)
    if c is None:
        return Impossible(f"no creature {cid!r} in this fight")
    if not c.alive:
        return Impossible(f"{c.name} is {'dispersed' if c.is_swarm else 'dead'}: the DM's hand moves the living")
    return c


def _done(w: World, mark: int) -> Done:
    return Done(tuple(w.events[mark:]))


def set_hp(w: World, cid: str, hp: int) -> Done | Impossible:
    """``cid``'s hit points set to ``hp`` (from -10, dead, to its maximum); its state follows."""
    c = _creature(w, cid)
    if isinstance(c, Impossible):
        return c
    dead_at = int(combat_modifier("hit_points", "dead"))
    low = 0 if c.is_swarm else dead_at
    if not low <= hp <= c.max_hp:
        return Impossible(f"{c.name}'s hit points go from {low} to {c.max_hp}, not {hp}")
    if hp == c.hp:
        return Impossible(f"{c.name} has {hp} hit points already")
    mark = len(w.events)
    before = c.hp
    c.hp = hp
    w.emit(DmEdit(round=w.round, target=c.id, change="hp", before={"hp": before}, after={"hp": hp}))
    if hp > before:  # better: what healing clears (RULES §5.5)
        for cond in ("dying", "stable", "disabled"):
            if cond in c.conditions and (hp > 0 or (cond == "dying" and hp >= 0)):
                damage.clear_status(w, c, cond, "dm")
    damage.update_state(w, c)
    return _done(w, mark)


def set_condition(w: World, cid: str, condition: str, active: bool) -> Done | Impossible:
    """Add (``active``) or clear one of :data:`DM_CONDITIONS` on ``cid``."""
    c = _creature(w, cid)
    if isinstance(c, Impossible):
        return c
    if condition not in DM_CONDITIONS:
        return Impossible(f"the DM's hand adds or clears {', '.join(sorted(DM_CONDITIONS))}, not {condition!r} "
                          "(dying, disabled, unconscious and dead follow the hit points: set those instead)")
    has = c.prone if condition == "prone" else (c.flat_footed if condition == "flat_footed" else condition in c.conditions)
    if has == active:
        return Impossible(f"{c.name} is {'already' if active else 'not'} {condition.replace('_', ' ')}")
    if condition == "prone" and active and (c.is_swarm or c.flies):
        return Impossible(f"{c.name} {'is a swarm' if c.is_swarm else 'flies'}: it cannot lie prone")
    mark = len(w.events)
    w.emit(DmEdit(round=w.round, target=c.id, change="condition", before={condition: has}, after={condition: active}))
    if condition == "prone":
        c.prone = active
        w.emit(Condition(round=w.round, target=c.id, condition="prone", active=active, cause="dm"))
    elif condition == "flat_footed":
        c.flat_footed = active
        w.emit(Condition(round=w.round, target=c.id, condition="flat_footed", active=active, cause="dm"))
    elif condition in ("blessed", "asleep"):   # effects: asleep until woken (a wound, or the DM)
        if active:
            add(w, c, condition, None, w.round + bless_rounds() if condition == "blessed" else None, cause="dm")
        else:
            end(w, c, condition, "dm")
    else:   # the plain statuses
        (damage.set_status if active else damage.clear_status)(w, c, condition, "dm")
    return _done(w, mark)


def legal_square(w: World, c: Creature, at: Pos) -> str | None:
    """Why ``c`` may not stand at ``at`` now, or None (:func:`~sim.engine.setup.placement_problem`
    against the other living creatures)."""
    taken = {}
    if not (c.is_swarm or c.size <= Size.TINY):
        for o in w.creatures.values():
            if o is not c and o.alive and not (o.is_swarm or o.size <= Size.TINY):
                for sq in o.squares:
                    taken[sq] = o.id
    problem, _ = placement_problem(w.grid, c, at, taken)
    return problem


def move_token(w: World, cid: str, at: Pos) -> Done | Impossible:
    """``cid`` put down at ``at`` (its reference square), spending no action and provoking nothing."""
    c = _creature(w, cid)
    if isinstance(c, Impossible):
        return c
    inside = w.swallowed.inside.get(c.id)
    if inside is not None or c.id in w.swallowed.inside.values():   # swallowed or engulfed, or the host of one (§11.13)
        who = w.creatures[inside].name if inside is not None else None
        return Impossible(f"{c.name} is inside {who}: it comes out by cutting or escaping (docs/rules.md §11.13)"
                          if who else f"{c.name} holds a creature inside it: let it out first (docs/rules.md §11.13)")
    at = (int(at[0]), int(at[1]))
    if at == tuple(c.pos):
        return Impossible(f"{c.name} is at ({at[0]}, {at[1]}) already")
    problem = legal_square(w, c, at)
    if problem:
        return Impossible(f"{c.name} cannot be put there: {problem}")
    mark = len(w.events)
    before = {"at": list(c.pos), "squares": [list(s) for s in c.squares]}
    c.trail = []
    w.place(c, at)
    w.emit(DmEdit(round=w.round, target=c.id, change="move", before=before,
                  after={"at": list(c.pos), "squares": [list(s) for s in c.squares]}))
    return _done(w, mark)


def pass_turn(w: World) -> Done | Impossible:
    """The current creature's turn ends now, whatever it has left (the caller ends the turn)."""
    c = w.current()
    t = w.turn
    if c is None or t is None:
        return Impossible("no creature is acting")
    if t.ended:
        return Impossible(f"{c.name}'s turn is over already")
    mark = len(w.events)
    w.emit(DmEdit(round=w.round, target=c.id, change="pass", before={"standard": t.standard, "move": t.move},
                  after={"standard": False, "move": False}))
    t.ended = True
    return _done(w, mark)
