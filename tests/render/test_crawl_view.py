"""The crawl view: crawl time mapped onto screen time (compressed walking, slowed squeezes, the
fight spliced in), the party drawn where its tracks put it, the clock, headless export and the
window, bad paths."""

from __future__ import annotations

import dataclasses

import json

import numpy as np
import pygame
import pytest
from PIL import Image

from sim.cli import main
from sim.crawl.run import run_crawl
from sim.scenario.files import load_crawl
from sim.view.crawlplan import BEAT, INTRO, RATE, CrawlPlan, fight_schedule, plan_rate, split_fights
from sim.story.crawlwords import clock
from sim.view.fights import crawl_start_event

from tests.crawl.helpers import FIGHTER, crawl_file

from .helpers import ROOT_MAPS

SHIPPED = ROOT_MAPS / "crawl_warrens.toml"
SMALL = ["--max-frames", "30", "--scale", "0.25", "--fps", "10"]


@pytest.fixture(scope="module")
def warrens():
    # the story these tests follow is the crawl in full view (setting vision off): the party's torch
    # would let the kobolds see it from the entrance (tests/crawl/test_crawl_light.py)
    spec = load_crawl(SHIPPED)
    return run_crawl(dataclasses.replace(spec, settings={**spec.settings, "vision": False}))


@pytest.fixture(scope="module")
def plan(warrens):
    return CrawlPlan(warrens, crawl_start_event(warrens)[0])


def scene_at(result, s, *, size=(640, 360)):
    """A crawl scene shown at screen time ``s`` (stepped there at 60 steps a second)."""
    from sim.render.crawl import crawl_scene

    scene, player = crawl_scene(result, size=size)
    while scene.director.t < s - 1e-9:
        player.pump()
        scene.update(1 / 60)
    return scene, player


# -- the time mapping -------------------------------------------------------------------------------------------

def test_the_mapping_is_monotone_and_covers_the_whole_crawl(plan, warrens):
    s = np.linspace(0, plan.duration + 1, 3000)
    t = np.array([plan.crawl_time(x) for x in s])
    assert t[0] == 0 and t[-1] == warrens.total_rounds == 42
    assert np.all(np.diff(t) >= -1e-12)
    for x in (0.0, 5.0, 10.5, 17.5, 30.0, 42.0):      # screen_time is its inverse
        assert plan.crawl_time(plan.screen_time(x)) == pytest.approx(x)
    assert [g.kind for g in plan.segments] == ["intro", "travel", "dress", "travel", "gather", "fight", "regroup",
                                               "travel", "travel", "travel", "dress", "travel", "outro"]
    assert all(a.s1 == pytest.approx(b.s0) for a, b in zip(plan.segments, plan.segments[1:]))


def test_walking_is_compressed_squeezes_slowed_armour_passes_quickly(tmp_path):
    """A fighter in chainmail: walk 0.5 round, chainmail off (10 rounds), crawl 3 squares (1.5),
    crawl out (0.5), stand up (0.5), chainmail on (40), walk on (0.5): each part gets rate x rounds of screen time,
    between its floor and its ceiling."""
    (tmp_path / "fighter.toml").write_text(FIGHTER)
    p = crawl_file(tmp_path, ["#" * 12, "#....ccc...#", "#" * 12], {"c": "{ width = 10, height = 2.5 }"},
                   ["fighter.toml"], frm="1,1", to="10,1")
    r = run_crawl(load_crawl(p))
    plan = CrawlPlan(r, crawl_start_event(r)[0])
    parts = [(g.what, g.t1 - g.t0, g.s1 - g.s0) for g in plan.segments if g.kind in ("travel", "dress")]
    assert parts == [("walk", 0.5, pytest.approx(0.6)),        # 0.75 s a round, but at least 0.6 s
                     ("armor_off", 10.0, pytest.approx(3.0)),  # 0.3 s a round: 3 s, the ceiling
                     ("crawl", 1.5, pytest.approx(2.4)),       # 1.6 s a round
                     ("walk", 0.5, pytest.approx(0.6)),
                     ("stand_up", 0.5, pytest.approx(0.8)),    # 1.6 s a round, at least 0.8 s
                     ("armor_on", 40.0, pytest.approx(3.0)),   # 4 minutes of life in 3 s
                     ("walk", 0.5, pytest.approx(0.6))]
    life = {w: rounds * 6 / secs for w, rounds, secs in parts}   # how much faster than life
    assert life["armor_on"] > life["armor_off"] > life["walk"] > life["crawl"] > 1
    assert RATE["awkward"][0] > RATE["crawl"][0] > RATE["walk"][0]      # the tighter, the slower
    assert plan_rate("tight", 1000) == RATE["tight"][2]                  # a take-20 squeeze is capped
    assert plan.duration == pytest.approx(INTRO + 0.6 + 3 + 2.4 + 0.6 + 0.8 + 3 + 0.6 + 4.0)


