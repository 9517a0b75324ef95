"""The attack actions (RULES §3.3, §6.5, §9.2): strike, full attack (with Rapid Shot), Manyshot,
draw, load, and attacks on a guessed square.

Each action checks the turn's budget, plans its attacks with :func:`sim.engine.attacks.plan_attack`
(or refuses with the reason), provokes where a ranged attack or loading provokes, and resolves the
plans with :func:`sim.engine.attacks.resolve_attack`. Also here: which attack a creature uses by
name, its full-attack routine, and the ranged supply (a crossbow or sling to load, a thrown weapon
gone once thrown).
"""

from __future__ import annotations

import dataclasses

from sim.engine.actions import (
    Draw,
    FullAttack,
    Impossible,
    Load,
    Manyshot,
    Strike,
    Turn,
)
from sim.engine.attacks import (
    attacker_modifiers,
    distance_reason,
    first_melee,
    plan_attack,
    provoke,
    resolve_attack,
    weapon_damage,
)
from sim.engine.creature import Creature
from sim.engine.events import ActionTaken
from sim.engine.events import Attack as AttackEvent
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.statblocks import Attack
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision import LOCATES


def load_action(att) -> str | None:
    """How a ranged attack's weapon is loaded between shots: "move" or "full_round" (crossbows,
    sling: RULES §3.3), or None (thrown weapons, bows: nothing to load)."""
    if att is None or att.mode != "ranged" or att.weapon is None or att.thrown:
        return None
    la = att.weapon.load_action
    return la if la in ("move", "full_round") else None


def needs_draw(c: Creature, att: Attack) -> bool:
    """Whether ``att`` needs its weapon drawn first (SRD Combat, draw a weapon: a move action): any
    manufactured weapon not in hand, melee or ranged (a crossbow, sling or bow). A thrown weapon
    (javelin, dagger) is drawn as part of the throw here (our choice; see README, AI)."""
    return att.kind == "weapon" and att.name != c.wielding and (att.mode == "melee" or not att.thrown)


def attack_for(w: World, c: Creature, name: str | None):
    att = c.attack_named(name) if name else (c.wielded() or first_melee(c))
    if att is None:
        return Impossible(f"{c.name} has no attack {name!r}")
    if needs_draw(c, att):
        return Impossible(f"{att.name} is not in hand: draw it first (a move action)")
    return att


def unperceived_reason(w: World, c: Creature, target: Creature) -> str | None:
    """Why ``c`` cannot aim at ``target`` by name: its side neither sees nor pinpoints it (RULES
    §9.2: total concealment, the square must be guessed), or None."""
    if target.team == c.team or not target.alive or w.side_perceives(c.team, target) >= LOCATES:
        return None
    return (f"{c.name}'s side cannot perceive {target.name} (RULES §9.2): attack the square you guess it is in "
            "(a 50% miss chance there; nobody there, a miss)")


def occupant(w: World, c: Creature, at) -> Creature | None:
    """Who is in the guessed square ``at``: a living creature of another side whose space holds it."""
    at = tuple(at)
    for o in w.creatures.values():
        if o is not c and o.alive and o.team != c.team and at in {tuple(q) for q in o.squares}:
            return o
    return None


def guess_reason(w: World, c: Creature, att: Attack, at, kind: str) -> str | None:
    """Why ``c`` cannot attack the square ``at`` with ``att`` now, or None (RULES §9.2)."""
    at = tuple(at)
    if not w.grid.in_bounds(at):
        return f"({at[0]}, {at[1]}) is off the map"
    if w.grid.rock[at[1], at[0]]:
        return f"({at[0]}, {at[1]}) is solid rock"
    if any(o is not c and o.alive and o.team == c.team and at in {tuple(q) for q in o.squares}
           for o in w.creatures.values()):
        return f"an ally stands at ({at[0]}, {at[1]})"
    mods = attacker_modifiers(w, c, att, kind=kind)
    if isinstance(mods, Impossible):
        return mods.reason
    return distance_reason(w, c, att, [at], f"({at[0]}, {at[1]})", mods, shared=at in {tuple(q) for q in c.squares})


