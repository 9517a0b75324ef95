"""`cavesim --help` and `--version` start fast: they import neither numba nor scipy (nor numpy,
matplotlib, pygame or the cave generator); each command imports what it needs when it runs
(issue 19)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "numpy", "matplotlib", "pygame", "PIL", "rich", "sim.maps.generate", "sim.engine.encounter",
         "sim.terrain.classify", "sim.scenario.files")

PROBE = """
import sys
from sim.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
print(",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["fight", "--help"], ["analyze", "--help"],
                                  ["path", "--help"], ["generate", "--help"], ["show", "--help"]])
def test_help_imports_nothing_heavy(argv):
    r = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)], cwd=ROOT,
                       capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                       timeout=120)
    loaded = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
    assert loaded == "", f"cavesim {' '.join(argv)} imported {loaded}"
    assert r.stdout.strip()


def test_path_and_reach_options_say_what_they_take(capsys):
    from sim.cli import main

    with pytest.raises(SystemExit):
        main(["path", "--help"])
    out = capsys.readouterr().out
    assert "--from X,Y" in out and "start square" in out and "goal square" in out


def test_the_parsers_choices_equal_the_constants_they_stand_for():
    """sim.cli._choices repeats a few constants so that --help needs no numpy; they must agree."""
    from sim.cli import _choices as C
    from sim.editor import save
    from sim.maps.importers import common
    from sim.maps import read
    from sim.maps import write as mapwrite

    assert C.MAP_FORMATS == mapwrite.FORMATS and C.ASCII_AUTO_MAX == mapwrite.ASCII_AUTO_MAX
    assert C.EDIT_FORMATS == save.FORMATS and C.UNITS == read.UNITS
    assert (C.IMPORT_FEET_PER_SQUARE, C.IMPORT_CEILING_FT, C.IMPORT_MAX_PIXELS) == (
        common.DEFAULT_FEET_PER_SQUARE, common.DEFAULT_CEILING_FT, common.MAX_PIXELS)
