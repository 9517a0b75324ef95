"""Armor comes off before a crawlway in a fight, not only on a crawl (issue 13 item 1).

RULES §2.4 (Equipment row of the table and "Further details": medium and heavy armor must come
off to crawl; removal 1 minute, half-plate and full plate 1d4+1 minutes, halved with help) and
§7.33 (the same before awkward space and tight squeeze). A minute is 10 rounds (RULES §0).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.base.paths import maps_dir
from sim.engine.actions import Delay, Impossible, Move, RemoveArmor
from sim.engine.ai.decide import default_policy
from sim.engine.events import dumps
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot as S
from sim.rules import armor as rule
from sim.rules.categories import Category
from sim.rules.dice import Dice
from sim.rules.statblocks import load_template, with_loadout
from sim.rules.weapons import _armor_tables
from sim.scenario.files import load_encounter
from sim.story.log import Narrator
from tests.engine.helpers import encounter

# a 2.5-ft crawlway (5 ft wide, 2.5 ft high: Crawl-Navigable for a Medium creature) between two rooms
CRAWLWAY = ["############",
            "#...cccc...#",
            "############"]


def _monsters_wait(w, c, t):
    return Delay() if c.team == "monsters" else default_policy(w, c, t)


def _fight(rows=CRAWLWAY, extra=(), seed=3, policy=_monsters_wait, goblin=(10, 1)):
    cs = [{"id": "f", "template": "human-fighter-1", "team": "party", "at": (1, 1)},
          {"id": "g", "template": "goblin", "team": "monsters", "at": goblin}, *extra]
    return encounter(rows, cs, seed=seed, policy=policy)


def _turn_of(enc, cid):
    """Start the fight and go to ``cid``'s turn (the others' turns pass)."""
    if not enc.events:
        enc.start()
    while True:
        c = enc.begin_turn()
        if c is not None and c.id == cid:
            return c
        enc.end_turn()


def test_the_rule_numbers():
    """RULES §2.4: 1 minute (10 rounds) for scale mail, 1d4+1 minutes (20-50 rounds) for full
    plate, half with help; crawl, awkward and tight need it off (§7.33), narrow-and-low does not."""
    scale = load_template("human-fighter-1").armor
    plate = with_loadout(load_template("human-fighter-1"), armor="full-plate").armor
    assert rule.removal_rounds_range(scale) == (10, 10) and rule.removal_rounds_range(scale, helped=True) == (5, 5)
    assert rule.removal_rounds_range(plate) == (20, 50) and rule.removal_rounds_range(plate, helped=True) == (10, 25)
    assert rule.removal_rounds_expected(plate) == 35.0
    assert [rule.needs_armor_off(c) for c in Category] == [False, False, False, True, True, True, False]
    assert not rule.must_remove(load_template("halfling-rogue-1"))  # leather: light armor stays on
    assert rule.must_remove(load_template("human-cleric-1"))


def test_the_armoured_fighter_crawls_no_sooner_than_ten_rounds_of_removal_allow():
    """Scale mail (RULES §2.4): the fighter walks to the mouth of the 2.5-ft crawlway, takes 10
    rounds over its armor, then crawls through unarmored: speed 30, AC 11, Escape Artist +3
    (armored: speed 20, AC 17, Escape Artist -3 with the heavy shield's penalty)."""
    enc = _fight()
    f = enc.creatures["f"]
    assert (f.block.speed.land, f.block.ac, f.block.escape_artist) == (20, 17, -3)
    enc.run(max_rounds=60)
    work = [e for e in enc.events if e.type == "armor" and e.actor == "f"]
    start, done = work[0], work[-1]
    assert (start.stage, start.rounds, start.helper) == ("start", 10, None)
    assert [e.stage for e in work] == ["start"] + ["work"] * 9 + ["done"]
    assert done.round == start.round + 9                       # 10 rounds of work, the first included
    crawls = [e for e in enc.events if e.type == "moved" and e.actor == "f"
              and any(s["category"] == "CRAWL" for s in e.path)]
    assert crawls and crawls[0].round >= start.round + 10     # not one square crawled armored
    before = [e for e in enc.events if e.type == "moved" and e.actor == "f" and e.round < start.round]
    assert all(s["category"] != "CRAWL" for e in before for s in e.path)
    far_end = next(e.round for e in enc.events if e.type == "moved" and e.actor == "f"
                   and any(s["at"] == [8, 1] for s in e.path))
    assert far_end >= start.round + 10 + 1                     # four squares of crawl, one a move action
    assert f.armor_off and f.block.armor is None and f.block.shield is None
    assert (f.block.speed.land, f.block.ac, f.block.escape_artist) == (30, 11, 3)
    assert f.base_block.armor.key == "scale-mail"             # dragged, not lost
    lines = Narrator({"f": "Bruna"}).lines(work[:2] + work[-1:])
    assert lines == ["Bruna starts taking off its scale mail before the tight way (10 rounds)",
                     "Bruna works at its scale mail (9 of 10 rounds left)",
                     "Bruna has its scale mail off and drags it behind"]


def test_entering_a_crawlway_in_armor_is_refused_with_the_reason():
    """RULES §2.4, §7.33: a move into the crawlway in scale mail stops at its mouth; from the
    mouth it is refused, and says why."""
    enc = _fight()
    c = _turn_of(enc, "f")
    assert enc.perform(Move((3, 1)))
    res = enc.perform(Move((6, 1)))
    assert isinstance(res, Impossible)
    assert res.reason == ("F must take off her scale mail before entering Crawl-Navigable at (4, 1) "
                          "(RULES §2.4, §7.33): 1 minute of work, half with an ally's help")
    assert c.pos == (3, 1) and not c.armor_off


def test_the_move_goes_around_when_an_armored_way_exists():
    """The crawlway is a short cut; the long way round is open: the armored fighter takes it."""
    rows = ["#############",
            "#...cccc....#",
            "#.######....#",
            "#...........#",
            "#############"]
    enc = _fight(rows=rows, goblin=(11, 1))
    c = _turn_of(enc, "f")
    assert enc.perform(Move((9, 1), double=True))
    moved = [e for e in enc.events if e.type == "moved" and e.actor == "f"]
    assert all(s["category"] == "CLEAR" for e in moved for s in e.path)
    assert c.pos[1] == 3  # down the open side (speed 20: 8 squares of a double move)


def test_full_plate_takes_1d4_plus_1_minutes_by_the_seeded_die():
    """RULES §2.4: half-plate and full plate 1d4+1 minutes, rolled with the fight's generator."""
    for seed in (1, 2, 5):
        enc = _fight(seed=seed)
        c = _turn_of(enc, "f")
        c.block = c.base_block = with_loadout(c.block, armor="full-plate")
        roll = Dice(1, 4, 1).roll(copy.deepcopy(enc.rng))
        assert enc.perform(RemoveArmor())
        start = next(e for e in enc.events if e.type == "armor")
        assert start.rounds == roll * 10 and 20 <= start.rounds <= 50
        assert c.armor_work == start.rounds - 1


def test_full_plate_seed_one_is_fifty_rounds():
    enc = _fight(seed=1)
    c = _turn_of(enc, "f")
    c.block = c.base_block = with_loadout(c.block, armor="full-plate")
    enc.perform(RemoveArmor())
    assert next(e for e in enc.events if e.type == "armor").rounds == FULL_PLATE_SEED_1


FULL_PLATE_SEED_1 = 50  # the seeded 1d4 rolled a 4


def test_an_unarmored_ally_beside_it_halves_the_time_and_is_busy_as_long():
    """RULES §2.4 "halve with help": 5 rounds for scale mail; the helper (a halfling rogue in
    leather, no armor of its own to change) spends the same turns helping."""
    enc = _fight(extra=[{"id": "r", "template": "halfling-rogue-1", "team": "party", "at": (2, 1)}])
    f = _turn_of(enc, "f")
    assert enc.perform(RemoveArmor(helper="r"))
    enc.end_turn()
    rounds_done = None
    while not f.armor_off:
        c = enc.begin_turn()
        if c is not None and not enc.turn.ended and c.id != "g":
            raise AssertionError(f"{c.id} acted while the armor was coming off")
        enc.end_turn()
        rounds_done = enc.round
    work = [e for e in enc.events if e.type == "armor"]
    start = work[0]
    assert (start.rounds, start.helper) == (5, "r")
    assert [e.stage for e in work if e.actor == "f"] == ["start", "work", "work", "work", "work", "done"]
    assert [e.stage for e in work if e.actor == "r"] == ["help"] * 4 or [e.stage for e in work if e.actor == "r"] == ["help"] * 5
    assert rounds_done == start.round + 4 and enc.creatures["r"].helping is None
    assert Narrator({"f": "Bruna", "r": "Lidda"}).line(next(e for e in work if e.actor == "r")).startswith(
        "Lidda helps Bruna with the straps")


def test_a_helper_with_armor_of_its_own_helps_nobody():
    enc = _fight(extra=[{"id": "j", "template": "human-cleric-1", "team": "party", "at": (2, 1)}])
    _turn_of(enc, "f")
    res = enc.perform(RemoveArmor(helper="j"))
    assert isinstance(res, Impossible)
    assert res.reason == "J has armor of his own to change: helps nobody (RULES §2.4)"
    far = enc.perform(RemoveArmor(helper="g"))
    assert isinstance(far, Impossible) and "cannot help" in far.reason


def test_nothing_to_take_off_and_only_as_a_full_round_action():
    enc = _fight(extra=[{"id": "r", "template": "halfling-rogue-1", "team": "party", "at": (2, 1)}])
    _turn_of(enc, "f")
    assert enc.perform(Move((3, 1)))
    res = enc.perform(RemoveArmor())
    assert isinstance(res, Impossible) and res.reason == "needs a full-round action (nothing else this turn)"
    enc.end_turn()
    _turn_of(enc, "r")
    res = enc.perform(RemoveArmor())
    assert isinstance(res, Impossible) and res.reason == "R wears no medium or heavy armor to take off"


def test_a_wearer_who_falls_loses_the_work():
    enc = _fight()
    f = _turn_of(enc, "f")
    enc.perform(RemoveArmor())
    enc.end_turn()
    f.set_status("unconscious")
    _turn_of(enc, "f")
    stopped = [e for e in enc.events if e.type == "armor"][-1]
    assert stopped.stage == "stopped" and f.armor_work == 0 and not f.armor_off
    assert Narrator({"f": "Bruna"}).line(stopped) == "Bruna stops taking off its scale mail: the work is lost"


def test_a_snapshot_mid_removal_plays_on_the_same():
    """The work in progress (rounds left, helper) goes round a snapshot (sim.engine.saved.snapshot)."""
    path = maps_dir() / "fissure_hold.toml"
    spec = load_encounter(path)
    straight = new_encounter(spec, seed=2)
    straight.run()
    assert any(e.type == "armor" and e.stage == "start" for e in straight.events)
    w = new_encounter(spec, seed=2)
    w.start()
    while not any(c.armor_work for c in w.creatures.values()):
        assert w.advance()
    busy = next(c for c in w.creatures.values() if c.armor_work)
    back = S.load_text(S.dumps(w, encounter_file=path), spec, policy=default_policy)
    again = back.creatures[busy.id]
    assert (again.armor_work, again.armor_total, again.armor_helper) == (busy.armor_work, busy.armor_total,
                                                                         busy.armor_helper)
    back.run()
    assert dumps(back.events) == dumps(straight.events)


@pytest.mark.parametrize("stage", ["start", "work", "help", "done", "stopped"])
def test_the_view_model_follows_the_armor(stage):
    from sim.engine import events as ev
    from sim.view.model import ViewModel

    m = ViewModel()
    m.apply(ev.EncounterStart(round=0, map="m", seed=1, cols=3, rows=3, combatants=(
        {"id": "f", "name": "F", "template": "human-fighter-1", "team": "party", "size": "medium",
         "squares": [[1, 1]], "hp": 10, "max_hp": 10, "swarm": False, "speed": 20},)))
    m.apply(ev.ArmorWork(round=1, actor="f", stage=stage, armor="scale-mail", rounds=10, left=7))
    cv = m.creatures["f"]
    assert cv.armor_off == (stage == "done")
    assert cv.armor_progress == pytest.approx({"start": 0.3, "work": 0.3}.get(stage, 0.0))


def test_the_ai_goes_around_when_that_is_quicker_than_the_armor():
    """The AI weighs the removal (10 rounds = 20 move actions) against the way round in armor
    (a few move actions here): it goes round, armored, and never starts on its scale mail."""
    rows = ["#############",
            "#...cccc....#",
            "#.######....#",
            "#...........#",
            "#############"]
    enc = _fight(rows=rows, goblin=(11, 1))
    enc.run(max_rounds=20)
    assert not [e for e in enc.events if e.type == "armor"]
    f_moves = [s for e in enc.events if e.type == "moved" and e.actor == "f" for s in e.path]
    assert f_moves and all(s["category"] == "CLEAR" for s in f_moves)
    assert enc.winner == "party" and not enc.creatures["f"].armor_off


def test_the_ai_takes_the_armor_off_when_the_way_round_is_longer():
    """A way round of some 140 squares (speed 20 in armor: 4 squares a move action, over 30 move
    actions) loses to the 10-round removal (20 move actions) and a 4-square crawl."""
    rows = ["#" * 80,
            "#...cccc" + "." * 71 + "#",
            "#.######" + "#" * 70 + ".#",
            "#" + "." * 78 + "#",
            "#" * 80]
    enc = _fight(rows=rows, goblin=(12, 1))
    f = enc.creatures["f"]
    enc.run(max_rounds=25)
    stages = [e.stage for e in enc.events if e.type == "armor" and e.actor == "f"]
    assert stages[:1] == ["start"] and "done" in stages
    assert max(x for e in enc.events if e.type == "moved" and e.actor == "f" for x, _ in [s["at"] for s in e.path]) <= 12
    assert f.armor_off


_HEAVY = sorted(k for k, a in _armor_tables()[0].items() if a.kind in ("medium", "heavy"))


@settings(max_examples=60, deadline=None)
@given(key=st.sampled_from(_HEAVY), helped=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_every_roll_lies_in_the_range_and_help_halves_it(key, helped, seed):
    """RULES §2.4: any medium or heavy armor's removal, rolled, is within its (fewest, most)
    rounds; help halves both ends; 1 minute is 10 rounds, 1d4+1 minutes 20 to 50."""
    a = _armor_tables()[0][key]
    lo, hi = rule.removal_rounds_range(a, helped=helped)
    r = rule.minutes_to_rounds(rule.removal_minutes(a, np.random.default_rng(seed), helped=helped))
    assert lo <= r <= hi
    alone = rule.removal_rounds_range(a)
    assert alone in ((10, 10), (20, 50)) and (lo, hi) == ((alone[0] // 2, alone[1] // 2) if helped else alone)


def test_placed_in_a_crawlway_it_got_there_with_its_armor_off():
    """An encounter file that puts a fighter in scale mail inside a crawlway: it lies there
    (prone) with its armor off (RULES §2.4, §7.33), free to crawl on."""
    enc = _fight(extra=[])
    assert not enc.creatures["f"].armor_off
    inside = encounter(CRAWLWAY, [{"id": "f", "template": "human-fighter-1", "team": "party", "at": (5, 1)},
                                  {"id": "g", "template": "goblin", "team": "monsters", "at": (10, 1)}])
    f = inside.creatures["f"]
    assert f.prone and f.armor_off and f.block.armor is None and f.base_block.armor.key == "scale-mail"
