"""Swallow whole and engulf (docs/rules.md §11.13; SRD purple worm and gelatinous cube), with
exact numbers. Dice are fixed with :class:`tests.engine.test_grapple.Fixed` (the listed rolls in
order); caves are inline (tests/engine/helpers.py legend)."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path

import pytest

from sim.base.paths import maps_dir
from sim.engine import events as ev
from sim.engine import grapple, swallow
from sim.engine.actions import CutOut, Draw, EngulfMove, Escape, Move, Strike, Swallow
from sim.engine.ai.decide import default_policy
from sim.engine.effects import find
from sim.engine.events import dumps
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot as S
from sim.rules.sizes import Size
from sim.scenario.files import load_encounter
from sim.story.log import Narrator
from sim.view.model import ViewModel
from tests.engine.helpers import encounter, ready
from tests.engine.test_grapple import Fixed, of_type, turn_of

FIGHTER = "human-fighter-1"
OPEN = ["wwwwwwwwww"] * 6   # 30 ft wide, 20 ft high: room for a Gargantuan worm


def worm_and(*others, rows=OPEN):
    """A purple worm (Gargantuan, 4x4) at (0, 0) and the given (id, template, at) foes."""
    cs = [{"id": "w", "template": "purple-worm", "team": "m", "at": [0, 0]}]
    cs += [{"id": i, "template": t, "team": "p", "at": list(at)} for i, t, at in others]
    enc = ready(encounter(rows, cs))
    return enc, enc.creatures["w"]


def swallowed_fighter():
    """The worm held the fighter since its last turn, swallows it now (40 + d20 6 vs 3 + d20 10)."""
    enc, w = worm_and(("b", FIGHTER, (4, 1)))
    f = enc.creatures["b"]
    grapple.hold(enc, w, f, "improved_grab")
    turn_of(enc, "w")
    enc.rng = Fixed([6, 10])
    assert enc.perform(Swallow(target="b"))
    return enc, w, f


# -- swallow whole ----------------------------------------------------------------------------------------------

def test_the_worm_swallows_a_held_medium_fighter_then_crushes_it_each_round():
    """Grapple +40 (16 BAB, 12 Str, 12 Gargantuan) vs +3: swallowed. Inside, the fighter is
    grappled, the worm is not; the fighter stands on the worm's middle square and nobody outside
    counts it a foe. At the worm's next turn: 2d8+12 crushing (3 + 5 + 12 = 20) and 8 acid."""
    enc, w, f = swallowed_fighter()
    opp, = of_type(enc, "opposed")
    assert (opp.purpose, opp.modifiers, opp.total, opp.target_total, opp.success) == (
        "swallow", {"base_attack": 16, "str": 12, "size": 12}, 46, 13, True)
    sw, = of_type(enc, "swallowed")
    assert (sw.actor, sw.target) == ("w", "b")
    assert enc.swallowed.inside == {"b": "w"} and "swallowed" in f.conditions and "grappled" in f.conditions
    assert f.grapple_with == ["w"] and not w.grappling and "grappled" not in w.conditions
    assert f.squares == [(1, 1)] and f.squares[0] in w.squares
    assert f not in enc.enemies(w)
    f.hp = f.max_hp = 40
    enc.turn = None
    mark = len(enc.events)
    enc.rng = Fixed([3, 5])           # the 2d8 (then whatever the turn start needs)
    turn_of(enc, "w")
    dmg, = [e for e in of_type(enc, "damage", mark) if e.target == "b"]
    assert (dmg.parts, dmg.amount, dmg.cause, dmg.hp_after) == ({"bludgeoning": 20, "acid": 8}, 28, "swallowed", 12)


def test_swallowing_needs_a_hold_from_before_the_turn():
    """Grabbed this turn (the bite's improved grab), the foe cannot be swallowed until the next."""
    enc, w = worm_and(("b", FIGHTER, (4, 1)))
    f = enc.creatures["b"]
    turn_of(enc, "w")
    grapple.hold(enc, w, f, "improved_grab")
    why = enc.perform(Swallow(target="b"))
    assert not why and "must begin its turn holding" in why.reason
    assert not enc.perform(Swallow(target="nobody"))


