"""RULES §1.1 (size table) and §1.2 (default bodies)."""

import pytest

from sim.rules.bodies import body_for, swarm_body
from sim.rules.sizes import Size

# §1.1: size -> (attack/AC mod, grapple, hide, space ft, reach tall, reach long, per square)
SIZE_TABLE = {
    "fine": (8, -16, 16, 0.5, 0, 0, 100),
    "diminutive": (4, -12, 12, 1, 0, 0, 25),
    "tiny": (2, -8, 8, 2.5, 0, 0, 4),
    "small": (1, -4, 4, 5, 5, 5, 1),
    "medium": (0, 0, 0, 5, 5, 5, 1),
    "large": (-1, 4, -4, 10, 10, 5, 0),
    "huge": (-2, 8, -8, 15, 15, 10, 0),
    "gargantuan": (-4, 12, -12, 20, 20, 15, 0),
    "colossal": (-8, 16, -16, 30, 30, 20, 0),
}

# §1.2: size -> (H tall, H long, head, shoulders, depth), as printed (rounded to 2 decimals there)
BODY_TABLE = {
    "fine": (0.33, 0.17, 0.03, 0.08, 0.04),
    "diminutive": (0.75, 0.375, 0.06, 0.19, 0.09),
    "tiny": (1.5, 0.75, 0.125, 0.375, 0.19),
    "small": (3, 1.5, 0.25, 0.75, 0.375),
    "medium": (6, 3, 0.5, 1.5, 0.75),
    "large": (12, 6, 1, 3, 1.5),
    "huge": (24, 12, 2, 6, 3),
    "gargantuan": (48, 24, 4, 12, 6),
    "colossal": (96, 48, 8, 24, 12),
}


@pytest.mark.parametrize("name", SIZE_TABLE)
def test_size_table(name):
    f = Size.parse(name).facts
    assert (f.modifier, f.grapple, f.hide, f.space_ft, f.reach_tall_ft, f.reach_long_ft, f.per_square) == SIZE_TABLE[name]


def test_size_order_and_squares():
    assert list(Size) == sorted(Size)
    assert [s.squares for s in Size] == [1, 1, 1, 1, 1, 2, 3, 4, 6]
    assert [s.shares_squares for s in Size] == [True, True, True] + [False] * 6


def test_unknown_size_names_choices():
    with pytest.raises(KeyError, match="unknown size 'medum'.*medium"):
        Size.parse("medum")


@pytest.mark.parametrize("name", BODY_TABLE)
def test_default_bodies(name):
    h_tall, h_long, head, shoulders, depth = BODY_TABLE[name]
    tall = body_for(name)
    assert tall.height == pytest.approx(h_tall, abs=0.005)
    assert tall.head == pytest.approx(head, abs=0.005)
    assert tall.shoulders == pytest.approx(shoulders, abs=0.005)
    assert tall.depth == pytest.approx(depth, abs=0.005)
    # derivation: H/12, H/4, H/8 exactly
    assert (tall.head, tall.shoulders, tall.depth) == (tall.height / 12, tall.height / 4, tall.height / 8)
    long = body_for(name, form="long")
    assert long.height == pytest.approx(h_long, abs=0.005)
    assert (long.head, long.shoulders, long.depth) == (long.height / 6, long.height / 3, long.height / 3)
    assert tall.space == long.space == SIZE_TABLE[name][3]


def test_horse_example_long_large():
    horse = body_for("large", form="long")
    assert (horse.height, horse.head, horse.shoulders, horse.depth) == (6, 1, 2, 2)


def test_height_override_recomputes_widths():
    human = body_for("medium", height=5.75)
    assert (human.head, human.shoulders, human.depth) == (5.75 / 12, 5.75 / 4, 5.75 / 8)
    custom = body_for("medium", height=6, shoulders=2.0, head=0.6, depth=1.0)
    assert (custom.head, custom.shoulders, custom.depth) == (0.6, 2.0, 1.0)


def test_swarm_bodies_use_component_opening():
    assert swarm_body("fine").opening == pytest.approx(1 / 12)
    assert swarm_body("diminutive").opening == pytest.approx(2 / 12)
    assert swarm_body("tiny").opening == 0.25
    assert swarm_body("tiny").space == 10
    with pytest.raises(ValueError, match="Fine, Diminutive or Tiny"):
        swarm_body("small")
    with pytest.raises(ValueError, match="form must be"):
        body_for("medium", form="wide")  # type: ignore[arg-type]
