"""One-way imports, proven from the source (README "How the code is laid out").

* The import graph of ``sim/`` -- every ``import`` and ``from ... import`` of a ``sim`` module, at
  module level, under ``if TYPE_CHECKING:`` and inside functions -- has no cycle.
* No ``sim`` import sits inside a function outside ``sim/cli`` and ``sim/render`` (those two load
  the renderer and the engine lazily on purpose); below them, a module says at its top what it
  depends on.
* Every module imports alone, in an interpreter where no other ``sim`` module was imported first
  (so no module works only because another one happened to be imported before it).
"""

from __future__ import annotations

import ast
import graphlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"
LAZY_OK = ("sim.cli", "sim.render", "sim.view")  # the layers that may import inside functions


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(SIM.rglob("*.py"))}


def _target(node: ast.ImportFrom | ast.Import, here: str, is_package: bool) -> list[str]:
    """The sim modules one import statement loads (``from pkg import sub`` loads ``pkg.sub``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name == "sim" or a.name.startswith("sim.")]
    base = node.module or ""
    if node.level:  # relative import
        pkg = here.split(".") if is_package else here.split(".")[:-1]
        pkg = pkg[:len(pkg) - (node.level - 1)]
        base = ".".join(pkg + ([base] if base else []))
    if not (base == "sim" or base.startswith("sim.")):
        return []
    out = []
    for a in node.names:
        sub = f"{base}.{a.name}"
        out.append(sub if sub in MODULES else base)
    return out


def imports() -> list[tuple[str, str, int, bool]]:
    """(importer, imported, line, inside a function) for every sim import under sim/."""
    rows = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        is_package = path.name == "__init__.py"

        def walk(node, in_function: bool):
            for child in ast.iter_child_nodes(node):
                inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for t in _target(child, name, is_package):
                        if t != name:
                            rows.append((name, t, child.lineno, in_function))
                walk(child, inside)

        walk(tree, False)
    return rows


def test_the_import_graph_of_sim_has_no_cycle():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for a, b, _, _ in imports():
        graph[a].add(b)
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        cycle = exc.args[1]
        pytest.fail("import cycle: " + " -> ".join(cycle))


def test_no_sim_import_inside_a_function_below_cli_and_render():
    bad = [f"{MODULES[a].relative_to(ROOT)}:{line} imports {b}" for a, b, line, inside in imports()
           if inside and not a.startswith(LAZY_OK)]
    assert not bad, "sim imports inside functions (move them to the top of the file):\n" + "\n".join(bad)


def test_the_engine_never_picks_its_ai_and_the_ai_never_imports_the_turn_loop():
    """Only engine.fight imports the AI (review §1.3: the engine chose its own AI); the AI
    imports the rule modules, not engine.encounter; nothing in the engine imports the loaders."""
    rows = {(a, b) for a, b, _, _ in imports()}
    ai = "sim.engine.ai"
    assert {a for a, b in rows if b.startswith(ai) and a.startswith("sim.engine") and not a.startswith(ai)} \
        == {"sim.engine.fight"}
    assert not {(a, b) for a, b in rows if a.startswith(ai) and b == "sim.engine.encounter"}
    assert not {a for a, b in rows if a.startswith("sim.engine") and b in ("sim.scenario.files", "sim.crawl.run")}


def test_the_graph_sees_function_level_and_relative_imports():
    """The scanner itself: it finds an import inside a function, and resolves ``from pkg import sub``."""
    rows = imports()
    assert any(a.startswith("sim.cli") and inside for a, _, _, inside in rows)
    assert ("sim.engine.moves", "sim.engine.attacks") in {(a, b) for a, b, _, _ in rows}


# Each child gets its own interpreter state for sim: the parent imports only third-party libraries
# before forking (never a sim module: the driver checks), so a child that imports one sim module
# sees no sim module loaded before it. Forking, with the libraries loaded once, keeps the whole
# check to seconds instead of a process start and a scipy/numba/pygame import per module.
THIRD_PARTY = ("numpy", "numba", "numba.core.cgutils", "numba.extending", "llvmlite.ir", "scipy.ndimage",
               "scipy.sparse", "scipy.sparse.csgraph", "scipy.spatial", "scipy.special", "matplotlib",
               "matplotlib.backends.backend_agg", "matplotlib.figure", "matplotlib.patches", "PIL.Image",
               "pygame", "rich.console", "rich.table", "rich.progress", "rich.markup")
_DRIVER = textwrap.dedent("""
    import importlib, os, sys, traceback
    for lib in THIRD_PARTY:  # the libraries sim uses, loaded once (a second or more each)
        try:
            importlib.import_module(lib)
        except ImportError:
            pass
    assert not any(m == "sim" or m.startswith("sim.") for m in sys.modules)
    failed = []
    for name in sys.argv[1:]:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                importlib.import_module(name)
                code = 0
            except BaseException:
                os.write(w, traceback.format_exc().encode()[-4000:])
                code = 1
            os._exit(code)
        os.close(w)
        msg = b""
        while chunk := os.read(r, 65536):
            msg += chunk
        os.close(r)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            failed.append(name + ":\\n" + msg.decode(errors="replace"))
    print("\\n".join(failed))
    sys.exit(1 if failed else 0)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_every_module_imports_alone_in_a_fresh_interpreter():
    names = [m for m in MODULES if m != "sim.__main__"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    driver = f"THIRD_PARTY = {THIRD_PARTY!r}\n" + _DRIVER
    proc = subprocess.run([sys.executable, "-c", driver, *names], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, "modules that do not import alone:\n" + proc.stdout + proc.stderr[-3000:]
