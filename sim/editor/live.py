"""The rules' answers under the brush, kept up to date while the map is painted (issue 18, item 2).

* :class:`Categories`: the category of every square for the default body of each size (RULES
  §2.3), updated *incrementally*: after an edit only the changed box is classified again (a
  square's category depends on that square alone).
* :class:`Chokepoints`: the analysis' areas and chokepoints (:func:`sim.analysis.chokepoints.find_chokepoints`)
  computed in a worker process from a snapshot of the map (a thread would share the
  interpreter lock with the window, and the analysis holds it for most of its 0.1-0.2 s on a
  200 x 200 map), debounced: a new run starts once the
  painting has paused for ``quiet`` seconds (or every ``every`` seconds during a long stroke), so
  a brush stroke never waits for it. The result says which version of the map it describes.
* :func:`thresholds`: the widths and ceilings at which a body's category changes, for the palette.

No pygame here; the window (``sim.render.editor``) only reads these.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import (
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from dataclasses import dataclass
from typing import Callable

import numpy as np

from sim.analysis.chokepoints import Layout, find_chokepoints
from sim.editor.model import Document
from sim.rules.bodies import Body, body_for
from sim.rules.categories import Category
from sim.rules.sizes import Size
from sim.terrain.classify import classify_arrays
from sim.terrain.grid import CaveGrid


class Categories:
    """Per-size category arrays of a document, classified again only where it changed.

    >>> doc = Document.blank(4, 3)
    >>> cats = Categories(doc)
    >>> int(cats.get(4)[1, 1])                    # Medium on rock: impassable
    6
    >>> doc.width[1, 1], doc.ceiling[1, 1], doc.rock[1, 1] = 10, 10, False
    >>> doc.touched((1, 1, 2, 2))
    >>> int(cats.get(4)[1, 1])
    0
    """

    def __init__(self, doc: Document):
        self.doc = doc
        self._cats: dict[int, tuple[int, np.ndarray]] = {}   # size -> (version, categories)
        self.squares_classified = 0                            # since the start (tests, benchmark)

    @staticmethod
    def body(size_index: int) -> Body:
        return body_for(Size(int(size_index)))

    def get(self, size_index: int) -> np.ndarray:
        """The uint8 categories for size 0 (Fine) .. 8 (Colossal), up to date."""
        k = int(size_index)
        d = self.doc
        seen = self._cats.get(k)
        boxes = None if seen is None else d.boxes_since(seen[0])
        if boxes is None:
            cats = classify_arrays(d.width, d.ceiling, d.rock, self.body(k))
            self.squares_classified += cats.size
            self._cats[k] = (d.version, cats)
            return cats
        cats = seen[1]
        for r0, c0, r1, c1 in boxes:
            cats[r0:r1, c0:c1] = classify_arrays(
                np.ascontiguousarray(d.width[r0:r1, c0:c1]), np.ascontiguousarray(d.ceiling[r0:r1, c0:c1]),
                np.ascontiguousarray(d.rock[r0:r1, c0:c1]), self.body(k))
            self.squares_classified += (r1 - r0) * (c1 - c0)
        self._cats[k] = (d.version, cats)
        return cats

    def at(self, size_index: int, at: tuple[int, int]) -> Category:
        return Category(int(self.get(size_index)[at[1], at[0]]))


@dataclass(frozen=True, slots=True, eq=False)
class ChokeResult:
    version: int           # the document version it was computed from
    layout: Layout
    seconds: float         # how long the analysis took on the worker


def analyse(version: int, width: np.ndarray, ceiling: np.ndarray, difficult: np.ndarray, rock: np.ndarray,
            min_area: int, edges: tuple[np.ndarray, np.ndarray] | None = None) -> ChokeResult:
    """The chokepoint analysis of a snapshot of the layers (a module function: it runs in the
    worker process)."""
    t = time.perf_counter()
    grid = CaveGrid.from_arrays(width, ceiling, difficult=difficult, rock=rock, edges=edges)
    layout = find_chokepoints(grid, min_area=min_area)
    return ChokeResult(version, layout, time.perf_counter() - t)


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def warm_up(parent: int) -> bool:
    """Runs first in the worker process: unpickling it imports this module and the analysis, and
    a tiny analysis loads its compiled kernels, so the first real one is not slow. The worker
    ends itself when the window's process is gone (a crash leaves no process behind)."""
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="watch-parent").start()
    find_chokepoints(CaveGrid.from_arrays([[0, 0, 0], [0, 10, 0], [0, 0, 0]], [[0, 0, 0], [0, 10, 0], [0, 0, 0]]))
    return True


WORKERS = ("process", "thread", "inline")


