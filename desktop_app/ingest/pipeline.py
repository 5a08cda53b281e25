"""The ingestion pipeline: discover → hash → load → chunk → embed → index.

A generator of small progress events with a cancel check between files and
between embedding batches, so the GUI can drive it from a worker thread and the
CLI can print it. Incremental by content hash: unchanged files are skipped, a
changed file replaces only its own chunks (and only chunks whose text changed
are re-embedded), files gone from a scanned folder are removed. Bad input
fails one file with a clear reason; the run continues and nothing already
indexed is lost.
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
from desktop_app.errors import AppError, CancelledError
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
from desktop_app.ingest.types import Chunk, LoadedDocument
from desktop_app.retrieval.index import DocumentRecord, LanceIndex
from desktop_app.retrieval.legacy_adapter import LegacyIndexView
from desktop_app.retrieval.textnorm import analyze
from desktop_app.retrieval.types import Embedder

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


def make_doc_id(path: Path, content_hash: str) -> str:
    """Stable id: the same file with the same content always gets the same id."""
    return hashlib.sha256(f"{path}\0{content_hash}".encode()).hexdigest()[:16]


def chunk_text_hash(chunk: Chunk) -> str:
    return hashlib.sha256(f"{chunk.prefix}\0{chunk.text}".encode()).hexdigest()[:24]


def compose_embedding_text(prefix: str, text: str) -> str:
    """What gets embedded and keyword-indexed: the contextual prefix plus the chunk text."""
    return f"{prefix}\n{text}" if prefix else text


def embedding_text(chunk: Chunk) -> str:
    return compose_embedding_text(chunk.prefix, chunk.text)


def discover(paths: Sequence[Path], supported: frozenset[str]) -> Iterator[tuple[Path, str | None]]:
    """Yield (file, problem) for every file under `paths`; symlink loops are visited once."""
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
                continue  # symlink loop or a folder reached twice
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


class IngestPipeline:
    def __init__(self, index: LanceIndex | LegacyIndexView, embedder: Embedder,
                 settings: Settings) -> None:
        self.index = index
        self.embedder = embedder
        self.settings = settings

    def run(self, paths: Sequence[Path], *, cancel: Callable[[], bool] | None = None,
            prune_missing: bool = True) -> Iterator[IngestEvent]:
        """Ingest files and folders; yields progress events, ends with `RunDone`."""
        from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS

        cancelled = cancel or (lambda: False)
        indexed = skipped = failed = removed = 0
        by_path: dict[str, list[DocumentRecord]] = {}
        for d in self.index.documents():
            by_path.setdefault(d.source_path, []).append(d)
        seen: set[str] = set()
        count = 0
        was_cancelled = False
        for path, problem in discover(paths, frozenset(SUPPORTED_EXTENSIONS)):
            if cancelled():
                was_cancelled = True
                break
            count += 1
            yield FileStarted(str(path), count, count)
            if problem:
                failed += 1
                yield FileFailed(str(path), problem)
                continue
            seen.add(str(path))
            try:
                event = yield from self._ingest_file(path, by_path.get(str(path), []), cancelled)
            except CancelledError:
                was_cancelled = True
                break
            except AppError as exc:
                failed += 1
                yield FileFailed(str(path), exc.user_message)
                continue
            except MemoryError:
                failed += 1
                yield FileFailed(str(path), "the file is too large to process in memory")
                continue
            except Exception as exc:  # a bug: keep the run going, keep the index intact
                log.exception("unexpected error ingesting a file")
                failed += 1
                yield FileFailed(str(path), f"unexpected error ({type(exc).__name__}); see log")
                continue
            if isinstance(event, FileSkipped):
                skipped += 1
            else:
                indexed += 1
            yield event
        if prune_missing and not was_cancelled:
            for removal in self._prune(paths, seen, by_path):
                removed += 1
                yield removal
        if indexed or removed:
            self.index.ensure_vector_index()
            self.index.compact()
        yield RunDone(indexed, skipped, failed, removed, cancelled=was_cancelled)

    def _ingest_file(self, path: Path, previous: list[DocumentRecord],
                     cancelled: Callable[[], bool]
                     ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        from desktop_app.ingest.chunking import chunk_document
        from desktop_app.ingest.language import detect_language

        try:
            content_hash = file_content_hash(path)
            st = path.stat()
        except OSError as exc:
            raise AppError(f"cannot read the file: {exc.strerror or exc}") from exc
        for old in previous:
            if old.content_hash == content_hash and old.embedder_id == self.index.embedder_id \
                    and self.index.embedder_matches:
                return FileSkipped(str(path), "unchanged")
        if isinstance(self.index, LegacyIndexView) and self.index.document_by_hash(content_hash):
            return FileSkipped(str(path), "already in the team library")
        doc = yield from self._load(path, cancelled)
        doc_id = make_doc_id(path, content_hash)
        chunks = chunk_document(doc, doc_id, max_chars=self.settings.chunk_chars,
                                overlap=self.settings.chunk_overlap)
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
        for i, h in enumerate(hashes):
            if h in reusable:
                vectors[i] = reusable[h]
        done = len(chunks) - len(todo)
        yield ChunksEmbedded(str(path), done, len(chunks))
        for start in range(0, len(todo), EMBED_BATCH):
            if cancelled():
                raise CancelledError()
            batch = todo[start:start + EMBED_BATCH]
            vectors[batch] = self.embedder.embed_passages([texts[i] for i in batch])
            done += len(batch)
            yield ChunksEmbedded(str(path), done, len(chunks))
        sample = " ".join(p.text for p in doc.pages)[:5000]
        record = DocumentRecord(
            doc_id=doc_id, title=doc.title, source_path=str(path), file_type=doc.file_type,
            language=detect_language(sample), size=st.st_size, content_hash=content_hash,
            page_count=len(doc.pages) + len(doc.empty_pages), chunk_count=len(chunks),
            ingested_at=_now_iso(),
            modified_at=datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            embedder_id=self.index.embedder_id, notes=tuple(doc.notes),
        )
        if cancelled():
            raise CancelledError()
        self.index.add_document(record, chunks, vectors, [analyze(t) for t in texts], hashes)
        for old in previous:
            if old.doc_id != doc_id:
                self.index.delete_document(old.doc_id, cleanup=False)
        return FileDone(str(path), doc_id, len(chunks), record.page_count, tuple(doc.notes))

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
                    path, progress=progress, max_pages=self.settings.max_pages_per_document)
            except BaseException as exc:  # re-raised in the generator's thread
                outcome["error"] = exc
            finally:
                updates.put(None)

        worker = threading.Thread(target=work, name="acervo-parse", daemon=True)
        worker.start()
        while (item := updates.get()) is not None:
            yield PagesParsed(str(path), item[0], item[1])
        worker.join()
        if "error" in outcome:
            raise outcome["error"]
        doc: LoadedDocument = outcome["doc"]
        total = len(doc.pages) + len(doc.empty_pages)
        yield PagesParsed(str(path), total, total)
        return doc

    def _prune(self, paths: Sequence[Path], seen: set[str],
               by_path: dict[str, list[DocumentRecord]]) -> Iterator[FileRemoved]:
        folders = [str(Path(p).expanduser().resolve()) for p in paths if Path(p).is_dir()]
        for source, records in sorted(by_path.items()):
            if source in seen or not any(source.startswith(f.rstrip(os.sep) + os.sep)
                                         for f in folders):
                continue
            if Path(source).exists():
                continue  # e.g. hidden or now-unsupported; leave it to an explicit remove
            for record in records:
                self.index.delete_document(record.doc_id, cleanup=False)
                yield FileRemoved(source, record.doc_id)

    def remove_document(self, doc_id: str) -> DocumentRecord | None:
        """Delete a document everywhere in the index and purge old versions from disk."""
        record = self.index.document(doc_id)
        self.index.delete_document(doc_id, cleanup=True)
        return record
