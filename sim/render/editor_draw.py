"""How the map editor's window is drawn (:class:`EditorDrawing`, a component of
:class:`sim.render.editor.EditorView` that reads what :class:`EditorScreen` declares): the active layer, the other layers and a category overlay
over it, the map's own picture (an imported map's) under the squares at the opacity ``T`` picks,
the chokepoints, the named points, the brush preview, the side panel, the status bar with the
square under the cursor, and help and toasts. Nothing here changes the document."""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import Callable, Protocol

import numpy as np
import pygame

from sim.editor.live import Categories, Chokepoints
from sim.editor.model import LAYERS, Document
from sim.editor.save import Autosave
from sim.maps import palette
from sim.render.camera import Camera
from sim.render.hud import SIZE_NAMES, panel_box
from sim.render.text import Text

TOOLS = ("brush", "eraser", "line", "rect", "circle", "fill", "pick", "point", "edge")
PANEL_W = 290
STATUS_H = 28
TOOL_WORDS = {"brush": "Brush (B)", "eraser": "Eraser = rock (E)", "line": "Line (L, or Shift-drag)",
              "rect": "Rectangle (R)", "circle": "Circle (O, or Ctrl-Shift-drag)", "fill": "Fill same value (F)",
              "pick": "Eyedropper (I, right click)", "point": "Named points (P)",
              "edge": "Walls between squares (X)"}
