"""Foes one cannot perceive (issue 16 items 3-4; RULES §9.2-9.3): guessing a square, the dark
side that keeps out of the light, and one lit state for a lantern (in sight and when thrown)."""

from __future__ import annotations

import numpy as np

from sim.engine.ai import unseen
from sim.engine.actions import FiveFootStep, Delay, Douse, DropLight, FullAttack, Impossible, LightTorch, Move, Strike, Throw, Turn
from sim.engine.ai.decide import default_policy
from sim.engine.events import Attack, Moved
from sim.story.log import Narrator
from sim.terrain.vision import BRIGHT, DARK, SHADOWY
from tests.engine.test_vision import GOBLIN, HUMAN, fight

CORRIDOR = ["######", "#....#", "######"]
NAMES = {"bruna": "Bruna", "gob": "Gob"}


class Fixed:
    """An rng answering every die with the next value given."""

    def __init__(self, *rolls):
        self.rolls = list(rolls)

    def integers(self, lo, hi=None, size=None):
        if size is not None:
            return np.array([self.rolls.pop(0) for _ in range(size)])
        return self.rolls.pop(0)

    def random(self):
        return 0.5


def _in_the_dark(gob_at=(2, 1)):
    enc = fight([{**HUMAN, "at": [1, 1]}, {**GOBLIN, "at": list(gob_at)}], rows=CORRIDOR)
    return enc, enc.creatures["bruna"], enc.creatures["gob"]


def _turn(enc, cid):
    enc.turn = Turn(actor=cid)
    enc.turn_mark = len(enc.events)
    return enc.turn


def _attacks(enc, mark=0):
    return [e for e in enc.events[mark:] if isinstance(e, Attack)]


def test_a_foe_not_perceived_cannot_be_targeted_by_name():
    enc, bruna, gob = _in_the_dark()
    assert enc.side_perceives("party", gob) == 0             # dark, no darkvision: nothing
    _turn(enc, "bruna")
    for action in (Strike("gob"), FullAttack("gob")):
        r = enc.perform(action)
        assert isinstance(r, Impossible)
        assert r.reason == ("Bruna's side cannot perceive Gob (RULES §9.2): attack the square you guess it is in "
                            "(a 50% miss chance there; nobody there, a miss)")


def test_bad_guesses_are_refused_with_the_square():
    enc, bruna, gob = _in_the_dark(gob_at=(4, 1))
    _turn(enc, "bruna")
    assert enc.perform(Strike(at=(1, 0))).reason == "(1, 0) is solid rock"
    assert enc.perform(Strike(at=(9, 1))).reason == "(9, 1) is off the map"
    assert enc.perform(Strike(at=(3, 1))).reason == "(3, 1) is 10 ft away, beyond reach (5 ft)"
    assert enc.turn.standard                                   # nothing spent


def test_the_ai_guesses_the_square_an_attack_came_from_and_rolls_50_percent():
    enc, bruna, gob = _in_the_dark()
    _turn(enc, "gob")
    enc.rng = Fixed(17, 6)                                     # the goblin sees her by darkvision: a hit
    enc.perform(Strike("bruna"))
    t = _turn(enc, "bruna")
    act = default_policy(enc, bruna, t)
    # the only square next to her that is not rock: where the blow came from
    assert act == Strike(attack="longsword", at=(2, 1))
    enc.rng = Fixed(14, 51, 5)                                 # d20 14 + 6 = 20 vs AC 15; d100 51 > 50; 1d8 5
    enc.perform(act)
    (e,) = _attacks(enc, enc.turn_mark)
    assert (e.guessed, e.at, e.target, e.concealment, e.miss_chance, e.miss_roll, e.hit) == \
        (True, (2, 1), "gob", "total", 50, 51, True)
    assert gob.hp == gob.max_hp - 7                            # 1d8 5 + Str 2
    assert Narrator(NAMES).line(e).startswith("Bruna, longsword vs Gob (a guess at (2, 1)): d20 14")
    assert Narrator(NAMES).line(e).endswith("= 20 vs AC 15: hit (50% miss chance in the dark: rolled 51)")
    # the same guess with d100 50: the hit is lost in the dark
    enc, bruna, gob = _in_the_dark()
    _turn(enc, "bruna")
    enc.rng = Fixed(14, 50)
    enc.perform(Strike(attack="longsword", at=(2, 1)))
    (e,) = _attacks(enc, enc.turn_mark)
    assert (e.hit, e.miss_roll) == (False, 50) and gob.hp == gob.max_hp
    assert Narrator(NAMES).line(e).endswith("hit, but misses in the dark (50%: rolled 50)")


