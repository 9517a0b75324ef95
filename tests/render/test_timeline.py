"""Events map to the right animations (the director's queue), with the view model updated."""

from __future__ import annotations

import pytest

from sim.engine import events as ev
from sim.view import timeline as tl
from sim.view.model import ViewModel

START = ev.EncounterStart(round=0, map="m", seed=1, cols=10, rows=6, combatants=(
    {"id": "bruna", "name": "Bruna", "template": "human-fighter-3", "team": "party", "size": "medium",
     "squares": [[1, 1]], "hp": 28, "max_hp": 28, "swarm": False, "speed": 20},
    {"id": "gob", "name": "Goblin", "template": "goblin", "team": "monsters", "size": "small",
     "squares": [[3, 1]], "hp": 5, "max_hp": 5, "swarm": False, "speed": 30},
    {"id": "rats", "name": "Rats", "template": "rat-swarm", "team": "monsters", "size": "tiny",
     "squares": [[5, 1], [6, 1], [5, 2], [6, 2]], "hp": 18, "max_hp": 18, "swarm": True, "component": "tiny",
     "speed": 15},
))


def attack(**kw) -> ev.Attack:
    base = dict(round=1, actor="bruna", target="gob", weapon="longsword", roll=14, modifiers={"base_attack": 3},
                total=17, ac=15, ac_modifiers={"base": 10}, hit=True, critical=False)
    base.update(kw)
    return ev.Attack(**base)


def run(*events, speed: float = 1.0) -> tl.Director:
    d = tl.Director(ViewModel(), speed=speed)
    d.feed([START, *events])
    for _ in range(60 * 30):
        d.update(1 / 60)
        if d.idle():
            break
    return d


def kinds(d: tl.Director, skip=("title",)) -> list[str]:
    return [a.kind for a in d.created if a.kind not in skip]


def test_move_follows_the_path_square_by_square():
    path = ({"at": [2, 1], "category": "CLEAR", "kind": "walk", "feet": 5},
            {"at": [2, 2], "category": "CRAWL", "kind": "crawl", "feet": 5},
            {"at": [3, 3], "category": "CLEAR", "kind": "walk", "feet": 10})
    d = run(ev.Moved(round=1, actor="bruna", path=path, squares=((3, 3),), prone=True, action="double_move"))
    (move,) = [a for a in d.created if a.kind == tl.MOVE]
    assert move.actor == "bruna"
    assert move.data["points"] == [(1.5, 1.5), (2.5, 1.5), (2.5, 2.5), (3.5, 3.5)]
    steps = [b - a for a, b in zip(move.data["times"], move.data["times"][1:])]
    assert steps[1] > 2 * steps[0]          # crawling a square takes longer than walking one
    assert steps[2] > steps[0]              # a 10-ft diagonal longer than a 5-ft step
    assert d.model.creatures["bruna"].squares == [(3, 3)] and d.model.creatures["bruna"].prone


def test_a_hit_lunges_and_flashes_a_miss_shows_a_miss_a_critical_is_marked():
    d = run(attack())
    assert kinds(d) == [tl.LUNGE, tl.FLASH]
    flash = d.created[-1]
    lunge = d.created[-2]
    assert flash.target == "gob" and lunge.actor == "bruna" and flash.t0 > lunge.t0
    assert kinds(run(attack(hit=False))) == [tl.LUNGE, tl.MISS]
    assert kinds(run(attack(critical=True))) == [tl.LUNGE, tl.FLASH, tl.CRIT]


def test_torch_swing_has_fire_and_ranged_attacks_fly():
    assert tl.TORCH_SWING in kinds(run(attack(weapon="torch")))
    assert kinds(run(attack(weapon="light-crossbow", kind="ranged"))) == [tl.PROJECTILE, tl.FLASH]


