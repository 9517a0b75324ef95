"""A party travelling through the cave out of combat (RULES §2.4 equipment, §5.3, §6, §7.30, §7.33).

The party follows one route from a named point to another, in marching order. The route is the
fastest way for the party as a whole (every member must be able to take it: it is planned for the
most restrictive body in the party, with take 10 / take 20 on Escape Artist); a member who cannot
pass at all (too big, or no check it could make succeeds) is left behind where it stops, and the
timeline says where and why (:class:`~sim.crawl.records.CannotFollow`).

Time model (each number is exact for this model, and tested):

* The route is cut into *stretches* of one kind: open (everyone walks side by side), single file
  (the passage is narrower than two of the party's widest creatures), crawl, awkward, tight -- the
  kind is the worst category any member has there (:mod:`sim.crawl.route`).
* Every member times each stretch with its own categories and costs, and the party waits for the
  slowest, abreast or in single file (:mod:`sim.crawl.march`).
* Armour comes off before a crawlway, awkward space or tight squeeze, and back on when the way
  opens up again unless a fight is near; the party's light is lit, burns down and is relit from
  its gear (:mod:`sim.crawl.gear`, RULES §2.4, §9.1, §9.3.5-6).
* Monsters placed in the map start a fight when they notice the party, or the party them
  (:mod:`sim.crawl.notice`, RULES §9.3). The fight starts where either side notices the other,
  and the timeline's ``noticed`` entry says who noticed whom first, how (light, senses,
  darkvision) and from how far. The fight is played by the encounter engine from the positions
  and equipment the party has at that moment (:mod:`sim.crawl.fight`); the crawl goes on with the
  survivors if the party wins.

The crawl's output is typed records (:mod:`sim.crawl.records`): ids and numbers, no sentences;
the story says them in words (:mod:`sim.story.crawlwords`).
"""

from __future__ import annotations

import numpy as np

from sim.base.coords import Pos
from sim.base.errors import DataError
from sim.crawl.fight import play_fight
from sim.crawl.gear import PartyLight
from sim.crawl.march import stretch
from sim.crawl.notice import Sighting, trigger
from sim.crawl.records import (
    Arrive,
    CrawlResult,
    Entry,
    FellInFight,
    Fight,
    FightSummary,
    LeftBehind,
    Noticed,
    TrackPoint,
    Why,
)
from sim.crawl.route import cannot_follow, fields_unarmored, kind_at, plan_route
from sim.crawl.state import CrawlState
from sim.engine.creature import Creature
from sim.engine.events import Event
from sim.engine.setup import build_creature
from sim.rules.weapons import combat_modifier
from sim.scenario.specs import CrawlSpec


def run_crawl(spec: CrawlSpec) -> CrawlResult:
    """The crawl of ``spec``: the route, then leg by leg (each ending where a fight begins) its
    stretches and fights, until the party arrives, loses, or no one is left travelling."""
    rng = np.random.default_rng(np.random.SeedSequence(spec.seed).spawn(1)[0])
    members = [build_creature(m, spec.path) for m in spec.party]
    timeline: list[Entry] = []
    tracks: dict[str, list[TrackPoint]] = {c.id: [TrackPoint(0.0, spec.start, False)] for c in members}
    light = PartyLight()
    vision_on = bool(spec.settings.get("vision", True))
    if vision_on:  # RULES §9 (setting vision off: no light is carried or seen, the party notices nothing first)
        light.relight(members, timeline, 0.0, tracks)
    route, travellers, left_behind = _take_route(spec, members, timeline)
    s = CrawlState(grid=spec.grid, route=route, rng=rng, travellers=travellers, monsters_left=list(spec.monsters),
                   timeline=timeline, tracks=tracks, left_behind=left_behind)
    s.fields = s.fields_now()
    fights: list[FightSummary] = []
    events: list[Event] = []
    pos = 0
    while pos < len(route) - 1 and s.travellers:
        # the next square where monsters notice the party ends this leg (sim.crawl.notice)
        sighting = trigger(spec.grid, route[pos + 1:], s.monsters_left, s.travellers if vision_on else [],
                           base=spec.path, lit=light.lit(), item=light.item if light.lit() else None)
        end_at = pos + 1 + sighting.index if sighting is not None else len(route) - 1
        _leg(s, light, pos, end_at)
        pos = end_at
        if sighting is None or not s.travellers:
            break
        fight_events, summary = _meet(s, spec, pos, sighting, len(fights))
        fights.append(summary)
        events.extend(fight_events)
        if summary.winner != "party":
            s.travellers = []
            break
        light.after_fight(s.travellers, s.timeline, s.t, s.tracks)
        light.burn(s.travellers, s.timeline, s.t, s.tracks)
        s.fields = s.fields_now()
    arrived = [c.id for c in s.travellers]
    if arrived and (not fights or fights[-1].winner == "party"):
        timeline.append(Arrive(start=s.t, rounds=0.0, who=tuple(arrived), at=route[-1]))
    else:
        arrived = []
    return CrawlResult(spec=spec, route=tuple(route), timeline=tuple(timeline),
                       tracks={cid: tuple(points) for cid, points in tracks.items()}, left_behind=left_behind,
                       arrived=tuple(arrived), total_rounds=round(s.t, 6), fights=tuple(fights), events=tuple(events))


