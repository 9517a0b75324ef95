"""Setting and ending a creature's conditions and lasting effects (issue 33 item 1): the one way
a condition is shown or cleared (:func:`set_condition`, :func:`clear_condition`; re-exported by
:mod:`sim.engine.damage`), effects started (:func:`add`) and ended (:func:`end`), and the tick
(:func:`tick`) at the turn's declared moments (``sim/data/effects.toml``: ``moments``).

:func:`tick` ends the effects whose time is up at one of the turn's moments, in the table's order
within a moment, rolling the saves the kinds declare. The moments sit where each expiry has always
been in the turn (``sim.engine.encounter``), so the events and the dice come in the same order as
before: the start of the turn has several because other rules run between today's expiries (the
stinking cloud, spell-like effects, dying, poison); the registry of the turn's mechanics may merge
them. The records and their kinds are :mod:`sim.engine.effects`.
"""

from __future__ import annotations

from typing import Callable

from sim.engine.checks import roll_save
from sim.engine.creature import Creature
from sim.engine.effects import KINDS, MOMENTS, TABLE, Effect, drop, find, make, put
from sim.engine.events import Condition
from sim.engine.mechanics import Mechanic
from sim.engine.world import World

#: The code that ends a kind declared with ``hook = true`` (:func:`on_end`).
_HOOKS: dict[str, Callable[[World, Creature, Effect | None, str], None]] = {}


def on_end(kind: str) -> Callable:
    """Register the end of ``kind`` (a decorator): ``fn(w, c, effect, cause)`` clears its
    condition and undoes the rest (a rage's hit points); only for a kind declared ``hook = true``
    (``effect`` None: its condition shown with no effect, a kind declared ``orphan_ends``)."""
    if kind not in KINDS or not KINDS[kind].hook:
        raise ValueError(f"{TABLE}: [effect.{kind}] does not declare hook = true")

    def register(fn: Callable[[World, Creature, Effect | None, str], None]) -> Callable:
        _HOOKS[kind] = fn
        return fn
    return register


def hooks_missing() -> list[str]:
    """The kinds declared with ``hook = true`` whose end no module registered."""
    return [k for k, spec in KINDS.items() if spec.hook and k not in _HOOKS]


# -- conditions -------------------------------------------------------------------------------------------------

def set_condition(w: World, c: Creature, cond: str, cause: str = "", detail: dict | None = None) -> None:
    """Show ``cond`` on ``c`` (an event when it was not shown, with ``detail``: its numbers)."""
    if cond not in c.conditions:
        c.conditions.add(cond)
        w.emit(Condition(round=w.round, target=c.id, condition=cond, active=True, cause=cause, detail=detail or {}))


def clear_condition(w: World, c: Creature, cond: str, cause: str = "") -> None:
    """Show ``cond`` no more on ``c`` (an event when it was shown)."""
    if cond in c.conditions:
        c.conditions.discard(cond)
        w.emit(Condition(round=w.round, target=c.id, condition=cond, active=False, cause=cause))


# -- starting and ending effects -------------------------------------------------------------------------------

def add(w: World, c: Creature, kind: str, source: str | None = None, until: int | None = None, *,
        cause: str | None = None, detail: dict | None = None, **data: int | str | tuple[str, ...]) -> Effect:
    """Start an effect of ``kind`` on ``c`` (in place of one of that kind) and show its condition
    (the event's cause: ``cause``, else the source's id; ``detail``: the event's numbers)."""
    e = make(kind, source, until, **data)
    put(c, e)
    cond = KINDS[kind].condition
    if cond is not None:
        set_condition(w, c, cond, source or "" if cause is None else cause, detail)
    return e


def end(w: World, c: Creature, kind: str, cause: str, *, orphan: bool = False) -> None:
    """End ``c``'s effect of ``kind`` now: off the creature, its end (its hook, or its condition
    cleared) with the event's ``cause``. ``orphan``: end its condition even with no effect."""
    e = drop(c, kind)
    if e is None and not orphan:
        return
    hook = _HOOKS.get(kind)
    if hook is None and KINDS[kind].hook:
        raise RuntimeError(f"{TABLE}: [effect.{kind}] declares hook = true, but no module registered its end "
                           "(sim.engine.conditions.on_end)")
    if hook is not None:
        hook(w, c, e, cause)
    elif KINDS[kind].condition is not None:
        clear_condition(w, c, KINDS[kind].condition, cause)


def tick(w: World, c: Creature, moment: str) -> None:
    """At ``moment`` of ``c``'s turn: each of its effects of that moment whose time is up ends
    (cause: its kind's, ``expired``), in the table's order; one with a save each round rolls it
    and ends on a success (``saved``)."""
    for kind, spec in KINDS.items():
        if spec.moment != moment:
            continue
        e = find(c, kind)
        if e is None and spec.orphan_ends and spec.condition in c.conditions:
            end(w, c, kind, spec.cause, orphan=True)
            continue
        if e is None or (spec.requires_condition and spec.condition not in c.conditions):
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
