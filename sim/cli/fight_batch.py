"""``cavesim fight ENCOUNTER --runs N``: a Monte Carlo batch of seeded fights (issue 7).

The options are declared in :mod:`sim.cli.fight` (one command, one or many fights); this module
runs a batch: checks every input first (nothing is written before), then plays the fights on
local processes (``--workers``) or a Dask cluster (``--cluster``), appending records as they
finish (``--out``; ``--resume`` continues), and prints the summary (``--report-dir`` adds the
plots and an HTML page).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sim.base.argtypes import whole
from sim.base.errors import DataError, UsageError
from sim.cli._common import plural

if TYPE_CHECKING:  # annotations only: the command line starts without rich's progress bars
    from rich.console import Console
    from rich.progress import Progress, TaskID


def add_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("batches (Monte Carlo)")
    g.add_argument("--runs", type=whole(-10 ** 9, 10_000_000), metavar="N", help="play N seeded fights (per variant) and summarise them")
    g.add_argument("--workers", type=whole(-1024, 1024), metavar="P",
                   help="local worker processes (default: the CPUs available; 1 = in this process)")
    g.add_argument("--out", metavar="FILE", help="write one record per fight (CSV or JSON lines)")
    g.add_argument("--format", choices=("csv", "jsonl"), help="record format (default: from --out's suffix; CSV)")
    g.add_argument("--resume", action="store_true", help="continue an interrupted batch (or extend a finished one) in --out")
    g.add_argument("--repair", action="store_true",
                   help="with --resume: move damaged lines of OUT.part to OUT.part.damaged and play their fights again")
    g.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                   help="a sweep: one variant per value, summaries side by side; repeatable (every combination). "
                        "Keys: legend.G.width|height|difficult (G any glyph, e.g. legend.=.width=5,30), "
                        "combatant.ID.template|weapon|off_hand|team|at|lit, party.size, team.NAME.size, settings.KEY")
    g.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster (scheduler address, e.g. tcp://host:8786)")
    g.add_argument("--report-dir", metavar="FOLDER", help="write summary.html, summary.json and PNG plots there")


BATCH_ONLY = ("workers", "out", "format", "resume", "repair", "vary", "cluster", "report_dir")


def check_single(args: argparse.Namespace) -> None:
    """Batch options without --runs are a mistake, not something to ignore."""
    used = [f"--{k.replace('_', '-')}" for k in BATCH_ONLY if getattr(args, k, None) not in (None, False, [])]
    if used:
        raise UsageError(f"{', '.join(used)} only apply to batches; add --runs N")


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from sim.analysis import batch as B
    from sim.analysis import records as REC
    from sim.analysis import report as R
    from sim.analysis import summary as S
    from sim.analysis.sweep import parse_vary, variants
    from sim.cli._common import limits_from
    from sim.scenario.files import load_encounter

    _check_batch_args(args)
    varies = [parse_vary(v) for v in args.vary]
    spec = load_encounter(Path(args.encounter), limits=limits_from(args))
    var = variants(spec, varies)
    labels = [lab for lab, _ in var]
    try:
        cols = B.columns([s for _, s in var])
    except DataError as exc:
        raise UsageError("; ".join(exc.problems)) from None
    seed = spec.seed if args.seed is None else args.seed
    fmt = REC.format_for(args.out, args.format) if args.out else None
    folder = R.prepare_dir(args.report_dir) if args.report_dir else None
    jobs = B.plan(labels, args.runs, seed)
    inputs = B.inputs_digest(var, seed)
    start = REC.Resume()
    if args.out:
        from sim.base.fileio import check_writable

        check_writable(Path(args.out))
        start = REC.existing_records(args.out, fmt, cols, inputs, resume=args.resume, repair=args.repair,
                                     identity=REC.Identity(labels, seed, {j.index: j.seed for j in jobs}))
    existing = list(start.records)
    _check_existing(existing, labels, args.runs, seed, args.out)
    if start.source is not None and start.source == Path(args.out):
        _check_replay(existing, var, cols, fmt, args.out)
    executor = _cluster(args.cluster) if args.cluster else None
    journal = REC.Journal(args.out, fmt, cols, inputs=inputs, start=start) if args.out else None
    done = {(str(r.get("variant", "")), int(r["index"])) for r in existing}
    todo = [j for j in jobs if j.key not in done]
    workers = args.workers if args.workers is not None else min(B.local_workers(), max(1, len(todo)))
    err = Console(stderr=True)
    show = err.is_terminal and not args.quiet
    records: list[dict] = list(existing)
    progress = None
    task = None
    if show:
        progress, task = _progress(err, total=len(jobs), completed=len(jobs) - len(todo))

    def arrived(recs: list[dict]) -> None:
        if journal is not None:
            journal.append(recs)
        if progress is not None:
            progress.advance(task, len(recs))

    try:
        records += B.run_batch(var, todo, workers=workers, executor=executor, on_records=arrived)
    except B.BatchIncomplete as exc:
        if progress is not None:
            progress.stop()
        where = "nothing was saved (no --out)"
        if journal is not None:
            journal.close()
            where = (f"the fights played are in {journal.part}; run the same command with --resume to play "
                     "the rest (perhaps with fewer --workers)")
        print(f"cavesim: the batch could not finish: {exc}; {where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if progress is not None:
            progress.stop()
        if journal is not None:
            journal.close()
            print(f"cavesim: interrupted; the fights played so far are in {journal.part}; "
                  f"run the same command with --resume to continue", file=sys.stderr)
        else:
            print("cavesim: interrupted", file=sys.stderr)
        return 130
    finally:
        if progress is not None:
            progress.stop()
        if executor is not None:
            executor.close()
    order = {lab: i for i, lab in enumerate(labels)}
    if journal is not None:
        journal.finish(B.sort_key(order))
    records.sort(key=B.sort_key(order))
    sums = S.summarize(records, labels, cols, spec.grid.shape, members=B.members([s for _, s in var]),
                       encounter=str(args.encounter))
    teams = S.teams_of(cols)
    title = spec.name or Path(args.encounter).stem
    meta = {"schema_version": 1, "encounter": str(args.encounter), "seed": seed, "runs": args.runs,
            "variants": labels, "records": str(args.out) if args.out else None}
    written: list[str] = []
    if folder is not None:
        written = R.write_files(folder, S.files(sums, teams, spec.grid, title=title, meta=meta))
    if args.json:
        sys.stdout.write(json.dumps({**meta, "variants": [s.to_json() for s in sums]}, indent=None) + "\n")
        return 0
    out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    S.terminal(sums, teams, out, title=f"{title}: {plural(args.runs, 'fight')}{' per variant' if len(labels) > 1 else ''}, seed {seed}")
    if args.out:
        out.print(f"records: {args.out}")
    if written:
        out.print(f"report: {folder / 'summary.html'} (and {len(written) - 1} more files beside it)")
    return 0


def _check_batch_args(args: argparse.Namespace) -> None:
    """The batch options that contradict each other or the batch, refused before any work."""
    if args.runs < 1:
        raise UsageError(f"--runs must be at least 1, got {args.runs}")
    if args.events:
        raise UsageError("--events writes one fight's log; to see a fight of a batch, replay it: "
                         "cavesim fight ENCOUNTER --seed <its seed> --events FILE")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    if args.resume and not args.out:
        raise UsageError("--resume needs --out FILE (the records of the batch to continue)")
    if args.repair and not args.resume:
        raise UsageError("--repair only applies with --resume (it mends the journal of the batch to continue)")
    if args.cluster and args.workers is not None:
        raise UsageError("give either --workers (local processes) or --cluster (a Dask scheduler), not both")


def _progress(err: Console, *, total: int, completed: int) -> tuple[Progress, TaskID]:
    """The progress bar of a batch on the terminal (started), and its task."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn("fights"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err, transient=True)
    progress.start()
    return progress, progress.add_task("fights", total=total, completed=completed)


