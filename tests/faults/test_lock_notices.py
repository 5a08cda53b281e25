"""Who is told what while a writer lock is waited for (desktop_app/locking.py): another
process holding the library or the memory is announced once, in the words of the store it
holds; a thread of this same process (the window's erasure while a memory is being saved)
is waited for quietly — it is not "another Acervo process"."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from desktop_app.locking import (
    BUSY_MESSAGE,
    LIBRARY,
    MEMORY,
    MEMORY_BUSY_MESSAGE,
    WriterLock,
    add_wait_notice,
)


def _notices() -> tuple[list[str], object]:
    said: list[str] = []
    return said, add_wait_notice(said.append)


def test_a_thread_of_this_process_is_waited_for_quietly(tmp_path: Path) -> None:
    lock = WriterLock(tmp_path / "locks" / "memory.lock", MEMORY)
    said, remove = _notices()
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock.hold("erasure"):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        threading.Timer(0.5, release.set).start()
        started = time.monotonic()
        with lock.hold("saving a memory", timeout=10):
            waited = time.monotonic() - started
        assert waited >= 0.3  # it did wait for the other thread…
        assert said == []  # …without telling the user another process was writing
    finally:
        release.set()
        holder.join(10)
        remove()  # type: ignore[operator]


def test_another_process_is_announced_once_in_the_words_of_its_store(tmp_path: Path) -> None:
    # two lock objects on one file hold separate OS locks: to each other, another process
    for name, message in ((LIBRARY, BUSY_MESSAGE), (MEMORY, MEMORY_BUSY_MESSAGE)):
        path = tmp_path / "locks" / f"{name}.lock"
        other, ours = WriterLock(path, name), WriterLock(path, name)
        said, remove = _notices()
        held = threading.Event()

        def hold(lock: WriterLock = other, held: threading.Event = held) -> None:
            with lock.hold("ingest"):
                held.set()
                time.sleep(0.5)

        holder = threading.Thread(target=hold)
        holder.start()
        try:
            assert held.wait(10)
            with ours.hold("remember", timeout=10):
                pass
            assert len(said) == 1 and said[0].startswith(message[:-1]), said
            assert "(pid " in said[0] and "ingest" in said[0]
        finally:
            holder.join(10)
            remove()  # type: ignore[operator]
