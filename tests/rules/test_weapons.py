"""Weapons: RULES §2.5 (effective index), §3.2-3.3 (tables), §3.4 (energy), §3.6 (sizes)."""

import pytest

from sim.base.errors import DataError
from sim.rules.categories import Category, effects
from sim.rules.sizes import Size
from sim.rules.weapons import (
    armor, constricted_modifier, damage_for, effective_index, energy_ability, gear, handed_index,
    natural_weapon, reduced_speed, shield, splash_weapon, weapon, weapon_table,
)

X = None  # "x" in the tables: not usable
PRONE = -4  # RULES §5.1

# RULES §3.2, one row per weapon (Medium wielder, Medium weapon):
# key, proficiency, category, dmg S, dmg M, crit (threat, mult), range, damage types, join, stab,
# effective index, N/L, N&L, Crawl, Awk
MELEE = [
    ("dagger", "simple", "light", "1d3", "1d4", (19, 2), 10, ("piercing", "slashing"), "or", True, 0, 0, 0, -4, -8),
    ("punching-dagger", "simple", "light", "1d3", "1d4", (20, 3), 0, ("piercing",), "single", True, 0, 0, 0, -4, -8),
    ("light-mace", "simple", "light", "1d4", "1d6", (20, 2), 0, ("bludgeoning",), "single", False, 1, -2, -4, -6, -8),
    ("club", "simple", "one-handed", "1d4", "1d6", (20, 2), 10, ("bludgeoning",), "single", False, 2, -4, -8, -8, X),
    ("heavy-mace", "simple", "one-handed", "1d6", "1d8", (20, 2), 0, ("bludgeoning",), "single", False, 2, -4, -8, -8, X),
    ("morningstar", "simple", "one-handed", "1d6", "1d8", (20, 2), 0, ("bludgeoning", "piercing"), "and", False, 2, -4, -8, -8, X),
    ("shortspear", "simple", "one-handed", "1d4", "1d6", (20, 2), 20, ("piercing",), "single", True, 1, -2, -4, -6, -8),
    ("spear", "simple", "two-handed", "1d6", "1d8", (20, 3), 20, ("piercing",), "single", True, 2, -4, -8, -8, X),
    ("longspear", "simple", "two-handed", "1d6", "1d8", (20, 3), 0, ("piercing",), "single", True, 2, -4, -8, -8, X),
    ("quarterstaff", "simple", "two-handed", "1d4", "1d6", (20, 2), 0, ("bludgeoning",), "single", False, 3, X, X, X, X),
    ("handaxe", "martial", "light", "1d4", "1d6", (20, 3), 0, ("slashing",), "single", False, 1, -2, -4, -6, -8),
    ("short-sword", "martial", "light", "1d4", "1d6", (19, 2), 0, ("piercing",), "single", True, 0, 0, 0, -4, -8),
    ("battleaxe", "martial", "one-handed", "1d6", "1d8", (20, 3), 0, ("slashing",), "single", False, 2, -4, -8, -8, X),
    ("longsword", "martial", "one-handed", "1d6", "1d8", (19, 2), 0, ("slashing",), "single", False, 2, -4, -8, -8, X),
    ("heavy-pick", "martial", "one-handed", "1d4", "1d6", (20, 4), 0, ("piercing",), "single", False, 2, -4, -8, -8, X),
    ("rapier", "martial", "one-handed", "1d4", "1d6", (18, 2), 0, ("piercing",), "single", True, 1, -2, -4, -6, -8),
    ("trident", "martial", "one-handed", "1d6", "1d8", (20, 2), 10, ("piercing",), "single", True, 1, -2, -4, -6, -8),
    ("greataxe", "martial", "two-handed", "1d10", "1d12", (20, 3), 0, ("slashing",), "single", False, 3, X, X, X, X),
    ("greatsword", "martial", "two-handed", "1d10", "2d6", (19, 2), 0, ("slashing",), "single", False, 3, X, X, X, X),
    ("scythe", "martial", "two-handed", "1d6", "2d4", (20, 4), 0, ("piercing", "slashing"), "or", False, 3, X, X, X, X),
    ("gnome-hooked-hammer", "exotic", "two-handed", "1d6", "1d8", (20, 3), 0, ("bludgeoning",), "single", False, 3, X, X, X, X),
    ("spiked-chain", "exotic", "two-handed", "1d6", "2d4", (20, 2), 0, ("piercing",), "single", False, 3, X, X, X, X),
    ("unarmed-strike", "simple", "light", "1d2", "1d3", (20, 2), 0, ("bludgeoning",), "single", False, 1, -2, -4, -6, -8),
    ("torch", "improvised", "one-handed", "1d2", "1d3", (20, 2), 10, ("bludgeoning",), "single", False, 2, -4, -8, -8, X),
]

