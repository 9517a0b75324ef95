"""From an input record to a creature on the grid: stat block, weapon in hand, gear, spells,
movement body, footprint; and the placement check the loader runs on every encounter file.

Nothing here rolls a die or emits an event: the fight has not started.
"""

from __future__ import annotations

import dataclasses

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.engine.creature import Creature
from sim.engine.effects import carried_over
from sim.rules.bodies import swarm_body
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.rules.statblocks import StatBlock, attacks_with, load_template, template_in
from sim.rules.weapons import gear, is_lantern
from sim.scenario.specs import CombatantSpec, EncounterSpec
from sim.terrain.movement import Mover, move_field
from sim.terrain.movement.field import BLOCKED, MoveField


def _resolve_template(spec: CombatantSpec, base: str) -> StatBlock:
    name = template_in(spec.template, base)  # a path is relative to the encounter file (one rule)
    return load_template(name, book_values=True if spec.book_values else None)


def weapon_choice(block: StatBlock, name: str | None) -> tuple[StatBlock, str | None]:
    """The attack to hold at the start: ``name`` (an attack on the sheet, or a weapon given to it),
    else the first melee weapon or natural attack."""
    if name:
        for a in block.attacks:
            if a.name == name or (a.weapon is not None and a.weapon.key == name and a.mode == "melee"):
                return block, a.name
        extra = attacks_with(block, name)
        block = with_extra_attacks(block, extra)
        return block, extra[0].name
    melee = [a for a in block.attacks if a.mode == "melee"]
    if melee:
        return block, melee[0].name
    return block, (block.attacks[0].name if block.attacks else None)


def with_extra_attacks(block: StatBlock, extra) -> StatBlock:
    names = {a.name for a in block.attacks}
    return dataclasses.replace(block, attacks=block.attacks + tuple(a for a in extra if a.name not in names))


def wielded_torches(block: StatBlock) -> int:
    """Torches the stat block fights with (``[[weapon]] name = "torch"``), besides its ``[gear]``."""
    return sum(int(e.count) for e in block.source.weapons if e.name == "torch")


def build_creature(spec: CombatantSpec, base_path: str) -> Creature:
    block = _resolve_template(spec, base_path)
    block, wielding = weapon_choice(block, spec.weapon)
    items = {k: int(v) for k, v in block.gear}
    if wielded_torches(block):   # a torch among its weapons is a torch it carries: lit = true lights it
        items["torch"] = items.get("torch", 0) + wielded_torches(block)
    for k, v in spec.items:
        gear(k)  # an unknown item is refused here, with the names it might have meant
        items[k] = items.get(k, 0) + v
    team = spec.team or ("party" if block.kind == "pc" else "monsters")
    name = spec.name or (spec.id.replace("-", " ").replace("_", " ").title() if spec.explicit_id else block.name)
    c = Creature(id=spec.id, name=name, team=team, template=spec.template, block=block,
                 base_block=block, hp=block.hp, max_hp=block.hp, pos=spec.at, squares=[spec.at],
                 wielding=wielding, items=items)
    if block.spells is not None:
        sp = block.spells
        # a spontaneous caster: every known spell once per slot of its level (casting one spends a slot)
        c.spells_left = {lvl: list(spells) * (sp.slots[lvl] if sp.spontaneous else 1)
                         for lvl, spells in enumerate(sp.prepared)}
        for lvl, name in enumerate(block.spells.domain_prepared):
            if name:
                c.spells_left.setdefault(lvl, []).append(name)
    if spec.lit and items.get("torch", 0) > 0:
        c.torch_lit = True
    if spec.light:
        c.light = spec.light
    elif spec.lit:  # and a lantern it carries burns in its other hand: it sheds light, ready to throw (RULES §3.5)
        c.light = next((k for k, n in sorted(items.items()) if n > 0 and is_lantern(k)), None)
    thrown = {a.weapon.key for a in block.attacks if a.thrown and a.weapon is not None}
    c.thrown_left = {e.name: e.count for e in block.source.weapons if e.name in thrown}
    return c


def check_placement(spec: EncounterSpec) -> list[str]:
    """Every problem with where the combatants stand: unknown templates or weapons, off the map,
    in rock, where the creature does not fit, or on another creature (DESIGN §5)."""
    problems: list[str] = []
    placed: dict[Pos, str] = {}
    for cs in spec.combatants:
        try:
            c = build_creature(cs, spec.path)
        except DataError as exc:
            problems.extend(f"{spec.where(cs, 'template/weapon')}: {p}" for p in exc.problems)
            continue
        if cs.lit and not (c.torch_lit or c.light):
            problems.append(f"{spec.where(cs, 'lit')}: {c.name} has nothing to light (no torch in its [gear] or "
                            "among its [[weapon]]s, no lantern); give it one (items = { torch = 1 }) or remove lit")
        problem, squares = placement_problem(spec.grid, c, cs.at, placed)
        if problem:
            problems.append(f"{spec.where(cs, 'at')}: {problem}")
        elif not (c.is_swarm or c.size <= Size.TINY):
            for sq in squares:
                placed[sq] = cs.id
    return problems


