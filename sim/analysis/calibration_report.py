"""The calibration's numbers, per rung and per encounter, with 95% intervals; its picture and page.

Per fight (a batch record, :mod:`sim.analysis.batch`), for the party (team ``party``):

* **win**: the party is the winner;
* **hp spent**: hit points lost (down to 0, healing counted back) over the party's total;
* **spells**: spells cast over the spells the party had prepared; **items**: consumables and
  thrown weapons used (potions, flasks, javelins...: the records' ``used`` columns);
* **a PC dies**: some member ends the fight dead (-10 hp or below);
* **TPK**: the monsters win (no member of the party left in the fight: down, dead, paralysed or
  engulfed) [PD: monsters left standing over a fallen party finish it]; a fight that reaches the
  round cap is neither a win nor a TPK;
* **rounds**; **blunders**: the AI's blunders per fight, by kind, both sides
  (:mod:`sim.analysis.blunders`).

Intervals (95%): Wilson's score interval for proportions; for means, Student's t interval
(``mean +- t(0.975, n - 1) s / sqrt(n)``); the median hit points spent is given without one.
"""

from __future__ import annotations

import base64
import html
import io
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from sim.analysis import blunders, ladder
from sim.analysis.calibrate import EL_ABOVE, EL_BELOW, MONSTER_TEAM, PARTY_TEAM, Rung

Z95 = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval of ``k`` successes in ``n``.

    >>> [round(v, 4) for v in wilson(8, 10)], wilson(0, 0)
    ([0.4902, 0.9433], (0.0, 1.0))
    """
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + Z95 ** 2 / n
    mid = (p + Z95 ** 2 / (2 * n)) / den
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / den
    return (0.0 if k == 0 else max(0.0, mid - half)), (1.0 if k == n else min(1.0, mid + half))


def mean_t(values: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% t interval (the mean itself twice with fewer than two values).

    >>> [round(v, 3) for v in mean_t([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(np.mean(values))
    if n < 2:
        return m, m, m
    half = float(stats.t.ppf(0.975, n - 1)) * float(np.std(values, ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


@dataclass(frozen=True, slots=True)
class Fight:
    """One fight's numbers (see the module docstring)."""

    win: bool
    hp_spent: float
    spells: float
    items: int
    pc_died: bool
    tpk: bool
    rounds: int
    blunders: dict


