"""The spells a party casts underground (RULES §8): magic missile, sleep, burning hands, cure light
and cure moderate wounds, bless, fireball (a 20-ft spread), lightning bolt (a 120-ft line), hold person. Mechanics are data (``sim/data/spells.toml``, read by :mod:`sim.engine.casting`, which also keeps
the slots); this module is the procedure: slots, attacks of opportunity for casting (or casting defensively), Concentration
when hurt while casting or inside a swarm (§4.4), areas on the grid that stop at rock.
"""

from __future__ import annotations

import math

from sim.engine import attacks, damage, innate, specials, zones
from sim.engine.actions import Cast, Impossible, Turn
from sim.engine.casting import (
    SIMULATED,
    caster_level,
    has_spell,
    in_swarm,
    innate_level,
    range_ft,
    spell_data,
    spend_slot,
)
from sim.engine.checks import concentration, label, roll_dice, roll_save
from sim.engine.conditions import add, end
from sim.engine.creature import Creature
from sim.engine.damage import heal
from sim.engine.events import SpellCast
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Casting, Part
from sim.engine.world import World
from sim.rules.categories import Category
from sim.rules.dice import Dice
from sim.rules.weapons import combat_modifier
from sim.terrain.edges import segment_clear
from sim.terrain.geometry import (
    burst,
    center,
    cone,
    distance_squares,
    footprint_distance_ft,
    line_clear,
    squares_on_segment,
)
from sim.terrain.vision import SEES
from sim.terrain.vision.scene import DroppedLight, darkness_light


