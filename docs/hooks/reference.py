"""The command reference, written from the argument parsers at build time so that it cannot drift:
a MkDocs hook (``hooks:`` in mkdocs.yml) adds the page ``reference.md``, one section a command with
its ``--help`` text as argparse prints it.

Run alone, it prints the page: ``python docs/hooks/reference.py``.
"""

from __future__ import annotations

import argparse
import os

from sim.cli import COMMANDS, build_parser

WIDTH = "100"   # the help text's line width, the same on every machine


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:   # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def reference_markdown() -> str:
    """The page: the top-level help, then every command's, in the order ``cavesim --help`` lists them."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        parser = build_parser()
        subs = _subcommands(parser)
        out = ["# Command reference", "",
               "Every command's `--help`, written from the argument parsers when the site is built "
               f"(`docs/hooks/reference.py`), so it is always this version's. The {len(subs)} commands come "
               f"from {len(COMMANDS)} modules of `sim/cli/`; [Commands](commands.md) says what each is for.", "",
               "```text", parser.format_help().rstrip(), "```", ""]
        for name, sub in subs.items():
            out += [f"## cavesim {name}", "", "```text", sub.format_help().rstrip(), "```", ""]
        return "\n".join(out)
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def on_files(files, config):
    """MkDocs hook: add the generated page to the site's files."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, "reference.md", content=reference_markdown()))
    return files


if __name__ == "__main__":
    print(reference_markdown())
