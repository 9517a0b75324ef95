"""The ``cavesim analyze`` report: the facts of :mod:`.mapfacts` as pictures, an HTML page, a
JSON file and a terminal summary.

Files (in the report folder):

* ``analysis.json`` -- every fact (schema in the README, "Designer tools");
* ``report.html``   -- one self-contained page: the pictures below and the tables;
* ``overview.png``  -- the cave shaded by ceiling, areas tinted, chokepoints in the accent colour
  and labelled, named points starred;
* ``categories_<body>.png`` -- the category of every square for each body (renderer's colours);
* ``travel_<point>_<body>.png`` -- rounds of movement from each entrance, for each body.
"""

from __future__ import annotations

from sim.analysis import report as R
from sim.analysis.mapfacts import MapAnalysis, num
from sim.rules.categories import Category


def _rounds(v) -> str:
    return "—" if v is None else num(v)


def pictures(m: MapAnalysis, *, art: str = "image") -> dict[str, bytes]:
    """The report's PNGs; with ``art="image"`` the overview and category maps are drawn over the
    map's own picture when it has one (an imported map)."""
    pal = R.colours()
    g = m.grid
    under = R.floor_picture(g) if art == "image" else None
    out = {"overview.png": R.overview_png(g, m.layout, f"{g.name}: areas and chokepoints", pal, under=under)}
    for s in m.subjects:
        t = m.travellers[s.key]
        out[f"categories_{R.safe_name(s.key)}.png"] = R.category_png(t.field.category, g.rock,
                                                                     f"{s.label}: category of each square", pal,
                                                                     under=under)
    bg = R.cave_image(g.width_ft, g.height_ft, g.rock, g.difficult, pal)
    for e in m.entrances():
        for s in m.subjects:
            t = m.travellers[s.key]
            d = t.distance(e, expected=False)
            if d is None:
                continue
            rounds = d.rounds.astype(float)
            rounds[d.rounds < 0] = float("nan")
            out[f"travel_{R.safe_name(e)}_{R.safe_name(s.key)}.png"] = R.value_png(
                rounds, g.rock, f"{s.label}: rounds from {e} (guaranteed)", label="rounds", cmap="viridis_r",
                marks=dict(g.points), background=bg * 0.55, pal=pal)
    return out


def sheets(m: MapAnalysis) -> dict[str, bytes]:
    """The small multiples of the HTML page: every body's category map on one sheet with one
    legend (``all_categories.png``), and from each entrance every body's travel time on one sheet at
    one colour scale (``all_travel_<point>.png``); coordinates on the edges."""
    import numpy as np
    from matplotlib.colors import SymLogNorm

    pal = R.colours()
    g = m.grid
    out = {}
    present = set()
    panels = []
    for s in m.subjects:
        cats = m.travellers[s.key].field.category
        present |= {int(c) for c in np.unique(cats[~g.rock])}
        panels.append((s.label, R.category_image(cats, g.rock, pal)))
    if panels:
        legend = [(c.label, pal["category"][c.name]) for c in Category if int(c) in present]
        out["all_categories.png"] = R.multiples_png(panels, legend=legend, marks=dict(g.points))
    bg = R.cave_image(g.width_ft, g.height_ft, g.rock, g.difficult, pal).astype(float) / 255.0 * 0.55
    from matplotlib import colormaps

    cm = colormaps["viridis_r"]
    for e in m.entrances():
        fields = []
        for s in m.subjects:
            d = m.travellers[s.key].distance(e, expected=False)
            if d is None:
                continue
            r = d.rounds.astype(float)
            r[d.rounds < 0] = np.nan
            fields.append((s.label, r))
        if not fields:
            continue
        finite = [f[np.isfinite(f) & ~g.rock] for _, f in fields]
        hi = max((float(v.max()) for v in finite if v.size), default=1.0)
        # one scale for every body; logarithmic past 4 rounds, so a 200-round squeeze for one body
        # does not wash out the 3-round walks of the others
        norm = SymLogNorm(linthresh=4.0, linscale=1.0, vmin=0.0, vmax=max(hi, 1.0), base=10)
        panels = []
        for label, r in fields:
            img = bg.copy()
            shown = np.isfinite(r) & ~g.rock
            img[shown] = cm(norm(r[shown]))[:, :3]
            img[g.rock] = np.array(pal["rock"]) / 255.0
            panels.append((label, (img * 255).astype(np.uint8)))
        out[f"all_travel_{R.safe_name(e)}.png"] = R.multiples_png(
            panels, norm=norm, cmap="viridis_r", label=f"rounds from {e} (guaranteed; logarithmic past 4; grey: cannot get there)",
            marks=dict(g.points))
    return out


