"""Pixel checks on off-screen frames: the category overlay colours the squares of the gallery of
worked examples (RULES §2.9) as the classifier says; the cave is painted as floor and rock, with
narrow passages drawn to their width and floors shaded by ceiling height; reach and travel-time
overlays mark the squares the engine returns."""

from __future__ import annotations

import numpy as np
import pytest

from sim.maps.read import load_map
from sim.scenario.specs import SETTINGS_DEFAULTS, CombatantSpec, EncounterSpec
from sim.render import art
from sim.maps import palette
from sim.rules.categories import Category

from .helpers import ROOT_MAPS, scene_for, surface

GALLERY = {"A": Category.CLEAR, "B": Category.NARROW_OR_LOW, "C": Category.NARROW_OR_LOW,
           "D": Category.NARROW_AND_LOW, "E": Category.CRAWL, "F": Category.AWKWARD, "G": Category.AWKWARD,
           "H": Category.AWKWARD, "I": Category.TIGHT_SQUEEZE, "J": Category.TIGHT_SQUEEZE, "K": Category.IMPASSABLE}


def gallery_scene():
    g = load_map(ROOT_MAPS / "gallery.toml")
    s = EncounterSpec(name="gallery", path=str(ROOT_MAPS / "gallery.toml"), grid=g, seed=1,
                      combatants=(CombatantSpec(id="bruna", template="human-fighter-3", team="party", at=(1, 1)),),
                      settings=dict(SETTINGS_DEFAULTS))
    scene, _ = scene_for(s, size=(1000, 300))
    return scene, g


def pixel(surf, scene, x: float, y: float):
    sx, sy = scene.camera.to_screen(x, y)
    return np.array(surf.get_at((int(sx), int(sy)))[:3], dtype=float)


def test_category_overlay_colours_each_worked_example():
    scene, g = gallery_scene()
    plain = surface(scene)
    scene.overlays["size"] = 4  # Medium
    over = surface(scene)
    a = 118 / 255
    for i, (letter, cat) in enumerate(GALLERY.items()):
        x = 2 + 2 * i
        assert g.glyphs is not None
        # a point inside the square, off its centre (the impassable hatching runs through stripes)
        for fx, fy in ((0.3, 0.7), (0.7, 0.3), (0.5, 0.5)):
            base, got = pixel(plain, scene, x + fx, 2 + fy), pixel(over, scene, x + fx, 2 + fy)
            want = base * (1 - a) + np.array(palette.category_rgb(cat)) * a
            if np.abs(got - want).max() <= 3:
                break
        else:
            if cat == Category.IMPASSABLE:
                continue
            pytest.fail(f"{letter}: {got} is not {cat.name} over {base}")
    # rock gets no overlay
    assert np.array_equal(pixel(plain, scene, 0.5, 0.5), pixel(over, scene, 0.5, 0.5))


def test_cave_floor_rock_and_narrow_passages_to_scale():
    from .helpers import grid

    rows = ["##########",
            "#...ff...#",
            "##########",
            "#...hh...#",
            "##########",
            "#...kk...#",
            "##########"]
    g = grid(rows, {"h": (1, 12)})
    ts = 40
    floor = art.floor_mask(g, ts)

    def across(x, y):  # floor pixels down the middle column of square (x, y)
        return int(floor[y * ts:(y + 1) * ts, x * ts + ts // 2].sum())

    assert floor[ts + ts // 2, 2 * ts + ts // 2] and not floor[ts // 2, ts // 2]   # chamber floor, corner rock
    # a 2-ft fissure is 2/5 of a square wide, a 1-ft one 1/5, a 3.6-inch crack a hairline
    assert across(4, 1) == pytest.approx(ts * 2 / 5, abs=3) and across(5, 1) == pytest.approx(ts * 2 / 5, abs=3)
    assert across(4, 3) == pytest.approx(ts * 1 / 5, abs=3)
    assert 1 <= across(4, 5) <= 4
    assert across(2, 1) > ts * 0.8      # the chambers are wide open
    img = art.paint_cave(g, ts)
    assert img.shape == (g.rows * ts, g.cols * ts, 3)
    assert img[ts + ts // 2, 2 * ts + ts // 2].mean() > img[ts // 2, ts // 2].mean() + 30   # floor lighter than rock


def test_floor_is_shaded_by_ceiling_height():
    g = load_map(ROOT_MAPS / "warrens.toml")
    ts = 12
    img = art.paint_cave(g, ts, grid_lines=False).astype(float)
    def mean(x0, y0, x1, y1):  # noqa: E306
        return img[y0 * ts:y1 * ts, x0 * ts:x1 * ts].mean()
    hall = mean(19, 13, 24, 17)      # ceiling 16 ft
    gallery = mean(18, 3, 24, 5)     # ceiling 5 ft
    assert hall > gallery + 15


def test_reach_overlay_marks_the_engine_reach():
    rows = ["############",
            "#..........#",
            "#..........#",
            "############"]
    from .helpers import spec

    s = spec(rows, [{"id": "a", "template": "human-fighter-3", "team": "party", "at": (1, 1)}])
    scene, _ = scene_for(s, size=(900, 300))
    plain = surface(scene)
    scene.selected = "a"
    scene.overlays["reach"] = True
    over = surface(scene)
    r = scene.world.reach("a")
    single = {(int(x), int(y)) for x, y, _ in r.single}
    double = {(int(x), int(y)) for x, y, _ in r.double} - single
    assert single and double
    blue = np.array(palette.REACH_SINGLE, float)
    yellow = np.array(palette.REACH_DOUBLE, float)
    for sq, col in ((max(single), blue), (max(double), yellow)):
        base = pixel(plain, scene, sq[0] + 0.3, sq[1] + 0.3)
        got = pixel(over, scene, sq[0] + 0.3, sq[1] + 0.3)
        assert np.linalg.norm(got - col) < np.linalg.norm(base - col), sq
    far = (10, 2)
    assert far not in single | double
    assert np.array_equal(pixel(plain, scene, 10.3, 2.3), pixel(over, scene, 10.3, 2.3))


def test_travel_time_contours_are_drawn_between_rounds():
    rows = ["#" * 40, "#" + "." * 38 + "#", "#" * 40]
    from .helpers import spec

    s = spec(rows, [{"id": "a", "template": "human-fighter-3", "team": "party", "at": (1, 1)}])
    scene, _ = scene_for(s, size=(1200, 200))
    scene.selected = "a"
    plain = surface(scene)
    scene.overlays["contours"] = True
    over = surface(scene)
    d = scene.world.travel("a")
    r = d.rounds[1]
    boundary = int(np.nonzero(r[1:] != r[:-1])[0][0]) + 1   # first square of the second round
    sx, sy = scene.camera.to_screen(boundary, 1.3)
    diff = [np.abs(np.array(over.get_at((int(sx) + dx, int(sy)))[:3], float) -
                   np.array(plain.get_at((int(sx) + dx, int(sy)))[:3], float)).max() for dx in (-1, 0, 1)]
    assert max(diff) > 40      # a line on the boundary
    mx, my = scene.camera.to_screen(boundary - 0.5, 1.3)
    assert np.array_equal(np.array(over.get_at((int(mx), int(my)))), np.array(plain.get_at((int(mx), int(my)))))
