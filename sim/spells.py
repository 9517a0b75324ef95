"""The low-level spells a party casts underground (RULES §8): magic missile, sleep, burning hands,
cure light wounds, bless. Mechanics are data (``sim/data/spells.toml``); this module is the
procedure: slots, attacks of opportunity for casting (or casting defensively), Concentration
when hurt while casting or inside a swarm (§4.4), areas on the grid that stop at rock.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

from sim import combat
from sim.creature import Creature
from sim.events import Check, Healed, SpellCast
from sim.geometry import burst, cone, footprint_distance_ft, line_clear, line_of_effect
from sim.rules import _data
from sim.rules.dice import Dice
from sim.rules.weapons import combat_modifier
from sim.swarms import roll_save

if TYPE_CHECKING:  # pragma: no cover
    from sim.encounter import Cast, Encounter, Turn

SIMULATED = ("magic-missile", "sleep", "burning-hands", "cure-light-wounds", "bless")


@functools.cache
def spell_data() -> dict:
    return _data.load("spells.toml")["spell"]


def caster_level(c: Creature) -> int:
    return c.block.spells.caster_level if c.block.spells else 0


def range_ft(c: Creature, rng: str) -> int:
    cl = caster_level(c)
    return {"close": 25 + 5 * (cl // 2), "medium": 100 + 10 * cl, "touch": 5, "self": 0}[rng]


def has_spell(c: Creature, spell: str) -> int | None:
    """The slot level holding ``spell`` (prepared and unspent), or None."""
    for lvl, spells in sorted(c.spells_left.items()):
        if spell in spells and lvl > 0:
            return lvl
    return None


def _spend(c: Creature, spell: str) -> int:
    lvl = has_spell(c, spell)
    assert lvl is not None
    c.spells_left[lvl].remove(spell)
    return lvl


def _in_swarm(enc: "Encounter", c: Creature) -> bool:
    sq = set(c.squares)
    return any(o.is_swarm and o.in_fight and o.team != c.team and sq & set(o.squares) for o in enc.creatures.values())


def concentration(enc: "Encounter", c: Creature, dc: int, cause: str) -> bool:
    mod = int(c.block.skill("concentration"))
    roll = int(enc.rng.integers(1, 21))
    ok = roll + mod >= dc
    enc.emit(Check(round=enc.round, actor=c.id, skill="concentration", dc=dc, roll=roll, modifier=mod,
                   total=roll + mod, success=ok, cause=cause))
    return ok


def cast(enc: "Encounter", c: Creature, t: "Turn", a: "Cast"):
    from sim.encounter import Impossible

    spell = a.spell
    if spell not in SIMULATED:
        return Impossible(f"{spell} is not simulated (only {', '.join(SIMULATED)})")
    if c.nauseated:
        return Impossible("nauseated: no spells (§5.2)")
    lvl = has_spell(c, spell)
    if lvl is None:
        return Impossible(f"{c.name} has no {spell} prepared")
    data = spell_data()[spell]
    cat = combat.standing_category(enc, c)
    from sim.rules.categories import Category

    if cat is Category.TIGHT_SQUEEZE:
        return Impossible("no spellcasting in a tight squeeze")
    # targets and area, checked before anything is spent
    plan = _plan(enc, c, spell, data, a)
    if isinstance(plan, Impossible):
        return plan
    t.standard = False
    _spend(c, spell)
    # casting provokes unless cast defensively (§8)
    lost = False
    if a.defensive:
        if not concentration(enc, c, combat_modifier("concentration", "defensive_base") + lvl, "cast_defensively"):
            lost = True
    else:
        c.conditions.add("concentrating")
        enc.damage_while_casting = 0
        enc.provoke(c, "cast")
        c.conditions.discard("concentrating")
        if "hurt_while_casting" in c.conditions:
            c.conditions.discard("hurt_while_casting")
            dc = combat_modifier("concentration", "damaged_base") + enc.damage_while_casting + lvl
            if not c.in_fight or not concentration(enc, c, dc, "damaged_while_casting"):
                lost = True
    if not lost and c.in_fight and _in_swarm(enc, c):
        if not concentration(enc, c, combat_modifier("concentration", "swarm_base") + lvl, "inside_swarm"):
            lost = True
    if lost or not c.in_fight:
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=(), squares=(), defensive=a.defensive,
                           lost=True))
        return True
    _effect(enc, c, spell, data, plan, a)
    return True


def _plan(enc, c: Creature, spell: str, data: dict, a: "Cast"):
    from sim.encounter import Impossible

    reach = range_ft(c, data["range"])
    if spell in ("magic-missile", "cure-light-wounds"):
        target = enc.creatures.get(a.target or "")
        if target is None or not target.alive:
            return Impossible("choose a living target")
        if footprint_distance_ft(c.squares, target.squares) > reach:
            return Impossible(f"{target.name} is out of range ({reach} ft)")
        if not line_of_effect(enc.grid.rock, c.squares, target.squares):
            return Impossible(f"no line of effect to {target.name}")
        return [target]
    if spell == "sleep":
        if a.at is None:
            return Impossible("sleep needs a point (a grid intersection)")
        px, py = a.at
        xs = [x for x, _ in c.squares]
        ys = [y for _, y in c.squares]
        # 5-10-5 from the caster's space to the point (the nearest corner of the space)
        dx = max(0.0, min(xs) - px, px - (max(xs) + 1))
        dy = max(0.0, min(ys) - py, py - (max(ys) + 1))
        a_, b_ = int(math.ceil(dx)), int(math.ceil(dy))
        if 5 * (max(a_, b_) + min(a_, b_) // 2) > reach:
            return Impossible(f"the point {tuple(a.at)} is out of range ({reach} ft)")
        return burst_area(enc, a.at, int(data["radius_ft"]))
    if spell == "burning-hands":
        if a.direction is None or tuple(a.direction) == (0, 0) or any(v not in (-1, 0, 1) for v in a.direction):
            return Impossible("burning hands needs a direction (one of the eight)")
        origins = cone_origins(c, a.direction)
        origin = origins[0] if a.at is None else tuple(a.at)
        if origin not in origins:
            return Impossible(f"a cone towards {tuple(a.direction)} starts at a corner of the caster's space facing "
                              f"it: {' or '.join(map(str, origins))}")
        return cone(origin, a.direction, int(data["length_ft"]), enc.grid.rock)
    if spell == "bless":
        return burst_area(enc, _corner(c), int(data["radius_ft"]))
    return Impossible(f"unknown spell {spell}")


def burst_area(enc, point, radius_ft: int) -> list[tuple[int, int]]:
    """A burst's squares that its point of origin has a line of effect to: rock stops a burst as
    it stops a cone (SRD: an effect needs line of effect; RULES §8)."""
    return [q for q in burst(point, radius_ft, enc.grid.shape)
            if not enc.grid.rock[q[1], q[0]] and line_clear(enc.grid.rock, point, (q[0] + 0.5, q[1] + 0.5), ignore={q})]


def _corner(c: Creature) -> tuple[float, float]:
    x, y = c.pos
    return (x + 0.5 * c.k + 0.5 - 0.5, y + 0.5 * c.k)


def cone_origins(c: Creature, direction) -> list[tuple[int, int]]:
    """The grid intersections a cone towards ``direction`` may start from: a corner of the
    caster's space (SRD: "it starts from any corner of your square") on the side it faces. A
    diagonal starts at the facing corner; an orthogonal cone at the middle of the facing edge
    when that is an intersection (an even space), else at either end of the middle square's
    edge (a Medium caster aiming east: its north-east or south-east corner), first the one with
    the lesser coordinate."""
    x0 = min(x for x, _ in c.squares)
    y0 = min(y for _, y in c.squares)
    k = c.k
    dx, dy = direction

    def along(lo: int, d: int) -> list[int]:
        if d > 0:
            return [lo + k]
        if d < 0:
            return [lo]
        return [lo + k // 2] if k % 2 == 0 else [lo + k // 2, lo + k // 2 + 1]

    return [(ox, oy) for ox in along(x0, dx) for oy in along(y0, dy)]


def cone_squares(enc, c: Creature, direction, origin=None) -> list[tuple[int, int]]:
    """Burning hands' 15-ft cone from ``origin`` (one of :func:`cone_origins`, the first by default)."""
    origin = cone_origins(c, direction)[0] if origin is None else origin
    return cone(origin, direction, int(spell_data()["burning-hands"]["length_ft"]), enc.grid.rock)


