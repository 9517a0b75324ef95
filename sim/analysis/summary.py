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

    def to_json(self) -> dict:
        def share(t):
            return {"count": t[0], "rate": _f(t[1]), "low": _f(t[2]), "high": _f(t[3])}

        return {"variant": self.label, "fights": self.fights, "errors": self.errors,
                "wins": {t: share(v) for t, v in self.wins.items()}, "draws": share(self.draws),
                "rounds": {k: _f(v) for k, v in self.rounds.items()},
                "rounds_histogram": {str(k): v for k, v in sorted(self.rounds_hist.items())},
                "creatures": self.creatures, "first_errors": self.first_errors}


def _f(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else round(float(v), 4)


def teams_of(columns: list[str]) -> list[str]:
    return [c.split(".", 1)[1] for c in columns if c.startswith("alive.")]


def creatures_of(columns: list[str]) -> list[str]:
    return [c.split(".", 1)[1] for c in columns if c.startswith("hp.")]


def summarize(records: list[dict], labels: list[str], columns: list[str], shape: tuple[int, int]) -> list[VariantSummary]:
    """One summary per variant (in ``labels`` order)."""
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
            s.creatures[cid] = {
                "fights": m,
                "standing": _f(up / m), "alive": _f(alive / m),
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
    console.print(t)
    for s in summaries:
        for e in s.first_errors[:3]:
            console.print(f"error in fight {e['index']} (seed {e['seed']}){' of ' + s.label if s.label else ''}: "
                          f"{e['error']}", highlight=False, markup=False)


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
                                   cmap=cmap, background=bg, zero_clear=True, marks=dict(grid.points), pal=pal)
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
            crows.append([cid, s.label or "all fights", _pc(c["standing"]), _pc(c["alive"]), _g(c["mean_hp"]), _g(c["kills"]),
                          _g(c["squeezing_rounds"]), _g(c["nauseated_rounds"])])
    body = [f"<h1>{R.esc(title)}</h1>",
            f"<p>{R.esc(meta.get('encounter', ''))}: {meta.get('runs')} fights per variant from seed {meta.get('seed')}"
            f"{'; records in <code>' + R.esc(meta['records']) + '</code>' if meta.get('records') else ''}.</p>",
            R.html_table(head, rows), R.img_tag(out["win_rates.png"], "win rates"), R.img_tag(out["rounds.png"], "rounds"),
            "<h2>Creatures</h2>",
            R.html_table(["creature", "variant", "standing at the end", "alive", "mean hp", "kills / fight",
                          "rounds squeezing", "rounds nauseated"], crows),
            "<h2>Heat maps</h2><div class='grid'>"]
    body += [f"<figure>{R.img_tag(out[k], k)}<figcaption>{R.esc(lab)}: {R.esc(what)}</figcaption></figure>"
             for k, lab, what in pics]
    body.append("</div>")
    out["summary.html"] = R.html_page(title, "\n".join(body))
    return out


def _nz(v: float) -> float:
    return 0.0 if isinstance(v, float) and math.isnan(v) else v


def _g(v) -> str:
    return "-" if v is None else f"{v:.2f}".rstrip("0").rstrip(".")


def _pc(v) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"
