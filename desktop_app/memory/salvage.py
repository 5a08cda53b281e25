"""A damaged state database set aside, and what it still holds copied into a new one.

`doctor --repair` calls `salvage` when SQLite's own check fails or the file is not a
database any more. The damaged file is renamed, never overwritten or deleted
(`state.sqlite3.damaged-YYYYMMDD-HHMMSS`), a new database is created with the current
schema, and every table is copied row by row range: a range that reads is copied whole,
one that fails is retried row by row, and rows that cannot be read are counted. Messages
whose conversation was lost get a conversation again ("recovered"), so nothing readable is
hidden by a missing parent row. The report counts rows per table, never their text.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from desktop_app.state_db import StateDB

log = logging.getLogger(__name__)

# parents first, so a child row finds its parent when foreign keys are checked at the end
TABLES = ("schema_versions", "kv", "conversations", "messages", "memories", "memory_sources",
          "memory_edits", "consents", "erasure_receipts")
WINDOW = 256


@dataclass
class Salvage:
    set_aside: Path
    copied: dict[str, int] = field(default_factory=dict)
    unreadable: dict[str, int] = field(default_factory=dict)
    lost_tables: list[str] = field(default_factory=list)  # not even their extent readable
    conversations_recreated: int = 0

    def lines(self) -> list[str]:
        kept = ", ".join(f"{n} {t}" for t, n in self.copied.items() if n and t in _SHOWN)
        lost = ", ".join(f"{n} {t}" for t, n in self.unreadable.items() if n)
        out = [f"recovered: {kept or 'nothing readable'}"]
        if lost:
            out.append(f"could not recover (unreadable rows): {lost}")
        shown = [t for t in self.lost_tables if t in _SHOWN]
        if shown:
            out.append(f"could not recover: the {', '.join(shown)} table(s) could not be read "
                       "at all")
        if self.conversations_recreated:
            out.append(f"{self.conversations_recreated} conversations lost their title and "
                       "were made again as “recovered”")
        out.append(f"the damaged file was kept as {self.set_aside.name}: it may still hold "
                   "text you erase later, so delete it once you no longer need it")
        return out


_SHOWN = ("conversations", "messages", "memories", "consents", "erasure_receipts")


def set_aside(path: Path) -> Path:
    """Rename the damaged file (and its journal) out of the way; returns the new name."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    path.rename(target)
    journal = path.with_name(path.name + "-journal")
    if journal.exists():
        journal.rename(target.with_name(target.name + "-journal"))
    return target


def salvage(path: Path) -> Salvage:
    """Set `path` aside and copy what it still holds into a new database at `path`."""
    damaged = set_aside(path)
    report = Salvage(damaged)
    fresh = StateDB.open(path)  # the current schema, empty
    try:
        source = sqlite3.connect(f"file:{damaged}?mode=ro", uri=True)
    except sqlite3.Error:
        fresh.close()
        return report
    try:
        with fresh.lock:
            conn = fresh._conn
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute("BEGIN")
            for table in TABLES:
                copied, lost = _copy(source, conn, table)
                report.copied[table], report.unreadable[table] = copied, lost
                if lost < 0:
                    report.unreadable[table] = 0
                    report.lost_tables.append(table)
            report.conversations_recreated = _parent_conversations(conn)
            conn.execute("DELETE FROM memory_sources WHERE memory_id NOT IN "
                         "(SELECT id FROM memories)")
            conn.execute("DELETE FROM memory_edits WHERE memory_id NOT IN "
                         "(SELECT id FROM memories)")
            conn.execute("COMMIT")
            conn.execute("PRAGMA foreign_keys = ON")
    finally:
        source.close()
        fresh.close()
    log.info("state database salvaged: %s", {t: n for t, n in report.copied.items()})
    return report


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in conn.execute(f"PRAGMA table_info({table})")]


def _copy(source: sqlite3.Connection, target: sqlite3.Connection, table: str) -> tuple[int, int]:
    """(rows copied, rows that could not be read) of one table; -1 unreadable: the table's
    own pages are gone."""
    wanted = _columns(target, table)
    try:
        present = set(_columns(source, table))
        low, high = source.execute(f"SELECT MIN(rowid), MAX(rowid) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        return 0, -1  # the table's own pages are gone: nothing to count
    if low is None or not present:
        return 0, 0
    columns = [c for c in wanted if c in present]
    names = ", ".join(columns)
    insert = (f"INSERT OR IGNORE INTO {table}({names}) "
              f"VALUES ({', '.join('?' for _ in columns)})")
    select = f"SELECT {names} FROM {table} WHERE rowid BETWEEN ? AND ?"
    copied = lost = 0
    for start in range(int(low), int(high) + 1, WINDOW):
        end = min(start + WINDOW - 1, int(high))
        try:
            rows = source.execute(select, (start, end)).fetchall()
        except sqlite3.DatabaseError:
            rows = []
            for rowid in range(start, end + 1):
                try:
                    rows += source.execute(select, (rowid, rowid)).fetchall()
                except sqlite3.DatabaseError:
                    lost += 1
        target.executemany(insert, rows)
        copied += len(rows)
    return copied, lost


def _parent_conversations(conn: sqlite3.Connection) -> int:
    orphans = [str(r[0]) for r in conn.execute(
        "SELECT DISTINCT conversation_id FROM messages WHERE conversation_id NOT IN "
        "(SELECT id FROM conversations)")]
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    conn.executemany("INSERT INTO conversations(id, title, created_at, updated_at) "
                     "VALUES (?, 'recovered', ?, ?)", [(c, now, now) for c in orphans])
    return len(orphans)
