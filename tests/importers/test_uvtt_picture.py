"""The map's picture on import (issue 35, items 6 and 7): a bad ``image`` field warns and the
walls are kept; ``--image PICTURE`` supplies the picture; the picture is kept as it came (PNG,
WebP and JPEG byte for byte), every reader of the saved map reads it, and a 48 x 27-square map at
128 px a square imports in under 8 s."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sim.cli import main
from sim.maps.read import load_map

ROOT = Path(__file__).resolve().parents[2]
FORMATS = {"PNG": ".png", "WEBP": ".webp", "JPEG": ".jpg"}


def pt(x, y):
    return {"x": x, "y": y}


def picture(fmt: str, w: int, h: int, seed: int = 0) -> bytes:
    """A noisy picture (so a re-encoding would change its bytes) in ``fmt``."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(a).save(buf, format=fmt, **({} if fmt == "PNG" else {"quality": 80}))
    return buf.getvalue()


def room_doc(image="") -> dict:
    """A 6 x 4-square map (16 px a square) with a 4 x 2-square room, squares 1-4, 1-2."""
    loop = [pt(1, 1), pt(5, 1), pt(5, 3), pt(1, 3), pt(1, 1)]
    return {"format": 1.0, "resolution": {"map_origin": pt(0, 0), "map_size": pt(6, 4), "pixels_per_grid": 16},
            "line_of_sight": [loop], "objects_line_of_sight": [], "portals": [], "lights": [], "image": image}