def cast(w: World, c: Creature, t: Turn, a: Cast):
    """Cast a spell (the handler of :class:`Cast`): a standard action, checked and refused before
    anything is spent; casting provokes unless cast defensively (§8)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    spell = a.spell
    if spell not in SIMULATED:
        return Impossible(f"{spell} is not simulated (only {', '.join(SIMULATED)})")
    if c.nauseated:
        return Impossible("nauseated: no spells (§5.2)")
    lvl = has_spell(c, spell)
    sla = innate.usable(w, c, spell) if lvl is None else None   # a spell-like ability (docs/rules.md §8.5)
    if lvl is None and sla is None:
        return Impossible(f"{c.name} has no {spell} prepared" + (" (its use today is spent)"
                                                                 if innate.ability(c, spell) else ""))
    if sla is not None:
        if sla.self_only and a.target not in (None, c.id):
            return Impossible(f"{c.name}'s {spell.replace('-', ' ')} affects only itself")
        lvl = sla.level
    data = spell_data()[spell]
    cat = attacks.standing_category(w, c)
    if cat is Category.TIGHT_SQUEEZE:
        return Impossible("no spellcasting in a tight squeeze")
    # targets and area, checked before anything is spent
    plan = _plan(w, c, spell, data, a)
    if isinstance(plan, Impossible):
        return plan
    t.spend("standard")
    if sla is None:
        spend_slot(c, spell)
    else:
        innate.spend(w, c, sla)
    # casting provokes unless cast defensively (§8); a supernatural ability never (§8.5)
    lost = False
    if sla is not None and sla.kind == "su":
        pass
    elif a.defensive:
        if not concentration(w, c, combat_modifier("concentration", "defensive_base") + lvl, "cast_defensively"):
            lost = True
    else:
        c.set_status("concentrating")
        w.casting.wounds = 0
        attacks.provoke(w, c, "cast")
        c.clear_status("concentrating")
        if c.clear_status("hurt_while_casting"):
            dc = combat_modifier("concentration", "damaged_base") + w.casting.wounds + lvl
            if not c.in_fight or not concentration(w, c, dc, "damaged_while_casting"):
                lost = True
    if not lost and c.in_fight and in_swarm(w, c) and not (sla is not None and sla.kind == "su"):
        if not concentration(w, c, combat_modifier("concentration", "swarm_base") + lvl, "inside_swarm"):
            lost = True
    if lost or not c.in_fight:
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(), squares=(), defensive=a.defensive,
                           lost=True))
        return True
    if spell in innate.EFFECTS:
        cl = sla.caster_level if sla is not None else caster_level(c)
        dc = sla.dc if sla is not None else (c.block.spells.save_dc(lvl) if c.block.spells else 0)
        innate.effect(w, c, spell, data, plan, a, cl=cl, sr=sla is None or sla.kind == "sp", dc=dc)
    else:
        _effect(w, c, spell, data, plan, a, lvl)
    _ends_invisibility(w, c)
    return True


def _ends_invisibility(w: World, c: Creature) -> None:
    """A spell whose targets (or area) hold a foe is an attack: the caster's invisibility ends
    (SRD *invisibility*; docs/rules.md §8.5)."""
    last = next((e for e in reversed(w.events) if isinstance(e, SpellCast) and e.actor == c.id), None)
    if last is not None and any(w.creatures[t].team != c.team for t in last.targets if t in w.creatures):
        innate.attacked(w, c)


def _plan(w, c: Creature, spell: str, data: dict, a: Cast):
    reach = range_ft(c, data["range"], innate_level(c, spell))
    if spell in ("magic-missile", "cure-light-wounds", "cure-moderate-wounds", "hold-person", "invisibility",
                 "enlarge-person", "delay-poison", "blur", "blindness-deafness"):
        target = w.creatures.get(a.target or "")
        if target is None or not target.alive:
            return Impossible("choose a living target")
        if footprint_distance_ft(c.squares, target.squares) > reach:
            return Impossible(f"{target.name} is out of range ({reach} ft)")
        if not w.line_of_effect(c.squares, target.squares):
            return Impossible(f"no line of effect to {target.name}")
        if spell == "magic-missile" and target is not c and w.perception(c, target) < SEES:
            return Impossible(f"{c.name} cannot see {target.name}: magic missile needs sight of its target (RULES §8)")
        if spell in ("hold-person", "enlarge-person") and target.block.type not in data["target_types"]:
            verb = "holds" if spell == "hold-person" else "affects"
            return Impossible(f"{spell.replace('-', ' ')} {verb} a humanoid: {target.name} is "
                              f"{'a swarm' if target.is_swarm else target.block.type}")
        if spell == "blindness-deafness" and not target.living:
            return Impossible(f"blindness/deafness affects a living creature: {target.name} is {target.block.type}")
        if spell == "enlarge-person" and not innate.active(w, target, "enlarged"):
            why = innate.room_to_grow(w, target)
            if why:
                return Impossible(why)
        return [target]
    if spell in ("light", "darkness"):
        return _plan_touch_object(w, c, spell, a)
    if spell == "lightning-bolt":
        if a.at is None or tuple(a.at) in c.squares:
            return Impossible("lightning bolt needs a square to aim at (outside the caster's space)")
        return line_squares(w, c, a.at, int(data["length_ft"]))
    if spell in ("sleep", "fireball", "glitterdust", "faerie-fire", "web", "stinking-cloud"):
        if a.at is None:
            return Impossible(f"{spell.replace('-', ' ')} needs a point (a grid intersection)")
        px, py = a.at
        xs = [x for x, _ in c.squares]
        ys = [y for _, y in c.squares]
        # 5-10-5 from the caster's space to the point (the nearest corner of the space)
        dx = max(0.0, min(xs) - px, px - (max(xs) + 1))
        dy = max(0.0, min(ys) - py, py - (max(ys) + 1))
        a_, b_ = int(math.ceil(dx)), int(math.ceil(dy))
        if 5 * distance_squares((0, 0), (a_, b_)) > reach:
            return Impossible(f"the point {tuple(a.at)} is out of range ({reach} ft)")
        if spell != "sleep" and not w.clear_segment(center(c.squares), tuple(a.at)):
            return Impossible(f"no line of effect to the point {tuple(a.at)}")
        area = burst_area(w, a.at, int(data["radius_ft"]))
        if spell == "web" and not zones.anchored(w.grid.rock, area):
            return Impossible(f"a web at {tuple(a.at)} has no anchors: rock must border it on two opposite sides "
                              "(docs/rules.md §8.3)")
        return area
    if spell == "burning-hands":
        if a.direction is None or tuple(a.direction) == (0, 0) or any(v not in (-1, 0, 1) for v in a.direction):
            return Impossible("burning hands needs a direction (one of the eight)")
        origins = cone_origins(c, a.direction)
        origin = origins[0] if a.at is None else tuple(a.at)
        if origin not in origins:
            return Impossible(f"a cone towards {tuple(a.direction)} starts at a corner of the caster's space facing "
                              f"it: {' or '.join(map(str, origins))}")
        return cone_area(w, origin, a.direction, int(data["length_ft"]))
    if spell == "bless":
        return burst_area(w, caster_corner(c), int(data["radius_ft"]))
    if spell == "grease":
        return _plan_square(w, c, data, a, reach)
    return Impossible(f"unknown spell {spell}")


def burst_area(w: World, point, radius_ft: int) -> list[tuple[int, int]]:
    """A burst's squares that its point of origin has a line of effect to: rock stops a burst as
    it stops a cone (SRD: an effect needs line of effect; RULES §8). Remembered for every fight on
    the map (``World.terrain``: rock is fixed; the AI weighs many points a turn)."""
    key = (tuple(point), int(radius_ft))
    hit = w.terrain.bursts.get(key)
    if hit is None:
        hit = w.terrain.bursts.put(key, tuple(
            q for q in burst(point, radius_ft, w.grid.shape)
            if not w.grid.rock[q[1], q[0]] and line_clear(w.grid.rock, point, (q[0] + 0.5, q[1] + 0.5), ignore={q}, edges=w.grid.edges)))
    return list(hit)


def line_squares(w: World, c: Creature, toward, length_ft: int) -> list[tuple[int, int]]:
    """A line spell's squares (RULES §8 [PD]): the ray from the centre of the caster's space through
    the centre of the square ``toward``, every square whose interior it crosses outside the
    caster's space, within ``length_ft`` of that space (5-10-5), up to the first rock square, wall
    between squares or the map's edge (a line stops at rock; a 3.5 lightning bolt does not bounce)."""
    rows, cols = w.grid.rock.shape
    (cx, cy), (tx, ty) = center(c.squares), (toward[0] + 0.5, toward[1] + 0.5)
    dist = math.hypot(tx - cx, ty - cy)
    n = length_ft // 5 + c.k + 1
    far = (cx + (tx - cx) / dist * n * 1.5, cy + (ty - cy) / dist * n * 1.5)
    own = set(c.squares)
    out = []
    for q in squares_on_segment((cx, cy), far):
        if q in own:
            continue
        x, y = q
        if not (0 <= x < cols and 0 <= y < rows) or w.grid.rock[y, x]:
            break
        if w.grid.edges is not None and not segment_clear(w.grid.edges, (cx, cy), (x + 0.5, y + 0.5)):
            break   # a wall between squares stops it too (docs/rules.md §6.8)
        if footprint_distance_ft(c.squares, [q]) > length_ft:
            break
        out.append(q)
    return out


