"""Hostile Universal VTT files and special files given to ``cavesim import`` (issue 34, items 7,
8, 10, 11, 14 and 17): every one ends in bounded time and memory with exit 2, one line naming the
file and the key, no traceback and nothing written -- or, where the geometry can be kept (walls
reaching far outside the map, repeated walls, a light of range 1e308), exit 0 with a warning
naming the key and a map that ``cavesim validate`` accepts.

The commands run in this process (``tests.test_fuzz.run_cli``: exit code, stderr, an escaped
exception, under a 30-s alarm); the heavy ones also run in a child process whose peak memory is
read back (``ru_maxrss``).
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from sim.maps.read import load_map
from tests.test_fuzz import run_cli

ROOT = Path(__file__).resolve().parents[2]
FAST_S = 20.0          # every command here takes under 3 s alone; the bound allows a loaded machine
PEAK_MB = 1500         # the heavy cases peak at 250-700 MB (the interpreter and its libraries: ~200)


def pt(x, y):
    return {"x": x, "y": y}


def room(x0=2, y0=2, side=6):
    """A closed square room outline of ``side`` squares (one polyline)."""
    return [pt(x0, y0), pt(x0 + side, y0), pt(x0 + side, y0 + side), pt(x0, y0 + side), pt(x0, y0)]


def doc(**change):
    """A 10 x 10-square map holding one 6 x 6 room."""
    d = {"format": 0.3, "resolution": {"map_origin": pt(0, 0), "map_size": pt(10, 10), "pixels_per_grid": 16},
         "line_of_sight": [room()], "objects_line_of_sight": [], "portals": [], "lights": [], "image": ""}
    d.update(change)
    return d


def write(tmp_path: Path, content, name="m.dd2vtt") -> Path:
    p = tmp_path / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content if isinstance(content, str) else json.dumps(content))
    return p


def run_import(src: Path, out: Path, *extra: str):
    t0 = time.process_time()
    code, err, exc = run_cli(["import", str(src), "--out", str(out), *extra])
    took = time.process_time() - t0
    assert exc is None, exc
    assert "Traceback" not in err
    assert took < FAST_S, f"took {took:.1f} s"
    return code, err


def refused(tmp_path: Path, src: Path, *needles: str, extra: tuple[str, ...] = ()) -> str:
    """Import ``src``: exit 2, one error line naming the file and each of ``needles``, nothing written."""
    before = set(os.listdir(tmp_path))
    out = tmp_path / "out.toml"
    code, err = run_import(src, out, *extra)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("cavesim: error: "), err
    assert str(src) in lines[0] or src.name in lines[0], err
    for n in needles:
        assert n in lines[0], (n, err)
    assert set(os.listdir(tmp_path)) == before, "something was written"
    return lines[0]


def kept(tmp_path: Path, src: Path, *warned: str) -> Path:
    """Import ``src``: exit 0, each of ``warned`` in a warning, a map ``validate`` accepts."""
    out = tmp_path / "out.toml"
    code, err = run_import(src, out)
    assert code == 0, err
    for w in warned:
        assert any(line.startswith("cavesim: warning: ") and w in line for line in err.splitlines()), (w, err)
    code, err, exc = run_cli(["validate", str(out)])
    assert (code, exc) == (0, None), err
    return out


def peak_mb(argv: list[str]) -> tuple[int, float, str]:
    """(exit code, peak resident MB, stderr) of ``cavesim ARGV`` in a child process."""
    code = ("import resource, sys\nfrom sim.cli import main\nrc = main(sys.argv[1:])\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(rc)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=120, env=env,
                       cwd=ROOT)
    *lines, rss = r.stderr.strip().splitlines()
    return r.returncode, int(rss) / 1024, "\n".join(lines)


def png_header(w: int, h: int) -> bytes:
    """A PNG that declares ``w`` x ``h`` grey pixels and holds a few bytes of data (a picture
    whose decoding would take w x h bytes)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")


# ---------------------------------------------------------------- item 7: geometry

def test_a_vertex_far_outside_the_map_is_cut_at_the_margin(tmp_path):
    """Was: no answer after 150 s at 4.2 GB. The wall is cut 10 squares (the map's size) outside."""
    walls = [room(), [pt(5, 5), pt(10 ** 6, 5)]]
    src = write(tmp_path, doc(line_of_sight=walls))
    kept(tmp_path, src, "line_of_sight: 1 polyline reaches more than 10 squares outside the map; cut there")
    code, mb, err = peak_mb(["import", str(src), "--out", str(tmp_path / "b.toml")])
    assert code == 0 and mb < PEAK_MB, (mb, err)


