"""Attack and AC rules (RULES §2.4, §3.1, §5.1, §5.4, §6.5-6.6) through the real resolution."""

import numpy as np

from sim.engine import attacks
from sim.engine.actions import Charge, Draw, FiveFootStep, Move, Strike
from sim.rules.statblocks import attacks_with

from .helpers import encounter, ready

FIGHTER = "human-cleric-1"  # no tunnel feats: AC 10 + 4 scale... (see the stat block)


def duo(rows, a_at, b_at, *, a="human-cleric-1", b="human-cleric-1", legend=None, **kw):
    enc = ready(encounter(rows, [{"id": "a", "template": a, "team": "x", "at": a_at},
                                 {"id": "b", "template": b, "team": "y", "at": b_at}], legend=legend, **kw))
    return enc, enc.creatures["a"], enc.creatures["b"]


def test_dex_lost_in_every_constricted_category():
    for glyph, wc in {"1": (4, 12), "2": (4, 4), "3": (5, 2.5), "4": (2, 12), "5": (1, 1)}.items():
        enc, a, b = duo(["....", f".{glyph}..", "...."], [2, 1], [1, 1], a="halfling-rogue-1",
                        b="halfling-rogue-1", legend={glyph: wc})
        ac, parts = attacks.target_ac(enc, a, b, ranged=False)
        if b.block.abilities.mod("dex") > 0 and attacks.standing_category(enc, b).name != "CLEAR":
            assert "dex" not in parts and any(k.startswith("no_dex") for k in parts)


def test_tight_squeeze_minus_4_ac_and_prone_modifiers():
    enc, a, b = duo(["....", ".5..", "...."], [2, 1], [1, 1], legend={"5": (1, 1)})
    ac, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert parts["tight_squeeze"] == -4
    assert parts["prone"] == -4  # lying in a square lower than half its height (§7.31)
    ac_r, parts_r = attacks.target_ac(enc, a, b, ranged=True)
    assert parts_r["prone"] == 4


def test_crawl_prone_defender():
    enc, a, b = duo(["....", ".3..", "...."], [2, 1], [1, 1], legend={"3": (5, 2.5)})
    _, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert parts["prone"] == -4 and "no_dex:crawl" in parts


def test_flat_footed_and_charged():
    enc, a, b = duo(["......"], [0, 0], [1, 0], a="halfling-rogue-1", b="halfling-rogue-1")
    b.flat_footed = True
    _, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert "dex" not in parts and "no_dex:flat_footed" in parts
    b.flat_footed = False
    b.charged = True
    _, parts = attacks.target_ac(enc, a, b, ranged=False)
    assert parts["charged"] == -2 and parts["dex"] > 0


def test_cover_from_rock_and_from_creatures():
    rows = [".....",
            "..#..",
            "....."]
    enc, a, b = duo(rows, [0, 1], [4, 1])
    _, parts = attacks.target_ac(enc, a, b, ranged=True)
    assert parts["cover"] == 4
    enc, a, b = duo(["......"], [0, 0], [5, 0])
    assert "cover" not in attacks.target_ac(enc, a, b, ranged=True)[1]
    enc = ready(encounter(["......"], [{"id": "a", "template": FIGHTER, "team": "x", "at": [0, 0]},
                                       {"id": "m", "template": FIGHTER, "team": "x", "at": [2, 0]},
                                       {"id": "b", "template": FIGHTER, "team": "y", "at": [5, 0]}]))
    _, parts = attacks.target_ac(enc, enc.creatures["a"], enc.creatures["b"], ranged=True)
    assert parts["cover"] == 4  # a creature in the line of fire


def test_touch_ignores_armor_shield_natural():
    enc, a, b = duo(["...."], [0, 0], [1, 0])
    full, parts = attacks.target_ac(enc, a, b, ranged=False)
    touch, tparts = attacks.target_ac(enc, a, b, ranged=False, touch=True)
    assert "armor" in parts and "armor" not in tparts and touch == full - parts.get("armor", 0) - parts.get("shield", 0)