LAYER_WORDS = {"width": "Width (W)", "ceiling": "Ceiling (C)", "difficult": "Difficult ground (D)", "rock": "Rock (K)"}
WIDTH_LOW: palette.RGB = (40, 58, 74)        # the width ramp: narrow (dark blue-grey) to wide (pale)
WIDTH_HIGH: palette.RGB = (150, 196, 214)
CHOKE_RGB: palette.RGB = (255, 92, 200)
PREVIEW_RGB: palette.RGB = (255, 255, 255)
PICTURE_OPACITY = (0, 35, 70, 100)          # T cycles the map picture's opacity (percent) through these
PICTURE_START = 35                          # a map with a picture opens showing it this much
PICTURE_MAX_SIDE = 4096                     # the picture is kept in the window at most this many pixels a side
HELP_LINES = (
    "Layers: W width · C ceiling · D difficult · K rock",
    "Tools: B brush · E eraser · L line · R rectangle · O circle · F fill · I eyedropper · P points",
    "[ ] brush size · S square/round · V or Enter: type a value · , . palette",
    "Shift-drag line · Ctrl-Shift-drag circle · right click / Alt-click: eyedropper",
    "Shift: outline (rect, circle), every square of the value (fill)",
    "Points: click place · drag move · N rename · Delete remove",
    "X walls between squares: drag along a grid line · Shift-drag opens them",
    "1-9 categories for Fine..Colossal · 0 off · G chokepoints · T picture 0/35/70/100%",
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


def load_picture(path: Path | None, cols: int, rows: int) -> pygame.Surface | None:
    """The map's picture (``[map] image``: PNG, WebP or JPEG covering the grid) as a surface of a
    whole number of pixels a square, at most :data:`PICTURE_MAX_SIDE` a side (larger pictures are
    shrunk once here, not at every frame); None when there is none or it cannot be read."""
    if path is None:
        return None
    from PIL import Image

    try:
        with Image.open(path) as im:
            k = max(1, min(im.size[0] // cols, PICTURE_MAX_SIDE // max(cols, rows)))
            pic = im.convert("RGB")
    except (OSError, ValueError):
        return None
    if pic.size != (cols * k, rows * k):
        pic = pic.resize((cols * k, rows * k), Image.Resampling.LANCZOS)
    return pygame.image.frombuffer(pic.tobytes(), pic.size, "RGB")


class EditorScreen(Protocol):
    """What the drawing reads of the editor window (:class:`~sim.render.editor.EditorView`): the
    document and where it is saved, the layer, tool, brush and values chosen, the overlays shown,
    the live rules, the cursor and the gesture under way, the question or typed entry open, the
    toast, the window's three areas, the camera and the text cache."""

    doc: Document
    out: Path
    text: Text
    camera: Camera
    clock: Callable[[], float]
    layer: str
    tool: str
    brush: int
    shape: str
    values: dict[str, float | bool]
    overlay: int | None
    size_index: int
    show_chokes: bool
    show_help: bool
    picture_opacity: int
    cats: Categories
    chokes: Chokepoints
    hover: tuple[int, int] | None
    gesture: dict | None
    entry: dict | None
    ask: str | None
    auto: Autosave | None
    message: tuple[str, float, palette.RGB]
    r_view: pygame.Rect
    r_panel: pygame.Rect
    r_status: pygame.Rect

    def value_text(self, layer: str | None = None) -> str: ...

    def palette_entries(self) -> list[tuple[object, str]]: ...

    def preview_squares(self) -> np.ndarray: ...

    def status_text(self) -> str: ...


class EditorDrawing:
    """The editor window's drawing, a component of :class:`~sim.render.editor.EditorView` (its
    ``drawing``): it reads the window's state (:class:`EditorScreen`) and keeps only what drawing
    needs -- the composed one-pixel map and the scaled view (redrawn by the boxes an edit
    changed), the brush preview, the palette's rows where they were drawn (for clicks) and the
    time each frame took."""

    def __init__(self, view: EditorScreen):
        self.view = view
        self.picture = load_picture(view.doc.image, view.doc.cols, view.doc.rows)   # under the squares (T)
        self._small: pygame.Surface | None = None    # the map at one pixel a square, all layers composed
        self._small_key = None
        self._small_version = -1
        self._small_count = 0                       # bumps whenever _small changes (the scaled cache's key)
        self._view_cache = None
        self._preview_key = None
        self._preview = None
        self.palette_rects: list[tuple[pygame.Rect, object]] = []   # the palette's rows as last drawn
        self.frame_ms: deque[float] = deque(maxlen=600)             # how long the last frames took to draw

    def forget_view(self) -> None:
        """The scaled view is drawn anew at the next frame (the zoom, the pan or the window changed)."""
        self._view_cache = None

    def composite(self, box=None) -> np.ndarray:
        """The map's picture at one RGB a square for ``box`` (``r0, c0, r1, c1``; default all):
        the active layer, the category overlay for the chosen size, the chokepoints tinted."""
        d = self.view.doc
        r0, c0, r1, c1 = box if box is not None else (0, 0, d.rows, d.cols)
        rgb = layer_rgb(d, self.view.layer, (r0, c0, r1, c1)).astype(np.float32)
        floor = ~d.rock[r0:r1, c0:c1]
        if self.view.overlay is not None:
            cats = self.view.cats.get(self.view.overlay)[r0:r1, c0:c1]
            lut = np.array([palette.category_rgb(i) for i in range(7)], dtype=np.float32)
            rgb[floor] = rgb[floor] * 0.45 + lut[cats[floor]] * 0.55
        res = self.view.chokes.result
        if self.view.show_chokes and res is not None and res.layout.neck.shape == d.shape and self.view.camera.ts < 16:
            neck = (res.layout.neck[r0:r1, c0:c1] > 0) & floor
            k = 0.3 if res.version != d.version else 0.5
            rgb[neck] = rgb[neck] * (1 - k) + np.array(CHOKE_RGB, np.float32) * k
        return rgb.astype(np.uint8)

    def _small_map(self) -> tuple[pygame.Surface, list | None]:
        """The composed map at one pixel a square, brought up to date: only the changed boxes
        are composed again. Returns it and the boxes changed (None: all of it)."""
        d = self.view.doc
        res = self.view.chokes.result
        key = (self.view.layer, self.view.overlay, self.view.show_chokes, id(res), d.shape, self.view.camera.ts < 16)
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
        cam = self.view.camera
        x0, y0 = cam.to_world(self.view.r_view.x, self.view.r_view.y)
        x1, y1 = cam.to_world(self.view.r_view.right, self.view.r_view.bottom)
        c0, r0 = max(0, int(np.floor(x0))), max(0, int(np.floor(y0)))
        c1, r1 = min(self.view.doc.cols, int(np.ceil(x1)) + 1), min(self.view.doc.rows, int(np.ceil(y1)) + 1)
        return r0, c0, max(r0, r1), max(c0, c1)

    def draw(self, surf: pygame.Surface) -> None:
        t0 = time.perf_counter()
        surf.fill(palette.UI_BG)
        clip = surf.get_clip()
        surf.set_clip(self.view.r_view)
        self._draw_map(surf)
        if self.view.show_chokes:
            self._draw_chokes(surf)
        self._draw_edges(surf)
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
        ts = self.view.camera.ts
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
        sx, sy = self.view.camera.to_screen(c0, r0)
        surf.blit(self._view_cache[1], (int(round(sx)), int(round(sy))))

    def _render_region(self, small, big, origin, box, ts: int) -> None:
        """Scale ``box`` (map squares) of the one-pixel map into ``big`` (whose top-left square
        is ``origin``), with grid lines, rubble marks and, zoomed in, the values."""
        d = self.view.doc
        r0, c0, r1, c1 = box
        oy, ox = (r0 - origin[0]) * ts, (c0 - origin[1]) * ts
        w, h = (c1 - c0) * ts, (r1 - r0) * ts
        part = pygame.transform.scale(small.subsurface(pygame.Rect(c0, r0, c1 - c0, r1 - r0)), (w, h))
        big.blit(part, (ox, oy))
        if self.picture is not None and self.view.picture_opacity > 0:
            k = self.picture.get_width() // d.cols
            src = self.picture.subsurface(pygame.Rect(c0 * k, r0 * k, (c1 - c0) * k, (r1 - r0) * k))
            pic = (pygame.transform.smoothscale if k > ts else pygame.transform.scale)(src, (w, h))
            pic.set_alpha(round(255 * self.view.picture_opacity / 100))
            big.blit(pic, (ox, oy))
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
        d = self.view.doc
        main, other = (d.ceiling, d.width) if self.view.layer == "ceiling" else (d.width, d.ceiling)
        conv = 0.3 if d.units == "m" else 1.0
        r0, c0, r1, c1 = box
        for rr in range(r0, r1):
            for cc in range(c0, c1):
                if d.rock[rr, cc]:
                    continue
                x, y = (cc - origin[1]) * ts, (rr - origin[0]) * ts
                s = self.view.text.render(f"{main[rr, cc] * conv:.3g}", 15, palette.UI_TEXT, outline=(0, 0, 0))
                big.blit(s, (x + 3, y + 2))
                if ts >= 40:
                    s2 = self.view.text.render(f"{other[rr, cc] * conv:.3g}", 13, palette.UI_DIM, outline=(0, 0, 0))
                    big.blit(s2, (x + ts - s2.get_width() - 2, y + ts - s2.get_height() - 1))

    def _sq_rect(self, x: int, y: int) -> pygame.Rect:
        sx, sy = self.view.camera.to_screen(x, y)
        ts = self.view.camera.ts
        return pygame.Rect(int(round(sx)), int(round(sy)), ts, ts)

    def _draw_chokes(self, surf) -> None:
        """Labels and, zoomed in, outlines of the chokepoints (zoomed out, their squares are tinted
        in the map instead)."""
        res = self.view.chokes.result
        ts = self.view.camera.ts
        if res is None or res.layout.neck.shape != self.view.doc.shape or ts < 8:
            return
        stale = res.version != self.view.doc.version
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
                s = self.view.text.render(label, 15, rgb, outline=(0, 0, 0))
                r = self._sq_rect(x, y)
                surf.blit(s, (r.centerx - s.get_width() // 2, r.y - s.get_height()))

    def _draw_points(self, surf) -> None:
        ts = self.view.camera.ts
        for name, (x, y) in self.view.doc.points.items():
            g = self.view.gesture
            if g is not None and g["tool"] == "move" and g["name"] == name:
                x, y = g["end"]
            r = self._sq_rect(x, y)
            pygame.draw.circle(surf, palette.UI_ACCENT, r.center, max(3, ts // 3))
            pygame.draw.circle(surf, (0, 0, 0), r.center, max(3, ts // 3), 1)
            s = self.view.text.render(name, 16, palette.UI_ACCENT, outline=(0, 0, 0))
            surf.blit(s, (r.right + 2, r.centery - s.get_height() // 2))

    def _draw_edges(self, surf) -> None:
        """The walls between squares as thick lines on their grid lines (closed doors on edges in
        door brown), and the edge tool's run while it is dragged (docs/rules.md §6.8)."""
        d = self.view.doc
        cam = self.view.camera
        ts = cam.ts
        r0, c0, r1, c1 = self._visible()
        width = max(2, int(ts) // 5)
        for east, walls, doors in ((True, d.edge_e, d.door_e), (False, d.edge_s, d.door_s)):
            for r, c in np.argwhere(walls[r0:r1, c0:c1]):
                x, y = c0 + int(c), r0 + int(r)
                a, b = ((x + 1, y), (x + 1, y + 1)) if east else ((x, y + 1), (x + 1, y + 1))
                colour = palette.EDGE_DOOR if doors[y, x] else palette.EDGE_WALL
                pygame.draw.line(surf, colour, cam.to_screen(*a), cam.to_screen(*b), width)
        g = self.view.gesture
        if g is not None and g["tool"] == "edge":
            pygame.draw.line(surf, PREVIEW_RGB if g["value"] else palette.UI_BAD, cam.to_screen(*g["start"]),
                             cam.to_screen(*g["end"]), width)

    def _draw_preview(self, surf) -> None:
        idx = self.view.preview_squares()
        if idx.size == 0:
            return
        ts = self.view.camera.ts
        key = (idx.tobytes(), ts)
        if self._preview_key != key:
            self._preview_key = key
            self._preview = self._preview_surface(idx, ts)
        if self._preview is None:
            return
        (r0, c0), fill = self._preview
        ox, oy = self.view.camera.to_screen(c0, r0)
        surf.blit(fill, (int(round(ox)), int(round(oy))))

    def _preview_surface(self, idx: np.ndarray, ts: int):
        """A translucent white fill of the squares with the outline of the whole shape."""
        rr, cc = np.divmod(idx, self.view.doc.cols)
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
        r = self.view.r_panel
        pygame.draw.rect(surf, palette.UI_PANEL, r)
        pygame.draw.line(surf, palette.UI_EDGE, r.topleft, r.bottomleft)
        t = self.view.text
        x, y = r.x + 12, r.y + 10
        d = self.view.doc
        title = t.render(d.name or self.view.out.stem, 22, palette.UI_ACCENT)
        surf.blit(title, (x, y))
        y += 24
        sub = f"{self.view.out.name} · {d.cols}x{d.rows} · {d.units}" + ("  · unsaved" if d.dirty else "")
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
            row(f"{LAYER_WORDS[k]}  {self.view.value_text(k)}", k == self.view.layer)
        y += 4
        heading("TOOL")
        for k in TOOLS:
            row(TOOL_WORDS[k], k == self.view.tool)
        row(f"brush {self.view.brush} {self.view.shape}  ([ ] size, S shape)")
        y += 4
        heading(f"PALETTE ({SIZE_NAMES[self.view.size_index]})  , . or click")
        self.palette_rects = []
        cur = self.view.values[self.view.layer]
        for v, what in self.view.palette_entries()[:12]:
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
        ov = "off (1-9)" if self.view.overlay is None else SIZE_NAMES[self.view.overlay]
        row(f"categories: {ov}")
        row(f"picture: {self.view.picture_opacity}% (T)" if self.picture is not None else "picture: none")
        res = self.view.chokes.result
        if not self.view.show_chokes:
            row("chokepoints: hidden (G)")
        elif res is None:
            row("chokepoints: working...")
        else:
            state = "updating..." if self.view.chokes.stale else f"{res.seconds * 1000:.0f} ms"
            row(f"chokepoints: {len(res.layout.chokepoints)}  ({state})")
        surf.blit(t.render("H help  ·  Ctrl-S save  ·  Esc quit", 16, palette.UI_DIM), (x, r.bottom - 22))

    def _draw_status(self, surf) -> None:
        r = self.view.r_status
        pygame.draw.rect(surf, palette.UI_BG, r)
        pygame.draw.line(surf, palette.UI_EDGE, r.topleft, r.topright)
        s = self.view.text.render(self.view.status_text(), 18, palette.UI_TEXT)
        surf.blit(s, (r.x + 10, r.centery - s.get_height() // 2))
        tool = f"{self.view.tool} {self.view.brush} {self.view.shape}  ·  {self.view.layer} = {self.view.value_text()}"
        s2 = self.view.text.render(tool, 18, palette.UI_ACCENT)
        surf.blit(s2, (r.right - s2.get_width() - 10, r.centery - s2.get_height() // 2))

    def _box(self, surf, lines: list[str], *, colour=palette.UI_TEXT, top: int | None = None) -> None:
        t = self.view.text
        w = max(t.size(s, 18)[0] for s in lines) + 28
        h = 22 * len(lines) + 16
        rect = pygame.Rect(self.view.r_view.centerx - w // 2, top if top is not None else self.view.r_view.centery - h // 2, w, h)
        panel_box(surf, rect, alpha=235)
        for i, s in enumerate(lines):
            surf.blit(t.render(s, 18, colour if i == 0 else palette.UI_TEXT), (rect.x + 14, rect.y + 9 + 22 * i))

    def _draw_overlays(self, surf) -> None:
        text, until, colour = self.view.message
        if text and self.view.clock() < until:
            s = self.view.text.render(text, 18, colour, outline=(0, 0, 0))
            surf.blit(s, (self.view.r_view.x + 12, self.view.r_view.bottom - s.get_height() - 10))
        if self.view.show_help:
            self._box(surf, ["Map editor keys"] + list(HELP_LINES), colour=palette.UI_ACCENT)
        if self.view.entry is not None:
            e = self.view.entry
            what = {"value": f"{self.view.layer} in {self.view.doc.units} (0 = rock)", "name": "name of the new point",
                    "rename": f"new name for '{e.get('name', '')}'"}[e["what"]]
            self._box(surf, [f"Type the {what}, Enter to accept, Esc to cancel", f"> {e['text']}_"],
                      colour=palette.UI_ACCENT)
        if self.view.ask == "restore":
            self._box(surf, [f"An autosave of this map from {self.view.auto.when()} was not saved",
                             "(the editor did not close normally).",
                             "Y: restore it (Ctrl-Z takes it back)   N: discard it"], colour=palette.UI_ACCENT)
        elif self.view.ask == "quit":
            self._box(surf, ["Unsaved changes", "Ctrl-S: save and quit   Esc: quit without saving",
                             "any other key: keep editing"], colour=palette.UI_BAD)
