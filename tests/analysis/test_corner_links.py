"""Floor squares that touch only at a corner between two rock squares (RULES §6.2): not joined
for anyone; `validate` warns, `analyze` lists them, the renderer draws no passage (issue 19)."""

import json

import numpy as np
from scipy import ndimage

from sim.analysis.mapfacts import analyze_map, size_subjects
from sim.analysis.regions import region_labels
from sim.cli import main
from sim.terrain.corners import corner_links
from sim.maps.read import load_map
from sim.terrain.movement import Mover, move_field
from sim.rules.bodies import body_for

CORNER = """
[map]
name = "Corner"
grid = \"\"\"
########
#...####
#...####
####...#
####...#
########
\"\"\"
[legend]
"#" = "wall"
"." = { width = 10, height = 10 }

[[point]]
name = "west"
at = [1, 1]

[[point]]
name = "east"
at = [6, 4]
"""


def _map(tmp_path, text=CORNER):
    p = tmp_path / "corner.toml"
    p.write_text(text)
    return p


def test_corner_links_finds_both_diagonals_and_only_them():
    rock = np.array([[1, 1, 1, 1, 1],
                     [1, 0, 1, 0, 1],
                     [1, 1, 0, 1, 1],
                     [1, 1, 1, 0, 1],
                     [1, 1, 1, 1, 1]], dtype=bool)
    assert corner_links(rock) == [((1, 1), (2, 2)), ((3, 1), (2, 2)), ((2, 2), (3, 3))]
    # an open side square joins them: no warning
    rock[1, 2] = False
    assert ((1, 1), (2, 2)) not in corner_links(rock)
    assert corner_links(np.ones((1, 5), bool)) == []


def test_they_are_really_not_joined_for_anyone(tmp_path):
    g = load_map(_map(tmp_path))
    lab = region_labels(move_field(g, Mover(body_for("fine"))))
    assert lab[2, 3] != lab[3, 4]


def test_validate_warns_with_the_squares_and_the_fix(tmp_path, capsys):
    p = _map(tmp_path)
    assert main(["validate", str(p)]) == 0            # a warning, not a problem
    err = capsys.readouterr().err
    assert f"{p}: warning: 1 pair(s) of floor squares touch only at a corner" in err
    assert "(3,2)-(4,3)" in err and "RULES §6.2" in err
    assert "open one of the two squares between them, e.g. (4,2) or (3,3)" in err


def test_validate_is_quiet_on_the_shipped_warrens(capsys):
    assert main(["validate", "maps/warrens.toml"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_analyze_lists_them(tmp_path):
    g = load_map(_map(tmp_path))
    m = analyze_map(g, subjects=size_subjects(["medium"]), min_area=2)
    assert m.facts["corner_links"] == [{"squares": [[3, 2], [4, 3]], "open_one_of": [[4, 2], [3, 3]]}]
    json.dumps(m.facts)
    assert m.facts["summary"][0]["to"]["east"]["reachable"] is False


def test_the_renderer_draws_no_passage_through_the_corner(tmp_path):
    from sim.render.art import floor_mask

    g = load_map(_map(tmp_path))
    for ts in (16, 32):
        assert ndimage.label(floor_mask(g, ts))[1] == 2


def test_analyze_terminal_shows_the_summary_and_the_corner_contacts(tmp_path, capsys):
    from sim.cli import main

    assert main(["analyze", str(_map(tmp_path)), "--no-files", "--sizes", "medium"]) == 0
    out = capsys.readouterr().out
    assert "From west: expected / guaranteed rounds" in out
    assert "corner-only contacts (not joined for anyone, RULES §6.2): 3,2-4,3" in out
