"""Retrieval data types shared by search, answering, memory and the GUI."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np


class Embedder(Protocol):
    """Turns text into normalized float32 vectors of size `dim`."""

    id: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def resolve_embedder(source: Embedder | Callable[[], Embedder]) -> Embedder:
    """The embedder itself, or the one a factory builds (stores take either, so the model
    loads only when they first need a vector)."""
    if callable(source) and not hasattr(source, "dim"):
        return source()
    return source  # type: ignore[return-value]


@dataclass(frozen=True)
class SearchFilters:
    """Filters applied inside both legs and re-checked on the fused list."""

    file_types: tuple[str, ...] = ()
    since: str | None = None  # ISO date, compared with ingested_at
    until: str | None = None
    modified_since: str | None = None
    folder: str | None = None  # source path prefix
    language: str | None = None
    # only these documents (a collection, or documents chosen in the library list)
    doc_ids: tuple[str, ...] = ()
    # what `doc_ids` stand for, as the answer's trace records and shows it ("collection
    # “Contratos”", "3 selected documents"); a label, never a filter itself
    scope: str = ""


def ocr_label(confidence: float | None) -> str:
    """"OCR 96%" for a passage read from a page image, "" for text-layer passages."""
    return "" if confidence is None else f"OCR {round(100 * confidence)}%"


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    doc_id: str
    position: int
    text: str
    prefix: str
    title: str
    source_path: str
    file_type: str
    language: str
    page_start: int
    page_end: int
    char_start: int
    char_end: int
    heading_path: tuple[str, ...]
    score: float  # fused score
    legs: frozenset[str] = field(default_factory=frozenset)  # {"vector", "keyword"}
    vector_rank: int | None = None  # 1-based
    keyword_rank: int | None = None
    rerank_score: float | None = None
    ocr_confidence: float | None = None  # set when the text was read by OCR (0–1)
    ocr_boxes: str = ""  # JSON line boxes of the passage on the page image (ingest/ocr.py)
    library: str = "local"  # "local" or the team library's name (badges say where it lives)
    revoked: tuple[tuple[int, int], ...] = ()  # struck-through (revoked) ranges of `text`
    path: str = ""  # the structural unit the passage starts in ("Art. 18, § 2º")


@dataclass(frozen=True)
class Chunk:
    """A retrievable unit of a document."""

    doc_id: str
    position: int  # 0-based order within the document
    text: str
    page_start: int
    page_end: int
    heading_path: tuple[str, ...]
    char_start: int  # offset in the text of page `page_start`
    char_end: int  # offset in the text of page `page_end` (exclusive)
    prefix: str  # "title › section", indexed together with the text
    ocr_confidence: float | None = None  # None: from a text layer; else OCR confidence 0–1
    ocr_boxes: str = ""  # JSON [[page, x0, y0, x1, y1], ...] page fractions (ingest/ocr.py)
    # struck-through (revoked) text as (start, end) offsets of `text`: kept to be shown,
    # never searched or quoted as an answer
    revoked: tuple[tuple[int, int], ...] = ()
    path: str = ""  # the structural unit the chunk starts in ("Art. 18, § 2º", "3.2")

    @property
    def chunk_id(self) -> str:
        return f"{self.doc_id}:{self.position}"
