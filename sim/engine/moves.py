"""Movement in a fight (RULES §6): moves and double moves along the cheapest path, Escape Artist
through squeezes, crawling, the 5-ft step, withdrawing, running and charging; a swarm's body
flowing behind its lead square; attacks of opportunity for leaving a threatened square (and for a
swarm entering an opponent's space), once per enemy per move (§6.6).

A move is recorded as it goes (``begin_move`` .. ``finish_move``): the steps so far are flushed
as a partial ``moved`` event before any attack of opportunity it provokes.
"""

from __future__ import annotations

import math

import numpy as np

from sim.base.coords import Pos
from sim.engine import armor, attack_actions, attacks, damage, zones
from sim.engine.actions import (
    Charge,
    DropProne,
    FiveFootStep,
    Impossible,
    Move,
    Run,
    StandUp,
    Turn,
    Withdraw,
)
from sim.engine.checks import skill_check
from sim.engine.creature import Creature
from sim.engine.events import ActionTaken, Condition, Moved
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Movement, Part
from sim.engine.swarms import shape_event
from sim.engine.world import World
from sim.rules.categories import Category, effects
from sim.rules.weapons import combat_modifier
from sim.terrain.edges import segment_clear
from sim.terrain.geometry import (
    distance_squares,
    distance_squares_grid,
    footprint_distance_ft,
    squares_on_segment,
)
from sim.terrain.movement import find_path
from sim.terrain.movement.field import BLOCKED, MoveField
from sim.terrain.movement.shapes import best_shape, flow


def do_move(w: World, c: Creature, t: Turn, a: Move):
    if a.double:
        why = t.needs(c, full=True)
        if why:
            return Impossible(why)
        budget = 2
    else:
        why = t.needs(c, move=True)
        if why:
            return Impossible(why)
        budget = 1
    if t.stepped:
        return Impossible("took a 5-ft step: no other movement this round")
    # a second move action after a first that walked goes on with its move: the two are one
    # double move (RULES §6.1), and the log names it so
    action = "double_move" if a.double or t.move_ft else "move"
    return travel(w, c, t, a.to, budget=budget, action=action)


def turn_spent(w: World, c: Creature) -> tuple[int, int]:
    """What ``c``'s turn has spent of its movement (feet of the 2 x speed, diagonal parity), the
    start of a move it makes now (RULES §6.1): (0, 0) at the start of its turn (and for anyone
    not acting); after a move action that walked, what that walk used, so that the second move
    action goes on with the first one's budget and 5-10-5 count; after an action of another
    kind, a whole move action's worth."""
    t = w.turn
    if t is None or t.actor != c.id or (t.move and t.standard):
        return (0, 0)
    if t.move_ft:
        return (t.move_ft, t.move_parity)
    return (5 * w.field(c).mover.speed_squares, 0)


