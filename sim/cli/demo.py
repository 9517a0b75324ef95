"""``cavesim demo``: the main job on the built-in cave.

Until the renderer lands this shows the shipped cave (maps/warrens.toml) classified for a
Medium and a Large creature, which is the designer's first look at a map.
"""

from __future__ import annotations

import argparse

from sim.classify import category_counts, classify
from sim.cli.classify import render_letters
from sim.paths import builtin_map
from sim.loaders import load_map
from sim.rules.bodies import body_for
from sim.rules.categories import Category


def register(sub) -> None:
    p = sub.add_parser("demo", help="the built-in cave, shown for a Medium and a Large creature",
                       description="Show the built-in cave classified for a Medium and a Large creature.")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    grid = load_map(builtin_map("warrens.toml"))
    bodies = [("Medium", body_for("medium")), ("Large", body_for("large"))]
    maps = [render_letters(classify(grid, b), grid.rock) for _, b in bodies]
    print(f"{grid.name} ({grid.cols}x{grid.rows} squares of 5 ft): {grid.description}")
    print()
    gap = "   "
    print("  " + gap.join(f"{name + ' creature':<{grid.cols}}" for name, _ in bodies))
    for rows in zip(*maps):
        print("  " + gap.join(rows))
    print()
    counts = [category_counts(classify(grid, b)[~grid.rock]) for _, b in bodies]
    print(f"  {'':3}{'category':<18}" + "".join(f"{name:>9}" for name, _ in bodies))
    for cat in Category:
        print(f"  {cat.letter:<3}{cat.label:<18}" + "".join(f"{c[cat]:>9}" for c in counts))
    print("  #  rock")
    print()
    print("Named points: " + ", ".join(f"{k} {v}" for k, v in grid.points.items()))
    return 0
