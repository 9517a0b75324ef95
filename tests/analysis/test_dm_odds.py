"""The DM's odds of `cavesim fight --runs` (issue 19): the chances of a death and of a total
party kill equal counts over the batch's own records; "alive" is split into standing, dying or
stable, and dead; spending per member; lost fights to replay; round-cap warnings."""

import csv
import json

import pytest

from sim.analysis.summary import party_odds, stall_report
from sim.cli import main

PARTY = ["bruna", "jozan", "mialee"]


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    d = tmp_path_factory.mktemp("odds")
    out, rep = d / "runs.csv", d / "rep"
    # seed 2: 24 fights with deaths and lost fights in them (seed 1's, since the double move is
    # one move of 2 x speed, are all won without a death)
    assert main(["fight", "maps/bat_gallery.toml", "--runs", "24", "--seed", "2", "--workers", "1",
                 "--out", str(out), "--report-dir", str(rep), "--quiet"]) == 0
    with out.open() as f:
        records = list(csv.DictReader(f))
    summary = json.loads((rep / "summary.json").read_text())
    return records, summary["variants"][0], (rep / "summary.html").read_text()


def test_death_and_tpk_chances_are_counts_over_the_records(batch):
    records, v, _ = batch
    party = v["party"]
    assert party["team"] == "party" and party["members"] == PARTY
    n = len(records)
    any_dead = sum(1 for r in records if any(r[f"state.{c}"] == "dead" for c in PARTY))
    tpk = sum(1 for r in records if all(r[f"state.{c}"] == "dead" for c in PARTY))
    none_up = sum(1 for r in records if not any(r[f"state.{c}"] == "up" for c in PARTY))
    assert party["at_least_one_dead"]["count"] == any_dead and party["at_least_one_dead"]["rate"] == round(any_dead / n, 4)
    assert party["tpk"]["count"] == tpk
    assert party["none_standing"]["count"] == none_up
    dead = sum(sum(r[f"state.{c}"] == "dead" for c in PARTY) for r in records) / n
    down = sum(sum(r[f"state.{c}"] in ("dying", "stable", "unconscious", "asleep", "paralyzed") for c in PARTY)
               for r in records) / n
    assert party["expected_dead"] == round(dead, 4) and party["expected_down"] == round(down, 4)
    assert any_dead > 0, "the bat gallery kills someone in 24 fights: the test must see a death"


def test_members_split_standing_dying_dead_and_spending(batch):
    records, v, _ = batch
    for c in PARTY:
        m = v["party"]["per_member"][c]
        states = [r[f"state.{c}"] for r in records]
        assert m["standing"] == round(states.count("up") / len(states), 4)
        assert m["dying_or_stable"] == round(sum(s in ("dying", "stable") for s in states) / len(states), 4)
        assert m["dead"] == round(states.count("dead") / len(states), 4)
        lost = [int(r[f"maxhp.{c}"]) - int(r[f"hp.{c}"]) for r in records]
        assert m["hp_lost"] == round(sum(max(0, x) for x in lost) / len(lost), 4)
    # a PC below 0 hp at the end is not counted as standing
    for r in records:
        for c in PARTY:
            if int(r[f"hp.{c}"]) < 0:
                assert r[f"state.{c}"] != "up"
    total = v["party"]["total"]
    assert total["spells"] == round(sum(sum(int(r[f"spells.{c}"]) for c in PARTY) for r in records) / len(records), 4)


def test_three_lost_fights_to_replay(batch, capsys):
    records, v, page = batch
    reps = v["party"]["replays"]
    lost = [r for r in records if r["winner"] != "party"]
    assert v["party"]["lost"] == len(lost)
    assert 1 <= len(reps) <= 3 and len({r["seed"] for r in reps}) == len(reps)
    seeds = {int(r["seed"]) for r in lost}
    for rp in reps:
        assert rp["seed"] in seeds
        assert rp["command"] == f"cavesim fight maps/bat_gallery.toml --seed {rp['seed']}"
        assert rp["command"] in page
    assert "The DM's odds (party)" in page
    assert page.index("The DM's odds") < page.index("<h2>Outcomes</h2>")


def test_round_cap_report_names_who_stalled_where():
    recs = [{"index": i, "seed": i, "rounds": 30, "winner": "", "reason": "round_cap",
             "hp.k": 5, "state.k": "up", "at.k": "4,2", "squeezing.k": 0, "nauseated.k": 0,
             "hp.b": 9, "state.b": "up", "at.b": "9,2", "squeezing.b": 12, "nauseated.b": 0} for i in range(3)]
    recs.append({"index": 3, "seed": 3, "rounds": 7, "winner": "party", "reason": "victory",
                 "hp.k": 0, "state.k": "dead", "at.k": "", "squeezing.k": 0, "nauseated.k": 0,
                 "hp.b": 9, "state.b": "up", "at.b": "5,2", "squeezing.b": 0, "nauseated.b": 0})
    st = stall_report(recs, ["k", "b"])
    assert st["fights"] == 3 and st["share"] == 0.75
    b = next(w for w in st["who"] if w["id"] == "b")
    assert b["squeezing_rounds"] == 12 and b["at"] == [{"square": "9,2", "fights": 3}]
    odds = party_odds(recs, "party", ["b"], encounter="x.toml")
    assert odds["at_least_one_dead"]["count"] == 0 and odds["lost"] == 3


def test_terminal_warns_when_most_fights_hit_the_round_cap(tmp_path, capsys):
    enc = tmp_path / "stall.toml"
    enc.write_text("""
[encounter]
round_cap = 3
seed = 1

[map]
name = "Stall"
grid = \"\"\"
##########
#...##...#
##########
\"\"\"
[legend]
"#" = "wall"
"." = { width = 10, height = 10 }
"f" = { width = 1, height = 10 }

[[combatant]]
id = "bruna"
template = "human-fighter-3"
at = [1, 1]

[[combatant]]
id = "gob"
template = "goblin"
at = [8, 1]
""")
    assert main(["fight", str(enc), "--runs", "4", "--seed", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "fights hit the round cap" in out and "Who was stalled where" in out
