"""One host per save: a running game holds an exclusive OS lock on a small file beside its
save (``.NAME.lock``), so a second ``resume`` or ``play --save`` of it is refused instead of
two hosts overwriting each other's moves.

The lock is ``flock`` (``fcntl``) on POSIX and ``msvcrt.locking`` on Windows: the kernel
drops it when the holder's process ends, however it ends (``kill -9`` included), so a dead
holder never blocks a resume. The file also says who holds it (process, game, since when),
for the refusal's sentence; it is removed when the lock is released."""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Holder:
    """What the lock file says of the host holding it (fields may be empty: an old or
    half-written file)."""

    pid: int = 0
    game: str = ""
    since: str = ""
    """Local time the game started, ``HH:MM``."""


class SaveInUse(Exception):
    """Another running host holds the save; ``holder`` says which (a narration key and
    its fields make the sentence, see :func:`in_use_line`)."""

    def __init__(self, save: Path, holder: Holder) -> None:
        self.save = save
        self.holder = holder
        super().__init__(f"The game saved at {save} is being hosted by another voice-host "
                         f"(process {holder.pid or '?'}).")


def lock_path(save: Path) -> Path:
    return save.with_name(f".{save.name}.lock")


class SaveLock:
    """The lock of one save file. :meth:`acquire` raises :class:`SaveInUse` when another
    host holds it; :meth:`release` (also on ``with`` exit) lets it go."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self.path = lock_path(save)
        self._fd: int | None = None

    def acquire(self, *, game: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(20):  # the file may be removed by its releasing holder meanwhile
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            if not _try_lock(fd):
                holder = _read_holder(fd)
                os.close(fd)
                raise SaveInUse(self.save, holder)
            try:  # still the file at that path (not one a releasing holder just removed)?
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                _write_holder(fd, Holder(os.getpid(), game, time.strftime("%H:%M")))
                return
            os.close(fd)
        raise OSError(f"The lock file {self.path} keeps changing.")

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):  # removed while held: no one can take the old one
            self.path.unlink()
        os.close(self._fd)  # closing drops the lock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> SaveLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` without waiting; False when another holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:  # a file system without locks: nothing to hold, nothing blocks
        import errno

        if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
            return True
        raise
    return True


def _write_holder(fd: int, holder: Holder) -> None:
    data = json.dumps({"pid": holder.pid, "game": holder.game, "since": holder.since})
    with contextlib.suppress(OSError):  # the lock matters, its note is a courtesy
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, data.encode())
        os.fsync(fd)


def _read_holder(fd: int) -> Holder:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        data: Any = json.loads(os.read(fd, 4096).decode("utf-8"))
    except (OSError, ValueError):
        return Holder()
    if not isinstance(data, dict):
        return Holder()
    pid, game, since = data.get("pid"), data.get("game"), data.get("since")
    return Holder(pid if type(pid) is int else 0, game if isinstance(game, str) else "",
                  since if isinstance(since, str) else "")
