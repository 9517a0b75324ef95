"""The roper's strands, the state they leave (docs/rules.md §11.15; SRD Roper):

* a strand (``Attack`` "strand" of the stat block: ranged touch, 50 ft, no range increment) that
  hits sticks to the foe: it is "stuck" (no damage) until it breaks free, the strand is severed
  (10 hp) or the roper is out of the fight; its weakness rider (Fort or 2d8 Str damage) goes
  with the hit;
* a roper has at most ``count`` (six) strands out at once;
* a foe the drag drew within 10 ft this round is bitten at +4 (:func:`drawn_in_bonus`).

The state is effects (``sim/data/effects.toml``): ``stuck`` on the creature a strand holds (the
roper its source; the strand's hp left and the round it stuck), ``drawing_in`` on the roper (the
foes its drag drew in, that round). The actions (drag, break free, sever, the volley) and the
mechanic's record (:data:`sim.engine.strands.actions.STRANDS`) are in
:mod:`sim.engine.strands.actions`; this module is what the attack code needs (it imports no rule
module that imports it). The AI's side is :mod:`sim.engine.ai.strands` (the AI stays under
``ai/``: the engine never imports it).
"""

from __future__ import annotations

from sim.engine.conditions import add, end
from sim.engine.creature import Creature
from sim.engine.effects import find
from sim.engine.world import World
from sim.rules.weapons import combat_modifier


def strand_rider(c: Creature):
    return next((r for r in c.block.riders if r.kind == "strand"), None)


def is_strand(attack) -> bool:
    return attack.kind == "special" and attack.name == "strand"


def stuck_to(w: World, c: Creature) -> tuple | None:
    """(roper id, strand hp left, round stuck) of the strand holding ``c``, or None."""
    if "stuck" not in c.conditions:
        return None
    e = find(c, "stuck")
    return None if e is None else (e.source, e.value("hp"), e.value("round"))


def held_by(w: World, roper: Creature) -> list[Creature]:
    """The creatures ``roper``'s strands hold now (by id: a stable order)."""
    out = []
    for o in w.creatures.values():
        s = stuck_to(w, o)
        if s is not None and s[0] == roper.id:
            out.append(o)
    return sorted(out, key=lambda o: o.id)


def strands_free(w: World, roper: Creature) -> int:
    r = strand_rider(roper)
    return 0 if r is None else max(0, int(r.count) - len(held_by(w, roper)))


def escape_dcs(roper: Creature) -> tuple[int, int]:
    """(Escape Artist DC, Strength DC): the rider's Str-based DC (19) is the Strength check's; the
    Escape Artist DC adds the +4 racial bonus (23)."""
    r = strand_rider(roper)
    return int(r.dc) + int(r.break_bonus), int(r.dc)


def refuse(w: World, roper: Creature, target: Creature) -> str | None:
    """Why a strand cannot be fired at ``target`` now, or None."""
    if strands_free(w, roper) <= 0:
        return f"all of {roper.name}'s {strand_rider(roper).count} strands are out"
    if target.is_swarm:
        return "a strand cannot hold a swarm"
    s = stuck_to(w, target)
    if s is not None:
        return f"{target.name} is already stuck to a strand"
    return None


def stick(w: World, roper: Creature, target: Creature) -> None:
    """A strand hit: ``target`` is stuck (SRD Drag: "the strand latches onto the opponent's body")."""
    if not target.alive or stuck_to(w, target) is not None:
        return
    ea, st = escape_dcs(roper)
    hp = combat_modifier("strand", "hit_points")
    add(w, target, "stuck", roper.id, None, detail={"escape_artist_dc": ea, "strength_dc": st, "strand_hp": hp},
        hp=hp, round=w.round)


def free(w: World, c: Creature, cause: str) -> None:
    end(w, c, "stuck", cause)


def drawn_in_bonus(w: World, attacker: Creature, attack, target: Creature) -> int:
    """+4 on the bite at a foe the drag drew within 10 ft this round, else 0."""
    if attack.name != "bite":
        return 0
    d = find(attacker, "drawing_in")
    return (combat_modifier("strand", "drawn_in_bite")
            if d is not None and d.until == w.round and target.id in d.value("drawn") else 0)


def release_all(w: World, roper: Creature, cause: str) -> None:
    """A roper out of the fight lets go of everything it holds."""
    for o in held_by(w, roper):
        free(w, o, cause)
