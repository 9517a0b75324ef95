"""The roper's strands with exact numbers (docs/rules.md §11.15; SRD Roper): the +11 ranged touch
to 50 ft, weakness (Fort DC 18, 2d8 Str), the 10-ft drag (along a tunnel, stopped by rock), the
+4 bite at a foe drawn in, breaking free (Escape Artist DC 23, Strength DC 19), severing a
strand (opposed attack rolls, -4 attached, 10 hp), spell resistance 30, fire vulnerability, and
what the AI does with them."""

from __future__ import annotations

from sim.base.paths import maps_dir
from sim.engine import strands
from sim.engine.actions import Cast, Move, Strike
from sim.engine.ai import strands as ai_strands
from sim.engine.ai.decide import default_policy
from sim.engine.damage import DamagePart, deal_damage
from sim.engine.effects import changed, find, put
from sim.engine.events import dumps
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot as S
from sim.engine.strands.actions import BreakStrand, SeverStrand, StrandVolley
from sim.render import portray
from sim.scenario.files import load_encounter
from sim.view.model import ViewModel

from .test_specials import fight, strike
from .test_spells import Fixed, of_type, turn_of

HALL = ["." * 20] * 5
TUNNEL = ["####################",
          "#..nnnnnnnn........#",
          "#..#################",
          "####################"]


def roper_and(template="human-fighter-3", at=(9, 1), rows=HALL, **kw):
    return fight([("r", "roper", "m", (1, 1)), ("a", template, "p", at)], rows=rows, **kw)


def stuck_earlier(enc, roper="r", target="a"):
    """``target`` stuck to a strand since the round before."""
    strands.stick(enc, enc.creatures[roper], enc.creatures[target])
    c = enc.creatures[target]
    put(c, changed(find(c, "stuck"), data=(("hp", find(c, "stuck").value("hp")), ("round", enc.round - 1))))


def test_a_strand_is_a_plus_11_ranged_touch_to_50_ft_that_sticks_and_saps_strength():
    enc = roper_and(at=(11, 1))                     # 45 ft from the roper's near edge
    a = enc.creatures["a"]
    result, events = strike(enc, "r", "a", "strand", 10, 5, 3, 4)   # hit; Fort d20 5 fails; 2d8 = 3 + 4
    assert result
    (atk,) = [e for e in events if e.type == "attack"]
    assert atk.kind == "ranged_touch" and atk.hit
    assert atk.modifiers == {"base_attack": 10, "dex": 1, "size": -1, "weapon_focus": 1}   # +11, no range penalty
    assert atk.ac == a.block.touch_ac
    assert "stuck" in a.conditions and not [e for e in events if e.type == "damage"]
    (save,) = [e for e in events if e.type == "save"]
    assert (save.dc, save.save, save.cause, save.success) == (18, "fortitude", "weakness", False)
    (dmg,) = [e for e in events if e.type == "condition" and e.condition == "ability_damage"]
    assert dmg.detail["ability"] == "str" and dmg.detail["amount"] == 7       # 2d8: 3 + 4
    assert strands.escape_dcs(enc.creatures["r"]) == (23, 19)
    assert strands.strands_free(enc, enc.creatures["r"]) == 5


def test_a_strand_reaches_50_ft_and_no_farther():
    enc = roper_and(at=(12, 1))                     # 50 ft
    result, _ = strike(enc, "r", "a", "strand", 10, 20)
    assert result
    enc = roper_and(at=(13, 1))                     # 55 ft
    result, _ = strike(enc, "r", "a", "strand", 10, 20)
    assert not result and "range" in result.reason


def test_the_drag_pulls_10_ft_closer_a_round_without_attacks_of_opportunity():
    enc = roper_and(at=(9, 1))
    a = enc.creatures["a"]
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert a.pos == (7, 1)                          # 30 ft -> 20 ft
    (moved,) = [e for e in of_type(enc, "moved") if e.actor == "a"]
    assert moved.action == "dragged" and [s["feet"] for s in moved.path] == [5, 5]
    assert not of_type(enc, "attack")


