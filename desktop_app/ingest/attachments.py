"""Attachments (an e-mail's files) indexed as documents of their own, linked to the message.

An attachment's `source_path` is its carrier's, then `ATTACHMENT_MARK`, the first hex
digits of its content hash and its name: "/mail/inbox.mbox#attachment/3fa2…/parecer.pdf".
So the link needs no column of its own (every backend stores it), one file sent in five
messages is one document, and a message re-read after a change keeps the attachments
whose bytes did not change (they are found unchanged by key and hash, never embedded
again). The carrier's file decides their fate: they go when it goes or stops carrying
them (`stale_children`), and pruning treats them as the carrier (`owner_of`).

Each attachment is written to a private temporary folder under its own name, read by the
loader of its type with the usual limits, chunked and embedded like a file; its notes say
where it came from. Attachments of attachments are not followed.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Generator, Iterable, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from desktop_app.errors import AppError, CancelledError, LimitExceededError
from desktop_app.ingest.events import FileDone, FileFailed, FileSkipped, IngestEvent
from desktop_app.ingest.journal import FAILED, SKIPPED
from desktop_app.ingest.types import Attachment

if TYPE_CHECKING:
    from desktop_app.ingest.pipeline import IngestPipeline
    from desktop_app.retrieval.index_api import DocumentRecord

ATTACHMENT_MARK = "#attachment/"
MAX_ATTACHMENT_BYTES = 256 * 1024 * 1024


def attachment_key(carrier: str, content_hash: str, name: str) -> str:
    return f"{carrier}{ATTACHMENT_MARK}{content_hash[:16]}/{name}"


def owner_of(source_path: str) -> str:
    """The file that carries a document: itself, or an attachment's message file."""
    return source_path.split(ATTACHMENT_MARK, 1)[0]


def is_attachment(source_path: str) -> bool:
    return ATTACHMENT_MARK in source_path


def children(records: Iterable[DocumentRecord], carrier: str) -> list[DocumentRecord]:
    prefix = carrier + ATTACHMENT_MARK
    return [r for r in records if r.source_path.startswith(prefix)]


def stale_children(records: Iterable[DocumentRecord], carrier: str,
                   kept: set[str]) -> list[DocumentRecord]:
    """The carrier's attachment documents whose keys it no longer carries."""
    return [r for r in children(records, carrier) if r.source_path not in kept]


def _safe_name(name: str) -> str:
    clean = PurePath(name.replace("\\", "/")).name.strip().lstrip(".") or "attachment"
    return clean[:150]


def ingest_attachments(pipeline: IngestPipeline, carrier: str,
                       attachments: Sequence[Attachment], cancelled: Callable[[], bool]
                       ) -> Generator[IngestEvent, None, tuple[int, int, int]]:
    """Index a carrier's attachments; yields their events, returns (indexed, skipped,
    failed). Attachments the carrier no longer has are removed afterwards."""
    indexed = skipped = failed = 0
    kept: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="acervo-attachment-") as folder:
        for attachment in attachments:
            if cancelled():
                raise CancelledError()
            name = _safe_name(attachment.name)
            label = f"{carrier}{ATTACHMENT_MARK}{name}"
            try:
                data = attachment.read()
                if len(data) > MAX_ATTACHMENT_BYTES:
                    raise LimitExceededError(
                        f"“{name}” (an attachment) is larger than the "
                        f"{MAX_ATTACHMENT_BYTES // (1 << 20)} MB limit; it was not indexed.")
                if not data:
                    raise AppError(f"“{name}” (an attachment) is empty.")
                content_hash = hashlib.sha256(data).hexdigest()
                key = attachment_key(carrier, content_hash, name)
                if key in kept:
                    continue  # the same file sent again in another message
                kept.add(key)
                label = key
                path = Path(folder) / f"{len(kept)}" / name
                path.parent.mkdir()
                path.write_bytes(data)
                del data
                event = yield from pipeline.ingest_bytes_file(
                    path, key, content_hash, cancelled,
                    origin=f"attachment of {attachment.origin}" if attachment.origin else "")
                path.unlink(missing_ok=True)
            except CancelledError:
                raise
            except AppError as exc:
                failed += 1
                limit = isinstance(exc, LimitExceededError)
                pipeline.journal.record(label, SKIPPED if limit else FAILED,
                                        reason=exc.user_message)
                yield FileFailed(label, exc.user_message, limit=limit)
                continue
            if isinstance(event, FileSkipped):
                skipped += 1
            elif isinstance(event, FileDone):
                indexed += 1
            yield event
    pipeline.remove_stale_attachments(carrier, kept)
    return indexed, skipped, failed
