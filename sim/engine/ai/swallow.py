"""What the default AI does with swallow whole and engulf (docs/rules.md §11.13).

* Inside a swallower, a creature cuts its way out with its best light slashing or piercing weapon
  (the highest average damage): in hand, or drawn first (a move action); with none, it escapes
  (by Escape Artist when that is its better modifier). Inside a cube it escapes.
* A swallower that began its turn holding a foe it can swallow swallows it.
* A cube engulfs when a straight move within its speed covers foes: the move that covers the most
  (then the shortest).
"""

from __future__ import annotations

from sim.engine import attacks, registry, swallow
from sim.engine.actions import CutOut, Draw, EngulfMove, Escape, Swallow, Turn
from sim.engine.ai.tactic import Melee, Tactic
from sim.engine.creature import Creature
from sim.engine.grapple import escape_artist_parts, grapple_parts
from sim.engine.world import World


def tactic(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """The action of swallow whole or engulf now, or None (the usual policy)."""
    if c.id in w.swallowed.inside:
        return _from_inside(w, c, t)
    if not t.standard:
        return None
    if c.grappling and swallow.rider_of(c, "swallow_whole") is not None:
        for oid in c.grapple_with:
            if registry.check(w, c, Swallow(target=oid)) is None:
                return Swallow(target=oid)
        return None
    if swallow.rider_of(c, "engulf") is not None and not c.grappling:
        return _engulf(w, c, foes)
    return None


def _tactic(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee):
    return tactic(w, c, t, foes)


SWALLOW = Tactic("swallow", _tactic)   # inside: cut out or escape; swallow, engulf (§11.13)


def _from_inside(w: World, c: Creature, t: Turn):
    host = swallow.host_of(w, c)
    r = swallow.rider_of(host, "swallow_whole") if host is not None else None
    if r is not None and r.cut_hp and t.standard:
        blades = sorted((a for a in c.block.attacks if swallow.cutting(c, a)),
                        key=lambda a: (-a.damage.average, a.name != c.wielding, a.name))
        in_hand = attacks.melee_in_hand(c)
        if in_hand is not None and swallow.cutting(c, in_hand) and (not blades or in_hand.damage.average
                                                                    >= blades[0].damage.average):
            return CutOut(attack=in_hand.name)
        for a in blades:
            if a.kind != "weapon":
                return CutOut(attack=a.name)
            if t.move:
                return Draw(attack=a.name)
    if not t.standard:
        return None
    artist = sum(escape_artist_parts(c).values()) > sum(grapple_parts(w, c).values())
    return Escape(artist=artist)


def _engulf(w: World, c: Creature, foes: list[Creature]):
    r = swallow.rider_of(c, "engulf")
    reach = max(1, c.speed_ft_value() // 5)
    best = None
    x0, y0 = c.pos
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            if not (dx or dy):
                continue
            to = (x0 + dx, y0 + dy)
            path = swallow.engulf_path(w, c, to)
            if isinstance(path, str):
                continue
            got = swallow.covered(w, c, r, path)
            if isinstance(got, str):
                continue
            n = sum(1 for o in got if o in foes)
            if n and (best is None or (-n, len(path), to[1], to[0]) < best[0]):
                best = ((-n, len(path), to[1], to[0]), to)
    return None if best is None else EngulfMove(to=best[1])
