"""``cavesim demo``: the main job with no arguments -- the built-in fight (maps/demo.toml on the
Warrens), animated in a window with a title card. With no display (or ``--headless``) the same
fight is written as an animated GIF (or WebP) and a final PNG, and their paths are printed.
``--text`` prints the built-in cave classified for a Medium and a Large creature instead.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from sim.base.argtypes import seed
from sim.base.errors import UsageError
from sim.view.options import (
    add_art_arg,
    add_export_args,
    add_window_args,
    check_export_args,
    parse_size,
    with_art,
)

DEFAULT_OUT = "cavesim-demo"


def register(sub) -> None:
    p = sub.add_parser("demo", help="the built-in fight, animated (a window, or a GIF and a PNG without a display)",
                       description="Play the built-in encounter (a party, goblins and a rat swarm in the Warrens) in a "
                                   "window. With no display, or with --headless, write it as an animated GIF (or "
                                   "WebP) and a final PNG instead and print where.")
    p.add_argument("map", nargs="?", default=None, metavar="MAP_OR_ENCOUNTER",
                   help="instead of the built-in fight: another encounter, or a bare map to look at (no one on it)")
    p.add_argument("--headless", action="store_true", help="no window: write the animation and a PNG")
    p.add_argument("--out", default=None, metavar="DIR",
                   help=f"folder for the headless files (default ./{DEFAULT_OUT}/; created if missing)")
    p.add_argument("--format", choices=("gif", "webp"), default="gif", help="animation format (default gif)")
    p.add_argument("--seed", type=seed(), default=None, help="random seed (default: the demo's seed)")
    p.add_argument("--view", choices=("all", "party", "monsters"), default="all",
                   help="light and fog of war: everything lit as it is (default), or what one side sees")
    p.add_argument("--text", action="store_true", help="print the built-in cave classified for Medium and Large")
    add_window_args(p)
    add_art_arg(p)
    add_export_args(p, speed=1.6)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.text:
        return print_classification()
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    check_export_args(args)
    size = parse_size(args.size)
    out_dir = Path(args.out) if args.out else Path(DEFAULT_OUT)
    if args.headless or args.out:
        return headless(args, size, out_dir)
    from sim.render.app import has_display, no_display_reason, test_driver

    if has_display() or (test_driver() and args.max_frames is not None):
        return window(args, size, out_dir)
    print(f"cavesim demo: no display ({no_display_reason()}); writing the animation instead")
    return headless(args, size, out_dir)


def _spec(args=None):
    from sim.base.paths import builtin_map
    from sim.scenario.files import load_encounter

    given = getattr(args, "map", None)
    return with_art(load_encounter(Path(given) if given else builtin_map("demo.toml")), getattr(args, "art", None))


def _bare(args):
    """The map given, when it is a bare map (no encounter), else None."""
    from sim.cli._common import bare_map
    from sim.maps.limits import Limits

    given = getattr(args, "map", None)
    grid = bare_map(given, Limits()) if given else None
    return with_art(grid, getattr(args, "art", None)) if grid is not None else None


def window(args, size, out_dir: Path) -> int:
    from sim.render.app import App, open_window
    from sim.render.session import map_scene, watch_scene

    grid = _bare(args)
    spec = _spec(args) if grid is None else None
    screen = open_window(size, f"cavesim — {spec.name if spec else grid.name}")
    if screen is None:
        print("cavesim demo: the display cannot be opened; writing the animation instead")
        return headless(args, size, out_dir)
    if grid is not None:
        scene, timeline = map_scene(grid, size=screen.get_size(), base_path=args.map)
    else:
        scene, timeline = watch_scene(spec, seed=args.seed, size=screen.get_size(), speed=1.0, view=args.view)
    return App(scene, timeline, screen, max_frames=args.max_frames, fixed=args.max_frames is not None).run()


def headless(args, size, out_dir: Path) -> int:
    from sim.render.export import check_out, export, init_headless
    from sim.render.session import watch_scene
    from sim.view.fights import simulate

    parent = out_dir.parent if str(out_dir.parent) else Path(".")
    if not parent.exists():
        raise UsageError(f"--out {out_dir}: folder {parent} does not exist; create it first or choose another --out")
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir}: is a file; give a folder for the demo's files")
    from sim.base.fileio import check_writable

    check_writable(out_dir, folder=True)
    if out_dir.is_dir():
        check_writable(out_dir / "demo.png")
    init_headless()
    grid = _bare(args)
    if grid is not None:
        from sim.render.session import map_scene

        name = grid.name

        def make():
            return map_scene(grid, size=size, base_path=args.map)
    else:
        spec = _spec(args)
        name = spec.name
        _, events = simulate(spec, seed=args.seed)

        def make():
            return watch_scene(spec, size=size, speed=args.speed, events=events, view=args.view)

    out_dir.mkdir(exist_ok=True)
    anim = out_dir / f"demo.{args.format}"
    still = out_dir / "demo.png"
    check_out(anim)
    print(f"{name}: drawing {'the cave' if grid is not None else 'the fight'} off-screen ...", flush=True)
    a = export(make, anim, fps=args.fps, scale=args.scale, max_frames=args.max_frames, still=still)
    from PIL import Image

    from sim.cli._common import plural

    with Image.open(still) as im:       # the final frame is drawn at the full --size, the animation at --scale
        still_size = im.size
    print(f"{plural(a.frames, 'frame')}, {a.seconds:.1f} s at {args.speed:g}x")
    print(f"animation: {a.path} ({a.size[0]}x{a.size[1]}: --scale {args.scale:g} of {size[0]}x{size[1]})")
    print(f"final frame: {still} ({still_size[0]}x{still_size[1]}, the full --size)")
    return 0


def print_classification() -> int:
    from sim.base.paths import builtin_map
    from sim.cli.classify import render_letters
    from sim.maps.read import load_map
    from sim.rules.bodies import body_for
    from sim.rules.categories import Category
    from sim.terrain.classify import category_counts, classify

    grid = load_map(builtin_map("warrens.toml"))
    bodies = [("Medium", body_for("medium")), ("Large", body_for("large"))]
    maps = [render_letters(classify(grid, b), grid.rock) for _, b in bodies]
    print(f"{grid.name} ({grid.cols}x{grid.rows} squares of 5 ft): {grid.description}")
    print()
    from sim.cli._common import ruled

    gap = "   "
    w = len(str(grid.rows - 1)) + 1
    print("  " + " " * w + gap.join(f"{name + ' creature':<{grid.cols}}" for name, _ in bodies))
    ruled_maps = [ruled(m, indent="") for m in maps]
    for i, rows in enumerate(zip(*ruled_maps)):
        # the row numbers once, on the left; the second map keeps only its squares
        print("  " + rows[0] + gap + gap.join(r[w:] for r in rows[1:]))
    print()
    counts = [category_counts(classify(grid, b)[~grid.rock]) for _, b in bodies]
    print(f"  {'':3}{'category':<18}" + "".join(f"{name:>9}" for name, _ in bodies))
    for cat in Category:
        print(f"  {cat.letter:<3}{cat.label:<18}" + "".join(f"{c[cat]:>9}" for c in counts))
    print("  #  rock")
    print()
    print("Named points: " + ", ".join(f"{k} {v}" for k, v in grid.points.items()))
    return 0
