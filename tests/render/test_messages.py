"""Messages in the window (issue 34 items 15-16): the font is read at window start, so a toast
never ends the window (``play`` once died at its first toast: ``FileNotFoundError:
pygame/freesansbold.ttf``, the unsaved fight gone with it); a message that cannot be drawn is
dropped and reported, not raised; neutral toasts are not drawn in the red of an error; the key
help at the bottom of ``play`` is never cut in the middle of a word."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from sim.base.errors import DataError
from sim.render import hud, text
from sim.render.session import play_scene

from .helpers import spec
from .test_play import ready

ROOM = ["##########",
        "#........#",
        "#........#",
        "##########"]

FIGHT = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
         {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}]


def _frame(scene) -> pygame.Surface:
    s = pygame.Surface(scene.size)
    scene.draw(s, 1.0)
    return s


def _toast_fill(scene, surf) -> tuple[int, int, int]:
    """The colour inside the toast's box, in its left padding (the text starts 15 px in)."""
    view = scene.r_view
    w, h = scene.text.size(scene.toast_text, 20)
    x = view.centerx - (w + 30) // 2 + 6
    y = view.bottom - 70 - (h + 14) // 2
    return tuple(surf.get_at((x, y)))[:3]


def _font_files_gone(monkeypatch, tmp_path) -> None:
    """pygame's font file is gone (pygame reinstalled under the window): opening any font by
    file or by pygame's default raises what ``play`` died of."""
    real = pygame.font.Font

    def font(obj, size):
        if obj is None or isinstance(obj, (str, Path)):
            raise FileNotFoundError(2, "No such file or directory", "pygame/freesansbold.ttf")
        return real(obj, size)

    monkeypatch.setattr(pygame.font, "Font", font)
    monkeypatch.setattr(text, "bundled_font_path", lambda: tmp_path / "freesansbold.ttf")


