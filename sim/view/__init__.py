"""What the screen shows, without pygame: the view model a frame is drawn from (``model``), the
replay timeline, the crawl on screen (``crawlplan``), the questions the screen asks the rules
(``world``), the table's typed dice (``table``) and the renderer's shared options. ``sim.render``
draws it; this room can be tested and imported without a display."""
