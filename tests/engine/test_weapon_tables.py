"""One test per cell of RULES §3.2 and §3.3 (weapon x category -> modifier, or refused), through
the real attack resolution: a Medium human stands in a square of each category and attacks."""

import pytest

from sim.engine import attacks
from sim.rules.statblocks import attacks_with

from .helpers import encounter, ready

X = None
# RULES §3.2: weapon -> (Narrow or Low, Narrow and Low, Crawl (prone -4 included), Awkward)
MELEE = {
    "dagger": (0, 0, -4, -8),
    "punching-dagger": (0, 0, -4, -8),
    "light-mace": (-2, -4, -6, -8),
    "club": (-4, -8, -8, X),
    "heavy-mace": (-4, -8, -8, X),
    "morningstar": (-4, -8, -8, X),
    "shortspear": (-2, -4, -6, -8),
    "spear": (-4, -8, -8, X),
    "longspear": (-4, -8, -8, X),
    "quarterstaff": (X, X, X, X),
    "handaxe": (-2, -4, -6, -8),
    "short-sword": (0, 0, -4, -8),
    "battleaxe": (-4, -8, -8, X),
    "longsword": (-4, -8, -8, X),
    "heavy-pick": (-4, -8, -8, X),
    "rapier": (-2, -4, -6, -8),
    "trident": (-2, -4, -6, -8),
    "greataxe": (X, X, X, X),
    "greatsword": (X, X, X, X),
    "scythe": (X, X, X, X),
    "gnome-hooked-hammer": (X, X, X, X),
    "spiked-chain": (X, X, X, X),
    "unarmed-strike": (-2, -4, -6, -8),
    "torch": (-4, -8, -8, X),
}
# RULES §3.3: fired or thrown
RANGED = {
    "hand-crossbow": (-2, -4, -2, -8),
    "light-crossbow": (-2, -4, -2, -8),
    "heavy-crossbow": (-4, -8, -4, -8),
    "repeating-light-crossbow": (-2, -4, -2, -8),
    "repeating-heavy-crossbow": (-4, -8, -4, -8),
    "shortbow": (-4, -8, X, X),
    "longbow": (X, X, X, X),
    "sling": (-2, -4, X, X),
    "javelin": (-4, -8, X, X),
    "dagger (thrown)": (-2, -4, X, X),
    "shortspear (thrown)": (-4, -8, X, X),
    "trident (thrown)": (-4, -8, X, X),
}
# the attacker's square: '1' Narrow or Low (W 4), '2' Narrow and Low (4 x 4), '3' crawl (W 5, C 2.5),
# '4' awkward (W 2)
LEGEND = {"1": (4, 12), "2": (4, 4), "3": (5, 2.5), "4": (2, 12)}
CATS = ["narrow_or_low", "narrow_and_low", "crawl", "awkward"]


def _setup(col: int, weapon_key: str, *, ranged: bool):
    rows = ["......", f".{'1234'[col]}....", "......"]
    foe_at = [4, 1] if ranged else ([3, 1] if weapon_key == "longspear" else [2, 1])
    enc = ready(encounter(rows, [{"id": "me", "template": "human-cleric-1", "team": "a", "at": [1, 1]},
                                 {"id": "foe", "template": "human-fighter-1", "team": "b", "at": foe_at}],
                          legend=LEGEND))
    me = enc.creatures["me"]
    name = weapon_key.replace(" (thrown)", "")
    atts = [a for a in attacks_with(me.block, name)]
    att = next(a for a in atts if (a.mode == "ranged") == ranged)
    return enc, me, enc.creatures["foe"], att


@pytest.mark.parametrize("col", range(4))
@pytest.mark.parametrize("weapon_key", list(MELEE))
def test_melee_table_cell(weapon_key, col):
    enc, me, foe, att = _setup(col, weapon_key, ranged=False)
    assert attacks.standing_category(enc, me).name.lower() == CATS[col]
    expected = MELEE[weapon_key][col]
    plan = attacks.plan_attack(enc, me, att, foe)
    if expected is None:
        assert not plan and "cannot be used" in plan.reason
    else:
        assert plan, plan
        got = plan.modifiers.get(CATS[col], 0) + plan.modifiers.get("prone", 0)
        assert got == expected


@pytest.mark.parametrize("col", range(4))
@pytest.mark.parametrize("weapon_key", list(RANGED))
def test_ranged_table_cell(weapon_key, col):
    enc, me, foe, att = _setup(col, weapon_key, ranged=True)
    expected = RANGED[weapon_key][col]
    plan = attacks.plan_attack(enc, me, att, foe, kind="ranged")
    if expected is None:
        assert not plan and ("cannot be fired" in plan.reason or "only crossbows" in plan.reason)
    else:
        assert plan, plan
        assert plan.modifiers.get(CATS[col], 0) == expected
        assert "prone" not in plan.modifiers  # crossbows fire prone without penalty (§5.1)


def test_tight_squeeze_refuses_everything():
    rows = ["....", ".t..", "...."]
    enc = ready(encounter(rows, [{"id": "me", "template": "human-cleric-1", "team": "a", "at": [1, 1]},
                                 {"id": "foe", "template": "goblin", "team": "b", "at": [2, 1]}],
                          legend={"t": (1, 1)}))
    me = enc.creatures["me"]
    for att in me.block.attacks:
        plan = attacks.plan_attack(enc, me, att, enc.creatures["foe"])
        assert not plan and "Tight Squeeze" in plan.reason


def test_natural_weapons_count_as_light():
    rows = ["....", ".1..", "...."]
    enc = ready(encounter(rows, [{"id": "rat", "template": "dire-rat", "team": "a", "at": [1, 1]},
                                 {"id": "foe", "template": "human-fighter-1", "team": "b", "at": [2, 1]}],
                          legend={"1": (1.2, 1)}))  # narrow for a Small rat (S 5): W 1.2? -> awkward
    rat = enc.creatures["rat"]
    bite = rat.block.attacks[0]
    plan = attacks.plan_attack(enc, rat, bite, enc.creatures["foe"])
    cat = attacks.standing_category(enc, rat).name.lower()
    assert plan and plan.modifiers[cat] == {"narrow_or_low": -2, "narrow_and_low": -4, "crawl": -2, "awkward": -8}[cat]


def test_tunnelfighter_and_tunnelrunner():
    # RULES §2.8: Tunnelfighter: no penalty with light/one-handed weapons in narrow-or-low spaces,
    # two-handed usable at -4, narrow-and-low counts as narrow-or-low, keeps Dex
    rows = ["....", ".2..", "...."]
    enc = ready(encounter(rows, [{"id": "bruna", "template": "human-fighter-3", "team": "a", "at": [1, 1]},
                                 {"id": "foe", "template": "human-fighter-1", "team": "b", "at": [2, 1]}],
                          legend={"2": (4, 4)}))
    bruna = enc.creatures["bruna"]
    assert bruna.block.has_feat("tunnelfighter")
    assert attacks.standing_category(enc, bruna).name == "NARROW_OR_LOW"  # N&L acts as one
    plan = attacks.plan_attack(enc, bruna, bruna.attack_named("longsword"), enc.creatures["foe"])
    assert plan and "narrow_or_low" not in plan.modifiers
    assert attacks.loses_dex(enc, bruna) is None
    greatsword = attacks_with(bruna.block, "greatsword")[0]
    plan = attacks.plan_attack(enc, bruna, greatsword, enc.creatures["foe"])
    assert plan and plan.modifiers["narrow_or_low"] == -4
