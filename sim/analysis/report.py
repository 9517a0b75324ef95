"""Pictures, HTML and files of the designer reports (``cavesim analyze`` and fight batches).

Pictures are PNG bytes drawn with matplotlib's object API (no pyplot state, no window) in the
renderer's colours (:mod:`sim.maps.palette`: plain RGB tuples, it imports no pygame). The HTML
page is one self-contained file: the PNGs are embedded as data URIs, so it can be mailed or
archived alone; the PNG files are written beside it too. Every file is written atomically (a
temporary file renamed into place).

>>> html_table(["a", "b"], [[1, "<x>"]])
'<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>&lt;x&gt;</td></tr></tbody></table>'
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path
from typing import Iterable

import numpy as np

from sim.base.errors import UsageError
from sim.base.fileio import atomic_dir, check_writable
from sim.maps import palette
from sim.rules.categories import Category

RGB = tuple[int, int, int]


# =================================================================================================
# Colours
# =================================================================================================

def colours() -> dict:
    """The colours the pictures use: the renderer's palette (a pygame-free table of colours)."""
    p = palette
    return {"category": {c.name: tuple(p.CATEGORY_RGB[c.name]) for c in Category}, "rock": tuple(p.ROCK_DARK),
            "floor_low": tuple(p.FLOOR_LOW), "floor_high": tuple(p.FLOOR_HIGH), "rubble": tuple(p.RUBBLE),
            "accent": tuple(p.UI_ACCENT), "path": tuple(p.PATH), "team": p.team_rgb}


def _unit(rgb: Iterable[int]) -> tuple[float, float, float]:
    r, g, b = rgb
    return (r / 255, g / 255, b / 255)


def category_image(cats: np.ndarray, rock: np.ndarray, pal: dict | None = None) -> np.ndarray:
    """``(rows, cols, 3)`` uint8 picture of a category array in the palette's colours (rock dark).

    >>> img = category_image(np.array([[0, 6]], np.uint8), np.array([[False, True]]))
    >>> img.shape, img.dtype.name
    ((1, 2, 3), 'uint8')
    """
    pal = pal or colours()
    lut = np.array([pal["category"][c.name] for c in Category], dtype=np.uint8)
    img = lut[np.clip(cats, 0, len(Category) - 1)]
    img[rock] = pal["rock"]
    return img


def cave_image(width_ft: np.ndarray, height_ft: np.ndarray, rock: np.ndarray, difficult: np.ndarray | None = None,
               pal: dict | None = None) -> np.ndarray:
    """The cave as the renderer shades it: floor from dark (ceiling 2 ft or less) to light
    (16 ft or more), rubble darker, rock dark."""
    pal = pal or colours()
    t = np.clip((np.asarray(height_ft, float) - 2.0) / 14.0, 0.0, 1.0)[..., None]
    lo = np.array(pal["floor_low"], float)
    hi = np.array(pal["floor_high"], float)
    img = lo + (hi - lo) * t
    if difficult is not None:
        img[difficult] = 0.6 * img[difficult] + 0.4 * np.array(pal["rubble"], float)
    img[rock] = pal["rock"]
    return img.astype(np.uint8)


# =================================================================================================
# Figures (matplotlib, object API)
# =================================================================================================

def _figure(cols: int, rows: int, *, legend_w: float = 0.0, title: bool = True, large: bool = False):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    # inches per square: maps of any size fit (``large``: about 11 inches across, for heat maps)
    scale = max(0.06, min(0.4, 11.0 / max(cols, rows))) if large else max(0.06, min(0.25, 9.0 / max(cols, rows)))
    w = cols * scale + legend_w + 0.4
    h = rows * scale + (0.55 if title else 0.2)
    fig = Figure(figsize=(max(w, 3.0), max(h, 1.6)), dpi=110)
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight", pad_inches=0.08)
    return buf.getvalue()


