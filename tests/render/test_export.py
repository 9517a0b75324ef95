"""Export with no window: valid GIF / WebP / PNG files of the size and length asked for, the same
bytes for the same seed, and clear errors (exit code 2, no file left) for bad paths and formats."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from sim.cli import main

from .helpers import ROOT_MAPS

ROOT = ROOT_MAPS.parent
SMALL = ["--max-frames", "12", "--scale", "0.25", "--fps", "10"]


def gif_ms(im) -> int:
    total = 0
    for i in range(im.n_frames):
        im.seek(i)
        im.load()   # WebP frames tell their duration once decoded
        total += im.info["duration"]
    return total


def render(out: Path, *extra: str, enc: str = "ogre_tunnel.toml") -> int:
    return main(["render", str(ROOT_MAPS / enc), "--out", str(out), *extra])


def test_gif_is_valid_with_the_frames_and_size_asked(tmp_path, capsys):
    out = tmp_path / "fight.gif"
    assert render(out, *SMALL) == 0
    assert "wrote" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.format == "GIF" and im.size == (320, 180) and im.info.get("loop") == 0
        # 12 frames of 100 ms (identical neighbours are stored once, with their durations added)
        assert gif_ms(im) == 1200 and 1 < im.n_frames <= 12


def test_same_seed_same_bytes(tmp_path):
    a, b, c = tmp_path / "a.gif", tmp_path / "b.gif", tmp_path / "c.gif"
    assert render(a, *SMALL, "--seed", "5") == 0
    assert render(b, *SMALL, "--seed", "5") == 0
    assert a.read_bytes() == b.read_bytes()
    assert render(c, "--max-frames", "60", "--scale", "0.25", "--seed", "6") == 0
    assert render(a, "--max-frames", "60", "--scale", "0.25", "--seed", "5") == 0
    assert a.read_bytes() != c.read_bytes()      # another seed, another fight


def test_webp_and_png(tmp_path):
    w = tmp_path / "fight.webp"
    assert render(w, *SMALL) == 0
    with Image.open(w) as im:
        assert im.format == "WEBP" and im.size == (320, 180) and gif_ms(im) == 1200
    p = tmp_path / "frame.png"
    assert render(p, "--at", "2.0", "--scale", "0.5") == 0
    with Image.open(p) as im:
        assert im.format == "PNG" and im.size == (640, 360)


def test_a_recorded_fight_renders_too(tmp_path):
    log = tmp_path / "fight.jsonl"
    assert main(["fight", str(ROOT_MAPS / "ogre_tunnel.toml"), "--events", str(log), "--quiet"]) == 0
    out = tmp_path / "replay.gif"
    assert main(["render", str(log), "--out", str(out), *SMALL]) == 0
    with Image.open(out) as im:
        assert gif_ms(im) == 1200


@pytest.mark.parametrize("name,message", [("missing/fight.gif", "does not exist"),
                                          ("fight.mp4", "unknown output format .mp4"),
                                          ("fight", "unknown output format (none)")])
def test_bad_out_paths_and_formats_exit_2_and_write_nothing(tmp_path, capsys, name, message):
    out = tmp_path / name
    assert render(out, *SMALL) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("cavesim: error:") and "Traceback" not in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == ([] if "/" not in name else [])


def test_bad_options_exit_2(tmp_path, capsys):
    assert render(tmp_path / "a.gif", "--at", "1") == 2
    assert "--at" in capsys.readouterr().err
    assert render(tmp_path / "a.gif", "--scale", "9") == 2
    assert render(tmp_path / "a.gif", "--size", "12") == 2
    assert main(["render", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "a.gif")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_export_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "fight.gif"

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", boom)
    with pytest.raises(OSError):
        render(out, *SMALL)
    assert list(tmp_path.iterdir()) == []


def test_demo_headless_end_to_end(tmp_path, capsys):
    out = tmp_path / "demo-out"
    assert main(["demo", "--headless", "--out", str(out), "--max-frames", "8", "--scale", "0.25"]) == 0
    text = capsys.readouterr().out
    gif, png = out / "demo.gif", out / "demo.png"
    assert str(gif) in text and str(png) in text
    with Image.open(gif) as im:
        assert gif_ms(im) == 800 and im.size == (320, 180)
    with Image.open(png) as im:
        assert im.size == (1280, 720)
    assert main(["demo", "--headless", "--out", str(tmp_path / "no" / "such"), "--max-frames", "2"]) == 2


def test_demo_text_still_prints_the_classified_cave(capsys):
    assert main(["demo", "--text"]) == 0
    out = capsys.readouterr().out
    assert "The Warrens" in out and "Medium creature" in out and "Tight Squeeze" in out


def test_play_without_a_display_explains_itself():
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    r = subprocess.run([sys.executable, "-m", "sim", "play", "maps/ogre_tunnel.toml"], capture_output=True, text=True,
                       cwd=ROOT, env=env)
    assert r.returncode == 2 and "needs a display" in r.stderr and "cavesim render" in r.stderr
    assert "SDL_VIDEODRIVER=dummy draws no window" in r.stderr  # the real reason, not "DISPLAY unset"


def test_cli_without_display_demo_falls_back_to_files(tmp_path):
    env = {**os.environ, "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    env.pop("SDL_VIDEODRIVER", None)
    r = subprocess.run([sys.executable, "-m", "sim", "demo", "--max-frames", "3", "--scale", "0.2"],
                       capture_output=True, text=True, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr
    assert "no display (DISPLAY/WAYLAND_DISPLAY unset)" in r.stdout and (tmp_path / "cavesim-demo" / "demo.gif").exists()


def test_building_the_cli_leaves_pygame_out():
    code = ("import sys; from sim.cli import build_parser; build_parser(); "
            "assert 'pygame' not in sys.modules, 'pygame imported'; print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "clean" in r.stdout, r.stderr


def test_palette_and_view_state_modules_import_no_pygame():
    code = ("import sys; import sim.maps.palette, sim.render.portray, sim.view.model, sim.view.timeline, "
            "sim.render.particles, sim.render.easing; from sim.maps.palette import CATEGORY_RGB; "
            "assert len(CATEGORY_RGB) == 7 and all(len(c) == 3 for c in CATEGORY_RGB.values()); "
            "assert 'pygame' not in sys.modules, 'pygame imported'; print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "clean" in r.stdout, r.stderr


def test_same_seed_same_bytes_across_processes(tmp_path):
    """No per-process randomness (string hashing) leaks into the frames."""
    outs = []
    for hashseed in ("1", "2"):
        out = tmp_path / f"f{hashseed}.gif"
        env = {**os.environ, "PYTHONHASHSEED": hashseed, "SDL_VIDEODRIVER": "dummy"}
        r = subprocess.run([sys.executable, "-m", "sim", "render", "maps/hellwasp_torches.toml", "--out", str(out),
                            "--max-frames", "90", "--scale", "0.25", "--speed", "4"],
                           capture_output=True, text=True, cwd=ROOT, env=env)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_one_frame_is_drawn_alone_and_is_the_same_picture():
    """issue 19: `render --at` draws only the frame asked for (the simulation and the interface
    panels, which ease from frame to frame, still run every step); the picture equals that frame
    of the full animation (12 s into the demo: the log panel has scrolled by then)."""
    from sim.cli import build_parser
    from sim.cli.render import scene_factory
    from sim.render.export import _frames
    from sim.view.options import parse_size

    args = build_parser().parse_args(["render", str(ROOT_MAPS / "demo.toml"), "--out", "x.png", "--scale", "0.25"])
    make = scene_factory(args, parse_size(args.size))
    every = [img.tobytes() for _, img in _frames(make, fps=10, scale=0.25, max_frames=121, tail=1.0)]
    alone = [(i, img.tobytes()) for i, img in _frames(make, fps=10, scale=0.25, max_frames=121, tail=1.0,
                                                      wanted=lambda i, d: i >= 120)]
    assert len(every) == 121
    assert [i for i, _ in alone] == [120] and alone[0][1] == every[120]
