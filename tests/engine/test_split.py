"""Split (Ex): the ochre jelly and the black pudding (docs/rules.md §11.14), with exact numbers:
slashing and piercing weapons (and the jelly's electricity) split the ooze instead of hurting it,
each half with half its current hit points; at 10 hp or less it takes the damage and dies at 0.
The new half joins the fight everywhere a creature is: initiative, saved games, the log, the
renderer and the Monte Carlo records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sim
from sim.base.errors import DataError
from sim.cli import main
from sim.engine.actions import Cast, Draw, Move, Strike
from sim.engine.ai.decide import default_policy
from sim.engine.ai.spells import area_spell
from sim.engine.damage import DamagePart, deal_damage
from sim.engine.events import dumps, read_jsonl
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot as S
from sim.engine.split import split_by, splits_with
from sim.rules.statblocks import load_template
from sim.scenario.files import load_encounter
from sim.story.log import Narrator
from sim.view.model import ViewModel
from sim.view.timeline import Director
from tests.engine.helpers import encounter, ready
from tests.engine.snapshot_files import old_file
from tests.engine.test_grapple import Fixed, turn_of
from tests.engine.test_spells import Fixed as Repeat

ROOM = ["........", "........", "........", "........"]


def duel(rows=ROOM, *, hp=None, ooze="ochre-jelly", weapon=None, **kw):
    enc = ready(encounter(rows, [{"id": "j", "template": ooze, "team": "m", "at": [0, 0]},
                                 {"id": "f", "template": "human-fighter-1", "team": "p", "at": [2, 0],
                                  "weapon": weapon}], **kw))
    j = enc.creatures["j"]
    if hp is not None:
        j.hp = hp
    return enc, j, enc.creatures["f"]


def strike(enc, weapon, rolls):
    """The fighter strikes the jelly with ``weapon``: the d20 and the damage dice given."""
    return strike_at(enc, "j", weapon, rolls)


def strike_at(enc, target, weapon, rolls):
    turn_of(enc, "f").wielding = weapon
    enc.rng = Fixed(rolls)
    mark = len(enc.events)
    assert enc.perform(Strike(target, weapon))
    return enc.events[mark:]


def of(events, kind):
    return [e for e in events if e.type == kind]


# -- the rule ------------------------------------------------------------------------------------------------------

def test_a_longsword_hit_splits_a_40_hp_ochre_jelly_into_two_of_20():
    enc, j, f = duel(hp=40)
    events = strike(enc, "longsword", [15, 5])          # hits AC 4; 1d8+2 = 7 slashing
    (dmg,) = of(events, "damage")
    assert (dmg.amount, dmg.parts, dmg.adjustments, dmg.hp_after) == (0, {"slashing": 7}, {"split": -7}, 40)
    (sp,) = of(events, "split")
    assert (sp.target, sp.new, sp.hp_before, sp.hp, sp.source) == ("j", "j.a", 40, 20, "f")
    half = enc.creatures["j.a"]
    assert (j.hp, half.hp) == (20, 20)
    assert (j.max_hp, half.max_hp) == (34, 34)          # 69 // 2: the bar shows the same wound
    assert half.template == "ochre-jelly" and half.team == "m" and half.split_round == 1
    assert not set(half.squares) & (set(j.squares) | set(f.squares)) and len(half.squares) == 4
    assert sp.creature["id"] == "j.a" and sp.creature["hp"] == 20
    assert enc.order.index("j.a") == enc.order.index("j") + 1


def test_a_dagger_pierces_and_splits_and_a_half_splits_again_with_its_own_id():
    enc, j, f = duel(hp=40)
    strike(enc, "longsword", [15, 5])
    strike(enc, "dagger", [15, 2])                       # the dagger, piercing or slashing: both split
    assert (j.hp, enc.creatures["j.b"].hp) == (10, 10)
    half = enc.creatures["j.a"]
    events = strike_at(enc, "j.a", "longsword", [15, 3])
    assert of(events, "split")[0].new == "j.a.a" and half.hp == 10 and enc.creatures["j.a.a"].hp == 10


def test_a_10_hp_jelly_is_not_split_it_takes_the_damage_and_dies_at_0():
    enc, j, f = duel(hp=11)
    strike(enc, "longsword", [15, 1])                    # 3 slashing: 11 > 10 splits it, 5 and 5
    assert (j.hp, enc.creatures["j.a"].hp) == (5, 5)
    enc, j, f = duel(hp=10)
    events = strike(enc, "longsword", [15, 8])           # 10 slashing on a 10-hp jelly
    assert not of(events, "split") and of(events, "damage")[0].amount == 10
    assert j.hp == 0 and "dead" in j.conditions and of(events, "died")    # not disabled: dead at 0
    assert list(enc.creatures) == ["j", "f"]


def test_a_bludgeoning_hit_damages_it_normally():
    enc, j, f = duel(hp=40, weapon="heavy-mace")
    events = strike(enc, "heavy-mace", [15, 6])          # 1d8+2 = 8 bludgeoning
    assert not of(events, "split") and of(events, "damage")[0].amount == 8 and j.hp == 32
    assert list(enc.creatures) == ["j", "f"]


def test_electricity_splits_the_ochre_jelly_but_not_the_black_pudding():
    enc, j, f = duel(hp=40)
    deal_damage(enc, j, [DamagePart(12, "electricity", "energy")], source=f, cause="spell")
    assert (j.hp, enc.creatures["j.a"].hp) == (20, 20)
    enc, p, f = duel(ROOM + ["........"], hp=40, ooze="black-pudding")
    deal_damage(enc, p, [DamagePart(12, "electricity", "energy")], source=f, cause="spell")
    assert p.hp == 28 and list(enc.creatures) == ["j", "f"]
    deal_damage(enc, p, [DamagePart(6, "slashing", "weapon", types=("slashing",))], source=f, cause="weapon")
    assert (p.hp, enc.creatures["j.a"].hp) == (14, 14)
    assert len(enc.creatures["j.a"].squares) == 9       # a Huge half: 3 x 3


def test_which_weapons_split_it():
    jelly, pudding = load_template("ochre-jelly"), load_template("black-pudding")
    assert jelly.defenses.split == ("slashing", "piercing", "electricity")
    assert pudding.defenses.split == ("slashing", "piercing")
    enc, j, f = duel(hp=40)

    def part(types, join="single", kind="weapon"):
        return [DamagePart(5, types[0], kind, types=types, join=join)]

    assert split_by(j, part(("piercing",))) and split_by(j, part(("slashing",)))
    assert split_by(j, part(("bludgeoning", "piercing"), "and"))          # morningstar: both at once
    assert split_by(j, part(("piercing", "slashing"), "or"))              # dagger: either splits
    assert not split_by(j, part(("bludgeoning", "piercing"), "or"))       # it can deal bludgeoning
    assert not split_by(j, part(("bludgeoning",)))
    assert not split_by(j, [DamagePart(5, "fire", "energy")])
    assert not split_by(f, part(("slashing",)))                           # a fighter does not split
    assert splits_with(j, f.attack_named("longsword"))
    j.hp = 10
    assert not splits_with(j, f.attack_named("longsword"))


def test_show_names_what_splits_it(capsys):
    assert main(["show", "ochre-jelly"]) == 0
    out = capsys.readouterr().out
    assert "split by slashing and piercing and electricity (docs/rules.md §11.14)" in out
    assert "Not simulated" not in out


def test_a_bad_split_entry_names_the_file_and_key(tmp_path):
    src = (Path(sim.__file__).parent / "data" / "monsters" / "ooze" / "black-pudding.toml").read_text(encoding="utf-8")
    bad = tmp_path / "pud.toml"
    bad.write_text(src.replace('split = ["slashing", "piercing"]', 'split = ["slashing", "fire"]'))
    with pytest.raises(DataError, match=r"pud.toml: \[defenses\] split: 'fire' cannot split a creature"):
        load_template(str(bad))


# -- in the fight ----------------------------------------------------------------------------------------------------

def test_the_new_half_acts_from_the_next_round_right_after_the_original():
    enc, j, f = duel(hp=40)
    strike(enc, "longsword", [15, 5])
    enc.end_turn()
    acted = []
    enc.policy = lambda w, c, t: None
    while enc.round < 3 and not enc.finished:
        c = enc.begin_turn()
        if c is not None:
            acted.append((enc.round, c.id))
        enc.end_turn()
    assert (1, "j.a") not in acted
    r2 = [cid for r, cid in acted if r == 2]
    assert r2.index("j.a") == r2.index("j") + 1


def test_an_ooze_split_by_an_attack_of_opportunity_stops_where_it_is():
    enc, j, f = duel(hp=40)
    turn_of(enc, "j")
    enc.rng = Fixed([15, 5])                             # the fighter's attack of opportunity: 7 slashing
    mark = len(enc.events)
    assert enc.perform(Move(to=(0, 2)))
    events = enc.events[mark:]
    assert [e.type for e in events][:3] == ["attack", "damage", "split"]
    assert j.pos == (0, 0) and not of(events, "moved") and (j.hp, enc.creatures["j.a"].hp) == (20, 20)


def test_no_room_for_the_other_half_it_cannot_split_and_is_hurt():
    rows = ["...#", "...#", "####"]
    enc, j, f = duel(rows, hp=40)
    events = strike(enc, "longsword", [15, 5])
    assert not of(events, "split") and j.hp == 33 and list(enc.creatures) == ["j", "f"]


def test_the_ai_draws_a_weapon_that_hurts_the_ooze():
    enc, j, f = duel(hp=40, weapon="heavy-mace")
    f.wielding = "longsword"
    turn_of(enc, "f")
    assert default_policy(enc, f, enc.turn) == Draw("heavy-mace")
    f.wielding = "heavy-mace"
    j.hp = 10                       # it can no longer split: its Weapon Focus sword is better again
    assert default_policy(enc, f, enc.turn) == Draw("longsword")


def test_the_log_the_renderer_and_the_timeline_show_the_new_half():
    enc, j, f = duel(hp=40)
    strike(enc, "longsword", [15, 5])
    lines = Narrator({"j": "Ochre jelly", "f": "Bruna"}).lines(enc.events)
    assert "  Ochre jelly splits in two: Ochre jelly and j.a, 20 hp each" in lines
    m = ViewModel()
    for e in enc.events:
        m.apply(e)
    half = m.creatures["j.a"]
    assert (half.label, half.hp, half.max_hp, half.k, half.team) == ("J (a)", 20, 34, 2, "m")
    assert m.creatures["j"].hp == 20 and m.order.index("j.a") == m.order.index("j") + 1
    d = Director(ViewModel())
    d.feed(enc.events)
    for _ in range(400):
        d.update(0.05)
    assert any(a.target == "j.a" and a.data.get("text") == "20 hp" for a in d.created)


# -- files: encounters, logs, snapshots, batches -----------------------------------------------------------------------

ENCOUNTER = """
[encounter]
name = "Jelly room"
seed = 4

