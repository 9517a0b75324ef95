"""Picture maps: quarter-feet RGBA, two 16-bit greys, legend images; and their refusals."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from sim.cli import main
from sim.maps.importers.image import read_image_grid
from sim.maps.read import load_map

# the cave every picture below encodes: (width ft, ceiling ft, difficult); None = rock
CAVE = [
    [None, None, None, None, None],
    [None, (10.0, 12.0, False), (2.25, 8.0, False), (10.0, 8.0, True), None],
    [None, (6.0, 2.5, False), (0.25, 63.75, False), (10.0, 12.0, False), None],
    [None, None, None, None, None],
]


def expect():
    w = np.array([[0 if s is None else s[0] for s in row] for row in CAVE])
    h = np.array([[0 if s is None else s[1] for s in row] for row in CAVE])
    d = np.array([[False if s is None else s[2] for s in row] for row in CAVE])
    return w, h, d, w == 0


def rgba_pixels(k=1, *, alpha=True):
    px = np.zeros((len(CAVE), len(CAVE[0]), 4 if alpha else 3), np.uint8)
    for r, row in enumerate(CAVE):
        for c, s in enumerate(row):
            if s is not None:
                px[r, c, :3] = (int(s[0] * 4), int(s[1] * 4), 1 if s[2] else 0)
                if alpha:
                    px[r, c, 3] = 255
            elif alpha:
                px[r, c] = (200, 200, 0, 0)  # a transparent pixel is rock whatever its colour
    return px.repeat(k, 0).repeat(k, 1)


def save(px, path, mode=None, **kw):
    Image.fromarray(px, mode).save(path, **kw) if mode else Image.fromarray(px).save(path, **kw)
    return path


def check(g):
    w, h, d, rock = expect()
    assert np.array_equal(g.width_ft, w) and np.array_equal(g.height_ft, h)
    assert np.array_equal(g.difficult, d) and np.array_equal(g.rock, rock)


@pytest.mark.parametrize("k", [1, 3, 16])
def test_quarter_feet_rgba(tmp_path, k):
    g, warnings = read_image_grid(save(rgba_pixels(k), tmp_path / "m.png"), k=k)
    check(g)
    assert warnings == ()


def test_quarter_feet_rgb_without_alpha_uses_zero_for_rock(tmp_path):
    check(read_image_grid(save(rgba_pixels(alpha=False), tmp_path / "m.png"))[0])


def test_two_16_bit_greys_in_hundredths(tmp_path):
    w, h, _, _ = expect()
    wi = Image.new("I;16", (w.shape[1], w.shape[0]))
    wi.frombytes((w * 100).round().astype("<u2").tobytes())
    hi = Image.new("I;16", (w.shape[1], w.shape[0]))
    hi.frombytes((h * 100).round().astype("<u2").tobytes())
    wi.save(tmp_path / "w.png")
    hi.save(tmp_path / "h.png")
    assert Image.open(tmp_path / "w.png").mode in ("I;16", "I")
    g, _ = read_image_grid(tmp_path / "w.png", ceiling_image=tmp_path / "h.png")
    assert np.array_equal(g.width_ft, w) and np.array_equal(g.height_ft, h)
    assert not g.difficult.any()
    # 655.35 ft is the largest a 16-bit grey holds; 0.01 ft the finest step
    wi2 = Image.new("I;16", (2, 1))
    wi2.frombytes(np.array([65535, 1], "<u2").tobytes())
    wi2.save(tmp_path / "w2.png")
    wi2.save(tmp_path / "h2.png")
    g2, _ = read_image_grid(tmp_path / "w2.png", ceiling_image=tmp_path / "h2.png")
    assert g2.width_ft.tolist() == [[655.35, 0.01]]


def test_two_8_bit_greys_in_quarter_feet(tmp_path):
    w, h, _, _ = expect()
    save((w * 4).astype(np.uint8), tmp_path / "w.png", "L")
    save((h * 4).astype(np.uint8), tmp_path / "h.png", "L")
    g, _ = read_image_grid(tmp_path / "w.png", ceiling_image=tmp_path / "h.png")
    assert np.array_equal(g.width_ft, w) and np.array_equal(g.height_ft, h)


LEGEND = """\
[map]
name = "painted"
[legend]
"#202020" = "wall"
"#C8B496" = { width = 10, height = 12 }
"#8040a0" = { width = 2.25, height = 8 }
"#806040" = { width = 10, height = 8, difficult = true }
"#c05030" = { width = 6, height = 2.5 }
"#300030" = { width = 0.25, height = 63.75 }
"#00ff00" = { width = 99, height = 99 }
"""
COLOURS = {None: (0x20, 0x20, 0x20), (10.0, 12.0, False): (0xC8, 0xB4, 0x96), (2.25, 8.0, False): (0x80, 0x40, 0xA0),
           (10.0, 8.0, True): (0x80, 0x60, 0x40), (6.0, 2.5, False): (0xC0, 0x50, 0x30),
           (0.25, 63.75, False): (0x30, 0x00, 0x30)}


def legend_pixels(k=1):
    px = np.array([[COLOURS[s] for s in row] for row in CAVE], np.uint8)
    return px.repeat(k, 0).repeat(k, 1)


@pytest.mark.parametrize("k", [1, 4])
def test_legend_image(tmp_path, k):
    (tmp_path / "legend.toml").write_text(LEGEND)
    g, _ = read_image_grid(save(legend_pixels(k), tmp_path / "m.png"), k=k, legend=tmp_path / "legend.toml")
    check(g)
    assert g.name == "painted"


def test_legend_image_transparent_is_rock_and_half_alpha_refused(tmp_path, capsys):
    (tmp_path / "legend.toml").write_text(LEGEND)
    rgb = legend_pixels()
    a = np.full(rgb.shape[:2], 255, np.uint8)
    a[0, 0] = 0
    rgb[0, 0] = (1, 2, 3)  # no entry, but transparent: rock
    check(read_image_grid(save(np.dstack([rgb, a]), tmp_path / "m.png"), legend=tmp_path / "legend.toml")[0])
    a[2, 3] = 128
    save(np.dstack([rgb, a]), tmp_path / "m.png")
    bad(tmp_path, capsys, ["m.png", "--legend", "legend.toml"], "square (3, 2) is half transparent (alpha 128)")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 4), st.data())
def test_quarter_feet_property(tmp_path, cols, rows, k, data):
    """Any RGBA picture: width = red / 4, ceiling = green / 4, difficult = blue bit 0, rock = alpha 0
    or a zero length."""
    px = np.array(data.draw(st.lists(st.integers(0, 255), min_size=rows * cols * 4, max_size=rows * cols * 4)),
                  np.uint8).reshape(rows, cols, 4)
    g, _ = read_image_grid(save(px.repeat(k, 0).repeat(k, 1), tmp_path / "p.png"), k=k)
    rock = (px[..., 3] == 0) | (px[..., 0] == 0) | (px[..., 1] == 0)
    assert np.array_equal(g.rock, rock)
    assert np.array_equal(g.width_ft, np.where(rock, 0, px[..., 0] / 4))
    assert np.array_equal(g.height_ft, np.where(rock, 0, px[..., 1] / 4))
    assert np.array_equal(g.difficult, (px[..., 2] & 1).astype(bool) & ~rock)


# -- the command line and bad input --------------------------------------------------------------

def test_cli_import_png(tmp_path, capsys):
    save(rgba_pixels(2), tmp_path / "m.png")
    out = tmp_path / "m.toml"
    assert main(["import", str(tmp_path / "m.png"), "--out", str(out), "--px-per-square", "2",
                 "--point", "start=1,1"]) == 0
    g = load_map(out)
    check(g)
    assert g.points == {"start": (1, 1)}


def bad(tmp_path, capsys, argv, pattern, *, code=2):
    out = tmp_path / "out.toml"
    argv = [str(tmp_path / a) if a.endswith((".png", ".toml", ".jpg")) else a for a in argv]
    assert main(["import", argv[0], "--out", str(out), *argv[1:]]) == code
    err = capsys.readouterr().err
    assert pattern in err, err
    assert "Traceback" not in err
    if code == 2:
        assert len(err.strip().splitlines()) == 1, err
        assert not out.exists()
    return err


def test_jpeg_refused_by_suffix_and_by_content(tmp_path, capsys):
    Image.fromarray(legend_pixels()).save(tmp_path / "m.jpg", format="JPEG")
    bad(tmp_path, capsys, ["m.jpg"], "is a JPEG; JPEG is lossy")
    Image.fromarray(legend_pixels()).save(tmp_path / "n.png", format="JPEG")  # a JPEG named .png
    bad(tmp_path, capsys, ["n.png"], "n.png: is a JPEG; JPEG is lossy")


@pytest.mark.parametrize("mode", ["P", "LA", "1", "CMYK"])
def test_other_modes_refused(tmp_path, capsys, mode):
    base = Image.fromarray(legend_pixels())
    if mode == "CMYK":
        base.convert("CMYK").save(tmp_path / "m.png", format="TIFF")   # PNG has no CMYK: a TIFF named .png
        bad(tmp_path, capsys, ["m.png"], "is TIFF, not PNG")
        return
    base.convert(mode).save(tmp_path / "m.png")
    bad(tmp_path, capsys, ["m.png"], f"image mode {mode!r} is not supported")


def _png16_rgb(w: int, h: int) -> bytes:
    """A 16-bit-per-channel RGB PNG, written by hand (Pillow cannot write one)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + struct.pack(">" + "H" * 3 * w, *([10240, 12288, 1] * w)) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_16_bit_colour_refused(tmp_path, capsys):
    (tmp_path / "m.png").write_bytes(_png16_rgb(5, 4))
    assert Image.open(tmp_path / "m.png").mode == "RGB"   # what Pillow would silently make of it
    bad(tmp_path, capsys, ["m.png"], "a 16-bit-per-channel RGB PNG; Pillow would read it as 8 bits")


