"""Dice expressions and weapon damage by size (RULES §3.6)."""

import numpy as np
import pytest

from sim.base.errors import DataError
from sim.rules.dice import Dice, scale_damage
from sim.rules.weapons import weapon_table


@pytest.mark.parametrize(
    "text, parts, shown, avg, lo, hi",
    [
        ("2d6+3", (2, 6, 3), "2d6+3", 10.0, 5, 15),
        ("1d3-1", (1, 3, -1), "1d3-1", 1.0, 0, 2),
        ("1", (0, 0, 1), "1", 1.0, 1, 1),
        ("0", (0, 0, 0), "0", 0.0, 0, 0),
        ("d8", (1, 8, 0), "1d8", 4.5, 1, 8),
        (" 3D4 + 2 ", (3, 4, 2), "3d4+2", 9.5, 5, 14),
        ("12d10+27", (12, 10, 27), "12d10+27", 93.0, 39, 147),
        ("9d8-9", (9, 8, -9), "9d8-9", 31.5, 0, 63),
        ("-2", (0, 0, -2), "-2", -2.0, -2, -2),
    ],
)
def test_parse_and_values(text, parts, shown, avg, lo, hi):
    d = Dice.parse(text)
    assert (d.count, d.sides, d.bonus) == parts
    assert str(d) == shown
    assert d.average == avg
    assert (d.minimum, d.maximum) == (lo, hi)
    assert Dice.parse(str(d)) == d


def test_parse_int_and_dice_passthrough():
    assert Dice.parse(3) == Dice(0, 0, 3)
    d = Dice(1, 6, 0)
    assert Dice.parse(d) is d


@pytest.mark.parametrize("bad", ["2d", "abc", "1d0", "0d6", "d", "1d6+", "2x6", "1d6+1d4", "", "1.5", "-1d4"])
def test_bad_dice_text_is_refused(bad):
    with pytest.raises(DataError, match="dice"):
        Dice.parse(bad)


def test_bad_dice_types():
    with pytest.raises(DataError, match="not a dice expression"):
        Dice.parse(True)
    with pytest.raises(DataError, match="not a dice expression"):
        Dice.parse(None)
    with pytest.raises(ValueError):
        Dice(-1, 6)
    with pytest.raises(ValueError):
        Dice(1, 0)


def test_roll_is_within_bounds_and_seeded():
    d = Dice.parse("3d6+2")
    rolls_a = [d.roll(np.random.default_rng(42)) for _ in range(3)]
    assert len(set(rolls_a)) == 1                     # same seed, same roll
    rng = np.random.default_rng(1)
    rolls = [d.roll(rng) for _ in range(4000)]
    assert min(rolls) == 5 and max(rolls) == 20       # every value reachable, none outside
    assert abs(np.mean(rolls) - d.average) < 0.2
    assert Dice.parse("4").roll(rng) == 4


def test_same_seed_same_sequence():
    d = Dice.parse("1d20")
    r1, r2 = np.random.default_rng(7), np.random.default_rng(7)
    a = [d.roll(r1) for _ in range(10)]
    b = [d.roll(r2) for _ in range(10)]
    assert a == b and len(set(a)) > 1


def test_plus_and_die():
    d = Dice.parse("1d8").plus(3)
    assert str(d) == "1d8+3" and d.die == "1d8"
    assert str(Dice.parse("1d4+1").plus(-3)) == "1d4-2"
    assert Dice.parse("5").die == "5"


# RULES §3.6: Medium -> Tiny and Large (every column of the table).
SCALING = [
    ("1d2", "0", "1d3"),       # the book prints "-" for Tiny
    ("1d3", "1", "1d4"),
    ("1d4", "1d2", "1d6"),
    ("1d6", "1d3", "1d8"),
    ("1d8", "1d4", "2d6"),
    ("1d10", "1d6", "2d8"),
    ("1d12", "1d8", "3d6"),
    ("2d4", "1d4", "2d6"),
    ("2d6", "1d8", "3d6"),
    ("2d8", "1d10", "3d8"),
    ("2d10", "2d6", "4d8"),
]


@pytest.mark.parametrize("medium, tiny, large", SCALING)
def test_tiny_and_large_damage(medium, tiny, large):
    assert str(scale_damage(medium, "tiny")) == tiny
    assert str(scale_damage(medium, "large")) == large
    assert str(scale_damage(medium, "medium")) == medium


def test_scaling_keeps_a_flat_bonus_and_uses_the_s_column():
    assert str(scale_damage("1d8+2", "large")) == "2d6+2"
    assert str(scale_damage("2d6", "small", small="1d10")) == "1d10"
    assert str(scale_damage("1d3", "small", small="1d2")) == "1d2"


def test_small_row_reproduces_every_dmg_s_entry():
    """The [PD] Small row of weapons.toml agrees with every Dmg S of RULES §3.2-3.3."""
    for key, w in weapon_table().items():
        assert scale_damage(w.damage_m, "small") == w.damage_s, key


def test_scaling_refuses_what_the_table_lacks():
    with pytest.raises(ValueError, match="huge"):
        scale_damage("1d8", "huge")
    with pytest.raises(ValueError, match="no large damage for a Medium weapon die of 3d6"):
        scale_damage("3d6", "large")
