"""Swallow whole and engulf (SRD Monsters: purple worm, gelatinous cube; docs/rules.md §11.13).

* **Swallow whole** (``kind = "swallow_whole"``): a creature that begins its turn holding a foe
  (its improved grab) no larger than ``max_size`` and smaller than itself may swallow it with a
  won grapple check (a standard action), if the interior has room (``holds``: how many of each
  size it holds). The swallowed creature is grappled, the swallower is not (it bites again). At
  the start of each of the swallower's turns everyone inside takes its ``damage`` (2d8+12
  crushing and 8 acid). Inside, a creature may cut at the gizzard with a light slashing or
  piercing weapon (an attack at -4, grappled, against 10 + half the swallower's natural armor;
  ``cut`` damage opens a way out), or escape the grapple (back in the mouth: held again).
* **Engulf** (``kind = "engulf"``): a standard action: the cube moves in a straight line up to its
  speed over creatures no larger than ``max_size``; each either makes an attack of opportunity
  (no save) or a Reflex save (success: pushed aside); engulfed ones are grappled inside, take the
  cube's ``damage`` (1d6 acid) and meet its paralysis then and at the start of each of its turns.

State: ``World.swallowed.inside`` (creature -> host), ``World.swallowed.gizzard`` (creature -> damage cut so far);
the creature inside keeps ``grapple_with = [host]`` (one way: the host is not grappling) and
stands on the host's middle square (it moves with it, :meth:`World.place`). Nobody outside
perceives it as a foe or ally (:meth:`World.enemies`).
"""

from __future__ import annotations

from fractions import Fraction

from sim.base.coords import inner_square
from sim.engine import attacks
from sim.engine.actions import (
    CutOut,
    Delay,
    Draw,
    EngulfMove,
    Escape,
    Impossible,
    Swallow,
    Turn,
)
from sim.engine.afflictions import paralyse
from sim.engine.checks import d20, hits, label, roll_dice, roll_save
from sim.engine.creature import Creature
from sim.engine.damage import DamagePart, clear_status, deal_damage, set_status
from sim.engine.events import Attack as AttackEvent
from sim.engine.events import CameOut, Condition, Engulfed, GizzardCut, Moved, Swallowed
from sim.engine.grapple import (
    cannot_be_grappled,
    escape_artist_parts,
    grapple_parts,
    hold,
    light_in_grapple,
    opposed,
    release,
)
from sim.engine.grapple import do_escape as grapple_escape
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Part
from sim.engine.parts import Swallowed as Inside
from sim.engine.world import World
from sim.rules.categories import Category
from sim.rules.dice import Dice
from sim.rules.sizes import Size
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement.field import BLOCKED

#: What a creature inside may do (docs/rules.md §11.13): cut its way out, escape, draw a weapon, wait.
ALLOWED_INSIDE = (CutOut, Escape, Draw, Delay)


def rider_of(c: Creature, kind: str):
    return next((r for r in c.block.riders if r.kind == kind), None)


def host_of(w: World, c: Creature) -> Creature | None:
    hid = w.swallowed.inside.get(c.id)
    return w.creatures.get(hid) if hid else None


def contents(w: World, host: Creature) -> list[Creature]:
    return [w.creatures[v] for v, h in w.swallowed.inside.items() if h == host.id]


def how_inside(w: World, c: Creature) -> str:
    """"swallowed" or "engulfed" (by what its host does)."""
    host = host_of(w, c)
    return "swallowed" if host is not None and rider_of(host, "swallow_whole") else "engulfed"


def refusal(w: World, c: Creature, action) -> Impossible | None:
    """A creature inside may only cut its way out (swallowed), escape, draw a weapon or wait."""
    host = host_of(w, c)
    if host is None or isinstance(action, ALLOWED_INSIDE):
        return None
    how = how_inside(w, c)
    out = "cut its way out or escape" if how == "swallowed" else "escape"
    return Impossible(f"{c.name} is {how} by {host.name}: it can only {out} (docs/rules.md §11.13)")


