"""Batch journal durability (issue 14, item 10): damaged lines, another encounter's records, a
journal never truncated, lost workers replayed, workers that end with their parent. The kill
tests kill real processes with ``os.kill`` and compare the final file with an uninterrupted run's
bytes."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.analysis import batch as B
from sim.analysis import records as REC
from sim.cli import main
from sim.scenario.files import load_encounter

ROOT = Path(__file__).resolve().parents[2]
_REAL_CHUNK = B.run_chunk
MAPS = ROOT / "maps"


@pytest.fixture
def demo(tmp_path):
    """The demo encounter and its map, copied (so a test may change them)."""
    for name in ("demo.toml", "warrens.toml"):
        shutil.copy(MAPS / name, tmp_path / name)
    return tmp_path / "demo.toml"


def fights(path, *args):
    return main(["fight", str(path), *args])


def interrupted(monkeypatch, enc, out, runs=8, after=4, extra=()):
    """A batch stopped by Ctrl-C after ``after`` fights (its journal holds those)."""
    real = B.play
    calls = {"n": 0}

    def flaky(*a, **kw):
        calls["n"] += 1
        if calls["n"] > after:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(B, "play", flaky)
    assert fights(enc, "--runs", str(runs), "--workers", "1", "--out", str(out), *extra) == 130
    monkeypatch.setattr(B, "play", real)
    return REC.part_path(out)


# -- damaged lines ---------------------------------------------------------------------------------

DAMAGE = {
    "garbage": (lambda line: "!!garbage!!", "1 fields where the header has"),
    "non-integer index": (lambda line: line.replace(",0,", ",zero,", 1), "index must be a whole number, got 'zero'"),
    "NUL byte": (lambda line: line[:10] + "\x00" + line[10:], "holds a NUL byte"),
    "short row": (lambda line: ",".join(line.split(",")[:5]), "5 fields where the header has"),
    "index -1": (lambda line: line.replace(",0,", ",-1,", 1), "index must be a whole number >= 0, got -1"),
    "200-kB field": (lambda line: line.replace(",,", "," + "x" * 200_000 + ",", 1), "a field of more than 131072 characters"),
    # issue 34 item 12: an index is read strictly (int() would take these as fight 0)
    "index 0_0": (lambda line: line.replace(",0,", ",0_0,", 1), "index must be a whole number, got '0_0'"),
    "index +0": (lambda line: line.replace(",0,", ",+0,", 1), "index must be a whole number, got '+0'"),
    "index in Arabic-Indic digits": (lambda line: line.replace(",0,", ",\u0660,", 1), "index must be a whole number, got '\u0660'"),
    "index 1 (a digit changed)": (lambda line: line.replace(",0,", ",1,", 1), "not a record of this batch (its check does not match"),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damaged_journal_line_is_refused_with_its_number_then_repaired(demo, tmp_path, monkeypatch, capsys, kind,
                                                                     whole6):
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, demo, out, runs=6, after=3)
    capsys.readouterr()
    lines = part.read_text().split("\n")
    assert lines[0].startswith(REC.JOURNAL_TAG) and lines[1].startswith("variant,index,seed")
    first = lines[2]                                  # fight 0's record (line 3 of the journal)
    assert first.startswith(",0,")
    damage, why = DAMAGE[kind]
    lines[2] = damage(first)
    part.write_text("\n".join(lines))
    before = part.read_bytes()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    assert f"{part}:3: damaged record (" in err and why in err, err
    assert "run the same command with --resume --repair" in err and "Traceback" not in err
    assert len(err.splitlines()) == 1 and f"or delete {part} to start the batch again" in err
    assert len(err) < 2000                            # the 200-kB field is not repeated
    assert part.read_bytes() == before and not out.exists()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume", "--repair") == 0
    assert out.read_bytes() == whole6                 # the damaged fight was played again
    aside = REC.damaged_path(out).read_bytes()
    assert aside.startswith(b"# line 3: ") and len(aside) < 300_000
    assert not part.exists()


@pytest.mark.slow
def test_damaged_jsonl_line(demo, tmp_path, monkeypatch, capsys):
    out = tmp_path / "runs.jsonl"
    part = interrupted(monkeypatch, demo, out, runs=4, after=2)
    lines = part.read_text().split("\n")
    assert lines[1].startswith('{"variant":"","index":0,') and lines[1].endswith('"}')
    lines[1] = lines[1].replace('"index":0', '"index":"0"')
    lines[2] = "[" * 5000 + "]" * 5000                  # nested deep: no RecursionError
    part.write_text("\n".join(lines))
    capsys.readouterr()
    assert fights(demo, "--runs", "4", "--workers", "1", "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    assert f"{part}:2: damaged record (index must be a whole number, got '0')" in err
    assert f"{part}:3: damaged record (not a JSON record)" in err
    assert len(err.splitlines()) == 1 and "--resume --repair" in err


@pytest.fixture(scope="module")
def whole6(tmp_path_factory):
    """The bytes of an uninterrupted 6-fight batch of the demo (CSV)."""
    d = tmp_path_factory.mktemp("whole6")
    for name in ("demo.toml", "warrens.toml"):
        shutil.copy(MAPS / name, d / name)
    out = d / "whole.csv"
    assert main(["fight", str(d / "demo.toml"), "--runs", "6", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    return out.read_bytes()


def test_check_record_messages():
    assert REC.check_record({"index": 0, "seed": 1, "winner": 5}) == "winner must be text, got 5"
    assert REC.check_record({"index": True, "seed": 1}) == "index must be a whole number, got True"
    assert REC.check_record({"index": 0, "seed": 2 ** 60}) == f"seed is out of range: {2 ** 60}"
    assert REC.check_record({"index": 0}) == "no seed"
    assert REC.check_record({"index": 0, "seed": 1, "fell.x": "1;2"}) == "fell.x is not a square ('x,y'), got '1;2'"
    assert REC.check_record({"index": 0, "seed": 1, "zz": 1}, ["index", "seed"]) == "field 'zz' is not a column of this batch"


# -- another encounter's records ------------------------------------------------------------------

def _capped(demo: Path) -> Path:
    other = demo.with_name("demo_capped.toml")
    other.write_text(demo.read_text().replace('seed = 2\n', 'seed = 2\nround_cap = 3\n', 1))
    return other


@pytest.mark.slow
def test_resume_refuses_the_journal_of_another_encounter_with_the_same_ids(demo, tmp_path, monkeypatch, capsys):
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, _capped(demo), out, runs=6, after=2)
    before = part.read_bytes()
    capsys.readouterr()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    assert f"{part}: its fights were played from other inputs (the encounter, its map, a stat block" in err
    assert part.read_bytes() == before


@pytest.mark.slow
def test_resume_refuses_a_finished_file_of_another_encounter(demo, tmp_path, capsys):
    out = tmp_path / "runs.csv"
    assert fights(_capped(demo), "--runs", "2", "--workers", "1", "--out", str(out), "--quiet") == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert fights(demo, "--runs", "4", "--workers", "1", "--out", str(out), "--resume") == 2
    assert f"{out}: fight 0 of it was not played from these inputs" in capsys.readouterr().err
    assert out.read_bytes() == before and not REC.part_path(out).exists()


_CHECK = re.compile(r',"check":"[0-9a-f]{16}"\}$')


def _body(line: str, fmt: str) -> str:
    """A journal line without its check: the record as the finished file writes it."""
    return line.rsplit(",", 1)[0] if fmt == "csv" else _CHECK.sub("}", line)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_another_batch_s_records_spliced_under_a_genuine_header_are_refused_then_repaired(
        demo, tmp_path, monkeypatch, capsys, fmt):
    """Issue 34 item 12: the records of another encounter's journal (the same ids, the same seed,
    so the same variants, fight numbers and seeds: only its round cap differs) under this batch's
    genuine tag and header resumed with exit 0 and other fights in the output. Each record's check
    ties it to its own journal's inputs: refused, one line naming the first line and the fix;
    ``--repair`` drops them and the result is the uninterrupted run's bytes."""
    whole = tmp_path / f"whole.{fmt}"
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(whole), "--quiet") == 0
    other = interrupted(monkeypatch, _capped(demo), tmp_path / f"other.{fmt}", runs=6, after=5)
    out = tmp_path / f"runs.{fmt}"
    part = interrupted(monkeypatch, demo, out, runs=6, after=2)
    head = 2 if fmt == "csv" else 1                   # the tag (and the CSV header row)
    genuine = part.read_text().split("\n")[:head]
    spliced = [x for x in other.read_text().split("\n")[head:] if x]
    assert len(spliced) == 5
    # they are other fights (not this batch's records under another check): the same keys, other outcomes
    theirs = {_body(x, fmt) for x in spliced}
    ours = set(whole.read_text().split("\n"))
    assert theirs - ours
    assert all(_body(x, fmt).startswith(",0," if fmt == "csv" else '{"variant":"","index":') for x in spliced[:1])
    part.write_text("\n".join(genuine + spliced) + "\n")
    before = part.read_bytes()
    capsys.readouterr()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    first = head + 1
    assert err.startswith(f"cavesim: error: {part}:{first}: damaged record (not a record of this batch (its check "
                          "does not match the journal's inputs: copied from another batch, or edited)); "), err
    assert f"and 2 more damaged lines (the last: line {first + 4})" in err
    assert "run the same command with --resume --repair" in err and f"or delete {part} to start the batch again" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert part.read_bytes() == before and not out.exists()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume", "--repair", "--quiet") == 0
    assert out.read_bytes() == whole.read_bytes()
    aside = REC.damaged_path(out).read_text().splitlines()
    assert [x.split(":")[0] for x in aside[::2]] == [f"# line {n}" for n in range(first, first + 5)]
    assert aside[1::2] == spliced and not part.exists()


