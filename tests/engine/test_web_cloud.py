"""Web (SRD Sor/Wiz 2; docs/rules.md §8.3) and stinking cloud (SRD Sor/Wiz 3; §8.4): lasting
20-ft-radius spreads that stop at rock. Web: anchors on two opposite sides [PD], Reflex or stuck
(else loose), DC 20 Strength or DC 25 Escape Artist to break loose, 5 ft of movement for each full
5 points over 10, fire burns it (2d4). Stinking cloud: Fortitude or nauseated while inside and
1d4+1 rounds after, a fog that conceals (20% at 5 ft, total beyond)."""

from __future__ import annotations

from sim.engine import specials, spells, zones
from sim.engine.actions import Cast, Impossible, Move
from sim.engine.effects import find, make, put
from sim.engine.specials import BreakFree
from sim.terrain.vision import LOCATES, NONE, SEES

from .helpers import encounter, ready
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 26] * 7
CORRIDOR = ["#" * 26, "." * 26, "#" * 26]
OPEN = ["." * 30] * 30


def _wizard(rows, at, *others, template="elf-wizard-5"):
    return ready(encounter(rows, [{"id": "w", "template": template, "team": "p", "at": at}, *others]))


# ---- web: the area, its anchors, its save ------------------------------------------------------

def test_web_is_a_20_ft_spread_stopped_by_rock_in_medium_range():
    enc = _wizard(CORRIDOR, [0, 1])
    w = enc.creatures["w"]
    # 20 ft counted 5-10-5 from the intersection (10, 1): x = 6..13 of the corridor, none of its rock
    assert sorted(spells.area_of(enc, w, Cast("web", at=(10, 1)))) == [(x, 1) for x in range(6, 14)]
    assert spells.range_ft(w, "medium") == 150                   # 100 ft + 10 ft a level
    assert spells.has_spell(w, "web") == 2 and spells.has_spell(w, "stinking-cloud") == 3   # the template prepares both


def test_a_web_needs_anchors_on_two_opposite_sides():
    enc = _wizard(OPEN, [0, 15], {"id": "g", "template": "goblin", "team": "m", "at": [15, 15]})
    turn_of(enc, "w")
    r = enc.perform(Cast("web", at=(15, 15)))       # the middle of a 150-ft-wide cave: nothing to hold it
    assert isinstance(r, Impossible) and "has no anchors" in r.reason
    assert spells.has_spell(enc.creatures["w"], "web") == 2            # nothing spent
    assert not spells.area_of(enc, enc.creatures["w"], Cast("web", at=(2, 15)))   # the map's west edge only
    assert not zones.anchored(enc.grid.rock, [(15, 15)])
    assert zones.anchored(enc.grid.rock, [(x, 1) for x in range(5)]) is False
    enc2 = _wizard(CORRIDOR, [0, 1])
    assert zones.anchored(enc2.grid.rock, [(9, 1)])                    # rock north and south


def _webbed(roll, *, at=(10, 1)):
    enc = _wizard(CORRIDOR, [0, 1], {"id": "g", "template": "goblin", "team": "m", "at": [at[0], 1]})
    turn_of(enc, "w")
    enc.rng = Fixed(roll)
    n = len(enc.events)
    assert enc.perform(Cast("web", at=(10, 1)))
    return enc, enc.creatures["g"], n


def test_web_reflex_dc_15_failed_holds_it_fast():
    enc, g, n = _webbed(2)
    assert enc.creatures["w"].block.spells.save_dc(2) == 15           # 10 + 2nd level + Int 16 (+3)
    (cast,) = of_type(enc, "spell", n)
    assert cast.spell == "web" and cast.targets == ("g",)
    (sv,) = of_type(enc, "save", n)
    assert (sv.target, sv.save, sv.dc, sv.cause, sv.success) == ("g", "reflex", 15, "web", False)
    assert "entangled" in g.conditions and zones.stuck(enc, g)
    (z,) = enc.magic.zones
    assert z.spell == "web" and z.last_round == enc.round + 499        # 10 min (100 rounds) a level, 5th level
    assert specials.entangled(enc, enc.creatures["g"]) == (25, 20, "w")             # Escape Artist DC 25, Strength DC 20
    turn_of(enc, "g")
    enc.perform(Move(to=(14, 1)))
    assert g.pos == (10, 1)                                            # it cannot move from its space


