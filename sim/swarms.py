"""Swarms: shapeable 10-ft creatures (RULES §4, §6.4, §6.6, §7.24-29).

* **Shape** (§4.2, §7.26): a swarm covers any 4 contiguous (edge-connected) squares its
  components pass, and reshapes as it moves; where fewer squares are free (a dead-end crack) it
  compresses into 1-3. The setting ``swarm_shape`` chooses between any tetromino (``"any"``) and
  a 2 x 2 block unless squeezed (``"square"``).
* **Moving**: its lead square follows the path; the body flows behind it (the last squares the
  lead passed), then it settles into the shape that covers the most enemies.
* **Attack** (§4.3, §7.28): no roll; at the end of its turn it damages every creature sharing a
  square with it, once each, and applies its riders (poison, wounding, disease).
* **Distraction** (§4.4, §7.29): a living creature that starts its turn in a swarm saves
  (Fortitude) or is nauseated until its next turn; one save per swarm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

import numpy as np

from sim.creature import Creature
from sim.events import Condition, Engulf, Save, SwarmShape
from sim.rules.dice import Dice

if TYPE_CHECKING:  # pragma: no cover
    from sim.encounter import Encounter

Pos = tuple[int, int]
_N4 = ((1, 0), (-1, 0), (0, 1), (0, -1))


# =================================================================================================
# Shapes
# =================================================================================================

def connected_sets(passable: np.ndarray, lead: Pos, size: int, *, radius: int = 3) -> list[frozenset[Pos]]:
    """Every edge-connected set of ``size`` passable squares that contains ``lead``, within
    ``radius`` squares of it (polyomino growth; at most 76 tetrominoes contain a square).

    >>> p = np.ones((9, 9), bool)
    >>> len(connected_sets(p, (4, 4), 4))
    76
    """
    rows, cols = passable.shape
    lx, ly = lead

    def ok(q: Pos) -> bool:
        x, y = q
        return 0 <= x < cols and 0 <= y < rows and passable[y, x] and abs(x - lx) <= radius and abs(y - ly) <= radius

    if not ok(lead):
        return []
    frontier = {frozenset([lead])}
    for _ in range(size - 1):
        nxt = set()
        for s in frontier:
            for (x, y) in s:
                for dx, dy in _N4:
                    q = (x + dx, y + dy)
                    if q not in s and ok(q):
                        nxt.add(s | {q})
        frontier = nxt
    return sorted(frontier, key=lambda s: sorted(s))


def is_contiguous(squares: Iterable[Pos]) -> bool:
    """Edge-connected (a swarm's squares, §4.2)."""
    sq = set(squares)
    return bool(sq) and set(_component(list(sq), next(iter(sq)))) == sq


def _perimeter(s: frozenset[Pos]) -> int:
    return sum(1 for (x, y) in s for dx, dy in _N4 if (x + dx, y + dy) not in s)


def best_shape(passable: np.ndarray, lead: Pos, *, mode: str = "any", score=None,
               size: int = 4) -> list[Pos]:
    """The shape the swarm settles into around ``lead``: the candidate with the highest ``score``
    (e.g. enemies covered), then the most compact; fewer than 4 squares where the passage does not
    hold 4 (§7.26). ``mode="square"`` prefers a 2 x 2 block whenever one exists."""
    for n in range(size, 0, -1):
        cands = connected_sets(passable, lead, n)
        if not cands:
            continue
        if mode == "square" and n == 4:
            squares = [c for c in cands if _is_block(c)]
            if squares:
                cands = squares
        key = (lambda s: (-(score(s) if score else 0), _perimeter(s), sorted(s)))
        return sorted(min(cands, key=key))
    return [lead]


def _is_block(s: frozenset[Pos]) -> bool:
    xs = {x for x, _ in s}
    ys = {y for _, y in s}
    return len(xs) == 2 and len(ys) == 2


def flow(shape: list[Pos], path: list[Pos], passable: np.ndarray, size: int = 4) -> list[list[Pos]]:
    """The swarm's squares after each step of its lead along ``path``: the body follows the lead
    (the most recent squares it passed), filling the orthogonal corner of a diagonal step so it
    stays edge-connected."""
    trail: list[Pos] = list(shape)
    shapes: list[list[Pos]] = []
    cur = path[0] if path else (shape[0] if shape else None)
    for nxt in path[1:]:
        if cur is not None and nxt[0] != cur[0] and nxt[1] != cur[1]:
            for mid in ((nxt[0], cur[1]), (cur[0], nxt[1])):
                if passable[mid[1], mid[0]]:
                    trail.append(mid)
                    break
        trail.append(nxt)
        cur = nxt
        body: list[Pos] = []
        for sq in reversed(trail):
            if sq not in body:
                body.append(sq)
            if len(body) == size:
                break
        if not is_contiguous(body):  # keep only the part connected to the lead
            body = _component(body, nxt)
        shapes.append(sorted(body))
    return shapes


def _component(squares: list[Pos], lead: Pos) -> list[Pos]:
    sq = set(squares)
    seen = {lead}
    stack = [lead]
    while stack:
        x, y = stack.pop()
        for dx, dy in _N4:
            q = (x + dx, y + dy)
            if q in sq and q not in seen:
                seen.add(q)
                stack.append(q)
    return sorted(seen)


# =================================================================================================
# Attack, distraction, riders
# =================================================================================================

def engulfed(enc: "Encounter", swarm: Creature) -> list[Creature]:
    """Creatures sharing at least one square with the swarm (each once, §7.28)."""
    sq = set(swarm.squares)
    return [c for c in enc.creatures.values()
            if c is not swarm and c.alive and not c.is_swarm and sq & set(c.squares)]


def swarm_attack(enc: "Encounter", swarm: Creature) -> None:
    """End of the swarm's turn: its damage (dice by HD, no Str, §4.3) to every creature it covers."""
    from sim.combat import DamagePart, deal_damage

    if not swarm.in_fight or swarm.block.swarm is None:
        return
    victims = engulfed(enc, swarm)
    if not victims:
        return
    enc.emit(Engulf(round=enc.round, actor=swarm.id, targets=tuple(v.id for v in victims),
                    squares=tuple(swarm.squares)))
    dice: Dice = swarm.block.swarm.damage
    magic = "magic" in swarm.block.swarm.aligned
    for v in victims:
        amount = max(1, dice.roll(enc.rng))
        lost = deal_damage(enc, v, [DamagePart(amount, "swarm", "swarm", types=("swarm",), magic=magic)],
                           source=swarm, cause="swarm")
        if lost > 0 and v.alive:
            apply_riders(enc, swarm, v, swarm.block.swarm.riders)


def _rider(block, key: str):
    for r in block.riders:
        if r.key == key:
            return r
    return None


def roll_save(enc: "Encounter", c: Creature, save: str, dc: int, cause: str, source: str | None) -> bool:
    """A saving throw (natural 1 fails, natural 20 succeeds), emitted as an event."""
    name = {"fort": "fortitude", "ref": "reflex", "will": "will"}[save]
    mod = c.block.save(save)
    if save == "ref":
        mod += c.dex_mod_delta()
    if c.blessed_until >= enc.round and cause == "fear":
        mod += 1
    roll = int(enc.rng.integers(1, 21))
    total = roll + mod
    ok = roll == 20 or (roll != 1 and total >= dc)
    enc.emit(Save(round=enc.round, target=c.id, save=name, dc=dc, roll=roll, modifier=mod, total=total,
                  success=ok, cause=cause, source=source))
    return ok


def apply_riders(enc: "Encounter", source: Creature, target: Creature, keys: Iterable[str]) -> None:
    """Poison (initial now, secondary 10 rounds later), wounding (bleeding 1 hp a round), disease
    (recorded with its incubation): RULES §4.9."""
    for key in keys:
        r = _rider(source.block, key)
        if r is None or not target.living or not target.alive:
            continue
        if r.kind == "poison":
            if "poison" in target.block.defenses.immune:
                continue
            if not roll_save(enc, target, r.save or "fort", int(r.dc), "poison", source.id) and r.initial:
                ability_damage(enc, target, r.initial, cause="poison", source=source)
            target.poison_due.append((enc.round + 10, r.key, source.id))
        elif r.kind == "wounding":
            if target.bleed < r.bleed:
                target.bleed = r.bleed  # several wounds do not add up
                enc.emit(Condition(round=enc.round, target=target.id, condition="wounded", active=True,
                                   cause=source.id, detail={"bleed": r.bleed}))
        elif r.kind == "disease":
            if not roll_save(enc, target, r.save or "fort", int(r.dc), "disease", source.id):
                target.diseases.append(r.key)
                enc.emit(Condition(round=enc.round, target=target.id, condition="diseased", active=True,
                                   cause=source.id, detail={"disease": r.key, "incubation": r.incubation}))


def ability_damage(enc: "Encounter", c: Creature, spec: str, *, cause: str, source: Creature | None) -> None:
    """"1d4 dex" -> roll and record ability damage (Dex 0 paralyzed, Str 0 helpless, Con 0 dead)."""
    from sim.combat import set_condition, update_state

    dice_text, ability = spec.split()
    amount = max(1, Dice.parse(dice_text).roll(enc.rng))
    c.ability_damage[ability] = c.ability_damage.get(ability, 0) + amount
    enc.emit(Condition(round=enc.round, target=c.id, condition="ability_damage", active=True, cause=cause,
                       detail={"ability": ability, "amount": amount, "total": c.ability_damage[ability]}))
    score = c.block.abilities.score(ability)
    if score is not None and score - c.ability_damage[ability] <= 0:
        if ability in ("dex", "str"):
            set_condition(enc, c, "paralyzed", cause)
        update_state(enc, c, source=source)


def poison_secondaries(enc: "Encounter", c: Creature) -> None:
    """Secondary poison saves that fall due this round (1 minute after the first, §4.9)."""
    due = [p for p in c.poison_due if p[0] <= enc.round]
    c.poison_due = [p for p in c.poison_due if p[0] > enc.round]
    for _, key, src_id in due:
        src = enc.creatures.get(src_id)
        r = _rider(src.block, key) if src is not None else None
        if r is None or not c.alive:
            continue
        if not roll_save(enc, c, r.save or "fort", int(r.dc), "poison_secondary", src_id) and r.secondary:
            ability_damage(enc, c, r.secondary, cause="poison", source=src)


def distraction(enc: "Encounter", c: Creature) -> None:
    """Start of ``c``'s turn: one Fortitude save per swarm it shares a square with (§4.4, §7.29).
    Immune: non-living creatures and swarms themselves."""
    from sim.combat import set_condition

    if not c.living or c.is_swarm or not c.alive:
        return
    sq = set(c.squares)
    for s in enc.creatures.values():
        if not s.is_swarm or not s.in_fight or not (sq & set(s.squares)) or s.team == c.team:
            continue
        if _immune_to_swarm(c, s):
            continue  # nothing the swarm does can hurt it: no distraction (§4.4, §7.29)
        dc = s.block.swarm.distraction_dc
        if not roll_save(enc, c, "fort", dc, "distraction", s.id):
            set_condition(enc, c, "nauseated", f"distraction:{s.id}")
            c.nauseated_rounds += 1


def _immune_to_swarm(c: Creature, swarm: Creature) -> bool:
    """Whether the swarm's bite can never hurt ``c``: its highest roll still fully stopped (by
    damage reduction, or an immunity)."""
    from sim.combat import DamagePart, adjust_for_target

    dice: Dice = swarm.block.swarm.damage
    top = dice.count * dice.sides + dice.bonus
    magic = "magic" in swarm.block.swarm.aligned
    return adjust_for_target(c, DamagePart(top, "swarm", "swarm", types=("swarm",), magic=magic), {}) <= 0


def shape_event(enc: "Encounter", swarm: Creature) -> None:
    enc.emit(SwarmShape(round=enc.round, actor=swarm.id, squares=tuple(swarm.squares)))