def test_a_foe_too_large_or_without_room_is_refused():
    """The worm swallows up to Huge (max_size), smaller than itself; its interior holds 2 Large, 8
    Medium: a Huge gelatinous cube fits no list, so there is no room; a Gargantuan worm is too large."""
    enc, w = worm_and(("cube", "gelatinous-cube", (5, 0)), ("w2", "purple-worm", (0, 4)),
                      rows=["wwwwwwwwww"] * 10)
    for tid in ("cube", "w2"):
        grapple.hold(enc, w, enc.creatures[tid], "grapple")
    turn_of(enc, "w")
    why = enc.perform(Swallow(target="w2"))
    assert not why and why.reason == "W2 (gargantuan) is too large for W to swallow (at most huge)"
    why = enc.perform(Swallow(target="cube"))
    assert not why and why.reason == "no room inside W for Cube (huge) (§11.13)"


def test_the_interior_holds_two_large_or_eight_medium():
    enc, w = worm_and(("o1", "ogre", (4, 0)), ("o2", "ogre", (6, 0)), ("o3", "ogre", (4, 2)), ("b", FIGHTER, (8, 0)))
    r = swallow.rider_of(w, "swallow_whole")
    assert dict(r.holds)["large"] == 2 and dict(r.holds)["medium"] == 8 and r.cut_hp == 25
    assert swallow.room_for(enc, w, r, enc.creatures["o3"])
    enc.swallowed.inside.update({"o1": "w", "o2": "w"})
    assert not swallow.room_for(enc, w, r, enc.creatures["o3"])
    assert not swallow.room_for(enc, w, r, enc.creatures["b"])    # two Large fill it: not even a Medium
    enc.swallowed.inside.pop("o2")
    assert swallow.room_for(enc, w, r, enc.creatures["b"])         # 1/2 + 1/8 <= 1


def test_a_swarm_cannot_be_swallowed():
    """A swarm can neither grapple nor be grappled (docs/rules.md §4.5): refused with the reason."""
    enc, w = worm_and(("s", "rat-swarm", (4, 1)))
    turn_of(enc, "w")
    why = enc.perform(Swallow(target="s"))
    assert not why and "swarm" in why.reason


def test_inside_only_cutting_escaping_drawing_and_waiting():
    enc, w, f = swallowed_fighter()
    turn_of(enc, "b")
    why = enc.perform(Strike(target="w"))
    assert not why and why.reason == "B is swallowed by W: it can only cut its way out or escape (docs/rules.md §11.13)"
    assert not enc.perform(Move(to=(6, 4)))
    why = enc.perform(CutOut(attack="longsword"))
    assert not why and "light slashing or piercing weapon" in why.reason
    why = enc.perform(CutOut(attack="dagger"))
    assert not why and why.reason == "B must draw dagger first"