[map]
name = "Jelly room"
units = "ft"
grid = \"\"\"
##########
#........#
#........#
#........#
#........#
##########
\"\"\"

[legend]
"#" = "wall"
"." = { width = 30, height = 16 }

[[combatant]]
id = "bruna"
template = "human-fighter-5"
team = "party"
at = [4, 2]

[[combatant]]
template = "ochre-jelly"
team = "oozes"
at = [6, 2]
"""


def _jelly_room(tmp_path):
    path = tmp_path / "jelly.toml"
    path.write_text(ENCOUNTER)
    return path


def test_a_fight_log_with_a_split_reads_back(tmp_path):
    path = _jelly_room(tmp_path)
    log = tmp_path / "f.jsonl"
    assert main(["fight", str(path), "--events", str(log), "--quiet"]) == 0
    events = list(read_jsonl(log))
    assert of(events, "split") and events[-1].type == "encounter_end"


def test_a_saved_game_with_a_split_ooze_round_trips(tmp_path):
    path = _jelly_room(tmp_path)
    spec = load_encounter(path)
    straight = new_encounter(spec)
    straight.run()
    assert of(straight.events, "split")
    w = new_encounter(spec)
    w.start()
    halves_saved = 0
    while True:   # saved and loaded after every step: the same fight as played straight through
        text = S.dumps(w, encounter_file=path)
        halves_saved += any("." in cid for cid in json.loads(text)["state"]["creatures"])
        w = S.load_text(text, spec, policy=default_policy)
        if not w.advance():
            break
    assert halves_saved and dumps(w.events) == dumps(straight.events)
    # a file that names a half of a creature that cannot split is refused
    data = json.loads(S.dumps(w, encounter_file=path))
    data["state"]["creatures"]["bruna.a"] = data["state"]["creatures"]["bruna"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(DataError, match="state.creatures: the creatures"):
        S.read_snapshot(bad, policy=default_policy, load_spec=load_encounter)


def test_a_schema_3_snapshot_still_loads(tmp_path, capsys):
    path = _jelly_room(tmp_path)
    snap = tmp_path / "s.json"
    assert main(["fight", str(path), "--save-at", "2", "--save", str(snap), "--quiet"]) == 0
    data = json.loads(snap.read_text())

    def strip(v):
        if isinstance(v, dict):
            fields = v.get("fields")
            if isinstance(fields, dict):
                fields.pop("split_round", None)
                fields.pop("split", None)
            for x in v.values():
                strip(x)
        elif isinstance(v, list):
            for x in v:
                strip(x)

    strip(data)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(old_file(data, 3)))    # as the cavesim of schema 3 wrote it
    capsys.readouterr()
    assert main(["fight", str(old), "--quiet"]) == 0
    old.write_text(json.dumps(data))
    assert main(["fight", str(old), "--quiet"]) == 2           # today's schema must have the fields
    assert "missing field(s)" in capsys.readouterr().err


def test_a_monte_carlo_batch_with_a_splitting_ooze_summarises(tmp_path, capsys):
    path = _jelly_room(tmp_path)
    out = tmp_path / "runs.csv"
    assert main(["fight", str(path), "--runs", "20", "--workers", "1", "--out", str(out)]) == 0
    assert "20 fights" in capsys.readouterr().out
    import csv
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 20 and "hp.ochre-jelly-1" in rows[0] and not any(".a" in k for k in rows[0])
    # the jelly and its halves as one creature: their hit points and maxima summed (69 // 2 = 34...)
    split_rows = [r for r in rows if int(r["maxhp.ochre-jelly-1"]) < 69]
    assert split_rows and all(int(r["hp.ochre-jelly-1"]) <= int(r["maxhp.ochre-jelly-1"]) for r in rows)
    assert all(r["alive.oozes"] == "1" for r in rows)


def test_a_lightning_bolt_splits_the_jelly_and_the_wizard_does_not_aim_one_at_jellies():
    hall = ["." * 26] * 7
    jellies = [{"id": "j1", "template": "ochre-jelly", "team": "m", "at": [5, 3]},
               {"id": "j2", "template": "ochre-jelly", "team": "m", "at": [9, 3]}]
    enc = ready(encounter(hall, [{"id": "w", "template": "elf-wizard-5", "team": "p", "at": [0, 3]}, *jellies]))
    w = turn_of(enc, "w")
    w.spells_left[3] = ["lightning-bolt"]       # (the shipped 5th-level wizard prepares fireball and haste)
    foes = [enc.creatures["j1"], enc.creatures["j2"]]
    assert area_spell(enc, w, foes) is None     # it would split both: worth nothing
    for j in foes:
        j.hp = 10                               # too small to split: the bolt hurts them now
    assert area_spell(enc, w, foes).spell == "lightning-bolt"
    for j in foes:
        j.hp = 40
    enc.rng = Repeat(20, 2)                     # concentration 20; every d6 2: 5d6 = 10; the saves fail
    mark = len(enc.events)
    assert enc.perform(Cast("lightning-bolt", at=(12, 3), defensive=True))
    assert {e.target for e in of(enc.events[mark:], "split")} == {"j1", "j2"}
    assert (foes[0].hp, foes[1].hp, enc.creatures["j1.a"].hp) == (20, 20, 20)
