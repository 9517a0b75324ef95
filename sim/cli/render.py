"""``cavesim render ENCOUNTER --out fight.gif|fight.webp|frame.png``: the fight, animated, with no
window. Same seed, same frames. A recorded fight (``EVENTS.jsonl``, from ``cavesim fight --events``)
can be rendered too."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from sim.base.argtypes import real, seed
from sim.cli._common import add_map_limit, bare_map, limits_from
from sim.view.options import (
    add_art_arg,
    add_export_args,
    add_window_args,
    check_export_args,
    parse_size,
    with_art,
)


def register(sub) -> None:
    p = sub.add_parser("render", help="simulate a fight and export its animation (GIF, WebP or a PNG frame)",
                       description="Simulate the encounter with the AI and draw it off-screen, with no window: an "
                                   "animated GIF or WebP of the whole fight, or one PNG frame (the last, or --at). "
                                   "The same seed gives the same frames.")
    p.add_argument("encounter", help="encounter file (TOML), a bare map (the cave with no one on it), or a fight log "
                                     "(.jsonl) written by cavesim fight --events")
    p.add_argument("--out", required=True, help="output file: NAME.gif, NAME.webp or NAME.png")
    p.add_argument("--seed", type=seed(), default=None, help="random seed (default: the file's seed)")
    p.add_argument("--map", default=None, help="for a .jsonl fight log: the map or encounter it was played on")
    p.add_argument("--at", type=real(-1e9, 86_400), default=None, metavar="SECONDS",
                   help="for .png: the moment to draw, in seconds of animation (default: the last frame)")
    p.add_argument("--no-hud", action="store_true", help="the map only, without the side panel and bars")
    p.add_argument("--view", choices=("all", "party", "monsters"), default="all",
                   help="light and fog of war: everything lit as it is (default), or what one side sees")
    add_window_args(p)
    add_art_arg(p)
    add_export_args(p)
    add_map_limit(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from sim.render.export import check_out

    check_export_args(args)
    size = parse_size(args.size)
    fmt = check_out(args.out)  # before any work: unknown format or missing folder -> exit 2
    if args.at is not None and fmt != "PNG":
        from sim.base.errors import UsageError

        raise UsageError("--at picks one frame: use it with --out NAME.png")
    make = scene_factory(args, size)  # loads and simulates now: bad input fails before any output
    from sim.render.export import export

    result = export(make, args.out, fps=args.fps, scale=args.scale, max_frames=args.max_frames, at=args.at)
    print(f"wrote {result.path} ({result.format}, {result.frames} frame{'s' if result.frames != 1 else ''}, "
          f"{result.size[0]}x{result.size[1]}, {result.seconds:.1f} s)")
    return 0


def scene_factory(args: argparse.Namespace, size):
    """A function building a fresh (scene, driver) for the file given (the export runs twice)."""
    from sim.render.export import init_headless

    init_headless()
    src = Path(args.encounter)
    hud = not getattr(args, "no_hud", False)
    if src.suffix.lower() == ".jsonl":
        from sim.view.fights import find_map_for, load_replay

        events = load_replay(src)
        grid, base, title, subtitle = find_map_for(events, args.map, limits_from(args))
        grid = with_art(grid, args.art)

        def make():
            from sim.render.session import scene_from_events

            return scene_from_events(events, grid, base_path=base, title=title, subtitle=subtitle, size=size,
                                     speed=args.speed, hud=hud, view=args.view)

        return make
    from sim.render.session import map_scene, watch_scene
    from sim.view.fights import simulate
    from sim.scenario.files import load_encounter

    grid = bare_map(src, limits_from(args))
    if grid is not None:  # a map with no encounter: the cave on its own
        grid = with_art(grid, args.art)
        return lambda: map_scene(grid, size=size, hud=hud, base_path=str(src))
    spec = with_art(load_encounter(src, limits=limits_from(args)), args.art)
    _, events = simulate(spec, seed=args.seed)

    def make():
        return watch_scene(spec, size=size, speed=args.speed, hud=hud, events=events, view=args.view)

    return make
