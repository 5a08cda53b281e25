"""A pure-Python `DocumentIndex` for fast tests of the searcher, the pipeline and answers.

The same contract as LanceDB and PostgreSQL (tests/retrieval/test_index_contract.py runs
against all three): keyword analysis inside (`keyword_text`, BM25 with LanceDB's formula:
k1 = 1.2, b = 0.75, idf = ln(1 + (N − df + 0.5)/(df + 0.5)) over every stored chunk),
cosine for the vector leg, `SearchFilters` as one predicate (`row_matches`), ties by
(doc_id, position). Nothing is written to disk, so `purge` has nothing to drop.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from desktop_app.ingest.types import Chunk
from desktop_app.retrieval.index_api import (
    LOCAL_LIBRARY,
    ChunkRow,
    DocumentRecord,
    IndexStats,
    Scored,
    best_first,
    chunk_row,
    chunk_text_hash,
    keyword_text,
    row_matches,
)
from desktop_app.retrieval.types import SearchFilters
from desktop_app.text.analyze import analyze

K1, B = 1.2, 0.75
MAX_TOKEN_CHARS = 40  # LanceDB's tokenizer drops longer tokens


def _terms(analysed: str) -> list[str]:
    return [t for t in analysed.split() if len(t) <= MAX_TOKEN_CHARS]


@dataclass
class _Stored:
    record: DocumentRecord
    rows: list[ChunkRow]
    vectors: np.ndarray
    terms: list[Counter[str]]
    hashes: list[str]


class InMemoryIndex:
    """`index_api.DocumentIndex` in a dict."""

    schema_version = 2
    library = LOCAL_LIBRARY
    content_addressed = False

    def __init__(self, *, embedder_id: str, dim: int, current_embedder_id: str = "") -> None:
        self._embedder_id = embedder_id
        self._dim = dim
        self.current_embedder_id = current_embedder_id
        self._docs: dict[str, _Stored] = {}
        self._lock = threading.RLock()

    @property
    def embedder_id(self) -> str:
        return self._embedder_id

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def vector_usable(self) -> bool:
        return not self.current_embedder_id or self.current_embedder_id == self._embedder_id

    def mismatch_message(self) -> str:
        return f"index built with {self._embedder_id}, current embedder {self.current_embedder_id}"

    # ---- writes ----
    @contextmanager
    def writing(self, purpose: str, *, timeout: float | None = None,
                cancel: Callable[[], bool] | None = None) -> Iterator[None]:
        with self._lock:
            yield

    def is_current(self) -> bool:
        return True

    def check_writable(self) -> None:
        return None

    def add_document(self, record: DocumentRecord, chunks: Sequence[Chunk],
                     vectors: np.ndarray) -> bool:
        if len(chunks) != len(vectors):
            raise ValueError("chunks and vectors must align")
        with self._lock:
            if record.doc_id in self._docs:
                return False
            self._docs[record.doc_id] = _Stored(
                record, [chunk_row(record, c) for c in chunks],
                np.asarray(vectors, dtype=np.float32).reshape(len(chunks), self._dim),
                [Counter(_terms(keyword_text(c))) for c in chunks],
                [chunk_text_hash(c) for c in chunks])
            return True

    def delete_document(self, doc_id: str, *, purge: bool = True) -> None:
        with self._lock:
            self._docs.pop(doc_id, None)

    def unindexed_rows(self) -> int:
        return 0

    def optimize(self) -> None:
        return None

    def purge(self) -> None:
        return None

    # ---- reads ----
    def documents(self) -> list[DocumentRecord]:
        return sorted((s.record for s in self._docs.values()),
                      key=lambda d: (d.title.casefold(), d.doc_id))

    def document(self, doc_id: str) -> DocumentRecord | None:
        stored = self._docs.get(doc_id)
        return stored.record if stored else None

    def documents_at(self, source_path: str) -> list[DocumentRecord]:
        return [d for d in self.documents() if d.source_path == source_path]

    def document_by_hash(self, content_hash: str) -> DocumentRecord | None:
        return next((d for d in self.documents() if d.content_hash == content_hash), None)

    def get_chunk(self, chunk_id: str) -> ChunkRow | None:
        return next((r for s in self._docs.values() for r in s.rows if r.chunk_id == chunk_id),
                    None)

    def document_chunks(self, doc_id: str) -> list[ChunkRow]:
        stored = self._docs.get(doc_id)
        return list(stored.rows) if stored else []

    def chunk_vectors_by_hash(self, doc_id: str) -> dict[str, np.ndarray]:
        stored = self._docs.get(doc_id)
        if stored is None or not self.vector_usable:
            return {}
        return dict(zip(stored.hashes, stored.vectors, strict=True))

    def iter_chunks(self, batch: int = 512) -> Iterator[ChunkRow]:
        for doc_id in sorted(self._docs):
            yield from self._docs[doc_id].rows

    def stats(self) -> IndexStats:
        return IndexStats(len(self._docs), sum(len(s.rows) for s in self._docs.values()), 0,
                          self._embedder_id, self._dim, self.schema_version, self.vector_usable,
                          "memory")

    # ---- legs ----
    def search_vector(self, vector: np.ndarray, k: int,
                      filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        if not self.vector_usable or k <= 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        scored = [row.scored(float(stored.vectors[i] @ query))
                  for stored in self._docs.values() for i, row in enumerate(stored.rows)
                  if row_matches(row, filters)]
        return best_first(scored)[:k]

    def search_keyword(self, text: str, k: int,
                       filters: SearchFilters | None) -> list[Scored[ChunkRow]]:
        query = Counter(_terms(analyze(text)))
        if not query or k <= 0:
            return []
        every = [(row, terms) for s in self._docs.values()
                 for row, terms in zip(s.rows, s.terms, strict=True)]
        n = len(every)
        avgdl = sum(sum(t.values()) for _, t in every) / max(n, 1)
        df = {term: sum(1 for _, t in every if term in t) for term in query}
        scored = []
        for row, terms in every:
            if not any(term in terms for term in query) or not row_matches(row, filters):
                continue
            dl = sum(terms.values())
            score = 0.0
            for term, repeats in query.items():
                tf = terms.get(term, 0)
                if tf:
                    idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                    score += repeats * idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl))
            scored.append(row.scored(score))
        return best_first(scored)[:k]