def test_a_fighter_cuts_its_way_out_with_a_dagger():
    """Dagger +3 (1 BAB, 2 Str) -4 grappled vs the gizzard's AC 17 (10 + 15 natural armor / 2): d20 18
    = 17 hits for 1d4+2 = 6 (not the worm's hit points); 25 in all cut: out, next to the worm."""
    enc, w, f = swallowed_fighter()
    turn_of(enc, "b")
    assert default_policy(enc, f, enc.turn) == Draw(attack="dagger")
    assert enc.perform(Draw(attack="dagger"))
    assert default_policy(enc, f, enc.turn) == CutOut(attack="dagger")
    mark = len(enc.events)
    enc.rng = Fixed([18, 4])
    assert enc.perform(CutOut(attack="dagger"))
    atk, = of_type(enc, "attack", mark)
    assert (atk.target, atk.modifiers, atk.total, atk.ac, atk.hit) == (
        "w", {"base_attack": 1, "str": 2, "size": 0, "grappling": -4}, 17, 17, True)
    cut, = of_type(enc, "gizzard_cut", mark)
    assert (cut.amount, cut.cut, cut.needed) == (6, 6, 25) and w.hp == w.max_hp
    assert enc.swallowed.gizzard == {"b": 6} and enc.swallowed.inside == {"b": "w"}
    enc.swallowed.gizzard["b"] = 20
    enc.turn = None
    turn_of(enc, "b")
    mark = len(enc.events)
    enc.rng = Fixed([16, 3])          # 16 - 1 = 15 vs AC 17: a miss ...
    assert enc.perform(CutOut())
    assert not of_type(enc, "gizzard_cut", mark)
    enc.turn = None
    turn_of(enc, "b")
    mark = len(enc.events)
    enc.rng = Fixed([19, 1])          # ... 19 - 1 = 18 hits: 1 + 2 = 3, 23 of 25: still inside
    assert enc.perform(CutOut())
    assert enc.swallowed.gizzard == {"b": 23}
    enc.turn = None
    turn_of(enc, "b")
    mark = len(enc.events)
    enc.rng = Fixed([20, 2])          # 4: 27 of 25, out
    assert enc.perform(CutOut())
    out, = of_type(enc, "came_out", mark)
    assert (out.actor, out.target, out.cause) == ("b", "w", "cut")
    assert enc.swallowed.inside == {} and enc.swallowed.gizzard == {} and not f.grappling and "swallowed" not in f.conditions
    assert not set(f.squares) & set(w.squares) and f.squares == [(4, 1)]
    assert f in enc.enemies(w)


def test_escaping_the_grapple_puts_it_back_in_the_mouth():
    """The escape is an opposed check against the worm's grapple: the fighter's +3 + 20 loses to
    +40 + 1. Won, it is out, and back in the mouth (SRD): held again, to be swallowed again."""
    enc, w, f = swallowed_fighter()
    turn_of(enc, "b")
    enc.rng = Fixed([20, 1])
    assert enc.perform(Escape())
    opp = of_type(enc, "opposed")[-1]
    assert (opp.purpose, opp.total, opp.target_total, opp.success) == ("escape", 23, 41, False)
    assert enc.swallowed.inside == {"b": "w"}
    swallow.come_out(enc, f, w, "escaped")
    out, = of_type(enc, "came_out")
    assert out.cause == "escaped" and enc.swallowed.inside == {}
    assert w.grapple_with == ["b"] and f.grapple_with == ["w"] and "swallowed" not in f.conditions


def test_the_dead_worm_lets_out_what_it_swallowed():
    """[PD] When the worm dies, what is inside comes out on the nearest squares it fits (the dead
    worm's own squares may be ended in, RULES §6.4): the fighter stands where the worm's middle was."""
    enc, w, f = swallowed_fighter()
    w.hp = -20
    w.set_status("dead")
    swallow.tidy(enc)
    out, = of_type(enc, "came_out")
    assert out.cause == "host_dead" and f.squares == [(1, 1)] and enc.swallowed.inside == {}


def test_swallow_events_read_in_the_log():
    n = Narrator({"w": "Purple worm", "b": "Bruna", "c": "Gelatinous cube"})
    assert n.line(ev.Swallowed(round=1, actor="w", target="b", squares=((1, 1),))) == "  Purple worm swallows Bruna whole"
    assert n.line(ev.GizzardCut(round=2, actor="b", target="w", amount=6, cut=6, needed=25)) == (
        "  Bruna cuts Purple worm's gizzard for 6 (6 of 25)")
    assert n.line(ev.CameOut(round=3, actor="b", target="w", cause="cut", squares=((4, 0),))) == (
        "  Bruna cuts its way out of Purple worm, at (4, 0)")
    assert n.line(ev.Engulfed(round=1, actor="c", targets=("b",), avoided=(), squares=())) == "  Gelatinous cube engulfs Bruna"


# -- engulf ---------------------------------------------------------------------------------------------------

def cube_and(*others, rows=OPEN, at=(0, 0)):
    cs = [{"id": "c", "template": "gelatinous-cube", "team": "m", "at": list(at)}]
    cs += [{"id": i, "template": t, "team": "p", "at": list(p)} for i, t, p in others]
    enc = ready(encounter(rows, cs))
    return enc, enc.creatures["c"]


