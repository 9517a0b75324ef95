"""Batch records on disk: CSV or JSON lines, appended as fights finish, sorted at the end.

While a batch runs, each finished fight's record is appended (and flushed) to the journal
``OUT.part``, so an interrupted batch loses nothing. The journal's first line records a hash of
the batch's inputs (:data:`JOURNAL_TAG`), and every record in it ends with a check
(:func:`record_check`: a hash of those inputs and the record's text), so a record copied from
another batch's journal, or edited, is told from this batch's own. ``--resume`` reads
``OUT.part`` (or a finished ``OUT``, to extend it with more ``--runs``), checks that it belongs
to this batch (the same inputs hash, the same columns) and that every complete line is a record
of this batch (:func:`check_record`, its check, its variant one of this batch's and its seed
fight ``i``'s seed, :class:`Identity`; a line that is not is refused, in one line naming the
first such line and the fix, and ``--repair`` moves it aside to ``OUT.part.damaged`` so that
its fight is played again), and plays only the missing fights. The journal is never truncated
(:class:`Journal`). When every fight is
in, the records are sorted (variant as listed, then fight number) and written to ``OUT`` in one
atomic step, and ``OUT.part`` is removed: the same seed gives the same bytes, whatever the
number of workers.

CSV: one header row (the batch's columns, :func:`sim.analysis.batch.columns`), empty cells
where a column does not apply (a creature absent from a variant, an error row). JSON lines: one
object per fight with the record's own keys.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> j = Journal(d / "runs.csv", "csv", ["variant", "index", "seed", "rounds"], inputs="ab12")
>>> (d / "runs.csv.part").read_text().splitlines()
['# cavesim batch journal v2 inputs=ab12', 'variant,index,seed,rounds,check']
>>> j.append([{"variant": "", "index": 1, "seed": 5, "rounds": 3}, {"variant": "", "index": 0, "seed": 4, "rounds": 2}])
>>> j.finish(lambda r: r["index"])
>>> (d / "runs.csv").read_text().splitlines()
['variant,index,seed,rounds', ',0,4,2', ',1,5,3']
>>> read_records(d / "runs.csv", "csv")[0]
{'variant': '', 'index': 0, 'seed': 4, 'rounds': 2}
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.analysis.batch import INT_FIELDS, fight_seed
from sim.base.errors import DataError
from sim.base.errors import shorten as short
from sim.base.fileio import atomic_write_text, check_dir

FORMATS = ("csv", "jsonl")


def format_for(path: str | Path, fmt: str | None) -> str:
    """The format asked for, else the file's suffix (``.jsonl`` / ``.json`` / ``.ndjson`` ->
    JSON lines), else CSV.

    >>> format_for("a.jsonl", None), format_for("a.csv", None), format_for("a.txt", "jsonl")
    ('jsonl', 'csv', 'jsonl')
    """
    if fmt:
        return fmt
    return "jsonl" if Path(path).suffix.lower() in (".jsonl", ".json", ".ndjson") else "csv"


def _int_field(key: str) -> bool:
    return key in INT_FIELDS or key.split(".", 1)[0] in INT_FIELDS


_WHOLE = re.compile(r"-?[0-9]{1,19}")


def coerce(rec: dict) -> dict:
    """A record read from CSV with its numbers as numbers (empty cells dropped). A number is read
    strictly: ASCII digits with an optional minus sign, nothing else (``int`` would also take
    ``+3``, `` 3``, ``3_0`` or ``٣``); anything else stays text, which :func:`check_record`
    refuses in a number column.

    >>> coerce({"variant": "", "index": "3", "seed": "3_0", "rounds": "+2"})
    {'variant': '', 'index': 3, 'seed': '3_0', 'rounds': '+2'}
    """
    out = {}
    for k, v in rec.items():
        if v is None or v == "":
            if k in ("variant", "winner", "error", "reason"):
                out[k] = ""
            continue
        if _int_field(k) and isinstance(v, str) and _WHOLE.fullmatch(v):
            v = int(v)
        out[k] = v
    return out


# =================================================================================================
# Checking what is read back (a journal may have been damaged by a crash, a disk or a person)
# =================================================================================================

JOURNAL_TAG = "# cavesim batch journal v2 inputs="
CHECK = "check"             # the journal's own last column (CSV) / last key (JSON lines)
MAX_LINE = 1 << 20          # a record line longer than 1 MiB is damaged (a whole fight is a few kB)
MAX_TEXT = 2000             # characters of a text field other than a heat map
MAX_INT = 10 ** 9           # any count, hit points or rounds beyond this is damage
_HEAT = re.compile(r"(?:\d{1,6},\d{1,6}:\d{1,9}(?:;\d{1,6},\d{1,6}:\d{1,9})*)?")
_SQUARE = re.compile(r"(?:\d{1,6},\d{1,6})?")
_NON_NEGATIVE = {"index", "seed", "rounds", "alive", "standing", "squeezing", "nauseated"}


def check_record(rec: Any, columns: list[str] | None = None) -> str | None:
    """Why ``rec`` (one record read back, typed) cannot be a record cavesim wrote, or None.

    >>> check_record({"variant": "", "index": 0, "seed": 5, "rounds": 3}) is None
    True
    >>> check_record({"variant": "", "index": -1, "seed": 5})
    'index must be a whole number >= 0, got -1'
    >>> check_record({"variant": "", "index": 0, "seed": 5, "heat.fight": "1,2:x"})
    "heat.fight is not a heat map ('x,y:n;...'), got '1,2:x'"
    """
    if not isinstance(rec, dict):
        return f"not a record (a {type(rec).__name__})"
    for key in ("index", "seed"):
        if key not in rec:
            return f"no {key}"
    if columns is not None:
        extra = [k for k in rec if k not in columns]
        if extra:
            return f"field {short(extra[0])} is not a column of this batch"
    for k, v in rec.items():
        if not isinstance(k, str) or len(k) > MAX_TEXT:
            return f"a field name of {len(str(k))} characters"
        if k == "rounds" and v is None:
            continue  # an error record
        if _int_field(k):
            if isinstance(v, bool) or not isinstance(v, int):
                return f"{k} must be a whole number, got {short(v)}"
            if (k.split(".", 1)[0] in _NON_NEGATIVE and v < 0) or abs(v) > (2 ** 53 if k == "seed" else MAX_INT):
                return f"{k} must be a whole number >= 0, got {short(v)}" if v < 0 else f"{k} is out of range: {short(v)}"
            continue
        if not isinstance(v, str):
            return f"{k} must be text, got {short(v)}"
        if "\x00" in v:
            return f"{k} holds a NUL byte"
        if k.startswith("heat."):
            if not _HEAT.fullmatch(v):
                return f"{k} is not a heat map ('x,y:n;...'), got {short(v)}"
        elif k.startswith("fell."):
            if not _SQUARE.fullmatch(v):
                return f"{k} is not a square ('x,y'), got {short(v)}"
        elif len(v) > MAX_TEXT:
            return f"{k} is {len(v)} characters long (at most {MAX_TEXT})"
    return None


def record_check(inputs: str, body: str) -> str:
    """The check a journal writes at the end of a record: 16 hex digits of SHA-256 over the
    journal's inputs hash and the record's own text (its CSV row or JSON object without the
    check). A record copied from another batch's journal carries that batch's inputs in its
    check, so it does not match the journal it was spliced into; nor does an edited record.

    >>> record_check("ab12", ",0,4,2")
    'c3ba0f7ae0965ff6'
    >>> record_check("ab12", ",0,4,3") != record_check("ab12", ",0,4,2") != record_check("cd34", ",0,4,2")
    True
    """
    return hashlib.sha256(f"{inputs}\n{body}".encode()).hexdigest()[:16]


class Identity:
    """What a record of this batch is: one of its variants (as ``--vary`` labels them), with fight
    ``i``'s seed drawn from the batch seed (:func:`sim.analysis.batch.fight_seed`).

    >>> ident = Identity(["a"], 7)
    >>> ident.why_not({"variant": "a", "index": 0, "seed": fight_seed(7, 0)}) is None
    True
    >>> ident.why_not({"variant": "b", "index": 0, "seed": fight_seed(7, 0)})
    "variant 'b' is not one of this batch's"
    >>> ident.why_not({"variant": "a", "index": 1, "seed": 5}) == f"seed 5 is not fight 1's seed in this batch ({fight_seed(7, 1)})"
    True
    """

    __slots__ = ("labels", "seed", "_seeds")

    def __init__(self, labels, seed: int, seeds: dict[int, int] | None = None):
        self.labels = frozenset(str(x) for x in labels)
        self.seed = int(seed)
        self._seeds: dict[int, int] = dict(seeds or {})   # index -> seed, already drawn (the batch's plan)

    def why_not(self, rec: dict) -> str | None:
        label = str(rec.get("variant", ""))
        if label not in self.labels:
            return f"variant {short(label)} is not one of this batch's"
        i = rec["index"]
        if i not in self._seeds:
            self._seeds[i] = fight_seed(self.seed, i)
        if rec["seed"] != self._seeds[i]:
            return f"seed {rec['seed']} is not fight {i}'s seed in this batch ({self._seeds[i]})"
        return None


_FOREIGN = "not a record of this batch (its check does not match the journal's inputs: copied from another batch, or edited)"


@dataclass(frozen=True, slots=True)
class Scan:
    """What a batch file holds: its good records, its damaged complete lines ``(line, why)``,
    the journal's inputs hash (None in a finished file), and whether it ends with a complete line."""

    records: tuple[dict, ...]
    damaged: tuple[tuple[int, str], ...]
    inputs: str | None
    clean_end: bool


