"""AI blunders counted in a fight (issue 31 item 2; definitions in docs/rules.md §13).

Six kinds, each counted per side (the team of the creature that blundered):

``guess_empty``
    a guessed attack (RULES §9.2) at a square its side knows to be empty: a square a member of
    the side stood on or walked through, or guessed at and found empty, since the last turn of
    any foe (no foe has moved since; the square cannot hold one).
``idle_in_reach``
    a turn of a creature able to act that began and ended with the same foe in its reach (a foe
    its side perceives, and a melee attack in hand that the rules allow on it and that can hurt it:
    not a weapon against a weapon-immune swarm), in which it made
    no attack and took no better action (a spell, an item, a grapple, a charge, a withdraw, a
    heal, a check to break free). A creature that spent its turn moving up to a foe had no attack
    to make.
``needless_aoo``
    an attack of opportunity provoked by moving where a 5-ft step or a withdraw would have done
    the same: the turn's only movement was one 5-ft walk (a 5-ft step makes it without
    provoking), or a move that provoked only for leaving its first square and was followed by
    nothing else in the turn (a withdraw makes it without provoking there).
``friendly_fire``
    damage dealt to a creature of the dealer's own side still in the fight (a splash, an area
    spell, a blow, a swarm); a swarm crawling over its side's dying is not counted, nor the
    splash of a flask that missed its aim and scattered (the dice, not the choice) [PD].
``wasted_area``
    an area spell or a splash weapon that catches no foe: no foe of the caster in its squares (nor
    hit directly). Only spells cast at foes count (:data:`AREA_ATTACKS`): grease and web laid on
    empty squares as a barrier, darkness, light and bless do not; nor does a thrown flask that
    missed its aim and scattered (the dice, not the choice).
``own_hazard``
    a step of a creature's own move into a lasting zone (grease, web, stinking cloud) cast by its
    own side.

A confused creature acts by its confusion roll, not by choice: nothing it does is counted.

Most are read from the fight's events (:mod:`sim.engine.events`); ``idle_in_reach``,
``needless_aoo`` (is the creature free to step or withdraw) and ``own_hazard`` need the world as the turn ends or begins, so :func:`play_counted` plays the fight
step by step (:meth:`Encounter.advance`, exactly what :meth:`Encounter.run` does: counting never
changes play) and looks at the world between turns, using the engine's own rules (who threatens
whom, who perceives whom) and nothing that rolls a die.
"""

from __future__ import annotations

from collections import Counter

from sim.engine import attacks
from sim.engine.actions import Impossible
from sim.terrain.vision import LOCATES

KINDS = ("guess_empty", "idle_in_reach", "needless_aoo", "friendly_fire", "wasted_area", "own_hazard")

#: Kinds the AI can always avoid (the issue asks for zero of these on the calibration set).
AVOIDABLE = KINDS[:4]

#: The area spells cast at foes (sim/data/spells.toml): one that catches none is wasted. Grease
#: and web may be laid on empty squares as barriers, darkness and light change the sight, bless
#: is for allies: none of these is counted.
AREA_ATTACKS = frozenset({"sleep", "burning-hands", "fireball", "lightning-bolt", "glitterdust", "stinking-cloud",
                          "faerie-fire"})

#: Movements that are a creature's own choice of where to go (not pushed, swallowed, ...).
OWN_MOVES = frozenset({"move", "double_move", "five_foot_step", "charge", "run", "withdraw", "full_round"})

#: An actor's events that are not an attack or a better action (for ``idle_in_reach``).
_PASSIVE = frozenset({"turn_start", "turn_end", "decided", "refused", "swarm_shape"})


