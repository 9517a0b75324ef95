"""Who perceives whom, and which squares each side sees (RULES §9.2-9.3).

For every ordered pair (viewer, target) of :class:`Viewer` s, :func:`sight` decides one of

* ``SEES``: a line joins them (symmetric shadowcasting between their spaces) and either a square
  of the target's space is lit in the viewer's view of the light (radii doubled for low-light
  vision), or the target is within the viewer's darkvision or blindsight. Concealment: 20% when
  the best-lit square of the target is only shadowy and neither darkvision nor blindsight reaches
  it, or when the whole target stands in magical darkness (even against darkvision); else none.
  A *blind* viewer (grimlocks, oozes: ``[senses] blind``) has no sight at all: neither light nor
  darkvision shows it anything; it sees only within its blindsight.
* ``LOCATES``: not seen, but pinpointed: blindsense within range (with a line), tremorsense
  within range (the target touches the ground: fliers do not), or scent within 5 ft. The target
  has total concealment (50%), but the viewer knows its square.
* ``DETECTS``: scent within 30 ft only: the viewer knows it is near, not where (it guesses).
* ``NONE``: nothing.

A viewer is *effectively blinded* (§9.3.4) when every square of its own space is dark to it and
it has neither darkvision nor blindsight: no Dex to AC, -2 AC, half speed (the engine applies
that). It still sees lit squares far away: a torch is seen down a long tunnel. A blind viewer
with blindsight is never blinded (SRD: "blinding attacks do not penalize creatures using
blindsight"); one without it always is.

Sight by light is symmetric (§9.3.7): the line is the same both ways, so when A sees B by light
and A's own squares are lit in B's view, B sees A. An unlit kobold with darkvision watches the
torch bearer, who does not see it.

Each side's *seen* mask holds the squares any of its members sees now: in the member's field of
view and lit to it, or within its darkvision (rock faces bordering the view included). The
*explored* mask is their running union (:func:`explore`). A blind member adds only the squares
within its blindsight.

>>> import numpy as np
>>> from sim.terrain.vision.light import Light, light_levels
>>> rock = np.zeros((1, 20), bool)                      # a straight corridor
>>> torch = Light(at=(0, 0), bright_ft=20, shadowy_ft=40)
>>> fighter = Viewer("bruna", "party", ((0, 0),))
>>> kobold = Viewer("kobold", "monsters", ((15, 0),), darkvision_ft=60)
>>> s = sight(rock, light_levels(rock, [torch]), [fighter, kobold])
>>> s.level_of("kobold", "bruna") == SEES, s.level_of("bruna", "kobold") == NONE
(True, True)
>>> s.miss_chance("bruna", "kobold"), s.miss_chance("kobold", "bruna")
(50, 0)
>>> bool(s.blinded[1])                                  # darkvision: never blinded by the dark
False
>>> grimlock = Viewer("grimlock", "monsters", ((10, 0),), blindsight_ft=40, blind=True)
>>> s = sight(rock, light_levels(rock, [torch]), [fighter, grimlock])
>>> s.level_of("grimlock", "bruna"), s.miss_chance("grimlock", "bruna")   # 50 ft: the torch shows it nothing
(0, 50)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from sim.base.jit import numba
from sim.terrain.edges import EdgeWalls, kernel_edges
from sim.terrain.vision.fov import shadowcast
from sim.terrain.vision.light import DARK, SHADOWY, LightGrid, Scratch

NONE, DETECTS, LOCATES, SEES = 0, 1, 2, 3
PERCEPTION_NAMES = ("none", "detects", "locates", "sees")
SCENT_DETECT_FT = 30   # RULES §9.2: scent detects within 30 ft ...
SCENT_PINPOINT_FT = 5  # ... and pinpoints within 5 ft
SHADOW_MISS = 20       # §9.2: concealment
TOTAL_MISS = 50        # §9.2: total concealment


@dataclass(frozen=True, slots=True)
class Viewer:
    """A creature as sight needs it: its space (``(x, y)`` squares) and senses (feet)."""

    id: str
    team: str
    squares: tuple[tuple[int, int], ...]
    darkvision_ft: int = 0
    low_light: bool = False
    blindsense_ft: int = 0
    blindsight_ft: int = 0
    tremorsense_ft: int = 0
    scent: bool = False
    grounded: bool = True   # touches the ground (tremorsense finds it); fliers do not
    blind: bool = False     # no sight at all: only blindsight (and the other senses) perceive

    def __post_init__(self) -> None:
        if not self.squares:
            raise ValueError(f"viewer {self.id!r} has no squares")
        for f in ("darkvision_ft", "blindsense_ft", "blindsight_ft", "tremorsense_ft"):
            if getattr(self, f) < 0:
                raise ValueError(f"viewer {self.id!r}: {f} must be >= 0, got {getattr(self, f)}")

    @classmethod
    def from_senses(cls, id: str, team: str, squares: Iterable[tuple[int, int]], senses, *,
                    grounded: bool = True) -> "Viewer":
        """From a stat block's :class:`~sim.rules.statblocks.Senses`."""
        return cls(id=id, team=team, squares=tuple((int(x), int(y)) for x, y in squares),
                   darkvision_ft=int(senses.darkvision_ft), low_light=bool(senses.low_light),
                   blindsense_ft=int(senses.blindsense_ft), blindsight_ft=int(senses.blindsight_ft),
                   tremorsense_ft=int(senses.tremorsense_ft), scent=bool(senses.scent), grounded=grounded,
                   blind=bool(getattr(senses, "blind", False)))