def guessed_attack(w: World, c: Creature, att: Attack, at, *, kind: str, iterative: int = 0,
                   extra: dict[str, int] | None = None) -> bool:
    """One attack on a guessed square (RULES §9.2, SRD total concealment): whoever is there is
    attacked with the 50% miss chance; nobody there, it misses without a roll. The attack event
    says ``guessed`` and the square. Returns True on a hit."""
    at = (int(at[0]), int(at[1]))
    o = occupant(w, c, at)
    plan = _plan(w, c, att, o, kind, iterative, extra) if o is not None else None
    if not plan:
        mods = attacker_modifiers(w, c, att, kind=kind, iterative=iterative)
        if extra and isinstance(mods, dict):
            mods.update(extra)
        w.emit(AttackEvent(round=w.round, actor=c.id, target="", weapon=att.name, roll=0,
                           modifiers=dict(mods) if isinstance(mods, dict) else {}, total=0, ac=0, ac_modifiers={},
                           hit=False, critical=False, kind=kind, guessed=True, at=at))
        return False
    plan.guessed_at = at
    return resolve_attack(w, plan)


def _target(w: World, c: Creature, cid: str):
    """The creature ``cid`` that ``c`` attacks, or why it cannot: no such creature, or one it
    neither sees nor has located (RULES §9)."""
    target = w.creatures.get(cid)
    if target is None:
        return Impossible(f"no creature {cid!r}")
    why = unperceived_reason(w, c, target)
    return Impossible(why) if why else target


def do_strike(w: World, c: Creature, t: Turn, a: Strike):
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    if a.at is not None:
        return _strike_square(w, c, t, a)
    target = _target(w, c, a.target)
    if isinstance(target, Impossible):
        return target
    att = attack_for(w, c, a.attack)
    if isinstance(att, Impossible):
        return att
    why = unloaded_reason(w, c, att)
    if why:
        return Impossible(why)
    plan = plan_attack(w, c, att, target, kind="ranged" if att.mode == "ranged" else "melee")
    if not plan:
        return Impossible(plan.reason)
    if att.mode == "ranged":
        provoke(w, c, "ranged_attack")
        if not c.in_fight:
            t.spend("standard")
            return True
        plan = plan_attack(w, c, att, target, kind="ranged")
        if not plan:
            t.spend("standard")
            return True
    resolve_attack(w, plan)
    after_shot(w, c, att)
    t.spend("standard")
    return True


def _strike_square(w: World, c: Creature, t: Turn, a: Strike):
    att = attack_for(w, c, a.attack)
    if isinstance(att, Impossible):
        return att
    why = unloaded_reason(w, c, att)
    kind = "ranged" if att.mode == "ranged" else "melee"
    why = why or guess_reason(w, c, att, a.at, kind)
    if why:
        return Impossible(why)
    if att.mode == "ranged":
        provoke(w, c, "ranged_attack")
    if c.in_fight:
        guessed_attack(w, c, att, a.at, kind=kind)
        after_shot(w, c, att)
    t.spend("standard")
    return True


def do_full_attack(w: World, c: Creature, t: Turn, a: FullAttack):
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    target = None
    if a.at is None:
        target = _target(w, c, a.target)
        if isinstance(target, Impossible):
            return target
    routine = attack_routine(w, c, a.attack)
    if isinstance(routine, Impossible):
        return routine
    extra = None
    if a.rapid_shot:  # SRD Rapid Shot: one more attack at the highest bonus, every attack -2
        why = rapid_shot_reason(c, routine[0][0] if routine else None)
        if why:
            return Impossible(why)
        routine = [routine[0]] + routine
        extra = {"rapid_shot": combat_modifier("attack", "rapid_shot")}
    if routine and load_action(routine[0][0]) is not None:
        why = unloaded_reason(w, c, routine[0][0])
        if why:
            return Impossible(why)
        routine = routine[:1]  # one shot: loading again takes an action of its own (RULES §3.3)
    kind = lambda att: "melee" if att.mode == "melee" else "ranged"  # noqa: E731
    if target is None:  # every attack of the routine at the guessed square (RULES §9.2)
        reasons = [guess_reason(w, c, att, a.at, kind(att)) for att, _, _ in routine]
        if all(reasons):
            return Impossible(reasons[0])
    else:
        plans = [_plan(w, c, att, target, kind(att), it, extra) for att, it, _ in routine]
        if not any(plans):
            return Impossible(next(p.reason for p in plans if not p))
    t.spend("full")
    for att, iterative, _ in routine:
        if not c.in_fight or (target is not None and not target.alive):
            break
        if target is None:
            plan = None if guess_reason(w, c, att, a.at, kind(att)) else True
        else:
            plan = _plan(w, c, att, target, kind(att), iterative, extra)
        if not plan:
            continue  # e.g. the club of a claw-claw-club routine in an awkward space
        if att.thrown and c.thrown_left.get(att.weapon.key, 1) <= 0:
            break  # nothing left to throw
        if att.mode == "ranged":
            provoke(w, c, "ranged_attack")
            if not c.in_fight:
                break
        if target is None:
            guessed_attack(w, c, att, a.at, kind=kind(att), iterative=iterative, extra=extra)
        else:
            resolve_attack(w, plan)
        after_shot(w, c, att)
    return True


