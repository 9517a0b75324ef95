"""Per-size walls for a virtual tabletop: a Universal VTT file (``cavesim export MAP --to uvtt``).

The walls stand where one body cannot go: rock, the squares that are Impassable for it (RULES
§2.3) and, with ``include_tight``, its Tight Squeeze squares; so Foundry's, MapTool's or Fantasy
Grounds' own movement and vision block what the rules block for that size.

Geometry, in grid units (the format's coordinates, origin (0, 0)):

* every square edge between a blocked and an open square, and every map-border edge of an open
  square, is a wall; collinear edges are merged into one straight segment;
* walls between squares (docs/rules.md §6.8) between two open squares are walls too, merged along
  their grid lines into ``line_of_sight``; a closed door on an edge is a closed ``portal`` there
  (so an import of the file gives the same edges back);
* walls around a blocked region that touches the map border go to ``line_of_sight``; the outline
  of a blocked *island* (a pillar of rock or of too-narrow squares inside the open cave, which a
  reader that takes the floor to be "the space not connected to the border" would otherwise read
  as floor) goes to ``objects_line_of_sight`` as closed loops, one per ring (even-odd inside).

``resolution.pixels_per_grid`` is the map image's scale (as for the overlay), and ``image`` holds
the map's own picture, or a plain rendering (rock dark, floor light) when the map has none.

>>> import numpy as np
>>> blocked = np.array([[False, False, False], [False, True, False], [False, False, False]])
>>> outer, islands = wall_segments(blocked)
>>> len(outer), islands
(4, [[(1, 1), (2, 1), (2, 2), (1, 2), (1, 1)]])
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

from sim.base.errors import DataError
from sim.base.fileio import atomic_path
from sim.maps.exporters.overlay import check_pixels
from sim.maps.palette import FLOOR_HIGH, ROCK_DARK
from sim.rules.categories import Category
from sim.terrain.grid import CaveGrid

FORMAT = 0.3
LIGHT_COLOUR = "ffeccd8b"  # a warm torch, as Dungeondraft writes it

Point = tuple[int, int]


def blocked_mask(grid: CaveGrid, cats: np.ndarray, *, include_tight: bool = False) -> np.ndarray:
    """Squares the body cannot go: rock, Impassable and (optionally) Tight Squeeze; closed doors."""
    blocked = grid.rock | (cats >= int(Category.IMPASSABLE))
    if include_tight:
        blocked |= cats == int(Category.TIGHT_SQUEEZE)
    if grid.door is not None:
        blocked |= grid.door
    return blocked


def _runs(mask: np.ndarray) -> list[tuple[int, int, int]]:
    """(line, start, end) runs of True along axis 1 of ``mask`` (end exclusive)."""
    out = []
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    d = np.diff(padded, axis=1)
    for r in range(mask.shape[0]):
        starts = np.flatnonzero(d[r] == 1)
        ends = np.flatnonzero(d[r] == -1)
        out.extend((r, int(s), int(e)) for s, e in zip(starts, ends))
    return out


def _edges(blocked: np.ndarray, select: np.ndarray) -> list[tuple[Point, Point]]:
    """Merged wall segments (grid units) on the edges where ``blocked`` changes, counting the
    outside of the map as blocked; only edges that touch a ``select`` square (or, for the
    border, an open square) are kept."""
    rows, cols = blocked.shape
    pad = np.ones((rows + 2, cols + 2), dtype=bool)
    pad[1:-1, 1:-1] = blocked
    sel = np.zeros((rows + 2, cols + 2), dtype=bool)
    sel[1:-1, 1:-1] = select
    # horizontal edges: y = 0..rows, between pad row y and y+1, columns 0..cols-1
    h = (pad[:-1, 1:-1] != pad[1:, 1:-1]) & (sel[:-1, 1:-1] | sel[1:, 1:-1])
    v = (pad[1:-1, :-1] != pad[1:-1, 1:]) & (sel[1:-1, :-1] | sel[1:-1, 1:])
    segs = [((s, y), (e, y)) for y, s, e in _runs(h)]
    segs += [((x, s), (x, e)) for x, s, e in _runs(v.T)]
    return segs


def _rings(segments: list[tuple[Point, Point]]) -> list[list[Point]]:
    """Closed loops from unit-free axis segments: split into unit edges, then walk. At a vertex
    of degree 4 (two regions touching at a corner) turn so the loops stay simple."""
    adj: dict[Point, list[Point]] = {}
    for (x0, y0), (x1, y1) in segments:
        if y0 == y1:
            pts = [(x, y0) for x in range(min(x0, x1), max(x0, x1) + 1)]
        else:
            pts = [(x0, y) for y in range(min(y0, y1), max(y0, y1) + 1)]
        for a, b in zip(pts, pts[1:]):
            adj.setdefault(a, []).append(b)
            adj.setdefault(b, []).append(a)
    rings = []
    while adj:
        start = min(adj)
        ring = [start]
        prev, cur = None, start
        while True:
            nbrs = adj[cur]
            if prev is None:
                nxt = nbrs[0]
            else:
                d_in = (cur[0] - prev[0], cur[1] - prev[1])
                # prefer turning left, then straight, then right (keeps touching corners apart)
                left = (d_in[1], -d_in[0])
                straight = d_in
                right = (-d_in[1], d_in[0])
                nxt = next((cur[0] + d[0], cur[1] + d[1]) for d in (left, straight, right)
                           if (cur[0] + d[0], cur[1] + d[1]) in nbrs)
            nbrs.remove(nxt)
            adj[nxt].remove(cur)
            if not adj[cur]:
                del adj[cur]
            if not adj.get(nxt):
                adj.pop(nxt, None)
            prev, cur = cur, nxt
            ring.append(cur)
            if cur == start:
                break
        rings.append(_simplify(ring))
    return rings


def _simplify(ring: list[Point]) -> list[Point]:
    """Drop the collinear middle points of a closed axis-aligned ring (first == last kept)."""
    out = [ring[0]]
    for i in range(1, len(ring) - 1):
        a, b, c = out[-1], ring[i], ring[i + 1]
        if (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]) != 0:
            out.append(b)
    out.append(ring[-1])
    return out


def wall_segments(blocked: np.ndarray) -> tuple[list[tuple[Point, Point]], list[list[Point]]]:
    """``(walls, islands)``: merged straight wall segments around the blocked regions that touch
    the map border (and the border itself beside open squares), and closed rings outlining each
    blocked island."""
    lab, n = ndimage.label(blocked)
    border = np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]))
    border = border[border > 0]
    island = blocked & ~np.isin(lab, border)
    # walls of border-touching blocked regions: edges between open and such blocked squares,
    # and map-border edges of open squares (outside counts as blocked)
    walls = _edges(blocked & ~island, ~blocked)
    loops = _rings(_edges(island, island)) if island.any() else []
    return walls, loops


def edge_segments(grid: CaveGrid, blocked: np.ndarray) -> tuple[list[tuple[Point, Point]], list[tuple[Point, Point]]]:
    """``(walls, doors)`` in grid units: the map's walls between two open squares merged along
    their grid lines, and one segment per closed door on an edge (docs/rules.md §6.8).

    >>> g = CaveGrid.from_arrays(np.full((2, 3), 10.0), np.full((2, 3), 10.0),
    ...                          edges=([[True, False, False], [True, False, False]], None),
    ...                          edge_doors=(None, [[False, False, True], [False, False, False]]))
    >>> edge_segments(g, g.rock)
    ([((1, 0), (1, 2))], [((2, 1), (3, 1))])
    """
    if grid.edges is None:
        return [], []
    open_ = ~blocked
    e, s = grid.edges.separates(open_)
    de = np.zeros_like(e) if grid.edge_doors is None else grid.edge_doors.east & e
    ds = np.zeros_like(s) if grid.edge_doors is None else grid.edge_doors.south & s
    walls = [((c + 1, a), (c + 1, b)) for c, a, b in _runs((e & ~de).T)]
    walls += [((a, r + 1), (b, r + 1)) for r, a, b in _runs(s & ~ds)]
    doors = [((int(c) + 1, int(r)), (int(c) + 1, int(r) + 1)) for r, c in zip(*np.nonzero(de))]
    doors += [((int(c), int(r) + 1), (int(c) + 1, int(r) + 1)) for r, c in zip(*np.nonzero(ds))]
    return walls, sorted(doors)


def plain_picture(grid: CaveGrid, k: int) -> bytes:
    """A plain floor picture (rock dark, floor light) for a map without an image."""
    rgb = np.where(grid.rock[..., None], np.array(ROCK_DARK, np.uint8), np.array(FLOOR_HIGH, np.uint8))
    img = rgb.astype(np.uint8).repeat(k, axis=0).repeat(k, axis=1)
    buf = io.BytesIO()
    Image.fromarray(img, "RGB").save(buf, format="PNG")
    return buf.getvalue()


def uvtt_obj(grid: CaveGrid, blocked: np.ndarray, *, k: int, image_png: bytes) -> dict:
    walls, loops = wall_segments(blocked)
    between, doors = edge_segments(grid, blocked)
    walls = walls + between
    lights = []
    for light in grid.lights:
        x, y = light.at
        lights.append({"position": {"x": x + 0.5, "y": y + 0.5}, "range": light.shadowy_ft / 5.0,
                       "intensity": 1, "color": LIGHT_COLOUR, "shadows": True})
    return {
        "format": FORMAT,
        "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": grid.cols, "y": grid.rows},
                       "pixels_per_grid": k},
        "line_of_sight": [[{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}] for a, b in walls],
        "objects_line_of_sight": [[{"x": p[0], "y": p[1]} for p in ring] for ring in loops],
        "portals": [{"position": {"x": (a[0] + b[0]) / 2, "y": (a[1] + b[1]) / 2},
                     "bounds": [{"x": a[0], "y": a[1]}, {"x": b[0], "y": b[1]}],
                     "rotation": 0.0 if a[1] == b[1] else 1.5707963267948966,
                     "closed": True, "freestanding": False} for a, b in doors],
        "environment": {"baked_lighting": False, "ambient_light": "ffffffff"},
        "lights": lights,
        "image": base64.b64encode(image_png).decode("ascii"),
    }


def export_uvtt(grid: CaveGrid, cats: np.ndarray, out: str | Path, *, k: int, include_tight: bool = False) -> list[Path]:
    """Write ``out`` (``.dd2vtt``, ``.df2vtt`` or ``.uvtt``) with walls where the body cannot go."""
    out = Path(out)
    if out.suffix.lower() not in (".dd2vtt", ".df2vtt", ".uvtt"):
        raise DataError(f"{out}: a Universal VTT file is named .dd2vtt, .df2vtt or .uvtt; give one of those names")
    check_pixels(grid, k, str(out))
    image = grid.image
    if image is not None:
        png = _image_png(Path(image), grid, k)
    else:
        png = plain_picture(grid, k)
    blocked = blocked_mask(grid, cats, include_tight=include_tight)
    text = json.dumps(uvtt_obj(grid, blocked, k=k, image_png=png), separators=(",", ":"))
    with atomic_path(out) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return [out]


def _image_png(path: Path, grid: CaveGrid, k: int) -> bytes:
    """The map's picture as PNG bytes at ``k`` px per square (resampled if another scale was asked)."""
    try:
        with Image.open(path) as im:
            want = (grid.cols * k, grid.rows * k)
            if im.format == "PNG" and im.size == want:
                return path.read_bytes()
            im = im.convert("RGBA")
            if im.size != want:
                im = im.resize(want, Image.Resampling.LANCZOS)
            buf = io.BytesIO()
            im.save(buf, format="PNG")
            return buf.getvalue()
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: the map's image cannot be read ({exc}); fix [map] image") from None