# RULES §3.3: key, proficiency, category, dmg S, dmg M, crit, range, crossbow, N/L, N&L, Crawl, Awk
RANGED = [
    ("hand-crossbow", "exotic", "light", "1d3", "1d4", (19, 2), 30, True, -2, -4, -2, -8),
    ("light-crossbow", "simple", "light", "1d6", "1d8", (19, 2), 80, True, -2, -4, -2, -8),
    ("heavy-crossbow", "simple", "one-handed", "1d8", "1d10", (19, 2), 120, True, -4, -8, -4, -8),
    ("repeating-light-crossbow", "exotic", "light", "1d6", "1d8", (19, 2), 80, True, -2, -4, -2, -8),
    ("repeating-heavy-crossbow", "exotic", "one-handed", "1d8", "1d10", (19, 2), 120, True, -4, -8, -4, -8),
    ("shortbow", "martial", "one-handed", "1d4", "1d6", (20, 3), 60, False, -4, -8, X, X),
    ("longbow", "martial", "two-handed", "1d6", "1d8", (20, 3), 100, False, X, X, X, X),
    ("sling", "simple", "light", "1d3", "1d4", (20, 2), 50, False, -2, -4, X, X),
    ("javelin", "simple", "one-handed", "1d4", "1d6", (20, 2), 30, False, -4, -8, X, X),
    # composite bows: as the plain bow (RULES §3.3 note), 70 / 110 ft
    ("composite-shortbow", "martial", "one-handed", "1d4", "1d6", (20, 3), 70, False, -4, -8, X, X),
    ("composite-longbow", "martial", "two-handed", "1d6", "1d8", (20, 3), 110, False, X, X, X, X),
]

# RULES §3.3 last rows: melee weapons thrown (no stab shift for ranged attacks, §2.5 step 3)
THROWN = [
    # key, range, N/L, N&L, Crawl, Awk
    ("dagger", 10, -2, -4, X, X),
    ("shortspear", 20, -4, -8, X, X),
    ("spear", 20, X, X, X, X),
    ("trident", 10, -4, -8, X, X),
]

CATS = (Category.NARROW_OR_LOW, Category.NARROW_AND_LOW, Category.CRAWL, Category.AWKWARD)


def _melee_columns(idx):
    """The four columns computed straight from categories.effects (+ -4 prone in a crawlway)."""
    nl = effects(Category.NARROW_OR_LOW).melee_mod(idx)
    nal = effects(Category.NARROW_AND_LOW).melee_mod(idx)
    crawl = effects(Category.CRAWL).melee_mod(idx)
    crawl = None if crawl is None else crawl + PRONE
    awk = effects(Category.AWKWARD).melee_mod(idx)
    return nl, nal, crawl, awk


def _ranged_columns(idx, crossbow):
    return tuple(effects(c).ranged_mod_for(idx, crossbow=crossbow) for c in CATS)