@dataclass(frozen=True, slots=True, eq=False)
class Sight:
    """Perception between creatures and the squares each team sees (read-only arrays).

    ``level[i, j]``: what viewer ``i`` has of target ``j`` (``NONE`` .. ``SEES``);
    ``miss[i, j]``: the miss chance (0, 20 or 50 percent) of an attack by ``i`` on ``j``;
    ``blinded[i]``: ``i`` is effectively blinded; ``seen[t]``: the squares team ``teams[t]`` sees."""

    ids: tuple[str, ...]
    team_of: tuple[str, ...]
    level: np.ndarray
    miss: np.ndarray
    blinded: np.ndarray
    teams: tuple[str, ...]
    seen: np.ndarray

    def index(self, cid: str) -> int:
        try:
            return self.ids.index(cid)
        except ValueError:
            raise KeyError(f"no viewer {cid!r}") from None

    def level_of(self, viewer: str, target: str) -> int:
        return int(self.level[self.index(viewer), self.index(target)])

    def sees(self, viewer: str, target: str) -> bool:
        return self.level_of(viewer, target) == SEES

    def locates(self, viewer: str, target: str) -> bool:
        """Knows the target's square (sees it or pinpoints it)."""
        return self.level_of(viewer, target) >= LOCATES

    def miss_chance(self, viewer: str, target: str) -> int:
        return int(self.miss[self.index(viewer), self.index(target)])

    def is_blinded(self, cid: str) -> bool:
        return bool(self.blinded[self.index(cid)])

    def team_level(self, team: str, target: str) -> int:
        """The best any member of ``team`` has of ``target`` (a side shares what it perceives)."""
        j = self.index(target)
        members = [i for i, t in enumerate(self.team_of) if t == team and i != j]
        return int(self.level[members, j].max()) if members else NONE

    def seen_by(self, team: str) -> np.ndarray:
        """The squares ``team`` sees now (all False for a team not in the fight)."""
        if team in self.teams:
            return self.seen[self.teams.index(team)]
        return np.zeros(self.seen.shape[1:], dtype=bool)

    def to_json(self) -> dict:
        """``{ID: {"sees": [IDS], "locates": [IDS]}}``: ``locates`` lists the targets pinpointed
        but not seen (``cavesim light --json``)."""
        out = {}
        for i, a in enumerate(self.ids):
            out[a] = {"sees": [b for j, b in enumerate(self.ids) if j != i and self.level[i, j] == SEES],
                      "locates": [b for j, b in enumerate(self.ids) if j != i and self.level[i, j] == LOCATES]}
        return out


@numba.njit(cache=True, nogil=True, inline="always")
def _sq_dist(r0, c0, r1, c1):
    dx = abs(c0 - c1)
    dy = abs(r0 - r1)
    return max(dx, dy) + min(dx, dy) // 2


