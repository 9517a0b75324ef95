"""``cavesim light ENCOUNTER_OR_CRAWL [--round N] [--json]``: the light levels and who perceives
whom at the start of a round (RULES §9).

An encounter file is played with its seed up to the start of round ``N`` (default 1: after
initiative, before anyone acts); a crawl file shows the party at its starting point, in file
in marching order (the member who carries its light: :func:`sim.terrain.vision.scene.party_light_bearer`), and the monsters where the file puts them.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from sim.base.errors import DataError, UsageError
from sim.base.fileio import read_toml
from sim.cli._common import add_map_limit, limits_from, plural, print_json, ruled

MAX_ROUND = 1000


def register(sub) -> None:
    p = sub.add_parser("light", help="light levels and who sees whom at the start of a round",
                       description="Light levels (dark, shadowy, bright) of every square and who sees, locates or "
                                   "cannot perceive whom, at the start of a round of an encounter (played with its "
                                   "seed), or at the start of a crawl (RULES §9).")
    p.add_argument("file", metavar="ENCOUNTER_OR_CRAWL", help="an encounter file or a crawl file (TOML)")
    p.add_argument("--round", type=int, default=None, metavar="N",
                   help="the round whose start to show (encounters only; default 1)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_map_limit(p)
    p.set_defaults(handler=run)


@dataclass(slots=True)
class _Seen:
    """What the scene needs of a creature (the engine's creatures carry more)."""

    id: str
    name: str
    team: str
    squares: list
    k: int
    block: object
    pos: tuple
    light: str | None = None
    torch_lit: bool = False
    trail: list = field(default_factory=list)
    alive: bool = True


def _from_creature(c, light: str | None) -> _Seen:
    return _Seen(id=c.id, name=c.name, team=c.team, squares=list(c.squares), k=c.k, block=c.block, pos=c.pos,
                 light=getattr(c, "light", None) or light, torch_lit=c.torch_lit, trail=list(c.trail),
                 alive=c.alive)


def _kind(path: Path) -> str:
    data, _ = read_toml(path)
    if isinstance(data.get("crawl"), dict):
        return "crawl"
    if isinstance(data.get("encounter"), dict):
        return "encounter"
    raise DataError(f"{path}: neither an encounter ([encounter] and [[combatant]] tables) nor a crawl ([crawl] "
                    "table); cavesim light needs one of them")


def encounter_scene(path: Path, rnd: int, limits):
    from sim.engine.fight import new_encounter
    from sim.scenario.files import load_encounter

    spec = load_encounter(path, limits=limits)
    lights = {c.id: c.light for c in spec.combatants}
    enc = new_encounter(spec)
    enc.start()
    while not enc.finished and enc.round < rnd:
        enc.begin_turn()
        if enc.finished or enc.round >= rnd:
            break
        if enc.turn is not None and not enc.turn.ended:
            enc.ai_turn()
        enc.end_turn()
    if enc.round < rnd:
        raise UsageError(f"--round {rnd}: the fight of {path} ends in round {enc.round}; give --round 1 to {enc.round}")
    return spec.grid, spec.name, [_from_creature(c, lights.get(c.id)) for c in enc.creatures.values()]


def crawl_scene(path: Path, limits):
    from sim.engine.setup import build_creature
    from sim.scenario.files import load_crawl
    from sim.terrain.vision.scene import party_light_bearer

    spec = load_crawl(path, limits=limits)
    grid = spec.grid
    party = [build_creature(m, spec.path) for m in spec.party]
    monsters = [build_creature(m, spec.path) for m in spec.monsters]
    bearer = party_light_bearer(party)
    order = party  # the marching order of the file
    taken = set()
    for m in monsters:
        k = m.k
        taken |= {(m.pos[0] + a, m.pos[1] + b) for a in range(k) for b in range(k)}
    spots = _nearest_floor(grid, spec.start, len(order), taken)
    out = []
    for c, at in zip(order, spots):
        light = bearer[1] if bearer and c is bearer[0] else None
        s = _from_creature(c, light)
        s.squares, s.pos = [at], at
        out.append(s)
    out += [_from_creature(m, None) for m in monsters]
    return grid, spec.name, out


def _nearest_floor(grid, start, n: int, taken: set) -> list:
    """``n`` floor squares nearest ``start`` (5-10-5 steps over the floor), start first."""
    from collections import deque

    seen = {tuple(start)}
    q = deque([tuple(start)])
    out = []
    while q and len(out) < n:
        x, y = q.popleft()
        if (x, y) not in taken:
            out.append((x, y))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            p = (x + dx, y + dy)
            if p not in seen and grid.in_bounds(p) and not grid.rock[p[1], p[0]]:
                seen.add(p)
                q.append(p)
    if len(out) < n:
        raise DataError(f"the start {tuple(start)} has room for {len(out)} of the party's {plural(n, 'member')}")
    return out


def run(args: argparse.Namespace) -> int:
    from sim.terrain.vision.scene import look, scene_lights

    path = Path(args.file)
    if args.round is not None and not (1 <= args.round <= MAX_ROUND):
        raise UsageError(f"--round must be a round number from 1 to {MAX_ROUND}, got {args.round}")
    kind = _kind(path)
    if kind == "crawl":
        if args.round is not None:
            raise UsageError(f"--round is for encounter files; {path} is a crawl (its scene is the start of the crawl)")
        grid, name, creatures = crawl_scene(path, limits_from(args))
        when = "at the start of the crawl"
    else:
        rnd = args.round or 1
        grid, name, creatures = encounter_scene(path, rnd, limits_from(args))
        when = f"at the start of round {rnd}"
    alive = [c for c in creatures if c.alive]
    lg, s = look(grid, alive)
    if args.json:
        print_json({
            "cols": grid.cols, "rows": grid.rows,
            "levels": lg.names(),
            "sees": s.to_json(),
            "blinded": [c.id for c, b in zip(alive, s.blinded) if b],
            "lights": [{"name": li.name, "at": list(li.at), "bright_ft": li.bright_ft, "shadowy_ft": li.shadowy_ft}
                       for li in scene_lights(grid, alive)],
            "round": None if kind == "crawl" else rnd,
        })
        return 0
    _print_text(grid, name, when, alive, lg, s)
    return 0


def _marks() -> str:
    return "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRTUVWXYZ"  # never B or S


def _print_text(grid, name, when, alive, lg, s) -> None:
    from sim.terrain.vision import LEVEL_NAMES, LOCATES, SEES, level_letters
    from sim.terrain.vision.scene import carried_light

    lines = [list(row) for row in level_letters(lg.normal, grid.rock)]
    marks = _marks()
    key = {}
    for i, c in enumerate(alive):
        m = marks[i % len(marks)]
        key[c.id] = m
        for x, y in c.squares:
            lines[y][x] = m
    print(f"{name}: light {when} ({grid.cols}x{grid.rows} squares, as human eyes see it)")
    print("  B bright   S shadowy   . dark   # rock   1-9, a-z: creatures (below)   X,Y: column, row")
    print()
    for line in ruled(["".join(row) for row in lines]):
        print(line)
    print()
    counts = {n: int(((lg.normal == i) & ~grid.rock).sum()) for i, n in enumerate(LEVEL_NAMES)}
    print("  floor squares: " + ", ".join(f"{counts[n]} {n}" for n in reversed(LEVEL_NAMES)))
    print()
    for i, c in enumerate(alive):
        sq = c.squares[0]
        own = LEVEL_NAMES[int(lg.for_viewer(bool(c.block.senses.low_light))[sq[1], sq[0]])]
        light = carried_light(c)
        bits = [f"{c.team}", "stands in the dark" if own == "dark" else f"stands in {own} light"] + ([f"carries a lit {light}"] if light else [])
        if s.blinded[i]:
            bits.append("effectively blinded (its square is dark to it)")
        print(f"  {key[c.id]} {c.id} ({'; '.join(bits)})")
        seen = [f"{alive[j].id}" + (f" ({int(s.miss[i, j])}% miss chance)" if s.miss[i, j] else "")
                for j in range(len(alive)) if j != i and s.level[i, j] == SEES]
        located = [alive[j].id for j in range(len(alive)) if j != i and s.level[i, j] == LOCATES]
        print(f"      sees: {', '.join(seen) or '-'}")
        if located:
            print(f"      locates (unseen, 50% miss chance): {', '.join(located)}")
