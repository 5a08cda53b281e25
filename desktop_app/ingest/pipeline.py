"""The ingestion pipeline: discover → hash → load → chunk → embed → index.

A generator of small progress events with a cancel check between files and
between embedding batches, so the GUI can drive it from a worker thread and the
CLI can print it. Incremental by content hash: unchanged files are skipped, a
changed file replaces only its own chunks (and only chunks whose text changed
are re-embedded), files gone from a scanned folder are removed. Bad input
fails one file with a clear reason; the run continues and nothing already
indexed is lost. A storage failure (full disk, read-only folder) or a library kept busy by
another process ends the run early — every later file would fail the same way — and the
final `RunDone` still reports what was done, with the reason in `stopped`.

Several processes may ingest into one library at once (the window and a terminal): each
document is committed under the library's writer lock, after checking again, under the
lock, what is stored for its path — so a file another process indexed meanwhile is
skipped, never written twice.
"""

from __future__ import annotations

import hashlib
import logging
import os
import queue
import stat
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.errors import (
    AppError,
    CancelledError,
    LibraryBusyError,
    LibraryRebuiltError,
    StorageError,
    StoragePermissionError,
    storage_error,
)
from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileRemoved,
    FileSkipped,
    FileStarted,
    IngestEvent,
    PagesParsed,
    RunDone,
)
from desktop_app.ingest.ocr import OcrEngine, OcrRun, attach_ocr
from desktop_app.ingest.pathnames import path_bytes, path_from_key, path_key, readable
from desktop_app.ingest.types import LoadedDocument
from desktop_app.retrieval.index_api import (
    DocumentIndex,
    DocumentRecord,
    chunk_text_hash,
    compose_embedding_text,
)
from desktop_app.retrieval.types import Chunk, Embedder

log = logging.getLogger(__name__)

