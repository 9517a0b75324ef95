"""Maps kept as pictures into cavesim (``cavesim import MAP.png --out MAP.toml``).

Three kinds of PNG are read; in each, one pixel, or one ``k`` x ``k`` block of identical pixels
(``--px-per-square K``), is one 5-ft square, top-left square first:

* **quarter-feet RGBA** (RGB or RGBA): red = passage width and green = ceiling height in quarter
  feet (0..255 = 0..63.75 ft), blue bit 0 = difficult ground, alpha 0 = rock (as is a width or
  ceiling of 0);
* **two 16-bit greys** (``I;16`` width image plus ``--ceiling-image`` of the same size, same
  mode): values in hundredths of a foot (0..65535 = 0..655.35 ft), 0 = rock. 8-bit grey (``L``)
  pairs are read in quarter feet, like the RGBA channels;
* **legend image** (``--legend LEGEND.toml``): each exact colour is one entry of the file's
  ``[legend]`` table, written ``"#rrggbb" = { width = 10, height = 12 }`` or ``"#rrggbb" =
  "wall"``, as glyphs are in a map; there is no nearest-colour guessing, and a transparent pixel
  (alpha 0) is rock.

Only PNG is read: JPEG and other lossy pictures change colours, so they are refused. A picture's
gamma or colour-profile chunk (``gAMA``, ``iCCP``, ``sRGB``, ``cHRM``) only warns: the stored
values are what is read, whatever a viewer shows.

>>> import numpy as np
>>> px = np.array([[[40, 48, 1, 255], [0, 0, 0, 0]]], dtype=np.uint8)   # 10 ft wide, 12 ft, rubble
>>> a = quarter_feet_arrays(px, 1, where="x.png")
>>> a["width_ft"].tolist(), a["height_ft"].tolist(), a["difficult"].tolist(), a["rock"].tolist()
([[10.0, 0.0]], [[12.0, 0.0]], [[True, False]], [[False, True]])
"""

from __future__ import annotations

import io
import re
import warnings as pywarnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from sim.base.errors import DataError
from sim.base.fileio import check_input_file, read_input, read_toml
from sim.maps.limits import DEFAULT_MAX_SIZE
from sim.maps.read import UNITS, WALL_WORDS, to_feet
from sim.terrain.grid import CaveGrid

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PIXELS = 64_000_000
MODES = ("RGB", "RGBA", "L", "I;16")
_I16 = ("I;16", "I;16B", "I;16L", "I")   # Pillow's names for a 16-bit grey PNG (by version)
_COLOUR = re.compile(r"#([0-9a-fA-F]{6})")
_CHUNK_WARN = {"gamma": "gAMA (gamma)", "icc_profile": "iCCP (colour profile)", "srgb": "sRGB (rendering intent)",
               "chromaticity": "cHRM (chromaticities)"}


@dataclass(frozen=True, slots=True)
class Picture:
    path: Path
    pixels: np.ndarray      # [y, x] or [y, x, channel]
    mode: str               # "RGB", "RGBA", "L" or "I;16"
    warnings: tuple[str, ...]


