"""The one map writer: a :class:`~sim.terrain.grid.CaveGrid` back to DESIGN §5 TOML (README "Map files").

Two forms, as the loader reads them:

* **legend** (ASCII grid + ``[legend]``): one glyph per distinct (width, ceiling, difficult) class.
  :func:`legend_grid` builds it *exactly* (no rounding): it keeps the glyphs a grid already has and
  adds new ones for new values, so a legend map edited and saved stays readable; it gives up (None)
  past the :data:`GLYPHS` it can use. (``cavesim generate`` rounds its classes first, see
  :func:`sim.maps.generate.ascii_grid`.)
* **layers**: ``[map] layers = "NAME.npz"`` with exact float ``width_ft``, ``height_ft`` and bool
  ``difficult`` (and ``door`` when the map has closed doors).

Both carry ``[[point]]``, ``[[light]]`` and ``[map] image`` (the floor picture, written as a
sibling file). Every file is written atomically (temporary file and rename, :mod:`sim.base.fileio`);
the same grid gives the same bytes.

>>> import tempfile, pathlib
>>> from sim.scenario.files import load_map
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> g = CaveGrid.from_arrays([[0, 10, 2.5]], [[0, 12, 8]], name="t", points={"a": (1, 0)})
>>> write_map(g, d / "t.toml").fmt
'legend'
>>> print((d / "t.toml").read_text().split("[legend]")[0].split("grid = ")[1].strip())
\"\"\"
#,.
\"\"\"
>>> back = load_map(d / "t.toml")
>>> back.width_ft.tolist(), back.points["a"]
([[0.0, 10.0, 2.5]], (1, 0))
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.base.errors import DataError
from sim.base.fileio import atomic_path
from sim.terrain.grid import CaveGrid, Terrain

WALL_GLYPH = "#"
# Printable ASCII without space, quotes, backslash (they would need escaping in TOML) and the wall.
# The commonest floor class gets the first glyph. 90 glyphs.
GLYPHS = (".,:;-=+~*^`!?|/<>()[]{}_%&@$" "0123456789" "abcdefghijklmnopqrstuvwxyz"
          "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
ASCII_AUTO_MAX = 256  # fmt "auto" writes a legend grid up to this many columns and rows
FORMATS = ("auto", "legend", "layers")


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write_map` wrote: the grid as written, the files (the TOML first) and the form."""

    grid: CaveGrid
    files: tuple[Path, ...]
    fmt: str  # "legend" or "layers"


def legend_grid(grid: CaveGrid, *, max_glyphs: int = len(GLYPHS)) -> CaveGrid | None:
    """The grid with ``glyphs``/``legend`` set for its exact classes, or None when it has more
    than ``max_glyphs`` floor classes. Glyphs the grid already has keep their terrain; new classes
    get the next unused glyph, commonest first.

    >>> g = CaveGrid.from_arrays([[0, 5, 5, 2]], [[0, 8, 8, 8]])
    >>> a = legend_grid(g)
    >>> "".join(list(a.legend)[i] for i in a.glyphs[0]), a.legend[","].width
    ('#..,', 2.0)
    >>> legend_grid(g, max_glyphs=1) is None
    True
    """
    floor = ~grid.rock
    keys = np.stack([grid.width_ft[floor], grid.height_ft[floor], grid.difficult[floor].astype(np.float64)], 1)
    classes, inverse, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    inverse = np.asarray(inverse).ravel()
    known = {(t.width, t.height, float(t.difficult)): g for g, t in grid.legend.items() if not t.rock}
    legend: dict[str, Terrain] = {WALL_GLYPH: Terrain(0.0, 0.0, rock=True)}
    for g, t in grid.legend.items():  # keep the existing glyphs that are still used, in their order
        if not t.rock and g != WALL_GLYPH and (t.width, t.height, float(t.difficult)) in {tuple(c) for c in classes}:
            legend[g] = t
    free = [g for g in GLYPHS if g not in legend and g not in grid.legend]
    order = np.lexsort((classes[:, 2], classes[:, 1], classes[:, 0], -counts))  # commonest first
    glyph_of = np.empty(len(classes), dtype=object)
    for k in order:
        w, h, d = (float(v) for v in classes[k])
        g = known.get((w, h, d))
        if g is None or g not in legend:
            if not free:
                return None
            g = free.pop(0)
            legend[g] = Terrain(w, h, difficult=bool(d))
        glyph_of[k] = g
    if len(legend) - 1 > max_glyphs:
        return None
    index = {g: i for i, g in enumerate(legend)}
    idx = np.zeros(grid.shape, dtype=np.uint8)  # 0 = the wall glyph
    if len(classes):
        idx[floor] = np.array([index[g] for g in glyph_of], dtype=np.uint8)[inverse]
    return grid.replace(glyphs=idx, legend=legend)


_TOML_ESCAPE = re.compile('[\\\\"\x00-\x08\x0a-\x1f\x7f]')
_TOML_SHORT = {"\\": "\\\\", '"': '\\"', "\n": "\\n"}