def write(tmp_path: Path, doc: dict, name="m.dd2vtt") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return p


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(["import", *map(str, argv)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def warnings_of(err: str) -> list[str]:
    return [line.removeprefix("cavesim: warning: ") for line in err.splitlines()
            if line.startswith("cavesim: warning: ") and " Low everywhere" not in line]


# ---------------------------------------------------------------- item 7: kept as it came

@pytest.mark.parametrize("fmt", ["PNG", "WEBP", "JPEG"])
def test_the_picture_is_kept_byte_for_byte_in_its_format(tmp_path, capsys, fmt):
    blob = picture(fmt, 96, 64)
    src = write(tmp_path, room_doc(base64.b64encode(blob).decode()))
    out = tmp_path / "out.toml"
    code, _, err = run(capsys, src, "--out", out)
    assert code == 0 and warnings_of(err) == []
    pic = out.with_suffix(FORMATS[fmt])
    assert pic.read_bytes() == blob                              # no re-encoding
    assert sorted(p.name for p in tmp_path.glob("out.*")) == sorted(["out.toml", pic.name])
    g = load_map(out)                                            # the loader reads the kept format
    assert g.image == pic.resolve()
    first = {p.name: p.read_bytes() for p in tmp_path.glob("out.*")}
    assert run(capsys, src, "--out", out)[0] == 0
    assert {p.name: p.read_bytes() for p in tmp_path.glob("out.*")} == first    # same bytes twice
    assert main(["validate", str(out)]) == 0


def test_a_picture_that_does_not_cover_the_grid_is_scaled_in_its_own_format(tmp_path, capsys):
    src = write(tmp_path, room_doc(base64.b64encode(picture("JPEG", 97, 64)).decode()))
    out = tmp_path / "out.toml"
    code, _, err = run(capsys, src, "--out", out)
    assert code == 0
    assert warnings_of(err) == [f"{src}: image: 97 x 64 pixels, but the map is 6 x 4 squares of 16 pixels "
                                "(96 x 64); it is stretched to the grid"]
    with Image.open(out.with_suffix(".jpg")) as im:
        assert (im.format, im.size) == ("JPEG", (96, 64))


def test_every_reader_of_the_saved_map_reads_a_jpeg_picture(tmp_path, capsys):
    from sim.analysis.report import floor_picture
    from sim.editor.model import Document
    from sim.render.art import paint_floor

    green = Image.new("RGB", (96, 64), (10, 200, 30))
    buf = io.BytesIO()
    green.save(buf, format="JPEG", quality=95)
    src = write(tmp_path, room_doc(base64.b64encode(buf.getvalue()).decode()))
    out = tmp_path / "out.toml"
    assert run(capsys, src, "--out", out)[0] == 0
    g = load_map(out)
    assert g.image.suffix == ".jpg"
    floor = paint_floor(g, 16)                                   # the renderer's floor is the picture
    assert np.abs(floor[1 * 16 + 8, 2 * 16 + 8].astype(int) - (10, 200, 30)).max() <= 3
    assert floor_picture(g, 8).shape == (4 * 8, 6 * 8, 3)        # analyze's report
    # the editor saves it again beside its new name, the same bytes
    from sim.editor.save import save

    written = save(Document.from_grid(g), tmp_path / "copy.toml")
    assert (tmp_path / "copy.jpg").read_bytes() == out.with_suffix(".jpg").read_bytes()
    assert load_map(written.files[0]).image.name == "copy.jpg"
    for to, what in (("x.dd2vtt", "uvtt"), ("x.tmj", "tiled"), ("x.png", "overlay")):   # the exporters read it
        size = [] if what == "tiled" else ["--size", "medium"]
        assert main(["export", str(out), str(tmp_path / to), "--to", what, *size]) == 0, capsys.readouterr().err
    assert (tmp_path / "x-picture.jpg").read_bytes() == out.with_suffix(".jpg").read_bytes()
    assert main(["import", str(tmp_path / "x.tmj"), "--out", str(tmp_path / "back.toml")]) == 0   # and back
    assert load_map(tmp_path / "back.toml").image.read_bytes() == out.with_suffix(".jpg").read_bytes()


# ---------------------------------------------------------------- item 6: a bad field warns

BAD_IMAGES = [
    ("worlds/caves/maps/tomb.webp", "image: 'worlds/caves/maps/tomb.webp' is a file name, not the picture's base64 "
                                    "data; imported with a plain floor; give the picture with --image PICTURE "
                                    "(that file)"),
    ("https://example.org/tomb.png", "image: 'https://example.org/tomb.png' is a file name"),
    ("not base64 !!", "image: not valid base64 (Only base64 data is allowed); imported with a plain floor; give "
                      "the picture with --image PICTURE, or re-export the map"),
    (base64.b64encode(b"hello world, not a picture").decode(),
     "image: not a picture Pillow can read (UnidentifiedImageError); imported with a plain floor"),
    (base64.b64encode(picture("PNG", 96, 64)[:300]).decode(), "image: not a picture Pillow can read"),
    (base64.b64encode(picture("JPEG", 96, 64)[:400]).decode(), "image: not a picture Pillow can read (OSError)"),
    (base64.b64encode(picture("GIF", 96, 64)).decode(), "image: a GIF picture; the map's picture is PNG, WebP or JPEG"),
    (12, "image: must be a base64 string, got 12; imported with a plain floor"),
]


@pytest.mark.parametrize("image, warning", BAD_IMAGES)
def test_a_bad_image_field_warns_and_keeps_the_walls(tmp_path, capsys, image, warning):
    src = write(tmp_path, room_doc(image))
    out = tmp_path / "out.toml"
    code, _, err = run(capsys, src, "--out", out)
    assert code == 0 and "Traceback" not in err
    ws = warnings_of(err)
    assert len(ws) == 1 and ws[0].startswith(f"{src}: image: ") and warning in ws[0], ws
    g = load_map(out)
    assert g.image is None and sorted(p.name for p in tmp_path.glob("out.*")) == ["out.toml"]   # a plain floor
    assert int((~g.rock).sum()) == 8 and g.width_ft[1, 1] == 10.0                          # the walls kept


def test_image_option_supplies_the_picture_the_file_names(tmp_path, capsys):
    blob = picture("WEBP", 96, 64)
    (tmp_path / "tomb.webp").write_bytes(blob)
    src = write(tmp_path, room_doc("worlds/caves/maps/tomb.webp"))
    out = tmp_path / "out.toml"
    code, _, err = run(capsys, src, "--out", out, "--image", tmp_path / "tomb.webp")
    assert code == 0 and warnings_of(err) == []                  # the file's own warning is answered
    assert out.with_suffix(".webp").read_bytes() == blob
    assert load_map(out).image.name == "out.webp"
    # --image also replaces a good embedded picture; a wrong size is stretched with a warning
    (tmp_path / "wide.png").write_bytes(picture("PNG", 100, 64))
    src = write(tmp_path, room_doc(base64.b64encode(picture("PNG", 96, 64, seed=3)).decode()), "n.dd2vtt")
    code, _, err = run(capsys, src, "--out", out, "--image", tmp_path / "wide.png")
    assert code == 0 and warnings_of(err) == [f"--image {tmp_path / 'wide.png'}: 100 x 64 pixels, but the map is "
                                              "6 x 4 squares of 16 pixels (96 x 64); it is stretched to the grid"]
    with Image.open(out.with_suffix(".png")) as im:
        assert im.size == (96, 64)


def _bomb_png(w: int, h: int) -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("make, needle", [
    (lambda d: d / "missing.png", "no such file"),
    (lambda d: d, "is a directory"),
    (lambda d: (d / "t.txt").write_text("hello") and d / "t.txt", "not a picture Pillow can read"),
    (lambda d: (d / "a.gif").write_bytes(picture("GIF", 8, 8)) and d / "a.gif", "a GIF picture"),
    (lambda d: (d / "big.png").write_bytes(_bomb_png(9400, 9400)) and d / "big.png",
     "9400 x 9400 pixels is over the 64 million pixel limit"),
])
def test_a_bad_image_option_is_refused_nothing_written(tmp_path, capsys, make, needle):
    pics = tmp_path / "pics"
    pics.mkdir()
    bad = make(pics)
    src = write(tmp_path, room_doc())
    before = sorted(os.listdir(tmp_path))
    code, out, err = run(capsys, src, "--out", tmp_path / "out.toml", "--image", bad)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("cavesim: error: --image "), err
    assert str(bad) in lines[0] and needle in lines[0], lines[0]
    assert sorted(os.listdir(tmp_path)) == before


# ---------------------------------------------------------------- the speed: a 6144 x 3456 picture

def big_doc(path: Path, fmt: str) -> None:
    """A 48 x 27-square map at 128 px a square (a 6144 x 3456 picture, noisy as a painted map is)
    with twelve 8 x 6-square rooms."""
    rng = np.random.default_rng(7)
    walls = []
    for gx in range(4):
        for gy in range(3):
            x0, y0 = 2 + gx * 11, 2 + gy * 8
            walls.append([pt(x0, y0), pt(x0 + 8, y0), pt(x0 + 8, y0 + 6), pt(x0, y0 + 6), pt(x0, y0)])
    base = rng.integers(40, 200, (27, 48, 3)).astype(np.int16)
    a = np.kron(base, np.ones((128, 128, 1), dtype=np.int16)) + rng.integers(-30, 31, (3456, 6144, 3),
                                                                              dtype=np.int16)
    buf = io.BytesIO()
    Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)).save(buf, format=fmt, quality=85)
    doc = {"format": 1.0, "resolution": {"map_origin": pt(0, 0), "map_size": pt(48, 27), "pixels_per_grid": 128},
           "line_of_sight": walls, "objects_line_of_sight": [], "portals": [], "lights": [],
           "image": base64.b64encode(buf.getvalue()).decode()}
    path.write_text(json.dumps(doc))


@pytest.mark.slow
def test_a_48_by_27_map_at_128_px_a_square_imports_in_under_8_s(tmp_path):
    """The CPU time of the whole command in a child process (start-up, the JSON, the picture's
    check, the widths, the summary), the figure docs/import-ceilings-pictures.md gives. Was 18 s
    (7.5 s of it re-encoding the picture as PNG)."""
    src = tmp_path / "big.dd2vtt"
    big_doc(src, "JPEG")
    code = ("import resource, sys\nfrom sim.cli import main\nrc = main(sys.argv[1:])\n"
            "u = resource.getrusage(resource.RUSAGE_SELF)\nprint(u.ru_utime + u.ru_stime, file=sys.stderr)\n"
            "sys.exit(rc)")
    r = subprocess.run([sys.executable, "-c", code, "import", str(src), "--out", str(tmp_path / "big.toml")],
                       capture_output=True, text=True, timeout=300, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    cpu = float(r.stderr.strip().splitlines()[-1])
    assert cpu < 8.0, cpu
    blob = base64.b64decode(json.loads(src.read_text())["image"])
    assert (tmp_path / "big.jpg").read_bytes() == blob
