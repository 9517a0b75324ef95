"""A creature whose weapon does not work where it stands (issue 31 item 5; docs/rules.md §11.11).

RULES §2.5: in Narrow and Low a two-handed weapon "cannot be used" (a Large ogre, space 10 ft and
9.5 ft tall, in a 5-ft-wide, 8-ft-high tunnel). The ogre then throws what it carries, backs out to
where its greatclub works, or waits -- and every turn says what it did or why it did nothing (a
:class:`sim.engine.events.Decided` event and its log line). The batch counts every constricted category
as squeezing (docs/rules.md §2.1: Narrow or Low up to Tight Squeeze)."""

from __future__ import annotations

import dataclasses

from sim.analysis.batch import fight_record
from sim.engine import attacks
from sim.story.log import Narrator
from sim.rules.categories import Category

from tests.engine.helpers import encounter, ready

TUNNEL = {"=": (5, 8)}   # 5 ft wide, 8 ft high: Narrow and Low for the ogre, Clear for a human
ROOM = ["##########",
        "#ww=====.#",
        "#ww=====.#",
        "##########"]
DEAD_END = ["##########",
            "#========#",
            "#========#",
            "##########"]


def _ogre_turn(enc) -> list:
    """Play until the ogre's first turn is over; the events of that turn, turn_start to turn_end."""
    if not enc.events:
        ready(enc)
    for _ in range(200):
        assert not enc.finished, "the fight ended before the ogre's turn"
        c = enc.current() if enc.turn is not None else None
        if c is not None and c.id == "o":
            mark = len(enc.events) - 1
            while enc.turn is not None and enc.current().id == "o":
                enc.advance()
            return enc.events[mark:]
        enc.advance()
    raise AssertionError("no ogre turn in 200 steps")


def _fight(rows, *, foe_at, javelins=True, seed=1):
    enc = encounter(rows, [{"id": "o", "template": "ogre", "team": "m", "at": [4, 1]},
                           {"id": "f", "template": "human-fighter-4", "team": "p", "at": foe_at}],
                    legend=TUNNEL, seed=seed)
    if not javelins:   # both thrown: as the engine leaves it (attack_actions.after_shot)
        o = enc.creatures["o"]
        o.thrown_left["javelin"] = 0
        o.block = dataclasses.replace(o.block, attacks=tuple(a for a in o.block.attacks if a.name != "javelin"))
    return enc


def _kinds(events) -> list[tuple]:
    out = []
    for e in events:
        if e.type == "decided":
            out.append(("decided", e.choice, e.reason, e.weapon, e.category))
        elif e.type == "moved":
            out.append(("moved", e.action, tuple(min(e.squares))))
        elif e.type == "attack":
            out.append(("attack", e.actor, e.weapon))
        else:
            out.append((e.type,))
    return out


def test_the_ogre_in_the_tunnel_backs_out_to_where_its_greatclub_works():
    """Room behind it (x 1-2 Clear for a Large body): it withdraws (its foe threatens it) and says
    why; on main it did nothing and printed no line."""
    enc = _fight(ROOM, foe_at=[6, 1])
    o = enc.creatures["o"]
    assert attacks.standing_category(enc, o) is Category.NARROW_AND_LOW
    turn = _ogre_turn(enc)
    kinds = _kinds(turn)
    assert kinds[0] == ("turn_start",) and kinds[-1] == ("turn_end",)
    assert kinds[1] == ("decided", "backs_out", "", "greatclub", "NARROW_AND_LOW")
    assert kinds[2][:2] == ("moved", "withdraw")
    assert kinds[2][2][0] < 4            # west, toward the room
    lines = [Narrator({"o": "Ogre", "f": "Fighter"}).line(e) for e in turn]
    assert "Ogre cannot swing its greatclub in Narrow and Low and backs out" in lines


