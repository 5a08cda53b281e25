"""Composition root: paths → settings → logging → models → services.

The only module that wires concrete classes together. Heavy parts (torch,
LanceDB, llama.cpp) are built lazily on first use so the window and the CLI
start fast.
"""

from __future__ import annotations

import dataclasses
import importlib.abc
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from desktop_app.config.paths import AppPaths, app_paths
from desktop_app.config.settings import Settings, load_settings, save_settings
from desktop_app.errors import AppError, DamagedStoreError
from desktop_app.privacy.airgap import (
    apply_offline_environment,
    install_outbound_guard,
    is_loopback_host,
    url_host,
)

if TYPE_CHECKING:
    from desktop_app.answer.abstain import LibraryFloor
    from desktop_app.answer.llm import LLM
    from desktop_app.answer.rerank import Reranker
    from desktop_app.answer.service import AnswerService
    from desktop_app.chat.conversations import ConversationStore
    from desktop_app.chat.turn import ChatService
    from desktop_app.config.secrets import SecretStore
    from desktop_app.ingest.ocr import OcrEngine
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.library.state import LibraryState
    from desktop_app.memory.recall import RecallService
    from desktop_app.memory.service import MemoryService
    from desktop_app.privacy.logsetup import LoggingHandle
    from desktop_app.retrieval.doc_text import DocumentTexts
    from desktop_app.retrieval.embedder import E5EmbedderBase
    from desktop_app.retrieval.index import LanceIndex
    from desktop_app.retrieval.index_api import ChunkRow, DocumentIndex
    from desktop_app.retrieval.multi import MultiSearcher
    from desktop_app.retrieval.pg_index import PgIndex
    from desktop_app.retrieval.search import DocumentSearcher
    from desktop_app.retrieval.types import Embedder
    from desktop_app.state_db import StateDB

TEAM_RETRY_S = 30.0  # an unreachable team server is not retried on every question


# What `App.apply_settings` rebuilds, by the settings it was built from.
MODEL_PARTS = ("llm", "reranker", "answer_service", "chat")
MODEL_KEYS = frozenset({
    "llm_backend", "models", "active_model", "answer_mode", "sources_only", "n_ctx", "n_threads",
    "ollama_url", "ollama_model", "allow_network", "reranker_enabled", "reranker_path",
    "retrieval_k", "temperature", "max_answer_tokens", "abstention_enabled",
    "abstain_min_margin", "abstain_min_coverage"})
LIBRARY_KEYS = frozenset({"team_libraries", "search_local"})
SEARCH_KEYS = frozenset({"leg_k", "rrf_k", "vector_weight", "keyword_weight"})
EMBEDDER_KEYS = frozenset({"embedder_backend", "embedder_precision", "embed_threads"})
MEMORY_KEYS = frozenset({"memory_enabled", "implicit_extraction", "memory_retention_days"})


@dataclass(frozen=True)
class SettingsChange:
    """What `App.apply_settings` found changed and what it rebuilt."""

    changed: frozenset[str]
    rebuilt: frozenset[str]

    @property
    def models(self) -> bool:
        """The LLM must be loaded again (the window shows its loading bar)."""
        return "llm" in self.rebuilt

    @property
    def libraries(self) -> bool:
        return "team libraries" in self.rebuilt


