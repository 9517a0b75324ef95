"""Play input becomes engine actions; the engine decides, the screen shows what it said."""

from __future__ import annotations

from sim.engine import events as ev
from sim.engine import swallow
from sim.engine.actions import Draw
from sim.render.portray import badges
from sim.render.session import play_scene

from .helpers import spec

ROOM = ["##########",
        "#........#",
        "#........#",
        "##########"]


def ready(s, control=("party",)):
    scene, ctl = play_scene(s, size=(800, 400), control=set(control))
    scene.lighting = None   # drawn in full light (tests/render/test_lighting.py draws the dark)
    scene.director.skip_queue()
    for _ in range(40):
        ctl.pump()
        scene.director.skip_queue()
        scene.update(1 / 60)
        c = ctl.current()
        if c is not None and c.team in control and scene.awaiting_input:
            return scene, ctl
        ctl.request_step()
    raise AssertionError("no turn for the player")


def test_click_on_an_adjacent_enemy_attacks_with_the_chosen_weapon():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (3, 1)}], seed=4)
    scene, ctl = ready(s)
    assert ctl.current().id == "bruna"
    n = len(ctl.enc.events)
    ctl.click_square((3, 1))
    attacks = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Attack)]
    assert attacks and attacks[0].actor == "bruna" and attacks[0].target == "gob"
    assert attacks[0].weapon == scene.weapon_choice


def test_refusal_is_shown_not_decided():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = ready(s)
    n = len(ctl.enc.events)
    ctl.click_square((8, 2))                 # too far for a sword: the engine says why
    assert len(ctl.enc.events) == n
    assert scene.toast_text.startswith("Bruna cannot:")
    ctl.click_square((4, 1))                 # a move it can make
    assert ctl.enc.creatures["bruna"].pos == (4, 1)
    pv = scene.world.path_preview("bruna", (7, 1))
    assert pv.steps and pv.feet == 15 and pv.single == 3   # the engine: 15 ft fit in one move action


def test_space_lets_the_ai_play_and_e_ends_the_turn():
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = ready(s)
    ctl.end_turn()
    assert any(isinstance(e, ev.TurnEnd) and e.actor == "bruna" for e in ctl.enc.events)
    scene.director.skip_queue()
    ctl.pump()
    scene.director.skip_queue()
    ctl.request_step()                        # the goblin's turn, by the AI
    assert any(isinstance(e, ev.TurnEnd) and e.actor == "gob" for e in ctl.enc.events)


HALL = ["############",
        "#..........#",
        "#..........#",
        "#..........#",
        "#..........#",
        "############"]


def _moves(events, actor):
    return [e for e in events if isinstance(e, ev.Moved) and e.actor == actor]


def test_alt_click_is_a_five_foot_step_and_shift_click_a_withdraw():
    s = spec(HALL, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (3, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (4, 2)}], seed=4)
    scene, ctl = ready(s)
    assert ctl.current().id == "bruna"
    n = len(ctl.enc.events)
    ctl.click_square((2, 2), alt=True)
    steps = _moves(ctl.enc.events[n:], "bruna")
    assert ctl.enc.creatures["bruna"].pos == (2, 2)
    assert steps[0].action == "five_foot_step" and len(steps[0].path) == 1
    assert not any(isinstance(e, ev.Attack) and e.actor == "gob" for e in ctl.enc.events[n:])  # no AoO
    scene.director.skip_queue()
    ctl.click_square((1, 1), alt=True)       # a second 5-ft step in the same round: refused, with the reason
    assert ctl.enc.creatures["bruna"].pos == (2, 2)
    assert scene.toast_text.startswith("Bruna cannot:")

    s = spec(HALL, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (3, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (4, 2)}], seed=4)
    scene, ctl = ready(s)
    n = len(ctl.enc.events)
    ctl.click_square((1, 4), shift=True)
    moves = _moves(ctl.enc.events[n:], "bruna")
    assert ctl.enc.creatures["bruna"].pos == (1, 4)
    assert moves and moves[0].action == "withdraw"
    assert not any(isinstance(e, ev.Attack) and e.actor == "gob" for e in ctl.enc.events[n:])


def test_d_drops_prone_and_stands_up_and_i_lights_a_torch():
    s = spec(HALL, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (10, 4)}], seed=4)
    scene, ctl = ready(s)
    bruna = ctl.enc.creatures["bruna"]
    assert ctl.light_torch()
    assert bruna.torch_lit and bruna.wielding == "torch"
    scene.director.skip_queue()
    assert not ctl.light_torch()             # the standard action is spent: refused with the engine's reason
    assert scene.toast_text.startswith("Bruna cannot:")
    assert ctl.toggle_prone() and bruna.prone
    assert not ctl.toggle_prone()            # still animating: the click waits for the screen
    scene.director.skip_queue()
    assert ctl.toggle_prone() and not bruna.prone   # standing up: the move action; the turn is over
    assert ctl.enc.turn is None or ctl.enc.turn.actor != "bruna" or ctl.enc.turn.ended


