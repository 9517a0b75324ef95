"""The project's exception types (a leaf module: imports nothing from sim).

Two kinds of failure exist (STYLE habit 6):

* bad input from a user file or argument -> :class:`DataError`, whose message names the
  place (file, line or key) and the fix; the CLI prints it and exits with code 2;
* a bug or a wrong argument from our own code -> ``ValueError``/``TypeError`` as usual.

Rule refusals (an illegal attack, an impossible move) are values, not exceptions.
"""

from __future__ import annotations

from typing import Any


def shorten(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters: a message never repeats a huge value.

    >>> shorten("abc")
    "'abc'"
    >>> shorten("x" * 100, 10)
    "'xxxxx… (102 characters)"
    """
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # a number too long to print, a structure nested too deep
        return f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= limit else f"{text[:limit - 4]}… ({len(text)} characters)"


def shorten_text(text: str, limit: int = 200) -> str:
    """``text`` (already a message part) cut to about ``limit`` characters.

    >>> shorten_text("abcdef", 4)
    'a… (6 characters)'
    """
    return text if len(text) <= limit else f"{text[:max(1, limit - 3)]}… ({len(text)} characters)"


class DataError(ValueError):
    """Bad user input. ``str(err)`` is one or more complete, human-readable lines.

    ``problems`` holds each problem separately so that ``cavesim validate`` can list them all.
    """

    def __init__(self, message: str | None = None, *, problems: list[str] | None = None):
        self.problems: list[str] = list(problems) if problems else ([message] if message else [])
        super().__init__("\n".join(self.problems) if self.problems else (message or "bad input"))

    @classmethod
    def collect(cls, problems: list[str]) -> "DataError":
        return cls(problems=problems)


class UsageError(DataError):
    """A bad command-line argument (same exit code and treatment as :class:`DataError`)."""
