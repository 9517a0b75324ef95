"""The AI against foes it cannot perceive (RULES §9.2-9.3): where to guess, and how a side that
sees in the dark keeps out of the enemy's light.

**Guessing a square** (SRD total concealment: the attacker picks the square it thinks the foe is
in). A creature whose side perceives no enemy attacks the square it has a clue to, in this order:

1. the square where its side last saw a foe (``w.memory.last_seen[team]``), if it can reach
   it from where it stands;
2. the square from which an unseen foe attacked it in melee since its last turn (the struck
   creature knows where the blow came from), or its own square when an unseen swarm damaged it
   there;
3. the noise of the fight (Listen checks are not modelled): the 3 x 3 block around the nearest
   foe, once that block is within reach (it moves toward the noise first; a blinded creature with
   a torch lights it before anything else).

Among the squares of one clue it leaves out those where a creature it perceives stands, allies'
squares and squares it already guessed wrong this turn, and picks one at random (the fight's
generator); a wrong guess also wipes the side's memory of that square.

**Keeping to the dark** (item 4 of issue 16). A side whose every living member has darkvision,
facing an enemy that carries a light, fights from squares dark to that enemy: it douses the
lights it carries itself; it attacks only from dark squares, reached by a path that crosses no
square lit to the enemy; when no such attack exists it steps out of the light, or waits beyond
its radius for the enemy to come (ten rounds at most, as the chokepoint holders wait). A creature
the enemy already threatens, or one with nowhere dark to go, fights as usual.
"""

from __future__ import annotations

import numpy as np

from sim.base.coords import Pos
from sim.engine import attack_actions, attacks, moves
from sim.engine.actions import Delay, Douse, LightTorch, Move, Strike, Turn
from sim.engine.ai.estimates import attack_squares
from sim.engine.creature import Creature
from sim.engine.events import Attack, Damage, EncounterStart, Moved
from sim.engine.world import World
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.movement import find_path
from sim.terrain.vision import DARK, LOCATES
from sim.terrain.vision.scene import carried_light

PATIENCE_ROUNDS = 10  # how long a dark side waits beyond the light before it goes in anyway


# =================================================================================================
# Guessing a square
# =================================================================================================

def _attack_for_guess(c: Creature):
    """The attack ``c`` would guess with now: the weapon in hand if it needs no loading, else a
    melee attack it needs not draw (a natural one); None when it has neither."""
    a = c.wielded()
    if a is not None and attack_actions.unloaded_reason(None, c, a) is None:
        return a
    a = attacks.first_melee(c)
    return a if a is not None and not attack_actions.needs_draw(c, a) else None


def _wrong_this_turn(w: World, c: Creature) -> set[Pos]:
    """The squares ``c`` attacked this turn and found empty."""
    return {tuple(e.at) for e in w.events[w.turn_mark:]
            if isinstance(e, Attack) and e.actor == c.id and e.guessed and not e.target}


def _taken(w: World, c: Creature) -> set[Pos]:
    """Squares it knows to hold no unseen foe: allies' squares and those of creatures its side
    perceives."""
    out: set[Pos] = set()
    for o in w.creatures.values():
        if o is c or not o.alive:
            continue
        if o.team == c.team or w.side_perceives(c.team, o) >= LOCATES:
            out |= {tuple(q) for q in o.squares}
    return out


def _squares_at(w: World, who: str, index: int) -> set[Pos]:
    """The squares creature ``who`` covered when event ``index`` happened: those of its last
    move before it, else those it started the fight on (empty when the log holds neither, e.g.
    a log trimmed by a loaded game)."""
    for e in reversed(w.events[:index]):
        if isinstance(e, Moved) and e.actor == who:
            return {tuple(q) for q in e.squares}
        if isinstance(e, EncounterStart):
            return {tuple(q) for d in e.combatants if d["id"] == who for q in d["squares"]}
    return set()


