"""The documentation cannot rot (issue 32): the README stays short and its test command is CI's;
every relative link of the README and the site resolves; every shell block marked runnable in the
README and the tutorials runs, in order, on a scratch copy of the shipped maps; the site builds with
``mkdocs build --strict``; the example notebook runs.

A block is runnable when the line before its opening fence is ``<!-- run -->`` (an HTML comment:
GitHub and the site show nothing). The site and the notebook need the docs extra
(``pip install -e '.[docs]'``, which the README's test command installs); without it those two
tests are skipped with that reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_MAX_LINES = 300
BLOCK_SECONDS = 240        # one block's bound; the slowest, a 40-fight batch, takes 5-15 s on the 2-core machine
MARK = "<!-- run -->"
FENCE = re.compile(r"^```(\w*)\s*$")


def runnable_blocks(text: str) -> list[tuple[int, str, str]]:
    """(line, language, code) of each fenced block whose opening fence follows the run mark.

    >>> runnable_blocks("x\\n<!-- run -->\\n```sh\\necho hi\\n```\\n```sh\\nnot me\\n```\\n")
    [(3, 'sh', 'echo hi')]
    """
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            if i > 0 and lines[i - 1].strip() == MARK:
                out.append((i + 1, m.group(1), "\n".join(lines[i + 1:j])))
            i = j + 1
        else:
            i += 1
    return out


def documents() -> list[Path]:
    return [README, *sorted((DOCS / "tutorials").glob("*.md"))]


def test_the_readme_is_short():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines; at most {README_MAX_LINES}: move the detail to docs/"


def test_the_readme_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert ci in README.read_text(encoding="utf-8"), f"README.md must show CI's test command: {ci}"
    assert "'.[test,docs]'" in ci


def test_every_tutorial_and_the_readme_has_runnable_blocks():
    for doc in documents():
        blocks = runnable_blocks(doc.read_text(encoding="utf-8"))
        assert blocks, f"{doc.relative_to(ROOT)} marks no block {MARK}"
        for line, lang, _ in blocks:
            assert lang in ("sh", "bash"), f"{doc.relative_to(ROOT)}:{line}: a runnable block is sh or bash"


GENERATED = {DOCS / "reference.md"}   # written by docs/hooks/reference.py when the site is built
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def test_every_relative_link_resolves():
    """A link to a file (and an image) from the README or a page of the site names a file that
    exists; links within the site are also checked, anchors included, by ``mkdocs build --strict``."""
    bad = []
    for doc in [README, ROOT / "CHANGELOG.md", *sorted(DOCS.rglob("*.md"))]:
        for m in LINK.finditer(doc.read_text(encoding="utf-8")):
            target = next(g for g in m.groups() if g)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (doc.parent / path).exists() and (doc.parent / path).resolve() not in GENERATED:
                bad.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not bad, "links to files that do not exist:\n" + "\n".join(bad)


def _scratch(tmp_path: Path) -> Path:
    """A scratch folder laid out as a checkout's top: a copy of maps/ and tests/data/."""
    shutil.copytree(ROOT / "maps", tmp_path / "maps")
    shutil.copytree(ROOT / "tests" / "data", tmp_path / "tests" / "data")
    return tmp_path


def _env() -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)   # the environment's `cavesim` script
    return {**os.environ, "PYTHONPATH": str(ROOT), "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
            "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "COLUMNS": "120"}


def _one_core() -> None:
    """Run a block on one core (this test worker's own, under pytest-xdist): a batch then plays in
    this process instead of starting a pool of its own beside the suite's workers."""
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        os.sched_setaffinity(0, {cpus[int(worker[2:] or 0) % len(cpus)]})


@pytest.mark.parametrize("doc", documents(), ids=lambda p: p.name)
def test_the_runnable_blocks_run(doc, tmp_path):
    """Each document's blocks in order in one scratch folder (a tutorial's steps build on each other)."""
    if shutil.which("cavesim", path=_env()["PATH"]) is None:
        pytest.skip("no `cavesim` command in this environment: pip install -e . first")
    where = _scratch(tmp_path)
    for line, _, code in runnable_blocks(doc.read_text(encoding="utf-8")):
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=where, env=_env(), capture_output=True,
                           text=True, timeout=BLOCK_SECONDS, stdin=subprocess.DEVNULL, preexec_fn=_one_core)
        assert r.returncode == 0, (f"{doc.relative_to(ROOT)}:{line}: the block exited {r.returncode}\n{code}\n"
                                   f"--- stdout\n{r.stdout[-2000:]}\n--- stderr\n{r.stderr[-2000:]}")
        assert "Traceback" not in r.stderr, r.stderr[-2000:]


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("material", reason="the docs extra is not installed: pip install -e '.[docs]'")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                       cwd=ROOT, env={**_env(), "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    assert "cavesim fight" in reference and "--vary" in reference   # the generated command reference
    assert (tmp_path / "site" / "tutorials" / "dm" / "index.html").exists()


def test_the_example_notebook_runs(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="the docs extra is not installed: pip install -e '.[docs]'")
    nbclient = pytest.importorskip("nbclient", reason="the docs extra is not installed: pip install -e '.[docs]'")
    pytest.importorskip("ipykernel", reason="the docs extra is not installed: pip install -e '.[docs]'")
    nb = nbformat.read(DOCS / "notebooks" / "api.ipynb", as_version=4)
    where = _scratch(tmp_path)
    old = {k: os.environ.get(k) for k in ("PYTHONPATH",)}
    os.environ["PYTHONPATH"] = str(ROOT)
    try:
        nbclient.NotebookClient(nb, timeout=BLOCK_SECONDS, kernel_name="python3",
                                resources={"metadata": {"path": str(where)}}).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("party" in str(o.get("data", o.get("text", ""))) for o in outputs)
