"""Events streamed by the answer service (the GUI turns them into signals)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class QuoteSpan:
    """The exact text a badge stands for, located in its chunk and in the document.

    `start`/`end` index the chunk text (`Citation.snippet[start:end] == text`);
    `page`/`char_start` and `page_end`/`char_end` use the chunk's own coordinates
    (offsets into the text of those pages, as `Citation.char_start/char_end`), so a
    viewer can highlight exactly the quoted words. `exact` is False when the quote could
    only be placed at the chunk level (a chunk spread over 3+ pages).
    """

    text: str
    start: int
    end: int
    page: int
    char_start: int
    page_end: int
    char_end: int
    exact: bool = True


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
    ocr_confidence: float | None = None  # set when the passage was read by OCR
    ocr_boxes: str = ""  # its line boxes on the page image (JSON, see ingest/ocr.py)
    # the exact words of the passage the badge stands for: the sentence or block quoted
    # (sources-only answers) or the sentence that best supports `claim` (written answers)
    quote: QuoteSpan | None = None
    library: str = "local"  # where the source lives: "local" or a team library's name
    claim: str = ""  # written answers: the answer's sentence this badge supports

    @property
    def ocr_label(self) -> str:
        """"OCR 96%" when the passage was read from a scan, else ""."""
        from desktop_app.retrieval.types import ocr_label

        return ocr_label(self.ocr_confidence)


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
class RecallUsed:
    """An earlier chat the answer's context drew on ("from your chat of 15 Nov")."""

    conversation_id: str
    date_label: str
    message_ids: tuple[str, ...]
    excerpt: str  # its first turns, for the sources-only answer
    started_at: str = ""  # ISO 8601: the window dates it in the UI's language


@dataclass(frozen=True)
class Done:
    answer: str  # final text, with unverifiable [n] markers removed
    citations: tuple[Citation, ...]
    warnings: tuple[str, ...] = ()  # e.g. "no supporting evidence", "answered from sources only"
    sources_only: bool = False
    trace: dict[str, Any] = field(default_factory=dict)  # rewritten query, hits, timings, memories
    # when the answer is "not found": the passages that came closest, for the user to judge
    # (shown apart from the answer, never as badges)
    closest: tuple[Citation, ...] = ()


AnswerEvent = Token | CitationEvent | MemoryUsed | RecallUsed | Progress | Done
