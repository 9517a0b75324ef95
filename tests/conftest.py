import os
import textwrap
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"


@pytest.fixture
def write_map(tmp_path):
    """Write a map file from an inline ASCII cave; returns its path."""

    def _write(grid: str, legend: str, *, name="t.toml", units="ft", extra: str = "") -> Path:
        body = (
            "[map]\n"
            f'name = "test"\nunits = "{units}"\n'
            'grid = """\n' + textwrap.dedent(grid).strip("\n") + '\n"""\n\n[legend]\n'
            + textwrap.dedent(legend).strip() + "\n" + textwrap.dedent(extra)
        )
        p = tmp_path / name
        p.write_text(body)
        return p

    return _write
