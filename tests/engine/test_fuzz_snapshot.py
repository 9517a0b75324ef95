"""Seeded fuzz test of the saved-game reader (issue 34 items 6 and 13): mutants of a real saved
game (maps/demo.toml, saved in round 2) go through ``cavesim fight SNAP.json`` in this process
(``tests.test_fuzz.run_cli``: time-bounded, every exception caught and reported). Every run must
end with exit 0 or 2, never an exception or a traceback; every refusal is one line naming the
file; no mutant creates a file. About 10 s in all.

The mutants, drawn by ``random.Random(SEED)``: a value anywhere replaced by an extreme (``null``,
``-1``, 10^400, ``NaN``, ``1e308``, a 20,000-character string, lists and tables, a 10^6-square
shape...), a key dropped, a record's or a named tuple's type renamed to another allowed type or
to a class outside the engine (``numpy:memmap``, ``io:FileIO``, ``ctypes:CDLL``, ``os:system``),
a tag renamed to another tag, a value nested 200 deep, an element of a list doubled.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest

from sim.base.paths import maps_dir
from sim.engine.saved.schema import NAMES
from tests.test_fuzz import JSON_EXTREMES, run_cli

SEED = 34
CASES = 120
DEMO = maps_dir() / "demo.toml"
TAGS = ["$tuple", "$named", "$set", "$frozenset", "$dict", "$enum", "$array", "$np", "$rng", "$event", "$creature",
        "$path", "$ref", "$record", "$nope"]
HOSTILE = ["sim.engine.saved.snapshot:np.memmap", "io:FileIO", "sim.terrain.movement.kernel:types.ctypes.CDLL", "os:system",
           "builtins:eval", "subprocess:Popen", "sim.engine.saved.snapshot:Path", "numpy:ndarray", "sim.rules.categories:Category"]
EXTREMES = JSON_EXTREMES + [10 ** 400, -(10 ** 400), 10 ** 18, 2 ** 64, -10 ** 6, float("nan"), float("inf"),
                            "PWNED", {"$array": "|u1", "shape": [10 ** 6, 10 ** 6], "data": []},
                            {"$array": "|O", "shape": [1], "data": [1]}, {"$tuple": [True, False]},
                            {"$set": ["petrified"]}, {"$creature": "nobody"}, {"$ref": 10 ** 9}]


def _nodes(v, path=()):
    """Every (container, key) of the JSON tree, so that a mutation can replace or drop one."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield v, k
            yield from _nodes(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield v, i
            yield from _nodes(x, path + (i,))


def mutate(data: dict, rng: random.Random) -> dict:
    data = copy.deepcopy(data)
    state = data["state"]
    # most mutants go to the creatures and the fight's small fields; the long event list seldom
    root = state if rng.random() < 0.85 else data
    nodes = [(c, k) for c, k in _nodes(root) if not (isinstance(c, list) and len(c) > 200 and rng.random() < 0.9)]
    container, key = rng.choice(nodes)
    op = rng.randrange(7)
    if op <= 1:
        container[key] = copy.deepcopy(rng.choice(EXTREMES))
    elif op == 2:
        if isinstance(container, dict):
            del container[key]
        else:
            container.pop(key)
    elif op == 3:   # a type renamed: to another allowed type, or to a class outside the engine
        tagged = [(c, k) for c, k in _nodes(root) if k in ("$record", "$named", "$enum")]
        if tagged:
            c, k = rng.choice(tagged)
            c[k] = rng.choice(HOSTILE + sorted(NAMES.records) + sorted(NAMES.named) + sorted(NAMES.enums))
    elif op == 4:   # a tag renamed to another tag
        tagged = [c for c, k in _nodes(root) if isinstance(k, str) and k.startswith("$") and isinstance(c, dict)]
        if tagged:
            c = rng.choice(tagged)
            old = next(iter(c))
            c[rng.choice(TAGS)] = c.pop(old)
    elif op == 5:   # nested deep
        v = container[key]
        for _ in range(200):
            v = [v]
        container[key] = v
    else:           # an element doubled
        if isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))
        else:
            container[key] = [container[key], container[key]]
    return data


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("fuzz_save")
    code, err, exc = run_cli(["fight", str(DEMO), "--seed", "1", "--save-at", "2", "--save", str(folder / "s.json"),
                              "--quiet"])
    assert (code, exc) == (0, None), err
    data = json.loads((folder / "s.json").read_text())
    data["encounter"] = str(DEMO)
    return data


def test_snapshot_mutants_exit_0_or_2(tmp_path, saved):
    rng = random.Random(SEED)
    snap = tmp_path / "SNAP.json"
    cwd = os.getcwd()
    os.chdir(tmp_path)
    findings, refused = [], 0
    try:
        for case in range(CASES):
            data = mutate(saved, rng)
            try:
                snap.write_text(json.dumps(data))
            except (ValueError, RecursionError):   # not writable as JSON (a mutant of a mutant): skip
                continue
            code, err, exc = run_cli(["fight", str(snap), "--quiet"])
            if exc is not None or code not in (0, 2) or "Traceback" in err:
                findings.append(f"case {case}: exit {code}, {exc or err.strip()[:300]}")
            elif code == 2:
                refused += 1
                lines = err.strip().splitlines()
                if len(lines) != 1 or str(snap) not in lines[0] or len(lines[0]) > 800:
                    findings.append(f"case {case}: refusal not one short line naming the file: {err[:300]!r}")
    finally:
        os.chdir(cwd)
    assert not findings, "\n".join(findings)
    assert refused > CASES // 3   # the mutants do reach the checks
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == ["SNAP.json"]   # nothing else written
