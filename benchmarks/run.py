"""Benchmarks for the hot paths, each reported as a ratio to a reference measured in the same
run (these machines are shared and noisy, so absolute times drift; ratios do not).

    python -m benchmarks                 # all
    python -m benchmarks classify path   # some
    python -m benchmarks --json out.json
    python -m benchmarks --markdown docs/benchmarks-table.md   # the table of the docs' benchmarks page
    python -m benchmarks --from-json out.json --markdown -     # a saved run's table, nothing measured

Needs the bench extra for the tcod reference: pip install -e '.[bench]'.
Measurements interleave the subject and its reference and report medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Callable

import numpy as np


def _median_times(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Interleave the callables ``repeat`` times; the median wall time of each (seconds)."""
    times: list[list[float]] = [[] for _ in fns]
    for fn in fns:  # warm up (JIT compilation, caches)
        fn()
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t)
    return [statistics.median(t) for t in times]


def _cave(n: int, seed: int = 1):
    from sim.maps.generate import generate_cave

    return generate_cave(seed, n, n)


def bench_classify(repeat: int) -> dict:
    """Issue 2: classify a generated 1024x1024 cave for all nine sizes vs copying its two input
    arrays. Target: at most 10x the copy."""
    from sim.terrain.classify import classify_all_sizes

    grid = _cave(1024)
    w, h = grid.width_ft, grid.height_ft
    t_cls, t_copy = _median_times([lambda: classify_all_sizes(grid), lambda: (w.copy(), h.copy())], repeat)
    return {"name": "classify 1024x1024, 9 sizes", "seconds": t_cls, "reference": "copy of the two input arrays",
            "reference_seconds": t_copy, "ratio": t_cls / t_copy, "target": "<= 10"}


def _tcod_cost(field) -> np.ndarray:
    """The same squares as an integer cost grid for tcod: 2 per square x the walking multiplier;
    a crawl square a whole move action (2 x speed in squares), an Escape Artist square its
    guaranteed tries' worth; 0 where the creature cannot go. tcod sees the same connectivity."""
    from sim.terrain.movement.field import AWKWARD, CRAWL, TIGHT, WALK

    sp = field.mover.speed_squares
    awk = field.mover.tries(15).guaranteed or 0
    tight = field.mover.tries(30).guaranteed or 0
    cost = np.zeros(field.shape, dtype=np.int32)
    cost[field.mode == WALK] = 2 * field.mult[field.mode == WALK]
    cost[field.mode == CRAWL] = 2 * sp
    cost[field.mode == AWKWARD] = 2 * sp * awk
    cost[field.mode == TIGHT] = 4 * sp * tight
    return cost


def bench_distance(repeat: int) -> dict:
    """Issue 3: exact-rule distance map on a generated 1024x1024 cave (Medium) vs
    tcod.path.dijkstra2d (approximate 1.5-diagonal model) on the same cost grid. Target <= 0.5."""
    import tcod

    from sim.terrain.movement import Mover, distance_map, move_field
    from sim.rules.bodies import body_for

    grid = _cave(1024)
    field = move_field(grid, Mover(body_for("medium")))
    ys, xs = np.nonzero(field.mode == 1)
    i = len(ys) // 2
    start = (int(xs[i]), int(ys[i]))
    cost = _tcod_cost(field)

    def ours():
        return distance_map(field, start)

    def ref():
        dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
        dist[start[1], start[0]] = 0
        tcod.path.dijkstra2d(dist, cost, 2, 3, out=dist)
        return dist

    t_ours, t_ref = _median_times([ours, ref], repeat)
    reached = int(ours().reachable().sum())
    assert reached == int((ref() < np.iinfo(np.int32).max).sum()), "both must cover the same squares"
    return {"name": "distance map 1024x1024 (Medium, exact 5-10-5, action packing)", "seconds": t_ours,
            "reference": "tcod.path.dijkstra2d, 2/3 costs, same cost grid", "reference_seconds": t_ref,
            "ratio": t_ours / t_ref, "target": "<= 0.5", "squares_reached": reached}


