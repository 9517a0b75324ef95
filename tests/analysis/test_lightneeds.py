"""The light a party needs at each chokepoint (issue 16 item 7)."""

from __future__ import annotations

import json



from sim.analysis.chokepoints import find_chokepoints
from sim.analysis.lightneeds import light_ladder, light_needs
from sim.cli import main
from sim.maps.read import load_map
from sim.terrain.vision import DARK, light_levels
from sim.terrain.vision.scene import gear_light

from conftest import MAPS


def test_ladder_runs_from_candle_to_lantern():
    assert light_ladder() == ["candle", "lamp", "torch", "hooded-lantern"]


def test_warrens_counts_match_a_torch_at_the_bearer_square():
    grid = load_map(MAPS / "warrens.toml")
    lay = find_chokepoints(grid, min_area=6)
    rows = light_needs(grid, lay)["entrance"]
    assert [r["chokepoint"] for r in rows] == [c.id for c in lay.chokepoints]
    for r, c in zip(rows, lay.chokepoints):
        if r["from"] is None:
            continue
        lv = light_levels(grid.rock, [gear_light("torch", at=tuple(r["from"]))]).normal
        floor = [(x, y) for x, y in c.squares if not grid.rock[y, x]]
        assert r["squares"] == len(floor)
        assert r["dark_to_torch"] == sum(lv[y, x] == DARK for x, y in floor)
        # the light it names leaves nothing dark; the one before it in the ladder would
        if r["needs"] != "more than one light":
            lad = light_ladder()
            i = lad.index(r["needs"])
            lit = light_levels(grid.rock, [gear_light(r["needs"], at=tuple(r["from"]))]).normal
            assert all(lit[y, x] != DARK for x, y in floor)
            if i:
                weaker = light_levels(grid.rock, [gear_light(lad[i - 1], at=tuple(r["from"]))]).normal
                assert any(weaker[y, x] == DARK for x, y in floor)
    # the unreachable crack (0.3 ft) is out of reach of a Medium human
    assert any(r["from"] is None and r["needs"] is None for r in rows)
    assert any(r["needs"] == "more than one light" for r in rows)


def test_analyze_json_and_text_have_the_light(capsys):
    assert main(["analyze", str(MAPS / "warrens.toml"), "--sizes", "medium", "--no-files", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert set(facts["light"]) == {"entrance"}
    assert {"chokepoint", "from", "squares", "dark_to_torch", "shadowy_to_torch", "needs"} == set(facts["light"]["entrance"][0])
    assert main(["analyze", str(MAPS / "warrens.toml"), "--sizes", "medium", "--no-files", "--entrance", "hall"]) == 0
    out = capsys.readouterr().out
    assert "Light from hall" in out and "needs" in out

