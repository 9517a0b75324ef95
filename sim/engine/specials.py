"""The bestiary's special abilities in a fight (README "The bestiary"; SRD 3.5 Monsters):

* **web** (monstrous spiders): the thrown web is a ranged touch attack (``Attack`` "web" of the
  stat block), 8 a day, against creatures up to one size larger than the spider; a hit
  entangles: -2 on attacks, -4 Dex (-2 AC), half speed, no running or charging, until the
  creature breaks free (:class:`BreakFree`, a standard action: Escape Artist against the
  escape DC, or a Strength check against the break DC = escape DC + 4);
* **rust** (rust monster): its antennae touch destroys the target's metal armor, else its metal
  shield, else the metal weapon in its hand (magic items: Reflex save against the DC); a metal
  weapon that deals damage to a rust monster is destroyed;
* **confusing gaze** (umber hulk): each opponent within range that sees the gazer saves (Will)
  at the start of its turn or is confused for the rider's rounds; a confused creature rolls d%
  each turn (:func:`confusion_behaviour`, the *confusion* spell's table) and the AI follows it;
  one that was attacked since its last turn attacks its attacker instead;
* **light blindness / sensitivity** (drow / duergar, kobolds, orcs): dazzled (-1 on attacks) in
  bright light, and drow blinded for a round when bright light first falls on them; setting
  ``light_sensitivity``: "daylight" (the SRD: sunlight or *daylight* only, so never in a cave;
  the default) or "bright" (any bright light of RULES §9: a torch's 20 ft);
* **spell resistance**: a caster level check (d20 + caster level >= SR) for each spell that
  would affect the creature;
* **sleep poison** (drow): a poison whose damage is unconsciousness (1 minute; 2d4 hours on the
  secondary failure).

Each hook is called from the rule module where a fight meets the ability; this module imports
none of them (attacks, spells and the AI import it).
"""

from __future__ import annotations

import dataclasses
import functools

from sim.engine.actions import Impossible, Turn
from sim.engine.checks import roll_save, skill_check
from sim.engine.conditions import add, end, tick
from sim.engine.creature import Creature
from sim.engine.damage import Dealt, clear_status, set_status
from sim.engine.effects import drop, find, make, put
from sim.engine.events import Condition
from sim.engine.mechanics import Mechanic
from sim.engine.world import World
from sim.rules import _data
from sim.rules.sizes import at_most_one_larger
from sim.rules.statblocks import attacks_with, with_loadout
from sim.rules.weapons import combat_modifier
from sim.terrain.geometry import footprint_distance_ft
from sim.terrain.vision import SEES
from sim.terrain.vision.light import BRIGHT

CONFUSION_TABLE = (  # SRD confusion: d% -> behaviour (upper bound of each band)
    (10, "attack_caster"), (20, "act_normally"), (50, "babble"), (70, "flee"), (100, "attack_nearest"),
)
MIND_IMMUNE = ("mind-affecting",)
KNOCKED_OUT_ROUNDS = 10     # drow poison's initial damage: unconscious 1 minute
FOR_THE_FIGHT = 10_000      # 2d4 hours: the rest of the fight
_ATTACK_CONDITIONS = frozenset({"dazzled", "entangled"})
_NONE: dict[str, int] = {}              # shared, never changed: callers only read it


@dataclasses.dataclass(frozen=True, slots=True)
class BreakFree:
    """Break free of a web (a standard action): ``how`` "escape_artist", "strength" or None (the
    better of the two for this creature)."""

    how: str | None = None


# -- lookups ---------------------------------------------------------------------------------------

def rider_of(c: Creature, kind: str):
    return next((r for r in c.block.riders if r.kind == kind), None)


@functools.cache
def _materials() -> dict:
    return _data.load("abilities.toml")["rust"]


def is_metal_weapon(weapon) -> bool:
    return weapon is not None and weapon.key not in _materials()["nonmetal_weapons"] and not weapon.natural


def is_metal_armor(piece) -> bool:
    return piece is not None and piece.key not in _materials()["nonmetal_armor"]


def webs_left(w: World, c: Creature) -> int:
    r = rider_of(c, "web")
    if r is None:
        return 0
    return int(r.uses_per_day) - c.uses.get("web", 0)