def test_x_chooses_a_spell_and_a_click_casts_it_where_it_points():
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-3", "team": "party", "at": (2, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (4, 2)},
                    {"id": "gob2", "template": "goblin", "team": "monsters", "at": (9, 4)}], seed=4)
    scene, ctl = ready(s)
    assert ctl.current().id == "ilde"
    assert ctl.spell_options() == ["magic-missile", "sleep", "burning-hands", "light", "web"]
    ctl.cycle_spell()
    assert scene.spell_choice == "magic-missile"
    ctl.cycle_spell()
    ctl.cycle_spell()
    assert scene.spell_choice == "burning-hands"
    # aimed east (the click is right of the caster): the cone's squares, shown before the click
    area = ctl.spell_area((4, 2))
    assert (3, 2) in area and (4, 2) in area and all(x > 2 for x, _ in area)
    assert ctl.spell_action((2, 2)) == "click a square beside the caster to aim the cone"
    assert ctl.spell_action((5, 3)).direction == (1, 0)       # within 22.5 degrees of east
    assert ctl.spell_action((4, 3)).direction == (1, 1)       # 26.6 degrees: south-east
    assert ctl.spell_action((4, 4)).direction == (1, 1)
    n = len(ctl.enc.events)
    assert ctl.cast_at((4, 2))
    cast = [e for e in ctl.enc.events[n:] if isinstance(e, ev.SpellCast)]
    assert cast[0].spell == "burning-hands" and (4, 2) in [tuple(q) for q in cast[0].squares]
    assert scene.spell_choice is None and scene.area_preview == []
    assert ctl.spell_options() == ["magic-missile", "sleep", "light", "web"]   # the slot is spent
    ctl.cycle_spell()
    ctl.cycle_spell()
    ctl.cycle_spell()
    assert scene.spell_choice == "light"
    assert ctl.spell_action((2, 2)).target == "ilde"             # on the caster's own gear
    assert ctl.spell_action((3, 2)).at == (3, 2)                  # on the square clicked
    ctl.cycle_spell()
    assert scene.spell_choice == "web"                            # a spread at the intersection nearest the click
    assert ctl.spell_action((8, 2), point=(8.8, 2.9)).at == (9, 3)


def test_spell_clicks_without_a_target_say_what_is_needed():
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-1", "team": "party", "at": (2, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (8, 2)}], seed=4)
    scene, ctl = ready(s)
    ctl.cycle_spell()
    assert scene.spell_choice == "magic-missile"
    n = len(ctl.enc.events)
    ctl.click_square((5, 4))                 # no creature there
    assert len(ctl.enc.events) == n and scene.toast_text == "click a creature to target"
    ctl.cycle_spell()
    assert scene.spell_choice == "sleep"
    # sleep centres on the grid intersection nearest the click point
    assert ctl.spell_action((8, 2), point=(8.8, 2.9)).at == (9, 3)
    assert len(ctl.spell_area((8, 2), point=(8.8, 2.9))) == 12
    ctl.cycle_spell()
    assert scene.spell_choice == "light"     # the cantrip (RULES §9.1)
    ctl.cycle_spell()
    assert scene.spell_choice is None        # back to weapons


def test_play_key_help_wraps_onto_two_lines():
    s = spec(HALL, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (10, 4)}], seed=4)
    scene, ctl = play_scene(s, size=(1280, 720), control={"party"})
    lines = scene.hudder._help_lines("play", scene.r_bottom.width, scene.r_bottom.height)
    assert len(lines) == 2
    assert all(scene.text.size(line, 16)[0] <= scene.r_bottom.width - 20 for line in lines)
    assert "X spell" in " ".join(lines) and "D prone/stand" in " ".join(lines)


def test_the_panel_says_what_is_empty_and_what_is_left_to_throw():
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-1", "team": "party", "at": (2, 2)},
                    {"id": "ogre", "template": "ogre", "team": "monsters", "at": (9, 2)}], seed=4)
    scene, ctl = ready(s)
    from sim.engine.actions import Draw, Strike

    assert ctl.perform(Draw("light-crossbow"))    # drawn first (a move action)
    scene.director.skip_queue()
    assert ctl.perform(Strike("ogre", "light-crossbow"))
    lines = scene.hudder.creature_summary("ilde")["lines"]
    assert "light crossbow empty (O loads)  ·  1 dagger to throw" in lines


