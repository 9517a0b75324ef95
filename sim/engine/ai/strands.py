"""What the default AI does with a roper's strands (docs/rules.md §11.15):

* the roper, with its full round free, makes its full attack (:class:`StrandVolley`): a strand at
  each foe it perceives within 50 ft that no strand holds yet (nearest first, as many as it has
  strands free), and the bite at a foe within reach (one drawn in this round first: +4);
* a creature stuck to a strand, with a standard action, takes the better of its ways out this
  turn: break free (Escape Artist DC 23 or Strength DC 19, the better of the two) or cut the
  strand (a slashing or bludgeoning melee attack: the chance to win the opposed roll times the
  share of the strand's hit points its average damage takes), when that chance is at least 5%;
* [PD] an ally cuts a friend free (:func:`cut_friend`): not stuck itself, with a standard action,
  no foe within its reach (attacking one pays better) and a slashing or bludgeoning melee attack,
  it cuts the strand of a friend within its reach that the drag still pulls (more than 5 ft from
  its roper, in no grapple) when the cut frees it this turn with a chance of at least 15% (the
  friend nearest its roper first).

Pure questions except for the action returned.
"""

from __future__ import annotations

from sim.engine import strands
from sim.engine.actions import Turn
from sim.engine.ai.maneuvers import opposed_chance
from sim.engine.ai.tactic import Melee, Tactic
from sim.engine.attacks import plan_attack
from sim.engine.creature import Creature
from sim.engine.strands.actions import (
    BreakStrand,
    SeverStrand,
    StrandVolley,
    break_odds,
    sever_attack,
)
from sim.engine.world import World
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision import LOCATES

MIN_CHANCE = 0.05
FRIEND_MIN_CHANCE = 0.15   # [PD] docs/rules.md §11.15: an ally's cut must free the friend this often


def override(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """The strand action for ``c`` now, or None."""
    if strands.stuck_to(w, c) is not None and t.standard:
        act = get_free(w, c)
        if act is not None:
            return act
    if strands.strand_rider(c) is not None and t.full_round:
        return volley(w, c, foes)
    if t.standard and strands.stuck_to(w, c) is None:
        return cut_friend(w, c, foes)
    return None


def cut_chance(w: World, c: Creature, att, target: Creature) -> float:
    """The chance that ``c``'s cut with ``att`` frees ``target`` this turn: winning the opposed
    roll times the share of the strand's hit points left that its average damage takes."""
    s = strands.stuck_to(w, target)
    strand = w.creatures[s[0]].attack_named("strand")
    if strand is None:
        return 0.0
    mine = att.bonus + c.str_mod_delta()
    theirs = strand.bonus + combat_modifier("strand", "attached_sunder")
    share = min(1.0, max(1.0, att.damage.average + c.str_mod_delta()) / max(1, s[1]))
    return opposed_chance(mine, theirs) * share


def cut_friend(w: World, c: Creature, foes: list[Creature]):
    """[PD] The strand of a friend ``c`` cuts this turn (docs/rules.md §11.15), or None."""
    reach = max(5, c.reach_ft())
    if c.grappling or any(f.in_fight and footprint_distance_ft(c.squares, f.squares) <= reach for f in foes):
        return None
    att = sever_attack(c, None)
    if att is None:
        return None
    best = None
    for o in w.creatures.values():
        s = strands.stuck_to(w, o) if o is not c and o.team == c.team and o.in_fight else None
        roper = w.creatures.get(s[0]) if s else None
        if roper is None or not roper.in_fight or o.grappling:
            continue
        pull = footprint_distance_ft(roper.squares, o.squares)
        if pull <= 5 or footprint_distance_ft(c.squares, o.squares) > reach:
            continue
        if cut_chance(w, c, att, o) >= FRIEND_MIN_CHANCE and (best is None or (pull, o.id) < best[0]):
            best = ((pull, o.id), o.id)
    return None if best is None else SeverStrand(best[1])


def volley(w: World, c: Creature, foes: list[Creature]):
    seen = [f for f in foes if w.side_perceives(c.team, f) >= LOCATES]
    seen.sort(key=lambda f: (footprint_distance_ft(c.squares, f.squares), f.id))
    strand = c.attack_named("strand")
    targets = []
    free = strands.strands_free(w, c)
    for f in seen:
        if len(targets) >= free:
            break
        if strands.stuck_to(w, f) is None and plan_attack(w, c, strand, f, kind="ranged"):
            targets.append(f.id)
    bite = c.attack_named("bite")
    bite_at = None
    if bite is not None:
        best = None
        for f in seen:
            plan = plan_attack(w, c, bite, f, kind="melee")
            if plan:
                key = (-plan.bonus + plan.ac, f.hp, f.id)     # the likeliest hit first (the +4 counts)
                if best is None or key < best[0]:
                    best = (key, f.id)
        bite_at = best[1] if best else None
    if not targets and bite_at is None:
        return None
    return StrandVolley(tuple(targets), bite_at)


def free_chances(w: World, c: Creature) -> dict[str, float]:
    """The chance that each way out frees ``c`` this turn: "break" and "sever"."""
    s = strands.stuck_to(w, c)
    roper = w.creatures[s[0]]
    _, margin = break_odds(c, roper)
    out = {"break": max(0.0, min(1.0, (21 + margin) / 20))}
    att = sever_attack(c, None)
    out["sever"] = 0.0 if att is None else cut_chance(w, c, att, c)
    return out


def get_free(w: World, c: Creature):
    ch = free_chances(w, c)
    if max(ch.values()) < MIN_CHANCE:
        return None
    if ch["sever"] > ch["break"]:
        return SeverStrand(c.id)
    return BreakStrand()


def _tactic(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee):
    return override(w, c, t, foes)


STRANDS = Tactic("strands", _tactic)   # a roper's strands, a stuck creature (§11.15)

