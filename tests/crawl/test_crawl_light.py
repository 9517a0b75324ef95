"""The crawl's light (issue 16 item 5; RULES §9.1, §9.3.4-6)."""

from __future__ import annotations

import math

from conftest import MAPS

from sim.crawl.gear import PartyLight
from sim.crawl.notice import trigger
from sim.crawl.records import Light, MonsterNotices, PartyNotices, TrackPoint
from sim.crawl.run import run_crawl
from sim.engine.setup import build_creature
from sim.rules.weapons import combat_modifier
from sim.scenario.files import CombatantSpec, load_crawl
from sim.story.crawlwords import crawl_json
from sim.terrain.grid import CaveGrid
from sim.terrain.vision.scene import burn_minutes, party_light_bearer

ROUNDS_PER_MINUTE = combat_modifier("time", "rounds_per_minute")  # RULES §6.1: 10 rounds a minute


def member(cid, template):
    return build_creature(CombatantSpec(id=cid, template=template, team="party", at=(0, 0), explicit_id=True), ".")


def test_the_bearer_is_the_first_with_a_free_hand():
    bruna, lidda = member("bruna", "human-fighter-3"), member("lidda", "halfling-rogue-3")
    assert bruna.block.shield is not None
    c, item = party_light_bearer([bruna, lidda])
    assert (c.id, item) == ("lidda", "torch")
    lidda.items["hooded-lantern"] = 1
    assert party_light_bearer([bruna, lidda])[1] == "hooded-lantern"   # the brightest light first
    assert party_light_bearer([member("g", "goblin")]) is None


def test_burn_time_lights_the_next_torch_then_goes_dark():
    lidda = member("lidda", "halfling-rogue-3")
    lidda.items = {"torch": 2}
    tracks = {"lidda": [TrackPoint(0.0, (3, 4), False)]}
    timeline = []
    light = PartyLight()
    light.relight([lidda], timeline, 0.0, tracks)
    assert lidda.torch_lit and light.out_at == 60 * ROUNDS_PER_MINUTE
    light.burn([lidda], timeline, 61 * ROUNDS_PER_MINUTE, tracks)
    assert [e.what for e in timeline] == ["light", "light_out", "light"] and lidda.items["torch"] == 1
    assert timeline[1].start == 600 and light.out_at == 1200
    light.burn([lidda], timeline, 125 * ROUNDS_PER_MINUTE, tracks)
    assert [e.what for e in timeline][-1] == "light_out" and not light.lit() and not lidda.torch_lit
    assert timeline[0] == Light(start=0.0, rounds=0.0, who=("lidda",), at=(3, 4), item="torch", carried_by="lidda",
                                burns_minutes=60.0)
    assert burn_minutes("sunrod") == 360 and math.isinf(burn_minutes("everburning-torch"))


def test_monsters_see_the_light_far_beyond_its_radius():
    g = CaveGrid.from_arrays([[10] * 60] * 3, [[10] * 60] * 3)
    kobold = CombatantSpec(id="k", template="kobold", team="monsters", at=(59, 1))
    route = [(x, 1) for x in range(0, 20)]
    # darkvision 60 ft: unlit, the party is noticed 12 squares off; lit, from the first square (59 squares)
    assert trigger(g, route, [kobold], [], lit=False) is None
    trig = trigger(g, route, [kobold], [], lit=True)
    assert trig is not None and trig.index == 0


def test_the_crawl_timeline_says_who_carries_the_light():
    r = run_crawl(load_crawl(MAPS / "crawl_warrens.toml"))
    first = r.timeline[0]
    assert (first.what, first.who, first.item) == ("light", ("lidda",), "torch")
    js = crawl_json(r)["timeline"][0]
    assert js["what"] == "light" and js["carried_by"] == "lidda"


# -- who notices whom first (issue 16 item 5; RULES §9.3.3-4) ------------------------------------------

def _corridor():
    return CaveGrid.from_arrays([[10] * 60] * 3, [[10] * 60] * 3)


ROUTE = [(x, 1) for x in range(0, 50)]


def test_the_monsters_see_the_party_light_first_and_the_party_sees_nothing():
    kobold = CombatantSpec(id="k", template="kobold", team="monsters", at=(59, 1))
    d = trigger(_corridor(), ROUTE, [kobold], [member("bruna", "human-fighter-3")], lit=True, item="torch")
    assert (d.index, [m.id for m in d.group]) == (0, ["k"])
    assert (d.first, d.monsters_noticed, d.party_noticed) == ("monsters", (MonsterNotices("k", 295, "light"),), ())


def test_the_party_sees_a_lit_monster_from_afar_first():
    # the kobold's own torch: a lit square is seen from any square with a clear line to it (§9.3.4)
    kobold = CombatantSpec(id="k", template="kobold", team="monsters", at=(59, 1), light="torch")
    d = trigger(_corridor(), ROUTE, [kobold], [member("bruna", "human-fighter-3")], lit=False)
    assert d.index == 0 and d.first == "party" and d.monsters_noticed == ()
    assert d.party_noticed == (PartyNotices("bruna", "k", 295, "light"),)


def test_in_the_dark_the_dwarf_and_the_kobold_notice_each_other_at_60_ft():
    kobold = CombatantSpec(id="k", template="kobold", team="monsters", at=(59, 1))
    party = [member("bruna", "human-fighter-3"), member("tordek", "dwarf-fighter-3")]
    d = trigger(_corridor(), ROUTE, [kobold], party, lit=False)
    assert ROUTE[d.index] == (47, 1)                             # 12 squares: darkvision 60 ft both ways
    assert (d.first, d.monsters_noticed, d.party_noticed) == (
        "both", (MonsterNotices("k", 60, "senses"),), (PartyNotices("tordek", "k", 60, "darkvision"),))
    # a party of humans only: the kobold notices them; they notice nothing
    d = trigger(_corridor(), ROUTE, [kobold], party[:1], lit=False)
    assert ROUTE[d.index] == (47, 1) and d.first == "monsters" and d.party_noticed == ()


def test_the_crawl_timeline_says_who_noticed_whom_first():
    result = run_crawl(load_crawl(MAPS / "crawl_warrens.toml"))
    (e,) = [e for e in result.timeline if e.what == "noticed"]
    assert (e.who, e.at, e.start) == (("kobold-2",), (5, 14), 0.5)
    assert (e.first, e.party_noticed, e.monsters_noticed) == ("monsters", (), (MonsterNotices("kobold-2", 200, "light"),))
    nxt = result.timeline[result.timeline.index(e) + 1]
    assert nxt.what == "encounter" and nxt.at == e.at
