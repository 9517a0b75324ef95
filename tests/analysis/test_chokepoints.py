"""Chokepoints and regions on small caves with known answers (issue 7), and on the Warrens.

Every cost is checked against the movement engine itself: the time through a chokepoint is
``find_path`` between the same two squares on the whole map, and its extra is that time minus
the same path with the passage as roomy as the chambers (RULES §2.3-2.4, §5.3, §6)."""

import dataclasses

import numpy as np
import pytest

from sim.analysis.chokepoints import evaluate, find_chokepoints, geometry
from sim.analysis.regions import region_labels
from sim.maps.read import load_map
from sim.terrain.movement import Mover, find_path, move_field
from sim.rules.bodies import body_for
from sim.rules.sizes import Size

from .helpers import MAPS, ROOM, grid, squares_of, two_chambers


FISSURE = [(5, 2), (6, 2), (7, 2)]


def passage(g, size: str, **kw):
    lay = find_chokepoints(g)
    assert len(lay.chokepoints) == 1
    (p,) = evaluate(g, lay, lay.chokepoints[0], Mover(body_for(size), speed_ft=kw.pop("speed", 30), **kw))
    return p


def engine_times(g, size: str, ends, relaxed_glyph: str):
    """(real, relaxed) guaranteed and expected move actions between ``ends`` by find_path on the
    whole map; relaxed: the passage drawn as chamber floor."""
    mover = Mover(body_for(size))
    real = find_path(move_field(g, mover), *ends)
    w = np.where(g.glyphs == list(g.legend).index(relaxed_glyph), ROOM[0], g.width_ft)
    h = np.where(g.glyphs == list(g.legend).index(relaxed_glyph), ROOM[1], g.height_ft)
    rel = find_path(move_field(g.replace(width_ft=w, height_ft=h), mover), *ends)
    return real, rel


# -- where they are, and nowhere else ------------------------------------------------------------

@pytest.mark.parametrize("glyph", ["f", "F", "c", "l"])
def test_the_only_link_is_the_only_chokepoint(glyph):
    g = two_chambers(glyph)
    lay = find_chokepoints(g)
    assert [set(c.squares) for c in lay.chokepoints] == [set(FISSURE)]
    c = lay.chokepoints[0]
    assert c.at == (6, 2)                       # the middle of the passage
    assert c.joins == (1, 2) and lay.n_areas == 2
    assert lay.area[2, 2] != lay.area[2, 10]    # west and east are different areas
    # the effective width: a 6-ft glyph in a one-square passage is 5 ft wide between its rock walls
    assert (c.width_ft, c.ceiling_ft) == {"f": (2, 12), "F": (1, 12), "c": (5, 2.5), "l": (5, 4)}[glyph]


def test_no_chokepoint_in_one_room():
    room = grid(["#######", "#.....#", "#.....#", "#.....#", "#######"])
    assert find_chokepoints(room).chokepoints == ()


def test_a_two_square_opening_is_a_chokepoint_only_huge_feels():
    wide = grid(["#############",
                 "#....###....#",
                 "#...........#",
                 "#...........#",
                 "#....###....#",
                 "#############"])
    lay = find_chokepoints(wide)
    assert [set(c.squares) for c in lay.chokepoints] == [{(x, y) for x in (5, 6, 7) for y in (2, 3)}]
    for size in ("small", "medium", "large"):
        p = passage(wide, size)
        assert (p.category, p.extra_move_actions) == ("CLEAR", 0.0), size
    # Huge (15-ft space, 24 ft tall) is low in the chambers and squeezes into a line in the
    # 10-ft opening: narrow and low there
    assert passage(wide, "huge").category == "NARROW_AND_LOW"


def test_a_corridor_one_square_wide_is_a_chokepoint_by_its_rock():
    # drawn with the chambers' own glyph, but the rock leaves it 5 ft wide: free for Medium,
    # Narrow for Large (its 10-ft space squeezes into a line, RULES §2.6)
    g = two_chambers("w")
    lay = find_chokepoints(g)
    assert [set(c.squares) for c in lay.chokepoints] == [set(FISSURE)]
    med, large = passage(g, "medium"), passage(g, "large")
    assert (med.category, med.extra_move_actions) == ("CLEAR", 0.0)
    assert large.category == "NARROW_OR_LOW" and large.extra_move_actions == 0.0


def test_two_links_between_the_same_chambers_are_two_chokepoints():
    rows = ["#############",
            "#....fff....#",
            "#....###....#",
            "#....###....#",
            "#....ccc....#",
            "#############"]
    g = grid(rows)
    lay = find_chokepoints(g)
    assert sorted(map(set, (c.squares for c in lay.chokepoints)), key=min) == [squares_of(g, "f"), squares_of(g, "c")]
    assert all(c.joins == (1, 2) for c in lay.chokepoints)


def test_warrens_chokepoints_are_its_seven_links_exactly():
    g = load_map(MAPS / "warrens.toml")
    lay = find_chokepoints(g)
    got = sorted((sorted(c.squares) for c in lay.chokepoints), key=lambda s: s[0])
    want = sorted((sorted(squares_of(g, q)) for q in "=-zfclk"), key=lambda s: s[0])
    assert got == want
    area = {n: int(lay.area[y, x]) for n, (x, y) in g.points.items()}
    assert area["hall"] == area["bat_gallery"]          # the gallery hangs off the hall: no link narrower
    assert len({area[n] for n in ("entrance", "hall", "rat_warren", "lair")}) == 4


