"""The Library panel's services: the libraries (this computer's and the team's), their
documents, ingestion, removal, reindexing and the page texts the viewer shows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.errors import AppError
from desktop_app.gui.services import stored_listing
from desktop_app.gui.services.part import CancelCheck, ServicePart
from desktop_app.ingest.pathnames import display_path, path_from_key
from desktop_app.retrieval.index_api import DocumentRecord

if TYPE_CHECKING:
    from desktop_app.app import App
    from desktop_app.ingest.events import IngestEvent
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.library.estimate import JobEstimate
    from desktop_app.library.folders import WatchedFolder
    from desktop_app.library.scope import Scope
    from desktop_app.library.state import FileStatus
    from desktop_app.library.watch import ChangeBatch, FolderWatcher
    from desktop_app.retrieval.index_api import DocumentIndex, DocumentRecord
    from desktop_app.retrieval.reindex import ReindexProgress
    from desktop_app.retrieval.types import SearchFilters

READ_ONLY = "This team library is read-only in your settings."


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
class LibraryListing:
    """What the Library panel lists: the documents and the index's figures."""

    documents: list[DocumentRecord]
    summary: IndexSummary


@dataclass(frozen=True)
class RemovalSummary:
    documents: int
    answers_erased: int  # chat answers that quoted them, erased (purge chosen)
    answers_quoting: int  # chat answers that still quote them (purge not chosen)


