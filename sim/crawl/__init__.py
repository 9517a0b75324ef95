"""A party travelling through the cave out of combat, fighting the encounters it meets (``run``)."""
