"""The fight log says "moves (double)" once per turn (issue 19): a double move interrupted by
an attack of opportunity goes on as "moves on"."""

from sim.engine.fight import new_encounter
from sim.scenario.files import load_encounter
from sim.story.log import Narrator
from sim.base.paths import maps_dir

SEED = 4  # a demo fight with a double move cut short by an attack of opportunity


def test_a_double_move_is_named_once_per_turn():
    enc = new_encounter(load_encounter(maps_dir() / "demo.toml"), seed=SEED)
    enc.run()
    n = Narrator()
    seen_moves_on = False
    per_turn: dict[str, int] = {}
    for e in enc.events:
        line = n.line(e)
        if e.type == "turn_start":
            per_turn = {}
        if line and " moves (double) " in line:
            per_turn[e.actor] = per_turn.get(e.actor, 0) + 1
            assert per_turn[e.actor] == 1, line
        seen_moves_on |= bool(line and " moves on " in line)
    assert seen_moves_on, f"seed {SEED} of the demo has an interrupted double move"
