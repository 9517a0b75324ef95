"""The bestiary (README "The bestiary"): every new stat block's derived numbers against the SRD's
printed ones, its riders' DCs, the sizes it covers, and the refusals of a bad block."""

import textwrap

import pytest

from sim.base.errors import DataError
from sim.rules.sizes import Size
from sim.rules.statblocks import list_templates, load_template
from sim.rules.statblocks.specials import ability_table

from .bestiary_table import BESTIARY, BESTIARY_ATTACKS, BESTIARY_DECIDED


@pytest.mark.parametrize("name", list(BESTIARY))
def test_derived_equals_the_printed_block(name):
    b = load_template(name)
    hd, hp, init, speed, ac, touch, ff, bab, grapple, fort, ref, will = BESTIARY[name]
    assert b.hit_dice_text == hd
    assert b.hp == hp
    assert b.initiative == init
    assert b.speed.land == speed
    assert (b.ac, b.touch_ac, b.flat_footed_ac) == (ac, touch, ff)
    assert (b.bab, b.grapple) == (bab, grapple)
    assert (b.saves.fort, b.saves.ref, b.saves.will) == (fort, ref, will)


@pytest.mark.parametrize("name", list(BESTIARY))
def test_printed_values_all_derived_but_the_documented_srd_errors(name):
    b = load_template(name)
    assert {d.field for d in b.disagreements} == BESTIARY_DECIDED.get(name, set())
    assert all(d.decided_by and "SRD error" in d.decided_by for d in b.disagreements)
    # the printed grapple, saves and AC are all in the file (so the comparison above is real)
    for key in ("hp", "ac", "touch", "flat_footed", "bab", "grapple", "fort", "ref", "will"):
        assert key in b.printed, key


@pytest.mark.parametrize("name", list(BESTIARY_ATTACKS))
def test_attacks(name):
    b = load_template(name)
    for attack, bonus, damage in BESTIARY_ATTACKS[name]:
        a = b.attack(attack)
        assert (a.bonus, str(a.damage)) == (bonus, damage), attack


def test_full_attacks_of_the_umber_hulk_and_the_rust_monster():
    hulk = load_template("umber-hulk")
    assert [(a.name, a.count, a.bonus, str(a.damage)) for a in hulk.full_attacks[0]] == [
        ("claw", 2, 11, "2d4+6"), ("bite", 1, 9, "2d8+3")]                # Multiattack: secondary -2
    rust = load_template("rust-monster")
    antennae = rust.attack("antennae")
    assert antennae.touch and antennae.riders == ("rust",) and antennae.damage.average == 0


# poison: (Fort DC, initial = secondary damage) by size (SRD Vermin tables)
SPIDER_POISON = {"tiny": (10, "1d2 str"), "small": (10, "1d3 str"), "medium": (12, "1d4 str"),
                 "large": (13, "1d6 str"), "huge": (16, "1d8 str"), "gargantuan": (20, "2d6 str"),
                 "colossal": (28, "2d8 str")}
SPIDER_WEB = {"tiny": (10, 14), "small": (10, 14), "medium": (12, 16), "large": (13, 17), "huge": (16, 20),
              "gargantuan": (20, 24), "colossal": (28, 32)}
CENTIPEDE_POISON = {"tiny": (10, "1 dex"), "small": (10, "1d2 dex"), "medium": (10, "1d3 dex"),
                    "large": (11, "1d4 dex"), "huge": (14, "1d6 dex"), "gargantuan": (17, "1d8 dex"),
                    "colossal": (23, "2d6 dex")}


