"""Spell-like and supernatural abilities that work as spells (docs/rules.md §8.5), and the spells
they bring: *faerie fire*, *invisibility*, *enlarge person*, *blur* and *blindness/deafness*
(darkness is the spell of :mod:`sim.engine.spells`). A stat block's ``[[spell_like]]`` entries give the spell, the uses per
day, the caster level and (derived) the DC; the uses spent are the creature's use counter
(``Creature.uses["sla:SPELL"]``) and the effects under way its effects (``sim/data/effects.toml``):

* ``invisible``, ``outlined``, ``enlarged``, ``blurred`` -- until their last round (the tick ends
  them at the start of the creature's turn);
* ``blindness`` -- the DC of the blindness/deafness that blinded it (permanent: no last round).

The effects are conditions of the creature too (``invisible``, ``outlined``, ``enlarged``), which
the vision overlay (:mod:`sim.terrain.vision.magic`) reads: an invisible creature is seen by nobody but a
blindsighted viewer (blindsense, tremorsense and scent still locate it), an outlined one glows
like a candle and keeps no concealment but that of magical darkness (nor blur's). A blurred
creature has concealment (20%) against every attacker whose blindsight does not reach it
(:meth:`World.miss_chance`; its 20% is ``miss_chance`` in sim/data/effects.toml).
"""

from __future__ import annotations

import dataclasses

from sim.engine import specials
from sim.engine.checks import roll_save
from sim.engine.conditions import add, announce_end, end, on_end
from sim.engine.creature import Creature
from sim.engine.effects import Effect, changed, find, put
from sim.engine.events import SpellCast
from sim.engine.world import World
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.rules.statblocks import SpellLike, derive, without_armor
from sim.terrain.vision import SEES

#: The spell-like abilities the engine plays (the others stay ``unmodelled``: spell-like-abilities).
PLAYED = ("darkness", "faerie-fire", "invisibility", "enlarge-person", "blur", "blindness-deafness")
#: The spells this module carries out (darkness is :mod:`sim.engine.spells`' own).
EFFECTS = ("faerie-fire", "invisibility", "enlarge-person", "blur", "blindness-deafness")


def ability(c: Creature, spell: str) -> SpellLike | None:
    """The creature's spell-like ability of ``spell``, or None."""
    return next((s for s in c.block.spell_like if s.spell == spell), None)


def uses_left(w: World, c: Creature, spell: str) -> int:
    s = ability(c, spell)
    return 0 if s is None else s.per_day - c.uses.get(f"sla:{spell}", 0)


def usable(w: World, c: Creature, spell: str) -> SpellLike | None:
    """The spell-like ability of ``spell`` when the engine plays it and a use is left today."""
    s = ability(c, spell)
    return s if s is not None and spell in PLAYED and uses_left(w, c, spell) > 0 else None


def spend(w: World, c: Creature, s: SpellLike) -> None:
    key = f"sla:{s.spell}"
    c.uses[key] = c.uses.get(key, 0) + 1


def active(w: World, c: Creature, effect: str) -> bool:
    return find(c, effect) is not None


def _start(w: World, o: Creature, effect: str, last: int, cause: str) -> None:
    add(w, o, effect, cause, int(last), detail=_space(o) if effect == "enlarged" else None)


def _space(o: Creature) -> dict:
    """The ``enlarged`` condition's numbers: the space it covers now and its size (the picture redraws it)."""
    return {"size": o.size.key, "squares": [list(q) for q in o.squares]}


@on_end("enlarged")
def _enlarge_over(w: World, o: Creature, e: Effect, cause: str) -> None:
    """Enlarge person over: its own size again, its armor (and shield) off if it had them off."""
    drop_shield = o.block.shield is None and o.base_block.shield is not None
    o.block = without_armor(o.base_block, drop_shield=drop_shield) if o.armor_off else o.base_block
    w.place(o, o.pos)
    announce_end(w, o, "enlarged", cause, _space(o))


def attacked(w: World, c: Creature) -> None:
    """Invisibility ends when its subject attacks any creature (SRD *invisibility*)."""
    if find(c, "invisible") is not None:
        end(w, c, "invisible", "attacked")


def unseen_attacker(w: World, attacker: Creature, target: Creature) -> bool:
    """An invisible attacker its target does not see: +2 on the attack, no Dex to AC (SRD)."""
    return "invisible" in attacker.conditions and w.perception(target, attacker) < SEES


