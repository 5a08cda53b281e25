"""The chat's services: a turn (`ask`), its after-the-answer job, the conversations list
(stored chats shown again with their badges rebuilt from the index), the search answers
run, shown passage by passage (the Search view, "why not found"), and exports."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.chat.events import ChatEvent, ConversationStarted
from desktop_app.chat.stored import ReloadedMessage, reloaded
from desktop_app.errors import AppError
from desktop_app.gui.services.part import CancelCheck, ServicePart
from desktop_app.retrieval.index_api import ChunkRow

if TYPE_CHECKING:
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.chat.explain import SearchInspection
    from desktop_app.chat.turn import ChatService, ExtractionJob
    from desktop_app.export import ExportDocument, ExportLabels
    from desktop_app.memory.events import MemoryEvent
    from desktop_app.retrieval.index_api import ChunkRow, DocumentIndex, DocumentRecord
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

    def messages(self, conversation_id: str, *,
                 documents: Sequence[DocumentRecord] | None = None) -> list[ReloadedMessage]:
        """Stored messages as the chat shows them again: an answer's badges come back from
        the index (a removed document's are gone), its links only to chats still there.

        With `documents` (the stored library listing, at start-up), the index is not
        opened: a badge gets its document's title, file and page from there, its passage's
        text later (the window shows the chat again once the index is open)."""
        if documents is None:
            return reloaded(self._store(), conversation_id, self._stored_chunk)
        by_id = {record.doc_id: record for record in documents}

        def provisional(library: str, chunk_id: str) -> ChunkRow | None:
            record = by_id.get(chunk_id.rsplit(":", 1)[0]) if library == "local" else None
            if record is None:
                return None
            position = chunk_id.rsplit(":", 1)[-1]
            return ChunkRow(chunk_id, record.doc_id, int(position) if position.isdigit() else 0,
                            "", "", record.title, record.source_path, record.folder,
                            record.file_type, record.language, 0, 0, 0, 0, (),
                            record.ingested_at, record.modified_at)

        return reloaded(self._store(), conversation_id, provisional)

    def _stored_chunk(self, library: str, chunk_id: str) -> ChunkRow | None:
        return self._app.stored_chunk(library, chunk_id)

    # ---- the search, shown ----------------------------------------------------------
    def searched_libraries(self) -> list[str]:
        """The libraries answers search (the settings' choice), "local" first."""
        settings = self._app.settings
        return (["local"] if settings.search_local else []) + [
            t.name for t in settings.team_libraries if t.search]

    def search(self, query: str, *, filters: SearchFilters | None = None,
               library: str = "", look_up_absent: bool = False) -> SearchInspection:
        """The search answers run (or one `library`'s), every passage with what found it;
        the documents the filters and the settings leave out; with `look_up_absent`, the
        query's words that occur nowhere in the libraries (the "why not found")."""
        from desktop_app.chat.explain import inspect_search

        app = self._app
        names = [library] if library else self.searched_libraries()
        if not names:
            raise AppError("No library is searched: turn one on in Settings → Libraries.")
        searcher = app.searcher if not library else app.searcher_for(names)
        every = ["local"] + [t.name for t in app.settings.team_libraries]
        left = [(name, self._size(name)) for name in every if name not in names]
        return inspect_search(searcher, query, libraries=names, filters=filters,
                              documents=self._documents, not_searched=left,
                              look_up_absent=look_up_absent)

    def _documents(self, library: str) -> list[DocumentRecord]:
        index: DocumentIndex = (self._app.index if library == "local"
                                else self._app.team_index(library))
        return list(index.documents())

    def _size(self, library: str) -> int | None:
        """How many documents a library not searched holds (a team one is not connected
        for this: unknown)."""
        return len(self._documents(library)) if library == "local" else None

    # ---- export ---------------------------------------------------------------------
    def export_document(self, conversation_id: str, labels: ExportLabels, *,
                        answers: Collection[str] | None = None,
                        exported_at: str = "") -> ExportDocument:
        """The chat (or only the answers whose message ids are in `answers`) ready to
        export or copy."""
        from desktop_app.export import export_conversation

        app = self._app
        return export_conversation(app.conversations, conversation_id, app.stored_chunk,
                                   documents=app.document_texts, labels=labels,
                                   answers=answers, exported_at=exported_at)

    def export(self, document: ExportDocument, path: Path, fmt: str | None = None) -> Path:
        """Write an export as Markdown, DOCX or PDF (from the suffix unless `fmt`)."""
        from desktop_app.export import write_export

        return write_export(document, path, fmt)
