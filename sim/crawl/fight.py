"""A fight on the way: played by the encounter engine from where the party stands (single file
back along the route) and with the equipment it has at that moment (armour off in a crawlway
included); what the fight spends (hit points, spells, ammunition, armour taken off) stays spent
for the rest of the crawl.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from sim.base.coords import Pos
from sim.crawl.notice import block_squares, monster_block
from sim.crawl.records import FightSummary
from sim.crawl.route import travel_mover
from sim.engine import zones
from sim.engine.creature import Creature
from sim.engine.events import Event
from sim.engine.fight import new_encounter
from sim.engine.setup import carry_over
from sim.scenario.specs import CombatantSpec, CrawlSpec, EncounterSpec
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import move_field
from sim.terrain.movement.field import BLOCKED


def play_fight(spec: CrawlSpec, at: Pos, behind: list[Pos], party: list[Creature],
               group: tuple[CombatantSpec, ...], number: int, t: float) -> tuple[list[Event], FightSummary]:
    """Play fight ``number`` (from 0) at ``at`` and crawl time ``t``: the party placed single file
    back along ``behind`` (the route up to here), clear of the monsters' whole footprints. Returns
    its events and its summary; the party's creatures come back as the fight left them."""
    grid = spec.grid
    seed = int(np.random.SeedSequence(spec.seed).spawn(number + 2)[number + 1].generate_state(1)[0])
    taken: set[Pos] = set()
    for m in group:  # the monsters' whole footprints (a Large ogre covers four squares)
        b = monster_block(m.template, spec.path)
        taken |= block_squares(m.at, b.body.space if b is not None else 5.0, b is not None and b.is_swarm)
    places = file_positions(grid, party, list(reversed(behind)), taken)
    combatants = [dataclasses.replace(m, at=places[c.id], team="party", id=c.id) for c, m in
                  zip(party, [next(s for s in spec.party if s.id == c.id) for c in party])]
    enc_spec = EncounterSpec(name=f"{spec.name}: fight {number + 1}", path=spec.path, grid=grid, seed=seed,
                             combatants=tuple(combatants) + tuple(group), settings=dict(spec.settings))
    enc = new_encounter(enc_spec)
    for c in party:  # carry over what happened on the way (setup.CARRIED: the same fields both ways)
        e = enc.creatures[c.id]
        carry_over(c, e)
        e.prone = e.prone or bool(enc.field(e).prone[e.pos[1], e.pos[0]])  # placed where it can only crawl
        enc.place(e, e.pos)
    enc.run()
    zones.fight_over(enc)   # webs and clouds stay behind: nobody walks on entangled (docs/rules.md §8.3)
    standing = []
    for c in party:  # and back: what the fight spent stays spent for the next one
        e = enc.creatures[c.id]
        carry_over(e, c)
        if e.in_fight:
            standing.append(c.id)
    return list(enc.events), FightSummary(
        at=at, start_rounds=t, rounds=enc.round, winner=enc.winner, reason=enc.end_reason, seed=seed,
        party=tuple(c.id for c in party), monsters=tuple(m.id for m in group), party_standing=tuple(standing),
        armor_off=tuple(c.id for c in party if c.armor_off))


def file_positions(grid: CaveGrid, party: list[Creature], back: list[Pos], taken: set[Pos]) -> dict[str, Pos]:
    """Single file back along the route: the leader at the newest square, each next member on the
    next free square behind where it fits."""
    out: dict[str, Pos] = {}
    used = set(taken)
    k = 0
    for c in party:
        f = move_field(grid, travel_mover(c))
        while k < len(back) and (block_squares(back[k], c.block.body.space) & used
                                 or f.mode[back[k][1], back[k][0]] == BLOCKED):
            k += 1
        sq = back[k] if k < len(back) else back[-1]
        out[c.id] = sq
        used |= block_squares(sq, c.block.body.space)
        k += 1
    return out