def test_ctrl_shift_click_runs():
    s = spec(["#####################", "#...................#", "#####################"],
             [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (1, 1)},
              {"id": "gob", "template": "goblin", "team": "monsters", "at": (19, 1)}], seed=4)
    scene, ctl = ready(s)
    ctl.click_square((17, 1), shift=True, ctrl=True)   # 16 squares: 4 x 20 ft
    assert ctl.enc.creatures["bruna"].pos == (17, 1) and "running" in ctl.enc.creatures["bruna"].conditions


def test_a_takes_the_armor_off_and_the_turns_of_work_pass_by_themselves():
    """A (RULES §2.4): the fighter in scale mail at a crawlway's mouth takes 10 rounds over it;
    clicking into the crawlway before says why not; the busy turns end without asking."""
    rows = ["############",
            "#...cccc...#",
            "############"]
    s = spec(rows, [{"id": "bruna", "template": "human-fighter-1", "team": "party", "at": (3, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (10, 1)}], seed=4)
    scene, ctl = ready(s, control=("party", "monsters"))

    def settle():
        scene.director.skip_queue()
        ctl.pump()
        scene.director.skip_queue()
        scene.update(1 / 60)

    for _ in range(10):
        if ctl.current() is not None and ctl.current().id == "bruna":
            break
        ctl.end_turn()
        settle()
    bruna = ctl.enc.creatures["bruna"]
    assert ctl.current() is bruna
    ctl.click_square((5, 1))
    assert "must take off her scale mail before entering Crawl-Navigable at (4, 1)" in scene.toast_text
    assert ctl.remove_armor()
    assert bruna.armor_work == 9
    for _ in range(80):
        settle()
        if bruna.armor_off:
            break
        if ctl.current() is not None and ctl.current().id == "gob":
            ctl.end_turn()
    assert bruna.armor_off and bruna.block.speed.land == 30


def test_m_chooses_a_maneuver_and_b_breaks_free():
    """docs/rules.md §11: M then a click on an enemy grapples it (a touch attack, then the hold);
    B tries to escape (Shift+B by Escape Artist); M again: trip, bull rush, pin, then weapons."""
    s = spec(ROOM, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (2, 1)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (3, 1)}], seed=4)
    scene, ctl = ready(s)
    ctl.cycle_maneuver()
    assert scene.maneuver_choice == "grapple"
    n = len(ctl.enc.events)
    ctl.click_square((3, 1))
    new = ctl.enc.events[n:]
    touch, = [e for e in new if isinstance(e, ev.Attack)]
    assert (touch.weapon, touch.kind, touch.hit) == ("grapple", "touch", True)   # the goblin is flat-footed: no AoO
    hold, = [e for e in new if isinstance(e, ev.Opposed)]
    assert hold.purpose == "grapple_hold" and hold.success
    assert ctl.enc.creatures["bruna"].grapple_with == ["gob"]
    for want in ("trip", "bull_rush", "pin", "cut_strand", None):
        ctl.cycle_maneuver()
        assert scene.maneuver_choice == want
    scene.director.skip_queue()
    n = len(ctl.enc.events)
    assert not ctl.break_free()            # her standard action went on the grapple: refused, nothing rolled
    assert "no standard action left" in scene.toast_text and len(ctl.enc.events) == n


RANGE_HALL = ["#" * 14] + ["#" + "." * 12 + "#"] * 2 + ["#" * 14]


def _archer_turn(seed=4):
    s = spec(RANGE_HALL, [{"id": "sov", "template": "elf-ranger-6", "team": "party", "at": (1, 1)},
                    {"id": "ogre", "template": "ogre", "team": "monsters", "at": (6, 2)}], seed=seed)  # 25 ft
    scene, ctl = ready(s)
    scene.weapon_choice = ctl.enc.creatures["sov"].wielding = "composite-longbow"   # the bow in hand
    return scene, ctl, tuple(ctl.enc.creatures["ogre"].pos)


def test_shift_click_is_a_full_attack_with_rapid_shot_and_ctrl_shift_click_a_manyshot():
    scene, ctl, at = _archer_turn()
    n = len(ctl.enc.events)
    ctl.click_square(at, shift=True)
    shots = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Attack) and e.actor == "sov"]
    assert len(shots) == 3 and all(e.modifiers["rapid_shot"] == -2 for e in shots)
    scene, ctl, at = _archer_turn()
    n = len(ctl.enc.events)
    ctl.click_square(at, shift=True, ctrl=True)
    assert [e.action for e in ctl.enc.events[n:] if isinstance(e, ev.ActionTaken)] == ["manyshot"]
    shots = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Attack) and e.actor == "sov"]
    assert len(shots) == 1 and shots[0].modifiers["manyshot"] == -4


