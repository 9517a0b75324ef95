"""Saved games (``cavesim fight --save``, Ctrl-S and undo in ``cavesim play``): a fight's whole
state to JSON and back by a declared schema.

* ``snapshot`` -- writing and reading a saved game (the entry points: ``save``, ``dumps``,
  ``read_snapshot``, ``load_text``);
* ``schema`` -- the declared sections of a schema-6 file (the registry's parts among them) and the
  record types it may hold;
* ``codec`` -- the tagged encoding of the values inside a section, building only declared types;
* ``legacy`` and ``legacy_effects`` -- the readers of schemas 2-4 (their loose attributes into
  today's sections; their effect fields and memory keys into effects and the AI's notes);
* ``legacy_conditions`` -- the stored conditions of schemas 2-5 into statuses;
* ``state`` -- whether a loaded state is one the fight can be in.
"""
