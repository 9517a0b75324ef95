"""The rules' answer for one body as a transparent PNG (``cavesim export MAP --to overlay``).

Each floor square is tinted with its constricted-space category (RULES §2.1, the colours of the
renderer's overlays, :data:`sim.maps.palette.CATEGORY_RGB`); Clear squares and rock are fully
transparent, so the picture lays over the map's own image in a virtual tabletop and only the
places where the rules bite show. Impassable floor (floor this body cannot enter) is darker and
more opaque than the constricted categories. Each tinted square has a solid rim one pixel in from
its edge (wider on large squares) so neighbouring squares of one category still read as squares.

The scale is the map's own image (``k`` = image width / columns pixels per square), so square
(x, y) covers pixels ``[x*k, (x+1)*k) x [y*k, (y+1)*k)`` exactly as on the image; a map without an
image uses :data:`DEFAULT_PX` (or the caller's ``k``).

>>> import numpy as np
>>> cats = np.array([[0, 3], [6, 6]], dtype=np.uint8)
>>> rock = np.array([[False, False], [False, True]])
>>> img = overlay_rgba(cats, rock, 4)
>>> img.shape, int(img[1, 1, 3]), img[1, 5].tolist(), int(img[7, 7, 3])
((8, 8, 4), 0, [222, 84, 60, 120], 0)
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from sim.base.errors import DataError
from sim.base.fileio import atomic_path
from sim.maps.palette import category_rgb
from sim.rules.categories import Category
from sim.terrain.grid import CaveGrid

DEFAULT_PX = 50          # pixels per square without a map image (MapTool's default grid size)
MAX_PIXELS = 64_000_000  # 8000 x 8000: a 256 MB RGBA picture
ALPHA = 120              # constricted categories
ALPHA_BLOCKED = 170      # Impassable floor
ALPHA_RIM = 210


def square_tiles(k: int) -> np.ndarray:
    """``(8, k, k, 4)`` uint8: the picture of one square of each category (0..6) and of rock (7)."""
    n = len(Category)
    tiles = np.zeros((n + 1, k, k, 4), dtype=np.uint8)
    for c in Category:
        tiles[int(c), :, :, :3] = category_rgb(c)
        tiles[int(c), :, :, 3] = 0 if c == Category.CLEAR else (ALPHA_BLOCKED if c == Category.IMPASSABLE else ALPHA)
    if k >= 8:  # a rim inside each square: pixels [w, 2w) from the square's edge
        w = max(1, k // 32)
        p = np.arange(k)
        band = ((p >= w) & (p < 2 * w)) | ((p >= k - 2 * w) & (p < k - w))
        inner = (p >= w) & (p < k - w)
        rim = np.logical_or.outer(band, band) & np.logical_and.outer(inner, inner)
        for c in range(1, n):
            tiles[c, rim, 3] = ALPHA_RIM
    tiles[n, :, :, :3] = category_rgb(Category.IMPASSABLE)
    return tiles


def overlay_rgba(cats: np.ndarray, rock: np.ndarray, k: int) -> np.ndarray:
    """``(rows*k, cols*k, 4)`` uint8 RGBA: the category tint of every floor square, ``k`` px each.
    One square row at a time, a gather from the per-category square pictures (pixel row major),
    so each row of squares is written once, in order."""
    if k < 1:
        raise ValueError(f"k must be >= 1 pixel per square, got {k}")
    by_row = np.ascontiguousarray(square_tiles(k).transpose(1, 0, 2, 3))   # (k, 8, k, 4)
    idx = np.where(rock, len(Category), np.minimum(cats, int(Category.IMPASSABLE))).astype(np.intp)
    rows, cols = idx.shape
    out = np.empty((rows, k, cols, k, 4), dtype=np.uint8)
    for r in range(rows):
        out[r] = by_row[:, idx[r]]
    return out.reshape(rows * k, cols * k, 4)


def map_px(grid: CaveGrid, k: int | None = None) -> int:
    """Pixels per square: ``k`` when given, else the map image's scale, else :data:`DEFAULT_PX`."""
    if k is not None:
        return k
    image = grid.image
    if image is not None:
        try:
            with Image.open(image) as im:
                w, h = im.size
        except (OSError, ValueError) as exc:
            raise DataError(f"{image}: the map's image cannot be read ({exc}); fix [map] image") from None
        if w % grid.cols or h % grid.rows or w // grid.cols != h // grid.rows:
            raise DataError(f"{image}: the map's image is {w}x{h} px, not a whole number of pixels per square "
                            f"for {grid.cols}x{grid.rows} squares; give --px-per-square")
        return w // grid.cols
    return DEFAULT_PX


def check_pixels(grid: CaveGrid, k: int, what: str) -> None:
    n = grid.cols * k * grid.rows * k
    if n > MAX_PIXELS:
        fit = max(1, int((MAX_PIXELS / (grid.cols * grid.rows)) ** 0.5))
        raise DataError(f"{what}: {grid.cols}x{grid.rows} squares at {k} px per square is "
                        f"{grid.cols * k}x{grid.rows * k} px, over the {MAX_PIXELS // 10**6} million pixel limit; "
                        f"give --px-per-square {fit} or less")


def overlay_png(cats: np.ndarray, rock: np.ndarray, k: int) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(overlay_rgba(cats, rock, k), "RGBA").save(buf, format="PNG")
    return buf.getvalue()


def export_overlay(grid: CaveGrid, cats: np.ndarray, out: str | Path, *, k: int) -> list[Path]:
    """Write the overlay PNG of ``cats`` (one body's categories) at ``k`` px per square."""
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise DataError(f"{out}: an overlay is a PNG picture; give a .png file name")
    check_pixels(grid, k, str(out))
    data = overlay_png(cats, grid.rock, k)
    with atomic_path(out) as tmp:
        tmp.write_bytes(data)
    return [out]
