"""Movement engine: hand-computed cases for each rule (RULES §2.4, §2.6-2.7, §5.1, §5.3, §6,
§7.30, §7.35-37) and agreement with a slow reference search on random caves."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, distance_map, escape_tries, find_path, move_field, reach
from sim.terrain.movement.field import AWKWARD, BLOCKED, CRAWL, TIGHT, WALK
from sim.terrain.movement.queries import _plan, _run
from sim.rules.bodies import body_for, swarm_body
from sim.rules.categories import Category as K

from .reference import exhaustive_labels, reference_labels

OPEN = (10, 12)


def cave(rows: list[str], legend: dict[str, tuple] | None = None) -> CaveGrid:
    """Build a grid from ASCII: '#' rock, '.' open 10 x 12 ft, others from ``legend``
    (glyph -> (width, height[, difficult]))."""
    legend = {"#": (0, 0), ".": OPEN, **(legend or {})}
    w = [[legend[ch][0] for ch in row] for row in rows]
    h = [[legend[ch][1] for ch in row] for row in rows]
    d = [[len(legend[ch]) > 2 and legend[ch][2] for ch in row] for row in rows]
    return CaveGrid.from_arrays(w, h, difficult=d)


def medium(speed=30, **kw):
    return Mover(body_for("medium"), speed_ft=speed, **kw)


# ---- 5-10-5 diagonals (§6.2) ----------------------------------------------------------------

def test_long_diagonal_run_alternates_over_the_whole_double_move():
    g = cave(["." * 12] * 12)
    d = distance_map(move_field(g, medium(30)), (0, 0))
    # k diagonals cost 5, 10, 5, 10...: 5 * (k + k // 2) feet while within one turn (8 diagonals)
    assert [int(d.feet[k, k]) for k in range(9)] == [0, 5, 15, 20, 30, 35, 45, 50, 60]
    assert [float(d.actions[k, k]) for k in range(1, 9)] == [1, 1, 1, 1, 2, 2, 2, 2]
    # the 9th diagonal starts a new turn: the count restarts, so it costs 5 ft (65 in all)
    assert int(d.feet[9, 9]) == 65 and float(d.actions[9, 9]) == 3


def test_parity_resets_at_a_new_turn_speed_20():
    g = cave(["." * 8] * 8)
    d = distance_map(move_field(g, medium(20)), (0, 0))
    # speed 20 = 4 squares an action. Diagonals 1,2,1 fill action 1; the 4th (2) opens action 2
    # (same turn: parity continues); 5th costs 1; the 6th would cost 2, does not fit and opens
    # action 3 = a new turn, where the count restarts: it costs 1.
    assert [float(d.actions[k, k]) for k in range(1, 7)] == [1, 1, 1, 2, 2, 3]
    # distance-map feet measure time: the square left over in action 2 counts (40 + 5)
    assert [int(d.feet[k, k]) for k in range(7)] == [0, 5, 15, 20, 30, 35, 45]
    p = find_path(move_field(g, medium(20)), (0, 0), (6, 6))
    assert [s.feet for s in p.steps] == [5, 10, 5, 10, 5, 5] and p.feet == 40  # walked


def test_diagonal_into_double_and_quadruple_squares():
    # '2' = narrow (x2 for a Medium creature: W 4), '4' = narrow and low (x4: W 4, C 4);
    # the squares beside the diagonal are as dear, so the diagonal is the best way
    f2 = move_field(cave([".2", "22"], {"2": (4, 12)}), medium(60))
    p = find_path(f2, (0, 0), (1, 1))
    assert p.squares == [(0, 0), (1, 1)] and p.steps[0].feet == 15  # 3 squares (§6.3)
    f4 = move_field(cave([".4", "44"], {"4": (4, 4)}), medium(60))
    assert f4.mult[1, 1] == 4
    p = find_path(f4, (0, 0), (1, 1))
    assert p.squares == [(0, 0), (1, 1)] and p.steps[0].feet == 30  # 6 squares


def test_diagonal_into_a_double_square_does_not_advance_the_count():
    f = move_field(cave([".2.", "222", ".2."], {"2": (4, 12)}), medium(60))
    p = find_path(f, (0, 0), (2, 2))
    assert [s.feet for s in p.steps] == [15, 5] and p.feet == 20  # not 15 + 10


def test_orthogonal_costs_and_difficult_terrain_stack():
    # '~' rubble, 'r' narrow rubble: x2 x2 = 4 per square, 6 diagonally (§6.3)
    g = cave(["~r", ".."], {"~": (10, 12, True), "r": (4, 12, True)})
    f = move_field(g, medium())
    assert f.mult[0, 0] == 2 and f.mult[0, 1] == 4
    d = distance_map(f, (0, 1))
    assert int(d.feet[0, 0]) == 10  # x2 orthogonally
    assert int(d.feet[0, 1]) == 25  # 5 ft then 20 ft orthogonally beats the 30-ft diagonal
    flier = move_field(g, Mover(body_for("medium"), speed_ft=30, flying=True))
    assert flier.mult[0, 0] == 1 and flier.mult[0, 1] == 2  # fliers ignore rubble, not widths


def test_no_diagonal_past_a_rock_corner():
    g = cave([".#", ".."])
    p = find_path(move_field(g, medium()), (0, 0), (1, 1))
    assert p.squares == [(0, 0), (0, 1), (1, 1)] and p.feet == 10
    g2 = cave(["..", ".."])
    assert find_path(move_field(g2, medium()), (0, 0), (1, 1)).feet == 5


def test_step_dearer_than_speed_needs_a_full_round():
    # speed 5 ft, a x2 square: only the minimum-movement full-round action moves it (§6.1, §6.3)
    g = cave([".2."], {"2": (4, 12)})
    p = find_path(move_field(g, medium(5)), (0, 0), (2, 0))
    # first square: full-round (actions 1-2), second square: move action 3
    assert p.move_actions == 3 and p.rounds == 2


# ---- crawling (§2.4, §5.1) ---------------------------------------------------------------------

def test_crawling_under_a_low_ceiling_then_standing_up():
    row = ".cc" + "." * 9
    g = cave([row], {"c": (10, 2.5)})
    f = move_field(g, medium(30))
    assert [int(m) for m in f.mode[0, :4]] == [WALK, CRAWL, CRAWL, WALK]
    assert K(f.category[0, 1]) is K.CRAWL and f.prone[0, 1]
    d = distance_map(f, (0, 0))
    # each crawl square is one move action; leaving the crawlway it is still prone: crawl out (3)
    assert [float(d.actions[0, x]) for x in range(1, 5)] == [1, 2, 3, 4]
    # from square 3 on, standing up (action 4) and walking (6 squares an action) wins
    assert float(d.actions[0, 9]) == 5 and float(d.actions[0, 10]) == 6
    p = find_path(f, (0, 0), (9, 0))
    assert [s.kind for s in p.steps[:4]] == ["crawl", "crawl", "crawl", "stand"]
    assert p.move_actions == 5 and p.rounds == 3


# ---- Escape Artist (§2.4, §5.3, §7.30) ---------------------------------------------------------

def test_escape_artist_probabilities():
    assert escape_tries(15, 0, take10=True, take20=True).guaranteed == 20     # take 20
    assert escape_tries(15, 0, take10=False, take20=False).probability == Fraction(6, 20)
    assert escape_tries(15, 5, take10=True, take20=False).guaranteed == 1      # take 10 = 15
    assert escape_tries(15, 5, take10=False, take20=False).expected == Fraction(20, 11)
    assert escape_tries(30, 5, take10=True, take20=True).guaranteed is None     # 25 < 30
    assert escape_tries(30, 5, take10=True, take20=True).successes == 0
    assert escape_tries(30, 12, take10=False, take20=True).guaranteed == 20
    assert escape_tries(30, 12, take10=False, take20=False).expected == Fraction(20, 3)
    assert escape_tries(15, 14, take10=False, take20=False).guaranteed == 1     # any roll works


def test_awkward_fissure_guaranteed_versus_expected_time():
    g = cave(["..f.."], {"f": (2, 12)})
    for ea, guaranteed, expected in [(0, 20, Fraction(20, 6)), (5, 1, 1), (3, 20, Fraction(20, 9))]:
        f = move_field(g, medium(30, escape_artist=ea))
        assert f.mode[0, 2] == AWKWARD
        p = find_path(f, (0, 0), (4, 0))
        # 1 square walking (action 1), tries into the fissure, then out: a new move action
        assert p.move_actions == 1 + guaranteed + 1
        assert p.expected_move_actions == pytest.approx(float(1 + expected + 1))
        assert p.steps[1].kind == "escape_artist" and p.steps[1].dc == 15
        assert p.steps[1].probability == pytest.approx(min(20, 6 + ea) / 20)


def test_in_combat_there_is_no_guaranteed_time():
    g = cave(["..f.."], {"f": (2, 12)})
    f = move_field(g, medium(30, escape_artist=2).in_combat())
    p = find_path(f, (0, 0), (4, 0))
    assert p.reachable and p.move_actions is None and p.rounds is None
    assert p.expected_move_actions == pytest.approx(1 + 20 / 8 + 1)


def test_tight_squeeze_full_round_per_try_at_a_turn_start():
    g = cave(["..t.."], {"t": (0.6, 12)})  # head fits, shoulders do not: DC 30
    f = move_field(g, medium(30, escape_artist=12))
    assert f.mode[0, 2] == TIGHT
    p = find_path(f, (0, 0), (4, 0))
    # walk 1 square (action 1 of turn 1); the squeeze waits for turn 2 (actions 3-4...),
    # take 20 = 20 tries x 2 actions = actions 3..42; then one more move action out
    assert p.move_actions == 2 + 40 + 1
    assert p.expected_move_actions == pytest.approx(2 + 2 * 20 / 3 + 1)
    cannot = move_field(g, medium(30, escape_artist=5))
    assert not find_path(cannot, (0, 0), (4, 0)).reachable  # 20 + 5 < 30 and no roll succeeds


# ---- footprints (§2.6-2.7) -------------------------------------------------------------------

def test_large_creature_squeezes_through_a_five_foot_tunnel_in_a_line():
    rows = ["....#####....",
            "....-----....",
            "....#####....",
            "....#####...."]
    g = cave(rows, {"-": (5, 16)})
    f = move_field(g, Mover(body_for("large"), speed_ft=40))
    assert f.k == 2
    assert not f.squeezed[0, 0] and f.mode[0, 0] == WALK          # 2x2 block fits
    assert f.squeezed[1, 6] and K(f.category[1, 6]) is K.NARROW_OR_LOW  # W 5 < S 10
    assert f.mode[2, 6] == BLOCKED                                 # no room below the tunnel
    assert f.occupied((6, 1), trail=[(4, 1), (5, 1)]) == [(6, 1), (5, 1)]  # a line of two
    assert f.occupied((0, 0)) == [(0, 0), (1, 0), (0, 1), (1, 1)]
    p = find_path(f, (2, 1), (10, 1))
    tunnel = [s for s in p.steps if 4 <= s.at[0] <= 8]
    assert all(s.category == "NARROW_OR_LOW" and s.feet == 10 for s in tunnel)


def test_medium_not_squeezed_and_wide_tunnel_open_for_large():
    g = cave(["......", "......"])
    f = move_field(g, Mover(body_for("large")))
    assert not f.squeezed[0, :5].any() and f.mode[0, 4] == WALK and K(f.category[0, 4]) is K.CLEAR
    # the bottom row: its 2 x 2 block would leave the passage, so it may only stand there in a line;
    # the passage is two squares (10 ft) wide, so no narrow penalty
    assert f.squeezed[1, 4] and K(f.category[1, 4]) is K.CLEAR
    assert not move_field(g, Mover(body_for("medium"))).squeezed.any()


def test_large_steps_from_open_ground_into_a_one_square_passage():
    rows = ["....#####",
            "....-----",
            "....#####"]
    g = cave(rows, {"-": (5, 16)})
    f = move_field(g, Mover(body_for("large"), speed_ft=40))
    p = find_path(f, (1, 0), (8, 1))
    assert p.reachable and p.squares[-1] == (8, 1)


def test_swarm_pours_through_a_three_inch_crack():
    g = cave(["..k.."], {"k": (0.3, 0.5)})
    rats = move_field(g, Mover(swarm_body("tiny"), speed_ft=15))
    assert rats.mode[0, 2] == WALK and rats.mult[0, 2] == 1
    p = find_path(rats, (0, 0), (4, 0))
    assert p.feet == 20 and p.move_actions == 2  # speed 15: 3 squares, then 1
    human = move_field(g, medium())
    assert human.mode[0, 2] == BLOCKED and not find_path(human, (0, 0), (4, 0)).reachable


def test_swarm_pays_no_constricted_costs():
    g = cave([".n."], {"n": (3, 3)})
    bats = move_field(g, Mover(swarm_body("diminutive"), speed_ft=40, flying=True))
    assert bats.mult[0, 1] == 1
    assert move_field(g, medium()).mult[0, 1] == 4


def test_tunnelrunner_ignores_narrow_or_low_slowdown():
    g = cave([".n.N."], {"n": (4, 12), "N": (4, 4)})
    f = move_field(g, medium(tunnelrunner=True))
    assert f.mult[0, 1] == 1 and f.mult[0, 3] == 2


# ---- reach (§6.1) ------------------------------------------------------------------------------

def test_reach_single_and_double_move():
    g = cave(["." * 15])
    r = reach(move_field(g, medium(30)), (0, 0))
    assert [x for x, _, _ in r.single] == list(range(1, 7))
    assert [x for x, _, _ in r.double] == list(range(1, 13))
    assert r.double[-1].tolist() == [12, 0, 60]
    assert r.to_json()["speed"] == 30


def test_reach_counts_double_move_diagonals_as_one_move():
    g = cave(["." * 10] * 10)
    r = reach(move_field(g, medium(30)), (0, 0))
    diag = {(x, y): ft for x, y, ft in r.double if x == y}
    assert max(diag) == (8, 8) and diag[(8, 8)] == 60  # 8 diagonals = 60 ft, not 2 x 30 restarted


def test_reach_through_a_crawlway_and_a_fissure():
    g = cave([".cc...", "f....."], {"c": (10, 2.5), "f": (2, 12)})
    r = reach(move_field(g, medium(30)), (0, 0))
    single = {(x, y) for x, y, _ in r.single}
    assert (1, 0) in single and (2, 0) not in single          # one crawl square per move action
    assert (2, 0) in {(x, y) for x, y, _ in r.double}
    assert (0, 1, 15, 0.3) in r.checks                      # the fissure: DC 15 at +0 -> 6/20


def test_reach_respects_blockers_and_allies():
    g = cave(["....."])
    f = move_field(g, medium(30))
    enemy = np.zeros(g.shape, bool)
    enemy[0, 2] = True
    assert [x for x, _, _ in reach(f, (0, 0), blocked=enemy).double] == [1]
    ally = np.zeros(g.shape, bool)
    ally[0, 2] = True
    xs = [x for x, _, _ in reach(f, (0, 0), no_end=ally).double]
    assert 2 not in xs and 3 in xs


def test_bad_starts_are_refused():
    g = cave(["#..", "..."], {})
    f = move_field(g, medium())
    with pytest.raises(ValueError, match=r"start \(0, 0\) is solid rock"):
        distance_map(f, (0, 0))
    with pytest.raises(ValueError, match=r"goal \(9, 9\) is off the map"):
        find_path(f, (1, 0), (9, 9))


def test_unreachable_goal_is_an_empty_path():
    g = cave(["..#.."])
    p = find_path(move_field(g, medium()), (0, 0), (4, 0))
    assert not p.reachable and p.squares == [] and p.steps == []
    assert p.to_json()["reachable"] is False


# ---- agreement with the reference -----------------------------------------------------------

def engine_labels(field, start, plan):
    key, _, _, _, _, K_ = _run(field, start, plan, track=False)
    R, C = field.shape
    best = key.reshape(R, C, 3).min(axis=2)
    out = {}
    for r in range(R):
        for c in range(C):
            if best[r, c] != np.iinfo(np.int32).max:
                n, f = divmod(int(best[r, c]), K_)
                out[(c, r)] = (Fraction(n, plan.M), f)
    return out


GLYPHS = {".": OPEN, "#": (0, 0), "n": (4, 12), "N": (4, 4), "c": (10, 2.5), "f": (2, 12),
          "t": (0.6, 12), "~": (10, 12, True), "l": (10, 1.2)}


@st.composite
def small_caves(draw):
    rows = draw(st.integers(2, 7))
    cols = draw(st.integers(2, 7))
    weights = draw(st.sampled_from(["open", "mixed"]))
    alphabet = ".#" if weights == "open" else "".join(GLYPHS)
    grid = [draw(st.text(alphabet=alphabet, min_size=cols, max_size=cols)) for _ in range(rows)]
    return grid


@settings(max_examples=120, deadline=None)
@given(grid=small_caves(), speed=st.sampled_from([5, 10, 15, 20, 30]), ea=st.integers(-2, 14),
       combat=st.booleans(), expected=st.booleans(), size=st.sampled_from(["small", "medium", "large"]),
       data=st.data())
def test_engine_equals_reference(grid, speed, ea, combat, expected, size, data):
    g = cave(grid, GLYPHS)
    mover = Mover(body_for(size), speed_ft=speed, escape_artist=ea, take10=not combat, take20=not combat)
    f = move_field(g, mover)
    starts = [(c, r) for r in range(g.rows) for c in range(g.cols) if f.mode[r, c] != BLOCKED]
    if not starts:
        return
    start = data.draw(st.sampled_from(starts))
    plan = _plan(f, expected=expected)
    awk = Fraction(plan.awk_units, plan.M) if plan.awk_units else None
    tight = Fraction(plan.tight_units, 2 * plan.M) if plan.tight_units else None
    ref = reference_labels(f, start, awk=awk, tight=tight)
    assert engine_labels(f, start, plan) == ref


@settings(max_examples=40, deadline=None)
@given(grid=small_caves(), speed=st.sampled_from([5, 10, 20, 30]), data=st.data())
def test_label_order_is_optimal_over_all_move_sequences(grid, speed, data):
    """The best label per square from Dijkstra equals the best over every sequence of moves."""
    g = cave([row[:4] for row in grid[:3]], GLYPHS)
    f = move_field(g, Mover(body_for("medium"), speed_ft=speed, escape_artist=5))
    starts = [(c, r) for r in range(g.rows) for c in range(g.cols) if f.mode[r, c] != BLOCKED]
    if not starts:
        return
    start = data.draw(st.sampled_from(starts))
    ref = reference_labels(f, start, awk=Fraction(1), tight=None)
    ex = exhaustive_labels(f, start, awk=Fraction(1), tight=None, depth=9)
    for sq, label in ex.items():
        assert ref[sq] <= label
    for sq, label in ref.items():
        if sq in ex:
            assert ex[sq] == label or label[0] >= 3  # beyond the exhaustive depth


@settings(max_examples=60, deadline=None)
@given(grid=small_caves(), data=st.data())
def test_path_never_shorter_than_the_5_10_5_distance(grid, data):
    g = cave(grid, GLYPHS)
    f = move_field(g, medium())
    cells = [(c, r) for r in range(g.rows) for c in range(g.cols) if f.mode[r, c] != BLOCKED]
    if len(cells) < 2:
        return
    a = data.draw(st.sampled_from(cells))
    b = data.draw(st.sampled_from(cells))
    p = find_path(f, a, b)
    if p.reachable and a != b:
        dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
        diag, straight = min(dx, dy), abs(dx - dy)
        assert p.feet >= 5 * (straight + diag + diag // 2) - 5 * (diag // 2 > 0)  # resets can save 5 ft a turn
        assert p.squares[0] == a and p.squares[-1] == b
        d = distance_map(f, a)
        assert p.move_actions == d.actions[b[1], b[0]]