def interior_ac(host: Creature) -> int:
    """The interior's AC: 10 + half the natural armor, no size or Dex (SRD Swallow Whole)."""
    return 10 + int(host.block.source.natural_armor) // 2


def capacity(r, size: Size) -> int:
    """How many creatures of ``size`` the interior holds (``r.holds``), 0 for a size it cannot
    take: the smallest size listed counts for every smaller one too (SRD purple worm: "2 Large,
    8 Medium, 32 Small, 128 Tiny, or 512 Diminutive or smaller opponents").

    >>> from types import SimpleNamespace as NS
    >>> worm = NS(holds=(("large", 2), ("medium", 8), ("small", 32), ("tiny", 128), ("diminutive", 512)))
    >>> [capacity(worm, s) for s in (Size.HUGE, Size.LARGE, Size.MEDIUM, Size.SMALL, Size.TINY, Size.FINE)]
    [0, 2, 8, 32, 128, 512]
    """
    holds = {Size.parse(k): int(n) for k, n in r.holds}
    if size in holds:
        return holds[size]
    smallest = min(holds, default=None)
    return holds[smallest] if smallest is not None and size < smallest else 0


def room_for(w: World, host: Creature, r, t: Creature) -> bool:
    """Whether ``t`` fits beside what is inside already: each creature of a size the interior
    holds n of takes 1/n of it (a purple worm: 2 Large, 8 Medium, 32 Small, 128 Tiny, 512
    Diminutive or smaller)."""
    n = capacity(r, t.size)
    if n <= 0:
        return False
    used = sum((Fraction(1, m) for o in contents(w, host) if (m := capacity(r, o.size)) > 0), Fraction(0))
    return used + Fraction(1, n) <= 1


def _put_inside(w: World, host: Creature, t: Creature, how: str) -> None:
    for oid in list(t.grapple_with):
        release(w, t, w.creatures[oid], how)
    w.swallowed.inside[t.id] = host.id
    t.grapple_with = [host.id]
    t.set_status("grappled")
    w.emit(Condition(round=w.round, target=t.id, condition="grappled", active=True, cause=how,
                     detail={"with": (host.id,)}))
    set_status(w, t, how, host.id)
    sq = inner_square(host.squares)
    t.pos, t.squares, t.prone = sq, [sq], False
    w.emit(Moved(round=w.round, actor=t.id, path=({"at": list(sq), "category": "CLEAR", "kind": how, "feet": 0},),
                 squares=(sq,), prone=False, action=how))


def _exit_square(w: World, c: Creature, host: Creature, avoid=frozenset()):
    """Where ``c`` comes out: the nearest square to the host's middle where its body fits (its
    movement field) and no one else stands, outside a living host (a dead one's squares may be
    ended in, RULES §6.4), then the nearest to where it stood (pushed aside: its choice); not in
    ``avoid``; None when there is none within 30 ft."""
    f = w.field(c)
    taken = {sq for o in w.creatures.values() if o is not c and o.alive and not o.is_swarm
             and o.id not in w.swallowed.inside and (o is not host or host.in_fight) for sq in o.squares} | set(avoid)
    mid = inner_square(host.squares)
    k = c.k
    best = None
    for dy in range(-8 - k, 9 + host.k):
        for dx in range(-8 - k, 9 + host.k):
            at = (host.pos[0] + dx, host.pos[1] + dy)
            if not w.grid.in_bounds(at) or f.mode[at[1], at[0]] == BLOCKED:
                continue
            body = f.occupied(at)
            if any(q in taken for q in body):
                continue
            d = footprint_distance_ft(body, [mid])
            if d > 30:
                continue
            near = (at[0] - c.pos[0]) ** 2 + (at[1] - c.pos[1]) ** 2
            key = (d, footprint_distance_ft(body, c.squares), near, at[1], at[0])   # then nearest where it was
            if best is None or key < best[0]:
                best = (key, at)
    return None if best is None else best[1]


