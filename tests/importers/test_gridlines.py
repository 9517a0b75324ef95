"""Walls and doors drawn along grid lines are walls and doors between squares (docs/rules.md
§6.8): the import finds them, every reader and writer keeps them, the analysis sees them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sim.analysis.regions import region_labels
from sim.base.errors import DataError
from sim.maps.exporters.tiled import export_tiled
from sim.maps.exporters.uvtt import export_uvtt
from sim.maps.importers.gridlines import grid_line_edges
from sim.maps.importers.tiled import read_tiled_grid
from sim.maps.importers.vtt import import_file
from sim.maps.read import load_map
from sim.maps.write import layers_arrays, write_map
from sim.rules.bodies import body_for
from sim.terrain.classify import classify
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover, move_field

from .test_uvtt import SAMPLES, imported, pt, room_doc


def _partitioned() -> CaveGrid:
    """A 6 x 5 room (rock round it), a partition along x = 3 with a closed door on row 2."""
    w = np.full((7, 8), 10.0)
    w[0, :] = w[-1, :] = w[:, 0] = w[:, -1] = 0
    east = np.zeros(w.shape, bool)
    east[1:6, 3] = True
    door = np.zeros(w.shape, bool)
    door[3, 3] = True
    return CaveGrid.from_arrays(w, np.where(w > 0, 10.0, 0.0), edges=(east & ~door, None), edge_doors=(door, None),
                                name="partition")


def _same_edges(a: CaveGrid, b: CaveGrid) -> bool:
    return all(x is not None and y is not None and (x.east == y.east).all() and (x.south == y.south).all()
               for x, y in ((a.edges, b.edges), (a.edge_doors, b.edge_doors)))


def test_imagix_sample_interior_partition():
    """The imagix sample: a 8 x 8-square room parted along x = 5 by a wall with a closed door at
    its north end (on rows 1 and 2: drawn across the line between them) and an open doorway at
    its south end, drawn across rows 7 and 8 (0.76 squares wide, centred on their common
    corner). The partition is 7 edges (2 of them the door), row 8 stays open, and the halves
    are joined through it only."""
    g = import_file(SAMPLES / "imagix-sampleMap.dd2vtt").grid
    assert np.argwhere(g.edges.east).tolist() == [[r, 4] for r in range(1, 8)]
    assert not g.edges.south.any()
    assert np.argwhere(g.edge_doors.east).tolist() == [[1, 4], [2, 4]]
    labels = region_labels(move_field(g, Mover(body_for("medium"))))
    assert labels[1:9, 1:9].min() == labels[1:9, 1:9].max() == 1
    east = g.edges.east.copy()
    east[8, 4] = True                                                    # wall the doorway too
    labels = region_labels(move_field(g.replace(edges=(east, None)), Mover(body_for("medium"))))
    assert set(labels[1:9, 1:5].ravel()) == {1} and set(labels[1:9, 5:9].ravel()) == {2}


def test_a_doorway_across_two_edges_keeps_one_open():
    floor = np.ones((3, 3), bool)
    g = grid_line_edges([np.array([[1.0, 0.0], [1.0, 0.62]]), np.array([[1.0, 1.38], [1.0, 3.0]])], floor)
    assert g.wall_e[:, 0].tolist() == [True, False, True]
    g = grid_line_edges([np.array([[1.0, 0.0], [1.0, 0.95]]), np.array([[1.0, 1.05], [1.0, 3.0]])], floor)
    assert g.wall_e[:, 0].tolist() == [True, True, True]                 # a 0.1-square slip is no doorway


def test_partition_with_a_door_imported_from_uvtt(tmp_path):
    """A partition on x = 3 with a closed door: the halves apart while it is closed; with the
    portal open they are joined through that one edge."""
    walls = [[pt(3, 1), pt(3, 2)]]
    door = {"position": pt(3, 2.5), "bounds": [pt(3, 2), pt(3, 3)], "rotation": 1.57, "closed": True}
    doc = room_doc(extra_walls=walls, portals=[door])
    g = imported(tmp_path, doc).grid
    medium = Mover(body_for("medium"))
    lab = region_labels(move_field(g, medium))
    assert lab[1, 1] != lab[1, 4] and lab[2, 2] != lab[2, 3]
    g = imported(tmp_path, room_doc(extra_walls=walls, portals=[dict(door, closed=False)])).grid
    assert g.edge_doors is None and np.argwhere(g.edges.east).tolist() == [[1, 2]]
    lab = region_labels(move_field(g, medium))
    assert lab[1, 1] == lab[1, 4]


def test_layers_round_trip(tmp_path):
    g = _partitioned()
    assert set(layers_arrays(g)) >= {"edge_e", "edge_s", "edge_door_e", "edge_door_s"}
    written = write_map(g, tmp_path / "p.toml")
    assert written.fmt == "layers"                       # a legend has no edges
    assert _same_edges(g, load_map(tmp_path / "p.toml"))
    with pytest.raises(DataError, match="a map with walls between squares is written with numeric layers"):
        write_map(g, tmp_path / "q.toml", fmt="legend")


def test_layers_without_edges_are_unchanged():
    g = CaveGrid.from_arrays([[10.0, 0.0]], [[10.0, 0.0]])
    assert set(layers_arrays(g)) == {"width_ft", "height_ft", "difficult"}


def test_bad_edge_layer_is_refused(tmp_path, capsys):
    from sim.cli import main
    write_map(_partitioned(), tmp_path / "p.toml")
    with np.load(tmp_path / "p.npz") as z:
        arrays = {k: z[k] for k in z.files}
    arrays["edge_e"] = arrays["edge_e"].astype(np.int8)
    np.savez(tmp_path / "p.npz", **arrays)
    assert main(["validate", str(tmp_path / "p.toml")]) == 2
    err = capsys.readouterr().err
    assert "edge_e" in err and "must be a bool array" in err and "Traceback" not in err


@pytest.mark.parametrize("suffix", [".tmx", ".tmj"])
def test_tiled_round_trip(tmp_path, suffix):
    g = _partitioned()
    export_tiled(g, tmp_path / f"p{suffix}")
    back = read_tiled_grid(tmp_path / f"p{suffix}")
    assert _same_edges(g, back) and (back.rock == g.rock).all()


def test_uvtt_round_trip(tmp_path):
    """Export to a Universal VTT file (walls between squares as walls on their grid lines, the
    closed door as a closed portal) and import it again: the same edges and doors."""
    g = _partitioned()
    export_uvtt(g, classify(g, body_for("medium")), tmp_path / "p.dd2vtt", k=16)
    doc = json.loads((tmp_path / "p.dd2vtt").read_text())
    assert [p["bounds"] for p in doc["portals"]] == [[{"x": 4, "y": 3}, {"x": 4, "y": 4}]]
    assert [[{"x": 4, "y": 1}, {"x": 4, "y": 3}], [{"x": 4, "y": 4}, {"x": 4, "y": 6}]] == \
        [seg for seg in doc["line_of_sight"] if seg[0]["x"] == seg[1]["x"] == 4]
    back = import_file(tmp_path / "p.dd2vtt").grid
    assert _same_edges(g, back) and (back.rock == g.rock).all()