def _summary_cell(v: dict, pal) -> str:
    if not v["reachable"]:
        why = f"stopped at {v['decided_by']}" if v["decided_by"] else "cannot get there"
        return f'<span class="no">✗ {R.esc(why)}</span>'
    exp = "—" if v["expected_rounds"] is None else num(v["expected_rounds"])
    gua = "no guarantee" if v["rounds"] is None else f"{v['rounds']}"
    dec = f' <b>{R.esc(v["decided_by"])}</b>' if v["decided_by"] else ""
    return f'<span class="yes">✓ {exp}</span> <span class="muted">/ {R.esc(gua)}</span>{dec}'


def _chokepoints_html(f: dict, subs: list, pal: dict) -> list[str]:
    """The chokepoints section: one row a chokepoint, one cell a body (its category letter and
    extra rounds, coloured like the maps), then every cell in words."""
    out = ['<h2 id="chokepoints">Chokepoints × bodies</h2>']
    if not f["chokepoints"]:
        out.append("<p>No chokepoints: no passage between areas is narrower than the areas it joins.</p>")
    else:
        head = ["id", "crossing", "W ft", "C ft", "joins", "passage"] + [_SHORT.get(s.key, s.label) for s in subs]
        rows = []
        for c in f["chokepoints"]:
            row = [R.esc(c["id"]), R.esc(squares_text(c["crossing"])), num(c["width_ft"]), num(c["ceiling_ft"]),
                   R.esc("–".join(c["joins"])), f"{len(c['squares'])} sq"]
            for s in subs:
                p = c["movers"][s.key]
                tip = f"{s.label}: {_passage_text(p)}"
                cell = (R.cat_cell(p["category"], _short_cell(p), pal) if p["status"] == "open" and p["category"]
                        else R.cat_cell(None, _short_cell(p)))
                row.append(f'<span title="{R.esc(tip)}">{cell}</span>')
            rows.append(row)
        out.append(R.html_table(head, rows, raw=True))
        out.append("<p class='muted'>A chokepoint is the narrowest crossing of its passage (docs/analysis.md): "
                   "<i>crossing</i> lists its squares, <i>W</i> and <i>C</i> the narrowest width and lowest ceiling "
                   "there, <i>passage</i> how many squares the whole passage has. Columns: "
                   + ", ".join(f"{_SHORT.get(s.key, s.label)} = {R.esc(s.label)}" for s in subs) +
                     ". Each cell: the category letter met on the fastest way through (coloured like the maps: "
                     + ", ".join(f"{c.letter} {c.label}" for c in Category) +
                     ") and the extra rounds over the same passage as roomy as its sides (guaranteed); "
                     "<b>STOP</b>: it stands on both sides but cannot get through; <b>end</b>: it leads nowhere "
                     "it can stand (no chokepoint for it); –: it cannot stand near it. "
                     "Hover a cell for the whole text; all of it is in the table below.</p>")
        drows = []
        for c in f["chokepoints"]:
            for s in subs:
                p = c["movers"][s.key]
                drows.append([c["id"], s.label, _passage_text(p)])
        out.append("<details><summary>Every chokepoint for every body, in words</summary>"
                     + R.html_table(["id", "body", "passage"], drows) + "</details>")
        out.append("<h3>Per body: the chokepoints that change its category</h3>")
        out.append(R.html_table(["body", "where its way crosses, width, category, what it separates"],
                                [[s.label, body_chokepoints_text(f, s.key)] for s in subs]))
    return out


