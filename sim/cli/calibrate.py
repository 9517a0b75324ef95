"""``cavesim calibrate``: the party against the DMG's encounter ladder (issue 31, docs/calibration.md).

Builds the ladder's encounters (:mod:`sim.analysis.calibrate`), plays them as one batch on the
batch machinery (:mod:`sim.analysis.batch`: ``--workers``, ``--cluster``, ``--out`` and
``--resume``, as ``cavesim fight --runs``), and prints the table per rung with 95% intervals
(:mod:`sim.analysis.calibration_report`); ``--report-dir`` writes the picture (ladder.png), the page
(calibration.html) and calibration.json; ``--json`` prints the JSON.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

from sim.base.argtypes import seed, whole
from sim.base.errors import UsageError


def register(sub) -> None:
    p = sub.add_parser("calibrate", help="measure the AI against the DMG's encounter ladder (EL = L-2 ... L+5)",
                       description="Play the four shipped PC classes at each party level against groups of shipped "
                                   "monsters at Encounter Levels L-2 to L+5 (a lit open room, or --map at its points "
                                   "party and monsters) and report, per rung, win rate, resources spent, P(a PC dies), "
                                   "P(TPK), rounds and the AI's blunders with 95% intervals. docs/calibration.md.")
    p.add_argument("--levels", default="1-10", help="party levels: 3,6 or a range 1-10 (default 1-10)")
    p.add_argument("--monsters", help="shipped monsters, comma-separated (default: every one with a CR)")
    p.add_argument("--per-rung", type=whole(1, 100), default=2, metavar="K",
                   help="encounters per rung, spread over the monsters that make it (default 2)")
    p.add_argument("--map", metavar="MAP", help="a map (TOML) with points party and monsters (default: a lit open room)")
    p.add_argument("--runs", type=whole(1, 1_000_000), default=10, metavar="N", help="fights per encounter (default 10)")
    p.add_argument("--seed", type=seed(), default=1, help="batch seed (default 1)")
    p.add_argument("--workers", type=whole(1, 1024), metavar="P", help="local worker processes (default: the CPUs)")
    p.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster (scheduler address)")
    p.add_argument("--out", metavar="FILE", help="write one record per fight (CSV or JSON lines); --resume continues it")
    p.add_argument("--resume", action="store_true", help="continue an interrupted calibration in --out")
    p.add_argument("--report-dir", metavar="FOLDER", help="write ladder.png, calibration.html and calibration.json")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from sim.analysis import batch as B
    from sim.analysis import calibrate as C
    from sim.analysis import calibration_report as CR
    from sim.analysis import records as REC
    from sim.analysis import report as R
    from sim.cli.fight_batch import _cluster, _progress

    if args.cluster and args.workers is not None:
        raise UsageError("give either --workers (local processes) or --cluster (a Dask scheduler), not both")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out FILE (the records of the calibration to continue)")
    levels = C.parse_levels(args.levels)
    names = [n.strip() for n in args.monsters.split(",") if n.strip()] if args.monsters else None
    if names is not None and not names:
        raise UsageError("--monsters: name at least one shipped monster")
    mons = C.monsters(names)
    grid = _grid(args.map)
    rungs = C.rungs(levels, mons, per_rung=args.per_rung)
    if not rungs:
        raise UsageError("no encounter makes any rung of these levels with these monsters (groups of at most "
                         "8); give more --monsters or other --levels")
    var = C.variants(grid, rungs, seed=args.seed)
    labels = [lab for lab, _ in var]
    cols = B.columns([s for _, s in var])
    fmt = REC.format_for(args.out, None) if args.out else None
    folder = R.prepare_dir(args.report_dir) if args.report_dir else None
    jobs = B.plan(labels, args.runs, args.seed)
    inputs = B.inputs_digest(var, args.seed)
    start = REC.Resume()
    if args.out:
        from sim.base.fileio import check_writable

        check_writable(Path(args.out))
        start = REC.existing_records(args.out, fmt, cols, inputs, resume=args.resume, repair=False,
                                     identity=REC.Identity(labels, args.seed, {j.index: j.seed for j in jobs}))
    records = list(start.records)
    done = {(str(r.get("variant", "")), int(r["index"])) for r in records}
    todo = [j for j in jobs if j.key not in done]
    executor = _cluster(args.cluster) if args.cluster else None
    journal = REC.Journal(args.out, fmt, cols, inputs=inputs, start=start) if args.out else None
    workers = args.workers if args.workers is not None else min(B.local_workers(), max(1, len(todo)))
    err = Console(stderr=True)
    progress, task = (_progress(err, total=len(jobs), completed=len(jobs) - len(todo))
                      if err.is_terminal and not args.quiet else (None, None))

    def arrived(recs: list[dict]) -> None:
        if journal is not None:
            journal.append(recs)
        if progress is not None:
            progress.advance(task, len(recs))

    try:
        records += B.run_batch(var, todo, workers=workers, executor=executor, on_records=arrived)
    except B.BatchIncomplete as exc:
        if journal is not None:
            journal.close()
        print(f"cavesim: the calibration could not finish: {exc}; run it again with --resume"
              + ("" if args.out else " and --out FILE"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if journal is not None:
            journal.close()
            print(f"cavesim: interrupted; the fights played are in {journal.part}; --resume continues", file=sys.stderr)
            return 130
        raise
    finally:
        if progress is not None:
            progress.stop()
        if executor is not None:
            executor.close()
    order = {lab: i for i, lab in enumerate(labels)}
    if journal is not None:
        journal.finish(B.sort_key(order))
    records.sort(key=B.sort_key(order))
    rows = CR.table(records, rungs, {lv: C.prepared_spells(lv) for lv in levels})
    notes = CR.off_ladder(rows)
    command = "cavesim calibrate " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if len(sys.argv) > 1 else "cavesim calibrate"
    meta = {"schema_version": 1, "levels": levels, "runs": args.runs, "seed": args.seed, "per_rung": args.per_rung,
            "map": args.map, "monsters": [m.template for m in mons], "command": command,
            "intervals": "95%: Wilson (proportions), Student's t (means)"}
    doc = {**meta, "off_ladder": notes, "rows": [r.to_json() for r in rows]}
    if folder is not None:
        png = CR.picture(rows)
        R.write_files(folder, {"ladder.png": png, "calibration.json": json.dumps(doc, indent=1) + "\n",
                               "calibration.html": CR.page(rows, png, title="cavesim calibrate", command=command,
                                                           notes=notes),
                               "calibration.md": CR.markdown(rows)})
    if args.json:
        sys.stdout.write(json.dumps(doc) + "\n")
        return 0
    out = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    out.print(CR.markdown(rows), markup=False)
    for n in notes:
        out.print(f"off the ladder: {n}", markup=False)
    if folder is not None:
        out.print(f"report: {folder / 'calibration.html'} (ladder.png, calibration.json beside it)", markup=False)
    return 0


def _grid(path: str | None):
    """The map to ladder on: the user's (its points ``party`` and ``monsters``) or the open room."""
    from sim.analysis.calibrate import open_room
    from sim.maps.read import load_map

    if path is None:
        return open_room()
    grid = load_map(Path(path))
    missing = [p for p in ("party", "monsters") if p not in grid.points]
    if missing:
        raise UsageError(f"--map {path}: no point {' or '.join(repr(m) for m in missing)}; add [points] party = [x, y] "
                         "and monsters = [x, y] where the two sides start")
    return grid
