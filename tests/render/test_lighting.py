"""The renderer's light and fog of war (issue 16 item 6): pixels drawn off-screen."""

from __future__ import annotations

import numpy as np
import pytest

from sim.render.lighting import DARKVISION_RGB, EXPLORED_RGB, LEVEL_RGB, VIEWS, Lighting, flicker, light_image
from sim.terrain.vision import BRIGHT, DARK, SHADOWY
from tests.render.helpers import headless, scene_for, spec

ROWS = ["#" * 34] + ["#" + "." * 32 + "#"] * 3 + ["#" * 34]


def corridor_scene(view: str, *, goblin_at=(30, 2), dwarf: bool = False):
    headless()
    party = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [2, 2], "lit": True}]
    if dwarf:
        party.append({"id": "tordek", "template": "dwarf-fighter-3", "team": "party", "at": [3, 2]})
    s = spec(ROWS, party + [{"id": "gob", "template": "goblin", "team": "monsters", "at": list(goblin_at)}])
    scene, _ = scene_for(s, size=(900, 300), mode="watch")
    scene.lighting = Lighting(s.grid, view=view, carried={"bruna": "torch"})
    return scene


def pixel(scene, surf, sq):
    x, y = scene.camera.to_screen(sq[0] + 0.5, sq[1] + 0.5)
    return np.array(surf.get_at((int(x), int(y)))[:3], float)


def draw(scene):
    import pygame

    s = pygame.Surface(scene.size)
    scene.draw(s, 1.0)
    return s


def test_light_image_levels_and_fog():
    lv = np.array([[DARK, SHADOWY, BRIGHT, DARK]], np.uint8)
    assert (light_image(lv)[0] == LEVEL_RGB[[0, 1, 2, 0]]).all()
    seen = np.array([[True, True, True, False]])
    explored = np.array([[True, True, True, True]])
    img = light_image(lv, seen=seen, explored=explored, darkvision=np.array([[True, False, False, False]]))
    assert (img[0, 0] == DARKVISION_RGB).all() and (img[0, 3] == EXPLORED_RGB).all()
    img = light_image(lv, seen=seen, explored=np.array([[True, True, True, False]]))
    assert (img[0, 3] == 0).all()                    # never seen: black
    assert (img[0, 0] == EXPLORED_RGB).all()         # in view but dark, no darkvision: not seen, only explored


def test_flicker_is_small_and_moves():
    vals = [flicker(t / 15, 1) for t in range(60)]
    assert max(abs(v) for v in vals) < 0.1 and len(set(round(v, 4) for v in vals)) > 30


def test_the_torch_bearer_has_a_lit_disc_and_the_dark_is_dark():
    scene = corridor_scene("all")
    surf = draw(scene)
    near = pixel(scene, surf, (5, 1))      # 15 ft from bruna's corner: bright
    ring = pixel(scene, surf, (8, 1))      # 30 ft: shadowy
    far = pixel(scene, surf, (20, 1))      # dark
    assert near.sum() > 1.3 * ring.sum() > 1.3 * far.sum()
    scene.lighting = None                  # the same scene without lighting is lighter far away
    bare = pixel(scene, draw(scene), (20, 1))
    assert bare.sum() > 2.5 * far.sum()


def test_party_view_hides_what_the_party_cannot_perceive_and_blacks_out_the_unseen():
    scene = corridor_scene("party")
    draw(scene)
    assert not scene.lighting.shows("gob") and scene.lighting.shows("bruna")
    surf = draw(scene)
    assert pixel(scene, surf, (25, 2)).sum() == 0          # never seen: black
    mon = corridor_scene("monsters")
    draw(mon)
    assert mon.lighting.shows("bruna") and mon.lighting.shows("gob")   # the goblin sees the lit fighter


def test_explored_but_unseen_squares_are_dimmed():
    scene = corridor_scene("party")
    draw(scene)
    # bruna walks east: the squares she lit before stay explored, dimmed
    cv = scene.model.creatures["bruna"]
    cv.squares, cv.pos = [(20, 2)], (20, 2)
    surf = draw(scene)
    old = pixel(scene, surf, (1, 1))
    unseen = pixel(scene, surf, (31, 2))
    assert scene.lighting.explored["party"][1, 1] and not scene.lighting.sight.seen_by("party")[1, 1]
    assert old.sum() > 0 and (old <= EXPLORED_RGB + 1).all()
    assert unseen.sum() == 0 or scene.lighting.sight.seen_by("party")[2, 31]


def test_darkvision_squares_are_grey():
    scene = corridor_scene("party", dwarf=True)
    surf = draw(scene)
    assert scene.lighting.grey is not None and scene.lighting.grey[2, 14]   # dark, within tordek's 60 ft
    r, g, b = pixel(scene, surf, (14, 2))
    assert abs(r - g) <= 3 and abs(g - b) <= 3 and r > 0


def test_view_cycles_everything_party_monsters():
    scene = corridor_scene("all")
    seen = [scene.lighting.cycle_view() for _ in range(3)]
    assert seen == ["party", "monsters", "all"] and VIEWS == ("all", "party", "monsters")
    with pytest.raises(ValueError, match="view must be one of all, party, monsters"):
        Lighting(scene.grid, view="kobolds")


def test_replay_follows_the_acting_side():
    scene = corridor_scene("all")
    scene.lighting.follow_actor = True
    scene.model.current = "gob"
    assert scene.lighting.shown_view(scene.model) == "monsters"
    scene.model.current = "bruna"
    assert scene.lighting.shown_view(scene.model) == "party"


def test_any_team_but_the_party_is_seen_in_the_monsters_view():
    headless()
    s = spec(ROWS, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [2, 2]},
                    {"id": "kob", "template": "kobold", "team": "kobolds", "at": [6, 2]}])
    scene, _ = scene_for(s, size=(900, 300), mode="watch")
    scene.lighting = Lighting(s.grid, view="monsters")
    surf = draw(scene)
    assert scene.lighting.shows("kob") and scene.lighting.shows("bruna")   # darkvision 60 ft
    assert pixel(scene, surf, (6, 2)).sum() > 0
    scene.lighting.follow_actor = True
    scene.model.current = "kob"
    assert scene.lighting.shown_view(scene.model) == "monsters"


def test_a_swarm_the_shown_side_does_not_perceive_draws_no_particles():
    headless()
    rows = ["#" * 34] + ["#" + "." * 32 + "#"] * 3 + ["#" * 34]
    s = spec(rows, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [2, 2], "lit": True},
                    {"id": "rats", "template": "rat-swarm", "team": "monsters", "at": [28, 2]}])
    scene, _ = scene_for(s, size=(900, 300), mode="watch")
    scene.lighting = Lighting(s.grid, view="party", carried={"bruna": "torch"})
    draw(scene)
    assert not scene.lighting.shows("rats") and "rats" in scene.particles.clouds
    assert scene.particles.render_lists(1.0, scene.lighting.hidden) == []
    assert [cl.id for cl, *_ in scene.particles.render_lists(1.0)] == ["rats"]
    surf = draw(scene)
    assert pixel(scene, surf, (28, 2)).sum() == 0               # nothing of the swarm in the dark
    scene.lighting.cycle_view()                                 # the monsters' view: the rats are theirs
    draw(scene)
    assert scene.lighting.shows("rats") and len(scene.particles.render_lists(1.0, scene.lighting.hidden)) == 1