@pytest.mark.parametrize("x", [1e308, -1e308, 10 ** 400, 10_000_001])
def test_a_huge_coordinate_is_refused(tmp_path, x):
    """Was: a traceback (1e308: overflow in the wall index; 10^400: OverflowError)."""
    src = write(tmp_path, doc(line_of_sight=[room(), [pt(5, 5), pt(x, 5)]]))
    refused(tmp_path, src, "line_of_sight[1][1].x: must be a number from -1e+07 to 1e+07")


def test_a_portal_far_outside_the_map_is_cut(tmp_path):
    """Was: _ArrayMemoryError (45 TiB) sampling the door along its length."""
    portal = {"bounds": [pt(5, 2), pt(10 ** 6, 10 ** 6)], "closed": True, "position": pt(5, 2)}
    src = write(tmp_path, doc(portals=[portal]))
    kept(tmp_path, src, "portals: 1 door or window reaches more than 10 squares outside the map")


def test_a_long_polyline_of_scattered_points_is_refused_by_its_length(tmp_path):
    """Was: MemoryError on a 300,000-point polyline. Scattered over the map it is 1.6 million
    squares of wall: over the 250,000-ft limit."""
    import random

    rng = random.Random(7)
    line = [pt(rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(300_000)]
    src = write(tmp_path, doc(line_of_sight=[room(), line]))
    refused(tmp_path, src, "line_of_sight: ", "ft of walls, props and doors in all", "over the limit of 250,000 ft")


def test_a_long_polyline_of_tiny_steps_is_refused(tmp_path):
    """300,000 points 8/100,000 of a square apart along the room's walls: 5,000 in a 2-ft cell,
    where real walls have under 100 (the wall index's search would take a minute)."""
    line = [pt(2 + i * 6 / 75_000, 2) for i in range(75_001)]
    line += [pt(8, 2 + i * 6 / 75_000) for i in range(1, 75_001)]
    line += [pt(8 - i * 6 / 75_000, 8) for i in range(1, 75_001)]
    line += [pt(2, 8 - i * 6 / 75_000) for i in range(1, 75_001)]
    src = write(tmp_path, doc(line_of_sight=[line]))
    refused(tmp_path, src, "line_of_sight: ", " points within 2 ft of one another around square (2, 2), over the "
                           "limit of 500; simplify the walls there")


def test_a_million_two_point_walls_are_refused_by_count(tmp_path):
    """Was: no answer after 150 s (44 MB, under the 64-MB file cap)."""
    walls = ",".join('[{"x":3,"y":3},{"x":4,"y":4}]' for _ in range(10 ** 6))
    text = json.dumps(doc(line_of_sight=[])).replace('"line_of_sight": []', f'"line_of_sight": [{walls}]')
    src = write(tmp_path, text)
    refused(tmp_path, src, "line_of_sight: 1,000,000 wall polylines and props; at most 100,000 are imported")
    code, mb, err = peak_mb(["import", str(src), "--out", str(tmp_path / "b.toml")])
    assert code == 2 and mb < PEAK_MB, (mb, err)


@pytest.mark.parametrize("copies", [300, 2000])
def test_a_room_drawn_many_times_is_merged(tmp_path, copies):
    """Was: 4.9 GB for 300 copies (facing_gaps' pairs are quadratic in overlapping walls), a
    MemoryError for 2,000. The repeats are merged: the map is the one-room map, byte for byte."""
    one = write(tmp_path, doc(), "one.dd2vtt")
    many = write(tmp_path, doc(line_of_sight=[room()] * copies), "many.dd2vtt")
    assert run_import(one, tmp_path / "one.toml")[0] == 0
    kept(tmp_path, many, f"line_of_sight: {4 * (copies - 1)} wall segments drawn again over another; merged")
    a, b = load_map(tmp_path / "one.toml"), load_map(tmp_path / "out.toml")
    assert (a.width_ft == b.width_ft).all() and (a.height_ft == b.height_ft).all() and int((a.width_ft > 0).sum()) == 36
    code, mb, err = peak_mb(["import", str(many), "--out", str(tmp_path / "b.toml")])
    assert code == 0 and mb < PEAK_MB, (mb, err)


def test_a_room_drawn_many_times_slightly_moved_is_refused(tmp_path):
    """Repeats that are not exact (each copy a ten-thousandth of a square off) cannot be merged;
    they are refused before the pairing, with the square where they pile up (200 copies: 400
    points in a corner's 2-ft cell, under the 500 of a crowded cell)."""
    walls = [room(2 + k * 1e-4, 2) for k in range(200)]
    src = write(tmp_path, doc(line_of_sight=walls))
    refused(tmp_path, src, "line_of_sight, portals: around square (2, 2) walls (or closed doors) are drawn over "
                           "one another", "remove the repeated walls there")
    code, mb, err = peak_mb(["import", str(src), "--out", str(tmp_path / "b.toml")])
    assert code == 2 and mb < PEAK_MB, (mb, err)


@pytest.mark.parametrize("key, n, needle", [
    ("portals", 10_001, "portals: 10,001 doors and windows; at most 10,000"),
    ("lights", 10_001, "lights: 10,001 lights; at most 10,000"),
])
def test_counts_are_capped(tmp_path, key, n, needle):
    item = ({"bounds": [pt(3, 3), pt(4, 3)], "closed": False} if key == "portals"
            else {"position": pt(3, 3), "range": 2})
    src = write(tmp_path, doc(**{key: [item] * n}))
    refused(tmp_path, src, needle)


def test_closed_doors_drawn_over_one_another_are_refused(tmp_path):
    """10,000 closed doors in one place: under the count cap, refused by the pairs' bound."""
    portals = [{"bounds": [pt(5, 2), pt(6, 2)], "closed": True}] * 10_000
    src = write(tmp_path, doc(portals=portals))
    refused(tmp_path, src, "line_of_sight, portals: around square (5, 2) walls (or closed doors) are drawn over one "
                           "another")


def test_too_many_wall_points_are_refused(tmp_path):
    line = [pt(3 + (i % 2), 3) for i in range(1_000_001)]
    src = write(tmp_path, doc(line_of_sight=[line]))
    refused(tmp_path, src, "line_of_sight: more than 1,000,000 wall and prop points in all")


def test_a_picture_bomb_is_left_out_before_decoding(tmp_path):
    """Was: a 350-kB PNG of 9400 x 9400 decoded to 1.2 GB (a .png import of it is refused). The
    picture is optional (issue 35, item 6): it is left out with a warning, the walls are kept."""
    import base64

    src = write(tmp_path, doc(image=base64.b64encode(png_header(9400, 9400)).decode()))
    out = kept(tmp_path, src, "image: 9400 x 9400 pixels is over the 64 million pixel limit for the map's picture; "
                              "imported with a plain floor; give the picture with --image PICTURE")
    assert load_map(out).image is None
    code, mb, err = peak_mb(["import", str(src), "--out", str(tmp_path / "b.toml")])
    assert code == 0 and mb < PEAK_MB, (mb, err)
    # over Pillow's own bomb limit (2 x 89 million pixels) the message is the same kind
    src = write(tmp_path, doc(image=base64.b64encode(png_header(100_000, 100_000)).decode()), "b.dd2vtt")
    kept(tmp_path, src, "image: the picture is over the 64 million pixel limit for the map's picture; imported with a "
                        "plain floor")


# ---------------------------------------------------------------- items 10, 11: numbers and types

@pytest.mark.parametrize("change, needle", [
    ({"map_size": {"x": 10 ** 400, "y": 10}}, "resolution.map_size.x: must be a number from -1e+07 to 1e+07, got a "
                                               "number of 401 digits"),
    ({"map_size": {"x": "10", "y": 10}}, "resolution.map_size.x: must be a number, got '10'; write it without quotes"),
    ({"map_size": {"x": True, "y": 10}}, "resolution.map_size.x: must be a number, got true"),
    ({"map_size": {"x": 1e308, "y": 10}}, "resolution.map_size.x: must be a number from -1e+07 to 1e+07"),
    ({"map_size": {"x": 10_000, "y": 10}}, "resolution.map_size: 10000 x 10 squares is larger than the limit"),
    ({"pixels_per_grid": "16"}, "resolution.pixels_per_grid: must be a number, got '16'; write it without quotes"),
    ({"pixels_per_grid": 1e308}, "resolution.pixels_per_grid: 1e+308 pixels per square is over the limit of 1024"),
    ({"pixels_per_grid": 10 ** 6}, "resolution.pixels_per_grid: 1e+06 pixels per square is over the limit of 1024"),
    ({"pixels_per_grid": False}, "resolution.pixels_per_grid: must be a number, got false"),
    ({"map_origin": {"x": 10 ** 400, "y": 0}}, "resolution.map_origin.x: must be a number from -1e+07 to 1e+07"),
])
def test_resolution_numbers_and_types(tmp_path, change, needle):
    d = doc()
    d["resolution"].update(change)
    refused(tmp_path, write(tmp_path, d), needle)


@pytest.mark.parametrize("walls, needle", [
    ([[pt(2, 2), pt("3", 2)]], "line_of_sight[0][1].x: must be a number, got '3'; write it without quotes"),
    ([[pt(2, 2), pt(3, 10 ** 400)]], "line_of_sight[0][1].y: must be a number from -1e+07 to 1e+07"),
    ([[pt(2, 2), pt(False, 2)]], "line_of_sight[0][1].x: must be a number, got false"),
    ([[pt(2, 2), pt([1] * 10 ** 5, 2)]], "line_of_sight[0][1].x: must be a number, got a list of 100000 items"),
])
def test_coordinate_types(tmp_path, walls, needle):
    refused(tmp_path, write(tmp_path, doc(line_of_sight=walls)), needle)


def test_a_5000_digit_number_is_refused(tmp_path):
    """Python's JSON reader refuses integers over 4,300 digits with a ValueError."""
    text = json.dumps(doc()).replace('"pixels_per_grid": 16', '"pixels_per_grid": ' + "7" * 5000)
    refused(tmp_path, write(tmp_path, text), "not valid JSON: ", "digits")


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deep_nesting_is_refused(tmp_path, depth):
    """Was: RecursionError at 100,000 levels."""
    text = json.dumps(doc()).replace('"lights": []', '"lights": ' + "[" * depth + "]" * depth)
    refused(tmp_path, write(tmp_path, text), "the JSON is nested too deeply to be a Universal VTT file")


# ---------------------------------------------------------------- item 17: a light of range 1e308

def test_a_light_of_huge_range_is_clipped_and_the_map_validates(tmp_path):
    """Was: written as bright_ft = inf, which ``validate`` then refuses. It is imported at the
    1000 ft a map [[light]] may reach (sim.maps.layers.MAX_LIGHT_FT), with a warning."""
    src = write(tmp_path, doc(lights=[{"position": pt(5, 5), "range": 1e308}]))
    out = kept(tmp_path, src, "lights[0].range: 1e+308 squares is inf ft, over the 1000 ft a map light may reach; "
                              "imported as 1000 ft")
    text = out.read_text()
    assert "bright_ft = 500" in text and "shadowy_ft = 1000" in text and "inf" not in text


# ---------------------------------------------------------------- items 8, 14: special files

def _special(tmp_path: Path, kind: str, name: str) -> tuple[Path, str]:
    p = tmp_path / name
    if kind == "fifo":
        os.mkfifo(p)
        return p, "not a regular file (a FIFO (named pipe))"
    if kind == "zero":
        p.symlink_to("/dev/zero")
        return p, "not a regular file (a character device)"
    p.mkdir()
    return p, "is a directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("kind", ["fifo", "zero", "dir"])
@pytest.mark.parametrize("name", ["cave.dd2vtt", "cave.png"])
def test_special_files_are_named_not_read(tmp_path, kind, name):
    """Was: 'no such file' for a UVTT FIFO, /dev/zero or folder; `cavesim import FIFO.png` hung."""
    src, says = _special(tmp_path, kind, name)
    refused(tmp_path, src, says)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_ceiling_picture_that_is_a_fifo_is_named(tmp_path):
    src = write(tmp_path, doc())
    fifo, says = _special(tmp_path, "fifo", "ceiling.png")
    before = set(os.listdir(tmp_path))
    code, err = run_import(src, tmp_path / "out.toml", "--ceiling-image", str(fifo))
    assert code == 2 and says in err and "ceiling.png" in err and len(err.strip().splitlines()) == 1, err
    assert set(os.listdir(tmp_path)) == before


def test_a_png_import_refuses_a_bomb_before_decoding(tmp_path):
    src = write(tmp_path, png_header(9400, 9400), "big.png")
    refused(tmp_path, src, "9400x9400 px is over the 64 million pixel limit")
    src = write(tmp_path, png_header(100_000, 100_000), "bigger.png")
    refused(tmp_path, src, "over the 64 million pixel limit")