AREA_SPELLS = ("sleep", "burning-hands", "bless", "fireball", "lightning-bolt", "grease", "glitterdust", "faerie-fire",
               "web", "stinking-cloud")


def _plan_square(w: World, c: Creature, data: dict, a: Cast, reach: int):
    """Grease's 10-ft square: the squares from ``at`` (its north-west square) on, 2x2, rock left
    out; in range when its nearest square is (5-10-5), with a line of effect to one of them."""
    if a.at is None:
        return Impossible("grease needs a square (at): the north-west square of its 10-ft square")
    n = int(data["side_ft"]) // 5
    x0, y0 = int(a.at[0]), int(a.at[1])
    rows, cols = w.grid.rock.shape
    squares = [(x, y) for y in range(y0, y0 + n) for x in range(x0, x0 + n)
               if 0 <= x < cols and 0 <= y < rows and not w.grid.rock[y, x]]
    if not squares:
        return Impossible(f"the square {(x0, y0)} starts no open 10-ft square (rock or off the map)")
    if footprint_distance_ft(c.squares, squares) > reach:
        return Impossible(f"the square {(x0, y0)} is out of range ({reach} ft)")
    if not w.line_of_effect(c.squares, squares):
        return Impossible(f"no line of effect to the square {(x0, y0)}")
    return squares


def area_of(w: World, c: Creature, a: Cast) -> list[tuple[int, int]]:
    """The squares ``a`` (a :class:`Cast` by ``c``) would fill: empty for a spell without an area
    or a cast that would be refused (the UI previews with it; the AI weighs with it)."""
    if a.spell not in AREA_SPELLS:
        return []
    plan = _plan(w, c, a.spell, spell_data()[a.spell], a)
    return [] if isinstance(plan, Impossible) else list(plan)


