"""Abstention: answer "not found" when the documents do not support an answer.

Decided once per question, before any model is called, for both answer modes, from
the evidence the sources-only ranking already computed:

- `semantic margin`: the best question↔sentence cosine among the candidates minus the
  library's baseline. A raw cosine threshold does not travel: with e5 the score of an
  unrelated question moves with the corpus (0.80–0.83 measured on three sets), so the
  threshold is expressed against the library's own typical similarity — the median
  cosine between passages of different documents, sampled from the index and cached
  per library size (`LibraryBaseline`).
- `coverage`: the share of the question's content terms (folded, stemmed) that occur
  in the top passages. A question about "a capital da Austrália" shares "capital" with
  a privacy law but never "Austrália".

The answer is "not found" when the coverage is below `abstain_min_coverage`, or when
the semantic margin is below `abstain_min_margin` (when an embedder ranked). Both live
in settings; README "Abstention" documents how they were calibrated.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from desktop_app.answer.extractive import ExtractiveAnswer, terms
from desktop_app.config.settings import Settings
from desktop_app.retrieval.types import Hit

CLOSEST_PASSAGES = 3  # shown, collapsed, beside "not found"
EVIDENCE_PASSAGES = 4  # the passages whose terms count as evidence (as many as are ranked)
BASELINE_SAMPLE = 512  # chunk vectors sampled to estimate the library's baseline
BASELINE_REFRESH = 0.1  # recompute when the library grew or shrank by this fraction


@dataclass(frozen=True)
class Evidence:
    best_cosine: float | None  # best question↔sentence similarity (None: no embedder)
    baseline: float | None  # the library's typical passage↔passage similarity
    coverage: float  # share of the question's content terms found in the top passages
    question_terms: int
    missing: tuple[str, ...]  # content terms of the question the passages never use
    abstain: bool
    reason: str | None

    @property
    def margin(self) -> float | None:
        if self.best_cosine is None or self.baseline is None:
            return None
        return self.best_cosine - self.baseline

    def trace(self) -> dict[str, Any]:
        margin = self.margin
        return {"best_cosine": _round(self.best_cosine), "baseline": _round(self.baseline),
                "margin": _round(margin), "coverage": round(self.coverage, 3),
                "question_terms": self.question_terms, "missing": list(self.missing),
                "abstain": self.abstain, "reason": self.reason}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def assess(extract: ExtractiveAnswer, hits: list[Hit], settings: Settings,
           baseline: float | None) -> Evidence:
    """Does the evidence support answering? (see the module docstring)"""
    question_terms = extract.question_terms
    found: set[str] = set()
    for hit in hits[:EVIDENCE_PASSAGES]:
        found |= question_terms & terms(hit.text)
    coverage = len(found) / len(question_terms) if question_terms else 1.0
    missing = tuple(sorted(question_terms - found))
    cosines = [q.semantic for q in extract.candidates if q.semantic is not None]
    best = max(cosines) if cosines else None
    reason = None
    if not settings.abstention_enabled:
        reason = None
    elif not extract.candidates:
        reason = "no quotable sentence"
    elif coverage < settings.abstain_min_coverage:
        reason = "question terms missing from the passages"
    elif best is not None and baseline is not None \
            and best - baseline < settings.abstain_min_margin:
        reason = "passages not close enough in meaning"
    return Evidence(best, baseline, coverage, len(question_terms), missing, reason is not None,
                    reason)


def describe(settings: Settings, baseline: float | None) -> dict[str, Any]:
    return {"enabled": settings.abstention_enabled,
            "min_coverage": settings.abstain_min_coverage,
            "min_margin": settings.abstain_min_margin,
            "library_baseline": _round(baseline)}


def passage_baseline(vectors: np.ndarray, doc_ids: list[str], *, pairs: int = 4000,
                     seed: int = 0) -> float | None:
    """Median cosine between passages of different documents (or, in a one-document
    library, passages at least three positions apart)."""
    n = len(vectors)
    if n < 4:
        return None
    rng = np.random.default_rng(seed)
    a = rng.integers(0, n, pairs)
    b = rng.integers(0, n, pairs)
    distinct_docs = len(set(doc_ids)) > 1
    keep = np.array([(doc_ids[i] != doc_ids[j]) if distinct_docs else abs(int(i) - int(j)) >= 3
                     for i, j in zip(a, b, strict=True)])
    if keep.sum() < 10:
        return None
    similarities = np.einsum("ij,ij->i", vectors[a[keep]], vectors[b[keep]])
    return float(np.median(similarities))


class LibraryBaseline:
    """The library's typical passage↔passage similarity, cached per library size.

    `sample` returns (vectors, doc ids) of up to `BASELINE_SAMPLE` chunks and `size`
    the current chunk count; both come from the index (wired in `app.py`)."""

    def __init__(self, sample: Callable[[int], tuple[np.ndarray, list[str]]],
                 size: Callable[[], int]) -> None:
        self._sample = sample
        self._size = size
        self._lock = threading.Lock()
        self._cached: tuple[int, float | None] | None = None

    def baseline(self) -> float | None:
        size = self._size()
        with self._lock:
            cached = self._cached
            if cached is not None and abs(size - cached[0]) <= BASELINE_REFRESH * max(cached[0], 1):
                return cached[1]
            vectors, doc_ids = self._sample(BASELINE_SAMPLE)
            value = passage_baseline(vectors, doc_ids) if len(vectors) else None
            self._cached = (size, value)
            return value
