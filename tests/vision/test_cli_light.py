"""``cavesim light``: JSON schema, known answers on a tiny encounter, bad input (issue 16 item 8)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from sim.cli import main

from conftest import MAPS, ROOT

CORRIDOR = '''
[map]
name = "corridor"
grid = """
################
#..............#
################
"""
[legend]
"#" = "wall"
"." = { width = 10, height = 10 }
'''


def encounter(tmp_path, combatants: str, extra_map: str = "", name: str = "e.toml"):
    p = tmp_path / name
    p.write_text(CORRIDOR + textwrap.dedent(extra_map) + "\n[encounter]\nseed = 1\n" + textwrap.dedent(combatants))
    return p


TWO = '''
[[combatant]]
id = "bruna"
template = "human-fighter-3"
team = "party"
at = [1, 1]
lit = true

[[combatant]]
id = "kobold"
template = "kobold"
team = "monsters"
at = [13, 1]
'''


def test_json_schema_and_known_answers(tmp_path, capsys):
    assert main(["light", str(encounter(tmp_path, TWO)), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["cols"], out["rows"]) == (16, 3)
    row = out["levels"][1]
    # the torch from bruna's corner (x = 1): bright to x = 5 (20 ft), shadowy to x = 9 (40 ft)
    assert row[1:6] == ["bright"] * 5 and row[6:10] == ["shadowy"] * 4 and row[10:15] == ["dark"] * 5
    # the kobold (darkvision 60 ft, 12 squares away) sees the lit fighter; she cannot see it in the dark
    assert out["sees"] == {"bruna": {"sees": [], "locates": []}, "kobold": {"sees": ["bruna"], "locates": []}}
    assert out["round"] == 1 and out["blinded"] == []
    assert out["lights"] == [{"name": "torch (bruna)", "at": [1, 1], "bright_ft": 20.0, "shadowy_ft": 40.0}]


def test_map_lights_and_carried_lanterns(tmp_path, capsys):
    p = encounter(tmp_path, TWO.replace("lit = true", 'light = "hooded-lantern"'),
                  extra_map='[[light]]\nname = "brazier"\nat = [14, 1]\nsource = "candle"\n')
    assert main(["light", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["levels"][1]
    assert row[1:8] == ["bright"] * 7        # the lantern: 30 ft bright
    assert row[13:15] == ["shadowy"] * 2     # the candle's 5 ft around (14, 1)
    assert out["sees"]["bruna"]["sees"] == ["kobold"]   # 60 ft of shadowy lantern light reaches x = 13


def test_text_output(tmp_path, capsys):
    assert main(["light", str(encounter(tmp_path, TWO))]) == 0
    out = capsys.readouterr().out
    assert "light at the start of round 1" in out
    # a ruled map, as every map the commands print (column numbers above, row numbers on the left)
    assert ("\n    0         1\n    0123456789012345\n  0 ################\n  1 #1BBBBSSSS...2.#\n"
            "  2 ################\n") in out
    assert "1 bruna (party; stands in bright light; carries a lit torch)" in out
    assert "2 kobold (monsters; stands in the dark)" in out


def test_later_round_after_the_fight_moves(tmp_path, capsys):
    assert main(["light", str(MAPS / "demo.toml"), "--round", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["round"] == 3 and set(out["sees"]) >= {"bruna", "tordek", "lidda", "mialee"}


def test_crawl_file(capsys):
    assert main(["light", str(MAPS / "crawl_warrens.toml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["round"] is None
    assert [li["name"] for li in out["lights"]] == ["torch (lidda)"]   # the first with a hand free (no shield)
    assert set(out["sees"]) == {"bruna", "lidda", "tordek", "mialee", "kobold-1", "kobold-2", "kobold-3", "kobold-4"}


# -- bad input: one located message each, exit 2 -------------------------------------------------


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300)


@pytest.mark.parametrize("extra_map, combatants, message", [
    ('[[light]]\nat = [3, 1]\nsource = "glowworm"\n', TWO,
     r"e.toml:\d+: \[\[light\]\] #1.source: unknown light source 'glowworm'; use one of"),
    ('[[light]]\nat = [0, 0]\nsource = "torch"\n', TWO, r"\[\[light\]\] #1.at: \(0, 0\) is solid rock"),
    ('[[light]]\nat = [40, 1]\nsource = "torch"\n', TWO, r"\[\[light\]\] #1.at: \(40, 1\) is off the map"),
    ('[[light]]\nat = [3, 1]\nbright_ft = -10\nshadowy_ft = 20\n', TWO,
     r"#1.bright_ft: must be a number of feet from 0 to 1000, got -10"),
    ("", TWO.replace("lit = true", 'light = "glowworm"'),
     r"e.toml:\d+: \[\[combatant\]\] 'bruna' light: unknown light source 'glowworm'; use one of .*sunrod"),
])
def test_bad_lights_exit_2_with_the_place(tmp_path, extra_map, combatants, message):
    r = run_cli("light", str(encounter(tmp_path, combatants, extra_map)))
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    import re

    assert re.search(message, r.stderr), r.stderr


def test_a_sense_without_a_range(tmp_path):
    block = tmp_path / "mole.toml"
    text = (ROOT / "sim/data/monsters/humanoid/kobold.toml").read_text().replace(
        "darkvision_ft = 60", "darkvision_ft = true")
    block.write_text(text)
    r = run_cli("light", str(encounter(tmp_path, TWO.replace('template = "kobold"', 'template = "mole.toml"'))))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "[senses] darkvision_ft: must be a range in feet >= 0, got True" in r.stderr


@pytest.mark.parametrize("args, message", [
    (["--round", "0"], "--round must be a round number from 1 to 1000, got 0"),
    (["--round", "999"], "ends in round"),
])
def test_bad_round(tmp_path, args, message):
    r = run_cli("light", str(encounter(tmp_path, TWO)), *args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_round_with_a_crawl_and_a_plain_map():
    r = run_cli("light", str(MAPS / "crawl_warrens.toml"), "--round", "2")
    assert r.returncode == 2 and "--round is for encounter files" in r.stderr
    r = run_cli("light", str(MAPS / "warrens.toml"))
    assert r.returncode == 2 and "neither an encounter" in r.stderr and "Traceback" not in r.stderr


def test_text_output_says_the_percentage_is_a_miss_chance(tmp_path, capsys):
    """A target in shadowy light has concealment: 20% miss chance (SRD: "Concealment ... 20%")."""
    assert main(["light", str(encounter(tmp_path, TWO.replace("at = [13, 1]", "at = [7, 1]")))]) == 0
    out = capsys.readouterr().out
    assert "  1 #1BBBBS2SS.....#" in out          # the kobold stands in the torch's shadowy light
    assert "\n      sees: kobold (20% miss chance)\n" in out
    assert "(20%)" not in out
