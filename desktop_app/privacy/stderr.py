"""A `sys.stderr` stand-in that turns stray writes into log records (sanitized downstream).

Libraries and `print(..., file=sys.stderr)` write here; complete lines become
one WARNING record each batch on the `stderr` logger, a partial line waits
for its newline or `flush()`. Writes made while logging itself is writing
(re-entrancy) or from the log listener thread are dropped, never echoed raw,
so a failing handler cannot loop.

`tell_user()` is the other channel: text for the person at the terminal that must not be
logged (it may quote a memory or a document).
"""

from __future__ import annotations

import io
import logging
import sys
import threading
from typing import TextIO


class StderrToLog(io.TextIOBase):
    def __init__(self, logger: logging.Logger, original: TextIO | None) -> None:
        super().__init__()
        self._logger = logger
        self._original = original
        self._buffer = ""
        self._lock = threading.RLock()
        self._local = threading.local()
        self._ignored_threads: set[int] = set()
        self.dropped_writes = 0

    @property
    def original(self) -> TextIO | None:
        """The stream this one replaced (the real stderr)."""
        return self._original

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def ignore_thread(self, thread: threading.Thread | None) -> None:
        if thread is not None and thread.ident is not None:
            self._ignored_threads.add(thread.ident)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        # Kept for libraries that need a descriptor (faulthandler): fd-level writes bypass us.
        if self._original is None:
            raise io.UnsupportedOperation("fileno")
        return self._original.fileno()

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            text = str(text)
        if getattr(self._local, "busy", False) or threading.get_ident() in self._ignored_threads:
            self.dropped_writes += 1
            return len(text)
        with self._lock:
            self._buffer += text
            if "\n" not in self._buffer:
                return len(text)
            complete, self._buffer = self._buffer.rsplit("\n", 1)
        self._emit(complete)
        return len(text)

    def flush(self) -> None:
        with self._lock:
            pending, self._buffer = self._buffer, ""
        if pending:
            self._emit(pending)

    def _emit(self, text: str) -> None:
        if not text.strip():
            return
        self._local.busy = True
        try:
            self._logger.warning(text)
        finally:
            self._local.busy = False


def user_stream() -> TextIO | None:
    """The terminal's stderr, bypassing the log capture (`StderrToLog`).

    For lines meant for the person at the terminal only — "(using what you told me: …)",
    "waiting for another Acervo process", `error: …` — which may quote memories or
    documents and so must never reach a log file (logs carry ids, never content).
    """
    stream = sys.stderr
    while isinstance(stream, StderrToLog):
        stream = stream.original
    return stream if stream is not None else sys.__stderr__


def tell_user(text: str) -> None:
    """Print one line for the user on the terminal (never logged); a closed pipe is ignored."""
    stream = user_stream()
    if stream is None:
        return
    try:
        stream.write(text + "\n")
        stream.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass


YES = ("y", "yes", "s", "sim")


def confirm(question: str, *, otherwise: str, stdin: TextIO | None = None) -> bool:
    """Ask the person at the terminal a yes/no question on stderr (no unless they answer
    y/yes/s/sim). Without a terminal nothing is asked: `otherwise` says how to do it
    instead, and the answer is no."""
    stdin = stdin or sys.stdin
    if not stdin.isatty():
        print(otherwise, file=sys.stderr)
        return False
    print(f"{question} [y/N] ", end="", file=sys.stderr, flush=True)
    return stdin.readline().strip().lower() in YES
