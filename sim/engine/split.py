"""Split (Ex): the ochre jelly and the black pudding (docs/rules.md §11.14).

A creature whose stat block lists ``[defenses] split`` (slashing and piercing weapons; the ochre
jelly's electricity too) takes no damage from a hit of those: it splits into two identical
creatures instead, each with half its current hit points (rounded down). With 10 hit points or
less it cannot be split: the hit hurts it, and it dies at 0 hit points (:func:`dies_at_zero`).

The new half is a new combatant: id ``<original id>.<letter>`` (``ochre-jelly.a``, then
``ochre-jelly.b``; a half of ``ochre-jelly.a`` is ``ochre-jelly.a.a``), placed in the nearest
free place its body fits (by its own movement, within :data:`ROOM_FT`), put in the initiative
order right after the original, acting from the next round on. :func:`divide` does it all and
emits the ``split`` event; :mod:`sim.engine.damage` calls it before any damage is dealt.
"""

from __future__ import annotations

import dataclasses
import string

import numpy as np

from sim.base.coords import Pos
from sim.engine.creature import Creature
from sim.engine.events import Damage, Split
from sim.engine.setup import describe, footprint
from sim.engine.world import World
from sim.rules.sizes import Size
from sim.rules.weapons import combat_modifier
from sim.terrain.movement import distance_map
from sim.terrain.movement.field import BLOCKED

#: How far (feet of its own movement) the new half may be placed from the original [PD].
ROOM_FT = 30
#: What a split half does not take over from the original: the grapple stays the original's.
NOT_SHARED = frozenset({"grappled", "pinned"})


def unsplit_hp() -> int:
    """The hit points at or below which an ooze no longer splits: ``unsplit_hp`` of combat.toml
    [split] (SRD: "a jelly (pudding) with 10 hit points or less cannot be further split")."""
    return combat_modifier("split", "unsplit_hp")


def splitters(c: Creature) -> tuple[str, ...]:
    """What splits ``c`` instead of hurting it: damage types of weapons, or ``"electricity"``."""
    return c.block.defenses.split


def split_by(target: Creature, parts) -> bool:
    """Whether a hit of these :class:`~sim.engine.damage.DamagePart` would split ``target`` (its hit
    points aside): a weapon part (sneak attack too) of a splitting type, unless it is an "or" weapon
    that can deal another type (a morningstar's "and" both; a dagger's "or" is piercing or slashing,
    both split), or an energy part of a splitting energy (electricity)."""
    by = splitters(target)
    if not by:
        return False
    for p in parts:
        if p.kind in ("weapon", "sneak"):
            if _cuts(by, p.types or (p.type,), p.join):
                return True
        elif p.kind != "swarm" and p.type in by:
            return True
    return False


def splits_with(target: Creature, att) -> bool:
    """Whether a hit of the attack ``att`` (a sheet's :class:`~sim.rules.statblocks.Attack`) would
    split ``target`` now: :func:`split_by` for its damage types and energies, and more than 10
    hit points left (the AI's estimates read it)."""
    by = splitters(target)
    if not by or target.hp <= unsplit_hp():
        return False
    return _cuts(by, att.damage_types or ("bludgeoning",), att.types_join) or any(e in by for _, e in att.extra_damage)


def _cuts(by, types, join: str) -> bool:
    """A weapon of these damage ``types`` splits: one of them splits, and it is not an "or"
    weapon that can deal one that does not."""
    return any(t in by for t in types) and not (join == "or" and not all(t in by for t in types))


def dies_at_zero(c: Creature) -> bool:
    """A creature that splits dies at 0 hit points (SRD: it "dies if reduced to 0 hit points"):
    no disabled or dying for it [PD: whatever its hit points before the blow]."""
    return bool(splitters(c))


