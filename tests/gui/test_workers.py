"""Quitting: background work is cancelled and given a moment; an erasure is waited for."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from desktop_app.gui.workers import WorkerSet


def test_drain_cancels_ordinary_work_and_waits_for_work_that_must_finish(qtbot) -> None:
    workers = WorkerSet()
    started = threading.Event()
    stopped_at: list[float] = []
    erased: list[str] = []

    def ingest(cancel: Callable[[], bool]) -> Iterator[Any]:
        started.set()
        try:
            while not cancel():
                time.sleep(0.01)
                yield "page"
        finally:
            stopped_at.append(time.monotonic())

    def erase() -> str:
        time.sleep(0.6)  # longer than the grace given to everything else
        erased.append("memory")
        return "receipt"

    workers.start(ingest, name="ingest")
    qtbot.waitUntil(started.is_set, timeout=5_000)
    workers.call(erase, name="memory-delete")
    began = time.monotonic()
    assert workers.drain(grace_s=0.2)
    assert erased == ["memory"]  # the erasure the user asked for completed
    assert stopped_at and stopped_at[0] - began < 0.2  # the ingestion stopped at once
    assert time.monotonic() - began >= 0.5
