"""Chokepoints a designer agrees with (issue 35, docs/analysis.md): a chokepoint is the narrowest
crossing of a passage, pockets under --min-area are named and never dropped, dead-end cracks are
no chokepoints, and each body is told where its way crosses, how wide it is there, whether its
category changes and what the crossing separates."""


import numpy as np
import pytest
from scipy import ndimage

from sim.analysis.chokepoints import find_chokepoints
from sim.analysis.crossing import narrowest_section
from sim.analysis.mapfacts import analyze_map, size_subjects
from sim.analysis.regions import geometry_labels
from sim.cli import main
from sim.maps.generate import ascii_grid, generate_cave
from sim.maps.read import load_map

from .helpers import MAPS, grid

SAMPLES = MAPS.parent / "tests" / "data" / "uvtt"


def crossings(g, **kw):
    lay = find_chokepoints(g, **kw)
    return lay, [(c.crossing, c.at, c.width_ft, c.joins) for c in lay.chokepoints]


# -- the four shapes -------------------------------------------------------------------------------

def test_room_tunnel_room_crosses_in_the_middle_of_the_tunnel():
    g = grid(["###############",
              "#....#####....#",
              "#....fffff....#",
              "#....#####....#",
              "#....#####....#",
              "###############"])
    lay, got = crossings(g)
    assert got == [(((7, 2),), (7, 2), 2.0, (1, 2))]
    (c,) = lay.chokepoints
    assert set(c.squares) == {(x, 2) for x in range(5, 10)}        # the passage: the whole tunnel


def test_a_pinch_in_a_tunnel_is_its_crossing():
    g = grid(["###############",
              "#....#####....#",
              "#....ccFcc....#",
              "#....#####....#",
              "#....#####....#",
              "###############"])
    _, got = crossings(g)
    assert got == [(((7, 2),), (7, 2), 1.0, (1, 2))]


def test_a_tunnel_to_a_pocket_under_min_area_is_reported_and_the_pocket_named():
    g = grid(["##########",
              "#....#####",
              "#....fff.#",
              "#....###.#",
              "#....#####",
              "##########"], points={"hall": (2, 2), "nook": (8, 3)})
    lay, got = crossings(g, min_area=6)
    assert got == [(((6, 2),), (6, 2), 2.0, (1, 2))]
    m = analyze_map(g, subjects=size_subjects(["medium", "huge", "gargantuan"]), min_area=6)
    assert m.facts["pockets"] == [{"id": "A2", "squares": 2, "at": [8, 3], "points": ["nook"], "pocket": True,
                                   "behind": ["C1"]}]
    (c,) = m.facts["chokepoints"]
    med = c["movers"]["medium"]
    assert (med["status"], med["category"], med["changes_category"], med["crossed"], med["width_ft"]) == \
        ("open", "AWKWARD", True, [[6, 2]], 2.0)
    # the room and the tunnel's first square / the tunnel's last square and the nook
    assert med["separates"] == [{"area": "A1", "squares": 17, "points": ["hall"]},
                                {"area": "A2", "squares": 3, "points": ["nook"]}]
    # Huge squeezes into the nook but cannot get through the fissure (DC 30 at +0)
    huge = c["movers"]["huge"]
    assert (huge["status"], huge["reason"], huge["changes_category"]) == ("stopped", "escape_artist", True)
    assert [side["points"] for side in huge["separates"]] == [["hall"], ["nook"]]
    # a Gargantuan body cannot stand in the nook: the tunnel leads nowhere it can go
    garg = c["movers"]["gargantuan"]
    assert (garg["status"], garg["changes_category"], garg["separates"]) == ("dead_end", False, None)


def test_a_dead_end_crack_off_a_room_is_no_chokepoint():
    g = grid(["##########",
              "#....fff##",
              "#....#####",
              "#....#####",
              "##########"])
    lay, got = crossings(g, min_area=6)
    assert got == [] and lay.n_areas == 1


def test_a_crack_to_a_named_point_is_reported_though_it_leads_to_no_room():
    g = grid(["##########",
              "#....fff##",
              "#....#####",
              "#....#####",
              "##########"], points={"hall": (2, 2), "gem": (7, 1)})
    lay, got = crossings(g, min_area=6)
    assert got == [(((5, 1),), (5, 1), 2.0, (1, 2))]
    m = analyze_map(g, subjects=size_subjects(["medium", "huge"]), min_area=6)
    assert [(p["id"], p["squares"], p["points"], p["behind"]) for p in m.facts["pockets"]] == [("A2", 1, ["gem"], ["C1"])]
    from sim.analysis.mapreport import body_chokepoints_text
    assert body_chokepoints_text(m.facts, "medium") == \
        "C1 Awkward Space at 5,1 (2 ft), separates A1 (12 squares: hall) from A2 (2 squares: gem)"
    assert body_chokepoints_text(m.facts, "huge") == "C1 dead end (leads nowhere it can stand)"