def attack_clues(w: World, c: Creature) -> list[Pos]:
    """Squares from which a foe its side does not perceive attacked ``c`` in melee since its last
    turn, and its own squares when an unseen swarm damaged it there.

    The struck creature knows where the blow came from (SRD Invisibility: the character struck
    knows the location of the invisible creature that struck it, until that creature moves): the
    clue is the square the attacker stood in when it attacked, not every square around ``c``
    (docs/rules.md §9, [PD] for a foe with reach: its square too). Only when the log cannot say
    where it stood (a trimmed log) does the clue fall back to the open squares next to ``c``."""
    out: set[Pos] = set()
    rows, cols = w.grid.shape
    own = {tuple(q) for q in c.squares}
    for i in range(len(w.events) - 1, -1, -1):
        e = w.events[i]
        if e.round < w.round - 1:
            break
        if isinstance(e, Attack) and e.target == c.id and e.kind in ("melee", "charge", "opportunity", "touch"):
            foe = w.creatures.get(e.actor)
            if foe is None or not foe.alive or w.side_perceives(c.team, foe) >= LOCATES:
                continue
            struck_from = _squares_at(w, e.actor, i)
            out |= struck_from or {
                (x + dx, y + dy) for x, y in c.squares for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if 0 <= x + dx < cols and 0 <= y + dy < rows and not w.grid.rock[y + dy, x + dx]
                and (x + dx, y + dy) not in own}
        elif isinstance(e, Damage) and e.target == c.id and e.cause == "swarm":
            foe = w.creatures.get(e.source or "")
            if foe is not None and foe.alive and w.side_perceives(c.team, foe) < LOCATES:
                out |= {tuple(q) for q in c.squares}
    return sorted(out)


def _pick(w: World, c: Creature, att, squares) -> Pos | None:
    """One square of ``squares`` it can attack now with ``att`` and has no reason to rule out, at
    random (the fight's generator)."""
    if att is None:
        return None
    ruled_out = _taken(w, c) | _wrong_this_turn(w, c)
    kind = "ranged" if att.mode == "ranged" else "melee"
    ok = sorted({tuple(q) for q in squares if tuple(q) not in ruled_out
                 and attack_actions.guess_reason(w, c, att, q, kind) is None})
    if not ok:
        return None
    return ok[int(w.rng.integers(len(ok)))] if len(ok) > 1 else ok[0]