def effect(w: World, c: Creature, spell: str, data: dict, plan, a, *, cl: int, sr: bool, dc: int = 0) -> None:
    """Carry out faerie fire, invisibility, enlarge person, blur or blindness/deafness (``plan``:
    the area's squares, or the one target in a list) at caster level ``cl``; ``sr``: spell
    resistance applies; ``dc``: the save DC (blindness/deafness)."""
    rounds = int(data["duration_rounds_per_level"]) * cl
    last = w.round + rounds - 1
    if spell == "faerie-fire":
        sq = set(plan)
        inside = [o for o in w.creatures.values() if o.alive and sq & set(o.squares)]
        w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=tuple(o.id for o in inside),
                         squares=tuple(plan), defensive=a.defensive))
        for o in inside:
            if sr and o is not c and specials.resists_spell(w, c, o, cl):
                continue
            _start(w, o, "outlined", last, c.id)
        return
    target = plan[0]
    w.emit(SpellCast(round=w.round, actor=c.id, spell=spell, targets=(target.id,), squares=(),
                     defensive=a.defensive))
    if spell == "invisibility":
        _start(w, target, "invisible", last, c.id)
    elif spell == "blur":
        _start(w, target, "blurred", last, c.id)
    elif spell == "blindness-deafness":
        blind(w, c, target, cl=cl, sr=sr, dc=dc)
    elif spell == "enlarge-person":
        if active(w, target, "enlarged"):
            put(target, changed(find(target, "enlarged"), until=int(last)))
            return
        target.block = enlarged(target.block)
        w.place(target, target.pos)
        _start(w, target, "enlarged", last, c.id)


def blind(w: World, c: Creature, o: Creature, *, cl: int, sr: bool, dc: int) -> None:
    """Blindness/deafness (SRD; docs/rules.md §8.5 [PD]): the caster always picks blindness;
    spell resistance, then a Fortitude save negates; else ``o`` is blinded for good (the rest of
    the fight, and of a crawl)."""
    if ("blinded" in o.conditions and find(o, "blindness") is not None) or specials.immune_to_blinding(o):
        return   # blind already, or blind by nature (docs/rules.md §9.3): nothing to take away
    if sr and o is not c and specials.resists_spell(w, c, o, cl):
        return
    if roll_save(w, o, "fort", dc, "blindness", c.id):
        return
    add(w, o, "blindness", c.id, None, dc=int(dc))


def enlarged(block):
    """The stat block under *enlarge person* (SRD): one size larger (space and reach 10 ft for a
    Medium creature, its weapons grow with it), +2 size bonus to Str, -2 Dex, a body twice as tall
    (and as wide: its category in a passage changes); the size modifiers to attack and AC follow."""
    src = block.source
    ab = dataclasses.replace(src.abilities, str=src.abilities.str + 2, dex=src.abilities.dex - 2)
    body = tuple((k, v * 2) for k, v in src.body_overrides)
    size = Size(int(src.size) + 1)
    weapons = tuple(dataclasses.replace(e, weapon=e.weapon.sized(size)) if e.weapon.size == src.size else e
                    for e in src.weapons)         # what it carries grows with it
    new = dataclasses.replace(src, size=size, abilities=ab, body_overrides=body, weapons=weapons)
    return derive(new, book_values=block.book_values)


def room_to_grow(w: World, c: Creature) -> str | None:
    """Why ``c`` cannot grow one size where it stands (docs/rules.md §8.5 [PD]: the space of the
    larger size from its square, no rock nor other creature in it, and a category there it can
    stand in at that size), or None."""
    big = enlarged(c.block)
    x, y = c.pos
    k = big.size.squares
    rows, cols = w.grid.rock.shape
    others = {q for o in w.creatures.values() if o is not c and o.alive for q in o.squares}
    for j in range(k):
        for i in range(k):
            q = (x + i, y + j)
            if not (0 <= q[0] < cols and 0 <= q[1] < rows) or w.grid.rock[q[1], q[0]]:
                return f"no room to grow: {q} is rock or off the map"
            if q in others:
                return f"no room to grow: {q} is taken"
    worst = category_enlarged(w, c, big)
    if worst >= Category.TIGHT_SQUEEZE:
        return f"no room to grow: an enlarged {c.name} would be in a {worst.name.lower().replace('_', ' ')} there"
    return None


def category_enlarged(w: World, c: Creature, big=None) -> Category:
    """The worst category (docs/rules.md §2) of the squares ``c`` would cover enlarged, for its
    bigger body (its classification at the new size)."""
    big = big or enlarged(c.block)
    own = c.block
    c.block = big
    try:
        cats = w.categories(c)
        x, y = c.pos
        k = big.size.squares
        return max(Category(int(cats[y + j, x + i])) for j in range(k) for i in range(k))
    finally:
        c.block = own

