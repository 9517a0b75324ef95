"""The camera: squares <-> screen pixels, pan and zoom (no pygame).

>>> cam = Camera(view=(0, 0, 400, 300))
>>> cam.fit(cols=20, rows=10)
>>> cam.ts, cam.to_screen(0, 0), cam.to_screen(20, 10)
(20, (0.0, 50.0), (400.0, 250.0))
>>> cam.zoom_at(1, 200, 150), cam.ts
(True, 22)
>>> cam.to_world(*cam.to_screen(3.5, 2.25))
(3.5, 2.25)
"""

from __future__ import annotations

from dataclasses import dataclass

ZOOMS = (6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 28, 32, 36, 40, 48, 56, 64)


@dataclass
class Camera:
    view: tuple[int, int, int, int] = (0, 0, 800, 600)   # the map viewport on screen: x, y, w, h
    ts: int = 24                                          # pixels per square (one of ZOOMS)
    cx: float = 0.0                                       # the world point (squares) at the view's centre
    cy: float = 0.0

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        vx, vy, vw, vh = self.view
        return (vx + vw / 2 + (x - self.cx) * self.ts, vy + vh / 2 + (y - self.cy) * self.ts)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        vx, vy, vw, vh = self.view
        return ((sx - vx - vw / 2) / self.ts + self.cx, (sy - vy - vh / 2) / self.ts + self.cy)

    def square_at(self, sx: float, sy: float) -> tuple[int, int]:
        x, y = self.to_world(sx, sy)
        return (int(x // 1), int(y // 1))

    def origin(self) -> tuple[int, int]:
        """Screen position of the map's top-left corner (whole pixels)."""
        ox, oy = self.to_screen(0, 0)
        return (int(round(ox)), int(round(oy)))

    def fit(self, *, cols: int, rows: int, margin: float = 0.0, max_ts: int = 64,
            box: tuple[int, int, int, int] | None = None) -> None:
        """Largest whole-pixel zoom showing the whole map (or ``box`` = x0, y0, x1, y1 in
        squares, exclusive end), centred."""
        vx, vy, vw, vh = self.view
        x0, y0, x1, y1 = box if box is not None else (0, 0, cols, rows)
        w, h = (x1 - x0) + 2 * margin, (y1 - y0) + 2 * margin
        self.ts = int(max(ZOOMS[0], min(max_ts, vw // max(w, 1e-9), vh // max(h, 1e-9))))
        self.cx, self.cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0

    def zoom_at(self, steps: int, sx: float, sy: float) -> bool:
        """Zoom by ``steps`` levels keeping the world point under ``(sx, sy)`` still."""
        if steps > 0:
            bigger = [z for z in ZOOMS if z > self.ts]
            new = bigger[min(len(bigger), steps) - 1] if bigger else self.ts
        else:
            smaller = [z for z in ZOOMS if z < self.ts]
            new = smaller[-min(len(smaller), -steps)] if smaller and steps < 0 else self.ts
        if new == self.ts:
            return False
        wx, wy = self.to_world(sx, sy)
        self.ts = new
        nx, ny = self.to_world(sx, sy)
        self.cx += wx - nx
        self.cy += wy - ny
        return True

    def pan_pixels(self, dx: float, dy: float) -> None:
        self.cx -= dx / self.ts
        self.cy -= dy / self.ts