@pytest.mark.slow
def test_a_record_with_another_fight_s_seed_or_another_variant_is_refused(demo, tmp_path, monkeypatch, capsys, whole6):
    """Issue 34 item 12: even with a valid check (forged here), a record's seed must be the one
    the batch seed gives its fight number, and its variant one of the batch's."""
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, demo, out, runs=6, after=3)
    lines = part.read_text().split("\n")
    inputs = lines[0][len(REC.JOURNAL_TAG):]
    seed0, seed1 = B.fight_seed(2, 0), B.fight_seed(2, 1)      # demo.toml: seed = 2

    def forged(body: str) -> str:
        return f"{body},{REC.record_check(inputs, body)}"

    assert lines[2] == forged(_body(lines[2], "csv"))           # the check is what record_check says
    assert lines[2].startswith(f",0,{seed0},") and lines[3].startswith(f",1,{seed1},")
    lines[2] = forged(_body(lines[2], "csv").replace(f",0,{seed0},", f",0,{seed1},", 1))
    lines[3] = forged("x" + _body(lines[3], "csv"))
    part.write_text("\n".join(lines))
    capsys.readouterr()
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume") == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cavesim: error: {part}:3: damaged record (seed {seed1} is not fight 0's seed in this "
                          f"batch ({seed0})); {part}:4: damaged record (variant 'x' is not one of this batch's); "), err
    assert len(err.splitlines()) == 1
    assert fights(demo, "--runs", "6", "--workers", "1", "--out", str(out), "--resume", "--repair", "--quiet") == 0
    assert out.read_bytes() == whole6


