"""``cavesim path`` and ``cavesim reach``: movement queries from the command line (RULES §6)."""

from __future__ import annotations

import argparse

from sim.base.argtypes import whole
from sim.base.errors import UsageError
from sim.cli._common import (
    add_body_args,
    add_map_limit,
    body_from,
    load_map_arg,
    plural,
    print_json,
    ruled,
)


def _mover_args(p: argparse.ArgumentParser) -> None:
    add_body_args(p)
    g = p.add_argument_group("movement")
    g.add_argument("--speed", type=whole(-10 ** 9, 1000), metavar="FT", help="speed in feet (default 30; 20 for Small)")
    g.add_argument("--escape-artist", type=whole(-100, 100), default=None, metavar="MOD",
                   help="Escape Artist modifier, armor check penalty included (default: the creature's, else 0)")
    g.add_argument("--in-combat", action="store_true",
                   help="threatened: no take 10 / take 20 on Escape Artist (rolls only)")
    g.add_argument("--fly", action="store_true", help="flying: ignores difficult terrain")
    g.add_argument("--no-armor", action="store_true",
                   help="with --creature: plan as if its medium or heavy armor were already off (by default "
                        "it wears the stat block's armor, which must come off before a crawlway, awkward space "
                        "or tight squeeze: the path shows that as an armor_off step)")
    g.add_argument("--json", action="store_true", help="machine-readable output")
    add_map_limit(p)


def register(sub) -> None:
    p = sub.add_parser("path", help="best path between two squares, step by step with categories and costs",
                       description="The fastest path for a creature, with each step's category and cost.")
    p.add_argument("map", help="map or encounter file (TOML)")
    p.add_argument("--from", dest="start", required=True, metavar="X,Y",
                   help="start square: column X, row Y from the top left (the creature's top-left square)")
    p.add_argument("--to", dest="goal", required=True, metavar="X,Y",
                   help="goal square: column X, row Y from the top left")
    _mover_args(p)
    p.set_defaults(handler=run_path)

    r = sub.add_parser("reach", help="squares reachable this turn with a move action / a double move",
                       description="Every square a creature can reach this turn, by the budget rules.")
    r.add_argument("map", help="map or encounter file (TOML)")
    r.add_argument("--from", dest="start", required=True, metavar="X,Y",
                   help="start square: column X, row Y from the top left (the creature's top-left square)")
    _mover_args(r)
    r.set_defaults(handler=run_reach)


def _setup(args):
    from sim.terrain.movement import move_field

    grid = load_map_arg(args)
    label, body = body_from(args)
    block = None
    if args.no_armor and not getattr(args, "creature", None):
        raise UsageError("--no-armor needs --creature TEMPLATE (a stat block wearing armor); a --size body "
                         "wears none")
    if getattr(args, "creature", None):
        from sim.cli._common import creature_block

        block = creature_block(args.creature)
        if args.no_armor:
            from sim.rules.armor import must_remove
            from sim.rules.statblocks import without_armor

            if not must_remove(block):
                raise UsageError(f"--no-armor: {block.name} wears no medium or heavy armor "
                                 f"({block.armor.key if block.armor else 'none'}); leave --no-armor out")
            block = without_armor(block, drop_shield=True)
    mover = _mover(args, body, block)
    field = move_field(grid, mover)
    args._armor = _armor_plan(args, body, block)
    return grid, label, field


def _armor_plan(args, body, block):
    """(armor, the mover without it) for a stat block that must take its armor off before the
    tight places (RULES §2.4, §7.33), else None."""
    from sim.rules.armor import must_remove
    from sim.rules.statblocks import without_armor

    if block is None or block.is_swarm or not must_remove(block):
        return None
    bare = without_armor(block, drop_shield=True)
    kept = argparse.Namespace(**{**vars(args), "speed": None, "escape_artist": None})
    return block.armor, _mover(kept, body, bare)


