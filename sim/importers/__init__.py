"""Importers: maps drawn in other tools into a :class:`~sim.grid.CaveGrid` (DESIGN §3, issue 15).

:data:`IMPORTERS` maps a file suffix to the module that reads it; each module has
``import_file(path, options) -> Imported``. ``cavesim import`` (``sim/cli/imports.py``) picks the
importer by suffix and writes the result with :func:`sim.mapwrite.write_map`.

>>> importer_for("cave.DD2VTT")
'sim.importers.vtt'
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import DataError

# suffix -> module (one row per format; Tiled and images add theirs here)
IMPORTERS = {
    ".dd2vtt": "sim.importers.vtt",
    ".df2vtt": "sim.importers.vtt",
    ".uvtt": "sim.importers.vtt",
}


def importer_for(path: str | Path) -> str:
    """The module that imports ``path``, chosen by its suffix (case-insensitive)."""
    suffix = Path(path).suffix.lower()
    if suffix not in IMPORTERS:
        known = ", ".join(sorted(IMPORTERS))
        raise DataError(f"{path}: cavesim cannot import {suffix or 'a file without a suffix'} files; "
                        f"it reads {known}")
    return IMPORTERS[suffix]
