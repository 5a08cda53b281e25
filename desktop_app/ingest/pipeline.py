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

A document read by an older version of the readers (`loaders.reader_version`: headings,
list labels, structural paths improved since) counts as changed: a scan reads it again,
and `read_before_paths` names such files for `desktop-app documents reread` and the
library status dialog. Passages whose text did not change keep their vectors.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import queue
import stat
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
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
    LimitExceededError,
    StorageError,
    StoragePermissionError,
    storage_error,
)
from desktop_app.ingest.events import (
    ChunksEmbedded,
    FileDone,
    FileFailed,
    FileSkipped,
    FileStarted,
    IngestEvent,
    PagesParsed,
    RunDone,
)
from desktop_app.ingest.journal import (
    FAILED,
    INDEXED,
    SKIPPED,
    UNCHANGED,
    IngestJournal,
    NullJournal,
)
from desktop_app.ingest.loaders import reader_version
from desktop_app.ingest.ocr import OcrEngine, OcrRun, attach_ocr
from desktop_app.ingest.pathnames import path_bytes, path_from_key, path_key, readable
from desktop_app.ingest.removal import CARRIERS, Removals
from desktop_app.ingest.types import Attachment, LoadedDocument
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


def read_before(record: DocumentRecord) -> bool:
    """Whether a document was read by an older version of the readers than this Acervo's
    (`loaders.reader_version`): it is read again when its folder is next scanned, or by
    `desktop-app documents reread`. A store that keeps no version (the team library) never is."""
    return record.reader is not None and record.reader < reader_version(record.file_type)


def read_before_paths(documents: Iterable[DocumentRecord]) -> tuple[list[Path], list[Path]]:
    """The files of the `documents` read by an older version of the readers (an attachment's
    message, which holds it): (those to read again, those no longer found, which stay as
    they were read)."""
    from desktop_app.ingest.attachments import owner_of

    paths = sorted({path_from_key(owner_of(d.source_path)) for d in documents
                    if read_before(d)})
    present = {p: p.exists() for p in paths}
    return [p for p in paths if present[p]], [p for p in paths if not present[p]]


def make_doc_id(path: Path | str, content_hash: str, *, ocr: bool = False,
                reader: int = 0) -> str:
    """Stable id: the same file with the same content, read the same way, always gets the
    same id.

    Hashes the OS bytes of the name, so a non-UTF-8 name gets an id too (for UTF-8 names
    the bytes, and so the ids, are the same as always). A version with OCR'd pages, or read
    by another version of the readers (`loaders.reader_version`), gets its own id, so
    re-reading it replaces the version indexed before the usual way (new rows first, old
    ones deleted after)."""
    salt = ("\0ocr" if ocr else "") + (f"\0reader{reader}" if reader else "")
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


@dataclass(frozen=True)
class _Planned:
    """A file a run found: its problem, if it cannot be read; unchanged without reading."""

    path: Path
    key: str
    problem: str | None
    unchanged: bool


# The note of a document indexed while OCR was off: with OCR on, the unchanged file is read
# again instead of being skipped (with OCR on, scanned pages get OCR notes instead).
_OCR_RETRY_NOTES = ("no text layer on",)


