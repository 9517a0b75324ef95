"""Distance maps, paths and reach: pure functions over a :class:`MoveField` (RULES §6, §2.4).

Times are counted in move actions (two a round). A walking move action holds up to the
creature's speed in squares, and the two move actions of a turn are one move of up to twice the
speed (a double move, RULES §6.1: what the first leaves goes on into the second, and the 5-10-5
count runs over both); crawling takes a whole move action per square; Escape Artist takes
a move action per try in Awkward Space and a full-round action per try in a Tight Squeeze. The
*guaranteed* time uses take 10 / take 20 where the mover may (out of combat); the *expected*
time uses the per-try success probability when rolling (each try succeeds on
``(21 - (DC - modifier)) / 20``).

>>> from sim.terrain.grid import CaveGrid
>>> from sim.terrain.movement import Mover, move_field
>>> from sim.rules.bodies import body_for
>>> g = CaveGrid.from_arrays([[10] * 8] * 8, [[10] * 8] * 8)
>>> f = move_field(g, Mover(body_for("medium"), speed_ft=30))
>>> p = find_path(f, (0, 0), (4, 4))     # four diagonals: 5 + 10 + 5 + 10 ft
>>> p.feet, p.move_actions, p.rounds
(30, 1.0, 1)
>>> d = distance_map(f, (0, 0))
>>> int(d.feet[4, 4]), int(d.feet[6, 6])   # 6 diagonals = 45 ft: a second move action
(30, 45)
>>> n = move_field(CaveGrid.from_arrays([[4] * 4], [[4] * 4]), Mover(body_for("medium"), speed_ft=30))
>>> p = find_path(n, (0, 0), (3, 0))       # Narrow and Low, x4: 3 x 20 ft in one double move
>>> p.feet, p.move_actions, p.rounds, p.last_turn_move_actions
(60, 2.0, 1, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.base.coords import ij
from sim.rules.categories import Category, effects
from sim.terrain.movement import kernel
from sim.terrain.movement.costs import Tries
from sim.terrain.movement.field import AWKWARD, BLOCKED, TIGHT, MoveField

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


_ONE_TRY = _Plan(1, 1, 2)  # reach: one try per action; its odds are reported beside it


def _plan(field: MoveField, *, expected: bool, assume_success: bool = False) -> _Plan:
    mover = field.mover
    if assume_success:
        return _ONE_TRY
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
    if field.mode[y, x] != BLOCKED:
        return  # (rock is BLOCKED for everyone: one look for the common case)
    if field.grid.rock[y, x]:
        raise ValueError(f"{what} ({x}, {y}) is solid rock")
    raise ValueError(f"{what} ({x}, {y}) is a square where this creature cannot stand "
                     f"({Category(field.category[y, x]).label})")


def _ring(field: MoveField, plan: _Plan) -> int:
    sp = field.mover.speed_squares
    return kernel.ring_size(sp, kernel.key_bits(sp), plan.M, plan.awk_units, plan.tight_units)


def _words(field: MoveField, start: tuple[int, int], blocked) -> np.ndarray:
    """The packed squares, flat; ``blocked`` squares (enemies) as if BLOCKED, corners unchanged
    (one may pass diagonally beside a creature), the start excepted."""
    words = field.words
    if blocked is not None:
        words = words.copy()
        blk = np.array(blocked, dtype=bool)  # a copy
        blk[ij(start)] = False
        words[blk.ravel()] &= np.uint16(~(7 << 8) & 0xFFFF)
    return words


def _start_prone(field: MoveField, start: tuple[int, int], prone: bool | None) -> bool:
    return bool(field.prone[ij(start)]) if prone is None else bool(prone)


def _run(field: MoveField, start, plan: _Plan, *, goal=None, max_key=None, blocked=None, prone=None, track=True):
    """The raw search, for tests and debugging: (key, pred, walked, goal state, (0, 0, R, C), K)
    over states ``square * 3 + (parity 0 | parity 1 | prone)``; a label is ``key = units * K +
    squares`` (``K = 2**kernel.key_bits(speed)``)."""
    sp = field.mover.speed_squares
    kb = kernel.key_bits(sp)
    R, C = field.shape
    N = R * C
    s_cell = ij(start)[0] * C + ij(start)[1]
    goal_cell = -1 if goal is None else ij(goal)[0] * C + ij(goal)[1]
    key = np.full(3 * N, UNREACHED, dtype=np.int32)
    pred = np.full(3 * N, -1, dtype=np.int32)
    walked = np.zeros(3 * N, dtype=np.int32)
    done = np.zeros(3 * N, dtype=np.uint8)
    start_prone = _start_prone(field, start, prone)
    if sp == 0:  # speed 0: it cannot move at all
        s0 = 2 * N + s_cell if start_prone else 2 * s_cell
        key[s0] = 0
        gs = s0 if goal_cell == s_cell else -1
    else:
        words = _words(field, start, blocked)
        togo = np.full(N, UNREACHED, dtype=np.int32)
        togo_cap = 0
        if goal_cell >= 0:
            togo_cap = kernel.squares_to_goal(words, C, goal_cell, s_cell, sp, plan.M, plan.awk_units,
                                              plan.tight_units, togo)
        gs = -1
        if togo_cap >= 0:
            gs, _ = kernel.run(words, C, s_cell, start_prone, sp, 0, sp, kb, plan.M, plan.awk_units, plan.tight_units,
                               UNREACHED - 1 if max_key is None else max_key, goal_cell, togo, togo_cap,
                               _ring(field, plan), key, pred, walked, done, track)

    def legacy(a):
        return np.stack([a[0:2 * N:2], a[1:2 * N:2], a[2 * N:]], axis=1).ravel()

    def state(s):
        s = np.asarray(s, dtype=np.int64) & ~kernel.CRAWLED_IN
        return np.where(s < 0, -1, np.where(s < 2 * N, s // 2 * 3 + s % 2, (s - 2 * N) * 3 + kernel.PRONE))

    return legacy(key), state(legacy(pred)), legacy(walked), int(state(gs)), (0, 0, R, C), 1 << kb


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
    sp = field.mover.speed_squares
    R, C = field.shape
    actions = np.empty((R, C), dtype=np.float64)
    feet = np.empty((R, C), dtype=np.int32)
    rounds = np.empty((R, C), dtype=np.int32)
    if sp == 0:  # speed 0: it cannot move at all
        actions.fill(np.nan)
        feet.fill(-1)
        rounds.fill(-1)
        actions[ij(start)] = feet[ij(start)] = rounds[ij(start)] = 0
    else:
        r, c = ij(start)
        with field.scratch.take() as work:
            work.pool = kernel.distance(_words(field, start, blocked), C, r * C + c, _start_prone(field, start, prone),
                                        sp, kernel.key_bits(sp), plan.M, plan.awk_units, plan.tight_units,
                                        _ring(field, plan), work.key, work.pool, actions.ravel(), feet.ravel(),
                                        rounds.ravel())
    for a in (actions, feet, rounds):
        a.flags.writeable = False
    return DistanceMap(start=start, expected=expected, actions=actions, feet=feet, rounds=rounds)


def whole_rounds(move_actions: float | None) -> int | None:
    """Whole rounds needed for ``move_actions`` (two move actions a round, RULES §6.1).

    >>> whole_rounds(3), whole_rounds(4), whole_rounds(None)
    (2, 2, None)
    """
    return None if move_actions is None else math.ceil(move_actions / 2)


def last_turn_actions(move_actions: float | None) -> int | None:
    """Move actions of the last turn for ``move_actions`` in all: 1 or 2 (0 for none).

    >>> last_turn_actions(3), last_turn_actions(4), last_turn_actions(0), last_turn_actions(None)
    (1, 2, 0, None)
    """
    if move_actions is None:
        return None
    whole = math.ceil(move_actions)
    return 0 if whole == 0 else whole - 2 * (math.ceil(whole / 2) - 1)


def expected_rounds(move_actions: float | None) -> float | None:
    """Expected rounds: expected move actions over two (a fraction)."""
    return None if move_actions is None else move_actions / 2


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a path: the square entered (or stood up in), its category, the movement it
    cost in feet, what kind of move it was, and the move action it ends in. ``clock_ft``: the
    time when it ends in feet of movement (as :attr:`DistanceMap.feet`: a move action counts
    the whole speed, so within a turn it is what the turn's movement has spent of its 2 x speed);
    ``parity``: the 5-10-5 diagonal count after it (0, 1; 2 prone)."""

    at: tuple[int, int]
    category: str
    feet: int
    kind: str            # walk | crawl | stand | escape_artist | squeeze
    move_action: float
    tries: float = 0     # Escape Artist tries (guaranteed model)
    dc: int = 0
    probability: float = 1.0
    clock_ft: int = 0
    parity: int = 0

    def to_json(self) -> dict:
        d = {"at": list(self.at), "category": self.category, "feet": self.feet, "kind": self.kind,
             "move_action": self.move_action}
        if self.dc:
            d.update(dc=self.dc, tries=self.tries, probability=self.probability)
        return d


