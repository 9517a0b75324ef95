"""Rock is rock, sealed spaces are the user's call (issue 35, docs/rules.md §2.10): a loop drawn
inside the floor is rock; every enclosed space not joined to the main floor is listed with what was
decided; ``--enclosed floor|rock`` and ``--floor``/``--rock X,Y`` decide; a closed door joins."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.cli import main
from sim.maps.importers.common import ImportOptions
from sim.maps.importers.spaces import find_floor
from sim.maps.importers.vtt import import_file
from sim.maps.read import load_map


def pt(x, y):
    return {"x": x, "y": y}


def ring(x0, y0, x1, y1):
    return [pt(x0, y0), pt(x1, y0), pt(x1, y1), pt(x0, y1), pt(x0, y0)]


def doc(*loops, portals=()):
    """A 16 x 10-square map with the given wall loops (squares)."""
    return {"format": 0.3, "resolution": {"map_origin": pt(0, 0), "map_size": pt(16, 10), "pixels_per_grid": 16},
            "line_of_sight": list(loops), "objects_line_of_sight": [], "portals": list(portals), "lights": [],
            "image": ""}


HALL = ring(1, 1, 9, 9)                  # an 8 x 8-square hall
PILLAR = ring(3, 3, 5, 5)                # a 2 x 2-square loop inside it
POOL = ring(6, 6, 8, 8)                  # another
ANNEX = [pt(9, 3), pt(12, 3), pt(12, 6), pt(9, 6)]    # a 3 x 3-square room on the hall's east wall, no door
CRATE = ring(13, 7, 15, 9)               # a loop out in the open, beside the hall


def load(tmp_path, d, **opts):
    p = tmp_path / "m.dd2vtt"
    p.write_text(json.dumps(d))
    return import_file(p, ImportOptions(**opts))


def test_loops_are_rock_a_room_without_a_door_is_floor(tmp_path):
    got = load(tmp_path, doc(HALL, PILLAR, POOL, ANNEX, CRATE))
    floor = ~got.grid.rock
    assert not floor[3:5, 3:5].any() and not floor[6:8, 6:8].any()       # pillar and pool: rock
    assert not floor[7:9, 13:15].any()                                    # the crate: rock
    assert floor[1:9, 1:9].sum() == 64 - 8 and floor[3:6, 9:12].all()     # the hall round them; the annex
    # sizes: the free pixels inside the drawn line (10 px/ft); a square: the one at the middle
    listed = [(s.square, round(s.squares, 2), s.kind, s.floor, s.why) for s in got.spaces]
    assert listed == [((10, 4), 8.88, "separate", True, "default"), ((4, 4), 3.92, "object", False, "default"),
                      ((7, 7), 3.92, "object", False, "default"), ((14, 8), 3.92, "object", False, "default")]


@pytest.mark.parametrize("enclosed, pillar, annex", [("floor", True, True), ("rock", False, False)])
def test_enclosed_decides_every_listed_space(tmp_path, enclosed, pillar, annex):
    got = load(tmp_path, doc(HALL, PILLAR, ANNEX), enclosed=enclosed)
    floor = ~got.grid.rock
    assert floor[3:5, 3:5].all() == pillar and floor[3:6, 9:12].all() == annex
    assert all(s.why == f"--enclosed {enclosed}" and s.floor == (enclosed == "floor") for s in got.spaces)


def test_a_seed_square_decides_its_space_over_enclosed(tmp_path):
    got = load(tmp_path, doc(HALL, PILLAR, POOL), enclosed="rock", floor=((3, 3),))
    floor = ~got.grid.rock
    assert floor[3:5, 3:5].all() and not floor[6:8, 6:8].any()
    assert [(s.square, s.floor, s.why) for s in got.spaces] == [((4, 4), True, "--floor 3,3"),
                                                                 ((7, 7), False, "--enclosed rock")]


def test_a_room_behind_a_closed_door_is_joined_not_sealed(tmp_path):
    # the annex on the hall's east wall (x = 9), with a closed door in that wall: joined, not listed
    door = {"bounds": [pt(9, 4), pt(9, 5)], "closed": True, "position": pt(9, 4.5)}
    got = load(tmp_path, doc(HALL, ANNEX, portals=[door]), enclosed="rock")
    assert got.spaces == () and (~got.grid.rock)[3:6, 9:12].sum() >= 6


def test_find_floor_a_tunnel_ring_leaves_its_core_rock():
    """The rock between two tunnels: a ring-shaped floor round a walled core (pixels)."""
    wall = np.zeros((40, 40), bool)
    wall[5, 5:35] = wall[34, 5:35] = wall[5:35, 5] = wall[5:35, 34] = True        # the outer wall
    wall[12, 12:28] = wall[27, 12:28] = wall[12:28, 12] = wall[12:28, 27] = True  # the core's wall
    floor, spaces = find_floor(wall, min_pixels=16, spx=10.0)
    assert not floor[13:27, 13:27].any() and floor[6:12, 6:34].all()
    assert [(s.kind, s.floor, s.squares) for s in spaces] == [("object", False, 1.96)]


def test_cli_summary_lists_the_spaces_and_json(tmp_path, capsys):
    src = tmp_path / "hall.dd2vtt"
    src.write_text(json.dumps(doc(HALL, PILLAR, ANNEX)))
    out = tmp_path / "hall.toml"
    assert main(["import", str(src), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "2 enclosed spaces not joined to the main floor" in text
    assert "at 4,4: 3.9 squares, an object loop -> rock (default)" in text
    assert "at 10,4: 8.9 squares, a separate space -> floor (default)" in text
    assert main(["import", str(src), "--out", str(out), "--enclosed", "rock", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(e["square"], e["floor"], e["why"]) for e in data["enclosed"]] == [
        ([10, 4], False, "--enclosed rock"), ([4, 4], False, "--enclosed rock")]
    assert load_map(out).rock[3:6, 9:12].all()


def test_cli_enclosed_is_refused_for_grid_maps(tmp_path, capsys):
    src = tmp_path / "m.tmj"
    src.write_text("{}")
    assert main(["import", str(src), "--out", str(tmp_path / "m.toml"), "--enclosed", "rock"]) == 2
    err = capsys.readouterr().err
    assert "--enclosed is for Universal VTT maps" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.tmj"]


def test_a_room_drawn_apart_is_floor_a_crate_in_the_open_rock(tmp_path):
    # out in the open: a 3 x 6-square shed (18 squares) and the 2 x 2-square crate
    shed = ring(12.5, 0.5, 15.5, 6.5)
    got = load(tmp_path, doc(HALL, shed, CRATE))
    floor = ~got.grid.rock
    assert floor[1:6, 13:15].all() and not floor[7:9, 13:15].any()
    assert [(s.kind, s.floor) for s in got.spaces] == [("separate", True), ("object", False)]
