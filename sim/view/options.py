"""Command-line options shared by ``cavesim demo``, ``play`` and ``render`` (no pygame here:
the CLI builds its parser without loading the renderer).

>>> parse_size("1280x720"), parse_size("800X600")
((1280, 720), (800, 600))
"""

from __future__ import annotations

import argparse
import re

from sim.base.argtypes import real, whole
from sim.base.errors import UsageError

# What the floor can be (``--art`` of demo, play, render, crawl and analyze): the map's own picture,
# or the cave that ``sim.render.art.paint_floor`` paints. Here, pygame- and numpy-free, so that the
# command line offers the choices before loading the renderer.
ARTS = ("image", "cave")


def parse_size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text or "")
    if not m:
        raise UsageError(f"--size {text!r}: write it as WIDTHxHEIGHT in pixels, e.g. 1280x720")
    w, h = int(m.group(1)), int(m.group(2))
    if not (320 <= w <= 7680 and 240 <= h <= 4320):
        raise UsageError(f"--size {text}: give between 320x240 and 7680x4320 pixels")
    return w, h


def add_window_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", default="1280x720", metavar="WxH", help="window or frame size in pixels (default 1280x720)")
    p.add_argument("--max-frames", type=whole(-10 ** 9, 10_000_000), default=None, metavar="N",
                   help="stop after N frames (for tests and benchmarks; also allows the dummy video driver)")


def add_export_args(p: argparse.ArgumentParser, *, fps: float = 10.0, scale: float = 0.75, speed: float = 1.5) -> None:
    g = p.add_argument_group("export")
    g.add_argument("--fps", type=real(-1e9, 1e9), default=fps, help=f"frames per second of the animation (default {fps:g})")
    g.add_argument("--scale", type=real(-1e9, 1e9), default=scale,
                   help=f"scale of the exported frames relative to --size (default {scale:g})")
    g.add_argument("--speed", type=real(-1e9, 1e9), default=speed, help=f"playback speed of the fight (default {speed:g}x)")


def check_export_args(args: argparse.Namespace) -> None:
    if not (0 < args.fps <= 60):
        raise UsageError(f"--fps must be between 1 and 60, got {args.fps:g}")
    if not (0.1 <= args.scale <= 2.0):
        raise UsageError(f"--scale must be between 0.1 and 2, got {args.scale:g}")
    if not (0.1 <= args.speed <= 20):
        raise UsageError(f"--speed must be between 0.1 and 20, got {args.speed:g}")
    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames must be at least 1, got {args.max_frames}")
    if getattr(args, "seed", None) is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")


def add_art_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--art", choices=ARTS, default=None,
                   help="the floor: the map's own picture ([map] image, e.g. an imported map) or the painted "
                        "cave (default: image when the map has a picture, else cave)")


def with_art(obj, art: str | None, *, warn=None):
    """``obj`` (a CaveGrid, or anything with a ``grid``) without its floor picture for
    ``--art cave``; unchanged for ``--art image`` or no ``--art`` (the picture when there is one).
    ``--art image`` on a map with no picture draws the painted cave and says so through ``warn``
    (default: one line on stderr), so a script asking for the picture learns it is not there.

    >>> class G:
    ...     image = None; name = "bare"
    >>> with_art(G(), "image", warn=print).name
    cavesim: warning: --art image: map 'bare' has no picture ([map] image); drawing the painted cave
    'bare'
    """
    grid = obj.grid if hasattr(obj, "grid") else obj
    if art == "image" and grid.image is None:
        (warn or _stderr)(f"cavesim: warning: --art image: map {grid.name!r} has no picture ([map] image); "
                          "drawing the painted cave")
    if art != "cave":
        return obj
    import dataclasses

    if hasattr(obj, "grid"):
        return dataclasses.replace(obj, grid=obj.grid.replace(image=None))
    return obj.replace(image=None)


def _stderr(line: str) -> None:
    import sys

    print(line, file=sys.stderr)