@pytest.mark.parametrize("row", MELEE, ids=[r[0] for r in MELEE])
def test_melee_table_row(row):
    key, prof, cat, ds, dm, crit, rng, types, join, stab, idx, nl, nal, crawl, awk = row
    w = weapon(key)
    assert (w.proficiency, w.category, str(w.damage_s), str(w.damage_m)) == (prof, cat, ds, dm)
    assert (w.crit_threat, w.crit_multiplier, w.range_ft) == (*crit, rng)
    assert (w.damage_types, w.types_join, w.stab, w.ranged) == (types, join, stab, False)
    assert effective_index(w, Size.MEDIUM) == idx
    assert _melee_columns(idx) == (nl, nal, crawl, awk)
    assert tuple(constricted_modifier(w, "medium", c) for c in CATS) == (nl, nal, crawl, awk)


@pytest.mark.parametrize("row", RANGED, ids=[r[0] for r in RANGED])
def test_ranged_table_row(row):
    key, prof, cat, ds, dm, crit, rng, crossbow, nl, nal, crawl, awk = row
    w = weapon(key)
    assert (w.proficiency, w.category, str(w.damage_s), str(w.damage_m)) == (prof, cat, ds, dm)
    assert (w.crit_threat, w.crit_multiplier, w.range_ft, w.crossbow, w.ranged) == (*crit, rng, crossbow, True)
    idx = effective_index(w, Size.MEDIUM)
    assert idx == w.index                       # ranged: no stab shift
    assert _ranged_columns(idx, crossbow) == (nl, nal, crawl, awk)
    assert tuple(constricted_modifier(w, "medium", c) for c in CATS) == (nl, nal, crawl, awk)


@pytest.mark.parametrize("row", THROWN, ids=[r[0] for r in THROWN])
def test_thrown_melee_weapons(row):
    key, rng, nl, nal, crawl, awk = row
    w = weapon(key)
    assert w.thrown and w.range_ft == rng and w.max_increments == 5
    idx = effective_index(w, "medium", ranged=True)
    assert idx == w.index
    assert _ranged_columns(idx, False) == (nl, nal, crawl, awk)
    assert tuple(constricted_modifier(w, "medium", c, ranged=True) for c in CATS) == (nl, nal, crawl, awk)


def test_every_table_weapon_is_shipped_and_tested():
    tested = {r[0] for r in MELEE} | {r[0] for r in RANGED}
    extras = {"falchion", "greatclub", "warhammer", "light-pick"}   # carried by shipped monsters
    assert set(weapon_table()) == tested | extras


def test_flags_and_handling():
    assert weapon("longspear").reach and not weapon("longspear").reach_adjacent
    assert weapon("spiked-chain").reach and weapon("spiked-chain").reach_adjacent
    assert weapon("quarterstaff").double and weapon("gnome-hooked-hammer").double
    hook = weapon("gnome-hooked-hammer").other_end
    assert (str(hook.damage_m), hook.crit_multiplier, hook.damage_types) == ("1d6", 4, ("piercing",))
    t = weapon("torch")
    assert t.improvised and t.light_source and str(t.fire_rider) == "1" and str(t.swarm_fire) == "1d3"
    assert weapon("light-crossbow").load_action == "move" and weapon("heavy-crossbow").load_action == "full_round"
    assert weapon("sling").load_action == "move" and weapon("hand-crossbow").load_action == "move"
    assert weapon("repeating-light-crossbow").load_action == "free"
    assert (weapon("light-crossbow").one_hand_penalty, weapon("heavy-crossbow").one_hand_penalty,
            weapon("hand-crossbow").one_hand_penalty) == (-2, -4, 0)
    assert weapon("longbow").two_hands and weapon("shortbow").two_hands
    assert weapon("longbow").strength == "penalty" and weapon("sling").strength == "full"
    assert weapon("heavy-crossbow").strength == "none" and weapon("composite-longbow").strength == "composite"
    assert weapon("rapier").finesse and weapon("rapier").no_two_handed_str
    assert weapon("javelin").thrown and weapon("javelin").melee_penalty == -4
    assert weapon("light-crossbow").max_increments == 10 and weapon("javelin").max_increments == 5
    assert weapon("unarmed-strike").nonlethal and weapon("unarmed-strike").provokes


