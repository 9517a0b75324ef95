"""The editor's model: tools, canonical layers, undo/redo (issue 18, items 1, 3, 5)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.editor.model import (
    CELL, Document, History, brush_offsets, brush_squares, fill_squares, line_points, plan, rect_squares,
)
from sim.editor.ops import Fill, Paint, Rect, Redo, Refused, Undo, parse_op, run
from sim.maps.generate import generate_cave
from sim.terrain.grid import CaveGrid


def doc_from(rows, **values):
    """A document from ASCII rows; ``values`` maps a glyph to (width, ceiling[, difficult])."""
    values = {"#": (0, 0), **values}
    w = [[values[c][0] for c in r] for r in rows]
    h = [[values[c][1] for c in r] for r in rows]
    d = [[len(values[c]) > 2 and values[c][2] for c in r] for r in rows]
    return Document.from_grid(CaveGrid.from_arrays(w, h, difficult=d))


def state(doc):
    return tuple(a.copy() for a in doc.layers()), dict(doc.points)


def same(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a[0], b[0])) and a[1] == b[1]


@pytest.mark.parametrize("size,shape,n", [(1, "square", 1), (2, "square", 4), (9, "square", 81), (1, "round", 1),
                                          (2, "round", 4), (3, "round", 5), (4, "round", 12), (5, "round", 21),
                                          (7, "round", 37)])
def test_brush_sizes(size, shape, n):
    off = brush_offsets(size, shape)
    assert len(off) == n
    # symmetric for odd sizes: the centre square is the middle of the stamp
    if size % 2:
        assert set(map(tuple, off)) == set(map(tuple, -off))


def test_brush_bad_size_is_refused_with_the_value():
    with pytest.raises(ValueError, match="1-9, got 10"):
        brush_offsets(10, "square")
    with pytest.raises(ValueError, match="shape"):
        brush_offsets(3, "oval")


def test_brush_clips_at_the_edge():
    assert sorted(brush_squares((5, 5), (4, 4), 3).tolist()) == [18, 19, 23, 24]


def test_line_is_continuous_and_symmetric():
    pts = line_points((0, 0), (7, 3))
    assert pts[0].tolist() == [0, 0] and pts[-1].tolist() == [7, 3]
    assert (np.abs(np.diff(pts, axis=0)).max(axis=1) == 1).all()   # no gaps
    back = line_points((7, 3), (0, 0))[::-1]
    assert np.array_equal(pts, back)


def test_rect_filled_and_outline():
    assert len(rect_squares((10, 10), (2, 3), (5, 1))) == 12
    assert len(rect_squares((10, 10), (2, 3), (5, 1), filled=False)) == 10


def test_fill_is_exact_value_and_four_connected():
    doc = doc_from(["#####",
                    "#ab.#",
                    "#.#a#",
                    "#####"], a=(5, 8), b=(5, 8.5), **{".": (10, 10)})
    # 'a' at (1,1) is not joined to 'a' at (3,2) side by side: only itself
    assert fill_squares(doc, "width", (1, 1)).tolist() == [6, 7]            # width 5: a and b
    assert fill_squares(doc, "ceiling", (1, 1)).tolist() == [6]              # ceiling 8: a alone
    assert fill_squares(doc, "ceiling", (1, 1), contiguous=False).tolist() == [6, 13]   # same-value selection


def test_painting_width_on_rock_opens_it_with_the_default_ceiling():
    doc = Document.blank(3, 3, default_ft=(10, 12))
    doc.apply(plan(doc, np.array([4]), "width", 2.0))
    assert doc.value("width", (1, 1)) == 2 and doc.value("ceiling", (1, 1)) == 12 and not doc.rock[1, 1]


def test_zero_width_is_rock_and_rock_is_never_difficult():
    doc = doc_from(["..."], **{".": (10, 10, True)})
    doc.apply(plan(doc, np.array([1]), "width", 0.0))
    assert doc.rock[0, 1] and doc.ceiling[0, 1] == 0 and not doc.difficult[0, 1]
    doc.apply(plan(doc, np.arange(3), "difficult", True))
    assert doc.difficult.tolist() == [[True, False, True]]


def test_plan_holds_only_changed_squares_and_does_not_touch_the_document():
    doc = doc_from(["..x"], **{".": (10, 10), "x": (5, 10)})
    before = state(doc)
    p = plan(doc, np.arange(3), "width", 10.0)
    assert same(before, state(doc))
    assert p.index.tolist() == [2] and p.old["width"].tolist() == [5.0] and p.new["width"].tolist() == [10.0]


def test_undo_redo_and_a_new_edit_clears_redo():
    doc = Document.blank(5, 5)
    s0 = state(doc)
    run(doc, Paint("width", 10, ((2, 2),), 3, "square"))
    s1 = state(doc)
    assert run(doc, Undo()).changed == 9 and same(state(doc), s0)
    assert run(doc, Redo()).changed == 9 and same(state(doc), s1)
    run(doc, Undo())
    run(doc, Paint("ceiling", 4, ((0, 0),)))
    assert isinstance(run(doc, Redo()), Refused)


def test_history_is_capped_in_bytes_keeping_the_newest():
    doc = Document.blank(50, 50, history_bytes=20_000)
    for k in range(10):
        run(doc, Rect("width", 5 + k, (0, 0), (49, 49)))      # 2500 squares x 40 bytes each
    assert len(doc.history.done) == 1 and doc.history.dropped == 9
    assert doc.history.nbytes > 20_000                         # the newest step is always kept
    run(doc, Undo())
    assert doc.width.max() == 13                               # back one step, not to the start
    h = History(limit=10**9)
    assert h.nbytes == 0


def _random_op(rng, doc):
    kind = rng.choice(["paint", "fill", "line", "rect", "undo", "undo", "erase"])
    layer = str(rng.choice(["width", "ceiling", "difficult", "rock"]))
    value = bool(rng.integers(2)) if layer in ("difficult", "rock") else float(rng.choice([0, 1, 2, 2.5, 5, 10, 20]))
    at = [int(rng.integers(doc.cols)), int(rng.integers(doc.rows))]
    to = [int(rng.integers(doc.cols)), int(rng.integers(doc.rows))]
    b = {"brush": int(rng.integers(1, 10)), "shape": str(rng.choice(["square", "round"]))}
    if kind == "paint":
        pts = [[int(rng.integers(doc.cols)), int(rng.integers(doc.rows))] for _ in range(int(rng.integers(1, 5)))]
        return {"op": "paint", "layer": layer, "value": value, "at": pts, **b}
    if kind == "erase":
        return {"op": "erase", "at": at, **b}
    if kind == "fill":
        return {"op": "fill", "layer": layer, "value": value, "at": at, "contiguous": bool(rng.integers(4))}
    if kind == "line":
        return {"op": "line", "layer": layer, "value": value, "from": at, "to": to, **b}
    if kind == "rect":
        return {"op": "rect", "layer": layer, "value": value, "from": at, "to": to, "filled": bool(rng.integers(2))}
    return {"op": "undo"}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_thousand_random_ops_undo_to_the_start_and_redo_to_the_end(seed):
    """Issue 18 check: 1,000 seeded random paint, fill, line and undo operations, then undo
    everything and redo as many: the arrays come back exactly, both ways."""
    rng = np.random.default_rng(seed)
    doc = Document.from_grid(generate_cave(seed, 40, 30))
    start = state(doc)
    for _ in range(1000):
        run(doc, parse_op(_random_op(rng, doc)))
        # the canonical invariant holds after every operation
        assert not (doc.difficult & doc.rock).any()
        assert ((doc.width == 0) == doc.rock).all() and ((doc.ceiling == 0) == doc.rock).all()
    end = state(doc)
    n = len(doc.history.done)
    assert n > 150
    while doc.can_undo:
        run(doc, Undo())
    assert same(state(doc), start)
    for _ in range(n):
        assert not isinstance(run(doc, Redo()), Refused)
    assert same(state(doc), end)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 7), st.sampled_from([0.0, 2.0, 5.0, 10.0]),
                          st.integers(1, 9)), min_size=1, max_size=20))
def test_property_undo_inverts_any_sequence_of_strokes(strokes):
    doc = Document.from_grid(generate_cave(3, 12, 8))
    start = state(doc)
    for x, y, v, b in strokes:
        run(doc, Paint("width", v, ((x, y),), b, "round"))
    while doc.can_undo:
        doc.undo()
    assert same(state(doc), start)


def test_points_place_move_rename_delete_undo():
    doc = doc_from(["....", "#..#"], **{".": (10, 10)})
    assert run(doc, parse_op({"op": "point", "name": "gate", "at": [0, 0]})).label == "place point gate"
    run(doc, parse_op({"op": "point", "name": "gate", "at": [2, 1]}))
    assert doc.points == {"gate": (2, 1)}
    run(doc, parse_op({"op": "point", "name": "gate", "rename": "door"}))
    assert doc.points == {"door": (2, 1)}
    r = run(doc, parse_op({"op": "point", "name": "x", "at": [0, 1]}))
    assert isinstance(r, Refused) and "solid rock" in r.reason
    run(doc, parse_op({"op": "point", "name": "door", "delete": True}))
    assert doc.points == {}
    for _ in range(3):
        doc.undo()
    assert doc.points == {"gate": (0, 0)}


def test_fill_of_a_generated_200_cave_is_one_patch():
    doc = Document.from_grid(generate_cave(1, 200, 200))
    floor = np.argwhere(~doc.rock)[0]
    at = (int(floor[1]), int(floor[0]))
    r = run(doc, Fill("width", 3, at))
    assert r.changed > 0 and len(doc.history.done) == 1
    assert CELL.itemsize == 20      # two lengths, two flags and the two edge walls (docs/rules.md §6.8)


def test_live_chokepoints_fall_back_to_a_thread_when_the_process_breaks():
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from sim.editor.live import Chokepoints

    doc = Document.from_grid(generate_cave(2, 30, 20))
    ch = Chokepoints(doc, worker="process")
    broken = Future()
    broken.set_exception(BrokenProcessPool("worker died"))
    ch._job, ch._job_version = broken, doc.version
    assert ch.poll() is False and ch.worker == "thread"
    ch.poll()
    ch.wait()
    assert ch.result is not None and ch.result.version == doc.version
    ch.close()
