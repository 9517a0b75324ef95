"""The map editor (issue 18).

* ``editor_fill``: an exact-value bucket fill of a generated 200x200 cave's width layer (the
  squares found, the patch planned, written and pushed on the undo stack), against labelling
  the same mask with ``scipy.ndimage.label`` (the connected-component pass a fill needs). Target:
  under 50 ms.
* ``editor_stroke``: frame times while a brush stroke (size 5, round, 240 stamps) crosses the same
  cave in the editor window on the dummy video driver, one stamp a frame, with the chokepoints
  recomputed on the worker thread as it paints, against the same stroke with the chokepoints
  off. Target: the stroke is no slower with the live chokepoints than without (median frame
  ratio at most 1.2x; the window thread's CPU a frame is reported too, it should not grow).

    python -m benchmarks editor_fill editor_stroke
"""

from __future__ import annotations

import os
import statistics
import time

import numpy as np


def _cave():
    from sim.maps.generate import generate_cave

    return generate_cave(1, 200, 200)


def bench_editor_fill(repeat: int) -> dict:
    from scipy import ndimage

    from sim.editor.model import Document
    from sim.editor.ops import Fill, run

    doc = Document.from_grid(_cave())
    # the biggest same-width region: the worst case of a fill on this cave
    vals, counts = np.unique(doc.width[~doc.rock], return_counts=True)
    lab, n = ndimage.label(doc.width == vals[np.argmax(counts)])
    sizes = np.bincount(lab.ravel())[1:]
    r, c = np.argwhere(lab == 1 + int(np.argmax(sizes)))[0]
    at = (int(c), int(r))
    value = float(doc.width[r, c])

    def fill():
        res = run(doc, Fill("width", value + 1, at))
        doc.undo()
        return res

    def ref():
        return ndimage.label(doc.width == value)

    times = {"fill": [], "ref": []}
    fill(), ref()
    for _ in range(repeat):
        for k, fn in (("fill", fill), ("ref", ref)):
            t = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - t)
    t_fill, t_ref = statistics.median(times["fill"]), statistics.median(times["ref"])
    return {"name": "editor fill, 200x200 generated cave", "seconds": t_fill, "milliseconds": t_fill * 1e3,
            "reference": "ndimage.label of the same mask", "reference_seconds": t_ref, "ratio": t_fill / t_ref,
            "target": "< 50 ms", "squares": int(sizes.max())}


def _stroke_frames(chokepoints: bool, worker: str = "process") -> tuple[list[float], list[float], int]:
    """Wall-clock and window-thread CPU seconds of each frame of the stroke, and the number of
    chokepoint analyses started during it."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from sim.editor.model import Document
    from sim.render.editor import EditorView

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((1280, 800))
    doc = Document.from_grid(_cave())
    view = EditorView(doc, _tmp_out(), size=(1280, 800), chokepoints=chokepoints, worker=worker)
    view.brush, view.shape, view.values["width"] = 5, "round", 2.0
    if not chokepoints:
        view.chokes.poll = lambda: False
    else:
        view.chokes.poll()
        view.chokes.wait()                       # the first (cold) analysis is not part of the stroke
        t0 = time.monotonic()
        while worker == "process" and not view.chokes.in_process and time.monotonic() - t0 < 120:
            time.sleep(0.1)                      # nor is the worker process starting
    pts = [(int(20 + 160 * k / 239), int(100 + 60 * np.sin(k / 25))) for k in range(240)]
    frames, cpu = [], []

    def to_px(p):
        x, y = view.camera.to_screen(p[0] + 0.5, p[1] + 0.5)
        return int(x), int(y)

    view.draw(screen)                            # the first frame (fonts, first picture) is not part of it
    view.press(to_px(pts[0]), 1, 0)
    for p in pts[1:]:
        t, c = time.perf_counter(), time.thread_time()
        view.motion(to_px(p))
        view.update()
        view.draw(screen)
        pygame.display.flip()
        frames.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
    view.release(to_px(pts[-1]), 1, 0)
    runs = view.chokes.runs
    view.close()
    pygame.display.quit()
    return frames, cpu, runs


def _tmp_out():
    import tempfile
    from pathlib import Path

    return Path(tempfile.mkdtemp()) / "bench.toml"


def bench_editor_stroke(repeat: int) -> dict:
    on, on_cpu, runs = _stroke_frames(True)
    off, off_cpu, _ = _stroke_frames(False)
    th, th_cpu, _ = _stroke_frames(True, worker="thread")
    p = lambda a, q: float(np.percentile(a, q)) * 1e3  # noqa: E731
    return {"name": "editor stroke, 200x200, 240 stamps, chokepoints in the worker process",
            "seconds": statistics.median(on), "reference": "the same stroke without chokepoints",
            "reference_seconds": statistics.median(off), "ratio": statistics.median(on) / statistics.median(off),
            "target": "<= 1.2x",
            "p95_ms": p(on, 95), "max_ms": max(on) * 1e3, "cpu_median_ms": p(on_cpu, 50), "cpu_p95_ms": p(on_cpu, 95),
            "note": f"p95 {p(on, 95):.1f} ms, max {max(on) * 1e3:.1f} ms; window thread CPU a frame: median "
                    f"{p(on_cpu, 50):.1f} ms, p95 {p(on_cpu, 95):.1f} ms (without chokepoints: p95 {p(off, 95):.1f} ms, "
                    f"CPU median {p(off_cpu, 50):.1f} ms); {runs} chokepoint runs during the stroke; with a worker "
                    f"thread instead: median {statistics.median(th) * 1e3:.1f} ms = "
                    f"{statistics.median(th) / statistics.median(off):.2f}x, p95 {p(th, 95):.1f} ms",
            "thread_ratio": statistics.median(th) / statistics.median(off)}
