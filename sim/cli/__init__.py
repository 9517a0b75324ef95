"""The ``cavesim`` command line (also ``python -m sim``): DESIGN §6.

Each command lives in its own module under ``sim.cli`` and exposes ``register(subparsers)``;
the handler it sets returns an exit code. Bad input of any kind is a :class:`DataError`:
printed on stderr as ``cavesim: error: ...``, exit code 2, no traceback. Window commands import
``sim.render`` lazily, so nothing else ever imports pygame.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from sim import __version__
from sim.base.errors import DataError

# Command modules, in the order `cavesim --help` lists them.
COMMANDS = (
    "demo", "play", "render",
    "classify",
    "move",
    "fight", "analyze", "calibrate",
    "crawl",
    "generate",
    "edit",
    "validate",
    "imports", "export",
    "light",
    "templates", "show",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cavesim",
        description="Tactical simulator for D&D 3.5 fights in natural caves.",
    )
    parser.add_argument("--version", action="version", version=f"cavesim {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"sim.cli.{name}")
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns its exit code (0 ok, 2 bad input, 130 interrupted). Ctrl-C at any
    moment -- even while the command modules are still being imported -- is one line, no traceback."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help()
            return 0
        return int(args.handler(args) or 0)
    except DataError as exc:
        for line in str(exc).splitlines():
            print(f"cavesim: error: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cavesim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