def test_a_room_with_two_exits_has_two_chokepoints_and_a_way_around_each():
    g = grid(["#############",
              "#....fff....#",
              "#....###....#",
              "#....###....#",
              "#....ccc....#",
              "#############"], points={"west": (2, 2), "east": (10, 2)})
    lay, got = crossings(g, min_area=6)
    assert got == [(((6, 1),), (6, 1), 2.0, (1, 2)), (((6, 4),), (6, 4), 5.0, (1, 2))]
    m = analyze_map(g, subjects=size_subjects(["medium"]), min_area=6)
    fis, crawl = (c["movers"]["medium"] for c in m.facts["chokepoints"])
    assert (fis["category"], crawl["category"]) == ("AWKWARD", "CRAWL")
    # each changes Medium's category, but neither is the only way: each has a way around
    assert fis["changes_category"] and crawl["changes_category"]
    assert fis["separates"] is None and crawl["separates"] is None
    from sim.analysis.mapreport import body_chokepoints_text
    assert body_chokepoints_text(m.facts, "medium") == ("C1 Awkward Space at 6,1 (2 ft), a way around it; "
                                                        "C2 Crawl-Navigable at 6,4 (5 ft), a way around it")


def test_exits_of_a_room_in_exact_squares():
    g = grid(["#############",
              "#...#...#...#",
              "#...f...f...#",
              "#...#...#...#",
              "#############"])
    _, got = crossings(g, min_area=4)
    assert got == [(((4, 2),), (4, 2), 2.0, (1, 2)), (((8, 2),), (8, 2), 2.0, (2, 3))]


# -- the crossing is a cut, and a minimal one ------------------------------------------------------

def _assert_cut(g, lay, c):
    """The crossing lies in the passage, and with it walled off no way (RULES §6.2 steps: no
    diagonal past a rock corner) leads through the rest of the passage from one joined area's
    squares at its mouths to another's; and every crossing square is needed (put one back: a
    way)."""
    passage = np.zeros(g.shape, bool)
    for x, y in c.squares:
        passage[y, x] = True
    cross = np.zeros(g.shape, bool)
    for x, y in c.crossing:
        cross[y, x] = True
    assert (cross <= passage).all()
    # the joined areas' squares at the passage's mouths (the areas may also meet elsewhere)
    mouths = ndimage.binary_dilation(passage, np.ones((3, 3), bool)) & ~passage
    sides = [(lay.area == a) & mouths for a in c.joins]

    def joined(wall):
        lab = geometry_labels((passage & ~wall) | np.logical_or.reduce(sides), g.rock)
        sets = [set(np.unique(lab[s])) - {0} for s in sides]
        return any(sets[i] & sets[j] for i in range(len(sets)) for j in range(i + 1, len(sets)))

    if joined(passage):      # the areas also touch beside the passage (corner to corner): no cut
        return False
    assert not joined(cross), f"{c.id}: the crossing {c.crossing} does not cut its passage"
    if len(c.joins) == 2:
        for x, y in c.crossing:
            less = cross.copy()
            less[y, x] = False
            assert joined(less), f"{c.id}: {x},{y} is not needed in the crossing {c.crossing}"
    return True


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_every_crossing_on_generated_caves_cuts_its_passage(seed):
    g0 = generate_cave(seed, 64, 48)
    g = ascii_grid(g0) or g0
    lay = find_chokepoints(g)
    assert lay.chokepoints
    checked = 0
    for c in lay.chokepoints:
        checked += _assert_cut(g, lay, c)
        assert c.at in c.crossing
        xs = np.array(c.crossing)
        assert c.width_ft == pytest.approx(float(lay.geo.width_eff[xs[:, 1], xs[:, 0]].min()))
    assert checked >= 0.75 * len(lay.chokepoints)     # most are real passages, cut by their crossing


def test_narrowest_section_is_minimal_and_prefers_the_narrow_squares():
    # a two-square-wide passage, 5 ft everywhere but one column at 3 ft
    passage = np.zeros((4, 8), bool)
    passage[1:3, 1:7] = True
    a = np.zeros_like(passage)
    a[1:3, 0] = True
    b = np.zeros_like(passage)
    b[1:3, 7] = True
    clear = np.where(passage, 5.0, 0.0)
    clear[1:3, 2] = 3.0
    rock = ~(passage | a | b)
    assert narrowest_section(passage, a, b, clear, rock=rock) == ((2, 1), (2, 2))
    # with no way through the passage there is no section
    assert narrowest_section(passage, a, np.zeros_like(b), clear, rock=rock) == ()