def come_out(w: World, c: Creature, host: Creature, cause: str) -> None:
    """``c`` leaves ``host``: it stands where it fits nearest the host's middle; escaped from a
    swallower it is back in the mouth (held again, SRD), unless the swallower holds another."""
    how = how_inside(w, c)
    w.swallowed.inside.pop(c.id, None)
    w.swallowed.gizzard.pop(c.id, None)
    release(w, c, host, cause)
    clear_status(w, c, how, cause)
    at = _exit_square(w, c, host)
    if at is not None:
        w.place(c, at)
    w.emit(CameOut(round=w.round, actor=c.id, target=host.id, cause=cause, squares=tuple(c.squares)))
    cat = Category(int(w.field(c).category[c.pos[1], c.pos[0]])).name
    w.emit(Moved(round=w.round, actor=c.id, path=({"at": list(c.pos), "category": cat, "kind": "came_out", "feet": 0},),
                 squares=tuple(c.squares), prone=c.prone, action="came_out"))
    if cause == "escaped" and how == "swallowed" and host.in_fight and not host.grappling and c.in_fight:
        hold(w, host, c, "swallow_escape")


def tidy(w: World) -> None:
    """After every action and turn: what a dead host held comes out (docs/rules.md §11.13)."""
    for vid, hid in list(w.swallowed.inside.items()):
        host = w.creatures[hid]
        if not host.alive and vid in w.swallowed.inside:
            come_out(w, w.creatures[vid], host, "host_dead")


def end_all(w: World) -> None:
    """The fight is over: the living come out (a crawl's next fight starts with them outside)."""
    for vid, hid in list(w.swallowed.inside.items()):
        v = w.creatures[vid]
        if v.alive:
            come_out(w, v, w.creatures[hid], "fight_over")


# -- each round inside ----------------------------------------------------------------------------------------

def _parts(w: World, host: Creature, r) -> list[DamagePart]:
    """The rider's damage: "2d8+12" (crushing: bludgeoning), "8 acid", "1d6 acid"."""
    parts = []
    for text in r.damage:
        words = text.split()
        kind = words[1] if len(words) > 1 else "bludgeoning"
        amount = max(0, roll_dice(w, Dice.parse(words[0]), host, f"{r.kind} damage ({kind})"))
        parts.append(DamagePart(amount, kind, "weapon" if kind == "bludgeoning" else "energy"))
    return parts


def _engulf_harm(w: World, host: Creature, v: Creature, r) -> None:
    """Inside a cube: its acid, then its paralysis (Fort DC 20, 3d6 rounds)."""
    deal_damage(w, v, _parts(w, host, r), source=host, cause="engulfed")
    par = rider_of(host, "paralysis")
    if par is not None and v.alive:
        paralyse(w, host, v, par)


def start_of_turn(w: World, host: Creature) -> None:
    """At the start of the host's turn everyone alive inside takes its damage (the gizzard's
    2d8+12 crushing and 8 acid; the cube's acid and paralysis)."""
    if not host.in_fight:
        return
    for v in contents(w, host):
        if not v.alive:
            continue
        sw = rider_of(host, "swallow_whole")
        if sw is not None:
            deal_damage(w, v, _parts(w, host, sw), source=host, cause="swallowed")
        else:
            en = rider_of(host, "engulf")
            if en is not None:
                _engulf_harm(w, host, v, en)


# -- swallowing -----------------------------------------------------------------------------------------------

def held_since_turn_start(w: World, c: Creature, t: Creature) -> bool:
    """``c`` holds ``t``, and did before this turn began (no hold of the two made this turn)."""
    if t.id not in c.grapple_with:
        return False
    return not any(e.type == "condition" and e.condition == "grappled" and e.active and e.target == t.id
                   and c.id in e.detail.get("with", ()) and e.cause in ("improved_grab", "grapple", "swallow_escape")
                   for e in w.events[w.turn_mark:])