def _clock_ft(units: int, f: int, M: int, sp: int) -> int:
    """A label as feet of movement: ``5 x ((actions - 1) x speed + squares used in the last)``."""
    return 0 if units == 0 else int(round(5 * ((units / M - 1) * sp + f)))


_KINDS = {kernel.KIND_WALK: "walk", kernel.KIND_CRAWL: "crawl", kernel.KIND_STAND: "stand",
          kernel.KIND_ESCAPE: "escape_artist", kernel.KIND_SQUEEZE: "squeeze"}
_CATEGORY_NAMES = tuple(c.name for c in Category)


class Steps(Sequence):
    """The steps of a path as a read-only sequence of :class:`Step`. A long path has hundreds of
    them, so they are made from the search's arrays when first looked at, not by the search."""

    __slots__ = ("_rows", "_M", "_sp", "_escape", "_items")

    def __init__(self, rows: np.ndarray, M: int, escape: dict[int, tuple[int, float, float]], sp: int = 0):
        self._rows = rows        # per step: x, y, category, kind, feet, label units, squares, parity (kernel.path)
        self._M = M
        self._sp = sp            # speed in squares (for the clock)
        self._escape = escape    # kind -> (DC, tries, probability)
        self._items: list[Step] | None = None

    def _all(self) -> list[Step]:
        if self._items is None:
            M, esc, sp = self._M, self._escape, self._sp
            self._items = [Step(at=(x, y), category=_CATEGORY_NAMES[cat], feet=ft, kind=_KINDS[kind],
                                move_action=units / M, tries=esc[kind][1], dc=esc[kind][0],
                                probability=esc[kind][2], clock_ft=_clock_ft(units, f, M, sp), parity=par)
                           if kind in esc else
                           Step(at=(x, y), category=_CATEGORY_NAMES[cat], feet=ft, kind=_KINDS[kind],
                                move_action=units / M, clock_ft=_clock_ft(units, f, M, sp), parity=par)
                           for x, y, cat, kind, ft, units, f, par in self._rows.tolist()]
        return self._items

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and self._all() == list(other)

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(frozen=True, slots=True)
class Path:
    reachable: bool
    squares: list[tuple[int, int]]
    steps: Sequence[Step]
    feet: int
    move_actions: float | None       # guaranteed (None: no guaranteed way, e.g. rolls in combat)
    expected_move_actions: float | None

    @property
    def rounds(self) -> int | None:
        return whole_rounds(self.move_actions)

    @property
    def expected_rounds(self) -> float | None:
        return expected_rounds(self.expected_move_actions)

    @property
    def last_turn_move_actions(self) -> int | None:
        """What the last turn of the way uses (guaranteed time): 1 (a move action) or 2 (a
        double move, or a full-round action); 0 for no movement. The time is ``rounds - 1``
        whole turns plus this."""
        return last_turn_actions(self.move_actions)

    def to_json(self) -> dict:
        return {
            "reachable": self.reachable,
            "squares": [list(s) for s in self.squares],
            "steps": [s.to_json() for s in self.steps],
            "feet": self.feet,
            "move_actions": self.move_actions,
            "rounds": self.rounds,
            "last_turn_move_actions": self.last_turn_move_actions,
            "expected_move_actions": self.expected_move_actions,
            "expected_rounds": self.expected_rounds,
        }


