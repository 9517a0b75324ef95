"""Grapple batch benchmark (issue 21): fights per second per core on the shipped darkmantle
roost (``maps/darkmantle_roost.toml``: three darkmantles and a choker that grab, constrict and
are escaped from, against a 3rd-level party), against the reference encounter of the batch
benchmark (``benchmarks/reference_fight.toml``) in the same run.

    python -m benchmarks grapple
    python -m benchmarks.grapple_bench --fights 60

Both batches run in this process with one worker (records made and all), interleaved; each
figure is the best of the repeats (the machine is shared). ``ratio`` = the roost's seconds per
fight / the reference's: fights per second within 20% of the reference means a ratio <= 1.25.
Seconds per round are reported too (the two fights do not last the same number of rounds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from benchmarks.batch_bench import REFERENCE, _batch

ROOST = Path(__file__).resolve().parents[1] / "maps" / "darkmantle_roost.toml"


def bench_grapple(repeat: int = 3, fights: int = 40) -> dict:
    from sim.scenario.files import load_encounter

    roost, ref = load_encounter(ROOST), load_encounter(REFERENCE)
    _batch(roost, 4, 1)   # warm up: compiled kernels, templates
    _batch(ref, 4, 1)
    tg, tr = [], []
    recs_g = recs_r = None
    for _ in range(max(1, repeat)):
        t, recs_g = _batch(roost, fights, 1)
        tg.append(t)
        t, recs_r = _batch(ref, fights, 1)
        tr.append(t)
    g, r = min(tg) / fights, min(tr) / fights
    rounds_g = statistics.mean(x["rounds"] for x in recs_g)
    rounds_r = statistics.mean(x["rounds"] for x in recs_r)
    return {"name": f"batch: darkmantle roost (grapple), {fights} fights", "seconds": g,
            "reference": "the reference fight (batch benchmark), same run", "reference_seconds": r,
            "ratio": g / r, "target": "<= 1.25 (fights/s within 20% of the reference)",
            "fights_per_second_per_core": 1 / g, "reference_fights_per_second": 1 / r,
            "note": f"{1 / g:.1f} fights/s per core vs the reference's {1 / r:.1f}; {rounds_g:.1f} rounds a fight "
                    f"({g / rounds_g * 1e3:.1f} ms a round) vs {rounds_r:.1f} ({r / rounds_r * 1e3:.1f} ms a round)"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.grapple_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fights", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    r = bench_grapple(args.repeat, args.fights)
    print(f"{r['name']}: {r['ratio']:.2f}x the reference; {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
