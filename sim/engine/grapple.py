"""Grappling (SRD Combat, Special Attacks; docs/rules.md §11): the grapple check, starting a
grapple, holding, damaging (constrict), pinning, escaping (opposed grapple or Escape Artist),
moving a grapple, what grappled creatures may do, and improved grab.

The grapple check is d20 + BAB + Str modifier + the size's grapple modifier (RULES §1.1), plus a
racial bonus (the choker's +4) and Improved Grapple's +4; our decision (§11.1, setting
``grapple_constricted``): the constricted-space penalties apply to it as to an attack with a light
weapon (RULES §2.5 index 1), so a Large creature crawling in a 5-ft tunnel grapples at -8.

State: ``Creature.grapple_with`` (the ids it is grappling with, both ways), ``Creature.pinned_by``
(until the pinner's next turn). The two creatures stay in their own squares while they grapple,
within the reach of one of them (§11.3, a project decision for the grid). Every check is an
:class:`~sim.engine.events.Opposed` event; "grappled" and "pinned" are conditions (their ``detail``
names the other creature), which the log and the renderer's tether read.
"""

from __future__ import annotations

import dataclasses

from sim.engine import attacks, moves
from sim.engine.actions import (
    BullRush,
    Cast,
    Charge,
    Escape,
    FiveFootStep,
    Grapple,
    Impossible,
    LightTorch,
    Load,
    Move,
    MoveGrapple,
    Pin,
    PrepareFuse,
    Run,
    Throw,
    Trip,
    Turn,
    Withdraw,
)
from sim.engine.afflictions import rider
from sim.engine.checks import d20, hits
from sim.engine.creature import Creature
from sim.engine.damage import DamagePart, clear_status, deal_damage
from sim.engine.events import Attack as AttackEvent
from sim.engine.events import Condition, Moved, Opposed
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Grabs, Part
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.statblocks import feat_table
from sim.rules.weapons import combat_modifier, damage_for, handed_index
from sim.rules.weapons import weapon as weapon_named
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement.field import BLOCKED

# -- who may grapple -----------------------------------------------------------------------------------------------

def cannot_be_grappled(t: Creature) -> str | None:
    """Why ``t`` cannot be grappled (or tripped): a swarm (RULES §4.5)."""
    if t.is_swarm:
        return f"{t.name} is a swarm: swarms cannot be grappled or tripped (RULES §4.5)"
    return None


def cannot_grapple(c: Creature) -> str | None:
    if c.is_swarm or c.block.grapple is None:
        return f"{c.name} is a swarm: it cannot grapple (RULES §4.5)"
    return None


def refusal(w: World, c: Creature, action) -> Impossible | None:
    """What a grappled or pinned creature may not do (docs/rules.md §11.4): move (but move the
    grapple), cast, throw, load, light, trip or bull rush; a pinned one only tries to escape."""
    if c.pinned_by and not isinstance(action, Escape):
        return Impossible(f"{c.name} is pinned: it can only try to escape (§11.5)")
    if not c.grappling:
        return None
    if isinstance(action, (Move, FiveFootStep, Run, Withdraw, Charge)):
        return Impossible(f"{c.name} is grappling: it cannot move (escape first, or move the grapple at half speed, §11.7)")
    if isinstance(action, (Cast, Throw, LightTorch, Load, PrepareFuse, Trip, BullRush)):
        return Impossible(f"{c.name} is grappling: no {type(action).__name__.lower()} in a grapple (§11.4)")
    return None


def light_in_grapple(c: Creature, att) -> bool:
    """A natural weapon, an unarmed strike or a light weapon (SRD: the only attacks in a grapple)."""
    if att.kind == "natural":
        return True
    if att.weapon is None or att.mode != "melee":
        return False
    idx = handed_index(att.weapon, c.size)
    return idx is not None and idx <= 1


# -- the check ---------------------------------------------------------------------------------------------------