#: How each simulated spell is aimed, i.e. which fields of :class:`Cast` its plan reads (what a
#: click means in play): ``creature`` (``target``: a creature), ``carried`` (``target``: the
#: creature whose gear takes it, else ``at``: a square within reach), ``square`` (``at``: a
#: square: a line through its centre, grease's north-west square, darkness's object), ``point``
#: (``at``: a grid intersection, a burst's or spread's origin), ``cone`` (``direction`` and the
#: corner of the caster's space it starts from, ``at``) or ``self`` (nothing: centred on the caster).
AIMS: dict[str, str] = {
    "magic-missile": "creature", "cure-light-wounds": "creature", "cure-moderate-wounds": "creature",
    "hold-person": "creature", "invisibility": "creature", "enlarge-person": "creature", "delay-poison": "creature",
    "blur": "creature", "blindness-deafness": "creature",
    "light": "carried", "darkness": "square", "lightning-bolt": "square", "grease": "square",
    "sleep": "point", "fireball": "point", "glitterdust": "point", "faerie-fire": "point", "web": "point",
    "stinking-cloud": "point",
    "burning-hands": "cone", "bless": "self",
}


def aim_of(spell: str) -> str:
    """How ``spell`` is aimed (one of :data:`AIMS`' kinds); ``self`` for a spell that reads no aim."""
    return AIMS.get(spell, "self")


def caster_corner(c: Creature) -> tuple[float, float]:
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


def cone_squares(w, c: Creature, direction, origin=None) -> list[tuple[int, int]]:
    """Burning hands' 15-ft cone from ``origin`` (one of :func:`cone_origins`, the first by default)."""
    origin = cone_origins(c, direction)[0] if origin is None else origin
    return cone_area(w, origin, direction, int(spell_data()["burning-hands"]["length_ft"]))


def cone_area(w: World, origin, direction, length_ft: int) -> list[tuple[int, int]]:
    """:func:`sim.terrain.geometry.cone` on the fight's map, remembered for every fight on it
    (``World.terrain``: rock is fixed; the AI weighs each origin and direction many times)."""
    key = (tuple(origin), tuple(direction), int(length_ft))
    hit = w.terrain.cones.get(key)
    if hit is None:
        hit = w.terrain.cones.put(key, tuple(cone(key[0], key[1], key[2], w.grid.rock, edges=w.grid.edges)))
    return list(hit)


def _effect(w: World, c: Creature, spell: str, data: dict, plan, a: Cast, lvl: int = 1) -> None:
    cl = caster_level(c)
    if spell == "magic-missile":
        target = plan[0]
        missiles = int(data["missiles"][min(cl, len(data["missiles"])) - 1])
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        if target.is_swarm:
            return  # immune to spells that target a number of creatures (§4.5)
        if specials.resists_spell(w, c, target, cl):
            return  # spell resistance (bestiary)
        dice = Dice.parse(data["damage"])
        total = sum(max(1, roll_dice(w, dice, c, f"magic missile {i + 1} of {missiles} vs {label(w, target)}"))
                    for i in range(missiles))
        damage.deal_damage(w, target, [damage.DamagePart(total, "force", "energy")], source=c, cause="spell")
    elif spell in ("cure-light-wounds", "cure-moderate-wounds"):
        target = plan[0]
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        amount = roll_dice(w, Dice.parse(data["heal"]), c, f"cure light wounds on {label(w, target)}") + min(cl * int(data["per_level"]), int(data["max_bonus"]))
        heal(w, target, amount, source=c)
        target.bleed = 0   # healing stops the bleeding (RULES §4.9)
    elif spell == "delay-poison":       # immune to poison for the rest of the fight (docs/rules.md §8.6)
        target = plan[0]
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        damage.set_status(w, target, "poison_delayed", c.id)
    elif spell in ("burning-hands", "fireball", "lightning-bolt"):
        _area_damage(w, c, spell, data, plan, a, lvl)
    elif spell == "grease":
        _grease(w, c, data, plan, a, lvl)
    elif spell == "glitterdust":
        _glitterdust(w, c, data, plan, a, lvl)
    elif spell in ("web", "stinking-cloud"):
        _lasting_spread(w, c, spell, data, plan, a, lvl)
    elif spell in ("light", "darkness"):
        _light_effect(w, c, spell, data, plan, a)
    elif spell == "hold-person":
        target = plan[0]
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(target.id,), squares=(), defensive=a.defensive))
        dc = c.block.spells.save_dc(lvl)
        if not roll_save(w, target, "will", dc, "hold_person", c.id):
            # paralysed for 1 round/level, a new Will save each round on its turn ends it (§8)
            add(w, target, "held", c.id, w.round + int(data["duration_rounds_per_level"]) * cl - 1, dc=dc)
    elif spell == "sleep":
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(), squares=tuple(plan), defensive=a.defensive))
        c.pending_spell = ("sleep", tuple(plan), w.round, tuple(a.at))
    elif spell == "bless":
        allies = [o for o in w.creatures.values() if o.team == c.team and o.alive and set(o.squares) & set(plan)]
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=tuple(o.id for o in allies),
                           squares=(), defensive=a.defensive))
        until = w.round + int(data["duration_rounds_per_level"]) * cl - 1
        for o in allies:
            add(w, o, "blessed", c.id, until)