def test_a_guess_where_nobody_is_misses_without_a_roll_and_is_forgotten():
    enc, bruna, gob = _in_the_dark(gob_at=(3, 1))
    enc.memory.last_seen["party"] = {"gob": (2, 1)}        # seen there, then it stepped back
    t = _turn(enc, "bruna")
    act = default_policy(enc, bruna, t)
    assert act == Strike(attack="longsword", at=(2, 1))
    enc.rng = Fixed()                                           # no die is rolled
    enc.perform(act)
    (e,) = _attacks(enc, enc.turn_mark)
    assert (e.guessed, e.at, e.target, e.hit, e.roll, e.miss_roll) == (True, (2, 1), "", False, 0, None)
    assert Narrator(NAMES).line(e) == "Bruna, longsword at (2, 1), a guess in the dark: nobody there, a miss"
    default_policy(enc, bruna, enc.turn)
    assert "gob" not in enc.memory.last_seen["party"]     # it is not there: forgotten


def test_with_no_clue_a_blinded_creature_lights_its_torch_then_follows_the_noise():
    rows = ["#" * 14, "#" + "." * 12 + "#", "#" * 14]
    enc = fight([{**HUMAN, "at": [1, 1], "items": {"torch": 1, "tindertwig": 1}}, {**GOBLIN, "at": [12, 1]}], rows=rows)
    bruna = enc.creatures["bruna"]
    assert enc.blinded(bruna)
    assert default_policy(enc, bruna, _turn(enc, "bruna")) == LightTorch()
    enc = fight([{**HUMAN, "at": [1, 1]}, {**GOBLIN, "at": [12, 1]}], rows=rows)
    enc.creatures["bruna"].items["torch"] = 0                # no torch to light
    act = default_policy(enc, enc.creatures["bruna"], _turn(enc, "bruna"))
    assert isinstance(act, Move) and act.to[0] > 1             # toward the noise of the fight


# -- the dark side: kobolds against a torch party --------------------------------------------------

HALL = ["#" * 32] + ["#" + "." * 30 + "#"] * 19 + ["#" * 32]


def _kobold_hall():
    cs = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [10, 10], "lit": True,
           "items": {"torch": 1}},
          {"id": "hans", "template": "human-fighter-3", "team": "party", "at": [10, 1]},
          {"id": "k1", "template": "kobold", "team": "monsters", "at": [10, 19]},
          {"id": "k2", "template": "kobold", "team": "monsters", "at": [20, 1]}]
    return fight(cs, rows=HALL)


def _play(enc, ids, rounds):
    for r in range(1, rounds + 1):
        enc.round = r
        for cid in ids:
            c = enc.creatures[cid]
            t = _turn(enc, cid)
            for _ in range(8):
                act = default_policy(enc, c, t)
                if act is None or not enc.perform(act) or t.ended:
                    break


