"""Running (RULES §6.5): a full-round action, up to 4 x speed (3 x in heavy armor) in a straight line
over clear, not difficult, not constricted squares; the runner loses its Dex to AC until its next
turn."""

from __future__ import annotations

from sim.engine import attacks
from sim.engine.actions import Run, Strike

from .helpers import encounter, ready
from .test_spells import of_type, turn_of

LONG = ["." * 30] * 5


def runner(template="human-fighter-3", at=(1, 2), rows=LONG, **kw):
    g_at = [len(rows[0]) - 1, len(rows) - 1]
    enc = ready(encounter(rows, [{"id": "r", "template": template, "team": "p", "at": list(at)},
                                 {"id": "g", "template": "goblin", "team": "m", "at": g_at}], **kw))
    return enc, turn_of(enc, "r")


def test_run_four_times_speed_in_a_straight_line_and_no_dex_until_next_turn():
    enc, r = runner()                      # breastplate: speed 20 ft, 4 x = 80 ft = 16 squares
    assert r.speed_ft_value() == 20
    assert not enc.perform(Run((18, 2)))   # 17 squares: too far
    n = len(enc.events)
    assert enc.perform(Run((17, 2)))
    (moved,) = of_type(enc, "moved", n)
    assert moved.action == "run" and {s["kind"] for s in moved.path} == {"run"} and len(moved.path) == 16
    assert r.pos == (17, 2) and enc.turn.ended
    assert attacks.loses_dex(enc, r) == "running"
    g = enc.creatures["g"]
    assert "dex" not in attacks.target_ac(enc, g, r, ranged=True)[1]  # no Dex bonus while running
    turn_of(enc, "r")
    assert "running" not in r.conditions and attacks.loses_dex(enc, r) is None


def test_a_diagonal_run_counts_5_10_5():
    enc, r = runner(at=(1, 0))             # 4 squares down-right: 5 + 10 + 5 + 10 = 30 ft
    assert enc.perform(Run((5, 4)))
    (moved,) = of_type(enc, "moved")
    assert [s["feet"] for s in moved.path] == [5, 10, 5, 10]


def test_three_times_speed_in_heavy_armor():
    enc, r = runner(template="dwarf-fighter-5")   # full plate, speed 20: 60 ft = 12 squares
    assert r.block.armor.kind == "heavy"
    why = enc.perform(Run((14, 2)))
    assert not why and why.reason == "too far to run: 65 ft, at most 3 x speed = 60 ft"
    assert enc.perform(Run((13, 2)))


def test_no_run_over_difficult_or_constricted_ground_or_not_straight_or_prone():
    rows = ["..............", "......~.......", "..............", "....#.........", ".............."]
    enc, r = runner(at=(1, 1), rows=rows)
    why = enc.perform(Run((10, 1)))        # the "~" square on the line is difficult
    assert not why and "not a straight line over clear ground" in why.reason
    assert enc.perform(Run((10, 2)))       # the row below is clear
    enc, r = runner(at=(1, 3), rows=rows)
    assert not enc.perform(Run((8, 3)))    # rock on the line
    enc, r = runner(at=(1, 0), rows=["..c......."])
    r.pos, r.squares = (2, 0), [(2, 0)]
    r.prone = True
    why = enc.perform(Run((6, 0)))
    assert not why and why.reason == "prone: stand up before running"
    r.prone = False
    why = enc.perform(Run((6, 0)))
    assert not why and why.reason == "no running in a constricted space (§2.4)"


def test_run_is_a_full_round_action():
    enc, r = runner(at=(28, 3))
    enc.creatures["g"].hp = 100
    assert enc.perform(Strike("g", "longsword"))
    why = enc.perform(Run((20, 3)))
    assert not why and why.reason == "needs a full-round action (nothing else this turn)"