def test_roominess_orders_by_the_rules():
    g = two_chambers("f")
    geo = geometry(g)
    # a square is roomier exactly when it is milder for some size: chamber 20 ft x 12 ft vs the fissure
    assert geo.room[2, 2] > geo.room[2, 6] > 0
    assert geo.room[0, 0] == -1                          # rock


# -- what each size meets there --------------------------------------------------------------------

def test_two_foot_fissure_per_size():
    g = two_chambers("f")
    want = {"fine": ("open", "CLEAR", None), "diminutive": ("open", "CLEAR", None),
            "tiny": ("open", "NARROW_OR_LOW", None),        # 2 ft < its 2.5-ft space, >= half
            "small": ("open", "AWKWARD", 15), "medium": ("open", "AWKWARD", 15),
            "large": ("open", "AWKWARD", 15),               # side-on: body depth 1.5 ft fits in 2 ft
            "huge": ("stopped", "TIGHT_SQUEEZE", None),      # head 2 ft fits, body does not: DC 30 at +0
            "gargantuan": ("stopped", "IMPASSABLE", None)}   # head 4 ft does not fit
    for size, (status, cat, dc) in want.items():
        p = passage(g, size)
        assert (p.status, p.category, p.escape_dc) == (status, cat, dc), size
    assert passage(g, "huge").reason == "escape_artist"
    assert passage(g, "gargantuan").reason == "no_room"
    # with Escape Artist +10 a Huge creature can make DC 30 (taking 20)
    assert passage(g, "huge", escape_artist=10).status == "open"


def test_one_foot_fissure_stops_large():
    g = two_chambers("F")
    p = passage(g, "large")           # head 1 ft fits; 1 ft < body depth 1.5 ft: tight squeeze, DC 30
    assert (p.status, p.category, p.reason) == ("stopped", "TIGHT_SQUEEZE", "escape_artist")
    assert passage(g, "large", escape_artist=10).escape_dc == 30
    assert (passage(g, "medium").category, passage(g, "medium").escape_dc) == ("AWKWARD", 15)


@pytest.mark.parametrize("glyph,size,category", [
    ("f", "medium", "AWKWARD"), ("f", "small", "AWKWARD"), ("f", "tiny", "NARROW_OR_LOW"),
    ("c", "medium", "CRAWL"), ("c", "small", "NARROW_OR_LOW"), ("c", "large", "AWKWARD"),
    ("l", "medium", "NARROW_OR_LOW"), ("l", "large", "CRAWL"), ("l", "small", "CLEAR"),
])
def test_costs_are_the_movement_engines(glyph, size, category):
    g = two_chambers(glyph)
    p = passage(g, size)
    assert p.status == "open" and p.category == category
    assert p.ends == ((4, 2), (8, 2))                   # the chamber squares at the two mouths
    real, rel = engine_times(g, size, p.ends, glyph)
    assert p.move_actions == real.move_actions
    assert p.expected_move_actions == pytest.approx(real.expected_move_actions)
    assert p.extra_move_actions == pytest.approx(real.move_actions - rel.move_actions)
    assert p.expected_extra_move_actions == pytest.approx(real.expected_move_actions - rel.expected_move_actions)
    assert p.extra_rounds == pytest.approx(p.extra_move_actions / 2)


def test_fissure_cost_in_numbers():
    # Medium, Escape Artist +0, out of combat: each awkward square takes 20 tries (take 20: 20 + 0
    # >= 15), a move action each; rolling, 6 faces of 20 succeed: 20/6 move actions per square
    p = passage(two_chambers("f"), "medium")
    assert p.extra_move_actions >= 3 * 20 - 1
    assert p.expected_extra_move_actions == pytest.approx(3 * 20 / 6 + 1 - 1, abs=1.0)
    # the low tunnel: twice the cost per square (half speed), no check
    q = passage(two_chambers("l"), "medium")
    assert q.escape_dc is None and q.extra_move_actions == 1.0


# -- regions -------------------------------------------------------------------------------------

def test_regions_split_where_a_size_is_stopped():
    g = two_chambers("f")
    for size, n in (("medium", 1), ("large", 1), ("huge", 2)):
        lab = region_labels(move_field(g, Mover(body_for(size))))
        assert lab.max() == n, size
        assert (lab[2, 2] == lab[2, 10]) == (n == 1)


def test_regions_follow_escape_artist():
    g = two_chambers("F")
    big = Mover(body_for("large"))
    assert region_labels(move_field(g, big)).max() == 2
    assert region_labels(move_field(g, dataclasses.replace(big, escape_artist=10))).max() == 1


def test_sizes_are_nine():
    assert len(list(Size)) == 9


def test_the_sides_a_route_crosses_a_chokepoint_between():
    from sim.analysis.mapfacts import _sides_crossed

    lay = find_chokepoints(two_chambers("f"))
    (c,) = lay.chokepoints
    route = [(x, 2) for x in range(2, 11)]                  # west chamber, the fissure, east chamber
    assert _sides_crossed(route, c.index, lay) == {int(lay.area[2, 2]), int(lay.area[2, 10])} == set(c.joins)
    assert _sides_crossed(route[:3], c.index, lay) == set()   # it never gets into the fissure
