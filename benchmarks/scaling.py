"""Issue 27 items 2 and 3: what a creature turn costs as the map and the fight grow.

    python -m benchmarks scaling                     # the table: 2/8/32/64 creatures x 64/256/1024 maps
    python -m benchmarks.scaling --creatures 8 --maps 64 1024 --fights 2

Each cell plays ``--fights`` seeded fights on a generated cave of that side
(:func:`sim.maps.generate.generate_cave`, seed 1) and reports the CPU time of the process
(time.process_time: the shared machine's other jobs do not count) per creature turn (per
``TurnStart`` event), capped at ``--rounds`` rounds a fight. The fights: half the creatures the
reference fight's party (fighter, cleric, rogue, wizard, in turn), half its monsters (bugbear,
hobgoblin, orc, goblin, in turn), the party on the open squares nearest the cave's entrance (in
breadth-first order of the walkable squares), the monsters on the first open squares at least
12 squares' walk further on. The same fight on a bigger cave is not the same fight (the caves
differ), so the figures compare orders of magnitude: item 2 asks the 1024 map's figure to be at
most 1.5x the 64 map's (8 creatures); item 3 a round to grow at most as N^1.2 from 8 to 64
creatures (the exponent printed is log(round cost ratio) / log(8)).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import deque

PARTY = ("human-fighter-5", "human-cleric-5", "halfling-rogue-5", "elf-wizard-5")
MONSTERS = ("bugbear", "hobgoblin", "orc", "goblin")
GAP = 12   # squares' walk between the two sides


def _open_order(grid, start) -> list[tuple[int, int]]:
    """The walkable squares (Medium) of the entrance's area in breadth-first order from ``start``,
    each with its depth."""
    from sim.rules.bodies import body_for
    from sim.terrain.movement import Mover, move_field

    field = move_field(grid, Mover(body_for("medium")))
    walk = field.mode == 1
    rows, cols = walk.shape
    seen = {tuple(start): 0}
    order = [(tuple(start), 0)]
    todo = deque([tuple(start)])
    while todo:
        x, y = todo.popleft()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (x + dx, y + dy)
            if 0 <= q[0] < cols and 0 <= q[1] < rows and q not in seen and walk[q[1], q[0]]:
                seen[q] = seen[(x, y)] + 1
                order.append((q, seen[q]))
                todo.append(q)
    return order


def encounter(side: int, creatures: int):
    """The scaling fight: ``creatures`` combatants on a generated ``side`` x ``side`` cave."""
    from sim.maps.generate import generate_cave
    from sim.scenario.specs import CombatantSpec, EncounterSpec

    grid = generate_cave(1, side, side)
    order = _open_order(grid, grid.points["entrance"])
    half = creatures // 2
    party = [q for q, _ in order[:half]]
    monsters = [q for q, d in order if d >= GAP][:creatures - half]
    if len(monsters) < creatures - half:
        raise ValueError(f"a {side}x{side} cave has no room for {creatures} creatures")
    combatants = tuple(CombatantSpec(id=f"p{i}", template=PARTY[i % 4], team="party", at=q) for i, q in enumerate(party))
    combatants += tuple(CombatantSpec(id=f"m{i}", template=MONSTERS[i % 4], team="monsters", at=q)
                        for i, q in enumerate(monsters))
    return EncounterSpec(name=f"scaling {creatures} on {side}", path="benchmarks/scaling.py", grid=grid, seed=1,
                         combatants=combatants, settings={})


def cell(side: int, creatures: int, *, fights: int, rounds: int) -> dict:
    """CPU seconds per creature turn and per round of ``fights`` fights (after one warm-up fight)."""
    from sim.engine.events import RoundStart, TurnStart
    from sim.engine.fight import new_encounter

    spec = encounter(side, creatures)
    shared: dict = {}
    new_encounter(spec, seed=0, shared=shared).run(max_rounds=1)   # compiled kernels, movement fields
    cpu, turns, played = 0.0, 0, 0
    for seed in range(1, fights + 1):
        enc = new_encounter(spec, seed=seed, shared=shared)
        t = time.process_time()
        events = enc.run(max_rounds=rounds)
        cpu += time.process_time() - t
        turns += sum(isinstance(e, TurnStart) for e in events)
        played += sum(isinstance(e, RoundStart) for e in events)
    return {"side": side, "creatures": creatures, "cpu": cpu, "turns": turns, "rounds": played,
            "ms_per_turn": 1e3 * cpu / max(1, turns), "ms_per_round": 1e3 * cpu / max(1, played)}


def table(creatures=(2, 8, 32, 64), sides=(64, 256, 1024), *, fights: int = 2, rounds: int = 4) -> list[dict]:
    out = []
    for n in creatures:
        for s in sides:
            out.append(cell(s, n, fights=fights, rounds=rounds))
            r = out[-1]
            print(f"  {n:3d} creatures, {s:4d}x{s:<4d}: {r['ms_per_turn']:7.2f} ms a creature turn, "
                  f"{r['ms_per_round']:8.1f} ms a round ({r['turns']} turns, {r['rounds']} rounds)", flush=True)
    return out


def summary(rows: list[dict]) -> str:
    """The table as markdown, and the two figures of issue 27 (items 2 and 3) where the cells exist."""
    sides = sorted({r["side"] for r in rows})
    ns = sorted({r["creatures"] for r in rows})
    at = {(r["creatures"], r["side"]): r for r in rows}
    lines = ["| creatures | " + " | ".join(f"{s} x {s}" for s in sides) + " |",
             "|---|" + "---|" * len(sides)]
    for n in ns:
        lines.append(f"| {n} | " + " | ".join(f"{at[n, s]['ms_per_turn']:.2f} ms" if (n, s) in at else "-"
                                             for s in sides) + " |")
    if (8, 64) in at and (8, 1024) in at:
        lines.append(f"8 creatures, 1024 against 64: {at[8, 1024]['ms_per_turn'] / at[8, 64]['ms_per_turn']:.2f}x "
                     "per creature turn (item 2: at most 1.5x)")
    small = min(sides)
    if (8, small) in at and (64, small) in at:
        ratio = at[64, small]["ms_per_round"] / at[8, small]["ms_per_round"]
        lines.append(f"a round with 64 against 8 creatures on {small} x {small}: {ratio:.2f}x = N^"
                     f"{math.log(ratio) / math.log(8):.2f} (item 3: at most N^1.2)")
    return "\n".join(lines)


def bench_scaling(repeat: int) -> dict:
    """``python -m benchmarks scaling``: the whole table (``repeat`` does not apply: each cell
    is a sum over its fights)."""
    rows = table()
    text = summary(rows)
    print(text)
    base = next(r for r in rows if (r["creatures"], r["side"]) == (8, 64))
    return {"name": "scaling: CPU per creature turn, 8 creatures on 64 x 64", "seconds": base["cpu"] / base["turns"],
            "rows": rows, "note": "the table above"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.scaling", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--creatures", type=int, nargs="+", default=[2, 8, 32, 64])
    ap.add_argument("--maps", type=int, nargs="+", default=[64, 256, 1024], help="map sides in squares")
    ap.add_argument("--fights", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=4, help="round cap of each fight")
    args = ap.parse_args(argv)
    if any(n < 2 for n in args.creatures) or any(s < 32 for s in args.maps) or args.fights < 1 or args.rounds < 1:
        print("--creatures at least 2, --maps at least 32, --fights and --rounds at least 1", file=sys.stderr)
        return 2
    print(summary(table(args.creatures, args.maps, fights=args.fights, rounds=args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
