"""Crawl files written inline, for the crawl tests and the crawl-view tests."""

import json
import textwrap

FIGHTER = """
schema_version = 1
name = "Chainmail fighter"
kind = "pc"
race = "human"
sex = "male"
feats = ["Combat Reflexes", "Weapon Focus (longsword)", "Power Attack"]
armor = "chainmail"

[levels]
fighter = 1

[abilities]
str = 15
dex = 13
con = 14
int = 10
wis = 12
cha = 8

[skills]
climb = 4
escape_artist = 2

[[weapon]]
name = "longsword"
"""


def crawl_file(tmp_path, rows, legend, party, *, frm, to, extra="", seed=1):
    (tmp_path / "fighter.toml").write_text(FIGHTER)
    grid = "\n".join(rows)
    legend_lines = "\n".join(f'"{k}" = {v}' for k, v in legend.items())
    text = textwrap.dedent(f'''
        [crawl]
        from = "{frm}"
        to = "{to}"
        seed = {seed}
        party = {json.dumps(party)}

        [map]
        name = "test"
        grid = """
        {grid}
        """

        [legend]
        "#" = "wall"
        "." = {{ width = 30, height = 12 }}
        {legend_lines}
        ''').replace("\n        ", "\n")
    p = tmp_path / "crawl.toml"
    p.write_text(text + extra)
    return p
