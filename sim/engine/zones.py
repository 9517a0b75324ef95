"""Lasting spell areas on the grid (docs/rules.md §8.1): a :class:`Zone` is a spell's squares, its
caster, the last round it lasts and its save DC, kept in ``World.magic.zones`` (saved in snapshots).
Grease (SRD, Sor/Wiz 1) is the zone the engine casts: a creature in its squares when it is cast
makes a Reflex save or falls prone; one that walks into a greased square makes a DC 10 Balance check
(the stat block's Balance modifier: Dex + ranks + armor check penalty): success, it goes on at half
speed (every greased square costs its feet twice, :func:`extra_feet`); failure, it stops there for
the round and makes a Reflex save or falls; failure by 5 or more, it falls. A swarm is not made
prone (it cannot be tripped, RULES §4.5) and is not slowed [PD]. The zone ends after 1 round per
caster level (:func:`expire`, at the start of each turn).
"""

from __future__ import annotations

from sim.engine import specials
from sim.engine.casting import spell_data
from sim.engine.checks import label, roll_dice, roll_save, skill_check
from sim.engine.creature import Creature
from sim.engine.damage import DamagePart, clear_status, deal_damage, set_status
from sim.engine.effects import drop, find, make, put
from sim.engine.events import Condition, ZoneEnded
from sim.engine.mechanics import Mechanic
from sim.engine.parts import Magic, Part, Zone
from sim.engine.world import World
from sim.rules.dice import Dice
from sim.terrain.geometry import squares_on_segment


def zones_at(w: World, square, spell: str | None = None) -> list[Zone]:
    sq = tuple(square)
    return [z for z in w.magic.zones if sq in z.squares and (spell is None or z.spell == spell)]


def greased(w: World) -> frozenset:
    """Every greased square of the fight as it stands."""
    return frozenset(q for z in w.magic.zones if z.spell == "grease" for q in z.squares)


def extra_feet(w: World, c: Creature, step) -> int:
    """The feet a step costs on top of its own: a greased square is walked at half speed (its
    feet twice); a swarm is not slowed [PD]."""
    if c.is_swarm or getattr(step, "kind", "") == "stand" or not w.magic.zones:
        return 0
    return int(step.feet) if tuple(step.at) in greased(w) else 0


def fall(w: World, c: Creature, z: Zone, cause: str) -> None:
    """Reflex save or fall prone (a swarm never falls, RULES §4.5)."""
    if c.is_swarm or c.prone or not c.in_fight:
        return
    if not roll_save(w, c, "ref", z.dc, cause, z.owner):
        _prone(w, c)


def _prone(w: World, c: Creature) -> None:
    c.prone = True
    w.emit(Condition(round=w.round, target=c.id, condition="prone", active=True, cause="grease"))


def stuck(w: World, c: Creature) -> bool:
    """It failed grease's Balance check this round (no more moving this round, SRD), or a web holds
    it fast (a failed Reflex save, until it breaks loose: docs/rules.md §8.3)."""
    g = find(c, "grease_checked")
    return (g is not None and g.until == w.round and not g.value("ok")) or find(c, "web_stuck") is not None


def entered(w: World, c: Creature, was_greased: bool) -> bool:
    """A step in or out of greased squares (``was_greased``: it stood in grease before the
    step): the DC 10 Balance check of grease, once a round (SRD: walk at half speed with a DC 10
    Balance check). Returns False when it can move no further this round (a failed check, and
    it may have fallen: a Reflex save, or prone outright when it failed by 5 or more)."""
    if c.is_swarm or not w.magic.zones or not c.in_fight:
        return True
    here = [z for z in w.magic.zones if z.spell == "grease" and set(c.squares) & set(z.squares)]
    if not here and not was_greased:
        return True
    checked = find(c, "grease_checked")
    if checked is not None and checked.until == w.round:
        return True  # checked already this round
    z = (here or [z for z in w.magic.zones if z.spell == "grease"])[0]
    mod = int(c.block.skill("balance")) + c.dex_mod_delta()
    dc = int(spell_data()["grease"]["balance_dc"])
    ok = skill_check(w, c, "balance", dc, mod, "grease", at=tuple(c.pos))
    put(c, make("grease_checked", None, w.round, ok=int(ok)))
    if ok:
        return True
    if w.events[-1].total <= dc - 5:
        _prone(w, c)
    else:
        fall(w, c, z, "grease")
    return False


def expire(w: World) -> None:
    """Zones whose last round is over end (checked at the start of each turn)."""
    if not w.magic.zones:
        return
    gone = [z for z in w.magic.zones if w.round > z.last_round]
    if gone:
        end(w, gone)


def end(w: World, gone: list[Zone]) -> None:
    """These zones end: a ``zone_end`` each; a creature a web held and no other web holds is free."""
    w.magic.zones = [z for z in w.magic.zones if z not in gone]
    for z in gone:
        w.emit(ZoneEnded(round=w.round, spell=z.spell, owner=z.owner, squares=z.squares))
    if any(z.spell == WEB for z in gone):
        for c in w.creatures.values():
            if find(c, "in_web") is not None and not set(c.squares) & webbed(w):
                _leave_web(w, c, "web_gone")


