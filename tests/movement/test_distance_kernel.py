"""The distance-map search (kernel.distance_search) is compiled apart from the general search:
its maps against the plain-Python reference (every terrain kind, both time models, prone
starts, enemies' squares, speeds 5-60, three sizes), against the general search on generated
caves, the invariant its "expanded" marker relies on, and its queue growing when it must."""

import math
import types
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.maps.generate import generate_cave
from sim.terrain.movement import Mover, distance_map, kernel, move_field
from sim.terrain.movement.field import BLOCKED, WALK
from sim.terrain.movement.queries import _plan, _ring, _run
from sim.rules.bodies import body_for

from .reference import reference_labels
from .test_movement import cave

# every terrain kind: open, rock, narrow (x2), narrow and low (x4), crawl, awkward fissure, tight
# squeeze, rubble (x2), low, narrow rubble (x4), narrow-and-low rubble (x8), low fissure, low
# squeeze, crawlway over rubble, a little narrow, wide rubble
GLYPHS = {".": (10, 12), "#": (0, 0), "n": (4, 12), "N": (4, 4), "c": (10, 2.5), "f": (2, 12),
          "t": (0.6, 12), "~": (10, 12, True), "l": (10, 1.2), "r": (4, 12, True), "R": (4, 4, True),
          "F": (2, 2), "T": (0.6, 2), "C": (10, 2.5, True), "w": (6, 6), "W": (8, 12, True)}
ALPHABETS = [".#", ".#n", ".#~", ".#nNr", ".#cl", ".#ftFT", "".join(GLYPHS), "".join(GLYPHS) + "....",
             ".........#n~", ".nnnNNrR~", ".#" * 6 + "cCfFtT"]


def reference_map(field, start, *, expected, blocked=None, prone=None):
    """What distance_map must return, from the reference's labels (the same arithmetic)."""
    plan = _plan(field, expected=expected)
    awk = Fraction(plan.awk_units, plan.M) if plan.awk_units else None
    tight = Fraction(plan.tight_units, 2 * plan.M) if plan.tight_units else None
    mode = field.mode
    if blocked is not None:
        enemies = np.array(blocked, dtype=bool)
        enemies[start[1], start[0]] = False
        mode = mode.copy()
        mode[enemies] = BLOCKED
    view = types.SimpleNamespace(mode=mode, mult=field.mult, prone=field.prone, corner=field.corner,
                                 mover=field.mover)
    sp = field.mover.speed_squares
    actions = np.full(field.shape, np.nan)
    feet = np.full(field.shape, -1, dtype=np.int64)
    rounds = np.full(field.shape, -1, dtype=np.int64)
    for (x, y), (A, f) in reference_labels(view, start, awk=awk, tight=tight, start_prone=prone).items():
        units = int(A * plan.M)
        a = units / plan.M
        actions[y, x] = a
        feet[y, x] = 0 if units == 0 else int(round(5 * ((a - 1) * sp + f)))
        rounds[y, x] = math.ceil(a / 2)
    return actions, feet, rounds


@st.composite
def grids(draw, max_side=12):
    rows = draw(st.integers(2, max_side))
    cols = draw(st.integers(2, max_side))
    alphabet = draw(st.sampled_from(ALPHABETS))
    return [draw(st.text(alphabet=alphabet, min_size=cols, max_size=cols)) for _ in range(rows)]


@settings(max_examples=80, deadline=None)
@given(grid=grids(), data=st.data())
def test_distance_map_equals_reference(grid, data):
    g = cave(grid, GLYPHS)
    mover = Mover(body_for(data.draw(st.sampled_from(["small", "medium", "large"]))),
                  speed_ft=data.draw(st.sampled_from([5, 10, 15, 20, 25, 30, 40, 50, 60])),
                  escape_artist=data.draw(st.integers(-2, 14)), take10=data.draw(st.booleans()),
                  take20=data.draw(st.booleans()), tunnelrunner=data.draw(st.booleans()))
    f = move_field(g, mover)
    squares = [(c, r) for r in range(g.rows) for c in range(g.cols) if f.mode[r, c] != BLOCKED]
    if not squares:
        return
    start = data.draw(st.sampled_from(squares))
    expected = data.draw(st.booleans())
    prone = data.draw(st.sampled_from([None, True, False]))
    blocked = None
    if data.draw(st.booleans()):
        cells = st.lists(st.booleans(), min_size=g.rows * g.cols, max_size=g.rows * g.cols)
        blocked = np.array(data.draw(cells)).reshape(g.shape) & (np.arange(g.rows * g.cols).reshape(g.shape) % 3 == 0)
    d = distance_map(f, start, expected=expected, blocked=blocked, prone=prone)
    actions, feet, rounds = reference_map(f, start, expected=expected, blocked=blocked, prone=prone)
    assert np.array_equal(d.actions, actions, equal_nan=True)
    assert np.array_equal(d.feet, feet)
    assert np.array_equal(d.rounds, rounds)


