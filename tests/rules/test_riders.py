"""The one ``[[rider]]`` builder (sim/rules/statblocks/riders.py): both families of riders, the
bestiary's (RULES §4.9) and the grapple's (docs/rules.md "Grapple"), read through it."""

import dataclasses

from sim.rules.statblocks import load_template
from sim.rules.statblocks.check import Check
from sim.rules.statblocks.riders import GRAPPLE_RIDER_KEYS, parse_riders, rider_spec
from sim.rules.statblocks.types import RIDER_COPIED_FIELDS, Rider, RiderSpec, rider_from_spec


def _one(table):
    chk = Check("x.toml")
    return rider_spec(chk, table, "[[rider]] #1"), chk.problems


def test_every_rider_field_but_the_dc_comes_from_the_spec():
    spec_fields = {f.name for f in dataclasses.fields(RiderSpec)}
    assert set(RIDER_COPIED_FIELDS) <= spec_fields
    assert set(RIDER_COPIED_FIELDS) | {"dc"} == {f.name for f in dataclasses.fields(Rider)}
    spec = RiderSpec("swallow", "swallow_whole", None, None, damage=("2d8+12", "8 acid"), max_size="huge")
    r = rider_from_spec(spec, None)
    assert (r.key, r.kind, r.damage, r.max_size, r.dc) == ("swallow", "swallow_whole", ("2d8+12", "8 acid"), "huge", None)


def test_purple_worm_riders_read_and_derived():
    """Purple worm (SRD): poison sting Fort DC 25 (Con-based; 1d6 Str / 2d6 Str), improved grab,
    swallow whole 2d8+12 crushing plus 8 acid on a creature smaller than the (Gargantuan) worm."""
    worm = load_template("purple-worm")
    by_kind = {r.kind: r for r in worm.riders}
    assert by_kind["swallow_whole"].damage == ("2d8+12", "8 acid")
    assert by_kind["swallow_whole"].max_size == "huge"
    assert (by_kind["poison"].dc, by_kind["poison"].initial, by_kind["poison"].secondary) == (25, "1d6 str", "2d6 str")
    assert by_kind["improved_grab"].key == "grab"


def test_a_grapple_rider_takes_only_its_own_keys():
    spec, problems = _one({"key": "grab", "kind": "improved_grab", "initial": "1d4 con"})
    assert spec is None
    assert problems == ["x.toml: [[rider]] #1 initial: unknown key for a improved_grab rider; "
                        "allowed: key, kind, max_size"]
    assert set(GRAPPLE_RIDER_KEYS) == {"improved_grab", "constrict", "swallow_whole", "engulf", "paralysis"}


def test_constrict_damage_of_the_wrong_type_says_both_what_and_that_it_is_needed():
    spec, problems = _one({"key": "c", "kind": "constrict", "damage": 7})
    assert spec is None
    assert problems == [
        'x.toml: [[rider]] #1 damage: must be dice such as "1d4+4" (or a list: ["2d8+12", "8 acid"])',
        'x.toml: [[rider]] #1 damage: a constrict rider needs its damage, e.g. damage = "1d4+4"',
    ]


def test_paralysis_needs_save_ability_and_duration():
    spec, problems = _one({"key": "p", "kind": "paralysis", "duration": "soon"})
    assert spec is None
    assert problems == [
        "x.toml: [[rider]] #1 save: must be fort, ref or will",
        "x.toml: [[rider]] #1 dc_ability: the ability the DC is based on: con, cha ... (DC = 10 + HD/2 + mod)",
        'x.toml: [[rider]] #1 duration: write it as "3d6 rounds" or "6 rounds"',
    ]


def test_a_poison_with_a_fixed_dc_needs_no_ability():
    spec, problems = _one({"key": "sleep", "kind": "poison", "save": "fort", "dc": 13, "effect": "unconscious",
                           "initial": "unconscious 1 minute", "secondary": "unconscious 2d4 hours"})
    assert problems == []
    assert (spec.dc_fixed, spec.effect, spec.dc_ability, spec.damage) == (13, "unconscious", None, ())


def test_an_unknown_kind_names_both_families():
    chk = Check("x.toml")
    assert parse_riders(chk, {"rider": [{"key": "s", "kind": "split"}, "nope"]}) == []
    assert chk.problems[0] == ("x.toml: [[rider]] #1 kind: must be one of poison, disease, wounding, web, rust, "
                               "gaze, strand, weakness, improved_grab, constrict, swallow_whole, engulf, paralysis, got 'split'")
    assert chk.problems[1] == "x.toml: [[rider]] #2: must be a table"