def scan(path: str | Path, fmt: str, *, columns: list[str] | None = None, identity: Identity | None = None) -> Scan:
    """Read a batch file (a finished ``OUT`` or a journal ``OUT.part``) line by line, checking every
    record (:func:`check_record`; in a journal also its check, :func:`record_check`, and with
    ``identity`` its variant and seed). A last line without its newline (cut off by an
    interruption) is left out. Raises :class:`DataError` only for what is not a batch file at all."""
    p = Path(path)
    try:
        if not p.is_file():
            raise DataError(f"{p}: not a regular file; give the batch's records file")
        fh = open(p, "rb")
    except OSError as exc:
        raise DataError(f"{p}: cannot be read ({exc.strerror})") from None
    records: list[dict] = []
    damaged: list[tuple[int, str]] = []
    inputs = None
    header: list[str] | None = None
    clean_end = True
    with fh:
        for number, raw in enumerate(_raw_lines(fh), 1):
            mark = body = None
            if not raw.endswith(b"\n"):
                clean_end = False
                break
            if number == 1 and raw.startswith(JOURNAL_TAG.encode()):
                inputs = raw[len(JOURNAL_TAG):].decode("ascii", "replace").strip()
                continue
            if len(raw) > MAX_LINE:
                damaged.append((number, f"a line of more than {MAX_LINE:,} bytes"))
                continue
            if b"\x00" in raw:
                damaged.append((number, "holds a NUL byte"))
                continue
            try:
                line = raw[:-1].decode("utf-8")
            except UnicodeDecodeError:
                damaged.append((number, "not UTF-8 text"))
                continue
            if fmt == "csv":
                try:
                    (row,) = csv.reader([line]) if line else [[]]
                except (csv.Error, ValueError) as exc:
                    limit = csv.field_size_limit()
                    damaged.append((number, f"a field of more than {limit} characters" if "field limit" in str(exc)
                                    else f"not a CSV row ({exc})"))
                    continue
                if header is None:
                    header = row
                    if "index" not in header or "seed" not in header:
                        raise DataError(f"{p}:{number}: not a cavesim batch file (no index and seed columns)")
                    if inputs is not None:
                        if header[-1] != CHECK:
                            raise DataError(f"{p}:{number}: a journal's header ends with a {CHECK} column, this one "
                                            f"does not (written by another cavesim?); delete {p} to start the batch again")
                        header = header[:-1]
                    if columns is not None and header != list(columns):
                        raise DataError(f"{p}: its columns are not this batch's (another encounter or --vary); "
                                        "give a new --out or drop --resume")
                    continue
                if not row:
                    continue
                width = len(header) + (inputs is not None)
                if len(row) != width:
                    damaged.append((number, f"{len(row)} fields where the header has {width}"))
                    continue
                rec = coerce(dict(zip(header, row)))
                if inputs is not None:
                    mark = row[-1]
                    body = line[:-len(mark) - 1] if line.endswith("," + mark) else None
            else:
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except (ValueError, RecursionError):
                    damaged.append((number, "not a JSON record"))
                    continue
                if inputs is not None and isinstance(rec, dict):
                    mark = rec.pop(CHECK, None)
                    body = None
            why = check_record(rec, columns if fmt == "jsonl" else None)
            if why is None and inputs is not None:
                if fmt == "jsonl":
                    body = json.dumps(rec, separators=(",", ":"), allow_nan=False)
                if not isinstance(mark, str) or not mark:
                    why = f"no {CHECK} (a journal's records end with one)"
                elif body is None or mark != record_check(inputs, body):
                    why = _FOREIGN
                elif identity is not None:
                    why = identity.why_not(rec)
            if why is not None:
                damaged.append((number, why))
                continue
            records.append(rec)
    return Scan(tuple(records), tuple(damaged), inputs, clean_end)