class Chokepoints:
    """Chokepoints of the document computed off the window's thread (module docstring).
    Call :meth:`poll` once a frame; read :attr:`result` (None until the first run ends).

    ``worker``: ``"process"`` (default: one worker process, so the analysis never holds the
    window's interpreter lock; until that process has started and imported the analysis, which
    takes a second or more, a thread does the work), ``"thread"``, or ``"inline"`` (runs in
    :meth:`poll`, for tests)."""

    def __init__(self, doc: Document, *, quiet: float = 0.25, every: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, min_area: int = 6, worker: str = "process"):
        if worker not in WORKERS:
            raise ValueError(f"worker must be one of {WORKERS}, got {worker!r}")
        self.doc = doc
        self.quiet = quiet
        self.every = every
        self.clock = clock
        self.min_area = min_area
        self.result: ChokeResult | None = None
        self.runs = 0
        self.worker = worker
        self._pool: Executor | None = None          # the thread pool
        self._proc: ProcessPoolExecutor | None = None
        self._warm: Future | None = None
        self._job: Future | None = None
        self._job_version = -1
        self._seen_version = doc.version
        self._changed_at = clock()
        self._started_at = -1e9

    def _executor(self) -> Executor:
        if self.worker == "process":
            if self._proc is None:
                self._proc = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
                self._warm = self._proc.submit(warm_up, os.getpid())
            if self._warm is not None and self._warm.done():
                if self._warm.exception() is None:
                    return self._proc
                self._fall_back()
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chokepoints")
        return self._pool

    @property
    def in_process(self) -> bool:
        """Whether the analyses now run in the worker process (not yet while it starts)."""
        return (self.worker == "process" and self._warm is not None and self._warm.done()
                and self._warm.exception() is None)

    def _fall_back(self) -> None:
        """The worker process could not start or died: carry on with a thread."""
        if self._proc is not None:
            self._proc.shutdown(wait=False, cancel_futures=True)
        self._proc = None
        self._warm = None
        self.worker = "thread"

    @property
    def stale(self) -> bool:
        return self.result is None or self.result.version != self.doc.version

    @property
    def busy(self) -> bool:
        return self._job is not None and not self._job.done()

    def poll(self) -> bool:
        """Collect a finished run and start a new one when due; True when a new result arrived."""
        now = self.clock()
        if self.doc.version != self._seen_version:
            self._seen_version = self.doc.version
            self._changed_at = now
        arrived = False
        if self._job is not None and self._job.done():
            try:
                res = self._job.result()  # an exception in the analysis itself is a bug: let it show
            except BrokenExecutor:
                self._fall_back()
                self._job = None
                self._job_version = -1
                return False
            self._job = None
            if self.result is None or res.version >= self.result.version:
                self.result = res
                arrived = True
        if self._job is None and self._job_version != self.doc.version and self.stale:
            due = (now - self._changed_at >= self.quiet) or (now - self._started_at >= self.every)
            if due or self.result is None:
                d = self.doc
                args = (d.version, d.width.copy(), d.ceiling.copy(), d.difficult.copy(), d.rock.copy(), self.min_area,
                        (d.edge_e | d.door_e, d.edge_s | d.door_s))
                self._job_version = d.version
                self._started_at = now
                self.runs += 1
                if self.worker == "inline":
                    self.result = analyse(*args)
                    arrived = True
                else:
                    self._job = self._executor().submit(analyse, *args)
        return arrived

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the running job (if any) ends and collect it (tests, screenshots)."""
        if self._job is not None:
            self._job.result(timeout=timeout)
        self.poll()

    def close(self) -> None:
        for pool in (self._pool, self._proc):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._proc = self._warm = None


def thresholds(body: Body) -> dict[str, list[tuple[float, str]]]:
    """Where the category of ``body`` changes (RULES §2.3), per layer: ``(feet, what)`` pairs,
    largest first. A square *at* a threshold has the milder category (the rules say "less than").

    >>> [v for v, _ in thresholds(body_for("medium"))["width"]]
    [5.0, 2.5, 1.5, 0.75, 0.5]
    """
    name = body.size.key.capitalize()
    w = [(body.space, f"{name} space: narrower is Narrow"),
         (body.space / 2, "narrower is Awkward"),
         (max(body.shoulders, body.depth), "narrower: only side-on or a Tight Squeeze"),
         (min(body.shoulders, body.depth), "narrower is a Tight Squeeze"),
         (body.head, "narrower is Impassable")]
    c = [(body.height, f"{name} height: lower is Low"),
         (body.height / 2, "lower is a Crawl"),
         (body.height / 4, "lower is Awkward"),
         (max(body.shoulders, body.depth), "lower: only lying flat or a Tight Squeeze"),
         (min(body.shoulders, body.depth), "lower is a Tight Squeeze"),
         (body.head, "lower is Impassable")]
    out = {}
    for k, pairs in (("width", w), ("ceiling", c)):
        seen: dict[float, str] = {}
        for v, what in pairs:
            seen.setdefault(round(float(v), 4), what)
        out[k] = sorted(seen.items(), key=lambda t: -t[0])
    return out