def test_engulf_reflex_dc_13_failed_then_acid_and_paralysis():
    """Reflex DC 13 (10 + 4 HD / 2 + Str 0 + 1 racial): d20 5 + 1 = 6 fails: engulfed, grappled
    inside; at once 1d6 acid (4) and the cube's paralysis, Fort DC 20 (d20 3 + 4 = 7 fails: 3d6 =
    9 rounds). No slam that round: not even an attack of opportunity."""
    enc, c = cube_and(("b", FIGHTER, (4, 1)))
    f = enc.creatures["b"]
    turn_of(enc, "c")
    enc.rng = Fixed([5, 4, 3, 2, 3, 4])
    assert enc.perform(EngulfMove(to=(2, 0)))
    save = of_type(enc, "save")[0]
    assert (save.save, save.dc, save.total, save.success, save.cause) == ("reflex", 13, 6, False, "engulf")
    eng, = of_type(enc, "engulfed")
    assert eng.targets == ("b",) and eng.avoided == ()
    assert enc.swallowed.inside == {"b": "c"} and "engulfed" in f.conditions and f.grapple_with == ["c"]
    dmg, = of_type(enc, "damage")
    assert dmg.parts == {"acid": 4} and dmg.cause == "engulfed"
    fort = of_type(enc, "save")[1]
    assert (fort.dc, fort.total, fort.success) == (20, 7, False)
    assert "paralyzed" in f.conditions and find(f, "paralyzed").until == 1 + 9
    assert not enc.turn.standard and c.aoo_used > 1


def test_engulf_reflex_success_pushes_aside():
    enc, c = cube_and(("b", FIGHTER, (4, 1)))
    f = enc.creatures["b"]
    turn_of(enc, "c")
    enc.rng = Fixed([12])              # 12 + 1 = 13: saved
    assert enc.perform(EngulfMove(to=(2, 0)))
    eng, = of_type(enc, "engulfed")
    assert eng.targets == () and eng.avoided == ("b",)
    assert enc.swallowed.inside == {} and not set(f.squares) & set(c.squares) and f.squares == [(5, 1)]


def test_an_attack_of_opportunity_instead_of_the_save():
    """[PD] A foe takes the attack of opportunity (no save) when its hit can bring the cube down:
    the longsword's 1d8+2 (up to 10) against a cube at 8 hp. It misses (a natural 1): engulfed, no
    save. It hits for 10: the cube is down, nobody is engulfed."""
    enc, c = cube_and(("b", FIGHTER, (4, 1)))
    c.hp = 8
    turn_of(enc, "c")
    enc.rng = Fixed([1, 1, 1, 1, 1, 1])
    assert enc.perform(EngulfMove(to=(2, 0)))
    aoo, = of_type(enc, "attack")
    assert aoo.kind == "opportunity" and not aoo.hit
    assert of_type(enc, "save")[0].cause == "paralysis"     # no Reflex save
    assert enc.swallowed.inside == {"b": "c"}
    enc, c = cube_and(("b", FIGHTER, (4, 1)))
    c.hp = 8
    turn_of(enc, "c")
    enc.rng = Fixed([15, 8])           # 15 + 4 hits, 8 + 2 = 10: the cube is down, nobody engulfed
    assert enc.perform(EngulfMove(to=(2, 0)))
    assert not c.in_fight and enc.swallowed.inside == {} and of_type(enc, "engulfed")[0].targets == ()


def test_the_cube_fills_a_10_ft_tunnel_and_engulfs_two_foes():
    """[PD] A Huge cube in a 10-ft passage squeezes into a line, and fills the passage across: it
    moves 15 ft over two fighters side by side; both fail (d20 3, d20 4); the AI chooses it."""
    rows = ["##########", "..........", "..........", "##########"]
    enc, c = cube_and(("b", FIGHTER, (3, 1)), ("d", FIGHTER, (3, 2)), rows=rows, at=(0, 1))
    turn_of(enc, "c")
    act = default_policy(enc, c, enc.turn)
    assert isinstance(act, EngulfMove)
    enc.rng = Fixed([3, 4] + [1] * 12)
    assert enc.perform(EngulfMove(to=(3, 1)))
    eng, = of_type(enc, "engulfed")
    assert set(eng.targets) == {"b", "d"} and enc.swallowed.inside == {"b": "c", "d": "c"}
    assert all(sq[1] in (1, 2) for sq in c.squares)


