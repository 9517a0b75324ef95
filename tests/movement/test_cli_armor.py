"""``cavesim path`` / ``reach`` with the stat block's armor (issue 13 item 1; RULES §2.4, §7.33):
medium and heavy armor comes off before a crawlway, awkward space or tight squeeze, and the route
shows it as a step of its own; ``--no-armor`` plans as if it were already off."""

import json
import textwrap

import pytest

from sim.cli import main

MAP = textwrap.dedent('''
    [map]
    name = "crawl test"
    grid = """
    ############
    #...cccc...#
    ############
    """
    [legend]
    "#" = "wall"
    "." = { width = 30, height = 12 }
    "c" = { width = 5, height = 2.5 }
    ''')

PLATE = textwrap.dedent('''
    schema_version = 1
    name = "Plate fighter"
    kind = "pc"
    race = "human"
    sex = "female"
    feats = ["Power Attack", "Weapon Focus (longsword)", "Cleave"]
    armor = "full-plate"

    [levels]
    fighter = 1

    [abilities]
    str = 15
    dex = 12
    con = 14
    int = 10
    wis = 12
    cha = 8

    [[weapon]]
    name = "longsword"
    ''')


@pytest.fixture
def cave(tmp_path):
    p = tmp_path / "crawl.toml"
    p.write_text(MAP)
    return p


def _json(capsys, *args):
    assert main([*map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_path_in_scale_mail_has_the_armor_off_step(cave, capsys):
    """1 minute = 10 rounds at the mouth (3, 1); walked there at 20 ft, crawled at 30 ft:
    1 + 20 + 7 move actions = 28 guaranteed; 1 + 10 + 4 = 15 rounds."""
    out = _json(capsys, "path", cave, "--creature", "human-fighter-1", "--from", "1,1", "--to", "10,1")
    kinds = [s["kind"] for s in out["steps"]]
    assert kinds == ["walk", "walk", "armor_off", "crawl", "crawl", "crawl", "crawl", "crawl", "stand", "walk", "walk"]
    step = out["steps"][2]
    assert step == {"at": [3, 1], "kind": "armor_off", "armor": "scale-mail", "removal": "1 minute", "rounds": 10,
                    "expected_rounds": 10.0, "move_action": 0, "feet": 0, "category": None}
    assert (out["move_actions"], out["rounds"], out["expected_rounds"]) == (28.0, 15, 14.5)
    assert out["feet"] == 45 and out["squares"][0] == [1, 1] and out["squares"][-1] == [10, 1]


def test_no_armor_plans_as_if_it_were_off(cave, capsys):
    out = _json(capsys, "path", cave, "--creature", "human-fighter-1", "--from", "1,1", "--to", "10,1", "--no-armor")
    assert "armor_off" not in [s["kind"] for s in out["steps"]]
    assert (out["move_actions"], out["rounds"]) == (8.0, 4)


def test_full_plate_is_one_d4_plus_one_minutes(cave, tmp_path, capsys):
    """RULES §2.4: 1d4+1 minutes = 20 to 50 rounds; guaranteed at the longest, expected at 35."""
    (tmp_path / "plate.toml").write_text(PLATE)
    out = _json(capsys, "path", cave, "--creature", tmp_path / "plate.toml", "--from", "1,1", "--to", "10,1")
    step = next(s for s in out["steps"] if s["kind"] == "armor_off")
    assert (step["armor"], step["removal"], step["rounds"], step["expected_rounds"]) == \
        ("full-plate", "1d4+1 minutes", [20, 50], 35.0)
    assert out["rounds"] == 1 + 50 + 4 and out["expected_rounds"] == 1 + 35 + 3.5


def test_the_text_shows_the_step(cave, capsys):
    assert main(["path", str(cave), "--creature", "human-fighter-1", "--from", "1,1", "--to", "10,1"]) == 0
    out = capsys.readouterr().out
    assert "in scale mail, which comes off before a crawlway" in out
    assert "armor_off         0  scale mail off: 1 minute = 10 rounds (half with an ally's help)" in out
    assert "guaranteed: 28 move actions = 15 rounds" in out


def test_reach_stops_before_the_crawlway_in_armor(cave, capsys):
    out = _json(capsys, "reach", cave, "--creature", "human-fighter-1", "--from", "1,1")
    assert out["double"] == [[2, 1, 5], [3, 1, 10]]
    assert out["armor_off"] == {"kind": "armor_off", "armor": "scale-mail", "removal": "1 minute", "rounds": 10,
                                "squares_behind_it": 1}
    bare = _json(capsys, "reach", cave, "--creature", "human-fighter-1", "--from", "1,1", "--no-armor")
    assert "armor_off" not in bare and [4, 1, 15] in bare["double"]


def test_a_creature_in_light_armor_has_no_step(cave, capsys):
    out = _json(capsys, "path", cave, "--creature", "goblin", "--from", "1,1", "--to", "10,1")
    assert "armor_off" not in [s["kind"] for s in out["steps"]]


@pytest.mark.parametrize("args,needle", [
    (["--size", "medium", "--no-armor"], "--no-armor needs --creature TEMPLATE (a stat block wearing armor)"),
    (["--creature", "goblin", "--no-armor"], "--no-armor: Goblin wears no medium or heavy armor (leather); "
                                             "leave --no-armor out"),
    (["--creature", "halfling-rogue-1", "--no-armor"], "wears no medium or heavy armor (leather)"),
])
def test_no_armor_bad_input(cave, capsys, args, needle):
    for cmd in (["path", str(cave), "--from", "1,1", "--to", "10,1"], ["reach", str(cave), "--from", "1,1"]):
        assert main(cmd + args) == 2
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err