def test_a_toast_after_the_font_file_is_gone_does_not_raise(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    scene, ctl = ready(spec(ROOM, FIGHT, seed=4))
    _font_files_gone(monkeypatch, tmp_path)
    assert scene.text.font(37).size("Bruna")[0] > 0      # a size never drawn before: made from the bytes read at start
    ctl.save_game("s.json")                              # the first toast of the window
    scene.update(1 / 60)
    surf = _frame(scene)                                 # raised FileNotFoundError before the fix
    assert scene.toast_text == "saved to s.json"
    assert _toast_fill(scene, surf) != tuple(surf.get_at((2, scene.r_view.bottom - 2)))[:3]   # the toast is drawn
    assert capsys.readouterr().err == ""


def test_a_message_that_cannot_be_drawn_is_dropped_and_reported_once(monkeypatch, capsys):
    scene, ctl = ready(spec(ROOM, FIGHT, seed=4))
    real = scene.text.render

    def render(words, *a, **k):
        if words.startswith("view:"):
            raise FileNotFoundError(2, "No such file or directory", "pygame/freesansbold.ttf")
        return real(words, *a, **k)

    monkeypatch.setattr(scene.text, "render", render)
    scene.toast("view: monsters")
    scene.update(1 / 60)
    _frame(scene)                                        # does not raise: the window and its fight go on
    assert scene.toast_text == ""                        # dropped, not tried again at every frame
    scene.toast("view: party")
    _frame(scene)
    _frame(scene)
    err = capsys.readouterr().err.splitlines()
    assert err == ["cavesim: warning: a message could not be drawn (FileNotFoundError: [Errno 2] No such file or "
                   "directory: 'pygame/freesansbold.ttf'); the window goes on without it"]
    ctl.click_square((4, 1))                             # the fight goes on
    assert ctl.enc.creatures["bruna"].pos == (4, 1)


def test_the_font_is_read_at_window_start_a_missing_one_fails_early_in_one_line(monkeypatch, tmp_path):
    from tests.test_fuzz import run_cli

    monkeypatch.setattr(text, "bundled_font_path", lambda: tmp_path / "freesansbold.ttf")
    monkeypatch.setattr(pygame.font, "match_font", lambda names, *a, **k: None)
    with pytest.raises(DataError) as e:
        text.Text()
    assert str(e.value) == (f"pygame's bundled font cannot be read: {tmp_path / 'freesansbold.ttf'} (No such file or "
                            "directory), and no system font to use instead (freesans, dejavusans, liberationsans, "
                            "arial, helvetica, verdana); reinstall pygame (pip install --force-reinstall pygame)")
    code, err, exc = run_cli(["play", "maps/ogre_tunnel.toml", "--max-frames", "2", "--size", "640x360"])
    assert exc is None and code == 2
    assert err.splitlines() == [f"cavesim: error: {e.value}"]


def test_a_missing_bundled_font_falls_back_to_a_system_font(monkeypatch, tmp_path):
    other = tmp_path / "other-sans.ttf"
    other.write_bytes(text.bundled_font_path().read_bytes())
    monkeypatch.setattr(text, "bundled_font_path", lambda: tmp_path / "freesansbold.ttf")
    monkeypatch.setattr(pygame.font, "match_font", lambda names, *a, **k: str(other))
    t = text.Text()
    assert t.font_name == "other-sans.ttf"
    assert t.render("Bruna", 20, (255, 255, 255)).get_width() > 0


def test_the_bundled_font_read_at_start_draws_what_pygame_draws():
    """The font made from the bytes read at start is pygame's own default font, pixel for pixel
    (pygame draws ``Font(None, n)`` at 0.6875 n; the bytes take the same scale)."""
    t = text.Text()
    for size in (16, 20, 60):
        ours = t.font(size).render("Awkward Lidda 20%", True, (255, 255, 255))
        theirs = pygame.font.Font(None, size * text.OVERSAMPLE).render("Awkward Lidda 20%", True, (255, 255, 255))
        assert pygame.image.tobytes(ours, "RGBA") == pygame.image.tobytes(theirs, "RGBA")


def test_neutral_toasts_are_not_drawn_in_the_red_of_an_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scene, ctl = ready(spec(ROOM, FIGHT, seed=4))
    ctl.save_game("s.json")
    scene.update(1 / 60)
    assert scene.toast_kind == "info"
    r, g, b = _toast_fill(scene, _frame(scene))
    assert r < 60 and abs(r - g) < 20 and b >= r                # the panel's grey-blue (28, 31, 40)
    ctl.click_square((8, 2))                                     # too far for a sword: a refusal
    scene.update(1 / 60)
    assert scene.toast_text.startswith("Bruna cannot:") and scene.toast_kind == "error"
    r, g, b = _toast_fill(scene, _frame(scene))
    assert r > 100 and r > g + 60 and r > b + 60                 # red (120, 30, 26)
    scene.toast("view: monsters")                                # V: a neutral toast again
    assert scene.toast_kind == "info"
    with pytest.raises(ValueError):
        scene.toast("x", kind="warning")


@pytest.mark.parametrize("size", [(1280, 720), (800, 500)])
def test_the_play_key_help_cuts_no_word(size):
    s = spec(["#" * 14] + ["#" + "." * 12 + "#"] * 5 + ["#" * 14], FIGHT, seed=4)
    scene, _ = play_scene(s, size=size, control={"party"})
    scene.lighting = None
    scene.hover = (3, 2)                                         # the square readout takes a row too
    scene.update(1 / 60)
    bar = scene.r_bottom
    help_words = hud.HELP["play"].split("  ·  ")
    lines = scene.hudder._help_lines("play", bar.width, bar.height - 18)
    assert "  ·  ".join(lines).split("  ·  ") == help_words      # every item whole, in order, none dropped
    assert all(scene.text.size(line, 16)[0] <= bar.width - 20 for line in lines)
    assert 18 * (len(lines) + 1) <= bar.height                   # the readout and every help line fit in the bar
    surf = _frame(scene)
    bg = tuple(surf.get_at((bar.right - 1, bar.bottom - 2)))[:3]
    assert bg == hud.palette.UI_BG
    edge = {tuple(surf.get_at((x, y)))[:3] for x in range(bar.right - 12, bar.right) for y in range(bar.y + 2, bar.bottom)}
    assert edge == {bg}                                          # no text runs into the right edge (it did: "B break f")
    rows = [y for y in range(bar.y + 2, bar.bottom)
            if any(tuple(surf.get_at((x, y)))[:3] != bg for x in range(bar.x, bar.x + 400))]
    assert rows and bar.y + 2 <= rows[0] and rows[-1] < bar.bottom


def test_demo_headless_says_the_sizes_it_writes(tmp_path, capsys):
    """The animation is drawn at --scale (0.75: 480x270 of 640x360), the final frame at the full
    --size; the words say each file's real size (they said 960x540 beside a 1280x720 PNG)."""
    from PIL import Image

    from sim.cli import main

    out = tmp_path / "d"
    assert main(["demo", "maps/warrens.toml", "--headless", "--out", str(out), "--size", "640x360", "--max-frames", "2"]) == 0
    words = capsys.readouterr().out.splitlines()
    with Image.open(out / "demo.gif") as gif, Image.open(out / "demo.png") as png:
        assert (gif.size, png.size) == ((480, 270), (640, 360))
    assert words[-3].startswith("2 frames, ")
    assert words[-2] == f"animation: {out / 'demo.gif'} (480x270: --scale 0.75 of 640x360)"
    assert words[-1] == f"final frame: {out / 'demo.png'} (640x360, the full --size)"
