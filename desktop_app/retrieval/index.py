"""The LanceDB index: `documents` and `chunks` tables plus the keyword (FTS) index.

Implements `index_api.DocumentIndex` (the contract the PostgreSQL team library and the
in-memory test double implement too): raw chunks in (keyword analysis inside), typed
`ChunkRow`s with normalised scores out (cosine for the vector leg, BM25 for the keyword
leg), `SearchFilters` translated once into LanceDB SQL.

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
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from desktop_app.config.files import read_json, write_json_atomic
from desktop_app.errors import (
    AppError,
    DamagedStoreError,
    LibraryRebuiltError,
    StorageError,
    storage_error,
)
from desktop_app.locking import LIBRARY, WriterLock, notify, writer_lock
from desktop_app.retrieval import lancedb_io
from desktop_app.retrieval.index_api import (
    LOCAL_LIBRARY,
    ChunkRow,
    DocumentRecord,
    IndexStats,
    Scored,
    best_first,
    chunk_text_hash,
    folder_filter,
    keyword_text,
    marks_json,
    parse_marks,
)
from desktop_app.retrieval.index_repair import (
    CHUNK_DOCUMENT_COLUMNS,
    LOST_MARK,
    PLACEHOLDER_HASH,
    HealPlan,
    RecoveryPlan,
    has_lost_passages,
    plan_heal,
    plan_recovery,
)
from desktop_app.retrieval.lancedb_io import sql_str as _sql_str
from desktop_app.retrieval.search import SearchWarning, SearchWarningCode
from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.caches import forget_cached_text

if TYPE_CHECKING:
    from desktop_app.retrieval.types import Chunk

__all__ = ["DocumentRecord", "LanceIndex", "filters_to_sql"]

log = logging.getLogger(__name__)

T = TypeVar("T")
# 2: chunks carry ocr_confidence and ocr_boxes; 3: `folder` uses forward slashes on every OS;
# 4: chunks carry `marks` (revoked ranges and structural path, JSON); 5: `search_text` analysed
# with text.analyze.ANALYZER_VERSION 2; 6: documents carry `reader`, the version of reading
# that produced their chunks (ingest.loaders.reader_version; migrations.py); 7: `search_text`
# analysed with ANALYZER_VERSION 3; 8: with ANALYZER_VERSION 4
SCHEMA_VERSION = 8
ANN_MIN_ROWS = 50_000
# The vector index: IVF_RQ (RaBitQ: 1 bit a dimension in the index, full vectors re-rank the
# best candidates). bench/scale.py on near-tie data at 300k rows: recall@10 0.958 at 11.7 ms
# p50, built in 18 s, where the previous IVF_HNSW_SQ (4,000 rows a partition, nprobes 8) gave
# 0.818 at 16.9 ms and took 159 s to build (IVF_PQ: 0.827, 246 s). Partitions: sqrt(rows) / 2;
# a search probes ANN_PROBE_SHARE of them (at least ANN_MIN_NPROBES) and re-ranks
# ANN_REFINE x k candidates with their stored vectors.
ANN_PROBE_SHARE = 0.15
ANN_MIN_NPROBES = 20
ANN_REFINE = 10
ANN_HNSW_NPROBES, ANN_HNSW_EF = 8, 128  # an index built before (IVF_HNSW_SQ) is kept as is
POINTER_FILE = "current.json"
META_FILE = "index_meta.json"
FTS_INDEX = "search_text_idx"
VECTOR_INDEX = "vector_idx"
_DELETE_BATCH = 400
TABLES = ("documents", "chunks")
WHAT = {"documents": "the list of documents", "chunks": "the passages table"}
UNIT = {"documents": "entries", "chunks": "passages"}
LIBRARY_WHAT = "this computer's library index"
HEAL_FILE = "heal-pending.json"  # damaged files were set aside; rows not yet reconciled


def _documents_schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("doc_id", pa.string()), ("title", pa.string()), ("source_path", pa.string()),
        ("folder", pa.string()), ("file_type", pa.string()), ("language", pa.string()),
        ("size", pa.int64()), ("content_hash", pa.string()), ("page_count", pa.int32()),
        ("chunk_count", pa.int32()), ("ingested_at", pa.string()), ("modified_at", pa.string()),
        ("embedder_id", pa.string()), ("notes", pa.string()),
        *_reader_columns(),
    ])


def _reader_columns() -> list[Any]:
    """Added in schema 6: the version of reading a document was indexed with; null (read
    as 0) for documents indexed before."""
    import pyarrow as pa

    return [pa.field("reader", pa.int32(), nullable=True)]


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
        *_marks_columns(),
    ])


def _ocr_columns() -> list[Any]:
    """Added in schema 2: null confidence = text-layer chunk; boxes as JSON (ingest/ocr.py)."""
    import pyarrow as pa

    return [pa.field("ocr_confidence", pa.float32(), nullable=True),
            pa.field("ocr_boxes", pa.string(), nullable=True)]


def _marks_columns() -> list[Any]:
    """Added in schema 4: struck-through ranges and the structural path (index_api.marks_json);
    null for chunks with neither and for chunks indexed before."""
    import pyarrow as pa

    return [pa.field("marks", pa.string(), nullable=True)]


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
        folder, prefix = folder_filter(filters.folder)
        parts.append(f"(folder = {_sql_str(folder)} OR starts_with(folder, {_sql_str(prefix)}))")
    if filters.language:
        parts.append(f"language = {_sql_str(filters.language)}")
    if filters.doc_ids:
        parts.append(lancedb_io.sql_in("doc_id", filters.doc_ids))
    return " AND ".join(parts) or None


def _rows_or_zero(table: Any) -> int:
    try:
        return int(table.count_rows())
    except Exception:  # a damaged file: it held rows
        return 1


def _open_or_create(db: Any, name: str, schema: Any) -> Any:
    if name in set(db.list_tables().tables):
        return db.open_table(name)
    return db.create_table(name, schema=schema, exist_ok=True)


def _mend_pointer(root: Path, generation: str, writer: WriterLock) -> None:
    """A pointer that was garbled, deleted or named a deleted folder is written again for
    the generation `current_generation` fell back to (when we may write)."""
    with contextlib.suppress(FileNotFoundError, ValueError, KeyError, TypeError, OSError):
        if str(read_json(root / POINTER_FILE)["generation"]) == generation:
            return
    try:
        with writer.hold_if_free("mending the index pointer") as held:
            if held:
                write_json_atomic(root / POINTER_FILE, {"generation": generation})
                notify(f"The library's pointer to its active index ({POINTER_FILE}) was "
                       f"damaged or missing; Acervo pointed it at {generation} again.")
    except StorageError:
        pass  # read-only: the fallback keeps working without it


def current_generation(root: Path) -> str | None:
    """The active generation's folder name under `root`, or None before the first ingest."""
    pointer = root / POINTER_FILE
    try:
        name = str(read_json(pointer)["generation"])
    except FileNotFoundError:
        name = ""
    except (ValueError, KeyError, TypeError, OSError):  # garbled: fall back below
        log.info("the index pointer %s is unreadable", POINTER_FILE)
        name = ""
    if name and (root / name).is_dir():
        return name
    # the pointer is gone, garbled or names a deleted folder: the newest generation that
    # has its metadata (the one a completed reindex made active last)
    try:
        # generations only (g1, g2, …): an index opened on its own beside other indexes
        # (evaluation caches) has siblings that are not generations of one library
        found = [p.name for p in root.iterdir()
                 if _generation_number(p.name) > 0 and (p / META_FILE).is_file()]
    except OSError:
        found = []
    return max(found, key=_generation_number) if found else (name or None)


