"""Monte Carlo batches: seeds, determinism across workers, resume, errors, sweeps, Dask (issue 7)."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sim.analysis import batch as B
from sim.analysis import blunders
from sim.analysis import records as REC
from sim.analysis.summary import summarize, wilson
from sim.analysis.sweep import apply, parse_vary, variants
from sim.cli import main
from sim.engine.encounter import Encounter
from sim.engine.fight import new_encounter
from sim.scenario.files import load_encounter

SKIRMISH = """
[encounter]
name = "Fissure skirmish"
seed = 3

[map]
name = "Fissure"
units = "ft"
grid = \"\"\"
#############
#....###....#
#....fff....#
#....###....#
#....###....#
#############
\"\"\"

[legend]
"#" = "wall"
"." = { width = 30, height = 12 }
"f" = { width = 2, height = 12 }

[[combatant]]
id = "bruna"
template = "human-fighter-2"
team = "party"
at = [3, 2]

[[combatant]]
id = "lidda"
template = "halfling-rogue-2"
team = "party"
at = [2, 3]

[[combatant]]
id = "gob-1"
template = "goblin"
team = "monsters"
at = [9, 2]

[[combatant]]
id = "rats"
template = "rat-swarm"
team = "monsters"
at = [10, 1]
"""


@pytest.fixture
def enc_file(tmp_path):
    p = tmp_path / "skirmish.toml"
    p.write_text(textwrap.dedent(SKIRMISH))
    return p


def fights(path, *args):
    return main(["fight", str(path), *args])


# -- seeds ---------------------------------------------------------------------------------------

def test_fight_seeds_come_from_seedsequence_spawn():
    children = np.random.SeedSequence(42).spawn(6)
    assert [B.fight_seed(42, i) for i in range(6)] == [int(c.generate_state(1, np.uint64)[0] >> 11) for c in children]
    assert len({B.fight_seed(42, i) for i in range(1000)}) == 1000
    assert all(B.fight_seed(42, i) < 2 ** 53 for i in range(100))


def test_plan_gives_every_variant_the_same_seeds():
    jobs = B.plan(["a", "b"], 3, 9)
    assert [(j.label, j.index) for j in jobs] == [("a", 0), ("a", 1), ("a", 2), ("b", 0), ("b", 1), ("b", 2)]
    assert [j.seed for j in jobs[:3]] == [j.seed for j in jobs[3:]]


# -- determinism ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_same_records_for_any_number_of_workers(enc_file):
    """Local worker pools of 1, 2 and 3 processes give the same records. Warm, the three pools take
    about 1 s; run first in a fresh checkout, the in-process batch pays numba's first compile
    (30-40 s, more on a loaded machine), which is why it is marked slow. It plays in this process
    first, so the pools' workers load the compiled kernels from numba's cache rather than each
    compiling them."""
    spec = load_encounter(enc_file)
    var = [("", spec)]
    jobs = B.plan([""], 10, 5)
    one = B.run_batch(var, jobs, workers=1)
    two = B.run_batch(var, jobs, workers=2)
    three = B.run_batch(var, jobs, workers=3, chunk=1)
    key = B.sort_key({"": 0})
    assert sorted(one, key=key) == sorted(two, key=key) == sorted(three, key=key)
    assert len(one) == 10 and not any(r["error"] for r in one)


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_same_file_for_one_and_two_workers(enc_file, tmp_path, fmt, capsys):
    a, b = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    assert fights(enc_file, "--runs", "8", "--workers", "1", "--out", str(a)) == 0
    assert fights(enc_file, "--runs", "8", "--workers", "2", "--out", str(b)) == 0
    assert a.read_bytes() == b.read_bytes()
    assert not REC.part_path(a).exists()
    recs = REC.read_records(a, fmt)
    assert [r["index"] for r in recs] == list(range(8))
    assert [r["seed"] for r in recs] == [B.fight_seed(3, i) for i in range(8)]   # --seed defaults to the file's


def test_records_match_single_fights_replayed_from_their_seeds(enc_file, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert fights(enc_file, "--runs", "5", "--seed", "11", "--workers", "2", "--out", str(out)) == 0
    capsys.readouterr()
    spec = load_encounter(enc_file)
    for rec in REC.read_records(out, "jsonl"):
        enc = new_encounter(spec, seed=rec["seed"])
        before = B.supplies(enc)             # what it carries at the start: the record says what it spent
        tally = blunders.play_counted(enc)  # the fight as run() plays it, its blunders counted
        assert B.fight_record(enc, label="", index=rec["index"], seed=rec["seed"], before=before, tally=tally) == rec
        # and the single-fight command replays it
        assert fights(enc_file, "--seed", str(rec["seed"]), "--json") == 0
        end = json.loads(capsys.readouterr().out.splitlines()[-1])
        assert (end["winner"] or "", end["round"]) == (rec["winner"], rec["rounds"])


def test_record_columns(enc_file, tmp_path):
    out = tmp_path / "r.csv"
    assert fights(enc_file, "--runs", "2", "--workers", "1", "--out", str(out), "--quiet") == 0
    header = out.read_text().splitlines()[0].split(",")
    assert header[:7] == ["variant", "index", "seed", "winner", "reason", "rounds", "error"]
    assert header[7:11] == ["alive.party", "standing.party", "alive.monsters", "standing.monsters"]
    assert header[11:21] == ["hp.bruna", "maxhp.bruna", "state.bruna", "kills.bruna", "fell.bruna", "at.bruna",
                             "squeezing.bruna", "nauseated.bruna", "spells.bruna", "used.bruna"]
    assert header[-3:] == ["heat.fight", "heat.fall", "heat.stall"]
    rec = REC.read_records(out, "csv")[0]
    assert rec["state.bruna"] in ("up", "dying", "dead", "stable", "unconscious", "asleep", "paralyzed")
    fallen = [c for c in ("bruna", "lidda", "gob-1", "rats") if f"fell.{c}" in rec]
    for c in fallen:
        x, y = map(int, rec[f"fell.{c}"].split(","))
        assert f"{x},{y}:" in rec["heat.fall"]


# -- interruption and resume ---------------------------------------------------------------------

def test_resume_after_an_interrupted_batch(enc_file, tmp_path, monkeypatch, capsys):
    whole = tmp_path / "whole.csv"
    assert fights(enc_file, "--runs", "8", "--workers", "1", "--out", str(whole)) == 0
    out = tmp_path / "runs.csv"
    real = B.play
    calls = {"n": 0}

    def flaky(*a, **kw):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(B, "play", flaky)
    assert fights(enc_file, "--runs", "8", "--workers", "1", "--out", str(out)) == 130
    assert "--resume" in capsys.readouterr().err
    part = REC.part_path(out)
    assert not out.exists() and len(REC.read_records(part, "csv")) == 4   # nothing lost, nothing half-written
    monkeypatch.setattr(B, "play", real)
    with open(part, "a") as fh:                       # a record cut off mid-line is dropped and re-played
        fh.write(",7,123,party,vic")
    calls["n"] = 0
    assert fights(enc_file, "--runs", "8", "--workers", "2", "--out", str(out), "--resume") == 0
    assert out.read_bytes() == whole.read_bytes()
    assert not part.exists()


def test_resume_extends_a_finished_batch(enc_file, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert fights(enc_file, "--runs", "6", "--workers", "1", "--out", str(a)) == 0
    assert fights(enc_file, "--runs", "3", "--workers", "1", "--out", str(b)) == 0
    assert fights(enc_file, "--runs", "6", "--workers", "1", "--out", str(b), "--resume") == 0
    assert a.read_bytes() == b.read_bytes()


def test_resume_refuses_records_of_another_batch(enc_file, tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert fights(enc_file, "--runs", "3", "--workers", "1", "--out", str(out)) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert fights(enc_file, "--runs", "3", "--seed", "99", "--out", str(out), "--resume") == 2
    assert "was played from another seed" in capsys.readouterr().err
    assert fights(enc_file, "--runs", "2", "--out", str(out), "--resume") == 2
    assert "give --runs 3 or more" in capsys.readouterr().err
    assert fights(enc_file, "--runs", "3", "--vary", "party.size=1", "--out", str(out), "--resume") == 2
    assert "columns are not this batch's" in capsys.readouterr().err
    assert out.read_bytes() == before and not REC.part_path(out).exists()


# -- errors --------------------------------------------------------------------------------------

def test_a_fight_that_raises_is_recorded_and_the_batch_goes_on(enc_file, monkeypatch):
    spec = load_encounter(enc_file)
    bad_seed = B.fight_seed(1, 2)
    real = Encounter.advance   # what a batch's fight is played with (run's step; blunders counted between)

    def advance(self):
        if self.seed == bad_seed:
            raise ValueError("boom in the engine")
        return real(self)

    monkeypatch.setattr(Encounter, "advance", advance)
    recs = sorted(B.run_batch([("", spec)], B.plan([""], 4, 1), workers=1), key=lambda r: r["index"])
    assert [bool(r["error"]) for r in recs] == [False, False, True, False]
    assert recs[2]["seed"] == bad_seed
    assert recs[2]["error"].startswith("ValueError: boom in the engine at ")
    assert "test_batch.py" in recs[2]["error"] or "sim/" in recs[2]["error"]
    (s,) = summarize(recs, [""], B.columns([spec]), spec.grid.shape)
    assert (s.fights, s.errors) == (3, 1) and s.first_errors[0]["seed"] == bad_seed


# -- sweeps --------------------------------------------------------------------------------------

def test_vary_legend_width_changes_only_those_squares(enc_file):
    spec = load_encounter(enc_file)
    wider = apply(spec, "legend.f.width", "3")
    f = spec.grid.glyphs == list(spec.grid.legend).index("f")
    assert (wider.grid.width_ft[f] == 3).all() and (wider.grid.width_ft[~f] == spec.grid.width_ft[~f]).all()
    assert wider.grid.legend["f"].width == 3 and spec.grid.width_ft[f][0] == 2   # the original is untouched
    assert apply(spec, "legend.f.width", "0.6m").grid.width_ft[f][0] == pytest.approx(2.0)


def test_vary_any_glyph_of_the_shipped_ogre_tunnel():
    """Issue 34 item 17: the ogre tunnel's tunnel glyph is '=' (the README's own example map): the
    key ends at the first '=' that completes a key, so ``legend.=.width=5,30`` is glyph '='."""
    from pathlib import Path

    tunnel = Path(__file__).resolve().parents[2] / "maps" / "ogre_tunnel.toml"
    spec = load_encounter(tunnel)
    v = parse_vary("legend.=.width=5,30")
    assert (v.key, v.values) == ("legend.=.width", ("5", "30"))
    var = variants(spec, [v])
    assert [lab for lab, _ in var] == ["legend.=.width=5", "legend.=.width=30"]
    eq = spec.grid.glyphs == list(spec.grid.legend).index("=")
    assert eq.sum() == 34                              # 17 squares in each of the tunnel's two rows
    wide = var[1][1].grid
    assert (wide.width_ft[eq] == 30).all() and (wide.width_ft[~eq] == spec.grid.width_ft[~eq]).all()
    assert (var[0][1].grid.width_ft[eq] == 5).all() and wide.legend["="].width == 30
    assert parse_vary("legend.=.height=8,16").key == "legend.=.height"
    assert parse_vary("legend.=.difficult=true").values == ("true",)


def test_vary_glyphs_dot_and_comma(enc_file):
    """'.' and ',' as glyphs: ``legend...width`` and ``legend.,.width=1.5,3`` (values still split
    on commas after the key's '=')."""
    spec = load_encounter(enc_file)
    dots = variants(spec, [parse_vary("legend...width=10,20")])
    dot = spec.grid.glyphs == list(spec.grid.legend).index(".")
    assert [lab for lab, _ in dots] == ["legend...width=10", "legend...width=20"]
    assert (dots[1][1].grid.width_ft[dot] == 20).all() and (dots[1][1].grid.width_ft[~dot] == spec.grid.width_ft[~dot]).all()
    comma_file = enc_file.with_name("comma.toml")
    comma_file.write_text(enc_file.read_text().replace("fff", ",,,").replace('"f" = {', '"," = {'))
    cspec = load_encounter(comma_file)
    v = parse_vary("legend.,.width=1.5,3")
    assert (v.key, v.values) == ("legend.,.width", ("1.5", "3"))
    comma = cspec.grid.glyphs == list(cspec.grid.legend).index(",")
    assert comma.sum() == 3
    got = variants(cspec, [v])
    assert [float(g.grid.width_ft[comma][0]) for _, g in got] == [1.5, 3.0]


def test_vary_equals_glyph_batch_runs(tmp_path, capsys):
    """The whole command: a sweep of the ogre tunnel's '=' glyph plays (exit 0), one variant per value."""
    from pathlib import Path

    tunnel = Path(__file__).resolve().parents[2] / "maps" / "ogre_tunnel.toml"
    out = tmp_path / "sweep.csv"
    assert fights(tunnel, "--runs", "2", "--workers", "1", "--vary", "legend.=.width=5,30", "--out", str(out),
                  "--quiet") == 0
    assert [r["variant"] for r in REC.read_records(out, "csv")] == ["legend.=.width=5"] * 2 + ["legend.=.width=30"] * 2


def test_vary_combinations_and_labels(enc_file):
    spec = load_encounter(enc_file)
    var = variants(spec, [parse_vary("legend.f.width=1.5,3"), parse_vary("combatant.bruna.weapon=longsword,dagger")])
    assert [lab for lab, _ in var] == [
        "legend.f.width=1.5 combatant.bruna.weapon=longsword", "legend.f.width=1.5 combatant.bruna.weapon=dagger",
        "legend.f.width=3 combatant.bruna.weapon=longsword", "legend.f.width=3 combatant.bruna.weapon=dagger"]
    small = variants(spec, [parse_vary("party.size=1")])[0][1]
    assert [c.id for c in small.combatants] == ["bruna", "gob-1", "rats"]
    assert variants(spec, [parse_vary("settings.round_cap=4")])[0][1].settings["round_cap"] == 4


def test_sweep_summaries_side_by_side(enc_file, tmp_path, capsys):
    out = tmp_path / "sweep.csv"
    rep = tmp_path / "rep"
    assert fights(enc_file, "--runs", "4", "--workers", "2", "--vary", "party.size=1,2", "--out", str(out),
                  "--report-dir", str(rep)) == 0
    text = capsys.readouterr().out
    assert "party.size=1" in text and "party.size=2" in text and "party wins" in text
    recs = REC.read_records(out, "csv")
    assert [(r["variant"], r["index"]) for r in recs] == [(f"party.size={n}", i) for n in (1, 2) for i in range(4)]
    assert all("hp.lidda" not in r for r in recs[:4]) and all("hp.lidda" in r for r in recs[4:])
    # common random numbers: fight i of each variant has the same seed
    assert [r["seed"] for r in recs[:4]] == [r["seed"] for r in recs[4:]]
    summary = json.loads((rep / "summary.json").read_text())
    assert [v["variant"] for v in summary["variants"]] == ["party.size=1", "party.size=2"]
    assert (rep / "summary.html").read_text().count("data:image/png;base64,") == 2 + 2 * 3
    for name in ("win_rates.png", "rounds.png", "heat_fight_1.png", "heat_fall_2.png", "heat_stall_1.png"):
        assert (rep / name).read_bytes()[:4] == b"\x89PNG"


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("args,msg", [
    (["--vary", "colour=red"], "--vary colour: unknown key; use one of legend.G.width"),
    (["--vary", "legend.f.width"], "write KEY=V1,V2"),
    (["--vary", "legend.f.width=wide"], "--vary legend.f.width=wide: must be a positive number of ft"),
    (["--vary", "legend.Q.width=2"], "no glyph 'Q' in the legend"),
    (["--vary", "legend.#.width=2"], "glyph '#' is rock"),
    (["--vary", "combatant.zed.weapon=dagger"], "no combatant 'zed'; the encounter has bruna, lidda, gob-1, rats"),
    (["--vary", "combatant.bruna.weapon=banana"], "--vary combatant.bruna.weapon=banana:"),
    (["--vary", "party.size=3"], "team 'party' has only 2 members"),
    (["--vary", "team.ogres.size=1"], "no team 'ogres'"),
    (["--vary", "settings.gravity=2"], "unknown setting"),
    (["--vary", "legend...width=0.1"], "--vary legend...width=0.1:"),
    (["--vary", "legend.=.width=5"], "--vary legend.=.width=5: no glyph '=' in the legend; it has #.f"),
    (["--vary", "legend.=.width"], "write KEY=V1,V2"),
    (["--vary", "party.size=1", "--vary", "party.size=2"], "the same key is varied twice"),
    (["--runs", "0"], "--runs must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--resume"], "--resume needs --out FILE"),
])
def test_batch_bad_input(enc_file, tmp_path, capsys, args, msg):
    if "--runs" not in args:
        args = ["--runs", "2", *args]
    out = tmp_path / "r.csv"
    if "--resume" not in args:
        args = [*args, "--out", str(out)]
    assert fights(enc_file, *args) == 2
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [enc_file]        # nothing written


