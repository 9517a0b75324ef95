"""``cavesim fight ENCOUNTER [--seed S] [--events FILE] [--save-at ROUND --save FILE]`` and
``cavesim fight SNAPSHOT.json``: play one fight (or go on with a saved one) and print its log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sim.base.argtypes import seed, whole
from sim.base.errors import DataError, UsageError
from sim.cli import fight_batch
from sim.cli._common import add_map_limit, limits_from


def register(sub) -> None:
    p = sub.add_parser("fight", help="play a fight and print a round-by-round log with every modifier",
                       description="Play the encounter with the AI and print a readable log: every roll with its "
                                   "modifier breakdown, then the outcome. Given a snapshot (.json, written by "
                                   "--save or Ctrl-S in cavesim play), go on with that fight from where it was saved.")
    p.add_argument("encounter", help="encounter file (TOML), or a snapshot (JSON) to resume")
    p.add_argument("--seed", type=seed(), default=None, help="random seed (default: the file's seed)")
    p.add_argument("--events", metavar="FILE", help="also write the events as JSON lines (a resumed fight: all "
                                                     "of them, from the start)")
    p.add_argument("--json", action="store_true", help="print the events as JSON lines instead of the log")
    p.add_argument("--quiet", action="store_true", help="only the outcome")
    p.add_argument("--save-at", type=whole(-10 ** 9, 10_000), metavar="ROUND", default=None,
                   help="stop as round ROUND's first turn begins and save the fight (with --save)")
    p.add_argument("--save", metavar="FILE", default=None, help="the snapshot file --save-at writes (JSON)")
    add_map_limit(p)
    fight_batch.add_options(p)  # --runs N and the batch options (issue 7)
    p.set_defaults(handler=run)


def is_snapshot(path: Path) -> bool:
    """A snapshot file: named .json, or starting with '{' (an encounter is TOML)."""
    if path.suffix.lower() == ".json":
        return True
    if not path.is_file():  # a FIFO or a device is never opened here (the reader refuses it)
        return False
    try:
        with open(path, "rb") as fh:
            return fh.read(64).lstrip().startswith(b"{")
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    resume = is_snapshot(Path(args.encounter))
    if getattr(args, "runs", None) is not None:
        if resume:
            raise UsageError(f"{args.encounter}: --runs plays fresh fights from an encounter file, not a snapshot")
        return fight_batch.run(args)
    fight_batch.check_single(args)
    from sim.base.fileio import check_writable
    from sim.engine.ai.decide import default_policy
    from sim.engine.events import dumps, write_jsonl
    from sim.engine.fight import new_encounter
    from sim.engine.saved import snapshot
    from sim.scenario.files import load_encounter
    from sim.story.log import Narrator, display_names

    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    if (args.save_at is None) != (args.save is None):
        raise UsageError("--save-at ROUND and --save FILE go together: give both")
    if args.save_at is not None and args.save_at < 1:
        raise UsageError(f"--save-at must be a round >= 1, got {args.save_at}")
    for opt, value in (("--events", args.events), ("--save", args.save)):
        if value:
            check_writable(Path(value), what=opt)
    if resume:
        if args.seed is not None:
            raise UsageError(f"--seed: {args.encounter} is a snapshot, whose random generator is saved in it; "
                             "leave --seed out")
        enc, enc_file = snapshot.read_snapshot(
            Path(args.encounter), policy=default_policy,
            load_spec=lambda p: load_encounter(p, limits=limits_from(args), check=False))
    else:
        enc_file = Path(args.encounter)
        spec = load_encounter(enc_file, limits=limits_from(args))
        enc = new_encounter(spec, seed=args.seed)
        enc.start()
    shown_from = len(enc.events)  # a resumed fight prints what happens after the save
    saved = None
    if args.save_at is not None:
        while not enc.finished and not (enc.round >= args.save_at and enc.turn is not None):
            enc.advance()
        if enc.finished:
            raise DataError(f"--save-at {args.save_at}: the fight ended in round {enc.round}, before round "
                            f"{args.save_at} began; nothing was saved (choose an earlier round)")
        snapshot.save(enc, args.save, encounter_file=enc_file)
        saved = args.save
    else:
        enc.run()
    events = enc.events
    if args.events:
        write_jsonl(args.events, events)
    shown = events if not resume else events[shown_from:]
    if args.json:
        sys.stdout.write(dumps(shown))
        return 0
    narrator = Narrator(display_names(enc.creatures.values()))
    lines = narrator.lines(shown)
    if args.quiet:
        lines = lines[-1:]
    for line in lines:
        print(line)
    if saved:
        print(f"saved round {enc.round} ({enc.current().name}'s turn) to {saved}; go on with: cavesim fight {saved}")
    return 0
