"""Argument helpers shared by the command modules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.base.argtypes import real
from sim.base.errors import UsageError

if TYPE_CHECKING:  # the command line starts fast: loaders and rules are imported when used
    from sim.maps.limits import Limits
    from sim.rules.bodies import Body
    from sim.rules.sizes import Size


def add_map_limit(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-map-size", metavar="COLSxROWS", default=None,
                   help="refuse maps larger than this (default 4096x4096)")


def limits_from(args: argparse.Namespace) -> Limits:
    from sim.maps.limits import Limits

    text = getattr(args, "max_map_size", None)
    return Limits.parse(text) if text is not None else Limits()


def load_map_arg(args: argparse.Namespace, attr: str = "map"):
    from sim.maps.read import load_map

    return load_map(Path(getattr(args, attr)), limits=limits_from(args))


def bare_map(path: str | Path, limits: Limits):
    """The map in ``path`` when the file is a map without an encounter (play, render and demo then
    show the cave with no one on it), else None (an encounter, or a fight log)."""
    from sim.base.fileio import read_toml
    from sim.maps.read import load_map

    path = Path(path)
    if path.suffix.lower() != ".toml":
        return None
    data, _ = read_toml(path)
    if "encounter" in data or "map" not in data:
        return None
    return load_map(path, limits=limits)


def add_body_args(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    g = p.add_argument_group("creature body")
    g.add_argument("--size", metavar="SIZE", help="fine, diminutive, tiny, small, medium, large, huge, gargantuan, colossal")
    g.add_argument("--creature", metavar="TEMPLATE",
                   help="a stat block (e.g. human-fighter-3, ogre, rat-swarm) or a path to one: its body, speed "
                        "and Escape Artist")
    g.add_argument("--form", choices=("tall", "long"), default=None, help="body form (default tall)")
    g.add_argument("--height", type=real(-1e9, 1000), metavar="FT", help="override the body height (feet)")
    g.add_argument("--swarm", action="store_true", help="a swarm of components of --size (Fine..Tiny)")


def parse_size(text: str) -> Size:
    from sim.rules.sizes import Size

    try:
        return Size.parse(text)
    except KeyError as exc:
        raise UsageError(f"--size: {exc.args[0]}") from None


def body_from(args: argparse.Namespace) -> tuple[str, Body]:
    """The body selected by --size/--creature (+ overrides); returns (label, body)."""
    if args.height is not None and not (args.height > 0):
        raise UsageError(f"--height must be > 0 feet, got {args.height}")
    from sim.rules.bodies import body_for
    from sim.rules.sizes import Size

    if getattr(args, "creature", None):
        if getattr(args, "size", None):
            raise UsageError("--creature and --size exclude each other; give one")
        block = creature_block(args.creature)
        if block.is_swarm:
            from sim.rules.bodies import swarm_body

            return block.name, swarm_body(block.swarm.component)
        body = block.body
        if args.height is not None or args.form is not None:
            body = body_for(block.size, form=args.form or body.form, height=args.height or body.height)
        return block.name, body
    if not getattr(args, "size", None):
        raise UsageError("give --size SIZE (e.g. --size medium) or --creature TEMPLATE")
    size = parse_size(args.size)
    if getattr(args, "swarm", False):
        from sim.rules.bodies import swarm_body

        if size > Size.TINY:
            raise UsageError(f"--swarm needs a component size of fine, diminutive or tiny, not {size.key}")
        return f"{size.key} swarm", swarm_body(size)
    return size.key, body_for(size, form=args.form or "tall", height=args.height)


def creature_block(name: str):
    """The stat block named on the command line (a DataError names close matches)."""
    from sim.rules.statblocks import load_template

    return load_template(name)


def ruled(rows: list[str], *, indent: str = "  ", x0: int = 0, y0: int = 0) -> list[str]:
    """An ASCII map with column numbers above it and row numbers on its left (``X,Y`` = column,
    row from the top left, as everywhere): tens (and hundreds) digits at every tenth column,
    units at every column.

    >>> print("\\n".join(ruled(["#####", "#..a#", "#####"])))
        01234
      0 #####
      1 #..a#
      2 #####
    """
    if not rows:
        return []
    cols = max(len(r) for r in rows)
    w = len(str(y0 + len(rows) - 1))
    pad = indent + " " * (w + 1)
    out = []
    top = x0 + cols - 1
    for place in (100, 10):
        if top < place:
            continue
        line = "".join(str((x // place) % 10) if x % 10 == 0 and (x >= place or place == 10) else " "
                       for x in range(x0, x0 + cols))
        if line.strip():
            out.append((pad + line).rstrip())
    out.append(pad + "".join(str(x % 10) for x in range(x0, x0 + cols)))
    out += [f"{indent}{y0 + i:>{w}} {r}" for i, r in enumerate(rows)]
    return out


def plural(n: float, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun``, in the plural (``many``, else ``noun`` + s) unless ``n`` is 1: the one way
    the commands count things ("1 light", never "1 lights").

    >>> plural(1, "light"), plural(3, "shipped stat block"), plural(0.5, "round"), plural(1.0, "round")
    ('1 light', '3 shipped stat blocks', '0.5 rounds', '1 round')
    >>> plural(0, "closed-door square"), plural(2, "party", "parties"), plural(1250000, "square")
    ('0 closed-door squares', '2 parties', '1250000 squares')
    """
    num = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{num} {noun if n == 1 else (many or noun + 's')}"


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")
