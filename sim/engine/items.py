"""Splash weapons: alchemist's fire, oil, and the thrown lantern (RULES §3.5, §4.6-4.7, §7.21-22).

A splash weapon is thrown as a ranged touch attack against a creature (direct hit: its direct
damage to the target, splash damage to everything within 5 ft) or against a grid intersection
(AC 5: splash to the 4 squares around it). A miss lands 1d8 directions x range increments
squares away (1 = back toward the thrower, then clockwise). The thrown lantern (§7.21): 1d4 fire
to every creature in the target square and the 8 around it (or the 4 around an intersection),
once per creature; the thrower and its allies there are hit too. Swarms take x1.5 from every
splash (§7.22). No nonproficiency penalty.
Also the torch: lighting one and taking it in hand (RULES §3.5).
"""

from __future__ import annotations

from sim.base.coords import Pos
from sim.engine import attacks, damage
from sim.engine.actions import (
    Douse,
    DropLight,
    Impossible,
    LightTorch,
    PrepareFuse,
    Throw,
    Turn,
)
from sim.engine.checks import d20, hits, label, roll_dice
from sim.engine.creature import Creature
from sim.engine.effects import modifiers as effect_modifiers
from sim.engine.events import ActionTaken, Splash
from sim.engine.events import Attack as AttackEvent
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Floor, Part
from sim.engine.setup import with_extra_attacks
from sim.engine.world import World
from sim.rules.categories import effects
from sim.rules.statblocks import attacks_with
from sim.rules.weapons import (
    THROWN_MAX_INCREMENTS,
    combat_modifier,
    gear,
    is_lantern,
    splash_weapon,
)
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision.scene import DroppedLight

_CLOCKWISE = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]


def item_splash_key(item: str) -> str:
    """The splash-weapon entry of a carried item ("hooded-lantern" -> its splash)."""
    g = gear(item)
    return g.splash or item


def throwable_items(c: Creature, *, unprepared: bool = False) -> list[str]:
    """Splash weapons it carries that can be thrown at once (an oil flask only once its fuse is
    ready, a lantern only once it is lit); with ``unprepared``, the oil flasks still waiting for a
    fuse and the unlit lanterns too (thrown unlit, a lantern breaks without fire, RULES §3.5)."""
    out = []
    for name, n in c.items.items():
        if n <= 0:
            continue
        try:
            g = gear(name)
        except Exception:
            continue
        if not g.splash:
            continue
        if g.is_lantern and c.light != name and not unprepared:
            continue
        if splash_weapon(g.splash).prepare_action is None or c.fused.get(name, 0) > 0 or unprepared:
            out.append(name)
    return out


def prepare_fuse(w: World, c: Creature, t: Turn, a: PrepareFuse):
    """Prepare an oil flask's fuse (RULES §3.5: a full-round action; preparing a splash weapon
    provokes, §6.6): the flask can then be thrown like alchemist's fire, igniting half the time."""
    item = a.item
    if c.items.get(item, 0) <= 0:
        return Impossible(f"{c.name} carries no {item}")
    try:
        sw = splash_weapon(item_splash_key(item))
    except Exception:
        return Impossible(f"a {item} is not a splash weapon")
    if sw.prepare_action is None:
        return Impossible(f"a {item} needs no fuse: throw it")
    if c.fused.get(item, 0) >= c.items[item]:
        return Impossible(f"every {item} it carries has a fuse ready")
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    t.spend("full")
    attacks.provoke(w, c, "prepare_splash")
    if c.in_fight:
        c.fused[item] = c.fused.get(item, 0) + 1
        w.emit(ActionTaken(round=w.round, actor=c.id, action="fuse", item=item))
    return True


def _squares_around_intersection(p: Pos) -> list[Pos]:
    x, y = p
    return [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]


def _square_and_adjacent(p: Pos) -> list[Pos]:
    x, y = p
    return [(x + dx, y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)]


def splash_area(w: World, center: Pos, *, intersection: bool) -> list[Pos]:
    """The squares a splash covers: the 4 around an intersection, or a square and the 8 around it;
    never rock or off the map."""
    if intersection:
        sq = _squares_around_intersection(center)
    else:
        sq = _square_and_adjacent(center)
    return [s for s in sq if w.grid.in_bounds(s) and not w.grid.rock[s[1], s[0]]]