def floor_picture(grid, px_per_square: int = 24) -> np.ndarray | None:
    """The map's own floor picture (``[map] image``, e.g. an imported map) as an RGB array of
    ``px_per_square`` pixels per square, or None (no picture, or unreadable)."""
    if getattr(grid, "image", None) is None:
        return None
    from PIL import Image

    try:
        with Image.open(grid.image) as im:
            pic = im.convert("RGB").resize((grid.cols * px_per_square, grid.rows * px_per_square),
                                           Image.Resampling.LANCZOS)
    except OSError:
        return None
    return np.asarray(pic)


def _under_alpha(rock: np.ndarray, strong: np.ndarray | None = None) -> np.ndarray:
    """Opacity of the per-square layer over a floor picture: rock shaded, floor a light tint,
    ``strong`` squares (chokepoints, values) nearly opaque."""
    a = np.where(rock, 0.62, 0.30)
    if strong is not None:
        a = np.where(strong, 0.78, a)
    return a


def _axes(fig, img: np.ndarray, title: str, *, under: np.ndarray | None = None, alpha: np.ndarray | None = None):
    ax = fig.add_subplot(1, 1, 1)
    rows, cols = img.shape[:2]
    if under is not None:  # the map's picture first, the squares over it
        ax.imshow(under, interpolation="antialiased", extent=(0, cols, rows, 0))
        rgba = np.dstack([np.asarray(img, np.float64) / 255.0, alpha if alpha is not None else np.full((rows, cols), 0.4)])
        ax.imshow(rgba, interpolation="nearest", extent=(0, cols, rows, 0))
    else:
        ax.imshow(img, interpolation="nearest", extent=(0, cols, rows, 0))
    ax.set_title(title, fontsize=9)
    _coords(ax, cols, rows, left=True, bottom=True)
    return ax


def category_png(cats: np.ndarray, rock: np.ndarray, title: str, pal: dict | None = None, *,
                 under: np.ndarray | None = None) -> bytes:
    """One body's category of every square, with a legend (over ``under``, the map's picture,
    when given)."""
    from matplotlib.patches import Patch

    pal = pal or colours()
    fig = _figure(cats.shape[1], cats.shape[0], legend_w=1.9)
    ax = _axes(fig, category_image(cats, rock, pal), title, under=under,
               alpha=np.where(rock, 0.62, 0.55))
    present = {int(c) for c in np.unique(cats[~rock])}
    handles = [Patch(facecolor=_unit(pal["category"][c.name]), edgecolor="none", label=c.label)
               for c in Category if int(c) in present]
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False)
    return _png(fig)


