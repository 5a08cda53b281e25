"""The index seam: typed rows with a normalised score, filters defined once
(docs/architecture.md, "The Index seam").

What a hybrid searcher needs from any searchable store (`SearchLegs`: documents in
LanceDB or PostgreSQL, memories, conversation exchanges) and what a document index
offers on top (`DocumentIndex`: writes, point lookups, purge, the writer surface the
ingestion pipeline uses). Qt-free and free of any storage library: LanceDB
(`retrieval/index.py`), PostgreSQL (`retrieval/pg_index.py`) and the in-memory test
double (`tests/index_double.py`) implement it, and one contract suite
(`tests/retrieval/test_index_contract.py`) runs against each.

Keyword analysis lives inside the implementations (`add_document` takes raw chunks,
`search_keyword` the user's raw text): every backend stores `keyword_text(chunk)`.
Folder filters use one normalisation (`folder_key`): forward slashes, case as stored,
a prefix only on a path boundary.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np

from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.analyze import analyze

if TYPE_CHECKING:
    from desktop_app.retrieval.types import Chunk

RowT = TypeVar("RowT")
FilterT_contra = TypeVar("FilterT_contra", contravariant=True)

LOCAL_LIBRARY = "local"


# ---- one normalisation for folders ------------------------------------------------------
def folder_key(path: str) -> str:
    """A folder as every backend stores and compares it: forward slashes, no trailing slash
    (a root keeps its own: "/", "C:/"), case as stored. "C:\\Users\\ana\\Docs\\" and
    "C:/Users/ana/Docs" are one key."""
    key = path.replace("\\", "/")
    while len(key) > 1 and key.endswith("/") and not key.endswith(":/"):
        key = key[:-1]
    return key


def folder_of(source_path: str) -> str:
    """The folder key of a stored source path (Windows or POSIX, on any OS)."""
    key = folder_key(source_path)
    head, sep, _ = key.rpartition("/")
    if not sep:
        return ""
    if head == "" or head.endswith(":"):
        return head + "/"  # "/x.pdf" → "/", "C:/x.pdf" → "C:/"
    return head


def folder_filter(folder: str) -> tuple[str, str]:
    """(the folder's key, the prefix of everything under it on a path boundary) for
    `SearchFilters.folder`. A relative or `~` folder is made absolute here (the stored paths
    are), an existing one resolved like the stored paths; a path in the other OS's form is
    kept as written."""
    expanded = os.path.expanduser(folder)
    absolute = PurePosixPath(expanded).is_absolute() or PureWindowsPath(expanded).is_absolute()
    if not absolute or os.path.isdir(expanded):
        expanded = str(Path(expanded).resolve())
    key = folder_key(expanded)
    return key, key if key.endswith("/") else key + "/"


def in_folder(folder: str, filter_folder: str) -> bool:
    """The one predicate behind every backend's SQL: `folder` is the filter's folder or under it."""
    key, prefix = folder_filter(filter_folder)
    return folder == key or folder.startswith(prefix)


# ---- what every backend stores for a chunk ------------------------------------------------
def without_ranges(text: str, ranges: Sequence[tuple[int, int]]) -> str:
    """`text` with `ranges` left out (a space where they were, so words never join)."""
    if not ranges:
        return text
    out, position = [], 0
    for start, end in sorted(ranges):
        out.append(text[position:max(position, start)])
        position = max(position, end)
    out.append(text[position:])
    return " ".join(part.strip() for part in out if part.strip())


def label_ranges(text: str, ranges: Sequence[tuple[int, int]], label: str) -> str:
    """`text` with each of `ranges` wrapped as "[label: …]" — revoked wording shown where
    plain text cannot strike it through (the terminal, a snippet)."""
    if not ranges:
        return text
    out, position = [], 0
    for start, end in sorted(ranges):
        start = max(position, start)
        if end <= start:
            continue
        out += [text[position:start], f"[{label}: {text[start:end]}]"]
        position = end
    out.append(text[position:])
    return "".join(out)


def compose_embedding_text(prefix: str, text: str,
                           revoked: Sequence[tuple[int, int]] = ()) -> str:
    """What gets embedded and keyword-indexed: the contextual prefix plus the chunk text
    without its struck-through (revoked) wording, so search ranks the law in force."""
    text = without_ranges(text, revoked)
    return f"{prefix}\n{text}" if prefix else text


def chunk_text_hash(chunk: Chunk) -> str:
    """Identity of a chunk's text (an unchanged passage keeps its vector on re-ingest);
    revoked ranges count, since they change what is embedded."""
    marked = f"\0{list(chunk.revoked)}" if chunk.revoked else ""
    return hashlib.sha256(f"{chunk.prefix}\0{chunk.text}{marked}".encode()).hexdigest()[:24]


def keyword_text(chunk: Chunk) -> str:
    """The analysed column every backend's keyword leg searches (folded, then stemmed)."""
    return analyze(compose_embedding_text(chunk.prefix, chunk.text, chunk.revoked))


def stored_keyword_text(prefix: str | None, text: str, marks: str | None) -> str:
    """`keyword_text` of a stored row (its `prefix`, `text` and `marks` columns): what an
    upgrade compares the row's `search_text` with when the analyzer changed."""
    revoked, _ = parse_marks(marks)
    return analyze(compose_embedding_text(prefix or "", text, revoked))


def marks_json(revoked: Sequence[tuple[int, int]], path: str) -> str | None:
    """The stored `marks` column of a chunk: its revoked ranges and structural path (null
    when it has neither)."""
    marks: dict[str, Any] = {}
    if revoked:
        marks["revoked"] = [[int(a), int(b)] for a, b in revoked]
    if path:
        marks["path"] = path
    return json.dumps(marks, ensure_ascii=False, separators=(",", ":")) if marks else None


def parse_marks(raw: str | None) -> tuple[tuple[tuple[int, int], ...], str]:
    """(revoked ranges, path) back from `marks_json`; empty when absent or damaged."""
    if not raw:
        return (), ""
    try:
        marks = json.loads(raw)
        revoked = tuple((int(a), int(b)) for a, b in marks.get("revoked", ()))
        return revoked, str(marks.get("path", ""))
    except (ValueError, TypeError, AttributeError):
        return (), ""


# ---- rows -----------------------------------------------------------------------------------
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
    # the version of reading that produced its chunks (ingest.loaders.reader_version): 0
    # before versions were kept; None where the store keeps none (the team library)
    reader: int | None = None

    @property
    def folder(self) -> str:
        return folder_of(self.source_path)


@dataclass(frozen=True)
class Scored(Generic[RowT]):
    """One row of one leg: higher `score` is better (cosine for vectors, BM25 for keywords)."""

    row: RowT
    score: float
    key: str  # stable identity for fusion (chunk_id, memory id, …)
    tiebreak: tuple[Any, ...]  # deterministic order on ties: (doc_id, position) for chunks


def best_first(scored: Sequence[Scored[RowT]]) -> list[Scored[RowT]]:
    """A leg's rows in the order every backend returns: score desc, then `tiebreak`."""
    return sorted(scored, key=lambda s: (-s.score, s.tiebreak))


@dataclass(frozen=True)
class ChunkRow:
    """A chunk as stored, with its document's metadata and the library it lives in."""

    chunk_id: str
    doc_id: str
    position: int
    text: str
    prefix: str
    title: str
    source_path: str
    folder: str
    file_type: str
    language: str
    page_start: int
    page_end: int
    char_start: int
    char_end: int
    heading_path: tuple[str, ...]
    ingested_at: str
    modified_at: str
    library: str = LOCAL_LIBRARY
    ocr_confidence: float | None = None  # set when the text was read by OCR (0–1)
    ocr_boxes: str = ""  # JSON line boxes of the passage on the page image (ingest/ocr.py)
    revoked: tuple[tuple[int, int], ...] = ()  # struck-through (revoked) ranges of `text`
    path: str = ""  # the structural unit the chunk starts in ("Art. 18, § 2º")

    def scored(self, score: float) -> Scored[ChunkRow]:
        return Scored(self, float(score), self.chunk_id, (self.doc_id, self.position))


def chunk_row(record: DocumentRecord, chunk: Chunk, library: str = LOCAL_LIBRARY) -> ChunkRow:
    """The stored row of `chunk` of `record` (what `get_chunk` gives back)."""
    return ChunkRow(
        chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, position=chunk.position, text=chunk.text,
        prefix=chunk.prefix, title=record.title, source_path=record.source_path,
        folder=record.folder, file_type=record.file_type, language=record.language,
        page_start=chunk.page_start, page_end=chunk.page_end, char_start=chunk.char_start,
        char_end=chunk.char_end, heading_path=tuple(chunk.heading_path),
        ingested_at=record.ingested_at, modified_at=record.modified_at, library=library,
        ocr_confidence=chunk.ocr_confidence, ocr_boxes=chunk.ocr_boxes or "",
        revoked=tuple(chunk.revoked), path=chunk.path)


def row_matches(row: ChunkRow, filters: SearchFilters | None) -> bool:
    """`SearchFilters` as a Python predicate (the in-memory backend's translation)."""
    if filters is None:
        return True
    return ((not filters.file_types or row.file_type in filters.file_types)
            and (not filters.since or row.ingested_at >= filters.since)
            and (not filters.until or row.ingested_at < filters.until)
            and (not filters.modified_since or row.modified_at >= filters.modified_since)
            and (not filters.language or row.language == filters.language)
            and (not filters.folder or in_folder(row.folder, filters.folder))
            and (not filters.doc_ids or row.doc_id in filters.doc_ids))


@dataclass(frozen=True)
class IndexStats:
    documents: int
    chunks: int
    bytes: int
    embedder_id: str
    dim: int
    schema_version: int
    embedder_matches: bool
    location: str  # a folder for LanceDB, "host/database" for a server


def stored_pages(chunks: Sequence[ChunkRow]) -> list[str]:
    """A document's text rebuilt from its stored chunks, one string per page — shown when
    the original file is not on this computer (`doc_text.DocumentText`)."""
    from desktop_app.retrieval.doc_text import stored_pages as rebuild

    return rebuild(chunks)


# ---- protocols -------------------------------------------------------------------------------
class SearchLegs(Protocol[RowT, FilterT_contra]):
    """What the hybrid searcher needs: two legs, each best-first (ties by `tiebreak`),
    filters applied inside the store."""

    @property
    def vector_usable(self) -> bool: ...  # False: built by another embedder → keyword only

    def mismatch_message(self) -> str: ...

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: FilterT_contra | None) -> Sequence[Scored[RowT]]: ...

    def search_keyword(self, text: str, k: int,
                       filters: FilterT_contra | None) -> Sequence[Scored[RowT]]: ...


