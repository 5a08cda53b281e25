"""Documents leaving the library: files gone from a folder (pruning, a watched folder's
deletions), a message's attachments it no longer carries, an explicit removal.

A mixin of `IngestPipeline` (it writes under the same index, lock and journal). A message
file's attachments are documents of their own (`attachments.py`): they leave with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_app.ingest.events import FileRemoved
from desktop_app.ingest.pathnames import path_from_key, path_key

if TYPE_CHECKING:
    from desktop_app.ingest.journal import IngestJournal
    from desktop_app.retrieval.index_api import DocumentIndex, DocumentRecord

# File types whose documents carry attachments (ingest/attachments.py).
CARRIERS = frozenset({"eml", "mbox"})


class Removals:
    """What `IngestPipeline` does when documents go."""

    index: DocumentIndex
    journal: IngestJournal
    _lock_timeout: float | None

    def _prune(self, paths: Sequence[Path], seen: set[str],
               cancelled: Callable[[], bool]) -> Iterator[FileRemoved]:
        from desktop_app.ingest.attachments import owner_of

        folders = [path_key(Path(p).expanduser().resolve()) for p in paths if Path(p).is_dir()]
        if not folders:
            return
        sources = sorted({d.source_path for d in self.index.documents()})
        for source in sources:
            owner = owner_of(source)  # an attachment lives and goes with its message
            if owner in seen or not any(owner.startswith(f.rstrip(os.sep) + os.sep)
                                        for f in folders):
                continue
            if path_from_key(owner).exists():
                continue  # e.g. hidden or now-unsupported; leave it to an explicit remove
            yield from self.remove_path(source, cancelled=cancelled)
        # files that were never indexed (failed, skipped by a limit) and are gone: their
        # status goes too
        for key in self.journal.paths():
            owner = owner_of(key)
            if owner not in seen and any(owner.startswith(f.rstrip(os.sep) + os.sep)
                                         for f in folders) \
                    and not path_from_key(owner).exists():
                self.journal.forget(key)

    def remove_path(self, source: str, *, cancelled: Callable[[], bool] | None = None
                    ) -> Iterator[FileRemoved]:
        """Everything indexed from `source` (and, for a message file, its attachments) leaves
        the library: the file is gone (a watched folder saw it deleted, or a run pruned it)."""
        from desktop_app.ingest.attachments import children

        with self.index.writing("removing documents whose files are gone",
                                timeout=self._lock_timeout, cancel=cancelled):
            records = self.index.documents_at(source)
            if any(r.file_type in CARRIERS for r in records):
                records += children(self.index.documents(), source)
            for record in records:
                self.index.delete_document(record.doc_id, purge=False)
                self.journal.forget(record.source_path)
                yield FileRemoved(record.source_path, record.doc_id)
        self.journal.forget(source)

    def remove_stale_attachments(self, carrier: str, kept: set[str]) -> None:
        """Attachment documents of `carrier` that it no longer carries leave the library."""
        from desktop_app.ingest.attachments import stale_children

        stale = stale_children(self.index.documents(), carrier, kept)
        if not stale:
            return
        with self.index.writing("removing attachments", timeout=self._lock_timeout):
            for record in stale:
                self.index.delete_document(record.doc_id, purge=False)
                self.journal.forget(record.source_path)

    def discard_unfinished(self) -> None:
        """The user stopped the work on purpose: nothing is resumed at the next start."""
        for run_id, _roots, _prune in self.journal.unfinished():
            self.journal.end(run_id)

    def remove_document(self, doc_id: str, *,
                        lock_timeout: float | None = None) -> DocumentRecord | None:
        """Delete a document (a message with its attachments) everywhere in the index and
        purge old versions from disk."""
        from desktop_app.ingest.attachments import children

        with self.index.writing("removing a document", timeout=lock_timeout):
            record = self.index.document(doc_id)
            attached = (children(self.index.documents(), record.source_path)
                        if record is not None and record.file_type in CARRIERS else [])
            for child in attached:
                self.index.delete_document(child.doc_id, purge=False)
                self.journal.forget(child.source_path)
            self.index.delete_document(doc_id, purge=True)
        if record is not None:
            self.journal.forget(record.source_path)
            self.journal.flush()
        return record