def constricted_parts(w: World, c: Creature) -> dict[str, int]:
    """The constricted-space penalty of ``c``'s squares as for a light weapon (docs/rules.md §11.1):
    narrow or low -2, narrow and low -4, crawlway -2 (-4 if also narrow) and prone -4, awkward -8;
    a tight squeeze allows no attacks, and its opposed checks take the awkward -8."""
    if not w.settings.get("grapple_constricted", True):
        return {}
    cat = attacks.standing_category(w, c)
    if cat is Category.CLEAR or cat >= Category.IMPASSABLE:
        return {}
    label = cat.name.lower()
    if cat is Category.TIGHT_SQUEEZE:
        return {label: int(effects(Category.AWKWARD).melee_mod(1))}
    eff = effects(cat)
    narrow = cat is Category.CRAWL and attacks.crawl_is_narrow(w, c)
    mod = eff.melee_mod(1, narrow=narrow)
    if cat is Category.CRAWL and not w.settings.get("crawl_weapon_rows", True):
        mod = 0
    if c.block.has_feat("tunnelfighter") and cat is Category.NARROW_OR_LOW:
        mod = 0
    parts = {label: int(mod)} if mod else {}
    if (c.prone or eff.posture == "prone") and eff.prone_melee_penalty_applies:
        parts["prone"] = combat_modifier("attack", "prone_melee")
    return parts


def grapple_parts(w: World, c: Creature) -> dict[str, int]:
    """Every part of ``c``'s grapple check: BAB, Str (after ability damage), size (RULES §1.1),
    racial bonus, Improved Grapple, and the constricted space (§11.1)."""
    b = c.block
    parts = {"base_attack": int(b.bab), "str": b.abilities.mod("str") + c.str_mod_delta(), "size": int(b.size.grapple)}
    if b.source.grapple_bonus:
        parts["racial"] = int(b.source.grapple_bonus)
    for f in b.feats:
        bonus = int(feat_table().get(f.key, {}).get("grapple", 0))
        if bonus:
            parts[f.key.replace("-", "_")] = bonus
    parts.update(constricted_parts(w, c))
    return parts


def escape_artist_parts(c: Creature) -> dict[str, int]:
    """An Escape Artist check in place of a grapple check: the skill (Dex, ranks, armor check
    penalty, RULES §2.4); no constricted-space penalty (it is not an attack, §11.6)."""
    return {"escape_artist": int(c.block.escape_artist)}


def opposed(w: World, a: Creature, t: Creature, purpose: str, a_check: str, a_mods: dict[str, int],
            t_check: str, t_mods: dict[str, int]) -> bool:
    """An opposed check: the higher total wins; a tie goes to the higher modifier, then to a
    roll-off (SRD "Opposed Checks"). Emits :class:`Opposed`; True when ``a`` wins."""
    ra, rt = d20(w), d20(w)
    ma, mt = sum(a_mods.values()), sum(t_mods.values())
    ta, tt = ra + ma, rt + mt
    if ta != tt:
        win = ta > tt
    elif ma != mt:
        win = ma > mt
    else:
        win = bool(w.rng.random() < 0.5)
    w.emit(Opposed(round=w.round, actor=a.id, target=t.id, purpose=purpose, check=a_check, roll=ra,
                   modifiers=dict(a_mods), total=ta, target_check=t_check, target_roll=rt,
                   target_modifiers=dict(t_mods), target_total=tt, success=win))
    return win


# -- holding and letting go -------------------------------------------------------------------------------------

def hold(w: World, a: Creature, t: Creature, cause: str) -> None:
    """``a`` and ``t`` are now grappling (both are "grappled")."""
    for x, y in ((a, t), (t, a)):
        if y.id not in x.grapple_with:
            x.grapple_with.append(y.id)
            x.set_status("grappled")
            w.emit(Condition(round=w.round, target=x.id, condition="grappled", active=True, cause=cause,
                             detail={"with": tuple(x.grapple_with)}))


def release(w: World, a: Creature, b: Creature, cause: str) -> None:
    """The grapple between ``a`` and ``b`` ends (a pin between them too)."""
    for x, y in ((a, b), (b, a)):
        if y.id in x.grapple_with:
            x.grapple_with.remove(y.id)
            if x.pinned_by == y.id:
                x.pinned_by = None
                clear_status(w, x, "pinned", cause)
            if x.grapple_with:   # still held by others: the condition goes on, with fewer creatures
                w.emit(Condition(round=w.round, target=x.id, condition="grappled", active=True, cause=cause,
                                 detail={"with": tuple(x.grapple_with)}))
            elif x.clear_status("grappled"):
                w.emit(Condition(round=w.round, target=x.id, condition="grappled", active=False, cause=cause,
                                 detail={"with": ()}))


