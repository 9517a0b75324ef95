"""Make the README's screenshots (docs/*.png) from the shipped encounters: python docs/make_screenshots.py

Each is a frame of the same off-screen rendering as ``cavesim render`` (same seed, same frame),
scaled to 960x540 and stored with a 256-colour palette to keep the repository small.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

STEP = 1 / 60


def frame(encounter: str, seconds: float, *, speed: float = 1.6, overlays: dict | None = None,
          select: str | None = None, camera: tuple | None = None, view: str = "all", lit: bool = True):
    import pygame
    from PIL import Image

    from sim.scenario.files import load_encounter
    from sim.render.session import watch_scene

    pygame.font.init()
    spec = load_encounter(ROOT / "maps" / encounter)
    scene, timeline = watch_scene(spec, speed=speed, view=view)
    if not lit:
        scene.lighting = None  # the overlays in full light
    scene.camera_glide = 0.0
    scene.crisp_map = True
    for _ in range(int(round(seconds / STEP))):
        timeline.pump()
        scene.update(STEP)
    if overlays:
        scene.overlays.update(overlays)
        scene.selected = select
    if camera:  # a close-up: centre (squares) and pixels per square
        scene.auto_camera = False
        scene.camera.cx, scene.camera.cy, scene.camera.ts = camera
    surf = pygame.Surface(scene.size)
    scene.draw(surf, 1.0)
    img = Image.frombytes("RGB", scene.size, pygame.image.tobytes(surf, "RGB"))
    return img.resize((960, 540), Image.LANCZOS)


def crawl_frame(crawl: str, seconds: float, *, speed: float = 1.5):
    """A frame of the crawl animation (``cavesim crawl FILE --out x.png --at SECONDS``), lit as the
    party sees it."""
    import pygame
    from PIL import Image

    from sim.crawl.run import run_crawl
    from sim.scenario.files import load_crawl
    from sim.render.crawl import crawl_scene

    pygame.font.init()
    scene, player = crawl_scene(run_crawl(load_crawl(ROOT / "maps" / crawl)), speed=speed)
    scene.camera_glide = 0.0
    scene.crisp_map = True
    for _ in range(int(round(seconds / STEP))):
        player.pump()
        scene.update(STEP)
    surf = pygame.Surface(scene.size)
    scene.draw(surf, 1.0)
    img = Image.frombytes("RGB", scene.size, pygame.image.tobytes(surf, "RGB"))
    return img.resize((960, 540), Image.LANCZOS)


def save(img, name: str) -> Path:
    from sim.base.fileio import atomic_path
    from sim.render.export import quantize

    out = ROOT / "docs" / name
    with atomic_path(out) as tmp:
        quantize(img).save(tmp, "PNG", optimize=True)
    return out


def main() -> None:
    shots = [
        ("demo.png", frame("demo.toml", 8.3)),
        ("swarm-crack.png", frame("rat_crack.toml", 5.15, speed=1.5, camera=(14.5, 3.5, 72), lit=False)),
        ("overlays.png", frame("demo.toml", 14.0, overlays={"size": 5, "reach": True}, select="tordek", lit=False)),
        ("fog-monsters.png", frame("kobold_warren.toml", 6.0, view="monsters")),
        ("fog-party.png", frame("kobold_warren.toml", 6.0, view="party")),
        ("crawl-lit.png", crawl_frame("crawl_warrens.toml", 62.0)),
    ]
    for name, img in shots:
        print(save(img, name))


if __name__ == "__main__":
    main()
