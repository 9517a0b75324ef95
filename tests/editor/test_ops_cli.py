"""The scripted front end: operations from JSON, OPS.jsonl files, `cavesim edit --apply` and
`--new` (issue 18, items 1 and 5), every bad input with its message."""

import json

import numpy as np
import pytest

from sim.cli import main
from sim.editor.model import Document
from sim.editor.ops import (
    Circle, Fill, Line, Paint, PointOp, Rect, Redo, Undo, apply_ops, parse_op, parse_ops, read_ops, run, to_json,
)
from sim.base.errors import DataError
from sim.maps.read import load_map

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
'''
GRID = '''
########
#...f..#
#......#
########
'''


def ops_file(tmp_path, *lines, name="ops.jsonl"):
    p = tmp_path / name
    p.write_text("\n".join(json.dumps(x) if not isinstance(x, str) else x for x in lines) + "\n")
    return p


@pytest.mark.parametrize("d", [
    {"op": "paint", "layer": "width", "value": 2, "at": [1, 2], "brush": 3, "shape": "round"},
    {"op": "paint", "layer": "ceiling", "value": 4.5, "at": [[1, 1], [5, 2]], "brush": 1, "shape": "square"},
    {"op": "erase", "at": [3, 3], "brush": 2, "shape": "square"},
    {"op": "fill", "layer": "difficult", "value": True, "at": [2, 2], "contiguous": False},
    {"op": "line", "layer": "rock", "value": False, "from": [0, 0], "to": [4, 4], "brush": 2, "shape": "round"},
    {"op": "rect", "layer": "width", "value": 0, "from": [0, 0], "to": [4, 4], "filled": False},
    {"op": "circle", "layer": "width", "value": 7, "from": [3, 3], "to": [5, 3]},
    {"op": "undo"}, {"op": "redo"},
    {"op": "point", "name": "lair", "at": [2, 2]}, {"op": "point", "name": "a", "rename": "b"},
    {"op": "point", "name": "a", "delete": True},
])
def test_json_round_trip(d):
    op = parse_op(d)
    assert parse_op(to_json(op)) == op


@pytest.mark.parametrize("d,msg", [
    ([1, 2], "an operation is a JSON object"),
    ({"op": "smear"}, "'op' must be one of paint, erase, fill"),
    ({"op": "paint", "layer": "wdth", "value": 2, "at": [1, 1]}, "'layer' must be one of width, ceiling"),
    ({"op": "paint", "layer": "width", "at": [1, 1]}, "missing 'value'"),
    ({"op": "paint", "layer": "width", "value": -1, "at": [1, 1]}, r"number >= 0 \(0 = rock\), got -1"),
    ({"op": "paint", "layer": "width", "value": "2", "at": [1, 1]}, 'got "2"'),
    ({"op": "paint", "layer": "difficult", "value": 1, "at": [1, 1]}, "must be true or false, got 1"),
    ({"op": "paint", "layer": "width", "value": 2}, "missing 'at'"),
    ({"op": "paint", "layer": "width", "value": 2, "at": [1.5, 1]}, r"'at' must be \[x, y\] with whole numbers"),
    ({"op": "paint", "layer": "width", "value": 2, "at": [1, 1], "brush": 10}, "'brush' must be a whole number 1-9, got 10"),
    ({"op": "paint", "layer": "width", "value": 2, "at": [1, 1], "shape": "oval"}, "'shape' must be"),
    ({"op": "paint", "layer": "width", "value": 2, "at": [1, 1], "size": 3}, "paint: unknown key 'size'"),
    ({"op": "line", "layer": "width", "value": 2, "from": [1, 1]}, "line: missing 'to'"),
    ({"op": "rect", "layer": "width", "value": 2, "from": [1, 1], "to": [2, 2], "filled": "yes"}, "'filled' must be true or false"),
    ({"op": "point", "at": [1, 1]}, "'name' must be a non-empty string"),
    ({"op": "point", "name": "a"}, "give 'at' to place or move it"),
    ({"op": "undo", "times": 3}, "undo: unknown key 'times'"),
])
def test_bad_operations_name_the_key_and_fix(d, msg):
    with pytest.raises(ValueError, match=msg):
        parse_op(d)


def test_parse_ops_reports_every_bad_line_with_its_number():
    with pytest.raises(DataError) as e:
        parse_ops(['{"op": "undo"}', "", "# a comment", '{"op": "paint"', '{"op": "fill", "layer": "x"}'], "o.jsonl")
    assert e.value.problems[0].startswith("o.jsonl:4: not valid JSON")
    assert e.value.problems[1].startswith("o.jsonl:5: 'layer' must be one of")
    assert len(e.value.problems) == 2


def test_refusals_are_values_and_change_nothing():
    doc = Document.blank(5, 4)
    for op, msg in ((Paint("width", 2, ((5, 0),)), "paint: (5, 0) is off the map (5x4)"),
                    (Fill("width", 2000, (1, 1)), "fill: width 2000 ft is over the largest allowed (1000 ft)"),
                    (Undo(), "nothing to undo"), (Redo(), "nothing to redo"),
                    (PointOp("p", at=(1, 1)), "point p: (1, 1) is solid rock"),
                    (PointOp("p", rename="q"), "point p: no such point")):
        r = run(doc, op)
        assert msg in r.reason
    assert doc.version == 0 and not (~doc.rock).any()


def test_apply_ops_names_the_line_of_a_refusal():
    doc = Document.blank(5, 4)
    ops = parse_ops(['{"op": "rect", "layer": "width", "value": 10, "from": [1, 1], "to": [3, 2]}',
                     '{"op": "point", "name": "x", "at": [0, 0]}'], "o.jsonl")
    with pytest.raises(DataError, match=r"o.jsonl:2: point x: \(0, 0\) is solid rock; put the point on a floor "
                                        r"square; nothing was written"):
        apply_ops(doc, ops, "o.jsonl")


def test_metric_values_are_metres():
    doc = Document.blank(4, 4, units="m")
    run(doc, Paint("width", 0.6, ((1, 1),)))
    assert doc.width[1, 1] == 2.0 and doc.ceiling[1, 1] == 10.0
    run(doc, Rect("ceiling", 1.5, (0, 0), (3, 3)))
    assert doc.ceiling[1, 1] == 5.0


def test_cli_new_then_apply_writes_a_legend_map(tmp_path, capsys):
    ops = ops_file(tmp_path,
                   {"op": "rect", "layer": "width", "value": 10, "from": [1, 1], "to": [6, 3]},
                   {"op": "line", "layer": "width", "value": 2, "from": [7, 2], "to": [9, 2]},
                   {"op": "rect", "layer": "width", "value": 15, "from": [10, 1], "to": [12, 3]},
                   {"op": "paint", "layer": "ceiling", "value": 3, "at": [11, 2], "brush": 1},
                   {"op": "fill", "layer": "difficult", "value": True, "at": [2, 2]},
                   {"op": "undo"},
                   {"op": "point", "name": "start", "at": [1, 1]})
    out = tmp_path / "cave.toml"
    assert main(["edit", str(out), "--new", "14x5", "--apply", str(ops), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["format"] == "legend" and summary["operations"] == 7 and summary["backup"] is None
    g = load_map(out)
    assert g.width_ft[2, 8] == 2 and g.height_ft[2, 8] == 10 and g.height_ft[2, 11] == 3
    assert not g.difficult.any() and g.points == {"start": (1, 1)}
    text = out.read_text()
    assert 'grid = """' in text and "[legend]" in text


def test_cli_apply_bad_line_exits_2_and_writes_nothing(write_map, tmp_path, capsys):
    m = write_map(GRID, LEGEND)
    before = m.read_bytes()
    ops = ops_file(tmp_path, {"op": "paint", "layer": "width", "value": 3, "at": [2, 2]},
                   {"op": "paint", "layer": "width", "value": 3, "at": [20, 2]})
    out = tmp_path / "new.toml"
    assert main(["edit", str(m), "--apply", str(ops), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "ops.jsonl:2: paint: (20, 2) is off the map (8x4); nothing was written" in err
    assert "Traceback" not in err
    assert not out.exists() and m.read_bytes() == before and not (tmp_path / "t.toml.bak").exists()


@pytest.mark.parametrize("argv,msg", [
    (["--new", "0x5"], "--new '0x5': write the size as COLSxROWS"),
    (["--new", "big"], "--new 'big': write the size as COLSxROWS"),
    (["--new", "5000x10"], "over the map size limit of 4096x4096"),
    (["--units", "m"], "--units and --name are for a --new map"),
])
def test_cli_bad_arguments(write_map, tmp_path, capsys, argv, msg):
    target = str(tmp_path / "n.toml") if "--new" in argv else str(write_map(GRID, LEGEND))
    assert main(["edit", target, *argv, "--apply", "x.jsonl"]) == 2
    assert msg in capsys.readouterr().err


def test_cli_new_refuses_an_existing_file(write_map, capsys):
    m = write_map(GRID, LEGEND)
    assert main(["edit", str(m), "--new", "10x10", "--apply", "x.jsonl"]) == 2
    assert "already exists; open it without --new" in capsys.readouterr().err


def test_cli_missing_ops_file_and_bad_out(write_map, tmp_path, capsys):
    m = write_map(GRID, LEGEND)
    assert main(["edit", str(m), "--apply", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl: no such file; check the path of --apply" in capsys.readouterr().err
    assert main(["edit", str(m), "--apply", "x.jsonl", "--out", str(tmp_path / "x.npz")]) == 2
    assert "give the .toml map file" in capsys.readouterr().err
    assert main(["edit", str(m), "--apply", "x.jsonl", "--out", str(tmp_path / "no" / "x.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_cli_inline_encounter_needs_out(tmp_path, capsys):
    p = tmp_path / "enc.toml"
    p.write_text('[encounter]\nseed = 1\n[map]\nname = "x"\ngrid = """\n###\n#.#\n###\n"""\n[legend]\n'
                 '"#" = "wall"\n"." = { width = 10, height = 10 }\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n')
    ops = ops_file(tmp_path, {"op": "undo"})
    assert main(["edit", str(p), "--apply", str(ops)]) == 2
    assert "is an encounter with its map inline; give --out MAP.toml" in capsys.readouterr().err


def test_cli_encounter_naming_its_map_edits_that_map(write_map, tmp_path):
    m = write_map(GRID, LEGEND, name="cave.toml")
    enc = tmp_path / "enc.toml"
    enc.write_text('[encounter]\nmap = "cave.toml"\nseed = 1\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n')
    ops = ops_file(tmp_path, {"op": "paint", "layer": "width", "value": 3, "at": [2, 2]})
    assert main(["edit", str(enc), "--apply", str(ops)]) == 0
    assert load_map(m).width_ft[2, 2] == 3 and "[encounter]" in enc.read_text()


def test_stroke_and_shapes_through_read_ops(tmp_path):
    p = ops_file(tmp_path, {"op": "paint", "layer": "width", "value": 5, "at": [[1, 1], [6, 1]]},
                 {"op": "circle", "layer": "width", "value": 20, "from": [4, 4], "to": [4, 6], "filled": False})
    ops = read_ops(p)
    assert [n for n, _ in ops] == [1, 2] and isinstance(ops[1][1], Circle)
    doc = Document.blank(10, 10)
    apply_ops(doc, ops)
    assert (doc.width[1, 1:7] == 5).all()           # the stroke is joined between its points
    assert doc.width[4, 4] == 0 and doc.width[6, 4] == 20   # a ring: the centre stays rock
    assert isinstance(parse_op({"op": "line", "layer": "width", "value": 1, "from": [0, 0], "to": [1, 1]}), Line)
    assert np.count_nonzero(doc.width == 20) == 12
