"""How Acervo talks to LanceDB safely when several processes share a data folder.

- `connect()` opens with strong read consistency: every read sees the latest committed
  version, so a window that stays open sees what a terminal `ingest` added (the default
  never re-reads, and a long-lived process kept a stale view forever).
- `write()` runs a write under the store's boundary: a LanceDB "Retryable commit conflict"
  is retried on the latest version, and storage failures (full disk, read-only folder, no
  permission; LanceDB reports them as RuntimeError text) become `StorageError`s.
- `read()` retries a read that raced a compaction: a writer's cleanup deletes the files
  of old versions, and a query that started on one of them fails with "not found".
(Small JSON files — the generation pointer, index metadata — are written with
`desktop_app.config.files.write_json_atomic`.)
"""

from __future__ import annotations

import contextlib
import logging
import time
import warnings
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

from desktop_app.errors import storage_error

log = logging.getLogger(__name__)

T = TypeVar("T")
WRITE_ATTEMPTS = 6
READ_ATTEMPTS = 4
_CONFLICT_MARKERS = ("retryable commit conflict", "commit conflict", "please retry")
_VANISHED_MARKERS = ("not found", "no such file", "does not exist", "object at location")


def connect(directory: Path) -> Any:
    import lancedb

    return lancedb.connect(str(directory), read_consistency_interval=timedelta(0))


def is_commit_conflict(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        m in text for m in _CONFLICT_MARKERS)


def _vanished(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        m in text for m in _VANISHED_MARKERS)


def write(action: Callable[[], T], *, where: str = "", refresh: Callable[[], None] | None = None
          ) -> T:
    """Run one LanceDB write: commit conflicts retried, storage errors mapped."""
    for attempt in range(WRITE_ATTEMPTS):
        try:
            return action()
        except Exception as exc:
            mapped = storage_error(exc, where)
            if mapped is not None:
                raise mapped from exc
            if not is_commit_conflict(exc) or attempt == WRITE_ATTEMPTS - 1:
                raise
            log.info("LanceDB commit conflict (attempt %d); retrying on the latest version",
                     attempt + 1)
            if refresh is not None:
                with contextlib.suppress(Exception):
                    refresh()
            time.sleep(0.05 * 2 ** attempt)
    raise AssertionError("unreachable")


def read(action: Callable[[], T], *, refresh: Callable[[], None] | None = None) -> T:
    """Run one LanceDB read, again on the latest version if a compaction removed its files."""
    for attempt in range(READ_ATTEMPTS):
        try:
            return action()
        except Exception as exc:
            if not (_vanished(exc) or is_commit_conflict(exc)) or attempt == READ_ATTEMPTS - 1:
                raise
            if refresh is not None:
                with contextlib.suppress(Exception):
                    refresh()
            time.sleep(0.05 * 2 ** attempt)
    raise AssertionError("unreachable")


# ---- helpers every LanceDB store shares (documents, memories, conversation recall) ----------
def sql_str(value: str) -> str:
    """A string literal for LanceDB's SQL filters."""
    return "'" + value.replace("'", "''") + "'"


def sql_in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN (" + ", ".join(sql_str(v) for v in values) + ")"


def create_fts(table: Any, column: str = "search_text", *, replace: bool = True) -> None:
    """The keyword index over an analysed column (`text.analyze.analyze` already folded and
    stemmed it, so LanceDB only splits on whitespace and lowercases)."""
    from lancedb.index import FTS

    table.create_index(column, replace=replace, config=FTS(
        base_tokenizer="simple", lower_case=True, stem=False, remove_stop_words=False,
        ascii_folding=True, with_position=False))


def has_fts(table: Any) -> bool:
    return any(i.index_type == "FTS" for i in table.list_indices())


def compact(table: Any) -> None:
    """Fold new rows into the indexes and physically drop every older version (deleted text
    must not survive in old versions: LGPD erasure). LanceDB warns that readers of older
    versions fail: our readers retry on the latest version (`read`)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
