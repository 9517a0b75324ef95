"""Blind creatures (issue 34 item 1): grimlocks and oozes see nothing, whatever the light.

SRD, Grimlock (Monsters G): "Grimlocks are blind, but their exceptional senses of smell and
hearing allow them to notice foes nearby." "Blindsight (Ex): Grimlocks can sense all foes within
40 feet as a sighted creature would. Beyond that range, they treat all targets as having total
concealment." "Immunities: Grimlocks are immune to gaze attacks, visual effects, illusions, and
other attack forms that rely on sight."

SRD, Ooze type traits: "Blind (but have the blindsight special quality), with immunity to gaze
attacks, visual effects, illusions, and other attack forms that rely on sight."

SRD, Blindsight: "Blinding attacks do not penalize creatures using blindsight."

Played as ``[senses] blind = true`` (docs/rules.md §9.3 items 8-9)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import sim
from sim.crawl.notice import monster_blind, trigger
from sim.crawl.records import MonsterNotices
from sim.engine.effects import find
from sim.engine import innate, specials
from sim.engine.actions import Cast
from sim.engine.ai.spells import glitter_group
from sim.base.errors import DataError
from sim.terrain.grid import MapLight
from sim.rules.statblocks import load_template
from sim.scenario.specs import CombatantSpec
from sim.terrain.vision import LOCATES, NONE, SEES, Light, Viewer, light_levels, sight
from tests.engine.helpers import encounter, grid, ready
from tests.engine.test_spells import Fixed, of_type, turn_of
from tests.engine.test_vision import fight

LONG = ["#" * 16, "#" + "." * 14 + "#", "#" * 16]
BLAZE = MapLight(at=(1, 1), bright_ft=200, shadowy_ft=400)   # the whole tunnel in bright light


def _grimlock_and_bearer(gap_squares: int, lights=(BLAZE,)):
    """A grimlock at (1, 1) and Bruna with a lit torch ``gap_squares`` squares east."""
    return fight([{"id": "grim", "template": "grimlock", "team": "monsters", "at": [1, 1]},
                  {"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [1 + gap_squares, 1],
                   "lit": True}], rows=LONG, lights=lights)


def test_the_shipped_blind_blocks_are_the_grimlock_and_the_four_oozes():
    blind = {n for n in ("grimlock", "gray-ooze", "ochre-jelly", "black-pudding", "gelatinous-cube", "darkmantle",
                         "dire-bat", "purple-worm", "goblin") if load_template(n).senses.blind}
    assert blind == {"grimlock", "gray-ooze", "ochre-jelly", "black-pudding", "gelatinous-cube"}
    g = load_template("grimlock")
    assert (g.senses.blindsight_ft, g.senses.scent, g.senses.darkvision_ft) == (40, True, 0)
    assert "blind" not in g.source.unmodelled and "immune-illusions" not in g.source.unmodelled
    assert all(load_template(n).senses.blindsight_ft == 60 for n in ("gray-ooze", "gelatinous-cube"))


def test_a_grimlock_does_not_see_a_torch_bearer_50_ft_away_in_bright_light():
    """Beyond its blindsight (40 ft) every target has total concealment: nothing perceived at 50 ft
    (its scent detects within 30 ft only), however bright the light; the torch-bearer sees it."""
    enc = _grimlock_and_bearer(10)               # 10 squares: 50 ft
    grim, bruna = enc.creatures["grim"], enc.creatures["bruna"]
    assert bruna.torch_lit
    assert enc.perception(grim, bruna) == NONE and enc.miss_chance(grim, bruna) == 50
    assert enc.perception(bruna, grim) == SEES and enc.miss_chance(bruna, grim) == 0
    assert not enc.blinded(grim)                 # blindsight: never blinded


@pytest.mark.parametrize("gap, level, miss", [(8, SEES, 0), (9, NONE, 50)])
def test_within_40_ft_it_senses_as_a_sighted_creature_would(gap, level, miss):
    """40 ft: seen, no miss chance, in the dark as in the light; 45 ft: nothing."""
    for lights in ((), (BLAZE,)):
        enc = _grimlock_and_bearer(gap, lights)
        grim, bruna = enc.creatures["grim"], enc.creatures["bruna"]
        assert (enc.perception(grim, bruna), enc.miss_chance(grim, bruna)) == (level, miss)


def test_the_sight_kernel_blind_flag():
    """The pure vision layer: a blind viewer's team sees only the squares within its blindsight;
    a blind viewer without blindsight is blinded even in bright light."""
    rock = np.zeros((1, 20), bool)
    light = light_levels(rock, [Light(at=(0, 0), bright_ft=200, shadowy_ft=400)])
    s = sight(rock, light, [Viewer("g", "m", ((0, 0),), blindsight_ft=40, blind=True),
                            Viewer("f", "p", ((12, 0),)),
                            Viewer("n", "x", ((19, 0),), blind=True)])
    assert s.seen_by("m")[0].tolist() == [True] * 9 + [False] * 11          # 0..40 ft
    assert s.seen_by("p")[0].all()                                           # sighted, all lit
    assert s.level_of("g", "f") == NONE and s.level_of("f", "g") == SEES
    assert s.level_of("n", "f") == NONE and s.blinded.tolist() == [False, False, True]
    smell = sight(rock, light, [Viewer("g", "m", ((0, 0),), blindsight_ft=0, blind=True, scent=True),
                                Viewer("f", "p", ((1, 0),))])
    assert smell.level_of("g", "f") == LOCATES                               # scent pinpoints at 5 ft


def test_the_gaze_passes_a_blind_creature_by_even_without_a_listed_immunity():
    """The umber hulk's gaze (Will DC 15, 30 ft) needs eyes: a blind block needs no "gaze" in its
    [defenses] immune list (the oozes list none): no save is rolled."""
    enc = fight([{"id": "hulk", "template": "umber-hulk", "team": "monsters", "at": [1, 1]},
                 {"id": "grim", "template": "grimlock", "team": "party", "at": [4, 1]}], rows=LONG, lights=(BLAZE,))
    grim = enc.creatures["grim"]
    grim.block = dataclasses.replace(grim.block, defenses=dataclasses.replace(grim.block.defenses, immune=()))
    assert enc.perception(grim, enc.creatures["hulk"]) == SEES      # 15 ft: within its blindsight
    enc.rng = Fixed(1)                                              # any save would fail
    n = len(enc.events)
    assert not specials.gaze_at(enc, enc.creatures["hulk"], grim)
    assert not of_type(enc, "save", n) and "confused" not in grim.conditions


def test_glitterdust_blinds_the_fighter_not_the_grimlock_beside_it():
    """Glitterdust (Will DC 15): the goblin rolls (2: blinded); the grimlock in the same spread
    rolls nothing and stays unblinded; the AI does not count it a target."""
    enc = ready(encounter(["." * 26] * 7, [
        {"id": "w", "template": "elf-wizard-5", "team": "p", "at": [0, 3]},
        {"id": "g", "template": "goblin", "team": "m", "at": [10, 3]},
        {"id": "grim", "template": "grimlock", "team": "m", "at": [11, 3]}]))
    w = turn_of(enc, "w")
    enc.rng = Fixed(2)
    n = len(enc.events)
    assert enc.perform(Cast("glitterdust", at=(10, 3)))
    (cast,) = of_type(enc, "spell", n)
    assert set(cast.targets) == {"g", "grim"}
    assert [(s.target, s.dc, s.success) for s in of_type(enc, "save", n)] == [("g", 15, False)]
    assert "blinded" in enc.creatures["g"].conditions and "blinded" not in enc.creatures["grim"].conditions
    assert glitter_group(enc, w, [enc.creatures["grim"]]) is None


def test_blindness_deafness_takes_nothing_from_a_blind_creature():
    """The svirfneblin's blindness (Fort DC 9): on a grimlock no save, no blindness; its AI picks
    another target."""
    from tests.engine.test_spell_like import BRIGHT_HALL, HALL
    from tests.engine.test_spell_like import fight as hall_fight
    from sim.engine.ai.spell_like import blindness
    enc = hall_fight(HALL, [{"id": "s", "template": "svirfneblin-warrior", "team": "p", "at": [2, 3]},
                            {"id": "grim", "template": "grimlock", "team": "m", "at": [8, 3]}], lights=[BRIGHT_HALL])
    s, grim = enc.creatures["s"], enc.creatures["grim"]
    turn_of(enc, "s")
    assert blindness(enc, s, [grim], threatened=False) is None
    enc.rng = Fixed(1)
    n = len(enc.events)
    innate.blind(enc, s, grim, cl=1, sr=True, dc=9)
    assert not of_type(enc, "save", n) and "blinded" not in grim.conditions and find(grim, "blindness") is None


def test_a_blind_block_with_eyes_is_refused(tmp_path):
    """blind = true with darkvision (or low-light vision, light sensitivity) contradicts itself."""
    src = (Path(sim.__file__).parent / "data" / "monsters" / "monstrous-humanoid" / "grimlock.toml").read_text()
    p = tmp_path / "eyed.toml"
    p.write_text(src.replace("blind = true\n", "blind = true\ndarkvision_ft = 60\n"))
    with pytest.raises(DataError, match=r"eyed\.toml.*\[senses\] darkvision_ft: a blind creature \(blind = true\) "
                                        r"sees nothing"):
        load_template(str(p))


def test_a_blind_monster_of_the_crawl_does_not_see_the_partys_light():
    """The crawl's monsters notice a party's light from any distance along a clear line (§9.3.4),
    or by their senses within 60 ft: a kobold 100 ft down the tunnel sees the torch, a grimlock
    there does not (it notices the party 60 ft away, by its senses)."""
    cave = grid(["." * 30])
    path = [(x, 0) for x in range(30)]
    for template, first in (("kobold", 0), ("grimlock", 8)):
        m = CombatantSpec(id="m", template=template, team="monsters", at=(20, 0))
        assert monster_blind(m) == (template == "grimlock")
        seen = trigger(cave, path, [m], [], lit=True, item="torch")
        assert (seen.index, [g.id for g in seen.group], seen.first) == (first, ["m"], "monsters")
        assert seen.monsters_noticed == (MonsterNotices("m", 100 if first == 0 else 60,
                                                        "light" if first == 0 else "senses"),)
