"""Distance maps, paths and reach: pure functions over a :class:`MoveField` (RULES §6, §2.4).

Times are counted in move actions (two a round). A walking move action holds up to the
creature's speed in squares; crawling takes a whole move action per square; Escape Artist takes
a move action per try in Awkward Space and a full-round action per try in a Tight Squeeze. The
*guaranteed* time uses take 10 / take 20 where the mover may (out of combat); the *expected*
time uses the per-try success probability when rolling (each try succeeds on
``(21 - (DC - modifier)) / 20``).

>>> from sim.grid import CaveGrid
>>> from sim.movement import Mover, move_field
>>> from sim.rules.bodies import body_for
>>> g = CaveGrid.from_arrays([[10] * 8] * 8, [[10] * 8] * 8)
>>> f = move_field(g, Mover(body_for("medium"), speed_ft=30))
>>> p = find_path(f, (0, 0), (4, 4))     # four diagonals: 5 + 10 + 5 + 10 ft
>>> p.feet, p.move_actions, p.rounds
(30, 1.0, 1)
>>> d = distance_map(f, (0, 0))
>>> int(d.feet[4, 4]), int(d.feet[6, 6])   # 6 diagonals = 45 ft: a second move action
(30, 45)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.coords import ij, xy
from sim.movement import kernel
from sim.movement.costs import Tries
from sim.movement.field import AWKWARD, BLOCKED, TIGHT, MoveField
from sim.rules.categories import Category, effects

UNREACHED = kernel.UNREACHED


@dataclass(frozen=True, slots=True)
class _Plan:
    """Kernel parameters for one time model."""

    M: int
    awk_units: int
    tight_units: int


def _dc(cat: Category) -> int:
    dc = effects(cat).escape_dc
    assert dc is not None
    return int(dc)


def _plan(field: MoveField, *, expected: bool, assume_success: bool = False) -> _Plan:
    mover = field.mover
    if assume_success:  # reach: one try per action; its odds are reported beside it
        return _Plan(1, 1, 2)
    awk = mover.tries(_dc(Category.AWKWARD))
    tight = mover.tries(_dc(Category.TIGHT_SQUEEZE))
    if not expected:
        return _Plan(1, awk.guaranteed or 0, 2 * (tight.guaranteed or 0))
    ea, et = awk.expected, tight.expected
    denoms = [x.denominator for x in (ea, et) if x is not None]
    M = math.lcm(*denoms) if denoms else 1
    return _Plan(M, int(ea * M) if ea is not None else 0, int(2 * et * M) if et is not None else 0)


def _check_start(field: MoveField, pos: tuple[int, int], what: str) -> None:
    x, y = pos
    rows, cols = field.shape
    if not (0 <= x < cols and 0 <= y < rows):
        raise ValueError(f"{what} ({x}, {y}) is off the map ({cols}x{rows})")
    if field.grid.rock[y, x]:
        raise ValueError(f"{what} ({x}, {y}) is solid rock")
    if field.mode[y, x] == BLOCKED:
        raise ValueError(f"{what} ({x}, {y}) is a square where this creature cannot stand "
                         f"({Category(field.category[y, x]).label})")


# bits of the direction mask that leave a window through each side (kernel.DIRS order)
_EDGE_BITS = {"top": 0b00110001, "bottom": 0b11000010, "left": 0b01010100, "right": 0b10101000}


def _run(field: MoveField, start, plan: _Plan, *, goal=None, max_key=None, blocked=None, prone=None,
         window=None, track=True):
    sp = field.mover.speed_squares
    K = sp + 1
    mode, mult, prone_sq, dirs = field.mode, field.mult, field.prone, field.dirs
    blk = None if blocked is None else np.asarray(blocked, dtype=bool)
    r0 = c0 = 0
    if window is not None:
        r0, r1, c0, c1 = window
        mode, mult, prone_sq = (np.ascontiguousarray(a[r0:r1, c0:c1]) for a in (mode, mult, prone_sq))
        dirs = dirs[r0:r1, c0:c1].copy()
        dirs[0, :] &= ~np.uint8(_EDGE_BITS["top"])
        dirs[-1, :] &= ~np.uint8(_EDGE_BITS["bottom"])
        dirs[:, 0] &= ~np.uint8(_EDGE_BITS["left"])
        dirs[:, -1] &= ~np.uint8(_EDGE_BITS["right"])
        if blk is not None:
            blk = blk[r0:r1, c0:c1]
    R, C = mode.shape
    sr, sc = ij(start)
    sr -= r0
    sc -= c0
    if prone is None:
        prone = bool(field.prone[ij(start)])
    goal_cell = -1
    if goal is not None:
        gr, gc = ij(goal)
        goal_cell = (gr - r0) * C + (gc - c0)
    span = (max(4 * plan.M, 2 * plan.M + plan.tight_units, plan.awk_units) + 1) * K + sp + 2
    nb = 1 << max(4, span.bit_length())  # a power of two above the largest label increase
    n = R * C * 3
    key = np.full(n, UNREACHED, dtype=np.int32)
    pred = np.empty(n, dtype=np.int32)
    walked = np.empty(n, dtype=np.int32)
    s_cell = sr * C + sc
    if sp == 0:  # speed 0: it cannot move at all
        s0 = s_cell * 3 + (2 if prone else 0)
        key[s0] = 0
        pred[s0] = -1
        walked[s0] = 0
        return key, pred, walked, (s0 if goal_cell == s_cell else -1), (r0, c0, R, C), K
    has_blk = blk is not None
    blk_flat = np.ascontiguousarray(blk).ravel() if has_blk else np.zeros(1, dtype=np.bool_)
    goal_state, _ = kernel.search(mode.ravel(), mult.ravel(), prone_sq.ravel(), dirs.ravel(), blk_flat, has_blk,
                                  R, C, s_cell, bool(prone), sp, plan.M, plan.awk_units, plan.tight_units,
                                  UNREACHED - 1 if max_key is None else max_key, goal_cell, nb,
                                  key, pred, walked, track)
    return key, pred, walked, goal_state, (r0, c0, R, C), K


def _actions(key: np.ndarray | int, K: int, M: int):
    return (np.asarray(key) // K) / M


@dataclass(frozen=True, slots=True, eq=False)
class DistanceMap:
    """Time from ``start`` to every square. Unreachable squares: ``actions`` NaN, ``feet`` and
    ``rounds`` -1.

    ``actions``: move actions used (fractional for expected times); ``feet``: the same time in
    feet of movement, a move action counting as the creature's whole speed (so 5-10-5 diagonals,
    x2 / x4 squares, and a crawl square = a whole move action all show); ``rounds``:
    ``ceil(actions / 2)``."""

    start: tuple[int, int]
    expected: bool
    actions: np.ndarray   # float64 [row, col]
    feet: np.ndarray      # int32 [row, col]
    rounds: np.ndarray    # int32 [row, col]

    def reachable(self) -> np.ndarray:
        return self.feet >= 0


def distance_map(field: MoveField, start: tuple[int, int], *, expected: bool = False, blocked=None,
                 prone: bool | None = None) -> DistanceMap:
    """Exact-rule time from ``start`` to every square (guaranteed, or ``expected=True``)."""
    _check_start(field, start, "start")
    plan = _plan(field, expected=expected)
    key, _, _, _, _, K = _run(field, start, plan, blocked=blocked, prone=prone, track=False)
    R, C = field.shape
    actions = np.empty((R, C), dtype=np.float64)
    feet = np.empty((R, C), dtype=np.int32)
    rounds = np.empty((R, C), dtype=np.int32)
    kernel.collapse(key, K, plan.M, field.mover.speed_squares, actions.ravel(), feet.ravel(), rounds.ravel())
    for a in (actions, feet, rounds):
        a.flags.writeable = False
    return DistanceMap(start=start, expected=expected, actions=actions, feet=feet, rounds=rounds)


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a path: the square entered (or stood up in), its category, the movement it
    cost in feet, what kind of move it was, and the move action it ends in."""

    at: tuple[int, int]
    category: str
    feet: int
    kind: str            # walk | crawl | stand | escape_artist | squeeze
    move_action: float
    tries: float = 0     # Escape Artist tries (guaranteed model)
    dc: int = 0
    probability: float = 1.0

    def to_json(self) -> dict:
        d = {"at": list(self.at), "category": self.category, "feet": self.feet, "kind": self.kind,
             "move_action": self.move_action}
        if self.dc:
            d.update(dc=self.dc, tries=self.tries, probability=self.probability)
        return d