def guess(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """A :class:`Strike` at a guessed square from the side's memory or the attacks on ``c`` (see
    the module notes), or None. Forgets a remembered square found empty."""
    memory = w.memory.last_seen.setdefault(c.team, {})
    wrong = _wrong_this_turn(w, c)
    for fid, p in list(memory.items()):
        if tuple(p) in wrong:
            del memory[fid]  # it is not where it was seen
    if not t.standard:
        return None
    att = _attack_for_guess(c)
    ids = {f.id for f in foes}
    for squares in ([tuple(p) for fid, p in memory.items() if fid in ids], attack_clues(w, c)):
        sq = _pick(w, c, att, squares)
        if sq is not None:
            return Strike(attack=att.name, at=sq)
    return None


def toward_noise(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """No foe perceived, no clue: light a torch if blinded and it has one, guess in the 3 x 3
    block around the nearest foe once it is within reach, else move toward it, else wait."""
    if w.blinded(c) and c.items.get("torch", 0) > 0 and not c.torch_lit and not carried_light(c):
        if t.standard and (c.items.get("tindertwig", 0) > 0 or t.full_round):
            return LightTorch()
    f = min(foes, key=lambda o: (footprint_distance_ft(c.squares, o.squares), o.id))
    x, y = f.pos
    att = _attack_for_guess(c)
    if t.standard and att is not None:
        own = {tuple(q) for q in c.squares}
        sq = _pick(w, c, att, [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (x + dx, y + dy) not in own])
        if sq is not None:
            return Strike(attack=att.name, at=sq)
    if t.move and not t.moved:
        near = sorted(((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)),
                      key=lambda q: (footprint_distance_ft(c.squares, [q]), q))
        budget = 2 if t.full_move and t.needs(c, full=True) is None else 1
        for q in near:
            if w.grid.in_bounds(q) and not w.grid.rock[q[1], q[0]] and moves.movement_plan(w, c, q, budget=budget):
                return Move(q, double=budget == 2)
    return Delay()


# =================================================================================================
# Keeping to the dark
# =================================================================================================

def dark_side(w: World, c: Creature, foes: list[Creature]) -> bool:
    """``c``'s side all see in the dark, and some foe carries a light (or stands in one)."""
    if not w.vision_on or c.is_swarm:
        return False
    side = [c] + w.allies(c)
    if not all(o.block.senses.darkvision_ft > 0 for o in side):
        return False
    return any(carried_light(f) for f in foes)


def lit_to(w: World, foes: list[Creature]) -> np.ndarray:
    """The squares lit (shadowy or bright) to the foes: the low-light grid if any of them has
    low-light vision (the worst case for a side that hides)."""
    lg = w.vision()[0]
    low = any(f.block.senses.low_light for f in foes)
    return lg.for_viewer(low) != DARK


def _block(q: Pos, k: int, shape: tuple[int, int]) -> list[Pos]:
    """The squares of a ``k`` x ``k`` space whose reference square is ``q``, on the map (``shape``:
    rows, cols; a big creature's space by a wall's edge reaches past the last row)."""
    rows, cols = shape
    return [(q[0] + i, q[1] + j) for i in range(k) for j in range(k) if q[0] + i < cols and q[1] + j < rows]


def _dark_route(w: World, c: Creature, to: Pos, lit: np.ndarray, budget: int = 1) -> bool:
    """A move of ``budget`` move actions reaches ``to`` without entering a square lit to the foes."""
    steps = moves.movement_plan(w, c, to, budget=budget)
    if not steps or tuple(steps[-1].at) != tuple(to):
        return False
    return not any(lit[y, x] for s in steps for x, y in _block(s.at, c.k, lit.shape))


def keep_to_the_dark(w: World, c: Creature, t: Turn, foes: list[Creature]):
    """The action of a creature of a dark side (see the module notes), or None to fight as usual."""
    if not dark_side(w, c, foes):
        return None
    if carried_light(c) and (t.move or t.standard):
        return Douse()
    if any(set(c.squares) & attacks.threatens(w, f) for f in foes):
        return None  # already in the fight: stepping away would provoke
    lit = lit_to(w, foes)
    here_dark = not any(lit[y, x] for x, y in c.squares)
    att = _attack_for_guess(c)
    targets = sorted(foes, key=lambda f: (footprint_distance_ft(c.squares, f.squares), f.id))
    if att is not None and here_dark and any(
            attacks.distance_reason(w, c, att, f.squares, f.name, {}) is None for f in targets):
        return None  # it can strike (or shoot) from the dark where it stands
    if att is not None and att.mode == "melee" and t.move and not t.stepped:
        reach = int(att.reach_ft or c.reach_ft())
        spots = sorted({q for f in targets for q in attack_squares(w, c, f, reach)
                        if not any(lit[y, x] for x, y in _block(q, c.k, lit.shape))},
                       key=lambda q: (footprint_distance_ft(c.squares, [q]), q))
        for q in spots[:12]:
            if _dark_route(w, c, q, lit):
                return Move(q)  # in one move, by the dark, to strike from the dark
        step = _dark_step(w, c, spots[:6], lit, budget=2 if t.full_move and t.needs(c, full=True) is None else 1)
        if step is not None:
            return step
    held = w.memory.kept_dark.setdefault(c.id, set())
    if len(held) >= PATIENCE_ROUNDS and w.round not in held:
        return None
    held.add(w.round)
    if not here_dark and t.move:
        spot = _nearest_dark(w, c, lit)
        if spot is not None:
            return Move(spot)
        return None
    return Delay()  # wait beyond the light for the enemy to come


def _dark_step(w: World, c: Creature, goals: list[Pos], lit: np.ndarray, *, budget: int):
    """A move (``budget`` move actions) along a path to one of ``goals`` that enters no square lit
    to the foes, as far along it as the move goes; None when no such path exists."""
    f = w.field(c)
    blocked, no_end = w.occupancy_masks(c)
    blocked[c.pos[1], c.pos[0]] = False
    shade = lit.copy()
    if c.k > 1:  # a reference square is lit when any square of the space there is
        pad = np.pad(lit, ((0, c.k - 1), (0, c.k - 1)))
        shade = np.lib.stride_tricks.sliding_window_view(pad, (c.k, c.k)).any(axis=(2, 3))
    shade[c.pos[1], c.pos[0]] = False
    for goal in goals:
        path = find_path(f, c.pos, goal, blocked=blocked | shade, prone=c.prone)
        if not path.reachable:
            continue
        steps = moves.steps_within(w, c, path.steps, budget)
        for s in reversed(steps):
            q = tuple(s.at)
            if not no_end[q[1], q[0]] and _dark_route(w, c, q, lit, budget):
                return Move(q, double=budget == 2)
    return None


def _nearest_dark(w: World, c: Creature, lit: np.ndarray) -> Pos | None:
    """The nearest square it can reach with one move action over dark squares only."""
    x0, y0 = c.pos
    speed = max(1, c.speed_ft_value() // 5)
    rows, cols = w.grid.shape
    spots = sorted(((x, y) for y in range(max(0, y0 - speed), min(rows, y0 + speed + 1))
                    for x in range(max(0, x0 - speed), min(cols, x0 + speed + 1))
                    if not lit[y, x] and not w.grid.rock[y, x]),
                   key=lambda q: (footprint_distance_ft(c.squares, [q]), q))
    for q in spots[:24]:
        steps = moves.movement_plan(w, c, q, budget=1)  # out of the light: the first steps may be lit
        if steps and tuple(steps[-1].at) == q and not any(
                lit[y, x] for x, y in _block(q, c.k, lit.shape)):
            return q
    return None
