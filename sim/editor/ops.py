"""Editor operations as data, and the scripted front end (issue 18, item 5).

An operation is a frozen record; :func:`parse_op` builds one from a JSON object (one line of an
``OPS.jsonl`` file), refusing bad ones with a message that names the key and the fix;
:func:`run` applies one to a :class:`~sim.editor.model.Document` and returns :class:`Done` or
:class:`Refused` (a refusal is a value: the window shows it, the scripted front end turns it into
an error naming the line). The window records what the user does as these same records, so a
script and the window make the same file from the same operations.

Values are in the map's units (feet, or metres for a metric map); positions are ``[x, y]``.

>>> from sim.editor.model import Document
>>> doc = Document.blank(8, 5)
>>> op = parse_op({"op": "rect", "layer": "width", "value": 10, "from": [1, 1], "to": [6, 3]})
>>> run(doc, op).changed, int((~doc.rock).sum())
(18, 18)
>>> run(doc, parse_op({"op": "point", "name": "lair", "at": [9, 1]})).reason
'point lair: (9, 1) is off the map (8x5)'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np
from scipy import ndimage

from sim.base.errors import DataError, shorten, shorten_text
from sim.base.fileio import atomic_write_text, read_input
from sim.editor.model import (
    LAYERS,
    MAX_BRUSH,
    MAX_FT,
    SHAPES,
    Document,
    check_name,
    circle_squares,
    fill_squares,
    plan,
    plan_edges,
    plan_points,
    rect_squares,
    stamp,
    stroke_points,
)
from sim.maps.read import to_feet

MAX_OPS_BYTES = 64 * 1024 * 1024    # an OPS.jsonl file larger than this is refused before reading
MAX_OPS = 1_000_000                  # operations in one file
MAX_LINES = 2 * MAX_OPS              # lines in one file (operations, comments and blank lines)
MAX_LINE_CHARS = 4_000_000           # characters in one line (a stroke of MAX_STROKE points fits)
MAX_DIGITS = 15                      # digits of a whole number in an operation (1e15 is beyond any map)
MAX_STROKE = 100_000                 # points in one paint stroke
OP_NAMES = ("paint", "erase", "fill", "line", "rect", "circle", "ceiling", "edge", "undo", "redo", "point")
Pos = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Paint:
    """A brush stroke: the brush stamped along ``at`` (one point or a drag, joined by lines)."""
    layer: str
    value: float | bool           # in the map's units (width, ceiling) or a flag
    at: tuple[Pos, ...]
    brush: int = 1
    shape: str = "square"


@dataclass(frozen=True, slots=True)
class Fill:
    """Exact-value bucket fill from ``at`` (``contiguous=False``: every square of that value)."""
    layer: str
    value: float | bool
    at: Pos
    contiguous: bool = True


@dataclass(frozen=True, slots=True)
class Line:
    layer: str
    value: float | bool
    start: Pos
    end: Pos
    brush: int = 1
    shape: str = "square"


@dataclass(frozen=True, slots=True)
class Rect:
    layer: str
    value: float | bool
    start: Pos
    end: Pos
    filled: bool = True


@dataclass(frozen=True, slots=True)
class Circle:
    """The circle about ``start`` through ``end``."""
    layer: str
    value: float | bool
    start: Pos
    end: Pos
    filled: bool = True


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Redo:
    pass


@dataclass(frozen=True, slots=True)
class PointOp:
    """Place or move the point ``name`` to ``at``; or rename it; or delete it."""
    name: str
    at: Pos | None = None
    rename: str | None = None
    delete: bool = False


@dataclass(frozen=True, slots=True)
class Ceiling:
    """Set the ceiling of floor squares in one operation, their widths untouched (an imported
    map's ceilings, which its file does not have, set without importing again): every floor
    square; or those in the rectangle ``start``-``end``; or the floor region holding ``at``
    (floor squares joined side by side, as a fill; a closed door parts two regions). Rock stays
    rock: a ceiling never opens a square."""
    value: float
    start: Pos | None = None
    end: Pos | None = None
    at: Pos | None = None


@dataclass(frozen=True, slots=True)
class Edge:
    """Wall (``value`` true) or open the edges between squares along one grid line, from grid
    corner ``start`` to grid corner ``end`` (``[X, Y]``: corner (X, Y) is the top-left corner of
    square (X, Y); the two share X or Y), docs/rules.md §6.8."""
    start: Pos
    end: Pos
    value: bool = True


Op = Paint | Fill | Line | Rect | Circle | Ceiling | Edge | Undo | Redo | PointOp


@dataclass(frozen=True, slots=True)
class Done:
    changed: int            # squares changed (0 for points, undo and redo report theirs)
    label: str = ""


@dataclass(frozen=True, slots=True)
class Refused:
    reason: str

    changed = 0


# =================================================================================================
# JSON <-> records
# =================================================================================================

def _j(v: Any) -> str:
    """A JSON value for a message, cut short (a message never repeats a huge value)."""
    try:
        text = json.dumps(v)
    except (ValueError, RecursionError):
        text = shorten(v)
    return shorten_text(text, 80)


def _pos(v: Any, key: str) -> Pos:
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(k, int) and not isinstance(k, bool) for k in v)):
        raise ValueError(f"{key!r} must be [x, y] with whole numbers, got {_j(v)}")
    return (int(v[0]), int(v[1]))


def _layer_value(d: dict, *, layer: str | None = None) -> tuple[str, float | bool]:
    layer = d.get("layer") if layer is None else layer
    if layer not in LAYERS:
        raise ValueError(f"'layer' must be one of {', '.join(LAYERS)}, got {_j(layer)}")
    if "value" not in d:
        raise ValueError("missing 'value' (a number of the map's units, or true/false for difficult and rock)")
    v = d["value"]
    if layer in ("difficult", "rock"):
        if not isinstance(v, bool):
            raise ValueError(f"'value' for {layer} must be true or false, got {_j(v)}")
        return layer, v
    try:
        f = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else math.nan
    except OverflowError:                       # a whole number too large for a float (10**400)
        f = math.inf
    if not math.isfinite(f) or f < 0:
        raise ValueError(f"'value' for {layer} must be a number >= 0 (0 = rock), got {_j(v)}")
    return layer, f


def _brush(d: dict) -> tuple[int, str]:
    b = d.get("brush", 1)
    if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= MAX_BRUSH:
        raise ValueError(f"'brush' must be a whole number 1-{MAX_BRUSH}, got {_j(b)}")
    s = d.get("shape", "square")
    if s not in SHAPES:
        raise ValueError(f"'shape' must be \"square\" or \"round\", got {_j(s)}")
    return b, s


def _flag(d: dict, key: str, default: bool) -> bool:
    v = d.get(key, default)
    if not isinstance(v, bool):
        raise ValueError(f"{key!r} must be true or false, got {_j(v)}")
    return v


_KEYS = {
    "paint": {"layer", "value", "at", "brush", "shape"},
    "erase": {"at", "brush", "shape"},
    "fill": {"layer", "value", "at", "contiguous"},
    "line": {"layer", "value", "from", "to", "brush", "shape"},
    "rect": {"layer", "value", "from", "to", "filled"},
    "circle": {"layer", "value", "from", "to", "filled"},
    "ceiling": {"value", "from", "to", "at"},
    "edge": {"from", "to", "value"},
    "undo": set(),
    "redo": set(),
    "point": {"name", "at", "rename", "delete"},
}


def parse_op(d: Any) -> Op:
    """One operation from its JSON object; ValueError (message without the place) if bad."""
    if not isinstance(d, dict):
        raise ValueError(f"an operation is a JSON object such as {{\"op\": \"paint\", ...}}, got {_j(d)}")
    name = d.get("op")
    if name not in OP_NAMES:
        raise ValueError(f"'op' must be one of {', '.join(OP_NAMES)}, got {_j(name)}")
    extra = sorted(set(d) - _KEYS[name] - {"op"})
    if extra:
        raise ValueError(f"{name}: unknown key {shorten(extra[0], 40)}; {name} takes "
                         f"{', '.join(sorted(_KEYS[name])) or 'no other keys'}")
    if name in ("paint", "erase"):
        layer, value = ("rock", True) if name == "erase" else _layer_value(d)
        if "at" not in d:
            raise ValueError(f"{name}: missing 'at' ([x, y], or a list of them for a stroke)")
        at = d["at"]
        pts = [at] if (isinstance(at, list) and len(at) == 2 and not isinstance(at[0], list)) else at
        if not isinstance(pts, list) or not pts:
            raise ValueError(f"{name}: 'at' must be [x, y] or a list of [x, y], got {_j(at)}")
        if len(pts) > MAX_STROKE:
            raise ValueError(f"{name}: a stroke has at most {MAX_STROKE} points, got {len(pts)}; split it")
        brush, shape = _brush(d)
        return Paint(layer, value, tuple(_pos(p, "at") for p in pts), brush, shape)
    if name == "fill":
        layer, value = _layer_value(d)
        if "at" not in d:
            raise ValueError("fill: missing 'at' ([x, y], where the fill starts)")
        return Fill(layer, value, _pos(d["at"], "at"), _flag(d, "contiguous", True))
    if name in ("line", "rect", "circle"):
        layer, value = _layer_value(d)
        for k in ("from", "to"):
            if k not in d:
                raise ValueError(f"{name}: missing {k!r} ([x, y])")
        a, b = _pos(d["from"], "from"), _pos(d["to"], "to")
        if name == "line":
            brush, shape = _brush(d)
            return Line(layer, value, a, b, brush, shape)
        return (Rect if name == "rect" else Circle)(layer, value, a, b, _flag(d, "filled", True))
    if name == "ceiling":
        return _ceiling_op(d)
    if name == "edge":
        for k in ("from", "to"):
            if k not in d:
                raise ValueError(f"edge: missing {k!r} ([X, Y], a grid corner)")
        a, b = _pos(d["from"], "from"), _pos(d["to"], "to")
        if a[0] != b[0] and a[1] != b[1]:
            raise ValueError(f"edge: a wall between squares runs along one grid line; from {list(a)} to {list(b)} "
                             "is slanted (give the same X or the same Y)")
        return Edge(a, b, _flag(d, "value", True))
    if name == "undo":
        return Undo()
    if name == "redo":
        return Redo()
    try:
        pname = check_name(d.get("name"), "name")
        rename = d.get("rename")
        if rename is not None:
            rename = check_name(rename, "rename")
    except ValueError as exc:
        raise ValueError(f"point: {exc}") from None
    delete = _flag(d, "delete", False)
    at = _pos(d["at"], "at") if "at" in d else None
    if at is None and rename is None and not delete:
        raise ValueError("point: give 'at' to place or move it, 'rename' to rename it, or \"delete\": true")
    return PointOp(pname, at, rename, delete)


def _ceiling_op(d: dict) -> Ceiling:
    """``{"op": "ceiling", "value": FT}`` with ``from`` and ``to`` (a rectangle) or ``at`` (a
    region), or neither (every floor square)."""
    _, value = _layer_value(d, layer="ceiling")
    if value <= 0:
        raise ValueError(f"ceiling: 'value' must be > 0 (it sets floor squares' ceilings; to make rock, "
                         f"use erase), got {_j(d['value'])}")
    if ("from" in d) != ("to" in d):
        raise ValueError("ceiling: give both 'from' and 'to' (a rectangle), 'at' (the floor region holding that "
                         "square), or neither (every floor square)")
    if "at" in d and "from" in d:
        raise ValueError("ceiling: give 'from' and 'to' (a rectangle) or 'at' (a region), not both")
    if "at" in d:
        return Ceiling(value, at=_pos(d["at"], "at"))
    if "from" in d:
        return Ceiling(value, start=_pos(d["from"], "from"), end=_pos(d["to"], "to"))
    return Ceiling(value)


def to_json(op: Op) -> dict:
    """The JSON object of an operation (the inverse of :func:`parse_op`)."""
    if isinstance(op, Paint):
        if op.layer == "rock" and op.value is True:
            d: dict = {"op": "erase"}
        else:
            d = {"op": "paint", "layer": op.layer, "value": op.value}
        d["at"] = list(op.at[0]) if len(op.at) == 1 else [list(p) for p in op.at]
        d.update(brush=op.brush, shape=op.shape)
        return d
    if isinstance(op, Fill):
        d = {"op": "fill", "layer": op.layer, "value": op.value, "at": list(op.at)}
        if not op.contiguous:
            d["contiguous"] = False
        return d
    if isinstance(op, Line):
        return {"op": "line", "layer": op.layer, "value": op.value, "from": list(op.start), "to": list(op.end),
                "brush": op.brush, "shape": op.shape}
    if isinstance(op, (Rect, Circle)):
        d = {"op": type(op).__name__.lower(), "layer": op.layer, "value": op.value, "from": list(op.start), "to": list(op.end)}
        if not op.filled:
            d["filled"] = False
        return d
    if isinstance(op, Ceiling):
        d = {"op": "ceiling", "value": op.value}
        if op.start is not None:
            d.update({"from": list(op.start), "to": list(op.end)})
        if op.at is not None:
            d["at"] = list(op.at)
        return d
    if isinstance(op, Edge):
        return {"op": "edge", "from": list(op.start), "to": list(op.end), "value": op.value}
    if isinstance(op, Undo):
        return {"op": "undo"}
    if isinstance(op, Redo):
        return {"op": "redo"}
    d = {"op": "point", "name": op.name}
    if op.at is not None:
        d["at"] = list(op.at)
    if op.rename is not None:
        d["rename"] = op.rename
    if op.delete:
        d["delete"] = True
    return d


# =================================================================================================
# Running an operation
# =================================================================================================

def feet(doc: Document, layer: str, value: float | bool) -> float | bool:
    """A value in the map's units as stored (feet), flags unchanged."""
    if layer in ("difficult", "rock"):
        return bool(value)
    if doc.units == "m":
        value = round(float(value), 9)   # what a metric map file keeps (sim.maps.write.length)
    return to_feet(value, doc.units)


def _off(doc: Document, at: Pos) -> str:
    return f"({at[0]}, {at[1]}) is off the map ({doc.cols}x{doc.rows})"


def _value_problem(doc: Document, layer: str, value) -> str | None:
    if layer in ("width", "ceiling"):
        ft = feet(doc, layer, value)
        if ft > MAX_FT:
            return f"{layer} {value:g} {doc.units} is over the largest allowed ({MAX_FT:g} ft)"
    return None


def squares_of(doc: Document, op: Op) -> np.ndarray:
    """The squares a painting operation touches (flat indices), before any value is applied."""
    if isinstance(op, Paint):
        return stamp(doc.shape, stroke_points(op.at), op.brush, op.shape)
    if isinstance(op, Line):
        return stamp(doc.shape, stroke_points([op.start, op.end]), op.brush, op.shape)
    if isinstance(op, Rect):
        return rect_squares(doc.shape, op.start, op.end, filled=op.filled)
    if isinstance(op, Circle):
        return circle_squares(doc.shape, op.start, op.end, filled=op.filled)
    if isinstance(op, Fill):
        return fill_squares(doc, op.layer, op.at, contiguous=op.contiguous)
    raise TypeError(f"not a painting operation: {op!r}")


def run(doc: Document, op: Op) -> Done | Refused:
    """Apply one operation to the document; a refusal changes nothing."""
    if isinstance(op, Undo):
        p = doc.undo()
        return Done(p.index.size, f"undo {p.label}") if p else Refused("nothing to undo")
    if isinstance(op, Redo):
        p = doc.redo()
        return Done(p.index.size, f"redo {p.label}") if p else Refused("nothing to redo")
    if isinstance(op, PointOp):
        return _point(doc, op)
    if isinstance(op, Ceiling):
        return _ceiling(doc, op)
    if isinstance(op, Edge):
        for at in (op.start, op.end):
            if not (0 <= at[0] <= doc.cols and 0 <= at[1] <= doc.rows):
                return Refused(f"edge: corner ({at[0]}, {at[1]}) is off the map (corners 0-{doc.cols} by 0-{doc.rows})")
        label = f"{'wall' if op.value else 'open'} edges"
        patch = plan_edges(doc, op.start, op.end, op.value, label=label)
        doc.apply(patch)
        return Done(int(patch.index.size), label)
    name = type(op).__name__.lower()
    ends = op.at if isinstance(op, Paint) else ((op.at,) if isinstance(op, Fill) else (op.start, op.end))
    for at in ends:
        if not doc.in_bounds(at):
            return Refused(f"{name}: {_off(doc, at)}")
    problem = _value_problem(doc, op.layer, op.value)
    if problem:
        return Refused(f"{name}: {problem}")
    label = f"{name} {op.layer}"
    patch = plan(doc, squares_of(doc, op), op.layer, feet(doc, op.layer, op.value), label=label)
    doc.apply(patch)
    return Done(int(patch.index.size), label)


def ceiling_squares(doc: Document, op: Ceiling) -> np.ndarray:
    """The floor squares (flat indices) whose ceiling ``op`` sets: all, a rectangle's, or a region's."""
    floor = ~doc.rock & ~doc.door
    if op.at is not None:
        lab, _ = ndimage.label(floor)      # side by side (scipy's default structure in 2-D: the cross)
        return np.flatnonzero(lab == lab[op.at[1], op.at[0]])
    if op.start is not None:
        idx = rect_squares(doc.shape, op.start, op.end, filled=True)
        return idx[floor.ravel()[idx]]
    return np.flatnonzero(floor)


def _ceiling(doc: Document, op: Ceiling) -> Done | Refused:
    for at in (op.at, op.start, op.end):
        if at is not None and not doc.in_bounds(at):
            return Refused(f"ceiling: {_off(doc, at)}")
    if op.at is not None and (doc.rock[op.at[1], op.at[0]] or doc.door[op.at[1], op.at[0]]):
        return Refused(f"ceiling: ({op.at[0]}, {op.at[1]}) is {'a closed door' if doc.door[op.at[1], op.at[0]] else 'rock'}"
                       "; give a floor square of the region")
    problem = _value_problem(doc, "ceiling", op.value)
    if problem:
        return Refused(f"ceiling: {problem}")
    where = "region" if op.at is not None else "rect" if op.start is not None else "all floor"
    label = f"ceiling {where}"
    patch = plan(doc, ceiling_squares(doc, op), "ceiling", feet(doc, "ceiling", op.value), label=label)
    doc.apply(patch)
    return Done(int(patch.index.size), label)


def _point(doc: Document, op: PointOp) -> Done | Refused:
    pts = dict(doc.points)
    what = f"point {op.name}"
    if op.delete:
        if op.name not in pts:
            return Refused(f"{what}: no such point (the map has {', '.join(pts) or 'none'})")
        del pts[op.name]
        doc.apply(plan_points(doc, pts, label=f"delete {what}"))
        return Done(0, f"delete {what}")
    if op.rename is not None:
        if op.name not in pts:
            return Refused(f"{what}: no such point (the map has {', '.join(pts) or 'none'})")
        if op.rename in pts and op.rename != op.name:
            return Refused(f"{what}: cannot rename to {op.rename!r}, a point of that name exists")
        pts = {(op.rename if k == op.name else k): v for k, v in pts.items()}
    name = op.rename or op.name
    if op.at is not None:
        if not doc.in_bounds(op.at):
            return Refused(f"{what}: {_off(doc, op.at)}")
        if doc.rock[op.at[1], op.at[0]]:
            return Refused(f"{what}: ({op.at[0]}, {op.at[1]}) is solid rock; put the point on a floor square")
        pts[name] = op.at
    label = f"{'rename' if op.rename else 'place'} {what}"
    doc.apply(plan_points(doc, pts, label=label))
    return Done(0, label)


# =================================================================================================
# The scripted front end: an OPS.jsonl file
# =================================================================================================

def read_ops(path: str | Path) -> list[tuple[int, Op]]:
    """Every operation of an ``OPS.jsonl`` file with its line number; blank lines and lines
    starting with ``#`` are skipped. Every bad line is reported at once (DataError). The file is
    read through :func:`sim.base.fileio.read_input` (a regular file of at most :data:`MAX_OPS_BYTES`:
    ``/dev/zero``, a FIFO or a folder is refused without waiting on it)."""
    path = Path(path)
    try:
        raw = read_input(path, what="file of operations (--apply)", limit=MAX_OPS_BYTES)
    except DataError as exc:
        msg = str(exc)
        raise DataError(msg + " of --apply" if msg.endswith("check the path") else msg) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    n = text.count("\n") + 1
    if n > MAX_LINES:
        raise DataError(f"{path}: {n:,} lines, over the limit of {MAX_LINES:,} for an operations file; split it")
    return parse_ops(text.split("\n"), path)


class _Unreadable(ValueError):
    """A number in an operation line that no map can use (raised while the line is parsed)."""


def _parse_int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"a whole number of {len(s.lstrip('-')):,} digits ({shorten_text(s, 20)}); numbers in "
                          f"operations have at most {MAX_DIGITS} digits")
    return int(s)