def html(m: MapAnalysis, pics: dict[str, bytes]) -> str:
    f = m.facts
    pal = R.colours()
    subs = m.subjects
    ents = [e for e in m.entrances() if e in m.grid.points]
    toc = [("summary", "Summary: who gets where, how fast, and what decides it"),
           ("overview", "Areas and chokepoints (map)"), ("chokepoints", "Chokepoints × bodies"),
           ("corners", "Corner-only contacts"), ("areas", "Areas"), ("regions", "Regions each body can reach"),
           ("travel", "Travel between named points"), ("categories", "Category maps"),
           ("travelmaps", "Travel-time maps"), ("counts", "Squares per category")]
    parts = [f"<h1>{R.esc(f['map'])}: designer report</h1>",
             f"<p>{f['cols']} × {f['rows']} squares, {f['floor']} floor squares; source <code>{R.esc(f['source'])}</code>. "
             "Bodies: the default body of each size (docs/rules.md §1.2) at 30 ft (Small 20 ft), Escape Artist as "
             "listed. <b>Expected</b> times roll the Escape Artist checks; <b>guaranteed</b> times take 10 / 20 out "
             "of combat. A round is two move actions. Positions are X,Y = column, row from the top left.</p>",
             "<nav><b>Contents</b><ol>" + "".join(f'<li><a href="#{k}">{R.esc(t)}</a></li>' for k, t in toc) + "</ol></nav>"]
    # summary
    parts.append('<h2 id="summary">Summary</h2>')
    if not ents or len(m.grid.points) < 2:
        parts.append("<p>The map names fewer than two points: add <code>[[point]]</code> tables to get travel times.</p>")
    for e in ents:
        dests = [p for p in m.grid.points if p != e]
        rows = []
        for row in (r for r in f["summary"] if r["from"] == e):
            rows.append([R.esc(row["label"])] + [_summary_cell(row["to"][p], pal) for p in dests])
        parts.append(f"<h3>From {R.esc(e)}</h3>")
        parts.append(R.html_table(["body"] + [f"to {p}" for p in dests], rows, raw=True))
    parts.append("<p class='muted'>Each cell: ✓ expected rounds / guaranteed rounds, and in bold the chokepoint that "
                 "decides the trip (the unavoidable one that costs most); ✗ where it cannot get there and the "
                 "chokepoint that stops it. Details per chokepoint below.</p>")
    if f["pockets"]:
        parts.append(f"<p><b>Pockets</b> (places under <code>--min-area</code>, kept as areas): "
                     f"{R.esc(pockets_text(f).split(': ', 1)[1])}.</p>")
    parts.append(f'<h2 id="overview">Areas and chokepoints</h2>{R.img_tag(pics["overview.png"], "overview")}')
    # chokepoints: a matrix
    parts.extend(_chokepoints_html(f, subs, pal))
    # corner contacts
    parts.append('<h2 id="corners">Corner-only contacts</h2>')
    if f["corner_links"]:
        parts.append("<p>These floor squares touch only at a corner between two rock squares. No one passes a "
                     "rock corner (docs/rules.md §6.2), so they are <b>not joined</b>; to join them, open one of "
                     "the two squares between them.</p>")
        parts.append(R.html_table(["squares", "open one of"],
                                  [[" and ".join("{},{}".format(*q) for q in cl["squares"]),
                                    " or ".join("{},{}".format(*q) for q in cl["open_one_of"])]
                                   for cl in f["corner_links"]]))
    else:
        parts.append("<p>None: every pair of floor squares that touch at a corner also shares an open side square.</p>")
    # light
    if f.get("light"):
        parts.append("<h2>The light a party needs</h2>")
        parts.append("<p class='muted'>A party of Medium humans walks in from each entrance; its torch bearer stands "
                     "at the chokepoint's nearest square (torch: 20 ft bright, 40 ft shadowy, counted 5-10-5 from "
                     "the bearer's corner; rock blocks it). <i>dark</i>: the chokepoint's squares the torch leaves "
                     "dark, where a creature with darkvision waits unseen; <i>needs</i>: the weakest single light "
                     "carried there that leaves none dark.</p>")
        for ent, rows in f["light"].items():
            parts.append(f"<h3>From {R.esc(ent)}</h3>")
            parts.append(R.html_table(["chokepoint", "bearer at", "squares", "dark", "shadowy", "needs"],
                                      [_light_row(r) for r in rows]))
    # areas
    parts.append('<h2 id="areas">Areas</h2>')
    parts.append(R.html_table(["id", "squares", "at", "named points", "pocket"],
                              [[a["id"], a["squares"], "{}, {}".format(*a["at"]), ", ".join(a["points"]),
                                "yes" if a["pocket"] else ""] for a in f["areas"]]))
    if f["pockets"]:
        parts.append(f"<p>{R.esc(pockets_text(f))}. A pocket is a place smaller than <code>--min-area</code>; "
                     "it is an area all the same, and the chokepoint it lies behind is reported.</p>")
    # regions
    parts.append('<h2 id="regions">Regions each body can reach</h2>')
    names = list(f["points"])
    rows = []
    for s in subs:
        r = f["regions"][s.key]
        groups = [", ".join(reg["points"]) for reg in r["regions"] if reg["points"]]
        cannot = [n for n in names if r["points"][n] is None]
        rows.append([s.label, r["count"], " | ".join(groups) or "—", ", ".join(cannot) or "—"])
    parts.append(R.html_table(["body", "regions", "named points together (one group per region)",
                               "cannot stand at"], rows))
    # travel
    parts.append('<h2 id="travel">Travel between named points</h2>')
    for tr in f["travel"]:
        rows = []
        for s in subs:
            t = tr["movers"][s.key]
            rows.append([s.label, "yes" if t["reachable"] else "no", _rounds(t["expected_rounds"]),
                         _rounds(t["rounds"]), ", ".join(t["via"]), ", ".join(t["required"]), t["summary"]])
        parts.append(f"<details><summary>{R.esc(tr['from'])} → {R.esc(tr['to'])}</summary>"
                     + R.html_table(["body", "reachable", "expected rounds", "guaranteed rounds", "via", "only via", ""],
                                    rows) + "</details>")
    # pictures
    parts.append('<h2 id="categories">Category maps</h2>')
    if "all_categories.png" in pics:
        parts.append(R.img_tag(pics["all_categories.png"], "category maps"))
    parts.append('<h2 id="travelmaps">Travel-time maps</h2>')
    shown = False
    for e in ents:
        key = f"all_travel_{R.safe_name(e)}.png"
        if key in pics:
            parts.append(f"<h3>From {R.esc(e)}</h3>{R.img_tag(pics[key], key)}")
            shown = True
    if not shown:
        parts.append("<p>No entrance to start from: name a point <code>entrance...</code> or give <code>--entrance</code>.</p>")
    parts.append('<h2 id="counts">Squares per category</h2>')
    cats = [c.name for c in Category]
    parts.append(R.html_table(["body"] + [Category[c].label for c in cats],
                              [[s.label] + [f["category_counts"][s.key][c] for c in cats] for s in subs]))
    return R.html_page(f"{f['map']}: designer report", "\n".join(parts))