def test_kobolds_keep_to_the_dark_and_strike_at_the_50_percent_miss_chance():
    enc = _kobold_hall()
    party = [enc.creatures["bruna"], enc.creatures["hans"]]
    lit = unseen.lit_to(enc, party)
    levels = enc.vision()[0].normal
    # the straight way from k1 (10, 19) to hans (10, 1) runs through bruna's torchlight
    assert all(levels[y, 10] == BRIGHT for y in range(7, 15)) and levels[1, 10] == DARK
    assert unseen.dark_side(enc, enc.creatures["k1"], party)
    _play(enc, ["k1", "k2"], 5)
    entered = {cid: [tuple(s["at"]) for e in enc.events if isinstance(e, Moved) and e.actor == cid for s in e.path]
               for cid in ("k1", "k2")}
    assert len(entered["k1"]) >= 12 and len(entered["k2"]) >= 8
    assert [q for qs in entered.values() for q in qs if lit[q[1], q[0]]] == []   # never into the light
    assert min(x for x, _ in entered["k1"]) <= 2                                 # around it, by the west wall
    blows = [e for e in enc.events if isinstance(e, Attack) and e.actor == "k2"]
    assert len(blows) == 4 and {e.target for e in blows} == {"hans"} and all(e.miss_chance == 0 for e in blows)
    hans = enc.creatures["hans"]
    assert [enc.miss_chance(hans, enc.creatures[k]) for k in ("k1", "k2")] == [50, 50]


def test_a_dark_side_douses_its_own_light_and_waits_beyond_the_party_light():
    cs = [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": [10, 10], "lit": True,
           "items": {"torch": 1}},
          {"id": "k1", "template": "kobold", "team": "monsters", "at": [10, 19], "lit": True, "items": {"torch": 1}}]
    enc = fight(cs, rows=HALL)
    k1 = enc.creatures["k1"]
    t = _turn(enc, "k1")
    assert default_policy(enc, k1, t) == Douse()
    assert enc.perform(Douse()) and not k1.torch_lit and k1.items["torch"] == 1 and not t.move
    assert [(e.action, e.item) for e in enc.events[enc.turn_mark:]] == [("douse", "torch")]
    assert Narrator({"k1": "K1"}).line(enc.events[enc.turn_mark]) == "K1 douses the torch"
    # every square from which it could strike bruna is in her torchlight: it waits in the dark
    assert default_policy(enc, k1, t) == Delay()
    _play(enc, ["k1"], 3)
    lit = unseen.lit_to(enc, [enc.creatures["bruna"]])
    assert not any(lit[y, x] for x, y in k1.squares) and not [e for e in enc.events if isinstance(e, Attack)]


def test_douse_needs_a_light_and_a_move_action():
    enc, bruna, gob = _in_the_dark()
    t = _turn(enc, "bruna")
    assert enc.perform(Douse()).reason == "Bruna holds no lit light"
    bruna.light = "hooded-lantern"
    t.move = t.standard = False
    assert enc.perform(Douse()).reason == "no move action left"


# -- one lit state for a lantern (issue 13 and 16) ---------------------------------------------------

def test_a_lit_lantern_sheds_light_and_takes_it_along_when_thrown():
    rows = ["#" * 14, "#" + "." * 12 + "#", "#" * 14]
    lantern = {**HUMAN, "at": [1, 1], "lit": True, "items": {"hooded-lantern": 1}}
    enc = fight([lantern, {**GOBLIN, "at": [6, 1]}], rows=rows)
    bruna, gob = enc.creatures["bruna"], enc.creatures["gob"]
    assert bruna.light == "hooded-lantern" and bruna.torch_lit      # lit = true: her torch and her lantern
    bruna.torch_lit = False                                          # only the lantern, here
    levels = enc.vision()[0].normal
    # 30 ft bright, 60 ft shadowy, counted from her square's nearest corner (RULES §9.1, §9.3.1)
    assert (levels[1, 7], levels[1, 8], levels[1, 12]) == (BRIGHT, SHADOWY, SHADOWY)
    assert enc.side_perceives("party", gob) == 3 and enc.miss_chance(bruna, gob) == 0
    _turn(enc, "bruna")
    enc.rng = Fixed(20, 4, 4)
    assert enc.perform(Throw("hooded-lantern", target="gob"))
    assert bruna.light is None and bruna.items["hooded-lantern"] == 0
    assert enc.vision()[0].normal[1, 6] == DARK and enc.blinded(bruna)   # its light went with it