def play_counted(enc) -> Counter:
    """Play ``enc`` to its end as :meth:`run` does and return its blunders: ``(kind, team) -> n``."""
    if not enc.events:
        enc.start()
    tally: Counter = Counter()
    zones_then: list = []
    reach_then: set[str] = set()
    while True:
        turn = enc.turn
        actor, mark = (turn.actor, enc.turn_mark) if turn is not None else (None, 0)
        going = enc.advance()
        if turn is None and enc.turn is not None:
            zones_then = [(z.owner, frozenset(map(tuple, z.squares))) for z in enc.magic.zones]
            c = enc.creatures[enc.turn.actor]
            reach_then = in_reach(enc, c) if _able(c) else set()
        elif turn is not None and enc.turn is None:
            _turn_ended(enc, actor, enc.events[mark:], zones_then, reach_then, tally)
        if not going:
            break
    _from_events(enc, tally)
    return tally


def _turn_ended(enc, actor: str, events: list, zones_then: list, reach_then: set[str], tally: Counter) -> None:
    """The blunders of one turn that need the world: idle in reach, a step into its side's zone."""
    c = enc.creatures.get(actor)
    if c is None or "confused" in c.conditions:
        return   # a confused creature acts by its confusion roll, not by choice (bestiary, umber hulk)
    teams = {cid: k.team for cid, k in enc.creatures.items()}
    for e in events:
        if e.type == "moved" and e.actor == actor and e.action in OWN_MOVES and zones_then:
            ours = [sq for owner, sq in zones_then if teams.get(owner) == c.team]
            if any(tuple(st["at"]) in sq for st in e.path for sq in ours):
                tally["own_hazard", c.team] += 1   # one a move, however many of its squares
    if not (c.nauseated or c.single_action):   # free to take a 5-ft step or a withdraw (§5.2, §5.5)
        _needless_aoo(actor, events, c.team, tally)
    if reach_then and not enc.finished and _able(c) and not _acted(actor, events) and in_reach(enc, c) & reach_then:
        tally["idle_in_reach", c.team] += 1


def _acted(actor: str, events: list) -> bool:
    """Whether the turn held an attack or a better action of ``actor`` (anything but plain movement)."""
    for e in events:
        if getattr(e, "source", None) == actor and e.type in ("healed", "damage"):
            return True
        if getattr(e, "actor", None) != actor or e.type in _PASSIVE:
            continue
        if e.type == "moved" and e.action in ("move", "double_move", "five_foot_step", "run"):
            continue
        return True
    return False


def _able(c) -> bool:
    """Able to take a standard action and attack with it (not disabled, grappling, nauseated)."""
    return c.in_fight and not c.single_action and not c.grappling and not c.nauseated


def in_reach(enc, c) -> set[str]:
    """The foes ``c`` could attack where it stands with the melee attack in its hand: in its
    reach, perceived by its side (RULES §9.2), and allowed by the rules (:func:`plan_attack`)."""
    att = attacks.melee_in_hand(c)
    if att is None:
        return set()
    out = set()
    for f in enc.creatures.values():
        if f.team == c.team or not f.in_fight or not attacks.threatens_target(enc, c, f):
            continue
        if f.block.swarm is not None and f.block.swarm.weapon_damage == "immune" and not att.extra_damage:
            continue   # a weapon cannot hurt this swarm (RULES §4.5): no usable attack on it
        if enc.side_perceives(c.team, f) >= LOCATES and not isinstance(attacks.plan_attack(enc, c, att, f), Impossible):
            out.add(f.id)
    return out


# =================================================================================================
# Read from the events alone
# =================================================================================================

