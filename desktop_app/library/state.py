"""The library's own small database, `library.sqlite3` in the data folder.

What it keeps: the runs of the ingestion pipeline that have not finished (their roots, so
the next start resumes them), every file's status (waiting, indexed, unchanged, failed
with its reason, skipped by a limit) with the size, modification time and hash it had,
the measured embedding rate per embedder (for the estimate before a reindex), the
folders added to the library (watched or not) and the collections.

SQLite in WAL mode, one connection per process shared by its threads behind a lock: the
window's watcher thread and its workers write here while a terminal may too (a busy
database is waited for). A file's status is a cache of the index, never the truth: the
index's own rows decide what is indexed (`ingest/journal.py`). Outcomes of unchanged files
are buffered and written in batches, so checking 10,000 files does not mean 10,000
commits; an indexed file is written at once.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from desktop_app.errors import AppError, storage_error
from desktop_app.ingest.journal import INDEXED, STATUSES, WAITING, KnownFile

SCHEMA_VERSION = 1
OPEN_WAIT = 30.0  # seconds a new library's first open retries another process's lock
FILE_NAME = "library.sqlite3"
_FLUSH_EVERY = 500

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    library TEXT NOT NULL,
    roots TEXT NOT NULL,            -- JSON list of path keys
    prune INTEGER NOT NULL,
    started_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    library TEXT NOT NULL,
    path TEXT NOT NULL,             -- path key (ingest/pathnames.py)
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    doc_id TEXT NOT NULL DEFAULT '',
    size INTEGER,
    mtime_ns INTEGER,
    content_hash TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (library, path)
);
CREATE INDEX IF NOT EXISTS files_by_status ON files(library, status);
CREATE TABLE IF NOT EXISTS rates (
    embedder_id TEXT PRIMARY KEY,
    passages INTEGER NOT NULL,
    seconds REAL NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS folders (
    path TEXT PRIMARY KEY,          -- folder key, as documents store it
    watch INTEGER NOT NULL,
    polling INTEGER NOT NULL DEFAULT 0,
    added_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS collections (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS collection_members (
    collection TEXT NOT NULL REFERENCES collections(name) ON DELETE CASCADE ON UPDATE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 'document')),
    value TEXT NOT NULL,            -- a folder key, or a document's source path
    PRIMARY KEY (collection, kind, value)
);
"""


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class FileStatus:
    """One file as the library saw it last."""

    path: str
    status: str
    reason: str
    doc_id: str
    updated_at: str
    library: str = "local"