# -- the shipped map and the shared sample ---------------------------------------------------------

def test_ogre_tunnel_reports_the_tunnel_with_its_width(capsys):
    g = load_map(MAPS / "ogre_tunnel.toml")
    m = analyze_map(g, subjects=size_subjects(["medium", "large"]))
    (c,) = m.facts["chokepoints"]
    assert (c["crossing"], c["at"], c["width_ft"], c["ceiling_ft"]) == ([[15, 2], [15, 3]], [15, 2], 5.0, 8.0)
    assert m.facts["pockets"][0]["squares"] == 4 and m.facts["pockets"][0]["behind"] == [c["id"]]
    large, med = c["movers"]["large"], c["movers"]["medium"]
    assert (large["category"], large["changes_category"], large["width_ft"]) == ("NARROW_AND_LOW", True, 5.0)
    assert (med["category"], med["changes_category"]) == ("CLEAR", False)
    assert main(["analyze", str(MAPS / "ogre_tunnel.toml"), "--no-files", "--sizes", "medium,large"]) == 0
    out = capsys.readouterr().out
    assert "1 chokepoint" in out and "pockets under --min-area 6: A2 (4 squares at 24,2, behind C1)" in out
    assert "Large: C1 Narrow and Low at 15,3 (5 ft), separates A1 (38 squares) from A2 (20 squares)" in out
    assert "Medium: none changes its category" in out


@pytest.mark.slow
def test_the_mit_sample_reports_crossings_not_regions(tmp_path, capsys):
    out = tmp_path / "mit.toml"
    assert main(["import", str(SAMPLES / "oganm-test.dd2vtt"), "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    g = load_map(out)
    m = analyze_map(g, subjects=size_subjects(["medium", "large"]))
    f = m.facts
    # the 2.6-ft dead-end crack at 3,2 leads nowhere: no chokepoint is there
    for c in f["chokepoints"]:
        assert [3, 2] not in c["crossing"] and c["at"] != [3, 2]
        _assert_cut(g, m.layout, next(k for k in m.layout.chokepoints if k.id == c["id"]))
        # Medium walks Clear through the whole cave: nothing changes its category
        assert not c["movers"]["medium"]["changes_category"]
    # a chokepoint is a crossing, a few squares, never a room-sized region
    assert all(len(c["crossing"]) <= 6 for c in f["chokepoints"])
    # the sealed box at the bottom (floor with no way in) is named, not dropped
    if not g.rock[17, 5]:
        assert any(p["behind"] == [] and p["squares"] == 4 for p in f["pockets"])


def test_a_wall_between_squares_parts_areas():
    """Issue 35 item 2 in analyze: a 40 x 30-ft hall parted down the middle by a wall on a grid
    line (docs/rules.md §6.8) is two areas, not one (the floods and the meetings do not cross the
    wall); without the wall it is one area. With one edge of the wall open, the two halves are one
    area again: the doorway's narrowness lies on an edge, which the square-by-square roominess does
    not see (a known limit, docs/analysis.md); a door drawn narrower than the square is seen by the
    width measure of an imported map (the imagix sample's doorway is its chokepoint)."""
    import numpy as np

    from sim.analysis.chokepoints import find_chokepoints
    from sim.terrain.grid import CaveGrid

    rows, cols = 8, 10
    width = np.full((rows, cols), 40.0)
    width[0, :] = width[-1, :] = width[:, 0] = width[:, -1] = 0.0
    height = np.where(width > 0, 16.0, 0.0)
    east = np.zeros((rows, cols), bool)
    east[1:7, 4] = True            # the wall between columns 4 and 5
    south = np.zeros((rows, cols), bool)
    open_hall = find_chokepoints(CaveGrid.from_arrays(width, height), min_area=6)
    assert (open_hall.n_areas, len(open_hall.chokepoints)) == (1, 0)
    parted = find_chokepoints(CaveGrid.from_arrays(width, height, edges=(east, south)), min_area=6)
    assert (parted.n_areas, len(parted.chokepoints)) == (2, 0)
    assert len({int(v) for v in parted.area[1:7, 1:5].ravel()} | {int(v) for v in parted.area[1:7, 5:9].ravel()}) == 2
