"""``cavesim play ENCOUNTER``: the interactive window -- select creatures, preview paths with
their cost, move, attack, let the AI take turns, toggle overlays. ``cavesim play --replay
EVENTS.jsonl [MAP]`` steps through a recorded fight, forward and back."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from sim.base.argtypes import seed
from sim.base.errors import UsageError
from sim.cli._common import add_map_limit, bare_map, limits_from
from sim.view.options import add_art_arg, add_window_args, parse_size, with_art


def register(sub) -> None:
    p = sub.add_parser("play", help="interactive window: move, attack, step or auto-play turns; or replay a fight log",
                       description="Open an encounter in a window and play it: your teams by mouse, the others by the "
                                   "AI (Space plays the current turn, P auto-plays). With --replay, step through a "
                                   "recorded fight (cavesim fight --events) forward and back.")
    p.add_argument("encounter", nargs="?", help="encounter file (TOML), or a bare map to look at (no one on it); with "
                                                 "--replay, optionally the map it was played on")
    p.add_argument("--replay", metavar="EVENTS.jsonl", help="replay a fight log written by cavesim fight --events")
    p.add_argument("--seed", type=seed(), default=None, help="random seed (default: the file's seed)")
    p.add_argument("--control", default=None, metavar="TEAMS",
                   help="teams you play, comma-separated, or all / none (default: party, else the first team)")
    p.add_argument("--autoplay", action="store_true", help="start in auto-play")
    p.add_argument("--load", metavar="SNAPSHOT.json", default=None,
                   help="go on with a saved fight (Ctrl-S in the window, or cavesim fight --save); the encounter "
                        "file is optional (the snapshot names it); Ctrl-S saves back to this file")
    p.add_argument("--dice", choices=("seeded", "manual"), default="seeded",
                   help="manual: the d20s and damage dice of the creatures of --dice-for are typed in the window "
                        "(the players roll real dice); the rest stay seeded (default: seeded)")
    p.add_argument("--dice-for", default=None, metavar="WHO",
                   help="whose dice are typed with --dice manual: teams or creature ids, comma-separated, or all "
                        "(default: the teams you play)")
    add_window_args(p)
    add_art_arg(p)
    add_map_limit(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    size = parse_size(args.size)
    if args.seed is not None and args.seed < 0:
        raise UsageError(f"--seed must be a whole number >= 0, got {args.seed}")
    if args.max_frames is not None and args.max_frames < 1:
        raise UsageError(f"--max-frames must be at least 1, got {args.max_frames}")
    if args.load and args.replay:
        raise UsageError("--load goes on with a saved fight and --replay steps through a fight log: give one")
    if not args.replay and not args.encounter and not args.load:
        raise UsageError("give an encounter file (cavesim play maps/demo.toml) or --replay EVENTS.jsonl")
    build = _replay(args, size) if args.replay else _live(args, size)  # bad input fails before any window
    from sim.render.app import (
        App,
        has_display,
        no_display_reason,
        open_window,
        test_driver,
    )

    if not (has_display() or (test_driver() and args.max_frames is not None)):
        raise UsageError(f"cavesim play needs a display and none was found ({no_display_reason()}); "
                         "to see the fight without one, use cavesim render ENCOUNTER --out fight.gif")
    screen = open_window(size, "cavesim — play")
    if screen is None:
        raise UsageError("cavesim play: the display cannot be opened; use cavesim render ENCOUNTER --out fight.gif")
    scene, driver = build(screen.get_size())
    import pygame

    pygame.display.set_caption(f"cavesim — {scene.title}")
    return App(scene, driver, screen, max_frames=args.max_frames, fixed=args.max_frames is not None).run()


def _live(args, size):
    from sim.scenario.files import load_encounter

    if args.load:
        return _load(args)
    grid = bare_map(args.encounter, limits_from(args))
    if grid is not None:  # a map with no encounter: a view of the cave
        grid = with_art(grid, args.art)

        def view(size):
            from sim.render.session import map_scene

            return map_scene(grid, size=size, base_path=args.encounter)

        return view
    spec = with_art(load_encounter(Path(args.encounter), limits=limits_from(args)), args.art)
    teams = []
    for c in spec.combatants:
        if c.team not in teams:
            teams.append(c.team)
    control = parse_control(args.control, teams)
    dice_for = parse_dice_for(args, spec, control)

    def build(size):
        from sim.render.session import play_scene

        scene, ctl = play_scene(spec, seed=args.seed, size=size, control=control, dice_for=dice_for)
        scene.autoplay = bool(args.autoplay)
        return scene, ctl

    return build


def _load(args):
    """``--load SNAPSHOT``: its encounter (the one given, else the one it names), checked now."""
    from sim.engine.ai.decide import default_policy
    from sim.engine.saved import snapshot
    from sim.scenario.files import load_encounter

    snap = Path(args.load)
    if args.seed is not None:
        raise UsageError(f"--seed: {snap} is a saved fight, whose random generator is saved in it; leave --seed out")
    _, enc_file = snapshot.read_snapshot(snap, policy=default_policy, encounter_file=args.encounter,
                                         load_spec=lambda p: load_encounter(p, limits=limits_from(args), check=False))
    spec = with_art(load_encounter(enc_file, limits=limits_from(args), check=False), args.art)
    teams = []
    for c in spec.combatants:
        if c.team not in teams:
            teams.append(c.team)
    control = parse_control(args.control, teams)
    dice_for = parse_dice_for(args, spec, control)

    def build(size):
        from sim.render.session import play_scene

        scene, ctl = play_scene(spec, size=size, control=control, load=snap, dice_for=dice_for)
        scene.autoplay = bool(args.autoplay)
        return scene, ctl

    return build


def parse_dice_for(args, spec, control: set[str]) -> set[str]:
    """The creature ids whose dice are typed (``--dice manual``), from ``--dice-for``: teams or ids."""
    if args.dice != "manual":
        if args.dice_for is not None:
            raise UsageError("--dice-for names whose dice are typed: give it with --dice manual")
        return set()
    return dice_owners(args.dice_for, [(c.id, c.team) for c in spec.combatants], control)


def dice_owners(text: str | None, creatures: list[tuple[str, str]], control: set[str]) -> set[str]:
    """Ids of the creatures named by ``text`` (teams or ids, comma-separated, or all; None: the
    creatures of the ``control`` teams).

    >>> cs = [("bruna", "party"), ("kob1", "monsters"), ("kob2", "monsters")]
    >>> sorted(dice_owners(None, cs, {"party"})), sorted(dice_owners("monsters", cs, set()))
    (['bruna'], ['kob1', 'kob2'])
    >>> sorted(dice_owners("bruna,kob2", cs, set())), len(dice_owners("all", cs, set()))
    (['bruna', 'kob2'], 3)
    """
    if text is None:
        return {cid for cid, team in creatures if team in control}
    if text.strip().lower() == "all":
        return {cid for cid, _ in creatures}
    out: set[str] = set()
    teams = sorted({team for _, team in creatures})
    for word in (w.strip() for w in text.split(",")):
        if not word:
            continue
        named = {cid for cid, team in creatures if team == word or cid == word}
        if not named:
            raise UsageError(f"--dice-for: no team or creature {word!r} in this encounter; teams: {', '.join(teams)}; "
                             f"creatures: {', '.join(cid for cid, _ in creatures)}")
        out |= named
    if not out:
        raise UsageError("--dice-for: name a team or creature (e.g. --dice-for party)")
    return out


def parse_control(text: str | None, teams: list[str]) -> set[str]:
    """The teams the user plays.

    >>> sorted(parse_control(None, ["party", "monsters"])), sorted(parse_control("all", ["a", "b"]))
    (['party'], ['a', 'b'])
    >>> parse_control("none", ["party"])
    set()
    """
    if text is None:
        return {"party"} if "party" in teams else ({teams[0]} if teams else set())
    t = text.strip().lower()
    if t == "all":
        return set(teams)
    if t == "none":
        return set()
    chosen = {x.strip() for x in text.split(",") if x.strip()}
    unknown = chosen - set(teams)
    if unknown:
        raise UsageError(f"--control: no team {', '.join(sorted(unknown))} in this encounter; teams: {', '.join(teams)}")
    return chosen


def _replay(args, size):
    from sim.view.fights import find_map_for, load_replay

    events = load_replay(args.replay)
    grid, base, title, subtitle = find_map_for(events, args.encounter, limits_from(args))
    grid = with_art(grid, args.art)

    def build(size):
        from sim.render.session import replay_scene

        return replay_scene(events, grid, base_path=base, title=title, subtitle=subtitle, size=size,
                            autoplay=bool(args.autoplay))

    return build
