"""Watched folders: file events (watchdog) turned into debounced batches of work.

watchdog reports what the operating system says (inotify, FSEvents,
ReadDirectoryChangesW); a folder on a network share, or one the OS refuses to watch (the
inotify watch limit), is polled instead (`PollingObserver`, every `POLL_SECONDS`). Events
for one file come in bursts while it is saved or copied: a path is handed on only once it
has been quiet for `DEBOUNCE_SECONDS` (and its size and modification time have not
moved since), and the batch waits for the whole folder to be quiet so that the two halves
of a move are handed out together. Files of unsupported types, hidden files and folders, and office lock
files ("~$Relatório.docx") are ignored.

A batch says which files appeared or changed (to ingest: unchanged ones are found so by
their hash), which disappeared (to remove) and which folders must be read again (a
folder deleted, moved or moved in: its files are compared with the index). A rename is
both: the new name is ingested first and reuses the old one's vectors. Qt-free: the CLI's
`watch` command and the window both drive a `FolderWatcher`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_app.ingest.pathnames import path_key
from desktop_app.library.folders import WatchedFolder

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.5
POLL_SECONDS = 5.0
MAX_WAIT_DEBOUNCES = 20


@dataclass
class ChangeBatch:
    """What changed in the watched folders since the last batch."""

    created: set[Path] = field(default_factory=set)
    modified: set[Path] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)  # path keys
    rescan: set[Path] = field(default_factory=set)  # folders to read again

    def __bool__(self) -> bool:
        return bool(self.created or self.modified or self.removed or self.rescan)

    @property
    def files(self) -> list[Path]:
        return sorted(p for p in self.created | self.modified if p.exists())


class _Pending:
    """Paths seen in events, each with the time of its last event and its last stat."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.changed: dict[Path, tuple[float, str, tuple[int, int] | None]] = {}
        self.removed: dict[str, float] = {}
        self.rescan: dict[Path, float] = {}
        self.wake = threading.Event()


