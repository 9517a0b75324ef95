"""The monsters' and the party's choices: ``decide`` picks each turn's actions, each other module
one tactic (archery, armor, grapple, maneuvers, spells, spell-like abilities, strands, swallow,
the constricted creature's choices, guesses at unseen foes) and ``estimates`` the odds it weighs.
Only :mod:`sim.engine.fight` imports the AI; the AI never imports the turn loop."""
