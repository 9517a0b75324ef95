"""The svirfneblin's spell-like abilities (docs/rules.md §8.5): blur (20% concealment against
all attacks, not against blindsight nor an outlined subject) and blindness/deafness (Fort
negates, DC 10 + 2 + Cha modifier, spell resistance, blinded for good), and the AI that uses them."""

from __future__ import annotations

from pathlib import Path

from sim.engine import innate
from sim.engine.actions import Cast
from sim.engine.ai.decide import default_policy
from sim.engine.ai.spell_like import innate_tactic, threat
from sim.engine.effects import Effect, find, put
from sim.engine.fight import new_encounter, run_fight
from sim.engine.saved import snapshot
from sim.rules.statblocks import load_template
from sim.scenario.files import load_encounter
from tests.engine.helpers import ready, spec
from tests.engine.test_spell_like import BRIGHT_HALL, HALL, fight, sure_hit
from tests.engine.test_spells import Fixed, of_type, turn_of


def _blurred_guide(**settings):
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [8, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "m", "at": [16, 3]}],
                lights=[BRIGHT_HALL], **settings)
    turn_of(enc, "s")
    n = len(enc.events)
    assert enc.perform(Cast("blur", target="s"))
    (cast,) = of_type(enc, "spell", n)
    assert cast.spell == "blur" and cast.targets == ("s",)
    enc.place(enc.creatures["f"], (9, 3))
    return enc


def test_blur_lasts_1_min_per_level_and_gives_20_percent_miss_on_the_d100():
    enc = _blurred_guide()
    s, f = enc.creatures["s"], enc.creatures["f"]
    assert "blurred" in s.conditions and find(s, "blurred").until == enc.round + 9   # CL 1: 10 rounds
    assert innate.uses_left(enc, s, "blur") == 0
    assert enc.miss_chance(f, s) == 20 and enc.miss_chance(s, f) == 0
    enc.rng = Fixed(15, 20)                    # a hit, then d% 20: missed (20% concealment)
    _, e = sure_hit(enc, f, s)
    assert (e.concealment, e.miss_chance, e.miss_roll, e.hit) == ("concealment", 20, 20, False)
    enc.rng = Fixed(15, 21)                    # d% 21: the blow lands
    _, e = sure_hit(enc, f, s)
    assert (e.miss_roll, e.hit) == (21, True)
    # it ends at the start of its turn after the last round
    enc.round = find(s, "blurred").until + 1
    turn_of(enc, "s")
    assert "blurred" not in s.conditions and enc.miss_chance(f, s) == 0


def test_blur_is_no_concealment_on_an_outlined_subject_and_works_without_vision():
    enc = _blurred_guide()
    s = enc.creatures["s"]
    innate._start(enc, s, "outlined", enc.round + 5, "test")
    assert enc.miss_chance(enc.creatures["f"], s) == 0     # faerie fire: no blur (SRD faerie fire)
    enc = ready(new_encounter(spec(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [8, 3]},
                                          {"id": "f", "template": "human-fighter-3", "team": "m", "at": [9, 3]}])))
    assert not enc.vision_on
    innate._start(enc, enc.creatures["s"], "blurred", enc.round + 9, "test")
    assert enc.miss_chance(enc.creatures["f"], enc.creatures["s"]) == 20   # [PD] blur needs no light


def test_blindsight_sees_through_blur():
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [8, 3]},
                       {"id": "dm", "template": "darkmantle", "team": "m", "at": [9, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "m", "at": [7, 3]}], lights=[BRIGHT_HALL])
    s = enc.creatures["s"]
    innate._start(enc, s, "blurred", enc.round + 9, "test")
    assert enc.miss_chance(enc.creatures["dm"], s) == 0 and enc.miss_chance(enc.creatures["f"], s) == 20


def test_blindness_fort_dc_9_blinds_for_good():
    # DC 10 + 2 (Sor/Wiz 2) + Cha modifier -3 (Cha 4) = 9; medium range 110 ft at CL 1
    assert [s.dc for s in load_template("svirfneblin-warrior").spell_like if s.spell == "blindness-deafness"] == [9]
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "m", "at": [16, 3]}], lights=[BRIGHT_HALL])
    s, f = enc.creatures["s"], enc.creatures["f"]
    turn_of(enc, "s")
    enc.rng = Fixed(1)
    n = len(enc.events)
    assert enc.perform(Cast("blindness-deafness", target="f"))
    (save,) = of_type(enc, "save", n)
    assert (save.target, save.save, save.dc, save.success) == ("f", "fortitude", 9, False)
    assert "blinded" in f.conditions and find(f, "blindness").value("dc") == 9
    # blinded: every foe totally concealed to it (50%), -2 AC and no Dex bonus, half speed (§9.2)
    assert enc.miss_chance(f, s) == 50 and enc.blinded(f)
    enc.place(s, (15, 3))
    enc.rng = Fixed(15)
    _, e = sure_hit(enc, s, f)
    assert e.ac_modifiers["blinded"] == -2 and "dexterity" not in e.ac_modifiers
    # permanent: still blind a hundred rounds on
    enc.round += 100
    turn_of(enc, "f")
    assert "blinded" in f.conditions


