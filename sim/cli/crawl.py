"""``cavesim crawl MAP --party T1,T2,... --from P --to Q``: a party travelling through the cave.

Prints the plan and the timeline (or ``--json``); with a display it also animates the crawl in a
window (``--headless`` or ``--json``: no window); ``--out crawl.gif|.webp|.png`` draws the
animation off-screen instead (the export options are those of ``cavesim render``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sim.base.argtypes import real, seed
from sim.base.errors import UsageError
from sim.cli._common import add_map_limit, limits_from, plural
from sim.view.options import (
    add_art_arg,
    add_export_args,
    add_window_args,
    check_export_args,
    parse_size,
    with_art,
)

EXPORT_SPEED = 1.5   # the default --speed of an exported crawl (a window plays at 1x)


def register(sub) -> None:
    p = sub.add_parser("crawl", help="a party travelling through the cave: single file, squeezes, armour off, encounters",
                       description="Plan and play a party's journey between two points of a map (or a crawl file): "
                                   "the route, single file, crawling and squeezing, armour off and on, waits for the "
                                   "slowest, fights with the monsters on the way; a timeline in minutes and rounds.")
    p.add_argument("map", help="a map file, or a crawl file with [crawl] (map, from, to, party, seed) and monsters")
    p.add_argument("--party", metavar="T1,T2,...",
                   help="marching order: stat block names (NAME:TEMPLATE to name a member)")
    p.add_argument("--from", dest="start", metavar="POINT", help="a named point of the map, or X,Y")
    p.add_argument("--to", dest="goal", metavar="POINT", help="a named point of the map, or X,Y")
    p.add_argument("--seed", type=seed(), default=None, help="random seed (default: the crawl file's, else 0)")
    p.add_argument("--json", action="store_true", help="the plan and timeline as JSON")
    p.add_argument("--events", metavar="FILE", help="write the events of the fights as JSON lines")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="draw the animation without a window: NAME.gif, NAME.webp or NAME.png (one frame: the "
                        "last, or --at)")
    p.add_argument("--headless", action="store_true", help="no window, even with a display (print the plan only)")
    p.add_argument("--at", type=real(-1e9, 86_400), default=None, metavar="SECONDS",
                   help="for --out NAME.png: the moment to draw, in seconds of animation (default: the last frame)")
    p.add_argument("--no-hud", action="store_true", help="the map and the clock only, without the side panel and bars")
    add_window_args(p)
    add_art_arg(p)
    add_export_args(p, speed=EXPORT_SPEED)
    for action in p._actions:
        if action.dest == "speed":
            action.help = f"playback speed: a window plays at 1x, an export at {EXPORT_SPEED:g}x unless this says"
    p.set_defaults(speed=None)
    add_map_limit(p)
    p.set_defaults(handler=run)


WORDS = {  # what -> (one creature, several)
    "walk": ("walks", "walk"), "single_file": ("goes single file", "go single file"), "crawl": ("crawls", "crawl"),
    "awkward": ("squeezes (awkward space)", "squeeze (awkward space)"),
    "tight": ("squeezes (tight squeeze)", "squeeze (tight squeeze)"), "armor_off": ("takes off", "take off"),
    "armor_on": ("puts on", "put on"), "keep_armor_off": ("keeps the armour off", "keep the armour off"),
    "wait": ("waits", "wait"), "stand_up": ("stands up", "stand up"), "encounter": ("FIGHT", "FIGHT"),
    "left_behind": ("is left behind", "are left behind"), "arrive": ("arrives", "arrive"),
}


def _verb(what: str, who) -> str:
    one, many = WORDS.get(what, (what, what))
    return one if len(who) == 1 else many


def _from_cwd(member: str) -> str:
    """A party member named on the command line: a template path is relative to the current
    folder (the rule: relative to what names it), so it is made absolute before the crawl file's
    folder could be taken for its base."""
    ident, colon, template = member.rpartition(":")
    if template.endswith(".toml") or "/" in template or "\\" in template:
        template = str(Path(template).absolute())
    return f"{ident}{colon}{template}"


def run(args: argparse.Namespace) -> int:
    from sim.crawl.run import run_crawl
    from sim.scenario.files import load_crawl

    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    window_speed = args.speed if args.speed is not None else 1.0
    if args.speed is None:
        args.speed = EXPORT_SPEED
    check_export_args(args)
    size = parse_size(args.size)
    if args.out is not None:   # before any work: unknown format or missing folder -> exit 2, no file
        from sim.render.export import check_out

        fmt = check_out(args.out)
        if args.at is not None and fmt != "PNG":
            raise UsageError("--at picks one frame: use it with --out NAME.png")
        if args.at is not None and args.at < 0:
            raise UsageError(f"--at must be >= 0 seconds, got {args.at:g}")
    elif args.at is not None:
        raise UsageError("--at picks one frame of the animation: use it with --out NAME.png")
    if args.events:
        from sim.base.fileio import check_writable

        check_writable(Path(args.events), what="--events")
    party = [_from_cwd(p.strip()) for p in args.party.split(",") if p.strip()] if args.party else None
    if args.party is not None and not party:
        raise UsageError("--party needs at least one stat block name, e.g. --party human-fighter-3,halfling-rogue-3")
    spec = load_crawl(Path(args.map), party=party, start=args.start, goal=args.goal, seed=args.seed,
                      limits=limits_from(args))
    # the floor drawn (the map's picture or the painted cave) changes nothing of the crawl itself
    spec = with_art(spec, args.art, warn=_art_warning(args))
    result = run_crawl(spec)
    if args.events:
        from sim.engine.events import write_jsonl

        write_jsonl(args.events, result.events)
    if args.json:
        from sim.story.crawlwords import crawl_json

        json.dump(crawl_json(result), sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
    else:
        _print_text(result)
    if args.out is not None:
        return export(result, args, size)
    if args.json or args.headless:
        return 0
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sim.render.app import has_display, test_driver

    if has_display() or (test_driver() and args.max_frames is not None):
        return window(result, args, size, window_speed)
    return 0


def _art_warning(args: argparse.Namespace):
    """``--art image`` on a map without a picture: a warning only when something is drawn (a
    window or ``--out``); the printed plan does not depend on the art."""
    drawn = args.out is not None or not (args.json or args.headless)
    if drawn:
        return lambda line: print(line, file=sys.stderr)
    return lambda line: None


def export(result, args: argparse.Namespace, size) -> int:
    """Draw the crawl off-screen into ``--out`` (GIF, WebP or one PNG frame)."""
    from sim.render.export import export as write
    from sim.render.export import init_headless

    init_headless()
    hud = not args.no_hud

    def make():
        from sim.render.crawl import crawl_scene

        return crawl_scene(result, size=size, speed=args.speed, hud=hud)

    out = sys.stderr if args.json else sys.stdout
    print(f"{result.spec.name}: drawing the crawl off-screen ...", file=out, flush=True)
    r = write(make, args.out, fps=args.fps, scale=args.scale, max_frames=args.max_frames, at=args.at, tail=1.0)
    print(f"wrote {r.path} ({r.format}, {r.frames} frame{'s' if r.frames != 1 else ''}, {r.size[0]}x{r.size[1]}, "
          f"{r.seconds:.1f} s at {args.speed:g}x)", file=out)
    return 0


def window(result, args: argparse.Namespace, size, speed: float) -> int:
    """Animate the crawl in a window (Space pause, +/- speed, arrows: next / previous part, Esc quit)."""
    from sim.render.app import App, open_window
    from sim.render.crawl import crawl_scene

    screen = open_window(size, f"cavesim — {result.spec.name}")
    if screen is None:
        print("cavesim crawl: the display cannot be opened; use --out crawl.gif to draw the animation to a file")
        return 0
    scene, player = crawl_scene(result, size=screen.get_size(), speed=speed, hud=not args.no_hud)
    return App(scene, player, screen, max_frames=args.max_frames, fixed=args.max_frames is not None).run()


def _print_text(result) -> None:
    from sim.crawl.records import (
        Dressing,
        Fight,
        KeepArmorOff,
        LeftBehind,
        Light,
        LightOut,
        Noticed,
        Squeeze,
        Stretch,
        Wait,
    )
    from sim.story.crawlwords import clock, light_words, notice_words, reason_words

    spec = result.spec
    print(f"{spec.name} (seed {spec.seed}): {' > '.join(m.id for m in spec.party)}")
    print(f"route: {plural(len(result.route) - 1, 'square')} from {spec.start_name or spec.start} to "
          f"{spec.goal_name or spec.goal}")
    for cid, why in result.left_behind.items():
        print(f"  ! {cid} {reason_words(why)}")
    print()
    print(f"  {'time':>6} {'rounds':>7}  what")
    for e in result.timeline:
        who = ", ".join(e.who)
        if isinstance(e, Stretch):
            per = ", ".join(f"{k} {v:g}" for k, v in e.member_rounds.items())
            line = (f"{who} {_verb(e.what, e.who)} {plural(e.squares, 'square')} from {e.at} "
                    f"({plural(float(e.rounds), 'round')}: {per})")
            if isinstance(e, Squeeze) and e.checks:
                line += "; Escape Artist: " + "; ".join(
                    f"{k} {plural(float(sum(c.tries for c in v)), 'try', 'tries')}" for k, v in e.checks.items() if v)
        elif isinstance(e, Dressing):
            line = f"{who} {_verb(e.what, e.who)} the {e.armor} ({e.minutes:g} min{', helped' if e.helped else ''})"
        elif isinstance(e, Wait):
            line = f"{who} {_verb('wait', e.who)} for {e.for_whom}"
        elif isinstance(e, Fight):
            f = e.summary
            line = (f"FIGHT at {e.at} with {', '.join(f.monsters)}: {f.winner or 'no one'} wins after "
                    f"{plural(f.rounds, 'round')} (seed {f.seed})" + (f"; armour off: {', '.join(f.armor_off)}" if f.armor_off else ""))
        elif isinstance(e, (Light, LightOut)):
            line = light_words(e.who[0], e)
        elif isinstance(e, Noticed):
            line = notice_words(e)
        elif isinstance(e, LeftBehind):
            line = f"{who} {reason_words(e.why)}"
        elif isinstance(e, KeepArmorOff):
            line = f"{who} {_verb(e.what, e.who)}: {reason_words(e.why)}"
        else:
            line = f"{who} {_verb(e.what, e.who)} at {e.at}"
        print(f"  {clock(e.start):>6} {e.start:>7g}  {line}")
    print()
    print(f"total: {plural(float(result.total_rounds), 'round')} = {clock(result.total_rounds)} (min:sec); "
          f"arrived: {', '.join(result.arrived) or 'no one'}")
