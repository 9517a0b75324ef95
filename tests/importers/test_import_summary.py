"""The import summary (issue 35, item 5): a line for every size, and a warning when the default
ceiling makes a size Low everywhere, naming the two ways to set the ceilings."""

from __future__ import annotations

import json

import pytest

from sim.cli import main
from tests.importers.test_uvtt_picture import room_doc, write

SIZES = ("fine", "diminutive", "tiny", "small", "medium", "large", "huge", "gargantuan", "colossal")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["import", *map(str, argv)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_every_size_has_its_line_and_the_default_ceiling_warns(tmp_path, capsys):
    src = write(tmp_path, room_doc())            # a 4 x 2-square room: 8 floor squares, 10 ft wide
    out = tmp_path / "room.toml"
    code, text, err = run(capsys, src, "--out", out)
    assert code == 0
    lines = text.splitlines()
    i = lines.index("floor squares per size (space x height of its body) and category:")
    rows = [line.split() for line in lines[i + 2:]]
    assert [r[0] for r in rows] == list(SIZES)
    counts = {r[0]: [int(v) for v in r[-7:]] for r in rows}
    #                       Clear  N|L  N&L  Crawl  Awkward  Tight  Impassable
    assert counts["medium"] == [8, 0, 0, 0, 0, 0, 0]
    assert counts["large"] == [0, 8, 0, 0, 0, 0, 0]        # 12 ft tall under 10 ft: Low everywhere
    assert counts["huge"] == [0, 0, 0, 8, 0, 0, 0]
    assert counts["colossal"] == [0, 0, 0, 0, 0, 8, 0]
    assert lines[i + 6].startswith("  medium (5 x 6 ft)  ") and lines[i + 7].startswith("  large (10 x 12 ft)  ")
    assert err.splitlines() == [
        "cavesim: warning: Large: 0 Clear of 8 — the default ceiling 10 ft makes Large (12 ft tall) Low everywhere "
        "(and Huge, Gargantuan, Colossal worse); set --ceiling FT, or set the ceilings after importing: "
        f"`cavesim edit {out} --apply OPS.jsonl` with the line {{\"op\": \"ceiling\", \"value\": FT}} "
        "(docs/import-ceilings-pictures.md)"]
    # the table agrees with classify --all-sizes on the written map
    assert main(["classify", str(out), "--all-sizes", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["sizes"]
    assert {k: list(v.values()) for k, v in table.items()} == counts


@pytest.mark.parametrize("extra, squeezed", [
    (["--ceiling", "10"], []),                   # the user's own ceiling: no warning
    (["--ceiling", "13"], []),
    ([], ["large", "huge", "gargantuan", "colossal"]),
])
def test_only_the_default_ceiling_warns(tmp_path, capsys, extra, squeezed):
    src = write(tmp_path, room_doc())
    code, text, err = run(capsys, src, "--out", tmp_path / "room.toml", "--json", *extra)
    assert code == 0
    summary = json.loads(text)
    assert summary["low_everywhere"] == squeezed and list(summary["sizes"]) == list(SIZES)
    assert summary["sizes"]["medium"] == summary["medium"] == {
        "CLEAR": 8, "NARROW_OR_LOW": 0, "NARROW_AND_LOW": 0, "CRAWL": 0, "AWKWARD": 0, "TIGHT_SQUEEZE": 0,
        "IMPASSABLE": 0}
    assert (" Low everywhere" in err) == bool(squeezed)
    if extra == ["--ceiling", "13"]:
        assert summary["sizes"]["large"]["CLEAR"] == 8


def test_the_ceiling_op_answers_the_warning_without_importing_again(tmp_path, capsys):
    src = write(tmp_path, room_doc())
    out = tmp_path / "room.toml"
    assert run(capsys, src, "--out", out)[0] == 0
    before = out.read_text()
    ops = tmp_path / "ops.jsonl"
    ops.write_text('{"op": "ceiling", "value": 16}\n')
    assert main(["edit", str(out), "--apply", str(ops)]) == 0
    capsys.readouterr()
    assert main(["classify", str(out), "--all-sizes", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)["sizes"]
    assert table["large"]["CLEAR"] == 8 and table["huge"]["CLEAR"] == 0
    assert out.read_text() != before and "height = 16" in out.read_text()
