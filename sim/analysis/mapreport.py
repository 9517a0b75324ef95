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


def html(m: MapAnalysis, pics: dict[str, bytes]) -> str:
    f = m.facts
    pal = R.colours()
    subs = m.subjects
    parts = [f"<h1>{R.esc(f['map'])}</h1>",
             f"<p>{f['cols']} x {f['rows']} squares, {f['floor']} floor squares; source <code>{R.esc(f['source'])}</code>. "
             "Bodies: the default body of each size (RULES §1.2) at 30 ft (Small 20 ft), Escape Artist as listed, "
             "taking 10 / 20 out of combat for the guaranteed times; expected times roll. "
             "A round is two move actions.</p>",
             R.img_tag(pics["overview.png"], "overview")]
    # chokepoints
    parts.append("<h2>Chokepoints</h2>")
    if not f["chokepoints"]:
        parts.append("<p>No chokepoints: no passage between areas is narrower than the areas it joins.</p>")
    else:
        head = ["id", "at", "width ft", "ceiling ft", "joins", "stops"] + [s.label for s in subs]
        label = {s.key: s.label for s in subs}
        rows = []
        for c in f["chokepoints"]:
            row = [c["id"], "{}, {}".format(*c["at"]), num(c["width_ft"]), num(c["ceiling_ft"]),
                   " – ".join(c["joins"]), ", ".join(label[k] for k in c["stops"]) or "none"]
            for s in subs:
                p = c["movers"][s.key]
                row.append(R.cat_cell(p["category"], _passage_text(p), pal) if p["category"] else
                           R.cat_cell(None, _passage_text(p)))
            rows.append([R.esc(v) for v in row[:6]] + row[6:])
        parts.append(R.html_table(head, rows, raw=True))
        parts.append("<p class='muted'>Each cell: the category met on the fastest way through, the extra time over "
                     "the same passage as roomy as its sides (guaranteed, then expected), and the Escape Artist DC. "
                     "<i>stopped</i>: it stands on both sides but cannot get through (why in brackets); "
                     "<i>no access</i>: it cannot stand near it.</p>")
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
    parts.append("<h2>Areas</h2>")
    parts.append(R.html_table(["id", "squares", "at", "named points"],
                              [[a["id"], a["squares"], "{}, {}".format(*a["at"]), ", ".join(a["points"])]
                               for a in f["areas"]]))
    # regions
    parts.append("<h2>Regions each body can reach</h2>")
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
    parts.append("<h2>Travel between named points</h2>")
    for tr in f["travel"]:
        parts.append(f"<h3>{R.esc(tr['from'])} → {R.esc(tr['to'])}</h3>")
        rows = []
        for s in subs:
            t = tr["movers"][s.key]
            rows.append([s.label, "yes" if t["reachable"] else "no", _rounds(t["rounds"]),
                         _rounds(t["expected_rounds"]), ", ".join(t["via"]), ", ".join(t["required"]), t["summary"]])
        parts.append(R.html_table(["body", "reachable", "rounds", "expected rounds", "via", "only via", ""], rows))
    # pictures
    parts.append("<h2>Category maps</h2><div class='grid'>")
    for s in subs:
        key = f"categories_{R.safe_name(s.key)}.png"
        parts.append(f"<figure>{R.img_tag(pics[key], key)}<figcaption>{R.esc(s.label)}</figcaption></figure>")
    parts.append("</div>")
    ents = m.entrances()
    if ents:
        parts.append("<h2>Travel-time maps</h2>")
        for e in ents:
            parts.append(f"<h3>From {R.esc(e)}</h3><div class='grid'>")
            for s in subs:
                key = f"travel_{R.safe_name(e)}_{R.safe_name(s.key)}.png"
                if key in pics:
                    parts.append(f"<figure>{R.img_tag(pics[key], key)}<figcaption>{R.esc(s.label)}</figcaption></figure>")
            parts.append("</div>")
    parts.append("<h2>Squares per category</h2>")
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


def _short_cell(p: dict) -> str:
    """A chokepoint for one body in a few characters: category letter and extra rounds
    (``a+10``), ``STOP`` or ``-`` (no access)."""
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
                  f"{len(f['areas'])} areas, {len(f['chokepoints'])} chokepoints")
    if f["chokepoints"]:
        t = Table(title="Chokepoints: category letter + extra rounds (guaranteed); STOP; - no access",
                  title_justify="left", box=None, pad_edge=False)
        for h in ["id", "at", "W ft", "C ft", "joins"]:
            t.add_column(h, no_wrap=True)
        for s in subs:
            t.add_column(_SHORT.get(s.key, s.key[:6]), no_wrap=True, justify="right")
        for c in f["chokepoints"]:
            t.add_row(c["id"], "{},{}".format(*c["at"]), num(c["width_ft"]), num(c["ceiling_ft"]), "-".join(c["joins"]),
                      *[_short_cell(c["movers"][s.key]) for s in subs])
        console.print(t)
        console.print("letters: " + ", ".join(f"{c.letter} {c.label}" for c in Category), highlight=False)
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
