"""Hostile input to `cavesim edit --apply` (issue 34, items 8, 9, 10, 12, 16 and 17): special
files, huge numbers, deep nesting, names the map file cannot hold, a save that fails after writing
has started, a long script, the summary's file names and an encounter given as MAP.

Every refusal: exit 2, one line naming the operations file (and the line and key), no traceback,
a bounded time, and no output file left (NEW.toml, NEW.npz, NEW.png absent, a NEW.toml that was
there unchanged, no temporary file)."""

import json
import os
import time

import numpy as np
import pytest
from PIL import Image

import sim.editor.save as save_mod
from sim.editor.model import Document, History, Patch
from sim.editor.ops import MAX_LINE_CHARS, MAX_LINES, Paint, Rect, Undo, parse_op, run
from sim.base.errors import DataError
from sim.maps.read import load_map
from tests.test_fuzz import run_cli

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
'''
GRID = '''
########
#...f..#
#......#
########
'''
PAINT = {"op": "paint", "layer": "width", "value": 3, "at": [2, 2]}
OLD = b'# a map that was here before\n[map]\nname = "old"\n'


def picture_map(tmp_path, write_map):
    """A legend map with a floor picture (so a save writes a .png beside the TOML)."""
    Image.new("RGB", (8 * 4, 4 * 4), (90, 80, 70)).save(tmp_path / "floor.png")
    return write_map(GRID, LEGEND, extra='')


def with_picture(m):
    text = m.read_text().replace('units = "ft"\n', 'units = "ft"\nimage = "floor.png"\n')
    m.write_text(text)
    return m


def outputs(tmp_path):
    """Every file in the folder but the inputs the tests wrote: what a command left behind."""
    return sorted(p.name for p in tmp_path.iterdir())


def refused(argv, tmp_path, *, expect, bound=30.0):
    """Run the command: exit 2, one line naming ``expect``, no traceback, within ``bound`` s."""
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    t = time.monotonic()
    code, err, exc = run_cli(argv)
    took = time.monotonic() - t
    assert exc is None, exc
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert expect in lines[0], lines[0]
    assert took < bound
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before, sorted(set(after) ^ set(before))            # nothing written, nothing changed
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file or folder
    return lines[0]


# -- item 8: special files ---------------------------------------------------------------------------

def test_apply_dev_zero_is_refused_at_once(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    new = tmp_path / "new.toml"
    refused(["edit", str(m), "--apply", "/dev/zero", "--out", str(new)], tmp_path,
            expect="/dev/zero: not a regular file (a character device)", bound=10)
    assert not new.exists()


def test_apply_fifo_is_refused_without_waiting(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    fifo = tmp_path / "ops.fifo"
    os.mkfifo(fifo)
    refused(["edit", str(m), "--apply", str(fifo), "--out", str(tmp_path / "new.toml")], tmp_path,
            expect="ops.fifo: not a regular file (a FIFO (named pipe))", bound=10)


def test_apply_folder_is_refused(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    (tmp_path / "ops.d").mkdir()
    refused(["edit", str(m), "--apply", str(tmp_path / "ops.d"), "--out", str(tmp_path / "new.toml")], tmp_path,
            expect="ops.d: is a directory, not a file of operations (--apply)")


def test_too_many_lines_and_a_too_long_line_are_refused(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    many = tmp_path / "many.jsonl"
    many.write_bytes(b"\n" * (MAX_LINES + 5))          # blank lines only: 2 MB, under the byte limit
    refused(["edit", str(m), "--apply", str(many), "--out", str(tmp_path / "new.toml")], tmp_path,
            expect=f"many.jsonl: {MAX_LINES + 6:,} lines, over the limit of {MAX_LINES:,}")
    long = tmp_path / "long.jsonl"
    long.write_text(json.dumps(PAINT) + "\n" + '{"op": "undo", "x": "' + "x" * MAX_LINE_CHARS + '"}\n')
    line = refused(["edit", str(m), "--apply", str(long), "--out", str(tmp_path / "new.toml")], tmp_path,
                   expect=f"long.jsonl:2: a line of {MAX_LINE_CHARS + 23:,} characters, over the limit")
    assert len(line) < 400


# -- item 10: huge numbers, NaN, deep nesting ----------------------------------------------------------

@pytest.mark.parametrize("line,expect", [
    ('{"op": "paint", "layer": "width", "value": 1' + "0" * 400 + ', "at": [2, 2]}',
     "ops.jsonl:2: a whole number of 401 digits"),
    ('{"op": "paint", "layer": "width", "value": 2, "at": [1' + "0" * 5000 + ', 2]}',
     "ops.jsonl:2: a whole number of 5,001 digits"),
    ('{"op": "paint", "layer": "width", "value": NaN, "at": [2, 2]}', "ops.jsonl:2: NaN is not a number"),
    ('{"op": "paint", "layer": "width", "value": -Infinity, "at": [2, 2]}', "ops.jsonl:2: -Infinity is not a number"),
    ('{"op": "paint", "layer": "width", "value": 1e400, "at": [2, 2]}',
     "ops.jsonl:2: 'value' for width must be a number >= 0"),
    ("[" * 100_000 + "]" * 100_000, "ops.jsonl:2: JSON nested too deep"),
    ('{"op": ' * 100_000 + "1" + "}" * 100_000, "ops.jsonl:2: JSON nested too deep"),
    ('{"op": "paint", "layer": "width", "value": 2, "at": ' + "[" * 900 + "]" * 900 + "}",
     "ops.jsonl:2: 'at' must be [x, y] with whole numbers, got [[[["),
])
def test_numbers_and_nesting_no_op_can_use_are_refused_with_the_line(write_map, tmp_path, line, expect):
    m = write_map(GRID, LEGEND)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n" + line + "\n")
    msg = refused(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "new.toml")], tmp_path,
                  expect=expect)
    assert len(msg) < 500                                   # the huge value is not echoed


def test_a_huge_value_given_as_a_record_is_a_refusal_not_a_traceback():
    with pytest.raises(ValueError, match="must be a number >= 0"):
        parse_op({"op": "paint", "layer": "width", "value": 10**400, "at": [1, 1]})
    doc = Document.blank(4, 4)
    r = run(doc, Paint("width", 1e308, ((1, 1),)))
    assert r.reason == "paint: width 1e+308 ft is over the largest allowed (1000 ft)"


# -- item 9: names the map file cannot hold; nothing left behind ---------------------------------------

@pytest.mark.parametrize("name,expect", [
    ("a\u0000\n[map]", "ops.jsonl:2: point: 'name' has a control character (U+0000) at character 2"),
    ("lair\n[map]", "ops.jsonl:2: point: 'name' has a control character (U+000A) at character 5"),
    ("bell\u0007", "ops.jsonl:2: point: 'name' has a control character (U+0007) at character 5"),
    ("\ud800", "ops.jsonl:2: point: 'name' has a lone surrogate (U+D800) at character 1"),
    ("x" * 10_001, "ops.jsonl:2: point: 'name' is 10,001 characters long (xxxxxxxxxxxxxxxxx… (10001 characters)); "
                   "a name has at most 10,000"),
    ("x" * 10_000_000, "ops.jsonl:2: a line of 10,000,041 characters, over the limit of 4,000,000"),
])
def test_a_point_name_the_map_cannot_hold_is_refused_at_its_line(write_map, tmp_path, name, expect):
    m = write_map(GRID, LEGEND)
    new = tmp_path / "new.toml"
    new.write_bytes(OLD)                                   # a NEW.toml already there stays as it was
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n" + json.dumps({"op": "point", "name": name, "at": [1, 1]}) + "\n")
    msg = refused(["edit", str(m), "--apply", str(ops), "--out", str(new)], tmp_path, expect=expect)
    assert len(msg) < 400 and new.read_bytes() == OLD
    assert not (tmp_path / "new.npz").exists() and not (tmp_path / "new.png").exists()


def test_rename_is_checked_as_a_name(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps({"op": "point", "name": "a", "at": [1, 1]}) + "\n"
                   + json.dumps({"op": "point", "name": "a", "rename": "b\u0000"}) + "\n")
    refused(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "new.toml")], tmp_path,
            expect="ops.jsonl:2: point: 'rename' has a control character (U+0000)")


def test_the_longest_name_the_loader_reads_is_written_and_read_back(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    name = "Ü" * 10_000
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps({"op": "point", "name": name, "at": [1, 1]}) + "\n")
    code, err, exc = run_cli(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "new.toml")])
    assert (code, exc) == (0, None), err
    assert load_map(tmp_path / "new.toml").points[name] == (1, 1)


def test_a_name_set_outside_the_ops_is_written_readable(write_map, tmp_path):
    """A name the loader read (TOML may spell a NUL as \\u0000) or the window set is written
    with every control character escaped, so the map reads back (the writer once put a raw NUL
    into the TOML)."""
    doc = Document.from_grid(load_map(write_map(GRID, LEGEND)))
    doc.points["a\u0000\n[map]\u001b"] = (1, 1)
    save_mod.save(doc, tmp_path / "new.toml")
    assert 'name = "a\\u0000\\n[map]\\u001B"' in (tmp_path / "new.toml").read_text()
    assert load_map(tmp_path / "new.toml").points["a\u0000\n[map]\u001b"] == (1, 1)


@pytest.mark.parametrize("fmt", ["legend", "layers"])
def test_a_failed_read_back_leaves_no_output(write_map, tmp_path, monkeypatch, fmt):
    """Item 9: a save that fails after writing started (here the read-back) leaves no NEW.toml,
    NEW.npz or NEW.png, and a NEW.toml that was there unchanged."""
    m = with_picture(picture_map(tmp_path, write_map))
    new = tmp_path / "new.toml"
    new.write_bytes(OLD)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n")

    def unreadable(path, **kw):
        assert path.name == "new.toml" and path.parent != tmp_path   # read back where it was written
        assert {p.name for p in path.parent.iterdir()} >= {"new.toml", "new.png"}
        raise DataError(f"{path}: not valid TOML (injected)")

    monkeypatch.setattr(save_mod, "load_map", unreadable)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    code, err, exc = run_cli(["edit", str(m), "--apply", str(ops), "--out", str(new), "--format", fmt])
    assert (code, exc) == (2, None) and "Traceback" not in err
    assert "injected" in err and len(err.strip().splitlines()) == 1
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert set(after) == set(before) | {"new.toml.bak"}, sorted(after)   # the .bak: a copy of the file kept
    assert all(after[k] == v for k, v in before.items()) and after["new.toml.bak"] == OLD
    assert not (tmp_path / "new.npz").exists() and not (tmp_path / "new.png").exists()


def test_a_failure_while_renaming_puts_every_file_back(write_map, tmp_path, monkeypatch):
    """The sidecars go into place first, the TOML last; if the TOML's rename fails, the .npz and
    the .png already renamed are taken back (an old .npz restored, a new .png removed)."""
    m = with_picture(picture_map(tmp_path, write_map))
    new = tmp_path / "new.toml"
    new.write_bytes(OLD)
    (tmp_path / "new.npz").write_bytes(b"old layers")
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n")
    real = os.replace

    def fail_on_toml(src, dst):
        if str(dst) == str(new) and ".cavesim-" in str(src) and ".dir" in str(src):
            raise OSError(28, "No space left on device (injected)")
        return real(src, dst)

    monkeypatch.setattr(save_mod.os, "replace", fail_on_toml)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    code, err, exc = run_cli(["edit", str(m), "--apply", str(ops), "--out", str(new), "--format", "layers"])
    assert (code, exc) == (2, None) and "injected" in err and "Traceback" not in err, (err, exc)
    assert len(err.strip().splitlines()) == 1, err
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.endswith(".bak")}
    assert after == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# -- item 12: the undo history's running total ----------------------------------------------------------

def test_undo_accounting_equals_a_resum_after_every_change():
    rng = np.random.default_rng(3)
    doc = Document.blank(30, 30, history_bytes=30_000)
    for k in range(400):
        kind = rng.integers(5)
        x0, y0, x1, y1 = (int(v) for v in rng.integers(0, 30, 4))
        if kind == 0:
            run(doc, Undo())
        elif kind == 1:
            doc.redo()
        elif kind == 2:
            n = len(doc.history.done)
            run(doc, Paint("width", float(rng.integers(1, 20)), ((x0, y0), (x1, y1)), 2))
            run(doc, Paint("ceiling", float(rng.integers(1, 20)), ((x1, y0),)))
            doc.squash(len(doc.history.done) - n, label="stroke")
        else:
            run(doc, Rect("width", float(rng.integers(0, 20)), (x0, y0), (x1, y1)))
        assert doc.history.nbytes == doc.history.resum(), k
    assert doc.history.dropped > 0                     # the cap was reached and the oldest went
    h = History(limit=10, done=[Patch(np.arange(3), np.zeros(3, "i8"), np.ones(3, "i8"))])
    assert h.nbytes == h.resum() == 72


def test_twenty_thousand_paints_take_seconds_not_minutes(tmp_path):
    """Issue 34 item 12: 20,000 paints took over 60 s (the history re-summed on every push); now
    about 3 s on a quiet machine. The bound is generous for a loaded one."""
    ops = tmp_path / "ops.jsonl"
    ops.write_text("".join(json.dumps({"op": "paint", "layer": "width", "value": 5 + k % 7,
                                       "at": [k % 200, (k // 200) % 100]}) + "\n" for k in range(20_000)))
    t = time.monotonic()
    code, err, exc = run_cli(["edit", str(tmp_path / "big.toml"), "--new", "200x100", "--apply", str(ops)])
    assert (code, exc) == (0, None), err
    assert time.monotonic() - t < 30
    assert load_map(tmp_path / "big.toml").width_ft[99, 199] == 5 + 19_999 % 7


# -- item 16: the summary names the .npz -----------------------------------------------------------------

def test_layers_summary_names_the_npz_not_the_picture(write_map, tmp_path, capsys):
    from sim.cli import main

    m = with_picture(picture_map(tmp_path, write_map))
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n")
    assert main(["edit", str(m), "--apply", str(ops), "--out", str(tmp_path / "new.toml"), "--format", "layers"]) == 0
    out = capsys.readouterr().out
    assert "(numeric layers in new.npz; the floor picture copied to new.png)" in out, out
    assert "numeric layers in new.png" not in out
    assert (tmp_path / "new.npz").exists() and (tmp_path / "new.png").exists()
    assert load_map(tmp_path / "new.toml").width_ft[2, 2] == 3


# -- item 17: --out on an encounter ------------------------------------------------------------------------

ENC = '[encounter]\nmap = "cave.toml"\nseed = 1\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n'


def test_out_on_an_encounter_writes_the_map_and_says_what_the_encounter_still_uses(write_map, tmp_path, capsys):
    from sim.cli import main

    cave = write_map(GRID, LEGEND, name="cave.toml")
    cave_before = cave.read_bytes()
    enc = tmp_path / "enc.toml"
    enc.write_text(ENC)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n")
    assert main(["edit", str(enc), "--apply", str(ops), "--out", str(tmp_path / "new.toml")]) == 0
    err = capsys.readouterr().err
    assert (f"cavesim: note: {enc} is an encounter: only the edited map was written, to {tmp_path / 'new.toml'}; "
            f"{enc} is unchanged and still fights on {tmp_path / 'cave.toml'}; to fight on the edited map, set "
            f'[encounter] map = "new.toml" in {enc}') in err
    assert enc.read_text() == ENC and cave.read_bytes() == cave_before
    assert load_map(tmp_path / "new.toml").width_ft[2, 2] == 3
    assert main(["edit", str(enc), "--apply", str(ops), "--out", str(tmp_path / "n2.toml"), "--json"]) == 0
    cap = capsys.readouterr()
    assert "still fights on" in json.loads(cap.out)["note"] and "cavesim: note:" in cap.err


def test_out_naming_the_encounters_own_map_needs_no_note(write_map, tmp_path, capsys):
    from sim.cli import main

    cave = write_map(GRID, LEGEND, name="cave.toml")
    enc = tmp_path / "enc.toml"
    enc.write_text(ENC)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps(PAINT) + "\n")
    assert main(["edit", str(enc), "--apply", str(ops), "--out", str(cave)]) == 0
    assert "note" not in capsys.readouterr().err and load_map(cave).width_ft[2, 2] == 3


def test_out_on_an_inline_encounter_says_the_encounter_keeps_its_inline_map(tmp_path, capsys):
    from sim.cli import main

    enc = tmp_path / "enc.toml"
    text = ('[encounter]\nseed = 1\n[map]\nname = "x"\ngrid = """\n####\n#..#\n####\n"""\n[legend]\n'
            '"#" = "wall"\n"." = { width = 10, height = 10 }\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n')
    enc.write_text(text)
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps({"op": "paint", "layer": "width", "value": 3, "at": [2, 1]}) + "\n")
    assert main(["edit", str(enc), "--apply", str(ops), "--out", str(tmp_path / "m.toml")]) == 0
    err = capsys.readouterr().err
    assert "still fights on its own inline map" in err and '[encounter] map = "m.toml"' in err
    assert enc.read_text() == text and load_map(tmp_path / "m.toml").width_ft[1, 2] == 3


def test_new_map_name_is_checked_as_a_name(tmp_path):
    ops = tmp_path / "ops.jsonl"
    ops.write_text(json.dumps({"op": "rect", "layer": "width", "value": 10, "from": [1, 1], "to": [3, 3]}) + "\n")
    refused(["edit", str(tmp_path / "n.toml"), "--new", "5x5", "--name", "cave\u0000", "--apply", str(ops)], tmp_path,
            expect="'--name' has a control character (U+0000) at character 5")


def test_an_operations_file_over_64_mb_is_refused_before_reading(write_map, tmp_path):
    m = write_map(GRID, LEGEND)
    big = tmp_path / "big.jsonl"
    with open(big, "wb") as fh:                       # sparse: 64 MB + 1 byte without writing them
        fh.truncate(64 * 1024 * 1024 + 1)
    refused(["edit", str(m), "--apply", str(big), "--out", str(tmp_path / "new.toml")], tmp_path,
            expect="big.jsonl: is 67,108,865 bytes, over the limit of 67,108,864 for a file of operations (--apply)",
            bound=5)
