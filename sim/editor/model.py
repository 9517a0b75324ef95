"""The map editor's state and tools, without a window (issue 18, item 5).

A :class:`Document` holds four writeable layers (``[row, col]``, feet): ``width``, ``ceiling``,
``difficult`` and ``rock``, the named points, and an undo/redo :class:`History`. Tools are pure
functions: they turn a gesture into the squares it touches (:func:`brush_squares`,
:func:`line_squares`, :func:`rect_squares`, :func:`fill_squares`), and :func:`plan` turns those
squares and a value into a :class:`Patch` -- the changed squares with their old and new values --
without touching the document. :meth:`Document.apply` is the one place a patch is written.

The layers are kept canonical: a square is rock exactly when its width and ceiling are 0, and rock
is never difficult; a closed door (imported maps) stays as it is. Setting a width or ceiling on rock opens the square with the document's
default for the other value (``Document.default_ft``); a width or ceiling of 0 makes rock (the
eraser); ``rock = false`` opens rock with the defaults.

>>> doc = Document.blank(6, 4)                     # all rock
>>> p = plan(doc, brush_squares(doc.shape, (2, 1), 3, "square"), "width", 10.0)
>>> doc.apply(p), int((~doc.rock).sum())
(True, 9)
>>> _ = doc.undo(); int((~doc.rock).sum()), doc.can_redo
(0, True)
"""

from __future__ import annotations

import unicodedata
from collections import deque
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

import numpy as np
from scipy import ndimage

from sim.base.errors import shorten, shorten_text
from sim.base.fileio import MAX_STRING_CHARS
from sim.terrain.grid import CaveGrid, Terrain

LAYERS = ("width", "ceiling", "difficult", "rock")
SHAPES = ("square", "round")
MAX_BRUSH = 9
MAX_FT = 1000.0                  # the largest width or ceiling a square may be given
DEFAULT_FT = 10.0                # width and ceiling given to rock opened by painting the other value
HISTORY_BYTES = 256 * 1024 * 1024  # the undo/redo stacks hold at most this much (the newest entry always)
MAX_NAME_CHARS = MAX_STRING_CHARS  # a point name: the longest string the map loader reads
BOX_LOG = 512                    # changed boxes remembered for incremental views
# a square's record in a patch: its four layers and the walls on its east and south edges
CELL = np.dtype([("width", "f8"), ("ceiling", "f8"), ("difficult", "?"), ("rock", "?"), ("edge_e", "?"), ("edge_s", "?")])
_CROSS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=bool)

Pos = tuple[int, int]


# =================================================================================================
# Squares a gesture touches (pure; flat indices into the [row, col] grid, sorted, unique)
# =================================================================================================

def brush_offsets(size: int, shape: str) -> np.ndarray:
    """``(dy, dx)`` offsets of a brush of ``size`` squares across (1-9), ``square`` or ``round``.
    An even brush reaches one square further right and down than left and up.

    >>> len(brush_offsets(3, "square")), len(brush_offsets(3, "round")), len(brush_offsets(5, "round"))
    (9, 5, 21)
    """
    if not (isinstance(size, int) and 1 <= size <= MAX_BRUSH):
        raise ValueError(f"brush size must be a whole number 1-{MAX_BRUSH}, got {size!r}")
    if shape not in SHAPES:
        raise ValueError(f"brush shape must be one of {SHAPES}, got {shape!r}")
    lo, hi = -((size - 1) // 2), size // 2
    d = np.arange(lo, hi + 1)
    dy, dx = np.meshgrid(d, d, indexing="ij")
    if shape == "round":
        m = (lo + hi) / 2
        keep = (dy - m) ** 2 + (dx - m) ** 2 <= (size / 2) ** 2 - size / 4   # 3: a plus; 5: 21 squares
        dy, dx = dy[keep], dx[keep]
    return np.stack([dy.ravel(), dx.ravel()], 1)


def check_name(v: Any, key: str) -> str:
    """A point name as the map file can hold it: a non-empty string of at most
    :data:`MAX_NAME_CHARS` characters (the map loader's limit for a string) with no control
    character (NUL, a line break, ...) and no lone surrogate; ValueError naming ``key`` if not.

    >>> check_name("lair", "name")
    'lair'
    >>> check_name("a\\x00b", "name")
    Traceback (most recent call last):
    ...
    ValueError: 'name' has a control character (U+0000) at character 2; use letters, digits, spaces and punctuation
    """
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"{key!r} must be a non-empty string, got {shorten(v)}")
    if len(v) > MAX_NAME_CHARS:
        raise ValueError(f"{key!r} is {len(v):,} characters long ({shorten_text(v, 20)}); a name has at most "
                         f"{MAX_NAME_CHARS:,}")
    for i, ch in enumerate(v):
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs"):
            what = "control character" if cat == "Cc" else "lone surrogate"
            raise ValueError(f"{key!r} has a {what} (U+{ord(ch):04X}) at character {i + 1}; use letters, digits, "
                             "spaces and punctuation")
    return v


