"""docs/rules.md: the shipped rules reference the code cites as "RULES §n"."""

import re
from pathlib import Path

import pytest

from sim.terrain.classify import classify_square
from sim.rules.bodies import body_for
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.terrain.thresholds import block, rewrite, thresholds

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"


def test_threshold_tables_in_the_doc_are_the_generated_ones():
    text = DOC.read_text(encoding="utf-8")
    assert block() in text, "run: python -m sim.terrain.thresholds --write docs/rules.md"
    assert rewrite(text) == text


def test_rewrite_refuses_a_file_without_markers():
    with pytest.raises(ValueError, match="markers"):
        rewrite("no table here")


@pytest.mark.parametrize("size", list(Size))
def test_thresholds_are_the_category_boundaries(size):
    """Just at a threshold the square is that category; a hair below it is worse."""
    body = body_for(size)
    t = thresholds(body)
    for name, w in t.width.items():
        assert classify_square(w, 1e4, body) == Category[name]
        assert classify_square(w * (1 - 1e-9), 1e4, body) > Category[name]
    for name, c in t.ceiling.items():
        assert classify_square(1e4, c, body) == Category[name]
        assert classify_square(1e4, c * (1 - 1e-9), body) > Category[name]


def test_medium_thresholds_are_the_rules_numbers():
    """RULES §2.3 / §2.9: S 5, H 6, depth 0.75, head 0.5."""
    t = thresholds(body_for("medium"))
    assert t.width == {"CLEAR": 5.0, "NARROW_OR_LOW": 2.5, "AWKWARD": 0.75, "TIGHT_SQUEEZE": 0.5}
    assert t.ceiling == {"CLEAR": 6.0, "NARROW_OR_LOW": 3.0, "CRAWL": 1.5, "AWKWARD": 0.75,
                         "TIGHT_SQUEEZE": 0.5}


def _sections(text: str) -> set[str]:
    found = set()
    for m in re.finditer(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", text, re.M):
        found.add(m.group(2))
    for m in re.finditer(r"^(\d+)\. \*\*", text.split("## 7. Project decisions")[1].split("## 8.")[0], re.M):
        found.add(f"7.{m.group(1)}")
    for m in re.finditer(r"^(\d+)\. ", text.split("### 9.3")[1].split("## 10")[0], re.M):
        found.add(f"9.3.{m.group(1)}")
    return found


def test_every_section_the_code_cites_exists():
    """Every "§n" in the code, tests and README names a section of docs/rules.md."""
    have = _sections(DOC.read_text(encoding="utf-8"))
    cited = set()
    for folder in ("sim", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            cited |= set(re.findall(r"RULES §(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    for path in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:   # the README and the site's pages
        cited |= set(re.findall(r"RULES §(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    missing = sorted(c for c in cited if c not in have)
    assert not missing, f"cited but not in docs/rules.md: {missing}"


def test_no_file_points_at_the_outside_reference():
    for path in [ROOT / "README.md", *ROOT.glob("docs/**/*.md"), *(ROOT / "sim").rglob("*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path