def _check_existing(existing: list[dict], labels: list[str], runs: int, seed: int, out) -> None:
    from sim.analysis.batch import fight_seed

    for r in existing:
        lab = str(r.get("variant", ""))
        i = int(r["index"])
        if lab not in labels:
            raise UsageError(f"{out}: holds fights of variant {lab!r}, which this batch does not have; "
                             "give the same --vary as the batch it continues, or a new --out")
        if i >= runs:
            raise UsageError(f"{out}: already holds fight {i}; give --runs {i + 1} or more to continue it")
        if int(r["seed"]) != fight_seed(seed, i):
            raise UsageError(f"{out}: fight {i} was played from another seed; give the --seed of the batch "
                             "it continues, or a new --out")


def _check_replay(existing: list[dict], var, cols: list[str], fmt: str, out) -> None:
    """A finished records file has no inputs hash: replay its first fight of each variant and
    refuse the file if a record differs (another encounter with the same ids and seeds)."""
    from sim.analysis import batch as B
    from sim.analysis import records as REC

    first: dict[str, dict] = {}
    for r in existing:
        first.setdefault(str(r.get("variant", "")), r)
    specs = dict(var)
    for label, rec in first.items():
        again = B.play(specs[label], label=label, index=int(rec["index"]), seed=int(rec["seed"]))
        if fmt == "csv":
            same = REC.render([REC._full(rec, cols)], fmt, cols, header=False) == REC.render([again], fmt, cols, header=False)
        else:
            same = json.dumps(rec, sort_keys=True) == json.dumps(again, sort_keys=True)
        if not same:
            raise UsageError(f"{out}: fight {rec['index']} of it was not played from these inputs (replayed, it ends "
                             "differently: another encounter, map, stat block or setting); give a new --out")


def _cluster(address: str):
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'cavesim[dask]'") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--cluster {address}: cannot reach a Dask scheduler there ({exc})") from None