def test_the_drag_goes_along_a_tunnel_the_foe_squeezes_through():
    enc = roper_and(at=(8, 1), rows=TUNNEL)
    a = enc.creatures["a"]
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert a.pos == (6, 1)
    (moved,) = [e for e in of_type(enc, "moved") if e.actor == "a"]
    cats = [s["category"] for s in moved.path]
    assert cats == [cats[0]] * 2 and cats[0] != "CLEAR"          # the 4-ft tunnel's category for its body


def test_the_drag_stops_at_rock_and_beside_the_roper():
    rows = ["....#...............",
            "....#...............",
            "....#...............",
            "...................."]
    enc = roper_and(at=(5, 0), rows=rows)           # rock between it and the roper: no square closer
    a = enc.creatures["a"]
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert a.pos == (5, 0)                          # the wall: no neighbouring square is closer
    assert not [e for e in of_type(enc, "moved") if e.actor == "a"]
    enc = roper_and(at=(4, 1))                      # 5 ft from beside the roper
    a = enc.creatures["a"]
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert a.pos == (3, 1)


def test_a_foe_drawn_within_10_ft_is_bitten_at_plus_4():
    enc = roper_and(at=(6, 1))
    stuck_earlier(enc)
    enc.round += 1
    turn_of(enc, "r")
    assert enc.creatures["a"].pos == (4, 1)         # 10 ft away: within the bite's reach
    enc.rng = Fixed(10)
    assert enc.perform(Strike("a", "bite"))
    atk = of_type(enc, "attack")[-1]
    assert atk.modifiers["drawn_in"] == 4 and atk.total == 10 + 13 + 4


def test_breaking_free_escape_artist_dc_23_and_strength_dc_19():
    enc = roper_and(template="halfling-rogue-3", at=(8, 1))
    stuck_earlier(enc)
    turn_of(enc, "a")
    enc.rng = Fixed(1)
    assert enc.perform(BreakStrand("escape_artist"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.success) == ("escape_artist", 23, False)
    assert "stuck" in enc.creatures["a"].conditions
    enc = roper_and(at=(8, 1))
    a = enc.creatures["a"]
    stuck_earlier(enc)
    turn_of(enc, "a")
    need = 19 - a.block.abilities.mod("str")
    enc.rng = Fixed(need)
    assert enc.perform(BreakStrand("strength"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.total, check.success) == ("strength", 19, 19, True)
    assert "stuck" not in a.conditions and strands.stuck_to(enc, a) is None


def test_a_stuck_foe_cannot_move_away_but_may_come_closer():
    enc = roper_and(at=(8, 1))
    stuck_earlier(enc)
    turn_of(enc, "a")
    assert "stuck" in enc.perform(Move((12, 1))).reason
    assert enc.perform(Move((6, 1)))


def test_severing_a_strand_opposed_rolls_minus_4_attached_and_10_hp():
    enc = roper_and(at=(8, 1))
    a = enc.creatures["a"]
    stuck_earlier(enc)
    turn_of(enc, "a")
    enc.rng = Fixed(15, 10, 6)                      # the fighter 15, the strand 10; the longsword's d8: 6
    assert enc.perform(SeverStrand("a"))
    opp = of_type(enc, "opposed")[-1]
    assert opp.total == 15 + 6                      # longsword +6
    assert opp.target_modifiers["attached"] == -4 and opp.target_total == 10 + 11 - 4 and opp.success
    assert not [e for e in of_type(enc, "attack") if e.actor == "r"]    # no attack of opportunity
    cut = [e for e in of_type(enc, "condition") if "strand_damage" in e.detail][-1]
    assert (cut.detail["strand_damage"], cut.detail["strand_hp"]) == (8, 2)   # 1d8+2 = 8 of its 10 hp
    assert "stuck" in a.conditions
    turn_of(enc, "a")
    enc.rng = Fixed(15, 10, 6)
    assert enc.perform(SeverStrand("a"))
    assert "stuck" not in a.conditions and strands.stuck_to(enc, a) is None


def test_spell_resistance_30_against_magic_missile():
    enc = fight([("r", "roper", "m", (1, 1)), ("w", "elf-wizard-10", "p", (8, 1))], rows=HALL)
    r = enc.creatures["r"]
    hp = r.hp
    turn_of(enc, "w")
    enc.rng = Fixed(19)                             # 19 + caster level 10 = 29 < SR 30
    assert enc.perform(Cast("magic-missile", target="r"))
    check = of_type(enc, "check")[-1]
    assert (check.skill, check.dc, check.modifier, check.success) == ("caster_level", 30, 10, False)
    assert r.hp == hp


def test_fire_deals_half_again_as_much_to_a_roper():
    enc = roper_and()
    r = enc.creatures["r"]
    hp = r.hp
    deal_damage(enc, r, [DamagePart(7, "fire", "energy")], source=None, cause="test")
    assert r.hp == hp - 10                          # 7 x 1.5 = 10 (rounded down)
    deal_damage(enc, r, [DamagePart(7, "bludgeoning", "weapon", types=("bludgeoning",))], source=None, cause="test")
    assert r.hp == hp - 17


def test_the_ai_roper_strands_foes_in_range_and_bites_one_in_reach():
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (4, 1)),
                 ("b", "human-fighter-3", "p", (9, 1)), ("c", "human-fighter-3", "p", (19, 1))], rows=HALL)
    turn_of(enc, "r")
    act = default_policy(enc, enc.creatures["r"], enc.turn)
    assert act == StrandVolley(("a", "b"), "a")     # c is 80 ft away: out of a strand's reach


