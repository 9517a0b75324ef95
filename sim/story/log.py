"""Readable fight logs made from events (events carry numbers and ids; prose is made here).

>>> from sim.engine.events import Attack
>>> e = Attack(round=1, actor="bruna", target="goblin-1", weapon="longsword", roll=14,
...            modifiers={"base_attack": 3, "str": 3, "narrow_or_low": -4}, total=16, ac=15,
...            ac_modifiers={"base": 10, "armor": 2, "shield": 1, "dex": 1, "size": 1}, hit=True, critical=False)
>>> Narrator({"bruna": "Bruna", "goblin-1": "goblin"}).line(e)
'Bruna, longsword vs goblin: d20 14 +3 BAB +3 Str −4 narrow-or-low = 16 vs AC 15: hit'
"""

from __future__ import annotations

from typing import Iterable

from sim.engine import events as ev

_MOD_NAMES = {
    "base_attack": "BAB", "str": "Str", "dex": "Dex", "strength": "Str", "dexterity": "Dex", "size": "size",
    "weapon_focus": "Weapon Focus", "enhancement": "enhancement", "iterative": "iterative",
    "narrow_or_low": "narrow-or-low", "narrow_and_low": "narrow-and-low", "crawl": "crawl",
    "awkward": "awkward space", "tight_squeeze": "tight squeeze", "prone": "prone", "flanking": "flanking",
    "charge": "charge", "range": "range", "firing_into_melee": "into melee", "bless": "bless",
    "helpless_target": "helpless target", "improvised": "improvised", "nonproficient": "nonproficient",
    "strength_damage": "Str damage", "dexterity_damage": "Dex damage", "cover": "cover", "base": "base",
    "armor": "armor", "shield": "shield", "natural": "natural", "dodge": "dodge", "deflection": "deflection",
    "charged": "charged", "intersection": "intersection",
    "escape_artist": "skill", "improved_grapple": "Improved Grapple", "grappling": "grappling",
}


def _signed(v: int) -> str:
    return f"−{-v}" if v < 0 else f"+{v}"


def mod_words(mods: dict) -> str:
    return " ".join(f"{_signed(v)} {_MOD_NAMES.get(k, k.replace('_', ' '))}" for k, v in mods.items() if v)


def ac_words(mods: dict) -> str:
    parts = []
    for k, v in mods.items():
        if k.startswith("no_dex:"):
            parts.append(f"no Dex ({k.split(':', 1)[1].replace('_', ' ')})")
        elif v and k != "base":
            parts.append(f"{_signed(v)} {_MOD_NAMES.get(k, k.replace('_', ' '))}")
    return ", ".join(parts)


_THING_NAMES = {"alchemists-fire": "alchemist's fire"}


def thing(key: str) -> str:
    """A weapon or item key as words: "light-crossbow" -> "light crossbow", "alchemists-fire" ->
    "alchemist's fire"."""
    return _THING_NAMES.get(key) or key.replace("-", " ")


def article(word: str) -> str:
    """ "a" or "an" before ``word`` (by its first letter: "an Ogre", "a goblin")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


_PLURAL_VERBS = {"does": "do", "has": "have", "is": "are", "dies": "die"}


def plural_verb(verb: str) -> str:
    """The plural of a third-person singular verb: "engulfs" -> "engulf", "does" -> "do"."""
    if verb in _PLURAL_VERBS:
        return _PLURAL_VERBS[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "zes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def is_plural_name(name: str, *, swarm: bool = False) -> bool:
    """A name that takes a plural verb: a swarm named in the plural ("Rats", "Bats"), or a team
    whose name is a plural ("monsters"; "party" is one)."""
    return name.endswith("s") and not name.endswith("ss") and (swarm or " " not in name.strip())


def display_names(combatants) -> dict[str, str]:
    """id -> the name to show: the creature's name when it is unique, else its id."""
    rows = [(c["id"], c["name"]) if isinstance(c, dict) else (c.id, c.name) for c in combatants]
    counts: dict[str, int] = {}
    for _, name in rows:
        counts[name] = counts.get(name, 0) + 1
    return {cid: (name if counts[name] == 1 else cid) for cid, name in rows}


