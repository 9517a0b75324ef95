"""Swarms: shapeable 10-ft creatures (RULES §4, §6.4, §6.6, §7.24-29).

* **Shape** (§4.2, §7.26, :mod:`sim.terrain.movement.shapes`): a swarm covers any 4 contiguous (edge-connected) squares its
  components pass, and reshapes as it moves; where fewer squares are free (a dead-end crack) it
  compresses into 1-3. The setting ``swarm_shape`` chooses between any tetromino (``"any"``) and
  a 2 x 2 block unless squeezed (``"square"``).
* **Moving**: its lead square follows the path; the body flows behind it (the last squares the
  lead passed), then it settles into the shape that covers the most enemies.
* **Attack** (§4.3, §7.28): no roll; at the end of its turn it damages every creature sharing a
  square with it, once each, and applies its riders (poison, wounding, disease).
* **Distraction** (§4.4, §7.29): a living creature that starts its turn in a swarm saves
  (Fortitude) or is nauseated until its next turn; one save per swarm, friend or foe (the
  swarm's damage does not spare its allies either).
"""

from __future__ import annotations

from sim.engine.afflictions import apply_riders
from sim.engine.checks import label, roll_dice, roll_save
from sim.engine.creature import Creature
from sim.engine.damage import DamagePart, adjust_for_target, deal_damage, set_status
from sim.engine.events import Engulf, SwarmShape
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules.dice import Dice


def engulfed(w: World, swarm: Creature) -> list[Creature]:
    """Creatures sharing at least one square with the swarm (each once, §7.28)."""
    sq = set(swarm.squares)
    return [c for c in w.creatures.values()
            if c is not swarm and c.alive and not c.is_swarm and sq & set(c.squares) and c.id not in w.swallowed.inside]


def swarm_attack(w: World, swarm: Creature) -> None:
    """End of the swarm's turn: its damage (dice by HD, no Str, §4.3) to every creature it covers."""
    if not swarm.in_fight or swarm.block.swarm is None:
        return
    victims = engulfed(w, swarm)
    if not victims:
        return
    w.emit(Engulf(round=w.round, actor=swarm.id, targets=tuple(v.id for v in victims),
                    squares=tuple(swarm.squares)))
    dice: Dice = swarm.block.swarm.damage
    magic = "magic" in swarm.block.swarm.aligned
    for v in victims:
        amount = max(1, roll_dice(w, dice, swarm, f"swarm damage on {label(w, v)}"))
        dealt = deal_damage(w, v, [DamagePart(amount, "swarm", "swarm", types=("swarm",), magic=magic)],
                            source=swarm, cause="swarm")
        if dealt.lethal > 0 and v.alive:
            apply_riders(w, swarm, v, swarm.block.swarm.riders)


def distraction(w: World, c: Creature) -> None:
    """Start of ``c``'s turn: one Fortitude save per swarm it shares a square with (§4.4, §7.29),
    the swarm's allies included (its damage hits them too, :func:`engulfed`).
    Immune: non-living creatures, swarms themselves, and creatures its damage cannot hurt."""
    if not c.living or c.is_swarm or not c.alive:
        return
    sq = set(c.squares)
    for s in w.creatures.values():
        if not s.is_swarm or not s.in_fight or not (sq & set(s.squares)):
            continue
        if _immune_to_swarm(c, s):
            continue  # nothing the swarm does can hurt it: no distraction (§4.4, §7.29)
        dc = s.block.swarm.distraction_dc
        if not roll_save(w, c, "fort", dc, "distraction", s.id):
            set_status(w, c, "nauseated", f"distraction:{s.id}")
            c.nauseated_rounds += 1


def _immune_to_swarm(c: Creature, swarm: Creature) -> bool:
    """Whether the swarm's bite can never hurt ``c``: its highest roll still fully stopped (by
    damage reduction, or an immunity)."""
    dice: Dice = swarm.block.swarm.damage
    top = dice.count * dice.sides + dice.bonus
    magic = "magic" in swarm.block.swarm.aligned
    return adjust_for_target(c, DamagePart(top, "swarm", "swarm", types=("swarm",), magic=magic), {}) <= 0


def shape_event(w: World, swarm: Creature) -> None:
    w.emit(SwarmShape(round=w.round, actor=swarm.id, squares=tuple(swarm.squares)))


def _distracted(w: World, c: Creature) -> None:
    if c.in_fight:
        distraction(w, c)


def _swarm_turn_end(w: World, c: Creature) -> None:
    if c.is_swarm and c.in_fight:
        swarm_attack(w, c)


SWARMS = Mechanic("swarms", start_of_turn=_distracted, end_of_turn=_swarm_turn_end)
