"""Swarm clouds: hundreds of particles per swarm, moved with numpy (no pygame).

Each swarm is a cloud of particles that fills its current squares. Every particle has a home
point inside one of the swarm's squares; when the swarm reshapes, the particles whose square is
left behind are given new homes in the new squares (each square keeps its share) and travel
there square by square through the squares the swarm has just covered, so the cloud *flows*
through cracks and round corners instead of cutting through rock. Settled particles stay inside
their square. The motion fits the kind: bats flutter round their home in loops, rats scurry from
point to point and pause, wasps buzz with fast jitter, crawlers creep. A cloud thins as the swarm
loses hit points and scatters when it disperses.

All clouds share one set of arrays, so a step is a handful of numpy operations whatever the
number of swarms. Seeded: the same seed gives the same motion.

>>> ps = ParticleSystem(seed=1)
>>> ps.add("rats", "rat", [(2, 2), (3, 2), (2, 3), (3, 3)], count=200)
>>> for _ in range(240):
...     ps.step(1 / 60)
>>> ps.inside_fraction("rats")
1.0
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from sim.base.coords import Pos
from sim.render.portray import SWARM_STYLES

KINDS = ("bat", "rat", "wasp", "crawler")
K_ROUTE = 8           # waypoints per particle
MARGIN = 0.02         # settled particles stay this far inside their square's edges


@dataclass
class Cloud:
    id: str
    kind: str
    start: int
    count: int
    squares: list[Pos]
    recent: deque = field(default_factory=lambda: deque(maxlen=6))
    visible: float = 1.0          # drawn fraction (eases toward ``strength``)
    strength: float = 1.0         # wanted fraction (hp left)
    scatter_t: float = -1.0       # seconds since it dispersed (-1: not dispersing)
    rng: np.random.Generator | None = None

    @property
    def sl(self) -> slice:
        return slice(self.start, self.start + self.count)

    @property
    def gone(self) -> bool:
        return self.scatter_t > 2.2


class ParticleSystem:
    """All swarm clouds of a scene. Positions are in squares (x, y), floats."""

    def __init__(self, *, seed: int = 0, rock: np.ndarray | None = None, band=None):
        self.seed = int(seed)
        self.rock = rock
        self.band = band      # square -> (axis, fraction) for passages narrower than a square, or None
        self.t = 0.0
        self.clouds: dict[str, Cloud] = {}
        self.rng = np.random.default_rng([self.seed, 7])
        self._n_params = -1   # how many particles the per-kind constants were worked out for (_params)
        self._k_dt = None     # the step the per-step factors were worked out for
        self._alloc(0)

    # -- storage -------------------------------------------------------------------------------------
    def _alloc(self, n: int) -> None:
        self.pos = np.zeros((n, 2))
        self.prev = np.zeros((n, 2))
        self.vel = np.zeros((n, 2))
        self.home = np.zeros((n, 2))
        self.target = np.zeros((n, 2), dtype=np.int64)   # the square each particle belongs to
        self.route = np.zeros((n, K_ROUTE, 2))
        self.wp = np.zeros(n, dtype=np.int64)
        self.nwp = np.ones(n, dtype=np.int64)
        self.inside = np.zeros(n, dtype=bool)
        self.phase = np.zeros(n)
        self.freq = np.ones(n)
        self.timer = np.zeros(n)
        self.kind = np.zeros(n, dtype=np.int64)
        self.colour = np.zeros(n, dtype=np.int64)
        self.scatter = np.zeros(n, dtype=bool)
        self.scatter_vel = np.zeros((n, 2))
        self.box_lo = np.zeros((n, 2))
        self.box_hi = np.ones((n, 2))

    def _grow(self, extra: int) -> int:
        n = len(self.pos)
        names = ("pos", "prev", "vel", "home", "target", "route", "wp", "nwp", "inside", "phase", "freq", "timer",
                 "kind", "colour", "scatter", "scatter_vel", "box_lo", "box_hi")
        for name in names:
            a = getattr(self, name)
            shape = (n + extra,) + a.shape[1:]
            b = np.zeros(shape, dtype=a.dtype)
            b[:n] = a
            setattr(self, name, b)
        self.nwp[n:] = 1
        self.freq[n:] = 1
        return n

    # -- clouds -----------------------------------------------------------------------------------------
    def add(self, cid: str, kind: str, squares: list[Pos], *, count: int | None = None) -> None:
        """A new cloud settled on ``squares``."""
        if kind not in KINDS:
            raise ValueError(f"unknown swarm kind {kind!r}; use one of {', '.join(KINDS)}")
        style = SWARM_STYLES[kind]
        n = int(count if count is not None else style.count)
        start = self._grow(n)
        rng = np.random.default_rng([self.seed, len(self.clouds), n])
        cl = Cloud(cid, kind, start, n, [tuple(s) for s in squares], rng=rng)
        self.clouds[cid] = cl
        sl = cl.sl
        self.kind[sl] = KINDS.index(kind)
        self.colour[sl] = rng.integers(0, len(style.colours), n)
        self.phase[sl] = rng.uniform(0, 2 * np.pi, n)
        self.freq[sl] = rng.uniform(0.7, 1.3, n)
        self.timer[sl] = rng.uniform(0, 1.0, n)
        self.set_shape(cid, squares, snap=True)

    def remove(self, cid: str) -> None:
        self.clouds.pop(cid, None)

    def set_strength(self, cid: str, fraction: float) -> None:
        """Thin the cloud to ``fraction`` of its particles (hp left); never below a tenth."""
        cl = self.clouds.get(cid)
        if cl is not None:
            cl.strength = max(0.12, min(1.0, float(fraction)))

    def disperse(self, cid: str) -> None:
        """Scatter: every particle flies off outward and the cloud fades away."""
        cl = self.clouds.get(cid)
        if cl is None or cl.scatter_t >= 0:
            return
        cl.scatter_t = 0.0
        sl = cl.sl
        centre = self.pos[sl].mean(axis=0)
        d = self.pos[sl] - centre
        d += cl.rng.normal(0, 0.3, d.shape)
        norm = np.maximum(0.05, np.hypot(d[:, 0], d[:, 1]))[:, None]
        speed = cl.rng.uniform(2.0, 6.0, (cl.count, 1))
        self.vel[sl] = d / norm * speed
        self.scatter[sl] = True
        self.scatter_vel[sl] = self.vel[sl]

    def set_shape(self, cid: str, squares: list[Pos], *, snap: bool = False) -> None:
        """Give the cloud new squares: particles whose square is kept stay (up to its share),
        the others get homes in the new squares and a route there through recent squares."""
        cl = self.clouds.get(cid)
        if cl is None or not squares or cl.scatter_t >= 0:
            return
        squares = [tuple(map(int, s)) for s in squares]
        cl.recent.append(tuple(squares))
        cl.squares = squares
        sl = cl.sl
        n, m = cl.count, len(squares)
        rng = cl.rng
        quota = {sq: n // m + (1 if j < n % m else 0) for j, sq in enumerate(squares)}
        tgt = self.target[sl]
        keep = np.zeros(n, dtype=bool)
        if not snap:
            for i in range(n):
                sq = (int(tgt[i, 0]), int(tgt[i, 1]))
                if quota.get(sq, 0) > 0:
                    quota[sq] -= 1
                    keep[i] = True
        free = np.nonzero(~keep)[0]
        if len(free) == 0:
            return
        cur = np.floor(self.pos[sl][free]).astype(np.int64)
        order = np.argsort(rng.random(len(free)))       # fair, seeded order
        sq_arr = np.array(squares)
        assigned = np.zeros((len(free), 2), dtype=np.int64)
        for o in order:
            best = None
            for sq in squares:
                if quota[sq] <= 0:
                    continue
                d = abs(sq[0] - cur[o, 0]) + abs(sq[1] - cur[o, 1])
                if best is None or d < best[0]:
                    best = (d, sq)
            if best is None:  # rounding: give it any square
                best = (0, squares[int(rng.integers(0, m))])
            else:
                quota[best[1]] -= 1
            assigned[o] = best[1]
        del sq_arr
        idx = np.arange(sl.start, sl.stop)[free]
        self.target[idx] = assigned
        self._set_boxes(idx, assigned)
        self.home[idx] = self.box_lo[idx] + rng.uniform(0.06, 0.94, (len(free), 2)) * (self.box_hi[idx] - self.box_lo[idx])
        self.inside[idx] = False
        if snap:
            self.pos[idx] = self.home[idx]
            self.prev[idx] = self.home[idx]
            self.vel[idx] = 0
            self.wp[idx] = 0
            self.nwp[idx] = 1
            self.route[idx, 0] = self.home[idx]
            self.inside[idx] = True
            return
        region = set()
        for shape in cl.recent:
            region.update(shape)
        routes: dict = {}
        for j, i in enumerate(idx):
            a = (int(cur[j, 0]), int(cur[j, 1]))
            b = (int(assigned[j, 0]), int(assigned[j, 1]))
            key = (a, b)
            if key not in routes:
                routes[key] = _route(region, a, b)
            way = routes[key][-(K_ROUTE - 1):]
            pts = [(x + 0.5, y + 0.5) for x, y in way]
            pts.append(tuple(self.home[i]))
            self.route[i, :len(pts)] = pts
            self.nwp[i] = len(pts)
            self.wp[i] = 0

    def _set_boxes(self, idx: np.ndarray, squares: np.ndarray) -> None:
        """Where settled particles may be in their square: all of it, or the band of a passage
        narrower than a square (a crack is drawn as a thin channel; the swarm keeps to it)."""
        lo = squares + MARGIN
        hi = squares + (1 - MARGIN)
        if self.band is not None:
            for j, (x, y) in enumerate(squares.tolist()):
                b = self.band((x, y))
                if b is None:
                    continue
                axis, frac = b
                half = max(0.06, frac / 2)
                if axis == 0:      # along x: the band is thin in y
                    lo[j, 1], hi[j, 1] = y + 0.5 - half, y + 0.5 + half
                elif axis == 90:   # along y: thin in x
                    lo[j, 0], hi[j, 0] = x + 0.5 - half, x + 0.5 + half
        self.box_lo[idx] = lo
        self.box_hi[idx] = hi

    # -- stepping ------------------------------------------------------------------------------------------
    def _params(self) -> None:
        """Per-particle constants by kind (recomputed when clouds are added)."""
        kind = self.kind
        self._bat = np.nonzero(kind == 0)[0]
        self._wasp = np.nonzero(kind == 2)[0]
        self._scurry = (kind == 1) | (kind == 3)
        self._speed = np.select([kind == 0, kind == 1, kind == 2], [9.0, 7.0, 11.0], 5.0)
        self._speed_settled = self._speed * np.select([kind == 0, kind == 1, kind == 2], [0.5, 0.45, 0.6], 0.3)
        self._resp = np.select([kind == 0, kind == 2], [10.0, 22.0], 16.0)
        self._n_params = len(kind)
        self._k_dt = None

    def step(self, dt: float) -> None:
        self.t += dt
        n = len(self.pos)
        if n == 0:
            return
        if self._n_params != n:
            self._params()
        self.prev[:] = self.pos
        scattering = bool(self.scatter.any())
        last = self.wp >= self.nwp - 1
        travelling = np.nonzero(~last)[0]
        goal = self.home.copy()
        if len(travelling):
            goal[travelling] = self.route[travelling, np.minimum(self.wp[travelling], K_ROUTE - 1)]
        t = self.t
        # motion by kind, around the home point
        b = self._bat
        if len(b):
            b = b[last[b]]
            w = 5.5 * self.freq[b]
            ph = self.phase[b]
            goal[b, 0] += 0.2 * np.cos(w * t + ph)
            goal[b, 1] += 0.13 * np.sin(2 * w * t + ph)
        wa = self._wasp
        if len(wa):
            ws = wa[last[wa]]
            w = 13.0 * self.freq[ws]
            ph = self.phase[ws]
            goal[ws, 0] += 0.1 * np.cos(w * t + ph) + 0.06 * np.sin(2.7 * w * t)
            goal[ws, 1] += 0.1 * np.sin(w * t * 1.3 + ph)
        self.timer -= dt
        renew = np.nonzero(self._scurry & (self.timer < 0))[0]
        if len(renew):
            renew = renew[last[renew] & self.inside[renew]]
        if len(renew):
            k = len(renew)
            rng = self.rng
            lo, hi = self.box_lo[renew], self.box_hi[renew]
            self.home[renew] = lo + rng.uniform(0.06, 0.94, (k, 2)) * (hi - lo)
            self.timer[renew] = rng.uniform(0.25, 1.3, k) * np.where(self.kind[renew] == 3, 1.8, 1.0)
            goal[renew] = self.home[renew]
        # steering
        speed = np.where(last, self._speed_settled, self._speed)
        d = goal - self.pos
        dist = np.sqrt(np.einsum("ij,ij->i", d, d))
        f = np.minimum(speed, dist * 9.0) / np.maximum(dist, 1e-6)
        d *= f[:, None]
        d -= self.vel
        d *= self._k_resp(dt)[:, None]
        self.vel += d
        if scattering:  # scattered particles fly on outward, slowing
            sc = self.scatter
            self.scatter_vel[sc] *= (1 - 0.6 * dt)
            self.vel[sc] = self.scatter_vel[sc]
        if len(wa):
            self.vel[wa] += self.rng.normal(0, 14.0 * dt, (len(wa), 2))
        self.pos += self.vel * dt
        # waypoint progress
        if len(travelling):
            d2 = self.route[travelling, np.minimum(self.wp[travelling], K_ROUTE - 1)] - self.pos[travelling]
            near = travelling[np.einsum("ij,ij->i", d2, d2) < 0.2025]
            self.wp[near] += 1
        # settled particles stay in their square; travelling ones do not enter rock
        outside = np.nonzero(~self.inside)[0]
        if len(outside):
            o = outside[last[outside]]
            fo = np.floor(self.pos[o]).astype(np.int64)
            ok = (fo == self.target[o]).all(axis=1)
            ok &= (self.pos[o] >= self.box_lo[o]).all(axis=1) & (self.pos[o] <= self.box_hi[o]).all(axis=1)
            if scattering:
                ok &= ~self.scatter[o]
            self.inside[o[ok]] = True
        clamp = self.inside if not scattering else (self.inside & ~self.scatter)
        np.clip(self.pos, self.box_lo, self.box_hi, out=self.pos, where=clamp[:, None])
        if self.rock is not None:
            free = np.nonzero(~clamp)[0]
            if scattering and len(free):
                free = free[~self.scatter[free]]
            if len(free):
                rows_, cols_ = self.rock.shape
                fl = np.floor(self.pos[free]).astype(np.int64)
                fx = np.clip(fl[:, 0], 0, cols_ - 1)
                fy = np.clip(fl[:, 1], 0, rows_ - 1)
                hit = free[self.rock[fy, fx]]
                if len(hit):
                    self.pos[hit] = self.prev[hit]
                    self.vel[hit] *= -0.3
        # clouds: thinning and scattering
        for cl in list(self.clouds.values()):
            if cl.scatter_t >= 0:
                cl.scatter_t += dt
                cl.visible = max(0.0, 1.0 - cl.scatter_t / 2.0) * cl.strength
                if cl.gone:
                    self.clouds.pop(cl.id, None)
            elif cl.visible != cl.strength:
                cl.visible += (cl.strength - cl.visible) * min(1.0, 3.0 * dt)
                if abs(cl.visible - cl.strength) < 1e-4:
                    cl.visible = cl.strength

    def _k_resp(self, dt: float) -> np.ndarray:
        if self._k_dt != dt:
            self._k_dt = dt
            self._k = np.minimum(1.0, self._resp * dt)
        return self._k

    # -- reading -------------------------------------------------------------------------------------------------
    def drawn(self, cid: str, alpha: float = 1.0) -> np.ndarray:
        """Positions (interpolated) of the particles of a cloud that are drawn now."""
        cl = self.clouds[cid]
        k = int(round(cl.count * cl.visible))
        sl = slice(cl.start, cl.start + k)
        return self.prev[sl] + (self.pos[sl] - self.prev[sl]) * alpha

    def render_lists(self, alpha: float = 1.0, hidden=()):
        """For drawing: per visible cloud (kind, positions (k, 2), colour index (k,), velocity (k, 2),
        phase (k,)). ``hidden``: ids of swarms not drawn (the side whose view is shown does not
        perceive them: fog of war, RULES §9.3); they keep moving, unseen."""
        out = []
        for cl in self.clouds.values():
            if cl.id in hidden:
                continue
            k = int(round(cl.count * cl.visible))
            if k <= 0:
                continue
            sl = slice(cl.start, cl.start + k)
            p = self.prev[sl] + (self.pos[sl] - self.prev[sl]) * alpha
            out.append((cl, p, self.colour[sl], self.vel[sl], self.phase[sl] + self.t * 30.0 * self.freq[sl]))
        return out

    def inside_fraction(self, cid: str) -> float:
        """Fraction of a cloud's drawn particles inside its current squares."""
        cl = self.clouds[cid]
        p = self.drawn(cid)
        if len(p) == 0:
            return 1.0
        fl = np.floor(p).astype(np.int64)
        sq = set(cl.squares)
        return float(np.mean([(int(x), int(y)) in sq for x, y in fl]))

    def coverage(self, cid: str) -> dict[Pos, int]:
        """How many drawn particles are in each of the cloud's squares."""
        cl = self.clouds[cid]
        fl = np.floor(self.drawn(cid)).astype(np.int64)
        out = {sq: 0 for sq in cl.squares}
        for x, y in fl.tolist():
            if (x, y) in out:
                out[(x, y)] += 1
        return out


def _route(region: set, a: Pos, b: Pos) -> list[Pos]:
    """Squares from ``a`` (exclusive) to ``b`` (inclusive) through ``region`` (4-neighbours);
    straight to ``b`` when there is no way through the region."""
    if a == b:
        return [b]
    if a not in region:
        # start from the region square nearest to it
        cand = min(region, key=lambda s: (abs(s[0] - a[0]) + abs(s[1] - a[1]), s)) if region else b
        return [cand] + (_route(region, cand, b) if cand != b else [])
    prev = {a: None}
    q = deque([a])
    while q:
        s = q.popleft()
        if s == b:
            break
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            t = (s[0] + dx, s[1] + dy)
            if t in region and t not in prev:
                prev[t] = s
                q.append(t)
    if b not in prev:
        return [b]
    out = []
    s = b
    while s is not None and s != a:
        out.append(s)
        s = prev[s]
    return out[::-1]
