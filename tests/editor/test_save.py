"""Safe saves, legend keeping, autosave and crash recovery (issue 18, item 4)."""

import os

import numpy as np
import pytest

from sim.editor.model import Document
from sim.editor.ops import Fill, Paint, PointOp, Rect, run
from sim.editor.save import (
    Autosaver, autosave_path, find_autosave, restore_patch, save, validate, write_autosave,
)
from sim.base.errors import DataError
from sim.maps.read import load_map
from sim.maps.write import write_map as mw

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
"~" = { width = 10, height = 8, difficult = true }
'''
GRID = '''
##########
#...f..~~#
#........#
##########
'''


def open_doc(path):
    return Document.from_grid(load_map(path))


def test_save_keeps_a_bak_and_the_legend_glyphs(write_map):
    m = write_map(GRID, LEGEND)
    before = m.read_text()
    doc = open_doc(m)
    run(doc, Paint("width", 3.5, ((2, 2),)))           # a new value: a new glyph
    run(doc, Paint("width", 2, ((6, 2),)))
    run(doc, Paint("ceiling", 8, ((6, 2),)))           # now 2 ft x 8 ft: the glyph 'f' it had
    w = save(doc, m)
    assert w.fmt == "legend"
    assert (m.parent / "t.toml.bak").read_text() == before
    text = m.read_text()
    assert '"f" = { width = 2, height = 8 }' in text and '"~" = { width = 10, height = 8, difficult = true }' in text
    rows = text.split('grid = """\n')[1].split('"""')[0].splitlines()
    assert rows[1] == "#...f..~~#" and rows[2][6] == "f" and rows[2][2] not in ".f~#"
    back = load_map(m)
    assert back.width_ft[2, 2] == 3.5 and not doc.dirty


def test_a_legend_map_that_outgrows_its_glyphs_is_saved_as_layers(write_map):
    m = write_map("\n".join(["." * 12] * 10), LEGEND)
    doc = open_doc(m)
    for k in range(95):                                    # 95 distinct widths: more than the 90 glyphs
        run(doc, Paint("width", 1 + k / 10, ((k % 12, k // 12),)))
    before = m.read_bytes()
    with pytest.raises(DataError, match="more terrain classes than the 90 glyphs"):
        save(doc, m, fmt="legend")                         # asked for explicitly: refused, not changed
    assert m.read_bytes() == before
    w = save(doc, m)
    assert w.fmt == "layers" and (m.parent / "t.npz").exists()
    assert "layers = " in m.read_text()


def test_layers_map_stays_layers(tmp_path, write_map):
    g = load_map(write_map(GRID, LEGEND))
    p = tmp_path / "lay.toml"
    mw(g, p, fmt="layers")
    doc = open_doc(p)
    run(doc, Paint("ceiling", 4, ((2, 1),)))
    assert save(doc, p).fmt == "layers"
    assert (tmp_path / "lay.npz.bak").exists() and load_map(p).height_ft[1, 2] == 4


def test_metric_legend_map_stays_metric_and_exact(write_map):
    m = write_map(GRID, '"#" = "wall"\n"." = { width = 3, height = 3.6 }\n"f" = { width = 0.6, height = 2.4 }\n'
                  '"~" = { width = 3, height = 2.4, difficult = true }', units="m")
    doc = open_doc(m)
    run(doc, Paint("width", 0.9, ((2, 2),)))
    save(doc, m)
    text = m.read_text()
    assert 'units = "m"' in text and "width = 0.9" in text and "width = 0.6" in text
    back = load_map(m)
    assert np.array_equal(back.width_ft, doc.width) and back.width_ft[2, 2] == 3.0


@pytest.mark.parametrize("fmt", ["legend", "layers"])
def test_a_failure_part_way_leaves_the_old_file_and_a_bak(tmp_path, write_map, fmt):
    """Issue 18 check: an exception injected part-way through a save."""
    p = tmp_path / "m.toml"
    mw(load_map(write_map(GRID, LEGEND)), p, fmt=fmt)
    files = {f.name: f.read_bytes() for f in tmp_path.iterdir() if f.name.startswith("m.")}
    doc = open_doc(p)
    run(doc, Rect("width", 3, (1, 1), (8, 2)))

    def half_then_fail(grid, out, **kw):
        if fmt == "layers":   # the .npz goes in place, then the TOML write fails
            mw(grid, out.with_name("x.toml"), **{**kw, "fmt": "layers"})
            os.replace(out.with_name("x.npz"), out.with_suffix(".npz"))
        raise OSError("disk full (injected)")

    with pytest.raises(OSError, match="injected"):
        save(doc, p, fmt=fmt, write=half_then_fail)
    for name, data in files.items():
        assert (tmp_path / name).read_bytes() == data, name
    assert (tmp_path / "m.toml.bak").read_bytes() == files["m.toml"]
    assert load_map(p).width_ft[1, 2] == 10 and doc.dirty
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".m.")]   # no temporary files left


def test_a_file_that_does_not_read_back_is_refused_and_the_old_one_restored(tmp_path, write_map):
    m = write_map(GRID, LEGEND)
    before = m.read_bytes()
    doc = open_doc(m)
    run(doc, Paint("width", 3, ((2, 2),)))

    def lossy(grid, out, **kw):
        return mw(grid.replace(width_ft=np.where(grid.rock, 0, 10.0)), out, **kw)

    with pytest.raises(DataError, match="does not read back as the map .* the old file was put back"):
        save(doc, m, write=lossy)
    assert m.read_bytes() == before


def test_saves_are_fsynced_before_the_rename(write_map, monkeypatch):
    m = write_map(GRID, LEGEND)
    doc = open_doc(m)
    run(doc, Paint("width", 3, ((2, 2),)))
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    save(doc, m)
    assert len(calls) >= 4      # the .bak and the map, each file and its folder


@pytest.mark.parametrize("edit,msg", [
    (lambda d: run(d, Rect("rock", True, (0, 0), (9, 3))), "the map is solid rock; paint a width"),
    (lambda d: (run(d, PointOp("door", at=(2, 2))), run(d, Paint("rock", True, ((2, 2),)))),
     "point 'door' at (2, 2) is on solid rock; move it to a floor square or delete it"),
])
def test_validation_refuses_with_the_reason_and_writes_nothing(write_map, edit, msg):
    m = write_map(GRID, LEGEND)
    before = m.read_bytes()
    doc = open_doc(m)
    edit(doc)
    assert any(msg in p for p in validate(doc))
    with pytest.raises(DataError, match="cannot save: " + msg.replace("(", r"\(").replace(")", r"\)")):
        save(doc, m)
    assert m.read_bytes() == before and not (m.parent / "t.toml.bak").exists()


def test_autosave_every_two_minutes_only_when_there_are_new_edits(write_map):
    m = write_map(GRID, LEGEND)
    doc = open_doc(m)
    now = [0.0]
    auto = Autosaver(doc, m, clock=lambda: now[0])
    assert auto.every == 120.0
    run(doc, Paint("width", 3, ((2, 2),)))
    now[0] = 119.0
    assert auto.tick() is None
    now[0] = 120.5
    assert auto.tick() == autosave_path(m) and autosave_path(m).name == "t.toml.autosave.npz"
    now[0] = 300.0
    assert auto.tick() is None                    # nothing new since
    save(doc, m)
    assert not autosave_path(m).exists()          # a save removes the sidecar


def test_crash_recovery_offers_the_autosave_as_one_undoable_change(write_map):
    m = write_map(GRID, LEGEND)
    doc = open_doc(m)
    run(doc, Fill("width", 4, (1, 2)))
    run(doc, PointOp("camp", at=(3, 2)))
    write_autosave(doc, m)
    edited = doc.width.copy()
    # "the crash": a fresh document from the file on disk
    fresh = open_doc(m)
    auto = find_autosave(m, fresh.shape)
    assert auto is not None and auto.points == {"camp": (3, 2)}
    fresh.apply(restore_patch(fresh, auto))
    assert np.array_equal(fresh.width, edited) and fresh.points == {"camp": (3, 2)}
    fresh.undo()
    assert fresh.width[2, 1] == 10 and fresh.points == {}
    assert find_autosave(m, (9, 9)) is None        # a sidecar of another shape is not offered
    autosave_path(m).write_bytes(b"garbage")
    assert find_autosave(m, fresh.shape) is None


def test_the_designers_comment_block_is_kept_and_not_repeated(tmp_path, write_map):
    m = write_map(GRID, LEGEND)
    m.write_text("# The fissure gallery.\n#   notes: keep the 2-ft crack\n" + m.read_text())
    doc = open_doc(m)
    run(doc, Paint("width", 3, ((2, 2),)))
    save(doc, m)
    assert m.read_text().startswith("# The fissure gallery.\n#   notes: keep the 2-ft crack\n[map]")
    p = tmp_path / "lay.toml"
    save(doc, p, fmt="layers")
    for _ in range(2):
        doc = open_doc(p)
        run(doc, Paint("width", 4 + _, ((2, 2),)))
        save(doc, p)
    text = p.read_text()
    assert text.count("Format: exact numeric layers") == 1 and text.startswith("# The fissure gallery.")