def bench_reach(repeat: int) -> dict:
    """Issue 3: reach (double move, speed 30) on a 256x256 cave: median per query (target
    <= 100 us) and vs tcod dijkstra2d on the cropped window (target <= 0.5)."""
    import tcod

    from sim.terrain.movement import Mover, move_field, reach
    from sim.rules.bodies import body_for

    grid = _cave(256, seed=2)
    field = move_field(grid, Mover(body_for("medium"), speed_ft=30))
    rng = np.random.default_rng(0)
    ys, xs = np.nonzero(field.mode == 1)
    picks = rng.choice(len(ys), 50, replace=False)
    starts = [(int(xs[i]), int(ys[i])) for i in picks]
    cost = _tcod_cost(field)
    rad = 2 * field.mover.speed_squares + 3

    def ours():
        for s in starts:
            reach(field, s)

    def ref():
        for x, y in starts:
            r0, c0 = max(0, y - rad), max(0, x - rad)
            win = cost[r0:y + rad + 1, c0:x + rad + 1]
            dist = tcod.path.maxarray(win.shape, dtype=np.int32)
            dist[y - r0, x - c0] = 0
            tcod.path.dijkstra2d(dist, win, 2, 3, out=dist)
            _ = np.nonzero(dist <= 24)  # double move budget, as squares x2

    t_ours, t_ref = _median_times([ours, ref], repeat)
    per = t_ours / len(starts)
    return {"name": "reach 256x256, speed 30, double move (per query)", "seconds": per,
            "microseconds": per * 1e6, "target_us": "<= 100",
            "reference": "tcod.path.dijkstra2d on the cropped window (per query)",
            "reference_seconds": t_ref / len(starts), "ratio": t_ours / t_ref, "target": "<= 0.5"}


def bench_path(repeat: int) -> dict:
    """Issue 3: a path query across a 256x256 cave. Target <= 2 ms."""
    from sim.terrain.movement import Mover, find_path, move_field
    from sim.rules.bodies import body_for

    grid = _cave(256, seed=2)
    field = move_field(grid, Mover(body_for("medium")))
    a, b = grid.points["entrance"], grid.points["far_end"]
    (t,) = _median_times([lambda: find_path(field, a, b)], repeat)
    p = find_path(field, a, b)
    return {"name": "path across 256x256 (entrance to far end)", "seconds": t, "milliseconds": t * 1e3,
            "target_ms": "<= 2", "path_squares": len(p.squares), "rounds": p.rounds}


def bench_render(repeat: int) -> dict:
    """Issue 6: renderer frame time (imported lazily: it needs pygame)."""
    from benchmarks.render_bench import bench_render as run

    return run(repeat)


def bench_batch(repeat: int) -> dict:
    """Issue 7: fights/s per core on the reference encounter, speed-up from 1 to 2 workers."""
    from benchmarks.batch_bench import bench_batch as run

    return run(min(repeat, 3))


def bench_bestiary(repeat: int) -> dict:
    """Issue 21: fights/s per core on a shipped bestiary encounter against the reference fight."""
    from benchmarks.bestiary_bench import bench_bestiary as run
    return run(repeat)


def bench_grapple(repeat: int) -> dict:
    """Issue 21: fights/s on the darkmantle roost (grapple) against the reference fight, same run."""
    from benchmarks.grapple_bench import bench_grapple as run

    return run(min(repeat, 3))


def bench_tiled(repeat: int) -> dict:
    """Issue 17: Tiled import (TMX CSV and TMJ base64 zlib) and the overlay PNG's pixels."""
    from benchmarks.tiled_bench import bench_tiled as run

    return run(repeat, _median_times)


def bench_editor_fill(repeat: int) -> dict:
    """Issue 18: a bucket fill on a 200x200 cave (target < 50 ms)."""
    from benchmarks.editor_bench import bench_editor_fill as run

    return run(repeat)


def bench_editor_stroke(repeat: int) -> dict:
    """Issue 18: frame times of a brush stroke with the chokepoints recomputed on the worker."""
    from benchmarks.editor_bench import bench_editor_stroke as run

    return run(repeat)


def bench_import(repeat: int) -> dict:
    """Issue 15: a 200x200-square UVTT import at the default resolution (scikit-image, lazily)."""
    from benchmarks.import_bench import bench_import as run

    return run(min(repeat, 3))


def bench_vision(repeat: int) -> dict:
    """Issue 16: light grid + sight for 40 creatures on a 200x200 cave. Target <= 2 ms."""
    from benchmarks.lighting_bench import bench_vision as run

    return run(repeat)


