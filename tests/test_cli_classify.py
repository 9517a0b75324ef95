import json
import subprocess
import sys

from sim.cli import main

from conftest import MAPS, ROOT


def test_classify_json_schema(capsys):
    assert main(["classify", str(MAPS / "gallery.toml"), "--size", "medium", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["map"] == "Gallery of the worked examples"
    assert out["size"] == "medium"
    assert out["body"] == {"size": "medium", "form": "tall", "space": 5.0, "height": 6.0, "head": 0.5,
                           "shoulders": 1.5, "depth": 0.75}
    assert (out["cols"], out["rows"]) == (25, 5) and len(out["grid"]) == 5 and len(out["grid"][0]) == 25
    assert out["grid"][2][2:23:2] == ["CLEAR", "NARROW_OR_LOW", "NARROW_OR_LOW", "NARROW_AND_LOW", "CRAWL",
                                      "AWKWARD", "AWKWARD", "AWKWARD", "TIGHT_SQUEEZE", "TIGHT_SQUEEZE",
                                      "IMPASSABLE"]
    assert out["grid"][0][0] == "IMPASSABLE"  # rock


def test_classify_text_has_letters_and_legend_counts(capsys):
    assert main(["classify", str(MAPS / "gallery.toml"), "--size", "medium"]) == 0
    out = capsys.readouterr().out
    assert "  2 #...n.n.N.c.a.a.a.t.t.x.#" in out              # row 2, with its number (issue 19)
    assert "    0         1         2\n    0123456789012345678901234\n  0 ####" in out   # column ruler
    assert "Narrow and Low" in out and "Awkward Space              3" in out


def test_classify_all_sizes(capsys):
    assert main(["classify", str(MAPS / "gallery.toml"), "--all-sizes", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["floor"] == 69 and out["rock"] == 56
    assert out["sizes"]["medium"]["AWKWARD"] == 3
    assert all(sum(v.values()) == 69 for v in out["sizes"].values())
    assert main(["classify", str(MAPS / "warrens.toml"), "--all-sizes"]) == 0
    assert "colossal" in capsys.readouterr().out


def test_swarm_and_height_options(capsys):
    assert main(["classify", str(MAPS / "warrens.toml"), "--size", "tiny", "--swarm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["body"]["opening"] == 0.25
    assert out["size"] == "tiny" and out["swarm"] is True and "creature" not in out
    assert set(c for row in out["grid"] for c in row) == {"CLEAR", "IMPASSABLE"}
    assert main(["classify", str(MAPS / "gallery.toml"), "--size", "small", "--height", "3.1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["grid"][2][6] == "CLEAR"  # W 10, C 4 for a halfling


def test_python_dash_m_and_importing_core_leaves_pygame_out():
    code = ("import sys, sim, sim.terrain.classify, sim.scenario.files, sim.cli; "
            "assert 'pygame' not in sys.modules, 'pygame imported'; print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "clean" in r.stdout, r.stderr
    r = subprocess.run([sys.executable, "-m", "sim", "classify", "maps/gallery.toml", "--size", "large"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0 and "for a large body" in r.stdout


def test_classify_json_size_is_always_a_size_name(capsys):
    assert main(["classify", str(MAPS / "gallery.toml"), "--creature", "ogre", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["size"], out["creature"], out["swarm"]) == ("large", "Ogre", False)
    assert out["body"]["size"] == "large"
    assert main(["classify", str(MAPS / "gallery.toml"), "--creature", "rat-swarm", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["size"], out["creature"], out["swarm"]) == ("tiny", "Rat swarm", True)


def test_every_ascii_map_has_column_and_row_rulers(capsys):
    """issue 19: classify, path, reach and demo --text print coordinates you can read off."""
    ruler = "    0         1         2\n    0123456789012345678901234\n  0 #########################"
    for argv in (["reach", str(MAPS / "gallery.toml"), "--size", "medium", "--from", "2,2"],
                 ["path", str(MAPS / "gallery.toml"), "--size", "medium", "--from", "2,2", "--to", "6,2"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert ruler in out, argv[0]
        assert "\n  4 ####" in out
