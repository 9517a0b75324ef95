"""The rules every creature has, as mechanics (:mod:`sim.engine.mechanics`): a fresh turn, sleep
running out, waiting.

* A creature's turn begins (SRD Combat): it is no longer flat-footed, its attacks of opportunity
  are back, a charge's AC penalty is over, and a run ends (RULES §6.5: the runner's lost Dex bonus
  lasts until its next turn).
* Magical sleep ends when its rounds are over (docs/rules.md §8.3: *sleep*).
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
        damage.clear_condition(w, c, "running", "expired")


def sleep_over(w: World, c: Creature) -> None:
    """Magical sleep ends once its last round is past."""
    if "asleep" in c.conditions and c.asleep_until and w.round > c.asleep_until:
        damage.clear_condition(w, c, "asleep", "expired")


def do_delay(w: World, c: Creature, t: Turn, a: Delay) -> bool:
    """End the turn now."""
    t.ended = True
    return True


FRESH_TURN = Mechanic("fresh turn", start_of_turn=fresh_turn)
SLEEP = Mechanic("sleep", start_of_turn=sleep_over)
DELAY = Mechanic("delay", actions={Delay: do_delay})
