"""The GIF export keeps its size down without losing picture: every stored frame decodes to the
picture drawn (up to the shared palette), the durations add up to the animation's time, and the
things that used to rewrite wide areas every frame hold still in an export (issue 19 item 6):
flames burn steady, the log's lines stay put when the acting card gets shorter, the clocks tick
once a second of animation."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from sim.crawl.run import run_crawl
from sim.scenario.files import load_crawl
from sim.render import export as E

from .helpers import ROOT_MAPS

SHIPPED = ROOT_MAPS / "crawl_warrens.toml"
KW = dict(fps=10.0, scale=0.25, tail=1.0)


@pytest.fixture(scope="module")
def warrens():
    return run_crawl(load_crawl(SHIPPED))   # drawn lit: the party's torch, fog of war


def _make(result):
    def make():
        from sim.render.crawl import crawl_scene

        return crawl_scene(result, size=(1280, 720), speed=1.5)
    return make


def _decoded(data: bytes) -> list[tuple[np.ndarray, int]]:
    """(RGB picture, duration ms) of each stored GIF frame, composited as a viewer shows it."""
    out = []
    with Image.open(io.BytesIO(data)) as im:
        for k in range(im.n_frames):
            im.seek(k)
            out.append((np.array(im.convert("RGB")), im.info["duration"]))
    return out


def test_gif_frames_are_the_drawn_pictures_and_durations_add_up(warrens):
    """Frames 150-200 of the shipped crawl (the fight in the torchlight: tokens, log, caption,
    light moving): each drawn frame, made smaller whole and quantised to the palette, is what the
    GIF written from the changed rectangles alone shows for its time."""
    E.init_headless()
    make = _make(warrens)
    first, n = 150, 50
    pal = E._palette(make, max_frames=first + n, **KW)
    drawn = [img for i, img in E._frames(make, max_frames=first + n, shrink="area", **KW) if i >= first]
    assert len(drawn) == n
    patches = [img for _, img in E._frames(make, max_frames=first + n, shrink="patches", **KW)]
    assert isinstance(patches[0], Image.Image) is False and (patches[0].left, patches[0].top) == (0, 0)
    assert sum(isinstance(p, E.Patch) and p.image.size != drawn[0].size for p in patches) > n // 2   # most are parts
    buf = io.BytesIO()   # the GIF as an export writes it: from the patches, all frames from the first
    count, size = E.write_gif_stream(buf, enumerate(patches), pal, duration_ms=100)
    assert count == first + n
    shown = _decoded(buf.getvalue())
    pictures = []
    for rgb, d in shown:
        pictures += [rgb] * (d // 100)
    pictures = pictures[first:]
    assert size == drawn[0].size
    assert sum(d for _, d in shown) == 100 * (first + n)   # the animation's time, to the hundredth
    assert 1 < len(shown) <= first + n                     # identical neighbours would be merged into one
    for k, img in enumerate(drawn):
        want = np.array(img.quantize(palette=pal, dither=Image.Dither.NONE).convert("RGB"))
        assert np.array_equal(pictures[k], want), f"frame {first + k} differs from the picture drawn"


def test_an_export_holds_flames_log_and_clocks_steady(warrens):
    """The flags the export sets: a torch's light the same at two moments (no flicker), the log
    never higher than before, the crawl clock at whole seconds of animation; the window keeps
    all three moving."""
    E.init_headless()
    scene, _ = _make(warrens)()
    assert not (scene.steady_flames or scene.steady_log or scene.steady_clock)   # the window's defaults
    assert scene.shown_clock(12.7) == 12.7
    seen = {}

    def watch(i, driver):
        seen[i] = (scene_ref[0].shown_clock(scene_ref[0].director.t), scene_ref[0].director.t,
                   getattr(scene_ref[0].hudder, "_log_top", 0))
        return True

    scene_ref = []
    real = _make(warrens)

    def make():
        sc, dr = real()
        scene_ref.append(sc)
        return sc, dr

    for _ in E._frames(make, max_frames=260, wanted=watch, **KW):
        pass
    sc = scene_ref[0]
    assert sc.steady_flames and sc.steady_log and sc.steady_clock
    clocks = [v[0] for v in seen.values()]
    assert all(c == int(c) for c in clocks) and all(v[0] <= v[1] < v[0] + 1 for v in seen.values())
    tops = [v[2] for v in seen.values()]
    assert tops == sorted(tops) and tops[-1] > 0     # the log's top moves down only
    # the scene's torch: the same light picture at two moments a flicker apart
    lit = sc.lighting
    assert lit is not None and lit.flames, "the shipped crawl's party carries a torch"
    import pygame

    a, b = pygame.Surface(sc.size), pygame.Surface(sc.size)
    a.fill((200, 200, 200))
    b.fill((200, 200, 200))
    lit.draw(a, sc, 10.0)
    lit.draw(b, sc, 10.0 + 1.5 / E.STEPS_PER_SECOND * 10)
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
    sc.steady_flames = False                           # the window's flicker: the two differ
    lit.draw(a, sc, 10.0)
    lit.draw(b, sc, 10.0 + 1.5 / E.STEPS_PER_SECOND * 10)
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")
