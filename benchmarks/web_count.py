"""Count the webs the AI casts over a batch of seeded fights, and whom they catch (docs/rules.md
§8.3's AI note): ``python -m benchmarks.web_count maps/demo.toml maps/web_mouth.toml --runs 50``.
A catch is an ``entangled`` condition a web spell's caster causes: on the cast or walking in."""

from __future__ import annotations

import argparse

from sim.engine.fight import run_fight
from sim.scenario.files import load_encounter


def count(path: str, runs: int, first: int = 1) -> dict:
    spec = load_encounter(path)
    tally = {"fights": 0, "webs": 0, "foes_caught": 0, "friends_caught": 0, "wins": {}}
    for seed in range(first, first + runs):
        enc = run_fight(spec, seed=seed)
        casters = {e.actor for e in enc.events if getattr(e, "type", "") == "spell" and e.spell == "web"}
        tally["webs"] += sum(1 for e in enc.events if getattr(e, "type", "") == "spell" and e.spell == "web")
        seen = set()   # a catch: one creature, one round (its Condition comes twice)
        for e in enc.events:
            if getattr(e, "type", "") == "condition" and e.condition == "entangled" and e.active and e.cause in casters:
                if (e.round, e.target) in seen:
                    continue
                seen.add((e.round, e.target))
                side = enc.creatures[e.target].team == enc.creatures[e.cause].team
                tally["friends_caught" if side else "foes_caught"] += 1
        tally["fights"] += 1
        tally["wins"][enc.winner] = tally["wins"].get(enc.winner, 0) + 1
    return tally


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("encounters", nargs="+")
    p.add_argument("--runs", type=int, default=50)
    a = p.parse_args()
    for path in a.encounters:
        print(path, count(path, a.runs))


if __name__ == "__main__":
    main()
