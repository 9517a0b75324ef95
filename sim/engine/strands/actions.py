"""What the roper's strands do in a turn (docs/rules.md §11.15; SRD Roper, Drag and Strands):

* **drag**: at the start of the roper's turn each foe stuck to one of its strands since an
  earlier round is pulled 10 ft (two squares) closer, provoking no attack of opportunity; each
  step goes to a neighbouring square its body fits (not rock, nobody there, no diagonal past a
  rock corner) that brings it closer; it stops at rock, beside the roper, or after 10 ft. The
  constricted-space categories apply where it ends (it may be squeezing); a foe in a grapple is
  not dragged (the grapple holds it). A foe within 10 ft of the roper after the drag is bitten
  at +4 this round;
* **volley** (:class:`StrandVolley`, a full-round action: the SRD full attack "6 strands and
  bite"): one strand at each named foe (each its own ranged touch attack, each provoking like any
  ranged attack), then the bite at a foe within reach;
* **break free** (:class:`BreakStrand`, a standard action): Escape Artist DC 23 or Strength DC 19;
* **sever** (:class:`SeverStrand`, a standard action: a sunder; no attack of opportunity): the
  stuck creature or one within reach of it, with a slashing or bludgeoning melee attack, wins an
  opposed attack roll against the strand (+11, -4 as it is attached) and deals the damage to its
  10 hp;
* a stuck creature cannot move away from the roper (:func:`refusal`).
"""

from __future__ import annotations

import dataclasses

from sim.engine import strands
from sim.engine.actions import (
    Charge,
    FiveFootStep,
    Impossible,
    Move,
    Run,
    Turn,
    Withdraw,
)
from sim.engine.attack_actions import needs_draw
from sim.engine.attacks import plan_attack, provoke, resolve_attack
from sim.engine.checks import roll_dice, skill_check
from sim.engine.creature import Creature
from sim.engine.effects import make, put
from sim.engine.events import Condition, Moved
from sim.engine.grapple import opposed
from sim.engine.mechanics import Mechanic
from sim.engine.specials import break_free_odds
from sim.engine.world import World
from sim.rules.categories import Category
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement.field import BLOCKED

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_SEVER_TYPES = ("slashing", "bludgeoning")   # SRD Sunder: a slashing or bludgeoning weapon


@dataclasses.dataclass(frozen=True, slots=True)
class StrandVolley:
    """The roper's full attack: a strand at each of ``targets``, then its bite at ``bite``."""

    targets: tuple[str, ...] = ()
    bite: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class BreakStrand:
    """Break free of a strand: ``how`` "escape_artist", "strength" or None (the better odds)."""

    how: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SeverStrand:
    """Attack the strand holding ``target`` (oneself, or one within reach) with ``attack``."""

    target: str = ""
    attack: str | None = None


# -- start of a turn: the drag ----------------------------------------------------------------------

def start_of_turn(w: World, c: Creature) -> None:
    """A stuck creature whose roper is out is let go; a roper drags what it holds."""
    s = strands.stuck_to(w, c)
    if s is not None:
        roper = w.creatures.get(s[0])
        if roper is None or not roper.in_fight:
            strands.free(w, c, "roper_out")
    if strands.strand_rider(c) is None or not c.in_fight:
        return
    drawn = []
    for o in strands.held_by(w, c):
        if strands.stuck_to(w, o)[2] < w.round and not o.grappling:   # [PD] a grapple holds it in place
            drag(w, c, o)
        if footprint_distance_ft(c.squares, o.squares) <= 10:
            drawn.append(o.id)
    put(c, make("drawing_in", None, w.round, drawn=tuple(drawn)))


def _fits(w: World, c: Creature, at, taken: set) -> bool:
    if not w.grid.in_bounds(at) or w.field(c).mode[at[1], at[0]] == BLOCKED:
        return False
    return not any((at[0] + dx, at[1] + dy) in taken for dx in range(c.k) for dy in range(c.k))


def drag_step(w: World, roper: Creature, c: Creature):
    """The square the drag pulls ``c`` into next, or None (it stops)."""
    here = footprint_distance_ft(roper.squares, c.squares)
    if here <= 5:
        return None
    f = w.field(c)
    taken = {sq for o in w.creatures.values() if o is not c and o.alive and not o.is_swarm for sq in o.squares}
    best = None
    for dx, dy in _STEPS:
        at = (c.pos[0] + dx, c.pos[1] + dy)
        if not _fits(w, c, at, taken):
            continue
        if dx and dy and (f.corner[c.pos[1], at[0]] or f.corner[at[1], c.pos[0]]):
            continue      # no diagonal past a rock corner (RULES §6.2)
        d = footprint_distance_ft(roper.squares, f.occupied(at))
        if d < here and (best is None or d < best[0]):
            best = (d, at)
    return None if best is None else best[1]


