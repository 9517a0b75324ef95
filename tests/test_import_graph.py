"""One-way imports, proven from the source: the layers declared in ``sim/layers.py``.

* Every ``sim`` module belongs to one layer of the table, and the table is sane (no layer may
  import a higher one).
* Every import of a ``sim`` module -- at module level, under ``if TYPE_CHECKING:`` and inside
  functions -- goes to the importer's own layer or to one its row allows.
* The import graph of ``sim/`` has no cycle.
* No ``sim`` import sits inside a function outside ``sim/cli`` and ``sim/render``
  (those load the renderer and the engine lazily on purpose); below them, a module says at its top
  what it depends on.
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
from typing import NamedTuple

import pytest

from sim import layers

ROOT = Path(__file__).resolve().parents[1]
SIM = ROOT / "sim"
LAZY_OK = ("sim.cli", "sim.render")  # the layers that may import inside functions (to keep --help fast)


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


class Import(NamedTuple):
    """One sim import found in the source: who imports what, where, and how."""
    importer: str
    imported: str
    line: int
    in_function: bool
    type_checking: bool  # under ``if TYPE_CHECKING:`` (annotations only, never run)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def scan(name: str, source: str, *, is_package: bool = False) -> list[Import]:
    """Every sim import in one module's source, other than of the module itself."""
    rows = []

    def walk(node, in_function: bool, checking: bool):
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for t in _target(child, name, is_package):
                    if t != name:
                        rows.append(Import(name, t, child.lineno, in_function, checking))
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    walk(ast.Module(body=[stmt], type_ignores=[]), inside, True)
                for stmt in child.orelse:
                    walk(ast.Module(body=[stmt], type_ignores=[]), inside, checking)
                continue
            walk(child, inside, checking)

    walk(ast.parse(source), False, False)
    return rows


def imports() -> list[Import]:
    """Every sim import under sim/."""
    return [row for name, path in MODULES.items()
            for row in scan(name, path.read_text(), is_package=path.name == "__init__.py")]


def test_the_import_graph_of_sim_has_no_cycle():
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for a, b, *_ in imports():
        graph[a].add(b)
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        cycle = exc.args[1]
        pytest.fail("import cycle: " + " -> ".join(cycle))


def test_no_sim_import_inside_a_function_below_cli_and_render():
    bad = [f"{MODULES[a].relative_to(ROOT)}:{line} imports {b}" for a, b, line, inside, _ in imports()
           if inside and not a.startswith(LAZY_OK)]
    assert not bad, "sim imports inside functions (move them to the top of the file):\n" + "\n".join(bad)


def test_every_module_of_sim_belongs_to_one_layer_of_the_table():
    """A new module or folder finds its row, and no two rows claim it with equally long entries."""
    missing = [m for m in MODULES if layers.layer_of(m) is None]
    assert not missing, f"modules in no layer of sim/layers.py (add them to a row of LAYERS): {missing}"
    for m in MODULES:
        claims = [(len(e), name) for name, entries, _ in layers.LAYERS for e in entries if layers._covers(e, m)]
        longest = max(n for n, _ in claims)
        assert len({name for n, name in claims if n == longest}) == 1, f"{m} is claimed twice: {claims}"


def test_the_layer_table_is_sane():
    """Plain data; names unique; every entry names a module or package that exists; no layer may
    import a higher one (that would be a cycle waiting to happen)."""
    names = [name for name, _, _ in layers.LAYERS]
    assert len(set(names)) == len(names) and tuple(names) == layers.NAMES
    entries = [e for _, es, _ in layers.LAYERS for e in es]
    assert len(set(entries)) == len(entries)
    for name, es, row in layers.LAYERS:
        assert isinstance(es, tuple) and all(isinstance(e, str) for e in es)
        for e in es:
            assert e.removesuffix(".__init__") in MODULES, f"layer {name!r}: no module or package {e!r}"
        if row is not None:
            assert isinstance(row, tuple)
            for other in row:
                assert other in names, f"layer {name!r} may import {other!r}, which is no layer"
                assert names.index(other) < names.index(name), \
                    f"layer {name!r} may import {other!r}, a layer above it"
        assert all(names.index(o) <= names.index(name) for o in layers.allowed(name))


def test_the_layer_table_imports_alone_without_numpy():
    code = "import sys, sim.layers; assert 'numpy' not in sys.modules, sorted(sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_every_sim_import_follows_the_layers():
    """Module level, inside functions and under TYPE_CHECKING alike: an annotation-only import of a
    higher layer still ties the lower module to it for every reader and type checker."""
    bad = []
    for row in imports():
        if layers.may_import(row.importer, row.imported):
            continue
        a, b = layers.layer_of(row.importer), layers.layer_of(row.imported)
        where = " (under TYPE_CHECKING)" if row.type_checking else " (inside a function)" if row.in_function else ""
        bad.append(f"{MODULES[row.importer].relative_to(ROOT)}:{row.line}: {row.importer} (layer {a}) imports "
                   f"{row.imported} (layer {b}){where}; {a} may import only {', '.join(layers.allowed(a))}. "
                   f"Fix: move what it needs down to {a} or below, or the importer up to {b} or above "
                   f"(sim/layers.py says where each thing goes)")
    assert not bad, "imports against the layers of sim/layers.py:\n" + "\n".join(bad)


def test_the_engine_never_picks_its_ai_and_the_ai_never_imports_the_turn_loop():
    """Only engine.fight imports the AI (review §1.3: the engine chose its own AI); the AI
    imports the rule modules, not engine.encounter; nothing in the engine imports the loaders."""
    rows = {(a, b) for a, b, *_ in imports()}
    ai = "sim.engine.ai"
    assert {a for a, b in rows if b.startswith(ai) and a.startswith("sim.engine") and not a.startswith(ai)} \
        == {"sim.engine.fight"}
    assert not {(a, b) for a, b in rows if a.startswith(ai) and b == "sim.engine.encounter"}
    assert not {a for a, b in rows if a.startswith("sim.engine") and b in ("sim.scenario.files", "sim.crawl.run")}


def test_the_graph_sees_function_level_and_relative_imports():
    """The scanner itself: it finds an import inside a function, and resolves ``from pkg import sub``."""
    rows = imports()
    assert any(row.importer.startswith("sim.cli") and row.in_function for row in rows)
    assert ("sim.engine.moves", "sim.engine.attacks") in {(a, b) for a, b, *_ in rows}


def test_the_scanner_sees_type_checking_imports():
    """The scanner itself: an import under ``if TYPE_CHECKING:`` (plain or ``typing.``) is found and
    marked, one in its ``else`` is not, and the marks reach the real tree (sim/cli has some)."""
    src = textwrap.dedent("""
        import typing
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from sim.render import app
        if typing.TYPE_CHECKING:
            import sim.engine.world
        else:
            from sim.base import errors
        def f():
            if TYPE_CHECKING:
                from sim.view import model
    """)
    rows = {(r.imported, r.in_function, r.type_checking) for r in scan("sim.cli.x", src)}
    assert rows == {("sim.render.app", False, True), ("sim.engine.world", False, True),
                    ("sim.base.errors", False, False), ("sim.view.model", True, True)}
    assert any(r.importer.startswith("sim.cli") and r.type_checking for r in imports())


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
