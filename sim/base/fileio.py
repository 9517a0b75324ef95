"""The only code that opens user files: reading TOML input (with line lookup for messages) and
writing output files safely, never leaving a half-written file behind (DESIGN §7).

Reading knows nothing about what a file means: :func:`read_toml` turns every failure (missing,
not UTF-8, not TOML) into one :class:`~sim.base.errors.DataError` naming the file, and
:class:`TomlLines` finds the line of a key or table so the parsers (``sim.scenario.files``,
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
import stat
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Iterator

from sim.base.errors import DataError, shorten_text

_TMP = re.compile(r"\.(?P<name>.+)\.cavesim-(?P<pid>\d+)\.[^/]*")


MAX_INPUT_BYTES = 64 * 1024 * 1024   # a TOML file, an event log or a layers archive (bytes)
MAX_KEY_CHARS = 100                  # a TOML key (a glyph, a setting, a field name)
MAX_STRING_CHARS = 10_000            # a TOML string, except a map's [map] grid
MAX_DEPTH = 32                       # tables and arrays nested in a TOML file


def read_input(path: str | Path, *, what: str = "file", limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a user's input file: only a regular file is read (a FIFO, a device such as
    ``/dev/zero``, ``/dev/stdin`` or a folder is refused without waiting on it), and only up to
    ``limit`` bytes (a larger file is refused before it is read). Every failure is a
    :class:`DataError` naming the file.

    >>> read_input("/dev/null")
    Traceback (most recent call last):
    ...
    sim.base.errors.DataError: /dev/null: not a regular file (a character device); give the path of a file
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opens at once
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; check the path") from None
    except IsADirectoryError:
        raise DataError(f"{path}: is a directory, not a {what}") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DataError(f"{path}: is a directory, not a {what}")
        if not stat.S_ISREG(st.st_mode):
            raise DataError(f"{path}: not a regular file ({_kind(st.st_mode)}); give the path of a file")
        if st.st_size > limit:
            raise DataError(f"{path}: is {st.st_size:,} bytes, over the limit of {limit:,} for a {what}")
        chunks = []
        left = limit + 1
        while left > 0:  # a file that grows while read (or lies about its size, as /proc does) stops at the limit
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise DataError(f"{path}: is over the limit of {limit:,} bytes for a {what}")
    return data


def check_input_file(path: str | Path, *, what: str = "file", limit: int = MAX_INPUT_BYTES) -> None:
    """Refuse (:class:`DataError`) what :func:`read_input` would refuse, without reading it: a
    missing path, anything but a regular file, a file over ``limit`` bytes."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file; check the path") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise DataError(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise DataError(f"{path}: not a regular file ({_kind(st.st_mode)}); give the path of a file")
    if st.st_size > limit:
        raise DataError(f"{path}: is {st.st_size:,} bytes, over the limit of {limit:,} for a {what}")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """Parse a TOML file into (data, raw text); every failure is a DataError naming the file (and
    line). Bounded before any work: a regular file of at most :data:`MAX_INPUT_BYTES`, nested at
    most :data:`MAX_DEPTH` deep, keys of at most :data:`MAX_KEY_CHARS` characters and strings of at
    most :data:`MAX_STRING_CHARS` (a map's ``grid`` excepted: its size is checked in squares)."""
    path = Path(path)
    raw = read_input(path, what="TOML file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path}: not valid TOML: {shorten_text(str(exc))}; fix the syntax there") from None
    except RecursionError:
        raise DataError(f"{path}: tables or arrays nested too deep (at most {MAX_DEPTH}); flatten the file") from None
    problem = _oversized(data, ())
    if problem:
        raise DataError(f"{path}: {problem}")
    return data, text


def _oversized(value: Any, where: tuple) -> str | None:
    """The first key or string of a parsed TOML document over its limit, as a message."""
    stack = [(value, where)]
    while stack:
        v, at = stack.pop()
        if len(at) > MAX_DEPTH:
            return f"{_dotted(at[:3])}...: tables or arrays nested more than {MAX_DEPTH} deep; flatten the file"
        if isinstance(v, dict):
            for k, item in v.items():
                if len(k) > MAX_KEY_CHARS:
                    return (f"{_dotted(at) + ': ' if at else ''}a key of {len(k):,} characters "
                            f"({shorten_text(k, 20)}); keys have at most {MAX_KEY_CHARS}")
                stack.append((item, at + (k,)))
        elif isinstance(v, list):
            stack.extend((item, at + (f"#{i + 1}",)) for i, item in enumerate(v))
        elif isinstance(v, str) and len(v) > MAX_STRING_CHARS and at[-2:] != ("map", "grid"):
            return f"{_dotted(at)}: a string of {len(v):,} characters (at most {MAX_STRING_CHARS:,})"
    return None


def _dotted(at: tuple) -> str:
    return ".".join(shorten_text(str(a), 20) for a in at)


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
def atomic_path(path: str | Path, *, durable: bool = False) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it is renamed onto ``path``,
    on any exception it is removed. Use for writers that want a file name (Pillow, numpy).
    ``durable``: flush the temporary file to disk (fsync) before the rename, and the folder
    after it, so a power cut leaves the old file or the new one (the map editor's saves, the
    batch journal's header)."""
    path = Path(path)
    check_dir(path)
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
        if durable:
            _fsync(tmp_path)
        os.replace(tmp_path, path)
        if durable:
            fsync_dir(path.parent)
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


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable (its entry written to disk); a platform or file system
    without directory handles is passed over."""
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


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Yield a new temporary folder beside ``path`` to write files into. On success a new
    ``path`` is that folder renamed (all or nothing); an existing ``path`` gets each file by an
    atomic rename (files of its own that are not rewritten are left alone). On any exception the
    temporary folder is removed and ``path`` is untouched."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise DataError(f"{path}: folder {parent} does not exist; create it first")
    if path.exists() and not path.is_dir():
        raise DataError(f"{path}: is a file, not a folder")
    clean_stale(path)
    tmp = Path(tempfile.mkdtemp(prefix=_tmp_prefix(path), suffix=".dir", dir=parent))
    try:
        os.chmod(tmp, 0o777 & ~_umask())
        yield tmp
        if path.is_dir():
            for entry in sorted(os.listdir(tmp)):
                os.replace(tmp / entry, path / entry)
            os.rmdir(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def atomic_write_text(path: str | Path, text: str, *, durable: bool = False) -> None:
    with atomic_path(path, durable=durable) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