def complete_pending(w: World, c: Creature) -> None:
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
    for o in w.creatures.values():
        if o is c or not o.alive or not o.in_fight or not (sq & set(o.squares)) or o.id in w.swallowed.inside:
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
        if specials.resists_spell(w, c, o, caster_level(c)):
            continue  # spell resistance (bestiary)
        if not roll_save(w, o, "will", dc, "sleep", c.id):
            # helpless for 1 min/level (10 rounds a level), unless a wound wakes it (§8)
            add(w, o, "asleep", c.id, w.round + int(data["duration_rounds_per_level"]) * caster_level(c))


def _area_damage(w: World, c: Creature, spell: str, data: dict, squares, a: Cast, lvl: int) -> None:
    """Burning hands, fireball, lightning bolt: every other creature with a square in the area
    takes 1 die per caster level (up to the cap), Reflex half (DC 10 + spell level + ability
    modifier); the damage is an area effect (x1.5 on a swarm, §4.7)."""
    victims = [o for o in w.creatures.values() if o is not c and o.alive and set(o.squares) & set(squares)
               and o.id not in w.swallowed.inside]   # inside a worm or a cube: out of the area (§11.13)
    w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=tuple(v.id for v in victims),
                     squares=tuple(squares), defensive=a.defensive))
    n = min(caster_level(c), int(data["max_dice"]))
    dice = Dice(n, Dice.parse(data["damage_per_level"]).sides, 0)
    dc = c.block.spells.save_dc(lvl)
    for v in victims:
        if specials.resists_spell(w, c, v, caster_level(c)):
            continue  # spell resistance (bestiary)
        amount = max(1, roll_dice(w, dice, c, f"{spell.replace('-', ' ')} on {label(w, v)}"))
        saved = roll_save(w, v, "ref", dc, spell.replace("-", "_"), c.id)
        amount = damage.reflex_half_damage(v, amount, saved)   # §7.23 halving; evasion
        if amount > 0:
            damage.deal_damage(w, v, [damage.DamagePart(amount, data["energy"], "energy", area=True)], source=c,
                               cause="spell")
    if data["energy"] == "fire" and w.magic.zones:
        zones.burn(w, squares, c)   # fire burns a web away (docs/rules.md §8.3)


def _grease(w: World, c: Creature, data: dict, squares, a: Cast, lvl: int) -> None:
    """Grease (docs/rules.md §8.1): a zone for 1 round per caster level; every creature with a
    square in it makes a Reflex save or falls prone (a swarm does not fall, RULES §4.5)."""
    sq = set(squares)
    inside = [o for o in w.creatures.values() if o.alive and o.in_fight and sq & set(o.squares)
              and o.id not in w.swallowed.inside]
    w.emit(SpellCast(round=w.round, actor=c.id, spell="grease", targets=tuple(o.id for o in inside),
                     squares=tuple(squares), defensive=a.defensive))
    z = zones.Zone(spell="grease", squares=tuple(squares), owner=c.id,
                   last_round=w.round + int(data["duration_rounds_per_level"]) * caster_level(c) - 1,
                   dc=c.block.spells.save_dc(lvl))
    w.magic.zones = [*w.magic.zones, z]
    for o in inside:
        zones.fall(w, o, z, "grease")


def _lasting_spread(w: World, c: Creature, spell: str, data: dict, squares, a: Cast, lvl: int) -> None:
    """Web (docs/rules.md §8.3) and stinking cloud (§8.4): a zone for their duration; every
    creature with a square in it, friends too, is caught (web: Reflex, entangled and stuck or
    loose) or sickened (cloud: Fortitude or nauseated). Neither allows spell resistance (SRD)."""
    sq = set(squares)
    inside = [o for o in w.creatures.values() if o.alive and o.in_fight and sq & set(o.squares)]
    w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=tuple(o.id for o in inside),
                     squares=tuple(squares), defensive=a.defensive))
    z = zones.Zone(spell=spell, squares=tuple(squares), owner=c.id,
                   last_round=w.round + int(data["duration_rounds_per_level"]) * caster_level(c) - 1,
                   dc=c.block.spells.save_dc(lvl))
    w.magic.zones = [*w.magic.zones, z]
    for o in inside:
        if spell == "web":
            zones.catch(w, o, z)
        else:
            zones.sicken(w, o, z)