def value_png(values: np.ndarray, rock: np.ndarray, title: str, *, label: str, cmap: str = "viridis",
              marks: dict | None = None, background: np.ndarray | None = None, zero_clear: bool = False,
              pal: dict | None = None, large: bool = False) -> bytes:
    """A number per square (travel time, counts) over the cave, with a colour bar: NaN squares
    (and zeros when ``zero_clear``) show ``background`` (default grey), rock dark; ``marks``:
    name -> (x, y) drawn as white dots with their names."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    pal = pal or colours()
    v = np.asarray(values, dtype=float)
    rows, cols = v.shape
    fig = _figure(cols, rows, legend_w=0.9, large=large)
    shown = np.isfinite(v) & ~rock
    if zero_clear:
        shown &= v > 0
    lo, hi = (float(v[shown].min()), float(v[shown].max())) if shown.any() else (0.0, 1.0)
    if zero_clear:
        lo = 0.0
    norm = Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1)
    cm = colormaps[cmap]
    img = (np.full((rows, cols, 3), 0.42) if background is None else np.asarray(background, float) / 255.0)
    img = img.copy()
    img[shown] = cm(norm(v[shown]))[:, :3]
    img[rock] = _unit(pal["rock"])
    ax = _axes(fig, (img * 255).astype(np.uint8), title)
    cb = fig.colorbar(ScalarMappable(norm=norm, cmap=cm), ax=ax, fraction=0.04, pad=0.02)
    cb.set_label(label, fontsize=7)
    cb.ax.tick_params(labelsize=7)
    for name, (x, y) in (marks or {}).items():
        ax.plot([x + 0.5], [y + 0.5], "o", ms=4, mfc="white", mec="black", mew=0.6)
        ax.annotate(name, (x + 0.5, y + 0.5), xytext=(3, 3), textcoords="offset points", fontsize=6,
                    color="white", bbox=dict(boxstyle="round,pad=0.15", fc=(0, 0, 0, 0.55), ec="none"))
    return _png(fig)


def overview_png(grid, layout, title: str, pal: dict | None = None, *, under: np.ndarray | None = None) -> bytes:
    """The cave shaded by ceiling, areas outlined in colour, chokepoints' passages filled, their
    crossings outlined and labelled, named points marked; over ``under`` (the map's picture) when
    given."""
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    pal = pal or colours()
    rows, cols = grid.shape
    fig = _figure(cols, rows)
    img = cave_image(grid.width_ft, grid.height_ft, grid.rock, grid.difficult, pal).astype(float)
    tab = colormaps["tab10"]
    for a in range(1, layout.n_areas + 1):
        m = layout.area == a
        img[m] = 0.72 * img[m] + 0.28 * np.array(tab((a - 1) % 10)[:3]) * 255
    accent = np.array(pal["accent"], float)
    img[layout.neck > 0] = 0.6 * img[layout.neck > 0] + 0.4 * accent      # the passage, lightly
    for c in layout.chokepoints:
        for x, y in c.crossing:
            img[y, x] = accent                                            # the crossing, fully
    ax = _axes(fig, img.astype(np.uint8), title, under=under, alpha=_under_alpha(grid.rock, layout.neck > 0))
    for a in range(1, layout.n_areas + 1):
        ys, xs = np.nonzero(layout.cores == a)
        i = int(np.argmin((ys - ys.mean()) ** 2 + (xs - xs.mean()) ** 2))
        ax.text(xs[i] + 0.5, ys[i] + 0.5, f"A{a}", fontsize=7, ha="center", va="center", color="white",
                bbox=dict(boxstyle="round,pad=0.15", fc=tab((a - 1) % 10), ec="none", alpha=0.85))
    for c in layout.chokepoints:
        for x, y in c.crossing:   # the crossing outlined: where a way through crosses the passage
            ax.add_patch(Rectangle((x + 0.06, y + 0.06), 0.88, 0.88, fill=False, ec="black", lw=1.2))
        x, y = c.at
        ax.annotate(c.id, (x + 0.5, y + 0.5), xytext=(4, -8), textcoords="offset points", fontsize=7,
                    color="black", fontweight="bold",
                    bbox=dict(boxstyle="round,pad=0.12", fc=_unit(pal["accent"]), ec="black", lw=0.4))
    for name, (x, y) in grid.points.items():
        ax.plot([x + 0.5], [y + 0.5], "*", ms=7, mfc="white", mec="black", mew=0.6)
        ax.annotate(name, (x + 0.5, y + 0.5), xytext=(4, 4), textcoords="offset points", fontsize=6, color="white",
                    bbox=dict(boxstyle="round,pad=0.15", fc=(0, 0, 0, 0.6), ec="none"))
    return _png(fig)


def _tick_step(n: int) -> int:
    """Coordinate tick spacing for ``n`` squares: 5, 10, 20, 50..."""
    for step in (5, 10, 20, 50, 100, 200, 500, 1000):
        if n / step <= 8:
            return step
    return 2000


def _coords(ax, cols: int, rows: int, *, left: bool, bottom: bool) -> None:
    """Column and row numbers on the edges of a map's axes (square centres, ``X,Y`` as
    everywhere: column, row from the top left)."""
    sx, sy = _tick_step(cols), _tick_step(rows)
    xs = np.arange(0, cols, sx)
    ys = np.arange(0, rows, sy)
    ax.set_xticks(xs + 0.5)
    ax.set_yticks(ys + 0.5)
    ax.set_xticklabels([str(x) for x in xs] if bottom else [])
    ax.set_yticklabels([str(y) for y in ys] if left else [])
    ax.tick_params(labelsize=6, length=2, pad=1, top=True, right=True)


def multiples_png(panels: list[tuple[str, np.ndarray]], *, legend: list[tuple[str, tuple]] | None = None,
                  norm=None, cmap: str | None = None, label: str = "", ncols: int = 3,
                  marks: dict | None = None) -> bytes:
    """Small multiples: one map per panel (``(title, rgb image)``), all at one scale, with
    coordinates on the outer edges, and one shared legend (``legend``: label, RGB) or one shared
    colour bar (``norm`` + ``cmap``) for all of them. ``marks``: name -> (x, y) starred on each."""
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cm import ScalarMappable
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    n = len(panels)
    ncols = max(1, min(ncols, n))
    nrows = (n + ncols - 1) // ncols
    rows, cols = panels[0][1].shape[:2]
    panel_w = 12.4 / ncols
    panel_h = panel_w * rows / cols + 0.3
    fig = Figure(figsize=(13.0, nrows * panel_h + 0.7), dpi=100)
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    for k, ax in enumerate(axes.ravel()):
        if k >= n:
            ax.set_axis_off()
            continue
        title, img = panels[k]
        ax.imshow(img, interpolation="nearest", extent=(0, cols, rows, 0))
        ax.set_title(title, fontsize=8, pad=2)
        r, c = divmod(k, ncols)
        _coords(ax, cols, rows, left=(c == 0), bottom=(r == nrows - 1 or k + ncols >= n))
        for name, (x, y) in (marks or {}).items():
            ax.plot([x + 0.5], [y + 0.5], "*", ms=5, mfc="white", mec="black", mew=0.5)
    if legend:
        handles = [Patch(facecolor=_unit(rgb), edgecolor="none", label=text) for text, rgb in legend]
        fig.legend(handles=handles, loc="lower center", ncol=len(handles), fontsize=8, frameon=False)
    bottom_in = 0.95 if (legend or norm is not None) else 0.3
    fig.subplots_adjust(left=0.03, right=0.99, top=1 - 0.3 / fig.get_figheight(),
                        bottom=bottom_in / fig.get_figheight(), wspace=0.06, hspace=0.22)
    if norm is not None and not legend:
        cax = fig.add_axes((0.2, 0.42 / fig.get_figheight(), 0.6, 0.12 / fig.get_figheight()))
        cb = fig.colorbar(ScalarMappable(norm=norm, cmap=colormaps[cmap or "viridis"]), cax=cax,
                          orientation="horizontal")
        hi = float(norm.vmax)
        ticks = [t for t in (0, 1, 2, 4, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if t <= hi]
        cb.set_ticks(ticks)
        cb.set_ticklabels([str(t) for t in ticks])
        cb.set_label(label, fontsize=8)
        cb.ax.tick_params(labelsize=7)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def bars_png(groups: list[str], series: dict[str, list[tuple[float, float, float]]], title: str, *,
             ylabel: str, colour_of=None) -> bytes:
    """Grouped bars with error bars: ``series[name] = [(value, low, high) per group]``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(4.0, 1.1 * len(groups) * max(1, len(series)) * 0.6 + 2), 3.2), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    n = max(1, len(series))
    width = 0.8 / n
    xs = np.arange(len(groups))
    for k, (name, vals) in enumerate(series.items()):
        v = np.array([t[0] for t in vals])
        lo = v - np.array([t[1] for t in vals])
        hi = np.array([t[2] for t in vals]) - v
        col = _unit(colour_of(name, k)) if colour_of else None
        ax.bar(xs + (k - (n - 1) / 2) * width, v, width * 0.92, yerr=[lo, hi], capsize=3, label=name, color=col)
    ax.set_xticks(xs)
    ax.set_xticklabels(groups, fontsize=7, rotation=20 if len(groups) > 4 else 0, ha="right" if len(groups) > 4 else "center")
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, frameon=False)
    ax.set_ylim(0, max(1.0, ax.get_ylim()[1]))
    return _png(fig)