def test_the_fight_is_spliced_in_as_the_fight_animation_plays_it(plan, warrens):
    fight = next(g for g in plan.segments if g.kind == "fight")
    events = split_fights(warrens)[0]
    starts, duration, _ = fight_schedule(events)
    assert fight.s1 - fight.s0 == pytest.approx(duration) and duration > 10
    assert plan.crawl_time(fight.s0) == 10.5 and plan.crawl_time(fight.s1) == 17.5
    # round r of the fight starts at crawl time 10.5 + r - 1
    from sim.engine import events as ev

    for i, e in enumerate(events):
        if isinstance(e, ev.RoundStart):
            assert plan.crawl_time(fight.s0 + starts[i]) == pytest.approx(10.5 + e.round - 1)
    # the crawl goes on after it
    after = plan.segment_at(fight.s1 + 0.01)
    assert after.kind == "regroup" and plan.segment_at(after.s1 + 0.01).what == "crawl"


def test_the_scene_plays_the_fight_events_at_the_planned_moment(warrens, plan):
    fight = next(g for g in plan.segments if g.kind == "fight")
    scene, _ = scene_at(warrens, fight.s0 - 0.05)
    assert "kobold-1" in scene.model.creatures and scene.model.round == 0
    assert scene.model.seed == warrens.spec.seed                   # still the crawl's opening view
    for _ in range(6):
        scene.update(1 / 60)
    assert scene.plan.segment_at(scene.director.t).kind == "fight"
    assert scene.model.seed == warrens.fights[0].seed              # the fight's encounter start is applied
    starts, _, _ = fight_schedule(split_fights(warrens)[0])
    assert scene.director.next_at == pytest.approx(fight.s0 + starts[1])   # on the planned schedule, exactly
    # past the fight: the crawl goes on, the end card gone, the marching order back
    scene.reset(fight.s1 + 0.5)
    assert scene.model.order[:4] == ["bruna", "lidda", "tordek", "mialee"]
    assert not any(a.kind == "end" for a in scene.director.anims)
    assert scene.crawl_t == pytest.approx(17.5)
    assert {"kobold-1", "kobold-4"} <= set(scene.model.creatures)


# -- the clock -------------------------------------------------------------------------------------------------

def test_the_clock_shows_the_crawl_time_at_the_right_moments(warrens, plan):
    off = next(e for e in warrens.timeline if e.what == "armor_off")
    s = plan.screen_time(off.start)
    scene, _ = scene_at(warrens, s)
    assert scene.crawl_t == pytest.approx(off.start, abs=0.05) and clock(scene.crawl_t) == "0:18"
    scene, _ = scene_at(warrens, plan.duration + 0.1)
    assert clock(scene.crawl_t) == "4:12" and scene.finished and scene.model.finished
    assert clock(10.5) == "1:03" and clock(0) == "0:00"


def test_the_clock_is_drawn(warrens, plan):
    """The clock panel at the top left of the map: a bright time over a dark box, which changes
    as the crawl goes on (the same frame at the same time)."""
    from .helpers import surface

    scene, _ = scene_at(warrens, 6.0, size=(800, 450))
    a = pygame.surfarray.array3d(surface(scene))
    box = a[10:50, 45:90]                              # x, y: where "0:31"'s digits are
    assert (box.sum(axis=2) > 700).sum() > 40          # white digits
    scene.reset(20.0)
    b = pygame.surfarray.array3d(surface(scene))
    assert not np.array_equal(a[10:50, 45:90], b[10:50, 45:90])


