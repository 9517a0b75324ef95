"""Issue 14: every bad input refused in bounded time with one clear message (exit 2, no
traceback, nothing half-written). One test per finding of the audit, each with its message;
the batch journal's are in tests/analysis/test_journal.py, the fuzz test in tests/test_fuzz.py."""

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from sim.cli import main
from sim.base.errors import DataError
from sim.engine.events import read_jsonl
from sim.maps.read import load_map
from sim.scenario.files import load_encounter

ROOT = Path(__file__).resolve().parents[1]
MAPS = ROOT / "maps"
DATA = ROOT / "sim" / "data"

MAP = """
[map]
name = "Strip"
units = "{units}"
grid = \"\"\"
#######
#..f..#
#######
\"\"\"

[legend]
"#" = "wall"
"." = {{ width = {width}, height = 10 }}
"f" = {{ width = 2, height = 10 }}
"""


def write_map(path: Path, width="10", units="ft") -> Path:
    path.write_text(MAP.format(width=width, units=units))
    return path


def cli(capsys, *argv) -> tuple[int, str]:
    """Run the command in this process: (exit code, stderr); argparse's refusals included."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def refused(fn, *args, **kw) -> str:
    with pytest.raises(DataError) as info:
        fn(*args, **kw)
    return str(info.value)


# -- 1. recursion ---------------------------------------------------------------------------------

def test_an_encounter_whose_map_is_itself(tmp_path, capsys):
    a = tmp_path / "a.toml"
    a.write_text('[encounter]\nmap = "a.toml"\nseed = 1\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n')
    code, err = cli(capsys, "validate", a)
    assert code == 2
    assert f"{a.resolve()}: map refers to itself (a.toml -> a.toml); name a map file (one with [map])" in err


def test_two_files_naming_each_other(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text('[encounter]\nmap = "b.toml"\nseed = 1\n[[combatant]]\ntemplate = "goblin"\nat = [1, 1]\n')
    b.write_text('[encounter]\nmap = "a.toml"\n')
    msg = refused(load_encounter, a)
    assert f"{b.resolve()}: map refers to itself (a.toml -> b.toml -> a.toml)" in msg


def test_toml_nested_3000_deep(tmp_path, capsys):
    p = tmp_path / "deep.toml"
    p.write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    code, err = cli(capsys, "validate", p)
    assert code == 2 and f"{p}: tables or arrays nested too deep (at most 32); flatten the file" in err
    p.write_text("a = " + "[" * 40 + "]" * 40 + "\n")
    assert "tables or arrays nested more than 32 deep" in refused(load_map, p)


def test_a_json_event_nested_deep(tmp_path):
    p = tmp_path / "deep.jsonl"
    p.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    assert refused(lambda: list(read_jsonl(p))).startswith(f"{p}:1: not a cavesim event (nested too deep)")


# -- 2. numbers out of range ------------------------------------------------------------------------

def test_a_legend_width_too_big_for_a_float(tmp_path):
    msg = refused(load_map, write_map(tmp_path / "m.toml", width="1" + "0" * 400))
    assert "[legend] '.'.width: width must be at most 1000 ft, got 10000" in msg and "(401 characters)" in msg
    assert len(msg) < 300


def test_metres_of_1e308(tmp_path):
    msg = refused(load_map, write_map(tmp_path / "m.toml", width="1e308", units="m"))
    assert "[legend] '.'.width: width must be at most 1000 m, got 1e+308" in msg


def stat_block(tmp_path, **changes) -> Path:
    text = (DATA / "pcs" / "human-fighter-3.toml").read_text()
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    p = tmp_path / "fighter.toml"
    p.write_text(text)
    return p


BIG = "9" * 400


@pytest.mark.parametrize("old,new,message", [
    ("str = ", f"str = {BIG}\n#", "[abilities] str: must be a score from 0 to 100 or \"-\""),
    ("fighter = 3", f"fighter = {BIG}", "[levels] fighter: must be a level from 1 to 40"),
    ("climb = 6", f"climb = {BIG}", "[skills] climb: must be ranks from 0 to 100 in steps of 0.5"),
    ("[skills]", f"[body]\nheight = {BIG}\n[skills]", "[body] height: must be a length in feet > 0 and at most 1000"),
    ("[skills]", f"[speed]\nland = {BIG}\n[skills]", "[speed] land: must be at most 1000"),
])
def test_stat_block_numbers_out_of_range(tmp_path, capsys, old, new, message):
    p = stat_block(tmp_path, **{old: new})
    code, err = cli(capsys, "validate", p)
    assert code == 2 and f"{p}: {message}, got 9999" in err, err
    assert "(400 characters)" in err and len(err) < 1500


def test_a_speed_of_10_to_the_400_never_reaches_the_search(tmp_path, capsys):
    p = stat_block(tmp_path, **{"[skills]": f"[speed]\nland = 1{'0' * 400}\n[skills]"})
    code, err = cli(capsys, "path", MAPS / "warrens.toml", "--creature", p, "--from", "5,5", "--to", "6,5")
    assert code == 2 and "[speed] land: must be at most 1000" in err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_height_nan_or_infinite(capsys, value):
    code, err = cli(capsys, "classify", MAPS / "gallery.toml", "--size", "medium", f"--height={value}")
    assert code == 2 and f"argument --height: must be a number from -1e+09 to 1000, got '{value}'" in err


@pytest.mark.parametrize("value,message", [
    ("inf", "must be a positive number of ft"),
    ("9" * 400, "must be at most 1000 ft"),
    ("9" * 400 + "m", "must be at most 1000 m"),
])
def test_vary_widths_of_infinity(capsys, value, message):
    code, err = cli(capsys, "fight", MAPS / "fissure_hold.toml", "--runs", "2", "--vary", f"legend.f.width={value}")
    assert code == 2 and message in err and len(err) < 1000


def test_round_cap_has_a_maximum(tmp_path, capsys):
    p = tmp_path / "e.toml"
    text = (MAPS / "demo.toml").read_text().replace("seed = 2\n", "seed = 2\nround_cap = 1000000000\n")
    p.write_text(text.replace('map = "warrens.toml"', f'map = "{MAPS / "warrens.toml"}"'))
    code, err = cli(capsys, "fight", p)
    assert code == 2 and "round_cap: must be a whole number from 1 to 10000, got 1000000000" in err
    code, err = cli(capsys, "fight", MAPS / "demo.toml", "--runs", "1", "--vary", "settings.round_cap=100000")
    assert code == 2 and "--vary settings.round_cap=100000: must be a whole number from 1 to 10000" in err


# -- 3. wrong types -----------------------------------------------------------------------------------

CRAWL = """
[crawl]
map = "{map}"
from = "entrance"
to = "lair"
party = ["human-fighter-3"]
seed = {seed}
"""


@pytest.mark.parametrize("seed", ['"abc"', "nan", "[1]", "{ a = 1 }", "1.5", '"5"', "-1", str(2 ** 64)])
def test_crawl_seed_of_the_wrong_type(tmp_path, capsys, seed):
    p = tmp_path / "c.toml"
    p.write_text(CRAWL.format(map=MAPS / "warrens.toml", seed=seed))
    code, err = cli(capsys, "crawl", p)
    assert code == 2 and f"{p}:7: [crawl] seed: must be a whole number from 0 to 2^64 - 1, got " in err, err


def test_crawl_party_names(capsys):
    code, err = cli(capsys, "crawl", MAPS / "warrens.toml", "--party", "a:human-fighter-3,a:dwarf-fighter-3",
                    "--from", "entrance", "--to", "lair")
    assert code == 2 and "party member 'a:dwarf-fighter-3': the name 'a' is taken by another member" in err
    code, err = cli(capsys, "crawl", MAPS / "warrens.toml", "--party", ":human-fighter-3",
                    "--from", "entrance", "--to", "lair")
    assert code == 2 and "party member ':human-fighter-3': write NAME:TEMPLATE with both parts" in err


def layers_map(tmp_path: Path, **arrays) -> Path:
    np.savez(tmp_path / "l.npz", **arrays)
    (tmp_path / "m.toml").write_text('[map]\nname = "L"\nlayers = "l.npz"\n')
    return tmp_path / "m.toml"


@pytest.mark.parametrize("difficult,dtype", [(np.full((3, 3), "x"), "<U1"), (np.full((3, 3), 1j), "complex128")])
def test_difficult_layers_of_strings_or_complex_numbers(tmp_path, difficult, dtype):
    p = layers_map(tmp_path, width_ft=np.full((3, 3), 10.0), height_ft=np.full((3, 3), 10.0), difficult=difficult)
    assert f"l.npz: 'difficult' has dtype {dtype}; layers are float, int or bool arrays" in refused(load_map, p)


def test_max_map_size_empty(capsys):
    code, err = cli(capsys, "classify", MAPS / "gallery.toml", "--size", "medium", "--max-map-size", "")
    assert code == 2 and "--max-map-size '': write it as COLSxROWS, e.g. 4096x4096" in err
    code, err = cli(capsys, "classify", MAPS / "gallery.toml", "--size", "medium", "--max-map-size", "99999x99999")
    assert code == 2 and "--max-map-size 99999x99999: at most 16384x16384 squares" in err


# -- 4. .npz layers ------------------------------------------------------------------------------------

def _npy_member(zf, name, shape, data_bytes, **kw):
    with zf.open(name, "w", force_zip64=True) as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f8", "fortran_order": False, "shape": shape})
        left = data_bytes
        while left > 0:
            n = min(left, 1 << 20)
            f.write(b"\0" * n)
            left -= n


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    with zipfile.ZipFile(tmp_path / "l.npz", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        _npy_member(zf, "width_ft.npy", (100, 100), 200 * 1024 * 1024)   # declares 80 kB, holds 200 MB
    (tmp_path / "m.toml").write_text('[map]\nlayers = "l.npz"\n')
    t = time.monotonic()
    msg = refused(load_map, tmp_path / "m.toml")
    assert time.monotonic() - t < 2
    assert "l.npz: 'width_ft' inflates to 209,715,328 bytes, more than its header's 100x100 float64 array needs" in msg


def test_a_header_declaring_46341_squares_a_side(tmp_path):
    with zipfile.ZipFile(tmp_path / "l.npz", "w") as zf:
        _npy_member(zf, "width_ft.npy", (46341, 46341), 0)
    (tmp_path / "m.toml").write_text('[map]\nlayers = "l.npz"\n')
    assert "l.npz is 46341x46341 squares ('width_ft'), over the limit of 4096x4096" in refused(load_map, tmp_path / "m.toml")


def test_a_plain_npy_renamed_npz(tmp_path):
    np.save(tmp_path / "l.npy", np.zeros((3, 3)))
    os.replace(tmp_path / "l.npy", tmp_path / "l.npz")
    (tmp_path / "m.toml").write_text('[map]\nlayers = "l.npz"\n')
    assert "l.npz is a plain .npy array, not an .npz archive of named layers" in refused(load_map, tmp_path / "m.toml")


def test_layers_still_load_c_and_fortran_order(tmp_path):
    w = np.arange(1.0, 7.0).reshape(2, 3)
    p = layers_map(tmp_path, width_ft=np.asfortranarray(w), height_ft=np.full((2, 3), 10.0))
    assert np.array_equal(load_map(p).width_ft, w)


# -- 5. special files and size ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/stdin"])
def test_special_files_are_refused_without_waiting(tmp_path, capsys, kind):
    if kind == "fifo":
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
    else:
        path = Path(kind)
    t = time.monotonic()
    for argv in (["validate", path], ["classify", path, "--size", "medium"],
                 ["classify", MAPS / "gallery.toml", "--creature", path], ["render", path, "--out", tmp_path / "x.png"]):
        code, err = cli(capsys, *argv)
        assert code == 2 and f"{path}: not a regular file (" in err, (argv, err)
    assert time.monotonic() - t < 20


def test_a_map_over_64_mb_is_refused_before_reading(tmp_path, capsys):
    p = tmp_path / "huge.toml"
    with open(p, "wb") as fh:
        fh.truncate(65 * 1024 * 1024)    # sparse: nothing to read, only the size
    code, err = cli(capsys, "validate", p)
    assert code == 2 and f"{p}: is 68,157,440 bytes, over the limit of 67,108,864 for a TOML file" in err


def test_a_10_mb_legend_glyph(tmp_path, capsys):
    p = tmp_path / "g.toml"
    p.write_text('[map]\ngrid = "x"\n[legend]\n"' + "x" * 10_000_000 + '" = "wall"\n')
    t = time.monotonic()
    code, err = cli(capsys, "validate", p)
    assert time.monotonic() - t < 15
    assert code == 2 and f"{p}: legend: a key of 10,000,000 characters" in err and len(err) < 400


# -- 6. event logs ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fight_log(tmp_path_factory):
    p = tmp_path_factory.mktemp("log") / "fight.jsonl"
    assert main(["fight", str(MAPS / "ogre_tunnel.toml"), "--events", str(p), "--quiet"]) == 0
    return p.read_text().splitlines()


def _edit(lines, k, fn):
    d = json.loads(lines[k])
    fn(d)
    return lines[:k] + [json.dumps(d)] + lines[k + 1:]


def _first(lines, kind):
    return next(k for k, line in enumerate(lines) if json.loads(line)["type"] == kind)


def test_event_log_fields_are_checked_with_the_line(tmp_path, fight_log, capsys):
    moved = _first(fight_log, "moved")
    damage = _first(fight_log, "damage")
    cases = {
        "nan hp": (_edit(fight_log, 0, lambda d: d["combatants"][0].update(hp=float("nan"))),
                   "1: not a cavesim event (NaN is not a number a fight log holds)"),
        "size": (_edit(fight_log, 0, lambda d: d["combatants"][0].update(size="titanic")),
                 "1: combatants[0].size 'titanic' is not a size"),
        "off map": (_edit(fight_log, moved, lambda d: d.update(squares=[[500, 2]])),
                    f"{moved + 1}: squares[0] (500, 2) is off the"),
        "20 MB": (_edit(fight_log, damage, lambda d: d.update(cause="x" * 20_000_000)),
                  f"{damage + 1}: a line of 20,000,"),
        "type": (_edit(fight_log, damage, lambda d: d.update(amount="7")),
                 f"{damage + 1}: amount must be a whole number, got '7'"),
        "who": (_edit(fight_log, damage, lambda d: d.update(target="nobody")),
                f"{damage + 1}: target 'nobody' is not a creature of this fight"),
    }
    for name, (lines, message) in cases.items():
        p = tmp_path / f"{name}.jsonl"
        p.write_text("\n".join(lines) + "\n")
        code, err = cli(capsys, "render", p, "--out", tmp_path / "x.png")
        assert code == 2 and f"{p}:{message}" in err, (name, err[:500])
        assert len(err) < 1000 and not (tmp_path / "x.png").exists()


def test_event_logs_that_are_not_text_or_not_files(tmp_path, capsys):
    p = tmp_path / "bin.jsonl"
    p.write_bytes(b'{"type": "\xff"}\n')
    code, err = cli(capsys, "render", p, "--out", tmp_path / "x.png")
    assert code == 2 and f"{p}:1: not UTF-8 text (byte 10)" in err
    code, err = cli(capsys, "render", tmp_path, "--out", tmp_path / "x.png")
    assert code == 2 and f"{tmp_path}: is a directory" in err


def test_every_shipped_fight_log_reads_back(tmp_path):
    for f in ("demo.toml", "bat_gallery.toml", "hellwasp_torches.toml", "rat_crack.toml"):
        out = tmp_path / f"{f}.jsonl"
        assert main(["fight", str(MAPS / f), "--events", str(out), "--quiet"]) == 0
        assert len(list(read_jsonl(out))) == len(out.read_text().splitlines())


@pytest.mark.slow
def test_a_log_without_its_end_has_a_bounded_animation(tmp_path, fight_log, capsys):
    cut = [line for line in fight_log if json.loads(line)["type"] != "encounter_end"]
    whole, part = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    whole.write_text("\n".join(fight_log) + "\n")
    part.write_text("\n".join(cut) + "\n")
    args = ["--scale", "0.1", "--fps", "2"]
    assert main(["render", str(whole), "--out", str(tmp_path / "a.gif"), *args]) == 0
    assert main(["render", str(part), "--out", str(tmp_path / "b.gif"), *args]) == 0
    with Image.open(tmp_path / "a.gif") as a, Image.open(tmp_path / "b.gif") as b:
        ms = [sum(im.seek(i) or im.info["duration"] for i in range(im.n_frames)) for im in (a, b)]
    assert ms[1] <= ms[0] + 5_000 + 500       # at most 5 s more than the finished fight


def test_gif_frames_are_streamed_to_the_file():
    from sim.render.export import write_gif_stream

    pal = Image.new("P", (1, 1))
    pal.putpalette([v for k in range(256) for v in (k, k, k)])      # greys
    buf = io.BytesIO()
    sizes = []

    def frames():
        for k in range(30):
            sizes.append(buf.tell())
            img = Image.new("RGB", (64, 48), (k * 8,) * 3)
            img.putpixel((k, k), (254, 254, 254))
            yield k, img

    n, size = write_gif_stream(buf, frames(), pal, duration_ms=100)
    assert (n, size) == (30, (64, 48))
    assert all(later > earlier for earlier, later in zip(sizes[2:], sizes[3:]))   # written as they come
    with Image.open(io.BytesIO(buf.getvalue())) as im:
        assert im.n_frames == 30
        im.seek(29)
        want = Image.new("RGB", (1, 1), (254, 254, 254)).quantize(palette=pal, dither=Image.Dither.NONE).convert("RGB")
        back = Image.new("RGB", (1, 1), (232, 232, 232)).quantize(palette=pal, dither=Image.Dither.NONE).convert("RGB")
        assert im.convert("RGB").getpixel((29, 29)) == want.getpixel((0, 0)) != back.getpixel((0, 0))
        assert im.convert("RGB").getpixel((0, 0)) == back.getpixel((0, 0))


# -- 8. unwritable outputs ------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,what", [
    (["fight", MAPS / "ogre_tunnel.toml", "--runs", "2", "--out", "/proc/r.csv"], "--out /proc/r.csv: cannot write in /proc"),
    (["fight", MAPS / "ogre_tunnel.toml", "--events", "/sys/e.jsonl"], "--events /sys/e.jsonl: cannot write in /sys"),
    (["fight", MAPS / "ogre_tunnel.toml", "--runs", "2", "--report-dir", "/proc/rep"], "report folder /proc/rep: cannot write in /proc"),
    (["analyze", MAPS / "gallery.toml", "--out", "/proc/rep"], "report folder /proc/rep: cannot write in /proc"),
    (["generate", "--seed", "1", "--out", "/sys/cave.toml"], "--out /sys/cave.toml: cannot write in /sys"),
    (["render", MAPS / "ogre_tunnel.toml", "--out", "/proc/a.gif"], "--out /proc/a.gif: cannot write in /proc"),
    (["crawl", MAPS / "crawl_warrens.toml", "--events", "/proc/c.jsonl"], "--events /proc/c.jsonl: cannot write in /proc"),
    (["demo", "--headless", "--out", "/proc/demo"], "--out /proc/demo: cannot write in /proc"),
])
def test_unwritable_outputs_are_refused_before_work(capsys, argv, what):
    t = time.monotonic()
    code, err = cli(capsys, *argv)
    assert code == 2 and what in err, err
    assert time.monotonic() - t < 30


def test_an_interrupted_report_leaves_no_folder(tmp_path, monkeypatch, capsys):
    from sim.analysis import report as R

    out = tmp_path / "rep"
    real = Path.write_bytes
    calls = {"n": 0}

    def flaky(self, data):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", flaky)
    code, err = cli(capsys, "analyze", MAPS / "gallery.toml", "--out", out, "--sizes", "medium")
    assert code == 130 and calls["n"] == 2
    monkeypatch.setattr(Path, "write_bytes", real)
    assert list(tmp_path.iterdir()) == []            # no folder, no temporary debris
    assert R.write_files(out, {"a.txt": "x"}) == [str(out / "a.txt")] and (out / "a.txt").read_text() == "x"


def test_temporary_files_of_a_killed_run_are_cleaned(tmp_path):
    from sim.base.fileio import atomic_write_text

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    pid = int(dead.stdout)
    stale = tmp_path / f".out.csv.cavesim-{pid}.k3j2.csv"
    stale.write_text("")
    mine = tmp_path / f".out.csv.cavesim-{os.getpid()}.zz.csv"   # a live process's: kept
    mine.write_text("")
    atomic_write_text(tmp_path / "out.csv", "a\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, "out.csv"])


# -- 9. command-line values ---------------------------------------------------------------------------------

@pytest.mark.parametrize("argv,message", [
    (["path", MAPS / "gallery.toml", "--size", "medium", "--from=--1,1", "--to", "1,1"], "--from '--1,1' is not a square"),
    (["path", MAPS / "gallery.toml", "--size", "medium", "--from", "²,1", "--to", "1,1"], "--from '²,1' is not a square"),
    (["crawl", MAPS / "warrens.toml", "--party", "human-fighter-3", "--from", "²,1", "--to", "lair"],
     "--from '²,1' is not a named point"),
    (["render", MAPS / "ogre_tunnel.toml", "--out", "x.png", "--at", "nan"], "argument --at: must be a number"),
    (["fight", MAPS / "demo.toml", "--runs", "2", "--vary", "party.size=²"], "--vary party.size=²: must be a whole number from 1 to 1000"),
    (["fight", MAPS / "fissure_hold.toml", "--runs", "2", "--vary", "legend.f.width=" + "9" * 300 + "m"], "must be at most 1000 m"),
    (["fight", MAPS / "demo.toml", "--seed", "1" + "0" * 30], "argument --seed: must be a whole number from"),
    (["fight", MAPS / "demo.toml", "--runs", "²"], "argument --runs: must be a whole number"),
    (["fight", MAPS / "demo.toml", "--runs", "2", "--vary", "settings.round_cap=" + ",".join(map(str, range(1, 201))),
      "--vary", "party.size=1,2,3,4", "--vary", "combatant.bruna.lit=true,false"],
     "--vary: 200 x 4 x 2 = 1,600 variants, over the limit of 1000"),
])
def test_command_line_values(capsys, argv, message):
    code, err = cli(capsys, *argv)
    assert code == 2 and message in err, err
    assert len(err) < 2000


def test_ctrl_c_while_importing_is_one_line(monkeypatch, capsys):
    import sim.cli as C

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(C, "build_parser", interrupted)
    assert C.main(["fight", "x.toml"]) == 130
    assert capsys.readouterr().err == "cavesim: interrupted\n"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_in_the_first_second_of_a_real_process():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    for wait_for in ("numpy", "numba"):
        # the child starts with Ctrl-C's default action whatever this process has (a child inherits an
        # ignored SIGINT, and Python then keeps ignoring it: seen once in a full run, exit 0)
        proc = subprocess.Popen([sys.executable, "-m", "sim", "fight", str(MAPS / "demo.toml"), "--runs", "3",
                                 "--workers", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                preexec_fn=_default_sigint)
        end = time.monotonic() + 30
        while time.monotonic() < end:   # our imports have begun (cavesim's code is running)
            try:
                if wait_for in Path(f"/proc/{proc.pid}/maps").read_text():
                    break
            except OSError:
                break
            time.sleep(0.005)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 130 and err.decode().strip().splitlines()[-1] == "cavesim: interrupted", \
            (proc.returncode, signal.getsignal(signal.SIGINT), err.decode())
        assert b"Traceback" not in err


# -- 11. paths ----------------------------------------------------------------------------------------------

def test_template_paths_are_relative_to_the_file_that_names_them(tmp_path, monkeypatch):
    enc_dir = tmp_path / "enc"
    (enc_dir / "blocks").mkdir(parents=True)
    shutil.copy(DATA / "monsters" / "humanoid" / "goblin.toml", enc_dir / "blocks" / "gob.toml")
    shutil.copy(DATA / "monsters" / "humanoid" / "goblin.toml", enc_dir / "blocks" / "gob")
    text = (MAPS / "demo.toml").read_text().replace('map = "warrens.toml"', f'map = "{MAPS / "warrens.toml"}"')
    text = text.replace('template = "goblin"', 'template = "blocks/gob.toml"', 1)
    text = text.replace('template = "goblin"', 'template = "blocks/gob"', 1)
    (enc_dir / "e.toml").write_text(text)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)                     # neither form is looked for in the current folder
    spec = load_encounter(enc_dir / "e.toml")
    from sim.engine.setup import build_creature

    built = [build_creature(c, spec.path) for c in spec.combatants if c.template.startswith("blocks/")]
    assert [c.id for c in built] == ["gob-1", "gob-2"] and all(c.block.hp > 0 for c in built)
    os.remove(enc_dir / "blocks" / "gob")
    assert "blocks/gob: no such file" in refused(load_encounter, enc_dir / "e.toml")
