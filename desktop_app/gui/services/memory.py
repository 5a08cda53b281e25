"""The memory window's services: what Acervo remembers (list, edit, erase, export,
consent, undo) and the earlier chats conversation recall can use; every erasure gives its
receipt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.gui.services.part import ServicePart

if TYPE_CHECKING:
    from desktop_app.memory.erasure import ErasureReceipt
    from desktop_app.memory.recall import RecalledExchange
    from desktop_app.memory.service import MemoryService
    from desktop_app.memory.types import ConsentRecord, MemoryItem, Provenance


class MemoryServices(ServicePart):
    """The user's rights over what is remembered (LGPD), one call each."""

    def service(self) -> MemoryService:
        return self._app.memory

    def memories(self, status: str = "active") -> list[MemoryItem]:
        """What is remembered; "history" adds the older versions: memories a later fact
        replaced, and the earlier wordings of a memory the user edited (each right after
        the memory, newest first, as a "superseded" copy whose `superseded_by` is the
        memory itself and `updated_at` the time of the edit)."""
        service = self.service()
        items = list(service.list_items(status=status))
        if status != "history":
            return items
        out: list[MemoryItem] = []
        for item in items:
            out.append(item)
            edits = service.provenance(item.id).edits
            out += [replace(item, text=edit.old_text, status="superseded",
                            superseded_by=item.id, updated_at=edit.edited_at)
                    for edit in reversed(edits) if edit.old_text]
        return out

    def edit_memory(self, memory_id: str, text: str) -> MemoryItem:
        return self.service().edit(memory_id, text)

    def delete_memory(self, memory_id: str, *, with_messages: bool = False) -> ErasureReceipt:
        """Erase a memory everywhere; `with_messages` also deletes the user's messages that
        stated it (the CLI's `memory delete --with-messages`)."""
        return self.service().delete(memory_id, erase_messages=with_messages)

    def forget_all(self) -> ErasureReceipt:
        return self.service().forget_all()

    def export_memories(self, path: Path) -> Path:
        """Write everything remembered (with provenance and receipts) as JSON."""
        self.service().export_file(path)
        return path

    def provenance(self, memory_id: str) -> Provenance:
        return self.service().provenance(memory_id)

    def consents(self) -> dict[str, ConsentRecord | None]:
        return dict(self.service().consents.state())

    def set_consent(self, category: str,
                    granted: bool) -> tuple[ConsentRecord, ErasureReceipt | None]:
        return self.service().set_consent(category, granted)

    def undo_memory(self, undo_token: str) -> ErasureReceipt:
        return self.service().undo(undo_token)

    def undo_conflicts(self, undo_token: str) -> list[MemoryItem]:
        """Memories of that save changed since (AppError when it can't be undone)."""
        return list(self.service().undo_conflicts(undo_token))

    # ---- conversation recall and erasing chats -------------------------------------
    def recall_switched(self, enabled: bool) -> ErasureReceipt | None:
        """Recall turned off (its index erased, receipt returned) or on (index built)."""
        return self.service().recall_switched(enabled)

    def recalled_exchanges(self, query: str = "") -> list[RecalledExchange]:
        """What conversation recall can use (the memory window's "Conversations" view)."""
        recall = self.service().conversation_recall
        return list(recall.indexed(query)) if recall is not None else []

    def delete_conversation(self, conversation_id: str) -> ErasureReceipt:
        """Erase a conversation everywhere: messages, traces, its conversation-recall rows
        (vectors and keyword entries), then the files; returns the erasure receipt."""
        return self.service().delete_conversation(conversation_id)

    def delete_messages(self, message_ids: list[str]) -> ErasureReceipt:
        """Erase single messages with their recall rows (the chat's rest is re-indexed);
        returns the erasure receipt."""
        return self.service().delete_messages(message_ids)
