"""The renderer: the only part of cavesim that imports pygame (DESIGN §3, STYLE habits 10-11).

It consumes the encounter engine's events -- live from an :class:`~sim.engine.encounter.Encounter`
(play, demo) or from a JSON-lines fight log (replay) -- and animates them; it never decides a
rule. For interactive play it builds engine actions and shows the engine's refusal when one is
``Impossible``.

Modules that import no pygame (tests and other tools may use them freely):

* ``easing``    -- pure easing functions
* ``camera``    -- squares <-> screen pixels, pan and zoom
* ``portray``   -- portrayal: creature -> style (team colour, glyph, pose, badges, swarm kind)
* ``art``       -- the cave and the category overlays painted as numpy pixel arrays
* ``particles`` -- swarm clouds: hundreds of particles per swarm, numpy
* ``placement`` -- labels and cards placed where they cover nothing
* ``assets``    -- the art files, drawn by code

The view state beside it, with no pygame, is :mod:`sim.view` (the view model, the director, the
questions to the rules, where a fight comes from, live play's controller, the crawl's plan).

Modules that draw with pygame (loaded when first used; ``app`` and ``export`` import it lazily):

* ``session``   -- building what is shown: a fight to watch, a replay (``Timeline``: stepping turn by
  turn), a bare map, live play (with :class:`sim.view.play.PlayController`)
* ``text``, ``draw`` -- the bundled font; sprites, badges, glows, flames, pixel helpers
* ``scene``     -- one frame; it owns its parts, each an object given what it draws from:
  ``layers.CaveLayers`` (cave and overlay caches), ``tokens.Tokens`` (creatures),
  ``effects.Effects`` (animations and previews), ``hud.Hud`` (the interface and its words)
* ``lighting``  -- light and fog of war
* ``crawl``     -- the crawl view (a Scene that follows the party)
* ``app``       -- the window: the fixed-step loop, keys and mouse, or headless export
* ``export``    -- headless GIF / WebP / PNG export

Importing this package imports nothing heavy.
"""