def histogram_png(counts: dict[str, dict[int, int]], title: str, *, xlabel: str) -> bytes:
    """Overlaid step histograms of integer values (e.g. rounds per fight), one per series."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5.5, 3.0), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    lo = min((min(c) for c in counts.values() if c), default=0)
    hi = max((max(c) for c in counts.values() if c), default=1)
    xs = np.arange(lo, hi + 1)
    for name, c in counts.items():
        total = sum(c.values()) or 1
        ys = np.array([c.get(int(x), 0) / total for x in xs])
        ax.step(xs, ys, where="mid", label=name, lw=1.4)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel("share of fights", fontsize=8)
    ax.set_title(title, fontsize=9)
    ax.tick_params(labelsize=7)
    if len(counts) > 1:
        ax.legend(fontsize=7, frameon=False)
    return _png(fig)


# =================================================================================================
# HTML and files
# =================================================================================================

def esc(v) -> str:
    return html.escape("" if v is None else str(v))


def html_table(head: list[str], rows: list[list], *, raw: bool = False) -> str:
    """A plain HTML table; cells are escaped unless ``raw`` (then they are HTML already)."""
    cell = (lambda v: "" if v is None else str(v)) if raw else esc
    h = "".join(f"<th>{esc(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{h}</tr></thead><tbody>{body}</tbody></table>"


def img_tag(png: bytes, alt: str) -> str:
    return f'<img alt="{esc(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:1em auto;max-width:1340px;color:#1d1f24;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccd}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0;font-size:.85em}td,th{border:1px solid #ccd;padding:.2em .45em;text-align:left;vertical-align:top}
th{background:#eef0f6}.cat{color:#111;white-space:nowrap}.muted{color:#778}.grid{display:flex;flex-wrap:wrap;gap:.6em}
.grid figure{margin:0}figcaption{font-size:.8em;color:#556}img{max-width:100%}code{background:#f2f3f7;padding:0 .2em}
.yes{color:#14622e;font-weight:600}.no{color:#fff;background:#a8323a;padding:0 .3em}nav ol{columns:2;margin:.3em 0}
details{margin:.3em 0}summary{cursor:pointer}
"""


