"""The map editor's window (issue 18): a thin view over :mod:`sim.editor`.

Everything the user does becomes an operation record (:mod:`sim.editor.ops`) run on the
document, exactly as ``cavesim edit --apply`` runs them, and is kept in :attr:`EditorView.journal`
(``--record`` writes it). The window draws the active layer, the other layers as overlays, the
category overlay for a size (keys 1-9, as in play), the chokepoints (computed on a worker thread,
:mod:`sim.editor.live`), the named points, the brush preview and a status bar with the square
under the cursor.

Keys and mouse (the README lists them): W width, C ceiling, D difficult, K rock (the active
layer); B brush, E eraser, L line, R rectangle, O circle, F fill, I eyedropper, P points;
X walls between squares (docs/rules.md §6.8: drag along a grid line to wall its edges,
Shift-drag to open them again);
[ ] brush size 1-9, S square/round; V or Enter type a value (flags: V toggles), , . step through
the palette (or click it); 1-9 category overlay for Fine..Colossal, 0 off; G chokepoints; T the
map's picture under the squares at 0, 35, 70 or 100% opacity;
Shift-drag a line, Ctrl-Shift-drag a circle; right click or Alt-click picks the value under the
cursor in any tool; Shift with rectangle/circle: outline; Shift-click with fill: every square of
that value; points: click to place, drag to move, N rename, Delete remove; Ctrl-Z undo, Ctrl-Y or
Ctrl-Shift-Z redo, Ctrl-S save; middle drag or Space-drag pans, wheel zooms, Home fits; H help;
Esc quits (asks first when there are unsaved edits).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pygame

from sim.base.errors import DataError
from sim.editor import ops as O
from sim.editor.live import Categories, Chokepoints, thresholds
from sim.editor.model import (
    MAX_BRUSH,
    Document,
    circle_squares,
    line_points,
    rect_squares,
)
from sim.editor.save import Autosaver, find_autosave, restore_patch, save
from sim.maps import palette
from sim.render.camera import Camera
from sim.render.editor_draw import PANEL_W, PICTURE_OPACITY, PICTURE_START, STATUS_H, EditorDrawing
from sim.render.hud import SIZE_NAMES
from sim.render.text import Text

LIVE_CHOKE_SQUARES = 512 * 512   # larger maps start with the live chokepoints off (G turns them on)
TOOL_KEYS = {pygame.K_b: "brush", pygame.K_e: "eraser", pygame.K_l: "line", pygame.K_r: "rect",
             pygame.K_o: "circle", pygame.K_f: "fill", pygame.K_i: "pick", pygame.K_p: "point",
             pygame.K_x: "edge"}
LAYER_KEYS = {pygame.K_w: "width", pygame.K_c: "ceiling", pygame.K_d: "difficult", pygame.K_k: "rock"}


class EditorView:
    """The editor's state on screen and its input handling (no main loop: :func:`run_editor`);
    its ``drawing`` (:class:`~sim.render.editor_draw.EditorDrawing`) draws it."""

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
        self.drawing = EditorDrawing(self)
        self.picture_opacity = PICTURE_START if self.drawing.picture is not None else 0   # T cycles it
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
        self.drawing.forget_view()

    def fit(self) -> None:
        self.camera.fit(cols=self.doc.cols, rows=self.doc.rows, margin=0.5)
        self.drawing.forget_view()

    def corner_at(self, pos) -> tuple[int, int] | None:
        """The grid corner nearest the screen point ``pos`` (the edge tool), or None off the view."""
        if not self.r_view.collidepoint(pos):
            return None
        x, y = self.camera.to_world(*pos)
        return (min(max(int(round(x)), 0), self.doc.cols), min(max(int(round(y)), 0), self.doc.rows))

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
                self.drawing.forget_view()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.press(event.pos, event.button, pygame.key.get_mods())
        elif event.type == pygame.MOUSEMOTION:
            self.motion(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP:
            self.release(event.pos, event.button, pygame.key.get_mods())

    def cycle_picture(self) -> None:
        """``T``: the next opacity of the map's picture under the squares (0, 35, 70, 100%)."""
        if self.drawing.picture is None:
            self.toast("this map has no picture ([map] image); cavesim import keeps a VTT map's", 2.5)
            return
        i = PICTURE_OPACITY.index(self.picture_opacity) if self.picture_opacity in PICTURE_OPACITY else -1
        self.picture_opacity = PICTURE_OPACITY[(i + 1) % len(PICTURE_OPACITY)]
        self.drawing.forget_view()
        self.toast(f"picture {self.picture_opacity}%", 1.5)

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
        elif key == pygame.K_t:
            self.cycle_picture()
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

    def status_text(self) -> str:
        """The status bar's words for the square under the cursor: where it is, its values, the
        category of the chosen size there, a named point, a chokepoint."""
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

    def _point_at(self, sq) -> str | None:
        for name, p in self.doc.points.items():
            if tuple(p) == tuple(sq):
                return name
        return None

    def press(self, pos, button: int, mods: int) -> None:
        if self.ask or self.entry is not None:
            return
        if self.r_panel.collidepoint(pos) and button == 1:
            for rect, v in self.drawing.palette_rects:
                if rect.collidepoint(pos):
                    self.values[self.layer] = v
                    self.toast(f"{self.layer} = {self.value_text()}", 1.5)
            return
        space = pygame.key.get_pressed()[pygame.K_SPACE] if pygame.display.get_init() else False
        if button == 2 or (button == 1 and space):
            self.pan = (pos, pos)
            return
        if button == 1 and self.tool == "edge":
            corner = self.corner_at(pos)
            if corner is not None:
                self.gesture = {"tool": "edge", "start": corner, "end": corner,
                                "value": not mods & pygame.KMOD_SHIFT}
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
            self.drawing.forget_view()
        sq = self.square_at(pos)
        self.hover = sq
        g = self.gesture
        if g is not None and g["tool"] == "edge":
            corner = self.corner_at(pos)
            if corner is not None:   # along the grid line the drag mostly follows
                (x0, y0), (x1, y1) = g["start"], corner
                g["end"] = (x1, y0) if abs(x1 - x0) >= abs(y1 - y0) else (x0, y1)
            return
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
        elif t == "edge" and g["end"] != g["start"]:
            self.do(O.Edge(g["start"], g["end"], g["value"]))
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
    def draw(self, surf: pygame.Surface) -> None:
        """The window's frame (:meth:`EditorDrawing.draw`)."""
        self.drawing.draw(surf)

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
