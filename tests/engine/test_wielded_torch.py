"""``lit = true`` lights a torch the stat block wields as a ``[[weapon]]`` (issue 34 item 3).

SRD, Torch (Goods and Services): "A torch burns for 1 hour, clearly illuminating a 20-foot radius
and providing shadowy illumination out to a 40- foot radius. If a torch is used in combat, treat
it as a one-handed improvised weapon that deals bludgeoning damage equal to that of a gauntlet of
its size, plus 1 point of fire damage." (RULES §3.5: 1d3 Medium; against a swarm, 1d3 fire a hit.)

A stat block with ``[[weapon]] name = "torch"`` and no torch in its ``[gear]``, told ``lit = true``
by the encounter, used to fight with an unlit torch (bludgeoning only) and to stand blinded in the
dark. Now it carries that torch lit; where nothing can be lit, the encounter is refused."""

from __future__ import annotations

import json

from sim.cli import main as cli_main
from sim.engine import attacks
from sim.engine.actions import Strike
from sim.engine.fight import new_encounter
from sim.scenario.files import load_encounter
from tests.engine.helpers import encounter, ready
from tests.engine.test_spells import Fixed, of_type, turn_of
from tests.test_fuzz import run_cli

BEARER = """schema_version = 1
name = "Torch bearer"
kind = "monster"
size = "medium"
type = "humanoid"
racial_hd = 1

[abilities]
str = 12
dex = 10
con = 10
int = 10
wis = 10
cha = 10

[speed]
land = 30

[[weapon]]
name = "torch"
"""

ENCOUNTER = """[encounter]
name = "Torch test"
seed = 1

[map]
name = "corridor"
units = "ft"
grid = \"\"\"
##################
#................#
##################
\"\"\"

[legend]
"#" = "wall"
"." = {{ width = 10, height = 12 }}

[[combatant]]
id = "b"
template = "{template}"
team = "party"
at = [1, 1]
lit = true

[[combatant]]
id = "g"
template = "goblin"
team = "monsters"
at = [16, 1]
"""


def _bearer(tmp_path):
    p = tmp_path / "bearer.toml"
    p.write_text(BEARER)
    return str(p)


def test_the_wielded_torch_is_lit_and_burns(tmp_path):
    """d20 19 + Str 1 - 4 improvised = 16 hits the goblin (AC 15): 1d3 (3) + Str 1 bludgeoning and 1
    fire; against a bat swarm 1d3 (3) fire."""
    enc = ready(encounter(["....."], [{"id": "b", "template": _bearer(tmp_path), "team": "p", "at": [1, 0],
                                       "lit": True},
                                      {"id": "g", "template": "goblin", "team": "m", "at": [2, 0]}]))
    b = turn_of(enc, "b")
    assert b.wielding == "torch" and b.torch_lit and b.items == {"torch": 1}
    assert not attacks.unlit_torch(b, b.attack_named("torch"))
    enc.rng = Fixed(19, 3)
    n = len(enc.events)
    assert enc.perform(Strike("g", "torch"))
    (atk,) = of_type(enc, "attack", n)
    assert atk.hit and atk.modifiers["improvised"] == -4
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.parts == {"bludgeoning": 3 + 1, "fire": 1}
    swarm = ready(encounter(["......"], [{"id": "b", "template": _bearer(tmp_path), "team": "p", "at": [1, 0],
                                          "lit": True},
                                         {"id": "s", "template": "bat-swarm", "team": "m", "at": [2, 0]}]))
    b, s = swarm.creatures["b"], swarm.creatures["s"]
    plan = attacks.plan_attack(swarm, b, b.attack_named("torch"), s)
    swarm.rng = Fixed(3)
    hp = s.hp
    attacks.weapon_damage(swarm, plan, critical=False, multiplier=2)
    assert s.hp == hp - 3


def test_unlit_it_is_still_a_club(tmp_path):
    enc = ready(encounter(["....."], [{"id": "b", "template": _bearer(tmp_path), "team": "p", "at": [1, 0]},
                                      {"id": "g", "template": "goblin", "team": "m", "at": [2, 0]}]))
    b = turn_of(enc, "b")
    assert not b.torch_lit and b.items == {"torch": 1}
    enc.rng = Fixed(19, 3)
    n = len(enc.events)
    assert enc.perform(Strike("g", "torch"))
    (dmg,) = of_type(enc, "damage", n)
    assert dmg.parts == {"bludgeoning": 3 + 1}


def test_cavesim_light_shows_the_torch_and_the_bearer_sees(tmp_path, capsys):
    """The torch sheds 20 ft bright and 40 ft shadowy from the bearer's square (1, 1), counted from
    its nearest corner: x = 1..5 bright, 6..9 shadowy, 10.. dark; the bearer is not blinded (its
    square is bright; unlit it would be: no darkvision)."""
    _bearer(tmp_path)
    enc_file = tmp_path / "enc.toml"
    enc_file.write_text(ENCOUNTER.format(template="bearer.toml"))
    spec = load_encounter(enc_file)
    enc = new_encounter(spec)
    enc.start()
    b = enc.creatures["b"]
    assert b.torch_lit and not enc.blinded(b)
    assert cli_main(["light", str(enc_file), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lights"] == [{"name": "torch (b)", "at": [1, 1], "bright_ft": 20.0, "shadowy_ft": 40.0}]
    assert "b" not in out["blinded"]
    row = out["levels"][1]
    assert row[1:6] == ["bright"] * 5 and row[6:10] == ["shadowy"] * 4 and row[10:17] == ["dark"] * 7


def test_validate_refuses_lit_with_nothing_to_light(tmp_path):
    """A goblin (no torch, no lantern) told lit = true: exit 2, one line naming the file and the key."""
    enc_file = tmp_path / "enc.toml"
    enc_file.write_text(ENCOUNTER.format(template="goblin"))
    code, err, exc = run_cli(["validate", str(enc_file)])
    assert (code, exc) == (2, None)
    lines = [ln for ln in err.splitlines() if "enc.toml" in ln]
    assert len(lines) == 1 and "Traceback" not in err
    assert "enc.toml:18: [[combatant]] 'b' lit: B has nothing to light" in lines[0]
    assert not list(tmp_path.glob("*.tmp*"))