def test_breaking_loose_is_a_full_round_strength_dc_20_and_it_stays_entangled():
    enc, g, _ = _webbed(2)
    turn_of(enc, "g")
    mod = g.block.abilities.mod("str")
    enc.rng = Fixed(20 - mod - 1)                                      # one short of DC 20
    n = len(enc.events)
    assert enc.perform(BreakFree(how="strength"))
    (chk,) = of_type(enc, "check", n)
    assert (chk.skill, chk.dc, chk.success) == ("strength", 20, False) and zones.stuck(enc, g)
    assert not enc.turn.move                                           # it spent the round
    turn_of(enc, "g")
    enc.rng = Fixed(20 - mod)
    assert enc.perform(BreakFree(how="strength"))
    assert not zones.stuck(enc, g) and "entangled" in g.conditions     # loose, but still in the web
    r = enc.perform(BreakFree())
    assert isinstance(r, Impossible)


def test_a_made_save_is_loose_and_moves_5_ft_per_5_points_over_10():
    enc, g, _ = _webbed(19)
    assert "entangled" in g.conditions and not zones.stuck(enc, g)
    turn_of(enc, "g")
    how, _ = __import__("sim.engine.specials", fromlist=["x"]).break_free_odds(g, 0, 0)
    mod = int(g.block.escape_artist) if how == "escape_artist" else g.block.abilities.mod("str")
    enc.rng = Fixed(20 - mod)                                          # check total 20: 10 ft this round
    n = len(enc.events)
    enc.perform(Move(to=(16, 1)))
    (chk,) = of_type(enc, "check", n)
    assert chk.total == 20 and chk.cause == "web"
    assert g.pos == (12, 1)                                            # two squares east, then no feet left
    assert "entangled" in g.conditions


def test_walking_out_of_the_web_frees_and_walking_in_catches():
    enc, g, _ = _webbed(19, at=(13, 1))                                # its square at the web's east edge
    turn_of(enc, "g")
    enc.rng = Fixed(20)
    enc.perform(Move(to=(16, 1)))
    assert g.pos[0] >= 14 and "entangled" not in g.conditions and find(g, "in_web") is None
    turn_of(enc, "g")
    enc.rng = Fixed(1)                                                 # Reflex 1: fails on the way in
    enc.perform(Move(to=(11, 1)))
    assert g.pos == (13, 1) and zones.stuck(enc, g) and "entangled" in g.conditions


def test_fire_burns_the_web_2d4_to_those_in_it_and_frees_them():
    enc, g, _ = _webbed(2)
    enc.creatures["g"].hp = 999
    w = turn_of(enc, "w")
    enc.place(w, (3, 1))
    w.spells_left[1].append("burning-hands")
    enc.rng = Fixed(3)
    n = len(enc.events)
    hp = g.hp
    assert enc.perform(Cast("burning-hands", direction=(1, 0)))       # 15-ft cone: x = 4..6, the web from x = 6
    assert enc.magic.zones == [] and [e.spell for e in of_type(enc, "zone_end", n)] == ["web"]
    assert "entangled" not in g.conditions and not zones.stuck(enc, g)
    burns = [e for e in of_type(enc, "damage", n) if e.target == "g"]
    assert len(burns) == 1 and hp - g.hp == 2 * 3                      # 2d4 fire: 3 + 3


def test_a_swarm_is_not_held_by_a_web():
    enc = _wizard(CORRIDOR, [0, 1], {"id": "s", "template": "rat-swarm", "team": "m", "at": [10, 1]})
    turn_of(enc, "w")
    enc.rng = Fixed(1)
    assert enc.perform(Cast("web", at=(10, 1)))
    assert "entangled" not in enc.creatures["s"].conditions and not of_type(enc, "save")


# ---- stinking cloud ------------------------------------------------------------------------------

def _clouded(roll):
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [12, 3]},
                  {"id": "h", "template": "goblin", "team": "m", "at": [24, 3]})
    turn_of(enc, "w")
    enc.rng = Fixed(roll)
    n = len(enc.events)
    assert enc.perform(Cast("stinking-cloud", at=(12, 3)))
    return enc, enc.creatures["g"], n


def test_stinking_cloud_fort_dc_16_nauseates_and_lasts_a_round_a_level():
    enc, g, n = _clouded(2)
    (sv,) = of_type(enc, "save", n)
    assert (sv.target, sv.save, sv.dc, sv.cause, sv.success) == ("g", "fortitude", 16, "stinking_cloud", False)
    assert g.nauseated and not enc.creatures["h"].nauseated
    (z,) = enc.magic.zones
    assert z.spell == "stinking-cloud" and z.last_round == enc.round + 4
    turn_of(enc, "g")
    assert g.nauseated                                                 # still inside: still nauseated
    r = enc.perform(Cast("magic-missile", target="w"))
    assert isinstance(r, Impossible)