def _raw_lines(fh, size: int = 1 << 16):
    """The lines of a binary file, each with its newline (the last maybe without). A line longer
    than :data:`MAX_LINE` is not held: it comes as ``b"#" * MAX_LINE + b"\n"`` (its length is
    what matters: it is damaged), or without the newline if the file ends inside it."""
    buf = b""
    long_line = False
    while True:
        chunk = fh.read(size)
        if not chunk:
            break
        buf += chunk
        while True:
            nl = buf.find(b"\n")
            if nl < 0:
                break
            line, buf = buf[:nl + 1], buf[nl + 1:]
            if long_line:
                yield b"#" * (MAX_LINE + 1) + b"\n"
                long_line = False
            else:
                yield line
        if len(buf) > MAX_LINE:
            long_line = True
            buf = b""
    if long_line:
        yield b"#" * (MAX_LINE + 1)
    elif buf:
        yield buf


def read_records(path: str | Path, fmt: str, *, columns: list[str] | None = None) -> list[dict]:
    """Records of a batch file (typed). With ``columns``, a CSV header must match them. A damaged
    line is refused with its line number."""
    p = Path(path)
    s = scan(p, fmt, columns=columns)
    if s.damaged:
        raise DataError.collect([f"{p}:{n}: damaged record ({why})" for n, why in s.damaged[:5]]
                                + ([f"{p}: ... and {len(s.damaged) - 5} more damaged lines"] if len(s.damaged) > 5 else []))
    return list(s.records)