def test_flanking_plus_2_and_none_in_a_corridor():
    rows = ["...", "...", "..."]
    enc = ready(encounter(rows, [{"id": "a", "template": FIGHTER, "team": "x", "at": [0, 1]},
                                 {"id": "c", "template": FIGHTER, "team": "x", "at": [2, 1]},
                                 {"id": "b", "template": "goblin", "team": "y", "at": [1, 1]}]))
    a = enc.creatures["a"]
    plan = attacks.plan_attack(enc, a, a.wielded(), enc.creatures["b"])
    assert plan.modifiers["flanking"] == 2
    # a 5-ft corridor: the ally stands behind, not opposite: no flanking
    enc = ready(encounter(["....."], [{"id": "a", "template": FIGHTER, "team": "x", "at": [1, 0]},
                                      {"id": "c", "template": FIGHTER, "team": "x", "at": [0, 0]},
                                      {"id": "b", "template": "goblin", "team": "y", "at": [2, 0]}]))
    a = enc.creatures["a"]
    assert "flanking" not in attacks.plan_attack(enc, a, a.wielded(), enc.creatures["b"]).modifiers


def test_range_increments_firing_into_melee_and_prone_ranged():
    rows = ["." * 30]
    enc = ready(encounter(rows, [{"id": "a", "template": "elf-wizard-1", "team": "x", "at": [0, 0]},
                                 {"id": "m", "template": FIGHTER, "team": "x", "at": [26, 0]},
                                 {"id": "b", "template": "goblin", "team": "y", "at": [25, 0]}]))
    a = enc.creatures["a"]
    xbow = a.attack_named("light-crossbow")
    plan = attacks.plan_attack(enc, a, xbow, enc.creatures["b"], kind="ranged")
    assert plan.distance_ft == 125 and plan.modifiers["range"] == -2  # 80-ft increments: second
    assert plan.modifiers["firing_into_melee"] == -4
    a.prone = True
    dagger = a.attack_named("dagger (thrown)")
    assert "only crossbows" in attacks.plan_attack(enc, a, dagger, enc.creatures["b"], kind="ranged").reason


def test_critical_threat_and_confirmation_and_damage_multiplier():
    enc, a, b = duo(["...."], [0, 0], [1, 0], a="human-fighter-3", b="ogre")
    a.wielding = "longsword"

    class Fixed:
        def __init__(self, rolls):
            self.rolls = list(rolls)

        def integers(self, lo, hi, size=None):
            if size is None:
                return self.rolls.pop(0)
            return np.array([self.rolls.pop(0) for _ in range(size)])

        def random(self):
            return 0.5

    enc.rng = Fixed([19, 15, 5, 6])  # threat on 19 (19-20/x2), confirm 15, damage 1d8 twice: 5 + 6
    plan = attacks.plan_attack(enc, a, a.wielded(), b)
    attacks.resolve_attack(enc, plan)
    atk = [e for e in enc.events if e.type == "attack"][-1]
    dmg = [e for e in enc.events if e.type == "damage"][-1]
    assert atk.threat and atk.critical and atk.confirm_roll == 15
    assert dmg.parts == {"slashing": 5 + 2 + 6 + 2}  # (1d8+2) x 2


def test_illegal_attacks_are_refused_with_reasons():
    enc, a, b = duo(["....", ".1..", "...."], [1, 1], [2, 1], legend={"1": (4, 12)})
    a_block = a.block
    gs = attacks_with(a_block, "greatsword")[0]
    assert "cannot be used in a Narrow or Low" in attacks.plan_attack(enc, a, gs, b).reason
    enc, a, b = duo(["....", ".3..", "...."], [1, 1], [3, 1], legend={"3": (5, 2.5)})
    bow = attacks_with(a.block, "shortbow")[0]
    assert "cannot be fired" in attacks.plan_attack(enc, a, bow, b, kind="ranged").reason


def test_attack_of_opportunity_on_leaving_and_not_on_5ft_step():
    rows = ["......", "......"]
    enc = ready(encounter(rows, [{"id": "a", "template": FIGHTER, "team": "x", "at": [1, 0]},
                                 {"id": "b", "template": FIGHTER, "team": "y", "at": [2, 0]}]))
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    assert enc.current().id == "a"
    r = enc.perform(FiveFootStep((0, 0)))
    assert r, r
    assert not [e for e in enc.events if e.type == "attack"]
    enc.end_turn()
    # next: b walks away from a (after a's step it is no longer adjacent): a moves back and away
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    enc.creatures["a"].pos = (1, 0)
    enc.creatures["a"].squares = [(1, 0)]
    r = enc.perform(Move((1, 1)))  # still adjacent to b: no square left threatened? (1,0)->(1,1) leaves a threatened square
    attacks = [e for e in enc.events if e.type == "attack"]
    assert len(attacks) == 1 and attacks[0].actor == "b" and attacks[0].kind == "opportunity"