def test_nauseated_1d4_plus_1_rounds_after_leaving():
    enc, g, _ = _clouded(2)
    enc.place(g, (25, 0))                                              # out of the cloud
    enc.rng = Fixed(3)
    turn_of(enc, "g")
    assert find(enc.creatures["g"], "cloud_sick").value("left") == 3                    # 1d4 (3) + 1 = 4 turns: this one and 3 more
    for _ in range(3):
        turn_of(enc, "g")
        assert g.nauseated
    turn_of(enc, "g")
    assert not g.nauseated


def test_a_made_save_saves_again_on_the_casters_turn():
    enc, g, n = _clouded(19)
    assert not g.nauseated
    enc.rng = Fixed(1)
    turn_of(enc, "w")
    assert g.nauseated and [e.success for e in of_type(enc, "save", n)] == [True, False]


def test_concealment_through_the_cloud():
    import dataclasses

    from sim.engine.fight import new_encounter
    from sim.terrain.grid import MapLight

    from .helpers import spec
    s = spec(HALL, [{"id": "w", "template": "elf-wizard-5", "team": "p", "at": [0, 3]},
                    {"id": "g", "template": "goblin", "team": "m", "at": [12, 3]},
                    {"id": "h", "template": "goblin", "team": "m", "at": [24, 3]}], vision=True)
    s = dataclasses.replace(s, grid=s.grid.replace(lights=(MapLight(at=(12, 3), bright_ft=200, shadowy_ft=300),)))
    enc = ready(new_encounter(s))
    w, g, h = enc.creatures["w"], enc.creatures["g"], enc.creatures["h"]
    assert enc.perception(w, g) == SEES and enc.perception(w, h) == SEES      # a bright hall
    turn_of(enc, "w")
    enc.rng = Fixed(19)
    assert enc.perform(Cast("stinking-cloud", at=(12, 3)))
    # the wizard looks down the hall through the cloud: the goblins beyond 5 ft are lost to sight
    assert enc.perception(w, g) == NONE and enc.perception(w, h) == NONE
    assert enc.vision()[1].miss_chance("w", "g") == 50
    enc.place(w, (13, 3))                                              # next to the goblin, in the cloud
    assert enc.perception(w, g) == SEES and enc.vision()[1].miss_chance("w", "g") == 20
    enc.magic.zones = []
    assert enc.perception(w, h) == SEES


def test_the_fog_module_keeps_what_other_senses_find():
    import numpy as np

    from sim.terrain.vision import Viewer, sight
    from sim.terrain.vision.fog import through_fog
    from sim.terrain.vision.light import Light, light_levels
    rock = np.zeros((1, 12), bool)
    vs = [Viewer("a", "p", ((0, 0),)), Viewer("b", "m", ((6, 0),)), Viewer("c", "m", ((1, 0),)),
          Viewer("d", "q", ((0, 0),), blindsense_ft=60)]
    s = sight(rock, light_levels(rock, [Light(at=(3, 0), bright_ft=60, shadowy_ft=120)]), vs)
    f = through_fog(s, vs, frozenset({(3, 0)}))
    assert f.level_of("a", "b") == NONE and f.miss_chance("a", "b") == 50
    assert f.level_of("a", "c") == SEES and f.miss_chance("a", "c") == 0       # the fog is not between them
    assert f.level_of("d", "b") == LOCATES
    assert through_fog(s, vs, frozenset()) is s


# ---- snapshots, the AI, the log --------------------------------------------------------------------

def test_a_fight_with_a_web_and_a_cloud_goes_round_a_snapshot():
    from sim.base.paths import maps_dir
    from sim.engine.events import dumps
    from sim.engine.fight import new_encounter
    from sim.engine.saved import snapshot as S
    from sim.scenario.files import load_encounter
    enc_file = maps_dir() / "demo.toml"
    spec = load_encounter(enc_file)
    w = new_encounter(spec, seed=3)
    w.start()
    c = next(iter(w.creatures.values()))
    x, y = c.pos
    w.magic.zones = [zones.Zone(spell="web", squares=((x, y), (x + 1, y)), owner=c.id, last_round=99, dc=15),
               zones.Zone(spell="stinking-cloud", squares=((x, y + 1),), owner=c.id, last_round=4, dc=16)]
    put(c, make("in_web", c.id))
    put(c, make("cloud_sick", c.id, rolled=1, left=2))
    back = S.load_text(S.dumps(w, encounter_file=enc_file), spec, policy=w.policy)
    assert back.magic.zones == w.magic.zones and back.creatures[c.id].effects == c.effects
    w.run()
    back.run()
    assert dumps(back.events) == dumps(w.events)