def entangled(w: World, c: Creature):
    """(escape DC, break DC, source id) of the web holding ``c``, or None."""
    if "entangled" not in c.conditions:
        return None
    e = find(c, "entangled")
    return None if e is None else (e.value("escape_dc"), e.value("break_dc"), e.source)


# -- attack hooks (sim.engine.attacks) ---------------------------------------------------------------

def refuse_attack(w: World, attacker: Creature, attack, target: Creature) -> str | None:
    """Why this special attack cannot be made now (no webs left, a target too big), or None."""
    if attack.kind != "special" or attack.name != "web":
        return None
    if webs_left(w, attacker) <= 0:
        return f"{attacker.name} has no web left today (8 a day)"
    if target.is_swarm or not at_most_one_larger(target.size, attacker.size):
        return f"a web holds creatures up to one size larger than {attacker.name}"
    return None


def attack_modifiers(w: World, c: Creature) -> dict[str, int]:
    """Attack roll modifiers of the bestiary's conditions: dazzled -1, entangled -2 (sim/data/combat.toml
    [attack])."""
    if not (c.conditions & _ATTACK_CONDITIONS):
        return _NONE
    mods: dict[str, int] = {}
    if "dazzled" in c.conditions:
        mods["dazzled"] = combat_modifier("attack", "dazzled")
    if "entangled" in c.conditions:
        mods["entangled"] = combat_modifier("attack", "entangled")
    return mods


def ac_modifiers(w: World, c: Creature) -> dict[str, int]:
    """AC modifiers of the bestiary's conditions: entangled -2 (sim/data/combat.toml [ac])."""
    return {"entangled": combat_modifier("ac", "entangled")} if "entangled" in c.conditions else _NONE


def attack_made(w: World, plan) -> None:
    """An attack is about to be rolled: a thrown web is used up, hit or miss."""
    a = plan.attack
    if a.kind == "special" and a.name == "web":
        plan.attacker.uses["web"] = plan.attacker.uses.get("web", 0) + 1
    if "confused" in plan.target.conditions:
        w.memory.attacked_by[plan.target.id] = plan.attacker.id   # it strikes back next turn


def on_hit(w: World, plan) -> bool:
    """A hit that is not damage: a web entangles, a rust monster's antennae corrode. True when the
    hit is handled here (no damage is rolled)."""
    a, t = plan.attack, plan.attacker
    if a.kind == "special" and a.name == "web":
        entangle(w, t, plan.target)
        return True
    if "rust" in a.riders and a.damage.average == 0:
        rust_touch(w, t, plan.target)
        return True
    return False


def after_damage(w: World, plan, dealt: Dealt) -> None:
    """A metal weapon that dealt damage (``dealt``, what its hit let through) to a rust monster
    corrodes (SRD Rust)."""
    if dealt.total <= 0 or rider_of(plan.target, "rust") is None:
        return
    att = plan.attack
    if att.kind == "weapon" and att.mode == "melee" and is_metal_weapon(att.weapon):
        destroy_weapon(w, plan.attacker, att.weapon.key, cause=plan.target.id)


# -- web ---------------------------------------------------------------------------------------------

def entangle(w: World, spider: Creature, target: Creature) -> None:
    r = rider_of(spider, "web")
    if r is None or not target.alive or "entangled" in target.conditions:
        return
    escape_dc = int(r.dc)
    hold_entangled(w, target, escape_dc, escape_dc + int(r.break_bonus), spider.id)


