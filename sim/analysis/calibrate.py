"""``cavesim calibrate``: the AI measured against the DMG's encounter ladder (issue 31 item 1).

A **rung** is a party level L and an Encounter Level EL (from L - 2 to L + 5, :mod:`sim.analysis.ladder`).
For every rung it builds encounters: the party (by default the four shipped PC templates at level L:
human fighter, human cleric, halfling rogue, elf wizard) against a group of one shipped monster,
as many of it as make the EL (:func:`sim.analysis.ladder.group_size`), in a lit open room made here
(:func:`open_room`) or on the user's map at its named points ``party`` and ``monsters``. Each
encounter is one variant of a batch (:mod:`sim.analysis.batch`): the same seeds, workers,
``--cluster`` and resume as ``cavesim fight --runs``.

Where creatures stand: from their side's point outwards (nearest squares first, by a breadth-first
walk over the floor), each where its body fits and touches no one already placed; in the open room
the party's point is 4 squares from the west wall and the monsters' 4 from the east [PD].
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.analysis import ladder
from sim.base.errors import DataError, UsageError
from sim.engine.setup import build_creature, placement_problem
from sim.rules.statblocks import list_templates, load_template
from sim.scenario.specs import SETTINGS_DEFAULTS, CombatantSpec, EncounterSpec
from sim.terrain.grid import CaveGrid, MapLight

PARTY_CLASSES = ("human-fighter", "human-cleric", "halfling-rogue", "elf-wizard")
PARTY_TEAM = "party"
MONSTER_TEAM = "monsters"
LEVELS = range(1, 11)          # the shipped PC templates' levels
EL_BELOW, EL_ABOVE = 2, 5      # the rungs: EL = L - 2 ... L + 5
ROOM = (26, 18)                # the open room in squares (columns, rows), walls included
ROOM_FT = (200.0, 60.0)        # its width and ceiling in feet: open to every shipped body


@dataclass(frozen=True, slots=True)
class Monster:
    template: str
    cr: Fraction


@dataclass(frozen=True, slots=True)
class Rung:
    level: int
    el: int
    monster: Monster
    count: int

    @property
    def label(self) -> str:
        """The variant's label in the records: ``L3 EL5 ogre x2``."""
        return f"L{self.level} EL{self.el} {self.monster.template} x{self.count}"


def parse_levels(text: str) -> list[int]:
    """``--levels``: ``3,6``, ``1-10`` or a mix, each a level of the shipped PC templates.

    >>> parse_levels("3,6"), parse_levels("2-4,9")
    ([3, 6], [2, 3, 4, 9])
    >>> parse_levels("11")
    Traceback (most recent call last):
    ...
    sim.base.errors.UsageError: --levels 11: a level must be a whole number from 1 to 10 (the shipped PC templates)
    """
    out: list[int] = []
    for part in str(text).split(","):
        lo, sep, hi = part.strip().partition("-")
        try:
            a, b = int(lo), int(hi) if sep else int(lo)
        except ValueError:
            raise UsageError(f"--levels {text}: write levels as 3,6 or a range 1-10") from None
        if not (LEVELS.start <= a <= b < LEVELS.stop):
            raise UsageError(f"--levels {text}: a level must be a whole number from {LEVELS.start} to "
                             f"{LEVELS.stop - 1} (the shipped PC templates)")
        out += [v for v in range(a, b + 1) if v not in out]
    return out


def monsters(names: list[str] | None) -> list[Monster]:
    """The monsters to ladder: the named shipped ones (each must have a CR), or every shipped
    monster with a CR."""
    shipped = list_templates("monster")
    if names is None:
        out = [Monster(n, ladder.parse_cr(b.source.cr)) for n in shipped if (b := load_template(n)).source.cr]
        return sorted(out, key=lambda m: (m.cr, m.template))
    out = []
    for n in names:
        if n not in shipped:
            raise UsageError(f"--monsters {n}: not a shipped monster; `cavesim templates` lists them")
        cr = load_template(n).source.cr
        if not cr:
            raise UsageError(f"--monsters {n}: its stat block has no cr, so it has no place on the ladder")
        out.append(Monster(n, ladder.parse_cr(cr)))
    return out


def rungs(levels: list[int], mons: list[Monster], *, per_rung: int) -> list[Rung]:
    """The encounters of the ladder: for each level and each EL from L - 2 to L + 5 (at least 1),
    up to ``per_rung`` monsters of which a group of at most :data:`ladder.MAX_GROUP` makes it,
    spread evenly over the candidates ordered by CR (the highest first, so solo monsters lead)."""
    out: list[Rung] = []
    for lv in levels:
        for el in range(max(1, lv - EL_BELOW), lv + EL_ABOVE + 1):
            cands = [(m, n) for m in sorted(mons, key=lambda m: (-m.cr, m.template))
                     if (n := ladder.group_size(m.cr, el)) is not None]
            if len(cands) > per_rung:
                picks = sorted({round(i * (len(cands) - 1) / max(1, per_rung - 1)) for i in range(per_rung)})
                cands = [cands[i] for i in picks]
            out += [Rung(lv, el, m, n) for m, n in cands]
    return out


