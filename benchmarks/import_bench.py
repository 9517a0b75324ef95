"""UVTT import (issue 15): a 200 x 200-square synthetic Universal VTT map imported at the default
resolution (automatic: 4 px/ft for 1000 x 1000 ft), walls traced round a generated cave's rock.
Target: at most 30 s on the project's 2-core machine. Reference, in the same run: scikit-image's
medial axis of the same floor raster alone (the one library step every import pays), so the
ratio says how much the rest (exact wall distances, spurs, disk cover, fine re-measure) adds.

    python -m benchmarks import           # or: python benchmarks/import_bench.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

N = 200


def synthetic_uvtt(n: int = N, seed: int = 5) -> dict:
    """A Universal VTT document whose walls follow the rock of a generated ``n x n`` cave (square
    outlines traced at half-square resolution, so walls run diagonally round corners)."""
    from scipy import ndimage
    from skimage.measure import find_contours

    from sim.maps.generate import generate_cave

    grid = generate_cave(seed, n, n)
    floor = ~grid.rock
    # a smooth outline, as a drawing tool's cave walls: the floor at 4 samples per square,
    # blurred, contoured at 0.5
    k = 4
    fine = ndimage.gaussian_filter(np.kron(floor.astype(float), np.ones((k, k))), sigma=1.2)
    walls = []
    for c in find_contours(np.pad(fine, 1), 0.5):
        pts = (c[:, ::-1] - 1 + 0.5) / k   # (row, col) samples -> (x, y) squares
        if len(pts) >= 2:
            walls.append([{"x": round(float(x), 4), "y": round(float(y), 4)} for x, y in pts])
    return {"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": n, "y": n},
                                          "pixels_per_grid": 64},
            "line_of_sight": walls, "objects_line_of_sight": [], "portals": [], "lights": [], "image": ""}


def bench_import(repeat: int = 1) -> dict:
    from skimage.morphology import medial_axis

    from sim.maps.importers.common import ImportOptions, auto_resolution
    from sim.maps.importers.vtt import import_file
    from sim.maps.importers.spaces import find_floor
    from sim.maps.importers.widths import Geometry, rasterise
    from sim.maps.importers import uvtt as fmt

    doc = synthetic_uvtt()
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "bench.uvtt"
        src.write_text(json.dumps(doc))
        m = fmt.parse(src)
        res = auto_resolution(m.cols, m.rows, 5.0)
        walls, solids = fmt.geometry_ft(m, 5.0)
        spx = 5.0 * res
        shape = (int(m.rows * spx) + 1, int(m.cols * spx) + 1)
        floor, _ = find_floor(rasterise(Geometry(walls=walls, solids=solids), shape_px=shape, resolution=res))
        import_file(src, ImportOptions())      # warm up (numba compiles once per checkout)
        t_imp, t_ref, cpu = [], [], []
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            out = import_file(src, ImportOptions())
            t_imp.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            t = time.perf_counter()
            medial_axis(floor, rng=0)
            t_ref.append(time.perf_counter() - t)
    ti, tr = statistics.median(t_imp), statistics.median(t_ref)
    g = out.grid
    return {"name": f"import {N}x{N}-square UVTT at the default resolution", "seconds": ti,
            "cpu_seconds": statistics.median(cpu),  # this process's CPU time: the figure a busy machine keeps
            "resolution_px_per_ft": out.resolution, "raster_pixels": int(floor.size),
            "wall_points": sum(len(w) for w in doc["line_of_sight"]), "floor_squares": int((~g.rock).sum()),
            "fine_squares": out.fine_squares, "reference": "skimage medial_axis of the same floor raster",
            "reference_seconds": tr, "ratio": ti / tr, "target": "<= 30 s"}


if __name__ == "__main__":
    r = bench_import(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    print(json.dumps(r, indent=1))
