"""Values the argument parsers show before any work is done: the command line starts without
numpy, numba or scipy (issue 19), so ``cavesim --help`` cannot import the modules that own these.
Each equals the constant it stands for; ``tests/test_cli_fast.py`` checks that they agree."""

MAP_FORMATS = ("auto", "legend", "layers")            # sim.maps.write.FORMATS
EDIT_FORMATS = ("keep", "auto", "legend", "layers")   # sim.editor.save.FORMATS
UNITS = ("ft", "m")                                   # sim.maps.read.UNITS
IMPORT_FEET_PER_SQUARE = 5.0                          # sim.maps.importers.common.DEFAULT_FEET_PER_SQUARE
IMPORT_CEILING_FT = 10.0                              # sim.maps.importers.common.DEFAULT_CEILING_FT
IMPORT_MAX_PIXELS = 200_000_000                       # sim.maps.importers.common.MAX_PIXELS
ASCII_AUTO_MAX = 256                                  # sim.maps.write.ASCII_AUTO_MAX