def test_no_five_foot_step_in_constricted_squares():
    enc = ready(encounter(["....", ".1..", "...."], [{"id": "a", "template": FIGHTER, "team": "x", "at": [1, 1]},
                                                      {"id": "b", "template": FIGHTER, "team": "y", "at": [3, 2]}],
                          legend={"1": (4, 12)}))
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    r = enc.perform(FiveFootStep((0, 1)))
    assert not r and "constricted" in r.reason


def test_charge_refused_from_a_constricted_square_and_needs_a_clear_lane():
    enc = ready(encounter(["........", ".1......", "........"],
                          [{"id": "a", "template": FIGHTER, "team": "x", "at": [1, 1]},
                           {"id": "b", "template": "goblin", "team": "y", "at": [6, 1]}], legend={"1": (4, 12)}))
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    r = enc.perform(Charge("b"))
    assert not r and "no charging in a constricted space" in r.reason


def test_draw_is_a_move_action():
    enc = ready(encounter(["...."], [{"id": "a", "template": "human-fighter-3", "team": "x", "at": [0, 0]},
                                     {"id": "b", "template": "goblin", "team": "y", "at": [1, 0]}]))
    enc.turn_index = enc.order.index("a") - 1
    enc.begin_turn()
    assert enc.perform(Draw("dagger"))
    assert enc.creatures["a"].wielding == "dagger" and not enc.turn.move and enc.turn.standard
    assert enc.perform(Strike("b"))
    assert enc.turn.ended


def test_damage_reduction_once_per_hit_and_riders_need_a_wound():
    from sim.engine.damage import DamagePart, deal_damage

    from .helpers import encounter, ready
    from .test_spells import Fixed

    enc = ready(encounter(["...."], [{"id": "r", "template": "halfling-rogue-3", "team": "p", "at": [0, 0]},
                                     {"id": "g", "template": "grick", "team": "m", "at": [1, 0]},
                                     {"id": "rat", "template": "dire-rat", "team": "m", "at": [2, 0]}]))
    g = enc.creatures["g"]
    hp = g.hp
    # a sneak attack hit: 4 weapon + 12 sneak = 16; DR 10/magic stops 10 of the hit, once
    deal_damage(enc, g, [DamagePart(4, "piercing", "weapon", types=("piercing",)),
                         DamagePart(12, "piercing", "sneak", types=("piercing",))], source=None, cause="weapon")
    dmg = [e for e in enc.events if e.type == "damage"][-1]
    assert dmg.amount == 6 and dmg.adjustments == {"dr_10/magic": -10} and g.hp == hp - 6
    # a dire rat's bite (1d4 + filth fever) that DR stops wholly carries no disease
    rat = enc.creatures["rat"]
    enc.rng = Fixed(15, 4)  # hits, 4 damage: all stopped
    plan = attacks.plan_attack(enc, rat, rat.wielded() or attacks.first_melee(rat), g)
    attacks.resolve_attack(enc, plan)
    assert [e for e in enc.events if e.type == "damage"][-1].amount == 0
    assert not g.diseases and not [e for e in enc.events if e.type == "save" and e.target == "g"]


def test_a_crossbow_in_a_narrow_crawlway_takes_the_narrow_and_low_row():
    from .helpers import encounter, ready

    # for a 5-ft elf: "v" 5 ft wide, 2 ft high is a crawlway; "q" 4 ft wide, 2 ft high a narrow one
    for glyph, expected in (("v", -2), ("q", -4)):      # light crossbow: light (1) in each row
        enc = ready(encounter([glyph + "....."], [{"id": "w", "template": "elf-wizard-1", "team": "x", "at": [0, 0]},
                                                  {"id": "g", "template": "goblin", "team": "y", "at": [5, 0]}],
                              legend={"q": (4, 2), "v": (5, 2)}))
        w = enc.creatures["w"]
        plan = attacks.plan_attack(enc, w, w.attack_named("light-crossbow"), enc.creatures["g"], kind="ranged")
        assert plan and plan.modifiers["crawl"] == expected, plan.modifiers