def _effect(enc: "Encounter", c: Creature, spell: str, data: dict, plan, a: "Cast") -> None:
    cl = caster_level(c)
    if spell == "magic-missile":
        target = plan[0]
        missiles = int(data["missiles"][min(cl, len(data["missiles"])) - 1])
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        if target.is_swarm:
            return  # immune to spells that target a number of creatures (§4.5)
        dice = Dice.parse(data["damage"])
        total = sum(max(1, dice.roll(enc.rng)) for _ in range(missiles))
        combat.deal_damage(enc, target, [combat.DamagePart(total, "force", "energy")], source=c, cause="spell")
    elif spell == "cure-light-wounds":
        target = plan[0]
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        amount = Dice.parse(data["heal"]).roll(enc.rng) + min(cl * int(data["per_level"]), int(data["max_bonus"]))
        heal(enc, target, amount, source=c)
        if target.bleed:
            target.bleed = 0
            combat.clear_condition(enc, target, "wounded", "healed")
    elif spell == "burning-hands":
        squares = plan
        victims = [o for o in enc.creatures.values() if o is not c and o.alive and set(o.squares) & set(squares)]
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=tuple(v.id for v in victims),
                           squares=tuple(squares), defensive=a.defensive))
        n = min(cl, int(data["max_dice"]))
        dice = Dice(n, Dice.parse(data["damage_per_level"]).sides, 0)
        dc = c.block.spells.save_dc(1)
        for v in victims:
            amount = max(1, dice.roll(enc.rng))
            if roll_save(enc, v, "ref", dc, "burning_hands", c.id):
                amount = max(1, amount // 2)  # §7.23: halve, round down, at least 1
            if amount > 0:
                combat.deal_damage(enc, v, [combat.DamagePart(amount, "fire", "energy", area=True)], source=c,
                                   cause="spell")
    elif spell == "sleep":
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=(), squares=tuple(plan), defensive=a.defensive))
        c.pending_spell = ("sleep", tuple(plan), enc.round, tuple(a.at))
    elif spell == "bless":
        allies = [o for o in enc.creatures.values() if o.team == c.team and o.alive and set(o.squares) & set(plan)]
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=tuple(o.id for o in allies),
                           squares=(), defensive=a.defensive))
        until = enc.round + int(data["duration_rounds_per_level"]) * cl - 1
        for o in allies:
            o.blessed_until = until
            combat.set_condition(enc, o, "blessed", c.id)


