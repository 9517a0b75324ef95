"""Text for the renderer: pygame's bundled font (the same on every machine, so exports are
reproducible), rendered once per (text, size, colour) and cached.

The bundled font's hinting spaces small sizes unevenly ("Awk ward", "Lidd a"): text is drawn
at ``OVERSAMPLE`` times its size and scaled down smoothly, which keeps the letter spacing of the
outline font."""

from __future__ import annotations

import math
from collections import OrderedDict

import pygame

OVERSAMPLE = 3

# characters the bundled font lacks -> what to show instead
_SUBST = {"→": "»", "✓": "ok", "✗": "x", "▶": ">", "⚔": "x", "←": "«"}


def clean(text: str) -> str:
    for a, b in _SUBST.items():
        if a in text:
            text = text.replace(a, b)
    return text


class Text:
    """Font and rendered-text cache (an LRU of rendered surfaces)."""

    def __init__(self, *, limit: int = 1500):
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._cache: OrderedDict = OrderedDict()
        self.limit = limit

    def font(self, size: int) -> pygame.font.Font:
        """The font at ``OVERSAMPLE`` times ``size`` (sizes in this module are the shown ones)."""
        f = self._fonts.get(size)
        if f is None:
            f = pygame.font.Font(None, int(size) * OVERSAMPLE)
            self._fonts[size] = f
        return f

    def size(self, text: str, size: int) -> tuple[int, int]:
        w, h = self.font(size).size(clean(text))
        return (math.ceil(w / OVERSAMPLE), math.ceil(h / OVERSAMPLE))

    def line_height(self, size: int) -> int:
        return math.ceil(self.font(size).get_linesize() / OVERSAMPLE)

    def _draw(self, f: pygame.font.Font, text: str, colour) -> pygame.Surface:
        big = f.render(text or " ", True, colour)
        if big.get_bitsize() != 32:
            big = big.convert_alpha() if pygame.display.get_surface() else big.convert(32, pygame.SRCALPHA)
        w, h = big.get_size()
        return pygame.transform.smoothscale(big, (max(1, math.ceil(w / OVERSAMPLE)), max(1, math.ceil(h / OVERSAMPLE))))

    def render(self, text: str, size: int, colour, *, outline: tuple | None = None) -> pygame.Surface:
        """The text as a surface with per-pixel alpha; ``outline``: a 1-px outline colour."""
        key = (text, size, tuple(colour), outline)
        s = self._cache.get(key)
        if s is not None:
            self._cache.move_to_end(key)
            return s
        f = self.font(size)
        body = self._draw(f, clean(text), colour)
        if outline is None:
            s = body.convert_alpha() if pygame.display.get_surface() else body
        else:
            o = self._draw(f, clean(text), outline)
            w, h = body.get_size()
            s = pygame.Surface((w + 2, h + 2), pygame.SRCALPHA)
            for dx, dy in ((0, 1), (2, 1), (1, 0), (1, 2), (0, 0), (2, 2), (0, 2), (2, 0)):
                s.blit(o, (dx, dy))
            s.blit(body, (1, 1))
        self._cache[key] = s
        if len(self._cache) > self.limit:
            self._cache.popitem(last=False)
        return s

    def wrap(self, text: str, size: int, width: int) -> list[str]:
        """Split ``text`` into lines no wider than ``width`` pixels (words kept whole where possible)."""
        text = clean(text)
        indent = len(text) - len(text.lstrip(" "))
        words = text.strip().split(" ")
        lines: list[str] = []
        cur = " " * indent
        for w in words:
            trial = (cur + " " + w) if cur.strip() else (cur + w)
            if self.size(trial, size)[0] <= width or not cur.strip():
                cur = trial
            else:
                lines.append(cur)
                cur = " " * (indent + 2) + w
        if cur.strip():
            lines.append(cur)
        return lines or [""]
