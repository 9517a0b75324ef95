"""The Python API (sim.api, issue 32): each call gives what the command it wraps prints for the
same inputs, refuses bad input with the command's words, and ``import sim`` stays light."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import sim.api as cs
from sim.cli import main

from conftest import MAPS, ROOT

UVTT = ROOT / "tests" / "data" / "uvtt" / "oganm-test.dd2vtt"


def cli_json(capsys, *argv: str):
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_all_names_exist_and_are_documented_with_a_call():
    assert all(hasattr(cs, name) for name in cs.__all__)
    calls = [n for n in cs.__all__ if callable(getattr(cs, n)) and getattr(cs, n).__module__ == "sim.api"]
    assert len(calls) == 17
    for name in calls:
        assert ">>>" in getattr(cs, name).__doc__ or name in ("save_map", "counts", "narrate"), name


def test_import_sim_loads_nothing_heavy():
    code = "import sys, sim; print(','.join(m for m in ('numpy', 'numba', 'scipy', 'sim.api') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and r.stdout.strip() == "", r.stdout + r.stderr


def test_classify_and_counts_equal_the_command(capsys):
    grid = cs.load_map(MAPS / "gallery.toml")
    cats = cs.classify(grid, cs.body("medium"))
    out = json.loads(cli_json(capsys, "classify", str(MAPS / "gallery.toml"), "--size", "medium", "--json"))
    assert [[cs.Category(v).name for v in row] for row in cats] == out["grid"]
    total = json.loads(cli_json(capsys, "classify", str(MAPS / "gallery.toml"), "--all-sizes", "--json"))
    assert {c.name: n for c, n in cs.counts(grid, cs.body("medium")).items()} == total["sizes"]["medium"]
    assert sum(cs.counts(grid, cs.body("large")).values()) == 69


def test_bodies_and_movers():
    assert cs.body("medium").height == 6.0 and cs.body("large", form="long").form == "long"
    assert cs.body(creature="rat-swarm").opening == cs.body("tiny", swarm=True).opening
    assert cs.mover(creature="human-fighter-3").speed_ft == 20     # in its armour
    assert cs.mover("medium", speed=40, escape_artist=5).escape_artist == 5
    assert not cs.mover("medium", in_combat=True).take10
    with pytest.raises(cs.UsageError, match="not both"):
        cs.body("medium", creature="ogre")
    with pytest.raises(cs.UsageError, match="size: "):
        cs.body("enormous")
    with pytest.raises(cs.UsageError, match="fine, diminutive or tiny"):
        cs.body("medium", swarm=True)
    with pytest.raises(cs.UsageError, match="multiple of 5"):
        cs.mover("medium", speed=33)
    with pytest.raises(cs.DataError, match="ogre"):
        cs.body(creature="ogrre")


@pytest.mark.parametrize("who", [("medium", None), (None, "ogre"), (None, "human-fighter-3")])
def test_path_and_reach_equal_the_command(capsys, who):
    size, creature = who
    grid = cs.load_map(MAPS / "warrens.toml")
    a, b = grid.points["entrance"], grid.points["lair"]
    flags = ["--size", size] if size else ["--creature", creature]
    route = cs.path(grid, a, b, size, creature=creature)
    cli = json.loads(cli_json(capsys, "path", str(MAPS / "warrens.toml"), "--from", "%d,%d" % a,
                              "--to", "%d,%d" % b, *flags, "--json"))
    assert json.loads(json.dumps(route.to_json())) == cli
    r = cs.reach(grid, a, size, creature=creature)
    cli = json.loads(cli_json(capsys, "reach", str(MAPS / "warrens.toml"), "--from", "%d,%d" % a, *flags, "--json"))
    got = json.loads(json.dumps(r.to_json()))
    assert got["single"] == cli["single"] and got["double"] == cli["double"]


def test_path_refuses_rock_and_squares_off_the_map():
    grid = cs.load_map(MAPS / "warrens.toml")
    with pytest.raises(cs.UsageError, match="start 0,0 is solid rock"):
        cs.path(grid, (0, 0), grid.points["lair"], "medium")
    with pytest.raises(cs.UsageError, match="goal 999,0 is off the map"):
        cs.path(grid, grid.points["entrance"], (999, 0), "medium")


def test_play_and_narrate_equal_fight(capsys):
    fight = cs.play(MAPS / "demo.toml", seed=4)
    lines = cli_json(capsys, "fight", str(MAPS / "demo.toml"), "--seed", "4", "--json").splitlines()
    assert [json.dumps(e.to_json(), separators=(",", ":")) for e in fight.events] == lines
    log = cli_json(capsys, "fight", str(MAPS / "demo.toml"), "--seed", "4").splitlines()
    assert cs.narrate(fight) == log
    assert cs.narrate(fight, fight.events[:1]) == log[:1]
    with pytest.raises(cs.UsageError, match="seed must be"):
        cs.play(MAPS / "demo.toml", seed=-1)


def test_batch_records_and_odds_equal_the_command(capsys, tmp_path):
    out = tmp_path / "runs.jsonl"
    text = cli_json(capsys, "fight", str(MAPS / "demo.toml"), "--runs", "4", "--seed", "2", "--vary", "party.size=2,3",
                    "--out", str(out), "--json", "--workers", "1")
    rows = cs.batch(MAPS / "demo.toml", 4, seed=2, vary=["party.size=2,3"], frame=False)
    assert [(r["variant"], r["index"], r["seed"], r["winner"], r["rounds"]) for r in rows] == [
        (r["variant"], r["index"], r["seed"], r["winner"], r["rounds"])
        for r in map(json.loads, out.read_text().splitlines())]
    assert cs.odds(MAPS / "demo.toml", rows, vary=["party.size=2,3"]) == json.loads(text)["variants"]
    with pytest.raises(cs.UsageError, match="runs must be"):
        cs.batch(MAPS / "demo.toml", 0)


def test_batch_gives_a_dataframe_when_pandas_is_installed():
    pandas = pytest.importorskip("pandas", reason="pandas is optional: without it batch() gives dicts")
    df = cs.batch(MAPS / "demo.toml", 3, seed=1)
    assert isinstance(df, pandas.DataFrame) and list(df["index"]) == [0, 1, 2]
    assert cs.odds(MAPS / "demo.toml", df) == cs.odds(MAPS / "demo.toml", cs.batch(MAPS / "demo.toml", 3, seed=1,
                                                                                     frame=False))


def test_analyze_and_chokepoints_equal_the_command(capsys):
    grid = cs.load_map(MAPS / "warrens.toml")
    facts = json.loads(cli_json(capsys, "analyze", str(MAPS / "warrens.toml"), "--sizes", "medium,large",
                                "--creature", "ogre", "--no-files", "--json"))
    m = cs.analyze(grid, sizes=["medium", "large"], creatures=["ogre"])
    assert json.loads(json.dumps(m.facts, default=str)).keys() == facts.keys()
    assert [c["id"] for c in facts["chokepoints"]] == [c.id for c in cs.chokepoints(grid)]
    with pytest.raises(cs.UsageError, match="nothing to analyse"):
        cs.analyze(grid, sizes=[])
    with pytest.raises(cs.UsageError, match="min_area"):
        cs.chokepoints(grid, min_area=0)


def test_crawl_equals_the_command(capsys):
    trip = cs.crawl(MAPS / "crawl_warrens.toml", seed=5)
    out = json.loads(cli_json(capsys, "crawl", str(MAPS / "crawl_warrens.toml"), "--seed", "5", "--json"))
    assert sorted(trip.arrived) == sorted(out["arrived"])
    assert [list(p) for p in trip.route] == out["route"]


def test_import_map_every_format_and_save_it(tmp_path):
    vtt = cs.import_map(UVTT, points={"entrance": (3, 3)})
    assert (vtt.cols, vtt.rows, vtt.points["entrance"]) == (20, 20, (3, 3))
    tiled = cs.import_map(MAPS / "tiled_semantic.tmj")
    assert tiled.shape == cs.load_map(MAPS / "tiled_twin.toml").shape
    written = cs.save_map(vtt, tmp_path / "oganm.toml")
    back = cs.load_map(tmp_path / "oganm.toml")
    assert back.points["entrance"] == (3, 3) and (back.rock == vtt.rock).all()
    assert written.files[0] == tmp_path / "oganm.toml"
    with pytest.raises(cs.DataError, match="cannot import .jpg files"):
        cs.import_map(tmp_path / "cave.jpg")
    with pytest.raises(cs.UsageError, match="point lair"):
        cs.import_map(MAPS / "tiled_semantic.tmj", points={"lair": (0, 0)})