def _flat(shape: tuple[int, int], rr: np.ndarray, cc: np.ndarray) -> np.ndarray:
    rows, cols = shape
    ok = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
    return np.unique(rr[ok].astype(np.int64) * cols + cc[ok])


def stamp(shape: tuple[int, int], centres: np.ndarray, size: int, brush: str) -> np.ndarray:
    """The brush stamped at every ``(x, y)`` of ``centres`` (an ``(n, 2)`` array), clipped to the map."""
    off = brush_offsets(size, brush)
    c = np.asarray(centres, dtype=np.int64).reshape(-1, 2)
    rr = (c[:, 1][:, None] + off[None, :, 0]).ravel()
    cc = (c[:, 0][:, None] + off[None, :, 1]).ravel()
    return _flat(shape, rr, cc)


def brush_squares(shape: tuple[int, int], at: Pos, size: int = 1, brush: str = "square") -> np.ndarray:
    """The squares under one brush stamp centred on ``at`` = ``(x, y)``.

    >>> brush_squares((3, 4), (0, 0), 3).tolist()      # clipped at the top-left corner
    [0, 1, 4, 5]
    """
    return stamp(shape, np.array([at]), size, brush)


def line_points(a: Pos, b: Pos) -> np.ndarray:
    """The squares ``(x, y)`` of a straight line from ``a`` to ``b`` (Bresenham, both ends included).

    >>> line_points((0, 0), (3, 1)).tolist()
    [[0, 0], [1, 0], [2, 1], [3, 1]]
    """
    (x0, y0), (x1, y1) = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    n = max(abs(x1 - x0), abs(y1 - y0))
    if n == 0:
        return np.array([[x0, y0]], dtype=np.int64)
    t = np.arange(n + 1) / n
    # round half away from the start, so the line is the same drawn either way
    xs = x0 + np.sign(x1 - x0) * np.floor(np.abs(x1 - x0) * t + 0.5)
    ys = y0 + np.sign(y1 - y0) * np.floor(np.abs(y1 - y0) * t + 0.5)
    return np.stack([xs, ys], 1).astype(np.int64)


def stroke_points(points) -> np.ndarray:
    """Consecutive points of a drag joined by lines (no gaps when the mouse moves fast)."""
    pts = [tuple(int(v) for v in p) for p in points]
    if len(pts) == 1:
        return np.array(pts, dtype=np.int64)
    return np.concatenate([line_points(pts[i], pts[i + 1]) for i in range(len(pts) - 1)])


def line_squares(shape, a: Pos, b: Pos, size: int = 1, brush: str = "square") -> np.ndarray:
    """A line from ``a`` to ``b`` drawn with the brush."""
    return stamp(shape, line_points(a, b), size, brush)


def rect_squares(shape, a: Pos, b: Pos, *, filled: bool = True) -> np.ndarray:
    """The rectangle with corners ``a`` and ``b`` (both included), filled or its outline only.

    >>> rect_squares((4, 4), (0, 0), (2, 2), filled=False).tolist()
    [0, 1, 2, 4, 6, 8, 9, 10]
    """
    x0, x1 = sorted((int(a[0]), int(b[0])))
    y0, y1 = sorted((int(a[1]), int(b[1])))
    yy, xx = np.mgrid[y0:y1 + 1, x0:x1 + 1]
    if not filled:
        edge = (yy == y0) | (yy == y1) | (xx == x0) | (xx == x1)
        yy, xx = yy[edge], xx[edge]
    return _flat(shape, yy.ravel(), xx.ravel())