def toml_str(s: str) -> str:
    """A TOML basic string: quote, backslash and line break escaped, and every other character
    TOML does not take raw (the controls but tab) as ``\\uXXXX``, so any string the loader read
    is written back readable (issue 34, item 9).

    >>> toml_str('a "b"')
    '"a \\\\"b\\\\""'
    >>> print(toml_str("a\\x00\\n[map]"))
    "a\\u0000\\n[map]"
    """
    return '"' + _TOML_ESCAPE.sub(lambda m: _TOML_SHORT.get(m.group(), f"\\u{ord(m.group()):04X}"), s) + '"'


def length(ft: float, units: str) -> str:
    """A length in feet as the map file writes it in ``units``: feet as :func:`num`; metres
    (1.5 m = 5 ft) with at most 9 decimals, which gives back what a metric file said (0.6 m,
    not 0.6000000000000001) and reads back to the same feet.

    >>> length(2.0, "m"), length(5, "m"), length(2.5, "ft")
    ('0.6', '1.5', '2.5')
    """
    if units != "m":
        return num(ft)
    return num(round(float(ft) * 3 / 10, 9))


def metres_layer(ft: np.ndarray) -> np.ndarray:
    """Feet as the metres of a metric ``.npz`` layer: the float nearest ``ft x 0.3`` whose
    ``x 10 / 3`` (what the loader does) gives ``ft`` back, where one of its neighbours does.

    >>> a = np.array([2.0, 10 / 3 * 0.7, 5.0])
    >>> bool(((metres_layer(a) * 10.0 / 3.0) == a).all())
    True
    """
    ft = np.asarray(ft, dtype=np.float64)
    m = ft * 3.0 / 10.0
    for cand in (m, np.nextafter(m, np.inf), np.nextafter(m, -np.inf)):
        ok = (cand * 10.0 / 3.0) == ft
        m = np.where(ok, cand, m)
        ft = np.where(ok, np.nan, ft)   # settled: later candidates leave it alone
    return m