def test_engulf_refuses_what_it_cannot_engulf():
    """Large or smaller only (the Gargantuan worm is in the way: refused); [PD] a swarm is never
    engulfed: the cube moves over it (a swarm shares squares, docs/rules.md §4.5)."""
    enc, c = cube_and(("s", "rat-swarm", (4, 1)))
    turn_of(enc, "c")
    assert enc.perform(EngulfMove(to=(2, 0)))
    assert of_type(enc, "engulfed")[0].targets == () and enc.swallowed.inside == {}
    assert not [e for e in of_type(enc, "save") if e.cause == "engulf"]
    enc, c = cube_and(("w", "purple-worm", (4, 0)), rows=["wwwwwwwwww"] * 8)
    turn_of(enc, "c")
    why = enc.perform(EngulfMove(to=(2, 0)))
    assert not why and why.reason == "W is in the way and cannot be engulfed (gargantuan, or an ally)"
    why = enc.perform(EngulfMove(to=(4, 0)))
    assert not why


def test_an_engulfed_creature_escapes_and_the_cube_burns_it_each_turn():
    enc, c = cube_and(("b", FIGHTER, (4, 1)))
    f = enc.creatures["b"]
    turn_of(enc, "c")
    enc.rng = Fixed([5, 4, 19])        # failed, 4 acid, Fort 19 + 4: saved
    assert enc.perform(EngulfMove(to=(2, 0)))
    assert "paralyzed" not in f.conditions
    enc.turn = None
    turn_of(enc, "b")
    assert default_policy(enc, f, enc.turn) == Escape(artist=False)
    enc.rng = Fixed([15, 2])           # 15 + 3 vs 2 + 11
    assert enc.perform(Escape())
    out, = of_type(enc, "came_out")
    assert out.cause == "escaped" and enc.swallowed.inside == {} and not f.grappling
    assert not set(f.squares) & set(c.squares)


def test_inside_goes_round_a_snapshot():
    """Who is inside whom and the gizzard's cuts are saved and loaded; the fight goes on the same."""
    spec = load_encounter(maps_dir() / "otyugh_midden.toml")
    fight = new_encounter(spec, seed=7)
    fight.start()
    while fight.advance() and not fight.swallowed.inside:
        pass
    assert fight.swallowed.inside
    text = S.dumps(fight, encounter_file=maps_dir() / "otyugh_midden.toml")
    loaded = S.load_text(text, spec, policy=default_policy)
    assert loaded.swallowed.inside == fight.swallowed.inside and loaded.swallowed.gizzard == fight.swallowed.gizzard
    fight.run()
    loaded.run()
    assert dumps(loaded.events) == dumps(fight.events)


def test_a_schema_3_snapshot_has_nobody_inside():
    """A saved game of schema 3 (before swallow whole: tests/data/snapshots/schema3.json, written by
    the cavesim of commit c69d860) loads with nobody inside (sim.engine.saved.legacy)."""
    path = Path(__file__).resolve().parents[1] / "data" / "snapshots" / "schema3.json"
    spec = load_encounter(maps_dir() / "ogre_tunnel.toml")
    assert json.loads(path.read_text())["cavesim_snapshot"] == 3
    loaded, _ = S.read_snapshot(path, policy=default_policy, spec=spec)
    assert loaded.swallowed.inside == {} and loaded.swallowed.gizzard == {} and loaded.round == 2


