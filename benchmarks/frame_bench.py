"""One PNG frame and the crawl GIF, as a user runs them (issue 19 item 6): each command in a
fresh interpreter, with its CPU time (the child's user + system) and wall time, against a
reference measured in the same run: an interpreter that only imports ``sim.render`` (Python's
start-up and the package, no pygame, numpy or numba). Bytecode caches are on, as in an install.

    python -m benchmarks frame          # cavesim render maps/demo.toml --out frame.png --at 12
    python -m benchmarks crawl_gif      # cavesim crawl maps/crawl_warrens.toml --out crawl.gif

Targets: the frame under 3 s; the crawl GIF (38.0 s CPU and 9.47 MB before, README) twice as fast, half the size.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    return env


def _run(args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, *args], cwd=ROOT, env=_env(), capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{r.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def _measure(subject: list[str], repeat: int) -> dict:
    reference = ["-c", "import sim.render"]
    _run(subject)   # warm: numba's cache, bytecode, the OS file cache
    _run(reference)
    cpu, wall, rcpu, rwall = [], [], [], []
    for _ in range(repeat):   # interleaved, so both see the same load
        c, w = _run(subject)
        cpu.append(c)
        wall.append(w)
        c, w = _run(reference)
        rcpu.append(c)
        rwall.append(w)
    c, rc = statistics.median(cpu), statistics.median(rcpu)
    return {"seconds": c, "wall_seconds": statistics.median(wall), "reference": "python -c 'import sim.render' (CPU)",
            "reference_seconds": rc, "reference_wall_seconds": statistics.median(rwall), "ratio": c / rc,
            "load": round(os.getloadavg()[0], 2)}


def bench_frame(repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "frame.png"
        r = _measure(["-m", "sim", "render", "maps/demo.toml", "--out", str(out), "--at", "12"], repeat)
    r.update(name="cavesim render maps/demo.toml --out frame.png --at 12 (CPU)", target="< 3 s CPU",
             note=f"wall {r['wall_seconds']:.2f} s, load {r['load']}")
    return r


def bench_crawl_gif(repeat: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "crawl.gif"
        r = _measure(["-m", "sim", "crawl", "maps/crawl_warrens.toml", "--out", str(out)], repeat)
        size = out.stat().st_size
    r.update(name="cavesim crawl maps/crawl_warrens.toml --out crawl.gif (CPU)", megabytes=size / 1e6,
             target="<= 19 s CPU and <= 4.73 MB (half of 38.0 s, 9.47 MB: the README's before)",
             note=f"{size / 1e6:.2f} MB, wall {r['wall_seconds']:.1f} s, load {r['load']}")
    return r
