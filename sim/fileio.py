"""Writing output files safely: never leave a half-written file behind (DESIGN §7).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write_text(d / "a.txt", "hello")
>>> (d / "a.txt").read_text()
'hello'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from sim.errors import DataError


def _check_dir(path: Path) -> None:
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
    _check_dir(path)
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


def atomic_write_with(path: str | Path, writer: Callable[[Path], None]) -> None:
    with atomic_path(path) as tmp:
        writer(tmp)
