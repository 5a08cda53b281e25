"""Conversations and their messages (SQLite), with each answer's trace and a running summary.

The assistant message row carries the answer's trace (rewritten query, hits, memories
used), so that erasing a memory can scrub every trace that quoted it, and removing a
document can find the answers that quote it (`document_quotes`, `purge_document`). `add_user_message`
is the only issuer of `UserMessage`, the sole input of memory writes.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import asdict, is_dataclass
from typing import TYPE_CHECKING, Any

from desktop_app.memory.types import StoredMessage, UserMessage, iso, utc_now
from desktop_app.state_db import StateDB
from desktop_app.text.caches import forget_cached_text

if TYPE_CHECKING:
    from desktop_app.memory.erasure import Forms

# the conversation the command line writes to (`chat MESSAGE`, `memory remember TEXT`)
CLI_CONVERSATION = "conv_cli"


def _json_default(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, frozenset | set | tuple):
        return sorted(value, key=str) if isinstance(value, frozenset | set) else list(value)
    return str(value)


def trace_to_json(trace: dict[str, Any] | None) -> str | None:
    return None if trace is None else json.dumps(trace, default=_json_default, ensure_ascii=False)


class ConversationStore:
    """Persisted chat history."""

    def __init__(self, db: StateDB) -> None:
        self.db = db
        # told the conversations whose messages this store erased on its own (a removed
        # document's quotes): the recall index drops their exchanges' analysed words too
        self._erasure_listeners: list[Callable[[list[str]], None]] = []

    def on_erasure(self, listener: Callable[[list[str]], None]) -> None:
        self._erasure_listeners.append(listener)

    # --- conversations ---

    def new_conversation(self, title: str = "", *, conversation_id: str | None = None) -> str:
        conv_id = conversation_id or f"conv_{uuid.uuid4().hex[:12]}"
        now = iso(utc_now())
        with self.db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO conversations(id, title, created_at, updated_at) "
                         "VALUES (?, ?, ?, ?)", (conv_id, title, now, now))
        return conv_id

    def ensure_conversation(self, conversation_id: str, title: str = "") -> str:
        return self.new_conversation(title, conversation_id=conversation_id)

    def conversations(self) -> list[dict[str, Any]]:
        rows = self.db.query(
            "SELECT c.id, c.title, c.created_at, c.updated_at, COUNT(m.id) AS messages "
            "FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id "
            "GROUP BY c.id ORDER BY c.updated_at DESC, c.id")
        return [dict(r) for r in rows]

    def summary(self, conversation_id: str) -> tuple[str | None, int]:
        rows = self.db.query("SELECT summary, summary_upto FROM conversations WHERE id = ?",
                             (conversation_id,))
        if not rows:
            return None, 0
        return rows[0]["summary"], int(rows[0]["summary_upto"])

    def set_summary(self, conversation_id: str, summary: str | None, upto_seq: int) -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE conversations SET summary = ?, summary_upto = ? WHERE id = ?",
                         (summary, upto_seq, conversation_id))

    # --- messages ---

    def _append(self, conversation_id: str, role: str, content: str, created_at: str,
                trace: dict[str, Any] | None) -> StoredMessage:
        message_id = f"msg_{uuid.uuid4().hex[:12]}"
        with self.db.transaction() as conn:
            self.ensure_conversation(conversation_id)
            row = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM messages "
                               "WHERE conversation_id = ?", (conversation_id,)).fetchone()
            seq = int(row[0])
            conn.execute("INSERT INTO messages(id, conversation_id, seq, role, content, "
                         "created_at, trace) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (message_id, conversation_id, seq, role, content, created_at,
                          trace_to_json(trace)))
            conn.execute("UPDATE conversations SET updated_at = ? WHERE id = ?",
                         (created_at, conversation_id))
        return StoredMessage(message_id, conversation_id, seq, role, content,  # type: ignore[arg-type]
                             created_at, trace)

    def add_user_message(self, conversation_id: str, text: str, *,
                         timestamp: str | None = None) -> UserMessage:
        """Persist what the user typed and return the handle memory writes require."""
        created = timestamp or iso(utc_now())
        previous = self.last_message(conversation_id)
        stored = self._append(conversation_id, "user", text, created, None)
        replying_to = previous.content if previous and previous.role == "assistant" else None
        return UserMessage(conversation_id, stored.id, text, created, replying_to)

    def add_assistant_message(self, conversation_id: str, text: str,
                              trace: dict[str, Any] | None = None, *,
                              timestamp: str | None = None) -> StoredMessage:
        return self._append(conversation_id, "assistant", text, timestamp or iso(utc_now()),
                            trace)

    def set_trace(self, message_id: str, trace: dict[str, Any] | None) -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE messages SET trace = ? WHERE id = ?",
                         (trace_to_json(trace), message_id))

    @staticmethod
    def _row(row: Any) -> StoredMessage:
        trace = json.loads(row["trace"]) if row["trace"] else None
        return StoredMessage(row["id"], row["conversation_id"], int(row["seq"]), row["role"],
                             row["content"], row["created_at"], trace)

    def rename(self, conversation_id: str, title: str) -> None:
        with self.db.transaction() as conn:
            conn.execute("UPDATE conversations SET title = ? WHERE id = ?",
                         (title, conversation_id))

    def delete_conversation(self, conversation_id: str) -> tuple[int, int]:
        """Erase a conversation: its messages through the secure deletion, then its row."""
        rows, bytes_ = self.delete_messages([m.id for m in self.messages(conversation_id)])
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
        return rows + 1, bytes_

    def messages(self, conversation_id: str) -> list[StoredMessage]:
        rows = self.db.query("SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq",
                             (conversation_id,))
        return [self._row(r) for r in rows]

    def message(self, message_id: str) -> StoredMessage | None:
        rows = self.db.query("SELECT * FROM messages WHERE id = ?", (message_id,))
        return self._row(rows[0]) if rows else None

    def messages_by_id(self, message_ids: Iterable[str]) -> dict[str, StoredMessage]:
        """Several messages in one query (conversation recall renders many at once)."""
        ids = list(dict.fromkeys(message_ids))
        found: dict[str, StoredMessage] = {}
        for start in range(0, len(ids), 500):
            part = ids[start:start + 500]
            marks = ", ".join("?" * len(part))
            for row in self.db.query(f"SELECT * FROM messages WHERE id IN ({marks})",
                                     tuple(part)):
                found[row["id"]] = self._row(row)
        return found

    def last_message(self, conversation_id: str) -> StoredMessage | None:
        rows = self.db.query("SELECT * FROM messages WHERE conversation_id = ? "
                             "ORDER BY seq DESC LIMIT 1", (conversation_id,))
        return self._row(rows[0]) if rows else None

    def is_user_message(self, message: UserMessage) -> bool:
        """True when `message` is a stored user message with exactly this text."""
        stored = self.message(message.message_id)
        return (stored is not None and stored.role == "user" and stored.content == message.text
                and stored.conversation_id == message.conversation_id)

    # --- erasure ---

    def delete_messages(self, message_ids: Iterable[str]) -> tuple[int, int]:
        """Delete messages (content and trace); returns (rows, content bytes).

        A deleted question leaves no form behind in the traces of its conversation: the
        answer to it forgets the question (asked, rewritten, its analysed words), and a
        later answer whose rewrite carried words of it searches its own question again."""
        from desktop_app.memory.erasure import derived_forms, forget_carried, forget_question

        ids = sorted(set(message_ids))
        rows = bytes_ = 0
        with self.db.transaction() as conn:
            for message_id in ids:
                row = conn.execute("SELECT conversation_id, seq, role, content, trace "
                                   "FROM messages WHERE id = ?", (message_id,)).fetchone()
                if row is None:
                    continue
                bytes_ += len(row["content"].encode()) + len((row["trace"] or "").encode())
                conn.execute("DELETE FROM messages WHERE id = ?", (message_id,))
                # the running summary may quote the erased message: rebuild it later
                conn.execute("UPDATE conversations SET summary = NULL, summary_upto = 0 "
                             "WHERE id = ?", (row["conversation_id"],))
                rows += 1
                if row["role"] != "user":
                    continue
                forms = derived_forms([row["content"]], every_word=True)
                later = conn.execute("SELECT id, seq, role, trace FROM messages WHERE "
                                     "conversation_id = ? AND seq > ? AND trace IS NOT NULL "
                                     "ORDER BY seq", (row["conversation_id"], row["seq"]))
                for n, answer in enumerate(later.fetchall()):
                    trace = json.loads(answer["trace"])
                    clean = (forget_question(trace) if n == 0 and answer["seq"] == row["seq"] + 1
                             else forget_carried(trace, forms))
                    if clean != trace:
                        conn.execute("UPDATE messages SET trace = ? WHERE id = ?",
                                     (json.dumps(clean, ensure_ascii=False), answer["id"]))
        return rows, bytes_

    def delete_all(self) -> tuple[int, int]:
        """Delete every conversation and message; returns (message rows, content bytes)."""
        with self.db.transaction() as conn:
            row = conn.execute("SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(content AS BLOB)) + "
                               "COALESCE(LENGTH(CAST(trace AS BLOB)), 0)), 0) "
                               "FROM messages").fetchone()
            conn.execute("DELETE FROM messages")
            conn.execute("DELETE FROM conversations")
        return int(row[0]), int(row[1])

    def redact(self, needles: Iterable[str] | Forms, memory_ids: Iterable[str]) -> tuple[int, int]:
        """Scrub copies of erased memories from assistant messages, traces and summaries.

        Assistant text and traces are copies the app made (an acknowledgement quoting the
        fact, a prompt's memory block, a rewrite that carried its words, the analysed words
        an answer matched); they are redacted always, in every derived form (`Forms`). The
        user's own messages are only removed when the user chooses to (`delete_messages`).
        Returns (rows changed, bytes removed).
        """
        from desktop_app.memory.erasure import Forms, redact_text, scrub_trace

        forms = needles if isinstance(needles, Forms) else Forms(tuple(needles), frozenset())
        terms = sorted({n for n in forms.needles if n and n.strip()}, key=len, reverse=True)
        forms = Forms(tuple(terms), forms.terms)
        ids = set(memory_ids)
        changed = removed = 0
        with self.db.transaction() as conn:
            rows = conn.execute("SELECT id, role, content, trace FROM messages").fetchall()
            for row in rows:
                content = row["content"]
                new_content = redact_text(content, terms) if row["role"] == "assistant" else content
                trace_text = row["trace"]
                new_trace_text = trace_text
                if trace_text:
                    scrubbed = scrub_trace(json.loads(trace_text), forms, ids)
                    new_trace_text = json.dumps(scrubbed, ensure_ascii=False)
                    if new_trace_text == json.dumps(json.loads(trace_text), ensure_ascii=False):
                        new_trace_text = trace_text
                if new_content != content or new_trace_text != trace_text:
                    removed += max(0, len(content.encode()) - len(new_content.encode()))
                    removed += max(0, len((trace_text or "").encode())
                                   - len((new_trace_text or "").encode()))
                    conn.execute("UPDATE messages SET content = ?, trace = ? WHERE id = ?",
                                 (new_content, new_trace_text, row["id"]))
                    changed += 1
            for conv in conn.execute("SELECT id, summary FROM conversations "
                                     "WHERE summary IS NOT NULL").fetchall():
                if redact_text(conv["summary"], terms) != conv["summary"]:
                    removed += len(conv["summary"].encode())
                    conn.execute("UPDATE conversations SET summary = NULL, summary_upto = 0 "
                                 "WHERE id = ?", (conv["id"],))
                    changed += 1
        return changed, removed

    def redact_user_messages(self, message_ids: Iterable[str],
                             needles: Iterable[str]) -> tuple[int, int]:
        """Redact copies inside specific user messages (a "forget …" command restating a fact)."""
        from desktop_app.memory.erasure import redact_text

        terms = sorted({n for n in needles if n and n.strip()}, key=len, reverse=True)
        changed = removed = 0
        with self.db.transaction() as conn:
            for message_id in message_ids:
                row = conn.execute("SELECT content FROM messages WHERE id = ?",
                                   (message_id,)).fetchone()
                if row is None:
                    continue
                new_content = redact_text(row["content"], terms)
                if new_content != row["content"]:
                    removed += max(0, len(row["content"].encode()) - len(new_content.encode()))
                    conn.execute("UPDATE messages SET content = ? WHERE id = ?",
                                 (new_content, message_id))
                    changed += 1
        return changed, removed

    # --- copies of a removed document ---

    def document_quotes(self, doc_id: str, passages: Iterable[str] = ()) -> list[str]:
        """Ids of assistant messages that quote a document: they cite it, or they repeat a
        run of its words (`passages`: the document's chunk texts, when still known)."""
        from desktop_app.memory.erasure import shingles

        marks: set[int] = set()
        for passage in passages:
            marks |= shingles(passage)
        found = []
        rows = self.db.query("SELECT id, content, trace FROM messages WHERE role = 'assistant' "
                             "ORDER BY conversation_id, seq")
        for row in rows:
            trace = json.loads(row["trace"]) if row["trace"] else {}
            cited = any(isinstance(c, dict) and c.get("doc_id") == doc_id
                        for c in trace.get("citations") or [])
            if cited or (marks and marks & shingles(row["content"])):
                found.append(str(row["id"]))
        return found

    def purge_document(self, doc_id: str, passages: Iterable[str] = ()) -> tuple[int, int, int]:
        """Erase the assistant messages that quote a document and every trace entry naming it.

        The user's own questions stay. Running summaries of the affected conversations are
        dropped (rebuilt later). Returns (messages deleted, traces scrubbed, bytes removed).
        """
        quoting = self.document_quotes(doc_id, passages)
        touched = sorted({m.conversation_id for m in map(self.message, quoting) if m})
        deleted, removed = self.delete_messages(quoting)
        scrubbed = 0
        with self.db.transaction() as conn:
            rows = conn.execute("SELECT id, trace FROM messages WHERE trace LIKE ?",
                                (f"%{doc_id}%",)).fetchall()
            for row in rows:
                trace = json.loads(row["trace"])
                clean = _without_document(trace, doc_id)
                if clean != trace:
                    new_text = json.dumps(clean, ensure_ascii=False)
                    removed += max(0, len(row["trace"].encode()) - len(new_text.encode()))
                    conn.execute("UPDATE messages SET trace = ? WHERE id = ?", (new_text, row["id"]))
                    scrubbed += 1
        if deleted or scrubbed:
            self.db.vacuum()  # no freed page keeps the erased text
            forget_cached_text()
        if deleted:
            for listener in self._erasure_listeners:
                listener(touched)
        return deleted, scrubbed, removed


def _without_document(value: Any, doc_id: str) -> Any:
    """A trace with every entry (hit, citation) that names `doc_id` removed."""
    if isinstance(value, dict):
        return {k: _without_document(v, doc_id) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_document(item, doc_id) for item in value
                if not (isinstance(item, dict) and (
                    item.get("doc_id") == doc_id
                    or str(item.get("chunk_id", "")).startswith(f"{doc_id}:")))]
    return value