# -- web (docs/rules.md §8.3) ------------------------------------------------------------------------

WEB, CLOUD = "web", "stinking-cloud"


def webbed(w: World) -> frozenset:
    return frozenset(q for z in w.magic.zones if z.spell == WEB for q in z.squares)


def web_avoided(w: World, c: Creature) -> frozenset:
    """The reference squares a creature outside every web keeps out of when a way round exists
    (docs/rules.md §8.3's AI [PD]): those whose space would touch a web square. None to avoid
    for a creature already in a web, or a swarm (it is not held)."""
    web = webbed(w)
    if not web or c.is_swarm or set(c.squares) & web:
        return frozenset()
    k = c.k
    return frozenset((x - i, y - j) for x, y in web for i in range(k) for j in range(k))


def anchored(rock, squares) -> bool:
    """[PD] a web needs two opposite anchors: rock (or the map's edge) borders its squares both
    north and south, or both west and east (docs/rules.md §8.3)."""
    rows, cols = rock.shape

    def solid(x, y) -> bool:
        return not (0 <= x < cols and 0 <= y < rows) or bool(rock[y, x])

    sq = list(squares)
    n = any(solid(x, y - 1) for x, y in sq) and any(solid(x, y + 1) for x, y in sq)
    e = any(solid(x - 1, y) for x, y in sq) and any(solid(x + 1, y) for x, y in sq)
    return n or e


def catch(w: World, c: Creature, z: Zone) -> None:
    """A creature in the web's squares (when cast, or walking in): entangled (Escape Artist DC 25,
    Strength DC 20); a failed Reflex save holds it fast, a made one leaves it loose. A swarm is
    not held [PD]."""
    if c.is_swarm or not c.in_fight or find(c, "in_web") is not None:
        return
    d = spell_data()[WEB]
    if "entangled" not in c.conditions:
        specials.hold_entangled(w, c, int(d["escape_dc"]), int(d["strength_dc"]), z.owner)
    put(c, make("in_web", z.owner))
    if not roll_save(w, c, "ref", z.dc, "web", z.owner):
        put(c, make("web_stuck", z.owner))


def _leave_web(w: World, c: Creature, cause: str) -> None:
    for kind in ("in_web", "web_stuck", "web_moving"):
        drop(c, kind)
    if specials.entangled(w, c) is not None:
        specials.free_from_web(w, c, cause)


def _space(c: Creature, at) -> set:
    return {(at[0] + i, at[1] + j) for i in range(c.k) for j in range(c.k)}