def hold_entangled(w: World, target: Creature, escape_dc: int, break_dc: int, source: str) -> None:
    """Entangled (the spiders' web, the web spell, docs/rules.md §8.3): -2 on attacks, -4 Dex,
    half speed, until it breaks free (``escape_dc``: Escape Artist; ``break_dc``: Strength)."""
    put(target, make("web_slowed", None, None, speed=target.block.speed.land))
    half = max(5, target.block.speed.land // 2 // 5 * 5)
    target.block = dataclasses.replace(target.block, speed=dataclasses.replace(target.block.speed, land=half))
    add(w, target, "entangled", source, None, detail={"escape_dc": escape_dc, "break_dc": break_dc, "speed": half},
        escape_dc=escape_dc, break_dc=break_dc)


def free_from_web(w: World, c: Creature, cause: str) -> None:
    slowed = drop(c, "web_slowed")
    if slowed is not None:
        c.block = dataclasses.replace(c.block, speed=dataclasses.replace(c.block.speed, land=int(slowed.value("speed"))))
    end(w, c, "entangled", cause)


def break_free_odds(c: Creature, escape_dc: int, break_dc: int) -> tuple[str, int]:
    """The better way out for ``c``: ("escape_artist" or "strength", modifier - DC)."""
    ea = int(c.block.escape_artist) - escape_dc
    st = c.block.abilities.mod("str") + c.str_mod_delta() - break_dc
    return ("escape_artist", ea) if ea >= st else ("strength", st)


def do_break_free(w: World, c: Creature, t: Turn, a: BreakFree):
    """Escape Artist (escape DC) or a Strength check (break DC): a standard action (SRD Web)."""
    why = t.needs(c, standard=True)
    if why:
        return Impossible(why)
    held = entangled(w, c)
    if held is None:
        return Impossible(f"{c.name} is not entangled")
    in_web = find(c, "in_web") is not None
    if in_web and find(c, "web_stuck") is None:
        return Impossible(f"{c.name} is loose in the web: it moves through it (a check each round, docs/rules.md §8.3)")
    why = t.needs(c, full=True) if in_web else None
    if why:
        return Impossible(f"breaking loose of a web takes 1 round: {why}")
    escape_dc, break_dc, _ = held
    how = a.how or break_free_odds(c, escape_dc, break_dc)[0]
    if how not in ("escape_artist", "strength"):
        return Impossible("break free by \"escape_artist\" or \"strength\"")
    if how == "escape_artist":
        ok = skill_check(w, c, "escape_artist", escape_dc, int(c.block.escape_artist), "web")
    else:
        ok = skill_check(w, c, "strength", break_dc, c.block.abilities.mod("str") + c.str_mod_delta(), "web")
    t.spend("full" if in_web else "standard")
    if ok and in_web:
        drop(c, "web_stuck")   # loose, still entangled while in the web (SRD web)
    elif ok:
        free_from_web(w, c, how)
    return True


# -- rust --------------------------------------------------------------------------------------------

def rust_touch(w: World, monster: Creature, target: Creature) -> None:
    """The antennae corrode the target's metal armor, else shield, else the weapon in its hand."""
    r = rider_of(monster, "rust")
    block = target.block
    item = None
    if block.armor is not None and not target.armor_off and is_metal_armor(block.armor):
        item = ("armor", block.armor)
    elif block.shield is not None and is_metal_armor(block.shield):
        item = ("shield", block.shield)
    else:
        held = target.wielded()
        if held is not None and held.kind == "weapon" and is_metal_weapon(held.weapon):
            item = ("weapon", held)
    if item is None:
        return
    slot, thing = item
    magic = (thing.enhancement if slot != "weapon" else dict(thing.bonus_parts).get("enhancement", 0)) > 0
    if magic and r is not None and roll_save(w, target, "ref", int(r.dc), "rust", monster.id):
        return
    if slot == "weapon":
        destroy_weapon(w, target, thing.weapon.key, cause=monster.id)
        return
    keep = {"armor": None, "shield": "keep"} if slot == "armor" else {"armor": "keep", "shield": None}
    target.block = with_loadout(target.block, **keep)        # AC, speed and skills recomputed
    target.base_block = with_loadout(target.base_block, **keep)
    _reapply(w, target)
    w.emit(Condition(round=w.round, target=target.id, condition="rusted", active=True, cause=monster.id,
                     detail={"item": thing.key, "slot": slot, "ac": target.block.ac}))


def destroy_weapon(w: World, c: Creature, key: str, *, cause: str) -> None:
    """The weapon is gone: its attacks leave the creature's block; with no melee attack left it
    fights unarmed."""
    put(c, make("rusted_weapons", None, None, weapons=tuple(sorted(set(_rusted(c)) | {key}))))
    gone = {a.name for a in c.block.attacks if a.weapon is not None and a.weapon.key == key}
    keep = tuple(a for a in c.block.attacks if a.name not in gone)
    if not any(a.mode == "melee" for a in keep):
        keep += tuple(a for a in attacks_with(c.block, "unarmed-strike") if a.name not in {x.name for x in keep})
    c.block = dataclasses.replace(c.block, attacks=keep)
    c.base_block = dataclasses.replace(c.base_block, attacks=tuple(
        a for a in c.base_block.attacks if a.name not in gone) + tuple(a for a in keep if a.name == "unarmed-strike"))
    if c.wielding in gone:
        c.wielding = next((a.name for a in keep if a.mode == "melee"), None)
    w.emit(Condition(round=w.round, target=c.id, condition="rusted", active=True, cause=cause,
                     detail={"item": key, "slot": "weapon"}))


def _rusted(c: Creature) -> tuple[str, ...]:
    """The keys of the weapons rust destroyed this fight (sorted)."""
    e = find(c, "rusted_weapons")
    return () if e is None else tuple(e.value("weapons"))


def _reapply(w: World, c: Creature) -> None:
    """A block derived again (new armor) keeps what the fight did to it: weapons rusted away, the
    half speed of a web."""
    for key in _rusted(c):
        gone = {a.name for a in c.block.attacks if a.weapon is not None and a.weapon.key == key}
        c.block = dataclasses.replace(c.block, attacks=tuple(a for a in c.block.attacks if a.name not in gone))
        c.base_block = dataclasses.replace(c.base_block,
                                           attacks=tuple(a for a in c.base_block.attacks if a.name not in gone))
    if "entangled" in c.conditions:
        put(c, make("web_slowed", None, None, speed=c.block.speed.land))
        half = max(5, c.block.speed.land // 2 // 5 * 5)
        c.block = dataclasses.replace(c.block, speed=dataclasses.replace(c.block.speed, land=half))


# -- start of a turn: gaze, confusion, light -----------------------------------------------------------

def start_of_turn(w: World, c: Creature) -> None:
    """Light blindness and sensitivity, a confusion that ends, a gaze met, the confusion roll."""
    if not c.in_fight or c.is_swarm:
        return
    _light(w, c)
    tick(w, c, "confusion")   # a confusion whose rounds are over ends (sim/data/effects.toml)
    for g in list(w.creatures.values()):
        if g.block.riders and g.team != c.team and "confused" not in c.conditions and g.in_fight:
            gaze_at(w, g, c)
    attacker = w.creatures.get(w.memory.attacked_by.pop(c.id, ""))
    if "confused" not in c.conditions:
        return
    if attacker is not None and attacker.in_fight:
        # "a confused character who is attacked automatically attacks its attackers on its next turn"
        w.memory.confused_act[c.id] = (w.round, "attack_attacker", attacker.id)
        w.emit(Condition(round=w.round, target=c.id, condition="confused", active=True, cause="attacked",
                         detail={"behaviour": "attack_attacker", "attacker": attacker.id}))
        return
    roll = int(w.rng.integers(1, 101))
    behaviour = confusion_behaviour(roll)
    w.memory.confused_act[c.id] = (w.round, behaviour, None)
    w.emit(Condition(round=w.round, target=c.id, condition="confused", active=True, cause="confusion_roll",
                     detail={"roll": roll, "behaviour": behaviour}))


def confusion_behaviour(roll: int) -> str:
    """The *confusion* spell's d% table (SRD): 01-10 attack the caster, 11-20 act normally, 21-50
    babble, 51-70 flee from the caster, 71-100 attack the nearest creature.

    >>> [confusion_behaviour(r) for r in (1, 10, 11, 20, 21, 50, 51, 70, 71, 100)]
    ['attack_caster', 'attack_caster', 'act_normally', 'act_normally', 'babble', 'babble', 'flee', 'flee', 'attack_nearest', 'attack_nearest']
    """
    for top, what in CONFUSION_TABLE:
        if roll <= top:
            return what
    raise ValueError(f"a d% roll is 1..100, got {roll}")


def immune_to_gaze(c: Creature) -> bool:
    """Immune to gaze attacks: by its defences, mind-affecting immunity or mindlessness, or blind
    (SRD: grimlocks and oozes are "immune to gaze attacks, visual effects, illusions, and other
    attack forms that rely on sight")."""
    imm = c.block.defenses.immune
    return "gaze" in imm or any(m in imm for m in MIND_IMMUNE) or c.mindless or c.sightless


def immune_to_blinding(c: Creature) -> bool:
    """Nothing can blind it: it is blind by nature and perceives by blindsight (SRD Blindsight:
    "Blinding attacks do not penalize creatures using blindsight"; grimlocks and oozes are immune
    to "visual effects ... and other attack forms that rely on sight"): glitterdust's and
    blindness/deafness's blindness pass it by (docs/rules.md §9.3)."""
    return c.sightless


def gaze_at(w: World, gazer: Creature, c: Creature) -> bool:
    """``c`` meets ``gazer``'s gaze if within range and it sees the gazer: a save or confused.
    True when ``c`` becomes confused."""
    r = rider_of(gazer, "gaze")
    if r is None or immune_to_gaze(c) or not c.in_fight:
        return False
    if footprint_distance_ft(gazer.squares, c.squares) > r.range_ft or w.perception(c, gazer) < SEES:
        return False
    if roll_save(w, c, r.save or "will", int(r.dc), "confusing_gaze", gazer.id):
        return False
    add(w, c, "confused", gazer.id, w.round + int(r.duration_rounds) - 1)
    return True


def confusion_of(w: World, c: Creature) -> tuple[str, Creature | None] | None:
    """This turn's confused behaviour and the creature it concerns (the one that confused it; for
    "attack_attacker", the one that attacked it since its last turn), or None."""
    act = w.memory.confused_act.get(c.id)
    if "confused" not in c.conditions or act is None or act[0] != w.round:
        return None
    if act[1] == "attack_attacker":
        return act[1], w.creatures.get(act[2])
    until = find(c, "confused")
    return act[1], (w.creatures.get(until.source) if until is not None and until.source else None)


def in_bright_light(w: World, c: Creature) -> bool:
    if not w.vision_on:
        return False
    levels = w.vision()[0].for_viewer(c.block.senses.low_light)
    return any(int(levels[y, x]) >= BRIGHT for x, y in c.squares)


def _light(w: World, c: Creature) -> None:
    """Dazzled in bright light (light sensitivity and blindness); blinded for a round when bright
    light first falls on a drow (light blindness)."""
    se = c.block.senses
    if not (se.light_sensitivity or se.light_blindness):
        return
    if w.settings.get("light_sensitivity", "daylight") != "bright":
        return      # the SRD's trigger: sunlight or daylight, which no cave has
    if "blinded" in c.conditions and find(c, "blindness") is None:   # blindness/deafness stays (§8.5)
        clear_status(w, c, "blinded", "expired")
    bright = in_bright_light(w, c)
    was = w.memory.was_bright.get(c.id, False)
    w.memory.was_bright[c.id] = bright
    if bright and se.light_blindness and not was:
        set_status(w, c, "blinded", "bright_light")
    if bright and "dazzled" not in c.conditions:
        set_status(w, c, "dazzled", "bright_light")
    elif not bright and "dazzled" in c.conditions:
        clear_status(w, c, "dazzled", "dark")


# -- spells and poison ---------------------------------------------------------------------------------

def resists_spell(w: World, caster: Creature, target: Creature, caster_level: int) -> bool:
    """Spell resistance: the caster's d20 + caster level must reach the SR (SRD Special Abilities)."""
    sr = int(target.block.defenses.spell_resistance)
    if sr <= 0 or target is caster:
        return False
    return not skill_check(w, caster, "caster_level", sr, caster_level, "spell_resistance")


def knock_out(w: World, c: Creature, rounds: int, cause: str) -> None:
    """Unconscious from a poison (drow sleep poison) for ``rounds`` rounds."""
    add(w, c, "knocked_out", cause or None, w.round + rounds, cause=cause)


#: Breaking free of a web; at the start of a turn light blindness, a gaze met and the confusion
#: roll (a poison's sleep ends before, at the "wake" moment of the lasting effects).
SPECIALS = Mechanic("specials", actions={BreakFree: do_break_free}, start_of_turn=start_of_turn)