def throw_splash(w: World, c: Creature, t: Turn, a: Throw):
    """Throw a splash weapon (the handler of :class:`Throw`, a standard action; see the module
    docstring)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    if c.items.get(a.item, 0) <= 0:
        return Impossible(f"{c.name} carries no {a.item}")
    try:
        sw = splash_weapon(item_splash_key(a.item))
    except Exception as exc:
        return Impossible(str(exc))
    if sw.prepare_action == "full_round" and c.fused.get(a.item, 0) <= 0:
        return Impossible(f"a {a.item} needs a fuse prepared first (a full-round action; O in cavesim play)")
    target = w.creatures.get(a.target) if a.target else None
    if target is None and a.at is None:
        return Impossible("throw at a creature or at a square / intersection")
    if target is not None:
        aim_squares = target.squares
    elif a.intersection:
        aim_squares = [s for s in _squares_around_intersection(a.at) if w.grid.in_bounds(s) and not w.grid.rock[s[1], s[0]]]
        if not aim_squares:
            return Impossible("that intersection is inside solid rock")
    else:
        aim_squares = [a.at]
    dist = footprint_distance_ft(c.squares, aim_squares)
    increments = max(1, -(-dist // sw.range_ft))
    if increments > THROWN_MAX_INCREMENTS:
        return Impossible(f"out of range ({dist} ft; {sw.range_ft}-ft increments, 5 at most)")
    if not w.line_of_effect(c.squares, aim_squares):
        return Impossible("no line of effect")
    cat = attacks.standing_category(w, c)
    eff = effects(cat)
    if eff.ranged != "any" or c.prone:
        return Impossible(f"cannot throw in a {eff.label}" if eff.ranged != "any" else "prone: cannot throw")
    t.spend("standard")
    c.items[a.item] -= 1
    if c.fused.get(a.item, 0) > 0:
        c.fused[a.item] -= 1
    lantern = gear(a.item).is_lantern
    lit = lantern and c.light == a.item
    if lit:
        c.light = None  # the lit lantern leaves the hand: its light goes with it
    attacks.provoke(w, c, "ranged_attack")
    if not c.in_fight:
        return True
    mods = splash_modifiers(w, c, increments, target)
    if target is not None:
        ac, ac_mods = attacks.target_ac(w, c, target, ranged=True, touch=True)
    else:
        ac, ac_mods = combat_modifier("ac", "splash_intersection"), {"intersection": combat_modifier("ac", "splash_intersection")}
    aim = f"vs {label(w, target)}" if target is not None else f"at {tuple(a.at)}"
    roll = d20(w, c, f"{a.item} throw {aim}", sum(mods.values()))
    total = roll + sum(mods.values())
    hit = hits(roll, total, ac)
    w.emit(AttackEvent(round=w.round, actor=c.id, target=target.id if target else "",
                         weapon=a.item, roll=roll, modifiers=mods, total=total, ac=ac, ac_modifiers=ac_mods,
                         hit=hit, critical=False, kind="ranged_touch"))
    if hit:
        center = target.pos if target is not None else a.at
        intersection = target is None and a.intersection
        direct = target
    else:  # the flask deviates: 1d8 direction, as many squares as range increments
        d = int(w.rng.integers(1, 9))
        base = target.pos if target is not None else a.at
        back = _back_direction(c.pos, base)
        idx = (_CLOCKWISE.index(back) + (d - 1)) % 8
        dx, dy = _CLOCKWISE[idx]
        center = (base[0] + dx * increments, base[1] + dy * increments)
        center = (min(max(center[0], 0), w.grid.cols - 1), min(max(center[1], 0), w.grid.rows - 1))
        intersection = False
        direct = None
    everyone = sw.area == "square_and_adjacent"  # the lantern: the same 1d4 to all in the area (§7.21)
    area = splash_area(w, center, intersection=intersection)
    if direct is not None:  # everything within 5 ft of the target, whatever its size (§3.5)
        around = {q for sq in direct.squares for q in _square_and_adjacent(sq)
                  if w.grid.in_bounds(q) and not w.grid.rock[q[1], q[0]]}
        area = sorted(set(area) | around | set(direct.squares))
    w.emit(Splash(round=w.round, actor=c.id, item=a.item, at=tuple(center), intersection=intersection,
                    squares=tuple(area), direct=direct.id if direct else None, hit=hit))
    if lantern and not lit:
        w.emit(ActionTaken(round=w.round, actor=c.id, action="fizzle", item=a.item))
        return True  # an unlit lantern breaks without fire (RULES §3.5, §4.6: a lit lantern)
    if sw.ignite_chance < 1.0 and float(w.rng.random()) >= sw.ignite_chance:
        w.emit(ActionTaken(round=w.round, actor=c.id, action="fizzle", item=a.item))
        return True  # the oil splashes but does not catch fire (RULES §3.5: 50%)
    hit_ids = set()
    victims = [o for o in w.creatures.values() if o.alive and set(o.squares) & set(area) and o.id not in w.swallowed.inside]
    if direct is not None and direct not in victims:
        victims.append(direct)
    for v in victims:
        if v.id in hit_ids:
            continue
        hit_ids.add(v.id)
        if everyone:
            amount = max(1, roll_dice(w, sw.splash, c, f"{a.item} fire on {label(w, v)}"))
        elif direct is not None and v is direct:
            amount = max(1, roll_dice(w, sw.direct, c, f"{a.item} direct hit on {label(w, v)}"))
        else:
            amount = max(0, roll_dice(w, sw.splash, c, f"{a.item} splash on {label(w, v)}"))
        if amount <= 0:
            continue
        damage.deal_damage(w, v, [damage.DamagePart(amount, sw.energy, "splash", area=True)], source=c,
                           cause="splash")
        if v is direct and sw.burn is not None and v.alive and not v.is_swarm:
            damage.set_status(w, v, "burning", a.item)
    return True


def splash_modifiers(w: World, c: Creature, increments: int, target: Creature | None = None) -> dict[str, int]:
    """The attack modifiers of a splash weapon thrown ``increments`` range increments (a ranged
    touch attack, no nonproficiency penalty, RULES §3.5): BAB, Dex, size, range, bless, and firing
    into melee at a creature. The throw and the AI's estimate both use it."""
    mods = {"base_attack": int(c.block.bab), "dexterity": c.block.abilities.mod("dex") + c.dex_mod_delta(),
            "size": int(c.size.modifier)}
    if increments > 1:
        mods["range"] = combat_modifier("attack", "range_increment") * (increments - 1)
    mods.update(effect_modifiers(c, "attack", w.round))  # bless: +1 on attack rolls (RULES §8)
    if target is not None and attacks.in_melee_with_ally(w, c, target):
        mods["firing_into_melee"] = combat_modifier("attack", "firing_into_melee")
    return mods


