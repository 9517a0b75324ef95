"""A weapon that does not work where the creature stands (issue 31 item 5; docs/rules.md §11.11).

An ogre squeezed into a Narrow-and-Low tunnel cannot swing its greatclub (two-handed: unusable
there, RULES §2.5). It weighs, with the AI's own estimates (:mod:`sim.engine.ai.estimates`), what it
can do instead over the next few rounds:

* **throw or shoot** what it carries (a javelin at the constricted penalty), the attacks of
  opportunity a ranged attack provokes from the foes that threaten it counted against it;
* **back out** to the nearest square where its weapon works (the room behind it), the rounds the
  walk takes counted as rounds without its weapon, its weapon's value there estimated from its
  sheet bonus against the foe's AC;
* otherwise it waits, and says why.

Another melee weapon that works here (a dagger in a fissure) is taken by the default policy before
this is asked (:func:`sim.engine.ai.estimates.best_melee`). Every choice leaves a note
(:func:`note`) that the encounter turns into a :class:`sim.engine.events.Decided` event.
"""

from __future__ import annotations

import math

import numpy as np

from sim.engine import attacks
from sim.engine.actions import Delay, Move, Strike, Turn, Withdraw
from sim.engine.ai.estimates import (
    best_against,
    distance_field,
    expected_damage,
    hit_chance,
)
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.rules.categories import Category, effects

#: [PD] How many rounds ahead the choice looks: backing out pays when the rounds with its weapon
#: after the walk beat the rounds of what it can do here.
HORIZON_ROUNDS = 4


def note(w: World, c: Creature, **data) -> None:
    """Leave the policy's reason for the encounter to log (:class:`sim.engine.events.Decided`)."""
    w.memory.ai_note[c.id] = data


def works_in(att, cat: Category) -> bool:
    """The melee attack can be used in a space of category ``cat`` (RULES §2.5)."""
    if cat is Category.CLEAR:
        return True
    eff = effects(cat)
    if not eff.attacks:
        return False
    idx = att.effective_index if att.kind != "natural" else 1
    return idx is not None and eff.melee_mod(idx) is not None


def _aoo_cost(w: World, c: Creature, foes: list[Creature]) -> float:
    """What the attacks of opportunity a provoking action draws are expected to cost ``c``."""
    cost = 0.0
    for f in foes:
        if not (set(c.squares) & attacks.threatens(w, f)):
            continue
        att = f.wielded() if (f.wielded() and f.wielded().mode == "melee") else attacks.first_melee(f)
        if att is not None:
            cost += expected_damage(w, f, att, c)
    return cost


def _open_value(c: Creature, att, target: Creature) -> float:
    """The weapon's expected damage per round where it works: its sheet bonus against the target's
    AC (the constricted penalties gone), a full attack's iteratives counted."""
    if att.bonus is None:
        return 0.0
    avg = att.damage.average + sum(d.average for d, _ in att.extra_damage)
    return sum(hit_chance(b, target.block.ac) for b in (att.bonuses or (att.bonus,))) * max(0.0, avg)


def _throw(w: World, c: Creature, foes: list[Creature]):
    """The best ranged attack it can make now: (value per round net of provoked attacks, rounds it
    can keep it up, attack, target), or None."""
    options = [a for a in c.ranged_options()
               if not (a.thrown and a.weapon is not None and c.thrown_left.get(a.weapon.key, 1) <= 0)]
    best = best_against(w, c, options, foes)
    if best is None:
        return None
    v, a, f = best
    left = c.thrown_left.get(a.weapon.key, HORIZON_ROUNDS) if (a.thrown and a.weapon is not None) else HORIZON_ROUNDS
    return v - _aoo_cost(w, c, foes), min(HORIZON_ROUNDS, left), a, f


def _way_out(w: World, c: Creature, att):
    """The nearest square (fewest expected move actions) where ``att`` works and ``c`` may end
    its move: (position, move actions), or None."""
    d = distance_field(w, c)
    f = w.field(c)
    _, no_end = w.occupancy_masks(c)
    ok = d.reachable() & ~no_end
    if not ok.any():
        return None
    cats = f.category
    ys, xs = np.nonzero(ok)
    best = None
    for x, y in zip(xs.tolist(), ys.tolist()):
        if (x, y) == c.pos:
            continue
        cat = Category(int(cats[y, x]))
        if cat >= Category.IMPASSABLE or not works_in(att, cat):
            continue
        key = (float(d.actions[y, x]), (x, y))
        if best is None or key < best:
            best = key
    return None if best is None else (best[1], best[0])


def instead(w: World, c: Creature, t: Turn, foes: list[Creature], att, target: Creature):
    """``c`` cannot use ``att`` (its melee weapon) where it stands: throw, back out, or wait,
    whichever the estimates favour; leaves a note saying so. ``target``: the foe it meant to hit."""
    cat = attacks.standing_category(w, c)
    name = att.weapon.key if att.weapon is not None else att.name
    throw = _throw(w, c, foes) if t.standard else None
    v_here = max(0.0, throw[0]) * throw[1] if throw else 0.0
    out = _way_out(w, c, att) if (t.move and not t.stepped) else None
    v_out = 0.0
    if out is not None:
        rounds = math.ceil(out[1] / 2)
        v_out = max(0.0, HORIZON_ROUNDS - rounds) * _open_value(c, att, target) - _aoo_cost(w, c, foes)
    if out is not None and v_out > v_here and v_out > 0:
        p, actions = out
        note(w, c, choice="backs_out", weapon=name, category=cat.name)
        w.memory.backed_out.add(c.id)   # it will not walk back in (ai._reposition)
        threatened = any(set(c.squares) & attacks.threatens(w, f) for f in foes)
        if threatened and t.full_round and not t.moved:
            return Withdraw(p)   # the first square out of a threatened square provokes nothing
        return Move(p, double=t.full_move and actions > 1)
    if throw is not None and throw[0] > 0:
        note(w, c, choice="throws", weapon=name, category=cat.name)
        return Strike(throw[3].id, throw[2].name)
    note(w, c, choice="waits", weapon=name, category=cat.name, reason="no_usable_attack")
    return Delay()
