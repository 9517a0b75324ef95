"""Batch throughput of this checkout against another one, in the same run (a refactor must not
make fights slower).

    git worktree add /tmp/before 0c913ac          # the checkout to compare with
    python -m benchmarks.compare /tmp/before --fights 40 --repeat 5

Each repeat plays the same fights of the batch benchmark's reference encounter
(``benchmarks/reference_fight.toml``, or ``--encounter maps/demo.toml``: a path in both checkouts;
one worker) in a fresh process of each checkout, the two
interleaved so that a busy spell of the shared machine hits both; the figure is the best of the
repeats of each (the least disturbed) and their ratio, in CPU time of the process (one worker
plays in it: a shared machine's other jobs do not count) and per fight and per round (a change to
the AI may make fights longer or shorter); the ratio of the medians is printed too. The first process of a checkout compiles its numba
kernels (warm-up fights, not timed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
REFERENCE = "benchmarks/reference_fight.toml"

_CHILD = """
import json, sys, time
from pathlib import Path
from sim.analysis.batch import plan, run_batch
from sim.scenario.files import load_encounter
spec = load_encounter(Path(sys.argv[2]))
run_batch([("", spec)], plan([""], 4, 1), workers=1)  # warm up: compiled kernels, templates
n = int(sys.argv[1])
t, cpu = time.perf_counter(), time.process_time()
recs = run_batch([("", spec)], plan([""], n, 1), workers=1)
print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - cpu,
                  "rounds": sum(r["rounds"] or 0 for r in recs)}))
"""


def _one(tree: Path, fights: int, encounter: str = REFERENCE) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "SDL_VIDEODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", _CHILD, str(fights), encounter], cwd=tree, env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(other: Path, *, fights: int = 40, repeat: int = 5, encounter: str = REFERENCE) -> dict:
    runs: dict[str, list[dict]] = {"this": [], "other": []}
    for _ in range(max(1, repeat)):
        runs["this"].append(_one(HERE, fights, encounter))
        runs["other"].append(_one(other, fights, encounter))
    best = {k: min(r["cpu"] for r in v) for k, v in runs.items()}
    median = {k: statistics.median(r["cpu"] for r in v) for k, v in runs.items()}
    rounds = {k: v[0]["rounds"] for k, v in runs.items()}
    fps = {k: fights / s for k, s in best.items()}
    rps = {k: rounds[k] / s for k, s in best.items()}
    return {"fights": fights, "repeat": repeat, "fights_per_cpu_second": fps, "rounds_per_cpu_second": rps,
            "ratio": fps["this"] / fps["other"], "median_ratio": median["other"] / median["this"], "round_ratio": rps["this"] / rps["other"],
            "note": f"this checkout {fps['this']:.1f} fights ({rps['this']:.0f} rounds) per CPU second, {other} "
                    f"{fps['other']:.1f} ({rps['other']:.0f}): {fps['this'] / fps['other']:.2f}x per fight, "
                    f"{rps['this'] / rps['other']:.2f}x per round, {median['other'] / median['this']:.2f}x per fight in medians "
                    f"(best of {repeat}, {fights} fights of {encounter}, one worker)"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("other", type=Path, help="the other checkout (a git worktree)")
    ap.add_argument("--fights", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--encounter", default=REFERENCE,
                    help="the encounter to play, a path inside both checkouts (e.g. maps/demo.toml)")
    args = ap.parse_args(argv)
    if not (args.other / "sim").is_dir() or not (args.other / args.encounter).is_file():
        print(f"{args.other}: not a cavesim checkout with {args.encounter}", file=sys.stderr)
        return 2
    if not (HERE / args.encounter).is_file():
        print(f"--encounter {args.encounter}: no such file in {HERE}", file=sys.stderr)
        return 2
    r = compare(args.other, fights=args.fights, repeat=args.repeat, encounter=args.encounter)
    print(r["note"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