def circle_squares(shape, centre: Pos, edge: Pos, *, filled: bool = True) -> np.ndarray:
    """The circle about ``centre`` through ``edge`` (squares whose centres lie within half a
    square of its radius), filled or its ring only.

    >>> len(circle_squares((9, 9), (4, 4), (4, 5))), len(circle_squares((9, 9), (4, 4), (4, 5), filled=False))
    (9, 8)
    """
    cx, cy = int(centre[0]), int(centre[1])
    r = float(np.hypot(int(edge[0]) - cx, int(edge[1]) - cy))
    n = int(np.ceil(r + 0.5))
    yy, xx = np.mgrid[cy - n:cy + n + 1, cx - n:cx + n + 1]
    d = np.hypot(xx - cx, yy - cy)
    keep = d <= r + 0.5 if filled else (d <= r + 0.5) & (d > r - 0.5)
    return _flat(shape, yy[keep], xx[keep])


def merge(patches: list[Patch], *, label: str = "") -> Patch:
    """Several patches applied one after another as one: each square's first old and last new
    value (a brush stroke painted live, undone as one step)."""
    if len(patches) == 1:
        p = patches[0]
        return Patch(p.index, p.old, p.new, label or p.label, p.points_old, p.points_new)
    idx = np.concatenate([p.index for p in patches])
    old = np.concatenate([p.old for p in patches])
    new = np.concatenate([p.new for p in patches])
    # first occurrence for the old value, last for the new one
    u, first = np.unique(idx, return_index=True)
    _, last_rev = np.unique(idx[::-1], return_index=True)
    last = idx.size - 1 - last_rev
    o, n = old[first], new[last]
    keep = o != n
    pts_old = next((p.points_old for p in patches if p.points_old is not None), None)
    pts_new = next((p.points_new for p in reversed(patches) if p.points_new is not None), None)
    return Patch(u[keep], o[keep], n[keep], label or patches[0].label, pts_old, pts_new)


def layer_key(doc: "Document", layer: str) -> np.ndarray:
    """What "the same value" means for a fill in ``layer``: the width, the ceiling, the rock flag,
    or (difficult) the pair of difficult and rock, as one comparable array."""
    if layer == "width":
        return doc.width
    if layer == "ceiling":
        return doc.ceiling
    if layer == "rock":
        return doc.rock
    if layer == "difficult":
        return doc.difficult.astype(np.int8) + 2 * doc.rock.astype(np.int8)
    raise ValueError(f"layer must be one of {LAYERS}, got {layer!r}")


def fill_squares(doc: "Document", layer: str, at: Pos, *, contiguous: bool = True) -> np.ndarray:
    """Exact-value bucket fill: the squares holding the same value of ``layer`` as ``at``,
    joined to it side by side (4-neighbours), or anywhere on the map (``contiguous=False``:
    same-value selection).

    >>> doc = Document.from_grid(CaveGrid.from_arrays([[5, 5, 0, 5]], [[8, 8, 0, 8]]))
    >>> fill_squares(doc, "width", (0, 0)).tolist(), fill_squares(doc, "width", (0, 0), contiguous=False).tolist()
    ([0, 1], [0, 1, 3])
    """
    x, y = int(at[0]), int(at[1])
    key = layer_key(doc, layer)
    same = key == key[y, x]
    if not contiguous:
        return np.flatnonzero(same)
    lab, _ = ndimage.label(same, structure=_CROSS)
    return np.flatnonzero(lab == lab[y, x])


# =================================================================================================
# Patches: what an operation changes (pure) and the history of them
# =================================================================================================