NO_PATH = Path(False, [], [], 0, None, None)


def _escape_steps(field: MoveField) -> dict[int, tuple[int, float, float]]:
    """Step kind -> (DC, tries, success probability) for the Escape Artist kinds."""
    out = {}
    for kind, cat in ((kernel.KIND_ESCAPE, Category.AWKWARD), (kernel.KIND_SQUEEZE, Category.TIGHT_SQUEEZE)):
        dc = _dc(cat)
        t: Tries = field.mover.tries(dc)
        tries = float(t.guaranteed) if t.guaranteed is not None else float(t.expected or 0)
        out[kind] = (dc, tries, float(t.probability))
    return out


def find_path(field: MoveField, start: tuple[int, int], goal: tuple[int, int], *, blocked=None,
              prone: bool | None = None, spent: tuple[int, int] = (0, 0)) -> Path:
    """The fastest path from ``start`` to ``goal``: guaranteed time when one exists (take 10 /
    take 20 out of combat), else the fastest expected time. Both totals are reported, the other
    one timing the same squares (a search confined to them).

    ``spent``: (feet, parity) the turn's movement has used already -- feet of its 2 x speed (a
    move action spent otherwise counts its whole speed), and the 5-10-5 diagonal parity it
    left -- for a second move action that goes on with the first one's budget (RULES §6.1).
    The times are then counted from the turn's start."""
    _check_start(field, start, "start")
    _check_start(field, goal, "goal")
    sp = field.mover.speed_squares
    if sp == 0:  # speed 0: it cannot move at all
        return Path(True, [tuple(start)], [], 0, 0.0, 0.0) if tuple(start) == tuple(goal) else NO_PATH
    gplan = _plan(field, expected=False)
    eplan = _plan(field, expected=True)
    C = field.shape[1]
    (sr, sc), (gr, gc) = ij(start), ij(goal)
    begin = _begin(spent, sp)
    with field.scratch.take() as work:
        used, rows, feet, other_units = kernel.path(
            _words(field, start, blocked), field.category.ravel(), C, sr * C + sc, gr * C + gc,
            _start_prone(field, start, prone), begin, sp, kernel.key_bits(sp),
            (gplan.M, gplan.awk_units, gplan.tight_units), (eplan.M, eplan.awk_units, eplan.tight_units),
            _ring(field, gplan), _ring(field, eplan), work.togo, work.key, work.pred, work.walked, work.done,
            work.words)
    if used < 0:
        return NO_PATH
    plan, other = (gplan, eplan) if used == 0 else (eplan, gplan)
    main_actions = int(rows[-1, 5]) / plan.M
    other_actions = None if other_units < 0 else int(other_units) / other.M
    g_actions, e_actions = (main_actions, other_actions) if used == 0 else (other_actions, main_actions)
    cells = rows[:, 0:2]
    keep = np.ones(len(rows), dtype=bool)
    keep[1:] = (cells[1:] != cells[:-1]).any(axis=1)  # standing up repeats the square
    squares = [tuple(p) for p in cells[keep].tolist()]
    return Path(True, squares, Steps(rows[1:], plan.M, _escape_steps(field), sp), int(feet), g_actions, e_actions)


