"""The barbarian's rage in a fight (SRD Barbarian): a free action on its own turn; +4 Str and Con,
+2 Will, -2 AC for 3 + (raging) Con modifier rounds, hit points +2 per Hit Die while it lasts;
then fatigued (-2 Str, -2 Dex) for the rest of the fight. The numbers live in classes.toml
[class.barbarian]; the stat blocks come from :func:`sim.rules.statblocks.raging` and
:func:`~sim.rules.statblocks.after_rage`.
"""

from __future__ import annotations

from sim.engine import damage
from sim.engine.actions import Impossible, Rage, Turn
from sim.engine.conditions import add, announce_end, on_end
from sim.engine.creature import Creature
from sim.engine.effects import Effect
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.statblocks import after_rage, rage_rounds, raging


def can_rage(c: Creature) -> str | None:
    """Why ``c`` cannot rage now, or None."""
    if "rage" not in c.block.features:
        return f"{c.name} has no rage"
    if "raging" in c.conditions:
        return f"{c.name} is already raging"
    if "fatigued" in c.conditions or c.rage_used:
        return f"{c.name} is fatigued after a rage: no second rage this fight"
    if not c.in_fight:
        return f"{c.name} cannot act"
    return None


def do_rage(w: World, c: Creature, t: Turn, a: Rage):
    """Enter a rage (a free action on the creature's own turn)."""
    why = can_rage(c)
    if why is not None:
        return Impossible(why)
    before = c.block
    c.block = raging(before)
    gain = c.block.hp - before.hp          # +2 per Hit Die from +4 Con
    c.hp += gain
    c.max_hp += gain
    c.rage_used = True
    add(w, c, "raging", c.id, w.round + rage_rounds(c.block) - 1, cause="rage")
    return True


@on_end("raging")
def end_rage(w: World, c: Creature, e: Effect, cause: str) -> None:
    """A rage whose rounds are spent ends (``sim/data/effects.toml`` [effect.raging]: at the start
    of its turn): the hit points it gave go (which may leave the barbarian disabled or dying) and
    it is fatigued."""
    raged = c.block
    c.block = after_rage(raged)
    loss = raged.hp - c.block.hp           # the Con it had before the rage (fatigue leaves Con alone)
    c.max_hp = c.block.hp                  # its own maximum again (also for a rage carried into a crawl's next fight)
    c.hp -= loss
    announce_end(w, c, "raging", cause)
    damage.set_status(w, c, "fatigued", "rage ended")
    damage.update_state(w, c)


RAGE = Mechanic("rage", actions={Rage: do_rage})   # its end: the "rage" moment of the lasting effects
