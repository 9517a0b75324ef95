"""Which of the 3rd-level spells pays this turn (RULES §8; areas against swarms §4.7): fireball or
lightning bolt on a swarm or a cluster of foes, hold person on the biggest humanoid, grease under
a brute on its way to the caster (docs/rules.md §8.1), web across a tunnel mouth or on a group
(§8.3), stinking cloud on a group (§8.4). Small scorers
the turn planner (:mod:`sim.engine.ai.decide`) asks; each returns a :class:`Cast` or None.
"""

from __future__ import annotations

import numpy as np

from sim.engine import moves
from sim.engine.actions import Cast, Charge, Move
from sim.engine.ai.estimates import distance_field, is_ranged
from sim.engine.casting import has_spell, range_ft, spell_data
from sim.engine.creature import Creature
from sim.engine.damage import swarm_area_factor
from sim.engine.effects import find
from sim.engine.spells import area_of
from sim.engine.split import unsplit_hp
from sim.engine.world import World
from sim.engine.zones import clouded, greased
from sim.terrain.geometry import (
    footprint_distance_ft,
    squares_on_segment,
)
from sim.terrain.vision import SEES

# an area spell is worth its slot on a swarm, or on foes worth at least this many (a swarm counts x1.5)
AREA_WORTH = 2.0


def _score(area: set, foes: list[Creature], energy: str = "") -> tuple[float, bool]:
    hits = [f for f in foes if set(f.squares) & area and not (energy in f.block.defenses.split and f.hp > unsplit_hp())]
    return sum(swarm_area_factor() if f.is_swarm else 1.0 for f in hits), any(f.is_swarm for f in hits)


def area_spell(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """The best fireball or lightning bolt that hits no ally nor the caster: aimed at a corner of
    each foe's space (fireball) or through each foe's squares (bolt); cast when it hits a swarm or
    foes worth :data:`AREA_WORTH`."""
    if c.block.spells is None:
        return None
    mine = set(c.squares)
    ally_sq = {s for a in w.allies(c) for s in a.squares} | mine
    best = None
    for spell in ("fireball", "lightning-bolt"):
        if has_spell(c, spell) is None:
            continue
        tried = set()
        for f in foes:
            for x, y in f.squares:
                aims = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)] if spell == "fireball" else [(x, y)]
                for at in aims:
                    if at in tried:
                        continue
                    tried.add(at)
                    cast = Cast(spell, at=at)
                    area = set(area_of(w, c, cast))
                    if not area or area & ally_sq:
                        continue
                    score, swarm = _score(area, foes, spell_data()[spell].get("energy", ""))  # a split jelly: none (§11.14)
                    if (swarm or score >= AREA_WORTH) and (best is None or score > best[0]):
                        best = (score, cast)
    return best[1] if best else None


def hold_target(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Hold person on the biggest humanoid foe (most Hit Dice, then most hit points) in range, in
    line of effect and seen, not already held."""
    if c.block.spells is None or has_spell(c, "hold-person") is None:
        return None
    data = spell_data()["hold-person"]
    reach = range_ft(c, data["range"])
    cands = [f for f in foes if f.block.type in data["target_types"] and not f.is_swarm and find(f, "held") is None
             and f.in_fight and footprint_distance_ft(c.squares, f.squares) <= reach
             and w.line_of_effect(c.squares, f.squares) and w.perception(c, f) >= SEES]
    if not cands:
        return None
    target = max(cands, key=lambda f: (f.block.hit_dice, f.hp, f.id))
    return Cast("hold-person", target=target.id)


def light_up(w: World, c: Creature) -> Cast | None:
    """Light on the caster's own gear when it stands in the dark to its eyes (effectively blinded,
    RULES §9.2) and carries no light: the party then fights in 20 ft of bright light."""
    if not w.vision_on or c.block.spells is None or has_spell(c, "light") is None or c.light or c.torch_lit:
        return None
    sight = w.vision()[1]
    if c.id not in sight.ids or not sight.is_blinded(c.id):
        return None
    return Cast("light", target=c.id)


def grease_brute(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Grease under a brute coming for the caster: the foe of the most Hit Dice (bigger than the
    caster, or of at least its Hit Dice) that is not yet next to it, standing, not a swarm, seen, in close range, not on
    grease already; the 10-ft square from its north-west square, when that square holds no ally
    and not the caster. It falls prone on a failed Reflex save and walks on at half speed."""
    if c.block.spells is None or has_spell(c, "grease") is None:
        return None
    mine = set(c.squares)
    ally_sq = {s for a in w.allies(c) for s in a.squares} | mine
    oily = greased(w)
    cands = []
    for f in foes:
        if f.is_swarm or f.prone or not f.in_fight or (f.block.hit_dice < c.block.hit_dice and f.size <= c.size):
            continue
        if footprint_distance_ft(c.squares, f.squares) <= 5 or set(f.squares) & oily or w.perception(c, f) < SEES:
            continue
        cast = Cast("grease", at=tuple(f.pos))
        area = set(area_of(w, c, cast))
        if area and not area & ally_sq and set(f.squares) <= area:
            cands.append(((f.block.hit_dice, f.hp, f.id), cast))
    return max(cands, key=lambda t: t[0])[1] if cands else None


