"""Behaviour frozen as hashes: every shipped encounter x five seeds, the shipped crawl's JSON and a
20-fight batch CSV. A refactor that keeps every roll keeps every hash. A change that is meant to
change fights regenerates them (``CAVESIM_REGEN_GOLDENS=1 python -m pytest tests/engine/test_goldens.py``)
and says in its commit which fights changed and why."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from sim.cli import main as cli_main
from sim.crawl.run import run_crawl
from sim.engine.fight import new_encounter
from sim.engine.events import dumps
from sim.scenario.files import load_crawl, load_encounter
from sim.story.crawlwords import crawl_json
from sim.base.paths import maps_dir

GOLDEN = Path(__file__).with_name("goldens.json")
ENCOUNTERS = ["demo", "kobold_warren", "ogre_tunnel", "fissure_hold", "rat_crack", "bat_gallery",
              "hellwasp_torches", "darkmantle_roost", "drow_patrol", "great_vault", "grimlock_den", "ooze_cellar",
              "otyugh_midden", "spider_gallery", "troll_hall", "umber_hulk", "vermin_pit", "web_mouth"]
SEEDS = range(5)
REGEN = os.environ.get("CAVESIM_REGEN_GOLDENS") == "1"


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _fight_hashes() -> dict[str, str]:
    out = {}
    for name in ENCOUNTERS:
        spec = load_encounter(maps_dir() / f"{name}.toml")
        for seed in SEEDS:
            enc = new_encounter(spec, seed=seed)
            enc.run()
            out[f"fight:{name}:{seed}"] = _sha(dumps(enc.events))
    return out


def _crawl_hash() -> dict[str, str]:
    result = run_crawl(load_crawl(maps_dir() / "crawl_warrens.toml"))
    return {"crawl:crawl_warrens": _sha(json.dumps(crawl_json(result), sort_keys=True))}


def _batch_hash(tmp_path: Path) -> dict[str, str]:
    out = tmp_path / "batch.csv"
    code = cli_main(["fight", str(maps_dir() / "demo.toml"), "--runs", "20", "--seed", "3", "--workers", "1",
                     "--out", str(out), "--quiet"])
    assert code == 0
    return {"batch:demo:20": _sha(out.read_bytes())}


def _recorded() -> dict[str, str]:
    return json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


@pytest.fixture(scope="module")
def current(tmp_path_factory) -> dict[str, str]:
    got = {**_fight_hashes(), **_crawl_hash(), **_batch_hash(tmp_path_factory.mktemp("golden"))}
    if REGEN:
        GOLDEN.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
    return got


def test_every_golden_is_recorded(current):
    assert sorted(_recorded()) == sorted(current)


@pytest.mark.parametrize("key", sorted(_recorded()))
def test_golden_hash_unchanged(current, key):
    assert current[key] == _recorded()[key], f"{key}: the events changed (regenerate only on purpose)"