def heal(enc: "Encounter", target: Creature, amount: int, *, source: Creature | None) -> None:
    target.hp = min(target.max_hp, target.hp + amount)
    enc.emit(Healed(round=enc.round, target=target.id, amount=amount, source=source.id if source else None,
                    hp_after=target.hp))
    for cond in ("dying", "stable", "disabled"):
        if cond in target.conditions and target.hp > 0:
            combat.clear_condition(enc, target, cond, "healed")
    if "dying" in target.conditions and target.hp >= 0:
        combat.clear_condition(enc, target, "dying", "healed")
    combat.update_state(enc, target)


def complete_pending(enc: "Encounter", c: Creature) -> None:
    """Sleep takes effect at the start of the caster's next turn (casting time 1 round, §8):
    4 HD of living creatures in the burst, fewest HD first (ties: nearest the centre), none of
    5+ HD; Will negates; mindless vermin swarms are immune. Distance to the centre: from the
    burst's point of origin (a grid intersection) to the nearest square centre of the creature."""
    kind, squares, _, (px, py) = c.pending_spell
    c.pending_spell = None
    data = spell_data()["sleep"]
    budget = int(data["hit_dice"])
    sq = set(squares)
    cands = []
    for o in enc.creatures.values():
        if o is c or not o.alive or not o.in_fight or not (sq & set(o.squares)):
            continue
        if o.block.type in data["immune_types"] or "sleep" in o.block.defenses.immune:
            continue
        if o.is_swarm and o.mindless:
            continue
        if o.block.hit_dice > int(data["max_hd_each"]):
            continue
        near = min(math.hypot(x + 0.5 - px, y + 0.5 - py) for x, y in o.squares)
        cands.append((o.block.hit_dice, near, o.id, o))
    cands.sort(key=lambda t: (t[0], t[1], t[2]))
    dc = c.block.spells.save_dc(1)
    for hd, _, _, o in cands:
        if hd > budget:
            break
        budget -= hd
        if not roll_save(enc, o, "will", dc, "sleep", c.id):
            combat.set_condition(enc, o, "asleep", c.id)
            # helpless for 1 min/level (10 rounds a level), unless a wound wakes it (§8)
            o.asleep_until = enc.round + int(data["duration_rounds_per_level"]) * caster_level(c)


def disturb_casting(enc: "Encounter", c: Creature, damage: int) -> None:
    """Damage during sleep's casting time (a round, §8): Concentration DC 10 + damage + spell
    level, or the spell is lost."""
    if c.pending_spell is None or damage <= 0:
        return
    spell = c.pending_spell[0]
    dc = combat_modifier("concentration", "damaged_base") + damage + int(spell_data()[spell]["level"])
    if not c.in_fight or not concentration(enc, c, dc, "damaged_while_casting"):
        c.pending_spell = None
        enc.emit(SpellCast(round=enc.round, actor=c.id, spell=spell, targets=(), squares=(), lost=True))