class LibraryServices(ServicePart):
    """The library the panel shows (`current_library`) and what can be done to it."""

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.current_library = "local"  # the library the Library panel shows and adds to

    # ---- which library ------------------------------------------------------------
    def library_names(self) -> list[str]:
        """"local" first, then the team libraries of the settings."""
        return ["local"] + [t.name for t in self._app.settings.team_libraries]

    def set_library(self, name: str) -> None:
        self.current_library = name if name in self.library_names() else "local"

    def library_read_only(self) -> bool:
        return any(t.name == self.current_library and t.read_only
                   for t in self._app.settings.team_libraries)

    def index(self) -> DocumentIndex:
        """The current library's index (opened on first use: call it from a worker)."""
        if self.current_library == "local":
            return self._app.index
        return self._app.team_index(self.current_library)

    def _pipeline(self) -> IngestPipeline:
        if self.current_library == "local":
            return self._app.pipeline
        return self._app.team_pipeline(self.current_library)

    # ---- its documents ------------------------------------------------------------
    def index_summary(self) -> IndexSummary:
        index = self.index()
        stats = index.stats()
        return IndexSummary(stats.documents, stats.chunks, stats.bytes, stats.embedder_id,
                            index.vector_usable,
                            "" if index.vector_usable else index.mismatch_message(),
                            library=self.current_library)

    def documents(self) -> list[DocumentRecord]:
        return list(self.index().documents())

    def listing(self) -> LibraryListing:
        """The documents and figures of the current library, read from its index; this
        computer's are also kept as the stored listing the next start shows at once."""
        listing = LibraryListing(self.documents(), self.index_summary())
        if self.current_library == "local":
            stored_listing.save(self._app.paths, listing)
        return listing

    def stored_listing(self) -> LibraryListing | None:
        """This computer's library as the last listing stored it, when the index has not
        changed since (None otherwise): no index is opened, no model loaded."""
        if self.current_library != "local":
            return None
        return stored_listing.load(self._app.paths)

    def ingest(self, paths: Sequence[Path], cancel: CancelCheck) -> Iterator[IngestEvent]:
        team = self.current_library != "local"  # a team library is never pruned
        return self._pipeline().run(list(paths), cancel=cancel, prune_missing=not team)

    def remove_documents(self, doc_ids: Sequence[str], *, purge_chats: bool) -> RemovalSummary:
        """Remove documents from the current library; with `purge_chats`, also the chat
        answers that quote them (else count how many still do, so the window can say so).
        A read-only team library refuses before anything is touched."""
        if self.library_read_only():
            raise AppError(READ_ONLY)
        removed = erased = quoting = 0
        index, pipeline = self.index(), self._pipeline()
        conversations = self._app.conversations
        for doc_id in doc_ids:
            # to recognise quotes, before it goes
            passages = [c.text for c in index.document_chunks(doc_id)]
            if pipeline.remove_document(doc_id) is not None:
                removed += 1
            if purge_chats:
                erased += conversations.purge_document(doc_id, passages)[0]
            else:
                quoting += len(conversations.document_quotes(doc_id, passages))
        return RemovalSummary(removed, erased, quoting)

    def reingest_document(self, doc_id: str, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """Index one document again from its file (remove, then ingest)."""
        record = self.index().document(doc_id)
        if record is None:
            raise AppError("This document is no longer in the library.")
        source = path_from_key(record.source_path)  # the real bytes of a non-UTF-8 name
        if not source.is_file():
            raise AppError(f"The original file is gone: {display_path(record.source_path)}")
        pipeline = self._pipeline()
        pipeline.remove_document(doc_id)
        yield from pipeline.run([source], cancel=cancel, prune_missing=False)

    def reindex(self, cancel: CancelCheck) -> Iterator[ReindexProgress]:
        """Blue/green rebuild with the current embedder; the new index is active after.
        The rate is written down for the next estimate."""
        import time

        from desktop_app.retrieval.reindex import reindex

        app = self._app
        passages, started = app.index.stats().chunks, time.perf_counter()
        for progress in reindex(app.paths.index_dir, app.index, app.embedder, cancel=cancel):
            if progress.stage == "done":  # the app opens the new generation before it is said
                app.library_state.add_rate(app.embedder.id, passages,
                                           time.perf_counter() - started)
                app.reset_index()
                _ = app.index
            yield progress

    def reindex_estimate(self) -> JobEstimate:
        """How long a reindex of this computer's library would take (measured rate)."""
        from desktop_app.library.estimate import estimate_reembedding

        stats = self._app.index.stats()
        return estimate_reembedding(self._app.library_state, self._app.embedder.id,
                                    documents=stats.documents, passages=stats.chunks)

    # ---- watched folders, each file's status, collections (library/) -------------------
    def watched_folders(self) -> list[WatchedFolder]:
        from desktop_app.library.folders import Folders

        return Folders(self._app.library_state).watched()

    def watch_folder(self, folder: Path) -> WatchedFolder:
        """Keep `folder` in sync from now on (folders added in the window are watched)."""
        from desktop_app.library.folders import Folders

        return Folders(self._app.library_state).add(folder, watch=True)

    def folder_watcher(self) -> FolderWatcher:
        from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS
        from desktop_app.library.watch import FolderWatcher

        return FolderWatcher(self.watched_folders(), frozenset(SUPPORTED_EXTENSIONS))

    def catch_up_needed(self) -> bool:
        """Whether there are watched folders, or work a crash or a quit left unfinished."""
        return bool(self.watched_folders()
                    or self._app.library_state.unfinished_runs("local"))

    def catch_up(self, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """At start: finish interrupted work, bring the watched folders up to date."""
        from desktop_app.library.folders import Folders
        from desktop_app.library.sync import start_up

        return start_up(self._app.pipeline, Folders(self._app.library_state), cancel)

    def apply_changes(self, batch: ChangeBatch, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """A watcher's batch through the incremental path (deleted files leave)."""
        from desktop_app.library.sync import apply_batch

        return apply_batch(self._app.pipeline, batch, cancel)

    def indexed_paths(self) -> set[str]:
        return {r.source_path for r in self._app.index.documents()}

    def file_statuses(self, *, problems: bool = False) -> list[FileStatus]:
        from desktop_app.ingest.journal import FAILED, SKIPPED

        return self._app.library_state.files("local", (FAILED, SKIPPED) if problems else ())

    def retry_failed(self, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """Read the failed files again (an attachment with its message)."""
        from desktop_app.ingest.attachments import owner_of

        paths = sorted({path_from_key(owner_of(f.path))
                        for f in self.file_statuses(problems=True)})
        return self._app.pipeline.run(paths, cancel=cancel, prune_missing=False)

    def read_before(self) -> list[Path]:
        """The files an older version of Acervo read (headings, list labels and sections
        improved since), present on disk."""
        from desktop_app.ingest.pipeline import read_before_paths

        return read_before_paths(self._app.index.documents())[0]

    def reread_older(self, cancel: CancelCheck) -> Iterator[IngestEvent]:
        """Read again the files an older version of Acervo read."""
        return self._app.pipeline.run(self.read_before(), cancel=cancel, prune_missing=False)

    def collection_names(self) -> list[str]:
        from desktop_app.library.collections import Collections

        return Collections(self._app.library_state).names()

    def scope_filters(self, scope: Scope) -> SearchFilters | None:
        """The filters of a scope (None: the whole library); `AppError` when it holds
        nothing."""
        from desktop_app.library.collections import Collections
        from desktop_app.library.scope import scope_filters

        return scope_filters(scope, self._app.index.documents(),
                             Collections(self._app.library_state))

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

        return stored_pages(self._app.team_index(library).document_chunks(doc_id))
