"""Crawls the shipped golden (maps/crawl_warrens.toml) does not reach, frozen as hashes of what
``cavesim crawl`` printed (``--json``, and the text timeline) before the crawl's output was typed:
armour kept off because a fight is near, a torch burning out and the next one lit, a member falling
in a fight the party wins, and a party that loses. Never regenerate: a changed hash is a changed
crawl."""

from __future__ import annotations

import hashlib
import json

import pytest

from sim.cli import main
from sim.crawl.records import FellInFight
from sim.crawl.run import run_crawl
from sim.scenario.files import load_crawl
from sim.story.crawlwords import crawl_json

from .helpers import FIGHTER, crawl_file

CRAWLWAY = {"c": "{ width = 10, height = 2.5 }"}
HALL = ["#" * 16, "#..............#", "#..............#", "#..............#", "#" * 16]
GOBLINS = "".join(f'\n[[combatant]]\ntemplate = "goblin"\nteam = "monsters"\nat = [{x}, 2]\n' for x in (11, 12, 13))


def _fight_near(tmp_path):
    """Out of a crawlway with a goblin 15 squares off behind rock: the chainmail stays off."""
    rows = ["#" * 22, "#....cc.............#", "#" * 22, "#" * 22, "#################...##",
            "#################...##", "#" * 22]
    rows = [row.ljust(22, "#") for row in rows]
    extra = '\n[[combatant]]\ntemplate = "goblin"\nteam = "monsters"\nat = [18, 4]\n'
    return crawl_file(tmp_path, rows, CRAWLWAY, ["fighter.toml", "lidda:halfling-rogue-3"], frm="1,1", to="19,1",
                      extra=extra, seed=1)


def _torch_out(tmp_path):
    """Nine crawlways in full plate, off and on each time: the torch burns out after an hour."""
    (tmp_path / "plate.toml").write_text(FIGHTER.replace('armor = "chainmail"', 'armor = "full-plate"')
                                         + "\n[gear]\ntorch = 3\n")
    row = "#." + "..cc.." * 9 + ".#"
    return crawl_file(tmp_path, ["#" * len(row), row, "#" * len(row)], CRAWLWAY, [str(tmp_path / "plate.toml")],
                      frm="1,1", to=f"{len(row) - 2},1")


def _goblins(tmp_path, seed):
    return crawl_file(tmp_path, HALL, {}, ["mialee:elf-wizard-1", "lidda:halfling-rogue-1"], frm="1,2", to="14,1",
                      extra=GOBLINS, seed=seed)


CASES = {
    "fight_near": (_fight_near, "keep_armor_off",
                   "d6fbf99d16366735da9bda039e552440818495e5e372fbfe0e09de5600e83b7b",
                   "f0b4aa603543d8e8ddc453f7aa96b9eda24379d8a4cd41efbb61cb6143f2bce8"),
    "torch_out": (_torch_out, "light_out",
                  "c1c92e42ba5fc4ef60fe85abe39d7a68f0b02e2b246d01f66c8c78dad0ce1354",
                  "35dd45255c27174c4fbbbf90d740f6c32560de82373dd36e15f022bcad2378c9"),
    "one_falls": (lambda p: _goblins(p, 2), "encounter",
                  "3f565b1bff715c3d08fe25ba7497d1e95d7213734b226f7eb1a62f6c57182254",
                  "5c86327b38163ea4aa4925161b67b0c4a44dc89079c2c7e5b6e680500a0401bc"),
    "party_loses": (lambda p: _goblins(p, 0), "encounter",
                    "48f9eede4599648f49202e8d6e3643ec119184ffefa23ab4d0e7922b63c0b1b7",
                    "c266a4d7fd01525d2dedf93831cb241f25b14282d19d59b46c7207c8d0d909c2"),
}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("name", list(CASES))
def test_the_crawl_prints_what_it_printed(tmp_path, capsys, name):
    make, kind, json_sha, text_sha = CASES[name]
    path = make(tmp_path)
    result = run_crawl(load_crawl(path))
    assert kind in {e.what for e in result.timeline}
    assert _sha(json.dumps(crawl_json(result), separators=(",", ":"))) == json_sha
    assert main(["crawl", str(path), "--headless"]) == 0
    assert _sha(capsys.readouterr().out) == text_sha


def test_the_frozen_fights_leave_who_fell_behind(tmp_path):
    """What the two fights above are about, in records."""
    won = run_crawl(load_crawl(_goblins(tmp_path, 2)))
    assert [f.winner for f in won.fights] == ["party"] and won.left_behind == {"lidda": FellInFight()}
    assert won.arrived == ("mialee",) and won.fights[0].party_standing == ("mialee",)
    lost = run_crawl(load_crawl(_goblins(tmp_path, 0)))
    assert [f.winner for f in lost.fights] == ["monsters"] and lost.arrived == ()
    assert lost.left_behind == {"mialee": FellInFight(), "lidda": FellInFight()}
