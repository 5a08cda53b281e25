"""Who is told what while a writer lock is waited for (desktop_app/locking.py): another
process holding the library or the memory is announced once, in the words of the store it
holds; a thread of this same process (the window's erasure while a memory is being saved)
is waited for quietly — it is not "another Acervo process"."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from desktop_app.locking import (
    BUSY_MESSAGE,
    LIBRARY,
    MEMORY,
    MEMORY_BUSY_MESSAGE,
    WriterLock,
    add_wait_notice,
)

HELD_SECONDS = 0.5


@contextmanager
def held_by_a_thread(lock: WriterLock, purpose: str) -> Iterator[list[str]]:
    """`lock` held by another thread for `HELD_SECONDS` from the moment the block starts;
    yields the notices told meanwhile."""
    said: list[str] = []
    remove: Callable[[], None] = add_wait_notice(said.append)
    held = threading.Event()

    def hold() -> None:
        with lock.hold(purpose):
            held.set()
            time.sleep(HELD_SECONDS)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        yield said
    finally:
        holder.join(10)
        remove()


def test_a_thread_of_this_process_is_waited_for_quietly(tmp_path: Path) -> None:
    lock = WriterLock(tmp_path / "locks" / "memory.lock", MEMORY)
    with held_by_a_thread(lock, "erasure") as said:
        started = time.monotonic()
        with lock.hold("saving a memory", timeout=10):
            waited = time.monotonic() - started
        assert waited >= 0.3  # it did wait for the other thread…
        assert said == []  # …without telling the user another process was writing


def test_another_process_is_announced_once_in_the_words_of_its_store(tmp_path: Path) -> None:
    # two lock objects on one file hold separate OS locks: to each other, another process
    for name, message in ((LIBRARY, BUSY_MESSAGE), (MEMORY, MEMORY_BUSY_MESSAGE)):
        path = tmp_path / "locks" / f"{name}.lock"
        other, ours = WriterLock(path, name), WriterLock(path, name)
        with held_by_a_thread(other, "ingest") as said:
            with ours.hold("remember", timeout=10):
                pass
            assert len(said) == 1 and said[0].startswith(message[:-1]), said
            assert "(pid " in said[0] and "ingest" in said[0]