class LibraryState:
    """The store; `journal(library)` is what the ingestion pipeline writes to."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.RLock()
        deadline = time.monotonic() + OPEN_WAIT
        while True:
            try:
                found = self._open(path)
                break
            except sqlite3.OperationalError as exc:
                # two processes opening a new library at once: switching it to WAL and
                # creating its tables can meet the other's lock, which SQLite reports at
                # once (its wait would deadlock) instead of waiting out `timeout`
                if "locked" not in str(exc) and "busy" not in str(exc) \
                        or time.monotonic() > deadline:
                    raise _mapped(exc, path) from exc
                with contextlib.suppress(sqlite3.Error, AttributeError):
                    self._db.close()
                time.sleep(0.2)
            except sqlite3.Error as exc:
                raise _mapped(exc, path) from exc
        if found is None:
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                             (str(SCHEMA_VERSION),))
        elif int(found[0]) > SCHEMA_VERSION:
            raise AppError("The library's state file was written by a newer version of Acervo; "
                           "update the app to open it.")
        self._pending: dict[tuple[str, str], tuple[object, ...]] = {}

    def _open(self, path: Path) -> tuple[str] | None:
        """Connect, set the journal up and create the tables; the stored schema version."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), timeout=30.0, check_same_thread=False,
                                   isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a crash loses nothing committed
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        found: tuple[str] | None = self._db.execute(
            "SELECT value FROM meta WHERE key='schema'").fetchone()
        return found

    def close(self) -> None:
        with self._lock:
            self.flush()
            self._db.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise _mapped(exc, self.path) from exc

    def query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return list(self._db.execute(sql, params).fetchall())
            except sqlite3.Error as exc:
                raise _mapped(exc, self.path) from exc

    # ---- runs ----------------------------------------------------------------------------
    def begin_run(self, library: str, roots: Sequence[str], prune: bool) -> int:
        with self.transaction() as db:
            cursor = db.execute("INSERT INTO runs (library, roots, prune, started_at) "
                                "VALUES (?, ?, ?, ?)",
                                (library, json.dumps(list(roots)), int(prune), now_iso()))
            return int(cursor.lastrowid or 0)

    def end_run(self, run: int) -> None:
        with self.transaction() as db:
            started = db.execute("SELECT library, started_at FROM runs WHERE id = ?",
                                 (run,)).fetchone()
            db.execute("DELETE FROM runs WHERE id = ?", (run,))
            if started and not db.execute("SELECT 1 FROM runs WHERE library = ?",
                                          (started[0],)).fetchone():
                # no run left to finish them: what still says "waiting" was not found again
                db.execute("DELETE FROM files WHERE library = ? AND status = ? AND "
                           "updated_at < ?", (started[0], WAITING, started[1]))

    def unfinished_runs(self, library: str) -> list[tuple[int, list[str], bool]]:
        rows = self.query("SELECT id, roots, prune FROM runs WHERE library = ? ORDER BY id",
                          (library,))
        return [(int(str(r[0])), list(json.loads(str(r[1]))), bool(r[2])) for r in rows]

    # ---- files ---------------------------------------------------------------------------
    def known(self, library: str) -> dict[str, KnownFile]:
        self.flush()
        rows = self.query("SELECT path, size, mtime_ns, content_hash, status FROM files "
                          "WHERE library = ? AND size IS NOT NULL", (library,))
        return {str(p): KnownFile(int(str(s)), int(str(m or 0)), str(h), str(st))
                for p, s, m, h, st in rows}

    def mark_waiting(self, library: str, keys: Sequence[str]) -> None:
        if not keys:
            return
        stamp = now_iso()
        with self.transaction() as db:
            # a file already known keeps its size/time/hash: only its status changes
            db.executemany(
                "INSERT INTO files (library, path, status, updated_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(library, path) DO UPDATE SET status = excluded.status, "
                "reason = '', updated_at = excluded.updated_at",
                [(library, key, WAITING, stamp) for key in keys])

    def record(self, library: str, key: str, status: str, *, reason: str = "",
               doc_id: str = "", size: int | None = None, mtime_ns: int | None = None,
               content_hash: str = "") -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown file status {status!r}")
        with self._lock:
            self._pending[(library, key)] = (library, key, status, reason, doc_id, size,
                                             mtime_ns, content_hash, now_iso())
            if status == INDEXED or len(self._pending) >= _FLUSH_EVERY:
                self.flush()

    def flush(self) -> None:
        with self._lock:
            if not self._pending:
                return
            rows = list(self._pending.values())
            self._pending.clear()
            with self.transaction() as db:
                db.executemany(
                    "INSERT OR REPLACE INTO files (library, path, status, reason, doc_id, size, "
                    "mtime_ns, content_hash, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    rows)

    def forget(self, library: str, key: str) -> None:
        with self._lock:
            self._pending.pop((library, key), None)
            with self.transaction() as db:
                db.execute("DELETE FROM files WHERE library = ? AND path = ?", (library, key))

    def files(self, library: str = "local", statuses: Sequence[str] = ()) -> list[FileStatus]:
        self.flush()
        sql = ("SELECT path, status, reason, doc_id, updated_at, library FROM files "
               "WHERE library = ?")
        params: list[object] = [library]
        if statuses:
            sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
            params += list(statuses)
        rows = self.query(sql + " ORDER BY path", params)
        return [FileStatus(*(str(v) for v in row)) for row in rows]

    def counts(self, library: str = "local") -> dict[str, int]:
        self.flush()
        rows = self.query("SELECT status, COUNT(*) FROM files WHERE library = ? "
                          "GROUP BY status", (library,))
        return {str(status): int(str(n)) for status, n in rows}

    # ---- embedding rate --------------------------------------------------------------------
    def add_rate(self, embedder_id: str, passages: int, seconds: float) -> None:
        """Accumulate the measured rate, older measurements weighing less over time."""
        if passages <= 0 or seconds <= 0:
            return
        with self.transaction() as db:
            row = db.execute("SELECT passages, seconds FROM rates WHERE embedder_id = ?",
                             (embedder_id,)).fetchone()
            old_p, old_s = (row[0], row[1]) if row else (0, 0.0)
            if old_p > 20_000:  # keep it current: the machine and its load change
                old_p, old_s = old_p // 2, old_s / 2
            db.execute("INSERT OR REPLACE INTO rates VALUES (?, ?, ?, ?)",
                       (embedder_id, old_p + passages, old_s + seconds, now_iso()))

    def rate(self, embedder_id: str) -> float | None:
        """Passages embedded per second by this embedder here, when measured."""
        rows = self.query("SELECT passages, seconds FROM rates WHERE embedder_id = ?",
                          (embedder_id,))
        if not rows or float(str(rows[0][1])) <= 0:
            return None
        return int(str(rows[0][0])) / float(str(rows[0][1]))

    def rates(self) -> dict[str, float]:
        """Every embedder's measured rate (passages per second)."""
        return {str(e): int(str(p)) / float(str(s)) for e, p, s in self.query(
            "SELECT embedder_id, passages, seconds FROM rates WHERE seconds > 0")}

    def journal(self, library: str = "local") -> StateJournal:
        return StateJournal(self, library)


class StateJournal:
    """`ingest.journal.IngestJournal` over the store, for one library."""

    def __init__(self, state: LibraryState, library: str) -> None:
        self.state = state
        self.library = library

    def begin(self, roots: Sequence[str], *, prune: bool) -> int:
        return self.state.begin_run(self.library, roots, prune)

    def end(self, run: int) -> None:
        self.state.end_run(run)

    def unfinished(self) -> list[tuple[int, list[str], bool]]:
        return self.state.unfinished_runs(self.library)

    def known(self) -> Mapping[str, KnownFile]:
        return self.state.known(self.library)

    def waiting(self, keys: Sequence[str]) -> None:
        self.state.mark_waiting(self.library, keys)

    def record(self, key: str, status: str, *, reason: str = "", doc_id: str = "",
               size: int | None = None, mtime_ns: int | None = None,
               content_hash: str = "") -> None:
        self.state.record(self.library, key, status, reason=reason, doc_id=doc_id, size=size,
                          mtime_ns=mtime_ns, content_hash=content_hash)

    def forget(self, key: str) -> None:
        self.state.forget(self.library, key)

    def paths(self) -> list[str]:
        self.state.flush()
        return [str(r[0]) for r in self.state.query("SELECT path FROM files WHERE library = ?",
                                                     (self.library,))]

    def flush(self) -> None:
        self.state.flush()

    def embedded(self, embedder_id: str, passages: int, seconds: float) -> None:
        self.state.add_rate(embedder_id, passages, seconds)


def _mapped(exc: sqlite3.Error, path: Path) -> AppError:
    mapped = storage_error(exc, str(path.parent))
    if mapped is not None:
        return mapped
    return AppError(f"The library's state file could not be used ({exc}).")