class App:
    """The wired application; services are created on first access."""

    def __init__(self, paths: AppPaths, settings: Settings, *,
                 embedder: E5EmbedderBase | Embedder | None = None,
                 llm: LLM | None | Literal["from settings"] = "from settings",
                 ocr_engine: OcrEngine | None = None) -> None:
        """`embedder` / `llm` / `ocr_engine`: ready-made parts (tests share one loaded
        embedder and OCR engine; a scripted LLM); otherwise they are built from `settings`
        on first use."""
        self.paths = paths
        self.settings = settings
        if embedder is not None:
            self.__dict__["embedder"] = embedder  # what the cached_property would hold
        if llm != "from settings":
            self.__dict__["llm"] = llm
        if ocr_engine is not None:
            self.__dict__["ocr_engine"] = ocr_engine
        self.log_handle: LoggingHandle | None = None
        self.llm_error: AppError | None = None
        # The window sets this before the embedder is built: ingestion then leaves a core free,
        # and the tokenizer is read in a helper process (retrieval/tokenizer_process.py).
        self.reserve_ui_core = False
        self._team_indexes: dict[str, PgIndex] = {}
        self._team_failures: dict[str, tuple[float, AppError]] = {}

    def close(self) -> None:
        """Release the SQLite state files (the index needs no closing) and forget the services
        built on them (reopened on next use: after `doctor --repair` replaced a damaged file)."""
        for name in ("state_db", "library_state"):
            db = self.__dict__.pop(name, None)
            if db is not None:
                db.close()
        self._forget("conversations", "memory", "chat", "answer_service")

    def state_integrity(self, *, deep: bool = True) -> list[str]:
        """SQLite's own check of the state database (`doctor`); empty when it is sound."""
        from desktop_app.state_db import StateDB

        db = self.__dict__.get("state_db")
        try:
            opened = db or StateDB.open(self.paths.state_db)
        except AppError as exc:
            return [exc.user_message]
        try:
            return opened.integrity_problems(deep=deep)
        finally:
            if db is None:
                opened.close()

    def salvage_state(self) -> list[str]:
        """`doctor --repair` of a damaged state database: set aside (never overwritten), what
        it still holds copied into a new one; the report's lines."""
        from desktop_app.memory.salvage import salvage

        self.close()  # no open handle may write into the file being set aside
        return salvage(self.paths.state_db).lines()

    def save_settings(self) -> None:
        save_settings(self.settings, self.paths.settings_file)

    def start_logging(self, on_uncaught: Callable[..., None] | None = None) -> LoggingHandle:
        """Sanitized logging on every handler (file rotates; retention applied at start)."""
        from desktop_app.privacy.logsetup import install_logging
        from desktop_app.privacy.sanitizer import load_or_create_salt, salt_file

        salt = (load_or_create_salt(salt_file(self.paths.data_dir))
                if self.settings.log_pseudonymize else None)
        self.log_handle = install_logging(
            self.paths.log_dir, self.settings.log_retention_days, self.settings.log_max_bytes,
            hash_salt=salt, on_uncaught=on_uncaught)
        return self.log_handle

    def reset_models(self) -> None:
        """Forget the loaded LLM/reranker after a settings change (`models use`, dialog)."""
        self._forget(*MODEL_PARTS)

    def built(self, part: str) -> object | None:
        """A part already built (`"embedder"`, `"llm"`, …) or None: asking does not build it."""
        return self.__dict__.get(part)

    def _forget(self, *parts: str) -> None:
        for name in parts:
            self.__dict__.pop(name, None)

    def apply_settings(self, new: Settings) -> SettingsChange:
        """Make `new` the live settings (the same object every service reads) and rebuild
        only what was built from a value that changed: the LLM, reranker and answer service
        for model keys; the searcher and team connections for library keys; the chat turn
        (which holds memory only while memory is on) for memory keys; the embedder for
        embedder keys. Not saved here (`save_settings`)."""
        old = dataclasses.replace(self.settings)
        for f in dataclasses.fields(Settings):
            setattr(self.settings, f.name, getattr(new, f.name))
        changed = frozenset(f.name for f in dataclasses.fields(Settings)
                            if getattr(old, f.name) != getattr(new, f.name))
        rebuilt: set[str] = set()
        if changed & LIBRARY_KEYS:
            self.reset_team_libraries()
            rebuilt |= {"team libraries", "searcher"}
        if changed & SEARCH_KEYS:
            self._forget("searcher", *MODEL_PARTS)
            rebuilt |= {"searcher", "answer_service", "chat"}
        if changed & EMBEDDER_KEYS:
            self._forget("embedder", "searcher", "memory", *MODEL_PARTS)
            self.reset_index()  # reopened for the new embedder id
            rebuilt |= {"embedder", "searcher", "memory", "index", *MODEL_PARTS}
        if changed & MODEL_KEYS:
            self.reset_models()
            rebuilt |= set(MODEL_PARTS)
        if changed & MEMORY_KEYS:
            self._forget("chat")
            rebuilt.add("chat")
        return SettingsChange(changed, frozenset(rebuilt))

    @cached_property
    def embedder(self) -> E5EmbedderBase:
        """The ONNX embedder (prepared once from the local weights) or the torch path."""
        from desktop_app.modelprep import open_embedder

        s = self.settings
        embedder = open_embedder(self.paths.models_dir, backend=s.embedder_backend,
                                 precision=s.embedder_precision, threads=s.embed_threads,
                                 reserve_ui_core=self.reserve_ui_core)
        if self.reserve_ui_core:  # the window's process: key presses need the interpreter lock
            embedder.tokenize_in_helper_process()
        return embedder

    @property
    def index(self) -> LanceIndex:
        """The active index generation; re-opened when another process switched it (reindex)."""
        from desktop_app.retrieval.index import LanceIndex, current_generation

        opened: LanceIndex | None = self.__dict__.get("_index")
        if opened is not None and (self.__dict__.get("_index_pinned") or opened.directory.name
                                   == current_generation(self.paths.index_dir)):
            return opened
        fresh = LanceIndex.open(self.paths.index_dir, embedder_id=self.embedder.id,
                                dim=self.embedder.dim)
        self.__dict__["_index"] = fresh
        return fresh

    def use_index(self, index: LanceIndex) -> None:
        """Search and answer from `index` (an evaluation corpus), not the data folder's."""
        self.reset_index()
        self.__dict__.update(_index=index, _index_pinned=True)

    def reset_index(self) -> None:
        """Re-open the index after a generation switch (reindex)."""
        for name in ("_index", "_pipeline", "local_searcher", "searcher", "document_texts"):
            self.__dict__.pop(name, None)

    @cached_property
    def local_searcher(self) -> DocumentSearcher:
        from desktop_app.retrieval.search import HybridSearcher

        return HybridSearcher(self.index, self.embedder, self.settings,
                              index_provider=lambda: self.index)

    def stored_chunk(self, library: str, chunk_id: str) -> ChunkRow | None:
        """A stored badge's passage as its library holds it now (None: removed since, or
        the team server is unreachable): reopened chats and exports rebuild badges with it."""
        try:
            index: DocumentIndex = self.index if library == "local" else self.team_index(library)
            return index.get_chunk(chunk_id)
        except AppError:
            return None

    @cached_property
    def ocr_engine(self) -> OcrEngine:
        from desktop_app.ingest.ocr import OcrEngine

        return OcrEngine()  # its models load on the first scanned page

    @cached_property
    def searcher(self) -> DocumentSearcher | MultiSearcher:
        """The local library, or every library the settings search (fused), embedded once."""
        names = (["local"] if self.settings.search_local else []) + [
            t.name for t in self.settings.team_libraries if t.search]
        if names in ([], ["local"]):
            return self.local_searcher
        return self.searcher_for(names)

    def searcher_for(self, names: list[str]) -> DocumentSearcher | MultiSearcher:
        """A searcher over the named libraries ("local" is this computer's)."""
        from desktop_app.retrieval.multi import MultiSearcher, SearcherProvider

        if names == ["local"]:
            return self.local_searcher

        def provider(name: str) -> SearcherProvider:
            if name == "local":
                return lambda: self.local_searcher
            return lambda: self.team_searcher(name)

        return MultiSearcher([(name, provider(name)) for name in names], self.embedder,
                             self.settings)

    # ---- team libraries --------------------------------------------------------------
    @cached_property
    def secrets(self) -> SecretStore:
        from desktop_app.config.secrets import SecretStore

        return SecretStore(self.paths.data_dir)

    def team_index(self, name: str) -> PgIndex:
        """The named team library, connected as the user (raises AppError when unreachable;
        a failure is remembered for a few seconds so questions do not wait on it each time)."""
        if name in self._team_indexes:
            return self._team_indexes[name]
        failed = self._team_failures.get(name)
        if failed and time.monotonic() - failed[0] < TEAM_RETRY_S:
            raise failed[1]
        from desktop_app.team.connection import find_library, open_team_index

        try:
            index = open_team_index(find_library(self.settings, name), secrets=self.secrets,
                                    embedder_id=self.embedder.id)
        except AppError as exc:
            self._team_failures[name] = (time.monotonic(), exc)
            raise
        self._team_failures.pop(name, None)
        self._team_indexes[name] = index
        return index

    def team_searcher(self, name: str) -> DocumentSearcher:
        from desktop_app.retrieval.search import HybridSearcher

        return HybridSearcher(self.team_index(name), self.embedder, self.settings)

    def team_pipeline(self, name: str) -> IngestPipeline:
        from desktop_app.ingest.pipeline import IngestPipeline

        return IngestPipeline(self.team_index(name), self.embedder, self.settings,
                              self.ocr_engine, journal=self.library_state.journal(name))

    def eval_team_index(self, source: LanceIndex, *, collection: str, url: str | None,
                        ranking: str, progress: Callable[[int, int], None] | None = None
                        ) -> PgIndex:
        """The evaluation corpus copied into a team collection (a trial server in the cache
        folder when no owner URL is given), read back as an analyst would."""
        from desktop_app.team.evaluation import EVAL_USER, eval_server_urls, open_eval_team_index

        if url:
            from psycopg.conninfo import conninfo_to_dict, make_conninfo

            params = {k: v for k, v in conninfo_to_dict(url).items() if k != "password"}
            admin_url, user_url = url, make_conninfo("", **{**params, "user": EVAL_USER})
        else:
            admin_url, user_url, _server = eval_server_urls(self.paths.cache_dir)
        return open_eval_team_index(
            source, collection=collection, admin_url=admin_url, user_url=user_url,
            embedder_id=self.embedder.id, dim=self.embedder.dim, ranking=ranking,
            progress=progress)

    def reset_team_libraries(self) -> None:
        """Close team connections after the libraries changed in the settings."""
        for index in self._team_indexes.values():
            index.close()
        self._team_indexes.clear()
        self._team_failures.clear()
        self.__dict__.pop("searcher", None)

    @property
    def pipeline(self) -> IngestPipeline:
        from desktop_app.ingest.pipeline import IngestPipeline

        index = self.index
        built: IngestPipeline | None = self.__dict__.get("_pipeline")
        if built is None or built.index is not index:
            built = self.__dict__["_pipeline"] = IngestPipeline(
                index, self.embedder, self.settings, self.ocr_engine,
                index_provider=lambda: self.index, journal=self.library_state.journal())
        return built

    @cached_property
    def library_state(self) -> LibraryState:
        """The library's own state: unfinished runs, each file's status, watched folders,
        collections, the measured embedding rate (library/state.py)."""
        from desktop_app.library.state import FILE_NAME, LibraryState

        return LibraryState(self.paths.data_dir / FILE_NAME)

    @cached_property
    def llm(self) -> LLM | None:
        """The active local model (header validated; weights load on first use)."""
        from desktop_app.answer.llm import build_llm

        return build_llm(self.settings)

    @cached_property
    def reranker(self) -> Reranker | None:
        from desktop_app.answer.rerank import build_reranker

        return build_reranker(self.settings)

    @cached_property
    def answer_service(self) -> AnswerService:
        """Answers with citations; without a usable LLM it still answers from sources only."""
        from desktop_app.answer.service import AnswerService

        try:
            llm, self.llm_error = self.llm, None
        except AppError as exc:
            llm, self.llm_error = None, exc
        try:
            reranker = self.reranker
        except AppError:
            reranker = None  # the fused order stands; `doctor` reports the problem
        try:
            memory = self.memory if self.settings.memory_enabled else None
            recall = self.recall
        except DamagedStoreError as exc:  # documents still answer; the user is told once
            from desktop_app.locking import notify

            notify(exc.user_message)
            memory = recall = None
        return AnswerService(self.searcher, llm, self.settings, memory=memory,
                             reranker=reranker, llm_error=self.llm_error,
                             embedder=self.embedder, library=self.library_floor,
                             recall=recall, documents=self.document_texts)

    @cached_property
    def document_texts(self) -> DocumentTexts:
        """Documents rebuilt from their stored chunks, for answers that quote whole units of
        a law (answer/units.py), in whichever library they live."""
        from desktop_app.retrieval.doc_text import DocumentTexts

        def load(library: str, doc_id: str) -> list[Any]:
            index = self.index if library == "local" else self.team_index(library)
            return index.document_chunks(doc_id)

        return DocumentTexts(load)

    @cached_property
    def library_floor(self) -> LibraryFloor:
        """What off-topic questions score in this library (abstention is relative to it)."""
        from desktop_app.answer.abstain import LibraryFloor

        def best_similarity(vector: Any) -> float | None:
            rows = self.index.search_vector(vector, 1, None)
            return rows[0].score if rows else None  # the cosine of the closest passage

        return LibraryFloor(self.embedder, best_similarity, lambda: self.index.chunk_count(),
                            cache_file=self.paths.cache_dir / "abstention-probes.json")

    @cached_property
    def state_db(self) -> StateDB:
        """The SQLite file for conversations, memories, consents and receipts."""
        from desktop_app.state_db import StateDB

        return StateDB.open(self.paths.state_db)

    @cached_property
    def conversations(self) -> ConversationStore:
        from desktop_app.chat.conversations import ConversationStore

        store = ConversationStore(self.state_db)
        # messages the store erases on its own (a removed document's quotes) leave the
        # conversation-recall index too (opened only then)
        store.on_erasure(lambda conversation_ids: self.recall.after_erasure(conversation_ids))
        return store

    @cached_property
    def memory(self) -> MemoryService:
        """What the user told us: SQLite state + a LanceDB search table; LGPD rights API."""
        from desktop_app.answer.models import BUNDLED_NAME
        from desktop_app.memory.extraction import llm_for_extraction
        from desktop_app.memory.service import MemoryService

        s = self.settings
        service = MemoryService(self.state_db, self.paths.memory_index_dir, lambda: self.embedder,
                                conversations=self.conversations,
                                retention_days=s.memory_retention_days,
                                enabled=s.memory_enabled, implicit=s.implicit_extraction,
                                llm_provider=lambda: llm_for_extraction(
                                    self._llm_or_none(), too_small={BUNDLED_NAME}),
                                settings=s, log_dir=self.paths.log_dir)
        service.conversation_recall = self._recall_for(service)
        return service

    def _recall_for(self, memory: MemoryService) -> RecallService:
        from desktop_app.memory.recall import RecallService

        return RecallService(memory.db, self.paths.data_dir / "recall", lambda: self.embedder,
                             conversations=self.conversations, settings=self.settings)

    @property
    def recall(self) -> RecallService:
        """Conversation recall: earlier chats searchable beside profile memories."""
        recall = self.memory.conversation_recall
        assert recall is not None
        return recall

    def _llm_or_none(self) -> LLM | None:
        try:
            return self.llm
        except AppError:
            return None

    @cached_property
    def chat(self) -> ChatService:
        """One chat turn: persisted, memory commands applied, answer streamed."""
        from desktop_app.chat.turn import ChatService

        return ChatService(self.conversations, self.answer_service, self.memory,
                           recall=self.recall)



