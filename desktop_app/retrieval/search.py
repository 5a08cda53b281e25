"""Hybrid search: a vector leg and a BM25 leg on every query, fused with RRF.

Filters run inside both legs (LanceDB prefilter) and are re-checked on the fused
list. When the index was built by another embedder, the vector leg is skipped
and the searcher says so (keyword search keeps working).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.retrieval.fusion import rrf_fuse
from desktop_app.retrieval.index import LanceIndex, filters_to_sql
from desktop_app.retrieval.legacy_adapter import LegacyIndexView, scored_to_rows
from desktop_app.retrieval.types import Embedder, Hit, SearchFilters
from desktop_app.text.analyze import analyze

log = logging.getLogger(__name__)

LEGS = ("vector", "keyword")


@dataclass
class SearchReport:
    """What happened during the last search (for the CLI, GUI banner and answer traces)."""

    legs_used: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


def _passes(row: dict[str, Any], filters: SearchFilters | None) -> bool:
    if filters is None:
        return True
    if filters.file_types and row["file_type"] not in filters.file_types:
        return False
    if filters.since and row["ingested_at"] < filters.since:
        return False
    if filters.until and row["ingested_at"] >= filters.until:
        return False
    if filters.modified_since and row["modified_at"] < filters.modified_since:
        return False
    if filters.language and row["language"] != filters.language:
        return False
    if filters.folder:
        folder = str(Path(filters.folder).expanduser().resolve())
        if row["folder"] != folder and not row["folder"].startswith(folder.rstrip("/") + "/"):
            return False
    return True


AnyIndex = LanceIndex | LegacyIndexView  # until issue 12's one Index protocol


class HybridSearcher:
    def __init__(self, index: AnyIndex, embedder: Embedder, settings: Settings,
                 *, index_provider: Callable[[], AnyIndex] | None = None) -> None:
        self._index = index
        self._index_provider = index_provider
        self.embedder = embedder
        self.settings = settings
        self.last_report = SearchReport()

    @property
    def index(self) -> AnyIndex:
        return self._index_provider() if self._index_provider else self._index

    def search(self, query: str, *, k: int | None = None,
               filters: SearchFilters | None = None, legs: tuple[str, ...] = LEGS,
               query_vector: np.ndarray | None = None) -> list[Hit]:
        """Fused hits, best first.

        `legs` may restrict to one leg (evaluation, debugging); `query_vector` skips
        embedding when the caller already has it (batch evaluation).
        """
        k = k or self.settings.retrieval_k
        index = self.index
        report = SearchReport()
        # a team library's typed legs take the filters and the raw query themselves
        typed = index.typed if isinstance(index, LegacyIndexView) else None
        where = None if typed else filters_to_sql(filters)
        depth = max(self.settings.leg_k, k)
        results: dict[str, list[dict[str, Any]]] = {}
        if "vector" in legs:
            if index.embedder_matches:
                t0 = time.perf_counter()
                vector = (query_vector if query_vector is not None
                          else self.embedder.embed_query(query))
                t1 = time.perf_counter()
                results["vector"] = (
                    scored_to_rows(typed.search_vector(vector, depth, filters)) if typed
                    else index.search_vector(vector, depth, where))  # type: ignore[union-attr]
                report.timings_ms["embed"] = (t1 - t0) * 1000
                report.timings_ms["vector"] = (time.perf_counter() - t1) * 1000
            else:
                report.warnings.append(index.mismatch_message())
        if "keyword" in legs:
            t0 = time.perf_counter()
            results["keyword"] = (
                scored_to_rows(typed.search_keyword(query, depth, filters)) if typed
                else index.search_keyword(analyze(query), depth, where))  # type: ignore[union-attr]
            report.timings_ms["keyword"] = (time.perf_counter() - t0) * 1000
        report.legs_used = tuple(results)
        rows: dict[str, dict[str, Any]] = {}
        ranked: dict[str, list[tuple[str, str, int]]] = {}
        for leg, leg_rows in results.items():
            kept = [r for r in leg_rows if _passes(r, filters)]
            # LanceDB returns ties in arbitrary order; make each leg deterministic too.
            score_key = "_distance" if leg == "vector" else "_score"
            sign = 1.0 if leg == "vector" else -1.0
            kept.sort(key=lambda r: (sign * float(r.get(score_key, 0.0)), r["doc_id"],
                                     r["position"]))
            ranked[leg] = [(r["chunk_id"], r["doc_id"], r["position"]) for r in kept]
            for r in kept:
                rows.setdefault(r["chunk_id"], r)
        weights = {"vector": self.settings.vector_weight, "keyword": self.settings.keyword_weight}
        fused = rrf_fuse(ranked, k=self.settings.rrf_k, weights=weights)[:k]
        self.last_report = report
        hits = []
        for f in fused:
            r = rows[f.key]
            hits.append(Hit(
                chunk_id=r["chunk_id"], doc_id=r["doc_id"], position=r["position"],
                text=r["text"], prefix=r["prefix"], title=r["title"],
                source_path=r["source_path"], file_type=r["file_type"], language=r["language"],
                page_start=r["page_start"], page_end=r["page_end"],
                char_start=r["char_start"], char_end=r["char_end"],
                heading_path=tuple(r["heading_path"] or ()), score=f.score,
                legs=frozenset(f.ranks), vector_rank=f.ranks.get("vector"),
                keyword_rank=f.ranks.get("keyword"), library=r.get("library", "local"),
                ocr_confidence=r.get("ocr_confidence"), ocr_boxes=r.get("ocr_boxes") or "",
            ))
        return hits
