"""cavesim: a tactical simulator for D&D 3.5 fights in natural caves.

The package is a headless numpy core (grid, classification, movement, combat,
swarms, analysis) with pygame confined to :mod:`sim.render`. Importing ``sim``
does no work and imports nothing heavy (the command line's fast start); the Python API for
notebooks is :mod:`sim.api` (``import sim.api as cs``), which loads the engine.
"""

__version__ = "0.1.0"
