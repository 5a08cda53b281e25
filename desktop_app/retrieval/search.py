"""Hybrid search over any store: a vector leg and a keyword leg, fused with RRF.

One searcher for every `index_api.SearchLegs` — documents in LanceDB or on a PostgreSQL
team server, memories, conversation exchanges. It embeds the query once (or takes the
caller's vector, so one turn embeds once for documents, memories and recall), runs the
legs (each filters inside its store and returns rows best-first with deterministic
ties), and fuses their ranks with `fusion.rrf_fuse`. When the store was built by another
embedder the vector leg is skipped and the searcher says so (keyword search keeps
working); a leg stopped by a damaged file is left out the same way, and a store with
something to say about what it could search (`search_notice`: rows lost to a damaged file,
a revoked grant) adds it to the report. Document hits (`Hit`) are built here and nowhere
else.

`search_with_report` gives the hits together with what happened (`SearchReport`: the legs
used, a library searched by keywords only or skipped, timings); `search` the hits alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

import numpy as np

from desktop_app.config.settings import Settings
from desktop_app.errors import DamagedStoreError
from desktop_app.retrieval.fusion import rrf_fuse
from desktop_app.retrieval.index_api import ChunkRow, Scored, SearchLegs
from desktop_app.retrieval.types import Embedder, Hit, SearchFilters

log = logging.getLogger(__name__)

LEGS = ("vector", "keyword")
RowT = TypeVar("RowT")
FilterT = TypeVar("FilterT")


class SearchWarningCode(StrEnum):
    KEYWORD_ONLY = "keyword_only"  # indexed with another embedder; detail: the ids
    LIBRARY_UNAVAILABLE = "library_unavailable"  # could not be searched; detail: why
    DAMAGED = "damaged"  # searched in part: files of the store are damaged; detail: what


@dataclass(frozen=True)
class SearchWarning:
    """Something that made a search less than complete: a code for the window and the
    answer, English words (`str`) for the CLI."""

    code: SearchWarningCode
    detail: str = ""
    library: str = ""  # set when several libraries were searched

    def __str__(self) -> str:
        return f"{self.library}: {self.detail}" if self.library else self.detail


@dataclass
class SearchReport:
    """What happened during one search (for the CLI, GUI banner and answer traces)."""

    legs_used: tuple[str, ...] = ()
    warnings: list[SearchWarning] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchResult:
    """A search's document hits, best first, and its report."""

    hits: list[Hit]
    report: SearchReport


@dataclass(frozen=True)
class Ranked(Generic[RowT]):
    """A fused result: the row, its RRF score and its 1-based rank in each leg that had it."""

    row: RowT
    score: float
    ranks: Mapping[str, int]


def hit_from(ranked: Ranked[ChunkRow]) -> Hit:
    """The one place a document `Hit` is made (from a stored row and its fusion ranks)."""
    r = ranked.row
    return Hit(
        chunk_id=r.chunk_id, doc_id=r.doc_id, position=r.position, text=r.text, prefix=r.prefix,
        title=r.title, source_path=r.source_path, file_type=r.file_type, language=r.language,
        page_start=r.page_start, page_end=r.page_end, char_start=r.char_start,
        char_end=r.char_end, heading_path=r.heading_path, score=ranked.score,
        legs=frozenset(ranked.ranks), vector_rank=ranked.ranks.get("vector"),
        keyword_rank=ranked.ranks.get("keyword"), library=r.library,
        ocr_confidence=r.ocr_confidence, ocr_boxes=r.ocr_boxes, revoked=r.revoked, path=r.path)