# -- the party on the map --------------------------------------------------------------------------------------

def test_tokens_are_drawn_at_the_members_squares(warrens, plan):
    # Bruna leads: at every moment of her track the scene draws her in the square it gives
    # (the last of the squares she reaches with that move action)
    track = warrens.tracks["bruna"]
    checked = 0
    for t in sorted({p[0] for p in track[1:]}):
        if not any(g.kind == "travel" and g.t0 < t <= g.t1 for g in plan.segments):
            continue
        sq, prone = [(p[1], p[2]) for p in track if p[0] == t][-1]
        assert plan.square("bruna", t) == sq
        x, y, square, lying = plan.where(plan.screen_time(t))["bruna"]
        assert square == sq and lying == prone
        assert sq[0] <= x <= sq[0] + 1 and sq[1] <= y <= sq[1] + 1
        checked += 1
    assert checked >= 10
    # in the crawlway: prone, single file, each in its own square, the armour off
    s = plan.screen_time(9.5)
    scene, _ = scene_at(warrens, s)
    m = scene.model
    squares = [m.creatures[c].squares[0] for c in ("bruna", "lidda", "tordek", "mialee")]
    assert squares[0] == plan.square("bruna", scene.crawl_t) and len(set(squares)) == 4
    assert [sq[1] for sq in squares] == [16, 16, 16, 16] and squares[0][0] > squares[1][0] > squares[2][0]
    assert m.creatures["bruna"].prone and m.creatures["bruna"].armor_off and not m.creatures["lidda"].armor_off