def test_size_not_a_multiple_of_the_grid(tmp_path, capsys):
    save(rgba_pixels(3)[:, :-1], tmp_path / "m.png")
    bad(tmp_path, capsys, ["m.png", "--px-per-square", "3"], "the image is 14x12 px, not a multiple of 3 px per square")


def test_block_of_two_colours_refused(tmp_path, capsys):
    px = rgba_pixels(4)
    px[5, 6] = (1, 1, 1, 255)  # one stray pixel in square (1, 1)
    save(px, tmp_path / "m.png")
    bad(tmp_path, capsys, ["m.png", "--px-per-square", "4"], "square (1, 1) (pixels 4..7, 4..7) is not one colour")


def test_colour_with_no_legend_entry(tmp_path, capsys):
    (tmp_path / "legend.toml").write_text(LEGEND)
    px = legend_pixels()
    px[2, 1] = (1, 2, 3)
    save(px, tmp_path / "m.png")
    bad(tmp_path, capsys, ["m.png", "--legend", "legend.toml"],
        "square (1, 2) has colour #010203 (1 squares), which")


def test_bad_legend_files(tmp_path, capsys):
    save(legend_pixels(), tmp_path / "m.png")
    (tmp_path / "legend.toml").write_text('[legend]\n"c8b496" = { width = 10, height = 12 }\n')
    bad(tmp_path, capsys, ["m.png", "--legend", "legend.toml"], "a colour key is written \"#rrggbb\"")
    (tmp_path / "legend.toml").write_text('[legend]\n"#c8b496" = { width = -1, height = 12 }\n')
    bad(tmp_path, capsys, ["m.png", "--legend", "legend.toml"], "[legend] '#c8b496'.width: must be a number of ft > 0")
    (tmp_path / "legend.toml").write_text('[legend]\n"#c8b496" = "lava"\n')
    bad(tmp_path, capsys, ["m.png", "--legend", "legend.toml"], "unknown terrain 'lava'")


