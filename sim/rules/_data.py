"""Reading the package's own TOML data (sim/data). Cached on first use, never at import."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any


@functools.cache
def load(name: str) -> dict[str, Any]:
    """Parse ``sim/data/<name>`` (a relative path inside the data folder)."""
    ref = resources.files("sim").joinpath("data", *name.split("/"))
    with ref.open("rb") as fh:
        return tomllib.load(fh)


def data_dir():
    """The package data folder as a Traversable (for listing stat blocks)."""
    return resources.files("sim").joinpath("data")