def _take_route(spec: CrawlSpec, members: list[Creature],
                timeline: list[Entry]) -> tuple[list[Pos], list[Creature], dict[str, Why]]:
    """The route, the members who travel it, and those left behind at the start (each with a
    timeline entry where it stops). A route no member can take is a refused crawl file."""
    path, travellers = plan_route(spec.grid, members, spec.start, spec.goal)
    if path is None:
        raise DataError(f"{spec.path}: no route from {spec.start_name or spec.start} to {spec.goal_name or spec.goal} "
                        "for this party")
    route = list(path.squares)
    left_behind: dict[str, Why] = {}
    aid = combat_modifier("skills", "aid_another") if len(members) > 1 else 0
    for c in members:
        if c in travellers:
            continue
        why = cannot_follow(spec.grid, c, route, aid=aid)
        left_behind[c.id] = why
        timeline.append(LeftBehind(start=0.0, rounds=0.0, who=(c.id,), at=why.stop, why=why))
    return route, travellers, left_behind


def _leg(s: CrawlState, light: PartyLight, pos: int, end_at: int) -> None:
    """The route from ``pos`` to ``end_at``, cut into stretches of one kind, the light burning."""
    route = s.route
    kinds = [kind_at(fields_unarmored(s.grid, s.travellers), s.grid, s.travellers, sq) for sq in route]
    stretches: list[tuple[str, int, int]] = []  # (kind, first index, last index)
    i = pos
    while i < end_at:
        k = kinds[i + 1]
        j = i + 1
        while j < end_at and kinds[j + 1] == k:
            j += 1
        stretches.append((k, i, j))
        i = j
    for kind, a, b in stretches:
        stretch(s, kind, a, b)
        light.burn(s.travellers, s.timeline, s.t, s.tracks)
        if not s.travellers:
            break


def _meet(s: CrawlState, spec: CrawlSpec, pos: int, sighting: Sighting, number: int) -> tuple[list[Event], FightSummary]:
    """The monsters noticed at ``route[pos]`` (or noticing): the ``noticed`` entry, the fight, and
    the party after it (who fell is left behind; armour taken off in the fight stays off)."""
    at = s.route[pos]
    who = [m.monster for m in sighting.monsters_noticed] or [p.member for p in sighting.party_noticed]
    s.timeline.append(Noticed(start=s.t, rounds=0.0, who=tuple(dict.fromkeys(who)), at=at, first=sighting.first,
                              monsters_noticed=sighting.monsters_noticed, party_noticed=sighting.party_noticed))
    events, summary = play_fight(spec, at, s.route[:pos + 1], s.travellers, sighting.group, number, s.t)
    s.timeline.append(Fight(start=s.t, rounds=float(summary.rounds), who=summary.party, at=at, summary=summary))
    s.t += float(summary.rounds)
    joined = {g.id for g in sighting.group}
    s.monsters_left = [m for m in s.monsters_left if m.id not in joined]
    survivors = set(summary.party_standing)
    for c in s.travellers:
        if c.id not in survivors:
            s.left_behind[c.id] = FellInFight()
    s.travellers = [c for c in s.travellers if c.id in survivors]
    # armor taken off in the fight (before a crawlway there, RULES §2.4) is off for the crawl too
    s.armor_off |= {c.id for c in s.travellers if c.armor_off}
    return events, summary
