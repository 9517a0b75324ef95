"""Small scenes for renderer tests: each test builds its own cave inline."""

from __future__ import annotations

import os

from sim.engine import events as ev
from sim.terrain.grid import CaveGrid
from sim.scenario.specs import SETTINGS_DEFAULTS, CombatantSpec, EncounterSpec

LEGEND = {"#": (0, 0), ".": (30, 12), "f": (2, 12), "k": (0.3, 0.5), "c": (5, 2.5), "g": (30, 4), "~": (15, 12, True)}


def grid(rows: list[str], legend: dict | None = None, name: str = "test cave") -> CaveGrid:
    lg = {**LEGEND, **(legend or {})}
    w = [[lg[ch][0] for ch in row] for row in rows]
    h = [[lg[ch][1] for ch in row] for row in rows]
    d = [[len(lg[ch]) > 2 and lg[ch][2] for ch in row] for row in rows]
    return CaveGrid.from_arrays(w, h, difficult=d, name=name)


def spec(rows: list[str], combatants: list[dict], *, legend=None, seed: int = 1, name="test") -> EncounterSpec:
    cs = [CombatantSpec(id=c.get("id", f"c{i}"), template=c["template"], team=c.get("team", ""), at=tuple(c["at"]),
                        explicit_id="id" in c, name=c.get("name"), items=tuple(c.get("items", {}).items()),
                        lit=c.get("lit", False))
          for i, c in enumerate(combatants)]
    return EncounterSpec(name=name, path="test.toml", grid=grid(rows, legend), seed=seed, combatants=tuple(cs),
                         settings={**SETTINGS_DEFAULTS, "vision": False})  # full view (RULES §9 off)


def start_events(s: EncounterSpec) -> list[ev.Event]:
    from sim.engine.encounter import Encounter

    return Encounter(s).start()


def scene_for(s: EncounterSpec, *, size=(800, 480), hud=False, events=None, mode="replay"):
    """A scene over the encounter's opening events (encounter start, initiative, round 1),
    applied at once; no title card. Returns (scene, timeline)."""
    from sim.render.session import scene_from_events

    events = events if events is not None else start_events(s)
    scene, tl = scene_from_events(events, s.grid, title="t", size=size, hud=hud, legend=False, mode=mode,
                                  autoplay=False)
    scene.lighting = None   # these scenes are drawn in full light; tests/render/test_lighting.py draws the dark
    scene.jump(list(scene.director.queue))
    scene.director.queue.clear()
    scene.director.anims.clear()
    tl.fed = len(events)
    scene.update(1 / 60)
    return scene, tl


def settle(scene, seconds: float = 3.0) -> None:
    for _ in range(int(seconds * 60)):
        scene.update(1 / 60)


def surface(scene):
    import pygame

    s = pygame.Surface(scene.size)
    scene.draw(s, 1.0)
    return s


def headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    pygame.font.init()


from pathlib import Path  # noqa: E402

ROOT_MAPS = Path(__file__).resolve().parents[2] / "maps"
