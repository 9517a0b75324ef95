"""The map editor's window (issue 18): a thin view over :mod:`sim.editor`.

Everything the user does becomes an operation record (:mod:`sim.editor.ops`) run on the
document, exactly as ``cavesim edit --apply`` runs them, and is kept in :attr:`EditorView.journal`
(``--record`` writes it). The window draws the active layer, the other layers as overlays, the
category overlay for a size (keys 1-9, as in play), the chokepoints (computed on a worker thread,
:mod:`sim.editor.live`), the named points, the brush preview and a status bar with the square
under the cursor.

Keys and mouse (the README lists them): W width, C ceiling, D difficult, K rock (the active
layer); B brush, E eraser, L line, R rectangle, O circle, F fill, I eyedropper, P points;
[ ] brush size 1-9, S square/round; V or Enter type a value (flags: V toggles), , . step through
the palette (or click it); 1-9 category overlay for Fine..Colossal, 0 off; G chokepoints;
Shift-drag a line, Ctrl-Shift-drag a circle; right click or Alt-click picks the value under the
cursor in any tool; Shift with rectangle/circle: outline; Shift-click with fill: every square of
that value; points: click to place, drag to move, N rename, Delete remove; Ctrl-Z undo, Ctrl-Y or
Ctrl-Shift-Z redo, Ctrl-S save; middle drag or Space-drag pans, wheel zooms, Home fits; H help;
Esc quits (asks first when there are unsaved edits).
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path

import numpy as np
import pygame

from sim.editor import ops as O
from sim.editor.live import Categories, Chokepoints, thresholds
from sim.editor.model import LAYERS, MAX_BRUSH, Document, brush_offsets, circle_squares, line_points, rect_squares
from sim.editor.save import Autosaver, find_autosave, restore_patch, save
from sim.errors import DataError
from sim.render import palette
from sim.render.camera import Camera
from sim.render.hud import SIZE_NAMES, panel_box
from sim.render.text import Text
from sim.rules.categories import Category

PANEL_W = 290
LIVE_CHOKE_SQUARES = 512 * 512   # larger maps start with the live chokepoints off (G turns them on)
STATUS_H = 28
TOOLS = ("brush", "eraser", "line", "rect", "circle", "fill", "pick", "point")
TOOL_KEYS = {pygame.K_b: "brush", pygame.K_e: "eraser", pygame.K_l: "line", pygame.K_r: "rect",
             pygame.K_o: "circle", pygame.K_f: "fill", pygame.K_i: "pick", pygame.K_p: "point"}
LAYER_KEYS = {pygame.K_w: "width", pygame.K_c: "ceiling", pygame.K_d: "difficult", pygame.K_k: "rock"}
TOOL_WORDS = {"brush": "Brush (B)", "eraser": "Eraser = rock (E)", "line": "Line (L, or Shift-drag)",
              "rect": "Rectangle (R)", "circle": "Circle (O, or Ctrl-Shift-drag)", "fill": "Fill same value (F)",
              "pick": "Eyedropper (I, right click)", "point": "Named points (P)"}
LAYER_WORDS = {"width": "Width (W)", "ceiling": "Ceiling (C)", "difficult": "Difficult ground (D)", "rock": "Rock (K)"}
WIDTH_LOW: palette.RGB = (40, 58, 74)        # the width ramp: narrow (dark blue-grey) to wide (pale)
WIDTH_HIGH: palette.RGB = (150, 196, 214)
CHOKE_RGB: palette.RGB = (255, 92, 200)
PREVIEW_RGB: palette.RGB = (255, 255, 255)
HELP_LINES = (
    "Layers: W width · C ceiling · D difficult · K rock",
    "Tools: B brush · E eraser · L line · R rectangle · O circle · F fill · I eyedropper · P points",
    "[ ] brush size · S square/round · V or Enter: type a value · , . palette",
    "Shift-drag line · Ctrl-Shift-drag circle · right click / Alt-click: eyedropper",
    "Shift: outline (rect, circle), every square of the value (fill)",
    "Points: click place · drag move · N rename · Delete remove",
    "1-9 categories for Fine..Colossal · 0 off · G chokepoints",
    "Ctrl-Z undo · Ctrl-Y / Ctrl-Shift-Z redo · Ctrl-S save",
    "middle drag or Space-drag pan · wheel zoom · Home fit · H help · Esc quit",
)


def _ramp(t: np.ndarray, lo, hi) -> np.ndarray:
    t = np.clip(t, 0.0, 1.0)[..., None]
    return (np.array(lo, float) + (np.array(hi, float) - np.array(lo, float)) * t)


def layer_rgb(doc: Document, layer: str, box=None) -> np.ndarray:
    """The picture of a layer, one RGB per square (``box``: only ``r0, c0, r1, c1``): widths from
    dark (narrow) to pale (wide), ceilings from dark (low) to light (high), difficult ground tinted,
    rock dark. Flag layers show the ceilings underneath."""
    r0, c0, r1, c1 = box if box is not None else (0, 0, doc.rows, doc.cols)
    w = doc.width[r0:r1, c0:c1]
    c = doc.ceiling[r0:r1, c0:c1]
    if layer == "width":
        rgb = _ramp(np.log2(np.maximum(w, 0.25) / 0.5) / np.log2(60.0), WIDTH_LOW, WIDTH_HIGH)
    else:
        rgb = _ramp(((np.clip(c, 2.0, 16.0) - 2.0) / 14.0) ** 0.7, palette.FLOOR_LOW, palette.FLOOR_HIGH)
    d = doc.difficult[r0:r1, c0:c1]
    rgb[d] = rgb[d] * 0.55 + np.array(palette.RUBBLE, float) * 0.45
    rock = doc.rock[r0:r1, c0:c1]
    rgb[rock] = palette.ROCK_DARK
    rgb[doc.door[r0:r1, c0:c1]] = (150, 96, 40)
    return rgb.astype(np.uint8)


class EditorView:
    """The editor's state on screen and its input handling (no main loop: :func:`run_editor`)."""

    def __init__(self, doc: Document, out: Path, *, size=(1280, 800), fmt: str = "keep", chokepoints: bool = True,
                 worker: str = "process", clock=time.monotonic, autosave_every: float | None = None):
        self.doc = doc
        self.out = Path(out)
        self.fmt = fmt
        self.size = size
        self.text = Text()
        self.camera = Camera()
        self.clock = clock
        self.layer = "width"
        self.tool = "brush"
        self.brush = 1
        self.shape = "square"
        u = 3.0 if doc.units == "m" else 10.0
        self.values: dict[str, float | bool] = {"width": u, "ceiling": u, "difficult": True, "rock": True}
        self.overlay: int | None = None
        self.size_index = 4                         # the size the status bar and palette speak for
        self.show_chokes = chokepoints and doc.width.size <= LIVE_CHOKE_SQUARES
        self.show_help = False
        self.cats = Categories(doc)
        self.chokes = Chokepoints(doc, worker=worker, clock=clock)
        kw = {} if autosave_every is None else {"every": autosave_every}
        self.autosaver = Autosaver(doc, self.out, clock=clock, **kw)
        self.journal: list = []
        self.restored = False
        self.hover: tuple[int, int] | None = None
        self.gesture: dict | None = None
        self.pan: tuple | None = None
        self.entry: dict | None = None              # typed text: {"what": "value"|"name"|"rename", "text": ..}
        self.ask: str | None = None                 # "restore" | "quit"
        self.message = ("", 0.0, palette.UI_TEXT)
        self.running = True
        self.frame_ms: deque[float] = deque(maxlen=600)
        self._small: pygame.Surface | None = None    # the map at one pixel a square, all layers composed
        self._small_key = None
        self._small_version = -1
        self._small_count = 0                       # bumps whenever _small changes (the scaled cache's key)
        self._view_cache = None
        self.palette_rects: list[tuple[pygame.Rect, object]] = []
        self.auto = find_autosave(self.out, doc.shape)
        if self.auto is not None:
            self.ask = "restore"
        self.resize(size)
        self.fit()

    # -- geometry ---------------------------------------------------------------------------------------------
    def resize(self, size) -> None:
        self.size = size
        w, h = size
        self.r_view = pygame.Rect(0, 0, max(100, w - PANEL_W), max(100, h - STATUS_H))
        self.r_panel = pygame.Rect(self.r_view.right, 0, w - self.r_view.right, h - STATUS_H)
        self.r_status = pygame.Rect(0, h - STATUS_H, w, STATUS_H)
        self.camera.view = (self.r_view.x, self.r_view.y, self.r_view.w, self.r_view.h)
        self._view_cache = None

    def fit(self) -> None:
        self.camera.fit(cols=self.doc.cols, rows=self.doc.rows, margin=0.5)
        self._view_cache = None

    def square_at(self, pos) -> tuple[int, int] | None:
        if not self.r_view.collidepoint(pos):
            return None
        sq = self.camera.square_at(*pos)
        return sq if self.doc.in_bounds(sq) else None

    # -- messages -----------------------------------------------------------------------------------------------
    def toast(self, text: str, seconds: float = 2.5, colour=palette.UI_TEXT) -> None:
        self.message = (text, self.clock() + seconds, colour)

    def fmt_len(self, ft: float) -> str:
        if self.doc.units == "m":
            return f"{ft * 0.3:.4g} m ({ft:.3g} ft)"
        return f"{ft:.4g} ft"

    def value_text(self, layer: str | None = None) -> str:
        layer = layer or self.layer
        v = self.values[layer]
        if layer in ("difficult", "rock"):
            return "yes" if v else "no"
        return f"{v:g} {self.doc.units}"

    # -- running operations (the one way the window changes the map) --------------------------------------------
    def do(self, op, *, quiet: bool = False):
        r = O.run(self.doc, op)
        if isinstance(r, O.Refused):
            self.toast(r.reason, 3.0, palette.UI_BAD)
        else:
            self.journal.append(op)
            if not quiet and r.label:
                self.toast(f"{r.label}: {r.changed} squares" if r.changed else r.label, 1.5)
        return r

    def undo(self) -> None:
        self.do(O.Undo())

    def redo(self) -> None:
        self.do(O.Redo())

    def save(self) -> bool:
        try:
            w = save(self.doc, self.out, fmt=self.fmt)
        except DataError as exc:
            self.toast(str(exc).splitlines()[0], 6.0, palette.UI_BAD)
            return False
        how = f"legend, {len(w.grid.legend)} glyphs" if w.fmt == "legend" else f"layers in {w.files[1].name}"
        bak = self.out.with_name(self.out.name + ".bak")
        self.toast(f"saved {self.out.name} ({how})" + (f"; the old one is {bak.name}" if bak.exists() else ""), 4.0,
                   palette.UI_GOOD)
        return True

    def pick(self, sq) -> None:
        v = self.doc.value(self.layer, sq)
        if self.layer in ("width", "ceiling"):
            v = round(v * 0.3, 9) if self.doc.units == "m" else v
            if v == 0:
                self.toast(f"({sq[0]}, {sq[1]}) is rock", 1.5)
                return
        self.values[self.layer] = v
        self.toast(f"{self.layer} = {self.value_text()}", 1.5)

    def palette_entries(self) -> list[tuple[object, str]]:
        """The values offered for the active layer: the legend's, then the rule thresholds for
        the chosen size (map units)."""
        if self.layer in ("difficult", "rock"):
            return [(True, "yes"), (False, "no")]
        key = "width" if self.layer == "width" else "height"
        conv = (lambda ft: round(ft * 0.3, 9)) if self.doc.units == "m" else (lambda ft: ft)
        out: list[tuple[object, str]] = []
        seen = set()
        for g, t in self.doc.legend.items():
            if t.rock:
                continue
            v = conv(getattr(t, key))
            if v not in seen:
                seen.add(v)
                out.append((v, f"legend '{g}'"))
        body = Categories.body(self.size_index)
        for ft, what in thresholds(body)[self.layer]:
            v = conv(ft)
            if v not in seen:
                seen.add(v)
                out.append((v, what))
        return out

    def step_palette(self, d: int) -> None:
        entries = self.palette_entries()
        vals = [v for v, _ in entries]
        cur = self.values[self.layer]
        i = vals.index(cur) if cur in vals else -1
        v, what = entries[(i + d) % len(entries)]
        self.values[self.layer] = v
        self.toast(f"{self.layer} = {self.value_text()}  ({what})", 1.5)

    # -- input ------------------------------------------------------------------------------------------------
    def handle(self, event) -> None:
        if event.type == pygame.QUIT:
            self.request_quit()
        elif event.type == pygame.VIDEORESIZE:
            self.resize(event.size)
        elif event.type == pygame.KEYDOWN:
            self.key(event.key, event.mod, getattr(event, "unicode", ""))
        elif event.type == pygame.MOUSEWHEEL:
            mx, my = pygame.mouse.get_pos()
            if self.r_view.collidepoint(mx, my):
                self.camera.zoom_at(1 if event.y > 0 else -1, mx, my)
                self._view_cache = None
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.press(event.pos, event.button, pygame.key.get_mods())
        elif event.type == pygame.MOUSEMOTION:
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.release(event.pos, event.button, pygame.key.get_mods())

    def request_quit(self) -> None:
        if self.doc.dirty:
            self.ask = "quit"
        else:
            self.running = False

    def key(self, key: int, mod: int, char: str = "") -> None:
        ctrl = bool(mod & pygame.KMOD_CTRL)
        shift = bool(mod & pygame.KMOD_SHIFT)
        if self.ask == "restore":
            if key == pygame.K_y:
                self.doc.apply(restore_patch(self.doc, self.auto))
                self.restored = True
                self.toast(f"restored the autosave of {self.auto.when()} (Ctrl-Z takes it back)", 4.0, palette.UI_GOOD)
                self.ask = None
            elif key in (pygame.K_n, pygame.K_ESCAPE):
                self.auto.path.unlink(missing_ok=True)
                self.toast("autosave discarded", 2.0)
                self.ask = None
            return
        if self.ask == "quit":
            self.ask = None
            if key == pygame.K_ESCAPE:
                self.autosaver.discard()
                self.running = False
            elif key == pygame.K_s and ctrl:
                if self.save():
                    self.running = False
            return
        if self.entry is not None:
            self._entry_key(key, char)
            return
        if self.gesture is not None and ctrl:
            return                                  # no undo, redo or save in the middle of a stroke
        if ctrl and key == pygame.K_z:
            self.redo() if shift else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl and key == pygame.K_s:
            self.save()
        elif key == pygame.K_ESCAPE:
            if self.gesture is not None:
                self.gesture = None
            else:
                self.request_quit()
        elif key in TOOL_KEYS and not ctrl:
            self.tool = TOOL_KEYS[key]
        elif key in LAYER_KEYS and not ctrl:
            self.layer = LAYER_KEYS[key]
        elif key == pygame.K_LEFTBRACKET:
            self.brush = max(1, self.brush - 1)
        elif key == pygame.K_RIGHTBRACKET:
            self.brush = min(MAX_BRUSH, self.brush + 1)
        elif key == pygame.K_s:
            self.shape = "round" if self.shape == "square" else "square"
        elif key in (pygame.K_v, pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.layer in ("difficult", "rock"):
                self.values[self.layer] = not self.values[self.layer]
            else:
                self.entry = {"what": "value", "text": ""}
        elif key == pygame.K_COMMA:
            self.step_palette(-1)
        elif key == pygame.K_PERIOD:
            self.step_palette(+1)
        elif pygame.K_1 <= key <= pygame.K_9:
            i = key - pygame.K_1
            self.overlay = None if self.overlay == i else i
            self.size_index = i
        elif key == pygame.K_0:
            self.overlay = None
        elif key == pygame.K_g:
            self.show_chokes = not self.show_chokes
        elif key == pygame.K_h:
            self.show_help = not self.show_help
        elif key == pygame.K_HOME:
            self.fit()
        elif key == pygame.K_n and self.hover is not None:
            name = self._point_at(self.hover)
            if name:
                self.entry = {"what": "rename", "text": "", "name": name}
        elif key in (pygame.K_DELETE, pygame.K_BACKSPACE) and self.hover is not None:
            name = self._point_at(self.hover)
            if name:
                self.do(O.PointOp(name, delete=True))

    def _entry_key(self, key: int, char: str) -> None:
        e = self.entry
        if key == pygame.K_ESCAPE:
            self.entry = None
        elif key == pygame.K_BACKSPACE:
            e["text"] = e["text"][:-1]
            e["fresh"] = False
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.entry = None
            self._entry_done(e)
        elif char and char.isprintable() and len(e["text"]) < 40:
            if e["what"] != "value" or char in "0123456789.":
                e["text"] = char if e.get("fresh") else e["text"] + char   # typing replaces a suggested name
                e["fresh"] = False

    def _entry_done(self, e: dict) -> None:
        text = e["text"].strip()
        if e["what"] == "value":
            try:
                v = float(text)
            except ValueError:
                self.toast(f"{text!r} is not a number of {self.doc.units}", 2.5, palette.UI_BAD)
                return
            if not (0 <= v <= (300 if self.doc.units == "m" else 1000)):
                self.toast(f"give 0 (rock) to {300 if self.doc.units == 'm' else 1000} {self.doc.units}", 2.5,
                           palette.UI_BAD)
                return
            self.values[self.layer] = v
            self.toast(f"{self.layer} = {self.value_text()}", 1.5)
        elif e["what"] == "name" and text:
            self.do(O.PointOp(text, at=e["at"]))
        elif e["what"] == "rename" and text:
            self.do(O.PointOp(e["name"], rename=text))

    def _point_at(self, sq) -> str | None:
        for name, p in self.doc.points.items():
            if tuple(p) == tuple(sq):
                return name
        return None

    def press(self, pos, button: int, mods: int) -> None:
        if self.ask or self.entry is not None:
            return
        if self.r_panel.collidepoint(pos) and button == 1:
            for rect, v in self.palette_rects:
                if rect.collidepoint(pos):
                    self.values[self.layer] = v
                    self.toast(f"{self.layer} = {self.value_text()}", 1.5)
            return
        space = pygame.key.get_pressed()[pygame.K_SPACE] if pygame.display.get_init() else False
        if button == 2 or (button == 1 and space):
            self.pan = (pos, pos)
            return
        sq = self.square_at(pos)
        if sq is None:
            return
        if button == 3 or (button == 1 and mods & pygame.KMOD_ALT) or (button == 1 and self.tool == "pick"):
            self.pick(sq)
            return
        if button != 1:
            return
        shift, ctrl = bool(mods & pygame.KMOD_SHIFT), bool(mods & pygame.KMOD_CTRL)
        tool = self.tool
        if tool in ("brush", "eraser") and shift:
            tool = "circle" if ctrl else "line"
        if tool in ("brush", "eraser"):
            self.gesture = {"tool": tool, "points": [sq], "before": len(self.doc.history.done)}
            self._stamp([sq])
        elif tool in ("line", "rect", "circle"):
            self.gesture = {"tool": tool, "start": sq, "end": sq, "outline": shift and tool != "line",
                            "layer_value": self._layer_value(self.tool == "eraser")}
        elif tool == "fill":
            layer, value = self._layer_value()
            self.do(O.Fill(layer, value, sq, contiguous=not shift))
        elif tool == "point":
            name = self._point_at(sq)
            if name:
                self.gesture = {"tool": "move", "name": name, "end": sq}
            elif self.doc.rock[sq[1], sq[0]]:
                self.toast("a point goes on a floor square", 2.0, palette.UI_BAD)
            else:
                n = len(self.doc.points) + 1
                while f"point {n}" in self.doc.points:
                    n += 1
                self.entry = {"what": "name", "text": f"point {n}", "at": sq, "fresh": True}

    def _layer_value(self, erase: bool = False) -> tuple[str, float | bool]:
        if erase or self.tool == "eraser":
            return "rock", True
        return self.layer, self.values[self.layer]

    def _stamp(self, pts) -> None:
        layer, value = self._layer_value(self.gesture["tool"] == "eraser")
        O.run(self.doc, O.Paint(layer, value, tuple(pts), self.brush, self.shape))

    def motion(self, pos) -> None:
        if self.pan is not None:
            start, last = self.pan
            self.camera.pan_pixels(pos[0] - last[0], pos[1] - last[1])
            self.pan = (start, pos)
            self._view_cache = None
        sq = self.square_at(pos)
        self.hover = sq
        g = self.gesture
        if g is None or sq is None:
            return
        if g["tool"] in ("brush", "eraser"):
            if sq != g["points"][-1]:
                self._stamp([g["points"][-1], sq])     # painted live: the rules follow the brush
                g["points"].append(sq)
        else:
            g["end"] = sq

    def release(self, pos, button: int, mods: int) -> None:
        if button in (1, 2) and self.pan is not None:
            self.pan = None
            return
        g, self.gesture = self.gesture, None
        if g is None or button != 1:
            return
        t = g["tool"]
        if t in ("brush", "eraser"):
            layer, value = self._layer_value(t == "eraser")
            op = O.Paint(layer, value, tuple(g["points"]), self.brush, self.shape)
            n = len(self.doc.history.done) - g["before"]
            self.doc.squash(n, label=f"paint {layer}")
            self.journal.append(op)             # the stroke as one operation: the same as replaying it
        elif t in ("line", "rect", "circle"):
            layer, value = g["layer_value"]
            if t == "line":
                op = O.Line(layer, value, g["start"], g["end"], self.brush, self.shape)
            elif t == "rect":
                op = O.Rect(layer, value, g["start"], g["end"], filled=not g["outline"])
            else:
                op = O.Circle(layer, value, g["start"], g["end"], filled=not g["outline"])
            self.do(op)
        elif t == "move" and g["end"] != self.doc.points.get(g["name"]):
            self.do(O.PointOp(g["name"], at=g["end"]))

    # -- per frame --------------------------------------------------------------------------------------------
    def update(self) -> None:
        if self.show_chokes:
            self.chokes.poll()
        if self.ask is None:
            path = self.autosaver.tick()
            if path is not None:
                self.toast(f"autosaved to {path.name}", 1.5, palette.UI_DIM)

    def preview_squares(self) -> np.ndarray:
        """Flat indices of the squares the current gesture or the brush under the cursor would
        paint (empty when there is none)."""
        shape = self.doc.shape
        g = self.gesture
        if g is not None and g["tool"] in ("line", "rect", "circle"):
            if g["tool"] == "line":
                return O.stamp(shape, line_points(g["start"], g["end"]), self.brush, self.shape)
            if g["tool"] == "rect":
                return rect_squares(shape, g["start"], g["end"], filled=not g["outline"])
            return circle_squares(shape, g["start"], g["end"], filled=not g["outline"])
        if self.hover is not None and self.tool in ("brush", "eraser"):
            return O.stamp(shape, np.array([self.hover]), self.brush, self.shape)
        if self.hover is not None and self.tool in ("fill", "pick", "point"):
            return np.array([self.hover[1] * self.doc.cols + self.hover[0]])
        return np.zeros(0, dtype=np.int64)

    # -- drawing ---------------------------------------------------------------------------------------------
    def composite(self, box=None) -> np.ndarray:
        """The map's picture at one RGB a square for ``box`` (``r0, c0, r1, c1``; default all):
        the active layer, the category overlay for the chosen size, the chokepoints tinted."""
        d = self.doc
        r0, c0, r1, c1 = box if box is not None else (0, 0, d.rows, d.cols)
        rgb = layer_rgb(d, self.layer, (r0, c0, r1, c1)).astype(np.float32)
        floor = ~d.rock[r0:r1, c0:c1]
        if self.overlay is not None:
            cats = self.cats.get(self.overlay)[r0:r1, c0:c1]
            lut = np.array([palette.category_rgb(i) for i in range(7)], dtype=np.float32)
            rgb[floor] = rgb[floor] * 0.45 + lut[cats[floor]] * 0.55
        res = self.chokes.result
        if self.show_chokes and res is not None and res.layout.neck.shape == d.shape and self.camera.ts < 16:
            neck = (res.layout.neck[r0:r1, c0:c1] > 0) & floor
            k = 0.3 if res.version != d.version else 0.5
            rgb[neck] = rgb[neck] * (1 - k) + np.array(CHOKE_RGB, np.float32) * k
        return rgb.astype(np.uint8)

    def _small_map(self) -> tuple[pygame.Surface, list | None]:
        """The composed map at one pixel a square, brought up to date: only the changed boxes
        are composed again. Returns it and the boxes changed (None: all of it)."""
        d = self.doc
        res = self.chokes.result
        key = (self.layer, self.overlay, self.show_chokes, id(res), d.shape, self.camera.ts < 16)
        boxes = None if (self._small is None or key != self._small_key) else d.boxes_since(self._small_version)
        if boxes is None:
            self._small = pygame.surfarray.make_surface(np.ascontiguousarray(self.composite().transpose(1, 0, 2)))
            self._small_count += 1
        elif boxes:
            px = pygame.surfarray.pixels3d(self._small)
            for b in boxes:
                r0, c0, r1, c1 = b
                px[c0:c1, r0:r1] = self.composite(b).transpose(1, 0, 2)
            del px
        self._small_key = key
        self._small_version = d.version
        return self._small, boxes

    def _visible(self) -> tuple[int, int, int, int]:
        cam = self.camera
        x0, y0 = cam.to_world(self.r_view.x, self.r_view.y)
        x1, y1 = cam.to_world(self.r_view.right, self.r_view.bottom)
        c0, r0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        c1, r1 = min(self.doc.cols, int(np.ceil(x1)) + 1), min(self.doc.rows, int(np.ceil(y1)) + 1)
        return r0, c0, max(r0, r1), max(c0, c1)

    def draw(self, surf: pygame.Surface) -> None:
        t0 = time.perf_counter()
        surf.fill(palette.UI_BG)
        clip = surf.get_clip()
        surf.set_clip(self.r_view)
        self._draw_map(surf)
        if self.show_chokes:
            self._draw_chokes(surf)
        self._draw_points(surf)
        self._draw_preview(surf)
        surf.set_clip(clip)
        self._draw_panel(surf)
        self._draw_status(surf)
        self._draw_overlays(surf)
        self.frame_ms.append((time.perf_counter() - t0) * 1000)

    def _draw_map(self, surf) -> None:
        """The visible part of the map, scaled to the zoom. The scaled picture is kept; after an
        edit only the changed boxes are scaled and drawn into it again (a brush stroke costs a
        few stamps' worth of pixels a frame, not the whole view)."""
        small, boxes = self._small_map()
        r0, c0, r1, c1 = self._visible()
        if r1 <= r0 or c1 <= c0:
            return
        ts = self.camera.ts
        key = (self._small_count, r0, c0, r1, c1, ts)
        if self._view_cache is None or self._view_cache[0] != key:
            big = pygame.Surface(((c1 - c0) * ts, (r1 - r0) * ts))
            self._render_region(small, big, (r0, c0), (r0, c0, r1, c1), ts)
            self._view_cache = (key, big)
        elif boxes:
            big = self._view_cache[1]
            for br0, bc0, br1, bc1 in boxes:
                box = (max(r0, br0), max(c0, bc0), min(r1, br1), min(c1, bc1))
                if box[0] < box[2] and box[1] < box[3]:
                    self._render_region(small, big, (r0, c0), box, ts)
        sx, sy = self.camera.to_screen(c0, r0)
        surf.blit(self._view_cache[1], (int(round(sx)), int(round(sy))))

    def _render_region(self, small, big, origin, box, ts: int) -> None:
        """Scale ``box`` (map squares) of the one-pixel map into ``big`` (whose top-left square
        is ``origin``), with grid lines, rubble marks and, zoomed in, the values."""
        d = self.doc
        r0, c0, r1, c1 = box
        oy, ox = (r0 - origin[0]) * ts, (c0 - origin[1]) * ts
        w, h = (c1 - c0) * ts, (r1 - r0) * ts
        part = pygame.transform.scale(small.subsurface(pygame.Rect(c0, r0, c1 - c0, r1 - r0)), (w, h))
        big.blit(part, (ox, oy))
        if ts >= 12:
            edge = palette.shade(palette.UI_BG, 0.6)
            for i in range(c1 - c0 + 1):
                pygame.draw.line(big, edge, (ox + i * ts, oy), (ox + i * ts, oy + h))
            for j in range(r1 - r0 + 1):
                pygame.draw.line(big, edge, (ox, oy + j * ts), (ox + w, oy + j * ts))
        if ts >= 14:
            for rr, cc in np.argwhere(d.difficult[r0:r1, c0:c1])[:6000]:
                x, y = ox + cc * ts, oy + rr * ts
                for k in (0.3, 0.7):
                    pygame.draw.line(big, palette.RUBBLE, (x + k * ts - 2, y + ts - 3), (x + k * ts + 2, y + 3))
        if ts >= 30:
            self._draw_numbers(big, origin, box, ts)

    def _draw_numbers(self, big, origin, box, ts) -> None:
        """Zoomed in, each floor square shows the active layer's value and, smaller, the other one
        (width or ceiling) in the map's units."""
        d = self.doc
        main, other = (d.ceiling, d.width) if self.layer == "ceiling" else (d.width, d.ceiling)
        conv = 0.3 if d.units == "m" else 1.0
        r0, c0, r1, c1 = box
        for rr in range(r0, r1):
            for cc in range(c0, c1):
                if d.rock[rr, cc]:
                    continue
                x, y = (cc - origin[1]) * ts, (rr - origin[0]) * ts
                s = self.text.render(f"{main[rr, cc] * conv:.3g}", 15, palette.UI_TEXT, outline=(0, 0, 0))
                big.blit(s, (x + 3, y + 2))
                if ts >= 40:
                    s2 = self.text.render(f"{other[rr, cc] * conv:.3g}", 13, palette.UI_DIM, outline=(0, 0, 0))
                    big.blit(s2, (x + ts - s2.get_width() - 2, y + ts - s2.get_height() - 1))

    def _sq_rect(self, x: int, y: int) -> pygame.Rect:
        sx, sy = self.camera.to_screen(x, y)
        ts = self.camera.ts
        return pygame.Rect(int(round(sx)), int(round(sy)), ts, ts)

    def _draw_chokes(self, surf) -> None:
        """Labels and, zoomed in, outlines of the chokepoints (zoomed out, their squares are tinted
        in the map instead)."""
        res = self.chokes.result
        ts = self.camera.ts
        if res is None or res.layout.neck.shape != self.doc.shape or ts < 8:
            return
        stale = res.version != self.doc.version
        rgb = palette.shade(CHOKE_RGB, 0.6) if stale else CHOKE_RGB
        r0, c0, r1, c1 = self._visible()
        if ts >= 16:
            sub = res.layout.neck[r0:r1, c0:c1]
            for rr, cc in np.argwhere(sub > 0)[:3000]:
                pygame.draw.rect(surf, rgb, self._sq_rect(cc + c0, rr + r0), 2)
        for ch in res.layout.chokepoints:
            x, y = ch.at
            if c0 <= x < c1 and r0 <= y < r1:
                label = f"{ch.id} {ch.width_ft:g} ft" if ts >= 16 else ch.id
                s = self.text.render(label, 15, rgb, outline=(0, 0, 0))
                r = self._sq_rect(x, y)
                surf.blit(s, (r.centerx - s.get_width() // 2, r.y - s.get_height()))

    def _draw_points(self, surf) -> None:
        ts = self.camera.ts
        for name, (x, y) in self.doc.points.items():
            g = self.gesture
            if g is not None and g["tool"] == "move" and g["name"] == name:
                x, y = g["end"]
            r = self._sq_rect(x, y)
            pygame.draw.circle(surf, palette.UI_ACCENT, r.center, max(3, ts // 3))
            pygame.draw.circle(surf, (0, 0, 0), r.center, max(3, ts // 3), 1)
            s = self.text.render(name, 16, palette.UI_ACCENT, outline=(0, 0, 0))
            surf.blit(s, (r.right + 2, r.centery - s.get_height() // 2))

    def _draw_preview(self, surf) -> None:
        idx = self.preview_squares()
        if idx.size == 0:
            return
        ts = self.camera.ts
        key = (idx.tobytes(), ts)
        if getattr(self, "_preview_key", None) != key:
            self._preview_key = key
            self._preview = self._preview_surface(idx, ts)
        if self._preview is None:
            return
        (r0, c0), fill = self._preview
        ox, oy = self.camera.to_screen(c0, r0)
        surf.blit(fill, (int(round(ox)), int(round(oy))))

    def _preview_surface(self, idx: np.ndarray, ts: int):
        """A translucent white fill of the squares with the outline of the whole shape."""
        rr, cc = np.divmod(idx, self.doc.cols)
        r0, c0 = int(rr.min()), int(cc.min())
        h, w = int(rr.max()) - r0 + 1, int(cc.max()) - c0 + 1
        if w * ts > 8000 or h * ts > 8000:
            return None
        mask = np.zeros((h, w), dtype=bool)
        mask[rr - r0, cc - c0] = True
        fill = pygame.Surface((w * ts, h * ts), pygame.SRCALPHA)
        fill.fill((*PREVIEW_RGB, 0))
        alpha = pygame.surfarray.pixels_alpha(fill)
        alpha[...] = np.kron(mask.T.astype(np.uint8) * 70, np.ones((ts, ts), dtype=np.uint8))
        del alpha
        pad = np.pad(mask, 1)
        for (dr, dc), ((ax, ay), (bx, by)) in (((-1, 0), ((0, 0), (1, 0))), ((1, 0), ((0, 1), (1, 1))),
                                               ((0, -1), ((0, 0), (0, 1))), ((0, 1), ((1, 0), (1, 1)))):
            out = mask & ~pad[1 + dr:1 + dr + h, 1 + dc:1 + dc + w]
            for y, x in np.argwhere(out)[:4000]:
                pygame.draw.line(fill, (*PREVIEW_RGB, 255), ((x + ax) * ts, (y + ay) * ts), ((x + bx) * ts, (y + by) * ts), 2)
        return (r0, c0), fill

    # -- panel and status ---------------------------------------------------------------------------------------
    def _draw_panel(self, surf) -> None:
        r = self.r_panel
        pygame.draw.rect(surf, palette.UI_PANEL, r)
        pygame.draw.line(surf, palette.UI_EDGE, r.topleft, r.bottomleft)
        t = self.text
        x, y = r.x + 12, r.y + 10
        d = self.doc
        title = t.render(d.name or self.out.stem, 22, palette.UI_ACCENT)
        surf.blit(title, (x, y))
        y += 24
        sub = f"{self.out.name} · {d.cols}x{d.rows} · {d.units}" + ("  · unsaved" if d.dirty else "")
        surf.blit(t.render(sub, 16, palette.UI_BAD if d.dirty else palette.UI_DIM), (x, y))
        y += 24

        def heading(s):
            nonlocal y
            surf.blit(t.render(s, 17, palette.UI_DIM), (x, y))
            y += 19

        def row(s, on=False):
            nonlocal y
            surf.blit(t.render(("> " if on else "   ") + s, 17, palette.UI_ACCENT if on else palette.UI_TEXT), (x, y))
            y += 18

        heading("LAYER")
        for k in LAYERS:
            row(f"{LAYER_WORDS[k]}  {self.value_text(k)}", k == self.layer)
        y += 4
        heading("TOOL")
        for k in TOOLS:
            row(TOOL_WORDS[k], k == self.tool)
        row(f"brush {self.brush} {self.shape}  ([ ] size, S shape)")
        y += 4
        heading(f"PALETTE ({SIZE_NAMES[self.size_index]})  , . or click")
        self.palette_rects = []
        cur = self.values[self.layer]
        for v, what in self.palette_entries()[:12]:
            if y > r.bottom - 60:
                break
            rect = pygame.Rect(x, y, r.w - 24, 18)
            on = v == cur
            if on:
                pygame.draw.rect(surf, palette.UI_EDGE, rect)
            label = (("yes" if v else "no") if isinstance(v, bool) else f"{v:g} {d.units}")
            surf.blit(t.render(f"{label:>8}  {what}", 16, palette.UI_ACCENT if on else palette.UI_TEXT), (x + 4, y + 1))
            self.palette_rects.append((rect, v))
            y += 19
        y += 4
        heading("RULES LIVE")
        ov = "off (1-9)" if self.overlay is None else SIZE_NAMES[self.overlay]
        row(f"categories: {ov}")
        res = self.chokes.result
        if not self.show_chokes:
            row("chokepoints: hidden (G)")
        elif res is None:
            row("chokepoints: working...")
        else:
            state = "updating..." if self.chokes.stale else f"{res.seconds * 1000:.0f} ms"
            row(f"chokepoints: {len(res.layout.chokepoints)}  ({state})")
        surf.blit(t.render("H help  ·  Ctrl-S save  ·  Esc quit", 16, palette.UI_DIM), (x, r.bottom - 22))

    def status_text(self) -> str:
        sq = self.hover
        d = self.doc
        if sq is None:
            return "move the cursor over the map"
        x, y = sq
        parts = [f"x {x}  y {y}"]
        if d.door[y, x]:
            parts.append("closed door (rock while closed)")
        elif d.rock[y, x]:
            parts.append("rock")
        else:
            parts.append(f"width {self.fmt_len(float(d.width[y, x]))}")
            parts.append(f"ceiling {self.fmt_len(float(d.ceiling[y, x]))}")
            if d.difficult[y, x]:
                parts.append("difficult")
        cat = self.cats.at(self.size_index, sq)
        parts.append(f"{SIZE_NAMES[self.size_index]}: {cat.label}")
        name = self._point_at(sq)
        if name:
            parts.append(f"point '{name}'")
        res = self.chokes.result
        if res is not None and self.show_chokes and res.layout.neck.shape == d.shape:
            k = int(res.layout.neck[y, x])
            if k:
                parts.append(f"chokepoint C{k}")
        return "   ·   ".join(parts)

    def _draw_status(self, surf) -> None:
        r = self.r_status
        pygame.draw.rect(surf, palette.UI_BG, r)
        pygame.draw.line(surf, palette.UI_EDGE, r.topleft, r.topright)
        s = self.text.render(self.status_text(), 18, palette.UI_TEXT)
        surf.blit(s, (r.x + 10, r.centery - s.get_height() // 2))
        tool = f"{self.tool} {self.brush} {self.shape}  ·  {self.layer} = {self.value_text()}"
        s2 = self.text.render(tool, 18, palette.UI_ACCENT)
        surf.blit(s2, (r.right - s2.get_width() - 10, r.centery - s2.get_height() // 2))

    def _box(self, surf, lines: list[str], *, colour=palette.UI_TEXT, top: int | None = None) -> None:
        t = self.text
        w = max(t.size(s, 18)[0] for s in lines) + 28
        h = 22 * len(lines) + 16
        rect = pygame.Rect(self.r_view.centerx - w // 2, top if top is not None else self.r_view.centery - h // 2, w, h)
        panel_box(surf, rect, alpha=235)
        for i, s in enumerate(lines):
            surf.blit(t.render(s, 18, colour if i == 0 else palette.UI_TEXT), (rect.x + 14, rect.y + 9 + 22 * i))

    def _draw_overlays(self, surf) -> None:
        text, until, colour = self.message
        if text and self.clock() < until:
            s = self.text.render(text, 18, colour, outline=(0, 0, 0))
            surf.blit(s, (self.r_view.x + 12, self.r_view.bottom - s.get_height() - 10))
        if self.show_help:
            self._box(surf, ["Map editor keys"] + list(HELP_LINES), colour=palette.UI_ACCENT)
        if self.entry is not None:
            e = self.entry
            what = {"value": f"{self.layer} in {self.doc.units} (0 = rock)", "name": "name of the new point",
                    "rename": f"new name for '{e.get('name', '')}'"}[e["what"]]
            self._box(surf, [f"Type the {what}, Enter to accept, Esc to cancel", f"> {e['text']}_"],
                      colour=palette.UI_ACCENT)
        if self.ask == "restore":
            self._box(surf, [f"An autosave of this map from {self.auto.when()} was not saved",
                             "(the editor did not close normally).",
                             "Y: restore it (Ctrl-Z takes it back)   N: discard it"], colour=palette.UI_ACCENT)
        elif self.ask == "quit":
            self._box(surf, ["Unsaved changes", "Ctrl-S: save and quit   Esc: quit without saving",
                             "any other key: keep editing"], colour=palette.UI_BAD)

    def close(self) -> None:
        self.chokes.close()


def run_editor(doc: Document, out: Path, *, size=(1280, 800), fmt: str = "keep", record: Path | None = None,
               max_frames: int | None = None, events=None) -> int:
    """Open the window and edit until the user quits. ``events``: a callable ``(view, frame)``
    called each frame before input (tests and screenshots drive the window with it)."""
    from sim.render.app import open_window

    screen = open_window(size, f"cavesim — edit {out.name}")
    if screen is None:
        raise DataError("cavesim edit: the display cannot be opened; use --apply OPS.jsonl to edit without one")
    view = EditorView(doc, out, size=screen.get_size(), fmt=fmt)
    clock = pygame.time.Clock()
    frames = 0
    try:
        while view.running:
            if events is not None:
                events(view, frames)
            for event in pygame.event.get():
                view.handle(event)
            view.update()
            view.draw(screen)
            pygame.display.flip()
            frames += 1
            if max_frames is not None and frames >= max_frames:
                break
            clock.tick(60)
    finally:
        view.close()
        if record is not None:
            header = ("Recorded by cavesim edit; replay with cavesim edit MAP --apply THIS --out NEW.toml"
                      + ("\nThe window restored an autosave first: replay on top of that map." if view.restored else ""))
            O.write_ops(record, view.journal, header=header)
    return 0