def test_the_ai_stuck_foe_takes_the_better_way_out():
    enc = roper_and(template="halfling-rogue-3", at=(8, 1))
    stuck_earlier(enc)
    turn_of(enc, "a")
    act = default_policy(enc, enc.creatures["a"], enc.turn)
    assert act in (BreakStrand(), SeverStrand("a"))
    enc = roper_and(at=(8, 1))
    stuck_earlier(enc)
    turn_of(enc, "a")
    assert default_policy(enc, enc.creatures["a"], enc.turn) == SeverStrand("a")   # a fighter cuts it


def test_a_strand_goes_round_in_a_snapshot():
    """Who is stuck to which roper, the strand's hit points and the round it stuck are saved and
    loaded, and the fight plays on the same (sim/engine/saved/snapshot.py)."""
    path = maps_dir() / "otyugh_midden.toml"
    spec = load_encounter(path)
    w = new_encounter(spec, seed=1)
    w.start()
    while w.advance() and not any(strands.stuck_to(w, c) for c in w.creatures.values()):
        pass
    stuck = {c.id: strands.stuck_to(w, c) for c in w.creatures.values() if strands.stuck_to(w, c)}
    assert stuck
    loaded = S.load_text(S.dumps(w, encounter_file=path), spec, policy=default_policy)
    assert {c.id: tuple(strands.stuck_to(loaded, c)) for c in loaded.creatures.values()
            if strands.stuck_to(loaded, c)} == {k: tuple(v) for k, v in stuck.items()}
    w.run()
    loaded.run()
    assert dumps(loaded.events) == dumps(w.events)


def test_a_foe_in_a_grapple_is_not_dragged():
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (9, 1)),
                 ("o", "orc", "m", (10, 1))], rows=HALL)
    a, o = enc.creatures["a"], enc.creatures["o"]
    stuck_earlier(enc)
    a.grapple_with.append("o")
    o.grapple_with.append("a")
    a.set_status("grappled")
    o.set_status("grappled")
    enc.round += 1
    turn_of(enc, "r")
    assert a.pos == (9, 1)


def test_a_strand_is_cut_only_with_a_melee_weapon_in_hand():
    enc = roper_and(template="elf-ranger-3", at=(8, 1))
    a = enc.creatures["a"]
    a.wielding = "composite-longbow"                # the bow in hand: the longsword is not
    stuck_earlier(enc)
    turn_of(enc, "a")
    result = enc.perform(SeverStrand("a"))
    assert not result and "slashing or bludgeoning" in result.reason
    assert default_policy(enc, a, enc.turn) == BreakStrand()


def stuck_pairs_of_view(events) -> dict:
    model = ViewModel()
    for e in events:
        model.apply(e)
    return {c.id: c.stuck_to for c in model.creatures.values() if c.stuck_to}


