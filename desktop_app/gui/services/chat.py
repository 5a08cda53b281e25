"""The chat's services: a turn (`ask`), its after-the-answer job, and the conversations
list — stored chats shown again with their badges rebuilt from the index."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop_app.chat.events import ChatEvent, ConversationStarted
from desktop_app.chat.stored import ReloadedMessage, reloaded
from desktop_app.errors import AppError
from desktop_app.gui.services.part import CancelCheck, ServicePart

if TYPE_CHECKING:
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.chat.turn import ChatService, ExtractionJob
    from desktop_app.memory.events import MemoryEvent
    from desktop_app.retrieval.index_api import ChunkRow, DocumentIndex
    from desktop_app.retrieval.types import SearchFilters


@dataclass(frozen=True)
class ConversationInfo:
    id: str
    title: str
    updated_at: str
    messages: int


class ChatServices(ServicePart):
    """Chat turns and the stored conversations. `filters`: the scope chip's (a collection,
    chosen documents), applied to every question until changed; None is the library."""

    filters: SearchFilters | None = None

    def service(self) -> ChatService:
        """The chat layer itself (builds the searcher and the LLM on first use)."""
        return self._app.chat

    def ask(self, conversation_id: str | None, question: str, *, sources_only: bool,
            cancel: CancelCheck, experiment: bool = False) -> Iterator[ChatEvent]:
        """One chat turn: persisted, memory commands applied, answer events streamed.

        Starts a conversation when `conversation_id` is None (`ConversationStarted`
        first). The turn ends with the chat layer's `TurnComplete`, whose implicit
        extraction job the GUI runs in another worker after the answer is shown.
        """
        chat = self.service()
        if conversation_id is None:
            title = " ".join(question.split())[:60]
            conversation_id = chat.new_conversation(title)
            yield ConversationStarted(conversation_id)
        yield from chat.turn(conversation_id, question, sources_only=sources_only,
                             cancel=cancel, experiment=experiment, filters=self.filters)

    def run_extraction(self, job: ExtractionJob | None) -> list[MemoryEvent]:
        """Implicit memory extraction for a finished turn (memory events for the chip)."""
        return list(job.run()) if job is not None else []

    # ---- conversations ------------------------------------------------------------
    def _store(self) -> ConversationStore:
        # the store itself, not through the chat service (which builds the LLM and the
        # searcher): the list and the last chat show before any model is loaded
        return self._app.conversations

    def conversations(self) -> list[ConversationInfo]:
        return [ConversationInfo(str(c["id"]), str(c["title"] or ""), str(c["updated_at"]),
                                 int(c["messages"])) for c in self._store().conversations()]

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        self._store().rename(conversation_id, title)

    def messages(self, conversation_id: str) -> list[ReloadedMessage]:
        """Stored messages as the chat shows them again: an answer's badges come back from
        the index (a removed document's are gone), its links only to chats still there."""
        return reloaded(self._store(), conversation_id, self._stored_chunk)

    def _stored_chunk(self, library: str, chunk_id: str) -> ChunkRow | None:
        """A stored badge's passage as its library holds it now (None: removed since, or
        the team server is unreachable now)."""
        try:
            index: DocumentIndex = (self._app.index if library == "local"
                                    else self._app.team_index(library))
            return index.get_chunk(chunk_id)
        except AppError:
            return None
