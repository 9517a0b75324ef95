"""The editor's walls between squares (docs/rules.md §6.8): the edge operation, undo and redo,
saving, and the X tool in the window."""

from __future__ import annotations

import numpy as np
import pytest

from sim.editor.model import Document
from sim.editor.ops import Edge, parse_op, run, to_json
from sim.editor.save import save
from sim.maps.read import load_map


def _room() -> Document:
    doc = Document.blank(6, 4)
    run(doc, parse_op({"op": "rect", "layer": "width", "value": 10, "from": [0, 0], "to": [5, 3]}))
    return doc


def test_edge_op_walls_undoes_and_saves(tmp_path):
    doc = _room()
    op = parse_op({"op": "edge", "from": [3, 0], "to": [3, 4]})
    assert op == Edge((3, 0), (3, 4), True) and parse_op(to_json(op)) == op
    assert run(doc, op).changed == 4
    assert doc.to_grid().edges.east[:, 2].tolist() == [True] * 4
    assert run(doc, parse_op({"op": "undo"})).changed == 4 and doc.to_grid().edges is None
    run(doc, parse_op({"op": "redo"}))
    assert run(doc, parse_op({"op": "edge", "from": [3, 2], "to": [3, 1], "value": False})).changed == 1
    assert run(doc, parse_op({"op": "edge", "from": [0, 2], "to": [6, 2]})).changed == 6
    save(doc, tmp_path / "room.toml")
    g = load_map(tmp_path / "room.toml")
    assert g.edges.east[:, 2].tolist() == [True, False, True, True] and g.edges.south[1].all()


def test_edge_op_refusals():
    doc = _room()
    with pytest.raises(ValueError, match="slanted"):
        parse_op({"op": "edge", "from": [0, 0], "to": [2, 2]})
    assert "off the map" in run(doc, parse_op({"op": "edge", "from": [0, 9], "to": [2, 9]})).reason
    assert run(doc, parse_op({"op": "edge", "from": [0, 0], "to": [6, 0]})).changed == 0   # the map's border


def test_window_edge_tool(tmp_path):
    pygame = pytest.importorskip("pygame")
    from sim.render.editor import EditorView
    doc = _room()
    v = EditorView(doc, tmp_path / "room.toml", chokepoints=False, worker="inline")
    v.resize((900, 700))
    v.fit()
    v.key(pygame.K_x, 0)
    assert v.tool == "edge"
    a, b = v.camera.to_screen(2, 0), v.camera.to_screen(2.2, 3.1)
    v.press(a, 1, 0)
    v.motion(b)
    v.release(b, 1, 0)
    assert v.journal[-1] == Edge((2, 0), (2, 3), True)
    assert np.argwhere(doc.edge_e).tolist() == [[0, 1], [1, 1], [2, 1]]
    v.draw(pygame.Surface((900, 700)))
    v.press(a, 1, pygame.KMOD_SHIFT)
    v.motion(b)
    v.release(b, 1, pygame.KMOD_SHIFT)
    assert not doc.edge_e.any()
