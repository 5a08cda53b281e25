"""One writer at a time, many readers, across processes: the data folder's writer locks.

An analyst may have the window open and run `desktop-app ingest` in a terminal, or open
two windows. LanceDB and the derived indexes are not safe with two writers (two ingests
wrote every row twice, a compaction lost a commit race), so every write to a store takes
that store's lock first:

- `library` — the document index (ingest, remove, reindex, index repair);
- `memory` — the memory index and the memory/conversation rows in the state database.

Two locks, not one, so a chat turn that saves a memory never waits behind a long reindex.
When both are needed (removing a document and purging the chats that quote it) they are
taken in that order.

The lock is an OS file lock (`flock` on POSIX, `msvcrt.locking` on Windows) on
`data_dir/locks/<name>.lock`: the OS releases it when the holder dies, so a killed process
never leaves the library locked. Who holds it (pid, what it is doing) is written to a
sidecar `.info` file for the "another Acervo process is updating the library" message.

Within one process the lock is re-entrant per thread and shared by every `App` on the same
folder (an OS lock taken twice by one process through two file descriptors would block
itself), hence the small per-process registry in `writer_lock()`. Readers never lock.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from desktop_app.errors import LibraryBusyError, StorageError, storage_error

LIBRARY = "library"
MEMORY = "memory"
DEFAULT_WAIT_SECONDS = 600.0
POLL_SECONDS = 0.1
BUSY_MESSAGE = "Another Acervo process is updating the library; waiting…"
MEMORY_BUSY_MESSAGE = "Another Acervo process is updating the memory; waiting…"

WaitNotice = Callable[[str], None]
Cancel = Callable[[], bool]

# Where the library's notices go ("waiting for another process…", "damaged files were set
# aside…"): the CLI prints them, the window shows them in its status bar.
_notice_sinks: list[WaitNotice] = []


def add_wait_notice(sink: WaitNotice) -> Callable[[], None]:
    """Register a callback for the library's notices; returns its remover."""
    _notice_sinks.append(sink)
    return lambda: _notice_sinks.remove(sink) if sink in _notice_sinks else None


def notify(text: str) -> None:
    """Tell the person using Acervo one sentence about the library (every sink)."""
    _notify(text)


def _notify(text: str) -> None:
    for sink in list(_notice_sinks):
        with contextlib.suppress(Exception):
            sink(text)


def _try_os_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _os_unlock(fd: int) -> None:
    if sys.platform == "win32":  # pragma: no cover
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


