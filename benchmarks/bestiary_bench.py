"""Bestiary benchmark (issue 21): fights per second per core on a shipped encounter with new
monsters (``maps/spider_gallery.toml``: 3 PCs against 4 web-spinning spiders, webs, poison,
entangled heroes breaking free) against the reference encounter (``benchmarks/reference_fight.toml``),
in the same run, one worker each, interleaved; the best of the repeats of each.

    python -m benchmarks bestiary
    python -m benchmarks.bestiary_bench --fights 40

Fights differ in length, so the figure also gives the CPU time per creature turn of each: the
bestiary's hooks (a gaze met, light, webs) run at every turn start.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "benchmarks" / "reference_fight.toml"
BESTIARY = ROOT / "maps" / "spider_gallery.toml"


def _run(spec, n: int, seed: int = 1) -> tuple[float, int]:
    from sim.analysis.batch import plan, run_batch

    jobs = plan([""], n, seed)
    t = time.process_time()
    recs = run_batch([("", spec)], jobs, workers=1)
    return time.process_time() - t, sum(r["rounds"] for r in recs)


def _turns(spec, n: int, seed: int = 1) -> int:
    """Creature turns in the same fights (counted once, outside the timing)."""
    from sim.analysis.batch import fight_seed
    from sim.engine.fight import run_fight

    return sum(sum(1 for e in run_fight(spec, seed=fight_seed(seed, i)).events if e.type == "turn_start")
               for i in range(n))


def bench_bestiary(repeat: int = 3, fights: int = 40) -> dict:
    from sim.scenario.files import load_encounter

    ref, new = load_encounter(REFERENCE), load_encounter(BESTIARY)
    _run(ref, 3)
    _run(new, 3)  # warm up: compiled kernels, templates
    t_ref, t_new = [], []
    for _ in range(max(1, repeat)):
        t_ref.append(_run(ref, fights)[0])
        t_new.append(_run(new, fights)[0])
    tr, tn = min(t_ref), min(t_new)
    fps_ref, fps_new = fights / tr, fights / tn
    turns_ref, turns_new = _turns(ref, fights), _turns(new, fights)
    per_turn = (tn / turns_new) / (tr / turns_ref)
    return {"name": f"bestiary: spider gallery vs the reference fight, {fights} fights each",
            "seconds": tn / fights, "reference": "reference_fight.toml, same run", "reference_seconds": tr / fights,
            "ratio": fps_new / fps_ref, "target": ">= 0.8 (within 20% of the reference's fights/s)",
            "fights_per_second_per_core": fps_new, "reference_fights_per_second": fps_ref,
            "cpu_per_turn_ratio": per_turn,
            "note": f"{fps_new:.1f} fights/s per core against {fps_ref:.1f} for the reference "
                    f"({fps_new / fps_ref:.2f}x; target >= 0.8x); CPU per creature turn {per_turn:.2f}x the reference's"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bestiary_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fights", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    r = bench_bestiary(args.repeat, args.fights)
    print(f"{r['name']}: {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
