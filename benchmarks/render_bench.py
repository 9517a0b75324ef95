"""Renderer frame time (issue 6): median time of one frame at 1280x720 with 50 creatures and 10
swarms of at least 200 particles each, every overlay on (categories for a size, reach and
travel-time contours of a creature), on the dummy video driver. Target: at most 4 ms.

A frame is what the window does 60 times a second: one fixed step (director, particles, hp bars)
and one draw of the whole screen (map, overlays, tokens, particles, effects, HUD) plus the flip.
Events keep arriving during the run (swarms reshaping and moving, creatures stepping and trading
blows), so animations, floating numbers and the log are all live.

    python -m benchmarks render           # or: python benchmarks/render_bench.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

WIDTH, HEIGHT = 1280, 720
CREATURES, SWARMS = 50, 10


def crowd_spec(*, seed: int = 3, cols: int = 64, rows: int = 40, creatures: int = CREATURES, swarms: int = SWARMS):
    """An encounter on a generated cave with ``creatures`` creatures (Small, Medium, Large) and
    ``swarms`` swarms, placed where they fit and apart."""
    from sim.engine.creature import Creature
    from sim.engine.setup import mover_for
    from sim.maps.generate import generate_cave
    from sim.scenario.specs import CombatantSpec, EncounterSpec
    from sim.terrain.movement import move_field
    from sim.terrain.movement.field import BLOCKED
    from sim.rules.statblocks import load_template

    grid = generate_cave(seed, cols, rows)
    rng = np.random.default_rng(seed)
    kinds = [("human-fighter-3", "party"), ("elf-wizard-3", "party"), ("halfling-rogue-3", "party"),
             ("goblin", "monsters"), ("kobold", "monsters"), ("ogre", "monsters"), ("troglodyte", "monsters")]
    swarm_kinds = ["rat-swarm", "bat-swarm", "hellwasp-swarm", "spider-swarm", "locust-swarm"]
    taken: set[tuple[int, int]] = set()
    specs = []
    fields = {}

    class _C:  # the little a Mover needs
        flies = Creature.flies
        speed_ft_value = Creature.speed_ft_value

        def __init__(self, block):
            self.block = block
            self.is_swarm = block.is_swarm

    def field_for(template):
        if template not in fields:
            fields[template] = move_field(grid, mover_for(_C(load_template(template))))
        return fields[template]

    ys, xs = np.nonzero(~grid.rock)
    order = rng.permutation(len(xs))
    want = [kinds[i % len(kinds)] for i in range(creatures)] + [(swarm_kinds[i % len(swarm_kinds)], "monsters")
                                                                for i in range(swarms)]
    i = 0
    for template, team in want:
        f = field_for(template)
        k = 2 if template == "ogre" else 1
        while i < len(order):
            x, y = int(xs[order[i]]), int(ys[order[i]])
            i += 1
            sq = {(x + a, y + b) for a in range(k) for b in range(k)}
            ring = {(x + a, y + b) for a in range(-1, k + 1) for b in range(-1, k + 1)}
            if f.mode[y, x] != BLOCKED and not (ring & taken) and not f.squeezed[y, x]:
                taken |= sq
                specs.append(CombatantSpec(id=f"c{len(specs)}", template=template, team=team, at=(x, y)))
                break
    return EncounterSpec(name="Crowd benchmark", path=".", grid=grid, seed=seed, combatants=tuple(specs), settings={})


def _traffic(enc, model, rng, frame: int) -> list:
    """Events to keep the screen busy: every few frames a swarm flows a square, a creature steps,
    or one attacks another (with its damage)."""
    from sim.engine import events as ev

    out = []
    ids = list(model.creatures)
    rows, cols = enc.grid.shape
    if frame % 6 == 0:
        swarms = [c for c in model.creatures.values() if c.swarm and c.alive]
        if swarms:
            s = swarms[(frame // 6) % len(swarms)]
            x, y = s.squares[0]
            dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(0, 4))]
            new = [(a + dx, b + dy) for a, b in s.squares]
            if all(0 <= a < cols and 0 <= b < rows and not enc.grid.rock[b, a] for a, b in new):
                out.append(ev.SwarmShape(round=1, actor=s.id, squares=tuple(new)))
    if frame % 10 == 0:
        c = model.creatures[ids[int(rng.integers(0, len(ids)))]]
        if not c.swarm and c.k == 1:
            x, y = c.squares[0]
            dx, dy = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(0, 4))]
            to = (x + dx, y + dy)
            if 0 <= to[0] < cols and 0 <= to[1] < rows and not enc.grid.rock[to[1], to[0]] and not model.at(to):
                out.append(ev.Moved(round=1, actor=c.id, path=({"at": list(to), "category": "CLEAR", "kind": "walk",
                                                                 "feet": 5},), squares=(to,), prone=False, action="move"))
    if frame % 15 == 0:
        a, b = rng.choice(len(ids), 2, replace=False)
        att, tgt = model.creatures[ids[a]], model.creatures[ids[b]]
        hit = bool(rng.integers(0, 2))
        out.append(ev.Attack(round=1, actor=att.id, target=tgt.id, weapon="longsword", roll=12, modifiers={"base_attack": 3},
                             total=15, ac=14, ac_modifiers={"base": 10}, hit=hit, critical=False))
        if hit and tgt.hp > 2:
            out.append(ev.Damage(round=1, target=tgt.id, amount=1, parts={"slashing": 1}, source=att.id, cause="weapon",
                                 hp_before=tgt.hp, hp_after=tgt.hp - 1))
    return out


def measure(frames: int = 600, warmup: int = 60) -> dict:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from sim.render.session import play_scene
    from sim.render.particles import ParticleSystem

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((WIDTH, HEIGHT))
    spec = crowd_spec()
    scene, ctl = play_scene(spec, size=(WIDTH, HEIGHT), control=set())
    scene.mode = "watch"
    scene.auto_camera = False
    enc = ctl.enc
    rng = np.random.default_rng(1)
    step = 1.0 / 60.0
    # settle the opening (title card) at once, then turn every overlay on
    scene.director.skip_queue()
    scene.update(step)
    first_swarm = next(c for c in scene.model.creatures.values() if c.swarm)
    target = next(c for c in scene.model.creatures.values() if not c.swarm and c.k == 1)
    scene.selected = target.id
    scene.overlays.update(size=4, reach=True, contours=True)
    particles = sum(cl.count for cl in scene.particles.clouds.values())
    min_cloud = min(cl.count for cl in scene.particles.clouds.values())
    times = []
    for frame in range(warmup + frames):
        t0 = time.perf_counter()
        scene.feed(_traffic(enc, scene.model, rng, frame))
        scene.update(step)
        scene.draw(screen, 1.0)
        pygame.display.flip()
        if frame >= warmup:
            times.append(time.perf_counter() - t0)
    assert isinstance(scene.particles, ParticleSystem) and first_swarm.id in scene.particles.clouds
    creatures = sum(1 for c in scene.model.creatures.values() if not c.swarm)
    swarms = sum(1 for c in scene.model.creatures.values() if c.swarm)
    med = statistics.median(times)
    return {"name": f"render frame {WIDTH}x{HEIGHT}, {creatures} creatures, {swarms} swarms ({particles} particles), "
                    "overlays on", "seconds": med, "milliseconds": med * 1e3, "target_ms": "<= 4",
            "p90_ms": float(np.percentile(times, 90)) * 1e3, "frames": frames, "creatures": creatures, "swarms": swarms,
            "particles": particles, "smallest_swarm_particles": min_cloud}


def bench_render(repeat: int) -> dict:
    """For benchmarks/run.py: ``repeat`` scales the number of frames measured."""
    return measure(frames=max(300, 40 * repeat))


if __name__ == "__main__":
    r = measure()
    print(f"{r['name']}: median {r['milliseconds']:.2f} ms per frame (p90 {r['p90_ms']:.2f} ms), target {r['target_ms']} ms")
    sys.exit(0)