def test_the_view_model_keeps_the_swallowed_on_its_worm():
    """The screen's model: the swallowed creature sits on the worm's middle square and moves with
    it; out, it stands where the engine put it."""
    spec = load_encounter(maps_dir() / "otyugh_midden.toml")
    fight = new_encounter(spec, seed=7)
    fight.start()
    while fight.advance() and not fight.swallowed.inside:
        pass
    model = ViewModel()
    for e in fight.events:
        model.apply(e)
    vid, hid = next(iter(fight.swallowed.inside.items()))
    assert model.creatures[vid].inside == hid and model.creatures[vid].squares == fight.creatures[vid].squares
    assert "swallowed" in model.creatures[vid].conditions
    host = model.creatures[hid]
    model.apply(ev.Moved(round=9, actor=hid, path=({"at": [2, 2], "category": "clear", "kind": "walk", "feet": 5},),
                         squares=tuple((2 + i, 2 + j) for j in range(4) for i in range(4)), prone=False, action="move"))
    assert model.creatures[vid].squares == [(3, 3)] and host.squares[0] == (2, 2)
    model.apply(ev.CameOut(round=9, actor=vid, target=hid, cause="cut", squares=((6, 3),)))
    assert model.creatures[vid].inside is None and model.creatures[vid].squares == [(6, 3)]
    lines = [ln.text for ln in model.log]
    assert any(t.endswith("whole") and "swallows" in t for t in lines)


def test_the_dms_hand_does_not_move_a_creature_inside_or_its_host():
    """The DM's hand (cavesim play, G) refuses to move the swallowed or the worm holding it: the
    way out is cutting or escaping (docs/rules.md §11.13)."""
    from sim.engine import dm

    enc, w, f = swallowed_fighter()
    r = dm.move_token(enc, "b", (8, 1))
    assert not r and "is inside" in r.reason and w.name in r.reason
    r = dm.move_token(enc, "w", (0, 2))
    assert not r and "holds a creature inside it" in r.reason


# -- the gizzard's capacity, size by size (issue 34 item 4) ----------------------------------------------------

def _gizzard_of(size_template, n_inside, resize=None):
    """The worm with ``n_inside`` copies of one creature inside, and one more of it outside."""
    enc, w = worm_and(("x", size_template, (5, 0)))
    x = enc.creatures["x"]
    if resize is not None:
        x.block = dataclasses.replace(x.block, size=Size.parse(resize))
    for i in range(n_inside):
        y = copy.copy(x)
        y.id = f"x{i}"
        enc.creatures[y.id] = y
        enc.swallowed.inside[y.id] = "w"
    return enc, w, x


@pytest.mark.parametrize("template, resize, n", [
    ("ogre", None, 2), (FIGHTER, None, 8), ("kobold", None, 32), ("monstrous-centipede-tiny", None, 128),
    ("monstrous-centipede-tiny", "diminutive", 512), ("monstrous-centipede-tiny", "fine", 512)])
def test_a_full_gizzard_for_each_size(template, resize, n):
    """SRD purple worm: "A Gargantuan worm's interior can hold 2 Large, 8 Medium, 32 Small, 128
    Tiny, or 512 Diminutive or smaller opponents." With n - 1 inside there is room for one more;
    with n inside, none (not even for the smallest)."""
    enc, w, x = _gizzard_of(template, n - 1, resize)
    r = swallow.rider_of(w, "swallow_whole")
    assert swallow.capacity(r, x.size) == n
    assert swallow.room_for(enc, w, r, x)
    enc, w, x = _gizzard_of(template, n, resize)
    assert not swallow.room_for(enc, w, r, x)


def test_the_worms_holds_table_is_the_srds():
    """The purple worm's stat block: 2 Large, 8 Medium, 32 Small, 128 Tiny, 512 Diminutive (the
    old table had 8 Small, 32 Tiny, 128 Diminutive); a Small creature takes 1/32: one Large
    (1/2) and sixteen Small (16/32) fill it."""
    enc, w, x = _gizzard_of("kobold", 16)
    r = swallow.rider_of(w, "swallow_whole")
    assert dict(r.holds) == {"large": 2, "medium": 8, "small": 32, "tiny": 128, "diminutive": 512}
    assert swallow.room_for(enc, w, r, x)              # 16/32 inside
    ogre = copy.copy(enc.creatures["x0"])
    ogre.id = "o"
    ogre.block = dataclasses.replace(ogre.block, size=Size.LARGE)
    enc.creatures["o"], enc.swallowed.inside["o"] = ogre, "w"     # + 1/2 = 1: full
    assert not swallow.room_for(enc, w, r, x)