class WriterLock:
    """An inter-process, per-thread re-entrant writer lock on one store of a data folder."""

    def __init__(self, path: Path, name: str) -> None:
        self.path = path
        self.name = name
        self.default_wait = DEFAULT_WAIT_SECONDS
        self._thread_lock = threading.RLock()
        self._depth = 0
        self._fd: int | None = None
        self._purpose = ""

    @property
    def info_path(self) -> Path:
        return self.path.with_name(self.path.name + ".info")

    # ---- state ---------------------------------------------------------------------
    def held(self) -> bool:
        """True when this thread holds the lock."""
        if not self._thread_lock.acquire(blocking=False):
            return False
        try:
            return self._depth > 0
        finally:
            self._thread_lock.release()

    def holder(self) -> str:
        """Who holds the lock, as the sidecar says ("pid 4242, ingest"); '' when unknown."""
        try:
            return self.info_path.read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def busy_message(self) -> str:
        base = MEMORY_BUSY_MESSAGE if self.name == MEMORY else BUSY_MESSAGE
        holder = self.holder()
        return base if not holder else f"{base[:-1]} ({holder})…"

    # ---- acquire / release ---------------------------------------------------------
    def try_acquire(self, purpose: str = "") -> bool:
        """Take the lock if nobody else has it; never waits."""
        return self._attempt(purpose) is None

    def _attempt(self, purpose: str) -> str | None:
        """Take the lock if nobody else has it, never waiting: None when taken, else who
        holds it — "thread" (another thread of this process) or "process" (the OS lock is
        another process's)."""
        if not self._thread_lock.acquire(blocking=False):
            return "thread"
        try:
            if self._depth == 0 and not self._take_os_lock(purpose):
                self._thread_lock.release()
                return "process"
        except BaseException:
            self._thread_lock.release()
            raise
        self._depth += 1
        return None

    def acquire(self, purpose: str = "", *, timeout: float | None = None,
                cancel: Cancel | None = None) -> None:
        """Wait for the lock, up to `timeout` seconds, telling the user once when another
        process holds it. Another thread of this process (the window's own erasure while a
        memory is saved) is waited for quietly: that is this process's own work, not
        "another Acervo process".

        Raises `LibraryBusyError` on timeout and `CancelledError` when `cancel()` turns true.
        """
        holder = self._attempt(purpose)
        if holder is None:
            return
        from desktop_app.errors import CancelledError

        wait = self.default_wait if timeout is None else timeout
        deadline = time.monotonic() + max(0.0, wait)
        told = False
        while True:
            if not told and holder == "process":
                _notify(self.busy_message())
                told = True
            if cancel is not None and cancel():
                raise CancelledError()
            if time.monotonic() >= deadline:
                raise LibraryBusyError(
                    f"Another Acervo process is still updating the {self.name} "
                    f"({self.holder() or 'busy'}) after {wait:.0f} s; nothing was changed. "
                    "Try again when it has finished (or wait longer with --wait SECONDS).")
            time.sleep(POLL_SECONDS)
            holder = self._attempt(purpose)
            if holder is None:
                return

    def release(self) -> None:
        with self._thread_lock:
            if self._depth <= 0:
                raise RuntimeError(f"{self.name} writer lock released more often than taken")
            self._depth -= 1
            if self._depth == 0:
                self._drop_os_lock()
        self._thread_lock.release()  # the hold taken in try_acquire

    @contextlib.contextmanager
    def hold(self, purpose: str = "", *, timeout: float | None = None,
             cancel: Cancel | None = None) -> Iterator[None]:
        self.acquire(purpose, timeout=timeout, cancel=cancel)
        try:
            yield
        finally:
            self.release()

    @contextlib.contextmanager
    def hold_if_free(self, purpose: str = "") -> Iterator[bool]:
        """Hold the lock for the block when it is free right now; yields whether it is held."""
        try:
            taken = self.try_acquire(purpose)
        except StorageError:  # a read-only or full data folder: nobody can write anyway
            taken = False
        try:
            yield taken
        finally:
            if taken:
                self.release()

    def check_writable(self) -> None:
        """Raise `StorageError` now if the data folder cannot be written (read-only media,
        no permission), before a long job does work it could never store."""
        os.close(self._open())

    # ---- the OS part ---------------------------------------------------------------
    def _open(self) -> int:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            mapped = storage_error(exc, str(self.path.parent.parent))
            if mapped is not None:
                raise mapped from exc
            raise

    def _take_os_lock(self, purpose: str) -> bool:
        fd = self._open()
        if not _try_os_lock(fd):
            os.close(fd)
            return False
        self._fd = fd
        self._purpose = purpose
        with contextlib.suppress(OSError):  # the notice is a courtesy; a full disk must not stop us
            self.info_path.write_text(f"pid {os.getpid()}, {purpose or 'writing'}",
                                      encoding="utf-8")
        return True

    def _drop_os_lock(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            self.info_path.unlink()
        try:
            _os_unlock(fd)
        finally:
            os.close(fd)


_registry: dict[tuple[str, str], WriterLock] = {}
_registry_lock = threading.Lock()


def writer_lock(data_dir: Path, name: str) -> WriterLock:
    """The process-wide lock object for `name` in `data_dir` (one per folder and name)."""
    path = (Path(data_dir).expanduser().resolve() / "locks" / f"{name}.lock")
    key = (str(path), name)
    with _registry_lock:
        lock = _registry.get(key)
        if lock is None:
            lock = _registry[key] = WriterLock(path, name)
        return lock
