"""The AI's archery (SRD Rapid Shot, Manyshot; sim.engine.ai.decide): once a ranged attacker has chosen
its weapon and target, how it shoots this turn -- one shot, a full attack, a full attack with Rapid
Shot, or a Manyshot -- by expected damage (sim.engine.ai.estimates). Pure questions: nothing here
changes the world."""

from __future__ import annotations

from sim.engine.actions import FullAttack, Manyshot, Strike, Turn
from sim.engine.ai.estimates import expected_damage, hit_chance
from sim.engine.attack_actions import (
    load_action,
    manyshot_arrows,
    manyshot_penalty,
    manyshot_reason,
    rapid_shot_reason,
)
from sim.engine.attacks import plan_attack
from sim.engine.creature import Creature
from sim.engine.world import World
from sim.rules.weapons import combat_modifier


def volley_values(w: World, c: Creature, att, target: Creature, t: Turn) -> dict[str, float]:
    """The expected damage of each way ``c`` may shoot ``target`` with ``att`` this turn:
    ``strike`` always; ``full`` and ``rapid_shot`` with the full round (iterative attacks at -5
    each, Rapid Shot's extra attack and -2 on all); ``manyshot`` within 30 ft (each arrow's damage
    at the one roll's chance). Damage per hit is the engine's (:func:`expected_damage`)."""
    one = expected_damage(w, c, att, target)
    out = {"strike": one}
    plan = plan_attack(w, c, att, target, kind="ranged")
    if not plan or one <= 0:
        return out
    per_hit = one / hit_chance(plan.bonus, plan.ac)

    def ev(delta: int) -> float:
        return hit_chance(plan.bonus + delta, plan.ac) * per_hit

    step = combat_modifier("attack", "iterative")
    n = max(1, len(att.bonuses))
    if t.full_round and load_action(att) is None:
        if n > 1:
            out["full"] = sum(ev(step * i) for i in range(n))
        if rapid_shot_reason(c, att) is None:
            rapid = combat_modifier("attack", "rapid_shot")
            out["rapid_shot"] = ev(rapid) + sum(ev(rapid + step * i) for i in range(n))
    if manyshot_reason(w, c, att, target) is None:
        arrows = manyshot_arrows(c)
        out["manyshot"] = arrows * ev(manyshot_penalty(arrows))
    return out


def volley(w: World, c: Creature, t: Turn, att, target: Creature):
    """The action with the best expected damage (ties: the simpler, in the order strike, full,
    rapid shot, manyshot)."""
    values = volley_values(w, c, att, target, t)
    best = max(values, key=lambda k: (values[k], -list(values).index(k)))
    if best == "manyshot":
        return Manyshot(target.id, att.name)
    if best == "rapid_shot":
        return FullAttack(target.id, att.name, rapid_shot=True)
    if best == "full":
        return FullAttack(target.id, att.name)
    return Strike(target.id, att.name)
