"""Watched folders in the window: after the models load, the work a crash or a quit left
unfinished is finished and every watched folder is brought up to date; then the folders'
changes arrive as debounced batches (`library.watch.FolderWatcher`, on a worker thread)
and each runs through the Library panel's progress box like any ingestion, by the
incremental path (unchanged files skipped, a rename reuses its vectors, a deleted file
leaves). The status bar says what changed. A document an older version of Acervo read is
read again by that catch-up when it lies in a watched folder; the others are counted once
the catch-up is done, and the status bar points to Tools ▸ Library status ▸ Read again.

A batch that arrives while the panel is busy (the user is adding files, a reindex) waits,
merged with the next ones, until the panel is free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from desktop_app.library.sync import SummaryCollector, SyncSummary
from desktop_app.library.watch import ChangeBatch

if TYPE_CHECKING:
    from desktop_app.gui.library import LibraryPanel
    from desktop_app.gui.services import LibraryServices
    from desktop_app.gui.workers import GeneratorWorker, WorkerSet
    from desktop_app.ingest.events import IngestEvent
    from desktop_app.library.watch import FolderWatcher


class LibraryKeeper(QObject):
    """Keeps the watched folders in sync while the window is open."""

    statusMessage = Signal(object)  # what changed: a `Text` (gui/panel.py), re-worded live
    synced = Signal(object)  # SyncSummary of each catch-up or batch (tests, the status bar)
    olderCounted = Signal(int)  # files an older version read, outside the watched folders

    def __init__(self, services: LibraryServices, library: LibraryPanel, workers: WorkerSet,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.services = services
        self.library = library
        self.workers = workers
        self._watcher: FolderWatcher | None = None
        self._listening: GeneratorWorker | None = None
        self._waiting = ChangeBatch()
        self._started = False
        self.synced.connect(self._say)
        self.olderCounted.connect(self._say_older)
        library.runningChanged.connect(lambda running: None if running else self._drain())

    # ---- life ----------------------------------------------------------------------------
    def start(self) -> None:
        """Catch up (finish interrupted work, what changed while closed), then watch."""
        if self._started:
            return
        self._started = True
        if self.services.catch_up_needed():
            self._run(lambda cancel: self._then_count(
                self._collected(self.services.catch_up(cancel))), [])
        else:  # counting opens the index: off the GUI thread
            self.workers.call(lambda: len(self.services.read_before()), name="read-before",
                              on_result=self._say_older, on_failed=lambda _e: None)
        self._restart_watcher()

    def _then_count(self, events: Iterator[IngestEvent]) -> Iterator[IngestEvent]:
        """The catch-up's events, then (from the worker) the count of the files an older
        version read that it did not read again: they lie outside the watched folders."""
        yield from events
        self.olderCounted.emit(len(self.services.read_before()))

    def _say_older(self, count: int) -> None:
        if count:
            self.statusMessage.emit(lambda: self.tr(  # (short: the status bar is narrow)
                "%n file(s) to read again: Tools ▸ Library status", "", count))

    def stop(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            self._listening = None
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    def watch(self, folder: Path) -> None:
        """A folder added in the window: watched from now on (the panel indexes it)."""
        self.services.watch_folder(folder)
        if self._started:
            self._restart_watcher()

    def _restart_watcher(self) -> None:
        self.stop()
        if not self.services.watched_folders():
            return
        watcher = self._watcher = self.services.folder_watcher()

        def listen(cancel: Callable[[], bool]) -> Iterator[ChangeBatch]:
            watcher.start()  # scheduling a large tree takes a moment: off the GUI thread
            try:
                while not cancel():
                    batch = watcher.next_batch(timeout=0.5, stop=cancel)
                    if batch:
                        yield batch
            finally:
                watcher.stop()

        self._listening = self.workers.start(listen, name="watch", on_item=self._arrived)

    # ---- batches -----------------------------------------------------------------------------
    def _arrived(self, batch: ChangeBatch) -> None:
        waiting = self._waiting
        waiting.created |= batch.created
        waiting.modified |= batch.modified
        waiting.rescan |= batch.rescan
        waiting.removed = (waiting.removed | batch.removed) - {str(p) for p in batch.files}
        self._drain()

    def _drain(self) -> None:
        if not self._waiting or self.library.is_running():
            return  # after the running job (runningChanged)
        batch, self._waiting = self._waiting, ChangeBatch()
        self._run(lambda cancel: self._collected(self.services.apply_changes(batch, cancel)),
                  batch.files)

    def _run(self, factory: Callable[[Callable[[], bool]], Iterator[IngestEvent]],
             paths: list[Path]) -> None:
        # the panel is free (checked by the caller, or at start): the job shows in its
        # progress box and the list is refreshed at the end
        self.library.run_job(factory, paths)

    def _collected(self, events: Iterator[IngestEvent]) -> Iterator[IngestEvent]:
        """The run's events, passed on; its summary emitted at the end (from the worker)."""
        collector = SummaryCollector(self.services.indexed_paths())
        for event in events:
            collector.add(event)
            yield event
        self.synced.emit(collector.summary)

    def _say(self, summary: SyncSummary) -> None:
        if not summary:
            return

        def text() -> str:
            parts = []
            for names, said in (
                    (summary.added, self.tr("%n added", "", len(summary.added))),
                    (summary.changed, self.tr("%n changed", "", len(summary.changed))),
                    (summary.removed, self.tr("%n removed", "", len(summary.removed))),
                    (summary.failed, self.tr("%n failed", "", len(summary.failed)))):
                if names:
                    shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
                    parts.append(f"{said} ({shown})")
            return self.tr("Watched folders: %1").replace("%1", "; ".join(parts))

        self.statusMessage.emit(text)
