"""`cavesim templates` and `cavesim show` (issue 19): know what is there."""

import json
from pathlib import Path

from sim.cli import main

DATA = Path(__file__).resolve().parents[1] / "sim" / "data"


def shipped() -> set[str]:
    return {p.stem for p in (DATA / "pcs").glob("*.toml")} | {p.stem for p in (DATA / "monsters").glob("*/*.toml")}


def test_templates_json_lists_every_shipped_stat_block(capsys):
    assert main(["templates", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["name"] for r in rows} == shipped() and len(rows) == len(shipped())
    rat = next(r for r in rows if r["name"] == "rat-swarm")
    assert (rat["size"], rat["type"], rat["cr"], rat["swarm"]) == ("tiny", "animal", "2", True)
    assert rat["speed"]["land"] == 15 and rat["speed"]["climb"] == 15 and rat["senses"] == "low-light, scent"
    ftr = next(r for r in rows if r["name"] == "human-fighter-3")
    assert ftr["levels"] == {"fighter": 3} and ftr["kind"] == "pc"


def test_templates_word_filters(capsys):
    assert main(["templates", "swarm", "--json"]) == 0
    names = {r["name"] for r in json.loads(capsys.readouterr().out)}
    assert names == {n for n in shipped() if n.endswith("-swarm")}
    assert main(["templates", "large"]) == 0
    out = capsys.readouterr().out
    assert "ogre" in out and "troll" in out and "goblin" not in out


def test_templates_unknown_word_says_so(capsys):
    assert main(["templates", "dragon"]) == 2
    assert "no shipped stat block matches 'dragon'; run `cavesim templates` for the list" in capsys.readouterr().err


def test_show_prints_the_derived_numbers(capsys):
    assert main(["show", "rat-swarm"]) == 0
    out = capsys.readouterr().out
    assert "hp 18" in out                                   # RULES §7.16: 4d8 averages 18
    assert "AC 14" in out and "distraction Fort DC 12" in out
    assert "passes any opening of 3 in. or more" in out     # RULES §1.2 / §7.24
    assert "Printed hp 13 vs rules 18" in out
    assert main(["show", "rat-swarm", "--book-values", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hp"] == 13
    assert main(["show", "human-fighter-3", "--json"]) == 0
    f = json.loads(capsys.readouterr().out)
    assert f["body"]["size"] == "medium" and f["hp"] == 28 and f["ac"] == 19
    assert [a["name"] for a in f["attacks"]][:2] == ["longsword", "dagger"]
    assert f["attacks"][1]["effective_index"] == 0            # a dagger stabs: RULES §2.5


def test_show_unknown_template_names_close_ones(capsys):
    assert main(["show", "orcc"]) == 2
    err = capsys.readouterr().err
    assert "unknown template 'orcc'" in err and "orc" in err and "Traceback" not in err


def test_show_a_tenth_level_pc_prints_its_class_features(capsys):
    assert main(["show", "human-barbarian-10"]) == 0
    out = capsys.readouterr().out
    assert "hp 95" in out and "AC 18" in out and "speed 40 ft" in out and "DR 2/-" in out
    assert "+16/+11" in out and "Class features fast-movement, illiteracy, rage, uncanny-dodge" in out
    assert main(["show", "elf-ranger-10"]) == 0
    assert "favored enemies aberration +6, vermin +2, giant +2" in capsys.readouterr().out
    assert main(["templates", "barbarian", "--json"]) == 0
    names = {r["name"] for r in json.loads(capsys.readouterr().out)}
    assert names == {f"human-barbarian-{n}" for n in range(1, 11)}
