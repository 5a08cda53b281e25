"""One generic worker: run any generator on the QThreadPool and re-emit its items as signals.

Services are Qt-free generators of small event dataclasses. `GeneratorWorker` takes a
*factory* (called in the worker thread, so lazy model loading happens off the GUI
thread) that receives a `cancelled()` check and returns an iterator. Each item is
re-emitted as `item(object)` on the GUI thread, in order. Cancel sets a
`threading.Event` that is checked between items; the generator is then closed with
`gen.close()` so its `finally` blocks run in the worker thread.

The signals live on a QObject created in `__init__` (GUI thread), so queued
connections deliver them to the GUI thread. Owners keep a reference to running
workers through `WorkerSet` (a QRunnable with autoDelete frees only the C++ side).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from desktop_app.errors import CancelledError

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]
# Tasks that complete even when the window closes meanwhile (the user asked for them and a
# half-done erasure must not wait for the next start); everything else is cancelled at quit.
FINISH_ON_QUIT_TASKS = frozenset({
    "memory-delete", "memory-forget-all", "memory-consent", "memory-edit", "memory-undo",
    "memory-export", "remove-documents", "conversation-delete", "conversation-rename"})
GeneratorFactory = Callable[[CancelCheck], Iterator[Any]]


class WorkerSignals(QObject):
    """Signals of one worker: items, a failure, and the end (always emitted last)."""

    # object, not a type: one worker runs every service's generator, so an item is any of
    # ChatEvent, IngestEvent, ReindexProgress, ModelLoadState or a call's result
    item = Signal(object)
    failed = Signal(BaseException)  # AppError → its user_message; anything else is a bug
    finished = Signal(bool)  # True when the run was cancelled


class GeneratorWorker(QRunnable):
    """Runs `factory(cancelled)` in a pool thread and re-emits every item it yields."""

    def __init__(self, factory: GeneratorFactory, *, name: str = "worker",
                 finish_on_quit: bool = False) -> None:
        super().__init__()
        self.factory = factory
        self.name = name
        # an erasure, an edit or a removal the user asked for completes even when the
        # window closes meanwhile; everything else is cancelled at quit
        self.finish_on_quit = finish_on_quit
        self.signals = WorkerSignals()
        self._cancel = threading.Event()
        self.done = threading.Event()  # set when run() has returned (any thread may wait)
        self.setAutoDelete(True)

    # -- GUI thread ---------------------------------------------------------------
    def cancel(self) -> None:
        self._cancel.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def start(self, pool: QThreadPool | None = None) -> GeneratorWorker:
        (pool or QThreadPool.globalInstance()).start(self)
        return self

    # -- worker thread ------------------------------------------------------------
    def run(self) -> None:
        cancelled = False
        gen: Iterator[Any] | None = None
        try:
            if self._cancel.is_set():
                cancelled = True
                return
            gen = self.factory(self._cancel.is_set)
            for item in gen:
                self.signals.item.emit(item)
                if self._cancel.is_set():
                    cancelled = True
                    break
        except CancelledError:
            cancelled = True
        except Exception as exc:  # everything is reported to the GUI
            log.exception("background task %s failed", self.name)
            self.signals.failed.emit(exc)
        finally:
            if gen is not None and hasattr(gen, "close"):
                try:
                    gen.close()
                except Exception:  # a finally block inside the generator failed
                    log.exception("closing background task %s failed", self.name)
            self.signals.finished.emit(cancelled or self._cancel.is_set())
            self.done.set()


class WorkerSet(QObject):
    """Keeps running workers alive and starts them with signal connections in one call."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._running: set[GeneratorWorker] = set()

    def start(self, factory: GeneratorFactory, *, name: str,
              on_item: Callable[[Any], None] | None = None,
              on_failed: Callable[[BaseException], None] | None = None,
              on_finished: Callable[[bool], None] | None = None,
              finish_on_quit: bool | None = None) -> GeneratorWorker:
        if finish_on_quit is None:
            finish_on_quit = name in FINISH_ON_QUIT_TASKS
        worker = GeneratorWorker(factory, name=name, finish_on_quit=finish_on_quit)
        if on_item is not None:
            worker.signals.item.connect(on_item)
        if on_failed is not None:
            worker.signals.failed.connect(on_failed)
        if on_finished is not None:
            worker.signals.finished.connect(on_finished)
        worker.signals.finished.connect(lambda _c, w=worker: self._running.discard(w))
        self._running.add(worker)
        return worker.start()

    def call(self, fn: Callable[[], Any], *, name: str,
             on_result: Callable[[Any], None] | None = None,
             on_failed: Callable[[BaseException], None] | None = None,
             finish_on_quit: bool | None = None) -> GeneratorWorker:
        """Run one blocking call in the pool; its return value arrives as `on_result`."""

        def one_shot(_cancelled: CancelCheck) -> Iterator[Any]:
            yield fn()

        return self.start(one_shot, name=name, on_item=on_result, on_failed=on_failed,
                          finish_on_quit=finish_on_quit)

    def cancel_all(self) -> None:
        for worker in list(self._running):
            if not worker.finish_on_quit:
                worker.cancel()

    def drain(self, grace_s: float, must_finish_s: float = 60.0) -> bool:
        """At quit: cancel what can be cancelled and give it `grace_s` to stop; wait up to
        `must_finish_s` for the work marked `finish_on_quit`. True when nothing still runs.
        Waits on thread events, not the Qt event loop (which has ended by then)."""
        self.cancel_all()
        workers = list(self._running)
        deadline = time.monotonic() + grace_s
        for worker in sorted(workers, key=lambda w: w.finish_on_quit):
            limit = deadline + (must_finish_s if worker.finish_on_quit else 0.0)
            worker.done.wait(max(0.0, limit - time.monotonic()))
        return all(worker.done.is_set() for worker in workers)

    @property
    def running(self) -> int:
        return len(self._running)