def test_damage_floats_its_number_and_swarm_damage_ticks():
    d = run(attack(), ev.Damage(round=1, target="gob", amount=7, parts={"slashing": 7}, source="bruna",
                                cause="weapon", hp_before=5, hp_after=-2))
    (f,) = [a for a in d.created if a.kind == tl.FLOAT]
    assert f.target == "gob" and f.data["text"] == "7" and f.data["tone"] == "damage"
    assert d.model.creatures["gob"].hp == -2
    d = run(ev.Damage(round=1, target="bruna", amount=4, parts={"swarm": 4}, source="rats", cause="swarm",
                      hp_before=28, hp_after=24))
    assert kinds(d) == [tl.FLOAT, tl.SWARM_TICK]
    assert d.created[-2].data["tone"] == "swarm"


def test_thrown_lantern_arcs_then_burns_the_squares_it_hits():
    d = run(attack(weapon="hooded-lantern", kind="ranged_touch", target=""),
            ev.Splash(round=1, actor="bruna", item="hooded-lantern", at=(5, 1), intersection=True,
                      squares=((4, 0), (5, 0), (4, 1), (5, 1)), direct=None, hit=True))
    assert tl.PROJECTILE not in kinds(d)     # the arc is the flight
    arc = next(a for a in d.created if a.kind == tl.ARC)
    fire = next(a for a in d.created if a.kind == tl.FIRE)
    assert arc.data["to"] == (5.0, 1.0)      # a grid intersection is a corner, not a square's centre
    assert fire.t0 == pytest.approx(arc.end) and fire.data["squares"] == [(4, 0), (5, 0), (4, 1), (5, 1)]


def test_swarm_reshapes_engulfs_and_disperses():
    d = run(ev.SwarmShape(round=1, actor="rats", squares=((4, 1), (5, 1), (4, 2), (5, 2))),
            ev.Engulf(round=1, actor="rats", targets=("gob",), squares=((4, 1),)),
            ev.Dispersed(round=1, target="rats", at=((4, 1),)))
    assert kinds(d) == [tl.RESHAPE, tl.ENGULF, tl.SCATTER, tl.FLOAT]
    rats = d.model.creatures["rats"]
    assert rats.squares == [(4, 1), (5, 1), (4, 2), (5, 2)] and not rats.alive


def test_cards_deaths_conditions_spells_and_checks():
    d = run(ev.RoundStart(round=1), ev.TurnStart(round=1, actor="bruna"),
            ev.Condition(round=1, target="bruna", condition="nauseated", active=True),
            ev.Check(round=1, actor="bruna", skill="escape_artist", dc=15, roll=3, modifier=0, total=3, success=False),
            ev.SpellCast(round=1, actor="bruna", spell="magic-missile", targets=("gob",), squares=()),
            ev.Died(round=1, target="gob", at=((3, 1),)),
            ev.EncounterEnd(round=1, winner="party", reason="victory", survivors=()))
    k = [a.kind for a in d.created]
    assert k[0] == tl.TITLE
    for want in (tl.BANNER, tl.FOCUS, tl.BADGE, tl.STUCK, tl.SPELL, tl.DEATH, tl.END):
        assert want in k
    assert "nauseated" in d.model.creatures["bruna"].conditions
    assert "dead" in d.model.creatures["gob"].conditions
    assert d.model.finished and d.model.winner == "party"


def test_events_start_one_after_another_and_speed_scales_the_clock():
    evs = [attack(), attack(hit=False)]
    slow, fast = run(*evs), run(*evs, speed=2.0)
    t_slow = [a.t0 for a in slow.created if a.kind == tl.LUNGE]
    t_fast = [a.t0 for a in fast.created if a.kind == tl.LUNGE]
    assert t_slow[1] > t_slow[0]
    assert t_slow == pytest.approx(t_fast)   # speed changes how fast the clock runs, not the schedule
    d = tl.Director(ViewModel(), speed=2.0)
    d.feed([START])
    d.update(1.0)
    assert d.t == pytest.approx(2.0)


def test_paused_director_does_not_advance():
    d = tl.Director(ViewModel(), speed=0.0)
    d.feed([START, attack()])
    for _ in range(100):
        d.update(1 / 60)
    assert d.t == 0 and len(d.queue) == 1   # only the first event has started