def render(records: list[dict], fmt: str, columns: list[str], *, header: bool = True) -> str:
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=columns, restval="", extrasaction="raise", lineterminator="\n")
        if header:
            w.writeheader()
        w.writerows(records)
        return buf.getvalue()
    return "".join(json.dumps(r, separators=(",", ":"), allow_nan=False) + "\n" for r in records)


def render_journal(records: list[dict], fmt: str, columns: list[str], inputs: str, *, header: bool = True) -> str:
    """Records as the journal holds them: each ends with its check (:func:`record_check`), in a
    last CSV column ``check`` or a last JSON key ``"check"``.

    >>> print(render_journal([{"variant": "", "index": 0, "seed": 4}], "csv", ["variant", "index", "seed"], "ab12"), end="")
    variant,index,seed,check
    ,0,4,a6800adbda8eb1cf
    """
    out = []
    if header and fmt == "csv":
        out.append(render([], fmt, [*columns, CHECK]))
    for r in records:
        body = render([r], fmt, columns, header=False)[:-1]
        mark = record_check(inputs, body)
        out.append(f"{body},{mark}\n" if fmt == "csv" else f'{body[:-1]},"{CHECK}":"{mark}"}}\n')
    return "".join(out)


def part_path(path: str | Path) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".part")


def damaged_path(path: str | Path) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".part.damaged")


@dataclass(frozen=True, slots=True)
class Resume:
    """Where a batch starts: the records kept, the file they came from (None: a fresh batch),
    and whether the journal can simply be appended to."""

    records: tuple[dict, ...] = ()
    source: Path | None = None
    appendable: bool = False
    damaged: tuple[tuple[int, str], ...] = ()