def test_the_parity_counter_examples_as_distance_maps():
    # the caves of test_exactness where dropping a parity-1 state for a parity-0 one goes wrong
    legend = {"n": (4, 12), "N": (4, 4), "c": (10, 2.5), "f": (2, 12), "t": (0.6, 12), "~": (10, 12, True),
              "l": (10, 1.2)}
    g = cave(["n#~~llctN", "nc#.cfc.n", "n.f#Nf.~.", "l..nt#.cl",
              "ltn#ct.l.", "ln.fcNlnl", "n.lf.~ltn", "fllNfc~tf"], legend)
    f = move_field(g, Mover(body_for("small"), speed_ft=40, escape_artist=7))
    d = distance_map(f, (1, 5))
    assert float(d.actions[1, 7]) == 4 and int(d.feet[1, 7]) == 5 * (3 * 8 + 1)
    actions, feet, rounds = reference_map(f, (1, 5), expected=False)
    assert np.array_equal(d.actions, actions, equal_nan=True) and np.array_equal(d.feet, feet)
    g = cave(["NNNNN", "NNN.N", "NNtNN", "NNN.N"], legend)
    f = move_field(g, Mover(body_for("small"), speed_ft=15, escape_artist=5).in_combat())
    d = distance_map(f, (0, 0), expected=True)
    assert float(d.actions[3, 4]) == float(Fraction(42, 11))
    actions, feet, rounds = reference_map(f, (0, 0), expected=True)
    assert np.array_equal(d.actions, actions, equal_nan=True) and np.array_equal(d.feet, feet)


def _least(key, N):
    key = key & 0x7FFFFFFF
    return np.minimum(np.minimum(key[0:2 * N:2], key[1:2 * N:2]), key[2 * N:])


def _kernel_keys(field, start, *, expected=False, prone=False, pool_entries=1 << 16):
    plan = _plan(field, expected=expected)
    sp = field.mover.speed_squares
    N = field.mode.size
    C = field.shape[1]
    key = np.full(3 * N, kernel.UNREACHED, dtype=np.int32)
    pool = np.empty(2 * pool_entries, dtype=np.int32)
    nbuckets = _ring(field, plan)
    head = np.empty(nbuckets, dtype=np.int32)
    n = kernel.distance_search(field.words, C, start[1] * C + start[0], prone, sp, kernel.key_bits(sp), plan.M,
                               plan.awk_units, plan.tight_units, nbuckets, key, pool, head)
    return n, key


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from(["small", "medium", "large"]),
       speed=st.sampled_from([5, 20, 30, 45, 60]), expected=st.booleans(), prone=st.booleans(),
       data=st.data())
def test_least_labels_equal_the_general_search_on_generated_caves(seed, size, speed, expected, prone, data):
    g = generate_cave(seed, 48, 40)
    f = move_field(g, Mover(body_for(size), speed_ft=speed, escape_artist=data.draw(st.integers(0, 12))))
    ys, xs = np.nonzero(f.mode != BLOCKED)
    if len(ys) == 0:
        return
    i = data.draw(st.integers(0, len(ys) - 1))
    start = (int(xs[i]), int(ys[i]))
    n, key = _kernel_keys(f, start, expected=expected, prone=prone)
    assert n > 0
    general, *_ = _run(f, start, _plan(f, expected=expected), prone=prone, track=False)
    N = f.mode.size
    assert np.array_equal(_least(key, N), general.reshape(N, 3).min(axis=1))


@settings(max_examples=20, deadline=None)
@given(grid=grids(max_side=14), speed=st.sampled_from([5, 10, 15, 30, 40, 60]), expected=st.booleans(),
       data=st.data())
def test_prone_labels_end_a_move_action(grid, speed, expected, data):
    """distance_search marks an expanded state by the sign bit of its key; its argument needs
    every prone label to be ``(n << kb) + speed`` and every label's squares ``f`` to be within
    1..speed (so no standing label is one above a prone one), and every expanded key to come
    back by ``& 0x7FFFFFFF``."""
    f = move_field(cave(grid, GLYPHS), Mover(body_for("medium"), speed_ft=speed, escape_artist=10))
    squares = [(c, r) for r in range(f.shape[0]) for c in range(f.shape[1]) if f.mode[r, c] != BLOCKED]
    if not squares:
        return
    start = data.draw(st.sampled_from(squares))
    n, key = _kernel_keys(f, start, expected=expected, prone=data.draw(st.booleans()))
    N = f.mode.size
    kb = kernel.key_bits(speed // 5)
    prone = key[2 * N:] & 0x7FFFFFFF
    reached = prone != kernel.UNREACHED
    assert np.all(prone[reached] & ((1 << kb) - 1) == speed // 5)
    standing = key[:2 * N] & 0x7FFFFFFF
    f_ = standing[standing != kernel.UNREACHED] & ((1 << kb) - 1)
    assert np.all((f_ >= 1) & (f_ <= speed // 5))
    marked = key < 0
    assert marked.sum() >= n  # a mark per expansion (and per covered prone state popped)
    assert np.all((key[marked] & 0x7FFFFFFF) != kernel.UNREACHED)


def test_queue_grows_when_its_pool_is_too_small():
    g = generate_cave(3, 64, 64)
    f = move_field(g, Mover(body_for("medium")))
    ys, xs = np.nonzero(f.mode == WALK)
    start = (int(xs[len(xs) // 2]), int(ys[len(ys) // 2]))
    n, _ = _kernel_keys(f, start, pool_entries=8)
    assert n == -1  # too small: the search says so instead of writing past the pool
    plan = _plan(f, expected=False)
    sp = f.mover.speed_squares
    N = f.mode.size
    out = np.empty(N), np.empty(N, dtype=np.int32), np.empty(N, dtype=np.int32)
    key = np.empty(3 * N, dtype=np.int32)
    pool = kernel.distance(f.words, f.shape[1], start[1] * f.shape[1] + start[0], False, sp, kernel.key_bits(sp),
                           plan.M, plan.awk_units, plan.tight_units, _ring(f, plan), key,
                           np.empty(16, dtype=np.int32), *out)
    assert pool.shape[0] > 16
    d = distance_map(f, start)
    assert np.array_equal(out[0], d.actions.ravel(), equal_nan=True)
    assert np.array_equal(out[1], d.feet.ravel()) and np.array_equal(out[2], d.rounds.ravel())
