"""Memory items in SQLite: the system of record (text, status, provenance, edit history).

Append-only by design: a contradicted item is not overwritten but marked `superseded`
with a pointer to its successor; deletion leaves a tombstone (id, category, status
'deleted', dates) with every piece of text removed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from desktop_app.memory.patterns import same_fact_key
from desktop_app.memory.types import EditEntry, MemoryItem, MemorySource
from desktop_app.state_db import StateDB


def _item(row: sqlite3.Row, sources: tuple[MemorySource, ...]) -> MemoryItem:
    return MemoryItem(
        id=row["id"], text=row["text"], category=row["category"], subject=row["subject"],
        attribute=row["attribute"], value=row["value"], sensitive=bool(row["sensitive"]),
        status=row["status"], created_at=row["created_at"], updated_at=row["updated_at"],
        expires_at=row["expires_at"], supersedes=row["supersedes"],
        superseded_by=row["superseded_by"], extracted_by=row["extracted_by"], sources=sources,
        search_context=row["search_context"],
    )


class MemoryStore:
    """CRUD over the `memories`, `memory_sources` and `memory_edits` tables."""

    def __init__(self, db: StateDB) -> None:
        self.db = db

    # --- reads ---

    def _sources(self, memory_ids: Sequence[str]) -> dict[str, list[MemorySource]]:
        found: dict[str, list[MemorySource]] = {i: [] for i in memory_ids}
        for start in range(0, len(memory_ids), 500):
            batch = list(memory_ids[start:start + 500])
            marks = ",".join("?" * len(batch))
            for r in self.db.query(
                    f"SELECT * FROM memory_sources WHERE memory_id IN ({marks}) "
                    "ORDER BY timestamp, rowid", batch):
                found[r["memory_id"]].append(MemorySource(
                    r["conversation_id"], r["message_id"], r["timestamp"], r["quote"]))
        return found

    def _items(self, rows: list[sqlite3.Row]) -> list[MemoryItem]:
        sources = self._sources([r["id"] for r in rows])
        return [_item(r, tuple(sources[r["id"]])) for r in rows]

    def get(self, memory_id: str) -> MemoryItem | None:
        rows = self.db.query("SELECT * FROM memories WHERE id = ?", (memory_id,))
        return self._items(rows)[0] if rows else None

    def get_many(self, memory_ids: Sequence[str]) -> dict[str, MemoryItem]:
        if not memory_ids:
            return {}
        marks = ",".join("?" * len(memory_ids))
        rows = self.db.query(f"SELECT * FROM memories WHERE id IN ({marks})", list(memory_ids))
        return {i.id: i for i in self._items(rows)}

    def items(self, *, statuses: Sequence[str] = ("active",), category: str | None = None,
              subject: str | None = None) -> list[MemoryItem]:
        marks = ",".join("?" * len(statuses))
        sql = f"SELECT * FROM memories WHERE status IN ({marks})"
        params: list[Any] = list(statuses)
        if category:
            sql += " AND category = ?"
            params.append(category)
        if subject:
            sql += " AND subject = ? COLLATE NOCASE"
            params.append(subject)
        sql += " ORDER BY created_at, id"
        return self._items(self.db.query(sql, params))

    def active_in_slot(self, subject: str, attribute: str) -> list[MemoryItem]:
        rows = self.db.query("SELECT * FROM memories WHERE status = 'active' AND attribute = ? "
                             "AND subject = ? COLLATE NOCASE ORDER BY created_at",
                             (attribute, subject))
        return self._items(rows)

    def active_with_key(self, fact_key: str) -> MemoryItem | None:
        """The active item stating the same fact (see `patterns.same_fact_key`)."""
        rows = self.db.query("SELECT * FROM memories WHERE fact_key = ? AND status = 'active' "
                             "ORDER BY created_at LIMIT 1", (fact_key,))
        return self._items(rows)[0] if rows else None

    def chain(self, memory_id: str) -> list[str]:
        """The item and every older version it superseded, transitively (newest first)."""
        ids: list[str] = []
        current: str | None = memory_id
        while current and current not in ids:
            ids.append(current)
            rows = self.db.query("SELECT supersedes FROM memories WHERE id = ?", (current,))
            current = rows[0]["supersedes"] if rows else None
        return ids

    def edits(self, memory_id: str) -> list[EditEntry]:
        rows = self.db.query("SELECT edited_at, old_text, old_text_erased FROM memory_edits "
                             "WHERE memory_id = ? ORDER BY id", (memory_id,))
        return [EditEntry(r["edited_at"], r["old_text"], bool(r["old_text_erased"])) for r in rows]

    def old_texts(self, memory_ids: Sequence[str]) -> list[str]:
        texts = []
        for memory_id in memory_ids:
            texts += [e.old_text for e in self.edits(memory_id) if e.old_text]
        return texts

    def expired_ids(self, now_iso: str) -> list[str]:
        rows = self.db.query("SELECT id FROM memories WHERE status != 'deleted' "
                             "AND expires_at IS NOT NULL AND expires_at <= ? ORDER BY id",
                             (now_iso,))
        return [r["id"] for r in rows]

    def ids_in_category(self, category: str) -> list[str]:
        rows = self.db.query("SELECT id FROM memories WHERE status != 'deleted' AND category = ?",
                             (category,))
        return [r["id"] for r in rows]

    def all_live_ids(self) -> list[str]:
        return [r["id"] for r in self.db.query(
            "SELECT id FROM memories WHERE status != 'deleted' ORDER BY id")]

    # --- writes ---

    def insert(self, item: MemoryItem) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO memories(id, text, category, subject, attribute, value, sensitive, "
                "status, created_at, updated_at, expires_at, supersedes, superseded_by, "
                "extracted_by, fact_key, search_context) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (item.id, item.text, item.category, item.subject, item.attribute, item.value,
                 int(item.sensitive), item.status, item.created_at, item.updated_at,
                 item.expires_at, item.supersedes, item.superseded_by, item.extracted_by,
                 same_fact_key(item.text), item.search_context))
            for source in item.sources:
                self.add_source(item.id, source, added_at=item.created_at)

    def add_source(self, memory_id: str, source: MemorySource, *, added_at: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("INSERT INTO memory_sources(memory_id, conversation_id, message_id, "
                         "timestamp, quote, added_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (memory_id, source.conversation_id, source.message_id,
                          source.timestamp, source.quote, added_at))

    def remove_source(self, memory_id: str, message_id: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM memory_sources WHERE memory_id = ? AND message_id = ?",
                         (memory_id, message_id))

    def set_status(self, memory_id: str, status: str, *, superseded_by: str | None,
                   updated_at: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE memories SET status = ?, superseded_by = ?, updated_at = ? "
                         "WHERE id = ?", (status, superseded_by, updated_at, memory_id))

    def touch(self, memory_id: str, *, updated_at: str, expires_at: str | None) -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE memories SET updated_at = ?, expires_at = ? WHERE id = ?",
                         (updated_at, expires_at, memory_id))

    def update_text(self, memory_id: str, text: str, *, value: str, edited_at: str,
                    old_text: str, keep_old_text: bool) -> None:
        with self.db.transaction() as conn:
            # the user rewrote the fact in full: the old search context no longer applies
            conn.execute("UPDATE memories SET text = ?, value = ?, updated_at = ?, fact_key = ?, "
                         "search_context = '' WHERE id = ?",
                         (text, value, edited_at, same_fact_key(text), memory_id))
            conn.execute("INSERT INTO memory_edits(memory_id, edited_at, old_text, "
                         "old_text_erased) VALUES (?, ?, ?, ?)",
                         (memory_id, edited_at, old_text if keep_old_text else None,
                          0 if keep_old_text else 1))

    def erase_edit_history(self, memory_id: str) -> None:
        """Keep the edit entries (dates) but none of the old texts."""
        with self.db.transaction() as conn:
            conn.execute("UPDATE memory_edits SET old_text = NULL, old_text_erased = 1 "
                         "WHERE memory_id = ?", (memory_id,))

    def scrub_quotes(self, memory_id: str, replacement: str) -> int:
        """Replace the stored exact words of every source (used when old text is erased)."""
        with self.db.transaction() as conn:
            cur = conn.execute("UPDATE memory_sources SET quote = ? WHERE memory_id = ?",
                               (replacement, memory_id))
            return int(cur.rowcount)

    def tombstone(self, memory_ids: Iterable[str], *, at: str) -> tuple[int, int]:
        """Remove all text of these items (rows stay as 'deleted' tombstones).

        Returns (rows touched, content bytes removed) over memories, sources and edits.
        """
        rows = bytes_ = 0
        with self.db.transaction() as conn:
            for memory_id in memory_ids:
                r = conn.execute("SELECT text, value, attribute, subject, search_context "
                                 "FROM memories WHERE id = ?", (memory_id,)).fetchone()
                if r is None:
                    continue
                bytes_ += sum(len((r[k] or "").encode()) for k in
                              ("text", "value", "attribute", "subject", "search_context"))
                conn.execute("UPDATE memories SET text = '', value = '', attribute = '', "
                             "subject = '', fact_key = '', search_context = '', status = 'deleted', updated_at = ?, "
                             "expires_at = NULL WHERE id = ?", (at, memory_id))
                rows += 1
                for s in conn.execute("SELECT quote FROM memory_sources WHERE memory_id = ?",
                                      (memory_id,)).fetchall():
                    bytes_ += len(s["quote"].encode())
                    rows += 1
                conn.execute("DELETE FROM memory_sources WHERE memory_id = ?", (memory_id,))
                for e in conn.execute("SELECT old_text FROM memory_edits WHERE memory_id = ?",
                                      (memory_id,)).fetchall():
                    bytes_ += len((e["old_text"] or "").encode())
                    rows += 1
                conn.execute("UPDATE memory_edits SET old_text = NULL, old_text_erased = 1 "
                             "WHERE memory_id = ?", (memory_id,))
        return rows, bytes_

    def purge(self, memory_ids: Iterable[str]) -> int:
        """Delete rows outright (undo of a fresh save leaves no tombstone)."""
        count = 0
        with self.db.transaction() as conn:
            for memory_id in memory_ids:
                count += conn.execute("DELETE FROM memories WHERE id = ?", (memory_id,)).rowcount
        return count