def swallow_check(w: World, c: Creature, a: Swallow) -> Impossible | None:
    """Why ``c`` cannot swallow ``a.target`` now, before any die, or None: the registered check,
    asked by the turn loop before :func:`do_swallow` and by the AI (:func:`sim.engine.registry.check`)."""
    r = rider_of(c, "swallow_whole")
    if r is None:
        return Impossible(f"{c.name} cannot swallow whole")
    t = w.creatures.get(a.target)
    if t is None or t is c:
        return Impossible("no such creature to swallow")
    no = cannot_be_grappled(t)
    if no:
        return Impossible(no)
    if not held_since_turn_start(w, c, t):
        return Impossible(f"{c.name} must begin its turn holding {t.name} (its improved grab) to swallow it (§11.13)")
    limit = Size.parse(r.max_size) if r.max_size else Size(int(c.size) - 1)
    if t.size > limit or t.size >= c.size:
        return Impossible(f"{t.name} ({t.size.key}) is too large for {c.name} to swallow (at most {limit.key})")
    if not room_for(w, c, r, t):
        return Impossible(f"no room inside {c.name} for {t.name} ({t.size.key}) (§11.13)")
    return None


def do_swallow(w: World, c: Creature, t: Turn, a: Swallow):
    """Swallow a held foe (its check, :func:`swallow_check`, passed: the turn loop asked it)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    target = w.creatures[a.target]
    t.spend("standard")
    if opposed(w, c, target, "swallow", "grapple", grapple_parts(w, c), "grapple", grapple_parts(w, target)):
        release(w, c, target, "swallowed")
        _put_inside(w, c, target, "swallowed")
        w.emit(Swallowed(round=w.round, actor=c.id, target=target.id, squares=tuple(target.squares)))
    return True


# -- from inside ----------------------------------------------------------------------------------------------

def cutting(c: Creature, att) -> bool:
    """A light slashing or piercing weapon (natural ones too), melee (SRD Swallow Whole)."""
    return (att is not None and att.mode == "melee" and light_in_grapple(c, att)
            and bool({"slashing", "piercing"} & set(att.damage_types)))


def do_cut(w: World, c: Creature, t: Turn, a: CutOut):
    """An attack at -4 (grappled) on the gizzard's AC; its damage is the gizzard's, not the host's
    hit points (§11.13 [PD]); no critical hits, no sneak attack. Enough cut: it is out."""
    host = host_of(w, c)
    if host is None:
        return Impossible(f"{c.name} is not inside a creature")
    r = rider_of(host, "swallow_whole")
    if r is None or not r.cut_hp:
        return Impossible(f"{c.name} cannot cut its way out of {host.name}: it can only escape (§11.13)")
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    att = c.attack_named(a.attack) if a.attack else attacks.melee_in_hand(c)
    if att is None or not cutting(c, att):
        return Impossible(f"{c.name} needs a light slashing or piercing weapon to cut its way out (§11.13)")
    if att.kind == "weapon" and att.name != c.wielding:
        return Impossible(f"{c.name} must draw {att.name} first")
    mods = attacks.attacker_modifiers(w, c, att, kind="melee")
    if isinstance(mods, Impossible):
        return mods
    mods["grappling"] = combat_modifier("attack", "grappling")
    t.spend("standard")
    ac = interior_ac(host)
    bonus = sum(mods.values())
    roll = d20(w, c, f"{att.name} vs the gizzard of {label(w, host)}", bonus)
    hit = hits(roll, roll + bonus, ac)
    w.emit(AttackEvent(round=w.round, actor=c.id, target=host.id, weapon=att.name, roll=roll, modifiers=dict(mods),
                       total=roll + bonus, ac=ac, ac_modifiers={"base": 10, "half_natural_armor": ac - 10},
                       hit=hit, critical=False, kind="melee"))
    if hit:
        amount = max(1, roll_dice(w, att.damage.plus(c.str_mod_delta()), c, f"{att.name} damage to the gizzard"))
        w.swallowed.gizzard[c.id] = w.swallowed.gizzard.get(c.id, 0) + amount
        w.emit(GizzardCut(round=w.round, actor=c.id, target=host.id, amount=amount, cut=w.swallowed.gizzard[c.id],
                          needed=int(r.cut_hp)))
        if w.swallowed.gizzard[c.id] >= r.cut_hp:
            come_out(w, c, host, "cut")
    return True


def do_escape(w: World, c: Creature, t: Turn, a: Escape):
    """Escape: from inside, an opposed check (grapple or Escape Artist) against the host's grapple
    check; won, it is out (§11.13). Otherwise the grapple's escape (§11.6)."""
    host = host_of(w, c)
    if host is None:
        return grapple_escape(w, c, t, a)
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    t.spend("standard")
    mine = escape_artist_parts(c) if a.artist else grapple_parts(w, c)
    if opposed(w, c, host, "escape", "escape_artist" if a.artist else "grapple", mine, "grapple",
               grapple_parts(w, host)):
        come_out(w, c, host, "escaped")
    return True


