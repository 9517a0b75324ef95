"""Light and fog of war (issue 16): the core and the renderer.

* ``vision``: the light grid plus sight for 40 creatures (10 of them carrying torches, every
  third with low-light vision, half with darkvision) on a generated 200 x 200 cave. Target: at
  most 2 ms. Reference, in the same run: tcod's symmetric shadowcasting field of view
  (``tcod.map.compute_fov``, FOV_SYMMETRIC_SHADOWCAST, C) from the 10 torches, radius-limited,
  and from the 40 creatures over the whole map: the field-of-view work alone, with none of the
  levels or senses.
* ``lighting``: the renderer's lighting and fog (the party's view: light, fog, explored squares,
  darkvision grey, torch flicker) per frame at 1280 x 720 with 8 torches, on the busy scene of
  the frame benchmark (50 creatures, 10 swarms, events arriving). Target: at most 1.5 ms, and the
  whole frame with it at most 4 ms. Reference: the frame's first step, the blit of the painted
  map to the screen.

    python -m benchmarks vision lighting
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np


def vision_setup(n: int = 200, creatures: int = 40, torches: int = 10, seed: int = 1):
    from sim.maps.generate import generate_cave
    from sim.terrain.vision import Light, Viewer

    grid = generate_cave(seed, n, n)
    ys, xs = np.nonzero(~grid.rock)
    rng = np.random.default_rng(0)
    pick = rng.choice(len(xs), creatures, replace=False)
    viewers = [Viewer(f"c{i}", "party" if i % 2 else "monsters", ((int(xs[p]), int(ys[p])),),
                      darkvision_ft=60 if i % 2 == 0 else 0, low_light=i % 3 == 0) for i, p in enumerate(pick)]
    lights = [Light(at=v.squares[0], bright_ft=20, shadowy_ft=40) for v in viewers[1::creatures // torches]][:torches]
    return grid, lights, viewers


def bench_vision(repeat: int) -> dict:
    import tcod

    from benchmarks.run import _median_times
    from sim.terrain.vision import vision

    grid, lights, viewers = vision_setup()
    transparent = ~np.asarray(grid.rock)

    def ours():
        return vision(grid.rock, lights, viewers)

    def ref():
        for li in lights:
            x, y = li.at
            tcod.map.compute_fov(transparent, (y, x), radius=2 * int(li.shadowy_ft // 5) + 1, light_walls=True,
                                 algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
        for v in viewers:
            x, y = v.squares[0]
            tcod.map.compute_fov(transparent, (y, x), radius=0, light_walls=True,
                                 algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST)

    t_ours, t_ref = _median_times([ours, ref], max(repeat, 15) * 4)
    return {"name": f"light grid + sight, {len(viewers)} creatures, {len(lights)} torches, 200x200 cave",
            "seconds": t_ours, "milliseconds": t_ours * 1e3, "target_ms": "<= 2",
            "reference": "tcod symmetric-shadowcast FOV from the same lights and creatures", "reference_seconds": t_ref,
            "ratio": t_ours / t_ref, "target": "(a reference, no target)"}


def measure_lighting(frames: int = 400, warmup: int = 60, torches: int = 8) -> dict:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from benchmarks.render_bench import HEIGHT, WIDTH, _traffic, crowd_spec
    from sim.render.lighting import Lighting
    from sim.render.session import play_scene

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    spec = crowd_spec()
    scene, ctl = play_scene(spec, size=(WIDTH, HEIGHT), control=set())
    scene.mode = "watch"
    scene.auto_camera = False
    bearers = [c.id for c in spec.combatants if c.template in ("human-fighter-3", "halfling-rogue-3", "goblin")][:torches]
    scene.lighting = Lighting(spec.grid, view="party", carried={cid: "torch" for cid in bearers})
    enc = ctl.enc
    rng = np.random.default_rng(1)
    step = 1.0 / 60.0
    scene.director.skip_queue()
    scene.update(step)
    light_times, frame_times, ref_times = [], [], []
    lighting = scene.lighting
    inner_u, inner_d = lighting.underlay, lighting.draw
    spent = [0.0]

    def timed_underlay(surf, sc):
        t = time.perf_counter()
        inner_u(surf, sc)
        spent[0] += time.perf_counter() - t

    def timed_draw(surf, sc, tt):
        t = time.perf_counter()
        inner_d(surf, sc, tt)
        spent[0] += time.perf_counter() - t

    lighting.underlay, lighting.draw = timed_underlay, timed_draw
    for frame in range(warmup + frames):
        spent[0] = 0.0
        t0 = time.perf_counter()
        scene.feed(_traffic(enc, scene.model, rng, frame))
        scene.update(step)
        scene.draw(screen, 1.0)
        pygame.display.flip()
        t1 = time.perf_counter()
        comp = scene.composite()
        t2 = time.perf_counter()
        screen.blit(comp, scene.camera.origin())
        t3 = time.perf_counter()
        if frame >= warmup:
            frame_times.append(t1 - t0)
            light_times.append(spent[0])
            ref_times.append(t3 - t2)
        del t2
    lights = len(bearers)
    med = statistics.median(light_times)
    ref = statistics.median(ref_times)
    return {"name": f"lighting + fog per frame {WIDTH}x{HEIGHT}, {lights} torches, party view", "seconds": med,
            "milliseconds": med * 1e3, "target_ms": "<= 1.5", "frame_ms": statistics.median(frame_times) * 1e3,
            "frame_target_ms": "<= 4", "reference": "blit of the painted map", "reference_seconds": ref,
            "ratio": med / ref, "target": "(a reference, no target)",
            "note": f"whole frame with it {statistics.median(frame_times) * 1e3:.2f} ms (target <= 4)"}


def bench_lighting(repeat: int) -> dict:
    return measure_lighting(frames=max(300, 30 * repeat))


if __name__ == "__main__":
    for r in (bench_vision(15), bench_lighting(10)):
        print(f"{r['name']}: {r['milliseconds']:.3f} ms; {r.get('note', '')}")