def open_room() -> CaveGrid:
    """The lit open room: :data:`ROOM` squares walled round, 200 ft wide and 60 ft high (every
    shipped body stands in it), one bright light over all of it; points ``party`` (west) and
    ``monsters`` (east)."""
    cols, rows = ROOM
    w = np.full((rows, cols), ROOM_FT[0])
    h = np.full((rows, cols), ROOM_FT[1])
    w[0, :] = w[-1, :] = w[:, 0] = w[:, -1] = 0.0
    reach = float(5 * (cols + rows))
    light = MapLight((cols // 2, rows // 2), bright_ft=reach, shadowy_ft=reach, name="daylight-bright lamps")
    return CaveGrid.from_arrays(w, h, name="calibration room", lights=(light,),
                                points={"party": (4, rows // 2), "monsters": (cols - 5, rows // 2)},
                                description="A lit open room for the encounter ladder (cavesim calibrate).")


def party(level: int) -> list[tuple[str, str]]:
    """``(id, template)`` of the default party at ``level``."""
    return [(cls.split("-")[1], f"{cls}-{level}") for cls in PARTY_CLASSES]


def encounter(grid: CaveGrid, rung: Rung, *, seed: int, settings: dict | None = None) -> EncounterSpec:
    """The encounter of one rung on ``grid``: the party around point ``party``, the group around
    ``monsters``. Raises :class:`UsageError` when they do not all fit."""
    for name in ("party", "monsters"):
        if name not in grid.points:
            raise UsageError(f"--map {grid.source or grid.name}: no point {name!r}; name the squares where the party "
                             "and the monsters start ([points] party = [x, y], monsters = [x, y])")
    taken: dict = {}
    combatants = []
    sides = [(grid.points["party"], PARTY_TEAM, party(rung.level)),
             (grid.points["monsters"], MONSTER_TEAM,
              [(f"m{k + 1}", rung.monster.template) for k in range(rung.count)])]
    for anchor, team, members in sides:
        for cid, template in members:
            cs = CombatantSpec(id=cid, template=template, team=team, at=anchor)
            at = _spot(grid, cs, anchor, taken)
            if at is None:
                raise UsageError(f"{rung.label}: no room for {cid} ({template}) near point {team if team != PARTY_TEAM else 'party'} "
                                 f"{anchor}; give a map with more open floor there")
            combatants.append(CombatantSpec(id=cid, template=template, team=team, at=at))
    return EncounterSpec(name=rung.label, path="", grid=grid, seed=seed, combatants=tuple(combatants),
                         settings={**SETTINGS_DEFAULTS, **(settings or {})})


def _spot(grid: CaveGrid, cs: CombatantSpec, anchor, taken: dict):
    """The first square (breadth first from ``anchor`` over the floor) where ``cs`` fits with a
    square of clearance from every creature placed; the squares it covers join ``taken``."""
    c = build_creature(cs, "")
    seen = {tuple(anchor)}
    queue = deque([tuple(anchor)])
    while queue:
        x, y = queue.popleft()
        problem, squares = placement_problem(grid, c, (x, y), taken)
        if problem is None and not any((sx + dx, sy + dy) in taken for sx, sy in squares
                                       for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
            for sq in squares:
                taken[sq] = cs.id
            return (x, y)
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if grid.in_bounds((nx, ny)) and not grid.rock[ny, nx] and (nx, ny) not in seen:
                seen.add((nx, ny))
                queue.append((nx, ny))
    return None


def variants(grid: CaveGrid, ladder_rungs: list[Rung], *, seed: int) -> list[tuple[str, EncounterSpec]]:
    """The batch's variants, one per rung encounter."""
    try:
        return [(r.label, encounter(grid, r, seed=seed)) for r in ladder_rungs]
    except DataError as exc:
        raise UsageError("; ".join(exc.problems)) from None


def prepared_spells(level: int) -> dict[str, int]:
    """Spells each member of the default party has prepared at ``level`` (what its spell slots
    hold at the start of a fight), by id."""
    out = {}
    for cid, template in party(level):
        c = build_creature(CombatantSpec(id=cid, template=template, team=PARTY_TEAM, at=(0, 0)), "")
        out[cid] = sum(len(v) for v in c.spells_left.values())
    return out
