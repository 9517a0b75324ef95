"""Who notices whom on the way (RULES §9.3): where along the route the monsters notice the party
or the party notices them, by senses or by light, and which monsters join the fight.

Monsters placed in the map notice the party by their senses (darkvision, blindsense or
tremorsense, at least 60 ft, with a line of effect), or by the party's light, which they see from
any distance along a clear line (a torch is seen far beyond its own radius, RULES §9.3.4), unless
they are blind (grimlocks, oozes: their senses only). The party notices monsters only by its own
light and senses (a monster in the party's light, or in a light of its own or of the map, which
the party sees from any distance along a clear line; a dwarf's darkvision; a member's blindsense
or scent), every member counted at the leader's square; so the monsters usually notice first.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.crawl.records import MonsterNotices, PartyNotices
from sim.engine.creature import Creature
from sim.engine.setup import wielded_torches
from sim.rules.statblocks import StatBlock, load_template, template_in
from sim.scenario.specs import CombatantSpec
from sim.terrain.geometry import distance_squares, line_of_effect
from sim.terrain.grid import CaveGrid
from sim.terrain.vision import DARK, LOCATES, SEES, Viewer, vision
from sim.terrain.vision.fov import field_of_view
from sim.terrain.vision.scene import gear_light, map_lights

JOIN_SQUARES = 12   # monsters within 60 ft of one who noticed (or was noticed) join its fight


@dataclass(frozen=True, slots=True)
class Sighting:
    """Where the party and the monsters first notice each other: the index of the square (in the
    squares searched), the monsters that join the fight, who noticed first (``monsters``,
    ``party`` or ``both``) and every noticing."""

    index: int
    group: tuple[CombatantSpec, ...]
    first: str
    monsters_noticed: tuple[MonsterNotices, ...]
    party_noticed: tuple[PartyNotices, ...]


def monster_block(template: str, base: str = ".") -> StatBlock | None:
    """A monster's stat block; a template given as a file is found beside the crawl file, as in
    an encounter. None if it cannot be read (the encounter reports that, with the reason)."""
    try:
        return load_template(template_in(template, base))
    except DataError:
        return None


def _sense_range_ft(template: str, base: str = ".") -> int:
    """How far a monster notices the party: its darkvision, blindsense or tremorsense, at least 60 ft."""
    b = monster_block(template, base)
    if b is None:
        return 60
    s = b.senses
    return max(60, s.darkvision_ft, s.blindsense_ft, s.tremorsense_ft)


def monster_blind(m: CombatantSpec, base: str = ".") -> bool:
    """The monster is blind by nature (``[senses] blind``): it sees no light."""
    b = monster_block(m.template, base)
    return b is not None and bool(b.senses.blind)


def block_squares(at: Pos, space_ft: float, swarm: bool = False) -> set[Pos]:
    """The squares a creature of this space covers from ``at`` (its top-left square)."""
    k = 1 if swarm else max(1, int(space_ft // 5))
    return {(at[0] + i, at[1] + j) for i in range(k) for j in range(k)}


def trigger(grid: CaveGrid, squares: list[Pos], monsters: list[CombatantSpec], party: list[Creature], *,
            base: str = ".", lit: bool = False, item: str | None = None) -> Sighting | None:
    """The first square of the stretch where a monster notices the party or the party notices a
    monster (see the module notes). A monster notices by its senses, or, when the party carries a
    light (``lit``), by seeing it along a clear line from any distance. The party, standing on the
    square with its light (``item``), notices what its own eyes and senses give it there
    (:func:`_party_notices`). The monsters that join the fight are those within 60 ft of one
    noticed or noticing. Distances count diagonals 5-10-5 (§6.2)."""
    if not monsters:
        return None
    # a blind monster (grimlocks, oozes) sees no light: only its senses notice the party
    views = {m.id: field_of_view(grid.rock, m.at, edges=grid.edges) for m in monsters if lit and not monster_blind(m, base)}
    fixed = [*map_lights(grid), *(gear_light(it, at=m.at) for m in monsters if (it := _monster_light(m, base)))]
    for i, sq in enumerate(squares):
        seen = []
        for m in monsters:
            r = _sense_range_ft(m.template, base) // 5
            if m.id in views and views[m.id][sq[1], sq[0]]:
                seen.append((m, "light"))  # the party's light, seen down the tunnel (RULES §9.3.4)
            elif distance_squares(m.at, sq) <= r and line_of_effect(grid.rock, [sq], [m.at], edges=grid.edges):
                seen.append((m, "senses"))
        spotted = _party_notices(grid, sq, party, item, monsters, fixed, base) if party else []
        if seen or spotted:
            first = [m for m, _ in seen] + [m for m in monsters if any(p.monster == m.id for p in spotted)]
            # everyone within 60 ft of the first to notice (or be noticed) joins
            group = [m for m in monsters if any(distance_squares(m.at, s.at) <= JOIN_SQUARES for s in first)]
            return Sighting(index=i, group=tuple(group),
                            first="both" if seen and spotted else ("monsters" if seen else "party"),
                            monsters_noticed=tuple(MonsterNotices(monster=m.id, from_ft=5 * distance_squares(m.at, sq),
                                                                  by=how) for m, how in seen),
                            party_noticed=tuple(spotted))
    return None


def _monster_light(m: CombatantSpec, base: str) -> str | None:
    """The light a monster of the crawl holds lit: ``light = ...``, or for ``lit`` a torch it carries."""
    if m.light:
        return m.light
    if not m.lit:
        return None
    b = monster_block(m.template, base)
    carried = dict(b.gear) if b is not None else {}
    wielded = wielded_torches(b) if b is not None else 0   # a torch among its [[weapon]]s
    return "torch" if carried.get("torch", 0) + wielded + dict(m.items).get("torch", 0) > 0 else None


def _party_notices(grid: CaveGrid, sq: Pos, party: list[Creature], item: str | None, monsters: list[CombatantSpec],
                   fixed: list, base: str) -> list[PartyNotices]:
    """Which monsters the party perceives (sees or pinpoints, RULES §9.3) from ``sq``, its light
    (``item``) shining from there, every member counted at that square; ``by`` is ``light`` (lit
    by any light in the member's view: a lit square is seen from any distance along a clear line),
    ``darkvision`` or ``senses``."""
    lights = list(fixed) + ([gear_light(item, at=sq)] if item else [])
    rows, cols = grid.shape
    viewers = [Viewer.from_senses(c.id, "party", [sq], c.block.senses) for c in party]
    for m in monsters:
        b = monster_block(m.template, base)
        if b is None:
            continue
        squares = sorted(q for q in block_squares(m.at, b.body.space, b.is_swarm) if 0 <= q[0] < cols and 0 <= q[1] < rows)
        viewers.append(Viewer.from_senses(m.id, "monsters", squares, b.senses, grounded=not b.speed.fly))
    lg, s = vision(grid.rock, lights, viewers, edges=grid.edges)
    out = []
    for c in party:
        for v in viewers[len(party):]:
            level = s.level_of(c.id, v.id)
            if level < LOCATES:
                continue
            ft = 5 * min(distance_squares(sq, q) for q in v.squares)
            levels = lg.for_viewer(bool(c.block.senses.low_light))
            by = "senses" if level < SEES else (
                "light" if any(levels[y, x] != DARK for x, y in v.squares) else "darkvision")
            out.append(PartyNotices(member=c.id, monster=v.id, from_ft=ft, by=by))
    return out
