"""Monte Carlo batches: seeds in, flat records out (STYLE habit 9), on any executor (issue 7).

* **Seeds.** Fight ``i`` of a batch with seed ``S`` plays with the integer seed drawn from
  ``numpy.random.SeedSequence(S).spawn(i + 1)[i]`` (:func:`fight_seed`): every fight has its
  own independent stream, and the same ``(S, i)`` gives the same fight whatever the number of
  workers, their order, or how many fights the batch holds. ``cavesim fight ENCOUNTER --seed
  <record's seed>`` replays that fight alone. Every variant of a sweep uses the same seeds
  (common random numbers: differences between variants come from the variant, not the dice).
* **Records.** One flat dict per fight (:func:`fight_record`, columns in the README): the batch
  key (``variant``, ``index``, ``seed``), the outcome, per team and per creature numbers, and
  sparse heat-map strings. A fight that raises is recorded with its seed and a one-line
  traceback summary in ``error``, and the batch goes on.
* **Executors.** :func:`run_batch` runs chunks of fights on whatever it is given that has
  ``submit(fn, *args)`` returning futures: a ``concurrent.futures`` executor (local processes by
  default) or a Dask ``distributed.Client`` (``--cluster``). With one worker and no executor
  the fights run in this process.

>>> fight_seed(7, 0) == int(np.random.SeedSequence(7).spawn(1)[0].generate_state(1, np.uint64)[0] >> 11)
True
>>> [fight_seed(7, i) for i in range(2)] == [fight_seed(7, i) for i in (0, 1)]
True
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import hashlib
import json
import math
import os
import traceback
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from sim import __version__
from sim.analysis import blunders
from sim.engine.fight import new_encounter
from sim.engine.setup import build_creature
from sim.engine.split import origin
from sim.rules import _data
from sim.rules.categories import Category
from sim.rules.statblocks import template_in, template_path
from sim.scenario.specs import EncounterSpec
from sim.terrain.grid import CaveGrid

BASE_COLUMNS = ("variant", "index", "seed", "winner", "reason", "rounds", "error")
TEAM_FIELDS = ("alive", "standing")
CREATURE_FIELDS = ("hp", "maxhp", "state", "kills", "fell", "at", "squeezing", "nauseated", "spells", "used")
HEAT_COLUMNS = ("heat.fight", "heat.fall", "heat.stall")
INT_FIELDS = {"index", "seed", "rounds", "alive", "standing", "hp", "maxhp", "squeezing", "nauseated", "spells",
              "blunder"}


def fight_seed(batch_seed: int, index: int) -> int:
    """The seed of fight ``index`` (53 bits, exact in JSON): the first 64-bit word of the
    ``index``-th child of ``SeedSequence(batch_seed)`` (the same child ``spawn`` gives), shifted."""
    child = np.random.SeedSequence(int(batch_seed), spawn_key=(int(index),))
    return int(child.generate_state(1, np.uint64)[0] >> 11)


@dataclass(frozen=True, slots=True)
class Job:
    variant: int        # position in the batch's list of variants
    label: str
    index: int
    seed: int

    @property
    def key(self) -> tuple[str, int]:
        return (self.label, self.index)


def plan(labels: list[str], runs: int, seed: int) -> list[Job]:
    """Every fight of a batch, variant by variant, in index order."""
    seeds = [fight_seed(seed, i) for i in range(runs)]
    return [Job(v, label, i, seeds[i]) for v, label in enumerate(labels) for i in range(runs)]


# =================================================================================================
# One fight -> one record
# =================================================================================================

def members(specs: list[EncounterSpec]) -> dict[str, list[str]]:
    """Team -> creature ids over these variants (in order of first appearance)."""
    out: dict[str, list[str]] = {}
    for spec in specs:
        for cs in spec.combatants:
            ids = out.setdefault(build_creature(cs, spec.path).team, [])
            if cs.id not in ids:
                ids.append(cs.id)
    return out


def columns(specs: list[EncounterSpec]) -> list[str]:
    """The columns of a batch over these variants: the base ones, per team, per creature (in
    order of first appearance), the AI's blunders per team (:mod:`sim.analysis.blunders`), then
    the heat maps."""
    teams: list[str] = []
    ids: list[str] = []
    for spec in specs:
        for cs in spec.combatants:
            t = build_creature(cs, spec.path).team
            if t not in teams:
                teams.append(t)
            if cs.id not in ids:
                ids.append(cs.id)
    cols = list(BASE_COLUMNS)
    cols += [f"{f}.{t}" for t in teams for f in TEAM_FIELDS]
    cols += [f"{f}.{i}" for i in ids for f in CREATURE_FIELDS]
    cols += blunders.columns(teams)
    cols += list(HEAT_COLUMNS)
    return cols


def creature_state(c) -> str:
    if "dead" in c.conditions:
        return "dead"
    if "dispersed" in c.conditions:
        return "dispersed"
    for cond in ("dying", "stable", "unconscious", "asleep", "paralyzed"):
        if cond in c.conditions:
            return cond
    return "up"


def _sparse(counts: dict[tuple[int, int], int]) -> str:
    """``x,y:n`` items joined by ``;``, in reading order.

    >>> _sparse({(2, 1): 3, (0, 1): 1})
    '0,1:1;2,1:3'
    """
    return ";".join(f"{x},{y}:{n}" for (x, y), n in sorted(counts.items(), key=lambda t: (t[0][1], t[0][0])))


def parse_sparse(text: str) -> list[tuple[int, int, int]]:
    """The ``(x, y, n)`` items of a sparse heat string (see :func:`_sparse`).

    >>> parse_sparse('0,1:1;2,1:3')
    [(0, 1, 1), (2, 1, 3)]
    """
    out = []
    for item in (text or "").split(";"):
        if not item:
            continue
        xy, _, n = item.partition(":")
        x, _, y = xy.partition(",")
        out.append((int(x), int(y), int(n)))
    return out


def _heat(enc) -> tuple[str, str, str]:
    """Where blows land (the target's squares, and what a swarm covers when it strikes), where
    creatures fell, and where they stalled (turns begun squeezing -- in any constricted category,
    Narrow or Low up to Tight Squeeze, docs/rules.md §2.1 -- or nauseated, and failed Escape Artist
    checks). The same test as the ``squeezing.<id>`` column (the engine's count of such turns)."""
    pos: dict[str, list] = {}
    nauseated: set[str] = set()
    fight: dict = {}
    stall: dict = {}

    def add(d, sq, n=1):
        k = (int(sq[0]), int(sq[1]))
        d[k] = d.get(k, 0) + n

    for e in enc.events:
        t = e.type
        if t == "encounter_start":
            for c in e.combatants:
                pos[c["id"]] = [tuple(s) for s in c["squares"]]
        elif t in ("moved", "swarm_shape"):
            pos[e.actor] = [tuple(s) for s in e.squares]
        elif t == "split":   # a new half of an ooze (docs/rules.md §11.14)
            pos[e.new] = [tuple(s) for s in e.creature["squares"]]
        elif t == "attack" and e.hit:  # the map is of hits taken (summary: "hits taken per square")
            for sq in pos.get(e.target, ()):
                add(fight, sq)
        elif t == "engulf":
            for sq in e.squares:
                add(fight, sq)
        elif t == "condition" and e.condition == "nauseated":
            (nauseated.add if e.active else nauseated.discard)(e.target)
        elif t == "check" and e.skill == "escape_artist" and not e.success and e.at is not None:
            add(stall, e.at)
        elif t == "turn_start":
            c = enc.creatures.get(e.actor)
            sq = pos.get(e.actor)
            if c is None or not sq:
                continue
            squeezing = False
            if not c.is_swarm:
                cats = enc.categories(c)
                worst = max(int(cats[y, x]) for x, y in sq)
                squeezing = Category.NARROW_OR_LOW <= worst < Category.IMPASSABLE
            if squeezing or e.actor in nauseated:
                add(stall, sq[0])
    fall: dict = {}
    for c in enc.creatures.values():
        if c.fell_at is not None:
            add(fall, c.fell_at)
    return _sparse(fight), _sparse(fall), _sparse(stall)


def supplies(enc) -> dict[str, tuple[int, dict[str, int]]]:
    """What each creature carries that a fight spends: ``id -> (spells prepared, {item: count})``
    (consumables and thrown weapons); taken before the fight, compared after it."""
    return {c.id: supplies_of(c) for c in enc.creatures.values()}


def _spent(before: tuple[int, dict[str, int]] | None, c) -> tuple[int, str]:
    """Spells cast and items used since ``before``: ``(spells, "item:n|item:n")``."""
    if before is None:
        return 0, ""
    now = supplies_of(c)
    spells = max(0, before[0] - now[0])
    used = {k: n - now[1].get(k, 0) for k, n in before[1].items() if n - now[1].get(k, 0) > 0}
    return spells, "|".join(f"{k}:{n}" for k, n in sorted(used.items()))


def supplies_of(c) -> tuple[int, dict[str, int]]:
    stock = {k: int(v) for k, v in c.items.items() if v}
    for k, v in c.thrown_left.items():
        stock[f"thrown:{k}"] = int(v)
    return sum(len(v) for v in c.spells_left.values()), stock


#: The end states from best to worst: a split ooze's record takes the best of its halves' (docs/rules.md §11.14).
STATE_RANK = ("up", "asleep", "paralyzed", "unconscious", "stable", "dying", "dispersed", "dead")


def _groups(enc) -> dict[str, list]:
    """Each of the encounter's own creatures (by id, in order) with the halves split off it
    (docs/rules.md §11.14), the original first: the records keep the encounter's columns, a
    split ooze counting as one creature (its hit points the sum of its living halves')."""
    originals = [c.id for c in enc.creatures.values() if c.split_round == 0]
    groups: dict[str, list] = {cid: [] for cid in originals}
    for c in enc.creatures.values():
        root = c.id if c.split_round == 0 else (origin(c.id, originals) or c.id)
        groups.setdefault(root, []).append(c)
    return groups


def fight_record(enc, *, label: str, index: int, seed: int, before: dict | None = None,
                 tally: dict | None = None) -> dict:
    """The flat record of a finished fight (``before``: :func:`supplies` at the start, for what
    was spent; ``tally``: its blunders, :func:`sim.analysis.blunders.play_counted`)."""
    rec: dict = {"variant": label, "index": index, "seed": seed, "winner": enc.winner or "",
                 "reason": enc.end_reason, "rounds": int(enc.round), "error": ""}
    teams: dict[str, list] = {}
    groups = _groups(enc)
    for group in groups.values():
        teams.setdefault(group[0].team, []).append(group)
    for t, gs in teams.items():
        rec[f"alive.{t}"] = sum(1 for g in gs if any(c.alive for c in g))
        rec[f"standing.{t}"] = sum(1 for g in gs if any(c.in_fight for c in g))
    for cid, group in groups.items():
        c = group[0]
        alive = [m for m in group if m.alive]
        rec[f"hp.{cid}"] = sum(int(m.hp) for m in alive) if alive else int(c.hp)
        rec[f"maxhp.{cid}"] = sum(int(m.max_hp) for m in group)
        rec[f"state.{cid}"] = min((creature_state(m) for m in group), key=STATE_RANK.index)
        rec[f"kills.{cid}"] = "|".join(dict.fromkeys(k for m in group for k in m.kills))  # each victim once (down, then dead)
        fell = next((m.fell_at for m in group if m.fell_at is not None), None) if not alive else c.fell_at
        rec[f"fell.{cid}"] = "" if fell is None else f"{fell[0]},{fell[1]}"
        at = getattr(alive[0], "pos", None) if alive else None
        rec[f"at.{cid}"] = "" if at is None else f"{at[0]},{at[1]}"
        rec[f"squeezing.{cid}"] = sum(int(m.squeezing_rounds) for m in group)
        rec[f"nauseated.{cid}"] = sum(int(m.nauseated_rounds) for m in group)
        rec[f"spells.{cid}"], rec[f"used.{cid}"] = _spent((before or {}).get(cid), c)
    rec.update(blunders.record_fields(tally or {}, list(teams)))
    rec["heat.fight"], rec["heat.fall"], rec["heat.stall"] = _heat(enc)
    return rec


def error_record(exc: BaseException, *, label: str, index: int, seed: int) -> dict:
    """A fight that raised: its key and a one-line summary of the error (type, message, and
    the innermost frame of our code)."""
    tb = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in tb if "/sim/" in f.filename.replace("\\", "/")] or tb
    where = ""
    if ours:
        f = ours[-1]
        fn = f.filename.replace("\\", "/")
        fn = fn[fn.rfind("/sim/") + 1:] if "/sim/" in fn else os.path.basename(fn)
        where = f" at {fn}:{f.lineno} in {f.name}"
    msg = " ".join(str(exc).split())
    if len(msg) > 500:
        msg = msg[:497] + "..."
    return {"variant": label, "index": index, "seed": seed, "winner": "", "reason": "error", "rounds": None,
            "error": f"{type(exc).__name__}: {msg}{where}"}


def play(spec: EncounterSpec, *, label: str, index: int, seed: int, shared: dict | None = None) -> dict:
    """Play one fight and return its record (an error record if it raises)."""
    try:
        enc = new_encounter(spec, seed=seed, shared=shared)
        before = supplies(enc)
        tally = blunders.play_counted(enc)   # plays it as enc.run() does, counting the AI's blunders
        return fight_record(enc, label=label, index=index, seed=seed, before=before, tally=tally)
    except Exception as exc:  # noqa: BLE001 - a failing fight is data: record it and go on
        return error_record(exc, label=label, index=index, seed=seed)


def pack(spec: EncounterSpec) -> tuple:
    """The encounter as plain picklable parts (a grid holds read-only mapping proxies, which
    pickle refuses): sent to workers, rebuilt there by :func:`unpack`."""
    g = spec.grid
    arrays = {"width_ft": np.array(g.width_ft), "height_ft": np.array(g.height_ft),
              "difficult": np.array(g.difficult), "rock": np.array(g.rock),
              "glyphs": None if g.glyphs is None else np.array(g.glyphs), "door": np.array(g.door)}
    meta = {"name": g.name, "points": dict(g.points), "description": g.description, "source": g.source,
            "units": g.units, "legend": dict(g.legend), "lights": g.lights, "image": g.image,
            "edges": g.edges, "edge_doors": g.edge_doors}
    return dataclasses.replace(spec, grid=None), arrays, meta


def unpack(packed: tuple) -> EncounterSpec:
    spec, arrays, meta = packed
    w, h = arrays["width_ft"], arrays["height_ft"]
    grid = CaveGrid.from_arrays(w, h, difficult=arrays["difficult"], rock=arrays["rock"], glyphs=arrays["glyphs"],
                                door=arrays["door"], **meta)
    return dataclasses.replace(spec, grid=grid)


def run_chunk(packed: tuple, items: list[tuple[str, int, int]]) -> list[dict]:
    """Play ``(label, index, seed)`` fights of one variant (a task sent to a worker; ``packed``
    from :func:`pack`)."""
    spec = unpack(packed)
    shared: dict = {}
    return [play(spec, label=label, index=i, seed=s, shared=shared) for label, i, s in items]


# =================================================================================================
# Running a batch
# =================================================================================================

def chunks(jobs: list[Job], size: int, workers: int = 1) -> list[list[Job]]:
    """Jobs cut into tasks, never mixing variants: at most ``size`` fights each, and smaller
    towards the end (guided scheduling: a task holds at most 1/(2 x workers) of what is left),
    so no worker is left with a long last task while the others wait.

    >>> [len(c) for c in chunks(plan([""], 20, 0), 8, 2)]
    [5, 4, 3, 2, 2, 1, 1, 1, 1]
    """
    out: list[list[Job]] = []
    left = len(jobs)
    cap = 0
    for j in jobs:
        if out and len(out[-1]) < cap and out[-1][0].variant == j.variant:
            out[-1].append(j)
        else:
            cap = max(1, min(size, math.ceil(left / (2 * max(1, workers)))))
            out.append([j])
        left -= 1
    return out


def default_chunk(n_jobs: int, workers: int) -> int:
    """The largest task: small enough that records stream in, large enough that sending a task
    costs little next to its fights.

    >>> default_chunk(1000, 2), default_chunk(10, 2), default_chunk(100000, 8)
    (8, 2, 8)
    """
    return max(1, min(8, math.ceil(n_jobs / max(1, workers * 4))))


def local_workers() -> int:
    """CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _completed(futures: list) -> Iterator:
    if all(isinstance(f, cf.Future) for f in futures):
        yield from cf.as_completed(futures)
        return
    from distributed import as_completed  # a Dask client's futures

    yield from as_completed(futures)


def _cancel(executor, futures: list) -> None:
    for f in futures:
        try:
            f.cancel()
        except Exception:  # noqa: BLE001 - best effort while stopping
            pass
    shutdown = getattr(executor, "shutdown", None)
    if isinstance(executor, cf.Executor) and shutdown is not None:
        shutdown(wait=False, cancel_futures=True)


class BatchIncomplete(Exception):
    """Some fights could not be played for reasons that are not the fights' own (a worker lost
    again and again, a cluster that failed): they are not recorded, so ``--resume`` plays them."""

    def __init__(self, jobs: list[Job], reason: str):
        self.jobs = list(jobs)
        self.reason = reason
        super().__init__(f"{len(self.jobs)} fights were not played: {reason}")


MAX_BREAKS = 3  # pools in a row that break before finishing any task: the batch gives up


def _watch_parent(parent: int, period: float = 0.5) -> None:
    """A worker's initializer: a daemon thread ends the worker when ``parent`` (the batch's main
    process) is gone, whatever killed it -- a worker never outlives its batch."""
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(period)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="cavesim-parent-watch", daemon=True).start()


def run_batch(variants: list[tuple[str, EncounterSpec]], jobs: Iterable[Job], *, workers: int = 1,
              executor=None, chunk: int | None = None, on_records: Callable[[list[dict]], None] | None = None
              ) -> list[dict]:
    """Play ``jobs`` and return their records (in the order they finished). ``on_records`` is
    called with each finished task's records as they arrive (to append them to a file and move
    a progress bar). ``executor``: anything with ``submit(fn, *args)`` (a ``concurrent.futures``
    executor or a Dask client); without one, ``workers`` local processes (or this process when
    ``workers`` is 1).

    A fight that raises is a record (its error). A task lost for any other reason is never
    recorded as a fight: when a local worker dies (killed, or out of memory) its pool is
    replaced and every unfinished task is played again, up to :data:`MAX_BREAKS` pools in a row
    that break before finishing anything; what still could not be played raises
    :class:`BatchIncomplete` after every other task is done."""
    jobs = list(jobs)
    out: list[dict] = []

    def done(recs: list[dict]) -> None:
        out.extend(recs)
        if on_records is not None:
            on_records(recs)

    if not jobs:
        return out
    specs = {v: spec for v, (_, spec) in enumerate(variants)}
    if executor is None and workers <= 1:
        shared: dict[int, dict] = {}
        for j in jobs:
            done([play(specs[j.variant], label=j.label, index=j.index, seed=j.seed,
                       shared=shared.setdefault(j.variant, {}))])
        return out
    n_workers = workers if executor is None else max(1, _dask_workers(executor))
    size = chunk or default_chunk(len(jobs), n_workers)
    tasks = chunks(jobs, size, n_workers)
    own = executor is None
    packed = {v: pack(spec) for v, spec in specs.items()}
    lost: list[Job] = []
    reason = ""
    breaks = 0
    while tasks:
        ex = (cf.ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent, initargs=(os.getpid(),))
              if own else executor)
        futures: list = []
        broken: list[list[Job]] = []
        finished_any = False
        try:
            index = {}
            for t in tasks:
                f = ex.submit(run_chunk, packed[t[0].variant], [(j.label, j.index, j.seed) for j in t])
                futures.append(f)
                index[id(f)] = t
            for f in _completed(futures):
                t = index[id(f)]
                try:
                    recs = f.result()
                except BrokenProcessPool:
                    broken.append(t)
                    continue
                except Exception as exc:  # noqa: BLE001 - not the fight's doing (it would be a record)
                    lost.extend(t)
                    reason = f"{type(exc).__name__}: {' '.join(str(exc).split())[:300]}"
                    continue
                finished_any = True
                done(recs)
        except BaseException:
            _cancel(ex, futures)
            raise
        finally:
            if own:
                ex.shutdown(wait=True, cancel_futures=True)
        if not broken:
            break
        breaks = 0 if finished_any else breaks + 1
        if not own or breaks >= MAX_BREAKS:
            lost.extend(j for t in broken for j in t)
            reason = (f"a worker process died {breaks} times in a row before finishing a fight "
                      "(killed, or out of memory)" if own else "the executor's worker pool broke")
            break
        tasks = broken
    if lost:
        raise BatchIncomplete(sorted(lost, key=lambda j: (j.variant, j.index)), reason)
    return out


def inputs_digest(variants: list[tuple[str, EncounterSpec]], seed: int) -> str:
    """A hash of everything a batch's fights depend on: the version, the batch seed, and per
    variant its label, terrain arrays, settings, combatants and the bytes of every stat block
    file they name (a shipped one or the user's). A journal records it; ``--resume`` compares.

    >>> from sim.scenario.files import load_encounter
    >>> import sim, pathlib
    >>> demo = load_encounter(pathlib.Path(sim.__file__).parent.parent / "maps" / "demo.toml")
    >>> inputs_digest([("", demo)], 1) == inputs_digest([("", demo)], 1) != inputs_digest([("", demo)], 2)
    True
    """
    h = hashlib.sha256(f"cavesim {__version__} batch seed {int(seed)}\n".encode())
    files: dict[str, bytes] = {}
    for label, spec in variants:
        h.update(b"variant\0" + label.encode() + b"\0")
        g = spec.grid
        for name in ("width_ft", "height_ft", "difficult", "rock", "door"):
            a = np.ascontiguousarray(getattr(g, name))
            h.update(f"{name} {a.shape} {a.dtype.str}\0".encode())
            h.update(a.tobytes())
        for name in ("edges", "edge_doors"):   # walls between squares: only maps that have them
            layer = getattr(g, name)
            if layer is not None:
                h.update(f"{name}\0".encode() + layer.east.tobytes() + layer.south.tobytes())
        h.update(json.dumps(sorted(spec.settings.items()), default=repr).encode())
        for cs in spec.combatants:
            fields = {f.name: getattr(cs, f.name) for f in dataclasses.fields(cs) if f.name != "line"}
            h.update(json.dumps(fields, sort_keys=True, default=repr).encode())
            h.update(_template_bytes(cs.template, spec.path, files))
    return h.hexdigest()


def _template_bytes(template: str, base: str, cache: dict[str, bytes]) -> bytes:
    """The bytes of the stat block file ``template`` names (as the engine finds it), or b"" when
    it cannot be read (the fight will record the error)."""
    key = f"{base}\0{template}"
    if key not in cache:
        try:
            found = template_in(template, base)
            if found != template or Path(template).is_absolute():
                p = Path(found)
                cache[key] = p.read_bytes()[: 1 << 22] if p.is_file() else b""
            else:
                cache[key] = _data.data_dir().joinpath(*template_path(template).split("/")).read_bytes()
        except (OSError, ValueError):
            cache[key] = b""
    return cache[key]


def _dask_workers(client) -> int:
    try:
        return max(1, len(client.scheduler_info().get("workers", {})))
    except Exception:  # noqa: BLE001 - not a Dask client, or no answer yet
        return 2


def sort_key(variant_order: dict[str, int]):
    """Records in batch order: variant as listed, then fight index."""
    return lambda r: (variant_order.get(str(r.get("variant", "")), len(variant_order)), int(r["index"]))
