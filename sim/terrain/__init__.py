"""The cave as rock and air: the grid, its geometry, the constricted-space category of every
square for every size (``classify``), corner squeezes, and the two questions asked of terrain
again and again: how a body moves through it (``movement``) and what light and sight reach
(``vision``). No creature's state lives here: a mover or a viewer is a small declared record."""
