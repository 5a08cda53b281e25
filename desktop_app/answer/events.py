"""Events streamed by the answer service (the GUI turns them into signals)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Citation:
    """A verified source badge [n] pointing at a real chunk and page."""

    number: int  # the [n] shown to the user
    doc_id: str
    chunk_id: str
    title: str
    source_path: str
    file_type: str
    page: int  # 1-based page where the passage starts
    page_end: int
    char_start: int
    char_end: int
    score: float
    legs: frozenset[str]
    snippet: str  # the chunk text (for highlight / preview)
    library: str = "local"  # where the source lives: "local" or a team library's name


@dataclass(frozen=True)
class Token:
    text: str


@dataclass(frozen=True)
class CitationEvent:
    """Emitted as soon as a [n] marker completes in the stream."""

    citation: Citation


SEARCHING, READING, WRITING = "searching", "reading", "writing"


@dataclass(frozen=True)
class Progress:
    """What the answer service is doing before the first word arrives: "searching"
    (retrieval, and the follow-up rewrite), "reading" `count` passages (choosing
    sentences, or the model processing its prompt — the long wait on a laptop), and
    "writing" (the model has started; its first words may still be held back)."""

    stage: str
    count: int = 0


@dataclass(frozen=True)
class MemoryUsed:
    memory_id: str
    text: str


@dataclass(frozen=True)
class Done:
    answer: str  # final text, with unverifiable [n] markers removed
    citations: tuple[Citation, ...]
    warnings: tuple[str, ...] = ()  # e.g. "no supporting evidence", "answered from sources only"
    sources_only: bool = False
    trace: dict[str, Any] = field(default_factory=dict)  # rewritten query, hits, timings, memories


AnswerEvent = Token | CitationEvent | MemoryUsed | Progress | Done
