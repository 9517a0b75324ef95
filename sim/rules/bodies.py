"""Creature bodies: the dimensions the constricted-space rules compare with a passage.

RULES §1.2 and §2.2: a body has a space S, a height H (tall: standing height; long: height at
the shoulder), a head width HW, a shoulder width SW and a body depth BD. Defaults come from the
size table; any of them may be overridden per creature. When only the height is given the
other widths are recomputed from it (§1.2, last derivation note).

A swarm's body is different (§7.24-25): it passes wherever one *component* fits, so its only
dimension is the component's opening (1, 2 or 3 inches for Fine, Diminutive, Tiny components).

>>> b = body_for("medium")
>>> (b.space, b.height, b.head, b.shoulders, b.depth)
(5.0, 6.0, 0.5, 1.5, 0.75)
>>> body_for("medium", form="long").height
3.0
>>> swarm_body("tiny").opening
0.25
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

from sim.rules.sizes import Size

Form = Literal["tall", "long"]

# RULES §1.2 derivation: head / shoulders (body width) / depth = H divided by these.
DIVISORS: dict[str, tuple[int, int, int]] = {
    "tall": (12, 4, 8),
    "long": (6, 3, 3),
}


@dataclass(frozen=True, slots=True)
class Body:
    """All lengths in feet. ``opening`` is set only for swarms (then the rest is informative)."""

    size: Size
    form: str
    space: float
    height: float
    head: float
    shoulders: float
    depth: float
    opening: float | None = None

    @property
    def is_swarm(self) -> bool:
        return self.opening is not None

    def to_json(self) -> dict:
        d = asdict(self)
        d["size"] = self.size.key
        if d["opening"] is None:
            del d["opening"]
        return d


def _as_size(size: Size | str) -> Size:
    return size if isinstance(size, Size) else Size.parse(size)


def body_for(
    size: Size | str,
    *,
    form: Form = "tall",
    height: float | None = None,
    head: float | None = None,
    shoulders: float | None = None,
    depth: float | None = None,
    space: float | None = None,
) -> Body:
    """The body of a creature of ``size``, with optional per-creature overrides (feet)."""
    s = _as_size(size)
    if form not in DIVISORS:
        raise ValueError(f"form must be 'tall' or 'long', got {form!r}")
    facts = s.facts
    h = facts.height_tall_ft if form == "tall" else facts.height_tall_ft / 2
    if height is not None:
        h = float(height)
    hw, sw, bd = DIVISORS[form]
    return Body(
        size=s,
        form=form,
        space=float(space) if space is not None else facts.space_ft,
        height=h,
        head=float(head) if head is not None else h / hw,
        shoulders=float(shoulders) if shoulders is not None else h / sw,
        depth=float(depth) if depth is not None else h / bd,
    )


def swarm_body(component: Size | str, *, opening: float | None = None) -> Body:
    """The body of a swarm whose components are of size ``component`` (Fine..Tiny).

    Space is 10 ft whatever the component (RULES §4.2); ``opening`` is the component's
    minimum opening (§1.2 last column) unless overridden.
    """
    c = _as_size(component)
    if c > Size.TINY:
        raise ValueError(f"a swarm's components are Fine, Diminutive or Tiny, not {c.key}")
    base = body_for(c)
    op = c.facts.component_opening_ft if opening is None else float(opening)
    return Body(
        size=c,
        form="swarm",
        space=10.0,
        height=base.height,
        head=op,
        shoulders=op,
        depth=op,
        opening=op,
    )