def test_grey_pairs_must_match(tmp_path, capsys):
    w, h, _, _ = expect()
    save((w * 4).astype(np.uint8), tmp_path / "w.png", "L")
    bad(tmp_path, capsys, ["w.png"], "give the ceilings as a second grey picture of the same size with --ceiling-image")
    save((h * 4).astype(np.uint8)[:, :4], tmp_path / "h.png", "L")
    bad(tmp_path, capsys, ["w.png", "--ceiling-image", "h.png"], "the ceiling image is 4x4 px, the width image")
    hi = Image.new("I;16", (5, 4))
    hi.save(tmp_path / "h.png")
    bad(tmp_path, capsys, ["w.png", "--ceiling-image", "h.png"], "save both as 16-bit grey (I;16) or both as 8-bit grey")


def _png_with_chunk(px: np.ndarray, chunk: bytes, data: bytes) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(px).save(buf, format="PNG")
    raw = buf.getvalue()
    at = raw.index(b"IDAT") - 4
    body = chunk + data
    return raw[:at] + struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body)) + raw[at:]


@pytest.mark.parametrize("chunk,data,word", [(b"gAMA", struct.pack(">I", 45455), "gAMA (gamma)"),
                                             (b"sRGB", b"\x00", "sRGB"),
                                             (b"iCCP", b"p\x00\x00" + zlib.compress(b"\x00" * 128), "iCCP")])
def test_gamma_and_profile_chunks_only_warn(tmp_path, capsys, chunk, data, word):
    (tmp_path / "m.png").write_bytes(_png_with_chunk(rgba_pixels(), chunk, data))
    out = tmp_path / "m.toml"
    assert main(["import", str(tmp_path / "m.png"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "cavesim: warning:" in err and word in err and "it is ignored" in err
    check(load_map(out))


def test_oversized_picture_refused_before_decoding(tmp_path, capsys):
    # a 9000 x 9000 grey picture compresses to almost nothing but is 81 M pixels
    Image.new("L", (9000, 9000)).save(tmp_path / "big.png")
    bad(tmp_path, capsys, ["big.png"], "9000x9000 px is over the 64 million pixel limit")