def test_the_view_model_knows_who_is_stuck_to_whom_from_the_events_and_a_saved_game():
    """The screen draws each strand from the "stuck" conditions (docs/rules.md §11.15): the first
    names the roper; a cut that leaves the strand hanging names the cutter and changes nothing;
    breaking free, a cut through and the roper out end it. A loaded game replays its events."""
    path = maps_dir() / "otyugh_midden.toml"
    spec = load_encounter(path)
    w = new_encounter(spec, seed=1)
    w.start()
    seen_cut = seen_free = False
    while w.advance() and w.round < 8:
        engine = {c.id: strands.stuck_to(w, c)[0] for c in w.creatures.values() if strands.stuck_to(w, c)}
        assert stuck_pairs_of_view(w.events) == engine
        seen_cut |= any(e.type == "condition" and "strand_damage" in e.detail for e in w.events)
        seen_free |= any(e.type == "condition" and e.condition == "stuck" and not e.active for e in w.events)
    assert seen_cut and seen_free and engine          # both happened, and some are still held
    loaded = S.load_text(S.dumps(w, encounter_file=path), spec, policy=default_policy)
    assert stuck_pairs_of_view(loaded.events) == engine


def test_the_stuck_badge_and_its_name():
    assert portray.CONDITION_BADGES["stuck"][0] == "S" and portray.BADGE_NAMES["stuck"] == "stuck to a roper's strand"


def test_the_ai_ally_cuts_a_friend_free_when_no_foe_is_in_its_reach():
    """[PD] docs/rules.md §11.15: b, beside the stuck a (30 ft from the roper, so the drag still
    pulls it) and with no foe within its reach, cuts a's strand: its longsword +6 against the
    strand's +11 -4, 1d8+2 of the strand's 10 hp (chance 0.28 >= 15%)."""
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (9, 1)),
                 ("b", "human-fighter-3", "p", (10, 1))], rows=HALL)
    stuck_earlier(enc)
    turn_of(enc, "b")
    b = enc.creatures["b"]
    assert ai_strands.cut_chance(enc, b, b.wielded(), enc.creatures["a"]) >= ai_strands.FRIEND_MIN_CHANCE
    act = default_policy(enc, b, enc.turn)
    assert act == SeverStrand("a")
    enc.rng = Fixed(15, 10, 6)                      # b 15 + 6 = 21 beats the strand's 10 + 11 - 4 = 17; d8 6 + 2
    assert enc.perform(act)
    cut = [e for e in of_type(enc, "condition") if "strand_damage" in e.detail][-1]
    assert (cut.target, cut.cause, cut.detail["strand_damage"], cut.detail["strand_hp"]) == ("a", "b", 8, 2)
    assert strands.stuck_to(enc, enc.creatures["a"])[1] == 2
    turn_of(enc, "b")
    enc.rng = Fixed(15, 10, 6)
    assert default_policy(enc, b, enc.turn) == SeverStrand("a")     # 2 hp left: a likelier cut still
    assert enc.perform(SeverStrand("a"))
    assert strands.stuck_to(enc, enc.creatures["a"]) is None and "stuck" not in enc.creatures["a"].conditions


def test_the_ai_ally_does_not_cut_a_friend_free_when_it_should_attack_or_the_drag_is_over():
    """[PD] §11.15: a foe within b's reach (the orc) is attacked instead; a friend already beside
    its roper is not pulled any more; a friend beyond b's reach is not cut."""
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (9, 1)),
                 ("b", "human-fighter-3", "p", (10, 1)), ("o", "orc", "m", (11, 1))], rows=HALL)
    stuck_earlier(enc)
    turn_of(enc, "b")
    assert not isinstance(default_policy(enc, enc.creatures["b"], enc.turn), SeverStrand)
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (3, 1)),
                 ("b", "human-fighter-3", "p", (4, 1))], rows=HALL)
    stuck_earlier(enc)
    b = enc.creatures["b"]
    assert ai_strands.cut_friend(enc, b, [enc.creatures["r"]]) is None        # a is beside the roper
    enc = fight([("r", "roper", "m", (1, 1)), ("a", "human-fighter-3", "p", (9, 1)),
                 ("b", "human-fighter-3", "p", (12, 1))], rows=HALL)
    stuck_earlier(enc)
    b = enc.creatures["b"]
    assert ai_strands.cut_friend(enc, b, [enc.creatures["r"]]) is None        # 10 ft away: beyond its reach