def _group_burst(w: World, c: Creature, spell: str, targets: list[Creature]) -> Cast | None:
    """``spell`` (a spread) on two or more of ``targets``: aimed at a corner of each one's space,
    the point whose area holds the most of them and no friend nor the caster; None if no point
    holds two."""
    ally_sq = {s for a in w.allies(c) for s in a.squares} | set(c.squares)
    best, tried = None, set()
    for f in targets:
        for x, y in f.squares:
            for at in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)):
                if at in tried:
                    continue
                tried.add(at)
                cast = Cast(spell, at=at)
                area = set(area_of(w, c, cast))
                if not area or area & ally_sq:
                    continue
                n = sum(1 for g in targets if set(g.squares) & area)
                if n >= 2 and (best is None or n > best[0]):
                    best = (n, cast)
    return best[1] if best else None


def glitter_group(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Glitterdust on two or more foes not blind yet (a swarm counts like any foe), placed by
    :func:`_group_burst`."""
    if c.block.spells is None or has_spell(c, "glitterdust") is None:
        return None
    return _group_burst(w, c, "glitterdust", [f for f in foes if f.in_fight and "blinded" not in f.conditions
                                              and not f.sightless])


def poisonous(c: Creature) -> bool:
    return any(r.kind == "poison" for r in c.block.riders)


def delay_poison(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Delay poison (a ranger's 1st-level spell, docs/rules.md §8.6) on itself or an ally it can
    touch, when a poisonous foe it perceives is within 60 ft and no foe threatens it (casting
    provokes): first one with a poison's secondary save still to come, then the one nearest a
    poisonous foe; never one already protected or immune to poison."""
    if has_spell(c, "delay-poison") is None:
        return None
    venom = [f for f in foes if poisonous(f) and f.in_fight and w.perception(c, f) >= SEES
             and footprint_distance_ft(c.squares, f.squares) <= 60]
    if not venom:
        return None
    cands = [a for a in w.allies(c) + [c] if a.alive and a.in_fight and a.living
             and "poison_delayed" not in a.conditions and "poison" not in a.block.defenses.immune
             and footprint_distance_ft(c.squares, a.squares) <= 5]
    if not cands:
        return None
    best = min(cands, key=lambda a: (not a.poison_due, min(footprint_distance_ft(a.squares, f.squares) for f in venom),
                                     a.id))
    return Cast("delay-poison", target=best.id)


def _walk(w: World, start, goals: set, blocked: set, limit: int) -> int | None:
    """The fewest squares (8 ways, rock and ``blocked`` left out) from ``start`` to a square of
    ``goals``, or None when no walk of at most ``limit`` squares gets there."""
    rock = w.grid.rock
    rows, cols = rock.shape
    seen, frontier = set(start), list(start)
    if seen & goals:
        return 0
    for n in range(1, limit + 1):
        nxt = []
        for x, y in frontier:
            for dx, dy in _EIGHT:
                q = (x + dx, y + dy)
                if q in seen or not (0 <= q[0] < cols and 0 <= q[1] < rows) or rock[q[1], q[0]] or q in blocked:
                    continue
                if q in goals:
                    return n
                seen.add(q)
                nxt.append(q)
        if not nxt:
            return None
        frontier = nxt
    return None


def _cut_off(w: World, start, goals: set, blocked: set, limit: int) -> bool:
    """No walk of at most ``limit`` squares joins ``start`` to ``goals`` round ``blocked``: a web
    closes the passage (or leaves only a long detour)."""
    return _walk(w, start, goals, blocked, limit) is None


_EIGHT = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def goers(w: World, c: Creature, foes: list[Creature], *, engaged: bool = False) -> list[Creature]:
    """The caster's friends who want to walk to the foes (docs/rules.md §8.3's AI): in the fight,
    fighting in melee (not casters nor archers, :func:`is_ranged`), not wounded (more than half
    their hit points) [PD], and not engaged yet (no foe within its reach) unless ``engaged``
    (one fighting now walks on to the next foe when its own falls)."""
    out = []
    for a in w.allies(c):
        if not a.in_fight or is_ranged(a) or a.hp * 2 <= a.max_hp:
            continue
        if not engaged and any(footprint_distance_ft(a.squares, f.squares) <= max(5, a.reach_ft())
                               for f in foes if f.in_fight):
            continue
        out.append(a)
    return out


def _around(w: World, squares) -> set:
    rows, cols = w.grid.rock.shape
    return {(x + dx, y + dy) for x, y in squares for dx in (-1, 0, 1) for dy in (-1, 0, 1)
            if 0 <= x + dx < cols and 0 <= y + dy < rows}


def in_the_way(w: World, area: set, walkers: list[Creature], foes: list[Creature]) -> bool:
    """The web's squares lie on the way a friend walks to a foe (any foe: the nearest may fall
    first, and it goes on to the next): round them its walk to a square next to that foe grows
    longer, or there is none (the foe held in it, say)."""
    for a in walkers:
        for t in foes:
            if not t.in_fight:
                continue
            goal = _around(w, t.squares) - set(t.squares)
            limit = footprint_distance_ft(a.squares, t.squares) // 5 + 12
            free = _walk(w, a.squares, goal, set(), limit)
            if free is None:
                continue
            webbed = _walk(w, a.squares, goal - area, area, limit)
            if webbed is None or webbed > free:
                return True
    return False


def dangerous(c: Creature, f: Creature) -> bool:
    """One foe worth a web to itself [PD]: of the caster's Hit Dice or more, or bigger than it
    (the brutes grease also waits for, §8.1)."""
    return f.block.hit_dice >= c.block.hit_dice or f.size > c.size


def web_choke(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Web (docs/rules.md §8.3) where it pays: on two or more foes, or on one dangerous foe
    (:func:`dangerous`); or, when no friend wants to walk to the foes (:func:`goers`), across the
    passage they come along (its squares cut every foe not yet next to the party off from the
    caster, friends all on the caster's side: a tunnel mouth). Never on the caster nor a friend,
    never on a friend's way to its foe (:func:`in_the_way`), never a swarm's web (it holds none).
    Aimed at the intersections on the line from the caster to each foe and at the corners of each
    foe's space; the best holds the most foes, then closes the passage, then lies farthest from
    the party (which keeps its own ground free)."""
    if c.block.spells is None or has_spell(c, "web") is None:
        return None
    friends = w.allies(c)
    ally_sq = {s for a in friends for s in a.squares} | set(c.squares)
    held = [f for f in foes if f.in_fight and not f.is_swarm and "entangled" not in f.conditions]
    if not held:
        return None
    walkers = goers(w, c, foes)
    coming = [f for f in held if all(footprint_distance_ft(f.squares, a.squares) > 5 for a in [c, *friends])]
    cx, cy = c.pos
    aims = []
    for f in held:
        fx, fy = f.pos
        n = max(abs(fx - cx), abs(fy - cy))
        aims += [(cx + round((fx - cx) * k / n), cy + round((fy - cy) * k / n)) for k in range(4, n)]
        aims += [(x + i, y + j) for x, y in f.squares for i in (0, 1) for j in (0, 1)]
    cands, tried = [], set()
    for at in aims:
        if at in tried:
            continue
        tried.add(at)
        cast = Cast("web", at=at)
        area = set(area_of(w, c, cast))
        if not area or area & ally_sq:
            continue
        caught = [f for f in held if set(f.squares) & area]
        n = len(caught)
        closes = False
        if not walkers:   # a choke web only protects a party with nobody to send through it
            outside = [f for f in coming if not set(f.squares) & area]
            limit = max((max(abs(f.pos[0] - cx), abs(f.pos[1] - cy)) for f in outside), default=0) + 8
            closes = (bool(outside) and _cut_off(w, c.squares, {s for f in outside for s in f.squares}, area, limit)
                      and all(not _cut_off(w, c.squares, set(a.squares), area, limit) for a in friends))
        if n >= 2 or (n == 1 and dangerous(c, caught[0])) or closes:
            cands.append(((n, closes, footprint_distance_ft(area, ally_sq)), cast, area))   # then the farthest
    fighters = goers(w, c, foes, engaged=True)
    for _, cast, area in sorted(cands, key=lambda t: t[0], reverse=True):   # stable: the first aim of a key
        if not in_the_way(w, area, fighters, foes):
            return cast
    return None


def keep_out(w: World, c: Creature, act):
    """A caster or archer does not walk into its own side's web to fight in melee, nor anyone to
    hunt a foe it does not see (docs/rules.md §8.3's AI [PD]): a move whose steps enter a square
    of a web a friend (or it) cast becomes None (it waits); any other action is kept."""
    if not isinstance(act, (Move, Charge)) or not w.magic.zones:
        return act
    team = {a.id for a in w.allies(c)} | {c.id}
    own = {q for z in w.magic.zones if z.spell == "web" and z.owner in team for q in z.squares}
    if not own or set(c.squares) & own:
        return act
    if isinstance(act, Charge):   # the charge's line, centre to centre, short of the foe's space
        t = w.creatures[act.target]
        line = set(squares_on_segment((c.pos[0] + c.k / 2, c.pos[1] + c.k / 2), (t.pos[0] + t.k / 2, t.pos[1] + t.k / 2)))
        return None if (line - set(t.squares)) & own else act
    steps = moves.movement_plan(w, c, act.to, budget=2 if act.double else 1)
    if any({(s.at[0] + i, s.at[1] + j) for i in range(c.k) for j in range(c.k)} & own for s in steps):
        return None
    return act


def cloud_group(w: World, c: Creature, foes: list[Creature]) -> Cast | None:
    """Stinking cloud (docs/rules.md §8.4) on two or more living foes not nauseated yet, placed by
    :func:`_group_burst`."""
    if c.block.spells is None or has_spell(c, "stinking-cloud") is None:
        return None
    sick = [f for f in foes if f.in_fight and not f.nauseated and f.block.type not in ("undead", "construct")
            and "poison" not in f.block.defenses.immune]
    return _group_burst(w, c, "stinking-cloud", sick)


def leave_cloud(w: World, c: Creature) -> Move | None:
    """A creature nauseated in a stinking cloud (one move action, §5.2) walks out of it: to the
    nearest square (in actions, then feet) whose space is clear of the cloud (docs/rules.md §8.4)."""
    cloud = clouded(w)
    if not cloud or not set(c.squares) & cloud:
        return None
    d = distance_field(w, c)
    ys, xs = np.nonzero(d.reachable() & (d.actions <= 1))
    _, no_end = w.occupancy_masks(c)
    cands = sorted((float(d.actions[y, x]), (x, y)) for x, y in zip(xs.tolist(), ys.tolist())
                   if not no_end[y, x] and not {(x + i, y + j) for i in range(c.k) for j in range(c.k)} & cloud)
    return next((Move(p) for _, p in cands if moves.movement_plan(w, c, p, budget=1)), None)