class SkipProbeImports(importlib.abc.MetaPathFinder):
    """Refuse torch/transformers to libraries that import them only to probe or for unused paths.

    Whenever torch is installed, presidio's device detector and spaCy's thinc (pulled in by
    presidio) import it just to ask for a GPU, and presidio imports transformers (which imports
    torch) for an NLP engine Acervo never uses: ~6 s and ~400 MB on every start, although the
    app embeds with onnxruntime and finds PII with patterns only. All three treat ImportError as
    "not installed" and carry on as before. Any other importer (the torch embedder, the
    first-run ONNX export, the reranker) gets the real module.
    """

    # module -> importers (exact names, or prefixes ending in ".") that do not get it
    REFUSED = {
        "torch": ("thinc.compat", "presidio_analyzer."),
        "transformers": ("presidio_analyzer.",),
    }

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        importers = self.REFUSED.get(fullname)
        if importers is None:
            return None
        frame = sys._getframe(1)
        while frame is not None:
            name = str(frame.f_globals.get("__name__", ""))
            if any(name == i or (i.endswith(".") and name.startswith(i)) for i in importers):
                raise ModuleNotFoundError(f"{fullname} is not needed here", name=fullname)
            frame = frame.f_back  # type: ignore[assignment]
        return None


def skip_probe_imports() -> None:
    if not any(isinstance(f, SkipProbeImports) for f in sys.meta_path):
        sys.meta_path.insert(0, SkipProbeImports())