@numba.njit(cache=True, nogil=True)
def _sight_kernel(opaque, normal, low, magic, sq, off, props, n_teams, level, miss, blinded, seen,
                  stamp, cells, token, tok_of, has_edges, east, south, corners):
    """props int64 [n, 9]: darkvision, low-light, blindsense, blindsight, tremorsense (feet),
    scent, grounded, team index, blind. Fills level, miss, blinded, seen; returns the last token."""
    rows, cols = opaque.shape
    n = off.shape[0] - 1
    depth = rows + cols
    for i in range(n):
        dv, ll, bse, bsi = props[i, 0], props[i, 1], props[i, 2], props[i, 3]
        team = props[i, 7]
        blind = props[i, 8] != 0
        lv = low if ll else normal
        token += 1
        tok_of[i] = token
        m = 0
        dark = True
        for s in range(off[i], off[i + 1]):
            r, c = sq[s, 0], sq[s, 1]
            if lv[r, c] != DARK:
                dark = False
            if not opaque[r, c]:
                m = shadowcast(opaque, r, c, depth, stamp, token, cells, m, has_edges, east, south, corners)
        blinded[i] = bsi == 0 and (blind or (dark and dv == 0))
        if team >= 0:
            for q in range(m):
                r, c = cells[q, 0], cells[q, 1]
                if lv[r, c] != DARK and not blind:
                    seen[team, r, c] = True
                    continue
                reach = bsi if blind else max(dv, bsi)
                if reach > 0:
                    for s in range(off[i], off[i + 1]):
                        if 5 * _sq_dist(sq[s, 0], sq[s, 1], r, c) <= reach:
                            seen[team, r, c] = True
                            break
        # pairs: i looks at every j (the stamp of i's view is still in place)
        for j in range(n):
            if j == i:
                continue
            los = False
            best = -1
            all_magic = True
            d = 1 << 30
            for s in range(off[j], off[j + 1]):
                r, c = sq[s, 0], sq[s, 1]
                if stamp[r, c] == token:
                    los = True
                    if lv[r, c] > best:
                        best = lv[r, c]
                if not magic[r, c]:
                    all_magic = False
                for t in range(off[i], off[i + 1]):
                    dd = _sq_dist(sq[t, 0], sq[t, 1], r, c)
                    if dd < d:
                        d = dd
            ft = 5 * d
            got = 0
            chance = TOTAL_MISS
            if los:
                if bsi > 0 and ft <= bsi:
                    got = SEES
                    chance = 0
                elif not blind:
                    if dv > 0 and ft <= dv:
                        got = SEES
                        chance = SHADOW_MISS if all_magic else 0
                    if best >= SHADOWY:
                        got = SEES
                        c_light = SHADOW_MISS if (best == SHADOWY or all_magic) else 0
                        if c_light < chance:
                            chance = c_light
            if got == 0:
                if (los and bse > 0 and ft <= bse) or (props[i, 4] > 0 and ft <= props[i, 4] and props[j, 6]) \
                        or (props[i, 5] and ft <= SCENT_PINPOINT_FT):
                    got = LOCATES
                elif props[i, 5] and ft <= SCENT_DETECT_FT:
                    got = DETECTS
                else:
                    got = NONE
                chance = TOTAL_MISS
            level[i, j] = got
            miss[i, j] = chance
    return token


def sight(rock: np.ndarray, light: LightGrid, viewers: Sequence[Viewer], *, scratch: Scratch | None = None,
          edges: EdgeWalls | None = None) -> Sight:
    """Perception among ``viewers`` on a map with ``rock`` (and walls between squares,
    ``edges``, docs/rules.md §6.8) under ``light`` (see the module notes)."""
    opaque = np.ascontiguousarray(rock, dtype=np.bool_)
    rows, cols = opaque.shape
    vs = list(viewers)
    n = len(vs)
    teams = tuple(dict.fromkeys(v.team for v in vs))
    off = np.zeros(n + 1, dtype=np.int64)
    flat: list[tuple[int, int]] = []
    props = np.zeros((n, 9), dtype=np.int64)
    for i, v in enumerate(vs):
        for x, y in v.squares:
            if not (0 <= x < cols and 0 <= y < rows):
                raise ValueError(f"viewer {v.id!r}: square ({x}, {y}) is off the {cols}x{rows} map")
            flat.append((y, x))
        off[i + 1] = len(flat)
        props[i] = (v.darkvision_ft, int(v.low_light), v.blindsense_ft, v.blindsight_ft, v.tremorsense_ft,
                    int(v.scent), int(v.grounded), teams.index(v.team), int(v.blind))
    sq = np.array(flat, dtype=np.int64).reshape(-1, 2)
    level = np.zeros((n, n), dtype=np.uint8)
    miss = np.zeros((n, n), dtype=np.uint8)
    blinded = np.zeros(n, dtype=np.bool_)
    seen = np.zeros((len(teams), rows, cols), dtype=np.bool_)
    if n:
        sc = scratch if scratch is not None else Scratch.for_shape(opaque.shape)
        tok = np.zeros(n, dtype=np.int64)
        sc.token = _sight_kernel(opaque, light.normal, light.low_light, light.magic_dark, sq, off, props,
                                 len(teams), level, miss, blinded, seen, sc.stamp, sc.cells, sc.token, tok,
                                 *kernel_edges(edges))
    for a in (level, miss, blinded, seen):
        a.flags.writeable = False
    return Sight(ids=tuple(v.id for v in vs), team_of=tuple(v.team for v in vs), level=level, miss=miss,
                 blinded=blinded, teams=teams, seen=seen)


def explore(explored: np.ndarray | None, seen: np.ndarray) -> np.ndarray:
    """The explored mask after a look: what was explored, or seen now.

    >>> explore(None, np.array([[True, False]])).tolist()
    [[True, False]]
    >>> explore(np.array([[False, True]]), np.array([[True, False]])).tolist()
    [[True, True]]
    """
    out = seen.copy() if explored is None else (explored | seen)
    out.flags.writeable = False
    return out