def test_batch_options_need_runs(enc_file, capsys):
    assert fights(enc_file, "--out", "x.csv") == 2
    assert "--out only apply to batches; add --runs N" in capsys.readouterr().err


def test_out_in_a_missing_folder(enc_file, tmp_path, capsys):
    assert fights(enc_file, "--runs", "2", "--out", str(tmp_path / "no" / "r.csv")) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "no").exists()


# -- no pygame, Dask -------------------------------------------------------------------------------

def test_batch_runner_leaves_pygame_out(enc_file):
    code = ("import sys\n"
            "from sim.scenario.files import load_encounter\n"
            "from sim.analysis.batch import plan, run_batch\n"
            "from sim.analysis import summary, report, sweep, records, mapfacts, mapreport\n"
            f"spec = load_encounter({str(enc_file)!r})\n"
            "recs = run_batch([('', spec)], plan([''], 2, 1), workers=2)\n"
            "assert len(recs) == 2\n"
            "assert 'pygame' not in sys.modules, 'pygame imported'\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_dask_cluster_gives_the_same_records(enc_file, tmp_path, capsys):
    pytest.importorskip("distributed", reason="Dask is not installed (pip install 'cavesim[dask]')")
    from distributed import LocalCluster

    local = tmp_path / "local.csv"
    remote = tmp_path / "dask.csv"
    assert fights(enc_file, "--runs", "6", "--workers", "1", "--out", str(local)) == 0
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        assert fights(enc_file, "--runs", "6", "--cluster", cluster.scheduler_address, "--out", str(remote)) == 0
    assert remote.read_bytes() == local.read_bytes()


def test_unreachable_cluster_is_bad_input(enc_file, tmp_path, capsys):
    pytest.importorskip("distributed", reason="Dask is not installed")
    assert fights(enc_file, "--runs", "2", "--cluster", "tcp://127.0.0.1:9", "--out", str(tmp_path / "r.csv")) == 2
    assert "cannot reach a Dask scheduler" in capsys.readouterr().err
    assert not (tmp_path / "r.csv").exists() and not REC.part_path(tmp_path / "r.csv").exists()


# -- summary numbers -----------------------------------------------------------------------------

def test_wilson_interval_numbers():
    p, lo, hi = wilson(8, 10)
    assert (p, round(lo, 4), round(hi, 4)) == (0.8, 0.4902, 0.9433)
    assert wilson(10, 10)[2] == 1.0 and wilson(0, 0)[1:] == (0.0, 1.0)


def test_summary_counts():
    cols = ["variant", "index", "seed", "winner", "reason", "rounds", "error", "alive.party", "standing.party",
            "alive.monsters", "standing.monsters", "hp.a", "state.a", "kills.a", "heat.fight"]
    recs = [{"variant": "", "index": i, "seed": i, "winner": w, "rounds": r, "error": "", "hp.a": hp,
             "state.a": st, "kills.a": k, "heat.fight": "1,1:2"}
            for i, (w, r, hp, st, k) in enumerate([("party", 3, 5, "up", "x|y"), ("monsters", 5, -10, "dead", ""),
                                                   ("party", 4, 1, "up", "x"), ("", 30, 2, "up", "")])]
    (s,) = summarize(recs, [""], cols, (3, 3))
    assert s.fights == 4 and s.wins["party"][:2] == (2, 0.5) and s.draws[:2] == (1, 0.25)
    assert s.rounds["median"] == 4.5 and s.rounds_hist == {3: 1, 5: 1, 4: 1, 30: 1}
    assert s.creatures["a"]["standing"] == 0.75 and s.creatures["a"]["kills"] == 0.75
    assert s.heat["fight"][1, 1] == 8
