"""What the party carries on the way: its armour, off before tight places and back on after them
(RULES §2.4), and its light (RULES §9.1, §9.3.5-6).

* Before a crawlway, awkward space or tight squeeze, each member in medium or heavy armor takes it
  off (1 minute; half-plate and full plate 1d4+1 minutes; halved when an ally helps), unstraps its
  shield with it, and drags them and its pack behind. When the way opens up again it puts the
  armor back on (SRD donning times: 1 or 4 minutes, halved with help) -- unless a fight is near,
  in which case it keeps it off.
* At the start the brightest light anyone carries is lit and borne by the first member with a
  hand free for it (a torch by the halfling, not by the fighter with sword and shield); the crawl
  burns it down (a torch 1 hour, a lantern or sunrod 6) and lights the next one from the party's
  gear; a light dropped in a fight is picked up after it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.base.coords import Pos
from sim.crawl.records import (
    ArmorOff,
    ArmorOn,
    Entry,
    FightNear,
    KeepArmorOff,
    Light,
    LightOut,
    TrackPoint,
)
from sim.crawl.route import constricted_for, needs_armor_off
from sim.crawl.state import CrawlState
from sim.engine.creature import Creature
from sim.rules.armor import removal_minutes
from sim.rules.dice import Dice
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import CombatantSpec
from sim.terrain.geometry import distance_squares
from sim.terrain.grid import CaveGrid
from sim.terrain.vision.scene import burn_minutes, party_light_bearer

FIGHT_NEAR_SQUARES = 15  # a monster this close (75 ft): keep the armor off


def _rounds(minutes: float) -> float:
    return minutes * combat_modifier("time", "rounds_per_minute")


def _don_minutes(text: str | None, rng: np.random.Generator) -> float:
    """ "1 minute", "4 minutes" -> minutes (donning; removal is sim.rules.armor's)."""
    if not text:
        return 0.0
    n = text.split()[0]
    return float(Dice.parse(n).roll(rng)) if "d" in n else float(n)


def fight_near(grid: CaveGrid, at: Pos, monsters: list[CombatantSpec]) -> bool:
    """A monster not met yet within :data:`FIGHT_NEAR_SQUARES` of ``at`` (5-10-5, §6.2)."""
    return any(distance_squares(m.at, at) <= FIGHT_NEAR_SQUARES for m in monsters)


def take_off(state: CrawlState, squares: list[Pos]) -> None:
    """Armor off before the tight places (RULES §2.4, §7.33), by each traveller who must crawl or
    squeeze there in it; an ally with nothing of its own to take off helps (the time halves): two
    creatures busy with their own armor help nobody. The party waits for the slowest."""
    need = [c for c in state.travellers if needs_armor_off(c) and c.id not in state.armor_off
            and constricted_for(c, state.grid, squares[1:])]
    if not need:
        return
    helped = len(state.travellers) > len(need)
    times = {}
    for c in need:
        mins = removal_minutes(c.base_block.armor, state.rng, helped=helped)
        times[c.id] = _rounds(mins)
        c.take_armor_off(drop_shield=True)
        state.armor_off.add(c.id)
        state.timeline.append(ArmorOff(start=state.t, rounds=times[c.id], who=(c.id,), at=squares[0],
                                       armor=c.base_block.armor.key, helped=helped, minutes=mins))
    state.t += max(times.values())
    state.fields = state.fields_now()


def dress(state: CrawlState, at: Pos) -> None:
    """Armor back on where the way has opened (RULES §2.4 donning times, halved when an ally with
    no armor of its own to put on helps), unless a fight is near. Moves ``state``'s clock on."""
    near = fight_near(state.grid, at, state.monsters_left)
    dressing = [c for c in state.travellers if c.id in state.armor_off]
    helped = len(state.travellers) > len(dressing)
    don_times = []
    for c in dressing:
        if near:
            state.timeline.append(KeepArmorOff(start=state.t, rounds=0.0, who=(c.id,), at=at, why=FightNear()))
            continue
        mins = _don_minutes(c.base_block.armor.don, state.rng) / (2 if helped else 1)
        c.put_armor_on()
        state.armor_off.discard(c.id)
        state.timeline.append(ArmorOn(start=state.t, rounds=_rounds(mins), who=(c.id,), at=at,
                                      armor=c.base_block.armor.key, helped=helped, minutes=mins))
        don_times.append(_rounds(mins))
    if don_times:
        state.t += max(don_times)  # the party waits while they dress
        state.fields = state.fields_now()


@dataclass(slots=True)
class PartyLight:
    """The light the party carries: who, which item, and when it burns out (in rounds)."""

    bearer: Creature | None = None
    item: str | None = None
    out_at: float = math.inf

    def lit(self) -> bool:
        return self.bearer is not None and self.item is not None

    def _hold(self, c: Creature, item: str) -> None:
        if item == "torch":
            c.torch_lit = True
        else:
            c.light = item

    def _drop(self, c: Creature) -> None:
        if self.item == "torch":
            c.torch_lit = False
            if c.wielding == "torch":
                c.wielding = None
        elif c.light == self.item:
            c.light = None

    def relight(self, party: list[Creature], timeline: list[Entry], t: float,
                tracks: dict[str, list[TrackPoint]]) -> None:
        """Light the brightest light the party has left (RULES §9.3.5)."""
        pick = party_light_bearer([c for c in party if c.in_fight])
        if pick is None:
            self.bearer = self.item = None
            return
        c, item = pick
        self.bearer, self.item = c, item
        self._hold(c, item)
        minutes = burn_minutes(item)
        self.out_at = t + _rounds(minutes)
        timeline.append(Light(start=t, rounds=0.0, who=(c.id,), at=tracks[c.id][-1].at, item=item, carried_by=c.id,
                              burns_minutes=None if math.isinf(minutes) else minutes))

    def burn(self, party: list[Creature], timeline: list[Entry], t: float,
             tracks: dict[str, list[TrackPoint]]) -> None:
        """Burn time (RULES §9.3.6): each light that has burnt out by ``t`` is used up, and the
        next one is lit from the party's gear at that moment."""
        while self.lit() and t >= self.out_at:
            c, item, when = self.bearer, self.item, self.out_at
            self._drop(c)
            c.items[item] = max(0, c.items.get(item, 0) - 1)
            timeline.append(LightOut(start=when, rounds=0.0, who=(c.id,), at=tracks[c.id][-1].at, item=item))
            self.relight(party, timeline, when, tracks)

    def after_fight(self, party: list[Creature], timeline: list[Entry], t: float,
                    tracks: dict[str, list[TrackPoint]]) -> None:
        """A light dropped in the fight (or by a bearer who fell) is picked up, still burning."""
        if not self.lit():
            return
        holds = self.bearer in party and ((self.item == "torch" and self.bearer.torch_lit)
                                          or self.bearer.light == self.item)
        if holds:
            return
        if self.bearer not in party:
            pick = [c for c in party if c.in_fight and c.block.shield is None] or [c for c in party if c.in_fight]
            if not pick:
                return
            self.bearer = pick[0]
            self.bearer.items[self.item] = self.bearer.items.get(self.item, 0) + 1
        self._hold(self.bearer, self.item)
        timeline.append(Light(start=t, rounds=0.0, who=(self.bearer.id,), at=tracks[self.bearer.id][-1].at,
                              item=self.item, carried_by=self.bearer.id, picked_up=True))
