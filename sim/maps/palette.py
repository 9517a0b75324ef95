"""Colours of the renderer as plain ``(r, g, b)`` tuples (no pygame: other tools reuse them,
e.g. the designer report's heat maps use :data:`CATEGORY_RGB`).

>>> category_rgb("NARROW_AND_LOW")
(240, 150, 50)
>>> category_rgb(0) == CATEGORY_RGB["CLEAR"]
True
>>> team_rgb("party"), team_rgb("monsters")
((86, 168, 255), (232, 84, 64))
>>> ceiling_rgb(16) > ceiling_rgb(2.5)
True
"""

from __future__ import annotations

import functools

from sim.rules.categories import Category

RGB = tuple[int, int, int]

# Constricted-space categories (RULES §2.1), light to dark with severity; keyed by Category name.
CATEGORY_RGB: dict[str, RGB] = {
    "CLEAR": (118, 190, 108),
    "NARROW_OR_LOW": (228, 208, 80),
    "NARROW_AND_LOW": (240, 150, 50),
    "CRAWL": (222, 84, 60),
    "AWKWARD": (186, 62, 140),
    "TIGHT_SQUEEZE": (112, 70, 196),
    "IMPASSABLE": (44, 44, 60),
}

# Teams: the party in blue, monsters in red, other teams after them.
TEAM_RGB: dict[str, RGB] = {"party": (86, 168, 255), "monsters": (232, 84, 64)}
EXTRA_TEAMS: tuple[RGB, ...] = ((96, 200, 120), (200, 120, 230), (240, 200, 70), (80, 210, 210))

# The cave.
ROCK_DARK: RGB = (22, 20, 20)
ROCK_LIGHT: RGB = (92, 84, 76)
ROCK_RIM: RGB = (122, 110, 96)
FLOOR_LOW: RGB = (62, 52, 46)        # ceiling at 2 ft or less
FLOOR_HIGH: RGB = (182, 164, 134)    # ceiling at 16 ft or more
RUBBLE: RGB = (96, 84, 72)
GRID_LINE: RGB = (0, 0, 0)
EDGE_WALL: RGB = (34, 30, 28)        # a wall between squares (docs/rules.md §6.8), drawn on the grid line
EDGE_DOOR: RGB = (150, 96, 40)       # a closed door on an edge (the closed-door squares' brown)

# Effects.
FIRE: tuple[RGB, ...] = ((255, 236, 140), (255, 180, 60), (240, 100, 30), (160, 40, 20))
TORCH_LIGHT: RGB = (255, 170, 80)
HIT_FLASH: RGB = (255, 255, 255)
DAMAGE_TEXT: RGB = (255, 92, 72)
HEAL_TEXT: RGB = (110, 230, 120)
MISS_TEXT: RGB = (200, 200, 210)
CRIT_TEXT: RGB = (255, 210, 60)
SWARM_TEXT: RGB = (255, 150, 60)
MAGIC: RGB = (170, 140, 255)

# Interface.
UI_BG: RGB = (18, 20, 26)
UI_PANEL: RGB = (28, 31, 40)
UI_EDGE: RGB = (60, 66, 82)
UI_TEXT: RGB = (226, 228, 236)
UI_DIM: RGB = (140, 146, 162)
UI_ACCENT: RGB = (255, 196, 86)
GRAPPLE_ROPE: RGB = (196, 150, 92)     # the tether between grappling creatures (sim/render/tokens.py)
ROPER_STRAND: RGB = (218, 214, 150)    # a roper's sticky strand to the creature it holds (docs/rules.md §11.15)
UI_BAD: RGB = (255, 110, 96)
UI_GOOD: RGB = (120, 220, 130)
REACH_SINGLE: RGB = (90, 200, 255)
REACH_DOUBLE: RGB = (235, 240, 255)
SPELL_AREA: RGB = (255, 150, 60)    # play: the squares a chosen area spell would fill
CONTOUR: RGB = (255, 255, 255)
PATH: RGB = (255, 255, 255)

# hp bar: full -> empty
HP_COLOURS: tuple[RGB, ...] = ((96, 206, 96), (236, 200, 64), (236, 80, 56))


def category_rgb(cat: Category | int | str) -> RGB:
    """The colour of a category (a :class:`Category`, its code or its name)."""
    if isinstance(cat, str):
        return CATEGORY_RGB[Category.parse(cat).name]
    return CATEGORY_RGB[Category(int(cat)).name]


def team_rgb(team: str, index: int = 0) -> RGB:
    """The colour of a team; teams other than party and monsters take the ``index``-th extra."""
    if team in TEAM_RGB:
        return TEAM_RGB[team]
    return EXTRA_TEAMS[index % len(EXTRA_TEAMS)]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend of two colours (``t`` = 0 gives ``a``).

    >>> mix((0, 0, 0), (200, 100, 50), 0.5)
    (100, 50, 25)
    """
    t = min(1.0, max(0.0, float(t)))
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))  # type: ignore[return-value]


def shade(c: RGB, f: float) -> RGB:
    """Scale a colour's brightness (clamped to 0..255)."""
    return tuple(int(min(255, max(0, round(x * f)))) for x in c)  # type: ignore[return-value]


def ceiling_rgb(height_ft: float) -> RGB:
    """Floor colour for a ceiling height: dark where it is low, light where it is high."""
    t = (min(16.0, max(2.0, float(height_ft))) - 2.0) / 14.0
    return mix(FLOOR_LOW, FLOOR_HIGH, t ** 0.7)


def hp_rgb(fraction: float) -> RGB:
    """hp bar colour for the fraction of hit points left."""
    return _hp_rgb(round(min(1.0, max(0.0, float(fraction))), 2))


@functools.lru_cache(maxsize=128)
def _hp_rgb(f: float) -> RGB:
    if f >= 0.5:
        return mix(HP_COLOURS[1], HP_COLOURS[0], (f - 0.5) * 2)
    return mix(HP_COLOURS[2], HP_COLOURS[1], f * 2)
