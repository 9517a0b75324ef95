"""The only code that opens user files: reading TOML input (with line lookup for messages) and
writing output files safely, never leaving a half-written file behind (DESIGN §7).

Reading knows nothing about what a file means: :func:`read_toml` turns every failure (missing,
not UTF-8, not TOML) into one :class:`~sim.errors.DataError` naming the file, and
:class:`TomlLines` finds the line of a key or table so the parsers (``sim.loaders``,
``sim.rules.statblocks``) can point at it. Nothing read is ever executed.

Every output is written to a temporary file beside it and renamed onto its name when complete
(:func:`atomic_path`); a folder of files (a report) is written into a temporary folder renamed
the same way (:func:`atomic_dir`). Temporary names are ``.NAME.cavesim-PID.XXXXXX`` (hidden, with
the writing process's id): a later write to the same name removes those whose process is gone
(killed by SIGKILL, say), so no debris piles up. :func:`check_writable` proves, before any work,
that an output can be written at all.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
>>> sorted(p.name for p in d.iterdir())
['a.txt']
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Callable, Iterator

from sim.errors import DataError

_TMP = re.compile(r"\.(?P<name>.+)\.cavesim-(?P<pid>\d+)\.[^/]*")


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML file into (data, raw text); every failure is a DataError naming the file (and line)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a TOML file") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {exc}; fix the syntax there") from None


def located(path: str | Path, line: int | None, key: str) -> str:
    """The start of a message about ``key`` of a file: ``file:line: key`` (or ``file: key``).

    >>> located("cave.toml", 4, "[map] units"), located("cave.toml", None, "[legend]")
    ('cave.toml:4: [map] units', 'cave.toml: [legend]')
    """
    return f"{path}:{line}: {key}" if line else f"{path}: {key}"


class TomlLines:
    """Finds the line numbers of keys and tables in a TOML file's raw text, for messages.

    >>> lines = TomlLines('[map]\\nname = "x"\\n[[point]]\\nname = "y"\\n')
    >>> lines.table("map"), lines.table("point"), lines.key("name"), lines.key("name", after=2)
    (1, 3, 2, 4)
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()

    def table(self, name: str) -> int | None:
        pat = re.compile(r"^\s*\[\[?\s*" + re.escape(name) + r"\s*\]\]?\s*(#.*)?$")
        for i, line in enumerate(self.lines, 1):
            if pat.match(line):
                return i
        return None

    def key(self, key: str, *, after: int | None = None) -> int | None:
        quoted = re.escape(key)
        pat = re.compile(r"^\s*(" + quoted + r"|\"" + quoted + r"\"|'" + quoted + r"')\s*=")
        for i, line in enumerate(self.lines, 1):
            if after is not None and i <= after:
                continue
            if pat.match(line):
                return i
        return None

    def grid_first_row(self) -> int | None:
        """Line number of the first grid row (the line after ``grid = \"\"\"``)."""
        start = self.key("grid", after=self.table("map"))
        if start is None:
            return None
        line = self.lines[start - 1]
        m = re.search(r'("""|\'\'\')(.*)$', line)
        if m and m.group(2).strip() == "":
            return start + 1
        return start


def _check_dir(path: Path) -> None:
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise DataError(f"{path}: folder {parent} does not exist; create it first or choose another --out")
    if not parent.is_dir():
        raise DataError(f"{path}: {parent} is not a folder; choose another --out")
    if path.exists() and path.is_dir():
        raise DataError(f"{path}: is a directory; give a file name")


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or not a pid we can ask about): leave its files
    return True


def clean_stale(path: str | Path) -> list[Path]:
    """Remove the temporary files (and folders) a killed cavesim left beside ``path``: those named
    for ``path`` whose writing process no longer runs. Returns what was removed."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        m = _TMP.fullmatch(entry.name)
        if not m or m.group("name") != path.name or _alive(int(m.group("pid"))):
            continue
        p = Path(entry.path)
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(p)
            else:
                p.unlink()
            removed.append(p)
    return removed


def _tmp_prefix(path: Path) -> str:
    return f".{path.name}.cavesim-{os.getpid()}."


def check_writable(path: str | Path, *, what: str = "--out", folder: bool = False) -> None:
    """Refuse (:class:`DataError`) an output that cannot be written, before any work: its folder
    must exist and take a new file (tried for real: a temporary file is made and removed), and
    the name must not be a folder (or, with ``folder``, must be a folder or free)."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise DataError(f"{what} {path}: folder {parent} does not exist; create it first or choose another {what}")
    if folder:
        if path.exists() and not path.is_dir():
            raise DataError(f"{what} {path}: is a file, not a folder; choose another {what}")
    elif path.is_dir():
        raise DataError(f"{what} {path}: is a directory; give a file name")
    elif path.exists() and not path.is_file():
        raise DataError(f"{what} {path}: is not a regular file (a device or a pipe); give a file name")
    try:
        fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=".probe", dir=parent)
    except OSError as exc:
        raise DataError(f"{what} {path}: cannot write in {parent} ({exc.strerror}); choose another {what}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)


@contextlib.contextmanager
def atomic_path(path: str | Path, *, sync: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it is renamed onto ``path``,
    on any exception it is removed. Use for writers that want a file name (Pillow, numpy).
    With ``sync`` the file is flushed to the disk before the rename."""
    path = Path(path)
    _check_dir(path)
    clean_stale(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(path), suffix=path.suffix or ".tmp", dir=path.parent or ".")
    except OSError as exc:
        raise DataError(f"{path}: cannot be written ({exc.strerror}); choose another place") from None
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
        yield tmp_path
        if sync:
            with open(tmp_path, "rb+") as fh:
                os.fsync(fh.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a new temporary folder beside ``path``; on success it takes ``path``'s place (an old
    folder there is moved aside and removed only after), on any exception it is removed. A
    report folder is therefore either the old one or the new one, never half of each."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise DataError(f"{path}: folder {parent} does not exist; create it first")
    if path.exists() and not path.is_dir():
        raise DataError(f"{path}: is a file, not a folder")
    clean_stale(path)
    tmp = Path(tempfile.mkdtemp(prefix=_tmp_prefix(path), suffix=".dir", dir=parent))
    os.chmod(tmp, 0o777 & ~_umask())
    try:
        yield tmp
        if path.exists():
            old = Path(tempfile.mkdtemp(prefix=_tmp_prefix(path), suffix=".old", dir=parent))
            os.rmdir(old)
            os.replace(path, old)
            os.replace(tmp, path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def atomic_write_text(path: str | Path, text: str, *, sync: bool = False) -> None:
    with atomic_path(path, sync=sync) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def atomic_write_with(path: str | Path, writer: Callable[[Path], None]) -> None:
    with atomic_path(path) as tmp:
        writer(tmp)
