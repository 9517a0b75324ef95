"""The only code that opens user files: reading TOML input (with line lookup for messages) and
writing output files safely, never leaving a half-written file behind (DESIGN §7).

Reading knows nothing about what a file means: :func:`read_toml` turns every failure (missing,
not UTF-8, not TOML) into one :class:`~sim.errors.DataError` naming the file, and
:class:`TomlLines` finds the line of a key or table so the parsers (``sim.loaders``,
``sim.rules.statblocks``) can point at it. Nothing read is ever executed.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Iterator

from sim.errors import DataError


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


def check_dir(path: Path) -> None:
    """The folder of an output file exists and the path is not a folder (DataError naming the fix)."""
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise DataError(f"{path}: folder {parent} does not exist; create it first or choose another --out")
    if path.exists() and path.is_dir():
        raise DataError(f"{path}: is a directory; give a file name")


@contextlib.contextmanager
def atomic_path(path: str | Path, *, durable: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it is renamed onto ``path``,
    on any exception it is removed. Use for writers that want a file name (Pillow, numpy).
    ``durable``: flush the temporary file to disk (fsync) before the rename, and the folder
    after it, so a power cut leaves the old file or the new one (the map editor's saves)."""
    path = Path(path)
    check_dir(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix or ".tmp", dir=path.parent or ".")
    os.close(fd)
    tmp_path = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp_path, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
    try:
        yield tmp_path
        if durable:
            _fsync(tmp_path)
        os.replace(tmp_path, path)
        if durable:
            _fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder if str(folder) else ".", os.O_RDONLY)
    except OSError:  # a platform without directory handles (Windows): the rename is what we have
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: str | Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