@pytest.mark.parametrize("size", list(SPIDER_POISON))
def test_spider_poison_and_web_dcs(size):
    b = load_template(f"monstrous-spider-{size}")
    poison = next(r for r in b.riders if r.kind == "poison")
    assert (poison.dc, poison.initial, poison.secondary) == (*SPIDER_POISON[size], SPIDER_POISON[size][1])
    web = next(r for r in b.riders if r.kind == "web")
    assert (web.dc, web.dc + web.break_bonus) == SPIDER_WEB[size]        # escape DC, break DC (Con-based, +4)
    assert (web.uses_per_day, web.range_ft) == (8, 50)
    assert b.attack("web").touch and b.attack("web").range_ft == 10 and b.attack("web").mode == "ranged"


@pytest.mark.parametrize("size", list(CENTIPEDE_POISON))
def test_centipede_poison_dcs(size):
    b = load_template(f"monstrous-centipede-{size}")
    (poison,) = b.riders
    assert (poison.dc, poison.initial) == CENTIPEDE_POISON[size]


def test_other_specials():
    hulk = load_template("umber-hulk")
    (gaze,) = hulk.riders
    assert (gaze.kind, gaze.save, gaze.dc, gaze.range_ft, gaze.effect, gaze.duration_rounds) == (
        "gaze", "will", 15, 30, "confusion", 8)                             # 10 + 8/2 + Cha 1
    (rust,) = load_template("rust-monster").riders
    assert (rust.save, rust.dc) == ("ref", 17)                              # 10 + 5/2 + Con 1 + 4 racial
    drow = load_template("drow-warrior")
    assert drow.defenses.spell_resistance == 12 and drow.senses.light_blindness
    (sleep,) = drow.riders
    assert (sleep.dc, sleep.effect) == (13, "unconscious")
    assert drow.attack("hand-crossbow").riders == ("drow-poison",) and drow.attack("rapier").riders == ()
    assert load_template("duergar-warrior").senses.light_sensitivity
    assert load_template("svirfneblin-warrior").defenses.spell_resistance == 12
    grim = load_template("grimlock")
    assert grim.senses.blindsight_ft == 40 and "gaze" in grim.defenses.immune
    assert load_template("dire-bat").senses.blindsense_ft == 40
    assert load_template("army-ant-swarm").swarm.distraction_dc == 15


def test_the_bestiary_covers_every_size_fine_to_colossal():
    sizes = {load_template(n).size for n in list_templates("monster")}
    assert sizes == set(Size)


def test_every_new_block_lists_what_it_does_not_play():
    for name in BESTIARY:
        b = load_template(name)
        assert b.source.unmodelled, name
        assert all(k in ability_table() for k in b.source.unmodelled)


MINIMAL = """
schema_version = 1
name = "Cave thing"
kind = "monster"
size = "medium"
type = "aberration"
racial_hd = 2

[abilities]
str = 12
dex = 11
con = 13
int = 4
wis = 10
cha = 6

[speed]
land = 20

[[natural]]
name = "bite"
damage = "1d6"
"""


