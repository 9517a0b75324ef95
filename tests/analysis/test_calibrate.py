"""cavesim calibrate (issue 31 item 1): the ladder's arithmetic, the encounters it builds, the
table's intervals, and the command on a tiny run."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from sim.analysis import calibrate as C
from sim.analysis import calibration_report as CR
from sim.analysis import ladder
from sim.base.errors import UsageError
from sim.cli import main
from sim.engine.setup import check_placement


def test_encounter_levels_follow_the_dmg_doubling():
    assert ladder.rung_of([Fraction(3)]) == 3
    assert [ladder.rung_of([Fraction(3)] * n) for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 12)] == \
        [5, 6, 7, 8, 8, 9, 9, 9, 10, 10]
    assert ladder.rung_of([Fraction(1, 2)] * 2) == 1 and ladder.rung_of([Fraction(1, 8)] * 8) == 1
    assert ladder.rung_of([Fraction(5), Fraction(3)]) == 6       # mixed: 2 log2(2^2.5 + 2^1.5) = 6.0
    assert ladder.encounter_level([Fraction(1, 2)]) == 0.5       # one creature: its CR


def test_group_size_makes_the_rung_or_says_none():
    for cr in (Fraction(1, 4), Fraction(1), Fraction(3), Fraction(7)):
        for el in range(1, 14):
            n = ladder.group_size(cr, el)
            if n is not None:
                assert (float(cr) if n == 1 else ladder.rung_of([cr] * n)) == el
                assert n == 1 or ladder.rung_of([cr] * (n - 1)) < el or (n - 1 == 1 and float(cr) < el)
    assert ladder.group_size(Fraction(12), 11) is None


@pytest.mark.parametrize("bad", ["0", "3/2", "2/4x", "-1", "", "31"])
def test_bad_crs_are_refused(bad):
    with pytest.raises(UsageError):
        ladder.parse_cr(bad)


def test_wilson_and_t_intervals():
    lo, hi = CR.wilson(45, 50)
    assert (round(lo, 4), round(hi, 4)) == (0.7864, 0.9565)
    assert CR.wilson(0, 10)[0] == 0.0 and CR.wilson(10, 10)[1] == 1.0
    m, lo, hi = CR.mean_t([0.1, 0.2, 0.3, 0.4])
    assert round(m, 3) == 0.25 and round(hi - m, 4) == 0.2054


def test_rungs_span_l_minus_2_to_l_plus_5_with_groups_that_make_them():
    mons = C.monsters(["ogre", "goblin", "troll"])
    rs = C.rungs([3], mons, per_rung=3)
    assert sorted({r.el for r in rs}) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert ("L3 EL3 ogre x1" in [r.label for r in rs]) and ("L3 EL5 ogre x2" in [r.label for r in rs])
    for r in rs:
        assert ladder.rung_of([r.monster.cr] * r.count) == r.el or (r.count == 1 and r.monster.cr == r.el)


def test_every_rung_encounter_fits_in_the_open_room():
    grid = C.open_room()
    for r in C.rungs([6], C.monsters(None), per_rung=3):   # the largest bodies and groups of the doc run
        spec = C.encounter(grid, r, seed=1)
        assert check_placement(spec) == []
        assert sum(1 for c in spec.combatants if c.team == "monsters") == r.count


def test_bad_inputs_exit_2_with_one_line(capsys):
    for argv in (["--levels", "0"], ["--levels", "3-12"], ["--monsters", "dragon"], ["--levels", "x"]):
        assert main(["calibrate", *argv, "--runs", "1"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("cavesim: error: --")


def test_a_monster_without_a_cr_is_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(C, "load_template", lambda n: type("B", (), {"source": type("S", (), {"cr": None})()})())
    assert main(["calibrate", "--monsters", "ogre", "--runs", "1"]) == 2
    assert "has no cr" in capsys.readouterr().err


def test_a_tiny_calibration_reports_json_and_files(tmp_path, capsys):
    out = tmp_path / "rep"
    code = main(["calibrate", "--levels", "1", "--monsters", "kobold", "--runs", "2", "--workers", "1", "--quiet",
                 "--json", "--report-dir", str(out)])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["levels"] == [1] and doc["runs"] == 2
    rows = [r for r in doc["rows"] if r["encounter"] == "all"]
    assert [(r["el"], r["fights"], r["errors"]) for r in rows] == [(1, 2, 0), (2, 2, 0), (3, 2, 0)]
    assert [r["encounter"] for r in doc["rows"] if r["encounter"] != "all"] == \
        ["L1 EL1 kobold x4", "L1 EL2 kobold x5", "L1 EL3 kobold x7"]
    assert all(0 <= r["win"]["low"] <= r["win"]["value"] <= r["win"]["high"] <= 1 for r in rows)
    assert rows[0]["dmg_cost"] == 0.2 and rows[0]["difficulty"] == "challenging"
    assert rows[2]["dmg_cost"] == 0.4 and rows[2]["difficulty"] == "very difficult"
    assert set(rows[0]["blunders_per_fight"]) == {"guess_empty", "idle_in_reach", "needless_aoo", "friendly_fire",
                                                  "wasted_area", "own_hazard"}
    assert (out / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<img" in (out / "calibration.html").read_text()