class DocumentIndex(SearchLegs[ChunkRow, SearchFilters], Protocol):
    """A document library. Keyword analysis happens inside (`add_document` takes raw chunks).

    The writer surface (`writing`, `is_current`, `check_writable`, `documents_at`) is what the
    ingestion pipeline needs to be safe with several writers: a local library serialises them
    with a lock file and may be switched to a new generation by a reindex; a server library
    has its own transactions (no lock, always current)."""

    library: str  # "local" or a team library's name
    # True: one document per content (a team library): a file whose content is already
    # there is skipped before it is embedded
    content_addressed: bool

    @property
    def schema_version(self) -> int: ...

    @property
    def embedder_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    # ---- writes ----
    def writing(self, purpose: str, *, timeout: float | None = None,
                cancel: Callable[[], bool] | None = None) -> AbstractContextManager[None]: ...

    def is_current(self) -> bool: ...  # False: a reindex elsewhere replaced this generation

    def check_writable(self) -> None: ...  # raises StorageError on read-only media

    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray) -> bool: ...  # False: already there (same content)

    def delete_document(self, doc_id: str, *, purge: bool = True) -> None: ...

    def unindexed_rows(self) -> int: ...  # rows not yet folded into the search indexes

    def optimize(self) -> None: ...  # after a run of writes: fold rows in, drop deleted text

    def purge(self) -> None: ...  # deleted text physically gone (compact / VACUUM FULL)

    # ---- reads ----
    def documents(self) -> list[DocumentRecord]: ...

    def document(self, doc_id: str) -> DocumentRecord | None: ...

    def documents_at(self, source_path: str) -> list[DocumentRecord]: ...

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None: ...

    def get_chunk(self, chunk_id: str) -> ChunkRow | None: ...

    def document_chunks(self, doc_id: str) -> list[ChunkRow]: ...  # in position order

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]: ...

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]: ...

    def stats(self) -> IndexStats: ...