class Narrator:
    """Turns events into lines of text. ``names`` maps ids to display names."""

    def __init__(self, names: dict[str, str] | None = None):
        self.names = dict(names or {})
        self._moving: tuple[str, str] | None = None   # (actor, action) of the move under way this turn
        self.plural: set[str] = set()        # ids named in the plural (a swarm called "Rats")
        self.pronoun: dict[str, str] = {}    # id -> "his" / "her" (a creature with a sex), else "its"

    def sv(self, cid: str | None, verb: str) -> str:
        """The subject and its verb agreeing: "Rats engulf", "Bruna engulfs"."""
        if cid not in self.plural:
            return f"{self.n(cid)} {verb}"
        first, sp, rest = verb.partition(" ")   # "moves (double)" -> "move (double)"
        return f"{self.n(cid)} {plural_verb(first)}{sp}{rest}"

    def its(self, cid: str | None) -> str:
        return "their" if cid in self.plural else self.pronoun.get(cid or "", "its")

    def n(self, cid: str | None) -> str:
        if not cid:
            return "-"
        return self.names.get(cid, cid)

    def line(self, e: ev.Event) -> str | None:
        """The line for one event, or None for events that have none (turn start and end,
        swarm shapes): :data:`LINES` says which method tells which event."""
        if e.type in ("turn_start", "turn_end", "round_start"):
            self._moving = None
        m = LINES.get(type(e))
        return m(self, e) if m else None

    def lines(self, events: Iterable[ev.Event]) -> list[str]:
        out = []
        for e in events:
            s = self.line(e)
            if s is not None:
                out.append(s)
        return out

    # -- one method per event type (the table LINES below) ------------------------------------------------------------------
    def _encounter_start(self, e: ev.EncounterStart) -> str:
        for cid, name in display_names(e.combatants).items():
            self.names.setdefault(cid, name)
        for c in e.combatants:
            if is_plural_name(self.n(c["id"]), swarm=bool(c.get("swarm"))) and c.get("swarm"):
                self.plural.add(c["id"])
            if c.get("sex") in ("male", "female"):
                self.pronoun[c["id"]] = "his" if c["sex"] == "male" else "her"
        sides: dict[str, list[str]] = {}
        for c in e.combatants:
            sides.setdefault(c["team"], []).append(self.n(c["id"]))
        return f"{e.map} (seed {e.seed}): " + " vs ".join(f"{t}: {', '.join(ns)}" for t, ns in sides.items())

    def _initiative(self, e: ev.Initiative) -> str:
        return "Initiative: " + ", ".join(f"{self.n(o['id'])} {o['total']}" for o in e.order)

    def _round_start(self, e: ev.RoundStart) -> str:
        return f"— Round {e.round} —"

    def _moved(self, e: ev.Moved) -> str:
        if e.action in ("swallowed", "engulfed", "came_out"):
            return None   # its own event says it (docs/rules.md §11.13)
        if not e.path:
            return f"{self.sv(e.actor, 'does')} not get anywhere"
        if e.action == "pushed":
            return f"  {self.sv(e.actor, 'is')} pushed aside to {tuple(e.path[-1]['at'])}"
        kinds = {s["kind"] for s in e.path}
        cats = sorted({s["category"].replace("_", " ").lower() for s in e.path if s["category"] != "CLEAR"})
        end = tuple(e.path[-1]["at"])
        verb = {"five_foot_step": "steps", "charge": "charges", "withdraw": "withdraws", "double_move": "moves (double)",
                "run": "runs", "engulf": "rolls over", "dragged": "is dragged"}.get(e.action, "moves")
        if self._moving == (e.actor, e.action) and e.action in ("double_move", "withdraw", "run"):
            verb = "moves on"   # the same move, taken up again after an interruption (an attack of opportunity)
        self._moving = (e.actor, e.action)
        if "crawl" in kinds:
            verb = "crawls"
        feet = sum(s["feet"] for s in e.path)
        extra = f" through {', '.join(cats)}" if cats else ""
        n = len(e.path)
        return (f"{self.sv(e.actor, verb)} {n} square{'s' if n != 1 else ''} to {end} ({feet} ft){extra}"
                + (" prone" if e.prone else ""))

    def _check(self, e: ev.Check) -> str:
        what = e.skill.replace("_", " ").title()
        return (f"{self.n(e.actor)}, {what} DC {e.dc} ({e.cause.replace('_', ' ')}): d20 {e.roll} {_signed(e.modifier)} "
                f"= {e.total}: {'success' if e.success else 'failure'}")

    def _attack(self, e: ev.Attack) -> str:
        kind = {"opportunity": " (attack of opportunity)", "charge": " (charge)", "ranged_touch": " (ranged touch)",
                "touch": " (touch)"}.get(e.kind, "")
        if e.guessed and not e.target:  # a guessed square with nobody in it (RULES §9.2)
            return (f"{self.n(e.actor)}, {thing(e.weapon)}{kind} at ({e.at[0]}, {e.at[1]}), a guess in the dark: "
                    "nobody there, a miss")
        target = f" vs {self.n(e.target)}" if e.target else ""
        if e.guessed:
            target += f" (a guess at ({e.at[0]}, {e.at[1]}))"
        s = (f"{self.n(e.actor)}, {thing(e.weapon)}{target}{kind}: d20 {e.roll} {mod_words(e.modifiers)} = {e.total} "
             f"vs AC {e.ac}")
        acw = ac_words(e.ac_modifiers)
        if acw and any(k.startswith("no_dex") or k in ("prone", "cover", "charged", "tight_squeeze", "pinned")
                       for k in e.ac_modifiers):
            s += f" ({acw})"
        where = "in the dark" if e.concealment == "total" else "in the shadows"
        if e.hit:
            s += ": critical hit" if e.critical else ": hit"
            if e.miss_roll is not None:
                s += f" ({e.miss_chance}% miss chance {where}: rolled {e.miss_roll})"
        elif e.miss_roll is not None:
            s += f": hit, but misses {where} ({e.miss_chance}%: rolled {e.miss_roll})"
        else:
            s += ": miss"
        if e.threat and not e.critical:
            s += " (threat not confirmed)"
        return s

    def _damage(self, e: ev.Damage) -> str:
        parts = ", ".join(f"{v} {k}" for k, v in e.parts.items())
        adj = ""
        shown = {k: v for k, v in e.adjustments.items() if v}
        if shown:
            adj = " [" + ", ".join(f"{k.replace('_', ' ')} {_signed(v)}" for k, v in shown.items()) + "]"
        who = f"{self.n(e.source)} → " if e.source and e.cause not in ("weapon",) else ""
        tail = "nonlethal" if e.nonlethal else f"hp {e.hp_before} → {e.hp_after}"
        return f"  {who}{self.sv(e.target, 'takes')} {e.amount} ({parts}){adj}, {tail}"

    def _healed(self, e: ev.Healed) -> str:
        return f"  {self.sv(e.target, 'heals')} {e.amount} (hp {e.hp_after})"

    def _save(self, e: ev.Save) -> str:
        return (f"  {self.n(e.target)}, {e.save.title()} save DC {e.dc} vs {e.cause.replace('_', ' ')}: "
                f"d20 {e.roll} {_signed(e.modifier)} = {e.total}: {'saved' if e.success else 'failed'}")

    def _condition(self, e: ev.Condition) -> str | None:
        if e.condition in ("flat_footed",):
            return None
        if e.condition == "ability_damage":
            d = e.detail
            return f"  {self.sv(e.target, 'takes')} {d.get('amount')} {str(d.get('ability', '')).title()} damage"
        if e.condition == "stuck" and "strand_damage" in e.detail:   # a roper's strand cut (docs/rules.md §11.15)
            return (f"  the strand holding {self.n(e.target)} takes {e.detail['strand_damage']} "
                    f"({e.detail['strand_hp']} hp left)")
        state = "" if e.active else " no longer"
        others = e.detail.get("with") if e.condition in ("grappled", "pinned") else None
        names = ", ".join(self.n(o) for o in others) if others else ""
        tail = f" ({'by' if e.condition == 'pinned' else 'with'} {names})" if names and e.active else ""
        return f"  {self.sv(e.target, 'is')}{state} {e.condition.replace('_', ' ')}{tail}"

    def _died(self, e: ev.Died) -> str:
        return f"  {self.sv(e.target, 'dies')}"

    def _dispersed(self, e: ev.Dispersed) -> str:
        return f"  {self.sv(e.target, 'disperses')}"

    def _split(self, e: ev.Split) -> str:
        """An ooze split instead of hurt (docs/rules.md §11.14)."""
        return f"  {self.sv(e.target, 'splits')} in two: {self.n(e.target)} and {self.n(e.new)}, {e.hp} hp each"

    def _engulf(self, e: ev.Engulf) -> str:
        return f"{self.sv(e.actor, 'engulfs')} {', '.join(self.n(t) for t in e.targets)}"

    def _swallowed(self, e: ev.Swallowed) -> str:
        return f"  {self.sv(e.actor, 'swallows')} {self.n(e.target)} whole"

    def _engulfed(self, e: ev.Engulfed) -> str:
        got = ", ".join(self.n(t) for t in e.targets) or "nobody"
        aside = f"; {', '.join(self.n(t) for t in e.avoided)} pushed aside" if e.avoided else ""
        return f"  {self.sv(e.actor, 'engulfs')} {got}{aside}"

    def _gizzard_cut(self, e: ev.GizzardCut) -> str:
        return (f"  {self.sv(e.actor, 'cuts')} {self.n(e.target)}'s gizzard for {e.amount} "
                f"({e.cut} of {e.needed})")

    def _came_out(self, e: ev.CameOut) -> str:
        how = {"cut": f"{self.sv(e.actor, 'cuts')} {self.its(e.actor)} way out of",
               "escaped": f"{self.sv(e.actor, 'escapes')} from inside",
               "host_dead": f"{self.sv(e.actor, 'comes')} out of the dead",
               "fight_over": f"{self.sv(e.actor, 'comes')} out of"}.get(e.cause, f"{self.sv(e.actor, 'comes')} out of")
        return f"  {how} {self.n(e.target)}, at {tuple(e.squares[0]) if e.squares else '?'}"

    def _item(self, e: ev.ActionTaken) -> str:
        item = thing(e.item)
        words = {"draw": "draws", "light": f"lights {article(item)}", "drop_prone": "drops prone",
                 "stand_up": "stands up", "armor_off": "takes off", "armor_on": "puts on", "load": "loads the",
                 "last_thrown": f"has thrown {self.its(e.actor)} last", "fuse": f"prepares the fuse of {article(item)}",
                 "drop_light": "drops the lit", "douse": "douses the",
                 "manyshot": "looses several arrows at once (Manyshot) from the"}
        if e.action == "fizzle":
            return f"  the {item} does not catch fire"
        verb, _, rest = words.get(e.action, e.action).partition(" ")
        return f"{self.sv(e.actor, verb)} {rest} {item}".replace("  ", " ").rstrip()

    def _splash(self, e: ev.Splash) -> str:
        where = f"the corner {e.at}" if e.intersection else f"{e.at}"
        return f"  the {thing(e.item)} breaks at {where}, fire on {len(e.squares)} squares"

    def _spell(self, e: ev.SpellCast) -> str:
        if e.lost:
            return f"{self.sv(e.actor, 'loses')} {e.spell}"
        targets = f" on {', '.join(self.n(t) for t in e.targets)}" if e.targets else ""
        if not e.targets and e.spell in ("light", "darkness") and e.squares:
            targets = f" at {tuple(e.squares[0])}"   # on an object lying there
        return f"{self.sv(e.actor, 'casts')} {e.spell.replace('-', ' ')}{targets}"

    def _zone_end(self, e: ev.ZoneEnded) -> str:
        xs, ys = [q[0] for q in e.squares], [q[1] for q in e.squares]
        return f"  {self.n(e.owner)}'s {e.spell.replace('-', ' ')} at ({min(xs)}, {min(ys)}) is gone"

    def _armor(self, e: ev.ArmorWork) -> str:
        """Armor off before a crawlway (RULES §2.4): the work begins, goes on, is done or lost."""
        armor, its = thing(e.armor), self.its(e.actor)
        if e.stage == "help":
            return f"{self.sv(e.actor, 'helps')} {self.n(e.helper)} with the straps ({e.left} of {e.rounds} rounds left)"
        if e.stage == "start":
            help_ = f", {self.n(e.helper)} helping" if e.helper else ""
            return (f"{self.sv(e.actor, 'starts')} taking off {its} {armor} before the tight way "
                    f"({e.rounds} rounds{help_})")
        if e.stage == "work":
            return f"{self.sv(e.actor, 'works')} at {its} {armor} ({e.left} of {e.rounds} rounds left)"
        if e.stage == "done":
            return f"{self.sv(e.actor, 'has')} {its} {armor} off and drags it behind"
        return f"{self.sv(e.actor, 'stops')} taking off {its} {armor}: the work is lost"

    def _refused(self, e: ev.Refused) -> str:
        return f"{self.n(e.actor)} cannot {e.action.lower()}: {e.reason}"  # "cannot" agrees with both

    def _decided(self, e: ev.Decided) -> str:
        """"Ogre cannot swing its greatclub in Narrow and Low and backs out"; "Ogre does nothing
        (it holds its ground)" (issue 31: every turn says what the creature did or why not)."""
        why = _IDLE_WORDS.get(e.reason, e.reason.replace("_", " "))
        if e.weapon and e.category:
            space = " ".join(w if w in ("and", "or") else w.capitalize() for w in e.category.lower().split("_"))
            head = f"{self.n(e.actor)} cannot swing {self.its(e.actor)} {thing(e.weapon)} in {space}"
            return f"{head} and {_CHOICE_WORDS.get(e.choice, e.choice.replace('_', ' '))}"
        return f"{self.sv(e.actor, 'does')} nothing ({why})"

    def _opposed(self, e: ev.Opposed) -> str:
        """"Darkmantle grapples Bruna (hold): grapple d20 14 +1 BAB +3 Str −4 size = 14 vs grapple
        d20 9 +1 BAB +2 Str = 12: wins" (docs/rules.md §11)."""
        what = _OPPOSED_WORDS.get(e.purpose, e.purpose.replace("_", " "))
        mine = f"{_CHECK_WORDS.get(e.check, e.check)} d20 {e.roll} {mod_words(e.modifiers)} = {e.total}"
        theirs = (f"{_CHECK_WORDS.get(e.target_check, e.target_check)} d20 {e.target_roll} "
                  f"{mod_words(e.target_modifiers)} = {e.target_total}")
        return f"{self.n(e.actor)} {what} {self.n(e.target)}: {mine} vs {theirs}: {'wins' if e.success else 'loses'}"

    def _encounter_end(self, e: ev.EncounterEnd) -> str:
        if e.winner:
            s = f"== {e.winner} {'win' if is_plural_name(e.winner) else 'wins'} after {e.round} rounds"
        else:
            s = f"== no winner ({e.reason.replace('_', ' ')}) after {e.round} rounds"
        surv = ", ".join(f"{self.n(x['id'])} {x['hp']}/{x['max_hp']}" for x in e.survivors)
        return s + (f"; standing: {surv}" if surv else "")

    def _roll(self, e: ev.Rolled) -> str:
        mod = f" {_signed(e.modifier)}" if e.modifier else ""
        return f"  {self.n(e.actor)} rolls {e.die} at the table ({e.purpose}): {e.value}{mod}"

    def _dm(self, e: ev.DmEdit) -> str:
        who = self.n(e.target)
        if e.change == "hp":
            return f"DM: {who}'s hit points {e.before.get('hp')} -> {e.after.get('hp')}"
        if e.change == "condition":
            (name, on), = e.after.items()
            return f"DM: {who} {'is now' if on else 'is no longer'} {name.replace('_', ' ')}"
        if e.change == "move":
            return f"DM: {who} put at {tuple(e.after.get('at', ()))} (from {tuple(e.before.get('at', ()))}), no action"
        if e.change == "pass":
            return f"DM: {who}'s turn passed"
        return f"DM: {who}: {e.change}"


