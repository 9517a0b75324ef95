"""The editor window on the dummy video driver: gestures become the same operations as a
script, undo/redo keys, the status bar, overlays, the chokepoint worker, autosave offer, quit
guard (issue 18)."""

import shutil

import numpy as np
import pygame
import pytest

from sim.cli import main
from sim.editor.model import Document
from sim.editor.ops import Paint, write_ops
from sim.editor.save import autosave_path, write_autosave
from sim.maps.read import load_map
from sim.maps import palette

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
'''
GRID = '''
####################
#......######......#
#......######......#
#......######......#
#......######......#
####################
'''


@pytest.fixture
def screen():
    pygame.display.init()
    pygame.font.init()
    yield pygame.display.set_mode((1100, 700))
    pygame.display.quit()


def view_of(path, **kw):
    from sim.render.editor import EditorView

    doc = Document.from_grid(load_map(path))
    return EditorView(doc, path, size=(1100, 700), **kw)


def px(v, x, y):
    """Screen pixel at the centre of square (x, y)."""
    sx, sy = v.camera.to_screen(x + 0.5, y + 0.5)
    return int(sx), int(sy)


def drag(v, pts, mods=0, button=1):
    v.press(px(v, *pts[0]), button, mods)
    for p in pts[1:]:
        v.motion(px(v, *p))
    v.release(px(v, *pts[-1]), button, mods)


def test_a_stroke_is_painted_live_and_undone_as_one_step(write_map, screen):
    v = view_of(write_map(GRID, LEGEND))
    v.values["width"] = 2.0
    v.brush = 1
    v.press(px(v, 7, 2), 1, 0)
    v.motion(px(v, 9, 2))
    assert v.doc.width[2, 8] == 2 and v.doc.width[2, 9] == 2      # live, before the button is released
    v.motion(px(v, 12, 2))
    v.key(pygame.K_z, pygame.KMOD_CTRL)                            # ignored in the middle of a stroke
    v.release(px(v, 12, 2), 1, 0)
    assert (v.doc.width[2, 7:13] == 2).all() and v.doc.ceiling[2, 10] == 10
    assert len(v.doc.history.done) == 1
    assert v.journal == [Paint("width", 2.0, ((7, 2), (9, 2), (12, 2)), 1, "square")]
    v.key(pygame.K_z, pygame.KMOD_CTRL)
    assert v.doc.rock[2, 7:13].all()
    v.key(pygame.K_y, pygame.KMOD_CTRL)
    assert (v.doc.width[2, 7:13] == 2).all()
    v.key(pygame.K_z, pygame.KMOD_CTRL)
    v.key(pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)      # Ctrl-Shift-Z redoes too
    assert (v.doc.width[2, 7:13] == 2).all()
    v.close()


def test_window_and_script_write_the_same_file(write_map, tmp_path, screen):
    """Issue 18 check: the scripted front end and the window produce the same file."""
    src = write_map(GRID, LEGEND)
    a = tmp_path / "a.toml"
    shutil.copy(src, a)
    v = view_of(a)
    v.values["width"] = 2.0
    drag(v, [(7, 2), (12, 2)], mods=pygame.KMOD_SHIFT)           # Shift-drag: a line
    v.key(pygame.K_r, 0)
    v.values["width"] = 15.0
    drag(v, [(14, 1), (17, 3)])                                   # a rectangle
    v.key(pygame.K_f, 0)
    v.key(pygame.K_c, 0)
    v.values["ceiling"] = 6.0
    v.press(px(v, 2, 2), 1, 0)                                    # fill the west chamber's ceiling
    v.release(px(v, 2, 2), 1, 0)
    v.key(pygame.K_b, 0)
    v.press(px(v, 8, 2), 3, 0)                                    # right click: the eyedropper
    assert v.values["ceiling"] == 10.0                            # the line carved rock: default ceiling
    v.key(pygame.K_RIGHTBRACKET, 0)
    v.key(pygame.K_s, 0)                                          # round brush of 2
    drag(v, [(15, 2), (16, 3)])
    v.key(pygame.K_z, pygame.KMOD_CTRL)
    v.key(pygame.K_z, pygame.KMOD_CTRL)
    v.key(pygame.K_y, pygame.KMOD_CTRL)
    v.key(pygame.K_p, 0)
    v.press(px(v, 3, 3), 1, 0)                                    # place a point: type its name
    assert v.entry["text"] == "point 1"                           # a suggested name, replaced by typing
    for ch in "camp":
        v.key(pygame.K_a, 0, ch)
    v.key(pygame.K_RETURN, 0)
    assert v.doc.points == {"camp": (3, 3)}
    v.key(pygame.K_s, pygame.KMOD_CTRL)
    assert not v.doc.dirty and (tmp_path / "a.toml.bak").exists()
    ops = tmp_path / "ops.jsonl"
    write_ops(ops, v.journal)
    v.close()
    b = tmp_path / "b.toml"
    assert main(["edit", str(src), "--apply", str(ops), "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    g = load_map(b)
    assert (g.width_ft[2, 7:13] == 2).all() and g.height_ft[2, 2] == 6 and g.width_ft[1, 14] == 15


def test_status_bar_shows_the_square_in_feet_and_its_category(write_map, screen):
    v = view_of(write_map(GRID, LEGEND))
    v.values["width"] = 3.0
    drag(v, [(7, 2), (12, 2)])
    v.motion(px(v, 8, 2))
    s = v.status_text()
    # Medium (RULES §2.3: space 5 ft, height 6 ft): 2.5 <= 3 < 5 is narrow, the 10-ft ceiling is not low
    assert "x 8  y 2" in s and "width 3 ft" in s and "ceiling 10 ft" in s and "Medium: Narrow or Low" in s
    v.key(pygame.K_6, 0)                                          # Large: space 10 ft, 3 < 10 / 2
    assert "Large: Awkward Space" in v.status_text()
    v.motion(px(v, 8, 1))
    assert "rock" in v.status_text()
    v.close()


def test_metric_map_shows_metres_and_feet(write_map, screen):
    m = write_map(GRID, '"#" = "wall"\n"." = { width = 3, height = 3.6 }\n"f" = { width = 0.6, height = 2.4 }',
                  units="m")
    v = view_of(m)
    v.motion(px(v, 2, 2))
    assert "width 0.9 m (3 ft)" in v.status_text() or "width 3 m (10 ft)" in v.status_text()
    assert v.value_text("width") == "3 m"
    v.close()


def test_overlay_and_brush_preview_pixels(write_map, screen):
    v = view_of(write_map(GRID, LEGEND), chokepoints=False)
    v.key(pygame.K_5, 0)                                           # Medium overlay
    v.brush = 3
    v.motion(px(v, 3, 2))
    v.draw(screen)
    # a clear square away from the brush: its colour is mixed towards the Clear green
    c = screen.get_at(px(v, 17, 3))[:3]
    base = palette.mix(palette.CATEGORY_RGB["CLEAR"], (0, 0, 0), 0)
    assert c[1] > c[0] and c[1] > c[2] and abs(c[1] - base[1]) < 90
    # under the brush the square is lighter (the translucent white preview)
    under = screen.get_at(px(v, 3, 2))[:3]
    v.motion(px(v, 17, 1))
    v.draw(screen)
    assert sum(under) > sum(screen.get_at(px(v, 3, 2))[:3])
    v.close()


def test_chokepoints_follow_the_paint_on_the_worker(write_map, screen):
    v = view_of(write_map(GRID, LEGEND))
    v.chokes.quiet = 0.0
    v.update()
    v.chokes.wait()
    assert v.chokes.result is not None and len(v.chokes.result.layout.chokepoints) == 0
    v.values["width"] = 2.0
    drag(v, [(7, 2), (12, 2)])                                     # a fissure between the two chambers
    v.update()
    assert v.chokes.stale
    v.chokes.wait()
    res = v.chokes.result
    assert res.version == v.doc.version and not v.chokes.stale
    assert len(res.layout.chokepoints) == 1 and res.layout.chokepoints[0].width_ft == 2
    v.draw(screen)
    assert "chokepoint C1" in (v.motion(px(v, 9, 2)) or v.status_text())
    v.close()


def test_autosave_is_offered_back_at_open(write_map, screen):
    m = write_map(GRID, LEGEND)
    doc = Document.from_grid(load_map(m))
    doc.width[2, 8], doc.ceiling[2, 8], doc.rock[2, 8] = 3, 9, False
    write_autosave(doc, m)
    v = view_of(m)
    assert v.ask == "restore"
    v.draw(screen)
    v.key(pygame.K_y, 0)
    assert v.doc.width[2, 8] == 3 and v.doc.dirty and v.ask is None
    v.key(pygame.K_z, pygame.KMOD_CTRL)
    assert v.doc.rock[2, 8]
    v.close()
    v2 = view_of(m)
    v2.key(pygame.K_n, 0)
    assert not autosave_path(m).exists()
    v2.close()


def test_quit_asks_when_there_are_unsaved_edits(write_map, screen):
    m = write_map(GRID, LEGEND)
    v = view_of(m)
    v.key(pygame.K_ESCAPE, 0)
    assert not v.running                                            # nothing to lose: quits
    v = view_of(m)
    v.values["width"] = 4.0
    drag(v, [(2, 2)])
    v.key(pygame.K_ESCAPE, 0)
    assert v.running and v.ask == "quit"
    v.key(pygame.K_a, 0)                                            # any other key: keep editing
    assert v.running and v.ask is None
    v.key(pygame.K_ESCAPE, 0)
    v.key(pygame.K_ESCAPE, 0)                                       # Esc again: quit without saving
    assert not v.running and load_map(m).width_ft[2, 2] == 10
    v.close()


def test_value_entry_and_palette(write_map, screen):
    v = view_of(write_map(GRID, LEGEND))
    v.key(pygame.K_v, 0)
    for ch in "2.5x":
        v.key(pygame.K_a, 0, ch)                                    # letters are ignored in a number
    v.key(pygame.K_RETURN, 0)
    assert v.values["width"] == 2.5
    entries = [val for val, _ in v.palette_entries()]
    assert entries[:2] == [10.0, 2.0]                               # the legend's widths first
    assert 5.0 in entries and 0.5 in entries                        # Medium's space and head
    v.key(pygame.K_PERIOD, 0)
    assert v.values["width"] in entries
    v.key(pygame.K_d, 0)
    v.key(pygame.K_v, 0)
    assert v.values["difficult"] is False
    v.close()


def test_cli_window_on_the_dummy_driver_records_the_journal(write_map, tmp_path, monkeypatch):
    m = write_map(GRID, LEGEND)
    rec = tmp_path / "rec.jsonl"
    assert main(["edit", str(m), "--max-frames", "3", "--record", str(rec), "--window", "900x600"]) == 0
    assert rec.read_text().startswith("# Recorded by cavesim edit")


def test_cli_window_without_a_display_says_what_to_do(write_map, capsys):
    m = write_map(GRID, LEGEND)
    assert main(["edit", str(m)]) == 2
    assert "needs a display" in capsys.readouterr().err


def test_layer_picture_marks_rock_difficult_and_width():
    from sim.render.editor_draw import layer_rgb

    w = np.array([[0, 1, 20, 20]])
    doc = Document(w, np.array([[0, 10, 10, 10]]), np.array([[0, 0, 0, 1]]), np.zeros((1, 4), bool))
    rgb = layer_rgb(doc, "width").astype(int)
    assert tuple(rgb[0, 0]) == palette.ROCK_DARK
    assert rgb[0, 1].sum() < rgb[0, 2].sum()                       # narrow is darker than wide
    rubble = np.array(palette.RUBBLE)
    assert np.abs(rgb[0, 3] - rubble).sum() < np.abs(rgb[0, 2] - rubble).sum()   # difficult: tinted
    assert layer_rgb(doc, "ceiling", (0, 1, 1, 3)).shape == (1, 2, 3)