def build_app(paths: AppPaths | None = None, *, settings: Settings | None = None,
              embedder: E5EmbedderBase | Embedder | None = None,
              llm: LLM | None | Literal["from settings"] = "from settings",
              ocr_engine: OcrEngine | None = None) -> App:
    """The one composition root: the CLI, the window, `--self-test` and the tests call it.
    `settings` replaces the saved settings for this process (not written back);
    `embedder` / `llm` / `ocr_engine` inject ready parts (see `App`)."""
    apply_offline_environment()  # before anything imports huggingface/tldextract
    skip_probe_imports()  # torch stays out of the running app unless something needs it
    paths = (paths or app_paths()).ensure()
    from desktop_app.migrations import migrate_data_dir

    migrate_data_dir(paths)  # upgrades older stores step by step; refuses newer ones
    settings = settings if settings is not None else load_settings(paths.settings_file)
    guard = install_outbound_guard()  # non-loopback sockets opened from Python are refused
    if settings.allow_network and settings.llm_backend == "ollama":
        host = url_host(settings.ollama_url)
        if host and not is_loopback_host(host):
            guard.allow_host(host)  # the user explicitly allowed a remote Ollama
    if settings.team_libraries:
        from desktop_app.team.connection import open_guard_for

        open_guard_for(settings, guard)  # team servers the user allowed, and only those
    return App(paths, settings, embedder=embedder, llm=llm, ocr_engine=ocr_engine)
