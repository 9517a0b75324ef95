"""How big a map may be: :class:`Limits`, checked by every reader before any array is built
(``--max-map-size COLSxROWS``; DESIGN §7: every size bounded before work starts).

>>> Limits.parse("200x100")
Limits(max_cols=200, max_rows=100)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sim.base.errors import DataError

DEFAULT_MAX_SIZE = (4096, 4096)  # (cols, rows)
MAX_SIDE = 16_384                # the most --max-map-size may allow, per side
MAX_PICTURE_PIXELS = 64_000_000  # a map's picture (embedded, or --image): width x height, read from its header


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest map (in squares) a loader accepts, checked before any array is built."""

    max_cols: int = DEFAULT_MAX_SIZE[0]
    max_rows: int = DEFAULT_MAX_SIZE[1]

    @classmethod
    def parse(cls, text: str) -> "Limits":
        m = re.fullmatch(r"\s*([0-9]{1,7})\s*[xX×]\s*([0-9]{1,7})\s*", text or "")
        if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
            raise DataError(f"--max-map-size {text!r}: write it as COLSxROWS, e.g. 4096x4096")
        if int(m.group(1)) > MAX_SIDE or int(m.group(2)) > MAX_SIDE:
            raise DataError(f"--max-map-size {text}: at most {MAX_SIDE}x{MAX_SIDE} squares")
        return cls(int(m.group(1)), int(m.group(2)))
