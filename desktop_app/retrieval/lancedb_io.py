"""How Acervo talks to LanceDB safely when several processes share a data folder.

- `connect()` opens with strong read consistency: every read sees the latest committed
  version, so a window that stays open sees what a terminal `ingest` added (the default
  never re-reads, and a long-lived process kept a stale view forever).
- `write()` runs a write under the store's boundary: a LanceDB "Retryable commit conflict"
  is retried on the latest version, and storage failures (full disk, read-only folder, no
  permission; LanceDB reports them as RuntimeError text) become `StorageError`s.
- `read()` retries a read that raced a compaction: a writer's cleanup deletes the files
  of old versions, and a query that started on one of them fails with "not found".
- `write_json_atomic()` writes small JSON files through a unique temporary name, so two
  processes never rename each other's temporary file and readers never see a partial one.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable
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


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Replace `path` with `data` atomically (unique temp file in the same folder, fsync)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(data, indent=2))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        mapped = storage_error(exc) if isinstance(exc, Exception) else None
        if mapped is not None:
            raise mapped from exc
        raise


def read_json(path: Path) -> dict[str, Any]:
    return dict(json.loads(path.read_text(encoding="utf-8")))
