"""The fight engine: one module a concern, imported one way (see the README's "How the code is
laid out").

``actions`` (what a creature can do, and the engine's answers) and ``creature`` sit at the
bottom; ``setup`` builds creatures from input records; ``world`` holds a fight's state; the rule
modules (``checks``, ``casting``, ``damage``, ``afflictions``, ``attacks``, ``swarms``,
``moves``, ``spells``, ``items``) each take the world as ``w``; ``encounter`` is the turn loop;
``ai`` the policies; ``snapshot`` saves a fight's whole state to JSON and loads it back;
``fight`` the one place that picks the default AI (``new_encounter``,
``run_fight``). This package file imports nothing, so importing one rule module does not load
the turn loop.
"""
