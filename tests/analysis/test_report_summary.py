"""The analyze report answers on first sight (issue 19): a summary per size and named point with
expected and guaranteed rounds and the deciding chokepoint; a chokepoint x size matrix; small
multiples at one scale."""

from sim.analysis.mapfacts import analyze_map
from sim.analysis.mapreport import html, pictures, sheets
from sim.rules.sizes import Size

from .helpers import grid

ROWS = ["#############",
        "#....###....#",
        "#....fff....#",
        "#....###....#",
        "#....###....#",
        "#############"]


def _analysis():
    g = grid(ROWS, points={"entrance": (2, 2), "lair": (10, 2)})
    return analyze_map(g, min_area=4)


def test_summary_has_every_size_with_expected_then_guaranteed_and_the_deciding_chokepoint():
    m = _analysis()
    rows = m.facts["summary"]
    assert [r["body"] for r in rows] == [s.key for s in Size]
    by = {r["body"]: r["to"]["lair"] for r in rows}
    med = by["medium"]
    trip = next(t for t in m.facts["travel"] if (t["from"], t["to"]) == ("entrance", "lair"))["movers"]["medium"]
    assert med == {"reachable": True, "expected_rounds": trip["expected_rounds"], "rounds": trip["rounds"],
                   "decided_by": "C1"}
    # a 2-ft fissure: Escape Artist DC 15 for a Medium body; rolling is faster on average than take 10
    assert med["expected_rounds"] < med["rounds"]
    assert by["fine"]["decided_by"] is None              # Clear for Fine: nothing decides its walk
    huge = by["huge"]
    assert huge["reachable"] is False and huge["decided_by"] == "C1"


def test_html_starts_with_the_summary_and_shows_the_matrix_for_all_nine_sizes():
    m = _analysis()
    pics = {**pictures(m), **sheets(m)}
    page = html(m, pics)
    assert page.index('id="summary"') < page.index('id="overview"') < page.index('id="chokepoints"')
    assert "<nav><b>Contents</b>" in page
    matrix = page[page.index('id="chokepoints"'):page.index('id="corners"')]
    for letter in "FDTSMLHGC":
        assert f"<th>{letter}</th>" in matrix
    assert "STOP" in matrix and 'title="Huge: stopped' in matrix
    assert "✗ stopped at C1" in page
    assert {"all_categories.png", "all_travel_entrance.png"} <= set(pics)
