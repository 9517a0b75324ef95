"""Encounter files (DESIGN §5) and their bad inputs (issue 4, item 8): one message each, naming
the file and the key, exit code 2."""

import json

import pytest

from sim.cli import main
from sim.base.errors import DataError
from sim.scenario.files import load_encounter

from conftest import MAPS

HEAD = '''[encounter]
seed = 3

[map]
name = "t"
grid = """
#######
#.....#
#..#..#
#.a...#
#######
"""

[legend]
"#" = "wall"
"." = { width = 10, height = 12 }
"a" = { width = 0.3, height = 12 }
'''


def enc_file(tmp_path, combatants: str, head: str = HEAD):
    p = tmp_path / "e.toml"
    p.write_text(head + combatants)
    return p


def problems(p):
    with pytest.raises(DataError) as exc:
        load_encounter(p)
    return str(exc.value)


def test_a_good_file_and_defaults(tmp_path):
    p = enc_file(tmp_path, '[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n'
                           '[[combatant]]\ntemplate = "human-fighter-1"\nat = [5, 1]\n')
    spec = load_encounter(p)
    assert [c.id for c in spec.combatants] == ["goblin-1", "human-fighter-1-1"]
    assert spec.seed == 3 and spec.settings["swarm_shape"] == "any"


def test_unknown_template_weapon_and_item(tmp_path):
    p = enc_file(tmp_path, '[[combatant]]\ntemplate = "gobblin"\nat = [1, 1]\n'
                           '[[combatant]]\ntemplate = "goblin"\nat = [4, 1]\nweapon = "lightsaber"\n'
                           '[[combatant]]\ntemplate = "goblin"\nat = [5, 1]\nitems = { phaser = 1 }\n')
    msg = problems(p)
    assert "e.toml:18: [[combatant]] 'gobblin-1'" in msg and "gobblin" in msg and "goblin" in msg
    assert "lightsaber" in msg
    assert "phaser" in msg


def test_placed_in_rock_off_map_on_another_and_where_it_does_not_fit(tmp_path):
    p = enc_file(tmp_path, '[[combatant]]\ntemplate = "goblin"\nat = [3, 2]\n'
                           '[[combatant]]\ntemplate = "goblin"\nat = [9, 9]\n'
                           '[[combatant]]\nid = "a"\ntemplate = "goblin"\nat = [1, 1]\n'
                           '[[combatant]]\nid = "b"\ntemplate = "goblin"\nat = [1, 1]\n'
                           '[[combatant]]\nid = "c"\ntemplate = "human-fighter-1"\nat = [2, 3]\n'
                           '[[combatant]]\nid = "ogre"\ntemplate = "ogre"\nat = [2, 3]\n')
    msg = problems(p)
    assert "(3, 2) is solid rock; put it on a floor square" in msg
    assert "(9, 9) is off the map (7x5)" in msg
    assert "'b' at: (1, 1) is already taken by 'a'" in msg
    assert "a medium Human fighter 1 does not fit at (2, 3)" in msg
    assert "a large Ogre does not fit at (2, 3)" in msg


def test_bad_keys_and_values(tmp_path):
    p = enc_file(tmp_path, '[[combatant]]\ntemplate = "goblin"\nat = [1]\nteem = "x"\n'
                           '[settings]\nswarm_shape = "blob"\nwobble = 1\n')
    msg = problems(p)
    assert "at: must be [x, y] with whole numbers, got [1]" in msg
    assert "teem: unknown key" in msg
    assert "swarm_shape: must be \"any\" or \"square\"" in msg
    assert "[settings] wobble: unknown setting" in msg


def test_missing_map_and_no_combatants(tmp_path):
    p = tmp_path / "e.toml"
    p.write_text('[encounter]\nmap = "nope.toml"\n')
    msg = problems(p)
    assert "nope.toml: no such file" in msg and "needs at least one [[combatant]]" in msg


def test_cli_fight_bad_input_exit_2(tmp_path, capsys):
    p = enc_file(tmp_path, '[[combatant]]\ntemplate = "goblin"\nat = [3, 2]\n')
    assert main(["fight", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cavesim: error:") and "solid rock" in err and "Traceback" not in err
    assert main(["validate", str(p), str(MAPS / "demo.toml")]) == 2
    out, err = capsys.readouterr()
    assert "demo.toml: ok" in out and "solid rock" in err


def test_cli_fight_writes_events_and_log(tmp_path, capsys):
    ev = tmp_path / "ev.jsonl"
    assert main(["fight", str(MAPS / "ogre_tunnel.toml"), "--seed", "3", "--events", str(ev)]) == 0
    out = capsys.readouterr().out
    assert "Initiative:" in out and "== party wins" in out
    lines = [json.loads(x) for x in ev.read_text().splitlines()]
    assert lines[0]["type"] == "encounter_start" and lines[-1]["type"] == "encounter_end"
    attack = next(x for x in lines if x["type"] == "attack")
    assert {"round", "actor", "target", "weapon", "roll", "modifiers", "total", "ac", "ac_modifiers", "hit",
            "critical"} <= set(attack)
    moved = next(x for x in lines if x["type"] == "moved")
    assert all({"at", "category", "feet"} <= set(s) for s in moved["path"])
    assert main(["fight", str(MAPS / "ogre_tunnel.toml"), "--events", str(tmp_path / "no" / "x.jsonl")]) == 2


def test_every_shipped_encounter_validates():  # tests/engine/test_goldens.py runs them
    for name in ("kobold_warren", "ogre_tunnel", "fissure_hold", "rat_crack", "bat_gallery", "hellwasp_torches", "demo"):
        spec = load_encounter(MAPS / f"{name}.toml")
        assert spec.combatants