def test_blindness_saved_or_resisted_does_nothing():
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "m", "at": [16, 3]},
                       {"id": "d", "template": "drow-warrior", "team": "m", "at": [16, 5]}], lights=[BRIGHT_HALL])
    turn_of(enc, "s")
    enc.rng = Fixed(20)
    n = len(enc.events)
    assert enc.perform(Cast("blindness-deafness", target="f"))
    assert [e.success for e in of_type(enc, "save", n)] == [True] and "blinded" not in enc.creatures["f"].conditions
    assert innate.uses_left(enc, enc.creatures["s"], "blindness-deafness") == 0
    # the drow's spell resistance 12: d20 1 + CL 1 fails to pass it, no save is rolled
    enc.creatures["s"].uses.pop("sla:blindness-deafness")
    turn_of(enc, "s")
    enc.rng = Fixed(1)
    n = len(enc.events)
    assert enc.perform(Cast("blindness-deafness", target="d"))
    assert not of_type(enc, "save", n) and "blinded" not in enc.creatures["d"].conditions


def test_bright_light_does_not_end_blindness_on_a_drow():
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                       {"id": "d", "template": "drow-warrior", "team": "m", "at": [16, 3]}], lights=[BRIGHT_HALL],
                light_sensitivity="bright")
    d = enc.creatures["d"]
    turn_of(enc, "s")
    enc.rng = Fixed(20, 1)                     # SR 12 passed (20 + 1), then a natural 1 on the save
    assert enc.perform(Cast("blindness-deafness", target="d"))
    assert "blinded" in d.conditions
    turn_of(enc, "d")
    turn_of(enc, "d")
    assert "blinded" in d.conditions           # the light blindness round over, the spell stays


def test_blur_and_blindness_round_trip_in_a_snapshot():
    enc = _blurred_guide()
    turn_of(enc, "s")
    rng, enc.rng = enc.rng, Fixed(1)
    assert enc.perform(Cast("blindness-deafness", target="f"))
    enc.rng = rng
    text = snapshot.dumps(enc, encounter_file="test.toml")
    back = snapshot.load_text(text, enc.spec, policy=default_policy)
    assert "blurred" in back.creatures["s"].conditions and "blinded" in back.creatures["f"].conditions
    assert find(back.creatures["s"], "blurred") == find(enc.creatures["s"], "blurred") and find(back.creatures["f"], "blindness").value("dc") == 9
    assert back.creatures["s"].uses == {"sla:blur": 1, "sla:blindness-deafness": 1}
    assert back.miss_chance(back.creatures["f"], back.creatures["s"]) == 50    # blind: the greater miss


# ---- the AI -------------------------------------------------------------------------------------------

def test_the_ai_svirfneblin_blinds_the_foe_that_threatens_it_most_then_blurs_before_melee():
    enc = fight(["." * 30] * 7, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                                 {"id": "gob", "template": "goblin", "team": "m", "at": [10, 3]},
                                 {"id": "f", "template": "human-fighter-3", "team": "m", "at": [14, 3]}],
                lights=[BRIGHT_HALL])
    s, gob, f = enc.creatures["s"], enc.creatures["gob"], enc.creatures["f"]
    assert threat(f, s) > threat(gob, s)       # the fighter's longsword beats the goblin's morningstar
    turn_of(enc, "s")
    assert default_policy(enc, s, enc.turn) == Cast("blindness-deafness", target="f")
    f.set_status("blinded")                # (say it is blind already): the goblin then
    assert innate_tactic(enc, s, enc.turn, [gob, f]) == Cast("blindness-deafness", target="gob")
    f.clear_status("blinded")
    enc.creatures["s"].uses["sla:blindness-deafness"] = 1  # used
    assert innate_tactic(enc, s, enc.turn, [gob, f]) is None          # the goblin 40 ft away: not yet
    enc.place(gob, (7, 3))                     # 20 ft: melee soon
    assert innate_tactic(enc, s, enc.turn, [gob, f]) == Cast("blur", target="s")
    enc.place(gob, (3, 3))                     # next to it: casting provokes, so not now
    assert innate_tactic(enc, s, enc.turn, [gob, f]) is None


def test_the_drow_patrol_runs_to_an_end_with_the_guides_blindness():
    enc = run_fight(load_encounter(Path(__file__).resolve().parents[2] / "maps" / "drow_patrol.toml"))
    assert enc.finished and enc.winner == "party"
    casts = [e for e in enc.events if e.type == "spell" and e.actor == "guide"]
    assert casts and casts[0].spell == "blindness-deafness" and casts[0].round == 1


def test_glitterdust_ending_does_not_end_blindness():
    enc = fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                       {"id": "f", "template": "human-fighter-3", "team": "m", "at": [16, 3]}], lights=[BRIGHT_HALL])
    f = enc.creatures["f"]
    turn_of(enc, "s")
    rng, enc.rng = enc.rng, Fixed(1)
    assert enc.perform(Cast("blindness-deafness", target="f"))
    put(f, Effect("glitterdust", None, enc.round, (("dc", 12),)))          # a glitterdust's last round, now
    enc.rng = rng
    turn_of(enc, "f")
    enc.end_turn()
    assert find(f, "glitterdust") is None and "blinded" in f.conditions