def hold_reach(a: Creature, b: Creature) -> int:
    """How far apart two grapplers may stand: the longer natural reach (at least 5 ft.)."""
    return max(5, a.reach_ft(), b.reach_ft())


def tidy(w: World) -> None:
    """End the grapples that cannot go on: a creature dead, out of the fight (a grappler lets go
    of a foe that is down, §11.3), or the two no longer within reach of each other (not the hold
    of a creature inside another, §11.13)."""
    for c in w.creatures.values():
        for oid in list(c.grapple_with):
            o = w.creatures[oid]
            if w.swallowed.inside.get(c.id) == oid:
                continue   # inside its swallower or engulfer: sim.engine.swallow ends that (§11.13)
            if not (c.in_fight and o.in_fight):
                release(w, c, o, "out_of_fight")
            elif footprint_distance_ft(c.squares, o.squares) > hold_reach(c, o):
                release(w, c, o, "out_of_reach")


def end_all(w: World) -> None:
    """Every grapple ends with the fight."""
    for c in w.creatures.values():
        for oid in list(c.grapple_with):
            release(w, c, w.creatures[oid], "fight_over")


def start_of_turn(w: World, c: Creature) -> None:
    """A pin lasts until the pinner's next turn (SRD: held immobile for 1 round)."""
    for o in w.creatures.values():
        if o.pinned_by == c.id:
            o.pinned_by = None
            clear_status(w, o, "pinned", "expired")
    tidy(w)


# -- damage in a grapple ----------------------------------------------------------------------------------------

def constrict_rider(c: Creature):
    return next((r for r in c.block.riders if r.kind == "constrict"), None)


def grapple_damage(w: World, a: Creature, t: Creature, *, with_unarmed: bool = True) -> None:
    """Damage from a won grapple check: constriction (bludgeoning, lethal) when ``a`` constricts;
    otherwise an unarmed strike of its size + Str, nonlethal (SRD "Damage Your Opponent")."""
    r = constrict_rider(a)
    if r is not None:
        parts = []
        for i, text in enumerate(r.damage):   # "2d6+4" (bludgeoning), then "2d6 acid" (an ooze's)
            words = text.split()
            dice = Dice.parse(words[0])
            if i == 0:
                parts.append(DamagePart(max(1, dice.plus(a.str_mod_delta()).roll(w.rng)), "bludgeoning", "weapon"))
            else:
                parts.append(DamagePart(max(0, dice.roll(w.rng)), words[1] if len(words) > 1 else "bludgeoning",
                                        "energy"))
        deal_damage(w, t, parts, source=a, cause="constrict")
        return
    if not with_unarmed:
        return
    dice = damage_for(weapon_named("unarmed-strike"), a.size).plus(a.block.abilities.mod("str") + a.str_mod_delta())
    amount = max(1, dice.roll(w.rng))
    deal_damage(w, t, [DamagePart(amount, "bludgeoning", "weapon", nonlethal=True)], source=a, cause="grapple")


def attempt_hold(w: World, a: Creature, t: Creature, *, improved_grab: bool) -> bool:
    """The opposed grapple check that establishes a hold (SRD step 3); won: they grapple, and
    ``a`` deals its grapple damage (improved grab: only constriction, the hit's damage is dealt)."""
    if not opposed(w, a, t, "grapple_hold", "grapple", grapple_parts(w, a), "grapple", grapple_parts(w, t)):
        return False
    hold(w, a, t, "improved_grab" if improved_grab else "grapple")
    if t.alive:
        grapple_damage(w, a, t, with_unarmed=not improved_grab)
    return True


def grab_size_ok(a: Creature, t: Creature, max_size: str | None) -> bool:
    """Improved grab works on creatures up to ``max_size``; unstated: one size smaller (SRD)."""
    limit = Size.parse(max_size) if max_size else Size(int(a.size) - 1)
    return t.size <= limit