def drag(w: World, roper: Creature, c: Creature) -> None:
    path = []
    for _ in range(combat_modifier("strand", "drag_ft") // 5):   # 10 ft: two squares (SRD Roper: Drag)
        at = drag_step(w, roper, c)
        if at is None:
            break
        w.place(c, at, trail_step=True)
        cat = Category(int(w.field(c).category[at[1], at[0]])).name
        path.append({"at": list(at), "category": cat, "kind": "dragged", "feet": 5})
    if path:
        w.emit(Moved(round=w.round, actor=c.id, path=tuple(path), squares=tuple(c.squares), prone=c.prone,
                     action="dragged"))


# -- the roper's full attack --------------------------------------------------------------------------

def do_volley(w: World, c: Creature, t: Turn, a: StrandVolley):
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    strand = c.attack_named("strand")
    if strand is None:
        return Impossible(f"{c.name} has no strands")
    if len(set(a.targets)) != len(a.targets):
        return Impossible("one strand at each foe")
    plans = []
    for tid in a.targets:
        target = w.creatures.get(tid)
        if target is None or target.team == c.team:
            return Impossible(f"no foe {tid!r}")
        plan = plan_attack(w, c, strand, target, kind="ranged")
        if not plan:
            return Impossible(plan.reason)
        plans.append(target)
    if len(plans) > strands.strands_free(w, c):
        return Impossible(f"{c.name} has {strands.strands_free(w, c)} strands free")
    bite_target = None
    bite = c.attack_named("bite")
    if a.bite:
        bite_target = w.creatures.get(a.bite)
        if bite is None or bite_target is None:
            return Impossible(f"no bite at {a.bite!r}")
        plan = plan_attack(w, c, bite, bite_target, kind="melee")
        if not plan:
            return Impossible(plan.reason)
    t.spend("full")
    for target in plans:
        provoke(w, c, "ranged_attack")
        if not c.in_fight:
            return True
        plan = plan_attack(w, c, strand, target, kind="ranged")
        if plan:
            resolve_attack(w, plan)
    if bite_target is not None and c.in_fight:
        plan = plan_attack(w, c, bite, bite_target, kind="melee")
        if plan:
            resolve_attack(w, plan)
    return True


# -- the stuck creature ---------------------------------------------------------------------------------

def break_odds(c: Creature, roper: Creature) -> tuple[str, int]:
    """The better way out for ``c``: ("escape_artist" or "strength", modifier - DC), as from a web."""
    return break_free_odds(c, *strands.escape_dcs(roper))


def do_break(w: World, c: Creature, t: Turn, a: BreakStrand):
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    s = strands.stuck_to(w, c)
    roper = w.creatures.get(s[0]) if s else None
    if roper is None:
        return Impossible(f"{c.name} is not stuck to a strand")
    how = a.how or break_odds(c, roper)[0]
    ea_dc, st_dc = strands.escape_dcs(roper)
    if how == "escape_artist":
        ok = skill_check(w, c, "escape_artist", ea_dc, int(c.block.escape_artist), "strand")
    elif how == "strength":
        ok = skill_check(w, c, "strength", st_dc, c.block.abilities.mod("str") + c.str_mod_delta(), "strand")
    else:
        return Impossible("break free by \"escape_artist\" or \"strength\"")
    t.spend("standard")
    if ok:
        strands.free(w, c, how)
    return True


def sever_attack(c: Creature, name: str | None):
    """The melee attack in hand (or natural) ``c`` can cut a strand with (slashing or
    bludgeoning), or None."""
    for att in ([c.attack_named(name)] if name else [c.wielded()] + c.melee_options()):
        if att is not None and att.mode == "melee" and not att.touch and att.damage.average > 0 \
                and not needs_draw(c, att) and any(ty in _SEVER_TYPES for ty in att.damage_types):
            return att
    return None


def do_sever(w: World, c: Creature, t: Turn, a: SeverStrand):
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures.get(a.target)
    s = strands.stuck_to(w, target) if target is not None else None
    roper = w.creatures.get(s[0]) if s else None
    if roper is None:
        return Impossible(f"{a.target!r} is not stuck to a strand")
    if target is not c and footprint_distance_ft(c.squares, target.squares) > max(5, c.reach_ft()):
        return Impossible(f"{target.name}'s strand is beyond {c.name}'s reach")
    att = sever_attack(c, a.attack)
    if att is None:
        return Impossible(f"{c.name} has no slashing or bludgeoning melee attack to cut a strand with")
    t.spend("standard")
    strand = roper.attack_named("strand")
    mine = {name.replace(" ", "_"): int(v) for name, v in att.bonus_parts}
    if c.str_mod_delta():
        mine["strength_damage"] = c.str_mod_delta()
    theirs = {name.replace(" ", "_"): int(v) for name, v in strand.bonus_parts}
    theirs["attached"] = combat_modifier("strand", "attached_sunder")
    if not opposed(w, c, roper, "sever_strand", att.name, mine, "strand", theirs):
        return True
    dealt = max(1, roll_dice(w, att.damage, c, f"{att.name} damage to a strand") + c.str_mod_delta())
    left = s[1] - dealt
    w.emit(Condition(round=w.round, target=target.id, condition="stuck", active=True, cause=c.id,
                     detail={"strand_damage": dealt, "strand_hp": max(0, left)}))
    if left <= 0:
        strands.free(w, target, "severed")
    else:
        put(target, make("stuck", s[0], None, hp=left, round=s[2]))
    return True


def refusal(w: World, c: Creature, action) -> Impossible | None:
    """A stuck creature cannot move away from its roper (our decision, docs/rules.md §11.15)."""
    s = strands.stuck_to(w, c)
    if s is None or not isinstance(action, (Move, FiveFootStep, Run, Withdraw, Charge)):
        return None
    roper = w.creatures.get(s[0])
    if roper is None:
        return None
    if isinstance(action, Charge):
        if action.target == roper.id:
            return None
        return Impossible(f"{c.name} is stuck to {roper.name}'s strand: it cannot charge away")
    to = tuple(action.to)
    if footprint_distance_ft(roper.squares, w.field(c).occupied(to)) > footprint_distance_ft(roper.squares, c.squares):
        return Impossible(f"{c.name} is stuck to {roper.name}'s strand: it cannot move away (break free or cut it)")
    return None


STRANDS = Mechanic("strands", actions={StrandVolley: do_volley, BreakStrand: do_break, SeverStrand: do_sever},
                   start_of_turn=start_of_turn, refusal=refusal)