def _parse_constant(s: str) -> float:
    raise _Unreadable(f"{s} is not a number an operation can use; write a number such as 10")


def _loads(s: str) -> Any:
    """One JSON line; refuses huge whole numbers, NaN/Infinity and deep nesting (_Unreadable)."""
    try:
        return json.loads(s, parse_int=_parse_int, parse_constant=_parse_constant)
    except RecursionError:
        raise _Unreadable("JSON nested too deep; an operation is one flat object such as "
                          "{\"op\": \"paint\", \"at\": [[1, 2], [3, 4]]}") from None


def parse_ops(lines: Iterable[str], path: str | Path = "<ops>") -> list[tuple[int, Op]]:
    out: list[tuple[int, Op]] = []
    problems: list[str] = []
    for n, line in enumerate(lines, 1):
        if n > MAX_LINES:
            problems.append(f"{path}:{n}: more than {MAX_LINES:,} lines; split the file")
            break
        if len(line) > MAX_LINE_CHARS:
            problems.append(f"{path}:{n}: a line of {len(line):,} characters, over the limit of {MAX_LINE_CHARS:,}; "
                            "split the stroke into several operations")
        else:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if len(out) + len(problems) >= MAX_OPS:
                problems.append(f"{path}:{n}: more than {MAX_OPS:,} operations; split the file")
                break
            try:
                d = _loads(s)
            except json.JSONDecodeError as exc:
                problems.append(f"{path}:{n}: not valid JSON ({exc.msg} at column {exc.colno}); write one JSON "
                                "object a line, e.g. {\"op\": \"undo\"}")
            except ValueError as exc:   # _Unreadable, or Python's own digit limit
                problems.append(f"{path}:{n}: {shorten_text(str(exc))}")
            else:
                try:
                    out.append((n, parse_op(d)))
                except ValueError as exc:
                    problems.append(f"{path}:{n}: {exc}")
                except RecursionError:
                    problems.append(f"{path}:{n}: JSON nested too deep; an operation is one flat object")
        if len(problems) >= 50:
            problems.append(f"{path}: stopped after 50 problems")
            break
    if problems:
        raise DataError.collect(problems)
    return out


def write_ops(path: str | Path, ops: Iterable[Op], *, header: str = "") -> None:
    """Operations as an ``OPS.jsonl`` file, one JSON object a line (atomically); ``header``
    lines are written first as ``#`` comments."""
    lines = [f"# {h}\n" for h in header.splitlines()] + [json.dumps(to_json(op)) + "\n" for op in ops]
    atomic_write_text(path, "".join(lines))


def apply_ops(doc: Document, ops: list[tuple[int, Op]], path: str | Path = "<ops>") -> list[Done]:
    """Run the operations in order; the first refusal is a DataError naming its line (the
    document is then half-edited: callers write nothing)."""
    done = []
    for n, op in ops:
        r = run(doc, op)
        if isinstance(r, Refused):
            raise DataError(f"{path}:{n}: {r.reason}; nothing was written")
        done.append(r)
    return done
