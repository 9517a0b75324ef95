"""The work arrays of the searches, kept between calls on one map (:class:`Scratch`)."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import numpy as np


class Work:
    """One set of work arrays for searches over ``n`` squares, made on first use."""

    def __init__(self, n: int):
        self.n = n
        self._arrays: dict[str, np.ndarray] = {}

    def _get(self, name: str, size: int, dtype) -> np.ndarray:
        a = self._arrays.get(name)
        if a is None:
            a = self._arrays[name] = np.empty(size, dtype=dtype)
        return a

    @property
    def key(self) -> np.ndarray:
        return self._get("key", 3 * self.n, np.int32)

    @property
    def pred(self) -> np.ndarray:
        return self._get("pred", 3 * self.n, np.int32)

    @property
    def walked(self) -> np.ndarray:
        return self._get("walked", 3 * self.n, np.int32)

    @property
    def done(self) -> np.ndarray:
        return self._get("done", 3 * self.n, np.uint8)

    @property
    def togo(self) -> np.ndarray:
        return self._get("togo", self.n, np.int32)

    @property
    def words(self) -> np.ndarray:
        return self._get("words", self.n, np.uint16)

    @property
    def pool(self) -> np.ndarray:
        """Queue entries of :func:`distance` (it returns a larger array when it needs one)."""
        return self._get("pool", 2 * max(4096, self.n // 32), np.int32)

    @pool.setter
    def pool(self, a: np.ndarray) -> None:
        self._arrays["pool"] = a


class Scratch:
    """Work arrays kept between the searches on one map: on a small map, fresh memory for them
    (the OS maps and zeroes every page on first touch) costs more than the search itself. The
    searches overwrite whatever they hold. Re-entrant: each call takes a set of its own (a new
    one when all are in use, e.g. by other threads) and gives it back; one set is kept."""

    def __init__(self, n: int):
        self.n = n
        self._lock = threading.Lock()
        self._free: list[Work] = []

    @contextmanager
    def take(self):
        with self._lock:
            work = self._free.pop() if self._free else None
        if work is None:
            work = Work(self.n)
        try:
            yield work
        finally:
            with self._lock:
                if not self._free:
                    self._free.append(work)
