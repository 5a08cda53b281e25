"""Data passed between loaders, cleaning, chunking and the pipeline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

PageProgress = Callable[[int, int], None]
"""`progress(pages_done, pages_total)`; may raise (e.g. CancelledError) to stop loading."""


@dataclass(frozen=True)
class Heading:
    """A heading found on a page: `start` is its char offset in the page text."""

    start: int
    level: int  # 1 = top level
    title: str


@dataclass(frozen=True)
class OcrText:
    """How an OCR'd page's text was read: the page's mean confidence and, per recognized
    word, (char_start, char_end, confidence, box) with the box as fractions of the page."""

    confidence: float
    words: tuple[tuple[int, int, float, tuple[float, float, float, float]], ...] = ()


@dataclass
class PageText:
    """Clean text of one page (1-based `number`); chunk offsets refer to this text."""

    number: int
    text: str
    headings: list[Heading] = field(default_factory=list)
    ocr: OcrText | None = None  # set when the text was read from the page image
    # (start, end) of struck-through text: revoked wording of a compiled law, kept in the
    # text (the viewer shows it) but never quoted as an answer or searched
    revoked: list[tuple[int, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Attachment:
    """A file carried inside a document (an e-mail's attachment), indexed as a document of
    its own linked to its carrier (`ingest/attachments.py`). `read()` gives its bytes when
    it is indexed, not before (a mailbox may carry gigabytes of them)."""

    name: str  # the file name as sent ("relatório.pdf")
    page: int  # the page of the carrier it came with (a mailbox's message)
    size: int  # bytes, as declared or measured
    read: Callable[[], bytes]
    origin: str = ""  # what carried it, for the attachment's notes ("“Subject”, message 12")


@dataclass
class LoadedDocument:
    """What a loader returns: clean pages plus notes for the file's status line."""

    path: str
    file_type: str  # "pdf" | "docx" | "md" | "txt" | "html" | "xlsx" | "eml" | … (loaders.py)
    title: str
    pages: list[PageText]
    notes: list[str] = field(default_factory=list)  # e.g. "no text layer on pages 3–9"
    empty_pages: list[int] = field(default_factory=list)  # image-only pages (1-based)
    ocr_engine: str = ""  # engine id when some pages were read by OCR
    attachments: list[Attachment] = field(default_factory=list)