def open_png(path: str | Path, *, what: str = "image") -> Picture:
    """Open and check one PNG (format, mode, size) before decoding it."""
    path = Path(path)
    check_input_file(path, what=f"PNG {what}", limit=2**62)   # a FIFO, a device, a folder: said, never waited on
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise DataError(f"{path}: the {what} is {size / 2**20:.0f} MB, over the {MAX_FILE_BYTES // 2**20} MB limit")
    raw = read_input(path, what=f"PNG {what}", limit=MAX_FILE_BYTES)
    try:
        with pywarnings.catch_warnings():
            pywarnings.simplefilter("ignore", Image.DecompressionBombWarning)   # the size is checked below
            im = Image.open(io.BytesIO(raw))                                   # the header only
    except Image.DecompressionBombError:
        raise DataError(f"{path}: over the {MAX_PIXELS // 10**6} million pixel limit; scale it down to one pixel "
                        "per square") from None
    except Image.UnidentifiedImageError:
        raise DataError(f"{path}: not a picture Pillow can read (not a PNG, or its header is damaged); save the "
                        f"{what} as PNG") from None
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: not a picture Pillow can read ({exc}); save the {what} as PNG") from None
    with im:
        if im.format == "JPEG":
            raise DataError(f"{path}: is a JPEG; JPEG is lossy and changes the colours that hold the widths; "
                            "save the map as PNG (lossless)")
        if im.format != "PNG":
            raise DataError(f"{path}: is {im.format or 'an unknown format'}, not PNG; save the {what} as PNG")
        mode = "I;16" if im.mode in _I16 else im.mode
        if mode not in MODES:
            raise DataError(f"{path}: image mode {im.mode!r} is not supported; save it as RGB, RGBA, 8-bit grey (L) "
                            "or 16-bit grey (I;16) PNG, without a palette (e.g. in GIMP: Image > Mode > RGB)")
        if mode in ("RGB", "RGBA") and im.tile and ";16" in str(im.tile[0][3]):
            raise DataError(f"{path}: a 16-bit-per-channel {mode} PNG; Pillow would read it as 8 bits and change the "
                            "values; save it with 8 bits per channel (or use two 16-bit grey pictures)")
        w, h = im.size
        if w * h > MAX_PIXELS:
            raise DataError(f"{path}: {w}x{h} px is over the {MAX_PIXELS // 10**6} million pixel limit; "
                            "scale it down to one pixel per square")
        warnings = tuple(f"{path}: has a {_CHUNK_WARN[k]} chunk; it is ignored: the stored pixel values are read, "
                         "not the colours a viewer shows" for k in _CHUNK_WARN if k in im.info)
        try:
            im.load()
        except (OSError, ValueError) as exc:
            raise DataError(f"{path}: the PNG data is damaged ({exc}); save it again") from None
        if mode == "I;16":
            px = np.asarray(im, dtype=np.int64)
            if px.min(initial=0) < 0 or px.max(initial=0) > 65535:
                raise DataError(f"{path}: 16-bit grey values must be 0..65535")
            px = px.astype(np.uint16)
        else:
            px = np.asarray(im, dtype=np.uint8).copy()
    return Picture(path, px, mode, warnings)