def _mover(args, body, block):
    from sim.terrain.movement import Mover

    if block is not None:
        sp = block.speed
        flying = bool(sp.fly) and (block.is_swarm or sp.fly > sp.land)
        default_speed = sp.fly if flying else sp.land
        default_ea = block.escape_artist
    else:
        flying = False
        default_speed = 20 if body.size.key in ("small",) else 30
        default_ea = 0
    speed = args.speed if args.speed is not None else int(default_speed)
    if speed < 0 or speed % 5:
        raise UsageError(f"--speed must be a non-negative multiple of 5 ft, got {speed}")
    ea = args.escape_artist if args.escape_artist is not None else int(default_ea)
    mover = Mover(body, speed_ft=speed, escape_artist=ea, flying=args.fly or flying,
                  tunnelrunner=bool(block is not None and block.has_feat("tunnelrunner")))
    if args.in_combat:
        mover = mover.in_combat()
    return mover


def _square(field, text: str, what: str):
    from sim.base.coords import parse_xy
    from sim.rules.categories import Category

    pos = parse_xy(text, what=f"--{what}")
    x, y = pos
    rows, cols = field.shape
    if not (0 <= x < cols and 0 <= y < rows):
        raise UsageError(f"--{what} {x},{y} is off the map ({cols}x{rows} squares; x 0..{cols - 1}, y 0..{rows - 1})")
    if field.grid.rock[y, x]:
        raise UsageError(f"--{what} {x},{y} is solid rock; choose a floor square")
    if not field.can_stand(pos):
        cat = Category(field.category[y, x])
        raise UsageError(f"--{what} {x},{y}: this creature cannot stand there ({cat.label}); "
                         "choose a square it fits in")
    return pos


def _letters(field):
    import numpy as np

    from sim.rules.categories import Category

    letters = np.array([c.letter for c in Category])
    out = letters[field.category].astype("<U1")
    out[field.grid.rock] = "#"
    return out


def run_path(args: argparse.Namespace) -> int:
    from sim.rules.categories import Category
    from sim.terrain.movement import find_path

    grid, label, field = _setup(args)
    a = _square(field, args.start, "from")
    b = _square(field, args.goal, "to")
    armor_step = None
    if args._armor is not None:  # medium or heavy armor: off before the tight places
        from sim.terrain.movement.armored import armored_route

        path = armored_route(grid, field.mover, args._armor[1], args._armor[0], a, b)
        armor_step = path.armor_step()
    else:
        path = find_path(field, a, b)
    if args.json:
        print_json(path.to_json())
        return 0
    mover = field.mover
    from sim.story.log import article

    print(f"{grid.name}: path for {article(label)} {label} creature, speed {mover.speed_ft} ft, Escape Artist "
          f"{mover.escape_artist:+d}{' (in combat: rolls only)' if not mover.take10 else ''}")
    if args._armor is not None:
        from sim.rules.armor import removal_text

        armor, bare = args._armor
        print(f"  in {armor.key.replace('-', ' ')}, which comes off before a crawlway, awkward space or tight "
              f"squeeze ({removal_text(armor)}); then speed {bare.speed_ft} ft, Escape Artist "
              f"{bare.escape_artist:+d} (--no-armor: plan as if it were off)")
    elif args.no_armor:
        print("  armor off (--no-armor)")
    if not path.reachable:
        print(f"  no way from {a} to {b} for this creature")
        return 0
    chars = _letters(field)
    for x, y in path.squares:
        chars[y, x] = "*"
    chars[a[1], a[0]] = "S"
    chars[b[1], b[0]] = "G"
    print()
    for line in ruled(["".join(row) for row in chars]):
        print(line)
    print()
    print(f"  {'step':>4}  {'square':<9} {'category':<16} {'kind':<14} {'feet':>4}  move action")
    steps = list(path.before.steps) + ([armor_step] + list(path.after.steps) if armor_step else []) \
        if args._armor is not None else list(path.steps)
    for i, s in enumerate(steps, 1):
        if isinstance(s, dict):  # the armor comes off here (RULES §2.4)
            r = s["rounds"]
            r = plural(r, "round") if isinstance(r, int) else f"{r[0]}-{r[1]} rounds"
            print(f"  {i:>4}  {str(tuple(s['at'])):<9} {'':<16} {'armor_off':<14} {0:>4}  "
                  f"{s['armor'].replace('-', ' ')} off: {s['removal']} = {r} (half with an ally's help); "
                  "move actions counted anew after it")
            continue
        extra = ""
        if s.dc:
            extra = f"  (DC {s.dc}, {plural(float(s.tries), 'try', 'tries')}, p={s.probability:.2f} a roll)"
        print(f"  {i:>4}  {str(s.at):<9} {Category[s.category].label:<16} {s.kind:<14} {s.feet:>4}  "
              f"{s.move_action:g}{extra}")
    g = "no guarantee (rolls only)" if path.move_actions is None else \
        f"{plural(float(path.move_actions), 'move action')} = {plural(path.rounds, 'round')}{_last_turn(path)}"
    e = "impossible" if path.expected_move_actions is None else \
        f"{path.expected_move_actions:.2f} move actions = {path.expected_rounds:.2f} rounds"
    print(f"\n  {path.feet} ft of movement; guaranteed: {g}; expected: {e}")
    return 0