class HybridSearcher(Generic[RowT, FilterT]):
    """`search_rows` for any store; `search` gives document `Hit`s."""

    def __init__(self, index: SearchLegs[RowT, FilterT], embedder: Embedder,
                 settings: Settings | None = None, *,
                 index_provider: Callable[[], SearchLegs[RowT, FilterT]] | None = None) -> None:
        self._index = index
        self._index_provider = index_provider  # e.g. the active generation after a reindex
        self.embedder = embedder
        self.settings = settings or Settings()

    @property
    def index(self) -> SearchLegs[RowT, FilterT]:
        return self._index_provider() if self._index_provider else self._index

    def search_rows(self, query: str, *, k: int | None = None, filters: FilterT | None = None,
                    legs: tuple[str, ...] = LEGS, query_vector: np.ndarray | None = None,
                    depth: int | None = None) -> list[Ranked[RowT]]:
        """Fused rows, best first (ties by the legs' `tiebreak`).

        `legs` may restrict to one leg (evaluation, debugging); `query_vector` skips
        embedding when the caller already has it; `depth` is how many rows each leg
        fetches (default: the `leg_k` setting, at least `k`)."""
        return self._ranked(query, k=k, filters=filters, legs=legs, query_vector=query_vector,
                            depth=depth)[0]

    def _ranked(self, query: str, *, k: int | None, filters: FilterT | None,
                legs: tuple[str, ...], query_vector: np.ndarray | None,
                depth: int | None = None) -> tuple[list[Ranked[RowT]], SearchReport]:
        s = self.settings
        k = k or s.retrieval_k
        depth = depth or max(s.leg_k, k)
        store = self.index
        report = SearchReport()
        results: dict[str, Sequence[Scored[RowT]]] = {}
        if "vector" in legs:
            if store.vector_usable:
                t0 = time.perf_counter()
                vector = (query_vector if query_vector is not None
                          else self.embedder.embed_query(query))
                t1 = time.perf_counter()
                found = _leg(lambda: store.search_vector(vector, depth, filters), report)
                if found is not None:
                    results["vector"] = found
                report.timings_ms["embed"] = (t1 - t0) * 1000
                report.timings_ms["vector"] = (time.perf_counter() - t1) * 1000
            else:
                report.warnings.append(SearchWarning(SearchWarningCode.KEYWORD_ONLY,
                                                     store.mismatch_message()))
        if "keyword" in legs:
            t0 = time.perf_counter()
            found = _leg(lambda: store.search_keyword(query, depth, filters), report)
            if found is not None:
                results["keyword"] = found
            report.timings_ms["keyword"] = (time.perf_counter() - t0) * 1000
        # a store may have something to say about what it could search (rows lost to a
        # damaged file, a grant revoked): `search_notice`, optional
        ask = getattr(store, "search_notice", None)
        notice = ask() if callable(ask) else None
        if isinstance(notice, SearchWarning) and notice.code not in {
                w.code for w in report.warnings}:
            report.warnings.append(notice)
        report.legs_used = tuple(results)
        rows: dict[str, RowT] = {}
        ranked: dict[str, list[tuple[str, str, int]]] = {}
        for leg, scored in results.items():
            ranked[leg] = [(item.key, *_fusion_tiebreak(item)) for item in scored]
            for item in scored:
                rows.setdefault(item.key, item.row)
        weights = {"vector": s.vector_weight, "keyword": s.keyword_weight}
        fused = rrf_fuse(ranked, k=s.rrf_k, weights=weights)[:k]
        return [Ranked(rows[f.key], f.score, dict(f.ranks)) for f in fused], report

    def search_with_report(self: HybridSearcher[ChunkRow, SearchFilters], query: str, *,
                           k: int | None = None, filters: SearchFilters | None = None,
                           legs: tuple[str, ...] = LEGS,
                           query_vector: np.ndarray | None = None) -> SearchResult:
        """Fused document hits, best first, with the search's report."""
        ranked, report = self._ranked(query, k=k, filters=filters, legs=legs,
                                      query_vector=query_vector)
        return SearchResult([hit_from(r) for r in ranked], report)

    def search(self: HybridSearcher[ChunkRow, SearchFilters], query: str, *,
               k: int | None = None, filters: SearchFilters | None = None,
               legs: tuple[str, ...] = LEGS, query_vector: np.ndarray | None = None) -> list[Hit]:
        """Fused document hits, best first (`search_with_report` says what happened)."""
        return self.search_with_report(query, k=k, filters=filters, legs=legs,
                                       query_vector=query_vector).hits


DocumentSearcher = HybridSearcher[ChunkRow, SearchFilters]


def _leg(run: Callable[[], Sequence[Scored[RowT]]],
         report: SearchReport) -> Sequence[Scored[RowT]] | None:
    """One leg's rows; None when a damaged file stopped it (the other leg still runs, and
    the report says why once)."""
    try:
        return run()
    except DamagedStoreError as exc:
        if not any(w.code == SearchWarningCode.DAMAGED for w in report.warnings):
            report.warnings.append(SearchWarning(SearchWarningCode.DAMAGED, exc.user_message))
        return None


def _fusion_tiebreak(item: Scored[Any]) -> tuple[str, int]:
    """`rrf_fuse` breaks ties on (doc id, position): a chunk's own; a row without a position
    (a memory, an exchange) by its key."""
    tiebreak = item.tiebreak
    if len(tiebreak) == 2 and isinstance(tiebreak[1], int):
        return str(tiebreak[0]), tiebreak[1]
    return "\0".join(str(t) for t in tiebreak) or item.key, 0