def num(v: float) -> str:
    """A number as TOML writes it: whole numbers without a point, others exactly (``repr``)."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _header(grid: CaveGrid, comment: str, image: str | None) -> str:
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()]
    lines += [
        "[map]",
        f"name = {toml_str(grid.name)}",
        f"units = {toml_str(grid.units if grid.units in ('ft', 'm') else 'ft')}",
        f"description = {toml_str(grid.description)}",
    ]
    if image:
        lines.append(f"image = {toml_str(image)}")
    return "\n".join(lines)


def _tables(grid: CaveGrid) -> str:
    parts = [""]
    for name, (x, y) in grid.points.items():
        parts += ["[[point]]", f"name = {toml_str(name)}", f"at = [{x}, {y}]", ""]
    for light in grid.lights:
        parts.append("[[light]]")
        if light.name:
            parts.append(f"name = {toml_str(light.name)}")
        parts.append(f"at = [{light.at[0]}, {light.at[1]}]")
        if light.source:
            parts.append(f"source = {toml_str(light.source)}")
        else:
            parts += [f"bright_ft = {num(light.bright_ft)}", f"shadowy_ft = {num(light.shadowy_ft)}"]
        parts.append("")
    return "\n".join(parts)


def legend_map_toml(grid: CaveGrid, *, comment: str = "", image: str | None = None) -> str:
    """DESIGN §5 TOML with an ASCII grid and a ``[legend]``, for a grid with glyphs and a legend
    (:func:`legend_grid`, or :func:`sim.maps.generate.ascii_grid`)."""
    if grid.glyphs is None or not grid.legend:
        raise ValueError("legend_map_toml needs a grid with glyphs and a legend (see legend_grid)")
    glyphs = np.array(list(grid.legend))
    rows = ["".join(row) for row in glyphs[grid.glyphs]]
    out = [_header(grid, comment, image), 'grid = """', *rows, '"""', "", "[legend]"]
    for glyph, t in grid.legend.items():
        if t.rock:
            out.append(f'"{glyph}" = "wall"')
        else:
            extra = ", difficult = true" if t.difficult else ""
            w, h = length(t.width, grid.units), length(t.height, grid.units)
            out.append(f'"{glyph}" = {{ width = {w}, height = {h}{extra} }}')
    out.append(_tables(grid))
    return "\n".join(out)


def layers_map_toml(grid: CaveGrid, *, layers: str, comment: str = "", image: str | None = None) -> str:
    """The map as DESIGN §5 TOML whose terrain is in the sibling ``.npz`` file ``layers``
    (see :func:`layers_arrays`)."""
    return "\n".join([_header(grid, comment, image), f"layers = {toml_str(layers)}", _tables(grid)])


def layers_arrays(grid: CaveGrid) -> dict[str, np.ndarray]:
    """The exact arrays of the ``.npz`` layers format: float ``width_ft``, ``height_ft`` (0 on
    rock), bool ``difficult``, bool ``door`` when the map has a closed door, and the edge layers
    (``edge_e``, ``edge_s``, ``edge_door_e``, ``edge_door_s``, docs/rules.md §6.8) when it has
    walls or closed doors between squares."""
    conv = metres_layer if grid.units == "m" else (lambda a: np.asarray(a, dtype=np.float64))
    out = {
        "width_ft": conv(grid.width_ft),    # in the map's units, as the loader reads them
        "height_ft": conv(grid.height_ft),
        "difficult": np.asarray(grid.difficult, dtype=bool),
    }
    if grid.door is not None and grid.door.any():
        out["door"] = np.asarray(grid.door, dtype=bool)
    for names, layer in ((("edge_e", "edge_s"), grid.edges), (("edge_door_e", "edge_door_s"), grid.edge_doors)):
        if layer is not None:
            out[names[0]] = np.asarray(layer.east, dtype=bool)
            out[names[1]] = np.asarray(layer.south, dtype=bool)
    return out


def write_map(grid: CaveGrid, out: str | Path, *, fmt: str = "auto", comment: str = "",
              image: bytes | None = None, image_suffix: str = ".png", durable: bool = False) -> Written:
    """Write ``grid`` to the TOML file ``out``, and its sibling ``.npz`` layers and picture.

    ``fmt``: ``"legend"`` (refused with a message when the grid has more classes than glyphs),
    ``"layers"``, or ``"auto"`` (a legend when the map is at most :data:`ASCII_AUTO_MAX` squares a
    side and its classes fit, else layers). A map with closed doors or walls between squares is
    always written as layers (the legend has no door glyph and no edges). ``image``: the floor picture's encoded bytes, written as
    ``out`` with ``image_suffix``; without it, the grid's own ``image`` is copied beside ``out``
    when it lives elsewhere. Any file already written is removed again if a later one fails.
    A metric grid (``units = "m"``) is written in metres. ``durable``: fsync each file before
    its rename (the map editor's saves)."""
    out = Path(out)
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be one of {FORMATS}, got {fmt!r}")
    door_squares = grid.door is not None and bool(grid.door.any())
    doors = door_squares or grid.edges is not None
    written, form = grid, "layers"
    if fmt != "layers":
        if doors and fmt == "legend":
            what = "closed doors" if door_squares else "walls between squares"
            raise DataError(f"{out}: a map with {what} is written with numeric layers (.npz), not a legend")
        small = grid.cols <= ASCII_AUTO_MAX and grid.rows <= ASCII_AUTO_MAX
        lg = legend_grid(grid) if not doors and (fmt == "legend" or small) else None
        if lg is None and fmt == "legend":
            raise DataError(f"{out}: this map has more terrain classes than the {len(GLYPHS)} glyphs a legend map "
                            "can hold; write it with numeric layers (.npz) instead")
        if lg is not None:
            written, form = lg, "legend"
    pic_path, pic_bytes = _picture(grid, out, image, image_suffix)
    pic_name = pic_path.name if pic_path is not None else None
    files: list[tuple[Path, bytes | None, object]] = []
    if pic_bytes is not None:
        files.append((pic_path, pic_bytes, None))
    if form == "legend":
        files.append((out, legend_map_toml(written, comment=comment, image=pic_name).encode(), None))
    else:
        npz = out.with_suffix(".npz")
        files.append((npz, None, layers_arrays(written)))
        names = ", ".join(layers_arrays(written))
        text = layers_map_toml(written, layers=npz.name, image=pic_name,
                               comment=comment + f"\nFormat: exact numeric layers in {npz.name} ({names}).")
        files.append((out, text.encode(), None))
    _write_all(files, durable=durable)
    shown = [p for p, _, _ in files]
    return Written(grid=written, files=tuple([out] + [p for p in shown if p != out]), fmt=form)


def _picture(grid: CaveGrid, out: Path, image: bytes | None, suffix: str) -> tuple[Path | None, bytes | None]:
    """The floor picture's path beside ``out`` and the bytes to write there (None: nothing to write)."""
    if image is not None:
        return out.with_suffix(suffix), image
    if grid.image is None:
        return None, None
    dest = out.with_suffix(grid.image.suffix.lower())
    try:
        if dest.resolve() == grid.image.resolve():
            return dest, None  # saved where it was loaded: the picture is already there
        return dest, grid.image.read_bytes()
    except OSError as exc:
        raise DataError(f"{grid.image}: the map's picture cannot be read ({exc.strerror}); "
                        "restore it or remove [map] image") from None


def save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """``numpy.savez_compressed``, byte for byte the same for the same arrays (numpy stamps each
    member with the current time; here every member has the zip epoch)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, a in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(a), allow_pickle=False)
            z.writestr(info, buf.getvalue())


def _write_all(files: list[tuple[Path, bytes | None, object]], *, durable: bool = False) -> None:
    """Write each file atomically, in order (the TOML last, so a map never names a missing
    sibling); on failure, remove the siblings this call created."""
    created: list[Path] = []
    try:
        for path, data, arrays in files:
            existed = path.exists()
            with atomic_path(path, durable=durable) as tmp:
                if arrays is not None:
                    save_npz(tmp, arrays)
                else:
                    tmp.write_bytes(data)
            if not existed:
                created.append(path)
    except BaseException:
        for path in created:
            with contextlib.suppress(OSError):
                path.unlink()
        raise
