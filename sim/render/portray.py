"""Portrayal: how a creature looks (STYLE habit 10). Creatures have no colour or glyph; this
module decides them from what the view knows (team, size, template, posture, the category and
shape of the passage it stands in). No pygame: the drawing modules turn these plain records
into pixels.

>>> glyph("Goblin 2"), glyph("Bruna"), glyph("Rats")
('G2', 'B', 'R')
>>> swarm_kind("bat-swarm"), swarm_kind("rat-swarm"), swarm_kind("hellwasp-swarm"), swarm_kind("spider-swarm")
('bat', 'rat', 'wasp', 'crawler')
>>> squeeze_for(Category.AWKWARD, width_ft=2, space_ft=5, height_ft=10, body_height=6)
0.4
>>> squeeze_for(Category.CLEAR, width_ft=30, space_ft=5, height_ft=12, body_height=6)
1.0
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from sim.base.coords import Pos
from sim.maps import palette
from sim.rules.categories import Category

# Fraction of its block a token's disc fills, by size (the block is k x k squares).
TOKEN_SCALE = {"fine": 0.46, "diminutive": 0.54, "tiny": 0.64, "small": 0.78, "medium": 0.9, "large": 0.92,
               "huge": 0.92, "gargantuan": 0.94, "colossal": 0.95}


@dataclass(frozen=True, slots=True)
class Pose:
    """How to draw a token: ``upright`` (a disc), ``squeezed`` (an ellipse pressed across the
    passage: ``squeeze`` is its width over its length, ``angle`` the passage's direction in
    degrees, 0 = along x), ``crouched`` (under a low ceiling: a smaller disc), ``prone`` (lying,
    along ``angle``), ``line`` (a Large creature squeezed into a line of squares), ``down``
    (dying or unconscious) or ``dead``."""

    kind: str
    angle: float = 0.0
    squeeze: float = 1.0


@dataclass(frozen=True, slots=True)
class Badge:
    text: str
    rgb: tuple[int, int, int]
    key: str


# condition -> badge (text, colour); the order is the order they are shown in
CONDITION_BADGES: dict[str, tuple[str, tuple[int, int, int]]] = {
    "dying": ("+", (230, 60, 60)),
    "dead": ("x", (120, 120, 120)),
    "stable": ("s", (200, 160, 160)),
    "unconscious": ("u", (180, 120, 120)),
    "asleep": ("z", (150, 150, 255)),
    "paralyzed": ("!", (255, 120, 200)),
    "nauseated": ("~", (120, 210, 80)),
    "prone": ("P", (200, 150, 90)),
    "disabled": ("d", (230, 120, 60)),
    "wounded": ("b", (200, 40, 40)),
    "poisoned": ("p", (150, 220, 60)),
    "diseased": ("f", (170, 150, 60)),
    "blessed": ("+", (120, 190, 255)),
    "burning": ("*", (255, 140, 40)),
    "running": ("r", (240, 220, 120)),
    "swallowed": ("W", (200, 90, 200)),     # inside a purple worm (docs/rules.md §11.13)
    "engulfed": ("E", (120, 220, 200)),     # inside a gelatinous cube
    "invisible": ("i", (200, 200, 230)),     # spell-like abilities (docs/rules.md §8.5)
    "outlined": ("o", (230, 130, 255)),
    "enlarged": ("L", (240, 200, 120)),   # L: larger (E is engulfed)
    "stuck": ("S", (218, 214, 150)),      # held by a roper's strand (docs/rules.md §11.15; s is stable)
    "blurred": ("%", (170, 190, 230)),      # blur: 20% miss chance
}
BADGE_NAMES = {
    "dying": "dying", "dead": "dead", "stable": "stable", "unconscious": "unconscious", "asleep": "asleep",
    "paralyzed": "paralyzed", "nauseated": "nauseated", "prone": "prone", "disabled": "disabled",
    "wounded": "bleeding", "poisoned": "poisoned", "diseased": "diseased", "blessed": "blessed", "burning": "burning",
    "running": "running (no Dex to AC)", "swallowed": "swallowed whole", "engulfed": "engulfed",
    "invisible": "invisible", "outlined": "outlined (faerie fire)", "enlarged": "enlarged",
    "stuck": "stuck to a roper's strand",
    "blurred": "blurred (20% miss)",
}


def glyph(label: str) -> str:
    """One or two characters for a token: the initial, plus a trailing number if any."""
    m = re.search(r"(\d+)$", label.strip())
    first = next((ch for ch in label if ch.isalpha()), "?").upper()
    return first + (m.group(1) if m else "")


def team_rgb(cv) -> tuple[int, int, int]:
    return palette.team_rgb(cv.team, cv.team_index)


def swarm_kind(template: str, component: str | None = None) -> str:
    """The particle motion for a swarm: bats flutter, rats scurry, wasps and locusts buzz,
    spiders and centipedes crawl."""
    t = template.lower()
    if "bat" in t:
        return "bat"
    if "rat" in t:
        return "rat"
    if "wasp" in t or "locust" in t or "bee" in t or "fly" in t:
        return "wasp"
    if "spider" in t or "centipede" in t or "beetle" in t or "crawl" in t:
        return "crawler"
    return "rat" if component == "tiny" else "wasp"


@dataclass(frozen=True, slots=True)
class SwarmStyle:
    count: int                 # particles when at full hit points
    colours: tuple             # (r, g, b) variants
    speed: float               # squares per second when travelling
    jitter: float              # random motion strength
    haze: tuple                # (r, g, b, alpha) of the shadow under the cloud
    flying: bool


SWARM_STYLES: dict[str, SwarmStyle] = {
    "bat": SwarmStyle(220, ((34, 26, 30), (52, 40, 44), (70, 56, 58), (22, 18, 22)), 9.0, 2.2, (10, 6, 10, 90), True),
    "rat": SwarmStyle(220, ((70, 54, 44), (98, 78, 62), (120, 100, 84), (56, 44, 38)), 7.0, 1.4, (24, 16, 10, 170), False),
    "wasp": SwarmStyle(300, ((236, 196, 40), (250, 220, 80), (40, 30, 10), (200, 150, 20)), 11.0, 3.5, (60, 40, 0, 80), True),
    "crawler": SwarmStyle(240, ((44, 34, 34), (70, 50, 40), (30, 24, 26), (90, 70, 50)), 6.0, 1.0, (20, 10, 10, 120), False),
}


def token_radius(cv) -> float:
    """Disc radius in squares."""
    return 0.5 * cv.k * TOKEN_SCALE.get(cv.size, 0.84)


def squeeze_for(cat: Category, *, width_ft: float, space_ft: float, height_ft: float, body_height: float) -> float:
    """How much narrower than round to draw a creature in a square (1.0 = not at all): pressed to
    the passage's width where it is narrower than the creature's space, a little where the
    ceiling alone constrains it."""
    cat = Category(int(cat))
    if cat in (Category.CLEAR, Category.IMPASSABLE):
        return 1.0
    if width_ft < space_ft:
        return round(max(0.3, min(1.0, width_ft / space_ft)), 3)
    return 1.0


def passage_angle(rock: np.ndarray, pos: Pos, facing: tuple[int, int] = (1, 0)) -> float:
    """The direction of the passage at a square, in degrees (0 = along x, 90 = along y, 45 and
    135 the diagonals): the axis with the most open squares within two squares either way;
    ties go to the way the creature last moved.

    >>> rock = np.ones((5, 5), bool); rock[1:4, 2] = False
    >>> passage_angle(rock, (2, 2))
    90.0
    """
    x, y = pos
    rows, cols = rock.shape
    best = None
    fx, fy = facing
    face_angle = _axis_of(fx, fy)
    for ang, (dx, dy) in ((0.0, (1, 0)), (90.0, (0, 1)), (45.0, (1, 1)), (135.0, (-1, 1))):
        n = 0
        for sgn in (1, -1):
            for d in (1, 2):
                qx, qy = x + sgn * dx * d, y + sgn * dy * d
                if 0 <= qx < cols and 0 <= qy < rows and not rock[qy, qx]:
                    n += 1 if d == 1 else 0.5
                else:
                    break
        score = (n, 1 if ang == face_angle else 0, 1 if ang in (0.0, 90.0) else 0)
        if best is None or score > best[0]:
            best = (score, ang)
    return float(best[1])


def _axis_of(dx: int, dy: int) -> float:
    if dx == 0 and dy == 0:
        return 0.0
    if dy == 0:
        return 0.0
    if dx == 0:
        return 90.0
    return 45.0 if (dx > 0) == (dy > 0) else 135.0


def line_angle(squares: list[Pos]) -> float:
    """Direction of a line of squares (a Large creature squeezed into a line), degrees."""
    (x0, y0), (x1, y1) = squares[0], squares[-1]
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def pose_for(cv, *, category: Category, rock: np.ndarray, width_ft: float, height_ft: float,
             body_height: float, space_ft: float) -> Pose:
    """The pose of a creature (not a swarm) from its state and the square it stands in."""
    facing_angle = math.degrees(math.atan2(cv.facing[1], cv.facing[0]))
    if "dead" in cv.conditions:
        return Pose("dead", angle=facing_angle)
    if cv.down:
        return Pose("down", angle=facing_angle)
    if cv.k > 1 and len(cv.squares) < cv.k * cv.k:
        return Pose("line", angle=line_angle(cv.squares) if len(cv.squares) > 1 else 0.0,
                    squeeze=squeeze_for(category, width_ft=width_ft, space_ft=space_ft, height_ft=height_ft,
                                        body_height=body_height))
    if cv.prone or category == Category.CRAWL:
        angle = passage_angle(rock, cv.pos, cv.facing) if category != Category.CLEAR else facing_angle
        return Pose("prone", angle=angle, squeeze=0.55)
    sq = squeeze_for(category, width_ft=width_ft, space_ft=space_ft, height_ft=height_ft, body_height=body_height)
    if sq < 1.0:
        return Pose("squeezed", angle=passage_angle(rock, cv.pos, cv.facing), squeeze=sq)
    if category != Category.CLEAR and height_ft < body_height:
        return Pose("crouched", squeeze=0.86)
    return Pose("upright")


def badges(cv, category: Category | None = None) -> list[Badge]:
    """Condition badges, then the squeezing category (its letter on its colour) when constricted."""
    out = []
    for key, (text, rgb) in CONDITION_BADGES.items():
        if key in cv.conditions and key != "dead":
            out.append(Badge(text, rgb, key))
    if cv.prone and "prone" not in cv.conditions:
        out.append(Badge("P", CONDITION_BADGES["prone"][1], "prone"))
    if category is not None and Category(int(category)).constricted and not cv.swarm:
        cat = Category(int(category))
        out.append(Badge(cat.letter, palette.category_rgb(cat), f"category:{cat.name}"))
    return out