def test_pixels_show_the_token_in_its_square(warrens, plan):
    from .helpers import surface

    s = plan.screen_time(9.0)                # Bruna crawls into (30, 16)
    scene, _ = scene_at(warrens, s, size=(800, 450))
    x, y = scene.token_centre("bruna", scene.director.t)
    a = pygame.surfarray.array3d(surface(scene)).astype(int)
    sx, sy = scene._px(x, y)
    ts = scene.camera.ts

    def blue(cx, cy):
        r = a[cx - ts // 3:cx + ts // 3, cy - ts // 4:cy + ts // 4]
        return int(((r[..., 2] > r[..., 0] + 60) & (r[..., 2] > 150)).sum())

    assert blue(sx, sy) > ts                      # the party's blue where Bruna is
    gx, gy = scene._px(42.5, 15.5)                # the lair: nobody there yet
    assert blue(gx, gy) == 0


def test_waiting_and_armour_states(plan, warrens):
    assert plan.armour("bruna", 2.0) == ("on", 1.0)
    assert plan.armour("bruna", 5.5)[0] == "taking_off"
    assert plan.armour("bruna", 15.0) == ("off", 1.0)
    assert plan.armour("bruna", 31.0) == ("putting_on", pytest.approx(0.5))
    assert plan.armour("lidda", 15.0) == ("on", 1.0)
    dressing = next(g for g in plan.segments if g.what == "armor_off")
    places = plan.placements(5.5, dressing)
    assert not places["bruna"].waiting and all(places[c].waiting for c in ("lidda", "tordek", "mialee"))
    # at the end of the crawlway, those through wait for Mialee (the timeline's wait)
    crawl = next(g for g in plan.segments if g.what == "crawl")
    who, whom = plan.waiting_for(crawl.s1 - 0.01)
    assert whom == "mialee" and "mialee" not in who and who


def test_left_behind_members_hold_for_a_beat_and_stay(tmp_path):
    p = crawl_file(tmp_path, ["#" * 12, "#....ff....#", "#" * 12], {"f": "{ width = 0.8, height = 10 }"},
                   ["bruna:human-fighter-3", "ogre:ogre"], frm="1,1", to="10,1")
    r = run_crawl(load_crawl(p))
    plan = CrawlPlan(r, crawl_start_event(r)[0])
    beat = next(g for g in plan.segments if g.kind == "beat")
    assert beat.what == "left_behind" and beat.s1 - beat.s0 == pytest.approx(BEAT) and "Ogre is left behind" in plan.caption(beat.s0)
    end = plan.where(plan.duration - 0.1)
    assert end["ogre"][2] == (1, 1) and end["bruna"][2] == (10, 1)


# -- running: headless, window, export --------------------------------------------------------------------------

def test_a_few_hundred_frames_headless(warrens):
    from sim.render.crawl import crawl_scene

    scene, player = crawl_scene(warrens, size=(640, 360))
    surf = pygame.Surface(scene.size)
    for i in range(400):
        scene.draw(surf, 1.0)
        player.pump()
        scene.update(1 / 60)
    assert scene.director.t == pytest.approx(400 / 60) and scene.crawl_t > 3   # past the walk
    assert any("takes off the breastplate" in line.text for line in scene.model.log)


def test_same_seed_same_frames(warrens):
    from sim.render.crawl import crawl_scene

    def frames():
        scene, player = crawl_scene(run_crawl(load_crawl(SHIPPED)), size=(480, 270))
        surf = pygame.Surface(scene.size)
        out = []
        for i in range(900):
            player.pump()
            scene.update(1 / 60)
            if i % 150 == 0:
                scene.draw(surf, 1.0)
                out.append(pygame.image.tobytes(surf, "RGB"))
        return out

    assert frames() == frames()


def test_window_keys_pause_speed_and_skip(warrens):
    from sim.render.app import App
    from sim.render.crawl import crawl_scene

    pygame.display.init()
    screen = pygame.display.set_mode((640, 360))
    scene, player = crawl_scene(warrens, size=(640, 360))
    app = App(scene, player, screen, max_frames=20, fixed=True)
    assert app.run() == 0 and scene.director.t == pytest.approx(20 / 60)
    app.key(pygame.K_SPACE, 0, " ")
    assert scene.director.speed == 0
    app.key(pygame.K_SPACE, 0, " ")
    app.key(pygame.K_PLUS, 0, "+")
    assert scene.director.speed == 1.5
    app.key(pygame.K_RIGHT, 0)                          # the title -> the first walk
    assert scene.director.t == pytest.approx(INTRO) and scene.plan.segment_at(scene.director.t).what == "walk"
    app.key(pygame.K_RIGHT, 0)
    assert scene.plan.segment_at(scene.director.t).what == "armor_off"
    app.key(pygame.K_HOME, 0)
    assert scene.director.t == 0
    pygame.display.quit()


def test_cli_window_with_the_dummy_driver_prints_the_plan(capsys):
    assert main(["crawl", str(SHIPPED), "--max-frames", "5", "--size", "640x360"]) == 0
    out = capsys.readouterr().out
    assert "takes off the breastplate" in out and "total: 44.5 rounds = 4:27" in out


def test_cli_writes_a_gif_and_a_png(tmp_path, capsys):
    gif = tmp_path / "crawl.gif"
    assert main(["crawl", str(SHIPPED), "--out", str(gif), *SMALL]) == 0
    out = capsys.readouterr().out
    assert "total: 44.5 rounds" in out and f"wrote {gif}" in out
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.size == (320, 180) and im.n_frames > 5
    png = tmp_path / "frame.png"
    assert main(["crawl", str(SHIPPED), "--out", str(png), "--at", "4", "--scale", "0.5"]) == 0
    with Image.open(png) as im:
        assert im.format == "PNG" and im.size == (640, 360)


def test_json_stays_json_with_an_export(tmp_path, capsys):
    gif = tmp_path / "crawl.gif"
    assert main(["crawl", str(SHIPPED), "--json", "--out", str(gif), "--max-frames", "3", "--scale", "0.2"]) == 0
    cap = capsys.readouterr()
    data = json.loads(cap.out)
    assert data["total_rounds"] == 44.5 and "wrote" in cap.err and gif.exists()


def test_same_seed_same_gif(tmp_path):
    a, b = tmp_path / "a.gif", tmp_path / "b.gif"
    assert main(["crawl", str(SHIPPED), "--out", str(a), "--seed", "5", *SMALL]) == 0
    assert main(["crawl", str(SHIPPED), "--out", str(b), "--seed", "5", *SMALL]) == 0
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("name,extra,message", [
    ("missing/crawl.gif", [], "does not exist"),
    ("crawl.mp4", [], "unknown output format .mp4"),
    ("crawl", [], "unknown output format (none)"),
    ("crawl.gif", ["--at", "3"], "--at picks one frame"),
    ("crawl.gif", ["--scale", "9"], "--scale"),
])
def test_bad_out_exits_2_and_leaves_nothing(tmp_path, capsys, name, extra, message):
    out = tmp_path / name
    assert main(["crawl", str(SHIPPED), "--out", str(out), *SMALL, *extra]) == 2
    cap = capsys.readouterr()
    assert message in cap.err and cap.err.startswith("cavesim: error:") and "Traceback" not in cap.err
    assert cap.out == ""                          # checked before any work: no plan printed either
    assert list(tmp_path.iterdir()) == []


def test_a_failed_export_leaves_no_file(tmp_path, monkeypatch):
    out = tmp_path / "crawl.gif"

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(Image.Image, "save", boom)
    with pytest.raises(OSError):
        main(["crawl", str(SHIPPED), "--out", str(out), *SMALL])
    assert list(tmp_path.iterdir()) == []


def test_the_plan_needs_no_pygame():
    import subprocess
    import sys

    code = ("import sys; from sim.crawl.run import run_crawl; from sim.scenario.files import load_crawl; "
            "from sim.view.crawlplan import CrawlPlan; from sim.view.fights import crawl_start_event; "
            "r = run_crawl(load_crawl('maps/crawl_warrens.toml')); p = CrawlPlan(r, crawl_start_event(r)[0]); "
            "p.where(p.duration / 2); p.caption(5.0); "
            "assert 'pygame' not in sys.modules, 'pygame imported'; print('clean')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT_MAPS.parent)
    assert r.returncode == 0 and "clean" in r.stdout, r.stderr


def test_the_journey_log_reads_as_sentences(plan, warrens):
    texts = [plan.entry_text(i) for i in range(len(warrens.timeline))]
    assert "Bruna stands up" in texts
    assert not any("_" in t for t in texts), [t for t in texts if "_" in t]


# -- drawn lit (issue 16 item 6: the crawl as the party sees it) ------------------------------------------------

def test_the_crawl_is_drawn_lit_around_the_light_bearer_and_hides_unseen_monsters():
    from .helpers import surface

    result = run_crawl(load_crawl(SHIPPED))                       # vision on: lidda carries the torch
    scene, _ = scene_at(result, INTRO + 0.2, size=(800, 450))
    lit = scene.lighting
    assert lit is not None and lit.view == "party"
    assert scene.model.creatures["lidda"].torch_lit and not scene.model.creatures["bruna"].torch_lit
    surface(scene)
    # the kobolds in the lair, far in the dark, are not perceived by the party: not drawn
    assert all(not lit.shows(cid) for cid in scene.model.creatures if cid.startswith("kobold"))
    assert lit.shows("lidda") and lit.light.normal[14, 5] == 2        # bright beside the torch
    a = pygame.surfarray.array3d(surface(scene)).astype(int)
    lx, ly = scene._px(*scene.token_centre("lidda", scene.director.t))
    fx, fy = scene._px(43.5, 12.5)                                    # the first kobold's square: black
    if 0 <= fx < a.shape[0] and 0 <= fy < a.shape[1]:
        assert a[fx, fy].sum() < 30                               # (near) black
    assert a[lx - 2:lx + 3, ly + 12:ly + 16].sum() / 25 > 100          # the lit floor by her
    # vision off: no lighting, everything shown
    off, _ = scene_at(dataclasses.replace(result, spec=dataclasses.replace(
        result.spec, settings={**result.spec.settings, "vision": False})), INTRO + 0.2)
    assert off.lighting is None