@pytest.mark.slow
def test_a_damaged_variant_in_a_sweep_journal_is_a_damaged_line_not_a_vary_mistake(demo, tmp_path, monkeypatch, capsys):
    """Issue 34 item 12: a damaged record of a sweep's journal was read as a variant the batch
    does not have ("give the same --vary"), which --repair could not mend."""
    vary = ("--vary", "settings.round_cap=3,30")
    whole = tmp_path / "whole.csv"
    assert fights(demo, "--runs", "3", "--workers", "1", "--out", str(whole), "--quiet", *vary) == 0
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, demo, out, runs=3, after=4, extra=vary)
    lines = part.read_text().split("\n")
    assert lines[2].startswith("settings.round_cap=3,0,")
    lines[2] = lines[2].replace("settings.round_cap=3,", "settings.round_cap=8,", 1)
    part.write_text("\n".join(lines))
    capsys.readouterr()
    assert fights(demo, "--runs", "3", "--workers", "1", "--out", str(out), "--resume", *vary) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cavesim: error: {part}:3: damaged record (not a record of this batch"), err
    assert "--vary" not in err and len(err.splitlines()) == 1
    assert fights(demo, "--runs", "3", "--workers", "1", "--out", str(out), "--resume", "--repair", "--quiet", *vary) == 0
    assert out.read_bytes() == whole.read_bytes()


def test_inputs_hash_follows_stat_block_files(demo, tmp_path):
    block = tmp_path / "brute.toml"
    shutil.copy(ROOT / "sim" / "data" / "monsters" / "humanoid" / "goblin.toml", block)
    text = demo.read_text().replace('template = "goblin"', 'template = "brute.toml"', 1)
    assert text != demo.read_text()
    demo.write_text(text)
    a = B.inputs_digest([("", load_encounter(demo))], 2)
    block.write_text(block.read_text().replace("hp", "hp", 1) + "\n# changed\n")
    b = B.inputs_digest([("", load_encounter(demo))], 2)
    assert a != b


def test_a_fresh_batch_never_overwrites_a_journal(demo, tmp_path, monkeypatch, capsys):
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, demo, out, runs=4, after=1)
    before = part.read_bytes()
    capsys.readouterr()
    assert fights(demo, "--runs", "4", "--workers", "1", "--out", str(out)) == 2
    assert f"{part}: holds the fights of an interrupted batch; add --resume" in capsys.readouterr().err
    assert part.read_bytes() == before


