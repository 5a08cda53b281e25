"""Interim seam: a `DocumentIndex` (index_api) seen through today's `LanceIndex` surface.

The ingestion pipeline, the hybrid searcher and the GUI services still speak the
LanceDB index's dialect (raw dicts, a LanceDB SQL `where`, `cleanup=`, a stats
dict). Until the index-interface refactor (issue 12) moves them onto
`index_api`, a team library's `PgIndex` is wrapped in this view; the searcher
recognises it and calls the typed legs with `SearchFilters`. Delete this module
when issue 12 lands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import numpy as np

from desktop_app.retrieval.index_api import ChunkRow, Scored

if TYPE_CHECKING:
    from desktop_app.ingest.types import Chunk
    from desktop_app.retrieval.index import DocumentRecord
    from desktop_app.retrieval.pg_index import PgIndex


def scored_to_rows(scored: Sequence[Scored[ChunkRow]]) -> list[dict[str, Any]]:
    """Typed leg results as the dicts the searcher sorts (higher score first on both legs)."""
    return [{**asdict(s.row), "_distance": -s.score, "_score": s.score} for s in scored]


class _ServerWrites:
    """The writer-lock surface of `LanceIndex.writer` for a server library: PostgreSQL's
    transactions and `ON CONFLICT` keep concurrent clients apart, so there is nothing to
    lock or pre-check on this computer."""

    def check_writable(self) -> None:
        return None


class LegacyIndexView:
    """Wraps a typed index (a team library) for code written against `LanceIndex`."""

    def __init__(self, typed: PgIndex) -> None:
        self.typed = typed
        self.writer = _ServerWrites()

    def is_current(self) -> bool:
        return True  # a server library has no local generations to switch

    @contextmanager
    def writing(self, purpose: str, *, timeout: float | None = None,
                cancel: Callable[[], bool] | None = None) -> Iterator[None]:
        del purpose, timeout, cancel  # the server serialises writers itself
        yield

    def unindexed_rows(self) -> int:
        return 0  # the server's indexes follow every insert

    def documents_at(self, source_path: str) -> list[DocumentRecord]:
        return [d for d in self.typed.documents() if d.source_path == source_path]

    def chunk_texts(self, doc_id: str) -> list[str]:
        return self.typed.chunk_texts(doc_id)

    @property
    def library(self) -> str:
        return self.typed.library

    @property
    def embedder_id(self) -> str:
        return self.typed.embedder_id

    @property
    def embedder_matches(self) -> bool:
        return self.typed.vector_usable

    def mismatch_message(self) -> str:
        return self.typed.mismatch_message()

    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk], vectors: np.ndarray,
                     search_texts: Sequence[str] = (), text_hashes: Sequence[str] = ()) -> bool:
        del search_texts, text_hashes  # the typed index analyses and hashes by itself
        return self.typed.add_document(record, chunks, vectors)

    def delete_document(self, doc_id: str, *, cleanup: bool = True) -> None:
        self.typed.delete_document(doc_id, purge=cleanup)

    def compact(self) -> None:
        self.typed.compact()

    def ensure_vector_index(self, min_rows: int = 0) -> bool:
        return False  # the server keeps its HNSW index up to date on every insert

    def documents(self) -> list[DocumentRecord]:
        return self.typed.documents()

    def document(self, doc_id: str) -> DocumentRecord | None:
        return self.typed.document(doc_id)

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None:
        return self.typed.document_by_hash(content_hash)

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        return self.typed.chunk_vectors_by_hash(doc_id)

    def get_chunk(self, chunk_id: str) -> dict[str, Any] | None:
        row = self.typed.get_chunk(chunk_id)
        return asdict(row) if row is not None else None

    def stats(self) -> dict[str, Any]:
        stats = asdict(self.typed.stats())
        stats["directory"] = stats.pop("location")
        return stats