def _light_row(r: dict) -> list:
    if r["from"] is None:
        return [r["chokepoint"], "—", r["squares"], "—", "—", "out of reach of a Medium human"]
    return [r["chokepoint"], "{}, {}".format(*r["from"]), r["squares"], r["dark_to_torch"], r["shadowy_to_torch"],
            r["needs"]]


def _passage_text(p: dict) -> str:
    if p["status"] == "no_access":
        return "no access"
    if p["status"] == "stopped":
        why = {"no_room": "no room", "escape_artist": "Escape Artist", "footprint": "its space"}.get(p["reason"], "")
        return f"stopped ({why})"
    bits = [Category[p["category"]].letter]
    if p["extra_rounds"] is not None and p["extra_rounds"] > 0:
        bits.append(f"+{num(p['extra_rounds'])} r")
    if p["expected_extra_rounds"] is not None and p["expected_extra_rounds"] > 0 and \
            p["expected_extra_rounds"] != p["extra_rounds"]:
        bits.append(f"(~{num(p['expected_extra_rounds'])})")
    if p["escape_dc"]:
        bits.append(f"DC {p['escape_dc']}")
    return " ".join(bits)


_SHORT = {"fine": "F", "diminutive": "D", "tiny": "T", "small": "S", "medium": "M", "large": "L", "huge": "H",
          "gargantuan": "G", "colossal": "C"}