# -- engulfing ------------------------------------------------------------------------------------------------

def engulfable(w: World, cube: Creature, r, o: Creature) -> bool:
    limit = Size.parse(r.max_size) if r.max_size else Size(int(cube.size) - 1)
    return (o is not cube and o.alive and o.team != cube.team and o.id not in w.swallowed.inside and not o.is_swarm
            and o.size <= limit)


def engulf_path(w: World, cube: Creature, to) -> list | str:
    """The reference squares of a straight move to ``to`` (5-10-5 diagonals, up to the cube's
    speed), each one its body can stand on; or why not."""
    f = w.field(cube)
    x, y = cube.pos
    budget, diag, path = int(cube.speed_ft_value()), 0, []
    while (x, y) != tuple(to):
        dx = (to[0] > x) - (to[0] < x)
        dy = (to[1] > y) - (to[1] < y)
        cost = 5
        if dx and dy:
            diag += 1
            cost = 10 if diag % 2 == 0 else 5
        budget -= cost
        x, y = x + dx, y + dy
        if budget < 0:
            return f"{tuple(to)} is beyond {cube.name}'s speed ({cube.speed_ft_value()} ft.) in a straight line"
        if not w.grid.in_bounds((x, y)) or f.mode[y, x] == BLOCKED:
            return f"{cube.name}'s body does not fit at {(x, y)}"
        path.append((x, y))
    if not path:
        return "the engulf must move"
    return path


def sweep(w: World, cube: Creature, at, trail) -> set:
    """The squares the cube's body fills with its reference square at ``at``: its footprint; [PD]
    squeezed into a line (a Huge cube in a 10-ft passage), the line and the open squares beside
    it across the passage, up to its width (it fills the passage, docs/rules.md §11.13)."""
    f = w.field(cube)
    line = f.occupied(at, trail)
    body = set(line)
    if not f.squeezed[at[1], at[0]] or len(line) < 2:
        return body
    straight = len({q[1] for q in line}) == 1 or len({q[0] for q in line}) == 1
    across = ((0, 1), (0, -1)) if len({q[1] for q in line}) == 1 else (
        ((1, 0), (-1, 0)) if len({q[0] for q in line}) == 1 else ((0, 1), (0, -1), (1, 0), (-1, 0)))
    for q in line:
        for dx, dy in across:
            for d in range(1, cube.k if straight else 2):
                p = (q[0] + dx * d, q[1] + dy * d)
                if not w.grid.in_bounds(p) or w.grid.rock[p[1], p[0]]:
                    break
                body.add(p)
    return body


