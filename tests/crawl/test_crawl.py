"""Cave crawl: exact times for the party's journey (RULES §2.4 equipment, §5.3, §6, §7.30, §7.33)."""

import dataclasses
import json
from pathlib import Path

import pytest

from sim.cli import main
from sim.crawl.records import CannotFollow, Check
from sim.crawl.run import run_crawl
from sim.rules.categories import Category
from sim.scenario.files import load_crawl
from sim.story.crawlwords import crawl_json

from .helpers import crawl_file


def entries(result, what):
    return [e for e in result.timeline if e.what == what]


def test_fighter_in_chainmail_through_a_crawlway(tmp_path):
    """Walk to the crawlway, take the chainmail off (1 minute, alone), crawl 3 squares (a move
    action each), crawl out, stand up, put it back on (4 minutes), walk on."""
    p = crawl_file(tmp_path, ["#" * 12, "#....ccc...#", "#" * 12], {"c": "{ width = 10, height = 2.5 }"},
                   ["fighter.toml"], frm="1,1", to="10,1")
    r = run_crawl(load_crawl(p))
    walk1, crawl, out1, walk2 = [e for e in r.timeline if e.what in ("walk", "crawl")]
    assert walk1.rounds == 0.5          # (1,1) -> (4,1): 3 squares at 20 ft in chainmail: one move action
    off = entries(r, "armor_off")[0]
    assert off.armor == "chainmail" and off.rounds == 10 and not off.helped  # 1 minute
    assert crawl.rounds == 1.5          # 3 crawl squares = 3 move actions (§2.4)
    assert out1.rounds == 0.5           # crawl out into the open: 1 move action, still prone
    stand = entries(r, "stand_up")[0]
    assert stand.rounds == 0.5 and stand.start == off.start + 10 + 1.5 + 0.5  # a move action
    on = entries(r, "armor_on")[0]
    assert on.rounds == 40 and on.start == stand.start + 0.5  # 4 minutes, standing, once out
    assert walk2.rounds == 0.5          # 2 squares: one move action at 20 ft
    assert r.total_rounds == 0.5 + 10 + 1.5 + 0.5 + 40 + 1.0 == 53.5


def test_halfling_crawls_where_the_human_needs_escape_artist(tmp_path):
    p = crawl_file(tmp_path, ["#" * 10, "#...zz...#", "#" * 10], {"z": "{ width = 3, height = 1.25 }"},
                   ["lidda:halfling-rogue-3", "bruna:human-fighter-3"], frm="1,1", to="8,1")
    r = run_crawl(load_crawl(p))
    squeeze = entries(r, "awkward")[0]
    assert squeeze.categories["lidda"] == (Category.CRAWL,)
    assert squeeze.categories["bruna"] == (Category.AWKWARD,)
    checks = squeeze.checks
    assert checks["lidda"] == ()
    assert [c.dc for c in checks["bruna"]] == [15, 15] and all(isinstance(c, Check) for c in checks["bruna"])
    # Bruna, armour and shield off: Escape Artist +4, +2 aid from Lidda = +6: take 10 makes 16
    assert all(c.tries == 1 for c in checks["bruna"])
    assert squeeze.member_rounds["bruna"] == 1.0  # two tries, a move action each


HALL = ["#" * 15, "#.............#", "#.............#", "#.............#", "#" * 15]  # room to walk abreast


def test_party_waits_for_its_slowest_member(tmp_path):
    p = crawl_file(tmp_path, HALL, {}, ["mialee:elf-wizard-3", "tordek:dwarf-fighter-3"], frm="1,2", to="13,2")
    r = run_crawl(load_crawl(p))
    walk = entries(r, "walk")[0]
    assert walk.member_rounds == {"mialee": 1.0, "tordek": 1.5}  # 12 squares at 30 / at 20 ft
    assert walk.rounds == 1.5 and walk.slowest == "tordek"
    wait = entries(r, "wait")[0]
    assert wait.who == ("mialee",) and wait.waited == {"mialee": 0.5}
    assert r.total_rounds == 1.5


def test_large_companion_cannot_follow(tmp_path):
    p = crawl_file(tmp_path, ["#" * 12, "#....ff....#", "#" * 12], {"f": "{ width = 0.8, height = 10 }"},
                   ["bruna:human-fighter-3", "ogre:ogre"], frm="1,1", to="10,1")
    r = run_crawl(load_crawl(p))
    assert r.left_behind == {"ogre": CannotFollow(stop=(4, 1), category=Category.TIGHT_SQUEEZE, size="large", name="Ogre")}
    assert r.arrived == ("bruna",)
    assert entries(r, "left_behind")[0].who == ("ogre",) and entries(r, "left_behind")[0].why == r.left_behind["ogre"]
    assert crawl_json(r)["left_behind"] == {"ogre": "cannot follow past (4, 1): Tight Squeeze for a large Ogre"}


