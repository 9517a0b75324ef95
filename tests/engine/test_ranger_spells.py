"""The ranger's spells (docs/rules.md §8.6; SRD Ranger): none through 3rd level; from 4th, the
Table: The Ranger slots plus the Wis 12 bonus 1st-level spell, caster level half the ranger
level; delay poison stops a poison's damage; the AI casts it near a poisonous foe."""

from __future__ import annotations

from sim.engine.actions import Cast
from sim.engine.afflictions import poison_secondaries
from sim.engine.ai.decide import default_policy
from sim.rules.statblocks import load_template

from .test_specials import fight, strike
from .test_spells import of_type, turn_of

HALL = ["." * 16] * 5


def test_no_ranger_spells_through_3rd_level():
    assert load_template("elf-ranger-3").spells is None


def test_ranger_spells_per_day_at_4_8_and_10_with_the_wis_bonus_spell():
    # Table: The Ranger: 4th 0 (bonus spells only), 8th 1/0, 10th 1/1; Wis 12 (+1): one bonus
    # 1st-level spell, no bonus 2nd-level one; no 0-level spells
    for level, slots, cl in ((4, (0, 1), 2), (5, (0, 1), 2), (6, (0, 2), 3), (8, (0, 2, 0), 4), (10, (0, 2, 1), 5)):
        sp = load_template(f"elf-ranger-{level}").spells
        assert (sp.cls, sp.ability, sp.ability_mod) == ("ranger", "wis", 1)
        assert sp.slots == slots, level
        assert sp.caster_level == cl, level                 # half the ranger level
        assert sp.domain_slots == () and not sp.spontaneous
    assert load_template("elf-ranger-10").spells.prepared[2] == ("cure-light-wounds",)


def test_delay_poison_stops_a_spiders_poison():
    enc = fight([("s", "monstrous-spider-medium", "m", (6, 2)), ("r", "elf-ranger-4", "p", (2, 2))], rows=HALL)
    turn_of(enc, "r")
    assert enc.perform(Cast("delay-poison", target="r"))
    assert "poison_delayed" in enc.creatures["r"].conditions
    assert enc.creatures["r"].spells_left[1] == []
    enc.place(enc.creatures["s"], (3, 2))
    result, events = strike(enc, "s", "r", "bite", 19, 1)
    assert result and any(e.type == "damage" for e in events)
    assert not [e for e in events if e.type == "save"]          # no Fort save, no Str damage
    assert not enc.creatures["r"].poison_due


def test_the_ai_ranger_casts_delay_poison_near_a_poisonous_foe():
    enc = fight([("s", "monstrous-spider-medium", "m", (12, 2)), ("r", "elf-ranger-4", "p", (2, 2))], rows=HALL)
    turn_of(enc, "r")
    assert default_policy(enc, enc.creatures["r"], enc.turn) == Cast("delay-poison", target="r")
    enc = fight([("g", "goblin", "m", (12, 2)), ("r", "elf-ranger-4", "p", (2, 2))], rows=HALL)
    turn_of(enc, "r")
    assert not isinstance(default_policy(enc, enc.creatures["r"], enc.turn), Cast)   # nothing poisonous


def test_delay_poison_caster_level_and_slot_in_the_cast_event():
    enc = fight([("s", "monstrous-spider-medium", "m", (12, 2)), ("r", "elf-ranger-10", "p", (2, 2))], rows=HALL)
    turn_of(enc, "r")
    assert enc.perform(Cast("delay-poison", target="r"))
    (cast,) = of_type(enc, "spell")
    assert cast.spell == "delay-poison" and cast.targets == ("r",)
    assert enc.creatures["r"].spells_left[1] == ["delay-poison"]


def test_delay_poison_stops_the_secondary_save_too():
    enc = fight([("s", "monstrous-spider-medium", "m", (12, 2)), ("r", "elf-ranger-4", "p", (2, 2))], rows=HALL)
    r = enc.creatures["r"]
    r.poison_due.append((enc.round, "spider-poison", "s"))     # bitten a minute ago: the secondary is due
    r.set_status("poison_delayed")
    mark = len(enc.events)
    poison_secondaries(enc, r)
    assert not [e for e in enc.events[mark:] if e.type == "save"] and not r.ability_damage
