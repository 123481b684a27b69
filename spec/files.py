"""Files written whole or not at all: the one writer of every artefact (records, pictures, data).

Opening the target for writing truncates it first: a full disk, a stop or a crash half-way
leaves a truncated file where a good one was. :func:`replacing` writes a temporary file in the
target's own directory (the rename must not cross file systems), flushes and fsyncs it, and only
then renames it over the target (``os.replace``, atomic on POSIX): a reader sees the old file or
the new one, never a part. On any failure the temporary file is removed and the target is as it
was. The directory is fsynced too, so the rename itself survives a power loss.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new contents into; ``path`` is replaced when the block
    ends without an exception, and left untouched when it raises (OSError: the real cause, as
    ``open`` would raise it; ValueError: a NUL in the name)."""
    target = os.fspath(path)
    if os.path.islink(target):  # the file it points at is replaced, the link kept
        target = os.path.realpath(target)
    if os.path.isdir(target):  # else the rename below would replace an empty directory
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), target)
    if os.path.exists(target) and not os.path.isfile(target):  # /dev/null, a FIFO: no file to keep
        with open(target, "wb") as fh:
            yield fh
        return
    folder = os.path.dirname(target) or "."
    fd, temporary = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        _keep_mode(target, temporary)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """``path`` holding exactly ``data`` (text as UTF-8), written through :func:`replacing`."""
    with replacing(path) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


def _keep_mode(target: str, temporary: str) -> None:
    """The new file gets the permissions the old one had, else those ``open`` would have given
    (mkstemp makes it 0600; umask applied, as for any new file)."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    os.chmod(temporary, mode)


def _umask() -> int:
    """The process's umask, read without setting it where Linux shows it (setting it to read it
    would give any file another thread creates meanwhile the wrong permissions)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a directory: the rename stands anyway
        pass
    finally:
        os.close(fd)


__all__ = ["replacing", "write_atomic"]
