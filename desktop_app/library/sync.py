"""Keeping the library in step with its folders: at start (what changed while Acervo was
closed, and the work a crash or a quit left unfinished) and as a watcher reports changes.

Everything goes through the ingestion pipeline's incremental path: unchanged files are
recognised by size and time or by hash, a changed file re-embeds only its changed
passages, a renamed one reuses its vectors, a deleted one leaves the library. `SyncSummary`
says what changed, for the window's status line and the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.ingest.events import FileDone, FileFailed, FileRemoved, IngestEvent, RunDone
from desktop_app.ingest.pathnames import display_path

if TYPE_CHECKING:
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.library.folders import Folders
    from desktop_app.library.watch import ChangeBatch


def start_up(pipeline: IngestPipeline, folders: Folders,
             cancel: Callable[[], bool] | None = None) -> Iterator[IngestEvent]:
    """Finish interrupted runs and bring every watched folder up to date (one run)."""
    roots = [f.folder for f in folders.watched() if f.folder.is_dir()]
    yield from pipeline.run(roots, cancel=cancel, prune_missing=True, resume=True)


def apply_batch(pipeline: IngestPipeline, batch: ChangeBatch,
                cancel: Callable[[], bool] | None = None) -> Iterator[IngestEvent]:
    """One watcher batch as one run: new and changed files (and folders read again, whose
    vanished files are pruned), then the deleted files removed."""
    roots: list[Path] = [*batch.files, *sorted(batch.rescan)]
    yield from pipeline.run(roots, cancel=cancel, prune_missing=bool(batch.rescan),
                            removed=sorted(batch.removed))


@dataclass
class SyncSummary:
    """What a sync did, by file name."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    done: RunDone | None = None

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.failed)

    def english(self) -> str:
        """"2 added (a.pdf, b.docx), 1 removed (c.txt)" for the terminal and the log."""
        parts = []
        for word, names in (("added", self.added), ("changed", self.changed),
                            ("removed", self.removed), ("failed", self.failed)):
            if names:
                shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
                parts.append(f"{len(names)} {word} ({shown})")
        return "; ".join(parts) or "nothing changed"


class SummaryCollector:
    """Feed it a run's events; it sorts them into a `SyncSummary`. `before`: the source
    paths the index held before the run, so an indexed file can be told added from
    changed (None: every indexed file counts as added)."""

    def __init__(self, before: set[str] | None = None) -> None:
        self.before = before
        self.summary = SyncSummary()

    def add(self, event: IngestEvent) -> None:
        name = Path(display_path(event.path)).name if hasattr(event, "path") else ""
        if isinstance(event, FileDone):
            fresh = self.before is None or event.path not in self.before
            (self.summary.added if fresh else self.summary.changed).append(name)
        elif isinstance(event, FileRemoved):
            self.summary.removed.append(name)
        elif isinstance(event, FileFailed):
            self.summary.failed.append(name)
        elif isinstance(event, RunDone):
            self.summary.done = event


def indexed_paths(pipeline: IngestPipeline) -> set[str]:
    """The source paths the pipeline's index holds now (for `SummaryCollector`)."""
    return {r.source_path for r in pipeline.index.documents()}
