"""Map files in and out: reading a map file (``read``) and its layers (``layers``), the size
``limits``, the one writer (``write``), the cave ``generate``-or, the category ``palette`` shared by
every picture we write, and the other tools' formats (``importers``: UVTT, Tiled, pictures;
``exporters``: overlays, UVTT, Tiled)."""
