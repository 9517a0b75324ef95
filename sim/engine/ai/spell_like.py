"""The AI's use of spell-like abilities (docs/rules.md §8.5), asked by the turn planner
(:mod:`sim.engine.ai.decide`) before it fights, as the tactic :data:`SPELL_LIKE` (phase
``perceived`` of :mod:`sim.engine.ai.registry`); each scorer returns a :class:`Cast` or None.

* **darkness** -- a creature that needs no light (darkvision, blindsense or blindsight) against
  foes that do (neither darkvision nor blindsight) darkens the square within its reach whose
  20-ft radius holds the most of them, when one at least is in it and not already in magical
  darkness: the torch's bright light is gone (no more light blindness), and the foes fight at 20%
  miss chance while it still sees them. The darkmantle's tactic (SRD): darkness, then it drops on
  the foe (its move of the same turn). A creature hurt by bright light (light blindness or
  sensitivity) standing in it darkens its own square first.
* **faerie fire** -- on the foes its side locates but does not see (invisible), or sees with a
  miss chance not from magical darkness: the 5-ft burst at a corner of their space that outlines
  the most of them.
* **invisibility** (itself only, the duergar) -- before closing: the nearest foe it perceives is
  more than 30 ft and at most 120 ft away.
* **enlarge person** (itself, the duergar) -- when melee is near: a foe within 30 ft, none next
  to it, and room to grow where it stands (its bigger body not in a tight squeeze).

* **blindness/deafness** (the svirfneblin) -- on the foe that threatens it most (the best
  expected damage of one of its attacks against the user's AC, from the stat block: hit chance
  times average damage; ties: the nearest, then the id), living, not blinded yet, that its side
  locates within medium range and a line of effect; it always picks blindness.
* **blur** (itself, the svirfneblin) -- before closing: a foe within 30 ft, none next to it.

A Sp ability provokes like a spell: none is used while a foe threatens the user (a Su ability
does not provoke, docs/rules.md §8.5).
"""

from __future__ import annotations

import math

from sim.engine import attacks, innate
from sim.engine.actions import Cast, Turn
from sim.engine.ai.estimates import hit_chance
from sim.engine.ai.tactic import PERCEIVED, Melee, Tactic
from sim.engine.casting import range_ft
from sim.engine.creature import Creature
from sim.engine.spells import area_of
from sim.engine.world import World
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision import BRIGHT, LOCATES, SEES
from sim.terrain.vision.sight import SHADOW_MISS

INVISIBLE_BEFORE_FT = (30, 120)   # invisibility when the nearest foe is this far (more than, at most)
ENLARGE_WITHIN_FT = 30           # enlarge person when a foe is this near
BLUR_WITHIN_FT = 30              # blur when a foe is this near (none next to it)


def needs_no_light(c: Creature) -> bool:
    s = c.block.senses
    return bool(s.darkvision_ft or s.blindsense_ft or s.blindsight_ft)


def relies_on_light(c: Creature) -> bool:
    s = c.block.senses
    return not (s.darkvision_ft or s.blindsight_ft)


def innate_tactic(w: World, c: Creature, t: Turn, foes: list[Creature]) -> Cast | None:
    """The spell-like ability worth its use now, or None (see the module notes)."""
    if not c.block.spell_like or not t.standard or not w.vision_on:
        return None
    if not any(innate.usable(w, c, s.spell) for s in c.block.spell_like):
        return None
    threatened = any(set(c.squares) & attacks.threatens(w, f) for f in foes)
    for scorer in (darkness, faerie_fire, invisibility, enlarge, blindness, blur):
        cast = scorer(w, c, foes, threatened)
        if cast is not None:
            return cast
    return None


def _tactic(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee) -> Cast | None:
    return innate_tactic(w, c, t, foes)


#: Asked with the foes its side perceives, before it closes (docs/rules.md §8.5): the ability is
#: cast with the engine's Cast, so the mechanic is the spells'.
SPELL_LIKE = Tactic("spells", _tactic, phase=PERCEIVED)


def _can(w: World, c: Creature, spell: str, threatened: bool) -> bool:
    s = innate.usable(w, c, spell)
    return s is not None and not (threatened and s.kind == "sp")


