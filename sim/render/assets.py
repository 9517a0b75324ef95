"""The renderer's art files, all drawn by code (DESIGN §2: ``assets/`` is ours).

``python assets/make_assets.py`` (or :func:`write_assets`) writes:

* ``icon.png``        -- the window icon: a token in a cave mouth;
* ``categories.gpl``  -- the category and team colours as a GIMP/Inkscape palette, for map makers;
* ``swatches.png``    -- the category colours with their names, as a picture.

The renderer needs none of them to run (the icon is drawn again if the file is missing); the
cave, tokens, particles and effects are drawn procedurally at run time (``art``, ``draw``).
"""

from __future__ import annotations

from pathlib import Path

from sim.maps import palette
from sim.rules.categories import Category

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"


def draw_icon(size: int = 64):
    """The window icon: a blue party token in an arched cave opening."""
    import pygame

    s = pygame.Surface((size, size), pygame.SRCALPHA)
    r = size // 2
    pygame.draw.circle(s, palette.ROCK_DARK, (r, r), r)
    pygame.draw.ellipse(s, palette.ROCK_LIGHT, pygame.Rect(size * 0.12, size * 0.18, size * 0.76, size * 0.9))
    pygame.draw.ellipse(s, palette.FLOOR_HIGH, pygame.Rect(size * 0.2, size * 0.28, size * 0.6, size * 0.8))
    team = palette.TEAM_RGB["party"]
    pygame.draw.circle(s, palette.shade(team, 0.45), (r, int(size * 0.62)), int(size * 0.2))
    pygame.draw.circle(s, team, (r, int(size * 0.62)), int(size * 0.2), max(2, size // 20))
    pygame.draw.circle(s, palette.CATEGORY_RGB["NARROW_AND_LOW"], (int(size * 0.78), int(size * 0.3)), int(size * 0.1))
    return s


def icon_surface():
    import pygame

    p = ASSETS_DIR / "icon.png"
    if p.exists():
        try:
            return pygame.image.load(str(p))
        except pygame.error:
            pass
    return draw_icon(64)


def palette_gpl() -> str:
    lines = ["GIMP Palette", "Name: cavesim", "Columns: 4", "#"]
    for cat in Category:
        r, g, b = palette.category_rgb(cat)
        lines.append(f"{r:3d} {g:3d} {b:3d}\t{cat.label}")
    for team, (r, g, b) in palette.TEAM_RGB.items():
        lines.append(f"{r:3d} {g:3d} {b:3d}\tteam {team}")
    for name in ("ROCK_DARK", "ROCK_LIGHT", "FLOOR_LOW", "FLOOR_HIGH"):
        r, g, b = getattr(palette, name)
        lines.append(f"{r:3d} {g:3d} {b:3d}\t{name.lower().replace('_', ' ')}")
    return "\n".join(lines) + "\n"


def draw_swatches():
    import pygame

    from sim.render.text import Text

    text = Text()
    w, row = 280, 26
    s = pygame.Surface((w, row * len(Category) + 12))
    s.fill(palette.UI_BG)
    for i, cat in enumerate(Category):
        y = 6 + i * row
        pygame.draw.rect(s, palette.category_rgb(cat), pygame.Rect(8, y + 3, 34, row - 6), border_radius=4)
        t = text.render(f"{cat.letter}  {cat.label}", 20, palette.UI_TEXT)
        s.blit(t, (52, y + (row - t.get_height()) // 2))
    return s


def write_assets(folder: str | Path = ASSETS_DIR) -> list[Path]:
    """Draw every asset into ``folder``; returns the files written."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from sim.base.fileio import atomic_path, atomic_write_text

    pygame.font.init()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, surf in (("icon.png", draw_icon(64)), ("swatches.png", draw_swatches())):
        p = folder / name
        with atomic_path(p) as tmp:
            pygame.image.save(surf, str(tmp.with_suffix(".png")) if tmp.suffix != ".png" else str(tmp))
        out.append(p)
    p = folder / "categories.gpl"
    atomic_write_text(p, palette_gpl())
    out.append(p)
    return out