EMBED_BATCH = 16


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def file_content_hash(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def make_doc_id(path: Path | str, content_hash: str, *, ocr: bool = False) -> str:
    """Stable id: the same file with the same content always gets the same id.

    Hashes the OS bytes of the name, so a non-UTF-8 name gets an id too (for UTF-8 names
    the bytes, and so the ids, are the same as always). A version with OCR'd pages gets
    its own id, so re-reading a scan with OCR replaces the version indexed without it the
    usual way (new rows first, old ones deleted after)."""
    salt = "\0ocr" if ocr else ""
    return hashlib.sha256(path_bytes(path) + f"\0{content_hash}{salt}".encode()).hexdigest()[:16]


__all__ = ["IngestPipeline", "chunk_text_hash", "compose_embedding_text", "embedding_text"]


def embedding_text(chunk: Chunk) -> str:
    return compose_embedding_text(chunk.prefix, chunk.text, chunk.revoked)


# `discover`'s problem for a folder reached again through a link: said and counted, not a
# failure (a link loop, or a second link to a folder already read)
LINK_AGAIN = "a link to a folder already read: a link loop, or a second link to it"


def discover(paths: Sequence[Path], supported: frozenset[str]) -> Iterator[tuple[Path, str | None]]:
    """Yield (file, problem) for every file under `paths`; a folder reached again through a
    link is read once and reported (`LINK_AGAIN`)."""
    seen_dirs: set[tuple[int, int]] = set()
    for root in paths:
        root = Path(root).expanduser()
        try:
            st = root.stat()
        except OSError as exc:
            yield root, f"cannot open: {exc.strerror or exc}"
            continue
        if stat.S_ISREG(st.st_mode):
            yield root.resolve(), None
            continue
        if not stat.S_ISDIR(st.st_mode):
            yield root, "not a regular file"
            continue
        stack = [root]
        while stack:
            current = stack.pop()
            try:
                dst = current.stat()
            except OSError:
                continue
            key = (dst.st_dev, dst.st_ino)
            if key in seen_dirs:
                yield current, LINK_AGAIN  # symlink loop or a folder reached twice
                continue
            seen_dirs.add(key)
            try:
                entries = sorted(os.scandir(current), key=lambda e: e.name)
            except OSError as exc:
                yield current, f"cannot list folder: {exc.strerror or exc}"
                continue
            subdirs = []
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                try:
                    if entry.is_dir():
                        subdirs.append(Path(entry.path))
                    elif entry.is_file() and Path(entry.name).suffix.lower() in supported:
                        yield Path(entry.path).resolve(), None
                except OSError:
                    continue
            stack.extend(reversed(subdirs))


# The note of a document indexed while OCR was off: with OCR on, the unchanged file is read
# again instead of being skipped (with OCR on, scanned pages get OCR notes instead).
_OCR_RETRY_NOTES = ("no text layer on",)


class IngestPipeline:
    def __init__(self, index: DocumentIndex, embedder: Embedder,
                 settings: Settings, ocr_engine: OcrEngine | None = None, *,
                 index_provider: Callable[[], DocumentIndex] | None = None) -> None:
        self.index = index
        self.embedder = embedder
        self.settings = settings
        # the engine loads its models on the first scanned page, not here
        self.ocr_engine = ocr_engine or OcrEngine()
        # the active generation, re-opened after another process's reindex switched it
        self._index_provider = index_provider
        self._lock_timeout: float | None = None

    def _ocr_run(self) -> OcrRun | None:
        if not self.settings.ocr_enabled:
            return None
        return OcrRun(self.ocr_engine, budget=max(0, self.settings.ocr_max_pages_per_document))

    def _wants_ocr_retry(self, record: DocumentRecord) -> bool:
        return self.settings.ocr_enabled and any(
            note.startswith(_OCR_RETRY_NOTES) for note in record.notes)

    def _follow_generation(self) -> bool:
        """Switch to the active generation if a reindex replaced ours; True if we can write."""
        if self.index.is_current():
            return True
        if self._index_provider is None:
            return False
        self.index = self._index_provider()
        return self.index.is_current()

    def _ingest_following(self, path: Path, cancelled: Callable[[], bool]
                          ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        """`_ingest_file`, once more on the new generation if a reindex switched it meanwhile."""
        for attempt in (1, 2):
            self._follow_generation()
            try:
                return (yield from self._ingest_file(path, cancelled))
            except LibraryRebuiltError:
                if attempt == 2 or self._index_provider is None:
                    raise
            except (RuntimeError, OSError, ValueError):
                # a read that raced the switch hit the deleted generation's files
                if attempt == 2 or self._index_provider is None or self.index.is_current():
                    raise
        raise AssertionError("unreachable")

    def run(self, paths: Sequence[Path], *, cancel: Callable[[], bool] | None = None,
            prune_missing: bool = True, lock_timeout: float | None = None
            ) -> Iterator[IngestEvent]:
        """Ingest files and folders; yields progress events, ends with `RunDone`.

        `lock_timeout`: how long to wait for another process that holds the library's writer
        lock (None: the lock's default); the wait is announced through `desktop_app.locking`.
        """
        from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS

        cancelled = cancel or (lambda: False)
        self._lock_timeout = lock_timeout
        indexed = skipped = failed = removed = links = 0
        seen: set[str] = set()
        count = 0
        was_cancelled = False
        stopped: AppError | None = None
        try:
            self.index.check_writable()
        except StorageError as exc:  # read-only media: say so before parsing anything
            yield RunDone(0, 0, 0, 0, stopped=exc.user_message, exit_code=exc.exit_code)
            return
        for path, problem in discover(paths, frozenset(SUPPORTED_EXTENSIONS)):
            if cancelled():
                was_cancelled = True
                break
            key = path_key(path)
            if problem == LINK_AGAIN:
                links += 1
                yield FileSkipped(key, problem)
                continue
            count += 1
            yield FileStarted(key, count, count)
            if problem:
                failed += 1
                yield FileFailed(key, problem)
                continue
            seen.add(key)
            try:
                event = yield from self._ingest_following(path, cancelled)
            except CancelledError:
                was_cancelled = True
                break
            except (StorageError, LibraryBusyError) as exc:
                failed += 1
                stopped = exc
                yield FileFailed(key, exc.user_message)
                break
            except AppError as exc:
                failed += 1
                yield FileFailed(key, exc.user_message)
                continue
            except MemoryError:
                failed += 1
                yield FileFailed(key, "the file is too large to process in memory")
                continue
            except Exception as exc:
                mapped = storage_error(exc)
                failed += 1
                # a write failed below the index's own mapping (a permission error here may
                # be the document's own, so only a full or read-only disk stops the run)
                if mapped is not None and not isinstance(mapped, StoragePermissionError):
                    stopped = mapped
                    yield FileFailed(key, mapped.user_message)
                    break
                # a bug: keep the run going, keep the index intact; ids only in the log
                log.exception("unexpected error ingesting a file (%s)", type(exc).__name__)
                yield FileFailed(key, f"unexpected error ({type(exc).__name__}); see log")
                continue
            if isinstance(event, FileSkipped):
                skipped += 1
            else:
                indexed += 1
            yield event
        try:
            if prune_missing and not was_cancelled and stopped is None:
                for removal in self._prune(paths, seen, cancelled):
                    removed += 1
                    yield removal
            if stopped is None and self._follow_generation() and (
                    indexed or removed or self.index.unindexed_rows()):
                with self.index.writing("finishing the ingest", timeout=lock_timeout,
                                        cancel=cancelled):
                    self.index.optimize()
        except CancelledError:
            was_cancelled = True
        except (StorageError, LibraryBusyError) as exc:
            stopped = exc
        yield RunDone(indexed, skipped, failed, removed, cancelled=was_cancelled,
                      stopped=stopped.user_message if stopped else "",
                      exit_code=stopped.exit_code if stopped else 0, links_skipped=links)

    def _ingest_file(self, path: Path, cancelled: Callable[[], bool]
                     ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        from desktop_app.ingest.chunking import chunk_document
        from desktop_app.text.language import detect_language

        key = path_key(path)
        try:
            content_hash = file_content_hash(path)
            st = path.stat()
        except OSError as exc:
            raise AppError(f"cannot read the file: {exc.strerror or exc}") from exc
        previous = self.index.documents_at(key)  # fresh: another process may have written
        if self._unchanged(previous, content_hash):
            return FileSkipped(key, "unchanged")
        if self.index.content_addressed and self.index.document_by_hash(content_hash):
            return FileSkipped(key, "already in the team library")
        doc = yield from self._load(path, cancelled)
        doc.title = readable(doc.title)  # a non-UTF-8 file name becomes the title of a .txt
        doc_id = make_doc_id(path, content_hash, ocr=bool(doc.ocr_engine))
        chunks = chunk_document(doc, doc_id, max_chars=self.settings.chunk_chars,
                                overlap=self.settings.chunk_overlap)
        if doc.ocr_engine:
            chunks = attach_ocr(doc, chunks)
        if not chunks:
            reason = "; ".join(doc.notes) or "the file contains no text"
            raise AppError(f"nothing to index: {reason}")
        texts = [embedding_text(c) for c in chunks]
        hashes = [chunk_text_hash(c) for c in chunks]
        reusable: dict[str, np.ndarray] = {}
        for old in previous:
            reusable.update(self.index.chunk_vectors_by_hash(old.doc_id))
        vectors = np.zeros((len(chunks), self.embedder.dim), dtype=np.float32)
        todo = [i for i, h in enumerate(hashes) if h not in reusable]
        todo.sort(key=lambda i: len(texts[i]))  # similar lengths share a batch: less padding
        for i, h in enumerate(hashes):
            if h in reusable:
                vectors[i] = reusable[h]
        done = len(chunks) - len(todo)
        yield ChunksEmbedded(key, done, len(chunks))
        for start in range(0, len(todo), EMBED_BATCH):
            if cancelled():
                raise CancelledError()
            batch = todo[start:start + EMBED_BATCH]
            vectors[batch] = self.embedder.embed_passages([texts[i] for i in batch])
            done += len(batch)
            yield ChunksEmbedded(key, done, len(chunks))
        sample = " ".join(p.text for p in doc.pages)[:5000]
        record = DocumentRecord(
            doc_id=doc_id, title=doc.title, source_path=key, file_type=doc.file_type,
            language=detect_language(sample), size=st.st_size, content_hash=content_hash,
            page_count=len(doc.pages) + len(doc.empty_pages), chunk_count=len(chunks),
            ingested_at=_now_iso(),
            modified_at=datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            embedder_id=self.index.embedder_id, notes=tuple(doc.notes),
        )
        if cancelled():
            raise CancelledError()
        with self.index.writing("ingest", timeout=self._lock_timeout, cancel=cancelled):
            current = self.index.documents_at(key)  # again, now that no one else writes
            if self._unchanged(current, content_hash):
                return FileSkipped(key, "unchanged: another Acervo process indexed it meanwhile")
            if not self.index.add_document(record, chunks, vectors):
                # the same content is already there (a team member added it meanwhile)
                return FileSkipped(key, "unchanged: already in the library")
            for old in current:
                if old.doc_id != doc_id:
                    self.index.delete_document(old.doc_id, purge=False)
        return FileDone(key, doc_id, len(chunks), record.page_count, tuple(doc.notes))

    def _unchanged(self, stored: list[DocumentRecord], content_hash: str) -> bool:
        return self.index.vector_usable and any(
            d.content_hash == content_hash and d.embedder_id == self.index.embedder_id
            and not self._wants_ocr_retry(d) for d in stored)

    def _load(self, path: Path, cancelled: Callable[[], bool]
              ) -> Generator[IngestEvent, None, LoadedDocument]:
        """Parse in a helper thread so page progress streams out and cancel is honoured."""
        from desktop_app.ingest.loaders import load_document

        updates: queue.Queue[tuple[int, int] | None] = queue.Queue()
        outcome: dict[str, Any] = {}

        def progress(done: int, total: int) -> None:
            if cancelled():
                raise CancelledError()
            if done == total or done % max(1, total // 100) == 0:
                updates.put((done, total))

        def work() -> None:
            try:
                outcome["doc"] = load_document(
                    path, progress=progress, max_pages=self.settings.max_pages_per_document,
                    ocr=self._ocr_run())
            except BaseException as exc:  # re-raised in the generator's thread
                outcome["error"] = exc
            finally:
                updates.put(None)

        worker = threading.Thread(target=work, name="acervo-parse", daemon=True)
        worker.start()
        while True:
            try:
                # an OCR'd page takes seconds: honour cancel without waiting for it to end
                item = updates.get(timeout=0.25)
            except queue.Empty:
                if cancelled():
                    raise CancelledError() from None  # the parse thread stops at its next page
                continue
            if item is None:
                break
            yield PagesParsed(str(path), item[0], item[1])
        worker.join()
        if "error" in outcome:
            raise outcome["error"]
        doc: LoadedDocument = outcome["doc"]
        total = len(doc.pages) + len(doc.empty_pages)
        yield PagesParsed(str(path), total, total)
        return doc

    def _prune(self, paths: Sequence[Path], seen: set[str],
               cancelled: Callable[[], bool]) -> Iterator[FileRemoved]:
        folders = [path_key(Path(p).expanduser().resolve()) for p in paths if Path(p).is_dir()]
        if not folders:
            return
        sources = sorted({d.source_path for d in self.index.documents()})
        for source in sources:
            if source in seen or not any(source.startswith(f.rstrip(os.sep) + os.sep)
                                         for f in folders):
                continue
            if path_from_key(source).exists():
                continue  # e.g. hidden or now-unsupported; leave it to an explicit remove
            with self.index.writing("removing documents whose files are gone",
                                    timeout=self._lock_timeout, cancel=cancelled):
                for record in self.index.documents_at(source):
                    self.index.delete_document(record.doc_id, purge=False)
                    yield FileRemoved(source, record.doc_id)

    def remove_document(self, doc_id: str, *,
                        lock_timeout: float | None = None) -> DocumentRecord | None:
        """Delete a document everywhere in the index and purge old versions from disk."""
        with self.index.writing("removing a document", timeout=lock_timeout):
            record = self.index.document(doc_id)
            self.index.delete_document(doc_id, purge=True)
        return record