@dataclass(frozen=True, slots=True, eq=False)
class Patch:
    """The squares an operation changes (flat indices, sorted) with their old and new cells
    (:data:`CELL` records), and the named points before and after (``None``: unchanged)."""

    index: np.ndarray
    old: np.ndarray
    new: np.ndarray
    label: str = ""
    points_old: tuple[tuple[str, Pos], ...] | None = None
    points_new: tuple[tuple[str, Pos], ...] | None = None

    @property
    def empty(self) -> bool:
        return self.index.size == 0 and self.points_old == self.points_new

    @property
    def nbytes(self) -> int:
        return int(self.index.nbytes + self.old.nbytes + self.new.nbytes) + 64 * len(self.points_old or ())

    def squares(self, cols: int) -> list[Pos]:
        """The changed squares as ``(x, y)`` on a map ``cols`` wide."""
        rr, cc = np.divmod(self.index, cols)
        return [(int(c), int(r)) for r, c in zip(rr, cc)]


def _cells(doc: "Document", index: np.ndarray) -> np.ndarray:
    out = np.empty(index.size, dtype=CELL)
    out["width"] = doc.width.ravel()[index]
    out["ceiling"] = doc.ceiling.ravel()[index]
    out["difficult"] = doc.difficult.ravel()[index]
    out["rock"] = doc.rock.ravel()[index]
    out["edge_e"] = doc.edge_e.ravel()[index]
    out["edge_s"] = doc.edge_s.ravel()[index]
    return out


