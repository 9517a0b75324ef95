"""The renderer: the only part of cavesim that imports pygame (DESIGN §3, STYLE habits 10-11).

It consumes the encounter engine's events -- live from an :class:`~sim.engine.encounter.Encounter`
(play, demo) or from a JSON-lines fight log (replay) -- and animates them; it never decides a
rule. For interactive play it builds engine actions and shows the engine's refusal when one is
``Impossible``.

Modules, from the bottom up (the first six import no pygame, so tests and other tools may use
them freely):

* ``palette``   -- colours as plain RGB tuples (category colours are shared with the reports)
* ``easing``    -- pure easing functions
* ``portray``   -- portrayal: creature -> style (team colour, glyph, pose, badges, swarm kind)
* ``model``     -- the view state rebuilt from events (who stands where, hp, conditions, log)
* ``timeline``  -- the director: events -> scheduled animations, on a fixed-step clock
* ``particles`` -- swarm clouds: hundreds of particles per swarm, numpy
* ``art``, ``draw``, ``hud``, ``scene`` -- pygame drawing (cave, overlays, tokens, effects, HUD)
* ``app``       -- the window: input, play controller, replay stepping
* ``export``    -- headless GIF / WebP / PNG export
* ``crawlplan``, ``crawl`` -- a cave crawl (``sim.crawl``) on screen: crawl time mapped onto
  screen time and where each member is (no pygame), then the crawl view itself

Importing this package imports nothing heavy; pygame is loaded by the drawing modules only.
"""