def bench_lighting(repeat: int) -> dict:
    """Issue 16: the renderer's lighting and fog per frame (needs pygame). Target <= 1.5 ms."""
    from benchmarks.lighting_bench import bench_lighting as run

    return run(repeat)


def bench_frame(repeat: int) -> dict:
    """Issue 19: one PNG frame of the demo, 12 s in, as a command (target < 3 s)."""
    from benchmarks.frame_bench import bench_frame as run

    return run(min(repeat, 5))


def bench_crawl_gif(repeat: int) -> dict:
    """Issue 19: the shipped crawl's GIF, as a command (twice as fast, half the size)."""
    from benchmarks.frame_bench import bench_crawl_gif as run

    return run(1)


def bench_scaling(repeat: int) -> dict:
    """Issue 27: CPU per creature turn for 2/8/32/64 creatures on 64/256/1024 caves (the table)."""
    from benchmarks.scaling import bench_scaling as run

    return run(repeat)


BENCHES = {"classify": bench_classify, "distance": bench_distance, "reach": bench_reach, "path": bench_path,
           "render": bench_render, "batch": bench_batch, "import": bench_import, "tiled": bench_tiled,
           "editor_fill": bench_editor_fill, "editor_stroke": bench_editor_stroke,
           "vision": bench_vision, "lighting": bench_lighting, "frame": bench_frame, "crawl_gif": bench_crawl_gif,
           "bestiary": bench_bestiary, "grapple": bench_grapple, "scaling": bench_scaling}


def _figure(r: dict) -> str:
    """One result's figure as the table shows it: the time, its own unit's figure, the ratio."""
    parts = [f"{r['seconds'] * 1e3:.3f} ms"]
    for k, unit in (("microseconds", "µs"), ("milliseconds", "ms")):
        if k in r:
            parts = [f"{r[k]:.1f} {unit}"]
    if "ratio" in r:
        parts.append(f"**{r['ratio']:.2f}x** {r['reference']} ({r['reference_seconds'] * 1e3:.3f} ms)")
    if "note" in r:
        parts.append(str(r["note"]))
    return "; ".join(parts)


def markdown_table(results: list[dict]) -> str:
    """The results as a Markdown table: benchmark, figure, target (``|`` in a cell escaped).

    >>> print(markdown_table([{"name": "path", "seconds": 0.0018, "milliseconds": 1.8, "target_ms": "<= 2"}]))
    | benchmark | figure | target |
    |---|---|---|
    | path | 1.8 ms | <= 2 ms |
    """
    rows = ["| benchmark | figure | target |", "|---|---|---|"]
    for r in results:
        targets = [str(r["target"]) + "x" if "ratio" in r and "target" in r else str(r.get("target", ""))]
        targets += [f"{r[k]} {unit}" for k, unit in (("target_us", "µs"), ("target_ms", "ms")) if k in r]
        cells = [r["name"], _figure(r), "; ".join(t for t in targets if t)]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", choices=[[], *BENCHES], default=[], metavar="NAME",
                    help=f"which benchmarks ({', '.join(BENCHES)}); default all")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--markdown", metavar="FILE", help="also write the figures as a Markdown table ('-': print it)")
    ap.add_argument("--from-json", metavar="FILE", help="measure nothing: table the figures a --json run saved")
    args = ap.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as fh:
            return _write_markdown(json.load(fh), args.markdown or "-")
    names = args.names or list(BENCHES)
    results = []
    for name in names:
        r = BENCHES[name](args.repeat)
        results.append(r)
        line = f"{r['name']}: {r['seconds'] * 1e3:.3f} ms"
        if "ratio" in r:
            line += f"; {r['ratio']:.2f}x {r['reference']} ({r['reference_seconds'] * 1e3:.3f} ms), target {r['target']}"
        for k, unit in (("microseconds", "us"), ("milliseconds", "ms")):
            if k in r:
                line += f"; {r[k]:.1f} {unit}"
        if "note" in r:
            line += f"; {r['note']}"
        print(line, flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    if args.markdown:
        return _write_markdown(results, args.markdown)
    return 0


def _write_markdown(results: list[dict], out: str) -> int:
    table = markdown_table(results) + "\n"
    if out == "-":
        sys.stdout.write(table)
    else:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