def placement_problem(grid, c: Creature, at: Pos, taken: dict[Pos, str]) -> tuple[str | None, list[Pos]]:
    """Whether ``c`` may stand with its reference square at ``at`` (the rules of
    :func:`check_placement`: on the map, not in rock, where its body fits, not on a square in
    ``taken`` (square -> id) unless it is a swarm or Tiny): (the problem or None, the squares it
    would cover)."""
    x, y = at
    if not grid.in_bounds(at):
        return f"({x}, {y}) is off the map ({grid.cols}x{grid.rows})", []
    if grid.rock[y, x]:
        return f"({x}, {y}) is solid rock; put it on a floor square", []
    f = move_field(grid, mover_for(c))
    if f.mode[y, x] == BLOCKED:
        cat = Category(int(f.category[y, x]))
        return (f"a {c.size.key} {c.block.name} does not fit at ({x}, {y}) ({cat.label} for its body); place it "
                "where it fits"), []
    squares = footprint(f, c, at) if not c.is_swarm else [at]
    if not (c.is_swarm or c.size <= Size.TINY):
        for sq in squares:
            other = taken.get(sq)
            if other:
                return (f"({sq[0]}, {sq[1]}) is already taken by {other!r}; two creatures cannot share a square "
                        "(swarms and Tiny creatures excepted)"), squares
    return None, squares


def mover_for(c: Creature, *, in_combat: bool = True) -> Mover:
    b = c.block
    if c.is_swarm:
        body = swarm_body(b.swarm.component)
    else:
        body = b.body
    m = Mover(body=body, speed_ft=c.speed_ft_value() // 5 * 5, escape_artist=int(b.escape_artist),
              flying=c.flies, tunnelrunner=b.has_feat("tunnelrunner"))
    return m.in_combat() if in_combat else m


def describe(c: Creature) -> dict:
    """A creature as the ``encounter_start`` event lists it (and the ``split`` event its new half)."""
    return {"id": c.id, "name": c.name, "template": c.template, "team": c.team, "size": c.size.key,
            "squares": [list(s) for s in c.squares], "hp": c.hp, "max_hp": c.max_hp, "swarm": c.is_swarm,
            "component": c.block.swarm.component.key if c.is_swarm else None,
            "speed": mover_for(c).speed_ft, "prone": c.prone, "wielding": c.wielding, "kind": c.block.kind,
            "type": c.block.type, "sex": c.block.source.sex, "torch_lit": c.torch_lit, "light": c.light}


def footprint(f: MoveField, c: Creature, pos: Pos) -> list[Pos]:
    if c.is_swarm:
        return [pos]
    return f.occupied(pos, c.trail)


#: What a creature takes from one fight to the next on a crawl, and back (:func:`carry_over`):
#: hit points, armor and posture, what it holds and has used (its spells, its per-day uses: a
#: spider's webs, spell-like abilities), its statuses, its lasting effects and the lasting harm of
#: wounds (ability damage, bleeding, disease). An effect goes on without the fight's clock
#: (:func:`sim.engine.effects.carried_over`: bless, sleep and a rage end at the next fight's first
#: tick of their moment, a rage leaving the barbarian fatigued; blindness lasts), and one bound to
#: its fight (a web's hold, a strand, a cloud) stays behind. Not carried: its tallies (kills,
#: rounds squeezing or nauseated), a poison's secondary save (it falls due within the fight), and
#: armor half taken off (the work, ``armor_work``, is lost: the armor is on, or off, as it was when
#: the fight ended).
CARRIED = ("hp", "nonlethal", "block", "base_block", "armor_off", "prone", "items", "fused", "torch_lit", "light",
           "wielding", "unloaded", "thrown_left", "spells_left", "uses", "statuses", "effects", "ability_damage",
           "bleed", "diseases")


def carry_over(src: Creature, dst: Creature) -> None:
    """Copy the :data:`CARRIED` fields of ``src`` onto ``dst`` (containers copied, not shared)."""
    for name in CARRIED:
        value = getattr(src, name)
        if name == "spells_left":
            value = {lvl: list(names) for lvl, names in value.items()}
        elif name == "effects":
            value = [e for e in map(carried_over, value) if e is not None]
        elif isinstance(value, (dict, set, list)):
            value = type(value)(value)
        setattr(dst, name, value)
