"""Sight decides the fight (issue 16 items 3-4; RULES §9.2-9.3, §5.4, §6.6, §4.3)."""

from __future__ import annotations

import dataclasses

from sim.engine import attacks, moves
from sim.engine.actions import Cast, DropLight, Impossible, Move, Turn
from sim.engine.ai.decide import default_policy
from sim.engine.fight import new_encounter
from sim.engine.swarms import swarm_attack
from sim.engine.events import Attack, Damage
from sim.terrain.grid import MapLight
from sim.story.log import Narrator
from tests.engine.helpers import ready, spec

ROWS = ["##########", "#........#", "#........#", "##########"]


def fight(combatants, *, lights=(), rows=ROWS, seed=1, **settings):
    s = spec(rows, combatants, seed=seed, vision=True, **settings)
    s = dataclasses.replace(s, grid=s.grid.replace(lights=tuple(lights)))
    return ready(new_encounter(s))


def sure_hit(enc, a, t):
    att = attacks.melee_in_hand(a) or attacks.first_melee(a)
    plan = attacks.plan_attack(enc, a, att, t, bonus_override=60)
    assert not isinstance(plan, Impossible), plan
    mark = len(enc.events)
    attacks.resolve_attack(enc, plan)
    return next(e for e in enc.events[mark:] if isinstance(e, Attack))


