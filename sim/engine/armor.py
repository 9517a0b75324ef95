"""Armor off before a crawlway, awkward space or tight squeeze, in a fight (RULES §2.4, §7.33).

The rule itself (which armor, which squares, how long) is :mod:`sim.rules.armor`'s, shared with
the crawl and ``cavesim path``; this module is what the fight does with it:

* **Entering such a square in medium or heavy armor is refused** (:func:`refusal`): a move stops
  before it, and a move that could not take one step says why. A move of an armored creature
  keeps to squares it may enter armored when such a way exists (:func:`keep_armored`: it goes
  around); where none does, it walks up to the first such square and stops there.
* **Taking it off** (:class:`~sim.engine.actions.RemoveArmor`, :func:`do_remove_armor`) is a
  full-round action that begins the work; the work then takes the creature's whole turn, every
  turn, until it is done (:func:`start_of_turn`): 1 minute = 10 rounds, half-plate and full plate
  1d4+1 minutes (rolled with the fight's generator when the work begins), half of that with a
  helper -- an adjacent ally with no armor of its own to change, who spends the same turns
  helping. A helper who falls leaves the wearer the rest to do alone (twice the rounds left); a
  wearer who falls loses the work.
* Once off, the creature's stat block is the one without armor and shield
  (:meth:`Creature.take_armor_off`): its speed, armor check penalty, AC and Escape Artist. The
  armor is dragged behind, not lost (a crawl carries it out of the fight, ``setup.CARRIED``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.actions import Impossible, RemoveArmor, Turn
from sim.engine.creature import Creature
from sim.engine.events import ArmorWork
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.armor import (
    minutes_to_rounds,
    must_remove,
    needs_armor_off,
    removal_minutes,
    removal_rounds_expected,
    removal_text,
)
from sim.rules.categories import Category
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement import find_path
from sim.terrain.movement.field import BLOCKED, MoveField


def armored(c: Creature) -> bool:
    """``c`` wears armor it must take off before the tight places (and has not)."""
    return not c.is_swarm and not c.armor_off and must_remove(c.block)


def step_refused(c: Creature, step) -> bool:
    """The step enters a square ``c`` may not enter in its armor."""
    return step.kind != "stand" and armored(c) and needs_armor_off(Category[step.category])


def refusal(c: Creature, steps) -> str | None:
    """Why ``c`` cannot take the first of ``steps`` (a square it may not enter armored), or None."""
    if not steps or not step_refused(c, steps[0]):
        return None
    s = steps[0]
    a = c.block.armor
    return (f"{c.name} must take off {_its(c)} {a.key.replace('-', ' ')} before entering {Category[s.category].label} at "
            f"({s.at[0]}, {s.at[1]}) (RULES §2.4, §7.33): {removal_text(a)} of work, half with an ally's help")


def _its(c: Creature) -> str:
    return {"male": "his", "female": "her"}.get(c.block.source.sex or "", "its")


def shed_mask(w: World, c: Creature, f: MoveField) -> np.ndarray:
    """The squares ``c`` may not enter in its armor (crawl, awkward, tight for its body)."""
    cat = f.category
    return (cat >= int(Category.CRAWL)) & (cat < int(Category.IMPASSABLE)) & (f.mode != BLOCKED)


def armored_path(w: World, c: Creature, f: MoveField, to, blocked: np.ndarray):
    """The best path to ``to`` over squares ``c`` may enter armored (remembered like the others)."""
    key = (id(f), c.id, c.pos, c.prone, tuple(to), w.occupancy_signature(), "armored")
    path = w.cache.paths.get(key)
    if path is None:
        path = w.cache.paths.put(key, find_path(f, c.pos, to, blocked=blocked | shed_mask(w, c, f), prone=c.prone))
    return path


def keep_armored(w: World, c: Creature, f: MoveField, to, blocked: np.ndarray, path):
    """``path``, or the way around when it leads an armored creature into a square it may not
    enter armored and another way exists."""
    if not armored(c) or not any(step_refused(c, s) for s in path.steps):
        return path
    alt = armored_path(w, c, f, to, blocked)
    return alt if alt.reachable else path


def helper_for(w: World, c: Creature, helper_id: str | None):
    """The ally ``helper_id`` if it can help ``c`` (or None for no helper), else an Impossible."""
    if helper_id is None:
        return None
    o = w.creatures.get(helper_id)
    if o is None or o is c:
        return Impossible(f"no ally {helper_id!r} to help")
    if o.team != c.team or not o.in_fight or o.is_swarm:
        return Impossible(f"{o.name} cannot help {c.name} (an ally able to act)")
    if armored(o) or o.armor_work:
        return Impossible(f"{o.name} has armor of {_its(o)} own to change: helps nobody (RULES §2.4)")
    if o.helping is not None:
        return Impossible(f"{o.name} is already helping another")
    if footprint_distance_ft(c.squares, o.squares) > 5:
        return Impossible(f"{o.name} is not beside {c.name}")
    return o


def do_remove_armor(w: World, c: Creature, t: Turn, a: RemoveArmor):
    """Begin taking medium or heavy armor off (a full-round action; the work goes on in the next
    turns, :func:`start_of_turn`). Its first round is this turn."""
    if not armored(c):
        return Impossible(f"{c.name} wears no medium or heavy armor to take off")
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    helper = helper_for(w, c, a.helper)
    if isinstance(helper, Impossible):
        return helper
    minutes = removal_minutes(c.block.armor, w.rng, helped=helper is not None)
    rounds = minutes_to_rounds(minutes)
    c.armor_work = c.armor_total = rounds
    c.armor_helper = helper.id if helper is not None else None
    if helper is not None:
        helper.helping = c.id
    w.emit(ArmorWork(round=w.round, actor=c.id, stage="start", armor=c.block.armor.key, rounds=rounds,
                     left=rounds, helper=c.armor_helper))
    t.spend("full")
    _work(w, c)
    return True


def _work(w: World, c: Creature) -> None:
    """One round of the work; the armor comes off with the last."""
    c.armor_work -= 1
    armor = c.block.armor.key
    total = _total(w, c)
    if c.armor_work > 0:
        w.emit(ArmorWork(round=w.round, actor=c.id, stage="work", armor=armor, rounds=total, left=c.armor_work,
                         helper=c.armor_helper))
        return
    helper = w.creatures.get(c.armor_helper) if c.armor_helper else None
    if helper is not None and helper.helping == c.id:
        helper.helping = None
    c.take_armor_off(drop_shield=True)
    w.emit(ArmorWork(round=w.round, actor=c.id, stage="done", armor=armor, rounds=total, left=0, helper=c.armor_helper))
    c.armor_helper = None


def _total(w: World, c: Creature) -> int:
    return int(c.armor_total)


def start_of_turn(w: World, c: Creature) -> bool:
    """The work of a creature busy with armor (its own, or an ally's it helps) at the start of its
    turn; True when that takes the turn."""
    if c.helping is not None:
        wearer = w.creatures.get(c.helping)
        if wearer is not None and wearer.armor_work and not wearer.in_fight:
            stop(w, wearer)  # the wearer fell (or died): nothing left to help with
        if wearer is None or not wearer.armor_work or wearer.armor_helper != c.id or not c.in_fight:
            c.helping = None
            return False
        w.emit(ArmorWork(round=w.round, actor=c.id, stage="help", armor=wearer.block.armor.key,
                         rounds=_total(w, wearer), left=wearer.armor_work, helper=wearer.id))
        return True
    if not c.armor_work:
        return False
    if not c.in_fight:
        stop(w, c)
        return False
    if c.armor_helper is not None:
        helper = w.creatures.get(c.armor_helper)
        if helper is None or not helper.in_fight or helper.helping != c.id:
            c.armor_total += c.armor_work  # the rest, alone (the time is halved only with help)
            c.armor_work *= 2
            c.armor_helper = None
    _work(w, c)
    return True


def stop(w: World, c: Creature) -> None:
    """The wearer fell: the work is lost (its armor stays on) and the helper is free."""
    helper = w.creatures.get(c.armor_helper) if c.armor_helper else None
    if helper is not None and helper.helping == c.id:
        helper.helping = None
    w.emit(ArmorWork(round=w.round, actor=c.id, stage="stopped", armor=c.block.armor.key if c.block.armor else "",
                     rounds=_total(w, c), left=c.armor_work, helper=c.armor_helper))
    c.armor_work = 0
    c.armor_helper = None


def removal_estimate_rounds(c: Creature, *, helped: bool) -> float:
    """What the AI weighs: the mean rounds of work for ``c``'s armor (1d4+1 minutes: 35 alone)."""
    return removal_rounds_expected(c.block.armor, helped=helped)


ARMOR = Mechanic("armour removal", actions={RemoveArmor: do_remove_armor}, occupies=start_of_turn)