def grid_shape(pic: Picture, k: int, *, max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> tuple[int, int]:
    """``(rows, cols)`` of the squares in ``pic`` at ``k`` px per square."""
    h, w = pic.pixels.shape[:2]
    if w % k or h % k:
        raise DataError(f"{pic.path}: the image is {w}x{h} px, not a multiple of {k} px per square "
                        f"({w % k} px left over across, {h % k} down); crop it or give the right --px-per-square")
    cols, rows = w // k, h // k
    if cols > max_size[0] or rows > max_size[1]:
        raise DataError(f"{pic.path}: {cols}x{rows} squares is over the map size limit of "
                        f"{max_size[0]}x{max_size[1]}; raise it with --max-map-size")
    return rows, cols


def blocks(px: np.ndarray, k: int, *, where: str) -> np.ndarray:
    """One value per ``k`` x ``k`` block; every pixel of a block must be the same."""
    h, w = px.shape[:2]
    rows, cols = h // k, w // k
    if k == 1:
        return px
    shaped = px.reshape((rows, k, cols, k) + px.shape[2:])
    first = shaped[:, :1, :, :1]
    same = (shaped == first)
    if same.ndim == 5:
        same = same.all(axis=4)
    uniform = same.all(axis=(1, 3))
    if not uniform.all():
        r, c = np.argwhere(~uniform)[0]
        n = int((~uniform).sum())
        raise DataError(f"{where}: square ({int(c)}, {int(r)}) (pixels {int(c) * k}..{int(c) * k + k - 1}, "
                        f"{int(r) * k}..{int(r) * k + k - 1}) is not one colour ({n} square{'s' if n > 1 else ''} "
                        "like it); paint each square one flat colour (no anti-aliasing or smoothing)")
    return shaped[:, 0, :, 0]


def quarter_feet_arrays(px: np.ndarray, k: int, *, where: str) -> dict[str, np.ndarray]:
    """RGB(A) pixels -> arrays: red = width, green = ceiling, quarter feet; blue bit 0 difficult;
    alpha 0 rock."""
    sq = blocks(px, k, where=where)
    w = sq[..., 0].astype(np.float64) / 4.0
    h = sq[..., 1].astype(np.float64) / 4.0
    diff = (sq[..., 2] & 1).astype(bool)
    rock = (w <= 0) | (h <= 0)
    if sq.shape[-1] == 4:
        rock |= sq[..., 3] == 0
    return _arrays(w, h, diff, rock)


def grey_arrays(width: Picture, ceiling: Picture, k: int) -> dict[str, np.ndarray]:
    """Two grey pictures -> arrays: I;16 in hundredths of a foot, L in quarter feet; 0 = rock."""
    if ceiling.mode != width.mode:
        raise DataError(f"{ceiling.path}: the ceiling image is {ceiling.mode}, the width image {width.path} is "
                        f"{width.mode}; save both as 16-bit grey (I;16) or both as 8-bit grey (L)")
    if ceiling.pixels.shape != width.pixels.shape:
        (h1, w1), (h2, w2) = width.pixels.shape, ceiling.pixels.shape
        raise DataError(f"{ceiling.path}: the ceiling image is {w2}x{h2} px, the width image {width.path} is "
                        f"{w1}x{h1}; both must cover the same squares at the same scale")
    scale = 100.0 if width.mode == "I;16" else 4.0
    w = blocks(width.pixels, k, where=str(width.path)).astype(np.float64) / scale
    h = blocks(ceiling.pixels, k, where=str(ceiling.path)).astype(np.float64) / scale
    return _arrays(w, h, np.zeros(w.shape, bool), (w <= 0) | (h <= 0))


@dataclass(frozen=True, slots=True)
class ColourLegend:
    path: Path
    entries: dict[int, tuple[float, float, bool, bool]]   # 0xRRGGBB -> (width ft, height ft, difficult, rock)
    name: str | None = None
    description: str = ""


def read_colour_legend(path: str | Path) -> ColourLegend:
    """A legend TOML whose keys are colours (``"#rrggbb"``); values as a map legend's glyphs."""
    path = Path(path)
    data, _text = read_toml(path)
    problems: list[str] = []
    for key in data:
        if key not in ("legend", "map"):
            problems.append(f"{path}: {key}: unknown table; a colour legend has [legend] (and optionally [map] "
                            "name, units, description)")
    m = data.get("map", {})
    if not isinstance(m, dict):
        m = {}
    units = m.get("units", "ft")
    if units not in UNITS:
        problems.append(f"{path}: [map] units: unknown units {units!r}; use \"ft\" or \"m\"")
        units = "ft"
    for key in m:
        if key not in ("name", "units", "description"):
            problems.append(f"{path}: [map] {key}: unknown key; allowed: description, name, units")
    legend = data.get("legend")
    if not isinstance(legend, dict) or not legend:
        problems.append(f"{path}: [legend]: missing; add [legend] with \"#rrggbb\" = {{ width = FT, height = FT }} "
                        "or \"#rrggbb\" = \"wall\" for each colour of the image")
        legend = {}
    entries: dict[int, tuple[float, float, bool, bool]] = {}
    for key, spec in legend.items():
        where = f"{path}: [legend] {key!r}"
        mk = _COLOUR.fullmatch(key)
        if not mk:
            problems.append(f"{where}: a colour key is written \"#rrggbb\" (six hex digits), e.g. \"#c8b496\"")
            continue
        rgb = int(mk.group(1), 16)
        if rgb in entries:
            problems.append(f"{where}: the colour is given twice; keep one entry")
            continue
        entry = _legend_entry(spec, units, where, problems)
        if entry is not None:
            entries[rgb] = entry
    if problems:
        raise DataError.collect(problems)
    name = m.get("name")
    return ColourLegend(path, entries, name if isinstance(name, str) else None, str(m.get("description", "")))


def _legend_entry(spec: Any, units: str, where: str, problems: list[str]):
    if isinstance(spec, str):
        if spec.lower() in WALL_WORDS:
            return (0.0, 0.0, False, True)
        problems.append(f"{where}: unknown terrain {spec!r}; use \"wall\" or {{ width = FT, height = FT }}")
        return None
    if not isinstance(spec, dict):
        problems.append(f"{where}: must be \"wall\" or {{ width = FT, height = FT, difficult = false }}")
        return None
    ok = True
    for k in spec:
        if k not in ("width", "height", "difficult"):
            problems.append(f"{where}.{k}: unknown key; allowed: difficult, height, width")
            ok = False
    vals = []
    for k in ("width", "height"):
        v = spec.get(k)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) or v <= 0:
            problems.append(f"{where}.{k}: must be a number of {units} > 0 (use \"wall\" for rock), got {v!r}")
            ok = False
            continue
        vals.append(to_feet(v, units))
    diff = spec.get("difficult", False)
    if not isinstance(diff, bool):
        problems.append(f"{where}.difficult: must be true or false, got {diff!r}")
        ok = False
    return (vals[0], vals[1], diff, False) if ok else None