def html_page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{esc(title)}</title>"
            f"<style>{CSS}</style></head><body>\n{body}\n</body></html>\n")


def cat_cell(category: str | None, text: str, pal: dict | None = None) -> str:
    """A table cell's HTML coloured like the category."""
    if category is None:
        return f'<span class="muted">{esc(text)}</span>'
    pal = pal or colours()
    r, g, b = pal["category"][category]
    fg = "#fff" if (0.299 * r + 0.587 * g + 0.114 * b) < 120 else "#111"
    return f'<span class="cat" style="background:rgb({r},{g},{b});color:{fg};padding:0 .3em">{esc(text)}</span>'


def safe_name(text: str) -> str:
    """A file-name-safe version of a key.

    >>> safe_name("maps/my ogre.toml")
    'maps_my_ogre.toml'
    """
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "x"


def prepare_dir(path: str | Path) -> Path:
    """The report folder, checked before any work: its parent must exist (a typo in a path should
    not silently build a tree of folders) and take new files (tried for real), and the folder
    itself, if it exists, must be a folder we may write in. Nothing is created yet."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise UsageError(f"{p}: exists and is not a folder; give a folder for the report")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise UsageError(f"{p}: folder {parent} does not exist; create it first or choose another folder")
    check_writable(p, what="report folder", folder=True)
    if p.is_dir():
        check_writable(p / "report.html", what="report folder")
    return p


def write_files(folder: Path, files: dict[str, bytes | str]) -> list[str]:
    """Write a report's files into ``folder`` through a temporary folder (:func:`sim.base.fileio.atomic_dir`):
    an interruption while writing leaves no partial report; returns the paths written."""
    with atomic_dir(folder) as tmp:
        for name, data in files.items():
            (tmp / name).write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return [str(folder / name) for name in files]


def dumps_json(obj) -> str:
    return json.dumps(obj, indent=1, sort_keys=False, allow_nan=False) + "\n"
