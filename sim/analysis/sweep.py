"""Sweeps: variants of an encounter, one per value of ``--vary KEY=V1,V2,...`` (issue 7).

Keys (values are separated by commas; several ``--vary`` options make every combination, the
first one outermost). The key ends at the first ``=`` that completes a key below, so a glyph (or
an id) may be ``=``, ``.`` or ``,`` with no quoting: ``legend.=.width=5,30`` varies glyph ``=``.

==================================  ==========================================================
``legend.G.width=1.5,2,3``          width of every square drawn with glyph ``G`` (any one character:
``legend.G.height=...``             ``legend...height``, ``legend.=.width``, ``legend.,.width``), in the map's units
                                    unless suffixed ``ft`` or ``m`` (``0.6m``); ``difficult``
``legend.G.difficult=true,false``   takes true / false
``combatant.ID.weapon=dagger,...``  a combatant's ``weapon``, ``off_hand``, ``template``, ``team``,
``combatant.ID.at=3:4,5:4``         ``lit`` (true / false) or ``at`` (``X:Y``)
``party.size=3,4``                  keep the first N members of the team ``party`` (file order);
``team.NAME.size=...``              any team by name
``settings.KEY=...``                an encounter setting (``round_cap``, ``swarm_shape``, ...)
==================================  ==========================================================

The encounter is changed in memory only (``dataclasses.replace`` on the specs, new arrays on the
grid); every variant is checked like a loaded file (templates, weapons, creatures that fit where
they stand) before any fight starts. A variant's label is what was typed, e.g.
``legend.f.width=1.5``; combinations join their parts with a space.

>>> v = parse_vary("legend.f.width=1.5,2")
>>> v.key, v.values
('legend.f.width', ('1.5', '2'))
>>> parse_vary("width")
Traceback (most recent call last):
...
sim.base.errors.UsageError: --vary 'width': write KEY=V1,V2,... (e.g. legend.f.width=1.5,2,3)
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path

from sim.base.errors import DataError, UsageError
from sim.engine.setup import build_creature, check_placement
from sim.maps.layers import MAX_LENGTH
from sim.maps.read import to_feet
from sim.scenario.files import MAX_COMBATANTS, MAX_ROUND_CAP
from sim.scenario.specs import SETTINGS_DEFAULTS, EncounterSpec
from sim.terrain.grid import Terrain

_COMBATANT_FIELDS = ("template", "weapon", "off_hand", "team", "at", "lit")
_LEGEND = re.compile(r"legend\.(.)\.(width|height|difficult)")
_COMBATANT = re.compile(r"combatant\.(.+)\.(" + "|".join(_COMBATANT_FIELDS) + r")")
_TEAM = re.compile(r"(?:team\.(.+)|(party))\.size")
_SETTING = re.compile(r"settings\.(\w+)")

KEY_HELP = ("legend.G.width|height|difficult, combatant.ID.template|weapon|off_hand|team|at|lit, "
            "party.size, team.NAME.size, settings.KEY")


@dataclass(frozen=True, slots=True)
class Vary:
    key: str
    values: tuple[str, ...]

    def labels(self) -> list[str]:
        return [f"{self.key}={v}" for v in self.values]


def _split(text: str) -> tuple[str, str, str]:
    """``KEY=VALUES`` cut at the first ``=`` that ends a known key, so that a glyph or an id may
    itself be ``=`` (``legend.=.width=5,30``); at the first ``=`` when no prefix is a known key
    (the key is then refused by :func:`apply`, naming it).

    >>> _split("legend.=.width=5,30"), _split("legend...height=2"), _split("legend.,.width=5,30")
    (('legend.=.width', '=', '5,30'), ('legend...height', '=', '2'), ('legend.,.width', '=', '5,30'))
    >>> _split("colour=red=blue"), _split("legend.=.width")
    (('colour', '=', 'red=blue'), ('legend.=.width', '', ''))
    """
    def known(key: str) -> bool:
        return any(r.fullmatch(key.strip()) for r in (_LEGEND, _COMBATANT, _TEAM, _SETTING))

    at = text.find("=")
    while at >= 0:
        if known(text[:at]):
            return text[:at], "=", text[at + 1:]
        at = text.find("=", at + 1)
    if known(text):
        return text, "", ""      # a key without values
    return text.partition("=")


def parse_vary(text: str) -> Vary:
    key, sep, vals = _split(text)
    key = key.strip()
    values = tuple(v.strip() for v in vals.split(","))
    if not sep or not key or not vals.strip():
        raise UsageError(f"--vary {text!r}: write KEY=V1,V2,... (e.g. legend.f.width=1.5,2,3)")
    if any(v == "" for v in values):
        raise UsageError(f"--vary {text!r}: an empty value; separate values with single commas")
    if len(set(values)) != len(values):
        raise UsageError(f"--vary {text!r}: a value is given twice")
    return Vary(key, values)


def _bad(key: str, value: str, msg: str) -> UsageError:
    return UsageError(f"--vary {key}={value}: {msg}")


MAX_WHOLE = 10_000
MAX_VARIANTS = 1000   # variants of one sweep (every combination of the --vary values)


def _is_path(value: str) -> bool:
    return value.endswith(".toml") or "/" in value or "\\" in value


def _bool(key: str, value: str) -> bool:
    v = value.lower()
    if v in ("true", "yes", "1"):
        return True
    if v in ("false", "no", "0"):
        return False
    raise _bad(key, value, "must be true or false")


def _length(key: str, value: str, units: str) -> float:
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(ft|m)?\s*", value)
    if not m:
        raise _bad(key, value, f"must be a positive number of {units} (or with ft / m after it, e.g. 0.6m)")
    v = float(m.group(1)) if len(m.group(1)) <= 20 else math.inf
    if not v > 0:
        raise _bad(key, value, "must be > 0 (a glyph cannot become rock in a sweep)")
    if not v <= MAX_LENGTH:
        raise _bad(key, value, f"must be at most {MAX_LENGTH} {m.group(2) or units}")
    return to_feet(v, m.group(2) or units)


def _whole(key: str, value: str, maximum: int) -> int:
    """A whole number from 1 to ``maximum`` written in ASCII digits (``²`` is refused).

    >>> _whole("party.size", "3", 10)
    3
    >>> _whole("party.size", "²", 10)
    Traceback (most recent call last):
    ...
    sim.base.errors.UsageError: --vary party.size=²: must be a whole number from 1 to 10
    """
    if not re.fullmatch(r"[0-9]{1,9}", value) or not 1 <= int(value) <= maximum:
        raise _bad(key, value, f"must be a whole number from 1 to {maximum}")
    return int(value)


def apply(spec: EncounterSpec, key: str, value: str) -> EncounterSpec:
    """The encounter with one key set to one value (no placement check; see :func:`variants`)."""
    if m := _LEGEND.fullmatch(key):
        return _legend(spec, key, value, m.group(1), m.group(2))
    if m := _COMBATANT.fullmatch(key):
        return _combatant(spec, key, value, m.group(1), m.group(2))
    if m := _TEAM.fullmatch(key):
        return _team_size(spec, key, value, m.group(1) or m.group(2))
    if m := _SETTING.fullmatch(key):
        return _setting(spec, key, value, m.group(1))
    raise UsageError(f"--vary {key}: unknown key; use one of {KEY_HELP}")


def _legend(spec, key, value, glyph, what):
    g = spec.grid
    if g.glyphs is None or not g.legend:
        raise _bad(key, value, f"the map {g.source or g.name} has numeric layers, not a legend of glyphs")
    names = list(g.legend)
    if glyph not in g.legend:
        raise _bad(key, value, f"no glyph {glyph!r} in the legend; it has {''.join(names)}")
    t = g.legend[glyph]
    if t.rock:
        raise _bad(key, value, f"glyph {glyph!r} is rock; vary a floor glyph")
    mask = g.glyphs == names.index(glyph)
    w, h, d = g.width_ft.copy(), g.height_ft.copy(), g.difficult.copy()
    if what == "difficult":
        flag = _bool(key, value)
        d[mask] = flag
        new = Terrain(t.width, t.height, difficult=flag)
    else:
        ft = _length(key, value, g.units)
        (w if what == "width" else h)[mask] = ft
        new = Terrain(ft if what == "width" else t.width, ft if what == "height" else t.height, difficult=t.difficult)
    legend = dict(g.legend)
    legend[glyph] = new
    grid = g.replace(width_ft=w, height_ft=h, difficult=d, legend=legend)
    return dataclasses.replace(spec, grid=grid)


def _combatant(spec, key, value, cid, what):
    ids = [c.id for c in spec.combatants]
    if cid not in ids:
        raise _bad(key, value, f"no combatant {cid!r}; the encounter has {', '.join(ids)}")
    out = []
    for c in spec.combatants:
        if c.id != cid:
            out.append(c)
            continue
        if what == "at":
            m = re.fullmatch(r"\s*([0-9]{1,9})\s*:\s*([0-9]{1,9})\s*", value)
            if not m:
                raise _bad(key, value, "write a square as X:Y (e.g. 3:4)")
            out.append(dataclasses.replace(c, at=(int(m.group(1)), int(m.group(2)))))
        elif what == "lit":
            out.append(dataclasses.replace(c, lit=_bool(key, value)))
        elif what == "template" and _is_path(value):
            out.append(dataclasses.replace(c, template=str(Path(value).absolute())))  # named on the command line
        else:
            out.append(dataclasses.replace(c, **{what: value}))
    return dataclasses.replace(spec, combatants=tuple(out))


def _team_size(spec, key, value, team):
    n = _whole(key, value, MAX_COMBATANTS)
    members = []
    teams = []
    for c in spec.combatants:
        try:
            t = build_creature(c, spec.path).team
        except DataError as exc:
            raise _bad(key, value, "; ".join(exc.problems)) from None
        teams.append(t)
        if t == team:
            members.append(c.id)
    if not members:
        raise _bad(key, value, f"no team {team!r}; the teams are {', '.join(dict.fromkeys(teams))}")
    if n > len(members):
        raise _bad(key, value, f"team {team!r} has only {len(members)} members ({', '.join(members)})")
    keep = set(members[:n])
    return dataclasses.replace(spec, combatants=tuple(c for c, t in zip(spec.combatants, teams)
                                                      if t != team or c.id in keep))


def _setting(spec, key, value, name):
    if name not in SETTINGS_DEFAULTS:
        raise _bad(key, value, f"unknown setting; known: {', '.join(sorted(SETTINGS_DEFAULTS))}")
    default = SETTINGS_DEFAULTS[name]
    if isinstance(default, bool):
        v: object = _bool(key, value)
    elif isinstance(default, int):
        v = _whole(key, value, MAX_ROUND_CAP if name == "round_cap" else MAX_WHOLE)
    else:
        v = value
    if name == "swarm_shape" and v not in ("any", "square"):
        raise _bad(key, value, "must be any or square")
    return dataclasses.replace(spec, settings={**spec.settings, name: v})


def variants(spec: EncounterSpec, varies: list[Vary]) -> list[tuple[str, EncounterSpec]]:
    """Every combination of the values, checked: ``[(label, spec), ...]`` (one unlabelled variant
    without ``varies``). Raises :class:`UsageError` naming the variant and the problem."""
    keys = [v.key for v in varies]
    if len(set(keys)) != len(keys):
        raise UsageError(f"--vary {keys[0] if len(keys) == 1 else next(k for k in keys if keys.count(k) > 1)}: "
                         "the same key is varied twice; give all its values in one --vary")
    if not varies:
        return [("", spec)]
    total = math.prod(len(v.values) for v in varies)
    if total > MAX_VARIANTS:
        raise UsageError(f"--vary: {' x '.join(str(len(v.values)) for v in varies)} = {total:,} variants, over the "
                         f"limit of {MAX_VARIANTS}; vary fewer keys or values at once")
    out = []
    for combo in itertools.product(*[[(v.key, x) for x in v.values] for v in varies]):
        s = spec
        for k, x in combo:
            s = apply(s, k, x)
        label = " ".join(f"{k}={x}" for k, x in combo)
        problems = check_placement(s)
        if problems:
            raise UsageError(f"--vary {label}: " + problems[0] + (f" (and {len(problems) - 1} more problems)"
                                                                   if len(problems) > 1 else ""))
        out.append((label, s))
    return out