def squares_text(squares: list) -> str:
    """Squares as ``x,y`` joined by spaces; a long run as its first and last square.

    >>> squares_text([[15, 2], [15, 3]]), squares_text([[1, 1], [2, 1], [3, 1], [4, 1]])
    ('15,2 15,3', '1,1..4,1 (4 squares)')
    """
    if len(squares) <= 3:
        return " ".join("{},{}".format(*q) for q in squares)
    return "{},{}..{},{} ({} squares)".format(*squares[0], *squares[-1], len(squares))


def pockets_text(f: dict) -> str:
    """The pockets (areas under ``--min-area``) by name, each with its size, a square in it, its
    named points and the chokepoints it lies behind (docs/analysis.md §1.3)."""
    bits = []
    for p in f["pockets"]:
        where = f"behind {', '.join(p['behind'])}" if p["behind"] else "no passage joins it to an area"
        pts = f", holds {', '.join(p['points'])}" if p["points"] else ""
        bits.append(f"{p['id']} ({_count(p['squares'], 'square')} at {p['at'][0]},{p['at'][1]}{pts}, {where})")
    return f"pockets under --min-area {f['assumptions']['min_area']}: " + "; ".join(bits)


def _side_text(side: dict) -> str:
    pts = f": {', '.join(side['points'])}" if side["points"] else ""
    return f"{side['area']} ({_count(side['squares'], 'square')}{pts})"


def passage_line(c: dict, p: dict) -> str | None:
    """One chokepoint for one body in words, or None when its category does not change there
    (``Narrow and Low at 15,3 (5 ft): separates A1 (38 squares) from A2 (20 squares)``)."""
    if p["status"] == "dead_end":
        return f"{c['id']} dead end (leads nowhere it can stand)"
    if p["status"] == "no_access" or not p.get("changes_category"):
        return None
    cat = Category[p["category"]].label
    width = "" if p.get("width_ft") is None else f" ({num(p['width_ft'])} ft)"
    what = "stops it" if p["status"] == "stopped" else cat
    text = f"{c['id']} {what} at {squares_text(p['crossed'])}{width}"
    if p["status"] == "stopped":
        text += f" (needs {cat})"
    if p.get("separates"):
        a, b = p["separates"]
        text += f", separates {_side_text(a)} from {_side_text(b)}"
    elif p["status"] == "open":
        text += ", a way around it"
    return text


def body_chokepoints_text(f: dict, key: str) -> str:
    """A body's chokepoints in words: the ones that change its category, then the dead ends."""
    lines = [passage_line(c, c["movers"][key]) for c in f["chokepoints"]]
    lines = [t for t in lines if t]
    if lines:
        return "; ".join(lines)
    if f["chokepoints"] and all(c["movers"][key]["status"] == "no_access" for c in f["chokepoints"]):
        return "it cannot stand beside any chokepoint"
    return "none changes its category"


def _short_cell(p: dict) -> str:
    """A chokepoint for one body in a few characters: category letter and extra rounds
    (``a+10``), ``STOP``, ``end`` (a dead end for it) or ``-`` (no access)."""
    if p["status"] == "dead_end":
        return "end"
    if p["status"] == "no_access":
        return "-"
    if p["status"] == "stopped":
        return "STOP"
    txt = Category[p["category"]].letter
    if p["extra_rounds"]:
        txt += f"+{num(p['extra_rounds'])}"
    return txt


