"""The SQLite state database shared by chat/ and memory/: conversations, messages with
answer traces, memory items, their provenance, edit history, consents and erasure receipts.

Why SQLite (not LanceDB) for these: they are small relational records written one at a
time (a message per turn, a status flip per contradiction) and read by key or in order;
they need transactions across tables (a memory and its source, a consent and its
erasure); and erasure must be physical. SQLite does all of this in one file with
`secure_delete` (freed pages are zeroed at once) and `VACUUM` (the file is rebuilt
without free pages), while every LanceDB write creates a new table version that has to
be compacted away. LanceDB holds only what needs vector/keyword search: the memory index.

One connection is shared by the threads of the app (the GUI thread and the background
extraction worker) behind a re-entrant lock; the rollback journal (not WAL) keeps all
content in the one file that `VACUUM` rewrites.

A read-only data folder (read-only media or mount) opens read-only: reading memories and
conversations works, and a write fails with one clear `StorageError` — as does a full
disk ("database or disk is full") — instead of a raw `sqlite3.OperationalError`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from desktop_app.errors import DamagedStoreError, LibraryBusyError, storage_error

SCHEMA_VERSION = 1
STATE_FILE_NAME = "state.sqlite3"  # (config.paths names the file; this is for messages)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_versions (
    component TEXT PRIMARY KEY,
    version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS kv (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    summary TEXT,
    summary_upto INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content TEXT NOT NULL,
    created_at TEXT NOT NULL,
    trace TEXT
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, seq);
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    category TEXT NOT NULL,
    subject TEXT NOT NULL,
    attribute TEXT NOT NULL DEFAULT '',
    value TEXT NOT NULL DEFAULT '',
    sensitive INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('active', 'superseded', 'deleted')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT,
    supersedes TEXT,
    superseded_by TEXT,
    extracted_by TEXT NOT NULL,
    fact_key TEXT NOT NULL DEFAULT '',
    search_context TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS memories_by_status ON memories(status, category);
CREATE INDEX IF NOT EXISTS memories_by_fact_key ON memories(fact_key, status);
CREATE INDEX IF NOT EXISTS memories_by_slot ON memories(attribute, status);
CREATE TABLE IF NOT EXISTS memory_sources (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    quote TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memory_sources_by_memory ON memory_sources(memory_id);
CREATE TABLE IF NOT EXISTS memory_edits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    edited_at TEXT NOT NULL,
    old_text TEXT,
    old_text_erased INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS consents (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    category TEXT NOT NULL,
    granted INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS erasure_receipts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    recorded_at TEXT NOT NULL,
    receipt TEXT NOT NULL
);
"""


class StateDB:
    """A thread-safe handle on the state SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.read_only = False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _raise_mapped(exc, str(self.path.parent))
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA secure_delete = ON")
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._conn.execute("PRAGMA busy_timeout = 5000")
        try:
            self._conn.execute("PRAGMA journal_mode = DELETE")
            self._conn.executescript(_SCHEMA)
            self._conn.execute(
                "INSERT OR IGNORE INTO schema_versions(component, version) VALUES ('state', ?)",
                (SCHEMA_VERSION,),
            )
        except sqlite3.Error as exc:
            if is_corrupt(exc):
                self._conn.close()
                raise damaged_state(path) from exc
            if not self._has_schema():
                _raise_mapped(exc, str(self.path.parent))
            if _mapped(exc) is exc:
                raise  # not a storage problem: a bug
            self.read_only = True  # an existing database we may read but not write

    def _has_schema(self) -> bool:
        try:
            rows = self._conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                                      "AND name IN ('messages', 'memories')").fetchone()
        except sqlite3.Error:
            return False
        return bool(rows and rows[0] == 2)

    @classmethod
    def open(cls, path: Path) -> StateDB:
        return cls(path)

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE … COMMIT (ROLLBACK on error); nested calls join the outer one."""
        with self._lock:
            if self._conn.in_transaction:
                yield self._conn
                return
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                _raise_mapped(exc, str(self.path.parent))
            try:
                yield self._conn
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    _raise_mapped(exc, str(self.path.parent))
                raise
            try:
                self._conn.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.execute("ROLLBACK")
                _raise_mapped(exc, str(self.path.parent))

    def query(self, sql: str, params: Sequence[object] = ()) -> list[sqlite3.Row]:
        with self._lock:
            try:
                return list(self._conn.execute(sql, params).fetchall())
            except sqlite3.DatabaseError as exc:
                if is_corrupt(exc):
                    raise damaged_state(self.path) from exc
                raise

    def integrity_problems(self, *, deep: bool = True) -> list[str]:
        """SQLite's own check (`integrity_check`; `quick_check` when not `deep`): its
        findings, empty when the file is sound. Page numbers only, never row text."""
        pragma = "integrity_check" if deep else "quick_check"
        with self._lock:
            try:
                rows = self._conn.execute(f"PRAGMA {pragma}(20)").fetchall()
            except sqlite3.DatabaseError as exc:
                return [f"the check itself failed ({type(exc).__name__})"]
        found = [str(r[0]) for r in rows]
        return [] if found == ["ok"] else found

    def get_kv(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM kv WHERE key = ?", (key,))
        return str(rows[0]["value"]) if rows else None

    def set_kv(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT INTO kv(key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))

    def file_bytes(self) -> int:
        """Size on disk of the database file and its journal, if any."""
        total = 0
        for suffix in ("", "-journal", "-wal", "-shm"):
            candidate = self.path.with_name(self.path.name + suffix)
            if candidate.exists():
                total += candidate.stat().st_size
        return total

    def vacuum(self) -> None:
        """Rebuild the file so no freed page keeps erased text."""
        with self._lock:
            try:
                self._conn.execute("VACUUM")
            except sqlite3.Error as exc:
                _raise_mapped(exc, str(self.path.parent))

    def close(self) -> None:
        with self._lock:
            self._conn.close()


_CORRUPT = ("file is not a database", "malformed", "corrupt")


def is_corrupt(exc: BaseException) -> bool:
    """SQLite's words for a damaged file (not a lock, not a full disk)."""
    return isinstance(exc, sqlite3.DatabaseError) and any(
        m in str(exc).lower() for m in _CORRUPT)


def damaged_state(path: Path | str) -> DamagedStoreError:
    return DamagedStoreError(
        f"The conversation and memory database ({Path(path).name}) is damaged. Searching and "
        "answering from your documents still work; run `desktop-app doctor --repair` to "
        "set the damaged file aside and recover what it still holds.")


def _mapped(exc: BaseException, where: str = "") -> BaseException:
    """The user-facing error for a storage failure (full disk, read-only folder, a database
    another process keeps locked, a damaged file); any other error is returned as it is
    (a bug)."""
    mapped = storage_error(exc, where)
    if mapped is not None:
        return mapped
    if is_corrupt(exc):
        return damaged_state(STATE_FILE_NAME)
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower():
        return LibraryBusyError("Another Acervo process kept the conversation and memory "
                                "database busy; nothing was changed. Try again.")
    return exc


def _raise_mapped(exc: BaseException, where: str = "") -> NoReturn:
    mapped = _mapped(exc, where)
    if mapped is exc:
        raise exc
    raise mapped from exc
