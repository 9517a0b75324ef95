"""Seeded fuzz test (issue 14): mutants of every shipped file kind -- maps (ASCII and .npz
layers), encounters, a crawl, stat blocks and fight logs -- go through ``cavesim validate`` and
the command that uses them, in this process (``sim.cli.main(argv)`` returns the exit code), each
run under a time bound. Every run must end with exit 0 or 2, no traceback and no exception out
of ``main``, within the bound; every refusal line must name the mutated file.

The mutants are drawn by ``random.Random(SEED)`` from edits a person or a disk makes: lines
deleted, doubled or swapped, values replaced by extremes of every type (``nan``, ``inf``,
``1e308``, a 400-digit integer, ``-1``, ``""``, a 20,000-character string, a list, a table),
keys renamed, deep nesting, cut-off files, stray bytes (NUL, invalid UTF-8); JSON events with
fields dropped or retyped; ``.npz`` archives with flipped bytes, cut short, or with a layer of
another shape or dtype. ``CASES`` mutants per kind, about a minute in all.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main

SEED = 14
ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "maps"
DATA = ROOT / "sim" / "data"
TIME_BOUND = 30.0          # seconds per command run (a run that takes longer fails the test)
CASES = {"map": 24, "layers": 12, "encounter": 20, "crawl": 6, "statblock": 20, "log": 14}

EXTREMES = ["nan", "inf", "-inf", "1e308", "-1e308", "9" * 400, "-1", "0", "1.5", '""', '"' + "x" * 20_000 + '"',
            "[]", "[[1, 2], 3]", "{}", "{ a = 1 }", "true", '"abc"', "-0.0", "3" * 20, "[" * 50 + "]" * 50]
JSON_EXTREMES = [None, True, -1, 0, 1.5, 10 ** 30, "", "x" * 20_000, [], [[1, 2]], {}, {"a": 1}, [[999999, 1]],
                 "titanic", [-1, -1], 1e308]


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout


def run_cli(argv: list[str]) -> tuple[int | None, str, str | None]:
    """(exit code, stderr, an exception's description or None) of one command, time-bounded."""
    err = io.StringIO()
    out = io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, TIME_BOUND)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code
        return code, err.getvalue(), None
    except Timeout:
        return None, err.getvalue(), f"took more than {TIME_BOUND:g} s"
    except BaseException as exc:  # noqa: BLE001 - anything escaping main is a finding
        return None, err.getvalue(), f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- text mutations ---------------------------------------------------------------------------------

def mutate_text(text: str, rng: random.Random) -> bytes:
    lines = text.split("\n")
    op = rng.randrange(9)
    k = rng.randrange(len(lines))
    if op == 0:
        del lines[k]
    elif op == 1:
        lines.insert(k, lines[k])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[k], lines[j] = lines[j], lines[k]
    elif op in (3, 4, 5):                       # a value replaced by an extreme (the most common edit)
        cands = [i for i, line in enumerate(lines) if "=" in line and not line.lstrip().startswith("#")]
        if cands:
            k = rng.choice(cands)
            key, _, _ = lines[k].partition("=")
            lines[k] = f"{key}= {rng.choice(EXTREMES)}"
    elif op == 6:                               # a key renamed
        cands = [i for i, line in enumerate(lines) if "=" in line]
        if cands:
            k = rng.choice(cands)
            key, eq, rest = lines[k].partition("=")
            lines[k] = f"{key.strip()}_{rng.randrange(9)} {eq}{rest}"
    elif op == 7:                               # cut off
        return "\n".join(lines).encode()[: rng.randrange(1, max(2, len(text)))]
    else:                                       # stray bytes
        raw = bytearray("\n".join(lines).encode())
        at = rng.randrange(len(raw))
        raw[at:at] = rng.choice([b"\x00", b"\xff\xfe", b"\x80", b"[[[", b'"', b"\n[map]\n", b"\r"])
        return bytes(raw)
    if rng.random() < 0.25:                     # sometimes a second edit
        return mutate_text("\n".join(lines), rng)
    return "\n".join(lines).encode()


def mutate_log(lines: list[str], rng: random.Random) -> bytes:
    lines = list(lines)
    op = rng.randrange(6)
    k = rng.randrange(len(lines))
    if op <= 2:                                 # a field retyped or set to an extreme
        d = json.loads(lines[k])
        target = d
        if d.get("type") == "encounter_start" and rng.random() < 0.6:
            target = rng.choice(d["combatants"])
        key = rng.choice(sorted(target))
        target[key] = rng.choice(JSON_EXTREMES)
        lines[k] = json.dumps(d)
    elif op == 3:                               # a field dropped
        d = json.loads(lines[k])
        d.pop(rng.choice(sorted(d)), None)
        lines[k] = json.dumps(d)
    elif op == 4:                               # lines lost or reordered
        if rng.random() < 0.5:
            del lines[k:k + rng.randrange(1, 20)]
        else:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
    else:
        raw = "\n".join(lines).encode()
        return raw[: rng.randrange(1, len(raw))] + rng.choice([b"", b"\x00", b"\xff", b"NaN", b"{"])
    return ("\n".join(lines) + "\n").encode()


