"""Draw every file in assets/ from code: python assets/make_assets.py

The art is ours (DESIGN §2): this script and sim/render/assets.py are the source of it; the
PNG and palette files beside this script are its output, committed so that browsing the
repository shows them. The renderer itself paints the cave, tokens and effects at run time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from sim.render.assets import write_assets  # noqa: E402

if __name__ == "__main__":
    for p in write_assets(Path(__file__).resolve().parent):
        print(p)