def _glitterdust(w: World, c: Creature, data: dict, squares, a: Cast, lvl: int) -> None:
    """Glitterdust (docs/rules.md §8.2): every creature with a square in the spread, the caster's
    friends too, makes a Will save or is blinded for 1 round per caster level (no spell
    resistance); a swarm too [PD]."""
    sq = set(squares)
    inside = [o for o in w.creatures.values() if o.alive and o.in_fight and sq & set(o.squares)
              and o.id not in w.swallowed.inside]
    w.emit(SpellCast(round=w.round, actor=c.id, spell="glitterdust", targets=tuple(o.id for o in inside),
                     squares=tuple(squares), defensive=a.defensive))
    dc = c.block.spells.save_dc(lvl)
    last = w.round + int(data["duration_rounds_per_level"]) * caster_level(c) - 1
    for o in inside:
        if "invisible" in o.conditions:
            end(w, o, "invisible", "glitterdust")   # the dust outlines it (docs/rules.md §8.2, §8.5)
        if specials.immune_to_blinding(o):
            continue   # blind already: the dust blinds nothing (docs/rules.md §9.3 [PD])
        if not roll_save(w, o, "will", dc, "glitterdust", c.id):
            add(w, o, "glitterdust", c.id, last, dc=dc)


def _plan_touch_object(w: World, c: Creature, spell: str, a: Cast):
    """Light and darkness touch an object: one a creature carries (``target``: light only; the
    object then moves with it and takes no hand, RULES §9.1) or one lying on a square within the
    caster's reach (``at``: it stays there) [PD]."""
    if a.target is not None:
        if spell == "darkness":
            return Impossible("darkness is cast on an object on a square (at), not on a creature [PD]")
        o = w.creatures.get(a.target)
        if o is None or not o.alive:
            return Impossible("choose a living creature (or a square) to light")
        if footprint_distance_ft(c.squares, o.squares) > 5:
            return Impossible(f"{o.name} is out of reach: light is a touch spell")
        if o.light or o.torch_lit:
            return Impossible(f"{o.name} already carries a light ({o.light or 'torch'}): light a square instead")
        return [o]
    if a.at is None:
        return Impossible(f"{spell} needs a creature to carry it or a square (at) within reach")
    sq = (int(a.at[0]), int(a.at[1]))
    rows, cols = w.grid.rock.shape
    if not (0 <= sq[0] < cols and 0 <= sq[1] < rows) or w.grid.rock[sq[1], sq[0]]:
        return Impossible(f"the square {sq} is rock or off the map")
    if footprint_distance_ft(c.squares, [sq]) > 5:
        return Impossible(f"the square {sq} is out of reach: {spell} is a touch spell")
    return sq


def _light_effect(w: World, c: Creature, spell: str, data: dict, plan, a: Cast) -> None:
    """Light: the object sheds the light of ``[gear.light-spell]`` (carried: from its bearer's
    space, no hand). Darkness: shadowy at most in 20 ft of the square (``sim.terrain.vision``'s magical
    darkness). Both outlast any fight (10 min/level)."""
    if isinstance(plan, list):
        o = plan[0]
        o.light = str(data["gear"])
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(o.id,), squares=(), defensive=a.defensive))
        return
    w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(), squares=(plan,), defensive=a.defensive))
    if spell == "light":
        w.floor.lights.append(DroppedLight(item=str(data["gear"]), at=plan))
    else:
        w.magic.lights.append(darkness_light(plan, float(data["radius_ft"])))


def _pending(w: World, c: Creature) -> None:
    if c.pending_spell is not None and c.in_fight:
        complete_pending(w, c)


#: Casting (the Cast action; a spell with a casting time of a round completes at the start of the
#: caster's next turn). Hold person, bless and glitterdust end by the lasting effects' moments
#: (sim.engine.conditions.LASTING, sim/data/effects.toml).
CASTING = Mechanic("spells", actions={Cast: cast}, start_of_turn=_pending, part=Part("casting", Casting))