def existing_records(path: str | Path, fmt: str, columns: list[str], inputs: str | None = None, *,
                     resume: bool = True, repair: bool = False, identity: Identity | None = None) -> Resume:
    """The records a batch starts from. Resuming: its journal ``OUT.part`` if there is one (its
    inputs hash must be ``inputs``; a damaged line -- or a record that is not this batch's: its
    check, or with ``identity`` its variant or seed -- is refused, in one line naming the first
    and the fix, unless ``repair``), else a finished ``OUT``, else none. Not resuming: none, and
    an existing journal is refused (it would be lost). Checks the folder and the columns (raises
    :class:`DataError`)."""
    p = Path(path)
    check_dir(p)
    part = part_path(p)
    if not resume:
        if part.exists() or part.is_symlink():
            raise DataError(f"{part}: holds the fights of an interrupted batch; add --resume to continue it, "
                            f"or delete {part} to start again")
        return Resume()
    if part.exists():
        s = scan(part, fmt, columns=columns, identity=identity)
        if s.inputs is None:
            raise DataError(f"{part}: not a cavesim batch journal (no '{JOURNAL_TAG.strip()}' first line); "
                            f"delete it to start the batch again")
        if inputs is not None and s.inputs != inputs:
            raise DataError(f"{part}: its fights were played from other inputs (the encounter, its map, a stat "
                            "block, the settings or --vary changed); give a new --out, or delete "
                            f"{part} to start again")
        if s.damaged and not repair:
            raise DataError(refusal(part, s.damaged, damaged_path(p)))
        return Resume(s.records, part, appendable=s.clean_end and not s.damaged, damaged=s.damaged)
    if p.exists():
        return Resume(tuple(read_records(p, fmt, columns=columns)), p)
    return Resume()


def refusal(part: Path, damaged, aside: Path) -> str:
    """The one line that refuses a journal with damaged lines: the first three with their
    numbers and what is wrong, how many more, and the fix.

    >>> refusal(Path("r.csv.part"), [(3, "no seed"), (9, "no seed")], Path("r.csv.part.damaged"))
    'r.csv.part:3: damaged record (no seed); r.csv.part:9: damaged record (no seed); to recover, run the same command with --resume --repair (the damaged lines are moved to r.csv.part.damaged and their fights played again), or delete r.csv.part to start the batch again'
    """
    items = [f"{part}:{n}: damaged record ({why})" for n, why in damaged[:3]]
    if len(damaged) > 3:
        items.append(f"and {len(damaged) - 3} more damaged lines (the last: line {damaged[-1][0]})")
    return ("; ".join(items) + "; to recover, run the same command with --resume --repair (the damaged lines are "
            f"moved to {aside} and their fights played again), or delete {part} to start the batch again")


class Journal:
    """The batch's file while it runs (see the module docstring). It is never truncated: a clean
    journal being resumed is appended to; any other start (a fresh batch, a journal with a cut-off
    last line or repaired lines, a finished file being extended) writes a new journal beside it
    and renames it into place, so a kill at any moment leaves the old journal or the new one."""

    def __init__(self, path: str | Path, fmt: str, columns: list[str], *, inputs: str = "",
                 start: Resume | None = None):
        self.path = Path(path)
        check_dir(self.path)
        self.fmt = fmt
        self.columns = list(columns)
        self.inputs = inputs
        self.part = part_path(self.path)
        start = start or Resume()
        if start.damaged:
            self._move_aside(start)
        if not (start.appendable and start.source == self.part):
            head = f"{JOURNAL_TAG}{inputs}\n" + render_journal(list(start.records), fmt, self.columns, inputs)
            atomic_write_text(self.part, head, durable=True)
        self._fh = open(self.part, "a", encoding="utf-8", newline="")

    def _move_aside(self, start: Resume) -> None:
        """Copy the damaged lines of the journal into ``OUT.part.damaged`` (appended, with their
        line numbers) before the journal is rewritten without them."""
        wanted = {n for n, _ in start.damaged}
        with open(self.part, "rb") as src, open(damaged_path(self.path), "ab") as dst:
            for number, raw in enumerate(_raw_lines(src), 1):
                if number in wanted:
                    dst.write(f"# line {number}: {dict(start.damaged)[number]}\n".encode() + raw[:MAX_LINE].rstrip(b"\n") + b"\n")
            dst.flush()
            os.fsync(dst.fileno())

    def append(self, records: list[dict]) -> None:
        self._fh.write(render_journal(records, self.fmt, self.columns, self.inputs, header=False))
        self._fh.flush()

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

    def finish(self, key) -> None:
        """Sort every record in the journal, write ``path`` atomically, remove the journal."""
        self.close()
        records = read_records(self.part, self.fmt)
        seen = set()
        unique = []
        for r in sorted(records, key=key):
            k = (r.get("variant", ""), r["index"])
            if k not in seen:
                seen.add(k)
                unique.append(r)
        atomic_write_text(self.path, render([_full(r, self.columns) if self.fmt == "csv" else r for r in unique],
                                            self.fmt, self.columns))
        os.remove(self.part)


def _full(rec: dict, columns: list[str]) -> dict:
    return {k: rec.get(k, "") for k in columns}
