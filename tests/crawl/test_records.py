"""The crawl's typed records serialise to exactly the dicts ``cavesim crawl --json`` printed when
the timeline was untyped (``Entry.what`` + ``detail``): each expected line below is a line of
that output, copied byte for byte (key order included) from a crawl run before the records."""

from __future__ import annotations

import dataclasses
import json

import pytest

from sim.crawl import records as r
from sim.rules.categories import Category
from sim.scenario.files import load_crawl
from sim.story.crawlwords import crawl_json, reason_words

from .helpers import crawl_file

C = Category
CASES = [
    (r.Walk(start=0.0, rounds=0.5, who=("bruna",), at=(1, 1), squares=3, member_rounds={"bruna": 0.5},
            slowest="bruna", categories={"bruna": (C.CLEAR,)}),
     ('{"start_rounds":0.0,"rounds":0.5,"minutes":0.05,"what":"walk","who":["bruna"],"at":[1,1],"squares":3,'
      '"member_rounds":{"bruna":0.5},"slowest":"bruna","categories":{"bruna":["CLEAR"]}}')),
    (r.SingleFile(start=0.0, rounds=0.625, who=("lidda", "bruna"), at=(1, 1), squares=2,
                  member_rounds={"lidda": 0.5, "bruna": 0.5}, slowest="bruna",
                  categories={"lidda": (C.CLEAR,), "bruna": (C.CLEAR,)}),
     ('{"start_rounds":0.0,"rounds":0.625,"minutes":0.062,"what":"single_file","who":["lidda","bruna"],"at":[1,1],'
      '"squares":2,"member_rounds":{"lidda":0.5,"bruna":0.5},"slowest":"bruna",'
      '"categories":{"lidda":["CLEAR"],"bruna":["CLEAR"]}}')),
    (r.Crawlway(start=10.5, rounds=1.5, who=("fighter",), at=(4, 1), squares=3, member_rounds={"fighter": 1.5},
                slowest="fighter", categories={"fighter": (C.CRAWL,)}),
     ('{"start_rounds":10.5,"rounds":1.5,"minutes":0.15,"what":"crawl","who":["fighter"],"at":[4,1],"squares":3,'
      '"member_rounds":{"fighter":1.5},"slowest":"fighter","categories":{"fighter":["CRAWL"]}}')),
    (r.Awkward(start=5.625, rounds=1.5, who=("lidda", "bruna"), at=(3, 1), squares=2,
               member_rounds={"lidda": 1.0, "bruna": 1.0}, slowest="bruna",
               categories={"lidda": (C.CRAWL,), "bruna": (C.AWKWARD,)},
               checks={"lidda": (), "bruna": (r.Check(at=(4, 1), dc=15, tries=1.0), r.Check(at=(5, 1), dc=15, tries=1.0))}),
     ('{"start_rounds":5.625,"rounds":1.5,"minutes":0.15,"what":"awkward","who":["lidda","bruna"],"at":[3,1],'
      '"squares":2,"member_rounds":{"lidda":1.0,"bruna":1.0},"slowest":"bruna",'
      '"categories":{"lidda":["CRAWL"],"bruna":["AWKWARD"]},'
      '"checks":{"lidda":[],"bruna":[{"at":[4,1],"dc":15,"tries":1.0},{"at":[5,1],"dc":15,"tries":1.0}]}}')),
    (r.Tight(start=0.625, rounds=50.0, who=("rogue", "hob"), at=(4, 1), squares=2,
             member_rounds={"rogue": 40.0, "hob": 20.0}, slowest="hob",
             categories={"rogue": (C.TIGHT_SQUEEZE,), "hob": (C.AWKWARD,)},
             checks={"rogue": (r.Check((5, 1), 30, 20.0), r.Check((6, 1), 30, 20.0)),
                     "hob": (r.Check((5, 1), 15, 20.0), r.Check((6, 1), 15, 20.0))}),
     ('{"start_rounds":0.625,"rounds":50.0,"minutes":5.0,"what":"tight","who":["rogue","hob"],"at":[4,1],'
      '"squares":2,"member_rounds":{"rogue":40.0,"hob":20.0},"slowest":"hob",'
      '"categories":{"rogue":["TIGHT_SQUEEZE"],"hob":["AWKWARD"]},'
      '"checks":{"rogue":[{"at":[5,1],"dc":30,"tries":20.0},{"at":[6,1],"dc":30,"tries":20.0}],'
      '"hob":[{"at":[5,1],"dc":15,"tries":20.0},{"at":[6,1],"dc":15,"tries":20.0}]}}')),
    (r.StandUp(start=12.5, rounds=0.5, who=("fighter",), at=(8, 1)),
     '{"start_rounds":12.5,"rounds":0.5,"minutes":0.05,"what":"stand_up","who":["fighter"],"at":[8,1]}'),
    # the armour's own minutes take the entry's "minutes" place (as the untyped detail did)
    (r.ArmorOff(start=0.5, rounds=10.0, who=("fighter",), at=(4, 1), armor="chainmail", helped=False, minutes=1.0),
     ('{"start_rounds":0.5,"rounds":10.0,"minutes":1.0,"what":"armor_off","who":["fighter"],"at":[4,1],'
      '"armor":"chainmail","helped":false}')),
    (r.ArmorOn(start=13.0, rounds=40.0, who=("fighter",), at=(8, 1), armor="chainmail", helped=False, minutes=4.0),
     ('{"start_rounds":13.0,"rounds":40.0,"minutes":4.0,"what":"armor_on","who":["fighter"],"at":[8,1],'
      '"armor":"chainmail","helped":false}')),
    (r.KeepArmorOff(start=7.625, rounds=0.0, who=("fighter",), at=(7, 1), why=r.FightNear()),
     ('{"start_rounds":7.625,"rounds":0.0,"minutes":0.0,"what":"keep_armor_off","who":["fighter"],"at":[7,1],'
      '"reason":"a fight is near"}')),
    # a wait's own rounds (each member's) take the entry's "rounds" place
    (r.Wait(start=10.5, rounds=0.0, who=("bruna", "lidda", "tordek"), at=(32, 16), for_whom="mialee",
            waited={"bruna": 0.5, "lidda": 0.5, "tordek": 0.5}),
     ('{"start_rounds":10.5,"rounds":{"bruna":0.5,"lidda":0.5,"tordek":0.5},"minutes":0.0,"what":"wait",'
      '"who":["bruna","lidda","tordek"],"at":[32,16],"for":"mialee"}')),
    (r.Noticed(start=0.5, rounds=0.0, who=("goblin-1",), at=(2, 1), first="monsters",
               monsters_noticed=(r.MonsterNotices("goblin-1", 60, "light"),), party_noticed=()),
     ('{"start_rounds":0.5,"rounds":0.0,"minutes":0.0,"what":"noticed","who":["goblin-1"],"at":[2,1],'
      '"first":"monsters","monsters_noticed":[{"monster":"goblin-1","from_ft":60,"by":"light"}],"party_noticed":[]}')),
    # the fight's summary follows the entry; its whole rounds take the entry's place
    (r.Fight(start=0.5, rounds=2.0, who=("bruna",), at=(2, 1), summary=r.FightSummary(
        at=(2, 1), start_rounds=0.5, rounds=2, winner="party", reason="victory", seed=4053640108, party=("bruna",),
        monsters=("goblin-1",), party_standing=("bruna",), armor_off=())),
     ('{"start_rounds":0.5,"rounds":2,"minutes":0.2,"what":"encounter","who":["bruna"],"at":[2,1],"winner":"party",'
      '"reason":"victory","seed":4053640108,"party":["bruna"],"monsters":["goblin-1"],"party_standing":["bruna"],'
      '"armor_off":[]}')),
    (r.LeftBehind(start=0.0, rounds=0.0, who=("ogre",), at=(4, 1),
                  why=r.CannotFollow(stop=(4, 1), category=C.TIGHT_SQUEEZE, size="large", name="Ogre")),
     ('{"start_rounds":0.0,"rounds":0.0,"minutes":0.0,"what":"left_behind","who":["ogre"],"at":[4,1],'
      '"reason":"cannot follow past (4, 1): Tight Squeeze for a large Ogre"}')),
    # no shipped or tested crawl reaches this one: the line the untyped crawl's f-string made of it
    (r.LeftBehind(start=3.0, rounds=0.0, who=("ogre",), at=(7, 2), why=r.CannotPass(kind="crawl", at=(7, 2))),
     ('{"start_rounds":3.0,"rounds":0.0,"minutes":0.0,"what":"left_behind","who":["ogre"],"at":[7,2],'
      '"reason":"cannot get through the crawl stretch at (7, 2) (no check it could make succeeds)"}')),
    (r.Arrive(start=29.75, rounds=0.0, who=("lidda", "bruna"), at=(8, 1)),
     '{"start_rounds":29.75,"rounds":0.0,"minutes":0.0,"what":"arrive","who":["lidda","bruna"],"at":[8,1]}'),
    (r.Light(start=0.0, rounds=0.0, who=("lidda",), at=(1, 1), item="torch", carried_by="lidda", burns_minutes=60.0),
     ('{"start_rounds":0.0,"rounds":0.0,"minutes":0.0,"what":"light","who":["lidda"],"at":[1,1],"item":"torch",'
      '"carried_by":"lidda","burns_minutes":60.0}')),
    (r.Light(start=2.5, rounds=0.0, who=("bruna",), at=(2, 1), item="torch", carried_by="bruna", picked_up=True),
     ('{"start_rounds":2.5,"rounds":0.0,"minutes":0.0,"what":"light","who":["bruna"],"at":[2,1],"item":"torch",'
      '"carried_by":"bruna","picked_up":true}')),
    (r.LightOut(start=600.0, rounds=0.0, who=("plate",), at=(51, 1), item="torch"),
     '{"start_rounds":600.0,"rounds":0.0,"minutes":0.0,"what":"light_out","who":["plate"],"at":[51,1],"item":"torch"}'),
]


