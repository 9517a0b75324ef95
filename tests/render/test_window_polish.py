"""issue 19 item 7: window polish. Token labels never cover each other (greedy placement round
each token), the legend sits in the side panel off the map, the closing card leaves every token
visible, and exports cut the cards' fades (each fade step would rewrite the whole GIF frame)."""

from __future__ import annotations

import pygame
import pytest

from sim.engine import events as ev
from sim.render.placement import inside, label_candidates, overlaps, place

from .helpers import scene_for, spec, surface

OPEN = ["#" * 20] + ["#" + "." * 18 + "#" for _ in range(10)] + ["#" * 20]


def dense_spec():
    """Twenty goblins and fighters shoulder to shoulder: every label wants the same place."""
    cs = []
    for i in range(20):
        x, y = 4 + i % 5, 3 + i // 5
        cs.append({"id": f"{'goblin' if i % 2 else 'fighter'}-with-a-long-name-{i}",
                   "template": "goblin" if i % 2 else "human-fighter-3", "team": "monsters" if i % 2 else "party",
                   "at": (x, y)})
    return spec(OPEN, cs)


@pytest.mark.parametrize("hud", [False, True])
def test_labels_of_a_dense_scene_do_not_overlap(hud):
    scene, _ = scene_for(dense_spec(), size=(900, 560), hud=hud)
    scene.selected = scene.model.order[3]   # a selected creature is placed first, and still covers no other
    surface(scene)
    labels = [tuple(r) for r in scene.tokens.labels]
    assert len(labels) >= 6, "most labels still find a place"
    for i, a in enumerate(labels):
        assert inside(a, tuple(scene.r_view))
        for b in labels[i + 1:]:
            assert not overlaps(a, b), (a, b)


def test_placement_takes_the_first_free_candidate_and_refuses_a_full_area():
    c = label_candidates(100, 100, 10, 40, 12)
    assert c[0] == (80, 111, 40, 12)                         # below the token
    assert place(c, taken=[c[0]]) == c[1]                    # then above its hp bar
    assert place(c, taken=[], obstacles=[c[0]]) == c[1]      # obstacles avoided when possible...
    assert place(c[:1], taken=[], obstacles=[c[0]]) == c[0]  # ...but a label may cover a token's edge
    assert place(c, taken=[(0, 0, 400, 400)]) is None        # no free place: left out


def _map_squares_rect(scene):
    """The screen rectangle of the map's squares as drawn (clipped to the map view)."""
    cam = scene.camera
    ox, oy = cam.origin()
    ts = cam.ts
    return pygame.Rect(int(ox), int(oy), scene.grid.cols * ts, scene.grid.rows * ts).clip(scene.r_view)


def test_the_legend_sits_in_the_side_panel_off_the_map():
    scene, _ = scene_for(dense_spec(), size=(1280, 720), hud=True)
    scene.show_legend = True
    scene.overlays["size"] = 2          # the biggest legend: the categories for a size as well
    surface(scene)
    surface(scene)
    r = scene.hudder.legend_rect
    assert r is not None and scene.hudder.legend_in_panel
    assert scene.r_panel.contains(r)
    assert not r.colliderect(_map_squares_rect(scene))
    assert not r.colliderect(scene.r_view)


def test_without_a_panel_the_legend_stays_on_the_map_corner():
    scene, _ = scene_for(dense_spec(), size=(900, 560), hud=False)
    scene.show_legend = True
    surface(scene)
    r = scene.hudder.legend_rect
    assert r is not None and scene.r_view.contains(r)


def _end(scene, winner="party"):
    scene.feed([ev.EncounterEnd(round=3, winner=winner, reason="victory", survivors=())])
    for _ in range(120):
        scene.update(1 / 60)


@pytest.mark.parametrize("where", ["middle", "top", "everywhere"])
def test_the_end_card_leaves_every_token_visible(where):
    rows = {"middle": [(8, 5), (9, 5), (10, 6)], "top": [(3, 1), (9, 1), (15, 1), (9, 5)],
            "everywhere": [(x, y) for y in (1, 5, 9) for x in (2, 6, 9, 12, 16)]}[where]
    cs = [{"id": f"c{i}", "template": "goblin" if i % 2 else "human-fighter-3",
           "team": "monsters" if i % 2 else "party", "at": at} for i, at in enumerate(rows)]
    scene, _ = scene_for(spec(OPEN, cs), size=(1280, 720), hud=True)
    scene.camera_glide = 0.0
    _end(scene)
    surface(scene)
    card = scene.hudder.card_rect
    assert card is not None
    tokens = [pygame.Rect(r) for r in scene.tokens.rects]
    assert len(tokens) == len(cs)
    assert all(not card.colliderect(t) for t in tokens), (card, tokens)


def test_exports_cut_the_fades_of_the_cards():
    """In a window the end card fades in; in an export (cut_fades) it is there at once, whole."""
    cs = [{"id": "a", "template": "human-fighter-3", "team": "party", "at": (3, 3)},
          {"id": "b", "template": "goblin", "team": "monsters", "at": (12, 6)}]
    pics = {}
    for cut in (False, True):
        scene, _ = scene_for(spec(OPEN, cs), size=(800, 480), hud=False)
        scene.cut_fades = cut
        scene.feed([ev.EncounterEnd(round=3, winner="party", reason="victory", survivors=())])
        frames = []
        for _ in range(40):
            scene.update(1 / 60)
            frames.append(pygame.image.tobytes(surface(scene), "RGB"))
        pics[cut] = frames
    assert len(set(pics[False][5:30])) > 5        # fading (and sliding) in
    assert len(set(pics[True][5:30])) == 1        # cut: the same picture from the start