def _plan(w: World, c: Creature, att: Attack, target: Creature, kind: str, iterative: int, extra):
    """:func:`plan_attack`, with the ``extra`` modifiers of a feat (Rapid Shot) added to its roll."""
    plan = plan_attack(w, c, att, target, kind=kind, iterative=iterative)
    if plan and extra:
        plan.modifiers.update(extra)
    return plan


def rapid_shot_reason(c: Creature, att) -> str | None:
    """Why ``c`` cannot use Rapid Shot with ``att`` (SRD Rapid Shot), or None."""
    if not c.block.has_feat("rapid-shot"):
        return f"{c.name} lacks the Rapid Shot feat"
    if att is None or att.mode != "ranged":
        return "Rapid Shot needs a ranged weapon"
    if load_action(att) is not None:
        return f"Rapid Shot: the {att.name} must be loaded between shots (SRD: no crossbow without Rapid Reload)"
    return None


def is_bow(att) -> bool:
    """A bow (short, long, composite): what Manyshot fires (arrows)."""
    return (att is not None and att.mode == "ranged" and att.weapon is not None and not att.thrown
            and not att.weapon.crossbow and att.weapon.key.endswith("bow"))


def manyshot_arrows(c: Creature) -> int:
    """The arrows of one Manyshot (SRD): two, three at base attack +11, four at +16."""
    bab = c.block.bab
    return 2 + (bab >= 11) + (bab >= 16)


def manyshot_penalty(arrows: int) -> int:
    """The one roll's penalty (SRD Manyshot): -4 for two arrows, -2 more per arrow after the second."""
    return combat_modifier("attack", "manyshot") + combat_modifier("attack", "manyshot_extra_arrow") * (arrows - 2)


def manyshot_reason(w: World, c: Creature, att, target: Creature) -> str | None:
    """Why ``c`` cannot Manyshot ``target`` with ``att`` now, or None."""
    if not c.block.has_feat("manyshot"):
        return f"{c.name} lacks the Manyshot feat"
    if not is_bow(att):
        return "Manyshot fires arrows: it needs a bow"
    limit = combat_modifier("attack", "manyshot_range_ft")
    dist = footprint_distance_ft(c.squares, target.squares)
    if dist > limit:
        return f"{target.name} is {dist} ft away: Manyshot reaches {limit} ft"
    return None


