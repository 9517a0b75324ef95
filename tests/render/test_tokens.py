"""Tokens: drawn on the creature's squares in its team colour, scaled to its space; squeezed
along a narrow passage, lying when prone or crawling, a Large creature squeezed into a line
drawn as a line."""

from __future__ import annotations

import pygame
import pytest

from sim.engine import events as ev
from sim.render import portray
from sim.maps import palette
from sim.render.draw import Sprites
from sim.render.text import Text
from sim.rules.categories import Category

from .helpers import scene_for, spec, start_events, surface

ROOM = ["##########",
        "#........#",
        "#........#",
        "#........#",
        "##########"]


def box(s: pygame.Surface) -> pygame.Rect:
    return s.get_bounding_rect(min_alpha=60)


def aspect(s: pygame.Surface) -> float:
    r = box(s)
    return r.h / r.w


def near(rgb, want, tol=40) -> bool:
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(rgb, want))


def test_token_sits_on_its_square_in_team_colour():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (6, 2)}])
    scene, _ = scene_for(s, size=(800, 400))
    surf = surface(scene)
    ts = scene.camera.ts
    for cid, sq in (("bruna", (2, 2)), ("gob", (6, 2))):
        team = palette.team_rgb(scene.model.creatures[cid].team)
        cx, cy = scene.camera.to_screen(sq[0] + 0.5, sq[1] + 0.5)
        ring = [surf.get_at((int(cx + dx), int(cy + dy)))[:3] for dx in range(-ts // 2, ts // 2)
                for dy in range(-ts // 2, ts // 2)]
        assert sum(near(p, team) for p in ring) > ts, cid          # its ring, in its colour
        other = palette.team_rgb("monsters" if cid == "bruna" else "party")
        assert sum(near(p, other, 25) for p in ring) < ts // 4
    # an empty square has no token colour
    cx, cy = scene.camera.to_screen(4.5, 2.5)
    assert not any(near(surf.get_at((int(cx + d), int(cy)))[:3], palette.team_rgb("party"), 25) for d in range(-5, 5))


def test_token_size_follows_the_creature_size():
    sp = Sprites(Text())
    up = portray.Pose("upright")
    ts = 40

    class V:
        k = 1

    small, medium = V(), V()
    small.size, medium.size = "small", "medium"
    large = V()
    large.size, large.k = "large", 2
    rs = [portray.token_radius(v) * ts for v in (small, medium, large)]
    ws = [box(sp.token(rgb=(80, 160, 250), glyph="X", radius=r, pose=up)).w for r in rs]
    assert ws[0] < ws[1] < ws[2] and ws[2] > 1.8 * ws[1]


def test_squeezed_prone_and_line_poses_differ_from_upright():
    sp = Sprites(Text())
    rgb = (80, 160, 250)
    up = sp.token(rgb=rgb, glyph="B", radius=16, pose=portray.Pose("upright"))
    squeezed_v = sp.token(rgb=rgb, glyph="B", radius=16, pose=portray.Pose("squeezed", angle=90, squeeze=0.4))
    squeezed_h = sp.token(rgb=rgb, glyph="B", radius=16, pose=portray.Pose("squeezed", angle=0, squeeze=0.4))
    prone = sp.token(rgb=rgb, glyph="B", radius=16, pose=portray.Pose("prone", angle=0, squeeze=0.55))
    line = sp.token(rgb=rgb, glyph="O", radius=18, pose=portray.Pose("line", angle=0, squeeze=0.5), line_px=40)
    assert aspect(up) == pytest.approx(1.0, abs=0.15)
    assert aspect(squeezed_v) > 1.8          # pressed thin across a north-south fissure
    assert aspect(squeezed_h) < 0.6          # ... across an east-west one
    assert aspect(prone) < 0.65              # lying along its way
    assert aspect(line) < 0.5 and box(line).w > 2 * box(up).w   # a Large creature in a line of squares


def test_pose_comes_from_the_square_and_state():
    rows = ["#####",
            "#...#",
            "##f##",
            "##f##",
            "#...#",
            "#####"]
    from .helpers import grid

    g = grid(rows)

    class V:
        k, squares, pos, facing, prone, conditions, down = 1, [(2, 2)], (2, 2), (0, 1), False, set(), False

    v = V()
    pose = portray.pose_for(v, category=Category.AWKWARD, rock=g.rock, width_ft=2, height_ft=12, body_height=6,
                            space_ft=5)
    assert pose.kind == "squeezed" and pose.angle == 90 and pose.squeeze == pytest.approx(0.4)
    v.prone = True
    assert portray.pose_for(v, category=Category.CRAWL, rock=g.rock, width_ft=5, height_ft=2.5, body_height=6,
                            space_ft=5).kind == "prone"
    v.prone, v.conditions = False, {"dead"}
    assert portray.pose_for(v, category=Category.CLEAR, rock=g.rock, width_ft=30, height_ft=12, body_height=6,
                            space_ft=5).kind == "dead"


def test_a_creature_in_a_fissure_is_drawn_squeezed_on_screen():
    rows = ["#######",
            "#.....#",
            "###f###",
            "###f###",
            "###f###",
            "#.....#",
            "#######"]
    s = spec(rows, [{"id": "lidda", "template": "halfling-rogue-3", "team": "party", "at": (3, 3)},
                    {"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)}])
    scene, _ = scene_for(s, size=(700, 700))
    surf = surface(scene)
    team = palette.team_rgb("party")
    ts = scene.camera.ts

    def extent(sq):
        cx, cy = scene.camera.to_screen(sq[0] + 0.5, sq[1] + 0.5)
        xs, ys = [], []
        for dx in range(-ts // 2, ts // 2):
            for dy in range(-ts // 2, ts // 2):
                if near(surf.get_at((int(cx + dx), int(cy + dy)))[:3], team, 30):
                    xs.append(dx)
                    ys.append(dy)
        return max(xs) - min(xs), max(ys) - min(ys)

    w, h = extent((3, 3))
    assert h > 1.5 * w                       # pressed into the 2-ft north-south fissure
    w2, h2 = extent((1, 1))
    assert h2 == pytest.approx(w2, rel=0.2)  # Bruna in the open: round


def test_prone_creature_is_drawn_lying():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (3, 2)}])
    scene, _ = scene_for(s)
    scene.jump([ev.Condition(round=1, target="bruna", condition="prone", active=True)])
    scene.update(1 / 60)
    look = scene.tokens.look(scene.model.creatures["bruna"], scene.world)
    assert look["pose"].kind == "prone"
    assert [b.key for b, _ in look["badges"]] == ["prone"]


def test_grappling_creatures_are_bound_by_a_rope():
    """docs/rules.md §11: a rope (palette.GRAPPLE_ROPE) joins two grappling tokens, from the
    "grappled" conditions of the events; it goes when the grapple ends."""
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 2)},
                    {"id": "dm", "template": "darkmantle", "team": "monsters", "at": (4, 2)}])
    events = start_events(s) + [
        ev.Condition(round=1, target="dm", condition="grappled", active=True, detail={"with": ("bruna",)}),
        ev.Condition(round=1, target="bruna", condition="grappled", active=True, detail={"with": ("dm",)})]
    scene, _ = scene_for(s, size=(800, 400), events=events)
    assert scene.model.creatures["bruna"].grapple_with == ("dm",)
    surf = surface(scene)
    x0, y = scene.camera.to_screen(2.5, 2.5)
    x1, _ = scene.camera.to_screen(4.5, 2.5)
    between = [surf.get_at((int(x), int(y) + dy))[:3] for x in range(int(x0), int(x1)) for dy in range(-4, 5)]
    roped = sum(near(p, palette.GRAPPLE_ROPE, 30) for p in between)
    ended = events + [ev.Condition(round=1, target="dm", condition="grappled", active=False, detail={"with": ()}),
                      ev.Condition(round=1, target="bruna", condition="grappled", active=False, detail={"with": ()})]
    scene, _ = scene_for(s, size=(800, 400), events=ended)
    surf = surface(scene)
    between = [surf.get_at((int(x), int(y) + dy))[:3] for x in range(int(x0), int(x1)) for dy in range(-4, 5)]
    bare = sum(near(p, palette.GRAPPLE_ROPE, 30) for p in between)   # the floor has a little of that brown
    assert roped - bare > (x1 - x0)


def test_a_roper_strand_joins_the_roper_to_the_creature_it_holds():
    """docs/rules.md §11.15: a strand (palette.ROPER_STRAND) runs from the roper to the creature
    its "stuck" condition names, with the badge S; it goes when the creature is free."""
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (6, 2)},
                    {"id": "roper", "template": "roper", "team": "monsters", "at": (1, 1)}])
    stuck = start_events(s) + [ev.Condition(round=1, target="bruna", condition="stuck", active=True, cause="roper",
                                            detail={"escape_artist_dc": 23, "strength_dc": 19, "strand_hp": 10})]
    cut = stuck + [ev.Condition(round=1, target="bruna", condition="stuck", active=True, cause="bruna",
                                detail={"strand_damage": 4, "strand_hp": 6})]
    freed = cut + [ev.Condition(round=1, target="bruna", condition="stuck", active=False, cause="strength")]

    def strand_pixels(events):
        scene, _ = scene_for(s, size=(800, 400), events=events)
        surf = surface(scene)
        x0, _ = scene.camera.to_screen(3.4, 2.0)
        x1, _ = scene.camera.to_screen(6.0, 2.5)
        _, y0 = scene.camera.to_screen(0, 1.8)
        _, y1 = scene.camera.to_screen(0, 2.9)
        box_px = [surf.get_at((x, y))[:3] for x in range(int(x0), int(x1)) for y in range(int(y0), int(y1))]
        return scene, sum(near(p, palette.ROPER_STRAND, 25) for p in box_px), int(x1 - x0)

    scene, held, width = strand_pixels(cut)
    assert scene.model.creatures["bruna"].stuck_to == "roper"       # the cut left it hanging: still the roper's
    look = scene.tokens.look(scene.model.creatures["bruna"], scene.world)
    assert "stuck" in [b.key for b, _ in look["badges"]]
    scene, bare, _ = strand_pixels(freed)
    assert scene.model.creatures["bruna"].stuck_to is None
    assert held - bare > width, (held, bare, width)
