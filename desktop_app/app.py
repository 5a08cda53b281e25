"""Composition root: paths → settings → logging → models → services.

The only module that wires concrete classes together. Heavy parts (torch,
LanceDB, llama.cpp) are built lazily on first use so the window and the CLI
start fast.
"""

from __future__ import annotations

import os
import sys
import urllib.parse
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING

from desktop_app.config.paths import AppPaths, app_paths
from desktop_app.config.settings import Settings, load_settings, save_settings
from desktop_app.errors import AppError
from desktop_app.privacy.airgap import (
    apply_offline_environment,
    install_outbound_guard,
    is_loopback_host,
)

if TYPE_CHECKING:
    from desktop_app.answer.llm import LLM
    from desktop_app.answer.rerank import Reranker
    from desktop_app.answer.service import AnswerService
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.memory.chat import ChatService
    from desktop_app.memory.conversations import ConversationStore
    from desktop_app.memory.service import MemoryService
    from desktop_app.privacy.logsetup import LoggingHandle
    from desktop_app.retrieval.embedder import E5Embedder
    from desktop_app.retrieval.index import LanceIndex
    from desktop_app.retrieval.search import HybridSearcher


class App:
    """The wired application; services are created on first access."""

    def __init__(self, paths: AppPaths, settings: Settings) -> None:
        self.paths = paths
        self.settings = settings
        self.log_handle: LoggingHandle | None = None
        self.llm_error: AppError | None = None

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
        for name in ("llm", "reranker", "answer_service", "chat"):
            self.__dict__.pop(name, None)

    @cached_property
    def embedder(self) -> E5Embedder:
        from desktop_app.retrieval.embedder import E5Embedder, ensure_e5_model

        return E5Embedder(ensure_e5_model(self.paths.models_dir))

    @property
    def index(self) -> LanceIndex:
        """The active index generation; re-opened when another process switched it (reindex)."""
        from desktop_app.retrieval.index import LanceIndex, current_generation

        opened: LanceIndex | None = self.__dict__.get("_index")
        if opened is not None and opened.directory.name == current_generation(self.paths.index_dir):
            return opened
        fresh = LanceIndex.open(self.paths.index_dir, embedder_id=self.embedder.id,
                                dim=self.embedder.dim)
        self.__dict__["_index"] = fresh
        return fresh

    def reset_index(self) -> None:
        """Re-open the index after a generation switch (reindex)."""
        for name in ("_index", "_pipeline"):
            self.__dict__.pop(name, None)

    @cached_property
    def searcher(self) -> HybridSearcher:
        from desktop_app.retrieval.search import HybridSearcher

        return HybridSearcher(self.index, self.embedder, self.settings,
                              index_provider=lambda: self.index)

    @property
    def pipeline(self) -> IngestPipeline:
        from desktop_app.ingest.pipeline import IngestPipeline

        index = self.index
        built: IngestPipeline | None = self.__dict__.get("_pipeline")
        if built is None or built.index is not index:
            built = self.__dict__["_pipeline"] = IngestPipeline(
                index, self.embedder, self.settings, index_provider=lambda: self.index)
        return built

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
        return AnswerService(self.searcher, llm, self.settings,
                             memory=self.memory if self.settings.memory_enabled else None,
                             reranker=reranker, llm_error=self.llm_error)

    @cached_property
    def memory(self) -> MemoryService:
        """What the user told us: SQLite state + a LanceDB search table; LGPD rights API."""
        from desktop_app.memory.db import StateDB
        from desktop_app.memory.extraction import llm_for_extraction
        from desktop_app.memory.service import MemoryService

        s = self.settings
        return MemoryService(StateDB.open(self.paths.state_db), self.paths.memory_index_dir,
                             lambda: self.embedder, retention_days=s.memory_retention_days,
                             enabled=s.memory_enabled, implicit=s.implicit_extraction,
                             llm_provider=lambda: llm_for_extraction(self._llm_or_none()),
                             settings=s, log_dir=self.paths.log_dir)

    @property
    def conversations(self) -> ConversationStore:
        return self.memory.conversations

    def _llm_or_none(self) -> LLM | None:
        try:
            return self.llm
        except AppError:
            return None

    @cached_property
    def chat(self) -> ChatService:
        """One chat turn: persisted, memory commands applied, answer streamed."""
        from desktop_app.memory.chat import ChatService

        return ChatService(self.memory.conversations, self.answer_service, self.memory)



def build_app(paths: AppPaths | None = None) -> App:
    apply_offline_environment()  # before anything imports huggingface/tldextract
    paths = (paths or app_paths()).ensure()
    from desktop_app.migrations import migrate_data_dir

    migrate_data_dir(paths)  # upgrades older stores step by step; refuses newer ones
    settings = load_settings(paths.settings_file)
    guard = install_outbound_guard()  # non-loopback sockets opened from Python are refused
    if settings.allow_network and settings.llm_backend == "ollama":
        host = urllib.parse.urlsplit(settings.ollama_url).hostname
        if host and not is_loopback_host(host):
            guard.allow_host(host)  # the user explicitly allowed a remote Ollama
    return App(paths, settings)


def run_gui_or_demo(app: App) -> int:
    """No sub-command: open the window; without a display, run the headless sample demo."""
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                       or os.environ.get("QT_QPA_PLATFORM") or os.name == "nt"
                       or sys.platform == "darwin")
    if has_display:
        try:
            from desktop_app.gui.run import run_gui
        except ImportError as exc:  # the GUI is optional for the headless core
            print(f"GUI unavailable ({exc}); running the headless demo", file=sys.stderr)
        else:
            return run_gui(app)
    from desktop_app.ingest.commands import run_sample_demo

    return run_sample_demo(app)
