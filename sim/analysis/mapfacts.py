"""``cavesim analyze``: every fact of the designer report about one map, as plain data.

:func:`analyze_map` puts the pieces together -- regions per body (:mod:`.regions`), areas and
chokepoints with their cost per body (:mod:`.chokepoints`), trips between named points
(:mod:`.travel`) -- into one JSON-ready dict (the report's JSON file; the HTML page, the pictures
and the terminal summary are drawn from it and from the arrays kept beside it).

Bodies ("subjects"): the default body of each of the nine sizes (RULES §1.2), moving at 30 ft
(Small 20 ft, as ``cavesim path``) with Escape Artist +0 and taking 10 / 20 out of combat, and
any creature templates asked for (their own body, speed and Escape Artist).

>>> from sim.terrain.grid import CaveGrid
>>> g = CaveGrid.from_arrays([[30, 30, 2, 30, 30]] * 2, [[12] * 5] * 2, points={"a": (0, 0), "b": (4, 1)})
>>> m = analyze_map(g, subjects=size_subjects(["medium"]), min_area=2)
>>> [(c["id"], c["at"], c["movers"]["medium"]["category"]) for c in m.facts["chokepoints"]]
[('C1', [2, 0], 'AWKWARD')]
>>> m.facts["travel"][0]["movers"]["medium"]["summary"]
'Medium reaches b in 11 rounds (2.67 expected), only by squeezing (Escape Artist DC 15) through C1 (+10 rounds)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from sim.analysis.chokepoints import (
    Chokepoint,
    Layout,
    Passage,
    evaluate,
    find_chokepoints,
    passage_words,
    rounds_text,
)
from sim.analysis.lightneeds import light_needs
from sim.analysis.regions import component_labels
from sim.analysis.travel import Traveller, Trip
from sim.engine.setup import build_creature, mover_for
from sim.rules.bodies import body_for
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.scenario.specs import CombatantSpec
from sim.terrain.classify import category_counts
from sim.terrain.corners import corner_links
from sim.terrain.grid import CaveGrid
from sim.terrain.movement import Mover

SCHEMA_VERSION = 2   # 2: chokepoints are crossings (crossing, per-body crossed/separates/status dead_end), pockets
DEFAULT_SPEED_FT = 30
SMALL_SPEED_FT = 20


@dataclass(frozen=True, slots=True)
class Subject:
    """A body the report is about: ``key`` (a size name or a template name), a display label."""

    key: str
    label: str
    kind: str          # "size" | "template"
    mover: Mover


def size_subjects(sizes=None, *, speed_ft: int | None = None, escape_artist: int = 0) -> list[Subject]:
    """The default body of each size (all nine unless ``sizes`` names some)."""
    chosen = [Size.parse(s) if isinstance(s, str) else Size(s) for s in (sizes or list(Size))]
    out = []
    for s in chosen:
        sp = speed_ft if speed_ft is not None else (SMALL_SPEED_FT if s is Size.SMALL else DEFAULT_SPEED_FT)
        out.append(Subject(s.key, s.name.title(), "size", Mover(body_for(s), speed_ft=sp, escape_artist=escape_artist)))
    return out


def template_subject(name: str) -> Subject:
    """A creature template's own body, speed and Escape Artist, out of combat. Raises
    :class:`~sim.base.errors.DataError` for an unknown template."""
    c = build_creature(CombatantSpec(id="subject", template=name, team="", at=(0, 0)), ".")
    label = f"{c.block.name} ({c.size.name.title()}{' swarm' if c.is_swarm else ''})"
    return Subject(name, label, "template", mover_for(c, in_combat=False))


@dataclass(slots=True, eq=False)
class MapAnalysis:
    """The facts (JSON-ready) and the arrays the pictures are drawn from."""

    grid: CaveGrid
    subjects: list[Subject]
    layout: Layout
    travellers: dict[str, Traveller]
    facts: dict = field(default_factory=dict)
    entrance_names: list[str] | None = None

    def entrances(self) -> list[str]:
        """The points travel-time maps start from: those asked for, else named points whose name
        says entrance, else the first named point."""
        if self.entrance_names:
            return list(self.entrance_names)
        names = list(self.grid.points)
        ent = [n for n in names if "entrance" in n.lower()]
        return ent or names[:1]


def analyze_map(grid: CaveGrid, *, subjects: list[Subject] | None = None, min_area: int = 6,
                entrances: list[str] | None = None) -> MapAnalysis:
    subjects = subjects if subjects is not None else size_subjects()
    layout = find_chokepoints(grid, min_area=min_area)
    travellers = {s.key: Traveller(grid, s.mover) for s in subjects}
    m = MapAnalysis(grid=grid, subjects=subjects, layout=layout, travellers=travellers,
                    entrance_names=list(dict.fromkeys(entrances)) if entrances else None)
    points = dict(grid.points)
    facts: dict = {
        "schema_version": SCHEMA_VERSION,
        "map": grid.name,
        "source": grid.source,
        "cols": grid.cols,
        "rows": grid.rows,
        "floor": int((~grid.rock).sum()),
        "assumptions": {"min_area": min_area, "take10": True, "take20": True,
                        "sizes": "default bodies of RULES §1.2; 30 ft (Small 20 ft); Escape Artist as given"},
        "subjects": [{"key": s.key, "label": s.label, "kind": s.kind, "speed_ft": s.mover.speed_ft,
                      "escape_artist": s.mover.escape_artist, "flying": s.mover.flying,
                      "body": s.mover.body.to_json()} for s in subjects],
        "points": {n: list(p) for n, p in points.items()},
    }
    # areas
    area_facts = []
    for a in range(1, layout.n_areas + 1):
        mask = layout.area == a
        ys, xs = np.nonzero(layout.cores == a)
        i = int(np.argmin((ys - ys.mean()) ** 2 + (xs - xs.mean()) ** 2))
        area_facts.append({"id": f"A{a}", "squares": int(mask.sum()), "at": [int(xs[i]), int(ys[i])],
                           "points": [n for n, (x, y) in points.items() if layout.area[y, x] == a],
                           "pocket": bool(len(ys) < min_area)})
    facts["areas"] = area_facts
    facts["pockets"] = [{**a, "squares": int(((layout.area == int(a["id"][1:])) & (layout.neck == 0)).sum()),
                         "behind": [c.id for c in layout.chokepoints if int(a["id"][1:]) in c.joins]}
                        for a in area_facts if a["pocket"]]
    # chokepoints, evaluated per subject
    passages: dict[tuple[int, str], list[Passage]] = {}
    chokes = []
    for c in layout.chokepoints:
        per = {}
        stops = []
        for s in subjects:
            ps = evaluate(grid, layout, c, s.mover)
            passages[(c.index, s.key)] = ps
            per[s.key] = _passage_summary(ps, travellers[s.key], c, layout, points)
            if per[s.key]["status"] == "stopped":
                stops.append(s.key)
        chokes.append({"id": c.id, "at": list(c.at), "crossing": [list(q) for q in c.crossing],
                       "width_ft": c.width_ft, "ceiling_ft": c.ceiling_ft, "squares": [list(q) for q in c.squares],
                       "joins": [f"A{a}" for a in c.joins], "stops": stops, "movers": per})
    facts["chokepoints"] = chokes
    # regions and categories per subject
    regions = {}
    counts = {}
    for s in subjects:
        t = travellers[s.key]
        lab = t.regions
        sizes = np.bincount(lab.ravel())
        regs = []
        for r in range(1, int(lab.max()) + 1):
            regs.append({"id": r, "squares": int(sizes[r]),
                         "points": [n for n in points if t.region_of(n) == r]})
        regions[s.key] = {"count": len(regs), "regions": regs, "points": {n: t.region_of(n) for n in points}}
        counts[s.key] = {cat.name: n for cat, n in category_counts(
            np.where(t.field.grid.rock, np.uint8(Category.IMPASSABLE), t.field.category)).items()}
    facts["regions"] = regions
    facts["category_counts"] = counts
    # trips between named points
    names = list(points)
    trips = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            per = {}
            for s in subjects:
                trip = travellers[s.key].trip(names[i], names[j])
                per[s.key] = _trip_facts(m, s, trip, passages)
            trips.append({"from": names[i], "to": names[j], "movers": per})
    facts["travel"] = trips
    facts["corner_links"] = [{"squares": [list(a), list(b)], "open_one_of": [[b[0], a[1]], [a[0], b[1]]]}
                             for a, b in corner_links(grid.rock)]
    facts["summary"] = _summary(m, facts, passages)
    m.facts = facts
    set_entrances(m, None)
    return m


def set_entrances(m: MapAnalysis, names: list[str] | None) -> None:
    """Choose the entrances (None: by name, :meth:`MapAnalysis.entrances`) and the facts that
    hang on them: the light a torch-bearing party of Medium humans needs at each chokepoint."""
    if names:
        m.entrance_names = list(dict.fromkeys(names))
    medium = m.travellers.get("medium")
    m.facts["light"] = light_needs(m.grid, m.layout, m.entrances(), field=medium.field if medium else None)


def _summary(m: MapAnalysis, facts: dict, passages) -> list[dict]:
    """The report's first table: from each entrance, for each body and each other named point,
    whether it gets there, in how many rounds (expected first, then guaranteed), and the one
    chokepoint that decides it (the unavoidable one that costs most, or the one that stops it)."""
    out = []
    by_pair = {(t["from"], t["to"]): t for t in facts["travel"]}
    for e in m.entrances():
        if e not in m.grid.points:
            continue
        for s in m.subjects:
            row = {"from": e, "body": s.key, "label": s.label, "to": {}}
            for p in m.grid.points:
                if p == e:
                    continue
                t = by_pair.get((e, p))
                mv = t["movers"][s.key] if t else _trip_facts(m, s, m.travellers[s.key].trip(e, p), passages)
                row["to"][p] = {"reachable": mv["reachable"], "expected_rounds": mv["expected_rounds"],
                                "rounds": mv["rounds"], "decided_by": mv.get("decided_by")}
            out.append(row)
    return out


def _passage_summary(ps: list[Passage], t: Traveller, c: Chokepoint, layout: Layout, points: dict) -> dict:
    """One body at one chokepoint: the pair of areas with the worst passage, every pair, and for
    the worst: the crossing squares its way covers, the narrowest width there (effective, ft),
    and what the crossing separates for it (:func:`_separates`)."""
    order = {"stopped": 3, "open": 2, "dead_end": 1, "no_access": 0}
    worst = max(ps, key=lambda p: (order[p.status], p.extra_move_actions or 0.0))
    d = worst.to_json()
    d["pairs"] = [p.to_json() for p in ps] if len(ps) > 1 else []
    d["width_ft"] = float(min(layout.geo.width_eff[y, x] for x, y in worst.crossed)) if worst.crossed else None
    d["separates"] = _separates(t, worst, c, layout, points) if worst.status in ("open", "stopped") else None
    return d


def _separates(t: Traveller, p: Passage, c: Chokepoint, layout: Layout, points: dict) -> list[dict] | None:
    """With the crossing of ``c`` walled off (the body's footprint may not touch it), the body's
    two places the way through joins: for each, the area its end lies in, how many squares the
    body can stand on there, and the named points it can stand at there; None when the two are
    still joined another way (the chokepoint is not the only way for this body)."""
    wall = np.zeros(layout.area.shape, dtype=bool)
    for x, y in c.crossing:
        wall[y, x] = True
    lab = _without(t, wall)
    ends = [_place(lab, layout, end, side) for end, side in zip(p.ends, (p.side_a, p.side_b))]
    if 0 in ends or ends[0] == ends[1]:
        return None
    sizes = np.bincount(lab.ravel(), minlength=max(ends) + 1)
    out = []
    for r, side in zip(ends, (p.side_a, p.side_b)):
        held = [n for n in points if any(lab[qy, qx] == r for qx, qy in t.refs(n))]
        out.append({"area": f"A{side}", "squares": int(sizes[r]), "points": held})
    return out


def _place(lab: np.ndarray, layout: Layout, end, side: int) -> int:
    """The label of the body's place an end of a way lies in: the end's own, or (its footprint
    touching the walled crossing) that of the nearest square of the end's area it can use."""
    x, y = end
    if lab[y, x]:
        return int(lab[y, x])
    ys, xs = np.nonzero((lab > 0) & (layout.area == side) & (layout.neck == 0))
    if len(ys) == 0:
        return 0
    i = int(np.lexsort((xs, ys, np.maximum(np.abs(xs - x), np.abs(ys - y))))[0])
    return int(lab[ys[i], xs[i]])


def _footprint_hits(t: Traveller, squares, neck_idx: int, neck: np.ndarray) -> bool:
    f = t.field
    for sq in squares:
        for q in (f.occupied(tuple(sq), []) if f.k > 1 else [sq]):
            if 0 <= q[1] < neck.shape[0] and 0 <= q[0] < neck.shape[1] and neck[q[1], q[0]] == neck_idx:
                return True
    return False


def _without(t: Traveller, neck_mask: np.ndarray) -> np.ndarray:
    """Region labels of the body with a chokepoint walled off (its footprint may not touch it)."""
    k = t.field.k
    hit = neck_mask.copy()
    if k > 1:  # a reference square whose k x k block touches the chokepoint
        pad = np.pad(neck_mask, ((0, k - 1), (0, k - 1)))
        for dy in range(k):
            for dx in range(k):
                hit |= pad[dy:dy + neck_mask.shape[0], dx:dx + neck_mask.shape[1]]
    return component_labels(t.ok & ~hit, t.field.dirs)


def _trip_facts(m: MapAnalysis, s: Subject, trip: Trip, passages) -> dict:
    t = m.travellers[s.key]
    lay = m.layout
    out = {"reachable": trip.reachable, "rounds": trip.rounds, "expected_rounds": _r(trip.expected_rounds),
           "move_actions": _r(trip.move_actions), "expected_move_actions": _r(trip.expected_move_actions),
           "via": [], "required": [], "summary": ""}
    if not trip.reachable:
        stopped = [c.id for c in _area_route(m, trip.start, trip.goal)
                   if any(p.status == "stopped" for p in passages[(c.index, s.key)])]
        why = trip.why if "cannot stand" in trip.why else (f"stopped at {', '.join(stopped)}" if stopped else "cut off")
        out["stopped_at"] = stopped
        out["decided_by"] = stopped[0] if stopped else None
        out["summary"] = f"{s.label} cannot get from {trip.start} to {trip.goal}: {why}"
        return out
    via = [c for c in lay.chokepoints if _footprint_hits(t, trip.squares, c.index, lay.neck)]
    required = []
    refs_a = t.refs(trip.start)
    refs_b = t.refs(trip.goal)
    for c in via:
        lab = _without(t, lay.neck == c.index)
        la = {int(lab[y, x]) for x, y in refs_a} - {0}
        lb = {int(lab[y, x]) for x, y in refs_b} - {0}
        if not (la & lb):
            required.append(c)
    out["via"] = [c.id for c in via]
    out["required"] = [c.id for c in required]
    total = (f"{trip.rounds} rounds" if trip.rounds is not None else "no guaranteed time") + \
        (f" ({num(trip.expected_rounds)} expected)" if trip.expected_rounds is not None else "")
    parts = []
    decider = None   # (extra move actions, category, id): the unavoidable chokepoint that costs most
    for c in required:  # the chokepoints it cannot avoid, when they cost it something
        cats = [Category[cat] for sq, cat in zip(trip.squares, trip.categories)
                if _footprint_hits(t, [sq], c.index, lay.neck)]
        cat = max(cats) if cats else Category.CLEAR
        ps = passages[(c.index, s.key)]
        # the passage between the two areas the trip actually crosses from and into (the chokepoint
        # may join more than two); any of them if the trip's sides cannot be told
        sides = _sides_crossed(trip.squares, c.index, lay)
        on_route = [p for p in ps if sides and {p.side_a, p.side_b} == sides] or ps
        extra = max((p.extra_move_actions for p in on_route if p.extra_move_actions is not None), default=None)
        if cat is Category.CLEAR and not extra:
            continue
        key = (extra or 0.0, int(cat), c.id)
        if decider is None or key[:2] > decider[:2]:
            decider = key
        parts.append(f"{passage_words(cat.name)} {c.id}" + (f" ({rounds_text(extra)})" if extra else ""))
    out["decided_by"] = decider[2] if decider else None
    if parts:
        out["summary"] = f"{s.label} reaches {trip.goal} in {total}, only by {', '.join(parts)}"
    else:
        out["summary"] = f"{s.label} reaches {trip.goal} in {total}" + (f" via {', '.join(c.id for c in via)}" if via else "")
    return out


def _sides_crossed(squares, index: int, lay) -> set[int]:
    """The areas a route stands in just before it enters chokepoint ``index`` and just after it
    leaves it (empty if it does not cross it)."""
    inside = [i for i, (x, y) in enumerate(squares) if lay.neck[y, x] == index]
    if not inside:
        return set()
    before = [int(lay.area[y, x]) for x, y in squares[:inside[0]] if lay.neck[y, x] == 0 and lay.area[y, x] > 0]
    after = [int(lay.area[y, x]) for x, y in squares[inside[-1] + 1:] if lay.neck[y, x] == 0 and lay.area[y, x] > 0]
    return {before[-1], after[0]} if before and after else set()


def _area_route(m: MapAnalysis, start: str, goal: str) -> list:
    """The chokepoints on the route with the fewest chokepoints between the areas of two named
    points (breadth first over the graph of areas joined by chokepoints; ties: lower ids first)."""
    lay = m.layout
    (xa, ya), (xb, yb) = m.grid.points[start], m.grid.points[goal]
    a, b = int(lay.area[ya, xa]), int(lay.area[yb, xb])
    if not a or not b or a == b:
        return []
    prev: dict[int, tuple[int, object] | None] = {a: None}
    queue = [a]
    while queue and b not in prev:
        nxt = []
        for u in queue:
            for c in lay.chokepoints:
                if u in c.joins:
                    for v in c.joins:
                        if v not in prev:
                            prev[v] = (u, c)
                            nxt.append(v)
        queue = nxt
    if b not in prev:
        return []
    out = []
    v = b
    while prev[v] is not None:
        u, c = prev[v]
        out.append(c)
        v = u
    return out[::-1]


def _r(v):
    return None if v is None else round(float(v), 4)


def num(v: float) -> str:
    """A number for people: at most two decimals, no trailing zeros.

    >>> num(2.6666), num(3.0), num(0.5)
    ('2.67', '3', '0.5')
    """
    return f"{v:.2f}".rstrip("0").rstrip(".")
