"""Counts in the commands' words are in the singular for one (issue 34 item 16: "1 lights",
"1 shipped stat blocks"): every count goes through :func:`sim.cli._common.plural`."""

from __future__ import annotations

from sim.cli import main
from sim.cli._common import plural

from tests.importers.test_uvtt import pt, room_doc, write


def test_plural():
    assert [plural(1, "light"), plural(2, "light"), plural(0, "light")] == ["1 light", "2 lights", "0 lights"]
    assert [plural(1.0, "round"), plural(1.5, "round"), plural(1, "try", "tries")] == ["1 round", "1.5 rounds", "1 try"]


def test_one_shipped_stat_block(capsys):
    assert main(["templates", "otyugh"]) == 0
    out = capsys.readouterr().out
    assert "1 shipped stat block (`cavesim show NAME` prints one in full)" in out and "1 shipped stat blocks" not in out
    assert main(["templates"]) == 0
    assert "127 shipped stat blocks (" in capsys.readouterr().out


def test_one_light_imported(tmp_path, capsys):
    src = write(tmp_path, room_doc(lights=[{"position": pt(3, 2), "range": 6}]), name="cave.uvtt")
    assert main(["import", str(src), "--out", str(tmp_path / "out.toml")]) == 0
    out = capsys.readouterr().out
    assert ", 0 closed-door squares, 1 light; widths measured at " in out and "1 lights" not in out


def test_one_file_with_problems(tmp_path, capsys):
    bad = tmp_path / "b.toml"
    bad.write_text("[map\n")
    assert main(["validate", str(bad)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == "cavesim: 1 of 1 file has problems"
