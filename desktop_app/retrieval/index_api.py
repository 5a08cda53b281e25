"""The index seam (INDEX_SPEC.md): typed rows with a normalised score, filters defined once.

What a hybrid searcher needs from any searchable store (`SearchLegs`) and what a
document index offers on top (`DocumentIndex`). Qt-free and free of any storage
library: LanceDB and PostgreSQL implement it in their own modules.

Written for the PostgreSQL team library (issue 18) ahead of the index-interface
refactor (issue 12), which owns this module and may refine names, not the shape.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np

from desktop_app.retrieval.types import SearchFilters

if TYPE_CHECKING:
    from desktop_app.ingest.types import Chunk
    from desktop_app.retrieval.index import DocumentRecord

RowT = TypeVar("RowT")

LOCAL_LIBRARY = "local"


def folder_filter(folder: str) -> tuple[str, str]:
    """(the folder itself, its prefix on a path boundary) for `SearchFilters.folder`."""
    resolved = str(Path(folder).expanduser().resolve())
    return resolved, resolved.rstrip(os.sep) + os.sep


@dataclass(frozen=True)
class Scored(Generic[RowT]):
    """One row of one leg: higher `score` is better (cosine for vectors, BM25 for keywords)."""

    row: RowT
    score: float
    key: str  # stable identity for fusion (chunk_id, memory id, …)
    tiebreak: tuple[Any, ...]  # deterministic order on ties: (doc_id, position) for chunks


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
    """A document's text rebuilt from its stored chunks (overlaps removed), one string per
    page — shown when the original file is not on this computer."""
    pages: dict[int, str] = {}
    previous = ""
    for chunk in sorted(chunks, key=lambda c: c.position):
        text = chunk.text
        overlap = 0
        start = previous.find(text[:20]) if len(text) >= 20 else -1
        while start >= 0:  # the longest tail of the previous chunk this one starts with
            if text.startswith(previous[start:]):
                overlap = len(previous) - start
                break
            start = previous.find(text[:20], start + 1)
        piece = text[overlap:]
        page = pages.get(chunk.page_start, "")
        pages[chunk.page_start] = (page + (" " if page and overlap == 0 else "") + piece)
        previous = text
    last = max(pages, default=0)
    return [pages.get(n, "") for n in range(1, last + 1)]


class SearchLegs(Protocol[RowT]):
    """What the hybrid searcher needs: two legs, each best-first, filters applied inside."""

    @property
    def vector_usable(self) -> bool: ...  # False: built by another embedder → keyword only

    def mismatch_message(self) -> str: ...

    def search_vector(self, vector: np.ndarray, k: int,
                      filters: SearchFilters | None) -> Sequence[Scored[RowT]]: ...

    def search_keyword(self, text: str, k: int,
                       filters: SearchFilters | None) -> Sequence[Scored[RowT]]: ...


class DocumentIndex(SearchLegs[ChunkRow], Protocol):
    """A document store: keyword analysis happens inside (`add_document` takes raw chunks)."""

    schema_version: int

    @property
    def embedder_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray) -> bool: ...  # False: already there (same content)

    def delete_document(self, doc_id: str, *, purge: bool = True) -> None: ...

    def documents(self) -> list[DocumentRecord]: ...

    def document(self, doc_id: str) -> DocumentRecord | None: ...

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None: ...

    def get_chunk(self, chunk_id: str) -> ChunkRow | None: ...

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]: ...

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]: ...

    def purge(self) -> None: ...

    def stats(self) -> IndexStats: ...