class LanceIndex:
    """One generation of the document index (documents + chunks tables)."""

    library = LOCAL_LIBRARY
    content_addressed = False  # a copy of a file at another path is its own document

    def __init__(self, directory: Path, meta: dict[str, Any], *,
                 current_embedder_id: str = "", writer: WriterLock | None = None) -> None:
        self.directory = directory
        self.meta = meta
        self.current_embedder_id = current_embedder_id
        self.writer = writer or writer_lock(directory.parent.parent, LIBRARY)
        self._db = lancedb_io.connect(directory)
        # tables found unreadable or missing when opened (healed by `repair`; None until then)
        self.damage: dict[str, lancedb_io.TableDamage] = {}
        self._docs: Any = None
        self._chunks: Any = None
        self._open_tables()
        self._fts_ready = self._vector_indexed = False
        self._vector_index_type = ""
        self.repaired_on_open: list[str] = []  # what recovery fixed when this was opened
        self.heal_blocked = ""  # why damage found on open could not be healed then
        self.healed: list[str] = []  # what the last `heal` did (on open: what to tell)
        self._lost_count: int | None = None  # documents that lost passages (damage_notice)
        if self.readable:
            self._refresh_index_flags()

    def _open_tables(self) -> None:
        """Open both tables; one that cannot be opened, or is gone while the other holds rows
        (deleted by a sync tool, quarantined), is damage for `heal`, not a fresh library."""
        names = set(self._db.list_tables().tables)
        opened: dict[str, Any] = {}
        for name in TABLES:
            if name in names:
                try:
                    opened[name] = self._db.open_table(name)
                except Exception as exc:
                    log.info("index table %s cannot be opened (%s)", name, type(exc).__name__)
                    self.damage[name] = lancedb_io.TableDamage(name, unreadable=True)
        absent = [n for n in TABLES if n not in opened and n not in self.damage]
        holding_rows = any(_rows_or_zero(t) for t in opened.values())
        for name in absent:
            if holding_rows or self.damage:
                self.damage[name] = lancedb_io.TableDamage(name, unreadable=True)
        if absent and not self.damage:  # a new generation (or one a kill left half-made)
            with self.writer.hold("creating the library"):
                for name in absent:
                    opened[name] = self._write(functools.partial(
                        _open_or_create, self._db, name, self._schema(name)))
        self._docs, self._chunks = opened.get("documents"), opened.get("chunks")

    def _schema(self, table: str) -> Any:
        return _documents_schema() if table == "documents" else _chunks_schema(self.dim)

    @property
    def readable(self) -> bool:
        """Both tables open (after damage, once `heal` has rebuilt the unreadable one)."""
        return self._docs is not None and self._chunks is not None

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
        _mend_pointer(root, generation, writer)
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
        if index.healed:
            lost = index.damage_notice()
            notify("The library's index had damaged or missing files: "
                   + "; ".join(index.healed) + ". "
                   + ("Search uses the rest; `desktop-app doctor --repair` (or the next ingest "
                      "of their folder) reads those documents again from their files."
                      if lost else "Nothing readable was lost."))
        if not index.readable:  # could not be rebuilt now (read-only, another process writing)
            names = " and ".join(WHAT[n] for n in TABLES if n in index.damage)
            raise DamagedStoreError(
                f"The library's index is damaged ({names} cannot be read) and cannot be "
                f"rebuilt right now ({index.heal_blocked or 'another process is writing'}). "
                "Run `desktop-app doctor --repair` when the data folder is writable.")
        return index

    @property
    def dim(self) -> int:
        return int(self.meta["dim"])

    @property
    def embedder_id(self) -> str:
        return str(self.meta["embedder_id"])

    @property
    def schema_version(self) -> int:
        return int(self.meta.get("schema_version", 0))

    @property
    def vector_usable(self) -> bool:
        """False when the index was built by another embedder: keyword search only."""
        return not self.current_embedder_id or self.current_embedder_id == self.embedder_id

    def mismatch_message(self) -> str:
        return (f"index built with {self.embedder_id}, current embedder "
                f"{self.current_embedder_id}: run reindex")

    # ---- plumbing ----------------------------------------------------------------
    def _refresh(self) -> None:
        for table in (self._docs, self._chunks):
            with contextlib.suppress(Exception):
                if table is not None:
                    table.checkout_latest()

    def _write(self, action: Callable[[], T]) -> T:
        return lancedb_io.write(action, where=str(self.directory.parent.parent), refresh=self._refresh)

    def _read(self, action: Callable[[], T]) -> T:
        return lancedb_io.read(action, refresh=self._refresh, what=LIBRARY_WHAT)

    def _refresh_index_flags(self) -> None:
        indices = {ix.name: ix for ix in self._read(self._chunks.list_indices)}
        self._fts_ready = FTS_INDEX in indices
        self._vector_indexed = VECTOR_INDEX in indices
        self._vector_index_type = (str(getattr(indices[VECTOR_INDEX], "index_type", ""))
                                   if self._vector_indexed else "")

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

    def check_writable(self) -> None:
        """Raises `StorageError` when the data folder cannot be written (read-only media)."""
        self.writer.check_writable()

    # ---- writes ----------------------------------------------------------------
    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray) -> bool:
        """Write chunks, then the document row (the completeness marker); False (nothing
        written) when this document id is already complete here. A placeholder row of the
        same id (rebuilt after a damaged file) is replaced, passages and all."""
        if len(chunks) != len(vectors):
            raise ValueError("chunks and vectors must align")
        folder = record.folder
        rows = [
            {
                "chunk_id": c.chunk_id, "doc_id": c.doc_id, "position": c.position,
                "text": c.text, "prefix": c.prefix, "search_text": keyword_text(c),
                "text_hash": chunk_text_hash(c),
                "page_start": c.page_start, "page_end": c.page_end,
                "char_start": c.char_start, "char_end": c.char_end,
                "heading_path": list(c.heading_path), "title": record.title,
                "source_path": record.source_path, "folder": folder,
                "file_type": record.file_type, "language": record.language,
                "ingested_at": record.ingested_at, "modified_at": record.modified_at,
                "vector": np.asarray(v, dtype=np.float32),
                "ocr_confidence": c.ocr_confidence, "ocr_boxes": c.ocr_boxes,
                "marks": marks_json(c.revoked, c.path),
            }
            for c, v in zip(chunks, vectors, strict=True)
        ]
        doc_row = asdict(record)
        doc_row["notes"] = json.dumps(list(record.notes), ensure_ascii=False)
        doc_row["folder"] = folder
        where = f"doc_id = {_sql_str(record.doc_id)}"
        with self.writing("adding a document"):
            existing = self.document(record.doc_id)
            if existing is not None and existing.content_hash != PLACEHOLDER_HASH:
                return False
            try:
                if existing is not None:  # a placeholder's surviving passages make way
                    self._write(lambda: self._chunks.delete(where))
                if rows:
                    self._write(lambda: self._chunks.add(rows))
                if existing is not None:
                    self._write(lambda: self._docs.delete(where))
                    self._lost_count = None
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
        return True

    def delete_document(self, doc_id: str, *, purge: bool = True) -> None:
        """Remove a document's row and chunks; with `purge`, drop old versions from disk."""
        where = f"doc_id = {_sql_str(doc_id)}"
        with self.writing("removing a document"):
            self._write(lambda: self._docs.delete(where))
            self._write(lambda: self._chunks.delete(where))
            if purge:
                self.purge()

    def purge(self) -> None:
        """Fold new rows into the indexes and physically drop old versions (deleted text);
        in-memory copies of text (stems, sentence vectors) are emptied too."""
        forget_cached_text()
        with self.writing("compacting the index"):
            for table in (self._chunks, self._docs):
                self._write(functools.partial(lancedb_io.compact, table))

    def optimize(self) -> None:
        """After a run of writes: the vector index once the table is large, then `purge`."""
        with self.writing("finishing the writes"):
            self.ensure_vector_index()
            self.purge()

    def ensure_vector_index(self, min_rows: int = ANN_MIN_ROWS) -> bool:
        """Build the IVF_RQ vector index once the table is large enough; True if built.

        Below `min_rows` a flat scan is exact and fast enough (≈70 ms at 60k rows); above,
        the index keeps the vector leg near 10-20 ms at recall@10 ≈0.95 up to 1M rows
        (docs/measurements.md; bench/scale.py). Rows added later are scanned until `purge()`
        folds them in.
        """
        rows = self._chunks.count_rows()
        if rows < min_rows or self._vector_indexed:
            return False
        from lancedb.index import IvfRq

        partitions = ann_partitions(rows)
        with self.writing("building the vector index"):
            self._write(lambda: self._chunks.create_index(
                "vector", config=IvfRq(distance_type="dot", num_partitions=partitions)))
        self._vector_indexed, self._vector_index_type = True, "IvfRq"
        return True

    def _ensure_fts(self) -> None:
        if self._fts_ready or self._chunks.count_rows() == 0:
            return
        with self.writing("building the keyword index"):
            self._refresh_index_flags()
            if self._fts_ready:
                return
            self._write(lambda: lancedb_io.create_fts(self._chunks))
        self._fts_ready = True

    # ---- recovery and consistency -------------------------------------------------
    def _rows_with_ids(self, table: Any, columns: list[str]) -> list[dict[str, Any]]:
        if self._read(table.count_rows) == 0:
            return []
        return list(self._read(lambda: table.search().select(columns).with_row_id(True)
                               .limit(None).to_arrow().to_pylist()))

    def recovery_plan(self) -> RecoveryPlan:
        docs = self._rows_with_ids(self._docs, ["doc_id", "source_path", "ingested_at",
                                                "chunk_count", "content_hash"])
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
                self.delete_document(doc_id, purge=False)
            self.purge()
            return plan.fixes

    def unindexed_rows(self) -> int:
        """Passages not yet folded into the keyword index (0 when it is level or absent)."""
        if not self._fts_ready:
            return 0
        stats = self._read(lambda: self._chunks.index_stats(FTS_INDEX))
        return int(stats.num_unindexed_rows) if stats is not None else 0

    def check(self, *, deep: bool = False) -> list[str]:
        """What is wrong right now (empty when the index is sound); read-only. Damaged or
        missing files first (`deep`: every row decoded, as `doctor` does), then documents
        awaiting a re-read, then consistency (duplicates, orphans, keyword/vector indexes)."""
        problems = [d.describe(WHAT[d.table], UNIT[d.table]) for d in self._damage(deep=deep)]
        if (self.directory / HEAL_FILE).exists():
            problems.append("damaged files were set aside but the two tables are not "
                            "reconciled yet")
        if not self.readable or problems:
            return problems
        return self._placeholder_problems() + self._consistency_problems()

    def _damage(self, *, deep: bool = False) -> list[lancedb_io.TableDamage]:
        found = [self.damage.get(name) or lancedb_io.table_damage(self.directory, name, deep=deep)
                 for name in TABLES]
        for d in found:
            if d.unchecked:
                raise StorageError(f"The library's index files could not be checked ({d.unchecked}).")
        return [d for d in found if d]

    def placeholders(self) -> list[DocumentRecord]:
        """Documents rebuilt from what survived a damaged file, to be read again from their
        files (`doctor --repair`, or the next ingest of their folder)."""
        return self._documents_where(f"content_hash = {_sql_str(PLACEHOLDER_HASH)}")

    def search_notice(self) -> SearchWarning | None:
        """For a search (`HybridSearcher`): documents that lost passages to a damaged file."""
        notice = self.damage_notice()
        return SearchWarning(SearchWarningCode.DAMAGED, notice) if notice else None

    def damage_notice(self) -> str:
        """Which documents lost passages to a damaged file ("" when none); counted once per
        opened index (a repair in another process reopens it)."""
        if self._lost_count is None:
            try:
                self._lost_count = sum(has_lost_passages(d.notes) for d in self.placeholders())
            except AppError:
                self._lost_count = 0
        if not self._lost_count:
            return ""
        return (f"this computer's library, in part: {self._lost_count} documents lost "
                f"passages {LOST_MARK} (run `desktop-app doctor --repair`)")

    def _placeholder_problems(self) -> list[str]:
        waiting = self.placeholders()
        lost = [d for d in waiting if has_lost_passages(d.notes)]
        rest = [d for d in waiting if not has_lost_passages(d.notes)
                and Path(d.source_path).exists()]
        out = []
        if lost:
            out.append(f"{len(lost)} documents lost passages {LOST_MARK} (search uses the "
                       "rest of them)")
        if rest:
            out.append(f"{len(rest)} document entries were rebuilt from their passages and "
                       "wait to be read again from their files")
        return out

    def _consistency_problems(self) -> list[str]:
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

    def repair(self, *, deep: bool = False) -> list[str]:
        """Fix what `check()` reports except re-reading files (the ingest pipeline does that
        for `placeholders()`); returns what was done (empty when sound)."""
        with self.writing("repairing the index"):
            done = self.heal(deep=deep)
            problems = self._consistency_problems()
            if not problems:
                return done
            self.recover()
            self._refresh_index_flags()
            self._ensure_fts()
            self.ensure_vector_index()
            self.purge()  # folds unindexed rows into the FTS and vector indexes
            self._refresh_index_flags()
            log.warning("index repaired: %d problems", len(problems))
            return done + problems

    def recover_if_idle(self) -> list[str]:
        """On open: repair when no other process is writing (a writer's half-done state is
        its own to finish); a full or read-only disk leaves the index as it is, readable."""
        try:
            with self.writer.hold_if_free("checking the index") as held:
                if not held:
                    self.heal_blocked = "another Acervo process is writing to the library"
                    return []
                return self.repair()
        except StorageError as exc:
            log.info("index check skipped: %s", type(exc).__name__)
            self.heal_blocked = "the data folder cannot be written"
            return []
        except Exception:  # a failed repair must not make the library unopenable
            log.exception("index check failed; the index is opened as it is")
            self.heal_blocked = "the repair failed; see the log"
            return []

    # ---- damaged files ---------------------------------------------------------------
    def heal(self, *, deep: bool = False) -> list[str]:
        """Set aside what damaged or missing files took and rebuild each table's rows from the
        other (caller holds the lock); returns one sentence per thing done.

        A damaged data file's fragment is detached (its rows were unreadable anyway) and an
        unreadable table is made again, empty; then documents short of passages become
        placeholders saying how many were lost, and passages whose document row was lost get
        it back from the columns every passage repeats. `heal-pending.json` marks the span
        between the two steps, so a kill there is finished by the next open, not taken for
        an interrupted ingest (whose leftovers `recover` drops)."""
        found = {name: self.damage.get(name)
                 or lancedb_io.table_damage(self.directory, name, deep=deep) for name in TABLES}
        pending_file = self.directory / HEAL_FILE
        pending: dict[str, Any] = {}
        with contextlib.suppress(FileNotFoundError, ValueError):
            pending = read_json(pending_file)
        if not any(found.values()) and not pending:
            return []
        damaged = {n: bool(found[n]) or bool(pending.get(n)) for n in TABLES}
        write_json_atomic(pending_file, damaged)
        done: list[str] = []
        for name, d in found.items():
            other = WHAT[TABLES[1 - TABLES.index(name)]]
            if d.unreadable:
                lancedb_io.remove_table_files(self.directory, name)
                self._write(functools.partial(_open_or_create, self._db, name,
                                              self._schema(name)))
                done.append(f"{WHAT[name]} could not be read and was made again from {other}")
            elif d.fragments:
                self._write(functools.partial(lancedb_io.detach_fragments, self.directory,
                                              name, d.fragments))
                n = len(d.fragments)
                done.append(f"{n} damaged data file{'s' if n > 1 else ''} of {WHAT[name]} "
                            f"({d.rows} {UNIT[name]}) {'were' if n > 1 else 'was'} set aside")
            elif d:
                done.append(f"the search index of {WHAT[name]} was built again")
        self.damage.clear()
        self._docs = self._db.open_table("documents")
        self._chunks = self._db.open_table("chunks")
        if found["chunks"] or damaged["chunks"]:
            self._rebuild_search_indexes()
        plan = plan_heal(self._document_rows(), self._chunk_group_rows(),
                         documents_damaged=damaged["documents"],
                         chunks_damaged=damaged["chunks"], embedder_id=self.embedder_id)
        self._apply(plan)
        self._lost_count = None
        pending_file.unlink(missing_ok=True)
        log.info("index healed: %d things done", len(done) + len(plan.sentences()))
        self.healed = done + plan.sentences()
        return done + plan.sentences()

    def _rebuild_search_indexes(self) -> None:
        """The keyword index again over the rows that remain (its files may be missing or
        name rows of a detached fragment); the vector index is rebuilt by `ensure_vector_index`."""
        names = {ix.name for ix in self._read(self._chunks.list_indices)}
        if VECTOR_INDEX in names:
            self._write(lambda: self._chunks.drop_index(VECTOR_INDEX))
        if self._read(self._chunks.count_rows):
            self._write(lambda: lancedb_io.create_fts(self._chunks))
        elif FTS_INDEX in names:
            self._write(lambda: self._chunks.drop_index(FTS_INDEX))
        self._refresh_index_flags()
        self.ensure_vector_index()

    def _document_rows(self) -> list[dict[str, Any]]:
        if not self._read(self._docs.count_rows):
            return []
        rows = self._read(lambda: self._docs.search().limit(None).to_arrow().to_pylist())
        unique: dict[str, dict[str, Any]] = {}
        for row in rows:
            row["notes_list"] = list(json.loads(row.pop("notes", None) or "[]"))
            unique.setdefault(row["doc_id"], row)
        return list(unique.values())

    def _chunk_group_rows(self) -> list[dict[str, Any]]:
        if not self._read(self._chunks.count_rows):
            return []
        columns = ["doc_id", "position", "page_end", *CHUNK_DOCUMENT_COLUMNS]
        return list(self._read(lambda: self._chunks.search().select(columns).limit(None)
                               .to_arrow().to_pylist()))

    def _apply(self, plan: HealPlan) -> None:
        def stored(row: dict[str, Any]) -> dict[str, Any]:
            out = {k: v for k, v in row.items() if k != "notes_list"}
            out["notes"] = json.dumps(row["notes_list"], ensure_ascii=False)
            return out

        if plan.restored:
            rows = [stored(r) for r in plan.restored]
            self._write(lambda: self._docs.add(rows))
        if plan.placeholders:
            rows = [stored(r) for r in plan.placeholders]
            self._write(lambda: self._docs.merge_insert("doc_id").when_matched_update_all()
                        .execute(rows))

    # ---- reads -----------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        """Every complete document once (a duplicate row awaiting recovery is shown once)."""
        if self._read(self._docs.count_rows) == 0:
            return []
        rows = self._read(lambda: self._docs.search().limit(None).to_list())
        return _records(rows)

    def documents_at(self, source_path: str) -> list[DocumentRecord]:
        """The documents indexed from one path, read fresh (another process may have written)."""
        return self._documents_where(f"source_path = {_sql_str(source_path)}")

    def document(self, doc_id: str) -> DocumentRecord | None:
        records = self._documents_where(f"doc_id = {_sql_str(doc_id)}")
        return records[0] if records else None

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None:
        records = self._documents_where(f"content_hash = {_sql_str(content_hash)}")
        return records[0] if records else None

    def _documents_where(self, where: str) -> list[DocumentRecord]:
        return _records(self._read(lambda: self._docs.search().where(where)
                                   .limit(None).to_list()))

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        """Existing vectors of a document keyed by chunk text hash (re-embed only what changed)."""
        if not self.vector_usable:
            return {}
        tbl = self._read(lambda: self._chunks.search().where(f"doc_id = {_sql_str(doc_id)}")
                         .select(["text_hash", "vector"]).limit(None).to_arrow())
        hashes = tbl.column("text_hash").to_pylist()
        vectors = tbl.column("vector").to_pylist()
        return {h: np.asarray(v, dtype=np.float32) for h, v in zip(hashes, vectors, strict=True)}

    _ROW_COLUMNS = ["chunk_id", "doc_id", "position", "text", "prefix", "title",
                    "source_path", "folder", "file_type", "language", "page_start", "page_end",
                    "char_start", "char_end", "heading_path", "ingested_at", "modified_at",
                    "ocr_confidence", "ocr_boxes", "marks"]

    def _chunks_where(self, where: str, limit: int | None = None) -> list[ChunkRow]:
        rows = self._read(lambda: self._chunks.search().where(where)
                          .select(self._ROW_COLUMNS).limit(limit).to_list())
        return sorted((_chunk_row(r) for r in rows), key=lambda r: (r.doc_id, r.position))

    def get_chunk(self, chunk_id: str) -> ChunkRow | None:
        rows = self._chunks_where(f"chunk_id = {_sql_str(chunk_id)}", limit=1)
        return rows[0] if rows else None

    def document_chunks(self, doc_id: str) -> list[ChunkRow]:
        """A document's chunks in order (its stored text; to find copies of it in chats)."""
        return self._chunks_where(f"doc_id = {_sql_str(doc_id)}")

    def chunk_count(self) -> int:
        return int(self._chunks.count_rows())

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]:
        """Every chunk of every complete document in (doc_id, position) order, read about
        `batch` rows at a time (whole documents per read; for reindex)."""
        documents = sorted(self.documents(), key=lambda d: d.doc_id)
        group: list[str] = []
        size = 0
        for n, record in enumerate(documents):
            group.append(record.doc_id)
            size += record.chunk_count
            if size >= batch or n == len(documents) - 1:
                yield from self._chunks_where(lancedb_io.sql_in("doc_id", group))
                group, size = [], 0

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        """Nearest chunks by cosine (the vectors are normalised: dot product), best first."""
        rows = self._read(self._chunks.count_rows) if self.vector_usable else 0
        if not self.vector_usable or k <= 0 or rows == 0:
            return []
        where = filters_to_sql(filters)

        def run() -> list[dict[str, Any]]:
            builder: Any = self._chunks.search(np.asarray(vector, dtype=np.float32),
                                               query_type="vector", vector_column_name="vector")
            q = builder.distance_type("dot").limit(k).select([*self._ROW_COLUMNS, "_distance"])
            if self._vector_indexed and "Hnsw" in self._vector_index_type:
                q = q.nprobes(ANN_HNSW_NPROBES).ef(ANN_HNSW_EF)
            elif self._vector_indexed:
                q = q.nprobes(ann_nprobes(rows)).refine_factor(ANN_REFINE)
            if where:
                q = q.where(where, prefilter=True)
            return list(q.to_list())

        # LanceDB's dot distance is 1 − cosine
        return best_first([_chunk_row(r).scored(1.0 - float(r["_distance"]))
                           for r in self._read(run)])

    def search_keyword(self, text: str, k: int,
                       filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        """BM25 over the analysed column; `text` is the user's own words (analysed here)."""
        from desktop_app.text.analyze import analyze

        analyzed_query = analyze(text)
        if not analyzed_query.strip() or k <= 0 or self._read(self._chunks.count_rows) == 0:
            return []
        if not self._fts_ready:
            self._refresh_index_flags()
        if not self._fts_ready:  # a writer is adding the very first rows: build it if we may
            with self.writer.hold_if_free("building the keyword index") as held:
                if not held:
                    return []
                self._ensure_fts()
        where = filters_to_sql(filters)

        def run() -> list[dict[str, Any]]:
            q = (self._chunks.search(analyzed_query, query_type="fts", fts_columns="search_text")
                 .limit(k).select([*self._ROW_COLUMNS, "_score"]))
            if where:
                q = q.where(where, prefilter=True)
            return list(q.to_list())

        return best_first([_chunk_row(r).scored(float(r["_score"])) for r in self._read(run)])

    def stats(self) -> IndexStats:
        size = 0
        for p in self.directory.rglob("*"):
            with contextlib.suppress(OSError):  # a compaction may delete files as we walk
                if p.is_file():
                    size += p.stat().st_size
        return IndexStats(
            documents=len(self.documents()), chunks=int(self._read(self._chunks.count_rows)),
            bytes=size, embedder_id=self.embedder_id, dim=self.dim,
            schema_version=self.schema_version, embedder_matches=self.vector_usable,
            location=str(self.directory))


def ann_partitions(rows: int) -> int:
    return max(1, round(rows ** 0.5 / 2))


def ann_nprobes(rows: int) -> int:
    return max(ANN_MIN_NPROBES, round(ANN_PROBE_SHARE * ann_partitions(rows)))


def _chunk_row(r: dict[str, Any]) -> ChunkRow:
    return ChunkRow(
        chunk_id=r["chunk_id"], doc_id=r["doc_id"], position=int(r["position"]), text=r["text"],
        prefix=r["prefix"], title=r["title"], source_path=r["source_path"], folder=r["folder"],
        file_type=r["file_type"], language=r["language"], page_start=int(r["page_start"]),
        page_end=int(r["page_end"]), char_start=int(r["char_start"]),
        char_end=int(r["char_end"]), heading_path=tuple(r["heading_path"] or ()),
        ingested_at=r["ingested_at"], modified_at=r["modified_at"], library=LOCAL_LIBRARY,
        ocr_confidence=(None if r.get("ocr_confidence") is None
                        else float(r["ocr_confidence"])),
        ocr_boxes=r.get("ocr_boxes") or "", **_marks(r.get("marks")))


def _marks(raw: str | None) -> dict[str, Any]:
    revoked, path = parse_marks(raw)
    return {"revoked": revoked, "path": path}


def _add_columns(directory: Path, name: str, fields: list[Any]) -> None:
    """Add to one generation's table `name` those of `fields` it lacks (null in every row);
    nothing when the table does not exist yet."""
    import lancedb

    db = lancedb.connect(str(directory))
    if name in set(db.list_tables().tables):
        table = db.open_table(name)
        missing = [f for f in fields if f.name not in table.schema.names]
        if missing:
            table.add_columns(missing)


def _record_schema(directory: Path, version: int) -> None:
    """Write `version` into one generation's meta file: the last step of each upgrade, so
    a crash before it runs the (idempotent) upgrade again."""
    meta_path = directory / META_FILE
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["schema_version"] = version
    write_json_atomic(meta_path, meta)


def upgrade_generation_to_v2(directory: Path) -> None:
    """Schema 1 → 2 for one generation: add the OCR columns (all null) to `chunks`, then
    record schema 2 in its meta file. Idempotent, so a crash in between is repaired by
    running it again."""
    _add_columns(directory, "chunks", _ocr_columns())
    _record_schema(directory, 2)


def upgrade_generation_to_v3(directory: Path) -> None:
    """Schema 2 → 3 for one generation: the `folder` column in the one form folder filters
    compare (`folder_key`: forward slashes). Libraries indexed on Windows before stored
    "C:\\Users\\ana\\Docs", which the filter for "C:/Users/ana/Docs" never matched. Only rows
    with a backslash are rewritten, then compacted (the keyword and vector indexes fold them
    in); idempotent, and schema 3 is recorded last."""
    import lancedb

    db = lancedb.connect(str(directory))
    names = set(db.list_tables().tables)
    for name in ("chunks", "documents"):
        if name not in names:
            continue
        table = db.open_table(name)
        backslash = "strpos(folder, '\\') > 0"  # SQL strings have no escapes: one backslash
        if table.count_rows(backslash):
            table.update(where=backslash, values_sql={"folder": "replace(folder, '\\', '/')"})
            lancedb_io.compact(table)
    _record_schema(directory, 3)


def _records(rows: list[dict[str, Any]]) -> list[DocumentRecord]:
    out: dict[str, DocumentRecord] = {}
    for r in rows:
        r.pop("folder", None)
        r.pop("_rowid", None)
        r["notes"] = tuple(json.loads(r.get("notes") or "[]"))
        r["reader"] = int(r.get("reader") or 0)
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


def upgrade_generation_to_v4(directory: Path) -> None:
    """Schema 3 → 4 for one generation: add the `marks` column (null: chunks indexed before
    revoked wording and structural paths were recorded; re-ingesting a changed file, or a
    reindex, fills it). Idempotent; schema 4 is recorded last."""
    _add_columns(directory, "chunks", _marks_columns())
    _record_schema(directory, 4)


def upgrade_generation_to_v5(directory: Path) -> None:
    """Schema 4 → 5 for one generation: the keyword column analysed again
    (`_analyse_again`; `text.analyze.ANALYZER_VERSION` 2: "fundamentar" stems as
    "fundamentos" does). Idempotent; schema 5 is recorded last."""
    _analyse_again(directory)
    _record_schema(directory, 5)


def upgrade_generation_to_v7(directory: Path) -> None:
    """Schema 6 → 7 for one generation: the keyword column analysed again
    (`_analyse_again`; `text.analyze.ANALYZER_VERSION` 3: "assegurado" stems as "garantido",
    "vedado" as "proibido" do). Idempotent; schema 7 is recorded last."""
    _analyse_again(directory)
    _record_schema(directory, 7)


def upgrade_generation_to_v8(directory: Path) -> None:
    """Schema 7 → 8 for one generation: the keyword column analysed again
    (`_analyse_again`; `text.analyze.ANALYZER_VERSION` 4: "promoverão" stems as "promover"
    does). Idempotent; schema 8 is recorded last."""
    _analyse_again(directory)
    _record_schema(directory, 8)


def _analyse_again(directory: Path, batch: int = 512) -> None:
    """The keyword column of one generation analysed again with the current analyzer. One
    scan reads the text columns (not the vectors); only rows whose terms change are
    rewritten, 4,096 a commit (a crash leaves every row in the old or the new form, both
    searchable), then the keyword index is rebuilt and old versions dropped. Needs no
    embedder and no source file."""
    import lancedb
    import pyarrow as pa

    from desktop_app.retrieval.index_api import stored_keyword_text

    db = lancedb.connect(str(directory))
    if "chunks" in set(db.list_tables().tables):
        chunks = db.open_table("chunks")
        columns = ["chunk_id", "prefix", "text", "marks", "search_text"]
        # one streamed scan of one version, without the vectors; the rewrites come after it
        ids: list[str] = []
        texts: list[str] = []
        for rows in chunks.search().select(columns).limit(None).to_batches(batch):
            for row in rows.to_pylist():
                terms = stored_keyword_text(row["prefix"], row["text"], row.get("marks"))
                if terms != row["search_text"]:
                    ids.append(row["chunk_id"])
                    texts.append(terms)
        changed = len(ids)
        per_commit = batch * 8
        for start in range(0, changed, per_commit):
            (chunks.merge_insert("chunk_id").when_matched_update_all()
             .execute(pa.table({"chunk_id": ids[start:start + per_commit],
                                "search_text": texts[start:start + per_commit]})))
        if changed:
            lancedb_io.create_fts(chunks)
            lancedb_io.compact(chunks)
        log.info("index %s: %d passages' keyword terms analysed again", directory.name,
                 changed)


def upgrade_generation_to_v6(directory: Path) -> None:
    """Schema 5 → 6 for one generation: add the documents' `reader` column (null: read by a
    version of Acervo that kept none; such a document is read again when its folder is
    next scanned, or by `desktop-app documents reread`). Idempotent; schema 6 is recorded last."""
    _add_columns(directory, "documents", _reader_columns())
    _record_schema(directory, 6)


# schema N → N + 1 for one generation folder (each idempotent, recording N + 1 last): the
# start-up upgrade of the active generation (migrations.py) and the evaluation caches
GENERATION_UPGRADES: dict[int, Callable[[Path], None]] = {
    1: upgrade_generation_to_v2, 2: upgrade_generation_to_v3, 3: upgrade_generation_to_v4,
    4: upgrade_generation_to_v5, 5: upgrade_generation_to_v6, 6: upgrade_generation_to_v7,
    7: upgrade_generation_to_v8}


def upgrade_generation(directory: Path) -> None:
    """Bring one generation folder written by an older Acervo to `SCHEMA_VERSION`."""
    meta_path = directory / META_FILE
    while meta_path.exists():
        version = int(read_json(meta_path).get("schema_version", 1))
        if version >= SCHEMA_VERSION:
            return
        GENERATION_UPGRADES[version](directory)
        if int(read_json(meta_path).get("schema_version", 1)) <= version:
            raise AppError(f"Upgrading the index in {directory} from schema {version} did not "
                           "complete.")