def test_stab_whitelist_is_exactly_rules_2_5():
    stabbers = {k for k, w in weapon_table().items() if w.stab}
    assert stabbers == {"dagger", "punching-dagger", "short-sword", "rapier", "shortspear", "spear",
                        "longspear", "trident"}
    for excluded in ("heavy-pick", "light-pick", "scythe", "gnome-hooked-hammer", "spiked-chain", "morningstar"):
        assert not weapon(excluded).stab


# -- size shifting (RULES §2.5 step 2, §3.1) -----------------------------------------------------

def test_small_wielder_of_medium_weapons():
    assert effective_index(weapon("longsword"), "small") == 3        # one-handed -> two-handed
    assert handed_index(weapon("longsword"), "small") == 3
    assert effective_index(weapon("dagger"), "small") == 1           # light -> one-handed -> stab -1
    assert effective_index(weapon("greatsword"), "small") is None    # cannot be wielded
    assert constricted_modifier(weapon("greatsword"), "small", Category.CLEAR) is None
    assert effective_index(weapon("spear"), "small") is None


def test_large_wielder():
    large_sword = weapon("longsword", size="large")
    assert effective_index(large_sword, "large") == 2                 # its own Large longsword
    assert effective_index(weapon("longsword"), "large") == 1         # a Medium one is light for it
    assert effective_index(weapon("greatsword"), "large") == 2
    assert effective_index(weapon("dagger"), "large") is None         # lighter than light: unusable
    assert effective_index(weapon("short-sword"), "large") is None
    assert effective_index(weapon("greatclub", size="large"), "large") == 3
    assert effective_index(weapon("greatsword", size="large"), "medium") is None


def test_small_weapons_for_small_wielders():
    goblin_star = weapon("morningstar", size="small")
    assert effective_index(goblin_star, "small") == 2
    assert effective_index(weapon("short-sword", size="small"), "small") == 0
    assert effective_index(goblin_star, "medium") == 1                # a Small morningstar is light for a human
    assert effective_index(weapon("spear", size="small"), "small") == 2


def test_stab_shift_only_in_melee():
    assert effective_index(weapon("spear"), "medium") == 2
    assert effective_index(weapon("spear"), "medium", ranged=True) == 3
    assert effective_index(weapon("trident"), "medium", ranged=True) == 2


def test_natural_weapons_are_light():
    claw = natural_weapon("claw", "1d6", size="large")
    assert claw.index == 1 and effective_index(claw, "large") == 1 and not claw.stab
    assert [constricted_modifier(claw, "large", c) for c in CATS] == [-2, -4, -6, -8]
    bite = natural_weapon("bite", "1d4", size="small")
    assert bite.damage_types == ("bludgeoning", "piercing", "slashing") and bite.types_join == "and"
    with pytest.raises(DataError, match="unknown natural weapon 'claww'.*claw"):
        natural_weapon("claww", "1d4", size="medium")


def test_crawl_with_a_narrow_width_uses_the_narrow_and_low_row():
    assert constricted_modifier(weapon("light-mace"), "medium", Category.CRAWL) == -6
    assert constricted_modifier(weapon("light-mace"), "medium", Category.CRAWL, narrow=True) == -8
    assert constricted_modifier(weapon("longsword"), "medium", Category.CRAWL, narrow=True) == -12


# -- damage for other sizes (RULES §3.6) ---------------------------------------------------------