def _from_events(enc, tally: Counter) -> None:
    """Guesses at known-empty squares, needless attacks of opportunity, friendly fire and wasted
    areas, read from the fight's events (positions followed through them)."""
    team: dict[str, str] = {}
    pos: dict[str, set] = {}
    known: dict[str, set] = {}       # team -> squares known empty since a foe last acted
    aimed = True                     # the last flask thrown landed where it was aimed
    confused: set[str] = set()       # creatures acting by their confusion roll, not by choice
    for e in enc.events:
        t = e.type
        if t == "encounter_start":
            for c in e.combatants:
                team[c["id"]] = c["team"]
                pos[c["id"]] = {tuple(s) for s in c["squares"]}
        elif t == "split":
            team[e.new] = e.creature["team"]
            pos[e.new] = {tuple(s) for s in e.creature["squares"]}
        elif t == "turn_start":
            for side in known:
                if side != team.get(e.actor):
                    known[side] = set()
        elif t in ("moved", "swarm_shape"):
            side = team.get(e.actor, "")
            walked = {tuple(st["at"]) for st in getattr(e, "path", ())} | pos.get(e.actor, set())
            pos[e.actor] = {tuple(s) for s in e.squares}
            known.setdefault(side, set()).update(walked | pos[e.actor])
        elif t == "attack" and e.guessed and e.at is not None:
            side = team.get(e.actor, "")
            mine = set().union(*(pos[i] for i in pos if team.get(i) == side and i != e.actor), set())
            if tuple(e.at) in known.get(side, set()) | mine:
                tally["guess_empty", side] += 1
            if not e.target:
                known.setdefault(side, set()).add(tuple(e.at))
        elif t == "condition" and e.condition == "confused":
            (confused.add if e.active else confused.discard)(e.target)
        elif (t == "damage" and e.source and e.source != e.target and team.get(e.source) == team.get(e.target)
              and e.hp_before >= 0 and (e.cause != "splash" or aimed) and e.source not in confused):
            tally["friendly_fire", team[e.source]] += 1
        elif t == "spell" and e.squares and e.spell in AREA_ATTACKS:
            if not _catches_foe(team, pos, e.actor, {tuple(s) for s in e.squares}, e.targets):
                tally["wasted_area", team.get(e.actor, "")] += 1
        elif t == "splash":
            aimed = e.hit
            direct = [e.direct] if e.direct else []
            if e.hit and not _catches_foe(team, pos, e.actor, {tuple(s) for s in e.squares}, direct):
                tally["wasted_area", team.get(e.actor, "")] += 1


def _catches_foe(team: dict, pos: dict, actor: str, squares: set, targets) -> bool:
    side = team.get(actor)
    ids = [x if isinstance(x, str) else x.get("id", "") for x in targets]
    if any(team.get(i) not in (None, side) for i in ids):
        return True
    return any(team.get(i) != side and sq & squares for i, sq in pos.items() if i in team)


def _needless_aoo(actor: str, events: list, side: str, tally: Counter) -> None:
    """``needless_aoo`` for one turn of ``actor`` (its events, turn_start to turn_end)."""
    moves = [e for e in events if e.type == "moved" and e.actor == actor]
    if not moves or any(m.action not in ("move", "double_move") for m in moves):
        return
    steps = [st for m in moves for st in m.path]
    if not steps or any(st.get("kind") == "stand" for st in steps):
        return
    aoo_from_moving: list[int] = []   # for each, the steps taken before it
    taken = 0
    for k, e in enumerate(events):
        if e.type == "moved" and e.actor == actor:
            taken += len(e.path)
        elif e.type == "attack" and e.kind == "opportunity" and e.target == actor:
            nxt = next((x for x in events[k + 1:] if getattr(x, "actor", None) == actor), None)
            if nxt is not None and nxt.type == "moved":
                aoo_from_moving.append(taken)
    if not aoo_from_moving:
        return
    others = [e for e in events if getattr(e, "actor", None) == actor and e.type not in _PASSIVE | {"moved"}]
    one_step = len(steps) == 1 and steps[0].get("kind") == "walk" and int(steps[0].get("feet", 0)) == 5
    from_start_only = all(n == 0 for n in aoo_from_moving) and not others
    if one_step or from_start_only:
        tally["needless_aoo", side] += len(aoo_from_moving)


def columns(teams: list[str]) -> list[str]:
    """The batch record's blunder columns: ``blunder.<kind>.<team>``."""
    return [f"blunder.{k}.{t}" for t in teams for k in KINDS]


def record_fields(tally: Counter, teams: list[str]) -> dict[str, int]:
    """The blunder columns of one fight's record (zeros included)."""
    return {f"blunder.{k}.{t}": int(tally.get((k, t), 0)) for t in teams for k in KINDS}
