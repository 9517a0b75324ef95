"""``cavesim path`` and ``cavesim reach``: output schemas and every bad input (issue 3, item 6)."""

import json

import pytest

from sim.cli import main

from conftest import MAPS


def run_json(capsys, *args):
    assert main(list(args) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_path_json_schema(capsys):
    out = run_json(capsys, "path", str(MAPS / "gallery.toml"), "--size", "medium", "--from", "1,1", "--to", "23,3")
    assert set(out) >= {"reachable", "squares", "steps", "feet", "move_actions", "rounds", "expected_rounds"}
    assert out["reachable"] and out["squares"][0] == [1, 1] and out["squares"][-1] == [23, 3]
    assert all({"at", "category", "feet"} <= set(s) for s in out["steps"])
    assert out["feet"] == sum(s["feet"] for s in out["steps"])


def test_path_through_the_fissure_with_escape_artist(capsys):
    # row 2 of the gallery: a Medium creature going along it meets every category; the impassable
    # 0.4-ft square (22, 2) forces it round, and the path's steps name each category crossed
    out = run_json(capsys, "path", str(MAPS / "gallery.toml"), "--size", "medium", "--from", "1,2", "--to", "10,2")
    assert out["reachable"]


def test_unreachable_is_not_an_error(capsys):
    rows = "#######\n#..#..#\n#######"
    import tempfile, pathlib
    d = pathlib.Path(tempfile.mkdtemp())
    (d / "m.toml").write_text(f'[map]\nname = "x"\ngrid = """\n{rows}\n"""\n[legend]\n"#" = "wall"\n"." = {{ width = 10, height = 10 }}\n')
    out = run_json(capsys, "path", str(d / "m.toml"), "--size", "medium", "--from", "1,1", "--to", "5,1")
    assert out == {"reachable": False, "squares": [], "steps": [], "feet": 0, "move_actions": None, "rounds": None,
                   "last_turn_move_actions": None, "expected_move_actions": None, "expected_rounds": None}


def test_reach_json_schema(capsys):
    out = run_json(capsys, "reach", str(MAPS / "warrens.toml"), "--creature", "human-fighter-3", "--from", "22,15")
    assert out["speed"] == 20
    assert all(len(t) == 3 for t in out["single"]) and len(out["double"]) > len(out["single"])
    assert {tuple(t[:2]) for t in out["single"]} <= {tuple(t[:2]) for t in out["double"]}
    out = run_json(capsys, "reach", str(MAPS / "warrens.toml"), "--size", "medium", "--from", "22,15", "--speed", "40")
    assert out["speed"] == 40


def test_text_output_draws_the_path(capsys):
    assert main(["path", str(MAPS / "warrens.toml"), "--creature", "halfling-rogue-3", "--from", "4,15",
                 "--to", "22,15"]) == 0
    out = capsys.readouterr().out
    assert "S" in out and "G" in out and "guaranteed:" in out and "expected:" in out
    assert main(["reach", str(MAPS / "warrens.toml"), "--size", "medium", "--from", "22,15"]) == 0
    assert "@" in capsys.readouterr().out


@pytest.mark.parametrize("args,needle", [
    (["--from", "99,1", "--to", "3,1"], "--from 99,1 is off the map (25x5 squares"),
    (["--from", "0,0", "--to", "3,1"], "--from 0,0 is solid rock"),
    (["--from", "1,1", "--to", "22,2"], "--to 22,2: this creature cannot stand there (Impassable)"),
    (["--from", "1;1", "--to", "3,1"], "--from '1;1' is not a square: write it as X,Y"),
    (["--from", "1,1", "--to", "3,1", "--speed", "7"], "--speed must be a non-negative multiple of 5"),
])
def test_path_bad_input(capsys, args, needle):
    assert main(["path", str(MAPS / "gallery.toml"), "--size", "medium"] + args) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_unknown_size_template_and_both(capsys):
    assert main(["reach", str(MAPS / "gallery.toml"), "--size", "huuge", "--from", "1,1"]) == 2
    assert "unknown size 'huuge'" in capsys.readouterr().err
    assert main(["reach", str(MAPS / "gallery.toml"), "--creature", "goblim", "--from", "1,1"]) == 2
    err = capsys.readouterr().err
    assert "goblim" in err and "goblin" in err
    assert main(["reach", str(MAPS / "gallery.toml"), "--from", "1,1"]) == 2
    assert "give --size SIZE" in capsys.readouterr().err
    assert main(["reach", str(MAPS / "gallery.toml"), "--size", "small", "--creature", "goblin", "--from", "1,1"]) == 2
    assert "exclude each other" in capsys.readouterr().err


NARROW_AND_LOW = ('[map]\nname = "nl"\ngrid = """\n#######\n#.NNNN#\n#######\n"""\n[legend]\n"#" = "wall"\n'
                  '"." = { width = 10, height = 10 }\n"N" = { width = 4, height = 4 }\n')


@pytest.mark.parametrize("to, actions, rounds, last, words", [
    ("4,1", 2, 1, 2, "2 move actions = 1 round (a double move or full-round action)"),   # 1 round, not "1 rounds"
    ("5,1", 3, 2, 1, "3 move actions = 2 rounds (1 whole turn, then a move action)"),
])
def test_rules_6_1_path_says_what_the_last_turn_uses(tmp_path, capsys, to, actions, rounds, last, words):
    # Narrow and Low (x4, 20 ft a square) at 30 ft: a double move holds three squares (60 ft)
    m = tmp_path / "nl.toml"
    m.write_text(NARROW_AND_LOW)
    out = run_json(capsys, "path", str(m), "--size", "medium", "--from", "1,1", "--to", to)
    assert (out["move_actions"], out["rounds"], out["last_turn_move_actions"]) == (actions, rounds, last)
    assert main(["path", str(m), "--size", "medium", "--from", "1,1", "--to", to]) == 0
    assert words in capsys.readouterr().out
    r = run_json(capsys, "reach", str(m), "--size", "medium", "--from", "1,1")
    assert r["single"] == [[2, 1, 20]] and r["double"] == [[2, 1, 20], [3, 1, 40], [4, 1, 60]]
