"""What the pipeline writes down as it works, so that work survives a crash, a kill or a
quit, and so that an unchanged folder is checked in seconds.

The pipeline tells a journal (`IngestJournal`; the library's SQLite store implements
it, `library/state.py`) which roots a run was asked for (`begin`/`end`: an unfinished
run is resumed at the next start), which files it found waiting, and each file's outcome
with the size, modification time and content hash it had. On the next run a file whose
size and modification time (to the nanosecond) match what was recorded for the hash the
index holds is unchanged without being read again (`KnownFile`). The journal is a cache of
the index, never the truth: a file it forgot is hashed and compared as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

WAITING = "waiting"
INDEXED = "indexed"
UNCHANGED = "unchanged"
FAILED = "failed"
SKIPPED = "skipped"  # refused by a limit
STATUSES = (WAITING, INDEXED, UNCHANGED, FAILED, SKIPPED)


@dataclass(frozen=True)
class KnownFile:
    """A file as it was when last recorded."""

    size: int
    mtime_ns: int
    content_hash: str
    status: str


class IngestJournal(Protocol):
    def begin(self, roots: Sequence[str], *, prune: bool) -> int: ...  # a run's id

    def end(self, run: int) -> None: ...  # the run finished (or was given up): not resumed

    def unfinished(self) -> list[tuple[int, list[str], bool]]: ...  # (run, roots, prune)

    def known(self) -> Mapping[str, KnownFile]: ...  # path key → what was recorded

    def waiting(self, keys: Sequence[str]) -> None: ...

    def record(self, key: str, status: str, *, reason: str = "", doc_id: str = "",
               size: int | None = None, mtime_ns: int | None = None,
               content_hash: str = "") -> None: ...

    def forget(self, key: str) -> None: ...  # the file left the library

    def paths(self) -> list[str]: ...  # every path key with a status

    def flush(self) -> None: ...  # what `record` buffered, written now

    def embedded(self, embedder_id: str, passages: int, seconds: float) -> None: ...


class NullJournal:
    """No journal (a team library, a test): every file is hashed, nothing is resumed."""

    def begin(self, roots: Sequence[str], *, prune: bool) -> int:
        return 0

    def end(self, run: int) -> None:
        pass

    def unfinished(self) -> list[tuple[int, list[str], bool]]:
        return []

    def known(self) -> Mapping[str, KnownFile]:
        return {}

    def waiting(self, keys: Sequence[str]) -> None:
        pass

    def record(self, key: str, status: str, *, reason: str = "", doc_id: str = "",
               size: int | None = None, mtime_ns: int | None = None,
               content_hash: str = "") -> None:
        pass

    def forget(self, key: str) -> None:
        pass

    def paths(self) -> list[str]:
        return []

    def flush(self) -> None:
        pass

    def embedded(self, embedder_id: str, passages: int, seconds: float) -> None:
        pass