def resolve_grabs(w: World) -> None:
    """Improved grab (SRD, Special Abilities): each hit of an attack with the rider (recorded by
    ``afflictions.apply_riders``) starts a grapple as a free action, without an attack of
    opportunity and without a touch attack; one hold per grabber (§11.3)."""
    pending, w.grabs.pending = w.grabs.pending, []
    for gid, tid, key in pending:
        g, t = w.creatures.get(gid), w.creatures.get(tid)
        if g is None or t is None or not (g.in_fight and t.in_fight):
            continue
        r = rider(g.block, key)
        if r is None or cannot_be_grappled(t) or cannot_grapple(g) or g.grappling and tid not in g.grapple_with:
            continue
        if tid in g.grapple_with or not grab_size_ok(g, t, r.max_size):
            continue
        attempt_hold(w, g, t, improved_grab=True)


def after_action(w: World) -> None:
    """After every action: improved grabs of its hits, then the grapples that ended."""
    if w.grabs.pending:
        resolve_grabs(w)
    tidy(w)


# -- the actions ------------------------------------------------------------------------------------------------

def touch_plan(w: World, a: Creature, t: Creature, purpose: str):
    """The plan of a melee touch attack (grapple, trip): BAB + Str + size, with every situational
    modifier of :func:`sim.engine.attacks.plan_attack` (constricted space, prone, flanking...), or
    the reason it cannot be made (out of reach...)."""
    base = attacks.first_melee(a)
    if base is None:
        base = a.attack_named("unarmed-strike")
    if base is None:
        return Impossible(f"{a.name} has no melee attack to {purpose} with")
    b = a.block
    parts = (("base_attack", int(b.bab)), ("str", b.abilities.mod("str")), ("size", int(b.size.modifier)))
    touch = dataclasses.replace(base, name=purpose, touch=True, kind="natural", bonus_parts=parts, riders=(),
                                weapon=None, mode="melee", thrown=False, reach_ft=float(a.reach_ft()))
    return attacks.plan_attack(w, a, touch, t, kind="melee")


def touch_attack(w: World, a: Creature, t: Creature, purpose: str) -> bool | Impossible:
    """Roll the melee touch attack of :func:`touch_plan` (no damage); True on a hit."""
    plan = touch_plan(w, a, t, purpose)
    if not plan:
        return plan
    roll = d20(w)
    total = roll + plan.bonus
    hit = hits(roll, total, plan.ac)
    chance = w.miss_chance(a, t)
    miss_roll = int(w.rng.integers(1, 101)) if hit and chance else None
    if miss_roll is not None and miss_roll <= chance:
        hit = False
    w.emit(AttackEvent(round=w.round, actor=a.id, target=t.id, weapon=purpose, roll=roll,
                       modifiers=dict(plan.modifiers), total=total, ac=plan.ac, ac_modifiers=dict(plan.ac_modifiers),
                       hit=hit, critical=False, kind="touch", miss_chance=chance, miss_roll=miss_roll,
                       concealment="none" if not chance else ("total" if chance >= 50 else "concealment")))
    return hit


def provoked_fails(w: World, a: Creature, t: Creature, why: str) -> bool:
    """The target's attack of opportunity against a grapple (or trip, bull rush) attempt; True
    when it dealt damage (the attempt fails, SRD) or took ``a`` out of the fight."""
    before = (a.hp, a.nonlethal)
    attacks.attack_of_opportunity(w, t, a, why)
    return (a.hp, a.nonlethal) != before or not a.in_fight


