"""The LanceDB index: `documents` and `chunks` tables plus the keyword (FTS) index.

Kept behind a small surface (add/delete/search vector/search keyword/filters/
stats) so a PostgreSQL + pgvector implementation can replace it later without
touching ingestion, answering or the GUI.

Consistency rules, so that a process killed mid-ingest leaves a usable index:
- a document's chunks are written first, its `documents` row last (that row is
  the "complete" marker);
- a changed file gets a new doc id; the old version is deleted only after the
  new one is complete;
- every write holds the data folder's `library` writer lock (`desktop_app.locking`),
  so two processes never write at once; readers never lock;
- on open, when no other process is writing, `recover()` repairs what an interruption
  left, keyed by row identity (LanceDB `_rowid`), never by doc id alone: duplicate rows
  keep one copy, chunks without a document row go, superseded versions of a path go,
  and the keyword/vector indexes are brought level with the table (`repair()`;
  `desktop-app doctor --repair` runs the same).

Blue/green generations: the index lives in `root/<generation>/`; `current.json`
names the active one. A reindex builds a new generation and switches the
pointer atomically when it is complete.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import shutil
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from desktop_app.config.files import read_json, write_json_atomic
from desktop_app.errors import AppError, LibraryRebuiltError, StorageError, storage_error
from desktop_app.ingest.types import Chunk
from desktop_app.locking import LIBRARY, WriterLock, writer_lock
from desktop_app.retrieval import lancedb_io
from desktop_app.retrieval.index_repair import RecoveryPlan, plan_recovery
from desktop_app.retrieval.types import SearchFilters

log = logging.getLogger(__name__)

T = TypeVar("T")
SCHEMA_VERSION = 2  # 2: chunks carry ocr_confidence and ocr_boxes (migrations.py)
ANN_MIN_ROWS = 50_000
POINTER_FILE = "current.json"
META_FILE = "index_meta.json"
FTS_INDEX = "search_text_idx"
VECTOR_INDEX = "vector_idx"
_DELETE_BATCH = 400
@dataclass(frozen=True)
class DocumentRecord:
    doc_id: str
    title: str
    source_path: str
    file_type: str
    language: str
    size: int
    content_hash: str
    page_count: int
    chunk_count: int
    ingested_at: str  # ISO 8601, UTC
    modified_at: str
    embedder_id: str
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def folder(self) -> str:
        return str(Path(self.source_path).parent)


def _documents_schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("doc_id", pa.string()), ("title", pa.string()), ("source_path", pa.string()),
        ("folder", pa.string()), ("file_type", pa.string()), ("language", pa.string()),
        ("size", pa.int64()), ("content_hash", pa.string()), ("page_count", pa.int32()),
        ("chunk_count", pa.int32()), ("ingested_at", pa.string()), ("modified_at", pa.string()),
        ("embedder_id", pa.string()), ("notes", pa.string()),
    ])


def _chunks_schema(dim: int) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("chunk_id", pa.string()), ("doc_id", pa.string()), ("position", pa.int32()),
        ("text", pa.string()), ("prefix", pa.string()), ("search_text", pa.string()),
        ("text_hash", pa.string()), ("page_start", pa.int32()), ("page_end", pa.int32()),
        ("char_start", pa.int32()), ("char_end", pa.int32()),
        ("heading_path", pa.list_(pa.string())), ("title", pa.string()),
        ("source_path", pa.string()), ("folder", pa.string()), ("file_type", pa.string()),
        ("language", pa.string()), ("ingested_at", pa.string()), ("modified_at", pa.string()),
        ("vector", pa.list_(pa.float32(), dim)),
        *_ocr_columns(),
    ])


def _ocr_columns() -> list[Any]:
    """Added in schema 2: null confidence = text-layer chunk; boxes as JSON (ingest/ocr.py)."""
    import pyarrow as pa

    return [pa.field("ocr_confidence", pa.float32(), nullable=True),
            pa.field("ocr_boxes", pa.string(), nullable=True)]


def _sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def filters_to_sql(filters: SearchFilters | None) -> str | None:
    """A SQL predicate over the chunk columns, or None when there is nothing to filter."""
    if filters is None:
        return None
    parts: list[str] = []
    if filters.file_types:
        parts.append("file_type IN (" + ", ".join(_sql_str(t) for t in filters.file_types) + ")")
    if filters.since:
        parts.append(f"ingested_at >= {_sql_str(filters.since)}")
    if filters.until:
        parts.append(f"ingested_at < {_sql_str(filters.until)}")
    if filters.modified_since:
        parts.append(f"modified_at >= {_sql_str(filters.modified_since)}")
    if filters.folder:
        folder = str(Path(filters.folder).expanduser().resolve())
        parts.append(f"(folder = {_sql_str(folder)} OR starts_with(folder, "
                     f"{_sql_str(folder.rstrip(os.sep) + os.sep)}))")
    if filters.language:
        parts.append(f"language = {_sql_str(filters.language)}")
    return " AND ".join(parts) or None


def _open_or_create(db: Any, name: str, schema: Any) -> Any:
    if name in set(db.list_tables().tables):
        return db.open_table(name)
    return db.create_table(name, schema=schema, exist_ok=True)


def current_generation(root: Path) -> str | None:
    """The active generation's folder name under `root`, or None before the first ingest."""
    pointer = root / POINTER_FILE
    try:
        return str(read_json(pointer)["generation"])
    except FileNotFoundError:
        return None