def test_the_view_model_keeps_web_and_cloud_until_their_end():
    from sim.engine.events import SpellCast, ZoneEnded
    from sim.view.model import ViewModel
    m = ViewModel()
    m.apply(SpellCast(round=1, actor="w", spell="web", targets=(), squares=((1, 1),)))
    m.apply(SpellCast(round=1, actor="w", spell="stinking-cloud", targets=(), squares=((2, 2),)))
    assert len(m.zones) == 2
    m.apply(ZoneEnded(round=6, spell="web", owner="w", squares=((1, 1),)))
    assert list(m.zones) == [("stinking-cloud", "w", ((2, 2),))]


# ---- the AI ----------------------------------------------------------------------------------------

# a hall (x 0..9) whose mouth opens on a tunnel 1 square wide (y = 3) going east to a second hall
MOUTH = ["##########" + "#" * 10 + "......",
         "..........#" + "#" * 9 + "......",
         ".........." + "#" * 10 + "......",
         ".........." + "." * 10 + "......",
         ".........." + "#" * 10 + "......",
         ".........." + "#" * 10 + "......",
         "##########" + "#" * 10 + "......"]


def _mouth(friend: str, *others, foe="goblin"):
    enc = _wizard(MOUTH, [1, 3], {"id": "o", "template": foe, "team": "m", "at": [23, 3]},
                  {"id": "f", "template": friend, "team": "p", "at": [2, 4]}, *others)
    w = turn_of(enc, "w")
    for lvl in (1, 3):
        w.spells_left[lvl] = []           # the web alone (no fireball, cloud or grease)
    w.spells_left[2] = ["web"]
    return enc, w


def test_the_ai_webs_the_tunnel_mouth_when_its_friends_all_fight_at_range():
    from sim.engine.ai.spells import goers, web_choke
    enc, w = _mouth("elf-wizard-5")            # the friend is a caster: nobody to send down the tunnel
    assert web_choke(enc, w, enc.enemies(w)) is not None
    assert goers(enc, w, enc.enemies(w)) == []
    cast = web_choke(enc, w, enc.enemies(w))
    assert cast is not None
    area = set(spells.area_of(enc, w, cast))
    assert any((x, 3) in area for x in range(10, 20))           # across the tunnel
    assert not area & {(1, 3), (2, 4)}                          # neither the caster nor its friend
    assert not enc.creatures["o"].squares[0] in area            # a choke web: it catches nobody
    n = len(enc.events)
    enc.ai_turn()
    assert [c.spell for c in of_type(enc, "spell", n)] == ["web"] and enc.magic.zones[0].spell == "web"


def test_no_web_across_the_tunnel_its_fighter_must_cross():
    from sim.engine.ai.spells import goers, web_choke
    enc, w = _mouth("human-fighter-1")         # docs/rules.md §8.3's AI: the fighter walks to the goblin
    f = enc.creatures["f"]
    assert goers(enc, w, enc.enemies(w)) == [f]
    assert web_choke(enc, w, enc.enemies(w)) is None
    f.hp = f.max_hp // 2                        # wounded (half its hit points): it stays, the web closes the tunnel
    assert goers(enc, w, enc.enemies(w)) == []
    assert web_choke(enc, w, enc.enemies(w)) is not None


def test_one_dangerous_foe_is_webbed_where_it_stands_two_goblins_too_but_not_one():
    from sim.engine.ai.spells import dangerous, web_choke
    enc, w = _mouth("elf-wizard-5", foe="ogre")    # Large: bigger than the caster [PD]
    o = enc.creatures["o"]
    assert dangerous(w, o)
    area = set(spells.area_of(enc, w, web_choke(enc, w, enc.enemies(w))))
    assert set(o.squares) & area
    enc, w = _mouth("elf-wizard-5", {"id": "g", "template": "goblin", "team": "m", "at": [23, 5]})
    assert not dangerous(w, enc.creatures["o"])    # a goblin: 1 Hit Die, Small
    area = set(spells.area_of(enc, w, web_choke(enc, w, enc.enemies(w))))
    assert (23, 3) in area and (23, 5) in area         # both goblins held
    enc, w = _mouth("human-fighter-1", {"id": "g", "template": "goblin", "team": "m", "at": [23, 5]})
    assert web_choke(enc, w, enc.enemies(w)) is None   # its fighter walks to them: they are on its way
