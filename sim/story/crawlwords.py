"""The crawl in words (part of :class:`~sim.view.crawlplan.CrawlPlan`): the caption at any
moment, each timeline entry as a sentence for the journey log, the outcome, names of members and
groups, and crawl time as a clock.

>>> clock(42), join_names(["Bruna", "Lidda"])
('4:12', 'Bruna and Lidda')
"""

from __future__ import annotations

from sim.crawl.run import light_words, notice_words
from sim.rules.categories import Category, effects


def clock(rounds: float) -> str:
    """Crawl time as minutes:seconds (a round is 6 seconds).

    >>> clock(0), clock(10.5), clock(42)
    ('0:00', '1:03', '4:12')
    """
    seconds = int(round(max(0.0, rounds) * 6))
    return f"{seconds // 60:d}:{seconds % 60:02d}"


def join_names(names: list[str]) -> str:
    """
    >>> join_names(["Bruna"]), join_names(["Bruna", "Lidda"]), join_names(["A", "B", "C"])
    ('Bruna', 'Bruna and Lidda', 'A, B and C')
    """
    names = [n for n in names if n]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class CrawlWords:
    """Captions and sentences of a CrawlPlan (uses its result, spec, grid, route, timeline, party,
    labels, total, ``segment_at`` and ``waiting_for``)."""

    def name(self, cid: str) -> str:
        return self.labels.get(cid, cid)

    def names(self, ids) -> str:
        ids = list(ids)
        if set(ids) >= set(self.party) and len(self.party) > 1:
            return "The party"
        return join_names([self.name(c) for c in ids])

    def goal(self) -> str:
        """The goal in words: 'the lair' for a named point, else its square."""
        name = self.spec.goal_name
        return f"the {name}" if name and name in self.grid.points else str(tuple(self.spec.goal))

    def origin(self) -> str:
        name = self.spec.start_name
        return f"the {name}" if name and name in self.grid.points else str(tuple(self.spec.start))

    def group_names(self, ids) -> str:
        """'4 kobolds', or the names."""
        ids = list(ids)
        base = {self.labels.get(c, c).rstrip("0123456789 ") for c in ids}
        if len(ids) > 1 and len(base) == 1:
            return f"{len(ids)} {next(iter(base)).lower()}s"
        return join_names([self.name(c) for c in ids])

    def entry_text(self, i: int) -> str:
        """A timeline entry in words, for the caption and the log."""
        e = self.timeline[i]
        d = e.detail
        who = self.names(e.who)
        many = len(e.who) > 1 and who != "The party"
        rounds = f"{e.rounds:g} round{'s' if e.rounds != 1 else ''}"
        sq = d.get("squares", 0)
        squares = f"{sq} square{'s' if sq != 1 else ''}"
        if e.what == "walk":
            return f"{who} walk{'' if many else 's'} {squares} ({rounds})"
        if e.what == "single_file":
            return f"Single file through the passage: {squares}, {rounds}"
        if e.what in ("crawl", "awkward", "tight"):
            crawlers = [c for c, cats in d.get("categories", {}).items() if "CRAWL" in cats]
            place = {"crawl": "the crawlway",
                     "awkward": f"the squeeze (awkward space, Escape Artist DC {effects(Category.AWKWARD).escape_dc})",
                     "tight": f"the tight squeeze (Escape Artist DC {effects(Category.TIGHT_SQUEEZE).escape_dc})"}[e.what]
            text = f"{'Single file through' if many else 'Through'} {place}: {squares}, {rounds}"
            if e.what == "crawl" and crawlers and len(crawlers) < len(e.who):
                text += f"; {join_names([self.name(c) for c in crawlers])} crawl{'s' if len(crawlers) == 1 else ''}"
            checks = d.get("checks") or {}
            tries = {c: sum(x["tries"] for x in v) for c, v in checks.items() if v}
            if tries:
                text += "; " + ", ".join(f"{self.name(c)} {n:g} tr{'y' if n == 1 else 'ies'}" for c, n in tries.items())
            return text
        if e.what in ("light", "light_out"):
            return light_words(who, e.what, d)
        if e.what == "noticed":
            return notice_words(d, self.name)
        if e.what == "armor_off":
            return f"{who} takes off the {d.get('armor', 'armour')} ({d.get('minutes', 0):g} min{', helped' if d.get('helped') else ''})"
        if e.what == "armor_on":
            return f"{who} puts the {d.get('armor', 'armour')} back on ({d.get('minutes', 0):g} min{', helped' if d.get('helped') else ''})"
        if e.what == "keep_armor_off":
            return f"{who} keep{'' if many else 's'} the armour off: {d.get('reason', '')}"
        if e.what == "wait":
            return f"{who} wait{'' if many else 's'} for {self.name(d.get('for', ''))}"
        if e.what == "left_behind":
            return f"{who} {'are' if many else 'is'} left behind: {d.get('reason', '')}"
        if e.what == "encounter":
            monsters = d.get("monsters", [])
            head = (f"FIGHT! {self.group_names(monsters)} notice{'' if len(monsters) > 1 else 's'} the party at "
                    f"{tuple(e.at)}")
            if d.get("armor_off"):
                head += f"; armour off: {join_names([self.name(c) for c in d['armor_off']])}"
            return head
        if e.what == "arrive":
            return f"{who} arrive{'' if many else 's'} at {self.goal()}"
        if e.what == "stand_up":
            return f"{who} stand{'' if many else 's'} up"
        return f"{who}: {e.what.replace('_', ' ')}"

    def caption(self, s: float) -> str:
        """What the caption says at screen time ``s`` (fights: the renderer's own)."""
        g = self.segment_at(s)
        if g.kind == "intro":
            sq = len(self.route) - 1
            return (f"From {self.origin()} to {self.goal()}: {sq} squares ({sq * 5} ft); marching order "
                    f"{', '.join(self.name(c) for c in self.party)}")
        if g.kind == "outro":
            return self.outcome()
        if g.kind == "regroup" and 0 <= g.fight < len(self.result.fights):
            f = self.result.fights[g.fight]
            if f["winner"] == "party":
                return f"The party wins after {f['rounds']} rounds and goes on towards {self.goal()}"
            return f"The party loses after {f['rounds']} rounds"
        if not g.entries:
            return "On the way"
        parts = [self.entry_text(i) for i in g.entries[:1]]
        if len(g.entries) > 1 and g.kind == "dress":
            parts = ["; ".join(self.entry_text(i) for i in g.entries)]
        w = self.waiting_for(s)
        if w is not None:
            who, whom = w
            parts.append(f"{join_names([self.name(c) for c in who])} wait{'' if len(who) > 1 else 's'} for {self.name(whom)}")
        return "  ·  ".join(parts)

    def outcome(self) -> str:
        r = self.result
        if r.arrived:
            who = self.names(r.arrived)
            return f"{who} reach{'' if len(r.arrived) > 1 and who != 'The party' else 'es'} {self.goal()} after " \
                   f"{clock(self.total)} ({self.total:g} rounds)"
        return f"No one reaches {self.goal()}"
