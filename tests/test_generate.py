"""The seeded natural-cave generator and ``cavesim generate`` (DESIGN §5, §6)."""

import numpy as np
import pytest
from scipy import ndimage

from sim.maps import write as mapwrite
from sim.terrain.classify import classify
from sim.cli import main
from sim.maps.generate import (
    GLYPHS, HEIGHT_CLASSES, MIN_SIZE, WIDTH_CLASSES, ascii_grid, generate_cave, generate_cave_with_features,
    quantise,
)
from sim.terrain.grid import width_allowance_ft
from sim.maps.read import load_map
from sim.rules.bodies import body_for
from sim.rules.categories import Category
from sim.maps.limits import Limits

SEEDS = (0, 1, 2, 7, 42)
MEDIUM = body_for("medium")


def runs_oracle(floor: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical open-run lengths through each square, the slow obvious way."""

    def along_rows(a):
        out = np.zeros(a.shape, dtype=int)
        for r in range(a.shape[0]):
            c = 0
            while c < a.shape[1]:
                if not a[r, c]:
                    c += 1
                    continue
                start = c
                while c < a.shape[1] and a[r, c]:
                    c += 1
                out[r, start:c] = c - start
        return out

    return along_rows(floor), along_rows(floor.T).T


def bfs_steps(floor: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """4-connected walking steps from ``start`` ([row, col]); -1 where unreachable."""
    dist = np.full(floor.shape, -1)
    dist[start] = 0
    frontier = [start]
    while frontier:
        nxt = []
        for r, c in frontier:
            for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if floor[rr, cc] and dist[rr, cc] < 0:
                    dist[rr, cc] = dist[r, c] + 1
                    nxt.append((rr, cc))
        frontier = nxt
    return dist


def neighbour_diffs(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """|difference| between every pair of 4-neighbour squares both in ``mask``."""
    h = np.abs(values[:, 1:] - values[:, :-1])[mask[:, 1:] & mask[:, :-1]]
    v = np.abs(values[1:] - values[:-1])[mask[1:] & mask[:-1]]
    return np.concatenate([h, v])


# --------------------------------------------------------------------------- determinism


def test_same_seed_same_cave():
    a = generate_cave(5, 96, 64)
    b = generate_cave(5, 96, 64)
    for name in ("width_ft", "height_ft", "difficult", "rock"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert dict(a.points) == dict(b.points)


def test_different_seed_different_cave():
    a, b = generate_cave(5, 96, 64), generate_cave(6, 96, 64)
    assert (a.rock != b.rock).sum() > 500
    assert not np.array_equal(a.height_ft, b.height_ft)


def test_global_rng_untouched():
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    generate_cave(3, 40, 30)
    assert np.array_equal(np.random.get_state()[1], before)


# --------------------------------------------------------------------------- widths


def test_allowance_of_corridors_and_chambers():
    floor = np.zeros((9, 12), dtype=bool)
    floor[1, 1:11] = True          # a one-square corridor
    floor[3:5, 1:11] = True        # a two-square corridor
    floor[6:8, 1] = True           # a two-square corridor running north-south, one square wide
    allow = width_allowance_ft(floor)
    assert (allow[1, 1:11] == 5).all()
    assert (allow[3:5, 1:11] == 10).all()
    assert (allow[6:8, 1] == 5).all()
    assert (allow[~floor] == 0).all()
    big = np.zeros((30, 30), dtype=bool)
    big[1:29, 1:29] = True
    assert width_allowance_ft(big, cap_ft=40).max() == 40


@pytest.mark.parametrize("seed,cols,rows", [(s, 96, 64) for s in SEEDS] + [(3, 40, 100), (9, 8, 8), (4, 150, 12)])
def test_widths_agree_with_rock(seed, cols, rows):
    g = generate_cave(seed, cols, rows)
    floor = ~g.rock
    h, v = runs_oracle(floor)
    limit = 5.0 * np.minimum(h, v)
    assert (g.width_ft[floor] <= limit[floor]).all()
    assert (g.width_ft[floor] >= 1.0).all() and (g.width_ft[~floor] == 0).all()
    assert g.width_ft.max() <= 40.0
    # A square of a one-square-wide corridor never claims more than 5 ft, of a two-square one 10 ft.
    assert (g.width_ft[floor & (np.minimum(h, v) == 1)] <= 5.0).all()
    assert (g.width_ft[floor & (np.minimum(h, v) == 2)] <= 10.0).all()
    # The ASCII classes round down, so the written map keeps the rule too.
    a = ascii_grid(g)
    assert a is not None and (a.width_ft[floor] <= limit[floor]).all()


def test_fissures_are_narrow_one_square_passages():
    for seed in SEEDS:
        g, f = generate_cave_with_features(seed, 96, 64)
        h, v = runs_oracle(~g.rock)
        assert f.fissure.any()
        assert (np.minimum(h, v)[f.fissure] == 1).all()
        w = g.width_ft[f.fissure]
        assert (w >= 1.0).all() and (w <= 4.0).all()
        assert (w < 2.5).any()  # Awkward Space for a Medium body


# --------------------------------------------------------------------------- ceilings


@pytest.mark.parametrize("seed", SEEDS)
def test_ceilings_smooth_with_deliberate_features(seed):
    g, f = generate_cave_with_features(seed, 96, 64)
    floor = ~g.rock
    ceil = g.height_ft
    # Bound: the median step between 4-neighbour floor squares is at most 1 ft (it is ~0.5 ft),
    # and away from crawlways and low tunnels (8+ squares) 95% of steps are at most 2.5 ft.
    assert np.median(neighbour_diffs(ceil, floor)) <= 1.0
    feature = f.crawlway | f.low_tunnel
    far = floor & (ndimage.distance_transform_edt(~feature) > 8)
    assert np.quantile(neighbour_diffs(ceil, far), 0.95) <= 2.5
    # Chambers 4-20 ft; low spots only at the features: crawlways 1.5-3 ft, low tunnels 3-5 ft.
    assert (ceil[floor] <= 20.0).all()
    assert (ceil[floor & ~feature] >= 4.0).all()
    assert f.crawlway.any()
    assert ((ceil[f.crawlway] >= 1.5) & (ceil[f.crawlway] < 3.0)).all()
    assert ((ceil[f.low_tunnel] >= 3.0) & (ceil[f.low_tunnel] <= 5.0)).all()
    assert np.quantile(ceil[floor], 0.9) >= 12.0  # some high chambers


@pytest.mark.parametrize("seed", SEEDS)
def test_crawl_and_awkward_squares_for_a_medium_body(seed):
    g = generate_cave(seed, 96, 64)
    for grid in (g, ascii_grid(g)):  # exact and as written in an ASCII map
        cats = classify(grid, MEDIUM)
        assert (cats == Category.CRAWL).any()
        assert (cats == Category.AWKWARD).any()
        assert (cats == Category.CLEAR).sum() > (~grid.rock).sum() // 2  # mostly open cave
        assert not (cats[~grid.rock] == Category.IMPASSABLE).any()


def test_some_rubble():
    g = generate_cave(1, 96, 64)
    assert 0 < g.difficult.sum() < 0.1 * (~g.rock).sum()
    assert not (g.difficult & g.rock).any()


# --------------------------------------------------------------------------- layout


@pytest.mark.parametrize("seed,cols,rows", [(s, 96, 64) for s in SEEDS] + [(1, 8, 8), (2, 9, 40), (5, 200, 30)])
def test_floor_is_one_connected_component_with_rock_border(seed, cols, rows):
    g = generate_cave(seed, cols, rows)
    floor = ~g.rock
    assert g.shape == (rows, cols)
    assert ndimage.label(floor)[1] == 1  # 4-connectivity is scipy's default
    assert g.rock[0].all() and g.rock[-1].all() and g.rock[:, 0].all() and g.rock[:, -1].all()
    if cols * rows >= 96 * 64:
        assert 0.2 < floor.mean() < 0.5


def test_named_points_on_floor_and_far_apart():
    g = generate_cave(4, 96, 64)
    assert set(g.points) == {"entrance", "far_end", "great_chamber"}
    for x, y in g.points.values():
        assert not g.rock[y, x]
    (ex, ey), (fx, fy) = g.points["entrance"], g.points["far_end"]
    assert ex == np.flatnonzero((~g.rock).any(axis=0))[0]  # on the west-most floor column
    walk = bfs_steps(~g.rock, (ey, ex))
    assert walk[fy, fx] == walk.max() >= 96  # the farthest square by walking, far indeed


def test_bad_arguments_of_the_function():
    with pytest.raises(ValueError, match="seed"):
        generate_cave(-1, 20, 20)
    with pytest.raises(ValueError, match="cols"):
        generate_cave(1, MIN_SIZE - 1, 20)


def test_quantise_rounds_down_to_classes():
    g = generate_cave(2, 60, 40)
    q = quantise(g)
    floor = ~g.rock
    assert set(np.unique(q.width_ft[floor])) <= set(WIDTH_CLASSES)
    assert set(np.unique(q.height_ft[floor])) <= set(HEIGHT_CLASSES)
    assert (q.width_ft <= g.width_ft).all() and (q.height_ft <= g.height_ft).all()


# --------------------------------------------------------------------------- the command


def test_round_trip_ascii(tmp_path, capsys):
    out = tmp_path / "cave.toml"
    assert main(["generate", "--seed", "8", "--cols", "96", "--rows", "64", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert str(out) in printed and "96x64" in printed and "floor" in printed
    assert "Crawl-Navigable" in printed and "Awkward Space" in printed
    assert [p.name for p in tmp_path.iterdir()] == ["cave.toml"]
    text = out.read_text()
    assert 'grid = """' in text and "[legend]" in text
    loaded = load_map(out)
    expected = ascii_grid(generate_cave(8, 96, 64))
    for name in ("width_ft", "height_ft", "difficult", "rock"):
        assert np.array_equal(getattr(loaded, name), getattr(expected, name)), name
    assert np.array_equal(loaded.glyphs, expected.glyphs)
    assert dict(loaded.points) == dict(expected.points)
    assert set(loaded.legend) <= set(GLYPHS) | {"#"}
    assert loaded.legend["#"].rock


def test_round_trip_layers_auto_for_large_maps(tmp_path, capsys):
    out = tmp_path / "big.toml"
    assert main(["generate", "--seed", "3", "--cols", "300", "--rows", "200", "--out", str(out)]) == 0
    assert "big.npz" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.npz", "big.toml"]
    assert 'layers = "big.npz"' in out.read_text()
    with np.load(tmp_path / "big.npz") as z:
        assert z["width_ft"].dtype == np.float64 and z["difficult"].dtype == bool
    loaded = load_map(out)
    expected = generate_cave(3, 300, 200)
    for name in ("width_ft", "height_ft", "difficult", "rock"):  # exact
        assert np.array_equal(getattr(loaded, name), getattr(expected, name)), name
    assert dict(loaded.points) == dict(expected.points)


def test_forced_formats(tmp_path, capsys):
    small = tmp_path / "small.toml"
    assert main(["generate", "--seed", "1", "--cols", "40", "--rows", "30", "--out", str(small),
                 "--format", "layers", "--name", "Pit"]) == 0
    g = load_map(small)
    assert g.name == "Pit" and np.array_equal(g.height_ft, generate_cave(1, 40, 30).height_ft)
    wide = tmp_path / "wide.toml"
    assert main(["generate", "--seed", "1", "--cols", "300", "--rows", "20", "--out", str(wide),
                 "--format", "ascii"]) == 0
    assert load_map(wide).glyphs is not None
    assert not (tmp_path / "wide.npz").exists()
    capsys.readouterr()


def test_json_summary(tmp_path, capsys):
    import json

    out = tmp_path / "c.toml"
    assert main(["generate", "--seed", "2", "--cols", "50", "--rows", "40", "--out", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["map"] == str(out) and data["format"] == "ascii" and data["layers"] is None
    assert (data["cols"], data["rows"], data["seed"]) == (50, 40, 2)
    assert sum(data["medium"].values()) == data["floor"] == int((~load_map(out).rock).sum())
    assert set(data["points"]) == {"entrance", "far_end", "great_chamber"}


@pytest.mark.parametrize("args,option", [
    (["--seed", "-1"], "--seed"),
    (["--cols", "7"], "--cols"),
    (["--rows", "0"], "--rows"),
    (["--cols", "-40"], "--cols"),
    (["--cols", "300", "--max-map-size", "256x256"], "--max-map-size"),
    (["--max-map-size", "huge"], "--max-map-size"),
])
def test_bad_inputs_exit_2_and_name_the_option(tmp_path, capsys, args, option):
    out = tmp_path / "c.toml"
    assert main(["generate", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cavesim: error: ") and option in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where,needle", [
    ("missing/c.toml", "does not exist"),
    ("c.npz", ".toml"),
    ("", "folder"),
])
def test_bad_out_exit_2(tmp_path, capsys, where, needle):
    assert main(["generate", "--out", str(tmp_path / where)]) == 2
    err = capsys.readouterr().err
    assert "--out" in err and needle in err
    assert list(tmp_path.iterdir()) == []


def test_non_number_is_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["generate", "--cols", "wide", "--out", "x.toml"])
    assert exc.value.code == 2
    assert "--cols" in capsys.readouterr().err


def test_failed_write_leaves_nothing_behind(tmp_path, monkeypatch):
    def boom(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(mapwrite, "save_npz", boom)
    with pytest.raises(OSError, match="disk full"):
        main(["generate", "--cols", "40", "--rows", "30", "--format", "layers", "--out", str(tmp_path / "c.toml")])
    assert list(tmp_path.iterdir()) == []


def test_limit_option_can_raise_the_default(tmp_path, capsys):
    assert Limits().max_cols >= 1024
    out = tmp_path / "c.toml"
    assert main(["generate", "--cols", "60", "--rows", "9", "--max-map-size", "60x9", "--out", str(out)]) == 0
    assert load_map(out).shape == (9, 60)
    capsys.readouterr()


# --------------------------------------------------------------------------- size


@pytest.mark.slow
def test_1024_square_cave():
    g = generate_cave(11, 1024, 1024)
    assert g.shape == (1024, 1024)
    floor = ~g.rock
    assert ndimage.label(floor)[1] == 1
    assert 0.2 < floor.mean() < 0.5
    assert np.isfinite(g.height_ft).all() and np.isfinite(g.width_ft).all()