def _begin(spent: tuple[int, int], sp: int) -> tuple[int, int, int]:
    """The kernel's start label (whole move actions, squares used in the last, parity) for
    ``spent`` = (feet the turn's movement has used, parity)."""
    feet, parity = spent
    if feet < 0 or feet % 5 or parity not in (0, 1):
        raise ValueError(f"spent movement must be feet >= 0 in 5-ft units and a parity 0 or 1, got {spent}")
    u = feet // 5
    if u == 0:
        return (0, sp, 0)
    a = -(-u // sp)
    return (int(a), int(u - (a - 1) * sp), int(parity))


@dataclass(slots=True, eq=False)
class Reach:
    """Squares reachable this turn. ``single``: with one move action; ``double``: with two (a
    double move: one move of up to twice the speed, its diagonals counted as one move, RULES
    §6.1; full-round squeezes included). Each is an
    ``(n, 3)`` int array of rows ``(x, y, feet)`` sorted by x then y (feet: the movement walked
    to get there), read-only; ``checks`` lists the Escape Artist squares on the way as ``(x, y,
    dc, p)``. (Not a frozen dataclass: building one costs a third of a microsecond more, and
    :func:`reach` is a hot path of the AI.)"""

    speed: int
    single: np.ndarray
    double: np.ndarray
    checks: list[tuple[int, int, int, float]]

    def to_json(self) -> dict:
        return {"speed": self.speed, "single": self.single.tolist(), "double": self.double.tolist(),
                "checks": [[x, y, dc, p] for x, y, dc, p in self.checks]}


_NONE = np.zeros(0, dtype=bool)


def _flat_mask(mask, shape) -> np.ndarray:
    if mask is None:
        return _NONE
    m = np.asarray(mask, dtype=bool)
    if m.shape != shape:
        raise ValueError(f"mask shape {m.shape} does not match the map {shape}")
    return np.ascontiguousarray(m).ravel()


def reach(field: MoveField, start: tuple[int, int], *, blocked=None, no_end=None,
          prone: bool | None = None) -> Reach:
    """Every square the creature can reach this turn, exactly by the budget rules (§6.1-6.3).

    Escape Artist squares count as reached with one successful try per action; their DC and
    success probability are listed in ``checks``. ``blocked`` squares cannot be entered (enemies),
    ``no_end`` squares may be crossed but not ended in (allies). One compiled call crops the
    window the turn can cover, searches it and lists the squares."""
    _check_start(field, start, "start")
    mover = field.mover
    sp = mover.speed_squares
    if sp == 0:  # speed 0: it cannot move at all
        none = np.zeros((0, 3), dtype=np.int64)
        return Reach(speed=mover.speed_ft, single=none, double=none, checks=[])
    x, y = start
    R, C = field.shape
    plan = _ONE_TRY  # (reach: every Escape Artist try succeeds; the odds go into ``checks``)
    out, n1, n2 = kernel.reach(field.words, R, C, int(x), int(y),
                               bool(field.prone[y, x]) if prone is None else bool(prone), sp,
                               (plan.M, plan.awk_units, plan.tight_units),
                               _NONE if blocked is None else _flat_mask(blocked, field.shape),
                               _NONE if no_end is None else _flat_mask(no_end, field.shape))
    out.flags.writeable = False
    checks = []
    if len(out) > n1 + n2:
        odds = {}
        for mode, cat in ((AWKWARD, Category.AWKWARD), (TIGHT, Category.TIGHT_SQUEEZE)):
            dc = _dc(cat)
            odds[mode] = (dc, float(mover.tries(dc).probability))
        checks = [(cx, cy, *odds[mode]) for cx, cy, mode in out[n1 + n2:].tolist()]
    return Reach(speed=mover.speed_ft, single=out[:n1], double=out[n1:n1 + n2], checks=checks)


@dataclass(frozen=True, slots=True, eq=False)
class WindowDistance:
    """:func:`distance_map` searched inside a box of the map only (``origin``: the box's
    north-west square; ``times``: a DistanceMap of the box's shape, in box coordinates).

    ``bound``: the fewest move actions to any square of the box from which a step leaves it (inf
    when none is reached). A path that leaves the box costs at least ``bound``, so a square the
    box's search reaches in fewer move actions has its exact whole-map times; a square reached in
    ``bound`` or more, or not at all, needs the whole-map search (or at least ``bound``)."""

    origin: tuple[int, int]
    times: DistanceMap
    bound: float

    def actions_at(self, p: tuple[int, int]) -> float:
        """Move actions to the map square ``p`` (NaN when the box's search did not reach it)."""
        x, y = p[0] - self.origin[0], p[1] - self.origin[1]
        a = self.times.actions
        if not (0 <= x < a.shape[1] and 0 <= y < a.shape[0]):
            return math.nan
        return float(a[y, x])


def distance_window(field: MoveField, start: tuple[int, int], box: tuple[int, int, int, int], *,
                    expected: bool = False, blocked=None, prone: bool | None = None) -> WindowDistance:
    """:func:`distance_map` from ``start`` within ``box`` = (x0, y0, x1, y1), inclusive, clipped
    to the map: the cost follows the box, not the map (issue 27: a creature's turn on a
    1024 x 1024 cave). The box's search is the whole map's with every square beyond the box
    as if BLOCKED: the kernel runs on a copy of the box's packed squares framed by one more
    square on each side inside the map, those frame squares BLOCKED (so no step leaves the copy:
    a square's open moves only lead to its eight neighbours), and ``bound`` says where its answer
    is exact (:class:`WindowDistance`)."""
    _check_start(field, start, "start")
    R, C = field.shape
    x0, y0 = max(0, box[0] - 1), max(0, box[1] - 1)
    x1, y1 = min(C - 1, box[2] + 1), min(R - 1, box[3] + 1)
    if not (x0 <= start[0] <= x1 and y0 <= start[1] <= y1):
        raise ValueError(f"start {start} outside the box {box}")
    words = field.words.reshape(R, C)[y0:y1 + 1, x0:x1 + 1].copy()
    h, w = words.shape
    if blocked is not None:
        blk = np.array(blocked[y0:y1 + 1, x0:x1 + 1], dtype=bool)
        blk[start[1] - y0, start[0] - x0] = False
        words[blk] &= np.uint16(~(7 << 8) & 0xFFFF)
    frame = np.zeros((h, w), dtype=bool)   # the squares beyond the box, inside the map
    frame[0, :] |= y0 < box[1]
    frame[-1, :] |= y1 > box[3]
    frame[:, 0] |= x0 < box[0]
    frame[:, -1] |= x1 > box[2]
    frame[start[1] - y0, start[0] - x0] = False
    words[frame] &= np.uint16(~(7 << 8) & 0xFFFF)
    plan = _plan(field, expected=expected)
    sp = field.mover.speed_squares
    actions = np.empty((h, w), dtype=np.float64)
    feet = np.empty((h, w), dtype=np.int32)
    rounds = np.empty((h, w), dtype=np.int32)
    s = (start[1] - y0, start[0] - x0)
    if sp == 0:
        actions.fill(np.nan)
        feet.fill(-1)
        rounds.fill(-1)
        actions[s] = feet[s] = rounds[s] = 0
    else:
        work = kernel.Work(h * w)
        kernel.distance(words.ravel(), w, s[0] * w + s[1], _start_prone(field, start, prone), sp, kernel.key_bits(sp),
                        plan.M, plan.awk_units, plan.tight_units, _ring(field, plan), work.key, work.pool,
                        actions.ravel(), feet.ravel(), rounds.ravel())
    edge = np.zeros((h, w), dtype=bool)   # squares a step from the frame
    edge[1:, :] |= frame[:-1, :]
    edge[:-1, :] |= frame[1:, :]
    edge[:, 1:] |= frame[:, :-1]
    edge[:, :-1] |= frame[:, 1:]
    edge[1:, 1:] |= frame[:-1, :-1]
    edge[1:, :-1] |= frame[:-1, 1:]
    edge[:-1, 1:] |= frame[1:, :-1]
    edge[:-1, :-1] |= frame[1:, 1:]
    out = actions[edge & (feet >= 0)]
    for a in (actions, feet, rounds):
        a.flags.writeable = False
    return WindowDistance(origin=(x0, y0), times=DistanceMap(start=s[::-1], expected=expected, actions=actions,
                                                             feet=feet, rounds=rounds),
                          bound=float(out.min()) if out.size else math.inf)