@dataclass(frozen=True, slots=True)
class Path:
    reachable: bool
    squares: list[tuple[int, int]]
    steps: list[Step]
    feet: int
    move_actions: float | None       # guaranteed (None: no guaranteed way, e.g. rolls in combat)
    expected_move_actions: float | None

    @property
    def rounds(self) -> int | None:
        return None if self.move_actions is None else math.ceil(self.move_actions / 2)

    @property
    def expected_rounds(self) -> float | None:
        return None if self.expected_move_actions is None else self.expected_move_actions / 2

    def to_json(self) -> dict:
        return {
            "reachable": self.reachable,
            "squares": [list(s) for s in self.squares],
            "steps": [s.to_json() for s in self.steps],
            "feet": self.feet,
            "move_actions": self.move_actions,
            "rounds": self.rounds,
            "expected_move_actions": self.expected_move_actions,
            "expected_rounds": self.expected_rounds,
        }


NO_PATH = Path(False, [], [], 0, None, None)


def _states(pred: np.ndarray, goal_state: int) -> list[int]:
    out = []
    s = goal_state
    while s >= 0:
        out.append(int(s))
        s = int(pred[s])
    return out[::-1]


def find_path(field: MoveField, start: tuple[int, int], goal: tuple[int, int], *, blocked=None,
              prone: bool | None = None) -> Path:
    """The fastest path from ``start`` to ``goal``: guaranteed time when one exists (take 10 /
    take 20 out of combat), else the fastest expected time. Both totals are reported."""
    _check_start(field, start, "start")
    _check_start(field, goal, "goal")
    gplan = _plan(field, expected=False)
    eplan = _plan(field, expected=True)
    key, pred, walked, gs, _, K = _run(field, start, gplan, goal=goal, blocked=blocked, prone=prone)
    plan = gplan
    if gs < 0:
        key, pred, walked, gs, _, K = _run(field, start, eplan, goal=goal, blocked=blocked, prone=prone)
        plan = eplan
        if gs < 0:
            return NO_PATH
    base = (gs // 3) * 3  # among the goal's states with the same time, the least movement
    gs = min((b for b in range(base, base + 3) if key[b] == key[gs]), key=lambda b: walked[b])
    states = _states(pred, gs)
    C = field.shape[1]
    squares: list[tuple[int, int]] = []
    for s in states:
        p = xy(divmod(s // 3, C))
        if not squares or squares[-1] != p:
            squares.append(p)
    # the same squares, timed by the other model (a search confined to the path)
    confine = np.ones(field.shape, dtype=bool)
    for p in squares:
        confine[ij(p)] = False
    if blocked is not None:
        confine |= np.asarray(blocked, dtype=bool)
    other = eplan if plan is gplan else gplan
    okey, _, _, ogs, _, oK = _run(field, start, other, goal=goal, blocked=confine, prone=prone)
    main_actions = float(_actions(key[gs], K, plan.M))
    other_actions = None if ogs < 0 else float(_actions(okey[ogs], oK, other.M))
    g_actions, e_actions = (main_actions, other_actions) if plan is gplan else (other_actions, main_actions)
    steps: list[Step] = []
    mover = field.mover
    for prev, s in zip(states, states[1:]):
        cell = s // 3
        p = xy(divmod(cell, C))
        cat = Category(field.category[ij(p)])
        feet = int(walked[s] - walked[prev])
        mode = int(field.mode[ij(p)])
        kind = "walk"
        dc = 0
        tries = 0.0
        prob = 1.0
        if prev // 3 == cell:
            kind = "stand"
        elif mode == AWKWARD or mode == TIGHT:
            kind = "escape_artist" if mode == AWKWARD else "squeeze"
            dc = _dc(cat)
            t: Tries = mover.tries(dc)
            tries = float(t.guaranteed) if t.guaranteed is not None else float(t.expected or 0)
            prob = float(t.probability)
        elif s % 3 == kernel.PRONE:
            kind = "crawl"
        steps.append(Step(at=p, category=cat.name, feet=feet, kind=kind,
                          move_action=float(_actions(key[s], K, plan.M)), tries=tries, dc=dc, probability=prob))
    return Path(True, squares, steps, int(walked[gs]), g_actions, e_actions)


@dataclass(frozen=True, slots=True)
class Reach:
    """Squares reachable this turn. ``single``: with one move action; ``double``: with two (a
    double move, its diagonals counted as one move; full-round squeezes included). Each entry is
    ``(x, y, feet)``; ``checks`` lists the Escape Artist squares on the way as ``(x, y, dc, p)``."""

    speed: int
    single: list[tuple[int, int, int]]
    double: list[tuple[int, int, int]]
    checks: list[tuple[int, int, int, float]]

    def to_json(self) -> dict:
        return {"speed": self.speed, "single": [list(t) for t in self.single],
                "double": [list(t) for t in self.double],
                "checks": [[x, y, dc, p] for x, y, dc, p in self.checks]}


def reach(field: MoveField, start: tuple[int, int], *, blocked=None, no_end=None,
          prone: bool | None = None) -> Reach:
    """Every square the creature can reach this turn, exactly by the budget rules (§6.1-6.3).

    Escape Artist squares count as reached with one successful try per action; their DC and
    success probability are listed in ``checks``. ``blocked`` squares cannot be entered (enemies),
    ``no_end`` squares may be crossed but not ended in (allies)."""
    _check_start(field, start, "start")
    sp = field.mover.speed_squares
    plan = _plan(field, expected=False, assume_success=True)
    K = sp + 1
    rad = 2 * sp + 2 + field.k
    x, y = start
    R, C = field.shape
    window = (max(0, y - rad), min(R, y + rad + 1), max(0, x - rad), min(C, x + rad + 1))
    key, pred, walked, _, (r0, c0, WR, WC), K = _run(field, start, plan, max_key=3 * K - 1, blocked=blocked,
                                                     prone=prone, window=window)
    k3 = key.reshape(WR, WC, 3)
    best = k3.min(axis=2)
    bstate = k3.argmin(axis=2)
    w = np.take_along_axis(walked.reshape(WR, WC, 3), bstate[..., None], axis=2)[..., 0]
    ok = best != UNREACHED
    if no_end is not None:
        ok &= ~np.asarray(no_end, dtype=bool)[window[0]:window[1], window[2]:window[3]]
    single, double = [], []
    rr, cc = np.nonzero(ok)
    for r, c in zip(rr.tolist(), cc.tolist()):
        n = int(best[r, c]) // K
        entry = (c + c0, r + r0, int(w[r, c]))
        if (c + c0, r + r0) == tuple(start):
            continue
        (single if n <= 1 else double).append(entry)
        if n <= 1:
            double.append(entry)
    checks = []
    mover = field.mover
    for sx, sy, _ in double:
        m = field.mode[sy, sx]
        if m == AWKWARD or m == TIGHT:
            cat = Category(field.category[sy, sx])
            dc = _dc(cat)
            checks.append((sx, sy, dc, float(mover.tries(dc).probability)))
    return Reach(speed=field.mover.speed_ft, single=sorted(single), double=sorted(double), checks=sorted(checks))
