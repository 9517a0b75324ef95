"""The d20 and what it decides (RULES §0.2): attack rolls, saving throws, skill checks.

One rule lives here once: on an attack roll or a saving throw a natural 20 always succeeds and a
natural 1 always fails (:func:`hits`); skill checks (Escape Artist, Concentration) have no such
rule. Every roll is an event.
"""

from __future__ import annotations

from sim.coords import Pos
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.events import Check, Save


def d20(w: World) -> int:
    """One roll of the fight's d20."""
    return int(w.rng.integers(1, 21))


def hits(roll: int, total: int, target: int) -> bool:
    """An attack roll or a saving throw: a natural 20 succeeds, a natural 1 fails, else the total
    must reach the target number (RULES §0.2).

    >>> hits(20, 5, 30), hits(1, 40, 10), hits(12, 15, 15), hits(12, 14, 15)
    (True, False, True, False)
    """
    return roll == 20 or (roll != 1 and total >= target)


def roll_save(w: World, c: Creature, save: str, dc: int, cause: str, source: str | None) -> bool:
    """A saving throw (natural 1 fails, natural 20 succeeds), emitted as an event."""
    name = {"fort": "fortitude", "ref": "reflex", "will": "will"}[save]
    mod = c.block.save(save)
    if save == "ref":
        mod += c.dex_mod_delta()
    if c.blessed_until >= w.round and cause == "fear":
        mod += 1
    roll = d20(w)
    total = roll + mod
    ok = hits(roll, total, dc)
    w.emit(Save(round=w.round, target=c.id, save=name, dc=dc, roll=roll, modifier=mod, total=total,
                  success=ok, cause=cause, source=source))
    return ok


def skill_check(w: World, c: Creature, skill: str, dc: int, modifier: int, cause: str, *,
                at: Pos | None = None) -> bool:
    """A skill check, d20 + modifier against the DC (no automatic success or failure), emitted
    as an event."""
    roll = d20(w)
    total = roll + modifier
    ok = total >= dc
    w.emit(Check(round=w.round, actor=c.id, skill=skill, dc=dc, roll=roll, modifier=modifier, total=total,
                 success=ok, cause=cause, at=at))
    return ok


def concentration(w: World, c: Creature, dc: int, cause: str) -> bool:
    """A Concentration check (casting defensively, hurt while casting, inside a swarm: RULES §8)."""
    return skill_check(w, c, "concentration", dc, int(c.block.skill("concentration")), cause)
