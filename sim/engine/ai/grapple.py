"""What the default AI does in a grapple (docs/rules.md §11.11).

* A creature that constricts (darkmantle, choker...) and holds a foe squeezes it every round: an
  opposed grapple check to damage (its improved grab needs nothing here: it comes with its hits).
* A creature held by another attacks its grappler with a light or natural weapon in hand (at -4);
  with none in hand, it draws a light weapon it carries (a move action), else it tries to escape,
  by Escape Artist when that modifier beats its grapple modifier. Pinned: it tries to escape.
"""

from __future__ import annotations

from sim.engine import attacks
from sim.engine.actions import Draw, Escape, Grapple, Strike, Turn
from sim.engine.ai.tactic import HELD, Melee, Tactic
from sim.engine.creature import Creature
from sim.engine.grapple import (
    constrict_rider,
    escape_artist_parts,
    grapple_parts,
    light_in_grapple,
)
from sim.engine.world import World


def grapple_tactic(w: World, c: Creature, t: Turn):
    """The action of a creature in a grapple, or None when it is in none (or has nothing to do)."""
    if not c.grappling:
        return None
    partners = [w.creatures[i] for i in c.grapple_with if w.creatures[i].in_fight]
    if not partners:
        return None
    if not t.standard:
        return None
    target = min(partners, key=lambda o: o.hp)
    if c.pinned_by:
        return _escape(w, c)
    if constrict_rider(c) is not None:
        return Grapple(target=target.id)
    held = w.creatures[c.grapple_with[0]]
    in_hand = attacks.melee_in_hand(c)
    if in_hand is not None and light_in_grapple(c, in_hand):
        return Strike(target=held.id, attack=in_hand.name)
    spare = next((a for a in c.block.attacks if a.kind == "weapon" and a.mode == "melee" and light_in_grapple(c, a)
                  and a.name != c.wielding), None)
    if spare is not None and t.move:
        return Draw(attack=spare.name)
    return _escape(w, c)


def _tactic(w: World, c: Creature, t: Turn, foes: list[Creature], melee: Melee):
    return grapple_tactic(w, c, t)


def _in_grapple(c: Creature) -> bool:
    """A creature in a grapple does only what the grapple allows: the tactic's answer is final."""
    return bool(c.grappling)


GRAPPLE = Tactic("grapple", _tactic, phase=HELD, holds=_in_grapple)   # §11.11


def _escape(w: World, c: Creature) -> Escape:
    artist = sum(escape_artist_parts(c).values()) > sum(grapple_parts(w, c).values())
    return Escape(artist=artist)
