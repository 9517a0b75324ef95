"""The screen is built from components, not mixins (issue 33 items 6 and 7), checked on the source
of ``sim/view`` and ``sim/render``:

- no class has a base class from the project except the declared subclasses below (the crawl's
  scene and HUD, each a kind of its base that runs its base's ``__init__``); a part that shares
  work is an object of its own, given what it needs in its constructor or by a typed protocol;
- every class (with no base, or a declared one) defines each ``self.x`` it reads (a method, a
  class attribute, a property, or an assignment in its methods; a declared subclass also its
  base's): nothing is left for a host to give;
- no code touches another object's ``_private`` attribute (reads, writes, ``getattr`` with the
  name), nor re-runs another object's ``__init__``: the owner has a method that says what it does
  (``scene.restart_view``, ``director.rewind``, ``lighting.forget_explored``...);
- a declared subclass assigns none of its base's private attributes (it calls the base's methods).

The checks are tried on small made-up modules first, so that each is seen to fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCOPE = ("sim/view", "sim/render")

#: "file::Class" -> its project base ("module.Class"): the only classes with a base from the project.
DECLARED_BASES = {
    "sim/render/crawl.py::CrawlScene": "sim.render.scene.Scene",
    "sim/render/crawl.py::CrawlHud": "sim.render.hud.Hud",
}
OWNERS = ("self", "cls")


def _files() -> list[Path]:
    return sorted(p for d in SCOPE for p in (ROOT / d).glob("*.py"))


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _project_names(tree: ast.Module, module: str) -> dict[str, str]:
    """The names a module binds to project classes or modules: its own classes, ``from sim... import``."""
    names = {n.name: f"{module}.{n.name}" for n in tree.body if isinstance(n, ast.ClassDef)}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] == "sim":
            for a in n.names:
                names[a.asname or a.name] = f"{n.module}.{a.name}"
        elif isinstance(n, ast.Import):
            for a in n.names:
                if a.name.split(".")[0] == "sim":
                    names[a.asname or a.name] = a.name
    return names


def project_bases(source: str, module: str) -> dict[str, list[str]]:
    """Each class of ``source`` with a base from the project: class name -> those bases, qualified."""
    tree = ast.parse(source)
    names = _project_names(tree, module)
    out: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        found = []
        for base in node.bases:
            head = base
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id in names:
                rest = ast.unparse(base)[len(head.id):]
                found.append(names[head.id] + rest)
        if found:
            out[node.name] = found
    return out


def _is_super(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def private_touches(source: str) -> list[str]:
    """Every place ``source`` touches another object's private attribute, as ``line: code``: an
    attribute ``x._name`` whose owner is not ``self``/``cls``/``super()``, a ``getattr``/``setattr``/
    ``hasattr`` of a ``_name`` (an attribute nobody declared), and ``x.__init__()`` on another object."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            name, owner = node.attr, node.value
            mine = (isinstance(owner, ast.Name) and owner.id in OWNERS) or _is_super(owner)
            private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
            if not mine and (private or name == "__init__"):
                out.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) >= 2
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and node.args[1].value.startswith("_")):
            out.append(f"{node.lineno}: {ast.unparse(node)}")
    return out


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, (ast.For, ast.comprehension)):
        targets = [node.target]
    elif isinstance(node, ast.withitem) and node.optional_vars is not None:
        targets = [node.optional_vars]
    else:
        return []
    flat = []
    while targets:
        t = targets.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            targets.extend(t.elts)
        elif isinstance(t, ast.Starred):
            targets.append(t.value)
        else:
            flat.append(t)
    return flat


def _self_assigned(cls: ast.ClassDef) -> set[str]:
    """The attributes a class's methods assign on ``self``."""
    return {t.attr for n in ast.walk(cls) for t in _targets(n)
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}


