"""MemoryService: the memory core plus the user's rights (LGPD art. 18).

Access and portability (`list_items`, `provenance`, `export`), correction (`edit`,
re-embedded, with an edit-history entry that drops the old text when the user asks),
deletion (`delete`, `forget_all`, `forget_matching`, `undo`), consent withdrawal
(`set_consent(..., False)` erases that category), retention (`sweep_expired`).

Every erasure goes through `_erase`, which reaches every copy: the memory row and its
older versions, sources and edit history (SQLite), vectors and FTS entries (LanceDB),
copies in assistant messages, traces and running summaries, the source messages when
the user chooses, and finally the files (LanceDB cleanup of old versions, SQLite VACUUM).
It returns an `ErasureReceipt`, also kept (without any text) in the state database.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from desktop_app.errors import AppError
from desktop_app.memory.categories import classify
from desktop_app.memory.core import NEEDS_CONSENT, MemoryCore
from desktop_app.memory.erasure import ErasureReceipt, Forms, derived_forms, redact_files
from desktop_app.memory.patterns import match_fact, tidy_sentence
from desktop_app.memory.types import (
    ConsentRecord,
    MemoryItem,
    Provenance,
    StoredMessage,
    iso,
)
from desktop_app.text.analyze import content_terms
from desktop_app.text.caches import forget_cached_text

log = logging.getLogger(__name__)

EXPORT_FORMAT = "acervo-memory-export/1"
ERASED_QUOTE = "[erased at the user's request]"


class MemoryService(MemoryCore):
    """What the GUI memory panel, the chat and the CLI use."""

    # --- access ---

    def provenance(self, memory_id: str) -> Provenance:
        item = self._require(memory_id)
        history = [self.store.get(i) for i in self.store.chain(memory_id)[1:]]
        messages: list[StoredMessage] = []
        for source in item.sources:
            stored = self.conversations.message(source.message_id)
            if stored is not None:
                messages.append(stored)
        return Provenance(item, tuple(h for h in history if h is not None),
                          tuple(self.store.edits(memory_id)), tuple(messages))

    def _require(self, memory_id: str) -> MemoryItem:
        item = self.store.get(memory_id)
        if item is None:
            raise AppError(f"No memory with id {memory_id}.")
        return item

    def export_file(self, path: Path, *, include_conversations: bool = False) -> int:
        """Write `export()` to `path` as JSON (whole or not at all: a temporary file renamed
        into place); returns how many memories it holds."""
        data = self.export(include_conversations=include_conversations)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str),
                       encoding="utf-8")
        tmp.replace(path)
        return len(data["memories"])

    def export(self, *, include_conversations: bool = False) -> dict[str, Any]:
        """Everything remembered, with provenance, history, consents and receipts (JSON-able)."""
        items = self.store.items(statuses=("active", "superseded"))
        data: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "exported_at": iso(self.clock()),
            "memories": [dict(i.to_dict(), edits=[e.__dict__ for e in self.store.edits(i.id)])
                         for i in items],
            "consents": [c.__dict__ for c in self.consents.history()],
            "erasure_receipts": self.receipts(),
        }
        if include_conversations:
            data["conversations"] = [
                dict(conv, messages=[m.__dict__ for m in self.conversations.messages(conv["id"])])
                for conv in self.conversations.conversations()]
        return data

    def receipts(self) -> list[dict[str, Any]]:
        rows = self.db.query("SELECT receipt FROM erasure_receipts ORDER BY id")
        return [json.loads(r["receipt"]) for r in rows]

    # --- correction ---

    def edit(self, memory_id: str, text: str, *, erase_old_text: bool = False) -> MemoryItem:
        """Replace an active item's text (re-embedded). With `erase_old_text`, the history
        entry keeps no old text and every copy of it is scrubbed like an erasure."""
        item = self._require(memory_id)
        if item.status != "active":
            raise AppError("Only a current memory can be edited (this one is "
                           f"{item.status}).")
        new_text = tidy_sentence(text)
        if not new_text:
            raise AppError("The new text is empty; use delete to remove a memory.")
        category, sensitive = classify(new_text, item.category)
        if sensitive and not self.consents.allows(category):
            raise AppError(f"{NEEDS_CONSENT} ({category}). Turn on consent for this category "
                           "first.")
        matched = match_fact(new_text)
        now = iso(self.clock())
        with self.writing("editing a memory"):
            old_texts = [item.text] + self.store.old_texts([memory_id])
            self.store.update_text(memory_id, new_text, value=matched[3] if matched else "",
                                   edited_at=now, old_text=item.text,
                                   keep_old_text=not erase_old_text)
            self.index.delete([memory_id])
            vector = self.embedder.embed_passages([new_text])
            self.index.add([memory_id], [new_text], vector, ["active"])
            if erase_old_text:
                receipt = ErasureReceipt("edit_erase_old_text", now, memory_ids=[memory_id])
                self.store.erase_edit_history(memory_id)
                touch = receipt.touch("memories")
                touch.rows += self.store.scrub_quotes(memory_id, ERASED_QUOTE)
                touch.content_bytes += sum(len(t.encode()) for t in old_texts)
                forms = derived_forms(old_texts, [item.value])
                kept = content_terms(new_text)
                forms = Forms(tuple(n for n in forms.needles
                                    if n.casefold() not in new_text.casefold()),
                              frozenset(t for t in forms.terms if t not in kept))
                self._scrub_copies(receipt, forms, set())
                self._physical_cleanup(receipt)
        log.info("memory %s edited (old text %s)", memory_id,
                 "erased" if erase_old_text else "kept in history")
        return self._require(memory_id)

    # --- deletion ---

    def delete(self, memory_id: str, *, erase_messages: bool = False) -> ErasureReceipt:
        """Erase one memory and every older version of it; optionally its source messages."""
        self._require(memory_id)
        return self._erase(self.store.chain(memory_id), "delete", erase_messages=erase_messages)

    def forget_all(self, *, erase_conversations: bool = False) -> ErasureReceipt:
        """Forget everything: all memories (and, when chosen, all conversations and the
        conversation-recall index)."""
        with self.writing("erasing every memory"):
            receipt = self._erase(self.store.all_live_ids(), "forget_all",
                                  erase_messages=False, cleanup=not erase_conversations)
            if erase_conversations:
                rows, bytes_ = self.conversations.delete_all()
                touch = receipt.touch("conversations")
                touch.rows += rows
                touch.content_bytes += bytes_
                if self.conversation_recall is not None:
                    self.conversation_recall.erase_all(receipt)
                self._physical_cleanup(receipt)
                self._record(receipt)
        self._undo.clear()
        return receipt

    # --- conversations (the chat list, the memory panel's "Conversations" view) ---

    def delete_conversation(self, conversation_id: str) -> ErasureReceipt:
        """Erase a conversation: its messages and traces, its recall rows (vectors and FTS
        entries), then the files (LanceDB cleanup, SQLite VACUUM). Memories taken from it
        stay (they are in the panel, erasable on their own)."""
        receipt = ErasureReceipt("delete_conversation", iso(self.clock()),
                                 conversation_ids=[conversation_id])
        with self.writing("erasing a conversation"):
            receipt.touch("sqlite_file").file_bytes_before = self.db.file_bytes()
            ids = [m.id for m in self.conversations.messages(conversation_id)]
            rows, bytes_ = self.conversations.delete_messages(ids)
            receipt.message_ids = ids
            touch = receipt.touch("messages")
            touch.rows, touch.content_bytes = rows, bytes_
            with self.db.transaction() as conn:
                conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))
            receipt.touch("conversations").rows += 1
            if self.conversation_recall is not None:
                self.conversation_recall.forget_conversations([conversation_id], receipt)
            self._physical_cleanup(receipt)
            self._record(receipt)
        log.info("conversation erased: %d messages, %d recall rows", len(ids),
                 len(receipt.exchange_ids))
        return receipt

    def delete_messages(self, message_ids: Sequence[str]) -> ErasureReceipt:
        """Erase single messages, with their recall rows; the rest of the chat is re-indexed."""
        receipt = ErasureReceipt("delete_messages", iso(self.clock()))
        with self.writing("erasing messages"):
            receipt.touch("sqlite_file").file_bytes_before = self.db.file_bytes()
            conversations = sorted({m.conversation_id for m in
                                    (self.conversations.message(i) for i in message_ids)
                                    if m is not None})
            rows, bytes_ = self.conversations.delete_messages(message_ids)
            receipt.message_ids = list(message_ids)
            touch = receipt.touch("messages")
            touch.rows, touch.content_bytes = rows, bytes_
            if self.conversation_recall is not None:
                self.conversation_recall.forget_messages(list(message_ids), receipt)
                self._resync_recall(conversations)
            self._physical_cleanup(receipt)
            self._record(receipt)
        return receipt

    def recall_switched(self, enabled: bool) -> ErasureReceipt | None:
        """The recall setting changed: off erases the whole recall index; on builds it."""
        if self.conversation_recall is None:
            return None
        if enabled:
            self.conversation_recall.sync()
            return None
        receipt = ErasureReceipt("recall_off", iso(self.clock()))
        with self.writing("erasing the conversation-recall index"):
            self.conversation_recall.erase_all(receipt)
            self._record(receipt)
        return receipt

    def _resync_recall(self, conversation_ids: Sequence[str] | None = None) -> None:
        """Messages changed (erased, redacted): their exchanges are re-indexed and the old
        rows compacted away, so no copy of the erased text stays in the recall index."""
        if self.conversation_recall is not None and self.conversation_recall.enabled:
            self.conversation_recall.sync(conversation_ids)

    def forget_matching(self, description: str, *, erase_messages: bool = True,
                        command_message_id: str | None = None) -> ErasureReceipt:
        """"Esqueça que…/forget…": erase the active memories that match the description.

        The command message itself restates the fact, so copies in it are redacted too.
        """
        wanted = content_terms(description)
        matches = []
        for item in self.search(description, k=5):
            overlap = wanted & content_terms(item.text)
            if wanted and len(overlap) >= max(1, (len(wanted) + 1) // 2):
                matches.append(item.id)
        ids: list[str] = []
        for memory_id in matches:
            ids += [i for i in self.store.chain(memory_id) if i not in ids]
        return self._erase(ids, "forget_command", erase_messages=erase_messages,
                           redact_user_messages=[command_message_id] if command_message_id else [])

    def sweep_expired(self, now: datetime | None = None) -> ErasureReceipt:
        """Erase every item past its retention date (run at start-up and daily)."""
        moment = now or self.clock()
        receipt = self._erase(self.store.expired_ids(iso(moment)), "expired", erase_messages=False)
        if self.conversation_recall is not None and self.conversation_recall.sweep_expired(receipt):
            self._record(receipt)
        return receipt

    def undo_conflicts(self, token: str) -> list[MemoryItem]:
        """Items of an undoable save that changed since (edited, or replaced by a newer
        fact): undoing the save would erase that later change too, so the user is asked."""
        record = self._undo.get(token)
        if record is None:
            raise AppError("This change can no longer be undone.")
        changed = []
        for memory_id, edits in record.edits_at_save.items():
            item = self.store.get(memory_id)
            if item is not None and (item.status != "active"
                                     or len(self.store.edits(memory_id)) > edits):
                changed.append(item)
        return changed

    def undo(self, token: str) -> ErasureReceipt:
        """Undo one save batch: new items are erased, superseded ones restored, merges reverted."""
        record = self.take_undo(token)
        if record is None:
            raise AppError("This change can no longer be undone.")
        with self.writing("undoing a memory change"):
            receipt = self._erase(record.created, "undo", erase_messages=False)
            self._revert(record)  # restores superseded items and merges, purges tombstones
        return receipt

    # --- consent ---

    def set_consent(self, category: str, granted: bool) -> tuple[ConsentRecord,
                                                                 ErasureReceipt | None]:
        """Record consent; withdrawing it erases what was stored under that category."""
        record = self.consents.record(category, granted)
        if granted:
            return record, None
        ids = self.store.ids_in_category(record.category)
        return record, self._erase(ids, "consent_withdrawn", erase_messages=False)

    # --- the one erasure path ---

    def _erase(self, memory_ids: Iterable[str], reason: str, *, erase_messages: bool,
               cleanup: bool = True, redact_user_messages: Sequence[str] = ()) -> ErasureReceipt:
        ids = list(dict.fromkeys(memory_ids))
        receipt = ErasureReceipt(reason, iso(self.clock()), memory_ids=ids)
        if not ids:
            return receipt
        with self.writing("erasing memories"):
            receipt.touch("sqlite_file").file_bytes_before = self.db.file_bytes()
            receipt.touch("lancedb_files").file_bytes_before = self.index.file_bytes()
            items = list(self.store.get_many(ids).values())
            texts = [i.text for i in items] + self.store.old_texts(ids)
            texts += [s.quote for i in items for s in i.sources]
            forms = derived_forms(texts, [i.value for i in items])
            message_ids = sorted({s.message_id for i in items for s in i.sources})
            rows, bytes_ = self.store.tombstone(ids, at=receipt.at)
            touch = receipt.touch("memories")
            touch.rows, touch.content_bytes = rows, bytes_
            index_rows = self.index.delete(ids)
            receipt.touch("memory_index").rows = index_rows
            receipt.touch("memory_index").content_bytes = index_rows * 4 * self.index.dim
            if erase_messages and message_ids:
                rows, bytes_ = self.conversations.delete_messages(message_ids)
                receipt.message_ids = message_ids
                touch = receipt.touch("messages")
                touch.rows, touch.content_bytes = rows, bytes_
                if self.conversation_recall is not None:
                    self.conversation_recall.forget_messages(message_ids, receipt)
            self._scrub_copies(receipt, forms, set(ids))
            if redact_user_messages:
                rows, bytes_ = self.conversations.redact_user_messages(redact_user_messages,
                                                                       forms.needles)
                receipt.touch("messages").rows += rows
                receipt.touch("messages").content_bytes += bytes_
                if rows:
                    self._resync_recall()
            self.discard_undo_for(set(ids))
            if cleanup:
                self._physical_cleanup(receipt)
                self._record(receipt)
        log.info("erasure (%s): %d memories, %d messages, %d rows", reason, len(ids),
                 len(receipt.message_ids), receipt.total_rows)
        return receipt

    def _scrub_copies(self, receipt: ErasureReceipt, forms: Forms, ids: set[str]) -> None:
        rows, bytes_ = self.conversations.redact(forms, ids)
        touch = receipt.touch("traces_and_summaries")
        touch.rows += rows
        touch.content_bytes += bytes_
        if rows:
            self._resync_recall()  # redacted assistant turns: their recall rows change too
        if self.log_dir is not None and self.log_dir.is_dir():
            from desktop_app.privacy.export import log_files

            # not bare numbers or dates: "2026" would erase every timestamp of the log
            words = [n for n in forms.needles
                     if not re.fullmatch(r"[\d\s:./,-]+", n) and len(n) >= 6]
            files, bytes_ = redact_files(log_files(self.log_dir), words)
            if files:
                touch = receipt.touch("log_files")
                touch.rows += files
                touch.content_bytes += bytes_

    def _physical_cleanup(self, receipt: ErasureReceipt) -> None:
        if forget_cached_text():
            receipt.physical_cleanup.append("in-memory text caches emptied")
        self.index.compact()
        receipt.physical_cleanup.append("lancedb: optimize + cleanup of all old versions")
        self.db.vacuum()
        receipt.physical_cleanup.append("sqlite: secure_delete + VACUUM")
        receipt.touch("sqlite_file").file_bytes_after = self.db.file_bytes()
        receipt.touch("lancedb_files").file_bytes_after = self.index.file_bytes()

    def _record(self, receipt: ErasureReceipt) -> None:
        with self.db.transaction() as conn:
            conn.execute("INSERT INTO erasure_receipts(recorded_at, receipt) VALUES (?, ?)",
                         (receipt.at, json.dumps(receipt.to_dict())))