@pytest.mark.parametrize(
    "key, tiny, small, medium, large",
    [
        ("longsword", "1d4", "1d6", "1d8", "2d6"),
        ("greatclub", "1d6", "1d8", "1d10", "2d8"),
        ("javelin", "1d3", "1d4", "1d6", "1d8"),
        ("greatsword", "1d8", "1d10", "2d6", "3d6"),
        ("dagger", "1d2", "1d3", "1d4", "1d6"),
        ("unarmed-strike", "1", "1d2", "1d3", "1d4"),
        ("falchion", "1d4", "1d6", "2d4", "2d6"),
    ],
)
def test_damage_for_sizes(key, tiny, small, medium, large):
    w = weapon(key)
    assert [str(damage_for(w, s)) for s in ("tiny", "small", "medium", "large")] == [tiny, small, medium, large]
    assert str(weapon(key, size="large").damage) == large
    assert str(damage_for(weapon(key, size="small"))) == small


# -- names ---------------------------------------------------------------------------------------

def test_aliases():
    assert weapon("Sword, short").key == "short-sword"
    assert weapon("sword-short").key == "short-sword"
    assert weapon("short sword").key == "short-sword"
    assert weapon("Crossbow, heavy").key == "heavy-crossbow"
    assert weapon("crossbow-repeating-light").key == "repeating-light-crossbow"
    assert weapon("Dagger, punching").key == "punching-dagger"
    assert weapon("Hammer, gnome hooked").key == "gnome-hooked-hammer"
    assert weapon("LONGSWORD").key == "longsword"


def test_unknown_weapon_names_close_matches():
    with pytest.raises(DataError, match="unknown weapon 'longsord': did you mean longsword"):
        weapon("longsord")
    with pytest.raises(DataError, match="unknown weapon 'bazooka'"):
        weapon("bazooka")


# -- energy abilities, armor, splash weapons, gear ------------------------------------------------

@pytest.mark.parametrize("name, energy", [("flaming", "fire"), ("frost", "cold"), ("shock", "electricity")])
def test_energy_abilities(name, energy):
    e = energy_ability(name)
    assert (str(e.dice), e.energy, e.min_enhancement) == ("1d6", energy, 1)


def test_unknown_energy_ability():
    with pytest.raises(DataError, match="unknown weapon special ability 'holy'"):
        energy_ability("holy")


def test_armor_and_shields():
    a = armor("chainmail")
    assert (a.kind, a.bonus, a.max_dex, a.check_penalty) == ("medium", 5, 2, -5)
    assert armor("leather").effective_check_penalty == 0
    assert armor("studded-leather", masterwork=True).effective_check_penalty == 0
    assert armor("breastplate", enhancement=1).effective_check_penalty == -3
    assert armor("full-plate").remove == "1d4+1 minutes"
    assert (shield("tower").bonus, shield("tower").max_dex, shield("tower").attack_penalty) == (4, 2, -2)
    assert shield("light wooden").key == "light-wooden-shield"
    with pytest.raises(DataError, match="unknown armor 'mithril'"):
        armor("mithril")


def test_reduced_speed_table():
    assert [reduced_speed(s) for s in (20, 30, 40, 50, 60, 100)] == [15, 20, 30, 35, 40, 70]


def test_splash_and_gear():
    fire = splash_weapon("alchemists-fire")
    assert (str(fire.direct), str(fire.splash), fire.energy, fire.range_ft) == ("1d6", "1", "fire", 10)
    assert splash_weapon("oil-flask").ignite_chance == 0.5
    lantern = splash_weapon("hooded-lantern")
    assert str(lantern.direct) == "1d4" and lantern.area == "square_and_adjacent"
    torch = gear("torch")
    assert (torch.light_bright_ft, torch.light_shadowy_ft, torch.weapon) == (20, 40, "torch")
    assert (gear("hooded-lantern").light_bright_ft, gear("hooded-lantern").light_shadowy_ft) == (30, 60)
    assert gear("backpack").bulky and gear("tindertwig").lights == "standard"
    with pytest.raises(DataError, match="unknown gear item"):
        gear("laser")