def _back_direction(thrower: Pos, target: Pos) -> tuple[int, int]:
    dx = thrower[0] - target[0]
    dy = thrower[1] - target[1]
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if (sx, sy) == (0, 0):
        return (0, -1)
    return (sx, sy)


def burn_tick(w: World, c: Creature) -> None:
    """Alchemist's fire keeps burning one more round (1d6 fire), unless put out (§3.5)."""
    sw = splash_weapon("alchemists-fire")
    damage.clear_status(w, c, "burning", "burnt_out")
    if sw.burn is not None:
        damage.deal_damage(w, c, [damage.DamagePart(max(1, sw.burn.roll(w.rng)), sw.energy, "energy")],
                           source=None, cause="burning")


def drop_light(w: World, c: Creature, t: Turn, a: DropLight):
    """A free action (RULES §9.3.5): the light lies lit where its bearer stands."""
    item = c.light or ("torch" if c.torch_lit else None)
    if item is None:
        return Impossible(f"{c.name} holds no lit light")
    if c.light:
        c.light = None
    else:
        c.torch_lit = False
        if c.wielding == "torch":
            c.wielding = None
    if c.items.get(item, 0) > 0:
        c.items[item] -= 1
    w.floor.lights.append(DroppedLight(item=item, at=tuple(c.pos)))
    w.emit(ActionTaken(round=w.round, actor=c.id, action="drop_light", item=item))
    return True


def douse(w: World, c: Creature, t: Turn, a: Douse):
    """Put out the light in hand (a move action, see :class:`Douse`): the other light first (a
    lantern), else the torch; the item stays in its pack."""
    item = c.light or ("torch" if c.torch_lit else None)
    if item is None:
        return Impossible(f"{c.name} holds no lit light")
    why = t.needs(c, move=True)
    if why:
        return Impossible(why)
    if c.light:
        c.light = None
    else:
        c.torch_lit = False
    t.spend("move", c)
    w.emit(ActionTaken(round=w.round, actor=c.id, action="douse", item=item))
    return True


def light_torch(w: World, c: Creature, t: Turn, a: LightTorch):
    """Light a torch and take it in hand, or light a lantern (the same action, RULES §3.5)."""
    lantern = a.item != "torch"
    if lantern:
        if not is_lantern(a.item):
            return Impossible(f"a {a.item} is not a torch or a lantern")
        if c.items.get(a.item, 0) <= 0:
            return Impossible(f"{c.name} carries no {a.item}")
        if c.light == a.item:
            return Impossible(f"its {a.item} is lit already")
        if c.light is not None:
            return Impossible(f"{c.name} holds a lit {c.light} already: douse or drop it first")
    elif c.items.get("torch", 0) <= 0:
        return Impossible(f"{c.name} has no torch")
    if c.items.get("tindertwig", 0) > 0:
        why = t.needs(c, standard=True)
        if why:
            return Impossible(why)
        c.items["tindertwig"] -= 1
        t.spend("standard")
    else:
        why = t.needs(c, full=True)
        if why:
            return Impossible(why)
        t.spend("full")
    attacks.provoke(w, c, "light_torch")
    if not c.in_fight:
        return True
    if lantern:
        c.light = a.item
        w.emit(ActionTaken(round=w.round, actor=c.id, action="light", item=a.item))
        return True
    c.torch_lit = True
    if c.attack_named("torch") is None:
        c.block = with_extra_attacks(c.block, attacks_with(c.block, "torch"))
        if not c.armor_off:
            c.base_block = c.block
    c.wielding = "torch"
    w.emit(ActionTaken(round=w.round, actor=c.id, action="light", item="torch"))
    return True


def _burning(w: World, c: Creature) -> None:
    if "burning" in c.conditions and c.alive:
        burn_tick(w, c)


ITEMS = Mechanic("items", actions={LightTorch: light_torch, DropLight: drop_light, Douse: douse, Throw: throw_splash,
                                   PrepareFuse: prepare_fuse}, start_of_turn=_burning,
               part=Part("floor", Floor))