class IngestPipeline(Removals):
    def __init__(self, index: DocumentIndex, embedder: Embedder,
                 settings: Settings, ocr_engine: OcrEngine | None = None, *,
                 index_provider: Callable[[], DocumentIndex] | None = None,
                 journal: IngestJournal | None = None) -> None:
        self.index = index
        # where the queue and each file's outcome are written down (journal.py)
        self.journal: IngestJournal = journal or NullJournal()
        self._attachments: list[Attachment] = []  # of the file just indexed
        self._carrier = False  # the file just indexed may carry attachments (e-mail)
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
            prune_missing: bool = True, lock_timeout: float | None = None,
            resume: bool = False, removed: Sequence[str] = ()) -> Iterator[IngestEvent]:
        """Ingest files and folders; yields progress events, ends with `RunDone`.

        `lock_timeout`: how long to wait for another process that holds the library's writer
        lock (None: the lock's default); the wait is announced through `desktop_app.locking`.
        `resume`: also finish the runs a crash, kill or quit interrupted (the journal keeps
        their roots; what they had done is found unchanged, never embedded again).
        Every file found is written down as waiting before the first one is read, and each
        outcome as it comes (`journal.IngestJournal`). `removed`: path keys of files seen
        deleted (a watched folder): what was indexed from them leaves the library, after the
        new files are in (a rename's new name reuses the old one's vectors).
        """
        from desktop_app.ingest.loaders import SUPPORTED_EXTENSIONS

        cancelled = cancel or (lambda: False)
        self._lock_timeout = lock_timeout
        indexed = skipped = failed = removed_count = links = 0
        seen: set[str] = set()
        was_cancelled = False
        stopped: AppError | None = None
        try:
            self.index.check_writable()
        except StorageError as exc:  # read-only media: say so before parsing anything
            yield RunDone(0, 0, 0, 0, stopped=exc.user_message, exit_code=exc.exit_code)
            return
        roots, resumed, prune_missing = self._roots(paths, prune_missing, resume)
        self._follow_generation()  # the plan reads the index: the active generation's
        run_id = self.journal.begin([path_key(r) for r in roots], prune=prune_missing)
        plan = self._plan(roots, frozenset(SUPPORTED_EXTENSIONS))
        self.journal.waiting([item.key for item in plan
                              if not item.unchanged and item.problem != LINK_AGAIN])
        self.journal.flush()
        total = sum(1 for item in plan if item.problem != LINK_AGAIN)
        count = 0
        for item in plan:
            if cancelled():
                was_cancelled = True
                break
            key, path = item.key, item.path
            if item.problem == LINK_AGAIN:
                links += 1
                yield FileSkipped(key, item.problem)
                continue
            count += 1
            yield FileStarted(key, count, total)
            if item.problem:
                failed += 1
                self.journal.record(key, FAILED, reason=item.problem)
                yield FileFailed(key, item.problem)
                continue
            seen.add(key)
            if item.unchanged:
                skipped += 1
                yield FileSkipped(key, "unchanged")
                continue
            self._attachments, self._carrier = [], False
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
                limit = isinstance(exc, LimitExceededError)
                self.journal.record(key, SKIPPED if limit else FAILED, reason=exc.user_message)
                yield FileFailed(key, exc.user_message, limit=limit)
                continue
            except MemoryError:
                failed += 1
                reason = "the file is too large to process in memory"
                self.journal.record(key, FAILED, reason=reason)
                yield FileFailed(key, reason)
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
                reason = f"unexpected error ({type(exc).__name__}); see log"
                self.journal.record(key, FAILED, reason=reason)
                yield FileFailed(key, reason)
                continue
            if isinstance(event, FileSkipped):
                skipped += 1
            else:
                indexed += 1
            yield event
            if isinstance(event, FileDone) and self._carrier:
                from desktop_app.ingest.attachments import ingest_attachments

                try:
                    done, same, bad = yield from ingest_attachments(
                        self, key, self._attachments, cancelled)
                except CancelledError:
                    was_cancelled = True
                    break
                indexed, skipped, failed = indexed + done, skipped + same, failed + bad
        self.journal.flush()
        try:
            gone = [k for k in removed if k not in seen and not path_from_key(k).exists()]
            for key in gone if not was_cancelled and stopped is None else []:
                for removal in self.remove_path(key, cancelled=cancelled):
                    removed_count += 1
                    yield removal
            if prune_missing and not was_cancelled and stopped is None:
                for removal in self._prune(roots, seen, cancelled):
                    removed_count += 1
                    yield removal
            if stopped is None and self._follow_generation() and (
                    indexed or removed_count or self.index.unindexed_rows()):
                with self.index.writing("finishing the ingest", timeout=lock_timeout,
                                        cancel=cancelled):
                    self.index.optimize()
        except CancelledError:
            was_cancelled = True
        except (StorageError, LibraryBusyError) as exc:
            stopped = exc
        self.journal.flush()
        if not was_cancelled and stopped is None:
            for finished in (run_id, *resumed):  # done: not to be resumed
                self.journal.end(finished)
        yield RunDone(indexed, skipped, failed, removed_count, cancelled=was_cancelled,
                      stopped=stopped.user_message if stopped else "",
                      exit_code=stopped.exit_code if stopped else 0, links_skipped=links)

    def _roots(self, paths: Sequence[Path], prune: bool, resume: bool
               ) -> tuple[list[Path], list[int], bool]:
        """The roots to read (the given ones, then the unfinished runs' when resuming), the
        unfinished runs taken over, and whether folders are pruned (only if every run
        asked for it)."""
        roots = [Path(p).expanduser() for p in paths]
        resumed: list[int] = []
        if resume:
            for run_id, old_roots, old_prune in self.journal.unfinished():
                resumed.append(run_id)
                prune = prune and old_prune
                roots += [path_from_key(r) for r in old_roots]
        unique = list(dict.fromkeys(roots))
        return unique, resumed, prune

    def _plan(self, roots: Sequence[Path], supported: frozenset[str]) -> list[_Planned]:
        """Every file under `roots`, found before any is read (so the queue is written down
        first), each marked unchanged when its size and modification time are what the
        journal recorded for the content the index holds — then it is not even hashed."""
        known = self.journal.known()
        stored = self._documents_by_path() if known else {}
        plan: list[_Planned] = []
        for path, problem in discover(roots, supported):
            key = path_key(path)
            unchanged = False
            was = known.get(key)
            if problem is None and was is not None and was.status in (INDEXED, UNCHANGED):
                try:
                    st = path.stat()
                except OSError:
                    st = None
                unchanged = (st is not None and st.st_size == was.size
                             and st.st_mtime_ns == was.mtime_ns
                             and self._unchanged(stored.get(key, []), was.content_hash))
            plan.append(_Planned(path, key, problem, unchanged))
        return plan

    def _documents_by_path(self) -> dict[str, list[DocumentRecord]]:
        by_path: dict[str, list[DocumentRecord]] = {}
        for record in self.index.documents():
            by_path.setdefault(record.source_path, []).append(record)
        return by_path

    def _ingest_file(self, path: Path, cancelled: Callable[[], bool]
                     ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        key = path_key(path)
        try:
            st = path.stat()  # before the hash: a later change shows as a changed time
            content_hash = file_content_hash(path)
        except OSError as exc:
            raise AppError(f"cannot read the file: {exc.strerror or exc}") from exc
        note = functools.partial(self.journal.record, size=st.st_size,
                                 mtime_ns=st.st_mtime_ns, content_hash=content_hash)
        previous = self.index.documents_at(key)  # fresh: another process may have written
        if self._unchanged(previous, content_hash):
            note(key, UNCHANGED, doc_id=previous[0].doc_id)
            return FileSkipped(key, "unchanged")
        if self.index.content_addressed and self.index.document_by_hash(content_hash):
            note(key, UNCHANGED)
            return FileSkipped(key, "already in the team library")
        doc = yield from self._load(path, cancelled)
        doc.title = readable(doc.title)  # a non-UTF-8 file name becomes the title of a .txt
        self._attachments = list(doc.attachments)
        self._carrier = doc.file_type in CARRIERS
        event = yield from self._store(key, path, doc, content_hash, st, previous, cancelled)
        note(key, INDEXED if isinstance(event, FileDone) else UNCHANGED,
             doc_id=getattr(event, "doc_id", ""))
        return event

    def ingest_bytes_file(self, path: Path, key: str, content_hash: str,
                          cancelled: Callable[[], bool], *, origin: str = ""
                          ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        """A file that lives inside another (an attachment, written to `path` for reading)
        indexed under `key`; `origin` becomes its first note."""
        previous = self.index.documents_at(key)
        if self._unchanged(previous, content_hash):
            return FileSkipped(key, "unchanged")
        doc = yield from self._load(path, cancelled)
        if origin:
            doc.notes.insert(0, origin)
        doc.attachments = []  # attachments of attachments are not followed
        event = yield from self._store(key, path, doc, content_hash, path.stat(), previous,
                                       cancelled)
        if isinstance(event, FileDone):
            self.journal.record(key, INDEXED, doc_id=event.doc_id, content_hash=content_hash)
        return event

    def _store(self, key: str, path: Path, doc: LoadedDocument, content_hash: str,
               st: os.stat_result, previous: list[DocumentRecord],
               cancelled: Callable[[], bool]
               ) -> Generator[IngestEvent, None, FileDone | FileSkipped]:
        """Chunk, embed (only the passages no earlier version has a vector for) and commit."""
        from desktop_app.ingest.chunking import chunk_document
        from desktop_app.text.language import detect_language

        reader = reader_version(doc.file_type)
        doc_id = make_doc_id(key, content_hash, ocr=bool(doc.ocr_engine), reader=reader)
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
        for old in previous or self._same_content(content_hash):
            reusable.update(self.index.chunk_vectors_by_hash(old.doc_id))
        vectors = np.zeros((len(chunks), self.embedder.dim), dtype=np.float32)
        todo = [i for i, h in enumerate(hashes) if h not in reusable]
        todo.sort(key=lambda i: len(texts[i]))  # similar lengths share a batch: less padding
        for i, h in enumerate(hashes):
            if h in reusable:
                vectors[i] = reusable[h]
        done = len(chunks) - len(todo)
        yield ChunksEmbedded(key, done, len(chunks))
        embedding_seconds = 0.0
        for start in range(0, len(todo), EMBED_BATCH):
            if cancelled():
                raise CancelledError()
            batch = todo[start:start + EMBED_BATCH]
            began = time.perf_counter()
            vectors[batch] = self.embedder.embed_passages([texts[i] for i in batch])
            embedding_seconds += time.perf_counter() - began
            done += len(batch)
            yield ChunksEmbedded(key, done, len(chunks))
        if todo:
            self.journal.embedded(self.embedder.id, len(todo), embedding_seconds)
        sample = " ".join(p.text for p in doc.pages)[:5000]
        record = DocumentRecord(
            doc_id=doc_id, title=doc.title, source_path=key, file_type=doc.file_type,
            language=detect_language(sample), size=st.st_size, content_hash=content_hash,
            page_count=len(doc.pages) + len(doc.empty_pages), chunk_count=len(chunks),
            ingested_at=_now_iso(),
            modified_at=datetime.fromtimestamp(st.st_mtime, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            embedder_id=self.index.embedder_id, notes=tuple(doc.notes), reader=reader,
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

    def _same_content(self, content_hash: str) -> list[DocumentRecord]:
        """A document with these very bytes at another path (the file was renamed, moved or
        copied): its vectors serve the new path, nothing is embedded again."""
        if self.index.content_addressed:
            return []
        found = self.index.document_by_hash(content_hash)
        return [found] if found is not None and found.embedder_id == self.index.embedder_id \
            else []

    def _unchanged(self, stored: list[DocumentRecord], content_hash: str) -> bool:
        return self.index.vector_usable and any(
            d.content_hash == content_hash and d.embedder_id == self.index.embedder_id
            and not self._wants_ocr_retry(d) and not read_before(d) for d in stored)

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
