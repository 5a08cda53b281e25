"""The one place where the GUI talks to the core services (Qt-free on purpose).

Every method here is plain Python: generators of service events or blocking calls,
typed with the services' own types (no `Any`: what crosses into the window is written
down here — `ChatEvent`, `IngestEvent`, `AnswerMode`, receipts…).
The GUI runs them through `workers.WorkerSet`, never on the GUI thread, because the
first touch of `app.embedder`, `app.index`, `app.llm`… loads models. When the
composition root grows a service (`App.answer_service`, `App.memory`, `App.chat`),
only this module changes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.chat.events import ChatEvent, ConversationStarted
from desktop_app.errors import AppError
from desktop_app.ingest.pathnames import display_path, path_from_key

if TYPE_CHECKING:
    from desktop_app.answer.events import Done, RecallUsed
    from desktop_app.answer.llm import LLM
    from desktop_app.answer.mode import AnswerMode
    from desktop_app.answer.service import AnswerService
    from desktop_app.app import App, SettingsChange
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.chat.turn import ChatService, ExtractionJob
    from desktop_app.config.settings import Settings, TeamLibrary
    from desktop_app.ingest.events import IngestEvent
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.memory.erasure import ErasureReceipt
    from desktop_app.memory.events import MemoryEvent
    from desktop_app.memory.recall import RecalledExchange
    from desktop_app.memory.service import MemoryService
    from desktop_app.memory.types import ConsentRecord, MemoryItem, Provenance, StoredMessage
    from desktop_app.retrieval.index_api import ChunkRow, DocumentIndex, DocumentRecord
    from desktop_app.retrieval.reindex import ReindexProgress

log = logging.getLogger(__name__)

CancelCheck = Callable[[], bool]


@dataclass(frozen=True)
class ModelLoadState:
    """Start-up progress of one component, shown in the status bar."""

    component: str  # "embedder" | "index" | "llm" | "memory"
    # "loading" | "ready" | "unavailable" | "off"; for the LLM also "sources": a model is
    # there but does not write answers (too small, or the user chose sources-only)
    state: str
    detail: str = ""
    mode: AnswerMode | None = None  # the LLM's answer mode, once decided


@dataclass(frozen=True)
class ShownMessage:
    """A stored message as the chat shows it again (`GuiServices.messages`)."""

    message: StoredMessage
    answer: Done | None = None  # an assistant message: its answer, badges rebuilt
    recalled: tuple[RecallUsed, ...] = ()  # the earlier chats it drew on, still there


@dataclass(frozen=True)
class IndexSummary:
    documents: int
    chunks: int
    bytes: int
    embedder_id: str
    embedder_matches: bool
    mismatch_message: str = ""
    library: str = "local"


@dataclass(frozen=True)
class RemovalSummary:
    documents: int
    answers_erased: int  # chat answers that quoted them, erased (purge chosen)
    answers_quoting: int  # chat answers that still quote them (purge not chosen)


@dataclass(frozen=True)
class ConversationInfo:
    id: str
    title: str
    updated_at: str
    messages: int


class GuiServices:
    """Adapter between the window and `desktop_app.app.App`."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.current_library = "local"  # the library the Library panel shows and adds to

    # ---- start-up -----------------------------------------------------------------
    def load_models(self, cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Open the index, load the embedder, prepare the LLM; one state per step.

        The index comes first: opening it needs only the embedder's id and dimension (its
        config files), not torch, so the library list shows within a second of the window
        while the embedder still loads (seconds to tens of seconds on a busy laptop)."""
        yield ModelLoadState("index", "loading")
        _ = self.app.index
        yield ModelLoadState("index", "ready")
        if cancel():
            return
        yield ModelLoadState("embedder", "loading")
        embedder = self.app.embedder
        embedder.embed_query("warm-up")  # the first call pays torch's lazy start-up (seconds)
        yield ModelLoadState("embedder", "ready", embedder.id)
        if cancel():
            return
        yield from self.load_llm(cancel)
        if cancel():
            return
        try:
            memory = self._memory_service()
            _ = memory.index  # opens (and if needed re-embeds) the memory index
            memory.sweep_expired()  # retention: expired memories are erased at start-up
            yield ModelLoadState("memory", "ready")
        except AppError as exc:
            yield ModelLoadState("memory", "unavailable", exc.user_message)

    def load_llm(self, _cancel: CancelCheck) -> Iterator[ModelLoadState]:
        """Build the LLM the settings select, decide the answer mode, and load the weights
        only when the model will write (a small model stays unloaded until an experiment)."""
        yield ModelLoadState("llm", "loading", self.active_model_name())
        llm, error = self._llm()
        mode = self.answer_mode(llm, error)
        if llm is None and error is None:
            yield ModelLoadState("llm", "off", mode=mode)  # the user chose sources-only answers
        elif llm is None:
            yield ModelLoadState("llm", "unavailable", error.user_message if error else "",
                                 mode=mode)
        elif not mode.use_llm:
            yield ModelLoadState("llm", "sources", llm.name, mode=mode)
        else:
            try:
                _ = getattr(llm, "llama", None)  # llama.cpp loads its weights on first access
                yield ModelLoadState("llm", "ready", llm.name, mode=mode)
            except AppError as exc:
                from desktop_app.answer.mode import MODEL_ERROR, AnswerMode

                yield ModelLoadState("llm", "unavailable", exc.user_message,
                                     mode=AnswerMode(False, MODEL_ERROR, llm.name,
                                                     detail=exc.user_message))

    def answer_mode(self, llm: LLM | None = None, error: AppError | None = None) -> AnswerMode:
        """Who writes answers with the current settings. Reads GGUF headers (or asks
        Ollama its size): call it from a worker."""
        from desktop_app.answer.mode import decide_mode

        if llm is None and error is None:
            llm, error = self._llm()
        return decide_mode(llm, self.app.settings, llm_error=error)

    def active_model_name(self) -> str:
        """Name of the model the settings select, without loading anything."""
        settings = self.app.settings
        if settings.llm_backend == "none":
            return ""
        if settings.llm_backend == "ollama":
            return f"ollama:{settings.ollama_model}"
        from desktop_app.answer.models import BUNDLED_NAME

        return settings.active_model or BUNDLED_NAME

    def loaded_embedder_id(self) -> str:
        """The embedder's id once loaded ("" before: the settings dialog must not load it)."""
        embedder = self.app.built("embedder")
        return str(getattr(embedder, "id", ""))

    def is_air_gapped(self) -> bool:
        """False when an Ollama server or a team server on another computer is allowed."""
        return not self.network_destinations()

    def network_destinations(self) -> list[tuple[str, str]]:
        """(what, host) for every server on another computer the user allowed."""
        from desktop_app.privacy.airgap import is_loopback_host, url_host

        settings = self.app.settings
        out: list[tuple[str, str]] = []
        if settings.llm_backend == "ollama" and settings.allow_network:
            host = url_host(settings.ollama_url)
            if host and not is_loopback_host(host):
                out.append(("Ollama", host))
        if settings.team_libraries:
            from desktop_app.team.connection import allowed_destinations

            out += allowed_destinations(settings)
        return out

    # ---- libraries ----------------------------------------------------------------
    def library_names(self) -> list[str]:
        """"local" first, then the team libraries of the settings."""
        return ["local"] + [t.name for t in self.app.settings.team_libraries]

    def set_library(self, name: str) -> None:
        self.current_library = name if name in self.library_names() else "local"

    def library_read_only(self) -> bool:
        return any(t.name == self.current_library and t.read_only
                   for t in self.app.settings.team_libraries)

    def _index(self) -> DocumentIndex:
        if self.current_library == "local":
            return self.app.index
        return self.app.team_index(self.current_library)

    def _pipeline(self) -> IngestPipeline:
        if self.current_library == "local":
            return self.app.pipeline
        return self.app.team_pipeline(self.current_library)

    def test_library(self, library: TeamLibrary, password: str | None) -> str:
        """Connect with these (unsaved) details; a line for the user, or AppError."""
        from desktop_app.privacy.airgap import current_guard
        from desktop_app.team.connection import network_hosts, open_team_index

        guard = current_guard()
        opened = [h for h in network_hosts(library.url)
                  if library.allow_network and guard is not None and not guard.is_allowed(h)]
        for host in opened:
            guard.allow_host(host)  # type: ignore[union-attr]
        try:
            index = open_team_index(library, secrets=None if password else self.app.secrets,
                                    embedder_id=self.app.embedder.id, password=password)
            stats = index.stats()
            index.close()
        finally:
            for host in opened:
                guard.disallow_host(host)  # type: ignore[union-attr]
        return f"{stats.location}: {stats.documents} documents you can read"

    def rename_library_passwords(self, renamed: dict[str, str]) -> None:
        """A renamed library keeps its stored password (new name → old name)."""
        from desktop_app.team.connection import secret_key

        for new, old in renamed.items():
            password = self.app.secrets.get(secret_key(old))
            if password:
                self.app.secrets.set(secret_key(new), password)
            self.app.secrets.delete(secret_key(old))

    def store_library_password(self, name: str, password: str | None) -> None:
        from desktop_app.team.connection import secret_key

        if password:
            self.app.secrets.set(secret_key(name), password)
        else:
            self.app.secrets.delete(secret_key(name))
        self.app.reset_team_libraries()  # the next search connects with the new password

    # ---- library ------------------------------------------------------------------
    def index_summary(self) -> IndexSummary:
        index = self._index()
        stats = index.stats()
        return IndexSummary(stats.documents, stats.chunks, stats.bytes, stats.embedder_id,
                            index.vector_usable,
                            "" if index.vector_usable else index.mismatch_message(),
                            library=self.current_library)

    def documents(self) -> list[DocumentRecord]:
        return list(self._index().documents())

    def ingest(self, paths: Sequence[Path], cancel: CancelCheck) -> Iterator[IngestEvent]:
        team = self.current_library != "local"  # a team library is never pruned
        return self._pipeline().run(list(paths), cancel=cancel, prune_missing=not team)

    def remove_document(self, doc_id: str) -> None:
        self._pipeline().remove_document(doc_id)

    def remove_documents(self, doc_ids: Sequence[str], *, purge_chats: bool) -> RemovalSummary:
        """Remove documents; with `purge_chats`, also the chat answers that quote them
        (else count how many still do, so the window can say so)."""
        removed = erased = quoting = 0
        conversations = self._conversation_store()
        for doc_id in doc_ids:
            # to recognise quotes, before it goes
            passages = [c.text for c in self.app.index.document_chunks(doc_id)]
            if self.app.pipeline.remove_document(doc_id) is not None:
                removed += 1
            if purge_chats:
                erased += conversations.purge_document(doc_id, passages)[0]
            else:
                quoting += len(conversations.document_quotes(doc_id, passages))
        return RemovalSummary(removed, erased, quoting)

    def reingest_document(self, doc_id: str, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """Index one document again from its file (remove, then ingest)."""
        record = self._index().document(doc_id)
        if record is None:
            raise AppError("This document is no longer in the library.")
        source = path_from_key(record.source_path)  # the real bytes of a non-UTF-8 name
        if not source.is_file():
            raise AppError(f"The original file is gone: {display_path(record.source_path)}")
        pipeline = self._pipeline()
        pipeline.remove_document(doc_id)
        yield from pipeline.run([source], cancel=cancel, prune_missing=False)

    def reindex(self, cancel: CancelCheck) -> Iterator[ReindexProgress]:
        """Blue/green rebuild with the current embedder; the new index is active after."""
        from desktop_app.retrieval.reindex import reindex

        for progress in reindex(self.app.paths.index_dir, self.app.index, self.app.embedder,
                                cancel=cancel):
            if progress.stage == "done":  # the app opens the new generation before it is said
                self.app.reset_index()
                _ = self.app.index
            yield progress

    def sample_documents(self) -> list[Path]:
        from desktop_app.config.paths import resource

        folder = resource("samples")
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))

    def load_text_pages(self, source_path: str, library: str = "local",
                        doc_id: str = "") -> list[str]:
        """Clean page texts of a document (the text chunk offsets refer to); for a team
        library's document whose file is not on this computer, its stored text."""
        from desktop_app.ingest.loaders import load_document

        if path_from_key(source_path).is_file() or library == "local":
            document = load_document(path_from_key(source_path))
            return [page.text for page in document.pages]
        from desktop_app.retrieval.index_api import stored_pages

        return stored_pages(self.app.team_index(library).document_chunks(doc_id))

    # ---- answering ----------------------------------------------------------------
    def _llm(self) -> tuple[LLM | None, AppError | None]:
        try:
            return self.app.llm, None
        except AppError as exc:
            return None, exc

    def answer_service(self) -> AnswerService:
        return self.app.answer_service

    def chat_service(self) -> ChatService:
        return self.app.chat

    def ask(self, conversation_id: str | None, question: str, *, sources_only: bool,
            cancel: CancelCheck, experiment: bool = False) -> Iterator[ChatEvent]:
        """One chat turn: persisted, memory commands applied, answer events streamed.

        Starts a conversation when `conversation_id` is None (`ConversationStarted`
        first). The turn ends with the chat layer's `TurnComplete`, whose implicit
        extraction job the GUI runs in another worker after the answer is shown.
        """
        chat = self.chat_service()
        if conversation_id is None:
            title = " ".join(question.split())[:60]
            conversation_id = chat.new_conversation(title)
            yield ConversationStarted(conversation_id)
        yield from chat.turn(conversation_id, question, sources_only=sources_only,
                             cancel=cancel, experiment=experiment)

    def run_extraction(self, job: ExtractionJob | None) -> list[MemoryEvent]:
        """Implicit memory extraction for a finished turn (memory events for the chip)."""
        return list(job.run()) if job is not None else []

    def recall_switched(self, enabled: bool) -> ErasureReceipt | None:
        """Recall turned off (its index erased, receipt returned) or on (index built)."""
        return self._memory_service().recall_switched(enabled)

    def apply_settings(self, new: Settings) -> SettingsChange:
        """The edited settings become live (`App.apply_settings` rebuilds what depends on
        them); the outbound guard follows the servers the user now allows."""
        from desktop_app.privacy.airgap import current_guard

        change = self.app.apply_settings(new)
        guard = current_guard()
        if guard is not None:
            allowed = {host for _what, host in self.network_destinations()}
            for host in guard.allowed_hosts - allowed:
                guard.disallow_host(host)  # a server the user no longer allows
            for host in allowed:
                guard.allow_host(host)
        self.set_library(self.current_library)  # "local" when it was removed
        return change

    # ---- conversations ------------------------------------------------------------
    def conversations(self) -> list[ConversationInfo]:
        store = self._conversation_store()
        return [ConversationInfo(str(c["id"]), str(c["title"] or ""), str(c["updated_at"]),
                                 int(c["messages"])) for c in store.conversations()]

    def rename_conversation(self, conversation_id: str, title: str) -> None:
        self._conversation_store().rename(conversation_id, title)

    def delete_conversation(self, conversation_id: str) -> ErasureReceipt:
        """Erase a conversation everywhere: messages, traces, its conversation-recall rows
        (vectors and keyword entries), then the files; returns the erasure receipt."""
        return self._memory_service().delete_conversation(conversation_id)

    def delete_messages(self, message_ids: list[str]) -> ErasureReceipt:
        """Erase single messages with their recall rows (the chat's rest is re-indexed);
        returns the erasure receipt."""
        return self._memory_service().delete_messages(message_ids)

    def recalled_exchanges(self, query: str = "") -> list[RecalledExchange]:
        """What conversation recall can use (the memory panel's "Conversations" view)."""
        recall = self._memory_service().conversation_recall
        return list(recall.indexed(query)) if recall is not None else []

    def messages(self, conversation_id: str) -> list[ShownMessage]:
        """Stored messages as the chat shows them again: an answer's badges come back from
        the index (a removed document's are gone), its links only to chats still there."""
        from desktop_app.chat.stored import recalled_chats, stored_answer

        store = self._conversation_store()
        shown: list[ShownMessage] = []
        existing: set[str] | None = None
        for message in store.messages(conversation_id):
            if message.role != "assistant":
                shown.append(ShownMessage(message))
                continue
            recalled: tuple[RecallUsed, ...] = ()
            if message.trace and message.trace.get("recall"):
                # "From your chat of …" links only to chats that still exist
                if existing is None:
                    existing = {str(c["id"]) for c in store.conversations()}
                recalled = recalled_chats(message.trace, existing)
            answer = stored_answer(message.content, message.trace, self._stored_chunk)
            shown.append(ShownMessage(message, answer, recalled))
        return shown

    def _stored_chunk(self, library: str, chunk_id: str) -> ChunkRow | None:
        """A stored badge's passage as the library holds it now (None: removed since, or the
        team server is unreachable now)."""
        try:
            index: DocumentIndex = (self.app.index if library == "local"
                                    else self.app.team_index(library))
            return index.get_chunk(chunk_id)
        except AppError:
            return None

    def _conversation_store(self) -> ConversationStore:
        # the store itself, not through the chat service (which builds the LLM and the
        # searcher): the list and the last chat show before any model is loaded
        return self.app.conversations

    # ---- memory -------------------------------------------------------------------
    def _memory_service(self) -> MemoryService:
        return self.app.memory

    def memories(self, status: str = "active") -> list[MemoryItem]:
        return list(self._memory_service().list_items(status=status))

    def edit_memory(self, memory_id: str, text: str) -> MemoryItem:
        return self._memory_service().edit(memory_id, text)

    def delete_memory(self, memory_id: str, *, with_messages: bool = False) -> ErasureReceipt:
        """Erase a memory everywhere; `with_messages` also deletes the user's messages that
        stated it (the CLI's `memory delete --with-messages`)."""
        return self._memory_service().delete(memory_id, erase_messages=with_messages)

    def forget_all(self) -> ErasureReceipt:
        return self._memory_service().forget_all()

    def export_memories(self, path: Path) -> Path:
        """Write everything remembered (with provenance and receipts) as JSON."""
        import json

        data = self._memory_service().export()
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str),
                       encoding="utf-8")
        tmp.replace(path)
        return path

    def provenance(self, memory_id: str) -> Provenance:
        return self._memory_service().provenance(memory_id)

    def consents(self) -> dict[str, ConsentRecord | None]:
        return dict(self._memory_service().consents.state())

    def set_consent(self, category: str,
                    granted: bool) -> tuple[ConsentRecord, ErasureReceipt | None]:
        return self._memory_service().set_consent(category, granted)

    def undo_memory(self, undo_token: str) -> ErasureReceipt:
        return self._memory_service().undo(undo_token)

    def undo_conflicts(self, undo_token: str) -> list[MemoryItem]:
        """Memories of that save changed since (AppError when it can't be undone)."""
        return list(self._memory_service().undo_conflicts(undo_token))
