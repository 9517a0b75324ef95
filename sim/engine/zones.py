"""Lasting spell areas on the grid (docs/rules.md §8.1): a :class:`Zone` is a spell's squares, its
caster, the last round it lasts and its save DC, kept in ``World.zones`` (saved in snapshots).
Grease (SRD, Sor/Wiz 1) is the zone the engine casts: a creature in its squares when it is cast
makes a Reflex save or falls prone; one that walks into a greased square makes a DC 10 Balance check
(the stat block's Balance modifier: Dex + ranks + armor check penalty): success, it goes on at half
speed (every greased square costs its feet twice, :func:`extra_feet`); failure, it stops there for
the round and makes a Reflex save or falls; failure by 5 or more, it falls. A swarm is not made
prone (it cannot be tripped, RULES §4.5) and is not slowed [PD]. The zone ends after 1 round per
caster level (:func:`expire`, at the start of each turn).
"""

from __future__ import annotations

import dataclasses

from sim.engine.casting import spell_data
from sim.engine.checks import roll_save, skill_check
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.events import Condition, ZoneEnded


@dataclasses.dataclass(frozen=True)
class Zone:
    spell: str                    # "grease"
    squares: tuple                # ((x, y), ...)
    owner: str                    # the caster's id
    last_round: int               # the last round it lasts
    dc: int                       # its save DC (10 + spell level + ability modifier)




def zones_at(w: World, square, spell: str | None = None) -> list[Zone]:
    sq = tuple(square)
    return [z for z in w.zones if sq in z.squares and (spell is None or z.spell == spell)]


def greased(w: World) -> frozenset:
    """Every greased square of the fight as it stands."""
    return frozenset(q for z in w.zones if z.spell == "grease" for q in z.squares)


def extra_feet(w: World, c: Creature, step) -> int:
    """The feet a step costs on top of its own: a greased square is walked at half speed (its
    feet twice); a swarm is not slowed [PD]."""
    if c.is_swarm or getattr(step, "kind", "") == "stand" or not w.zones:
        return 0
    return int(step.feet) if tuple(step.at) in greased(w) else 0


def fall(w: World, c: Creature, z: Zone, cause: str) -> None:
    """Reflex save or fall prone (a swarm never falls, RULES §4.5)."""
    if c.is_swarm or c.prone or not c.in_fight:
        return
    if not roll_save(w, c, "ref", z.dc, cause, z.owner):
        _prone(w, c)


def _prone(w: World, c: Creature) -> None:
    c.prone = True
    w.emit(Condition(round=w.round, target=c.id, condition="prone", active=True, cause="grease"))


def stuck(w: World, c: Creature) -> bool:
    """It failed grease's Balance check this round: no more moving this round (SRD)."""
    return w.memory.get(f"grease:{c.id}") == [w.round, False]


def entered(w: World, c: Creature, was_greased: bool) -> bool:
    """A step in or out of greased squares (``was_greased``: it stood in grease before the
    step): the DC 10 Balance check of grease, once a round (SRD: walk at half speed with a DC 10
    Balance check). Returns False when it can move no further this round (a failed check, and
    it may have fallen: a Reflex save, or prone outright when it failed by 5 or more)."""
    if c.is_swarm or not w.zones or not c.in_fight:
        return True
    here = [z for z in w.zones if z.spell == "grease" and set(c.squares) & set(z.squares)]
    if not here and not was_greased:
        return True
    key = f"grease:{c.id}"
    if w.memory.get(key, [None])[0] == w.round:
        return True  # checked already this round
    z = (here or [z for z in w.zones if z.spell == "grease"])[0]
    mod = int(c.block.skill("balance")) + c.dex_mod_delta()
    dc = int(spell_data()["grease"]["balance_dc"])
    ok = skill_check(w, c, "balance", dc, mod, "grease", at=tuple(c.pos))
    w.memory[key] = [w.round, ok]
    if ok:
        return True
    if w.events[-1].total <= dc - 5:
        _prone(w, c)
    else:
        fall(w, c, z, "grease")
    return False


def expire(w: World) -> None:
    """Zones whose last round is over end (checked at the start of each turn)."""
    if not w.zones:
        return
    keep = []
    for z in w.zones:
        if w.round > z.last_round:
            w.emit(ZoneEnded(round=w.round, spell=z.spell, owner=z.owner, squares=z.squares))
        else:
            keep.append(z)
    w.zones = keep
