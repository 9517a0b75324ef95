"""Map files (DESIGN §5) and every bad-input path of issue 2, item 7."""


import numpy as np
import pytest

from sim.cli import main
from sim.base.errors import DataError
from sim.maps.read import load_map, to_feet
from sim.maps.limits import Limits

from conftest import MAPS

LEGEND = '''
"#" = "wall"
"." = { width = 10, height = 12 }
"f" = { width = 2, height = 8 }
"~" = { width = 10, height = 8, difficult = true }
'''
GRID = '''
######
#..f~#
######
'''


def test_loads_arrays_read_only_feet_row_col(write_map):
    g = load_map(write_map(GRID, LEGEND))
    assert g.shape == (3, 6) and (g.cols, g.rows) == (6, 3)
    assert g.width_ft[1, 3] == 2 and g.height_ft[1, 3] == 8  # (x=3, y=1) is the fissure
    assert g.square((3, 1)).width == 2
    assert g.difficult[1, 4] and not g.difficult[1, 1]
    assert g.rock[0].all() and not g.rock[1, 1:5].any()
    for a in (g.width_ft, g.height_ft, g.difficult, g.rock):
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0, 0] = 1


def test_metres_convert_exactly():
    assert to_feet(1.5, "m") == 5.0
    assert to_feet(0.6, "m") == 2.0
    assert to_feet(0.75, "m") == 2.5
    assert to_feet(0.18, "m") == 0.6
    g = load_map(MAPS / "gallery_m.toml")
    assert g.units == "m" and g.width_ft[2, 12] == 2.0


def test_points(write_map):
    p = write_map(GRID, LEGEND, extra='''
        [[point]]
        name = "door"
        at = [1, 1]
    ''')
    assert dict(load_map(p).points) == {"door": (1, 1)}


def test_layers_npz(tmp_path):
    w = np.array([[0, 10, 2.5], [0, 4, 0]], dtype=float)
    h = np.array([[0, 12, 1.0], [0, 4, 0]], dtype=float)
    np.savez(tmp_path / "l.npz", width_ft=w, height_ft=h, difficult=np.array([[0, 1, 0], [0, 0, 0]], bool))
    (tmp_path / "m.toml").write_text('[map]\nname = "npz"\nlayers = "l.npz"\n')
    g = load_map(tmp_path / "m.toml")
    assert np.array_equal(g.width_ft, w) and g.rock.tolist() == [[True, False, False], [True, False, True]]
    assert g.difficult[0, 1]


def errors_of(path, **kw):
    with pytest.raises(DataError) as exc:
        load_map(path, **kw)
    return str(exc.value)


def test_unknown_glyph_names_line_and_position(write_map):
    p = write_map("######\n#..Q.#\n######", LEGEND)
    msg = errors_of(p)
    assert f"{p}:6: [map] grid (3, 1): unknown glyph 'Q'; add it to [legend]" in msg


def test_ragged_rows(write_map):
    p = write_map("######\n#...#\n######", LEGEND)
    assert "[map] grid row 1: has 5 squares but the first row has 6" in errors_of(p)
    assert ":6:" in errors_of(p)  # line 4 is grid = """, row 1 is line 6