def covered(w: World, cube: Creature, r, path) -> list[Creature] | str:
    """The creatures the cube moves over, in the order it reaches them; or why it cannot (a
    creature it cannot engulf in the way)."""
    out: list[Creature] = []
    trail = list(cube.trail) + [cube.pos]
    for at in path:
        body = sweep(w, cube, at, trail)
        trail.append(at)
        for o in w.creatures.values():
            if o is cube or not o.alive or o.is_swarm or o.id in w.swallowed.inside or o in out or not body & set(o.squares):
                continue
            if not engulfable(w, cube, r, o):
                return f"{o.name} is in the way and cannot be engulfed ({o.size.key}, or an ally)"
            out.append(o)
    return out


def takes_aoo(w: World, v: Creature, cube: Creature) -> bool:
    """[PD] A creature the cube moves over gives up its save for an attack of opportunity only
    when that attack can bring the cube down (its hit's maximum damage reaches the cube's hit
    points): an attack that does not kill it leaves it engulfed all the same."""
    att = attacks.melee_in_hand(v)
    if att is None or not attacks.threatens_target(w, v, cube):
        return False
    return att.damage.plus(v.str_mod_delta()).maximum >= cube.hp


def do_engulf(w: World, c: Creature, t: Turn, a: EngulfMove):
    r = rider_of(c, "engulf")
    if r is None:
        return Impossible(f"{c.name} cannot engulf")
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    path = engulf_path(w, c, a.to)
    if isinstance(path, str):
        return Impossible(path)
    victims = covered(w, c, r, path)
    if isinstance(victims, str):
        return Impossible(victims)
    t.spend("standard")
    c.aoo_used = 99   # no slam in a round it engulfs (SRD), attacks of opportunity included, until its turn
    steps = []
    for at in path:
        w.place(c, at, trail_step=True)
        cat = Category(int(w.field(c).category[at[1], at[0]])).name
        steps.append({"at": list(at), "category": cat, "kind": "walk", "feet": 5})
    w.emit(Moved(round=w.round, actor=c.id, path=tuple(steps), squares=tuple(c.squares), prone=False, action="engulf"))
    engulfed, avoided = [], []
    for v in victims:
        if not c.in_fight:         # brought down by an attack of opportunity: the engulf stops [PD]
            break
        if not v.in_fight:          # helpless: no attack, no save
            engulfed.append(v)
            continue
        if takes_aoo(w, v, c) and attacks.attack_of_opportunity(w, v, c, "engulf"):
            engulfed.append(v)
            continue
        if roll_save(w, v, r.save or "ref", int(r.dc), "engulf", c.id):
            avoided.append(v)
        else:
            engulfed.append(v)
    if not c.in_fight:
        engulfed = []
    filled = sweep(w, c, c.pos, c.trail) if c.in_fight else set()
    for v in avoided:
        at = _exit_square(w, v, c, filled)
        if at is None:
            engulfed.append(v)     # nowhere to be pushed: engulfed all the same
            continue
        w.place(v, at)
        cat = Category(int(w.field(v).category[at[1], at[0]])).name
        w.emit(Moved(round=w.round, actor=v.id, path=({"at": list(at), "category": cat, "kind": "pushed", "feet": 5},),
                     squares=tuple(v.squares), prone=v.prone, action="pushed"))
    avoided = [v for v in avoided if v not in engulfed]
    for v in engulfed:
        _put_inside(w, c, v, "engulfed")
    w.emit(Engulfed(round=w.round, actor=c.id, targets=tuple(v.id for v in engulfed),
                    avoided=tuple(v.id for v in avoided), squares=tuple(c.squares)))
    for v in engulfed:
        if v.alive:
            _engulf_harm(w, c, v, r)
    return True


def _inside_turn(w: World, c: Creature) -> None:
    """The host's turn: what is inside it is crushed or burnt, then a dead host's contents come out."""
    start_of_turn(w, c)
    tidy(w)


SWALLOW = Mechanic("swallow", actions={Swallow: do_swallow, CutOut: do_cut, EngulfMove: do_engulf, Escape: do_escape},
                   refusal=refusal, checks={Swallow: swallow_check}, part=Part("swallowed", Inside))
INSIDE = Mechanic("inside a host", start_of_turn=_inside_turn, settle=tidy)