def test_crawl_and_its_fight_are_reproducible(tmp_path):
    extra = '\n[[combatant]]\ntemplate = "goblin"\nteam = "monsters"\nat = [14, 1]\n'
    p = crawl_file(tmp_path, ["#" * 17, "#...............#", "#" * 17], {}, ["bruna:human-fighter-3"],
                   frm="1,1", to="15,1", extra=extra, seed=9)
    a = crawl_json(run_crawl(load_crawl(p)))
    b = crawl_json(run_crawl(load_crawl(p)))
    assert a == b and a["fights"] and a["fights"][0]["monsters"] == ["goblin-1"]
    c = crawl_json(run_crawl(load_crawl(p, seed=10)))
    assert c["fights"][0]["seed"] != a["fights"][0]["seed"]


def test_shipped_crawl_shows_everything():
    r = run_crawl(load_crawl("maps/crawl_warrens.toml"))
    whats = {e.what for e in r.timeline}
    assert {"light", "walk", "crawl", "armor_off", "wait", "encounter", "arrive"} <= whats
    # the kobolds see the party's torch from the lair and fight it at the entrance, armour on (RULES §9.3.4)
    assert r.fights[0].at == (5, 14) and r.fights[0].armor_off == ()
    # in full view (no lights, no darkvision advantage) they notice it in the crawlway, Bruna's armour off
    spec = load_crawl("maps/crawl_warrens.toml")
    dark = run_crawl(dataclasses.replace(spec, settings={**spec.settings, "vision": False}))
    assert dark.fights[0].armor_off == ("bruna",) and "light" not in {e.what for e in dark.timeline}


