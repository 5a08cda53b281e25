"""The e5 tokenizer read and run in a helper process, for the window.

Reading `tokenizer.json` (`tokenizers.Tokenizer.from_file`: 250k word pieces built into a
trie) holds Python's interpreter lock for 0.5–1 s in one native call. In the window every key
press needs that lock, so a user typing while the search model loads waited up to a second per
key (bench/startup.py). A separate process has its own lock: the window's process sends texts
over a pipe and gets the token ids back (well under a millisecond for a question; the pipe
wait releases the lock), and never reads the tokenizer itself.

Same ids as in-process (the same library and file; tests/retrieval/test_tokenizer_process.py
compares them). If the helper cannot start or dies, the caller falls back to reading the
tokenizer in its own process — slower to start, never wrong. The helper ends when the window's
process does: its pipe closes and `recv` raises EOFError. The CLI and ingestion from the CLI
keep the in-process tokenizer (no keystrokes to protect).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

START_TIMEOUT_S = 120.0  # reading the file on a busy laptop takes seconds, not minutes


class Encoded:
    """What callers read of a `tokenizers.Encoding`: its ids."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[int]) -> None:
        self.ids = ids


class TokenizerProcess:
    """`encode` / `encode_batch` like a `tokenizers.Tokenizer`, answered by a helper process.

    Thread-safe (one request on the pipe at a time). `fallback` builds the in-process
    tokenizer, used from the first failure on."""

    def __init__(self, path: Path, fallback: Callable[[], Any]) -> None:
        self.path = Path(path)
        self._fallback_factory = fallback
        self._fallback: Any = None
        self._lock = threading.Lock()
        self._ready = False
        context = multiprocessing.get_context("spawn")  # no fork of a process running Qt
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(str(self.path), child),
                                        name="acervo-tokenizer", daemon=True)
        try:
            self._process.start()
        except (OSError, RuntimeError, ValueError) as exc:  # no fork/exec, a frozen quirk
            log.warning("tokenizer helper process did not start (%s): tokenizing in-process",
                        type(exc).__name__)
            self._fallback = self._fallback_factory()
        finally:
            child.close()

    @property
    def in_helper(self) -> bool:
        """True while the helper process answers (False after a fallback)."""
        return self._fallback is None

    def encode(self, text: str) -> Encoded:
        return self.encode_batch([text])[0]

    def encode_batch(self, texts: Sequence[str]) -> list[Encoded]:
        items = list(texts)
        with self._lock:
            if self._fallback is None:
                try:
                    return [Encoded(ids) for ids in self._ask(items)]
                except (EOFError, OSError, RuntimeError) as exc:
                    log.warning("tokenizer helper process failed (%s): tokenizing in-process",
                                type(exc).__name__)
                    self._stop()
                    self._fallback = self._fallback_factory()
            fallback = self._fallback
        return [Encoded(list(e.ids)) for e in fallback.encode_batch(items)]

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _ask(self, texts: list[str]) -> list[list[int]]:
        if not self._ready:
            if not self._conn.poll(START_TIMEOUT_S):
                raise RuntimeError("the tokenizer helper did not start in time")
            status, detail = self._conn.recv()
            if status != "ready":
                raise RuntimeError(f"the tokenizer helper could not read the file: {detail}")
            self._ready = True
        self._conn.send(texts)
        answer: list[list[int]] = self._conn.recv()
        return answer

    def _stop(self) -> None:
        self._conn.close()
        if self._process.is_alive():
            self._process.terminate()


def _serve(path: str, conn: Any) -> None:
    """The helper process: read the tokenizer, then answer batches until the pipe closes."""
    try:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(path)
    except Exception as exc:  # reported to the caller, which falls back
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            texts = conn.recv()
        except (EOFError, OSError):
            return  # the window's process has ended
        conn.send([encoding.ids for encoding in tokenizer.encode_batch(texts)])
