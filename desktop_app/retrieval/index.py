"""The LanceDB index: `documents` and `chunks` tables plus the keyword (FTS) index.

Kept behind a small surface (add/delete/search vector/search keyword/filters/
stats) so a PostgreSQL + pgvector implementation can replace it later without
touching ingestion, answering or the GUI.

Consistency rules, so that a process killed mid-ingest leaves a usable index:
- a document's chunks are written first, its `documents` row last (that row is
  the "complete" marker); `recover()` on open deletes chunks with no document;
- a changed file gets a new doc id; the old version is deleted only after the
  new one is complete, and `recover()` keeps only the newest version per path.

Blue/green generations: the index lives in `root/<generation>/`; `current.json`
names the active one. A reindex builds a new generation and switches the
pointer atomically when it is complete.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.errors import AppError, DiskFullError
from desktop_app.ingest.types import Chunk
from desktop_app.retrieval.types import SearchFilters

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2  # 2: chunks carry ocr_confidence and ocr_boxes (migrations.py)
ANN_MIN_ROWS = 50_000
POINTER_FILE = "current.json"
META_FILE = "index_meta.json"


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


def _write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, path)


def _wrap_os_error(exc: OSError) -> AppError:
    if exc.errno == 28:  # ENOSPC
        return DiskFullError("The disk is full: free some space and try again. "
                             "Nothing already indexed was lost.")
    return AppError(f"Could not write the index: {exc.strerror or exc}")


class LanceIndex:
    """One generation of the document index (documents + chunks tables)."""

    def __init__(self, directory: Path, meta: dict[str, Any], *,
                 current_embedder_id: str = "") -> None:
        import lancedb

        self.directory = directory
        self.meta = meta
        self.current_embedder_id = current_embedder_id
        self._db = lancedb.connect(str(directory))
        names = set(self._db.list_tables().tables)
        self._docs = (self._db.open_table("documents") if "documents" in names else
                      self._db.create_table("documents", schema=_documents_schema()))
        self._chunks = (self._db.open_table("chunks") if "chunks" in names else
                        self._db.create_table("chunks", schema=_chunks_schema(self.dim)))
        indices = {ix.name for ix in self._chunks.list_indices()}
        self._fts_ready = "search_text_idx" in indices
        self._vector_indexed = "vector_idx" in indices

    # ---- opening / generations -------------------------------------------------
    @classmethod
    def open(cls, root: Path, *, embedder_id: str, dim: int) -> LanceIndex:
        """Open the active generation under `root`, creating the first one if needed."""
        root.mkdir(parents=True, exist_ok=True)
        pointer = root / POINTER_FILE
        if pointer.exists():
            generation = json.loads(pointer.read_text(encoding="utf-8"))["generation"]
        else:
            generation = "g1"
            _write_json_atomic(pointer, {"generation": generation})
        return cls.open_generation(root / generation, embedder_id=embedder_id, dim=dim)

    @classmethod
    def open_generation(cls, directory: Path, *, embedder_id: str, dim: int) -> LanceIndex:
        directory.mkdir(parents=True, exist_ok=True)
        meta_path = directory / META_FILE
        if meta_path.exists():
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        else:
            meta = {"schema_version": SCHEMA_VERSION, "embedder_id": embedder_id, "dim": dim}
            _write_json_atomic(meta_path, meta)
        if int(meta.get("schema_version", 0)) > SCHEMA_VERSION:
            raise AppError("This index was written by a newer version of Acervo; "
                           "update the app to open it.")
        index = cls(directory, meta, current_embedder_id=embedder_id)
        index.recover()
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
        try:
            if rows:
                self._chunks.add(rows)
            self._docs.add([doc_row])
        except OSError as exc:
            raise _wrap_os_error(exc) from exc
        self._ensure_fts()

    def delete_document(self, doc_id: str, *, cleanup: bool = True) -> None:
        """Remove a document's row and chunks; with `cleanup`, purge old versions from disk."""
        where = f"doc_id = {_sql_str(doc_id)}"
        self._docs.delete(where)
        self._chunks.delete(where)
        if cleanup:
            self.compact()

    def compact(self) -> None:
        """Fold new rows into the indexes and physically drop old versions (deleted text)."""
        with warnings.catch_warnings():
            # LanceDB warns that readers of older versions fail; this process is the only
            # writer and deleted text must not survive in old versions (LGPD erasure).
            warnings.simplefilter("ignore", UserWarning)
            for table in (self._chunks, self._docs):
                table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)

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
        self._chunks.create_index("vector",
                                  config=HnswSq(distance_type="dot", num_partitions=partitions))
        self._vector_indexed = True
        return True

    def _ensure_fts(self) -> None:
        if self._fts_ready or self._chunks.count_rows() == 0:
            return
        from lancedb.index import FTS

        self._chunks.create_index(
            "search_text",
            config=FTS(base_tokenizer="simple", lower_case=True, stem=False,
                       remove_stop_words=False, ascii_folding=True, with_position=False),
        )
        self._fts_ready = True

    def recover(self) -> int:
        """Delete chunks of incomplete documents and superseded versions; returns rows fixed."""
        docs = self.documents()
        doc_ids = {d.doc_id for d in docs}
        fixed = 0
        by_path: dict[str, list[DocumentRecord]] = {}
        for d in docs:
            by_path.setdefault(d.source_path, []).append(d)
        for versions in by_path.values():
            if len(versions) > 1:
                versions.sort(key=lambda d: (d.ingested_at, d.doc_id))
                for old in versions[:-1]:
                    self.delete_document(old.doc_id, cleanup=False)
                    doc_ids.discard(old.doc_id)
                    fixed += 1
        chunk_doc_ids = set(
            self._chunks.search().select(["doc_id"]).limit(None).to_arrow()
            .column("doc_id").unique().to_pylist()
        ) if self._chunks.count_rows() else set()
        for orphan in sorted(chunk_doc_ids - doc_ids):
            log.warning("removing chunks of an incomplete document %s", orphan)
            self._chunks.delete(f"doc_id = {_sql_str(orphan)}")
            fixed += 1
        if fixed:
            self.compact()
        return fixed

    # ---- reads -----------------------------------------------------------------
    def documents(self) -> list[DocumentRecord]:
        if self._docs.count_rows() == 0:
            return []
        rows = self._docs.search().limit(None).to_list()
        out = []
        for r in rows:
            r.pop("folder", None)
            r["notes"] = tuple(json.loads(r.get("notes") or "[]"))
            out.append(DocumentRecord(**r))
        out.sort(key=lambda d: (d.title.casefold(), d.doc_id))
        return out

    def document(self, doc_id: str) -> DocumentRecord | None:
        return next((d for d in self.documents() if d.doc_id == doc_id), None)

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        """Existing vectors of a document keyed by chunk text hash (re-embed only what changed)."""
        if not self.embedder_matches:
            return {}
        tbl = (self._chunks.search().where(f"doc_id = {_sql_str(doc_id)}")
               .select(["text_hash", "vector"]).limit(None).to_arrow())
        hashes = tbl.column("text_hash").to_pylist()
        vectors = tbl.column("vector").to_pylist()
        return {h: np.asarray(v, dtype=np.float32) for h, v in zip(hashes, vectors, strict=True)}

    def get_chunk(self, chunk_id: str) -> dict[str, Any] | None:
        rows = (self._chunks.search().where(f"chunk_id = {_sql_str(chunk_id)}")
                .limit(1).to_list())
        if not rows:
            return None
        row = rows[0]
        row.pop("vector", None)
        return dict(row)

    def chunk_count(self) -> int:
        return int(self._chunks.count_rows())

    def iter_chunks(self, batch: int = 512) -> Iterable[dict[str, Any]]:
        """All chunk rows without vectors, in (doc_id, position) order (for reindex)."""
        cols = [f.name for f in _chunks_schema(self.dim) if f.name != "vector"]
        tbl = self._chunks.search().select(cols).limit(None).to_arrow()
        rows = sorted(tbl.to_pylist(), key=lambda r: (r["doc_id"], r["position"]))
        yield from rows

    _RESULT_COLUMNS = ["chunk_id", "doc_id", "position", "text", "prefix", "title",
                       "source_path", "file_type", "language", "page_start", "page_end",
                       "char_start", "char_end", "heading_path", "ingested_at", "modified_at",
                       "folder", "ocr_confidence", "ocr_boxes"]

    def search_vector(self, vector: np.ndarray, k: int, where: str | None) -> list[dict[str, Any]]:
        if not self.embedder_matches or self._chunks.count_rows() == 0:
            return []
        builder: Any = self._chunks.search(np.asarray(vector, dtype=np.float32),
                                           query_type="vector", vector_column_name="vector")
        q = (builder
             .distance_type("dot").limit(k).select([*self._RESULT_COLUMNS, "_distance"]))
        if self._vector_indexed:
            q = q.nprobes(8).ef(128)
        if where:
            q = q.where(where, prefilter=True)
        return q.to_list()

    def search_keyword(self, analyzed_query: str, k: int,
                       where: str | None) -> list[dict[str, Any]]:
        if not analyzed_query.strip() or self._chunks.count_rows() == 0:
            return []
        self._ensure_fts()
        q = (self._chunks.search(analyzed_query, query_type="fts", fts_columns="search_text")
             .limit(k).select([*self._RESULT_COLUMNS, "_score"]))
        if where:
            q = q.where(where, prefilter=True)
        return q.to_list()

    def stats(self) -> dict[str, Any]:
        size = sum(p.stat().st_size for p in self.directory.rglob("*") if p.is_file())
        return {
            "documents": self._docs.count_rows(),
            "chunks": self._chunks.count_rows(),
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
    _write_json_atomic(meta_path, meta)


def switch_generation(root: Path, new_generation: str) -> None:
    """Atomically make `new_generation` the active index and delete the old one."""
    pointer = root / POINTER_FILE
    old = json.loads(pointer.read_text(encoding="utf-8"))["generation"] if pointer.exists() else None
    _write_json_atomic(pointer, {"generation": new_generation})
    if old and old != new_generation:
        shutil.rmtree(root / old, ignore_errors=True)


def next_generation_name(root: Path) -> str:
    existing = [p.name for p in root.iterdir() if p.is_dir() and p.name.startswith("g")]
    numbers = [int(n[1:]) for n in existing if n[1:].isdigit()]
    return f"g{max(numbers, default=0) + 1}"