def web_step(w: World, c: Creature, step) -> bool:
    """Before a step: may ``c`` take it through the web? A loose creature moving in the web makes
    a Strength or Escape Artist check (the better) once a round and moves 5 ft for each full 5
    points over 10 (SRD web); a step out of or within web squares spends those feet. Walking
    into the web from outside costs nothing: it is caught there (:func:`after_step`)."""
    if c.is_swarm:
        return True
    web = webbed(w)
    inside = bool(set(c.squares) & web)
    if not inside and not _space(c, step.at) & web:
        return True
    if w.occupancy_masks(c)[1][step.at[1], step.at[0]]:
        return False   # [PD] no slipping past another creature in the strands: it would stop in its space
    if not inside or find(c, "in_web") is None:
        return True
    got = find(c, "web_moving")
    if got is not None and got.until == w.round:
        feet = int(got.value("feet"))
    else:
        how, _ = specials.break_free_odds(c, 0, 0)
        mod = int(c.block.escape_artist) if how == "escape_artist" else c.block.abilities.mod("str") + c.str_mod_delta()
        over = int(spell_data()[WEB]["move_over"])
        skill_check(w, c, how, over + 5, mod, "web", at=tuple(c.pos))
        feet = 5 * max(0, (w.events[-1].total - over) // 5)
    if feet < int(step.feet):
        put(c, make("web_moving", None, w.round, feet=0))
        return False
    put(c, make("web_moving", None, w.round, feet=feet - int(step.feet)))
    return True


def web_cut(w: World, c: Creature, steps: list) -> list:
    """A planned path cut where a web may stop it, so that every stop is a square it may end in
    [PD]: walking in, at the first web square (it is caught there); inside, before the first
    square it could not end in (its check may give out at any step)."""
    if c.is_swarm:
        return steps
    web = webbed(w)
    if not web:
        return steps
    inside = bool(set(c.squares) & web)
    no_end = w.occupancy_masks(c)[1]
    out = []
    for s in steps:
        if getattr(s, "kind", "") == "stand":
            out.append(s)
            continue
        into = bool(_space(c, s.at) & web)
        if inside and no_end[s.at[1], s.at[0]]:
            break
        out.append(s)
        if not inside and into:
            break
        inside = into
    return out


def after_step(w: World, c: Creature) -> None:
    """After a step: caught by a web it walked into; free when it stands clear of every web."""
    if c.is_swarm or not w.magic.zones or not c.in_fight:
        return
    here = [z for z in w.magic.zones if z.spell == WEB and set(c.squares) & set(z.squares)]
    if here:
        catch(w, c, here[0])
    elif find(c, "in_web") is not None:
        _leave_web(w, c, "left_web")


def web_total_cover_ft() -> int:
    """The feet of web between two spaces that give total cover: ``total_cover_ft`` of
    ``[spell.web]`` in sim/data/spells.toml (20 ft, SRD *web*; docs/rules.md §8.3)."""
    return int(spell_data()[WEB]["total_cover_ft"])


def web_feet(w: World, a, b) -> int:
    """The feet of web between two spaces: 5 ft for each web square outside both that the line
    between their centres crosses (5 ft: cover; 20 ft: total cover, SRD web)."""
    web = webbed(w)
    if not web:
        return 0
    own = set(a) | set(b)
    return 5 * sum(1 for q in squares_on_segment(_centre(a), _centre(b)) if q in web and q not in own)


def _centre(sq) -> tuple[float, float]:
    sq = list(sq)
    return (sum(x for x, _ in sq) / len(sq) + 0.5, sum(y for _, y in sq) / len(sq) + 0.5)


def burn(w: World, squares, source: Creature) -> None:
    """Fire in a web's squares burns the whole web away [PD] (SRD: any fire sets it alight): 2d4
    fire to every creature in it, which is then free."""
    sq = set(squares)
    lit = [z for z in w.magic.zones if z.spell == WEB and sq & set(z.squares)]
    if not lit:
        return
    inside = [c for c in w.creatures.values() if c.alive and any(set(c.squares) & set(z.squares) for z in lit)]
    end(w, lit)
    dice = Dice.parse(str(spell_data()[WEB]["burn"]))
    for c in inside:
        amount = roll_dice(w, dice, source, f"burning web on {label(w, c)}")
        deal_damage(w, c, [DamagePart(amount, "fire", "energy", area=True)], source=source, cause="spell")


# -- stinking cloud (docs/rules.md §8.4) -----------------------------------------------------------

def clouded(w: World) -> frozenset:
    return frozenset(q for z in w.magic.zones if z.spell == CLOUD for q in z.squares)


def sicken(w: World, c: Creature, z: Zone) -> None:
    """A living creature in the cloud, not nauseated by it yet: Fortitude or nauseated (a poison:
    immune to poison, undead and constructs are not)."""
    if not c.in_fight or find(c, "cloud_sick") is not None:
        return
    if c.block.type in ("undead", "construct") or "poison" in c.block.defenses.immune:
        return
    if not roll_save(w, c, "fort", z.dc, "stinking_cloud", z.owner):
        put(c, make("cloud_sick", z.owner, rolled=0, left=0))
        set_status(w, c, "nauseated", z.owner)


def cloud_turn(w: World, c: Creature) -> bool:
    """At the start of ``c``'s turn: on the caster's turn each creature in its clouds that is not
    nauseated saves again (SRD); True while ``c`` stays nauseated by a cloud: inside one, or for
    1d4+1 of its turns after it left (rolled when it is first found outside)."""
    if w.magic.zones:
        for z in [z for z in w.magic.zones if z.spell == CLOUD and z.owner == c.id]:
            for o in list(w.creatures.values()):
                if o.alive and set(o.squares) & set(z.squares):
                    sicken(w, o, z)
    sick = find(c, "cloud_sick")
    if sick is None:
        return False
    if set(c.squares) & clouded(w):
        put(c, make("cloud_sick", sick.source, rolled=0, left=0))
        return True
    if sick.value("rolled"):
        left = int(sick.value("left"))
    else:
        left = roll_dice(w, Dice.parse(str(spell_data()[CLOUD]["after"])), c, "stinking cloud: rounds nauseated after")
    if left <= 0 or not c.alive:
        drop(c, "cloud_sick")
        return False
    put(c, make("cloud_sick", sick.source, rolled=1, left=left - 1))
    return True


def fight_over(w: World) -> None:
    """The party walks on (a crawl, docs/rules.md §8.3, §8.4): the fight's zones stay behind, so
    no one stays entangled (a spider's web is cut away too, its half speed given back), and a
    stinking cloud's nausea is over before the next fight [PD]."""
    if w.magic.zones:
        end(w, list(w.magic.zones))
    for c in w.creatures.values():
        if specials.entangled(w, c) is not None:
            specials.free_from_web(w, c, "fight_over")
        if drop(c, "cloud_sick") is not None and c.nauseated:
            clear_status(w, c, "nauseated", "expired")


def _zones_over(w: World, c: Creature) -> None:
    """Zones whose time is over end at the start of any creature's turn (grease, docs/rules.md §8.1)."""
    expire(w)


def _cloud_or_nausea(w: World, c: Creature) -> None:
    """Inside a stinking cloud, or in the 1d4+1 rounds after (§8.4); else a nausea from elsewhere is over."""
    if not cloud_turn(w, c) and c.nauseated:
        clear_status(w, c, "nauseated", "expired")


ZONE_EXPIRY = Mechanic("zones", start_of_turn=_zones_over, part=Part("magic", Magic))
STINKING_CLOUD = Mechanic("stinking cloud", start_of_turn=_cloud_or_nausea)