def _last_turn(path) -> str:
    """How the last of the rounds is spent (a double move holds twice the speed as one move)."""
    if not path.rounds:
        return ""
    what = "a move action" if path.last_turn_move_actions == 1 else "a double move or full-round action"
    whole = path.rounds - 1
    return f" ({whole} whole turn{'s' if whole != 1 else ''}, then {what})" if whole else f" ({what})"


def run_reach(args: argparse.Namespace) -> int:
    from sim.terrain.movement import reach

    grid, label, field = _setup(args)
    a = _square(field, args.start, "from")
    shed_note = None
    if args._armor is not None:
        # medium or heavy armor: no square that needs it off is reached this turn (taking it off
        # takes 10 rounds or more, RULES §2.4, §7.33)
        from sim.rules.armor import removal_rounds_range, removal_text
        from sim.terrain.movement.armored import shed_squares

        armor = args._armor[0]
        shed = shed_squares(field)
        shed[a[1], a[0]] = False
        free = reach(field, a)
        r = reach(field, a, blocked=shed)
        lo, hi = removal_rounds_range(armor)
        behind = len(free.single) + len(free.double) - len(r.single) - len(r.double)
        shed_note = {"kind": "armor_off", "armor": armor.key, "removal": removal_text(armor),
                     "rounds": lo if lo == hi else [lo, hi], "squares_behind_it": behind}
    else:
        r = reach(field, a)
    if args.json:
        out = r.to_json()
        if shed_note is not None:
            out["armor_off"] = shed_note
        print_json(out)
        return 0
    chars = _letters(field)
    for x, y, _ in r.double:
        chars[y, x] = "2"
    for x, y, _ in r.single:
        chars[y, x] = "1"
    chars[a[1], a[0]] = "@"
    print(f"{grid.name}: reach of a {label} creature from {a}, speed {r.speed} ft "
          f"(1 = one move action, 2 = double move)")
    print()
    for line in ruled(["".join(row) for row in chars]):
        print(line)
    print(f"\n  {plural(len(r.single), 'square')} with a move action, {len(r.double)} with a double move")
    for x, y, dc, p in r.checks:
        print(f"  ({x}, {y}) needs Escape Artist DC {dc}: {p:.0%} a try")
    if shed_note is not None and shed_note["squares_behind_it"]:
        rr = shed_note["rounds"]
        rr = plural(rr, "round") if isinstance(rr, int) else f"{rr[0]}-{rr[1]} rounds"
        n = shed_note["squares_behind_it"]
        print(f"  {plural(n, 'more square')} once its {shed_note['armor'].replace('-', ' ')} is off "
              f"(crawlway, awkward space or tight squeeze: {shed_note['removal']} = {rr} first; --no-armor shows them)")
    return 0