def _actions_before(spent: tuple[int, int], sp: int) -> int:
    """Whole move actions ``spent`` stands for (its feet over the speed, rounded up)."""
    u = spent[0] // 5
    return 0 if u == 0 or sp == 0 else -(-u // sp)


def path_to(w: World, c: Creature, to: Pos):
    f = w.field(c)
    if not w.grid.in_bounds(to):
        return Impossible(f"({to[0]}, {to[1]}) is off the map")
    if f.mode[to[1], to[0]] == BLOCKED:
        return Impossible(f"{c.name} cannot stand at {to}")
    blocked, no_end = w.occupancy_masks(c)
    if no_end[to[1], to[0]] and to != c.pos:
        return Impossible(f"{to} is occupied")
    blocked[c.pos[1], c.pos[0]] = False
    if blocked[to[1], to[0]]:
        return Impossible(f"{to} is held by an enemy")
    path = round_web(w, c, f, to, blocked) if w.magic.zones else None
    if path is None:
        path = search_path(w, c, f, to, blocked)
    if not path.reachable:
        return Impossible(f"no way to {to} for {c.name}")
    return armor.keep_armored(w, c, f, to, blocked, path)  # around the crawlway in armor, if a way exists


def round_web(w: World, c: Creature, f: MoveField, to: Pos, blocked: np.ndarray):
    """The path round every web, when ``c`` stands outside them and one exists to a square
    outside them (docs/rules.md §8.3's AI [PD]: nobody walks into a known web needlessly);
    else None."""
    avoid = zones.web_avoided(w, c)
    if not avoid or tuple(to) in avoid:
        return None
    rows, cols = blocked.shape
    round_it = blocked.copy()
    for x, y in avoid:
        if 0 <= x < cols and 0 <= y < rows:
            round_it[y, x] = True
    path = search_path(w, c, f, to, round_it, tag=avoid)
    return path if path.reachable else None


def search_path(w: World, c: Creature, f: MoveField, to: Pos, blocked: np.ndarray, *, tag=None):
    """The path search of a move of ``c`` to ``to`` over ``blocked`` squares, from what its turn
    has spent of its movement (:func:`turn_spent`), remembered for the state of the fight
    (``w.cache.paths``; the AI asks the same questions before it moves). ``tag``: what was
    added to the occupancy's ``blocked`` (the squares round a web), part of the key."""
    spent = turn_spent(w, c)
    key = (id(f), c.id, c.pos, c.prone, tuple(to), spent, w.occupancy_signature(), tag)
    path = w.cache.paths.get(key)
    if path is None:
        path = w.cache.paths.put(key, find_path(f, c.pos, to, blocked=blocked, prone=c.prone, spent=spent))
    return path


def travel(w: World, c: Creature, t: Turn, to: Pos, *, budget: int, action: str, withdraw: bool = False):
    path = path_to(w, c, to)
    if isinstance(path, Impossible):
        return path
    sp = w.field(c).mover.speed_squares
    before = _actions_before(turn_spent(w, c), sp)  # move actions the turn has used already
    plan = steps_within(w, c, path.steps, budget)
    if not plan:
        return Impossible(armor.refusal(c, path.steps) or f"{c.name} cannot move toward {to} with the movement left")
    steps = begin_move(w, c, action)
    moved_any = False
    used = before  # move actions started, counted from the turn's start (the path's times are)
    last = None  # the last step taken
    for step in plan:
        if step.kind in ("escape_artist", "squeeze"):
            used += 1 if step.kind == "escape_artist" else 2
            if not escape_artist(w, c, step):
                break
            if take_step(w, c, step, steps, withdraw=withdraw and not moved_any):
                moved_any = True
            break  # an Escape Artist move takes the whole action: re-plan afterwards
        used = max(used, int(math.ceil(step.move_action)))
        if not take_step(w, c, step, steps, withdraw=withdraw and not moved_any):
            break
        moved_any = True
        last = step
    finish_move(w, c, steps, action)
    if action == "double_move" and not before:  # a double move (or a withdraw) takes both actions
        used = 2
    for _ in range(max(used - before, 1)):
        t.spend("move", c)
    if action == "withdraw":
        t.spend("full")
    t.moved = True
    # what the move leaves of the turn's budget, for a move action after it (RULES §6.1): where
    # its last walking step left the count, or whole actions after an Escape Artist attempt
    if last is not None and last.kind == "walk" and used == int(math.ceil(last.move_action)):
        t.move_ft, t.move_parity = int(last.clock_ft), int(last.parity) & 1
    else:
        t.move_ft, t.move_parity = 5 * sp * max(used, 1), 0
    t.walked_ft += sum(int(s["feet"]) for s in steps)
    return True


def movement_plan(w: World, c: Creature, to: Pos, *, budget: int) -> list:
    """The steps a move toward ``to`` would take now with ``budget`` more move actions (empty
    when it cannot get anywhere): lets a policy check a move before choosing it."""
    path = path_to(w, c, to)
    if isinstance(path, Impossible):
        return []
    return steps_within(w, c, path.steps, budget)


def steps_within(w: World, c: Creature, path_steps, budget: int) -> list:
    """The steps this movement can take (RULES §6.1) with ``budget`` more move actions: walking
    and crawling steps whose move action fits (the path's times count from the turn's start,
    so a move action after one that walked goes on with its budget), then at most one Escape
    Artist attempt (its own move action, or a full-round action for a tight squeeze), never
    stopping in another creature's square (§6.4) -- not even where a failed check would leave
    it."""
    out = []
    sp = w.field(c).mover.speed_squares
    spent_turn = turn_spent(w, c)
    before = _actions_before(spent_turn, sp)
    used = before
    budget = min(2, budget + before)  # the steps of this turn only
    # effectively blinded (its square dark to it, RULES §9.2): half speed, every foot paid twice
    # (after a move action that walked with room to spare, what it walked counts against the
    # double move; after any other action, that action's whole speed)
    blind_budget = budget * c.speed_ft_value() if w.blinded(c) else None
    spent = 0
    extra = 0
    if before:
        walk_on = spent_turn[0] < 5 * sp * before and w.turn is not None
        spent = 2 * w.turn.walked_ft if walk_on else before * c.speed_ft_value()
    for step in path_steps:
        if armor.step_refused(c, step):
            break  # medium or heavy armor comes off first (RULES §2.4, §7.33)
        if blind_budget is not None:
            spent += 2 * (step.feet + zones.extra_feet(w, c, step))
            if spent > blind_budget:
                break
        if step.kind in ("escape_artist", "squeeze"):
            need = 1 if step.kind == "escape_artist" else 2
            if step.kind == "squeeze" and (used > 0 or c.nauseated):
                break
            if used + need <= budget:
                out.append(step)
            break
        extra += zones.extra_feet(w, c, step)   # a greased square: half speed (docs/rules.md §8.1)
        act = int(math.ceil(step.move_action))
        if extra:   # the feet so far, the greased ones twice, over the speed
            act = max(act, -(-(int(step.clock_ft) + extra) // (5 * sp)))
        if act > budget:
            break
        used = max(used, act)
        out.append(step)
    if w.magic.zones:
        out = zones.web_cut(w, c, out)   # a web stops a move where it may end (docs/rules.md §8.3)
    _, no_end = w.occupancy_masks(c)

    def free(p) -> bool:
        return tuple(p) == tuple(c.pos) or not no_end[p[1], p[0]]

    while out:
        last = out[-1]
        if last.kind in ("escape_artist", "squeeze"):
            before = out[-2].at if len(out) > 1 else c.pos
            if free(last.at) and free(before):
                break
        elif free(last.at):
            break
        out.pop()
    return out


def escape_artist(w: World, c: Creature, step) -> bool:
    if w.amorphous(c):
        return True   # an amorphous ooze flows through: no check, the square still takes its action (§11.12)
    return skill_check(w, c, "escape_artist", int(step.dc), int(c.block.escape_artist), step.category.lower(),
                       at=tuple(step.at))


def take_step(w: World, c: Creature, step, done_steps: list, *, withdraw: bool = False, five_ft: bool = False) -> bool:
    """Take one step, resolving attacks of opportunity for leaving threatened squares first.
    Returns False if the creature can no longer move (it fell, slipped on grease, or split)."""
    if zones.stuck(w, c):
        return False  # it failed grease's Balance check this round (§8.1), or a web holds it fast (§8.3)
    if step.kind != "stand" and w.magic.zones and not zones.web_step(w, c, step):
        return False  # its check to move through the web this round gave no more feet (docs/rules.md §8.3)
    was_greased = bool(w.magic.zones) and bool(set(c.squares) & zones.greased(w))
    roster = len(w.creatures)
    if step.kind != "stand":
        if not five_ft and not withdraw:
            provoke_for_leaving(w, c, step.at)
        if not c.in_fight or len(w.creatures) != roster:
            return False   # it fell, or split and stops where it is (docs/rules.md §11.14)
    else:
        attacks.provoke(w, c, "stand_up")
        if not c.in_fight:
            return False
    old_squares = list(c.squares)
    if step.kind == "stand":
        c.prone = False
    else:
        w.place(c, tuple(step.at), trail_step=True)
        if step.kind in ("crawl",) or w.field(c).prone[step.at[1], step.at[0]]:
            c.prone = True
        if c.is_swarm:
            swarm_flow(w, c, old_squares)
    done_steps.append({"at": list(step.at), "category": step.category, "kind": step.kind, "feet": int(step.feet)})
    if step.kind == "crawl" and not c.is_swarm:
        # crawling provokes from every creature threatening the crawler at any point of the
        # crawl (RULES §5.1): arriving in a threatened square too, once per enemy per move
        provoke_for_leaving(w, c, step.at, why="crawling")
        if not c.in_fight or len(w.creatures) != roster:
            return False
    if step.kind != "stand" and not zones.entered(w, c, was_greased):
        return False
    if w.magic.zones and step.kind != "stand":
        zones.after_step(w, c)   # caught by a web walked into, or free of it (docs/rules.md §8.3)
        if zones.stuck(w, c) or not c.in_fight:
            return False
    return True


def swarm_flow(w: World, c: Creature, old_squares: list[Pos]) -> None:
    f = w.field(c)
    passable = f.mode != BLOCKED
    lead = c.pos
    shapes = flow(old_squares[-4:] if old_squares else [lead], [c.trail[-1] if c.trail else lead, lead],
                  passable, size=4)
    c.squares = shapes[-1] if shapes else [lead]
    provoke_for_entering(w, c, old_squares)
    shape_event(w, c)


def begin_move(w: World, c: Creature, action: str) -> list:
    steps: list = []
    w.movement.pending = (c, steps, action)
    return steps


def finish_move(w: World, c: Creature, steps: list, action: str) -> None:
    if c.is_swarm and c.in_fight:
        f = w.field(c)
        c.squares = best_shape(f.mode != BLOCKED, c.pos, mode=w.settings.get("swarm_shape", "any"),
                               score=w.swarm_score(c))
        shape_event(w, c)
    if steps or not w.movement.pending or w.movement.pending[0] is not c:
        w.emit(Moved(round=w.round, actor=c.id, path=tuple(steps), squares=tuple(c.squares),
                        prone=c.prone, action=action))
    w.movement.pending = None
    w.movement.provoked = None


def provoke_for_leaving(w: World, c: Creature, to: Pos, *, why: str = "leaving") -> None:
    """Leaving a threatened square provokes, once per enemy per move (RULES §6.6, §7.27); so
    does being threatened anywhere along a crawl (``why="crawling"``, §5.1)."""
    already = w.movement.provoked
    if already is None or already[0] != (w.round, c.id):
        w.movement.provoked = ((w.round, c.id), set())
    seen = w.movement.provoked[1]
    cur = set(c.squares)
    for o in list(w.creatures.values()):
        if o.team == c.team or o.id in seen or not o.in_fight:
            continue
        t = attacks.threatens(w, o)
        if cur & t:
            seen.add(o.id)
            attacks.attack_of_opportunity(w, o, c, why)
            if not c.in_fight:
                return


def provoke_for_entering(w: World, swarm: Creature, old_squares: list[Pos]) -> None:
    """A swarm entering an opponent's space provokes (§4.2), once per opponent per move (§7.27)."""
    already = w.movement.provoked
    if already is None or already[0] != (w.round, swarm.id):
        w.movement.provoked = ((w.round, swarm.id), set())
    seen = w.movement.provoked[1]
    new = set(swarm.squares) - set(old_squares)
    for o in list(w.creatures.values()):
        if o.team == swarm.team or o.id in seen or not o.in_fight or o.is_swarm:
            continue
        if new & set(o.squares) and not (set(old_squares) & set(o.squares)):
            seen.add(o.id)
            attacks.attack_of_opportunity(w, o, swarm, "entering")
            if not swarm.in_fight:
                return


def do_five_foot_step(w: World, c: Creature, t: Turn, a: FiveFootStep):
    if t.moved or t.stepped:
        return Impossible("already moved this round: no 5-ft step")
    if c.nauseated:
        return Impossible(f"{c.name} is nauseated: a move action only, no 5-ft step ([PD] §5.2)")
    if c.speed_ft_value() <= 5:
        return Impossible("a creature of speed 5 ft or less cannot take a 5-ft step")
    if distance_squares(c.pos, a.to) != 1:
        return Impossible("a 5-ft step goes to an adjacent square")
    f = w.field(c)
    here = attacks.standing_category(w, c)
    there = Category(int(f.category[a.to[1], a.to[0]])) if w.grid.in_bounds(a.to) else Category.IMPASSABLE
    if not effects(here).five_foot_step or not effects(there).five_foot_step or f.mult[a.to[1], a.to[0]] != 1:
        return Impossible("no 5-ft step into or inside constricted squares or difficult terrain (§7.36)")
    if c.prone:
        return Impossible("prone: stand up first")
    path = path_to(w, c, a.to)
    if isinstance(path, Impossible):
        return path
    if len(path.steps) != 1:
        return Impossible("that square is not one step away")
    steps = begin_move(w, c, "five_foot_step")
    take_step(w, c, path.steps[0], steps, five_ft=True)
    steps[:] = [dict(s, kind="step") for s in steps]
    finish_move(w, c, steps, "five_foot_step")
    t.stepped = True
    return True


def do_withdraw(w: World, c: Creature, t: Turn, a: Withdraw):
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    if t.stepped:
        return Impossible("took a 5-ft step: no other movement this round")
    return travel(w, c, t, a.to, budget=2, action="withdraw", withdraw=True)


def do_charge(w: World, c: Creature, t: Turn, a: Charge):
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    if "entangled" in c.conditions:
        return Impossible(f"{c.name} is entangled: no running or charging (SRD Conditions)")
    if t.stepped:
        return Impossible("took a 5-ft step: no other movement this round")
    target = w.creatures.get(a.target)
    if target is None:
        return Impossible(f"no creature {a.target!r}")
    why = attack_actions.unperceived_reason(w, c, target)  # a charge needs a target it perceives (RULES §9.2)
    if why:
        return Impossible(why)
    att = attack_actions.attack_for(w, c, a.attack)
    if isinstance(att, Impossible) or att.mode != "melee":
        return Impossible("a charge needs a melee weapon in hand")
    dest = charge_square(w, c, target, att)
    if isinstance(dest, Impossible):
        return dest
    path = path_to(w, c, dest)
    if isinstance(path, Impossible):
        return path
    steps = begin_move(w, c, "charge")
    for step in path.steps:
        if not take_step(w, c, step, steps):
            break
    steps[:] = [dict(s, kind="charge") for s in steps]
    finish_move(w, c, steps, "charge")
    t.spend("full")
    t.moved = True
    if c.in_fight and target.alive:
        plan = attacks.plan_attack(w, c, att, target, kind="charge")
        if plan:
            attacks.resolve_attack(w, plan)
    c.charged = True
    return True


def do_run(w: World, c: Creature, t: Turn, a: Run):
    why = t.needs(c, full=True)
    if why:
        return Impossible(why)
    if "entangled" in c.conditions:
        return Impossible(f"{c.name} is entangled: no running or charging (SRD Conditions)")
    if t.stepped:
        return Impossible("took a 5-ft step: no other movement this round")
    lane = run_lane(w, c, tuple(a.to))
    if isinstance(lane, Impossible):
        return lane
    steps = begin_move(w, c, "run")
    for step in lane.steps:
        if not take_step(w, c, step, steps):
            break
    steps[:] = [dict(s, kind="run") for s in steps]
    finish_move(w, c, steps, "run")
    t.spend("full")
    t.moved = True
    if c.in_fight and not c.block.has_feat("run"):
        damage.set_status(w, c, "running", "run")  # no Dex to AC until its next turn
    return True


def run_lane(w: World, c: Creature, to: Pos):
    """The path of a run to ``to`` (§6.5), or why there is none: a straight line from square
    centre to square centre, every square on it open and Clear for this creature and not
    difficult, no enemy on it, ``to`` free; at most 4 x speed (3 x in heavy armor), 5-10-5."""
    f = w.field(c)
    if c.prone:
        return Impossible("prone: stand up before running")
    if not effects(attacks.standing_category(w, c)).run_charge:
        return Impossible("no running in a constricted space (§2.4)")
    if not w.grid.in_bounds(to) or to == c.pos:
        return Impossible("run to another square on the map")
    heavy = c.block.armor is not None and c.block.armor.kind == "heavy" and not c.armor_off
    times = combat_modifier("movement", "run_heavy" if heavy else "run")
    if distance_squares(c.pos, to) * 5 > times * c.speed_ft_value():
        return Impossible(f"too far to run: {distance_squares(c.pos, to) * 5} ft, at most {times} x speed "
                          f"= {times * c.speed_ft_value()} ft")
    blocked, no_end = w.occupancy_masks(c)
    if no_end[to[1], to[0]] or blocked[to[1], to[0]]:
        return Impossible(f"{to} is occupied")
    line = [c.pos] + [q for q in squares_on_segment((c.pos[0] + 0.5, c.pos[1] + 0.5), (to[0] + 0.5, to[1] + 0.5))
                      if q != c.pos]
    for (x, y) in line[1:]:
        if not w.grid.in_bounds((x, y)) or f.mode[y, x] != 1 or f.category[y, x] != Category.CLEAR \
                or f.mult[y, x] != 1:
            return Impossible("the run is not a straight line over clear ground (constricted, difficult or "
                              "blocked squares on the way)")
        if blocked[y, x]:
            return Impossible("an enemy stands in the way")
    off_line = np.ones(w.grid.shape, dtype=bool)
    for (x, y) in line:
        off_line[y, x] = False
    path = find_path(f, c.pos, to, blocked=off_line | blocked, prone=False)
    if not path.reachable:
        return Impossible("the run is not a straight line over clear ground")
    return path


def charge_square(w: World, c: Creature, target: Creature, att) -> Pos | Impossible:
    """The charge rules (§6.5): at least 10 ft, at most double speed, straight at the target,
    ending in the nearest square from which it can attack; every square on the way clear
    (no constricted or difficult squares, no creatures); not from or into constricted squares."""
    f = w.field(c)
    speed_sq = c.speed_ft_value() // 5
    if not effects(attacks.standing_category(w, c)).run_charge:
        return Impossible("no charging in a constricted space (§2.4)")
    if c.prone:
        return Impossible("prone: no charge")
    reach = int(att.reach_ft or c.reach_ft())
    blocked, no_end = w.occupancy_masks(c)
    best = None
    if c.k == 1:  # one square: every candidate at once, the same choice (nearest, then row-major first)
        best = _charge_end_1(f, c.pos, speed_sq, no_end, target.squares, reach)
    for dy in range(-speed_sq * 2, speed_sq * 2 + 1) if c.k > 1 else ():
        for dx in range(-speed_sq * 2, speed_sq * 2 + 1):
            p = (c.pos[0] + dx, c.pos[1] + dy)
            d = distance_squares(c.pos, p)  # the cheap tests first (a square not nearer than the best loses)
            if d < 2 or d > 2 * speed_sq or (best is not None and d >= best[0]):
                continue
            if not w.grid.in_bounds(p) or f.mode[p[1], p[0]] == BLOCKED or no_end[p[1], p[0]]:
                continue
            sq = f.occupied(p, [])
            if footprint_distance_ft(sq, target.squares) > reach:
                continue
            best = (d, p)
    if best is None:
        return Impossible(f"no square to charge {target.name} from")
    p = best[1]
    # the line from start to end must be clear: open, not constricted, not difficult, no creatures
    x0, y0 = c.pos[0] + 0.5, c.pos[1] + 0.5
    x1, y1 = p[0] + 0.5, p[1] + 0.5
    if not segment_clear(w.grid.edges, (x0, y0), (x1, y1)):
        return Impossible("a wall between squares crosses the charge lane (docs/rules.md §6.8)")
    for (x, y) in squares_on_segment((x0, y0), (x1, y1)):
        if (x, y) == c.pos:
            continue
        if not w.grid.in_bounds((x, y)) or f.mode[y, x] != 1 or f.category[y, x] != Category.CLEAR:
            return Impossible("the charge lane is not clear (constricted, difficult or blocked)")
        if f.mult[y, x] != 1 or blocked[y, x] or (no_end[y, x] and (x, y) != p):
            return Impossible("the charge lane is not clear")
    return p


def do_drop_prone(w: World, c: Creature, t: Turn, a: DropProne):
    if c.prone:
        return Impossible("already prone")
    c.prone = True
    w.emit(ActionTaken(round=w.round, actor=c.id, action="drop_prone"))
    w.emit(Condition(round=w.round, target=c.id, condition="prone", active=True))
    return True


def do_stand_up(w: World, c: Creature, t: Turn, a: StandUp):
    why = t.needs(c, move=True)
    if why:
        return Impossible(why)
    if not c.prone:
        return Impossible("not prone")
    if w.field(c).prone[c.pos[1], c.pos[0]]:
        return Impossible("the ceiling is too low to stand up here")
    attacks.provoke(w, c, "stand_up")
    t.spend("move", c)
    if c.in_fight:
        c.prone = False
        w.emit(ActionTaken(round=w.round, actor=c.id, action="stand_up"))
        w.emit(Condition(round=w.round, target=c.id, condition="prone", active=False))
    return True


def _charge_end_1(f: MoveField, pos: Pos, speed_sq: int, no_end: np.ndarray, target_squares, reach: int):
    """The end square of a one-square creature's charge, as ``(d, (x, y))`` or None: the nearest
    (5-10-5 squares from ``pos``, at least 2 and at most double speed) free square where it can
    stand within ``reach`` ft of the target; ties go to the first in row-major order."""
    rows, cols = f.mode.shape
    r = 2 * speed_sq
    y0, y1 = max(0, pos[1] - r), min(rows, pos[1] + r + 1)
    x0, x1 = max(0, pos[0] - r), min(cols, pos[0] + r + 1)
    if y0 >= y1 or x0 >= x1:
        return None
    yy, xx = np.mgrid[y0:y1, x0:x1]
    d = distance_squares_grid(xx - pos[0], yy - pos[1])
    ok = (d >= 2) & (d <= r) & (f.mode[y0:y1, x0:x1] != BLOCKED) & ~no_end[y0:y1, x0:x1]
    near = np.zeros(ok.shape, dtype=bool)
    for tx, ty in target_squares:
        near |= 5 * distance_squares_grid(xx - tx, yy - ty) <= reach
    ok &= near
    if not ok.any():
        return None
    i = int(np.argmin(np.where(ok, d, np.iinfo(np.int64).max)))
    return int(d.flat[i]), (int(xx.flat[i]), int(yy.flat[i]))


def _squeezing(w: World, c: Creature) -> None:
    """Rounds spent squeezing: standing in any constricted category, Narrow or Low up to Tight
    Squeeze (docs/rules.md §2.1: everything between Clear and Impassable; issue 31 item 5)."""
    if c.is_swarm or not c.in_fight or not c.squares:
        return
    cat = attacks.standing_category(w, c)
    if Category.NARROW_OR_LOW <= cat < Category.IMPASSABLE:
        c.squeezing_rounds += 1


def _poor_flier(w: World, c: Creature) -> None:
    """A poor or clumsy flier that moved less than half its fly speed this turn must land
    (RULES §6.7: the locust swarm); it takes off again when it next moves far enough."""
    sp = c.block.speed
    if not c.alive or not sp.fly or sp.maneuverability not in ("poor", "clumsy"):
        return
    feet = sum(st["feet"] for e in w.events[w.turn_mark:]
               if e.type == "moved" and e.actor == c.id for st in e.path)
    if feet * 2 < sp.fly:
        damage.set_status(w, c, "landed", "slow_flight")
    else:
        damage.clear_status(w, c, "landed", "took_off")


MOVEMENT = Mechanic("movement", actions={Move: do_move, FiveFootStep: do_five_foot_step, Withdraw: do_withdraw,
                                         Run: do_run, Charge: do_charge, DropProne: do_drop_prone,
                                         StandUp: do_stand_up},
                    start_of_turn=_squeezing, end_of_turn=_poor_flier, part=Part("movement", Movement))

