"""Small caves drawn inline, for the designer-tool tests: each test shows its own cave."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.terrain.grid import CaveGrid, Terrain

MAPS = Path(__file__).resolve().parents[2] / "maps"

ROOM = (30, 12)          # chamber floor: 30 ft wide, 12 ft ceiling
LEGEND = {"#": None, ".": ROOM, "f": (2, 12), "F": (1, 12), "c": (5, 2.5), "l": (6, 4), "w": (30, 12)}


def grid(rows: list[str], legend: dict | None = None, points: dict | None = None) -> CaveGrid:
    lg = {**LEGEND, **(legend or {})}
    names = list(lg)
    w = [[0.0 if lg[ch] is None else lg[ch][0] for ch in row] for row in rows]
    h = [[0.0 if lg[ch] is None else lg[ch][1] for ch in row] for row in rows]
    glyphs = np.array([[names.index(ch) for ch in row] for row in rows], dtype=np.uint8)
    legend = {k: (Terrain(0, 0, rock=True) if v is None else Terrain(float(v[0]), float(v[1]))) for k, v in lg.items()}
    return CaveGrid.from_arrays(w, h, name="test cave", points=points or {}, glyphs=glyphs, legend=legend)


def squares_of(g: CaveGrid, glyph: str) -> set[tuple[int, int]]:
    idx = list(g.legend).index(glyph)
    ys, xs = np.nonzero(g.glyphs == idx)
    return {(int(x), int(y)) for x, y in zip(xs, ys)}


# Two 4 x 4 chambers whose only link is a three-square passage of glyph X through a rock wall.
def two_chambers(passage: str) -> CaveGrid:
    rows = ["#############",
            "#....###....#",
            f"#....{passage * 3}....#",
            "#....###....#",
            "#....###....#",
            "#############"]
    return grid(rows, points={"west": (2, 2), "east": (10, 2)})