def test_cli_and_bad_input(tmp_path, capsys):
    assert main(["crawl", "maps/crawl_warrens.toml", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["party"] == ["bruna", "lidda", "tordek", "mialee"] and out["total_rounds"] > 0
    assert main(["crawl", "maps/warrens.toml", "--party", "human-fighter-3", "--from", "entrance",
                 "--to", "nowhere"]) == 2
    assert "--to 'nowhere' is not a named point" in capsys.readouterr().err
    assert main(["crawl", "maps/warrens.toml", "--party", "human-fighter-11", "--from", "entrance", "--to", "lair"]) == 2
    assert "human-fighter-11" in capsys.readouterr().err
    assert main(["crawl", "maps/warrens.toml", "--from", "entrance", "--to", "lair"]) == 2
    assert "no party" in capsys.readouterr().err


def test_a_one_square_corridor_is_single_file_whatever_its_glyph(tmp_path):
    # "." is a 30-ft-wide glyph, but between rock one square apart the passage is 5 ft wide
    p = crawl_file(tmp_path, ["#" * 15, "#.............#", "#" * 15], {},
                   ["mialee:elf-wizard-3", "lidda:halfling-rogue-3"], frm="1,1", to="13,1")
    r = run_crawl(load_crawl(p))
    assert [e.what for e in r.timeline if e.what not in ("wait", "light")][:1] == ["single_file"]


def test_cli_timeline_reads_as_sentences(tmp_path, capsys):
    p = crawl_file(tmp_path, HALL, {}, ["mialee:elf-wizard-3", "tordek:dwarf-fighter-3"], frm="1,2", to="13,2")
    assert main(["crawl", str(p)]) == 0
    out = capsys.readouterr().out
    assert "mialee, tordek walk 12 squares from (1, 2) (1.5 rounds: mialee 1, tordek 1.5)" in out
    assert "mialee waits for tordek" in out and "mialee, tordek arrive at (13, 2)" in out
    p = crawl_file(tmp_path, ["#" * 4, "#..#", "#" * 4], {}, ["mialee:elf-wizard-3"], frm="1,1", to="2,1")
    assert main(["crawl", str(p)]) == 0
    out = capsys.readouterr().out
    assert "mialee walks 1 square from (1, 1) (0.5 rounds: mialee 0.5)" in out and "mialee arrives at (2, 1)" in out


def test_a_route_one_member_plans_is_taken_when_all_can_follow_it(tmp_path):
    # a 0.6-ft crack: a Tight Squeeze (DC 30) for the nimble Medium rogue, who takes 20 on +10; an
    # Awkward Space (DC 15) for the clumsy halfling (-1, take 20: 19). The party's "composite"
    # (the largest body with the lowest Escape Artist) could not pass; neither is left behind.
    data = Path(__file__).parent / "data"
    p = crawl_file(tmp_path, ["#" * 12, "#oooottoooo#", "#" * 12], {"o": "{ width = 30, height = 12 }",
                                                                     "t": "{ width = 0.6, height = 10 }"},
                   [f"rogue:{data / 'nimble_rogue.toml'}", f"hob:{data / 'clumsy_halfling.toml'}"],
                   frm="1,1", to="10,1")
    r = run_crawl(load_crawl(p))
    assert r.left_behind == {} and r.arrived == ("rogue", "hob")
    assert {e.what for e in r.timeline} >= {"tight"}


def test_single_file_followers_start_once_the_one_ahead_is_a_square_in(tmp_path):
    # four elves (30 ft) through a one-square gap in a wall: each needs a move action for the
    # square (0.5 round); each next one starts when the one ahead has cleared the first square,
    # 5 ft of its 30: 1/6 of a move action, 1/12 round. 0.5 + 3/12 = 0.75 round.
    rows = ["#############", "#.....#.....#", "#...........#", "#.....#.....#", "#############"]
    party = [f"e{i}:elf-wizard-3" for i in range(4)]
    p = crawl_file(tmp_path, rows, {}, party, frm="5,2", to="7,2")
    r = run_crawl(load_crawl(p))
    (sf,) = entries(r, "single_file")
    assert sf.member_rounds == {f"e{i}": 0.5 for i in range(4)} and sf.rounds == pytest.approx(0.75)
    wait = entries(r, "wait")[-1]
    assert wait.for_whom == "e3" and set(wait.who) == {"e0", "e1", "e2"}


def test_a_fight_places_the_party_clear_of_a_large_monsters_whole_space(tmp_path):
    from sim.crawl.fight import file_positions
    from sim.crawl.notice import block_squares
    from sim.engine.setup import build_creature
    from sim.scenario.specs import CombatantSpec

    p = crawl_file(tmp_path, HALL, {}, ["bruna:human-fighter-3"], frm="1,2", to="13,2")
    spec = load_crawl(p)
    bruna = build_creature(CombatantSpec(id="bruna", template="human-fighter-3", team="party", at=(1, 2)), spec.path)
    ogre = block_squares((5, 1), 10.0)                   # an ogre at (5, 1) covers (5..6, 1..2)
    assert ogre == {(5, 1), (6, 1), (5, 2), (6, 2)}
    back = [(6, 2), (5, 2), (4, 2), (3, 2)]               # the route behind the party, newest first
    assert file_positions(spec.grid, [bruna], back, ogre) == {"bruna": (4, 2)}


def test_armor_taken_off_in_a_fight_is_off_for_the_crawl_after_it(tmp_path):
    """Issue 13 item 1 (RULES §2.4): the fighter takes its chainmail off in the fight, to crawl at
    the kobold in its low lair; the crawl goes on knowing it is off: it is put back on in the
    open (4 minutes), and taken off again before the crawlway -- never taken off twice. (Seed 2:
    the kobold waits unseen in its dark lair; the fighter follows the noise to the mouth and takes
    the chainmail off there.)"""
    extra = '\n[[combatant]]\ntemplate = "kobold"\nteam = "monsters"\nat = [10, 1]\n'
    p = crawl_file(tmp_path, ["#" * 22, "#.......cccccccc....##", "#" * 22], {"c": "{ width = 10, height = 2.5 }"},
                   ["fighter.toml"], frm="1,1", to="19,1", extra=extra, seed=2)
    r = run_crawl(load_crawl(p))
    assert r.fights[0].winner == "party" and r.fights[0].armor_off == ("fighter",)
    work = [e for e in r.events if e.type == "armor" and e.stage in ("start", "done")]
    assert [(e.stage, e.rounds) for e in work] == [("start", 10), ("done", 10)]
    after = [e.what for e in r.timeline if e.what in ("encounter", "armor_off", "armor_on")]
    assert after == ["encounter", "armor_on", "armor_off", "armor_on"]


def test_rules_6_1_a_double_move_holds_three_narrow_and_low_squares_on_the_way(tmp_path):
    """Walking times in a crawl follow the double move (one move of 2 x speed): Mialee (elf,
    30 ft) walks a 4-ft-wide, 4-ft-high passage (Narrow and Low: 20 ft a square) of three
    squares in 2 move actions = 1 round, not 3 move actions (counting each action apart);
    five squares take 4 move actions (a double move of three, then two more) = 2 rounds."""
    for n, rounds in ((3, 1.0), (5, 2.0)):
        rows = ["#" * (n + 3), "#." + "N" * n + "#", "#" * (n + 3)]
        p = crawl_file(tmp_path, rows, {"N": "{ width = 4, height = 4 }"}, ["mialee:elf-wizard-3"],
                       frm="1,1", to=f"{n + 1},1")
        r = run_crawl(load_crawl(p))
        walk = [e for e in r.timeline if e.what in ("walk", "single_file")]
        assert [e.categories["mialee"] for e in walk] == [(Category.NARROW_AND_LOW,)]
        assert walk[0].member_rounds["mialee"] == rounds
        assert r.total_rounds == rounds