def legend_arrays(pic: Picture, legend: ColourLegend, k: int) -> dict[str, np.ndarray]:
    """Each exact colour -> its legend entry; alpha 0 -> rock; no entry -> refused."""
    px = pic.pixels
    if pic.mode == "L":
        px = np.repeat(px[..., None], 3, axis=2)
    elif pic.mode == "I;16":
        raise DataError(f"{pic.path}: a legend image holds colours; save it as RGB or RGBA PNG, not 16-bit grey")
    sq = blocks(px, k, where=str(pic.path))
    rgb = (sq[..., 0].astype(np.uint32) << 16) | (sq[..., 1].astype(np.uint32) << 8) | sq[..., 2].astype(np.uint32)
    clear = np.zeros(rgb.shape, bool)
    if sq.shape[-1] == 4:
        a = sq[..., 3]
        half = (a > 0) & (a < 255)
        if half.any():
            r, c = np.argwhere(half)[0]
            raise DataError(f"{pic.path}: square ({int(c)}, {int(r)}) is half transparent (alpha {int(a[r, c])}); "
                            "a legend image's pixels are opaque colours, or fully transparent for rock")
        clear = a == 0
    colours, inverse = np.unique(rgb, return_inverse=True)
    inverse = inverse.reshape(rgb.shape)
    lut = np.zeros((len(colours), 4))
    for i, col in enumerate(colours.tolist()):
        used = (inverse == i) & ~clear
        if not used.any():
            lut[i] = (0, 0, 0, 1)
            continue
        if col not in legend.entries:
            r, c = np.argwhere(used)[0]
            known = ", ".join(f"#{v:06x}" for v in sorted(legend.entries)[:8])
            raise DataError(f"{pic.path}: square ({int(c)}, {int(r)}) has colour #{col:06x} ({int(used.sum())} "
                            f"squares), which {legend.path} [legend] does not name; add \"#{col:06x}\" = {{ width = FT, "
                            f"height = FT }} or repaint those squares (legend colours: {known})")
        w, h, d, rk = legend.entries[col]
        lut[i] = (w, h, float(d), float(rk))
    vals = lut[inverse]
    rock = vals[..., 3].astype(bool) | clear
    return _arrays(vals[..., 0], vals[..., 1], vals[..., 2].astype(bool), rock)


def _arrays(w, h, diff, rock) -> dict[str, np.ndarray]:
    rock = rock | (w <= 0) | (h <= 0)
    return {"width_ft": np.where(rock, 0.0, w), "height_ft": np.where(rock, 0.0, h),
            "difficult": diff & ~rock, "rock": rock}


def read_image_grid(path: str | Path, *, k: int = 1, ceiling_image: str | Path | None = None,
                    legend: str | Path | None = None,
                    max_size: tuple[int, int] = DEFAULT_MAX_SIZE) -> tuple[CaveGrid, tuple[str, ...]]:
    """Read a picture map into a :class:`CaveGrid`; returns the grid and the warnings."""
    if k < 1:
        raise DataError(f"--px-per-square {k}: give a whole number >= 1")
    if legend is not None and ceiling_image is not None:
        raise DataError("--legend and --ceiling-image exclude each other: a legend image holds both lengths")
    path = Path(path)
    pic = open_png(path)
    warnings = list(pic.warnings)
    grid_shape(pic, k, max_size=max_size)
    name, description = path.stem, ""
    if legend is not None:
        leg = read_colour_legend(legend)
        a = legend_arrays(pic, leg, k)
        name, description = leg.name or name, leg.description
    elif pic.mode in ("L", "I;16"):
        if ceiling_image is None:
            raise DataError(f"{path}: is a grey ({pic.mode}) picture: the widths; give the ceilings as a second grey "
                            "picture of the same size with --ceiling-image FILE (or use an RGBA quarter-feet "
                            "picture, or --legend)")
        ceil = open_png(ceiling_image, what="ceiling image")
        warnings += ceil.warnings
        a = grey_arrays(pic, ceil, k)
    else:
        if ceiling_image is not None:
            raise DataError(f"{path}: is an {pic.mode} picture, which holds the ceilings itself (green channel); "
                            "--ceiling-image goes with a grey (L or I;16) width picture")
        a = quarter_feet_arrays(pic.pixels, k, where=str(path))
    grid = CaveGrid.from_arrays(a["width_ft"], a["height_ft"], difficult=a["difficult"], rock=a["rock"],
                                name=name, description=description, source=str(path))
    return grid, tuple(warnings)
