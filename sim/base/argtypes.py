"""Bounded parsers for command-line numbers (argparse ``type=``): every number a user types has a
range, and text that Python's ``int()``/``float()`` would accept loosely (``²``, ``1_0``, ``nan``,
``inf``, a 4,000-digit number) is refused by argparse with the range in the message (exit 2).

>>> whole(1, 10)("3"), real(0, 5)("2.5")
(3, 2.5)
>>> whole(1, 10)("²")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number from 1 to 10, got '²'
>>> real(0, 5)("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a number from 0 to 5, got 'nan'
"""

from __future__ import annotations

import argparse
import math
import re
from typing import Callable

from sim.base.errors import shorten

_WHOLE = re.compile(r"[+-]?[0-9]{1,20}")
_REAL = re.compile(r"[+-]?(?:[0-9]{1,20}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][+-]?[0-9]{1,3})?")

MAX_SEED = 2 ** 64 - 1


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """A whole number from ``lo`` to ``hi``, in ASCII digits."""
    def parse(text: str) -> int:
        t = text.strip()
        if not _WHOLE.fullmatch(t) or not lo <= int(t) <= hi:
            raise argparse.ArgumentTypeError(f"must be a whole number from {lo} to {hi}, got {shorten(text)}")
        return int(t)

    parse.__name__ = "whole number"
    return parse


def real(lo: float, hi: float) -> Callable[[str], float]:
    """A finite number from ``lo`` to ``hi`` (no nan, no inf)."""
    def parse(text: str) -> float:
        t = text.strip()
        v = float(t) if _REAL.fullmatch(t) else math.nan
        if not (math.isfinite(v) and lo <= v <= hi):
            raise argparse.ArgumentTypeError(f"must be a number from {lo:g} to {hi:g}, got {shorten(text)}")
        return v

    parse.__name__ = "number"
    return parse


def seed() -> Callable[[str], int]:
    """A seed: at most 2^64 - 1 (a negative one is left to the command, which says why)."""
    return whole(-MAX_SEED, MAX_SEED)
