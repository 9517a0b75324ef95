"""What the user asks for: the validated input records (``specs``: an encounter, its combatants,
a crawl) and the readers of the encounter and crawl files (``files``)."""