def _write(tmp_path, text, name="thing.toml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


@pytest.mark.parametrize("extra,pattern", [
    ('unmodelled = ["sheet-webb"]\n', r"thing\.toml: unmodelled: unknown ability 'sheet-webb': did you mean sheet-web"),
    ('unmodeled = ["sheet-web"]\n', r"thing\.toml: unmodeled: unknown key; a stat block has"),
    ('racial_hd = "1/3"\n', None),
])
def test_bad_unmodelled_and_hit_dice(tmp_path, extra, pattern):
    text = extra + MINIMAL if "racial_hd" not in extra else MINIMAL.replace("racial_hd = 2", extra.strip())
    pattern = pattern or r"thing\.toml: racial_hd: must be a whole number or \"1/4\" or \"1/2\", got '1/3'"
    with pytest.raises(DataError, match=pattern):
        load_template(_write(tmp_path, text))


@pytest.mark.parametrize("rider,pattern", [
    ('kind = "webb"', r"\[\[rider\]\] #1 kind: must be one of poison, disease, wounding, web, rust, gaze, strand, weakness, improved_grab, constrict, swallow_whole, engulf, paralysis, got 'webb'"),
    ('kind = "gaze"\nsave = "will"\ndc_ability = "cha"\nrange_ft = 30\neffect = "petrify"',
     r"\[\[rider\]\] #1 effect: must be one of confusion, got 'petrify'"),
    ('kind = "gaze"\nsave = "will"\ndc_ability = "cha"\neffect = "confusion"', r"a gaze needs range_ft = 30"),
    ('kind = "rust"\ndc_ability = "con"', r"\[\[rider\]\] #1 save: must be fort, ref or will"),
    ('kind = "web"\ndc_ability = "con"\nuses_per_day = -1', r"uses_per_day: must be a whole number 0..1000"),
])
def test_bad_riders(tmp_path, rider, pattern):
    text = MINIMAL + f'\n[[rider]]\nkey = "x"\n{rider}\n'
    with pytest.raises(DataError, match=pattern):
        load_template(_write(tmp_path, text))


def test_bad_spell_resistance_and_save_bonus(tmp_path):
    with pytest.raises(DataError, match=r"\[defenses\] spell_resistance: must be"):
        load_template(_write(tmp_path, MINIMAL + '\n[defenses]\nspell_resistance = "high"\n'))
    with pytest.raises(DataError, match=r"save_bonus: a racial bonus on every save, 0 to 10, got 40"):
        load_template(_write(tmp_path, "save_bonus = 40\n" + MINIMAL))


@pytest.mark.parametrize("extra,message", [
    ('[[rider]]\nkey = "x"\nkind = "webb"\n', "[[rider]] #1 kind: must be one of poison, disease, wounding, web, rust, gaze, strand, weakness, improved_grab, constrict, swallow_whole, engulf, paralysis, got 'webb'"),
    ('unmodelled = ["clingg"]\n', "unmodelled: unknown ability 'clingg': did you mean cling"),
])
def test_validate_gives_one_located_message_and_exit_2(tmp_path, capsys, extra, message):
    from sim.cli import main as cli_main
    text = (MINIMAL + "\n" + extra) if extra.startswith("[[") else extra + MINIMAL
    p = _write(tmp_path, text, "beast.toml")
    assert cli_main(["validate", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}: {message}" in err
    assert err.count("cavesim: error") == 1 and "Traceback" not in err


def test_the_docs_bestiary_table_lists_every_block_and_what_it_does_not_play():
    from pathlib import Path
    page = (Path(__file__).resolve().parents[2] / "docs" / "statblocks.md").read_text(encoding="utf-8")
    section = page.split("## The bestiary", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip().strip("`"): line for line in section.splitlines()
            if line.startswith("| `")}
    for name in BESTIARY:
        b = load_template(name)
        assert name in rows, name
        cells = [c.strip() for c in rows[name].split("|")]
        assert cells[2] == b.size.key and cells[3] == b.source.cr
        assert cells[6] == ", ".join(b.source.unmodelled), name


def test_a_weapon_rider_needs_its_rider(tmp_path):
    text = MINIMAL + '\n[[weapon]]\nname = "hand-crossbow"\nriders = ["drow-poisn"]\n'
    with pytest.raises(DataError, match=r"\[\[weapon\]\] hand-crossbow riders: no \[\[rider\]\] with key 'drow-poisn'"):
        load_template(_write(tmp_path, text))


def test_show_prints_the_specials_and_what_is_not_simulated(capsys):
    from sim.cli import main as cli_main
    assert cli_main(["show", "monstrous-spider-medium"]) == 0
    out = capsys.readouterr().out
    assert "Rider web (web): escape DC 12, break DC 16, 8 a day, up to 50 ft" in out
    assert "Not simulated: sheet-web, web-walk, hunting-spider-speed, keen-senses" in out
    assert cli_main(["show", "drow-warrior"]) == 0
    out = capsys.readouterr().out
    assert "spell resistance 12" in out and "light blindness" in out
