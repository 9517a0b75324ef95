"""Who moves, and what a square costs them (RULES §2.4, §5.3, §6.1, §6.3, §7.30, §7.35).

Escape Artist (SRD Skills): d20 + modifier (armor check penalty included) against the DC of the
square: 15 for Awkward Space, 30 for a Tight Squeeze. A natural 1 or 20 is not automatic for
skill checks. Out of combat a creature may take 10 (one try, result 10 + mod) or take 20 (20
times as long, result 20 + mod); in combat, threatened, or inside a swarm it must roll.

>>> escape_tries(15, 5, take10=True, take20=True)      # 10 + 5 >= 15: one try, guaranteed
Tries(guaranteed=1, successes=11)
>>> escape_tries(15, 0, take10=True, take20=True)      # take 20: 20 tries; rolling: 6 faces of 20
Tries(guaranteed=20, successes=6)
>>> escape_tries(30, 2, take10=False, take20=False)    # in combat, DC 30 at +2: never
Tries(guaranteed=None, successes=0)
>>> escape_tries(15, 0, take10=False, take20=False).expected
Fraction(10, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from sim.rules.bodies import Body, body_for


@dataclass(frozen=True, slots=True)
class Tries:
    """How many Escape Artist tries one square takes.

    ``guaranteed``: tries with take 10 / take 20 (or when every roll succeeds); None = no guarantee.
    ``successes``: d20 faces (of 20) that succeed when rolling.
    """

    guaranteed: int | None
    successes: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.successes, 20)

    @property
    def expected(self) -> Fraction | None:
        """Expected tries: 1 when a guaranteed single try exists, else 20/successes when rolling
        (never worse than take 20's 20 tries). None when no roll can succeed."""
        if self.guaranteed == 1:
            return Fraction(1)
        if self.successes == 0:
            return None if self.guaranteed is None else Fraction(self.guaranteed)
        return Fraction(20, self.successes)


def escape_tries(dc: int, modifier: int, *, take10: bool, take20: bool) -> Tries:
    successes = max(0, min(20, 21 - (dc - modifier)))  # faces r in 1..20 with r + mod >= dc
    if successes == 20:
        guaranteed: int | None = 1
    elif take10 and 10 + modifier >= dc:
        guaranteed = 1
    elif take20 and 20 + modifier >= dc:
        guaranteed = 20
    else:
        guaranteed = None
    return Tries(guaranteed, successes)


@dataclass(frozen=True, slots=True)
class Mover:
    """A creature as the movement engine sees it.

    ``speed_ft``: the speed used (land, or fly for fliers), already reduced for armor.
    ``escape_artist``: total Escape Artist modifier (Dex, ranks, armor check penalty).
    ``take10`` / ``take20``: whether it may take 10 / 20 on Escape Artist (out of combat, not
    threatened, not inside a swarm: RULES §2.4, §7.30).
    ``flying``: ignores difficult terrain, not widths and ceilings (§6.3).
    ``tunnelrunner``: Tunnelrunner feat (§2.8): no speed reduction in narrow-or-low squares, and
    narrow-and-low counts as only one of the two.
    A swarm body (``body.opening`` set) never pays constricted costs (§7.25).
    """

    body: Body = field(default_factory=lambda: body_for("medium"))
    speed_ft: int = 30
    escape_artist: int = 0
    take10: bool = True
    take20: bool = True
    flying: bool = False
    tunnelrunner: bool = False
    squeeze_line: bool = True

    def __post_init__(self):
        if self.speed_ft < 0 or self.speed_ft % 5:
            raise ValueError(f"speed must be a non-negative multiple of 5 ft, got {self.speed_ft}")

    @property
    def speed_squares(self) -> int:
        return self.speed_ft // 5

    @property
    def is_swarm(self) -> bool:
        return self.body.opening is not None

    def in_combat(self) -> "Mover":
        """The same creature while threatened or in a fight: it must roll Escape Artist."""
        return replace(self, take10=False, take20=False)

    def tries(self, dc: int) -> Tries:
        return escape_tries(dc, self.escape_artist, take10=self.take10, take20=self.take20)