class LanceIndex:
    """One generation of the document index (documents + chunks tables)."""

    def __init__(self, directory: Path, meta: dict[str, Any], *,
                 current_embedder_id: str = "", writer: WriterLock | None = None) -> None:
        self.directory = directory
        self.meta = meta
        self.current_embedder_id = current_embedder_id
        self.writer = writer or writer_lock(directory.parent.parent, LIBRARY)
        self._db = lancedb_io.connect(directory)
        names = set(self._db.list_tables().tables)
        if not {"documents", "chunks"} <= names:
            with self.writer.hold("creating the library"):
                self._docs = self._write(lambda: _open_or_create(
                    self._db, "documents", _documents_schema()))
                self._chunks = self._write(lambda: _open_or_create(
                    self._db, "chunks", _chunks_schema(self.dim)))
        else:
            self._docs = self._db.open_table("documents")
            self._chunks = self._db.open_table("chunks")
        self._fts_ready = self._vector_indexed = False
        self.repaired_on_open: list[str] = []  # what recovery fixed when this was opened
        self._refresh_index_flags()

    # ---- opening / generations -------------------------------------------------
    @classmethod
    def open(cls, root: Path, *, embedder_id: str, dim: int,
             writer: WriterLock | None = None) -> LanceIndex:
        """Open the active generation under `root`, creating the first one if needed."""
        writer = writer or writer_lock(root.parent, LIBRARY)
        generation = current_generation(root) if root.is_dir() else None
        if generation is None:
            with writer.hold("creating the library"):
                generation = current_generation(root) if root.is_dir() else None
                if generation is None:
                    generation = "g1"
                    _mkdir(root)
                    write_json_atomic(root / POINTER_FILE, {"generation": generation})
        return cls.open_generation(root / generation, embedder_id=embedder_id, dim=dim,
                                   writer=writer)

    @classmethod
    def open_generation(cls, directory: Path, *, embedder_id: str, dim: int,
                        writer: WriterLock | None = None) -> LanceIndex:
        writer = writer or writer_lock(directory.parent.parent, LIBRARY)
        meta_path = directory / META_FILE
        if not meta_path.exists():
            with writer.hold("creating the library"):
                if not meta_path.exists():
                    _mkdir(directory)
                    write_json_atomic(meta_path, {
                        "schema_version": SCHEMA_VERSION, "embedder_id": embedder_id, "dim": dim})
        meta = read_json(meta_path)
        if int(meta.get("schema_version", 0)) > SCHEMA_VERSION:
            raise AppError("This index was written by a newer version of Acervo; "
                           "update the app to open it.")
        index = cls(directory, meta, current_embedder_id=embedder_id, writer=writer)
        index.repaired_on_open = index.recover_if_idle()
        return index

    @property
    def dim(self) -> int:
        return int(self.meta["dim"])

    @property
    def embedder_id(self) -> str:
        return str(self.meta["embedder_id"])

    @property
    def embedder_matches(self) -> bool:
        return not self.current_embedder_id or self.current_embedder_id == self.embedder_id

    def mismatch_message(self) -> str:
        return (f"index built with {self.embedder_id}, current embedder "
                f"{self.current_embedder_id}: run reindex")

    # ---- plumbing ----------------------------------------------------------------
    def _refresh(self) -> None:
        for table in (self._docs, self._chunks):
            with contextlib.suppress(Exception):
                table.checkout_latest()

    def _write(self, action: Callable[[], T]) -> T:
        return lancedb_io.write(action, where=str(self.directory.parent.parent), refresh=self._refresh)

    def _read(self, action: Callable[[], T]) -> T:
        return lancedb_io.read(action, refresh=self._refresh)

    def _refresh_index_flags(self) -> None:
        names = {ix.name for ix in self._read(self._chunks.list_indices)}
        self._fts_ready = FTS_INDEX in names
        self._vector_indexed = VECTOR_INDEX in names

    def is_current(self) -> bool:
        """False once a reindex (in any process) made a newer generation the active one (a
        generation being built by a reindex is newer than the active one: not stale)."""
        active = current_generation(self.directory.parent)
        if active is None or active == self.directory.name:
            return True
        return _generation_number(self.directory.name) > _generation_number(active)

    @contextlib.contextmanager
    def writing(self, purpose: str, *, timeout: float | None = None,
                cancel: Callable[[], bool] | None = None) -> Iterator[None]:
        """Hold the library's writer lock for a group of writes (waits for other processes).

        Raises `LibraryRebuiltError` when, by the time the lock is ours, another process's
        reindex has replaced this generation: writing into it would write into the void."""
        with self.writer.hold(purpose, timeout=timeout, cancel=cancel):
            if not self.is_current():
                raise LibraryRebuiltError(
                    "The library was rebuilt by another Acervo process (reindex) while this "
                    "one waited; nothing was written. Run the command again.")
            yield

    # ---- writes ----------------------------------------------------------------
    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray, search_texts: Sequence[str],
                     text_hashes: Sequence[str]) -> None:
        """Write chunks, then the document row (the completeness marker)."""
        if len(chunks) != len(vectors) or len(chunks) != len(search_texts):
            raise ValueError("chunks, vectors and search texts must align")
        folder = record.folder
        rows = [
            {
                "chunk_id": c.chunk_id, "doc_id": c.doc_id, "position": c.position,
                "text": c.text, "prefix": c.prefix, "search_text": st, "text_hash": th,
                "page_start": c.page_start, "page_end": c.page_end,
                "char_start": c.char_start, "char_end": c.char_end,
                "heading_path": list(c.heading_path), "title": record.title,
                "source_path": record.source_path, "folder": folder,
                "file_type": record.file_type, "language": record.language,
                "ingested_at": record.ingested_at, "modified_at": record.modified_at,
                "vector": np.asarray(v, dtype=np.float32),
                "ocr_confidence": c.ocr_confidence, "ocr_boxes": c.ocr_boxes,
            }
            for c, v, st, th in zip(chunks, vectors, search_texts, text_hashes, strict=True)
        ]
        doc_row = asdict(record)
        doc_row["notes"] = json.dumps(list(record.notes), ensure_ascii=False)
        doc_row["folder"] = folder
        with self.writing("adding a document"):
            try:
                if rows:
                    self._write(lambda: self._chunks.add(rows))
                self._write(lambda: self._docs.add([doc_row]))
            except (StorageError, OSError, RuntimeError) as exc:
                # Chunks without a document row are invisible to the library; drop them now
                # (when even that fails, the next open's recovery does it).
                with contextlib.suppress(Exception):
                    self._chunks.delete(f"doc_id = {_sql_str(record.doc_id)}")
                if isinstance(exc, AppError):
                    raise
                raise AppError(f"Could not write the index: {exc}") from exc
            self._ensure_fts()

    def delete_document(self, doc_id: str, *, cleanup: bool = True) -> None:
        """Remove a document's row and chunks; with `cleanup`, purge old versions from disk."""
        where = f"doc_id = {_sql_str(doc_id)}"
        with self.writing("removing a document"):
            self._write(lambda: self._docs.delete(where))
            self._write(lambda: self._chunks.delete(where))
            if cleanup:
                self.compact()

    def compact(self) -> None:
        """Fold new rows into the indexes and physically drop old versions (deleted text)."""
        with self.writing("compacting the index"), warnings.catch_warnings():
            # LanceDB warns that readers of older versions fail: our readers retry on the
            # latest version (`lancedb_io.read`), and deleted text must not survive in old
            # versions (LGPD erasure).
            warnings.simplefilter("ignore", UserWarning)
            for table in (self._chunks, self._docs):
                self._write(functools.partial(table.optimize, cleanup_older_than=timedelta(0),
                                              delete_unverified=True))

    def ensure_vector_index(self, min_rows: int = ANN_MIN_ROWS) -> bool:
        """Build an IVF_HNSW_SQ index once the table is large enough; returns True if built.

        Below `min_rows` a flat scan is exact and fast enough (≈70 ms at 60k rows);
        above it the ANN index brings vector search to ≈12 ms at recall ≈0.97
        (MODELS.md). Rows added later are scanned until `compact()` folds them in.
        """
        rows = self._chunks.count_rows()
        if rows < min_rows or self._vector_indexed:
            return False
        from lancedb.index import HnswSq

        partitions = max(1, min(256, rows // 4000))
        with self.writing("building the vector index"):
            self._write(lambda: self._chunks.create_index(
                "vector", config=HnswSq(distance_type="dot", num_partitions=partitions)))
        self._vector_indexed = True
        return True

    def _ensure_fts(self) -> None:
        if self._fts_ready or self._chunks.count_rows() == 0:
            return
        from lancedb.index import FTS

        with self.writing("building the keyword index"):
            self._refresh_index_flags()
            if self._fts_ready:
                return
            self._write(lambda: self._chunks.create_index(
                "search_text",
                config=FTS(base_tokenizer="simple", lower_case=True, stem=False,
                           remove_stop_words=False, ascii_folding=True, with_position=False),
            ))
        self._fts_ready = True

    # ---- recovery and consistency -------------------------------------------------
    def _rows_with_ids(self, table: Any, columns: list[str]) -> list[dict[str, Any]]:
        if self._read(table.count_rows) == 0:
            return []
        return list(self._read(lambda: table.search().select(columns).with_row_id(True)
                               .limit(None).to_arrow().to_pylist()))

    def recovery_plan(self) -> RecoveryPlan:
        docs = self._rows_with_ids(self._docs, ["doc_id", "source_path", "ingested_at",
                                                "chunk_count"])
        chunks = self._rows_with_ids(self._chunks, ["doc_id", "chunk_id"])
        return plan_recovery(docs, chunks)

    def _delete_rowids(self, table: Any, rowids: Sequence[int]) -> None:
        for start in range(0, len(rowids), _DELETE_BATCH):
            batch = ", ".join(str(int(r)) for r in rowids[start:start + _DELETE_BATCH])
            self._write(functools.partial(table.delete, f"_rowid IN ({batch})"))

    def recover(self) -> int:
        """Repair what an interruption left (caller need not hold the lock); returns fixes.

        Duplicate rows keep one copy (by `_rowid`), chunks without a document row and
        documents missing chunks go (a missing document is re-added by the next ingest),
        and only the newest complete version of each path is kept.
        """
        with self.writing("repairing the index"):
            plan = self.recovery_plan()
            if not plan:
                return 0
            log.info("index recovery: %s", plan.describe())
            self._delete_rowids(self._docs, plan.duplicate_document_rows)
            self._delete_rowids(self._chunks, plan.duplicate_chunk_rows)
            for doc_id in [*plan.orphan_chunk_docs, *plan.incomplete_documents,
                           *plan.superseded_documents]:
                self.delete_document(doc_id, cleanup=False)
            self.compact()
            return plan.fixes

    def unindexed_rows(self) -> int:
        """Passages not yet folded into the keyword index (0 when it is level or absent)."""
        if not self._fts_ready:
            return 0
        stats = self._read(lambda: self._chunks.index_stats(FTS_INDEX))
        return int(stats.num_unindexed_rows) if stats is not None else 0

    def check(self) -> list[str]:
        """What is inconsistent right now (empty when the index is sound); read-only."""
        problems = self.recovery_plan().problems()
        rows = self._read(self._chunks.count_rows)
        if not rows:
            return problems
        fts = self._read(lambda: self._chunks.index_stats(FTS_INDEX))
        if fts is None:
            problems.append("the keyword index is missing")
        elif fts.num_unindexed_rows:
            problems.append(f"{fts.num_unindexed_rows} passages are missing from the keyword "
                            "index (keyword ranking differs from a clean ingest)")
        vector = self._read(lambda: self._chunks.index_stats(VECTOR_INDEX))
        if vector is None and rows >= ANN_MIN_ROWS:
            problems.append("the vector index is missing")
        elif vector is not None and vector.num_unindexed_rows:
            problems.append(f"{vector.num_unindexed_rows} passages are missing from the "
                            "vector index")
        return problems

    def repair(self) -> list[str]:
        """Fix everything `check()` reports; returns what was done (empty when sound)."""
        with self.writing("repairing the index"):
            problems = self.check()
            if not problems:
                return []
            self.recover()
            self._refresh_index_flags()
            self._ensure_fts()
            self.ensure_vector_index()
            self.compact()  # folds unindexed rows into the FTS and vector indexes
            self._refresh_index_flags()
            log.warning("index repaired: %d problems", len(problems))
            return problems

    def recover_if_idle(self) -> list[str]:
        """On open: repair when no other process is writing (a writer's half-done state is
        its own to finish); a full or read-only disk leaves the index as it is, readable."""
        try:
            with self.writer.hold_if_free("checking the index") as held:
                if not held:
                    return []
                return self.repair()
        except StorageError as exc:
            log.info("index check skipped: %s", type(exc).__name__)
            return []
        except Exception:  # a failed repair must not make the library unopenable
            log.exception("index check failed; the index is opened as it is")
            return []

    # ---- reads -----------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        """Every complete document once (a duplicate row awaiting recovery is shown once)."""
        if self._read(self._docs.count_rows) == 0:
            return []
        rows = self._read(lambda: self._docs.search().limit(None).to_list())
        return _records(rows)

    def documents_at(self, source_path: str) -> list[DocumentRecord]:
        """The documents indexed from one path, read fresh (another process may have written)."""
        rows = self._read(lambda: self._docs.search()
                          .where(f"source_path = {_sql_str(source_path)}").limit(None).to_list())
        return _records(rows)

    def document(self, doc_id: str) -> DocumentRecord | None:
        rows = self._read(lambda: self._docs.search().where(f"doc_id = {_sql_str(doc_id)}")
                          .limit(None).to_list())
        records = _records(rows)
        return records[0] if records else None

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        """Existing vectors of a document keyed by chunk text hash (re-embed only what changed)."""
        if not self.embedder_matches:
            return {}
        tbl = self._read(lambda: self._chunks.search().where(f"doc_id = {_sql_str(doc_id)}")
                         .select(["text_hash", "vector"]).limit(None).to_arrow())
        hashes = tbl.column("text_hash").to_pylist()
        vectors = tbl.column("vector").to_pylist()
        return {h: np.asarray(v, dtype=np.float32) for h, v in zip(hashes, vectors, strict=True)}

    def get_chunk(self, chunk_id: str) -> dict[str, Any] | None:
        rows = self._read(lambda: self._chunks.search().where(f"chunk_id = {_sql_str(chunk_id)}")
                          .limit(1).to_list())
        if not rows:
            return None
        row = rows[0]
        row.pop("vector", None)
        return dict(row)

    def chunk_count(self) -> int:
        return int(self._chunks.count_rows())
    def chunk_texts(self, doc_id: str) -> list[str]:
        """A document's chunk texts in order (to find copies of it elsewhere, e.g. in chats)."""
        tbl = self._read(lambda: self._chunks.search().where(f"doc_id = {_sql_str(doc_id)}")
                         .select(["position", "text"]).limit(None).to_arrow())
        return [r["text"] for r in sorted(tbl.to_pylist(), key=lambda r: r["position"])]

    def iter_chunks(self, batch: int = 512) -> Iterable[dict[str, Any]]:
        """All chunk rows without vectors, in (doc_id, position) order (for reindex)."""
        cols = [f.name for f in _chunks_schema(self.dim) if f.name != "vector"]
        tbl = self._read(lambda: self._chunks.search().select(cols).limit(None).to_arrow())
        rows = sorted(tbl.to_pylist(), key=lambda r: (r["doc_id"], r["position"]))
        yield from rows

    _RESULT_COLUMNS = ["chunk_id", "doc_id", "position", "text", "prefix", "title",
                       "source_path", "file_type", "language", "page_start", "page_end",
                       "char_start", "char_end", "heading_path", "ingested_at", "modified_at",
                       "folder", "ocr_confidence", "ocr_boxes"]

    def search_vector(self, vector: np.ndarray, k: int, where: str | None) -> list[dict[str, Any]]:
        if not self.embedder_matches or self._read(self._chunks.count_rows) == 0:
            return []

        def run() -> list[dict[str, Any]]:
            builder: Any = self._chunks.search(np.asarray(vector, dtype=np.float32),
                                               query_type="vector", vector_column_name="vector")
            q = builder.distance_type("dot").limit(k).select([*self._RESULT_COLUMNS, "_distance"])
            if self._vector_indexed:
                q = q.nprobes(8).ef(128)
            if where:
                q = q.where(where, prefilter=True)
            return list(q.to_list())

        return self._read(run)

    def search_keyword(self, analyzed_query: str, k: int,
                       where: str | None) -> list[dict[str, Any]]:
        if not analyzed_query.strip() or self._read(self._chunks.count_rows) == 0:
            return []
        if not self._fts_ready:
            self._refresh_index_flags()
        if not self._fts_ready:  # a writer is adding the very first rows: build it if we may
            with self.writer.hold_if_free("building the keyword index") as held:
                if not held:
                    return []
                self._ensure_fts()

        def run() -> list[dict[str, Any]]:
            q = (self._chunks.search(analyzed_query, query_type="fts", fts_columns="search_text")
                 .limit(k).select([*self._RESULT_COLUMNS, "_score"]))
            if where:
                q = q.where(where, prefilter=True)
            return list(q.to_list())

        return self._read(run)

    def stats(self) -> dict[str, Any]:
        size = 0
        for p in self.directory.rglob("*"):
            with contextlib.suppress(OSError):  # a compaction may delete files as we walk
                if p.is_file():
                    size += p.stat().st_size
        return {
            "documents": len(self.documents()),
            "chunks": self._read(self._chunks.count_rows),
            "bytes": size,
            "embedder_id": self.embedder_id,
            "dim": self.dim,
            "schema_version": int(self.meta.get("schema_version", 0)),
            "embedder_matches": self.embedder_matches,
            "directory": str(self.directory),
        }


def upgrade_generation_to_v2(directory: Path) -> None:
    """Schema 1 → 2 for one generation: add the OCR columns (all null) to `chunks`, then
    record schema 2 in its meta file. Idempotent, so a crash in between is repaired by
    running it again."""
    import lancedb

    db = lancedb.connect(str(directory))
    if "chunks" in set(db.list_tables().tables):
        table = db.open_table("chunks")
        missing = [f for f in _ocr_columns() if f.name not in table.schema.names]
        if missing:
            table.add_columns(missing)
    meta_path = directory / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["schema_version"] = 2
    write_json_atomic(meta_path, meta)


def _records(rows: list[dict[str, Any]]) -> list[DocumentRecord]:
    out: dict[str, DocumentRecord] = {}
    for r in rows:
        r.pop("folder", None)
        r.pop("_rowid", None)
        r["notes"] = tuple(json.loads(r.get("notes") or "[]"))
        out.setdefault(r["doc_id"], DocumentRecord(**r))
    return sorted(out.values(), key=lambda d: (d.title.casefold(), d.doc_id))


def _mkdir(path: Path) -> None:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        mapped = storage_error(exc, str(path))
        if mapped is not None:
            raise mapped from exc
        raise


def switch_generation(root: Path, new_generation: str) -> None:
    """Atomically make `new_generation` the active index and delete the old one.

    The caller holds the library writer lock (reindex does for its whole run)."""
    old = current_generation(root)
    write_json_atomic(root / POINTER_FILE, {"generation": new_generation})
    if old and old != new_generation:
        shutil.rmtree(root / old, ignore_errors=True)


def _generation_number(name: str) -> int:
    return int(name[1:]) if name[:1] == "g" and name[1:].isdigit() else 0


def next_generation_name(root: Path) -> str:
    existing = [p.name for p in root.iterdir() if p.is_dir() and p.name.startswith("g")]
    numbers = [int(n[1:]) for n in existing if n[1:].isdigit()]
    return f"g{max(numbers, default=0) + 1}"
