"""A party travelling through the cave out of combat, fighting the encounters it meets.

``run.run_crawl(spec)`` is the entry; the package by concern, lowest first:

* ``records`` -- what a crawl gives back: one frozen record per kind of timeline entry, the fights'
  summaries, the tracks, the reasons (ids and numbers; the story says them in words);
* ``route``   -- the party's route, who cannot follow it, each square's kind, a member's own time;
* ``state``   -- what the crawl carries from stretch to stretch;
* ``notice``  -- who notices whom on the way (senses, light), and who joins the fight;
* ``gear``    -- the party's armour (off before tight places, back on after) and its light;
* ``march``   -- one stretch of the route: each member's time, single file, waiting for the slowest;
* ``fight``   -- a fight on the way, played by the encounter engine;
* ``run``     -- the journey: route, legs, fights, arrival.
"""