def test_grease_and_glitterdust_clicks_cast_them_where_they_point():
    s = spec(HALL, [{"id": "ilde", "template": "elf-wizard-6", "team": "party", "at": (2, 2)},
                    {"id": "gob", "template": "goblin", "team": "monsters", "at": (6, 2)}], seed=4)
    scene, ctl = ready(s)
    assert ctl.current().id == "ilde" and {"grease", "glitterdust"} <= set(ctl.spell_options())
    while scene.spell_choice != "grease":
        ctl.cycle_spell()
    assert ctl.spell_action((6, 2)).at == (6, 2)                  # its north-west square
    assert sorted(ctl.spell_area((6, 2))) == [(6, 2), (6, 3), (7, 2), (7, 3)]
    while scene.spell_choice != "glitterdust":
        ctl.cycle_spell()
    assert ctl.spell_action((6, 2), point=(6.9, 2.2)).at == (7, 2)   # the nearest grid intersection


def test_b_cuts_at_the_gizzard_when_swallowed():
    """docs/rules.md §11.13: swallowed, with a light slashing or piercing weapon in hand, B cuts at
    the gizzard (an attack on AC 17); the swallowed token wears its W badge on the worm."""
    cave = ["w" * 12] * 6
    s = spec(cave, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (5, 1)},
                    {"id": "worm", "template": "purple-worm", "team": "monsters", "at": (0, 0)}],
             seed=2, legend={"w": (30, 20)})
    scene, ctl = ready(s)
    enc = ctl.enc
    bruna, worm = enc.creatures["bruna"], enc.creatures["worm"]
    mark = len(enc.events)
    swallow._put_inside(enc, worm, bruna, "swallowed")   # as a won swallow would (its events shown)
    scene.feed(enc.events[mark:])
    scene.director.skip_queue()
    assert ctl.perform(Draw(attack="dagger"))
    scene.director.skip_queue()
    n = len(enc.events)
    assert ctl.break_free()
    cut = [e for e in enc.events[n:] if isinstance(e, ev.Attack)]
    assert cut and cut[0].ac == 17 and cut[0].target == "worm"
    scene.director.skip_queue()
    scene.update(1 / 60)
    cv = scene.model.creatures["bruna"]
    assert "W" in [b.text for b in badges(cv)] and cv.squares[0] in scene.model.creatures["worm"].squares


def _stuck_to_a_roper(seed=4):
    from sim.engine import strands
    hall = ["#" * 18] + ["#" + "." * 16 + "#"] * 2 + ["#" * 18]     # she stands 60 ft away: out of its strands
    s = spec(hall, [{"id": "bruna", "template": "human-fighter-3", "team": "party", "at": (14, 1)},
                    {"id": "rop", "template": "roper", "team": "monsters", "at": (1, 1)}], seed=seed)
    scene, ctl = ready(s, control=("party", "monsters"))
    for _ in range(4):          # the roper's turn (both sides are the players'): passed
        if ctl.current().id == "bruna":
            break
        ctl.end_turn()
        scene.director.skip_queue()
        ctl.pump()
    assert ctl.current().id == "bruna"
    scene.director.skip_queue()
    enc = ctl.enc
    strands.stick(enc, enc.creatures["rop"], enc.creatures["bruna"])
    return scene, ctl


def test_b_breaks_free_of_a_ropers_strand_and_m_cuts_it():
    """docs/rules.md §11.15: stuck to a strand, B breaks free (the better of Escape Artist and
    Strength: a fighter's Strength, DC 19); M five times then a click on the roper cuts it."""
    scene, ctl = _stuck_to_a_roper()
    n = len(ctl.enc.events)
    ctl.break_free()
    check, = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Check)]
    assert (check.skill, check.dc, check.cause) == ("strength", 19, "strand")
    scene, ctl = _stuck_to_a_roper()
    for _ in range(5):
        ctl.cycle_maneuver()
    assert scene.maneuver_choice == "cut_strand"
    n = len(ctl.enc.events)
    ctl.click_square((1, 1))
    opp, = [e for e in ctl.enc.events[n:] if isinstance(e, ev.Opposed)]
    assert opp.purpose == "sever_strand" and opp.target_modifiers["attached"] == -4
