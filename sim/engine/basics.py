"""The rules every creature has, as mechanics (:mod:`sim.engine.mechanics`): a fresh turn, sleep
and waiting (magical sleep running out is a lasting effect: sim.engine.conditions).

* A creature's turn begins (SRD Combat): it is no longer flat-footed, its attacks of opportunity
  are back, a charge's AC penalty is over, and a run ends (RULES §6.5: the runner's lost Dex bonus
  lasts until its next turn).
* :class:`sim.engine.actions.Delay`: the creature ends its turn now (wait; hold a chokepoint).
"""

from __future__ import annotations

from sim.engine import damage
from sim.engine.actions import Delay, Turn
from sim.engine.creature import Creature
from sim.engine.mechanics import Mechanic
from sim.engine.world import World


def fresh_turn(w: World, c: Creature) -> None:
    """The start of ``c``'s turn: flat-footed over, attacks of opportunity back, a charge over, a run over."""
    c.flat_footed = False
    c.aoo_used = 0
    c.charged = False
    if "running" in c.conditions:
        damage.clear_status(w, c, "running", "expired")


def do_delay(w: World, c: Creature, t: Turn, a: Delay) -> bool:
    """End the turn now."""
    t.ended = True
    return True


FRESH_TURN = Mechanic("fresh turn", start_of_turn=fresh_turn)
DELAY = Mechanic("delay", actions={Delay: do_delay})