def terminal(m: MapAnalysis, console, files: list[str] | None = None) -> None:
    """The summary for people at a terminal (rich tables)."""
    from rich.markup import escape
    from rich.table import Table

    f = m.facts
    subs = m.subjects
    console.print(f"[bold]{escape(f['map'])}[/]: {f['cols']}x{f['rows']} squares, {f['floor']} floor; "
                  f"{_count(len(f['areas']), 'area')}"
                  + (f" ({_count(len(f['pockets']), 'pocket')})" if f.get("pockets") else "")
                  + f", {_count(len(f['chokepoints']), 'chokepoint')}")
    if f.get("pockets"):
        console.print(pockets_text(f), highlight=False, markup=False)
    for e in dict.fromkeys(r["from"] for r in f.get("summary", [])):
        rows = [r for r in f["summary"] if r["from"] == e]
        dests = list(rows[0]["to"]) if rows else []
        console.print(f"From {escape(e)}: expected / guaranteed rounds and the chokepoint that decides it "
                      "(x: cannot get there, stopped at)", highlight=False)
        t = Table(box=None, pad_edge=False)
        t.add_column("body", no_wrap=True)
        for d in dests:
            t.add_column(escape(d), no_wrap=True)
        for r in rows:
            cells = []
            for d in dests:
                v = r["to"][d]
                if not v["reachable"]:
                    cells.append(f"x {v['decided_by']}" if v["decided_by"] else "x")
                    continue
                exp = "-" if v["expected_rounds"] is None else num(v["expected_rounds"])
                gua = "-" if v["rounds"] is None else str(v["rounds"])
                cells.append(f"{exp} / {gua}" + (f" {v['decided_by']}" if v["decided_by"] else ""))
            t.add_row(escape(r["label"]), *cells)
        console.print(t)
    if f.get("corner_links"):
        console.print("corner-only contacts (not joined for anyone, RULES §6.2): "
                      + ", ".join("{},{}-{},{}".format(*c["squares"][0], *c["squares"][1]) for c in f["corner_links"]),
                      highlight=False, markup=False)
    if f["chokepoints"]:
        t = Table(title="Chokepoints (the narrowest crossing): category letter + extra rounds (guaranteed); "
                        "STOP; end: leads nowhere it can go; - no access",
                  title_justify="left", box=None, pad_edge=False)
        for h in ["id", "crossing", "W ft", "C ft", "joins"]:
            t.add_column(h, no_wrap=True)
        for s in subs:
            t.add_column(_SHORT.get(s.key, s.key[:6]), no_wrap=True, justify="right")
        for c in f["chokepoints"]:
            t.add_row(c["id"], squares_text(c["crossing"]), num(c["width_ft"]), num(c["ceiling_ft"]),
                      "-".join(c["joins"]), *[_short_cell(c["movers"][s.key]) for s in subs])
        console.print(t)
        console.print("letters: " + ", ".join(f"{c.letter} {c.label}" for c in Category), highlight=False)
        console.print("Per body: the chokepoints that change its category (where its way crosses, width, "
                      "category, what it separates)", highlight=False)
        for s in subs:
            console.print(f"  {s.label}: " + body_chokepoints_text(f, s.key), highlight=False, markup=False)
    t = Table(title="Regions: named points that share a region", title_justify="left", box=None, pad_edge=False)
    for h in ("body", "regions", "together", "cannot stand at"):
        t.add_column(h)
    for s in subs:
        r = f["regions"][s.key]
        t.add_row(s.label, str(r["count"]), " | ".join(", ".join(g["points"]) for g in r["regions"] if g["points"]) or "-",
                  ", ".join(n for n, v in r["points"].items() if v is None) or "-")
    console.print(t)
    for ent, rows in (f.get("light") or {}).items():
        t = Table(title=f"Light from {ent}: chokepoint squares a torch-bearing party of Medium humans leaves dark",
                  title_justify="left", box=None, pad_edge=False)
        for h in ("chokepoint", "bearer at", "squares", "dark", "shadowy", "needs"):
            t.add_column(h, no_wrap=True)
        for r in rows:
            t.add_row(*[str(v) for v in _light_row(r)])
        console.print(t)
    ents = set(m.entrances())
    shown = [tr for tr in f["travel"] if tr["from"] in ents or tr["to"] in ents] or f["travel"]
    for tr in shown:
        console.print(f"[bold]{escape(tr['from'])} → {escape(tr['to'])}[/]")
        for s in subs:
            console.print("  " + tr["movers"][s.key]["summary"], highlight=False, markup=False)
    if files:
        console.print(f"report: {files[0]} (and {len(files) - 1} more files beside it)" if len(files) > 1
                      else f"report: {files[0]}", highlight=False)


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (the analysis layer's own, below sim.cli._common.plural)."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