def test_lighting_a_lantern_lights_the_cave_and_dropping_it_leaves_the_light():
    rows = ["#" * 14, "#" + "." * 12 + "#", "#" * 14]
    enc = fight([{**HUMAN, "at": [1, 1], "items": {"hooded-lantern": 1, "tindertwig": 1}}, {**GOBLIN, "at": [6, 1]}],
                rows=rows)
    bruna = enc.creatures["bruna"]
    assert enc.blinded(bruna)
    _turn(enc, "bruna")
    assert enc.perform(LightTorch("hooded-lantern")) and bruna.light == "hooded-lantern"
    assert not enc.blinded(bruna) and enc.vision()[0].normal[1, 6] == BRIGHT
    assert enc.perform(DropLight()) and bruna.light is None
    assert [(d.item, d.at) for d in enc.floor.lights] == [("hooded-lantern", (1, 1))]
    assert enc.vision()[0].normal[1, 6] == BRIGHT                  # it lights from the floor


def test_in_the_dark_a_cleric_still_cures_before_following_the_noise():
    from sim.engine.actions import Cast

    rows = ["#" * 14, "#" + "." * 12 + "#", "#" * 14]
    cleric = {"id": "jozan", "template": "human-cleric-3", "team": "party", "at": [2, 1]}
    enc = fight([{**HUMAN, "at": [1, 1]}, cleric, {**GOBLIN, "at": [12, 1]}], rows=rows)
    enc.creatures["bruna"].hp = 3                                   # under 40%: cure her
    assert enc.side_perceives("party", enc.creatures["gob"]) == 0
    act = default_policy(enc, enc.creatures["jozan"], _turn(enc, "jozan"))
    assert act == Cast("cure-moderate-wounds", target="bruna")   # the stronger cure first (issue 21)


def test_the_clue_is_the_square_the_blow_came_from_not_the_square_behind():
    """Issue 31: a fighter who walked east from (3, 1) through (4, 1) to (5, 1) and was struck from
    (6, 1) guessed at (4, 1), the empty square behind him, half the time. The struck creature knows
    where the blow came from (SRD Invisibility; docs/rules.md §9): the clue is (6, 1) alone."""
    rows = ["#" * 9, "#" + "." * 7 + "#", "#" * 9]
    for seed in range(8):
        enc = fight([{**HUMAN, "at": [3, 1]}, {**GOBLIN, "at": [6, 1]}], rows=rows)
        enc.rng = np.random.default_rng(seed)
        bruna = enc.creatures["bruna"]
        _turn(enc, "bruna")
        enc.perform(Move(to=(5, 1)))                              # blinded, half speed: 2 squares
        assert [tuple(q) for q in bruna.squares] == [(5, 1)]
        _turn(enc, "gob")
        enc.rng = Fixed(17, 6)
        enc.perform(Strike("bruna"))                              # from (6, 1), unseen
        enc.rng = np.random.default_rng(seed)
        assert unseen.attack_clues(enc, bruna) == [(6, 1)]
        assert default_policy(enc, bruna, _turn(enc, "bruna")) == Strike(attack="longsword", at=(6, 1))


def test_a_clue_follows_where_the_attacker_stood_when_it_struck():
    """The goblin struck from (6, 1), then stepped back to (7, 1): the clue is still (6, 1) (the
    struck creature cannot know it moved); a wrong guess there rules it out for the turn."""
    rows = ["#" * 9, "#" + "." * 7 + "#", "#" * 9]
    enc = fight([{**HUMAN, "at": [5, 1]}, {**GOBLIN, "at": [6, 1]}], rows=rows)
    bruna = enc.creatures["bruna"]
    _turn(enc, "gob")
    enc.rng = Fixed(17, 6)
    enc.perform(Strike("bruna"))
    enc.perform(FiveFootStep(to=(7, 1)))
    assert [tuple(q) for q in enc.creatures["gob"].squares] == [(7, 1)]
    assert unseen.attack_clues(enc, bruna) == [(6, 1)]
    t = _turn(enc, "bruna")
    enc.rng = Fixed()
    enc.perform(default_policy(enc, bruna, t))                  # a miss without a roll: nobody there
    assert default_policy(enc, bruna, enc.turn) != Strike(attack="longsword", at=(6, 1))
