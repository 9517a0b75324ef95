"""What a crawl carries into a fight and back is one list (engine.setup.CARRIED), the same both
ways; every field of a creature is either carried or declared as the fight's own."""

from __future__ import annotations

import dataclasses

from sim.engine import specials, zones
from sim.engine.creature import Creature
from sim.engine.effects import Effect, make, put
from sim.engine.setup import CARRIED, build_creature, carry_over
from sim.scenario.specs import CombatantSpec
from tests.engine.helpers import encounter, ready

# the fight's own: identity and placement (set by the fight), its clock and its tallies
NOT_CARRIED = {"id", "name", "team", "template", "max_hp", "pos", "squares", "trail", "initiative", "init_modifier",
               "flat_footed", "aoo_used", "poison_due", "charged", "pending_spell",
               "squeezing_rounds", "nauseated_rounds", "kills", "fell_at",
               # armor half taken off when the fight ends stays on (the work is the fight's clock)
               "armor_work", "armor_total", "armor_helper", "helping",
               "grapple_with", "pinned_by",
               "rage_used",                  # grapples end with the fight (a rage's fatigue is a status)
               "split_round"}               # the round a split ooze's half joined (docs/rules.md §11.14)


def test_every_creature_field_is_carried_or_declared_the_fights_own():
    fields = {f.name for f in dataclasses.fields(Creature)}
    assert set(CARRIED) | NOT_CARRIED == fields
    assert not set(CARRIED) & NOT_CARRIED


def _make(cid: str) -> Creature:
    return build_creature(CombatantSpec(id=cid, template="human-fighter-3", team="party", at=(1, 1),
                                        items=(("oil-flask", 2),)), ".")


def test_carry_over_copies_the_same_fields_both_ways_without_sharing_containers():
    road, fight = _make("a"), _make("a")
    road.hp, road.prone, road.bleed = 7, True, 1
    road.ability_damage["dex"] = 2
    road.fused["oil-flask"] = 1
    road.unloaded.add("light crossbow")
    road.take_armor_off()
    carry_over(road, fight)
    assert (fight.hp, fight.prone, fight.bleed, fight.armor_off) == (7, True, 1, True)
    assert fight.ability_damage == {"dex": 2} and fight.fused == {"oil-flask": 1} and fight.unloaded == {"light crossbow"}
    assert fight.ability_damage is not road.ability_damage and fight.items is not road.items
    fight.items["oil-flask"] = 0  # the fight used them
    fight.set_status("disabled")
    carry_over(fight, road)
    assert road.items["oil-flask"] == 0 and "disabled" in road.conditions


def test_effects_go_on_without_the_fights_clock_and_fight_bound_ones_stay_behind():
    """Bless and a rage (clocked) go on, ending at the next fight's first tick of their moment
    (until 0); blindness/deafness (no clock) goes on as it is; a web's hold and a roper's strand
    (bound to their fight) stay behind; the statuses and the per-day uses go on."""
    fight, road = _make("a"), _make("a")
    for e in (Effect("blessed", "c", 12), Effect("raging", "a", 7), make("blindness", "d", None, dc=14),
              make("entangled", "s", None, escape_dc=12, break_dc=16), make("stuck", "r", None, hp=10, round=3),
              make("web_moving", None, 4, feet=5)):
        put(fight, e)
    fight.set_status("fatigued")
    fight.uses["sla:darkness"] = 1
    carry_over(fight, road)
    assert road.effects == [Effect("blessed", "c", 0), Effect("raging", "a", 0), make("blindness", "d", None, dc=14)]
    assert road.conditions == {"blessed", "raging", "blinded", "fatigued"} and road.uses == {"sla:darkness": 1}
    assert road.uses is not fight.uses and road.effects is not fight.effects


def test_a_spiders_web_is_cut_away_when_the_party_walks_on():
    """At a crawl fight's end (zones.fight_over) a web-entangled creature is freed with its speed
    back: a web's hold is bound to its fight and is not carried (nor its half speed)."""
    enc = ready(encounter(["." * 8] * 3, [{"id": "f", "template": "human-fighter-3", "team": "p", "at": [1, 1]},
                                         {"id": "g", "template": "goblin", "team": "m", "at": [5, 1]}]))
    f = enc.creatures["f"]
    speed = f.block.speed.land
    specials.hold_entangled(enc, f, 12, 16, "g")
    assert "entangled" in f.conditions and f.block.speed.land < speed
    zones.fight_over(enc)
    assert "entangled" not in f.conditions and f.effects == [] and f.block.speed.land == speed
    assert enc.events[-1].type == "condition" and enc.events[-1].cause == "fight_over"