def divide(w: World, target: Creature, parts, *, source: Creature | None) -> bool:
    """Split ``target`` by this hit, if it can be: more than 10 hit points and room for the new
    half. Emits the hit's damage event (0 damage, the whole hit under ``adjustments["split"]``)
    and the ``split`` event; returns False (nothing done) when the hit must hurt it instead."""
    if target.hp <= unsplit_hp() or not target.alive:
        return False
    new = _half(w, target)
    at = _room(w, target, new)
    if at is None:
        return False  # [PD] nowhere for the other half: it cannot be split, the hit hurts it
    raw: dict[str, int] = {}
    for p in parts:
        raw[p.type] = raw.get(p.type, 0) + p.amount
    w.emit(Damage(round=w.round, target=target.id, amount=0, parts=raw, source=source.id if source else None,
                  cause="weapon" if any(p.kind in ("weapon", "sneak") for p in parts) else "energy",
                  hp_before=target.hp, hp_after=target.hp, adjustments={"split": -sum(raw.values())}))
    before = target.hp
    target.hp = new.hp = before // 2
    target.max_hp = new.max_hp = target.max_hp // 2
    target.nonlethal = new.nonlethal = target.nonlethal // 2
    w.creatures[new.id] = new
    w.place(new, at)
    _join_order(w, target, new)
    w.emit(Split(round=w.round, target=target.id, new=new.id, source=source.id if source else None,
                 hp_before=before, hp=target.hp, creature=describe(new)))
    return True


def origin(cid: str, originals) -> str | None:
    """The id among ``originals`` (the encounter's own creatures) that ``cid`` is or split off
    from (``ochre-jelly.a.b`` -> ``ochre-jelly``; the longest that fits), or None.

    >>> origin("ochre-jelly.a.b", ["ochre-jelly", "bruna"]), origin("bruna", ["bruna"]), origin("x.a", ["y"])
    ('ochre-jelly', 'bruna', None)
    """
    if cid in originals:
        return cid
    fits = [o for o in originals if cid.startswith(o + ".")]
    return max(fits, key=len) if fits else None


def _half(w: World, c: Creature) -> Creature:
    """The new half: a copy of ``c`` (containers copied, the stat blocks shared: frozen) with its
    own id, outside any grapple, with nothing to its credit, split off this round."""
    values = {}
    for f in dataclasses.fields(Creature):
        v = getattr(c, f.name)
        values[f.name] = type(v)(v) if isinstance(v, (list, dict, set)) else v
    values.update(id=_new_id(w, c), trail=[], kills=[], grapple_with=[], pinned_by=None, split_round=w.round,
                  statuses=c.statuses - NOT_SHARED, fell_at=None, squeezing_rounds=0)
    return Creature(**values)


def _new_id(w: World, c: Creature) -> str:
    """``<id>.a``, ``<id>.b``... the first not taken (then ``<id>.27``, ``<id>.28``...)."""
    for i in range(10_000):
        suffix = string.ascii_lowercase[i] if i < 26 else str(i + 1)
        cid = f"{c.id}.{suffix}"
        if cid not in w.creatures:
            return cid
    raise ValueError(f"{c.id}: no free id for a split half")


def _room(w: World, c: Creature, new: Creature) -> Pos | None:
    """The nearest reference square (by ``new``'s own movement from ``c``, feet then row then
    column, within :data:`ROOM_FT`) where its body fits and covers no other creature's square
    (swarms and Tiny creatures aside: they share squares)."""
    f = w.field(new)
    taken = {sq for o in w.creatures.values()
             if o.alive and not o.is_swarm and o.size > Size.TINY for sq in o.squares}
    d = distance_map(f, c.pos, expected=True)
    feet = d.feet
    ok = (feet > 0) & (feet <= ROOM_FT) & (f.mode != BLOCKED)
    ys, xs = np.nonzero(ok)
    for _, y, x in sorted(zip(feet[ys, xs].tolist(), ys.tolist(), xs.tolist())):
        squares = footprint(f, new, (x, y))
        if not any(sq in taken or w.grid.rock[sq[1], sq[0]] for sq in squares):
            return (x, y)
    return None


def _join_order(w: World, c: Creature, new: Creature) -> None:
    """``new`` goes right after ``c`` in the initiative order, on its count (it acts from the next
    round: ``split_round``, see :meth:`sim.engine.encounter.Encounter.begin_turn`)."""
    if c.id not in w.order:
        return
    i = w.order.index(c.id) + 1
    w.order.insert(i, new.id)
    if i <= w.turn_index:
        w.turn_index += 1