def check_value(layer: str, value) -> float | bool:
    """A layer value as stored (feet for width and ceiling, a flag otherwise); ValueError if bad."""
    if layer in ("difficult", "rock"):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{layer} takes true or false, got {value!r}")
        return bool(value)
    if layer not in ("width", "ceiling"):
        raise ValueError(f"layer must be one of {LAYERS}, got {layer!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise ValueError(f"{layer} takes a number of feet, got {value!r}")
    v = float(value)
    if not (0.0 <= v <= MAX_FT):
        raise ValueError(f"{layer} must be 0 (rock) to {MAX_FT:g} ft, got {value!r}")
    return v


def plan(doc: "Document", index: np.ndarray, layer: str, value, *, label: str = "") -> Patch:
    """The patch that sets ``layer`` to ``value`` on the squares ``index`` (flat), keeping the
    layers canonical (module docstring). Only squares that really change are in it."""
    v = check_value(layer, value)
    index = np.asarray(index, dtype=np.int64)
    old = _cells(doc, index)
    new = old.copy()
    dw, dc = doc.default_ft
    if layer in ("width", "ceiling"):
        other = "ceiling" if layer == "width" else "width"
        if v <= 0:
            new["width"] = new["ceiling"] = 0.0
            new["difficult"] = False
            new["rock"] = True
        else:
            new[layer] = v
            new[other] = np.where(new["rock"], dc if other == "ceiling" else dw, new[other])
            new["rock"] = False
    elif layer == "rock":
        if v:
            new["width"] = new["ceiling"] = 0.0
            new["difficult"] = False
            new["rock"] = True
        else:
            was = new["rock"].copy()
            new["width"] = np.where(was, dw, new["width"])
            new["ceiling"] = np.where(was, dc, new["ceiling"])
            new["rock"] = False
    else:  # difficult: floor squares only
        new["difficult"] = np.where(new["rock"], False, bool(v))
    changed = (old != new) & ~doc.door.ravel()[index]
    return Patch(index=index[changed], old=old[changed], new=new[changed], label=label)


def edge_run(shape: tuple[int, int], a: Pos, b: Pos) -> tuple[str, np.ndarray]:
    """The edges of the grid line from corner ``a`` to corner ``b`` (``(X, Y)`` grid corners,
    the same X or the same Y): ``("edge_e", squares)`` for a vertical run (the squares west of
    it), ``("edge_s", squares)`` for a horizontal one (the squares north of it); edges on the
    map's border are left out. ValueError for a slanted run.

    >>> edge_run((4, 5), (2, 0), (2, 3))
    ('edge_e', array([ 1,  6, 11]))
    >>> edge_run((4, 5), (0, 1), (2, 1))
    ('edge_s', array([0, 1]))
    """
    (x0, y0), (x1, y1) = a, b
    rows, cols = shape
    if x0 == x1:
        lo, hi = sorted((y0, y1))
        if not 1 <= x0 < cols:
            return "edge_e", np.zeros(0, dtype=np.int64)
        rr = np.arange(max(0, lo), min(rows, hi))
        return "edge_e", (rr * cols + (x0 - 1)).astype(np.int64)
    if y0 == y1:
        lo, hi = sorted((x0, x1))
        if not 1 <= y0 < rows:
            return "edge_s", np.zeros(0, dtype=np.int64)
        cc = np.arange(max(0, lo), min(cols, hi))
        return "edge_s", ((y0 - 1) * cols + cc).astype(np.int64)
    raise ValueError(f"a wall between squares runs along one grid line: from {a} to {b} is slanted")


def plan_edges(doc: "Document", a: Pos, b: Pos, value: bool, *, label: str = "") -> Patch:
    """The patch that walls (``value`` True) or opens the edges along the grid line from corner
    ``a`` to corner ``b`` (docs/rules.md §6.8; :func:`edge_run`). A closed door on an edge
    (an imported map's) stays as it is."""
    layer, index = edge_run(doc.shape, a, b)
    old = _cells(doc, index)
    new = old.copy()
    new[layer] = bool(value)
    doors = doc.door_e if layer == "edge_e" else doc.door_s
    changed = (old != new) & ~doors.ravel()[index]
    return Patch(index=index[changed], old=old[changed], new=new[changed], label=label)


def plan_points(doc: "Document", points: Mapping[str, Pos], *, label: str = "") -> Patch:
    """The patch that replaces the named points (insertion order kept)."""
    none = np.zeros(0, dtype=np.int64)
    return Patch(index=none, old=np.zeros(0, CELL), new=np.zeros(0, CELL), label=label,
                 points_old=tuple(doc.points.items()), points_new=tuple((k, (int(v[0]), int(v[1])))
                                                                       for k, v in points.items()))


@dataclass
class History:
    """Undo and redo stacks of patches, capped at ``limit`` bytes (the oldest undo steps go first;
    the newest step is always kept).

    The bytes held are kept as a running total (issue 34, item 12: re-summing both stacks on every
    push made a script of 20,000 paints quadratic), so every change to the stacks goes through the
    methods below; :meth:`resum` recomputes the total from the stacks (tests check they agree)."""

    limit: int = HISTORY_BYTES
    done: deque[Patch] = field(default_factory=deque)     # oldest first; a deque: the oldest go in O(1)
    undone: list[Patch] = field(default_factory=list)
    dropped: int = 0          # undo steps forgotten to stay under the limit
    _bytes: int = field(default=-1, init=False, repr=False)

    def __post_init__(self) -> None:
        self.done = deque(self.done)
        self._bytes = self.resum()

    def resum(self) -> int:
        """The bytes held, summed afresh over both stacks."""
        return sum(p.nbytes for p in self.done) + sum(p.nbytes for p in self.undone)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def push(self, patch: Patch) -> None:
        """A new step: it goes on the undo stack and the redo stack is forgotten."""
        self.done.append(patch)
        self._bytes += patch.nbytes
        if self.undone:
            self._bytes -= sum(p.nbytes for p in self.undone)   # each step is dropped once: O(1) amortised
            self.undone.clear()
        while self._bytes > self.limit and len(self.done) > 1:
            self._bytes -= self.done.popleft().nbytes
            self.dropped += 1

    def pop_done(self) -> Patch | None:
        """The newest undo step moved to the redo stack (undo), or None."""
        if not self.done:
            return None
        p = self.done.pop()
        self.undone.append(p)
        return p

    def pop_undone(self) -> Patch | None:
        """The newest redo step moved back to the undo stack (redo), or None."""
        if not self.undone:
            return None
        p = self.undone.pop()
        self.done.append(p)
        return p

    def last(self, n: int) -> list[Patch]:
        """The newest ``n`` undo steps, oldest first."""
        return [self.done[i] for i in range(-min(n, len(self.done)), 0)]

    def replace_last(self, n: int, patch: Patch | None) -> None:
        """The newest ``n`` undo steps replaced by ``patch`` (None: by nothing)."""
        for _ in range(min(n, len(self.done))):
            self._bytes -= self.done.pop().nbytes
        if patch is not None:
            self.done.append(patch)
            self._bytes += patch.nbytes


# =================================================================================================
# The document
# =================================================================================================

class Document:
    """The map being edited: four writeable layers, named points, metadata, history.

    ``version`` counts changes (views cache on it); ``saved_version`` is the version last saved;
    :meth:`boxes_since` gives the ``(r0, c0, r1, c1)`` boxes (end exclusive) changed since a
    version, so each view updates only what changed."""

    def __init__(self, width, ceiling, difficult, rock, *, points: Mapping[str, Pos] | None = None,
                 name: str = "", description: str = "", units: str = "ft", source: str = "",
                 legend: Mapping[str, Terrain] | None = None, glyphs=None,
                 door=None, lights=(), image=None, edges=None, edge_doors=None,
                 default_ft: tuple[float, float] = (DEFAULT_FT, DEFAULT_FT), history_bytes: int = HISTORY_BYTES):
        self.width = np.array(width, dtype=np.float64, order="C")
        self.ceiling = np.array(ceiling, dtype=np.float64, order="C")
        self.difficult = np.array(difficult, dtype=bool, order="C")
        self.rock = np.array(rock, dtype=bool, order="C")
        # closed doors (an imported map's) are rock while closed and are not painted over
        self.door = np.zeros(self.width.shape, bool) if door is None else np.array(door, dtype=bool)
        self.door.flags.writeable = False
        self.rock |= (self.width <= 0) | (self.ceiling <= 0) | self.door
        # walls between squares (docs/rules.md §6.8): painted with the edge tool; closed doors on
        # edges are kept as they came (walled while closed), like the door squares
        shape = self.width.shape
        self.edge_e, self.edge_s = (np.zeros(shape, bool), np.zeros(shape, bool)) if edges is None else (
            np.array(edges.east, dtype=bool, order="C"), np.array(edges.south, dtype=bool, order="C"))
        self.door_e, self.door_s = (np.zeros(shape, bool), np.zeros(shape, bool)) if edge_doors is None else (
            np.array(edge_doors.east, dtype=bool), np.array(edge_doors.south, dtype=bool))
        self.door_e.flags.writeable = False
        self.door_s.flags.writeable = False
        self.width[self.rock] = 0.0
        self.ceiling[self.rock] = 0.0
        self.difficult &= ~self.rock
        self.points: dict[str, Pos] = {k: (int(v[0]), int(v[1])) for k, v in (points or {}).items()}
        self.name = name
        self.description = description
        self.units = units
        self.source = source
        self.legend: Mapping[str, Terrain] = MappingProxyType(dict(legend or {}))  # the map's legend as opened
        self.glyphs = None if glyphs is None else np.array(glyphs, dtype=np.uint8)
        self.lights = tuple(lights)     # carried through unchanged (the loader checks them on saving)
        self.image = image
        self.default_ft = (float(default_ft[0]), float(default_ft[1]))
        self.history = History(limit=history_bytes)
        self.version = 0
        self.saved_version = 0
        self._boxes: deque[tuple[int, tuple[int, int, int, int] | None]] = deque(maxlen=BOX_LOG)

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def from_grid(cls, grid: CaveGrid, **kw) -> "Document":
        return cls(grid.width_ft, grid.height_ft, grid.difficult, grid.rock, points=grid.points, name=grid.name,
                   description=grid.description, units=grid.units, source=grid.source, legend=grid.legend,
                   glyphs=grid.glyphs, door=grid.door, lights=grid.lights, image=grid.image, edges=grid.edges,
                   edge_doors=grid.edge_doors, **kw)

    @classmethod
    def blank(cls, cols: int, rows: int, *, units: str = "ft", name: str = "New cave", **kw) -> "Document":
        """A new map of solid rock, ``cols`` x ``rows`` squares: paint a width to carve the cave."""
        z = np.zeros((rows, cols))
        return cls(z, z, z.astype(bool), np.ones((rows, cols), bool), units=units, name=name, **kw)

    def to_grid(self) -> CaveGrid:
        """The map as a :class:`CaveGrid` (read-only copies) with the legend it was opened with
        (so a writer can keep its glyphs), its doors, lights and picture."""
        return CaveGrid.from_arrays(self.width, self.ceiling, difficult=self.difficult, rock=self.rock,
                                    name=self.name, points=self.points, description=self.description,
                                    source=self.source, units=self.units, legend=self.legend,
                                    door=self.door, lights=self.lights, image=self.image,
                                    edges=(self.edge_e, self.edge_s), edge_doors=(self.door_e, self.door_s))

    # -- reading -------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, int]:
        return self.width.shape  # type: ignore[return-value]

    @property
    def rows(self) -> int:
        return self.width.shape[0]

    @property
    def cols(self) -> int:
        return self.width.shape[1]

    @property
    def dirty(self) -> bool:
        return self.version != self.saved_version

    def in_bounds(self, at: Pos) -> bool:
        return 0 <= at[0] < self.cols and 0 <= at[1] < self.rows

    def value(self, layer: str, at: Pos):
        """The eyedropper: the value of ``layer`` at ``(x, y)`` (feet or a flag)."""
        x, y = at
        if layer == "width":
            return float(self.width[y, x])
        if layer == "ceiling":
            return float(self.ceiling[y, x])
        if layer == "difficult":
            return bool(self.difficult[y, x])
        if layer == "rock":
            return bool(self.rock[y, x])
        raise ValueError(f"layer must be one of {LAYERS}, got {layer!r}")

    def layers(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.width, self.ceiling, self.difficult, self.rock

    # -- writing (the only place) --------------------------------------------------------------
    def _write(self, patch: Patch, *, forward: bool) -> None:
        cells = patch.new if forward else patch.old
        idx = patch.index
        if idx.size:
            self.width.ravel()[idx] = cells["width"]
            self.ceiling.ravel()[idx] = cells["ceiling"]
            self.difficult.ravel()[idx] = cells["difficult"]
            self.rock.ravel()[idx] = cells["rock"]
            self.edge_e.ravel()[idx] = cells["edge_e"]
            self.edge_s.ravel()[idx] = cells["edge_s"]
        pts = patch.points_new if forward else patch.points_old
        if pts is not None:
            self.points = dict(pts)
        self.version += 1
        box = None
        if idx.size:
            rr, cc = np.divmod(idx, self.cols)
            box = (int(rr.min()), int(cc.min()), int(rr.max()) + 1, int(cc.max()) + 1)
        self._boxes.append((self.version, box))

    def apply(self, patch: Patch) -> bool:
        """Apply a patch and push it on the undo stack (an empty patch changes nothing)."""
        if patch.empty:
            return False
        self._write(patch, forward=True)
        self.history.push(patch)
        return True

    @property
    def can_undo(self) -> bool:
        return bool(self.history.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.history.undone)

    def undo(self) -> Patch | None:
        p = self.history.pop_done()
        if p is not None:
            self._write(p, forward=False)
        return p

    def redo(self) -> Patch | None:
        p = self.history.pop_undone()
        if p is not None:
            self._write(p, forward=True)
        return p

    def squash(self, n: int, *, label: str = "") -> None:
        """Make the last ``n`` undo steps one (a live brush stroke becomes one undo step)."""
        if n <= 1 or len(self.history.done) < n:
            return
        m = merge(self.history.last(n), label=label)
        self.history.replace_last(n, None if m.empty else m)

    def touched(self, box: tuple[int, int, int, int]) -> None:
        """Record a change made to the arrays directly (not through a patch)."""
        self.version += 1
        self._boxes.append((self.version, box))

    def boxes_since(self, version: int) -> list[tuple[int, int, int, int]] | None:
        """The boxes changed after ``version`` (empty: nothing), or None when the log no longer
        reaches back that far (then recompute everything)."""
        if version == self.version:
            return []
        if not self._boxes or self._boxes[0][0] > version + 1:
            return None
        return [b for v, b in self._boxes if v > version and b is not None]