def do_manyshot(w: World, c: Creature, t: Turn, a: Manyshot):
    """SRD Manyshot: a standard action; one roll for all arrows, each arrow's damage dealt apart
    (damage reduction against each), a critical and precision damage (sneak attack) on the first
    only. It provokes once, as any ranged attack; constricted spaces (RULES §2.4) apply to the roll."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = _target(w, c, a.target)
    if isinstance(target, Impossible):
        return target
    att = attack_for(w, c, a.attack)
    if isinstance(att, Impossible):
        return att
    why = manyshot_reason(w, c, att, target)
    if why:
        return Impossible(why)
    arrows = manyshot_arrows(c)
    extra = {"manyshot": manyshot_penalty(arrows)}
    plan = _plan(w, c, att, target, "ranged", 0, extra)
    if not plan:
        return Impossible(plan.reason)
    provoke(w, c, "ranged_attack")
    t.spend("standard")
    plan = _plan(w, c, att, target, "ranged", 0, extra) if c.in_fight else None
    if not plan:
        return True
    w.emit(ActionTaken(round=w.round, actor=c.id, action="manyshot", item=att.name))
    if resolve_attack(w, plan):
        plan.sneak = False  # precision damage once (SRD Manyshot)
        for _ in range(arrows - 1):
            if not target.alive:
                break
            weapon_damage(w, plan, critical=False, multiplier=1)
    return True


def attack_routine(w: World, c: Creature, name: str | None):
    """The attacks of a full attack: iterative attacks with one weapon (BAB 6+), or a monster's
    full-attack routine of natural attacks."""
    att = attack_for(w, c, name)
    if isinstance(att, Impossible):
        return att
    if att.kind == "natural" or (c.block.full_attacks and att.kind != "weapon"):
        for routine in c.block.full_attacks:
            if any(x.name == att.name for x in routine):
                out = []
                for x in routine:
                    for _ in range(max(1, x.count)):
                        out.append((x, 0, None))
                return out
    return [(att, i, None) for i in range(len(att.bonuses) or 1)]


def unloaded_reason(w: World, c: Creature, att) -> str | None:
    """Why this crossbow or sling cannot shoot now: it was fired and not loaded again."""
    la = load_action(att)
    if la is None or att.name not in c.unloaded:
        return None
    how = "a move action" if la == "move" else "a full-round action"
    return f"the {att.name} is not loaded: load it first ({how}, provokes; O in cavesim play)"


def after_shot(w: World, c: Creature, att) -> None:
    """A crossbow or sling is empty after a shot; a thrown weapon is gone (the last one thrown
    takes that weapon's attacks with it, and empties the hand that held it)."""
    if load_action(att) is not None:
        c.unloaded.add(att.name)
    if not att.thrown or att.weapon is None or att.weapon.key not in c.thrown_left:
        return
    key = att.weapon.key
    c.thrown_left[key] -= 1
    if c.thrown_left[key] > 0:
        return
    gone = {x.name for x in c.block.attacks if x.weapon is not None and x.weapon.key == key}
    c.block = dataclasses.replace(c.block, attacks=tuple(x for x in c.block.attacks if x.name not in gone))
    c.base_block = dataclasses.replace(c.base_block,
                                       attacks=tuple(x for x in c.base_block.attacks if x.name not in gone))
    if c.wielding in gone:
        c.wielding = None
    w.emit(ActionTaken(round=w.round, actor=c.id, action="last_thrown", item=key))


def do_load(w: World, c: Creature, t: Turn, a: Load):
    if a.attack is not None:
        att = c.attack_named(a.attack)
        if att is None:
            return Impossible(f"{c.name} has no attack {a.attack!r}")
        if load_action(att) is None:
            return Impossible(f"a {att.name} needs no loading")
        if att.name not in c.unloaded:
            return Impossible(f"the {att.name} is already loaded")
    else:
        att = next((x for x in c.block.attacks if x.name in c.unloaded and load_action(x)), None)
        if att is None:
            return Impossible("nothing to load: every crossbow and sling is loaded")
    full = load_action(att) == "full_round"
    why = t.needs(c, full=full, move=not full)
    if why:
        return Impossible(why)
    provoke(w, c, "load")
    if full:
        t.spend("full")
    else:
        t.spend("move", c)
    if c.in_fight:
        c.unloaded.discard(att.name)
        w.emit(ActionTaken(round=w.round, actor=c.id, action="load", item=att.name))
    return True


def do_draw(w: World, c: Creature, t: Turn, a: Draw):
    why = t.needs(c, move=True)
    if why:
        return Impossible(why)
    att = c.attack_named(a.attack)
    if att is None:
        return Impossible(f"{c.name} carries no {a.attack!r}")
    if att.name == c.wielding:
        return Impossible(f"{att.name} is already in hand")
    c.wielding = att.name
    w.emit(ActionTaken(round=w.round, actor=c.id, action="draw", item=att.name))
    t.spend("move", c)
    return True


ATTACKS = Mechanic("attacks", actions={Strike: do_strike, FullAttack: do_full_attack, Draw: do_draw, Load: do_load,
                                       Manyshot: do_manyshot})
