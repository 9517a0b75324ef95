"""Spell-like abilities (docs/rules.md §8.5): the stat blocks' [[spell_like]] entries against the
SRD, uses per day, caster levels and DCs, darkness, faerie fire, invisibility and enlarge person,
and the AI that uses them."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from sim.base.errors import DataError
from sim.cli import main
from sim.engine import attacks, innate
from sim.engine.actions import Cast, Impossible
from sim.engine.ai.decide import default_policy
from sim.engine.ai.spell_like import innate_tactic
from sim.engine.effects import find
from sim.engine.fight import new_encounter
from sim.engine.saved import snapshot
from sim.engine.spells import area_of
from sim.rules import _data
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.rules.statblocks import load_template, parse_source
from sim.terrain.grid import MapLight
from sim.terrain.vision import LOCATES, NONE, SEES
from sim.terrain.vision.scene import darkness_light
from tests.engine.helpers import ready, spec
from tests.engine.snapshot_files import old_file
from tests.engine.test_spells import Fixed, of_type, turn_of

HALL = ["." * 20] * 7


def fight(rows, combatants, *, lights=(), seed=1, **settings):
    s = spec(rows, combatants, seed=seed, vision=True, **settings)
    s = dataclasses.replace(s, grid=s.grid.replace(lights=tuple(lights)))
    return ready(new_encounter(s))


def sure_hit(enc, a, t):
    att = attacks.melee_in_hand(a) or attacks.first_melee(a)
    plan = attacks.plan_attack(enc, a, att, t, bonus_override=60)
    assert not isinstance(plan, Impossible), plan
    mark = len(enc.events)
    attacks.resolve_attack(enc, plan)
    return plan, next(e for e in enc.events[mark:] if e.type == "attack")


BRIGHT_HALL = MapLight(at=(10, 3), bright_ft=200, shadowy_ft=200)   # everything in view, bright


# ---- the stat blocks against the SRD ----------------------------------------------------------------

@pytest.mark.parametrize("template,expected", [
    # SRD Elf (drow): 1/day dancing lights, darkness, faerie fire; CL = class levels; Cha 10
    ("drow-warrior", [("dancing-lights", 1, 1, 0, 10, "sp", False), ("darkness", 1, 1, 2, 12, "sp", False),
                      ("faerie-fire", 1, 1, 1, 11, "sp", False)]),
    # SRD Dwarf (duergar): 1/day enlarge person, invisibility; CL twice the class levels, min 3rd; self only; Cha 4
    ("duergar-warrior", [("enlarge-person", 1, 3, 1, 8, "sp", True), ("invisibility", 1, 3, 2, 9, "sp", True)]),
    # SRD Gnome (svirfneblin): 1/day blindness/deafness, blur, disguise self; CL = class levels; Cha 4
    ("svirfneblin-warrior", [("blindness-deafness", 1, 1, 2, 9, "sp", False), ("blur", 1, 1, 2, 9, "sp", False),
                             ("disguise-self", 1, 1, 1, 8, "sp", False)]),
    # SRD Darkmantle: darkness (Su) 1/day, caster level 5th; Cha 10
    ("darkmantle", [("darkness", 1, 5, 2, 12, "su", False)]),
])
def test_the_parsed_spell_like_abilities_match_the_srd(template, expected):
    got = [(s.spell, s.per_day, s.caster_level, s.level, s.dc, s.kind, s.self_only)
           for s in load_template(template).spell_like]
    assert got == expected


def test_what_is_not_played_stays_unmodelled():
    assert "spell-like-abilities" in load_template("drow-warrior").source.unmodelled        # dancing lights
    assert "spell-like-abilities" in load_template("svirfneblin-warrior").source.unmodelled       # disguise self
    assert "spell-like-abilities" not in load_template("duergar-warrior").source.unmodelled
    assert not load_template("darkmantle").source.unmodelled
    assert "darkness-su" not in _data.load("abilities.toml")["ability"]


def _drow_data():
    return _data.load("monsters/humanoid/drow-warrior.toml")


@pytest.mark.parametrize("entry,message", [
    ({"spell": "darkneess", "per_day": 1, "caster_level": 1}, r"\[\[spell_like\]\] 1 spell: unknown spell 'darkneess'"),
    ({"spell": "darkness", "per_day": 0, "caster_level": 1}, r"\[\[spell_like\]\] 1 per_day: uses per day"),
    ({"spell": "darkness", "per_day": 1}, r"\[\[spell_like\]\] 1 caster_level: a caster level"),
    ({"spell": "darkness", "per_day": 1, "caster_level": 1, "kind": "ex"}, r"\[\[spell_like\]\] 1 kind"),
    ({"spell": "darkness", "per_day": 1, "caster_level": 1, "range": 5}, r"\[\[spell_like\]\] 1 range: unknown key"),
])
def test_a_bad_spell_like_entry_names_the_file_and_the_key(entry, message):
    data = {**_drow_data(), "spell_like": [entry]}
    with pytest.raises(DataError, match=r"bad\.toml: " + message):
        parse_source(data, where="bad.toml", key="drow-warrior")


# ---- uses, caster level, Sp and Su --------------------------------------------------------------------

def test_darkness_once_a_day_then_refused_and_its_20_ft_radius():
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [10, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}], lights=[BRIGHT_HALL])
    d = turn_of(enc, "d")
    assert innate.uses_left(enc, d, "darkness") == 1
    assert enc.perform(Cast("darkness", at=(10, 3)))
    assert innate.uses_left(enc, d, "darkness") == 0 and d.uses["sla:darkness"] == 1
    magic = enc.vision()[0].magic_dark
    assert magic[3, 14] and magic[3, 6]                 # 20 ft (4 squares) from the square: darkness
    assert not magic[3, 15] and not magic[3, 5]         # 25 ft: the bright light of the hall
    turn_of(enc, "d")
    why = enc.perform(Cast("darkness", at=(10, 3)))
    assert isinstance(why, Impossible) and "spent" in why.reason


def test_a_spell_like_ability_provokes_and_a_supernatural_one_does_not():
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [10, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [9, 3]}], lights=[BRIGHT_HALL])
    turn_of(enc, "d")
    n = len(enc.events)
    assert enc.perform(Cast("darkness", at=(10, 3)))
    assert [e.actor for e in of_type(enc, "attack", n)] == ["f"]        # Sp: the fighter's attack of opportunity
    enc = fight(HALL, [{"id": "dm", "template": "darkmantle", "team": "m", "at": [10, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [9, 3]}], lights=[BRIGHT_HALL])
    turn_of(enc, "dm")
    n = len(enc.events)
    assert enc.perform(Cast("darkness", at=(10, 3)))
    assert not of_type(enc, "attack", n)                                # Su: none
    assert innate.uses_left(enc, enc.creatures["dm"], "darkness") == 0


def test_faerie_fire_uses_the_abilitys_caster_level_for_range_and_duration():
    enc = fight(["." * 120], [{"id": "d", "template": "drow-warrior", "team": "m", "at": [0, 0]},
                              {"id": "f", "template": "human-fighter-3", "team": "p", "at": [87, 0]}],
                lights=[MapLight(at=(40, 0), bright_ft=900, shadowy_ft=900)])
    turn_of(enc, "d")
    # long range at CL 1: 400 + 40 = 440 ft; the intersection (88, 0) is 87 squares away (435 ft)
    n = len(enc.events)
    assert enc.perform(Cast("faerie-fire", at=(88, 0)))
    (cast,) = of_type(enc, "spell", n)
    assert cast.targets == ("f",) and not of_type(enc, "save", n)      # no save
    assert "outlined" in enc.creatures["f"].conditions
    assert find(enc.creatures["f"], "outlined").until == enc.round + 9                    # 1 min/level: 10 rounds at CL 1


# ---- faerie fire and invisibility over sight ----------------------------------------------------------

def test_faerie_fire_5_ft_burst_outlines_an_invisible_duergar_who_is_seen_again():
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [2, 3]},
                       {"id": "g", "template": "duergar-warrior", "team": "p", "at": [8, 3]}], lights=[BRIGHT_HALL])
    d, g = enc.creatures["d"], enc.creatures["g"]
    turn_of(enc, "g")
    assert enc.perform(Cast("invisibility", target="g"))
    assert enc.perception(d, g) == NONE and enc.miss_chance(d, g) == 50
    turn_of(enc, "d")
    assert sorted(area_of(enc, d, Cast("faerie-fire", at=(8, 3)))) == [(7, 2), (7, 3), (8, 2), (8, 3)]
    assert enc.perform(Cast("faerie-fire", at=(8, 3)))
    assert "outlined" in g.conditions
    assert enc.perception(d, g) == SEES and enc.miss_chance(d, g) == 0


def test_outlined_in_shadows_has_no_concealment_but_magical_darkness_still_conceals():
    # no light at all: the fighter sees the outlined goblin by the candle glow of faerie fire
    enc = fight(HALL, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [2, 3]},
                       {"id": "gob", "template": "goblin", "team": "m", "at": [6, 3]}])
    f, gob = enc.creatures["f"], enc.creatures["gob"]
    assert enc.perception(f, gob) == NONE
    innate._start(enc, gob, "outlined", 10, "test")
    assert enc.perception(f, gob) == SEES and enc.miss_chance(f, gob) == 0     # shadowy, yet no 20%
    enc.magic.lights.append(darkness_light((6, 3)))
    assert enc.miss_chance(f, gob) == 20                                      # a 2nd-level darkness works


def test_invisible_seen_only_by_blindsight_located_by_blindsense():
    enc = fight(HALL, [{"id": "g", "template": "duergar-warrior", "team": "p", "at": [8, 3]},
                       {"id": "dm", "template": "darkmantle", "team": "m", "at": [2, 3]},
                       {"id": "bat", "template": "dire-bat", "team": "m", "at": [2, 5]},
                       {"id": "d", "template": "drow-warrior", "team": "m", "at": [2, 1]}], lights=[BRIGHT_HALL])
    g = enc.creatures["g"]
    turn_of(enc, "g")
    assert enc.perform(Cast("invisibility", target="g"))
    assert enc.perception(enc.creatures["dm"], g) == SEES          # blindsight 90 ft
    assert enc.perception(enc.creatures["bat"], g) == LOCATES      # blindsense 40 ft
    assert enc.miss_chance(enc.creatures["bat"], g) == 50
    assert enc.perception(enc.creatures["d"], g) == NONE           # darkvision and light: nothing


def test_invisibility_gives_plus_2_and_no_dex_then_ends_on_the_attack():
    enc = fight(HALL, [{"id": "g", "template": "duergar-warrior", "team": "p", "at": [8, 3]},
                       {"id": "d", "template": "drow-warrior", "team": "m", "at": [16, 3]}], lights=[BRIGHT_HALL])
    g, d = enc.creatures["g"], enc.creatures["d"]
    turn_of(enc, "g")
    assert enc.perform(Cast("invisibility", target="g"))
    enc.place(d, (9, 3))
    assert find(g, "invisible").until == enc.round + 29             # 1 min/level at CL 3
    plan, e = sure_hit(enc, g, d)
    assert e.modifiers["invisible"] == 2
    assert "no_dex:invisible_attacker" in e.ac_modifiers and "dex" not in e.ac_modifiers
    assert e.concealment == "none"
    assert "invisible" not in g.conditions and find(g, "invisible") is None   # ended by the attack
    assert enc.events[-1].type == "condition" and enc.events[-1].cause == "attacked"
    _, e2 = sure_hit(enc, g, d)
    assert "invisible" not in e2.modifiers


def test_self_only_abilities_refuse_another_target():
    enc = fight(HALL, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [8, 3]},
                       {"id": "g2", "template": "duergar-warrior", "team": "m", "at": [9, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}], lights=[BRIGHT_HALL])
    turn_of(enc, "g")
    why = enc.perform(Cast("invisibility", target="g2"))
    assert isinstance(why, Impossible) and "only itself" in why.reason
    assert innate.uses_left(enc, enc.creatures["g"], "invisibility") == 1


# ---- enlarge person -----------------------------------------------------------------------------------

def test_enlarged_duergar_is_large_str_plus_2_dex_minus_2_and_its_warhammer_grows():
    enc = fight(HALL, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [8, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}], lights=[BRIGHT_HALL])
    g = turn_of(enc, "g")
    before = g.block
    assert (before.attack("warhammer").bonus, str(before.attack("warhammer").damage), before.ac) == (2, "1d8+1", 17)
    assert enc.perform(Cast("enlarge-person", target="g"))
    b = g.block
    assert b.size is Size.LARGE and sorted(g.squares) == [(8, 3), (8, 4), (9, 3), (9, 4)]
    assert (b.abilities.str, b.abilities.dex) == (15, 9)
    # +1 BAB +2 Str -1 size; 2d6 (a Large warhammer) +2 Str; AC 17 -1 size -1 Dex
    assert (b.attack("warhammer").bonus, str(b.attack("warhammer").damage), b.ac) == (2, "2d6+2", 15)
    assert b.reach_ft == 10 and b.body.height == 8.0
    assert find(g, "enlarged").until == enc.round + 29               # CL 3: 30 rounds
    # it ends at the start of its turn after the last round: Medium again where it stands
    enc.round = find(g, "enlarged").until + 1
    turn_of(enc, "g")
    assert g.block.size is Size.MEDIUM and g.squares == [(8, 3)] and "enlarged" not in g.conditions


CRAWL = ["#" * 12, "." * 12, "#" * 12]      # a 5-ft-wide passage


def test_enlarge_is_refused_where_the_bigger_body_does_not_fit():
    enc = fight(CRAWL, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [5, 1]},
                        {"id": "f", "template": "human-fighter-3", "team": "p", "at": [0, 1]}])
    g = turn_of(enc, "g")
    why = enc.perform(Cast("enlarge-person", target="g"))
    assert isinstance(why, Impossible) and why.reason.startswith("no room to grow")
    assert innate.uses_left(enc, g, "enlarge-person") == 1 and g.size is Size.MEDIUM


def test_the_enlarged_body_changes_its_category_in_a_crawl():
    rows = ["C" * 8] * 4                      # a 5-ft-wide crawl, 1.5 ft high
    enc = fight(rows, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [2, 1]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [7, 3]}], legend={"C": (5, 1.5)})
    g = enc.creatures["g"]
    assert Category(int(enc.categories(g)[1, 2])) is Category.CRAWL       # the 4-ft duergar crawls
    assert innate.category_enlarged(enc, g) is Category.AWKWARD           # 8 ft tall, twice as wide: awkward
    own = g.block
    innate.category_enlarged(enc, g)
    assert g.block is own and g.size is Size.MEDIUM                       # the probe leaves its block alone
    turn_of(enc, "g")
    assert enc.perform(Cast("enlarge-person", target="g"))                # awkward is room enough (§8.5)
    assert Category(int(enc.categories(g)[1, 2])) is Category.AWKWARD


# ---- the AI -------------------------------------------------------------------------------------------

def test_the_ai_drow_darkens_the_torch_bearers_square_area():
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [10, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [5, 3], "lit": True,
                        "items": {"torch": 1}, "weapon": "torch"}])
    d = turn_of(enc, "d")
    act = default_policy(enc, d, enc.turn)
    assert act == Cast("darkness", at=(9, 3))        # within reach, nearest the fighter (20 ft away)
    assert enc.perform(act)
    assert innate_tactic(enc, d, enc.turn, [enc.creatures["f"]]) is None   # used, and no standard left


def test_the_darkmantle_casts_darkness_then_drops_on_the_foe():
    enc = fight(HALL, [{"id": "dm", "template": "darkmantle", "team": "m", "at": [9, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [5, 3], "lit": True,
                        "items": {"torch": 1}, "weapon": "torch"}], seed=3)
    dm = turn_of(enc, "dm")
    n = len(enc.events)
    for _ in range(6):
        act = default_policy(enc, dm, enc.turn)
        if act is None or enc.turn.ended:
            break
        enc.perform(act)
    casts = of_type(enc, "spell", n)
    assert [(c.actor, c.spell) for c in casts] == [("dm", "darkness")]
    moved = of_type(enc, "moved", n)
    assert moved and moved[-1].actor == "dm"          # then toward the fighter with its move
    turn_of(enc, "dm")
    m = len(enc.events)
    enc.rng = Fixed(15)
    act = default_policy(enc, dm, enc.turn)
    assert enc.perform(act)
    (att,) = [e for e in of_type(enc, "attack", m) if e.actor == "dm"]
    assert att.target == "f" and att.weapon == "slam"
    # the fighter, who needs light, swings back at 20% in the darkness; blindsight sees through it
    assert enc.miss_chance(enc.creatures["f"], dm) == 20 and enc.miss_chance(dm, enc.creatures["f"]) == 0


def test_the_ai_duergar_turns_invisible_before_closing_then_grows_near_melee():
    enc = fight(["." * 30] * 5, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [20, 2]},
                                 {"id": "f", "template": "human-fighter-3", "team": "p", "at": [10, 2]}],
                lights=[MapLight(at=(15, 2), bright_ft=200, shadowy_ft=200)])
    g = turn_of(enc, "g")
    assert default_policy(enc, g, enc.turn) == Cast("invisibility", target="g")     # 50 ft away
    assert enc.perform(Cast("invisibility", target="g"))
    enc.place(g, (14, 2))                                                            # 15 ft away now
    turn_of(enc, "g")
    assert default_policy(enc, g, enc.turn) == Cast("enlarge-person", target="g")
    assert enc.perform(Cast("enlarge-person", target="g"))
    assert g.conditions >= {"invisible", "enlarged"}                  # growing is no attack


def test_a_snapshot_keeps_the_uses_and_the_effects():
    enc = fight(HALL, [{"id": "g", "template": "duergar-warrior", "team": "m", "at": [8, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}], lights=[BRIGHT_HALL])
    turn_of(enc, "g")
    assert enc.perform(Cast("enlarge-person", target="g"))
    text = snapshot.dumps(enc, encounter_file="test.toml")
    back = snapshot.load_text(text, enc.spec, policy=default_policy)
    g = back.creatures["g"]
    assert g.size is Size.LARGE and len(g.squares) == 4 and "enlarged" in g.conditions
    assert back.creatures["g"].effects == enc.creatures["g"].effects and back.creatures["g"].uses["sla:enlarge-person"] == 1
    assert g.block.spell_like == enc.creatures["g"].block.spell_like


def test_a_snapshot_written_before_spell_like_abilities_still_reads():
    enc = fight(HALL, [{"id": "g", "template": "goblin", "team": "m", "at": [8, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}])
    data = json.loads(snapshot.dumps(enc, encounter_file="test.toml"))

    def strip(v):
        if isinstance(v, dict):
            if v.get("$record", "").endswith(("StatBlock", "Source")):
                v["fields"].pop("spell_like", None)
            for x in v.values():
                strip(x)
        elif isinstance(v, list):
            for x in v:
                strip(x)
    strip(data)
    data = old_file(data, 3)    # the schema before spell-like abilities (and swallowing, splitting)
    assert "spell_like" not in json.dumps(data)
    back = snapshot.load_text(json.dumps(data), enc.spec, policy=default_policy)
    assert back.creatures["g"].block.spell_like == () and back.creatures["g"].block.source.spell_like == ()


def test_cavesim_validate_refuses_an_unknown_spell_like_spell_with_exit_2(tmp_path, capsys):
    src = (Path(__file__).resolve().parents[2] / "sim/data/monsters/humanoid/drow-warrior.toml").read_text()
    block = tmp_path / "drow.toml"
    block.write_text(src.replace('spell = "faerie-fire"', 'spell = "faery-fire"'))
    enc = tmp_path / "e.toml"
    enc.write_text('[encounter]\nname = "t"\nseed = 1\n[map]\nname = "m"\nunits = "ft"\ngrid = """\n....\n"""\n'
                   '[legend]\n"." = { width = 10, height = 10 }\n[[combatant]]\ntemplate = "drow.toml"\nat = [0, 0]\n'
                   '[[combatant]]\ntemplate = "goblin"\nteam = "p"\nat = [3, 0]\n')
    assert main(["validate", str(enc)]) == 2
    err = capsys.readouterr().err
    assert "drow.toml: [[spell_like]] 3 spell: unknown spell 'faery-fire'" in err and "Traceback" not in err


def test_the_ai_drow_in_bright_light_darkens_its_own_square_but_not_when_threatened():
    enc = fight(HALL, [{"id": "d", "template": "drow-warrior", "team": "m", "at": [12, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 3]}], lights=[BRIGHT_HALL])
    d = turn_of(enc, "d")
    assert innate_tactic(enc, d, enc.turn, [enc.creatures["f"]]) == Cast("darkness", at=(12, 3))
    enc.place(enc.creatures["f"], (11, 3))               # a foe with a longsword next to it: Sp provokes, so not now
    assert innate_tactic(enc, d, enc.turn, [enc.creatures["f"]]) is None


def test_glitterdust_ends_an_invisible_duergars_invisibility():
    enc = fight(HALL, [{"id": "w", "template": "elf-wizard-5", "team": "p", "at": [0, 3]},
                       {"id": "g", "template": "duergar-warrior", "team": "m", "at": [10, 3]}], lights=[BRIGHT_HALL])
    w, g = enc.creatures["w"], enc.creatures["g"]
    turn_of(enc, "g")
    assert enc.perform(Cast("invisibility", target="g"))
    assert enc.perception(w, g) == NONE
    turn_of(enc, "w")
    enc.rng = Fixed(20)                                   # the duergar saves: not blinded, but seen
    assert enc.perform(Cast("glitterdust", at=(10, 3)))
    assert "invisible" not in g.conditions and "blinded" not in g.conditions
    assert enc.perception(w, g) == SEES
