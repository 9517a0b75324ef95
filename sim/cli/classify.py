"""``cavesim classify MAP --size S`` / ``--all-sizes``: the category of every square."""

from __future__ import annotations

import argparse

from sim.base.errors import UsageError
from sim.cli._common import (
    add_body_args,
    add_map_limit,
    body_from,
    load_map_arg,
    print_json,
    ruled,
)

ROCK_LETTER = "#"


def register(sub) -> None:
    p = sub.add_parser("classify", help="category of every square for one body, or counts for all sizes",
                       description="Classify every square of a map by the constricted-space rules (RULES §2.3).")
    p.add_argument("map", help="map or encounter file (TOML)")
    add_body_args(p)
    p.add_argument("--all-sizes", action="store_true", help="table of square counts per size x category")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_map_limit(p)
    p.set_defaults(handler=run)


def render_letters(cats, rock) -> list[str]:
    import numpy as np

    from sim.rules.categories import Category

    letters = np.array([Category(c).letter for c in Category])
    chars = letters[cats]
    chars = np.where(rock, ROCK_LETTER, chars)
    return ["".join(row) for row in chars]


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from sim.rules.categories import Category, describe
    from sim.terrain.classify import category_counts, classify

    grid = load_map_arg(args)
    if args.all_sizes:
        if args.size:
            raise UsageError("--all-sizes and --size exclude each other; give one")
        return _all_sizes(grid, args)
    label, body = body_from(args)
    cats = classify(grid, body)
    counts = category_counts(np.where(grid.rock, np.uint8(Category.IMPASSABLE), cats)[~grid.rock])
    if args.json:
        names = np.array([c.name for c in Category])
        bj = body.to_json()
        print_json({
            "map": grid.name,
            "size": bj["size"],  # always a size name; the creature and swarm flags say what else
            **({"creature": label} if getattr(args, "creature", None) else {}),
            "swarm": body.opening is not None and body.opening > 0,
            "body": bj,
            "cols": grid.cols,
            "rows": grid.rows,
            "grid": names[cats].tolist(),
        })
        return 0
    from sim.story.log import article

    print(f"{grid.name}: {grid.cols}x{grid.rows} squares, for {article(label)} {label} body "
          f"(space {body.space:g} ft, height {body.height:g} ft"
          + (f", opening {body.opening * 12:g} in" if body.opening else "") + ")")
    print()
    for line in ruled(render_letters(cats, grid.rock)):
        print(line)
    print()
    print(f"  {ROCK_LETTER}  rock{'':<17} {int(grid.rock.sum()):>7}")
    for cat in Category:
        print(f"  {cat.letter}  {cat.label:<20} {counts[cat]:>7}   {describe(cat).split(': ', 1)[1]}")
    return 0


def _all_sizes(grid, args) -> int:
    from sim.rules.categories import Category
    from sim.rules.sizes import Size
    from sim.terrain.classify import category_counts, classify_all_sizes

    all_cats = classify_all_sizes(grid, form=args.form or "tall")
    floor = ~grid.rock
    table = {s: category_counts(all_cats[int(s)][floor]) for s in Size}
    if args.json:
        print_json({
            "map": grid.name,
            "cols": grid.cols,
            "rows": grid.rows,
            "rock": int(grid.rock.sum()),
            "floor": int(floor.sum()),
            "sizes": {s.key: {c.name: n for c, n in table[s].items()} for s in Size},
        })
        return 0
    print(f"{grid.name}: {grid.cols}x{grid.rows} squares, {int(floor.sum())} floor, {int(grid.rock.sum())} rock")
    print("floor squares per size and category:")
    heads = [c.label.replace("Crawl-Navigable", "Crawl").replace("Tight Squeeze", "Tight")
             .replace("Awkward Space", "Awkward") for c in Category]
    widths = [max(7, len(h)) for h in heads]
    print(f"  {'size':<11}" + " ".join(f"{h:>{w}}" for h, w in zip(heads, widths)))
    for s in Size:
        print(f"  {s.key:<11}" + " ".join(f"{table[s][c]:>{w}}" for c, w in zip(Category, widths)))
    return 0
