"""Starting and ending a creature's lasting effects and setting its plain statuses (issue 33
item 1): effects started (:func:`add`) and ended (:func:`end`), statuses set and cleared with
their event (:func:`set_status`, :func:`clear_status`; re-exported by :mod:`sim.engine.damage`),
and the tick (:func:`tick`) at the turn's declared moments (``sim/data/effects.toml``: ``moments``).

A creature's conditions are derived (``Creature.conditions``: its effects' and its statuses'):
a :class:`~sim.engine.events.Condition` event says when one starts or stops showing, so one shown
by two sources (hold person's paralysis and a rider's) starts once and ends once, when the last
of them ends.

:func:`tick` ends the effects whose time is up at one of the turn's moments, in the table's order
within a moment, rolling the saves the kinds declare. The moments sit where each expiry has always
been in the turn (``sim.engine.encounter``), so the events and the dice come in the same order as
before: the start of the turn has several because other rules run between today's expiries (the
stinking cloud, spell-like effects, dying, poison); the registry of the turn's mechanics may merge
them. The records and their kinds are :mod:`sim.engine.effects`.
"""

from __future__ import annotations

from typing import Callable, Iterable

from sim.engine.checks import roll_save
from sim.engine.creature import Creature
from sim.engine.effects import CONDITIONS, KINDS, MOMENTS, STATUSES, TABLE, Effect, drop, find, make, put, shown
from sim.engine.events import Condition
from sim.engine.mechanics import Mechanic
from sim.engine.world import World

#: The code that ends a kind declared with ``hook = true`` (:func:`on_end`).
_HOOKS: dict[str, Callable[[World, Creature, Effect, str], None]] = {}


def on_end(kind: str) -> Callable:
    """Register the end of ``kind`` (a decorator): ``fn(w, c, effect, cause)`` undoes what more
    its effect did (a rage's hit points, enlarge's size) and announces its condition's end
    (:func:`announce_end`, where its event belongs); only for a kind declared ``hook = true``."""
    if kind not in KINDS or not KINDS[kind].hook:
        raise ValueError(f"{TABLE}: [effect.{kind}] does not declare hook = true")

    def register(fn: Callable[[World, Creature, Effect, str], None]) -> Callable:
        _HOOKS[kind] = fn
        return fn
    return register


def hooks_missing() -> list[str]:
    """The kinds declared with ``hook = true`` whose end no module registered."""
    return [k for k, spec in KINDS.items() if spec.hook and k not in _HOOKS]


# -- statuses ---------------------------------------------------------------------------------------------------

def set_status(w: World, c: Creature, name: str, cause: str = "", detail: dict | None = None) -> None:
    """Set ``c``'s status ``name`` (:data:`~sim.engine.effects.STATUSES`); an event (with
    ``detail``: its numbers) when ``c`` did not show that condition."""
    shown = name in c.conditions
    c.set_status(name)
    if not shown:
        w.emit(Condition(round=w.round, target=c.id, condition=name, active=True, cause=cause, detail=detail or {}))


def clear_status(w: World, c: Creature, name: str, cause: str = "") -> None:
    """Clear ``c``'s status ``name``; an event when ``c`` no longer shows that condition (an
    effect may show it still: glitterdust's blindness outlasts light's glare)."""
    if c.clear_status(name) and name not in c.conditions:
        w.emit(Condition(round=w.round, target=c.id, condition=name, active=False, cause=cause))


def show(c: Creature, names: Iterable[str]) -> None:
    """Make ``c`` show exactly the conditions among ``names`` (a replay's shadow fight,
    :mod:`sim.view.world`, knows its creatures' conditions by name only, from the events): those
    that are statuses as its statuses, each other by a record of a kind that shows it
    (:func:`sim.engine.effects.shown`)."""
    names = set(names) & CONDITIONS
    c.statuses = frozenset(names & STATUSES)
    c.effects = [shown(n) for n in sorted(names - STATUSES)]


# -- starting and ending effects -------------------------------------------------------------------------------

def add(w: World, c: Creature, kind: str, source: str | None = None, until: int | None = None, *,
        cause: str | None = None, detail: dict | None = None, **data: int | str | tuple[str, ...]) -> Effect:
    """Start an effect of ``kind`` on ``c`` (in place of one of that kind); an event when its
    condition was not shown (the event's cause: ``cause``, else the source's id; ``detail``: the
    event's numbers)."""
    e = make(kind, source, until, **data)
    cond = KINDS[kind].condition
    shown = cond is not None and cond in c.conditions
    put(c, e)
    if cond is not None and not shown:
        w.emit(Condition(round=w.round, target=c.id, condition=cond, active=True,
                         cause=source or "" if cause is None else cause, detail=detail or {}))
    return e


def announce_end(w: World, c: Creature, kind: str, cause: str, detail: dict | None = None) -> None:
    """The event of an ended effect of ``kind``: its condition no longer shown on ``c`` (none
    while another effect or a status still shows it)."""
    cond = KINDS[kind].condition
    if cond is not None and cond not in c.conditions:
        w.emit(Condition(round=w.round, target=c.id, condition=cond, active=False, cause=cause, detail=detail or {}))


def end(w: World, c: Creature, kind: str, cause: str) -> None:
    """End ``c``'s effect of ``kind`` now (nothing when it has none): off the creature, then its
    end (its hook, or :func:`announce_end`) with the event's ``cause``."""
    e = drop(c, kind)
    if e is None:
        return
    hook = _HOOKS.get(kind)
    if hook is None and KINDS[kind].hook:
        raise RuntimeError(f"{TABLE}: [effect.{kind}] declares hook = true, but no module registered its end "
                           "(sim.engine.conditions.on_end)")
    if hook is not None:
        hook(w, c, e, cause)
    else:
        announce_end(w, c, kind, cause)


def tick(w: World, c: Creature, moment: str) -> None:
    """At ``moment`` of ``c``'s turn: each of its effects of that moment whose time is up ends
    (cause: its kind's, ``expired``), in the table's order; one with a save each round rolls it
    and ends on a success (``saved``)."""
    for kind, spec in KINDS.items():
        if spec.moment != moment:
            continue
        e = find(c, kind)
        if e is None:
            continue
        lapsed = e.until is not None and (w.round > e.until if spec.lapses == "after" else w.round >= e.until)
        if lapsed:
            end(w, c, kind, spec.cause)
        elif spec.save is not None:
            if (spec.ends_when_dead and not c.alive) or (
                    c.alive and roll_save(w, c, spec.save, int(e.value("dc")), spec.save_reason, None)):
                end(w, c, kind, "saved")


def _at(moment: str) -> Callable[[World, Creature], None]:
    def hook(w: World, c: Creature) -> None:
        tick(w, c, moment)
    hook.__name__ = hook.__qualname__ = f"tick_{moment}"
    return hook


#: The lasting effects as mechanics: one record per moment of the turn ``sim/data/effects.toml``
#: declares, its hook the :func:`tick` of that moment (the end of the turn for ``turn_end``, else
#: the start). :data:`sim.engine.registry.REGISTRY` places each where that expiry always sat.
LASTING: dict[str, Mechanic] = {
    m: Mechanic(f"lasting: {m}", **{("end_of_turn" if m == "turn_end" else "start_of_turn"): _at(m)})
    for m in MOMENTS}