HUMAN = {"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [2, 1]}
GOBLIN = {"id": "gob", "template": "goblin", "team": "monsters", "at": [3, 1]}


def test_attack_into_shadowy_light_has_20_percent_with_the_event_fields():
    candle = MapLight(at=(2, 1), bright_ft=0, shadowy_ft=5)          # shadowy on both squares
    results = []
    for seed in range(12):
        enc = fight([HUMAN, GOBLIN], lights=[candle], seed=seed)
        # the goblin's darkvision ignores the shadows
        back = sure_hit(enc, enc.creatures["gob"], enc.creatures["bruna"])
        assert (back.concealment, back.miss_chance, back.miss_roll) == ("none", 0, None)
        e = sure_hit(enc, enc.creatures["bruna"], enc.creatures["gob"])
        assert (e.concealment, e.miss_chance) == ("concealment", 20)
        if e.roll == 1:                    # a natural 1 misses: nothing to roll after it
            assert e.miss_roll is None and not e.hit
            continue
        assert e.miss_roll is not None and 1 <= e.miss_roll <= 100
        assert e.hit == (e.miss_roll > 20)
        results.append(e.hit)
    assert any(results)


def test_attack_into_darkness_has_50_percent_and_the_log_line():
    lines = []
    for seed in range(20):
        enc = fight([HUMAN, GOBLIN], seed=seed)
        e = sure_hit(enc, enc.creatures["bruna"], enc.creatures["gob"])
        assert (e.concealment, e.miss_chance) == ("total", 50)
        if e.roll == 1:
            continue
        assert e.hit == (e.miss_roll > 50)
        lines.append(Narrator({"bruna": "Bruna", "gob": "Gob"}).line(e))
    missed = [ln for ln in lines if "misses in the dark" in ln]
    assert missed and all(ln.endswith(")") for ln in missed)
    assert any("hit, but misses in the dark (50%: rolled" in ln for ln in missed)


def test_light_removes_the_miss_chance():
    torch = MapLight(at=(2, 1), bright_ft=20, shadowy_ft=40)
    enc = fight([HUMAN, GOBLIN], lights=[torch])
    e = sure_hit(enc, enc.creatures["bruna"], enc.creatures["gob"])
    assert (e.concealment, e.miss_chance, e.miss_roll) == ("none", 0, None)


def test_blinded_in_the_dark_no_dex_minus_2_ac():
    enc = fight([HUMAN, GOBLIN])
    bruna, gob = enc.creatures["bruna"], enc.creatures["gob"]
    assert enc.blinded(bruna) and not enc.blinded(gob)
    assert attacks.loses_dex(enc, bruna) == "blinded"
    ac, parts = attacks.target_ac(enc, gob, bruna, ranged=False)
    assert parts["blinded"] == -2 and "no_dex:blinded" in parts
    lit = fight([HUMAN, GOBLIN], lights=[MapLight(at=(2, 1), bright_ft=20, shadowy_ft=40)])
    ac_lit, parts_lit = attacks.target_ac(lit, lit.creatures["gob"], lit.creatures["bruna"], ranged=False)
    assert "blinded" not in parts_lit and ac_lit - ac >= 2


def test_a_blinded_mover_pays_double():
    rows = ["#" * 16, "#" + "." * 14 + "#", "#" * 16]
    far = {"id": "gob", "template": "goblin", "team": "monsters", "at": [14, 1]}
    dark = fight([{**HUMAN, "at": [1, 1]}, far], rows=rows)
    bruna = dark.creatures["bruna"]
    speed = bruna.speed_ft_value()         # 20 ft in her breastplate
    steps = moves.movement_plan(dark, bruna, (13, 1), budget=1)
    assert len(steps) == speed // 10       # each foot paid twice: half speed
    lit = fight([{**HUMAN, "at": [1, 1]}, far], rows=rows, lights=[MapLight(at=(1, 1), bright_ft=100, shadowy_ft=200)])
    assert len(moves.movement_plan(lit, lit.creatures["bruna"], (13, 1), budget=1)) == speed // 5


def test_no_attack_of_opportunity_against_total_concealment():
    # the human fighter in the dark threatens the goblin, but cannot see it: no attack of opportunity
    enc = fight([HUMAN, GOBLIN])
    assert enc.miss_chance(enc.creatures["bruna"], enc.creatures["gob"]) == 50
    assert not attacks.attack_of_opportunity(enc, enc.creatures["bruna"], enc.creatures["gob"], "leaving")
    lit = fight([HUMAN, GOBLIN], lights=[MapLight(at=(2, 1), bright_ft=20, shadowy_ft=40)])
    assert attacks.attack_of_opportunity(lit, lit.creatures["bruna"], lit.creatures["gob"], "leaving")


def test_a_bat_swarm_hits_in_the_dark_without_a_miss_chance():
    bats = {"id": "bats", "template": "bat-swarm", "team": "monsters", "at": [2, 1]}
    enc = fight([HUMAN, bats])
    b, h = enc.creatures["bats"], enc.creatures["bruna"]
    assert enc.locates(b, h)              # blindsense 20 ft (RULES §9.2)
    mark = len(enc.events)
    swarm_attack(enc, b)
    evs = enc.events[mark:]
    assert any(isinstance(e, Damage) and e.target == "bruna" and e.cause == "swarm" for e in evs)
    assert not any(isinstance(e, Attack) for e in evs)


def test_magic_missile_needs_sight():
    wiz = {"id": "mialee", "template": "elf-wizard-3", "team": "party", "at": [1, 1]}
    gob = {"id": "gob", "template": "goblin", "team": "monsters", "at": [8, 2]}
    enc = fight([wiz, gob])
    enc.turn = Turn(actor="mialee")
    r = enc.perform(Cast("magic-missile", target="gob"))
    assert isinstance(r, Impossible) and "magic missile needs sight" in r.reason
    lit = fight([wiz, gob], lights=[MapLight(at=(8, 2), bright_ft=5, shadowy_ft=10)])
    lit.turn = Turn(actor="mialee")
    assert not isinstance(lit.perform(Cast("magic-missile", target="gob")), Impossible)


def test_a_dropped_torch_keeps_lighting_its_square():
    enc = fight([{**HUMAN, "lit": True, "items": {"torch": 1}}, {**GOBLIN, "at": [8, 1]}])
    bruna = enc.creatures["bruna"]
    assert bruna.torch_lit and not enc.blinded(bruna)
    enc.turn = Turn(actor="bruna")
    assert not isinstance(enc.perform(DropLight()), Impossible)
    assert not bruna.torch_lit and [d.item for d in enc.floor.lights] == ["torch"]
    assert not enc.blinded(bruna)          # the torch on the floor still lights her square
    assert isinstance(enc.perform(DropLight()), Impossible)


def test_the_ai_drops_its_torch_to_fight_with_sword_and_shield():
    enc = fight([{**HUMAN, "lit": True, "items": {"torch": 1}}, GOBLIN])
    bruna = enc.creatures["bruna"]
    assert bruna.block.shield is not None
    enc.turn = Turn(actor="bruna")
    act = default_policy(enc, bruna, enc.turn)
    assert isinstance(act, DropLight)


def test_the_ai_targets_what_its_side_perceives_and_remembers_where():
    rows = ["#" * 32] + ["#" + "." * 30 + "#"] * 3 + ["#" * 32]
    enc = fight([{**HUMAN, "at": [1, 1], "lit": True, "items": {"torch": 1}},
                 {"id": "gob", "template": "goblin", "team": "monsters", "at": [29, 1]}], rows=rows)
    gob, bruna = enc.creatures["gob"], enc.creatures["bruna"]
    assert enc.side_perceives("monsters", bruna) == 3 and enc.side_perceives("party", gob) == 0
    enc.turn = Turn(actor="gob")
    default_policy(enc, gob, enc.turn)
    assert enc.memory.last_seen["monsters"]["bruna"] == (1, 1)
    # bruna's torch goes out and she slips away in the dark: the goblin goes where it last saw her
    bruna.torch_lit = False
    enc.place(bruna, (9, 1))
    assert enc.side_perceives("monsters", bruna) == 0
    enc.turn = Turn(actor="gob")
    act = default_policy(enc, gob, enc.turn)
    assert isinstance(act, Move) and act.to == (1, 1)


def test_vision_off_is_full_sight():
    s = spec(ROWS, [HUMAN, GOBLIN], vision=False)
    enc = ready(new_encounter(s))
    e = sure_hit(enc, enc.creatures["bruna"], enc.creatures["gob"])
    assert (e.concealment, e.miss_chance, e.miss_roll) == ("none", 0, None)
    assert not enc.blinded(enc.creatures["bruna"])