def test_repair_needs_resume(demo, capsys):
    assert fights(demo, "--runs", "2", "--repair", "--out", "x.csv") == 2
    assert "--repair only applies with --resume" in capsys.readouterr().err


# -- lost workers (in process: a worker that dies once, a fight that always kills its worker) --------

def _dies_once(packed, items):
    marker = Path(os.environ["CAVESIM_TEST_MARKER"])
    if any(i == 3 for _, i, _ in items) and not marker.exists():
        marker.write_text("died")
        os._exit(9)                                   # as the out-of-memory killer would
    return _REAL_CHUNK(packed, items)


def _always_dies(packed, items):
    if any(i == 3 for _, i, _ in items):
        os._exit(9)
    return _REAL_CHUNK(packed, items)


@pytest.mark.slow
def test_a_lost_worker_s_fights_are_played_again_never_recorded_as_errors(demo, tmp_path, monkeypatch):
    spec = load_encounter(demo)
    jobs = B.plan([""], 8, 2)
    whole = B.run_batch([("", spec)], jobs, workers=1)
    monkeypatch.setenv("CAVESIM_TEST_MARKER", str(tmp_path / "marker"))
    monkeypatch.setattr(B, "run_chunk", _dies_once)
    got = B.run_batch([("", spec)], jobs, workers=2, chunk=1)
    assert (tmp_path / "marker").exists()             # the worker did die
    key = B.sort_key({"": 0})
    assert sorted(got, key=key) == sorted(whole, key=key)
    assert not any(r["error"] for r in got)


