"""The ``ceiling`` operation (issue 35, item 5): one operation sets the ceiling of every floor
square, of a rectangle's floor squares, or of the floor region holding a square -- exactly, on
floor only (rock, closed doors and every width untouched) -- and `cavesim edit --apply` runs it
without importing again."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.editor.model import Document
from sim.editor.ops import Ceiling, parse_op, run, to_json
from sim.maps.read import load_map
from sim.terrain.grid import CaveGrid

# two rooms (columns 1-3 and 5-7) joined by a closed door at (4, 2); widths vary square by square
WIDTH = np.array([
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 4, 5, 6, 0, 7, 8, 9, 0],
    [0, 4, 5, 6, 0, 7, 8, 9, 0],
    [0, 4, 5, 6, 0, 7, 8, 9, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0],
], dtype=float)
DOOR = np.zeros(WIDTH.shape, bool)
DOOR[2, 4] = True


def doc_of() -> Document:
    ceiling = np.where(WIDTH > 0, 10.0 + np.arange(WIDTH.size).reshape(WIDTH.shape) % 3, 0.0)
    return Document.from_grid(CaveGrid.from_arrays(WIDTH, ceiling, door=DOOR, name="two rooms"))


def test_every_floor_square_exactly_and_nothing_else():
    doc = doc_of()
    width, rock, door = doc.width.copy(), doc.rock.copy(), doc.door.copy()
    r = run(doc, Ceiling(16.5))
    floor = WIDTH > 0
    assert r.changed == 18 and r.label == "ceiling all floor"
    assert (doc.ceiling[floor] == 16.5).all() and (doc.ceiling[~floor] == 0).all()
    assert np.array_equal(doc.width, width) and np.array_equal(doc.rock, rock) and np.array_equal(doc.door, door)
    run(doc, parse_op({"op": "undo"}))
    assert np.array_equal(doc.ceiling, doc_of().ceiling)


def test_a_rectangle_sets_only_its_floor_squares():
    doc = doc_of()
    run(doc, Ceiling(7.0, start=(0, 0), end=(5, 1)))      # over rock, room 1's top row, the wall, room 2's corner
    want = doc_of().ceiling
    want[1, 1:4] = 7.0
    want[1, 5] = 7.0
    assert np.array_equal(doc.ceiling, want)
    assert not doc.rock[1, 1:4].any() and doc.rock[0].all()


def test_a_region_is_the_floor_joined_to_the_square_a_closed_door_parts_it():
    doc = doc_of()
    r = run(doc, Ceiling(30.0, at=(6, 3)))
    assert r.changed == 9
    assert (doc.ceiling[1:4, 5:8] == 30.0).all()
    assert np.array_equal(doc.ceiling[:, :5], doc_of().ceiling[:, :5])   # the other room, and the door


def test_metric_values_are_metres():
    doc = Document.from_grid(CaveGrid.from_arrays(WIDTH, np.where(WIDTH > 0, 10.0, 0.0), units="m"))
    run(doc, Ceiling(4.5))
    assert (doc.ceiling[WIDTH > 0] == 15.0).all()


@pytest.mark.parametrize("op, reason", [
    (Ceiling(10.0, at=(4, 2)), "ceiling: (4, 2) is a closed door; give a floor square of the region"),
    (Ceiling(10.0, at=(0, 0)), "ceiling: (0, 0) is rock; give a floor square of the region"),
    (Ceiling(10.0, at=(9, 0)), "ceiling: (9, 0) is off the map (9x5)"),
    (Ceiling(10.0, start=(0, 0), end=(3, 7)), "ceiling: (3, 7) is off the map (9x5)"),
    (Ceiling(2000.0), "ceiling: ceiling 2000 ft is over the largest allowed (1000 ft)"),
])
def test_refusals_change_nothing(op, reason):
    doc = doc_of()
    assert run(doc, op).reason == reason
    assert doc.version == 0 and np.array_equal(doc.ceiling, doc_of().ceiling)


@pytest.mark.parametrize("d", [
    {"op": "ceiling", "value": 16}, {"op": "ceiling", "value": 8.5, "from": [0, 0], "to": [4, 4]},
    {"op": "ceiling", "value": 20, "at": [2, 2]},
])
def test_json_round_trip(d):
    op = parse_op(d)
    assert parse_op(to_json(op)) == op and to_json(op) == d


@pytest.mark.parametrize("d, msg", [
    ({"op": "ceiling"}, "missing 'value'"),
    ({"op": "ceiling", "value": 0}, r"ceiling: 'value' must be > 0 \(it sets floor squares' ceilings; to make rock, "
                                    r"use erase\), got 0"),
    ({"op": "ceiling", "value": -3}, "'value' for ceiling must be a number >= 0"),
    ({"op": "ceiling", "value": 10, "from": [0, 0]}, "ceiling: give both 'from' and 'to'"),
    ({"op": "ceiling", "value": 10, "at": [1, 1], "from": [0, 0], "to": [1, 1]}, "not both"),
    ({"op": "ceiling", "value": 10, "layer": "width"}, "ceiling: unknown key 'layer'; ceiling takes at, from, to, value"),
])
def test_bad_ceiling_operations_name_the_key(d, msg):
    with pytest.raises(ValueError, match=msg):
        parse_op(d)


@settings(max_examples=60, deadline=None)
@given(value=st.floats(0.25, 999.0), x0=st.integers(0, 8), y0=st.integers(0, 4), x1=st.integers(0, 8),
       y1=st.integers(0, 4))
def test_a_rectangle_property(value, x0, y0, x1, y1):
    """Whatever the rectangle: its floor squares get the value, every other square and every
    width stays as it was."""
    doc = doc_of()
    run(doc, Ceiling(value, start=(x0, y0), end=(x1, y1)))
    yy, xx = np.mgrid[0:5, 0:9]
    inside = (min(x0, x1) <= xx) & (xx <= max(x0, x1)) & (min(y0, y1) <= yy) & (yy <= max(y0, y1)) & (WIDTH > 0)
    assert (doc.ceiling[inside] == value).all()
    assert np.array_equal(doc.ceiling[~inside], doc_of().ceiling[~inside])
    assert np.array_equal(doc.width, doc_of().width)


def test_cli_apply_sets_the_ceilings_and_a_bad_line_writes_nothing(tmp_path, capsys):
    m = tmp_path / "rooms.toml"
    from sim.maps.write import write_map

    write_map(doc_of().to_grid(), m)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps({"op": "ceiling", "value": 16}) + "\n" + json.dumps({"op": "ceiling", "value": 24,
                                                                                   "at": [1, 1]}) + "\n")
    assert main(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "new.toml")]) == 0
    g = load_map(tmp_path / "new.toml")
    assert (g.height_ft[1:4, 1:4] == 24).all() and (g.height_ft[1:4, 5:8] == 16).all()
    assert np.array_equal(g.width_ft, WIDTH * ~DOOR) and g.door[2, 4]
    capsys.readouterr()
    before = sorted(p.name for p in tmp_path.iterdir())
    ops.write_text(json.dumps({"op": "ceiling", "value": 16, "at": [0, 0]}) + "\n")
    assert main(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "bad.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"cavesim: error: {ops}:1: ceiling: (0, 0) is rock; give a floor square of the region; "
                   "nothing was written"]
    assert sorted(p.name for p in tmp_path.iterdir()) == before
