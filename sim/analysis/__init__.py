"""Designer tools (issue 7): what a map does to each size, and what thousands of fights on it say.

Pure functions over arrays and flat records, no pygame and nothing done at import:

* :mod:`~sim.analysis.regions`     -- connected regions per body, by the movement engine's own moves
* :mod:`~sim.analysis.chokepoints` -- areas and chokepoints from the geometry, evaluated per size
* :mod:`~sim.analysis.travel`      -- travel times between named points, per size (the engine's times)
* :mod:`~sim.analysis.report`      -- the analysis as a dict (JSON), PNG pictures and a self-contained HTML page
* :mod:`~sim.analysis.batch`       -- Monte Carlo batches: seeds in, flat records out, on any executor
* :mod:`~sim.analysis.sweep`       -- ``--vary KEY=V1,V2`` variants of an encounter
* :mod:`~sim.analysis.summary`     -- win rates with Wilson intervals, round distributions, heat maps
"""
