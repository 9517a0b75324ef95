"""Where the project's shipped files are (maps/ beside the package in a source checkout)."""

from __future__ import annotations

import os
from pathlib import Path

from sim.base.errors import DataError


def maps_dir() -> Path:
    """The shipped ``maps/`` folder: ``$CAVESIM_MAPS`` if set, else the checkout's ``maps/``."""
    env = os.environ.get("CAVESIM_MAPS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "maps"


def builtin_map(name: str) -> Path:
    path = maps_dir() / name
    if not path.exists():
        raise DataError(f"{path}: the built-in file is missing; install cavesim from its source checkout "
                        "(pip install -e .) or set CAVESIM_MAPS to the maps/ folder")
    return path