def _class_defined(cls: ast.ClassDef) -> set[str]:
    """What a class defines: its methods and properties, class attributes and ``self.x`` assigned."""
    names = _self_assigned(cls)
    for n in cls.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
        for t in _targets(n):
            if isinstance(t, ast.Name):
                names.add(t.id)
    return names


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}


def undeclared_reads(source: str, inherited: dict[str, set[str]] | None = None) -> list[str]:
    """Each ``self.x`` a class of ``source`` reads but does not define, as ``Class.x``.
    ``inherited``: per declared subclass, the names its base defines; a class with another base (a
    protocol, a library class: what it inherits is not in the source) is skipped."""
    out = []
    for name, cls in _classes(ast.parse(source)).items():
        if cls.bases and name not in (inherited or {}):
            continue
        known = _class_defined(cls) | (inherited or {}).get(name, set()) | {"__class__", "__dict__"}
        for n in ast.walk(cls):
            if (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)
                    and n.value.id == "self" and n.attr not in known):
                out.append(f"{name}.{n.attr}")
    return sorted(set(out))


def _base_class(qualified: str) -> ast.ClassDef:
    module, name = qualified.rsplit(".", 1)
    path = ROOT / (module.replace(".", "/") + ".py")
    return _classes(ast.parse(path.read_text(encoding="utf-8")))[name]


# -- the checks, seen to fail on made-up modules ---------------------------------------------------------------------
MIXIN = """
from sim.view.table import TableHand
class Hand:
    def ask(self):
        return self.enc.dice
class Player(TableHand):
    def go(self):
        self.scene._snap = True
        return getattr(self, "_seen", None)
"""


def test_the_checks_catch_a_mixin_a_host_attribute_and_a_private_reset():
    assert project_bases(MIXIN, "sim.view.x") == {"Player": ["sim.view.table.TableHand"]}
    assert private_touches(MIXIN) == ["8: self.scene._snap", "9: getattr(self, '_seen', None)"]
    assert undeclared_reads(MIXIN) == ["Hand.enc"]
    assert private_touches("m = Model()\nm.__init__()\nsuper().__init__()\n") == ["2: m.__init__"]
    fine = "class A:\n    def __init__(self, s):\n        self.s = s\n        self._k = 0\n    def f(self):\n" \
           "        return self.s, self._k, self.f\n"
    assert project_bases(fine, "sim.view.x") == {} and private_touches(fine) == [] and undeclared_reads(fine) == []


def test_no_class_has_a_project_base_but_the_declared_subclasses():
    found = {}
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        for name, bases in project_bases(path.read_text(encoding="utf-8"), _module(path)).items():
            found[f"{rel}::{name}"] = bases
    assert found == {k: [v] for k, v in DECLARED_BASES.items()}


def test_no_code_touches_another_objects_private_state():
    bad = [f"{p.relative_to(ROOT).as_posix()}:{hit}" for p in _files()
           for hit in private_touches(p.read_text(encoding="utf-8"))]
    assert bad == []


def test_every_class_defines_what_it_reads_of_self():
    bad = []
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        inherited = {key.split("::")[1]: _class_defined(_base_class(base))
                     for key, base in DECLARED_BASES.items() if key.startswith(rel + "::")}
        bad += [f"{rel}: {hit}" for hit in undeclared_reads(path.read_text(encoding="utf-8"), inherited)]
    assert bad == []


def test_a_declared_subclass_runs_its_base_init_and_leaves_its_private_state_alone():
    for key, base in DECLARED_BASES.items():
        rel, name = key.split("::")
        cls = _classes(ast.parse((ROOT / rel).read_text(encoding="utf-8")))[name]
        init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is not None:
            calls = [n for n in ast.walk(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                     and n.func.attr == "__init__" and _is_super(n.func.value)]
            assert calls, f"{key}: its __init__ does not run {base}'s"
        base_private = {a for a in _self_assigned(_base_class(base)) if a.startswith("_")}
        assert not (_self_assigned(cls) & base_private), f"{key} sets {base}'s private state"
