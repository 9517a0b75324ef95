"""The layers of ``sim``, lowest first, and which may import which: the one table that
``tests/test_import_graph.py`` checks every ``sim`` import against (module level, inside
functions, and under ``if TYPE_CHECKING:``).

A module belongs to the layer of the longest entry that names it: an entry covers a module, or a
package and everything under it; ``pkg.__init__`` names the package's own ``__init__`` only (so
``sim.__init__`` is the package file, not the whole of ``sim``). A module may import modules of
its own layer and of the layers its row allows: every lower layer when the row says ``None``, else
exactly the layers listed (all of them lower). Plain data, no imports: the test and a newcomer read
it without loading numpy.

The picture, bottom to top (``<`` reads "is imported by")::

    package   sim/__init__ (the version) and this table: import nothing
       <  base       errors, coords, fileio, paths, jit, argtypes: leaves
       <  rules      sizes, bodies, categories, dice, weapons, armor, statblocks/
       <  terrain    grid, geometry, corners, classify, thresholds, movement/, vision/
       <  maps       read, layers, limits, write, generate, palette, importers/, exporters/
       <  records    scenario/specs: the validated input records
       <  engine     the fight (events, creature, world, encounter, actions, ..., ai/);
                     reads no file, so it imports neither maps nor anything above records
       <  files      scenario/files: encounter and crawl readers (placement checked with the
                     engine's creature set-up, hence above the engine)
       <  crawl      a party's journey; its fights through engine.fight
       <  story      the fight's and the crawl's prose (log, crawlwords)
       <  analysis   map facts, chokepoints, travel, batches, reports
       <  api        sim.api: the calls a notebook makes (load, classify, path, play, batch, crawl)
       <  editor     the map editor's model (no pygame)
       <  view       what the screen shows, pygame-free (model, timeline, crawlplan, options)
       <  render     pygame: the window, the frames, the export
       <  cli        one module a command; loads the renderer and the engine lazily
       <  main       sim/__main__ (``python -m sim``)

Why the package file sits at the bottom and not on top: Python runs ``sim/__init__.py`` before any
other ``sim`` module, so whatever it imported every module would depend on; it holds the version
(read by ``analysis.batch``, ``maps.generate`` and ``cli``) and must stay a leaf.

Where does X go: a module goes in the lowest layer whose modules it needs, never lower (a
lower layer importing it would fail the test); when a lower module needs a fact that lives higher
up, the fact moves down (``sim.maps.palette`` holds the colours that analysis and the renderer
share; ``sim.view.options.ARTS`` the floor styles that the command line offers and the renderer
paints).
"""

from __future__ import annotations

# (layer, the modules and packages in it, the layers it may import: None = every lower layer)
LAYERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...] | None], ...] = (
    ("package", ("sim.__init__", "sim.layers"), None),
    ("base", ("sim.base",), None),
    ("rules", ("sim.rules",), None),
    ("terrain", ("sim.terrain",), None),
    ("maps", ("sim.maps",), None),
    ("records", ("sim.scenario.__init__", "sim.scenario.specs"), None),
    ("engine", ("sim.engine",), ("package", "base", "rules", "terrain", "records")),
    ("files", ("sim.scenario.files",), None),
    ("crawl", ("sim.crawl",), None),
    ("story", ("sim.story",), None),
    ("analysis", ("sim.analysis",), None),
    ("api", ("sim.api",), None),
    ("editor", ("sim.editor",), None),
    ("view", ("sim.view",), None),
    ("render", ("sim.render",), None),
    ("cli", ("sim.cli",), None),
    ("main", ("sim.__main__",), None),
)

NAMES: tuple[str, ...] = tuple(name for name, _, _ in LAYERS)


def _covers(entry: str, module: str) -> bool:
    """Whether a table entry names ``module`` (``pkg.__init__`` names the package file only)."""
    if entry.endswith(".__init__"):
        return module == entry[:-len(".__init__")]
    return module == entry or module.startswith(entry + ".")


def layer_of(module: str) -> str | None:
    """The layer of a dotted module name (``sim.terrain.grid`` -> ``"terrain"``), None if no row
    names it.

    >>> layer_of("sim.terrain.movement.kernel"), layer_of("sim"), layer_of("sim.scenario.files")
    ('terrain', 'package', 'files')
    """
    best: tuple[int, str] | None = None
    for name, entries, _ in LAYERS:
        for entry in entries:
            if _covers(entry, module) and (best is None or len(entry) > best[0]):
                best = (len(entry), name)
    return best[1] if best else None


def allowed(layer: str) -> tuple[str, ...]:
    """The layers a module of ``layer`` may import, its own included.

    >>> allowed("records")
    ('package', 'base', 'rules', 'terrain', 'maps', 'records')
    >>> "maps" in allowed("engine")
    False
    """
    i = NAMES.index(layer)
    row = LAYERS[i][2]
    return (NAMES[:i] if row is None else row) + (layer,)


def may_import(importer: str, imported: str) -> bool:
    """Whether module ``importer`` may import module ``imported`` by the table.

    >>> may_import("sim.view.options", "sim.cli._choices")
    False
    """
    a, b = layer_of(importer), layer_of(imported)
    return a is not None and b is not None and b in allowed(a)
