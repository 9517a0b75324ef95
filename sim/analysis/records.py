"""Batch records on disk: CSV or JSON lines, appended as fights finish, sorted at the end.

While a batch runs, each finished fight's record is appended (and flushed) to ``OUT.part``, so
an interrupted batch loses nothing; ``--resume`` reads ``OUT.part`` (or a finished ``OUT``, to
extend it with more ``--runs``), checks that its records belong to this batch (same seeds for
the same fight numbers, same columns) and plays only the missing fights. When every fight is
in, the records are sorted (variant as listed, then fight number) and written to ``OUT`` in one
atomic step, and ``OUT.part`` is removed: the same seed gives the same bytes, whatever the
number of workers.

CSV: one header row (the batch's columns, :func:`sim.analysis.batch.columns`), empty cells
where a column does not apply (a creature absent from a variant, an error row). JSON lines: one
object per fight with the record's own keys.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> j = Journal(d / "runs.csv", "csv", ["variant", "index", "seed", "rounds"], resume=False)
>>> j.append([{"variant": "", "index": 1, "seed": 5, "rounds": 3}, {"variant": "", "index": 0, "seed": 4, "rounds": 2}])
>>> j.finish(lambda r: r["index"])
>>> (d / "runs.csv").read_text().splitlines()
['variant,index,seed,rounds', ',0,4,2', ',1,5,3']
>>> read_records(d / "runs.csv", "csv")[0]
{'variant': '', 'index': 0, 'seed': 4, 'rounds': 2}
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from sim.analysis.batch import INT_FIELDS
from sim.errors import DataError
from sim.fileio import _check_dir, atomic_write_text

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


def coerce(rec: dict) -> dict:
    """A record read from CSV with its numbers as numbers (empty cells dropped)."""
    out = {}
    for k, v in rec.items():
        if v is None or v == "":
            if k in ("variant", "winner", "error", "reason"):
                out[k] = ""
            continue
        if _int_field(k) and isinstance(v, str):
            try:
                v = int(v)
            except ValueError:
                pass
        out[k] = v
    return out


def _lines(path: Path) -> list[str]:
    """The complete lines of a file (a last line cut off by an interruption is left out)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    return lines[:-1]  # the part after the last newline is empty, or an incomplete record


def read_records(path: str | Path, fmt: str, *, columns: list[str] | None = None) -> list[dict]:
    """Records of a batch file (typed). With ``columns``, a CSV header must match them."""
    p = Path(path)
    try:
        lines = _lines(p)
    except OSError as exc:
        raise DataError(f"{p}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise DataError(f"{p}: not a batch record file (not UTF-8 text)") from None
    if fmt == "csv":
        if not lines:
            return []
        rows = list(csv.reader(lines))
        header = rows[0]
        if columns is not None and header != list(columns):
            raise DataError(f"{p}: its columns are not this batch's (another encounter or --vary); "
                            "give a new --out or drop --resume")
        if "index" not in header or "seed" not in header:
            raise DataError(f"{p}: not a cavesim batch file (no index and seed columns)")
        return [coerce(dict(zip(header, r))) for r in rows[1:] if r]
    out = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            raise DataError(f"{p}:{i}: not a JSON record; the file must hold records written by cavesim fight --runs") from None
        if not isinstance(rec, dict) or "index" not in rec or "seed" not in rec:
            raise DataError(f"{p}:{i}: not a cavesim batch record (no index and seed)")
        if columns is not None and not set(rec) <= set(columns):
            raise DataError(f"{p}:{i}: its fields are not this batch's (another encounter or --vary); "
                            "give a new --out or drop --resume")
        out.append(rec)
    return out


def render(records: list[dict], fmt: str, columns: list[str], *, header: bool = True) -> str:
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=columns, restval="", extrasaction="raise", lineterminator="\n")
        if header:
            w.writeheader()
        w.writerows(records)
        return buf.getvalue()
    return "".join(json.dumps(r, separators=(",", ":"), allow_nan=False) + "\n" for r in records)


def part_path(path: str | Path) -> Path:
    p = Path(path)
    return p.with_name(p.name + ".part")


def existing_records(path: str | Path, fmt: str, columns: list[str]) -> list[dict]:
    """The records a resumed batch starts from: its journal ``OUT.part`` if there is one, else a
    finished ``OUT``, else none. Checks the folder and the columns (raises :class:`DataError`)."""
    p = Path(path)
    _check_dir(p)
    part = part_path(p)
    src = part if part.exists() else (p if p.exists() else None)
    return [] if src is None else read_records(src, fmt, columns=columns)


class Journal:
    """The batch's file while it runs (see the module docstring), started with the records
    ``existing`` (when resuming)."""

    def __init__(self, path: str | Path, fmt: str, columns: list[str], *, existing: list[dict] | None = None,
                 resume: bool | None = None):
        self.path = Path(path)
        _check_dir(self.path)
        self.fmt = fmt
        self.columns = list(columns)
        self.part = part_path(self.path)
        if existing is None:
            existing = existing_records(self.path, fmt, self.columns) if resume else []
        self.existing: list[dict] = list(existing)
        # start the journal afresh with what is kept (drops a cut-off last line)
        with open(self.part, "w", encoding="utf-8", newline="") as fh:
            fh.write(render(self.existing, fmt, self.columns))
            fh.flush()
        self._fh = open(self.part, "a", encoding="utf-8", newline="")

    def append(self, records: list[dict]) -> None:
        self._fh.write(render(records, self.fmt, self.columns, header=False))
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
