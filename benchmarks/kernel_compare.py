"""The movement kernel of this checkout against another checkout's, in one process (a change to
the rules the kernel counts must not make it slower).

    git worktree add /tmp/before <commit>         # the checkout to compare with
    python -m benchmarks.kernel_compare /tmp/before --repeat 15

The other checkout's kernel (``sim/terrain/movement/kernel/``, or the single module of older
checkouts) is imported from its own files beside this one's; both kernels are fed the same packed
squares, built here, and their calls are interleaved and timed in CPU time of the calling thread (the kernels run in it;
a shared machine's other jobs, which make wall times swing by 5x there, do not count). The three
queries of the movement benchmark (``python -m benchmarks distance reach path``): a distance map
on the 1024x1024 cave, 50 reach queries on the 256x256 cave, the path across the 256x256 cave.
The figure is the ratio of the medians, this checkout's over the other's (below 1: faster).
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from benchmarks.run import _cave


def _cpu_medians(fns, repeat: int) -> list[float]:
    """Interleave the callables ``repeat`` times (after one warm-up call each): the median CPU
    time of the thread for each (seconds)."""
    times: list[list[float]] = [[] for _ in fns]
    for fn in fns:
        fn()
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t = time.thread_time()
            fn()
            times[i].append(time.thread_time() - t)
    return [statistics.median(t) for t in times]


def _load_kernel(checkout: Path):
    """The other checkout's movement kernel, imported from its own files: a single module
    (``sim/movement/kernel.py``, later ``sim/terrain/movement/kernel.py``) or the package split by
    query (``sim/terrain/movement/kernel/``, whose modules import each other by absolute name).
    This checkout's ``sim`` modules step aside while it loads, then come back; the other's
    functions keep their own module globals."""
    for rel in ("sim/terrain/movement/kernel", "sim/movement/kernel"):
        if (checkout / rel / "__init__.py").is_file() or (checkout / f"{rel}.py").is_file():
            name = rel.replace("/", ".")
            break
    else:
        raise SystemExit(f"no movement kernel under {checkout}: give the root of a cavesim checkout")

    def ours() -> list[str]:
        return [m for m in sys.modules if m == "sim" or m.startswith("sim.")]

    saved = {m: sys.modules.pop(m) for m in ours()}
    sys.path.insert(0, str(checkout))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(checkout))
        for m in ours():
            del sys.modules[m]
        sys.modules.update(saved)


def _distance_call(k, field, start):
    from sim.terrain.movement.queries import _plan

    plan = _plan(field, expected=False)
    sp = field.mover.speed_squares
    kb = k.key_bits(sp)
    R, C = field.shape
    n = R * C
    key = np.empty(3 * n, dtype=np.int32)
    pool = [np.empty(2 * max(4096, n // 32), dtype=np.int32)]
    out = [np.empty(n), np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32)]
    ring = k.ring_size(sp, kb, plan.M, plan.awk_units, plan.tight_units)
    s = start[1] * C + start[0]

    def call():
        pool[0] = k.distance(field.words, C, s, False, sp, kb, plan.M, plan.awk_units, plan.tight_units, ring, key,
                             pool[0], *out)
    return call


def _reach_call(k, field, starts):
    from sim.terrain.movement.queries import _ONE_TRY

    sp = field.mover.speed_squares
    R, C = field.shape
    plan = (_ONE_TRY.M, _ONE_TRY.awk_units, _ONE_TRY.tight_units)
    none = np.zeros(0, dtype=bool)

    def call():
        for x, y in starts:
            k.reach(field.words, R, C, x, y, False, sp, plan, none, none)
    return call


def _path_call(k, field, a, b):
    from sim.terrain.movement.queries import _plan

    sp = field.mover.speed_squares
    kb = k.key_bits(sp)
    R, C = field.shape
    n = R * C
    g, e = _plan(field, expected=False), _plan(field, expected=True)
    gp, ep = (g.M, g.awk_units, g.tight_units), (e.M, e.awk_units, e.tight_units)
    rings = [k.ring_size(sp, kb, *p) for p in (gp, ep)]
    work = [np.empty(n, dtype=np.int32)] + [np.empty(3 * n, dtype=np.int32) for _ in range(3)] + \
        [np.empty(3 * n, dtype=np.uint8), np.empty(n, dtype=np.uint16)]
    head = (field.words, field.category.ravel(), C, a[1] * C + a[0], b[1] * C + b[0], False)
    # a kernel that counts the turn's spent movement takes where the search begins: a turn's start
    begin = ((0, sp, 0),) if "begin" in inspect.signature(k.path.py_func).parameters else ()
    args = head + begin + (sp, kb, gp, ep, *rings, *work)

    def call():
        k.path(*args)
    return call


def compare(other: Path, repeat: int) -> list[dict]:
    from sim.terrain.movement import Mover, kernel as ours, move_field
    from sim.rules.bodies import body_for

    theirs = _load_kernel(other)
    big = move_field(_cave(1024), Mover(body_for("medium")))
    ys, xs = np.nonzero(big.mode == 1)
    start = (int(xs[len(ys) // 2]), int(ys[len(ys) // 2]))
    grid = _cave(256, seed=2)
    mid = move_field(grid, Mover(body_for("medium"), speed_ft=30))
    ys, xs = np.nonzero(mid.mode == 1)
    picks = np.random.default_rng(0).choice(len(ys), 50, replace=False)
    starts = [(int(xs[i]), int(ys[i])) for i in picks]
    a, b = grid.points["entrance"], grid.points["far_end"]
    out = []
    for name, make in (("distance map 1024x1024", lambda k: _distance_call(k, big, start)),
                       ("reach x 50, 256x256, speed 30", lambda k: _reach_call(k, mid, starts)),
                       ("path across 256x256", lambda k: _path_call(k, mid, a, b))):
        t_ours, t_theirs = _cpu_medians([make(ours), make(theirs)], repeat)
        out.append({"name": name, "seconds": t_ours, "other_seconds": t_theirs, "ratio": t_ours / t_theirs})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.kernel_compare", description=__doc__.split("\n\n")[0])
    ap.add_argument("other", type=Path, help="root of the checkout to compare with")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args(argv)
    rows = compare(args.other, args.repeat)
    for r in rows:
        print(f"{r['name']}: {r['seconds'] * 1e3:.3f} ms here, {r['other_seconds'] * 1e3:.3f} ms there: "
              f"{r['ratio']:.3f}x")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