def test_the_ai_clouds_a_group_of_foes_but_not_its_friends():
    from sim.engine.ai.spells import cloud_group
    enc = _wizard(HALL, [0, 3], {"id": "g", "template": "goblin", "team": "m", "at": [14, 3]},
                  {"id": "h", "template": "goblin", "team": "m", "at": [15, 4]},
                  {"id": "f", "template": "human-fighter-1", "team": "p", "at": [13, 2]})
    w = turn_of(enc, "w")
    assert cloud_group(enc, w, enc.enemies(w)) is None         # the fighter stands among them
    enc.place(enc.creatures["f"], (1, 0))
    cast = cloud_group(enc, w, enc.enemies(w))
    assert cast is not None and cast.spell == "stinking-cloud"
    area = set(spells.area_of(enc, w, cast))
    assert (14, 3) in area and (15, 4) in area


def test_no_web_nor_cloud_on_a_lone_goblin_in_the_open():
    from sim.engine.ai.spells import cloud_group, web_choke
    enc = _wizard(OPEN, [0, 15], {"id": "g", "template": "goblin", "team": "m", "at": [14, 15]})
    w = turn_of(enc, "w")
    assert web_choke(enc, w, enc.enemies(w)) is None and cloud_group(enc, w, enc.enemies(w)) is None


def test_web_strands_give_cover_and_20_ft_of_them_total_cover():
    from sim.engine import attacks
    enc = _wizard(CORRIDOR, [0, 1], {"id": "f", "template": "human-fighter-1", "team": "p", "at": [4, 1]},
                  {"id": "g", "template": "goblin", "team": "m", "at": [8, 1]})
    f, g = enc.creatures["f"], enc.creatures["g"]
    _, parts = attacks.target_ac(enc, f, g, ranged=True)
    assert "cover" not in parts
    enc.magic.zones = [zones.Zone(spell="web", squares=tuple((x, 1) for x in range(6, 14)), owner="w", last_round=99, dc=15)]
    _, parts = attacks.target_ac(enc, f, g, ranged=True)
    assert parts["cover"] == 4 and zones.web_feet(enc, f.squares, g.squares) == 10   # (6, 1) and (7, 1)
    enc.place(g, (11, 1))                                                            # (6..10, 1): 25 ft of web
    plan = attacks.plan_attack(enc, f, attacks.first_melee(f), g)
    assert isinstance(plan, Impossible) and "total cover" in plan.reason


def test_a_nauseated_goblin_walks_out_of_the_cloud():
    enc, g, _ = _clouded(2)
    turn_of(enc, "g")
    assert g.nauseated
    enc.ai_turn()
    assert not set(g.squares) & zones.clouded(enc)


# ---- walking round a web, keeping out of one's own (docs/rules.md §8.3's AI [PD]) -------------

def _web_zone(enc, squares, owner="w"):
    z = zones.Zone(spell="web", squares=tuple(squares), owner=owner, last_round=enc.round + 100, dc=15)
    enc.magic.zones.append(z)
    return z


def test_a_move_goes_round_a_web_when_a_way_exists_and_through_when_none():
    from sim.engine import moves
    enc = _wizard(HALL, [0, 0], {"id": "f", "template": "human-fighter-1", "team": "p", "at": [2, 3]})
    _web_zone(enc, [(5, y) for y in range(1, 6)])      # x = 5, rows 1-5: rows 0 and 6 stay clear
    f = turn_of(enc, "f")
    steps = moves.path_to(enc, f, (8, 3)).steps
    assert tuple(steps[-1].at) == (8, 3)
    assert not {tuple(s.at) for s in steps} & {(5, y) for y in range(1, 6)}     # round it, by row 0 or 6
    assert {tuple(s.at) for s in steps} & {(5, 0), (5, 6)}
    enc.magic.zones.clear()
    _web_zone(enc, [(5, y) for y in range(7)])         # wall to wall: the only way is through
    steps = moves.movement_plan(enc, f, (8, 3), budget=2)
    assert steps and tuple(steps[-1].at)[0] == 5        # it stops at the first web square (§8.3)


def test_a_wizard_does_not_walk_into_its_own_web_to_fight_in_melee():
    from sim.engine.ai.spells import keep_out
    enc = _wizard(HALL, [2, 3], {"id": "g", "template": "goblin", "team": "m", "at": [9, 3]})
    _web_zone(enc, [(x, y) for x in range(5, 9) for y in range(7)])
    w = turn_of(enc, "w")
    assert keep_out(enc, w, Move(to=(5, 3))) is None               # its own web: it waits
    assert keep_out(enc, w, Move(to=(2, 5))) == Move(to=(2, 5))    # clear of it: the move stands
    enc.magic.zones.clear()
    _web_zone(enc, [(x, y) for x in range(5, 9) for y in range(7)], owner="g")
    assert keep_out(enc, w, Move(to=(5, 3))) == Move(to=(5, 3))    # a foe's web is not its own
