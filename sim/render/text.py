"""Text for the renderer: pygame's bundled font (the same on every machine, so exports are
reproducible), rendered once per (text, size, colour) and cached.

The bundled font's hinting spaces small sizes unevenly ("Awk ward", "Lidd a"): text is drawn
at ``OVERSAMPLE`` times its size and scaled down smoothly, which keeps the letter spacing of the
outline font.

The font file is read once, when a :class:`Text` is made (at window start): every size is then
made from those bytes, so a font file that goes missing while a window is open (pygame
reinstalled or upgraded under it) cannot end the window at its first new text size."""

from __future__ import annotations

import io
import math
from collections import OrderedDict
from pathlib import Path

import pygame

from sim.base.errors import DataError

OVERSAMPLE = 3

# characters the bundled font lacks -> what to show instead
_SUBST = {"→": "»", "✓": "ok", "✗": "x", "▶": ">", "⚔": "x", "←": "«"}


# pygame draws its bundled font, given as ``Font(None, size)``, at this fraction of the size asked
# for (pygame's font.c); the bytes of the same font scale the same way, so the text is unchanged
DEFAULT_FONT_SCALE = 0.6875
# system fonts to draw with when pygame's bundled font is missing (pygame.font.match_font names)
FALLBACK_FONTS = "freesans,dejavusans,liberationsans,arial,helvetica,verdana"


def bundled_font_path() -> Path:
    """Where pygame keeps its bundled font (``freesansbold.ttf``)."""
    return Path(pygame.__file__).resolve().parent / pygame.font.get_default_font()


def load_font() -> tuple[bytes, float, str]:
    """The bytes of the font all text is drawn in, the scale its sizes take, and its name:
    pygame's bundled font, else the first of :data:`FALLBACK_FONTS` installed. Neither: a
    :class:`DataError` saying what is missing and how to get it back (at window start, before
    anything is drawn)."""
    path = bundled_font_path()
    try:
        return path.read_bytes(), DEFAULT_FONT_SCALE, path.name
    except OSError as exc:
        missing = f"{path} ({exc.strerror or type(exc).__name__})"
    try:
        other = pygame.font.match_font(FALLBACK_FONTS)
    except Exception:      # noqa: BLE001 -- no font list (no fc-list, a broken registry): no fallback
        other = None
    if other:
        try:
            return Path(other).read_bytes(), 1.0, Path(other).name
        except OSError:
            pass
    raise DataError(f"pygame's bundled font cannot be read: {missing}, and no system font to use instead "
                    f"({FALLBACK_FONTS.replace(',', ', ')}); reinstall pygame (pip install --force-reinstall pygame)")


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
        self._font_data, self._font_scale, self.font_name = load_font()   # read now: no file is read later
        self._fonts: dict[int, pygame.font.Font] = {}
        self._cache: OrderedDict = OrderedDict()
        self.limit = limit

    def font(self, size: int) -> pygame.font.Font:
        """The font at ``OVERSAMPLE`` times ``size`` (sizes in this module are the shown ones)."""
        f = self._fonts.get(size)
        if f is None:
            f = pygame.font.Font(io.BytesIO(self._font_data), max(1, int(int(size) * OVERSAMPLE * self._font_scale)))
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