def test_missing_legend(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text('[map]\nname = "x"\ngrid = """\n#.#\n"""\n')
    msg = errors_of(p)
    assert "[legend]: missing legend; add [legend]" in msg


@pytest.mark.parametrize("value,needle", [
    ("-2", "width must be > 0 (use \"wall\" for solid rock), got -2"),
    ("0", "width must be > 0"),
    ("nan", "width must be a finite number of ft, got nan"),
    ('"wide"', "width must be a number of ft, got 'wide'"),
    ("true", "width must be a number of ft, got True"),
])
def test_bad_widths(write_map, value, needle):
    p = write_map(GRID, LEGEND.replace('"f" = { width = 2', f'"f" = {{ width = {value}'))
    msg = errors_of(p)
    assert "[legend] 'f'.width: " + needle in msg
    assert f"{p}:" in msg


def test_bad_height_and_missing_key(write_map):
    p = write_map(GRID, LEGEND.replace('"f" = { width = 2, height = 8 }', '"f" = { width = 2, height = -1 }')
                  .replace('"." = { width = 10, height = 12 }', '"." = { width = 10 }'))
    msg = errors_of(p)
    assert "[legend] 'f'.height: height must be > 0" in msg
    assert "[legend] '.': missing height" in msg  # both problems reported


def test_unknown_units(write_map):
    p = write_map(GRID, LEGEND, units="yards")
    assert "[map] units: unknown units 'yards'; use \"ft\" or \"m\"" in errors_of(p)


def test_size_limit_default_and_settable(write_map):
    p = write_map("#" * 30 + "\n" + "#" * 30, LEGEND)
    assert "is 30x2 squares, over the limit of 20x20" in errors_of(p, limits=Limits(20, 20))
    load_map(p)  # default 4096x4096 is fine
    assert Limits.parse("4096x4096") == Limits()
    with pytest.raises(DataError, match="write it as COLSxROWS"):
        Limits.parse("big")


def test_malformed_toml(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[map]\nname = "x"\nunits = \n')
    assert "not valid TOML" in errors_of(p) and "line 3" in errors_of(p)


def test_missing_file_and_npz(tmp_path):
    assert "no such file" in errors_of(tmp_path / "nope.toml")
    (tmp_path / "m.toml").write_text('[map]\nname = "x"\nlayers = "gone.npz"\n')
    msg = errors_of(tmp_path / "m.toml")
    assert "m.toml:3: [map] layers: file" in msg and "gone.npz not found" in msg


def test_npz_with_nan_or_pickle_refused(tmp_path):
    np.savez(tmp_path / "l.npz", width_ft=np.array([[np.nan, 1.0]]), height_ft=np.ones((1, 2)))
    (tmp_path / "m.toml").write_text('[map]\nlayers = "l.npz"\n')
    assert "width_ft: 1 square is NaN or infinite, first at (0, 0)" in errors_of(tmp_path / "m.toml")
    np.savez(tmp_path / "l.npz", width_ft=np.array([[{"a": 1}]], dtype=object), height_ft=np.ones((1, 1)))
    assert "'width_ft' has dtype object; layers are float, int or bool arrays" in errors_of(tmp_path / "m.toml")


def test_unknown_keys_and_tables(write_map):
    p = write_map(GRID, LEGEND.replace('"f" = { width = 2, height = 8 }', '"f" = { width = 2, heigth = 8 }'),
                  extra="[mapp]\nx = 1\n")
    msg = errors_of(p)
    assert "[legend] 'f'.heigth: unknown key; allowed: difficult, height, width" in msg
    assert "mapp: unknown table or key" in msg


def test_point_in_rock_or_off_map(write_map):
    p = write_map(GRID, LEGEND, extra='[[point]]\nname = "a"\nat = [0, 0]\n[[point]]\nname = "b"\nat = [9, 9]\n')
    msg = errors_of(p)
    assert "[[point]] 'a'.at: (0, 0) is solid rock" in msg
    assert "[[point]] 'b'.at: (9, 9) is off the map (6x3)" in msg


# ---- CLI: classify, validate ---------------------------------------------------------------

def test_cli_bad_map_exit_2_no_traceback(write_map, capsys):
    p = write_map("#Q#", LEGEND)
    assert main(["classify", str(p), "--size", "medium"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cavesim: error: ") and "unknown glyph 'Q'" in err and "Traceback" not in err


def test_cli_unknown_size(capsys):
    assert main(["classify", str(MAPS / "gallery.toml"), "--size", "medum"]) == 2
    assert "--size: unknown size 'medum': use one of fine" in capsys.readouterr().err


def test_validate_lists_every_problem_in_every_file(write_map, tmp_path, capsys):
    bad1 = write_map("#Q#\n##", LEGEND, name="a.toml")
    bad2 = tmp_path / "b.toml"
    bad2.write_text("[map\n")
    assert main(["validate", str(MAPS / "warrens.toml"), str(bad1), str(bad2)]) == 2
    out, err = capsys.readouterr()
    assert "warrens.toml: ok" in out
    assert "unknown glyph 'Q'" in err and "has 2 squares but the first row has 3" in err
    assert "b.toml: not valid TOML" in err
    assert "2 of 3 files have problems" in err
    assert main(["validate", str(MAPS / "gallery.toml"), str(MAPS / "gallery_m.toml")]) == 0


def test_validate_every_shipped_file_and_stat_block(capsys):
    import glob

    files = sorted(glob.glob(str(MAPS / "*.toml"))) + sorted(glob.glob("sim/data/pcs/*.toml"))[:3]
    assert main(["validate", *files]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == len(files)


def test_validate_a_file_of_nothing_known(tmp_path, capsys):
    p = tmp_path / "x.toml"
    p.write_text("a = 1\n")
    assert main(["validate", str(p)]) == 2
    assert "not a map ([map]), an encounter ([encounter]), a crawl ([crawl]) or a stat block" in capsys.readouterr().err
