"""Progress events yielded by the ingestion pipeline (the GUI turns them into signals)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FileStarted:
    path: str
    index: int  # 1-based position in this run
    total: int  # files discovered so far in this run


@dataclass(frozen=True)
class PagesParsed:
    path: str
    pages_done: int
    pages_total: int


@dataclass(frozen=True)
class ChunksEmbedded:
    path: str
    chunks_done: int
    chunks_total: int


@dataclass(frozen=True)
class FileDone:
    path: str
    doc_id: str
    chunks: int
    pages: int
    notes: tuple[str, ...] = ()  # e.g. ("no text layer on pages 3–9",)


@dataclass(frozen=True)
class FileSkipped:
    path: str
    reason: str  # e.g. "unchanged"


@dataclass(frozen=True)
class FileFailed:
    path: str
    reason: str  # user-facing message
    limit: bool = False  # refused by a hostile-file limit (skipped by a limit, not damaged)


@dataclass(frozen=True)
class FileRemoved:
    path: str
    doc_id: str


@dataclass(frozen=True)
class RunDone:
    indexed: int
    skipped: int
    failed: int
    removed: int
    cancelled: bool = False
    stopped: str = ""  # why the run ended early (full disk, read-only folder, library busy)
    exit_code: int = 0  # the CLI's exit code for `stopped` (desktop_app.errors.EXIT_CODES)
    links_skipped: int = 0  # folders reached again through a link (a loop): not read twice


IngestEvent = (
    FileStarted | PagesParsed | ChunksEmbedded | FileDone | FileSkipped | FileFailed
    | FileRemoved | RunDone
)