def mutate_npz(path: Path, rng: random.Random) -> None:
    op = rng.randrange(4)
    if op == 0:                                 # flipped bytes
        raw = bytearray(path.read_bytes())
        for _ in range(rng.randrange(1, 8)):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(raw))
    elif op == 1:                               # cut short
        raw = path.read_bytes()
        path.write_bytes(raw[: rng.randrange(1, len(raw))])
    else:                                       # a layer of another shape, dtype or value
        with np.load(path) as z:
            arrays = {k: z[k] for k in z.files}
        key = rng.choice(sorted(arrays))
        choice = rng.randrange(6)
        a = arrays[key]
        arrays[key] = [a[:-1], a.astype(np.complex64), np.full(a.shape, np.nan), a.astype("U3"),
                       np.full(a.shape, 1e300), a[None]][choice]
        np.savez_compressed(path, **arrays)


# -- the cases ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    for f in MAPS.glob("*.toml"):
        shutil.copy(f, d / f.name)
    log = d / "ogre.jsonl"
    assert main(["fight", str(d / "ogre_tunnel.toml"), "--events", str(log), "--quiet"]) == 0
    assert main(["generate", "--seed", "3", "--cols", "24", "--rows", "18", "--format", "layers",
                 "--out", str(d / "layered.toml")]) == 0
    assert (d / "layered.npz").exists()
    return d


def cases(work: Path):
    rng = random.Random(SEED)
    maps = ["gallery.toml", "gallery_m.toml", "warrens.toml"]
    encounters = ["demo.toml", "kobold_warren.toml", "ogre_tunnel.toml", "rat_crack.toml", "fissure_hold.toml"]
    blocks = sorted((DATA / "pcs").glob("*-3.toml")) + sorted((DATA / "monsters").glob("*/*.toml"))
    log_lines = (work / "ogre.jsonl").read_text().splitlines()
    for n in range(CASES["map"]):
        src = rng.choice(maps)
        p = work / f"m{n}_{src}"
        p.write_bytes(mutate_text((work / src).read_text(), rng))
        yield p, [["validate", p], ["classify", p, "--size", rng.choice(["medium", "large", "tiny"])]]
    for n in range(CASES["layers"]):
        d = work / f"layers{n}"
        d.mkdir()
        shutil.copy(work / "layered.toml", d / "layered.toml")
        shutil.copy(work / "layered.npz", d / "layered.npz")
        mutate_npz(d / "layered.npz", rng)
        yield d / "layered.npz", [["validate", d / "layered.toml"], ["classify", d / "layered.toml", "--all-sizes"]]
    for n in range(CASES["encounter"]):
        src = rng.choice(encounters)
        p = work / f"e{n}_{src}"
        p.write_bytes(mutate_text((work / src).read_text(), rng))
        yield p, [["validate", p], ["fight", p, "--quiet"]]
    for n in range(CASES["crawl"]):
        p = work / f"c{n}_crawl_warrens.toml"
        p.write_bytes(mutate_text((work / "crawl_warrens.toml").read_text(), rng))
        yield p, [["validate", p], ["crawl", p, "--json"]]
    for n in range(CASES["statblock"]):
        src = rng.choice(blocks)
        p = work / f"s{n}_{src.name}"
        p.write_bytes(mutate_text(src.read_text(), rng))
        yield p, [["validate", p], ["classify", work / "gallery.toml", "--creature", p]]
    for n in range(CASES["log"]):
        p = work / f"l{n}.jsonl"
        p.write_bytes(mutate_log(log_lines, rng))
        yield p, [["validate", p], ["render", p, "--out", work / f"l{n}.png", "--max-frames", "2", "--scale", "0.1"]]


@pytest.mark.slow
def test_fuzzed_inputs_are_refused_cleanly(work):
    findings = []
    runs = refusals = 0
    for mutant, commands in cases(work):
        for argv in commands:
            argv = [str(a) for a in argv]
            code, err, crash = run_cli(argv)
            runs += 1
            where = f"{' '.join(argv)}"
            if crash:
                findings.append(f"{where}: {crash}")
                continue
            if "Traceback" in err:
                findings.append(f"{where}: a traceback on stderr")
            if code not in (0, 2):
                findings.append(f"{where}: exit {code}")
            if code == 2:
                refusals += 1
                for line in err.splitlines():
                    if line.startswith("cavesim: error:") and mutant.name not in line:
                        findings.append(f"{where}: a refusal that does not name {mutant.name}: {line[:300]}")
    assert not findings, f"{len(findings)} of {runs} runs broke the promise:\n" + "\n".join(findings[:40])
    assert runs == 2 * sum(CASES.values()) and refusals > runs // 4   # the mutants do bite