#: The words of an opposed check's purpose and checks (docs/rules.md §11).
_OPPOSED_WORDS = {"grapple_hold": "grapples", "grapple_damage": "squeezes", "pin": "tries to pin",
                  "escape": "tries to break free of", "move_grapple": "tries to drag", "trip": "tries to trip",
                  "trip_back": "tries to trip back", "bull_rush": "bull rushes",
                  "swallow": "tries to swallow"}
_CHECK_WORDS = {"grapple": "grapple", "escape_artist": "Escape Artist", "str": "Str", "dex": "Dex"}

#: The words of an AI decision (:class:`sim.engine.events.Decided`): what it does instead, why it idles.
_CHOICE_WORDS = {"backs_out": "backs out", "throws": "throws instead", "other_weapon": "takes another weapon",
                 "waits": "waits", "idle": "does nothing"}
_IDLE_WORDS = {"no_usable_attack": "no attack it can use here", "holds_ground": "it holds its ground",
               "holds_chokepoint": "it waits at the chokepoint", "in_place": "already where it wants to be",
               "blocked": "its way is blocked", "nothing_to_do": "nothing it can do",
               "waits_where_it_works": "it waits where its weapon works"}

#: Which :class:`Narrator` method tells which event (events not listed get no line).
LINES = {
    ev.EncounterStart: Narrator._encounter_start, ev.Initiative: Narrator._initiative,
    ev.RoundStart: Narrator._round_start, ev.Moved: Narrator._moved, ev.Check: Narrator._check,
    ev.Attack: Narrator._attack, ev.Damage: Narrator._damage, ev.Healed: Narrator._healed, ev.Save: Narrator._save,
    ev.Condition: Narrator._condition, ev.Died: Narrator._died, ev.Dispersed: Narrator._dispersed,
    ev.Engulf: Narrator._engulf, ev.ActionTaken: Narrator._item, ev.Splash: Narrator._splash,
    ev.SpellCast: Narrator._spell, ev.Refused: Narrator._refused, ev.EncounterEnd: Narrator._encounter_end,
    ev.Rolled: Narrator._roll, ev.DmEdit: Narrator._dm,
    ev.ArmorWork: Narrator._armor, ev.ZoneEnded: Narrator._zone_end,
    ev.Opposed: Narrator._opposed, ev.Split: Narrator._split,
    ev.Swallowed: Narrator._swallowed, ev.Engulfed: Narrator._engulfed, ev.GizzardCut: Narrator._gizzard_cut,
    ev.CameOut: Narrator._came_out, ev.Decided: Narrator._decided,
}
