"""Travel between named points and the analyze report: times are the movement engine's."""

import json
import math

import pytest

from sim.analysis.mapfacts import analyze_map, size_subjects, template_subject
from sim.analysis.travel import Traveller
from sim.cli import main
from sim.maps.read import load_map
from sim.terrain.movement import Mover, distance_map, find_path, move_field
from sim.rules.bodies import body_for

from .helpers import MAPS, two_chambers


@pytest.mark.parametrize("size", ["tiny", "small", "medium", "large"])
def test_trip_times_equal_the_engines(size):
    g = load_map(MAPS / "warrens.toml")
    mover = Mover(body_for(size), speed_ft=20 if size == "small" else 30)
    t = Traveller(g, mover)
    f = move_field(g, mover)
    names = list(g.points)
    for a in names:
        start = t.refs(a)[0]
        dg = distance_map(f, start)
        de = distance_map(f, start, expected=True)
        for b in names:
            if a == b:
                continue
            trip = t.trip(a, b)
            goals = t.refs(b)
            reach = [q for q in goals if dg.feet[q[1], q[0]] >= 0]
            assert trip.reachable == bool(reach)
            if not reach:
                continue
            best = min(reach, key=lambda q: dg.actions[q[1], q[0]])
            assert trip.move_actions == dg.actions[best[1], best[0]]
            assert trip.rounds == dg.rounds[best[1], best[0]] == math.ceil(trip.move_actions / 2)
            assert trip.expected_move_actions == pytest.approx(min(de.actions[q[1], q[0]] for q in goals))
            path = find_path(f, start, trip.squares[-1])
            assert list(trip.squares) == [tuple(p) for p in path.squares]


def test_medium_point_to_point_is_distance_map_from_the_point():
    g = two_chambers("c")
    mover = Mover(body_for("medium"))
    trip = Traveller(g, mover).trip("west", "east")
    d = distance_map(move_field(g, mover), (2, 2))
    e = distance_map(move_field(g, mover), (2, 2), expected=True)
    assert (trip.move_actions, trip.rounds) == (d.actions[2, 10], d.rounds[2, 10])
    assert trip.expected_rounds == pytest.approx(e.actions[2, 10] / 2)


def test_sentences_name_the_chokepoint_a_size_cannot_avoid():
    m = analyze_map(two_chambers("c"), subjects=size_subjects(["small", "medium", "huge"]))
    (trip,) = m.facts["travel"]
    med = trip["movers"]["medium"]
    assert med["required"] == ["C1"] and med["via"] == ["C1"]
    c1 = m.facts["chokepoints"][0]["movers"]["medium"]
    extra = c1["extra_move_actions"] / 2
    assert med["summary"] == (f"Medium reaches east in {med['rounds']} rounds "
                              f"({med['expected_rounds']:g} expected), only by crawling through C1 (+{extra:g} rounds)")
    assert trip["movers"]["small"]["summary"].endswith("only by edging (half speed) through C1 (+0.5 rounds)") or \
        "edging (half speed) through C1" in trip["movers"]["small"]["summary"]
    huge = trip["movers"]["huge"]
    assert not huge["reachable"] and huge["summary"] == "Huge cannot get from west to east: stopped at C1"


def test_regions_and_named_points_per_size():
    g = load_map(MAPS / "warrens.toml")
    m = analyze_map(g, subjects=size_subjects(["medium"]) + [template_subject("rat-swarm")])
    regions = m.facts["regions"]
    assert regions["medium"]["count"] == 1
    assert set(regions["medium"]["points"]) == set(g.points)
    # the crack k (3.6 in.) is open to rat swarms only: C7 stops Medium, not the rats
    c7 = next(c for c in m.facts["chokepoints"] if [37, 27] == c["at"])   # the middle of the crack's length
    assert c7["movers"]["medium"]["status"] == "stopped"
    assert c7["movers"]["rat-swarm"]["status"] == "open"
    assert "medium" in c7["stops"] and "rat-swarm" not in c7["stops"]


def test_analyze_command_writes_report_json_and_pictures(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["analyze", str(MAPS / "warrens.toml"), "--out", str(out), "--sizes", "medium,large"]) == 0
    text = capsys.readouterr().out
    assert "7 chokepoints" in text and "Large reaches" in text
    facts = json.loads((out / "analysis.json").read_text())
    assert [c["id"] for c in facts["chokepoints"]] == [f"C{i}" for i in range(1, 8)]
    assert set(facts["points"]) == {"entrance", "hall", "bat_gallery", "rat_warren", "lair"}
    html = (out / "report.html").read_text()
    # overview, one sheet of category maps, one sheet of travel maps (small multiples)
    assert html.count("data:image/png;base64,") == 1 + 1 + 1
    for name in ("overview.png", "categories_medium.png", "categories_large.png",
                 "travel_entrance_medium.png", "travel_entrance_large.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(facts["files"]) == sorted(p.name for p in out.iterdir())


def test_analyze_travel_maps_from_a_chosen_point(tmp_path, capsys):
    out = tmp_path / "rep"
    assert main(["analyze", str(MAPS / "warrens.toml"), "--out", str(out), "--sizes", "small",
                 "--entrance", "lair", "--entrance", "hall"]) == 0
    assert sorted(p.name for p in out.glob("travel_*")) == ["travel_hall_small.png", "travel_lair_small.png"]


def test_analyze_json_to_stdout(capsys):
    assert main(["analyze", str(MAPS / "warrens.toml"), "--no-files", "--json", "--sizes", "medium"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["schema_version"] == 2 and facts["subjects"][0]["key"] == "medium"
    # schema 2: chokepoints carry their crossing, and each body where it crosses and what it separates
    for c in facts["chokepoints"]:
        assert {"crossing", "at", "width_ft"} <= set(c)
        assert {"crossed", "separates", "changes_category"} <= set(c["movers"]["medium"])
    assert facts["pockets"] == []


@pytest.mark.parametrize("args,msg", [
    (["--creature", "no-such-beast"], "--creature no-such-beast"),
    (["--sizes", "enormous"], "--sizes: unknown size 'enormous'"),
    (["--sizes", "none"], "--sizes none leaves nothing to analyse"),
    (["--min-area", "0"], "--min-area must be at least 1"),
    (["--speed", "7"], "--speed must be a non-negative multiple of 5"),
    (["--entrance", "cellar"], "--entrance cellar: no point 'cellar' in"),
])
def test_analyze_bad_input(tmp_path, capsys, args, msg):
    out = tmp_path / "rep"
    assert main(["analyze", str(MAPS / "warrens.toml"), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err
    assert not out.exists()


def test_analyze_missing_parent_folder(tmp_path, capsys):
    out = tmp_path / "nowhere" / "rep"
    assert main(["analyze", str(MAPS / "warrens.toml"), "--out", str(out)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "nowhere").exists()
