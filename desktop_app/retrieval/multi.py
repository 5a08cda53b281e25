"""One question over several libraries: each library's fused list, fused again with RRF.

The local library and any team libraries each run their own hybrid search (their
scores are not comparable: BM25 statistics differ per library), so their ranked
lists are combined by rank with the same reciprocal rank fusion. The question is
embedded once. A library that cannot be reached is skipped with a warning in the
report: the others still answer (a laptop away from the office keeps working).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.errors import AppError
from desktop_app.retrieval.fusion import fuse_hits
from desktop_app.retrieval.search import (
    LEGS,
    DocumentSearcher,
    SearchReport,
    SearchResult,
    SearchWarning,
    SearchWarningCode,
)
from desktop_app.retrieval.types import Embedder, Hit, SearchFilters

SearcherProvider = Callable[[], DocumentSearcher]


class MultiSearcher:
    """Same call as `HybridSearcher.search`; hits carry the library they came from."""

    def __init__(self, libraries: Sequence[tuple[str, SearcherProvider]], embedder: Embedder,
                 settings: Settings) -> None:
        if not libraries:
            raise ValueError("at least one library")
        self.libraries = list(libraries)
        self.embedder = embedder
        self.settings = settings

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.libraries]

    def search(self, query: str, *, k: int | None = None,
               filters: SearchFilters | None = None, legs: tuple[str, ...] = LEGS,
               query_vector: np.ndarray | None = None) -> list[Hit]:
        """Fused hits of every library, best first."""
        return self.search_with_report(query, k=k, filters=filters, legs=legs,
                                       query_vector=query_vector).hits

    def search_with_report(self, query: str, *, k: int | None = None,
                           filters: SearchFilters | None = None, legs: tuple[str, ...] = LEGS,
                           query_vector: np.ndarray | None = None) -> SearchResult:
        """The hits with the report of the whole search (each library's warnings, named)."""
        k = k or self.settings.retrieval_k
        report = SearchReport()
        if "vector" in legs and query_vector is None:
            t0 = time.perf_counter()
            query_vector = self.embedder.embed_query(query)
            report.timings_ms["embed"] = (time.perf_counter() - t0) * 1000
        per_library: dict[str, list[Hit]] = {}
        used: list[str] = []
        for name, provider in self.libraries:
            t0 = time.perf_counter()
            try:
                searcher = provider()
                found = searcher.search_with_report(query, k=k, filters=filters, legs=legs,
                                                    query_vector=query_vector)
            except AppError as exc:
                report.warnings.append(SearchWarning(SearchWarningCode.LIBRARY_UNAVAILABLE,
                                                     exc.user_message, library=name))
                continue
            report.warnings += [replace(w, library=name) for w in found.report.warnings]
            used += [leg for leg in found.report.legs_used if leg not in used]
            report.timings_ms[f"library:{name}"] = (time.perf_counter() - t0) * 1000
            per_library[name] = [replace(h, library=name) for h in found.hits]
        report.legs_used = tuple(used)
        if len(per_library) <= 1:
            return SearchResult(next(iter(per_library.values()), []), report)
        fused = fuse_hits(list(per_library.values()), k=self.settings.rrf_k)[:k]
        return SearchResult([replace(hit, score=score) for hit, score in fused], report)
