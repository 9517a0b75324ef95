"""The renderer: the only part of cavesim that imports pygame (DESIGN §3, STYLE habits 10-11).

It consumes the encounter engine's events -- live from an :class:`~sim.engine.encounter.Encounter`
(play, demo) or from a JSON-lines fight log (replay) -- and animates them; it never decides a
rule. For interactive play it builds engine actions and shows the engine's refusal when one is
``Impossible``.

Modules that import no pygame (tests and other tools may use them freely; ``palette`` is what
the analysis reports share):

* ``palette``   -- colours as plain RGB tuples (category colours are shared with the reports)
* ``easing``    -- pure easing functions
* ``camera``    -- squares <-> screen pixels, pan and zoom
* ``portray``   -- portrayal: creature -> style (team colour, glyph, pose, badges, swarm kind)
* ``art``       -- the cave and the category overlays painted as numpy pixel arrays
* ``model``     -- the view state rebuilt from events (who stands where, hp, conditions, log)
* ``timeline``  -- the director: events -> scheduled animations, on a fixed-step clock
* ``particles`` -- swarm clouds: hundreds of particles per swarm, numpy
* ``world``     -- what the screen asks the rules (categories, reach, travel times, path previews)
* ``session``   -- building what is shown: a fight to watch, a replay (``Timeline``: stepping turn by
  turn), live play (``PlayController``: clicks -> engine actions), a crawl's cast
* ``crawlplan`` -- a cave crawl (``sim.crawl.run``) on screen: crawl time mapped onto screen time,
  where each member is; ``crawlwords`` -- its captions and sentences
* ``options``, ``assets`` -- shared command-line options; the art files, drawn by code

Modules that draw with pygame (loaded when first used; ``app`` and ``export`` import it lazily):

* ``text``, ``draw`` -- the bundled font; sprites, badges, glows, flames, pixel helpers
* ``scene``     -- one frame, composed of ``layers`` (cave and overlay caches), ``tokens``
  (creatures), ``effects`` (animations and previews) and the HUD's words (``hud.HudTexts``)
* ``hud``       -- top bar, side panel, bottom bar, cards and captions
* ``crawl``     -- the crawl view (a Scene that follows the party)
* ``app``       -- the window: the fixed-step loop, keys and mouse, or headless export
* ``export``    -- headless GIF / WebP / PNG export

Importing this package imports nothing heavy.
"""
