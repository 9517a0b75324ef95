"""What a batch of fights says: win rates with 95% intervals, rounds, casualties, heat maps.

Everything here reads the flat records (:mod:`sim.analysis.batch`), so a summary can be made
again from a records file. Win rates carry Wilson score intervals (95%): unlike the normal
approximation they stay inside [0, 1] and behave at 0 or 100% wins and for small batches.

>>> p, lo, hi = wilson(62, 100)
>>> round(p, 2), round(lo, 3), round(hi, 3)
(0.62, 0.522, 0.709)
>>> [round(v, 4) for v in wilson(0, 10)[1:]]     # never below 0
[0.0, 0.2775]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from sim.analysis import report as R
from sim.analysis.batch import parse_sparse

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Share ``k / n`` and its Wilson score interval ``(p, low, high)``; ``(nan, 0, 1)`` when n = 0."""
    if n <= 0:
        return (float("nan"), 0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo = 0.0 if k == 0 else max(0.0, centre - half)   # exact at the ends (no rounding error)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (p, lo, hi)


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (linear interpolation, as numpy's default)."""
    return float(np.quantile(np.asarray(values, dtype=float), q)) if values else float("nan")


@dataclass(slots=True)
class VariantSummary:
    label: str
    fights: int = 0                      # fights that finished (errors excluded)
    errors: int = 0
    wins: dict = field(default_factory=dict)          # team -> (k, p, low, high)
    draws: tuple = (0, float("nan"), 0.0, 1.0)
    rounds: dict = field(default_factory=dict)        # mean, median, p10, p90, min, max
    rounds_hist: dict = field(default_factory=dict)   # rounds -> fights
    creatures: dict = field(default_factory=dict)     # id -> survival, mean_hp, kills, squeezing, nauseated
    heat: dict = field(default_factory=dict)          # fight | fall | stall -> counts [row, col]
    first_errors: list = field(default_factory=list)
    party: dict = field(default_factory=dict)         # the DM's odds for the party team (see party_odds)
    stalled: dict = field(default_factory=dict)       # round-cap fights: share and who stalled where

    def to_json(self) -> dict:
        def share(t):
            return {"count": t[0], "rate": _f(t[1]), "low": _f(t[2]), "high": _f(t[3])}

        return {"variant": self.label, "fights": self.fights, "errors": self.errors,
                "wins": {t: share(v) for t, v in self.wins.items()}, "draws": share(self.draws),
                "rounds": {k: _f(v) for k, v in self.rounds.items()},
                "rounds_histogram": {str(k): v for k, v in sorted(self.rounds_hist.items())},
                "creatures": self.creatures, "first_errors": self.first_errors,
                "party": self.party, "round_cap": self.stalled}


def _f(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else round(float(v), 4)


def teams_of(columns: list[str]) -> list[str]:
    return [c.split(".", 1)[1] for c in columns if c.startswith("alive.")]


def creatures_of(columns: list[str]) -> list[str]:
    return [c.split(".", 1)[1] for c in columns if c.startswith("hp.")]


DOWN_STATES = ("dying", "stable", "unconscious", "asleep", "paralyzed")


def _party_team(teams: list[str], members: dict[str, list[str]] | None) -> str | None:
    names = list(teams) or list(members or {})
    if "party" in names:
        return "party"
    return names[0] if names else None


def _used(text) -> dict[str, int]:
    """``"alchemists-fire:2|thrown:javelin:1"`` -> ``{"alchemists-fire": 2, "thrown:javelin": 1}``."""
    out: dict[str, int] = {}
    for part in str(text or "").split("|"):
        if part:
            k, _, n = part.rpartition(":")
            out[k] = out.get(k, 0) + int(n)
    return out


def party_odds(ok: list[dict], team: str, ids: list[str], *, encounter: str = "") -> dict:
    """The DM's odds for ``team`` over the finished fights ``ok``: the chance at least one member
    dies, of a total party kill (every member dead) and of no member left standing (each with its
    Wilson interval), the expected members down (dying, stable, unconscious, asleep, paralysed)
    and dead, per member its end state shares and what it spent (hit points, spells, consumables
    and thrown weapons), the same in all, and three representative lost fights to replay."""
    n = len(ok)
    mem = [cid for cid in ids if any(f"hp.{cid}" in r for r in ok)]

    def states(r):
        return [str(r.get(f"state.{cid}", "")) for cid in mem if f"hp.{cid}" in r]

    def share(k):
        p, lo, hi = wilson(k, n)
        return {"count": k, "rate": _f(p), "low": _f(lo), "high": _f(hi)}

    any_dead = sum(1 for r in ok if "dead" in states(r))
    tpk = sum(1 for r in ok if states(r) and all(st == "dead" for st in states(r)))
    none_up = sum(1 for r in ok if states(r) and not any(st == "up" for st in states(r)))
    down = [sum(1 for st in states(r) if st in DOWN_STATES) for r in ok]
    dead = [sum(1 for st in states(r) if st == "dead") for r in ok]
    per = {}
    tot_hp, tot_sp, tot_items = [], [], {}
    for r in ok:
        tot_hp.append(sum(max(0, int(r.get(f"maxhp.{c}", 0) or 0) - int(r[f"hp.{c}"])) for c in mem if f"hp.{c}" in r))
        tot_sp.append(sum(int(r.get(f"spells.{c}", 0) or 0) for c in mem if f"hp.{c}" in r))
        for c in mem:
            for k, v in _used(r.get(f"used.{c}")).items():
                tot_items[k] = tot_items.get(k, 0) + v
    for cid in mem:
        rs = [r for r in ok if f"hp.{cid}" in r]
        m = len(rs) or 1
        st = [str(r.get(f"state.{cid}", "")) for r in rs]
        items: dict[str, int] = {}
        for r in rs:
            for k, v in _used(r.get(f"used.{cid}")).items():
                items[k] = items.get(k, 0) + v
        per[cid] = {"fights": len(rs), "standing": _f(st.count("up") / m),
                    "dying_or_stable": _f(sum(1 for x in st if x in ("dying", "stable")) / m),
                    "down_other": _f(sum(1 for x in st if x in ("unconscious", "asleep", "paralyzed")) / m),
                    "dead": _f(st.count("dead") / m),
                    "hp_lost": _f(float(np.mean([max(0, int(r.get(f"maxhp.{cid}", 0) or 0) - int(r[f"hp.{cid}"]))
                                                 for r in rs])) if rs else None),
                    "spells": _f(float(np.mean([int(r.get(f"spells.{cid}", 0) or 0) for r in rs])) if rs else None),
                    "used": {k: _f(v / m) for k, v in sorted(items.items())}}
    lost = sorted((r for r in ok if r.get("winner") != team), key=lambda r: (int(r["rounds"]), int(r["index"])))
    picks = []
    if lost:
        for q in (0.25, 0.5, 0.75):
            r = lost[min(len(lost) - 1, int(q * len(lost)))]
            if r not in picks:
                picks.append(r)
    replays = [{"index": int(r["index"]), "seed": int(r["seed"]), "rounds": int(r["rounds"]),
                "winner": r.get("winner") or None, "reason": r.get("reason"),
                "dead": [c for c in mem if r.get(f"state.{c}") == "dead"],
                "command": f"cavesim fight {encounter} --seed {int(r['seed'])}".strip()} for r in picks]
    return {"team": team, "members": mem, "fights": n,
            "at_least_one_dead": share(any_dead), "tpk": share(tpk), "none_standing": share(none_up),
            "expected_down": _f(float(np.mean(down))) if n else None,
            "expected_dead": _f(float(np.mean(dead))) if n else None,
            "per_member": per,
            "total": {"hp_lost": _f(float(np.mean(tot_hp))) if n else None,
                      "spells": _f(float(np.mean(tot_sp))) if n else None,
                      "used": {k: _f(v / n) for k, v in sorted(tot_items.items())} if n else {}},
            "lost": len(lost), "replays": replays}


def stall_report(ok: list[dict], ids: list[str]) -> dict:
    """The fights that hit the round cap: their share, and who was stalled where (mean rounds
    squeezing or nauseated in those fights, and where each creature still up stood at the end,
    the most common square first)."""
    capped = [r for r in ok if r.get("reason") == "round_cap"]
    out = {"fights": len(capped), "share": _f(len(capped) / len(ok)) if ok else None, "who": []}
    for cid in ids:
        rs = [r for r in capped if f"hp.{cid}" in r]
        if not rs:
            continue
        sq = [r.get(f"at.{cid}") for r in rs if r.get(f"state.{cid}") == "up" and r.get(f"at.{cid}")]
        where = {}
        for a in sq:
            where[a] = where.get(a, 0) + 1
        top = sorted(where.items(), key=lambda t: (-t[1], t[0]))[:2]
        out["who"].append({"id": cid, "squeezing_rounds": _f(float(np.mean([int(r.get(f"squeezing.{cid}", 0) or 0) for r in rs]))),
                           "nauseated_rounds": _f(float(np.mean([int(r.get(f"nauseated.{cid}", 0) or 0) for r in rs]))),
                           "standing": len(sq), "at": [{"square": a, "fights": k} for a, k in top]})
    return out


def summarize(records: list[dict], labels: list[str], columns: list[str], shape: tuple[int, int], *,
              members: dict[str, list[str]] | None = None, encounter: str = "") -> list[VariantSummary]:
    """One summary per variant (in ``labels`` order). ``members``: team -> creature ids
    (:func:`sim.analysis.batch.members`), for the party's odds: the team ``party`` (else the first
    team); ``encounter``: the file named in the replay commands."""
    teams = teams_of(columns)
    ids = creatures_of(columns)
    by: dict[str, list[dict]] = {lab: [] for lab in labels}
    for r in records:
        by.setdefault(str(r.get("variant", "")), []).append(r)
    out = []
    for lab in labels:
        rs = by.get(lab, [])
        ok = [r for r in rs if not r.get("error")]
        s = VariantSummary(label=lab, fights=len(ok), errors=len(rs) - len(ok))
        s.first_errors = [{"index": r["index"], "seed": r["seed"], "error": r["error"]}
                          for r in sorted(rs, key=lambda r: r["index"]) if r.get("error")][:5]
        n = len(ok)
        for t in teams:
            k = sum(1 for r in ok if r.get("winner") == t)
            s.wins[t] = (k, *wilson(k, n))
        kd = sum(1 for r in ok if not r.get("winner"))
        s.draws = (kd, *wilson(kd, n))
        rounds = [int(r["rounds"]) for r in ok]
        if rounds:
            s.rounds = {"mean": float(np.mean(rounds)), "median": quantile(rounds, 0.5), "p10": quantile(rounds, 0.1),
                        "p90": quantile(rounds, 0.9), "min": float(min(rounds)), "max": float(max(rounds))}
            for x in rounds:
                s.rounds_hist[x] = s.rounds_hist.get(x, 0) + 1
        for cid in ids:
            present = [r for r in ok if f"hp.{cid}" in r]
            if not present:
                continue
            m = len(present)
            up = sum(1 for r in present if r.get(f"state.{cid}") == "up")
            alive = sum(1 for r in present if r.get(f"state.{cid}") not in ("dead", "dispersed"))
            kills = sum(len([k for k in str(r.get(f"kills.{cid}", "")).split("|") if k]) for r in present)
            dying = sum(1 for r in present if r.get(f"state.{cid}") in ("dying", "stable"))
            dead = sum(1 for r in present if r.get(f"state.{cid}") in ("dead", "dispersed"))
            s.creatures[cid] = {
                "fights": m,
                "standing": _f(up / m), "alive": _f(alive / m), "dying_or_stable": _f(dying / m),
                "dead": _f(dead / m),
                "mean_hp": _f(float(np.mean([int(r[f"hp.{cid}"]) for r in present]))),
                "kills": _f(kills / m),
                "squeezing_rounds": _f(float(np.mean([int(r.get(f"squeezing.{cid}", 0) or 0) for r in present]))),
                "nauseated_rounds": _f(float(np.mean([int(r.get(f"nauseated.{cid}", 0) or 0) for r in present]))),
            }
        for name in ("fight", "fall", "stall"):
            grid = np.zeros(shape, dtype=np.int64)
            for r in ok:
                for x, y, c in parse_sparse(str(r.get(f"heat.{name}", ""))):
                    if 0 <= y < shape[0] and 0 <= x < shape[1]:
                        grid[y, x] += c
            s.heat[name] = grid
        pt = _party_team(teams, members)
        if pt is not None and members and members.get(pt):
            s.party = party_odds(ok, pt, members[pt], encounter=encounter)
        s.stalled = stall_report(ok, ids)
        out.append(s)
    return out



def pct(t: tuple) -> str:
    """``62.0% (52.2–70.9)`` from a ``(k, p, low, high)`` share.

    >>> pct((62, 0.62, 0.5221, 0.7092))
    '62.0% (52.2–70.9)'
    """
    k, p, lo, hi = t
    if isinstance(p, float) and math.isnan(p):
        return "-"
    return f"{100 * p:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def terminal(summaries: list[VariantSummary], teams: list[str], console, *, title: str) -> None:
    """Side-by-side table: one column per variant."""
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=escape(title), title_justify="left")
    t.add_column("")
    for s in summaries:
        t.add_column(escape(s.label or "all fights"), justify="right")
    t.add_row("fights", *[str(s.fights) for s in summaries])
    if any(s.errors for s in summaries):
        t.add_row("errors", *[str(s.errors) for s in summaries])
    for team in teams:
        t.add_row(escape(f"{team} wins (95% CI)"), *[pct(s.wins[team]) for s in summaries])
    t.add_row("no winner (round cap, or both sides down)", *[pct(s.draws) for s in summaries])

    def r(s, k):
        v = s.rounds.get(k)
        return "-" if v is None else f"{v:.1f}".rstrip("0").rstrip(".")

    t.add_row("rounds mean", *[r(s, "mean") for s in summaries])
    t.add_row("rounds median (p10–p90)", *[f"{r(s, 'median')} ({r(s, 'p10')}–{r(s, 'p90')})" for s in summaries])
    if any(s.party for s in summaries):
        team = next(s.party["team"] for s in summaries if s.party)
        for key, text in (("at_least_one_dead", "at least one PC dies"), ("tpk", "total party kill (every PC dead)"),
                          ("none_standing", "no PC left standing")):
            t.add_row(escape(f"{text} (95% CI)"), *[share_text(s.party.get(key)) for s in summaries])
        t.add_row("PCs down (dying, stable, asleep...) / dead, expected",
                  *[f"{_g(s.party.get('expected_down'))} / {_g(s.party.get('expected_dead'))}" for s in summaries])
        t.add_row(escape(f"{team}: hp lost, spells cast (in all, mean)"),
                  *[f"{_g(s.party.get('total', {}).get('hp_lost'))} hp, {_g(s.party.get('total', {}).get('spells'))} spells"
                    for s in summaries])
    console.print(t)
    for s in summaries:
        _terminal_party(s, console)
        _terminal_stall(s, console)
    for s in summaries:
        for e in s.first_errors[:3]:
            console.print(f"error in fight {e['index']} (seed {e['seed']}){' of ' + s.label if s.label else ''}: "
                          f"{e['error']}", highlight=False, markup=False)


def share_text(d: dict | None) -> str:
    """``12.5% (6.3–23.2)`` from a JSON share (count, rate, low, high)."""
    if not d or d.get("rate") is None:
        return "-"
    return pct((d["count"], d["rate"], d["low"], d["high"]))


def _items_text(used: dict) -> str:
    return ", ".join(f"{_g(v)} {k.replace('thrown:', '')}{' thrown' if k.startswith('thrown:') else ''}"
                     for k, v in used.items() if v) or "nothing"


def _terminal_party(s: VariantSummary, console) -> None:
    """Per member: how it ends (standing / dying or stable / dead) and what it spends; the
    three representative lost fights with the command that replays each."""
    from rich.markup import escape
    from rich.table import Table

    p = s.party
    if not p:
        return
    name = f" ({s.label})" if s.label else ""
    t = Table(title=escape(f"{p['team']}{name}: how each member ends, and what it spends (mean per fight)"),
              title_justify="left", box=None, pad_edge=False)
    for h in ("member", "standing", "dying/stable", "dead", "hp lost", "spells", "consumables"):
        t.add_column(h, justify="left" if h in ("member", "consumables") else "right")
    for cid, m in p["per_member"].items():
        t.add_row(escape(cid), _pc(m["standing"]), _pc(m["dying_or_stable"]), _pc(m["dead"]), _g(m["hp_lost"]),
                  _g(m["spells"]), escape(_items_text(m["used"])))
    tot = p["total"]
    t.add_row("in all", "", "", "", _g(tot["hp_lost"]), _g(tot["spells"]), escape(_items_text(tot["used"])))
    console.print(t)
    if p["replays"]:
        console.print(f"{p['lost']} of {p['fights']} fights lost{name}; three representative ones to replay:",
                      highlight=False, markup=False)
        for rp in p["replays"]:
            dead = f", dead: {', '.join(rp['dead'])}" if rp["dead"] else ""
            why = rp["winner"] + " win" if rp["winner"] else str(rp["reason"]).replace("_", " ")
            console.print(f"  fight {rp['index']}: {why} in round {rp['rounds']}{dead}:  {rp['command']}",
                          highlight=False, markup=False)


def _terminal_stall(s: VariantSummary, console) -> None:
    """When most fights hit the round cap, say so, and who was stalled where."""
    st = s.stalled
    if not st or not st.get("share") or st["share"] <= 0.5:
        return
    name = f" ({s.label})" if s.label else ""
    console.print(f"[bold]warning[/]{name}: {st['fights']} of {s.fights} fights hit the round cap: the sides "
                  "never finished each other. Who was stalled where (in those fights):", highlight=False)
    for w in sorted(st["who"], key=lambda w: -(w["squeezing_rounds"] or 0) - (w["nauseated_rounds"] or 0)):
        bits = []
        if w["squeezing_rounds"]:
            bits.append(f"{_g(w['squeezing_rounds'])} rounds squeezing or crawling")
        if w["nauseated_rounds"]:
            bits.append(f"{_g(w['nauseated_rounds'])} rounds nauseated")
        if w["at"]:
            bits.append("still up at " + ", ".join(f"{a['square']} ({a['fights']} fights)" for a in w["at"]))
        if bits:
            console.print(f"  {w['id']}: " + "; ".join(bits), highlight=False, markup=False)
    console.print("  (a creature holding a square its enemy must squeeze to reach waits; see the stall heat map, "
                  "or raise round_cap)", highlight=False, markup=False)


def files(summaries: list[VariantSummary], teams: list[str], grid, *, title: str, meta: dict) -> dict[str, bytes | str]:
    """The report folder of a batch: summary.json, summary.html and PNG plots (win rates,
    rounds, heat maps of where fights happen, where creatures fall and where they stall)."""
    pal = R.colours()
    labels = [s.label or "all fights" for s in summaries]
    out: dict[str, bytes | str] = {}
    series = {team: [(_nz(s.wins[team][1]), s.wins[team][2], s.wins[team][3]) for s in summaries] for team in teams}
    series["draw"] = [(_nz(s.draws[1]), s.draws[2], s.draws[3]) for s in summaries]
    team_index = {t: i for i, t in enumerate(teams)}

    def colour(name, k):
        if name == "draw":
            return (150, 150, 160)
        return pal["team"](name, team_index.get(name, k))

    out["win_rates.png"] = R.bars_png(labels, series, f"{title}: win rate (95% Wilson interval)", ylabel="share of fights",
                                      colour_of=colour)
    out["rounds.png"] = R.histogram_png({lab: s.rounds_hist for lab, s in zip(labels, summaries)},
                                        f"{title}: rounds per fight", xlabel="rounds")
    bg = R.cave_image(grid.width_ft, grid.height_ft, grid.rock, grid.difficult, pal)
    heat_names = {"fight": ("where blows land", "hits taken per square", "YlOrRd"),
                  "fall": ("where creatures fall", "creatures fallen", "RdPu"),
                  "stall": ("where creatures stall (squeezing, nauseated, failed Escape Artist)", "turns stalled", "GnBu")}
    pics = []
    for i, s in enumerate(summaries):
        for name, (what, label, cmap) in heat_names.items():
            key = f"heat_{name}_{i + 1}.png"
            out[key] = R.value_png(s.heat[name].astype(float), grid.rock, f"{labels[i]}: {what}", label=label,
                                   cmap=cmap, background=bg, zero_clear=True, marks=dict(grid.points), pal=pal,
                                   large=True)
            pics.append((key, labels[i], what))
    data = {**meta, "variants": [s.to_json() for s in summaries]}
    out["summary.json"] = R.dumps_json(data)
    head = ["", *labels]
    rows = [["fights", *[s.fights for s in summaries]], ["errors", *[s.errors for s in summaries]]]
    rows += [[f"{t} wins", *[pct(s.wins[t]) for s in summaries]] for t in teams]
    rows += [["draws", *[pct(s.draws) for s in summaries]]]
    rows += [["rounds mean", *[_g(s.rounds.get("mean")) for s in summaries]],
             ["rounds median (p10–p90)", *[f"{_g(s.rounds.get('median'))} ({_g(s.rounds.get('p10'))}–{_g(s.rounds.get('p90'))})"
                                          for s in summaries]]]
    ids = list(dict.fromkeys(cid for s in summaries for cid in s.creatures))
    crows = []
    for cid in ids:
        for s in summaries:
            c = s.creatures.get(cid)
            if c is None:
                continue
            crows.append([cid, s.label or "all fights", _pc(c["standing"]), _pc(c["dying_or_stable"]), _pc(c["dead"]),
                          _g(c["mean_hp"]), _g(c["kills"]), _g(c["squeezing_rounds"]), _g(c["nauseated_rounds"])])
    body = [f"<h1>{R.esc(title)}</h1>", *_html_warnings(summaries, labels),
            f"<p>{R.esc(meta.get('encounter', ''))}: {meta.get('runs')} fights per variant from seed {meta.get('seed')}"
            f"{'; records in <code>' + R.esc(meta['records']) + '</code>' if meta.get('records') else ''}.</p>",
            *_html_odds(summaries, labels),
            "<h2>Outcomes</h2>", R.html_table(head, rows), R.img_tag(out["win_rates.png"], "win rates"), R.img_tag(out["rounds.png"], "rounds"),
            "<h2>Creatures</h2>",
            R.html_table(["creature", "variant", "standing at the end", "dying or stable", "dead (dispersed)", "mean hp",
                          "kills / fight", "rounds squeezing", "rounds nauseated"], crows),
            "<p class='muted'>A creature at −1 to −9 hp when the fight stops is dying (or stable), not standing; "
            "dead at −10. Swarms disperse at 0.</p>",
            "<h2>Heat maps</h2>"]
    body += [f"<figure>{R.img_tag(out[k], k)}<figcaption>{R.esc(lab)}: {R.esc(what)}</figcaption></figure>"
             for k, lab, what in pics]
    out["summary.html"] = R.html_page(title, "\n".join(body))
    return out


def _html_warnings(summaries, labels) -> list[str]:
    out = []
    for s, lab in zip(summaries, labels):
        st = s.stalled
        if st and st.get("share") and st["share"] > 0.5:
            who = []
            for w in st["who"]:
                bits = []
                if w["squeezing_rounds"]:
                    bits.append(f"{_g(w['squeezing_rounds'])} rounds squeezing or crawling")
                if w["nauseated_rounds"]:
                    bits.append(f"{_g(w['nauseated_rounds'])} rounds nauseated")
                if w["at"]:
                    bits.append("still up at " + ", ".join(f"{a['square']} ({a['fights']})" for a in w["at"]))
                if bits:
                    who.append(f"<li>{R.esc(w['id'])}: {R.esc('; '.join(bits))}</li>")
            out.append(f"<p class='no'>{R.esc(lab)}: {st['fights']} of {s.fights} fights hit the round cap "
                       "(neither side finished the other). Who was stalled where:</p><ul>" + "".join(who) + "</ul>")
    return out


def _html_odds(summaries, labels) -> list[str]:
    """The DM's odds: the party's chances side by side, then per member, then lost fights to replay."""
    if not any(s.party for s in summaries):
        return []
    team = next(s.party["team"] for s in summaries if s.party)
    rows = []
    for key, text in (("at_least_one_dead", "at least one PC dies"), ("tpk", "total party kill (every PC dead)"),
                      ("none_standing", "no PC left standing")):
        rows.append([text, *[share_text(s.party.get(key)) for s in summaries]])
    rows.append(["PCs down (dying, stable, asleep…), expected", *[_g(s.party.get("expected_down")) for s in summaries]])
    rows.append(["PCs dead, expected", *[_g(s.party.get("expected_dead")) for s in summaries]])
    rows.append(["hit points lost in all", *[_g(s.party.get("total", {}).get("hp_lost")) for s in summaries]])
    rows.append(["spells cast in all", *[_g(s.party.get("total", {}).get("spells")) for s in summaries]])
    rows.append(["consumables used in all", *[_items_text(s.party.get("total", {}).get("used", {})) for s in summaries]])
    parts = [f"<h2>The DM's odds ({R.esc(team)})</h2>",
             "<p class='muted'>Shares of fights with their 95% Wilson intervals; means per fight.</p>",
             R.html_table(["", *labels], rows)]
    for s, lab in zip(summaries, labels):
        p = s.party
        if not p:
            continue
        mrows = [[cid, _pc(m["standing"]), _pc(m["dying_or_stable"]), _pc(m["down_other"]), _pc(m["dead"]),
                  _g(m["hp_lost"]), _g(m["spells"]), _items_text(m["used"])] for cid, m in p["per_member"].items()]
        parts.append(f"<h3>{R.esc(lab) + ': e' if len(labels) > 1 else 'E'}ach member (mean per fight)</h3>")
        parts.append(R.html_table(["member", "standing", "dying or stable", "unconscious / asleep", "dead",
                                   "hp lost", "spells cast", "consumables used"], mrows))
        if p["replays"]:
            items = "".join(
                f"<li>fight {rp['index']} ({R.esc(rp['winner'] + ' win' if rp['winner'] else str(rp['reason']))}, "
                f"round {rp['rounds']}{', dead: ' + R.esc(', '.join(rp['dead'])) if rp['dead'] else ''}): "
                f"<code>{R.esc(rp['command'])}</code></li>" for rp in p["replays"])
            parts.append(f"<p>{p['lost']} of {p['fights']} fights lost; three representative ones "
                         f"(the 25th, 50th and 75th percentile of their length) to replay:</p><ul>{items}</ul>")
        else:
            parts.append("<p>No fight lost.</p>")
    return parts


def _nz(v: float) -> float:
    return 0.0 if isinstance(v, float) and math.isnan(v) else v


def _g(v) -> str:
    return "-" if v is None else f"{v:.2f}".rstrip("0").rstrip(".")


def _pc(v) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"