def _kinds() -> set[type]:
    """Every entry record class of the records module that declares its own ``what`` (the kinds
    the timeline holds)."""
    return {v for v in vars(r).values() if isinstance(v, type) and issubclass(v, r.Entry) and "what" in vars(v)}


@pytest.mark.parametrize(("record", "line"), CASES, ids=[f"{e.what}-{i}" for i, (e, _) in enumerate(CASES)])
def test_each_record_writes_the_line_the_untyped_timeline_wrote(record, line):
    assert json.dumps(record.to_json(reason_words), separators=(",", ":")) == line


def test_every_entry_kind_is_checked_and_each_has_its_own_what():
    kinds = _kinds()
    assert {type(e) for e, _ in CASES} == kinds
    assert len({k.what for k in kinds}) == len(kinds) == 16
    assert {k.what for k in r.STRETCH_KINDS.values()} == {"walk", "single_file", "crawl", "awkward", "tight"}


def test_records_are_frozen():
    e, _ = CASES[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.rounds = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.CannotPass(kind="crawl", at=(1, 1)).kind = "tight"


def test_the_result_writes_its_reasons_in_words(tmp_path):
    """The crawl's own summary: who was left behind, in words, in the order they were left."""
    p = crawl_file(tmp_path, ["#" * 4, "#..#", "#" * 4], {}, ["mialee:elf-wizard-3"], frm="1,1", to="2,1")
    spec = load_crawl(p)
    result = r.CrawlResult(spec=spec, route=((1, 1), (2, 1)), timeline=(), tracks={},
                           left_behind={"a": r.FellInFight(), "b": r.CannotPass(kind="tight", at=(1, 1))},
                           arrived=("mialee",), total_rounds=25.0, fights=(), events=())
    out = crawl_json(result)
    assert list(out) == ["name", "map", "seed", "from", "to", "party", "route", "timeline", "left_behind", "arrived",
                         "total_rounds", "total_minutes", "fights"]
    assert out["left_behind"] == {"a": "fell in the fight",
                                  "b": "cannot get through the tight stretch at (1, 1) (no check it could make succeeds)"}
    assert (out["route"], out["arrived"], out["total_minutes"]) == ([[1, 1], [2, 1]], ["mialee"], 2.5)