def do_grapple(w: World, c: Creature, t: Turn, a: Grapple):
    """Start a grapple (touch attack, provoking without Improved Grapple, then the hold), or, with
    the target already held, an opposed grapple check to damage it (constrict)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures.get(a.target)
    if target is None or target is c:
        return Impossible(f"no creature {a.target!r} to grapple")
    no = cannot_grapple(c) or cannot_be_grappled(target)
    if no:
        return Impossible(no)
    if not target.alive:
        return Impossible(f"{target.name} is already out")
    if target.id in c.grapple_with:
        t.spend("standard")
        if opposed(w, c, target, "grapple_damage", "grapple", grapple_parts(w, c), "grapple", grapple_parts(w, target)):
            grapple_damage(w, c, target)
        return True
    if c.grappling:
        return Impossible(f"{c.name} is already grappling; it can damage, pin or escape (§11.4)")
    if not effects(attacks.standing_category(w, c)).attacks:
        return Impossible(f"{c.name} cannot attack in a tight squeeze, nor start a grapple (§11.1)")
    plan = touch_plan(w, c, target, "grapple")
    if not plan:
        return Impossible(plan.reason)
    t.spend("standard")
    if not c.block.has_feat("improved-grapple") and provoked_fails(w, c, target, "grapple"):
        return True
    hit = touch_attack(w, c, target, "grapple")
    if isinstance(hit, Impossible):
        return hit
    if hit and c.in_fight and target.in_fight:
        attempt_hold(w, c, target, improved_grab=False)
    return True


def do_pin(w: World, c: Creature, t: Turn, a: Pin):
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures.get(a.target)
    if target is None or target.id not in c.grapple_with:
        return Impossible(f"{c.name} is not grappling {a.target!r}: grapple it first")
    if target.pinned_by == c.id:
        return Impossible(f"{target.name} is already pinned")
    t.spend("standard")
    if opposed(w, c, target, "pin", "grapple", grapple_parts(w, c), "grapple", grapple_parts(w, target)):
        target.pinned_by = c.id
        target.set_status("pinned")
        w.emit(Condition(round=w.round, target=target.id, condition="pinned", active=True, cause="pin",
                         detail={"with": (c.id,)}))
    return True


def do_escape(w: World, c: Creature, t: Turn, a: Escape):
    """Escape every grappler: win an opposed check against each (grapple, or Escape Artist)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    if not c.grappling:
        return Impossible(f"{c.name} is not grappling")
    t.spend("standard")
    mine = escape_artist_parts(c) if a.artist else grapple_parts(w, c)
    check = "escape_artist" if a.artist else "grapple"
    others = [w.creatures[i] for i in c.grapple_with]
    for o in others:
        if not opposed(w, c, o, "escape", check, mine, "grapple", grapple_parts(w, o)):
            return True
    for o in others:
        release(w, c, o, "escaped")
    return True


def do_move_grapple(w: World, c: Creature, t: Turn, a: MoveGrapple):
    """Move the grapple half speed (opposed checks against everyone in it), dragging the others
    into the squares ``c`` leaves; a step the dragged body does not fit stops it (§11.7)."""
    from_moves = moves.path_to(w, c, a.to)
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    if not c.grappling:
        return Impossible(f"{c.name} is not grappling")
    if isinstance(from_moves, Impossible):
        return from_moves
    t.spend("standard")
    others = [w.creatures[i] for i in c.grapple_with]
    for o in others:
        if not opposed(w, c, o, "move_grapple", "grapple", grapple_parts(w, c), "grapple", grapple_parts(w, o)):
            return True
    budget = c.speed_ft_value() // 2
    path, dragged = [], {o.id: [] for o in others}
    for step in from_moves.steps:
        if step.kind not in ("walk", "crawl") or budget < step.feet:
            break
        before = c.pos
        if not all(_fits(w, o, before, c) for o in others):
            break
        budget -= int(step.feet)
        w.place(c, tuple(step.at), trail_step=True)
        path.append({"at": list(step.at), "category": step.category, "kind": step.kind, "feet": int(step.feet)})
        for o in others:
            w.place(o, before, trail_step=True)
            cat = Category(int(w.field(o).category[before[1], before[0]])).name
            dragged[o.id].append({"at": list(before), "category": cat, "kind": "dragged", "feet": 5})
    w.emit(Moved(round=w.round, actor=c.id, path=tuple(path), squares=tuple(c.squares), prone=c.prone,
                 action="move_grapple"))
    for o in others:
        w.emit(Moved(round=w.round, actor=o.id, path=tuple(dragged[o.id]), squares=tuple(o.squares), prone=o.prone,
                     action="dragged"))
    return True


def _fits(w: World, o: Creature, at, mover: Creature) -> bool:
    """Whether ``o``'s body can stand with its reference square at ``at`` (the square the mover
    leaves): its movement field allows it and nobody else but the mover stands there."""
    if not w.grid.in_bounds(at) or w.field(o).mode[at[1], at[0]] == BLOCKED:
        return False
    others = {sq for x in w.creatures.values() if x is not o and x is not mover and x.alive and not x.is_swarm
              for sq in x.squares}
    k = o.k
    return not any((at[0] + dx, at[1] + dy) in others for dx in range(k) for dy in range(k))


GRAPPLE = Mechanic("grapple", actions={Grapple: do_grapple, Pin: do_pin, MoveGrapple: do_move_grapple},
                   start_of_turn=start_of_turn, after_action=after_action, refusal=refusal,
                   part=Part("grabs", Grabs))