def fight_numbers(rec: dict, prepared: dict[str, int]) -> Fight | None:
    """A record's numbers (None for a fight that raised)."""
    if rec.get("error"):
        return None
    lost = total = 0
    cast = items = 0
    died = False
    for cid in prepared:
        mx = int(rec.get(f"maxhp.{cid}") or 0)
        hp = int(rec.get(f"hp.{cid}") or 0)
        total += mx
        lost += mx - min(mx, max(0, hp))
        cast += int(rec.get(f"spells.{cid}") or 0)
        items += sum(int(p.partition(":")[2] or 0) for p in str(rec.get(f"used.{cid}") or "").split("|") if p)
        died = died or rec.get(f"state.{cid}") == "dead"
    slots = sum(prepared.values())
    bl = {k: sum(int(rec.get(f"blunder.{k}.{t}") or 0) for t in (PARTY_TEAM, MONSTER_TEAM)) for k in blunders.KINDS}
    return Fight(win=rec.get("winner") == PARTY_TEAM, hp_spent=lost / total if total else 0.0,
                 spells=cast / slots if slots else 0.0, items=items, pc_died=died,
                 tpk=rec.get("winner") == MONSTER_TEAM,
                 rounds=int(rec.get("rounds") or 0), blunders=bl)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: a rung (all its encounters) or one encounter of it."""

    level: int
    el: int
    what: str            # "all" for the rung, else the encounter's label
    n: int
    errors: int
    win: tuple[float, float, float]          # rate, low, high
    pc_dies: tuple[float, float, float]
    tpk: tuple[float, float, float]
    hp_spent: tuple[float, float, float]     # mean, low, high
    hp_median: float
    spells: tuple[float, float, float]
    items: tuple[float, float, float]
    rounds: tuple[float, float, float]
    blunders: dict                           # kind -> mean per fight

    def to_json(self) -> dict:
        def trio(t):
            return {"value": _num(t[0]), "low": _num(t[1]), "high": _num(t[2])}

        return {"level": self.level, "el": self.el, "encounter": self.what, "fights": self.n, "errors": self.errors,
                "difficulty": ladder.difficulty(self.el, self.level), "dmg_cost": ladder.dmg_cost(self.el, self.level),
                "win": trio(self.win), "pc_dies": trio(self.pc_dies), "tpk": trio(self.tpk),
                "hp_spent": trio(self.hp_spent), "hp_spent_median": _num(self.hp_median),
                "spells_spent": trio(self.spells), "items_used": trio(self.items), "rounds": trio(self.rounds),
                "blunders_per_fight": {k: _num(v) for k, v in self.blunders.items()}}


def _num(v: float):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else round(float(v), 4)


def _prop(flags: list[bool]) -> tuple[float, float, float]:
    k, n = sum(flags), len(flags)
    lo, hi = wilson(k, n)
    return (k / n if n else math.nan), lo, hi


def row(level: int, el: int, what: str, fights: list[Fight], errors: int) -> Row:
    return Row(level, el, what, len(fights), errors,
               win=_prop([f.win for f in fights]), pc_dies=_prop([f.pc_died for f in fights]),
               tpk=_prop([f.tpk for f in fights]), hp_spent=mean_t([f.hp_spent for f in fights]),
               hp_median=float(np.median([f.hp_spent for f in fights])) if fights else math.nan,
               spells=mean_t([f.spells for f in fights]), items=mean_t([float(f.items) for f in fights]),
               rounds=mean_t([float(f.rounds) for f in fights]),
               blunders={k: (float(np.mean([f.blunders[k] for f in fights])) if fights else math.nan)
                         for k in blunders.KINDS})


def table(records: list[dict], ladder_rungs: list[Rung], prepared: dict[int, dict[str, int]]) -> list[Row]:
    """The rows: for each rung (level, EL) its pooled row (``what`` = "all"), then one per encounter."""
    by_label: dict[str, list[dict]] = {}
    for r in records:
        by_label.setdefault(str(r.get("variant", "")), []).append(r)
    out: list[Row] = []
    keys = list(dict.fromkeys((r.level, r.el) for r in ladder_rungs))
    for level, el in keys:
        pooled: list[Fight] = []
        errors = 0
        per: list[Row] = []
        for rg in (r for r in ladder_rungs if (r.level, r.el) == (level, el)):
            recs = by_label.get(rg.label, [])
            fights = [f for rec in recs if (f := fight_numbers(rec, prepared[level])) is not None]
            bad = len(recs) - len(fights)
            errors += bad
            pooled += fights
            per.append(row(level, el, rg.label, fights, bad))
        out.append(row(level, el, "all", pooled, errors))
        out += per
    return out


def off_ladder(rows: list[Row]) -> list[str]:
    """The encounters whose party win rate or hit points spent are off what the DMG's words
    expect of their rung (the issue's bands, docs/calibration.md): at EL <= L the party should
    win at least 85% and, at EL = L, spend 10-35% of its hit points (median); at EL >= L + 4 it
    should win at most 80% [PD]. One line each, naming the encounter and the numbers."""
    out = []
    for r in rows:
        if r.what == "all" or r.n == 0:
            continue
        d = r.el - r.level
        win, med = r.win[0], r.hp_median
        if d <= 0 and r.win[2] < 0.85:
            out.append(f"{r.what}: too hard for EL {r.el} (the party wins {win:.0%}, 95% up to {r.win[2]:.0%})")
        elif d == 0 and not 0.10 <= med <= 0.35:
            out.append(f"{r.what}: costs {med:.0%} of the party's hit points (median), the DMG's rung 10-35%")
        elif d >= 4 and r.win[1] > 0.80:
            out.append(f"{r.what}: too easy for EL {r.el} (the party wins {win:.0%}, 95% from {r.win[1]:.0%})")
    return out


# =================================================================================================
# Text, picture, page
# =================================================================================================

HEAD = ("L", "EL", "encounter", "n", "win %", "PC dies %", "TPK %", "hp spent %", "median hp %", "spells %",
        "items", "rounds", "blunders/fight")


def _pct(t) -> str:
    return "-" if math.isnan(t[0]) else f"{100 * t[0]:.0f} [{100 * t[1]:.0f}-{100 * t[2]:.0f}]"


def _avg(t) -> str:
    return "-" if math.isnan(t[0]) else f"{t[0]:.1f} [{t[1]:.1f}-{t[2]:.1f}]"


def cells(r: Row) -> list[str]:
    bl = sum(v for v in r.blunders.values() if not math.isnan(v))
    return [str(r.level), str(r.el), "all" if r.what == "all" else r.what.split(" ", 2)[2], str(r.n),
            _pct(r.win), _pct(r.pc_dies), _pct(r.tpk), _pct(r.hp_spent),
            "-" if math.isnan(r.hp_median) else f"{100 * r.hp_median:.0f}", _pct(r.spells), _avg(r.items),
            _avg(r.rounds), f"{bl:.2f}"]


def markdown(rows: list[Row], *, rungs_only: bool = False) -> str:
    """The table as Markdown (docs/calibration.md): every rung, and its encounters unless ``rungs_only``."""
    lines = ["| " + " | ".join(HEAD) + " |", "|" + "---|" * len(HEAD)]
    for r in rows:
        if rungs_only and r.what != "all":
            continue
        c = cells(r)
        if r.what == "all":
            c = [f"**{x}**" for x in c]
        lines.append("| " + " | ".join(c) + " |")
    return "\n".join(lines) + "\n"


def picture(rows: list[Row]) -> bytes:
    """The ladder (PNG): per level, the party's win rate and hit points spent against EL - L with
    95% intervals, beside the DMG's line (20% of resources at EL = L, doubling every two ELs) and
    the issue's bands (win >= 85% at EL = L; 20-80% at EL = L + 4)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.2), dpi=110)
    FigureCanvasAgg(fig)
    ax_w, ax_h = fig.subplots(1, 2)
    pooled = [r for r in rows if r.what == "all" and r.n]
    levels = sorted({r.level for r in pooled})
    xs = np.arange(-EL_BELOW, EL_ABOVE + 1)
    ax_h.plot(xs, [100 * min(1.0, 0.2 * 2 ** (d / 2)) for d in xs], "k--", label="DMG: 20% at EL = L, x2 per +2 EL")
    ax_w.axhspan(85, 100, xmin=0, xmax=1, color="0.92")
    ax_w.plot([0], [85], "k_", markersize=14)
    ax_w.vlines([4], 20, 80, colors="k", linewidth=5, alpha=0.25, label="issue 31: 20-80% at EL = L+4")
    for k, lv in enumerate(levels):
        rs = [r for r in pooled if r.level == lv]
        d = np.array([r.el - r.level for r in rs]) + (k - (len(levels) - 1) / 2) * 0.12
        for ax, get in ((ax_w, lambda r: r.win), (ax_h, lambda r: r.hp_spent)):
            v = np.array([100 * get(r)[0] for r in rs])
            lo = np.array([100 * max(0.0, get(r)[1]) for r in rs])
            hi = np.array([100 * min(1.0, get(r)[2]) for r in rs])
            ax.errorbar(d, v, yerr=[np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)], marker="o", capsize=3, label=f"party level {lv}")
    ax_w.set(title="Party wins", xlabel="EL - party level", ylabel="% of fights", ylim=(-3, 103))
    ax_h.set(title="Hit points spent (mean)", xlabel="EL - party level", ylabel="% of the party's hit points",
             ylim=(-3, 103))
    for ax in (ax_w, ax_h):
        ax.set_xticks(xs)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight", pad_inches=0.08)
    return buf.getvalue()


def page(rows: list[Row], png: bytes, *, title: str, command: str, notes: list[str]) -> str:
    """The HTML report: one self-contained page (the picture embedded)."""
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in HEAD)
    body = []
    for r in rows:
        style = ' style="font-weight:bold;background:#eef"' if r.what == "all" else ""
        body.append(f"<tr{style}>" + "".join(f"<td>{esc(c)}</td>" for c in cells(r)) + "</tr>")
    off = "".join(f"<li>{esc(n)}</li>" for n in notes) or "<li>none</li>"
    img = base64.b64encode(png).decode()
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{esc(title)}</title>"
            "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;font-size:12px}"
            "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td:nth-child(3){text-align:left}</style>"
            f"</head><body><h1>{esc(title)}</h1><p><code>{esc(command)}</code></p>"
            f"<img alt='the ladder' src='data:image/png;base64,{img}'>"
            "<p>Proportions: Wilson 95% intervals; means: Student's t 95% intervals. Blunders: the AI's, both sides, "
            "per fight (docs/rules.md §13).</p>"
            f"<h2>Off the ladder</h2><ul>{off}</ul><table><tr>{head}</tr>{''.join(body)}</table></body></html>\n")