def test_with_no_way_out_the_ogre_throws_its_javelin():
    """A dead-end tunnel: no square where the greatclub works; a foe at 10 ft (in its reach, not
    threatening it: the ogre acts first) takes a javelin (ranged in Narrow and Low: a penalty, not unusable)."""
    enc = _fight(DEAD_END, foe_at=[7, 1])
    ready(enc)
    enc.order = ["o", "f"]   # the ogre first: the fighter has not closed in to threaten the throw
    turn = _ogre_turn(enc)
    kinds = _kinds(turn)
    assert kinds[1] == ("decided", "throws", "", "greatclub", "NARROW_AND_LOW")
    assert ("attack", "o", "javelin") in kinds


def test_nothing_it_can_use_and_nowhere_to_go_it_waits_and_says_why():
    """No javelins left, no way out: the turn holds a reason event, and its line."""
    enc = _fight(DEAD_END, foe_at=[7, 1], javelins=False)
    turn = _ogre_turn(enc)
    kinds = _kinds(turn)
    assert kinds == [("turn_start",), ("decided", "waits", "no_usable_attack", "greatclub", "NARROW_AND_LOW"),
                     ("turn_end",)]
    assert (Narrator({"o": "Ogre", "f": "Fighter"}).line(turn[1])
            == "Ogre cannot swing its greatclub in Narrow and Low and waits")


def test_only_an_unusable_weapon_it_moves_out():
    """The greatclub only (javelins gone), the room behind: it moves, never stands idle."""
    enc = _fight(ROOM, foe_at=[7, 1], javelins=False)
    kinds = _kinds(_ogre_turn(enc))
    assert kinds[1] == ("decided", "backs_out", "", "greatclub", "NARROW_AND_LOW")
    assert kinds[2][0] == "moved" and kinds[2][2][0] < 4


def test_a_turn_with_no_action_logs_a_reason():
    """Any idle turn (not only a squeezed one) says why: a fighter whose foe it cannot reach
    this round in a sealed cell (no way to it) does nothing -- and a decided/idle event says so."""
    enc = encounter(["#####", "#.#.#", "#####"],
                    [{"id": "a", "template": "human-fighter-4", "team": "p", "at": [1, 1]},
                     {"id": "b", "template": "goblin", "team": "m", "at": [3, 1]}], seed=1)
    ready(enc)
    enc.run(max_rounds=1)
    idle = [e for e in enc.events if e.type == "decided"]
    assert {e.actor for e in idle} == {"a", "b"}
    assert all(e.choice == "idle" and e.reason for e in idle)
    starts = [e for e in enc.events if e.type == "turn_start"]
    assert len(idle) == len(starts)


def test_the_batch_counts_narrow_and_low_rounds_as_squeezing():
    """Three rounds penned in the Narrow-and-Low dead end: three rounds squeezing (on main, 0:
    only crawl, awkward and tight counted)."""
    enc = _fight(DEAD_END, foe_at=[7, 1], javelins=False)
    enc.creatures["f"].hp = enc.creatures["f"].max_hp = 10_000   # the fight lasts the three rounds
    ready(enc)
    enc.run(max_rounds=3)
    rec = fight_record(enc, label="t", index=0, seed=1)
    assert enc.creatures["o"].squeezing_rounds == 3
    assert rec["squeezing.o"] == 3
    assert int(rec["squeezing.f"]) == 0     # Clear for the human


def test_having_backed_out_it_waits_where_its_greatclub_works():
    """Backed out into the room, the foe staying 20 ft into the tunnel: it does not walk back into
    the Narrow-and-Low tunnel (where it could only stand idle again); it waits, and says why."""
    enc = _fight(["##########", "#ww======#", "#ww======#", "##########"], foe_at=[6, 1], javelins=False)
    o = enc.creatures["o"]
    o.pos, o.squares = (1, 1), [(1, 1), (2, 1), (1, 2), (2, 2)]
    assert attacks.standing_category(enc, o) is Category.CLEAR
    ready(enc)
    enc.memory.backed_out.add("o")
    enc.order = ["o", "f"]
    kinds = _kinds(_ogre_turn(enc))
    assert kinds == [("turn_start",), ("decided", "idle", "waits_where_it_works", None, None), ("turn_end",)]