@pytest.mark.slow
def test_a_batch_whose_worker_always_dies_fails_and_records_no_error(demo, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(B, "run_chunk", _always_dies)
    out = tmp_path / "runs.csv"
    assert fights(demo, "--runs", "6", "--workers", "2", "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert "the batch could not finish:" in err and "a worker process died 3 times in a row" in err
    assert "--resume" in err and "Traceback" not in err
    recs = REC.read_records(REC.part_path(out), "csv")
    assert 3 not in {r["index"] for r in recs} and not any(r["error"] for r in recs)
    monkeypatch.setattr(B, "run_chunk", _REAL_CHUNK)
    assert fights(demo, "--runs", "6", "--workers", "2", "--out", str(out), "--resume", "--quiet") == 0
    assert len(REC.read_records(out, "csv")) == 6


# -- real kills -----------------------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(d))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] != "Z"


def _start(enc, out, *args):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.Popen([sys.executable, "-m", "sim", "fight", str(enc), "--out", str(out), *args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _records_in(part: Path) -> int:
    try:
        return max(0, part.read_bytes().count(b"\n") - 2)   # tag and header lines
    except OSError:
        return 0


def _wait_for(cond, timeout=240.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    d = tmp_path_factory.mktemp("whole")
    for name in ("demo.toml", "warrens.toml"):
        shutil.copy(MAPS / name, d / name)
    out = d / "whole.csv"
    assert main(["fight", str(d / "demo.toml"), "--runs", "40", "--workers", "1", "--out", str(out), "--quiet"]) == 0
    return out.read_bytes()


@pytest.mark.slow
def test_sigkill_of_the_main_process_ends_its_workers_and_resume_gives_the_same_bytes(demo, tmp_path, uninterrupted):
    out = tmp_path / "runs.csv"
    part = REC.part_path(out)
    proc = _start(demo, out, "--runs", "40", "--workers", "2", "--quiet")
    try:
        assert _wait_for(lambda: _records_in(part) >= 4 and len(_children(proc.pid)) >= 2)
        workers = _children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert _wait_for(lambda: not any(_alive(w) for w in workers), timeout=10), "workers outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
    kept = _records_in(part)
    assert 4 <= kept < 40 and not out.exists()
    assert main(["fight", str(demo), "--runs", "40", "--workers", "2", "--out", str(out), "--resume", "--quiet"]) == 0
    assert out.read_bytes() == uninterrupted
    assert not part.exists()
    assert not [p for p in tmp_path.iterdir() if ".cavesim-" in p.name]   # no temporary debris


@pytest.mark.slow
def test_sigkill_of_a_worker_is_survived_with_the_same_bytes(demo, tmp_path, uninterrupted):
    out = tmp_path / "runs.csv"
    part = REC.part_path(out)
    proc = _start(demo, out, "--runs", "40", "--workers", "2", "--quiet")
    try:
        assert _wait_for(lambda: _records_in(part) >= 2 and len(_children(proc.pid)) >= 2)
        os.kill(_children(proc.pid)[0], signal.SIGKILL)
        _, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err.decode()
    assert out.read_bytes() == uninterrupted
    assert b"BrokenProcessPool" not in out.read_bytes()


@pytest.mark.slow
def test_sigkill_while_resuming_never_empties_the_journal(demo, tmp_path, monkeypatch, uninterrupted):
    out = tmp_path / "runs.csv"
    part = interrupted(monkeypatch, demo, out, runs=40, after=6)
    with open(part, "a") as fh:                       # a cut-off last line: resume writes a new journal
        fh.write(",39,123,party,vic")
    for delay in (0.5, 1.5, 3.0, 5.0):
        proc = _start(demo, out, "--runs", "40", "--workers", "2", "--resume", "--quiet")
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        if not part.exists():  # a fast machine finished the batch before the kill: nothing was lost
            assert out.read_bytes() == uninterrupted
            break
        assert len(REC.scan(part, "csv").records) >= 6
        assert REC.scan(part, "csv").inputs is not None
    assert main(["fight", str(demo), "--runs", "40", "--workers", "2", "--out", str(out), "--resume", "--quiet"]) == 0
    assert out.read_bytes() == uninterrupted
