"""What every importer takes and gives back (frozen value objects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from sim.maps.importers.spaces import Space
from sim.terrain.grid import CaveGrid

DEFAULT_FEET_PER_SQUARE = 5.0
DEFAULT_CEILING_FT = 10.0           # imported caves have no ceilings: 10 ft unless told otherwise
MAX_PIXELS = 200_000_000            # the raster the widths are measured on (cols x rows x (ft x px/ft)^2)
AUTO_PIXELS = 16_000_000            # the automatic resolution keeps the raster under this ...
AUTO_RESOLUTION = (10.0, 2.0)       # ... between these px/ft (finest first)
CEILING_IMAGE_FT_PER_LEVEL = 0.25   # --ceiling-image: grey level g (0-255) -> g x 0.25 ft; 0 = rock


@dataclass(frozen=True, slots=True)
class ImportOptions:
    feet_per_square: float = DEFAULT_FEET_PER_SQUARE
    ceiling_ft: float = DEFAULT_CEILING_FT
    resolution: float | None = None          # px/ft; None = automatic (:func:`auto_resolution`)
    floor: tuple[tuple[int, int], ...] = ()  # (x, y) squares whose free region is floor
    rock: tuple[tuple[int, int], ...] = ()   # (x, y) squares whose free region is rock
    enclosed: str | None = None              # "floor" / "rock": every sealed space; None: loops rock
    points: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    ceiling_image: Path | None = None
    image: Path | None = None                # --image: the map's picture (PNG, WebP or JPEG) instead of the file's
    name: str | None = None
    max_pixels: int = MAX_PIXELS
    max_file_bytes: int = 64 * 1024 * 1024
    max_squares: int = 4096
    fine: bool = True


@dataclass(frozen=True, slots=True, eq=False)
class Imported:
    grid: CaveGrid
    image: bytes | None                      # the floor picture as it came (PNG, WebP or JPEG), covering the grid
    warnings: tuple[str, ...]
    resolution: float                        # px/ft the widths were measured at
    fine_squares: int = 0                    # squares re-measured finely
    image_suffix: str = ".png"               # the picture's file suffix (its format): .png, .webp or .jpg
    spaces: tuple[Space, ...] = ()           # enclosed spaces not joined to the main floor (decided)


Progress = Callable[[str, int, int], None]


def auto_resolution(cols: int, rows: int, feet_per_square: float) -> float:
    """The finest of 10 px/ft down to 2 px/ft whose raster stays under :data:`AUTO_PIXELS`
    (whole px/ft; 2 when even that is over, the pixel cap decides then).

    >>> auto_resolution(10, 10, 5.0), auto_resolution(200, 200, 5.0), auto_resolution(1000, 1000, 5.0)
    (10.0, 4.0, 2.0)
    """
    fine, coarse = AUTO_RESOLUTION
    area = cols * rows * feet_per_square ** 2
    r = int((AUTO_PIXELS / area) ** 0.5)
    return float(min(fine, max(coarse, r)))


def pixel_budget_error(where: str, cols: int, rows: int, feet_per_square: float, resolution: float,
                       max_pixels: int) -> str | None:
    """The message refusing a raster over ``max_pixels``, with the resolution that fits; or None.

    >>> pixel_budget_error("m.uvtt", 2000, 2000, 5.0, 2.0, 200_000_000)
    'm.uvtt: 2000 x 2000 squares of 5 ft at 2 px/ft is 4.0e+08 pixels, over the 2.0e+08 limit; use --resolution 1.4 or lower'
    """
    px = cols * rows * (feet_per_square * resolution) ** 2
    if px <= max_pixels:
        return None
    fit = (max_pixels / (cols * rows * feet_per_square ** 2)) ** 0.5
    fit = int(fit * 10) / 10
    hint = f"use --resolution {fit:g} or lower" if fit > 0 else "the map is too large to import"
    return (f"{where}: {cols} x {rows} squares of {feet_per_square:g} ft at {resolution:g} px/ft is {px:.1e} "
            f"pixels, over the {max_pixels:.1e} limit; {hint}")