def darkness(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    if not _can(w, c, "darkness", threatened) or not needs_no_light(c):
        return None
    lights = w.vision()[0]
    magic = lights.magic_dark
    senses = c.block.senses
    if (senses.light_blindness or senses.light_sensitivity) and not all(magic[y, x] for x, y in c.squares) \
            and any(lights.normal[y, x] == BRIGHT for x, y in c.squares):
        return Cast("darkness", at=tuple(c.pos))   # bright light on a drow or a duergar: darken its own square
    reliant = [f for f in foes if relies_on_light(f) and w.side_perceives(c.team, f) >= LOCATES
               and not all(magic[y, x] for x, y in f.squares)]
    if not reliant:
        return None
    radius = 20
    rows, cols = w.grid.rock.shape
    best = None
    for x0, y0 in c.squares:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (x0 + dx, y0 + dy)
                if not (0 <= q[0] < cols and 0 <= q[1] < rows) or w.grid.rock[q[1], q[0]]:
                    continue
                if footprint_distance_ft(c.squares, [q]) > 5:
                    continue
                n = sum(1 for f in reliant if footprint_distance_ft([q], f.squares) <= radius
                        and w.line_of_effect([q], f.squares))
                near = min(footprint_distance_ft([q], f.squares) for f in reliant)
                straight = min(math.hypot(q[0] - x, q[1] - y) for f in reliant for x, y in f.squares)
                key = (-n, near, straight, q[1], q[0])
                if n and (best is None or key < best[0]):
                    best = (key, q)
    return Cast("darkness", at=best[1]) if best else None


def faerie_fire(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    if not _can(w, c, "faerie-fire", threatened):
        return None
    magic = w.vision()[0].magic_dark
    hidden = []
    for f in foes:
        if "outlined" in f.conditions or w.side_perceives(c.team, f) < LOCATES:
            continue
        unseen = w.side_perceives(c.team, f) < SEES
        concealed = w.miss_chance(c, f) >= SHADOW_MISS and not all(magic[y, x] for x, y in f.squares)
        if unseen or concealed:
            hidden.append(f)
    best, tried = None, set()
    for f in hidden:
        for x, y in f.squares:
            for at in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)):
                if at in tried:
                    continue
                tried.add(at)
                cast = Cast("faerie-fire", at=at)
                area = set(area_of(w, c, cast))
                n = sum(1 for g in hidden if set(g.squares) & area)
                if n and not set(c.squares) & area and (best is None or n > best[0]):
                    best = (n, cast)
    return best[1] if best else None


def _nearest_ft(w: World, c: Creature, foes: list[Creature]) -> int | None:
    seen = [f for f in foes if w.side_perceives(c.team, f) >= LOCATES]
    return min((footprint_distance_ft(c.squares, f.squares) for f in seen), default=None)


def invisibility(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    if not _can(w, c, "invisibility", threatened) or "invisible" in c.conditions:
        return None
    near = _nearest_ft(w, c, foes)
    lo, hi = INVISIBLE_BEFORE_FT
    return Cast("invisibility", target=c.id) if near is not None and lo < near <= hi else None


def enlarge(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    if not _can(w, c, "enlarge-person", threatened) or "enlarged" in c.conditions:
        return None
    near = _nearest_ft(w, c, foes)
    if near is None or near > ENLARGE_WITHIN_FT or near <= 5 or innate.room_to_grow(w, c) is not None:
        return None
    return Cast("enlarge-person", target=c.id)


def threat(f: Creature, c: Creature) -> float:
    """How much ``f`` threatens ``c``: the best expected damage of one of its attacks against
    ``c``'s AC, from the stat block (hit chance times average damage)."""
    return max((hit_chance(int(a.bonus or 0), c.block.ac) * a.damage.average for a in f.block.attacks
                if a.damage is not None), default=0.0)


def blindness(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    s = innate.usable(w, c, "blindness-deafness")
    if not _can(w, c, "blindness-deafness", threatened):
        return None
    reach = range_ft(c, "medium", s.caster_level)
    best = None
    for f in foes:
        if not f.living or "blinded" in f.conditions or f.sightless or w.side_perceives(c.team, f) < LOCATES:
            continue
        near = footprint_distance_ft(c.squares, f.squares)
        if near > reach or not w.line_of_effect(c.squares, f.squares):
            continue
        key = (-threat(f, c), near, f.id)
        if best is None or key < best[0]:
            best = (key, f)
    return Cast("blindness-deafness", target=best[1].id) if best else None


def blur(w: World, c: Creature, foes: list[Creature], threatened: bool) -> Cast | None:
    if not _can(w, c, "blur", threatened) or "blurred" in c.conditions:
        return None
    near = _nearest_ft(w, c, foes)
    if near is None or near > BLUR_WITHIN_FT or near <= 5:
        return None
    return Cast("blur", target=c.id)