def _stat(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


class FolderWatcher:
    """Watches folders until `stop()`; `next_batch()` hands out debounced changes."""

    def __init__(self, folders: Sequence[WatchedFolder], supported: frozenset[str], *,
                 debounce: float = DEBOUNCE_SECONDS, poll_seconds: float = POLL_SECONDS
                 ) -> None:
        self.folders = [f for f in folders if f.watch]
        self.supported = supported
        self.debounce = debounce
        self.poll_seconds = poll_seconds
        self.polled: list[str] = []  # folders watched by polling (network, or refused)
        self._pending = _Pending()
        self._observers: list[Any] = []

    # ---- life ----------------------------------------------------------------------------
    def start(self) -> None:
        from watchdog.observers import Observer
        from watchdog.observers.polling import PollingObserver

        handler: Any = _Handler(self)  # watchdog only calls its dispatch()
        native = Observer()
        polling = PollingObserver(timeout=self.poll_seconds)
        for folder in self.folders:
            root = folder.folder
            if not root.is_dir():
                log.info("a watched folder is missing; it is watched again when it returns")
                continue
            if folder.polling:
                polling.schedule(handler, str(root), recursive=True)
                self.polled.append(folder.path)
                continue
            try:
                native.schedule(handler, str(root), recursive=True)
            except OSError as exc:  # e.g. inotify's watch limit
                log.warning("file events unavailable for a folder (%s); polling it",
                            type(exc).__name__)
                polling.schedule(handler, str(root), recursive=True)
                self.polled.append(folder.path)
        for observer in (native, polling):
            if observer.emitters:
                observer.daemon = True
                try:
                    observer.start()
                except OSError as exc:  # the OS refused every watch: poll them all
                    log.warning("file events unavailable (%s); polling", type(exc).__name__)
                    if observer is native:
                        for folder in self.folders:
                            if folder.path not in self.polled and folder.folder.is_dir():
                                polling.schedule(handler, str(folder.folder), recursive=True)
                                self.polled.append(folder.path)
                        if not polling.is_alive() and polling.emitters:
                            polling.daemon = True
                            polling.start()
                            self._observers.append(polling)
                    continue
                self._observers.append(observer)

    def stop(self) -> None:
        for observer in self._observers:
            observer.stop()
        for observer in self._observers:
            observer.join(timeout=5)
        self._observers.clear()
        self._pending.wake.set()

    # ---- events ----------------------------------------------------------------------------
    def wanted(self, path: Path) -> bool:
        """A file the library reads: a supported type, not hidden, not an office lock file."""
        name = path.name
        if name.startswith((".", "~$", "~lock")) or path.suffix.lower() not in self.supported:
            return False
        return not any(part.startswith(".") for part in self._relative_parts(path))

    def _relative_parts(self, path: Path) -> tuple[str, ...]:
        for folder in self.folders:
            try:
                return path.relative_to(folder.folder).parts[:-1]
            except ValueError:
                continue
        return ()

    def _root_of(self, path: Path) -> Path | None:
        for folder in self.folders:
            if path == folder.folder or folder.folder in path.parents:
                return folder.folder
        return None

    def file_changed(self, path: Path, kind: str) -> None:
        if not self.wanted(path):
            return
        with self._pending.lock:
            self._pending.removed.pop(path_key(path), None)
            earlier = self._pending.changed.get(path)
            if earlier is not None and earlier[1] == "created":
                kind = "created"  # saving a new file: created, then modified, then closed
            self._pending.changed[path] = (time.monotonic(), kind, _stat(path))
        self._pending.wake.set()

    def file_removed(self, path: Path) -> None:
        if not self.wanted(path):
            return
        with self._pending.lock:
            self._pending.changed.pop(path, None)
            self._pending.removed[path_key(path)] = time.monotonic()
        self._pending.wake.set()

    def folder_changed(self, path: Path) -> None:
        """A folder deleted, moved or moved in: read it (or its watched root) again."""
        target = path if path.is_dir() else self._root_of(path)
        if target is None or any(part.startswith(".") for part in self._relative_parts(
                target / "x")):
            return
        with self._pending.lock:
            self._pending.rescan[target] = time.monotonic()
        self._pending.wake.set()

    # ---- batches -----------------------------------------------------------------------------
    def take_ready(self, now: float | None = None) -> ChangeBatch:
        """The changes that have been quiet for `debounce` seconds (maybe none)."""
        now = time.monotonic() if now is None else now
        batch = ChangeBatch()
        pending = self._pending
        with pending.lock:
            times = [w for w, _, _ in pending.changed.values()]
            times += [*pending.removed.values(), *pending.rescan.values()]
            if not times:
                pending.wake.clear()
                return batch
            # the whole folder quiet, so that a rename's two halves come in one batch; but
            # never wait more than MAX_WAIT_DEBOUNCES for a folder that never stops changing
            if now - max(times) < self.debounce and \
                    now - min(times) < self.debounce * MAX_WAIT_DEBOUNCES:
                return batch
            for path, (when, kind, seen) in list(pending.changed.items()):
                if now - when < self.debounce:
                    continue
                current = _stat(path)
                if current != seen:  # still being written: wait for another quiet period
                    pending.changed[path] = (now, kind, current)
                    continue
                del pending.changed[path]
                (batch.created if kind == "created" else batch.modified).add(path)
            for key, when in list(pending.removed.items()):
                if now - when >= self.debounce:
                    del pending.removed[key]
                    batch.removed.add(key)
            for folder, when in list(pending.rescan.items()):
                if now - when >= self.debounce:
                    del pending.rescan[folder]
                    batch.rescan.add(folder)
            if not (pending.changed or pending.removed or pending.rescan):
                pending.wake.clear()
        return batch

    def next_batch(self, timeout: float | None = None,
                   stop: Callable[[], bool] | None = None) -> ChangeBatch:
        """Wait for changes (up to `timeout` seconds) and return them once they settle."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            batch = self.take_ready()
            if batch or (stop is not None and stop()):
                return batch
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return batch
            step = self.debounce / 4 if self._busy() else 0.5
            self._pending.wake.wait(step if left is None else min(step, left))

    def _busy(self) -> bool:
        pending = self._pending
        return bool(pending.changed or pending.removed or pending.rescan)

    def batches(self, stop: Callable[[], bool]) -> Iterator[ChangeBatch]:
        """Batches until `stop()` is true (the CLI's `watch`)."""
        while not stop():
            batch = self.next_batch(timeout=1.0, stop=stop)
            if batch:
                yield batch


class _Handler:
    """watchdog's callbacks (on its observer thread) → the watcher's pending changes."""

    def __init__(self, watcher: FolderWatcher) -> None:
        self.watcher = watcher

    def dispatch(self, event: Any) -> None:
        try:
            self._dispatch(event)
        except Exception:  # an event must never kill the observer thread
            log.exception("a file event could not be handled")

    def _dispatch(self, event: Any) -> None:
        kind = event.event_type
        source = Path(_text(event.src_path))
        if event.is_directory:
            if kind in ("deleted", "moved"):
                self.watcher.folder_changed(source.parent if kind == "deleted" else source)
                if kind == "moved":
                    self.watcher.folder_changed(Path(_text(event.dest_path)))
            elif kind == "created":
                self.watcher.folder_changed(source)
            return
        if kind in ("created", "modified", "closed"):
            self.watcher.file_changed(source, "created" if kind == "created" else "modified")
        elif kind == "deleted":
            self.watcher.file_removed(source)
        elif kind == "moved":
            self.watcher.file_removed(source)
            self.watcher.file_changed(Path(_text(event.dest_path)), "created")


def _text(value: str | bytes) -> str:
    import os

    return os.fsdecode(value)
